"""Phase 2.1, attacks and defences (spec ATK-1 to ATK-8, SATK-1, SATK-2, CDEF-1, CDEF-2).

An attack card with another robot's number attacks that robot; with one's own
number it is a defence (ATK-1). Defences resolve first (ATK-2): a defence voids
every attack on the defender (ATK-3) and the defender takes one gear from each
attacker (ATK-4, default choice ATK-5). Then the attacks that were not voided
hit, all at once (ATK-7, ruling R-SIMUL): each takes the victim's feet gears
as they stand after the defences (ATK-6), several attackers of one robot split
them (ATK-8), and gears gained in this step are not taken by another attack.

With the Robot Upgrades, a Super Attack attacks every other robot (SATK-1;
each defender voids it and takes a gear from it, SATK-2), and a Counter Defence
voids every defence and attacks every robot that programmed one (CDEF-1, CDEF-2).
"""

from __future__ import annotations

from collections.abc import Sequence

from outofgears.choices import Choices, DefenceSteal
from outofgears.errors import IllegalChoiceError
from outofgears.events import ActionResolved, Event, GearMoved, Outcome
from outofgears.gears import Gear, clockwise_after, ring_key
from outofgears.model import DefenceStealSource, Place, PlaceKind, UpgradeCard
from outofgears.programs import Action, Program, Programs, UpgradeProgram
from outofgears.sharing import take_gears
from outofgears.table import Table
from outofgears.traps import robots_laying


def defenders(programs: Programs) -> tuple[int, ...]:
    """The robots that programmed a defence: an attack on themselves (ATK-1).

    >>> defenders({1: Program.parse("attack 1"), 2: Program.parse("attack 1")})
    (1,)
    """
    return tuple(sorted(robot for robot, p in programs.items() if p.is_defence_of(robot)))


def standing_defenders(programs: Programs) -> tuple[int, ...]:
    """The defences that hold: all of them, unless a Counter Defence voids them all (CDEF-2).

    >>> laid = {1: Program.parse("attack 1"), 2: UpgradeProgram(UpgradeCard.COUNTER_DEFENCE)}
    >>> standing_defenders(laid), standing_defenders({1: Program.parse("attack 1")})
    ((), (1,))
    """
    if robots_laying(programs, UpgradeCard.COUNTER_DEFENCE):
        return ()
    return defenders(programs)


def attack_targets(
    robot: int, program: Program | UpgradeProgram, programs: Programs, robots: Sequence[int]
) -> tuple[int, ...]:
    """The robots that one program attacks (ATK-1, SATK-1, CDEF-1).

    An attack card names one robot (its own number is a defence, not an attack);
    a Super Attack attacks every other robot in play; a Counter Defence attacks
    every robot that programmed a defence.

    >>> attack_targets(1, UpgradeProgram(UpgradeCard.SUPER_ATTACK), {}, (1, 2, 3))
    (2, 3)
    """
    if isinstance(program, Program):
        if program.action is Action.ATTACK and program.number != robot:
            return (program.number,)
        return ()
    if program.card is UpgradeCard.SUPER_ATTACK:
        return tuple(other for other in robots if other != robot)
    if program.card is UpgradeCard.COUNTER_DEFENCE:
        return defenders(programs)
    return ()


def attackers_by_target(
    programs: Programs, robots: Sequence[int] | None = None
) -> dict[int, tuple[int, ...]]:
    """Each attacked robot and the robots attacking it, ascending (ATK-1).

    ``robots`` are the robots in play (needed for a Super Attack; default: the
    robots that have programs).

    >>> attackers_by_target({1: Program.parse("attack 3"), 2: Program.parse("attack 3"),
    ...                      3: Program.parse("attack 3")})
    {3: (1, 2)}
    """
    in_play = tuple(sorted(programs)) if robots is None else tuple(robots)
    targets: dict[int, list[int]] = {}
    for robot, program in sorted(programs.items()):
        for target in attack_targets(robot, program, programs, in_play):
            targets.setdefault(target, []).append(robot)
    return {target: tuple(robots) for target, robots in sorted(targets.items())}


def attack_clause(program: Program | UpgradeProgram) -> str:
    """The clause under which an attacker takes gears: ATK-6, SATK-1 or CDEF-1.

    >>> attack_clause(Program.parse("attack 2")), attack_clause(UpgradeProgram(UpgradeCard.SUPER_ATTACK))
    ('ATK-6', 'SATK-1')
    """
    if isinstance(program, Program):
        return "ATK-6"
    return "SATK-1" if program.card is UpgradeCard.SUPER_ATTACK else "CDEF-1"


def _label(program: Program | UpgradeProgram, target: int) -> str:
    return str(program) if isinstance(program, Program) else f"{program} (robot {target})"


def resolve_defences(table: Table, programs: Programs, choices: Choices) -> list[Event]:
    """Defences, resolved before any attack (ATK-2, ATK-3, ATK-4, SATK-2, CDEF-2).

    Every attack on a defender is voided, and the defender takes one gear from
    each of its attackers. The defenders of one attacker (several only against a
    Super Attack) take in turn, the first defender clockwise after the attacker
    first, each from what is left (ruling R-SYMMETRY); the events list the
    defenders in ascending number. A defender nobody attacked gets nothing. A
    Counter Defence voids every defence instead.
    """
    check_defence_steal_choices(table, programs, choices)
    if robots_laying(programs, UpgradeCard.COUNTER_DEFENCE):
        return [
            ActionResolved(robot, str(programs[robot]), Outcome.DEFENCE_COUNTERED, "CDEF-2")
            for robot in defenders(programs)
        ]
    attackers = attackers_by_target(programs, table.state.robot_numbers)
    defended_by: dict[int, list[int]] = {}
    for defender in defenders(programs):
        for attacker in attackers.get(defender, ()):
            defended_by.setdefault(attacker, []).append(defender)
    steals: dict[tuple[int, int], list[GearMoved]] = {}
    for attacker, its_defenders in sorted(defended_by.items()):
        feet, circuit = list(table.feet[attacker]), list(table.circuit[attacker])
        steal_clause = "ATK-4" if isinstance(programs[attacker], Program) else "SATK-2"
        for defender in clockwise_after(attacker, its_defenders):
            stolen = steal_from_attacker(
                table, defender, attacker, choices, feet, circuit, clause=steal_clause
            )
            for move in stolen:
                (feet if move.source.kind is PlaceKind.FEET else circuit).remove(move.gear)
            steals[(defender, attacker)] = stolen
    events: list[Event] = []
    for defender in defenders(programs):
        voided = attackers.get(defender, ())
        outcome = Outcome.DEFENDED if voided else Outcome.DEFENDED_UNTESTED
        events.append(ActionResolved(defender, str(programs[defender]), outcome, "ATK-3"))
        for attacker in voided:
            clause = "ATK-3" if isinstance(programs[attacker], Program) else "SATK-2"
            events.append(
                ActionResolved(
                    attacker, _label(programs[attacker], defender), Outcome.ATTACK_VOIDED, clause
                )
            )
            events.extend(steals[(defender, attacker)])
    return events


def check_defence_steal_choices(table: Table, programs: Programs, choices: Choices) -> None:
    """A defence steal may be chosen only for a standing defender and a robot that attacked it."""
    attackers = attackers_by_target(programs, table.state.robot_numbers)
    guarding = set(standing_defenders(programs))
    for defender, attacker in choices.defence_steals:
        if defender not in guarding or attacker not in attackers.get(defender, ()):
            raise IllegalChoiceError(
                defender,
                f"no defence steal from robot {attacker}: it did not attack a defending robot "
                f"{defender}",
                clause="ATK-4",
            )


def steal_from_attacker(
    table: Table,
    defender: int,
    attacker: int,
    choices: Choices,
    feet: Sequence[Gear] | None = None,
    circuit: Sequence[Gear] | None = None,
    *,
    clause: str = "ATK-4",
) -> list[GearMoved]:
    """The defender takes one gear from an attacker's feet or circuit (ATK-4).

    ``feet`` and ``circuit`` are what the attacker still holds (default: what it
    holds on the table). The gear is the one chosen in ``choices``, or by
    :func:`choose_defence_steal`. An attacker with no gear (where the option
    allows taking) loses nothing. The move cites ``clause``: ATK-4, or SATK-2
    when the attacker is a Super Attacker.
    """
    source_rule = table.state.options.defence_steal_source
    feet = table.feet[attacker] if feet is None else feet
    circuit = table.circuit[attacker] if circuit is None else circuit
    chosen = choices.defence_steals.get((defender, attacker))
    if chosen is None:
        chosen = choose_defence_steal(defender, feet, circuit, source_rule)
        if chosen is None:
            return []
    else:
        check_defence_steal(defender, attacker, chosen, feet, circuit, source_rule)
    source = Place.feet(attacker) if chosen.source == "feet" else Place.circuit(attacker)
    return [GearMoved(chosen.gear, source, Place.feet(defender), defender, clause)]


def choose_defence_steal(
    defender: int,
    feet: Sequence[Gear],
    circuit: Sequence[Gear],
    source_rule: DefenceStealSource = "feet_or_circuit",
) -> DefenceSteal | None:
    """The default defence steal (ATK-5): the gear worth most to the defender.

    On equal worth a gear at the attacker's feet comes before one in its circuit,
    then the colours in the ring after the defender's own (ruling R-SYMMETRY:
    :func:`~outofgears.gears.ring_key`). ``None`` when there is nothing to take.

    >>> from outofgears.gears import gears
    >>> choose_defence_steal(2, gears(1, 3), gears(2))
    DefenceSteal(source='circuit', gear=Gear(2))
    >>> choose_defence_steal(2, gears(1, 3), gears(2), "feet_only").gear.colour
    3
    >>> choose_defence_steal(5, gears(1, 8), ()).gear.colour
    8
    """
    candidates: list[tuple[int, int, int, DefenceSteal]] = [
        (-gear.points_for(defender), 0, ring_key(gear, defender), DefenceSteal("feet", gear))
        for gear in feet
    ]
    if source_rule == "feet_or_circuit":
        candidates += [
            (-gear.points_for(defender), 1, ring_key(gear, defender), DefenceSteal("circuit", gear))
            for gear in circuit
        ]
    if not candidates:
        return None
    return min(candidates, key=lambda entry: entry[:3])[3]


def check_defence_steal(
    defender: int,
    attacker: int,
    chosen: DefenceSteal,
    feet: Sequence[Gear],
    circuit: Sequence[Gear],
    source_rule: DefenceStealSource,
) -> None:
    """Refuse a chosen defence steal that the rules or the option forbid (ATK-4)."""
    if chosen.source not in ("feet", "circuit"):
        raise IllegalChoiceError(
            defender,
            f"a defence steal comes from 'feet' or 'circuit', not {chosen.source!r}",
            clause="ATK-4",
        )
    if chosen.source == "circuit" and source_rule == "feet_only":
        raise IllegalChoiceError(
            defender,
            f"under defence_steal_source='feet_only' it cannot take from robot {attacker}'s "
            "circuit",
            clause="ATK-4",
        )
    where = feet if chosen.source == "feet" else circuit
    if chosen.gear not in where:
        raise IllegalChoiceError(
            defender,
            f"robot {attacker} has no {chosen.gear} gear in its {chosen.source}",
            clause="ATK-4",
        )


def strike_attacks(table: Table, programs: Programs, choices: Choices) -> list[Event]:
    """Every attack not voided by a defence hits, all at once (ATK-6, ATK-7, ATK-8).

    Each victim's feet gears, as they stand after the defences, go to its
    attackers, split if there are several. Circuits are never taken (ASM-3).
    All events are computed from the same table, so a gear gained in this step
    is not taken by another attack in it (ruling R-SIMUL). Super Attacks and
    Counter Defences hit the same way (SATK-1, CDEF-1); a Counter Defence with
    no defence to punish takes nothing.
    """
    guarding = set(standing_defenders(programs))
    events: list[Event] = []
    for robot in robots_laying(programs, UpgradeCard.COUNTER_DEFENCE):
        if not defenders(programs):
            events.append(
                ActionResolved(robot, str(programs[robot]), Outcome.COUNTER_UNUSED, "CDEF-1")
            )
    for victim, attackers in attackers_by_target(programs, table.state.robot_numbers).items():
        if victim in guarding:
            continue
        clauses = {attacker: attack_clause(programs[attacker]) for attacker in attackers}
        events.extend(
            ActionResolved(
                attacker, _label(programs[attacker], victim), Outcome.ATTACK_HIT, clauses[attacker]
            )
            for attacker in attackers
        )
        place = Place.feet(victim)
        events.extend(
            take_gears(table.feet[victim], place, attackers, clauses, choices.splits.get(place))
        )
    return events
