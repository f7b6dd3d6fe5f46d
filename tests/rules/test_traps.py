"""Traps at the table (spec TRP-1 to TRP-4).

Rulings checked: R-TRAP (a trap takes the dump only if it blocked a harvest, a
partner's harvest included), R-SPLIT (several sprung trappers), R-CHOICES
(an agreed split between trappers).

Every expected value below was worked out by hand from the rulebooks
(IT-TRAP-*, IT-ACT-TRAP-*, FR-TRAP-*, FR-ACT-TRAP-*, IT-SPLIT-*) and the
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
    IllegalChoiceError,
    Options,
    Outcome,
    Place,
    SplitResolved,
    gears,
    resolve_turn,
)
from outofgears.rules.programs import Program, ProgramReading
from outofgears.rules.traps import trapped_dumps, trappers_of
from tests.helpers import dumps_of, feet_of, moves, outcomes, position, programs, splits

# --- helpers ---------------------------------------------------------------------------------


def from_dump(colour: int, dump: int, robot: int, clause: str) -> GearMoved:
    """A gear taken from a dump to a robot's feet."""
    return GearMoved(Gear(colour), Place.dump(dump), Place.feet(robot), robot, clause)


SPRUNG, IDLE = Outcome.TRAP_SPRUNG, Outcome.TRAP_IDLE
VOIDED, DONE = Outcome.HARVEST_VOIDED, Outcome.HARVEST_DONE
UNTESTED = Outcome.DEFENDED_UNTESTED


# --- TRP-1: a trap names a dump --------------------------------------------------------------


@pytest.mark.clause("TRP-1", "TRP-2", "TRP-3")
def test_trap_names_a_dump_not_a_robot() -> None:
    # "Trap 2" catches robot 3's harvest of dump 2; robot 2 itself, harvesting dump 3,
    # and the gear at its feet are not concerned.
    state = position(feet={2: [2]}, dumps={1: [], 2: [2, 3], 3: [1]})
    result = resolve_turn(state, programs(r1="trap 2", r2="harvest 3", r3="harvest 2"))
    assert feet_of(result.state) == {1: gears(2, 3), 2: gears(1, 2), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: ()}
    assert moves(result, "TRP-3") == Counter(
        [from_dump(2, 2, 1, "TRP-3"), from_dump(3, 2, 1, "TRP-3")]
    )
    assert moves(result, "HRV-2") == Counter([from_dump(1, 3, 2, "HRV-2")])
    assert outcomes(result) == [(1, SPRUNG, "TRP-3"), (2, DONE, "HRV-2"), (3, VOIDED, "TRP-2")]


@pytest.mark.clause("TRP-1", "TRP-3")
@pytest.mark.ruling("R-TRAP")
def test_trap_on_ones_own_dump_catches_a_harvester_there() -> None:
    state = position(dumps={1: [1], 2: [1, 2]})
    result = resolve_turn(state, programs(r1="harvest 2", r2="trap 2"))
    assert feet_of(result.state) == {1: (), 2: gears(1, 2)}
    assert dumps_of(result.state) == {1: gears(1), 2: ()}
    assert outcomes(result) == [(1, VOIDED, "TRP-2"), (2, SPRUNG, "TRP-3")]


@pytest.mark.clause("TRP-1", "TRP-2")
def test_a_trap_on_one_dump_does_not_trap_another() -> None:
    laid = {
        1: Program.parse("trap 2"),
        2: Program.parse("harvest 3"),
        3: Program.parse("trap 2"),
        4: Program.parse("harvest 2"),
    }
    reading = ProgramReading(position(dumps={1: [], 2: [], 3: [], 4: []}), laid)
    assert trappers_of(reading, 2) == [1, 3]
    assert trapped_dumps(reading) == [2]


# --- TRP-2: a trap voids every harvest on its dump -------------------------------------------


@pytest.mark.clause("TRP-2", "TRP-3")
@pytest.mark.ruling("R-TRAP")
def test_trap_voids_every_harvest_on_its_dump() -> None:
    # Robots 2 and 3 both harvest dump 3 (robot 3 its own dump); robot 1's trap voids
    # both and takes the dump alone, with no split. Robot 4's harvest of dump 4 is untouched.
    state = position(dumps={1: [], 2: [], 3: [2, 3], 4: [4]})
    result = resolve_turn(
        state, programs(r1="trap 3", r2="harvest 3", r3="harvest 3", r4="harvest 4")
    )
    assert feet_of(result.state) == {1: gears(2, 3), 2: (), 3: (), 4: gears(4)}
    assert dumps_of(result.state) == {1: (), 2: (), 3: (), 4: ()}
    assert splits(result) == []
    assert moves(result, "TRP-3") == Counter(
        [from_dump(2, 3, 1, "TRP-3"), from_dump(3, 3, 1, "TRP-3")]
    )
    assert moves(result, "HRV-2") == Counter([from_dump(4, 4, 4, "HRV-2")])
    assert outcomes(result) == [
        (1, SPRUNG, "TRP-3"),
        (2, VOIDED, "TRP-2"),
        (3, VOIDED, "TRP-2"),
        (4, DONE, "HRV-2"),
    ]


@pytest.mark.clause("TRP-2", "TRP-3")
@pytest.mark.ruling("R-TRAP")
def test_voided_harvester_gets_nothing_even_of_its_own_colour() -> None:
    state = position(dumps={1: [], 2: [2, 2]})
    result = resolve_turn(state, programs(r1="trap 2", r2="harvest 2"))
    assert feet_of(result.state) == {1: gears(2, 2), 2: ()}
    assert dumps_of(result.state) == {1: (), 2: ()}
    assert moves(result, "HRV-2") == Counter()


@pytest.mark.clause("TRP-2", "TRP-3")
@pytest.mark.ruling("R-TRAP")
def test_partner_harvest_springs_a_trap() -> None:
    # Two-robot variant: Ada's robot 1 traps dump 2 and Ada's robot 2 harvests it. The
    # trap blocked a harvest, so it springs and robot 1 takes the dump.
    state = position(
        dumps={1: [], 2: [1, 2], 3: [], 4: []},
        players={"Ada": (1, 2), "Bo": (3, 4)},
    )
    result = resolve_turn(state, programs(r1="trap 2", r2="harvest 2", r3="trap 4", r4="attack 4"))
    assert feet_of(result.state) == {1: gears(1, 2), 2: (), 3: (), 4: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: (), 4: ()}
    assert moves(result, "TRP-3") == Counter(
        [from_dump(1, 2, 1, "TRP-3"), from_dump(2, 2, 1, "TRP-3")]
    )
    assert outcomes(result) == [
        (1, SPRUNG, "TRP-3"),
        (2, VOIDED, "TRP-2"),
        (3, IDLE, "TRP-3"),
        (4, UNTESTED, "ATK-3"),
    ]


@pytest.mark.clause("TRP-2")
def test_trap_on_another_dump_does_not_void_a_harvest() -> None:
    state = position(dumps={1: [2], 2: [1, 2]})
    result = resolve_turn(state, programs(r1="trap 1", r2="harvest 2"))
    assert feet_of(result.state) == {1: (), 2: gears(1, 2)}
    assert dumps_of(result.state) == {1: gears(2), 2: ()}
    assert outcomes(result) == [(1, IDLE, "TRP-3"), (2, DONE, "HRV-2")]


# --- TRP-3: a trap takes the dump only if it blocked a harvest -------------------------------


@pytest.mark.clause("TRP-3")
@pytest.mark.ruling("R-TRAP")
def test_trap_on_an_unharvested_dump_does_nothing() -> None:
    state = position(dumps={1: [3], 2: [2, 3], 3: []})
    result = resolve_turn(state, programs(r1="trap 2", r2="harvest 1", r3="attack 3"))
    assert feet_of(result.state) == {1: (), 2: gears(3), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: gears(2, 3), 3: ()}
    assert moves(result, "TRP-3") == Counter()
    assert outcomes(result) == [(1, IDLE, "TRP-3"), (2, DONE, "HRV-2"), (3, UNTESTED, "ATK-3")]


@pytest.mark.clause("TRP-3")
@pytest.mark.ruling("R-TRAP")
def test_trapper_gets_nothing_when_the_harvester_went_to_another_dump() -> None:
    state = position(dumps={1: [], 2: [2], 3: [3]})
    result = resolve_turn(state, programs(r1="trap 2", r2="harvest 3", r3="attack 3"))
    assert feet_of(result.state) == {1: (), 2: gears(3), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: gears(2), 3: ()}
    assert outcomes(result) == [(1, IDLE, "TRP-3"), (2, DONE, "HRV-2"), (3, UNTESTED, "ATK-3")]


@pytest.mark.clause("TRP-3")
@pytest.mark.ruling("R-TRAP")
def test_sprung_trap_takes_every_gear_of_the_dump() -> None:
    # Four gears go to robot 1's feet; assembly is made optional and skipped here so that
    # the trap's haul stays visible.
    state = position(dumps={1: [], 2: [1, 1, 2, 3], 3: []}, options=Options(assembly="optional"))
    result = resolve_turn(
        state,
        programs(r1="trap 2", r2="harvest 2", r3="attack 3"),
        choices=Choices(assemblies={1: ()}),
    )
    assert feet_of(result.state) == {1: gears(1, 1, 2, 3), 2: (), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: ()}
    assert moves(result, "TRP-3") == Counter(
        [
            from_dump(1, 2, 1, "TRP-3"),
            from_dump(1, 2, 1, "TRP-3"),
            from_dump(2, 2, 1, "TRP-3"),
            from_dump(3, 2, 1, "TRP-3"),
        ]
    )


@pytest.mark.clause("TRP-3", "TRP-2")
@pytest.mark.ruling("R-TRAP")
def test_trap_on_a_harvested_empty_dump_springs_but_takes_nothing() -> None:
    state = position(dumps={1: [1], 2: []})
    result = resolve_turn(state, programs(r1="harvest 2", r2="trap 2"))
    assert feet_of(result.state) == {1: (), 2: ()}
    assert dumps_of(result.state) == {1: gears(1), 2: ()}
    assert result.moves == ()
    assert outcomes(result) == [(1, VOIDED, "TRP-2"), (2, SPRUNG, "TRP-3")]


@pytest.mark.clause("TRP-3")
@pytest.mark.ruling("R-TRAP")
def test_idle_trapped_dump_keeps_its_gears_and_is_explored_as_usual() -> None:
    # The untouched dump 2 keeps its gears and gets its exploration gear on top
    # (reserve drawn onto dumps 1, 2, 3 in that order).
    state = position(dumps={1: [1], 2: [2, 3], 3: []}, reserve=[3, 1, 2])
    result = resolve_turn(state, programs(r1="trap 2", r2="harvest 1", r3="attack 3"))
    assert feet_of(result.state) == {1: (), 2: gears(1), 3: ()}
    assert dumps_of(result.state) == {1: gears(3), 2: gears(1, 2, 3), 3: gears(2)}
    assert result.state.reserve == ()


# --- TRP-4: several sprung traps on one dump split -------------------------------------------


@pytest.mark.clause("TRP-4", "SPL-1")
@pytest.mark.ruling("R-TRAP", "R-SPLIT")
def test_two_sprung_traps_split_the_dump() -> None:
    # Four gears, two trappers: own colour first (red to 1, orange to 2), then a yellow each.
    state = position(dumps={1: [], 2: [], 3: [1, 2, 3, 3], 4: []})
    result = resolve_turn(state, programs(r1="trap 3", r2="trap 3", r3="harvest 3", r4="attack 4"))
    assert feet_of(result.state) == {1: gears(1, 3), 2: gears(2, 3), 3: (), 4: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: (), 4: ()}
    assert splits(result) == [SplitResolved(Place.dump(3), (1, 2), 2, (), "SPL-1")]
    assert moves(result, "TRP-3") == Counter(
        [
            from_dump(1, 3, 1, "TRP-3"),
            from_dump(3, 3, 1, "TRP-3"),
            from_dump(2, 3, 2, "TRP-3"),
            from_dump(3, 3, 2, "TRP-3"),
        ]
    )
    assert outcomes(result) == [
        (1, SPRUNG, "TRP-3"),
        (2, SPRUNG, "TRP-3"),
        (3, VOIDED, "TRP-2"),
        (4, UNTESTED, "ATK-3"),
    ]


@pytest.mark.clause("TRP-4", "SPL-3")
@pytest.mark.ruling("R-TRAP", "R-SPLIT")
def test_two_sprung_traps_leave_the_odd_gear_on_the_dump() -> None:
    # Three gears, two trappers: one each (red to robot 1, a yellow to robot 2), and one
    # yellow stays on the dump.
    state = position(dumps={1: [], 2: [], 3: [1, 3, 3]})
    result = resolve_turn(state, programs(r1="trap 3", r2="trap 3", r3="harvest 3"))
    assert feet_of(result.state) == {1: gears(1), 2: gears(3), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: gears(3)}
    assert splits(result) == [SplitResolved(Place.dump(3), (1, 2), 1, gears(3), "SPL-1")]


@pytest.mark.clause("TRP-4", "SPL-4")
@pytest.mark.ruling("R-TRAP", "R-SPLIT")
def test_two_sprung_traps_on_a_one_gear_dump_take_nothing() -> None:
    state = position(dumps={1: [], 2: [], 3: [3]})
    result = resolve_turn(state, programs(r1="trap 3", r2="trap 3", r3="harvest 3"))
    assert feet_of(result.state) == {1: (), 2: (), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: gears(3)}
    assert splits(result) == [SplitResolved(Place.dump(3), (1, 2), 0, gears(3), "SPL-4")]
    assert result.moves == ()
    assert outcomes(result) == [(1, SPRUNG, "TRP-3"), (2, SPRUNG, "TRP-3"), (3, VOIDED, "TRP-2")]


@pytest.mark.clause("TRP-4", "TRP-3")
@pytest.mark.ruling("R-TRAP")
def test_two_traps_on_an_unharvested_dump_both_do_nothing() -> None:
    state = position(dumps={1: [], 2: [], 3: [1, 2]})
    result = resolve_turn(state, programs(r1="trap 3", r2="trap 3", r3="attack 3"))
    assert feet_of(result.state) == {1: (), 2: (), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: gears(1, 2)}
    assert splits(result) == []
    assert outcomes(result) == [(1, IDLE, "TRP-3"), (2, IDLE, "TRP-3"), (3, UNTESTED, "ATK-3")]


@pytest.mark.clause("TRP-4", "SPL-2")
@pytest.mark.ruling("R-TRAP", "R-SPLIT")
def test_sprung_trappers_have_priority_on_their_own_colour() -> None:
    # Red, orange, orange, green for robots 1 and 2: robot 2 gets both oranges, robot 1
    # its red and the green.
    state = position(dumps={1: [], 2: [], 3: [1, 2, 2, 4], 4: []})
    result = resolve_turn(state, programs(r1="trap 3", r2="trap 3", r3="attack 3", r4="harvest 3"))
    assert feet_of(result.state) == {1: gears(1, 4), 2: gears(2, 2), 3: (), 4: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: (), 4: ()}


@pytest.mark.clause("TRP-4", "SPL-5")
@pytest.mark.ruling("R-TRAP", "R-SPLIT", "R-CHOICES")
def test_sprung_trappers_may_agree_on_another_legal_split() -> None:
    # Default would be red+yellow / orange+green; the table agrees on red+green /
    # orange+yellow, which respects both own-colour priorities.
    state = position(dumps={1: [], 2: [], 3: [1, 2, 3, 4], 4: []})
    laid = programs(r1="trap 3", r2="trap 3", r3="harvest 3", r4="attack 4")
    default = resolve_turn(state, laid)
    assert feet_of(default.state) == {1: gears(1, 3), 2: gears(2, 4), 3: (), 4: ()}
    agreed = Choices(splits={Place.dump(3): {1: gears(1, 4), 2: gears(2, 3)}})
    result = resolve_turn(state, laid, choices=agreed)
    assert feet_of(result.state) == {1: gears(1, 4), 2: gears(2, 3), 3: (), 4: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: (), 4: ()}


@pytest.mark.clause("TRP-4", "SPL-5", "GEN-2")
@pytest.mark.ruling("R-TRAP", "R-CHOICES")
def test_split_naming_the_voided_harvester_instead_of_a_trapper_is_refused() -> None:
    # The takers of a sprung trap's dump are the trappers (1 and 2), not the harvester 3.
    state = position(dumps={1: [], 2: [], 3: [1, 2, 3, 4], 4: []})
    agreed = Choices(splits={Place.dump(3): {1: gears(1, 4), 3: gears(2, 3)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(
            state,
            programs(r1="trap 3", r2="trap 3", r3="harvest 3", r4="attack 4"),
            choices=agreed,
        )
    # The robot named is the harvester given a share it does not take, not trapper 2 (GEN-2).
    assert (caught.value.robot, caught.value.clause) == (3, "SPL-1")
