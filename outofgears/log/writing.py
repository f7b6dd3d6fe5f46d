"""Writing a log: the classes of :mod:`.records` to JSON text, the way a table reads it."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

import attrs

from outofgears.errors import ArgumentTypeError, expect
from outofgears.log.converter import LOG_CONVERTER
from outofgears.log.records import MAX_DEPTH, ChoicesRecord, GameLog, Recorded, TurnRecord
from outofgears.rules.choices import Choices
from outofgears.rules.programs import AnyProgram, expect_programs

#: The order of a log's keys, as the annotated example of the format writes them: what a
#: reader wants first (the format, who wrote it, what it is), then the game.
LOG_KEYS: Final = (
    "format",
    "written_by",
    "description",
    "players",
    "two_robot_variant",
    "options",
    "start",
    "turns",
)
#: The order of a turn's choices: the order of the turn (steals, then splits, then assembly).
CHOICES_KEYS: Final = ("defence_steals", "splits", "assemblies")


def log_to_json(log: GameLog) -> dict[str, Any]:
    """A log as JSON-ready data (defaults left out, but ``format`` and ``turns`` always in),
    its keys in the order of the format's annotated example (a turn whose choices decide
    nothing has none: :class:`TurnRecord` holds no empty record).

    >>> from outofgears.log import Start, WrittenBy
    >>> data = log_to_json(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=3),
    ...                            written_by=WrittenBy("0.2.0", "1.3")))
    >>> list(data), data["start"], data["turns"]
    (['format', 'written_by', 'players', 'start', 'turns'], {'seed': 3}, [])
    """
    expect(log, GameLog, "log", "a GameLog")
    data: dict[str, Any] = LOG_CONVERTER.unstructure(log)
    data["format"] = log.format
    data.setdefault("turns", [])
    for turn in data["turns"]:
        if "choices" in turn:
            turn["choices"] = {
                key: turn["choices"][key] for key in CHOICES_KEYS if key in turn["choices"]
            }
    return {key: data[key] for key in LOG_KEYS if key in data}


def dump_log(log: GameLog) -> str:
    """A log as JSON text: two-space indented, short lists on one line, a final newline.

    >>> from outofgears.log import Start
    >>> print(dump_log(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=3))), end="")
    {
      "format": "outofgears-log/1",
      "players": {
        "A": [1],
        "B": [2]
      },
      "start": {
        "seed": 3
      },
      "turns": []
    }
    """
    expect(log, GameLog, "log", "a GameLog")
    return format_json(log_to_json(log)) + "\n"


def format_json(value: Any, indent: int = 0) -> str:
    """JSON text that keeps lists of plain values on one line, the way a table reads gears.

    >>> print(format_json({"feet": ["red", "red"]}))
    {
      "feet": ["red", "red"]
    }
    """
    if type(indent) is not int or not 0 <= indent <= MAX_DEPTH:
        raise ArgumentTypeError("indent", f"a number of levels from 0 to {MAX_DEPTH}", indent)
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [
            f"{pad}{json.dumps(key, ensure_ascii=False)}: {format_json(item, indent + 1)}"
            for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        items = [f"{pad}{format_json(item, indent + 1)}" for item in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    try:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError) as error:  # not JSON data, or data that holds itself
        raise ArgumentTypeError("value", "JSON data", value) from error


def turn_record_from(
    turn: int,
    programs: Mapping[int, AnyProgram],
    recorded: Recorded | None = None,
    *,
    choices: Choices | ChoicesRecord | None = None,
) -> TurnRecord:
    """The record of a turn played by the engine, as a log writes it: its programs, the
    post-reveal choices it was played with (``None``, or choices that decide nothing, write
    none: the default policies decide) and what the players wrote down.

    >>> from outofgears import Choices, DefenceSteal, Program, gears
    >>> turn_record_from(1, {1: Program.parse("trap 2")}).programs
    {1: Program(action=<Action.TRAP: 'trap'>, number=2)}
    >>> steal = DefenceSteal("feet", gears(2)[0])
    >>> record = turn_record_from(2, {1: Program.parse("attack 2"), 2: Program.parse("attack 2")},
    ...                           choices=Choices(defence_steals={(2, 1): steal}))
    >>> str(record.choices.defence_steals[0].gear), turn_record_from(3, {}, choices=Choices()).choices
    ('orange', None)
    """
    expect_programs(programs, "programs")
    if isinstance(choices, Choices):
        choices = ChoicesRecord.of(choices)
    elif choices is not None and not isinstance(choices, ChoicesRecord):
        raise ArgumentTypeError("choices", "a Choices, a ChoicesRecord or None", choices)
    return TurnRecord(turn=turn, programs=dict(programs), choices=choices, recorded=recorded)


#: Characters json.dumps leaves raw with ensure_ascii=False that a terminal must not receive.
JSON_UNSAFE = re.compile(
    "[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\udfff]"
)


def json_safe(text: str) -> str:
    r"""JSON text with the characters of :data:`JSON_UNSAFE` written as ``\uXXXX`` escapes.

    >>> print(json_safe('"A\u202eB"'))
    "A\u202eB"
    """
    return JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def append_turn_text(text: str, log: GameLog, record: TurnRecord) -> str:
    """The log text ``text`` (of ``log``) with ``record`` appended as its last turn; every key
    of the text is kept as it was, only the new turn is written (as :func:`dump_log` would).

    >>> from outofgears.log import Start
    >>> from outofgears.rules.programs import Program
    >>> game = GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=3))
    >>> turn = TurnRecord(1, {1: Program.parse("trap 2"), 2: Program.parse("harvest 2")})
    >>> json.loads(append_turn_text(dump_log(game), game, turn))["turns"]
    [{'turn': 1, 'programs': {'1': 'trap 2', '2': 'harvest 2'}}]
    """
    data = json.loads(text)
    data["turns"].append(log_to_json(_with_turns(log, (record,)))["turns"][0])
    return json_safe(format_json(data)) + "\n"


def without_last_turn_text(text: str) -> str:
    """The log text ``text`` with its last turn taken out; every other key kept as it was.

    Raises:
        ValueError: The log has no turn.
    """
    data = json.loads(text)
    if not data.get("turns"):
        raise ValueError("the log has no turn to take back")
    data["turns"].pop()
    return json_safe(format_json(data)) + "\n"


def _with_turns(log: GameLog, turns: tuple[TurnRecord, ...]) -> GameLog:
    """``log`` with ``turns`` in place of its own."""
    return attrs.evolve(log, turns=turns)
