"""Game logs: the ``outofgears-log/1`` JSON format, its reader and its writer.

A log holds who played which robots, the rule options, how the game started (a
seed, or a position entered by hand) and every turn: the programs, the
post-reveal choices and, optionally, what the players recorded after it. See
``spec/log-format.md``; the JSON Schema is ``spec/log.schema.json``.

Reading is strict and says where. The bytes must be UTF-8 (a leading byte-order
mark is allowed) and at most :data:`MAX_LOG_BYTES` long; the JSON must not
repeat a key in an object, hold ``NaN`` or ``Infinity``, or nest deeper than
:data:`MAX_DEPTH`. The value is then validated against the schema, and
structured by a cattrs converter that never coerces (``"3"`` is not ``3``,
``"no"`` is not ``True``, ``1.0`` is not ``1``). The log classes check
themselves too, so that the converter alone refuses what the schema refuses.
Every failure is a :class:`LogError` naming the file, the JSON path and, where
it applies, the turn and the robot.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from importlib import resources
from itertools import chain
from pathlib import Path
from typing import Any, Final, Union, get_args, get_origin

import attrs
import cattrs
from attrs import field, frozen
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from outofgears.choices import Choices, DefenceSteal
from outofgears.errors import InvalidStateError, OutOfGearsError, show
from outofgears.gears import GEAR_NAMES, ROBOT_NUMBERS, Gear, gear_refusal, sort_gears
from outofgears.model import (
    AssemblyRule,
    DefenceStealSource,
    GameState,
    Options,
    Place,
    PlaceKind,
    UpgradeCard,
)
from outofgears.programs import AnyProgram, Program, UpgradeProgram, program_refusal
from outofgears.serialization import JSON_WORDS, make_converter, structure_card

#: The format tag of the logs this module reads and writes.
LOG_FORMAT: Final = "outofgears-log/1"

#: The largest log read, in bytes (5 MB): a whole 8-robot game with choices and recorded
#: values is under 200 kB. Larger files (and standard input) are refused unread.
MAX_LOG_BYTES: Final = 5_000_000

#: The deepest JSON nesting accepted (a valid log nests at most 7 levels).
MAX_DEPTH: Final = 32

#: The largest seed: an unsigned 64-bit integer.
MAX_SEED: Final = 2**64 - 1

#: Limits shared with the schema (``spec/log.schema.json``).
MAX_TURNS: Final = 1000
MAX_GEARS: Final = 120
MAX_NAME: Final = 60
MAX_VERSION: Final = 40
MAX_DESCRIPTION: Final = 2000
MAX_DECK: Final = 40
MAX_STEALS: Final = 64
MAX_SPLITS: Final = 16
MAX_SCORE: Final = 10_000

_PLAIN_KEY: Final = re.compile(r"[A-Za-z0-9_-]+")

#: The face-down reserve of a position: its gears in draw order (a list in JSON), or, as a
#: table knows it, how many of each gear it holds with the order unknown (an object).
ReserveRecord = tuple[Gear, ...] | dict[Gear, int]

#: What exploration turned up onto a dump: a gear, or ``None`` (JSON ``null``) when the
#: reserve had run out (EXP-1).
DrawnGear = Gear | None

#: What a start must look like.
START_SHAPE: Final = "the start is either {'seed': N} or {'position': {...}}"


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
    >>> str(LogError("game.json", "$.turns[0].programs.3", "not in play", turn=1, robot=3))
    'game.json: $.turns[0].programs.3 (turn 1, robot 3): not in play'
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
        facts = [f"turn {turn}"] if turn is not None else []
        facts += [f"robot {robot}"] if robot is not None else []
        where = f" ({', '.join(facts)})" if facts else ""
        super().__init__(f"{source}: {json_path}{where}: {reason}")
        self.source = source
        self.json_path = json_path
        self.reason = reason
        self.turn = turn
        self.robot = robot
        self.clause = clause


class LogFieldError(OutOfGearsError, ValueError):
    """A value of a log class that the format does not allow, and where it is.

    Raised by the log classes' validators and the converter's hooks; the reader
    turns it into a :class:`LogError` with the whole JSON path.

    Attributes:
        reason: What is wrong.
        where: The JSON keys and indices from the object being checked to the value.

    >>> LogFieldError("a turn number is 1 to 1000, not 0", "turn").where
    ('turn',)
    """

    def __init__(self, reason: str, *where: str | int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.where = where


# --- validators of the log classes -----------------------------------------------------------


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _check_int(value: Any, low: int, high: int, what: str, *where: str | int) -> None:
    if type(value) is not int:
        raise LogFieldError(f"{what} is an integer, not {show(value)}", *where)
    if not low <= value <= high:
        raise LogFieldError(f"{what} is {low} to {high}, not {value}", *where)


def _check_robot(value: Any, *where: str | int) -> None:
    _check_int(value, 1, 8, "a robot number", *where)


def _check_name(value: Any, what: str, *where: str | int) -> None:
    if type(value) is not str:
        raise LogFieldError(f"{what} is a string, not {show(value)}", *where)
    if not 1 <= len(value) <= MAX_NAME:
        raise LogFieldError(f"{what} is 1 to {MAX_NAME} characters, not {len(value)}", *where)


def _check_text(value: Any, limit: int, *where: str | int) -> None:
    if type(value) is not str:
        raise LogFieldError(f"expected a string, got {show(value)}", *where)
    if len(value) > limit:
        raise LogFieldError(f"at most {limit} characters, not {len(value)}", *where)


def _check_gears(value: Any, *where: str | int) -> None:
    if not isinstance(value, tuple):
        raise LogFieldError(f"gears are a list, not {show(value)}", *where)
    if len(value) > MAX_GEARS:
        raise LogFieldError(f"at most {MAX_GEARS} gears, not {len(value)}", *where)
    for index, gear in enumerate(value):
        if not isinstance(gear, Gear):
            raise LogFieldError(f"expected a gear, got {gear!r}", *where, index)


def _check_robot_keyed(
    value: Any, check: Callable[[Any, tuple[str | int, ...]], None], *where: str | int
) -> None:
    if not isinstance(value, dict):
        raise LogFieldError(f"expected an object, got {value!r}", *where)
    for key, item in value.items():
        if type(key) is not int or key not in ROBOT_NUMBERS:
            raise LogFieldError(f"keys here are robot numbers 1 to 8, not {key!r}", *where)
        check(item, (*where, str(key)))


def _gears_at(item: Any, where: tuple[str | int, ...]) -> None:
    _check_gears(item, *where)


def _optional_gears(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None:
        _check_gears(value, attribute.name)


def _robot_gears_at(item: Any, where: tuple[str | int, ...]) -> None:
    if not isinstance(item, RobotGears):
        raise LogFieldError(f"expected a robot's feet and circuit, got {item!r}", *where)


def _robots_gears(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    _check_robot_keyed(value, _robot_gears_at, attribute.name)


def _dumps_gears(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    _check_robot_keyed(value, _gears_at, attribute.name)


def _gear_list(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    _check_gears(value, attribute.name)


def _reserve(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, dict):
        _check_gears(value, attribute.name)
        return
    total = 0
    for gear, count in value.items():
        if not isinstance(gear, Gear):
            raise LogFieldError(f"expected a gear, got {gear!r}", attribute.name)
        _check_int(count, 0, MAX_GEARS, "a count of gears", attribute.name, str(gear))
        total += count
    if total > MAX_GEARS:
        raise LogFieldError(f"at most {MAX_GEARS} gears, not {total}", attribute.name)


def _drawn(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    def drawn_at(item: Any, where: tuple[str | int, ...]) -> None:
        if item is not None and not isinstance(item, Gear):
            raise LogFieldError(f"expected a gear or null, got {item!r}", *where)

    if value is not None:
        _check_robot_keyed(value, drawn_at, attribute.name)


def _turn_number(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    _check_int(value, 1, MAX_TURNS, "a turn number", attribute.name)


def _held_upgrades(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, dict):
        raise LogFieldError(f"expected an object, got {value!r}", attribute.name)
    for name, card in value.items():
        _check_name(name, "a player's name", attribute.name, name)
        if not isinstance(card, UpgradeCard):
            raise LogFieldError(f"expected an upgrade card, got {card!r}", attribute.name, name)


@frozen
class RobotGears:
    """A robot's feet and circuit as written in a log; ``None`` where not given."""

    feet: tuple[Gear, ...] | None = field(default=None, validator=_optional_gears)
    circuit: tuple[Gear, ...] | None = field(default=None, validator=_optional_gears)


@frozen
class PositionRecord:
    """A position entered by hand: the start of a game that begins mid-way.

    ``reserve`` is the face-down pile in draw order, or, as a table knows it, a count of
    each gear in it (``{Gear(1): 3}``) with the order unknown: then every turn says what
    was drawn (:attr:`TurnRecord.drawn`).
    """

    robots: dict[int, RobotGears] = field(validator=_robots_gears)
    dumps: dict[int, tuple[Gear, ...]] = field(validator=_dumps_gears)
    reserve: ReserveRecord = field(validator=_reserve)
    turn: int = field(default=1, validator=_turn_number)
    upgrades: dict[str, UpgradeCard] = field(factory=dict, validator=_held_upgrades)

    @property
    def reserve_order_known(self) -> bool:
        """Whether the reserve is given in draw order (a list), not as counts."""
        return not isinstance(self.reserve, dict)

    @property
    def reserve_gears(self) -> tuple[Gear, ...]:
        """The reserve's gears: in draw order, or, for counts, in the gears' order."""
        if isinstance(self.reserve, dict):
            return sort_gears(chain.from_iterable([g] * n for g, n in self.reserve.items()))
        return self.reserve

    @classmethod
    def of(cls, state: GameState) -> PositionRecord:
        """The position of a state, as a log's ``start.position`` writes it.

        >>> from outofgears.setup import setup_game
        >>> record = PositionRecord.of(setup_game([1, 2], seed=1))
        >>> record.robots[1], record.turn
        (RobotGears(feet=(), circuit=()), 1)
        """
        return cls(
            robots={r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in state.robots},
            dumps={dump.number: dump.gears for dump in state.dumps},
            reserve=state.reserve,
            turn=state.turn,
            upgrades={p.name: p.upgrade for p in state.players if p.upgrade is not None},
        )


@frozen
class Start:
    """How the game started: exactly one of a seed and a position."""

    seed: int | None = None
    position: PositionRecord | None = None

    def __attrs_post_init__(self) -> None:
        if (self.seed is None) == (self.position is None):
            raise LogFieldError(START_SHAPE)
        if self.seed is not None:
            _check_int(self.seed, 0, MAX_SEED, "a seed", "seed")
        elif not isinstance(self.position, PositionRecord):
            raise LogFieldError(f"expected a position, got {self.position!r}", "position")


@frozen
class StealRecord:
    """A defender's chosen gear (spec ATK-4); ``source`` is written ``"from"`` in JSON."""

    defender: int
    attacker: int
    source: str
    gear: Gear

    def __attrs_post_init__(self) -> None:
        _check_robot(self.defender, "defender")
        _check_robot(self.attacker, "attacker")
        if self.source not in ("feet", "circuit"):
            raise LogFieldError(
                f"a defender takes from 'feet' or 'circuit', not {show(self.source)}", "from"
            )
        if not isinstance(self.gear, Gear):
            raise LogFieldError(f"expected a gear, got {self.gear!r}", "gear")


def _split_place(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not (
        isinstance(value, Place)
        and value.kind in (PlaceKind.DUMP, PlaceKind.FEET)
        and value.number in ROBOT_NUMBERS
    ):
        raise LogFieldError(
            f"a split is of a dump or a robot's feet ('dump 4', 'robot 3 feet'), not {value}",
            "place",
        )


@frozen
class SplitRecord:
    """A split the table agreed on (spec SPL-5)."""

    place: Place = field(validator=_split_place)
    shares: dict[int, tuple[Gear, ...]] = field(validator=_dumps_gears)


def _steal_list(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if len(value) > MAX_STEALS:
        raise LogFieldError(
            f"at most {MAX_STEALS} defence steals, not {len(value)}", attribute.name
        )
    seen: set[tuple[int, int]] = set()
    for index, steal in enumerate(value):
        if not isinstance(steal, StealRecord):
            raise LogFieldError(f"expected a defence steal, got {steal!r}", attribute.name, index)
        pair = (steal.defender, steal.attacker)
        if pair in seen:
            raise LogFieldError(
                f"robot {steal.defender} takes one gear from robot {steal.attacker}; "
                "this steal is written twice",
                attribute.name,
                index,
            )
        seen.add(pair)


def _split_list(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if len(value) > MAX_SPLITS:
        raise LogFieldError(f"at most {MAX_SPLITS} splits, not {len(value)}", attribute.name)
    seen: set[Place] = set()
    for index, split in enumerate(value):
        if not isinstance(split, SplitRecord):
            raise LogFieldError(f"expected a split, got {split!r}", attribute.name, index)
        if split.place in seen:
            raise LogFieldError(
                f"{split.place} is split once; this split is written twice", attribute.name, index
            )
        seen.add(split.place)


@frozen
class ChoicesRecord:
    """The post-reveal choices of a turn, as written in a log.

    A defender takes at most one gear from each attacker and a place is split
    once, so a steal or a split written twice is refused.
    """

    defence_steals: tuple[StealRecord, ...] = field(default=(), validator=_steal_list)
    assemblies: dict[int, tuple[Gear, ...]] = field(factory=dict, validator=_dumps_gears)
    splits: tuple[SplitRecord, ...] = field(default=(), validator=_split_list)

    @classmethod
    def of(cls, choices: Choices) -> ChoicesRecord:
        """The record of the engine's :class:`~outofgears.choices.Choices`, as a log writes it.

        >>> from outofgears.gears import gears
        >>> ChoicesRecord.of(Choices(assemblies={3: gears(3, 3)})).assemblies
        {3: (Gear(3), Gear(3))}
        """
        return cls(
            defence_steals=tuple(
                StealRecord(defender, attacker, steal.source, steal.gear)
                for (defender, attacker), steal in sorted(choices.defence_steals.items())
            ),
            assemblies={robot: tuple(gears) for robot, gears in sorted(choices.assemblies.items())},
            splits=tuple(
                SplitRecord(place, {robot: tuple(share) for robot, share in sorted(shares.items())})
                for place, shares in sorted(choices.splits.items(), key=lambda item: str(item[0]))
            ),
        )

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


def _scores(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, dict):
        raise LogFieldError(f"expected an object, got {value!r}", attribute.name)
    for name, points in value.items():
        _check_name(name, "a player's name", attribute.name, name)
        _check_int(points, 0, MAX_SCORE, "a score", attribute.name, name)


@frozen
class Recorded:
    """What the players wrote down after a turn: any subset of these."""

    robots: dict[int, RobotGears] = field(factory=dict, validator=_robots_gears)
    dumps: dict[int, tuple[Gear, ...]] = field(factory=dict, validator=_dumps_gears)
    scores: dict[str, int] = field(factory=dict, validator=_scores)


def _programs(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    def program_at(item: Any, where: tuple[str | int, ...]) -> None:
        if not isinstance(item, Program | UpgradeProgram):
            raise LogFieldError(f"expected a program, got {item!r}", *where)

    _check_robot_keyed(value, program_at, attribute.name)


@frozen
class TurnRecord:
    """One turn of a log.

    ``drawn`` says what exploration turned up onto each dump (dump number to gear, or
    ``None`` for a dump the emptied reserve left without one): required on every turn
    while the reserve is not empty when the log gives the reserve as counts, and checked
    like a recorded value otherwise.
    """

    turn: int = field(validator=_turn_number)
    programs: dict[int, AnyProgram] = field(validator=_programs)
    choices: ChoicesRecord | None = None
    recorded: Recorded | None = None
    drawn: dict[int, DrawnGear] | None = field(default=None, validator=_drawn)


def _version(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    _check_text(value, MAX_VERSION, attribute.name)


@frozen
class WrittenBy:
    """The engine and spec versions that wrote a log."""

    engine: str = field(validator=_version)
    spec: str = field(validator=_version)


def _players(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, dict):
        raise LogFieldError(f"expected an object, got {value!r}", "players")
    for name, robots in value.items():
        if not isinstance(robots, tuple) or not 1 <= len(robots) <= 2:
            raise LogFieldError(
                f"a player controls one robot or two, not {robots!r}", "players", name
            )
        for index, robot in enumerate(robots):
            _check_robot(robot, "players", name, index)
            if robot in robots[:index]:
                raise LogFieldError(f"robot {robot} is listed twice", "players", name, index)
        _check_name(name, "a player's name", "players", name)
    if not 2 <= len(value) <= 8:
        raise LogFieldError(f"a game has 2 to 8 players, not {len(value)}", "players")


def _turns(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if len(value) > MAX_TURNS:
        raise LogFieldError(f"at most {MAX_TURNS} turns, not {len(value)}", "turns")


def _format(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value != LOG_FORMAT:
        raise LogFieldError(f"this reader reads format {LOG_FORMAT!r}, not {show(value)}", "format")


def _description(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    _check_text(value, MAX_DESCRIPTION, "description")


def _variant(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not None and type(value) is not bool:
        raise LogFieldError(f"expected true or false, got {show(value)}", "two_robot_variant")


@frozen
class GameLog:
    """A whole game log (format ``outofgears-log/1``)."""

    players: dict[str, tuple[int, ...]] = field(validator=_players)
    start: Start
    turns: tuple[TurnRecord, ...] = field(default=(), validator=_turns)
    options: Options = field(factory=Options)
    two_robot_variant: bool | None = field(default=None, validator=_variant)
    description: str = field(default="", validator=_description)
    written_by: WrittenBy | None = None
    format: str = field(default=LOG_FORMAT, validator=_format)


# --- the converter ---------------------------------------------------------------------------

#: The JSON keys a log object must have, where the class has a default for Python callers.
_REQUIRED_EXTRA: Final[dict[type, tuple[str, ...]]] = {GameLog: ("format", "turns")}
#: JSON names of attributes that differ from the Python ones.
_RENAMED: Final[dict[type, dict[str, str]]] = {StealRecord: {"source": "from"}}


def _is_optional(kind: Any) -> bool:
    args = get_args(kind)
    return (
        get_origin(kind) in (Union, type(int | None))
        and len(args) == 2
        and type(None) in args
        and kind is not AnyProgram
        and kind != DrawnGear
    )


def _optional_factory(converter: cattrs.Converter) -> Callable[[Any], Any]:
    def factory(kind: Any) -> Callable[[Any, Any], Any]:
        inner = next(arg for arg in get_args(kind) if arg is not type(None))
        word = JSON_WORDS.get(inner, "an array" if get_origin(inner) is tuple else "an object")

        def structure(value: Any, _: Any) -> Any:
            if value is None:
                raise TypeError(f"expected {word}, got null (leave the key out instead)")
            return converter.structure(value, inner)

        return structure

    return factory


def _is_homogeneous_tuple(kind: Any) -> bool:
    args = get_args(kind)
    return get_origin(kind) is tuple and len(args) == 2 and args[1] is Ellipsis


def _tuple_factory(converter: cattrs.Converter) -> Callable[[Any], Any]:
    def factory(kind: Any) -> Callable[[Any, Any], Any]:
        item_type = get_args(kind)[0]

        def structure(value: Any, _: Any) -> tuple[Any, ...]:
            if type(value) is not list:
                raise TypeError(f"expected an array, got {show(value)}")
            out: list[Any] = []
            errors: list[Exception] = []
            for index, item in enumerate(value):
                try:
                    out.append(converter.structure(item, item_type))
                except Exception as error:
                    error.__notes__ = [
                        IterableValidationNote(f"item @ index {index}", index, item_type)
                    ]
                    errors.append(error)
                    break
            if errors:
                raise IterableValidationError(f"While structuring {kind}", errors, kind)
            return tuple(out)

        return structure

    return factory


def _is_keyed(kind: Any) -> bool:
    return get_origin(kind) is dict and get_args(kind)[0] in (int, str)


def _keyed_factory(converter: cattrs.Converter) -> Callable[[Any], Any]:
    def factory(kind: Any) -> Callable[[Any, Any], Any]:
        key_type, value_type = get_args(kind)

        def structure(value: Any, _: Any) -> dict[Any, Any]:
            if type(value) is not dict:
                raise TypeError(f"expected an object, got {show(value)}")
            out: dict[Any, Any] = {}
            for key, item in value.items():
                # The value first: what a key holds is reported before the key itself.
                try:
                    structured = converter.structure(item, value_type)
                except Exception as error:
                    error.__notes__ = [IterableValidationNote(f"key {key!r}", key, value_type)]
                    raise IterableValidationError(
                        f"While structuring {kind}", [error], kind
                    ) from None
                if key_type is int:
                    if not (isinstance(key, str) and len(key) == 1 and "1" <= key <= "8"):
                        raise LogFieldError(
                            f"{show(key)} is not a robot number: keys here are '1' to '8'", key
                        )
                    out[int(key)] = structured
                else:
                    out[key] = structured
            return out

        return structure

    return factory


_OPTION_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "defence_steal_source": get_args(DefenceStealSource),
    "assembly": get_args(AssemblyRule),
}


def _structure_drawn(converter: cattrs.Converter) -> Callable[[Any, Any], DrawnGear]:
    def structure(value: Any, _: Any) -> DrawnGear:
        return None if value is None else converter.structure(value, Gear)

    return structure


def _structure_reserve(converter: cattrs.Converter) -> Callable[[Any, Any], ReserveRecord]:
    def structure(value: Any, _: Any) -> ReserveRecord:
        if type(value) is list:
            gears: tuple[Gear, ...] = converter.structure(value, tuple[Gear, ...])
            return gears
        if type(value) is not dict:
            raise TypeError(
                f"expected an array (the draw order) or an object (gear name to count), "
                f"got {show(value)}"
            )
        counts: dict[Gear, int] = {}
        for name, count in value.items():
            try:
                gear = converter.structure(name, Gear)
            except ValueError as error:
                raise LogFieldError(str(error), name) from None
            _check_int(count, 0, MAX_GEARS, "a count of gears", name)
            counts[gear] = count
        return counts

    return structure


def _unstructure_reserve(reserve: ReserveRecord) -> Any:
    if isinstance(reserve, dict):
        return {str(gear): count for gear, count in reserve.items()}
    return [str(gear) for gear in reserve]


def _structure_options(converter: cattrs.Converter) -> Callable[[Any, Any], Options]:
    known = [a.name for a in attrs.fields(Options)]

    def structure(value: Any, _: Any) -> Options:
        if type(value) is not dict:
            raise TypeError(f"expected an object, got {show(value)}")
        kwargs: dict[str, Any] = {}
        for name, item in value.items():
            if name not in known:
                raise LogFieldError(unknown_key(name, known), name)
            if name in _OPTION_CHOICES:
                if item not in _OPTION_CHOICES[name] or type(item) is not str:
                    raise LogFieldError(
                        f"{name} is {' or '.join(map(repr, _OPTION_CHOICES[name]))}, "
                        f"not {show(item)}",
                        name,
                    )
                kwargs[name] = item
            elif name == "upgrade_deck":
                if type(item) is not list:
                    raise LogFieldError(f"expected an array, got {show(item)}", name)
                if len(item) > MAX_DECK:
                    raise LogFieldError(f"at most {MAX_DECK} cards, not {len(item)}", name)
                cards = []
                for index, card in enumerate(item):
                    try:
                        cards.append(structure_card(card, UpgradeCard))
                    except ValueError as error:
                        raise LogFieldError(str(error), name, index) from None
                kwargs[name] = tuple(cards)
            else:
                if type(item) is not bool:
                    raise LogFieldError(f"expected true or false, got {show(item)}", name)
                kwargs[name] = item
        return Options(**kwargs)

    return structure


def _unstructure_options(options: Options) -> dict[str, Any]:
    defaults = Options()
    out: dict[str, Any] = {}
    for a in attrs.fields(Options):
        value = getattr(options, a.name)
        if value != getattr(defaults, a.name):
            out[a.name] = [card.value for card in value] if a.name == "upgrade_deck" else value
    return out


def unknown_key(key: str, known: Iterable[str]) -> str:
    """The message for a key that the format does not have.

    >>> unknown_key("colour", ["turns", "start"])
    "unknown key 'colour' (known: start, turns)"
    """
    return f"unknown key {key!r} (known: {', '.join(sorted(known))})"


def _json_name(cls: type, name: str) -> str:
    return _RENAMED.get(cls, {}).get(name, name)


def _required_keys(cls: type) -> tuple[str, ...]:
    required = [_json_name(cls, a.name) for a in attrs.fields(cls) if a.default is attrs.NOTHING]
    return (*required, *_REQUIRED_EXTRA.get(cls, ()))


def _object_hook(cls: type, generated: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Structure an object, reporting its first problem in document order.

    An unknown key counts where it stands, a missing key at the end of the object,
    a bad value where its key stands: the order in which the reader reports schema
    errors too (:func:`validate_log_json`), so that both name the same path.
    """
    required = sorted(_required_keys(cls))
    known = sorted(_json_name(cls, a.name) for a in attrs.fields(cls))
    attribute_of = {_json_name(cls, a.name): a.name for a in attrs.fields(cls)}

    def structure(value: Any, kind: Any) -> Any:
        if type(value) is not dict:
            raise TypeError(f"expected an object, got {show(value)}")
        keys = list(value)
        if cls is Start and (len(set(keys) & {"seed", "position"}) == 2 or not keys):
            raise LogFieldError(START_SHAPE)
        problems: list[tuple[int, BaseException]] = []
        unknown = [i for i, key in enumerate(keys) if key not in known]
        if unknown:
            key = keys[unknown[0]]
            problems.append((unknown[0], LogFieldError(unknown_key(key, known), key)))
        missing = [key for key in required if key not in value]
        if missing:
            problem = LogFieldError(f"the required key {missing[0]!r} is missing", missing[0])
            problems.append((len(keys), problem))
        try:
            structured = generated({k: v for k, v in value.items() if k in known}, kind)
        except ClassValidationError as error:
            for inner in error.exceptions:
                if isinstance(inner, KeyError | ForbiddenExtraKeysError):
                    continue  # reported above, in the words of the schema
                problems.append((_problem_index(inner, keys, attribute_of), inner))
            if not problems:  # pragma: no cover - cattrs raised an error it did not explain
                raise
        if not problems:
            return structured
        _, first = min(problems, key=lambda item: item[0])
        if isinstance(first, LogFieldError) and not _attribute_note(first):
            raise first
        raise ClassValidationError(f"While structuring {cls.__name__}", [first], cls)  # type: ignore[list-item]

    return structure


def _attribute_note(error: BaseException) -> AttributeValidationNote | None:
    for note in getattr(error, "__notes__", ()):
        if isinstance(note, AttributeValidationNote):
            return note
    return None


def _problem_index(error: BaseException, keys: list[str], attribute_of: dict[str, str]) -> int:
    """Where in the object a structuring error stands: its key's position."""
    note = _attribute_note(error)
    if note is not None:
        names = [attribute_of.get(key) for key in keys]
        return names.index(note.name) if note.name in names else len(keys)
    where = getattr(error, "where", ())
    if where and where[0] in keys:
        return keys.index(where[0])
    return len(keys) + 1  # the object as a whole: after what it holds


def make_log_converter() -> cattrs.Converter:
    """The strict converter between log JSON and the log classes.

    It never coerces: a wrong type, a JSON ``null``, an unknown key, a missing
    required key or a key that is not a robot number is refused, with where.

    >>> make_log_converter().structure("red", Gear)
    Gear(1)
    """
    converter = make_converter(omit_if_default=True)
    converter.register_structure_hook_factory(_is_optional, _optional_factory(converter))
    converter.register_structure_hook_factory(_is_homogeneous_tuple, _tuple_factory(converter))
    converter.register_structure_hook_factory(_is_keyed, _keyed_factory(converter))
    converter.register_structure_hook(Options, _structure_options(converter))
    converter.register_structure_hook_func(
        lambda kind: kind == DrawnGear, _structure_drawn(converter)
    )
    converter.register_structure_hook_func(
        lambda kind: kind == ReserveRecord, _structure_reserve(converter)
    )
    converter.register_unstructure_hook_func(
        lambda kind: kind == ReserveRecord, _unstructure_reserve
    )
    converter.register_unstructure_hook(Options, _unstructure_options)
    converter.register_structure_hook(
        StealRecord,
        _object_hook(
            StealRecord,
            make_dict_structure_fn(
                StealRecord,
                converter,
                _cattrs_forbid_extra_keys=True,
                source=override(rename="from"),
            ),
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
            cls,
            _object_hook(
                cls, make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True)
            ),
        )
        converter.register_unstructure_hook(
            cls, make_dict_unstructure_fn(cls, converter, _cattrs_omit_if_default=True)
        )
    return converter


LOG_CONVERTER: Final = make_log_converter()


# --- JSON paths, turns and robots --------------------------------------------------------------


def json_path(parts: Iterable[str | int]) -> str:
    """A JSON path from its keys and indices; unusual keys are quoted.

    >>> json_path(["turns", 3, "programs", "2"])
    '$.turns[3].programs.2'
    >>> json_path(["recorded", "scores", "Ada Lovelace"])
    "$.recorded.scores['Ada Lovelace']"
    >>> print(json_path(["players", "Ada\\nLovelace"]))
    $.players['Ada\\nLovelace']
    """
    path = "$"
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        elif _PLAIN_KEY.fullmatch(part):
            path += f".{part}"
        else:
            quoted = part.replace("\\", "\\\\").replace("'", "\\'")
            # Control characters escaped, so that the message stays on one line.
            quoted = "".join(c if c.isprintable() else repr(c)[1:-1] for c in quoted)
            path += f"['{quoted}']"
    return path


_ROBOT_KEYED: Final = frozenset({"programs", "robots", "assemblies", "shares"})


def facts_at(data: Any, parts: Sequence[str | int]) -> tuple[int | None, int | None]:
    """The turn and the robot that a JSON path in a log concerns, where it names them.

    The turn is the ``turn`` number of the enclosing turn (when it is an
    integer); the robot is the key under ``programs``, ``robots``,
    ``assemblies`` or ``shares``, or the defender of a defence steal.

    >>> data = {"turns": [{"turn": 4, "programs": {"5": "trap 9"}}]}
    >>> facts_at(data, ["turns", 0, "programs", "5"])
    (4, 5)
    """
    turn: int | None = None
    if len(parts) >= 2 and parts[0] == "turns" and isinstance(parts[1], int):
        record = _get(data, parts[:2])
        number = record.get("turn") if isinstance(record, dict) else None
        turn = number if type(number) is int else None
    robot: int | None = None
    for i in range(1, len(parts)):
        before, part = parts[i - 1], parts[i]
        if before in _ROBOT_KEYED and isinstance(part, str) and part in _ROBOT_KEY_NAMES:
            robot = int(part)
        elif before == "defence_steals" and isinstance(part, int):
            steal = _get(data, parts[: i + 1])
            defender = steal.get("defender") if isinstance(steal, dict) else None
            robot = defender if type(defender) is int and defender in ROBOT_NUMBERS else None
    return turn, robot


_ROBOT_KEY_NAMES: Final = frozenset(str(n) for n in ROBOT_NUMBERS)


def _get(data: Any, parts: Sequence[str | int]) -> Any:
    for part in parts:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _log_error(
    source: str, data: Any, parts: Sequence[str | int], reason: str, clause: str | None = None
) -> LogError:
    turn, robot = facts_at(data, parts)
    return LogError(source, json_path(parts), reason, turn=turn, robot=robot, clause=clause)


# --- reading ---------------------------------------------------------------------------------


@cache
def _schema_validator() -> Any:
    """The schema's validator, built once: a replay of many logs validates each with it."""
    import jsonschema  # imported here: it is slow to import and only reading needs it
    from jsonschema import _keywords

    extend: Any = jsonschema.validators.extend
    unordered: Any = _keywords.additionalProperties
    find_additional: Any = jsonschema._utils.find_additional_properties

    def prefix(instance: Any, schema: Any) -> Any:
        # A container past its size limit already has an error: only its first entries are
        # looked at for one that comes earlier, so a huge container costs no more than that.
        if isinstance(instance, list) and len(instance) > schema.get("maxItems", len(instance)):
            return instance[: schema["maxItems"] + 1]
        limit = schema.get("maxProperties", len(instance)) if isinstance(instance, dict) else 0
        if isinstance(instance, dict) and len(instance) > limit:
            return dict(itertools.islice(instance.items(), limit + 1))
        return instance

    def capped(keyword: Any) -> Any:
        def check(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
            yield from keyword(validator, value, prefix(instance, schema), schema)

        return check

    def ordered_additional_properties(
        validator: Any, extra_schema: Any, instance: Any, schema: Any
    ) -> Iterator[Any]:
        # jsonschema visits the extra keys of an object in set order; the reader stops after
        # a few errors, so visit them in document order.
        instance = prefix(instance, schema)
        if validator.is_type(instance, "object") and validator.is_type(extra_schema, "object"):
            for extra in find_additional(instance, schema):
                yield from validator.descend(instance[extra], extra_schema, path=extra)
        else:
            yield from unordered(validator, extra_schema, instance, schema)

    def too_many(kind: str) -> Any:
        # jsonschema's own message repeats the whole container (its repr): say how many.
        def check(validator: Any, limit: Any, instance: Any, schema: Any) -> Iterator[Any]:
            if validator.is_type(instance, kind) and len(instance) > limit:
                yield jsonschema.ValidationError(f"{len(instance)} entries; at most {limit}")

        return check

    validator = extend(
        jsonschema.Draft202012Validator,
        {
            "maxItems": too_many("array"),
            "maxProperties": too_many("object"),
            "additionalProperties": ordered_additional_properties,
            "items": capped(_keywords.items),
            "propertyNames": capped(_keywords.propertyNames),
        },
    )
    return validator(log_schema())


@cache
def log_schema() -> dict[str, Any]:
    """The JSON Schema of the log format (``spec/log.schema.json``).

    >>> log_schema()["properties"]["format"]["const"]
    'outofgears-log/1'
    """
    text = resources.files("outofgears").joinpath("_spec/log.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


class _Duplicated(dict[str, Any]):
    """An object in which a key appears twice (the reader refuses it, with its path)."""

    duplicate: str = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen = dict(pairs)
    if len(seen) == len(pairs):
        return seen
    keys: set[str] = set()
    for key, _ in pairs:
        if key in keys:
            marked = _Duplicated(pairs)
            marked.duplicate = key
            return marked
        keys.add(key)
    return seen  # pragma: no cover - a shorter dict has a repeated key


#: A JSON string, to blank out before the brackets are counted.
_JSON_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"')
#: Brackets as parentheses, everything else deleted (``bytes.translate``).
_AS_PARENTHESES: Final = bytes.maketrans(b"[{]}", b"(())")
_NOT_A_BRACKET: Final = bytes(set(range(256)) - set(b"[]{}"))


def _nesting_reaches(text: str, levels: int) -> bool:
    """Whether the containers of a JSON text nest ``levels`` deep, in C speed: each pass
    deletes the innermost pairs of brackets.

    >>> _nesting_reaches('{"a": [1, {"b": "[[["}]}', 3), _nesting_reaches('[[], []]', 3)
    (True, False)
    """
    brackets = (
        _JSON_STRING.sub("", text)
        .encode("utf-8", "surrogatepass")
        .translate(_AS_PARENTHESES, _NOT_A_BRACKET)
    )
    for _ in range(levels - 1):
        if not brackets:
            return False
        brackets = brackets.replace(b"()", b"")
    return bool(brackets)


def _not_a_number(text: str) -> Any:
    raise ValueError(f"{text} is not a JSON number")


def _first_problem(data: Any) -> tuple[list[str | int], str] | None:
    """The first duplicated key or too deep value, in document order.

    A walk with one iterator per open container: memory in the depth, not the size.
    """

    def problem(value: Any, parts: list[str | int]) -> tuple[list[str | int], str] | None:
        if len(parts) >= MAX_DEPTH:
            return parts, f"the JSON nests deeper than {MAX_DEPTH} levels"
        if isinstance(value, _Duplicated):
            return [*parts, value.duplicate], (
                f"the key {value.duplicate!r} appears twice in one object"
            )
        return None

    def children(value: Any) -> Iterator[tuple[str | int, Any]]:
        return iter(value.items()) if isinstance(value, dict) else enumerate(value)

    found = problem(data, [])
    if found is not None or not isinstance(data, dict | list):
        return found
    path: list[str | int] = []
    stack = [children(data)]
    done = object()
    while stack:
        item = next(stack[-1], done)
        if item is done:
            stack.pop()
            if path:
                path.pop()
            continue
        key: str | int
        value: Any
        key, value = item  # type: ignore[misc]
        if len(path) + 1 >= MAX_DEPTH or isinstance(value, _Duplicated):
            return problem(value, [*path, key])
        if isinstance(value, dict | list) and value:
            path.append(key)
            stack.append(children(value))
    return None


def parse_log_text(text: str, source: str = "<log>") -> Any:
    """The JSON value of a log's text, or a :class:`LogError` saying what is wrong.

    Refused: more than :data:`MAX_LOG_BYTES`, an empty text, text that is not
    JSON (or ends early), ``NaN`` and ``Infinity``, a key repeated in an
    object, and nesting deeper than :data:`MAX_DEPTH`.

    >>> parse_log_text('{"a": 1, "a": 2}', "x.json")
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: x.json: $.a: the key 'a' appears twice in one object
    """
    if len(text) > MAX_LOG_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_LOG_BYTES:
        raise LogError(source, "$", f"the log is larger than the limit of {MAX_LOG_BYTES} bytes")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise LogError(source, "$", "the log is empty")
    try:
        data = json.loads(text, parse_constant=_not_a_number)
    except json.JSONDecodeError as error:
        if error.pos >= len(text.rstrip()):
            raise LogError(
                source,
                "$",
                f"not JSON: the text ends early (line {error.lineno} column {error.colno}): "
                "is the file truncated?",
            ) from None
        # json's own words may end with "at" ("Unterminated string starting at"): say it once.
        words = error.msg.removesuffix(" at")
        raise LogError(
            source, "$", f"not JSON: {words} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise LogError(source, "$", f"the JSON nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as error:
        raise LogError(source, "$", f"not JSON: {error}") from None
    # The walk that finds the first problem with its path runs only when there is one: a
    # repeated key (the reader marks the object) or nesting past the limit.
    problem = None
    bare = _JSON_STRING.sub("", text)
    # Every colon outside a string is one key of an object: fewer keys read than written
    # means a repeated key; read again, marking the objects that repeat one.
    if bare.count(":") != _JSON_STRING.sub("", json.dumps(data)).count(":"):
        data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_not_a_number)
        problem = _first_problem(data)
    elif _nesting_reaches(bare, MAX_DEPTH):
        problem = _first_problem(data)
    if problem is not None:
        parts, reason = problem
        raise _log_error(source, data, parts, reason)
    return data


_TYPE_WORDS: Final = {
    "integer": "an integer",
    "string": "a string",
    "boolean": "true or false",
    "object": "an object",
    "array": "an array",
    "number": "a number",
}


def validate_log_json(data: Any, source: str = "<log>") -> None:
    """Check a log's JSON against the schema; the first error (in document order) as a
    :class:`LogError` naming the path, and the turn and robot where the path names them.

    >>> validate_log_json({"format": "outofgears-log/1"}, "x.json")
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: x.json: $.players: the required key 'players' is missing
    """
    found = _pick_schema_error(_schema_validator().iter_errors(data), data)
    if found is not None:
        parts, reason = found
        raise _log_error(source, data, parts, reason)


#: How many schema errors the reader looks at before it reports the first of them in document
#: order: a log with more errors is reported by the first of these (issue 14: a rejected log
#: costs time and memory bounded by this, not by its number of errors).
MAX_SCHEMA_ERRORS: Final = 64


def _pick_schema_error(errors: Iterable[Any], data: Any) -> tuple[list[str | int], str] | None:
    # Document order; what a value holds comes before the value as a whole (as in cattrs,
    # which structures the items of a list before the log classes check its length). The
    # errors are taken one at a time and only the first in document order is kept, so a log
    # with many errors costs memory for one and time linear in their number.
    positions: dict[int, dict[Any, int]] = {}
    best: tuple[list[str | int], str] | None = None
    best_key: tuple[int, ...] = ()
    for count, error in enumerate(errors):
        if count == MAX_SCHEMA_ERRORS:
            break  # the reader stops early: the first errors found are enough to report one
        described = _describe_schema_error(error, data)
        key = (*_document_order(data, described[0], positions), sys.maxsize)
        if best is None or key < best_key:
            best, best_key = described, key
    return best


def _document_order(
    data: Any, parts: Sequence[str | int], positions: dict[int, dict[Any, int]]
) -> tuple[int, ...]:
    order: list[int] = []
    for part in parts:
        if isinstance(data, dict):
            keys = positions.get(id(data))
            if keys is None:
                keys = positions[id(data)] = {key: index for index, key in enumerate(data)}
            order.append(keys.get(part, len(keys)))
            data = data.get(part) if isinstance(part, str) else None
        elif isinstance(data, list) and isinstance(part, int):
            order.append(part)
            data = data[part] if part < len(data) else None
        else:
            order.append(0)
            data = None
    return tuple(order)


def _describe_schema_error(error: Any, data: Any) -> tuple[list[str | int], str]:
    parts: list[str | int] = list(error.absolute_path)
    instance = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    kind = error.validator
    if kind == "oneOf" and parts == ["start"]:
        return _start_error(error, data)
    if "propertyNames" in list(error.absolute_schema_path):
        parts.append(str(instance))
        if kind == "enum" and "red" in error.validator_value:
            return parts, gear_refusal(instance)
        if kind == "enum":
            return parts, f"{show(instance)} is not a robot number: keys here are '1' to '8'"
        return parts, f"a player's name is 1 to {MAX_NAME} characters, not {len(str(instance))}"
    if kind == "required":
        missing = sorted(key for key in error.validator_value if key not in instance)[0]
        return [*parts, missing], f"the required key {missing!r} is missing"
    if kind == "additionalProperties":
        known = list(schema.get("properties", {}))
        extra = next(key for key in instance if key not in known)
        return [*parts, extra], unknown_key(extra, known)
    if kind == "type":
        kinds = (
            error.validator_value
            if isinstance(error.validator_value, list)
            else [error.validator_value]
        )
        words = " or ".join(_TYPE_WORDS.get(str(k), str(k)) for k in kinds)
        return parts, f"expected {words}, got {show(instance)}"
    if kind == "const":
        return parts, f"this reader reads format {LOG_FORMAT!r}, not {show(instance)}"
    if kind == "enum":
        allowed = ", ".join(str(item) for item in error.validator_value)
        if "red" in error.validator_value:
            return parts, gear_refusal(instance)
        if "super trap" in error.validator_value:
            return parts, f"{show(instance)} is not an upgrade card: one of {allowed}"
        return parts, f"{show(instance)} is not one of {allowed}"
    if kind in ("minimum", "maximum"):
        low, high = schema.get("minimum"), schema.get("maximum")
        return parts, f"{schema.get('title', 'the value')} is {low} to {high}, not {instance}"
    if kind == "pattern":
        if "dump" in str(error.validator_value):
            return parts, f"{show(instance)} is not a place: write 'dump 4' or 'robot 3 feet'"
        return parts, program_refusal(instance)
    if kind in ("minProperties", "maxProperties") and parts == ["players"]:
        return parts, f"a game has 2 to 8 players, not {len(instance)}"
    if kind in ("minItems", "maxItems") and len(parts) == 2 and parts[0] == "players":
        return parts, f"a player controls one robot or two, not {show(instance)}"
    if kind in ("minItems", "maxItems"):
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        return parts, f"{_count(len(instance), 'item')}; {low} to {high} are allowed"
    if kind == "uniqueItems":
        twice = next(item for i, item in enumerate(instance) if item in instance[:i])
        return [*parts, instance.index(twice, instance.index(twice) + 1)], (
            f"robot {show(twice)} is listed twice"
        )
    if kind == "maxLength":
        return parts, f"at most {error.validator_value} characters, not {len(instance)}"
    message = str(error.message)
    return parts, message if len(message) <= 300 else message[:300] + "..."


def _start_error(error: Any, data: Any) -> tuple[list[str | int], str]:
    start = error.instance
    keys = set(start) & {"seed", "position"} if isinstance(start, dict) else set()
    if not keys and isinstance(start, dict) and start:
        extra = next(iter(start))
        return ["start", extra], unknown_key(extra, ["seed", "position"])
    if len(keys) != 1:
        return ["start"], START_SHAPE
    branch = 0 if keys == {"seed"} else 1
    inner = [e for e in error.context if e.schema_path and e.schema_path[0] == branch]
    found = _pick_schema_error(inner, data)
    return found if found is not None else (["start"], str(error.message))


def structure_log(data: Any, source: str = "<log>") -> GameLog:
    """The :class:`GameLog` of log JSON, structured strictly by cattrs.

    It does not need the schema: wrong types, unknown or missing keys and
    values out of range are refused here too, with their JSON path.

    >>> structure_log({"format": "outofgears-log/1", "players": {"A": [1], "B": ["2"]},
    ...                "start": {"seed": 1}, "turns": []}, "x.json")
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: x.json: $.players.B[0]: expected an integer, got "2"
    """
    try:
        log: GameLog = LOG_CONVERTER.structure(data, GameLog)
    except Exception as error:
        parts, reason = cattrs_failure(error)
        raise _log_error(source, data, parts, reason) from None
    return log


def cattrs_failure(error: BaseException) -> tuple[list[str | int], str]:
    """The path and reason of the first failure in a cattrs error tree of the log converter."""
    parts: list[str | int] = []
    while isinstance(error, ClassValidationError | IterableValidationError):
        inner = error.exceptions[0]
        for note in getattr(inner, "__notes__", ()):
            if isinstance(note, AttributeValidationNote):
                parts.append(_json_name(error.cl, note.name))
                break
            if isinstance(note, IterableValidationNote):
                parts.append(note.index)
                break
        error = inner
    if isinstance(error, ForbiddenExtraKeysError):
        extra = sorted(error.extra_fields)[0]
        return [*parts, extra], f"unknown key {extra!r}"
    if isinstance(error, LogFieldError):
        return [*parts, *error.where], error.reason
    if isinstance(error, KeyError):
        return parts, "a required key is missing"
    if isinstance(error, InvalidStateError | ValueError | TypeError):
        return parts, str(error)
    return parts, f"cannot be read: {type(error).__name__}: {error}"


def read_log_text(text: str, source: str = "<log>") -> GameLog:
    """Parse, validate and structure a log from its text.

    >>> log = read_log_text('{"format": "outofgears-log/1", "players": {"A": [1], "B": [2]},'
    ...                     ' "start": {"seed": 7}, "turns": []}')
    >>> log.players, log.start.seed
    ({'A': (1,), 'B': (2,)}, 7)
    """
    data = parse_log_text(text, source)
    try:
        return structure_log(data, source)
    except LogError:
        # The schema and the model refuse the same logs (tests/test_schema_agreement.py);
        # where both do, the schema's error is the one reported. The schema is checked only
        # here, on a log the model refused: validating every good log cost two thirds of a
        # replay (docs/performance.md).
        validate_log_json(data, source)
        raise


def read_log_bytes(raw: bytes, source: str = "<log>") -> GameLog:
    """Read a log from its bytes, which must be UTF-8 (a byte-order mark is allowed).

    >>> read_log_bytes(b"\\xff\\xfe{}", "x.json")
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: x.json: $: the log is not UTF-8 text (byte 0xff at offset 0)
    """
    if len(raw) > MAX_LOG_BYTES:
        raise LogError(source, "$", f"the log is larger than the limit of {MAX_LOG_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = raw[error.start : error.start + 1].hex()
        raise LogError(
            source, "$", f"the log is not UTF-8 text (byte 0x{bad} at offset {error.start})"
        ) from None
    return read_log_text(text, source)


def read_log(path: Path | str) -> GameLog:
    """Read a log file (``"-"`` reads standard input); a :class:`LogError` if it is not valid.

    At most :data:`MAX_LOG_BYTES` are read, from a file or from standard input.
    """
    name = str(path)
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is not None:
            return read_log_bytes(stream.read(MAX_LOG_BYTES + 1), "<stdin>")
        text = sys.stdin.read(MAX_LOG_BYTES + 1)
        return read_log_text(text, "<stdin>")
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_LOG_BYTES:
            raise LogError(
                name,
                "$",
                f"the log is larger than the limit of {MAX_LOG_BYTES} bytes ({size} bytes)",
            )
        with file.open("rb") as stream:
            raw = stream.read(MAX_LOG_BYTES + 1)
    except LogError:
        raise
    except OSError as error:
        raise LogError(name, "$", f"cannot read the file: {error.strerror or error}") from None
    except ValueError as error:  # a path holding a NUL character
        raise LogError(name, "$", f"cannot read the file: {error}") from None
    return read_log_bytes(raw, name)


# --- writing ---------------------------------------------------------------------------------


def log_to_json(log: GameLog) -> dict[str, Any]:
    """A log as JSON-ready data (defaults left out, but ``format`` and ``turns`` always in).

    >>> data = log_to_json(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=3)))
    >>> data["format"], data["start"], data["turns"]
    ('outofgears-log/1', {'seed': 3}, [])
    """
    data: dict[str, Any] = LOG_CONVERTER.unstructure(log)
    data.pop("format", None)
    data.setdefault("turns", [])
    return {"format": log.format, **data}


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
      },
      "turns": []
    }
    """
    return format_json(log_to_json(log)) + "\n"


def format_json(value: Any, indent: int = 0) -> str:
    """JSON text that keeps lists of plain values on one line, the way a table reads gears.

    >>> print(format_json({"feet": ["red", "red"]}))
    {
      "feet": ["red", "red"]
    }
    """
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
    """A turn record for a turn played by the engine (used by ``simulate`` and ``new``).

    >>> turn_record_from(1, {1: Program.parse("trap 2")}).programs
    {1: Program(action=<Action.TRAP: 'trap'>, number=2)}
    """
    return TurnRecord(turn=turn, programs=dict(programs), recorded=recorded)


__all__ = [
    "GEAR_NAMES",
    "LOG_CONVERTER",
    "LOG_FORMAT",
    "MAX_DEPTH",
    "MAX_LOG_BYTES",
    "ChoicesRecord",
    "DrawnGear",
    "GameLog",
    "LogError",
    "LogFieldError",
    "PositionRecord",
    "Recorded",
    "ReserveRecord",
    "RobotGears",
    "SplitRecord",
    "Start",
    "StealRecord",
    "TurnRecord",
    "WrittenBy",
    "dump_log",
    "facts_at",
    "json_path",
    "log_schema",
    "log_to_json",
    "parse_log_text",
    "read_log",
    "read_log_bytes",
    "read_log_text",
    "structure_log",
    "validate_log_json",
]
