"""Phase 2.1, attacks and defences (spec ATK-1 to ATK-8).

An attack card with another robot's number attacks that robot; with one's own
number it is a defence (ATK-1). Defences resolve first (ATK-2): a defence voids
every attack on the defender (ATK-3) and the defender takes one gear from each
attacker (ATK-4, default choice ATK-5). Then the attacks that were not voided
hit, all at once (ATK-7, ruling R-SIMUL): each takes the victim's feet gears
as they stand after the defences (ATK-6), several attackers of one robot split
them (ATK-8), and gears gained in this step are not taken by another attack.
"""

from __future__ import annotations

from collections.abc import Mapping

from outofgears.choices import Choices, DefenceSteal
from outofgears.errors import IllegalChoiceError
from outofgears.events import ActionResolved, Event, GearMoved, Outcome
from outofgears.gears import Gear, gear_key
from outofgears.model import DefenceStealSource, Place
from outofgears.programs import Action, Program
from outofgears.sharing import take_gears
from outofgears.table import Table


def defenders(programs: Mapping[int, Program]) -> tuple[int, ...]:
    """The robots that programmed a defence: an attack on themselves (ATK-1).

    >>> defenders({1: Program.parse("attack 1"), 2: Program.parse("attack 1")})
    (1,)
    """
    return tuple(sorted(robot for robot, p in programs.items() if p.is_defence_of(robot)))


def attackers_by_target(programs: Mapping[int, Program]) -> dict[int, tuple[int, ...]]:
    """Each attacked robot and the robots attacking it, ascending (ATK-1).

    >>> attackers_by_target({1: Program.parse("attack 3"), 2: Program.parse("attack 3"),
    ...                      3: Program.parse("attack 3")})
    {3: (1, 2)}
    """
    targets: dict[int, list[int]] = {}
    for robot, program in sorted(programs.items()):
        if program.action is Action.ATTACK and not program.is_defence_of(robot):
            targets.setdefault(program.number, []).append(robot)
    return {target: tuple(robots) for target, robots in sorted(targets.items())}


def resolve_defences(
    table: Table, programs: Mapping[int, Program], choices: Choices
) -> list[Event]:
    """Defences, resolved before any attack (ATK-2, ATK-3, ATK-4).

    Every attack on a defender is voided, and the defender takes one gear from
    each of its attackers. A defender nobody attacked gets nothing.
    """
    check_defence_steal_choices(programs, choices)
    attackers = attackers_by_target(programs)
    events: list[Event] = []
    for defender in defenders(programs):
        voided = attackers.get(defender, ())
        outcome = Outcome.DEFENDED if voided else Outcome.DEFENDED_UNTESTED
        events.append(ActionResolved(defender, str(programs[defender]), outcome, "ATK-3"))
        for attacker in voided:
            events.append(
                ActionResolved(attacker, str(programs[attacker]), Outcome.ATTACK_VOIDED, "ATK-3")
            )
            events.extend(steal_from_attacker(table, defender, attacker, choices))
    return events


def check_defence_steal_choices(programs: Mapping[int, Program], choices: Choices) -> None:
    """A defence steal may be chosen only for a defender and a robot that attacked it."""
    attackers = attackers_by_target(programs)
    guarding = set(defenders(programs))
    for defender, attacker in choices.defence_steals:
        if defender not in guarding or attacker not in attackers.get(defender, ()):
            raise IllegalChoiceError(
                defender,
                f"no defence steal from robot {attacker}: it did not attack a defending robot "
                f"{defender}",
                clause="ATK-4",
            )


def steal_from_attacker(
    table: Table, defender: int, attacker: int, choices: Choices
) -> list[Event]:
    """The defender takes one gear from an attacker's feet or circuit (ATK-4).

    The gear is the one chosen in ``choices``, or by :func:`choose_defence_steal`.
    An attacker with no gear (where the option allows taking) loses nothing.
    """
    source_rule = table.state.options.defence_steal_source
    feet, circuit = table.feet[attacker], table.circuit[attacker]
    chosen = choices.defence_steals.get((defender, attacker))
    if chosen is None:
        chosen = choose_defence_steal(defender, feet, circuit, source_rule)
        if chosen is None:
            return []
    else:
        check_defence_steal(defender, attacker, chosen, feet, circuit, source_rule)
    source = Place.feet(attacker) if chosen.source == "feet" else Place.circuit(attacker)
    return [GearMoved(chosen.gear, source, Place.feet(defender), defender, "ATK-4")]


def choose_defence_steal(
    defender: int,
    feet: list[Gear] | tuple[Gear, ...],
    circuit: list[Gear] | tuple[Gear, ...],
    source_rule: DefenceStealSource = "feet_or_circuit",
) -> DefenceSteal | None:
    """The default defence steal (ATK-5): the gear worth most to the defender.

    On equal value a gear at the attacker's feet comes before one in its
    circuit, then the lowest colour number. ``None`` when there is nothing to take.

    >>> from outofgears.gears import gears
    >>> choose_defence_steal(2, gears(1, 3), gears(2))
    DefenceSteal(source='circuit', gear=Gear(2))
    >>> choose_defence_steal(2, gears(1, 3), gears(2), "feet_only").gear.colour
    1
    """
    candidates: list[tuple[int, int, tuple[str, int], DefenceSteal]] = [
        (-gear.points_for(defender), 0, gear_key(gear), DefenceSteal("feet", gear)) for gear in feet
    ]
    if source_rule == "feet_or_circuit":
        candidates += [
            (-gear.points_for(defender), 1, gear_key(gear), DefenceSteal("circuit", gear))
            for gear in circuit
        ]
    if not candidates:
        return None
    return min(candidates, key=lambda entry: entry[:3])[3]


def check_defence_steal(
    defender: int,
    attacker: int,
    chosen: DefenceSteal,
    feet: list[Gear] | tuple[Gear, ...],
    circuit: list[Gear] | tuple[Gear, ...],
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


def strike_attacks(table: Table, programs: Mapping[int, Program], choices: Choices) -> list[Event]:
    """Every attack not voided by a defence hits, all at once (ATK-6, ATK-7, ATK-8).

    Each victim's feet gears, as they stand after the defences, go to its
    attackers, split if there are several. Circuits are never taken (ASM-3).
    All events are computed from the same table, so a gear gained in this step
    is not taken by another attack in it (ruling R-SIMUL).
    """
    guarding = set(defenders(programs))
    events: list[Event] = []
    for victim, attackers in attackers_by_target(programs).items():
        if victim in guarding:
            continue
        events.extend(
            ActionResolved(attacker, str(programs[attacker]), Outcome.ATTACK_HIT, "ATK-6")
            for attacker in attackers
        )
        place = Place.feet(victim)
        events.extend(
            take_gears(table.feet[victim], place, attackers, "ATK-6", choices.splits.get(place))
        )
    return events
