"""Reading a log: bytes to text to JSON to the classes of :mod:`.records`, stopping at the
first problem, which is reported with the file, the JSON path, the turn and the robot.

The bytes must be UTF-8 (a leading byte-order mark is allowed) and at most
:data:`~.records.MAX_LOG_BYTES` long; the JSON must not repeat a key in an object, hold
``NaN`` or ``Infinity``, or nest deeper than :data:`~.records.MAX_DEPTH`. The value is then
structured by the strict converter (:mod:`.converter`), and the classes check it against the
format's declaration.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from outofgears.errors import expect
from outofgears.log.converter import LOG_CONVERTER, cattrs_failure
from outofgears.log.errors import LogError, log_error
from outofgears.log.records import MAX_DEPTH, MAX_LOG_BYTES, GameLog


class _Duplicated(dict[str, Any]):
    """An object in which a key appears twice (the reader refuses it, with its path)."""

    duplicate: str = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen = dict(pairs)
    if len(seen) == len(pairs):
        return seen
    keys: set[str] = set()
    for key, _ in pairs:
        if key in keys:
            marked = _Duplicated(pairs)
            marked.duplicate = key
            return marked
        keys.add(key)
    return seen  # pragma: no cover - a shorter dict has a repeated key


#: A JSON string, to blank out before the brackets are counted.
_JSON_STRING: Final = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"')
#: Brackets as parentheses, everything else deleted (``bytes.translate``).
_AS_PARENTHESES: Final = bytes.maketrans(b"[{]}", b"(())")
_NOT_A_BRACKET: Final = bytes(set(range(256)) - set(b"[]{}"))


def nesting_reaches(text: str, levels: int) -> bool:
    """Whether the containers of a JSON text nest ``levels`` deep, in C speed: each pass
    deletes the innermost pairs of brackets.

    >>> nesting_reaches('{"a": [1, {"b": "[[["}]}', 3), nesting_reaches('[[], []]', 3)
    (True, False)
    """
    brackets = (
        _JSON_STRING.sub("", text)
        .encode("utf-8", "surrogatepass")
        .translate(_AS_PARENTHESES, _NOT_A_BRACKET)
    )
    for _ in range(levels - 1):
        if not brackets:
            return False
        brackets = brackets.replace(b"()", b"")
    return bool(brackets)


def _not_a_number(text: str) -> Any:
    raise ValueError(f"{text} is not a JSON number")


def _first_problem(data: Any) -> tuple[list[str | int], str] | None:
    """The first duplicated key or too deep value, in document order.

    A walk with one iterator per open container: memory in the depth, not the size.
    """

    def problem(value: Any, parts: list[str | int]) -> tuple[list[str | int], str] | None:
        if len(parts) >= MAX_DEPTH:
            return parts, f"the JSON nests deeper than {MAX_DEPTH} levels"
        if isinstance(value, _Duplicated):
            return [*parts, value.duplicate], (
                f"the key {value.duplicate!r} appears twice in one object"
            )
        return None

    def children(value: Any) -> Iterator[tuple[str | int, Any]]:
        return iter(value.items()) if isinstance(value, dict) else enumerate(value)

    found = problem(data, [])
    if found is not None or not isinstance(data, dict | list):
        return found
    path: list[str | int] = []
    stack = [children(data)]
    done = object()
    while stack:
        item = next(stack[-1], done)
        if item is done:
            stack.pop()
            if path:
                path.pop()
            continue
        key: str | int
        value: Any
        key, value = item  # type: ignore[misc]
        if len(path) + 1 >= MAX_DEPTH or isinstance(value, _Duplicated):
            return problem(value, [*path, key])
        if isinstance(value, dict | list) and value:
            path.append(key)
            stack.append(children(value))
    return None


def _keys_read(data: Any) -> int:
    """How many keys the objects of a JSON value hold, all levels counted.

    >>> _keys_read({"a": [{"b": 1, "c": {}}], "d": 2})
    4
    """
    count, stack = 0, [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            count += len(value)
            stack.extend(item for item in value.values() if isinstance(item, dict | list))
        elif isinstance(value, list):
            stack.extend(item for item in value if isinstance(item, dict | list))
    return count


def parse_log_text(text: str, source: str = "<log>") -> Any:
    """The JSON value of a log's text, or a :class:`LogError` saying what is wrong.

    Refused: more than :data:`MAX_LOG_BYTES`, an empty text, text that is not
    JSON (or ends early), ``NaN`` and ``Infinity``, a key repeated in an
    object, and nesting deeper than :data:`MAX_DEPTH`.

    >>> parse_log_text('{"a": 1, "a": 2}', "x.json")
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: x.json: $.a: the key 'a' appears twice in one object
    """
    expect(text, str, "text", "a str")
    expect(source, str, "source", "a str")
    if len(text) > MAX_LOG_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_LOG_BYTES:
        raise LogError(source, "$", f"the log is larger than the limit of {MAX_LOG_BYTES} bytes")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise LogError(source, "$", "the log is empty")
    try:
        data = json.loads(text, parse_constant=_not_a_number)
    except json.JSONDecodeError as error:
        if error.pos >= len(text.rstrip()):
            raise LogError(
                source,
                "$",
                f"not JSON: the text ends early (line {error.lineno} column {error.colno}): "
                "is the file truncated?",
            ) from None
        # json's own words may end with "at" ("Unterminated string starting at"): say it once.
        words = error.msg.removesuffix(" at")
        raise LogError(
            source, "$", f"not JSON: {words} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise LogError(source, "$", f"the JSON nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as error:
        raise LogError(source, "$", f"not JSON: {error}") from None
    # The walk that finds the first problem with its path runs only when there is one: a
    # repeated key (the reader marks the object) or nesting past the limit.
    problem = None
    bare = _JSON_STRING.sub("", text)
    # Every colon outside a string is one key of an object: fewer keys read than written
    # means a repeated key; read again, marking the objects that repeat one.
    if bare.count(":") != _keys_read(data):
        data = json.loads(text, object_pairs_hook=_pairs, parse_constant=_not_a_number)
        problem = _first_problem(data)
    elif nesting_reaches(bare, MAX_DEPTH):
        problem = _first_problem(data)
    if problem is not None:
        parts, reason = problem
        raise log_error(source, data, parts, reason)
    return data


def structure_log(data: Any, source: str = "<log>") -> GameLog:
    """The :class:`GameLog` of log JSON, structured strictly by cattrs.

    It does not need the schema: wrong types, unknown or missing keys and
    values out of range are refused here too, with their JSON path.

    >>> structure_log({"format": "outofgears-log/1", "players": {"A": [1], "B": ["2"]},
    ...                "start": {"seed": 1}, "turns": []}, "x.json")
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: x.json: $.players.B[0]: expected an integer, got "2"
    """
    expect(source, str, "source", "a str")
    try:
        log: GameLog = LOG_CONVERTER.structure(data, GameLog)
    except Exception as error:
        parts, reason = cattrs_failure(error)
        raise log_error(source, data, parts, reason) from None
    return log


def read_log_text(text: str, source: str = "<log>") -> GameLog:
    """Parse, validate and structure a log from its text.

    >>> log = read_log_text('{"format": "outofgears-log/1", "players": {"A": [1], "B": [2]},'
    ...                     ' "start": {"seed": 7}, "turns": []}')
    >>> log.players, log.start.seed
    ({'A': (1,), 'B': (2,)}, 7)
    """
    expect(text, str, "text", "a str")
    return structure_log(parse_log_text(text, source), source)


def read_log_bytes(raw: bytes, source: str = "<log>") -> GameLog:
    """Read a log from its bytes, which must be UTF-8 (a byte-order mark is allowed).

    >>> read_log_bytes(b"\\xff\\xfe{}", "x.json")
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: x.json: $: the log is not UTF-8 text (byte 0xff at offset 0)
    """
    expect(raw, (bytes, bytearray), "raw", "bytes")
    expect(source, str, "source", "a str")
    if len(raw) > MAX_LOG_BYTES:
        raise LogError(source, "$", f"the log is larger than the limit of {MAX_LOG_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = raw[error.start : error.start + 1].hex()
        raise LogError(
            source, "$", f"the log is not UTF-8 text (byte 0x{bad} at offset {error.start})"
        ) from None
    return read_log_text(text, source)


def read_log(path: Path | str) -> GameLog:
    """Read a log file (``"-"`` reads standard input); a :class:`LogError` if it is not valid.

    At most :data:`MAX_LOG_BYTES` are read, from a file or from standard input.
    """
    expect(path, (str, os.PathLike), "path", "a path")
    name = str(path)
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is not None:
            return read_log_bytes(stream.read(MAX_LOG_BYTES + 1), "<stdin>")
        text = sys.stdin.read(MAX_LOG_BYTES + 1)
        return read_log_text(text, "<stdin>")
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_LOG_BYTES:
            raise LogError(
                name,
                "$",
                f"the log is larger than the limit of {MAX_LOG_BYTES} bytes ({size} bytes)",
            )
        with file.open("rb") as stream:
            raw = stream.read(MAX_LOG_BYTES + 1)
    except LogError:
        raise
    except OSError as error:
        raise LogError(name, "$", f"cannot read the file: {error.strerror or error}") from None
    except ValueError as error:  # a path holding a NUL character
        raise LogError(name, "$", f"cannot read the file: {error}") from None
    return read_log_bytes(raw, name)
