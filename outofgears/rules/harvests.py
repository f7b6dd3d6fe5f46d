"""Phase 2.3, harvests (spec HRV-1, HRV-2, SHARV-1).

A harvest card names a dump (HRV-1). Unless a trap voided it (TRP-2), the
harvester takes every gear on that dump to its feet; several harvesters of one
dump split them (HRV-2, SPL-1). A Super Harvest harvests every dump in play at
once, sharing each with that dump's other harvesters (SHARV-1).
"""

from __future__ import annotations

from collections.abc import Iterable

from outofgears.rules.model import Place
from outofgears.rules.programs import HARVEST, ProgramReading
from outofgears.rules.table import DUMP, HARVEST_DONE, Plan, Table, reaches
from outofgears.rules.traps import harvesters_of, label, take_dump, trapped_dumps


def plan_harvests(plan: Plan, reading: ProgramReading) -> None:
    """Phase 2.3: every harvested dump that no trap voided, in ascending number (HRV-2)."""
    harvested = reading.numbers if reading.super_harvests else sorted(reading.harvest_on)
    trapped = trapped_dumps(reading)
    for dump in harvested:
        if dump not in trapped:
            plan.append((harvest_dump, dump))


def _harvest_touches(dump: int, reading: ProgramReading) -> tuple[Iterable[int], Iterable[int]]:
    return harvesters_of(reading, dump), (dump,)


def _harvest_pile(
    dump: int, table: Table, reading: ProgramReading
) -> tuple[Place, list[int], list[int]]:
    return DUMP[dump], table.dumps[dump], harvesters_of(reading, dump)


@reaches(_harvest_touches, pile=_harvest_pile)
def harvest_dump(table: Table, reading: ProgramReading, dump: int) -> None:
    """The harvesters of one untrapped dump take (or split) all its gears (HRV-2, SHARV-1)."""
    harvesters = harvesters_of(reading, dump)
    clauses = None
    if table.events is not None:
        code = reading.code
        clauses = ["HRV-2" if code[robot] == HARVEST else "SHARV-1" for robot in harvesters]
        for index, robot in enumerate(harvesters):
            table.act(robot, label(reading, robot, dump), HARVEST_DONE, clauses[index])
    take_dump(table, dump, harvesters, clauses)
