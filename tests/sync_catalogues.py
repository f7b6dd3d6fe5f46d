"""Bring the gettext catalogues of ``outofgears/words/locale/`` in step with the code.

Run from the repository root after changing a message in the code or a translation::

    .venv/bin/python -m tests.sync_catalogues          # update the .po files, compile the .mo
    .venv/bin/python -m tests.sync_catalogues --check  # exit 1 if anything is out of step

The messages are extracted by Babel from the package's sources (calls of ``gettext``,
``ngettext``, ``pgettext`` and ``npgettext``, the methods of :func:`outofgears.words.translator`,
and of ``choice_refused`` and ``choice_refused_counted``, the rules' refusals of a choice),
with the title of every clause of ``spec/clauses.toml`` (context ``clause title``);
each ``.po`` keeps its translations, gains the new messages untranslated and loses the messages
the code no longer has; each ``.mo`` is compiled from its ``.po``. Babel is a development
dependency only: at run time the standard library's :mod:`gettext` reads the ``.mo`` files.
"""

from __future__ import annotations

import argparse
import datetime
import gettext
import io
import sys
from pathlib import Path
from typing import Any, Final

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from outofgears.clauses import clauses
from outofgears.words import CLAUSE_TITLE, DOMAIN, LANGUAGES

REPO_ROOT: Final = Path(__file__).resolve().parent.parent
PACKAGE: Final = REPO_ROOT / "outofgears"
LOCALE: Final = PACKAGE / "words" / "locale"

#: The gettext calls Babel reads: the message's argument positions, the context's first.
KEYWORDS: Final = {
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    # the rules' refusals of a choice (outofgears.rules.refusals)
    "choice_refused": None,
    "choice_refused_counted": (1, 2),
}


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return po_path(lang).with_suffix(".mo")


def extracted() -> Catalog:
    """Every message of the package's sources, as a template."""
    template = Catalog(domain=DOMAIN, project="outofgears", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE), keywords=KEYWORDS, comment_tags=("Translators:",)
    ):
        template.add(
            message,
            locations=[(f"outofgears/{filename}", lineno)],
            auto_comments=comments,
            context=context,
        )
    for clause in clauses().values():
        template.add(clause.title, locations=[("spec/clauses.toml", 0)], context=CLAUSE_TITLE)
    return template


def read_catalogue(lang: str) -> Catalog:
    path = po_path(lang)
    if not path.is_file():
        return Catalog(locale=lang, domain=DOMAIN, project="outofgears", fuzzy=False)
    with path.open("rb") as po:
        return read_po(po, locale=lang, domain=DOMAIN)


def po_bytes(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalogue, width=100, omit_header=False, sort_output=True, include_lineno=False)
    return out.getvalue()


def mo_bytes(catalogue: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalogue, use_fuzzy=False)
    return out.getvalue()


def updated(lang: str, template: Catalog) -> Catalog:
    """The catalogue of ``lang`` with the template's messages, its translations kept."""
    catalogue = read_catalogue(lang)
    catalogue.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalogue.obsolete.clear()
    # Fixed dates, so that the files change only when a message does.
    catalogue.revision_date = catalogue.creation_date = FIXED_DATE
    return catalogue


#: The date written in the catalogues' headers.
FIXED_DATE: Final = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)

Key = tuple[str | None, str]


def message_ids(catalogue: Catalog) -> set[Key]:
    """Each message's context and English text (the header aside)."""
    return {
        (m.context, str(m.id[0] if isinstance(m.id, tuple) else m.id)) for m in catalogue if m.id
    }


def compiled(data: bytes) -> dict[Any, str]:
    """What the standard library reads from a compiled catalogue (its header aside)."""
    return {k: v for k, v in gettext.GNUTranslations(io.BytesIO(data))._catalog.items() if k != ""}  # type: ignore[attr-defined]


def stale_files() -> list[Path]:
    """The catalogue files out of step: a ``.po`` whose messages are not the code's, a ``.mo``
    that does not hold its ``.po``'s translations."""
    ids = message_ids(extracted())
    stale: list[Path] = []
    for lang in LANGUAGES[1:]:
        catalogue = read_catalogue(lang)
        if not po_path(lang).is_file() or message_ids(catalogue) != ids:
            stale.append(po_path(lang))
        path = mo_path(lang)
        if not path.is_file() or compiled(path.read_bytes()) != compiled(mo_bytes(catalogue)):
            stale.append(path)
    return stale


def write(lang: str) -> None:
    """Update the ``.po`` of ``lang`` from the code and compile its ``.mo``."""
    catalogue = updated(lang, extracted())
    po_path(lang).parent.mkdir(parents=True, exist_ok=True)
    po_path(lang).write_bytes(po_bytes(catalogue))
    mo_path(lang).write_bytes(mo_bytes(catalogue))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if out of step")
    stale = stale_files()
    if parser.parse_args(argv).check:
        for path in stale:
            print(f"out of step: {path.relative_to(REPO_ROOT)}", file=sys.stderr)
        return 1 if stale else 0
    for lang in LANGUAGES[1:]:
        write(lang)
    return 0


if __name__ == "__main__":
    sys.exit(main())
