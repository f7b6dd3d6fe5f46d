"""What a table turned up onto the dumps (``drawn``), under both forms of the reserve (issue 12).

A table does not know the order of the face-down reserve: a log may give it as counts, and then
each turn says which gear came up onto which dump (EXP-1). Under a known order (a list, or a
seed) ``drawn`` is checked like a recorded value.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from outofgears import gears
from outofgears.cli.main import main
from outofgears.judge.replay import replay_log
from outofgears.log import (
    GameLog,
    LogError,
    PositionRecord,
    Recorded,
    RobotGears,
    Start,
    TurnRecord,
    dump_log,
)
from outofgears.rules.gears import Gear
from outofgears.rules.programs import parse_program

pytestmark = pytest.mark.clause("EXP-1")

QUIET = {1: parse_program("attack 1"), 2: parse_program("attack 2"), 3: parse_program("attack 3")}


def table_game(
    reserve: tuple[Gear, ...] | dict[Gear, int],
    *drawn: dict[int, Gear | None] | None,
) -> GameLog:
    """Three robots guarding themselves turn after turn (nothing moves but the draws), from
    empty dumps, with ``reserve`` and each turn's ``drawn``."""
    position = PositionRecord(
        robots={n: RobotGears(feet=(), circuit=()) for n in (1, 2, 3)},
        dumps={1: (), 2: (), 3: ()},
        reserve=reserve,
    )
    turns = tuple(
        TurnRecord(number, QUIET, drawn=told) for number, told in enumerate(drawn, start=1)
    )
    return GameLog(
        players={"Ada": (1,), "Ben": (2,), "Chiara": (3,)},
        start=Start(position=position),
        turns=turns,
    )


RED, ORANGE, BLUE = gears(1)[0], gears(2)[0], gears(5)[0]
PILE = {RED: 2, ORANGE: 1, BLUE: 1}


def test_gears_turned_up_from_a_pile_of_unknown_order_land_where_the_table_says() -> None:
    log = table_game(PILE, {1: BLUE, 2: RED, 3: ORANGE}, {1: RED, 2: None, 3: None})
    replayed = replay_log(log)
    assert replayed.agrees
    final = replayed.final
    assert [final.dump(n).gears for n in (1, 2, 3)] == [gears(1, 5), gears(1), gears(2)]
    assert final.reserve == ()


def test_a_turn_without_drawn_while_the_unknown_pile_holds_gears_is_refused() -> None:
    with pytest.raises(LogError) as caught:
        replay_log(table_game(PILE, {1: BLUE, 2: RED, 3: ORANGE}, None))
    assert caught.value.json_path == "$.turns[1]"
    assert caught.value.turn == 2
    assert 'add "drawn" for dump 1' in caught.value.reason


def test_a_dump_left_out_of_drawn_while_the_unknown_pile_holds_gears_is_refused() -> None:
    with pytest.raises(LogError) as caught:
        replay_log(table_game(PILE, {1: BLUE, 3: ORANGE}))
    assert caught.value.json_path == "$.turns[0].drawn"
    assert caught.value.reason.endswith("onto dump 2")


def test_a_gear_the_pile_does_not_hold_is_a_departure_naming_the_dump_and_the_pile() -> None:
    replayed = replay_log(table_game(PILE, {1: BLUE, 2: BLUE, 3: ORANGE}))
    [departure] = replayed.departures
    assert departure.json_path == "$.turns[0].drawn.2"
    assert departure.turn == 1
    assert departure.clause == "EXP-1"
    assert departure.recorded == "blue"
    assert "the reserve held 2 red, 1 orange, 1 blue" in departure.expected


def test_nothing_turned_up_while_the_pile_still_held_gears_is_a_departure() -> None:
    replayed = replay_log(table_game(PILE, {1: BLUE, 2: None, 3: ORANGE}))
    [departure] = replayed.departures
    assert departure.json_path == "$.turns[0].drawn.2"
    assert departure.recorded == "nothing"


def test_a_gear_on_a_dump_the_emptied_pile_skips_is_a_departure() -> None:
    replayed = replay_log(table_game(PILE, {1: BLUE, 2: RED, 3: ORANGE}, {1: RED, 2: RED}))
    [departure] = replayed.departures
    assert departure.json_path == "$.turns[1].drawn.2"
    assert departure.expected == "nothing: the reserve was empty"


def test_once_the_pile_is_empty_a_turn_needs_no_drawn() -> None:
    log = table_game({RED: 3}, {1: RED, 2: RED, 3: RED}, None)
    assert replay_log(log).agrees


def test_a_dump_not_in_play_is_refused_with_its_path() -> None:
    with pytest.raises(LogError) as caught:
        replay_log(table_game(PILE, {1: BLUE, 2: RED, 3: ORANGE, 5: RED}))
    assert caught.value.json_path == "$.turns[0].drawn.5"


def test_under_a_known_order_drawn_agrees_with_the_next_gears() -> None:
    log = table_game((BLUE, RED, ORANGE, RED), {1: BLUE, 2: RED, 3: ORANGE}, {1: RED})
    assert replay_log(log).agrees


def test_under_a_known_order_another_gear_is_a_departure_naming_the_one_on_top() -> None:
    replayed = replay_log(table_game((BLUE, RED, ORANGE, RED), {1: RED, 2: RED, 3: ORANGE}))
    [departure] = replayed.departures
    assert departure.json_path == "$.turns[0].drawn.1"
    assert departure.expected.startswith("blue, the reserve's gear number 1 in draw order")


def test_under_a_known_order_drawn_may_be_left_out() -> None:
    assert replay_log(table_game((BLUE, RED, ORANGE, RED), None, None)).agrees


def test_a_seeded_game_checks_drawn_like_a_recorded_value() -> None:
    from outofgears.judge.start import start_state

    header = GameLog(players={"Ada": (1,), "Ben": (2,)}, start=Start(seed=3))
    pile = start_state(header).reserve
    programs = {1: parse_program("attack 1"), 2: parse_program("attack 2")}
    good = GameLog(
        players=header.players,
        start=header.start,
        turns=(TurnRecord(1, programs, drawn={1: pile[0], 2: pile[1]}),),
    )
    assert replay_log(good).agrees
    other = next(g for g in gears(1, 2, 3, 4, 5, 6, 7, 8) if g != pile[0])
    bad = GameLog(
        players=header.players,
        start=header.start,
        turns=(TurnRecord(1, programs, drawn={1: other, 2: pile[1]}),),
    )
    assert [d.json_path for d in replay_log(bad).departures] == ["$.turns[0].drawn.1"]


def test_replay_exits_1_for_a_drawn_departure_and_2_for_a_missing_drawn() -> None:
    runner = CliRunner()
    bad = dump_log(table_game(PILE, {1: BLUE, 2: BLUE, 3: ORANGE}))
    result = runner.invoke(main, ["replay", "-"], input=bad)
    assert result.exit_code == 1
    assert "$.turns[0].drawn.2" in result.output
    missing = dump_log(table_game(PILE, None))
    result = runner.invoke(main, ["replay", "-"], input=missing)
    assert result.exit_code == 2
    assert "drawn" in result.output


def test_a_departing_draw_does_not_stop_replay_inferring_the_tables_choices() -> None:
    # Robot 1 assembles its two oranges (not the default red + orange); the table also
    # wrote a draw the pile cannot give. Only the draw departs; the assembly is inferred.
    position = PositionRecord(
        robots={1: RobotGears(feet=gears(1, 2, 2), circuit=()), 2: RobotGears(feet=(), circuit=())},
        dumps={1: gears(1), 2: gears(2)},
        reserve=(RED, ORANGE, RED),
    )
    turn = TurnRecord(
        1,
        {1: parse_program("trap 2"), 2: parse_program("trap 1")},
        recorded=Recorded(robots={1: RobotGears(circuit=gears(2, 2))}),
        drawn={1: ORANGE},
    )
    log = GameLog(players={"A": (1,), "B": (2,)}, start=Start(position=position), turns=(turn,))
    replayed = replay_log(log)
    assert [d.json_path for d in replayed.departures] == ["$.turns[0].drawn.1"]
    assert [c.kind for c in replayed.inferred] == ["assembly"]
    assert replayed.final.robot(1).circuit == gears(2, 2)
