"""legal_choices in table situations: what each decision of a turn may be (ATK-4, SPL-1 to
SPL-5, ASM-1), counted, listed and drawn (issue 11)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from outofgears import Choices, DefenceSteal, Options, Place, apply_turn, gears, legal_choices
from outofgears.errors import ArgumentTypeError
from outofgears.rules.legal import ChoiceSpace
from tests.helpers import position, programs


def _key(choices: Choices) -> str:
    return repr(
        (
            sorted(choices.defence_steals.items()),
            sorted(choices.assemblies.items()),
            sorted((str(p), sorted(s.items())) for p, s in choices.splits.items()),
        )
    )


def _members(space: ChoiceSpace) -> list[Choices]:
    members = list(space)
    assert len(members) == space.count()
    assert len({_key(choices) for choices in members}) == len(members), "a repeat"
    return members


@pytest.mark.clause("ATK-4")
def test_a_defender_may_take_any_kind_of_gear_from_the_feet_or_the_circuit() -> None:
    # Robot 2 attacks robot 1, who defends: robot 2 holds a red and a yellow at its feet and
    # a green in its circuit. Robot 1 may take the red or the yellow, or the green.
    state = position(feet={2: [1, 3]}, circuit={2: [4]}, dumps={1: [], 2: []})
    space = legal_choices(state, programs(r1="attack 1", r2="attack 1"))
    assert [dict(c.defence_steals) for c in space] == [
        {(1, 2): DefenceSteal("feet", gears(1)[0])},
        {(1, 2): DefenceSteal("feet", gears(3)[0])},
        {(1, 2): DefenceSteal("circuit", gears(4)[0])},
    ]
    feet_only = position(
        feet={2: [1, 3]},
        circuit={2: [4]},
        dumps={1: [], 2: []},
        options=Options(defence_steal_source="feet_only"),
    )
    assert legal_choices(feet_only, programs(r1="attack 1", r2="attack 1")).count() == 2


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_a_robot_with_four_gears_may_assemble_any_pair_and_decline_only_where_optional() -> None:
    # Robot 1 holds red, red, orange, yellow: pairs red+red, red+orange, red+yellow,
    # orange+yellow. Under the optional reading it may also assemble nothing.
    quiet = programs(r1="attack 1", r2="attack 2")
    mandatory = position(feet={1: [1, 1, 2, 3]}, dumps={1: [], 2: []})
    assert legal_choices(mandatory, quiet).count() == 4
    optional = position(
        feet={1: [1, 1, 2, 3]}, dumps={1: [], 2: []}, options=Options(assembly="optional")
    )
    picks = [c.assemblies[1] for c in legal_choices(optional, quiet)]
    assert picks == [gears(1, 1), gears(1, 2), gears(1, 3), gears(2, 3), ()]


@pytest.mark.clause("SPL-1", "SPL-2", "SPL-5")
@pytest.mark.ruling("R-SPLIT")
def test_two_harvesters_split_a_dump_every_legal_way() -> None:
    # Dump 3 holds orange, yellow, green, blue; robots 1 and 2 harvest it: robot 2 must take
    # its orange, and the other three gears go one way or another: 3 splits. Nobody then
    # holds three gears, so nothing else is decided.
    state = position(dumps={1: [], 2: [], 3: [2, 3, 4, 5]})
    space = legal_choices(state, programs(r1="harvest 3", r2="harvest 3", r3="attack 3"))
    splits = [dict(c.splits[Place.dump(3)]) for c in space]
    assert splits == [
        {1: gears(3, 4), 2: gears(2, 5)},
        {1: gears(3, 5), 2: gears(2, 4)},
        {1: gears(4, 5), 2: gears(2, 3)},
    ]


@pytest.mark.clause("ATK-4", "ATK-8", "ASM-1")
@pytest.mark.ruling("R-SIMUL")
def test_a_defence_steal_changes_what_the_attackers_own_attackers_share() -> None:
    # Robot 2 attacks robot 1, who defends; robots 3 and 4 attack robot 2, whose feet hold
    # red, orange and yellow. Robot 1 takes one of the three; the two left are shared one
    # each between robots 3 and 4, robot 3 taking its yellow if it is left (1 way), else
    # either way (2 ways): 1 + 1 + 2 = 4 combinations.
    state = position(feet={2: [1, 2, 3]}, dumps={1: [], 2: [], 3: [], 4: []})
    laid = programs(r1="attack 1", r2="attack 1", r3="attack 2", r4="attack 2")
    space = legal_choices(state, laid)
    assert space.count() == len(_members(space)) == 4


def test_counting_a_huge_space_does_not_visit_it() -> None:
    # Eight robots harvest in pairs four dumps of six gears each; every robot then holds
    # three gears and assembles. The space is the product of every split and every assembly,
    # well over a million combinations, counted in a moment.
    piles = {
        1: [5, 6, 7, 8, 5, 6],
        3: [1, 2, 7, 8, 1, 2],
        5: [3, 4, 1, 2, 3, 4],
        7: [5, 6, 3, 4, 5, 6],
    }
    state = position(dumps={n: piles.get(n, []) for n in range(1, 9)})
    laid = programs(
        r1="harvest 1", r2="harvest 1", r3="harvest 3", r4="harvest 3",
        r5="harvest 5", r6="harvest 5", r7="harvest 7", r8="harvest 7",
    )  # fmt: skip
    space = legal_choices(state, laid)
    assert space.count() > 1_000_000
    choices = space.sample(random.Random(7))
    apply_turn(state, laid, choices=choices)


def test_sample_draws_every_combination_alike() -> None:
    # The 4 combinations of the steal-and-split situation above, 5,000 draws with a fixed
    # seed: each comes up 1,250 times give or take 4 standard deviations (about 122); a
    # draw by steps (one third for each steal) would give the last two 833 each.
    state = position(feet={2: [1, 2, 3]}, dumps={1: [], 2: [], 3: [], 4: []})
    laid = programs(r1="attack 1", r2="attack 1", r3="attack 2", r4="attack 2")
    space = legal_choices(state, laid)
    rng = random.Random(2026)
    drawn = Counter(_key(space.sample(rng)) for _ in range(5000))
    assert set(drawn) == {_key(choices) for choices in space}
    assert all(abs(count - 1250) < 4 * (5000 * 0.25 * 0.75) ** 0.5 for count in drawn.values())


def test_a_turn_with_nothing_to_decide_has_one_empty_combination() -> None:
    state = position(dumps={1: [1], 2: [2]})
    space = legal_choices(state, programs(r1="harvest 1", r2="harvest 2"))
    assert space.count() == 1
    assert list(space) == [Choices()]


@pytest.mark.parametrize("rng", [None, "x", 7, random])
def test_sample_without_a_random_generator_is_a_typed_error(rng: object) -> None:
    # The steal-and-split situation above: sample has decisions to draw.
    state = position(feet={2: [1, 2, 3]}, dumps={1: [], 2: [], 3: [], 4: []})
    space = legal_choices(
        state, programs(r1="attack 1", r2="attack 1", r3="attack 2", r4="attack 2")
    )
    with pytest.raises(ArgumentTypeError, match=r"rng must be a random\.Random"):
        space.sample(rng)  # type: ignore[arg-type]
