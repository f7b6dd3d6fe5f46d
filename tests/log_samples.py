"""Sample logs and the invalid-log corpus, shared by the log reader, schema and CLI tests."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

CORPUS = Path(__file__).resolve().parent / "corpus" / "invalid"
EXPECTED: dict[str, dict[str, Any]] = tomllib.loads(
    (CORPUS / "EXPECTED.toml").read_text(encoding="utf-8")
)


def corpus_cases(*stages: str) -> list[Any]:
    """``pytest.param(name, expectation)`` for the corpus logs of the given stages (all if none)."""
    return [
        pytest.param(name, facts, id=name)
        for name, facts in sorted(EXPECTED.items())
        if not stages or facts["stage"] in stages
    ]


def valid_log_json() -> dict[str, Any]:
    """A small valid log: two players, a seed, two turns, recorded values after turn 1."""
    return {
        "format": "outofgears-log/1",
        "players": {"Ada": [1], "Bruno": [2]},
        "start": {"seed": 11},
        "turns": [
            {"turn": 1, "programs": {"1": "harvest 1", "2": "harvest 2"}},
            {"turn": 2, "programs": {"1": "trap 2", "2": "harvest 2"}},
        ],
    }


def defended_turn(steal: dict[str, Any] | None) -> dict[str, Any]:
    """Bruno defends against Ada, who holds one orange gear at her robot's feet."""
    turn: dict[str, Any] = {"turn": 1, "programs": {"1": "attack 2", "2": "attack 2"}}
    if steal is not None:
        turn["choices"] = {"defence_steals": [steal]}
    return {
        "format": "outofgears-log/1",
        "players": {"Ada": [1], "Bruno": [2]},
        "start": {
            "position": {
                "robots": {"1": {"feet": ["orange"]}, "2": {}},
                "dumps": {"1": ["red"], "2": ["orange"]},
                "reserve": ["red", "orange", "red", "orange"],
            }
        },
        "turns": [turn],
    }
