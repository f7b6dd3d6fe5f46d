"""Setting up a game (spec SET-1 to SET-6, VAR-1).

From a seed: the robots in play, their dumps, the reserve of their colours'
gears shuffled with a :class:`random.Random` seeded by the caller (never the
global one), and two gears dealt on each dump. Or from an explicit position, so
that a game played at a real table can be entered at any turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from outofgears.errors import ArgumentTypeError, InvalidStateError, SetupError
from outofgears.rules.gears import (
    CANONICAL_GEARS,
    EXPANSION_GEARS_PER_KIND,
    GEARS_PER_COLOUR,
    JOLLY,
    ROBOT_NUMBERS,
    THREE_POINT,
    Gear,
    counted,
)
from outofgears.rules.model import Dump, GameState, Options, Player, Robot, UpgradeCard
from outofgears.rules.table import dealt_state
from outofgears.rules.upgrades import deal_upgrade_cards

#: Gears dealt on each dump at setup (SET-4).
INITIAL_GEARS_PER_DUMP = 2


def check_robots_in_play(robots: Sequence[int]) -> tuple[int, ...]:
    """2 to 8 distinct robots numbered 1-8 (SET-1); returns them ascending.

    >>> check_robots_in_play([3, 1])
    (1, 3)
    >>> check_robots_in_play([1])
    Traceback (most recent call last):
    ...
    outofgears.errors.SetupError: a game has 2 to 8 robots, not 1 (SET-1)
    """
    numbers = tuple(robots)
    for number in numbers:
        if type(number) is not int or number not in ROBOT_NUMBERS:
            raise SetupError(f"robots are numbered 1-8, not {number!r}", clause="SET-1")
    if len(set(numbers)) != len(numbers):
        raise SetupError(f"each robot can be chosen once: {list(numbers)}", clause="SET-1")
    if not 2 <= len(numbers) <= len(ROBOT_NUMBERS):
        raise SetupError(f"a game has 2 to 8 robots, not {len(numbers)}", clause="SET-1")
    return tuple(sorted(numbers))


def dumps_in_play(robots: Iterable[int]) -> tuple[int, ...]:
    """The dumps in play: those numbered like the robots in play (SET-2).

    >>> dumps_in_play([5, 2])
    (2, 5)
    """
    return tuple(sorted(robots))


def build_reserve(
    robots: Iterable[int], rng: random.Random, options: Options | None = None
) -> tuple[Gear, ...]:
    """Every gear of the colours in play, 11 each, with the expansions' gears, shuffled.

    The colours in play (SET-3), four Jolly gears with expansion #2 (JOL-1),
    four three-point gears with expansion #3 (TRI-1), and the padding of
    ``pad_reserve`` (REF-2) are shuffled together before the deal.

    >>> reserve = build_reserve([1, 2], random.Random(0))
    >>> len(reserve), sum(1 for gear in reserve if gear.colour == 2)
    (22, 11)
    >>> len(build_reserve([1, 2], random.Random(0), Options(jolly_gears=True)))
    26
    """
    numbers = sorted(robots)
    rules = options or Options()
    pile = [CANONICAL_GEARS[colour - 1] for colour in numbers for _ in range(GEARS_PER_COLOUR)]
    pile += expansion_gears(rules)
    if rules.pad_reserve:
        pile += padding_gears(numbers, len(pile))
    rng.shuffle(pile)
    return tuple(pile)


def expansion_gears(options: Options) -> list[Gear]:
    """The Jolly and three-point gears that join the game (JOL-1, TRI-1).

    >>> expansion_gears(Options(jolly_gears=True, three_point_gears=True))
    [JOLLY, JOLLY, JOLLY, JOLLY, THREE_POINT, THREE_POINT, THREE_POINT, THREE_POINT]
    """
    extra: list[Gear] = []
    if options.jolly_gears:
        extra += [JOLLY] * EXPANSION_GEARS_PER_KIND
    if options.three_point_gears:
        extra += [THREE_POINT] * EXPANSION_GEARS_PER_KIND
    return extra


def padding_gears(robots: Sequence[int], pile_size: int) -> list[Gear]:
    """Gears of colours not in play, so that the reserve after the deal divides among the dumps.

    The reserve left after two gears per dump is topped up to a multiple of the
    number of dumps in play, with gears of the lowest-numbered colour not in play
    (REF-2, ruling R-PAD-RESERVE). With all eight robots in play there is no such
    colour, and the option is refused.

    >>> padding_gears([1, 2, 3], 26)  # 26 - 6 = 20 left: one more makes 21
    [Gear(4)]
    >>> padding_gears([1, 2, 3], 24)
    []
    """
    unused = [colour for colour in ROBOT_NUMBERS if colour not in robots]
    if not unused:
        raise SetupError(
            "pad_reserve needs a colour that is not in play, and all eight robots are",
            clause="REF-2",
        )
    dumps = len(robots)
    short = -(pile_size - INITIAL_GEARS_PER_DUMP * dumps) % dumps
    return [CANONICAL_GEARS[unused[0] - 1]] * short


def deal_initial_gears(
    dumps: Sequence[int], reserve: Sequence[Gear]
) -> tuple[tuple[Dump, ...], tuple[Gear, ...]]:
    """Two gears from the front of the reserve onto each dump, ascending (SET-4).

    Returns the dumps and what is left of the reserve.

    >>> from outofgears.rules.gears import gears
    >>> dealt, rest = deal_initial_gears((1, 2), gears(1, 1, 2, 2, 2))
    >>> [len(d.gears) for d in dealt], len(rest)
    ([2, 2], 1)
    """
    need = INITIAL_GEARS_PER_DUMP * len(dumps)
    if len(reserve) < need:
        raise SetupError(
            f"the reserve holds {counted(len(reserve), 'gear')}; the dumps need {need}",
            clause="SET-4",
        )
    dealt = tuple(
        Dump(number, reserve[i * INITIAL_GEARS_PER_DUMP : (i + 1) * INITIAL_GEARS_PER_DUMP])
        for i, number in enumerate(dumps)
    )
    return dealt, tuple(reserve[need:])


#: The largest seed, an unsigned 64-bit integer: the engine and the log format share the limit.
MAX_SEED: Final = 2**64 - 1


def _expect_seed(seed: object) -> None:
    """A seed is a non-negative int, as in a log (``start.seed``); -5 is not another name for 5."""
    if type(seed) is not int:
        raise SetupError(f"the seed is an integer, not {seed!r}", clause="SET-3")
    if not 0 <= seed <= MAX_SEED:
        raise SetupError(f"the seed is an integer from 0 to {MAX_SEED}, not {seed}", clause="SET-3")


def _expect_options(options: object) -> None:
    if options is not None and not isinstance(options, Options):
        raise ArgumentTypeError("options", "an Options or None", options)


def setup_game(
    robots: Sequence[int],
    *,
    seed: int,
    players: Sequence[str] | Mapping[str, Sequence[int]] | None = None,
    options: Options | None = None,
) -> GameState:
    """A new game with one robot per player, shuffled from ``seed`` (SET-1 to SET-4, SET-6).

    Args:
        robots: The numbers of the robots in play (2 to 8 of 1-8).
        seed: Seeds the shuffle; the same seed gives the same game.
        players: The players' names, one per robot in ascending robot order, or the same
            shape as :func:`from_position` and a log's ``players``: ``name -> (robot,)``,
            one robot each (a two-robot game is :func:`setup_two_robot_game`'s); default
            ``"P<robot>"``.
        options: The rule options; default :class:`Options`.

    >>> state = setup_game([1, 2, 3], seed=42)
    >>> [len(d.gears) for d in state.dumps], len(state.reserve)
    ([2, 2, 2], 27)
    >>> setup_game([1, 2, 3], seed=42) == state
    True
    >>> named = setup_game([1, 2], seed=42, players=["Ada", "Bo"])
    >>> named == setup_game([1, 2], seed=42, players={"Bo": (2,), "Ada": (1,)})
    True
    """
    _expect_seed(seed)
    if isinstance(robots, str | bytes | Mapping) or not isinstance(robots, Iterable):
        raise ArgumentTypeError("robots", "a sequence of robot numbers", robots)
    if players is not None and (
        isinstance(players, str | bytes) or not isinstance(players, Iterable)
    ):
        raise ArgumentTypeError("players", "a sequence of names, or names to robots", players)
    _expect_options(options)
    numbers = check_robots_in_play(robots)
    if isinstance(players, Mapping):
        players = _names_of_single_robots(players, numbers)
    names = list(players) if players is not None else [f"P{n}" for n in numbers]
    if len(names) != len(numbers):
        raise SetupError(f"{len(names)} player names for {len(numbers)} robots", clause="SET-1")
    if len(set(names)) != len(names):
        raise SetupError(f"each player needs a name of their own: {names}", clause="SET-1")
    return _deal(
        numbers, {name: (n,) for name, n in zip(names, numbers, strict=True)}, seed, options
    )


def _names_of_single_robots(
    players: Mapping[str, Sequence[int]], numbers: Sequence[int]
) -> list[str]:
    """The names of ``name -> (robot,)`` in ascending robot order, each robot in play once."""
    owner: dict[int, str] = {}
    for name, held in players.items():
        if isinstance(held, str | bytes | Mapping) or not isinstance(held, Iterable):
            raise ArgumentTypeError(f"players[{name!r}]", "a sequence of one robot number", held)
        robots = tuple(held)
        if len(robots) != 1:
            raise SetupError(
                f"player {name!r} controls one robot, not {list(robots)} (two robots each is "
                "setup_two_robot_game's)",
                clause="SET-1",
            )
        owner[robots[0]] = name
    if sorted(owner) != sorted(numbers):
        raise SetupError(
            f"the players control robots {sorted(owner)}; the robots in play are {list(numbers)}",
            clause="SET-1",
        )
    return [owner[number] for number in numbers]


def setup_two_robot_game(
    players: Mapping[str, Sequence[int]],
    *,
    seed: int,
    options: Options | None = None,
) -> GameState:
    """A new game of the two-robot variant: 2-4 players, two robots each (VAR-1).

    >>> state = setup_two_robot_game({"Ada": (1, 5), "Bo": (2, 6)}, seed=7)
    >>> state.is_two_robot_variant, state.player_of(5).name
    (True, 'Ada')
    """
    _expect_seed(seed)
    if not isinstance(players, Mapping):
        raise ArgumentTypeError("players", "a mapping of names to two robot numbers", players)
    for name, pair in players.items():
        if isinstance(pair, str | bytes | Mapping) or not isinstance(pair, Iterable):
            raise ArgumentTypeError(f"players[{name!r}]", "a pair of robot numbers", pair)
    _expect_options(options)
    if not 2 <= len(players) <= 4:
        raise SetupError(
            f"the two-robot variant is for 2 to 4 players, not {len(players)}", clause="VAR-1"
        )
    for name, pair in players.items():
        if len(tuple(pair)) != 2:
            raise SetupError(
                f"player {name!r} controls two robots, not {list(pair)}", clause="VAR-1"
            )
    numbers = check_robots_in_play([n for pair in players.values() for n in pair])
    return _deal(numbers, {name: tuple(pair) for name, pair in players.items()}, seed, options)


def _deal(
    numbers: tuple[int, ...],
    control: Mapping[str, tuple[int, ...]],
    seed: int,
    options: Options | None,
) -> GameState:
    rules = options or Options()
    rng = random.Random(seed)
    reserve = build_reserve(numbers, rng, rules)
    dumps, reserve = deal_initial_gears(dumps_in_play(numbers), reserve)
    owner = {n: name for name, robots in control.items() for n in robots}
    seating = sorted(control, key=lambda name: min(control[name]))
    held = deal_upgrade_cards(seating, rules.upgrade_deck, rng) if rules.upgrades else {}
    try:
        players = [Player(name, control[name], held.get(name)) for name in seating]
        return dealt_state((Robot(n, owner[n]) for n in numbers), dumps, reserve, players, rules)
    except InvalidStateError as error:
        raise SetupError(str(error), clause="SET-1") from None


def from_position(
    *,
    robots: Mapping[int, Mapping[str, Iterable[Gear]]],
    dumps: Mapping[int, Iterable[Gear]],
    reserve: Iterable[Gear],
    players: Mapping[str, Sequence[int]] | Sequence[str] | None = None,
    turn: int = 1,
    options: Options | None = None,
    upgrades: Mapping[str, UpgradeCard] | None = None,
) -> GameState:
    """A position entered by hand, as it stands on a real table (SET-5).

    Args:
        robots: ``robot -> {"feet": gears, "circuit": gears}`` (either may be left out).
        dumps: ``dump -> gears`` for every dump in play.
        reserve: The reserve in draw order, next gear first: build it with
            :func:`~outofgears.rules.gears.gears_in_order`, not with ``gears``, which sorts.
        players: ``name -> robots``, as a log's ``players``; or, as :func:`setup_game` takes
            them, the names of one player per robot in ascending robot order; default one
            player ``"P<robot>"`` per robot.
        turn: The number of the next turn.
        options: The rule options.
        upgrades: ``player -> card``: the upgrade cards still held (UPG-1).

    >>> from outofgears import gears, gears_in_order
    >>> state = from_position(robots={1: {"feet": gears(2)}, 2: {}},
    ...                       dumps={1: gears(1), 2: ()}, reserve=gears_in_order(3, 1),
    ...                       players=["Ada", "Bo"])
    >>> state.robot(1).feet == gears(2), state.turn, str(state.reserve[0])
    (True, 1, 'yellow')
    >>> state.player_of(2).name
    'Bo'
    """
    for argument, given in (("robots", robots), ("dumps", dumps)):
        if not isinstance(given, Mapping):
            raise ArgumentTypeError(argument, "a mapping keyed by robot number", given)
    for key, spec in robots.items():
        if not isinstance(spec, Mapping):
            raise ArgumentTypeError(f"robots[{key!r}]", "a mapping of 'feet' and 'circuit'", spec)
    if players is not None and not isinstance(players, Mapping):
        if isinstance(players, str | bytes) or not isinstance(players, Iterable):
            raise ArgumentTypeError(
                "players", "a mapping of names to robot numbers, or a sequence of names", players
            )
        players = _one_robot_each(list(players), sorted(robots))
    for name, numbers in (players or {}).items():
        if isinstance(numbers, str | bytes | Mapping) or not isinstance(numbers, Iterable):
            raise ArgumentTypeError(f"players[{name!r}]", "a sequence of robot numbers", numbers)
    if upgrades is not None and not isinstance(upgrades, Mapping):
        raise ArgumentTypeError("upgrades", "a mapping of names to UpgradeCard", upgrades)
    _expect_options(options)
    control = dict(players) if players is not None else {f"P{n}": (n,) for n in sorted(robots)}
    owner = {n: name for name, numbers in control.items() for n in numbers}
    missing = sorted(set(robots) - set(owner))
    if missing:
        raise InvalidStateError(f"robot {missing[0]} has no player")
    held = dict(upgrades or {})
    for name in sorted(set(held) - set(control)):
        raise InvalidStateError(f"player {name!r} holds an upgrade card but is not in the game")
    for key, value in robots.items():
        for place, pile in value.items():
            if isinstance(pile, str | bytes) or not isinstance(pile, Iterable):
                raise ArgumentTypeError(f"robots[{key!r}][{place!r}]", "an iterable of Gear", pile)
        unknown = set(value) - {"feet", "circuit"}
        if unknown:
            places = ", ".join(repr(place) for place in sorted(unknown))
            raise InvalidStateError(f"robot {key}: no place is called {places}")
    return GameState(
        robots=tuple(
            Robot(
                n,
                owner[n],
                feet=tuple(spec.get("feet", ())),
                circuit=tuple(spec.get("circuit", ())),
            )
            for n, spec in robots.items()
        ),
        dumps=tuple(Dump(n, pile) for n, pile in dumps.items()),
        reserve=reserve,
        players=tuple(
            Player(name, tuple(numbers), held.get(name)) for name, numbers in control.items()
        ),
        turn=turn,
        options=options or Options(),
    )


def _one_robot_each(names: list[object], numbers: list[int]) -> dict[str, tuple[int, ...]]:
    """``name -> (robot,)`` for names given one per robot, in ascending robot order."""
    if len(names) != len(numbers):
        raise SetupError(f"{len(names)} player names for {len(numbers)} robots", clause="SET-1")
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise ArgumentTypeError(f"players[{index}]", "a name", name)
    return {str(name): (number,) for name, number in zip(names, numbers, strict=True)}


def seat_players(robots: int, two_robots: bool = False) -> dict[str, tuple[int, ...]]:
    """The players of a game of robots 1 to ``robots`` seated in order, ``"P1"`` first, and the
    robots each controls: one each, or in the two-robot variant robots ``j`` and
    ``j + robots / 2`` for player ``j`` (VAR-1), as simulations, tournaments and the
    PettingZoo and OpenSpiel adapters seat them.

    >>> seat_players(3)
    {'P1': (1,), 'P2': (2,), 'P3': (3,)}
    >>> seat_players(4, two_robots=True)
    {'P1': (1, 3), 'P2': (2, 4)}
    """
    if not two_robots:
        return {f"P{n}": (n,) for n in range(1, robots + 1)}
    half = robots // 2
    return {f"P{j}": (j, j + half) for j in range(1, half + 1)}


def setup_seated_game(
    robots: int, *, two_robots: bool = False, seed: int, options: Options | None = None
) -> GameState:
    """A new game of robots 1 to ``robots`` seated by :func:`seat_players`.

    >>> [player.robots for player in setup_seated_game(4, two_robots=True, seed=1).players]
    [(1, 3), (2, 4)]
    """
    if two_robots:
        return setup_two_robot_game(seat_players(robots, True), seed=seed, options=options)
    return setup_game(list(range(1, robots + 1)), seed=seed, options=options)
