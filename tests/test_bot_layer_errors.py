"""The bot layer raises the project's errors on bad arguments (issue 23, classes 3 and 4).

Every public function of the bot layer's modules is called with each required argument in
turn replaced by a wrong value (``None``, text, numbers out of range, containers, a finished
game, an arbitrary object); only an :class:`~outofgears.errors.OutOfGearsError` may escape.
A new public function is covered without being listed, as long as its arguments have one of
the names below.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import pickle
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from outofgears.errors import OutOfGearsError
from outofgears.play.bots import GreedyBot, LookaheadBot, MCTSBot, RandomBot, play_match
from outofgears.play.observation import Observation, observe
from outofgears.rules.model import GameState, Options
from outofgears.rules.setup import setup_game

MODULES = (
    "outofgears.play.observation",
    "outofgears.play.actions",
    "outofgears.play.game",
    "outofgears.play.bots",
    "outofgears.play.policies",
)


def _finished() -> GameState:
    state = setup_game([1, 2], seed=1)
    bots = {"P1": RandomBot(), "P2": RandomBot()}
    return play_match(state, bots, random.Random(0)).final


STATE = setup_game([1, 2, 3], seed=1, options=Options(upgrades=True))
OBSERVATION = observe(STATE, "P1")
GOOD: dict[str, Any] = {
    "state": STATE,
    "player": "P1",
    "rng": random.Random(0),
    "robot": 1,
    "observation": OBSERVATION,
    "move": 0,
    "action": 0,
    "spec": "random",
    "robots": (1,),
    "bots": {"P1": RandomBot(), "P2": RandomBot(), "P3": RandomBot()},
}
WRONG: tuple[object, ...] = (None, "x", -1, 10**12, 1.5, [], {}, _finished(), object())


def _calls() -> Iterator[tuple[str, Callable[..., Any], dict[str, Any]]]:
    for name in MODULES:
        module = importlib.import_module(name)
        for attribute, function in vars(module).items():
            if attribute.startswith("_") or not inspect.isfunction(function):
                continue
            if function.__module__ != name:
                continue
            required = [
                parameter.name
                for parameter in inspect.signature(function).parameters.values()
                if parameter.default is parameter.empty
            ]
            if not all(argument in GOOD for argument in required):
                continue
            for argument in required:
                for wrong in WRONG:
                    arguments = {key: GOOD[key] for key in required}
                    arguments[argument] = wrong
                    yield f"{name}.{attribute}({argument}={wrong!r:.20})", function, arguments


def test_every_public_function_raises_only_the_projects_errors() -> None:
    escaped = []
    tried = 0
    for label, function, arguments in _calls():
        tried += 1
        try:
            function(**arguments)
        except OutOfGearsError:
            pass
        except Exception as error:
            escaped.append(f"{label}: {type(error).__name__}: {error}")
    assert tried > 150
    assert escaped == []


@pytest.mark.parametrize("method", ["feet", "circuit", "dump", "holds_upgrade"])
@pytest.mark.parametrize("wrong", [None, "x", 9, -1, 1.5, [], object()])
def test_the_observations_methods_refuse_what_is_not_in_the_game(
    method: str, wrong: object
) -> None:
    with pytest.raises(OutOfGearsError):
        getattr(OBSERVATION, method)(wrong)


@pytest.mark.parametrize("wrong", [None, "x", 3, object()])
def test_sampling_needs_a_generator_and_a_tuple_of_cards(wrong: object) -> None:
    with pytest.raises(OutOfGearsError):
        OBSERVATION.sample_state(wrong)  # type: ignore[arg-type]
    with pytest.raises(OutOfGearsError):
        OBSERVATION.sample_state(random.Random(0), seen_upgrades=wrong)  # type: ignore[arg-type]


@pytest.mark.parametrize("bot", [RandomBot, GreedyBot, LookaheadBot, MCTSBot])
@pytest.mark.parametrize("wrong", [None, "x", 3, object()])
def test_a_bot_needs_an_observation_and_a_generator(bot: Any, wrong: object) -> None:
    with pytest.raises(OutOfGearsError):
        bot().act(OBSERVATION, wrong)
    with pytest.raises(OutOfGearsError):
        bot().act(wrong, random.Random(0))


@pytest.mark.parametrize("bot", [GreedyBot, LookaheadBot, MCTSBot])
@pytest.mark.parametrize("wrong", [0, -3, None, "8", 2.5])
def test_a_bots_number_is_a_whole_number_over_zero(bot: Any, wrong: object) -> None:
    with pytest.raises(OutOfGearsError):
        bot(wrong)


def test_an_observation_deep_copies_and_pickles_to_an_equal_one_that_works() -> None:
    for again in (copy.deepcopy(OBSERVATION), pickle.loads(pickle.dumps(OBSERVATION))):
        assert isinstance(again, Observation)
        assert again == OBSERVATION
        assert again.legal_actions() == OBSERVATION.legal_actions()
        assert again.to_vector() == OBSERVATION.to_vector()
