"""Sharing a pile between several takers (spec SPL-1 to SPL-5).

Rulings checked: R-SPLIT (equal shares, own-colour priority, leftovers, the
default split and explicit splits), R-CHOICES (post-reveal choices are
optional; a choice that breaks the rules or names something that does not
happen this turn is refused with IllegalChoiceError; absent choices use the
default policies).

Every expected value below was worked out by hand from the rulebooks
(IT-SPLIT-*, FR-SPLIT-*) and the readings, not read off the engine.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from outofgears import (
    Choices,
    Gear,
    GearMoved,
    IllegalChoiceError,
    Place,
    SplitResolved,
    gears,
    resolve_turn,
)
from outofgears.rules.gears import gear_ranks
from outofgears.rules.sharing import (
    Split,
    check_split,
    default_split,
    own_colour_quota,
    share_size,
    split_gears,
    split_options,
)
from tests.helpers import dumps_of, feet_of, moves, position, programs, splits

# --- helpers ---------------------------------------------------------------------------------


def harvested(colour: int, dump: int, robot: int) -> GearMoved:
    """A gear harvested from a dump to a robot's feet."""
    return GearMoved(Gear(colour), Place.dump(dump), Place.feet(robot), robot, "HRV-2")


# A table used by several tests below: robots 2 and 3 both harvest dump 1, which holds
# three reds and two greens. Neither has its own colour there, so each gets 2 gears and
# one stays. Robot 1 defends (nobody attacks it); robot 4 traps dump 4, which nobody
# harvests.
SHARED_DUMP = position(dumps={1: [1, 1, 1, 4, 4], 2: [], 3: [], 4: []})
SHARED_PROGRAMS = programs(r1="attack 1", r2="harvest 1", r3="harvest 1", r4="trap 4")


# --- SPL-1: an equal share for every taker ---------------------------------------------------


@pytest.mark.clause("SPL-1")
@pytest.mark.ruling("R-SPLIT")
def test_each_taker_gets_the_whole_number_share() -> None:
    assert share_size(7, 3) == 2
    assert share_size(6, 3) == 2
    assert share_size(4, 2) == 2
    assert share_size(5, 1) == 5
    assert share_size(8, 8) == 1


@pytest.mark.clause("SPL-1", "SPL-3")
@pytest.mark.ruling("R-SPLIT")
def test_split_gives_every_taker_the_same_number_of_gears() -> None:
    # Seven gears on dump 1, robots 2, 5 and 7: own colour first; then, in the round from
    # robot 2 (the first after dump 1), each takes the next colour clockwise after its own:
    # 2 the yellow, 5 the purple, 7 the red (wrapping past 8); green stays.
    result = split_gears(gears(1, 2, 3, 4, 5, 6, 7), (2, 5, 7), place_number=1)
    assert result == Split(
        shares=((2, gears(2, 3)), (5, gears(5, 6)), (7, gears(1, 7))), left=gears(4)
    )


@pytest.mark.clause("SPL-1")
@pytest.mark.ruling("R-SPLIT")
def test_a_single_taker_takes_the_whole_pile() -> None:
    assert split_gears(gears(1, 2, 3), (2,), place_number=1) == Split(
        shares=((2, gears(1, 2, 3)),), left=()
    )


@pytest.mark.clause("SPL-1")
@pytest.mark.ruling("R-SPLIT")
def test_split_does_not_depend_on_the_order_the_takers_are_named() -> None:
    pool = gears(1, 3, 3, 4, 4)
    assert split_gears(pool, (3, 1), place_number=2) == split_gears(pool, (1, 3), place_number=2)
    assert split_gears(pool, (1, 3), place_number=2) == Split(
        shares=((1, gears(1, 4)), (3, gears(3, 3))), left=gears(4)
    )


@pytest.mark.clause("SPL-1", "HRV-2")
@pytest.mark.ruling("R-SPLIT")
def test_two_harvesters_of_four_gears_take_two_each() -> None:
    # Robot 1 gets its red first; then the three yellows are dealt 1, 2, 2.
    state = position(dumps={1: [], 2: [], 3: [1, 3, 3, 3]})
    result = resolve_turn(state, programs(r1="harvest 3", r2="harvest 3", r3="attack 3"))
    assert feet_of(result.state) == {1: gears(1, 3), 2: gears(3, 3), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: ()}
    assert splits(result) == [SplitResolved(Place.dump(3), (1, 2), 2, (), "SPL-1")]


# --- SPL-2: own-colour priority --------------------------------------------------------------


@pytest.mark.clause("SPL-2")
@pytest.mark.ruling("R-SPLIT")
def test_own_colour_priority_is_capped_at_the_share() -> None:
    # Robot 2 may claim only two of its three oranges; the third completes robot 1's share.
    state = position(dumps={1: [1, 2, 2, 2], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="harvest 1", r2="harvest 1", r3="attack 3"))
    assert feet_of(result.state) == {1: gears(1, 2), 2: gears(2, 2), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: ()}
    assert moves(result, "HRV-2") == Counter(
        [harvested(1, 1, 1), harvested(2, 1, 1), harvested(2, 1, 2), harvested(2, 1, 2)]
    )


@pytest.mark.clause("SPL-2")
@pytest.mark.ruling("R-SPLIT")
def test_own_colour_beats_the_lower_robot_number() -> None:
    # Without priority robot 1 would take the lower colour, yellow; robot 3 has priority on
    # it, so robot 1 gets the green.
    state = position(dumps={1: [], 2: [3, 4], 3: [], 4: []})
    result = resolve_turn(
        state, programs(r1="harvest 2", r2="attack 2", r3="harvest 2", r4="trap 4")
    )
    assert feet_of(result.state) == {1: gears(4), 2: (), 3: gears(3), 4: ()}


@pytest.mark.clause("SPL-2", "SPL-5")
@pytest.mark.ruling("R-SPLIT")
def test_every_taker_takes_its_own_colour_before_the_rest_is_dealt() -> None:
    shares = default_split(gears(1, 1, 1, 2, 2, 3), (1, 2, 3), 2, place_number=1)
    assert shares == {1: gears(1, 1), 2: gears(2, 2), 3: gears(1, 3)}


@pytest.mark.clause("SPL-2")
@pytest.mark.ruling("R-SPLIT")
def test_own_colour_quota_is_all_there_is_up_to_the_share() -> None:
    assert own_colour_quota(gears(1, 1, 1, 2), 1, 2) == 2
    assert own_colour_quota(gears(1, 2), 1, 5) == 1
    assert own_colour_quota(gears(2, 3), 1, 1) == 0


@pytest.mark.clause("SPL-2", "SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_split_giving_a_takers_own_colour_to_another_is_refused() -> None:
    # Robot 3 must get both yellows (its share is 2); this split gives one to robot 2.
    with pytest.raises(IllegalChoiceError) as caught:
        check_split(gears(1, 2, 3, 3), (2, 3), {2: gears(2, 3), 3: gears(1, 3)})
    assert (caught.value.robot, caught.value.clause) == (3, "SPL-2")


@pytest.mark.clause("SPL-2", "SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_split_keeping_a_takers_own_colour_back_on_the_dump_is_refused() -> None:
    # Share 1 each of red, orange, yellow: robot 2 must take its orange, not leave it.
    with pytest.raises(IllegalChoiceError) as caught:
        check_split(gears(1, 2, 3), (1, 2), {1: gears(1), 2: gears(3)})
    assert (caught.value.robot, caught.value.clause) == (2, "SPL-2")


# --- SPL-3: leftovers stay where they were ---------------------------------------------------


@pytest.mark.clause("SPL-3")
@pytest.mark.ruling("R-SPLIT")
def test_leftover_stays_on_the_dump_and_exploration_adds_to_it() -> None:
    # Two harvesters, three gears: one each, the yellow stays on dump 1; exploration then
    # puts orange, yellow, red on dumps 1, 2, 3.
    state = position(dumps={1: [1, 2, 3], 2: [], 3: []}, reserve=[2, 3, 1])
    result = resolve_turn(state, programs(r1="harvest 1", r2="harvest 1", r3="attack 3"))
    assert feet_of(result.state) == {1: gears(1), 2: gears(2), 3: ()}
    assert dumps_of(result.state) == {1: gears(2, 3), 2: gears(3), 3: gears(1)}
    assert splits(result) == [SplitResolved(Place.dump(1), (1, 2), 1, gears(3), "SPL-1")]


@pytest.mark.clause("SPL-3", "ATK-8")
@pytest.mark.ruling("R-SPLIT")
def test_leftover_stays_at_the_victims_feet() -> None:
    # Robots 1, 2, 3 attack robot 4 (four gears): one each, own colour first; robot 4
    # keeps one green at its feet, and its circuit as it was.
    state = position(feet={4: [1, 2, 4, 4]}, circuit={4: [4]}, dumps={1: [], 2: [], 3: [], 4: []})
    result = resolve_turn(state, programs(r1="attack 4", r2="attack 4", r3="attack 4", r4="trap 4"))
    assert feet_of(result.state) == {1: gears(1), 2: gears(2), 3: gears(4), 4: gears(4)}
    assert result.state.robot(4).circuit == gears(4)
    assert splits(result) == [SplitResolved(Place.feet(4), (1, 2, 3), 1, gears(4), "SPL-1")]


@pytest.mark.clause("SPL-3")
@pytest.mark.ruling("R-SPLIT")
def test_what_is_left_is_exactly_what_nobody_took() -> None:
    result = split_gears(gears(1, 2, 4, 4, 4), (1, 2), place_number=3)
    assert result.share_of(1) == gears(1, 4)
    assert result.share_of(2) == gears(2, 4)
    assert result.left == gears(4)


# --- SPL-4: more takers than gears -----------------------------------------------------------


@pytest.mark.clause("SPL-4")
@pytest.mark.ruling("R-SPLIT")
def test_fewer_gears_than_takers_gives_a_share_of_none() -> None:
    assert share_size(2, 3) == 0
    assert share_size(0, 1) == 0
    assert split_gears(gears(1, 2), (1, 2, 3), place_number=1) == Split(
        shares=((1, ()), (2, ()), (3, ())), left=gears(1, 2)
    )


@pytest.mark.clause("SPL-4", "SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_split_handing_out_gears_when_there_are_too_few_is_refused() -> None:
    state = position(dumps={1: [1, 2], 2: [], 3: []})
    agreed = Choices(splits={Place.dump(1): {1: gears(1), 2: gears(2), 3: ()}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(
            state, programs(r1="harvest 1", r2="harvest 1", r3="harvest 1"), choices=agreed
        )
    assert (caught.value.robot, caught.value.clause) == (1, "SPL-4")


@pytest.mark.clause("SPL-4", "SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_empty_split_when_there_are_too_few_gears_is_accepted() -> None:
    state = position(dumps={1: [1, 2], 2: [], 3: []})
    agreed = Choices(splits={Place.dump(1): {1: (), 2: (), 3: ()}})
    result = resolve_turn(
        state, programs(r1="harvest 1", r2="harvest 1", r3="harvest 1"), choices=agreed
    )
    assert feet_of(result.state) == {1: (), 2: (), 3: ()}
    assert dumps_of(result.state) == {1: gears(1, 2), 2: (), 3: ()}
    assert result.moves == ()


@pytest.mark.clause("SPL-4")
@pytest.mark.ruling("R-SPLIT")
def test_two_harvesters_of_an_empty_dump_are_told_they_shared_nothing() -> None:
    # A position typed in with an empty dump; one harvester of it is told nothing (no split).
    state = position(dumps={1: [], 2: [2], 3: [3]}, reserve=[1, 2, 3])
    shared = resolve_turn(state, programs(r1="harvest 1", r2="harvest 1", r3="attack 3"))
    assert splits(shared) == [SplitResolved(Place.dump(1), (1, 2), 0, (), "SPL-4")]
    assert feet_of(shared.state) == {1: (), 2: (), 3: ()}
    alone = resolve_turn(state, programs(r1="harvest 1", r2="attack 2", r3="attack 3"))
    assert splits(alone) == []
    assert feet_of(alone.state) == {1: (), 2: (), 3: ()}


# --- SPL-5: the default split and explicit splits --------------------------------------------


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SPLIT")
def test_default_split_deals_the_rest_round_robin_clockwise_after_the_place() -> None:
    # No own colour for robots 2 and 3. From dump 1 the round starts with robot 2: green to 2
    # (the first colour after orange), blue to 3 (green is gone), purple to 2, red to 3.
    pool = gears(1, 1, 4, 5, 6)
    assert default_split(pool, (2, 3), 2, place_number=1) == {2: gears(4, 6), 3: gears(1, 5)}
    # From dump 2 it starts with robot 3: green to 3, blue to 2, purple to 3, red to 2.
    assert default_split(pool, (2, 3), 2, place_number=2) == {2: gears(1, 5), 3: gears(4, 6)}


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_default_split_applies_when_no_split_is_chosen() -> None:
    # From dump 1 the round starts with robot 2: green to 2, green to 3 (green comes soon
    # after each one's own colour, red last but one), red to 2, red to 3; a red stays.
    result = resolve_turn(SHARED_DUMP, SHARED_PROGRAMS)
    assert resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=Choices()) == result
    assert feet_of(result.state) == {1: (), 2: gears(1, 4), 3: gears(1, 4), 4: ()}
    assert dumps_of(result.state) == {1: gears(1), 2: (), 3: (), 4: ()}
    assert splits(result) == [SplitResolved(Place.dump(1), (2, 3), 2, gears(1), "SPL-1")]


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_explicit_split_is_accepted_when_legal() -> None:
    agreed = Choices(splits={Place.dump(1): {2: gears(1, 4), 3: gears(1, 1)}})
    result = resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=agreed)
    assert feet_of(result.state) == {1: (), 2: gears(1, 4), 3: gears(1, 1), 4: ()}
    assert dumps_of(result.state) == {1: gears(4), 2: (), 3: (), 4: ()}
    assert splits(result) == [SplitResolved(Place.dump(1), (2, 3), 2, gears(4), "SPL-1")]
    assert moves(result, "HRV-2") == Counter(
        [harvested(1, 1, 2), harvested(4, 1, 2), harvested(1, 1, 3), harvested(1, 1, 3)]
    )


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_explicit_split_with_unequal_shares_is_refused() -> None:
    agreed = Choices(splits={Place.dump(1): {2: gears(1, 1, 4), 3: gears(1)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=agreed)
    assert (caught.value.robot, caught.value.clause) == (2, "SPL-1")


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_explicit_split_of_gears_that_are_not_there_is_refused() -> None:
    # There is no blue gear on dump 1.
    agreed = Choices(splits={Place.dump(1): {2: gears(1, 5), 3: gears(1, 1)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=agreed)
    assert (caught.value.robot, caught.value.clause) == (2, "SPL-1")


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_explicit_split_giving_more_than_the_pile_holds_is_refused() -> None:
    # Three reds on the dump, but the split hands out four.
    agreed = Choices(splits={Place.dump(1): {2: gears(1, 1), 3: gears(1, 1)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=agreed)
    # Robot 2's two reds are there; robot 3's share is the one that runs out.
    assert (caught.value.robot, caught.value.clause) == (3, "SPL-1")


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_explicit_split_naming_the_wrong_takers_is_refused() -> None:
    # Robot 4 trapped another dump; it is not one of dump 1's takers.
    agreed = Choices(splits={Place.dump(1): {2: gears(1, 1), 4: gears(1, 4)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=agreed)
    # The error names the robot given a share that does not take, before the taker left out
    # (robot 3): GEN-2.
    assert (caught.value.robot, caught.value.clause) == (4, "SPL-1")


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_explicit_split_leaving_out_a_taker_is_refused() -> None:
    agreed = Choices(splits={Place.dump(1): {2: gears(1, 1)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=agreed)
    assert (caught.value.robot, caught.value.clause) == (3, "SPL-1")


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-CHOICES")
def test_explicit_split_giving_a_share_to_an_outsider_names_the_outsider() -> None:
    agreed = Choices(splits={Place.dump(1): {2: gears(1, 1), 3: gears(1, 4), 4: ()}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=agreed)
    assert (caught.value.robot, caught.value.clause) == (4, "SPL-1")


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-CHOICES")
def test_an_empty_split_of_a_dump_nobody_takes_from_names_no_robot() -> None:
    agreed = Choices(splits={Place.dump(2): {}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=agreed)
    assert (caught.value.robot, caught.value.clause) == (None, "SPL-5")
    assert str(caught.value) == "nothing takes gears from dump 2 this turn (SPL-5)"


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_check_split_accepts_a_legal_alternative() -> None:
    check_split(gears(1, 2, 3, 4), (1, 2), {1: gears(1, 4), 2: gears(2, 3)})
    check_split(gears(1, 2, 3, 4), (1, 2), {1: gears(1, 3), 2: gears(2, 4)})


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-CHOICES")
def test_split_of_a_dump_nobody_harvests_is_refused() -> None:
    agreed = Choices(splits={Place.dump(2): {1: ()}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=agreed)
    assert (caught.value.robot, caught.value.clause) == (1, "SPL-5")


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-CHOICES", "R-TRAP")
def test_split_of_a_trapped_dump_nobody_harvested_is_refused() -> None:
    # Robot 4's trap on dump 4 blocked nothing, so nobody takes from dump 4.
    state = position(dumps={1: [1, 1, 1, 4, 4], 2: [], 3: [], 4: [4, 4]})
    agreed = Choices(splits={Place.dump(4): {4: gears(4, 4)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, SHARED_PROGRAMS, choices=agreed)
    assert (caught.value.robot, caught.value.clause) == (4, "SPL-5")


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-CHOICES", "R-DEFENCE")
def test_split_of_a_defended_robots_feet_is_refused() -> None:
    # Robot 1 defends: the attacks of robots 2 and 3 are voided, its feet are not shared.
    state = position(feet={1: [2, 3]}, dumps={1: [], 2: [], 3: []})
    agreed = Choices(splits={Place.feet(1): {2: gears(2), 3: gears(3)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="attack 1"), choices=agreed)
    assert (caught.value.robot, caught.value.clause) == (2, "SPL-5")


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-CHOICES")
def test_split_of_an_unattacked_robots_feet_or_of_a_circuit_is_refused() -> None:
    state = position(feet={1: [2, 3]}, circuit={2: [2, 2]}, dumps={1: [], 2: [], 3: []})
    laid = programs(r1="trap 1", r2="attack 2", r3="attack 2")
    for place in (Place.feet(1), Place.circuit(2), Place.reserve()):
        agreed = Choices(splits={place: {2: gears(2), 3: gears(2)}})
        with pytest.raises(IllegalChoiceError) as caught:
            resolve_turn(state, laid, choices=agreed)
        assert (caught.value.robot, caught.value.clause) == (2, "SPL-5")


@pytest.mark.clause("SPL-5", "ATK-8")
@pytest.mark.ruling("R-CHOICES", "R-SPLIT")
def test_a_split_chosen_for_one_place_leaves_the_other_splits_to_the_default() -> None:
    # Robots 3 and 4 attack robot 1 and split its yellow and green by default (own colour);
    # robots 1 and 2 then harvest dump 3 and agree on red+green / orange+yellow instead of
    # the default red+yellow / orange+green.
    state = position(feet={1: [3, 4]}, dumps={1: [], 2: [], 3: [1, 2, 3, 4], 4: []})
    laid = programs(r1="harvest 3", r2="harvest 3", r3="attack 1", r4="attack 1")
    agreed = Choices(splits={Place.dump(3): {1: gears(1, 4), 2: gears(2, 3)}})
    result = resolve_turn(state, laid, choices=agreed)
    assert feet_of(result.state) == {1: gears(1, 4), 2: gears(2, 3), 3: gears(3), 4: gears(4)}
    assert dumps_of(result.state) == {1: (), 2: (), 3: (), 4: ()}
    assert splits(result) == [
        SplitResolved(Place.feet(1), (3, 4), 1, (), "SPL-1"),
        SplitResolved(Place.dump(3), (1, 2), 2, (), "SPL-1"),
    ]


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-CHOICES")
def test_assembly_chosen_for_a_robot_not_in_play_is_refused() -> None:
    # R-CHOICES: a choice naming something that does not happen this turn is refused.
    # Robot 7 is not in play, so it assembles nothing this turn.
    state = position(feet={1: [1, 2]}, dumps={1: [], 2: []})
    agreed = Choices(assemblies={7: gears(1, 2)})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="trap 1", r2="trap 2"), choices=agreed)
    assert (caught.value.robot, caught.value.clause) == (7, "ASM-1")


# --- SPL-1, SPL-5: what a refused split says (issue 7) ---------------------------------------
# Kill surviving mutants of sharing.check_split: a refused split names the robot whose share
# is wrong and says what is wrong with it.


@pytest.mark.clause("SPL-1", "SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
@pytest.mark.parametrize(
    ("agreed", "message"),
    [
        (
            {2: gears(1, 1, 4), 3: gears(1)},
            "robot 2: its share is 2 gears, not 3 (SPL-1)",
        ),
        (
            {2: gears(1, 5), 3: gears(1, 1)},
            "robot 2: its share holds gears that are not there: 1 blue (SPL-1)",
        ),
        (
            {2: gears(1, 1), 4: gears(1, 4)},
            "robot 4: a split must give a share to exactly robots [2, 3], not [2, 4] (SPL-1)",
        ),
    ],
)
def test_a_refused_split_says_what_is_wrong_with_it(
    agreed: dict[int, tuple[Gear, ...]], message: str
) -> None:
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(SHARED_DUMP, SHARED_PROGRAMS, choices=Choices(splits={Place.dump(1): agreed}))
    assert str(caught.value) == message


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-CHOICES")
def test_a_split_naming_several_robots_that_do_not_take_names_the_lowest_numbered() -> None:
    # Robots 9 and 10 do not exist (Choices takes any whole number as a robot); the refusal
    # names robot 9, the lower number.
    proposed = {2: gears(1, 4), 3: gears(1, 1), 10: (), 9: ()}
    with pytest.raises(IllegalChoiceError) as caught:
        check_split(gears(1, 1, 1, 4, 4), (2, 3), proposed)
    assert str(caught.value) == (
        "robot 9: a split must give a share to exactly robots [2, 3], not [2, 3, 9, 10] (SPL-1)"
    )


# --- R-SYMMETRY: the rounds start after the place -------------------------------------------


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SYMMETRY", "R-SPLIT")
def test_dump_3_split_between_robots_2_and_4_starts_the_round_with_robot_4() -> None:
    # A blue and a purple, worth 1 to both; both would take the blue first (the ring of robot 4
    # starts at blue, robot 2's reaches it before purple). Robot 4, the first after dump 3,
    # goes first and takes it.
    state = position(dumps={2: [], 3: [5, 6], 4: []}, reserve=[2, 3, 4])
    result = resolve_turn(state, programs(r2="harvest 3", r3="trap 2", r4="harvest 3"))
    assert feet_of(result.state) == {2: gears(6), 3: (), 4: gears(5)}
    assert splits(result) == [SplitResolved(Place.dump(3), (2, 4), 1, (), "SPL-1")]
    assert default_split(gears(5, 6), (2, 4), 1, place_number=3) == {2: gears(6), 4: gears(5)}


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-SYMMETRY", "R-SPLIT")
def test_a_robot_harvesting_its_own_dump_comes_last_in_the_round() -> None:
    # Robots 1 and 3 share a green and a blue; both would take the green first (robot 1's
    # ring: orange, yellow, green, blue, ...; robot 3's: green, blue, ...). On dump 3 the round
    # starts after 3, wrapping round to robot 1, and robot 3 comes last; on dump 1 it is the
    # other way round.
    state = position(dumps={1: [], 3: [4, 5]}, reserve=[1, 3])
    result = resolve_turn(state, programs(r1="harvest 3", r3="harvest 3"))
    assert feet_of(result.state) == {1: gears(4), 3: gears(5)}
    state = position(dumps={1: [4, 5], 3: []}, reserve=[1, 3])
    result = resolve_turn(state, programs(r1="harvest 1", r3="harvest 1"))
    assert feet_of(result.state) == {1: gears(5), 3: gears(4)}


@pytest.mark.clause("SPL-5", "ATK-8")
@pytest.mark.ruling("R-SYMMETRY", "R-SPLIT")
def test_attackers_of_robot_5_deal_their_rounds_from_robot_6_round_to_robot_4() -> None:
    # Robots 2, 4 and 6 hit robot 5, which holds a grey and two whites: one gear each. The
    # round goes 6, 2, 4: robot 6 takes the grey, the colour right after its own; robots 2 and
    # 4 a white each. In ascending order with the lowest colour, robot 2 took the grey.
    state = position(feet={5: [7, 8, 8]}, dumps={2: [], 4: [], 5: [], 6: []}, reserve=[])
    result = resolve_turn(
        state, programs(r2="attack 5", r4="attack 5", r5="harvest 2", r6="attack 5")
    )
    assert feet_of(result.state) == {2: gears(8), 4: gears(8), 5: (), 6: gears(7)}
    # With a red instead of a white, robot 2 (second) takes the white, nearer in its ring.
    assert default_split(gears(1, 7, 8), (2, 4, 6), 1, place_number=5) == {
        2: gears(8),
        4: gears(1),
        6: gears(7),
    }


@pytest.mark.clause("SPL-5")
@pytest.mark.ruling("R-CHOICES")
def test_a_split_the_table_agreed_on_is_given_as_chosen_and_checked() -> None:
    # Red, orange, yellow, yellow between robots 1 and 2: each gets its own colour first, then
    # a yellow each; a split giving robot 2 the red instead is refused (SPL-2).
    pool = gears(1, 2, 3, 3)
    chosen = {1: gears(1, 3), 2: gears(2, 3)}
    assert split_gears(pool, (1, 2), chosen, place_number=3) == Split(
        shares=((1, gears(1, 3)), (2, gears(2, 3))), left=()
    )
    with pytest.raises(IllegalChoiceError) as refused:
        split_gears(pool, (1, 2), {1: gears(2, 3), 2: gears(1, 3)}, place_number=3)
    assert (refused.value.robot, refused.value.clause) == (1, "SPL-2")


@pytest.mark.clause("SPL-1", "SPL-2", "SPL-3", "SPL-4")
@pytest.mark.parametrize(
    ("pool", "takers"),
    [
        ((1, 1, 1, 2, 3, 3), (1, 3)),  # robot 1 has more of its colour than its share
        ((1, 2, 3, 4, 5, 6, 7), (2, 5, 7)),
        ((2, 2, 2, 2, 5), (1, 2)),
        ((2, 2, 2, 4, 5, 6), (1, 2, 3)),  # robot 2's third orange may go to robot 1 or 3
        ((4, 4, 1), (1, 4)),
        ((3, 6), (1, 2, 3)),  # fewer gears than takers: nobody gets any
    ],
)
def test_the_legal_splits_are_exactly_those_the_check_accepts(
    pool: tuple[int, ...], takers: tuple[int, ...]
) -> None:
    # Every way to hand each gear to a taker or leave it, checked by check_split: the ones it
    # accepts are the splits split_options lists, each once.
    share = share_size(len(pool), len(takers))
    accepted = set()
    for owners in itertools.product((None, *takers), repeat=len(pool)):
        proposed = {
            robot: gears(*(c for c, owner in zip(pool, owners, strict=True) if owner == robot))
            for robot in takers
        }
        if any(len(got) != share for got in proposed.values()):
            continue
        try:
            check_split(gears(*pool), takers, proposed)
        except IllegalChoiceError:
            continue
        accepted.add(tuple(tuple(gear_ranks(proposed[robot])) for robot in takers))
    listed = list(split_options(sorted(c - 1 for c in pool), list(takers)))
    assert len(listed) == len(set(listed))
    assert set(listed) == accepted


@pytest.mark.clause("SPL-5", "HRV-2")
@pytest.mark.ruling("R-CHOICES")
def test_a_split_chosen_for_a_lone_harvester_is_checked_and_no_split_is_recorded() -> None:
    # Robot 2 harvests dump 1 alone; the table wrote its "split": all three gears to robot 2.
    # It is checked like any split (giving it two is refused), and no SplitResolved is told.
    state = position(dumps={1: [1, 3, 4], 2: []})
    laid = programs(r1="attack 1", r2="harvest 1")
    whole = Choices(splits={Place.dump(1): {2: gears(1, 3, 4)}})
    result = resolve_turn(state, laid, choices=whole)
    assert splits(result) == []
    assert feet_of(result.state)[2] + result.state.robot(2).circuit == gears(1, 3, 4)
    with pytest.raises(IllegalChoiceError):
        resolve_turn(state, laid, choices=Choices(splits={Place.dump(1): {2: gears(1, 3)}}))
