"""Fuzzing the log reader (issue 7: hostile and broken input).

Hypothesis-generated JSON values, and mutations of the shipped logs of ``examples/``:
deleted keys, values swapped for any other JSON value, huge numbers, unicode and very long
strings, deep nesting, a duplicated key, truncated text. Every input must end in a replay
or a :class:`~outofgears.log.LogError` from the library, and in exit status 0, 1 or 2
from ``outofgears replay`` (2 with one line on standard error); never another exception.
Sizes are bounded, so nothing can hang or blow up the memory.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from outofgears.cli.main import main
from outofgears.judge.replay import replay_log
from outofgears.log import MAX_DEPTH, LogError, read_log_bytes

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LOGS: dict[str, Any] = {
    path.name: json.loads(path.read_text(encoding="utf-8"))
    for path in sorted(EXAMPLES.glob("*.log.json"))
}

#: Any JSON value, small enough to stay fast.
json_values: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)

#: Values a mutation puts in place of another.
replacements: st.SearchStrategy[Any] = st.one_of(
    json_values,
    st.sampled_from([2**64, -(2**64), 10**400, 1e308, -0.0, 0.5, "", "\u0000", "\U0001f916" * 3]),
    st.integers(min_value=10, max_value=100_000).map(lambda n: "x" * n),
    st.integers(min_value=1, max_value=4 * MAX_DEPTH).map(lambda n: json.loads("[" * n + "]" * n)),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
)


def paths(value: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every path into ``value``, itself included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def mutate(value: Any, path: tuple[str | int, ...], how: str, new: Any) -> Any:
    """A copy of ``value`` with the item at ``path`` deleted, replaced or wrapped."""
    if not path:
        return {"replace": new, "delete": {}, "wrap": [value]}[how]
    head, *rest = path
    copy: Any = dict(value) if isinstance(value, dict) else list(value)
    if rest:
        copy[head] = mutate(copy[head], tuple(rest), how, new)
    elif how == "delete":
        del copy[head]
    elif how == "wrap":
        copy[head] = {"value": copy[head]} if isinstance(copy[head], list) else [copy[head]]
    else:
        copy[head] = new
    return copy


@st.composite
def mutated_logs(draw: st.DrawFn) -> bytes:
    """The text of a shipped log, mutated once or twice, then perhaps broken as text."""
    data = LOGS[draw(st.sampled_from(sorted(LOGS)))]
    for _ in range(draw(st.integers(min_value=1, max_value=2))):
        path = draw(st.sampled_from(paths(data)))
        how = draw(st.sampled_from(["replace", "delete", "wrap"]))
        data = mutate(data, path, how, draw(replacements) if how == "replace" else None)
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    damage = draw(st.sampled_from(["none", "truncate", "duplicate", "bytes"]))
    if damage == "truncate":
        text = text[: draw(st.integers(min_value=0, max_value=len(text)))]
    elif damage == "duplicate" and text.startswith("{"):
        text = '{"format": "outofgears-log/1", ' + text[1:]
    raw = text.encode("utf-8")
    if damage == "bytes":
        at = draw(st.integers(min_value=0, max_value=len(raw)))
        raw = raw[:at] + draw(st.binary(min_size=1, max_size=4)) + raw[at:]
    return raw


inputs: st.SearchStrategy[bytes] = st.one_of(
    mutated_logs(),
    json_values.map(lambda value: json.dumps(value).encode("utf-8")),
    st.binary(max_size=64),
)


def read_and_replay(raw: bytes) -> None:
    """Read and replay ``raw``; a :class:`LogError` is an answer too."""
    message = ""
    try:
        replay_log(read_log_bytes(raw, "<fuzz>"), "<fuzz>")
    except LogError as error:
        message = str(error)
    if message:
        assert message.startswith("<fuzz>: $"), message
        # one line in every sense of str.splitlines: no U+0085, U+2028 ... either (issue 14)
        assert len(message.splitlines()) == 1, message


@pytest.mark.parametrize("name", sorted(LOGS))
def test_every_shipped_log_replays(name: str) -> None:
    replay_log(read_log_bytes((EXAMPLES / name).read_bytes(), name), name)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(inputs)
def test_the_reader_replays_or_refuses_with_a_log_error(raw: bytes) -> None:
    read_and_replay(raw)


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(inputs)
def test_replay_exits_0_1_or_2_with_one_line(raw: bytes) -> None:
    result = CliRunner().invoke(main, ["replay", "-"], input=raw)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith("Error: <stdin>: ")


def test_a_key_with_a_newline_is_named_on_one_line() -> None:
    # Found by the fuzzer: the JSON path quoted the key with its newline, so the message
    # of `outofgears replay` ran onto a second line.
    result = CliRunner().invoke(main, ["replay", "-"], input=b'{"\\n": null}')
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "Error: <stdin>: $['\\n']: unknown key '\\n' (known: description, format, options, "
        "players, start, turns, two_robot_variant, written_by)"
    ]
