"""The state of a game: robots, dumps, the reserve, players, options.

Every class here is frozen and slotted; a turn builds a new :class:`GameState`
and never changes the one it was given. Gear collections are tuples kept in
canonical order (:func:`outofgears.rules.gears.sort_gears`), except the reserve,
whose order is the order of the draws.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Final, Literal, TypeVar

import attrs
from attrs import field, frozen

from outofgears.errors import ArgumentTypeError, InvalidStateError, OutOfGearsError
from outofgears.rules.gears import (
    EXPANSION_GEARS_PER_KIND,
    GEARS_PER_COLOUR,
    ROBOT_NUMBERS,
    Gear,
    GearKind,
    are_canonical,
    canonical_gear,
    counted,
    gear_of,
    gear_ranks,
    gears_of,
)

DefenceStealSource = Literal["feet_or_circuit", "feet_only"]
AssemblyRule = Literal["mandatory", "optional"]


def _ordered_gears(items: Iterable[Gear], argument: str = "reserve") -> tuple[Gear, ...]:
    """The gears in their order, each replaced by its shared instance (``canonical_gear``)."""
    if type(items) is tuple:  # the engine's own case: nothing to check or copy
        gears: tuple[Gear, ...] = items
    elif isinstance(items, str | bytes) or items is None:
        raise ArgumentTypeError(argument, "an iterable of Gear", items)
    else:
        try:
            gears = tuple(items)
        except TypeError:
            raise ArgumentTypeError(argument, "an iterable of Gear", items) from None
    if are_canonical(gears):
        return gears
    for gear in gears:
        if not isinstance(gear, Gear):
            raise InvalidStateError(f"expected a Gear, got {gear!r}")
    return tuple(map(canonical_gear, gears))


def _gear_tuple(items: Iterable[Gear], argument: str = "gears") -> tuple[Gear, ...]:
    """The gears as a canonical multiset of shared instances (:func:`gears_of` of their ranks:
    :func:`_ordered_gears` made every gear a shared instance already)."""
    if type(items) is tuple and not items:
        return items  # an empty pile: every robot's feet and circuit at setup
    return gears_of(gear_ranks(_ordered_gears(items, argument)))


def _feet(items: Iterable[Gear]) -> tuple[Gear, ...]:
    return _gear_tuple(items, "feet")


def _circuit(items: Iterable[Gear]) -> tuple[Gear, ...]:
    return _gear_tuple(items, "circuit")


def _check_robot_number(instance: object, attribute: object, value: int) -> None:
    if type(value) is not int or value not in ROBOT_NUMBERS:
        raise InvalidStateError(f"robot and dump numbers are 1-8, not {value!r}")


#: The longest player's name, in characters: the engine and the log format share the limit.
MAX_NAME: Final = 60


def _check_name(instance: object, attribute: object, value: str) -> None:
    if not isinstance(value, str):
        raise InvalidStateError(f"a player's name is a string, not {value!r}")
    if len(value) > MAX_NAME:
        raise InvalidStateError(
            f"a player's name is at most {MAX_NAME} characters, not {len(value)}"
        )


@frozen
class Robot:
    """A robot in play.

    Args:
        number: The robot's number, 1-8; gears of this colour are its own.
        player: The name of the player who controls it.
        feet: Gears at its feet, which attacks can take.
        circuit: Gears in its internal circuit, safe from attacks (spec ASM-3).

    >>> from outofgears.rules.gears import gears
    >>> Robot(2, "Ada", feet=gears(1, 2)).colour
    2
    """

    number: int = field(validator=_check_robot_number)
    player: str = field(validator=_check_name)
    feet: tuple[Gear, ...] = field(default=(), converter=_feet)
    circuit: tuple[Gear, ...] = field(default=(), converter=_circuit)

    def __reduce__(self) -> tuple[Any, tuple[int, str, tuple[Gear, ...], tuple[Gear, ...]]]:
        # Unpickled through the constructor: its piles are the shared tuples again.
        return (Robot, (self.number, self.player, self.feet, self.circuit))

    @property
    def colour(self) -> int:
        """The robot's colour, which is its number (spec GEN-1)."""
        return self.number

    @property
    def all_gears(self) -> tuple[Gear, ...]:
        """Feet and circuit together, as they are scored (spec END-2)."""
        return self.feet + self.circuit


@frozen
class Dump:
    """A dump in play and the gears on it.

    Attributes:
        number: The dump's number (1-8, the number of the robot it lies before).
        gears: The gears on it, face up.

    >>> from outofgears.rules.gears import gears
    >>> Dump(4, gears(1, 1)).gears[0].colour
    1
    """

    number: int = field(validator=_check_robot_number)
    gears: tuple[Gear, ...] = field(default=(), converter=_gear_tuple)

    def __reduce__(self) -> tuple[Any, tuple[int, tuple[Gear, ...]]]:
        # Unpickled through the constructor: its pile is the shared tuple again.
        return (Dump, (self.number, self.gears))


def _name_tuple(items: Iterable[int]) -> tuple[int, ...]:
    if isinstance(items, str | bytes | Mapping):
        raise ArgumentTypeError("robots", "a sequence of robot numbers", items)
    try:
        numbers = tuple(items)
    except TypeError:
        raise ArgumentTypeError("robots", "a sequence of robot numbers", items) from None
    for number in numbers:
        _check_robot_number(None, None, number)
    return tuple(sorted(numbers))


class UpgradeCard(enum.Enum):
    """The five kinds of Robot Upgrade card (spec UPG-1).

    Attributes:
        SUPER_HARVEST: Super Harvest: a harvest of every dump in play at once (SHARV-1).
        SUPER_ATTACK: Super Attack: an attack on every other robot at once (SATK-1).
        SUPER_TRAP: Super Trap: a trap on every dump in play (STRAP-1).
        SUPER_SHOVEL: Super Shovel: not a harvest; after the harvests it takes what is left
            on every dump (SHOV-1).
        COUNTER_DEFENCE: Counter Defence: attacks every robot that defended, voiding those
            defences (CDEF-1, CDEF-2).
    """

    SUPER_HARVEST = "super harvest"
    SUPER_ATTACK = "super attack"
    SUPER_TRAP = "super trap"
    SUPER_SHOVEL = "super shovel"
    COUNTER_DEFENCE = "counter defence"


#: The default upgrade deck: two cards of each kind, ten in all (ruling R-UPG-DECK).
DEFAULT_UPGRADE_DECK: tuple[UpgradeCard, ...] = tuple(
    card for card in UpgradeCard for _ in range(2)
)


def _check_upgrade(instance: object, attribute: object, value: UpgradeCard | None) -> None:
    if value is not None and not isinstance(value, UpgradeCard):
        raise InvalidStateError(f"an upgrade card is an UpgradeCard or None, not {value!r}")


@frozen
class Player:
    """A player, the robots they control (one, or two in the variant of spec VAR-1), and the
    upgrade card they hold face down, if any (spec UPG-1, UPG-3).

    Attributes:
        name: The player's name (1 to 60 characters).
        robots: The robots they control, ascending: one, or two in the variant.
        upgrade: The upgrade card held face down, or ``None``.

    >>> Player("Ada", (5, 2)).robots
    (2, 5)
    >>> Player("Bo", (1,), UpgradeCard.SUPER_TRAP).upgrade
    <UpgradeCard.SUPER_TRAP: 'super trap'>
    """

    name: str = field(validator=_check_name)
    robots: tuple[int, ...] = field(converter=_name_tuple)
    upgrade: UpgradeCard | None = field(default=None, validator=_check_upgrade)

    def __attrs_post_init__(self) -> None:
        if not self.name:
            raise InvalidStateError("a player needs a name")
        if len(self.robots) not in (1, 2) or len(set(self.robots)) != len(self.robots):
            raise InvalidStateError(
                f"player {self.name!r} controls one robot or two distinct robots, "
                f"not {self.robots!r}"
            )


def _card_tuple(cards: Iterable[UpgradeCard]) -> tuple[UpgradeCard, ...]:
    if isinstance(cards, str | bytes):
        raise ArgumentTypeError("upgrade_deck", "a sequence of UpgradeCard", cards)
    try:
        return tuple(cards)
    except TypeError:
        raise ArgumentTypeError("upgrade_deck", "a sequence of UpgradeCard", cards) from None


@frozen
class Options:
    """The rule options: every reading that players genuinely dispute (spec/rulings.md).

    The expansions are switched on here too, in any combination.

    Args:
        defence_steal_source: Where a defender may take its gear from an attacker
            (ruling R-DEFENCE): ``"feet_or_circuit"`` (both rulebooks) or ``"feet_only"``.
        assembly: Whether assembly is ``"mandatory"`` (French rulebook) or ``"optional"``
            (Italian rulebook), ruling R-ASSEMBLY.
        upgrades: The Robot Upgrades expansion (spec UPG-1 to UPG-4, SHARV-1, SATK-1, SATK-2, STRAP-1, SHOV-1, CDEF-1, CDEF-2).
        upgrade_deck: The upgrade cards shuffled and dealt at setup; by default two of
            each kind (ruling R-UPG-DECK). At least one card per player.
        jolly_gears: Expansion #2: four Jolly gears join the gears (spec JOL-1).
        three_point_gears: Expansion #3: four three-point gears join the gears (spec TRI-1).
        pad_reserve: Add gears of colours not in play at setup so that the reserve after the
            initial deal divides evenly among the dumps (spec REF-2, ruling R-PAD-RESERVE).

    >>> Options().assembly
    'mandatory'
    >>> Options(upgrades=True).upgrade_deck == DEFAULT_UPGRADE_DECK
    True
    """

    defence_steal_source: DefenceStealSource = field(default="feet_or_circuit")
    assembly: AssemblyRule = field(default="mandatory")
    upgrades: bool = field(default=False)
    upgrade_deck: tuple[UpgradeCard, ...] = field(
        default=DEFAULT_UPGRADE_DECK, converter=_card_tuple
    )
    jolly_gears: bool = field(default=False)
    three_point_gears: bool = field(default=False)
    pad_reserve: bool = field(default=False)

    @upgrades.validator
    @jolly_gears.validator
    @three_point_gears.validator
    @pad_reserve.validator
    def _check_switch(self, attribute: Any, value: bool) -> None:
        if type(value) is not bool:
            raise InvalidStateError(f"{attribute.name} is true or false, not {value!r}")

    @upgrade_deck.validator
    def _check_deck(self, attribute: object, value: tuple[UpgradeCard, ...]) -> None:
        for card in value:
            if not isinstance(card, UpgradeCard):
                raise InvalidStateError(f"the upgrade deck holds UpgradeCards, not {card!r}")

    @defence_steal_source.validator
    def _check_source(self, attribute: object, value: str) -> None:
        if value not in ("feet_or_circuit", "feet_only"):
            raise InvalidStateError(
                f"defence_steal_source is 'feet_or_circuit' or 'feet_only', not {value!r}"
            )

    @assembly.validator
    def _check_assembly(self, attribute: object, value: str) -> None:
        if value not in ("mandatory", "optional"):
            raise InvalidStateError(f"assembly is 'mandatory' or 'optional', not {value!r}")


class PlaceKind(enum.Enum):
    """Where a gear can be.

    Attributes:
        FEET: The gears beside a robot, which an attack takes and a defence steals from.
        CIRCUIT: A robot's Internal Circuit, where assembled gears are safe from attacks.
        DUMP: A dump, where harvests take from and exploration deals to.
        RESERVE: The face-down pile that exploration draws from.
    """

    FEET = "feet"
    CIRCUIT = "circuit"
    DUMP = "dump"
    RESERVE = "reserve"


@frozen
class Place:
    """A place a gear can be: a robot's feet or circuit, a dump, or the reserve.

    Attributes:
        kind: Which kind of place.
        number: The robot's number for feet and a circuit, the dump's number for a dump,
            0 for the reserve.

    >>> str(Place.feet(3)), str(Place.dump(4)), str(Place.reserve())
    ('robot 3 feet', 'dump 4', 'reserve')
    """

    kind: PlaceKind = field()
    number: int = field(default=0)

    @kind.validator
    def _check_kind(self, attribute: object, value: PlaceKind) -> None:
        if type(value) is not PlaceKind:
            raise ArgumentTypeError("kind", "a PlaceKind", value)

    @number.validator
    def _check_number(self, attribute: object, value: int) -> None:
        if type(value) is not int or not 0 <= value <= 8:
            raise ArgumentTypeError(
                "number", "a robot or dump number 1-8 (0 for the reserve)", value
            )

    @classmethod
    def feet(cls, robot: int) -> Place:
        """The feet of robot ``robot``."""
        return cls(PlaceKind.FEET, robot)

    @classmethod
    def circuit(cls, robot: int) -> Place:
        """The internal circuit of robot ``robot``."""
        return cls(PlaceKind.CIRCUIT, robot)

    @classmethod
    def dump(cls, number: int) -> Place:
        """Dump ``number``."""
        return cls(PlaceKind.DUMP, number)

    @classmethod
    def reserve(cls) -> Place:
        """The reserve in the middle of the table."""
        return cls(PlaceKind.RESERVE, 0)

    def __str__(self) -> str:
        if self.kind is PlaceKind.RESERVE:
            return "reserve"
        if self.kind is PlaceKind.DUMP:
            return f"dump {self.number}"
        return f"robot {self.number} {self.kind.value}"


def _sorted_of(items: Any, kind: type, argument: str, key: Any) -> tuple[Any, ...]:
    """``items`` sorted by ``key``, each an instance of ``kind``; else :class:`ArgumentTypeError`.

    Cheap on the way of every turn: a type check per item, no copy of what it holds.
    """
    if type(items) is tuple:
        result: tuple[Any, ...] = items
    elif isinstance(items, str | bytes | Mapping):
        raise ArgumentTypeError(argument, f"an iterable of {kind.__name__}", items)
    else:
        try:
            result = tuple(items)
        except TypeError:
            raise ArgumentTypeError(argument, f"an iterable of {kind.__name__}", items) from None
    for item in result:
        if type(item) is not kind and not isinstance(item, kind):
            raise ArgumentTypeError(argument, f"an iterable of {kind.__name__}", item)
    return tuple(sorted(result, key=key))


def _robot_tuple(items: Iterable[Robot]) -> tuple[Robot, ...]:
    return _sorted_of(items, Robot, "robots", lambda robot: robot.number)


def _dump_tuple(items: Iterable[Dump]) -> tuple[Dump, ...]:
    return _sorted_of(items, Dump, "dumps", lambda dump: dump.number)


def _player_tuple(items: Iterable[Player]) -> tuple[Player, ...]:
    return _sorted_of(items, Player, "players", lambda player: player.robots[0])


@frozen
class GameState:
    """A whole position: everything needed to play the next turn.

    Build one with :func:`outofgears.rules.setup.setup_game` or
    :func:`outofgears.rules.setup.from_position`; :func:`outofgears.apply_turn` returns
    the next one.

    Args:
        robots: The robots in play, in number order.
        dumps: The dumps in play, numbered like the robots (spec SET-2).
        reserve: The gears still to be drawn, in draw order.
        players: Who controls which robot.
        turn: The number of the next turn to play (1 before the first turn).
        options: The rule options in force.
        game_over: Whether the game has ended (spec END-1).
    """

    robots: tuple[Robot, ...] = field(converter=_robot_tuple)
    dumps: tuple[Dump, ...] = field(converter=_dump_tuple)
    reserve: tuple[Gear, ...] = field(converter=_ordered_gears)
    players: tuple[Player, ...] = field(converter=_player_tuple)
    turn: int = 1
    options: Options = Options()
    game_over: bool = False

    def __attrs_post_init__(self) -> None:
        check_state(self)

    def __copy__(self) -> GameState:
        """A state is immutable: its copy is itself."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        """A state is immutable, down to its gears: its deep copy is itself."""
        return self

    @property
    def robot_numbers(self) -> tuple[int, ...]:
        """The numbers of the robots in play, ascending."""
        return tuple(robot.number for robot in self.robots)

    @property
    def is_two_robot_variant(self) -> bool:
        """Whether players control two robots each (spec VAR-1)."""
        return any(len(player.robots) == 2 for player in self.players)

    def robot(self, number: int) -> Robot:
        """The robot numbered ``number``; :class:`InvalidStateError` if it is not in play."""
        for robot in self.robots:
            if robot.number == number:
                return robot
        raise InvalidStateError(f"robot {number} is not in play")

    def dump(self, number: int) -> Dump:
        """The dump numbered ``number``; :class:`InvalidStateError` if it is not in play."""
        for dump in self.dumps:
            if dump.number == number:
                return dump
        raise InvalidStateError(f"dump {number} is not in play")

    def player_of(self, robot: int) -> Player:
        """The player who controls robot ``robot``."""
        for player in self.players:
            if robot in player.robots:
                return player
        raise InvalidStateError(f"robot {robot} is not in play")

    def all_gears(self) -> Iterator[Gear]:
        """Every gear in the game: feet, circuits, dumps and reserve."""
        places = [place for robot in self.robots for place in (robot.feet, robot.circuit)]
        places += [dump.gears for dump in self.dumps]
        places.append(self.reserve)
        return itertools.chain.from_iterable(places)


def expect_state(state: object, argument: str = "state") -> None:
    """Raise :class:`ArgumentTypeError` unless ``state`` is a :class:`GameState`.

    The entry points call it first, so that ``apply_turn(None, ...)`` says what is wrong.

    >>> expect_state(None)
    Traceback (most recent call last):
    ...
    outofgears.errors.ArgumentTypeError: state must be a GameState, not None
    """
    if type(state) is not GameState and not isinstance(state, GameState):
        raise ArgumentTypeError(argument, "a GameState", state)


def altered_state(state: object) -> InvalidStateError | None:
    """What is wrong with ``state`` if it no longer is what its constructors allow, else ``None``.

    A state is checked once, when it is built; it is frozen, so nothing changes it after,
    except ``object.__setattr__``, which goes round the freezing. The engine's entry points
    (:func:`on_built_state`) ask this only when a turn has already failed: it builds the state
    again from its fields, robots, dumps and players, so that each constructor checks them.
    """
    if not isinstance(state, GameState):
        return None
    for name in ("robots", "dumps", "reserve", "players"):
        if type(getattr(state, name)) is not tuple:
            return InvalidStateError(
                f"the state was altered after it was built: its {name} are "
                f"{type(getattr(state, name)).__name__}, not a tuple"
            )
    try:
        attrs.evolve(
            state,
            robots=[attrs.evolve(robot) for robot in state.robots],
            dumps=[attrs.evolve(dump) for dump in state.dumps],
            players=[attrs.evolve(player) for player in state.players],
        )
    except InvalidStateError as problem:
        return InvalidStateError(f"the state was altered after it was built: {problem}")
    except Exception as problem:  # a field that is not even a sequence any more
        return InvalidStateError(
            f"the state was altered after it was built: {type(problem).__name__}: {problem}"
        )
    return None


_Entry = TypeVar("_Entry", bound=Callable[..., Any])


def on_built_state(function: _Entry) -> _Entry:
    """An entry point of the engine (its first argument a state) that, when it fails with a
    builtin error, raises :class:`InvalidStateError` instead if the state was altered after it
    was built (:func:`altered_state`); any other failure is raised as it is."""

    @functools.wraps(function)
    def checked(state: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return function(state, *args, **kwargs)
        except OutOfGearsError:
            raise
        except (TypeError, AttributeError, KeyError, IndexError, ValueError) as error:
            problem = altered_state(state)
            if problem is None:
                raise
            raise problem from error

    return checked  # type: ignore[return-value]


def check_state(state: GameState) -> None:
    """Check that a position hangs together; raise :class:`InvalidStateError` if not.

    Robots are distinct, between 2 and 8 of them, the dumps in play are numbered
    like them (spec SET-2), and the players control every robot exactly once.
    """
    if type(state.options) is not Options and not isinstance(state.options, Options):
        raise ArgumentTypeError("options", "an Options", state.options)
    if type(state.game_over) is not bool:
        raise ArgumentTypeError("game_over", "True or False", state.game_over)
    if type(state.turn) is not int or state.turn < 1:
        raise InvalidStateError(f"the turn number starts at 1, not {state.turn!r}")
    numbers = [robot.number for robot in state.robots]
    if len(set(numbers)) != len(numbers):
        raise InvalidStateError(f"a robot number appears twice: {numbers}")
    if not 2 <= len(numbers) <= len(ROBOT_NUMBERS):
        raise InvalidStateError(f"a game has 2 to 8 robots, not {len(numbers)}")
    dump_numbers = [dump.number for dump in state.dumps]
    if dump_numbers != numbers:
        raise InvalidStateError(
            f"the dumps in play must be those of the robots in play {numbers}, not {dump_numbers}"
        )
    controlled = sorted(number for player in state.players for number in player.robots)
    if controlled != numbers:
        raise InvalidStateError(
            f"the players must control each robot in play once: robots {numbers}, "
            f"controlled {controlled}"
        )
    names = [player.name for player in state.players]
    if len(set(names)) != len(names):
        raise InvalidStateError(f"two players share a name: {names}")
    controller = {number: player.name for player in state.players for number in player.robots}
    for robot in state.robots:
        if controller[robot.number] != robot.player:
            raise InvalidStateError(
                f"robot {robot.number} says player {robot.player!r} controls it, "
                f"but the players say {controller[robot.number]!r}"
            )
    sizes = {len(player.robots) for player in state.players}
    if 2 in sizes and (sizes != {2} or not 2 <= len(state.players) <= 4):
        raise InvalidStateError(
            "in the two-robot variant every player controls two robots and there are "
            f"2 to 4 players (VAR-1); got {[list(p.robots) for p in state.players]}"
        )
    check_gear_supply(state)
    check_upgrades(state)
    if type(state.turn) is not int or state.turn < 1:
        raise InvalidStateError(f"the turn number starts at 1, not {state.turn!r}")


def check_gear_supply(state: GameState) -> None:
    """No position holds more gears of a kind than the boxes do (spec SET-5, GEN-1, JOL-1, TRI-1).

    Jolly and three-point gears appear only when their expansion is switched on.
    """
    counts = Counter(gear_ranks(tuple(state.all_gears())))
    for rank in sorted(counts):
        gear, count = gear_of(rank), counts[rank]
        if gear.kind is GearKind.STANDARD:
            if count > GEARS_PER_COLOUR:
                raise InvalidStateError(
                    f"the position holds {count} {gear} gears; "
                    f"the box has {GEARS_PER_COLOUR} of each colour"
                )
            continue
        switched_on = (
            state.options.jolly_gears
            if gear.kind is GearKind.JOLLY
            else state.options.three_point_gears
        )
        if not switched_on:
            raise InvalidStateError(
                f"the position holds {gear} gears, but that expansion is not in play"
            )
        if count > EXPANSION_GEARS_PER_KIND:
            raise InvalidStateError(
                f"the position holds {count} {gear} gears; "
                f"the expansion has {EXPANSION_GEARS_PER_KIND}"
            )


def check_upgrades(state: GameState) -> None:
    """Upgrade cards are held only when the expansion is in play, and only as many of a
    kind as the deck has (spec UPG-1)."""
    check_upgrade_holders(
        (player.upgrade for player in state.players if player.upgrade is not None), state.options
    )


def check_upgrade_holders(cards: Iterable[UpgradeCard], options: Options) -> None:
    """The upgrade cards the players hold, one each: only with the upgrades on, and no more
    of a card than the deck has (spec UPG-1)."""
    held = Counter(cards)
    if held and not options.upgrades:
        raise InvalidStateError(
            "a player holds an upgrade card, but upgrades are not in play (Options(upgrades=True))"
        )
    if not held:
        return
    in_deck = Counter(options.upgrade_deck)
    for card, count in sorted(held.items(), key=lambda item: item[0].value):
        if count > in_deck[card]:
            raise InvalidStateError(
                f"{counted(count, 'player')} {'holds' if count == 1 else 'hold'} {card.value}, "
                f"but the upgrade deck has {in_deck[card]}"
            )
