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
from collections.abc import Sequence

from outofgears.choices import Choices
from outofgears.errors import SetupError
from outofgears.events import ActionResolved, Event, Outcome, UpgradeDiscarded
from outofgears.model import Place, UpgradeCard
from outofgears.programs import Programs, UpgradeProgram
from outofgears.sharing import take_gears
from outofgears.table import Table
from outofgears.traps import robots_laying


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
            f"the upgrade deck has {len(deck)} card(s) for {len(players)} players", clause="UPG-1"
        )
    shuffled = list(deck)
    rng.shuffle(shuffled)
    return dict(zip(players, shuffled, strict=False))


def shovel_dumps(table: Table, programs: Programs, choices: Choices) -> list[Event]:
    """Every Super Shovel takes every gear still on the dumps; two shovels split each dump (SHOV-1).

    It comes after all harvests and before assembly. Traps neither void it nor
    are sprung by it. Shovels split by the default policy (ruling R-SHOVEL).
    """
    shovellers = robots_laying(programs, UpgradeCard.SUPER_SHOVEL)
    events: list[Event] = [
        ActionResolved(robot, str(programs[robot]), Outcome.SHOVELLED, "SHOV-1")
        for robot in shovellers
    ]
    if not shovellers:
        return events
    for dump in sorted(table.dumps):
        if table.dumps[dump]:
            events.extend(take_gears(table.dumps[dump], Place.dump(dump), shovellers, "SHOV-1"))
    return events


def discard_played_upgrades(table: Table, programs: Programs, choices: Choices) -> list[Event]:
    """Every upgrade card laid this turn leaves the game at the end of the turn (UPG-3)."""
    return [
        UpgradeDiscarded(robot, table.state.player_of(robot).name, program.card, "UPG-3")
        for robot, program in sorted(programs.items())
        if isinstance(program, UpgradeProgram)
    ]
