"""``outofgears replay LOG``: the turn-by-turn report, the verdict and the exit status.

Exit status 0 when the log agrees with the rules, 1 when a recorded value or a
choice departs from them (the report names the turn, the robot, what was
recorded, what the rules give, and the events and clauses behind it), 2 for an
invalid log or command line (``tests/cli/test_bad_input.py`` has every case).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from outofgears import SPEC_VERSION, __version__
from tests.cli.helpers import replay, write
from tests.log_samples import defended_turn, valid_log_json

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.log.json"))


def agreeing_log() -> dict[str, Any]:
    """Two turns; after turn 2 the players recorded what the rules give."""
    data = valid_log_json()
    data["turns"][1]["recorded"] = {
        "robots": {"1": {"feet": ["orange"], "circuit": ["red", "orange"]}},
        "dumps": {"2": ["orange"]},
        "scores": {"Ada": 4, "Bruno": 3},
    }
    return data


def departing_log() -> dict[str, Any]:
    """Turn 2 recorded wrongly: Ada's trap took an orange gear, not a red one, and her score."""
    data = agreeing_log()
    data["turns"][1]["recorded"] = {
        "robots": {"1": {"feet": ["red"]}, "2": {"feet": ["red", "orange"]}},
        "scores": {"Ada": 5},
    }
    return data


# --- a log that agrees ------------------------------------------------------------------------


def test_an_agreeing_log_prints_every_turn_the_scores_and_the_verdict(tmp_path: Path) -> None:
    path = write(tmp_path, agreeing_log())
    result = replay(path)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout.splitlines() == [
        f"Replaying {path}",
        "Turn 1  [1: harvest 1, 2: harvest 2]",
        "  robot 1 harvest 1: harvested [HRV-2]",
        "  red gear: dump 1 -> robot 1 feet (robot 1) [HRV-2]",
        "  orange gear: dump 1 -> robot 1 feet (robot 1) [HRV-2]",
        "  robot 2 harvest 2: harvested [HRV-2]",
        "  red gear: dump 2 -> robot 2 feet (robot 2) [HRV-2]",
        "  orange gear: dump 2 -> robot 2 feet (robot 2) [HRV-2]",
        "Turn 2  [1: trap 2, 2: harvest 2]",
        "  robot 2 harvest 2: harvest voided by a trap [TRP-2]",
        "  robot 1 trap 2: trap sprang [TRP-3]",
        "  orange gear: dump 2 -> robot 1 feet (robot 1) [TRP-3]",
        "  red gear: robot 1 feet -> robot 1 circuit (robot 1) [ASM-1]",
        "  orange gear: robot 1 feet -> robot 1 circuit (robot 1) [ASM-1]",
        "Scores after 2 turns of the log (next turn 3):",
        "  Ada: 4 points (1 own-colour gear, robot 1)",
        "  Bruno: 3 points (1 own-colour gear, robot 2)",
        "Leading: Ada",
        "The log agrees with the rules.",
    ]


def test_quiet_prints_only_the_scores_and_the_verdict(tmp_path: Path) -> None:
    result = replay(write(tmp_path, agreeing_log()), "--quiet")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert not any(line.startswith(("Turn ", "  robot", "  red", "  orange")) for line in lines)
    assert lines[1:] == [
        "Scores after 2 turns of the log (next turn 3):",
        "  Ada: 4 points (1 own-colour gear, robot 1)",
        "  Bruno: 3 points (1 own-colour gear, robot 2)",
        "Leading: Ada",
        "The log agrees with the rules.",
    ]


def test_json_output_holds_every_turn_its_events_and_the_final_scores(tmp_path: Path) -> None:
    result = replay(write(tmp_path, agreeing_log()), "--format", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["agrees"] is True
    assert data["notes"] == []
    assert data["departures"] == []
    assert [turn["turn"] for turn in data["turns"]] == [1, 2]
    assert data["turns"][1]["programs"] == {"1": "trap 2", "2": "harvest 2"}
    assert data["turns"][1]["events"][2] == {
        "type": "gear_moved",
        "gear": "orange",
        "source": "dump 2",
        "destination": "robot 1 feet",
        "robot": 1,
        "clause": "TRP-3",
    }
    assert data["final"] == {
        "scores": [
            {"player": "Ada", "points": 4, "own_colour": 1, "robot": 1},
            {"player": "Bruno", "points": 3, "own_colour": 1, "robot": 2},
        ],
        "winners": ["Ada"],
        "game_over": False,
    }


def test_a_dash_replays_standard_input() -> None:
    result = replay("-", "--quiet", stdin=json.dumps(agreeing_log()))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "Replaying <stdin>"
    assert result.stdout.splitlines()[-1] == "The log agrees with the rules."


def test_a_log_with_no_turns_reports_the_start(tmp_path: Path) -> None:
    data = valid_log_json()
    data["turns"] = []
    result = replay(write(tmp_path, data))
    assert result.exit_code == 0
    assert "Scores after 0 turns of the log (next turn 1):" in result.stdout


# --- a log that departs -----------------------------------------------------------------------


def test_a_wrong_recorded_value_exits_1_with_the_first_departure(tmp_path: Path) -> None:
    path = write(tmp_path, departing_log())
    result = replay(path)
    assert result.exit_code == 1
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    turn_2 = lines.index("Turn 2  [1: trap 2, 2: harvest 2]")
    # Robot 1 held red, orange, orange: assembling the two oranges leaves the red gear at its
    # feet, as recorded (ASM-1); the play that explains the most recorded values is that one,
    # and only Ada's score departs from it.
    assert lines[turn_2 + 6 : turn_2 + 8] == [
        "  inferred: robot 1 assembled 2 orange (ASM-1; the default pick, ASM-2, would have "
        "taken 1 red, 1 orange)",
        "  ! turn 2, Ada's score ($.turns[1].recorded.scores.Ada): "
        "recorded 5 points; the rules give 4 points",
    ]
    report = lines[lines.index("Leading: Ada") + 1 :]
    assert report[:7] == [
        "DEPARTS FROM THE RULES at turn 2: Ada's score",
        "  in the log at:  $.turns[1].recorded.scores.Ada",
        "  robot:          1",
        "  recorded:       5 points",
        "  the rules give: 4 points",
        "  why:            robot 1 scores 1 own-colour gear x 2 + 2 other gears x 1 = 4 "
        "points (END-2)",
        "  clause: END-2 (IT-END-2, FR-END-2, IT-INTRO-1, FR-INTRO-1)",
    ]
    assert not any(line.startswith("... and") for line in report)


def test_the_departures_are_machine_readable(tmp_path: Path) -> None:
    result = replay(write(tmp_path, departing_log()), "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["agrees"] is False
    assert data["verdict"] == "departs"
    [first] = data["departures"]
    assert {k: v for k, v in first.items() if k not in ("events", "allowed", "reason")} == {
        "turn": 2,
        "json_path": "$.turns[1].recorded.scores.Ada",
        "what": "Ada's score",
        "recorded": "5 points",
        "expected": "4 points",
        "robot": 1,
        "clause": "END-2",
    }
    # An assembly never changes a score (END-2 counts feet and circuit alike), and the trap had
    # one taker: nothing the table could have chosen gives another score.
    assert first["allowed"] == "no choice of this turn changes this value"


def test_a_value_nothing_moved_says_so(tmp_path: Path) -> None:
    data = agreeing_log()
    data["turns"][1]["recorded"] = {"robots": {"2": {"feet": ["red"]}}}
    result = replay(write(tmp_path, data), "--quiet")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-7:] == [
        "DEPARTS FROM THE RULES at turn 2: robot 2 feet",
        "  in the log at:  $.turns[1].recorded.robots.2.feet",
        "  robot:          2",
        "  recorded:       1 red",
        "  the rules give: 1 red, 1 orange",
        "  the rules allowed: no choice of this turn changes this value",
        "  because:        no gear moved there in turn 2",
    ]


def test_an_illegal_choice_exits_1_with_why_the_rules_refuse_it(tmp_path: Path) -> None:
    steal = {"defender": 2, "attacker": 1, "from": "feet", "gear": "yellow"}
    result = replay(write(tmp_path, defended_turn(steal)), "--quiet")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-9:] == [
        "DEPARTS FROM THE RULES at turn 1: robot 2's defence steal",
        "  in the log at:  $.turns[0].choices.defence_steals[0]",
        "  robot:          2",
        "  recorded:       yellow from robot 1's feet",
        "  the rules give: a choice the rules allow; by the default policy, "
        "orange from robot 1 feet",
        "  why:            robot 1 has no yellow gear in its feet (ATK-4)",
        "  clause: ATK-4 (IT-ATK-4, FR-ATK-4, IT-ACT-ATK-2, FR-ACT-ATK-2)",
        "  because:",
        "    orange gear: robot 1 feet -> robot 2 feet (robot 2) [ATK-4] "
        "(IT-ATK-4, FR-ATK-4, IT-ACT-ATK-2, FR-ACT-ATK-2)",
    ]


def test_an_illegal_program_exits_2_not_1(tmp_path: Path) -> None:
    data = defended_turn(None)
    data["turns"][0]["programs"]["2"] = "harvest 5"
    path = write(tmp_path, data)
    result = replay(path)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: {path}: $.turns[0].programs.2 (turn 1, robot 2): "
        "dump 5 is not in play (harvest 5) (PRG-2)\n"
    )


# --- versions ---------------------------------------------------------------------------------


def test_a_log_written_under_another_spec_version_is_replayed_with_a_note(
    tmp_path: Path,
) -> None:
    data = agreeing_log()
    data["written_by"] = {"engine": "0.0.9", "spec": "0.9"}
    note = f"this log was written under spec version 0.9; it is replayed under spec version {SPEC_VERSION}"
    result = replay(write(tmp_path, data), "--quiet")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == f"Note: {note}"
    assert result.stdout.splitlines()[2] == f"Note: {SYMMETRY_NOTE}"
    as_json = json.loads(replay(write(tmp_path, data), "--format", "json").stdout)
    assert as_json["notes"] == [note, SYMMETRY_NOTE]


#: The note on the default choices that changed in spec version 1.2 (ruling R-SYMMETRY).
SYMMETRY_NOTE = (
    "since spec version 1.2 the default choices break ties by the ring of seats "
    "(ruling R-SYMMETRY): a defence steal, an assembly, a split or a Super Attack's "
    "defenders left to the default may resolve differently"
)


@pytest.mark.ruling("R-SYMMETRY")
def test_a_log_written_under_spec_1_1_is_told_the_default_choices_changed(tmp_path: Path) -> None:
    data = agreeing_log()
    data["written_by"] = {"engine": "0.1.0", "spec": "1.1"}
    result = replay(write(tmp_path, data), "--quiet")
    assert result.stdout.splitlines()[1:3] == [
        f"Note: this log was written under spec version 1.1; it is replayed under spec version {SPEC_VERSION}",
        f"Note: {SYMMETRY_NOTE}",
    ]
    as_json = json.loads(replay(write(tmp_path, data), "--format", "json").stdout)
    assert as_json["notes"][1] == SYMMETRY_NOTE


def test_a_log_of_a_later_or_unknown_spec_version_gets_only_the_version_note(
    tmp_path: Path,
) -> None:
    data = agreeing_log()
    for version in ("1.9", "2.0", "draft"):
        data["written_by"] = {"engine": "9.9.9", "spec": version}
        as_json = json.loads(replay(write(tmp_path, data), "--format", "json").stdout)
        assert as_json["notes"] == [
            f"this log was written under spec version {version}; it is replayed under spec "
            f"version {SPEC_VERSION}"
        ]


def test_a_log_written_under_this_spec_version_has_no_note(tmp_path: Path) -> None:
    data = agreeing_log()
    data["written_by"] = {"engine": __version__, "spec": SPEC_VERSION}
    result = replay(write(tmp_path, data), "--quiet")
    assert "Note:" not in result.stdout


# --- the shipped examples ---------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_a_shipped_example_exits_0_or_1_as_its_json_verdict_says(path: Path) -> None:
    text = replay(str(path), "--quiet")
    as_json = replay(str(path), "--format", "json")
    assert text.exit_code == as_json.exit_code == (0 if json.loads(as_json.stdout)["agrees"] else 1)
    expected = any(word in path.name for word in ("disputed", "illegal", "followed"))
    assert (text.exit_code == 1) is expected
    if "disputed" in path.name:
        assert "DEPARTS FROM THE RULES at turn 4: " in text.stdout
