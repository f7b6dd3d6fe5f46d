"""Refresh the ``tests = [...]`` lists of ``spec/clauses.toml`` from the test markers.

Run from the repository root after adding, renaming or re-tagging tests::

    .venv/bin/python -m tests.sync_clause_map          # rewrite spec/clauses.toml
    .venv/bin/python -m tests.sync_clause_map --check  # exit 1 if it is out of date

Each ``[[clause]]`` gets the sorted node IDs of the tests whose
``@pytest.mark.clause(...)`` markers cite its ID, one per line. Only the ``tests``
arrays change; every other byte of the file stays as it was, so running it twice
changes nothing the second time. Markers citing clause IDs the map does not have are
reported on stderr (the coverage test fails on them too).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from tests.clause_map import CLAUSE_MAP, parse_clause_map, scan_suite

#: The start of a clause table.
CLAUSE_HEADER: Final = re.compile(r"^\[\[clause\]\][ \t]*$", re.MULTILINE)
#: Any table header, which ends the previous table.
TABLE_HEADER: Final = re.compile(r"^\[", re.MULTILINE)
#: The ``id = "..."`` line of a clause table.
ID_LINE: Final = re.compile(r'^id[ \t]*=[ \t]*"(?P<id>[^"]*)"', re.MULTILINE)
#: A ``tests = [...]`` array, on one line or several (strings may hold brackets).
TESTS_ARRAY: Final = re.compile(
    r'^tests[ \t]*=[ \t]*\[(?:[^\]"#]|"(?:[^"\\]|\\.)*"|#[^\n]*)*\]', re.MULTILINE
)


def render_tests(node_ids: Sequence[str]) -> str:
    """The ``tests`` array for some node IDs: sorted, one per line; ``[]`` when empty.

    >>> render_tests([])
    'tests = []'
    >>> print(render_tests(["tests/b.py::test_y", "tests/a.py::test_x"]))
    tests = [
        "tests/a.py::test_x",
        "tests/b.py::test_y",
    ]
    """
    if not node_ids:
        return "tests = []"
    lines = "".join(f'    "{node_id}",\n' for node_id in sorted(set(node_ids)))
    return f"tests = [\n{lines}]"


def rewrite_tests_arrays(text: str, tests_of_clause: Mapping[str, Sequence[str]]) -> str:
    """``text`` with each clause's ``tests`` array replaced by its tests in ``tests_of_clause``.

    A clause missing from ``tests_of_clause`` gets ``tests = []``. A clause table with no
    ``tests`` key gets one after its last line.

    >>> before = '# map\\n[[clause]]\\nid = "A-1"\\ntests = []  # kept\\n\\n[[clause]]\\nid = "B-1"\\n'
    >>> after = rewrite_tests_arrays(before, {"A-1": ["tests/t.py::test_a"]})
    >>> print(after)
    # map
    [[clause]]
    id = "A-1"
    tests = [
        "tests/t.py::test_a",
    ]  # kept
    <BLANKLINE>
    [[clause]]
    id = "B-1"
    tests = []
    <BLANKLINE>
    >>> rewrite_tests_arrays(after, {"A-1": ["tests/t.py::test_a"]}) == after
    True
    """
    pieces: list[str] = []
    position = 0
    for header in CLAUSE_HEADER.finditer(text):
        if header.start() < position:
            continue
        following = TABLE_HEADER.search(text, header.end())
        end = following.start() if following else len(text)
        block = text[header.end() : end]
        identity = ID_LINE.search(block)
        if identity is None:
            raise ValueError(f"a [[clause]] table without an id at offset {header.start()}")
        array = render_tests(tests_of_clause.get(identity["id"], ()))
        found = list(TESTS_ARRAY.finditer(block))
        if len(found) > 1:
            raise ValueError(f"clause {identity['id']} has more than one tests array")
        if found:
            block = block[: found[0].start()] + array + block[found[0].end() :]
        else:
            body = block.rstrip("\n")
            block = f"{body}\n{array}\n" + block[len(body) + 1 :]
        pieces.append(text[position : header.end()])
        pieces.append(block)
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


#: The spec files the package reads at run time, copied into ``outofgears/_spec/``.
PACKAGED_SPEC_FILES: Final = ("clauses.toml", "paraphrases.toml")


def schema_text() -> str:
    """``spec/log.schema.json`` as the log format's declaration writes it."""
    from outofgears.log import log_schema

    return json.dumps(log_schema(), indent=2, ensure_ascii=False) + "\n"


def write_log_schema(root: Path, check: bool) -> bool:
    """Write ``spec/log.schema.json`` from the log format's declaration; whether it was stale."""
    path = root / "spec" / "log.schema.json"
    text = schema_text()
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    if check:
        print("spec/log.schema.json differs from the log format's declaration", file=sys.stderr)
    else:
        path.write_text(text, encoding="utf-8", newline="\n")
        print("wrote spec/log.schema.json from outofgears/log/records.py")
    return True


def copy_packaged_spec(root: Path, check: bool) -> bool:
    """Copy the run-time spec files into the package; whether any copy was out of date."""
    stale = False
    for name in PACKAGED_SPEC_FILES:
        original = root / "spec" / name
        if not original.exists():
            continue
        copy = root / "outofgears" / "_spec" / name
        if copy.exists() and copy.read_bytes() == original.read_bytes():
            continue
        stale = True
        if check:
            print(f"outofgears/_spec/{name} differs from spec/{name}", file=sys.stderr)
        else:
            copy.parent.mkdir(exist_ok=True)
            copy.write_bytes(original.read_bytes())
            print(f"copied spec/{name} into outofgears/_spec/")
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite (or with ``--check`` verify) the ``tests`` lists of the clause map."""
    parser = argparse.ArgumentParser(prog="python -m tests.sync_clause_map", description=__doc__)
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if the map is out of date"
    )
    parser.add_argument("--map", type=Path, default=CLAUSE_MAP, help="the clause map to update")
    arguments = parser.parse_args(argv)
    path: Path = arguments.map
    text = path.read_text(encoding="utf-8")
    known = {clause.id for clause in parse_clause_map(text)}
    scan = scan_suite()
    tests_of_clause = scan.tests_of_clause()
    for clause, nodes in tests_of_clause.items():
        if clause not in known:
            for node in nodes:
                print(f"warning: {node} cites unknown clause {clause}", file=sys.stderr)
    for problem in scan.problems:
        print(f"warning: {problem}", file=sys.stderr)
    updated = rewrite_tests_arrays(text, tests_of_clause)
    parse_clause_map(updated)  # never write a map that does not parse
    if updated == text:
        print(f"{path.name} is up to date")
    elif arguments.check:
        print(f"{path.name} is out of date: run python -m tests.sync_clause_map", file=sys.stderr)
        return 1
    else:
        path.write_text(updated, encoding="utf-8")
        untested = sorted(known - set(tests_of_clause))
        print(f"updated {path.name}; clauses without a test: {', '.join(untested) or 'none'}")
    stale = copy_packaged_spec(path.parent.parent, arguments.check)
    stale = write_log_schema(path.parent.parent, arguments.check) or stale
    return 1 if stale and arguments.check else 0


if __name__ == "__main__":
    sys.exit(main())
