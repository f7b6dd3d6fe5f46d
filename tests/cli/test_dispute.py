"""``outofgears dispute``: one turn of a log under every reading of the rule options."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from outofgears.cli.main import main
from outofgears.log import (
    ChoicesRecord,
    GameLog,
    PositionRecord,
    RobotGears,
    Start,
    StealRecord,
    TurnRecord,
    dump_log,
)
from outofgears.rules.gears import Gear, gears
from outofgears.rules.model import Options
from tests.cli.helpers import turn

ORANGE = gears(2)[0]


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.output


def write_log(path: Path, log: GameLog) -> str:
    path.write_text(dump_log(log), encoding="utf-8")
    return str(path)


def position_log(
    robots: Mapping[int, RobotGears],
    dumps: Mapping[int, tuple[Gear, ...]],
    turns: tuple[TurnRecord, ...],
    *,
    options: Options | None = None,
    first_turn: int = 1,
) -> GameLog:
    names = ("Ada", "Bo", "Cy")[: len(robots)]
    players: dict[str, tuple[int, ...]] = {
        name: (number,) for name, number in zip(names, sorted(robots), strict=True)
    }
    return GameLog(
        players=players,
        start=Start(
            position=PositionRecord(
                robots=dict(robots),
                dumps=dict(dumps),
                reserve=gears(4, 4, 4, 5, 5, 5, 6, 6, 6),
                turn=first_turn,
            )
        ),
        turns=turns,
        options=options or Options(),
    )


def circuit_steal_log(options: Options | None = None, first_turn: int = 1) -> GameLog:
    """Robot 1 (red at its feet, orange in its circuit) attacks robot 2, which defends and
    takes the orange gear out of robot 1's circuit; robot 3 harvests an empty dump."""
    return position_log(
        {1: RobotGears(feet=gears(1), circuit=gears(2)), 2: RobotGears(), 3: RobotGears()},
        {1: (), 2: (), 3: ()},
        (
            turn(
                first_turn,
                ChoicesRecord(defence_steals=(StealRecord(2, 1, "circuit", ORANGE),)),
                r1="attack 2",
                r2="attack 2",
                r3="harvest 3",
            ),
        ),
        options=options,
        first_turn=first_turn,
    )


def declined_assembly_log(options: Options) -> GameLog:
    """Robot 3 has red, orange and yellow at its feet and its player declines to assemble."""
    return position_log(
        {1: RobotGears(), 2: RobotGears(), 3: RobotGears(feet=gears(1, 2, 3))},
        {1: (), 2: (), 3: ()},
        (
            turn(
                1,
                ChoicesRecord(assemblies={3: ()}),
                r1="harvest 1",
                r2="harvest 2",
                r3="harvest 3",
            ),
        ),
        options=options,
    )


def quiet_log() -> GameLog:
    """Three harvests of three different dumps: no defence, nobody reaches three feet gears."""
    return position_log(
        {1: RobotGears(feet=gears(1)), 2: RobotGears(), 3: RobotGears(circuit=gears(3, 3))},
        {1: gears(1), 2: gears(2, 5), 3: ()},
        (turn(1, r1="harvest 1", r2="harvest 2", r3="harvest 3"),),
    )


FEET_ONLY_MANDATORY = "defence_steal_source=feet_only, assembly=mandatory"
FEET_ONLY_OPTIONAL = "defence_steal_source=feet_only, assembly=optional"
BOTH_MANDATORY = "defence_steal_source=feet_or_circuit, assembly=mandatory"
BOTH_OPTIONAL = "defence_steal_source=feet_or_circuit, assembly=optional"


def section(output: str, label: str) -> str:
    """The lines of one reading in the text report."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"Reading {label}"))
    end = next(
        (
            i
            for i in range(start + 1, len(lines))
            if not lines[i].startswith(" ")  # the next reading or the closing lines
        ),
        len(lines),
    )
    return "\n".join(lines[start:end])


def test_circuit_steal_changes_under_feet_only(tmp_path: Path) -> None:
    code, output = run(
        "dispute", write_log(tmp_path / "g.json", circuit_steal_log()), "--turn", "1"
    )
    assert code == 0
    assert f"Reading {BOTH_MANDATORY} (as logged):" in output
    assert "Logged choices: robot 2 takes orange from robot 1's circuit" in output
    feet_only = section(output, FEET_ONLY_MANDATORY)
    assert (
        "! choice refused under this reading: robot 2: under defence_steal_source='feet_only' "
        "it cannot take from robot 1's circuit (ATK-4)" in feet_only
    )
    assert "robot 1 feet: none (as logged: 1 red)" in feet_only
    assert "robot 1 circuit: 1 orange (as logged: none)" in feet_only
    assert "robot 2 feet: 1 red (as logged: 1 orange)" in feet_only
    assert "+ red gear: robot 1 feet -> robot 2 feet (robot 2) [ATK-4]" in feet_only
    assert "- orange gear: robot 1 circuit -> robot 2 feet (robot 2) [ATK-4]" in feet_only
    assert section(output, FEET_ONLY_OPTIONAL).count("(as logged: ") == section(
        output, FEET_ONLY_MANDATORY
    ).count("(as logged: ")
    assert "same outcome as logged" in section(output, BOTH_OPTIONAL)
    assert "The logged choices are legal only under: " + BOTH_MANDATORY + "; " + BOTH_OPTIONAL in (
        output
    )
    assert output.rstrip().endswith(
        f"Verdict: 2 readings change the outcome: {FEET_ONLY_MANDATORY}; {FEET_ONLY_OPTIONAL}."
    )


def test_circuit_steal_logged_under_feet_only_is_refused_as_logged(tmp_path: Path) -> None:
    log = circuit_steal_log(Options(defence_steal_source="feet_only"))
    code, output = run("dispute", write_log(tmp_path / "g.json", log), "--turn", "1")
    assert code == 0
    as_logged = section(output, FEET_ONLY_MANDATORY)
    assert "(as logged)" in as_logged
    assert "it cannot take from robot 1's circuit (ATK-4)" in as_logged
    both = section(output, BOTH_MANDATORY)
    assert "choice refused" not in both
    assert "robot 2 feet: 1 orange (as logged: 1 red)" in both
    assert "robot 1 circuit: none (as logged: 1 orange)" in both
    assert f"The logged choices are legal only under: {BOTH_MANDATORY}; {BOTH_OPTIONAL}" in output
    assert "Verdict: 2 readings change the outcome" in output


def test_declined_assembly_changes_under_mandatory(tmp_path: Path) -> None:
    log = declined_assembly_log(Options(assembly="optional"))
    code, output = run("dispute", write_log(tmp_path / "g.json", log), "--turn", "1")
    assert code == 0
    assert f"Reading {BOTH_OPTIONAL} (as logged):" in output
    assert "Logged choices: robot 3 assembles nothing" in output
    mandatory = section(output, BOTH_MANDATORY)
    assert "robot 3: assembly is mandatory: it must move 2 gears (ASM-1)" in mandatory
    assert "robot 3 feet: 1 orange (as logged: 1 red, 1 orange, 1 yellow)" in mandatory
    assert "robot 3 circuit: 1 red, 1 yellow (as logged: none)" in mandatory
    assert "+ red gear: robot 3 feet -> robot 3 circuit (robot 3) [ASM-1]" in mandatory
    assert "+ yellow gear: robot 3 feet -> robot 3 circuit (robot 3) [ASM-1]" in mandatory
    assert "same outcome as logged" in section(output, FEET_ONLY_OPTIONAL)
    assert (
        f"Verdict: 2 readings change the outcome: {BOTH_MANDATORY}; {FEET_ONLY_MANDATORY}."
        in output
    )


def test_declined_assembly_logged_under_mandatory_only_optional_allows_it(tmp_path: Path) -> None:
    code, output = run(
        "dispute", write_log(tmp_path / "g.json", declined_assembly_log(Options())), "--turn", "1"
    )
    assert code == 0
    optional = section(output, BOTH_OPTIONAL)
    assert "choice refused" not in optional
    assert "robot 3 feet: 1 red, 1 orange, 1 yellow (as logged: 1 orange)" in optional
    assert "robot 3 circuit: none (as logged: 1 red, 1 yellow)" in optional
    assert f"The logged choices are legal only under: {BOTH_OPTIONAL}; {FEET_ONLY_OPTIONAL}" in (
        output
    )


def test_quiet_turn_the_readings_agree(tmp_path: Path) -> None:
    code, output = run("dispute", write_log(tmp_path / "g.json", quiet_log()), "--turn", "1")
    assert code == 0
    assert output.count("same outcome as logged") == 3
    assert "Logged choices: none" in output
    assert "legal only under" not in output
    assert output.rstrip().endswith("Verdict: the readings agree on this turn.")


def test_dispute_json_names_every_reading_and_what_it_changes(tmp_path: Path) -> None:
    path = write_log(tmp_path / "g.json", circuit_steal_log())
    code, output = run("dispute", path, "--turn", "1", "--format", "json")
    assert code == 0
    data: dict[str, Any] = json.loads(output)
    assert data["turn"] == 1
    assert data["options_compared"] == ["defence_steal_source", "assembly"]
    assert [r["label"] for r in data["readings"]] == [
        BOTH_MANDATORY,
        BOTH_OPTIONAL,
        FEET_ONLY_MANDATORY,
        FEET_ONLY_OPTIONAL,
    ]
    assert [r["as_logged"] for r in data["readings"]] == [True, False, False, False]
    assert [r["changes_outcome"] for r in data["readings"]] == [False, False, True, True]
    assert (data["agree"], data["changing"]) == (False, 2)
    assert data["verdict"] == "2 readings change the outcome"
    feet_only = data["readings"][2]
    assert [r["clause"] for r in feet_only["refused_choices"]] == ["ATK-4"]
    assert feet_only["refused_choices"][0]["robot"] == 2
    state = {item["what"]: item for item in feet_only["difference"]["state"]}
    assert state["robot 2 feet"]["reading_gears"] == ["red"]
    assert state["robot 2 feet"]["as_logged_gears"] == ["orange"]
    assert state["robot 1 circuit"]["reading_gears"] == ["orange"]
    [gained] = feet_only["difference"]["events_only_reading"]
    assert (gained["type"], gained["gear"], gained["source"]) == (
        "gear_moved",
        "red",
        "robot 1 feet",
    )
    [lost] = feet_only["difference"]["events_only_as_logged"]
    assert (lost["gear"], lost["source"]) == ("orange", "robot 1 circuit")


def test_quiet_turn_json_agrees(tmp_path: Path) -> None:
    path = write_log(tmp_path / "g.json", quiet_log())
    code, output = run("dispute", path, "--turn", "1", "--format", "json")
    assert code == 0
    data = json.loads(output)
    assert (data["agree"], data["changing"]) == (True, 0)
    assert data["verdict"] == "the readings agree on this turn"
    assert all(r["refused_choices"] == [] for r in data["readings"])


def test_dispute_replays_the_turns_before_the_disputed_one(tmp_path: Path) -> None:
    """Turn 7 of a game entered at turn 6: robot 3 harvests dump 3 (a green gear) on turn 6,
    and on turn 7 robot 2 defends against robot 3 and takes that gear by default."""
    log = position_log(
        {1: RobotGears(), 2: RobotGears(), 3: RobotGears(circuit=gears(2))},
        {1: (), 2: (), 3: gears(4)},
        (
            turn(6, r1="harvest 1", r2="harvest 2", r3="harvest 3"),
            turn(7, r1="harvest 1", r2="attack 2", r3="attack 2"),
        ),
        first_turn=6,
    )
    code, output = run("dispute", write_log(tmp_path / "g.json", log), "--turn", "7")
    assert code == 0
    assert output.startswith(f"Dispute: turn 7 of {tmp_path / 'g.json'} under 4 readings\n")
    # feet_or_circuit takes the orange gear, robot 2's own, from the circuit; feet_only the green
    feet_only = section(output, FEET_ONLY_MANDATORY)
    assert "robot 2 feet: 1 green (as logged: 1 orange)" in feet_only
    assert "robot 3 circuit: 1 orange (as logged: none)" in feet_only
    assert "Verdict: 2 readings change the outcome" in output


def test_dispute_ignores_a_broken_turn_after_the_disputed_one(tmp_path: Path) -> None:
    broken = turn(2, r1="harvest 1", r2="harvest 2", r3="trap 7")
    log = position_log(
        {1: RobotGears(), 2: RobotGears(), 3: RobotGears()},
        {1: (), 2: (), 3: ()},
        (turn(1, r1="harvest 1", r2="harvest 2", r3="harvest 3"), broken),
    )
    path = write_log(tmp_path / "g.json", log)
    code, output = run("dispute", path, "--turn", "1")
    assert code == 0
    assert "Verdict: the readings agree on this turn." in output
    code, output = run("dispute", path, "--turn", "2")
    assert code == 2
    assert "$.turns[1].programs.3" in output
    assert "dump 7 is not in play" in output


def test_dispute_reads_standard_input(tmp_path: Path) -> None:
    code, output = run("dispute", "-", "--turn", "1", stdin=dump_log(quiet_log()))
    assert code == 0
    assert output.startswith("Dispute: turn 1 of <stdin> under 4 readings")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--turn", "2"], "$.turns: the log has no turn 2 (its turns: 1)"),
        (["--turn", "0"], "Invalid value for '--turn'"),
        (["--turn", "x"], "Invalid value for '--turn'"),
        ([], "Missing option '--turn'"),
        (["--turn", "1", "--format", "xml"], "Invalid value for '--format'"),
    ],
)
def test_bad_turn_or_option_is_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    path = write_log(tmp_path / "g.json", quiet_log())
    result = CliRunner().invoke(main, ["dispute", path, *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "the log is empty"),
        ("{", "not JSON"),
        (dump_log(quiet_log()).replace("outofgears-log/1", "outofgears-log/9"), "$.format"),
    ],
)
def test_bad_log_is_exit_2(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(main, ["dispute", str(path), "--turn", "1"])
    assert result.exit_code == 2
    assert f"{path}: " in result.output
    assert message in result.output
    assert "Traceback" not in result.output


def test_missing_log_is_exit_2(tmp_path: Path) -> None:
    code, output = run("dispute", str(tmp_path / "nowhere.json"), "--turn", "1")
    assert code == 2
    assert "cannot read the file" in output


def test_log_with_no_turns_is_exit_2(tmp_path: Path) -> None:
    log = position_log({1: RobotGears(), 2: RobotGears()}, {1: (), 2: ()}, ())
    data = json.loads(dump_log(log))
    data["turns"] = []
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, output = run("dispute", str(path), "--turn", "1")
    assert code == 2
    assert "the log has no turn 1 (it has no turns)" in output


def test_help_names_the_options_compared_and_those_kept() -> None:
    code, output = run("dispute", "--help")
    assert code == 0
    assert "defence_steal_source  feet_or_circuit | feet_only   (ruling R-DEFENCE)" in output
    assert "assembly              mandatory | optional          (ruling R-ASSEMBLY)" in output
    assert "pad_reserve acts only at setup" in output
