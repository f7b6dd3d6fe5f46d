"""Phase 2.2, traps (spec TRP-1 to TRP-4).

A trap card names a dump (TRP-1). It voids every harvest programmed on that
dump, by anyone, a partner robot included (TRP-2). The trapper takes the
dump's gears only if it voided at least one harvest (TRP-3, ruling R-TRAP);
several sprung trappers on one dump split them (TRP-4). A trap on a dump that
nobody harvested does nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from outofgears.choices import Choices
from outofgears.events import ActionResolved, Event, Outcome
from outofgears.model import Place
from outofgears.programs import Action, Program
from outofgears.sharing import take_gears
from outofgears.table import Table


def robots_programming(
    programs: Mapping[int, Program], action: Action, dump: int
) -> tuple[int, ...]:
    """The robots whose program is ``action`` on ``dump``, ascending.

    >>> robots_programming({1: Program.parse("trap 2"), 3: Program.parse("trap 2")},
    ...                    Action.TRAP, 2)
    (1, 3)
    """
    return tuple(
        sorted(
            robot
            for robot, program in programs.items()
            if program.action is action and program.number == dump
        )
    )


def is_trapped(programs: Mapping[int, Program], dump: int) -> bool:
    """Whether any robot trapped ``dump`` this turn (TRP-2).

    >>> is_trapped({1: Program.parse("trap 2")}, 2), is_trapped({1: Program.parse("trap 2")}, 1)
    (True, False)
    """
    return bool(robots_programming(programs, Action.TRAP, dump))


def spring_traps(table: Table, programs: Mapping[int, Program], choices: Choices) -> list[Event]:
    """Resolve every trap, dump by dump in ascending number (TRP-2, TRP-3, TRP-4)."""
    events: list[Event] = []
    for dump in sorted(table.dumps):
        trappers = robots_programming(programs, Action.TRAP, dump)
        if trappers:
            events.extend(spring_trap(table, programs, choices, dump, trappers))
    return events


def spring_trap(
    table: Table,
    programs: Mapping[int, Program],
    choices: Choices,
    dump: int,
    trappers: tuple[int, ...],
) -> list[Event]:
    """The trappers of one dump: they void its harvests and, if any, take its gears."""
    harvesters = robots_programming(programs, Action.HARVEST, dump)
    if not harvesters:
        return [
            ActionResolved(robot, str(programs[robot]), Outcome.TRAP_IDLE, "TRP-3")
            for robot in trappers
        ]
    events: list[Event] = [
        ActionResolved(robot, str(programs[robot]), Outcome.HARVEST_VOIDED, "TRP-2")
        for robot in harvesters
    ]
    events.extend(
        ActionResolved(robot, str(programs[robot]), Outcome.TRAP_SPRUNG, "TRP-3")
        for robot in trappers
    )
    place = Place.dump(dump)
    events.extend(
        take_gears(table.dumps[dump], place, trappers, "TRP-3", choices.splits.get(place))
    )
    return events
