"""A starting layout dealt at a real table, entered with ``new`` or ``record`` (issue 21).

``--dump``, ``--feet``, ``--circuit`` and ``--reserve`` (or the questions of ``--layout``)
give the position the game starts from; the reserve is counts, by default the rest of the
box; every refusal names the option that gave the value.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from outofgears.cli.main import main
from outofgears.judge.start import start_state
from outofgears.log import read_log
from outofgears.rules.gears import describe_gears

#: Ada's robot 1 (red) and Ben's robot 2 (orange): the box holds 11 red and 11 orange.
PLAYERS = ("--players", "Ada=1,Ben=2")
DEALT = ("--dump", "1=red,orange", "--dump", "2=Orange, orange")


def new(*args: str, typed: str | None = None) -> Result:
    result = CliRunner().invoke(main, ["new", *args], input=typed)
    assert "Traceback" not in result.output
    return result


def lines(*answers: str) -> str:
    return "".join(f"{answer}\n" for answer in answers)


def test_the_dumps_dealt_at_the_table_start_the_log_and_the_reserve_is_the_rest(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    result = new(*PLAYERS, *DEALT, "--feet", "2=red", "-o", str(path))
    assert result.exit_code == 0, result.output
    assert "2 robots, 2 players, the layout given." in result.output
    data = json.loads(path.read_text())
    assert "seed" not in data["start"]
    position = data["start"]["position"]
    assert position["dumps"] == {"1": ["red", "orange"], "2": ["orange", "orange"]}
    assert position["robots"]["2"] == {"feet": ["red"], "circuit": []}
    assert position["reserve"] == {"red": 9, "orange": 8}
    state = start_state(read_log(path))
    assert describe_gears(state.robot(2).feet) == "1 red"
    assert len(state.reserve) == 17


def test_a_given_reserve_is_kept_as_counts(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = new(*PLAYERS, *DEALT, "--reserve", "red=2, ORANGE=3", "-o", str(path))
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text())["start"]["position"]["reserve"] == {
        "red": 2,
        "orange": 3,
    }


def test_the_expansions_gears_are_in_the_rest_of_the_box(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = new(*PLAYERS, *DEALT, "--jolly", "--dump", "1=jolly", "-o", str(path))
    assert result.exit_code == 2  # dump 1 given twice
    assert "--dump: dump 1 is given twice" in result.output
    result = new(*PLAYERS, "--dump", "1=jolly", "--dump", "2=none", "--jolly", "-o", str(path))
    assert result.exit_code == 0, result.output
    reserve = json.loads(path.read_text())["start"]["position"]["reserve"]
    assert reserve == {"red": 11, "orange": 11, "jolly": 3}


def test_the_two_robot_variant_lays_out_every_dump_in_play(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    dumps = [f"--dump={n}=none" for n in (1, 2, 5)]
    result = new("--players", "Ada=1+5,Bo=2+6", *dumps, "-o", str(path))
    assert result.exit_code == 2
    assert "--dump: dump 6 is in play" in result.output
    result = new("--players", "Ada=1+5,Bo=2+6", *dumps, "--dump", "6=purple", "-o", str(path))
    assert result.exit_code == 0, result.output
    assert len(start_state(read_log(path)).reserve) == 43


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (("--dump", "1=red"), "--dump: dump 2 is in play: say what it holds"),
        (
            (*DEALT, "--dump", "3=red"),
            '--dump "3=red": dump 3 is not in play (dumps in play: 1, 2)',
        ),
        ((*DEALT, "--feet", "2=redd"), '--feet "2=redd": "redd" is not a gear'),
        ((*DEALT, "--circuit", "x=red"), "write --circuit N=GEARS"),
        ((*DEALT, "--seed", "4"), "--seed deals the table; --dump"),
        (
            ("--dump", "1=red", "--dump", "2=none", "--feet", "1=blue"),
            "--feet 1: one gear too many, 1 blue",
        ),
        ((*DEALT, "--reserve", "red=two"), "--reserve 'red=two': 'red=two' is not a count"),
        ((*DEALT, "--reserve", "red=2,red=1"), "--reserve 'red=2,red=1': red is counted twice"),
        ((*DEALT, "--reserve", "red=11"), "--reserve: this is red gear number 12"),
        ((*DEALT, "--feet", "1=" + ",".join(["red"] * 11)), "--feet 1: one gear too many, 1 red"),
        ((*DEALT, "--upgrade", "Ada=super-trap"), "--upgrade says who holds which card"),
        ((*DEALT, "--upgrades", "--upgrade", "Zed=super-trap"), '"Zed" is not a player'),
        ((*DEALT, "--upgrades", "--upgrade", "Ada=attack"), "an upgrade card such as"),
    ],
)
def test_a_layout_that_cannot_be_is_refused_naming_the_option(
    tmp_path: Path, options: tuple[str, ...], message: str
) -> None:
    path = tmp_path / "game.json"
    result = new(*PLAYERS, *options, "-o", str(path))
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not path.exists()


def test_layout_asks_for_what_the_options_left_out_and_asks_again_on_a_bad_answer(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    typed = lines("red, blu", "red, orange", "", "", "", "", "orange=1, red=x", "")
    result = new(*PLAYERS, "--dump", "2=orange,orange", "--layout", "-o", str(path), typed=typed)
    assert result.exit_code == 0, result.output
    assert "Dump 2 holds" not in result.output  # given by --dump
    assert '"blu" is not a gear of this game: its gears are red, orange' in result.output
    assert "'red=x' is not a count" in result.output
    assert "The reserve, as counts (red=10, orange=8:" in result.output
    position = json.loads(path.read_text())["start"]["position"]
    assert position["dumps"]["1"] == ["red", "orange"]
    assert position["reserve"] == {"red": 10, "orange": 8}


def test_input_ending_during_the_layout_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = new(*PLAYERS, "--layout", "-o", str(path), typed=lines("red"))
    assert result.exit_code == 2
    assert "standard input ended before the layout was complete" in result.output
    assert not path.exists()


def test_layout_questions_go_to_standard_error_when_the_log_goes_to_standard_output() -> None:
    typed = lines("red", "orange", "", "", "", "", "")
    result = new(*PLAYERS, "--layout", typed=typed)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["start"]["position"]["dumps"] == {
        "1": ["red"],
        "2": ["orange"],
    }
    assert "Dump 1 holds" in result.stderr


def test_record_starts_a_real_table_and_asks_what_was_turned_up(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    typed = lines("harvest 1", "harvest 2", "red", "orange", "")
    result = CliRunner().invoke(
        main, ["record", str(path), *PLAYERS, *DEALT, "--turns", "1"], input=typed
    )
    assert result.exit_code == 0, result.output
    assert "Which gear was turned up onto dump 1? (the reserve holds 10 red, 8 orange)" in (
        result.output
    )
    drawn = read_log(path).turns[0].drawn
    assert drawn is not None
    assert {dump: str(gear) for dump, gear in drawn.items()} == {1: "red", 2: "orange"}


def test_record_refuses_a_layout_for_a_log_that_exists(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert new(*PLAYERS, *DEALT, "-o", str(path)).exit_code == 0
    before = path.read_bytes()
    result = CliRunner().invoke(main, ["record", str(path), "--dump", "1=red"], input="")
    assert result.exit_code == 2
    assert "exists: --dump only describes a new game" in result.output
    assert path.read_bytes() == before


# --- the table's language and its upgrade cards (issue 31) ---------------------------------------


def test_an_italian_table_deals_its_layout_in_italian(tmp_path: Path) -> None:
    path = tmp_path / "partita.json"
    typed = lines("rossa, 2 gialle", "niente", "grigie", "2 grigie", "", "", "", "")
    result = new(
        "--players", "Marco=1,Giulia=2", "--lang", "it", "--layout", "--reserve", "red=2",
        "-o", str(path), typed=typed,
    )  # fmt: skip
    assert result.exit_code == 0, result.output  # a reserve given: another box
    assert "La discarica 1 contiene" in result.output
    assert '"grigie" non dice quante' in result.output  # a plural without its count
    position = json.loads(path.read_text())["start"]["position"]
    assert position["dumps"]["1"] == ["red", "yellow", "yellow"]
    assert position["robots"]["1"]["feet"] == ["grey", "grey"]
    result = new(
        "--players", "Marco=1,Giulia=2", "--lang", "it", "--dump", "1=rossa,2 arancioni",
        "--dump", "2=niente", "-o", str(tmp_path / "data.json"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    position = json.loads((tmp_path / "data.json").read_text())["start"]["position"]
    assert position["dumps"] == {"1": ["red", "orange", "orange"], "2": []}
    assert "Il tavolo da cui parte (turno 1):" in result.output


def test_a_french_tables_mistyped_gear_is_refused_in_french(tmp_path: Path) -> None:
    result = new(
        "--players", "Léa=1,Jean=2", "--lang", "fr", "--dump", "1=rouje", "--dump", "2=aucun",
        "-o", str(tmp_path / "partie.json"),
    )  # fmt: skip
    assert result.exit_code == 2
    assert '--dump "1=rouje": "rouje" n\u2019est pas lisible' in result.output, result.output
    assert "écrivez les Engrenages, comme" in result.output


def test_the_upgrade_cards_of_a_game_dealt_at_the_table(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    given = new(*PLAYERS, *DEALT, "--upgrades", "--upgrade", "ada=Super-Trap", "-o", str(path))
    assert given.exit_code == 0, given.output
    assert json.loads(path.read_text())["start"]["position"]["upgrades"] == {"Ada": "super trap"}
    asked = new(
        *PLAYERS, *DEALT, "--upgrades", "--layout", "-o", str(tmp_path / "asked.json"),
        typed=lines("", "", "", "", "", "super attack", "bogus", ""),
    )  # fmt: skip
    assert asked.exit_code == 0, asked.output
    assert "Which upgrade card does Ada hold?" in asked.output
    assert "not taken:" in asked.output  # "bogus"
    upgrades = json.loads((tmp_path / "asked.json").read_text())["start"]["position"]["upgrades"]
    assert upgrades == {"Ada": "super attack"}


def test_record_in_italian_starts_a_dealt_game_and_records_its_first_turn(tmp_path: Path) -> None:
    path = tmp_path / "partita.json"
    typed = lines("rossa", "arancione", "", "", "", "", "")  # two dumps, no robot gears, reserve
    typed += lines("r1", "r2", "rossa", "arancione", "")  # programs, draws, nothing written
    result = CliRunner().invoke(
        main, ["record", str(path), "--lang", "it", "--players", "Marco=1,Giulia=2", "--layout"],
        input=typed,
    )  # fmt: skip
    assert "Traceback" not in result.output
    assert "La discarica 1 contiene" in result.output
    turns = read_log(path).turns
    assert len(turns) == 1, result.output
    assert [str(turns[0].programs[robot]) for robot in (1, 2)] == ["harvest 1", "harvest 2"]
