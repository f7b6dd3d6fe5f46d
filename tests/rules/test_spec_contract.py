"""The engine does what its spec says where an outside implementation found it silent or at
odds (issue 26): an empty place's split and events (SPL-5, SPL-6), the cards a hand-entered
position may hold (UPG-1), and which refusal wins when several checks fail (GEN-2)."""

from __future__ import annotations

import pytest

from outofgears import (
    Choices,
    GameState,
    IllegalChoiceError,
    IllegalProgramError,
    InvalidStateError,
    Options,
    Place,
    SplitResolved,
    UpgradeProgram,
    from_position,
    gears,
    resolve_turn,
)
from outofgears.rules.model import UpgradeCard
from outofgears.rules.programs import Program, Programs
from tests.helpers import position, programs

UPGRADES = Options(upgrades=True)

#: Robots 3, 5 and 7; dump 3 is empty; robot 3 harvests it alone.
LONE_HARVEST = position(dumps={3: [], 5: [5, 1], 7: [7]}, reserve=[1, 2, 4])
LONE_PROGRAMS = programs(r3="harvest 3", r5="attack 5", r7="harvest 7")


@pytest.mark.clause("SPL-5", "SPL-6", "GEN-2")
def test_a_split_of_an_empty_dump_giving_its_lone_harvesters_share_to_another_robot_is_refused() -> (
    None
):
    chosen = Choices(splits={Place.dump(3): {7: gears(1)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(LONE_HARVEST, LONE_PROGRAMS, choices=chosen)
    # Robot 7 does not take from dump 3: it is the robot named, not robot 3 (GEN-2).
    assert (caught.value.robot, caught.value.clause) == (7, "SPL-1")


@pytest.mark.clause("SPL-5", "SPL-6")
def test_a_split_of_an_empty_dump_giving_its_lone_harvester_a_gear_is_refused() -> None:
    chosen = Choices(splits={Place.dump(3): {3: gears(1)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(LONE_HARVEST, LONE_PROGRAMS, choices=chosen)
    # Its share of an empty dump is 0 gears (SPL-4).
    assert (caught.value.robot, caught.value.clause) == (3, "SPL-4")


@pytest.mark.clause("SPL-5", "SPL-6")
def test_the_lone_harvester_of_an_empty_dump_may_choose_to_take_nothing() -> None:
    chosen = Choices(splits={Place.dump(3): {3: ()}})
    result = resolve_turn(LONE_HARVEST, LONE_PROGRAMS, choices=chosen)
    assert result.state.robot(3).feet == ()
    assert not [e for e in result.events if isinstance(e, SplitResolved)]


def _empty_dump_split_events(state: GameState, laid: Programs) -> list[SplitResolved]:
    result = resolve_turn(state, laid)
    return [e for e in result.events if isinstance(e, SplitResolved) and e.place == Place.dump(2)]


@pytest.mark.clause("SPL-6", "SHOV-1")
@pytest.mark.ruling("R-SHOVEL")
def test_two_super_shovels_on_an_empty_dump_record_the_split_two_harvesters_would() -> None:
    players = {"A": (1,), "B": (2,), "C": (3,)}
    shovels = position(
        dumps={1: [1], 2: [], 3: [3, 3]},
        players=players,
        options=UPGRADES,
        upgrades={"A": UpgradeCard.SUPER_SHOVEL, "B": UpgradeCard.SUPER_SHOVEL},
    )
    by_shovels = _empty_dump_split_events(
        shovels,
        {
            1: UpgradeProgram(UpgradeCard.SUPER_SHOVEL),
            2: UpgradeProgram(UpgradeCard.SUPER_SHOVEL),
            3: Program.parse("attack 3"),
        },
    )
    harvests = position(dumps={1: [1], 2: [], 3: [3, 3]}, players=players)
    by_harvests = _empty_dump_split_events(
        harvests, programs(r1="harvest 2", r2="harvest 2", r3="attack 3")
    )
    expected = [SplitResolved(Place.dump(2), (1, 2), 0, (), "SPL-4")]
    assert by_shovels == expected
    assert by_harvests == expected


@pytest.mark.clause("SPL-6")
def test_one_super_shovel_on_an_empty_dump_records_no_split() -> None:
    state = position(
        dumps={1: [], 2: [2]},
        options=UPGRADES,
        upgrades={"P1": UpgradeCard.SUPER_SHOVEL},
    )
    result = resolve_turn(
        state, {1: UpgradeProgram(UpgradeCard.SUPER_SHOVEL), 2: Program.parse("attack 2")}
    )
    assert not [e for e in result.events if isinstance(e, SplitResolved)]
    assert result.state.robot(1).feet == gears(2)


@pytest.mark.clause("UPG-1")
def test_three_players_holding_a_super_shovel_when_the_deck_has_two_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="3 players hold super shovel"):
        from_position(
            robots={1: {}, 2: {}, 3: {}},
            dumps={1: (), 2: (), 3: ()},
            reserve=(),
            options=UPGRADES,
            upgrades={f"P{n}": UpgradeCard.SUPER_SHOVEL for n in (1, 2, 3)},
        )


@pytest.mark.clause("UPG-1")
def test_three_players_holding_a_super_shovel_from_a_deck_of_three_is_accepted() -> None:
    deck = Options(upgrades=True, upgrade_deck=(UpgradeCard.SUPER_SHOVEL,) * 3)
    state = from_position(
        robots={1: {}, 2: {}, 3: {}},
        dumps={1: (), 2: (), 3: ()},
        reserve=(),
        options=deck,
        upgrades={f"P{n}": UpgradeCard.SUPER_SHOVEL for n in (1, 2, 3)},
    )
    assert [p.upgrade for p in state.players] == [UpgradeCard.SUPER_SHOVEL] * 3


@pytest.mark.clause("UPG-4", "GEN-2")
@pytest.mark.ruling("R-UPG-VARIANT")
def test_the_second_robot_laying_a_card_its_player_lacks_beside_its_partners_card_gets_upg_4() -> (
    None
):
    state = position(
        dumps={1: [], 2: [], 3: [], 4: []},
        players={"A": (1, 2), "B": (3, 4)},
        options=UPGRADES,
        upgrades={"A": UpgradeCard.SUPER_SHOVEL},
    )
    laid: Programs = {
        1: UpgradeProgram(UpgradeCard.SUPER_SHOVEL),
        2: UpgradeProgram(UpgradeCard.SUPER_ATTACK),  # not held either: UPG-3 too
        3: Program.parse("harvest 1"),
        4: Program.parse("trap 1"),
    }
    with pytest.raises(IllegalProgramError) as caught:
        resolve_turn(state, laid)
    assert (caught.value.robot, caught.value.clause) == (2, "UPG-4")


@pytest.mark.clause("GEN-2", "PRG-1")
def test_a_missing_program_is_named_before_a_target_out_of_play() -> None:
    state = position(dumps={1: [], 2: [], 3: []})
    with pytest.raises(IllegalProgramError) as caught:
        resolve_turn(state, programs(r1="attack 7", r2="harvest 1"))
    assert (caught.value.robot, caught.value.clause) == (3, "PRG-1")
