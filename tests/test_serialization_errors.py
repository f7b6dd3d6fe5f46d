"""Loading a saved state refuses what the model refuses, and says why and where."""

from __future__ import annotations

import pytest

from outofgears import InvalidStateError, setup_game
from outofgears.log.serialization import event_from_dict, state_from_dict, state_to_dict


def saved() -> dict[str, object]:
    return state_to_dict(setup_game([1, 2], seed=1))


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("turn",), "2", 'expected an integer, got "2" @ $.turn'),
        (("turn",), True, "expected an integer, got true @ $.turn"),
        (("game_over",), "no", 'expected true or false, got "no" @ $.game_over'),
        (("dumps", 0, "gears"), ["bogus"], '"bogus" is not a gear: a gear is one of red, orange'),
        (("dumps", 0, "gears"), ["bogus"], "@ $.dumps[0].gears[0]"),
        (("dumps", 0, "gears"), ["jolly"], "the position holds jolly gears, but that expansion"),
        (("dumps", 0, "gears"), ["red"] * 12, "holds 22 red gears; the box has 11"),
        # Gears are written by name in saved states too; the numbers of earlier versions are
        # refused with the name to write instead.
        (("dumps", 0, "gears"), [1], 'a gear is a name like "red", not 1 (colour 1 is "red")'),
        (("dumps", 0, "gears"), ["three_point"], '"three_point" is not a gear'),
        (("dumps", 0, "gears"), ["Red"], '"Red" is not a gear'),
        (("options", "assembly"), "maybe", "$.options.assembly"),
        (("players", 0, "upgrade"), "super trap", "upgrades are not in play"),
    ],
)
def test_a_bad_saved_state_is_refused_with_the_reason_and_the_path(
    path: tuple[str | int, ...], value: object, message: str
) -> None:
    data = saved()
    target: object = data
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = value  # type: ignore[index]
    with pytest.raises(InvalidStateError) as caught:
        state_from_dict(data)
    assert message in str(caught.value)


def test_an_unknown_key_in_a_saved_state_is_refused() -> None:
    data = saved()
    data["colour"] = "red"
    with pytest.raises(InvalidStateError, match="extra fields found"):
        state_from_dict(data)


def test_an_unknown_event_type_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="unknown event type 'teleport'"):
        event_from_dict({"type": "teleport"})
