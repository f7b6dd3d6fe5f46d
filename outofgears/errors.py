"""The exceptions of outofgears.

Every exception the package raises on purpose derives from
:class:`OutOfGearsError`. Each subclass also derives from the builtin it
refines, so ``except ValueError`` still works, and carries the facts as
attributes (the robot, the spec clause, ...) as well as in its message.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: Characters that a terminal or a report reader must never receive raw: C0 and C1 controls
#: (NUL, BEL, backspace, ESC, U+0085 ...), DEL, the line and paragraph separators, the bidi
#: embeddings, overrides, isolates and marks, the BOM and lone surrogates.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\ufeff\ufff9-\ufffb\ud800-\udfff]"
)
_UNSAFE_BUT_NEWLINE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\ufeff\ufff9-\ufffb\ud800-\udfff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return {9: "\\t", 10: "\\n", 13: "\\r"}.get(code) or (
        f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    )


def printable(text: str) -> str:
    """``text`` safe to print on one line: every control, separator and bidi character escaped.

    Player names, notes and anything else that comes from a log or a command line pass
    through here before they reach a terminal or a report (issue 14), so that they can
    neither move the cursor, set colours or a window title, reverse the text nor start a
    line of their own.

    >>> printable("Ada\\n\\x1b[31mred\\u202e")
    'Ada\\\\n\\\\x1b[31mred\\\\u202e'
    >>> printable("Zoë 🤖")
    'Zoë 🤖'
    """
    return _UNSAFE.sub(_escape, text)


def printable_lines(text: str) -> str:
    """Like :func:`printable`, but keeps the line breaks (``\\n``) of a multi-line report.

    >>> printable_lines("a\\x07\\nb")
    'a\\\\x07\\nb'
    """
    return _UNSAFE_BUT_NEWLINE.sub(_escape, text)


def show(value: Any) -> str:
    """A JSON value as a message quotes it: JSON text, cut short when long.

    >>> show("3"), show(True), show([1, 2])
    ('"3"', 'true', '[1, 2]')
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    text = printable(text)
    return text if len(text) <= 60 else text[:57] + "..."


class OutOfGearsError(Exception):
    """The root of every error raised by outofgears."""


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
