"""What the learning environments share (the extra ``outofgears[pettingzoo]``, which brings
Gymnasium): their errors, their observation and state spaces, and their arguments' checks.

The errors are the project's (:class:`~outofgears.errors.InvalidStateError`) and Gymnasium's
documented ones at once, so ``except ValueError``, ``except OutOfGearsError`` and
``except gymnasium.error.InvalidAction`` all catch them.
"""

from __future__ import annotations

from typing import Any, Final

import gymnasium.error
import numpy as np
from gymnasium import spaces

from outofgears.errors import ArgumentTypeError, InvalidStateError
from outofgears.play.game import MAX_TURN_CAP
from outofgears.play.observation import observation_size
from outofgears.rules.model import UpgradeCard

#: The render modes of the environments: the table in words.
RENDER_MODES: Final = ("ansi",)

#: The most gears of one rank a pile can hold: 11 of a colour, with room for the expansions.
_MOST_OF_A_RANK: Final = 128.0
_CARDS: Final = len(UpgradeCard)
#: The length of :func:`state_vector`: the shared observation and every robot's player's card.
STATE_SIZE: Final = observation_size() + 8 * _CARDS


class EnvActionError(InvalidStateError, gymnasium.error.InvalidAction):
    """Actions that an environment cannot read: an agent missing or unknown, an action
    outside the action space. (A legal-looking action the mask forbids is not an error: it
    ends the game with a penalty.)"""


class EnvResetNeededError(InvalidStateError, gymnasium.error.ResetNeeded):
    """``step`` before ``reset`` or after the game ended."""


class EnvModeError(InvalidStateError, gymnasium.error.UnsupportedMode):
    """A render mode the environments do not have."""


def check_env_arguments(
    robots: object,
    two_robots: object,
    upgrades: object,
    turn_cap: object,
    render_mode: object,
    flat: object,
) -> None:
    """Raise a typed error for arguments no game has (the bounds of issue 23)."""
    if type(robots) is not int:
        raise ArgumentTypeError("robots", "a number of robots (int)", robots)
    for name, flag in (("two_robots", two_robots), ("upgrades", upgrades)):
        if type(flag) is not bool:
            raise ArgumentTypeError(name, "True or False", flag)
    if not 2 <= robots <= 8:
        raise InvalidStateError(f"a game has 2 to 8 robots, not {robots}")
    if two_robots and robots not in (4, 6, 8):
        raise InvalidStateError(f"the two-robot variant has 4, 6 or 8 robots, not {robots}")
    if type(turn_cap) is not int or not 1 <= turn_cap <= MAX_TURN_CAP:
        raise InvalidStateError(
            f"turn_cap is a whole number of turns from 1 to {MAX_TURN_CAP:,}, not {turn_cap!r}"
        )
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise EnvModeError(
            f"render_mode is None or one of {', '.join(map(repr, RENDER_MODES))}, "
            f"not {render_mode!r}"[:200]
        )
    if type(flat) is not bool:
        raise ArgumentTypeError("flat", "True or False", flat)


def action_number(space: spaces.Space[Any], action: object, who: str = "") -> int:
    """The action number of ``action``, read as Gymnasium's ``Discrete.contains`` reads it (a
    whole number or a 0-d integer array in the space, not ``1.0`` nor ``Fraction(1)``); else
    :class:`EnvActionError` (``who`` starts its message, ``"agent P2: "``). The one reading of
    an action for both environments."""
    assert isinstance(space, spaces.Discrete)
    if type(action) is int and 0 <= action < space.n:
        return action
    if not space.contains(action):
        raise EnvActionError(f"{who}{action!r} is not in the action space ({space})"[:200])
    return int(action)  # type: ignore[call-overload,no-any-return]


def check_seed(seed: object) -> None:
    """A seed is ``None`` or a whole number of 0 or more (as Gymnasium's ``reset`` says)."""
    if seed is not None and (type(seed) is not int or seed < 0):
        raise InvalidStateError(f"seed is None or a whole number, 0 or more, not {seed!r}"[:200])


def observation_box(turn_cap: int) -> spaces.Box:
    """The observation vector's space, with finite bounds (SuperSuit's ``normalize_obs_v0``
    needs them): the turn up to ``turn_cap + 1``, the flags 1, the counts of gears 128."""
    high = np.full(observation_size(), 1.0, np.float32)
    high[0] = float(turn_cap + 1)
    high[2] = _MOST_OF_A_RANK * 10  # gears in the reserve
    high[20:270] = _MOST_OF_A_RANK  # feet, circuits, dumps and the reserve by rank
    return spaces.Box(low=0.0, high=high, dtype=np.float32)


def state_box(turn_cap: int) -> spaces.Box:
    """The space of :func:`state_vector`."""
    high = np.concatenate([observation_box(turn_cap).high, np.ones(8 * _CARDS, np.float32)]).astype(
        np.float32
    )
    return spaces.Box(low=0.0, high=high, dtype=np.float32)


def state_cards(players: Any) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Every robot's player's upgrade card, one-hot, 5 numbers a robot (robots 1-8)."""
    cards = np.zeros(8 * _CARDS, np.float32)
    order = {card: index for index, card in enumerate(UpgradeCard)}
    for player in players:
        if player.upgrade is not None:
            for robot in player.robots:
                cards[(robot - 1) * _CARDS + order[player.upgrade]] = 1.0
    return cards
