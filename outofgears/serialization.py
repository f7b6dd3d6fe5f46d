"""Converting states and events to and from plain JSON-ready data (cattrs).

The converter lives here, apart from the model. It is strict: a value of the
wrong type is refused, never coerced (cattrs would turn ``"3"`` into ``3`` and
``"no"`` into ``True`` by default), and unknown keys are refused.

A standard gear is written as its colour number, the expansions' gears as
``"jolly"`` and ``"three_point"``; places as ``"robot 3 feet"``,
``"robot 3 circuit"``, ``"dump 4"`` or ``"reserve"``.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn

from outofgears.errors import InvalidStateError
from outofgears.events import (
    ActionResolved,
    Event,
    GearMoved,
    Outcome,
    SplitResolved,
    TurnEnded,
    UpgradeDiscarded,
)
from outofgears.gears import JOLLY, THREE_POINT, Gear, GearKind
from outofgears.model import Dump, GameState, Options, Place, PlaceKind, Player, Robot

JSON = dict[str, Any]

_EVENT_TYPES: dict[str, type[Any]] = {
    "gear_moved": GearMoved,
    "action_resolved": ActionResolved,
    "split_resolved": SplitResolved,
    "upgrade_discarded": UpgradeDiscarded,
    "turn_ended": TurnEnded,
}
_EVENT_NAMES = {cls: name for name, cls in _EVENT_TYPES.items()}


def _strict(kind: type[Any]) -> Any:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:
            raise InvalidStateError(f"expected {kind.__name__}, got {value!r}")
        return value

    return structure


def _unstructure_gear(gear: Gear) -> Any:
    if gear.kind is GearKind.STANDARD:
        return gear.colour
    return gear.kind.value


def _structure_gear(value: Any, _: Any) -> Gear:
    if type(value) is int:
        return Gear(value)
    if value == GearKind.JOLLY.value:
        return JOLLY
    if value == GearKind.THREE_POINT.value:
        return THREE_POINT
    raise InvalidStateError(
        f"a gear is a colour number 1-8, 'jolly' or 'three_point', not {value!r}"
    )


def parse_place(text: str) -> Place:
    """A place from its text form.

    >>> parse_place("robot 3 circuit") == Place.circuit(3)
    True
    """
    words = text.split()
    try:
        if words == ["reserve"]:
            return Place.reserve()
        if len(words) == 2 and words[0] == "dump":
            return Place.dump(int(words[1]))
        if len(words) == 3 and words[0] == "robot":
            return Place(PlaceKind(words[2]), int(words[1]))
    except ValueError:
        pass
    raise InvalidStateError(f"not a place: {text!r}")


def _structure_place(value: Any, _: Any) -> Place:
    if not isinstance(value, str):
        raise InvalidStateError(f"a place is a string like 'dump 4', not {value!r}")
    return parse_place(value)


def make_converter() -> cattrs.Converter:
    """A strict converter for every class of the model and of the events.

    >>> make_converter().unstructure(Place.dump(2))
    'dump 2'
    """
    converter = cattrs.Converter(forbid_extra_keys=True)
    for kind in (int, str, bool):
        converter.register_structure_hook(kind, _strict(kind))
    converter.register_unstructure_hook(Gear, _unstructure_gear)
    converter.register_structure_hook(Gear, _structure_gear)
    converter.register_unstructure_hook(Place, str)
    converter.register_structure_hook(Place, _structure_place)
    for cls in (Robot, Dump, Player, Options, GameState, *_EVENT_TYPES.values()):
        converter.register_unstructure_hook(cls, make_dict_unstructure_fn(cls, converter))
        converter.register_structure_hook(
            cls, make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True)
        )
    converter.register_unstructure_hook(Outcome, lambda outcome: outcome.name.lower())
    converter.register_structure_hook(Outcome, lambda value, _: Outcome[str(value).upper()])
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


def state_to_dict(state: GameState) -> JSON:
    """A state as JSON-ready data.

    >>> from outofgears.setup import setup_game
    >>> data = state_to_dict(setup_game([1, 2], seed=1))
    >>> data["turn"], data["dumps"][0]["number"]
    (1, 1)
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


def _describe(error: Exception) -> str:
    if isinstance(error, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(error, format_exception=_format_cause))
    return str(error)


def _format_cause(error: BaseException, kind: type | None) -> str:
    # The model's own validators explain themselves better than cattrs can.
    if isinstance(error, InvalidStateError):
        return str(error)
    return cattrs.v.format_exception(error, kind)
