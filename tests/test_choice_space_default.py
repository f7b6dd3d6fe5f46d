"""``ChoiceSpace.default()``: the combination the default policies take is one of the space's
combinations, and playing it is playing the turn with no choices (a differential test)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from outofgears import AnyProgram, GameState, apply_turn, legal_choices, legal_programs, setup_game
from outofgears.rules.model import Options


def _random_turn(
    seed: int, robots: int, turns: int, options: Options
) -> tuple[GameState, dict[int, AnyProgram]]:
    rng = random.Random(seed)
    state = setup_game(list(range(1, robots + 1)), seed=seed, options=options)
    for _ in range(turns):
        programs = {r.number: rng.choice(legal_programs(state, r.number)) for r in state.robots}
        if state.game_over:
            break
        state = apply_turn(state, programs)
    programs = {r.number: rng.choice(legal_programs(state, r.number)) for r in state.robots}
    return state, programs


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    robots=st.integers(2, 5),
    turns=st.integers(0, 8),
    optional=st.booleans(),
)
def test_the_default_combination_is_legal_and_plays_as_no_choices(
    seed: int, robots: int, turns: int, optional: bool
) -> None:
    options = Options(assembly="optional" if optional else "mandatory")
    state, programs = _random_turn(seed, robots, turns, options)
    if state.game_over:
        return
    space = legal_choices(state, programs)
    default = space.default()
    assert apply_turn(state, programs, choices=default) == apply_turn(state, programs)
    if space.count() <= 2_000:
        assert default in space
