"""The judge's searches on the logs that ran past a command's budget before they shared one
(issue 35): ``python -m benchmarks.judge_bounds [--before PATH]``.

Each log is written to a temporary folder and each command run on it in a fresh process, whose
CPU time (user + system) and peak memory (ru_maxrss) are printed; ``--before PATH`` runs the
same commands with ``PATH`` first on ``sys.path`` (a copy of the package as it was, say
``git archive f0bc172 outofgears | tar -x -C PATH``), side by side. The logs:

1. two 8-gear dumps (9-gear dumps) each split by four robots, only one score written down,
   which no split gives;
2. four 6-gear dumps each split by two robots, the same;
3. 216 positions kept open by the scores of turn 1, then 998 turns with nothing recorded;
4. 62,208 positions kept open by the scores of turn 1 (``--max-open 100000``), then 12 turns;
5. a 1,000-turn 8-robot log departing at every turn, every robot's choices refused.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import attrs

from benchmarks.inference import PLAYERS, departing_everywhere, skirmish
from outofgears.judge.start import start_state
from outofgears.log import (
    ChoicesRecord,
    GameLog,
    PositionRecord,
    Recorded,
    RobotGears,
    Start,
    TurnRecord,
    dump_log,
)
from outofgears.rules.gears import gears
from outofgears.rules.programs import AnyProgram, parse_program
from outofgears.rules.scoring import player_scores
from outofgears.rules.turn import apply_turn


def shared_dumps(dumps: Sequence[tuple[Sequence[int], Sequence[int]]], score: int = 3) -> GameLog:
    """An 8-robot turn where each dump (``(takers, colours of its gears)``) is harvested by its
    takers, none of whose colours it holds; only P1's score is written down: ``score``, which no
    split gives (each taker's gears are of other colours, a point each)."""
    programs: dict[int, AnyProgram] = {}
    piles = {}
    for number, (takers, colours) in enumerate(dumps, start=1):
        piles[number] = gears(*colours)
        programs |= {robot: parse_program(f"harvest {number}") for robot in takers}
    position = PositionRecord(
        robots={n: RobotGears(feet=(), circuit=()) for n in range(1, 9)},
        dumps={n: piles.get(n, ()) for n in range(1, 9)},
        reserve=gears(1, 1, 1, 1),
    )
    turn = TurnRecord(1, programs, recorded=Recorded(scores={"P1": score}))
    return GameLog(players=PLAYERS, start=Start(position=position), turns=(turn,))


def two_dumps(each: int) -> GameLog:
    """Two dumps of ``each`` gears, each split by four robots."""
    return shared_dumps(
        [
            ((1, 2, 3, 4), [5 + n % 4 for n in range(each)]),
            ((5, 6, 7, 8), [1 + n % 4 for n in range(each)]),
        ]
    )


def four_dumps() -> GameLog:
    """Four dumps of 6 gears, each split by two robots (three gears each: P1's score is 4)."""
    return shared_dumps(
        [((a, a + 1), [c for c in range(1, 9) if c not in (a, a + 1)]) for a in (1, 3, 5, 7)],
        score=4,
    )


#: Feet of four gears of four colours not the robot's own (six assemblies each), of
#: ``(a, a, b, c)`` (four) and of ``(a, a, b)`` (two).
_SIX, _FOUR, _TWO = (1, 2, 3, 4), (1, 1, 2, 3), (1, 1, 2)


def kept_open(feet: dict[int, tuple[int, ...]], turns: int) -> GameLog:
    """8 robots guarding themselves for ``turns`` turns (nothing moves but the assemblies: no
    reserve, no harvest); every score of turn 1 written down, which every assembly gives
    (each robot's gears are of colours not its own), and nothing after it."""
    shifted = {
        robot: tuple((c + robot - 1) % 8 + 1 for c in colours) for robot, colours in feet.items()
    }
    position = PositionRecord(
        robots={n: RobotGears(feet=gears(*shifted.get(n, ())), circuit=()) for n in range(1, 9)},
        dumps={n: gears(n % 8 + 1) for n in range(1, 9)},
        reserve=(),
    )
    log = GameLog(players=PLAYERS, start=Start(position=position))
    guards = {n: parse_program(f"attack {n}") for n in range(1, 9)}
    after = apply_turn(start_state(log), guards)
    scores = {score.player: score.points for score in player_scores(after)}
    records = [TurnRecord(1, guards, recorded=Recorded(scores=scores))]
    records += [TurnRecord(number, guards) for number in range(2, turns + 1)]
    return attrs.evolve(log, turns=tuple(records))


def open_216(turns: int = 999) -> GameLog:
    """216 positions open (three robots' assemblies) for ``turns - 1`` turns."""
    return kept_open({1: _SIX, 2: _SIX, 3: _SIX}, turns)


def open_62208(turns: int = 13) -> GameLog:
    """62,208 positions open (seven robots' assemblies: 6^5 x 4 x 2)."""
    return kept_open({1: _SIX, 2: _SIX, 3: _SIX, 4: _SIX, 5: _SIX, 6: _FOUR, 7: _TWO}, turns)


def refused_everywhere(turns: int = 1000) -> GameLog:
    """:func:`benchmarks.inference.departing_everywhere`, every robot's assembly of every turn
    written down as two white gears, which no robot holds: eight refused choices a turn."""
    log = departing_everywhere(skirmish(turns, 12))
    picks = ChoicesRecord(assemblies={n: gears(8, 8) for n in range(1, 9)})
    return attrs.evolve(log, turns=tuple(attrs.evolve(t, choices=picks) for t in log.turns))


CASES: dict[str, tuple[GameLog, list[list[str]]]] = {}


def cases() -> dict[str, tuple[GameLog, list[list[str]]]]:
    """Each log and the commands run on it (the log's path is added after the command)."""
    if not CASES:
        replay, dispute = ["replay", "--quiet"], ["dispute", "--turn", "1"]
        CASES.update(
            {
                "two 8-gear dumps split by 4 robots": (two_dumps(8), [replay, dispute]),
                "two 9-gear dumps split by 4 robots": (two_dumps(9), [replay]),
                "four 6-gear dumps split by 2 robots": (four_dumps(), [replay, dispute]),
                "216 positions open for 998 turns": (
                    open_216(),
                    [replay, ["view", "--turn", "999", "-o", "-"]],
                ),
                "62,208 positions open, --max-open 100000": (
                    open_62208(),
                    [["replay", "--quiet", "--max-open", "100000"]],
                ),
                "1,000 turns departing, 8 choices refused a turn": (
                    refused_everywhere(),
                    [replay, ["explain", "--turn", "1000"]],
                ),
            }
        )
    return CASES


#: The memory a command may take here (a command's budget is 500 MB): one past it stops
#: with MemoryError (exit status 3) instead of crowding the machine.
MEMORY_CAP = 1 << 30
#: The CPU seconds a command may take here (its budget is 5): one past it is killed (SIGXCPU).
CPU_CAP = 150


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_CAP, CPU_CAP + 5))


def measure(command: list[str], log: Path, before: str | None) -> tuple[float, float, int]:
    """CPU seconds, peak MB and exit status of ``outofgears COMMAND LOG`` in a fresh process
    (run from the log's folder, so that the package comes from ``before`` when it is given)."""
    environment = dict(os.environ)
    if before:
        environment["PYTHONPATH"] = before
    child = subprocess.Popen(
        [sys.executable, "-m", "outofgears", *command[:1], str(log), *command[1:]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=environment,
        cwd=log.parent,
        preexec_fn=_capped,
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, child.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--before", help="a copy of the package as it was, run side by side")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, (log, commands) in cases().items():
            path = Path(folder) / "game.log.json"
            path.write_text(dump_log(log), "utf-8")
            size = path.stat().st_size
            for command in commands:
                cpu, mb, status = measure(command, path, None)
                line = f"{name} ({size / 1000:,.0f} KB), {' '.join(command)}: {cpu:.2f} s, {mb:.0f} MB, exit {status}"
                if arguments.before:
                    old_cpu, old_mb, old_status = measure(command, path, arguments.before)
                    line += f"; before {old_cpu:.2f} s, {old_mb:.0f} MB, exit {old_status}"
                print(line, flush=True)
    print(json.dumps({"python": sys.version.split()[0]}))


if __name__ == "__main__":
    main()
