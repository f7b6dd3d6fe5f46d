"""The case files of the conformance suite (``spec/conformance/``), read without trusting them:
only regular files of a bounded size, JSON nested a bounded depth, and every field the runner
uses of the shape ``spec/conformance/case.schema.json`` gives it. A file that is not a case is
a :class:`CaseError` naming the file and the JSON path (issue 35)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from outofgears.errors import ArgumentTypeError, OutOfGearsError, expect
from outofgears.log import json_path
from outofgears.log.reading import nesting_reaches

#: The largest case file read, in bytes (the largest case of the suite is about 20 KB).
MAX_CASE_BYTES: Final = 1024 * 1024
#: How deep a case's containers may nest (a case needs 8 levels).
MAX_CASE_DEPTH: Final = 32
#: The folders of a suite that hold cases.
CASE_FOLDERS: Final = ("hand", "generated")
#: The keys of a case's ``input`` (the rest of a request: ``protocol``, ``spec``, ``case``).
INPUT_KEYS: Final = ("players", "options", "start", "turns")
#: The kinds of refusal: a seeded setup, a position entered by hand, a program, a choice, a
#: turn after the end of the game.
REFUSAL_KINDS: Final = ("setup", "position", "program", "choice", "game over")

Path_ = list[str | int]


class CaseError(OutOfGearsError, ValueError):
    """A case file the runner cannot use.

    Attributes:
        source: The file.
        json_path: Where in it, as ``$.expected.position.robots.1``.
        reason: What is wrong.
    """

    def __init__(self, source: str, json_path: str, reason: str) -> None:
        super().__init__(f"{source}: {json_path}: {reason}")
        self.source = source
        self.json_path = json_path
        self.reason = reason


class _ShapeError(Exception):
    def __init__(self, parts: Path_, reason: str) -> None:
        super().__init__(reason)
        self.parts = parts
        self.reason = reason


Check = Callable[[Any, Path_], None]


def _of_type(kind: type | tuple[type, ...], name: str) -> Check:
    def check(value: Any, at: Path_) -> None:
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise _ShapeError(at, f"expected {name}, got {_brief(value)}")
        if not isinstance(value, kind):
            raise _ShapeError(at, f"expected {name}, got {_brief(value)}")

    return check


_STRING = _of_type(str, "a string")
_BOOL = _of_type(bool, "true or false")
_INT = _of_type(int, "an integer")
_OBJECT = _of_type(dict, "an object")


def _list_of(item: Check, *, least: int = 0) -> Check:
    def check(value: Any, at: Path_) -> None:
        if not isinstance(value, list):
            raise _ShapeError(at, f"expected an array, got {_brief(value)}")
        if len(value) < least:
            raise _ShapeError(at, f"expected at least {least} item(s)")
        for index, each in enumerate(value):
            item(each, [*at, index])

    return check


def _map_of(item: Check) -> Check:
    def check(value: Any, at: Path_) -> None:
        _OBJECT(value, at)
        for key, each in value.items():
            item(each, [*at, key])

    return check


def _fields(required: Mapping[str, Check], optional: Mapping[str, Check] | None = None) -> Check:
    known = {**required, **(optional or {})}

    def check(value: Any, at: Path_) -> None:
        _OBJECT(value, at)
        for key in value:
            if key not in known:
                raise _ShapeError([*at, key], f"unknown key (known: {', '.join(sorted(known))})")
        for key, item in known.items():
            if key in value:
                item(value[key], [*at, key])
            elif key in required:
                raise _ShapeError(at, f"the key {key!r} is missing")

    return check


def _one_of(*choices: object) -> Check:
    def check(value: Any, at: Path_) -> None:
        if isinstance(value, bool) or value not in choices:
            shown = ", ".join(json.dumps(choice) for choice in choices)
            raise _ShapeError(at, f"expected one of {shown}, got {_brief(value)}")

    return check


def _nullable(item: Check) -> Check:
    def check(value: Any, at: Path_) -> None:
        if value is not None:
            item(value, at)

    return check


_GEARS = _list_of(_STRING)
_POSITION = _fields(
    {},
    {
        "turn": _INT,
        "robots": _map_of(_fields({}, {"feet": _GEARS, "circuit": _GEARS})),
        "dumps": _map_of(_GEARS),
        "reserve": _GEARS,
        "upgrades": _map_of(_STRING),
    },
)
_REFUSAL = _fields(
    {
        "kind": _one_of(*REFUSAL_KINDS),
        "clause": _nullable(_STRING),
        "robot": _nullable(_INT),
    }
)
_EXPECTED_POSITION = _fields(
    {},
    {
        "position": _POSITION,
        "game_over": _BOOL,
        "scores": _map_of(_INT),
        "ranking": _list_of(_STRING),
        "winners": _list_of(_STRING),
        "event_kinds": _list_of(_STRING),
        "events": _list_of(_OBJECT),
    },
)


def _expected(value: Any, at: Path_) -> None:
    _OBJECT(value, at)
    if "refusal" in value:
        _fields({"refusal": _REFUSAL})(value, at)
    else:
        _EXPECTED_POSITION(value, at)


_INPUT = _fields(
    {"players": _OBJECT, "start": _OBJECT, "turns": _list_of(_OBJECT)},
    {"options": _OBJECT},
)
_CASE = _fields(
    {
        "id": _STRING,
        "clauses": _list_of(_STRING, least=1),
        "input": _INPUT,
        "expected": _expected,
    },
    {
        "origin": _one_of("hand", "generated"),
        "rulings": _list_of(_STRING),
        "not_clauses": _list_of(_STRING),
        "description": _STRING,
    },
)


def check_case(case: object, source: str = "<case>") -> None:
    """Raise :class:`CaseError` unless ``case`` has every field the runner uses, of its shape.

    >>> check_case({"id": "c", "clauses": 5, "input": {}, "expected": {}}, "c.json")
    Traceback (most recent call last):
    ...
    outofgears.judge.cases.CaseError: c.json: $.clauses: expected an array, got 5
    """
    expect(source, str, "source", "a str")
    try:
        _CASE(case, [])
    except _ShapeError as bad:
        raise CaseError(source, json_path(bad.parts), bad.reason) from None


def check_expected(expected: object, source: str = "<expected>") -> None:
    """Raise :class:`CaseError` unless ``expected`` is a case's expected answer."""
    try:
        _expected(expected, [])
    except _ShapeError as bad:
        raise CaseError(source, json_path(bad.parts), bad.reason) from None


def _brief(value: Any) -> str:
    if isinstance(value, list):
        return f"an array of {len(value)} item(s)"
    if isinstance(value, dict):
        return "an object"
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 40 else text[:37] + "..."


def read_case(path: Path) -> dict[str, Any]:
    """One case file, read as the module's docstring says.

    Raises:
        CaseError: It is not a regular file, is too large, is not JSON, or is not a case.
    """
    expect(path, Path, "path", "a Path")
    source = str(path)
    try:
        status = path.stat()
    except OSError as error:
        raise CaseError(source, "$", f"cannot be read: {error.strerror or error}") from None
    if not stat.S_ISREG(status.st_mode):
        raise CaseError(source, "$", "not a regular file (a device, a pipe or a folder)")
    if status.st_size > MAX_CASE_BYTES:
        raise CaseError(source, "$", f"larger than {MAX_CASE_BYTES} bytes")
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise CaseError(source, "$", "not a regular file (a device, a pipe or a folder)")
            raw = file.read(MAX_CASE_BYTES + 1)
    except OSError as error:
        raise CaseError(source, "$", f"cannot be read: {error.strerror or error}") from None
    if len(raw) > MAX_CASE_BYTES:
        raise CaseError(source, "$", f"larger than {MAX_CASE_BYTES} bytes")
    text = raw.decode("utf-8", errors="replace")
    if nesting_reaches(text, MAX_CASE_DEPTH + 1):
        raise CaseError(source, "$", f"nests more than {MAX_CASE_DEPTH} levels deep")
    try:
        case = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise CaseError(source, "$", f"not a JSON file: {error}") from None
    check_case(case, source)
    assert isinstance(case, dict)
    return case


def load_cases(folder: Path | str) -> list[dict[str, Any]]:
    """Every case of ``folder`` (its ``*.json`` files below ``hand/`` and ``generated/``), in
    the order of their IDs; a case ID given twice is refused.

    Raises:
        CaseError: A file that is not a case, naming it and the JSON path (a ``ValueError``).
    """
    expect(folder, (str, os.PathLike), "folder", "a path")
    root = Path(folder)
    cases: dict[str, dict[str, Any]] = {}
    for path in sorted(root.glob("*/*.json")):
        if path.parent.name not in CASE_FOLDERS:
            continue
        case = read_case(path)
        if case["id"] in cases:
            raise CaseError(str(path), "$.id", f"the case {case['id']!r} is given twice")
        cases[case["id"]] = case
    return [cases[key] for key in sorted(cases)]


def _expect_case(case: object) -> None:
    if not isinstance(case, Mapping) or not isinstance(case.get("input"), Mapping):
        raise ArgumentTypeError("case", "a case: a mapping with its input", case)


def case_ids(case: Mapping[str, Any]) -> tuple[str, ...]:
    """The clause and ruling IDs a case checks."""
    _expect_case(case)
    return (*case.get("clauses", ()), *case.get("rulings", ()))


def expansions_of(case: Mapping[str, Any]) -> frozenset[str]:
    """The expansions and the variant a case plays with: ``upgrades``, ``jolly``,
    ``three-point``, ``pad-reserve``, ``variant`` (none: the base game)."""
    _expect_case(case)
    options = case["input"].get("options", {})
    found = {
        name
        for name, key in (
            ("upgrades", "upgrades"),
            ("jolly", "jolly_gears"),
            ("three-point", "three_point_gears"),
            ("pad-reserve", "pad_reserve"),
        )
        if isinstance(options, dict) and options.get(key) is True
    }
    players = case["input"].get("players", {})
    if isinstance(players, dict) and any(
        isinstance(robots, list) and len(robots) == 2 for robots in players.values()
    ):
        found.add("variant")
    return frozenset(found)


#: The names ``--expansion`` takes (``base``: none of the others).
EXPANSIONS: Final = ("base", "upgrades", "jolly", "three-point", "pad-reserve", "variant")


def select_cases(
    cases: Iterable[Mapping[str, Any]],
    *,
    clauses: Sequence[str] = (),
    options: Sequence[str] = (),
    expansions: Sequence[str] = (),
) -> list[Mapping[str, Any]]:
    """The cases of any of ``clauses`` (clause or ruling IDs), that set any of ``options``
    (``name`` or ``name=value``, as the case's input writes it), and that play any of
    ``expansions`` (:data:`EXPANSIONS`); an empty filter lets every case through.

    >>> case = {"clauses": ["SPL-2"], "input": {"options": {"assembly": "optional"}}}
    >>> len(select_cases([case], clauses=["SPL-2"], options=["assembly=optional"]))
    1
    """
    for name, given in (("clauses", clauses), ("options", options), ("expansions", expansions)):
        if (
            isinstance(given, str)
            or not isinstance(given, Iterable)
            or not all(isinstance(item, str) for item in given)
        ):
            raise ArgumentTypeError(name, "a sequence of str", given)
    if isinstance(cases, str | bytes | Mapping) or not isinstance(cases, Iterable):
        raise ArgumentTypeError("cases", "a list of cases", cases)
    cases = list(cases)
    for case in cases:
        _expect_case(case)
    unknown = sorted(set(expansions) - set(EXPANSIONS))
    if unknown:
        raise ArgumentTypeError("expansions", f"names among {', '.join(EXPANSIONS)}", unknown)
    chosen = []
    for case in cases:
        if clauses and not set(clauses) & set(case_ids(case)):
            continue
        if options and not any(_sets_option(case, option) for option in options):
            continue
        played = expansions_of(case)
        if expansions and not any(
            (name == "base" and not played) or name in played for name in expansions
        ):
            continue
        chosen.append(case)
    return chosen


def _sets_option(case: Mapping[str, Any], option: str) -> bool:
    name, equals, value = option.partition("=")
    options = case["input"].get("options", {})
    if not isinstance(options, dict) or name not in options:
        return False
    return not equals or json.dumps(options[name]).strip('"') == value


#: The public names of this module (the rest serves them).
__all__ = [
    "CASE_FOLDERS",
    "EXPANSIONS",
    "INPUT_KEYS",
    "MAX_CASE_BYTES",
    "MAX_CASE_DEPTH",
    "REFUSAL_KINDS",
    "CaseError",
    "case_ids",
    "check_case",
    "check_expected",
    "expansions_of",
    "load_cases",
    "read_case",
    "select_cases",
]
