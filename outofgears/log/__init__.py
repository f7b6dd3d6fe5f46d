"""Game logs: the ``outofgears-log/1`` JSON format, its reader and its writer.

A log holds who played which robots, the rule options, how the game started (a seed, or a
position entered by hand) and every turn: the programs, the post-reveal choices, what was
drawn and, optionally, what the players recorded after it. See ``spec/log-format.md``.

The package's parts:

* :mod:`.records`: the format, declared once: the classes of a log with their types and
  limits, and the check of a value against them;
* :mod:`.schema`: the JSON Schema, written from that declaration (``outofgears schema``);
* :mod:`.converter`: the strict converter between JSON and the classes;
* :mod:`.reading`: bytes to a :class:`GameLog`, stopping at the first problem;
* :mod:`.writing`: a :class:`GameLog` to JSON text;
* :mod:`.errors`: :class:`LogError`, which names the file, the JSON path, the turn and the
  robot, and the JSON paths it uses.
"""

from __future__ import annotations

from outofgears.log.converter import LOG_CONVERTER, cattrs_failure
from outofgears.log.errors import LogError, LogFieldError, json_path
from outofgears.log.reading import (
    parse_log_text,
    read_log,
    read_log_bytes,
    read_log_text,
    structure_log,
)
from outofgears.log.records import (
    LOG_FORMAT,
    MAX_DECK,
    MAX_DEPTH,
    MAX_DESCRIPTION,
    MAX_GEARS,
    MAX_LOG_BYTES,
    MAX_SCORE,
    MAX_SPLITS,
    MAX_STEALS,
    MAX_TURNS,
    MAX_VERSION,
    START_SHAPE,
    ChoicesRecord,
    DrawnGear,
    GameLog,
    PositionRecord,
    Recorded,
    ReserveRecord,
    RobotGears,
    SealRecord,
    SplitRecord,
    Start,
    StealRecord,
    TurnRecord,
    WrittenBy,
)
from outofgears.log.schema import log_schema
from outofgears.log.writing import dump_log, format_json, log_to_json, turn_record_from
from outofgears.rules.gears import GEAR_NAMES
from outofgears.rules.model import MAX_NAME
from outofgears.rules.setup import MAX_SEED

# The public classes are shown as ``outofgears.log.X`` (in reprs and tracebacks), wherever
# in the package they are defined.
for _public in (
    LogError,
    LogFieldError,
    ChoicesRecord,
    GameLog,
    PositionRecord,
    Recorded,
    RobotGears,
    SealRecord,
    SplitRecord,
    Start,
    StealRecord,
    TurnRecord,
    WrittenBy,
):
    _public.__module__ = __name__

__all__ = [
    "GEAR_NAMES",
    "LOG_CONVERTER",
    "LOG_FORMAT",
    "MAX_DECK",
    "MAX_DEPTH",
    "MAX_DESCRIPTION",
    "MAX_GEARS",
    "MAX_LOG_BYTES",
    "MAX_NAME",
    "MAX_SCORE",
    "MAX_SEED",
    "MAX_SPLITS",
    "MAX_STEALS",
    "MAX_TURNS",
    "MAX_VERSION",
    "START_SHAPE",
    "ChoicesRecord",
    "DrawnGear",
    "GameLog",
    "LogError",
    "LogFieldError",
    "PositionRecord",
    "Recorded",
    "ReserveRecord",
    "RobotGears",
    "SealRecord",
    "SplitRecord",
    "Start",
    "StealRecord",
    "TurnRecord",
    "WrittenBy",
    "cattrs_failure",
    "dump_log",
    "format_json",
    "json_path",
    "log_schema",
    "log_to_json",
    "parse_log_text",
    "read_log",
    "read_log_bytes",
    "read_log_text",
    "structure_log",
    "turn_record_from",
]
