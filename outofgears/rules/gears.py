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
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from attrs import field, frozen

from outofgears.errors import ArgumentTypeError, InvalidStateError, show

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


#: Points of a Jolly gear (spec JOL-2: it counts as the holder's own colour).
JOLLY_POINTS = OWN_COLOUR_POINTS

#: Points of a three-point gear, for whoever holds it (spec TRI-2).
THREE_POINT_POINTS = 3

#: Gears of each expansion kind in an expansion box (spec JOL-1, TRI-1).
EXPANSION_GEARS_PER_KIND = 4


class GearKind(enum.Enum):
    """What kind of gear a piece is; the kind decides how it scores.

    Standard gears have a colour. Jolly gears (expansion #2) and three-point gears
    (expansion #3) have none.

    Attributes:
        STANDARD: A gear of one of the eight colours.
        JOLLY: A Jolly gear (expansion #2): no colour of its own.
        THREE_POINT: A 3-point gear (expansion #3): no colour, a fixed worth.
    """

    STANDARD = "standard"
    JOLLY = "jolly"
    THREE_POINT = "three_point"


#: The order of kinds in a canonical multiset.
_KIND_ORDER = {GearKind.STANDARD: 0, GearKind.JOLLY: 1, GearKind.THREE_POINT: 2}


def _check_colour(instance: Gear, attribute: object, value: int) -> None:
    if not isinstance(instance.kind, GearKind):
        return  # the kind's own check, which runs next, names the problem
    if instance.kind is not GearKind.STANDARD:
        if value != 0:
            raise InvalidStateError(f"a {instance.kind.value} gear has no colour, not {value!r}")
        return
    if type(value) is not int or value not in ROBOT_NUMBERS:
        raise InvalidStateError(f"a gear colour is a robot number 1-8, not {value!r}")


def _check_kind(instance: object, attribute: object, value: GearKind) -> None:
    if not isinstance(value, GearKind):
        raise InvalidStateError(f"a gear kind is a GearKind, not {value!r}")


@frozen(repr=False)
class Gear:
    """One gear.

    Args:
        colour: The robot number whose colour the gear has (1-8); 0 for the
            colourless Jolly and three-point gears.
        kind: The kind of gear; the base game knows only standard gears.

    >>> Gear(3)
    Gear(3)
    >>> str(Gear(3)), str(JOLLY), str(THREE_POINT)
    ('yellow', 'jolly', '3-point')
    """

    colour: int = field(validator=_check_colour)
    kind: GearKind = field(default=GearKind.STANDARD, validator=_check_kind)

    def points_for(self, robot: int) -> int:
        """Points the gear scores for robot number ``robot`` (spec END-2, JOL-2, TRI-2).

        This worth is also what every default policy compares (spec VAL-1).

        >>> Gear(2).points_for(2), Gear(2).points_for(5), JOLLY.points_for(5), THREE_POINT.points_for(5)
        (2, 1, 2, 3)
        """
        if self.kind is GearKind.THREE_POINT:
            return THREE_POINT_POINTS
        return OWN_COLOUR_POINTS if self.is_own_colour_of(robot) else OTHER_COLOUR_POINTS

    def is_own_colour_of(self, robot: int) -> bool:
        """Whether the gear counts as robot ``robot``'s own colour when scoring and tie-breaking.

        A Jolly counts as its holder's own colour (JOL-2); a three-point gear never does (TRI-2).

        >>> Gear(4).is_own_colour_of(4), JOLLY.is_own_colour_of(4), THREE_POINT.is_own_colour_of(4)
        (True, True, False)
        """
        if self.kind is GearKind.JOLLY:
            return True
        return self.kind is GearKind.STANDARD and self.colour == robot

    def has_priority_for(self, robot: int) -> bool:
        """Whether robot ``robot`` has own-colour priority on this gear in a split (spec SPL-2).

        Jolly and three-point gears have no colour during play, so nobody has priority (JOL-2).

        >>> Gear(4).has_priority_for(4), Gear(4).has_priority_for(1), JOLLY.has_priority_for(4)
        (True, False, False)
        """
        return self.kind is GearKind.STANDARD and self.colour == robot

    def __str__(self) -> str:
        if self.kind is GearKind.JOLLY:
            return "jolly"
        if self.kind is GearKind.THREE_POINT:
            return "3-point"
        return COLOUR_NAMES[self.colour]

    def __reduce__(self) -> tuple[Any, tuple[int, str]]:
        """Pickle a gear as its colour and kind; unpickling gives the shared instance.

        The engine finds a gear's rank by identity (:data:`CANONICAL_GEARS`), so a state
        that goes through :mod:`pickle` keeps the shared instances and its speed.

        >>> import pickle
        >>> pickle.loads(pickle.dumps(Gear(3))) is CANONICAL_GEARS[2]
        True
        """
        return (_shared_gear, (self.colour, self.kind.value))

    def __copy__(self) -> Gear:
        return canonical_gear(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Gear:
        return canonical_gear(self)

    def __repr__(self) -> str:
        if self.kind is GearKind.JOLLY:
            return "JOLLY"
        if self.kind is GearKind.THREE_POINT:
            return "THREE_POINT"
        return f"Gear({self.colour})"


#: The Jolly gear of expansion #2 (spec JOL-1).
JOLLY = Gear(0, GearKind.JOLLY)

#: The three-point gear of expansion #3 (spec TRI-1).
THREE_POINT = Gear(0, GearKind.THREE_POINT)


#: One shared instance of every kind of gear, in canonical order: the colours 1-8, Jolly,
#: three-point. A gear's position here is its *rank* (:func:`gear_rank`). The model's
#: constructors keep these instances, so the engine's fast path can find a rank by identity.
CANONICAL_GEARS: tuple[Gear, ...] = (
    *(Gear(colour) for colour in ROBOT_NUMBERS),
    JOLLY,
    THREE_POINT,
)

#: ``gear_of(rank)``: the shared gear of a rank, ``CANONICAL_GEARS[rank]`` as a function (a
#: list's ``__getitem__``: a faster call than a tuple's, which is a method-wrapper).
gear_of: Callable[[int], Gear] = list(CANONICAL_GEARS).__getitem__

_RANK_BY_ID: dict[int, int] = {id(gear): rank for rank, gear in enumerate(CANONICAL_GEARS)}
_CANONICAL_IDS = frozenset(_RANK_BY_ID)


def are_canonical(gears: tuple[Gear, ...]) -> bool:
    """Whether every gear of ``gears`` is one of the shared instances (a quick check).

    >>> are_canonical(CANONICAL_GEARS), are_canonical((Gear(1),))
    (True, False)
    """
    return _CANONICAL_IDS.issuperset(map(id, gears))


def count_gears(items: Iterable[Gear]) -> Counter[Gear]:
    """How many of each gear ``items`` holds; counted by identity for the shared instances.

    >>> count_gears([Gear(1), CANONICAL_GEARS[0], JOLLY])[Gear(1)]
    2
    """
    pieces = list(items)
    by_id = Counter(map(id, pieces))
    if _CANONICAL_IDS.issuperset(by_id):
        return Counter({CANONICAL_GEARS[_RANK_BY_ID[key]]: count for key, count in by_id.items()})
    return Counter(pieces)


def gear_rank(gear: Gear) -> int:
    """The gear's canonical rank, 0-9: colours 1-8 are 0-7, Jolly 8, three-point 9.

    Ranks sort like :func:`gear_key`.

    >>> gear_rank(Gear(1)), gear_rank(Gear(8)), gear_rank(JOLLY), gear_rank(THREE_POINT)
    (0, 7, 8, 9)
    """
    rank = _RANK_BY_ID.get(id(gear))
    if rank is not None:
        return rank
    kind_order, colour = gear_key(gear)
    return colour - 1 if kind_order == 0 else len(ROBOT_NUMBERS) - 1 + kind_order


def gear_ranks(gears: Sequence[Gear]) -> list[int]:
    """The ranks of ``gears``, in their order; found by identity for the shared instances.

    >>> gear_ranks((JOLLY, CANONICAL_GEARS[1], Gear(1)))
    [8, 1, 0]
    """
    try:
        return list(map(_RANK_BY_ID.__getitem__, map(id, gears)))
    except KeyError:
        return [gear_rank(gear) for gear in gears]


def canonical_gear(gear: Gear) -> Gear:
    """The shared instance equal to ``gear`` (see :data:`CANONICAL_GEARS`).

    >>> canonical_gear(Gear(3)) is CANONICAL_GEARS[2]
    True
    """
    return CANONICAL_GEARS[gear_rank(gear)]


def _shared_gear(colour: int, kind: str) -> Gear:
    """The shared instance of a gear of ``colour`` and ``kind`` (unpickling a :class:`Gear`)."""
    return canonical_gear(Gear(colour, GearKind(kind)))


def gear_key(gear: Gear) -> tuple[int, int]:
    """The canonical sort key of a gear: standard gears by colour, then Jolly, then three-point.

    >>> sorted([Gear(5), Gear(1)], key=gear_key)
    [Gear(1), Gear(5)]
    """
    return (_KIND_ORDER[gear.kind], gear.colour)


def sort_gears(gears: Iterable[Gear]) -> tuple[Gear, ...]:
    """The gears as a canonically sorted tuple (a multiset); of shared gears, the shared tuple
    of that multiset (:func:`gears_of`), which the engine recognises by identity.

    >>> sort_gears([Gear(2), Gear(1), Gear(2)]) == gears(1, 2, 2)
    True
    """
    items = tuple(gears)
    if not items:
        return ()
    if _CANONICAL_IDS.issuperset(map(id, items)):
        return gears_of(list(map(_RANK_BY_ID.__getitem__, map(id, items))))
    return tuple(sorted(items, key=gear_key))


def gears(*colours: int) -> tuple[Gear, ...]:
    """Standard gears of the given colours, **sorted**: a shorthand for the gears of a place
    whose order does not matter (feet, circuits, dumps). For a reserve, whose order is the
    draw order, use :func:`gears_in_order`.

    >>> [str(g) for g in gears(3, 1, 1)]
    ['red', 'red', 'yellow']
    """
    return sort_gears(Gear(colour) for colour in colours)


def gears_in_order(*colours: int) -> tuple[Gear, ...]:
    """Standard gears of the given colours, in the order given: a reserve in draw order, the
    next gear first.

    >>> [str(g) for g in gears_in_order(3, 1, 1)]
    ['yellow', 'red', 'red']
    """
    return tuple(Gear(colour) for colour in colours)


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """A count and its noun, the noun singular for one: ``1 gear``, ``0 gears``, ``2 cards``.

    >>> counted(1, "gear"), counted(0, "gear"), counted(3, "place"), counted(2, "Jolly", "Jollies")
    ('1 gear', '0 gears', '3 places', '2 Jollies')
    """
    return f"{number} {noun}" if number == 1 else f"{number} {plural or noun + 's'}"


def points_text(number: int) -> str:
    """A score in words, singular for one: ``1 point``, ``0 points``, ``3 points``.

    >>> points_text(1), points_text(0), points_text(3)
    ('1 point', '0 points', '3 points')
    """
    return f"{number} point" if number == 1 else f"{number} points"


def describe_gears(items: Iterable[Gear]) -> str:
    """Gears the way a table says them: ``"2 red, 1 blue"``; ``"none"`` when empty.

    >>> describe_gears(gears(1, 5, 1))
    '2 red, 1 blue'
    >>> describe_gears(())
    'none'
    """
    if isinstance(items, str | bytes) or not isinstance(items, Iterable):
        raise ArgumentTypeError("items", "an iterable of Gear", items)
    items = tuple(items)
    for item in items:
        if not isinstance(item, Gear):
            raise ArgumentTypeError("items", "an iterable of Gear", item)
    counts = Counter(sort_gears(items))
    if not counts:
        return "none"
    return ", ".join(f"{count} {gear}" for gear, count in counts.items())


#: Every gear by its name: the colour names (ruling R-COLOURS), ``"jolly"`` and ``"3-point"``.
#: This is the whole grammar of gears, in logs, in saved states, in events and in every
#: command's JSON output: a text names a gear exactly when it is a key here, and ``str`` of a
#: gear gives its key. The values are the shared instances of :data:`CANONICAL_GEARS`.
GEAR_NAMES: dict[str, Gear] = {str(gear): gear for gear in CANONICAL_GEARS}


def parse_gear(text: str) -> Gear:
    """A gear from its name (one of :data:`GEAR_NAMES`, written exactly so).

    >>> parse_gear("blue"), parse_gear("3-point")
    (Gear(5), THREE_POINT)
    >>> parse_gear("Blue")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "Blue" is not a gear: a gear is one of red, orange, yellow, green, blue, purple, grey, white, jolly, 3-point
    """
    gear = GEAR_NAMES.get(text) if type(text) is str else None
    if gear is None:
        raise InvalidStateError(gear_refusal(text))
    return gear


def gear_refusal(value: object) -> str:
    """Why ``value`` is not a gear, for a message (the log reader's schema check says it so too).

    >>> print(gear_refusal(5))
    5 is not a gear: a gear is one of red, orange, yellow, green, blue, purple, grey, white, jolly, 3-point
    """
    return f"{show(value)} is not a gear: a gear is one of {', '.join(GEAR_NAMES)}"


# --- Gears as ranks: how the engine holds them ------------------------------------------------
#
# The engine works on ranks (0-9, :func:`gear_rank`), a place being a list of ranks. These tables
# answer its questions about a rank without touching a Gear object. Each is read off the Gear
# method the spec cites (points_for, is_own_colour_of, has_priority_for), once, here: a table
# lookup is a tenth of a method call on a Gear, and a turn of 8 robots asks several hundred
# times (tests/rules/test_cited_functions.py holds each table to its method).

#: ``WORTH[robot][rank]``: what a gear of that rank is worth to robot ``robot`` (1-8): its points
#: (END-2, JOL-2, TRI-2), which is also what every default policy compares (VAL-1). Row 0 is unused.
WORTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(gear.points_for(robot) for gear in CANONICAL_GEARS) for robot in range(9)
)

#: ``OWN_COLOUR[robot][rank]``: 1 if a gear of that rank counts as robot ``robot``'s own colour
#: (END-3's tie-break; a Jolly does, JOL-2, a three-point gear never, TRI-2), else 0; read off
#: :meth:`Gear.is_own_colour_of`. Row 0 is unused.
OWN_COLOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(gear.is_own_colour_of(robot)) for gear in CANONICAL_GEARS) for robot in range(9)
)

#: ``OWN_RANK[robot]``: the rank of the one gear on which robot ``robot`` has priority in a
#: split (SPL-2), read off :meth:`Gear.has_priority_for`: its own colour; Jolly and three-point
#: gears have no colour in play (JOL-2, TRI-2). Entry 0 is unused.
OWN_RANK: tuple[int, ...] = (
    -1,
    *(
        next(rank for rank, gear in enumerate(CANONICAL_GEARS) if gear.has_priority_for(robot))
        for robot in ROBOT_NUMBERS
    ),
)


def ring_order(taker: int, rank: int) -> int:
    """The tie-break between gears of equal worth for ``taker`` (ruling R-SYMMETRY).

    Colours come in the order of the ring of robots starting after the taker's own: the
    next robot's colour clockwise first, the taker's own colour last; Jolly and three-point
    gears, which have no colour, after every colour.

    >>> [ring_order(3, rank) for rank in range(10)]
    [5, 6, 7, 0, 1, 2, 3, 4, 8, 9]
    """
    return (rank - taker) % 8 if rank < 8 else rank


def _best_first(taker: int) -> tuple[int, ...]:
    return tuple(sorted(range(10), key=lambda rank: (-WORTH[taker][rank], ring_order(taker, rank))))


#: ``BEST_FIRST[taker]``: every rank in the order the default policies prefer it for ``taker``:
#: the worth most to it first, ties by :func:`ring_order` (ATK-5, ASM-2, SPL-5; R-SYMMETRY).
BEST_FIRST: tuple[tuple[int, ...], ...] = tuple(_best_first(taker) for taker in range(9))

#: ``PREFERENCE[taker][rank]``: the rank's position in ``BEST_FIRST[taker]``, a sort key.
PREFERENCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(order.index(rank) for rank in range(10)) for order in BEST_FIRST
)

#: ``PREFERENCE_KEY[taker]``: :data:`PREFERENCE` ``[taker]`` as a key function for ``sorted``
#: and ``min``. A list's ``__getitem__`` is a faster call than a tuple's (a method-wrapper).
PREFERENCE_KEY: tuple[Callable[[int], int], ...] = tuple(
    list(row).__getitem__ for row in PREFERENCE
)


def taking_order(takers: Iterable[int], after: int) -> list[int]:
    """``takers`` in the order of the ring starting after number ``after`` (R-SYMMETRY).

    The first robot clockwise after ``after`` comes first; robot ``after`` itself, if it is
    among them, last.

    >>> taking_order([1, 3, 6], 3), taking_order([2, 7], 6)
    ([6, 1, 3], [7, 2])
    """
    return sorted(takers, key=_RING_FROM[after])


#: ``_RING_FROM[after](robot)``: the robot's place in the ring that starts after ``after``.
_RING_FROM: tuple[Callable[[int], int], ...] = tuple(
    [(robot - after - 1) % 8 for robot in range(9)].__getitem__ for after in range(9)
)


#: A speed trick that stays (issue 11, kept by issue 20): the gear tuples of small multisets,
#: shared (``SHARED_MULTISETS[ranks]``, the ranks sorted), and their ranks by the tuple's
#: identity. The tuples are never dropped, so an identity is never reused while it is a key
#: here. Up to 8 gears of 10 kinds: at most 43,758 of them, about 15 MB if every one ever
#: turns up; 8 covers 97% of the dumps and feet of 8-robot games, so a table is built and
#: frozen by dictionary lookups: reading a pile's ranks this way costs a quarter to a fifth of
#: :func:`gear_ranks` (python -m benchmarks.house, 2026-11-25).
SHARED_MULTISETS: dict[tuple[int, ...], tuple[Gear, ...]] = {(): ()}
RANKS_OF_SHARED: dict[int, tuple[int, ...]] = {id(()): ()}
_SMALL = 8


def ranks_of(items: tuple[Gear, ...]) -> list[int]:
    """The ranks of a multiset of gears, as a new list; by identity when it is a shared tuple.

    >>> ranks_of(gears(2, 1, 1))
    [0, 0, 1]
    """
    known = RANKS_OF_SHARED.get(id(items))
    return gear_ranks(items) if known is None else list(known)


def gears_of(ranks: list[int]) -> tuple[Gear, ...]:
    """The canonical multiset (sorted tuple of shared gears) of ``ranks``; sorts ``ranks``.

    >>> gears_of([2, 0]) == gears(1, 3)
    True
    """
    ranks.sort()
    if len(ranks) > _SMALL:
        return tuple(map(gear_of, ranks))
    key = tuple(ranks)
    found = SHARED_MULTISETS.get(key)
    if found is None:
        # setdefault: of two threads building the same tuple, only the one kept is registered.
        found = SHARED_MULTISETS.setdefault(key, tuple(map(gear_of, key)))
        RANKS_OF_SHARED[id(found)] = key
    return found
