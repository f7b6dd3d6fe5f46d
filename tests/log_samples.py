"""Sample logs and the invalid-log corpus, shared by the log reader, schema and CLI tests."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from outofgears import GameState, gears
from outofgears.log import GameLog, PositionRecord, Recorded, RobotGears, Start, TurnRecord
from outofgears.rules.programs import parse_program
from outofgears.rules.scoring import player_scores

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


def two_robots_fighting(turns: int = 0) -> GameLog:
    """Two robots that attack each other in turn for ``turns`` turns (robot 1 attacks 2, then 2
    attacks 1, the attacked one defending), nothing recorded: no one harvests and no dump is
    empty, so the game never ends."""
    programs = [
        {1: parse_program("attack 1"), 2: parse_program("attack 1")},
        {1: parse_program("attack 2"), 2: parse_program("attack 2")},
    ]
    return GameLog(
        players={"P1": (1,), "P2": (2,)},
        start=Start(
            position=PositionRecord(
                robots={
                    1: RobotGears(feet=gears(1, 3, 4), circuit=gears(5)),
                    2: RobotGears(feet=gears(2, 6), circuit=()),
                },
                dumps={1: gears(7), 2: gears(8)},
                reserve=(),
            )
        ),
        turns=tuple(TurnRecord(n, programs[n % 2]) for n in range(1, turns + 1)),
    )


def recorded_after(
    state: GameState, mode: str, rng: random.Random, scores_share: float = 0.5
) -> Recorded:
    """What a table writes down after a turn, in one of three ways: ``"full"``, every robot's
    gears; ``"partial"``, each robot's feet and circuit each written with even odds; ``"scores"``,
    the scores alone. Beside the gears, the scores are written with odds ``scores_share``."""
    scores = {score.player: score.points for score in player_scores(state)}
    if mode == "scores":
        return Recorded(scores=scores)
    robots = {}
    for robot in state.robots:
        feet = robot.feet if mode == "full" or rng.random() < 0.5 else None
        circuit = robot.circuit if mode == "full" or rng.random() < 0.5 else None
        if feet is not None or circuit is not None:
            robots[robot.number] = RobotGears(feet=feet, circuit=circuit)
    return Recorded(robots=robots, scores=scores if rng.random() < scores_share else {})
