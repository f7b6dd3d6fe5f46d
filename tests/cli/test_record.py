"""``outofgears record``: a game entered turn by turn as it is played at a table.

Typed answers go through click's runner (``input=``), one a line; bad answers are asked again
with the reason. The fully scripted form gives every answer as an option and asks nothing.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from outofgears.cli import record as record_module
from outofgears.cli.main import main
from outofgears.log import dump_log, read_log
from outofgears.rules.programs import parse_program

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: Ada's robot 1 has four gears at its feet, Ben's robot 2 two at its feet and one in its
#: circuit, Cy's robot 3 none; dump 1 holds three gears of three colours.
TABLE: dict[str, Any] = {
    "format": "outofgears-log/1",
    "players": {"Ada": [1], "Ben": [2], "Cy": [3]},
    "start": {
        "position": {
            "robots": {
                "1": {"feet": ["red", "orange", "yellow", "purple"]},
                "2": {"feet": ["orange", "blue"], "circuit": ["red"]},
                "3": {},
            },
            "dumps": {"1": ["green", "blue", "white"], "2": [], "3": []},
            "reserve": ["white", "white", "grey", "grey", "grey", "grey"],
        }
    },
    "turns": [],
}


def record(*args: str, typed: str | None = None) -> Result:
    result = CliRunner().invoke(main, ["record", *args], input=typed)
    assert "Traceback" not in result.output
    return result


def table_log(tmp_path: Path, **changes: Any) -> Path:
    path = tmp_path / "table.json"
    path.write_text(json.dumps({**TABLE, **changes}), encoding="utf-8")
    return path


def lines(*answers: str) -> str:
    return "".join(f"{answer}\n" for answer in answers)


def replays(path: Path) -> int:
    return CliRunner().invoke(main, ["replay", str(path)]).exit_code


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --- a game typed in at the table --------------------------------------------------------------


def test_a_new_game_is_started_and_two_turns_typed_in(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    typed = lines("harvest 1", "attack 2", "trap 1", "")  # nothing written down
    typed += lines("harvest 2", "harvest 3", "attack 3", "", "", "")  # two default assemblies
    result = record(str(path), "--robots", "1,2,3", "--seed", "5", "--turns", "2", typed=typed)
    assert result.exit_code == 0, result.output
    assert "Wrote " in result.output
    assert "3 robots, 3 players, seed 5." in result.output
    assert "The table before turn 1:" in result.output
    assert "robot 3 trap 1: trap sprang [TRP-3]" in result.output
    assert "The table before turn 3:" in result.output
    assert result.output.rstrip().endswith(f"Recorded 2 turns in {path}.")
    log = read_log(path)
    assert [turn.turn for turn in log.turns] == [1, 2]
    assert log.turns[0].programs == {
        1: parse_program("harvest 1"),
        2: parse_program("attack 2"),
        3: parse_program("trap 1"),
    }
    assert replays(path) == 0


def test_new_and_record_share_the_header_options(tmp_path: Path) -> None:
    header = ["--players", "Ada=1,Bo=2", "--jolly", "--assembly", "optional", "--seed", "8"]
    made = CliRunner().invoke(main, ["new", *header, "-o", str(tmp_path / "new.json")])
    recorded = record(str(tmp_path / "rec.json"), *header, typed="")
    assert made.exit_code == recorded.exit_code == 0
    new_log, recorded_log = (tmp_path / "new.json").read_text(), (tmp_path / "rec.json").read_text()
    assert json.loads(recorded_log) == json.loads(new_log)
    assert '"jolly_gears": true' in recorded_log


def test_an_empty_first_program_stops_and_says_how_many_turns(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = record(str(path), typed=lines(""))
    assert result.exit_code == 0
    assert result.output.rstrip().endswith(f"Recorded 0 turns in {path}.")
    assert read_log(path).turns == ()


def test_input_ending_mid_turn_records_nothing_of_it(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    before = path.read_bytes()
    result = record(str(path), typed=lines("harvest 1"))
    assert result.exit_code == 0
    assert "Turn 1 was left unfinished; it is not recorded." in result.output
    assert path.read_bytes() == before


def test_a_later_robot_cannot_skip_its_program(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = record(
        str(path), "--turns", "1", typed=lines("harvest 1", "", "trap 2", "trap 3", "", "")
    )
    assert "every robot lays a program" in result.output
    assert read_log(path).turns[0].programs[2] == parse_program("trap 2")


# --- bad answers, asked again ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ("trap 9", '"trap 9" is not a program: robot 1 may lay attack, trap, harvest 1-3'),
        ("harvest", '"harvest" is not a program: robot 1 may lay attack, trap, harvest 1-3'),
        ("attack 4", "robot 4 is not in play (attack 4) (PRG-2)"),
        ("super trap", "(UPG-2)"),
    ],
)
def test_an_illegal_program_is_asked_again_with_the_reason(
    tmp_path: Path, bad: str, reason: str
) -> None:
    path = table_log(tmp_path)
    typed = lines(bad, "harvest 2", "trap 2", "trap 3", "", "", "")
    result = record(str(path), "--turns", "1", typed=typed)
    assert result.exit_code == 0, result.output
    assert reason in result.output
    assert result.output.count("Robot 1 (Ada, red) program") == 2
    assert read_log(path).turns[0].programs[1] == parse_program("harvest 2")


def test_partners_laying_the_same_card_are_asked_again(tmp_path: Path) -> None:
    path = tmp_path / "two.json"
    typed = lines("harvest 1", "harvest 2", "harvest 3", "trap 4", "trap 3", "")
    result = record(
        str(path), "--two-robots", "--robots", "1,3,2,4", "--seed", "2", "--turns", "1",
        typed=typed,
    )  # fmt: skip
    assert "robot 3: player 'P1' has one harvest card, and robot 1 already uses it (VAR-2)" in (
        result.output
    )
    assert result.output.count("Robot 3 (P1, yellow) program") == 2
    assert str(read_log(path).turns[0].programs[3]) == "trap 3"


def test_a_defence_steal_the_rules_refuse_is_asked_again(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    typed = lines(
        "attack 1", "attack 1", "attack 3",  # Ada defends, Ben attacks her
        "red from feet",  # Ben has no red gear at his feet
        "blue from robot 3 feet",  # the question is about robot 2
        "red from circuit",
        "", "",
    )  # fmt: skip
    result = record(str(path), "--turns", "1", typed=typed)
    assert result.exit_code == 0, result.output
    assert "robot 2 has no red gear in its feet (ATK-4)" in result.output
    assert "this question is about robot 2, not robot 3" in result.output
    steal = read_log(path).turns[0].choices
    assert steal is not None
    assert [(s.defender, s.attacker, s.source, str(s.gear)) for s in steal.defence_steals] == [
        (1, 2, "circuit", "red")
    ]
    assert replays(path) == 0


def test_an_assembly_with_a_typo_or_gears_not_at_the_feet_is_asked_again(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    typed = lines(
        "trap 2", "trap 3", "trap 2",
        "red, yelow",  # a typo
        "red, blue",  # no blue at Ada's feet
        "yellow+purple",
        "",
    )  # fmt: skip
    result = record(str(path), "--turns", "1", typed=typed)
    assert result.exit_code == 0, result.output
    assert '"yelow" is not a gear' in result.output
    assert "(ASM-1)" in result.output
    assert "(red+orange | red+yellow |" in result.output
    choices = read_log(path).turns[0].choices
    assert choices is not None
    assert [str(gear) for gear in choices.assemblies[1]] == ["yellow", "purple"]
    assert replays(path) == 0


def test_a_split_is_asked_with_its_default_and_checked(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    typed = lines(
        "trap 2", "harvest 1", "harvest 1",
        "2:green, 3:green",  # only one green gear on the dump
        "2:white, 3:green",
        "", "", "",  # the assemblies of robots 1 and 2, nothing written down
    )  # fmt: skip
    result = record(str(path), "--turns", "1", typed=typed)
    assert result.exit_code == 0, result.output
    assert "Dump 1: robots 2 and 3 took 1 gear each, from" in result.output
    assert "(SPL-" in result.output
    choices = read_log(path).turns[0].choices
    assert choices is not None
    (split,) = choices.splits
    assert str(split.place) == "dump 1"
    assert {robot: [str(g) for g in gears] for robot, gears in split.shares.items()} == {
        2: ["white"],
        3: ["green"],
    }
    assert replays(path) == 0


def test_what_the_players_wrote_down_is_kept_and_judged_by_replay(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    typed = lines(
        "trap 2", "trap 3", "trap 2", "?",  # Ada's assembly: not known, left to the record
        "robot 1 circuit=yellow, purple",
        "robot 9 feet=red",  # not a robot
        "robot 5 feet=red",  # not in play
        "score Zed=3",  # not a player
        "score Ada=5",  # red 2 points, orange, yellow and purple 1 each (END-2)
        "",
    )  # fmt: skip
    result = record(str(path), "--turns", "1", typed=typed)
    assert result.exit_code == 0, result.output
    assert '"9" is not a robot' in result.output
    assert "robot 5 is not in play (robots in play: 1, 2, 3)" in result.output
    assert '"Zed" is not a player of this game' in result.output
    assert "inferred: robot 1 assembled 1 yellow, 1 purple (ASM-1" in result.output
    recorded = read_log(path).turns[0].recorded
    assert recorded is not None
    assert recorded.scores == {"Ada": 5}
    assert replays(path) == 0


def test_a_recorded_value_that_departs_is_written_only_when_confirmed_and_exits_1(
    tmp_path: Path,
) -> None:
    path = table_log(tmp_path)
    typed = lines("trap 2", "trap 3", "trap 2", "", "score Ada=9", "YES", "")
    result = record(str(path), "--turns", "1", typed=typed)
    assert result.exit_code == 1, result.output
    assert "DEPARTS FROM THE RULES at turn 1: Ada's score" in result.output
    assert "Write it down as recorded anyway?" in result.output
    assert f"The log departs from the rules: outofgears replay {path} says where." in (
        result.output
    )
    assert read_log(path).turns[0].recorded is not None
    assert replays(path) == 1


@pytest.mark.parametrize("refusal", ["", "no", "n"])
def test_a_departing_value_not_confirmed_is_asked_again_and_the_right_one_written(
    tmp_path: Path, refusal: str
) -> None:
    path = table_log(tmp_path)
    typed = lines("trap 2", "trap 3", "trap 2", "", "score Ada=9", refusal, "score Ada=5", "")
    result = record(str(path), "--turns", "1", typed=typed)
    assert result.exit_code == 0, result.output
    assert result.output.count("DEPARTS FROM THE RULES") == 1
    assert "not written down. Again" in result.output
    recorded = read_log(path).turns[0].recorded
    assert recorded is not None
    assert recorded.scores == {"Ada": 5}
    assert replays(path) == 0


def test_a_confirmation_takes_only_yes_or_no(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    typed = lines("trap 2", "trap 3", "trap 2", "", "score Ada=9", "sure", "y", "")
    result = record(str(path), "--turns", "1", typed=typed)
    assert result.exit_code == 1, result.output
    assert '"sure" is neither yes nor no' in result.output


def test_a_departing_recorded_option_is_not_written_without_write_departures(
    tmp_path: Path,
) -> None:
    path = table_log(tmp_path)
    before = path.read_bytes()
    result = scripted_turn(path, "--recorded", "score Ada=9")
    assert result.exit_code == 2, result.output
    assert "turn 1 is not written: it departs from the rules" in result.output
    assert "Ada's score" in result.output
    assert "--write-departures" in result.output
    assert path.read_bytes() == before
    written = scripted_turn(path, "--recorded", "score Ada=9", "--write-departures")
    assert written.exit_code == 1, written.output
    recorded = read_log(path).turns[0].recorded
    assert recorded is not None
    assert recorded.scores == {"Ada": 9}


# --- scripted -----------------------------------------------------------------------------------


def scripted_turn(path: Path, *extra: str) -> Result:
    return record(
        str(path),
        "--program", "1=attack 1", "--program", "2=attack 1", "--program", "3=harvest 1",
        *extra,
        "--turns", "1",
    )  # fmt: skip


def test_with_every_answer_given_as_an_option_nothing_is_asked(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = scripted_turn(
        path,
        "--steal", "1=blue from robot 2 feet",
        "--assemble", "1=yellow,purple",
        "--assemble", "3=white+blue",
        "--recorded", "robot 1 circuit=yellow,purple",
        "--recorded", "score Cy=3",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "program [" not in result.output
    assert "?" not in result.output
    turn = read_log(path).turns[0]
    assert turn.choices is not None
    assert turn.recorded is not None
    assert [str(g) for g in turn.choices.assemblies[3]] == ["white", "blue"]  # as the table said it
    assert turn.recorded.scores == {"Cy": 3}
    assert replays(path) == 0


def test_a_split_given_as_an_option(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = record(
        str(path),
        "--program", "1=trap 2", "--program", "2=harvest 1", "--program", "3=harvest 1",
        "--split", "dump 1=2:white,3:green",
        "--turns", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    choices = read_log(path).turns[0].choices
    assert choices is not None
    assert str(choices.splits[0].place) == "dump 1"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--steal", "1=red from robot 2 feet"], "robot 2 has no red gear in its feet (ATK-4)"),
        (["--assemble", "1=red,blue"], "(ASM-1)"),
        (["--assemble", "1=red,yelow"], '"yelow" is not a gear'),
        (["--split", "dump 2=1:red,2:blue"], "(SPL-5)"),
        (["--recorded", "robot 9 feet=red"], '"9" is not a robot'),
        (["--recorded", "dump 5=red"], "dump 5 is not in play"),
        (["--recorded", "dump 1"], "is not a recorded value"),
        (["--program", "4=trap 1"], "robot 4 is not in play"),
        (["--program", "1=trap 1"], "--program answers for robot 1 twice"),
    ],
)
def test_an_answer_given_as_an_option_that_the_rules_refuse_is_exit_2_and_writes_nothing(
    tmp_path: Path, options: list[str], message: str
) -> None:
    path = table_log(tmp_path)
    before = path.read_bytes()
    result = scripted_turn(path, *options)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert path.read_bytes() == before


def test_programs_given_for_some_robots_ask_the_others(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = record(
        str(path), "--program", "2=trap 2", "--turns", "1", typed=lines("trap 1", "trap 3", "", "")
    )
    assert result.exit_code == 0, result.output
    assert "Robot 2 (Ben, orange) program" not in result.output
    assert str(read_log(path).turns[0].programs[2]) == "trap 2"


def test_input_ending_before_a_turn_given_in_part_is_exit_2(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = record(str(path), "--program", "2=trap 2", typed="")
    assert result.exit_code == 2
    assert "standard input ended before turn 1 was complete" in result.output


# --- the log file -------------------------------------------------------------------------------


def test_a_turn_is_appended_to_a_log_with_turns_keeping_every_key(tmp_path: Path) -> None:
    path = tmp_path / "full.json"
    data = json.loads((EXAMPLES / "full-game.log.json").read_text())
    data["turns"] = data["turns"][:3]
    path.write_text(json.dumps(data))
    result = record(
        str(path),
        "--turns",
        "1",
        typed=lines("harvest 1", "harvest 2", "harvest 3", "harvest 4", "", "", "", "", ""),
    )
    assert result.exit_code == 0, result.output
    written = json.loads(path.read_text())
    assert written["turns"][:3] == data["turns"]
    assert {key: value for key, value in written.items() if key != "turns"} == {
        key: value for key, value in data.items() if key != "turns"
    }
    assert written["turns"][3]["turn"] == 4
    assert replays(path) == 0


def test_header_options_are_refused_for_a_log_that_exists(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = record(str(path), "--seed", "3", "--jolly", typed="")
    assert result.exit_code == 2
    assert "--seed, --jolly only describe a new game" in result.output


def test_a_finished_game_has_no_turn_to_record(tmp_path: Path) -> None:
    full = str(EXAMPLES / "full-game.log.json")
    path = tmp_path / "full.json"
    path.write_text(Path(full).read_text())
    result = record(str(path), typed="")
    assert result.exit_code == 0, result.output
    assert "The game is over after turn" in result.output
    assert "Winner: Ada" in result.output
    scripted = scripted_turn(path)
    assert scripted.exit_code == 2
    assert "the game is over; there is no turn to record" in scripted.output


def test_an_invalid_log_is_exit_2_before_any_question(tmp_path: Path) -> None:
    path = table_log(tmp_path, players={"Ada": [1]})
    result = record(str(path), typed=lines("harvest 1"))
    assert result.exit_code == 2
    assert "program [" not in result.output


@pytest.mark.parametrize("kind", ["fifo", "symlink", "directory", "stdin"])
def test_record_never_replaces_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "log.json"
    real = table_log(tmp_path)
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        target.symlink_to(real)
    elif kind == "directory":
        target.mkdir()
    name = "-" if kind == "stdin" else str(target)
    result = record(name, typed=lines("harvest 1"))
    assert result.exit_code == 2, result.output
    assert "program [" not in result.output
    assert json.loads(real.read_text()) == TABLE
    assert kind == "stdin" or os.lstat(target).st_mode & 0o170000 != stat.S_IFREG


def test_a_read_only_log_is_refused(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    path.chmod(0o444)
    result = record(str(path), typed=lines("harvest 1"))
    assert result.exit_code == 2
    assert "is read-only" in result.output


def test_a_log_changed_while_the_turn_was_entered_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = table_log(tmp_path)
    asked = record_module.enter_turn

    def someone_edits_meanwhile(*args: Any, **kwargs: Any) -> Any:
        draft = asked(*args, **kwargs)
        path.write_text(json.dumps({**TABLE, "description": "edited"}))
        return draft

    monkeypatch.setattr(record_module, "enter_turn", someone_edits_meanwhile)
    result = scripted_turn(path)
    assert result.exit_code == 2
    assert "changed while turn 1 was entered; the turn is not written" in result.output
    assert json.loads(path.read_text())["description"] == "edited"


def test_an_interrupted_write_leaves_the_log_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = table_log(tmp_path)
    before = path.read_bytes()

    replaced: list[tuple[Any, ...]] = []

    def interrupted(*args: Any) -> None:
        replaced.append(args)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)  # the last step of the atomic write
    result = scripted_turn(path)
    assert result.exit_code != 0
    assert len(replaced) == 1  # the new log was complete when the rename was interrupted
    assert path.read_bytes() == before
    assert leftovers(tmp_path) == []


# --- the walkthrough ----------------------------------------------------------------------------

WALKTHROUGH = Path(__file__).resolve().parents[2] / "docs" / "settle-a-dispute.md"


def walkthrough_blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", WALKTHROUGH.read_text(encoding="utf-8"), re.S)


def walkthrough_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walkthrough's log without its turn, as game.json in the current folder."""
    monkeypatch.chdir(tmp_path)
    log = json.loads(walkthrough_blocks("json")[0])
    Path("game.json").write_text(json.dumps({**log, "turns": []}), encoding="utf-8")


def test_the_walkthrough_shows_what_record_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    walkthrough_start(tmp_path, monkeypatch)
    command, *shown = walkthrough_blocks("console")[0].splitlines()
    assert command == "$ outofgears record game.json"
    result = record("game.json", typed=lines("attack 1", "attack 2", "yellow, purple", "", ""))
    assert [line.rstrip() for line in result.output.splitlines()] == shown
    assert replays(Path("game.json")) == 0


def test_the_walkthrough_script_records_the_same_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    walkthrough_start(tmp_path, monkeypatch)
    command = walkthrough_blocks("console")[1].replace("\\\n", " ").removeprefix("$ ")
    words = shlex.split(command)
    assert words[:3] == ["outofgears", "record", "game.json"]
    result = record(*words[2:])
    assert result.exit_code == 0, result.output
    turn = read_log(Path("game.json")).turns[0]
    assert turn.choices is not None
    assert [str(gear) for gear in turn.choices.assemblies[1]] == ["yellow", "purple"]


def test_declining_an_optional_assembly_is_written_as_none(tmp_path: Path) -> None:
    path = table_log(tmp_path, options={"assembly": "optional"})
    result = record(
        str(path), "--turns", "1", typed=lines("trap 2", "trap 3", "trap 2", "none", "")
    )
    assert result.exit_code == 0, result.output
    assert (
        "| yellow+purple | none; empty: the default pick, red+orange, ASM-2; ?: not known)"
        in result.output
    )
    choices = read_log(path).turns[0].choices
    assert choices is not None
    assert choices.assemblies == {1: ()}
    assert replays(path) == 0


# --- what was turned up, when the log does not know the reserve's order (EXP-1) ---------------

QUIET = ["--program", "1=attack 1", "--program", "2=attack 2", "--program", "3=attack 3"]


def counted_table(tmp_path: Path) -> Path:
    """The table with its reserve given as counts: two white, four grey, order unknown."""
    position = {**TABLE["start"]["position"], "reserve": {"white": 2, "grey": 4}}
    return table_log(tmp_path, start={"position": position})


def test_under_an_unknown_order_the_gears_turned_up_are_asked_and_checked(
    tmp_path: Path,
) -> None:
    path = counted_table(tmp_path)
    typed = lines("attack 1", "attack 2", "attack 3", "")  # robot 1's default assembly
    typed += lines("red", "", "white", "grey", "grey", "")  # dump 1: red, nothing, then white
    result = record(str(path), "--turns", "1", typed=typed)
    assert result.exit_code == 0, result.output
    assert (
        "Which gear was turned up onto dump 1? (the reserve holds 4 grey, 2 white)" in result.output
    )
    assert "not taken: the reserve holds 4 grey, 2 white" in result.output
    assert "a gear is needed" in result.output
    [turn] = read_log(path).turns
    assert turn.drawn is not None
    assert {dump: str(gear) for dump, gear in turn.drawn.items()} == {
        1: "white",
        2: "grey",
        3: "grey",
    }
    assert replays(path) == 0


def test_the_gears_turned_up_given_as_options_are_recorded(tmp_path: Path) -> None:
    path = counted_table(tmp_path)
    drawn = ["--drawn", "1=grey", "--drawn", "2=white", "--drawn", "3=grey"]
    result = record(str(path), *QUIET, *drawn, "--turns", "1")
    assert result.exit_code == 0, result.output
    [turn] = read_log(path).turns
    assert turn.drawn is not None
    assert str(turn.drawn[2]) == "white"
    assert replays(path) == 0


def test_a_gear_the_reserve_does_not_hold_given_as_an_option_is_exit_2(tmp_path: Path) -> None:
    path = counted_table(tmp_path)
    before = path.read_bytes()
    drawn = ["--drawn", "1=red", "--drawn", "2=white", "--drawn", "3=grey"]
    result = record(str(path), *QUIET, *drawn, "--turns", "1")
    assert result.exit_code == 2
    assert "--drawn: red for dump 1, but the reserve holds 4 grey, 2 white" in result.output
    assert path.read_bytes() == before


def test_a_scripted_turn_without_drawn_under_an_unknown_order_is_exit_2(tmp_path: Path) -> None:
    path = counted_table(tmp_path)
    result = record(str(path), *QUIET, "--turns", "1")
    assert result.exit_code == 2
    assert "--drawn 1=GEAR" in result.output


def test_under_a_known_order_nothing_is_asked_about_the_draws(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = record(str(path), *QUIET, "--turns", "1")
    assert result.exit_code == 0, result.output
    assert "turned up" not in result.output
    assert read_log(path).turns[0].drawn is None


def test_input_ending_at_what_was_written_down_keeps_the_turn(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = record(str(path), "--turns", "1", typed=lines("attack 1", "attack 2", "attack 3", ""))
    assert result.exit_code == 0, result.output
    assert "left unfinished" not in result.output
    assert len(read_log(path).turns) == 1


def test_none_drawn_onto_a_dump_the_emptied_reserve_skips_is_taken(tmp_path: Path) -> None:
    # One gear left: dump 1 gets it, dumps 2 and 3 get nothing.
    position = {**TABLE["start"]["position"], "reserve": {"grey": 1}}
    path = table_log(tmp_path, start={"position": position})
    drawn = ["--drawn", "1=grey", "--drawn", "2=none", "--drawn", "3=none"]
    result = record(str(path), *QUIET, *drawn, "--turns", "1")
    assert result.exit_code == 0, result.output
    turn = read_log(path).turns[0]
    assert turn.drawn is not None
    assert turn.drawn[2] is None
    assert replays(path) == 0


def test_none_drawn_while_the_reserve_holds_gears_is_exit_2_saying_so(tmp_path: Path) -> None:
    path = counted_table(tmp_path)
    drawn = ["--drawn", "1=none", "--drawn", "2=grey", "--drawn", "3=grey"]
    result = record(str(path), *QUIET, *drawn, "--turns", "1")
    assert result.exit_code == 2
    assert "--drawn: dump 1 gets a gear this turn: the reserve still holds 4 grey, 2 white" in (
        result.output
    )


def test_a_drawn_answer_for_a_dump_that_does_not_exist_names_it_a_dump(tmp_path: Path) -> None:
    path = counted_table(tmp_path)
    result = record(str(path), *QUIET, "--drawn", "9=grey", "--turns", "1")
    assert result.exit_code == 2
    assert '"9" is not a dump: dumps are numbered 1-8' in result.output


# --- a draw against the reserve's known order (issue 23) ---------------------------------------


def test_a_draw_the_known_order_does_not_give_is_not_written_silently(tmp_path: Path) -> None:
    path = table_log(tmp_path)  # the reserve in draw order: white, white, grey, ...
    before = path.read_bytes()
    result = scripted_turn(path, "--drawn", "2=grey")
    assert result.exit_code == 2, result.output
    assert "turn 1 is not written: it departs from the rules" in result.output
    assert "the gear turned up onto dump 2" in result.output
    assert path.read_bytes() == before


def test_a_draw_that_agrees_with_the_known_order_is_written(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = scripted_turn(path, "--drawn", "1=white", "--drawn", "2=white", "--drawn", "3=grey")
    assert result.exit_code == 0, result.output
    assert replays(path) == 0


def test_a_departing_draw_is_written_with_write_departures_and_exits_1(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    result = scripted_turn(path, "--drawn", "2=grey", "--write-departures")
    assert result.exit_code == 1, result.output
    drawn = read_log(path).turns[0].drawn
    assert drawn is not None
    assert str(drawn[2]) == "grey"
    assert replays(path) == 1


@pytest.mark.parametrize(("answer", "status"), [("no", 0), ("yes", 1)])
def test_at_the_keyboard_a_departing_draw_is_confirmed_or_left_to_the_order(
    tmp_path: Path, answer: str, status: int
) -> None:
    path = table_log(tmp_path)
    typed = lines("attack 1", "attack 1", "harvest 1", "", "", "", "", answer)
    result = record(str(path), "--drawn", "2=grey", "--turns", "1", typed=typed)
    assert result.exit_code == status, result.output
    assert "Turn 1 departs from the rules. Write it anyway?" in result.output
    drawn = read_log(path).turns[0].drawn
    assert (drawn is None) == (answer == "no")
    assert replays(path) == status


def test_input_ending_at_the_write_it_anyway_question_writes_nothing(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    before = path.read_bytes()
    typed = lines("attack 1", "attack 1", "harvest 1", "", "", "", "")
    result = record(str(path), "--drawn", "2=grey", "--turns", "1", typed=typed)
    assert result.exit_code == 2, result.output
    assert "standard input ended before turn 1 was complete" in result.output
    assert path.read_bytes() == before


# --- undo, defaults written, nothing lost (issue 31) ---------------------------------------------


def test_undo_takes_back_a_mistyped_program_and_the_turn_is_written_as_corrected(
    tmp_path: Path,
) -> None:
    path = table_log(tmp_path)
    typed = lines("harvest 1", "trap 2", "undo", "harvest 2", "trap 3", "", "", "")
    result = record(str(path), "--turns", "1", typed=typed)
    assert result.exit_code == 0, result.output
    assert 'taken back: "trap 2"' in result.output
    programs = read_log(path).turns[0].programs
    assert [str(programs[robot]) for robot in (1, 2, 3)] == ["harvest 1", "harvest 2", "trap 3"]


def test_undo_at_a_turns_first_question_takes_the_last_written_turn_back(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    first = lines("harvest 1", "harvest 2", "harvest 3", "", "")  # an assembly, nothing written
    typed = first + lines("undo", "yes", "trap 2", "trap 3", "trap 1", "", "", "")
    result = record(str(path), typed=typed)
    assert "Take turn 1 back out of the log?" in result.output
    turns = read_log(path).turns
    assert len(turns) == 1
    assert str(turns[0].programs[1]) == "trap 2"
    assert replays(path) == 0


def test_the_defaults_the_table_accepts_are_written_and_replay_leaves_nothing_open(
    tmp_path: Path,
) -> None:
    path = table_log(tmp_path, options={"assembly": "optional"})
    typed = lines("attack 1", "attack 1", "harvest 1", "", "", "", "", "score Ada=0", "")
    result = record(str(path), "--turns", "1", typed=typed)
    turn = read_log(path).turns[0]
    assert turn.choices is not None, result.output
    assert turn.choices.defence_steals
    replayed = CliRunner().invoke(main, ["replay", str(path)])
    assert "Left open" not in replayed.output
    assert "open:" not in replayed.output


def test_the_scores_and_the_rule_options_are_shown_before_each_turn(tmp_path: Path) -> None:
    path = table_log(tmp_path, options={"assembly": "optional"})
    result = record(str(path), typed=lines(""))
    assert "  Ada: " in result.output
    assert "rules: a defender takes from feet or circuit (R-DEFENCE); assembly optional" in (
        result.output
    )


def test_a_turn_typed_when_the_log_passes_the_open_positions_bound_is_written_as_typed(
    tmp_path: Path,
) -> None:
    # Issue 31: 'Turno 5 scritto' after typing turn 7: the replay, stopped undecided, ended on
    # an earlier turn, whose record was appended in place of the one typed.
    from tests.test_table_session import scores_only_game

    path = tmp_path / "open.json"
    path.write_text(dump_log(scores_only_game(seed=0, turns=4)), encoding="utf-8")
    typed = lines("harvest 1", "harvest 2", "harvest 3", "harvest 4", "", "", "", "", "", "")
    result = record(str(path), typed=typed)
    assert result.exit_code == 4, result.output
    assert "Turn 5 written to" in result.output
    turns = read_log(path).turns
    assert [turn.turn for turn in turns] == [1, 2, 3, 4, 5]
    assert [str(turns[-1].programs[robot]) for robot in (1, 2, 3, 4)] == [
        "harvest 1",
        "harvest 2",
        "harvest 3",
        "harvest 4",
    ]
    assert "more than 256 positions" in result.output


def test_a_confirmed_mistake_is_followed_and_the_next_turn_judged_from_the_tables_position(
    tmp_path: Path,
) -> None:
    # Ada's circuit is written as yellow, purple where the rules give red, orange: the table
    # says yes, record marks the turn to follow the table (SET-8), and the next turn's
    # questions start from the table's position.
    path = table_log(tmp_path)
    typed = lines("t2", "t3", "t2", "", "robot 1 circuit=yellow, purple", "yes", "")
    typed += lines("h1", "h2", "h3", "", "", "")
    result = record(str(path), typed=typed)
    assert result.exit_code == 1, result.output
    turns = read_log(path).turns
    assert [turn.follows for turn in turns] == ["table", "rules"]
    replayed = CliRunner().invoke(main, ["replay", str(path)])
    assert "DEPARTS FROM THE RULES at turn 1" in replayed.output
    assert "at turn 2" not in replayed.output
