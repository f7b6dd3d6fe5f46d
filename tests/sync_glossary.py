"""Write the glossary's tables (``docs/guide/glossary.md``) from the term list (``spec/terms.toml``).

Run from the repository root after changing the term list::

    .venv/bin/python -m tests.sync_glossary          # rewrite the tables
    .venv/bin/python -m tests.sync_glossary --check  # exit 1 if they are out of date

Only the text between the page's ``<!-- terms -->`` and ``<!-- /terms -->`` lines changes.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Final

from tests.doc_pages import DOCS_DIR
from tests.terms import OURS, terms

GLOSSARY: Final = DOCS_DIR / "guide" / "glossary.md"
START: Final = "<!-- terms -->"
END: Final = "<!-- /terms -->"

#: The glossary's sections, by the terms' kind.
SECTIONS: Final = (
    ("piece", "Pieces"),
    ("card", "Cards"),
    ("colour", "Colours"),
    ("place", "Places"),
    ("phase", "Phases of the game"),
    ("term", "Actions and other words"),
)


def word_cell(term: dict[str, Any], lang: str) -> str:
    """A word as the glossary shows it: the rulebook's, or the project's, marked so."""
    if term[f"{lang}_line"] == OURS:
        return f"{term[lang]} (ours)"
    return str(term[lang])


def tables() -> str:
    """Every section's table, in the term list's order within each section."""
    out: list[str] = []
    for kind, heading in SECTIONS:
        out += [
            f"## {heading}",
            "",
            "| English | Italian | French | What it is | Clauses |",
            "|---|---|---|---|---|",
        ]
        out += [
            f"| {term['en']} | {word_cell(term, 'it')} | {word_cell(term, 'fr')} "
            f"| {term['meaning']} | {', '.join(term['clauses'])} |"
            for term in terms()
            if term["kind"] == kind
        ]
        out.append("")
    return "\n".join(out)


def rewritten(page: str) -> str:
    """The page with its tables written anew from the term list."""
    head, start, rest = page.partition(START + "\n")
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise SystemExit(f"{GLOSSARY} has no {START} ... {END} block")
    return f"{head}{START}\n{tables()}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if out of date")
    page = GLOSSARY.read_text(encoding="utf-8")
    wanted = rewritten(page)
    if parser.parse_args(argv).check:
        return 0 if wanted == page else 1
    GLOSSARY.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
