"""``outofgears new``: the log skeleton of a new game."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from outofgears import SPEC_VERSION, __version__
from outofgears.cli.main import main
from outofgears.judge.replay import replay_log
from outofgears.judge.start import start_state
from outofgears.log import read_log, read_log_text
from outofgears.rules.gears import describe_gears
from outofgears.rules.model import Options
from outofgears.rules.setup import setup_game, setup_two_robot_game


def run(*args: str) -> tuple[int, str]:
    """The exit status and standard output, standard error apart (it shows the table when the
    log goes to standard output)."""
    result = CliRunner().invoke(main, ["new", *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout if result.exit_code == 0 else result.output


def test_the_table_goes_to_standard_error_when_the_log_goes_to_standard_output() -> None:
    result = CliRunner().invoke(main, ["new", "--robots", "1,2", "--seed", "3"])
    assert result.exit_code == 0
    read_log_text(result.stdout)  # the log alone, a JSON document
    assert result.stderr.splitlines()[0] == "The table it starts from (turn 1):"
    assert "  robot 1 (P1): feet none; circuit none" in result.stderr.splitlines()


def test_default_game_reads_back_and_replays_with_zero_turns() -> None:
    code, output = run("--seed", "12")
    assert code == 0
    log = read_log_text(output)
    assert log.players == {"P1": (1,), "P2": (2,), "P3": (3,), "P4": (4,)}
    assert (log.start.seed, log.start.position, log.turns) == (12, None, ())
    assert log.written_by is not None
    assert (log.written_by.engine, log.written_by.spec) == (__version__, SPEC_VERSION)
    assert log.options == Options()
    assert log.two_robot_variant is False
    replay = replay_log(log)
    assert replay.turns == ()
    assert replay.agrees
    assert replay.final == setup_game([1, 2, 3, 4], seed=12)


def test_skeleton_writes_every_option_and_an_empty_turn_list() -> None:
    code, output = run("--robots", "1,2", "--seed", "3")
    assert code == 0
    data = json.loads(output)
    assert list(data) == [
        "format",
        "written_by",
        "players",
        "two_robot_variant",
        "options",
        "start",
        "turns",
    ]
    assert data["options"] == {
        "defence_steal_source": "feet_or_circuit",
        "assembly": "mandatory",
        "upgrades": False,
        "jolly_gears": False,
        "three_point_gears": False,
        "pad_reserve": False,
    }
    assert (data["start"], data["turns"]) == ({"seed": 3}, [])


def test_robots_name_the_players_after_them() -> None:
    code, output = run("--robots", "7,2,5", "--seed", "9")
    assert code == 0
    log = read_log_text(output)
    assert log.players == {"P2": (2,), "P5": (5,), "P7": (7,)}
    assert replay_log(log).final == setup_game([2, 5, 7], seed=9)


def test_players_give_names() -> None:
    code, output = run("--players", "Bruno=2, Ada=1", "--seed", "4")
    assert code == 0
    log = read_log_text(output)
    assert log.players == {"Ada": (1,), "Bruno": (2,)}
    assert list(json.loads(output)["players"]) == ["Ada", "Bruno"]
    assert replay_log(log).final.player_of(2).name == "Bruno"


def test_two_robots_pair_the_robots_in_order() -> None:
    code, output = run("--two-robots", "--robots", "1,5,2,6", "--seed", "7")
    assert code == 0
    log = read_log_text(output)
    assert log.players == {"P1": (1, 5), "P2": (2, 6)}
    assert log.two_robot_variant is True
    assert replay_log(log).final == setup_two_robot_game({"P1": (1, 5), "P2": (2, 6)}, seed=7)


@pytest.mark.parametrize("flag", [[], ["--two-robots"]])
def test_two_robots_per_player_in_players(flag: list[str]) -> None:
    code, output = run(*flag, "--players", "Ada=1+5,Bruno=2+6,Cy=3+4", "--seed", "1")
    assert code == 0
    log = read_log_text(output)
    assert log.players == {"Ada": (1, 5), "Bruno": (2, 6), "Cy": (3, 4)}
    assert log.two_robot_variant is True
    assert replay_log(log).final.is_two_robot_variant


def test_every_option_flag_is_written() -> None:
    code, output = run(
        "--robots",
        "1,2,3",
        "--seed",
        "5",
        "--upgrades",
        "--jolly",
        "--three-point",
        "--pad-reserve",
        "--assembly",
        "optional",
        "--defence-steal-source",
        "feet_only",
    )
    assert code == 0
    log = read_log_text(output)
    expected = Options(
        defence_steal_source="feet_only",
        assembly="optional",
        upgrades=True,
        jolly_gears=True,
        three_point_gears=True,
        pad_reserve=True,
    )
    assert log.options == expected
    start = replay_log(log).final
    assert start == setup_game([1, 2, 3], seed=5, options=expected)
    assert all(player.upgrade is not None for player in start.players)


@pytest.mark.parametrize(
    ("flag", "option"),
    [
        ("--upgrades", "upgrades"),
        ("--jolly", "jolly_gears"),
        ("--three-point", "three_point_gears"),
        ("--pad-reserve", "pad_reserve"),
    ],
)
def test_each_switch_alone(flag: str, option: str) -> None:
    code, output = run(flag, "--seed", "2")
    assert code == 0
    options = json.loads(output)["options"]
    assert [name for name, value in options.items() if value is True] == [option]


def test_without_a_seed_a_random_one_is_written() -> None:
    code, output = run()
    assert code == 0
    seed = read_log_text(output).start.seed
    assert seed is not None
    assert 0 <= seed < 2**32


def test_dash_writes_to_standard_output() -> None:
    assert run("-o", "-", "--seed", "8") == run("--seed", "8")


def test_output_file_is_written_and_reads_back(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    code, output = run("--seed", "6", "--robots", "1,2,3", "-o", str(target))
    assert code == 0
    lines = output.splitlines()
    assert lines[:2] == [
        f"Wrote {target}: 3 robots, 3 players, seed 6.",
        "The table it starts from (turn 1):",
    ]
    state = start_state(read_log(target))
    assert lines[2] == "  robot 1 (P1): feet none; circuit none"
    assert lines[5] == f"  dump 1: {describe_gears(state.dump(1).gears)}"
    assert lines[-1] == f"  reserve: {len(state.reserve)} gears"
    log = read_log(target)
    assert log.start.seed == 6
    assert replay_log(log).turns == ()
    assert os.listdir(tmp_path) == ["game.json"]
    assert target.read_text(encoding="utf-8") == run("--seed", "6", "--robots", "1,2,3")[1]


def test_existing_file_is_kept_without_force(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("the table's notes", encoding="utf-8")
    code, output = run("--seed", "6", "-o", str(target))
    assert code == 2
    assert f"{target} exists; use --force to overwrite it" in output
    assert target.read_text(encoding="utf-8") == "the table's notes"
    assert os.listdir(tmp_path) == ["game.json"]


def test_force_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.write_text("the table's notes", encoding="utf-8")
    code, _ = run("--seed", "6", "-o", str(target), "--force")
    assert code == 0
    assert read_log(target).start.seed == 6
    assert os.listdir(tmp_path) == ["game.json"]


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_a_failed_write_leaves_no_half_written_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, force: list[str]
) -> None:
    target = tmp_path / "game.json"
    if force:
        target.write_text("the table's notes", encoding="utf-8")

    def broken_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_disk)
    code, output = run("--seed", "6", "-o", str(target), *force)
    assert code == 2
    assert f"cannot write {target}: No space left on device" in output
    if force:
        assert target.read_text(encoding="utf-8") == "the table's notes"
        assert os.listdir(tmp_path) == ["game.json"]
    else:
        assert os.listdir(tmp_path) == []


def test_missing_folder_is_exit_2(tmp_path: Path) -> None:
    target = tmp_path / "no" / "game.json"
    code, output = run("--seed", "6", "-o", str(target))
    assert code == 2
    assert f"cannot write {target}" in output
    assert not target.parent.exists()


def test_output_that_is_a_folder_is_exit_2(tmp_path: Path) -> None:
    code, output = run("--seed", "6", "-o", str(tmp_path))
    assert code == 2
    assert "is a directory" in output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--robots", "1"], "a game has 2 to 8 robots, not 1"),
        (["--robots", "1,9"], "robots are numbered 1-8, not 9"),
        (["--robots", "0,1"], "robots are numbered 1-8, not 0"),
        (["--robots", "1,1"], "robot 1 is named twice"),
        (["--robots", "1,x"], "a robot is a number 1-8, not 'x'"),
        (["--robots", ""], "a robot is a number 1-8, not ''"),
        (["--two-robots", "--robots", "1,2,3"], "an even number of robots, not 3"),
        (["--two-robots", "--robots", "1,2"], "the two-robot variant is for 2 to 4 players, not 1"),
        (["--players", "Ada=1"], "a game has 2 to 8 robots, not 1"),
        (["--players", "Ada=1,Bo=1"], "robot 1 is given to two players"),
        (["--players", "Ada=1,Ada=2"], "the player 'Ada' is named twice"),
        (["--players", "Ada,Bo=2"], "a player reads like 'Ada=1' or 'Ada=1+5', not 'Ada'"),
        (["--players", "=1,Bo=2"], "a player reads like 'Ada=1'"),
        (["--players", "Ada=1+2+3,Bo=4"], "player 'Ada' controls one or two robots, not 3"),
        (["--players", "Ada=1+5,Bo=2"], "either every player controls one robot or every one two"),
        (["--two-robots", "--players", "Ada=1,Bo=2"], "every player controls two robots"),
        (["--players", "A" * 61 + "=1,Bo=2"], "at most 60 characters"),
        (["--robots", "1,2", "--players", "Ada=1,Bo=2"], "either --robots or --players"),
        (["--robots", "1,2,3,4,5,6,7,8", "--pad-reserve"], "pad_reserve needs a colour"),
        (["--seed", "-1"], "Invalid value for '--seed'"),
        (["--seed", str(2**64)], "Invalid value for '--seed'"),
        (["--assembly", "maybe"], "Invalid value for '--assembly'"),
        (["--defence-steal-source", "circuit"], "Invalid value for '--defence-steal-source'"),
    ],
)
def test_bad_input_is_exit_2(args: list[str], message: str) -> None:
    code, output = run(*args)
    assert code == 2
    assert message in output


def test_four_players_of_two_robots_fill_the_table() -> None:
    code, output = run("--players", "A=1+2,B=3+4,C=5+6,D=7+8", "--seed", "1")
    assert code == 0
    assert len(read_log_text(output).players) == 4
