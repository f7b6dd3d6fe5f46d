"""The words of the JSON wire format: how a gear, a program, a place, an upgrade card, an
outcome and a mapping keyed by robot number are written, read strictly.

:func:`make_wire_converter` registers these hooks on a new cattrs converter. The log reader
(:mod:`outofgears.log`) builds on it with the log's classes, and :mod:`outofgears.log.serialization`
with the model's, the events' and the post-reveal choices (written as a log writes them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, get_args, get_origin

import cattrs

from outofgears.errors import InvalidStateError, show
from outofgears.rules.events import Outcome
from outofgears.rules.gears import COLOUR_NAMES, ROBOT_NUMBERS, Gear, parse_gear
from outofgears.rules.model import Place, PlaceKind, UpgradeCard
from outofgears.rules.programs import AnyProgram, Program, UpgradeProgram, parse_program

#: A JSON object.
JSON = dict[str, Any]

#: How a message names the JSON type of each plain Python type.
JSON_WORDS: Final[dict[Any, str]] = {int: "an integer", str: "a string", bool: "true or false"}

#: Every place by its text (``str`` of the place): the whole grammar of places.
PLACE_TEXTS: Final[dict[str, Place]] = {
    str(place): place
    for place in (
        *(
            Place(kind, number)
            for number in ROBOT_NUMBERS
            for kind in (PlaceKind.FEET, PlaceKind.CIRCUIT)
        ),
        *(Place.dump(number) for number in ROBOT_NUMBERS),
        Place.reserve(),
    )
}

_CARDS: Final[dict[str, UpgradeCard]] = {card.value: card for card in UpgradeCard}
_OUTCOMES: Final[dict[str, Outcome]] = {outcome.value: outcome for outcome in Outcome}


def _strict(kind: type, what: str) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise InvalidStateError(f"expected {what}, got {show(value)}")
        return value

    return structure


def structure_gear(value: Any, _: Any = Gear) -> Gear:
    """A gear from its JSON: its name (:func:`outofgears.rules.gears.parse_gear`).

    >>> structure_gear("red"), structure_gear("jolly")
    (Gear(1), JOLLY)
    >>> structure_gear(3)
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: a gear is a name like "red", not 3 (colour 3 is "yellow")
    """
    if type(value) is str:
        return parse_gear(value)
    hint = f" (colour {value} is {show(COLOUR_NAMES[value])})" if value in ROBOT_NUMBERS else ""
    raise InvalidStateError(f'a gear is a name like "red", not {show(value)}{hint}')


def parse_place(text: str) -> Place:
    """A place from its text, written exactly as ``str`` of the place writes it.

    >>> parse_place("robot 3 circuit") == Place.circuit(3)
    True
    >>> parse_place("dump  4")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "dump  4" is not a place: write 'dump 4', 'robot 3 feet', 'robot 3 circuit' or 'reserve'
    """
    place = PLACE_TEXTS.get(text) if type(text) is str else None
    if place is None:
        raise InvalidStateError(
            f"{show(text)} is not a place: write 'dump 4', 'robot 3 feet', 'robot 3 circuit' "
            "or 'reserve'"
        )
    return place


def _structure_place(value: Any, _: Any) -> Place:
    return parse_place(value)


def _structure_any_program(value: Any, _: Any) -> AnyProgram:
    return parse_program(value)


def _structure_program(value: Any, _: Any) -> Program:
    return Program.parse(value)


def _structure_upgrade_program(value: Any, _: Any) -> UpgradeProgram:
    program = parse_program(value)
    if not isinstance(program, UpgradeProgram):
        raise InvalidStateError(
            f"{show(value)} is an action card and a number card, not an upgrade"
        )
    return program


def structure_card(value: Any, _: Any = UpgradeCard) -> UpgradeCard:
    """An upgrade card from its name.

    >>> structure_card("super trap")
    <UpgradeCard.SUPER_TRAP: 'super trap'>
    """
    card = _CARDS.get(value) if type(value) is str else None
    if card is None:
        raise InvalidStateError(f"{show(value)} is not an upgrade card: one of {', '.join(_CARDS)}")
    return card


def _structure_outcome(value: Any, _: Any) -> Outcome:
    outcome = _OUTCOMES.get(value) if type(value) is str else None
    if outcome is None:
        raise InvalidStateError(
            f"{show(value)} is not an outcome: one of {', '.join(map(show, _OUTCOMES))}"
        )
    return outcome


def _is_int_keyed(kind: Any) -> bool:
    return get_origin(kind) in (dict, Mapping) and get_args(kind)[:1] == (int,)


def _int_keyed_unstructure(kind: Any, converter: cattrs.Converter) -> Callable[[Any], Any]:
    value_type = get_args(kind)[1]

    def unstructure(mapping: Mapping[int, Any]) -> dict[str, Any]:
        return {
            str(key): converter.unstructure(mapping[key], value_type) for key in sorted(mapping)
        }

    return unstructure


def _int_keyed_structure(kind: Any, converter: cattrs.Converter) -> Callable[[Any, Any], Any]:
    value_type = get_args(kind)[1]

    def structure(value: Any, _: Any) -> dict[int, Any]:
        if type(value) is not dict:
            raise InvalidStateError(f"expected an object, got {show(value)}")
        out: dict[int, Any] = {}
        for key, item in value.items():
            if not (type(key) is str and len(key) == 1 and "1" <= key <= "8"):
                raise InvalidStateError(
                    f"{show(key)} is not a robot number: keys here are '1' to '8'"
                )
            out[int(key)] = converter.structure(item, value_type)
        return out

    return structure


def make_wire_converter(*, omit_if_default: bool = False) -> cattrs.Converter:
    """A strict converter with the wire format's words (and no class of its own).

    ``omit_if_default`` leaves out attributes at their defaults, as a log does.

    >>> make_wire_converter().unstructure([Gear(1), Gear(8)], list[Gear])
    ['red', 'white']
    """
    converter = cattrs.Converter(forbid_extra_keys=True, omit_if_default=omit_if_default)
    for kind, what in JSON_WORDS.items():
        converter.register_structure_hook(kind, _strict(kind, what))
    converter.register_unstructure_hook(Gear, str)
    converter.register_structure_hook(Gear, structure_gear)
    converter.register_unstructure_hook(Place, str)
    converter.register_structure_hook(Place, _structure_place)
    for program_type in (Program, UpgradeProgram):
        converter.register_unstructure_hook(program_type, str)
    converter.register_unstructure_hook(AnyProgram, str)
    converter.register_structure_hook(AnyProgram, _structure_any_program)
    converter.register_structure_hook(Program, _structure_program)
    converter.register_structure_hook(UpgradeProgram, _structure_upgrade_program)
    converter.register_unstructure_hook(UpgradeCard, lambda card: card.value)
    converter.register_structure_hook(UpgradeCard, structure_card)
    converter.register_unstructure_hook(Outcome, lambda outcome: outcome.value)
    converter.register_structure_hook(Outcome, _structure_outcome)
    converter.register_unstructure_hook_factory(_is_int_keyed, _int_keyed_unstructure)
    converter.register_structure_hook_factory(_is_int_keyed, _int_keyed_structure)
    return converter
