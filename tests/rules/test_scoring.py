"""The end of the game, scores and winners (spec END-1 to END-3, ruling R-END)."""

from __future__ import annotations

import attrs
import pytest

from outofgears import (
    GameState,
    PlaceKind,
    PlayerScore,
    Program,
    TurnEnded,
    apply_turn,
    gears,
    player_scores,
    resolve_turn,
    score_robot,
    winners,
)
from outofgears.rules.scoring import is_game_over
from tests.helpers import position, programs

# --- END-1: the end of the game --------------------------------------------------------------


@pytest.mark.clause("END-1")
@pytest.mark.ruling("R-END")
def test_game_ends_when_the_reserve_is_empty_and_a_dump_is_empty() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[])
    result = resolve_turn(state, programs(r1="harvest 1", r2="attack 2"))
    assert result.events[-1] == TurnEnded(1, True, "END-1")
    assert result.state.game_over
    assert result.state.turn == 2


@pytest.mark.clause("END-1")
@pytest.mark.ruling("R-END")
def test_an_empty_reserve_alone_does_not_end_the_game() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[])
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 2"))
    assert result.events[-1] == TurnEnded(1, False, "TURN-1")
    assert not result.state.game_over


@pytest.mark.clause("END-1")
@pytest.mark.ruling("R-END")
def test_the_reserve_running_out_in_exploration_is_not_the_end_while_every_dump_holds_a_gear() -> (
    None
):
    state = position(dumps={1: [1], 2: [2]}, reserve=[2, 1])
    result = resolve_turn(state, programs(r1="harvest 1", r2="harvest 2"))
    assert result.state.reserve == ()
    assert result.state.dump(1).gears == gears(2)
    assert result.state.dump(2).gears == gears(1)
    assert result.events[-1] == TurnEnded(1, False, "TURN-1")
    assert not result.state.game_over


@pytest.mark.clause("END-1")
@pytest.mark.ruling("R-END")
def test_a_dump_emptied_in_the_turn_but_refilled_by_exploration_does_not_end_the_game() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[2, 1, 1])
    result = resolve_turn(state, programs(r1="harvest 1", r2="attack 2"))
    assert result.state.dump(1).gears == gears(2)
    assert result.state.reserve == gears(1)
    assert not result.state.game_over


@pytest.mark.clause("END-1", "EXP-1")
@pytest.mark.ruling("R-END", "R-EXPLORE")
def test_game_ends_when_the_last_exploration_leaves_a_dump_bare() -> None:
    state = position(dumps={1: [1], 2: [2], 3: [3]}, reserve=[3])
    result = resolve_turn(state, programs(r1="harvest 1", r2="harvest 2", r3="attack 3"))
    assert result.state.dump(1).gears == gears(3)
    assert result.state.dump(2).gears == ()
    assert result.events[-1] == TurnEnded(1, True, "END-1")
    assert result.state.game_over


@pytest.mark.clause("END-1")
@pytest.mark.ruling("R-END")
def test_the_end_needs_both_an_empty_reserve_and_an_empty_dump() -> None:
    assert is_game_over((), [gears(1), ()])
    assert not is_game_over((), [gears(1), gears(2)])
    assert not is_game_over(gears(4), [gears(1), ()])
    assert not is_game_over(gears(4), [gears(1), gears(2)])
    assert is_game_over((), [(), ()])


# --- END-2: scores ---------------------------------------------------------------------------


@pytest.mark.clause("END-2")
@pytest.mark.ruling("R-END")
def test_scores_own_colour_two_other_one_feet_and_circuit_together() -> None:
    state = position(feet={3: [3, 1]}, circuit={3: [3, 3, 2]}, dumps={1: [], 2: [], 3: []})
    assert score_robot(state.robot(3)) == 2 + 1 + 2 + 2 + 1


@pytest.mark.clause("END-2")
@pytest.mark.ruling("R-END")
def test_a_gear_at_the_feet_scores_as_much_as_one_in_the_circuit() -> None:
    state = position(feet={1: [1, 2]}, circuit={2: [1, 2]}, dumps={1: [], 2: []})
    assert score_robot(state.robot(1)) == 3
    assert score_robot(state.robot(2)) == 3


@pytest.mark.clause("END-2")
@pytest.mark.ruling("R-END")
def test_a_robot_with_no_gear_scores_nothing() -> None:
    state = position(feet={1: [1]}, dumps={1: [2, 2], 2: []}, reserve=[2])
    assert score_robot(state.robot(2)) == 0


@pytest.mark.clause("END-2")
@pytest.mark.ruling("R-END")
def test_gears_left_on_dumps_and_in_the_reserve_score_for_nobody() -> None:
    state = position(feet={1: [1]}, dumps={1: [1, 1], 2: [2, 2]}, reserve=[1, 2])
    assert [(s.player, s.points) for s in player_scores(state)] == [("P1", 2), ("P2", 0)]


@pytest.mark.clause("END-2", "END-1")
@pytest.mark.ruling("R-END-CIRCUIT")
def test_the_end_moves_no_feet_gear_into_the_circuit_and_still_scores_it() -> None:
    state = position(feet={1: [1, 2]}, circuit={1: [1]}, dumps={1: [1], 2: [2]}, reserve=[])
    result = resolve_turn(state, programs(r1="attack 1", r2="harvest 2"))
    assert result.state.game_over
    assert [move for move in result.moves if move.destination.kind is PlaceKind.CIRCUIT] == []
    final = result.state.robot(1)
    assert final.feet == gears(1, 2)
    assert final.circuit == gears(1)
    assert score_robot(final) == 2 + 1 + 2
    everything_in_the_circuit = attrs.evolve(final, feet=(), circuit=final.all_gears)
    assert score_robot(everything_in_the_circuit) == score_robot(final)


@pytest.mark.clause("END-2", "END-1", "ASM-1")
@pytest.mark.ruling("R-END-CIRCUIT", "R-ASSEMBLY")
def test_the_last_turn_assembles_two_as_usual_and_the_rest_stays_at_the_feet() -> None:
    state = position(feet={1: [1, 3, 1, 2]}, dumps={1: [1], 2: [2]}, reserve=[])
    result = resolve_turn(state, programs(r1="attack 1", r2="harvest 2"))
    assert result.state.game_over
    into_circuit = [m for m in result.moves if m.destination.kind is PlaceKind.CIRCUIT]
    assert sorted(move.gear.colour for move in into_circuit) == [1, 1]
    assert result.state.robot(1).feet == gears(2, 3)
    assert result.state.robot(1).circuit == gears(1, 1)
    assert score_robot(result.state.robot(1)) == 2 + 2 + 1 + 1


@pytest.mark.clause("END-2", "END-3")
@pytest.mark.ruling("R-END-CIRCUIT", "R-END")
def test_gears_still_at_the_feet_win_the_game_like_circuit_gears() -> None:
    state = position(feet={1: [1, 1]}, circuit={2: [2, 1]}, dumps={1: [], 2: []})
    assert player_scores(state) == (PlayerScore("P1", 4, 2, 1), PlayerScore("P2", 3, 1, 2))
    assert winners(state) == ("P1",)


# --- END-3: winners and the tie-break --------------------------------------------------------


def table(**by_robot: list[int]) -> GameState:
    """Robots with these gears in their circuits, one gear left on each dump."""
    numbers = [int(name.lstrip("r")) for name in by_robot]
    return position(
        circuit={int(name.lstrip("r")): held for name, held in by_robot.items()},
        dumps={n: [n] for n in numbers},
    )


@pytest.mark.clause("END-3")
@pytest.mark.ruling("R-END")
def test_most_points_wins() -> None:
    state = table(r1=[1, 2], r2=[2, 2], r3=[1, 1, 1])
    assert winners(state) == ("P2",)
    assert player_scores(state)[0] == PlayerScore("P2", 4, 2, 2)


@pytest.mark.clause("END-3")
@pytest.mark.ruling("R-END")
def test_tie_break_on_own_colour_gears() -> None:
    state = table(r1=[1, 2, 2], r2=[2, 2])
    assert [score_robot(robot) for robot in state.robots] == [4, 4]
    assert winners(state) == ("P2",)
    assert player_scores(state) == (PlayerScore("P2", 4, 2, 2), PlayerScore("P1", 4, 1, 1))


@pytest.mark.clause("END-3")
@pytest.mark.ruling("R-END")
def test_more_own_colour_gears_do_not_beat_more_points() -> None:
    state = table(r1=[1, 1, 1], r2=[2, 3, 3, 3, 3, 1, 1], r3=[])
    assert winners(state) == ("P2",)
    assert player_scores(state) == (
        PlayerScore("P2", 8, 1, 2),
        PlayerScore("P1", 6, 3, 1),
        PlayerScore("P3", 0, 0, 3),
    )


@pytest.mark.clause("END-3")
@pytest.mark.ruling("R-END")
def test_shared_win_when_points_and_own_colour_gears_tie() -> None:
    state = table(r1=[1, 3], r2=[2, 3], r3=[3])
    assert winners(state) == ("P1", "P2")


@pytest.mark.clause("END-3")
@pytest.mark.ruling("R-END")
def test_everyone_shares_the_win_when_nobody_scored() -> None:
    state = table(r4=[], r6=[], r7=[])
    assert winners(state) == ("P4", "P6", "P7")


@pytest.mark.clause("END-3", "END-1")
@pytest.mark.ruling("R-END")
def test_a_played_out_game_names_its_winner() -> None:
    state = position(feet={2: [2, 1]}, dumps={1: [1, 1], 2: [2]}, reserve=[])
    after = apply_turn(state, programs(r1="harvest 1", r2="harvest 2"))
    assert after.game_over
    assert after.robot(1).feet == gears(1, 1)
    assert after.robot(2).feet == gears(1)
    assert after.robot(2).circuit == gears(2, 2)
    assert player_scores(after) == (PlayerScore("P2", 5, 2, 2), PlayerScore("P1", 4, 2, 1))
    assert winners(after) == ("P2",)


@pytest.mark.clause("END-1")
def test_an_empty_dump_does_not_end_the_game_while_the_reserve_holds_gears() -> None:
    # Kills a surviving mutant of the end check (issue 7): the reserve must be consulted.
    # Robot 1 harvests dump 1 empty; exploration refills dump 1 only while the reserve lasts.
    laid = {1: Program.parse("harvest 1"), 2: Program.parse("attack 2")}
    lasting = position(dumps={1: [1], 2: [3]}, reserve=[4, 5, 6])
    assert resolve_turn(lasting, laid).events[-1] == TurnEnded(1, False, "TURN-1")
    running_out = position(dumps={1: [1], 2: [3]}, reserve=[])
    assert resolve_turn(running_out, laid).events[-1] == TurnEnded(1, True, "END-1")


@pytest.mark.clause("END-2")
def test_scoring_something_that_is_not_a_robot_is_refused_naming_the_argument() -> None:
    from outofgears.errors import ArgumentTypeError
    from outofgears.rules.scoring import score_robot

    with pytest.raises(ArgumentTypeError) as refused:
        score_robot("robot 1")  # type: ignore[arg-type]
    assert (refused.value.argument, refused.value.expected, refused.value.value) == (
        "robot",
        "a Robot",
        "robot 1",
    )
    assert str(refused.value) == "robot must be a Robot, not 'robot 1'"


@pytest.mark.clause("END-2", "END-3")
def test_a_robot_holding_unshared_gear_instances_scores_as_with_the_shared_ones() -> None:
    # Scoring looks the shared gears up by identity; a gear built apart (bypassing the
    # constructors, which share them) is scored by Gear.points_for itself.
    from outofgears.rules.gears import JOLLY, THREE_POINT, Gear, GearKind
    from outofgears.rules.model import Robot
    from outofgears.rules.scoring import own_colour_gears, score_robot

    shared = Robot(2, "Ben", feet=(Gear(2), JOLLY), circuit=(Gear(3), THREE_POINT))
    apart = attrs.evolve(shared)
    object.__setattr__(apart, "feet", (Gear(2), Gear(0, GearKind.JOLLY)))
    object.__setattr__(apart, "circuit", (Gear(3), Gear(0, GearKind.THREE_POINT)))
    assert apart.feet[0] is not shared.feet[0]
    assert (score_robot(apart), own_colour_gears(apart)) == (2 + 2 + 1 + 3, 2)
    assert (score_robot(shared), own_colour_gears(shared)) == (8, 2)
