"""One wire format: gears and programs are written and read the same way everywhere.

* Every JSON output -- event JSON, state JSON, choices JSON, the logs that are written and
  the ``--format json`` output of every command -- writes each gear by the name a log uses
  (``"red"`` ... ``"white"``, ``"jolly"``, ``"3-point"``): the JSON is walked and every
  gear-valued field is checked.
* The log reader (its model and its schema), ``parse_program``, ``Program.parse`` and the
  command line's ``--program`` accept exactly the same program spellings and refuse the
  others with the same words; the log reader, saved states and ``parse_gear`` accept exactly
  the same gear names.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from outofgears.cli.main import main
from outofgears.errors import InvalidStateError
from outofgears.judge.replay import replay_log
from outofgears.judge.start import start_state
from outofgears.log import LogError, log_schema, read_log, read_log_text
from outofgears.log.serialization import (
    choices_from_dict,
    choices_to_dict,
    event_from_dict,
    event_to_dict,
    state_from_dict,
    state_to_dict,
)
from outofgears.play.policies import random_programs
from outofgears.rules.gears import GEAR_NAMES, ROBOT_NUMBERS, parse_gear
from outofgears.rules.model import GameState, Options
from outofgears.rules.programs import PROGRAM_TEXTS, Program, parse_program, program_refusal
from outofgears.rules.setup import setup_game
from outofgears.rules.turn import TurnResult, resolve_turn

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.log.json"))

#: Robot 2 defends against robot 1 and takes the Jolly from its feet (a logged choice); the
#: table holds both kinds of expansion gear, so every kind of gear is written somewhere.
CHOICES_LOG: dict[str, Any] = {
    "format": "outofgears-log/1",
    "players": {"Ada": [1], "Bruno": [2], "Chiara": [3]},
    "options": {"jolly_gears": True, "three_point_gears": True},
    "start": {
        "position": {
            "robots": {"1": {"feet": ["red", "jolly"], "circuit": ["3-point"]}, "2": {}, "3": {}},
            "dumps": {"1": ["yellow", "jolly"], "2": ["orange", "blue", "3-point"], "3": []},
            "reserve": ["green", "green", "green", "yellow", "yellow", "white"],
        }
    },
    "turns": [
        {
            "turn": 1,
            "programs": {"1": "attack 2", "2": "attack 2", "3": "harvest 2"},
            "choices": {
                "defence_steals": [{"defender": 2, "attacker": 1, "from": "feet", "gear": "jolly"}]
            },
        },
        {"turn": 2, "programs": {"1": "harvest 1", "2": "harvest 1", "3": "trap 3"}},
    ],
}


# --- walking JSON for gears ------------------------------------------------------------------

#: Keys whose value is one gear, a list of gears, or robot/dump number -> list of gears.
GEAR_KEYS = frozenset({"gear"})
GEAR_LIST_KEYS = frozenset({"feet", "circuit", "reserve", "gears", "left"})
GEAR_MAP_KEYS = frozenset({"assemblies", "shares"})


def gear_fields(value: Any, path: str = "$") -> Iterator[tuple[str, Any]]:
    """Every gear-valued field of a JSON value, with its path."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield from gear_fields(item, f"{path}[{index}]")
        return
    if not isinstance(value, dict):
        return
    for key, item in value.items():
        where = f"{path}.{key}"
        if key in GEAR_KEYS:
            yield where, item
        elif key in GEAR_LIST_KEYS or (key.endswith("_gears") and not isinstance(item, bool)):
            assert isinstance(item, list), f"{where}: gears are a list, not {item!r}"
            yield from ((f"{where}[{i}]", gear) for i, gear in enumerate(item))
        elif key in GEAR_MAP_KEYS or (key == "dumps" and isinstance(item, dict)):
            assert isinstance(item, dict), f"{where}: expected robot -> gears, not {item!r}"
            for number, gears in item.items():
                assert isinstance(gears, list), f"{where}.{number}: not a list: {gears!r}"
                yield from ((f"{where}.{number}[{i}]", gear) for i, gear in enumerate(gears))
        else:
            yield from gear_fields(item, where)


def scalars(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from scalars(item)
    elif isinstance(value, list):
        for item in value:
            yield from scalars(item)
    else:
        yield value


def assert_gears_by_name(data: Any) -> set[str]:
    """Every gear of ``data`` is written by its log name; the names seen."""
    seen: set[str] = set()
    for where, gear in gear_fields(data):
        assert type(gear) is str, f"{where}: gear written as {gear!r}"
        assert gear in GEAR_NAMES, f"{where}: gear written as {gear!r}"
        seen.add(gear)
    # The spellings of earlier versions appear nowhere, not even in a field not listed above.
    assert "three_point" not in set(map(str, scalars(data)))
    return seen


def test_the_walker_finds_gears_written_otherwise() -> None:
    with pytest.raises(AssertionError, match=r"\$\.events\[0\]\.gear: gear written as 1"):
        assert_gears_by_name({"events": [{"gear": 1}]})
    with pytest.raises(AssertionError, match="gear written as 'three_point'"):
        assert_gears_by_name({"dumps": {"3": ["three_point"]}})
    assert assert_gears_by_name({"jolly_gears": True, "base_gears": ["3-point"]}) == {"3-point"}


# --- the library's JSON ----------------------------------------------------------------------


def played_turns() -> Iterator[tuple[GameState, TurnResult]]:
    """The turns of the shipped logs, and of an eight-robot game with every expansion."""
    for path in EXAMPLES:
        for turn in replay_log(read_log(path), path.name).turns:
            yield turn.before, turn.result
    options = Options(upgrades=True, jolly_gears=True, three_point_gears=True)
    state = setup_game(list(ROBOT_NUMBERS), seed=8, options=options)
    rng = random.Random(8)
    for _ in range(6):
        result = resolve_turn(state, random_programs(state, rng))
        yield state, result
        state = result.state


def test_event_and_state_json_write_gears_by_their_log_names() -> None:
    seen: set[str] = set()
    for before, result in played_turns():
        for state in (before, result.state):
            data = state_to_dict(state)
            names = [gear for _, gear in gear_fields(data)]
            # The walk reaches every gear of the state, so none is written elsewhere.
            assert len(names) == len(list(state.all_gears()))
            seen |= assert_gears_by_name(data)
            assert state_from_dict(json.loads(json.dumps(data))) == state
        for event in result.events:
            data = event_to_dict(event)
            seen |= assert_gears_by_name(data)
            assert event_from_dict(json.loads(json.dumps(data))) == event
    assert seen == set(GEAR_NAMES)


def test_choices_json_is_written_as_a_log_writes_its_choices() -> None:
    log = read_log_text(json.dumps(CHOICES_LOG))
    record = log.turns[0].choices
    assert record is not None
    data = choices_to_dict(record.to_choices())
    assert data == CHOICES_LOG["turns"][0]["choices"]
    assert assert_gears_by_name(data) == {"jolly"}
    assert choices_from_dict(data) == record.to_choices()


# --- every command's --format json -----------------------------------------------------------


def invoke(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def json_outputs(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """Every command's JSON output on logs that hold every kind of gear."""
    choices = tmp_path / "choices.json"
    choices.write_text(json.dumps(CHOICES_LOG), encoding="utf-8")
    expansions = str(ROOT / "examples" / "expansions.log.json")
    for path in [*map(str, EXAMPLES), str(choices)]:
        yield f"replay {Path(path).name}", json.loads(invoke("replay", path, "--format", "json"))
    for path, turn in ((str(choices), "1"), (str(choices), "2"), (expansions, "3")):
        for command in ("explain", "dispute"):
            output = invoke(command, path, "--turn", turn, "--format", "json")
            yield f"{command} {Path(path).name} {turn}", json.loads(output)
    for program in ("harvest 1", "trap 2", "attack 1"):
        output = invoke(
            "whatif", str(choices), "--turn", "1", "--robot", "1", "--program", program,
            "--format", "json",
        )  # fmt: skip
        yield f"whatif {program}", json.loads(output)
    logs = tmp_path / "games.jsonl"
    output = invoke(
        "simulate", "--games", "3", "--robots", "8", "--seed", "5", "--jolly", "--three-point",
        "--upgrades", "-o", str(logs), "--format", "json",
    )  # fmt: skip
    yield "simulate", json.loads(output)
    lines = logs.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        yield f"simulate log {number}", json.loads(line)
    played = tmp_path / "eight.json"  # eight robots: every colour is on the table
    played.write_text(lines[0], encoding="utf-8")
    yield "replay eight.json", json.loads(invoke("replay", str(played), "--format", "json"))
    output = invoke("explain", str(played), "--turn", "2", "--format", "json")
    yield "explain eight.json 2", json.loads(output)
    yield "new", json.loads(invoke("new", "--robots", "1,2,3", "--jolly", "--seed", "1"))


def test_every_command_writes_gears_by_their_log_names(tmp_path: Path) -> None:
    seen: set[str] = set()
    checked = []
    for name, data in json_outputs(tmp_path):
        seen |= assert_gears_by_name(data)
        checked.append(name)
    assert {name.split()[0] for name in checked} == {
        "replay", "explain", "dispute", "whatif", "simulate", "new"
    }  # fmt: skip
    assert seen == set(GEAR_NAMES)


def test_command_json_holds_gears_in_events_choices_and_positions(tmp_path: Path) -> None:
    """The fields the walker checks are there: it is not satisfied by JSON without gears."""
    outputs = dict(json_outputs(tmp_path))
    explained = outputs["explain choices.json 1"]
    assert explained["choices"]["defence_steals"][0]["gear"] == "jolly"
    assert explained["before"]["robots"]["1"] == {"feet": ["red", "jolly"], "circuit": ["3-point"]}
    moved = [e["event"] for e in explained["events"] if e["event"]["type"] == "gear_moved"]
    assert {"gear": "jolly", "source": "robot 1 feet"}.items() <= moved[0].items()
    whatif = outputs["whatif harvest 1"]
    assert any(item.get("whatif_gears") for item in whatif["difference"]["state"])
    replayed = outputs["replay choices.json"]
    assert replayed["turns"][0]["programs"] == {"1": "attack 2", "2": "attack 2", "3": "harvest 2"}


# --- one grammar of programs -----------------------------------------------------------------

GOOD_PROGRAMS = [
    "attack 3",
    "attack 1",
    "trap 2",
    "harvest 1",
    "harvest 8",
    "super trap",
    "super harvest",
    "super attack",
    "super shovel",
    "counter defence",
]
BAD_PROGRAMS = [
    "attack ²",
    "ATTACK 3",
    "Attack 3",
    " trap 2 ",
    "trap 2 ",
    "trap  2",
    "trap 2\n",
    "harvest\t1",
    "trap3",
    "harvest 0",
    "attack 9",
    "attack 03",
    "attack -1",
    "trap \uff13",  # a full-width digit
    "trap",
    "3 trap",
    "trap 2 2",
    "dance 2",
    "",
    "super-trap",
    "super_trap",
    "Super Trap",
    "SUPER SHOVEL",
    "counter-defence",
    "counter defense",
]


def program_log(spelling: str) -> dict[str, Any]:
    return {
        "format": "outofgears-log/1",
        "players": {"Ada": [1], "Bruno": [2], "Chiara": [3]},
        "start": {"seed": 4},
        "turns": [{"turn": 1, "programs": {"1": spelling, "2": "harvest 2", "3": "harvest 3"}}],
    }


def log_reader_refusal(spelling: str) -> str | None:
    """Why the log reader refuses the program, with where; ``None`` if it reads it."""
    try:
        read_log_text(json.dumps(program_log(spelling)), "x.json")
    except LogError as error:
        return f"{error.json_path}: {error.reason}"
    return None


def schema_accepts(data: Any) -> bool:
    return bool(jsonschema.Draft202012Validator(log_schema()).is_valid(data))


def parse_refusal(spelling: str) -> str | None:
    try:
        parse_program(spelling)
    except InvalidStateError as error:
        return str(error)
    return None


def cli_output(tmp_path: Path, spelling: str) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(program_log("harvest 1")), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["whatif", str(path), "--turn", "1", "--robot", "1", "--program", spelling]
    )
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("spelling", "good"),
    [*((text, True) for text in GOOD_PROGRAMS), *((text, False) for text in BAD_PROGRAMS)],
)
def test_the_log_and_the_command_line_read_the_same_programs(
    tmp_path: Path, spelling: str, good: bool
) -> None:
    assert (spelling in PROGRAM_TEXTS) is good
    code, output = cli_output(tmp_path, spelling)
    if good:
        assert str(parse_program(spelling)) == spelling
        assert log_reader_refusal(spelling) is None
        assert schema_accepts(program_log(spelling))
        # Read as a program: the what-if runs, or the rules refuse it (upgrades not in play).
        assert "is not a program" not in output
        if not spelling.startswith(("super", "counter")):
            assert Program.parse(spelling) == parse_program(spelling)
        return
    refusal = program_refusal(spelling)
    assert parse_refusal(spelling) == refusal
    assert log_reader_refusal(spelling) == f"$.turns[0].programs.1: {refusal}"
    assert not schema_accepts(program_log(spelling))
    assert code == 2
    assert f"Error: --program: {refusal}" in output
    with pytest.raises(InvalidStateError):
        Program.parse(spelling)


def test_every_program_text_reads_back_as_itself() -> None:
    for text, program in PROGRAM_TEXTS.items():
        assert str(program) == text
        assert parse_program(text) is program


# --- one grammar of gears --------------------------------------------------------------------

BAD_GEARS: list[Any] = [
    "Red",
    " red",
    "RED",
    "1",
    1,
    "gray",
    "Jolly",
    "three_point",
    "three-point",
    "3pt",
    "3-Point",
    "",
    None,
]


def gear_log(gear: Any) -> dict[str, Any]:
    return {
        "format": "outofgears-log/1",
        "players": {"Ada": [1], "Bruno": [2]},
        "options": {"jolly_gears": True, "three_point_gears": True},
        "start": {
            "position": {
                "robots": {"1": {}, "2": {}},
                "dumps": {"1": [], "2": []},
                "reserve": [gear],
            }
        },
        "turns": [],
    }


def saved_state(gear: Any) -> dict[str, Any]:
    log = read_log_text(json.dumps(gear_log("red")))
    data = state_to_dict(start_state(log))
    data["reserve"] = [gear]
    return data


@pytest.mark.parametrize(
    ("gear", "good"), [*((n, True) for n in GEAR_NAMES), *((g, False) for g in BAD_GEARS)]
)
def test_the_log_saved_states_and_parse_gear_read_the_same_gears(gear: Any, good: bool) -> None:
    def accepts(read: Any, *errors: type[Exception]) -> bool:
        try:
            read()
        except errors:
            return False
        return True

    assert accepts(lambda: read_log_text(json.dumps(gear_log(gear))), LogError) is good
    assert schema_accepts(gear_log(gear)) is good
    assert accepts(lambda: state_from_dict(saved_state(gear)), InvalidStateError) is good
    assert accepts(lambda: parse_gear(gear), InvalidStateError) is good
