"""Serialisation round-trips: states and events through JSON and back unchanged.

States come from every source the suite has: arbitrary positions (SET-5), new games of
both variants, and positions reached by playing random games, finished ones included.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from outofgears import GameState, resolve_turn
from outofgears.serialization import event_from_dict, event_to_dict, state_from_dict, state_to_dict
from tests.strategies import (
    Chooser,
    legal_choices,
    play_random_game,
    positions,
    setups,
    some_programs,
)


@st.composite
def played_states(draw: st.DrawFn) -> GameState:
    """A state somewhere in a game played from a new setup, possibly its final state."""
    start: GameState = draw(setups())
    game = play_random_game(start, Chooser.from_draw(draw), policy="harvesting", max_turns=20)
    states = [start] + [turn.result.state for turn in game.turns]
    picked: GameState = draw(st.sampled_from(states))
    return picked


def any_states() -> st.SearchStrategy[GameState]:
    """Positions, new games, and states reached in play."""
    return st.one_of(positions(), setups(), played_states())


def through_json(data: dict[str, object]) -> dict[str, object]:
    """``data`` written as JSON text and read back."""
    loaded: dict[str, object] = json.loads(json.dumps(data))
    return loaded


@pytest.mark.clause("SET-5")
@given(any_states())
def test_a_state_survives_a_json_round_trip(state: GameState) -> None:
    data = state_to_dict(state)
    assert state_from_dict(through_json(data)) == state
    assert state_to_dict(state) == data
    assert json.loads(json.dumps(data)) == data


@pytest.mark.clause("TURN-1")
@given(st.data())
def test_the_events_of_a_turn_survive_a_json_round_trip(data: st.DataObject) -> None:
    state = data.draw(positions(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    result = resolve_turn(state, programs, choices=choices)
    for event in result.events:
        assert event_from_dict(through_json(event_to_dict(event))) == event
