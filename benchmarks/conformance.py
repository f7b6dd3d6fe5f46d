"""The conformance suite for the reference engine, issue 33's figures side by side:
``python -m benchmarks.conformance``.

The wall-clock time of ``outofgears conformance`` run as a user runs it (a new process for the
runner, the reference engine as an external program), round after round, these machines being
noisy: compare the medians and the ratio.

1. ``--batch``: one engine process for the whole suite (issue 33's budget: under 5 s).
2. One engine process a case (the protocol's default), on the cases of SET-3 only (the seeded
   setups and the seeds' refusals), then scaled to the whole suite; ``--batch-only`` skips it.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from outofgears.judge.conformance import default_cases_folder, load_cases

ENGINE = f"{sys.executable} -m outofgears.judge.conformance"


def run_suite(batch: bool, clauses: list[str]) -> float:
    """Seconds for one run of the runner; it must pass every case it runs."""
    command = [sys.executable, "-m", "outofgears", "conformance", "--engine"]
    command += [f"{ENGINE} --batch", "--batch"] if batch else [ENGINE]
    for case_id in clauses:
        command += ["--clause", case_id]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"the suite failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch-only", action="store_true", help="skip figure 2")
    args = parser.parse_args()
    folder = default_cases_folder()
    assert isinstance(folder, Path)
    cases = load_cases(folder)
    batch = [run_suite(True, []) for _ in range(args.rounds)]
    print(f"{len(cases)} cases")
    print(
        f"1. --batch, whole suite:        median {statistics.median(batch):6.2f} s "
        f"(min {min(batch):.2f}, max {max(batch):.2f}; budget 5 s)"
    )
    if not args.batch_only:
        sample = run_suite(False, ["SET-3"])
        count = sum("SET-3" in case["clauses"] for case in cases)
        whole = sample / count * len(cases)
        print(
            f"2. a process a case, {count} cases: {sample:6.2f} s, "
            f"about {whole:.0f} s for the suite ({whole / statistics.median(batch):.0f}x batch)"
        )


if __name__ == "__main__":
    main()
