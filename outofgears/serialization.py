"""The JSON wire format: one cattrs converter for states, events, choices, programs and gears.

Every JSON that outofgears writes or reads -- logs, saved states, events, and the
``--format json`` output of every command -- writes a value of these types the same way,
with the hooks of :func:`make_converter`:

* a gear by its name, as a log names it: ``"red"``, ``"orange"``, ... ``"white"``,
  ``"jolly"``, ``"3-point"`` (:data:`outofgears.gears.GEAR_NAMES`);
* a program as ``"attack 3"``, ``"trap 1"``, ``"harvest 5"`` or an upgrade card's name
  (:data:`outofgears.programs.PROGRAM_TEXTS`);
* a place as ``"robot 3 feet"``, ``"robot 3 circuit"``, ``"dump 4"`` or ``"reserve"``;
* an upgrade card by its name, ``"super trap"``; an outcome in words, ``"attack hit"``;
* a mapping keyed by robot number with the numbers as strings, ``{"3": ...}``;
* post-reveal choices the way a log's turn writes its ``choices``.

The converter is strict: a value of the wrong type is refused, never coerced (cattrs would
turn ``"3"`` into ``3`` and ``"no"`` into ``True`` by default), a text is read only in the
spelling it is written in, and unknown keys are refused. The log reader
(:mod:`outofgears.log`) builds its converter with :func:`make_converter` too and adds only
the log's own classes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Final, get_args, get_origin

import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn

from outofgears.choices import Choices
from outofgears.errors import InvalidStateError, show
from outofgears.events import (
    ActionResolved,
    Event,
    GearMoved,
    Outcome,
    SplitResolved,
    TurnEnded,
    UpgradeDiscarded,
)
from outofgears.gears import COLOUR_NAMES, ROBOT_NUMBERS, Gear, parse_gear
from outofgears.model import Dump, GameState, Options, Place, PlaceKind, Player, Robot, UpgradeCard
from outofgears.programs import AnyProgram, Program, UpgradeProgram, parse_program

JSON = dict[str, Any]

_EVENT_TYPES: dict[str, type[Any]] = {
    "gear_moved": GearMoved,
    "action_resolved": ActionResolved,
    "split_resolved": SplitResolved,
    "upgrade_discarded": UpgradeDiscarded,
    "turn_ended": TurnEnded,
}
_EVENT_NAMES = {cls: name for name, cls in _EVENT_TYPES.items()}
_MODEL_CLASSES: Final = frozenset({Robot, Dump, Player, Options, GameState, *_EVENT_TYPES.values()})

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
    """A gear from its JSON: its name (:func:`outofgears.gears.parse_gear`).

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


def _unstructure_choices(choices: Choices) -> JSON:
    from outofgears.log import LOG_CONVERTER, ChoicesRecord  # the log defines the form

    data: JSON = LOG_CONVERTER.unstructure(ChoicesRecord.of(choices))
    return data


def _structure_choices(value: Any, _: Any) -> Choices:
    from outofgears import log  # the log defines the form

    try:
        record: log.ChoicesRecord = log.LOG_CONVERTER.structure(value, log.ChoicesRecord)
    except Exception as error:
        parts, reason = log.cattrs_failure(error)
        raise InvalidStateError(f"{reason} @ {log.json_path(parts)}") from None
    return record.to_choices()


def make_converter(*, omit_if_default: bool = False) -> cattrs.Converter:
    """A strict converter with the wire format's hooks, for every class of the model and events.

    ``omit_if_default`` leaves out attributes at their defaults, as a log does.

    >>> make_converter().unstructure(Place.dump(2))
    'dump 2'
    >>> make_converter().unstructure([Gear(1), Gear(8)], list[Gear])
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
    converter.register_unstructure_hook(Choices, _unstructure_choices)
    converter.register_structure_hook(Choices, _structure_choices)
    # The model's and the events' hooks are generated when first used (a log never needs them).
    converter.register_unstructure_hook_factory(
        _MODEL_CLASSES.__contains__, lambda cls: make_dict_unstructure_fn(cls, converter)
    )
    converter.register_structure_hook_factory(
        _MODEL_CLASSES.__contains__,
        lambda cls: make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True),
    )
    return converter


@cache
def converter() -> cattrs.Converter:
    """The converter of :func:`make_converter`, built on first use rather than on import.

    >>> converter() is converter()
    True
    """
    return make_converter()


if TYPE_CHECKING:
    #: The converter of :func:`converter`, under its former name (built on first use).
    CONVERTER: cattrs.Converter
else:

    def __getattr__(name: str) -> Any:
        if name == "CONVERTER":
            return converter()
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def to_json(value: Any, kind: Any = None) -> Any:
    """Any value of the model (gears, programs, places, mappings of them ...) as JSON-ready data.

    >>> from outofgears.gears import JOLLY, THREE_POINT
    >>> to_json((Gear(2), JOLLY, THREE_POINT))
    ['orange', 'jolly', '3-point']
    >>> to_json({2: Program.parse("trap 1")}, dict[int, AnyProgram])
    {'2': 'trap 1'}
    """
    return converter().unstructure(value, kind)


def state_to_dict(state: GameState) -> JSON:
    """A state as JSON-ready data.

    >>> from outofgears.setup import setup_game
    >>> data = state_to_dict(setup_game([1, 2], seed=1))
    >>> data["turn"], data["dumps"][0]
    (1, {'number': 1, 'gears': ['red', 'orange']})
    """
    data: JSON = converter().unstructure(state)
    return data


def state_from_dict(data: JSON) -> GameState:
    """A state from data written by :func:`state_to_dict`; refuses anything else.

    >>> from outofgears.setup import setup_game
    >>> state = setup_game([1, 2], seed=1)
    >>> state_from_dict(state_to_dict(state)) == state
    True
    """
    try:
        return converter().structure(data, GameState)
    except InvalidStateError:
        raise
    except (cattrs.BaseValidationError, KeyError, TypeError, ValueError) as error:
        raise InvalidStateError(f"not a valid state: {_describe(error)}") from None


def event_to_dict(event: Event) -> JSON:
    """An event as JSON-ready data, with its ``"type"``.

    >>> from outofgears.events import TurnEnded
    >>> event_to_dict(TurnEnded(3, False, "TURN-1"))
    {'type': 'turn_ended', 'turn': 3, 'game_over': False, 'clause': 'TURN-1'}
    >>> event_to_dict(GearMoved(Gear(3), Place.dump(3), Place.feet(1), 1, "HRV-1"))["gear"]
    'yellow'
    """
    data: JSON = {"type": _EVENT_NAMES[type(event)]}
    data.update(converter().unstructure(event))
    return data


def event_from_dict(data: JSON) -> Event:
    """An event from data written by :func:`event_to_dict`.

    >>> from outofgears.events import TurnEnded
    >>> event_from_dict(event_to_dict(TurnEnded(3, False, "TURN-1")))
    TurnEnded(turn=3, game_over=False, clause='TURN-1')
    """
    body = dict(data)
    kind = body.pop("type", None)
    if kind not in _EVENT_TYPES:
        raise InvalidStateError(f"unknown event type {kind!r}")
    try:
        event: Event = converter().structure(body, _EVENT_TYPES[kind])
    except InvalidStateError:
        raise
    except (cattrs.BaseValidationError, KeyError, TypeError, ValueError) as error:
        raise InvalidStateError(f"not a valid {kind} event: {_describe(error)}") from None
    return event


def choices_to_dict(choices: Choices) -> JSON:
    """Post-reveal choices as JSON-ready data, the way a log's turn writes its ``choices``.

    >>> from outofgears.choices import DefenceSteal
    >>> choices_to_dict(Choices(defence_steals={(2, 1): DefenceSteal("circuit", Gear(1))}))
    {'defence_steals': [{'defender': 2, 'attacker': 1, 'from': 'circuit', 'gear': 'red'}]}
    """
    data: JSON = converter().unstructure(choices, Choices)
    return data


def choices_from_dict(data: JSON) -> Choices:
    """Post-reveal choices from data written by :func:`choices_to_dict`.

    >>> choices_from_dict({"assemblies": {"3": ["yellow", "yellow"]}}).assemblies[3]
    (Gear(3), Gear(3))
    >>> choices_from_dict({"assemblies": {"9": []}})
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: not valid choices: "9" is not a robot number: keys here are '1' to '8' @ $.assemblies.9
    """
    try:
        return converter().structure(data, Choices)
    except InvalidStateError as error:
        raise InvalidStateError(f"not valid choices: {error}") from None


def _describe(error: Exception) -> str:
    if isinstance(error, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(error, format_exception=_format_cause))
    return str(error)


def _format_cause(error: BaseException, kind: type | None) -> str:
    # The model's own validators and the hooks above explain themselves better than cattrs can.
    if isinstance(error, InvalidStateError):
        return str(error)
    return cattrs.v.format_exception(error, kind)
