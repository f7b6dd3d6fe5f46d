"""mkdocs hooks of the documentation site (registered under ``hooks:`` in ``mkdocs.yml``).

* Every clause, ruling and rulebook ID in the running text of every page becomes a link to its
  anchor (``tests/site_links.py``); an ID that names nothing stops the build.
* The engine's API page opens with a table of the public API and shows only it; the other
  members of its modules go to the internals page (``tests/api_reference.py``).
* Every picture of the table is shown once, as its narrow drawing (``x-narrow.svg``, 328 px
  wide, its text 12 px), which the text column shows whole at its own size on a desktop and
  on a phone alike; a click opens its wide drawing (``x.svg``), the table as it lies.
* The API pages link back to the clauses: under the heading of each function or class that
  ``spec/clauses.toml`` names, a line lists the clauses it implements.
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.utils import get_relative_url

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from tests.api_reference import (  # noqa: E402
    INTERNALS_MARKER,
    PUBLIC_MARKER,
    internals_markdown,
    load_package,
    public_api_markdown,
)
from tests.clause_map import load_clause_map  # noqa: E402
from tests.doc_pages import ANCHORED_HEADING, SPEC_PAGES, narrow_name  # noqa: E402
from tests.site_links import id_prefixes, link_ids, link_targets  # noqa: E402

log = logging.getLogger("mkdocs.plugins.outofgears")
_CLAUSES = load_clause_map()
_TARGETS = link_targets(SPEC_PAGES, _CLAUSES, ANCHORED_HEADING)
_PREFIXES = id_prefixes(_TARGETS)
_IMPLEMENTS: dict[str, list[str]] = {}
for _clause in _CLAUSES:
    for _function in _clause.functions:
        _IMPLEMENTS.setdefault(_function, []).append(_clause.id)
#: The heading mkdocstrings gives an object: ``<h3 id="outofgears.rules.turn.apply_turn" ...>``.
_API_HEADING = re.compile(r'(<h[1-6] id="(?P<path>outofgears\.[\w.]+)"[^>]*>.*?</h[1-6]>)', re.S)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Expand the API markers: the public API's table and modules, and the internals."""
    if PUBLIC_MARKER in markdown:
        markdown = markdown.replace(PUBLIC_MARKER, public_api_markdown(load_package()))
    if INTERNALS_MARKER in markdown:
        markdown = markdown.replace(INTERNALS_MARKER, internals_markdown(load_package()))
    return markdown


#: A picture of the table alone in its paragraph, as Markdown renders ``![...](img/x.svg)``.
_PICTURE = re.compile(r'<p>(?P<img><img [^>]*?src="(?P<src>[^"]+\.svg)"[^>]*>)</p>')


def _figure(img: str, src: str) -> str:
    """One picture, once: its narrow drawing, which the text column shows whole at its own
    size on any screen, in a link to its wide drawing (a click enlarges it)."""
    narrow = narrow_name(src.removesuffix(".svg")) + ".svg"
    shown = img.replace(f'src="{src}"', f'src="{narrow}"', 1)
    return (
        f'<figure class="oog-figure"><a class="oog-picture" href="{src}" '
        f'title="Open the picture of the whole table, full size">{shown}</a></figure>'
    )


def with_pictures(html: str) -> str:
    """Each picture once, in a figure: its narrow drawing (the whole table in the column,
    text 12 px), a link to its wide drawing (click to enlarge)."""
    return _PICTURE.sub(lambda match: _figure(match["img"], match["src"]), html)


def _page_url(files: Any, document: str) -> str | None:
    file = files.get_file_from_path(document)
    return None if file is None else str(file.url)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """Link the IDs of a page; under each implementing function, the clauses it implements."""
    if page.file.src_uri.startswith("reference/"):

        def implements(match: re.Match[str]) -> str:
            ids = _IMPLEMENTS.get(match["path"])
            if not ids:
                return match[0]
            return f'{match[0]}\n<p class="oog-implements">Implements {", ".join(ids)}.</p>'

        html = _API_HEADING.sub(implements, html)

    def url_of(identifier: str) -> str | None:
        target = _TARGETS.get(identifier)
        if target is None:
            return None
        document, _, fragment = target.partition("#")
        if document == page.file.src_uri:
            return f"#{fragment}"
        url = _page_url(files, document)
        if url is None:
            return None
        return f"{get_relative_url(url, page.url)}#{fragment}"

    html = with_pictures(html)
    linked, unknown = link_ids(html, url_of, _PREFIXES)
    if unknown:
        # a warning, so that a strict build lists every one of them and then fails
        log.warning(f"{page.file.src_uri}: unknown clause or ruling ID(s) {sorted(set(unknown))}")
    return linked
