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
from outofgears.play.actions import action_id, joint_program_of, num_joint_actions  # noqa: E402
from outofgears.play.gym import OutOfGearsEnv  # noqa: E402
from outofgears.play.observation import observe  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        {"robots": 3, "opponents": "random"},
        {"robots": 4, "opponents": ["greedy:1", "lookahead:1", "random"], "upgrades": True},
        {"robots": 2, "opponents": "random", "flat": True, "render_mode": "ansi"},
        {"robots": 4, "two_robots": True, "opponents": "random"},
        {
            "robots": 6,
            "two_robots": True,
            "opponents": ["greedy:1", "lookahead:1"],
            "upgrades": True,
            "flat": True,
        },
    ],
    ids=[
        "random opponents",
        "named bots, upgrades",
        "flat, ansi",
        "two robots each",
        "two robots each, upgrades, flat",
    ],
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
        ({"robots": 5, "two_robots": True}, "4, 6 or 8 robots"),
        ({"robots": 6, "two_robots": True, "opponents": ["random"] * 5}, "5 bots for the 2 other"),
        ({"two_robots": 1}, "two_robots must be True or False"),
        ({"render_mode": "human"}, "render_mode"),
        ({"opponents": 5}, "opponents must be a bot spec or a list of them"),
        ({"opponents": None}, "opponents must be a bot spec or a list of them"),
        ({"opponents": ["random", 5, "random"]}, "opponents must be a bot spec or a list"),
        ({"opponents": {"random": 1}}, "opponents must be a bot spec or a list of them"),
        ({"opponents": "sys:exit"}, r"building it failed \(SystemExit\)"),
    ],
)
def test_bad_arguments_are_refused_with_typed_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        OutOfGearsEnv(**kwargs)


def test_in_the_two_robot_variant_the_learners_joint_action_moves_both_its_robots() -> None:
    env = OutOfGearsEnv(robots=4, two_robots=True, opponents="random")
    observation, _ = env.reset(seed=2)
    assert env.position is not None
    learner = env.position.players[0]
    assert learner.robots == (1, 3)
    legal = observe(env.position, "P1").legal_actions()
    mask = observation["action_mask"]
    assert mask.shape == (num_joint_actions(),)
    assert mask.nonzero()[0].tolist() == legal
    action = next(move for move in legal if len(set(map(str, joint_program_of(move)))) == 2)
    observation, *_ = env.step(action)
    vector = observation["observation"]
    revealed = [int(vector[283 + 29 * (robot - 1) : 283 + 29 * robot].argmax()) for robot in (1, 3)]
    assert revealed == [action_id(program) for program in joint_program_of(action)]
    assert vector[12:20].tolist() == [1, 0, 1, 0, 0, 0, 0, 0]  # the learner's robots


def test_a_two_robot_episode_ends_with_the_learners_win_share() -> None:
    env = OutOfGearsEnv(robots=6, two_robots=True, opponents="greedy:1")
    seen, total = _episode(env, 4)
    assert 0.0 <= total <= 1.0
    assert len(seen) > 1
    assert (seen, total) == _episode(env, 4)
