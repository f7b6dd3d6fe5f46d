"""``outofgears tournament``: bots play each other, every bot in every seat equally often.

With ``K`` bots (2 to 8) each game has robots ``1..K``, one per player ``P1..PK``. Games come in
rounds of ``K``: the games of a round share one deal and rotate the bots around the seats, so
that in game ``j`` of a round (from 0) seat ``s`` is played by bot ``(s + j) mod K``; ``--games``
is therefore a multiple of ``K``. Round ``r`` (from 1) deals with the seed given by the first 8
bytes of SHA-256 of ``"outofgears-tournament S r"`` (big-endian), and game ``i`` (from 1) of the
tournament seeds the bots' random choices with the next 8 bytes of SHA-256 of
``"outofgears-tournament S r"`` plus ``i``, so the results depend only on ``S`` and the bots.

Each bot's *win share* is the mean over the games of its return (a win shared by ``k`` winners
is ``1/k``, ruling R-TURN-CAP for a game cut off at ``--turn-cap``), with its standard error
``s / sqrt(n)`` (``s`` the sample standard deviation of its returns over the ``n`` games); its
*points* are the mean of its final points; its *ms per move* is its thinking time (wall clock,
the bot's ``act`` calls only) over the moves it made.

A bot is a built-in name (``random``, ``greedy``, ``lookahead``, ``mcts``, with an optional
number), ``module:Class`` (any importable class with ``act(observation, rng)``), or the name
of an entry point of the group ``outofgears.bots``: see
:func:`~outofgears.play.bots.make_bot`. The bots run in the tournament's processes: they see
only observations, and no module keeps a position, but a bot is Python code in the same
interpreter, not a sandboxed program.
"""

from __future__ import annotations

import hashlib
import math
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

import click
from attrs import field, frozen

from outofgears.cli.common import FORMAT_OPTION, echo_json, fail
from outofgears.errors import OutOfGearsError, printable
from outofgears.play.bots import make_bot, play_match
from outofgears.rules.gears import counted
from outofgears.rules.model import Options
from outofgears.rules.setup import setup_game


def round_seeds(seed: int, round_number: int) -> tuple[int, int]:
    """The deal seed and the base of the bots' seeds of round ``round_number`` (from 1).

    >>> round_seeds(7, 1) == round_seeds(7, 1), round_seeds(7, 1) == round_seeds(7, 2)
    (True, False)
    """
    digest = hashlib.sha256(f"outofgears-tournament {seed} {round_number}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big")


def seating(bots: int, game: int) -> list[int]:
    """Which bot plays each seat in game ``game`` (from 1): rotated once per game of a round.

    >>> seating(3, 1), seating(3, 2), seating(3, 3), seating(3, 4)
    ([0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2])
    """
    shift = (game - 1) % bots
    return [(seat + shift) % bots for seat in range(bots)]


@frozen
class TournamentGame:
    """Plays game ``number`` of a tournament (picklable, for worker processes)."""

    bots: tuple[str, ...]
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
class GameResult:
    """A game of a tournament, by bot (in the order of the command line).

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


def _games(job: TournamentGame, games: int, workers: int) -> Iterator[GameResult]:
    if workers == 1:
        for number in range(1, games + 1):
            yield job(number)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(job, range(1, games + 1), chunksize=max(1, games // (workers * 8)))


@contextmanager
def _progress(total: int, stream: TextIO) -> Iterator[Callable[[int], None]]:
    if not stream.isatty():
        yield lambda _steps: None
        return
    with click.progressbar(length=total, label="Playing", file=stream) as bar:
        yield bar.update


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


@click.command()
@click.argument("bots", nargs=-1, required=True, metavar="BOT BOT [BOT...]")
@click.option(
    "--games",
    type=click.IntRange(1, 1_000_000),
    required=True,
    help="Games to play, a multiple of the number of bots.",
)
@click.option(
    "--seed", type=click.IntRange(0, 2**63 - 1), required=True, help="Seeds the deals and the bots."
)
@click.option(
    "--workers",
    type=click.IntRange(1, 256),
    default=1,
    show_default=True,
    help="Worker processes; the results are the same for any number.",
)
@click.option(
    "--turn-cap",
    type=click.IntRange(1, 10_000),
    default=100,
    show_default=True,
    help="Cut a game off after this many turns and score it as it stands (ruling R-TURN-CAP).",
)
@click.option("--upgrades", is_flag=True, help="The Robot Upgrades expansion.")
@FORMAT_OPTION
def tournament(
    bots: tuple[str, ...],
    games: int,
    seed: int,
    workers: int,
    turn_cap: int,
    upgrades: bool,
    output_format: str,
) -> None:
    """Let bots play each other and print each bot's win share with its standard error.

    BOT is random, greedy, lookahead or mcts, optionally with a number: greedy:16 or
    lookahead:16 (samples per move, at most 2,000), mcts:400 (iterations per move, at most
    20,000); or module:Class, a bot class importable from a module; or the name of an
    entry point of the group outofgears.bots. Each bot's thinking time is reported in
    milliseconds per move. K bots (2 to 8) play games of K robots, one each; the
    seats rotate every game, so --games must be a multiple of K. A progress bar is shown on
    standard error when it is a terminal. Exit status 2 for bad arguments.
    """
    if not 2 <= len(bots) <= 8:
        fail(f"a tournament needs 2 to 8 bots, not {len(bots)}")
    for spec in bots:
        try:
            make_bot(spec)
        except OutOfGearsError as error:
            fail(str(error))
    if games % len(bots):
        fail(
            f"--games must be a multiple of the {len(bots)} bots, so that every bot plays every seat equally; not {games}"
        )
    job = TournamentGame(bots, seed, turn_cap, Options(upgrades=upgrades))
    shares: list[list[float]] = [[] for _ in bots]
    points: list[list[float]] = [[] for _ in bots]
    seconds = [0.0 for _ in bots]
    moves = 0
    cut_off = 0
    with _progress(games, sys.stderr) as advance:
        for game in _games(job, games, workers):
            for index in range(len(bots)):
                shares[index].append(game.shares[index])
                points[index].append(game.points[index])
                seconds[index] += game.seconds[index]
            moves += game.moves
            cut_off += game.cut_off
            advance(1)
    rows: list[dict[str, Any]] = []
    for index, spec in enumerate(bots):
        share, share_se = mean_and_se(shares[index])
        mean_points, _ = mean_and_se(points[index])
        rows.append(
            {
                "bot": spec,
                "seat_order": index + 1,
                "win_share": share,
                "win_share_se": share_se,
                "points": mean_points,
                "ms_per_move": 1000 * seconds[index] / max(1, moves),
            }
        )
    if output_format == "json":
        echo_json(
            {"games": games, "seed": seed, "turn_cap": turn_cap, "cut_off": cut_off, "bots": rows}
        )
        return
    seats = games // len(bots)
    click.echo(
        f"{counted(games, 'game')}, seed {seed}, every bot in every seat "
        f"{'once' if seats == 1 else f'{seats} times'}"
    )
    width = max(12, *(len(row["bot"]) for row in rows))
    click.echo(
        f"{'#':>2}  {'bot':<{width}} {'win share':>10}  {'± SE':>7}  {'points':>7}  {'ms/move':>9}"
    )
    for row in rows:
        se = "-" if row["win_share_se"] is None else f"{row['win_share_se']:.3f}"
        click.echo(
            f"{row['seat_order']:>2}  {printable(row['bot']):<{width}} {row['win_share']:>10.3f}  "
            f"{se:>7}  {row['points']:>7.2f}  {row['ms_per_move']:>9.2f}"
        )
    if cut_off:
        click.echo(
            f"{counted(cut_off, 'game')} cut off at turn {turn_cap} and scored as they stood "
            "(R-TURN-CAP)"
        )
