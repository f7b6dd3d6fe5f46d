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

from outofgears.errors import InvalidStateError
from outofgears.play.actions import ALL_PROGRAMS, num_actions, num_joint_actions
from outofgears.play.game import returns
from outofgears.play.observation import (
    ObservationCache,
    legal_moves,
    observation_size,
    observe,
    own_slots,
    shared_vector,
)
from outofgears.rules.model import GameState, Options
from outofgears.rules.programs import AnyProgram
from outofgears.rules.setup import setup_seated_game
from outofgears.rules.turn import apply_turn

ObsDict = dict[str, Any]

#: How many sets of upgrade cards held an environment remembers the seats of.
_SEATS_KEPT = 4096


@frozen
class _Seats:
    """What the agents' observations of a position add to its shared vector, and what they
    may play: the same for every position of a game with the same upgrade cards held and the
    same end (over or not).

    Args:
        names: The agents, in the order of the players.
        own: Per agent, the places of its vector that hold a 1 for it alone
            (:func:`~outofgears.play.observation.own_slots`).
        legal: Per agent, its legal moves.
        masks: Per agent, its legal-action mask.
    """

    names: tuple[str, ...]
    own: tuple[tuple[int, ...], ...]
    legal: dict[str, frozenset[int]]
    masks: tuple[npt.NDArray[np.int8], ...]


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
    ) -> None:
        if two_robots and robots not in (4, 6, 8):
            raise InvalidStateError(f"the two-robot variant has 4, 6 or 8 robots, not {robots}")
        if not 2 <= robots <= 8:
            raise InvalidStateError(f"a game has 2 to 8 robots, not {robots}")
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
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=np.inf, shape=(observation_size(),), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(actions)
        self._programs = num_actions(self.options)
        self._rng = random.Random()
        self.state: GameState | None = None
        self._revealed: dict[int, int] | None = None
        self._seats: dict[tuple[object, ...], _Seats] = {}
        self._cache = ObservationCache()
        self._legal: dict[str, frozenset[int]] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(num_actions)``, or the joint actions in the two-robot variant."""
        return self._action_space

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        """A new deal: from ``seed`` when given, else from the environment's generator."""
        if seed is not None:
            self._rng = random.Random(seed)
        deal = self._rng.getrandbits(63)
        self.state = setup_seated_game(
            self.robots, two_robots=self.two_robots, seed=deal, options=self.options
        )
        self._revealed = None
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {} for agent in self.agents}

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
        state = self.state
        if state is None or not self.agents:
            raise RuntimeError("step() needs a game in progress: call reset() first")
        programs, revealed, illegal = self._read(state, actions)
        if illegal:
            return self._refuse(illegal)
        state = apply_turn(state, programs)
        self.state = state
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
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        return observations, rewards, terminations, truncations, infos

    def _read(
        self, state: GameState, actions: dict[str, ActionType]
    ) -> tuple[dict[int, AnyProgram], dict[int, int], list[str]]:
        """The programs of the agents' moves, their numbers by robot, and the agents whose
        move the mask forbids."""
        programs: dict[int, AnyProgram] = {}
        revealed: dict[int, int] = {}
        illegal = []
        legal = self._legal
        count = self._programs
        for player in state.players:
            agent = player.name
            move = int(actions[agent])
            if move not in legal[agent]:
                illegal.append(agent)
                continue
            robots = player.robots
            if len(robots) == 1:
                revealed[robots[0]] = move
                programs[robots[0]] = ALL_PROGRAMS[move]
            else:
                first, second = divmod(move, count)
                revealed[robots[0]], revealed[robots[1]] = first, second
                programs[robots[0]], programs[robots[1]] = ALL_PROGRAMS[first], ALL_PROGRAMS[second]
        return programs, revealed, illegal

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

    def _observations(self) -> dict[str, ObsDict]:
        """Every agent's observation of the current position: its vector and its mask.

        The vectors are copies of the shared part
        (:func:`~outofgears.play.observation.shared_vector`, with
        :func:`~outofgears.play.observation.own_slots` the one definition of the layout) with each
        agent's own slots set; what the agents add and may play is looked up once per set of
        upgrade cards held (:class:`_Seats`).
        """
        state = self.state
        assert state is not None
        seats = self._seats_of(state)
        self._legal = seats.legal
        base = np.frombuffer(shared_vector(state, self._revealed, cache=self._cache), np.float32)
        out: dict[str, ObsDict] = {}
        for name, own, mask in zip(seats.names, seats.own, seats.masks, strict=True):
            vector = base.copy()
            for slot in own:
                vector[slot] = 1.0
            out[name] = {"observation": vector, "action_mask": mask.copy()}
        return out

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
        legal = {}
        masks = []
        for player in state.players:
            moves = () if done else legal_moves(state, player.name)
            mask = np.zeros(self._actions, dtype=np.int8)
            mask[list(moves)] = 1
            legal[player.name] = frozenset(moves)
            masks.append(mask)
        return _Seats(
            names=tuple(player.name for player in state.players),
            own=tuple(own_slots(player.robots, player.upgrade) for player in state.players),
            legal=legal,
            masks=tuple(masks),
        )

    def render(self) -> str | None:
        """The table in words (``render_mode="ansi"``)."""
        if self.render_mode is None or self.state is None:
            return None
        return "\n".join(
            observe(self.state, agent).to_string() for agent in self.possible_agents[:1]
        )

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(
    robots: int = 4,
    *,
    two_robots: bool = False,
    upgrades: bool = False,
    turn_cap: int = 100,
    render_mode: str | None = None,
) -> OutOfGearsParallelEnv:
    """The game as a PettingZoo ``ParallelEnv``: ``robots`` robots, one agent per player.

    >>> env = parallel_env(robots=3)
    >>> observations, infos = env.reset(seed=1)
    >>> env.agents, observations["P1"]["observation"].shape, int(observations["P1"]["action_mask"].sum())
    (['P1', 'P2', 'P3'], (515,), 9)
    """
    return OutOfGearsParallelEnv(
        robots, two_robots=two_robots, upgrades=upgrades, turn_cap=turn_cap, render_mode=render_mode
    )
