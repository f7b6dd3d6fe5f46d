"""Bad input to ``outofgears replay``: exit status 2 and one clear message, never a traceback.

The message names the file, the JSON path and, where they apply, the turn and the
robot; the same facts are attributes of the :class:`LogError` that the library
raises (``tests/test_log_reader.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from outofgears.cli.main import main
from outofgears.log import MAX_DEPTH, MAX_LOG_BYTES
from tests.cli.helpers import replay
from tests.log_samples import CORPUS, corpus_cases, valid_log_json


def assert_refused(result: Result, *fragments: str) -> str:
    """Exit status 2, nothing on standard output, one line on standard error holding them."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


@pytest.mark.parametrize(("name", "facts"), corpus_cases())
def test_a_corpus_log_exits_2_with_one_message_naming_where(
    name: str, facts: dict[str, Any]
) -> None:
    path = CORPUS / f"{name}.json"
    facts_text = [f"turn {facts['turn']}"] if "turn" in facts else []
    facts_text += [f"robot {facts['robot']}"] if "robot" in facts else []
    where = f" ({', '.join(facts_text)})" if facts_text else ""
    line = assert_refused(
        replay(str(path)), f"Error: {path}: {facts['json_path']}{where}: ", facts["message"]
    )
    assert line.startswith("Error: ")


@pytest.mark.parametrize(("name", "facts"), corpus_cases())
def test_a_corpus_log_on_standard_input_is_named_stdin(name: str, facts: dict[str, Any]) -> None:
    raw = (CORPUS / f"{name}.json").read_bytes()
    assert_refused(replay("-", stdin=raw), f"Error: <stdin>: {facts['json_path']}")


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_a_bad_log_is_exit_2_in_either_output_format(output_format: str) -> None:
    path = CORPUS / "program-for-robot-not-in-play.json"
    assert_refused(
        replay(str(path), "--format", output_format),
        f"{path}: $.turns[2].programs.5 (turn 3, robot 5): this robot is not in play (PRG-1)",
    )


def test_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.log.json"
    assert_refused(
        replay(str(path)), f"Error: {path}: $: cannot read the file: No such file or directory"
    )


def test_an_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_bytes(b"")
    assert_refused(replay(str(path)), f"{path}: $: the log is empty")


def test_a_file_over_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (MAX_LOG_BYTES + 1))
    assert_refused(
        replay(str(path)), f"{path}: $: the log is larger than the limit of {MAX_LOG_BYTES} bytes"
    )


def test_standard_input_over_the_size_limit() -> None:
    assert_refused(
        replay("-", stdin=b" " * (MAX_LOG_BYTES + 1)),
        "<stdin>: $: the log is larger than the limit",
    )


def test_the_size_limit_is_documented_in_the_help() -> None:
    result = CliRunner().invoke(main, ["replay", "--help"])
    assert result.exit_code == 0
    assert f"{MAX_LOG_BYTES:,}" in " ".join(result.output.split())


def test_json_nested_far_deeper_than_python_recursion(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"players": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert_refused(replay(str(path)), f"{path}: $: the JSON nests deeper than {MAX_DEPTH} levels")


def test_non_utf8_on_standard_input() -> None:
    assert_refused(replay("-", stdin=b"{\xff}"), "<stdin>: $: the log is not UTF-8 text")


def test_not_json_on_standard_input() -> None:
    assert_refused(replay("-", stdin="turn 1: everybody harvests"), "<stdin>: $: not JSON")


def test_a_good_log_on_standard_input_replays() -> None:
    result = replay("-", stdin=json.dumps(valid_log_json()))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Replaying <stdin>\n")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda d: d["turns"][1].update(turn="2"),
            '$.turns[1].turn: expected an integer, got "2"',
        ),
        (
            lambda d: d.update(two_robot_variant="no"),
            '$.two_robot_variant: expected true or false, got "no"',
        ),
        (
            lambda d: d["turns"][1]["programs"].update({"5": "trap 1"}),
            "$.turns[1].programs.5 (turn 2, robot 5): this robot is not in play (PRG-1)",
        ),
        (
            lambda d: d["turns"][1]["programs"].pop("1"),
            "$.turns[1].programs.1 (turn 2, robot 1): it has no program (PRG-1)",
        ),
    ],
)
def test_wrong_types_and_programs_are_never_coerced_or_guessed(
    tmp_path: Path, change: Any, expected: str
) -> None:
    data = valid_log_json()
    change(data)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_refused(replay(str(path)), f"Error: {path}: {expected}")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ([], "Missing argument 'LOG'"),
        (["a.json", "b.json"], "Got unexpected extra argument"),
        (["--format", "xml", "a.json"], "Invalid value for '--format'"),
        (["--loud", "a.json"], "No such option"),
        ([str(CORPUS)], "is a directory"),
    ],
)
def test_a_bad_command_line_is_exit_2(args: list[str], fragment: str) -> None:
    result = replay(*args)
    assert result.exit_code == 2
    assert fragment in result.stderr
    assert "Traceback" not in result.output
