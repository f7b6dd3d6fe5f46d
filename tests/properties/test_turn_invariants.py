"""Properties of a turn and of whole games, over random positions, programs and choices.

Positions are arbitrary (any gears anywhere, SET-5), in both variants and under every
combination of the options; programs are legal, uniform or crowded onto one or two
numbers so that robots collide; post-reveal choices are the defaults or random legal
ones. The invariants themselves live in :mod:`tests.properties.checks`.

The expansions are off here, as in the base game (SET-6);
:mod:`tests.properties.test_expansion_invariants` runs the same properties with them on.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from outofgears import (
    Choices,
    GameState,
    Gear,
    GearMoved,
    IllegalProgramError,
    Place,
    Program,
    apply_turn,
    resolve_turn,
)
from outofgears.errors import IllegalChoiceError
from outofgears.rules.gears import RANKS_OF_SHARED
from outofgears.rules.sharing import check_split, own_colour_quota, share_size, split_gears
from tests.properties.checks import (
    CLAUSE_IDS,
    budget,
    check_conservation,
    check_events,
    check_outcomes,
    check_places,
    check_played_game,
    check_reserve_and_frame,
    check_splits,
    check_traps_take_only_when_blocking,
    play_and_check,
    reversed_programs,
    turn_bound,
)
from tests.strategies import (
    as_chooser,
    card_programs,
    gear_piles,
    legal_choices,
    one_robot_setups,
    play_random_game,
    position_specs,
    positions,
    random_choices,
    random_programs,
    random_split,
    rebuild,
    seeds,
    setups,
    some_programs,
    two_robot_setups,
)

# --------------------------------------------------------------------------- one turn


@pytest.mark.clause("TURN-1")
@given(st.data())
def test_a_turn_conserves_every_gear(data: st.DataObject) -> None:
    state = data.draw(positions(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    result = resolve_turn(state, programs, choices=choices)
    check_conservation(state, result.state)


@pytest.mark.clause("TURN-1", "EXP-1", "END-1")
@pytest.mark.ruling("R-EXPLORE", "R-END")
@given(st.data())
def test_every_place_stays_a_tuple_of_gears_and_the_reserve_only_feeds_the_dumps(
    data: st.DataObject,
) -> None:
    state = data.draw(positions(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    result = resolve_turn(state, programs)
    check_places(result.state)
    check_reserve_and_frame(state, result.state)
    explored = [move for move in result.moves if move.clause == "EXP-1"]
    assert [move.destination for move in explored] == [
        Place.dump(n) for n in state.robot_numbers[: len(explored)]
    ]
    assert [move.gear for move in explored] == list(state.reserve[: len(explored)])
    assert all(move.source == Place.reserve() for move in result.moves if move.clause == "EXP-1")
    assert not [m for m in result.moves if m.source == Place.reserve() and m.clause != "EXP-1"]


@pytest.mark.clause("TURN-1")
@given(st.data())
def test_a_turn_leaves_its_input_unchanged(data: st.DataObject) -> None:
    spec = data.draw(position_specs(), label="position")
    state = spec.build()
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    snapshot = copy.deepcopy(state)
    programs_before = dict(programs)
    resolve_turn(state, programs, choices=choices)
    assert state == snapshot
    assert state == spec.build()
    assert state == rebuild(state)
    assert programs == programs_before


@given(st.data())
def test_a_robot_or_dump_the_turn_left_as_it_was_is_the_very_same_object(
    data: st.DataObject,
) -> None:
    # The new state shares what the turn left alone, even a pile lifted and given back whole
    # (its piles being the shared multisets: every pile of up to 8 gears).
    state = data.draw(positions(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    after = apply_turn(state, programs, choices=choices)
    for before, now in zip(state.robots, after.robots, strict=True):
        if now == before and {id(now.feet), id(now.circuit)} <= RANKS_OF_SHARED.keys():
            assert now is before
    for before_dump, now_dump in zip(state.dumps, after.dumps, strict=True):
        if now_dump == before_dump and id(now_dump.gears) in RANKS_OF_SHARED:
            assert now_dump is before_dump


@pytest.mark.clause("TURN-1")
@given(st.data())
def test_the_same_inputs_give_the_same_turn(data: st.DataObject) -> None:
    spec = data.draw(position_specs(), label="position")
    state = spec.build()
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    first = resolve_turn(state, programs, choices=choices)
    assert resolve_turn(state, programs, choices=choices) == first
    assert resolve_turn(spec.build(), dict(programs), choices=choices) == first


@pytest.mark.clause("PRG-3")
@pytest.mark.ruling("R-SIMUL")
@given(st.data())
def test_the_order_programs_are_given_in_changes_nothing(data: st.DataObject) -> None:
    state = data.draw(positions(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    order = data.draw(st.permutations(sorted(programs)), label="order")
    shuffled = {robot: programs[robot] for robot in order}
    expected = resolve_turn(state, programs)
    assert resolve_turn(state, shuffled) == expected
    assert resolve_turn(state, reversed_programs(programs)) == expected


@pytest.mark.clause("TURN-1")
@given(st.data())
def test_the_events_replay_to_the_new_state(data: st.DataObject) -> None:
    state = data.draw(positions(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    result = resolve_turn(state, programs, choices=choices)
    check_events(state, result)


@pytest.mark.clause("TURN-1")
@given(st.data())
def test_every_gear_move_cites_a_clause_of_the_spec(data: st.DataObject) -> None:
    state = data.draw(positions(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    result = resolve_turn(state, programs)
    for move in result.moves:
        assert isinstance(move, GearMoved)
        assert move.clause in CLAUSE_IDS, str(move)


@pytest.mark.clause("ATK-3", "ATK-6", "TRP-2", "TRP-3", "HRV-2")
@pytest.mark.ruling("R-TRAP")
@given(st.data())
def test_every_program_comes_to_the_outcome_the_rules_say(data: st.DataObject) -> None:
    state = data.draw(positions(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    check_outcomes(programs, resolve_turn(state, programs))


@pytest.mark.clause("TRP-2", "TRP-3")
@pytest.mark.ruling("R-TRAP")
@given(st.data())
def test_a_trap_takes_gears_only_from_a_dump_someone_harvested(data: st.DataObject) -> None:
    state = data.draw(positions(), label="state")
    programs = card_programs(data.draw(some_programs(state), label="programs"))
    result = resolve_turn(state, programs)
    check_traps_take_only_when_blocking(programs, result)
    for dump in state.dumps:
        trapped = any(
            p.action.value == "trap" and p.number == dump.number for p in programs.values()
        )
        harvested = any(
            p.action.value == "harvest" and p.number == dump.number for p in programs.values()
        )
        if trapped and not harvested:
            assert not [m for m in result.moves if m.source == Place.dump(dump.number)], (
                f"dump {dump.number} was trapped but nobody harvested it"
            )


# --------------------------------------------------------------------------- splits


@pytest.mark.clause("SPL-1", "SPL-2", "SPL-3", "SPL-4")
@pytest.mark.ruling("R-SPLIT")
@given(
    pool=gear_piles(12),
    takers=st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=8, unique=True),
    place=st.integers(min_value=1, max_value=8),
)
def test_split_gears_gives_equal_shares_with_own_colour_priority(
    pool: tuple[Gear, ...], takers: list[int], place: int
) -> None:
    result = split_gears(pool, takers, place_number=place)
    share = len(pool) // len(takers)
    assert share_size(len(pool), len(takers)) == share
    assert [robot for robot, _ in result.shares] == sorted(takers)
    for robot, got in result.shares:
        assert len(got) == share
        own = sum(1 for gear in got if gear.colour == robot)
        assert own == min(share, sum(1 for gear in pool if gear.colour == robot))
        assert own == own_colour_quota(pool, robot, share)
    assert len(result.left) == len(pool) % len(takers)
    given_out = Counter(result.left)
    for _, got in result.shares:
        given_out.update(got)
    assert given_out == Counter(pool)
    check_split(pool, takers, dict(result.shares))


@pytest.mark.clause("SPL-1", "SPL-2", "SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
@given(
    pool=gear_piles(12),
    takers=st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=5, unique=True),
    data=st.data(),
)
def test_a_random_legal_split_is_accepted_as_given(
    pool: tuple[Gear, ...], takers: list[int], data: st.DataObject
) -> None:
    proposed = random_split(pool, takers, data)
    check_split(pool, takers, proposed)
    result = split_gears(pool, takers, proposed, place_number=1)
    assert {robot: Counter(got) for robot, got in result.shares} == {
        robot: Counter(got) for robot, got in proposed.items()
    }


@pytest.mark.clause("SPL-2", "SPL-5")
@pytest.mark.ruling("R-SPLIT")
@given(
    pool=gear_piles(12),
    takers=st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=5, unique=True),
    data=st.data(),
)
def test_a_split_that_skips_own_colour_priority_is_refused(
    pool: tuple[Gear, ...], takers: list[int], data: st.DataObject
) -> None:
    proposed = random_split(pool, takers, data)
    left = Counter(pool)
    for got in proposed.values():
        left.subtract(got)
    # Swap one of a taker's own-colour gears for a left-over gear of another colour.
    swaps = [
        (robot, own, other)
        for robot, got in proposed.items()
        for own in set(got)
        if own.colour == robot
        for other in sorted(+left, key=lambda gear: gear.colour)
        if other.colour != robot
    ]
    if not swaps:
        return
    robot, own, other = data.draw(st.sampled_from(swaps), label="swap")
    changed = list(proposed[robot])
    changed.remove(own)
    changed.append(other)
    with pytest.raises(IllegalChoiceError) as refused:
        check_split(pool, takers, {**proposed, robot: tuple(changed)})
    assert refused.value.clause == "SPL-2"


@pytest.mark.clause("SPL-1", "SPL-2", "SPL-3", "SPL-4", "ATK-8", "TRP-4")
@pytest.mark.ruling("R-SPLIT")
@given(st.data())
def test_splits_in_a_turn_are_equal_with_own_colour_priority(data: st.DataObject) -> None:
    state = data.draw(positions(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    result = resolve_turn(state, programs, choices=choices)
    check_splits(state, result, choices)


# --------------------------------------------------------------------------- choices, variant


@pytest.mark.clause("ATK-4", "ASM-1", "SPL-5")
@pytest.mark.ruling("R-DEFENCE", "R-ASSEMBLY", "R-CHOICES")
@given(st.data())
def test_legal_choices_are_honoured_and_keep_every_invariant(data: st.DataObject) -> None:
    state = data.draw(positions(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(legal_choices(state, programs), label="choices")
    note(f"choices: {choices}")
    play_and_check(state, programs, choices)
    if state.options.defence_steal_source == "feet_only":
        result = resolve_turn(state, programs, choices=choices)
        assert not [
            m for m in result.moves if m.clause == "ATK-4" and m.source.kind.value != "feet"
        ]


@pytest.mark.clause("VAR-1", "VAR-2", "VAR-4")
@pytest.mark.ruling("R-TWO-ROBOTS")
@given(st.data())
def test_two_robot_turns_keep_every_invariant(data: st.DataObject) -> None:
    state = data.draw(positions(variant="two"), label="state")
    programs = card_programs(data.draw(some_programs(state), label="programs"))
    for player in state.players:
        first, second = player.robots
        assert programs[first].action is not programs[second].action
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    play_and_check(state, programs, choices)


@pytest.mark.clause("VAR-2")
@pytest.mark.ruling("R-TWO-ROBOTS")
@given(st.data())
def test_partners_laying_the_same_action_card_are_refused(data: st.DataObject) -> None:
    state = data.draw(positions(variant="two"), label="state")
    programs = card_programs(data.draw(some_programs(state), label="programs"))
    player = data.draw(st.sampled_from(state.players), label="player")
    first, second = player.robots
    number = data.draw(st.sampled_from(state.robot_numbers), label="number")
    clash = {**programs, second: Program(programs[first].action, number)}
    with pytest.raises(IllegalProgramError) as refused:
        resolve_turn(state, clash)
    assert refused.value.clause == "VAR-2"
    assert refused.value.robot == second


@pytest.mark.slow
@pytest.mark.clause(
    "TURN-1",
    "PRG-3",
    "ATK-4",
    "ATK-5",
    "ATK-7",
    "TRP-3",
    "SPL-1",
    "SPL-2",
    "SPL-5",
    "ASM-1",
    "ASM-2",
    "ASM-3",
)
@pytest.mark.ruling("R-SPLIT", "R-TRAP", "R-SIMUL", "R-DEFENCE", "R-ASSEMBLY")
@budget(default=100, ci=1000)
@given(st.data())
def test_every_invariant_holds_on_many_turns(data: st.DataObject) -> None:
    state = data.draw(positions(max_feet=8, max_dump=8, max_reserve=20), label="state")
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    play_and_check(state, programs, choices)


# --------------------------------------------------------------------------- whole games


@pytest.mark.clause("END-1", "END-2", "END-3", "VAR-3")
@pytest.mark.ruling("R-END", "R-TWO-ROBOTS")
@given(state=setups(), data=st.data())
def test_a_game_where_a_lone_robot_harvests_each_turn_ends_in_time(
    state: GameState, data: st.DataObject
) -> None:
    game = play_random_game(state, data, policy="harvesting", max_turns=turn_bound(state))
    assert len(game.turns) <= turn_bound(state)
    check_played_game(game)


@pytest.mark.clause("END-1", "END-2", "END-3")
@pytest.mark.ruling("R-END")
@given(state=positions(max_reserve=30), data=st.data())
def test_a_lone_harvester_ends_a_game_from_any_position(
    state: GameState, data: st.DataObject
) -> None:
    game = play_random_game(
        state, data, policy="harvesting", with_choices=True, max_turns=turn_bound(state)
    )
    check_played_game(game, full_box=False)


@pytest.mark.slow
@pytest.mark.clause("END-1", "END-2", "END-3", "VAR-3", "PRG-5")
@pytest.mark.ruling("R-END", "R-TWO-ROBOTS", "R-CHOICES")
@budget(default=30, ci=300)
@given(state=st.one_of(one_robot_setups(), two_robot_setups()), seed=seeds())
def test_random_games_end_and_their_scores_add_up(state: GameState, seed: int) -> None:
    # Purely random programs need not end a game (everybody may attack for ever); from a
    # seeded generator they end soon after the reserve runs out, and well within the limit.
    chooser = as_chooser(random.Random(seed))
    game = play_random_game(state, chooser, policy="random", with_choices=True, max_turns=500)
    check_played_game(game)


@pytest.mark.clause("ATK-4", "ASM-1", "SPL-5")
@pytest.mark.ruling("R-CHOICES")
@given(state=positions(), seed=seeds())
def test_random_choices_are_legal(state: GameState, seed: int) -> None:
    rng = random.Random(seed)
    chosen = random_programs(state, rng)
    choices = random_choices(state, chosen, rng)
    assert isinstance(choices, Choices)
    play_and_check(state, chosen, choices, purity=False)
