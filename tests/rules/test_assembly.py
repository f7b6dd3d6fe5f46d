"""Phase 3, assembly (spec ASM-1 to ASM-3, ruling R-ASSEMBLY)."""

from __future__ import annotations

import pytest

from outofgears import (
    Choices,
    GameState,
    Gear,
    GearMoved,
    IllegalChoiceError,
    Options,
    Place,
    apply_turn,
    gears,
    resolve_turn,
)
from outofgears.rules.assembly import choose_assembly_gears
from tests.helpers import everyone_defends, position, programs


def quiet(
    feet: dict[int, list[int]],
    circuit: dict[int, list[int]] | None = None,
    options: Options | None = None,
) -> GameState:
    """Robots 1-3 with these gears, a gear on every dump and an empty reserve.

    Nothing moves in activation when everyone defends, exploration has nothing
    to draw and no dump is empty, so only assembly moves gears and the game goes on.
    """
    return position(
        feet=feet,
        circuit=circuit,
        dumps={1: [1], 2: [2], 3: [3]},
        options=options,
    )


# --- ASM-1: assembly -------------------------------------------------------------------------


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_robot_with_exactly_three_feet_gears_must_assemble_two() -> None:
    state = quiet({2: [3, 4, 5]})
    result = resolve_turn(state, everyone_defends(state))
    assembled = [move for move in result.moves if move.clause == "ASM-1"]
    assert sorted(assembled, key=lambda move: move.gear.colour) == [
        GearMoved(Gear(3), Place.feet(2), Place.circuit(2), 2, "ASM-1"),
        GearMoved(Gear(4), Place.feet(2), Place.circuit(2), 2, "ASM-1"),
    ]
    assert result.state.robot(2).feet == gears(5)
    assert result.state.robot(2).circuit == gears(3, 4)
    assert not result.state.game_over


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_robot_with_two_feet_gears_does_not_assemble() -> None:
    state = quiet({1: [1, 1], 2: [3, 2]})
    result = resolve_turn(state, everyone_defends(state))
    assert [move for move in result.moves if move.clause == "ASM-1"] == []
    assert result.state.robot(1).feet == gears(1, 1)
    assert result.state.robot(1).circuit == ()
    assert result.state.robot(2).feet == gears(2, 3)


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_robot_with_five_feet_gears_still_moves_only_two() -> None:
    state = quiet({3: [3, 3, 3, 3, 3]})
    after = apply_turn(state, everyone_defends(state))
    assert after.robot(3).feet == gears(3, 3, 3)
    assert after.robot(3).circuit == gears(3, 3)


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_circuit_gears_do_not_count_towards_the_three() -> None:
    state = quiet({1: [2, 3]}, circuit={1: [1, 1, 1]})
    after = apply_turn(state, everyone_defends(state))
    assert after.robot(1).feet == gears(2, 3)
    assert after.robot(1).circuit == gears(1, 1, 1)


@pytest.mark.clause("ASM-1", "TURN-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_a_harvest_this_turn_can_bring_a_robot_to_three_and_make_it_assemble() -> None:
    state = position(feet={1: [1, 1]}, dumps={1: [3], 2: [2]}, reserve=[1, 2])
    after = apply_turn(state, programs(r1="harvest 1", r2="attack 2"))
    assert after.robot(1).feet == gears(3)
    assert after.robot(1).circuit == gears(1, 1)


@pytest.mark.clause("ASM-1", "TURN-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_gears_lost_to_an_attack_this_turn_do_not_count() -> None:
    state = position(feet={2: [2, 2, 2]}, dumps={1: [1], 2: [2]}, reserve=[1, 2])
    after = apply_turn(state, programs(r1="attack 2", r2="harvest 1"))
    assert after.robot(2).feet == gears(1)
    assert after.robot(2).circuit == ()
    assert after.robot(1).feet == gears(2)
    assert after.robot(1).circuit == gears(2, 2)


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_chosen_assembly_gears_must_be_at_its_feet() -> None:
    state = quiet({1: [1, 2, 3]}, circuit={1: [4]})
    for picked in (gears(1, 4), gears(3, 3), gears(2, 5)):
        with pytest.raises(IllegalChoiceError) as caught:
            apply_turn(state, everyone_defends(state), choices=Choices(assemblies={1: picked}))
        assert caught.value.robot == 1
        assert caught.value.clause == "ASM-1"


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
@pytest.mark.parametrize("picked", [(1,), (1, 2, 3)])
def test_an_assembly_moves_exactly_two_gears(picked: tuple[int, ...]) -> None:
    state = quiet({1: [1, 2, 3, 3]})
    with pytest.raises(IllegalChoiceError) as caught:
        apply_turn(state, everyone_defends(state), choices=Choices(assemblies={1: gears(*picked)}))
    assert caught.value.robot == 1
    assert caught.value.clause == "ASM-1"


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_a_robot_with_two_feet_gears_cannot_choose_to_assemble_them() -> None:
    state = quiet({3: [3, 3]})
    with pytest.raises(IllegalChoiceError) as caught:
        apply_turn(state, everyone_defends(state), choices=Choices(assemblies={3: gears(3, 3)}))
    assert caught.value.robot == 3
    assert caught.value.clause == "ASM-1"


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_a_robot_robbed_this_turn_cannot_assemble_the_gears_it_had() -> None:
    state = position(feet={2: [2, 2, 2]}, dumps={1: [1], 2: [2]}, reserve=[1, 2])
    with pytest.raises(IllegalChoiceError) as caught:
        apply_turn(
            state,
            programs(r1="attack 2", r2="harvest 2"),
            choices=Choices(assemblies={2: gears(2, 2)}),
        )
    assert caught.value.robot == 2
    assert caught.value.clause == "ASM-1"


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_assembly_may_take_gears_harvested_this_turn() -> None:
    state = position(feet={1: [1]}, dumps={1: [3, 3], 2: [2]}, reserve=[1, 2])
    after = apply_turn(
        state,
        programs(r1="harvest 1", r2="attack 2"),
        choices=Choices(assemblies={1: gears(3, 3)}),
    )
    assert after.robot(1).feet == gears(1)
    assert after.robot(1).circuit == gears(3, 3)


# --- R-ASSEMBLY: mandatory or optional -------------------------------------------------------


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_assembly_is_mandatory_by_default() -> None:
    assert Options().assembly == "mandatory"
    state = quiet({1: [1, 2, 3]})
    with pytest.raises(IllegalChoiceError) as caught:
        apply_turn(state, everyone_defends(state), choices=Choices(assemblies={1: ()}))
    assert caught.value.robot == 1
    assert caught.value.clause == "ASM-1"


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_optional_assembly_may_skip() -> None:
    state = quiet({1: [1, 2, 3], 2: [2, 2, 2]}, options=Options(assembly="optional"))
    result = resolve_turn(state, everyone_defends(state), choices=Choices(assemblies={1: ()}))
    assert result.state.robot(1).feet == gears(1, 2, 3)
    assert result.state.robot(1).circuit == ()
    assert [move.robot for move in result.moves if move.clause == "ASM-1"] == [2, 2]
    assert result.state.robot(2).circuit == gears(2, 2)


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_optional_assembly_still_moves_exactly_two_when_it_assembles() -> None:
    state = quiet({1: [1, 2, 3]}, options=Options(assembly="optional"))
    with pytest.raises(IllegalChoiceError) as caught:
        apply_turn(state, everyone_defends(state), choices=Choices(assemblies={1: gears(1)}))
    assert caught.value.robot == 1
    assert caught.value.clause == "ASM-1"


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY")
def test_a_robot_that_cannot_assemble_may_say_it_assembles_nothing() -> None:
    state = quiet({1: [1, 1]})
    after = apply_turn(state, everyone_defends(state), choices=Choices(assemblies={1: ()}))
    assert after.robot(1).feet == gears(1, 1)
    assert after.robot(1).circuit == ()


# --- ASM-2: the default pick -----------------------------------------------------------------


@pytest.mark.clause("ASM-2")
@pytest.mark.ruling("R-ASSEMBLY")
def test_default_assembly_picks_own_colour_first() -> None:
    # Its own yellow, then the first colour clockwise after it that it holds: blue.
    state = quiet({3: [1, 2, 5, 3]})
    after = apply_turn(state, everyone_defends(state))
    assert after.robot(3).circuit == gears(3, 5)
    assert after.robot(3).feet == gears(1, 2)


@pytest.mark.clause("ASM-2")
@pytest.mark.ruling("R-ASSEMBLY")
def test_default_assembly_takes_two_own_colour_gears_over_any_other() -> None:
    state = quiet({2: [1, 2, 1, 2, 1]})
    after = apply_turn(state, everyone_defends(state))
    assert after.robot(2).circuit == gears(2, 2)
    assert after.robot(2).feet == gears(1, 1, 1)


@pytest.mark.clause("ASM-2")
@pytest.mark.ruling("R-ASSEMBLY")
def test_default_assembly_without_own_colour_takes_the_lowest_colours() -> None:
    state = quiet({1: [8, 6, 7, 3]})
    after = apply_turn(state, everyone_defends(state))
    assert after.robot(1).circuit == gears(3, 6)
    assert after.robot(1).feet == gears(7, 8)


@pytest.mark.clause("ASM-2")
@pytest.mark.ruling("R-ASSEMBLY")
def test_a_chosen_assembly_overrides_the_default() -> None:
    state = quiet({3: [3, 3, 1, 2]})
    after = apply_turn(state, everyone_defends(state), choices=Choices(assemblies={3: gears(2, 1)}))
    assert after.robot(3).circuit == gears(1, 2)
    assert after.robot(3).feet == gears(3, 3)


@pytest.mark.clause("ASM-2")
@pytest.mark.ruling("R-ASSEMBLY")
def test_optional_assembly_without_a_choice_takes_the_default_pick() -> None:
    state = quiet({2: [4, 2, 5]}, options=Options(assembly="optional"))
    after = apply_turn(state, everyone_defends(state))
    assert after.robot(2).circuit == gears(2, 4)
    assert after.robot(2).feet == gears(5)


# --- ASM-3: circuit gears are safe from attacks ----------------------------------------------


@pytest.mark.clause("ASM-3")
def test_an_attack_takes_the_feet_but_never_the_circuit() -> None:
    state = position(feet={2: [2]}, circuit={2: [2, 2, 3]}, dumps={1: [1], 2: [2]}, reserve=[1, 2])
    after = apply_turn(state, programs(r1="attack 2", r2="harvest 1"))
    assert after.robot(1).feet == gears(2)
    assert after.robot(1).circuit == ()
    assert after.robot(2).circuit == gears(2, 2, 3)
    assert after.robot(2).feet == gears(1)


@pytest.mark.clause("ASM-3")
def test_an_attack_on_a_robot_with_only_circuit_gears_takes_nothing() -> None:
    state = position(circuit={2: [2, 2]}, dumps={1: [1], 2: [2]}, reserve=[1, 2])
    result = resolve_turn(state, programs(r1="attack 2", r2="attack 1"))
    assert [move for move in result.moves if move.source == Place.circuit(2)] == []
    assert result.state.robot(2).circuit == gears(2, 2)
    assert result.state.robot(1).feet == ()


@pytest.mark.clause("ASM-3", "ASM-1")
def test_gears_assembled_this_turn_are_safe_from_next_turns_attack() -> None:
    state = position(feet={2: [2, 2, 2]}, dumps={1: [1], 2: [2]}, reserve=[1, 2, 1, 2])
    turn_2 = apply_turn(state, programs(r1="attack 1", r2="attack 2"))
    assert turn_2.robot(2).circuit == gears(2, 2)
    turn_3 = apply_turn(turn_2, programs(r1="attack 2", r2="harvest 2"))
    assert turn_3.robot(1).feet == gears(2)
    assert turn_3.robot(2).circuit == gears(2, 2)


# --- ASM-1: what a refused assembly says (issue 7) -------------------------------------------
# Kill surviving mutants of assembly.assemble_circuits and assembly.assembly_pick: a refused
# assembly says which rule it breaks, with the counts and the gears.


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-ASSEMBLY", "R-CHOICES")
@pytest.mark.parametrize(
    ("feet", "picked", "options", "reason"),
    [
        ([3, 3], [3, 3], Options(), "it has 2 gears at its feet; assembly needs 3"),
        ([1, 2, 3], [], Options(), "assembly is mandatory: it must move 2 gears"),
        ([1, 2, 3], [1], Options(), "it moves exactly 2 gears"),
        ([1, 2, 3], [1, 2, 3], Options(), "it moves exactly 2 gears"),
        ([1, 2, 3], [1], Options(assembly="optional"), "it moves exactly 2 gears"),
        (
            [1, 2, 3],
            [1, 5],
            Options(),
            "it cannot assemble 1 red, 1 blue: its feet hold 1 red, 1 orange, 1 yellow",
        ),
    ],
)
def test_a_refused_assembly_says_which_rule_it_breaks(
    feet: list[int], picked: list[int], options: Options, reason: str
) -> None:
    state = quiet({1: feet}, options=options)
    chosen = Choices(assemblies={1: gears(*picked)})
    with pytest.raises(IllegalChoiceError) as caught:
        apply_turn(state, everyone_defends(state), choices=chosen)
    assert (caught.value.robot, caught.value.reason, caught.value.clause) == (1, reason, "ASM-1")
    assert str(caught.value) == f"robot 1: {reason} (ASM-1)"


@pytest.mark.clause("ASM-1")
@pytest.mark.ruling("R-CHOICES")
def test_assemblies_chosen_for_robots_not_in_play_name_the_lowest_numbered_first() -> None:
    # Robots 9 and 10 do not exist (Choices takes any whole number as a robot); the refusal
    # names robot 9, the lower number.
    state = quiet({1: [1, 2]})
    chosen = Choices(assemblies={10: (), 9: ()})
    with pytest.raises(IllegalChoiceError) as caught:
        apply_turn(state, everyone_defends(state), choices=chosen)
    assert str(caught.value) == "robot 9: this robot is not in play (ASM-1)"


# --- R-SYMMETRY: the ring tie-break ----------------------------------------------------------


@pytest.mark.clause("ASM-2")
@pytest.mark.ruling("R-SYMMETRY", "R-ASSEMBLY")
def test_robot_8_assembling_from_red_orange_and_yellow_picks_red_and_orange() -> None:
    # All worth 1 to robot 8; its ring starts at robot 1, wrapping round from 8.
    assert choose_assembly_gears(8, gears(1, 2, 3)) == gears(1, 2)
    state = position(feet={8: [1, 2, 3]}, dumps={1: [1], 2: [2], 8: [8]})
    after = apply_turn(state, everyone_defends(state))
    assert after.robot(8).circuit == gears(1, 2)
    assert after.robot(8).feet == gears(3)


@pytest.mark.clause("ASM-2")
@pytest.mark.ruling("R-SYMMETRY", "R-ASSEMBLY")
def test_robot_2_assembling_own_colour_then_the_colours_after_it() -> None:
    # Robot 2: its orange first (worth 2); then yellow, the first colour after it, before red,
    # the last of the ring.
    state = quiet({2: [1, 2, 3]})
    after = apply_turn(state, everyone_defends(state))
    assert after.robot(2).circuit == gears(2, 3)
    assert after.robot(2).feet == gears(1)
    # Robot 6 with grey, white and red, none its own: grey and white, then red would follow.
    assert choose_assembly_gears(6, gears(1, 7, 8)) == gears(7, 8)
