"""Phase 4, exploration (spec EXP-1, ruling R-EXPLORE).

The next gear of the reserve goes face up on each dump in play, in ascending
dump number (clockwise), while the reserve lasts. The reserve was shuffled at
setup, so drawing its next gear is drawing at random.
"""

from __future__ import annotations

from outofgears.gears import gear_ranks
from outofgears.table import DUMP, RESERVE, Table, gear_moved


def explore_dumps(table: Table) -> None:
    """One gear from the reserve onto each dump, ascending, while it lasts (EXP-1)."""
    reserve = table.reserve
    numbers = table.numbers
    drawn = tuple(reserve[: len(numbers)])
    dumps = table.dumps
    moved = table.moved_dumps
    for index, rank in enumerate(gear_ranks(drawn)):  # not zip(strict=False): a slower call
        dump = numbers[index]
        dumps[dump].append(rank)
        moved[dump] = True
    events = table.events
    if events is not None:
        for index, gear in enumerate(drawn):
            events.append(gear_moved(gear, RESERVE, DUMP[numbers[index]], None, "EXP-1"))
    table.reserve = reserve[len(drawn) :]
