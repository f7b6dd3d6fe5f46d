"""A turn and its programs (spec TURN-1, PRG-1 to PRG-5, ruling R-PROGRAMS), and the legal ones."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from outofgears import (
    Action,
    ActionResolved,
    AnyProgram,
    Event,
    GameOverError,
    GameState,
    Gear,
    GearMoved,
    IllegalProgramError,
    InvalidStateError,
    Options,
    Outcome,
    OutOfGearsError,
    Place,
    Program,
    TurnEnded,
    UpgradeCard,
    UpgradeProgram,
    apply_turn,
    gears,
    legal_joint_programs,
    legal_programs,
    resolve_turn,
    setup_game,
    setup_two_robot_game,
)
from outofgears.errors import ArgumentTypeError
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


# --- the legal programs of a robot and of a player -------------------------------------------


def listed(laid: tuple[object, ...]) -> list[str]:
    return [str(program) for program in laid]


@pytest.mark.clause("PRG-2", "PRG-4")
def test_a_robot_with_three_rivals_has_twelve_programs() -> None:
    state = setup_game([1, 2, 3, 4], seed=3)
    assert len(legal_programs(state, 2)) == 12
    assert {str(program) for program in legal_programs(state, 2)} == {
        f"{action} {number}" for action in ("attack", "trap", "harvest") for number in (1, 2, 3, 4)
    }


@pytest.mark.clause("PRG-2")
def test_a_robot_lists_its_attacks_then_traps_then_harvests_each_by_number() -> None:
    state = setup_game([2, 5, 7], seed=3)
    assert listed(legal_programs(state, 5)) == [
        "attack 2",
        "attack 5",
        "attack 7",
        "trap 2",
        "trap 5",
        "trap 7",
        "harvest 2",
        "harvest 5",
        "harvest 7",
    ]


@pytest.mark.clause("PRG-2", "ATK-1")
def test_a_robots_own_number_is_among_its_attacks_as_its_defence() -> None:
    state = setup_game([2, 5, 7], seed=3)
    defences = [p for p in legal_programs(state, 7) if p.is_defence_of(7)]
    assert defences == [Program.parse("attack 7")]


@pytest.mark.clause("PRG-4")
@pytest.mark.ruling("R-PROGRAMS")
def test_the_programs_laid_last_turn_are_all_legal_again() -> None:
    state = setup_game([1, 2, 3], seed=3)
    after = apply_turn(state, programs(r1="attack 2", r2="trap 3", r3="harvest 3"))
    assert not after.game_over
    for robot in (1, 2, 3):
        assert legal_programs(after, robot) == legal_programs(state, robot)


@pytest.mark.clause("UPG-2", "UPG-3")
def test_a_player_holding_an_upgrade_card_has_one_more_program_the_card_last() -> None:
    state = position(
        dumps={1: [], 2: [], 3: [], 4: []},
        options=Options(upgrades=True),
        upgrades={"P1": UpgradeCard.SUPER_TRAP},
    )
    laid = legal_programs(state, 1)
    assert len(laid) == 13
    assert laid[-1] == UpgradeProgram(UpgradeCard.SUPER_TRAP)
    assert len(legal_programs(state, 2)) == 12  # P2 holds no card


@pytest.mark.clause("UPG-3")
def test_a_player_who_has_laid_its_upgrade_card_has_only_card_programs_left() -> None:
    state = position(
        dumps={1: [1], 2: [2], 3: [3]},
        reserve=[1, 2, 3],
        options=Options(upgrades=True),
        upgrades={"P1": UpgradeCard.SUPER_SHOVEL},
    )
    assert UpgradeProgram(UpgradeCard.SUPER_SHOVEL) in legal_programs(state, 1)
    laid: dict[int, AnyProgram] = {
        1: UpgradeProgram(UpgradeCard.SUPER_SHOVEL),
        **programs(r2="attack 2", r3="attack 3"),
    }
    after = apply_turn(state, laid)
    assert not after.game_over
    assert all(isinstance(program, Program) for program in legal_programs(after, 1))
    assert len(legal_programs(after, 1)) == 9


@pytest.mark.clause("VAR-2")
def test_partner_may_not_repeat_the_action_card() -> None:
    state = setup_two_robot_game({"Ada": (1, 2), "Bo": (3, 4)}, seed=1)
    # On its own each robot may lay any of the twelve programs, the partner's cards included.
    assert len(legal_programs(state, 1)) == len(legal_programs(state, 2)) == 12
    pairs = legal_joint_programs(state, "Ada")
    assert len(pairs) == 12 * 12 - 3 * 4 * 4  # all pairs but those of one action card twice
    assert (Program.parse("trap 3"), Program.parse("trap 4")) not in pairs
    actions = [
        {program.action for program in pair if isinstance(program, Program)} for pair in pairs
    ]
    assert all(len(used) == 2 for used in actions)


@pytest.mark.clause("VAR-2")
def test_partners_may_name_the_same_number() -> None:
    state = setup_two_robot_game({"Ada": (1, 2), "Bo": (3, 4)}, seed=1)
    pairs = legal_joint_programs(state, "Bo")
    assert (Program.parse("attack 1"), Program.parse("harvest 1")) in pairs
    assert (Program.parse("trap 4"), Program.parse("attack 4")) in pairs  # robot 4 defends


@pytest.mark.clause("VAR-2")
def test_joint_programs_come_in_the_order_of_the_first_robot_then_the_second() -> None:
    state = setup_two_robot_game({"Ada": (1, 2), "Bo": (3, 4)}, seed=1)
    pairs = legal_joint_programs(state, "Ada")
    assert [listed(pair) for pair in pairs[:9]] == [
        ["attack 1", "trap 1"],
        ["attack 1", "trap 2"],
        ["attack 1", "trap 3"],
        ["attack 1", "trap 4"],
        ["attack 1", "harvest 1"],
        ["attack 1", "harvest 2"],
        ["attack 1", "harvest 3"],
        ["attack 1", "harvest 4"],
        ["attack 2", "trap 1"],
    ]
    assert listed(pairs[-1]) == ["harvest 4", "trap 4"]


@pytest.mark.clause("UPG-4", "VAR-2")
def test_only_one_partner_may_lay_the_players_upgrade_card() -> None:
    state = setup_two_robot_game(
        {"Ada": (1, 2), "Bo": (3, 4)}, seed=1, options=Options(upgrades=True)
    )
    card = state.player_of(1).upgrade
    assert card is not None
    upgrade = UpgradeProgram(card)
    assert legal_programs(state, 1)[-1] == legal_programs(state, 2)[-1] == upgrade
    pairs = legal_joint_programs(state, "Ada")
    # 96 pairs of action cards, then the card with any of the partner's twelve programs.
    assert len(pairs) == 96 + 12 + 12
    assert (upgrade, upgrade) not in pairs
    with_card = [pair for pair in pairs if upgrade in pair]
    assert len(with_card) == 24
    assert (upgrade, Program.parse("attack 2")) in pairs  # the partner may even defend


@pytest.mark.clause("PRG-5")
def test_a_finished_game_has_no_legal_programs_to_list() -> None:
    over = finished_game()
    with pytest.raises(GameOverError) as caught:
        legal_programs(over, 1)
    assert caught.value.clause == "PRG-5"


@pytest.mark.clause("PRG-5")
def test_a_finished_two_robot_game_has_no_joint_programs_to_list() -> None:
    state = setup_two_robot_game({"Ada": (1, 2), "Bo": (3, 4)}, seed=1)
    with pytest.raises(GameOverError):
        legal_joint_programs(attrs.evolve(state, game_over=True), "Ada")


@pytest.mark.clause("PRG-1")
def test_a_robot_not_in_play_has_no_legal_programs() -> None:
    state = setup_game([1, 2, 4], seed=3)
    with pytest.raises(
        InvalidStateError, match=r"robot 3 is not in play \(robots in play: 1, 2, 4\)"
    ):
        legal_programs(state, 3)


@pytest.mark.clause("VAR-2")
def test_joint_programs_are_asked_of_a_player_with_two_robots() -> None:
    state = setup_two_robot_game({"Ada": (1, 2), "Bo": (3, 4)}, seed=1)
    with pytest.raises(InvalidStateError, match="player 'Cy' is not in the game"):
        legal_joint_programs(state, "Cy")
    one_robot = setup_game([1, 2, 3], seed=1)
    with pytest.raises(InvalidStateError, match="controls one robot"):
        legal_joint_programs(one_robot, "P1")


@pytest.mark.clause("TURN-1")
def test_the_tables_choices_typed_as_a_dict_are_refused_naming_the_argument() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[1, 2])
    typed: dict[str, dict[str, str]] = {"splits": {}}
    with pytest.raises(ArgumentTypeError) as refused:
        apply_turn(state, programs(r1="harvest 1", r2="harvest 2"), choices=typed)  # type: ignore[arg-type]
    assert (refused.value.argument, refused.value.expected) == ("choices", "a Choices or None")
    assert refused.value.value == typed
    assert str(refused.value) == "choices must be a Choices or None, not {'splits': {}}"
