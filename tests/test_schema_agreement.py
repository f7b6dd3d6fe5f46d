"""The JSON Schema of the log format and the cattrs model agree.

* Every shipped example log, and every valid log built here from played games,
  validates against the schema AND structures with :func:`structure_log`.
* Every log of the invalid corpus that a schema can refuse is refused by the
  schema AND, independently, by :func:`structure_log` given the raw JSON, at the
  same JSON path. The few things a JSON Schema cannot say (an integer written
  ``2.0``, a defence steal or a split written twice) are refused by the model
  alone; a valid document that does not describe a game passes both.
* Random single edits of valid logs (a value replaced, a key dropped, added or
  renamed) are accepted by both or refused by both, at the same path.
* Random valid logs built from the model survive :func:`dump_log` and
  :func:`read_log_text` unchanged and pass the schema.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from outofgears import SPEC_VERSION, __version__
from outofgears.judge.replay import replay_log
from outofgears.log import (
    GEAR_NAMES,
    LOG_FORMAT,
    ChoicesRecord,
    GameLog,
    LogError,
    PositionRecord,
    Recorded,
    RobotGears,
    SplitRecord,
    Start,
    StealRecord,
    TurnRecord,
    WrittenBy,
    dump_log,
    log_schema,
    log_to_json,
    parse_log_text,
    read_log_text,
    structure_log,
)
from outofgears.play.policies import random_programs
from outofgears.rules.gears import ROBOT_NUMBERS, Gear
from outofgears.rules.model import Options, Place, UpgradeCard
from outofgears.rules.programs import Action, AnyProgram, Program, UpgradeProgram
from outofgears.rules.scoring import player_scores
from outofgears.rules.setup import setup_game, setup_two_robot_game
from outofgears.rules.turn import resolve_turn
from tests.log_samples import CORPUS, EXPECTED, corpus_cases

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.log.json"))
SPEC_SCHEMA = ROOT / "spec" / "log.schema.json"
EXPECTED_NAMES = sorted(EXPECTED)


def schema_accepts(data: Any) -> bool:
    """Whether the JSON Schema written from the declaration accepts ``data``."""
    return bool(jsonschema.Draft202012Validator(log_schema()).is_valid(data))


def cattrs_refusal(data: Any) -> LogError:
    with pytest.raises(LogError) as caught:
        structure_log(data, "x.json")
    return caught.value


# --- valid logs built from played games -------------------------------------------------------


def played_log(
    players: dict[str, tuple[int, ...]],
    seed: int,
    options: Options | None = None,
    *,
    turns: int = 60,
    record_every: int = 3,
) -> GameLog:
    """A seeded game played with the random policy, with recorded values every few turns."""
    rules = options or Options()
    two = any(len(robots) == 2 for robots in players.values())
    if two:
        state = setup_two_robot_game(players, seed=seed, options=rules)
    else:
        names = sorted(players, key=lambda name: players[name][0])
        state = setup_game([players[n][0] for n in names], seed=seed, players=names, options=rules)
    rng = random.Random(seed)
    records: list[TurnRecord] = []
    while not state.game_over and len(records) < turns:
        programs = random_programs(state, rng)
        result = resolve_turn(state, programs)
        recorded = None
        if state.turn % record_every == 0:
            recorded = Recorded(
                robots={r.number: RobotGears(r.feet, r.circuit) for r in result.state.robots},
                dumps={d.number: d.gears for d in result.state.dumps},
                scores={s.player: s.points for s in player_scores(result.state)},
            )
        records.append(TurnRecord(state.turn, programs, recorded=recorded))
        state = result.state
    return GameLog(
        players=players,
        start=Start(seed=seed),
        turns=tuple(records),
        options=rules,
        two_robot_variant=two,
        description=f"Built by the agreement test from seed {seed}.",
        written_by=WrittenBy(__version__, SPEC_VERSION),
    )


def position_log() -> GameLog:
    """A game typed in from turn 5, with a defence steal, a split and an assembly chosen."""
    return read_log_text(
        json.dumps(
            {
                "format": LOG_FORMAT,
                "players": {"Ada": [1], "Bruno": [2], "Chiara": [3]},
                "start": {
                    "position": {
                        "turn": 5,
                        "robots": {
                            "1": {"feet": ["red", "yellow"], "circuit": ["orange", "red"]},
                            "2": {"feet": ["orange"]},
                            "3": {"circuit": ["yellow", "yellow"]},
                        },
                        "dumps": {
                            "1": ["red", "orange", "yellow"],
                            "2": ["orange"],
                            "3": ["yellow", "red"],
                        },
                        "reserve": {"red": 2, "orange": 2, "yellow": 2},
                    }
                },
                "turns": [
                    {
                        "turn": 5,
                        "programs": {"1": "attack 2", "2": "attack 2", "3": "harvest 3"},
                        "drawn": {"1": "red", "2": "orange", "3": "yellow"},
                        "choices": {
                            "defence_steals": [
                                {"defender": 2, "attacker": 1, "from": "circuit", "gear": "orange"}
                            ]
                        },
                        "recorded": {
                            "robots": {
                                "1": {"circuit": ["red"]},
                                "2": {"feet": ["orange", "orange"]},
                            }
                        },
                    },
                    {
                        "turn": 6,
                        "programs": {"1": "harvest 1", "2": "harvest 1", "3": "attack 1"},
                        "drawn": {"1": "yellow", "2": "orange", "3": "red"},
                        "choices": {
                            "splits": [
                                {
                                    "place": "dump 1",
                                    "shares": {"1": ["red", "red"], "2": ["orange", "yellow"]},
                                }
                            ],
                            "assemblies": {"2": ["orange", "orange"]},
                        },
                        "recorded": {
                            "dumps": {"1": ["yellow"]},
                            "scores": {"Ada": 6, "Bruno": 7, "Chiara": 10},
                        },
                        "follows": "table",
                    },
                ],
            }
        ),
        "position.json",
    )


def built_logs() -> dict[str, GameLog]:
    """Valid logs of every kind: seeded, two-robot, expansions, typed-in position."""
    return {
        "seeded": played_log({"Ada": (1,), "Bruno": (2,), "Chiara": (3,), "Dario": (4,)}, 2026),
        "eight-robots": played_log({f"P{n}": (n,) for n in ROBOT_NUMBERS}, 8, turns=6),
        "two-robot": played_log({"Ada": (1, 3), "Bruno": (2, 4)}, 7),
        "expansions": played_log(
            {"Ada": (1,), "Bruno": (2,), "Chiara": (3,)},
            12,
            Options(upgrades=True, jolly_gears=True, three_point_gears=True, pad_reserve=True),
        ),
        "options": played_log(
            {"Ada": (2,), "Bruno": (5,)},
            3,
            Options(defence_steal_source="feet_only", assembly="optional"),
        ),
        "position": position_log(),
    }


BUILT = built_logs()
BUILT_JSON = {name: json.loads(dump_log(log)) for name, log in BUILT.items()}


# --- valid logs pass both ---------------------------------------------------------------------


def test_spec_log_schema_json_is_what_the_declaration_writes() -> None:
    # python -m tests.sync_clause_map writes it.
    assert json.loads(SPEC_SCHEMA.read_text(encoding="utf-8")) == log_schema()
    jsonschema.Draft202012Validator.check_schema(log_schema())


@pytest.mark.parametrize("path", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_a_shipped_example_validates_and_structures(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(log_schema()).validate(data)
    log = structure_log(data, str(path))
    assert read_log_text(path.read_text(encoding="utf-8"), str(path)) == log
    assert read_log_text(dump_log(log), str(path)) == log


def test_the_examples_are_there() -> None:
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("name", sorted(BUILT))
def test_a_built_log_validates_structures_and_replays(name: str) -> None:
    data = BUILT_JSON[name]
    jsonschema.Draft202012Validator(log_schema()).validate(data)
    assert structure_log(data, name) == BUILT[name]
    assert replay_log(BUILT[name], name).agrees
    assert BUILT[name].turns


# --- the invalid corpus is refused by both ----------------------------------------------------


def corpus_json(name: str) -> Any:
    return json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("name", "facts"), corpus_cases("schema"))
def test_an_invalid_log_is_refused_by_the_schema_and_by_cattrs_alone(
    name: str, facts: dict[str, Any]
) -> None:
    data = corpus_json(name)
    assert not schema_accepts(data)
    by_cattrs = cattrs_refusal(data)
    assert by_cattrs.json_path == facts["json_path"]
    assert (by_cattrs.turn, by_cattrs.robot) == (facts.get("turn"), facts.get("robot"))


@pytest.mark.parametrize(("name", "facts"), corpus_cases("structure"))
def test_what_a_schema_cannot_say_is_refused_by_the_model(name: str, facts: dict[str, Any]) -> None:
    data = corpus_json(name)
    assert schema_accepts(data)
    assert cattrs_refusal(data).json_path == facts["json_path"]


def test_the_schema_documents_what_only_the_model_refuses() -> None:
    description = log_schema()["description"]
    for words in ("5,000,000 bytes", "UTF-8", "repeated", "32 levels", "(1.0)", "written twice"):
        assert words in description


@pytest.mark.parametrize(("name", "facts"), corpus_cases("replay"))
def test_a_valid_document_that_is_not_a_game_passes_both(name: str, facts: dict[str, Any]) -> None:
    data = corpus_json(name)
    assert schema_accepts(data)
    structure_log(data, name)


@pytest.mark.parametrize(("name", "facts"), corpus_cases("parse"))
def test_a_text_that_is_not_a_log_document_is_refused_before_either(
    name: str, facts: dict[str, Any]
) -> None:
    raw = (CORPUS / f"{name}.json").read_bytes()
    with pytest.raises((LogError, UnicodeDecodeError)):
        parse_log_text(raw.decode("utf-8"), name)


# --- random single edits: both accept or both refuse -----------------------------------------

#: Values that a log holds somewhere, and near misses of them.
TRICKY: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    2,
    8,
    9,
    -1,
    1000,
    1001,
    10_001,
    2**64,
    1.5,
    "",
    "1",
    "3",
    "no",
    "red",
    "Red",
    "purple-ish",
    "jolly",
    "3-point",
    "attack 3",
    "attack 9",
    "Attack 3",
    "super trap",
    "super-trap",
    "dump 2",
    "robot 1 feet",
    "robot 1 circuit",
    "feet",
    "circuit",
    "mandatory",
    "feet_only",
    LOG_FORMAT,
    "x" * 61,
    [],
    ["red"],
    ["red", "blue"],
    ["red"] * 121,
    [1],
    [1, 1],
    [1, 2, 3],
    {},
    {"1": []},
    {"1": "trap 1"},
    {"x": 1},
    {"seed": 1},
    {"feet": ["red"]},
]
KEYS = ["0", "1", "2", "8", "9", "01", "", "x", "feet", "seed", "turn", "A" * 61]


def locations(value: Any, parts: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every path to a value in a JSON document."""
    yield parts
    if isinstance(value, dict):
        for key, item in value.items():
            yield from locations(item, (*parts, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from locations(item, (*parts, index))


def parent_of(data: Any, parts: tuple[str | int, ...]) -> Any:
    for part in parts[:-1]:
        data = data[part]
    return data


@st.composite
def edited_logs(draw: st.DrawFn) -> Any:
    data = copy.deepcopy(BUILT_JSON[draw(st.sampled_from(sorted(BUILT_JSON)))])
    # Keep the documents small: the last turns add nothing new.
    data["turns"] = data["turns"][:4] + [t for t in data["turns"][4:] if "recorded" in t][:2]
    parts = draw(st.sampled_from(list(locations(data))[1:]))
    parent = parent_of(data, parts)
    edit = draw(st.sampled_from(["replace", "drop", "add", "rename"]))
    if edit == "replace" or not isinstance(parent, dict):
        parent[parts[-1]] = copy.deepcopy(draw(st.sampled_from(TRICKY)))
    elif edit == "drop":
        del parent[parts[-1]]
    else:
        key = draw(st.sampled_from(KEYS))
        value = parent[parts[-1]] if edit == "rename" else draw(st.sampled_from(TRICKY))
        if edit == "rename":
            del parent[parts[-1]]
        parent[key] = copy.deepcopy(value)
    return data


@given(edited_logs())
def test_an_edited_log_is_accepted_or_refused_by_both(data: Any) -> None:
    # The schema is written from the classes' declaration: what one refuses, so does the other.
    try:
        structure_log(data, "x.json")
        by_cattrs = None
    except LogError as error:
        by_cattrs = error
    assert schema_accepts(data) == (by_cattrs is None), by_cattrs


# --- random valid logs round-trip -------------------------------------------------------------

names = st.text(min_size=1, max_size=12)
gear_lists = st.lists(st.sampled_from(sorted(GEAR_NAMES.values(), key=str)), max_size=6).map(tuple)
robots = st.sampled_from(ROBOT_NUMBERS)


def programs_for(numbers: list[int]) -> st.SearchStrategy[dict[int, AnyProgram]]:
    program: st.SearchStrategy[AnyProgram] = st.one_of(
        st.builds(Program, st.sampled_from(list(Action)), robots),
        st.builds(UpgradeProgram, st.sampled_from(list(UpgradeCard))),
    )
    return st.fixed_dictionaries(dict.fromkeys(numbers, program))


@st.composite
def choices_records(draw: st.DrawFn) -> ChoicesRecord:
    pairs = draw(st.lists(st.tuples(robots, robots), max_size=3, unique=True))
    steals = tuple(
        StealRecord(
            d,
            a,
            draw(st.sampled_from(["feet", "circuit"])),
            draw(st.sampled_from(list(GEAR_NAMES.values()))),
        )
        for d, a in pairs
    )
    places = draw(
        st.lists(
            st.one_of(st.builds(Place.dump, robots), st.builds(Place.feet, robots)),
            max_size=2,
            unique=True,
        )
    )
    splits = tuple(
        SplitRecord(place, draw(st.dictionaries(robots, gear_lists, max_size=2)))
        for place in places
    )
    return ChoicesRecord(
        defence_steals=steals,
        assemblies=draw(st.dictionaries(robots, gear_lists, max_size=2)),
        splits=splits,
    )


def robot_gears() -> st.SearchStrategy[RobotGears]:
    return st.builds(RobotGears, st.none() | gear_lists, st.none() | gear_lists)


@st.composite
def game_logs(draw: st.DrawFn) -> GameLog:
    two = draw(st.booleans())
    count = draw(st.integers(2, 4))
    numbers = draw(
        st.lists(
            robots,
            min_size=count * (2 if two else 1),
            max_size=count * (2 if two else 1),
            unique=True,
        )
    )
    players_names = draw(st.lists(names, min_size=count, max_size=count, unique=True))
    width = 2 if two else 1
    players = {
        name: tuple(numbers[i * width : (i + 1) * width]) for i, name in enumerate(players_names)
    }
    if draw(st.booleans()):
        start = Start(seed=draw(st.integers(0, 2**64 - 1)))
    else:
        start = Start(
            position=PositionRecord(
                robots={n: draw(robot_gears()) for n in numbers},
                dumps={n: draw(gear_lists) for n in numbers},
                reserve=draw(
                    gear_lists
                    | st.dictionaries(
                        st.sampled_from(list(GEAR_NAMES.values())), st.integers(0, 12), max_size=4
                    )
                ),
                turn=draw(st.integers(1, 1000)),
                upgrades=draw(
                    st.dictionaries(
                        st.sampled_from(players_names), st.sampled_from(list(UpgradeCard))
                    )
                ),
            )
        )
    turns = tuple(
        TurnRecord(
            draw(st.integers(1, 1000)),
            draw(programs_for(numbers)),
            choices=draw(st.none() | choices_records()),
            recorded=draw(
                st.none()
                | st.builds(
                    Recorded,
                    st.dictionaries(robots, robot_gears(), max_size=2),
                    st.dictionaries(robots, gear_lists, max_size=2),
                    st.dictionaries(st.sampled_from(players_names), st.integers(0, 10_000)),
                )
            ),
            drawn=draw(
                st.none()
                | st.dictionaries(robots, st.none() | st.sampled_from(list(GEAR_NAMES.values())))
            ),
            follows=draw(st.sampled_from(["rules", "table"])),
        )
        for _ in range(draw(st.integers(0, 3)))
    )
    options = Options(
        defence_steal_source=draw(st.sampled_from(["feet_or_circuit", "feet_only"])),
        assembly=draw(st.sampled_from(["mandatory", "optional"])),
        upgrades=draw(st.booleans()),
        upgrade_deck=draw(st.lists(st.sampled_from(list(UpgradeCard)), max_size=12)),
        jolly_gears=draw(st.booleans()),
        three_point_gears=draw(st.booleans()),
        pad_reserve=draw(st.booleans()),
    )
    return GameLog(
        players=players,
        start=start,
        turns=turns,
        options=options,
        two_robot_variant=draw(st.none() | st.booleans()),
        description=draw(st.text(max_size=40)),
        written_by=draw(
            st.none() | st.builds(WrittenBy, st.text(max_size=40), st.text(max_size=40))
        ),
    )


@given(game_logs())
def test_a_random_valid_log_round_trips_and_passes_the_schema(log: GameLog) -> None:
    text = dump_log(log)
    data = json.loads(text)
    jsonschema.Draft202012Validator(log_schema()).validate(data)
    assert read_log_text(text, "random.json") == log
    assert structure_log(log_to_json(log), "random.json") == log


def test_gear_names_are_the_schemas() -> None:
    enum = log_schema()["$defs"]["gear"]["enum"]
    assert list(GEAR_NAMES) == enum
    assert all(str(gear) == name for name, gear in GEAR_NAMES.items())
    assert isinstance(GEAR_NAMES["red"], Gear)
