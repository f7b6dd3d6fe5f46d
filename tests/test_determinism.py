"""The same command gives the same bytes in other processes under other hash seeds (issue 7).

Sets and dicts of strings iterate in an order that ``PYTHONHASHSEED`` changes; nothing that
reaches the output may depend on it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HASH_SEEDS = ("0", "1", "12345")
COMMANDS = {
    "replay": ["replay", "examples/expansions.log.json", "--format", "json"],
    "simulate": [
        "simulate",
        "--games",
        "5",
        "--robots",
        "5",
        "--seed",
        "3",
        "--upgrades",
        "--jolly",
    ],
}


def run_under(hash_seed: str, args: list[str]) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-m", "outofgears", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_output_is_the_same_under_every_hash_seed(name: str) -> None:
    outputs = {seed: run_under(seed, COMMANDS[name]) for seed in HASH_SEEDS}
    assert outputs["0"], "no output"
    assert outputs["1"] == outputs["0"]
    assert outputs["12345"] == outputs["0"]
