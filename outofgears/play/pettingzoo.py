"""Out of Gears as a PettingZoo ``ParallelEnv`` (the extra ``outofgears[pettingzoo]``).

:func:`parallel_env` follows PettingZoo's naming. The agents are the players, ``"P1"`` to
``"PK"``, each controlling robot ``k`` (or, with ``two_robots=True``, robots ``j`` and
``j + K/2``, whose moves are joint actions). Every agent has a ``Discrete`` action space of
:func:`~outofgears.play.actions.num_actions` (or :func:`~outofgears.play.actions.num_joint_actions`)
actions, and observes a ``Dict`` of ``"observation"``, the
:meth:`~outofgears.play.observation.Observation.to_vector` of its observation (with the programs
revealed on the last turn), and ``"action_mask"``, 1 for each legal action. Rewards are the win
shares (:func:`~outofgears.play.game.returns`) when the game ends, 0 before; a game that reaches
``turn_cap`` turns is truncated and scored as it stands (ruling R-TURN-CAP). An action the mask
forbids ends the game at once, as PettingZoo's classic games do: the offending agents get -1 and
``info["illegal_action"]``, the others 0, and nothing is played.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from attrs import frozen
from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils.env import ActionType

from outofgears.play.actions import ALL_PROGRAMS, num_actions, num_joint_actions
from outofgears.play.envs import (
    EnvActionError,
    EnvResetNeededError,
    action_number,
    check_env_arguments,
    check_seed,
    observation_box,
    state_box,
    state_cards,
)
from outofgears.play.game import returns
from outofgears.play.observation import (
    SIZE,
    Observation,
    ObservationCache,
    legal_moves,
    own_slots,
    shared_vector,
)
from outofgears.rules.model import GameState, Options
from outofgears.rules.programs import AnyProgram
from outofgears.rules.setup import setup_seated_game
from outofgears.rules.turn import apply_turn

ObsDict = Any  # a dict of "observation" and "action_mask", or with flat=True the vector

#: How many sets of upgrade cards held an environment remembers the seats of.
_SEATS_KEPT = 4096


#: A move's part of a turn: for each of the agent's robots, its number, the program's
#: :func:`~outofgears.play.actions.action_id` and the program.
Chosen = tuple[tuple[int, int, AnyProgram], ...]


@frozen
class _Seats:
    """What the agents' observations of a position add to its shared vector, and what they
    may play: the same for every position of a game with the same upgrade cards held and the
    same end (over or not).

    Args:
        names: The agents, in the order of the players.
        own: The places of the agents' vectors, laid end to end, that hold a 1 for that
            agent alone (:func:`~outofgears.play.observation.own_slots`).
        moves: Per agent, in the order of the players, its legal moves and what each plays.
        masks: The agents' legal-action masks, one row per agent.
    """

    names: tuple[str, ...]
    own: npt.NDArray[np.intp]
    moves: dict[str, dict[int, Chosen]]
    masks: npt.NDArray[np.int8]


class OutOfGearsParallelEnv(ParallelEnv[str, ObsDict, int]):  # type: ignore[misc]
    """The game for PettingZoo; build it with :func:`parallel_env`."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "out_of_gears_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        robots: int = 4,
        *,
        two_robots: bool = False,
        upgrades: bool = False,
        turn_cap: int = 100,
        render_mode: str | None = None,
        flat: bool = False,
    ) -> None:
        check_env_arguments(robots, two_robots, upgrades, turn_cap, render_mode, flat)
        self.flat = flat
        self.robots = robots
        self.two_robots = two_robots
        self.options = Options(upgrades=upgrades)
        self.turn_cap = turn_cap
        self.render_mode = render_mode
        players = robots // 2 if two_robots else robots
        self.possible_agents = [f"P{index}" for index in range(1, players + 1)]
        self.agents: list[str] = []
        actions = num_joint_actions(self.options) if two_robots else num_actions(self.options)
        self._actions = actions
        box = observation_box(turn_cap)
        self._observation_space: spaces.Space[Any] = (
            box
            if flat
            else spaces.Dict(
                {
                    "observation": box,
                    "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
                }
            )
        )
        self.state_space = state_box(turn_cap)
        self._action_space = spaces.Discrete(actions)
        self._programs = num_actions(self.options)
        self._rng = random.Random()
        self.position: GameState | None = None
        self._revealed: dict[int, int] | None = None
        self._seats: dict[tuple[object, ...], _Seats] = {}
        self._cache = ObservationCache()
        self._moves: dict[str, dict[int, Chosen]] = {}
        self._masks: dict[str, npt.NDArray[np.int8]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same space for every agent: the ``Dict``, or the ``Box`` with ``flat=True``."""
        self._agent(agent)
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_actions)``, or the joint actions in the two-robot variant."""
        self._agent(agent)
        return self._action_space

    def _agent(self, agent: object) -> None:
        if agent not in self.possible_agents:
            raise EnvActionError(
                f"agent {agent!r} is not one of {', '.join(self.possible_agents)}"[:200]
            )

    def state(self) -> npt.NDArray[np.float32]:
        """The whole position for a centralised critic (:attr:`state_space`): the shared part
        of the observations (no observer marked) and every robot's player's upgrade card,
        one-hot (robot *n*'s five numbers at ``515 + 5 (n - 1)``). The reserve's order is not
        in it: it is not decided until drawn."""
        state = self.position
        if state is None:
            raise EnvResetNeededError("state() needs a game: call reset() first")
        shared = np.frombuffer(shared_vector(state, self._revealed, cache=self._cache), np.float32)
        return np.concatenate([shared, state_cards(state.players)])

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        """A new deal: from ``seed`` when given, else from the environment's generator."""
        check_seed(seed)
        if seed is not None:
            self._rng = random.Random(seed)
        deal = self._rng.getrandbits(63)
        self.position = setup_seated_game(
            self.robots, two_robots=self.two_robots, seed=deal, options=self.options
        )
        self._revealed = None
        self.agents = list(self.possible_agents)
        observations = self._observations()
        return observations, self._infos(self.agents)

    def _infos(self, agents: list[str]) -> dict[str, dict[str, Any]]:
        """Empty, or with ``flat=True`` each agent's ``"action_mask"``."""
        if not self.flat:
            return {agent: {} for agent in agents}
        masks = self._masks
        return {agent: {"action_mask": masks[agent]} for agent in agents}

    def step(
        self, actions: dict[str, ActionType]
    ) -> tuple[
        dict[str, ObsDict],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Play one turn with every agent's action."""
        state = self.position
        if state is None or not self.agents:
            raise EnvResetNeededError("step() needs a game in progress: call reset() first")
        programs, revealed, illegal = self._read(state, actions)
        if illegal:
            return self._refuse(illegal)
        state = apply_turn(state, programs)
        self.position = state
        self._revealed = revealed
        ended = state.game_over
        truncated = not ended and state.turn > self.turn_cap
        observations = self._observations()
        agents = self.agents
        if ended or truncated:
            rewards = returns(state, turn_cap=self.turn_cap)
            self.agents = []
        else:
            rewards = dict.fromkeys(agents, 0.0)
        terminations = dict.fromkeys(agents, ended)
        truncations = dict.fromkeys(agents, truncated)
        return observations, rewards, terminations, truncations, self._infos(agents)

    def _read(
        self, state: GameState, actions: dict[str, ActionType]
    ) -> tuple[dict[int, AnyProgram], dict[int, int], list[str]]:
        """The programs of the agents' moves, their numbers by robot, and the agents whose
        move the mask forbids."""
        programs: dict[int, AnyProgram] = {}
        revealed: dict[int, int] = {}
        illegal = []
        if not isinstance(actions, dict) or len(actions) != len(state.players):
            self._check_agents(actions)
        for agent, moves in self._moves.items():
            try:
                move = actions[agent]
            except KeyError:
                self._check_agents(actions)
                raise
            chosen = moves.get(action_number(self._action_space, move, f"agent {agent}: "))
            if chosen is None:
                illegal.append(agent)
                continue
            for robot, number, program in chosen:
                revealed[robot] = number
                programs[robot] = program
        return programs, revealed, illegal

    def _check_agents(self, actions: object) -> None:
        """Raise :class:`~outofgears.play.envs.EnvActionError` unless ``actions`` has one
        action for each agent in play and no other."""
        if not isinstance(actions, dict):
            raise EnvActionError(f"actions are a dict of agent to action, not {actions!r}"[:200])
        missing = [agent for agent in self.agents if agent not in actions]
        extra = [repr(agent) for agent in actions if agent not in self.agents]
        if missing or extra:
            raise EnvActionError(
                f"the actions need one action for each of {', '.join(self.agents)}; missing: "
                f"{', '.join(missing) or 'none'}; unknown: {', '.join(extra) or 'none'}"[:300]
            )

    def _refuse(
        self, illegal: list[str]
    ) -> tuple[
        dict[str, ObsDict],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """An illegal action ends the game: -1 for each offender, 0 for the others."""
        agents = self.agents
        observations = self._observations()
        self.agents = []
        rewards = {agent: -1.0 if agent in illegal else 0.0 for agent in agents}
        infos: dict[str, dict[str, Any]] = {
            agent: {"illegal_action": True} if agent in illegal else {} for agent in agents
        }
        done = dict.fromkeys(agents, True)
        return observations, rewards, done, dict.fromkeys(agents, False), infos

    def _observations(self) -> dict[str, Any]:
        """Every agent's observation of the current position: its vector and its mask.

        The vectors are the rows of one array, copies of the shared part
        (:func:`~outofgears.play.observation.shared_vector`, with
        :func:`~outofgears.play.observation.own_slots` the one definition of the layout) with each
        agent's own slots set; the masks are the rows of one copy of the position's masks. What
        the agents add and may play is looked up once per set of upgrade cards held
        (:class:`_Seats`).
        """
        state = self.position
        assert state is not None
        seats = self._seats_of(state)
        self._moves = seats.moves
        base = np.frombuffer(self._cache.shared_vector(state, self._revealed), np.float32)
        vectors = np.empty((len(seats.names), base.shape[0]), np.float32)
        vectors[:] = base
        vectors.reshape(-1)[seats.own] = 1.0
        masks = seats.masks.copy()
        if self.flat:
            self._masks = dict(zip(seats.names, masks, strict=True))
            return {name: vectors[row] for row, name in enumerate(seats.names)}
        return {
            name: {"observation": vectors[row], "action_mask": masks[row]}
            for row, name in enumerate(seats.names)
        }

    def _seats_of(self, state: GameState) -> _Seats:
        done = state.game_over or state.turn > self.turn_cap
        if not self.options.upgrades:
            key: tuple[object, ...] = (done,)
        else:
            key = (done, *[id(player.upgrade) for player in state.players])
        seats = self._seats.get(key)
        if seats is None:
            if len(self._seats) >= _SEATS_KEPT:
                self._seats.clear()
            seats = self._seats[key] = self._seats_for(state, done)
        return seats

    def _seats_for(self, state: GameState, done: bool) -> _Seats:
        moves = {}
        masks = np.zeros((len(state.players), self._actions), dtype=np.int8)
        count = self._programs
        for row, player in enumerate(state.players):
            legal = () if done else legal_moves(state, player.name)
            masks[row, list(legal)] = 1
            robots = player.robots
            numbers = [divmod(move, count) if len(robots) == 2 else (move,) for move in legal]
            moves[player.name] = {
                move: tuple(
                    (robot, number, ALL_PROGRAMS[number])
                    for robot, number in zip(robots, split, strict=True)
                )
                for move, split in zip(legal, numbers, strict=True)
            }
        own = [own_slots(player.robots, player.upgrade) for player in state.players]
        return _Seats(
            names=tuple(player.name for player in state.players),
            own=np.array(
                [row * SIZE + slot for row, slots in enumerate(own) for slot in slots], np.intp
            ),
            moves=moves,
            masks=masks,
        )

    def render(self) -> str | None:
        """The table in words as every player sees it (``render_mode="ansi"``): the first
        player's observation, without its upgrade card."""
        if self.render_mode is None or self.position is None:
            return None
        seen = self._cache.observe(self.position, self.possible_agents[0], revealed=None)
        return Observation(seen.player, seen.robots, None, seen.public).to_string()

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(
    robots: int = 4,
    *,
    two_robots: bool = False,
    upgrades: bool = False,
    turn_cap: int = 100,
    render_mode: str | None = None,
    flat: bool = False,
) -> OutOfGearsParallelEnv:
    """The game as a PettingZoo ``ParallelEnv``: ``robots`` robots, one agent per player.

    >>> env = parallel_env(robots=3)
    >>> observations, infos = env.reset(seed=1)
    >>> env.agents, observations["P1"]["observation"].shape, int(observations["P1"]["action_mask"].sum())
    (['P1', 'P2', 'P3'], (515,), 9)
    """
    return OutOfGearsParallelEnv(
        robots,
        two_robots=two_robots,
        upgrades=upgrades,
        turn_cap=turn_cap,
        render_mode=render_mode,
        flat=flat,
    )
