"""Phase 4, exploration (spec EXP-1, ruling R-EXPLORE)."""

from __future__ import annotations

import pytest

from outofgears import (
    GameState,
    Gear,
    GearMoved,
    Place,
    apply_turn,
    gears,
    resolve_turn,
    setup_game,
)
from tests.helpers import everyone_defends, position, programs


def explored(state: GameState) -> list[GearMoved]:
    result = resolve_turn(state, everyone_defends(state))
    return [move for move in result.moves if move.clause == "EXP-1"]


def drawn(gear: int, dump: int) -> GearMoved:
    return GearMoved(Gear(gear), Place.reserve(), Place.dump(dump), None, "EXP-1")


@pytest.mark.clause("EXP-1")
@pytest.mark.ruling("R-EXPLORE")
def test_exploration_fills_dumps_in_ascending_order_from_the_front_of_the_reserve() -> None:
    state = position(dumps={7: [7], 2: [2], 5: [5]}, reserve=[7, 2, 5, 5])
    assert explored(state) == [drawn(7, 2), drawn(2, 5), drawn(5, 7)]
    after = apply_turn(state, everyone_defends(state))
    assert after.dump(2).gears == gears(2, 7)
    assert after.dump(5).gears == gears(2, 5)
    assert after.dump(7).gears == gears(5, 7)
    assert after.reserve == (Gear(5),)


@pytest.mark.clause("EXP-1")
@pytest.mark.ruling("R-EXPLORE")
def test_exploration_stops_when_the_reserve_runs_out() -> None:
    state = position(dumps={2: [2], 5: [5], 7: [7]}, reserve=[5, 2])
    assert explored(state) == [drawn(5, 2), drawn(2, 5)]
    after = apply_turn(state, everyone_defends(state))
    assert after.dump(2).gears == gears(2, 5)
    assert after.dump(5).gears == gears(2, 5)
    assert after.dump(7).gears == gears(7)
    assert after.reserve == ()


@pytest.mark.clause("EXP-1")
@pytest.mark.ruling("R-EXPLORE")
def test_an_empty_reserve_explores_nothing() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[])
    assert explored(state) == []
    after = apply_turn(state, everyone_defends(state))
    assert after.dump(1).gears == gears(1)
    assert after.dump(2).gears == gears(2)


@pytest.mark.clause("EXP-1")
@pytest.mark.ruling("R-EXPLORE")
def test_exploration_adds_one_gear_to_dumps_that_still_hold_gears() -> None:
    state = position(dumps={1: [1, 2, 3], 2: [], 3: [3]}, reserve=[2, 3, 1, 1])
    after = apply_turn(state, everyone_defends(state))
    assert after.dump(1).gears == gears(1, 2, 2, 3)
    assert after.dump(2).gears == gears(3)
    assert after.dump(3).gears == gears(1, 3)
    assert after.reserve == (Gear(1),)


@pytest.mark.clause("EXP-1")
@pytest.mark.ruling("R-EXPLORE")
def test_exploration_puts_exactly_one_gear_on_each_dump_in_play() -> None:
    state = setup_game([1, 3, 4, 8], seed=40)
    after = apply_turn(state, everyone_defends(state))
    assert [len(dump.gears) for dump in after.dumps] == [3, 3, 3, 3]
    assert after.reserve == state.reserve[4:]
    for dump, gear in zip((1, 3, 4, 8), state.reserve[:4], strict=True):
        expected = tuple(sorted((*state.dump(dump).gears, gear), key=lambda g: g.colour))
        assert after.dump(dump).gears == expected


@pytest.mark.clause("EXP-1", "TURN-1")
@pytest.mark.ruling("R-EXPLORE")
def test_exploration_comes_after_the_harvests_that_emptied_the_dumps() -> None:
    state = position(dumps={1: [1, 1], 2: [2]}, reserve=[2, 1])
    result = resolve_turn(state, programs(r1="harvest 1", r2="harvest 2"))
    assert result.state.robot(1).feet == gears(1, 1)
    assert result.state.robot(2).feet == gears(2)
    assert result.state.dump(1).gears == gears(2)
    assert result.state.dump(2).gears == gears(1)
    assert [move for move in result.moves if move.clause == "EXP-1"] == [
        drawn(2, 1),
        drawn(1, 2),
    ]
