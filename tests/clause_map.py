"""Read the specification map and find the clause and ruling markers of the test suite.

Shared by ``tests/test_spec_coverage.py`` (which fails when the spec, the code and the
tests drift apart) and ``tests/sync_clause_map.py`` (which rewrites the ``tests = [...]``
lists of ``spec/clauses.toml`` from the markers).

Tests are found by reading the source with :mod:`ast`, never by importing it: a marker is
``@pytest.mark.clause("ATK-4", ...)`` or ``@pytest.mark.ruling("R-DEFENCE", ...)`` on a test
function, on a test method or its class, or in a module's or class's ``pytestmark``. A
``TestCase`` bound to a ``Test*`` name (``TestGame = Game.TestCase``, a hypothesis state
machine) is the test ``TestGame::runTest``, with the markers of its module and any applied
to it in the assignment.
"""

from __future__ import annotations

import ast
import importlib
import os
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Final

from attrs import frozen

#: The repository root (the directory holding ``spec/`` and ``tests/``).
REPO_ROOT: Final = Path(__file__).resolve().parent.parent
#: The machine-readable clause map.
CLAUSE_MAP: Final = REPO_ROOT / "spec" / "clauses.toml"
#: The rulings.
RULINGS_DOC: Final = REPO_ROOT / "spec" / "rulings.md"
#: The test suite.
TESTS_DIR: Final = REPO_ROOT / "tests"

#: A spec clause heading: ``### ATK-4 — The defender takes one gear from each attacker``.
CLAUSE_HEADING: Final = re.compile(r"^### (?P<id>[A-Z]+-\d+) — (?P<title>.*?)\s*$", re.MULTILINE)
#: A ruling heading: ``### R-DEFENCE — Defence steals``.
RULING_HEADING: Final = re.compile(
    r"^### (?P<id>R-[A-Z]+(?:-[A-Z]+)*) — (?P<title>.*?)\s*$", re.MULTILINE
)
#: A rulebook clause ID of ``CLAUSES.md``, at the start of a table row.
SOURCE_ROW: Final = re.compile(
    r"^\|\s*(?P<id>(?:IT|FR)-[A-Z0-9]+(?:-[A-Z0-9]+)*)\s*\|", re.MULTILINE
)


def shared_rules_dir(repo_root: Path = REPO_ROOT) -> Path:
    """Where the rulebooks and ``CLAUSES.md`` live: ``shared/rules`` beside the repository.

    A clone at ``X/main`` (or ``X/<anything>``) finds them at ``X/shared/rules``.

    >>> shared_rules_dir(Path("/work/main")).as_posix()
    '/work/shared/rules'

    A clone elsewhere (a worktree) names them in the environment variable ``OUTOFGEARS_RULES``.
    """
    override = os.environ.get("OUTOFGEARS_RULES")
    if override and repo_root == REPO_ROOT:
        return Path(override)
    return repo_root.parent / "shared" / "rules"


def source_clauses_file(repo_root: Path = REPO_ROOT) -> Path:
    """The path of ``CLAUSES.md`` (it may be absent, e.g. in a lone clone)."""
    return shared_rules_dir(repo_root) / "CLAUSES.md"


def source_clause_ids(text: str) -> tuple[str, ...]:
    """Every IT-/FR- clause ID in the tables of ``CLAUSES.md``, in order.

    >>> source_clause_ids("| ID | x |\\n|---|---|\\n| IT-ATK-1 | ATTACCO |\\n| FR-UPG-SATK-1 | y |")
    ('IT-ATK-1', 'FR-UPG-SATK-1')
    """
    return tuple(match["id"] for match in SOURCE_ROW.finditer(text))


# --- the clause map ------------------------------------------------------------------------


@frozen
class Clause:
    """One ``[[clause]]`` of ``spec/clauses.toml``."""

    id: str
    title: str
    doc: str
    sources: tuple[str, ...]
    functions: tuple[str, ...]
    rulings: tuple[str, ...]
    tests: tuple[str, ...]


class ClauseMapError(ValueError):
    """``spec/clauses.toml`` is not shaped as the map expects."""


def _text(entry: Mapping[str, object], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value:
        raise ClauseMapError(f"{where}: {key!r} must be a non-empty string, not {value!r}")
    return value


def _texts(entry: Mapping[str, object], key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ClauseMapError(f"{where}: {key!r} must be a list of strings, not {value!r}")
    return tuple(str(item) for item in value)


def parse_clause_map(text: str) -> tuple[Clause, ...]:
    """The clauses of a clause map, in file order.

    >>> parse_clause_map('''
    ... [[clause]]
    ... id = "ATK-4"
    ... title = "The defender takes one gear"
    ... doc = "spec/base-game.md"
    ... sources = ["IT-ATK-4"]
    ... functions = ["outofgears.rules.attacks.steal_from_attacker"]
    ... rulings = ["R-DEFENCE"]
    ... tests = []
    ... ''')[0].sources
    ('IT-ATK-4',)
    """
    data: dict[str, object] = tomllib.loads(text)
    entries = data.get("clause")
    if not isinstance(entries, list):
        raise ClauseMapError("the map holds no [[clause]] tables")
    clauses: list[Clause] = []
    for index, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise ClauseMapError(f"clause #{index} is not a table")
        where = f"clause #{index} ({entry.get('id', '?')})"
        unknown = set(entry) - {"id", "title", "doc", "sources", "functions", "rulings", "tests"}
        if unknown:
            raise ClauseMapError(f"{where}: unknown key(s) {sorted(unknown)}")
        clauses.append(
            Clause(
                id=_text(entry, "id", where),
                title=_text(entry, "title", where),
                doc=_text(entry, "doc", where),
                sources=_texts(entry, "sources", where),
                functions=_texts(entry, "functions", where),
                rulings=_texts(entry, "rulings", where),
                tests=_texts(entry, "tests", where),
            )
        )
    return tuple(clauses)


def load_clause_map(path: Path = CLAUSE_MAP) -> tuple[Clause, ...]:
    """The clauses of ``spec/clauses.toml``."""
    return parse_clause_map(path.read_text(encoding="utf-8"))


# --- spec documents ------------------------------------------------------------------------


@frozen
class Heading:
    """A clause or ruling heading of a spec document, and the text under it."""

    id: str
    title: str
    body: str


def _sections(text: str, pattern: re.Pattern[str]) -> tuple[Heading, ...]:
    matches = list(pattern.finditer(text))
    headings: list[Heading] = []
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        body = text[match.end() : end]
        # a section ends at the next heading of the same or a higher level
        stop = re.search(r"^#{1,3} ", body, re.MULTILINE)
        headings.append(
            Heading(match["id"], match["title"], body[: stop.start()] if stop else body)
        )
    return tuple(headings)


def clause_headings(text: str) -> tuple[Heading, ...]:
    """The ``### <ID> — <title>`` clause headings of a spec document, in order.

    >>> [(h.id, h.title) for h in clause_headings("## Attacks\\n### ATK-1 — Attack or defence\\nx")]
    [('ATK-1', 'Attack or defence')]
    """
    return _sections(text, CLAUSE_HEADING)


def ruling_headings(text: str) -> tuple[Heading, ...]:
    """The ``### R-<NAME> — <title>`` ruling headings of ``spec/rulings.md``, in order.

    >>> [h.id for h in ruling_headings("### R-END-CIRCUIT — Feet gears at the end\\ntext")]
    ['R-END-CIRCUIT']
    """
    return _sections(text, RULING_HEADING)


def field_line(body: str, name: str) -> str | None:
    """The value of the first ``<name>: ...`` line of a section (markdown bold allowed).

    >>> field_line("text\\nSources: IT-ATK-1, FR-ATK-1\\n", "Sources")
    'IT-ATK-1, FR-ATK-1'
    >>> field_line("**Clauses:** ATK-2\\n", "Clauses")
    'ATK-2'
    """
    pattern = re.compile(rf"^(?:\*\*)?{re.escape(name)}:(?:\*\*)?[ \t]*(?P<value>.*?)\s*$", re.M)
    match = pattern.search(body)
    return match["value"] if match else None


def listed_ids(value: str) -> tuple[str, ...]:
    """The IDs or dotted names of a comma-separated field, backticks removed.

    >>> listed_ids("`outofgears.rules.attacks.defenders`, `outofgears.rules.attacks.attackers_by_target`")
    ('outofgears.rules.attacks.defenders', 'outofgears.rules.attacks.attackers_by_target')
    >>> listed_ids("none (engine clause)"), listed_ids("none")
    ((), ())
    """
    if value.strip().lower().startswith("none"):
        return ()
    return tuple(item.strip().strip("`").strip() for item in value.split(",") if item.strip())


# --- implementing functions ----------------------------------------------------------------


def resolve_dotted(path: str) -> object:
    """The object a dotted path names: a module attribute, or an attribute of one (a method).

    Raises:
        ImportError: No prefix of the path is an importable module.
        AttributeError: The module has no such attribute.

    >>> resolve_dotted("outofgears.rules.gears.Gear.points_for").__name__
    'points_for'
    """
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            target: object = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            # only "this prefix is not a module" means: try a shorter prefix
            if error.name is not None and module_name.startswith(error.name):
                continue
            raise
        for attribute in parts[cut:]:
            target = getattr(target, attribute)
        return target
    raise ImportError(f"no module in {path!r}")


# --- markers in the test suite -------------------------------------------------------------


@frozen
class FoundTest:
    """A test found in the suite, with the clause and ruling IDs its markers cite."""

    node_id: str
    clauses: tuple[str, ...]
    rulings: tuple[str, ...]


@frozen
class Marks:
    """Clause and ruling IDs cited by some markers, and markers that cannot be read."""

    clauses: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()

    def __add__(self, other: Marks) -> Marks:
        return Marks(
            self.clauses + other.clauses,
            self.rulings + other.rulings,
            self.problems + other.problems,
        )


@frozen
class SuiteScan:
    """Every test of the suite and every marker that could not be read."""

    tests: tuple[FoundTest, ...]
    problems: tuple[str, ...]

    def by_node_id(self) -> dict[str, FoundTest]:
        """The tests keyed by node ID (``tests/rules/test_x.py::test_y``)."""
        return {test.node_id: test for test in self.tests}

    def tests_of_clause(self) -> dict[str, tuple[str, ...]]:
        """Each cited clause ID and the sorted node IDs of the tests whose markers cite it."""
        found: dict[str, set[str]] = {}
        for test in self.tests:
            for clause in test.clauses:
                found.setdefault(clause, set()).add(test.node_id)
        return {clause: tuple(sorted(nodes)) for clause, nodes in sorted(found.items())}

    def tests_of_ruling(self) -> dict[str, tuple[str, ...]]:
        """Each cited ruling ID and the sorted node IDs of the tests whose markers cite it."""
        found: dict[str, set[str]] = {}
        for test in self.tests:
            for ruling in test.rulings:
                found.setdefault(ruling, set()).add(test.node_id)
        return {ruling: tuple(sorted(nodes)) for ruling, nodes in sorted(found.items())}


def _mark_name(node: ast.expr) -> str | None:
    """``clause`` for ``pytest.mark.clause`` or ``mark.clause``; else ``None``."""
    if not isinstance(node, ast.Attribute):
        return None
    owner = node.value
    if isinstance(owner, ast.Attribute) and owner.attr == "mark":
        if isinstance(owner.value, ast.Name) and owner.value.id == "pytest":
            return node.attr
        return None
    if isinstance(owner, ast.Name) and owner.id == "mark":
        return node.attr
    return None


def _marks_of(expression: ast.expr, where: str) -> Marks:
    """The clause and ruling IDs in one decorator or ``pytestmark`` value."""
    if isinstance(expression, ast.List | ast.Tuple):
        total = Marks()
        for element in expression.elts:
            total = total + _marks_of(element, where)
        return total
    if isinstance(expression, ast.Call):
        kind = _mark_name(expression.func)
        if kind not in ("clause", "ruling"):
            return Marks()
        ids: list[str] = []
        problems: list[str] = []
        for argument in expression.args:
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                ids.append(argument.value)
            else:
                problems.append(
                    f"{where}: a {kind} marker needs string literals, not {ast.unparse(argument)}"
                )
        if not expression.args:
            problems.append(f"{where}: a {kind} marker without any ID")
        if expression.keywords:
            problems.append(f"{where}: a {kind} marker takes no keyword arguments")
        if kind == "clause":
            return Marks(clauses=tuple(ids), problems=tuple(problems))
        return Marks(rulings=tuple(ids), problems=tuple(problems))
    if _mark_name(expression) in ("clause", "ruling"):
        return Marks(problems=(f"{where}: a bare {ast.unparse(expression)} cites no ID",))
    return Marks()


def _pytestmark(body: Iterable[ast.stmt], where: str) -> Marks:
    total = Marks()
    for statement in body:
        if isinstance(statement, ast.Assign):
            targets = statement.targets
            value: ast.expr | None = statement.value
        elif isinstance(statement, ast.AnnAssign):
            targets = [statement.target]
            value = statement.value
        else:
            continue
        if value is not None and any(
            isinstance(target, ast.Name) and target.id == "pytestmark" for target in targets
        ):
            total = total + _marks_of(value, f"{where} pytestmark")
    return total


def _decorator_marks(decorators: Iterable[ast.expr], where: str) -> Marks:
    total = Marks()
    for decorator in decorators:
        total = total + _marks_of(decorator, where)
    return total


def _tests_in(
    body: Iterable[ast.stmt], prefix: str, inherited: Marks
) -> Iterator[tuple[FoundTest, tuple[str, ...]]]:
    for statement in body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            if statement.name.startswith("test"):
                node_id = f"{prefix}::{statement.name}"
                marks = inherited + _decorator_marks(statement.decorator_list, node_id)
                yield (
                    FoundTest(node_id, _unique(marks.clauses), _unique(marks.rulings)),
                    marks.problems,
                )
        elif isinstance(statement, ast.ClassDef) and statement.name.startswith("Test"):
            class_id = f"{prefix}::{statement.name}"
            marks = (
                inherited
                + _decorator_marks(statement.decorator_list, class_id)
                + _pytestmark(statement.body, class_id)
            )
            yield from _tests_in(statement.body, class_id, marks)
        elif isinstance(statement, ast.Assign):
            found = _bound_test_case(statement, prefix, inherited)
            if found is not None:
                yield found


def _bound_test_case(
    statement: ast.Assign, prefix: str, inherited: Marks
) -> tuple[FoundTest, tuple[str, ...]] | None:
    """The test of a ``TestCase`` bound to a ``Test*`` name, as hypothesis state machines are.

    ``TestX = Machine.TestCase`` makes pytest collect ``TestX::runTest``; it carries the
    markers of its module (or class) and those applied to it in the assignment,
    ``TestX = pytest.mark.clause("TURN-1")(Machine.TestCase)``.
    """
    if len(statement.targets) != 1:
        return None
    target = statement.targets[0]
    if not (isinstance(target, ast.Name) and target.id.startswith("Test")):
        return None
    node_id = f"{prefix}::{target.id}::runTest"
    marks = inherited
    value = statement.value
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Call) and len(value.args) == 1:
        marks = marks + _marks_of(value.func, node_id)
        value = value.args[0]
    if not (isinstance(value, ast.Attribute) and value.attr == "TestCase"):
        return None
    return FoundTest(node_id, _unique(marks.clauses), _unique(marks.rulings)), marks.problems


def _unique(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


def is_test_module(path: Path) -> bool:
    """Whether pytest collects tests from ``path`` (``test_*.py`` or ``*_test.py``).

    >>> is_test_module(Path("tests/rules/test_attacks.py")), is_test_module(Path("tests/helpers.py"))
    (True, False)
    """
    return path.suffix == ".py" and (path.name.startswith("test_") or path.stem.endswith("_test"))


def scan_module(source: str, module_id: str) -> SuiteScan:
    """The tests of one module's source, with their markers.

    >>> scan = scan_module('''
    ... import pytest
    ... pytestmark = [pytest.mark.clause("SPL-1")]
    ... @pytest.mark.clause("ATK-8")
    ... @pytest.mark.ruling("R-SPLIT")
    ... def test_two_attackers_split() -> None: ...
    ... class TestSplits:
    ...     def test_leftovers(self) -> None: ...
    ... ''', "tests/rules/test_x.py")
    >>> [(t.node_id, t.clauses, t.rulings) for t in scan.tests]  # doctest: +NORMALIZE_WHITESPACE
    [('tests/rules/test_x.py::test_two_attackers_split', ('SPL-1', 'ATK-8'), ('R-SPLIT',)),
     ('tests/rules/test_x.py::TestSplits::test_leftovers', ('SPL-1',), ())]

    A hypothesis state machine's ``TestCase`` bound to a ``Test*`` name is one test,
    ``runTest``, with the markers of its module and any applied to it:

    >>> scan = scan_module('''
    ... import pytest
    ... pytestmark = pytest.mark.clause("TURN-1")
    ... TestGame = Game.TestCase
    ... TestSplit = pytest.mark.ruling("R-SPLIT")(pytest.mark.clause("SPL-1")(Split.TestCase))
    ... Helper = Game.TestCase
    ... TestNotACase = make_test()
    ... ''', "tests/t.py")
    >>> [(t.node_id, t.clauses, t.rulings) for t in scan.tests]  # doctest: +NORMALIZE_WHITESPACE
    [('tests/t.py::TestGame::runTest', ('TURN-1',), ()),
     ('tests/t.py::TestSplit::runTest', ('TURN-1', 'SPL-1'), ('R-SPLIT',))]
    """
    tree = ast.parse(source, filename=module_id)
    module_marks = _pytestmark(tree.body, module_id)
    inherited = Marks(module_marks.clauses, module_marks.rulings)
    tests: list[FoundTest] = []
    problems: list[str] = list(module_marks.problems)
    for test, test_problems in _tests_in(tree.body, module_id, inherited):
        tests.append(test)
        problems.extend(test_problems)
    return SuiteScan(tuple(tests), _unique(problems))


def scan_suite(tests_dir: Path = TESTS_DIR, repo_root: Path = REPO_ROOT) -> SuiteScan:
    """Every test under ``tests_dir`` and its markers, read with :mod:`ast`."""
    tests: list[FoundTest] = []
    problems: list[str] = []
    for path in sorted(tests_dir.rglob("*.py")):
        if not is_test_module(path) or any(part.startswith(".") for part in path.parts):
            continue
        module_id = path.relative_to(repo_root).as_posix()
        scan = scan_module(path.read_text(encoding="utf-8"), module_id)
        tests.extend(scan.tests)
        problems.extend(scan.problems)
    return SuiteScan(tuple(tests), tuple(problems))
