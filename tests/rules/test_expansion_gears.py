"""Expansions #2 and #3: Jolly gears, three-point gears, short refills and the padded reserve.

Spec JOL-1, JOL-2, TRI-1, TRI-2, VAL-1, REF-1, REF-2. Rulings checked: R-JOLLY (a Jolly has no
colour in play, so nobody has own-colour priority on it, and at the end it is its holder's
colour: 2 points and one own-colour gear for the tie-break), R-PAD-RESERVE (the reserve left
after the initial deal is padded to a multiple of the number of dumps in play with gears of the
lowest-numbered colour not in play; eight robots refuse the option), R-EXPLORE (a short refill
fills the dumps in ascending number while the reserve lasts), R-CHOICES (the default policies
compare the gears' worth: a three-point gear is worth 3, a Jolly 2 to anyone).

Every expected value below was worked out by hand from the French rulebook (FR-EXT2-*,
FR-EXT3-*) and the readings of issue 3, not read off the engine. The only values taken from the
engine are the seeds that deal an expansion gear onto a dump at setup.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from functools import partial
from typing import Any

import pytest

from outofgears import (
    Choices,
    DefenceSteal,
    Gear,
    GearKind,
    GearMoved,
    IllegalChoiceError,
    InvalidStateError,
    Options,
    Place,
    PlayerScore,
    Robot,
    SetupError,
    SplitResolved,
    TurnEnded,
    apply_turn,
    describe_gears,
    from_position,
    player_scores,
    resolve_turn,
    score_robot,
    setup_game,
    setup_two_robot_game,
    winners,
)
from outofgears.log.serialization import state_from_dict, state_to_dict
from outofgears.rules.assembly import choose_assembly_gears
from outofgears.rules.attacks import choose_defence_steal
from outofgears.rules.gears import JOLLY, THREE_POINT, parse_gear, sort_gears
from outofgears.rules.scoring import own_colour_gears
from outofgears.rules.setup import build_reserve, expansion_gears, padding_gears
from outofgears.rules.sharing import check_split, default_split, own_colour_quota
from tests.helpers import dumps_of, everyone_defends, feet_of, position, programs

JOLLIES = Options(jolly_gears=True)
THREE_POINTS = Options(three_point_gears=True)
BOTH = Options(jolly_gears=True, three_point_gears=True)
ADA_AND_BO = {"Ada": (1, 2), "Bo": (3, 4)}

# --- helpers ---------------------------------------------------------------------------------


def pile(*items: int | Gear) -> tuple[Gear, ...]:
    """Gears in the order given, ints as standard colours: a reserve in draw order."""
    return tuple(item if isinstance(item, Gear) else Gear(item) for item in items)


def bag(*items: int | Gear) -> tuple[Gear, ...]:
    """The same gears as a canonical multiset, the way feet, circuits and dumps hold them."""
    return sort_gears(pile(*items))


#: A position with expansion gears, given as colour numbers or :class:`Gear`:
#: :func:`tests.helpers.position` with both gear expansions on by default.
table = partial(position, options=BOTH)


def count(gears_: Iterable[Gear], gear: Gear) -> int:
    """How many of ``gear`` there are among ``gears_``."""
    return sum(1 for item in gears_ if item == gear)


def drawn(moves: Iterable[GearMoved]) -> list[tuple[Gear, int]]:
    """The exploration draws of a turn: (gear, dump), in the order they happened."""
    return [
        (move.gear, move.destination.number)
        for move in moves
        if move.source == Place.reserve() and move.robot is None
    ]


def with_padding(options: Options) -> Options:
    """The same expansions with ``pad_reserve`` switched on."""
    return Options(
        jolly_gears=options.jolly_gears,
        three_point_gears=options.three_point_gears,
        pad_reserve=True,
    )


def splits(events: Iterable[object]) -> list[SplitResolved]:
    """The splits of a turn."""
    return [event for event in events if isinstance(event, SplitResolved)]


# --- JOL-1, TRI-1: the expansion gears join the gears before setup ---------------------------


@pytest.mark.clause("JOL-1")
def test_the_jolly_expansion_adds_exactly_four_jolly_gears() -> None:
    # Robots 1-3: 33 standard gears and 4 Jollies; 6 go on the dumps, 31 stay in reserve.
    state = setup_game([1, 2, 3], seed=2, options=JOLLIES)
    everything = list(state.all_gears())
    assert len(everything) == 37
    assert count(everything, JOLLY) == 4
    assert count(everything, THREE_POINT) == 0
    assert [count(everything, Gear(colour)) for colour in (1, 2, 3)] == [11, 11, 11]
    assert [len(dump.gears) for dump in state.dumps] == [2, 2, 2]
    assert len(state.reserve) == 31


@pytest.mark.clause("TRI-1")
def test_the_three_point_expansion_adds_exactly_four_three_point_gears() -> None:
    state = setup_game([1, 2, 3], seed=2, options=THREE_POINTS)
    everything = list(state.all_gears())
    assert len(everything) == 37
    assert count(everything, THREE_POINT) == 4
    assert count(everything, JOLLY) == 0
    assert [count(everything, Gear(colour)) for colour in (1, 2, 3)] == [11, 11, 11]
    assert len(state.reserve) == 31


@pytest.mark.clause("JOL-1", "TRI-1")
def test_both_expansions_together_add_four_jollies_and_four_three_point_gears() -> None:
    # 33 + 4 + 4 = 41 gears; 35 stay in reserve after the deal.
    state = setup_game([1, 2, 3], seed=2, options=BOTH)
    everything = list(state.all_gears())
    assert len(everything) == 41
    assert count(everything, JOLLY) == 4
    assert count(everything, THREE_POINT) == 4
    assert len(state.reserve) == 35
    assert expansion_gears(BOTH) == [JOLLY] * 4 + [THREE_POINT] * 4


@pytest.mark.clause("JOL-1", "TRI-1")
def test_without_the_expansions_the_game_holds_only_standard_gears() -> None:
    state = setup_game([1, 2, 3], seed=2)
    assert {gear.kind for gear in state.all_gears()} == {GearKind.STANDARD}
    assert len(list(state.all_gears())) == 33
    assert expansion_gears(Options()) == []


@pytest.mark.clause("JOL-1", "TRI-1")
@pytest.mark.parametrize(
    ("options", "jollies", "three_points"),
    [(JOLLIES, 4, 0), (THREE_POINTS, 0, 4), (BOTH, 4, 4)],
)
def test_the_two_robot_variant_takes_the_expansion_gears_too(
    options: Options, jollies: int, three_points: int
) -> None:
    # Ada and Bo, robots 1-4: 44 standard gears plus the expansions'; 8 go on the dumps.
    state = setup_two_robot_game(ADA_AND_BO, seed=3, options=options)
    everything = list(state.all_gears())
    assert count(everything, JOLLY) == jollies
    assert count(everything, THREE_POINT) == three_points
    assert len(everything) == 44 + jollies + three_points
    assert len(state.reserve) == 36 + jollies + three_points


@pytest.mark.clause("JOL-1", "TRI-1")
def test_expansion_gears_can_be_on_the_dumps_from_the_start() -> None:
    # They are shuffled in before the deal, so a seed can deal one onto a dump.
    assert JOLLY in setup_game([1, 2, 3], seed=2, options=JOLLIES).dump(1).gears
    assert THREE_POINT in setup_game([1, 2, 3], seed=2, options=THREE_POINTS).dump(1).gears
    variant = setup_two_robot_game(ADA_AND_BO, seed=9, options=BOTH)
    assert variant.dump(3).gears == bag(JOLLY, THREE_POINT)
    on_dumps = [gear for dump in variant.dumps for gear in dump.gears]
    assert count(on_dumps, JOLLY) + count(variant.reserve, JOLLY) == 4
    assert count(on_dumps, THREE_POINT) + count(variant.reserve, THREE_POINT) == 4


@pytest.mark.clause("JOL-1")
@pytest.mark.parametrize("where", ["feet", "circuit", "dump", "reserve"])
def test_a_position_with_a_jolly_is_refused_when_the_expansion_is_off(where: str) -> None:
    lone = (JOLLY,)
    with pytest.raises(InvalidStateError, match="jolly gears, but that expansion is not in play"):
        from_position(
            robots={
                1: {"feet": lone if where == "feet" else (), "circuit": ()},
                2: {"circuit": lone if where == "circuit" else ()},
            },
            dumps={1: lone if where == "dump" else (), 2: ()},
            reserve=lone if where == "reserve" else (),
            options=THREE_POINTS,
        )


@pytest.mark.clause("TRI-1")
def test_a_position_with_a_three_point_gear_is_refused_when_the_expansion_is_off() -> None:
    with pytest.raises(InvalidStateError, match="3-point gears, but that expansion is not in play"):
        table(dumps={1: [THREE_POINT], 2: []}, options=JOLLIES)
    with pytest.raises(InvalidStateError, match="not in play"):
        table(dumps={1: [], 2: []}, feet={2: [THREE_POINT]}, options=Options())


@pytest.mark.clause("JOL-1")
def test_a_fifth_jolly_is_refused() -> None:
    four = table(
        dumps={1: [JOLLY], 2: []},
        feet={1: [JOLLY]},
        circuit={2: [JOLLY]},
        reserve=[JOLLY],
        options=JOLLIES,
    )
    assert count(four.all_gears(), JOLLY) == 4
    with pytest.raises(InvalidStateError, match="holds 5 jolly gears; the expansion has 4"):
        table(
            dumps={1: [JOLLY], 2: []},
            feet={1: [JOLLY, JOLLY]},
            circuit={2: [JOLLY]},
            reserve=[JOLLY],
            options=JOLLIES,
        )


@pytest.mark.clause("TRI-1")
def test_a_fifth_three_point_gear_is_refused() -> None:
    assert count(table(dumps={1: [THREE_POINT] * 4, 2: []}).all_gears(), THREE_POINT) == 4
    with pytest.raises(InvalidStateError, match="holds 5 3-point gears; the expansion has 4"):
        table(dumps={1: [THREE_POINT] * 4, 2: []}, reserve=[THREE_POINT])


@pytest.mark.clause("JOL-1", "TRI-1", "REF-2")
@pytest.mark.parametrize("switch", ["jolly_gears", "three_point_gears", "pad_reserve"])
def test_an_expansion_switch_is_true_or_false(switch: str) -> None:
    not_a_switch: dict[str, Any] = {switch: 1}
    with pytest.raises(InvalidStateError, match=f"{switch} is true or false, not 1"):
        Options(**not_a_switch)


# --- JOL-2, TRI-2: what the gears are worth --------------------------------------------------


@pytest.mark.clause("JOL-2")
@pytest.mark.ruling("R-JOLLY")
@pytest.mark.parametrize("robot", range(1, 9))
def test_a_jolly_is_worth_two_and_is_own_colour_at_the_end_but_gives_no_priority(
    robot: int,
) -> None:
    assert JOLLY.points_for(robot) == 2
    assert JOLLY.is_own_colour_of(robot)
    assert not JOLLY.has_priority_for(robot)


@pytest.mark.clause("TRI-2")
@pytest.mark.parametrize("robot", range(1, 9))
def test_a_three_point_gear_is_worth_three_to_anyone_and_is_never_own_colour(robot: int) -> None:
    assert THREE_POINT.points_for(robot) == 3
    assert not THREE_POINT.is_own_colour_of(robot)
    assert not THREE_POINT.has_priority_for(robot)


@pytest.mark.clause("JOL-2", "TRI-2")
@pytest.mark.ruling("R-JOLLY")
def test_a_robot_scores_its_jolly_as_own_colour_and_its_three_point_gear_as_three() -> None:
    # Green robot 4: Jolly 2 + red 1 at the feet, three-point 3 + green 2 in the circuit = 8;
    # own colour: the Jolly and the green.
    robot = Robot(4, "Di", feet=bag(JOLLY, 1), circuit=bag(THREE_POINT, 4))
    assert score_robot(robot) == 8
    assert own_colour_gears(robot) == 2
    jollies_only = Robot(7, "Gus", feet=bag(JOLLY, JOLLY), circuit=bag(JOLLY))
    assert (score_robot(jollies_only), own_colour_gears(jollies_only)) == (6, 3)
    three_points_only = Robot(7, "Gus", circuit=bag(THREE_POINT, THREE_POINT))
    assert (score_robot(three_points_only), own_colour_gears(three_points_only)) == (6, 0)


@pytest.mark.clause("JOL-2")
@pytest.mark.ruling("R-JOLLY", "R-END")
def test_a_jolly_breaks_a_tie_for_whoever_holds_it() -> None:
    # Robot 1: Jolly 2 + red 2 + orange 1 = 5, two own-colour gears. Robot 2: orange 2 + three
    # yellows = 5, one own-colour gear. Robot 1 wins the tie.
    state = table(dumps={1: [], 2: []}, circuit={1: [JOLLY, 1, 2], 2: [2, 3, 3, 3]})
    assert player_scores(state) == (PlayerScore("P1", 5, 2, 1), PlayerScore("P2", 5, 1, 2))
    assert winners(state) == ("P1",)


@pytest.mark.clause("TRI-2")
@pytest.mark.ruling("R-END")
def test_a_three_point_gear_does_not_break_a_tie() -> None:
    # Robot 1: three-point 3 + red 2 = 5, one own-colour gear; robot 2 as above: 5, one. Shared.
    state = table(dumps={1: [], 2: []}, circuit={1: [THREE_POINT, 1], 2: [2, 3, 3, 3]})
    assert player_scores(state) == (PlayerScore("P1", 5, 1, 1), PlayerScore("P2", 5, 1, 2))
    assert winners(state) == ("P1", "P2")


@pytest.mark.clause("JOL-2", "TRI-2")
@pytest.mark.ruling("R-JOLLY", "R-END")
def test_the_harvester_of_the_three_point_gear_beats_the_harvester_of_the_jolly() -> None:
    # The last turn: robot 1 harvests the Jolly, robot 2 the three-point gear; the reserve is
    # empty and so are both dumps, so the game ends: 3 points to 2.
    state = table(dumps={1: [JOLLY], 2: [THREE_POINT]})
    after = apply_turn(state, programs(r1="harvest 1", r2="harvest 2"))
    assert after.game_over
    assert feet_of(after) == {1: (JOLLY,), 2: (THREE_POINT,)}
    assert player_scores(after) == (PlayerScore("P2", 3, 0, 2), PlayerScore("P1", 2, 1, 1))
    assert winners(after) == ("P2",)


@pytest.mark.clause("JOL-2", "TRI-2", "VAR-3")
@pytest.mark.ruling("R-JOLLY", "R-TWO-ROBOTS")
def test_a_jolly_on_the_lower_robot_of_the_two_robot_variant() -> None:
    # Ada: robot 1 three reds = 6; robot 2 Jolly + red = 3 with one own-colour gear (the Jolly):
    # she scores 3, tie-break 1. Bo: robot 3 three reds = 3, none of its own; robot 4
    # three-point + green = 5: he scores 3, tie-break 0. Ada wins on the Jolly.
    state = table(
        dumps={1: [], 2: [], 3: [], 4: []},
        feet={2: [JOLLY, 1], 4: [THREE_POINT]},
        circuit={1: [1, 1, 1], 3: [1, 1, 1], 4: [4]},
        players=ADA_AND_BO,
    )
    assert player_scores(state) == (PlayerScore("Ada", 3, 1, 2), PlayerScore("Bo", 3, 0, 3))
    assert winners(state) == ("Ada",)


# --- JOL-2, VAL-1: a Jolly in a split --------------------------------------------------------


@pytest.mark.clause("JOL-2", "SPL-2")
@pytest.mark.ruling("R-JOLLY", "R-SPLIT")
def test_a_jolly_does_not_count_towards_a_takers_own_colour_quota() -> None:
    # Robot 1's share is 2; one red is there, so its quota is 1 whatever the Jolly.
    assert own_colour_quota(bag(1, JOLLY, 2), 1, 2) == 1
    assert own_colour_quota(bag(JOLLY, JOLLY, 2), 1, 2) == 0
    assert own_colour_quota(bag(THREE_POINT, 3), 1, 1) == 0


@pytest.mark.clause("JOL-2", "VAL-1", "SPL-2", "SPL-5")
@pytest.mark.ruling("R-JOLLY", "R-CHOICES", "R-SPLIT")
def test_two_harvesters_take_their_own_colours_and_the_jolly_goes_to_the_one_still_short() -> None:
    # Dump 1: two reds, an orange, a Jolly, a yellow; robots 1 and 2 harvest: 2 each, 1 stays.
    # Own colour first: robot 1 both reds, robot 2 its orange. Robot 2 still needs one: the
    # Jolly is worth 2 to it, the yellow 1, so it takes the Jolly and the yellow stays.
    state = table(dumps={1: [1, 1, 2, JOLLY, 3], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="harvest 1", r2="harvest 1", r3="attack 3"))
    assert feet_of(result.state) == {1: bag(1, 1), 2: bag(2, JOLLY), 3: ()}
    assert result.state.dump(1).gears == bag(3)
    assert splits(result.events) == [SplitResolved(Place.dump(1), (1, 2), 2, bag(3), "SPL-1")]
    assert Counter(move for move in result.moves if move.clause == "HRV-2") == Counter(
        GearMoved(gear, Place.dump(1), Place.feet(robot), robot, "HRV-2")
        for robot, gear in ((1, Gear(1)), (1, Gear(1)), (2, Gear(2)), (2, JOLLY))
    )


@pytest.mark.clause("JOL-2", "TRI-2", "VAL-1", "SPL-5")
@pytest.mark.ruling("R-JOLLY", "R-CHOICES", "R-SPLIT")
def test_the_three_point_gear_is_dealt_before_the_jolly_and_the_jolly_before_a_plain_gear() -> None:
    # Nobody's own colour: robot 2, the first clockwise after dump 1 (R-SYMMETRY), picks the
    # three-point gear (3), robot 1 the Jolly (2), then a yellow each; one yellow stays. Had
    # the Jolly priority, robot 1 would hold it.
    pool = bag(JOLLY, THREE_POINT, 3, 3, 3)
    assert default_split(pool, (1, 2), 2, place_number=1) == {
        1: bag(3, JOLLY),
        2: bag(3, THREE_POINT),
    }
    state = table(dumps={1: pool, 2: [], 3: []})
    after = apply_turn(state, programs(r1="harvest 1", r2="harvest 1", r3="attack 3"))
    assert feet_of(after) == {1: bag(3, JOLLY), 2: bag(3, THREE_POINT), 3: ()}
    assert after.dump(1).gears == bag(3)


@pytest.mark.clause("JOL-2", "TRI-2", "VAL-1", "ATK-8")
@pytest.mark.ruling("R-JOLLY", "R-CHOICES", "R-SPLIT")
def test_two_attackers_share_a_victims_jolly_and_three_point_gear_by_worth() -> None:
    # Robot 3's feet: red, orange, Jolly, three-point. Robots 1 and 2 attack it: own colour
    # first (red to 1, orange to 2), then robot 1 picks the three-point gear, robot 2 the Jolly.
    state = table(dumps={1: [], 2: [], 3: []}, feet={3: [1, 2, JOLLY, THREE_POINT]})
    result = resolve_turn(state, programs(r1="attack 3", r2="attack 3", r3="harvest 3"))
    assert feet_of(result.state) == {1: bag(1, THREE_POINT), 2: bag(2, JOLLY), 3: ()}
    assert splits(result.events) == [SplitResolved(Place.feet(3), (1, 2), 2, (), "SPL-1")]


@pytest.mark.clause("JOL-2", "SPL-2", "SPL-5")
@pytest.mark.ruling("R-JOLLY", "R-SPLIT", "R-CHOICES")
def test_a_split_giving_a_taker_the_jolly_instead_of_its_own_colour_is_refused() -> None:
    # Red, orange, Jolly, yellow; robots 1 and 2, 2 each. Robot 1 must get the red: the Jolly
    # is no red during play.
    pool = bag(1, 2, JOLLY, 3)
    with pytest.raises(IllegalChoiceError) as caught:
        check_split(pool, (1, 2), {1: bag(JOLLY, 3), 2: bag(1, 2)})
    assert (caught.value.robot, caught.value.clause) == (1, "SPL-2")
    assert caught.value.reason == "it must get 1 gear of its own colour, not 0"
    state = table(dumps={1: pool, 2: [], 3: []})
    with pytest.raises(IllegalChoiceError) as through_a_turn:
        apply_turn(
            state,
            programs(r1="harvest 1", r2="harvest 1", r3="attack 3"),
            choices=Choices(splits={Place.dump(1): {1: bag(JOLLY, 3), 2: bag(1, 2)}}),
        )
    assert (through_a_turn.value.robot, through_a_turn.value.clause) == (1, "SPL-2")


@pytest.mark.clause("JOL-2", "SPL-2", "SPL-5")
@pytest.mark.ruling("R-JOLLY", "R-SPLIT", "R-CHOICES")
def test_a_jolly_does_not_stand_in_for_the_orange_a_taker_must_get() -> None:
    # Jolly, orange, two yellows: robot 2's quota is its orange; the Jolly does not count.
    with pytest.raises(IllegalChoiceError) as caught:
        check_split(bag(JOLLY, 2, 3, 3), (1, 2), {1: bag(2, 3), 2: bag(JOLLY, 3)})
    assert (caught.value.robot, caught.value.clause) == (2, "SPL-2")


@pytest.mark.clause("JOL-2", "SPL-2", "SPL-5")
@pytest.mark.ruling("R-JOLLY", "R-SPLIT", "R-CHOICES")
def test_a_split_may_give_the_jolly_to_a_taker_with_no_own_colour_on_the_dump() -> None:
    # Jolly, orange, two yellows: robot 1 has no red there (quota 0) and may take the Jolly
    # without it counting as a red; robot 2 gets its orange.
    pool = bag(JOLLY, 2, 3, 3)
    check_split(pool, (1, 2), {1: bag(JOLLY, 3), 2: bag(2, 3)})
    check_split(pool, (1, 2), {1: bag(3, 3), 2: bag(2, JOLLY)})
    state = table(dumps={1: pool, 2: [], 3: []})
    after = apply_turn(
        state,
        programs(r1="harvest 1", r2="harvest 1", r3="attack 3"),
        choices=Choices(splits={Place.dump(1): {1: bag(JOLLY, 3), 2: bag(2, 3)}}),
    )
    assert feet_of(after) == {1: bag(3, JOLLY), 2: bag(2, 3), 3: ()}
    assert after.dump(1).gears == ()


# --- VAL-1: the default defence steal and assembly use the gears' worth ----------------------


@pytest.mark.clause("VAL-1", "ATK-5")
@pytest.mark.ruling("R-CHOICES", "R-DEFENCE")
def test_defender_takes_a_three_point_gear_from_the_circuit_before_its_own_colour_at_the_feet() -> (
    None
):
    # 3 points beat 2, so the feet-first tie rule never comes in.
    assert choose_defence_steal(2, bag(2), bag(THREE_POINT)) == DefenceSteal("circuit", THREE_POINT)
    state = table(dumps={1: [], 2: []}, feet={1: [2]}, circuit={1: [THREE_POINT]}, reserve=[1, 2])
    result = resolve_turn(state, programs(r1="attack 2", r2="attack 2"))
    assert result.state.robot(2).feet == (THREE_POINT,)
    assert (result.state.robot(1).feet, result.state.robot(1).circuit) == (bag(2), ())
    assert [move for move in result.moves if move.clause == "ATK-4"] == [
        GearMoved(THREE_POINT, Place.circuit(1), Place.feet(2), 2, "ATK-4")
    ]


@pytest.mark.clause("VAL-1", "ATK-5")
@pytest.mark.ruling("R-CHOICES", "R-DEFENCE", "R-JOLLY")
def test_a_jolly_and_the_defenders_own_colour_are_worth_the_same_so_the_feet_come_first() -> None:
    assert choose_defence_steal(2, bag(JOLLY), bag(2)) == DefenceSteal("feet", JOLLY)
    assert choose_defence_steal(2, bag(2), bag(JOLLY)) == DefenceSteal("feet", Gear(2))
    state = table(dumps={1: [], 2: []}, feet={1: [JOLLY]}, circuit={1: [2]}, reserve=[1, 2])
    after = apply_turn(state, programs(r1="attack 2", r2="attack 2"))
    assert after.robot(2).feet == (JOLLY,)
    assert (after.robot(1).feet, after.robot(1).circuit) == ((), bag(2))


@pytest.mark.clause("VAL-1", "ATK-5")
@pytest.mark.ruling("R-CHOICES", "R-DEFENCE", "R-JOLLY")
def test_among_equal_gears_at_the_feet_a_standard_colour_comes_before_the_jolly() -> None:
    # Canonical order: standard colours, then the Jolly, then the three-point gear.
    assert choose_defence_steal(2, bag(JOLLY, 2), ()) == DefenceSteal("feet", Gear(2))
    assert choose_defence_steal(2, bag(1, JOLLY), ()) == DefenceSteal("feet", JOLLY)
    assert choose_defence_steal(5, bag(JOLLY, THREE_POINT), ()) == DefenceSteal("feet", THREE_POINT)
    assert choose_defence_steal(5, (), bag(1, JOLLY, 3)) == DefenceSteal("circuit", JOLLY)


@pytest.mark.clause("VAL-1", "ATK-5")
@pytest.mark.ruling("R-CHOICES", "R-DEFENCE")
def test_under_feet_only_the_three_point_gear_in_the_circuit_is_out_of_reach() -> None:
    assert choose_defence_steal(2, bag(1), bag(THREE_POINT), "feet_only") == DefenceSteal(
        "feet", Gear(1)
    )


@pytest.mark.clause("VAL-1", "ASM-2")
@pytest.mark.ruling("R-CHOICES", "R-ASSEMBLY")
def test_default_assembly_moves_the_three_point_gear_and_the_jolly_first() -> None:
    # Robot 1 holds orange, yellow, Jolly, three-point: worth 1, 1, 2, 3 to it.
    assert sort_gears(choose_assembly_gears(1, bag(2, 3, JOLLY, THREE_POINT))) == bag(
        JOLLY, THREE_POINT
    )
    state = table(dumps={1: [], 2: []}, feet={1: [2, 3, JOLLY, THREE_POINT]}, reserve=[1, 2])
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 2"))
    assert result.state.robot(1).circuit == bag(JOLLY, THREE_POINT)
    assert result.state.robot(1).feet == bag(2, 3)
    assert Counter(move for move in result.moves if move.clause == "ASM-1") == Counter(
        [
            GearMoved(JOLLY, Place.feet(1), Place.circuit(1), 1, "ASM-1"),
            GearMoved(THREE_POINT, Place.feet(1), Place.circuit(1), 1, "ASM-1"),
        ]
    )


@pytest.mark.clause("VAL-1", "ASM-2")
@pytest.mark.ruling("R-CHOICES", "R-ASSEMBLY", "R-JOLLY")
def test_default_assembly_takes_its_own_colour_before_a_jolly_of_the_same_worth() -> None:
    # Red robot 1: three-point 3, red 2, Jolly 2, orange 1: the three-point gear, then the red
    # (a standard colour comes before the Jolly on equal worth).
    assert sort_gears(choose_assembly_gears(1, bag(1, 2, JOLLY, THREE_POINT))) == bag(
        1, THREE_POINT
    )
    state = table(dumps={1: [], 2: []}, feet={1: [1, 2, JOLLY, THREE_POINT]}, reserve=[1, 2])
    after = apply_turn(state, programs(r1="attack 1", r2="attack 2"))
    assert after.robot(1).circuit == bag(1, THREE_POINT)
    assert after.robot(1).feet == bag(2, JOLLY)


# --- REF-1: a short refill fills the dumps in ascending number -------------------------------


@pytest.mark.clause("REF-1", "EXP-1", "END-1")
@pytest.mark.ruling("R-EXPLORE", "R-END")
def test_the_last_short_refill_fills_dumps_in_ascending_number_and_ends_the_game() -> None:
    # Four robots harvest their own dumps; three gears are left for four dumps: dumps 1, 2, 3
    # get the Jolly, the yellow, the three-point gear; dump 4 stays empty and the game ends.
    state = table(dumps={1: [1], 2: [2], 3: [3], 4: [4]}, reserve=[JOLLY, 3, THREE_POINT])
    result = resolve_turn(
        state, programs(r1="harvest 1", r2="harvest 2", r3="harvest 3", r4="harvest 4")
    )
    assert drawn(result.moves) == [(JOLLY, 1), (Gear(3), 2), (THREE_POINT, 3)]
    assert dumps_of(result.state) == {1: (JOLLY,), 2: bag(3), 3: (THREE_POINT,), 4: ()}
    assert result.state.reserve == ()
    assert result.events[-1] == TurnEnded(1, True, "END-1")
    assert result.state.game_over


@pytest.mark.clause("REF-1", "EXP-1", "END-1")
@pytest.mark.ruling("R-EXPLORE", "R-END")
def test_a_short_refill_starts_at_the_lowest_dump_in_play_and_ends_nothing_while_dumps_hold_gears() -> (
    None
):
    # Robots 2, 5, 7 all defend; two gears for three dumps: dump 2 the Jolly, dump 5 the
    # three-point gear, dump 7 nothing. No dump is empty, so the game goes on; it ends the
    # next turn, when robot 7 empties its dump.
    state = table(dumps={2: [2], 5: [5], 7: [7]}, reserve=[JOLLY, THREE_POINT])
    result = resolve_turn(state, everyone_defends(state))
    assert drawn(result.moves) == [(JOLLY, 2), (THREE_POINT, 5)]
    assert dumps_of(result.state) == {2: bag(2, JOLLY), 5: bag(5, THREE_POINT), 7: bag(7)}
    assert result.state.reserve == ()
    assert result.events[-1] == TurnEnded(1, False, "TURN-1")
    last = resolve_turn(result.state, programs(r2="attack 2", r5="attack 5", r7="harvest 7"))
    assert last.state.robot(7).feet == bag(7)
    assert dumps_of(last.state) == {2: bag(2, JOLLY), 5: bag(5, THREE_POINT), 7: ()}
    assert last.events[-1] == TurnEnded(2, True, "END-1")


@pytest.mark.clause("REF-1", "JOL-1", "TRI-1", "END-1")
@pytest.mark.ruling("R-EXPLORE", "R-END")
def test_a_three_robot_game_with_both_expansions_runs_short_on_its_twelfth_refill() -> None:
    # 41 gears, 6 dealt: 35 in reserve. With nobody taking, 11 refills of 3 leave 2, and every
    # dump holds 13. The 12th refill gives dumps 1 and 2 one each and dump 3 none; no dump is
    # empty, so the game goes on until robot 3 empties its dump.
    state = setup_game([1, 2, 3], seed=5, options=BOTH)
    assert len(state.reserve) == 35
    for _ in range(11):
        state = apply_turn(state, everyone_defends(state))
        assert not state.game_over
    assert len(state.reserve) == 2
    assert [len(dump.gears) for dump in state.dumps] == [13, 13, 13]
    before = state
    result = resolve_turn(state, everyone_defends(state))
    state = result.state
    assert drawn(result.moves) == [(before.reserve[0], 1), (before.reserve[1], 2)]
    assert state.dump(1).gears == sort_gears((*before.dump(1).gears, before.reserve[0]))
    assert state.dump(2).gears == sort_gears((*before.dump(2).gears, before.reserve[1]))
    assert state.dump(3).gears == before.dump(3).gears
    assert (state.reserve, state.game_over) == ((), False)
    end = apply_turn(state, programs(r1="attack 1", r2="attack 2", r3="harvest 3"))
    assert end.game_over
    assert sort_gears(end.robot(3).all_gears) == state.dump(3).gears
    assert len(end.robot(3).circuit) == 2
    everything = list(end.all_gears())
    assert (len(everything), count(everything, JOLLY), count(everything, THREE_POINT)) == (41, 4, 4)


# --- REF-2: padding the reserve --------------------------------------------------------------

# (robots, jolly, three-point, padding colour, padding gears, reserve after the deal), by hand:
# the reserve after the deal is 9n + 4 per expansion kind, topped up to a multiple of n.
PADDING = [
    ((1, 2, 3), False, False, 4, 0, 27),
    ((1, 2, 3), True, False, 4, 2, 33),
    ((1, 2, 3), False, True, 4, 2, 33),
    ((1, 2, 3), True, True, 4, 1, 36),
    ((1, 3, 5, 6, 7), False, False, 2, 0, 45),
    ((1, 3, 5, 6, 7), True, False, 2, 1, 50),
    ((1, 3, 5, 6, 7), False, True, 2, 1, 50),
    ((1, 3, 5, 6, 7), True, True, 2, 2, 55),
    ((2, 3, 4, 5, 6, 7), False, False, 1, 0, 54),
    ((2, 3, 4, 5, 6, 7), True, False, 1, 2, 60),
    ((2, 3, 4, 5, 6, 7), False, True, 1, 2, 60),
    ((2, 3, 4, 5, 6, 7), True, True, 1, 4, 66),
    ((1, 2, 3, 4, 5, 6, 8), False, False, 7, 0, 63),
    ((1, 2, 3, 4, 5, 6, 8), True, False, 7, 3, 70),
    ((1, 2, 3, 4, 5, 6, 8), False, True, 7, 3, 70),
    ((1, 2, 3, 4, 5, 6, 8), True, True, 7, 6, 77),
]


@pytest.mark.clause("REF-2", "JOL-1", "TRI-1")
@pytest.mark.ruling("R-PAD-RESERVE")
@pytest.mark.parametrize(
    ("robots", "jolly", "three_point", "colour", "padding", "reserve"), PADDING
)
def test_a_padded_reserve_divides_evenly_among_the_dumps(
    robots: tuple[int, ...],
    jolly: bool,
    three_point: bool,
    colour: int,
    padding: int,
    reserve: int,
) -> None:
    options = Options(jolly_gears=jolly, three_point_gears=three_point, pad_reserve=True)
    state = setup_game(robots, seed=11, options=options)
    everything = list(state.all_gears())
    assert len(state.reserve) == reserve
    assert len(state.reserve) % len(robots) == 0
    assert count(everything, Gear(colour)) == padding
    kinds = 4 * jolly + 4 * three_point
    assert len(everything) == 11 * len(robots) + kinds + padding
    assert count(everything, JOLLY) == 4 * jolly
    assert count(everything, THREE_POINT) == 4 * three_point
    standard_colours = {gear.colour for gear in everything if gear.kind is GearKind.STANDARD}
    assert standard_colours == set(robots) | ({colour} if padding else set())


@pytest.mark.clause("REF-2")
@pytest.mark.ruling("R-PAD-RESERVE")
def test_padding_tops_up_with_the_lowest_numbered_colour_not_in_play() -> None:
    # Robots 1-3 with Jollies: 37 gears, 31 after the deal; two more make 33.
    assert padding_gears([1, 2, 3], 37) == [Gear(4), Gear(4)]
    assert padding_gears([1, 3, 5, 6, 7], 59) == [Gear(2)]
    assert padding_gears([2, 3, 4, 5, 6, 7], 74) == [Gear(1), Gear(1), Gear(1), Gear(1)]
    assert padding_gears([1, 2, 3], 33) == []
    reserve = build_reserve([1, 2, 3], random.Random(0), BOTH)
    assert len(reserve) == 41
    padded = build_reserve(
        [1, 2, 3],
        random.Random(0),
        Options(jolly_gears=True, three_point_gears=True, pad_reserve=True),
    )
    assert Counter(padded) - Counter(reserve) == Counter({Gear(4): 1})


@pytest.mark.clause("REF-2")
@pytest.mark.ruling("R-PAD-RESERVE")
@pytest.mark.parametrize("options", [Options(), JOLLIES, BOTH])
def test_two_and_four_robots_never_need_padding(options: Options) -> None:
    # 9n + 4k is a multiple of 2 and of 4 already.
    padded = with_padding(options)
    for robots in ((1, 2), (1, 2, 3, 4)):
        state = setup_game(robots, seed=4, options=padded)
        colours = {gear.colour for gear in state.all_gears() if gear.kind is GearKind.STANDARD}
        assert colours == set(robots)
        assert len(state.reserve) % len(robots) == 0


@pytest.mark.clause("REF-2", "VAR-1")
@pytest.mark.ruling("R-PAD-RESERVE", "R-TWO-ROBOTS")
@pytest.mark.parametrize(
    ("options", "padding", "reserve"),
    [
        (Options(jolly_gears=True, pad_reserve=True), 2, 60),
        (Options(jolly_gears=True, three_point_gears=True, pad_reserve=True), 4, 66),
    ],
)
def test_the_two_robot_variant_pads_to_a_multiple_of_the_dumps_not_of_the_players(
    options: Options, padding: int, reserve: int
) -> None:
    # Three players, six robots, six dumps: 54 + 4k after the deal. With both expansions 62
    # becomes 66 (a multiple of 6); a multiple of the 3 players would have stopped at 63.
    players = {"Ada": (1, 2), "Bo": (3, 4), "Cy": (5, 6)}
    state = setup_two_robot_game(players, seed=8, options=options)
    assert len(state.reserve) == reserve
    assert count(state.all_gears(), Gear(7)) == padding
    assert count(state.all_gears(), Gear(8)) == 0


@pytest.mark.clause("REF-2")
@pytest.mark.ruling("R-PAD-RESERVE")
@pytest.mark.parametrize("options", [Options(), JOLLIES, THREE_POINTS, BOTH])
def test_eight_robots_leave_no_colour_to_pad_with(options: Options) -> None:
    padded = with_padding(options)
    with pytest.raises(SetupError) as caught:
        setup_game([1, 2, 3, 4, 5, 6, 7, 8], seed=1, options=padded)
    assert caught.value.clause == "REF-2"
    assert caught.value.reason == (
        "pad_reserve needs a colour that is not in play, and all eight robots are"
    )
    with pytest.raises(SetupError) as variant:
        setup_two_robot_game(
            {"Ada": (1, 2), "Bo": (3, 4), "Cy": (5, 6), "Di": (7, 8)}, seed=1, options=padded
        )
    assert variant.value.clause == "REF-2"
    # Without the option eight robots play, and the reserve runs short at the end: 76 = 9*8 + 4.
    assert len(setup_game([1, 2, 3, 4, 5, 6, 7, 8], seed=1, options=JOLLIES).reserve) == 76


@pytest.mark.clause("REF-2", "REF-1")
@pytest.mark.ruling("R-PAD-RESERVE", "R-EXPLORE")
def test_with_a_padded_reserve_the_last_refill_is_never_short() -> None:
    # Robots 1-3 with both expansions, padded: 36 in reserve, 12 full refills of 3; afterwards
    # every dump holds 2 + 12 = 14 and none is empty, so the game goes on.
    options = Options(jolly_gears=True, three_point_gears=True, pad_reserve=True)
    state = setup_game([1, 2, 3], seed=5, options=options)
    assert len(state.reserve) == 36
    for _ in range(12):
        result = resolve_turn(state, everyone_defends(state))
        assert len(drawn(result.moves)) == 3
        state = result.state
    assert [len(dump.gears) for dump in state.dumps] == [14, 14, 14]
    assert (state.reserve, state.game_over) == ((), False)


@pytest.mark.clause("REF-2", "END-2")
@pytest.mark.ruling("R-PAD-RESERVE")
def test_padded_gears_score_one_point_for_anyone() -> None:
    # Green gears pad a game of robots 1-3: nobody's colour, 1 point each, no priority.
    state = table(
        dumps={1: [], 2: [], 3: []},
        feet={1: [4, 4]},
        circuit={2: [4, 2], 3: [4, JOLLY]},
        options=Options(jolly_gears=True, pad_reserve=True),
    )
    assert [score_robot(robot) for robot in state.robots] == [2, 3, 3]
    assert [own_colour_gears(robot) for robot in state.robots] == [0, 1, 1]
    for robot in (1, 2, 3):
        assert Gear(4).points_for(robot) == 1
        assert not Gear(4).has_priority_for(robot)


# --- Saving, reading and describing the expansion gears --------------------------------------


@pytest.mark.clause("JOL-1", "TRI-1")
def test_a_state_with_jolly_and_three_point_gears_survives_a_round_trip() -> None:
    state = table(
        dumps={1: [THREE_POINT], 2: []},
        feet={1: [JOLLY, THREE_POINT, 2]},
        circuit={1: [JOLLY]},
        reserve=[THREE_POINT, JOLLY, 1],
    )
    data = state_to_dict(state)
    assert data["robots"][0]["feet"] == ["orange", "jolly", "3-point"]
    assert data["robots"][0]["circuit"] == ["jolly"]
    assert data["dumps"][0]["gears"] == ["3-point"]
    assert data["reserve"] == ["3-point", "jolly", "red"]
    assert (data["options"]["jolly_gears"], data["options"]["three_point_gears"]) == (True, True)
    again = state_from_dict(data)
    assert again == state
    assert again.reserve == (THREE_POINT, JOLLY, Gear(1))


@pytest.mark.clause("JOL-1", "TRI-1")
def test_a_saved_state_with_an_expansion_gear_but_not_its_expansion_is_refused() -> None:
    data = state_to_dict(table(dumps={1: [JOLLY], 2: []}, options=JOLLIES))
    assert state_from_dict(data).dump(1).gears == (JOLLY,)
    # The converter wraps the model's refusal, so only the error type is checked here.
    data["options"]["jolly_gears"] = False
    with pytest.raises(InvalidStateError):
        state_from_dict(data)
    data["options"]["jolly_gears"] = True
    data["dumps"][0]["gears"] = ["joker"]
    with pytest.raises(InvalidStateError):
        state_from_dict(data)
    data["dumps"][0]["gears"] = ["3-point"]
    with pytest.raises(InvalidStateError):
        state_from_dict(data)


@pytest.mark.clause("JOL-1", "TRI-1")
@pytest.mark.parametrize(
    ("text", "gear"),
    [("jolly", JOLLY), ("3-point", THREE_POINT)],
)
def test_a_table_names_the_expansion_gears(text: str, gear: Gear) -> None:
    assert parse_gear(text) == gear
    assert parse_gear(str(gear)) == gear


@pytest.mark.clause("JOL-1", "TRI-1")
@pytest.mark.parametrize("text", [" Jolly ", "JOLLY", "three_point", "three-point", "3pt", "3"])
def test_the_expansion_gears_are_read_only_by_their_names(text: str) -> None:
    with pytest.raises(InvalidStateError, match="is not a gear"):
        parse_gear(text)


@pytest.mark.clause("JOL-1", "TRI-1")
def test_expansion_gears_are_described_after_the_colours() -> None:
    assert str(JOLLY) == "jolly"
    assert str(THREE_POINT) == "3-point"
    assert describe_gears(pile(THREE_POINT, JOLLY, 1, JOLLY)) == "1 red, 2 jolly, 1 3-point"
    assert bag(THREE_POINT, 8, JOLLY, 1) == (Gear(1), Gear(8), JOLLY, THREE_POINT)


@pytest.mark.clause("JOL-1", "TRI-1")
@pytest.mark.parametrize("kind", [GearKind.JOLLY, GearKind.THREE_POINT])
def test_an_expansion_gear_has_no_colour(kind: GearKind) -> None:
    assert Gear(0, kind) == (JOLLY if kind is GearKind.JOLLY else THREE_POINT)
    with pytest.raises(InvalidStateError, match="has no colour"):
        Gear(3, kind)
