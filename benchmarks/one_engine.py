"""The one engine against the fast path it replaced: ``python -m benchmarks.one_engine``.

Issue 11's figures, side by side in one run. Each figure is measured in a fresh child process,
the two engines taking turns round after round (these machines are noisy: compare medians and
ratios, not single runs):

1. ``apply_turn``, 8 robots, base game, default choices, no events: this tree, and the fast path
   of commit ``--baseline`` (default ``caa2990``, the last commit with ``fastturn.py``),
   extracted with ``git archive`` into a temporary directory.
2. ``resolve_turn`` (events) on the same positions, against 1.
3. ``apply_turn`` with explicit choices drawn beforehand by ``legal_choices(...).sample(rng)``
   (the sampling not timed), against 1.
4. ``legal_choices(state, programs)`` built for each position: spaces per second; and
   ``count()`` of each, for information.

The positions are those of random 8-robot games (seeded, the random policy), each engine
playing its own games from the same seeds: the two sets are alike, not identical, as the
default tie-break changed with ruling R-SYMMETRY.

The ratio to the fast path is given twice: the ratio of the medians, and the median of the
ratios of each round (the two engines measured one after the other), which a machine whose
load drifts during the run disturbs less.

``--in-process`` measures figures 1-3 in one process instead, the fast path imported beside
this tree (its package copied under another name), in CPU time (``time.thread_time_ns``):
passes over the 400 positions alternate between the engines, and each ratio is the median of
the per-pass ratios with its quartiles. CPU time is what the engines cost, whatever else the
machine runs.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import random, sys, time
from outofgears import Options, apply_turn, resolve_turn, setup_game
try:  # a tree from before the package's folders (issue 20) first: an editable install of
    from outofgears.policies import random_programs  # this tree would lend it outofgears.play
except ImportError:
    from outofgears.play.policies import random_programs

what, seconds = sys.argv[1], float(sys.argv[2])
rng = random.Random(1)
cases = []
game = 0
while len(cases) < 400:
    game += 1
    state = setup_game(list(range(1, 9)), seed=1000 + game)
    while not state.game_over and len(cases) < 400:
        programs = random_programs(state, rng)
        cases.append((state, programs))
        state = apply_turn(state, programs)

def rate(play):
    done, started = 0, time.perf_counter()
    while True:
        for state, programs, choices in work:
            play(state, programs, choices)
        done += len(work)
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return done / elapsed

work = [(state, programs, None) for state, programs in cases]
if what == "apply":
    print(rate(lambda s, p, c: apply_turn(s, p)))
elif what == "resolve":
    print(rate(lambda s, p, c: resolve_turn(s, p)))
elif what == "choices":
    from outofgears import legal_choices
    drawn = random.Random(2)
    work = [(s, p, legal_choices(s, p).sample(drawn)) for s, p in cases]
    print(rate(lambda s, p, c: apply_turn(s, p, choices=c)))
elif what == "legal":
    from outofgears import legal_choices
    print(rate(lambda s, p, c: legal_choices(s, p)))
elif what == "count":
    from outofgears import legal_choices
    started = time.perf_counter()
    counts = [legal_choices(s, p).count() for s, p in cases]
    elapsed = time.perf_counter() - started
    print(len(cases) / elapsed, sorted(counts)[len(counts) // 2], max(counts))
"""


def measure(tree: Path, what: str, seconds: float) -> list[float]:
    """One child process measuring ``what`` with the package of ``tree``."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, what, str(seconds)],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        cwd=tree,
    )
    return [float(word) for word in done.stdout.split()]


def extract(commit: str, into: Path) -> Path:
    """The package as it was at ``commit``, under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "outofgears"],
        check=True,
        capture_output=True,
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


IN_PROCESS = r"""
import random, statistics, sys, time
sys.path.insert(0, sys.argv[1])
import outofgears, outofgears_baseline
from outofgears import apply_turn, legal_choices, resolve_turn
from outofgears.play.policies import random_programs

passes = int(sys.argv[2])

def positions(package):
    rng = random.Random(1)
    cases, game = [], 0
    while len(cases) < 400:
        game += 1
        state = package.setup_game(list(range(1, 9)), seed=1000 + game)
        while not state.game_over and len(cases) < 400:
            programs = policies_of(package).random_programs(state, rng)
            cases.append((state, programs))
            state = package.apply_turn(state, programs)
    return cases

import importlib

def policies_of(package):
    for name in (".play.policies", ".policies"):  # the folders of issue 20, or before them
        try:
            return importlib.import_module(name, package.__name__)
        except ImportError:
            continue
    raise ImportError("no random policy")

baseline_cases, cases = positions(outofgears_baseline), positions(outofgears)
drawn = random.Random(2)
chosen = [(s, p, legal_choices(s, p).sample(drawn)) for s, p in cases]
baseline_apply = outofgears_baseline.apply_turn

def run_baseline():
    for state, programs in baseline_cases:
        baseline_apply(state, programs)

def run_apply():
    for state, programs in cases:
        apply_turn(state, programs)

def run_resolve():
    for state, programs in cases:
        resolve_turn(state, programs)

def run_choices():
    for state, programs, choices in chosen:
        apply_turn(state, programs, choices=choices)

runs = {"baseline": run_baseline, "apply": run_apply, "resolve": run_resolve,
        "choices": run_choices}
for run in runs.values():
    run()
spent = {name: [] for name in runs}
for index in range(passes):
    for name in (list(runs) if index % 2 else list(reversed(runs))):
        started = time.thread_time_ns()
        runs[name]()
        spent[name].append(time.thread_time_ns() - started)
for name, against in (("apply", "baseline"), ("resolve", "apply"), ("choices", "apply")):
    ratios = [a / b for a, b in zip(spent[against], spent[name], strict=True)]
    low, middle, high = statistics.quantiles(ratios, n=4)
    print(name, statistics.median(spent[name]) / 400_000, statistics.median(ratios), low, high)
print("baseline", statistics.median(spent["baseline"]) / 400_000, 1, 1, 1)
"""


def rename_package(tree: Path, name: str) -> None:
    """Rename the package ``outofgears`` under ``tree`` to ``name``, its imports with it."""
    (tree / "outofgears").rename(tree / name)
    for path in (tree / name).rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"\boutofgears\b", name, text), encoding="utf-8")


def in_process(baseline: Path, passes: int) -> None:
    """Figures 1-3 in one process, in CPU time, the two engines alternating pass by pass."""
    rename_package(baseline, "outofgears_baseline")
    done = subprocess.run(
        [sys.executable, "-c", IN_PROCESS, str(baseline), str(passes)],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        cwd=ROOT,
    )
    labels = {
        "baseline": "fast path of the baseline, apply_turn",
        "apply": "apply_turn, no events (against the fast path)",
        "resolve": "resolve_turn, events (against apply_turn)",
        "choices": "apply_turn, sampled explicit choices (against apply_turn)",
    }
    print(f"In one process, CPU time, {passes} alternating passes over 400 positions:")
    print()
    print("| Figure | µs per turn (median) | Ratio (median of passes) | Quartiles |")
    print("|---|--:|--:|--:|")
    for line in done.stdout.splitlines():
        name, micros, ratio, low, high = line.split()
        shown = f"{float(ratio):.3f}x" if name != "baseline" else ""
        quartiles = f"{float(low):.3f}-{float(high):.3f}" if name != "baseline" else ""
        print(f"| {labels[name]} | {float(micros):.2f} | {shown} | {quartiles} |")


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.one_engine", description=__doc__)
    parser.add_argument("--baseline", default="caa2990", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=5, help="child processes per figure")
    parser.add_argument("--seconds", type=float, default=1.0, help="timed seconds per child")
    parser.add_argument(
        "--in-process", type=int, metavar="PASSES", help="measure in one process, in CPU time"
    )
    arguments = parser.parse_args()
    figures: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="outofgears-baseline-") as temp:
        baseline = extract(arguments.baseline, Path(temp))
        if arguments.in_process:
            in_process(baseline, arguments.in_process)
            return
        for _ in range(arguments.rounds):
            figures.setdefault("baseline apply", []).append(
                measure(baseline, "apply", arguments.seconds)[0]
            )
            for what in ("apply", "resolve", "choices", "legal"):
                figures.setdefault(what, []).append(measure(ROOT, what, arguments.seconds)[0])
    counted = measure(ROOT, "count", 0)
    median = {name: statistics.median(samples) for name, samples in figures.items()}
    print(f"Median of {arguments.rounds} child processes each, 8 robots, base game, turns/s:")
    print()
    print("| Figure | Median | Min | Max | Ratio of medians | Median of round ratios | Target |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    rows = (
        ("baseline apply", f"fast path of {arguments.baseline}, apply_turn", None, ""),
        ("apply", "apply_turn, no events", "baseline apply", ">= 1.0x"),
        ("resolve", "resolve_turn, events", "apply", ">= 0.55x"),
        ("choices", "apply_turn, sampled explicit choices", "apply", ">= 0.8x"),
        ("legal", "legal_choices built (spaces/s)", None, ">= 20,000/s"),
    )
    for key, label, against, target in rows:
        samples = figures[key]
        ratio = paired = ""
        if against:
            ratio = f"{median[key] / median[against]:.2f}x {against}"
            rounds = zip(samples, figures[against], strict=True)
            paired = f"{statistics.median(mine / theirs for mine, theirs in rounds):.2f}x"
        print(
            f"| {label} | {median[key]:,.0f} | {min(samples):,.0f} | {max(samples):,.0f} "
            f"| {ratio} | {paired} | {target} |"
        )
    print()
    print(
        f"legal_choices(...).count() over the same 400 positions: {counted[0]:,.0f} per second; "
        f"median count {counted[1]:,.0f}, largest {counted[2]:,.0f}"
    )


if __name__ == "__main__":
    main()
