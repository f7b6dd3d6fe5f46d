"""The two-robot variant for 2-4 players (spec VAR-1 to VAR-4, ruling R-TWO-ROBOTS)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from outofgears import (
    ActionResolved,
    GameState,
    IllegalProgramError,
    InvalidStateError,
    Options,
    Outcome,
    Player,
    PlayerScore,
    SetupError,
    apply_turn,
    from_position,
    gears,
    player_scores,
    resolve_turn,
    score_robot,
    setup_game,
    setup_two_robot_game,
    winners,
)
from outofgears.errors import ArgumentTypeError
from outofgears.rules.setup import seat_players, setup_seated_game
from tests.helpers import position, programs

ADA_AND_BO = {"Ada": (1, 2), "Bo": (3, 4)}


def four_robot_table(
    feet: dict[int, list[int]] | None = None,
    dumps: dict[int, list[int]] | None = None,
) -> GameState:
    """Ada controls robots 1 and 2, Bo robots 3 and 4; a gear per dump, four in reserve."""
    return position(
        feet=feet,
        dumps=dumps or {1: [1], 2: [2], 3: [3], 4: [4]},
        reserve=[1, 2, 3, 4],
        players=ADA_AND_BO,
    )


def circuits(**by_robot: list[int]) -> GameState:
    """Ada (robots 1, 2) and Bo (robots 3, 4) with these gears in their circuits."""
    return position(
        circuit={int(name.lstrip("r")): held for name, held in by_robot.items()},
        dumps={1: [], 2: [], 3: [], 4: []},
        players=ADA_AND_BO,
    )


# --- VAR-1: two robots per player ------------------------------------------------------------


@pytest.mark.clause("VAR-1")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_two_robot_game_gives_each_player_both_robots() -> None:
    state = setup_two_robot_game({"Ada": (5, 1), "Bo": (2, 6)}, seed=7)
    assert state.is_two_robot_variant
    assert state.players == (Player("Ada", (1, 5)), Player("Bo", (2, 6)))
    assert [(robot.number, robot.player) for robot in state.robots] == [
        (1, "Ada"),
        (2, "Bo"),
        (5, "Ada"),
        (6, "Bo"),
    ]
    assert [dump.number for dump in state.dumps] == [1, 2, 5, 6]
    assert [len(dump.gears) for dump in state.dumps] == [2, 2, 2, 2]
    assert len(state.reserve) == 4 * 11 - 4 * 2


@pytest.mark.clause("VAR-1")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_four_players_with_two_robots_each_fill_the_octagon() -> None:
    state = setup_two_robot_game({"Ada": (1, 8), "Bo": (2, 7), "Cy": (3, 6), "Di": (4, 5)}, seed=70)
    assert state.robot_numbers == (1, 2, 3, 4, 5, 6, 7, 8)
    assert state.player_of(8).name == "Ada"
    assert len(state.reserve) == 88 - 16


@pytest.mark.clause("VAR-1")
@pytest.mark.ruling("R-TWO-ROBOTS")
@pytest.mark.parametrize(
    "players",
    [
        {"Ada": (1, 2)},
        {"Ada": (1, 2), "Bo": (3, 4), "Cy": (5, 6), "Di": (7, 8), "Ed": (1, 3)},
    ],
)
def test_variant_is_for_two_to_four_players(players: dict[str, tuple[int, ...]]) -> None:
    with pytest.raises(SetupError) as caught:
        setup_two_robot_game(players, seed=1)
    assert caught.value.clause == "VAR-1"


@pytest.mark.clause("VAR-1")
@pytest.mark.ruling("R-TWO-ROBOTS")
@pytest.mark.parametrize("pair", [(3,), (3, 4, 5), ()])
def test_every_player_of_the_variant_controls_exactly_two_robots(pair: Sequence[int]) -> None:
    with pytest.raises(SetupError) as caught:
        setup_two_robot_game({"Ada": (1, 2), "Bo": pair}, seed=1)
    assert caught.value.clause == "VAR-1"


@pytest.mark.clause("VAR-1", "SET-1")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_two_players_cannot_both_take_the_same_robot() -> None:
    with pytest.raises(SetupError) as caught:
        setup_two_robot_game({"Ada": (1, 2), "Bo": (2, 3)}, seed=1)
    assert caught.value.clause == "SET-1"


@pytest.mark.clause("VAR-1", "SET-1")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_a_player_cannot_take_one_robot_twice() -> None:
    with pytest.raises(SetupError) as caught:
        setup_two_robot_game({"Ada": (1, 1), "Bo": (2, 3)}, seed=1)
    assert caught.value.clause == "SET-1"


@pytest.mark.clause("VAR-1", "SET-5")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_a_position_mixing_one_robot_and_two_robot_players_is_refused() -> None:
    with pytest.raises(InvalidStateError):
        from_position(
            robots={1: {}, 2: {}, 3: {}},
            dumps={1: (), 2: (), 3: ()},
            reserve=gears(1),
            players={"Ada": (1, 2), "Bo": (3,)},
        )


@pytest.mark.clause("VAR-1", "SET-5")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_a_lone_player_with_two_robots_is_not_a_game() -> None:
    with pytest.raises(InvalidStateError):
        from_position(
            robots={1: {}, 2: {}},
            dumps={1: (), 2: ()},
            reserve=gears(1),
            players={"Ada": (1, 2)},
        )


# --- VAR-2: one trio of action cards for both robots -----------------------------------------


@pytest.mark.clause("VAR-2")
@pytest.mark.ruling("R-TWO-ROBOTS")
@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("harvest 1", "harvest 2"),
        ("trap 2", "trap 6"),
        ("attack 2", "attack 6"),
        ("harvest 5", "harvest 5"),
    ],
)
def test_two_partners_with_the_same_action_card_are_refused(first: str, second: str) -> None:
    state = setup_two_robot_game({"Ada": (1, 5), "Bo": (2, 6)}, seed=7)
    with pytest.raises(IllegalProgramError) as caught:
        apply_turn(state, programs(r1=first, r5=second, r2="harvest 6", r6="trap 1"))
    assert caught.value.robot == 5
    assert caught.value.clause == "VAR-2"


@pytest.mark.clause("VAR-2", "ATK-1")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_a_robot_cannot_defend_while_its_partner_attacks_both_need_the_attack_card() -> None:
    state = four_robot_table()
    with pytest.raises(IllegalProgramError) as caught:
        apply_turn(state, programs(r1="attack 3", r2="attack 2", r3="harvest 3", r4="trap 1"))
    assert caught.value.robot == 2
    assert caught.value.clause == "VAR-2"


@pytest.mark.clause("VAR-2", "VAR-4")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_partners_may_name_the_same_number() -> None:
    state = four_robot_table(feet={3: [1]}, dumps={1: [1], 2: [2], 3: [3, 4], 4: [4]})
    after = apply_turn(state, programs(r1="harvest 3", r2="attack 3", r3="harvest 4", r4="trap 1"))
    assert after.robot(1).feet == gears(3, 4)
    assert after.robot(2).feet == gears(1)
    assert after.robot(3).feet == gears(4)
    assert after.robot(4).feet == ()


@pytest.mark.clause("VAR-2")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_robots_of_different_players_may_lay_the_same_action_card() -> None:
    state = four_robot_table()
    after = apply_turn(state, programs(r1="harvest 1", r2="trap 4", r3="harvest 3", r4="trap 2"))
    assert after.robot(1).feet == gears(1)
    assert after.robot(3).feet == gears(3)


@pytest.mark.clause("VAR-2")
def test_in_the_base_game_every_robot_has_its_own_trio() -> None:
    state = setup_game([1, 2, 3], seed=4)
    after = apply_turn(state, programs(r1="harvest 1", r2="harvest 2", r3="harvest 3"))
    assert after.turn == 2


@pytest.mark.clause("VAR-2", "PRG-4")
@pytest.mark.ruling("R-TWO-ROBOTS", "R-PROGRAMS")
def test_the_harvest_card_one_partner_used_is_back_for_the_other_next_turn() -> None:
    state = four_robot_table(dumps={1: [1], 2: [2], 3: [3], 4: [4]})
    turn_2 = apply_turn(state, programs(r1="harvest 1", r2="trap 3", r3="trap 4", r4="attack 4"))
    assert turn_2.robot(1).feet == gears(1)
    turn_3 = apply_turn(turn_2, programs(r1="trap 3", r2="harvest 2", r3="trap 4", r4="attack 4"))
    assert turn_3.robot(2).feet == gears(2, 2)
    assert turn_3.turn == 3


# --- VAR-3: a player scores its lower robot --------------------------------------------------


@pytest.mark.clause("VAR-3", "END-2")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_two_robot_player_scores_its_lower_robot() -> None:
    state = circuits(r1=[1, 1, 1], r2=[2, 1], r3=[3, 3], r4=[4, 4, 4])
    assert [score_robot(robot) for robot in state.robots] == [6, 3, 4, 6]
    assert player_scores(state) == (
        PlayerScore("Bo", 4, 2, 3),
        PlayerScore("Ada", 3, 1, 2),
    )
    assert winners(state) == ("Bo",)


@pytest.mark.clause("VAR-3", "END-3")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_tie_break_uses_the_own_colour_gears_of_the_robot_that_scores() -> None:
    # Ada: robot 1 scores 6 (3 red), robot 2 scores 5 (2 orange) -> 5 points, 2 own colour.
    # Bo: robot 3 scores 5 (1 yellow), robot 4 scores 8 (4 green) -> 5 points, 1 own colour.
    state = circuits(r1=[1, 1, 1], r2=[2, 2, 3], r3=[3, 1, 1, 1], r4=[4, 4, 4, 4])
    assert player_scores(state) == (
        PlayerScore("Ada", 5, 2, 2),
        PlayerScore("Bo", 5, 1, 3),
    )
    assert winners(state) == ("Ada",)


@pytest.mark.clause("VAR-3", "END-3")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_tie_break_takes_the_lower_own_colour_count_when_both_robots_score_the_same() -> None:
    # Ada: robots 1 and 2 both score 5, with 2 and 1 own-colour gears -> 1 counts.
    # Bo: robot 3 scores 5 with 2 own-colour gears, robot 4 scores 6.
    state = circuits(r1=[1, 1, 2], r2=[2, 3, 4, 1], r3=[3, 3, 1], r4=[4, 4, 4])
    assert [score_robot(robot) for robot in state.robots] == [5, 5, 5, 6]
    assert player_scores(state) == (
        PlayerScore("Bo", 5, 2, 3),
        PlayerScore("Ada", 5, 1, 2),
    )
    assert winners(state) == ("Bo",)


@pytest.mark.clause("VAR-3", "END-3")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_the_bigger_total_loses_to_the_better_weaker_robot() -> None:
    state = circuits(r1=[1, 1, 2], r2=[2, 2, 1], r3=[3] * 10, r4=[4, 4])
    assert [(s.player, s.points, s.own_colour) for s in player_scores(state)] == [
        ("Ada", 5, 2),
        ("Bo", 4, 2),
    ]
    assert winners(state) == ("Ada",)


@pytest.mark.clause("VAR-3", "END-3")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_two_robot_players_share_the_win_on_equal_lower_robots() -> None:
    state = circuits(r1=[1], r2=[2, 2], r3=[3, 3], r4=[4])
    assert winners(state) == ("Ada", "Bo")


# --- VAR-4: a robot may target its partner ---------------------------------------------------


@pytest.mark.clause("VAR-4")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_a_robot_may_attack_its_partner() -> None:
    state = four_robot_table(feet={2: [2, 3]})
    result = resolve_turn(
        state, programs(r1="attack 2", r2="harvest 4", r3="trap 1", r4="attack 4")
    )
    assert ActionResolved(1, "attack 2", Outcome.ATTACK_HIT, "ATK-6") in result.events
    assert result.state.robot(1).feet == gears(2, 3)
    assert result.state.robot(2).feet == gears(4)


@pytest.mark.clause("VAR-4", "TRP-3")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_a_robot_may_trap_its_partners_harvest() -> None:
    state = four_robot_table(dumps={1: [1], 2: [2, 2], 3: [3], 4: [4]})
    result = resolve_turn(
        state, programs(r1="trap 2", r2="harvest 2", r3="harvest 3", r4="attack 4")
    )
    assert ActionResolved(2, "harvest 2", Outcome.HARVEST_VOIDED, "TRP-2") in result.events
    assert ActionResolved(1, "trap 2", Outcome.TRAP_SPRUNG, "TRP-3") in result.events
    assert result.state.robot(1).feet == gears(2, 2)
    assert result.state.robot(2).feet == ()
    assert result.state.robot(3).feet == gears(3)


@pytest.mark.clause("VAR-4")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_a_robot_may_harvest_the_dump_numbered_like_its_partner() -> None:
    state = four_robot_table(dumps={1: [1], 2: [2, 1], 3: [3], 4: [4]})
    after = apply_turn(state, programs(r1="harvest 2", r2="attack 2", r3="trap 1", r4="attack 4"))
    assert after.robot(1).feet == gears(1, 2)
    assert after.robot(2).feet == ()


# --- VAR-1: what a refused setup says (issue 7) ----------------------------------------------


@pytest.mark.clause("VAR-1")
@pytest.mark.ruling("R-TWO-ROBOTS")
@pytest.mark.parametrize(
    ("players", "reason"),
    [
        ({"Ada": (1, 2)}, "the two-robot variant is for 2 to 4 players, not 1"),
        ({"Ada": (1, 2), "Bo": (3,)}, "player 'Bo' controls two robots, not [3]"),
    ],
)
def test_a_refused_two_robot_setup_says_what_is_wrong(
    players: dict[str, tuple[int, ...]], reason: str
) -> None:
    # Kills surviving mutants of setup.setup_two_robot_game (issue 7).
    with pytest.raises(SetupError) as caught:
        setup_two_robot_game(players, seed=1)
    assert (caught.value.reason, caught.value.clause) == (reason, "VAR-1")


# --- VAR-1: arguments of the wrong type (issue 14) -------------------------------------------


@pytest.mark.clause("VAR-1")
@pytest.mark.parametrize(
    ("players", "options", "argument", "expected", "given"),
    [
        pytest.param(
            [("Ada", (1, 5)), ("Bo", (2, 6))], None, "players",
            "a mapping of names to two robot numbers", [("Ada", (1, 5)), ("Bo", (2, 6))],
            id="players-as-a-list-of-pairs",
        ),
        pytest.param(
            {"Ada": "15", "Bo": (2, 6)}, None, "players['Ada']", "a pair of robot numbers", "15",
            id="a-pair-as-text",
        ),
        pytest.param(
            {"Ada": 15, "Bo": (2, 6)}, None, "players['Ada']", "a pair of robot numbers", 15,
            id="a-pair-as-one-number",
        ),
        pytest.param(
            {"Ada": (1, 5), "Bo": (2, 6)}, "jolly", "options", "an Options or None", "jolly",
            id="options-as-text",
        ),
    ],
)  # fmt: skip
def test_a_two_robot_setup_typed_in_the_wrong_shape_names_the_argument(
    players: Any, options: Any, argument: str, expected: str, given: Any
) -> None:
    with pytest.raises(ArgumentTypeError) as refused:
        setup_two_robot_game(players, seed=1, options=options)
    assert (refused.value.argument, refused.value.expected) == (argument, expected)
    assert refused.value.value == given


# --- VAR-1: seating by number, as simulations and the game adapters seat a table ---------------


@pytest.mark.clause("VAR-1")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_a_seated_two_robot_table_of_six_gives_player_j_robots_j_and_j_plus_three() -> None:
    seating = {"P1": (1, 4), "P2": (2, 5), "P3": (3, 6)}
    assert seat_players(6, two_robots=True) == seating
    jolly = Options(jolly_gears=True)
    seated = setup_seated_game(6, two_robots=True, seed=4, options=jolly)
    assert seated == setup_two_robot_game(seating, seed=4, options=jolly)
