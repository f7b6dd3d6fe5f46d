"""Run every benchmark and print a table: ``python -m benchmarks [--quick]``.

Each figure is the median of several runs, with the minimum and the maximum.

1. ``apply_turn`` and ``resolve_turn`` throughput (turns/s) on 2, 4 and 8 robots with random
   legal programs, base game and all expansions (upgrades, Jolly and three-point gears); and
   on 8 robots with explicit choices drawn by ``legal_choices(...).sample``, and
   ``legal_choices`` itself. ``python -m benchmarks.one_engine`` compares the engine with the
   fast path it replaced (issue 11), side by side.
2. Whole random games per second, 4 and 8 robots, one process.
3. ``outofgears simulate`` with 1 and 2 worker processes: the rate it reports (its own clock,
   without the interpreter's start) and the process's wall time, and the scaling.
4. ``outofgears replay``'s engine over a JSON Lines corpus (10,000 games, 1,000 with
   ``--quick``) read line by line: games/s and peak memory (ru_maxrss of a child process).
5. CLI cold start: ``import outofgears``, ``outofgears --help``, ``outofgears replay`` of a
   one-turn log; wall time of a fresh process.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from outofgears.play.policies import random_programs
from outofgears.rules.legal import legal_choices
from outofgears.rules.model import GameState, Options
from outofgears.rules.programs import AnyProgram
from outofgears.rules.setup import setup_game
from outofgears.rules.turn import apply_turn, resolve_turn

ALL_EXPANSIONS = Options(upgrades=True, jolly_gears=True, three_point_gears=True)


def script(name: str) -> str:
    """The console script ``name`` of the running environment."""
    return str(Path(sys.executable).with_name(name))


# --- what is measured ------------------------------------------------------------------------


def positions(
    robots: int, options: Options, count: int, seed: int = 1
) -> list[tuple[GameState, dict[int, AnyProgram]]]:
    """``count`` positions of random games, each with random legal programs for its turn."""
    rng = random.Random(seed)
    found: list[tuple[GameState, dict[int, AnyProgram]]] = []
    game = 0
    while len(found) < count:
        game += 1
        state = setup_game(list(range(1, robots + 1)), seed=seed * 1000 + game, options=options)
        while not state.game_over and len(found) < count:
            programs = random_programs(state, rng)
            found.append((state, programs))
            state = apply_turn(state, programs)
    return found


def turns_per_second(
    cases: list[tuple[GameState, dict[int, AnyProgram]]],
    events: bool,
    seconds: float,
    *,
    choices: bool = False,
) -> float:
    """Turns resolved per second over ``cases``, round after round for about ``seconds``.

    ``choices``: with explicit choices, drawn beforehand by ``legal_choices(...).sample``.
    """
    play: Callable[..., object] = resolve_turn if events else apply_turn
    rng = random.Random(2)
    work = [
        (state, programs, legal_choices(state, programs).sample(rng) if choices else None)
        for state, programs in cases
    ]
    done = 0
    started = time.perf_counter()
    while True:
        for state, programs, chosen in work:
            play(state, programs, choices=chosen)
        done += len(cases)
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return done / elapsed


def spaces_per_second(
    cases: list[tuple[GameState, dict[int, AnyProgram]]], seconds: float
) -> float:
    """``legal_choices`` spaces built per second over ``cases``."""
    done = 0
    started = time.perf_counter()
    while True:
        for state, programs in cases:
            legal_choices(state, programs)
        done += len(cases)
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return done / elapsed


def games_per_second(robots: int, games: int, seed: int) -> float:
    """Whole random games (setup, random programs, ``apply_turn`` to the end) per second."""
    rng = random.Random(seed)
    numbers = list(range(1, robots + 1))
    started = time.perf_counter()
    for game in range(games):
        state = setup_game(numbers, seed=seed * 100_000 + game)
        turns = 0
        while not state.game_over and turns < 500:
            state = apply_turn(state, random_programs(state, rng))
            turns += 1
    return games / (time.perf_counter() - started)


def simulate_seconds(games: int, workers: int, output: Path) -> tuple[float, float]:
    """``outofgears simulate`` writing ``games`` 4-robot games to ``output``: the wall time of
    the process, and the games per second that simulate reports (its own clock, from the
    first game to the last line written: the interpreter's start and imports left out)."""
    command = [script("outofgears"), "simulate", "--games", str(games), "--robots", "4"]
    command += ["--seed", "1", "--workers", str(workers), "-o", str(output), "--force"]
    command += ["--format", "json"]
    started = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    wall_time = time.perf_counter() - started
    return wall_time, float(json.loads(done.stdout)["games_per_second"])


REPLAY_CHILD = """
import resource, sys, time
from outofgears.log import read_log_text
from outofgears.judge.replay import replay_log
started = time.perf_counter()
games = 0
with open(sys.argv[1], encoding="utf-8") as lines:
    for number, line in enumerate(lines, 1):
        replayed = replay_log(read_log_text(line, f"line {number}"))
        assert replayed.agrees, number
        games += 1
seconds = time.perf_counter() - started
print(games / seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def replay_corpus(corpus: Path) -> tuple[float, float]:
    """Games/s and peak memory (MiB, ru_maxrss) replaying ``corpus`` line by line in a child."""
    done = subprocess.run(
        [sys.executable, "-c", REPLAY_CHILD, str(corpus)],
        check=True,
        capture_output=True,
        text=True,
    )
    rate, peak = done.stdout.split()
    return float(rate), float(peak)


def wall(command: list[str]) -> float:
    """Wall time of a fresh process running ``command``."""
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


# --- the table -------------------------------------------------------------------------------


class Report:
    """Rows of figures: name, unit, median, min, max."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, float, float, float]] = []

    def add(self, name: str, unit: str, samples: list[float]) -> float:
        """Add a row from samples and print it at once; returns the median."""
        median = statistics.median(samples)
        self.rows.append((name, unit, median, min(samples), max(samples)))
        print(f"  {name}: {_number(median)} {unit}", file=sys.stderr, flush=True)
        return median

    def markdown(self) -> str:
        """The table in Markdown."""
        lines = [
            "| Benchmark | Unit | Median | Min | Max |",
            "|---|---|--:|--:|--:|",
        ]
        for name, unit, median, low, high in self.rows:
            lines.append(
                f"| {name} | {unit} | {_number(median)} | {_number(low)} | {_number(high)} |"
            )
        return "\n".join(lines)


def _number(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def machine() -> str:
    """The machine the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    with_model = Path("/proc/cpuinfo")
    if with_model.exists():
        for line in with_model.read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return (
        f"{os.cpu_count()} CPU(s) ({cpu}), Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()} {platform.release()}"
    )


def main() -> None:
    """Run the benchmarks and print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a short run with fewer repeats")
    parser.add_argument("--corpus-games", type=int, default=None, help="games in the corpus")
    arguments = parser.parse_args()
    quick = arguments.quick
    runs = 3 if quick else 5
    turn_seconds = 0.2 if quick else 1.0
    corpus_games = arguments.corpus_games or (1_000 if quick else 10_000)
    report = Report()

    print("1. turns", file=sys.stderr)
    for label, options in (("base", Options()), ("all expansions", ALL_EXPANSIONS)):
        for robots in (2, 4, 8):
            cases = positions(robots, options, 200)
            for events in (False, True):
                name = f"apply_turn, {robots} robots, {label}, " + (
                    "resolve_turn (events)" if events else "no events"
                )
                samples = [turns_per_second(cases, events, turn_seconds) for _ in range(runs)]
                report.add(name, "turns/s", samples)

    cases = positions(8, Options(), 200)
    samples = [turns_per_second(cases, False, turn_seconds, choices=True) for _ in range(runs)]
    report.add("apply_turn, 8 robots, base, sampled explicit choices", "turns/s", samples)
    samples = [spaces_per_second(cases, turn_seconds) for _ in range(runs)]
    report.add("legal_choices built, 8 robots, base", "spaces/s", samples)

    print("2. whole games", file=sys.stderr)
    for robots in (4, 8):
        games = 100 if quick else 400
        samples = [games_per_second(robots, games, seed) for seed in range(1, runs + 1)]
        report.add(f"random games, {robots} robots, 1 process", "games/s", samples)

    with tempfile.TemporaryDirectory(prefix="outofgears-bench-") as temp:
        directory = Path(temp)
        print("3. simulate", file=sys.stderr)
        games = 400 if quick else 2_000
        rates: dict[int, float] = {}
        for workers in (1, 2):
            measured = [
                simulate_seconds(games, workers, directory / "sim.jsonl") for _ in range(runs)
            ]
            rates[workers] = report.add(
                f"simulate {games} games, 4 robots, {workers} worker(s), as reported",
                "games/s",
                [rate for _, rate in measured],
            )
            report.add(
                f"simulate {games} games, 4 robots, {workers} worker(s), process wall time",
                "s",
                [seconds for seconds, _ in measured],
            )
        print(f"  scaling 1 -> 2 workers: {rates[2] / rates[1]:.2f}x", file=sys.stderr)
        ratio = rates[2] / rates[1]
        report.rows.append(("simulate scaling, 2 workers / 1", "x", ratio, ratio, ratio))

        print("4. replay", file=sys.stderr)
        corpus = directory / "corpus.jsonl"
        simulate_seconds(corpus_games, 2, corpus)
        measured = [replay_corpus(corpus) for _ in range(2)]
        report.add(
            f"replay of {corpus_games:,} games, streamed", "games/s", [r for r, _ in measured]
        )
        report.add("replay peak memory (ru_maxrss)", "MiB", [m for _, m in measured])

        print("5. cold start", file=sys.stderr)
        one_turn = directory / "one-turn.json"
        simulate_seconds(1, 1, directory / "one.jsonl")
        first = json.loads((directory / "one.jsonl").read_text(encoding="utf-8").splitlines()[0])
        first["turns"] = first["turns"][:1]
        first["turns"][0].pop("recorded", None)
        one_turn.write_text(json.dumps(first), encoding="utf-8")
        starts = runs * 2
        report.add(
            "python -c pass (baseline)",
            "s",
            [wall([sys.executable, "-c", "pass"]) for _ in range(starts)],
        )
        report.add(
            "import outofgears",
            "s",
            [wall([sys.executable, "-c", "import outofgears"]) for _ in range(starts)],
        )
        report.add(
            "outofgears --help",
            "s",
            [wall([script("outofgears"), "--help"]) for _ in range(starts)],
        )
        report.add(
            "outofgears replay (one-turn log)",
            "s",
            [wall([script("outofgears"), "replay", str(one_turn)]) for _ in range(starts)],
        )

    print(f"Machine: {machine()}")
    print(f"Command: python -m benchmarks{' --quick' if quick else ''}; median of {runs} runs")
    print()
    print(report.markdown())


if __name__ == "__main__":
    main()
