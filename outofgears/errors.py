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


class ArgumentTypeError(InvalidStateError, TypeError):
    """An argument of a constructor or entry point that has the wrong type (``None`` where a
    mapping belongs, a number where a list of gears does, ...). It is a :class:`TypeError`
    as well as an :class:`InvalidStateError`.

    Attributes:
        argument: The name of the argument (or field) at fault.
        expected: What it should be, in words.
        value: The value given.

    >>> err = ArgumentTypeError("feet", "an iterable of Gear", None)
    >>> str(err), err.argument
    ('feet must be an iterable of Gear, not None', 'feet')
    >>> isinstance(err, TypeError) and isinstance(err, ValueError)
    True
    """

    def __init__(self, argument: str, expected: str, value: object) -> None:
        shown = printable(repr(value))
        if len(shown) > 60:
            shown = shown[:57] + "..."
        super().__init__(f"{argument} must be {expected}, not {shown}")
        self.argument = argument
        self.expected = expected
        self.value = value

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.argument, self.expected, self.value))


def expect(value: object, kind: type | tuple[type, ...], argument: str, expected: str) -> None:
    """Raise :class:`ArgumentTypeError` unless ``value`` is an instance of ``kind``.

    >>> expect(3, int, "turn", "an int")
    >>> expect("3", int, "turn", "an int")
    Traceback (most recent call last):
    ...
    outofgears.errors.ArgumentTypeError: turn must be an int, not '3'
    """
    if not isinstance(value, kind):
        raise ArgumentTypeError(argument, expected, value)


class SetupError(InvalidStateError):
    """A game that cannot be set up as asked (robots, players, variant).

    Attributes:
        clause: The spec clause that the request breaks.
    """

    def __init__(self, message: str, *, clause: str) -> None:
        super().__init__(f"{message} ({clause})")
        self.reason = message
        self.clause = clause

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), (self.reason,), {"clause": self.clause}))


class ProgramParseError(InvalidStateError):
    """Text that is not a program (``"Attack 2"``, ``"trap 9"``, an upgrade card's name where
    an action card and a number card belong). An :class:`InvalidStateError` too, as before.

    Attributes:
        text: The text refused (whatever was given, when not a string).

    >>> from outofgears import Program
    >>> Program.parse("Attack 2")
    Traceback (most recent call last):
    ...
    outofgears.errors.ProgramParseError: "Attack 2" is not a program: write 'attack 2' (lower case, one space)
    """

    def __init__(self, message: str, text: object) -> None:
        super().__init__(message)
        self.text = text

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.text))


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

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), (self.robot, self.reason), {"clause": self.clause}))


class IllegalChoiceError(OutOfGearsError, ValueError):
    """A post-reveal decision (defence steal, assembly, split) that the rules do not allow.

    Attributes:
        robot: The robot whose choice it is (``None`` when the choice names no robot).
        reason: Why, in words.
        clause: The spec clause that the choice breaks.
        refusal: Why, as data (a :class:`outofgears.rules.refusals.Refusal`), when the rules
            raised it: its message and values apart, to be said in another language.
    """

    def __init__(
        self, robot: int | None, reason: str, *, clause: str, refusal: object = None
    ) -> None:
        where = f"robot {robot}: " if robot is not None else ""
        super().__init__(f"{where}{reason} ({clause})")
        self.robot = robot
        self.reason = reason
        self.clause = clause
        self.refusal = refusal

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild,
            (
                type(self),
                (self.robot, self.reason),
                {"clause": self.clause, "refusal": self.refusal},
            ),
        )


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

    def __reduce__(self) -> tuple[Any, ...]:
        # Copied or pickled (``simulate --workers``), it is rebuilt from the turn, not from
        # its message: the message once repeated itself (issue 14).
        return (type(self), (self.turn,))


def _rebuild(kind: type[Exception], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Exception:
    """Rebuild an error with keyword arguments (for :mod:`pickle` and :mod:`copy`)."""
    return kind(*args, **kwargs)
