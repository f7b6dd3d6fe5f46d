"""The shipped example logs: valid, replayable, reproducible, and each showing what it is for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from outofgears.cli.main import main
from outofgears.judge.replay import replay_log
from outofgears.log import GameLog, log_schema, read_log
from outofgears.rules.programs import UpgradeProgram

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
AGREEING = [
    "full-game.log.json",
    "from-position.log.json",
    "two-robot.log.json",
    "expansions.log.json",
    "real-table.log.json",
]
DISPUTED = "disputed.log.json"
ILLEGAL_OUTCOME = "real-table-illegal.log.json"
FOLLOWED = "real-table-followed.log.json"
SCORES_ONLY = "scores-only.log.json"
ALL = [*AGREEING, DISPUTED, ILLEGAL_OUTCOME, FOLLOWED, SCORES_ONLY]


def load(name: str) -> GameLog:
    return read_log(EXAMPLES / name)


def replay_cli(name: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["replay", str(EXAMPLES / name), *args])
    return result.exit_code, result.output


def test_the_examples_directory_holds_exactly_the_shipped_logs() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.log.json")) == sorted(ALL)


@pytest.mark.parametrize("name", ALL)
def test_an_example_validates_against_the_json_schema(name: str) -> None:
    data: Any = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    spec_schema = json.loads((ROOT / "spec" / "log.schema.json").read_text(encoding="utf-8"))
    for schema in (spec_schema, log_schema()):
        jsonschema.Draft202012Validator(schema).validate(data)
    assert data["description"]
    assert data["written_by"].keys() == {"engine", "spec"}


@pytest.mark.parametrize("name", ALL)
def test_an_example_reads_with_the_strict_reader(name: str) -> None:
    log = load(name)
    assert log.description
    assert log.turns


@pytest.mark.parametrize("name", AGREEING)
def test_an_example_replays_in_agreement_with_the_rules(name: str) -> None:
    code, output = replay_cli(name)
    assert code == 0, output
    assert output.endswith("The log agrees with the rules.\n")
    replayed = replay_log(load(name))
    assert replayed.agrees
    assert replayed.final.game_over


def test_the_main_job_replays_the_full_game_quietly() -> None:
    code, output = replay_cli("full-game.log.json", "--quiet")
    assert code == 0
    lines = output.splitlines()
    assert "Turn 1" not in output
    assert "Scores after 10 turns of the log (game over):" in lines
    assert [line for line in lines if "points (" in line] == [
        "  Ada: 29 points (7 own-colour gears, robot 1)",
        "  Dario: 16 points (3 own-colour gears, robot 4)",
        "  Bruno: 6 points (1 own-colour gear, robot 2)",
        "  Chiara: 0 points (0 own-colour gears, robot 3)",
    ]
    assert lines[-2:] == ["Winner: Ada", "The log agrees with the rules."]


def test_the_full_game_is_the_seeded_game_that_play_plays() -> None:
    played = CliRunner().invoke(main, ["play", str(EXAMPLES / "seeded-game.json"), "--quiet"])
    _, replayed = replay_cli("full-game.log.json", "--quiet")
    scores = [line for line in played.output.splitlines() if "points (" in line]
    assert scores == [line for line in replayed.splitlines() if "points (" in line]


def test_the_full_game_records_every_robot_dump_and_score_after_every_turn() -> None:
    log = load("full-game.log.json")
    assert log.start.seed == 2026
    assert len(log.players) == 4
    for turn in log.turns:
        assert turn.recorded is not None
        assert sorted(turn.recorded.robots) == [1, 2, 3, 4]
        assert all(
            g.feet is not None and g.circuit is not None for g in turn.recorded.robots.values()
        )
        assert sorted(turn.recorded.dumps) == [1, 2, 3, 4]
        assert sorted(turn.recorded.scores) == ["Ada", "Bruno", "Chiara", "Dario"]


def test_the_position_example_starts_at_turn_5_from_an_explicit_position() -> None:
    log = load("from-position.log.json")
    position = log.start.position
    assert log.start.seed is None
    assert position is not None
    assert position.turn == 5
    assert sorted(position.robots) == sorted(position.dumps) == [1, 2, 3]
    assert position.reserve
    assert log.turns[0].turn == 5
    replayed = replay_log(log)
    assert replayed.start.reserve == position.reserve  # the draw order, as given


def test_the_two_robot_example_makes_every_kind_of_post_reveal_choice() -> None:
    log = load("two-robot.log.json")
    assert log.two_robot_variant is True
    assert all(len(robots) == 2 for robots in log.players.values())
    choices = [turn.choices for turn in log.turns if turn.choices is not None]
    assert any(c.defence_steals for c in choices)
    assert any(c.assemblies for c in choices)
    assert any(c.splits for c in choices)
    replayed = replay_log(log)
    for turn in replayed.turns:
        if turn.record.choices is not None:
            assert turn.choices == turn.record.choices.to_choices()  # taken as chosen


def test_the_expansions_example_lays_upgrade_cards_with_jolly_and_three_point_gears() -> None:
    log = load("expansions.log.json")
    assert log.options.upgrades
    assert log.options.jolly_gears
    assert log.options.three_point_gears
    laid = [p for t in log.turns for p in t.programs.values() if isinstance(p, UpgradeProgram)]
    assert len(laid) >= 2
    assert all(turn.recorded is not None and turn.recorded.scores for turn in log.turns)


def test_the_disputed_example_departs_at_turn_4_and_nowhere_else() -> None:
    replayed = replay_log(load(DISPUTED))
    assert [(d.turn, d.json_path, d.recorded, d.expected) for d in replayed.departures] == [
        (4, "$.turns[3].recorded.robots.1.feet", "none", "1 red, 1 orange"),
        (4, "$.turns[3].recorded.robots.3.feet", "1 red, 1 orange", "none"),
        (4, "$.turns[3].recorded.scores.Ada", "0 points", "3 points"),
        (4, "$.turns[3].recorded.scores.Chiara", "2 points", "0 points"),
    ]
    first = replayed.departures[0]
    assert first.robot == 1
    assert first.clause == "TRP-3"
    assert [str(event) for event in first.events] == [
        "red gear: dump 3 -> robot 1 feet (robot 1) [TRP-3]",
        "orange gear: dump 3 -> robot 1 feet (robot 1) [TRP-3]",
    ]


def test_the_real_table_example_gives_the_reserve_as_counts_and_every_draw() -> None:
    log = load("real-table.log.json")
    assert log.start.position is not None
    assert not log.start.position.reserve_order_known
    assert all(turn.drawn for turn in log.turns)
    assert all(turn.choices is None for turn in log.turns)


def test_the_real_table_example_agrees_by_inferring_the_tables_choices() -> None:
    code, output = replay_cli("real-table.log.json")
    assert code == 0, output
    assert "  inferred: " in output
    kinds = {choice.kind for choice in replay_log(load("real-table.log.json")).inferred}
    assert "assembly" in kinds


def test_the_illegal_outcome_example_departs_saying_what_the_rules_allowed() -> None:
    replayed = replay_log(load(ILLEGAL_OUTCOME))
    [departure] = replayed.departures
    assert departure.json_path == f"$.turns[{len(replayed.turns) - 1}].recorded.robots.2.circuit"
    assert departure.allowed is not None
    assert departure.allowed.startswith("robot 2 could assemble any of: ")
    code, output = replay_cli(ILLEGAL_OUTCOME)
    assert code == 1
    assert "the rules allowed: robot 2 could assemble any of: " in output


@pytest.mark.clause("SET-8")
def test_the_followed_example_departs_once_then_agrees_from_the_tables_position() -> None:
    log = load(FOLLOWED)
    replayed = replay_log(log)
    [followed] = [turn for turn in replayed.turns if turn.followed]
    assert [record.follows for record in log.turns].count("table") == 1
    assert log.turns[followed.index].follows == "table"
    assert {d.turn for d in replayed.departures} == {followed.turn}
    later = [turn for turn in replayed.turns if turn.turn > followed.turn]
    assert len(later) == 3
    assert not any(turn.departures for turn in later)
    assert later[0].before == followed.after != followed.result.state
    code, output = replay_cli(FOLLOWED)
    assert code == 1
    assert (
        f"  after turn {followed.turn} the game goes on from the position the table wrote "
        "down, not from the rules' (SET-8)"
    ) in output.splitlines()


def test_replaying_the_disputed_example_exits_1_with_the_report() -> None:
    code, output = replay_cli(DISPUTED)
    assert code == 1
    lines = [" ".join(line.split()) for line in output.splitlines()]  # spacing aside
    report = lines[lines.index("DEPARTS FROM THE RULES at turn 4: robot 1 feet") :]
    assert "in the log at: $.turns[3].recorded.robots.1.feet" in report
    assert "recorded: none" in report
    assert "the rules give: 1 red, 1 orange" in report
    clause = next(line for line in report if line.startswith("clause: "))
    assert clause.startswith("clause: TRP-3 (")
    because = report[report.index("because:") + 1 :]
    assert because[0].startswith("red gear: dump 3 -> robot 1 feet (robot 1) [TRP-3] (")
    assert because[1].startswith("orange gear: dump 3 -> robot 1 feet (robot 1) [TRP-3] (")
    assert report[-1] == "... and 3 more departures after it."
    assert "robot 3 harvest 3: harvest voided by a trap [TRP-2]" in lines
    assert "robot 1 trap 3: trap sprang [TRP-3]" in lines


def test_the_examples_are_what_the_generator_writes() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_examples.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == f"{len(ALL)} example logs are up to date\n"


def test_the_generator_rewrites_the_same_bytes(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_examples.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    for name in ALL:
        assert (tmp_path / name).read_bytes() == (EXAMPLES / name).read_bytes()
