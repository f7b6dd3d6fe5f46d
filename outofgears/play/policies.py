"""Programs chosen by a policy, for simulations and demonstrations.

:func:`random_programs` is the documented random policy:

* A player who still holds an upgrade card lays it with probability
  :data:`UPGRADE_CHANCE` each turn, on one of its robots chosen uniformly.
* Every other robot picks an action card uniformly among attack, trap and
  harvest, and a number uniformly among the numbers in play; in the two-robot
  variant the second robot picks among the action cards its partner left (VAR-2).

All randomness comes from the :class:`random.Random` passed in, and a game
without upgrades draws exactly the same numbers as before upgrades existed.
"""

from __future__ import annotations

import functools
import random

from outofgears.play.actions import expect_rng
from outofgears.rules.gears import ROBOT_NUMBERS
from outofgears.rules.model import GameState, Player, expect_state
from outofgears.rules.programs import Action, AnyProgram, Program, UpgradeProgram

ACTIONS: tuple[Action, ...] = (Action.ATTACK, Action.TRAP, Action.HARVEST)

#: The chance that a player holding an upgrade card lays it in a given turn.
UPGRADE_CHANCE = 0.2


def random_programs(state: GameState, rng: random.Random) -> dict[int, AnyProgram]:
    """Random legal programs for every robot in play.

    >>> from outofgears.rules.setup import setup_game
    >>> from outofgears.rules.programs import validate_programs
    >>> state = setup_game([1, 2, 3], seed=1)
    >>> programs = random_programs(state, random.Random(4))
    >>> validate_programs(state, programs)
    >>> sorted(programs)
    [1, 2, 3]
    """
    expect_state(state)
    expect_rng(rng)
    aimed = _aimed_programs(state.robot_numbers)
    programs: dict[int, AnyProgram] = {}
    for player in state.players:
        if len(player.robots) == 1 and player.upgrade is None:
            programs[player.robots[0]] = rng.choice(aimed[rng.choice(_INDICES)])
        else:
            programs.update(_player_programs(player, aimed, rng))
    return programs


@functools.cache
def _aimed_programs(numbers: tuple[int, ...]) -> tuple[tuple[Program, ...], ...]:
    """Each action's programs, one per number in play, in the order of the numbers.

    Drawing one of them draws the number exactly as drawing from the numbers would. The
    programs are shared, frozen instances (at most 247 sets of numbers in play).
    """
    return tuple(tuple(_PROGRAMS[action][number] for number in numbers) for action in _INDICES)


def _player_programs(
    player: Player, aimed: tuple[tuple[Program, ...], ...], rng: random.Random
) -> dict[int, AnyProgram]:
    programs: dict[int, AnyProgram] = {}
    upgraded: int | None = None
    if player.upgrade is not None and rng.random() < UPGRADE_CHANCE:
        upgraded = rng.choice(player.robots)
        programs[upgraded] = UpgradeProgram(player.upgrade)
    used: list[int] = []
    for robot in player.robots:
        if robot == upgraded:
            continue
        action = rng.choice([index for index in _INDICES if index not in used])
        used.append(action)
        programs[robot] = rng.choice(aimed[action])
    return programs


_INDICES: tuple[int, ...] = tuple(range(len(ACTIONS)))

#: _PROGRAMS[action index][number]: the program of that action card and number card.
_PROGRAMS: tuple[dict[int, Program], ...] = tuple(
    {number: Program(action, number) for number in ROBOT_NUMBERS} for action in ACTIONS
)

#: The public names of this module (the rest serves them).
__all__ = [
    "random_programs",
]
