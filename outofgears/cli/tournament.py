"""``outofgears tournament``: bots play each other, every bot in every seat equally often.

The games, their seeds and the figures are :func:`outofgears.play.tournament.play_tournament`'s
(how the seats rotate and how each game is seeded is said there); this command reads the bots
and prints the figures.

A bot is a built-in name (``random``, ``greedy``, ``lookahead``, ``mcts``, with an optional
number), ``module:Class`` (any importable class with ``act(observation, rng)``), or the name
of an entry point of the group ``outofgears.bots``: see
:func:`~outofgears.play.bots.make_bot`. The bots run in the tournament's processes: they see
only observations, and no module keeps a position, but a bot is Python code in the same
interpreter, not a sandboxed program.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

import click

from outofgears.cli.common import FORMAT_OPTION, echo_json, fail
from outofgears.errors import OutOfGearsError, printable
from outofgears.play.tournament import play_tournament
from outofgears.rules.gears import counted
from outofgears.rules.model import Options


@contextmanager
def _progress(total: int, stream: TextIO) -> Iterator[Callable[[int], None]]:
    if not stream.isatty():
        yield lambda _steps: None
        return
    with click.progressbar(length=total, label="Playing", file=stream) as bar:
        yield bar.update


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

    BOT is random, greedy, lookahead, mcts or learned, optionally with a number: greedy:16
    or lookahead:16 (samples per move, at most 2,000), mcts:400 (iterations per move, at
    most 20,000); or module:Class, a bot class importable from a module; or the name of an
    entry point of the group outofgears.bots. Each bot's thinking time is reported in
    milliseconds per move. K bots (2 to 8) play games of K robots, one each; the
    seats rotate every game, so --games must be a multiple of K. A progress bar is shown on
    standard error when it is a terminal. Exit status 2 for bad arguments.
    """
    try:
        with _progress(games, sys.stderr) as advance:
            result = play_tournament(
                bots,
                games=games,
                seed=seed,
                turn_cap=turn_cap,
                options=Options(upgrades=upgrades),
                workers=workers,
                on_game=lambda _game: advance(1),
            )
    except OutOfGearsError as error:
        fail(str(error))
    rows: list[dict[str, Any]] = [
        {
            "bot": standing.bot,
            "seat_order": standing.seat_order,
            "win_share": standing.win_share,
            "win_share_se": standing.win_share_se,
            "points": standing.points,
            "ms_per_move": standing.ms_per_move,
        }
        for standing in result.standings
    ]
    cut_off = result.cut_off
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
