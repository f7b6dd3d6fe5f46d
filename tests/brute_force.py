"""Every legal play of a turn, made by brute force: every combination of every decision the
walk of :class:`~outofgears.rules.legal.ChoiceSpace` offers, with no pruning and no merging.

The judge's searches prune and merge; the tests check them against this enumeration
(``tests/test_replay_search_budget.py``, ``tests/test_judge_brute_force.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

from outofgears import GameState, resolve_turn
from outofgears.rules.legal import ChoiceSpace, Decision, as_choices
from outofgears.rules.programs import AnyProgram
from outofgears.rules.table import Table

#: At most this many plays are enumerated for one turn (larger turns are skipped).
MOST_PLAYS = 400


def every_play(
    state: GameState, programs: dict[int, AnyProgram], most: int = MOST_PLAYS
) -> Iterator[GameState]:
    """The position after every legal play of the turn (at most ``most`` of them)."""
    space = ChoiceSpace(state, programs)
    walk = space.walk()

    def plays(index: int, table: Table, made: list[Decision]) -> Iterator[list[Decision]]:
        if index == len(walk):
            yield made
            return
        step = walk[index]
        options = space.options(step, table)
        if not options:
            space.advance(step, table, None)
            yield from plays(index + 1, table, made)
            return
        for option in options:
            child = table.copy()
            space.advance(step, child, option)
            yield from plays(index + 1, child, [*made, option])

    for count, made in enumerate(plays(0, space.start_table(), [])):
        if count >= most:
            return
        yield resolve_turn(state, programs, choices=as_choices(made)).state
