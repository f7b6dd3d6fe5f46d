"""``outofgears explain LOG --turn N``, end to end through click's runner."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from outofgears import SPEC_VERSION
from outofgears.clauses import clause, paraphrase
from outofgears.cli.main import main
from outofgears.judge.replay import replay_log
from outofgears.judge.start import start_state
from outofgears.log import (
    GameLog,
    PositionRecord,
    Recorded,
    RobotGears,
    Start,
    TurnRecord,
    WrittenBy,
    dump_log,
    log_schema,
    read_log_text,
)
from outofgears.play.policies import random_programs
from outofgears.rules.gears import Gear, parse_gear
from outofgears.rules.programs import parse_program
from outofgears.rules.turn import apply_turn
from tests.cli.helpers import write

#: Robot 2 defends against robot 1, which has a red and a blue gear at its feet; robot 3
#: harvests dump 2 (red, orange, blue). By default robot 2 takes the blue gear, which comes before
#: the red in the ring of colours after its own (ATK-4, ATK-5, R-SYMMETRY).
DEFENCE_LOG: dict[str, Any] = {
    "format": "outofgears-log/1",
    "players": {"Ada": [1], "Bruno": [2], "Chiara": [3]},
    "start": {
        "position": {
            "robots": {"1": {"feet": ["red", "blue"]}, "2": {}, "3": {}},
            "dumps": {"1": ["yellow"], "2": ["orange", "blue", "red"], "3": []},
            "reserve": ["green", "green", "green", "yellow", "yellow", "yellow"],
        }
    },
    "turns": [
        {
            "turn": 1,
            "programs": {"1": "attack 2", "2": "attack 2", "3": "harvest 2"},
            "recorded": {"robots": {"1": {"feet": ["red"]}, "2": {"feet": ["blue"]}}},
        },
        {
            "turn": 2,
            "programs": {"1": "harvest 1", "2": "harvest 1", "3": "trap 3"},
        },
    ],
}


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["explain", *args], input=stdin)
    return result.exit_code, result.output


def defence_log(**changes: Any) -> dict[str, Any]:
    """The defence log, deep-copied, with top-level keys replaced."""
    data: dict[str, Any] = json.loads(json.dumps(DEFENCE_LOG))
    data.update(changes)
    return data


def read_gears(*names: str) -> tuple[Gear, ...]:
    return tuple(parse_gear(name) for name in names)


def flat(text: str) -> str:
    """Text with every run of whitespace made one space, so wrapped lines compare."""
    return " ".join(text.split())


def seeded_log(turns: int, seed: int = 11) -> GameLog:
    """A seeded four-robot game of ``turns`` turns with random programs."""
    log = GameLog(players={"A": (1,), "B": (2,), "C": (3,), "D": (4,)}, start=Start(seed=seed))
    state = start_state(log)
    rng = random.Random(seed)
    records = []
    for _ in range(turns):
        programs = random_programs(state, rng)
        records.append(TurnRecord(state.turn, programs))
        state = apply_turn(state, programs)
    return GameLog(players=log.players, start=log.start, turns=tuple(records))


# --- text ------------------------------------------------------------------------------------


def test_every_event_is_followed_by_its_clause_title_and_rulebook_clauses(tmp_path: Path) -> None:
    code, output = run(write(tmp_path, DEFENCE_LOG), "--turn", "1")
    assert code == 0, output
    assert "blue gear: robot 1 feet -> robot 2 feet (robot 2) [ATK-4]" in output
    assert "ATK-4 — The defender takes one gear from each attacker" in output
    assert "IT: IT-ATK-4, IT-ACT-ATK-2 | FR: FR-ATK-4, FR-ACT-ATK-2" in output
    assert "robot 2 attack 2: defended [ATK-3]" in output
    assert "ATK-3 — A defence voids the attacks on the defender" in output
    assert "IT: IT-ATK-3 | FR: FR-ATK-3" in output
    assert "HRV-2 — An untrapped harvest takes every gear of its dump" in output
    assert "EXP-1 — Exploration" in output
    assert "turn 1 ended [TURN-1]" in output
    assert "Turn 1 agrees with the rules." in output


def test_every_event_of_the_turn_is_listed_with_the_clause_after_it(tmp_path: Path) -> None:
    replay = replay_log(read_log_text(json.dumps(DEFENCE_LOG)))
    events = replay.turn(1).result.events
    code, output = run(write(tmp_path, DEFENCE_LOG), "--turn", "1")
    assert code == 0
    lines = output.splitlines()
    assert f"Events ({len(events)}), each followed by the clause behind it:" in lines
    positions = [
        next(i for i, line in enumerate(lines) if line.endswith(f"{n}. {event}"))
        for n, event in enumerate(events, start=1)
    ]
    assert positions == sorted(positions)
    for position, event in zip(positions, events, strict=True):
        title = f"{event.clause} — {clause(event.clause).title}"
        assert any(line.strip() == title for line in lines[position:]), event


def test_the_english_paraphrase_is_shown_by_default(tmp_path: Path) -> None:
    code, output = run(write(tmp_path, DEFENCE_LOG), "--turn", "1")
    assert code == 0
    assert flat(f"en: {paraphrase('ATK-4', 'en')}") in flat(output)
    assert paraphrase("ATK-4", "it")[:30] not in flat(output)


@pytest.mark.parametrize("lang", ["it", "fr", "en"])
def test_lang_prints_the_paraphrase_in_that_language(tmp_path: Path, lang: str) -> None:
    code, output = run(write(tmp_path, DEFENCE_LOG), "--turn", "1", "--lang", lang)
    assert code == 0
    for clause_id in ("ATK-3", "ATK-4", "HRV-2", "ASM-1", "EXP-1", "TURN-1"):
        assert flat(f"{lang}: {paraphrase(clause_id, lang)}") in flat(output)
    others = [other for other in ("en", "it", "fr") if other != lang]
    for other in others:
        assert paraphrase("ATK-4", other)[:40] not in flat(output)


def test_the_italian_paraphrase_speaks_of_rotelle(tmp_path: Path) -> None:
    code, output = run(write(tmp_path, DEFENCE_LOG), "--turn", "1", "--lang", "it")
    assert code == 0
    assert "it: Il difensore prende esattamente una rotella" in output


def test_an_unknown_language_is_refused_with_exit_2(tmp_path: Path) -> None:
    code, output = run(write(tmp_path, DEFENCE_LOG), "--turn", "1", "--lang", "de")
    assert code == 2
    assert "'de' is not one of 'en', 'it', 'fr'" in output
    assert "Traceback" not in output


def test_the_programs_and_both_positions_are_in_table_words(tmp_path: Path) -> None:
    code, output = run(write(tmp_path, DEFENCE_LOG), "--turn", "1")
    assert code == 0
    before, _, after = output.partition("After turn 1 (next turn 2):")
    assert "robot 1 (Ada): attack 2" in before
    assert "robot 3 (Chiara): harvest 2" in before
    assert "robot 1 (Ada): feet 1 red, 1 blue; circuit none" in before
    assert "dump 2: 1 red, 1 orange, 1 blue" in before
    assert "reserve: 6 gears" in before
    assert "robot 1 (Ada): feet 1 red; circuit none" in after
    assert "robot 2 (Bruno): feet 1 blue; circuit none" in after
    assert "robot 3 (Chiara): feet 1 orange; circuit 1 red, 1 blue" in after
    assert "dump 2: 1 green" in after
    assert "reserve: 3 gears" in after
    assert "scores: Chiara 3, Ada 2, Bruno 1" in after


def test_the_choices_of_the_log_are_shown(tmp_path: Path) -> None:
    data = defence_log()
    data["turns"][0]["choices"] = {
        "defence_steals": [{"defender": 2, "attacker": 1, "from": "feet", "gear": "red"}]
    }
    data["turns"][0]["recorded"] = {"robots": {"1": {"feet": ["blue"]}, "2": {"feet": ["red"]}}}
    code, output = run(write(tmp_path, data), "--turn", "1")
    assert code == 0, output
    assert "robot 2 defends and takes 1 red from robot 1's feet" in output
    assert "red gear: robot 1 feet -> robot 2 feet (robot 2) [ATK-4]" in output


# --- departures ------------------------------------------------------------------------------


def test_a_turn_that_departs_from_the_rules_exits_1_and_says_why(tmp_path: Path) -> None:
    data = defence_log()
    # Robot 2 could take the red or the blue gear (ATK-4), never a yellow one.
    data["turns"][0]["recorded"] = {"robots": {"2": {"feet": ["yellow"]}}}
    code, output = run(write(tmp_path, data), "--turn", "1")
    assert code == 1
    assert "Departures of turn 1 from the rules (1):" in output
    assert "DEPARTS FROM THE RULES at turn 1: robot 2 feet" in output
    assert "$.turns[0].recorded.robots.2.feet" in output
    assert "recorded:       1 yellow" in output
    assert "the rules give: 1 blue" in output
    assert "agrees with the rules" not in output


def test_a_later_turn_after_a_departure_agrees_and_notes_the_earlier_one(tmp_path: Path) -> None:
    data = defence_log()
    data["turns"][0]["recorded"] = {"robots": {"2": {"feet": ["yellow"]}}}
    code, output = run(write(tmp_path, data), "--turn", "2")
    assert code == 0
    assert "the log departs from the rules earlier, at turn 1;" in output
    assert "Turn 2 agrees with the rules." in output


def test_an_illegal_choice_is_a_departure(tmp_path: Path) -> None:
    data = defence_log()
    data["turns"][0]["choices"] = {
        "defence_steals": [{"defender": 2, "attacker": 1, "from": "circuit", "gear": "blue"}]
    }
    code, output = run(write(tmp_path, data), "--turn", "1")
    assert code == 1
    assert "DEPARTS FROM THE RULES at turn 1" in output
    assert "$.turns[0].choices" in output
    assert "clause: ATK-4" in output
    assert "blue gear: robot 1 feet -> robot 2 feet (robot 2) [ATK-4]" in output


# --- JSON ------------------------------------------------------------------------------------


def test_json_gives_the_events_with_their_clauses(tmp_path: Path) -> None:
    code, output = run(write(tmp_path, DEFENCE_LOG), "--turn", "1", "--format", "json")
    assert code == 0
    data = json.loads(output)
    assert data["turn"] == 1
    assert data["agrees"] is True
    assert data["lang"] == "en"
    assert data["programs"] == {"1": "attack 2", "2": "attack 2", "3": "harvest 2"}
    steal = next(e for e in data["events"] if e["event"]["clause"] == "ATK-4")
    assert steal["text"] == "blue gear: robot 1 feet -> robot 2 feet (robot 2) [ATK-4]"
    assert steal["event"] == {
        "type": "gear_moved",
        "gear": "blue",
        "source": "robot 1 feet",
        "destination": "robot 2 feet",
        "robot": 2,
        "clause": "ATK-4",
    }
    assert steal["clause"] == {
        "id": "ATK-4",
        "title": "The defender takes one gear from each attacker",
        "italian_sources": ["IT-ATK-4", "IT-ACT-ATK-2"],
        "french_sources": ["FR-ATK-4", "FR-ACT-ATK-2"],
        "engine_policy": False,
        "paraphrase": paraphrase("ATK-4", "en"),
    }
    assert [e["event"]["type"] for e in data["events"]][-1] == "turn_ended"
    assert data["departures"] == []


def test_json_paraphrases_follow_lang(tmp_path: Path) -> None:
    code, output = run(
        write(tmp_path, DEFENCE_LOG), "--turn", "1", "--format", "json", "--lang", "fr"
    )
    assert code == 0
    data = json.loads(output)
    assert data["lang"] == "fr"
    assert {e["clause"]["paraphrase"] for e in data["events"]} >= {paraphrase("ATK-4", "fr")}


def test_json_positions_are_log_positions_that_replay_the_turn(tmp_path: Path) -> None:
    """``before`` can start a new log at the turn, and that log gives the same ``after``."""
    code, output = run(write(tmp_path, DEFENCE_LOG), "--turn", "2", "--format", "json")
    assert code == 0
    data = json.loads(output)
    assert data["after"]["robots"]["1"] == {"feet": ["red", "green"], "circuit": []}
    restarted = {
        "format": "outofgears-log/1",
        "players": DEFENCE_LOG["players"],
        "start": {"position": data["before"]},
        "turns": [DEFENCE_LOG["turns"][1]],
    }
    jsonschema.Draft202012Validator(log_schema()).validate(restarted)
    code, again = run(write(tmp_path, restarted, "again.json"), "--turn", "2", "--format", "json")
    assert code == 0
    assert json.loads(again)["after"] == data["after"]
    assert json.loads(again)["events"] == data["events"]


def test_json_reports_a_departing_turn_and_exits_1(tmp_path: Path) -> None:
    data = defence_log()
    data["turns"][0]["recorded"] = {"scores": {"Bruno": 7}}
    code, output = run(write(tmp_path, data), "--turn", "1", "--format", "json")
    assert code == 1
    report = json.loads(output)
    assert report["agrees"] is False
    assert report["departures"][0]["what"] == "Bruno's score"
    assert report["departures"][0]["recorded"] == "7 points"
    assert report["departures"][0]["expected"] == "1 point"
    assert report["departures"][0]["clause"] == "END-2"


def test_json_of_a_seeded_game_parses_for_every_turn(tmp_path: Path) -> None:
    path = tmp_path / "seeded.json"
    path.write_text(dump_log(seeded_log(5)), encoding="utf-8")
    for turn in range(1, 6):
        code, output = run(str(path), "--turn", str(turn), "--format", "json")
        assert code == 0, output
        data = json.loads(output)
        assert data["turn"] == turn
        assert data["before"]["turn"] == turn
        assert data["after"]["turn"] == turn + 1
        assert all(e["clause"]["title"] for e in data["events"])


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("turn", ["0", "3", "-1", "1001"])
def test_a_turn_not_in_the_log_is_exit_2_with_the_logs_turns(tmp_path: Path, turn: str) -> None:
    code, output = run(write(tmp_path, DEFENCE_LOG), "--turn", turn)
    assert code == 2
    assert f"game.json: $.turns: the log has no turn {turn} (its turns: 1-2)" in output
    assert "game.json" in output
    assert "Traceback" not in output


def test_a_log_without_turns_says_so(tmp_path: Path) -> None:
    code, output = run(write(tmp_path, defence_log(turns=[])), "--turn", "1")
    assert code == 2
    assert "$.turns: the log has no turn 1 (it has no turns)" in output


def test_a_log_starting_mid_game_names_its_own_turns(tmp_path: Path) -> None:
    data = defence_log()
    data["start"]["position"]["turn"] = 7
    data["turns"][0]["turn"] = 7
    data["turns"][1]["turn"] = 8
    code, output = run(write(tmp_path, data), "--turn", "2")
    assert code == 2
    assert "its turns: 7-8" in output
    code, output = run(write(tmp_path, data), "--turn", "8")
    assert code == 0
    assert output.startswith("Turn 8 of ")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "Missing option '--turn'"),
        (("--turn", "two"), "'two' is not a valid integer"),
        (("--turn", "1", "--format", "xml"), "'xml' is not one of 'text', 'json'"),
    ],
)
def test_a_bad_command_line_is_exit_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    code, output = run(write(tmp_path, DEFENCE_LOG), *args)
    assert code == 2
    assert message in output
    assert "Traceback" not in output


def test_an_invalid_log_is_exit_2_with_its_path(tmp_path: Path) -> None:
    data = defence_log()
    data["turns"][0]["programs"]["1"] = "attack 9"
    code, output = run(write(tmp_path, data), "--turn", "1")
    assert code == 2
    assert "$.turns[0].programs.1" in output
    assert "Traceback" not in output


def test_a_missing_file_is_exit_2(tmp_path: Path) -> None:
    code, output = run(str(tmp_path / "nope.json"), "--turn", "1")
    assert code == 2
    assert "nope.json" in output
    assert "Traceback" not in output


def test_an_illegal_program_after_the_turn_does_not_stop_its_explanation(tmp_path: Path) -> None:
    data = defence_log()
    data["turns"][1]["programs"]["3"] = "trap 4"  # dump 4 is not in play
    code, output = run(write(tmp_path, data), "--turn", "1")
    assert code == 0, output
    code, output = run(write(tmp_path, data), "--turn", "2")
    assert code == 2
    assert "$.turns[1].programs.3" in output
    assert "turn 2" in output
    assert "Traceback" not in output


# --- versions and standard input -------------------------------------------------------------


def test_a_log_written_under_another_spec_version_is_noted(tmp_path: Path) -> None:
    log = read_log_text(json.dumps(DEFENCE_LOG))
    older = GameLog(
        players=log.players,
        start=log.start,
        turns=log.turns,
        written_by=WrittenBy(engine="0.1.0", spec="0.9"),
    )
    path = tmp_path / "older.json"
    path.write_text(dump_log(older), encoding="utf-8")
    code, output = run(str(path), "--turn", "1")
    assert code == 0
    assert (
        f"Note: this log was written under spec version 0.9; it is replayed under spec version "
        f"{SPEC_VERSION}" in output
    )
    code, output = run(str(path), "--turn", "1", "--format", "json")
    notes = json.loads(output)["notes"]
    assert notes[0] == (
        f"this log was written under spec version 0.9; it is replayed under spec version "
        f"{SPEC_VERSION}"
    )
    assert [note.split(" (")[0] for note in notes[1:]] == [
        "since spec version 1.2 the default choices break ties by the ring of seats"
    ]


def test_dash_reads_the_log_from_standard_input() -> None:
    code, output = run("-", "--turn", "1", stdin=json.dumps(DEFENCE_LOG))
    assert code == 0
    assert output.startswith("Turn 1 of <stdin>\n")


def test_a_log_built_with_the_library_explains_its_recorded_turn(tmp_path: Path) -> None:
    """A log written with GameLog and dump_log: robot 1's recorded feet miss a gear it took."""
    log = GameLog(
        players={"Ada": (1,), "Bruno": (2,)},
        start=Start(
            position=PositionRecord(
                robots={1: RobotGears(), 2: RobotGears(feet=read_gears("red", "orange"))},
                dumps={1: read_gears("orange"), 2: ()},
                reserve=read_gears("red", "red"),
            )
        ),
        turns=(
            TurnRecord(
                1,
                {1: parse_program("attack 2"), 2: parse_program("harvest 1")},
                recorded=Recorded(
                    robots={1: RobotGears(feet=read_gears("red"))},
                    dumps={1: read_gears("red"), 2: read_gears("red")},
                ),
            ),
        ),
    )
    path = tmp_path / "built.json"
    path.write_text(dump_log(log), encoding="utf-8")
    code, output = run(str(path), "--turn", "1")
    assert code == 1, output
    assert "robot 1 feet" in output
    assert "the rules give: 1 red, 1 orange" in output


# --- the example of spec/log-format.md -------------------------------------------------------


def log_format_example() -> str:
    """The annotated example log of spec/log-format.md, as written there."""
    text = (Path(__file__).resolve().parents[2] / "spec" / "log-format.md").read_text("utf-8")
    found = re.search(r"```json\n(.*?)```", text, re.DOTALL)
    assert found is not None, "spec/log-format.md has no ```json example"
    return found.group(1)


def test_the_example_of_the_log_format_agrees_with_the_rules_turn_by_turn() -> None:
    example = log_format_example()
    for turn in ("5", "6"):
        code, output = run("-", "--turn", turn, stdin=example)
        assert code == 0, output
        assert f"Turn {turn} agrees with the rules." in output
    code, output = run("-", "--turn", "5", stdin=example)
    assert "orange gear: robot 1 circuit -> robot 2 feet (robot 2) [ATK-4]" in output
    assert "robot 2 defends and takes 1 orange from robot 1's circuit" in output
    code, output = run("-", "--turn", "6", stdin=example)
    assert "dump 1 shared by robots 1, 2: 2 each, none left [SPL-1]" in output
    assert "yellow gear: robot 3 feet -> robot 3 circuit (robot 3) [ASM-1]" in output
    result = CliRunner().invoke(main, ["replay", "-"], input=example)
    assert result.exit_code == 0, result.output
