"""A table that confirms a departure goes on from its own position (SET-8, R-TABLE-POSITION).

A turn that says ``"follows": "table"`` and departs is reported as always; the game then goes on
from the position the players wrote down: each written place as written, every other place and
the reserve as the closest legal play leaves them. Written scores are no place.
"""

from __future__ import annotations

from typing import Literal

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from outofgears import gears
from outofgears.judge.replay import Replay, replay_log
from outofgears.log import (
    GameLog,
    LogError,
    PositionRecord,
    Recorded,
    RobotGears,
    Start,
    TurnRecord,
)
from outofgears.rules.gears import Gear
from outofgears.rules.programs import AnyProgram, parse_program
from tests.properties.test_replay_outcomes import MAX_OPEN, table_game

PLAYERS: dict[str, tuple[int, ...]] = {"Ada": (1,), "Bruno": (2,), "Chiara": (3,)}


def programs(**by_robot: str) -> dict[int, AnyProgram]:
    """Programs as a table says them: programs(r1="attack 2")."""
    return {int(name[1:]): parse_program(text) for name, text in by_robot.items()}


def table_log(
    first: Recorded,
    second: Recorded | None = None,
    *,
    follows: Literal["rules", "table"] = "table",
    reserve: tuple[Gear, ...] = gears(1, 1, 2, 2, 3, 3),
) -> GameLog:
    """Ada's robot holds a green gear and harvests dump 1 (a red and a yellow): with three gears
    at its feet it assembles two; the rules give the red and the yellow (ASM-2). Turn 1 records
    ``first``; in turn 2 Bruno's attack takes Ada's feet, and the table records ``second``."""
    start = Start(
        position=PositionRecord(
            robots={1: RobotGears(feet=gears(4)), 2: RobotGears(), 3: RobotGears()},
            dumps={1: gears(1, 3), 2: gears(2), 3: gears(3)},
            reserve=reserve,
        )
    )
    turns = [
        TurnRecord(
            1,
            programs(r1="harvest 1", r2="harvest 2", r3="harvest 3"),
            recorded=first,
            follows=follows,
        )
    ]
    if second is not None:
        turns.append(
            TurnRecord(
                2,
                programs(r1="trap 1", r2="attack 1", r3="harvest 3"),
                recorded=second,
            )
        )
    return GameLog(players=PLAYERS, start=start, turns=tuple(turns))


#: Robot 1's circuit as the table wrote it: an orange it never held, and the yellow.
ORANGE_YELLOW = Recorded(robots={1: RobotGears(circuit=gears(2, 3))})


@pytest.mark.clause("SET-8")
@pytest.mark.ruling("R-TABLE-POSITION")
def test_a_table_whose_robot_assembled_orange_and_yellow_goes_on_from_it_after_confirming() -> None:
    replayed = replay_log(table_log(ORANGE_YELLOW, ORANGE_YELLOW))
    first, second = replayed.turns
    assert [(d.turn, d.clause) for d in replayed.departures] == [(1, "ASM-1")]
    assert first.followed
    assert not second.followed
    assert first.result.state.robot(1).circuit == gears(1, 3)  # what the rules give
    assert first.after.robot(1).circuit == gears(2, 3)  # what the table wrote
    assert second.before == first.after
    assert replayed.final == second.after
    assert replayed.final.robot(1).circuit == gears(2, 3)
    assert replayed.verdict == "departs"


@pytest.mark.ruling("R-TABLE-POSITION")
def test_without_following_the_table_the_same_circuit_departs_again_next_turn() -> None:
    replayed = replay_log(table_log(ORANGE_YELLOW, ORANGE_YELLOW, follows="rules"))
    assert [d.turn for d in replayed.departures] == [1, 2]
    assert not any(turn.followed for turn in replayed.turns)
    assert all(turn.after == turn.result.state for turn in replayed.turns)
    assert replayed.final.robot(1).circuit == gears(1, 3)


@pytest.mark.clause("SET-8")
def test_a_table_that_wrote_only_the_circuit_keeps_the_rules_feet_dumps_and_reserve() -> None:
    replayed = replay_log(table_log(ORANGE_YELLOW))
    (turn,) = replayed.turns
    rules, table = turn.result.state, turn.after
    assert table.robot(1).circuit == gears(2, 3)
    assert table.robot(1).feet == rules.robot(1).feet == gears(4)
    assert [r.feet for r in table.robots[1:]] == [r.feet for r in rules.robots[1:]]
    assert table.dumps == rules.dumps
    assert table.reserve == rules.reserve  # face down, never written: in the same draw order
    assert table.turn == rules.turn == 2


@pytest.mark.clause("SET-8")
def test_a_table_that_wrote_the_feet_too_is_followed_in_both_places_and_the_dump() -> None:
    wrote = Recorded(
        robots={1: RobotGears(feet=gears(1), circuit=gears(2, 3))}, dumps={1: gears(2)}
    )
    (turn,) = replay_log(table_log(wrote)).turns
    assert turn.followed
    assert (turn.after.robot(1).feet, turn.after.robot(1).circuit) == (gears(1), gears(2, 3))
    assert turn.after.dump(1).gears == gears(2)
    assert turn.after.dump(2).gears == turn.result.state.dump(2).gears


@pytest.mark.clause("SET-8")
def test_a_followed_position_with_a_twelfth_red_gear_is_refused_at_the_written_gear() -> None:
    # Nine reds face down and one on dump 1: the table writes three reds at robot 1.
    reserve = (*gears(2, 2, 2), *(gears(1) * 9))
    wrote = Recorded(robots={1: RobotGears(feet=gears(1, 4), circuit=gears(1, 1))})
    with pytest.raises(LogError) as refused:
        replay_log(table_log(wrote, reserve=reserve), "table.json")
    error = refused.value
    assert error.json_path == "$.turns[0].recorded.robots.1.circuit[1]"
    assert (error.turn, error.robot, error.clause) == (1, 1, "SET-5")
    assert "cannot be followed (SET-8)" in error.reason
    assert "red gear number 12" in error.reason
    # The same record, not followed, is only a departure.
    assert replay_log(table_log(wrote, reserve=reserve, follows="rules")).departures


@pytest.mark.clause("SET-8")
def test_a_table_that_wrote_only_a_wrong_score_goes_on_from_the_rules_position() -> None:
    replayed = replay_log(table_log(Recorded(scores={"Ada": 9})))
    (turn,) = replayed.turns
    assert [d.clause for d in replayed.departures] == ["END-2"]
    assert not turn.followed
    assert turn.after == turn.result.state


@pytest.mark.clause("SET-8")
def test_following_a_turn_that_agrees_changes_nothing() -> None:
    agreed = Recorded(robots={1: RobotGears(circuit=gears(1, 3))})
    followed = replay_log(table_log(agreed, agreed))
    plain = replay_log(table_log(agreed, agreed, follows="rules"))
    assert followed.agrees
    assert plain.agrees
    assert not any(turn.followed for turn in followed.turns)
    assert followed.final == plain.final


@pytest.mark.clause("SET-8")
def test_a_followed_table_that_empties_a_dump_with_the_reserve_gone_ends_the_game() -> None:
    wrote = Recorded(dumps={3: ()})
    (turn,) = replay_log(table_log(wrote, reserve=gears(1, 2, 3))).turns
    assert not turn.result.state.game_over  # the rules left a yellow on dump 3
    assert turn.followed
    assert turn.after.game_over


@pytest.mark.clause("SET-8")
def test_with_robot_2s_assembly_still_open_the_table_position_keeps_every_reading() -> None:
    # Turn 1 records only the scores: robot 2, assembling from a green, a blue and a purple
    # gear (each worth 1 to it), leaves three positions open. Turn 2 departs on robot 1.
    start = Start(
        position=PositionRecord(
            robots={1: RobotGears(), 2: RobotGears(feet=gears(4, 5)), 3: RobotGears()},
            dumps={1: gears(1, 1), 2: gears(6), 3: gears(3)},
            reserve=gears(1, 2, 3, 1, 2, 3),
        )
    )
    turns = (
        TurnRecord(
            1,
            programs(r1="harvest 1", r2="harvest 2", r3="harvest 3"),
            recorded=Recorded(scores={"Ada": 4, "Bruno": 3, "Chiara": 2}),
        ),
        TurnRecord(
            2,
            programs(r1="trap 2", r2="trap 3", r3="harvest 3"),
            recorded=Recorded(robots={1: RobotGears(feet=gears(2))}),
            follows="table",
        ),
    )
    log = GameLog(players=PLAYERS, start=start, turns=turns)
    followed = replay_log(log)
    assert followed.turns[0].open_positions == 3
    assert followed.turns[1].followed
    assert followed.positions == 3
    assert {state.robot(1).feet for state in followed.possible} == {gears(2)}
    assert len({state.robot(2).circuit for state in followed.possible}) == 3
    ruled = replay_log(attrs.evolve(log, turns=(turns[0], attrs.evolve(turns[1], follows="rules"))))
    assert ruled.positions == 1


def followed_everywhere(log: GameLog) -> GameLog:
    return attrs.evolve(log, turns=tuple(attrs.evolve(t, follows="table") for t in log.turns))


def same_replay(one: Replay, other: Replay) -> bool:
    return (
        one.verdict == other.verdict
        and one.possible == other.possible
        and [t.after for t in one.turns] == [t.after for t in other.turns]
        and [t.open_positions for t in one.turns] == [t.open_positions for t in other.turns]
    )


@pytest.mark.clause("SET-8")
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    robots=st.integers(2, 4),
    mode=st.sampled_from(["full", "partial", "scores"]),
)
def test_a_log_that_agrees_is_unchanged_by_following_the_table_on_every_turn(
    seed: int, robots: int, mode: str
) -> None:
    log, _ = table_game(seed, robots, mode, turns=4)
    plain = replay_log(log, max_open=MAX_OPEN)
    followed = replay_log(followed_everywhere(log), max_open=MAX_OPEN)
    assert not plain.departures
    assert not any(turn.followed for turn in followed.turns)
    assert same_replay(plain, followed)


@pytest.mark.clause("SET-8")
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), robots=st.integers(2, 4), data=st.data())
def test_a_followed_turn_holds_every_place_the_table_wrote_as_written(
    seed: int, robots: int, data: st.DataObject
) -> None:
    log, _ = table_game(seed, robots, "full", turns=3)
    index = data.draw(st.integers(0, len(log.turns) - 1), label="turn")
    record = log.turns[index]
    assert record.recorded is not None
    holding = sorted(n for n, held in record.recorded.robots.items() if held.feet or held.circuit)
    assume(holding)
    robot = data.draw(st.sampled_from(holding), label="robot")
    written = record.recorded.robots[robot]
    # The table wrote a gear fewer at the robot's feet, or in its circuit.
    wrong = (
        attrs.evolve(written, feet=(written.feet or ())[1:])
        if written.feet
        else attrs.evolve(written, circuit=(written.circuit or ())[1:])
    )
    recorded = attrs.evolve(record.recorded, robots={**record.recorded.robots, robot: wrong})
    turns = list(log.turns[: index + 1])
    turns[index] = attrs.evolve(record, recorded=recorded, follows="table")
    replayed = replay_log(attrs.evolve(log, turns=tuple(turns)), max_open=MAX_OPEN)
    turn = replayed.turns[index]
    assume(turn.departures)  # a legal play may leave that gear on a dump, which is not written
    assert turn.followed
    for state in replayed.possible:
        for number, told in recorded.robots.items():
            held = state.robot(number)
            assert sorted(map(str, held.feet)) == sorted(map(str, told.feet or ()))
            assert sorted(map(str, held.circuit)) == sorted(map(str, told.circuit or ()))
