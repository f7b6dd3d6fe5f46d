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
from collections.abc import Iterator

from hypothesis import given
from hypothesis import strategies as st

from outofgears import (
    Choices,
    DefenceSteal,
    IllegalChoiceError,
    apply_turn,
    legal_choices,
    resolve_turn,
)
from outofgears.rules.gears import CANONICAL_GEARS
from outofgears.rules.legal import ChoiceSpace
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
