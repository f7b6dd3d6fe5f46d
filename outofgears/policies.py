"""Programs chosen by a policy, for simulations and demonstrations.

:func:`random_programs` is the documented random policy: every robot picks an
action card uniformly among attack, trap and harvest, and a number uniformly
among the numbers in play; in the two-robot variant the second robot of a
player picks uniformly among the two action cards its partner left (VAR-2).
All randomness comes from the :class:`random.Random` passed in.
"""

from __future__ import annotations

import random

from outofgears.model import GameState
from outofgears.programs import Action, Program

ACTIONS: tuple[Action, ...] = (Action.ATTACK, Action.TRAP, Action.HARVEST)


def random_programs(state: GameState, rng: random.Random) -> dict[int, Program]:
    """Random legal programs for every robot in play.

    >>> from outofgears.setup import setup_game
    >>> from outofgears.programs import validate_programs
    >>> state = setup_game([1, 2, 3], seed=1)
    >>> programs = random_programs(state, random.Random(4))
    >>> validate_programs(state, programs)
    >>> sorted(programs)
    [1, 2, 3]
    """
    numbers = state.robot_numbers
    programs: dict[int, Program] = {}
    for player in state.players:
        used: set[Action] = set()
        for robot in player.robots:
            action = rng.choice([a for a in ACTIONS if a not in used])
            used.add(action)
            programs[robot] = Program(action, rng.choice(numbers))
    return programs
