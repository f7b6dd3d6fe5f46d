"""``outofgears simulate``: play many games with the random policy and write them as logs.

Each game is played by :func:`outofgears.play.policies.random_programs` (the
documented random policy) until it ends, and written as one line of JSON: a
complete ``outofgears-log/1`` log that ``outofgears replay`` checks. The
statistics (win rates per seat, scores, turns, speed) follow the games.

Seeds. Game ``i`` (numbered from 1) of ``--seed S`` takes its seeds from the
SHA-256 digest of the ASCII text ``"outofgears-simulate S i"`` (decimal
numbers, single spaces): the setup seed is its first 8 bytes and the policy
seed its next 8, each read as a big-endian unsigned integer (see
:func:`game_seeds`). A game depends only on ``S`` and ``i``: ``--games 10``
begins with the same five games as ``--games 5``. The setup seed is the log's
``start.seed``; the policy seed is named in the log's ``description`` (replay
does not need it: the log holds every program).

Players. With one robot each, robots ``1..K`` and players ``P1..PK`` (``Pk``
controls robot ``k``). In the two-robot variant (``--two-robots``, ``K`` = 4, 6
or 8), players ``P1..P(K/2)``, player ``Pj`` controlling robots ``j`` and
``j + K/2``.

Games that do not end. A game still going after :data:`TURN_CAP` turns (or
``--max-turns``) is stopped, written as it stands (its log replays; the game is
simply not over) and counted as unfinished; the win rates and score statistics
cover finished games only.

Wins. Over the ``n`` finished games each seat gets two figures. Its *win rate*
counts every game it won, alone or shared (END-3), as a whole win, so with ties
the seats' win rates add up to more than 100%. Its *win share* counts a win
shared by ``k`` winners as ``1/k`` of a win, so the seats' win shares add up to
exactly 100%; it comes with its standard error ``sqrt(p * (1 - p) / n)``, ``p``
being the win share (see :meth:`SeatStats.win_share_se`).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Final, TextIO

import click
from attrs import define, evolve, field, frozen

from outofgears._version import SPEC_VERSION, __version__
from outofgears.cli.common import (
    FORMAT_OPTION,
    AsciiIntRange,
    InputError,
    atomic_output,
    echo_json,
    output_error,
    output_path,
    say,
)
from outofgears.errors import OutOfGearsError
from outofgears.judge.start import start_state
from outofgears.log import (
    MAX_SEED,
    GameLog,
    Recorded,
    Start,
    TurnRecord,
    WrittenBy,
    log_to_json,
    turn_record_from,
)
from outofgears.log.writing import json_safe
from outofgears.play.policies import random_programs
from outofgears.rules.gears import counted
from outofgears.rules.model import GameState, Options
from outofgears.rules.scoring import player_scores, winners
from outofgears.rules.setup import seat_players
from outofgears.rules.turn import apply_turn

#: Turns after which a simulated game that has not ended is stopped and counted as unfinished.
TURN_CAP: Final = 500

#: The largest ``--max-turns``: a log holds at most 1000 turns (spec/log.schema.json).
MAX_TURN_CAP: Final = 1000

#: The largest ``--games``.
MAX_GAMES: Final = 10_000_000


def game_seeds(seed: int, game: int) -> tuple[int, int]:
    """The setup seed and the policy seed of game ``game`` (from 1) of a simulation.

    They are the first and second 8 bytes, big-endian, of the SHA-256 digest of
    ``"outofgears-simulate {seed} {game}"``.

    >>> game_seeds(7, 1)
    (11532710930716902211, 10252691787463944142)
    >>> game_seeds(7, 1) == game_seeds(7, 1) != game_seeds(7, 2)
    True
    """
    digest = hashlib.sha256(f"outofgears-simulate {seed} {game}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:16], "big")


def check_setup(robots: int, two_robots: bool, options: Options) -> str | None:
    """Why a simulation's robots, variant and options cannot make a game; ``None`` if they can.

    >>> check_setup(5, True, Options())
    '--two-robots needs 4, 6 or 8 robots (2 to 4 players with two robots each, VAR-1), not 5'
    >>> check_setup(8, False, Options(pad_reserve=True))
    '--pad-reserve needs a colour that is not in play, and all eight robots are (REF-2)'
    >>> check_setup(4, True, Options()) is None
    True
    """
    if not 2 <= robots <= 8:
        return f"a game has 2 to 8 robots (SET-1), not {robots}"
    if two_robots and robots not in (4, 6, 8):
        return (
            "--two-robots needs 4, 6 or 8 robots (2 to 4 players with two robots each, VAR-1), "
            f"not {robots}"
        )
    if options.pad_reserve and robots == 8:
        return "--pad-reserve needs a colour that is not in play, and all eight robots are (REF-2)"
    players = robots // 2 if two_robots else robots
    if options.upgrades and len(options.upgrade_deck) < players:
        return (
            f"the upgrade deck has {counted(len(options.upgrade_deck), 'card')} "
            f"for {players} players"
        )
    return None


@frozen
class SimulatedGame:
    """One game played by the random policy.

    Attributes:
        number: The game's number in the simulation, from 1.
        policy_seed: The seed of the random policy's generator.
        log: The game's log, scores recorded after its last turn.
        final: The state after the last turn.
    """

    number: int
    policy_seed: int
    log: GameLog
    final: GameState

    @property
    def finished(self) -> bool:
        """Whether the game ended (END-1) rather than being stopped at the turn cap."""
        return self.final.game_over

    @property
    def turns(self) -> int:
        """How many turns were played."""
        return len(self.log.turns)


def simulate_game(
    seed: int,
    number: int,
    robots: int,
    *,
    two_robots: bool = False,
    options: Options | None = None,
    max_turns: int = TURN_CAP,
) -> SimulatedGame:
    """Play game ``number`` of a simulation seeded ``seed`` with the random policy.

    The starting state is the one ``outofgears replay`` builds from the log's
    header (:func:`outofgears.judge.start.start_state`), so the log replays as played.

    >>> game = simulate_game(7, 1, 3)
    >>> game.finished, sorted(game.log.players), game.log.start.seed == game_seeds(7, 1)[0]
    (True, ['P1', 'P2', 'P3'], True)
    >>> last = game.log.turns[-1].recorded
    >>> last is not None and sum(last.scores.values()) > 0
    True
    """
    setup_seed, policy_seed = game_seeds(seed, number)
    header = GameLog(
        players=seat_players(robots, two_robots),
        start=Start(seed=setup_seed),
        options=options or Options(),
        two_robot_variant=two_robots,
        description=(
            f"outofgears simulate --seed {seed}, game {number}: random policy "
            f"(outofgears.play.policies.random_programs) seeded {policy_seed}"
        ),
        written_by=WrittenBy(engine=__version__, spec=SPEC_VERSION),
    )
    state = start_state(header)
    rng = random.Random(policy_seed)
    turns: list[TurnRecord] = []
    while not state.game_over and len(turns) < max_turns:
        programs = random_programs(state, rng)
        turns.append(turn_record_from(state.turn, programs))
        state = apply_turn(state, programs)
    if turns:
        points = {score.player: score.points for score in player_scores(state)}
        scores = {name: points[name] for name in header.players}
        last = turns[-1]
        turns[-1] = turn_record_from(last.turn, last.programs, Recorded(scores=scores))
    return SimulatedGame(number, policy_seed, evolve(header, turns=tuple(turns)), state)


def log_line(log: GameLog) -> str:
    """A log as one line of JSON (JSON Lines), without the newline.

    >>> line = log_line(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=3)))
    >>> line[:57], line.endswith("}")
    ('{"format":"outofgears-log/1","players":{"A":[1],"B":[2]},', True)
    """
    return json.dumps(log_to_json(log), ensure_ascii=False, separators=(",", ":"))


@define
class SeatStats:
    """What one seat (a player and its robots) did over the finished games.

    Attributes:
        wins: The games it won, alone or shared (END-3).
        shared_wins: Those of them it shared with other winners.
        split_wins: Its wins with a win shared by ``k`` winners counted as ``1/k``.
        scores: Its final score in each finished game.
    """

    player: str
    robots: tuple[int, ...]
    wins: int = 0
    shared_wins: int = 0
    split_wins: Fraction = Fraction(0)
    scores: list[int] = field(factory=list)

    def win_share_se(self, finished: int) -> float | None:
        """The standard error of the seat's win share over ``finished`` games.

        With ``p = split_wins / finished`` it is ``sqrt(p * (1 - p) / finished)``, the
        standard error of a proportion; ``None`` without finished games. A shared win
        counts as ``1/k``, a value between 0 and 1 whose variance is at most
        ``p * (1 - p)``, so with shared wins this errs, slightly, on the large side.

        >>> seat = SeatStats("P1", (1,), wins=3, shared_wins=1, split_wins=Fraction(5, 2))
        >>> round(seat.win_share_se(4), 6)  # p = 2.5 / 4 = 0.625: sqrt(0.625 * 0.375 / 4)
        0.242061
        >>> seat.win_share_se(0) is None
        True
        """
        if not finished:
            return None
        share = self.split_wins / finished
        return math.sqrt(share * (1 - share) / finished)

    def as_json(self, finished: int) -> dict[str, Any]:
        """The seat's figures as JSON-ready data."""
        error = self.win_share_se(finished)
        return {
            "player": self.player,
            "robots": list(self.robots),
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "win_rate": _ratio(self.wins, finished),
            "split_wins": round(float(self.split_wins), 4),
            "win_share": _ratio(self.split_wins, finished),
            "win_share_se": None if error is None else round(error, 4),
            "mean_score": _mean(self.scores),
            "min_score": min(self.scores, default=None),
            "max_score": max(self.scores, default=None),
        }


@frozen
class GameOutcome:
    """What the statistics need of one game: a few numbers, cheap to send between processes.

    >>> game = simulate_game(7, 1, 3)
    >>> outcome = GameOutcome.of(game.turns, game.final)
    >>> outcome.finished, len(outcome.scores), outcome.turns == game.turns
    (True, 3, True)
    """

    turns: int
    finished: bool
    scores: tuple[tuple[str, int], ...] = ()
    winners: tuple[str, ...] = ()

    @classmethod
    def of(cls, turns: int, final: GameState) -> GameOutcome:
        """The outcome of a game that lasted ``turns`` turns and ended in ``final``."""
        if not final.game_over:
            return cls(turns, False)
        scores = tuple((score.player, score.points) for score in player_scores(final))
        return cls(turns, True, scores, winners(final))


@define
class SimulationStats:
    """Win rates, scores and turns over a simulation.

    A shared win (END-3) counts as a win for each of the winners, and in
    ``shared_wins`` too; so the win rates of a simulation with ties add up to
    more than 100%. In ``split_wins``, and so in the win shares, a win shared by
    ``k`` winners counts as ``1/k`` for each: the win shares add up to 100%.
    """

    seats: dict[str, SeatStats]
    games: int = 0
    finished: int = 0
    turns: int = 0
    seconds: float = 0.0

    @classmethod
    def for_players(cls, players: dict[str, tuple[int, ...]]) -> SimulationStats:
        """Empty statistics for these seats."""
        return cls({name: SeatStats(name, robots) for name, robots in players.items()})

    def add_outcome(self, outcome: GameOutcome) -> None:
        """Count one game from its outcome."""
        self.games += 1
        self.turns += outcome.turns
        if not outcome.finished:
            return
        self.finished += 1
        won = outcome.winners
        for player, points in outcome.scores:
            seat = self.seats[player]
            seat.scores.append(points)
            if player in won:
                seat.wins += 1
                seat.shared_wins += len(won) > 1
                seat.split_wins += Fraction(1, len(won))

    @property
    def unfinished(self) -> int:
        """The games stopped at the turn cap."""
        return self.games - self.finished

    def all_scores(self) -> list[int]:
        """Every player's final score in every finished game."""
        return [points for seat in self.seats.values() for points in seat.scores]

    def games_per_second(self) -> float | None:
        """The speed of the simulation, logs written included."""
        return round(self.games / self.seconds, 1) if self.seconds > 0 else None

    def as_json(self) -> dict[str, Any]:
        """The statistics as JSON-ready data."""
        everything = self.all_scores()
        return {
            "games": self.games,
            "finished": self.finished,
            "unfinished": self.unfinished,
            "mean_turns": round(self.turns / self.games, 2) if self.games else None,
            "seats": [seat.as_json(self.finished) for seat in self.seats.values()],
            "scores": {
                "mean": _mean(everything),
                "min": min(everything, default=None),
                "max": max(everything, default=None),
            },
            "seconds": round(self.seconds, 3),
            "games_per_second": self.games_per_second(),
        }


def _mean(values: list[int]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def _ratio(part: int | Fraction, whole: int) -> float | None:
    return round(float(part / whole), 4) if whole else None


def _percent(value: float | Fraction | None) -> str:
    return "-" if value is None else f"{round(100 * float(value), 1)}%"


def _figure(value: float | int | None, suffix: str = "") -> str:
    return "-" if value is None else f"{value}{suffix}"


def stats_text(stats: SimulationStats, *, seed: int, cap: int, output: str | None) -> list[str]:
    """The statistics as lines of text for people."""
    data = stats.as_json()
    lines = [
        f"Simulated {counted(stats.games, 'game')} with the random policy, seed {seed}: "
        f"{stats.finished} finished, {stats.unfinished} stopped at the {cap}-turn cap",
    ]
    if output is not None:
        lines.append(f"Logs written to {output} (JSON Lines, one game per line)")
    lines.append(f"Mean turns per game: {_figure(data['mean_turns'])}")
    lines.append("Seat  Robots  Wins (shared)  Win rate  Win share ± SE    Mean score  Min  Max")
    for seat, figures in zip(data["seats"], stats.seats.values(), strict=True):
        # The share and its error from the exact figures: rounding twice could move a digit.
        share = figures.split_wins / stats.finished if stats.finished else None
        error = figures.win_share_se(stats.finished)
        lines.append(
            f"{seat['player']:<5} {','.join(map(str, seat['robots'])):<7} "
            f"{seat['wins']:>4} ({seat['shared_wins']:>4})  "
            f"{_percent(seat['win_rate']):>8}  "
            f"{_percent(share):>9} ± {_percent(error):<6}  "
            f"{_figure(seat['mean_score']):>10}  {_figure(seat['min_score']):>3}  "
            f"{_figure(seat['max_score']):>3}"
        )
    scores = data["scores"]
    lines.append(
        f"All players: mean score {_figure(scores['mean'])}, "
        f"min {_figure(scores['min'])}, max {_figure(scores['max'])}"
    )
    lines.append(
        f"Speed: {_figure(data['games_per_second'])} games/s ({data['seconds']:.2f} s in all)"
    )
    return lines


# --- progress and output ---------------------------------------------------------------------


def progress_stream() -> TextIO:
    """Where the progress bar goes: standard error, so that it never mixes with logs."""
    return sys.stderr


@contextmanager
def progress(total: int, stream: TextIO) -> Iterator[Callable[[int], None]]:
    """A progress bar over ``total`` games on ``stream`` if it is a terminal; nothing otherwise.

    Yields the function that advances it.

    >>> import io
    >>> with progress(3, io.StringIO()) as advance:
    ...     advance(1)
    """
    if not stream.isatty():
        yield lambda _steps: None
        return
    with click.progressbar(length=total, label="Simulating", file=stream) as bar:
        yield bar.update


@contextmanager
def output_lines(path: str | None, force: bool) -> Iterator[Callable[[str], None]]:
    """Somewhere to write log lines: a file written whole or not at all, or standard output.

    A file goes through :func:`~outofgears.cli.common.atomic_output`: checked before
    the first game and again when every game is in it, then moved into place; an existing
    regular file is replaced only with ``force``, anything else never.
    """
    target = output_path(path, force=force)
    if target is None:

        def echo(line: str) -> None:
            # Flushed line by line, so that a reader that has gone (``| head``) stops the games
            # at the next line rather than when a buffer fills.
            click.echo(json_safe(line))
            sys.stdout.flush()

        yield echo
        return
    try:
        with atomic_output(target, force=force) as stream:

            def write(line: str) -> None:
                stream.write(line + "\n")

            yield write
    except OSError as error:
        raise InputError(output_error(str(path), error)) from None


@frozen
class _GameJob:
    """What every game of a simulation shares; called with game numbers, plays them."""

    seed: int
    robots: int
    two_robots: bool
    options: Options
    max_turns: int

    def __call__(self, numbers: range) -> list[tuple[str, GameOutcome]]:
        played = []
        for number in numbers:
            game = simulate_game(
                self.seed,
                number,
                self.robots,
                two_robots=self.two_robots,
                options=self.options,
                max_turns=self.max_turns,
            )
            played.append((log_line(game.log), GameOutcome.of(game.turns, game.final)))
        return played


#: Batches a worker may hold, queued or being played, before the parent takes their results.
BATCHES_PER_WORKER: Final = 3


def game_batches(games: int, workers: int) -> list[range]:
    """Games 1..``games`` cut into batches for ``workers`` processes.

    Batches are big enough to make the cost of sending them small, and small enough
    (at most 64 games) that every worker gets several and memory stays bounded.

    >>> game_batches(10, 2)
    [range(1, 2), range(2, 3), range(3, 4), range(4, 5), range(5, 6), range(6, 7), range(7, 8), range(8, 9), range(9, 10), range(10, 11)]
    >>> [len(batch) for batch in game_batches(1000, 2)][:3]
    [62, 62, 62]
    """
    size = max(1, min(64, games // (workers * 8)))
    return [range(first, min(first + size, games + 1)) for first in range(1, games + 1, size)]


def played_games(
    job: Callable[[range], list[tuple[str, GameOutcome]]], games: int, workers: int
) -> Iterator[tuple[str, GameOutcome]]:
    """Games 1..``games`` played by ``job``, in order: the log line and the outcome.

    With more than one worker the games are played by a pool of processes, a few
    batches per worker in flight at a time (so memory does not grow with the number
    of games); since a game depends only on the seed and its number, the games and
    their order are the same as with one.
    """
    if workers == 1 or games == 1:
        # In batches even here, so that each game is written as soon as its batch is played
        # (and a reader that has gone stops the rest).
        for batch in game_batches(games, 1):
            yield from job(batch)
        return
    from concurrent.futures import Future, ProcessPoolExecutor

    cut = game_batches(games, workers)
    batches = iter(cut)
    # No more processes than batches: 256 workers for 2 games start 2 processes, not 256.
    workers = min(workers, len(cut))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[Future[list[tuple[str, GameOutcome]]]] = deque()
        for batch in batches:
            pending.append(pool.submit(job, batch))
            if len(pending) >= workers * BATCHES_PER_WORKER:
                break
        while pending:
            done = pending.popleft().result()
            following = next(batches, None)
            if following is not None:
                pending.append(pool.submit(job, following))
            yield from done


@click.command()
@click.option(
    "--games",
    type=AsciiIntRange(1, MAX_GAMES),
    required=True,
    help="How many games to play.",
)
@click.option(
    "--robots",
    type=AsciiIntRange(2, 8),
    required=True,
    help="Robots in play, numbered 1..K (4, 6 or 8 with --two-robots).",
)
@click.option(
    "--seed",
    type=AsciiIntRange(0, MAX_SEED),
    required=True,
    help="Seeds every game: game i's seeds come from SHA-256 of 'outofgears-simulate S i'.",
)
@click.option("--two-robots", is_flag=True, help="The two-robot variant: K/2 players, two each.")
@click.option("--upgrades", is_flag=True, help="The Robot Upgrades expansion.")
@click.option("--jolly", is_flag=True, help="Expansion #2: four Jolly gears.")
@click.option("--three-point", is_flag=True, help="Expansion #3: four three-point gears.")
@click.option(
    "--pad-reserve",
    is_flag=True,
    help="Pad the reserve with a colour not in play (ruling R-PAD-RESERVE).",
)
@click.option(
    "--max-turns",
    type=AsciiIntRange(1, MAX_TURN_CAP),
    default=TURN_CAP,
    show_default=True,
    help="Stop a game that has not ended after this many turns, and count it as unfinished.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Write the logs (JSON Lines) to this file; default standard output.",
)
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@click.option(
    "--workers",
    type=AsciiIntRange(1, 256),
    default=1,
    show_default=True,
    help="Worker processes playing the games; the output is the same for any number.",
)
@FORMAT_OPTION
def simulate(
    games: int,
    robots: int,
    seed: int,
    two_robots: bool,
    upgrades: bool,
    jolly: bool,
    three_point: bool,
    pad_reserve: bool,
    max_turns: int,
    output: str | None,
    force: bool,
    workers: int,
    output_format: str,
) -> None:
    """Play games with random legal programs and write each as one line of JSON.

    Every line is a complete outofgears-log/1 log (players P1..PK, options,
    setup seed, every turn's programs, the scores recorded after the last turn)
    that `outofgears replay` checks. Then each seat's win rate (a shared win
    counted whole) and win share (a win shared by k winners counted 1/k) with
    its standard error sqrt(p(1-p)/n) over the n finished games, the scores,
    the mean turns per game and the speed are printed: to standard output when
    the logs go to a file (-o), to standard error when they go to standard
    output. A progress bar is shown on standard error when it is a terminal.
    Game i (from 1) has setup seed = bytes 0-7 and policy seed = bytes 8-15 of
    SHA-256("outofgears-simulate S i"), big-endian. Exit status 2 for bad
    arguments.
    """
    options = Options(
        upgrades=upgrades, jolly_gears=jolly, three_point_gears=three_point, pad_reserve=pad_reserve
    )
    problem = check_setup(robots, two_robots, options)
    if problem is not None:
        raise click.UsageError(problem)
    to_file = output is not None and output != "-"
    stats = SimulationStats.for_players(seat_players(robots, two_robots))
    started = time.perf_counter()
    try:
        with (
            output_lines(output, force) as write,
            progress(games, progress_stream()) as advance,
        ):
            job = _GameJob(seed, robots, two_robots, options, max_turns)
            for line, outcome in played_games(job, games, workers):
                write(line)
                stats.add_outcome(outcome)
                advance(1)
    except OutOfGearsError as error:  # a setup the checks above let through
        raise InputError(str(error)) from None
    stats.seconds = time.perf_counter() - started
    if output_format == "json":
        data = {
            "seed": seed,
            "robots": robots,
            "two_robot_variant": two_robots,
            "turn_cap": max_turns,
            "output": output if to_file else None,
            **stats.as_json(),
        }
        echo_json(data, err=not to_file)
        return
    for line in stats_text(stats, seed=seed, cap=max_turns, output=output if to_file else None):
        say(line, err=not to_file)
