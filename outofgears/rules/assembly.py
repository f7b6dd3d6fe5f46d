"""Phase 3, assembly (spec ASM-1 to ASM-3, ruling R-ASSEMBLY).

After activation, every robot with three or more gears at its feet moves two
of them into its internal circuit (ASM-1): mandatory by default, as the French
rulebook says; optional under ``Options(assembly="optional")``, as the Italian
one says. The owner picks the two; by default the two worth most to it
(ASM-2). Circuit gears are safe from attacks (ASM-3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from outofgears.rules.gears import (
    PREFERENCE_KEY,
    Gear,
    gear_of,
    gear_ranks,
)
from outofgears.rules.model import AssemblyRule
from outofgears.rules.refusals import choice_refused, choice_refused_counted
from outofgears.rules.table import CIRCUIT, FEET, Table, gear_moved

#: Gears a robot needs at its feet to assemble, and how many it moves (ASM-1).
ASSEMBLY_THRESHOLD = 3
ASSEMBLY_SIZE = 2


def can_assemble(feet: Sequence[object]) -> bool:
    """Whether a robot with these feet gears assembles this turn (ASM-1).

    >>> from outofgears.rules.gears import gears
    >>> can_assemble(gears(1, 2)), can_assemble(gears(1, 2, 3))
    (False, True)
    """
    return len(feet) >= ASSEMBLY_THRESHOLD


def choose_assembly(robot: int, feet: Sequence[int]) -> list[int]:
    """The default pick (ASM-2) among ranks: the two gears worth most to the robot, ties by
    the ring from its own colour (R-SYMMETRY).

    >>> choose_assembly(8, [0, 1, 2]), choose_assembly(3, [0, 1, 2, 3])
    ([0, 1], [2, 3])
    """
    return sorted(feet, key=PREFERENCE_KEY[robot])[:ASSEMBLY_SIZE]


def choose_assembly_gears(robot: int, feet: Sequence[Gear]) -> tuple[Gear, ...]:
    """The default pick (ASM-2) among gears: see :func:`choose_assembly`.

    >>> from outofgears.rules.gears import gears, describe_gears
    >>> describe_gears(choose_assembly_gears(3, gears(1, 2, 3, 4)))
    '1 yellow, 1 green'
    """
    return tuple(gear_of(rank) for rank in choose_assembly(robot, gear_ranks(feet)))


def assemble_circuits(table: Table) -> None:
    """Every robot that can assemble moves two feet gears into its circuit (ASM-1): the
    gears it chose, or the default pick (ASM-2); see :func:`assembly_pick`."""
    choices = table.choices
    chosen_by = choices.assemblies if choices is not None else None
    rule = table.state.options.assembly
    feet = table.feet
    for robot in table.numbers:
        ranks = feet[robot]
        chosen = chosen_by.get(robot) if chosen_by else None
        if chosen is None and not can_assemble(ranks):
            continue  # nothing to pick: most robots, most turns
        picked = assembly_pick(robot, ranks, chosen, rule)
        if picked:
            move_to_circuit(table, robot, picked)


def move_to_circuit(table: Table, robot: int, picked: Sequence[int]) -> None:
    """Move the ranks ``picked`` from the robot's feet into its circuit (ASM-1)."""
    feet = table.feet[robot]
    for rank in picked:
        feet.remove(rank)
    table.circuit_of(robot).extend(picked)
    table.moved_feet[robot] = table.moved_circuit[robot] = True
    events = table.events
    if events is not None:
        source, to = FEET[robot], CIRCUIT[robot]
        for rank in picked:
            events.append(gear_moved(gear_of(rank), source, to, robot, "ASM-1"))


def check_assembly_choices(numbers: Sequence[int], assemblies: Iterable[int]) -> None:
    """An assembly may be chosen only for a robot in play (ASM-1)."""
    for robot in sorted(set(assemblies) - set(numbers)):
        raise choice_refused("this robot is not in play", robot=robot, clause="ASM-1")


def assembly_pick(
    robot: int,
    feet: Sequence[int],
    chosen: Sequence[Gear] | None,
    rule: AssemblyRule,
) -> list[int]:
    """The ranks ``robot`` moves into its circuit (ASM-1): none when it cannot assemble; else
    the two it chose, if the rules allow them, or none if it declines where assembly is
    optional; the default pick (ASM-2, :func:`choose_assembly`) when the table chose nothing
    (``chosen`` is ``None``).

    >>> from outofgears.rules.gears import gears
    >>> assembly_pick(1, [0, 1, 2], gears(3, 1), "optional")
    [0, 2]
    >>> assembly_pick(1, [0, 1, 2], (), "optional")
    []
    >>> assembly_pick(3, [0, 1, 2], None, "optional"), assembly_pick(3, [0, 1], None, "mandatory")
    ([2, 0], [])
    >>> assembly_pick(1, [0, 1, 2], (), "mandatory")
    Traceback (most recent call last):
    ...
    outofgears.errors.IllegalChoiceError: robot 1: assembly is mandatory: it must move 2 gears (ASM-1)
    """
    if not can_assemble(feet):
        if chosen:
            raise choice_refused_counted(
                "it has {count} gear at its feet; assembly needs {needed}",
                "it has {count} gears at its feet; assembly needs {needed}",
                len(feet),
                robot=robot,
                clause="ASM-1",
                count=len(feet),
                needed=ASSEMBLY_THRESHOLD,
            )
        return []
    if chosen is None:
        return choose_assembly(robot, feet)
    if not chosen and rule == "optional":
        return []
    if len(chosen) != ASSEMBLY_SIZE:
        if not chosen:
            raise choice_refused(
                "assembly is mandatory: it must move {size} gears",
                robot=robot,
                clause="ASM-1",
                size=ASSEMBLY_SIZE,
            )
        raise choice_refused(
            "it moves exactly {size} gears", robot=robot, clause="ASM-1", size=ASSEMBLY_SIZE
        )
    picked = gear_ranks(chosen)
    for rank in picked:
        if picked.count(rank) > feet.count(rank):
            raise choice_refused(
                "it cannot assemble {chosen}: its feet hold {feet}",
                robot=robot,
                clause="ASM-1",
                chosen=tuple(chosen),
                feet=tuple(gear_of(rank) for rank in sorted(feet)),
            )
    return picked


def assembly_options(robot: int, feet: Sequence[int], rule: AssemblyRule) -> list[tuple[Gear, ...]]:
    """Every assembly the rules allow ``robot`` with these feet ranks (ASM-1): each distinct
    pair of its feet gears, and under the optional reading also ``()``, assembling nothing.
    Empty when the robot has too few gears to assemble.

    >>> [len(pick) for pick in assembly_options(1, [0, 0, 3], "optional")]
    [2, 2, 0]
    """
    if not can_assemble(feet):
        return []
    kinds = sorted(set(feet))
    pairs: list[tuple[Gear, ...]] = [
        (gear_of(first), gear_of(second))
        for index, first in enumerate(kinds)
        for second in kinds[index:]
        if first != second or feet.count(first) >= 2
    ]
    return [*pairs, ()] if rule == "optional" else pairs
