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

import random

from outofgears.model import GameState, Player
from outofgears.programs import Action, AnyProgram, Program, UpgradeProgram

ACTIONS: tuple[Action, ...] = (Action.ATTACK, Action.TRAP, Action.HARVEST)

#: The chance that a player holding an upgrade card lays it in a given turn.
UPGRADE_CHANCE = 0.2


def random_programs(state: GameState, rng: random.Random) -> dict[int, AnyProgram]:
    """Random legal programs for every robot in play.

    >>> from outofgears.setup import setup_game
    >>> from outofgears.programs import validate_programs
    >>> state = setup_game([1, 2, 3], seed=1)
    >>> programs = random_programs(state, random.Random(4))
    >>> validate_programs(state, programs)
    >>> sorted(programs)
    [1, 2, 3]
    """
    programs: dict[int, AnyProgram] = {}
    for player in state.players:
        programs.update(_player_programs(state, player, rng))
    return programs


def _player_programs(state: GameState, player: Player, rng: random.Random) -> dict[int, AnyProgram]:
    programs: dict[int, AnyProgram] = {}
    upgraded: int | None = None
    if player.upgrade is not None and rng.random() < UPGRADE_CHANCE:
        upgraded = rng.choice(player.robots)
        programs[upgraded] = UpgradeProgram(player.upgrade)
    used: set[Action] = set()
    for robot in player.robots:
        if robot == upgraded:
            continue
        action = rng.choice([a for a in ACTIONS if a not in used])
        used.add(action)
        programs[robot] = Program(action, rng.choice(state.robot_numbers))
    return programs
