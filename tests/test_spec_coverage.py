"""The specification, the code and the tests agree (spec/README.md).

Fails when ``spec/clauses.toml`` drifts from the rulebook clauses of
``../shared/rules/CLAUSES.md``, from the engine's functions, from the tagged tests,
from the spec documents, or from ``spec/rulings.md``. After adding or renaming tagged
tests, ``python -m tests.sync_clause_map`` refreshes the ``tests`` lists.
"""

from __future__ import annotations

import doctest
import re
from collections import Counter
from functools import cache

import pytest

import outofgears
from tests.clause_map import (
    CLAUSE_MAP,
    REPO_ROOT,
    RULINGS_DOC,
    Clause,
    Heading,
    SuiteScan,
    clause_headings,
    field_line,
    listed_ids,
    load_clause_map,
    parse_clause_map,
    resolve_dotted,
    ruling_headings,
    scan_suite,
    shared_rules_dir,
    source_clause_ids,
    source_clauses_file,
)
from tests.sync_clause_map import rewrite_tests_arrays

#: The spec documents that hold clauses.
SPEC_DOCS = ("spec/base-game.md", "spec/two-robot-variant.md", "spec/expansions.md")
#: The spec documents that hold no clause.
OTHER_DOCS = ("spec/README.md", "spec/rulings.md", "spec/log-format.md")


@cache
def clauses() -> tuple[Clause, ...]:
    return load_clause_map(CLAUSE_MAP)


@cache
def clause_by_id() -> dict[str, Clause]:
    return {clause.id: clause for clause in clauses()}


@cache
def suite() -> SuiteScan:
    return scan_suite()


@cache
def doc_headings(doc: str) -> tuple[Heading, ...]:
    return clause_headings((REPO_ROOT / doc).read_text(encoding="utf-8"))


@cache
def rulings() -> tuple[Heading, ...]:
    return ruling_headings(RULINGS_DOC.read_text(encoding="utf-8"))


@cache
def ruling_ids() -> frozenset[str]:
    return frozenset(heading.id for heading in rulings())


def source_ids() -> tuple[str, ...]:
    path = source_clauses_file()
    if not path.is_file():
        pytest.skip(
            f"{path} is absent: the rulebook clause list lives in ../shared/rules/ beside the "
            "repository; without it the source IDs cannot be checked"
        )
    return source_clause_ids(path.read_text(encoding="utf-8"))


def report(problems: list[str]) -> str:
    return f"{len(problems)} problem(s):\n  " + "\n  ".join(problems)


# --- the map itself --------------------------------------------------------------------------


def test_clause_ids_are_unique() -> None:
    twice = sorted(cid for cid, count in Counter(c.id for c in clauses()).items() if count > 1)
    assert not twice, f"clause IDs listed more than once in {CLAUSE_MAP.name}: {twice}"


def test_every_clause_lives_in_a_spec_document() -> None:
    problems = [
        f"{clause.id}: doc {clause.doc!r} is not one of {list(SPEC_DOCS)}"
        for clause in clauses()
        if clause.doc not in SPEC_DOCS
    ]
    assert not problems, report(problems)


def test_every_spec_document_is_checked() -> None:
    """A new document under spec/ must join SPEC_DOCS (or OTHER_DOCS) to be checked."""
    found = {path.relative_to(REPO_ROOT).as_posix() for path in (REPO_ROOT / "spec").glob("*.md")}
    unknown = sorted(found - set(SPEC_DOCS) - set(OTHER_DOCS))
    missing = sorted(set(SPEC_DOCS) - found)
    assert not unknown, f"spec documents the coverage test does not check: {unknown}"
    assert not missing, f"spec documents listed in SPEC_DOCS but absent: {missing}"


def test_every_spec_document_states_the_engines_spec_version() -> None:
    """Each clause document names the version in outofgears.SPEC_VERSION, so they move together."""
    stated = f"Specification version {outofgears.SPEC_VERSION} "
    stale = [doc for doc in SPEC_DOCS if stated not in (REPO_ROOT / doc).read_text("utf-8")]
    assert not stale, f"documents not at spec version {outofgears.SPEC_VERSION}: {stale}"


def test_no_list_of_the_map_repeats_an_entry() -> None:
    problems = [
        f"{clause.id}: {name} repeats {sorted(k for k, n in Counter(items).items() if n > 1)}"
        for clause in clauses()
        for name, items in (
            ("sources", clause.sources),
            ("functions", clause.functions),
            ("rulings", clause.rulings),
            ("tests", clause.tests),
        )
        if len(set(items)) != len(items)
    ]
    assert not problems, report(problems)


# --- rulebook sources ------------------------------------------------------------------------


def test_every_rulebook_clause_is_cited() -> None:
    """Every ID of CLAUSES.md, the expansions' FR-UPG-… and FR-EXT… included."""
    cited = {source for clause in clauses() for source in clause.sources}
    missing = [sid for sid in source_ids() if sid not in cited]
    assert not missing, (
        f"rulebook clauses of CLAUSES.md that no clause of {CLAUSE_MAP.name} cites: {missing}"
    )


def test_every_cited_rulebook_clause_exists() -> None:
    known = set(source_ids())
    problems = [
        f"{clause.id} cites {source}, which CLAUSES.md does not have"
        for clause in clauses()
        for source in clause.sources
        if source not in known
    ]
    assert not problems, report(problems)


# --- implementing functions ------------------------------------------------------------------


def test_every_clause_names_a_function() -> None:
    bare = [clause.id for clause in clauses() if not clause.functions]
    assert not bare, f"clauses with no implementing function: {bare}"


def test_every_listed_function_resolves() -> None:
    problems: list[str] = []
    for clause in clauses():
        for path in clause.functions:
            try:
                target = resolve_dotted(path)
            except (ImportError, AttributeError) as error:
                problems.append(f"{clause.id}: {path} does not resolve ({error})")
                continue
            if not callable(target):
                problems.append(f"{clause.id}: {path} is not a function, method or class")
    assert not problems, report(problems)


# --- tests and markers -----------------------------------------------------------------------


def test_every_clause_has_a_test() -> None:
    untested = [clause.id for clause in clauses() if not clause.tests]
    assert not untested, (
        f"clauses with no test in {CLAUSE_MAP.name} (tag one with @pytest.mark.clause and run "
        f"python -m tests.sync_clause_map): {untested}"
    )


def test_every_listed_test_exists_and_carries_its_clause() -> None:
    found = suite().by_node_id()
    problems: list[str] = []
    for clause in clauses():
        for node_id in clause.tests:
            test = found.get(node_id)
            if test is None:
                problems.append(f"{clause.id}: {node_id} does not exist")
            elif clause.id not in test.clauses:
                problems.append(
                    f'{clause.id}: {node_id} has no @pytest.mark.clause("{clause.id}", ...)'
                )
    assert not problems, report(problems)


def test_every_tagged_test_is_listed_under_its_clause() -> None:
    known = clause_by_id()
    problems = [
        f"{node_id} is tagged {cid} but {CLAUSE_MAP.name} does not list it there "
        "(run python -m tests.sync_clause_map)"
        for cid, node_ids in suite().tests_of_clause().items()
        if cid in known
        for node_id in node_ids
        if node_id not in known[cid].tests
    ]
    assert not problems, report(problems)


def test_clause_markers_cite_known_clauses() -> None:
    known = clause_by_id()
    problems = [
        f"{node_id} cites unknown clause {cid}"
        for cid, node_ids in suite().tests_of_clause().items()
        if cid not in known
        for node_id in node_ids
    ]
    assert not problems, report(problems)


def test_markers_are_readable() -> None:
    problems = list(suite().problems)
    assert not problems, report(problems)


def test_the_stateful_machine_is_listed_under_its_module_clause() -> None:
    # ``TestWholeGame = WholeGame.TestCase`` is no ``class`` statement; pytest collects its
    # ``runTest``, which carries the module's ``pytestmark``.
    node_id = "tests/properties/test_stateful.py::TestWholeGame::runTest"
    assert suite().by_node_id()[node_id].clauses == ("TURN-1",)
    assert node_id in clause_by_id()["TURN-1"].tests


# --- spec documents --------------------------------------------------------------------------


def test_every_clause_has_a_heading_in_its_document() -> None:
    problems: list[str] = []
    for clause in clauses():
        if clause.doc not in SPEC_DOCS:
            continue  # reported by test_every_clause_lives_in_a_spec_document
        ids = [heading.id for heading in doc_headings(clause.doc)]
        if clause.id not in ids:
            problems.append(f"{clause.doc} has no heading '### {clause.id} — {clause.title}'")
    assert not problems, report(problems)


def test_documents_hold_only_mapped_clauses_each_once() -> None:
    known = clause_by_id()
    problems: list[str] = []
    for doc in SPEC_DOCS:
        ids = [heading.id for heading in doc_headings(doc)]
        for cid, count in Counter(ids).items():
            if count > 1:
                problems.append(f"{doc}: {cid} has {count} headings")
            if cid not in known:
                problems.append(f"{doc}: {cid} is not a clause of {CLAUSE_MAP.name}")
            elif known[cid].doc != doc:
                problems.append(f"{doc}: {cid} belongs in {known[cid].doc}")
    assert not problems, report(problems)


def test_documents_follow_the_map_order() -> None:
    problems: list[str] = []
    for doc in SPEC_DOCS:
        in_doc = [heading.id for heading in doc_headings(doc)]
        in_map = [clause.id for clause in clauses() if clause.doc == doc and clause.id in in_doc]
        if [cid for cid in in_doc if cid in in_map] != in_map:
            problems.append(f"{doc}: clauses in the order {in_doc}, the map has {in_map}")
    assert not problems, report(problems)


def test_clause_sections_agree_with_the_map() -> None:
    """Each section's title, Sources, Rulings and Implemented-by lines match the map."""
    problems: list[str] = []
    for doc in SPEC_DOCS:
        for heading in doc_headings(doc):
            clause = clause_by_id().get(heading.id)
            if clause is None:
                continue  # reported by test_documents_hold_only_mapped_clauses_each_once
            where = f"{doc} {heading.id}"
            if heading.title != clause.title:
                problems.append(f"{where}: title {heading.title!r}, the map has {clause.title!r}")
            for name, expected in (
                ("Sources", clause.sources),
                ("Rulings", clause.rulings),
                ("Implemented by", clause.functions),
            ):
                line = field_line(heading.body, name)
                if line is None:
                    if name != "Rulings" or expected:
                        problems.append(f"{where}: no '{name}:' line")
                elif set(listed_ids(line)) != set(expected):
                    problems.append(
                        f"{where}: {name} lists {sorted(listed_ids(line))}, "
                        f"the map has {sorted(expected)}"
                    )
    assert not problems, report(problems)


def test_spec_documents_copy_no_rulebook_sentence() -> None:
    """No run of eight words of a rulebook appears in the spec (paraphrase, never copy)."""
    rules = shared_rules_dir()
    books = sorted(rules.glob("*.txt")) if rules.is_dir() else []
    if not books:
        pytest.skip(f"no rulebooks in {rules}")

    def words(text: str) -> list[str]:
        return re.findall(r"\w+", text.lower())

    def runs(text: str, size: int = 8) -> set[tuple[str, ...]]:
        items = words(text)
        return {tuple(items[i : i + size]) for i in range(len(items) - size + 1)}

    rulebook_runs = set().union(*(runs(book.read_text(encoding="utf-8")) for book in books))
    problems = [
        f"{doc.relative_to(REPO_ROOT)} repeats the rulebook words {' '.join(run)!r}"
        for doc in sorted((REPO_ROOT / "spec").glob("*.md"))
        for run in sorted(runs(doc.read_text(encoding="utf-8")) & rulebook_runs)
    ]
    assert not problems, report(problems)


# --- rulings ---------------------------------------------------------------------------------


def test_ruling_ids_are_unique() -> None:
    twice = sorted(rid for rid, n in Counter(h.id for h in rulings()).items() if n > 1)
    assert not twice, f"rulings with more than one heading in {RULINGS_DOC.name}: {twice}"


def test_every_ruling_has_a_test() -> None:
    tested = suite().tests_of_ruling()
    untested = sorted(rid for rid in ruling_ids() if rid not in tested)
    assert not untested, f'rulings with no test tagged @pytest.mark.ruling("<ID>"): {untested}'


def test_ruling_markers_cite_known_rulings() -> None:
    problems = [
        f"{node_id} cites unknown ruling {rid}"
        for rid, node_ids in suite().tests_of_ruling().items()
        if rid not in ruling_ids()
        for node_id in node_ids
    ]
    assert not problems, report(problems)


def test_rulings_of_the_map_exist() -> None:
    problems = [
        f"{clause.id} depends on {rid}, which {RULINGS_DOC.name} does not have"
        for clause in clauses()
        for rid in clause.rulings
        if rid not in ruling_ids()
    ]
    assert not problems, report(problems)


def test_each_ruling_names_the_clauses_that_depend_on_it() -> None:
    """A ruling's 'Clauses:' line lists exactly the clauses whose map entry cites it."""
    problems: list[str] = []
    for heading in rulings():
        expected = {clause.id for clause in clauses() if heading.id in clause.rulings}
        line = field_line(heading.body, "Clauses")
        if line is None:
            problems.append(f"{heading.id}: no 'Clauses:' line")
        elif set(listed_ids(line)) != expected:
            problems.append(
                f"{heading.id}: Clauses lists {sorted(listed_ids(line))}, "
                f"the map has {sorted(expected)}"
            )
    assert not problems, report(problems)


def test_the_examples_of_the_rulings_hold() -> None:
    """The ``>>>`` examples of spec/rulings.md run as written."""
    text = RULINGS_DOC.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, RULINGS_DOC.name, str(RULINGS_DOC), 0)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.REPORT_NDIFF
    )
    output: list[str] = []
    runner.run(test, out=output.append)
    assert test.examples, f"{RULINGS_DOC.name} has no examples"
    assert runner.failures == 0, "".join(output)


# --- the sync script -------------------------------------------------------------------------


def test_sync_rewrites_only_the_tests_arrays_and_is_idempotent() -> None:
    text = CLAUSE_MAP.read_text(encoding="utf-8")
    tests_of_clause = {clause.id: [f"tests/x.py::test_{clause.id}"] for clause in clauses()}
    once = rewrite_tests_arrays(text, tests_of_clause)
    assert rewrite_tests_arrays(once, tests_of_clause) == once
    assert [c.tests for c in parse_clause_map(once)] == [
        (f"tests/x.py::test_{c.id}",) for c in clauses()
    ]

    def without_tests(source: str) -> str:
        return re.sub(r"^tests = \[[^\]]*\]", "", source, flags=re.MULTILINE)

    assert without_tests(once) == without_tests(text)


def test_the_map_is_in_sync_with_the_markers() -> None:
    text = CLAUSE_MAP.read_text(encoding="utf-8")
    assert rewrite_tests_arrays(text, suite().tests_of_clause()) == text, (
        "spec/clauses.toml is out of date: run python -m tests.sync_clause_map"
    )


def test_the_package_carries_the_spec_files_it_reads_unchanged() -> None:
    """outofgears/_spec/ holds copies of spec/ files; python -m tests.sync_clause_map refreshes them."""
    from tests.sync_clause_map import PACKAGED_SPEC_FILES

    stale = [
        name
        for name in PACKAGED_SPEC_FILES
        if (REPO_ROOT / "spec" / name).exists()
        and (REPO_ROOT / "spec" / name).read_bytes()
        != (REPO_ROOT / "outofgears" / "_spec" / name).read_bytes()
    ]
    assert not stale, f"run python -m tests.sync_clause_map: stale copies of {stale}"
