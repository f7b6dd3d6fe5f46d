"""Every shipped bot against every other, in one run: ``python -m benchmarks.league``.

Issue 36's league table. A cell is a seat against two copies of another bot in 3-robot games:
the bots play :func:`~outofgears.play.tournament.play_tournament`'s games with the seat's bot
first and the other bot's two copies after it, so every bot sits in every seat of every deal
(``--games`` a cell, a multiple of 3; the deals and the bots' seeds are the tournament's of
``--seed``, the same in every cell). The cell gives the seat's win share (a draw is a share of a
win; fair share 1/3) with its standard error ``s / sqrt(n)``, and how many of the cell's games
the turn cap cut (scored as they stood; ruling R-TURN-CAP, which says why some games of
programs cannot end). A bot's row is what it takes from each other bot; a bot's column is what
each other bot, and each exploiter, takes from it.

The seats are the bots named on the command line (default: ``random``, ``greedy``,
``lookahead``, ``mcts``, ``mcts:50``, and ``learned`` when
:func:`~outofgears.play.bots.make_bot` knows it), then the exploiters of ``--exploiters DIR``:
the learners ``python -m benchmarks.exploitability --save DIR`` trained, one file
``<bot>.zip`` per bot trained against (``:`` written ``-``), each seated as
``exploiter:<bot>`` and playing the most probable legal action of its policy on the
environment's observation vector (:meth:`~outofgears.play.observation.Observation.to_vector`),
as the exploitability benchmark evaluates it. Exploiters need the bench extra
(``pip install -e '.[bench]'``); the bots alone do not. Exploiters take seats, not columns.

The second table gives each bot's thinking time in milliseconds a move over all its games
(wall clock, its ``act`` calls only), and the games of its row the cap cut.

The figures in docs/writing-a-bot.md come from the command given there.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from attrs import define, field, frozen

from outofgears.errors import InvalidStateError
from outofgears.play.bots import Bot, make_bot
from outofgears.play.observation import Observation
from outofgears.play.tournament import BotSource, GameResult, mean_and_se, play_tournament

#: The shipped bots of the league, ``learned`` only when it is there.
SHIPPED = ("random", "greedy", "lookahead", "mcts", "mcts:50")
OPTIONAL = ("learned",)
ROBOTS = 3


@frozen
class Seat:
    """A player of the league: its name in the tables and what builds its bot."""

    name: str
    source: BotSource


@define
class Cell:
    """A seat's games against two copies of another bot."""

    shares: list[float] = field(factory=list)
    cut_off: int = 0


@define
class League:
    """A league played: the cells by (seat, bot against), each bot's time and moves."""

    seats: list[str]
    against: list[str]
    games: int
    seed: int
    turn_cap: int
    cells: dict[tuple[str, str], Cell] = field(factory=dict)
    seconds: dict[str, float] = field(factory=dict)
    moves: dict[str, int] = field(factory=dict)

    def count(self, bot: str, seconds: float, moves: int) -> None:
        self.seconds[bot] = self.seconds.get(bot, 0.0) + seconds
        self.moves[bot] = self.moves.get(bot, 0) + moves


def shipped_bots() -> list[str]:
    """The shipped bots, with the optional ones that :func:`make_bot` builds here."""
    bots = list(SHIPPED)
    for name in OPTIONAL:
        try:
            make_bot(name)
        except (InvalidStateError, ImportError):  # not known here, or its extra missing
            continue
        bots.append(name)
    return bots


def play_league(
    seats: Sequence[Seat], against: Sequence[Seat], *, games: int, seed: int, turn_cap: int = 100
) -> League:
    """Every seat against two copies of every bot of ``against`` but itself."""
    league = League([s.name for s in seats], [a.name for a in against], games, seed, turn_cap)
    for seat in seats:
        for other in against:
            if other.name == seat.name:
                continue
            cell = league.cells[seat.name, other.name] = Cell()

            def record(
                game: GameResult, cell: Cell = cell, seat: Seat = seat, other: Seat = other
            ) -> None:
                cell.shares.append(game.shares[0])
                cell.cut_off += game.cut_off
                league.count(seat.name, game.seconds[0], game.moves)
                league.count(other.name, game.seconds[1] + game.seconds[2], 2 * game.moves)

            play_tournament(
                [seat.source, other.source, other.source],
                games=games,
                seed=seed,
                turn_cap=turn_cap,
                on_game=record,
            )
            print(f"  {seat.name} against two {other.name}: done", file=sys.stderr, flush=True)
    return league


def _cell(cell: Cell | None) -> str:
    if cell is None:
        return "—"
    mean, se = mean_and_se(cell.shares)
    cut = f" ({cell.cut_off} cut)" if cell.cut_off else ""
    return f"{mean:.3f} ± {se or 0.0:.3f}{cut}"


def markdown(league: League) -> str:
    """The league's two tables, in Markdown."""
    lines = [
        f"{ROBOTS} robots, {league.games} games a cell (every bot in every seat), seed "
        f"{league.seed}, turn cap {league.turn_cap}; a cell is the row's win share against two "
        f"of the column's bot (fair share {1 / ROBOTS:.3f}) ± its standard error",
        "",
        "| seat ↓ · against two → | " + " | ".join(f"`{a}`" for a in league.against) + " |",
        "|---|" + "---|" * len(league.against),
    ]
    for seat in league.seats:
        row = [_cell(league.cells.get((seat, other))) for other in league.against]
        lines.append(f"| `{seat}` | " + " | ".join(row) + " |")
    lines += [
        "",
        "| bot | ms a move | games of its row | of them cut at the cap |",
        "|---|---:|---:|---:|",
    ]
    for bot in dict.fromkeys([*league.seats, *league.against]):
        moves = league.moves.get(bot, 0)
        ms = 1000 * league.seconds.get(bot, 0.0) / moves if moves else 0.0
        row_cells = [cell for (seat, _), cell in league.cells.items() if seat == bot]
        games = sum(len(cell.shares) for cell in row_cells)
        cut = sum(cell.cut_off for cell in row_cells)
        lines.append(f"| `{bot}` | {ms:.2f} | {games} | {cut} |")
    return "\n".join(lines)


class ExploiterBot:
    """A saved MaskablePPO learner as a bot: the most probable legal action of its policy on
    the observation's vector (the environment's flat observation)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.actions = int(model.action_space.n)

    def act(self, observation: Observation, rng: random.Random) -> int:
        import numpy as np

        vector = np.array(observation.to_vector(), np.float32)
        mask = np.zeros(self.actions, np.bool_)
        mask[observation.legal_actions()] = True
        action, _ = self.model.predict(vector, action_masks=mask, deterministic=True)
        return int(action)


def exploiters(folder: Path) -> list[Seat]:
    """The learners saved in ``folder`` by ``benchmarks.exploitability --save``, as seats."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    seats = []
    for path in sorted(folder.glob("*.zip")):
        model = MaskablePPO.load(path, device="cpu")
        seats.append(Seat(f"exploiter:{path.stem.replace('-', ':')}", _builder(model)))
    if not seats:
        raise SystemExit(f"no saved learner (*.zip) in {folder}")
    return seats


def _builder(model: Any) -> Callable[[], Bot]:
    def build() -> Bot:
        return ExploiterBot(model)

    return build


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150, help="games a cell (a multiple of 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn-cap", type=int, default=100)
    parser.add_argument(
        "--exploiters", type=Path, help="a folder of learners saved by exploitability --save"
    )
    parser.add_argument("bots", nargs="*", help="the bots (default: the shipped ones)")
    args = parser.parse_args(argv)
    bots = [Seat(name, name) for name in (args.bots or shipped_bots())]
    seats = bots + (exploiters(args.exploiters) if args.exploiters else [])
    league = play_league(seats, bots, games=args.games, seed=args.seed, turn_cap=args.turn_cap)
    print(markdown(league))


if __name__ == "__main__":
    main()
