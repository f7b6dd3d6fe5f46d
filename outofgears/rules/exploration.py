"""Phase 4, exploration (spec EXP-1, ruling R-EXPLORE).

The next gear of the reserve goes face up on each dump in play, in ascending
dump number (clockwise), while the reserve lasts. The reserve was shuffled at
setup, so drawing its next gear is drawing at random.
"""

from __future__ import annotations

from collections.abc import Sequence, Sized

from outofgears.rules.gears import gear_ranks
from outofgears.rules.table import DUMP, RESERVE, Table, gear_moved


def dumps_explored(numbers: Sequence[int], reserve: Sized) -> tuple[list[int], list[int]]:
    """The dumps that get a gear at exploration, in the order they get one, and those the
    emptied reserve leaves without (EXP-1): ``numbers`` are the dumps in play, ascending.

    >>> dumps_explored([1, 2, 3], "ab")
    ([1, 2], [3])
    """
    count = len(reserve)
    return list(numbers[:count]), list(numbers[count:])


def explore_dumps(table: Table) -> None:
    """One gear from the reserve onto each dump, ascending, while it lasts (EXP-1)."""
    reserve = table.reserve
    numbers, _ = dumps_explored(table.numbers, reserve)
    drawn = tuple(reserve[: len(numbers)])
    dumps = table.dumps
    moved = table.moved_dumps
    for index, rank in enumerate(gear_ranks(drawn)):
        dump = numbers[index]
        dumps[dump].append(rank)
        moved[dump] = True
    events = table.events
    if events is not None:
        for index, gear in enumerate(drawn):
            events.append(gear_moved(gear, RESERVE, DUMP[numbers[index]], None, "EXP-1"))
    table.reserve = reserve[len(drawn) :]
