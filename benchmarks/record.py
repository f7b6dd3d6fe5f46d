"""``outofgears record`` at a table, issue 21 and 23's figures: ``python -m benchmarks.record``.

Logs of a seeded 4-robot game (the random policy), cut after 0, 5 and 10 turns; the next
turn's programs are given as options. Times are medians over the rounds (CPU time of this
process, ``time.thread_time``, unless ``--clock wall``), side by side in one run:

1. A whole scripted ``record`` of one turn, in process: read and replay the log, check the
   turn, replay it with the turn, write it under the lock.
2. The on-the-spot check of one value written down (``TableSession.answer``: the log
   replayed with the turn as drafted), what each typed line of "written down" costs.
3. The locked replacement of the log (``replace_if_unchanged``: lock, re-read, compare,
   replace with its mode) against a bare ``write_atomically`` of the same text, and their ratio.
4. A scripted ``record`` of one turn as a fresh process (``python -m outofgears``; wall clock,
   the interpreter's start included).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from outofgears.cli import locking
from outofgears.cli import record as record_module
from outofgears.cli.common import write_atomically
from outofgears.cli.main import main
from outofgears.log import GameLog, Start, TurnRecord, log_to_json
from outofgears.play.policies import random_programs
from outofgears.rules.setup import setup_game
from outofgears.rules.turn import apply_turn
from outofgears.table.session import TableSession

CUTS = (0, 5, 10)


def game_turns(seed: int, count: int) -> list[TurnRecord]:
    """The programs of ``count`` turns of a seeded 4-robot game played by the random policy."""
    import random

    rng = random.Random(seed)
    state = setup_game([1, 2, 3, 4], seed=seed)
    turns: list[TurnRecord] = []
    while len(turns) < count and not state.game_over:
        programs = random_programs(state, rng)
        turns.append(TurnRecord(state.turn, programs))
        state = apply_turn(state, programs)
    return turns


def long_game(count: int) -> tuple[int, list[TurnRecord]]:
    """A seed whose game lasts more than ``count`` turns, and its turns."""
    for seed in range(1000):
        turns = game_turns(seed, count + 1)
        if len(turns) == count + 1:
            return seed, turns
    raise SystemExit("no game long enough")


def log_text(seed: int, turns: list[TurnRecord]) -> str:
    """The log of the game after ``turns``."""
    log = GameLog(
        players={f"P{n}": (n,) for n in (1, 2, 3, 4)}, start=Start(seed=seed), turns=tuple(turns)
    )
    return json.dumps(log_to_json(log), indent=2) + "\n"


def timed(clock: Callable[[], float], work: Callable[[], Any], rounds: int) -> float:
    """The median time of ``work`` in milliseconds."""
    times = []
    for _ in range(rounds):
        start = clock()
        work()
        times.append((clock() - start) * 1000)
    return statistics.median(times)


def program_options(turn: TurnRecord) -> list[str]:
    return [f"--program={robot}={program}" for robot, program in sorted(turn.programs.items())]


def measure_cut(
    path: Path,
    seed: int,
    turns: list[TurnRecord],
    cut: int,
    clock: Callable[[], float],
    rounds: int,
) -> tuple[float, float, float, float]:
    """Figures 1-3 on the log cut after ``cut`` turns, in milliseconds."""
    text = log_text(seed, turns[:cut])
    options = program_options(turns[cut])

    def one_turn() -> None:
        path.write_text(text)
        result = CliRunner().invoke(main, ["record", str(path), *options])
        assert result.exit_code == 0, result.output

    recorded = timed(clock, one_turn, rounds)
    path.write_text(text)
    file = record_module.LogFile.read(path, str(path))
    session = TableSession(file.replayed, str(path))
    for robot in session.state.robot_numbers:
        session.answer(str(turns[cut].programs[robot]))
    while (question := session.question()) is not None and question.kind != "recorded":
        session.answer("")

    def one_value() -> None:
        session.answer("score P1=99")  # departs: the session judges the log with it
        session.undo()

    check = timed(clock, one_value, rounds)
    new_text = text.replace('"turns": [', '"turns": [ ', 1)

    def locked() -> None:
        path.write_text(text)
        locking.replace_if_unchanged(path, "game", text.encode(), new_text, what="turn")

    def bare() -> None:
        path.write_text(text)
        write_atomically(path, new_text, force=True)

    return recorded, check, timed(clock, locked, rounds), timed(clock, bare, rounds)


def main_run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    args = parser.parse_args()
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    seed, turns = long_game(max(CUTS))
    folder = Path(tempfile.mkdtemp())
    print(f"Command: python -m benchmarks.record; median of {args.rounds} rounds, {args.clock} ms")
    print(f"{'turns in the log':>16}  {'record 1 turn':>13}  {'check 1 value':>13}  "
          f"{'locked write':>12}  {'bare write':>10}  {'ratio':>5}")  # fmt: skip
    for cut in CUTS:
        figures = measure_cut(folder / f"game-{cut}.json", seed, turns, cut, clock, args.rounds)
        recorded, check, lock_ms, bare_ms = figures
        print(f"{cut:>16}  {recorded:>13.1f}  {check:>13.1f}  {lock_ms:>12.2f}  "
              f"{bare_ms:>10.2f}  {lock_ms / bare_ms:>5.2f}")  # fmt: skip
    path = folder / "process.json"
    text = log_text(seed, turns[:5])
    command = [sys.executable, "-m", "outofgears", "record", str(path), *program_options(turns[5])]

    def process() -> None:
        path.write_text(text)
        subprocess.run(command, check=True, capture_output=True)

    wall = timed(time.perf_counter, process, args.rounds)
    print(f"A fresh process recording turn 6 (wall clock, start included): {wall:.0f} ms")


if __name__ == "__main__":
    main_run()
