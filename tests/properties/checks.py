"""Invariants of a turn, shared by the property tests and the exhaustive enumeration.

Each ``check_*`` function asserts one family of invariants about a turn already played;
:func:`check_turn` runs them all. They raise :class:`AssertionError` with the facts.

The checks understand the expansions (spec/expansions.md). What each program does is read
straight from the rules by :class:`TurnReading`, written apart from the engine: a Super
Attack attacks every other robot (SATK-1) and each standing defender among them takes a gear
from it (SATK-2); a Counter Defence voids every defence (CDEF-2) and attacks every robot that
programmed one (CDEF-1); a Super Trap and a Super Harvest trap and harvest every dump
(STRAP-1, SHARV-1); a Super Shovel takes what is left on every dump after the harvests,
before assembly (SHOV-1); played cards are discarded (UPG-3). Gear worth and canonical order
follow VAL-1, JOL-2 and TRI-2. No check is restricted to turns without upgrades.
"""

from __future__ import annotations

import copy
import math
import os
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import settings

from outofgears import (
    Action,
    ActionResolved,
    Choices,
    GameOverError,
    GameState,
    Gear,
    GearKind,
    GearMoved,
    Outcome,
    Place,
    PlaceKind,
    Program,
    SplitResolved,
    TurnEnded,
    TurnResult,
    apply_events,
    player_scores,
    resolve_turn,
    score_robot,
    winners,
)
from outofgears.rules.events import UpgradeDiscarded
from outofgears.rules.gears import EXPANSION_GEARS_PER_KIND, GEARS_PER_COLOUR, JOLLY, THREE_POINT
from outofgears.rules.model import UpgradeCard
from outofgears.rules.programs import AnyProgram, UpgradeProgram
from outofgears.rules.sharing import check_split, share_size
from tests.clause_map import load_clause_map
from tests.helpers import GearTable
from tests.strategies import (
    DEFENCE_STEAL_CLAUSES,
    PlayedGame,
    feet_after_activation,
    gear_counts,
    pools_of_splits,
    rebuild,
)

#: The clause IDs of spec/clauses.toml.
CLAUSE_IDS = frozenset(clause.id for clause in load_clause_map())

#: The clauses under which robots take the gears of a place, alone or in a split: attack
#: cards, sprung traps, harvests, and the upgrade cards that do the same.
TAKING_CLAUSES = frozenset(
    {"ATK-6", "TRP-3", "HRV-2", "SATK-1", "CDEF-1", "STRAP-1", "SHARV-1", "SHOV-1"}
)

#: Gears in the boxes: 11 of each colour (GEN-1), 4 of each expansion kind (JOL-1, TRI-1).
BOX = {GearKind.STANDARD: 11, GearKind.JOLLY: 4, GearKind.THREE_POINT: 4}

#: The canonical order of gear kinds: standard gears, then Jollies, then three-point gears
#: (JOL-1, TRI-1).
KIND_RANK = {GearKind.STANDARD: 0, GearKind.JOLLY: 1, GearKind.THREE_POINT: 2}

_last_reading: list[tuple[tuple[tuple[int, AnyProgram], ...], TurnReading]] = []

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")


def budget(default: int, ci: int) -> settings:
    """Settings with ``default`` examples under the default profile, ``ci`` under ``ci``.

    For the heavy, ``slow``-marked tests: a larger budget than the profile's own on CI,
    a modest one in the edit-test loop.
    """
    return settings(max_examples=ci if PROFILE == "ci" else default)


# --------------------------------------------------------------------------- gears


def canonical(gear: Gear) -> tuple[int, int]:
    """A gear's place in canonical order: standard gears by colour, then Jolly, then 3-point."""
    return (KIND_RANK[gear.kind], gear.colour)


def worth(gear: Gear, robot: int) -> int:
    """What ``gear`` scores for ``robot`` (END-2, JOL-2, TRI-2), which the policies compare.

    3 for a three-point gear; 2 for a Jolly or a standard gear of the robot's colour; else 1.
    """
    if gear.kind is GearKind.THREE_POINT:
        return 3
    if gear.kind is GearKind.JOLLY or gear.colour == robot:
        return 2
    return 1


def ring(gear: Gear, robot: int) -> int:
    """The tie-break between gears of equal worth to ``robot`` (ruling R-SYMMETRY).

    The colours clockwise from the one after the robot's own (wrapping round from 8 to 1),
    its own colour last; then the Jolly, then the three-point gear.
    """
    if gear.kind is GearKind.STANDARD:
        return (gear.colour - robot - 1) % 8
    return 8 + KIND_RANK[gear.kind] - 1


def after(number: int, robots: Sequence[int]) -> list[int]:
    """``robots`` clockwise from the first one after ``number`` (ruling R-SYMMETRY)."""
    return sorted(robots, key=lambda robot: (robot - number - 1) % 8)


def counts_as_own(gear: Gear, robot: int) -> bool:
    """Whether ``gear`` is one of ``robot``'s own colour at scoring (END-3, JOL-2, TRI-2)."""
    return gear.kind is GearKind.JOLLY or (gear.kind is GearKind.STANDARD and gear.colour == robot)


def has_priority(gear: Gear, robot: int) -> bool:
    """Whether ``robot`` has own-colour priority on ``gear`` in a split (SPL-2, JOL-2)."""
    return gear.kind is GearKind.STANDARD and gear.colour == robot


# --------------------------------------------------------------------------- the rules


def lays(program: AnyProgram, card: UpgradeCard) -> bool:
    """Whether ``program`` is the upgrade ``card``."""
    return isinstance(program, UpgradeProgram) and program.card is card


def read_programs(programs: Mapping[int, AnyProgram]) -> TurnReading:
    """The :class:`TurnReading` of ``programs``; the last one is kept, as :func:`check_turn`
    reads the same programs several times."""
    key = tuple(sorted(programs.items(), key=lambda item: item[0]))
    if _last_reading and _last_reading[0][0] == key:
        return _last_reading[0][1]
    reading = TurnReading(programs)
    _last_reading[:] = [(key, reading)]
    return reading


class TurnReading:
    """What the programs of a turn do, read from the rules (spec/base-game.md, expansions.md).

    Attributes:
        robots: The robots in play (every one has a program, PRG-1), ascending.
        defenders: The robots that programmed a defence (ATK-1).
        countered: Whether a Counter Defence voids every defence (CDEF-2).
        standing: The defences that stand.
        attackers_of: Each attacked robot and its attackers, ascending: attack cards naming
            it, every Super Attack but its own (SATK-1), every Counter Defence if it
            defended (CDEF-1).
        trappers_of, harvesters_of: Each dump's trappers and harvesters: the cards naming it,
            and every Super Trap and Super Harvest (STRAP-1, SHARV-1).
        shovellers: The robots laying a Super Shovel (SHOV-1).
        takings: Each place taken from in activation before the shovels, and its takers,
            each with the clause its gears move under: the feet of a robot attacked and not
            defended, a sprung trap's dump, an untrapped harvested dump.
        outcomes: Every ``ActionResolved`` event the turn must have, as
            ``(robot, program text, outcome, clause)``.
    """

    def __init__(self, programs: Mapping[int, AnyProgram]) -> None:
        self.programs = dict(programs)
        self.robots = tuple(sorted(programs))
        self.defenders = tuple(r for r in self.robots if programs[r].is_defence_of(r))
        self.countered = any(lays(p, UpgradeCard.COUNTER_DEFENCE) for p in programs.values())
        self.standing = () if self.countered else self.defenders
        self.shovellers = self.laying(UpgradeCard.SUPER_SHOVEL)
        self.attackers_of: dict[int, tuple[int, ...]] = {}
        for victim in self.robots:
            attackers = tuple(r for r in self.robots if victim in self.targets(r))
            if attackers:
                self.attackers_of[victim] = attackers
        self.trappers_of = self.on_dumps(Action.TRAP, UpgradeCard.SUPER_TRAP)
        self.harvesters_of = self.on_dumps(Action.HARVEST, UpgradeCard.SUPER_HARVEST)
        self.takings: dict[Place, dict[int, str]] = {}
        self.outcomes: Counter[tuple[int, str, Outcome, str]] = Counter()
        self._read_attacks()
        self._read_dumps()
        for robot in self.shovellers:
            self.outcomes[(robot, "super shovel", Outcome.SHOVELLED, "SHOV-1")] += 1

    def laying(self, card: UpgradeCard) -> tuple[int, ...]:
        """The robots laying upgrade ``card``."""
        return tuple(r for r in self.robots if lays(self.programs[r], card))

    def targets(self, robot: int) -> tuple[int, ...]:
        """The robots that ``robot``'s program attacks (ATK-1, SATK-1, CDEF-1)."""
        program = self.programs[robot]
        if isinstance(program, Program):
            attacks = program.action is Action.ATTACK and program.number != robot
            return (program.number,) if attacks else ()
        if program.card is UpgradeCard.SUPER_ATTACK:
            return tuple(r for r in self.robots if r != robot)
        if program.card is UpgradeCard.COUNTER_DEFENCE:
            return self.defenders
        return ()

    def on_dumps(self, action: Action, card: UpgradeCard) -> dict[int, tuple[int, ...]]:
        """Each dump's robots trapping (or harvesting) it: by ``action`` card naming it, or by
        the Super ``card``, which names every dump."""
        every = self.laying(card)
        return {
            dump: tuple(
                r
                for r in self.robots
                if r in every
                or (
                    isinstance(program := self.programs[r], Program)
                    and program.action is action
                    and program.number == dump
                )
            )
            for dump in self.robots
        }

    def text(self, robot: int, about: str) -> str:
        """A program as its ``ActionResolved`` event writes it (UPG-2)."""
        program = self.programs[robot]
        return str(program) if isinstance(program, Program) else f"{program} ({about})"

    def clause(self, robot: int, card_clause: str, upgrade_clause: str) -> str:
        """``card_clause`` for an action card, ``upgrade_clause`` for an upgrade."""
        return card_clause if isinstance(self.programs[robot], Program) else upgrade_clause

    def attack_clause(self, robot: int) -> str:
        """The clause under which an attacker takes: ATK-6, SATK-1 or CDEF-1."""
        program = self.programs[robot]
        if isinstance(program, Program):
            return "ATK-6"
        return "SATK-1" if program.card is UpgradeCard.SUPER_ATTACK else "CDEF-1"

    def _read_attacks(self) -> None:
        for defender in self.defenders:
            if self.countered:
                outcome, clause = Outcome.DEFENCE_COUNTERED, "CDEF-2"
            elif defender in self.attackers_of:
                outcome, clause = Outcome.DEFENDED, "ATK-3"
            else:
                outcome, clause = Outcome.DEFENDED_UNTESTED, "ATK-3"
            self.outcomes[(defender, str(self.programs[defender]), outcome, clause)] += 1
        for robot in self.laying(UpgradeCard.COUNTER_DEFENCE):
            if not self.defenders:
                self.outcomes[(robot, "counter defence", Outcome.COUNTER_UNUSED, "CDEF-1")] += 1
        for victim, attackers in self.attackers_of.items():
            about = f"robot {victim}"
            for attacker in attackers:
                if victim in self.standing:
                    clause = self.clause(attacker, "ATK-3", "SATK-2")
                    outcome = Outcome.ATTACK_VOIDED
                else:
                    clause = self.attack_clause(attacker)
                    outcome = Outcome.ATTACK_HIT
                    self.takings.setdefault(Place.feet(victim), {})[attacker] = clause
                self.outcomes[(attacker, self.text(attacker, about), outcome, clause)] += 1

    def _read_dumps(self) -> None:
        for dump in self.robots:
            trappers, harvesters = self.trappers_of[dump], self.harvesters_of[dump]
            about = f"dump {dump}"
            for trapper in trappers:
                outcome = Outcome.TRAP_SPRUNG if harvesters else Outcome.TRAP_IDLE
                clause = self.clause(trapper, "TRP-3", "STRAP-1")
                self.outcomes[(trapper, self.text(trapper, about), outcome, clause)] += 1
                if harvesters:
                    self.takings.setdefault(Place.dump(dump), {})[trapper] = clause
            for harvester in harvesters:
                if trappers:
                    outcome, clause = Outcome.HARVEST_VOIDED, "TRP-2"
                else:
                    outcome = Outcome.HARVEST_DONE
                    clause = self.clause(harvester, "HRV-2", "SHARV-1")
                    self.takings.setdefault(Place.dump(dump), {})[harvester] = clause
                self.outcomes[(harvester, self.text(harvester, about), outcome, clause)] += 1


# --------------------------------------------------------------------------- places


def check_places(state: GameState) -> None:
    """Every place is a tuple of Gear; feet, circuits and dumps in canonical order."""
    places: list[tuple[str, tuple[Gear, ...]]] = [("reserve", state.reserve)]
    for robot in state.robots:
        places += [(f"robot {robot.number} feet", robot.feet)]
        places += [(f"robot {robot.number} circuit", robot.circuit)]
    places += [(f"dump {dump.number}", dump.gears) for dump in state.dumps]
    for name, pile in places:
        assert type(pile) is tuple, f"{name} is a {type(pile).__name__}, not a tuple"
        assert all(type(gear) is Gear for gear in pile), f"{name} holds a non-gear: {pile!r}"
        if name != "reserve":
            assert list(pile) == sorted(pile, key=canonical), name


def check_conservation(before: GameState, after: GameState) -> None:
    """The multiset feet + circuits + dumps + reserve is the same before and after.

    And never more of a kind than the boxes hold (GEN-1, JOL-1, TRI-1).
    """
    counts = gear_counts(after)
    assert gear_counts(before) == counts, (
        f"gears not conserved: before {sorted(gear_counts(before).items(), key=str)}, "
        f"after {sorted(counts.items(), key=str)}"
    )
    for gear, count in counts.items():
        assert 0 < count <= BOX[gear.kind], f"{count} {gear} gears"


def check_reserve_and_frame(before: GameState, after: GameState) -> None:
    """The reserve only feeds the dumps, from its front; the frame of the game is kept.

    The reserve shrinks by exactly min(its size, dumps in play) (EXP-1, REF-1), and what is
    left is the rest of it in draw order. Robots, dumps, players (but for the upgrade cards
    they hold, :func:`check_upgrades_discarded`) and options stay; the turn number goes up by
    one and the game is over exactly as END-1 says.
    """
    drawn = len(before.reserve) - len(after.reserve)
    assert 0 <= drawn <= len(before.dumps), f"the reserve shrank by {drawn}"
    assert drawn == min(len(before.reserve), len(before.dumps))
    assert after.reserve == before.reserve[drawn:]
    assert after.robot_numbers == before.robot_numbers
    assert tuple(d.number for d in after.dumps) == tuple(d.number for d in before.dumps)
    assert [(p.name, p.robots) for p in after.players] == [
        (p.name, p.robots) for p in before.players
    ]
    assert [r.player for r in after.robots] == [r.player for r in before.robots]
    assert after.options == before.options
    assert after.turn == before.turn + 1
    assert after.game_over == (not after.reserve and any(not d.gears for d in after.dumps))


# --------------------------------------------------------------------------- events


def check_events(before: GameState, result: TurnResult) -> None:
    """The events replay to the new state and each cites a clause of spec/clauses.toml.

    Replaying refuses a move of a gear that is not at its source, so no place ever holds
    fewer than no gears; an ``UpgradeDiscarded`` takes the card from its player (UPG-3).
    """
    assert apply_events(before, result.events) == result.state
    for event in result.events:
        assert event.clause in CLAUSE_IDS, f"{event} cites an unknown clause"
    closing = [event for event in result.events if isinstance(event, TurnEnded)]
    assert closing == [TurnEnded(before.turn, result.state.game_over, closing[0].clause)]
    assert result.events[-1] == closing[0]


def check_upgrades_discarded(
    before: GameState, programs: Mapping[int, AnyProgram], result: TurnResult
) -> None:
    """Every upgrade card laid is discarded at the end of the turn; the others stay (UPG-3).

    One ``UpgradeDiscarded`` per laid card, in ascending robot number, after every gear
    move (exploration included) and just before ``TurnEnded``; its player holds no card
    afterwards, and every other player still holds what it held.
    """
    laid = sorted(
        ((r, p) for r, p in programs.items() if isinstance(p, UpgradeProgram)),
        key=lambda item: item[0],
    )
    expected = [
        UpgradeDiscarded(robot, before.player_of(robot).name, program.card, "UPG-3")
        for robot, program in laid
    ]
    events = list(result.events)
    discards = [event for event in events if isinstance(event, UpgradeDiscarded)]
    assert discards == expected, f"discarded {discards}, expected {expected}"
    if discards:
        assert events[-1 - len(discards) : -1] == discards, "discards are not the turn's end"
    played = {event.player for event in expected}
    for player in result.state.players:
        was = before.player_of(player.robots[0]).upgrade
        assert player.upgrade == (None if player.name in played else was), player.name


def check_traps_take_only_when_blocking(
    programs: Mapping[int, AnyProgram], result: TurnResult
) -> None:
    """A gear moved by a trap (TRP-3, STRAP-1) comes from a dump that some robot harvested.

    The trapper trapped that dump, with a card naming it or a Super Trap. The other way
    round: no harvest (HRV-2, SHARV-1) takes from a trapped dump (TRP-2); a Super Shovel
    takes only from dumps, whether trapped or not (SHOV-1).
    """
    reading = read_programs(programs)
    for move in result.moves:
        if move.clause in ("TRP-3", "STRAP-1", "HRV-2", "SHARV-1", "SHOV-1"):
            assert move.source.kind is PlaceKind.DUMP, str(move)
        dump = move.source.number
        robot = move.robot or 0
        if move.clause in ("TRP-3", "STRAP-1"):
            assert reading.harvesters_of[dump], f"{move}: nobody harvested that dump"
            assert robot in reading.trappers_of[dump], str(move)
            assert move.clause == reading.clause(robot, "TRP-3", "STRAP-1"), str(move)
        if move.clause in ("HRV-2", "SHARV-1"):
            assert not reading.trappers_of[dump], f"{move}: a trapped dump was harvested"
            assert robot in reading.harvesters_of[dump], str(move)
            assert move.clause == reading.clause(robot, "HRV-2", "SHARV-1"), str(move)
        if move.clause == "SHOV-1":
            assert robot in reading.shovellers, str(move)


def reference_default_split(
    pool: Sequence[Gear], takers: Sequence[int], place_number: int
) -> dict[int, Counter[Gear]]:
    """The default split of rulings R-SPLIT and R-SYMMETRY, written out independently of the
    engine.

    Each taker first gets its own colour up to its share (Jolly and three-point gears are
    nobody's colour in play, JOL-2, TRI-2); then the remaining gears are dealt one at a
    time, most valuable to the taker first (ties: the ring after its own colour, VAL-1,
    R-SYMMETRY), round robin over the takers that still need gears, starting with the first
    taker clockwise after the place's number.
    """
    share = len(pool) // len(takers)
    remaining = sorted(pool, key=canonical)
    got: dict[int, list[Gear]] = {robot: [] for robot in sorted(takers)}
    for robot in got:
        for gear in [g for g in remaining if has_priority(g, robot)][:share]:
            remaining.remove(gear)
            got[robot].append(gear)
    while any(len(gears) < share for gears in got.values()):
        for robot in after(place_number, list(got)):
            gears = got[robot]
            if len(gears) < share:
                best = min(remaining, key=lambda g: (-worth(g, robot), ring(g, robot)))
                remaining.remove(best)
                gears.append(best)
    return {robot: Counter(gears) for robot, gears in got.items()}


def check_splits(before: GameState, result: TurnResult, choices: Choices | None = None) -> None:
    """Every split of the turn gives each taker the same share, with own-colour priority.

    share = pool // takers (SPL-1, SPL-4); each taker gets min(share, own-colour gears in
    the pool) of its own colour (SPL-2); the rest stays where it was (SPL-3). A split
    nobody chose follows the default policy (SPL-5); the Super Shovels' splits always do
    (SHOV-1, R-SHOVEL).
    """
    chosen = choices.splits if choices is not None else {}
    for index, split, pool in pools_of_splits(before, result.events):
        takers = split.takers
        assert len(takers) >= 2, str(split)
        assert list(takers) == sorted(set(takers)), str(split)
        share = share_size(len(pool), len(takers))
        assert split.share == share, f"{split}: pool of {len(pool)}"
        taken: dict[int, list[Gear]] = {robot: [] for robot in takers}
        for event in result.events[index + 1 : index + 1 + share * len(takers)]:
            assert isinstance(event, GearMoved), f"{split}: followed by {event}"
            assert event.source == split.place, f"{split}: followed by {event}"
            assert event.clause in TAKING_CLAUSES, str(event)
            assert event.destination == Place.feet(event.robot or 0), str(event)
            assert event.destination.number in taken, f"{event}: not a taker of {split}"
            taken[event.destination.number].append(event.gear)
        for robot, got in taken.items():
            assert len(got) == share, f"{split}: robot {robot} got {got}"
            own = sum(1 for gear in got if has_priority(gear, robot))
            quota = min(share, sum(1 for gear in pool if has_priority(gear, robot)))
            assert own == quota, f"{split}: robot {robot} {got}"
        left = Counter(pool)
        for got in taken.values():
            left.subtract(got)
        assert all(count >= 0 for count in left.values()), f"{split}: took gears not there"
        assert Counter(split.left) == +left, f"{split}: left {split.left}, expected {left}"
        assert len(split.left) == len(pool) % len(takers)
        check_split(pool, takers, taken)
        given = chosen.get(split.place)
        if given is not None and set(given) == set(takers):
            assert {robot: Counter(got) for robot, got in taken.items()} == {
                robot: Counter(share) for robot, share in given.items()
            }, f"{split}: not the chosen split"
        else:
            assert {robot: Counter(got) for robot, got in taken.items()} == (
                reference_default_split(pool, takers, split.place.number)
            ), f"{split}: not the default split of {pool}: {taken}"
        expected = "SPL-4" if len(pool) < len(takers) else "SPL-1"
        assert split.clause == expected, str(split)


def check_takings(
    before: GameState, programs: Mapping[int, AnyProgram], result: TurnResult
) -> None:
    """Robots take exactly what the rules give them, from the pool as the rules see it.

    A lone taker takes the whole pool (ATK-6, TRP-3, HRV-2 and the upgrades' SATK-1,
    CDEF-1, STRAP-1, SHARV-1); several split it (checked by :func:`check_splits`, which
    this one relies on for the shares). Feet are taken as they stood after the defences,
    all attacks at once (ATK-7, R-SIMUL): a gear an attacker gained in this step is never
    taken by another attack. Then the Super Shovels take what is left on every dump (SHOV-1).
    Nothing else is taken.
    """
    reading = read_programs(programs)
    moves = result.moves
    after_defences = GearTable(before)
    after_defences.apply_all(m for m in moves if m.clause in DEFENCE_STEAL_CLAUSES)
    splits: dict[Place, list[SplitResolved]] = {}
    for event in result.events:
        if isinstance(event, SplitResolved):
            splits.setdefault(event.place, []).append(event)
    for move in moves:
        if move.clause not in TAKING_CLAUSES:
            continue
        assert move.destination == Place.feet(move.robot or 0), str(move)
        if move.clause == "SHOV-1":
            assert move.robot in reading.shovellers, str(move)
            assert move.source.kind is PlaceKind.DUMP, str(move)
            continue
        assert move.source in reading.takings, f"{move}: nobody took from {move.source}"
        clauses = reading.takings[move.source]
        assert clauses.get(move.robot or 0) == move.clause, f"{move}: takers {clauses}"
    expected_splits: dict[Place, list[tuple[int, ...]]] = {}
    for place, by_taker in reading.takings.items():
        takers = tuple(sorted(by_taker))
        if place.kind is PlaceKind.FEET:
            pool = Counter(after_defences.feet[place.number])
        else:
            pool = Counter(before.dump(place.number).gears)
        moved = Counter(
            m.gear
            for m in moves
            if m.source == place and m.robot in by_taker and m.clause == by_taker[m.robot]
        )
        if len(takers) == 1:
            assert moved == pool, f"{place}: robot {takers[0]} took {moved} of {pool}"
        else:
            expected_splits.setdefault(place, []).append(takers)
            first = splits.get(place, [])
            assert first, f"{place}: takers {takers} and no split"
            assert first[0].takers == takers, f"{place}: takers {takers}, {first}"
            assert moved + Counter(first[0].left) == pool, f"{place}: {moved}"
    shovellers = reading.shovellers
    for dump in before.dumps if shovellers else ():
        place = Place.dump(dump.number)
        by_taker = reading.takings.get(place, {})
        first_moved = Counter(m.gear for m in moves if m.source == place and m.robot in by_taker)
        pool = Counter(dump.gears) - first_moved
        moved = Counter(m.gear for m in moves if m.source == place and m.clause == "SHOV-1")
        last = splits.get(place, [])
        if len(shovellers) == 1:
            assert moved == pool, f"{place}: the shoveller took {moved} of {pool}"
        elif pool or (last and last[-1].takers == shovellers):
            # Shovellers split what is left (an empty dump may or may not record a split).
            expected_splits.setdefault(place, []).append(shovellers)
            assert last, f"{place}: shovellers {shovellers} and no split"
            assert last[-1].takers == shovellers, f"{place}: shovellers, {last}"
            assert moved + Counter(last[-1].left) == pool, f"{place}: {moved}"
    assert {p: [e.takers for e in found] for p, found in splits.items()} == expected_splits


def check_defence_steals(
    before: GameState,
    programs: Mapping[int, AnyProgram],
    result: TurnResult,
    choices: Choices | None = None,
) -> None:
    """Each standing defender takes one gear from each attacker that has one to give.

    ATK-4 from an attack card, SATK-2 from a Super Attacker; none under a Counter Defence
    (CDEF-2). From the attacker's feet, or its circuit unless the option says feet only
    (R-DEFENCE); to the defender's feet; nothing from anyone else, nothing for an untested
    defence. The defenders of one attacker take in turn, clockwise from the first after it,
    each from what the attacker still holds (SATK-2, R-SYMMETRY); the moves come in the order
    they happen: by attacker, ascending, then in that turn. Unless chosen, the gear worth most to the defender, feet before
    circuit, then the ring after the defender's colour (ATK-5, VAL-1, R-SYMMETRY).
    """
    chosen = choices.defence_steals if choices is not None else {}
    reading = read_programs(programs)
    from_circuit = before.options.defence_steal_source == "feet_or_circuit"
    holdings: dict[int, tuple[list[Gear], list[Gear]]] = {}
    taken: dict[tuple[int, int], GearMoved] = {}
    pairs = [
        (defender, attacker)
        for defender in reading.standing
        for attacker in reading.attackers_of.get(defender, ())
    ]
    for attacker in sorted({attacker for _, attacker in pairs}):
        for defender in after(attacker, [d for d, a in pairs if a == attacker]):
            robot = before.robot(attacker)
            feet, circuit = holdings.setdefault(attacker, (list(robot.feet), list(robot.circuit)))
            steal = chosen.get((defender, attacker))
            where: str
            if steal is not None:
                where, gear = steal.source, steal.gear
                assert where == "feet" or from_circuit, f"{steal}: the option allows the feet only"
            else:
                candidates = [(-worth(g, defender), 0, ring(g, defender), "feet", g) for g in feet]
                if from_circuit:
                    candidates += [
                        (-worth(g, defender), 1, ring(g, defender), "circuit", g) for g in circuit
                    ]
                if not candidates:
                    continue
                _, _, _, where, gear = min(candidates, key=lambda c: c[:3])
            (feet if where == "feet" else circuit).remove(gear)
            source = Place.feet(attacker) if where == "feet" else Place.circuit(attacker)
            clause = reading.clause(attacker, "ATK-4", "SATK-2")
            taken[(defender, attacker)] = GearMoved(
                gear, source, Place.feet(defender), defender, clause
            )
    expected = list(taken.values())
    steals = [m for m in result.moves if m.clause in DEFENCE_STEAL_CLAUSES]
    assert steals == expected, f"defence steals {steals}, expected {expected}"


def check_assembly(before: GameState, result: TurnResult, choices: Choices | None = None) -> None:
    """After activation, robots with 3+ feet gears move 2 into their circuit (ASM-1).

    Mandatory by default; optional assembly moves 2 unless the owner chose ``()``
    (R-ASSEMBLY); unless chosen, the two worth most to the robot, then the ring after its
    colour (ASM-2, VAL-1, R-SYMMETRY). Robots with fewer than 3 move none. Gears a Super Shovel took are at the
    feet by then (SHOV-1). A circuit only ever gains gears by assembly and only loses them
    to a defence steal (ASM-3, ATK-4, SATK-2).
    """
    feet = feet_after_activation(before, result.events)
    assemblies = choices.assemblies if choices is not None else {}
    moves = result.moves
    assembled: dict[int, list[GearMoved]] = {robot.number: [] for robot in before.robots}
    for move in moves:
        if move.clause == "ASM-1":
            assert move.robot in assembled, str(move)
            assembled[move.robot].append(move)
    for robot in before.robots:
        moved = assembled[robot.number]
        for move in moved:
            assert move.source == Place.feet(robot.number), str(move)
            assert move.destination == Place.circuit(robot.number), str(move)
        skipped = assemblies.get(robot.number) == () and before.options.assembly == "optional"
        want = 2 if len(feet[robot.number]) >= 3 and not skipped else 0
        assert len(moved) == want, f"robot {robot.number} assembled {len(moved)} gear(s)"
        assert not Counter(m.gear for m in moved) - Counter(feet[robot.number])
        if robot.number not in assemblies and want:
            ranked = sorted(
                feet[robot.number], key=lambda g: (-worth(g, robot.number), ring(g, robot.number))
            )
            assert Counter(m.gear for m in moved) == Counter(ranked[:2]), (
                f"robot {robot.number}: not the default assembly (ASM-2)"
            )
    for move in moves:
        if move.destination.kind is PlaceKind.CIRCUIT:
            assert move.clause == "ASM-1", str(move)
        if move.source.kind is PlaceKind.CIRCUIT:
            assert move.clause in DEFENCE_STEAL_CLAUSES, f"{move}: circuits are safe from attacks"


def check_choices_honoured(before: GameState, result: TurnResult, choices: Choices) -> None:
    """Explicit choices happened as given: the steals, the assemblies, the splits."""
    for (defender, attacker), steal in choices.defence_steals.items():
        moves = [
            m
            for m in result.moves
            if m.clause in DEFENCE_STEAL_CLAUSES
            and m.robot == defender
            and m.source.number == attacker
        ]
        assert len(moves) == 1, f"steal {defender}<-{attacker}: {moves}"
        assert moves[0].gear == steal.gear
        assert moves[0].source.kind.value == steal.source
    for robot, picked in choices.assemblies.items():
        moved = [m.gear for m in result.moves if m.clause == "ASM-1" and m.robot == robot]
        assert Counter(moved) == Counter(picked), f"robot {robot} assembled {moved}"
    for place, shares in choices.splits.items():
        for robot, share in shares.items():
            got = [
                m.gear
                for m in result.moves
                if m.source == place
                and m.destination == Place.feet(robot)
                and m.robot == robot
                and m.clause in TAKING_CLAUSES
            ]
            assert Counter(got) == Counter(share), f"{place}: robot {robot} got {got}"


def check_outcomes(programs: Mapping[int, AnyProgram], result: TurnResult) -> None:
    """Every program comes to the outcomes the rules say, and no other (:class:`TurnReading`).

    A card program comes to exactly one outcome; a Super Attack to one on every other robot,
    a Super Trap and a Super Harvest to one on every dump, a Counter Defence to one on every
    defender (or one saying it found none), a Super Shovel to one.
    """
    expected = read_programs(programs).outcomes
    got = Counter(
        (event.robot, event.program, event.outcome, event.clause)
        for event in result.events
        if isinstance(event, ActionResolved)
    )
    assert got == expected, f"outcomes {sorted(got - expected)} not expected; missing " + str(
        sorted(expected - got)
    )
    for robot, program in programs.items():
        if isinstance(program, Program):
            assert sum(n for (r, *_), n in got.items() if r == robot) == 1, f"robot {robot}"


def check_turn(
    before: GameState,
    programs: Mapping[int, AnyProgram],
    result: TurnResult,
    choices: Choices | None = None,
) -> None:
    """Every invariant of a played turn."""
    check_places(result.state)
    check_conservation(before, result.state)
    check_reserve_and_frame(before, result.state)
    check_events(before, result)
    check_upgrades_discarded(before, programs, result)
    check_traps_take_only_when_blocking(programs, result)
    check_splits(before, result, choices)
    check_outcomes(programs, result)
    check_takings(before, programs, result)
    check_defence_steals(before, programs, result, choices)
    check_assembly(before, result, choices)
    if choices is not None:
        check_choices_honoured(before, result, choices)


# --------------------------------------------------------------------------- whole games


def turn_bound(state: GameState) -> int:
    """Turns a lone-harvester game may last: until the reserve is out, and one more."""
    return math.ceil(len(state.reserve) / len(state.dumps)) + 1


def check_finished_game(game: PlayedGame) -> None:
    """The end of a game: END-1 holds, the scores add up, the winners are the best.

    A robot scores 2 for each gear of its own colour and each Jolly (JOL-2), 3 for each
    three-point gear (TRI-2), 1 for any other (END-2); the own-colour gears of the tie-break
    count the Jollies and never the three-point gears (END-3). A player scores its lower
    robot (VAR-3). Every upgrade card was laid at most once, by a robot of the player that
    held it, and the cards still held are the ones never laid (UPG-3).
    """
    final = game.final
    assert final.game_over
    assert not final.reserve
    assert any(not dump.gears for dump in final.dumps)
    assert all(not turn.result.state.game_over for turn in game.turns[:-1])
    assert gear_counts(final) == gear_counts(game.start)
    for robot in final.robots:
        gears = robot.feet + robot.circuit
        assert score_robot(robot) == sum(worth(gear, robot.number) for gear in gears)
    scores = player_scores(final)
    for score in scores:
        player = next(p for p in final.players if p.name == score.player)
        lowest = min(score_robot(final.robot(n)) for n in player.robots)
        assert score.points == lowest
        assert score.robot in player.robots
        robot = final.robot(score.robot)
        assert score_robot(robot) == lowest
        own = sum(1 for gear in robot.feet + robot.circuit if counts_as_own(gear, robot.number))
        assert score.own_colour == own
    best = max((s.points, s.own_colour) for s in scores)
    assert set(winners(final)) == {s.player for s in scores if (s.points, s.own_colour) == best}
    discarded = [
        event
        for turn in game.turns
        for event in turn.result.events
        if isinstance(event, UpgradeDiscarded)
    ]
    assert len({event.player for event in discarded}) == len(discarded), "a card laid twice"
    for player in game.start.players:
        laid = [event.card for event in discarded if event.player == player.name]
        now = next(p for p in final.players if p.name == player.name).upgrade
        assert laid == ([] if player.upgrade is None or now is not None else [player.upgrade])
        assert now == (None if laid else player.upgrade)
    with pytest.raises(GameOverError):
        resolve_turn(final, game.turns[-1].programs)


def check_full_box(game: PlayedGame) -> None:
    """A game set up from the boxes holds every gear it started with, to the end.

    11 gears of each colour in play (SET-3), 4 Jollies and 4 three-point gears when their
    expansions are on (JOL-1, TRI-1), and, under ``pad_reserve``, fewer gears than there
    are dumps of the lowest colour not in play, so that the reserve after the deal is a
    multiple of the dumps (REF-2, R-PAD-RESERVE); no other gear.
    """
    start, final = game.start, game.final
    rules = start.options
    numbers = start.robot_numbers
    expected: Counter[Gear] = Counter({Gear(n): GEARS_PER_COLOUR for n in numbers})
    if rules.jolly_gears:
        expected[JOLLY] = EXPANSION_GEARS_PER_KIND
    if rules.three_point_gears:
        expected[THREE_POINT] = EXPANSION_GEARS_PER_KIND
    dealt = sum(len(d.gears) for d in start.dumps)
    assert dealt == 2 * len(numbers), "a new game has two gears on each dump (SET-4)"
    if rules.pad_reserve:
        padding = -(sum(expected.values()) - dealt) % len(numbers)
        spare = next(c for c in range(1, 9) if c not in numbers)
        if padding:
            expected[Gear(spare)] = padding
        assert len(start.reserve) % len(numbers) == 0, "padding left a short refill (REF-2)"
    assert gear_counts(start) == expected
    assert gear_counts(final) == expected


def check_played_game(game: PlayedGame, *, full_box: bool = True) -> None:
    """Every invariant of each turn of a game played to its end, then of its end.

    ``full_box``: the game was set up from the boxes, so :func:`check_full_box` applies too.
    """
    for turn in game.turns:
        check_turn(turn.before, turn.programs, turn.result, turn.choices)
    check_finished_game(game)
    if full_box:
        check_full_box(game)


# --------------------------------------------------------------------------- purity


def reversed_programs(programs: Mapping[int, AnyProgram]) -> dict[int, AnyProgram]:
    """The same programs, given in the opposite order."""
    return dict(reversed(list(programs.items())))


def reversed_choices(choices: Choices) -> Choices:
    """The same choices, every mapping in the opposite insertion order."""
    return Choices(
        defence_steals=dict(reversed(list(choices.defence_steals.items()))),
        assemblies=dict(reversed(list(choices.assemblies.items()))),
        splits={
            place: dict(reversed(list(shares.items())))
            for place, shares in reversed(list(choices.splits.items()))
        },
    )


def play_and_check(
    state: GameState,
    programs: Mapping[int, AnyProgram],
    choices: Choices | None = None,
    *,
    purity: bool = True,
) -> TurnResult:
    """Play a turn, check every invariant, and (``purity``) that it is a pure function.

    Pure: the input state, programs and choices are unchanged (against a deep copy and a
    rebuilt state); the same inputs give the same result twice; giving the programs (and
    choices) in the reverse order changes nothing (PRG-3).
    """
    snapshot = copy.deepcopy(state) if purity else state
    rebuilt = rebuild(state) if purity else state
    programs_before = dict(programs)
    result = resolve_turn(state, programs, choices=choices)
    check_turn(state, programs, result, choices)
    if purity:
        assert state == snapshot, "the turn changed its input state"
        assert state == rebuilt, "the input state no longer equals the same position rebuilt"
        assert dict(programs) == programs_before, "the turn changed the programs"
        again = resolve_turn(state, programs, choices=choices)
        assert again == result, "the same inputs gave another result"
        flipped = resolve_turn(
            rebuilt,
            reversed_programs(programs),
            choices=reversed_choices(choices) if choices is not None else None,
        )
        assert flipped.state == result.state, "the order of the programs changed the state"
        assert flipped.events == result.events, "the order of the programs changed the events"
    return result
