"""legal_choices: the space of every legal post-reveal decision, both ways (issue 11).

* Every combination the space gives (by iteration or by ``sample``) is accepted by
  ``apply_turn`` and happens as given.
* ``count()`` is exactly the number of distinct combinations iteration gives.
* A combination changed in one decision to a value outside the space is refused, unless it
  leaves a decision to the defaults and agrees with a member of the space on everything else.
* ``sample`` draws every combination with the same chance.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from outofgears import (
    Choices,
    DefenceSteal,
    IllegalChoiceError,
    Options,
    Place,
    apply_turn,
    gears,
    legal_choices,
    resolve_turn,
)
from outofgears.gears import CANONICAL_GEARS
from outofgears.legal import ChoiceSpace
from tests.helpers import position, programs
from tests.properties.checks import check_choices_honoured
from tests.strategies import positions, some_programs

SMALL = 200  # spaces up to this size are enumerated whole


def _key(choices: Choices) -> tuple[object, ...]:
    return (
        sorted(choices.defence_steals.items()),
        sorted(choices.assemblies.items()),
        sorted((str(place), sorted(shares.items())) for place, shares in choices.splits.items()),
    )


def _members(space: ChoiceSpace) -> list[Choices]:
    members = list(space)
    assert len(members) == space.count()
    assert len({repr(_key(choices)) for choices in members}) == len(members), "a repeat"
    return members


@given(st.data())
def test_every_combination_of_the_space_is_accepted_and_happens_as_given(
    data: st.DataObject,
) -> None:
    state = data.draw(positions(expansions=data.draw(st.booleans())))
    laid = data.draw(some_programs(state))
    space = legal_choices(state, laid)
    total = space.count()
    assert total >= 1
    chosen = [space.sample(random.Random(data.draw(st.integers(0, 2**32))))]
    if total <= SMALL:
        chosen += _members(space)
    for choices in chosen:
        result = resolve_turn(state, laid, choices=choices)
        check_choices_honoured(state, result, choices)
        assert apply_turn(state, laid, choices=choices) == result.state


def _changed(choices: Choices) -> Iterator[Choices]:
    """``choices`` with one decision changed, in every way a small universe allows."""
    everything = CANONICAL_GEARS
    for key in choices.defence_steals:
        for source in ("feet", "circuit"):
            for gear in everything:
                steals = {**choices.defence_steals, key: DefenceSteal(source, gear)}
                yield Choices(steals, choices.assemblies, choices.splits)
    pairs = [(), *itertools.combinations_with_replacement(everything, 2)]
    for robot in choices.assemblies:
        for pair in pairs:
            assemblies = {**choices.assemblies, robot: pair}
            yield Choices(choices.defence_steals, assemblies, choices.splits)
    for place, shares in choices.splits.items():
        takers = sorted(shares)
        for first, second in itertools.permutations(takers, 2):
            for gear in shares[first]:
                moved = dict(shares)
                kept = list(moved[first])
                kept.remove(gear)
                moved[first] = tuple(kept)
                moved[second] = (*moved[second], gear)
                yield Choices(
                    choices.defence_steals, choices.assemblies, {**choices.splits, place: moved}
                )


@given(st.data())
def test_a_choice_outside_the_space_is_refused(data: st.DataObject) -> None:
    state = data.draw(positions(max_feet=4, max_circuit=2, max_dump=4))
    laid = data.draw(some_programs(state))
    space = legal_choices(state, laid)
    if space.count() > 40:
        return
    members = _members(space)
    known = {repr(_key(choices)) for choices in members}
    for choices in members[:3]:
        for other in _changed(choices):
            if repr(_key(other)) in known:
                continue
            try:
                after = apply_turn(state, laid, choices=other)
            except IllegalChoiceError:
                continue
            # Accepted: it must leave a decision to the defaults and be a member on the rest.
            completions = [member for member in members if _agrees(other, member)]
            assert any(apply_turn(state, laid, choices=m) == after for m in completions), (
                f"accepted outside the space: {other}"
            )


def _agrees(partial: Choices, member: Choices) -> bool:
    """Whether ``member`` gives every decision ``partial`` gives, the same way, and more."""
    if set(partial.defence_steals) > set(member.defence_steals):
        return False
    if any(member.defence_steals[k] != v for k, v in partial.defence_steals.items()):
        return False
    if any(member.assemblies.get(k) != v for k, v in partial.assemblies.items()):
        return False
    if any(dict(member.splits.get(k, {})) != dict(v) for k, v in partial.splits.items()):
        return False
    sizes = (len(partial.defence_steals), len(partial.assemblies), len(partial.splits))
    return sizes != (len(member.defence_steals), len(member.assemblies), len(member.splits))


# --- table situations -----------------------------------------------------------------------


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
    drawn = Counter(repr(_key(space.sample(rng))) for _ in range(5000))
    assert set(drawn) == {repr(_key(choices)) for choices in space}
    assert all(abs(count - 1250) < 4 * (5000 * 0.25 * 0.75) ** 0.5 for count in drawn.values())


def test_a_turn_with_nothing_to_decide_has_one_empty_combination() -> None:
    state = position(dumps={1: [1], 2: [2]})
    space = legal_choices(state, programs(r1="harvest 1", r2="harvest 2"))
    assert space.count() == 1
    assert list(space) == [Choices()]
