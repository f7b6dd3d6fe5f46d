"""The single-agent Gymnasium environment (extra ``outofgears[pettingzoo]``) passes Gymnasium's
``check_env``, deals a new game each episode and plays the other seats with named bots."""

from __future__ import annotations

import random
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from outofgears.errors import InvalidStateError  # noqa: E402
from outofgears.play.gym import OutOfGearsEnv  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        {"robots": 3, "opponents": "random"},
        {"robots": 4, "opponents": ["greedy:1", "lookahead:1", "random"], "upgrades": True},
        {"robots": 2, "opponents": "random", "flat": True, "render_mode": "ansi"},
    ],
    ids=["random opponents", "named bots, upgrades", "flat, ansi"],
)
def test_the_env_passes_gymnasiums_check_env(kwargs: dict[str, Any]) -> None:
    check_env(OutOfGearsEnv(**kwargs), skip_render_check=False)


def test_gymnasium_makes_it_by_its_registered_id() -> None:
    env = gymnasium.make("outofgears/OutOfGears-v0", robots=3, opponents="random")
    observation, _ = env.reset(seed=3)
    assert observation["observation"].shape == (515,)
    check_env(env.unwrapped)


def _episode(env: OutOfGearsEnv, seed: int) -> tuple[list[bytes], float]:
    observation, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    seen = [observation["observation"].tobytes()]
    total = 0.0
    while True:
        action = rng.choice(observation["action_mask"].nonzero()[0].tolist())
        observation, reward, terminated, truncated, _ = env.step(action)
        seen.append(observation["observation"].tobytes())
        total += reward
        if terminated or truncated:
            return seen, total


def test_each_episode_is_a_new_deal_and_a_seed_replays_one() -> None:
    env = OutOfGearsEnv(robots=3, opponents="greedy:1")
    first, reward = _episode(env, 5)
    again, same_reward = _episode(env, 5)
    assert (first, reward) == (again, same_reward)
    starts = {_episode(env, seed)[0][0] for seed in range(4)}
    assert len(starts) == 4
    assert 0.0 <= reward <= 1.0


def test_a_masked_action_ends_the_episode_with_a_penalty() -> None:
    env = OutOfGearsEnv(robots=3, opponents="random")
    env.reset(seed=1)
    _, reward, terminated, truncated, info = env.step(23)  # harvest 8: not in play
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


@pytest.mark.parametrize("action", [-1, 24, 999, "0", None, 1.5, np.int64(99)])
def test_an_action_outside_the_space_is_gymnasiums_invalid_action(action: Any) -> None:
    env = OutOfGearsEnv(robots=3, opponents="random")
    env.reset(seed=1)
    with pytest.raises(gymnasium.error.InvalidAction) as caught:
        env.step(action)
    assert isinstance(caught.value, InvalidStateError)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponents": "chess"}, "unknown bot"),
        ({"opponents": ["random"]}, "1 bots for the 3 other players"),
        ({"opponents": "mcts:0"}, "from 1 to"),
        ({"turn_cap": 0}, "turn_cap"),
        ({"robots": 1}, "2 to 8 robots"),
        ({"render_mode": "human"}, "render_mode"),
    ],
)
def test_bad_arguments_are_refused_with_typed_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        OutOfGearsEnv(**kwargs)
