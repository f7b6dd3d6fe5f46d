"""Phase 4, exploration (spec EXP-1, ruling R-EXPLORE).

The next gear of the reserve goes face up on each dump in play, in ascending
dump number (clockwise), while the reserve lasts. The reserve was shuffled at
setup, so drawing its next gear is drawing at random.
"""

from __future__ import annotations

from outofgears.choices import Choices
from outofgears.events import Event, GearMoved
from outofgears.model import Place
from outofgears.programs import Programs
from outofgears.table import Table


def explore_dumps(table: Table, programs: Programs, choices: Choices) -> list[Event]:
    """One gear from the reserve onto each dump, ascending, while it lasts (EXP-1)."""
    return [
        GearMoved(gear, Place.reserve(), Place.dump(dump), None, "EXP-1")
        for dump, gear in zip(sorted(table.dumps), table.reserve, strict=False)
    ]
