"""Out of Gears as an OpenSpiel game (the extra ``outofgears[openspiel]``).

Importing this module registers the game ``python_out_of_gears`` with ``pyspiel``: a
simultaneous-move game of ``robots`` players (one robot each), whose actions are the program
numbers of :mod:`outofgears.play.actions`. The deal comes from the ``seed`` parameter, so the game
has no chance nodes; what a player cannot see (the reserve's order, the others' upgrade cards)
makes it a game of imperfect information, and each player's observation is its
:class:`~outofgears.play.observation.Observation` (tensor: :meth:`to_vector
<outofgears.play.observation.Observation.to_vector>`, string: :meth:`to_string
<outofgears.play.observation.Observation.to_string>`). The returns are the win shares (constant sum
1); a game not over after ``turn_cap`` turns is cut off and scored as it stands (ruling
R-TURN-CAP).

Parameters, in the game string: ``robots`` (2-8, default 4), ``seed`` (default 0), ``upgrades``
(default false), ``turn_cap`` (default 100) and ``two_robots`` (default false), as in
``pyspiel.load_game("python_out_of_gears(robots=3,seed=7)")``. With ``two_robots=true`` (4, 6 or 8
robots) it is the two-robot variant: ``robots / 2`` players, player ``j`` controlling robots ``j``
and ``j + robots / 2`` (VAR-1), each action a joint action of both robots
(:func:`~outofgears.play.actions.joint_action_id`), the legal ones respecting VAR-2.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from outofgears.log.serialization import state_to_dict
from outofgears.play.actions import num_actions, num_joint_actions, programs_of_move
from outofgears.play.game import is_terminal, returns
from outofgears.play.observation import legal_moves, observation_size, observe
from outofgears.rules.model import GameState, Options
from outofgears.rules.programs import AnyProgram
from outofgears.rules.setup import setup_seated_game
from outofgears.rules.turn import apply_turn

_DEFAULT_PARAMS: dict[str, Any] = {
    "robots": 4,
    "seed": 0,
    "upgrades": False,
    "turn_cap": 100,
    "two_robots": False,
}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_out_of_gears",
    long_name="Python Out of Gears",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULT_PARAMS,
)


class OutOfGearsGame(pyspiel.Game):  # type: ignore[misc]
    """The game; ``pyspiel.load_game("python_out_of_gears(...)")`` builds it."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULT_PARAMS, **(params or {})}
        robots = int(params["robots"])
        if not 2 <= robots <= 8:
            raise ValueError(f"a game has 2 to 8 robots, not {robots}")
        self.two_robots = bool(params["two_robots"])
        if self.two_robots and robots not in (4, 6, 8):
            raise ValueError(f"the two-robot variant has 4, 6 or 8 robots, not {robots}")
        self.robots = robots
        self.seed = int(params["seed"])
        self.options = Options(upgrades=bool(params["upgrades"]))
        self.turn_cap = int(params["turn_cap"])
        super().__init__(
            _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=(
                    num_joint_actions(self.options)
                    if self.two_robots
                    else num_actions(self.options)
                ),
                max_chance_outcomes=0,
                num_players=robots // 2 if self.two_robots else robots,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=1.0,
                max_game_length=self.turn_cap,
            ),
            params,
        )

    def new_initial_state(self) -> OutOfGearsState:
        """The deal of the ``seed`` parameter."""
        return OutOfGearsState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> OutOfGearsObserver:
        """The observer of a player: its :class:`~outofgears.play.observation.Observation`."""
        return OutOfGearsObserver(params)


class OutOfGearsState(pyspiel.State):  # type: ignore[misc]
    """A position of the game, with the programs revealed on the last turn."""

    def __init__(self, game: OutOfGearsGame) -> None:
        super().__init__(game)
        self.turn_cap = game.turn_cap
        self.state: GameState = setup_seated_game(
            game.robots, two_robots=game.two_robots, seed=game.seed, options=game.options
        )
        self.names = [player.name for player in self.state.players]
        self.revealed: dict[int, AnyProgram] | None = None

    def current_player(self) -> int:
        """Every player moves at once, until the game is over or cut off."""
        if is_terminal(self.state, self.turn_cap):
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def _legal_actions(self, player: int) -> list[int]:
        return list(legal_moves(self.state, self.names[player]))

    def _apply_actions(self, actions: list[int]) -> None:
        programs: dict[int, AnyProgram] = {}
        for player, action in enumerate(actions):
            programs.update(programs_of_move(self.state, self.names[player], int(action)))
        self.state = apply_turn(self.state, programs)
        self.revealed = programs

    def _action_to_string(self, player: int, action: int) -> str:
        moves = programs_of_move(self.state, self.names[player], int(action))
        laid = ", ".join(f"robot {robot} {program}" for robot, program in moves.items())
        return f"{self.names[player]}: {laid}"

    def is_terminal(self) -> bool:
        """Whether the game is over (END-1) or cut off at the turn cap."""
        return is_terminal(self.state, self.turn_cap)

    def returns(self) -> list[float]:
        """The win shares, in player order; 0 before the end."""
        shares = returns(self.state, turn_cap=self.turn_cap)
        return [shares[name] for name in self.names]

    def __str__(self) -> str:
        return repr(state_to_dict(self.state))


class OutOfGearsObserver:
    """A player's observation, as OpenSpiel's Python observers give it."""

    def __init__(self, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params!r}")
        self.tensor = np.zeros(observation_size(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: OutOfGearsState, player: int) -> None:
        """Fill :attr:`tensor` with the player's observation vector."""
        seen = observe(state.state, state.names[player], revealed=state.revealed)
        self.tensor[:] = seen.to_vector()

    def string_from(self, state: OutOfGearsState, player: int) -> str:
        """The player's observation in words."""
        return observe(state.state, state.names[player], revealed=state.revealed).to_string()


pyspiel.register_game(_GAME_TYPE, OutOfGearsGame)
