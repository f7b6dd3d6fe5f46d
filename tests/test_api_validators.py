"""The library refuses malformed objects built by hand, with a precise message (issue 7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from outofgears import (
    Action,
    Choices,
    DefenceSteal,
    GameState,
    Gear,
    OutOfGearsError,
    Place,
    Program,
    apply_turn,
    legal_choices,
    legal_programs,
    resolve_turn,
    setup_game,
)
from outofgears.errors import InvalidStateError
from outofgears.rules.model import Dump, Player, Robot, altered_state

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


def _altered_states() -> list[tuple[str, GameState]]:
    """A state with one field of it, of a robot, a dump or a player set to None by
    ``object.__setattr__``, which goes round the freezing."""
    base = setup_game([1, 2, 3], seed=7)
    altered = []
    for field in attrs.fields(GameState):
        state = attrs.evolve(base)
        object.__setattr__(state, field.name, None)
        altered.append((f"state.{field.name}", state))
    for holder in ("robots", "dumps", "players"):
        first = getattr(base, holder)[0]
        for field in attrs.fields(type(first)):
            one = attrs.evolve(first)
            object.__setattr__(one, field.name, None)
            state = attrs.evolve(base)
            object.__setattr__(state, holder, (one, *getattr(base, holder)[1:]))
            altered.append((f"{holder}[0].{field.name}", state))
    return altered


ALTERED = _altered_states()
#: The fields set to None that no turn reads in a way that fails (docs/reliability.md lists
#: them): the engine does not check a built state again on every turn.
READ_WITHOUT_FAILING = {
    "state.game_over",
    "robots[0].player",
    "robots[0].circuit",
    "players[0].name",
    "players[0].robots",
    "players[0].upgrade",
}


@pytest.mark.parametrize(("what", "state"), ALTERED, ids=[what for what, _ in ALTERED])
def test_a_state_altered_after_it_was_built_fails_with_a_typed_error(
    what: str, state: GameState
) -> None:
    laid = {
        1: Program.parse("harvest 1"),
        2: Program.parse("harvest 2"),
        3: Program.parse("attack 1"),
    }
    for entry in (
        lambda: apply_turn(state, laid),
        lambda: resolve_turn(state, laid),
        lambda: legal_programs(state, 1),
        lambda: legal_choices(state, laid).count(),
    ):
        message = ""
        try:
            entry()
        except OutOfGearsError as error:
            message = str(error)
        except Exception as error:
            pytest.fail(f"{what} = None: {type(error).__name__}: {error}")
        assert len(message.splitlines()) <= 1
    if what not in READ_WITHOUT_FAILING:
        with pytest.raises(OutOfGearsError):
            apply_turn(state, laid)
    assert altered_state(state) is not None or what in NOT_ALTERED, what


#: Fields whose None the constructors accept: the state is not altered.
NOT_ALTERED = {"players[0].upgrade"}
