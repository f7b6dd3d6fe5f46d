"""Reading the worst rejected logs: ``python -m benchmarks.reading``.

Issue 14's figure (class 2): each input is read in a fresh child process (interpreter start
not counted, the import of the schema validator counted) and must be refused in under a
second and 200 MB (maximum resident set size of the child).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

CHILD = r"""
import json, resource, sys, time
from outofgears.log import LogError, read_log_text
text = sys.stdin.read()
started = time.perf_counter()
try:
    read_log_text(text, "worst.json")
    message = "accepted"
except LogError as error:
    message = str(error)
elapsed = time.perf_counter() - started
print(json.dumps([elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, message]))
"""


def log_text(**changes: Any) -> str:
    data: dict[str, Any] = {
        "format": "outofgears-log/1",
        "players": {"A": [1], "B": [2]},
        "start": {"seed": 1},
        "turns": [],
    }
    data.update(changes)
    return json.dumps(data, separators=(",", ":"))


def cases() -> dict[str, str]:
    """The worst inputs of issue 14, and a few of the same kind."""
    deep = '{"format":"outofgears-log/1","x":' + "[" * 5000 + "]" * 5000 + "}"
    return {
        "100,000 empty turns": log_text(turns=[{}] * 100_000),
        "1,600,000 empty turns (4.8 MB)": log_text(turns=[{}] * 1_600_000),
        "60,000 bad players entries": log_text(players={f"p{i}": "x" for i in range(60_000)}),
        "60,000 valid players entries": log_text(players={f"p{i}": [1] for i in range(60_000)}),
        "300,000 repeated keys": "{" + ",".join(['"a":1'] * 300_000) + "}",
        "nesting 5,000 deep": deep,
        "100,000 bad programs in one turn": log_text(
            turns=[{"turn": 1, "programs": {str(i): "x" for i in range(100_000)}}]
        ),
    }


def measure(text: str) -> tuple[float, float, str]:
    """Seconds, megabytes and the message of reading ``text`` in a child process."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD], input=text, capture_output=True, text=True, check=True
    )
    elapsed, megabytes, message = json.loads(done.stdout)
    return elapsed, megabytes, message


def main() -> None:
    worst = 0.0
    for name, text in cases().items():
        elapsed, megabytes, message = measure(text)
        worst = max(worst, elapsed)
        print(
            f"{name:<36} {len(text):>9,} bytes  {elapsed:6.3f} s  {megabytes:6.0f} MB  {message[:70]}"
        )
    print(f"slowest: {worst:.3f} s")


if __name__ == "__main__":
    main()
