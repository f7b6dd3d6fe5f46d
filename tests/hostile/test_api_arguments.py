"""Specific promises of the library API's errors (issue 14, class 6). The generic promise —
every public callable refuses wrong arguments with the project's errors, and the engine's
public API refuses a value of the wrong type — is held by ``tests/hostile/test_public_surface.py``,
which finds the callables itself."""

from __future__ import annotations

import pytest

from outofgears import GameState, OutOfGearsError, setup_game
from outofgears.errors import GameOverError

STATE = setup_game([1, 2, 3], seed=7)


def test_game_over_error_survives_copy_and_pickle_with_one_message() -> None:
    import copy
    import pickle

    error = GameOverError(5)
    message = "the game is over; turn 5 cannot be played (PRG-5)"
    assert str(copy.copy(error)) == message
    assert str(pickle.loads(pickle.dumps(error))) == message


def test_negative_seed_is_refused_like_the_log_format_does() -> None:
    with pytest.raises(OutOfGearsError, match="seed"):
        setup_game([1, 2], seed=-5)


def test_game_over_must_be_a_bool() -> None:
    with pytest.raises(OutOfGearsError, match="game_over"):
        GameState(STATE.robots, STATE.dumps, STATE.reserve, STATE.players, game_over="no")  # type: ignore[arg-type]
