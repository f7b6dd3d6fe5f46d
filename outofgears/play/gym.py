"""Out of Gears as a single-agent Gymnasium environment (the extra ``outofgears[pettingzoo]``,
which brings Gymnasium): the learner plays one seat, named bots play the others.

:class:`OutOfGearsEnv` is registered as ``outofgears/OutOfGears-v0`` as soon as ``outofgears``
and Gymnasium are both imported (:mod:`outofgears.play.registration`). It deals a new game at
every ``reset``. The learner is one player of a game of ``robots`` robots, one per player, or
with ``two_robots=True`` (the two-robot variant, VAR-1) of robots ``j`` and ``robots / 2 + j``,
whose action is then a joint action (both robots' programs,
:func:`~outofgears.play.actions.num_joint_actions` of them). Its seat is drawn at every
``reset`` (``seat="random"``, the default) or fixed (``seat=1`` for ``"P1"``...); the other
players are bots built by :func:`~outofgears.play.bots.make_bot` from ``opponents`` (one spec
for all, or one per other seat, in seat order), and each sees only its own observation, as in
:func:`~outofgears.play.bots.play_match`.

The observation is the :meth:`~outofgears.play.observation.Observation.to_vector` of the
learner (``flat=True``, the default), with the legal-action mask as a ``bool`` array from
:meth:`OutOfGearsEnv.action_masks` (as ``sb3-contrib``'s maskable algorithms ask; through
``gymnasium.make``'s wrappers, ``env.get_wrapper_attr("action_masks")()``) and in
``info["action_mask"]``; with ``flat=False`` it is the PettingZoo adapter's ``Dict`` of
``"observation"`` and ``"action_mask"`` (``int8``). The action is a program number, or a
joint action number in the two-robot variant (:mod:`outofgears.play.actions`): an ``int``, a
NumPy integer or a one-element integer array. The reward is the learner's win share when the
game ends (0 before); a game not over after ``turn_cap`` turns is truncated and scored as it
stands (ruling R-TURN-CAP), and the last ``info`` holds every player's ``"points"`` and
``"win_shares"`` and the ``"turns"`` played. An action the mask forbids ends the episode
with reward -1 and ``info["illegal_action"]``; one outside the action space raises
:class:`~outofgears.play.envs.EnvActionError` (a ``gymnasium.error.InvalidAction``).

>>> env = OutOfGearsEnv(robots=3, opponents="random", seat=1)
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(env.action_masks().sum()), info["learner"]
((515,), 9, 'P1')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeAlias

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
    check_seed,
    observation_box,
)
from outofgears.play.game import returns
from outofgears.play.observation import Observation, ObservationCache
from outofgears.play.registration import register_env
from outofgears.rules.model import GameState, Options
from outofgears.rules.programs import AnyProgram
from outofgears.rules.setup import seat_players, setup_seated_game
from outofgears.rules.turn import apply_turn

Mask: TypeAlias = npt.NDArray[np.bool_]


class OutOfGearsEnv(gymnasium.Env[Any, Any]):  # type: ignore[misc]
    """One seat of the game for a single-agent learner; the others played by bots.

    Args:
        robots: Robots in play, 2 to 8, one per player; 4, 6 or 8 with ``two_robots``.
        opponents: The bots of the other players, in seat order: one spec for all
            (``"greedy"``, ``"mcts:200"``, ``"module:Class"``...), or one spec per player.
        seat: The learner's seat: ``"random"`` (drawn at every ``reset``, so that it learns
            every seat) or a number from 1 (``"P1"``) to the number of players.
        two_robots: The two-robot variant: every player, the learner too, drives two robots
            (VAR-1) and moves them with one joint action.
        upgrades: The Robot Upgrades expansion.
        turn_cap: Turns before a game is cut off (1 to 100,000).
        render_mode: ``None`` or ``"ansi"``.
        flat: The vector alone as the observation (the mask from :meth:`action_masks` and the
            infos); ``False`` for the ``Dict`` of the vector and the mask.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        robots: int = 3,
        *,
        opponents: str | Sequence[str] = "greedy",
        seat: int | str = "random",
        two_robots: bool = False,
        upgrades: bool = False,
        turn_cap: int = 100,
        render_mode: str | None = None,
        flat: bool = True,
    ) -> None:
        check_env_arguments(robots, two_robots, upgrades, turn_cap, render_mode, flat)
        players = robots // 2 if two_robots else robots
        others = players - 1
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
        self.seat = _checked_seat(seat, players)
        self.robots = robots
        self.two_robots = two_robots
        self.opponents = tuple(specs)
        self.options = Options(upgrades=upgrades)
        self.turn_cap = turn_cap
        self.render_mode = render_mode
        self.flat = flat
        actions = num_joint_actions(self.options) if two_robots else num_actions(self.options)
        box = observation_box(turn_cap, robots)
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
        self._names = list(seat_players(robots, two_robots))
        #: The learner's player in the game dealt last (``"P1"``...).
        self.learner = self._names[self.seat - 1 if isinstance(self.seat, int) else 0]
        self.position: GameState | None = None
        self._bots: dict[str, Bot] = {}
        self._rng = random.Random(0)
        self._revealed: dict[int, AnyProgram] | None = None
        self._cache = ObservationCache()
        self._mask: Mask = _read_only(np.zeros(actions, np.bool_))
        self._done = True

    def reset(
        self, *, seed: int | np.integer[Any] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """A new deal, the learner's seat (``seat="random"``) and new bots: from ``seed`` (an
        ``int`` or a NumPy integer) when given, else from the env's generator."""
        super().reset(seed=check_seed(seed))
        self._rng = random.Random(int(self.np_random.integers(2**63 - 1)))
        self.position = setup_seated_game(
            self.robots,
            two_robots=self.two_robots,
            seed=self._rng.getrandbits(63),
            options=self.options,
        )
        if self.seat == "random":
            self.learner = self._rng.choice(self._names)
        others = [name for name in self._names if name != self.learner]
        self._bots = {
            name: make_bot(spec) for name, spec in zip(others, self.opponents, strict=True)
        }
        self._cache = ObservationCache()
        self._revealed = None
        self._done = False
        return self._observe()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The learner's action, the bots' moves, one turn played."""
        state = self.position
        if state is None or self._done:
            raise EnvResetNeededError("step() needs a game in progress: call reset() first")
        move = action_number(self.action_space, action)
        if not self._mask[move]:
            self._done = True
            observation, info = self._observe()
            return observation, -1.0, True, False, {**info, "illegal_action": True}
        programs = dict(programs_of_move(state, self.learner, move))
        for name, bot in self._bots.items():
            seen = self._cache.observe(state, name, revealed=self._revealed)
            programs.update(programs_of_move(state, name, bot.act(seen, self._rng)))
        state = apply_turn(state, programs)
        self.position = state
        self._revealed = programs
        ended = state.game_over
        truncated = not ended and state.turn > self.turn_cap
        self._done = ended or truncated
        observation, info = self._observe()
        if not self._done:
            return observation, 0.0, False, False, info
        win_shares = returns(state, turn_cap=self.turn_cap)
        info.update(
            win_shares=win_shares,
            points=returns(state, "points", turn_cap=self.turn_cap),
            turns=state.turn - 1,
        )
        return observation, win_shares[self.learner], ended, truncated, info

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        seen = self.learner_observation()
        vector = np.array(seen.to_vector(), np.float32)
        mask = np.zeros(self._actions, np.bool_)
        if not self._done:
            mask[seen.legal_actions()] = True
        self._mask = _read_only(mask)
        info: dict[str, Any] = {"learner": self.learner}
        if self.flat:
            return vector, {**info, "action_mask": mask.copy()}
        return {"observation": vector, "action_mask": mask.astype(np.int8)}, info

    def action_masks(self) -> Mask:
        """The learner's legal actions as a ``bool`` array (what ``sb3-contrib``'s maskable
        algorithms ask for), computed once a step (each call returns a copy); all ``False``
        after the end."""
        return self._mask.copy()

    def learner_observation(self) -> Observation:
        """What the learner's seat sees now, as a bot sees it: hand it to any bot's ``act``
        to play the learner's seat with that bot (a baseline through the same environment).

        >>> import random
        >>> from outofgears.play.bots import make_bot
        >>> env = OutOfGearsEnv(opponents="random")
        >>> _ = env.reset(seed=2)
        >>> action = make_bot("greedy").act(env.learner_observation(), random.Random(2))
        >>> bool(env.action_masks()[action])
        True
        """
        state = self.position
        if state is None:
            raise EnvResetNeededError("learner_observation() needs a game: call reset() first")
        return self._cache.observe(state, self.learner, revealed=self._revealed)

    def render(self) -> str | None:  # type: ignore[override]
        """The table in words as every player sees it (``render_mode="ansi"``)."""
        if self.render_mode is None or self.position is None:
            return None
        seen = self.learner_observation()
        return Observation(seen.player, seen.robots, None, seen.public).to_string()


def _checked_seat(seat: object, players: int) -> int | str:
    if seat == "random" and isinstance(seat, str):
        return seat
    if type(seat) is not int:
        raise ArgumentTypeError("seat", 'a seat number or "random"', seat)
    if not 1 <= seat <= players:
        raise InvalidStateError(f"seat is a number from 1 to {players} (the players), not {seat}")
    return seat


def _read_only(mask: Mask) -> Mask:
    mask.flags.writeable = False
    return mask


register_env()
