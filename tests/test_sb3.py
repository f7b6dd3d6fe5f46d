"""Stable-Baselines3 and sb3-contrib take the Gymnasium environment by its id with no wrapper
of ours (issue 36): ``check_env``, ``make_vec_env`` and a few steps of ``MaskablePPO``. The
learners are a bench extra (``outofgears[bench]``, with PyTorch), not the CI's: without them
these tests are skipped. Training itself is a benchmark (benchmarks/exploitability.py)."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("gymnasium")
sb3_contrib = pytest.importorskip("sb3_contrib")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks  # noqa: E402
from stable_baselines3.common.env_checker import check_env  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402

import outofgears  # noqa: E402, F401  (registers the id)

ENV_ID = "outofgears/OutOfGears-v0"


def test_stable_baselines_check_env_passes_on_the_env_made_by_its_id() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make(ENV_ID, opponents="random"), warn=True)


def test_make_vec_env_builds_the_env_by_its_id_and_the_masks_reach_through() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Gymnasium's warning of the refused rgb_array
        vec = make_vec_env(ENV_ID, n_envs=2, seed=1, env_kwargs={"opponents": "random"})
    vec.reset()
    masks = get_action_masks(vec)
    assert masks.shape == (2, 24)
    assert masks.dtype == bool
    assert masks.any(axis=1).all()


def test_maskable_ppo_learns_on_the_env_by_its_id() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        vec = make_vec_env(ENV_ID, n_envs=1, seed=2, env_kwargs={"opponents": "random"})
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=16, n_epochs=1, seed=2)
    model.learn(total_timesteps=32)
    observation = vec.reset()
    assert isinstance(observation, np.ndarray)
    masks = get_action_masks(vec)
    action, _ = model.predict(observation, action_masks=masks, deterministic=True)
    assert masks[0, int(action[0])]
