"""Bots: players that choose their moves from an :class:`~outofgears.play.observation.Observation`.

A bot is anything with a method ``act(observation, rng) -> int`` that returns one of
``observation.legal_actions()`` (a robot's action, or a player's joint action in the two-robot
variant; see :mod:`outofgears.play.actions`). It sees only what its player may know: the
:func:`play_match` runner hands it an observation, never the state.

* :class:`RandomBot` picks a legal move uniformly.
* :class:`GreedyBot` picks the move that maximises its expected points after this turn against
  uniformly random opponents, estimated on positions drawn from its observation.
* :class:`MCTSBot` is an information-set Monte Carlo search: each iteration draws a position
  consistent with the observation (:meth:`Observation.sample_state
  <outofgears.play.observation.Observation.sample_state>`), every player picks its move by UCB1 on
  its own statistics (decoupled UCT for simultaneous moves), and each is credited with its
  points after the turn.

:data:`BOTS` names them for the command line: ``random``, ``greedy``, ``mcts``; ``greedy:16``
or ``mcts:400`` set the samples or iterations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from attrs import define, frozen

from outofgears.errors import InvalidStateError
from outofgears.play.actions import programs_of_move
from outofgears.play.game import is_terminal, returns
from outofgears.play.observation import Observation, observe
from outofgears.play.policies import random_programs
from outofgears.rules.model import GameState
from outofgears.rules.programs import AnyProgram
from outofgears.rules.scoring import player_scores
from outofgears.rules.turn import apply_turn


class Bot(Protocol):
    """What a bot does: choose a legal move from what its player may know."""

    def act(self, observation: Observation, rng: random.Random) -> int:
        """One of ``observation.legal_actions()``."""
        ...


class RandomBot:
    """A legal move drawn uniformly.

    >>> from outofgears.rules.setup import setup_game
    >>> observation = observe(setup_game([2, 5], seed=1), "P2")
    >>> RandomBot().act(observation, random.Random(0)) in observation.legal_actions()
    True
    """

    name = "random"

    def act(self, observation: Observation, rng: random.Random) -> int:
        """A legal move drawn uniformly."""
        return rng.choice(observation.legal_actions())


def _points(state: GameState, player: str) -> int:
    for score in player_scores(state):
        if score.player == player:
            return score.points
    raise InvalidStateError(f"player {player!r} is not in the game")


@define
class GreedyBot:
    """The move with the most expected points after this turn, against random opponents.

    Args:
        samples: Positions drawn from the observation, each with random programs of the
            other players; every move is tried on the same ones. Ties are broken at random.

    >>> from outofgears.rules.setup import setup_game
    >>> observation = observe(setup_game([1, 2, 3], seed=1), "P1")
    >>> GreedyBot(samples=4).act(observation, random.Random(0)) in observation.legal_actions()
    True
    """

    samples: int = 8
    name = "greedy"

    def act(self, observation: Observation, rng: random.Random) -> int:
        """The move of highest mean points over :attr:`samples` random continuations."""
        moves = observation.legal_actions()
        totals = dict.fromkeys(moves, 0)
        for _ in range(self.samples):
            state = observation.sample_state(rng)
            others = random_programs(state, rng)
            for move in moves:
                programs = dict(others)
                programs.update(programs_of_move(state, observation.player, move))
                totals[move] += _points(apply_turn(state, programs), observation.player)
        best = max(totals.values())
        return rng.choice([move for move in moves if totals[move] == best])


@define
class MCTSBot:
    """Information-set Monte Carlo search with decoupled UCB1 over the players' moves.

    Every iteration draws a position consistent with the observation (what the player
    cannot see drawn afresh, :meth:`Observation.sample_state
    <outofgears.play.observation.Observation.sample_state>`, as :func:`~outofgears.play.game.resample_hidden`
    does), lets *every* player pick its move by UCB1 on its own statistics (decoupled UCT for
    simultaneous moves; a player's moves are those legal in the drawn position), plays the
    turn, then ``rollout`` turns of the random policy, and credits each player with its points
    then. The move played is the bot's most visited one. The other players are thus searched
    as players who also look for their best points, not as random ones.

    Args:
        iterations: Positions drawn per move.
        exploration: The UCB1 constant, in points.
        rollout: Random turns played after the searched one before the points are read.

    >>> from outofgears.rules.setup import setup_game
    >>> observation = observe(setup_game([1, 2], seed=1), "P1")
    >>> MCTSBot(iterations=20).act(observation, random.Random(0)) in observation.legal_actions()
    True
    """

    iterations: int = 400
    exploration: float = 2.0
    rollout: int = 0
    name = "mcts"

    def act(self, observation: Observation, rng: random.Random) -> int:
        """The bot's most visited move after :attr:`iterations` iterations."""
        moves = observation.legal_actions()
        if len(moves) == 1:
            return moves[0]
        stats: dict[str, dict[int, list[float]]] = {}
        for iteration in range(self.iterations):
            state = observation.sample_state(rng)
            programs: dict[int, AnyProgram] = {}
            chosen: dict[str, int] = {}
            log_total = math.log(iteration + 1)
            for player in state.players:
                legal = observe(state, player.name).legal_actions()
                mine = stats.setdefault(player.name, {})
                move = self._select(mine, legal, log_total, rng)
                chosen[player.name] = move
                programs.update(programs_of_move(state, player.name, move))
            state = apply_turn(state, programs)
            for _ in range(self.rollout):
                if state.game_over:
                    break
                state = apply_turn(state, random_programs(state, rng))
            points = {score.player: score.points for score in player_scores(state)}
            for name, move in chosen.items():
                record = stats[name].setdefault(move, [0.0, 0.0])
                record[0] += 1
                record[1] += points[name]
        mine = stats[observation.player]
        return max(moves, key=lambda move: mine.get(move, [0.0, 0.0])[0])

    def _select(
        self,
        stats: dict[int, list[float]],
        legal: Sequence[int],
        log_total: float,
        rng: random.Random,
    ) -> int:
        untried = [move for move in legal if move not in stats]
        if untried:
            return rng.choice(untried)

        def ucb(move: int) -> float:
            visits, total = stats[move]
            return total / visits + self.exploration * math.sqrt(log_total / visits)

        return max(legal, key=ucb)


#: The bots by name, each a function of its optional number (samples or iterations).
BOTS: Mapping[str, Callable[[int | None], Bot]] = {
    "random": lambda _: RandomBot(),
    "greedy": lambda n: GreedyBot() if n is None else GreedyBot(samples=n),
    "mcts": lambda n: MCTSBot() if n is None else MCTSBot(iterations=n),
}


def make_bot(spec: str) -> Bot:
    """A bot from its name, with an optional number: ``"random"``, ``"greedy:16"``, ``"mcts:400"``.

    >>> make_bot("mcts:50")
    MCTSBot(iterations=50, exploration=2.0, rollout=0)
    >>> make_bot("chess")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: unknown bot 'chess' (known: greedy, mcts, random)
    """
    name, _, number = spec.partition(":")
    if name not in BOTS:
        raise InvalidStateError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})")
    if number and not (number.isascii() and number.isdigit() and int(number) > 0):
        raise InvalidStateError(f"bot {spec!r}: the number after ':' is a whole number over 0")
    return BOTS[name](int(number) if number else None)


@frozen
class MatchResult:
    """A game played by bots (:func:`play_match`).

    Args:
        final: The last position.
        turns: The turns played.
        returns: Every player's win share (ruling R-TURN-CAP for a game cut off).
        points: Every player's points.
        cut_off: Whether the game reached the turn cap without ending.
    """

    final: GameState
    turns: int
    returns: dict[str, float]
    points: dict[str, float]
    cut_off: bool


def play_match(
    state: GameState,
    bots: Mapping[str, Bot],
    rng: random.Random,
    *,
    turn_cap: int | None = 100,
) -> MatchResult:
    """Play a game to its end, or to ``turn_cap``, each player moved by its bot.

    Each bot sees only its player's observation (with the programs revealed on the turn
    before), and its move is turned into programs and played by :func:`apply_turn`.

    >>> from outofgears.rules.setup import setup_game
    >>> result = play_match(setup_game([1, 2, 3], seed=4),
    ...                     {"P1": GreedyBot(samples=2), "P2": RandomBot(), "P3": RandomBot()},
    ...                     random.Random(4))
    >>> sum(result.returns.values())
    1.0
    """
    revealed: dict[int, AnyProgram] | None = None
    start = state.turn
    while not is_terminal(state, turn_cap):
        programs: dict[int, AnyProgram] = {}
        for player in state.players:
            observation = observe(state, player.name, revealed=revealed)
            move = bots[player.name].act(observation, rng)
            programs.update(programs_of_move(state, player.name, move))
        state = apply_turn(state, programs)
        revealed = programs
    return MatchResult(
        final=state,
        turns=state.turn - start,
        returns=returns(state, turn_cap=turn_cap),
        points=returns(state, "points", turn_cap=turn_cap),
        cut_off=not state.game_over,
    )


#: The public names of this module (the rest serves them).
__all__ = [
    "Bot",
    "GreedyBot",
    "MCTSBot",
    "MatchResult",
    "RandomBot",
    "make_bot",
    "play_match",
]
