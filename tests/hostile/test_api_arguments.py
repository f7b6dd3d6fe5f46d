"""Every public constructor and entry point refuses None and wrong types with an
:class:`~outofgears.errors.OutOfGearsError` (issue 14, class 6), generated from
``outofgears.__all__``.

For each callable, a valid call is listed; each of its arguments in turn is replaced by
``None`` and by values of the wrong type. The call must either raise an
``OutOfGearsError`` (which also is the builtin it refines) or, for ``None`` given to an
argument whose documented default is ``None``, succeed. A callable of ``__all__`` missing
from the table fails the test, so a new entry point cannot escape it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

import outofgears
from outofgears import (
    Action,
    Choices,
    GameState,
    Gear,
    Options,
    OutOfGearsError,
    Program,
    UpgradeCard,
    gears,
    setup_game,
    setup_two_robot_game,
)
from outofgears.errors import GameOverError

STATE = setup_game([1, 2, 3], seed=7)
PAIRS = setup_two_robot_game({"Ada": (1, 5), "Bo": (2, 6)}, seed=7)
PROGRAMS = {
    1: Program.parse("harvest 1"),
    2: Program.parse("harvest 2"),
    3: Program.parse("attack 1"),
}

#: Output records built by the engine (events, results, scores) and the enums: they are not
#: entry points for input, and an enum's lookup error is Python's own ValueError.
NOT_ENTRY_POINTS = {
    "Action",
    "ActionResolved",
    "GearKind",
    "GearMoved",
    "Outcome",
    "PlaceKind",
    "PlayerScore",
    "SplitResolved",
    "TurnEnded",
    "TurnResult",
    "UpgradeCard",
    "UpgradeDiscarded",
}

#: A valid call of every other callable of ``__all__``: positional and keyword arguments.
VALID: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "ChoiceSpace": ((STATE, PROGRAMS), {}),
    "Choices": ((), {"defence_steals": {}, "assemblies": {}, "splits": {}}),
    "DefenceSteal": (("feet", Gear(1)), {}),
    "Dump": ((1, gears(1)), {}),
    "GameState": (
        (),
        {
            "robots": STATE.robots,
            "dumps": STATE.dumps,
            "reserve": STATE.reserve,
            "players": STATE.players,
            "turn": 1,
            "options": Options(),
            "game_over": False,
        },
    ),
    "Gear": ((1,), {}),
    "Options": ((), {"upgrades": True, "upgrade_deck": (UpgradeCard.SUPER_TRAP,) * 3}),
    "Place": ((outofgears.PlaceKind.DUMP, 1), {}),
    "Player": (("Ada", (1,)), {"upgrade": None}),
    "Program": ((Action.ATTACK, 1), {}),
    "Robot": ((1, "Ada"), {"feet": gears(1), "circuit": gears(2)}),
    "UpgradeProgram": ((UpgradeCard.SUPER_TRAP,), {}),
    "apply_events": ((STATE, ()), {}),
    "apply_turn": ((STATE, PROGRAMS), {"choices": Choices()}),
    "describe_gears": ((gears(1, 2),), {}),
    "from_position": (
        (),
        {
            "robots": {1: {"feet": gears(1)}, 2: {"circuit": gears(2)}},
            "dumps": {1: gears(3), 2: ()},
            "reserve": gears(4),
            "players": {"Ada": (1,), "Bo": (2,)},
            "turn": 2,
            "options": Options(),
            "upgrades": {},
        },
    ),
    "gears": ((1, 2), {}),
    "legal_choices": ((STATE, PROGRAMS), {}),
    "legal_joint_programs": ((PAIRS, "Ada"), {}),
    "legal_programs": ((STATE, 1), {}),
    "parse_program": (("attack 3",), {}),
    "player_scores": ((STATE,), {}),
    "resolve_turn": ((STATE, PROGRAMS), {"choices": Choices()}),
    "score_robot": ((STATE.robots[0],), {}),
    "setup_game": (([1, 2, 3],), {"seed": 1, "players": ["A", "B", "C"], "options": Options()}),
    "setup_two_robot_game": (({"Ada": (1, 5), "Bo": (2, 6)},), {"seed": 1, "options": Options()}),
    "validate_programs": ((STATE, PROGRAMS), {}),
    "winners": ((STATE,), {}),
}

#: Values of the wrong type for (nearly) any argument.
WRONG: list[Any] = [None, object(), 3.5, "x", b"x", -1, True, [None], {None: None}, {1: None}]


def public_callables() -> list[str]:
    names = []
    for name in outofgears.__all__:
        value = getattr(outofgears, name)
        if not callable(value) or name in NOT_ENTRY_POINTS:
            continue
        if inspect.isclass(value) and issubclass(value, BaseException):
            continue
        names.append(name)
    return names


def test_every_public_callable_has_a_valid_call_listed() -> None:
    assert sorted(public_callables()) == sorted(VALID)


@pytest.mark.parametrize("name", sorted(VALID))
def test_the_valid_call_succeeds(name: str) -> None:
    args, kwargs = VALID[name]
    getattr(outofgears, name)(*args, **kwargs)


def variants() -> list[tuple[str, str, int, int | str]]:
    """(callable, argument, index into WRONG, ...) for every argument of every listed call."""
    cases: list[tuple[str, str, int, int | str]] = []
    for name, (args, kwargs) in sorted(VALID.items()):
        for position in range(len(args)):
            for index in range(len(WRONG)):
                cases.append((name, f"#{position}", index, position))
        for key in kwargs:
            for index in range(len(WRONG)):
                cases.append((name, key, index, key))
    return cases


def default_is_none(function: Callable[..., Any], argument: str) -> bool:
    try:
        parameter = inspect.signature(function).parameters.get(argument)
    except (TypeError, ValueError):
        return False
    return parameter is not None and parameter.default is None


@pytest.mark.parametrize(("name", "argument", "index", "where"), variants())
def test_a_wrong_argument_raises_an_outofgears_error(
    name: str, argument: str, index: int, where: int | str
) -> None:
    function = getattr(outofgears, name)
    valid_args, valid_kwargs = VALID[name]
    args, kwargs = list(valid_args), dict(valid_kwargs)
    value = WRONG[index]
    if isinstance(where, int):
        args[where] = value
    else:
        kwargs[where] = value
    message = ""
    try:
        function(*args, **kwargs)
    except OutOfGearsError as error:
        message = str(error)
    except Exception as error:
        pytest.fail(f"{name}({argument}={value!r}) raised {type(error).__name__}: {error}")
    if message:
        assert len(message.splitlines()) == 1, message
        return
    if value is None and isinstance(where, str) and default_is_none(function, where):
        return  # None is the documented default
    original = VALID[name][0][where] if isinstance(where, int) else VALID[name][1][where]
    if type(value) is type(original):
        return  # a value of the right type, right or refused by value elsewhere
    pytest.fail(f"{name}({argument}={value!r}) was accepted")


def test_game_over_error_survives_copy_and_pickle_with_one_message() -> None:
    import copy
    import pickle

    error = GameOverError(5)
    message = "the game is over; turn 5 cannot be played (PRG-5)"
    assert str(copy.copy(error)) == message
    assert str(pickle.loads(pickle.dumps(error))) == message


def test_negative_seed_is_refused_like_the_log_format_does() -> None:
    with pytest.raises(OutOfGearsError, match="seed"):
        setup_game([1, 2], seed=-5)


def test_game_over_must_be_a_bool() -> None:
    with pytest.raises(OutOfGearsError, match="game_over"):
        GameState(STATE.robots, STATE.dumps, STATE.reserve, STATE.players, game_over="no")  # type: ignore[arg-type]
