"""The PettingZoo adapter (extra ``outofgears[pettingzoo]``) passes PettingZoo's own tests."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

from decimal import Decimal
from fractions import Fraction

import numpy as np
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from outofgears.play.actions import programs_of_move
from outofgears.play.observation import observe
from outofgears.play.pettingzoo import parallel_env


@pytest.mark.parametrize(
    "kwargs",
    [{"robots": 4}, {"robots": 8, "upgrades": True}, {"robots": 4, "two_robots": True}],
    ids=["4-robots", "8-robots-upgrades", "two-robot-variant"],
)
def test_the_parallel_env_passes_pettingzoos_parallel_api_test(kwargs: dict[str, object]) -> None:
    parallel_api_test(parallel_env(**kwargs), num_cycles=200)  # type: ignore[arg-type]


def test_the_aec_conversion_passes_pettingzoos_api_test() -> None:
    api_test(parallel_to_aec(parallel_env(robots=3)), num_cycles=200)


@pytest.mark.parametrize("robots", [4, 8])
def test_the_same_seed_plays_the_same_game(robots: int) -> None:
    parallel_seed_test(lambda: parallel_env(robots=robots), num_cycles=200)
    seed_test(lambda: parallel_to_aec(parallel_env(robots=robots)), num_cycles=200)


def test_an_illegal_action_ends_the_game_with_a_penalty_for_its_agent() -> None:
    env = parallel_env(robots=3)
    env.reset(seed=1)
    _, rewards, terminations, _, infos = env.step({"P1": 23, "P2": 0, "P3": 0})  # harvest 8
    assert rewards == {"P1": -1.0, "P2": 0.0, "P3": 0.0}
    assert all(terminations.values())
    assert infos["P1"] == {"illegal_action": True}
    assert env.agents == []


def test_a_game_played_with_the_masks_ends_with_win_shares_adding_up_to_one() -> None:
    env = parallel_env(robots=4)
    observations, _ = env.reset(seed=7)
    rng = random.Random(7)
    total = 0.0
    while env.agents:
        actions = {
            agent: rng.choice(observations[agent]["action_mask"].nonzero()[0].tolist())
            for agent in env.agents
        }
        observations, rewards, terminations, truncations, _ = env.step(actions)
        total += sum(rewards.values())
    assert env.position is not None
    assert env.position.game_over
    assert all(terminations.values())
    assert not any(truncations.values())
    assert total == pytest.approx(1.0)


def _configurations() -> list[dict[str, object]]:
    one_robot: list[dict[str, object]] = [
        {"robots": robots, "upgrades": upgrades}
        for robots in range(2, 9)
        for upgrades in (False, True)
    ]
    variant: list[dict[str, object]] = [
        {"robots": robots, "two_robots": True, "upgrades": upgrades}
        for robots in (4, 6, 8)
        for upgrades in (False, True)
    ]
    return [*one_robot, *variant, {"robots": 5, "upgrades": True, "turn_cap": 3}]


@pytest.mark.parametrize("kwargs", _configurations(), ids=repr)
def test_every_agent_sees_what_observe_gives_it_and_may_play_its_legal_moves(
    kwargs: dict[str, object],
) -> None:
    """The environment builds every agent's vector and mask at once, for speed: they must be
    ``observe(state, agent, revealed=...).to_vector()`` and its legal actions, every turn."""
    env = parallel_env(**kwargs)  # type: ignore[arg-type]
    rng = random.Random(repr(kwargs))
    for seed in range(3):
        observations, _ = env.reset(seed=seed)
        revealed = None
        while True:
            state = env.position
            assert state is not None
            cut_off = state.turn > env.turn_cap
            for player in state.players:
                seen = observe(state, player.name, revealed=revealed)
                got = observations[player.name]
                expected = np.array(seen.to_vector(), dtype=np.float32)
                assert got["observation"].dtype == np.float32
                assert np.array_equal(got["observation"], expected)
                legal = [] if cut_off else seen.legal_actions()
                assert got["action_mask"].nonzero()[0].tolist() == legal
            if not env.agents:
                break
            actions = {
                agent: rng.choice(observations[agent]["action_mask"].nonzero()[0].tolist())
                for agent in env.agents
            }
            revealed = {}
            for agent, move in actions.items():
                revealed.update(programs_of_move(state, agent, move))
            observations, *_ = env.step(actions)


def test_an_agents_arrays_are_its_own_to_change() -> None:
    env = parallel_env(robots=4)
    observations, _ = env.reset(seed=3)
    observations["P1"]["observation"][:] = -1.0
    observations["P1"]["action_mask"][:] = 0
    assert observations["P2"]["observation"].min() == 0.0
    assert observations["P2"]["action_mask"].any()
    again, _ = env.reset(seed=3)
    assert again["P1"]["action_mask"].any()
    assert again["P1"]["observation"].min() == 0.0


# ------------------------------------------------- state, flat observations, bounds, errors

import gymnasium  # noqa: E402

from outofgears.errors import InvalidStateError  # noqa: E402
from outofgears.play.envs import STATE_SIZE  # noqa: E402


def test_the_state_is_the_shared_observation_and_everyones_card_in_its_space() -> None:
    env = parallel_env(robots=4, upgrades=True)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.state()
    observations, _ = env.reset(seed=2)
    state = env.state()
    assert state.shape == (STATE_SIZE,) == env.state_space.shape
    assert env.state_space.contains(state)
    assert env.position is not None
    for player in env.position.players:
        robot = player.robots[0]
        assert player.upgrade is not None
        assert state[515 + 5 * (robot - 1) : 515 + 5 * robot].sum() == 1.0
        own = observations[player.name]["observation"]
        assert np.array_equal(state[278:283], np.zeros(5))
        assert own[278:283].sum() == 1.0  # its own card, which the shared part leaves out


@pytest.mark.parametrize("kwargs", [{"robots": 4}, {"robots": 4, "two_robots": True}])
def test_the_flat_box_observations_pass_pettingzoos_tests_with_the_mask_in_the_infos(
    kwargs: dict[str, Any],
) -> None:
    parallel_api_test(parallel_env(flat=True, **kwargs), num_cycles=100)
    env = parallel_env(flat=True, **kwargs)
    observations, infos = env.reset(seed=1)
    assert all(env.observation_space(agent).contains(observations[agent]) for agent in env.agents)
    assert all(infos[agent]["action_mask"].any() for agent in env.agents)


def test_supersuits_observation_wrappers_work_on_the_flat_box() -> None:
    supersuit = pytest.importorskip("supersuit")
    env = parallel_env(robots=3, flat=True, turn_cap=20)
    env = supersuit.dtype_v0(env, np.float64)
    env = supersuit.normalize_obs_v0(env)
    env = supersuit.frame_stack_v1(env, 3)
    env = supersuit.flatten_v0(env)
    observations, infos = env.reset(seed=4)
    assert observations["P1"].shape == (3 * 515,)
    assert observations["P1"].min() >= 0.0
    assert observations["P1"].max() <= 1.0
    rng = random.Random(1)
    while env.agents:
        actions = {
            agent: rng.choice(infos[agent]["action_mask"].nonzero()[0].tolist())
            for agent in env.agents
        }
        observations, _, _, _, infos = env.step(actions)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"robots": 9}, InvalidStateError),
        ({"robots": "4"}, TypeError),
        ({"turn_cap": 0}, InvalidStateError),
        ({"turn_cap": 2.5}, InvalidStateError),
        ({"upgrades": "yes"}, TypeError),
        ({"render_mode": "human"}, gymnasium.error.UnsupportedMode),
        ({"render_mode": 3}, gymnasium.error.UnsupportedMode),
        ({"flat": 1}, TypeError),
    ],
)
def test_arguments_no_game_has_are_refused_with_typed_errors(
    kwargs: dict[str, Any], error: type[Exception]
) -> None:
    with pytest.raises(error) as caught:
        parallel_env(**kwargs)
    assert isinstance(caught.value, InvalidStateError)


@pytest.mark.parametrize(
    "actions",
    [
        {"P1": 0, "P2": 0},
        {"P1": 0, "P2": 0, "P3": 0, "P4": 0},
        {"P1": 0, "P2": 0, "P9": 0},
        {"P1": 0, "P2": 0, "P3": 999},
        {"P1": 0, "P2": 0, "P3": -1},
        {"P1": 0, "P2": 0, "P3": "attack"},
        {"P1": 0, "P2": 0, "P3": [0]},
        [0, 0, 0],
    ],
    ids=["missing", "extra", "unknown", "too big", "negative", "text", "list", "not a dict"],
)
def test_actions_the_env_cannot_read_raise_gymnasiums_invalid_action(actions: Any) -> None:
    env = parallel_env(robots=3)
    env.reset(seed=1)
    with pytest.raises(gymnasium.error.InvalidAction) as caught:
        env.step(actions)
    assert isinstance(caught.value, InvalidStateError)
    assert env.agents == ["P1", "P2", "P3"]  # nothing was played


def test_stepping_a_finished_game_or_seeding_oddly_is_a_typed_error() -> None:
    env = parallel_env(robots=3)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step({"P1": 0, "P2": 0, "P3": 0})
    for seed in (-1, 1.5, "7"):
        with pytest.raises(InvalidStateError):
            env.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(gymnasium.error.InvalidAction):
        env.observation_space("P9")


def test_the_render_shows_no_private_card() -> None:
    env = parallel_env(robots=3, upgrades=True, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text is not None
    assert "holding" not in text
    assert "holds an upgrade" in text


def _first_legal_actions(env: Any, observations: dict[str, Any]) -> dict[str, int]:
    return {
        agent: int(np.flatnonzero(observations[agent]["action_mask"])[0]) for agent in env.agents
    }


def test_a_legal_action_given_as_a_0_d_array_is_played_as_that_action() -> None:
    """Gymnasium's ``Discrete.contains`` takes a 0-d integer array; so does the adapter."""
    played, arrays = parallel_env(robots=3), parallel_env(robots=3)
    observations, _ = played.reset(seed=2)
    arrays.reset(seed=2)
    actions = _first_legal_actions(played, observations)
    expected = played.step(actions)
    got = arrays.step({agent: np.array(action) for agent, action in actions.items()})
    assert got[1] == expected[1]  # the rewards: no penalty
    assert got[4] == expected[4]
    assert arrays.position == played.position
    assert arrays.agents == ["P1", "P2", "P3"]


#: Action values of every kind a learner's code hands in: Gymnasium's ``Discrete.contains``
#: decides which the environments take (whole numbers, 0-d integer arrays), for both of them.
ACTION_VALUES: list[Any] = [
    1,
    np.int64(1),
    np.array(1),
    np.array(1, np.int8),
    True,
    1.0,
    np.float64(1.0),
    Fraction(1),
    Decimal(1),
    np.array(1.0),
    np.array([1]),
    "1",
    None,
]


@pytest.mark.parametrize("value", ACTION_VALUES, ids=[repr(v) for v in ACTION_VALUES])
def test_the_parallel_env_takes_an_action_exactly_when_the_gymnasium_env_does(value: Any) -> None:
    from outofgears.play.gym import OutOfGearsEnv

    single = OutOfGearsEnv(robots=3, opponents="random")
    single.reset(seed=2)
    env = parallel_env(robots=3)
    env.reset(seed=2)
    actions: dict[str, Any] = {"P1": value, "P2": value, "P3": value}
    outcomes = []
    for step in (lambda: single.step(value), lambda: env.step(actions)):
        try:
            step()
            outcomes.append("taken")
        except gymnasium.error.InvalidAction as error:
            outcomes.append("refused" if isinstance(error, InvalidStateError) else "untyped")
    assert outcomes[0] == outcomes[1]
    if outcomes[0] == "refused":
        assert env.agents == ["P1", "P2", "P3"]  # nothing was played
