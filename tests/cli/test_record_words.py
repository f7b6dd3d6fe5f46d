"""``outofgears record`` speaks of this game only, and reads answers forgivingly (issue 21).

A three-robot game of red, orange and yellow gears: its questions, hints and refusals never
name another colour, a fourth robot or dump, a player of another game or an upgrade card; its
answers are taken in any case, with any spacing and with a number glued to its word.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from outofgears.cli.main import main
from outofgears.log import read_log
from outofgears.rules.setup import setup_game
from outofgears.table.answers import Examples, forgiving, parse_table_program

#: Robots 1-3: red, orange and yellow gears only; dump 1 holds red and yellow (seed 5).
NEW_GAME = ("--robots", "1,2,3", "--seed", "5")

#: What no question, hint or refusal of that game may name.
FOREIGN: tuple[str, ...] = ("blue", "green", "purple", "grey", "white", "jolly", "3-point")
FOREIGN += ("robot 4", "dump 4", "Ada", "1-8", "super", "2:blue")


def record(*args: str, typed: str) -> Result:
    result = CliRunner().invoke(main, ["record", *args], input=typed)
    assert "Traceback" not in result.output
    return result


def lines(*answers: str) -> str:
    return "".join(f"{answer}\n" for answer in answers)


def test_answers_in_any_case_spacing_and_glued_numbers_are_taken(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    typed = lines(
        "Harvest1", "ATTACK  1", "trap3",  # programs
        "robot1 feet=Red, YELLOW", "Score p1 = 3", "ROBOT1 CIRCUIT=None", "",  # written down
    )  # fmt: skip
    result = record(str(path), *NEW_GAME, "--turns", "1", typed=typed)
    assert result.exit_code == 0, result.output
    assert "not taken" not in result.output
    turn = read_log(path).turns[0]
    assert [str(turn.programs[n]) for n in (1, 2, 3)] == ["harvest 1", "attack 1", "trap 3"]
    assert turn.recorded is not None
    assert turn.recorded.scores == {"P1": 3}
    assert [str(gear) for gear in turn.recorded.robots[1].feet or ()] == ["red", "yellow"]
    assert turn.recorded.robots[1].circuit == ()


def test_questions_hints_and_refusals_name_only_this_games_robots_gears_and_players(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    typed = lines(
        "trap 9", "foo", "harvest 7", "harvest 1", "attack 1", "trap 3",
        "robot 1 feet=blu", "dump 1=orange, purpl", "score Bo=3", "robot 1 circuit=none", "",
    )  # fmt: skip
    result = record(str(path), *NEW_GAME, "--turns", "1", typed=typed)
    assert result.exit_code == 0, result.output
    assert result.output.count("not taken") == 6
    assert '"foo" is not a program: robot 1 may lay attack, trap, harvest 1-3' in result.output
    assert '"blu" is not a gear of this game: its gears are red, orange, yellow' in result.output
    assert "Robot 2 (P2, orange) program" in result.output
    assert "'score P1=12'" in result.output
    for word in FOREIGN:
        assert word not in result.output, word


def test_a_player_named_in_another_case_is_refused_when_two_names_read_alike(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    typed = lines("harvest 1", "attack 1", "trap 3", "score ADA=3", "score Ada=3", "")
    result = record(str(path), "--players", "Ada=1,ada=2,Cy=3", "--seed", "5", typed=typed)
    assert '"ADA" is not a player of this game (players: Ada, ada, Cy)' in result.output
    recorded = read_log(path).turns[0].recorded
    assert recorded is not None
    assert recorded.scores == {"Ada": 3}


@pytest.mark.parametrize(
    ("said", "program"),
    [
        ("harvest1", "harvest 1"),
        ("HARVEST 1", "harvest 1"),
        (" trap\t2 ", "trap 2"),
        ("Super-Trap", "super trap"),
        ("counter_defence", "counter defence"),
    ],
)
def test_a_program_is_read_forgivingly(said: str, program: str) -> None:
    assert str(parse_table_program(said)) == program


def test_forgiving_keeps_a_gear_name_with_a_digit_whole() -> None:
    assert forgiving("3-Point, RED") == "3-point, red"
    assert forgiving("dump4=Blue") == "dump 4=blue"


def test_the_examples_of_a_game_name_its_robots_colours_and_first_player() -> None:
    words = Examples.of(setup_game([2, 6], seed=1, players=["Bo", "Cy"]))
    assert words.recorded_shape == (
        "write 'robot 6 feet=orange,purple', 'robot 6 circuit=none', 'dump 6=purple' or "
        "'score Bo=12'"
    )
    assert words.steal_shape == "write 'orange from feet' or 'orange from robot 2 circuit'"
    assert words.gears == ("orange", "purple")
