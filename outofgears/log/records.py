"""The log format, declared once: the classes of a log, their types and their limits.

Each field's type says what JSON holds there, and :class:`Range`, :class:`Length`,
:class:`Size` and :class:`OneOf` (in ``Annotated``) say its limits. That declaration is
read twice and written nowhere else: :func:`check_declared` checks a value against it (the
classes' validators, so that a log built in Python is held to the format as a log read
from JSON is), and :mod:`outofgears.log.schema` writes the JSON Schema from it. What a
schema cannot say (a defence steal or a split written twice, the reserve's total, a start
with both a seed and a position) is checked by the class that holds it.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from itertools import chain
from typing import Annotated, Any, Final, Literal, Union, get_args, get_origin

import attrs
from attrs import field, frozen

from outofgears._version import SPEC_VERSION, __version__
from outofgears.errors import show
from outofgears.log.errors import LogFieldError
from outofgears.rules.choices import Choices, DefenceSteal
from outofgears.rules.gears import ROBOT_NUMBERS, Gear, sort_gears
from outofgears.rules.model import MAX_NAME, GameState, Options, Place, UpgradeCard
from outofgears.rules.programs import AnyProgram, Program, UpgradeProgram
from outofgears.rules.setup import MAX_SEED

#: The format tag of the logs this package reads and writes.
LOG_FORMAT: Final = "outofgears-log/1"

#: The largest log read, in bytes (5 MB): a whole 8-robot game with choices and recorded
#: values is under 200 kB. Larger files (and standard input) are refused unread.
MAX_LOG_BYTES: Final = 5_000_000
#: The deepest JSON nesting accepted (a valid log nests at most 7 levels).
MAX_DEPTH: Final = 32
MAX_TURNS: Final = 1000
MAX_GEARS: Final = 120
MAX_VERSION: Final = 40
MAX_DESCRIPTION: Final = 2000
MAX_DECK: Final = 40
MAX_STEALS: Final = 64
MAX_SPLITS: Final = 16
MAX_SCORE: Final = 10_000

#: What a start must look like.
START_SHAPE: Final = "the start is either {'seed': N} or {'position': {...}}"


# --- the limits a type can carry ---------------------------------------------------------------


@frozen
class Range:
    """An integer from ``low`` to ``high``; ``title`` names it in messages."""

    low: int
    high: int
    title: str


@frozen
class Length:
    """A string of ``low`` to ``high`` characters; ``title`` names it in messages."""

    low: int
    high: int
    title: str = "a string"


@frozen
class Size:
    """How many items a list (or entries an object) holds, and whether they are distinct.

    ``message`` is what a wrong size is called, when a table has a word for it.
    """

    low: int
    high: int
    noun: str = "items"
    unique: bool = False
    message: str | None = None


@frozen
class OneOf:
    """One of a fixed set of values (JSON strings); ``rule`` says which, in a table's words."""

    values: tuple[str, ...]
    rule: str


@frozen
class Says:
    """What a value must be, in a table's words, for the message that refuses another."""

    rule: str


# --- the types of a log -------------------------------------------------------------------------

RobotNumber = Annotated[int, Range(1, 8, "a robot number")]
TurnNumber = Annotated[int, Range(1, MAX_TURNS, "a turn number")]
Seed = Annotated[int, Range(0, MAX_SEED, "a seed")]
Score = Annotated[int, Range(0, MAX_SCORE, "a score")]
GearCount = Annotated[int, Range(0, MAX_GEARS, "a count of gears")]
PlayerName = Annotated[str, Length(1, MAX_NAME, "a player's name")]
VersionText = Annotated[str, Length(0, MAX_VERSION)]
DescriptionText = Annotated[str, Length(0, MAX_DESCRIPTION)]
Gears = Annotated[tuple[Gear, ...], Size(0, MAX_GEARS, "gears")]
#: The places a split shares: a dump or a robot's feet (SPL-1).
SplitPlace = Annotated[
    Place,
    OneOf(
        tuple(str(p) for n in ROBOT_NUMBERS for p in (Place.dump(n), Place.feet(n))),
        "a split is of a dump or a robot's feet ('dump 4', 'robot 3 feet')",
    ),
]
#: The face-down reserve of a position: its gears in draw order (a list in JSON), or, as a
#: table knows it, how many of each gear it holds with the order unknown (an object).
ReserveRecord = Gears | dict[Gear, GearCount]
#: What exploration turned up onto a dump: a gear, or ``None`` (JSON ``null``) when the
#: reserve had run out (EXP-1).
DrawnGear = Gear | None


def json_name(attribute: attrs.Attribute[Any]) -> str:
    """The JSON key of a log class's attribute (``StealRecord.source`` is ``"from"``)."""
    name: str = attribute.metadata.get("json", attribute.name)
    return name


#: The metadata of an attribute that Python callers may leave out but JSON must hold.
REQUIRED_KEY: Final = {"required": True}


def _declared(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    """The validator of every attribute of a log class: its value against its declared type,
    by the check compiled for it once, when the classes were declared (:data:`_CHECKS`)."""
    _CHECKS[type(instance)][attribute.name](value)


def optional_of(kind: Any) -> Any:
    """``X`` of an attribute typed ``X | None`` whose key may be left out."""
    options = [option for option in get_args(kind) if option is not type(None)]
    return options[0] if len(options) == 1 else Union[tuple(options)]  # noqa: UP007


# --- checking a value against its type ----------------------------------------------------------

#: A declared type's check, compiled once: a value and where it stands in, a
#: :class:`LogFieldError` naming where out if the value does not fit.
Check = Callable[[Any, tuple[str | int, ...]], None]


def limits_of(kind: Any) -> tuple[Any, tuple[Any, ...]]:
    """A declared type's base type and its limits (``Annotated[int, Range(...)]``)."""
    if get_origin(kind) is Annotated:
        base, *limits = get_args(kind)
        return base, tuple(limits)
    return kind, ()


def is_union(kind: Any) -> bool:
    """Whether a declared type is a union (``X | Y``); a program is one kind of value."""
    return get_origin(kind) in (Union, types.UnionType) and kind is not AnyProgram


def check_declared(value: Any, kind: Any, *where: str | int) -> None:
    """Check ``value`` against a declared type; a :class:`LogFieldError` naming where if not.

    The classes of a log do not call this: their checks are compiled once
    (:func:`compile_check`).

    >>> check_declared(9, RobotNumber, "defender")
    Traceback (most recent call last):
    ...
    outofgears.log.LogFieldError: defender: a robot number is 1 to 8, not 9
    """
    compile_check(kind)(value, where)


def compile_check(kind: Any) -> Check:
    """The check of a declared type, its type read once here rather than at every value.

    >>> check = compile_check(Gears)
    >>> check((Gear(1),), ("feet",)) is None
    True
    >>> check([Gear(1)], ("feet",))
    Traceback (most recent call last):
    ...
    outofgears.log.LogFieldError: feet: expected a list, got [Gear(1)]
    """
    base, limits = limits_of(kind)
    if is_union(base):
        return _union_check(base)
    if base is int:
        return _int_check(limits)
    if base is str:
        return _str_check(limits)
    if base is bool:
        return _bool_check
    if get_origin(base) is Literal:
        return _literal_check(base, limits)
    if get_origin(base) is tuple:
        return _items_check(base, limits)
    if get_origin(base) is dict:
        return _entries_check(base, limits)
    return _instance_check(base, limits)


def _bool_check(value: Any, where: tuple[str | int, ...]) -> None:
    if type(value) is not bool:
        raise LogFieldError(f"expected true or false, got {show(value)}", *where)


def _literal_check(kind: Any, limits: tuple[Any, ...]) -> Check:
    allowed = get_args(kind)
    rule = next((limit.rule for limit in limits if isinstance(limit, Says)), None)
    refusal = rule or "expected " + " or ".join(repr(a) for a in allowed)

    def check(value: Any, where: tuple[str | int, ...]) -> None:
        if value not in allowed or type(value) is not str:
            raise LogFieldError(f"{refusal}, not {show(value)}", *where)

    return check


def _union_check(kind: Any) -> Check:
    options = get_args(kind)
    takes_none = type(None) in options
    checks = [
        (get_origin(base) or base, compile_check(option))
        for option in options
        for base in (limits_of(option)[0],)
    ]
    expected = _words(kind)

    def check(value: Any, where: tuple[str | int, ...]) -> None:
        if value is None and takes_none:
            return
        for cls, check_option in checks:
            if isinstance(value, cls):
                check_option(value, where)
                return
        raise LogFieldError(f"expected {expected}, got {value!r}", *where)

    return check


def _words(kind: Any) -> str:
    base, _ = limits_of(kind)
    if is_union(base):
        return " or ".join(_words(option) for option in get_args(base))
    return _NOUNS.get(get_origin(base) or base, "a value")


_NOUNS: Final[dict[Any, str]] = {
    tuple: "a list",
    dict: "an object",
    Gear: "a gear",
    type(None): "nothing",
}


def _int_check(limits: tuple[Any, ...]) -> Check:
    def check(value: Any, where: tuple[str | int, ...]) -> None:
        for limit in limits:
            if type(value) is not int:
                raise LogFieldError(f"{limit.title} is an integer, not {show(value)}", *where)
            if not limit.low <= value <= limit.high:
                raise LogFieldError(
                    f"{limit.title} is {limit.low} to {limit.high}, not {value}", *where
                )
        if type(value) is not int:
            raise LogFieldError(f"expected an integer, got {show(value)}", *where)

    return check


def _str_check(limits: tuple[Any, ...]) -> Check:
    def check(value: Any, where: tuple[str | int, ...]) -> None:
        for limit in limits:
            if type(value) is not str:
                raise LogFieldError(f"{limit.title} is a string, not {show(value)}", *where)
            if not limit.low <= len(value) <= limit.high:
                if limit.low == 0:
                    raise LogFieldError(
                        f"at most {limit.high} characters, not {len(value)}", *where
                    )
                raise LogFieldError(
                    f"{limit.title} is {limit.low} to {limit.high} characters, not {len(value)}",
                    *where,
                )
        if type(value) is not str:
            raise LogFieldError(f"expected a string, got {show(value)}", *where)

    return check


def check_size(count: int, limits: tuple[Any, ...], where: tuple[str | int, ...]) -> None:
    """Refuse a list or an object of ``count`` items that its :class:`Size` limits do not allow."""
    for limit in limits:
        if isinstance(limit, Size) and not limit.low <= count <= limit.high:
            if limit.message is not None:
                raise LogFieldError(f"{limit.message}, not {count}", *where)
            if limit.low == 0:
                raise LogFieldError(f"at most {limit.high} {limit.noun}, not {count}", *where)
            raise LogFieldError(
                f"{limit.low} to {limit.high} {limit.noun} are allowed, not {count}", *where
            )


def _sizes(limits: tuple[Any, ...]) -> tuple[Size, ...]:
    return tuple(limit for limit in limits if isinstance(limit, Size))


def _items_check(kind: Any, limits: tuple[Any, ...]) -> Check:
    (item_kind, _) = get_args(kind)
    check_item = compile_check(item_kind)
    sizes = _sizes(limits)
    unique = next((limit for limit in sizes if limit.unique), None)
    noun = unique.noun.removesuffix("s") if unique is not None else ""

    def check(value: Any, where: tuple[str | int, ...]) -> None:
        if not isinstance(value, tuple):
            raise LogFieldError(f"expected a list, got {value!r}", *where)
        for index, item in enumerate(value):
            check_item(item, (*where, index))
            if unique is not None and item in value[:index]:
                raise LogFieldError(f"{noun} {show(item)} is listed twice", *where, index)
        check_size(len(value), sizes, where)

    return check


def _entries_check(kind: Any, limits: tuple[Any, ...]) -> Check:
    key_kind, item_kind = get_args(kind)
    check_key = _key_check(key_kind)
    check_item = compile_check(item_kind)
    sizes = _sizes(limits)

    def check(value: Any, where: tuple[str | int, ...]) -> None:
        if not isinstance(value, dict):
            raise LogFieldError(f"expected an object, got {value!r}", *where)
        for key, item in value.items():
            check_key(key, where)
            check_item(item, (*where, str(key)))
        check_size(len(value), sizes, where)

    return check


def _robot_key_check(key: Any, where: tuple[str | int, ...]) -> None:
    # Keys that are numbers are robot numbers (and dump numbers): "1" to "8" in JSON.
    if type(key) is not int or key not in ROBOT_NUMBERS:
        raise LogFieldError(f"keys here are robot numbers 1 to 8, not {key!r}", *where)


def _gear_key_check(key: Any, where: tuple[str | int, ...]) -> None:
    if not isinstance(key, Gear):
        raise LogFieldError(f"expected a gear, got {key!r}", *where)


def _key_check(kind: Any) -> Check:
    base, _ = limits_of(kind)
    if base is int:
        return _robot_key_check
    if base is Gear:
        return _gear_key_check
    check_key = compile_check(kind)

    def check(key: Any, where: tuple[str | int, ...]) -> None:
        check_key(key, (*where, str(key)))

    return check


def _instance_check(kind: Any, limits: tuple[Any, ...]) -> Check:
    expected = Program | UpgradeProgram if kind is AnyProgram else kind
    noun = _CLASS_NOUNS.get(kind) or f"a {getattr(kind, '__name__', kind)}"
    one_of = tuple(limit for limit in limits if isinstance(limit, OneOf))

    def check(value: Any, where: tuple[str | int, ...]) -> None:
        if not isinstance(value, expected):
            raise LogFieldError(f"expected {noun}, got {value!r}", *where)
        for limit in one_of:
            if str(value) not in limit.values:
                raise LogFieldError(f"{limit.rule}, not {value}", *where)

    return check


_CLASS_NOUNS: Final[dict[Any, str]] = {
    Gear: "a gear",
    AnyProgram: "a program",
    UpgradeCard: "an upgrade card",
    Options: "the rule options",
    Place: "a place",
}


def _attribute_check(attribute: attrs.Attribute[Any]) -> Callable[[Any], None]:
    """The compiled check of a log class's attribute: a key that may be left out takes
    ``None``; a problem is reported under the attribute's JSON key."""
    kind = attribute.type
    optional = attribute.default is None and is_union(kind)
    check = compile_check(optional_of(kind) if optional else kind)
    where = (json_name(attribute),)

    def check_attribute(value: Any) -> None:
        if value is None and optional:
            return  # an optional key left out
        check(value, where)

    return check_attribute


# --- the classes of a log -----------------------------------------------------------------------


@frozen
class RobotGears:
    """A robot's feet and circuit as written in a log; ``None`` where not given.

    Attributes:
        feet: The gears at the robot's feet, or ``None`` where not given.
        circuit: The gears in its circuit, or ``None`` where not given.
    """

    feet: Gears | None = field(validator=_declared, default=None)
    circuit: Gears | None = field(validator=_declared, default=None)


def _reserve_total(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, dict) and sum(value.values()) > MAX_GEARS:
        raise LogFieldError(f"at most {MAX_GEARS} gears, not {sum(value.values())}", "reserve")


@frozen
class PositionRecord:
    """A position entered by hand: the start of a game that begins mid-way.

    ``reserve`` is the face-down pile in draw order, or, as a table knows it, a count of
    each gear in it (``{Gear(1): 3}``) with the order unknown: then every turn says what
    was drawn (:attr:`TurnRecord.drawn`).

    Attributes:
        robots: ``robot -> RobotGears`` for every robot in play.
        dumps: ``dump -> gears`` for every dump in play.
        reserve: The reserve in draw order (a tuple of gears), or ``gear -> count``.
        turn: The number of the next turn (1 when left out).
        upgrades: ``player -> card``: the upgrade cards still held (the Robot Upgrades
            expansion).
    """

    robots: dict[int, RobotGears] = field(validator=_declared)
    dumps: dict[int, Gears] = field(validator=_declared)
    reserve: ReserveRecord = field(
        validator=[_declared, _reserve_total],
        metadata={
            "doc": "The face-down reserve: its gears in draw order (an array), or, as a table "
            "knows it, how many of each gear it holds with the order unknown (an object of "
            "gear name to count, at most 120 in all; every turn then says what was drawn)."
        },
    )
    turn: TurnNumber = field(validator=_declared, default=1)
    upgrades: dict[PlayerName, UpgradeCard] = field(validator=_declared, factory=dict)

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

        >>> from outofgears.rules.setup import setup_game
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
    """How the game started: exactly one of a seed and a position.

    Attributes:
        seed: The seed that set the game up (:func:`~outofgears.rules.setup.setup_game`),
            or ``None``.
        position: The position typed in (:class:`PositionRecord`), or ``None``.
    """

    #: The attributes of which a start holds exactly one.
    ONE_OF = ("seed", "position")

    seed: Seed | None = field(validator=_declared, default=None)
    position: PositionRecord | None = field(validator=_declared, default=None)

    def __attrs_post_init__(self) -> None:
        if (self.seed is None) == (self.position is None):
            raise LogFieldError(START_SHAPE)


@frozen
class StealRecord:
    """A defender's chosen gear (spec ATK-4); ``source`` is written ``"from"`` in JSON.

    Attributes:
        defender: The defending robot.
        attacker: The robot it takes a gear from.
        source: ``"feet"`` or ``"circuit"`` of the attacker (JSON key ``"from"``).
        gear: The gear taken.
    """

    defender: RobotNumber = field(validator=_declared)
    attacker: RobotNumber = field(validator=_declared)
    source: Annotated[
        Literal["feet", "circuit"], Says("a defender takes from 'feet' or 'circuit'")
    ] = field(validator=_declared, metadata={"json": "from"})
    gear: Gear = field(validator=_declared)


@frozen
class SplitRecord:
    """A split the table agreed on (spec SPL-5).

    Attributes:
        place: The place split: a dump or a robot's feet.
        shares: ``robot -> gears``: what each taker got.
    """

    place: SplitPlace = field(validator=_declared)
    shares: dict[int, Gears] = field(validator=_declared)


def _distinct_steals(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    seen: set[tuple[int, int]] = set()
    for index, steal in enumerate(value):
        pair = (steal.defender, steal.attacker)
        if pair in seen:
            raise LogFieldError(
                f"robot {steal.defender} takes one gear from robot {steal.attacker}; "
                "this steal is written twice",
                attribute.name,
                index,
            )
        seen.add(pair)


def _distinct_splits(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    seen: set[Place] = set()
    for index, split in enumerate(value):
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

    Attributes:
        defence_steals: The defence steals chosen (:class:`StealRecord`), at most one per
            defender and attacker.
        assemblies: ``robot -> gears``: the two gears a robot assembled, or ``()`` where it
            declined (optional assembly).
        splits: The splits agreed on (:class:`SplitRecord`), at most one per place.
    """

    defence_steals: Annotated[tuple[StealRecord, ...], Size(0, MAX_STEALS, "defence steals")] = (
        field(default=(), validator=[_declared, _distinct_steals])
    )
    assemblies: dict[int, Gears] = field(validator=_declared, factory=dict)
    splits: Annotated[tuple[SplitRecord, ...], Size(0, MAX_SPLITS, "splits")] = field(
        default=(), validator=[_declared, _distinct_splits]
    )

    @classmethod
    def of(cls, choices: Choices) -> ChoicesRecord:
        """The record of the engine's :class:`~outofgears.rules.choices.Choices`, as a log writes it.

        >>> from outofgears.rules.gears import gears
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
        """The engine's :class:`~outofgears.rules.choices.Choices`."""
        return Choices(
            defence_steals={
                (s.defender, s.attacker): DefenceSteal(s.source, s.gear)
                for s in self.defence_steals
            },
            assemblies=self.assemblies,
            splits={split.place: split.shares for split in self.splits},
        )


@frozen
class Recorded:
    """What the players wrote down after a turn: any subset of these.

    Attributes:
        robots: ``robot -> RobotGears``: feet and circuits written down.
        dumps: ``dump -> gears`` written down.
        scores: ``player -> points`` written down.
    """

    robots: dict[int, RobotGears] = field(validator=_declared, factory=dict)
    dumps: dict[int, Gears] = field(validator=_declared, factory=dict)
    scores: dict[PlayerName, Score] = field(validator=_declared, factory=dict)


#: Which position a game goes on from after a turn that departs from the rules (SET-8).
Follows = Annotated[Literal["rules", "table"], Says("a turn follows 'rules' or 'table'")]


def _none_when_empty(choices: Any) -> Any:
    """No choices record for choices that decide nothing: ``{}`` and no ``choices`` are one
    thing (the default policies decide), so a log reads back as it was written."""
    return None if type(choices) is ChoicesRecord and choices == ChoicesRecord() else choices


@frozen
class TurnRecord:
    """One turn of a log.

    ``drawn`` says what exploration turned up onto each dump (dump number to gear, or
    ``None`` for a dump the emptied reserve left without one): required on every turn
    while the reserve is not empty when the log gives the reserve as counts, and checked
    like a recorded value otherwise.

    Attributes:
        turn: The turn's number.
        programs: ``robot -> program`` for every robot in play.
        choices: The post-reveal choices (:class:`ChoicesRecord`), or ``None``: the default
            policies decide, or the replay infers them from what was recorded. A record
            that decides nothing is ``None`` too.
        recorded: What the players wrote down after the turn (:class:`Recorded`), or ``None``.
        drawn: ``dump -> gear`` turned up by exploration (see above), or ``None``.
        follows: Which position the game goes on from when the turn departs from the
            rules: ``"rules"`` (the default), the closest legal play, or ``"table"``, the
            position the players wrote down in ``recorded`` (spec SET-8). It changes nothing
            on a turn that agrees.
    """

    turn: TurnNumber = field(validator=_declared)
    programs: dict[int, AnyProgram] = field(validator=_declared)
    choices: ChoicesRecord | None = field(
        validator=_declared, default=None, converter=_none_when_empty
    )
    recorded: Recorded | None = field(validator=_declared, default=None)
    drawn: dict[int, DrawnGear] | None = field(validator=_declared, default=None)
    follows: Follows = field(
        validator=_declared,
        default="rules",
        metadata={
            "doc": "Which position the game goes on from when this turn departs from the "
            "rules: 'rules' (the default, left out of the JSON), the closest legal play; or "
            "'table', the position the players wrote down in 'recorded', each place written "
            "(a robot's feet or circuit, a dump) as written and every other place as that "
            "play leaves it (spec SET-8, ruling R-TABLE-POSITION). On a turn that agrees "
            "with the rules it changes nothing."
        },
    )


@frozen
class WrittenBy:
    """The engine and spec versions that wrote a log.

    Attributes:
        engine: The version of the engine (the package, ``outofgears.__version__``).
        spec: The version of the specification it implements (``outofgears.SPEC_VERSION``).

    >>> import outofgears
    >>> WrittenBy.current() == WrittenBy(outofgears.__version__, outofgears.SPEC_VERSION)
    True
    """

    engine: VersionText = field(validator=_declared)
    spec: VersionText = field(validator=_declared)

    @classmethod
    def current(cls) -> WrittenBy:
        """This engine and the specification it implements: what a log written now says."""
        return cls(engine=__version__, spec=SPEC_VERSION)


Players = Annotated[
    dict[
        PlayerName,
        Annotated[
            tuple[RobotNumber, ...],
            Size(1, 2, "robots", unique=True, message="a player controls one robot or two"),
        ],
    ],
    Size(2, 8, "players", message="a game has 2 to 8 players"),
]


@frozen
class GameLog:
    """A whole game log (format ``outofgears-log/1``).

    Attributes:
        players: ``name -> robots``: each player's robots (one each, or two in the variant),
            in seating order.
        start: How the game started (:class:`Start`).
        turns: The turns (:class:`TurnRecord`), in order.
        options: The rule options (:class:`~outofgears.rules.model.Options`).
        two_robot_variant: Whether the game is of the two-robot variant; ``None`` when the
            players' robots say it.
        description: Free text for people; replay ignores it.
        written_by: The engine and spec versions that wrote it (:class:`WrittenBy`), or
            ``None`` for a log typed by hand.
        format: ``"outofgears-log/1"``.
    """

    players: Players = field(validator=_declared)
    start: Start = field(validator=_declared)
    turns: Annotated[tuple[TurnRecord, ...], Size(0, MAX_TURNS, "turns")] = field(
        default=(), validator=_declared, metadata=REQUIRED_KEY
    )
    options: Options = field(validator=_declared, factory=Options)
    two_robot_variant: bool | None = field(validator=_declared, default=None)
    description: DescriptionText = field(validator=_declared, default="")
    written_by: WrittenBy | None = field(validator=_declared, default=None)
    format: Annotated[
        Literal["outofgears-log/1"], Says(f"this reader reads format {LOG_FORMAT!r}")
    ] = field(default=LOG_FORMAT, validator=_declared, metadata=REQUIRED_KEY)


#: The classes of a log, each after the classes it holds (the converter's hooks of a class
#: are made from those of what it holds).
LOG_CLASSES: Final = (
    RobotGears,
    PositionRecord,
    Start,
    StealRecord,
    SplitRecord,
    ChoicesRecord,
    Recorded,
    TurnRecord,
    WrittenBy,
    GameLog,
)


def _frozen_value(value: Any) -> Any:
    """A hashable stand-in for a log's value: a mapping as the set of its items, a record as its
    class and fields. Equal values give equal stand-ins."""
    if isinstance(value, dict):
        return frozenset((key, _frozen_value(item)) for key, item in value.items())
    if isinstance(value, tuple | list):
        return tuple(_frozen_value(item) for item in value)
    if attrs.has(type(value)):
        return (
            type(value),
            tuple(_frozen_value(getattr(value, a.name)) for a in fields_of(type(value))),
        )
    return value


def _hash_record(self: Any) -> int:
    """A log's records hold dicts (players, programs, scores) and are hashed like equal records
    compare: by value."""
    return hash(_frozen_value(self))


for _cls in LOG_CLASSES:
    attrs.resolve_types(_cls, globals(), locals())
    _cls.__hash__ = _hash_record  # type: ignore[method-assign]

#: Each log class's attribute checks, compiled from the declared types once, here (the
#: validator :func:`_declared` looks them up): reading the types at every record cost 40%
#: of ``outofgears simulate``.
_CHECKS: Final[dict[type, dict[str, Callable[[Any], None]]]] = {
    cls: {a.name: _attribute_check(a) for a in attrs.fields(cls) if a.validator is not None}
    for cls in LOG_CLASSES
}


def required_keys(cls: type) -> tuple[str, ...]:
    """The JSON keys an object of a log class must hold."""
    return tuple(
        json_name(a)
        for a in attrs.fields(cls)
        if a.default is attrs.NOTHING or a.metadata.get("required")
    )


def fields_of(cls: type) -> Iterator[attrs.Attribute[Any]]:
    """The attributes of a log class, in declaration order."""
    yield from attrs.fields(cls)
