"""Hypothesis strategies, legal random programs and choices, and a random-policy game runner.

Everything random here goes through a :class:`Chooser`, which picks one item of a
sequence either from a seeded :class:`random.Random` or from hypothesis draws. The same
code therefore serves hypothesis strategies (``legal_programs(state)``), interactive
draws inside a test (``data.draw``) and long seeded games (``play_random_game``).

* Robots and setups: :func:`robots_in_play`, :func:`two_robot_control`, :func:`options`,
  :func:`one_robot_setups`, :func:`two_robot_setups`, :func:`setups`.
* Arbitrary positions (SET-5): :func:`position_specs` and :func:`positions`; a
  :class:`PositionSpec` builds the same position again on demand.
* Programs: :func:`random_programs` and :func:`legal_programs` (partners in the two-robot
  variant lay different action cards, VAR-2), :func:`harvesting_programs` (one robot alone
  on a dump, so the game must end), :func:`every_legal_programs` (exhaustive enumeration).
* Post-reveal choices: :func:`random_split`, :func:`random_choices`, :func:`legal_choices`.
* Whole games: :func:`play_random_game`.

The expansions (spec/expansions.md) are off unless asked for: ``expansions=True`` on
:func:`options`, the setups and the positions switches on any combination of the Robot
Upgrades (with the default deck or a random one), the Jolly gears, the three-point gears
and, where setup allows it (fewer than eight robots, REF-2), ``pad_reserve``. Positions
then hold up to four gears of each expansion kind that is on and players may hold upgrade
cards drawn from the deck (UPG-1), and the legal programs of a robot include its player's
held card (UPG-2), laid by at most one robot of a player (UPG-4).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Literal, TypeVar

from attrs import frozen
from hypothesis import strategies as st

from outofgears import (
    Action,
    Choices,
    DefenceSteal,
    Event,
    GameState,
    Gear,
    GearMoved,
    Options,
    Place,
    PlaceKind,
    Player,
    Program,
    SplitResolved,
    TurnEnded,
    TurnResult,
    from_position,
    resolve_turn,
    setup_game,
    setup_two_robot_game,
)
from outofgears.rules.attacks import attackers_by_target, choose_defence_steal, standing_defenders
from outofgears.rules.gears import (
    EXPANSION_GEARS_PER_KIND,
    GEARS_PER_COLOUR,
    JOLLY,
    THREE_POINT,
    GearKind,
    taking_order,
)
from outofgears.rules.model import DEFAULT_UPGRADE_DECK, UpgradeCard
from outofgears.rules.programs import AnyProgram, ProgramReading, UpgradeProgram
from outofgears.rules.sharing import own_colour_quota, share_size
from tests.helpers import GearTable

T = TypeVar("T")

ROBOT_NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8)
ACTIONS: tuple[Action, ...] = (Action.ATTACK, Action.TRAP, Action.HARVEST)
DEFENCE_STEAL_SOURCES: tuple[Literal["feet_or_circuit", "feet_only"], ...] = (
    "feet_or_circuit",
    "feet_only",
)
ASSEMBLY_RULES: tuple[Literal["mandatory", "optional"], ...] = ("mandatory", "optional")
PLAYER_NAMES: tuple[str, ...] = ("Ada", "Bo", "Cy", "Di")
UPGRADE_CARDS: tuple[UpgradeCard, ...] = tuple(UpgradeCard)

#: The clauses under which a defender takes its gear from an attacker: ATK-4 from a robot
#: that attacked it with a card, SATK-2 from a Super Attacker.
DEFENCE_STEAL_CLAUSES = frozenset({"ATK-4", "SATK-2"})

#: A hypothesis ``draw`` function (the argument of an ``@st.composite`` body, or ``data.draw``).
Draw = Callable[[st.SearchStrategy[Any]], Any]


# --------------------------------------------------------------------------- choosing


class Chooser:
    """Picks items at random: from a seeded :class:`random.Random` or from hypothesis draws.

    Hypothesis draws shrink towards the first item of each sequence, so put the simplest
    option first.
    """

    __slots__ = ("_pick",)

    def __init__(self, pick_index: Callable[[int], int]) -> None:
        self._pick = pick_index

    @classmethod
    def from_random(cls, rng: random.Random) -> Chooser:
        """Choices from a seeded generator (never the global one)."""
        return cls(rng.randrange)

    @classmethod
    def from_draw(cls, draw: Draw) -> Chooser:
        """Choices drawn by hypothesis (``draw`` of a composite, or ``data.draw``)."""

        def pick(size: int) -> int:
            index: int = draw(_indices(size))
            return index

        return cls(pick)

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``, which must not be empty."""
        if not items:
            raise ValueError("nothing to choose from")
        return items[self._pick(len(items))]

    def coin(self) -> bool:
        """True or false, false first when shrinking."""
        return self.choice((False, True))

    def sample(self, items: Sequence[T], count: int) -> list[T]:
        """``count`` items of ``items`` without replacement (by position), in drawn order."""
        pool = list(items)
        picked: list[T] = []
        for _ in range(count):
            picked.append(pool.pop(self._pick(len(pool))))
        return picked


@functools.cache
def _indices(size: int) -> st.SearchStrategy[int]:
    # Built once per size: a Chooser picks many times per example.
    return st.integers(min_value=0, max_value=size - 1)


def as_chooser(source: random.Random | st.DataObject | Chooser) -> Chooser:
    """A :class:`Chooser` for a seeded generator, a hypothesis ``data`` object, or itself."""
    if isinstance(source, Chooser):
        return source
    if isinstance(source, random.Random):
        return Chooser.from_random(source)
    return Chooser.from_draw(source.draw)


# --------------------------------------------------------------------------- setups


def robots_in_play(min_robots: int = 2, max_robots: int = 8) -> st.SearchStrategy[tuple[int, ...]]:
    """Distinct robot numbers 1-8, ascending (SET-1)."""
    return st.lists(
        st.sampled_from(ROBOT_NUMBERS), min_size=min_robots, max_size=max_robots, unique=True
    ).map(lambda numbers: tuple(sorted(numbers)))


@st.composite
def two_robot_control(
    draw: Draw, min_players: int = 2, max_players: int = 4
) -> dict[str, tuple[int, int]]:
    """Who controls what in the two-robot variant: 2-4 players, two distinct robots each."""
    count: int = draw(st.integers(min_value=min_players, max_value=max_players))
    numbers: list[int] = draw(st.permutations(ROBOT_NUMBERS))
    return {PLAYER_NAMES[i]: (numbers[2 * i], numbers[2 * i + 1]) for i in range(count)}


#: Mostly true: switches that the expansion tests want on more often than not.
MOSTLY: tuple[bool, ...] = (False, True, True, True)


def upgrade_decks(min_cards: int = 1) -> st.SearchStrategy[tuple[UpgradeCard, ...]]:
    """The default upgrade deck (R-UPG-DECK), a deck of ten cards of one kind (so that every
    player holds the same card and they meet), or any deck of at least ``min_cards`` cards."""
    return st.one_of(
        st.just(DEFAULT_UPGRADE_DECK),
        st.sampled_from(UPGRADE_CARDS).map(lambda card: (card,) * 10),
        st.lists(st.sampled_from(UPGRADE_CARDS), min_size=min_cards, max_size=12).map(tuple),
    )


@st.composite
def options(draw: Draw, *, expansions: bool = False, players: int = 1, robots: int = 8) -> Options:
    """Every combination of the rule options (R-DEFENCE, R-ASSEMBLY).

    With ``expansions``, also any combination of the expansions: the upgrades with a deck
    of at least ``players`` cards (UPG-1), the Jolly gears, the three-point gears, and
    ``pad_reserve`` when fewer than eight of ``robots`` are in play (REF-2).
    """
    source: Literal["feet_or_circuit", "feet_only"] = draw(st.sampled_from(DEFENCE_STEAL_SOURCES))
    assembly: Literal["mandatory", "optional"] = draw(st.sampled_from(ASSEMBLY_RULES))
    if not expansions:
        return Options(defence_steal_source=source, assembly=assembly)
    upgrades: bool = draw(st.sampled_from(MOSTLY))
    deck: tuple[UpgradeCard, ...] = (
        draw(upgrade_decks(max(players, 1))) if upgrades else DEFAULT_UPGRADE_DECK
    )
    return Options(
        defence_steal_source=source,
        assembly=assembly,
        upgrades=upgrades,
        upgrade_deck=deck,
        jolly_gears=draw(st.booleans()),
        three_point_gears=draw(st.booleans()),
        pad_reserve=draw(st.booleans()) if robots < len(ROBOT_NUMBERS) else False,
    )


def seeds() -> st.SearchStrategy[int]:
    """Seeds for the setup shuffle."""
    return st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def one_robot_setups(
    draw: Draw, min_robots: int = 2, max_robots: int = 8, *, expansions: bool = False
) -> GameState:
    """A new game, one robot per player (SET-1 to SET-4; UPG-1, JOL-1, TRI-1, REF-2)."""
    robots: tuple[int, ...] = draw(robots_in_play(min_robots, max_robots))
    rules = draw(options(expansions=expansions, players=len(robots), robots=len(robots)))
    state: GameState = setup_game(robots, seed=draw(seeds()), options=rules)
    return state


@st.composite
def two_robot_setups(
    draw: Draw, min_players: int = 2, max_players: int = 4, *, expansions: bool = False
) -> GameState:
    """A new game of the two-robot variant (VAR-1; UPG-1, UPG-4, JOL-1, TRI-1, REF-2)."""
    control: dict[str, tuple[int, int]] = draw(two_robot_control(min_players, max_players))
    rules = draw(options(expansions=expansions, players=len(control), robots=2 * len(control)))
    state: GameState = setup_two_robot_game(control, seed=draw(seeds()), options=rules)
    return state


def setups(*, expansions: bool = False) -> st.SearchStrategy[GameState]:
    """A new game, either variant."""
    return st.one_of(
        one_robot_setups(expansions=expansions), two_robot_setups(expansions=expansions)
    )


# --------------------------------------------------------------------------- positions


@frozen
class PositionSpec:
    """The ingredients of a position entered by hand (SET-5); :meth:`build` makes it."""

    feet: tuple[tuple[int, tuple[Gear, ...]], ...]
    circuits: tuple[tuple[int, tuple[Gear, ...]], ...]
    dumps: tuple[tuple[int, tuple[Gear, ...]], ...]
    reserve: tuple[Gear, ...]
    players: tuple[tuple[str, tuple[int, ...]], ...]
    options: Options
    turn: int
    upgrades: tuple[tuple[str, UpgradeCard], ...] = ()

    def build(self) -> GameState:
        """A fresh :class:`GameState` from these ingredients."""
        circuits = dict(self.circuits)
        return from_position(
            robots={n: {"feet": pile, "circuit": circuits[n]} for n, pile in self.feet},
            dumps=dict(self.dumps),
            reserve=self.reserve,
            players=dict(self.players),
            turn=self.turn,
            options=self.options,
            upgrades=dict(self.upgrades),
        )


def expansion_gear_kinds(rules: Options) -> tuple[Gear, ...]:
    """The gears of the expansions that ``rules`` switch on (JOL-1, TRI-1)."""
    return ((JOLLY,) if rules.jolly_gears else ()) + (
        (THREE_POINT,) if rules.three_point_gears else ()
    )


def gear_piles(max_size: int, extra: Sequence[Gear] = ()) -> st.SearchStrategy[tuple[Gear, ...]]:
    """Up to ``max_size`` gears of any colours 1-8, or of the ``extra`` kinds."""
    return _gear_piles(max_size, tuple(extra))


@functools.cache
def _gear_piles(max_size: int, extra: tuple[Gear, ...]) -> st.SearchStrategy[tuple[Gear, ...]]:
    # One strategy per shape, built once: a position draws a dozen piles or more, and a
    # new strategy would be validated again for each.
    kinds = [Gear(colour) for colour in ROBOT_NUMBERS] + list(extra)
    return st.lists(st.sampled_from(kinds), max_size=max_size).map(tuple)


def box_size(gear: Gear) -> int:
    """How many gears like ``gear`` the boxes hold (GEN-1, JOL-1, TRI-1)."""
    return GEARS_PER_COLOUR if gear.kind is GearKind.STANDARD else EXPANSION_GEARS_PER_KIND


def held_upgrades(
    names: Sequence[str], deck: Sequence[UpgradeCard], chooser: Chooser
) -> tuple[tuple[str, UpgradeCard], ...]:
    """Upgrade cards some of the players still hold, drawn from ``deck`` (UPG-1).

    Each player holds a card of the deck (more often than not) or none; no more cards of a
    kind are held than the deck has.
    """
    left = list(deck)
    held: list[tuple[str, UpgradeCard]] = []
    for name in names:
        holds: bool = chooser.choice(MOSTLY)
        if left and holds:
            held.append((name, left.pop(chooser.choice(range(len(left))))))
    return tuple(held)


@st.composite
def position_specs(
    draw: Draw,
    *,
    variant: Literal["one", "two", "any"] = "any",
    max_feet: int = 6,
    max_circuit: int = 4,
    max_dump: int = 5,
    max_reserve: int = 12,
    expansions: bool = False,
    all_robots: bool = False,
) -> PositionSpec:
    """Ingredients of an arbitrary position: any gears anywhere, in bounded numbers.

    With ``expansions``, the options may switch any expansion on (:func:`options`): the
    Jolly and three-point gears that are on may be anywhere too, up to four of each
    (JOL-1, TRI-1), and with the upgrades on, players may hold cards of the deck (UPG-1).
    With ``all_robots``, all eight robots are in play (four players in the two-robot variant).
    """
    two: bool = variant == "two" or (variant == "any" and draw(st.booleans()))
    control: dict[str, tuple[int, ...]]
    if two:
        players = 4 if all_robots else 2
        control = dict(draw(two_robot_control(min_players=players)))
    elif all_robots:
        control = {f"P{n}": (n,) for n in ROBOT_NUMBERS}
    else:
        control = {f"P{n}": (n,) for n in draw(robots_in_play())}
    numbers = sorted(n for pair in control.values() for n in pair)
    rules: Options = draw(options(expansions=expansions, players=len(control), robots=len(numbers)))
    extra = expansion_gear_kinds(rules)
    supply: Counter[Gear] = Counter()

    def from_box(pile: tuple[Gear, ...]) -> tuple[Gear, ...]:
        # A position holds at most 11 gears of a colour (GEN-1) and 4 of an expansion kind
        # (JOL-1, TRI-1): drop any beyond the box.
        kept: list[Gear] = []
        for gear in pile:
            if supply[gear] < box_size(gear):
                supply[gear] += 1
                kept.append(gear)
        return tuple(kept)

    feet = tuple((n, from_box(draw(gear_piles(max_feet, extra)))) for n in numbers)
    circuits = tuple((n, from_box(draw(gear_piles(max_circuit, extra)))) for n in numbers)
    dumps = tuple((n, from_box(draw(gear_piles(max_dump, extra)))) for n in numbers)
    reserve = from_box(draw(gear_piles(max_reserve, extra)))
    held = (
        held_upgrades(list(control), rules.upgrade_deck, Chooser.from_draw(draw))
        if rules.upgrades
        else ()
    )
    return PositionSpec(
        feet=feet,
        circuits=circuits,
        dumps=dumps,
        reserve=reserve,
        players=tuple(control.items()),
        options=rules,
        turn=draw(st.integers(min_value=1, max_value=30)),
        upgrades=held,
    )


def positions(
    *,
    variant: Literal["one", "two", "any"] = "any",
    max_feet: int = 6,
    max_circuit: int = 4,
    max_dump: int = 5,
    max_reserve: int = 12,
    expansions: bool = False,
    all_robots: bool = False,
) -> st.SearchStrategy[GameState]:
    """Arbitrary positions built with :func:`outofgears.from_position`."""
    return position_specs(
        variant=variant,
        max_feet=max_feet,
        max_circuit=max_circuit,
        max_dump=max_dump,
        max_reserve=max_reserve,
        expansions=expansions,
        all_robots=all_robots,
    ).map(PositionSpec.build)


def rebuild(state: GameState) -> GameState:
    """The same position built again from scratch, sharing no object with ``state``'s lists."""
    rules = state.options
    return from_position(
        robots={r.number: {"feet": list(r.feet), "circuit": list(r.circuit)} for r in state.robots},
        dumps={d.number: list(d.gears) for d in state.dumps},
        reserve=list(state.reserve),
        players={p.name: list(p.robots) for p in state.players},
        turn=state.turn,
        options=Options(
            defence_steal_source=rules.defence_steal_source,
            assembly=rules.assembly,
            upgrades=rules.upgrades,
            upgrade_deck=list(rules.upgrade_deck),
            jolly_gears=rules.jolly_gears,
            three_point_gears=rules.three_point_gears,
            pad_reserve=rules.pad_reserve,
        ),
        upgrades={p.name: p.upgrade for p in state.players if p.upgrade is not None},
    )


# --------------------------------------------------------------------------- programs

ProgramFilter = Callable[[int, AnyProgram], bool]


def _allow_all(robot: int, program: AnyProgram) -> bool:
    return True


def robot_program_options(
    state: GameState, player: Player, robot: int, allow: ProgramFilter = _allow_all
) -> list[AnyProgram]:
    """Every program one robot may lay on its own: an action card and a number in play
    (PRG-1, PRG-2), then, last, its player's held upgrade card (UPG-2, UPG-3)."""
    laid: list[AnyProgram] = [
        Program(action, number) for action in ACTIONS for number in state.robot_numbers
    ]
    if state.options.upgrades and player.upgrade is not None:
        laid.append(UpgradeProgram(player.upgrade))
    return [program for program in laid if allow(robot, program)]


def partners_may_lay(first: AnyProgram, second: AnyProgram) -> bool:
    """Whether the two robots of a player may lay these programs together.

    Different action cards (VAR-2); at most one of them the player's upgrade card, which is
    not an action card (UPG-4).
    """
    if isinstance(first, Program) and isinstance(second, Program):
        return first.action is not second.action
    return isinstance(first, Program) or isinstance(second, Program)


def player_program_options(
    state: GameState, player: Player, allow: ProgramFilter = _allow_all
) -> list[tuple[AnyProgram, ...]]:
    """Every legal program of a player's robot(s) this turn, in the order of ``player.robots``.

    Each robot lays one action card and one number in play (PRG-1, PRG-2, PRG-4), or the
    upgrade card its player holds (UPG-2); the two robots of a player in the two-robot
    variant lay different action cards (VAR-2) and at most one of them the upgrade (UPG-4).
    ``allow`` may forbid programs of particular robots.
    """
    per_robot = [robot_program_options(state, player, robot, allow) for robot in player.robots]
    combos = list(itertools.product(*per_robot))
    if len(player.robots) == 2:
        combos = [pair for pair in combos if partners_may_lay(pair[0], pair[1])]
    return combos


def card_programs(programs: Mapping[int, AnyProgram]) -> dict[int, Program]:
    """``programs``, which lay no upgrade card (as in the base game, SET-6), typed so."""
    cards = {robot: p for robot, p in programs.items() if isinstance(p, Program)}
    assert len(cards) == len(programs), f"upgrade cards laid: {programs}"
    return cards


def every_legal_programs(state: GameState) -> Iterator[dict[int, AnyProgram]]:
    """Every combination of legal programs for the next turn of ``state``."""
    players = state.players
    for combo in itertools.product(*(player_program_options(state, p) for p in players)):
        yield {
            robot: program
            for player, programs in zip(players, combo, strict=True)
            for robot, program in zip(player.robots, programs, strict=True)
        }


def count_legal_programs(state: GameState) -> int:
    """How many combinations :func:`every_legal_programs` yields."""
    total = 1
    for player in state.players:
        total *= len(player_program_options(state, player))
    return total


def random_programs(
    state: GameState,
    source: random.Random | st.DataObject | Chooser,
    allow: ProgramFilter = _allow_all,
    fixed: Mapping[int, AnyProgram] | None = None,
) -> dict[int, AnyProgram]:
    """Uniformly random legal programs, player by player; ``fixed`` robots keep theirs."""
    chooser = as_chooser(source)
    kept = dict(fixed or {})

    def allow_here(robot: int, program: AnyProgram) -> bool:
        if robot in kept:
            return program == kept[robot]
        return allow(robot, program)

    programs: dict[int, AnyProgram] = {}
    for player in state.players:
        picked = chooser.choice(player_program_options(state, player, allow_here))
        programs.update(zip(player.robots, picked, strict=True))
    return programs


#: The upgrade cards that harvest or trap every dump (SHARV-1, STRAP-1).
EVERY_DUMP_CARDS = frozenset({UpgradeCard.SUPER_HARVEST, UpgradeCard.SUPER_TRAP})


def harvesting_programs(
    state: GameState, source: random.Random | st.DataObject | Chooser
) -> dict[int, AnyProgram]:
    """Random legal programs in which one robot harvests a dump alone, untrapped.

    The dump is a non-empty one if any; nobody else harvests or traps it (with a card, a
    Super Harvest or a Super Trap), so the harvester takes every gear on it (HRV-2) and the
    dump is empty after activation.
    """
    chooser = as_chooser(source)
    full = [dump.number for dump in state.dumps if dump.gears] or list(state.robot_numbers)
    dump = chooser.choice(full)
    harvester = chooser.choice(state.robot_numbers)

    def elsewhere(robot: int, program: AnyProgram) -> bool:
        if isinstance(program, UpgradeProgram):
            return program.card not in EVERY_DUMP_CARDS
        return program.action is Action.ATTACK or program.number != dump

    return random_programs(
        state, chooser, elsewhere, fixed={harvester: Program(Action.HARVEST, dump)}
    )


@st.composite
def legal_programs(draw: Draw, state: GameState) -> dict[int, AnyProgram]:
    """Random legal programs for the next turn of ``state`` (PRG-1, PRG-2, VAR-2, UPG-2)."""
    return random_programs(state, Chooser.from_draw(draw))


@st.composite
def crowded_programs(draw: Draw, state: GameState) -> dict[int, AnyProgram]:
    """Random legal programs that all name one or two numbers, so that robots collide.

    Collisions are what makes splits, voided attacks and sprung traps: uniform programs
    over eight numbers rarely make them. Upgrade cards, which act on every robot or dump
    or on the defenders, are always allowed.
    """
    chooser = Chooser.from_draw(draw)
    count = chooser.choice((1, 2))
    targets = set(chooser.sample(state.robot_numbers, count))

    def crowded(robot: int, program: AnyProgram) -> bool:
        if isinstance(program, UpgradeProgram):
            return True
        return program.number in targets or program.is_defence_of(robot)

    return random_programs(state, chooser, crowded)


@st.composite
def upgrading_programs(draw: Draw, state: GameState) -> dict[int, AnyProgram]:
    """Random legal programs in which every player holding an upgrade card lays it.

    The others are crowded (:func:`crowded_programs`), so the cards meet defences, traps,
    harvests and each other. Without held cards these are just crowded programs.
    """
    chooser = Chooser.from_draw(draw)
    count = chooser.choice((1, 2))
    targets = set(chooser.sample(state.robot_numbers, count))
    fixed: dict[int, AnyProgram] = {}
    for player in state.players:
        if state.options.upgrades and player.upgrade is not None:
            fixed[chooser.choice(player.robots)] = UpgradeProgram(player.upgrade)

    def crowded(robot: int, program: AnyProgram) -> bool:
        if isinstance(program, UpgradeProgram):
            return False
        return program.number in targets or program.is_defence_of(robot)

    return random_programs(state, chooser, crowded, fixed)


def some_programs(state: GameState) -> st.SearchStrategy[dict[int, AnyProgram]]:
    """Uniform or crowded legal programs; with upgrade cards held, also every card laid."""
    if state.options.upgrades and any(p.upgrade is not None for p in state.players):
        return st.one_of(legal_programs(state), crowded_programs(state), upgrading_programs(state))
    return st.one_of(legal_programs(state), crowded_programs(state))


# --------------------------------------------------------------------------- choices


def random_split(
    pool: Sequence[Gear], takers: Sequence[int], source: random.Random | st.DataObject | Chooser
) -> dict[int, tuple[Gear, ...]]:
    """A random legal split of ``pool`` among ``takers`` (SPL-1, SPL-2, SPL-4).

    Every taker first gets its own-colour quota, min(share, own-colour gears in the pool);
    then the takers that still need gears fill up from what remains, at random. A taker
    that needs filling got every gear of its colour already, so the fill keeps the quota.
    """
    chooser = as_chooser(source)
    ordered = sorted(set(takers))
    share = share_size(len(pool), len(ordered))
    remaining = list(pool)
    shares: dict[int, list[Gear]] = {}
    for robot in ordered:
        quota = own_colour_quota(pool, robot, share)
        own = [gear for gear in remaining if gear.has_priority_for(robot)][:quota]
        for gear in own:
            remaining.remove(gear)
        shares[robot] = own
    for robot in ordered:
        extra = chooser.sample(remaining, share - len(shares[robot]))
        for gear in extra:
            remaining.remove(gear)
        shares[robot].extend(extra)
    return {robot: tuple(got) for robot, got in shares.items()}


def pools_of_splits(
    state: GameState, events: Sequence[Event]
) -> list[tuple[int, SplitResolved, tuple[Gear, ...]]]:
    """Each split of a turn: its index in ``events``, the event, and the pool it shared.

    Attacks strike all at once (ATK-7, ruling R-SIMUL): a robot's feet are shared as they
    stood after the defences (ATK-4, SATK-2), whatever other attacks brought to them. A
    dump is shared as it stands when its trap, harvest or Super Shovel resolves (events
    replayed up to it).
    """
    if not any(isinstance(event, SplitResolved) for event in events):
        return []
    after_defences = GearTable(state)
    after_defences.apply_all(
        event
        for event in events
        if isinstance(event, GearMoved) and event.clause in DEFENCE_STEAL_CLAUSES
    )
    table = GearTable(state)
    found: list[tuple[int, SplitResolved, tuple[Gear, ...]]] = []
    for index, event in enumerate(events):
        if isinstance(event, SplitResolved):
            where = after_defences if event.place.kind is PlaceKind.FEET else table
            found.append((index, event, tuple(where.gears_at(event.place))))
        table.apply(event)
    return found


def feet_after_activation(state: GameState, events: Sequence[Event]) -> dict[int, tuple[Gear, ...]]:
    """Each robot's feet when assembly starts: the events up to the first assembly move."""
    table = GearTable(state)
    for event in events:
        if isinstance(event, TurnEnded) or (
            isinstance(event, GearMoved) and event.clause in ("ASM-1", "EXP-1")
        ):
            break
        table.apply(event)
    return {robot: tuple(feet) for robot, feet in table.feet.items()}


def random_defence_steals(
    state: GameState,
    programs: Mapping[int, AnyProgram],
    chooser: Chooser,
) -> dict[tuple[int, int], DefenceSteal]:
    """Random legal defence steals (ATK-4, SATK-2, R-DEFENCE), each one left to the default
    (ATK-5) or made at random.

    Every standing defender (none under a Counter Defence, CDEF-2) takes from each robot
    that attacked it, a Super Attacker included; the defenders of one attacker take in turn
    clockwise from the first after it (R-SYMMETRY), each from what the attacker still holds,
    so a choice is made from what the defenders before it (by choice or by default) left.
    """
    rule = state.options.defence_steal_source
    reading = ProgramReading(state, programs)
    attackers = attackers_by_target(reading)
    holdings: dict[int, tuple[list[Gear], list[Gear]]] = {}
    chosen: dict[tuple[int, int], DefenceSteal] = {}
    defended_by: dict[int, list[int]] = {}
    for defender in standing_defenders(reading):
        for attacker in attackers.get(defender, ()):
            defended_by.setdefault(attacker, []).append(defender)
    for attacker, its_defenders in sorted(defended_by.items()):
        for defender in taking_order(its_defenders, attacker):
            robot = state.robot(attacker)
            feet, circuit = holdings.setdefault(attacker, (list(robot.feet), list(robot.circuit)))
            candidates = [DefenceSteal("feet", gear) for gear in sorted(set(feet), key=_key)]
            if rule == "feet_or_circuit":
                candidates += [
                    DefenceSteal("circuit", gear) for gear in sorted(set(circuit), key=_key)
                ]
            if not candidates:
                continue
            steal: DefenceSteal | None
            if chooser.coin():
                steal = chooser.choice(candidates)
                chosen[(defender, attacker)] = steal
            else:
                steal = choose_defence_steal(defender, feet, circuit, rule)
            assert steal is not None
            (feet if steal.source == "feet" else circuit).remove(steal.gear)
    return chosen


def _key(gear: Gear) -> tuple[str, int]:
    return (gear.kind.value, gear.colour)


def random_choices(
    state: GameState,
    programs: Mapping[int, AnyProgram],
    source: random.Random | st.DataObject | Chooser,
    *,
    steals: bool = True,
    splits: bool = True,
    assemblies: bool = True,
) -> Choices:
    """Random legal post-reveal choices for a turn (ATK-4, SPL-5, ASM-1, ruling R-CHOICES).

    Each decision is either left to the default policy or made explicitly at random:

    * defence steals: one gear from the attacker's feet, or circuit if the option allows,
      from what the defenders before it left (:func:`random_defence_steals`);
    * splits: a random legal split of every place several robots take from by attack, trap
      or harvest; never of what Super Shovels share, which always split by default (SHOV-1,
      ruling R-SHOVEL);
    * assemblies: two random feet gears of a robot with three or more after activation, or
      ``()`` (assemble nothing) where assembly is optional.

    Splits and assemblies depend on what happened before them, so the turn is first
    resolved with the choices made so far to find the pools and the feet.
    """
    chooser = as_chooser(source)
    chosen_steals: dict[tuple[int, int], DefenceSteal] = {}
    if steals:
        chosen_steals = random_defence_steals(state, programs, chooser)
    chosen_splits: dict[Place, dict[int, tuple[Gear, ...]]] = {}
    if splits:
        shovellers = {
            robot
            for robot, program in programs.items()
            if program == UpgradeProgram(UpgradeCard.SUPER_SHOVEL)
        }
        probe = resolve_turn(state, programs, choices=Choices(defence_steals=chosen_steals))
        for _index, split, pool in pools_of_splits(state, probe.events):
            if set(split.takers) <= shovellers or split.place in chosen_splits:
                continue
            if chooser.coin():
                chosen_splits[split.place] = random_split(pool, split.takers, chooser)
    chosen_assemblies: dict[int, tuple[Gear, ...]] = {}
    if assemblies:
        probe = resolve_turn(
            state,
            programs,
            choices=Choices(defence_steals=chosen_steals, splits=chosen_splits),
        )
        for robot, feet in feet_after_activation(state, probe.events).items():
            if len(feet) < 3:
                continue
            kinds = ["default", "pick"] + (["none"] if state.options.assembly == "optional" else [])
            kind = chooser.choice(kinds)
            if kind == "pick":
                chosen_assemblies[robot] = tuple(chooser.sample(feet, 2))
            elif kind == "none":
                chosen_assemblies[robot] = ()
    return Choices(defence_steals=chosen_steals, assemblies=chosen_assemblies, splits=chosen_splits)


@st.composite
def legal_choices(draw: Draw, state: GameState, programs: Mapping[int, AnyProgram]) -> Choices:
    """Random legal post-reveal choices for ``programs`` on ``state``."""
    return random_choices(state, programs, Chooser.from_draw(draw))


# --------------------------------------------------------------------------- games


class GameDidNotEndError(AssertionError):
    """A random game ran past its turn limit."""


@frozen
class PlayedTurn:
    """One turn of a played game: what was asked and what came of it."""

    before: GameState
    programs: Mapping[int, AnyProgram]
    choices: Choices | None
    result: TurnResult


@frozen
class PlayedGame:
    """A game played to the end."""

    start: GameState
    turns: tuple[PlayedTurn, ...]

    @property
    def final(self) -> GameState:
        """The state after the last turn."""
        return self.turns[-1].result.state if self.turns else self.start


def play_random_game(
    state: GameState,
    rng_or_data: random.Random | st.DataObject | Chooser,
    *,
    policy: Literal["random", "harvesting"] = "random",
    with_choices: bool = False,
    max_turns: int = 1000,
) -> PlayedGame:
    """Play legal random turns from ``state`` until the game is over (END-1).

    Args:
        state: Where to start.
        rng_or_data: A seeded :class:`random.Random`, a hypothesis ``data`` object or a
            :class:`Chooser`.
        policy: ``"random"``: uniformly random legal programs, which need not ever end a
            game (everybody may attack for ever), although with a seeded generator they
            end in a few turns after the reserve runs out. ``"harvesting"``: every turn one
            robot harvests a non-empty dump alone (:func:`harvesting_programs`), which
            empties it, so the game ends at most one turn after the reserve runs out.
        with_choices: Also make random legal post-reveal choices instead of the defaults.
        max_turns: Raise :class:`GameDidNotEndError` after this many turns.
    """
    chooser = as_chooser(rng_or_data)
    played: list[PlayedTurn] = []
    current = state
    while not current.game_over:
        if len(played) >= max_turns:
            raise GameDidNotEndError(f"the game did not end in {max_turns} turns")
        if policy == "harvesting":
            programs = harvesting_programs(current, chooser)
        else:
            programs = random_programs(current, chooser)
        choices = random_choices(current, programs, chooser) if with_choices else None
        result = resolve_turn(current, programs, choices=choices)
        played.append(PlayedTurn(current, programs, choices, result))
        current = result.state
    return PlayedGame(state, tuple(played))


def gear_counts(state: GameState) -> Counter[Gear]:
    """Every gear of the position, as a multiset."""
    return Counter(state.all_gears())
