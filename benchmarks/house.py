"""Issue 20's figures, side by side in one run: ``python -m benchmarks.house``.

1. ``outofgears simulate`` (4 robots, logs written) against the plain reference game loop
   (``setup_game``, the random policy and ``apply_turn`` to the end, no log), each in a fresh
   child process, the two taking turns round after round: games per second (simulate's own
   clock, without the interpreter's start) and the ratio of each round. Target: >= 0.45x.
2. ``legal_programs`` for every robot of a position, in turns: the CPU time of asking all 8
   robots' legal programs over the positions of random 8-robot games, divided by the CPU time
   of ``apply_turn`` on the same positions (passes alternating, the median of the per-pass
   ratios). Target: <= 1 turn. With ``--old``, the same for the old tree (trial and error).
3. ``setup_game`` of 8 robots, in turns, measured the same way. Target: <= 3 turns.
4. ``outofgears --help`` cold: the wall time of fresh processes (``python -m outofgears
   --help``), this tree and the tree of ``--old`` (default ``74abcc7``, extracted with
   ``git archive``) taking turns; medians and the median of the per-pair ratios.
   Target: < 0.25 s.

5. The speed tricks that stay (issue 20), each against what it replaces, on the robots and
   piles of 400 positions of 8-robot games: a robot built through the slot descriptors
   (``rules/table.py``) against ``Robot(...)``; a pile's ranks read through the shared
   multisets (``rules/gears.py``) against :func:`~outofgears.rules.gears.gear_ranks`.

``python -m benchmarks.one_engine --baseline 74abcc7 --in-process 30`` gives the last figure
(``apply_turn`` against the old tree, target >= 0.95x).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.one_engine import ROOT, extract

SIMULATE_CHILD = r"""
import json, subprocess, sys
command = [sys.executable, "-m", "outofgears", "simulate", "--games", sys.argv[1],
           "--robots", "4", "--seed", sys.argv[2], "-o", sys.argv[3], "--force",
           "--format", "json"]
done = subprocess.run(command, check=True, capture_output=True, text=True)
print(json.loads(done.stdout)["games_per_second"])
"""

PLAIN_CHILD = r"""
import random, sys, time
from outofgears import apply_turn, setup_game
from outofgears.play.policies import random_programs
games, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
started = time.perf_counter()
for game in range(games):
    state = setup_game([1, 2, 3, 4], seed=seed * 100_000 + game)
    turns = 0
    while not state.game_over and turns < 500:
        state = apply_turn(state, random_programs(state, rng))
        turns += 1
print(games / (time.perf_counter() - started))
"""

TURNS_CHILD = r"""
import random, statistics, sys, time
from outofgears import Options, apply_turn, legal_programs, setup_game
try:  # a tree from before the package's folders (issue 20) first: an editable install of
    from outofgears.policies import random_programs  # this tree would lend it outofgears.play
except ImportError:
    from outofgears.play.policies import random_programs

passes = int(sys.argv[1])
options = Options(upgrades=sys.argv[2] == "upgrades")
rng = random.Random(1)
cases, game = [], 0
while len(cases) < 400:
    game += 1
    state = setup_game(list(range(1, 9)), seed=1000 + game, options=options)
    while not state.game_over and len(cases) < 400:
        programs = random_programs(state, rng)
        cases.append((state, programs))
        state = apply_turn(state, programs)
numbers = list(range(1, 9))

def turns():
    for state, programs in cases:
        apply_turn(state, programs)

def legal():
    for state, _ in cases:
        for robot in numbers:
            legal_programs(state, robot)

def setups():
    for game in range(400):
        setup_game(numbers, seed=game, options=options)

runs = {"turn": turns, "legal": legal, "setup": setups}
for run in runs.values():
    run()
spent = {name: [] for name in runs}
for index in range(passes):
    for name in (list(runs) if index % 2 else list(reversed(runs))):
        started = time.thread_time_ns()
        runs[name]()
        spent[name].append(time.thread_time_ns() - started)
for name in ("legal", "setup"):
    ratios = [a / b for a, b in zip(spent[name], spent["turn"], strict=True)]
    print(name, statistics.median(ratios), min(ratios), max(ratios))
"""


TRICKS_CHILD = r"""
import random, timeit
from outofgears import apply_turn, setup_game
from outofgears.play.policies import random_programs
from outofgears.rules import table
from outofgears.rules.gears import RANKS_OF_SHARED, gear_ranks, ranks_of
from outofgears.rules.model import Robot

rng, states = random.Random(1), []
for game in range(40):
    state = setup_game(list(range(1, 9)), seed=game)
    while not state.game_over and len(states) < 400:
        states.append(state)
        state = apply_turn(state, random_programs(state, rng))
robots = [robot for state in states for robot in state.robots]
piles = [robot.feet for robot in robots] + [dump.gears for s in states for dump in s.dumps]
new, known = object.__new__, RANKS_OF_SHARED.get

def constructor():
    for r in robots:
        Robot(r.number, r.player, r.feet, r.circuit)

def descriptors():
    for r in robots:
        robot = new(Robot)
        table._set_robot_number(robot, r.number)
        table._set_robot_player(robot, r.player)
        table._set_robot_feet(robot, r.feet)
        table._set_robot_circuit(robot, r.circuit)

def by_gears():
    for pile in piles:
        gear_ranks(pile)

def shared():
    for pile in piles:
        ranks = known(id(pile))
        ranks = ranks_of(pile) if ranks is None else [*ranks]

for name, plain, trick, items in (
    ("robot", constructor, descriptors, robots), ("ranks", by_gears, shared, piles)
):
    slow = min(timeit.repeat(plain, number=5, repeat=7)) / 5 / len(items)
    fast = min(timeit.repeat(trick, number=5, repeat=7)) / 5 / len(items)
    print(name, slow * 1e9, fast * 1e9)
"""


def trick_figures() -> None:
    """Figure 5: the speed tricks that stay, each against what it replaces."""
    print("5. The speed tricks that stay (best of 7 runs, ns per item):")
    print()
    print("| Trick | Without | With | Saving |")
    print("|---|--:|--:|--:|")
    labels = {
        "robot": "a new robot: Robot(...) / the slot descriptors (rules/table.py)",
        "ranks": "a pile's ranks: gear_ranks / the shared multisets (rules/gears.py)",
    }
    for line in child(TRICKS_CHILD, ROOT).splitlines():
        name, slow, fast = line.split()
        print(
            f"| {labels[name]} | {float(slow):,.0f} | {float(fast):,.0f} "
            f"| {float(slow) / float(fast):.1f}x |"
        )
    print()


def child(code: str, tree: Path, *arguments: str) -> str:
    """Standard output of a fresh child process running ``code`` on the package of ``tree``."""
    done = subprocess.run(
        [sys.executable, "-c", code, *arguments],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=tree,
    )
    return done.stdout


def wall(tree: Path, command: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user and system, the child's own accounting) of a fresh
    ``python -m outofgears ...`` process on the package of ``tree``. On a busy machine the CPU
    time is the steadier figure: the wall time adds the waits for a processor."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "outofgears", *command],
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(tree)},
        cwd=tree,
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu


def simulate_figures(rounds: int, games: int) -> None:
    """Figure 1: simulate against the plain loop, round after round."""
    simulated: list[float] = []
    plain: list[float] = []
    with tempfile.TemporaryDirectory(prefix="outofgears-house-") as temp:
        output = str(Path(temp) / "games.jsonl")
        for round_number in range(1, rounds + 1):
            seed = str(round_number)
            simulated.append(float(child(SIMULATE_CHILD, ROOT, str(games), seed, output)))
            plain.append(float(child(PLAIN_CHILD, ROOT, str(games), seed)))
    ratios = [mine / theirs for mine, theirs in zip(simulated, plain, strict=True)]
    print(f"1. simulate against the plain game loop, {games} 4-robot games, {rounds} rounds:")
    print()
    print("| Figure | Median | Min | Max |")
    print("|---|--:|--:|--:|")
    for label, samples, unit in (
        ("outofgears simulate (as reported), games/s", simulated, ""),
        ("plain game loop, games/s", plain, ""),
        ("ratio simulate / plain, per round", ratios, "x"),
    ):
        print(
            f"| {label} | {_figure(statistics.median(samples), unit)} "
            f"| {_figure(min(samples), unit)} | {_figure(max(samples), unit)} |"
        )
    print()


def turn_figures(passes: int, old: Path | None) -> None:
    """Figures 2 and 3: legal_programs of 8 robots and setup_game, in turns."""
    print(f"2, 3. In turns of apply_turn (8 robots, CPU time, {passes} alternating passes):")
    print()
    print("| Tree | Options | Figure | Median (turns) | Min | Max |")
    print("|---|---|---|--:|--:|--:|")
    trees = [("this tree", ROOT)] + ([("old", old)] if old is not None else [])
    for name, tree in trees:
        for options in ("base", "upgrades"):
            for line in child(TURNS_CHILD, tree, str(passes), options).splitlines():
                figure, median, low, high = line.split()
                label = "legal_programs, all 8 robots" if figure == "legal" else "setup_game"
                print(
                    f"| {name} | {options} | {label} | {float(median):.2f} "
                    f"| {float(low):.2f} | {float(high):.2f} |"
                )
    print()


def help_figures(runs: int, old: Path) -> None:
    """Figure 4: ``outofgears --help`` cold, this tree and the old one taking turns."""
    mine: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    wall(ROOT, ["--help"])
    wall(old, ["--help"])
    for _ in range(runs):
        mine.append(wall(ROOT, ["--help"]))
        theirs.append(wall(old, ["--help"]))
    baseline = [_bare() for _ in range(runs)]
    print(f"4. outofgears --help, cold (python -m outofgears --help), {runs} runs each, in turn:")
    print()
    print("| Figure | Median | Min | Max |")
    print("|---|--:|--:|--:|")
    for clock, index in (("wall", 0), ("CPU", 1)):
        ours = [sample[index] for sample in mine]
        old_ones = [sample[index] for sample in theirs]
        ratios = [a / b for a, b in zip(ours, old_ones, strict=True)]
        for label, samples, unit in (
            (f"this tree, {clock} s", ours, ""),
            (f"old tree, {clock} s", old_ones, ""),
            (f"ratio this / old, {clock}, per pair", ratios, "x"),
        ):
            print(
                f"| {label} | {_figure(statistics.median(samples), unit)} "
                f"| {_figure(min(samples), unit)} | {_figure(max(samples), unit)} |"
            )
    print(
        f"| python -c pass, wall s | {_figure(statistics.median(baseline), '')} "
        f"| {_figure(min(baseline), '')} | {_figure(max(baseline), '')} |"
    )
    print()


def _bare() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


def _figure(value: float, unit: str) -> str:
    if unit == "x":
        return f"{value:.2f}x"
    return f"{value:,.0f}" if value >= 100 else f"{value:.3f}"


def main() -> None:
    """Measure and print the tables."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.house", description=__doc__)
    parser.add_argument("--old", default="74abcc7", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of figure 1")
    parser.add_argument("--games", type=int, default=1000, help="games per round of figure 1")
    parser.add_argument("--passes", type=int, default=15, help="passes of figures 2 and 3")
    parser.add_argument("--runs", type=int, default=20, help="runs of figure 4")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="outofgears-old-") as temp:
        old = extract(arguments.old, Path(temp))
        simulate_figures(arguments.rounds, arguments.games)
        turn_figures(arguments.passes, old)
        help_figures(arguments.runs, old)
        trick_figures()


if __name__ == "__main__":
    main()
