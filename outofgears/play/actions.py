"""Actions as numbers, for bots and learning environments.

Every program has a stable number, whatever the game: the attack card with the numbers 1-8 is
0-7, the trap card 8-15, the harvest card 16-23, and the five upgrade cards 24-28 in the order
of :class:`~outofgears.rules.model.UpgradeCard`. A game without the upgrades uses the first
:data:`BASE_ACTIONS`; :func:`num_actions` says how many a game has.

In the two-robot variant a player lays two programs together (VAR-2, UPG-4), so the player's
move is a *joint action*: ``first * num_actions + second``, the programs of its robots in
ascending robot order. The masks come from :func:`~outofgears.rules.programs.legal_programs` and
:func:`~outofgears.rules.programs.legal_joint_programs`: what they accept is legal, nothing else.
"""

from __future__ import annotations

import random
from typing import Final

from outofgears.errors import ArgumentTypeError, InvalidStateError, printable
from outofgears.rules.gears import ROBOT_NUMBERS
from outofgears.rules.model import GameState, Options, UpgradeCard, expect_state
from outofgears.rules.programs import (
    Action,
    AnyProgram,
    Program,
    UpgradeProgram,
    legal_joint_programs,
    legal_programs,
)

#: The action cards in the order of their numbers.
_ACTIONS: Final = (Action.ATTACK, Action.TRAP, Action.HARVEST)

#: The programs of the base game: three action cards times eight number cards.
BASE_ACTIONS: Final = len(_ACTIONS) * len(ROBOT_NUMBERS)

#: Every program there is, in the order of its number.
ALL_PROGRAMS: Final[tuple[AnyProgram, ...]] = (
    *(Program(action, number) for action in _ACTIONS for number in ROBOT_NUMBERS),
    *(UpgradeProgram(card) for card in UpgradeCard),
)

#: The largest number of actions of any game.
MAX_ACTIONS: Final = len(ALL_PROGRAMS)

_ID_OF: Final[dict[AnyProgram, int]] = {program: i for i, program in enumerate(ALL_PROGRAMS)}


def action_id(program: AnyProgram) -> int:
    """The number of a program (0-28), the same in every game.

    >>> action_id(Program.parse("attack 1")), action_id(Program.parse("harvest 8"))
    (0, 23)
    >>> action_id(UpgradeProgram(UpgradeCard.SUPER_HARVEST))
    24
    """
    try:
        return _ID_OF[program]
    except (KeyError, TypeError):
        raise ArgumentTypeError("program", "a Program or an UpgradeProgram", program) from None


def program_of(action: int, options: Options | None = None) -> AnyProgram:
    """The program numbered ``action``; ``ValueError`` if the game has no such number.

    >>> str(program_of(9))
    'trap 2'
    >>> program_of(24)
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: action 24 is not one of the 24 actions of this game
    """
    count = num_actions(options)
    if type(action) is not int or not 0 <= action < count:
        raise InvalidStateError(
            f"action {printable(repr(action))[:40]} is not one of the {count} actions of this game"
        )
    return ALL_PROGRAMS[action]


def num_actions(options: Options | None = None) -> int:
    """How many actions a game has: 24, or 29 with the upgrades (``Options(upgrades=True)``).

    >>> num_actions(), num_actions(Options(upgrades=True))
    (24, 29)
    """
    if options is not None and not isinstance(options, Options):
        raise ArgumentTypeError("options", "an Options or None", options)
    return MAX_ACTIONS if options is not None and options.upgrades else BASE_ACTIONS


def action_mask(state: GameState, robot: int) -> list[int]:
    """The legal-action mask of one robot: 1 where :func:`legal_programs` lists the program.

    Its length is :func:`num_actions` of the game's options. In the two-robot variant it
    ignores the partner; use :func:`joint_action_mask` for a player's move.

    >>> from outofgears.rules.setup import setup_game
    >>> mask = action_mask(setup_game([2, 5], seed=1), 5)
    >>> [i for i, legal in enumerate(mask) if legal]
    [1, 4, 9, 12, 17, 20]
    """
    expect_state(state)
    mask = [0] * num_actions(state.options)
    for program in legal_programs(state, robot):
        mask[_ID_OF[program]] = 1
    return mask


def joint_action_id(first: AnyProgram, second: AnyProgram, options: Options | None = None) -> int:
    """The number of a pair of programs of a player's two robots (lower robot first).

    >>> joint_action_id(Program.parse("attack 1"), Program.parse("trap 1"))
    8
    >>> joint_action_id(Program.parse("trap 1"), Program.parse("attack 1"))
    192
    """
    return action_id(first) * num_actions(options) + action_id(second)


def joint_program_of(action: int, options: Options | None = None) -> tuple[AnyProgram, AnyProgram]:
    """The pair of programs numbered ``action`` (see :func:`joint_action_id`).

    >>> [str(p) for p in joint_program_of(8)]
    ['attack 1', 'trap 1']
    """
    count = num_actions(options)
    if type(action) is not int or not 0 <= action < count * count:
        raise InvalidStateError(
            f"joint action {printable(repr(action))[:40]} is not one of the {count * count} "
            "of this game"
        )
    return ALL_PROGRAMS[action // count], ALL_PROGRAMS[action % count]


def num_joint_actions(options: Options | None = None) -> int:
    """How many joint actions a player of the two-robot variant has: :func:`num_actions` squared.

    >>> num_joint_actions()
    576
    """
    return num_actions(options) ** 2


def joint_action_mask(state: GameState, player: str) -> list[int]:
    """The legal joint actions of a player of the two-robot variant (VAR-2, UPG-4).

    >>> from outofgears.rules.setup import setup_two_robot_game
    >>> state = setup_two_robot_game({"Ada": (1, 2), "Bo": (3, 4)}, seed=1)
    >>> mask = joint_action_mask(state, "Ada")
    >>> sum(mask), mask[joint_action_id(Program.parse("attack 1"), Program.parse("trap 1"))]
    (96, 1)
    """
    expect_state(state)
    count = num_actions(state.options)
    mask = [0] * (count * count)
    for first, second in legal_joint_programs(state, player):
        mask[_ID_OF[first] * count + _ID_OF[second]] = 1
    return mask


def player_actions(state: GameState, player: str) -> list[int]:
    """The legal moves of a player as numbers: its robot's actions, or its joint actions.

    >>> from outofgears.rules.setup import setup_game
    >>> player_actions(setup_game([2, 5], seed=1), "P2")
    [1, 4, 9, 12, 17, 20]
    """
    robots = _robots_of(state, player)
    if len(robots) == 1:
        return [_ID_OF[program] for program in legal_programs(state, robots[0])]
    count = num_actions(state.options)
    return [
        _ID_OF[first] * count + _ID_OF[second]
        for first, second in legal_joint_programs(state, player)
    ]


def programs_of_move(state: GameState, player: str, move: int) -> dict[int, AnyProgram]:
    """The programs of a player's robots for a move numbered as :func:`player_actions` does.

    The move is not checked here: :func:`~outofgears.rules.turn.apply_turn` checks the programs.

    >>> from outofgears.rules.setup import setup_game
    >>> programs_of_move(setup_game([2, 5], seed=1), "P5", 17)
    {5: Program(action=<Action.HARVEST: 'harvest'>, number=2)}
    """
    robots = _robots_of(state, player)
    if len(robots) == 1:
        return {robots[0]: program_of(move, state.options)}
    first, second = joint_program_of(move, state.options)
    return {robots[0]: first, robots[1]: second}


def _robots_of(state: GameState, player: str) -> tuple[int, ...]:
    expect_state(state)
    if type(player) is not str:
        raise ArgumentTypeError("player", "a player's name (str)", player)
    for candidate in state.players:
        if candidate.name == player:
            return candidate.robots
    raise InvalidStateError(f"player {printable(repr(player))[:60]} is not in the game")


def expect_rng(rng: object) -> None:
    """Raise :class:`~outofgears.errors.ArgumentTypeError` unless ``rng`` is a
    :class:`random.Random` (the bots', policies' and samplers' source of randomness).

    >>> expect_rng(random.Random(1))
    """
    if not isinstance(rng, random.Random):
        raise ArgumentTypeError("rng", "a random.Random", rng)


#: The public names of this module (the rest serves them).
__all__ = [
    "action_id",
    "action_mask",
    "joint_action_id",
    "joint_action_mask",
    "joint_program_of",
    "num_actions",
    "num_joint_actions",
    "player_actions",
    "program_of",
    "programs_of_move",
]
