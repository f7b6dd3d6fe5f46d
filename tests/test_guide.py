"""The players' guide: plain language, no code, and a glossary in the rulebooks' own words."""

from __future__ import annotations

import re

import pytest

from tests import sync_glossary
from tests.clause_map import REPO_ROOT, load_clause_map
from tests.doc_pages import ANCHORED_HEADING, DOCS_DIR
from tests.site_links import DEVELOPER_NOTE, note_end, with_clause_links
from tests.terms import terms

GUIDE = DOCS_DIR / "guide"
GLOSSARY = GUIDE / "glossary.md"


def glossary_rows() -> list[list[str]]:
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in GLOSSARY.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and not line.startswith("| English |")
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


def test_the_glossary_is_the_term_list() -> None:
    """The glossary's tables are written from spec/terms.toml (python -m tests.sync_glossary)."""
    assert sync_glossary.main(["--check"]) == 0, "run python -m tests.sync_glossary"
    rows = glossary_rows()
    assert len(rows) == len(terms())
    by_word = {row[0]: row for row in rows}
    assert by_word["gear"][1:3] == ["rotella", "Engrenage"]
    assert by_word["exploration"][1:3] == ["Esplorazione", "Réapprovisionnement"]
    assert by_word["red"][1:3] == ["rosso (ours)", "rouge (ours)"]


def test_the_glossary_does_not_call_a_defence_an_attack_on_oneself() -> None:
    rows = {row[0]: row for row in glossary_rows()}
    assert "not an attack on oneself" in rows["defence"][3]
    assert "only if" in rows["trap"][3]
    assert "3 or more" in rows["assembly"][3]
    assert "chosen by its player" in rows["assembly"][3]
    assert "per robot" in rows["program"][3] or "one robot" in rows["program"][3]


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


def test_every_reserve_written_in_a_page_is_dealt_in_the_order_written() -> None:
    """``gears(...)`` sorts its colours, and the reserve is the one ordered pile: a page that
    writes ``reserve=gears(3, 2, 1)`` would be dealt red first. So a reserve written with
    ``gears`` lists its colours in ascending order (another order is written as a sum of
    ``gears`` calls, each kept in order)."""
    pages = [*DOCS_DIR.rglob("*.md"), *(REPO_ROOT / "spec").glob("*.md"), REPO_ROOT / "README.md"]
    unordered = [
        f"{page.relative_to(REPO_ROOT)}: reserve=gears({found})"
        for page in pages
        for found in re.findall(r"reserve=gears\(([\d, ]*)\)", page.read_text(encoding="utf-8"))
        if [int(n) for n in found.split(",") if n.strip()]
        != sorted(int(n) for n in found.split(",") if n.strip())
    ]
    assert not unordered, "\n".join(unordered)
