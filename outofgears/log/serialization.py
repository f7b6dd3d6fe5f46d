"""The JSON wire format: one cattrs converter for states, events, choices, programs and gears.

Every JSON that outofgears writes or reads -- logs, saved states, events, and the
``--format json`` output of every command -- writes a value of these types the same way,
with the hooks of :func:`make_converter`:

* a gear by its name, as a log names it: ``"red"``, ``"orange"``, ... ``"white"``,
  ``"jolly"``, ``"3-point"`` (:data:`outofgears.rules.gears.GEAR_NAMES`);
* a program as ``"attack 3"``, ``"trap 1"``, ``"harvest 5"`` or an upgrade card's name
  (:data:`outofgears.rules.programs.PROGRAM_TEXTS`);
* a place as ``"robot 3 feet"``, ``"robot 3 circuit"``, ``"dump 4"`` or ``"reserve"``;
* an upgrade card by its name, ``"super trap"``; an outcome in words, ``"attack hit"``;
* a mapping keyed by robot number with the numbers as strings, ``{"3": ...}``;
* post-reveal choices the way a log's turn writes its ``choices``.

The converter is strict: a value of the wrong type is refused, never coerced (cattrs would
turn ``"3"`` into ``3`` and ``"no"`` into ``True`` by default), a text is read only in the
spelling it is written in, and unknown keys are refused. The words themselves are
:mod:`outofgears.log.wire`'s, which the log reader (:mod:`outofgears.log`) builds on too.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Final

import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn

from outofgears.errors import InvalidStateError
from outofgears.log import LOG_CONVERTER, ChoicesRecord, cattrs_failure, json_path
from outofgears.log.wire import JSON, make_wire_converter
from outofgears.rules.choices import Choices
from outofgears.rules.events import (
    ActionResolved,
    Event,
    GearMoved,
    SplitResolved,
    TurnEnded,
    UpgradeDiscarded,
)
from outofgears.rules.model import Dump, GameState, Options, Player, Robot

_EVENT_TYPES: dict[str, type[Any]] = {
    "gear_moved": GearMoved,
    "action_resolved": ActionResolved,
    "split_resolved": SplitResolved,
    "upgrade_discarded": UpgradeDiscarded,
    "turn_ended": TurnEnded,
}
_EVENT_NAMES = {cls: name for name, cls in _EVENT_TYPES.items()}
_MODEL_CLASSES: Final = frozenset({Robot, Dump, Player, Options, GameState, *_EVENT_TYPES.values()})


def _unstructure_choices(choices: Choices) -> JSON:
    # A choice is written as a log's turn writes its choices: the log defines the form.
    data: JSON = LOG_CONVERTER.unstructure(ChoicesRecord.of(choices))
    return data


def _structure_choices(value: Any, _: Any) -> Choices:
    try:
        record: ChoicesRecord = LOG_CONVERTER.structure(value, ChoicesRecord)
    except Exception as error:
        parts, reason = cattrs_failure(error)
        raise InvalidStateError(f"{reason} @ {json_path(parts)}") from None
    return record.to_choices()


def make_converter(*, omit_if_default: bool = False) -> cattrs.Converter:
    """A strict converter with the wire format's hooks, for every class of the model and events.

    ``omit_if_default`` leaves out attributes at their defaults, as a log does.

    >>> from outofgears import Gear, Place
    >>> make_converter().unstructure(Place.dump(2))
    'dump 2'
    >>> make_converter().unstructure([Gear(1), Gear(8)], list[Gear])
    ['red', 'white']
    """
    converter = make_wire_converter(omit_if_default=omit_if_default)
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

    >>> from outofgears.rules.gears import JOLLY, THREE_POINT, Gear
    >>> from outofgears.rules.programs import AnyProgram, Program
    >>> to_json((Gear(2), JOLLY, THREE_POINT))
    ['orange', 'jolly', '3-point']
    >>> to_json({2: Program.parse("trap 1")}, dict[int, AnyProgram])
    {'2': 'trap 1'}
    """
    return converter().unstructure(value, kind)


def state_to_dict(state: GameState) -> JSON:
    """A state as JSON-ready data.

    >>> from outofgears.rules.setup import setup_game
    >>> data = state_to_dict(setup_game([1, 2], seed=1))
    >>> data["turn"], data["dumps"][0]
    (1, {'number': 1, 'gears': ['red', 'orange']})
    """
    data: JSON = converter().unstructure(state)
    return data


def state_from_dict(data: JSON) -> GameState:
    """A state from data written by :func:`state_to_dict`; refuses anything else.

    >>> from outofgears.rules.setup import setup_game
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

    >>> from outofgears import Gear, Place
    >>> from outofgears.rules.events import TurnEnded
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

    >>> from outofgears.rules.events import TurnEnded
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

    >>> from outofgears import Gear
    >>> from outofgears.rules.choices import DefenceSteal
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
