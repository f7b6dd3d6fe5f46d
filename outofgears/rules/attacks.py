"""Phase 2.1, attacks and defences (spec ATK-1 to ATK-8, SATK-1, SATK-2, CDEF-1, CDEF-2).

An attack card with another robot's number attacks that robot; with one's own
number it is a defence (ATK-1). Defences resolve first (ATK-2): a defence voids
every attack on the defender (ATK-3) and the defender takes one gear from each
attacker (ATK-4, default choice ATK-5). Then the attacks that were not voided
hit, all at once (ATK-7, ruling R-SIMUL): each takes the victim's feet gears
as they stand after the defences (ATK-6), several attackers of one robot split
them (ATK-8), and gears gained in this step are not taken by another attack.

With the Robot Upgrades, a Super Attack attacks every other robot (SATK-1;
each defender voids it and takes a gear from it, SATK-2, in turn clockwise after
the attacker, R-SUPER-ATTACK), and a Counter Defence voids every defence and
attacks every robot that programmed one (CDEF-1, CDEF-2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from outofgears.rules.choices import DefenceSteal
from outofgears.rules.events import Outcome
from outofgears.rules.gears import (
    BEST_FIRST,
    PREFERENCE_KEY,
    WORTH,
    Gear,
    gear_of,
    gear_rank,
    gear_ranks,
    taking_order,
)
from outofgears.rules.model import DefenceStealSource, Place
from outofgears.rules.programs import (
    ATTACK,
    COUNTER_DEFENCE,
    SUPER_ATTACK,
    Program,
    ProgramReading,
)
from outofgears.rules.refusals import choice_refused
from outofgears.rules.sharing import take
from outofgears.rules.table import (
    ATTACK_HIT,
    ATTACK_VOIDED,
    CIRCUIT,
    DEFENCE_COUNTERED,
    DEFENDED,
    DEFENDED_UNTESTED,
    FEET,
    Plan,
    Table,
    reaches,
    touches_nothing,
)

#: The clause an attacker takes under, by its program code (ATK-6, SATK-1, CDEF-1).
_HIT_CLAUSES = {ATTACK: "ATK-6", SUPER_ATTACK: "SATK-1", COUNTER_DEFENCE: "CDEF-1"}


def attackers_by_target(reading: ProgramReading) -> dict[int, list[int]]:
    """Each attacked robot and the robots attacking it, ascending (ATK-1, SATK-1, CDEF-1).

    An attack card names one robot (its own number is a defence, not an attack); a Super
    Attack attacks every other robot in play; a Counter Defence attacks every robot that
    programmed a defence.
    """
    if not reading.upgrades:
        return reading.attacked_by
    super_attackers = reading.super_attacks
    counters = reading.counter_defences
    if not (super_attackers or counters):
        return reading.attacked_by
    attackers: dict[int, list[int]] = {}
    for victim in reading.numbers:
        hitting = list(reading.attacked_by.get(victim, ()))
        hitting += [robot for robot in super_attackers if robot != victim]
        if victim in reading.defenders:
            hitting += counters
        if hitting:
            attackers[victim] = sorted(hitting)
    return attackers


def standing_defenders(reading: ProgramReading) -> list[int]:
    """The defences that hold: all of them, unless a Counter Defence voids them all (CDEF-2)."""
    return [] if reading.counter_defences else reading.defenders


def _label(reading: ProgramReading, robot: int, target: int) -> str:
    program = reading.programs[robot]
    return str(program) if type(program) is Program else f"{program} (robot {target})"


# --- the plan of the attack phase ---------------------------------------------------------------


def plan_attacks(plan: Plan, reading: ProgramReading) -> None:
    """Phase 2.1 in order: the defences and their steals, then every attack at once (ATK-2)."""
    attackers = attackers_by_target(reading)
    counters = reading.counter_defences
    standing = standing_defenders(reading)
    if reading.defenders:
        plan.append((announce_defences, attackers))
        for attacker in sorted({a for d in standing for a in attackers.get(d, ())}):
            aimed_at = [d for d in standing if attacker in attackers.get(d, ())]
            # Several defenders take from one Super Attacker in turn, clockwise after it.
            for defender in taking_order(aimed_at, attacker) if len(aimed_at) > 1 else aimed_at:
                plan.append((steal_from_attacker, (defender, attacker)))
    elif counters:
        plan.append((announce_unused_counters, counters))
    if not attackers:
        return
    victims = sorted(attackers)
    if standing:
        victims = [victim for victim in victims if victim not in standing]
    if victims:
        plan.append((lift_feet, victims))
        for victim in victims:
            plan.append((strike, (victim, attackers[victim])))


@reaches(touches_nothing)
def announce_defences(
    table: Table, reading: ProgramReading, attackers: dict[int, list[int]]
) -> None:
    """What each defence came to: voided by a Counter Defence (CDEF-2), or holding (ATK-3)."""
    if table.events is None:
        return
    countered = bool(reading.counter_defences)
    for defender in reading.defenders:
        if countered:
            table.act(defender, reading.text(defender), DEFENCE_COUNTERED, "CDEF-2")
        else:
            tested = defender in attackers
            outcome = DEFENDED if tested else DEFENDED_UNTESTED
            table.act(defender, reading.text(defender), outcome, "ATK-3")


@reaches(touches_nothing)
def announce_unused_counters(table: Table, reading: ProgramReading, counters: list[int]) -> None:
    """A Counter Defence with no defence to punish takes nothing (CDEF-1)."""
    for robot in counters:
        table.act(robot, reading.text(robot), Outcome.COUNTER_UNUSED, "CDEF-1")


# --- the defence steal ----------------------------------------------------------------------


def _steal_touches(
    steal: tuple[int, int], reading: ProgramReading
) -> tuple[Iterable[int], Iterable[int]]:
    return steal, ()


@reaches(_steal_touches, steals=True)
def steal_from_attacker(table: Table, reading: ProgramReading, steal: tuple[int, int]) -> None:
    """The defence voids the attack and the defender takes one gear from the attacker (ATK-3,
    ATK-4; SATK-2 for a Super Attacker): the chosen gear, or the default (ATK-5).

    ``steal`` is ``(defender, attacker)``, the key of the choice in
    :attr:`Choices.defence_steals <outofgears.rules.choices.Choices.defence_steals>`. An attacker
    with nothing the option lets the defender take loses nothing.
    """
    defender, attacker = steal
    card = reading.code[attacker] == ATTACK
    if table.events is not None:
        label = _label(reading, attacker, defender)
        table.act(attacker, label, ATTACK_VOIDED, "ATK-3" if card else "SATK-2")
    feet_only = table.state.options.defence_steal_source == "feet_only"
    choices = table.choices
    chosen = None if choices is None else choices.defence_steals.get(steal)
    if chosen is None:
        circuit = [] if feet_only else table.circuit_of(attacker)
        picked = choose_steal(defender, table.feet[attacker], circuit)
        if picked is None:
            return
        from_feet, rank = picked
    else:
        from_feet, rank = check_defence_steal(table, defender, attacker, chosen)
    if from_feet:
        source = FEET[attacker]
        table.feet[attacker] = kept = list(table.feet[attacker])
        kept.remove(rank)
        table.moved_feet[attacker] = True
    else:
        source = CIRCUIT[attacker]
        table.circuit_of(attacker).remove(rank)
        table.moved_circuit[attacker] = True
    table.give([rank], source, defender, "ATK-4" if card else "SATK-2")


def choose_steal(
    defender: int, feet: Sequence[int], circuit: Sequence[int]
) -> tuple[bool, int] | None:
    """The default defence steal (ATK-5) among ranks: ``(from the feet?, rank)``, or ``None``.

    The gear worth most to the defender; on equal worth a gear at the attacker's feet before
    one in its circuit (``circuit`` is empty when the option forbids it), then by the ring
    from the defender's own colour (R-SYMMETRY).

    >>> choose_steal(5, [0, 7], []), choose_steal(2, [0], [1]), choose_steal(2, [], [])
    ((True, 7), (False, 1), None)
    """
    for rank in BEST_FIRST[defender]:
        if rank in feet:
            return True, rank
        if rank in circuit:
            break
    else:
        return None
    worth = WORTH[defender][rank]
    same = [other for other in feet if WORTH[defender][other] == worth]
    if same:
        return True, min(same, key=PREFERENCE_KEY[defender])
    return False, rank


def choose_defence_steal(
    defender: int,
    feet: Sequence[Gear],
    circuit: Sequence[Gear],
    source_rule: DefenceStealSource = "feet_or_circuit",
) -> DefenceSteal | None:
    """The default defence steal (ATK-5) among gears: see :func:`choose_steal`.

    >>> from outofgears.rules.gears import gears
    >>> choose_defence_steal(2, gears(1, 3), gears(2))
    DefenceSteal(source='circuit', gear=Gear(2))
    >>> choose_defence_steal(2, gears(1, 3), gears(2), "feet_only").gear.colour
    3
    """
    circuit_ranks = gear_ranks(circuit) if source_rule == "feet_or_circuit" else []
    picked = choose_steal(defender, gear_ranks(feet), circuit_ranks)
    if picked is None:
        return None
    return DefenceSteal("feet" if picked[0] else "circuit", gear_of(picked[1]))


def check_defence_steal(
    table: Table, defender: int, attacker: int, chosen: DefenceSteal
) -> tuple[bool, int]:
    """A chosen defence steal as ``(from the feet?, rank)``; refused if the rules or the
    option forbid it (ATK-4)."""
    if chosen.source not in ("feet", "circuit"):
        raise choice_refused(
            "a defence steal comes from 'feet' or 'circuit', not {source}",
            robot=defender,
            clause="ATK-4",
            source=repr(chosen.source),
        )
    from_feet = chosen.source == "feet"
    if not from_feet and table.state.options.defence_steal_source == "feet_only":
        raise choice_refused(
            "under defence_steal_source='feet_only' it cannot take from robot {attacker}'s circuit",
            robot=defender,
            clause="ATK-4",
            attacker=attacker,
        )
    rank = gear_rank(chosen.gear)
    where = table.feet[attacker] if from_feet else table.circuit_of(attacker)
    if rank not in where:
        raise choice_refused(
            "robot {attacker} has no {gear} gear in its {source}",
            robot=defender,
            clause="ATK-4",
            attacker=attacker,
            gear=chosen.gear,
            source=chosen.source,
        )
    return from_feet, rank


def steal_options(table: Table, defender: int, attacker: int) -> list[DefenceSteal]:
    """Every defence steal the rules allow ``defender`` from ``attacker`` now (ATK-4): each
    kind of gear at the attacker's feet, then in its circuit unless the option forbids it."""
    options = [DefenceSteal("feet", gear_of(rank)) for rank in sorted(set(table.feet[attacker]))]
    if table.state.options.defence_steal_source == "feet_or_circuit":
        options += [
            DefenceSteal("circuit", gear_of(rank))
            for rank in sorted(set(table.circuit_of(attacker)))
        ]
    return options


def check_defence_steal_choices(reading: ProgramReading, steals: Iterable[tuple[int, int]]) -> None:
    """A defence steal may be chosen only for a standing defender and a robot that attacked it."""
    attackers = attackers_by_target(reading)
    standing = standing_defenders(reading)
    for defender, attacker in steals:
        if defender not in standing or attacker not in attackers.get(defender, ()):
            raise choice_refused(
                "no defence steal from robot {attacker}: it did not attack a defending robot "
                "{defender}",
                robot=defender,
                clause="ATK-4",
                attacker=attacker,
                defender=defender,
            )


# --- the attacks strike -----------------------------------------------------------------------


def _lift_touches(
    victims: list[int], reading: ProgramReading
) -> tuple[Iterable[int], Iterable[int]]:
    return victims, ()


@reaches(_lift_touches)
def lift_feet(table: Table, reading: ProgramReading, victims: list[int]) -> None:
    """Every attacked robot's feet gears, as they stand after the defences, are taken at once
    (ATK-7, ruling R-SIMUL): a gear gained in this step is not taken by another attack.

    ``reading`` is not needed here; every step of a plan takes the same three arguments.
    """
    feet = table.feet
    held = table.held
    moved = table.moved_feet
    for victim in victims:
        held[victim] = feet[victim]
        feet[victim] = []
        moved[victim] = True


def _strike_touches(
    hit: tuple[int, list[int]], reading: ProgramReading
) -> tuple[Iterable[int], Iterable[int]]:
    victim, attackers = hit
    return (victim, *attackers), ()


def _strike_pile(
    hit: tuple[int, list[int]], table: Table, reading: ProgramReading
) -> tuple[Place, list[int], list[int]]:
    victim, attackers = hit
    return FEET[victim], table.held[victim], attackers


@reaches(_strike_touches, pile=_strike_pile)
def strike(table: Table, reading: ProgramReading, hit: tuple[int, list[int]]) -> None:
    """The attackers of a robot whose defence did not hold take its feet gears (ATK-6), split
    if there are several (ATK-8); circuits are never taken (ASM-3).

    ``hit`` is the attacked robot and its attackers, ascending.
    """
    victim, attackers = hit
    clauses = None
    if table.events is not None:
        code = reading.code
        clauses = [_HIT_CLAUSES[code[attacker]] for attacker in attackers]
        for index, attacker in enumerate(attackers):
            label = _label(reading, attacker, victim)
            table.act(attacker, label, ATTACK_HIT, clauses[index])
    pool = table.held.pop(victim)
    left = take(table, pool, FEET[victim], attackers, clauses, victim)
    if left:
        table.feet[victim] = table.feet[victim] + left
