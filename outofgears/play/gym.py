"""Out of Gears as a single-agent Gymnasium environment (the extra ``outofgears[pettingzoo]``,
which brings Gymnasium): the learner plays one seat, named bots play the others.

:class:`OutOfGearsEnv` (registered as ``outofgears/OutOfGears-v0`` when this module is
imported) deals a new game at every ``reset``. The learner is ``"P1"`` (robot 1) of a game of
``robots`` robots, one per player, or with ``two_robots=True`` (the two-robot variant, VAR-1)
the player of robots 1 and ``robots / 2 + 1``, whose action is then a joint action (both
robots' programs, :func:`~outofgears.play.actions.num_joint_actions` of them); the other
players are bots built by
:func:`~outofgears.play.bots.make_bot` from ``opponents`` (one spec for all, or one per seat),
and each sees only its own observation, as in :func:`~outofgears.play.bots.play_match`.

The observation is that of the PettingZoo adapter: a ``Dict`` of ``"observation"`` (the
:meth:`~outofgears.play.observation.Observation.to_vector`) and ``"action_mask"``, or with
``flat=True`` the vector alone, the mask in ``info["action_mask"]``. The action is a program
number, or a joint action number in the two-robot variant (:mod:`outofgears.play.actions`). The reward is the learner's win share when the game
ends (0 before); a game not over after ``turn_cap`` turns is truncated and scored as it
stands (ruling R-TURN-CAP). An action the mask forbids ends the episode with reward -1 and
``info["illegal_action"]``; one outside the action space raises
:class:`~outofgears.play.envs.EnvActionError` (a ``gymnasium.error.InvalidAction``).

>>> env = OutOfGearsEnv(robots=3, opponents="random")
>>> observation, info = env.reset(seed=1)
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((515,), 9)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from outofgears.errors import ArgumentTypeError, InvalidStateError
from outofgears.play.actions import num_actions, num_joint_actions, programs_of_move
from outofgears.play.bots import Bot, make_bot
from outofgears.play.envs import (
    RENDER_MODES,
    EnvResetNeededError,
    action_number,
    check_env_arguments,
    observation_box,
)
from outofgears.play.game import returns
from outofgears.play.observation import Observation, ObservationCache
from outofgears.rules.model import GameState, Options
from outofgears.rules.programs import AnyProgram
from outofgears.rules.setup import setup_seated_game
from outofgears.rules.turn import apply_turn

#: The learner's player.
LEARNER = "P1"


class OutOfGearsEnv(gymnasium.Env[Any, Any]):  # type: ignore[misc]
    """One seat of the game for a single-agent learner; the others played by bots.

    Args:
        robots: Robots in play, 2 to 8, one per player; 4, 6 or 8 with ``two_robots``.
        opponents: The bots of the other players, ``P2`` on: one spec for all
            (``"lookahead"``, ``"mcts:200"``, ``"module:Class"``...), or one spec per player.
        two_robots: The two-robot variant: every player, the learner too, drives two robots
            (VAR-1) and moves them with one joint action.
        upgrades: The Robot Upgrades expansion.
        turn_cap: Turns before a game is cut off (1 to 100,000).
        render_mode: ``None`` or ``"ansi"``.
        flat: The vector alone as the observation, the mask in the infos.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        robots: int = 4,
        *,
        opponents: str | Sequence[str] = "lookahead",
        two_robots: bool = False,
        upgrades: bool = False,
        turn_cap: int = 100,
        render_mode: str | None = None,
        flat: bool = False,
    ) -> None:
        check_env_arguments(robots, two_robots, upgrades, turn_cap, render_mode, flat)
        others = (robots // 2 if two_robots else robots) - 1
        if isinstance(opponents, str):
            specs = [opponents] * others
        elif isinstance(opponents, list | tuple) and all(type(s) is str for s in opponents):
            specs = list(opponents)
        else:
            raise ArgumentTypeError("opponents", "a bot spec or a list of them", opponents)
        if len(specs) != others:
            raise InvalidStateError(
                f"opponents gives {len(specs)} bots for the {others} other players"
            )
        for spec in specs:
            make_bot(spec)  # a bad spec is refused now, not at the first reset
        self.robots = robots
        self.two_robots = two_robots
        self.opponents = tuple(specs)
        self.options = Options(upgrades=upgrades)
        self.turn_cap = turn_cap
        self.render_mode = render_mode
        self.flat = flat
        actions = num_joint_actions(self.options) if two_robots else num_actions(self.options)
        box = observation_box(turn_cap)
        self.observation_space = (
            box
            if flat
            else spaces.Dict(
                {
                    "observation": box,
                    "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
                }
            )
        )
        self.action_space = spaces.Discrete(actions)
        self._actions = actions
        self.position: GameState | None = None
        self._bots: dict[str, Bot] = {}
        self._rng = random.Random(0)
        self._revealed: dict[int, AnyProgram] | None = None
        self._cache = ObservationCache()
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """A new deal, and new bots: from ``seed`` when given, else from the env's generator."""
        if seed is not None and (type(seed) is not int or seed < 0):
            raise InvalidStateError(f"seed is None or a whole number, 0 or more, not {seed!r}")
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**63 - 1)))
        self.position = setup_seated_game(
            self.robots,
            two_robots=self.two_robots,
            seed=self._rng.getrandbits(63),
            options=self.options,
        )
        self._bots = {
            f"P{index}": make_bot(spec) for index, spec in enumerate(self.opponents, start=2)
        }
        self._cache = ObservationCache()
        self._revealed = None
        self._done = False
        return self._observe()

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The learner's action, the bots' moves, one turn played."""
        state = self.position
        if state is None or self._done:
            raise EnvResetNeededError("step() needs a game in progress: call reset() first")
        number = action_number(self.action_space, action)
        mine = self._cache.observe(state, LEARNER, revealed=self._revealed)
        if number not in mine.legal_actions():
            self._done = True
            observation, info = self._observe()
            return observation, -1.0, True, False, {**info, "illegal_action": True}
        programs = dict(programs_of_move(state, LEARNER, number))
        for name, bot in self._bots.items():
            seen = self._cache.observe(state, name, revealed=self._revealed)
            programs.update(programs_of_move(state, name, bot.act(seen, self._rng)))
        state = apply_turn(state, programs)
        self.position = state
        self._revealed = programs
        ended = state.game_over
        truncated = not ended and state.turn > self.turn_cap
        self._done = ended or truncated
        reward = returns(state, turn_cap=self.turn_cap)[LEARNER] if self._done else 0.0
        observation, info = self._observe()
        return observation, reward, ended, truncated, info

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        state = self.position
        assert state is not None
        seen = self._cache.observe(state, LEARNER, revealed=self._revealed)
        vector = np.array(seen.to_vector(), np.float32)
        mask = np.zeros(self._actions, np.int8)
        if not self._done:
            mask[seen.legal_actions()] = 1
        if self.flat:
            return vector, {"action_mask": mask}
        return {"observation": vector, "action_mask": mask}, {}

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The learner's legal-action mask (as ``sb3-contrib``'s maskable algorithms ask)."""
        state = self.position
        mask = np.zeros(self._actions, np.int8)
        if state is not None and not self._done:
            mask[self._cache.observe(state, LEARNER).legal_actions()] = 1
        return mask

    def render(self) -> str | None:  # type: ignore[override]
        """The table in words as every player sees it (``render_mode="ansi"``)."""
        if self.render_mode is None or self.position is None:
            return None
        seen = self._cache.observe(self.position, LEARNER, revealed=self._revealed)
        return Observation(seen.player, seen.robots, None, seen.public).to_string()


gymnasium.register(id="outofgears/OutOfGears-v0", entry_point="outofgears.play.gym:OutOfGearsEnv")
