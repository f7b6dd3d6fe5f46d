"""The library refuses malformed objects built by hand, with a precise message (issue 7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from outofgears import Action, Choices, DefenceSteal, Gear, Place, Program
from outofgears.errors import InvalidStateError
from outofgears.rules.model import Dump, Player, Robot

#: Calls taking Any, so that the wrong types reach the validators.
make: Any = {
    "Robot": Robot,
    "Dump": Dump,
    "Player": Player,
    "Program": Program,
    "Choices": Choices,
    "DefenceSteal": DefenceSteal,
}

CASES: list[tuple[Callable[[], object], str]] = [
    (lambda: make["Robot"](9, "P"), "robot and dump numbers are 1-8, not 9"),
    (lambda: make["Robot"]("1", "P"), "robot and dump numbers are 1-8, not '1'"),
    (lambda: make["Robot"](1, "P", feet=[1]), "expected a Gear, got 1"),
    (lambda: make["Robot"](1, 5), "a player's name is a string, not 5"),
    (lambda: make["Dump"](1, ["red"]), "expected a Gear, got 'red'"),
    (lambda: make["Player"](3, (1,)), "a player's name is a string, not 3"),
    (lambda: make["Player"]("A", (9,)), "robot and dump numbers are 1-8, not 9"),
    (lambda: make["Player"]("A", (True,)), "robot and dump numbers are 1-8, not True"),
    (lambda: make["Program"]("attack", 3), "the action card is an Action, not 'attack'"),
    (lambda: make["Program"](Action.ATTACK, "3"), "a number card shows 1-8, not '3'"),
    (
        lambda: make["Choices"](defence_steals={(1, 2): "red"}),
        "defence steal (1, 2) is a DefenceSteal, not 'red'",
    ),
    (
        lambda: make["Choices"](defence_steals={1: DefenceSteal("feet", Gear(1))}),
        "a defence steal is keyed by (defender, attacker), not 1",
    ),
    (
        lambda: make["Choices"](defence_steals={("1", 2): DefenceSteal("feet", Gear(1))}),
        "the defender is a robot number, not '1'",
    ),
    (lambda: make["Choices"](assemblies={1: "ab"}), "robot 1's assembly is a sequence of gears"),
    (lambda: make["Choices"](assemblies={1: (1, 2)}), "robot 1's assembly holds gears, not 1"),
    (lambda: make["Choices"](assemblies=[1]), "assemblies is a mapping, not [1]"),
    (lambda: make["Choices"](splits={1: 2}), "a split is keyed by a Place, not 1"),
    (
        lambda: make["Choices"](splits={Place.dump(1): 2}),
        "the split of dump 1 is a mapping, not 2",
    ),
    (
        lambda: make["Choices"](splits={Place.dump(1): {"2": ()}}),
        "a taker is a robot number, not '2'",
    ),
    (lambda: make["DefenceSteal"]("hand", Gear(1)), "'feet' or 'circuit', not 'hand'"),
    (lambda: make["DefenceSteal"]("feet", 3), "a defence steal takes a Gear, not 3"),
]


@pytest.mark.parametrize(("build", "message"), CASES)
def test_a_malformed_object_is_refused_with_a_precise_message(
    build: Callable[[], object], message: str
) -> None:
    with pytest.raises(InvalidStateError) as refused:
        build()
    assert message in str(refused.value)


def test_well_formed_choices_are_still_accepted() -> None:
    choices = Choices(
        defence_steals={(1, 2): DefenceSteal("circuit", Gear(2))},
        assemblies={3: [Gear(3), Gear(1)]},
        splits={Place.dump(4): {1: (Gear(4),), 2: ()}},
    )
    assert choices.assemblies[3] == (Gear(1), Gear(3))
