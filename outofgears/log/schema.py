"""The JSON Schema of the log format, written from its one declaration (:mod:`.records`).

Nothing here says what a log holds: each class of :mod:`.records` becomes an object of the
schema (its keys, which are required, no others), each type a JSON type, and each limit
(:class:`~.records.Range`, :class:`~.records.Length`, :class:`~.records.Size`,
:class:`~.records.OneOf`) its keywords. ``outofgears schema`` prints the result, and
``spec/log.schema.json`` is a copy that the tests keep equal to it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Final, Literal, get_args, get_origin

import attrs

from outofgears.log.records import (
    LOG_FORMAT,
    MAX_DECK,
    MAX_DEPTH,
    MAX_LOG_BYTES,
    GameLog,
    Length,
    OneOf,
    Range,
    RobotNumber,
    Size,
    is_union,
    json_name,
    limits_of,
    optional_of,
    required_keys,
)
from outofgears.rules.gears import GEAR_NAMES, ROBOT_NUMBERS, Gear
from outofgears.rules.model import Options, UpgradeCard
from outofgears.rules.programs import PROGRAM_TEXTS, AnyProgram

SCHEMA_ID: Final = "https://outofgears.invalid/spec/log.schema.json"

#: What readers refuse that a schema cannot say.
BEYOND_THE_SCHEMA: Final = (
    f"Readers also refuse what a schema cannot say: a file over {MAX_LOG_BYTES:,} bytes "
    "(MAX_LOG_BYTES), text that is not UTF-8, a key repeated in an object, JSON nested deeper "
    f"than {MAX_DEPTH} levels (MAX_DEPTH), integers written with a fraction (1.0), a defence "
    "steal or a split written twice in one turn, and a reserve of more than 120 gears in all."
)


def _def_name(cls: type) -> str:
    name = cls.__name__.removesuffix("Record")
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class _Writer:
    """Writes the schema of a type, collecting the named definitions it refers to."""

    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}

    def ref(self, name: str, schema: dict[str, Any]) -> dict[str, Any]:
        self.defs.setdefault(name, schema)
        return {"$ref": f"#/$defs/{name}"}

    def of(self, kind: Any) -> dict[str, Any]:
        if kind == RobotNumber:  # the one integer type written once, in $defs
            written = _keywords(limits_of(kind)[1][0], int)
            return self.ref("robot", {"title": written.pop("title"), "type": "integer", **written})
        base, limits = limits_of(kind)
        schema = self._base(base, limits)
        for limit in limits:
            schema.update(_keywords(limit, base))
        return schema

    def _base(self, base: Any, limits: tuple[Any, ...]) -> dict[str, Any]:
        if is_union(base):
            return self._union(base)
        if base is int:
            return {"type": "integer"}
        if base is str:
            return {"type": "string"}
        if base is bool:
            return {"type": "boolean"}
        if get_origin(base) is Literal:
            values = list(get_args(base))
            return {"const": values[0]} if len(values) == 1 else {"enum": values}
        if get_origin(base) is tuple:
            return {"type": "array", "items": self.of(get_args(base)[0])}
        if get_origin(base) is dict:
            key, item = get_args(base)
            return {
                "type": "object",
                "propertyNames": self._key(key),
                "additionalProperties": self.of(item),
            }
        if base is Gear:
            return self.ref("gear", _gear_schema())
        if base is AnyProgram:
            return self.ref("program", _program_schema())
        if base is UpgradeCard:
            return self.ref(
                "upgrade_card", {"type": "string", "enum": [c.value for c in UpgradeCard]}
            )
        if base is Options:
            return self.ref("options", self._options())
        if any(isinstance(limit, OneOf) for limit in limits):
            return {"type": "string"}
        if attrs.has(base):
            return self.ref(_def_name(base), self.object(base))
        raise TypeError(f"the log format declares no schema for {base!r}")  # pragma: no cover

    def _key(self, kind: Any) -> dict[str, Any]:
        base, _ = limits_of(kind)
        if base is int:
            keys = [str(n) for n in ROBOT_NUMBERS]
            return self.ref("robot_key", {"type": "string", "enum": keys})
        if base is Gear:
            return self.ref("gear", _gear_schema())
        schema = self.of(kind)
        schema.pop("type", None)  # a key is always a string
        return schema

    def _union(self, kind: Any) -> dict[str, Any]:
        options = get_args(kind)
        if type(None) in options:
            # Inside a container a JSON null is a value (what a dump got from an empty reserve).
            (inner,) = [o for o in options if o is not type(None)]
            inner_schema = self.of(inner)
            if inner_schema == self.ref("gear", _gear_schema()):
                return {"enum": [*GEAR_NAMES, None]}
            return {"anyOf": [inner_schema, {"type": "null"}]}  # pragma: no cover
        merged: dict[str, Any] = {"type": []}
        for option in options:
            schema = self.of(option)
            merged["type"].append(schema.pop("type"))
            merged.update(schema)
        return merged

    def object(self, cls: type) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        for attribute in attrs.fields(cls):
            kind = attribute.type
            if attribute.default is None:
                kind = optional_of(kind)
            written = self.of(kind)
            doc = attribute.metadata.get("doc")
            if doc:
                written = {"description": doc, **written}
            properties[json_name(attribute)] = written
        schema: dict[str, Any] = {
            "description": (cls.__doc__ or "").strip().splitlines()[0],
            "type": "object",
            "additionalProperties": False,
        }
        required = list(required_keys(cls))
        if required:
            schema["required"] = required
        schema["properties"] = properties
        one_of = getattr(cls, "ONE_OF", None)
        if one_of:
            del schema["properties"]
            schema["oneOf"] = [
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": [name],
                    "properties": {name: properties[name]},
                }
                for name in one_of
            ]
            del schema["type"], schema["additionalProperties"]
        return schema

    def _options(self) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        for attribute in attrs.fields(Options):
            kind = attribute.type
            if isinstance(kind, str):  # pragma: no cover - the model resolves its types
                kind = (
                    attrs.resolve_types(Options) and attrs.fields_dict(Options)[attribute.name].type
                )
            if get_origin(kind) is tuple:
                properties[attribute.name] = {
                    "type": "array",
                    "maxItems": MAX_DECK,
                    "items": self.of(get_args(kind)[0]),
                }
            else:
                properties[attribute.name] = self.of(kind)
        return {
            "description": "The rule options; every one may be left out (its default).",
            "type": "object",
            "additionalProperties": False,
            "properties": properties,
        }


def _keywords(limit: Any, base: Any) -> dict[str, Any]:
    if isinstance(limit, Range):
        return {"title": limit.title, "minimum": limit.low, "maximum": limit.high}
    if isinstance(limit, Length):
        low = {"minLength": limit.low} if limit.low else {}
        return {**low, "maxLength": limit.high}
    if isinstance(limit, Size):
        if get_origin(base) is dict:
            low = {"minProperties": limit.low} if limit.low else {}
            return {**low, "maxProperties": limit.high}
        low = {"minItems": limit.low} if limit.low else {}
        unique = {"uniqueItems": True} if limit.unique else {}
        return {**low, "maxItems": limit.high, **unique}
    if isinstance(limit, OneOf):
        return {"enum": list(limit.values)}
    return {}


def _gear_schema() -> dict[str, Any]:
    return {
        "description": "A gear as a table names it: a colour, or an expansion gear.",
        "type": "string",
        "enum": list(GEAR_NAMES),
    }


def _program_schema() -> dict[str, Any]:
    return {
        "description": "An action card and a number card ('attack 3', 'trap 1', "
        "'harvest 5'), or an upgrade card.",
        "type": "string",
        "enum": list(PROGRAM_TEXTS),
    }


@cache
def log_schema() -> dict[str, Any]:
    """The JSON Schema of the log format, from its declaration.

    >>> log_schema()["properties"]["format"]["const"]
    'outofgears-log/1'
    >>> log_schema()["$defs"]["gear"]["enum"][:3]
    ['red', 'orange', 'yellow']
    """
    writer = _Writer()
    root = writer.object(GameLog)
    writer.defs.pop("game_log", None)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"Out of Gears game log, format {LOG_FORMAT}",
        "description": "A game of Out of Gears as a table or a bot played it: who played which "
        "robots, the rule options, how the game started, and every turn's programs, "
        "post-reveal choices, drawn gears and what the players recorded. See "
        "spec/log-format.md. " + BEYOND_THE_SCHEMA,
        **{key: value for key, value in root.items() if key != "description"},
        "$defs": dict(sorted(writer.defs.items())),
    }
