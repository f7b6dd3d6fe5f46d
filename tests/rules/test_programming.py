"""A turn and its programs (spec TURN-1, PRG-1 to PRG-5, ruling R-PROGRAMS)."""

from __future__ import annotations

from collections import Counter

import pytest

from outofgears import (
    Action,
    ActionResolved,
    Event,
    GameOverError,
    GameState,
    Gear,
    GearMoved,
    IllegalProgramError,
    InvalidStateError,
    Outcome,
    OutOfGearsError,
    Place,
    Program,
    TurnEnded,
    apply_turn,
    gears,
    resolve_turn,
    setup_game,
)
from tests.helpers import position, programs

PHASE_OF_CLAUSE = {
    "ATK-3": "defences",
    "ATK-4": "defences",
    "ATK-6": "attacks",
    "TRP-2": "traps",
    "TRP-3": "traps",
    "HRV-2": "harvests",
    "ASM-1": "assembly",
    "EXP-1": "exploration",
    "TURN-1": "turn end",
    "END-1": "turn end",
}


def phase_of(event: Event) -> str:
    return PHASE_OF_CLAUSE[event.clause]


def six_robot_table() -> GameState:
    """Something happens in every phase when the six robots play ``six_robot_programs``."""
    return position(
        feet={2: [3], 4: [4], 6: [1]},
        dumps={1: [], 2: [], 3: [], 4: [], 5: [5], 6: [6, 6]},
        reserve=[1, 2, 3, 4, 5, 6, 1],
    )


def six_robot_programs() -> dict[int, Program]:
    return programs(
        r1="attack 1",  # defends
        r2="attack 1",  # attacks the defender: voided, loses its yellow gear
        r3="attack 4",  # hits: takes robot 4's green gear
        r4="trap 5",  # springs on robot 5's harvest: takes dump 5
        r5="harvest 5",
        r6="harvest 6",  # takes 2 purple, then holds 3 and assembles 2
    )


def feet(robot: int) -> Place:
    return Place.feet(robot)


# --- TURN-1: a turn and its phases -----------------------------------------------------------


@pytest.mark.clause("TURN-1", "PRG-3")
def test_events_of_a_turn_come_in_phase_order() -> None:
    result = resolve_turn(six_robot_table(), six_robot_programs())
    expected_by_phase: list[tuple[str, list[Event]]] = [
        (
            "defences",
            [
                ActionResolved(1, "attack 1", Outcome.DEFENDED, "ATK-3"),
                ActionResolved(2, "attack 1", Outcome.ATTACK_VOIDED, "ATK-3"),
                GearMoved(Gear(3), feet(2), feet(1), 1, "ATK-4"),
            ],
        ),
        (
            "attacks",
            [
                ActionResolved(3, "attack 4", Outcome.ATTACK_HIT, "ATK-6"),
                GearMoved(Gear(4), feet(4), feet(3), 3, "ATK-6"),
            ],
        ),
        (
            "traps",
            [
                ActionResolved(5, "harvest 5", Outcome.HARVEST_VOIDED, "TRP-2"),
                ActionResolved(4, "trap 5", Outcome.TRAP_SPRUNG, "TRP-3"),
                GearMoved(Gear(5), Place.dump(5), feet(4), 4, "TRP-3"),
            ],
        ),
        (
            "harvests",
            [
                ActionResolved(6, "harvest 6", Outcome.HARVEST_DONE, "HRV-2"),
                GearMoved(Gear(6), Place.dump(6), feet(6), 6, "HRV-2"),
                GearMoved(Gear(6), Place.dump(6), feet(6), 6, "HRV-2"),
            ],
        ),
        (
            "assembly",
            [
                GearMoved(Gear(6), feet(6), Place.circuit(6), 6, "ASM-1"),
                GearMoved(Gear(6), feet(6), Place.circuit(6), 6, "ASM-1"),
            ],
        ),
        (
            "exploration",
            [
                GearMoved(Gear(n), Place.reserve(), Place.dump(n), None, "EXP-1")
                for n in range(1, 7)
            ],
        ),
        ("turn end", [TurnEnded(1, False, "TURN-1")]),
    ]
    phases = [phase_of(event) for event in result.events]
    assert phases == [name for name, events in expected_by_phase for _ in events]
    for name, events in expected_by_phase:
        got = [event for event in result.events if phase_of(event) == name]
        assert Counter(got) == Counter(events), name


@pytest.mark.clause("TURN-1")
def test_after_a_turn_every_gear_is_where_the_phases_put_it() -> None:
    after = apply_turn(six_robot_table(), six_robot_programs())
    assert [(robot.number, robot.feet, robot.circuit) for robot in after.robots] == [
        (1, gears(3), ()),
        (2, (), ()),
        (3, gears(4), ()),
        (4, gears(5), ()),
        (5, (), ()),
        (6, gears(1), gears(6, 6)),
    ]
    assert [dump.gears for dump in after.dumps] == [gears(n) for n in range(1, 7)]
    assert after.reserve == (Gear(1),)


@pytest.mark.clause("TURN-1")
def test_turn_counter_advances() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[1, 2, 1, 2], turn=4)
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 2"))
    assert result.events[-1] == TurnEnded(4, False, "TURN-1")
    assert result.state.turn == 5
    assert apply_turn(result.state, programs(r1="attack 1", r2="attack 2")).turn == 6


@pytest.mark.clause("TURN-1")
def test_attacks_resolve_before_harvests_so_the_victim_keeps_its_harvest() -> None:
    state = position(feet={2: [2]}, dumps={1: [1], 2: [3, 3]}, reserve=[1, 2])
    after = apply_turn(state, programs(r1="attack 2", r2="harvest 2"))
    assert after.robot(1).feet == gears(2)
    assert after.robot(2).feet == gears(3, 3)


@pytest.mark.clause("TURN-1", "EXP-1")
def test_a_harvest_of_an_empty_dump_gets_nothing_though_exploration_refills_it() -> None:
    state = position(dumps={1: [], 2: [2]}, reserve=[1, 2])
    after = apply_turn(state, programs(r1="harvest 1", r2="attack 2"))
    assert after.robot(1).feet == ()
    assert after.dump(1).gears == gears(1)
    assert after.dump(2).gears == gears(2, 2)


# --- PRG-1: one program per robot ------------------------------------------------------------


@pytest.mark.clause("PRG-1")
@pytest.mark.ruling("R-PROGRAMS")
def test_a_robot_without_a_program_stops_the_turn() -> None:
    state = position(dumps={1: [1], 2: [2], 3: [3]}, reserve=[1, 2, 3])
    with pytest.raises(IllegalProgramError) as caught:
        apply_turn(state, programs(r1="harvest 1", r2="harvest 2"))
    assert caught.value.robot == 3
    assert caught.value.clause == "PRG-1"


@pytest.mark.clause("PRG-1")
@pytest.mark.ruling("R-PROGRAMS")
def test_a_program_for_a_robot_not_in_play_is_refused() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[1, 2])
    with pytest.raises(IllegalProgramError) as caught:
        apply_turn(state, programs(r1="harvest 1", r2="harvest 2", r5="harvest 1"))
    assert caught.value.robot == 5
    assert caught.value.clause == "PRG-1"


@pytest.mark.clause("PRG-1")
@pytest.mark.ruling("R-PROGRAMS")
def test_a_turn_without_any_program_is_refused() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[1, 2])
    with pytest.raises(IllegalProgramError) as caught:
        apply_turn(state, {})
    assert caught.value.robot == 1
    assert caught.value.clause == "PRG-1"


@pytest.mark.clause("PRG-1")
@pytest.mark.ruling("R-PROGRAMS")
def test_a_program_is_one_action_card_and_one_number_card() -> None:
    assert Program.parse("trap 3") == Program(Action.TRAP, 3)
    for text in ("trap", "trap 3 4", "harvest attack", "3 trap"):
        with pytest.raises(InvalidStateError):
            Program.parse(text)


@pytest.mark.clause("PRG-1")
def test_an_illegal_program_is_a_value_error_of_the_package() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[1, 2])
    with pytest.raises(IllegalProgramError) as caught:
        apply_turn(state, programs(r1="harvest 1"))
    assert isinstance(caught.value, OutOfGearsError)
    assert isinstance(caught.value, ValueError)
    assert caught.value.robot == 2


# --- PRG-2: the number names something in play -----------------------------------------------


@pytest.mark.clause("PRG-2", "SET-2")
def test_harvest_of_a_dump_not_in_play_is_illegal() -> None:
    state = setup_game([1, 2, 4], seed=3)
    with pytest.raises(IllegalProgramError) as caught:
        apply_turn(state, programs(r1="harvest 1", r2="harvest 3", r4="harvest 4"))
    assert caught.value.robot == 2
    assert caught.value.clause == "PRG-2"


@pytest.mark.clause("PRG-2", "SET-2")
def test_trap_on_a_dump_not_in_play_is_illegal() -> None:
    state = setup_game([1, 2, 4], seed=3)
    with pytest.raises(IllegalProgramError) as caught:
        apply_turn(state, programs(r1="harvest 1", r2="harvest 2", r4="trap 8"))
    assert caught.value.robot == 4
    assert caught.value.clause == "PRG-2"


@pytest.mark.clause("PRG-2")
def test_attack_on_a_robot_not_in_play_is_illegal() -> None:
    state = setup_game([1, 2, 4], seed=3)
    with pytest.raises(IllegalProgramError) as caught:
        apply_turn(state, programs(r1="attack 3", r2="harvest 2", r4="harvest 4"))
    assert caught.value.robot == 1
    assert caught.value.clause == "PRG-2"


@pytest.mark.clause("PRG-2")
@pytest.mark.parametrize("number", [0, 9])
def test_there_is_no_number_card_outside_one_to_eight(number: int) -> None:
    with pytest.raises(InvalidStateError):
        Program(Action.HARVEST, number)


@pytest.mark.clause("PRG-2")
def test_every_number_in_play_may_be_named_with_every_action() -> None:
    state = setup_game([3, 6], seed=3)
    for action in ("attack", "trap", "harvest"):
        for target in (3, 6):
            legal = programs(r3=f"{action} {target}", r6="harvest 6")
            assert apply_turn(state, legal).turn == 2


# --- PRG-3: programs are simultaneous --------------------------------------------------------


@pytest.mark.clause("PRG-3")
def test_the_order_programs_are_given_in_changes_nothing() -> None:
    state = six_robot_table()
    forward = six_robot_programs()
    backward = dict(reversed(list(forward.items())))
    assert list(backward) == [6, 5, 4, 3, 2, 1]
    first = resolve_turn(state, forward)
    second = resolve_turn(state, backward)
    assert first.state == second.state
    assert first.events == second.events


@pytest.mark.clause("PRG-3")
def test_two_harvesters_of_one_dump_share_whoever_is_written_first() -> None:
    state = position(dumps={1: [1, 2], 2: [2]}, reserve=[1, 2])
    for order in (("r1", "r2"), ("r2", "r1")):
        laid = dict.fromkeys(order, "harvest 1")
        after = apply_turn(state, programs(**laid))
        assert after.robot(1).feet == gears(1)
        assert after.robot(2).feet == gears(2)


@pytest.mark.clause("PRG-3")
def test_robots_attacking_each_other_both_hit_the_other_as_it_stood() -> None:
    state = position(feet={1: [1], 2: [2, 2]}, dumps={1: [1], 2: [2]}, reserve=[1, 2])
    after = apply_turn(state, programs(r2="attack 1", r1="attack 2"))
    assert after.robot(1).feet == gears(2, 2)
    assert after.robot(2).feet == gears(1)


# --- PRG-4: cards return to the hand ---------------------------------------------------------


@pytest.mark.clause("PRG-4")
@pytest.mark.ruling("R-PROGRAMS")
def test_the_same_program_is_legal_turn_after_turn() -> None:
    state = position(dumps={1: [1, 1], 2: [2, 2]}, reserve=[1, 2, 1, 2])
    same = programs(r1="harvest 1", r2="harvest 2")
    turn_2 = apply_turn(state, same)
    assert turn_2.robot(1).feet == gears(1, 1)
    turn_3 = apply_turn(turn_2, same)
    assert turn_3.robot(1).feet == gears(1)
    assert turn_3.robot(1).circuit == gears(1, 1)
    turn_4 = apply_turn(turn_3, same)
    assert turn_4.robot(1).feet == gears(1, 1)
    assert turn_4.robot(1).circuit == gears(1, 1)
    assert turn_4.robot(2).feet == gears(2, 2)
    assert turn_4.robot(2).circuit == gears(2, 2)
    assert turn_4.turn == 4


@pytest.mark.clause("PRG-4")
@pytest.mark.ruling("R-PROGRAMS")
def test_an_attack_card_is_back_in_hand_to_attack_again_next_turn() -> None:
    state = position(feet={2: [2]}, dumps={1: [1], 2: [3]}, reserve=[1, 2, 1, 2])
    turn_2 = apply_turn(state, programs(r1="attack 2", r2="harvest 2"))
    assert turn_2.robot(1).feet == gears(2)
    assert turn_2.robot(2).feet == gears(3)
    turn_3 = apply_turn(turn_2, programs(r1="attack 2", r2="harvest 1"))
    assert turn_3.robot(1).feet == gears(2, 3)
    assert turn_3.robot(2).feet == gears(1, 1)


@pytest.mark.clause("PRG-4")
@pytest.mark.ruling("R-PROGRAMS")
def test_a_number_card_is_back_in_hand_after_a_voided_attack() -> None:
    state = position(feet={2: [1, 2]}, dumps={1: [1], 2: [2]}, reserve=[1, 2, 1, 2])
    turn_2 = apply_turn(state, programs(r1="attack 2", r2="attack 2"))
    assert turn_2.robot(1).feet == ()
    turn_3 = apply_turn(turn_2, programs(r1="attack 2", r2="harvest 2"))
    assert turn_3.robot(1).feet == gears(1, 2)


# --- PRG-5: no turn after the end ------------------------------------------------------------


def finished_game() -> GameState:
    state = position(dumps={1: [1], 2: [2, 2]}, reserve=[])
    after = apply_turn(state, programs(r1="harvest 1", r2="attack 2"))
    assert after.game_over
    return after


@pytest.mark.clause("PRG-5")
def test_no_turn_after_the_game_is_over() -> None:
    over = finished_game()
    with pytest.raises(GameOverError) as caught:
        apply_turn(over, programs(r1="harvest 2", r2="attack 2"))
    assert caught.value.turn == 2
    assert caught.value.clause == "PRG-5"


@pytest.mark.clause("PRG-5")
def test_a_finished_game_refuses_even_a_resolve_with_illegal_programs() -> None:
    over = finished_game()
    with pytest.raises(GameOverError) as caught:
        resolve_turn(over, {})
    assert caught.value.turn == 2
    assert isinstance(caught.value, OutOfGearsError)


@pytest.mark.clause("PRG-5", "END-1")
def test_a_game_whose_reserve_ran_dry_with_every_dump_stocked_goes_on() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[1, 2])
    turn_2 = apply_turn(state, programs(r1="attack 1", r2="attack 2"))
    assert turn_2.reserve == ()
    assert not turn_2.game_over
    turn_3 = apply_turn(turn_2, programs(r1="harvest 1", r2="attack 2"))
    assert turn_3.robot(1).feet == gears(1, 1)
    assert turn_3.game_over
