"""The documentation site's pages hold: their code runs, their pictures exist, their anchors do.

The worked examples (``docs/examples/*.md``) and the home page are executed here as doctests,
so an example that no longer tells the truth fails the suite; ``mkdocs build --strict`` in
``.ci/run`` checks the links and anchors of the built site.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests.api_reference import ENGINE_MODULES
from tests.clause_map import (
    REPO_ROOT,
    clause_headings,
    load_clause_map,
    ruling_headings,
    shared_rules_dir,
)
from tests.doc_pages import (
    DOCS_DIR,
    EXAMPLES_DIR,
    RULEBOOK_BOX,
    RUN_PAGES,
    SPEC_PAGES,
    clause_index,
    example_pages,
    load_sources,
    rulebook_clauses_page,
    run_page,
    shown_pictures,
    with_clause_anchors,
    with_rulebook_boxes,
)

PAGES = (*RUN_PAGES, *example_pages())


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS_DIR).as_posix())
def test_the_code_of_the_page_runs_as_written(page: Path) -> None:
    run = run_page(page)
    assert run.examples, f"{page.name} has no >>> examples"
    assert run.failures == 0, run.report


@pytest.mark.parametrize("page", example_pages(), ids=lambda p: p.name)
def test_a_worked_example_shows_the_table_before_and_after_and_the_events(page: Path) -> None:
    run = run_page(page)
    shown = shown_pictures(page)
    assert sorted(run.pictures) == sorted(shown), (
        f"{page.name}: pictures drawn {sorted(run.pictures)}, shown {sorted(shown)}"
    )
    assert any(name.endswith("before") for name in shown)
    assert any(name.endswith("after") for name in shown)
    text = page.read_text(encoding="utf-8")
    assert ">>> trace(result)" in text
    assert re.search(r"^turn \d+ ended.* \[(TURN|END)-1\]$", text, re.MULTILINE)
    # each picture has its narrow twin, for phones
    assert sorted(run.narrow) == sorted(run.pictures)
    for svg in (*run.pictures.values(), *run.narrow.values()):
        assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert all(run.narrow[name] != run.pictures[name] for name in shown)


def test_picture_names_are_unique_across_the_examples() -> None:
    names = Counter(name for page in example_pages() for name in shown_pictures(page))
    assert not [name for name, count in names.items() if count > 1]


def test_there_are_at_least_eight_worked_examples_each_in_the_nav() -> None:
    pages = example_pages()
    assert len(pages) >= 8
    nav = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    index = (EXAMPLES_DIR / "index.md").read_text(encoding="utf-8")
    for page in pages:
        assert f"examples/{page.name}" in nav
        assert f"]({page.name})" in index


def test_every_clause_and_ruling_heading_gets_its_permanent_anchor() -> None:
    for _, source in SPEC_PAGES:
        text = (REPO_ROOT / source).read_text(encoding="utf-8")
        anchored = with_clause_anchors(text)
        ids = [h.id for h in clause_headings(text)] + [h.id for h in ruling_headings(text)]
        for identifier in ids:
            assert f" {{#{identifier.lower()}}}\n" in anchored, f"{source}: {identifier}"
        # only the anchors are added: the visible text is the spec's own
        assert re.sub(r" \{#[a-z0-9-]+\}$", "", anchored, flags=re.MULTILINE) == text


def test_the_clause_index_lists_every_clause_source_function_and_test() -> None:
    clauses = load_clause_map()
    page = clause_index(clauses)
    for clause in clauses:
        assert f"[{clause.id}]({clause.doc}#{clause.id.lower()})" in page
        for source in clause.sources:
            assert f"</span>{source} |" in page
            assert f"| {', '.join(clause.sources)} |" in page
        for function in clause.functions:
            assert f"][{function}]" in page
        for test in clause.tests:
            assert f"<code>{test}</code>" in page


def test_every_module_of_the_package_is_in_the_api_reference() -> None:
    documented = {
        match
        for page in (DOCS_DIR / "reference").glob("*.md")
        for match in re.findall(r"^::: (outofgears[\w.]*)$", page.read_text("utf-8"), re.M)
    } | {"outofgears", *(f"outofgears.{module}" for module in ENGINE_MODULES)}
    package = REPO_ROOT / "outofgears"
    modules = {
        ".".join(("outofgears", *path.relative_to(package).with_suffix("").parts)).removesuffix(
            ".__init__"
        )
        for path in package.rglob("*.py")
    }
    # The commands are documented by the CLI reference; __main__ is `python -m outofgears`.
    commands = {module for module in modules if module.startswith("outofgears.cli")}
    # The log format's modules are documented through the package, which re-exports them.
    log_format = {module for module in modules if module.startswith("outofgears.log.")}
    log_format -= {"outofgears.log.serialization", "outofgears.log.wire"}
    missing = sorted(modules - documented - commands - log_format - {"outofgears.__main__"})
    assert not missing, f"modules missing from docs/reference/*.md: {missing}"
    engine = (DOCS_DIR / "reference" / "engine.md").read_text("utf-8")
    assert "<!-- outofgears:public-api -->" in engine  # the engine modules, expanded by the hook


def test_every_cited_rulebook_clause_has_a_one_line_summary_and_no_other_is_listed() -> None:
    cited = {source for clause in load_clause_map() for source in clause.sources}
    sources = load_sources()
    assert set(sources) == cited
    for source in sources.values():
        assert source.summary.endswith("."), source.id
        assert "\n" not in source.summary, source.id
        assert source.section, source.id


def test_the_summaries_of_the_rulebook_clauses_copy_no_rulebook_sentence() -> None:
    books = sorted(shared_rules_dir().glob("*.txt")) if shared_rules_dir().is_dir() else []
    if not books:
        pytest.skip("no rulebooks beside the repository")

    def runs(text: str, size: int = 8) -> set[tuple[str, ...]]:
        words = re.findall(r"\w+", text.lower())
        return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}

    rulebook = set().union(*(runs(book.read_text(encoding="utf-8")) for book in books))
    copied = {s.id: runs(s.summary) & rulebook for s in load_sources().values()}
    assert {key: run for key, run in copied.items() if run} == {}


def test_each_clause_shows_its_italian_and_french_paraphrases_and_its_sources_summaries() -> None:
    from outofgears.clauses import paraphrases

    sources = load_sources()
    for clause in load_clause_map():
        text = with_rulebook_boxes(
            (REPO_ROOT / clause.doc).read_text(encoding="utf-8"), paraphrases(), sources
        )
        section = text[text.index(f"### {clause.id} — ") :]
        after = section[section.index(RULEBOOK_BOX) :].splitlines()
        box = "\n".join(after[: next(i for i, x in enumerate(after[1:], 1) if x[:1].strip())])
        assert f"**Italiano** — {paraphrases()[clause.id]['it']}" in box, clause.id
        assert f"**Français** — {paraphrases()[clause.id]['fr']}" in box, clause.id
        for source in clause.sources:
            assert f"- {source} (" in box, (clause.id, source)
            assert sources[source].summary in box, (clause.id, source)
    page = rulebook_clauses_page(sources, load_clause_map())
    assert page.count('<span id="it-') + page.count('<span id="fr-') == len(sources)


def test_at_least_forty_clauses_show_an_inline_example_each_under_its_own_clause() -> None:
    from tests.doc_pages import (
        FOR_EXAMPLE,
        clauses_with_an_inline_example,
        load_for_example,
        with_inline_examples,
    )

    examples = load_for_example()
    clauses = load_clause_map()
    assert set(examples) <= {clause.id for clause in clauses}
    documents = {c.doc: (REPO_ROOT / c.doc).read_text(encoding="utf-8") for c in clauses}
    shown = clauses_with_an_inline_example(documents, examples)
    assert len(shown) >= 40, f"{len(shown)} of {len(clauses)} clauses show an example"
    for doc, text in documents.items():
        rendered = with_inline_examples(text, examples)
        assert rendered.count(FOR_EXAMPLE) == sum(
            1 for c in clauses if c.doc == doc and c.id in examples
        )
        for clause in clauses:
            if clause.doc == doc and clause.id in examples:
                section = rendered[rendered.index(f"### {clause.id} — ") :]
                end = section.find("\n### ", 1)
                section = section if end == -1 else section[:end]
                assert f"{FOR_EXAMPLE}\n    {examples[clause.id]}\n" in section, clause.id
                # under the rule, above its sources
                assert section.index(FOR_EXAMPLE) < section.index("\nSources:"), clause.id


def test_the_inline_examples_copy_no_rulebook_sentence() -> None:
    from tests.doc_pages import load_for_example

    books = sorted(shared_rules_dir().glob("*.txt")) if shared_rules_dir().is_dir() else []
    if not books:
        pytest.skip("no rulebooks beside the repository")

    def runs(text: str, size: int = 8) -> set[tuple[str, ...]]:
        words = re.findall(r"\w+", text.lower())
        return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}

    rulebook = set().union(*(runs(book.read_text(encoding="utf-8")) for book in books))
    copied = {key: runs(text) & rulebook for key, text in load_for_example().items()}
    assert {key: run for key, run in copied.items() if run} == {}


GUIDE_PAGES = ("index", "turn-card", "table")


@pytest.mark.parametrize("page", GUIDE_PAGES)
def test_the_guide_and_the_turn_card_are_in_italian_and_french_citing_the_same_clauses(
    page: str,
) -> None:
    english = (DOCS_DIR / "guide" / f"{page}.md").read_text(encoding="utf-8")
    cited = set(re.findall(r"\b(?:R-)?[A-Z]{2,6}-\d+\b|\bR-[A-Z-]+\b", english))
    assert cited
    for lang in ("it", "fr"):
        translated = (DOCS_DIR / "guide" / f"{page}.{lang}.md").read_text(encoding="utf-8")
        assert set(re.findall(r"\b(?:R-)?[A-Z]{2,6}-\d+\b|\bR-[A-Z-]+\b", translated)) == cited

        # the same pictures and links, in the same order (the anchors in the page aside)
        def links(text: str) -> list[str]:
            return [link for link in re.findall(r"\]\(([^)]+)\)", text) if link[0] != "#"]

        assert links(translated) == links(english), lang


def test_the_players_pages_copy_no_rulebook_sentence() -> None:
    books = sorted(shared_rules_dir().glob("*.txt")) if shared_rules_dir().is_dir() else []
    if not books:
        pytest.skip("no rulebooks beside the repository")

    def runs(text: str, size: int = 8) -> set[tuple[str, ...]]:
        words = re.findall(r"\w+", text.lower())
        return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}

    rulebook = set().union(*(runs(book.read_text(encoding="utf-8")) for book in books))
    pages = sorted((DOCS_DIR / "guide").glob("*.md")) + sorted(EXAMPLES_DIR.glob("*.md"))
    # the Italian and French examples and glossary descriptions, written in our own words too
    pages += [*sorted((DOCS_DIR / "i18n").rglob("*.md")), DOCS_DIR / "i18n" / "glossary.toml"]
    pages += sorted(DOCS_DIR.glob("index.*.md"))
    copied = {
        p.relative_to(DOCS_DIR).as_posix(): runs(p.read_text(encoding="utf-8")) & rulebook
        for p in pages
    }
    assert {name: run for name, run in copied.items() if run} == {}


def test_the_glossary_reads_in_italian_and_french_with_the_pages_language_first() -> None:
    from tests.doc_pages import GLOSSARY_WORDS, translated_glossary

    english = (DOCS_DIR / "guide" / "glossary.md").read_text(encoding="utf-8")
    rows = [line for line in english.splitlines() if line.startswith("| ") and "---" not in line]
    for lang, first_column in (("it", 1), ("fr", 2)):
        page = translated_glossary(english, lang)
        translated = [line for line in page.splitlines() if line.startswith("| ")]
        assert len(translated) == len(rows)
        for row, out in zip(rows, translated, strict=True):
            cells = [c.strip() for c in row.strip("|").split("|")]
            # the project's own words marked in the page's language: (nostra), (nôtre)
            mark = str(GLOSSARY_WORDS[lang]["ours"])
            moved = [c.strip().replace(mark, "(ours)") for c in out.strip("|").split("|")]
            if cells[0] != "English":  # a row of words: the page's language first
                assert moved[0] == cells[first_column]
                assert sorted(moved) == sorted(cells)
