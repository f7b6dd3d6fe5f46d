"""What one player may know of a game: :func:`observe` and its :class:`Observation`.

A :class:`~outofgears.model.GameState` holds things no player sees: the reserve's draw order
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
                              :class:`~outofgears.model.UpgradeCard` order
``283:515``           232     robot *n*'s program revealed last turn: for *n* = 1-8,
                              29 numbers one-hot by :func:`~outofgears.actions.action_id`
====================  ======  ==========================================================
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Final

from attrs import field, frozen

from outofgears.actions import MAX_ACTIONS, action_id, player_actions
from outofgears.gears import (
    _RANK_BY_ID,
    CANONICAL_GEARS,
    RANKS_OF_SHARED,
    Gear,
    describe_gears,
    gear_rank,
)
from outofgears.model import Dump, GameState, Options, Player, Robot, UpgradeCard
from outofgears.programs import AnyProgram

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


_rank_by_id = _RANK_BY_ID.__getitem__


def _pile_counts(pile: tuple[Gear, ...]) -> list[float]:
    """A pile's counts by gear rank, as the vector holds them (memoized by the pile's gears)."""
    shared = _COUNTS_OF_SHARED.get(id(pile))
    if shared is not None:
        return shared
    known = RANKS_OF_SHARED.get(id(pile))
    if known is not None:  # a shared tuple (gears.gears_of): it lives as long as the module
        shared = [float(known.count(rank)) for rank in range(RANKS)]
        _COUNTS_OF_SHARED[id(pile)] = shared
        return shared
    key = tuple(map(id, pile))
    counts = _PILES.get(key)
    if counts is None:
        counts = [0.0] * RANKS
        try:
            ranks = list(map(_rank_by_id, key))
        except KeyError:  # a gear that is not a shared instance
            ranks = [gear_rank(gear) for gear in pile]
        for rank in ranks:
            counts[rank] += 1.0
        if len(_PILES) > 65536:
            _PILES.clear()
        _PILES[key] = counts
    return counts


#: Counts of the piles seen, by the identities of their gears (the shared instances).
_PILES: dict[tuple[int, ...], list[float]] = {}
#: Counts of the shared multisets (:data:`~outofgears.gears.RANKS_OF_SHARED`), by identity.
_COUNTS_OF_SHARED: dict[int, list[float]] = {}


def _public(state: GameState, revealed: Mapping[int, AnyProgram] | None) -> PublicInfo:
    vector = [0.0] * SIZE
    numbers = []
    for robot in state.robots:
        number = robot.number
        numbers.append(number)
        vector[_IN_PLAY + number - 1] = 1.0
        if robot.feet:
            base = _FEET + (number - 1) * RANKS
            vector[base : base + RANKS] = _pile_counts(robot.feet)
        if robot.circuit:
            base = _CIRCUIT + (number - 1) * RANKS
            vector[base : base + RANKS] = _pile_counts(robot.circuit)
    for dump in state.dumps:
        if dump.gears:
            base = _DUMPS + (dump.number - 1) * RANKS
            vector[base : base + RANKS] = _pile_counts(dump.gears)
    if state.reserve:
        try:
            reserve = list(map(_rank_by_id, map(id, state.reserve)))
        except KeyError:  # a gear that is not a shared instance
            reserve = [gear_rank(gear) for gear in state.reserve]
        vector[_RESERVE : _RESERVE + RANKS] = map(float, map(reserve.count, range(RANKS)))
    players = []
    variant = False
    for player in state.players:
        holds = player.upgrade is not None
        players.append((player.name, player.robots, holds))
        variant = variant or len(player.robots) == 2
        if holds:
            for number in player.robots:
                vector[_HOLDS + number - 1] = 1.0
    vector[0] = float(state.turn)
    vector[1] = float(state.game_over)
    vector[2] = float(len(state.reserve))
    vector[3] = float(variant)
    shown = None
    if revealed is not None:
        shown = tuple(revealed[number] for number in numbers)
        for number, program in zip(numbers, shown, strict=True):
            vector[_REVEALED + (number - 1) * MAX_ACTIONS + action_id(program)] = 1.0
    return PublicInfo(state.options, tuple(players), tuple(numbers), shown, vector)


@frozen
class Observation:
    """What ``player`` may know of a position; build it with :func:`observe`.

    Args:
        player: The observer's name.
        robots: The observer's robots, ascending.
        upgrade: The observer's own upgrade card, if it holds one.
        public: What every player sees (:class:`PublicInfo`).

    >>> from outofgears.setup import setup_game
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
        return self.public.feet[self.public.robot_numbers.index(robot)]

    def circuit(self, robot: int) -> Counts:
        """Robot ``robot``'s circuit as counts by gear rank."""
        return self.public.circuits[self.public.robot_numbers.index(robot)]

    def dump(self, number: int) -> Counts:
        """Dump ``number``'s gears as counts by gear rank."""
        return self.public.dumps[self.public.robot_numbers.index(number)]

    def holds_upgrade(self, player: str) -> bool:
        """Whether ``player`` still holds an upgrade card (which one, only its owner knows)."""
        for name, _, holds in self.public.players:
            if name == player:
                return holds
        raise ValueError(f"player {player!r} is not in the game")

    def own_slots(self) -> tuple[int, ...]:
        """The places of :meth:`to_vector` that hold a 1 for this observer and not in
        :meth:`PublicInfo.vector`: its robots and its upgrade card.

        >>> from outofgears.setup import setup_game
        >>> observe(setup_game([1, 2, 3], seed=7), "P2").own_slots()
        (13,)
        """
        return own_slots(self.robots, self.upgrade)

    def to_vector(self) -> list[float]:
        """The observation as :func:`observation_size` numbers, laid out as the module says.

        >>> from outofgears.setup import setup_game
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

    def to_string(self) -> str:
        """The observation in words, for people.

        >>> from outofgears.setup import setup_game
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
        self, rng: random.Random, *, seen_upgrades: tuple[UpgradeCard, ...] = ()
    ) -> GameState:
        """A position consistent with this observation: what the observer cannot see drawn.

        The reserve's gears are shuffled, and the other players who hold an upgrade card are
        dealt one from the deck less the observer's own card and ``seen_upgrades`` (cards
        seen laid, which are out of the game). Used for information-set search.

        >>> from outofgears.setup import setup_game
        >>> state = setup_game([1, 2, 3], seed=7)
        >>> sampled = observe(state, "P1").sample_state(random.Random(0))
        >>> observe(sampled, "P1") == observe(state, "P1"), sampled.reserve == state.reserve
        (True, False)
        """
        public = self.public
        reserve = [
            CANONICAL_GEARS[rank] for rank, count in enumerate(public.reserve) for _ in range(count)
        ]
        rng.shuffle(reserve)
        pool = Counter(public.options.upgrade_deck)
        if self.upgrade is not None:
            pool[self.upgrade] -= 1
        reduced = pool.copy()
        reduced.subtract(seen_upgrades)
        holders = sum(1 for name, _, holds in public.players if holds and name != self.player)
        if sum(max(0, count) for count in reduced.values()) >= holders:
            pool = reduced
        cards = [card for card in _CARDS for _ in range(max(0, pool[card]))]
        dealt = rng.sample(cards, holders) if holders else []
        players = []
        for name, robots, holds in public.players:
            card: UpgradeCard | None = None
            if name == self.player:
                card = self.upgrade
            elif holds:
                card = dealt.pop()
            players.append(Player(name, robots, card))
        owner = {number: name for name, robots, _ in public.players for number in robots}
        return GameState(
            robots=tuple(
                Robot(
                    number,
                    owner[number],
                    feet=_gears(public.feet[index]),
                    circuit=_gears(public.circuits[index]),
                )
                for index, number in enumerate(public.robot_numbers)
            ),
            dumps=tuple(
                Dump(number, _gears(public.dumps[index]))
                for index, number in enumerate(public.robot_numbers)
            ),
            reserve=tuple(reserve),
            players=tuple(players),
            turn=public.turn,
            options=public.options,
            game_over=public.game_over,
        )

    def legal_actions(self) -> list[int]:
        """The observer's legal moves as numbers (:func:`~outofgears.actions.player_actions`):
        its robot's actions, or its joint actions in the two-robot variant.

        What is legal depends only on what the observer sees, so the moves are those of any
        position consistent with the observation.

        >>> from outofgears.setup import setup_game
        >>> observe(setup_game([2, 5], seed=1), "P2").legal_actions()
        [1, 4, 9, 12, 17, 20]
        """
        key = (
            self.public.robot_numbers,
            self.robots,
            self.upgrade,
            self.public.options.upgrades,
            self.public.game_over,
        )
        moves = _LEGAL.get(key)
        if moves is None:
            if self.public.game_over:
                moves = ()
            else:
                moves = tuple(player_actions(self.sample_state(random.Random(0)), self.player))
            if len(_LEGAL) > 4096:
                _LEGAL.clear()
            _LEGAL[key] = moves
        return list(moves)


#: The legal moves of an observer, by what they depend on: the robots in play, the
#: observer's robots and card, whether the upgrades are on, whether the game is over.
_LEGAL: dict[tuple[object, ...], tuple[int, ...]] = {}


def own_slots(robots: tuple[int, ...], upgrade: UpgradeCard | None) -> tuple[int, ...]:
    """The places of the vector that are 1 for the player of ``robots`` holding ``upgrade``
    and 0 in the shared part (:meth:`Observation.own_slots`).

    >>> own_slots((2, 5), UpgradeCard.SUPER_HARVEST)
    (13, 16, 278)
    """
    slots = [_MINE + number - 1 for number in robots]
    if upgrade is not None:
        slots.append(_OWN_CARD + _CARD_INDEX[upgrade])
    return tuple(slots)


def legal_moves(state: GameState, player: str) -> tuple[int, ...]:
    """``observe(state, player).legal_actions()``, without building the observation.

    >>> from outofgears.setup import setup_game
    >>> legal_moves(setup_game([2, 5], seed=1), "P5")
    (1, 4, 9, 12, 17, 20)
    """
    numbers = tuple([robot.number for robot in state.robots])
    for candidate in state.players:
        if candidate.name == player:
            key = (
                numbers,
                candidate.robots,
                candidate.upgrade,
                state.options.upgrades,
                state.game_over,
            )
            moves = _LEGAL.get(key)
            if moves is None:
                moves = tuple(observe(state, player).legal_actions())
            return moves
    raise ValueError(f"player {player!r} is not in the game")


def _gears(counts: Counts) -> tuple[Gear, ...]:
    return tuple(CANONICAL_GEARS[rank] for rank, count in enumerate(counts) for _ in range(count))


def _describe(counts: Counts) -> str:
    return describe_gears(_gears(counts))


#: The public information of the latest positions observed, by ``id``; the entries hold the
#: states, so an ``id`` is not reused while it is here.
_CACHE: dict[int, tuple[GameState, object, PublicInfo]] = {}
_CACHE_SIZE: Final = 64


def observe(
    state: GameState, player: str, *, revealed: Mapping[int, AnyProgram] | None = None
) -> Observation:
    """What ``player`` (a name, as in ``state.players``) may know of ``state``.

    Args:
        state: The position.
        player: The observer.
        revealed: The programs revealed on the turn that led to ``state``, by robot; a state
            does not keep them, so whoever played the turn passes them on.

    The public part is computed once per position and shared by its players' observations.

    >>> from outofgears.setup import setup_game
    >>> from outofgears.model import Options
    >>> state = setup_game([1, 2, 3], seed=7, options=Options(upgrades=True))
    >>> mine, theirs = observe(state, "P1"), observe(state, "P2")
    >>> mine.upgrade is not None, mine.holds_upgrade("P2"), theirs.upgrade == mine.upgrade
    (True, True, False)
    """
    entry = _CACHE.get(id(state))
    if entry is None or entry[0] is not state or entry[1] is not revealed:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        public = _public(state, revealed)
        _CACHE[id(state)] = (state, revealed, public)
    else:
        public = entry[2]
    for candidate in state.players:
        if candidate.name == player:
            return Observation(player, candidate.robots, candidate.upgrade, public)
    names = ", ".join(repr(candidate.name) for candidate in state.players)
    raise ValueError(f"player {player!r} is not in the game (players: {names})")
