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

Besides:

* The search index is folded: each accented word is indexed without its accents too, so that
  "piege" finds *Piège*; the Italian and French copies of the pages whose titles are not
  translated are left out of it (found once, in English, not three times).
* The pages built in Italian and French: the generated pages are written into ``docs/`` for the
  build (mkdocs-static-i18n localises only the files there), and the head's language
  alternates, which made Material fetch a ``sitemap.xml`` beside every page, are left out.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
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


def folded(text: str) -> str:
    """The text with its accents taken off, so that "piege" finds "piège".

    >>> folded("Piège, réapprovisionnement, più")
    'Piege, reapprovisionnement, piu'
    """
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def with_folded_words(entry: dict[str, Any]) -> dict[str, Any]:
    """A search index entry whose text ends with its accented words without their accents (each
    once; an entry that has them already is unchanged)."""
    text = str(entry.get("text", ""))
    present = {w.lower() for w in re.findall(r"\w+", text)}
    missing = sorted({folded(w).lower() for w in present if folded(w) != w} - present)
    if missing:
        entry = {**entry, "text": f"{text} <span hidden>{' '.join(missing)}</span>"}
    return entry


#: The folders of the site's other languages.
LANGUAGE_FOLDERS = ("it/", "fr/")


def without_copies(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The search index without the Italian and French copies of English pages: a page with no
    translation is built in every language as it is, and the specification's pages with their
    labels alone translated, their clauses' titles the English ones. Each section is found once,
    not three times; a section whose title is translated stays.

    >>> entries = [{"location": "spec/#a", "title": "A-1", "text": "Sources: x"},
    ...     {"location": "it/spec/#a", "title": "A-1", "text": "Fonti: x"},
    ...     {"location": "guide/", "title": "Guide", "text": "y"},
    ...     {"location": "it/guide/", "title": "Guida", "text": "y"}]
    >>> [e["location"] for e in without_copies(entries)]
    ['spec/#a', 'guide/', 'it/guide/']
    """
    english = {
        entry["location"]: entry.get("title")
        for entry in entries
        if not str(entry.get("location", "")).startswith(LANGUAGE_FOLDERS)
    }

    def is_copy(entry: dict[str, Any]) -> bool:
        location = str(entry.get("location", ""))
        for folder in LANGUAGE_FOLDERS:
            if location.startswith(folder):
                original = english.get(location.removeprefix(folder))
                return original == entry.get("title")
        return False

    return [entry for entry in entries if not is_copy(entry)]


#: The generated pages and pictures written into the docs directory for the build (removed after
#: it; ``.gitignore`` lists them), so that the i18n plugin, which localises only the files of
#: the docs directory, builds them in every language.
_MATERIALIZED: set[Path] = set()
#: Under ``mkdocs serve`` they stay (taking them out would wake the watcher: a rebuild loop).
_KEEP_MATERIALIZED = {"serve": False}


def on_startup(*, command: str, dirty: bool) -> None:
    """Remember whether the site is served (the generated files then stay in ``docs/``)."""
    _KEEP_MATERIALIZED["serve"] = command == "serve"


@event_priority(-50)  # after mkdocs-gen-files (0), before mkdocs-static-i18n (-100)
def on_files(files: Any, config: Any) -> Any:
    """Write each generated file into the docs directory and let the build read it there."""
    from mkdocs.structure.files import File

    docs = Path(config["docs_dir"]).resolve()
    for file in list(files):
        source = Path(file.abs_src_path).resolve()
        if source.is_relative_to(docs):
            continue
        target = docs / file.src_uri
        content = source.read_bytes()
        if not target.is_file() or target.read_bytes() != content:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        _MATERIALIZED.add(target)
        files.remove(file)
        files.append(
            File(file.src_uri, str(docs), config["site_dir"], config["use_directory_urls"])
        )
    return files


@event_priority(-200)  # after mkdocs-static-i18n has built every language and merged the search
def on_post_build(config: Any) -> None:
    """Fold the accents of the search index (each accented word is indexed without them too),
    and take the generated files back out of the docs directory."""
    for index in Path(config["site_dir"]).glob("**/search/search_index.json"):
        data = json.loads(index.read_text(encoding="utf-8"))
        data["docs"] = [with_folded_words(entry) for entry in without_copies(data.get("docs", []))]
        index.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    if _KEEP_MATERIALIZED["serve"]:
        return
    docs = Path(config["docs_dir"]).resolve()
    for path in sorted(_MATERIALIZED, reverse=True):
        path.unlink(missing_ok=True)
        for folder in path.parents:
            if folder == docs or any(folder.iterdir()):
                break
            folder.rmdir()
    _MATERIALIZED.clear()


#: The head's links to a page's other languages, which mkdocs-static-i18n gives every page.
_ALTERNATE_LINK = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def without_alternate_links(html: str) -> str:
    """A page without the ``<link rel="alternate" hreflang>`` of its head.

    Material's script fetches ``sitemap.xml`` beside each such link, meant for a language's
    home; beside a page it is not there (a 404 on every page). The language switch of the
    header keeps its links, and the sitemap lists every page's translations.

    >>> without_alternate_links('<head>\\n<link rel="alternate" href="../it/x/" hreflang="it">\\n'
    ...                         '<link rel="icon" href="i.png">')
    '<head>\\n<link rel="icon" href="i.png">'
    """
    return _ALTERNATE_LINK.sub("", html)


def on_post_page(output: str, page: Any, config: Any) -> str:
    """Take the language alternates out of the page's head (:func:`without_alternate_links`)."""
    return without_alternate_links(output)
