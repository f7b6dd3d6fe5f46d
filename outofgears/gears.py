"""Gears: the pieces robots fight over.

A gear has a colour (the number of the robot it belongs to, 1-8) and a kind.
The base game has only standard gears (spec GEN-1); the kind carries the
scoring, so that the expansions can add kinds without touching the rules.

Gears of the same colour and kind are interchangeable, so collections of gears
are multisets. This module keeps them as tuples sorted by :func:`gear_key`,
which makes two positions with the same gears compare equal.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable

from attrs import field, frozen

from outofgears.errors import InvalidStateError

#: Robot numbers, which are also the colours of the gears and the dump numbers.
ROBOT_NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)

#: Gears of each colour in the box (spec GEN-1).
GEARS_PER_COLOUR = 11

#: The names a table uses for the eight colours (ruling R-COLOURS: the rulebooks
#: name no colours, so these are the project's convention).
COLOUR_NAMES: dict[int, str] = {
    1: "red",
    2: "orange",
    3: "yellow",
    4: "green",
    5: "blue",
    6: "purple",
    7: "grey",
    8: "white",
}

#: Points of a gear of the robot's own colour, and of any other colour (spec END-2).
OWN_COLOUR_POINTS = 2
OTHER_COLOUR_POINTS = 1


class GearKind(enum.Enum):
    """What kind of gear a piece is; the kind decides how it scores."""

    STANDARD = "standard"


def _check_colour(instance: object, attribute: object, value: int) -> None:
    if type(value) is not int or value not in ROBOT_NUMBERS:
        raise InvalidStateError(f"a gear colour is a robot number 1-8, not {value!r}")


@frozen(repr=False)
class Gear:
    """One gear.

    Args:
        colour: The robot number whose colour the gear has (1-8).
        kind: The kind of gear; the base game knows only standard gears.

    >>> Gear(3)
    Gear(3)
    >>> str(Gear(3))
    'yellow'
    """

    colour: int = field(validator=_check_colour)
    kind: GearKind = GearKind.STANDARD

    def points_for(self, robot: int) -> int:
        """Points the gear scores for robot number ``robot`` at the end (spec END-2).

        >>> Gear(2).points_for(2), Gear(2).points_for(5)
        (2, 1)
        """
        return OWN_COLOUR_POINTS if self.is_own_colour_of(robot) else OTHER_COLOUR_POINTS

    def is_own_colour_of(self, robot: int) -> bool:
        """Whether the gear counts as robot ``robot``'s own colour when scoring and tie-breaking.

        >>> Gear(4).is_own_colour_of(4)
        True
        """
        return self.colour == robot

    def has_priority_for(self, robot: int) -> bool:
        """Whether robot ``robot`` has own-colour priority on this gear in a split (spec SPL-2).

        >>> Gear(4).has_priority_for(4), Gear(4).has_priority_for(1)
        (True, False)
        """
        return self.colour == robot

    def __str__(self) -> str:
        return COLOUR_NAMES[self.colour]

    def __repr__(self) -> str:
        if self.kind is GearKind.STANDARD:
            return f"Gear({self.colour})"
        return f"Gear({self.colour}, {self.kind})"


def gear_key(gear: Gear) -> tuple[str, int]:
    """The canonical sort key of a gear: by kind, then by colour number.

    >>> sorted([Gear(5), Gear(1)], key=gear_key)
    [Gear(1), Gear(5)]
    """
    return (gear.kind.value, gear.colour)


def sort_gears(gears: Iterable[Gear]) -> tuple[Gear, ...]:
    """The gears as a canonically sorted tuple (a multiset).

    >>> sort_gears([Gear(2), Gear(1), Gear(2)]) == gears(1, 2, 2)
    True
    """
    return tuple(sorted(gears, key=gear_key))


def gears(*colours: int) -> tuple[Gear, ...]:
    """Standard gears of the given colours, sorted: a shorthand for positions and tests.

    >>> [str(g) for g in gears(3, 1, 1)]
    ['red', 'red', 'yellow']
    """
    return sort_gears(Gear(colour) for colour in colours)


def describe_gears(items: Iterable[Gear]) -> str:
    """Gears the way a table says them: ``"2 red, 1 blue"``; ``"none"`` when empty.

    >>> describe_gears(gears(1, 5, 1))
    '2 red, 1 blue'
    >>> describe_gears(())
    'none'
    """
    counts = Counter(sort_gears(items))
    if not counts:
        return "none"
    return ", ".join(f"{count} {gear}" for gear, count in counts.items())


def parse_gear(text: str) -> Gear:
    """A gear from its colour name or number (``"red"`` or ``"1"``).

    >>> parse_gear("blue"), parse_gear("5") == Gear(5)
    (Gear(5), True)
    """
    word = text.strip().lower()
    if word.isdigit():
        return Gear(int(word))
    for number, name in COLOUR_NAMES.items():
        if name == word:
            return Gear(number)
    raise InvalidStateError(f"no gear colour called {text!r}")
