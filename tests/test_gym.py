"""The single-agent Gymnasium environment (extra ``outofgears[pettingzoo]``) passes Gymnasium's
``check_env``, deals a new game each episode and plays the other seats with named bots."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from outofgears.errors import InvalidStateError  # noqa: E402
from outofgears.play.actions import action_id, joint_program_of, num_joint_actions  # noqa: E402
from outofgears.play.bots import make_bot  # noqa: E402
from outofgears.play.gym import OutOfGearsEnv  # noqa: E402
from outofgears.play.observation import observe  # noqa: E402
from outofgears.rules.scoring import player_scores  # noqa: E402


@pytest.mark.parametrize(
    "kwargs",
    [
        {"robots": 3, "opponents": "random", "flat": False},
        {
            "robots": 4,
            "opponents": ["greedy:1", "lookahead:1", "random"],
            "upgrades": True,
            "flat": False,
        },
        {"robots": 2, "opponents": "random", "render_mode": "ansi", "seat": 2},
        {"robots": 4, "two_robots": True, "opponents": "random", "flat": False},
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
    env = gymnasium.make("outofgears/OutOfGears-v0", robots=3, opponents="random", flat=False)
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
    env = OutOfGearsEnv(robots=3, opponents="greedy:1", flat=False)
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
        ({"opponents": ["random"]}, "1 bots for the 2 other players"),
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
    env = OutOfGearsEnv(robots=4, two_robots=True, opponents="random", seat=1, flat=False)
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
    env = OutOfGearsEnv(robots=6, two_robots=True, opponents="greedy:1", flat=False)
    seen, total = _episode(env, 4)
    assert 0.0 <= total <= 1.0
    assert len(seen) > 1
    assert (seen, total) == _episode(env, 4)


# What an RL user stumbled on (issue 36), each held fixed.

ENV_ID = "outofgears/OutOfGears-v0"


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


@pytest.mark.parametrize(
    "imports",
    [
        "import outofgears, gymnasium",
        "import gymnasium, outofgears",
        "import gymnasium",
        "import outofgears.play, importlib.util; importlib.util.find_spec('gymnasium'); "
        "import gymnasium",
    ],
    ids=[
        "outofgears first",
        "gymnasium first",
        "the module named in the id",
        "gymnasium looked for before it is imported",
    ],
)
def test_gymnasium_makes_the_env_once_outofgears_is_imported_in_either_order(imports: str) -> None:
    env_id = ENV_ID if "outofgears" in imports else f"outofgears:{ENV_ID}"
    code = f"{imports}; print(gymnasium.make({env_id!r}).reset(seed=1)[0].shape)"
    assert _python(code) == "(515,)"


def test_importing_outofgears_does_not_import_gymnasium() -> None:
    assert _python("import sys, outofgears; print('gymnasium' in sys.modules)") == "False"


def test_the_defaults_are_the_common_case() -> None:
    env = OutOfGearsEnv()
    assert (env.robots, env.opponents, env.flat, env.seat) == (
        3,
        ("greedy", "greedy"),
        True,
        "random",
    )
    assert env.observation_space.shape == (515,)


def test_a_render_mode_the_env_lacks_is_the_type_error_vectorising_helpers_fall_back_on() -> None:
    # Stable-Baselines3's make_vec_env asks for render_mode="rgb_array" and retries without it
    # on a TypeError.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Gymnasium's own warning of a mode not in metadata
        with pytest.raises(TypeError, match="render_mode"):
            gymnasium.make(ENV_ID, render_mode="rgb_array")


def test_the_mask_reaches_through_makes_wrappers_as_bool_and_is_built_once_a_step() -> None:
    env = gymnasium.make(ENV_ID, opponents="random")
    _, info = env.reset(seed=4)
    action_masks = env.get_wrapper_attr("action_masks")
    mask = action_masks()
    assert mask.dtype == info["action_mask"].dtype == np.bool_
    seen = env.unwrapped.learner_observation()
    assert mask.nonzero()[0].tolist() == info["action_mask"].nonzero()[0].tolist()
    assert mask.nonzero()[0].tolist() == seen.legal_actions()
    env.unwrapped._cache = None  # a mask built again would need the observations' cache
    assert all((action_masks() == mask).all() for _ in range(10))
    mask[:] = False  # the caller's copy, not the env's
    assert action_masks().any()


def _finish(env: OutOfGearsEnv, seed: int) -> tuple[float, dict[str, Any]]:
    _, info = env.reset(seed=seed)
    rng = random.Random(seed)
    while True:
        action = rng.choice(env.action_masks().nonzero()[0].tolist())
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward, info


def test_the_learner_sits_in_every_seat_when_the_seat_is_drawn() -> None:
    env = OutOfGearsEnv(robots=3, opponents="random")
    learners = {env.reset(seed=seed)[1]["learner"] for seed in range(12)}
    assert learners == {"P1", "P2", "P3"}
    env = OutOfGearsEnv(robots=3, opponents="random", seat=2)
    observation, info = env.reset(seed=0)
    assert info["learner"] == env.learner == "P2"
    assert observation[12:20].tolist() == [0, 1, 0, 0, 0, 0, 0, 0]  # robot 2 is the learner's


@pytest.mark.parametrize(
    ("seat", "message"), [(0, "from 1 to 3"), (4, "from 1 to 3"), ("P1", "seat must")]
)
def test_a_seat_no_player_has_is_refused(seat: object, message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        OutOfGearsEnv(seat=seat)  # type: ignore[arg-type]


def test_the_last_info_tells_the_points_win_shares_and_turns_of_the_game() -> None:
    env = OutOfGearsEnv(opponents="random", turn_cap=100)
    reward, info = _finish(env, 3)
    assert set(info["points"]) == set(info["win_shares"]) == {"P1", "P2", "P3"}
    assert sum(info["win_shares"].values()) == pytest.approx(1.0)
    assert reward == info["win_shares"][info["learner"]]
    assert env.position is not None
    assert info["turns"] == env.position.turn - 1 >= 1
    assert info["points"] == {score.player: score.points for score in player_scores(env.position)}


def test_a_game_cut_off_by_the_turn_cap_tells_its_results_too() -> None:
    env = OutOfGearsEnv(opponents="random", turn_cap=2)
    _, info = _finish(env, 3)
    assert info["turns"] == 2
    assert sum(info["win_shares"].values()) == pytest.approx(1.0)


@pytest.mark.parametrize("robots", [2, 3, 5, 8])
def test_the_observation_bounds_are_those_the_games_reach(robots: int) -> None:
    env = OutOfGearsEnv(robots=robots, opponents="random", turn_cap=40, seat=1)
    observation, _ = env.reset(seed=robots)
    box = env.observation_space
    assert isinstance(box, gymnasium.spaces.Box)
    high = box.high
    assert observation[2] == high[2]  # the reserve after the deal is the most it holds
    assert high[0] == 41
    assert high[20:270].max() == 11  # all the gears of a colour
    rng = random.Random(robots)
    done = False
    while not done:
        assert env.observation_space.contains(observation)
        action = rng.choice(env.action_masks().nonzero()[0].tolist())
        observation, _, terminated, truncated, _ = env.step(action)
        done = terminated or truncated


def test_numpy_seeds_and_one_element_array_actions_are_accepted() -> None:
    env = OutOfGearsEnv(opponents="random")
    first, _ = env.reset(seed=np.int64(5))
    again, _ = env.reset(seed=5)
    assert first.tobytes() == again.tobytes()
    action = int(env.action_masks().nonzero()[0][0])
    played = env.step(np.array([action]))
    env.reset(seed=5)
    assert played[0].tobytes() == env.step(action)[0].tobytes()
    for seed in (np.float64(5), -1, True):
        with pytest.raises(InvalidStateError, match="seed"):
            env.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(gymnasium.error.InvalidAction):
        env.step(np.array([action, action]))


def test_a_shipped_bot_plays_the_learners_seat_through_the_env() -> None:
    env = OutOfGearsEnv(opponents="random", seat=3)
    bot = make_bot("greedy:1")
    rng = random.Random(1)
    env.reset(seed=1)
    done = False
    while not done:
        action = bot.act(env.learner_observation(), rng)
        _, _, terminated, truncated, info = env.step(action)
        assert "illegal_action" not in info
        done = terminated or truncated
    assert info["learner"] == "P3"
