"""What one player may know of a game: :func:`observe` and its :class:`Observation`.

A :class:`~outofgears.rules.model.GameState` holds things no player sees: the reserve's draw order
and, with the upgrades, every player's face-down card. An observation keeps only what the
player may know: every gear on the table (feet, circuits, dumps), the reserve as counts, the
programs revealed on the last turn (when given), the player's own upgrade card and whether each
other player still holds one. Two states that differ only in what a player cannot see give
that player equal observations.

:meth:`Observation.to_vector` lays it out as a flat list of :func:`observation_size` numbers,
the same length for every game (absent robots, dumps and cards are zeros):

====================  ======  ==========================================================
slice                 length  content
====================  ======  ==========================================================
``0:4``               4       turn to play, game over (0/1), gears in the reserve,
                              two-robot variant (0/1)
``4:12``              8       robot *n* in play (0/1), *n* = 1-8
``12:20``             8       robot *n* is the observer's (0/1)
``20:100``            80      robot *n*'s feet: for *n* = 1-8, 10 counts by gear rank
                              (colours 1-8, Jolly, three-point)
``100:180``           80      robot *n*'s circuit, laid out as the feet
``180:260``           80      dump *n*'s gears, laid out as the feet
``260:270``           10      the reserve, counts by gear rank (never its order)
``270:278``           8       robot *n*'s player still holds an upgrade card (0/1)
``278:283``           5       the observer's own upgrade card, one-hot in
                              :class:`~outofgears.rules.model.UpgradeCard` order
``283:515``           232     robot *n*'s program revealed last turn: for *n* = 1-8,
                              29 numbers one-hot by :func:`~outofgears.play.actions.action_id`
====================  ======  ==========================================================

The layout is written once: :func:`shared_vector` lays out what all the players of a position
share (as float32 bytes, which NumPy reads without a copy) and :func:`own_slots` says where an
observer's own 1s go. :func:`observe` and the learning environments both build on the two.
"""

from __future__ import annotations

import functools
import random
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping
from struct import Struct
from typing import Final

from attrs import define, evolve, field, frozen

from outofgears.errors import ArgumentTypeError, InvalidStateError, printable
from outofgears.play.actions import (
    ALL_PROGRAMS,
    BASE_ACTIONS,
    MAX_ACTIONS,
    action_id,
    expect_rng,
    player_actions,
)
from outofgears.rules.gears import (
    CANONICAL_GEARS,
    RANKS_OF_SHARED,
    Gear,
    describe_gears,
    gear_ranks,
)
from outofgears.rules.model import Dump, GameState, Options, Player, Robot, UpgradeCard
from outofgears.rules.programs import AnyProgram
from outofgears.rules.table import drawn_state

#: Gear ranks: the eight colours, Jolly, three-point.
RANKS: Final = len(CANONICAL_GEARS)

_CARDS: Final = tuple(UpgradeCard)
_CARD_INDEX: Final = {card: index for index, card in enumerate(_CARDS)}
_HEADER: Final = 4
_IN_PLAY: Final = _HEADER
_MINE: Final = _IN_PLAY + 8
_FEET: Final = _MINE + 8
_CIRCUIT: Final = _FEET + 8 * RANKS
_DUMPS: Final = _CIRCUIT + 8 * RANKS
_RESERVE: Final = _DUMPS + 8 * RANKS
_HOLDS: Final = _RESERVE + RANKS
_OWN_CARD: Final = _HOLDS + 8
_REVEALED: Final = _OWN_CARD + len(_CARDS)
SIZE: Final = _REVEALED + 8 * MAX_ACTIONS


@functools.cache
def _seat_view(in_play: tuple[int, ...], first: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For :meth:`Observation.to_seat_vector`: where each place of the vector goes, and where
    each program number goes, when robot ``first`` is numbered 1."""
    at = in_play.index(first)
    order = [*in_play[at:], *in_play[:at]]
    order += [n for n in range(1, 9) if n not in order]
    seat = {number: slot for slot, number in enumerate(order)}  # 0-based both

    def rank(r: int) -> int:  # the eight colours are the robots' numbers; Jolly, 3-point stay
        return seat[r + 1] if r < 8 else r

    def program(action: int) -> int:
        if action >= BASE_ACTIONS:
            return action  # the upgrade cards name no robot
        card, number = divmod(action, 8)
        return card * 8 + seat[number + 1]

    places = list(range(SIZE))
    for n in range(1, 9):
        slot = seat[n]
        places[_IN_PLAY + n - 1] = _IN_PLAY + slot
        places[_MINE + n - 1] = _MINE + slot
        places[_HOLDS + n - 1] = _HOLDS + slot
        for base in (_FEET, _CIRCUIT, _DUMPS):
            for r in range(RANKS):
                places[base + (n - 1) * RANKS + r] = base + slot * RANKS + rank(r)
        for action in range(MAX_ACTIONS):
            places[_REVEALED + (n - 1) * MAX_ACTIONS + action] = (
                _REVEALED + slot * MAX_ACTIONS + program(action)
            )
    for r in range(RANKS):
        places[_RESERVE + r] = _RESERVE + rank(r)
    return tuple(places), tuple(program(action) for action in range(MAX_ACTIONS))


def observation_size(options: Options | None = None) -> int:
    """The length of :meth:`Observation.to_vector`: 515 for every game.

    >>> observation_size()
    515
    """
    return SIZE


Counts = tuple[int, ...]


@frozen
class PublicInfo:
    """What every player sees of a position, shared by the observations of its players.

    It keeps the shared part of the vector (:meth:`vector`) and reads the counts from it.

    Args:
        options: The rule options.
        players: Who controls which robots, and whether they still hold an upgrade card
            (never which one).
        robot_numbers: The robots in play, ascending.
        revealed: The programs revealed on the last turn, by robot in play, if known.
    """

    options: Options
    players: tuple[tuple[str, tuple[int, ...], bool], ...]
    robot_numbers: tuple[int, ...]
    revealed: tuple[AnyProgram, ...] | None
    _vector: list[float] = field(repr=False)
    #: The table's robots, dumps and reserve gears as :meth:`Observation.sample_state` builds
    #: them, once (what every player sees: nothing hidden is kept here).
    _table: list[_Table] = field(init=False, factory=list, repr=False, eq=False)

    @property
    def turn(self) -> int:
        """The number of the next turn."""
        return int(self._vector[0])

    @property
    def game_over(self) -> bool:
        """Whether the game has ended."""
        return bool(self._vector[1])

    @property
    def reserve(self) -> Counts:
        """The reserve as counts by gear rank."""
        return self._counts(_RESERVE)

    @property
    def feet(self) -> tuple[Counts, ...]:
        """Each robot's feet as counts by gear rank, in robot order."""
        return tuple(self._counts(_FEET + (n - 1) * RANKS) for n in self.robot_numbers)

    @property
    def circuits(self) -> tuple[Counts, ...]:
        """Each robot's circuit, laid out as :attr:`feet`."""
        return tuple(self._counts(_CIRCUIT + (n - 1) * RANKS) for n in self.robot_numbers)

    @property
    def dumps(self) -> tuple[Counts, ...]:
        """Each dump's gears, laid out as :attr:`feet`."""
        return tuple(self._counts(_DUMPS + (n - 1) * RANKS) for n in self.robot_numbers)

    def vector(self) -> list[float]:
        """The part of every observer's vector that all players share (its own slots at 0)."""
        return self._vector.copy()

    def _counts(self, start: int) -> Counts:
        return tuple(int(value) for value in self._vector[start : start + RANKS])


#: The vector's parts as bytes of native float32 numbers, the form :func:`shared_vector`
#: assembles (``array("f")`` and NumPy read it as it is).
_pack_header: Final = Struct(f"{_HEADER}f").pack
_pack_robots: Final = Struct("8f").pack
_pack_ranks: Final = Struct(f"{RANKS}f").pack
_NO_GEARS: Final = _pack_ranks(*[0.0] * RANKS)
_NO_ROBOTS: Final = _pack_robots(*[0.0] * 8)
_NO_CARD: Final = Struct(f"{len(_CARDS)}f").pack(*[0.0] * len(_CARDS))
_pack_program: Final = Struct(f"{MAX_ACTIONS}f").pack
_NO_PROGRAM: Final = _pack_program(*[0.0] * MAX_ACTIONS)
_NOTHING_REVEALED: Final = _NO_PROGRAM * 8
_ZERO_PARTS: Final = frozenset({_NO_GEARS, _NO_ROBOTS, _NO_CARD, _NO_PROGRAM, _NOTHING_REVEALED})
#: ``_PROGRAM_SHOWN[a]``: a robot's part of the revealed programs when it laid action ``a``.
_PROGRAM_SHOWN: Final = tuple(
    _pack_program(*[float(index == action) for index in range(MAX_ACTIONS)])
    for action in range(MAX_ACTIONS)
)

#: A pile's part of the vector, by the identity of a shared multiset
#: (:data:`~outofgears.rules.gears.RANKS_OF_SHARED`: the tuples live as long as the module).
_PART_OF_SHARED: dict[int, bytes] = {}
#: A pile's part of the vector, by the ranks of its gears (the piles that are not shared).
_PART_OF_RANKS: dict[tuple[int, ...], bytes] = {}
_PARTS_KEPT: Final = 65536


def _counted(ranks: Iterable[int]) -> bytes:
    counts = [0.0] * RANKS
    for rank in ranks:
        counts[rank] += 1.0
    return _pack_ranks(*counts)


def _pile_part(pile: tuple[Gear, ...]) -> bytes:
    """A pile's counts by gear rank, as the vector holds them (memoized)."""
    part = _PART_OF_SHARED.get(id(pile))
    if part is not None:
        return part
    known = RANKS_OF_SHARED.get(id(pile))
    if known is not None:
        part = _PART_OF_SHARED[id(pile)] = _counted(known)
        return part
    ranks = tuple(gear_ranks(pile))
    part = _PART_OF_RANKS.get(ranks)
    if part is None:
        if len(_PART_OF_RANKS) >= _PARTS_KEPT:
            _PART_OF_RANKS.clear()
        part = _PART_OF_RANKS[ranks] = _counted(ranks)
    return part


def shared_vector(
    state: GameState,
    revealed: Mapping[int, int] | None = None,
    *,
    cache: ObservationCache | None = None,
) -> bytes:
    """The part of every observer's :meth:`Observation.to_vector` that its players share (the
    observer's own slots at 0), as :func:`observation_size` native float32 numbers.

    With :func:`own_slots` it is the one definition of the layout: :func:`observe` reads it
    with ``array("f")``, the learning environments with ``numpy.frombuffer``.

    Args:
        state: The position.
        revealed: The programs revealed on the turn that led to ``state``, as
            :func:`~outofgears.play.actions.action_id` numbers by robot, if known.

    >>> from array import array
    >>> from outofgears.rules.setup import setup_game
    >>> vector = array("f", shared_vector(setup_game([1, 2], seed=7)))
    >>> len(vector), vector[:6].tolist()
    (515, [1.0, 0.0, 18.0, 0.0, 1.0, 1.0])
    """
    _check_state(state)
    if revealed is not None and (
        not isinstance(revealed, Mapping)
        or any(type(revealed.get(n)) is not int for n in state.robot_numbers)
    ):
        raise ArgumentTypeError(
            "revealed", "a mapping of every robot in play to an action number", revealed
        )
    return _cache_of(cache).shared_vector(state, revealed)


def _shared_parts(
    state: GameState, revealed: Mapping[int, int] | None, cache: ObservationCache
) -> list[bytes]:
    """The pieces of :func:`shared_vector`, in its order."""
    feet = [_NO_GEARS] * 8
    circuits = [_NO_GEARS] * 8
    dumps = [_NO_GEARS] * 8
    shared = _PART_OF_SHARED.get
    for robot in state.robots:
        index = robot.number - 1
        pile = robot.feet
        feet[index] = shared(id(pile)) or _pile_part(pile)
        pile = robot.circuit
        circuits[index] = shared(id(pile)) or _pile_part(pile)
    for dump in state.dumps:
        pile = dump.gears
        dumps[dump.number - 1] = shared(id(pile)) or _pile_part(pile)
    players = cache.players_seen(state.players)
    reserve = state.reserve
    header = _pack_header(
        float(state.turn), float(state.game_over), float(len(reserve)), players.variant
    )
    if revealed is None:
        shown = [_NOTHING_REVEALED]
    else:
        shown = [_NO_PROGRAM] * 8
        for number in players.robots:
            shown[number - 1] = _PROGRAM_SHOWN[revealed[number]]
    return [
        header,
        players.in_play,
        _NO_ROBOTS,
        *feet,
        *circuits,
        *dumps,
        cache.reserve_part(reserve),
        players.holds,
        _NO_CARD,
        *shown,
    ]


@frozen
class _PlayersSeen:
    """What every player sees of a tuple of players.

    Args:
        players: The players.
        robots: Their robots, the robots in play.
        in_play: Which robots are in play, as the vector holds it.
        holds: Which robots' players hold an upgrade card, as the vector holds it.
        variant: 1.0 in the two-robot variant, else 0.0.
        public: Each player's name, robots and whether it holds a card (never which).
    """

    players: tuple[Player, ...]
    robots: tuple[int, ...]
    in_play: bytes
    holds: bytes
    variant: float
    public: tuple[tuple[str, tuple[int, ...], bool], ...]


def _public(
    state: GameState, revealed: Mapping[int, AnyProgram] | None, cache: ObservationCache
) -> PublicInfo:
    numbers = tuple([robot.number for robot in state.robots])
    shown = None
    actions = None
    if revealed is not None:
        shown = tuple([revealed[number] for number in numbers])
        actions = dict(zip(numbers, map(action_id, shown), strict=True))
    players = cache.players_seen(state.players).public
    return PublicInfo(
        state.options, players, numbers, shown, _as_list(_shared_parts(state, actions, cache))
    )


def _as_list(parts: list[bytes]) -> list[float]:
    """The vector of the pieces as a list: zeros but where a piece has other numbers, whose
    float objects are made once per piece and shared by the lists that hold it."""
    vector = [0.0] * SIZE
    start = 0
    for part in parts:
        size = len(part) >> 2
        if part not in _ZERO_PARTS:
            numbers = _NUMBERS_OF_PART.get(part)
            if numbers is None:
                if len(_NUMBERS_OF_PART) >= _PARTS_KEPT:
                    _NUMBERS_OF_PART.clear()
                numbers = _NUMBERS_OF_PART[part] = array("f", part).tolist()
            vector[start : start + size] = numbers
        start += size
    return vector


#: The numbers of the pieces of :func:`shared_vector` seen, by their bytes.
_NUMBERS_OF_PART: dict[bytes, list[float]] = {}


@frozen
class Observation:
    """What ``player`` may know of a position; build it with :func:`observe`.

    Args:
        player: The observer's name.
        robots: The observer's robots, ascending.
        upgrade: The observer's own upgrade card, if it holds one.
        public: What every player sees (:class:`PublicInfo`).

    >>> from outofgears.rules.setup import setup_game
    >>> observation = observe(setup_game([1, 2, 3], seed=7), "P2")
    >>> observation.robots, observation.turn, sum(observation.reserve_counts)
    ((2,), 1, 27)
    """

    player: str
    robots: tuple[int, ...]
    upgrade: UpgradeCard | None
    public: PublicInfo

    @property
    def turn(self) -> int:
        """The number of the next turn."""
        return self.public.turn

    @property
    def game_over(self) -> bool:
        """Whether the game has ended."""
        return self.public.game_over

    @property
    def options(self) -> Options:
        """The rule options in force."""
        return self.public.options

    @property
    def robot_numbers(self) -> tuple[int, ...]:
        """The robots in play, ascending."""
        return self.public.robot_numbers

    @property
    def reserve_counts(self) -> Counts:
        """The reserve as counts by gear rank (colours 1-8, Jolly, three-point)."""
        return self.public.reserve

    @property
    def revealed(self) -> dict[int, AnyProgram] | None:
        """The programs revealed on the last turn, by robot, when :func:`observe` was told."""
        shown = self.public.revealed
        if shown is None:
            return None
        return dict(zip(self.public.robot_numbers, shown, strict=True))

    def feet(self, robot: int) -> Counts:
        """Robot ``robot``'s feet as counts by gear rank."""
        return self.public.feet[self._index("robot", robot)]

    def circuit(self, robot: int) -> Counts:
        """Robot ``robot``'s circuit as counts by gear rank."""
        return self.public.circuits[self._index("robot", robot)]

    def dump(self, number: int) -> Counts:
        """Dump ``number``'s gears as counts by gear rank."""
        return self.public.dumps[self._index("dump", number)]

    def _index(self, what: str, number: object) -> int:
        numbers = self.public.robot_numbers
        if type(number) is not int:
            raise ArgumentTypeError(what, f"a {what} number (int)", number)
        if number not in numbers:
            raise InvalidStateError(
                f"{what} {number} is not in play (in play: {', '.join(map(str, numbers))})"
            )
        return numbers.index(number)

    def holds_upgrade(self, player: str) -> bool:
        """Whether ``player`` still holds an upgrade card (which one, only its owner knows)."""
        for name, _, holds in self.public.players:
            if name == player:
                return holds
        raise InvalidStateError(f"player {printable(repr(player))} is not in the game")

    def own_slots(self) -> tuple[int, ...]:
        """The places of :meth:`to_vector` that hold a 1 for this observer and not in
        :meth:`PublicInfo.vector`: its robots and its upgrade card.

        >>> from outofgears.rules.setup import setup_game
        >>> observe(setup_game([1, 2, 3], seed=7), "P2").own_slots()
        (13,)
        """
        return own_slots(self.robots, self.upgrade)

    def to_vector(self) -> list[float]:
        """The observation as :func:`observation_size` numbers, laid out as the module says.

        >>> from outofgears.rules.setup import setup_game
        >>> vector = observe(setup_game([1, 2, 3], seed=7), "P2").to_vector()
        >>> len(vector), vector[4:12], vector[12:20]
        (515, [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
        """
        vector = self.public._vector.copy()
        for number in self.robots:
            vector[_MINE + number - 1] = 1.0
        if self.upgrade is not None:
            vector[_OWN_CARD + _CARD_INDEX[self.upgrade]] = 1.0
        return vector

    def to_seat_vector(self) -> tuple[list[float], tuple[int, ...]]:
        """:meth:`to_vector` seen from the observer's seat, and where each program number goes.

        A robot's number is also its dump's and its own colour's (SET-2). Here the robots
        are renumbered so that the observer's (first) robot is 1 and the others in play follow
        in the order of their numbers, wrapping round (robots 2, 5, 7 seen by robot 5 are 1,
        2, 3 as 5, 7, 2); the robots not in play follow. Every place of the vector that names
        a robot, a dump, a colour or a program's number is renumbered so; the second item maps
        each program number (:mod:`outofgears.play.actions`) to its number in that view. Two
        games that differ only by such a renumbering give the same view, so a learner that
        reads it learns one seat, not every seat apart.

        >>> from outofgears.rules.setup import setup_game
        >>> vector, programs = observe(setup_game([2, 5, 7], seed=7), "P5").to_seat_vector()
        >>> vector[4:12], vector[12:20]
        ([1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
        >>> programs[16 + 7 - 1], programs[16 + 2 - 1]  # harvest 7 and harvest 2, seen from 5
        (17, 18)
        """
        places, programs = _seat_view(self.public.robot_numbers, self.robots[0])
        vector = [0.0] * SIZE
        for index, value in enumerate(self.to_vector()):
            if value:
                vector[places[index]] = value
        return vector, programs

    def to_string(self) -> str:
        """The observation in words, for people.

        >>> from outofgears.rules.setup import setup_game
        >>> print(observe(setup_game([1, 2], seed=7), "P1").to_string())
        P1 (robot 1), before turn 1
        reserve: 10 red, 8 orange (order unknown)
        robot 1 (P1, holds no upgrade): feet none, circuit none
        robot 2 (P2, holds no upgrade): feet none, circuit none
        dump 1: 1 red, 1 orange
        dump 2: 2 orange
        """
        public = self.public
        robots = ", ".join(str(n) for n in self.robots)
        when = "game over" if public.game_over else f"before turn {public.turn}"
        card = f", holding {self.upgrade.value}" if self.upgrade is not None else ""
        label = "robots" if len(self.robots) > 1 else "robot"
        lines = [f"{self.player} ({label} {robots}{card}), {when}"]
        lines.append(f"reserve: {_describe(public.reserve)} (order unknown)")
        owners = {
            number: (name, holds) for name, robots_, holds in public.players for number in robots_
        }
        for index, number in enumerate(public.robot_numbers):
            name, holds = owners[number]
            upgrade = "holds an upgrade" if holds else "holds no upgrade"
            shown = ""
            if public.revealed is not None:
                shown = f", laid {public.revealed[index]}"
            lines.append(
                f"robot {number} ({name}, {upgrade}): feet {_describe(public.feet[index])}, "
                f"circuit {_describe(public.circuits[index])}{shown}"
            )
        for index, number in enumerate(public.robot_numbers):
            lines.append(f"dump {number}: {_describe(public.dumps[index])}")
        return "\n".join(lines)

    def sample_state(
        self,
        rng: random.Random,
        *,
        seen_upgrades: tuple[UpgradeCard, ...] = (),
        shuffle_reserve: bool = True,
    ) -> GameState:
        """A position consistent with this observation: what the observer cannot see drawn.

        The reserve's gears are shuffled, and the other players who hold an upgrade card are
        dealt one from the deck less the observer's own card and ``seen_upgrades`` (cards
        seen laid, which are out of the game). Used for information-set search.

        With ``shuffle_reserve=False`` the reserve is left in the order of its gears' ranks
        and only the upgrade cards are drawn: for a search that reads nothing the reserve's
        order decides, such as the points after one turn (only exploration draws from the
        reserve, at the end of the turn, EXP-1; scores do not count the dumps, END-2).

        >>> from outofgears.rules.setup import setup_game
        >>> state = setup_game([1, 2, 3], seed=7)
        >>> sampled = observe(state, "P1").sample_state(random.Random(0))
        >>> observe(sampled, "P1") == observe(state, "P1"), sampled.reserve == state.reserve
        (True, False)
        """
        expect_rng(rng)
        if not isinstance(seen_upgrades, tuple) or not all(
            isinstance(card, UpgradeCard) for card in seen_upgrades
        ):
            raise ArgumentTypeError("seen_upgrades", "a tuple of UpgradeCard", seen_upgrades)
        public = self.public
        table = _table_of(public)
        reserve = table.gears.copy()
        if shuffle_reserve:
            rng.shuffle(reserve)
        players = table.players
        if players is None:
            players = self._dealt_players(rng, seen_upgrades)
        if not table.checked:
            table.checked = True
            return GameState(
                robots=table.robots,
                dumps=table.dumps,
                reserve=tuple(reserve),
                players=players,
                turn=public.turn,
                options=public.options,
                game_over=public.game_over,
            )
        return drawn_state(
            table.robots,
            table.dumps,
            tuple(reserve),
            players,
            public.turn,
            public.options,
            public.game_over,
        )

    def _dealt_players(
        self, rng: random.Random, seen_upgrades: tuple[UpgradeCard, ...]
    ) -> tuple[Player, ...]:
        """The players, the others who hold an upgrade card dealt one from the deck less the
        observer's own card and ``seen_upgrades``."""
        public = self.public
        table = _table_of(public)
        key = (self.player, self.upgrade, seen_upgrades)
        deck = table.decks.get(key)
        if deck is None:
            holders = sum(1 for name, _, holds in public.players if holds and name != self.player)
            deck = table.decks[key] = (
                _hidden_deck(public, self.upgrade, seen_upgrades, holders),
                holders,
            )
        dealt = rng.sample(*deck) if deck[1] else []
        cards: list[UpgradeCard | None] = []
        for name, _, holds in public.players:
            card: UpgradeCard | None = None
            if name == self.player:
                card = self.upgrade
            elif holds:
                card = dealt.pop()
            cards.append(card)
        # The same cards dealt again are the same players: built once per table.
        players = table.dealt.get(tuple(cards))
        if players is None:
            players = table.dealt[tuple(cards)] = tuple(
                Player(name, robots, card)
                for (name, robots, _), card in zip(public.players, cards, strict=True)
            )
        return players

    def legal_actions(self) -> list[int]:
        """The observer's legal moves as numbers (:func:`~outofgears.play.actions.player_actions`):
        its robot's actions, or its joint actions in the two-robot variant; none once the
        game is over.

        What is legal depends only on what the observer sees, so the moves are those of any
        position consistent with the observation.

        >>> from outofgears.rules.setup import setup_game
        >>> observe(setup_game([2, 5], seed=1), "P2").legal_actions()
        [1, 4, 9, 12, 17, 20]
        """
        public = self.public
        if public.game_over:
            return []
        key = (public.robot_numbers, self.robots, public.options)
        by_card = _MOVES_OF_SEAT.get(key)
        if by_card is None:
            if len(_MOVES_OF_SEAT) >= _SEATS_KEPT:
                _MOVES_OF_SEAT.clear()
            by_card = _MOVES_OF_SEAT[key] = _moves_by_card(self)
        return list(by_card[self.upgrade])


def _hidden_deck(
    public: PublicInfo,
    own: UpgradeCard | None,
    seen_upgrades: tuple[UpgradeCard, ...],
    holders: int,
) -> list[UpgradeCard]:
    """The cards the ``holders`` other players who hold one are dealt from: the deck less the
    observer's ``own`` card and, when enough are left, the cards seen laid."""
    if not holders:
        return []
    pool = Counter(public.options.upgrade_deck)
    if own is not None:
        pool[own] -= 1
    reduced = pool.copy()
    reduced.subtract(seen_upgrades)
    if sum(max(0, count) for count in reduced.values()) >= holders:
        pool = reduced
    return [card for card in _CARDS for _ in range(max(0, pool[card]))]


@define
class _Table:
    """What every position drawn from one :class:`PublicInfo` shares, built once: the robots,
    the dumps, the reserve's gears in rank order, the players when nobody holds an upgrade
    card (else ``None``: each draw deals the hidden cards), and whether a position drawn from
    it went through :class:`~outofgears.rules.model.GameState`'s checks. The draws after the
    first differ from it only in the reserve's order and the cards dealt from the deck, which
    those checks do not read, and are put together without them
    (:func:`~outofgears.rules.table.drawn_state`)."""

    robots: tuple[Robot, ...]
    dumps: tuple[Dump, ...]
    gears: list[Gear]
    players: tuple[Player, ...] | None
    checked: bool = False
    #: By observer, its card and the cards seen laid: the cards the others are dealt from,
    #: and how many of them hold one.
    decks: dict[
        tuple[str, UpgradeCard | None, tuple[UpgradeCard, ...]], tuple[list[UpgradeCard], int]
    ] = field(factory=dict)
    #: The players dealt each set of cards (one per seat), built once.
    dealt: dict[tuple[UpgradeCard | None, ...], tuple[Player, ...]] = field(factory=dict)


def _table_of(public: PublicInfo) -> _Table:
    """The parts of the positions that ``public`` describes, built once per
    :class:`PublicInfo`."""
    table = public._table
    if not table:
        owner = {number: name for name, robots, _ in public.players for number in robots}
        feet, circuits, piles = public.feet, public.circuits, public.dumps
        robots = tuple(
            Robot(number, owner[number], feet=_gears(feet[index]), circuit=_gears(circuits[index]))
            for index, number in enumerate(public.robot_numbers)
        )
        dumps = tuple(
            Dump(number, _gears(piles[index])) for index, number in enumerate(public.robot_numbers)
        )
        players = (
            None
            if any(holds for _, _, holds in public.players)
            else tuple(Player(name, numbers) for name, numbers, _ in public.players)
        )
        table.append(_Table(robots, dumps, list(_gears(public.reserve)), players))
    return table[0]


def _moves_by_card(observation: Observation) -> dict[UpgradeCard | None, tuple[int, ...]]:
    """The legal moves of an observer's seat for every upgrade card it could hold (none, or
    each card when the upgrades are on), from a position consistent with what it sees."""
    state = observation.sample_state(random.Random(0))
    cards: tuple[UpgradeCard | None, ...] = (None,)
    if state.options.upgrades:
        cards += tuple(card for card in _CARDS if card in state.options.upgrade_deck)
    moves = {}
    for card in cards:
        players = tuple(
            evolve(player, upgrade=card if player.name == observation.player else None)
            for player in state.players
        )
        moves[card] = tuple(player_actions(evolve(state, players=players), observation.player))
    return moves


#: The legal moves of a seat (the robots in play, the seat's robots, the options), for each card the seat could hold. Every card is filled in at once, so the table says
#: nothing of which card anyone holds: it is the rules' answer for the seat, nothing of a game.
_MOVES_OF_SEAT: dict[
    tuple[tuple[int, ...], tuple[int, ...], Options], dict[UpgradeCard | None, tuple[int, ...]]
] = {}
_SEATS_KEPT: Final = 4096


def own_slots(robots: tuple[int, ...], upgrade: UpgradeCard | None) -> tuple[int, ...]:
    """The places of the vector that are 1 for the player of ``robots`` holding ``upgrade``
    and 0 in the shared part (:meth:`Observation.own_slots`).

    >>> own_slots((2, 5), UpgradeCard.SUPER_HARVEST)
    (13, 16, 278)
    """
    if not isinstance(robots, tuple) or not all(
        type(number) is int and 1 <= number <= 8 for number in robots
    ):
        raise ArgumentTypeError("robots", "a tuple of robot numbers (1-8)", robots)
    if upgrade is not None and not isinstance(upgrade, UpgradeCard):
        raise ArgumentTypeError("upgrade", "an UpgradeCard or None", upgrade)
    slots = [_MINE + number - 1 for number in robots]
    if upgrade is not None:
        slots.append(_OWN_CARD + _CARD_INDEX[upgrade])
    return tuple(slots)


def legal_moves(state: GameState, player: str) -> tuple[int, ...]:
    """``observe(state, player).legal_actions()`` (:meth:`ObservationCache.legal_moves` keeps
    them for a game).

    >>> from outofgears.rules.setup import setup_game
    >>> legal_moves(setup_game([2, 5], seed=1), "P5")
    (1, 4, 9, 12, 17, 20)
    """
    return ObservationCache().legal_moves(state, player)


def _gears(counts: Counts) -> tuple[Gear, ...]:
    return tuple(CANONICAL_GEARS[rank] for rank, count in enumerate(counts) for _ in range(count))


def _describe(counts: Counts) -> str:
    return describe_gears(_gears(counts))


def _cache_of(cache: object) -> ObservationCache:
    """The caches given, or new ones for a call made outside a game."""
    if cache is None:
        return ObservationCache()
    if not isinstance(cache, ObservationCache):
        raise ArgumentTypeError("cache", "an ObservationCache", cache)
    return cache


def observe(
    state: GameState,
    player: str,
    *,
    revealed: Mapping[int, AnyProgram] | None = None,
    cache: ObservationCache | None = None,
) -> Observation:
    """What ``player`` (a name, as in ``state.players``) may know of ``state``.

    Args:
        state: The position.
        player: The observer.
        revealed: The programs revealed on the turn that led to ``state``, by robot; a state
            does not keep them, so whoever played the turn passes them on.
        cache: The caches of the game being played (:class:`ObservationCache`), kept by
            whoever plays it; without it nothing is kept.

    >>> from outofgears.rules.setup import setup_game
    >>> from outofgears.rules.model import Options
    >>> state = setup_game([1, 2, 3], seed=7, options=Options(upgrades=True))
    >>> mine, theirs = observe(state, "P1"), observe(state, "P2")
    >>> mine.upgrade is not None, mine.holds_upgrade("P2"), theirs.upgrade == mine.upgrade
    (True, True, False)
    """
    return _cache_of(cache).observe(state, player, revealed=revealed)


def _check_state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise ArgumentTypeError("state", "a GameState", state)
    return state


def _player_of(state: GameState, player: object) -> Player:
    if type(player) is not str:
        raise ArgumentTypeError("player", "a player's name (str)", player)
    for candidate in state.players:
        if candidate.name == player:
            return candidate
    names = ", ".join(repr(candidate.name) for candidate in state.players)
    raise InvalidStateError(
        f"player {printable(repr(player))} is not in the game (players: {printable(names)})"
    )


#: How many positions, sets of players and reserves an :class:`ObservationCache` keeps.
_POSITIONS_KEPT: Final = 64
_PLAYERS_KEPT: Final = 64
_RESERVES_KEPT: Final = 8


@define
class ObservationCache:
    """What the observations of one game's positions share, kept by whoever plays the game.

    A position's public part is computed once and shared by its players' observations; a
    reserve is counted from the one before it; a player's legal moves are looked up by what
    they depend on. These caches hold true positions (the reserve's order, everyone's upgrade
    cards), so they belong to the object that runs a game (:func:`~outofgears.play.bots.play_match`,
    the learning environments) and go with it: no module keeps one, and a bot, which receives
    an :class:`Observation`, never reaches it.

    >>> from outofgears.rules.setup import setup_game
    >>> cache, state = ObservationCache(), setup_game([1, 2, 3], seed=7)
    >>> cache.observe(state, "P1").public is cache.observe(state, "P2").public
    True
    """

    _positions: dict[int, tuple[GameState, object, PublicInfo]] = field(factory=dict)
    _players: dict[int, _PlayersSeen] = field(factory=dict)
    #: The latest reserves counted, the most recent first: each with the ranks of the reserve
    #: it was counted from, where it starts in them, and its counts by gear rank. Gears leave
    #: the reserve from its front (exploration, EXP-1), so a later position's reserve is
    #: usually the end of one counted before, and is counted from it by the few gears drawn.
    _reserves: list[tuple[tuple[Gear, ...], list[int], int, list[float]]] = field(factory=list)

    def observe(
        self,
        state: GameState,
        player: str,
        *,
        revealed: Mapping[int, AnyProgram] | None = None,
    ) -> Observation:
        """:func:`observe`, the public part shared with the position's other observations."""
        entry = self._positions.get(id(state))
        if entry is None or entry[0] is not state or entry[1] is not revealed:
            _check_state(state)
            if revealed is not None:
                _check_revealed(state, revealed)
            if len(self._positions) >= _POSITIONS_KEPT:
                self._positions.clear()
            public = _public(state, revealed, self)
            self._positions[id(state)] = (state, revealed, public)
        else:
            public = entry[2]
        seat = _player_of(state, player)
        return Observation(player, seat.robots, seat.upgrade, public)

    def shared_vector(self, state: GameState, revealed: Mapping[int, int] | None) -> bytes:
        """:func:`shared_vector`, for the caller that owns the game and built its arguments
        (not checked again)."""
        return b"".join(_shared_parts(state, revealed, self))

    def legal_moves(self, state: GameState, player: str) -> tuple[int, ...]:
        """The legal moves of ``player`` in ``state``, as :meth:`Observation.legal_actions`."""
        return tuple(self.observe(state, player).legal_actions())

    def players_seen(self, players: tuple[Player, ...]) -> _PlayersSeen:
        """What every player sees of ``players`` (by the tuple's identity: a turn passes it
        on unchanged unless a card is laid)."""
        seen = self._players.get(id(players))
        if seen is not None and seen.players is players:
            return seen
        in_play = [0.0] * 8
        holds = [0.0] * 8
        variant = 0.0
        for player in players:
            if len(player.robots) == 2:
                variant = 1.0
            for number in player.robots:
                in_play[number - 1] = 1.0
                if player.upgrade is not None:
                    holds[number - 1] = 1.0
        public = tuple(
            (player.name, player.robots, player.upgrade is not None) for player in players
        )
        robots = tuple(number for player in players for number in player.robots)
        in_play_part, holds_part = _pack_robots(*in_play), _pack_robots(*holds)
        seen = _PlayersSeen(players, robots, in_play_part, holds_part, variant, public)
        if len(self._players) >= _PLAYERS_KEPT:
            self._players.clear()
        self._players[id(players)] = seen
        return seen

    def reserve_part(self, reserve: tuple[Gear, ...]) -> bytes:
        """The reserve's counts by gear rank, as the vector holds them."""
        size = len(reserve)
        if not size:
            return _NO_GEARS
        last = reserve[-1]
        kept = self._reserves
        for seen, ranks, start, seen_counts in tuple(kept):
            drawn = len(seen) - size
            if drawn >= 0 and seen[-1] is last and seen[drawn:] == reserve:
                if not drawn:
                    return _pack_ranks(*seen_counts)
                counts = seen_counts.copy()
                for rank in ranks[start : start + drawn]:
                    counts[rank] -= 1.0
                start += drawn
                break
        else:
            ranks = gear_ranks(reserve)
            start = 0
            counts = [0.0] * RANKS
            for rank in ranks:
                counts[rank] += 1.0
        kept.insert(0, (reserve, ranks, start, counts))
        del kept[_RESERVES_KEPT:]
        return _pack_ranks(*counts)


_PROGRAM_NUMBERS: Final = frozenset(ALL_PROGRAMS)


def _check_revealed(state: GameState, revealed: object) -> None:
    if not isinstance(revealed, Mapping):
        raise ArgumentTypeError("revealed", "a mapping of robot numbers to programs", revealed)
    for robot in state.robot_numbers:
        program = revealed.get(robot)
        if program is None or program not in _PROGRAM_NUMBERS:
            raise InvalidStateError(
                f"revealed has no program for robot {robot} (it gives one for every robot in play)"
            )


#: The public names of this module (the rest serves them).
__all__ = [
    "Observation",
    "ObservationCache",
    "PublicInfo",
    "legal_moves",
    "observation_size",
    "observe",
    "own_slots",
    "shared_vector",
]
