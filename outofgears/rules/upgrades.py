"""The Robot Upgrades expansion (spec UPG-1 to UPG-4, SHOV-1; ruling R-UPG-DECK).

At setup, after the gears are placed, the upgrade deck is shuffled with the
game's random generator and each player is dealt one card face down (UPG-1).
In programming a robot may lay its player's card instead of an action card and
a number card (UPG-2); the card works once and is discarded at the end of the
turn (UPG-3). The cards that act with the attacks, traps and harvests are
resolved in those modules (SATK-*, CDEF-*, STRAP-1, SHARV-1); the Super Shovel
has a step of its own, after the harvests and before assembly (SHOV-1).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from outofgears.errors import SetupError
from outofgears.rules.events import Outcome, UpgradeDiscarded
from outofgears.rules.gears import counted
from outofgears.rules.model import UpgradeCard
from outofgears.rules.programs import ProgramReading, UpgradeProgram
from outofgears.rules.table import Plan, Table, reaches
from outofgears.rules.traps import take_dump


def deal_upgrade_cards(
    players: Sequence[str], deck: Sequence[UpgradeCard], rng: random.Random
) -> dict[str, UpgradeCard]:
    """Shuffle the deck and deal one card to each player, in the order given (UPG-1).

    >>> dealt = deal_upgrade_cards(["Ada", "Bo"], list(UpgradeCard), random.Random(1))
    >>> sorted(dealt), all(isinstance(card, UpgradeCard) for card in dealt.values())
    (['Ada', 'Bo'], True)
    """
    if len(deck) < len(players):
        raise SetupError(
            f"the upgrade deck has {counted(len(deck), 'card')} for {len(players)} players",
            clause="UPG-1",
        )
    shuffled = list(deck)
    rng.shuffle(shuffled)
    return dict(zip(players, shuffled, strict=False))


def plan_shovels(plan: Plan, reading: ProgramReading) -> None:
    """The Super Shovels' own step, after the harvests and before assembly (SHOV-1)."""
    shovellers = reading.super_shovels
    if shovellers:
        plan.append((shovel_dumps, shovellers))


def _shovel_touches(
    shovellers: list[int], reading: ProgramReading
) -> tuple[Iterable[int], Iterable[int]]:
    # Every dump; the splits are the default's (R-SHOVEL), so no pile is the players' choice.
    return shovellers, reading.numbers


@reaches(_shovel_touches)
def shovel_dumps(table: Table, reading: ProgramReading, shovellers: list[int]) -> None:
    """Every Super Shovel takes every gear still on the dumps; two shovels split each dump (SHOV-1).

    Traps neither void it nor are sprung by it. Shovels split by the default policy (ruling
    R-SHOVEL), whatever the table chose for other splits.
    """
    for robot in shovellers:
        table.act(robot, reading.text(robot), Outcome.SHOVELLED, "SHOV-1")
    clauses = ["SHOV-1"] * len(shovellers) if table.events is not None else None
    choices, table.choices = table.choices, None
    try:
        for dump in table.numbers:  # an empty dump too: its split event as for harvests (SPL-6)
            take_dump(table, dump, shovellers, clauses)
    finally:
        table.choices = choices


def discard_played_upgrades(table: Table, reading: ProgramReading) -> None:
    """Every upgrade card laid this turn leaves the game at the end of the turn (UPG-3)."""
    state = table.state
    for robot in reading.numbers:
        program = reading.programs[robot]
        if isinstance(program, UpgradeProgram):
            player = state.player_of(robot).name
            table.discarded.add(player)
            table.emit(UpgradeDiscarded(robot, player, program.card, "UPG-3"))
