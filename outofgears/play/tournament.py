"""Tournaments: bots play each other, every bot in every seat equally often.

:func:`play_tournament` is what ``outofgears tournament`` prints, as data, with the same
seeds, so the command's figures can be reproduced (and extended) in code.

With ``K`` bots (2 to 8) each game has robots ``1..K``, one per player ``P1..PK``. Games come in
rounds of ``K``: the games of a round share one deal and rotate the bots around the seats, so
that in game ``j`` of a round (from 0) seat ``s`` is played by bot ``(s + j) mod K``
(:func:`seating`); the number of games is therefore a multiple of ``K``. Round ``r`` (from 1)
deals with the seed given by the first 8 bytes of SHA-256 of ``"outofgears-tournament S r"``
(big-endian), and game ``i`` (from 1) of the tournament seeds the bots' random choices with the
next 8 bytes of that digest plus ``i`` (:func:`round_seeds`), so the results depend only on
``S`` and the bots.

Each bot's *win share* is the mean over the games of its return (a win shared by ``k`` winners
is ``1/k``, ruling R-TURN-CAP for a game cut off at the turn cap), with its standard error
``s / sqrt(n)`` (``s`` the sample standard deviation of its returns over the ``n`` games); its
*points* are the mean of its final points; its *ms per move* is its thinking time (wall clock,
the bot's ``act`` calls only) over the moves it made.

A bot is what :func:`~outofgears.play.bots.make_bot` builds one from: a spec (a built-in name
such as ``"greedy:16"``, ``"module:Class"`` of an importable module, or an entry point of the
group ``outofgears.bots``), or a class (any callable) that builds a bot with no argument, such
as a class written in the calling program:

>>> from outofgears.play.tournament import play_tournament
>>> class FirstMove:
...     def act(self, observation, rng):
...         return observation.legal_actions()[0]
>>> result = play_tournament([FirstMove, "random"], games=4, seed=1)
>>> [standing.bot for standing in result.standings], result.games
(['FirstMove', 'random'], 4)
>>> round(sum(standing.win_share for standing in result.standings), 6)
1.0
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Final, TypeAlias

from attrs import field, frozen

from outofgears.errors import ArgumentTypeError, InvalidStateError
from outofgears.play.bots import Bot, bot_name, make_bot, play_match
from outofgears.play.game import check_turn_cap
from outofgears.rules.model import Options
from outofgears.rules.setup import setup_game

#: A bot of a tournament: a spec :func:`~outofgears.play.bots.make_bot` reads, or a callable
#: (a class) that builds one with no argument.
BotSource: TypeAlias = str | Callable[[], Bot]


#: The most games a tournament plays (the command's bound too).
MAX_GAMES: Final = 1_000_000
#: The most worker processes a tournament starts.
MAX_WORKERS: Final = 256
#: The largest seed of a tournament (a signed 64-bit number, as the command reads it).
MAX_TOURNAMENT_SEED: Final = 2**63 - 1


def round_seeds(seed: int, round_number: int) -> tuple[int, int]:
    """The deal seed and the base of the bots' seeds of round ``round_number`` (from 1).

    >>> round_seeds(7, 1) == round_seeds(7, 1), round_seeds(7, 1) == round_seeds(7, 2)
    (True, False)
    """
    _check_whole(seed, "seed", 0, MAX_TOURNAMENT_SEED)
    _check_whole(round_number, "round_number", 1, MAX_GAMES)
    digest = hashlib.sha256(f"outofgears-tournament {seed} {round_number}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big")


def seating(bots: int, game: int) -> list[int]:
    """Which bot plays each seat in game ``game`` (from 1): rotated once per game of a round.

    >>> seating(3, 1), seating(3, 2), seating(3, 3), seating(3, 4)
    ([0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2])
    """
    _check_whole(bots, "bots", 2, 8)
    _check_whole(game, "game", 1, MAX_GAMES)
    shift = (game - 1) % bots
    return [(seat + shift) % bots for seat in range(bots)]


def _check_whole(value: object, argument: str, low: int, high: int) -> None:
    if type(value) is not int or not low <= value <= high:
        raise ArgumentTypeError(argument, f"a whole number from {low} to {high:,}", value)


@frozen
class GameResult:
    """A game of a tournament, by bot (in the order the bots were given).

    Args:
        shares: Each bot's return (win share).
        points: Each bot's points.
        cut_off: Whether the game was cut off at the turn cap.
        seconds: Each bot's thinking time (wall clock; not compared).
        moves: The moves each bot made (one a turn).
    """

    shares: list[float]
    points: list[float]
    cut_off: bool
    seconds: list[float] = field(eq=False)
    moves: int


@frozen
class TournamentGame:
    """Plays game ``number`` of a tournament (picklable when its bots are, for worker
    processes).

    Args:
        bots: The bots, in the order given.
        seed: The tournament's seed.
        turn_cap: The turn a game is cut off at.
        options: The rule options.
    """

    bots: tuple[BotSource, ...]
    seed: int
    turn_cap: int
    options: Options

    def __call__(self, number: int) -> GameResult:
        """Each bot's return, points and thinking time in game ``number``, the moves each bot
        made, and whether the game was cut off."""
        count = len(self.bots)
        deal, base = round_seeds(self.seed, (number - 1) // count + 1)
        state = setup_game(list(range(1, count + 1)), seed=deal, options=self.options)
        seats = seating(count, number)
        players = [player.name for player in state.players]
        bots = {players[seat]: make_bot(self.bots[bot]) for seat, bot in enumerate(seats)}
        result = play_match(state, bots, random.Random(base + number), turn_cap=self.turn_cap)
        shares = [0.0] * count
        points = [0.0] * count
        seconds = [0.0] * count
        for seat, bot in enumerate(seats):
            shares[bot] = result.returns[players[seat]]
            points[bot] = result.points[players[seat]]
            seconds[bot] = result.seconds[players[seat]]
        return GameResult(shares, points, result.cut_off, seconds, result.turns)


@frozen
class Standing:
    """One bot's figures over a tournament.

    Args:
        bot: The bot's name (its spec, or its class's name).
        seat_order: Its place in the order the bots were given (from 1).
        win_share: The mean of its returns over the games.
        win_share_se: The standard error of that mean (``None`` for a single game).
        points: The mean of its final points.
        ms_per_move: Its thinking time per move, in milliseconds (wall clock).
    """

    bot: str
    seat_order: int
    win_share: float
    win_share_se: float | None
    points: float
    ms_per_move: float = field(eq=False)


@frozen
class TournamentResult:
    """A tournament played (:func:`play_tournament`).

    Args:
        games: The games played.
        seed: The seed of the deals and the bots.
        turn_cap: The turn a game was cut off at.
        cut_off: How many games were cut off there (scored as they stood, R-TURN-CAP).
        standings: Each bot's figures, in the order the bots were given.
    """

    games: int
    seed: int
    turn_cap: int
    cut_off: int
    standings: tuple[Standing, ...]


def mean_and_se(values: list[float]) -> tuple[float, float | None]:
    """The mean of ``values`` and its standard error (``None`` for fewer than two values).

    >>> mean, se = mean_and_se([1.0, 0.0, 0.0, 1.0])
    >>> mean, round(se, 4)
    (0.5, 0.2887)
    """
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, None
    variance = sum((value - mean) ** 2 for value in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def check_tournament(
    bots: Sequence[BotSource],
    games: int,
    seed: int = 0,
    turn_cap: int = 100,
    workers: int = 1,
    on_game: object = None,
) -> None:
    """Refuse a tournament that cannot seat its bots fairly or cannot be played: 2 to 8 bots
    that can be built, a number of games (up to :data:`MAX_GAMES`) that is a multiple of
    their number, a seed from 0 to :data:`MAX_TOURNAMENT_SEED`, a turn cap, 1 to
    :data:`MAX_WORKERS` workers and ``on_game`` ``None`` or callable.

    Raises:
        InvalidStateError: With a message naming what is wrong (an
            :class:`~outofgears.errors.ArgumentTypeError` for a value of the wrong type).
    """
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise ArgumentTypeError("bots", "a list of bots", bots)
    if not 2 <= len(bots) <= 8:
        raise InvalidStateError(f"a tournament needs 2 to 8 bots, not {len(bots)}")
    for source in bots:
        make_bot(source)
    _check_whole(games, "games", 1, MAX_GAMES)
    if games % len(bots):
        raise InvalidStateError(
            f"the games must be a multiple of the {len(bots)} bots, so that every bot plays "
            f"every seat equally; not {games}"
        )
    _check_whole(seed, "seed", 0, MAX_TOURNAMENT_SEED)
    if turn_cap is None:
        raise ArgumentTypeError("turn_cap", "a whole number of turns", turn_cap)
    check_turn_cap(turn_cap, least=1)
    _check_whole(workers, "workers", 1, MAX_WORKERS)
    if on_game is not None and not callable(on_game):
        raise ArgumentTypeError("on_game", "None or a function of a game's result", on_game)


def play_tournament(
    bots: Sequence[BotSource],
    *,
    games: int,
    seed: int,
    turn_cap: int = 100,
    options: Options | None = None,
    workers: int = 1,
    on_game: Callable[[GameResult], None] | None = None,
) -> TournamentResult:
    """Let ``bots`` play ``games`` games seated in rotation: ``outofgears tournament``'s figures.

    With the same bots, ``seed``, ``turn_cap`` and options, the figures (but the thinking
    times) are the command's, whatever the number of ``workers`` (processes; a bot built by a
    class needs a class a worker can import). ``on_game`` is called with each game's result as
    it ends, in order.

    Raises:
        InvalidStateError: 1 or more than 8 bots, a bot that cannot be built, a number of
            games that is not a multiple of the number of bots, or another argument out of
            its range (:func:`check_tournament`).
    """
    check_tournament(bots, games, seed, turn_cap, workers, on_game)
    if options is not None and not isinstance(options, Options):
        raise ArgumentTypeError("options", "an Options or None", options)
    job = TournamentGame(tuple(bots), seed, turn_cap, options or Options())
    shares: list[list[float]] = [[] for _ in bots]
    points: list[list[float]] = [[] for _ in bots]
    seconds = [0.0 for _ in bots]
    moves = 0
    cut_off = 0
    for game in _games(job, games, workers):
        for index in range(len(bots)):
            shares[index].append(game.shares[index])
            points[index].append(game.points[index])
            seconds[index] += game.seconds[index]
        moves += game.moves
        cut_off += game.cut_off
        if on_game is not None:
            on_game(game)
    standings = []
    for index, source in enumerate(bots):
        share, share_se = mean_and_se(shares[index])
        mean_points, _ = mean_and_se(points[index])
        standings.append(
            Standing(
                bot=bot_name(source),
                seat_order=index + 1,
                win_share=share,
                win_share_se=share_se,
                points=mean_points,
                ms_per_move=1000 * seconds[index] / max(1, moves),
            )
        )
    return TournamentResult(games, seed, turn_cap, cut_off, tuple(standings))


def _games(job: TournamentGame, games: int, workers: int) -> Iterator[GameResult]:
    if workers == 1:
        for number in range(1, games + 1):
            yield job(number)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(job, range(1, games + 1), chunksize=max(1, games // (workers * 8)))


#: The public names of this module (the rest serves them).
__all__ = [
    "BotSource",
    "GameResult",
    "Standing",
    "TournamentGame",
    "TournamentResult",
    "check_tournament",
    "play_tournament",
    "round_seeds",
    "seating",
]
