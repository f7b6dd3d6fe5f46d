"""Events: what happened in a turn, each with the spec clause that made it happen.

Resolution emits events and builds the new state from them alone, so the
events of a turn applied to the old state give exactly the new state
(:func:`outofgears.rules.table.apply_events`). Replays and explanations read them.

* :class:`GearMoved` -- a gear went from one place to another.
* :class:`ActionResolved` -- what a program came to (an attack hit, a trap sprang...).
* :class:`SplitResolved` -- several takers shared a pile: the share, the leftover.
* :class:`UpgradeDiscarded` -- a played upgrade card left the game.
* :class:`TurnEnded` -- the turn is over; whether the game is over too.
"""

from __future__ import annotations

import enum

from attrs import frozen

from outofgears.rules.gears import Gear, describe_gears
from outofgears.rules.model import Place, UpgradeCard


class Outcome(enum.Enum):
    """What a program came to.

    Attributes:
        DEFENDED: A defence (an attack on one's own number, ATK-1) that was attacked.
        DEFENDED_UNTESTED: A defence that nobody attacked.
        ATTACK_VOIDED: An attack on a robot that defended (ATK-3).
        ATTACK_HIT: An attack that took the victim's gears (ATK-6).
        TRAP_SPRUNG: A trap that blocked at least one harvest of its dump.
        TRAP_IDLE: A trap that blocked no harvest.
        HARVEST_VOIDED: A harvest of a trapped dump.
        HARVEST_DONE: A harvest that took the dump's gears.
        DEFENCE_COUNTERED: A defence voided by a Counter Defence card (expansion).
        COUNTER_UNUSED: A Counter Defence card that found no defence to void.
        SHOVELLED: A Super Shovel card played.
    """

    DEFENDED = "defended"
    DEFENDED_UNTESTED = "defended, but nobody attacked"
    ATTACK_VOIDED = "attack voided by a defence"
    ATTACK_HIT = "attack hit"
    TRAP_SPRUNG = "trap sprang"
    TRAP_IDLE = "trap blocked no harvest"
    HARVEST_VOIDED = "harvest voided by a trap"
    HARVEST_DONE = "harvested"
    DEFENCE_COUNTERED = "defence voided by a counter defence"
    COUNTER_UNUSED = "counter defence found no defence"
    SHOVELLED = "shovelled"


@frozen
class GearMoved:
    """A gear moved.

    Attributes:
        gear: The gear.
        source: Where it was.
        destination: Where it went.
        robot: The robot whose action or decision moved it (``None`` for exploration).
        clause: The spec clause that moved it.
    """

    gear: Gear
    source: Place
    destination: Place
    robot: int | None
    clause: str

    def __str__(self) -> str:
        by = f" (robot {self.robot})" if self.robot is not None else ""
        return f"{self.gear} gear: {self.source} -> {self.destination}{by} [{self.clause}]"


@frozen
class ActionResolved:
    """What a robot's program came to.

    Attributes:
        robot: The robot whose program it is.
        program: The program as text (``"attack 3"``).
        outcome: What it came to.
        clause: The spec clause that decided it.
    """

    robot: int
    program: str
    outcome: Outcome
    clause: str

    def __str__(self) -> str:
        return f"robot {self.robot} {self.program}: {self.outcome.value} [{self.clause}]"


@frozen
class SplitResolved:
    """Several takers shared the gears of one place (spec SPL-1 to SPL-4).

    Attributes:
        place: The dump or the robot's feet that was shared.
        takers: The robots that shared it, ascending.
        share: How many gears each taker got.
        left: The gears that stayed where they were.
        clause: The spec clause of the split.
    """

    place: Place
    takers: tuple[int, ...]
    share: int
    left: tuple[Gear, ...]
    clause: str

    def __str__(self) -> str:
        takers = ", ".join(str(robot) for robot in self.takers)
        return (
            f"{self.place} shared by robots {takers}: {self.share} each, "
            f"{describe_gears(self.left)} left [{self.clause}]"
        )


@frozen
class UpgradeDiscarded:
    """A played upgrade card leaves the game at the end of its turn (spec UPG-3).

    Attributes:
        robot: The robot that laid it.
        player: The player who held it.
        card: The card.
        clause: The spec clause.
    """

    robot: int
    player: str
    card: UpgradeCard
    clause: str

    def __str__(self) -> str:
        return f"robot {self.robot}: {self.card.value} discarded by {self.player} [{self.clause}]"


@frozen
class TurnEnded:
    """The turn is over (spec TURN-1); ``game_over`` when the game ended with it (END-1).

    Attributes:
        turn: The turn that ended.
        game_over: Whether the game ended with it (END-1).
        clause: The spec clause behind the event (``"TURN-1"``).
    """

    turn: int
    game_over: bool
    clause: str

    def __str__(self) -> str:
        end = ": the game is over" if self.game_over else ""
        return f"turn {self.turn} ended{end} [{self.clause}]"


Event = GearMoved | ActionResolved | SplitResolved | UpgradeDiscarded | TurnEnded
