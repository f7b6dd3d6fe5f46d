"""Gears, colours and their names (spec GEN-1, ruling R-COLOURS)."""

from __future__ import annotations

from collections import Counter

import pytest

from outofgears import (
    COLOUR_NAMES,
    Gear,
    GearKind,
    InvalidStateError,
    describe_gears,
    gears,
    score_robot,
    setup_game,
)
from outofgears.rules.gears import parse_gear
from tests.helpers import position


@pytest.mark.clause("GEN-1")
def test_a_gear_is_worth_two_to_its_own_robot_and_one_to_every_other() -> None:
    gear = Gear(4)
    assert [gear.points_for(robot) for robot in range(1, 9)] == [1, 1, 1, 2, 1, 1, 1, 1]


@pytest.mark.clause("GEN-1")
@pytest.mark.parametrize("colour", [0, 9, -1])
def test_there_is_no_gear_outside_the_eight_robot_colours(colour: int) -> None:
    with pytest.raises(InvalidStateError):
        Gear(colour)


@pytest.mark.clause("GEN-1")
def test_a_robots_colour_is_its_number() -> None:
    state = position(dumps={3: [], 6: []})
    assert [robot.colour for robot in state.robots] == [3, 6]
    assert state.robot(6).colour == 6


@pytest.mark.clause("GEN-1", "SET-3")
def test_the_full_box_holds_eighty_eight_gears_eleven_per_colour() -> None:
    state = setup_game([1, 2, 3, 4, 5, 6, 7, 8], seed=88)
    counts = Counter(gear.colour for gear in state.all_gears())
    assert sum(counts.values()) == 88
    assert counts == dict.fromkeys(range(1, 9), 11)


@pytest.mark.clause("GEN-1", "SET-6")
def test_the_base_game_has_only_standard_gears() -> None:
    state = setup_game([1, 2, 3, 4, 5, 6, 7, 8], seed=3)
    assert {gear.kind for gear in state.all_gears()} == {GearKind.STANDARD}


@pytest.mark.clause("GEN-1")
def test_gears_of_one_colour_are_interchangeable_whatever_order_they_are_listed_in() -> None:
    assert gears(3, 1, 1) == (Gear(1), Gear(1), Gear(3))
    assert gears(5, 2, 5) == gears(5, 5, 2)
    assert gears(1, 1) != gears(1)


@pytest.mark.clause("GEN-1", "END-2")
def test_the_same_gears_are_worth_differently_to_different_robots() -> None:
    state = position(feet={1: [1, 1, 2], 2: [1, 1, 2]}, dumps={1: [], 2: []})
    assert score_robot(state.robot(1)) == 2 + 2 + 1
    assert score_robot(state.robot(2)) == 1 + 1 + 2


@pytest.mark.clause("GEN-1")
@pytest.mark.ruling("R-COLOURS")
def test_robots_one_to_eight_are_red_orange_yellow_green_blue_purple_grey_white() -> None:
    assert COLOUR_NAMES == {
        1: "red",
        2: "orange",
        3: "yellow",
        4: "green",
        5: "blue",
        6: "purple",
        7: "grey",
        8: "white",
    }
    assert [str(Gear(colour)) for colour in range(1, 9)] == [
        "red",
        "orange",
        "yellow",
        "green",
        "blue",
        "purple",
        "grey",
        "white",
    ]


@pytest.mark.clause("GEN-1")
@pytest.mark.ruling("R-COLOURS")
def test_a_table_reads_gears_by_colour_name_counted() -> None:
    assert describe_gears(gears(5, 1, 1, 8)) == "2 red, 1 blue, 1 white"
    assert describe_gears(gears(7)) == "1 grey"
    assert describe_gears(()) == "none"


@pytest.mark.clause("GEN-1")
@pytest.mark.ruling("R-COLOURS")
@pytest.mark.parametrize(
    ("text", "colour"),
    [("red", 1), ("purple", 6), ("white", 8), ("grey", 7), ("green", 4), ("orange", 2)],
)
def test_a_gear_is_named_by_its_colour(text: str, colour: int) -> None:
    assert parse_gear(text) == Gear(colour)


@pytest.mark.clause("GEN-1")
@pytest.mark.ruling("R-COLOURS")
@pytest.mark.parametrize("text", ["pink", "9", "0", ""])
def test_a_colour_no_robot_has_is_refused(text: str) -> None:
    with pytest.raises(InvalidStateError):
        parse_gear(text)


@pytest.mark.clause("GEN-1")
@pytest.mark.ruling("R-COLOURS")
@pytest.mark.parametrize("text", ["Purple", " white", "WHITE", "4", "gray"])
def test_a_gear_is_read_only_by_its_name_as_a_log_writes_it(text: str) -> None:
    with pytest.raises(InvalidStateError, match="is not a gear: a gear is one of red, orange"):
        parse_gear(text)


@pytest.mark.clause("GEN-1")
@pytest.mark.ruling("R-COLOURS")
def test_every_colour_name_reads_back_as_its_own_gear() -> None:
    for colour in range(1, 9):
        assert parse_gear(str(Gear(colour))) == Gear(colour)
        assert parse_gear(COLOUR_NAMES[colour]).colour == colour
