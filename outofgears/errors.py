"""The exceptions of outofgears.

Every exception the package raises on purpose derives from
:class:`OutOfGearsError`. Each subclass also derives from the builtin it
refines, so ``except ValueError`` still works, and carries the facts as
attributes (the robot, the spec clause, ...) as well as in its message.
"""

from __future__ import annotations

import json
from typing import Any


def show(value: Any) -> str:
    """A JSON value as a message quotes it: JSON text, cut short when long.

    >>> show("3"), show(True), show([1, 2])
    ('"3"', 'true', '[1, 2]')
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _rebuild_error(
    cls: type[OutOfGearsError], args: tuple[Any, ...], attributes: dict[str, Any]
) -> OutOfGearsError:
    """An error rebuilt from its message arguments and attributes (unpickling)."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(attributes)
    return error


class OutOfGearsError(Exception):
    """The root of every error raised by outofgears.

    Every error pickles and deep-copies with its message and its attributes, whatever its
    constructor takes, so an error raised in a process pool arrives whole.

    >>> import pickle
    >>> error = pickle.loads(pickle.dumps(IllegalProgramError(3, "dump 7 is not in play", clause="PRG-2")))
    >>> error.robot, error.clause, str(error)
    (3, 'PRG-2', 'robot 3: dump 7 is not in play (PRG-2)')
    """

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_error, (type(self), self.args, dict(self.__dict__)))


class InvalidStateError(OutOfGearsError, ValueError):
    """A position, gear, robot or option that cannot exist in a game.

    >>> raise InvalidStateError("robot 9 does not exist")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: robot 9 does not exist
    """


class SetupError(InvalidStateError):
    """A game that cannot be set up as asked (robots, players, variant).

    Attributes:
        clause: The spec clause that the request breaks.
    """

    def __init__(self, message: str, *, clause: str) -> None:
        super().__init__(f"{message} ({clause})")
        self.reason = message
        self.clause = clause


class IllegalProgramError(OutOfGearsError, ValueError):
    """A program that the rules do not allow.

    Attributes:
        robot: The number of the robot whose program is illegal.
        reason: Why, in words.
        clause: The spec clause that the program breaks.

    >>> err = IllegalProgramError(3, "dump 7 is not in play", clause="PRG-2")
    >>> err.robot, err.clause
    (3, 'PRG-2')
    >>> str(err)
    'robot 3: dump 7 is not in play (PRG-2)'
    """

    def __init__(self, robot: int, reason: str, *, clause: str) -> None:
        super().__init__(f"robot {robot}: {reason} ({clause})")
        self.robot = robot
        self.reason = reason
        self.clause = clause


class IllegalChoiceError(OutOfGearsError, ValueError):
    """A post-reveal decision (defence steal, assembly, split) that the rules do not allow.

    Attributes:
        robot: The robot whose choice it is (``None`` when the choice names no robot).
        reason: Why, in words.
        clause: The spec clause that the choice breaks.
    """

    def __init__(self, robot: int | None, reason: str, *, clause: str) -> None:
        where = f"robot {robot}: " if robot is not None else ""
        super().__init__(f"{where}{reason} ({clause})")
        self.robot = robot
        self.reason = reason
        self.clause = clause


class GameOverError(OutOfGearsError, ValueError):
    """A turn asked of a game that has already ended.

    Attributes:
        turn: The turn that was asked for.
        clause: The spec clause that ended the game.
    """

    def __init__(self, turn: int) -> None:
        super().__init__(f"the game is over; turn {turn} cannot be played (PRG-5)")
        self.turn = turn
        self.clause = "PRG-5"
