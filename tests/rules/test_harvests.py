"""Harvests at the table (spec HRV-1, HRV-2).

Rulings checked: R-SPLIT (several harvesters of one dump).

Every expected value below was worked out by hand from the rulebooks
(IT-HARV-*, IT-ACT-HARV-1, FR-HARV-*, FR-ACT-HARV-1, IT-SPLIT-*) and the
readings, not read off the engine. Positions keep the reserve empty (no
exploration) and feet small (no assembly), unless a test says otherwise.
"""

from __future__ import annotations

from collections import Counter

import pytest

from outofgears import (
    Choices,
    Gear,
    GearMoved,
    Options,
    Outcome,
    Place,
    SplitResolved,
    gears,
    resolve_turn,
)
from tests.helpers import (
    circuits_of,
    dumps_of,
    feet_of,
    moves,
    outcomes,
    position,
    programs,
    splits,
)

# --- helpers ---------------------------------------------------------------------------------


def from_dump(colour: int, dump: int, robot: int) -> GearMoved:
    """A gear harvested from a dump to a robot's feet."""
    return GearMoved(Gear(colour), Place.dump(dump), Place.feet(robot), robot, "HRV-2")


DONE, UNTESTED, IDLE = Outcome.HARVEST_DONE, Outcome.DEFENDED_UNTESTED, Outcome.TRAP_IDLE


# --- HRV-1: a harvest names a dump -----------------------------------------------------------


@pytest.mark.clause("HRV-1", "HRV-2")
def test_harvest_names_a_dump_not_a_robot() -> None:
    # "Harvest 2" takes what lies on dump 2, never the gear at robot 2's feet.
    state = position(feet={2: [2]}, dumps={1: [1], 2: [1, 2]})
    result = resolve_turn(state, programs(r1="harvest 2", r2="attack 2"))
    assert feet_of(result.state) == {1: gears(1, 2), 2: gears(2)}
    assert dumps_of(result.state) == {1: gears(1), 2: ()}
    assert moves(result, "HRV-2") == Counter([from_dump(1, 2, 1), from_dump(2, 2, 1)])
    assert outcomes(result) == [(1, DONE, "HRV-2"), (2, UNTESTED, "ATK-3")]


@pytest.mark.clause("HRV-1", "HRV-2")
def test_robots_harvesting_each_others_dumps_each_take_the_named_one() -> None:
    state = position(dumps={1: [1], 2: [2, 2]})
    result = resolve_turn(state, programs(r1="harvest 2", r2="harvest 1"))
    assert feet_of(result.state) == {1: gears(2, 2), 2: gears(1)}
    assert dumps_of(result.state) == {1: (), 2: ()}
    assert moves(result, "HRV-2") == Counter(
        [from_dump(2, 2, 1), from_dump(2, 2, 1), from_dump(1, 1, 2)]
    )
    assert splits(result) == []


@pytest.mark.clause("HRV-1", "HRV-2")
def test_harvesting_ones_own_dump() -> None:
    state = position(dumps={1: [1, 2], 2: [2], 3: [3]})
    result = resolve_turn(state, programs(r1="harvest 1", r2="harvest 2", r3="trap 3"))
    assert feet_of(result.state) == {1: gears(1, 2), 2: gears(2), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: gears(3)}
    assert outcomes(result) == [(1, DONE, "HRV-2"), (2, DONE, "HRV-2"), (3, IDLE, "TRP-3")]


# --- HRV-2: an untrapped harvest takes every gear of its dump ---------------------------------


@pytest.mark.clause("HRV-2")
def test_untrapped_harvest_takes_every_gear_of_its_dump() -> None:
    # Four gears land at robot 1's feet; assembly is made optional and skipped so that
    # the harvest stays visible.
    state = position(
        feet={1: [3]},
        dumps={1: [], 2: [1, 2, 2, 3], 3: []},
        options=Options(assembly="optional"),
    )
    result = resolve_turn(
        state,
        programs(r1="harvest 2", r2="trap 1", r3="attack 3"),
        choices=Choices(assemblies={1: ()}),
    )
    assert feet_of(result.state) == {1: gears(1, 2, 2, 3, 3), 2: (), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: ()}
    assert moves(result, "HRV-2") == Counter(
        [from_dump(1, 2, 1), from_dump(2, 2, 1), from_dump(2, 2, 1), from_dump(3, 2, 1)]
    )


@pytest.mark.clause("HRV-2")
def test_harvested_gears_are_then_assembled_by_default() -> None:
    # A full turn: robot 1 harvests red, orange, yellow onto an empty feet; it now has
    # three gears, so it must assemble two (mandatory): the red (its own colour, worth 2)
    # and then the lowest colour, orange. Exploration then refills the dumps.
    state = position(dumps={1: [], 2: [1, 2, 3], 3: []}, reserve=[2, 3, 1, 1])
    result = resolve_turn(state, programs(r1="harvest 2", r2="trap 1", r3="attack 3"))
    assert moves(result, "HRV-2") == Counter(
        [from_dump(1, 2, 1), from_dump(2, 2, 1), from_dump(3, 2, 1)]
    )
    assert feet_of(result.state) == {1: gears(3), 2: (), 3: ()}
    assert circuits_of(result.state) == {1: gears(1, 2), 2: (), 3: ()}
    assert dumps_of(result.state) == {1: gears(2), 2: gears(3), 3: gears(1)}
    assert result.state.reserve == (Gear(1),)


@pytest.mark.clause("HRV-2")
def test_untrapped_harvest_of_an_empty_dump_takes_nothing() -> None:
    state = position(feet={1: [1]}, dumps={1: [], 2: [2]})
    result = resolve_turn(state, programs(r1="harvest 1", r2="trap 2"))
    assert feet_of(result.state) == {1: gears(1), 2: ()}
    assert dumps_of(result.state) == {1: (), 2: gears(2)}
    assert result.moves == ()
    assert outcomes(result) == [(1, DONE, "HRV-2"), (2, IDLE, "TRP-3")]


@pytest.mark.clause("HRV-2", "SPL-1", "SPL-2", "SPL-3")
@pytest.mark.ruling("R-SPLIT")
def test_three_harvesters_of_seven_gears_leave_one() -> None:
    # 7 gears, 3 harvesters: 2 each, 1 stays. Each gets its own colour first, then a green.
    state = position(dumps={1: [], 2: [], 3: [], 4: [1, 2, 3, 4, 4, 4, 4]})
    result = resolve_turn(
        state, programs(r1="harvest 4", r2="harvest 4", r3="harvest 4", r4="attack 4")
    )
    assert feet_of(result.state) == {1: gears(1, 4), 2: gears(2, 4), 3: gears(3, 4), 4: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: (), 4: gears(4)}
    assert splits(result) == [SplitResolved(Place.dump(4), (1, 2, 3), 2, gears(4), "SPL-1")]
    assert moves(result, "HRV-2") == Counter(
        [
            from_dump(1, 4, 1),
            from_dump(4, 4, 1),
            from_dump(2, 4, 2),
            from_dump(4, 4, 2),
            from_dump(3, 4, 3),
            from_dump(4, 4, 3),
        ]
    )


@pytest.mark.clause("HRV-2", "SPL-4")
@pytest.mark.ruling("R-SPLIT")
def test_more_harvesters_than_gears_nobody_takes() -> None:
    # Three harvesters, two gears: nobody takes one, not even robot 1 its own red.
    state = position(dumps={1: [1, 2], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="harvest 1", r2="harvest 1", r3="harvest 1"))
    assert feet_of(result.state) == {1: (), 2: (), 3: ()}
    assert dumps_of(result.state) == {1: gears(1, 2), 2: (), 3: ()}
    assert splits(result) == [SplitResolved(Place.dump(1), (1, 2, 3), 0, gears(1, 2), "SPL-4")]
    assert result.moves == ()
    assert outcomes(result) == [(1, DONE, "HRV-2"), (2, DONE, "HRV-2"), (3, DONE, "HRV-2")]


@pytest.mark.clause("HRV-2", "SPL-1")
@pytest.mark.ruling("R-SPLIT")
def test_two_harvesters_of_two_gears_take_one_each() -> None:
    # As many gears as harvesters: one each; robot 3 gets its own yellow, robot 1 the green.
    state = position(dumps={1: [], 2: [3, 4], 3: [], 4: []})
    result = resolve_turn(
        state, programs(r1="harvest 2", r2="attack 2", r3="harvest 2", r4="trap 4")
    )
    assert feet_of(result.state) == {1: gears(4), 2: (), 3: gears(3), 4: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: (), 4: ()}
    assert splits(result) == [SplitResolved(Place.dump(2), (1, 3), 1, (), "SPL-1")]
    assert moves(result, "HRV-2") == Counter([from_dump(4, 2, 1), from_dump(3, 2, 3)])


@pytest.mark.clause("HRV-2")
def test_harvests_of_different_dumps_do_not_split() -> None:
    state = position(dumps={1: [2, 3], 2: [1], 3: [1]})
    result = resolve_turn(state, programs(r1="harvest 2", r2="harvest 1", r3="harvest 3"))
    assert feet_of(result.state) == {1: gears(1), 2: gears(2, 3), 3: gears(1)}
    assert dumps_of(result.state) == {1: (), 2: (), 3: ()}
    assert splits(result) == []
