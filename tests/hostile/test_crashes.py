"""Class 4 of issue 14: input that once crashed a command (exit 3) is refused with exit 2.

Non-ASCII digits (Python's ``int`` reads ``"٣"`` as 3 and fails on ``"²"``) on every integer
option, in programs and in ``--robots``/``--players``; numbers of hundreds or thousands of
digits; ``play`` game files nested deeply, with huge numbers or of the wrong shape.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from outofgears import Program
from outofgears.cli.main import main
from outofgears.errors import OutOfGearsError
from tests.hostile.corpus import NON_ASCII_DIGITS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LOG = str(EXAMPLES / "full-game.log.json")

#: Command lines with one integer written as {}.
INTEGER_OPTIONS: dict[str, list[str]] = {
    "explain-turn": ["explain", LOG, "--turn", "{}"],
    "dispute-turn": ["dispute", LOG, "--turn", "{}"],
    "whatif-turn": ["whatif", LOG, "--turn", "{}", "--robot", "1", "--program", "trap 2"],
    "whatif-robot": ["whatif", LOG, "--turn", "2", "--robot", "{}", "--program", "trap 2"],
    "render-turn": ["render", LOG, "--turn", "{}", "-o", "-"],
    "simulate-games": ["simulate", "--games", "{}", "--robots", "2", "--seed", "1"],
    "simulate-robots": ["simulate", "--games", "1", "--robots", "{}", "--seed", "1"],
    "simulate-seed": ["simulate", "--games", "1", "--robots", "2", "--seed", "{}"],
    "new-seed": ["new", "--seed", "{}"],
    "new-robots": ["new", "--robots", "1,{}", "--seed", "1"],
    "new-players": ["new", "--players", "Ada=1,Bo={}", "--seed", "1"],
    "whatif-program": ["whatif", LOG, "--turn", "2", "--robot", "1", "--program", "attack {}"],
}


def invoke(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stderr


@pytest.mark.parametrize("digit", sorted(NON_ASCII_DIGITS))
@pytest.mark.parametrize("option", sorted(INTEGER_OPTIONS))
def test_a_non_ascii_digit_is_refused(option: str, digit: str) -> None:
    args = [arg.replace("{}", NON_ASCII_DIGITS[digit]) for arg in INTEGER_OPTIONS[option]]
    status, err = invoke(args)
    assert status == 2, err
    assert err.splitlines()[-1].startswith("Error: ")


@pytest.mark.parametrize("digits", [40, 400, 5000])
@pytest.mark.parametrize("option", sorted(INTEGER_OPTIONS))
def test_a_huge_number_is_refused(option: str, digits: int) -> None:
    args = [arg.replace("{}", "9" * digits) for arg in INTEGER_OPTIONS[option]]
    status, err = invoke(args)
    assert status == 2, err


@pytest.mark.parametrize("digit", sorted(NON_ASCII_DIGITS))
@pytest.mark.parametrize("card", ["attack", "trap", "harvest"])
def test_a_program_never_reads_a_non_ascii_digit(card: str, digit: str) -> None:
    with pytest.raises(OutOfGearsError, match="is not a program"):
        Program.parse(f"{card} {NON_ASCII_DIGITS[digit]}")


#: Game files for ``play``, each refused with a message naming the file.
BAD_GAMES: dict[str, str] = {
    "deep-list": "[" * 100_000 + "]" * 100_000,
    "deep-object": '{"a":' * 50_000 + "1" + "}" * 50_000,
    "deep-players": '{"players": ' + "[" * 5_000 + "]" * 5_000 + ', "seed": 1}',
    "huge-seed": '{"players": {"A": [1], "B": [2]}, "seed": ' + "9" * 5000 + "}",
    "negative-seed": '{"players": {"A": [1], "B": [2]}, "seed": -5}',
    "float-seed": '{"players": {"A": [1], "B": [2]}, "seed": 1.5}',
    "huge-robot": '{"players": {"A": [' + "9" * 400 + '], "B": [2]}, "seed": 1}',
    "same-robot": '{"players": {"A": [1], "B": [1]}, "seed": 1}',
    "one-player": '{"players": {"A": [1]}, "seed": 1}',
    "null-players": '{"players": null, "seed": 1}',
    "bad-option": '{"players": {"A": [1], "B": [2]}, "seed": 1, "options": {"upgrades": "yes"}}',
    "unknown-option": '{"players": {"A": [1], "B": [2]}, "seed": 1, "options": {"x": 1}}',
    "null-options": '{"players": {"A": [1], "B": [2]}, "seed": 1, "options": null}',
    "surrogate-key": '{"players": {"\\ud800": [1], "B": [2]}, "seed": 1, "\\udc00": 1}',
    "not-utf8": "\udcff",
    "empty": "",
    "array": "[]",
    "three-robots": '{"players": {"A": [1, 2, 3], "B": [4]}, "seed": 1}',
}


@pytest.mark.parametrize("case", sorted(BAD_GAMES))
def test_play_refuses_a_bad_game_file_naming_it(case: str, tmp_path: Path) -> None:
    game = tmp_path / f"{case}.json"
    game.write_bytes(BAD_GAMES[case].encode("utf-8", "surrogateescape"))
    status, err = invoke(["play", str(game), "--quiet"])
    assert status == 2, err
    assert err.startswith(f"Error: {game}: "), err
    assert len(err.splitlines()) == 1, err


def test_play_names_a_missing_file(tmp_path: Path) -> None:
    status, err = invoke(["play", str(tmp_path / "absent.json")])
    assert status == 2
    assert str(tmp_path / "absent.json") in err


def test_the_shipped_game_files_still_play() -> None:
    for name in ("seeded-game.json", "two-robot-game.json", "expansions-game.json"):
        status, err = invoke(["play", str(EXAMPLES / name), "--quiet"])
        assert status == 0, err
        assert json  # the module is used by the corpus builder


@pytest.mark.parametrize("spec", ["1.²", "¹.1", "1.₃", "\u0661.\u0662", "1.2.3", "x"])
@pytest.mark.parametrize("command", ["replay", "explain", "dispute", "view"])
def test_a_spec_version_in_digits_other_than_ascii_is_noted_not_a_crash(
    tmp_path: Path, spec: str, command: str
) -> None:
    data = json.loads((EXAMPLES / "full-game.log.json").read_text("utf-8"))
    data["written_by"] = {"engine": "0.1.0", "spec": spec}
    log = tmp_path / "odd-version.log.json"
    log.write_text(json.dumps(data), "utf-8")
    extra = {"explain": ["--turn", "1"], "dispute": ["--turn", "1"], "view": ["-o", "-"]}
    result = CliRunner().invoke(main, [command, str(log), *extra.get(command, [])])
    assert result.exit_code in (0, 1), (result.exit_code, result.output)
    if command == "replay":
        assert f"written under spec version {spec};" in result.output
