"""Phase 2.2, traps (spec TRP-1 to TRP-4, STRAP-1).

A trap card names a dump (TRP-1). It voids every harvest programmed on that
dump, by anyone, a partner robot included (TRP-2). The trapper takes the
dump's gears only if it voided at least one harvest (TRP-3, ruling R-TRAP);
several sprung trappers on one dump split them (TRP-4). A trap on a dump that
nobody harvested does nothing.

With the Robot Upgrades, a Super Trap is a trap on every dump in play and a
Super Harvest a harvest on every dump in play (STRAP-1, SHARV-1); a Super
Shovel is not a harvest, so it neither springs nor is voided by a trap (SHOV-1).
"""

from __future__ import annotations

from outofgears.choices import Choices
from outofgears.events import ActionResolved, Event, Outcome
from outofgears.model import Place, UpgradeCard
from outofgears.programs import Action, Program, Programs, UpgradeProgram
from outofgears.sharing import take_gears
from outofgears.table import Table


def robots_programming(programs: Programs, action: Action, dump: int) -> tuple[int, ...]:
    """The robots whose action card is ``action`` on ``dump``, ascending.

    >>> robots_programming({1: Program.parse("trap 2"), 3: Program.parse("trap 2")},
    ...                    Action.TRAP, 2)
    (1, 3)
    """
    return tuple(
        sorted(
            robot
            for robot, program in programs.items()
            if isinstance(program, Program) and program.action is action and program.number == dump
        )
    )


def robots_laying(programs: Programs, card: UpgradeCard) -> tuple[int, ...]:
    """The robots that laid upgrade ``card``, ascending.

    >>> robots_laying({2: UpgradeProgram(UpgradeCard.SUPER_TRAP)}, UpgradeCard.SUPER_TRAP)
    (2,)
    """
    return tuple(
        sorted(
            robot
            for robot, program in programs.items()
            if isinstance(program, UpgradeProgram) and program.card is card
        )
    )


def _robots_acting(
    programs: Programs, action: Action, card: UpgradeCard, dump: int
) -> tuple[int, ...]:
    """``robots_programming(action, dump)`` and ``robots_laying(card)`` together, ascending.

    One pass over the programs instead of two scans and two sorts: it runs for every dump of
    every turn.
    """
    return tuple(
        sorted(
            robot
            for robot, program in programs.items()
            if (
                program.action is action and program.number == dump
                if isinstance(program, Program)
                else isinstance(program, UpgradeProgram) and program.card is card
            )
        )
    )


def trappers_of(programs: Programs, dump: int) -> tuple[int, ...]:
    """Every robot trapping ``dump`` in play: its trap cards and every Super Trap (TRP-1, STRAP-1).

    >>> trappers_of({1: Program.parse("trap 2"), 3: UpgradeProgram(UpgradeCard.SUPER_TRAP)}, 2)
    (1, 3)
    """
    return _robots_acting(programs, Action.TRAP, UpgradeCard.SUPER_TRAP, dump)


def harvesters_of(programs: Programs, dump: int) -> tuple[int, ...]:
    """Every robot harvesting ``dump`` in play: its harvest cards and every Super Harvest.

    >>> harvesters_of({1: Program.parse("harvest 2"), 4: UpgradeProgram(UpgradeCard.SUPER_HARVEST)}, 2)
    (1, 4)
    """
    return _robots_acting(programs, Action.HARVEST, UpgradeCard.SUPER_HARVEST, dump)


def is_trapped(programs: Programs, dump: int) -> bool:
    """Whether any robot trapped ``dump`` this turn (TRP-2).

    >>> is_trapped({1: Program.parse("trap 2")}, 2), is_trapped({1: Program.parse("trap 2")}, 1)
    (True, False)
    """
    return bool(trappers_of(programs, dump))


def label(program: Program | UpgradeProgram, dump: int) -> str:
    """A program as text, naming the dump for an upgrade that acts on every dump.

    >>> label(UpgradeProgram(UpgradeCard.SUPER_TRAP), 3)
    'super trap (dump 3)'
    """
    return str(program) if isinstance(program, Program) else f"{program} (dump {dump})"


def spring_traps(table: Table, programs: Programs, choices: Choices) -> list[Event]:
    """Resolve every trap, dump by dump in ascending number (TRP-2, TRP-3, TRP-4)."""
    events: list[Event] = []
    for dump in sorted(table.dumps):
        trappers = trappers_of(programs, dump)
        if trappers:
            events.extend(spring_trap(table, programs, choices, dump, trappers))
    return events


def spring_trap(
    table: Table,
    programs: Programs,
    choices: Choices,
    dump: int,
    trappers: tuple[int, ...],
) -> list[Event]:
    """The trappers of one dump: they void its harvests and, if any, take its gears."""
    harvesters = harvesters_of(programs, dump)
    clauses = {
        robot: "TRP-3" if isinstance(programs[robot], Program) else "STRAP-1" for robot in trappers
    }
    if not harvesters:
        return [
            ActionResolved(robot, label(programs[robot], dump), Outcome.TRAP_IDLE, clauses[robot])
            for robot in trappers
        ]
    events: list[Event] = [
        ActionResolved(robot, label(programs[robot], dump), Outcome.HARVEST_VOIDED, "TRP-2")
        for robot in harvesters
    ]
    events.extend(
        ActionResolved(robot, label(programs[robot], dump), Outcome.TRAP_SPRUNG, clauses[robot])
        for robot in trappers
    )
    place = Place.dump(dump)
    events.extend(
        take_gears(table.dumps[dump], place, trappers, clauses, choices.splits.get(place))
    )
    return events
