"""Game logs: the ``outofgears-log/1`` JSON format, its reader and its writer.

A log holds who played which robots, the rule options, how the game started (a
seed, or a position entered by hand) and every turn: the programs, the
post-reveal choices and, optionally, what the players recorded after it. See
``spec/log-format.md``; the JSON Schema is ``spec/log.schema.json``.

Reading is strict and says where: the text is parsed (duplicate keys, size and
depth limits), validated against the schema, then structured by a cattrs
converter that never coerces (``"3"`` is not ``3``). Every failure is a
:class:`LogError` naming the file, the JSON path and, where it applies, the
turn and the robot.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final, get_args, get_origin

import attrs
import cattrs
from attrs import field, frozen
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from outofgears.choices import Choices, DefenceSteal
from outofgears.errors import InvalidStateError, OutOfGearsError
from outofgears.gears import Gear, parse_gear
from outofgears.model import Options, Place, UpgradeCard
from outofgears.programs import AnyProgram, Program, UpgradeProgram, parse_program
from outofgears.serialization import parse_place

#: The format tag of the logs this module reads and writes.
LOG_FORMAT: Final = "outofgears-log/1"

#: The largest log file read, in bytes (a full 8-robot game with choices is under 200 kB).
MAX_LOG_BYTES: Final = 5_000_000

#: The deepest JSON nesting accepted (a valid log nests 7 levels).
MAX_DEPTH: Final = 32


class LogError(OutOfGearsError, ValueError):
    """A log that cannot be read or replayed: names the file, the JSON path, the turn and robot.

    Attributes:
        source: The file (or ``"<stdin>"``).
        json_path: Where in the JSON, as ``$.turns[3].programs.2``.
        reason: What is wrong.
        turn: The turn concerned, if any.
        robot: The robot concerned, if any.
        clause: The spec clause broken, if any.

    >>> str(LogError("game.json", "$.turns[0].programs.3", "robot 3 is not in play", turn=1))
    'game.json: $.turns[0].programs.3 (turn 1): robot 3 is not in play'
    """

    def __init__(
        self,
        source: str,
        json_path: str,
        reason: str,
        *,
        turn: int | None = None,
        robot: int | None = None,
        clause: str | None = None,
    ) -> None:
        where = f" (turn {turn})" if turn is not None else ""
        super().__init__(f"{source}: {json_path}{where}: {reason}")
        self.source = source
        self.json_path = json_path
        self.reason = reason
        self.turn = turn
        self.robot = robot
        self.clause = clause


def _gear_tuple(items: Any) -> tuple[Gear, ...]:
    return tuple(items)


@frozen
class RobotGears:
    """A robot's feet and circuit as written in a log; ``None`` where not given."""

    feet: tuple[Gear, ...] | None = None
    circuit: tuple[Gear, ...] | None = None


@frozen
class PositionRecord:
    """A position entered by hand: the start of a game that begins mid-way."""

    robots: dict[int, RobotGears]
    dumps: dict[int, tuple[Gear, ...]]
    reserve: tuple[Gear, ...]
    turn: int = 1
    upgrades: dict[str, UpgradeCard] = field(factory=dict)


@frozen
class Start:
    """How the game started: exactly one of a seed and a position."""

    seed: int | None = None
    position: PositionRecord | None = None


@frozen
class StealRecord:
    """A defender's chosen gear (spec ATK-4); ``source`` is written ``"from"`` in JSON."""

    defender: int
    attacker: int
    source: str
    gear: Gear


@frozen
class SplitRecord:
    """A split the table agreed on (spec SPL-5)."""

    place: Place
    shares: dict[int, tuple[Gear, ...]]


@frozen
class ChoicesRecord:
    """The post-reveal choices of a turn, as written in a log."""

    defence_steals: tuple[StealRecord, ...] = ()
    assemblies: dict[int, tuple[Gear, ...]] = field(factory=dict)
    splits: tuple[SplitRecord, ...] = ()

    def to_choices(self) -> Choices:
        """The engine's :class:`~outofgears.choices.Choices`."""
        return Choices(
            defence_steals={
                (s.defender, s.attacker): DefenceSteal(s.source, s.gear)  # type: ignore[arg-type]
                for s in self.defence_steals
            },
            assemblies=self.assemblies,
            splits={split.place: split.shares for split in self.splits},
        )


@frozen
class Recorded:
    """What the players wrote down after a turn: any subset of these."""

    robots: dict[int, RobotGears] = field(factory=dict)
    dumps: dict[int, tuple[Gear, ...]] = field(factory=dict)
    scores: dict[str, int] = field(factory=dict)


@frozen
class TurnRecord:
    """One turn of a log."""

    turn: int
    programs: dict[int, AnyProgram]
    choices: ChoicesRecord | None = None
    recorded: Recorded | None = None


@frozen
class WrittenBy:
    """The engine and spec versions that wrote a log."""

    engine: str
    spec: str


@frozen
class GameLog:
    """A whole game log (format ``outofgears-log/1``)."""

    players: dict[str, tuple[int, ...]]
    start: Start
    turns: tuple[TurnRecord, ...] = ()
    options: Options = field(factory=Options)
    two_robot_variant: bool | None = None
    description: str = ""
    written_by: WrittenBy | None = None
    format: str = LOG_FORMAT


# --- the converter ---------------------------------------------------------------------------


def _strict(kind: type) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise TypeError(f"expected {kind.__name__}, got {value!r}")
        return value

    return structure


def _is_int_keyed(kind: Any) -> bool:
    return get_origin(kind) is dict and get_args(kind)[0] is int


def _int_keyed_factory(converter: cattrs.Converter) -> Callable[[Any], Any]:
    def factory(kind: Any) -> Callable[[Any, Any], Any]:
        value_type = get_args(kind)[1]

        def structure(value: Any, _: Any) -> dict[int, Any]:
            if not isinstance(value, dict):
                raise TypeError(f"expected an object, got {value!r}")
            out: dict[int, Any] = {}
            for key, item in value.items():
                if not (isinstance(key, str) and key.isdigit() and len(key) == 1):
                    raise ValueError(f"expected a robot or dump number '1'-'8', got {key!r}")
                out[int(key)] = converter.structure(item, value_type)
            return out

        return structure

    return factory


def _structure_gear(value: Any, _: Any) -> Gear:
    if not isinstance(value, str):
        raise TypeError(f"a gear is a colour name, 'jolly' or '3-point', not {value!r}")
    return parse_gear(value)


def _structure_program(value: Any, _: Any) -> AnyProgram:
    if not isinstance(value, str):
        raise TypeError(f"a program reads like 'attack 3' or 'super trap', not {value!r}")
    return parse_program(value)


def _structure_place(value: Any, _: Any) -> Place:
    if not isinstance(value, str):
        raise TypeError(f"a place reads like 'dump 4' or 'robot 3 feet', not {value!r}")
    return parse_place(value)


def _structure_card(value: Any, _: Any) -> UpgradeCard:
    if not isinstance(value, str):
        raise TypeError(f"an upgrade card is a name like 'super trap', not {value!r}")
    return UpgradeCard(value)


def _structure_options(converter: cattrs.Converter) -> Callable[[Any, Any], Options]:
    def structure(value: Any, _: Any) -> Options:
        if not isinstance(value, dict):
            raise TypeError(f"expected an object, got {value!r}")
        known = {a.name for a in attrs.fields(Options)}
        unknown = sorted(set(value) - known)
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}")
        kwargs: dict[str, Any] = {}
        for name, item in value.items():
            if name == "upgrade_deck":
                kwargs[name] = tuple(converter.structure(card, UpgradeCard) for card in item)
            else:
                kwargs[name] = item
        return Options(**kwargs)

    return structure


def make_log_converter() -> cattrs.Converter:
    """The strict converter between log JSON and the log classes.

    >>> make_log_converter().structure("red", Gear)
    Gear(1)
    """
    converter = cattrs.Converter(forbid_extra_keys=True, omit_if_default=True)
    for kind in (int, str, bool):
        converter.register_structure_hook(kind, _strict(kind))
    converter.register_structure_hook(Gear, _structure_gear)
    converter.register_unstructure_hook(Gear, str)
    converter.register_structure_hook(AnyProgram, _structure_program)
    converter.register_structure_hook(Program, _structure_program)
    converter.register_structure_hook(UpgradeProgram, _structure_program)
    converter.register_unstructure_hook(Program, str)
    converter.register_unstructure_hook(UpgradeProgram, str)
    converter.register_structure_hook(Place, _structure_place)
    converter.register_unstructure_hook(Place, str)
    converter.register_structure_hook(UpgradeCard, _structure_card)
    converter.register_unstructure_hook(UpgradeCard, lambda card: card.value)
    converter.register_structure_hook_factory(_is_int_keyed, _int_keyed_factory(converter))
    converter.register_unstructure_hook_func(
        _is_int_keyed,
        lambda mapping: {str(k): converter.unstructure(v) for k, v in sorted(mapping.items())},
    )
    converter.register_structure_hook(Options, _structure_options(converter))
    converter.register_unstructure_hook(Options, _unstructure_options(converter))
    converter.register_structure_hook(
        StealRecord,
        make_dict_structure_fn(
            StealRecord,
            converter,
            _cattrs_forbid_extra_keys=True,
            source=override(rename="from"),
        ),
    )
    converter.register_unstructure_hook(
        StealRecord,
        make_dict_unstructure_fn(StealRecord, converter, source=override(rename="from")),
    )
    for cls in (
        RobotGears,
        PositionRecord,
        Start,
        SplitRecord,
        ChoicesRecord,
        Recorded,
        TurnRecord,
        WrittenBy,
        GameLog,
    ):
        converter.register_structure_hook(
            cls, make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True)
        )
        converter.register_unstructure_hook(
            cls, make_dict_unstructure_fn(cls, converter, _cattrs_omit_if_default=True)
        )
    return converter


def _unstructure_options(converter: cattrs.Converter) -> Callable[[Options], dict[str, Any]]:
    defaults = Options()

    def unstructure(options: Options) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for a in attrs.fields(Options):
            value = getattr(options, a.name)
            if value != getattr(defaults, a.name):
                out[a.name] = [card.value for card in value] if a.name == "upgrade_deck" else value
        return out

    return unstructure


LOG_CONVERTER: Final = make_log_converter()


# --- reading ---------------------------------------------------------------------------------


@cache
def log_schema() -> dict[str, Any]:
    """The JSON Schema of the log format (``spec/log.schema.json``).

    >>> log_schema()["properties"]["format"]["const"]
    'outofgears-log/1'
    """
    text = resources.files("outofgears").joinpath("_spec/log.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def json_path(parts: Any) -> str:
    """A JSON path from its keys and indices.

    >>> json_path(["turns", 3, "programs", "2"])
    '$.turns[3].programs.2'
    """
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} appears twice in one object")
        seen[key] = value
    return seen


def _depth(value: Any, limit: int) -> int:
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def parse_log_text(text: str, source: str = "<log>") -> Any:
    """The JSON value of a log's text, or a :class:`LogError` saying what is wrong."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_LOG_BYTES:
        raise LogError(source, "$", f"the log is larger than {MAX_LOG_BYTES} bytes")
    if not text.strip():
        raise LogError(source, "$", "the log is empty")
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicates)
    except json.JSONDecodeError as error:
        raise LogError(
            source, "$", f"not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except ValueError as error:
        raise LogError(source, "$", f"not a valid log: {error}") from None
    except RecursionError:
        raise LogError(source, "$", f"the JSON nests deeper than {MAX_DEPTH} levels") from None
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise LogError(source, "$", f"the JSON nests deeper than {MAX_DEPTH} levels")
    return data


def validate_log_json(data: Any, source: str = "<log>") -> None:
    """Check a log's JSON against the schema; the first error (by path) as a :class:`LogError`."""
    import jsonschema  # imported here: it is slow to import and only reading needs it

    validator = jsonschema.Draft202012Validator(log_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return
    error = jsonschema.exceptions.best_match(errors) or errors[0]
    path = list(error.absolute_path)
    raise LogError(source, json_path(path), _schema_message(error), turn=_turn_at(data, path))


def _schema_message(error: Any) -> str:
    if error.validator == "oneOf" and list(error.absolute_path) == ["start"]:
        return "the start is either {'seed': N} or {'position': {...}}"
    if error.validator == "additionalProperties":
        return str(error.message).replace("Additional properties", "unknown key(s)")
    message = str(error.message)
    return message if len(message) <= 300 else message[:300] + "..."


def _turn_at(data: Any, path: list[Any]) -> int | None:
    if len(path) >= 2 and path[0] == "turns" and isinstance(path[1], int):
        try:
            turn = data["turns"][path[1]].get("turn")
        except (KeyError, IndexError, TypeError, AttributeError):
            return None
        return turn if type(turn) is int else None
    return None


def structure_log(data: Any, source: str = "<log>") -> GameLog:
    """The :class:`GameLog` of schema-valid JSON, structured strictly by cattrs."""
    try:
        log: GameLog = LOG_CONVERTER.structure(data, GameLog)
    except cattrs.BaseValidationError as error:
        raise LogError(source, *_first_cattrs_error(error)) from None
    except (InvalidStateError, ValueError, TypeError, KeyError) as error:
        raise LogError(source, "$", str(error)) from None
    return log


def _first_cattrs_error(error: cattrs.BaseValidationError) -> tuple[str, str]:
    messages = cattrs.transform_error(error, format_exception=_format_cause)
    first = messages[0] if messages else str(error)
    reason, _, path = first.rpartition(" @ ")
    return (path or "$"), (reason or first)


def _format_cause(error: BaseException, kind: type | None) -> str:
    if isinstance(error, InvalidStateError | ValueError | TypeError):
        return str(error)
    return cattrs.v.format_exception(error, kind)


def read_log_text(text: str, source: str = "<log>") -> GameLog:
    """Parse, validate and structure a log from its text.

    >>> log = read_log_text('{"format": "outofgears-log/1", "players": {"A": [1], "B": [2]},'
    ...                     ' "start": {"seed": 7}, "turns": []}')
    >>> log.players, log.start.seed
    ({'A': (1,), 'B': (2,)}, 7)
    """
    data = parse_log_text(text, source)
    validate_log_json(data, source)
    return structure_log(data, source)


def read_log(path: Path | str) -> GameLog:
    """Read a log file (``"-"`` reads standard input); a :class:`LogError` if it is not valid."""
    import sys

    name = str(path)
    if name == "-":
        return read_log_text(sys.stdin.read(), "<stdin>")
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_LOG_BYTES:
            raise LogError(name, "$", f"the log is larger than {MAX_LOG_BYTES} bytes ({size})")
        raw = file.read_bytes()
    except OSError as error:
        raise LogError(name, "$", f"cannot read the file: {error.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise LogError(name, "$", "the file is not UTF-8 text") from None
    return read_log_text(text, name)


# --- writing ---------------------------------------------------------------------------------


def log_to_json(log: GameLog) -> dict[str, Any]:
    """A log as JSON-ready data (defaults left out).

    >>> data = log_to_json(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=3)))
    >>> data["format"], data["start"]
    ('outofgears-log/1', {'seed': 3})
    """
    data: dict[str, Any] = LOG_CONVERTER.unstructure(log)
    data["format"] = log.format
    return {"format": data.pop("format"), **data}


def dump_log(log: GameLog) -> str:
    """A log as JSON text: two-space indented, short lists on one line, a final newline.

    >>> print(dump_log(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=3))), end="")
    {
      "format": "outofgears-log/1",
      "players": {
        "A": [1],
        "B": [2]
      },
      "start": {
        "seed": 3
      }
    }
    """
    return format_json(log_to_json(log)) + "\n"


def format_json(value: Any, indent: int = 0) -> str:
    """JSON text that keeps lists of plain values on one line, the way a table reads gears."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [
            f"{pad}{json.dumps(key, ensure_ascii=False)}: {format_json(item, indent + 1)}"
            for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        items = [f"{pad}{format_json(item, indent + 1)}" for item in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def turn_record_from(
    turn: int,
    programs: Mapping[int, AnyProgram],
    recorded: Recorded | None = None,
) -> TurnRecord:
    """A turn record for a turn played by the engine (used by ``simulate`` and ``new``)."""
    return TurnRecord(turn=turn, programs=dict(programs), recorded=recorded)


__all__ = [
    "LOG_FORMAT",
    "MAX_LOG_BYTES",
    "ChoicesRecord",
    "GameLog",
    "LogError",
    "PositionRecord",
    "Recorded",
    "RobotGears",
    "SplitRecord",
    "Start",
    "StealRecord",
    "TurnRecord",
    "WrittenBy",
    "dump_log",
    "log_schema",
    "log_to_json",
    "read_log",
    "read_log_text",
    "structure_log",
    "validate_log_json",
]
