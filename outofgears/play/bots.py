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
  its own statistics (decoupled UCT for simultaneous moves) or, in half the iterations, the
  others by a forecast of one-turn-ahead players, and each is credited with its point margin
  after the turn.

* :class:`LookaheadBot` is :class:`GreedyBot` on the point margin: its points less the best
  of the others'.
* :class:`~outofgears.play.learned.LearnedBot` draws its move from a small neural policy
  trained by self-play (:mod:`outofgears.play.learned`): under a millisecond a move, and it
  mixes its moves, which leaves a learner studying it little to take.

:func:`make_bot` builds them from the command line's specs: ``random``, ``greedy``,
``lookahead``, ``mcts``, ``learned``; ``greedy:16`` or ``mcts:400`` set the samples or iterations;
``module:Class`` or an entry point of the group ``outofgears.bots`` name any other bot.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from attrs import define, field, frozen

from outofgears.errors import ArgumentTypeError, GameOverError, InvalidStateError, printable
from outofgears.play.actions import action_id, expect_rng, joint_action_id, programs_of_move
from outofgears.play.game import check_turn_cap, is_terminal, returns
from outofgears.play.observation import Observation, ObservationCache
from outofgears.play.policies import random_programs
from outofgears.rules.model import GameState, Player, UpgradeCard
from outofgears.rules.programs import Action, AnyProgram, Program, UpgradeProgram
from outofgears.rules.scoring import player_scores
from outofgears.rules.turn import apply_turn, turn_scores


class Bot(Protocol):
    """What a bot does: choose a legal move from what its player may know."""

    def act(self, observation: Observation, rng: random.Random) -> int:
        """One of ``observation.legal_actions()``."""
        ...


class RandomBot:
    """A legal move drawn uniformly.

    >>> from outofgears.rules.setup import setup_game
    >>> from outofgears.play.observation import observe
    >>> observation = observe(setup_game([2, 5], seed=1), "P2")
    >>> RandomBot().act(observation, random.Random(0)) in observation.legal_actions()
    True
    """

    name = "random"

    def act(self, observation: Observation, rng: random.Random) -> int:
        """A legal move drawn uniformly."""
        moves = _moves_to_choose(observation, rng)
        return rng.choice(moves)


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
    >>> from outofgears.play.observation import observe
    >>> observation = observe(setup_game([1, 2, 3], seed=1), "P1")
    >>> GreedyBot(samples=4).act(observation, random.Random(0)) in observation.legal_actions()
    True
    """

    samples: int = field(default=8, validator=lambda _, a, v: _check_count(a.name, v))
    name = "greedy"

    def act(self, observation: Observation, rng: random.Random) -> int:
        """The move of highest mean points over :attr:`samples` random continuations."""
        return _best_after_one_turn(observation, rng, self.samples, _own_points)


@define
class LookaheadBot:
    """The move with the best expected point margin after this turn, against random opponents.

    As :class:`GreedyBot`, but a move is worth the player's points minus the best points of
    the other players after the turn: it also counts what a move takes from the others.

    Args:
        samples: Positions drawn from the observation, each with random programs of the
            other players; every move is tried on the same ones. Ties are broken at random.

    >>> from outofgears.rules.setup import setup_game
    >>> from outofgears.play.observation import observe
    >>> observation = observe(setup_game([1, 2, 3], seed=1), "P1")
    >>> LookaheadBot(samples=4).act(observation, random.Random(0)) in observation.legal_actions()
    True
    """

    samples: int = field(default=8, validator=lambda _, a, v: _check_count(a.name, v))
    name = "lookahead"

    def act(self, observation: Observation, rng: random.Random) -> int:
        """The move of highest mean margin over :attr:`samples` random continuations."""
        return _best_after_one_turn(observation, rng, self.samples, _margin)


def _check_count(name: str, value: object, least: int = 1) -> None:
    if type(value) is not int:
        raise ArgumentTypeError(name, "a whole number (int)", value)
    if value < least:
        raise InvalidStateError(f"{name} is a whole number, {least} or more, not {value}")


def _own_points(state: GameState, player: str) -> float:
    return float(_points(state, player))


def _margin(state: GameState, player: str) -> float:
    """The player's points less the best points of the others."""
    mine = 0
    best = 0
    for score in player_scores(state):
        if score.player == player:
            mine = score.points
        else:
            best = max(best, score.points)
    return float(mine - best)


def _best_after_one_turn(
    observation: Observation,
    rng: random.Random,
    samples: int,
    value: Callable[[GameState, str], float],
) -> int:
    """The legal move of highest mean ``value`` after this turn, on ``samples`` positions
    drawn from the observation with random programs of the others; ties broken at random."""
    moves = _moves_to_choose(observation, rng)
    totals = dict.fromkeys(moves, 0.0)
    for _ in range(samples):
        state = observation.sample_state(rng)
        others = random_programs(state, rng)
        for move in moves:
            programs = dict(others)
            programs.update(programs_of_move(state, observation.player, move))
            totals[move] += value(apply_turn(state, programs), observation.player)
    best = max(totals.values())
    return rng.choice([move for move in moves if totals[move] == best])


def _moves_to_choose(observation: object, rng: object) -> list[int]:
    """The observation's legal moves; a typed error for anything else or a finished game."""
    expect_rng(rng)
    if not isinstance(observation, Observation):
        raise ArgumentTypeError("observation", "an Observation (see observe)", observation)
    moves = observation.legal_actions()
    if not moves:
        raise GameOverError(observation.turn)
    return moves


@define
class MCTSBot:
    """Information-set Monte Carlo search with decoupled UCB1 over the players' moves.

    Every iteration draws a position consistent with the observation (what the player
    cannot see drawn afresh, :meth:`Observation.sample_state
    <outofgears.play.observation.Observation.sample_state>`, as
    :func:`~outofgears.play.game.resample_hidden` does), with the upgrade cards already seen
    laid kept out of the others' hands. *Every* player then picks its move by UCB1 on its own
    statistics (decoupled UCT for simultaneous moves; a player's moves are those legal in the
    drawn position), the turn is played, then ``rollout`` turns of the random policy, and each
    player is credited with its point margin: its points less the best of the others'.

    With the default ``rollout=0`` the margins after the turn depend only on the programs
    laid: not on the reserve's order (only exploration, at the end of the turn, draws from
    it, EXP-1; the dumps do not score, END-2), nor on the upgrade cards held and not laid
    (they decide only which moves are legal). So the reserve is not shuffled, and each
    distinct turn (every player's move) is played once, its margins remembered for the
    iterations that draw it again. That is the same search as drawing and playing every turn
    afresh, at about a third of the time in 3-robot games.

    The other players' choices start from what they revealed before: each of their moves
    starts with ``prior`` visits at the mean margin, shared out by how often that player laid
    the move's action card (attack, trap, harvest) in the game so far, so a player who always
    harvests is searched as one who probably harvests again.

    The others are also expected to look one turn ahead (``foresight``): before the search,
    each other player's moves are valued on ``foresight`` drawn positions as
    :class:`LookaheadBot` and :class:`GreedyBot` value them (mean margin, mean points, against
    random programs), and in half the iterations that player plays a move drawn from that
    forecast (the best moves by either measure, a tenth of the weight spread over all) instead
    of its UCB1 choice. The bot's own UCB1 then answers a mixture of one-turn-ahead players and
    players searching as it does. The move played is the bot's most visited one.

    The bot remembers what it saw in a game (the programs revealed, the cards laid); a new
    game (a turn earlier than the last seen) starts afresh.

    What it is, then: a search of *this turn* alone (with the default ``rollout=0`` nothing
    after the turn is played; the margins are read at once), against others who are assumed
    to be one-turn-ahead players half the time and its own kind of searcher the other half,
    their action cards weighted by how they played so far. The forecast values each other
    player's moves against random programs of everyone else, the bot included: the others
    are assumed to expect nothing in particular of the bot. It is no equilibrium and no
    model of a player who plans for later turns. That is why it beats
    :class:`GreedyBot` and :class:`LookaheadBot` by so much (they are the players it
    expects), and why a learner that plays otherwise exploits it: against a player who does
    not take the obvious points it keeps guarding against moves that do not come (issue 36
    measured traps in about 70% of its moves, and a learner trained briefly against it
    taking far more than its share; "Writing a bot" has the exploitability table).

    Args:
        iterations: Positions drawn per move.
        exploration: The UCB1 constant, in points of margin.
        rollout: Random turns played after the searched one before the margins are read.
        prior: Visits of the prior from the revealed history (0 for none).
        foresight: Positions on which each other player's move is forecast (0: no forecast,
            the others searched by UCB1 alone); fewer in big games, the forecast playing
            about :attr:`iterations` turns at most.

    >>> from outofgears.rules.setup import setup_game
    >>> from outofgears.play.observation import observe
    >>> observation = observe(setup_game([1, 2], seed=1), "P1")
    >>> MCTSBot(iterations=20).act(observation, random.Random(0)) in observation.legal_actions()
    True
    """

    iterations: int = field(default=400, validator=lambda _, a, v: _check_count(a.name, v))
    exploration: float = 2.0
    rollout: int = field(default=0, validator=lambda _, a, v: _check_count(a.name, v, least=0))
    prior: float = 4.0
    foresight: int = field(default=8, validator=lambda _, a, v: _check_count(a.name, v, least=0))
    _memory: _Memory = field(factory=lambda: _Memory(), init=False, repr=False, eq=False)
    name = "mcts"

    def act(self, observation: Observation, rng: random.Random) -> int:
        """The bot's most visited move after :attr:`iterations` iterations."""
        moves = _moves_to_choose(observation, rng)
        memory = self._memory
        memory.see(observation)
        if len(moves) == 1:
            return moves[0]
        turns = _Turns(observation, tuple(memory.cards))
        models = _foreseen(turns, rng, self.foresight, self.iterations) if self.foresight else {}
        names = [name for name, _, _ in observation.public.players]
        forecasts = [models.get(name) for name in names]
        # Each player's statistics, by seat (see _visit).
        stats: list[dict[int, list[float]] | None] = [None] * len(names)
        rollout = self.rollout
        for iteration in range(self.iterations):
            if rollout:
                state = observation.sample_state(rng, seen_upgrades=turns.seen_upgrades)
            else:
                state = turns.position(rng)
            log_total = math.log(iteration + 1)
            chosen: list[int] = []
            for seat, player in enumerate(state.players):
                legal = turns.legal(state, player)
                mine = stats[seat]
                if mine is None:
                    mine = stats[seat] = self._start(memory, player.name, legal, state)
                model = forecasts[seat]
                if model is not None and rng.random() < _FORECAST_SHARE:
                    move = rng.choices(model[0], cum_weights=model[1])[0]
                    if move not in legal:
                        move = rng.choice(legal)
                else:
                    move = self._select(mine, legal, log_total, rng)
                chosen.append(move)
            joint = tuple(chosen)
            if rollout:
                margins = self._rolled_out(turns, state, joint, rng)
            else:
                margins = turns.outcome(state, joint)[1]
            for seat, move in enumerate(joint):
                _visit(stats[seat], move, margins[seat])  # type: ignore[arg-type]
        mine = stats[names.index(observation.player)] or {}
        return max(moves, key=lambda move: mine.get(move, [0.0, 0.0])[0])

    def _rolled_out(
        self, turns: _Turns, state: GameState, joint: tuple[int, ...], rng: random.Random
    ) -> tuple[float, ...]:
        """The margins by seat after the turn of ``joint`` and :attr:`rollout` random turns."""
        state = apply_turn(state, turns.programs(state, joint))
        for _ in range(self.rollout):
            if state.game_over:
                break
            state = apply_turn(state, random_programs(state, rng))
        return _margins_of(_points_by_seat(state))

    def _start(
        self, memory: _Memory, player: str, legal: Sequence[int], state: GameState
    ) -> dict[int, list[float]]:
        """A player's statistics before the search: empty for the bot's own player; for the
        others, :attr:`prior` visits shared out by the action cards they laid so far."""
        laid = memory.laid.get(player)
        if not laid or self.prior <= 0:
            return {}
        total = sum(laid.values()) + len(_ACTION_CARDS)
        stats: dict[int, list[float]] = {}
        for move in legal:
            cards = [
                program.action
                for program in programs_of_move(state, player, move).values()
                if isinstance(program, Program)
            ]
            if not cards:
                continue
            share = sum((laid.get(card, 0) + 1) / total for card in cards) / len(cards)
            visits = self.prior * share * len(_ACTION_CARDS)
            stats[move] = [visits, 0.0, 0.0, 1 / math.sqrt(visits)]
        return stats

    def _select(
        self,
        stats: dict[int, list[float]],
        legal: Sequence[int],
        log_total: float,
        rng: random.Random,
    ) -> int:
        """A move never tried at random, else the first of highest UCB1 value."""
        untried = [move for move in legal if move not in stats]
        if untried:
            return rng.choice(untried)
        scale = self.exploration * math.sqrt(log_total)
        chosen = legal[0]
        best = -math.inf
        for move in legal:
            record = stats[move]
            value = record[2] + scale * record[3]
            if value > best:
                best = value
                chosen = move
        return chosen


def _visit(stats: dict[int, list[float]], move: int, margin: float) -> None:
    """Count a visit of ``move`` worth ``margin`` in a player's statistics: each move's
    ``[visits, total margin, mean margin, 1 / sqrt(visits)]`` (what UCB1 reads)."""
    record = stats.get(move)
    if record is None:
        stats[move] = [1.0, margin, margin, 1.0]
        return
    visits = record[0] + 1
    total = record[1] + margin
    record[0] = visits
    record[1] = total
    record[2] = total / visits
    record[3] = 1 / math.sqrt(visits)


_ACTION_CARDS: tuple[Action, ...] = (Action.ATTACK, Action.TRAP, Action.HARVEST)
#: The share of the iterations in which another player plays its forecast move.
_FORECAST_SHARE = 0.5


def _foreseen(
    turns: _Turns, rng: random.Random, samples: int, budget: int
) -> dict[str, tuple[list[int], list[float]]]:
    """What each other player is expected to play, as moves and cumulative weights: half the
    weight on the moves of best mean margin after this turn, half on those of best mean
    points (as :class:`LookaheadBot` and :class:`GreedyBot` play), on ``samples`` positions
    drawn from the observation with random programs of the others; a tenth spread over all
    its moves. Fewer positions when the next would take the turns played past ``budget``
    (big games, joint moves), never none."""
    observer = turns.observation.player
    margins: dict[str, dict[int, float]] = {}
    points: dict[str, dict[int, float]] = {}
    tried: dict[str, dict[int, int]] = {}  # on how many positions a move was legal
    played = 0  # turns
    for drawn in range(samples):
        if drawn and played + played // drawn > budget:
            break
        state = turns.position(rng)
        others = turns.joint_of(state, random_programs(state, rng))
        for seat, player in enumerate(state.players):
            name = player.name
            if name == observer:
                continue
            margin = margins.setdefault(name, {})
            own = points.setdefault(name, {})
            count = tried.setdefault(name, {})
            before, after = others[:seat], others[seat + 1 :]
            for move in turns.legal(state, player):
                scored, margined = turns.outcome(state, (*before, move, *after))
                margin[move] = margin.get(move, 0.0) + margined[seat]
                own[move] = own.get(move, 0.0) + scored[seat]
                count[move] = count.get(move, 0) + 1
                played += 1
    models = {}
    for name, margin in margins.items():
        moves = sorted(margin)
        weights = dict.fromkeys(moves, 0.1 / len(moves))
        count = tried[name]
        for totals in (margin, points[name]):
            means = {move: totals[move] / count[move] for move in moves}
            best = max(means.values())
            top = [move for move in moves if means[move] == best]
            for move in top:
                weights[move] += 0.45 / len(top)
        models[name] = (moves, list(itertools.accumulate(weights[move] for move in moves)))
    return models


class _Turns:
    """The turns one search plays, each played once.

    With the default ``rollout=0`` the search reads only the points after the turn, and those
    depend only on the programs laid: not on the reserve's order, as only exploration draws
    from the reserve, at the end of the turn (EXP-1), and the scores do not count the dumps
    (END-2); not on the upgrade cards held and not laid, which decide only which programs are
    legal (UPG-2, UPG-3). So a drawn position only deals the hidden cards, which decide the
    others' legal moves (:meth:`Observation.sample_state
    <outofgears.play.observation.Observation.sample_state>` with ``shuffle_reserve=False``;
    when no other player holds one, one position serves the whole search), and each turn
    (every player's move, a card laid among them) is played by the rules the first time it
    is drawn, its scores read off the turn's table
    (:func:`~outofgears.rules.turn.turn_scores`), its points remembered. The tests hold the
    points to neither the reserve's order nor the cards not laid mattering
    (``tests/test_bots.py``).
    """

    __slots__ = (
        "_cache",
        "_fixed",
        "_legal",
        "_outcomes",
        "_programs",
        "hidden",
        "observation",
        "seen_upgrades",
    )

    def __init__(self, observation: Observation, seen_upgrades: tuple[UpgradeCard, ...]) -> None:
        self.observation = observation
        self.seen_upgrades = seen_upgrades
        #: Whether another player holds an upgrade card, dealt again in every position.
        self.hidden = any(
            holds for name, _, holds in observation.public.players if name != observation.player
        )
        self._fixed: GameState | None = None
        self._cache = ObservationCache()
        self._legal: dict[tuple[str, UpgradeCard | None], tuple[int, ...]] = {}
        self._outcomes: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[float, ...]]] = {}
        self._programs: dict[tuple[str, int], dict[int, AnyProgram]] = {}

    def position(self, rng: random.Random) -> GameState:
        """A position consistent with the observation, the reserve left unshuffled."""
        fixed = self._fixed
        if fixed is None or self.hidden:
            fixed = self._fixed = self.observation.sample_state(
                rng, seen_upgrades=self.seen_upgrades, shuffle_reserve=False
            )
        return fixed

    def legal(self, state: GameState, player: Player) -> tuple[int, ...]:
        """A player's legal moves, which depend only on its seat and the card it holds (the
        seats are the same in every position drawn)."""
        key = (player.name, player.upgrade)
        legal = self._legal.get(key)
        if legal is None:
            legal = self._legal[key] = self._cache.legal_moves(state, player.name)
        return legal

    def programs(self, state: GameState, joint: Sequence[int]) -> dict[int, AnyProgram]:
        """The programs of every robot for the players' moves, in seat order."""
        programs: dict[int, AnyProgram] = {}
        known = self._programs
        for player, move in zip(state.players, joint, strict=True):
            part = known.get((player.name, move))
            if part is None:
                part = known[player.name, move] = programs_of_move(state, player.name, move)
            programs.update(part)
        return programs

    def joint_of(self, state: GameState, programs: Mapping[int, AnyProgram]) -> tuple[int, ...]:
        """The players' moves, in seat order, that lay ``programs``."""
        options = state.options
        return tuple(
            action_id(programs[player.robots[0]])
            if len(player.robots) == 1
            else joint_action_id(programs[player.robots[0]], programs[player.robots[1]], options)
            for player in state.players
        )

    def outcome(
        self, state: GameState, joint: tuple[int, ...]
    ) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Every player's points and margin after the turn of ``joint``, in seat order."""
        found = self._outcomes.get(joint)
        if found is None:
            scores = turn_scores(state, self.programs(state, joint))
            points = tuple(score.points for score in scores)
            found = self._outcomes[joint] = (points, _margins_of(points))
        return found


def _points_by_seat(state: GameState) -> tuple[int, ...]:
    """Every player's points (END-2, VAR-3), in seat order."""
    by_name = {score.player: score.points for score in player_scores(state)}
    return tuple(by_name[player.name] for player in state.players)


def _margins_of(points: Sequence[int]) -> tuple[float, ...]:
    """Every player's points less the best of the others' (its points for a player alone)."""
    if len(points) < 2:
        return tuple(map(float, points))
    best, second = sorted(points, reverse=True)[:2]
    return tuple(float(mine - (second if mine == best else best)) for mine in points)


@define
class _Memory:
    """What a bot saw in the game it plays: the last turn seen, the action cards each player
    laid, and the upgrade cards laid (out of every hand)."""

    turn: int = 0
    laid: dict[str, Counter[Action]] = field(factory=dict)
    cards: list[UpgradeCard] = field(factory=list)

    def see(self, observation: Observation) -> None:
        if observation.turn <= self.turn:
            self.laid.clear()
            self.cards.clear()
        self.turn = observation.turn
        revealed = observation.revealed
        if not revealed:
            return
        owner = {
            number: name for name, robots, _ in observation.public.players for number in robots
        }
        for robot, program in revealed.items():
            if isinstance(program, UpgradeProgram):
                self.cards.append(program.card)
            elif owner[robot] != observation.player:
                self.laid.setdefault(owner[robot], Counter())[program.action] += 1


@frozen
class BotKind:
    """A built-in bot: how to build it, and the bounds of its number.

    Args:
        build: The bot, given its number (``None`` for the default).
        number: What the number after ``:`` sets, or ``None`` if the bot takes none.
        most: The largest number accepted (a move then takes a few seconds at most).
    """

    build: Callable[[int | None], Bot]
    number: str | None = None
    most: int = 0


#: The built-in bots by name: ``random``, ``greedy``, ``lookahead``, ``mcts``, ``learned``.
BOTS: Mapping[str, BotKind] = {
    "random": BotKind(lambda _: RandomBot()),
    "greedy": BotKind(
        lambda n: GreedyBot() if n is None else GreedyBot(samples=n), "samples", 2_000
    ),
    "lookahead": BotKind(
        lambda n: LookaheadBot() if n is None else LookaheadBot(samples=n), "samples", 2_000
    ),
    "mcts": BotKind(
        lambda n: MCTSBot() if n is None else MCTSBot(iterations=n), "iterations", 20_000
    ),
    "learned": BotKind(lambda _: _learned_bot()),
}


def _learned_bot() -> Bot:
    from outofgears.play.learned import LearnedBot  # it builds on this module

    return LearnedBot()


#: The entry-point group where installed packages name their bots: ``name = "module:Class"``.
ENTRY_POINT_GROUP = "outofgears.bots"


def make_bot(spec: str | Callable[[], Bot]) -> Bot:
    """A bot from its spec, or from a class (any callable) that builds one with no argument.

    * a built-in bot, with an optional number: ``"random"``, ``"greedy:16"``,
      ``"lookahead:8"``, ``"mcts:400"`` (:data:`BOTS` gives what the number sets and its
      bounds);
    * ``"module:Class"``: a class (or any callable) importable from ``module``, called with
      no arguments;
    * the name of an entry point of the group :data:`ENTRY_POINT_GROUP` (``outofgears.bots``),
      which names such a class.

    or a class (any callable) given itself, such as a class of the calling program. The result
    must have an ``act`` method. Anything else raises :class:`InvalidStateError`
    (:class:`~outofgears.errors.ArgumentTypeError` for a spec that is neither a string nor
    callable).

    >>> make_bot("mcts:50")
    MCTSBot(iterations=50, exploration=2.0, rollout=0, prior=4.0, foresight=8)
    >>> make_bot("outofgears.play.bots:RandomBot").name
    'random'
    >>> make_bot("chess")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: unknown bot 'chess' (known: greedy, learned, lookahead, mcts, random, or module:Class, or an entry point of the group outofgears.bots)
    >>> make_bot("random:3")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: bot 'random:3': random takes no number
    """
    if type(spec) is not str:
        if callable(spec):
            return _checked(bot_name(spec), spec)
        raise ArgumentTypeError("spec", "a bot spec (str) or a class of bots", spec)
    name, colon, number = spec.partition(":")
    kind = BOTS.get(name)
    if kind is not None:
        return kind.build(_number_of(spec, name, kind) if colon else None)
    if colon:
        return _checked(spec, _imported(spec, name, number))
    found = _entry_point(name)
    if found is None:
        raise InvalidStateError(
            f"unknown bot {printable(repr(spec))} (known: {', '.join(sorted(BOTS))}, "
            f"or module:Class, or an entry point of the group {ENTRY_POINT_GROUP})"
        )
    return _checked(spec, found)


def bot_name(source: str | Callable[[], Bot]) -> str:
    """How a bot is named in reports: its spec, or the name of the class that builds it.

    >>> bot_name("greedy:4"), bot_name(RandomBot)
    ('greedy:4', 'RandomBot')
    """
    if isinstance(source, str):
        return source
    return str(getattr(source, "__qualname__", None) or getattr(source, "__name__", source))


def _number_of(spec: str, name: str, kind: BotKind) -> int:
    number = spec.partition(":")[2]
    if kind.number is None:
        raise InvalidStateError(f"bot {printable(repr(spec))}: {name} takes no number")
    if not (number.isascii() and number.isdigit() and 0 < int(number) <= kind.most):
        raise InvalidStateError(
            f"bot {printable(repr(spec))}: the number after ':' ({kind.number}) is a whole "
            f"number from 1 to {kind.most:,}"
        )
    return int(number)


def _imported(spec: str, module: str, attribute: str) -> object:
    import importlib

    if not module or not attribute.isidentifier():
        raise InvalidStateError(
            f"bot {printable(repr(spec))}: a bot is a known name, name:number or module:Class"
        )
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise InvalidStateError(
            f"bot {printable(repr(spec))}: module {printable(module)} cannot be imported "
            f"({type(error).__name__}: {printable(str(error))}; a module of the current "
            "directory needs PYTHONPATH=.)"
        ) from error
    except (Exception, SystemExit) as error:
        raise InvalidStateError(
            f"bot {printable(repr(spec))}: module {printable(module)} cannot be imported "
            f"({_why(error)})"
        ) from error
    if not hasattr(found, attribute):
        raise InvalidStateError(
            f"bot {printable(repr(spec))}: module {printable(module)} has no {attribute}"
        )
    return getattr(found, attribute)


def _why(error: BaseException) -> str:
    """An error's kind and message, in one line: ``SystemExit: 3``, ``SystemExit``."""
    said = printable(str(error))
    return f"{type(error).__name__}: {said}" if said else type(error).__name__


def _entry_point(name: str) -> object | None:
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name == name:
            try:
                loaded: object = point.load()
            except (Exception, SystemExit) as error:
                raise InvalidStateError(
                    f"bot {printable(repr(name))}: its entry point {point.value} cannot be "
                    f"loaded ({_why(error)})"
                ) from error
            return loaded
    return None


def _checked(spec: str, factory: object) -> Bot:
    if not callable(factory):
        raise InvalidStateError(f"bot {printable(repr(spec))}: {factory!r} cannot be called")
    try:
        bot = factory()
    except (Exception, SystemExit) as error:  # sys:exit is a callable too
        raise InvalidStateError(
            f"bot {printable(repr(spec))}: building it failed ({_why(error)})"
        ) from error
    if not callable(getattr(bot, "act", None)):
        raise InvalidStateError(f"bot {printable(repr(spec))}: it has no act(observation, rng)")
    return bot  # type: ignore[no-any-return]


@frozen
class MatchResult:
    """A game played by bots (:func:`play_match`).

    Args:
        final: The last position.
        turns: The turns played.
        returns: Every player's win share (ruling R-TURN-CAP for a game cut off).
        points: Every player's points.
        cut_off: Whether the game reached the turn cap without ending.
        seconds: Every player's bot's thinking time over the match (wall clock, seconds).
    """

    final: GameState
    turns: int
    returns: dict[str, float]
    points: dict[str, float]
    cut_off: bool
    seconds: dict[str, float] = field(factory=dict, eq=False)


def play_match(
    state: GameState,
    bots: Mapping[str, Bot],
    rng: random.Random,
    *,
    turn_cap: int | None = 100,
) -> MatchResult:
    """Play a game to its end, or to ``turn_cap``, each player moved by its bot.

    Each bot sees only its player's observation (with the programs revealed on the turn
    before), and its move is turned into programs and played by :func:`apply_turn`. The
    caches of the observations (:class:`~outofgears.play.observation.ObservationCache`) belong
    to the match and go with it.

    Args:
        state: The position to play from (:func:`~outofgears.rules.setup.setup_game`).
        bots: ``player name -> bot``, one for every player of ``state``
            (``"P1"``, ``"P2"``, ... when ``setup_game`` named them).
        rng: The random numbers of every bot's choices.
        turn_cap: The turn a game that has not ended is cut off at and scored as it stands
            (ruling R-TURN-CAP); ``None`` for none.

    Raises:
        IllegalMoveError: A bot chose a move that is not one of its legal moves (naming the
            bot's player).
        InvalidStateError: The bots are not one for each player.
        ArgumentTypeError: An argument of the wrong type.

    For many games with the bots seated in rotation, see
    :func:`~outofgears.play.tournament.play_tournament`.

    >>> from outofgears.rules.setup import setup_game
    >>> result = play_match(setup_game([1, 2, 3], seed=4),
    ...                     {"P1": GreedyBot(samples=2), "P2": RandomBot(), "P3": RandomBot()},
    ...                     random.Random(4))
    >>> sum(result.returns.values())
    1.0
    """
    _check_match(state, bots, rng, turn_cap)
    revealed: dict[int, AnyProgram] | None = None
    start = state.turn
    cache = ObservationCache()
    seconds = {player.name: 0.0 for player in state.players}
    while not is_terminal(state, turn_cap):
        programs: dict[int, AnyProgram] = {}
        for player in state.players:
            observation = cache.observe(state, player.name, revealed=revealed)
            began = time.perf_counter()
            move = bots[player.name].act(observation, rng)
            seconds[player.name] += time.perf_counter() - began
            if move not in observation.legal_actions():
                raise IllegalMoveError(player.name, move, observation.legal_actions())
            programs.update(programs_of_move(state, player.name, move))
        state = apply_turn(state, programs)
        revealed = programs
    return MatchResult(
        final=state,
        turns=state.turn - start,
        returns=returns(state, turn_cap=turn_cap),
        points=returns(state, "points", turn_cap=turn_cap),
        cut_off=not state.game_over,
        seconds=seconds,
    )


class IllegalMoveError(InvalidStateError):
    """A bot chose a move that is not one of its observation's legal moves.

    Attributes:
        player: The bot's player.
        move: The move it chose.
    """

    def __init__(self, player: str, move: object, legal: Sequence[int]) -> None:
        shown = printable(repr(move))[:40]
        super().__init__(
            f"the bot of {printable(player)} chose {shown}, not one of its {len(legal)} legal moves"
        )
        self.player = player
        self.move = move

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_illegal, (self.player, self.move, str(self)))


def _rebuild_illegal(player: str, move: object, message: str) -> IllegalMoveError:
    error = IllegalMoveError.__new__(IllegalMoveError)
    InvalidStateError.__init__(error, message)
    error.player, error.move = player, move
    return error


def _check_match(state: object, bots: object, rng: object, turn_cap: object) -> None:
    if not isinstance(state, GameState):
        raise ArgumentTypeError("state", "a GameState", state)
    if not isinstance(bots, Mapping):
        raise ArgumentTypeError("bots", "a mapping of player names to bots", bots)
    if not isinstance(rng, random.Random):
        raise ArgumentTypeError("rng", "a random.Random", rng)
    check_turn_cap(turn_cap, least=1)
    names = [player.name for player in state.players]
    missing = [name for name in names if name not in bots]
    extra = [name for name in bots if name not in names]
    if missing or extra:
        raise InvalidStateError(
            f"the bots are for {printable(', '.join(map(str, bots)))}; the players are "
            f"{printable(', '.join(names))}"
        )
    for name in names:
        if not callable(getattr(bots[name], "act", None)):
            raise ArgumentTypeError(f"bots[{name!r}]", "a bot (with act)", bots[name])


#: The public names of this module (the rest serves them).
__all__ = [
    "Bot",
    "GreedyBot",
    "IllegalMoveError",
    "LookaheadBot",
    "MCTSBot",
    "MatchResult",
    "RandomBot",
    "bot_name",
    "make_bot",
    "play_match",
]
