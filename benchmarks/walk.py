"""The house before and after (issue 20, part 4): ``python -m benchmarks.walk [--old 74abcc7]``.

For this tree and the tree of ``--old`` (extracted with ``git archive``), each in a child
process:

1. The import graph of the package (grimp, which ``lint-imports`` uses): its modules (the
   rooms), its import levels (the floors: the longest chain of imports, a module that imports
   no other of the package on floor 1), and its imports between modules.
2. A position followed through ``apply_turn`` (an 8-robot turn with all the expansions, the
   random policy's programs, 400 positions of random games) and a log through ``replay_log``
   (``examples/full-game.log.json``, read and replayed): every Python call traced, the modules
   of the package it enters (rooms visited) and how often a call or a return crosses from one
   module into another (moves back and forth), per turn and per log.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.one_engine import ROOT, extract

CHILD = r"""
import random, sys
from functools import lru_cache
import grimp

graph = grimp.build_graph("outofgears")
modules = sorted(graph.modules)
imports = {m: graph.find_modules_directly_imported_by(m) for m in modules}

@lru_cache(maxsize=None)
def floor(module):
    below = [floor(other) for other in imports[module] if other != module]
    return 1 + max(below, default=0)

print("modules", len(modules))
print("floors", max(floor(m) for m in modules))
print("imports", sum(len(found) for found in imports.values()))

import outofgears
from outofgears import Options, apply_turn, setup_game
try:  # a tree from before the package's folders first (see benchmarks.one_engine)
    from outofgears.policies import random_programs
except ImportError:
    from outofgears.play.policies import random_programs
try:
    from outofgears.replay import replay_log
except ImportError:
    from outofgears.judge.replay import replay_log
from outofgears.log import read_log

rng = random.Random(1)
options = Options(upgrades=True, jolly_gears=True, three_point_gears=True)
cases, game = [], 0
while len(cases) < 400:
    game += 1
    state = setup_game(list(range(1, 9)), seed=1000 + game, options=options)
    while not state.game_over and len(cases) < 400:
        programs = random_programs(state, rng)
        cases.append((state, programs))
        state = apply_turn(state, programs)

def walk(run):
    visited, moves, stack = set(), 0, []
    def profile(frame, event, arg):
        nonlocal moves
        if event not in ("call", "return"):
            return
        name = frame.f_globals.get("__name__", "")
        caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
        if not name.startswith("outofgears"):
            return
        visited.add(name)
        if caller.startswith("outofgears") and caller != name:
            moves += 1
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return visited, moves

visited, moves = walk(lambda: [apply_turn(s, p) for s, p in cases])
print("turn_rooms", len(visited))
print("turn_moves", moves / len(cases))
log = read_log(sys.argv[1])
visited, moves = walk(lambda: replay_log(log))
print("replay_rooms", len(visited))
print("replay_moves", moves)
"""

LABELS = {
    "modules": "modules in the package (rooms)",
    "floors": "import levels (floors)",
    "imports": "imports between modules",
    "turn_rooms": "apply_turn: modules entered",
    "turn_moves": "apply_turn: moves between modules, per turn",
    "replay_rooms": "replay_log of examples/full-game.log.json: modules entered",
    "replay_moves": "replay_log of examples/full-game.log.json: moves between modules",
}


def figures(tree: Path) -> dict[str, str]:
    """The figures of the package of ``tree``, from a child process."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROOT / "examples" / "full-game.log.json")],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        cwd=tree,
    )
    return dict(line.split() for line in done.stdout.splitlines())


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.walk", description=__doc__)
    parser.add_argument("--old", default="74abcc7", help="the commit to compare with")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="outofgears-old-") as temp:
        old = figures(extract(arguments.old, Path(temp)))
    new = figures(ROOT)
    print(f"| Figure | {arguments.old} | this tree |")
    print("|---|--:|--:|")
    for key, label in LABELS.items():
        before, after = float(old[key]), float(new[key])
        shown = [
            f"{value:,.0f}" if value.is_integer() else f"{value:,.1f}" for value in (before, after)
        ]
        print(f"| {label} | {shown[0]} | {shown[1]} |")


if __name__ == "__main__":
    main()
