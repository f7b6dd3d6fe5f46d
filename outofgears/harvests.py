"""Phase 2.3, harvests (spec HRV-1, HRV-2, SHARV-1).

A harvest card names a dump (HRV-1). Unless a trap voided it (TRP-2), the
harvester takes every gear on that dump to its feet; several harvesters of one
dump split them (HRV-2, SPL-1). A Super Harvest harvests every dump in play at
once, sharing each with that dump's other harvesters (SHARV-1).
"""

from __future__ import annotations

from outofgears.choices import Choices
from outofgears.events import ActionResolved, Event, Outcome
from outofgears.model import Place
from outofgears.programs import Program, Programs
from outofgears.sharing import take_gears
from outofgears.table import Table
from outofgears.traps import harvesters_of, is_trapped, label


def harvest_dumps(table: Table, programs: Programs, choices: Choices) -> list[Event]:
    """Every harvest that no trap voided takes its dump's gears (HRV-2).

    Dumps are resolved in ascending number; each dump is independent of the others.
    """
    events: list[Event] = []
    for dump in sorted(table.dumps):
        harvesters = harvesters_of(programs, dump)
        if harvesters and not is_trapped(programs, dump):
            events.extend(harvest_dump(table, programs, choices, dump, harvesters))
    return events


def harvest_dump(
    table: Table,
    programs: Programs,
    choices: Choices,
    dump: int,
    harvesters: tuple[int, ...],
) -> list[Event]:
    """The harvesters of one untrapped dump take (or split) all its gears."""
    clauses = {
        robot: "HRV-2" if isinstance(programs[robot], Program) else "SHARV-1"
        for robot in harvesters
    }
    events: list[Event] = [
        ActionResolved(robot, label(programs[robot], dump), Outcome.HARVEST_DONE, clauses[robot])
        for robot in harvesters
    ]
    place = Place.dump(dump)
    events.extend(
        take_gears(table.dumps[dump], place, harvesters, clauses, choices.splits.get(place))
    )
    return events
