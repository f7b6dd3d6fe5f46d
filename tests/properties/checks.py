"""Invariants of a turn, shared by the property tests and the exhaustive enumeration.

Each ``check_*`` function asserts one family of invariants about a turn already played;
:func:`check_turn` runs them all. They raise :class:`AssertionError` with the facts.
"""

from __future__ import annotations

import copy
import os
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from hypothesis import settings

from outofgears import (
    Action,
    ActionResolved,
    Choices,
    GameState,
    Gear,
    GearMoved,
    Outcome,
    Place,
    PlaceKind,
    Program,
    SplitResolved,
    TurnEnded,
    TurnResult,
    apply_events,
    resolve_turn,
)
from outofgears.sharing import check_split, own_colour_quota, share_size
from outofgears.table import Table
from tests.strategies import feet_after_activation, gear_counts, pools_of_splits, rebuild

CLAUSES_TOML = Path(__file__).resolve().parents[2] / "spec" / "clauses.toml"


def load_clause_ids() -> frozenset[str]:
    """The clause IDs of spec/clauses.toml."""
    with CLAUSES_TOML.open("rb") as handle:
        data = tomllib.load(handle)
    return frozenset(str(entry["id"]) for entry in data["clause"])


CLAUSE_IDS = load_clause_ids()

#: The clauses under which robots take the gears of a place, alone or in a split.
TAKING_CLAUSES = frozenset({"ATK-6", "TRP-3", "HRV-2"})

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")


def budget(default: int, ci: int) -> settings:
    """Settings with ``default`` examples under the default profile, ``ci`` under ``ci``.

    For the heavy, ``slow``-marked tests: a larger budget than the profile's own on CI,
    a modest one in the edit-test loop.
    """
    return settings(max_examples=ci if PROFILE == "ci" else default)


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
            assert list(pile) == sorted(pile, key=lambda g: (g.kind.value, g.colour)), name


def check_conservation(before: GameState, after: GameState) -> None:
    """The multiset feet + circuits + dumps + reserve is the same before and after."""
    assert gear_counts(before) == gear_counts(after), (
        f"gears not conserved: before {sorted(gear_counts(before).items(), key=str)}, "
        f"after {sorted(gear_counts(after).items(), key=str)}"
    )


def check_reserve_and_frame(before: GameState, after: GameState) -> None:
    """The reserve only feeds the dumps, from its front; the frame of the game is kept.

    The reserve shrinks by exactly min(its size, dumps in play) (EXP-1), and what is left
    is the rest of it in draw order. Robots, dumps, players and options stay; the turn
    number goes up by one and the game is over exactly as END-1 says.
    """
    drawn = len(before.reserve) - len(after.reserve)
    assert 0 <= drawn <= len(before.dumps), f"the reserve shrank by {drawn}"
    assert drawn == min(len(before.reserve), len(before.dumps))
    assert after.reserve == before.reserve[drawn:]
    assert after.robot_numbers == before.robot_numbers
    assert tuple(d.number for d in after.dumps) == tuple(d.number for d in before.dumps)
    assert after.players == before.players
    assert [r.player for r in after.robots] == [r.player for r in before.robots]
    assert after.options == before.options
    assert after.turn == before.turn + 1
    assert after.game_over == (not after.reserve and any(not d.gears for d in after.dumps))


# --------------------------------------------------------------------------- events


def check_events(before: GameState, result: TurnResult) -> None:
    """The events replay to the new state and each cites a clause of spec/clauses.toml."""
    assert apply_events(before, result.events) == result.state
    for event in result.events:
        assert event.clause in CLAUSE_IDS, f"{event} cites an unknown clause"
    closing = [event for event in result.events if isinstance(event, TurnEnded)]
    assert closing == [TurnEnded(before.turn, result.state.game_over, closing[0].clause)]
    assert result.events[-1] == closing[0]


def check_traps_take_only_when_blocking(
    programs: Mapping[int, Program], result: TurnResult
) -> None:
    """A gear moved by a trap (TRP-3) comes from a dump that some robot harvested.

    And the other way round: no harvest takes from a trapped dump (TRP-2).
    """
    harvested = {p.number for p in programs.values() if p.action is Action.HARVEST}
    trapped = {p.number for p in programs.values() if p.action is Action.TRAP}
    for move in result.moves:
        if move.clause == "TRP-3":
            assert move.source.kind is PlaceKind.DUMP, str(move)
            assert move.source.number in harvested, f"{move}: nobody harvested that dump"
            assert move.source.number in trapped, str(move)
            assert programs[move.robot or 0] == Program(Action.TRAP, move.source.number)
        if move.clause == "HRV-2":
            assert move.source.number not in trapped, f"{move}: a trapped dump was harvested"


def reference_default_split(
    pool: Sequence[Gear], takers: Sequence[int]
) -> dict[int, Counter[Gear]]:
    """The default split of ruling R-SPLIT, written out independently of the engine.

    Each taker first gets its own colour up to its share; then the remaining gears are
    dealt one at a time, most valuable to the taker first (ties: lowest colour), round
    robin over the takers that still need gears in ascending robot number.
    """
    share = len(pool) // len(takers)
    remaining = sorted(pool, key=lambda gear: gear.colour)
    got: dict[int, list[Gear]] = {robot: [] for robot in sorted(takers)}
    for robot in got:
        for gear in [g for g in remaining if g.colour == robot][:share]:
            remaining.remove(gear)
            got[robot].append(gear)
    while any(len(gears) < share for gears in got.values()):
        for robot, gears in got.items():
            if len(gears) < share:
                best = min(remaining, key=lambda g: (-g.points_for(robot), g.colour))
                remaining.remove(best)
                gears.append(best)
    return {robot: Counter(gears) for robot, gears in got.items()}


def check_splits(before: GameState, result: TurnResult, choices: Choices | None = None) -> None:
    """Every split of the turn gives each taker the same share, with own-colour priority.

    share = pool // takers (SPL-1, SPL-4); each taker gets min(share, own-colour gears in
    the pool) of its own colour (SPL-2); the rest stays where it was (SPL-3). A split
    nobody chose follows the default policy (SPL-5).
    """
    chosen = choices.splits if choices is not None else {}
    for index, split, pool in pools_of_splits(before, result.events):
        takers = split.takers
        assert len(takers) >= 2, str(split)
        assert list(takers) == sorted(set(takers)), str(split)
        share = share_size(len(pool), len(takers))
        assert split.share == share, f"{split}: pool of {len(pool)}"
        taken: dict[int, list[Gear]] = {robot: [] for robot in takers}
        for event in result.events[index + 1 :]:
            if not (
                isinstance(event, GearMoved)
                and event.source == split.place
                and event.clause in TAKING_CLAUSES
            ):
                break
            assert event.destination.kind is PlaceKind.FEET, str(event)
            assert event.destination.number in taken, f"{event}: not a taker of {split}"
            taken[event.destination.number].append(event.gear)
        for robot, got in taken.items():
            assert len(got) == share, f"{split}: robot {robot} got {got}"
            own = sum(1 for gear in got if gear.has_priority_for(robot))
            assert own == own_colour_quota(pool, robot, share), f"{split}: robot {robot} {got}"
        left = Counter(pool)
        for got in taken.values():
            left.subtract(got)
        assert all(count >= 0 for count in left.values()), f"{split}: took gears not there"
        assert Counter(split.left) == +left, f"{split}: left {split.left}, expected {left}"
        assert len(split.left) == len(pool) % len(takers)
        check_split(pool, takers, taken)
        if split.place not in chosen:
            assert {robot: Counter(got) for robot, got in taken.items()} == (
                reference_default_split(pool, takers)
            ), f"{split}: not the default split of {pool}: {taken}"
        expected = "SPL-4" if len(pool) < len(takers) else "SPL-1"
        assert split.clause == expected, str(split)


def takers_by_place(programs: Mapping[int, Program]) -> dict[Place, tuple[str, list[int]]]:
    """Each place that robots take from this turn: the clause and the successful takers.

    A hit attack takes the victim's feet (ATK-6), a sprung trap its dump (TRP-3), an
    untrapped harvest its dump (HRV-2); outcomes as :func:`expected_outcome` says.
    """
    places: dict[Place, tuple[str, list[int]]] = {}
    for robot in sorted(programs):
        program = programs[robot]
        outcome = expected_outcome(programs, robot)
        if outcome is Outcome.ATTACK_HIT:
            place, clause = Place.feet(program.number), "ATK-6"
        elif outcome is Outcome.TRAP_SPRUNG:
            place, clause = Place.dump(program.number), "TRP-3"
        elif outcome is Outcome.HARVEST_DONE:
            place, clause = Place.dump(program.number), "HRV-2"
        else:
            continue
        places.setdefault(place, (clause, []))[1].append(robot)
    return places


def check_takings(before: GameState, programs: Mapping[int, Program], result: TurnResult) -> None:
    """Robots take exactly what the rules give them, from the pool as the rules see it.

    A lone taker takes the whole pool (ATK-6, TRP-3, HRV-2); several split it (checked
    by :func:`check_splits`, which this one relies on for the shares). Feet are taken as
    they stood after the defences, all attacks at once (ATK-7, R-SIMUL): a gear an
    attacker gained in this step is never taken by another attack. Nothing else is taken.
    """
    after_defences = Table(before)
    after_defences.apply_all(m for m in result.moves if m.clause == "ATK-4")
    splits = {e.place: e for e in result.events if isinstance(e, SplitResolved)}
    places = takers_by_place(programs)
    for move in result.moves:
        if move.clause in TAKING_CLAUSES:
            assert move.source in places, f"{move}: nobody took from {move.source} this turn"
            clause, takers = places[move.source]
            assert move.clause == clause, str(move)
            assert move.robot in takers, str(move)
            assert move.destination == Place.feet(move.robot), str(move)
    for place, (clause, takers) in places.items():
        if place.kind is PlaceKind.FEET:
            pool = tuple(after_defences.feet[place.number])
        else:
            pool = before.dump(place.number).gears
        moved = Counter(m.gear for m in result.moves if m.source == place and m.clause == clause)
        if len(takers) == 1:
            assert place not in splits, f"a lone taker split {place}"
            assert moved == Counter(pool), f"{place}: robot {takers[0]} took {moved} of {pool}"
        else:
            assert place in splits, f"{place}: takers {takers} and no split"
            assert list(splits[place].takers) == takers
            assert moved + Counter(splits[place].left) == Counter(pool), f"{place}: {moved}"


def check_defence_steals(
    before: GameState,
    programs: Mapping[int, Program],
    result: TurnResult,
    choices: Choices | None = None,
) -> None:
    """Each defender takes exactly one gear from each attacker that has one to give (ATK-4).

    From the attacker's feet, or its circuit unless the option says feet only (R-DEFENCE);
    to the defender's feet; nothing from anyone else, nothing for an untested defence.
    Unless chosen, the gear worth most to the defender, feet before circuit, then the
    lowest colour (ATK-5).
    """
    chosen = choices.defence_steals if choices is not None else {}
    from_circuit = before.options.defence_steal_source == "feet_or_circuit"
    expected: set[tuple[int, int]] = set()
    for defender, program in programs.items():
        if not program.is_defence_of(defender):
            continue
        for attacker, other in programs.items():
            if attacker != defender and other == Program(Action.ATTACK, defender):
                robot = before.robot(attacker)
                if robot.feet or (from_circuit and robot.circuit):
                    expected.add((defender, attacker))
    steals = [m for m in result.moves if m.clause == "ATK-4"]
    got = [(m.robot or 0, m.source.number) for m in steals]
    assert sorted(got) == sorted(expected), f"defence steals {got}, expected {sorted(expected)}"
    for move in steals:
        assert move.destination == Place.feet(move.robot or 0), str(move)
        robot = before.robot(move.source.number)
        if move.source.kind is PlaceKind.FEET:
            assert move.gear in robot.feet, str(move)
        else:
            assert move.source.kind is PlaceKind.CIRCUIT, str(move)
            assert from_circuit, f"{move}: the option allows the feet only"
            assert move.gear in robot.circuit, str(move)
        defender = move.robot or 0
        if (defender, robot.number) not in chosen:
            candidates = [(-g.points_for(defender), 0, g.colour) for g in robot.feet]
            if from_circuit:
                candidates += [(-g.points_for(defender), 1, g.colour) for g in robot.circuit]
            _, place, colour = min(candidates)
            assert (move.source.kind is PlaceKind.CIRCUIT, move.gear.colour) == (
                place == 1,
                colour,
            ), f"{move}: not the default steal (ATK-5)"


def check_assembly(before: GameState, result: TurnResult, choices: Choices | None = None) -> None:
    """After activation, robots with 3+ feet gears move 2 into their circuit (ASM-1).

    Mandatory by default; optional assembly moves 2 unless the owner chose ``()``
    (R-ASSEMBLY); unless chosen, the two worth most to the robot, then the lowest colour
    (ASM-2). Robots with fewer than 3 move none. A circuit only ever gains gears by
    assembly and only loses them to a defence steal (ASM-3).
    """
    feet = feet_after_activation(before, result.events)
    assemblies = choices.assemblies if choices is not None else {}
    for robot in before.robots:
        moved = [m for m in result.moves if m.clause == "ASM-1" and m.robot == robot.number]
        for move in moved:
            assert move.source == Place.feet(robot.number), str(move)
            assert move.destination == Place.circuit(robot.number), str(move)
        skipped = assemblies.get(robot.number) == () and before.options.assembly == "optional"
        want = 2 if len(feet[robot.number]) >= 3 and not skipped else 0
        assert len(moved) == want, f"robot {robot.number} assembled {len(moved)} gear(s)"
        assert not Counter(m.gear for m in moved) - Counter(feet[robot.number])
        if robot.number not in assemblies and want:
            ranked = sorted(
                feet[robot.number], key=lambda g: (-g.points_for(robot.number), g.colour)
            )
            assert Counter(m.gear for m in moved) == Counter(ranked[:2]), (
                f"robot {robot.number}: not the default assembly (ASM-2)"
            )
    for move in result.moves:
        if move.destination.kind is PlaceKind.CIRCUIT:
            assert move.clause == "ASM-1", str(move)
        if move.source.kind is PlaceKind.CIRCUIT:
            assert move.clause == "ATK-4", f"{move}: circuits are safe from attacks"


def check_choices_honoured(before: GameState, result: TurnResult, choices: Choices) -> None:
    """Explicit choices happened as given: the steals, the assemblies, the splits."""
    for (defender, attacker), steal in choices.defence_steals.items():
        moves = [
            m
            for m in result.moves
            if m.clause == "ATK-4" and m.robot == defender and m.source.number == attacker
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
                if m.source == place and m.destination.number == robot and m.robot == robot
            ]
            assert Counter(got) == Counter(share), f"{place}: robot {robot} got {got}"


def expected_outcome(programs: Mapping[int, Program], robot: int) -> Outcome:
    """What ``robot``'s program comes to, straight from the rules (ATK-3, TRP-2, TRP-3)."""
    program = programs[robot]
    targets = {other: p for other, p in programs.items() if other != robot}
    if program.is_defence_of(robot):
        attacked = any(p == Program(Action.ATTACK, robot) for p in targets.values())
        return Outcome.DEFENDED if attacked else Outcome.DEFENDED_UNTESTED
    if program.action is Action.ATTACK:
        defended = programs[program.number].is_defence_of(program.number)
        return Outcome.ATTACK_VOIDED if defended else Outcome.ATTACK_HIT
    if program.action is Action.TRAP:
        harvested = any(p == Program(Action.HARVEST, program.number) for p in targets.values())
        return Outcome.TRAP_SPRUNG if harvested else Outcome.TRAP_IDLE
    trapped = any(p == Program(Action.TRAP, program.number) for p in targets.values())
    return Outcome.HARVEST_VOIDED if trapped else Outcome.HARVEST_DONE


def check_outcomes(programs: Mapping[int, Program], result: TurnResult) -> None:
    """Every robot's program comes to exactly one outcome, the one the rules say."""
    outcomes: dict[int, list[Outcome]] = {robot: [] for robot in programs}
    for event in result.events:
        if isinstance(event, ActionResolved):
            assert event.program == str(programs[event.robot]), str(event)
            outcomes[event.robot].append(event.outcome)
    for robot, got in outcomes.items():
        assert got == [expected_outcome(programs, robot)], (
            f"robot {robot} ({programs[robot]}): outcomes {got}"
        )


def check_turn(
    before: GameState,
    programs: Mapping[int, Program],
    result: TurnResult,
    choices: Choices | None = None,
) -> None:
    """Every invariant of a played turn."""
    check_places(result.state)
    check_conservation(before, result.state)
    check_reserve_and_frame(before, result.state)
    check_events(before, result)
    check_traps_take_only_when_blocking(programs, result)
    check_splits(before, result, choices)
    check_outcomes(programs, result)
    check_takings(before, programs, result)
    check_defence_steals(before, programs, result, choices)
    check_assembly(before, result, choices)
    if choices is not None:
        check_choices_honoured(before, result, choices)


# --------------------------------------------------------------------------- purity


def reversed_programs(programs: Mapping[int, Program]) -> dict[int, Program]:
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
    programs: Mapping[int, Program],
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
