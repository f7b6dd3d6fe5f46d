"""Reading and replaying bad logs through the library: a typed LogError with the facts.

Every log of the invalid corpus (``tests/corpus/invalid``) is refused by
:func:`read_log` or :func:`replay_log` with a :class:`LogError` whose attributes
name the file, the exact JSON path and, where they apply, the turn and the robot.
The cases that need no file of their own (a missing file, standard input, the size
limit, very deep nesting) are built here.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from outofgears import SPEC_VERSION, OutOfGearsError
from outofgears.judge.replay import replay_log
from outofgears.log import (
    MAX_DEPTH,
    MAX_LOG_BYTES,
    ChoicesRecord,
    GameLog,
    LogError,
    LogFieldError,
    PositionRecord,
    Recorded,
    RobotGears,
    SplitRecord,
    Start,
    StealRecord,
    TurnRecord,
    WrittenBy,
    dump_log,
    json_path,
    parse_log_text,
    read_log,
    read_log_bytes,
    read_log_text,
    structure_log,
)
from outofgears.rules.gears import Gear, gears
from outofgears.rules.model import Place
from outofgears.rules.programs import parse_program
from tests.log_samples import CORPUS, EXPECTED, corpus_cases, defended_turn, valid_log_json

STAGES = ("parse", "schema", "structure", "replay")


def refusal(path: Path | str) -> LogError:
    """The LogError that reading and replaying a log ends with."""
    with pytest.raises(LogError) as caught:
        replay_log(read_log(path), str(path))
    return caught.value


# --- the corpus ------------------------------------------------------------------------------


def test_every_corpus_log_has_an_expectation_and_every_expectation_a_log() -> None:
    files = sorted(path.stem for path in CORPUS.glob("*.json"))
    assert files == sorted(EXPECTED)
    assert {facts["stage"] for facts in EXPECTED.values()} == set(STAGES)
    assert len(files) >= 90


@pytest.mark.parametrize(("name", "facts"), corpus_cases())
def test_a_corpus_log_is_refused_with_its_path_turn_and_robot(
    name: str, facts: dict[str, Any]
) -> None:
    path = CORPUS / f"{name}.json"
    error = refusal(path)
    assert isinstance(error, OutOfGearsError)
    assert isinstance(error, ValueError)
    assert error.source == str(path)
    assert error.json_path == facts["json_path"]
    assert facts["message"] in error.reason
    assert error.turn == facts.get("turn")
    assert error.robot == facts.get("robot")
    assert str(error).startswith(f"{path}: {facts['json_path']}")
    if "turn" in facts:
        assert f"(turn {facts['turn']}" in str(error)
    if "robot" in facts:
        assert f"robot {facts['robot']})" in str(error)


@pytest.mark.parametrize(("name", "facts"), corpus_cases("parse", "schema", "structure"))
def test_a_log_that_is_not_a_valid_document_is_refused_by_the_reader_alone(
    name: str, facts: dict[str, Any]
) -> None:
    path = CORPUS / f"{name}.json"
    with pytest.raises(LogError) as caught:
        read_log(path)
    assert caught.value.json_path == facts["json_path"]


@pytest.mark.parametrize(("name", "facts"), corpus_cases("replay"))
def test_a_valid_document_that_is_not_a_game_is_refused_by_the_replay(
    name: str, facts: dict[str, Any]
) -> None:
    path = CORPUS / f"{name}.json"
    log = read_log(path)
    with pytest.raises(LogError) as caught:
        replay_log(log, "game.json")
    assert caught.value.source == "game.json"
    assert caught.value.json_path == facts["json_path"]


@pytest.mark.parametrize(
    ("name", "clause"),
    [
        ("program-for-robot-not-in-play", "PRG-1"),
        ("missing-program", "PRG-1"),
        ("target-not-in-play", "PRG-2"),
        ("partners-lay-the-same-action", "VAR-2"),
        ("upgrade-when-upgrades-are-off", "UPG-2"),
        ("upgrade-used-twice", "UPG-3"),
        ("turn-after-the-end", "PRG-5"),
        ("position-holds-too-many-gears", "SET-5"),
        ("position-jolly-without-expansion", "JOL-1"),
        ("upgrade-deck-too-small", "UPG-1"),
    ],
)
def test_an_illegal_program_or_start_names_the_clause_it_breaks(name: str, clause: str) -> None:
    assert refusal(CORPUS / f"{name}.json").clause == clause


# --- files, standard input and limits ---------------------------------------------------------


def test_a_missing_file_is_a_log_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    with pytest.raises(LogError) as caught:
        read_log(path)
    assert (caught.value.source, caught.value.json_path) == (str(path), "$")
    assert caught.value.reason == "cannot read the file: No such file or directory"
    assert caught.value.turn is None
    assert caught.value.robot is None


def test_a_path_that_cannot_name_a_file_is_a_log_error() -> None:
    with pytest.raises(LogError, match="cannot read the file: embedded null byte"):
        read_log("game\x00.json")


def test_a_directory_is_not_a_log(tmp_path: Path) -> None:
    with pytest.raises(LogError, match="cannot read the file: Is a directory"):
        read_log(tmp_path)


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_bytes(b" " * (MAX_LOG_BYTES + 1))
    with pytest.raises(LogError) as caught:
        read_log(path)
    assert caught.value.json_path == "$"
    assert caught.value.reason == (
        f"the log is larger than the limit of {MAX_LOG_BYTES} bytes ({MAX_LOG_BYTES + 1} bytes)"
    )


def test_a_file_of_exactly_the_size_limit_is_read(tmp_path: Path) -> None:
    text = json.dumps(valid_log_json())
    path = tmp_path / "padded.json"
    path.write_bytes(text.encode() + b" " * (MAX_LOG_BYTES - len(text)))
    assert path.stat().st_size == MAX_LOG_BYTES
    assert read_log(path).start.seed == 11


def test_the_size_limit_is_five_megabytes_and_applies_to_text_too() -> None:
    assert MAX_LOG_BYTES == 5_000_000
    with pytest.raises(LogError, match="larger than the limit of 5000000 bytes"):
        read_log_text(" " * (MAX_LOG_BYTES + 1), "big.json")
    with pytest.raises(LogError, match="larger than the limit"):
        read_log_bytes(b" " * (MAX_LOG_BYTES + 1), "big.json")
    # Multi-byte characters count as bytes, not as characters.
    with pytest.raises(LogError, match="larger than the limit"):
        parse_log_text("é" * (MAX_LOG_BYTES // 2 + 1), "big.json")


def test_json_nested_far_deeper_than_python_recursion_is_refused() -> None:
    text = "[" * 200_000 + "]" * 200_000
    with pytest.raises(LogError) as caught:
        read_log_text(text, "deep.json")
    assert caught.value.json_path == "$"
    assert caught.value.reason == f"the JSON nests deeper than {MAX_DEPTH} levels"


def test_json_nested_exactly_to_the_limit_reaches_the_schema() -> None:
    data = valid_log_json()
    data["description"] = json.loads("[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1))
    with pytest.raises(LogError) as caught:
        read_log_text(json.dumps(data), "deep.json")
    assert caught.value.json_path == "$.description"
    assert caught.value.reason.startswith("expected a string, got [[[")


def test_infinity_is_not_json() -> None:
    with pytest.raises(LogError, match="not JSON: Infinity is not a JSON number"):
        read_log_text('{"seed": Infinity}', "x.json")


def test_a_utf8_byte_order_mark_is_allowed() -> None:
    raw = b"\xef\xbb\xbf" + json.dumps(valid_log_json()).encode()
    assert read_log_bytes(raw, "bom.json").players == {"Ada": (1,), "Bruno": (2,)}


def stdin_holding(monkeypatch: pytest.MonkeyPatch, raw: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))


def test_a_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin_holding(monkeypatch, json.dumps(valid_log_json()).encode())
    assert len(read_log("-").turns) == 2


def test_a_bad_log_on_standard_input_is_named_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    data = valid_log_json()
    data["turns"][1]["programs"]["2"] = "harvest 9"
    stdin_holding(monkeypatch, json.dumps(data).encode())
    with pytest.raises(LogError) as caught:
        read_log("-")
    assert caught.value.source == "<stdin>"
    assert caught.value.json_path == "$.turns[1].programs.2"
    assert (caught.value.turn, caught.value.robot) == (2, 2)


def test_standard_input_that_is_not_utf8_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin_holding(monkeypatch, b'{"description": "caf\xe9"}')
    with pytest.raises(LogError, match=r"<stdin>: \$: the log is not UTF-8 text \(byte 0xe9"):
        read_log("-")


def test_standard_input_over_the_size_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin_holding(monkeypatch, b" " * (MAX_LOG_BYTES + 10))
    with pytest.raises(LogError, match="larger than the limit"):
        read_log("-")


# --- no coercion ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (lambda d: d["turns"][0].update(turn="1"), "$.turns[0].turn", 'got "1"'),
        (lambda d: d["turns"][0].update(turn=True), "$.turns[0].turn", "got true"),
        (lambda d: d["turns"][0].update(turn=1.0), "$.turns[0].turn", "got 1.0"),
        (lambda d: d.update(two_robot_variant="no"), "$.two_robot_variant", 'got "no"'),
        (lambda d: d.update(two_robot_variant=0), "$.two_robot_variant", "got 0"),
        (lambda d: d["players"].update(Ada=["1"]), "$.players.Ada[0]", 'got "1"'),
        (lambda d: d["players"].update(Ada=[1.0]), "$.players.Ada[0]", "got 1.0"),
        (lambda d: d["start"].update(seed="11"), "$.start.seed", 'got "11"'),
        (lambda d: d.update(options={"jolly_gears": "yes"}), "$.options.jolly_gears", "got"),
        (lambda d: d.update(description=7), "$.description", "got 7"),
        (lambda d: d["turns"][0]["programs"].update({"1": 3}), "$.turns[0].programs.1", "3"),
    ],
)
def test_a_wrong_type_is_refused_never_coerced(change: Any, path: str, message: str) -> None:
    data = valid_log_json()
    change(data)
    with pytest.raises(LogError) as caught:
        read_log_text(json.dumps(data), "x.json")
    assert caught.value.json_path == path
    assert message in caught.value.reason
    # cattrs alone, without the schema, refuses it at the same place.
    with pytest.raises(LogError) as alone:
        structure_log(data, "x.json")
    assert alone.value.json_path == path


# --- what the reader gives, and what it writes back --------------------------------------------


def test_gears_are_read_as_a_table_names_them() -> None:
    data = valid_log_json()
    data["turns"][0]["recorded"] = {
        "robots": {"1": {"feet": ["yellow", "red"], "circuit": []}},
        "dumps": {"2": ["orange"]},
        "scores": {"Ada": 3},
    }
    log = read_log_text(json.dumps(data), "x.json")
    recorded = log.turns[0].recorded
    assert recorded == Recorded(
        robots={1: RobotGears(feet=(Gear(3), Gear(1)), circuit=())},
        dumps={2: gears(2)},
        scores={"Ada": 3},
    )


def test_a_log_round_trips_through_its_text() -> None:
    log = GameLog(
        players={"Ada": (1, 3), "Bruno Rossi": (2, 4)},
        start=Start(
            position=PositionRecord(
                robots={n: RobotGears(feet=gears(n)) for n in (1, 2, 3, 4)},
                dumps={n: gears(n, n) for n in (1, 2, 3, 4)},
                reserve=gears(1, 2, 3, 4),
                turn=3,
            )
        ),
        turns=(
            TurnRecord(
                3,
                {
                    1: parse_program("attack 2"),
                    2: parse_program("attack 2"),
                    3: parse_program("harvest 3"),
                    4: parse_program("trap 1"),
                },
                choices=ChoicesRecord(
                    defence_steals=(StealRecord(2, 1, "feet", Gear(1)),),
                    splits=(SplitRecord(Place.dump(3), {3: gears(3)}),),
                ),
                recorded=Recorded(scores={"Bruno Rossi": 4}),
            ),
        ),
        two_robot_variant=True,
        description="A round trip.",
        written_by=WrittenBy("0.1.0", SPEC_VERSION),
    )
    text = dump_log(log)
    assert '"from": "feet"' in text
    assert read_log_text(text, "x.json") == log


def test_an_unusual_key_is_quoted_in_the_json_path() -> None:
    data = valid_log_json()
    data["turns"][0]["recorded"] = {"scores": {"Ada Lovelace": -2}}
    with pytest.raises(LogError) as caught:
        read_log_text(json.dumps(data), "x.json")
    assert caught.value.json_path == "$.turns[0].recorded.scores['Ada Lovelace']"
    assert json_path(["a.b", 0, "it's"]) == "$['a.b'][0]['it\\'s']"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: GameLog(players={"A": (1,)}, start=Start(seed=1)), "2 to 8 players"),
        (lambda: GameLog(players={"A": (1,), "B": (9,)}, start=Start(seed=1)), "1 to 8, not 9"),
        (lambda: GameLog(players={"A": (1,), "": (2,)}, start=Start(seed=1)), "1 to 60"),
        (lambda: GameLog(players={"A": (1, 1), "B": (2, 3)}, start=Start(seed=1)), "twice"),
        (lambda: Start(), "either"),
        (lambda: Start(seed=-1), "0 to 18446744073709551615"),
        (lambda: TurnRecord(0, {}), "1 to 1000, not 0"),
        (lambda: Recorded(scores={"A": 10_001}), "0 to 10000"),
        (lambda: WrittenBy("x" * 41, "1.1"), "at most 40 characters"),
        (lambda: StealRecord(1, 2, "hand", Gear(1)), "'feet' or 'circuit'"),  # type: ignore[arg-type]
        (lambda: SplitRecord(Place.circuit(1), {}), "a split is of a dump or a robot's feet"),
        (
            lambda: GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=1), format="x/2"),  # type: ignore[arg-type]
            "this reader reads format",
        ),
    ],
)
def test_the_log_classes_refuse_what_the_schema_refuses(build: Any, message: str) -> None:
    with pytest.raises(LogFieldError, match=message) as caught:
        build()
    assert isinstance(caught.value, ValueError)


# --- departures are not invalid logs ----------------------------------------------------------


def test_a_defence_steal_of_a_gear_the_attacker_lacks_is_a_departure_not_an_error() -> None:
    steal = {"defender": 2, "attacker": 1, "from": "feet", "gear": "yellow"}
    replay = replay_log(read_log_text(json.dumps(defended_turn(steal)), "x.json"), "x.json")
    assert not replay.agrees
    (departure,) = replay.departures
    assert departure.turn == 1
    assert departure.robot == 2
    assert departure.json_path == "$.turns[0].choices.defence_steals[0]"
    assert departure.clause == "ATK-4"
    assert departure.recorded == "yellow from robot 1's feet"
    assert departure.reason == "robot 1 has no yellow gear in its feet (ATK-4)"
    assert departure.expected.endswith("by the default policy, orange from robot 1 feet")
    assert [str(event) for event in departure.events] == [
        "orange gear: robot 1 feet -> robot 2 feet (robot 2) [ATK-4]"
    ]
    # The turn is replayed with the default policies: Bruno took Ada's orange gear.
    assert replay.final.robot(2).feet[0] == Gear(2)
    assert replay.final.robot(1).feet == ()


def test_a_defence_steal_the_rules_allow_agrees() -> None:
    steal = {"defender": 2, "attacker": 1, "from": "feet", "gear": "orange"}
    assert replay_log(read_log_text(json.dumps(defended_turn(steal)), "x.json")).agrees


def test_a_defence_steal_from_a_robot_not_in_play_is_an_invalid_log() -> None:
    steal = {"defender": 2, "attacker": 4, "from": "feet", "gear": "orange"}
    with pytest.raises(LogError) as caught:
        replay_log(read_log_text(json.dumps(defended_turn(steal)), "x.json"), "x.json")
    assert caught.value.json_path == "$.turns[0].choices.defence_steals[0].attacker"
    assert (caught.value.turn, caught.value.robot) == (1, 4)


def test_an_illegal_program_is_an_invalid_log_not_a_departure() -> None:
    data = defended_turn(None)
    data["turns"][0]["programs"]["2"] = "harvest 5"
    with pytest.raises(LogError) as caught:
        replay_log(read_log_text(json.dumps(data), "x.json"), "x.json")
    assert caught.value.json_path == "$.turns[0].programs.2"
    assert caught.value.reason == "dump 5 is not in play (harvest 5) (PRG-2)"
    assert (caught.value.turn, caught.value.robot, caught.value.clause) == (1, 2, "PRG-2")


def test_a_wrong_recorded_value_is_a_departure() -> None:
    data = defended_turn(None)
    data["turns"][0]["recorded"] = {"robots": {"1": {"feet": ["orange"]}}}
    replay = replay_log(read_log_text(json.dumps(data), "x.json"), "x.json")
    (departure,) = replay.departures
    assert (departure.turn, departure.robot) == (1, 1)
    assert departure.json_path == "$.turns[0].recorded.robots.1.feet"
    assert (departure.recorded, departure.expected) == ("1 orange", "none")
    assert departure.clause == "ATK-4"


@pytest.mark.parametrize(
    ("start", "path", "expected"),
    [
        ({"seed": None}, "$.start.seed", "expected an integer, got null"),
        (
            {
                "position": {
                    "robots": {"1": {"feet": None}, "2": {}},
                    "dumps": {"1": [], "2": []},
                    "reserve": [],
                }
            },
            "$.start.position.robots.1.feet",
            "expected an array, got null",
        ),
    ],
)
def test_a_null_where_a_key_may_be_left_out_names_the_type_it_should_be(
    start: dict[str, object], path: str, expected: str
) -> None:
    text = json.dumps(
        {"format": "outofgears-log/1", "players": {"A": [1], "B": [2]}, "start": start, "turns": []}
    )
    with pytest.raises(LogError) as caught:
        read_log_text(text, "x.json")
    assert caught.value.json_path == path
    assert caught.value.reason == f"{expected} (leave the key out instead)"


def test_a_log_read_twice_hashes_the_same_and_keeps_one_place_in_a_set() -> None:
    path = Path(__file__).parent.parent / "examples" / "full-game.log.json"
    first, second = read_log(path), read_log(path)
    other = read_log(path.parent / "two-robot.log.json")
    assert first == second
    assert hash(first) == hash(second)
    assert len({first, second, other}) == 2
