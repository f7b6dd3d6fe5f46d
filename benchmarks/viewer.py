"""The game viewer's cost against the replay of the same game: ``python -m benchmarks.viewer``.

Issue 24 asks that ``outofgears view`` of a whole game cost at most 4x its ``outofgears
replay``; issue 23 measured 13 s for the view of ``examples/real-table.log.json``. Each run is
a fresh child process, the two commands alternating on each log, so that a busy machine slows
both alike; the figures are the medians of the wall time and of the CPU time (user + system),
and their ratios.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOGS = ("examples/real-table.log.json", "examples/full-game.log.json")


def timed(command: list[str]) -> tuple[float, float]:
    """The wall time and the CPU time of one run of ``command`` in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    script = str(Path(sys.executable).with_name("outofgears"))
    print(f"median of {repeats} runs each; wall and CPU seconds")
    print(f"{'log':<34}{'replay':>14}{'view':>14}{'ratio':>14}")
    with tempfile.TemporaryDirectory() as folder:
        page = str(Path(folder) / "game.html")
        for log in LOGS:
            replays, views = [], []
            for _ in range(repeats):
                replays.append(timed([script, "replay", log, "--quiet"]))
                views.append(timed([script, "view", log, "-o", page, "--force"]))
            replay = [statistics.median(run[i] for run in replays) for i in (0, 1)]
            view = [statistics.median(run[i] for run in views) for i in (0, 1)]
            print(
                f"{Path(log).name:<34}"
                f"{replay[0]:>6.2f} /{replay[1]:>5.2f}"
                f"{view[0]:>8.2f} /{view[1]:>5.2f}"
                f"{view[0] / replay[0]:>7.1f}x /{view[1] / replay[1]:>4.1f}x"
            )


if __name__ == "__main__":
    main()
