"""``outofgears whatif``: one turn of a log with one robot's program replaced."""

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
from outofgears.rules.model import Options, UpgradeCard
from tests.cli.helpers import turn


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def write_log(
    path: Path,
    robots: Mapping[int, RobotGears],
    dumps: Mapping[int, tuple[Gear, ...]],
    *turns: TurnRecord,
    players: dict[str, tuple[int, ...]] | None = None,
    options: Options | None = None,
    upgrades: dict[str, UpgradeCard] | None = None,
) -> str:
    names = ("Ada", "Bo", "Cy", "Di")[: len(robots)]
    log = GameLog(
        players=players or {name: (n,) for name, n in zip(names, sorted(robots), strict=True)},
        start=Start(
            position=PositionRecord(
                robots=dict(robots),
                dumps=dict(dumps),
                reserve=gears(4, 4, 4, 5, 5, 5),
                upgrades=upgrades or {},
            )
        ),
        turns=turns,
        options=options or Options(),
    )
    path.write_text(dump_log(log), encoding="utf-8")
    return str(path)


def harvest_log(tmp_path: Path) -> str:
    """Robot 1 harvests dump 1 (a red gear), robot 2 attacks robot 1, robot 3 harvests dump 2
    (an orange and a blue gear)."""
    return write_log(
        tmp_path / "g.json",
        {1: RobotGears(), 2: RobotGears(), 3: RobotGears()},
        {1: gears(1), 2: gears(2, 5), 3: ()},
        turn(1, r1="harvest 1", r2="attack 1", r3="harvest 2"),
    )


def test_a_trap_on_the_harvested_dump_would_have_sprung(tmp_path: Path) -> None:
    code, output = run(
        "whatif", harvest_log(tmp_path), "--turn", "1", "--robot", "1", "--program", "trap 2"
    )
    assert code == 0
    lines = output.splitlines()
    assert lines[0] == (
        f"What if robot 1 had played trap 2 instead of harvest 1 on turn 1 of {tmp_path / 'g.json'}?"
    )
    assert lines[1:3] == [
        "  original: 1: harvest 1, 2: attack 1, 3: harvest 2",
        "  what-if:  1: trap 2, 2: attack 1, 3: harvest 2",
    ]
    only_original = lines[lines.index("Events only in the original:") + 1 :]
    assert only_original[:5] == [
        "  - robot 1 harvest 1: harvested [HRV-2]",
        "  - red gear: dump 1 -> robot 1 feet (robot 1) [HRV-2]",
        "  - robot 3 harvest 2: harvested [HRV-2]",
        "  - orange gear: dump 2 -> robot 3 feet (robot 3) [HRV-2]",
        "  - blue gear: dump 2 -> robot 3 feet (robot 3) [HRV-2]",
    ]
    only_whatif = lines[lines.index("Events only in the what-if:") + 1 :]
    assert only_whatif[:4] == [
        "  + robot 3 harvest 2: harvest voided by a trap [TRP-2]",
        "  + robot 1 trap 2: trap sprang [TRP-3]",
        "  + orange gear: dump 2 -> robot 1 feet (robot 1) [TRP-3]",
        "  + blue gear: dump 2 -> robot 1 feet (robot 1) [TRP-3]",
    ]
    after = lines[
        lines.index("After the turn, what differs (what-if, original in brackets):") + 1 :
    ]
    assert after == [
        "  robot 1 feet: 1 orange, 1 blue (original: 1 red)",
        "  robot 3 feet: none (original: 1 orange, 1 blue)",
        "  dump 1: 1 red, 1 green (original: 1 green)",
        "  Cy's score: 0 points (original: 2 points)",
    ]


def test_a_trap_on_a_dump_nobody_harvested_does_nothing(tmp_path: Path) -> None:
    code, output = run(
        "whatif", harvest_log(tmp_path), "--turn", "1", "--robot", "1", "--program", "trap 3"
    )
    assert code == 0
    assert "  + robot 1 trap 3: trap blocked no harvest [TRP-3]" in output
    assert "  robot 1 feet: none (original: 1 red)" in output
    assert "  dump 1: 1 red, 1 green (original: 1 green)" in output
    assert "robot 3 feet" not in output


def test_the_same_program_changes_nothing(tmp_path: Path) -> None:
    code, output = run(
        "whatif", harvest_log(tmp_path), "--turn", "1", "--robot", "3", "--program", "harvest 2"
    )
    assert code == 0
    assert output.splitlines()[-1] == "The what-if changes nothing on this turn."
    assert "Events only" not in output


def test_a_logged_steal_the_what_if_makes_impossible_falls_back(tmp_path: Path) -> None:
    """Robot 2 defended and took robot 1's red gear; had robot 1 harvested instead, there is no
    attack to steal from: the choice is dropped and robot 1 keeps its gear."""
    path = write_log(
        tmp_path / "g.json",
        {1: RobotGears(feet=gears(1)), 2: RobotGears(), 3: RobotGears()},
        {1: (), 2: (), 3: ()},
        turn(
            1,
            ChoicesRecord(defence_steals=(StealRecord(2, 1, "feet", gears(1)[0]),)),
            r1="attack 2",
            r2="attack 2",
            r3="harvest 3",
        ),
    )
    code, output = run("whatif", path, "--turn", "1", "--robot", "1", "--program", "harvest 1")
    assert code == 0
    assert (
        "  ! what-if: choice refused: robot 2: no defence steal from robot 1: it did not attack "
        "a defending robot 2 (ATK-4); its default policy decides instead" in output
    )
    assert "original: choice refused" not in output
    assert "  + robot 2 attack 2: defended, but nobody attacked [ATK-3]" in output
    assert "  - red gear: robot 1 feet -> robot 2 feet (robot 2) [ATK-4]" in output
    assert "  robot 1 feet: 1 red (original: none)" in output
    assert "  robot 2 feet: none (original: 1 red)" in output


def test_a_super_trap_laid_from_the_hand_is_discarded(tmp_path: Path) -> None:
    path = write_log(
        tmp_path / "g.json",
        {1: RobotGears(), 2: RobotGears(), 3: RobotGears()},
        {1: gears(1), 2: gears(2, 5), 3: gears(3)},
        turn(1, r1="harvest 1", r2="attack 1", r3="harvest 2"),
        options=Options(upgrades=True),
        upgrades={"Ada": UpgradeCard.SUPER_TRAP},
    )
    code, output = run("whatif", path, "--turn", "1", "--robot", "1", "--program", "super trap")
    assert code == 0
    assert "What if robot 1 had played super trap instead of harvest 1" in output
    assert "  + robot 1: super trap discarded by Ada [UPG-3]" in output
    assert "  robot 1 feet: 1 orange, 1 blue (original: 1 red)" in output
    assert "  Ada's upgrade card: none (original: super trap)" in output


def test_whatif_json(tmp_path: Path) -> None:
    code, output = run(
        "whatif",
        harvest_log(tmp_path),
        "--turn",
        "1",
        "--robot",
        "1",
        "--program",
        "trap 2",
        "--format",
        "json",
    )
    assert code == 0
    data: dict[str, Any] = json.loads(output)
    assert (data["turn"], data["robot"], data["program"], data["original_program"]) == (
        1,
        1,
        "trap 2",
        "harvest 1",
    )
    assert data["whatif_programs"] == {"1": "trap 2", "2": "attack 1", "3": "harvest 2"}
    assert data["changes_outcome"] is True
    assert data["refused_choices"] == {"original": [], "whatif": []}
    state = {item["what"]: item for item in data["difference"]["state"]}
    assert state["robot 1 feet"]["whatif_gears"] == ["orange", "blue"]
    assert state["robot 1 feet"]["original_gears"] == ["red"]
    outcomes = [
        (event["robot"], event["outcome"])
        for event in data["difference"]["events_only_whatif"]
        if event["type"] == "action_resolved"
    ]
    assert outcomes == [(3, "harvest voided by a trap"), (1, "trap sprang")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--robot", "1", "--program", "trap 5"], "robot 1: dump 5 is not in play"),
        (["--robot", "1", "--program", "attack 7"], "robot 1: "),
        (["--robot", "1", "--program", "super trap"], "upgrades are not in play (UPG-2)"),
        (["--robot", "1", "--program", "dance 2"], '--program: "dance 2" is not a program: write'),
        (["--robot", "1", "--program", "trap 9"], "a number card shows 1-8, not 9"),
        (["--robot", "1", "--program", ""], '--program: "" is not a program'),
        (["--robot", "1", "--program", "Harvest 2"], "write 'harvest 2' (lower case, one space)"),
        (["--robot", "5", "--program", "trap 2"], "robot 5 is not in play at turn 1"),
        (["--robot", "9", "--program", "trap 2"], "Invalid value for '--robot'"),
        (["--robot", "1"], "Missing option '--program'"),
        (["--program", "trap 2"], "Missing option '--robot'"),
    ],
)
def test_bad_robot_or_program_is_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    code, output = run("whatif", harvest_log(tmp_path), "--turn", "1", *args)
    assert code == 2
    assert message in output


def test_illegal_program_names_the_robot_and_reason(tmp_path: Path) -> None:
    code, output = run(
        "whatif", harvest_log(tmp_path), "--turn", "1", "--robot", "1", "--program", "trap 5"
    )
    assert code == 2
    assert output == (
        f"Error: {tmp_path / 'g.json'}: turn 1: the what-if program is illegal: "
        "robot 1: dump 5 is not in play (trap 5) (PRG-2)\n"
    )


def test_partners_cannot_lay_the_same_action_card(tmp_path: Path) -> None:
    path = write_log(
        tmp_path / "g.json",
        {n: RobotGears() for n in (1, 2, 3, 4)},
        dict.fromkeys((1, 2, 3, 4), ()),
        turn(1, r1="trap 3", r2="harvest 1", r3="attack 1", r4="harvest 4"),
        players={"Ada": (1, 2), "Bo": (3, 4)},
    )
    code, output = run("whatif", path, "--turn", "1", "--robot", "2", "--program", "trap 4")
    assert code == 2
    assert "the what-if program is illegal: robot 2: player 'Ada' has one trap card" in output
    assert "(VAR-2)" in output


def test_turn_not_in_the_log_is_exit_2(tmp_path: Path) -> None:
    code, output = run(
        "whatif", harvest_log(tmp_path), "--turn", "4", "--robot", "1", "--program", "trap 2"
    )
    assert code == 2
    assert "$.turns: the log has no turn 4 (its turns: 1)" in output


def test_invalid_log_is_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "outofgears-log/1", "players": {"A": ["1"]}}', encoding="utf-8")
    code, output = run("whatif", str(path), "--turn", "1", "--robot", "1", "--program", "trap 2")
    assert code == 2
    assert f"Error: {path}: $." in output
