"""What a table says when it enters a turn, read into the log's records.

``outofgears record`` asks for a turn's programs, choices and recorded values, and takes the
same answers as options. Both are read here, with the log's own grammar of programs
(:func:`~outofgears.rules.programs.parse_program`), gears (:func:`~outofgears.rules.gears.parse_gear`)
and places (:func:`~outofgears.log.wire.parse_place`). A list of gears is their names
separated by commas, ``+`` or spaces, or ``none``. Every refusal is an
:class:`~outofgears.errors.InvalidStateError` saying what is wrong and how to write it.
"""

from __future__ import annotations

import re
from typing import Final

import attrs

from outofgears.errors import InvalidStateError, show
from outofgears.log import Recorded, RobotGears, StealRecord
from outofgears.log.wire import parse_place
from outofgears.rules.gears import Gear, parse_gear
from outofgears.rules.model import Place, PlaceKind

#: How to write a list of gears, for messages.
GEARS_SHAPE: Final = "gear names separated by commas, such as 'red, yellow', or 'none'"

#: How to write a defence steal, for messages.
STEAL_SHAPE: Final = "write 'red from feet' or 'red from robot 1 circuit'"

#: How to write a split, for messages.
SPLIT_SHAPE: Final = "write each taker's share as 'robot:gears', such as '1:red+yellow, 2:blue'"

#: How to write a recorded value, for messages.
RECORDED_SHAPE: Final = (
    "write 'robot 3 feet=red,yellow', 'robot 3 circuit=none', 'dump 4=blue' or 'score Ada=12'"
)

_SEPARATORS: Final = re.compile(r"[\s,+]+")
_STEAL: Final = re.compile(r"(\S+) from (?:robot (\S+) )?(feet|circuit)")
_SHARE_START: Final = re.compile(r"(?:^|,)\s*(\S+?)\s*:")


def parse_robot(text: str, what: str = "robot") -> int:
    """A robot number 1-8 from its digits (``what="dump"`` for a dump, numbered alike).

    >>> parse_robot(" 3 ")
    3
    >>> parse_robot("9", "dump")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "9" is not a dump: dumps are numbered 1-8
    """
    word = text.strip()
    if len(word) != 1 or not "1" <= word <= "8":
        raise InvalidStateError(f"{show(word)} is not a {what}: {what}s are numbered 1-8")
    return int(word)


def parse_gear_list(text: str) -> tuple[Gear, ...]:
    """Gears from their names: ``"red, yellow"``, ``"red+yellow"``; ``"none"`` for no gear.

    >>> [str(gear) for gear in parse_gear_list("red, jolly+red")]
    ['red', 'jolly', 'red']
    >>> parse_gear_list("none")
    ()
    >>> parse_gear_list("red, yelow")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "yelow" is not a gear: a gear is one of red, orange, yellow, green, blue, purple, grey, white, jolly, 3-point
    """
    words = [word for word in _SEPARATORS.split(text.strip()) if word]
    if words == ["none"]:
        return ()
    if not words:
        raise InvalidStateError(f"no gears given: write {GEARS_SHAPE}")
    return tuple(parse_gear(word) for word in words)


def split_keyed(text: str, what: str, shape: str) -> tuple[str, str]:
    """The two sides of ``KEY=VALUE``, each stripped; the value may not hold ``=``.

    >>> split_keyed("robot 3 feet = red", "a recorded value", "")
    ('robot 3 feet', 'red')
    """
    key, equals, value = text.rpartition("=")
    if not equals or not key.strip():
        raise InvalidStateError(f"{show(text)} is not {what}: {shape}")
    return key.strip(), value.strip()


def parse_steal(text: str, defender: int, attacker: int | None = None) -> StealRecord:
    """The gear ``defender`` took in defence: ``"red from feet"`` when the attacker is known,
    else ``"red from robot 1 circuit"``.

    >>> steal = parse_steal("red from robot 1 circuit", 2)
    >>> steal.defender, steal.attacker, steal.source, str(steal.gear)
    (2, 1, 'circuit', 'red')
    >>> parse_steal("red from robot 3 feet", 2, attacker=1)
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: this question is about robot 1, not robot 3
    """
    match = _STEAL.fullmatch(" ".join(text.split()))
    if match is None:
        raise InvalidStateError(f"{show(text)} is not a defence steal: {STEAL_SHAPE}")
    gear_text, robot_text, source = match.groups()
    named = parse_robot(robot_text) if robot_text is not None else None
    if named is None and attacker is None:
        raise InvalidStateError(
            f"{show(text)} does not say which attacker: write 'red from robot 1 circuit'"
        )
    if named is not None and attacker is not None and named != attacker:
        raise InvalidStateError(f"this question is about robot {attacker}, not robot {named}")
    taken_from = named if named is not None else attacker
    assert taken_from is not None
    # _STEAL matches only "feet" or "circuit" as the source.
    return StealRecord(defender, taken_from, source, parse_gear(gear_text))  # type: ignore[arg-type]


def parse_drawn(text: str) -> Gear | None:
    """What was turned up onto a dump: a gear, or ``None`` for ``"none"`` (the reserve was
    empty).

    >>> parse_drawn("red"), parse_drawn("none")
    (Gear(1), None)
    """
    words = " ".join(text.split())
    return None if words in ("none", "nothing") else parse_gear(words)


def parse_shares(text: str) -> dict[int, tuple[Gear, ...]]:
    """Each taker's share of a split: ``"1:red+yellow, 2:blue"``; ``"3:none"`` for nothing.

    >>> shares = parse_shares("1: red, yellow, 2:blue")
    >>> {robot: [str(g) for g in gears] for robot, gears in shares.items()}
    {1: ['red', 'yellow'], 2: ['blue']}
    >>> parse_shares("1:red, 1:blue")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: robot 1's share is given twice
    """
    starts = list(_SHARE_START.finditer(text))
    if not starts or text[: starts[0].start()].strip():
        raise InvalidStateError(f"{show(text)} is not a split: {SPLIT_SHAPE}")
    shares: dict[int, tuple[Gear, ...]] = {}
    for index, start in enumerate(starts):
        robot = parse_robot(start.group(1))
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        if robot in shares:
            raise InvalidStateError(f"robot {robot}'s share is given twice")
        shares[robot] = parse_gear_list(text[start.end() : end])
    return shares


def parse_split_place(text: str) -> Place:
    """The place of a split: a dump or a robot's feet (``"dump 4"``, ``"robot 3 feet"``).

    >>> str(parse_split_place("dump 4"))
    'dump 4'
    >>> parse_split_place("robot 3 circuit")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: a split is of a dump or a robot's feet ('dump 4', 'robot 3 feet'), not robot 3 circuit
    """
    place = parse_place(" ".join(text.split()))
    if place.kind not in (PlaceKind.DUMP, PlaceKind.FEET):
        raise InvalidStateError(
            f"a split is of a dump or a robot's feet ('dump 4', 'robot 3 feet'), not {place}"
        )
    return place


def add_recorded(recorded: Recorded, text: str, players: tuple[str, ...]) -> Recorded:
    """``recorded`` with one more value the players wrote down: ``"robot 3 feet=red"``,
    ``"robot 3 circuit=none"``, ``"dump 4=blue"`` or ``"score Ada=12"``.

    >>> one = add_recorded(Recorded(), "robot 3 feet=red, red", ("Ada",))
    >>> two = add_recorded(one, "score Ada=12", ("Ada",))
    >>> [str(g) for g in two.robots[3].feet], two.robots[3].circuit, two.scores
    (['red', 'red'], None, {'Ada': 12})
    >>> add_recorded(two, "score Bo=3", ("Ada",))
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "Bo" is not a player of this game (players: Ada)
    """
    key, value = split_keyed(text, "a recorded value", RECORDED_SHAPE)
    if key.startswith("score "):
        name = key.removeprefix("score ").strip()
        if name not in players:
            raise InvalidStateError(
                f"{show(name)} is not a player of this game (players: {', '.join(players)})"
            )
        return attrs.evolve(recorded, scores={**recorded.scores, name: parse_score(value)})
    place = recorded_place(key)
    gears = parse_gear_list(value)
    if place.kind is PlaceKind.DUMP:
        return attrs.evolve(recorded, dumps={**recorded.dumps, place.number: gears})
    robot = recorded.robots.get(place.number, RobotGears())
    robot = attrs.evolve(robot, **{place.kind.value: gears})
    return attrs.evolve(recorded, robots={**recorded.robots, place.number: robot})


def recorded_place(text: str) -> Place:
    """The place of a recorded value: ``"robot 3 feet"``, ``"robot 3 circuit"``, ``"dump 4"``.

    >>> str(recorded_place("robot  3 circuit"))
    'robot 3 circuit'
    >>> recorded_place("robot 9 feet")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "9" is not a robot: robots are numbered 1-8
    """
    words = text.split()
    if len(words) == 3 and words[0] == "robot" and words[2] in ("feet", "circuit"):
        parse_robot(words[1])
    elif len(words) == 2 and words[0] == "dump":
        parse_robot(words[1])  # dumps are numbered like the robots
    try:
        place = parse_place(" ".join(words))
    except InvalidStateError:
        raise InvalidStateError(f"{show(text)} is not a recorded value: {RECORDED_SHAPE}") from None
    if place.kind is PlaceKind.RESERVE:
        raise InvalidStateError(f"the reserve is not recorded: {RECORDED_SHAPE}")
    return place


def parse_score(text: str) -> int:
    """A score a player wrote down: a whole number of points.

    >>> parse_score("12")
    12
    >>> parse_score("twelve")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "twelve" is not a score: a score is a whole number of points
    """
    word = text.strip()
    if not (word.isascii() and word.isdigit()) or len(word) > 5:
        raise InvalidStateError(f"{show(word)} is not a score: a score is a whole number of points")
    return int(word)
