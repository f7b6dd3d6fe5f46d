"""Serialisation round-trips: states and events through JSON and back unchanged.

States come from every source the suite has: arbitrary positions (SET-5), new games of
both variants, and positions reached by playing random games, finished ones included;
with the expansions off, and with any combination of them on (held upgrade cards, Jolly and
three-point gears, a padded reserve, a custom upgrade deck).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from outofgears import GameState, apply_events, resolve_turn
from outofgears.log.serialization import (
    event_from_dict,
    event_to_dict,
    state_from_dict,
    state_to_dict,
)
from tests.strategies import (
    Chooser,
    legal_choices,
    play_random_game,
    positions,
    setups,
    some_programs,
)


@st.composite
def played_states(draw: st.DrawFn, *, expansions: bool = False) -> GameState:
    """A state somewhere in a game played from a new setup, possibly its final state."""
    start: GameState = draw(setups(expansions=expansions))
    game = play_random_game(start, Chooser.from_draw(draw), policy="harvesting", max_turns=20)
    states = [start] + [turn.result.state for turn in game.turns]
    picked: GameState = draw(st.sampled_from(states))
    return picked


def any_states(*, expansions: bool = False) -> st.SearchStrategy[GameState]:
    """Positions, new games, and states reached in play."""
    return st.one_of(
        positions(expansions=expansions),
        setups(expansions=expansions),
        played_states(expansions=expansions),
    )


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


@pytest.mark.clause("SET-5", "UPG-1", "JOL-1", "TRI-1", "REF-2")
@pytest.mark.ruling("R-UPG-DECK", "R-PAD-RESERVE")
@given(any_states(expansions=True))
def test_a_state_with_the_expansions_survives_a_json_round_trip(state: GameState) -> None:
    data = state_to_dict(state)
    back = state_from_dict(through_json(data))
    assert back == state
    assert [p.upgrade for p in back.players] == [p.upgrade for p in state.players]
    assert back.options.upgrade_deck == state.options.upgrade_deck
    assert state_to_dict(back) == data


@pytest.mark.clause(
    "TURN-1",
    "UPG-3",
    "UPG-2",
    "SHARV-1",
    "SATK-1",
    "SATK-2",
    "STRAP-1",
    "SHOV-1",
    "CDEF-1",
    "CDEF-2",
)
@given(st.data())
def test_the_events_of_a_turn_with_the_expansions_survive_a_json_round_trip(
    data: st.DataObject,
) -> None:
    state = data.draw(positions(expansions=True), label="state")
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    result = resolve_turn(state, programs, choices=choices)
    back = [event_from_dict(through_json(event_to_dict(event))) for event in result.events]
    assert back == list(result.events)
    assert apply_events(state, back) == result.state
