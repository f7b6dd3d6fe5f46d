"""Properties of a turn and of whole games with the expansions on (spec/expansions.md).

The core properties of :mod:`tests.properties.test_turn_invariants` -- conservation,
places, determinism, program order, the input unchanged, events replaying to the new
state -- and the rules' own, over positions and setups in which any combination of the
Robot Upgrades, the Jolly gears, the three-point gears and ``pad_reserve`` is on
(``expansions=True`` in :mod:`tests.strategies`). Players hold upgrade cards, and robots lay
them among their legal programs: uniform, crowded, or every held card laid at once. The
invariants live in :mod:`tests.properties.checks`, which reads what the cards do from the
rules (:class:`tests.properties.checks.TurnReading`).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Literal

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from outofgears import (
    Choices,
    GameState,
    GearKind,
    IllegalProgramError,
    Options,
    Place,
    PlaceKind,
    Program,
    SetupError,
    apply_turn,
    player_scores,
    resolve_turn,
    setup_game,
    setup_two_robot_game,
)
from outofgears.rules.events import UpgradeDiscarded
from outofgears.rules.gears import EXPANSION_GEARS_PER_KIND, GEARS_PER_COLOUR, ROBOT_NUMBERS
from outofgears.rules.programs import AnyProgram, UpgradeProgram
from outofgears.rules.scoring import best_first
from outofgears.rules.turn import turn_scores
from tests.properties.checks import (
    CLAUSE_IDS,
    budget,
    check_assembly,
    check_conservation,
    check_defence_steals,
    check_events,
    check_outcomes,
    check_places,
    check_played_game,
    check_reserve_and_frame,
    check_splits,
    check_takings,
    check_traps_take_only_when_blocking,
    check_upgrades_discarded,
    play_and_check,
    read_programs,
    reversed_programs,
    turn_bound,
)
from tests.strategies import (
    UPGRADE_CARDS,
    Chooser,
    Draw,
    as_chooser,
    legal_choices,
    one_robot_setups,
    play_random_game,
    position_specs,
    positions,
    rebuild,
    seeds,
    setups,
    some_programs,
    two_robot_setups,
    upgrading_programs,
)


def expansion_states(
    max_feet: int = 6, max_dump: int = 5, max_reserve: int = 12
) -> st.SearchStrategy[GameState]:
    """Positions with any combination of the expansions on."""
    return positions(expansions=True, max_feet=max_feet, max_dump=max_dump, max_reserve=max_reserve)


def laid_upgrades(programs: dict[int, AnyProgram]) -> list[str]:
    """The upgrade cards laid, for the notes of a failing example."""
    return [str(p) for p in programs.values() if isinstance(p, UpgradeProgram)]


@st.composite
def expansion_turns(
    draw: Draw, *, variant: Literal["one", "two", "any"] = "any", with_choices: bool = True
) -> tuple[GameState, dict[int, AnyProgram], Choices | None]:
    """A position with the expansions, legal programs for it, and maybe legal choices."""
    state: GameState = draw(positions(variant=variant, expansions=True))
    programs: dict[int, AnyProgram] = draw(some_programs(state))
    choices: Choices | None = (
        draw(st.none() | legal_choices(state, programs)) if with_choices else None
    )
    note(f"options: {state.options}; upgrades laid: {laid_upgrades(programs)}")
    return state, programs, choices


# --------------------------------------------------------------------------- one turn


@pytest.mark.clause("TURN-1", "EXP-1", "REF-1", "JOL-1", "TRI-1")
@pytest.mark.ruling("R-EXPLORE")
@given(expansion_turns())
def test_a_turn_with_the_expansions_conserves_every_gear_and_refills_in_dump_order(
    turn: tuple[GameState, dict[int, AnyProgram], Choices | None],
) -> None:
    state, programs, choices = turn
    result = resolve_turn(state, programs, choices=choices)
    check_places(result.state)
    check_conservation(state, result.state)
    check_reserve_and_frame(state, result.state)
    explored = [move for move in result.moves if move.clause == "EXP-1"]
    assert [move.destination for move in explored] == [
        Place.dump(n) for n in state.robot_numbers[: len(explored)]
    ]
    assert [move.gear for move in explored] == list(state.reserve[: len(explored)])


@pytest.mark.clause("END-2", "VAR-3")
@given(expansion_turns(with_choices=False))
def test_the_scores_read_off_a_turns_table_are_those_of_the_state_after_it(
    turn: tuple[GameState, dict[int, AnyProgram], Choices | None],
) -> None:
    # turn_scores (the search bot's turns) skips building the state; player_scores reads it.
    state, programs, _ = turn
    scores = turn_scores(state, programs)
    assert [score.player for score in scores] == [player.name for player in state.players]
    assert best_first(scores) == player_scores(apply_turn(state, programs))


@pytest.mark.clause("TURN-1", "UPG-3")
@given(st.data())
def test_a_turn_with_the_expansions_leaves_its_input_unchanged(data: st.DataObject) -> None:
    spec = data.draw(position_specs(expansions=True), label="position")
    state = spec.build()
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    snapshot = copy.deepcopy(state)
    programs_before = dict(programs)
    held_before = [p.upgrade for p in state.players]
    resolve_turn(state, programs, choices=choices)
    assert state == snapshot
    assert state == spec.build()
    assert state == rebuild(state)
    assert programs == programs_before
    assert [p.upgrade for p in state.players] == held_before


@pytest.mark.clause("TURN-1", "PRG-3", "UPG-2")
@pytest.mark.ruling("R-SIMUL")
@given(st.data())
def test_the_same_programs_in_any_order_give_the_same_turn_with_the_expansions(
    data: st.DataObject,
) -> None:
    spec = data.draw(position_specs(expansions=True), label="position")
    state = spec.build()
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    first = resolve_turn(state, programs, choices=choices)
    assert resolve_turn(state, programs, choices=choices) == first
    assert resolve_turn(spec.build(), dict(programs), choices=choices) == first
    order = data.draw(st.permutations(sorted(programs)), label="order")
    assert resolve_turn(state, {robot: programs[robot] for robot in order}, choices=choices) == (
        first
    )
    assert resolve_turn(state, reversed_programs(programs), choices=choices) == first


@pytest.mark.clause("TURN-1", "UPG-3")
@given(expansion_turns())
def test_the_events_of_a_turn_with_the_expansions_replay_to_the_new_state(
    turn: tuple[GameState, dict[int, AnyProgram], Choices | None],
) -> None:
    state, programs, choices = turn
    result = resolve_turn(state, programs, choices=choices)
    check_events(state, result)
    for event in result.events:
        assert event.clause in CLAUSE_IDS, str(event)


@pytest.mark.clause("UPG-2", "UPG-3")
@given(st.data())
def test_played_upgrade_cards_are_discarded_and_cannot_be_laid_again(
    data: st.DataObject,
) -> None:
    state = data.draw(expansion_states(), label="state")
    programs = data.draw(upgrading_programs(state), label="programs")
    result = resolve_turn(state, programs)
    check_upgrades_discarded(state, programs, result)
    after = result.state
    laid = {robot: p for robot, p in programs.items() if isinstance(p, UpgradeProgram)}
    for player in state.players:
        now = next(p for p in after.players if p.name == player.name).upgrade
        played = [robot for robot in laid if robot in player.robots]
        assert now == (None if played else player.upgrade), player.name
    if after.game_over or not laid:
        return
    robot, card = data.draw(st.sampled_from(sorted(laid.items(), key=str)), label="again")
    again: dict[int, AnyProgram] = {r: Program.parse(f"harvest {r}") for r in after.robot_numbers}
    again[robot] = card
    with pytest.raises(IllegalProgramError) as refused:
        resolve_turn(after, again)
    assert (refused.value.robot, refused.value.clause) == (robot, "UPG-3")


@pytest.mark.clause("UPG-2", "UPG-3")
@given(st.data())
def test_an_upgrade_card_the_player_does_not_hold_is_refused(data: st.DataObject) -> None:
    state = data.draw(expansion_states(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    # A robot whose partner (if any) lays no upgrade, laying a card its player does not hold.
    free = [
        robot
        for robot in state.robot_numbers
        if not any(
            isinstance(programs[other], UpgradeProgram)
            for other in state.player_of(robot).robots
            if other != robot
        )
    ]
    robot = data.draw(st.sampled_from(free), label="robot")
    held = state.player_of(robot).upgrade
    card = data.draw(st.sampled_from([c for c in UPGRADE_CARDS if c is not held]), label="card")
    with pytest.raises(IllegalProgramError) as refused:
        resolve_turn(state, {**programs, robot: UpgradeProgram(card)})
    expected = "UPG-3" if state.options.upgrades else "UPG-2"
    assert (refused.value.robot, refused.value.clause) == (robot, expected)


@pytest.mark.clause(
    "ATK-3",
    "TRP-2",
    "TRP-3",
    "HRV-2",
    "UPG-2",
    "SHARV-1",
    "SATK-1",
    "SATK-2",
    "STRAP-1",
    "SHOV-1",
    "CDEF-1",
    "CDEF-2",
)
@pytest.mark.ruling("R-SUPER-HARVEST", "R-SUPER-ATTACK", "R-SHOVEL", "R-COUNTER-DEFENCE", "R-TRAP")
@given(expansion_turns(with_choices=False))
def test_every_program_and_upgrade_comes_to_the_outcomes_the_rules_say(
    turn: tuple[GameState, dict[int, AnyProgram], Choices | None],
) -> None:
    state, programs, _ = turn
    check_outcomes(programs, resolve_turn(state, programs))


@pytest.mark.clause("TRP-2", "TRP-3", "STRAP-1", "SHARV-1", "SHOV-1")
@pytest.mark.ruling("R-TRAP", "R-SUPER-HARVEST", "R-SHOVEL")
@given(expansion_turns(with_choices=False))
def test_a_trap_or_super_trap_takes_gears_only_from_a_dump_someone_harvested(
    turn: tuple[GameState, dict[int, AnyProgram], Choices | None],
) -> None:
    state, programs, _ = turn
    result = resolve_turn(state, programs)
    check_traps_take_only_when_blocking(programs, result)
    reading = read_programs(programs)
    for dump in state.robot_numbers:
        if reading.trappers_of[dump] and not reading.harvesters_of[dump]:
            # Only a Super Shovel, which no trap concerns, may take from that dump.
            taken = [m for m in result.moves if m.source == Place.dump(dump)]
            assert all(m.clause == "SHOV-1" for m in taken), f"dump {dump}: {taken}"


@pytest.mark.clause(
    "SPL-1",
    "SPL-2",
    "SPL-3",
    "SPL-4",
    "SPL-5",
    "JOL-2",
    "TRI-2",
    "VAL-1",
    "SATK-1",
    "CDEF-1",
    "STRAP-1",
    "SHARV-1",
    "SHOV-1",
)
@pytest.mark.ruling("R-SPLIT", "R-JOLLY", "R-SHOVEL")
@given(expansion_turns())
def test_splits_with_the_expansions_are_equal_and_give_nobody_priority_on_colourless_gears(
    turn: tuple[GameState, dict[int, AnyProgram], Choices | None],
) -> None:
    state, programs, choices = turn
    result = resolve_turn(state, programs, choices=choices)
    check_splits(state, result, choices)
    check_takings(state, programs, result)


@pytest.mark.clause("ATK-4", "ATK-5", "SATK-2", "CDEF-2", "VAL-1", "ASM-1", "ASM-2", "ASM-3")
@pytest.mark.ruling("R-DEFENCE", "R-SUPER-ATTACK", "R-COUNTER-DEFENCE", "R-JOLLY")
@given(expansion_turns())
def test_defence_steals_and_assembly_take_the_gears_worth_most_with_the_expansions(
    turn: tuple[GameState, dict[int, AnyProgram], Choices | None],
) -> None:
    state, programs, choices = turn
    result = resolve_turn(state, programs, choices=choices)
    check_defence_steals(state, programs, result, choices)
    check_assembly(state, result, choices)


@pytest.mark.clause("ATK-4", "SATK-2", "ASM-1", "SPL-5", "SHOV-1")
@pytest.mark.ruling("R-CHOICES", "R-SUPER-ATTACK", "R-SHOVEL")
@given(st.data())
def test_legal_choices_with_the_expansions_are_honoured_and_keep_every_invariant(
    data: st.DataObject,
) -> None:
    state = data.draw(expansion_states(), label="state")
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(legal_choices(state, programs), label="choices")
    note(f"upgrades laid: {laid_upgrades(programs)}; choices: {choices}")
    play_and_check(state, programs, choices)


@pytest.mark.clause("UPG-4", "VAR-1", "VAR-2", "VAR-4")
@pytest.mark.ruling("R-UPG-VARIANT", "R-TWO-ROBOTS")
@given(expansion_turns(variant="two"))
def test_two_robot_turns_with_the_expansions_keep_every_invariant(
    turn: tuple[GameState, dict[int, AnyProgram], Choices | None],
) -> None:
    state, programs, choices = turn
    for player in state.players:
        first, second = (programs[robot] for robot in player.robots)
        if isinstance(first, Program) and isinstance(second, Program):
            assert first.action is not second.action
        else:
            assert isinstance(first, Program) or isinstance(second, Program)
    play_and_check(state, programs, choices)


@pytest.mark.clause("UPG-4")
@pytest.mark.ruling("R-UPG-VARIANT")
@given(st.data())
def test_both_robots_of_a_player_laying_its_upgrade_card_are_refused(data: st.DataObject) -> None:
    state = data.draw(positions(variant="two", expansions=True), label="state")
    holders = [p for p in state.players if p.upgrade is not None]
    if not holders:
        return
    programs = data.draw(some_programs(state), label="programs")
    player = data.draw(st.sampled_from(holders), label="player")
    assert player.upgrade is not None
    first, second = player.robots
    card = UpgradeProgram(player.upgrade)
    with pytest.raises(IllegalProgramError) as refused:
        resolve_turn(state, {**programs, first: card, second: card})
    assert (refused.value.robot, refused.value.clause) == (second, "UPG-4")


@pytest.mark.slow
@pytest.mark.clause(
    "TURN-1",
    "PRG-3",
    "ATK-4",
    "ATK-5",
    "ATK-7",
    "SPL-1",
    "SPL-2",
    "SPL-5",
    "ASM-1",
    "ASM-2",
    "JOL-2",
    "TRI-2",
    "VAL-1",
    "REF-1",
    "UPG-3",
    "UPG-2",
    "SHARV-1",
    "SATK-1",
    "SATK-2",
    "STRAP-1",
    "SHOV-1",
    "CDEF-1",
    "CDEF-2",
)
@pytest.mark.ruling(
    "R-SPLIT",
    "R-SIMUL",
    "R-DEFENCE",
    "R-ASSEMBLY",
    "R-JOLLY",
    "R-SUPER-HARVEST",
    "R-SUPER-ATTACK",
    "R-SHOVEL",
    "R-COUNTER-DEFENCE",
    "R-TRAP",
)
@budget(default=60, ci=800)
@given(st.data())
def test_every_invariant_holds_on_many_turns_with_the_expansions(data: st.DataObject) -> None:
    state = data.draw(expansion_states(max_feet=8, max_dump=8, max_reserve=20), label="state")
    programs = data.draw(some_programs(state), label="programs")
    choices = data.draw(st.none() | legal_choices(state, programs), label="choices")
    note(f"upgrades laid: {laid_upgrades(programs)}")
    play_and_check(state, programs, choices)


# --------------------------------------------------------------------------- whole games


@pytest.mark.clause("END-1", "END-2", "END-3", "JOL-2", "TRI-2", "REF-1", "UPG-1", "UPG-3")
@pytest.mark.ruling("R-END", "R-JOLLY", "R-EXPLORE", "R-UPG-DECK")
@given(state=setups(expansions=True), data=st.data())
def test_a_game_with_the_expansions_where_a_lone_robot_harvests_each_turn_ends_in_time(
    state: GameState, data: st.DataObject
) -> None:
    game = play_random_game(state, data, policy="harvesting", max_turns=turn_bound(state))
    assert len(game.turns) <= turn_bound(state)
    check_played_game(game)


@pytest.mark.slow
@pytest.mark.clause(
    "END-1", "END-2", "END-3", "VAR-3", "JOL-1", "JOL-2", "TRI-1", "TRI-2", "REF-2", "UPG-3"
)
@pytest.mark.ruling("R-END", "R-TWO-ROBOTS", "R-CHOICES", "R-JOLLY", "R-PAD-RESERVE")
@budget(default=20, ci=300)
@given(
    state=st.one_of(one_robot_setups(expansions=True), two_robot_setups(expansions=True)),
    seed=seeds(),
)
def test_random_games_with_the_expansions_end_and_their_scores_add_up(
    state: GameState, seed: int
) -> None:
    # Total gears: 11 per robot, 4 per gear expansion, and the padding (check_full_box);
    # Jolly = 2 and own colour, three-point = 3 and nobody's colour (check_finished_game).
    chooser = as_chooser(random.Random(seed))
    game = play_random_game(state, chooser, policy="random", with_choices=True, max_turns=500)
    check_played_game(game)
    expansion_gears = Counter(
        gear.kind for gear in game.start.all_gears() if gear.kind is not GearKind.STANDARD
    )
    assert expansion_gears[GearKind.JOLLY] == EXPANSION_GEARS_PER_KIND * state.options.jolly_gears
    assert expansion_gears[GearKind.THREE_POINT] == (
        EXPANSION_GEARS_PER_KIND * state.options.three_point_gears
    )


# --------------------------------------------------------------------------- padding


@pytest.mark.clause("REF-2", "JOL-1", "TRI-1")
@pytest.mark.ruling("R-PAD-RESERVE")
@pytest.mark.parametrize("count", range(2, 8))
@given(data=st.data())
def test_pad_reserve_makes_the_reserve_after_the_deal_a_multiple_of_the_dumps(
    count: int, data: st.DataObject
) -> None:
    numbers = data.draw(
        st.lists(st.sampled_from(ROBOT_NUMBERS), min_size=count, max_size=count, unique=True),
        label="robots",
    )
    rules = Options(
        pad_reserve=True,
        jolly_gears=data.draw(st.booleans(), label="jolly"),
        three_point_gears=data.draw(st.booleans(), label="three-point"),
        upgrades=data.draw(st.booleans(), label="upgrades"),
    )
    state = setup_game(numbers, seed=data.draw(seeds(), label="seed"), options=rules)
    extra = EXPANSION_GEARS_PER_KIND * (rules.jolly_gears + rules.three_point_gears)
    padding = -(GEARS_PER_COLOUR * count + extra - 2 * count) % count
    spare = min(set(ROBOT_NUMBERS) - set(numbers))
    assert len(state.reserve) % count == 0
    assert len(state.reserve) == GEARS_PER_COLOUR * count + extra + padding - 2 * count
    not_in_play = Counter(
        gear.colour
        for gear in state.all_gears()
        if gear.kind is GearKind.STANDARD and gear.colour not in numbers
    )
    assert not_in_play == (Counter({spare: padding}) if padding else Counter())
    assert padding < count


@pytest.mark.clause("REF-2")
@pytest.mark.ruling("R-PAD-RESERVE", "R-TWO-ROBOTS")
@given(state=two_robot_setups(max_players=3, expansions=True))
def test_pad_reserve_pads_the_two_robot_variant_by_its_dumps(state: GameState) -> None:
    dumps = len(state.dumps)
    if state.options.pad_reserve:
        assert len(state.reserve) % dumps == 0
    padding = [g for g in state.all_gears() if g.colour and g.colour not in state.robot_numbers]
    assert len(padding) < dumps
    assert not padding or state.options.pad_reserve


@pytest.mark.clause("REF-2")
@pytest.mark.ruling("R-PAD-RESERVE")
@given(
    seed=seeds(),
    jolly=st.booleans(),
    three_point=st.booleans(),
)
def test_pad_reserve_with_all_eight_robots_is_refused(
    seed: int, jolly: bool, three_point: bool
) -> None:
    rules = Options(pad_reserve=True, jolly_gears=jolly, three_point_gears=three_point)
    control = {"Ada": (1, 2), "Bo": (3, 4), "Cy": (5, 6), "Di": (7, 8)}
    with pytest.raises(SetupError) as refused:
        setup_game(ROBOT_NUMBERS, seed=seed, options=rules)
    assert refused.value.clause == "REF-2"
    with pytest.raises(SetupError) as refused:
        setup_two_robot_game(control, seed=seed, options=rules)
    assert refused.value.clause == "REF-2"


@pytest.mark.clause("REF-1", "REF-2", "EXP-1")
@pytest.mark.ruling("R-PAD-RESERVE", "R-EXPLORE")
@given(state=setups(expansions=True), data=st.data())
def test_every_refill_fills_every_dump_when_the_reserve_is_padded(
    state: GameState, data: st.DataObject
) -> None:
    game = play_random_game(
        state, Chooser.from_draw(data.draw), policy="harvesting", max_turns=turn_bound(state)
    )
    short = [
        turn.before.turn
        for turn in game.turns
        if 0 < len(turn.before.reserve) < len(turn.before.dumps)
    ]
    if state.options.pad_reserve:
        assert not short, f"short refills on turns {short} despite the padding"
    for turn in game.turns:
        explored = [m for m in turn.result.moves if m.clause == "EXP-1"]
        assert len(explored) == min(len(turn.before.reserve), len(turn.before.dumps))
        assert all(m.source.kind is PlaceKind.RESERVE for m in explored)
    discards = [e for t in game.turns for e in t.result.events if isinstance(e, UpgradeDiscarded)]
    assert len(discards) <= sum(1 for p in state.players if p.upgrade is not None)
