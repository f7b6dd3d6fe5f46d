"""The errors of reading a log, and the JSON paths they name."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from outofgears.errors import ArgumentTypeError, OutOfGearsError
from outofgears.rules.gears import ROBOT_NUMBERS


class LogError(OutOfGearsError, ValueError):
    """A log that cannot be read or replayed: names the file, the JSON path, the turn and robot.

    Attributes:
        source: The file (or ``"<stdin>"``).
        json_path: Where in the JSON, as ``$.turns[3].programs.2``.
        reason: What is wrong.
        turn: The turn concerned, if any.
        robot: The robot concerned, if any.
        clause: The spec clause broken, if any.

    >>> str(LogError("game.json", "$.turns[0].programs.3", "robot 3 is not in play", turn=1))
    'game.json: $.turns[0].programs.3 (turn 1): robot 3 is not in play'
    >>> str(LogError("game.json", "$.turns[0].programs.3", "not in play", turn=1, robot=3))
    'game.json: $.turns[0].programs.3 (turn 1, robot 3): not in play'
    """

    def __init__(
        self,
        source: str,
        json_path: str,
        reason: str,
        *,
        turn: int | None = None,
        robot: int | None = None,
        clause: str | None = None,
    ) -> None:
        facts = [f"turn {turn}"] if turn is not None else []
        facts += [f"robot {robot}"] if robot is not None else []
        where = f" ({', '.join(facts)})" if facts else ""
        super().__init__(f"{source}: {json_path}{where}: {reason}")
        self.source = source
        self.json_path = json_path
        self.reason = reason
        self.turn = turn
        self.robot = robot
        self.clause = clause


class LogFieldError(OutOfGearsError, ValueError):
    """A value of a log class that the format does not allow, and where it is.

    Raised by the log classes' checks and the converter's hooks; the reader
    turns it into a :class:`LogError` with the whole JSON path.

    Its message names the field first, as a JSON path from the object being checked.

    Attributes:
        reason: What is wrong.
        where: The JSON keys and indices from the object being checked to the value.

    >>> error = LogFieldError("a turn number is 1 to 1000, not 0", "turn")
    >>> str(error), error.where, error.reason
    ('turn: a turn number is 1 to 1000, not 0', ('turn',), 'a turn number is 1 to 1000, not 0')
    >>> str(LogFieldError("a robot number is 1 to 8, not 9", "players", "B", 0))
    'players.B[0]: a robot number is 1 to 8, not 9'
    """

    def __init__(self, reason: str, *where: str | int) -> None:
        path = json_path(list(where)).removeprefix("$").removeprefix(".") if where else ""
        super().__init__(f"{path}: {reason}" if path else reason)
        self.reason = reason
        self.where = where


def unknown_key(key: str, known: Iterable[str]) -> str:
    """The message for a key that the format does not have.

    >>> unknown_key("colour", ["turns", "start"])
    "unknown key 'colour' (known: start, turns)"
    """
    return f"unknown key {key!r} (known: {', '.join(sorted(known))})"


_PLAIN_KEY: Final = re.compile(r"[A-Za-z0-9_-]+")


def json_path(parts: Iterable[str | int]) -> str:
    """A JSON path from its keys and indices; unusual keys are quoted.

    >>> json_path(["turns", 3, "programs", "2"])
    '$.turns[3].programs.2'
    >>> json_path(["recorded", "scores", "Ada Lovelace"])
    "$.recorded.scores['Ada Lovelace']"
    >>> print(json_path(["players", "Ada\\nLovelace"]))
    $.players['Ada\\nLovelace']
    """
    if not isinstance(parts, list | tuple) or not all(isinstance(p, str | int) for p in parts):
        raise ArgumentTypeError("parts", "a list of keys and indices", parts)
    path = "$"
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        elif not isinstance(part, str):  # a Python caller's key: no JSON object has one
            path += f"[{part!r}]"
        elif _PLAIN_KEY.fullmatch(part):
            path += f".{part}"
        else:
            quoted = part.replace("\\", "\\\\").replace("'", "\\'")
            # Control characters escaped, so that the message stays on one line.
            quoted = "".join(c if c.isprintable() else repr(c)[1:-1] for c in quoted)
            path += f"['{quoted}']"
    return path


_ROBOT_KEYED: Final = frozenset({"programs", "robots", "assemblies", "shares", "drawn"})
_ROBOT_KEY_NAMES: Final = frozenset(str(n) for n in ROBOT_NUMBERS)


def facts_at(data: Any, parts: Sequence[str | int]) -> tuple[int | None, int | None]:
    """The turn and the robot that a JSON path in a log concerns, where it names them.

    The turn is the ``turn`` number of the enclosing turn (when it is an
    integer); the robot is the key under ``programs``, ``robots``,
    ``assemblies`` or ``shares``, or the defender of a defence steal.

    >>> data = {"turns": [{"turn": 4, "programs": {"5": "trap 9"}}]}
    >>> facts_at(data, ["turns", 0, "programs", "5"])
    (4, 5)
    """
    turn: int | None = None
    if len(parts) >= 2 and parts[0] == "turns" and isinstance(parts[1], int):
        record = _get(data, parts[:2])
        number = record.get("turn") if isinstance(record, dict) else None
        turn = number if type(number) is int else None
    robot: int | None = None
    for i in range(1, len(parts)):
        before, part = parts[i - 1], parts[i]
        if before in _ROBOT_KEYED and isinstance(part, str) and part in _ROBOT_KEY_NAMES:
            robot = int(part) if before != "drawn" else None
        elif before == "defence_steals" and isinstance(part, int):
            steal = _get(data, parts[: i + 1])
            defender = steal.get("defender") if isinstance(steal, dict) else None
            robot = defender if type(defender) is int and defender in ROBOT_NUMBERS else None
    return turn, robot


def _get(data: Any, parts: Sequence[str | int]) -> Any:
    for part in parts:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def log_error(
    source: str, data: Any, parts: Sequence[str | int], reason: str, clause: str | None = None
) -> LogError:
    """A :class:`LogError` at ``parts`` of the log's JSON ``data``, with its turn and robot."""
    turn, robot = facts_at(data, parts)
    return LogError(source, json_path(parts), reason, turn=turn, robot=robot, clause=clause)
