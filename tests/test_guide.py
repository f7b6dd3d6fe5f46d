"""The players' guide: plain language, no code, and a glossary in the rulebooks' own words."""

from __future__ import annotations

import re

import pytest

from tests.clause_map import REPO_ROOT, load_clause_map, shared_rules_dir
from tests.doc_pages import ANCHORED_HEADING, DOCS_DIR
from tests.site_links import DEVELOPER_NOTE, note_end, with_clause_links

GUIDE = DOCS_DIR / "guide"
GLOSSARY = GUIDE / "glossary.md"
RULEBOOKS = {
    "Italian": shared_rules_dir() / "fuori-di-rotella.it.txt",
    "French": shared_rules_dir() / "out-of-gears.fr.txt",
}


def glossary_rows() -> list[list[str]]:
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in GLOSSARY.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and not line.startswith("| English")
    ]
    return [row for row in rows if not set(row[0]) <= {"-"}]


def test_the_guide_pages_are_in_the_nav_and_hold_no_code() -> None:
    nav = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in sorted(GUIDE.glob("*.md")):
        # a translation (index.it.md) is in the nav through its English page (i18n plugin)
        assert f"guide/{re.sub(r'[.](it|fr)[.]md$', '.md', page.name)}" in nav
        text = page.read_text(encoding="utf-8")
        assert "```" not in text
        assert ">>>" not in text
        assert "import " not in text


def test_the_glossary_gives_the_words_of_both_rulebooks() -> None:
    rows = glossary_rows()
    english = [row[0] for row in rows]
    for word in ("gear", "dump", "circuit", "attack", "trap", "harvest", "reserve"):
        assert word in english
    by_word = {row[0]: row for row in rows}
    assert by_word["gear"][1:3] == ["rotella", "engrenage"]
    assert by_word["dump"][1:3] == ["discarica", "décharge"]


@pytest.mark.parametrize(("column", "language"), [(1, "Italian"), (2, "French")])
def test_every_glossary_word_is_the_rulebooks_own(column: int, language: str) -> None:
    book = RULEBOOKS[language]
    if not book.exists():
        pytest.skip(f"the {language} rulebook is not beside the repository")
    text = book.read_text(encoding="utf-8").lower()
    for row in glossary_rows():
        word = row[column]
        if word.startswith("—"):
            continue
        assert re.search(rf"\b{re.escape(word.lower())}", text), f"{word!r} not in {book.name}"


@pytest.mark.parametrize(
    "doc", ["spec/base-game.md", "spec/two-robot-variant.md", "spec/expansions.md"]
)
def test_each_clause_shows_one_note_for_developers_ending_with_its_functions(doc: str) -> None:
    clauses = [c for c in load_clause_map() if c.doc == doc]
    page = with_clause_links(
        (REPO_ROOT / doc).read_text(encoding="utf-8"),
        doc,
        {clause.id: clause for clause in clauses},
        {},
        ANCHORED_HEADING,
    )
    sections = ANCHORED_HEADING.split(page)[1:]
    notes = {
        heading_id: body.count(DEVELOPER_NOTE)
        for heading_id, body in zip(sections[1::4], sections[3::4], strict=True)
    }
    assert notes == {clause.id: 1 for clause in clauses}
    # the functions close the clause's note
    for body in sections[3::4]:
        lines = body.splitlines()
        last = lines[note_end(lines, lines.index(DEVELOPER_NOTE)) - 1]
        assert last.startswith("    Implemented by: [")
    assert "<details" not in page
