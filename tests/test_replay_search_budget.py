"""The search for the closest legal play, and what bounds it in a long departing log.

A departure is reported against the legal play that misses the fewest recorded values
(:func:`outofgears.judge.inference.closest`). Three things keep that search both exact and
within a command's budget, and each is checked here against something the search does not use:

- :meth:`Target.floor` (recorded gears beyond all that the game holds) is a lower bound of
  every play's distance: checked against every legal play of random turns;
- the search's answer is the minimum over every legal play, enumerated here without pruning;
- one replay's searches share :data:`REPLAY_BRANCHES`: a log departing at every turn opens no
  more, a departure late in it is still reported and the walk goes on.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from outofgears import GameState, Gear, Place, gears, resolve_turn
from outofgears.judge import inference
from outofgears.judge.inference import CLOSEST_BRANCH, Branches, Target, closest, reproduce
from outofgears.judge.replay import replay_log
from outofgears.judge.start import start_state
from outofgears.log import (
    ChoicesRecord,
    GameLog,
    PositionRecord,
    Recorded,
    RobotGears,
    Start,
    TurnRecord,
)
from outofgears.rules.choices import Choices
from outofgears.rules.legal import ChoiceSpace
from outofgears.rules.programs import AnyProgram, parse_program
from tests.brute_force import MOST_PLAYS, every_play
from tests.log_samples import two_robots_fighting
from tests.strategies import crowded_programs, positions, some_programs


def recorded_target(state: GameState, plays: list[GameState], data: st.DataObject) -> Target:
    """Recorded feet and circuits for some robots and gears on some dumps: what one of
    ``plays`` left there, some robots' with gears added (of the game's own colours, or one it
    does not hold)."""
    after = data.draw(st.sampled_from(plays), label="the play recorded")
    colours = sorted({g.colour for r in state.robots for g in r.all_gears} | {1})
    extra = st.lists(st.sampled_from([Gear(c) for c in colours] + [Gear(8)]), max_size=3)
    robots = {
        r.number: (
            (*r.feet, *data.draw(extra, label=f"feet {r.number}")),
            (*r.circuit, *data.draw(extra, label=f"circuit {r.number}")),
        )
        for r in after.robots
        if data.draw(st.booleans(), label=f"record {r.number}")
    }
    dumps = {
        d.number: d.gears
        for d in after.dumps
        if data.draw(st.booleans(), label=f"record dump {d.number}")
    }
    return Target.of(robots, dumps, {})


@given(st.data())
def test_no_legal_play_misses_fewer_recorded_gears_than_the_floor(data: st.DataObject) -> None:
    state = data.draw(positions(max_feet=4, max_circuit=2, max_dump=3), label="state")
    programs = data.draw(some_programs(state), label="programs")
    plays = list(every_play(state, programs))
    target = recorded_target(state, plays, data)
    floor = target.floor(state)
    note(f"floor {floor}")
    assert all(target.distance(after) >= floor for after in plays)


@given(st.data())
def test_the_closest_play_is_the_nearest_of_every_legal_play(data: st.DataObject) -> None:
    state = data.draw(positions(max_feet=4, max_circuit=2, max_dump=3), label="state")
    programs = data.draw(crowded_programs(state), label="programs")  # robots that collide
    plays = list(every_play(state, programs))
    target = recorded_target(state, plays, data)
    if len(plays) >= MOST_PLAYS:
        return
    near = closest(state, programs, Choices(), target, nodes=10**9)
    assert near is not None
    assert near.complete
    assert near.distance == min(target.distance(after) for after in plays)
    assert near.distance == target.distance(near.result.state)


def robot_1_and_2_fight() -> tuple[GameState, dict[int, AnyProgram]]:
    """Robot 1 attacks robot 2, which defends (:func:`two_robots_fighting`'s first turn)."""
    log = two_robots_fighting(1)
    return start_state(log), dict(log.turns[0].programs)


def test_a_recorded_gear_the_game_does_not_hold_is_judged_without_a_search() -> None:
    state, programs = robot_1_and_2_fight()
    default = resolve_turn(state, programs)
    # What the default play leaves at robot 1's feet, and two more orange gears: the game
    # has only one orange gear, which no play can put there twice more.
    target = Target.of({1: ((*default.state.robot(1).feet, *gears(1, 1)), None)}, {}, {})
    assert target.floor(state) == 2
    assert reproduce(state, programs, Choices(), target) == []
    branches = Branches(left=1000)
    near = closest(state, programs, Choices(), target, default=default, branches=branches)
    assert near is not None
    assert near.complete
    assert near.distance == 2
    assert near.result == default
    assert branches.left == 1000  # no branch opened: no play can miss fewer than two


def test_a_search_out_of_branches_reports_the_best_play_it_found_as_incomplete() -> None:
    state, programs = robot_1_and_2_fight()
    default = resolve_turn(state, programs)
    # Robot 2's gears after a legal play other than the default one.
    other = next(after for after in every_play(state, programs) if after != default.state)
    robot = other.robot(2)
    target = Target.of({2: (robot.feet, robot.circuit)}, {}, {})
    assert target.distance(default.state) > 0
    full = closest(state, programs, Choices(), target, default=default)
    assert full is not None
    assert full.complete
    assert full.distance == 0
    starved = closest(state, programs, Choices(), target, default=default, branches=Branches(0))
    assert starved is not None
    assert not starved.complete
    assert starved.result == default


def skirmish_departing_every_turn(turns: int) -> GameLog:
    """Two robots attacking each other in turn, each turn's defence steal recorded as a
    gear the defender could not have taken (the grey gear that lies on dump 1)."""
    state, _ = robot_1_and_2_fight()
    rng = random.Random(3)
    records = []
    for number in range(1, turns + 1):
        attacker, defender = (1, 2) if number % 2 else (2, 1)
        programs = {
            attacker: parse_program(f"attack {defender}"),
            defender: parse_program(f"attack {defender}"),
        }
        space = ChoiceSpace(state, programs)
        after = resolve_turn(state, programs, choices=space.sample(rng)).state
        robots = {r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in after.robots}
        wrong = robots[defender]
        robots[defender] = attrs.evolve(wrong, feet=(*(wrong.feet or ()), Gear(7)))
        records.append(TurnRecord(number, programs, recorded=Recorded(robots=robots)))
        state = after
    position = robot_1_and_2_fight()[0]
    return GameLog(
        players={"P1": (1,), "P2": (2,)},
        start=Start(
            position=PositionRecord(
                robots={
                    r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in position.robots
                },
                dumps={d.number: d.gears for d in position.dumps},
                reserve=(),
            )
        ),
        turns=tuple(records),
    )


def test_a_log_departing_every_turn_shares_one_budget_and_still_reports_every_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = skirmish_departing_every_turn(40)
    searches: list[bool] = []
    leaves = [0]
    real_closest, real_resolve = inference.closest, resolve_turn

    def counting_closest(*args: object, **kwargs: object) -> object:
        searches.append(True)
        try:
            found = real_closest(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            searches[-1] = False
        assert found is not None
        return found

    def counting_resolve(*args: object, **kwargs: object) -> object:
        if searches and searches[-1]:
            leaves[0] += 1
        return real_resolve(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("outofgears.judge.replay.closest", counting_closest)
    monkeypatch.setattr("outofgears.judge.inference.resolve_turn", counting_resolve)
    # The searches for a play that gives everything recorded spend 283 branches here, in
    # all (the per-robot readings of a departure's culprits among them); ten branches of the
    # closest-play search are its share.
    monkeypatch.setattr(
        "outofgears.judge.replay.Branches",
        lambda: Branches(283 + 10 * CLOSEST_BRANCH, closest=10 * CLOSEST_BRANCH),
    )
    replayed = replay_log(log)
    assert {d.turn for d in replayed.departures} == set(range(1, 41))
    assert len(replayed.turns) == 40
    assert len(searches) == 40
    # Each play a search resolves is a branch it opened or the first of its walk, and a search
    # walks only while the budget allows it a branch (half of 10, of 5, ...): at most 10 + 4
    # plays, where a budget of its own for each of the 40 searches resolves one play or more each.
    assert leaves[0] <= 10 + 4


def four_share_a_dump(each: int) -> GameLog:
    """Four robots harvest dump 1, which holds ``each`` gears of each of the four colours
    none of them owns: the split has a great many legal ways."""
    return GameLog(
        players={f"P{n}": (n,) for n in range(1, 5)},
        start=Start(
            position=PositionRecord(
                robots={n: RobotGears(feet=(), circuit=()) for n in range(1, 5)},
                dumps={1: gears(*[c for c in (5, 6, 7, 8) for _ in range(each)]), 2: (), 3: ()}
                | {4: ()},
                reserve=gears(1, 2, 3, 4),
            )
        ),
        turns=(TurnRecord(1, {n: parse_program("harvest 1") for n in range(1, 5)}),),
    )


def test_a_split_with_too_many_ways_to_try_leaves_the_log_undecided_naming_it() -> None:
    log = four_share_a_dump(11)  # millions of ways
    recorded = attrs.evolve(log.turns[0], recorded=Recorded(scores={"P1": 22}))
    replayed = replay_log(attrs.evolve(log, turns=(recorded,)))
    assert replayed.verdict == "undecided"
    assert replayed.undecided is not None
    assert replayed.undecided.ways == inference.MOST_WAYS
    assert str(replayed.undecided) == (
        f"undecided: the split of dump 1 at turn 1 has more than {inference.MOST_WAYS} legal ways"
    )


def one_colour_each(each: int) -> Choices:
    """A legal split of :func:`four_share_a_dump`'s dump: robot n takes every gear of colour
    n + 4."""
    return Choices(splits={Place.dump(1): {n: gears(*[n + 4] * each) for n in range(1, 5)}})


def test_a_split_with_too_many_ways_is_checked_when_the_log_gives_it() -> None:
    log = four_share_a_dump(11)
    state = start_state(log)
    programs = dict(log.turns[0].programs)
    given = one_colour_each(11)
    after = resolve_turn(state, programs, choices=given).state
    robots = {r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in after.robots}
    record = attrs.evolve(
        log.turns[0], choices=ChoicesRecord.of(given), recorded=Recorded(robots=robots)
    )
    assert replay_log(attrs.evolve(log, turns=(record,))).agrees
    # Robot 1's gears recorded at robot 2: no legal play gives that, whatever the split.
    one, two = robots[1], robots[2]
    wrong = {
        **robots,
        1: RobotGears(feet=(), circuit=()),
        2: RobotGears(
            feet=(*(one.feet or ()), *(one.circuit or ()), *(two.feet or ())), circuit=two.circuit
        ),
    }
    departing = attrs.evolve(record, recorded=Recorded(robots=wrong))
    assert not replay_log(attrs.evolve(log, turns=(departing,))).agrees


def test_a_step_lists_at_most_one_more_option_than_asked_and_knows_the_others() -> None:
    state = start_state(four_share_a_dump(11))
    space = ChoiceSpace(state, {n: parse_program("harvest 1") for n in range(1, 5)})
    table = space.start_table()
    split = next(step for step in space.walk() if not step.assembling)
    listed = space.options(split, table, most=10)
    assert len(listed) == 11
    assert listed == space.options(split, table, most=100)[:11]
    shares = dict(one_colour_each(11).splits[Place.dump(1)])
    assert space.offers(split, table, ("split", Place.dump(1), shares))
    swapped = {**shares, 1: shares[2], 2: shares[1]}
    assert space.offers(split, table, ("split", Place.dump(1), swapped))
    short = {**shares, 1: shares[1][:-1]}
    assert not space.offers(split, table, ("split", Place.dump(1), short))
    assert not space.offers(split, table, ("split", Place.dump(2), shares))
