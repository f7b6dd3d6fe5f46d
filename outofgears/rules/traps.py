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

from collections.abc import Iterable

from outofgears.rules.model import Place
from outofgears.rules.programs import TRAP, Program, ProgramReading
from outofgears.rules.sharing import take
from outofgears.rules.table import (
    DUMP,
    HARVEST_VOIDED,
    TRAP_IDLE,
    TRAP_SPRUNG,
    Plan,
    Table,
    reaches,
)


def trappers_of(reading: ProgramReading, dump: int) -> list[int]:
    """Every robot trapping ``dump``: its trap cards and every Super Trap, ascending (TRP-1,
    STRAP-1)."""
    cards = reading.trap_on.get(dump, [])
    supers = reading.super_traps
    return sorted(cards + supers) if supers else cards


def harvesters_of(reading: ProgramReading, dump: int) -> list[int]:
    """Every robot harvesting ``dump``: its harvest cards and every Super Harvest, ascending
    (HRV-1, SHARV-1)."""
    cards = reading.harvest_on.get(dump, [])
    supers = reading.super_harvests
    return sorted(cards + supers) if supers else cards


def trapped_dumps(reading: ProgramReading) -> list[int]:
    """The dumps some robot traps this turn, ascending (TRP-2)."""
    if reading.super_traps:
        return list(reading.numbers)
    return sorted(reading.trap_on)


def label(reading: ProgramReading, robot: int, dump: int) -> str:
    """A program as text, naming the dump for an upgrade that acts on every dump.

    >>> from outofgears import Program, UpgradeCard, UpgradeProgram, setup_game
    >>> state = setup_game([1, 2], seed=1, options=__import__("outofgears").Options(upgrades=True))
    >>> card = state.players[0].upgrade
    >>> reading = ProgramReading(state, {1: UpgradeProgram(card), 2: Program.parse("trap 1")})
    >>> label(reading, 1, 2) == f"{card.value} (dump 2)", label(reading, 2, 1)
    (True, 'trap 1')
    """
    program = reading.programs[robot]
    return str(program) if type(program) is Program else f"{program} (dump {dump})"


def plan_traps(plan: Plan, reading: ProgramReading) -> None:
    """Phase 2.2: every trapped dump, in ascending number."""
    for dump in trapped_dumps(reading):
        plan.append((spring_trap, dump))


def _trap_touches(dump: int, reading: ProgramReading) -> tuple[Iterable[int], Iterable[int]]:
    return trappers_of(reading, dump), (dump,)


def _trap_pile(
    dump: int, table: Table, reading: ProgramReading
) -> tuple[Place, list[int], list[int]] | None:
    # A trap takes the dump only if it voided a harvest (TRP-3).
    if not harvesters_of(reading, dump):
        return None
    return DUMP[dump], table.dumps[dump], trappers_of(reading, dump)


@reaches(_trap_touches, pile=_trap_pile)
def spring_trap(table: Table, reading: ProgramReading, dump: int) -> None:
    """The trappers of one dump void its harvests (TRP-2) and, if they voided any, take its
    gears (TRP-3), split if there are several (TRP-4); else the trap does nothing."""
    trappers = trappers_of(reading, dump)
    harvesters = harvesters_of(reading, dump)
    clauses = None
    if table.events is not None:
        code = reading.code
        clauses = ["TRP-3" if code[robot] == TRAP else "STRAP-1" for robot in trappers]
        if not harvesters:
            for index, robot in enumerate(trappers):
                table.act(robot, label(reading, robot, dump), TRAP_IDLE, clauses[index])
            return
        for robot in harvesters:
            table.act(robot, label(reading, robot, dump), HARVEST_VOIDED, "TRP-2")
        for index, robot in enumerate(trappers):
            table.act(robot, label(reading, robot, dump), TRAP_SPRUNG, clauses[index])
    if harvesters:
        take_dump(table, dump, trappers, clauses)


def take_dump(table: Table, dump: int, takers: list[int], clauses: list[str] | None) -> None:
    """``takers`` take the gears of ``dump`` (SPL-1 to SPL-5: the round starts after the dump)."""
    pool = table.dumps[dump]
    if not pool and len(takers) == 1 and table.choices is None:
        return  # nothing moves and nothing is split; a chosen split is still checked (SPL-5)
    table.dumps[dump] = take(table, pool, DUMP[dump], takers, clauses, dump)
    table.moved_dumps[dump] = True
