"""Phase 3, assembly (spec ASM-1 to ASM-3, ruling R-ASSEMBLY).

After activation, every robot with three or more gears at its feet moves two
of them into its internal circuit (ASM-1): mandatory by default, as the French
rulebook says; optional under ``Options(assembly="optional")``, as the Italian
one says. The owner picks the two; by default the two worth most to it
(ASM-2). Circuit gears are safe from attacks (ASM-3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from outofgears.choices import Choices
from outofgears.errors import IllegalChoiceError
from outofgears.events import Event, GearMoved
from outofgears.gears import Gear, describe_gears, ring_key
from outofgears.model import AssemblyRule, Place
from outofgears.programs import Programs
from outofgears.table import Table

#: Gears a robot needs at its feet to assemble, and how many it moves (ASM-1).
ASSEMBLY_THRESHOLD = 3
ASSEMBLY_SIZE = 2


def can_assemble(feet: Sequence[Gear]) -> bool:
    """Whether a robot with these feet gears assembles this turn (ASM-1).

    >>> from outofgears.gears import gears
    >>> can_assemble(gears(1, 2)), can_assemble(gears(1, 2, 3))
    (False, True)
    """
    return len(feet) >= ASSEMBLY_THRESHOLD


def choose_assembly_gears(robot: int, feet: Sequence[Gear]) -> tuple[Gear, ...]:
    """The default pick (ASM-2): the two gears worth most to the robot.

    Among gears of equal worth, the colours in the ring after the robot's own come
    first (ruling R-SYMMETRY: :func:`~outofgears.gears.ring_key`).

    >>> from outofgears.gears import gears, describe_gears
    >>> describe_gears(choose_assembly_gears(3, gears(1, 2, 3, 4)))
    '1 yellow, 1 green'
    >>> describe_gears(choose_assembly_gears(8, gears(1, 2, 3)))
    '1 red, 1 orange'
    """
    ranked = sorted(feet, key=lambda gear: (-gear.points_for(robot), ring_key(gear, robot)))
    return tuple(ranked[:ASSEMBLY_SIZE])


def assemble_circuits(table: Table, programs: Programs, choices: Choices) -> list[Event]:
    """Every robot that can assemble moves two feet gears into its circuit (ASM-1)."""
    rule = table.state.options.assembly
    for robot in sorted(set(choices.assemblies) - set(table.feet)):
        raise IllegalChoiceError(robot, "this robot is not in play", clause="ASM-1")
    events: list[Event] = []
    for robot in sorted(table.feet):
        picked = assembly_pick(robot, table.feet[robot], choices.assemblies.get(robot), rule)
        events.extend(
            GearMoved(gear, Place.feet(robot), Place.circuit(robot), robot, "ASM-1")
            for gear in picked
        )
    return events


def assembly_pick(
    robot: int,
    feet: Sequence[Gear],
    chosen: Sequence[Gear] | None,
    rule: AssemblyRule,
) -> tuple[Gear, ...]:
    """The gears ``robot`` moves into its circuit: the chosen ones if legal, else the default.

    >>> from outofgears.gears import gears
    >>> assembly_pick(1, gears(1, 2, 3), (), "optional")
    ()
    >>> assembly_pick(1, gears(1, 2, 3), (), "mandatory")
    Traceback (most recent call last):
    ...
    outofgears.errors.IllegalChoiceError: robot 1: assembly is mandatory: it must move 2 gears (ASM-1)
    """
    if not can_assemble(feet):
        if chosen:
            raise IllegalChoiceError(
                robot,
                f"it has {len(feet)} gear(s) at its feet; assembly needs {ASSEMBLY_THRESHOLD}",
                clause="ASM-1",
            )
        return ()
    if chosen is None:
        return choose_assembly_gears(robot, feet)
    if not chosen and rule == "optional":
        return ()
    if len(chosen) != ASSEMBLY_SIZE:
        why = "assembly is mandatory: it must move" if not chosen else "it moves exactly"
        raise IllegalChoiceError(robot, f"{why} {ASSEMBLY_SIZE} gears", clause="ASM-1")
    if Counter(chosen) - Counter(feet):
        raise IllegalChoiceError(
            robot,
            f"it cannot assemble {describe_gears(chosen)}: its feet hold {describe_gears(feet)}",
            clause="ASM-1",
        )
    return tuple(chosen)
