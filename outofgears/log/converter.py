"""The strict converter between a log's JSON and the classes of :mod:`.records`.

It converts and never coerces: ``"3"`` is not ``3``, ``"no"`` is not ``True``, ``1.0`` is
not ``1``. What a value may be is checked by the classes themselves (their declared
types); the hooks here say where in the JSON a problem stands, and report the first
problem of an object in document order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Final, Literal, Union, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from outofgears.errors import InvalidStateError, show
from outofgears.log.errors import LogFieldError, unknown_key
from outofgears.log.records import (
    LOG_CLASSES,
    MAX_DECK,
    START_SHAPE,
    DrawnGear,
    GearCount,
    ReserveRecord,
    Size,
    Start,
    check_size,
    compile_check,
    json_name,
    limits_of,
    required_keys,
)
from outofgears.log.wire import JSON_WORDS, make_wire_converter, structure_card
from outofgears.rules.gears import Gear
from outofgears.rules.model import AssemblyRule, DefenceStealSource, Options, UpgradeCard
from outofgears.rules.programs import AnyProgram


def _annotated_factory(converter: cattrs.Converter) -> Callable[[Any], Any]:
    # The limits of a declared type are the classes' to check: convert its base type.
    def factory(kind: Any) -> Callable[[Any, Any], Any]:
        base, limits = limits_of(kind)
        largest = min((limit.high for limit in limits if isinstance(limit, Size)), default=None)

        def structure(value: Any, _: Any) -> Any:
            # A list or object past its largest size is refused before its items are read:
            # reading them costs time in proportion to their number (450,000 keys took 20 s).
            if largest is not None and isinstance(value, list | dict) and len(value) > largest:
                check_size(len(value), limits, ())
            return converter.structure(value, base)

        return structure

    return factory


def _structure_word(value: Any, _: Any) -> str:
    # Which words a key allows is the class's to check (records.Says names them).
    if type(value) is not str:
        raise TypeError(f"expected a string, got {show(value)}")
    return value


def _is_optional(kind: Any) -> bool:
    args = get_args(kind)
    return (
        get_origin(kind) in (Union, type(int | None))
        and len(args) == 2
        and type(None) in args
        and kind is not AnyProgram
        and kind != DrawnGear
    )


def _optional_factory(converter: cattrs.Converter) -> Callable[[Any], Any]:
    def factory(kind: Any) -> Callable[[Any, Any], Any]:
        inner = next(arg for arg in get_args(kind) if arg is not type(None))
        bare = limits_of(inner)[0]
        word = JSON_WORDS.get(bare, "an array" if get_origin(bare) is tuple else "an object")

        def structure(value: Any, _: Any) -> Any:
            if value is None:
                raise TypeError(f"expected {word}, got null (leave the key out instead)")
            return converter.structure(value, inner)

        return structure

    return factory


def _is_homogeneous_tuple(kind: Any) -> bool:
    args = get_args(kind)
    return get_origin(kind) is tuple and len(args) == 2 and args[1] is Ellipsis


def _tuple_factory(converter: cattrs.Converter) -> Callable[[Any], Any]:
    def factory(kind: Any) -> Callable[[Any, Any], Any]:
        item_type = get_args(kind)[0]

        def structure(value: Any, _: Any) -> tuple[Any, ...]:
            if type(value) is not list:
                raise TypeError(f"expected an array, got {show(value)}")
            out: list[Any] = []
            errors: list[Exception] = []
            for index, item in enumerate(value):
                try:
                    out.append(converter.structure(item, item_type))
                except Exception as error:
                    error.__notes__ = [
                        IterableValidationNote(f"item @ index {index}", index, item_type)
                    ]
                    errors.append(error)
                    break
            if errors:
                raise IterableValidationError(f"While structuring {kind}", errors, kind)
            return tuple(out)

        return structure

    return factory


def _is_keyed(kind: Any) -> bool:
    return get_origin(kind) is dict and limits_of(get_args(kind)[0])[0] in (int, str)


def _keyed_factory(converter: cattrs.Converter) -> Callable[[Any], Any]:
    def factory(kind: Any) -> Callable[[Any, Any], Any]:
        key_type, value_type = get_args(kind)
        key_type = limits_of(key_type)[0]

        def structure(value: Any, _: Any) -> dict[Any, Any]:
            if type(value) is not dict:
                raise TypeError(f"expected an object, got {show(value)}")
            out: dict[Any, Any] = {}
            for key, item in value.items():
                # The value first: what a key holds is reported before the key itself.
                try:
                    structured = converter.structure(item, value_type)
                except Exception as error:
                    error.__notes__ = [IterableValidationNote(f"key {key!r}", key, value_type)]
                    raise IterableValidationError(
                        f"While structuring {kind}", [error], kind
                    ) from None
                if key_type is int:
                    if not (isinstance(key, str) and len(key) == 1 and "1" <= key <= "8"):
                        raise LogFieldError(
                            f"{show(key)} is not a robot number: keys here are '1' to '8'", key
                        )
                    out[int(key)] = structured
                else:
                    out[key] = structured
            return out

        return structure

    return factory


_OPTION_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "defence_steal_source": get_args(DefenceStealSource),
    "assembly": get_args(AssemblyRule),
}


def _structure_drawn(converter: cattrs.Converter) -> Callable[[Any, Any], DrawnGear]:
    def structure(value: Any, _: Any) -> DrawnGear:
        return None if value is None else converter.structure(value, Gear)

    return structure


_GEAR_COUNT: Final = compile_check(GearCount)


def _structure_reserve(converter: cattrs.Converter) -> Callable[[Any, Any], ReserveRecord]:
    def structure(value: Any, _: Any) -> ReserveRecord:
        if type(value) is list:
            gears: tuple[Gear, ...] = converter.structure(value, tuple[Gear, ...])
            return gears
        if type(value) is not dict:
            raise TypeError(
                f"expected an array (the draw order) or an object (gear name to count), "
                f"got {show(value)}"
            )
        counts: dict[Gear, int] = {}
        for name, count in value.items():
            try:
                gear = converter.structure(name, Gear)
            except ValueError as error:
                raise LogFieldError(str(error), name) from None
            _GEAR_COUNT(count, (name,))
            counts[gear] = count
        return counts

    return structure


def _unstructure_reserve(reserve: ReserveRecord) -> Any:
    if isinstance(reserve, dict):
        return {str(gear): count for gear, count in reserve.items()}
    return [str(gear) for gear in reserve]


def _structure_options(converter: cattrs.Converter) -> Callable[[Any, Any], Options]:
    known = [a.name for a in attrs.fields(Options)]

    def structure(value: Any, _: Any) -> Options:
        if type(value) is not dict:
            raise TypeError(f"expected an object, got {show(value)}")
        kwargs: dict[str, Any] = {}
        for name, item in value.items():
            if name not in known:
                raise LogFieldError(unknown_key(name, known), name)
            if name in _OPTION_CHOICES:
                if item not in _OPTION_CHOICES[name] or type(item) is not str:
                    raise LogFieldError(
                        f"{name} is {' or '.join(map(repr, _OPTION_CHOICES[name]))}, "
                        f"not {show(item)}",
                        name,
                    )
                kwargs[name] = item
            elif name == "upgrade_deck":
                if type(item) is not list:
                    raise LogFieldError(f"expected an array, got {show(item)}", name)
                if len(item) > MAX_DECK:
                    raise LogFieldError(f"at most {MAX_DECK} cards, not {len(item)}", name)
                cards = []
                for index, card in enumerate(item):
                    try:
                        cards.append(structure_card(card, UpgradeCard))
                    except ValueError as error:
                        raise LogFieldError(str(error), name, index) from None
                kwargs[name] = tuple(cards)
            else:
                if type(item) is not bool:
                    raise LogFieldError(f"expected true or false, got {show(item)}", name)
                kwargs[name] = item
        return Options(**kwargs)

    return structure


def _unstructure_options(options: Options) -> dict[str, Any]:
    defaults = Options()
    out: dict[str, Any] = {}
    for a in attrs.fields(Options):
        value = getattr(options, a.name)
        if value != getattr(defaults, a.name):
            out[a.name] = [card.value for card in value] if a.name == "upgrade_deck" else value
    return out


def _json_name(cls: type, name: str) -> str:
    return json_name(attrs.fields_dict(cls)[name])


def _object_hook(cls: type, generated: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Structure an object, reporting its first problem in document order.

    An unknown key counts where it stands, a missing key at the end of the object,
    a bad value where its key stands.
    """
    required = sorted(required_keys(cls))
    known = sorted(json_name(a) for a in attrs.fields(cls))
    attribute_of = {json_name(a): a.name for a in attrs.fields(cls)}

    def structure(value: Any, kind: Any) -> Any:
        if type(value) is not dict:
            raise TypeError(f"expected an object, got {show(value)}")
        keys = list(value)
        if cls is Start and (len(set(keys) & {"seed", "position"}) == 2 or not keys):
            raise LogFieldError(START_SHAPE)
        problems: list[tuple[int, BaseException]] = []
        unknown = [i for i, key in enumerate(keys) if key not in known]
        if unknown:
            key = keys[unknown[0]]
            problems.append((unknown[0], LogFieldError(unknown_key(key, known), key)))
        missing = [key for key in required if key not in value]
        if missing:
            problem = LogFieldError(f"the required key {missing[0]!r} is missing", missing[0])
            problems.append((len(keys), problem))
        try:
            structured = generated({k: v for k, v in value.items() if k in known}, kind)
        except ClassValidationError as error:
            for inner in error.exceptions:
                if isinstance(inner, KeyError | ForbiddenExtraKeysError):
                    continue  # reported above
                problems.append((_problem_index(inner, keys, attribute_of), inner))
            if not problems:  # pragma: no cover - cattrs raised an error it did not explain
                raise
        if not problems:
            return structured
        _, first = min(problems, key=lambda item: item[0])
        if isinstance(first, LogFieldError) and not _attribute_note(first):
            raise first
        raise ClassValidationError(f"While structuring {cls.__name__}", [first], cls)  # type: ignore[list-item]

    return structure


def _attribute_note(error: BaseException) -> AttributeValidationNote | None:
    for note in getattr(error, "__notes__", ()):
        if isinstance(note, AttributeValidationNote):
            return note
    return None


def _problem_index(error: BaseException, keys: list[str], attribute_of: dict[str, str]) -> int:
    """Where in the object a structuring error stands: its key's position."""
    note = _attribute_note(error)
    if note is not None:
        names = [attribute_of.get(key) for key in keys]
        return names.index(note.name) if note.name in names else len(keys)
    where = getattr(error, "where", ())
    if where and where[0] in keys:
        return keys.index(where[0])
    return len(keys) + 1  # the object as a whole: after what it holds


def make_log_converter() -> cattrs.Converter:
    """The strict converter between log JSON and the log classes.

    It never coerces: a wrong type, a JSON ``null``, an unknown key, a missing
    required key or a key that is not a robot number is refused, with where.

    >>> make_log_converter().structure("red", Gear)
    Gear(1)
    """
    converter = make_wire_converter(omit_if_default=True)
    converter.register_structure_hook_factory(_is_optional, _optional_factory(converter))
    converter.register_structure_hook_factory(_is_homogeneous_tuple, _tuple_factory(converter))
    converter.register_structure_hook_factory(_is_keyed, _keyed_factory(converter))
    converter.register_structure_hook(Options, _structure_options(converter))
    converter.register_structure_hook_func(
        lambda kind: kind == DrawnGear, _structure_drawn(converter)
    )
    converter.register_structure_hook_func(
        lambda kind: kind == ReserveRecord, _structure_reserve(converter)
    )
    converter.register_unstructure_hook_func(
        lambda kind: kind == ReserveRecord, _unstructure_reserve
    )
    converter.register_unstructure_hook(Options, _unstructure_options)
    converter.register_structure_hook_factory(
        lambda kind: get_origin(kind) is Annotated,  # type: ignore[comparison-overlap]
        _annotated_factory(converter),
    )
    converter.register_structure_hook_factory(
        lambda kind: get_origin(kind) is Literal,  # type: ignore[comparison-overlap]
        lambda kind: _structure_word,
    )
    converter.register_unstructure_hook_factory(
        lambda kind: get_origin(kind) is Annotated,  # type: ignore[comparison-overlap]
        lambda kind: converter.get_unstructure_hook(get_args(kind)[0]),
    )
    for cls in LOG_CLASSES:
        renamed: dict[str, Any] = {
            a.name: override(rename=json_name(a))
            for a in attrs.fields(cls)
            if json_name(a) != a.name
        }
        converter.register_structure_hook(
            cls,
            _object_hook(
                cls,
                make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True, **renamed),
            ),
        )
        converter.register_unstructure_hook(
            cls,
            make_dict_unstructure_fn(cls, converter, _cattrs_omit_if_default=True, **renamed),
        )
    return converter


LOG_CONVERTER: Final = make_log_converter()


def cattrs_failure(error: BaseException) -> tuple[list[str | int], str]:
    """The path and reason of the first failure in a cattrs error tree of the log converter."""
    parts: list[str | int] = []
    while isinstance(error, ClassValidationError | IterableValidationError):
        inner = error.exceptions[0]
        for note in getattr(inner, "__notes__", ()):
            if isinstance(note, AttributeValidationNote):
                parts.append(_json_name(error.cl, note.name))
                break
            if isinstance(note, IterableValidationNote):
                parts.append(note.index)
                break
        error = inner
    if isinstance(error, ForbiddenExtraKeysError):
        extra = sorted(error.extra_fields)[0]
        return [*parts, extra], f"unknown key {extra!r}"
    if isinstance(error, LogFieldError):
        return [*parts, *error.where], error.reason
    if isinstance(error, KeyError):
        return parts, "a required key is missing"
    if isinstance(error, InvalidStateError | ValueError | TypeError):
        return parts, str(error)
    return parts, f"cannot be read: {type(error).__name__}: {error}"
