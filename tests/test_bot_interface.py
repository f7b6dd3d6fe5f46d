"""The engine as a game for bots (issue 13, parts 1-6): observations, actions as numbers,
returns and the turn cap, hidden information resampled, the game's description, and cheap,
faithful copies and pickles."""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from outofgears import (
    Choices,
    DefenceSteal,
    GameOverError,
    GameState,
    IllegalChoiceError,
    IllegalProgramError,
    InvalidStateError,
    Options,
    Place,
    Player,
    SetupError,
    apply_turn,
    gears,
    legal_joint_programs,
    legal_programs,
    setup_game,
    setup_two_robot_game,
)
from outofgears.cli.play import GameFileError
from outofgears.errors import OutOfGearsError
from outofgears.log import LogError, LogFieldError
from outofgears.play.actions import (
    ALL_PROGRAMS,
    action_id,
    action_mask,
    joint_action_id,
    joint_action_mask,
    joint_program_of,
    num_actions,
    num_joint_actions,
    player_actions,
    program_of,
    programs_of_move,
)
from outofgears.play.game import game_info, is_terminal, resample_hidden, returns
from outofgears.play.observation import observation_size, observe
from outofgears.play.policies import random_programs
from outofgears.rules.gears import CANONICAL_GEARS
from tests.helpers import position
from tests.strategies import seeds, setups

# ------------------------------------------------------------------ observations


def _with_others_cards(state: GameState, player: str, rng: random.Random) -> GameState:
    """The same table with the reserve reordered and the other players' held cards swapped
    for other cards of the deck: all of it hidden from ``player``."""
    reserve = list(state.reserve)
    rng.shuffle(reserve)
    deck = Counter(state.options.upgrade_deck)
    own = next(p for p in state.players if p.name == player)
    if own.upgrade is not None:
        deck[own.upgrade] -= 1
    pool = [card for card, count in deck.items() for _ in range(count)]
    holders = [p for p in state.players if p.name != player and p.upgrade is not None]
    dealt = rng.sample(pool, len(holders))
    cards = {p.name: dealt[i] for i, p in enumerate(holders)}
    players = tuple(Player(p.name, p.robots, cards.get(p.name, p.upgrade)) for p in state.players)
    return attrs.evolve(state, reserve=tuple(reserve), players=players)


@given(setups(expansions=True), seeds(), st.data())
def test_states_differing_only_in_hidden_things_look_the_same_to_the_player(
    state: GameState, seed: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 3))):
        if state.game_over:
            break
        state = apply_turn(state, random_programs(state, rng))
    player = data.draw(st.sampled_from([p.name for p in state.players]))
    other = _with_others_cards(state, player, rng)
    seen, also_seen = observe(state, player), observe(other, player)
    assert seen == also_seen
    assert seen.to_vector() == also_seen.to_vector()
    assert seen.to_string() == also_seen.to_string()
    resampled = resample_hidden(state, player, rng)
    assert observe(resampled, player) == seen
    assert Counter(resampled.reserve) == Counter(state.reserve)


def _counts_by_rank(pile: tuple[object, ...]) -> tuple[int, ...]:
    found = Counter(pile)
    return tuple(found[gear] for gear in CANONICAL_GEARS)


@given(setups(expansions=True), seeds())
def test_every_pile_and_the_reserve_are_counted_right_all_game_long(
    state: GameState, seed: int
) -> None:
    """The counts are memoized by pile and the reserve counted from the one before it (gears
    leave from its front): checked against counting the gears, turn after turn, and on a
    reserve that is not the end of one seen before (shuffled)."""
    rng = random.Random(seed)
    while True:
        shuffled = list(state.reserve)
        rng.shuffle(shuffled)
        for table in (state, attrs.evolve(state, reserve=tuple(shuffled))):
            seen = observe(table, table.players[-1].name)
            assert seen.reserve_counts == _counts_by_rank(table.reserve)
            for robot in table.robots:
                assert seen.feet(robot.number) == _counts_by_rank(robot.feet)
                assert seen.circuit(robot.number) == _counts_by_rank(robot.circuit)
            for dump in table.dumps:
                assert seen.dump(dump.number) == _counts_by_rank(dump.gears)
        if state.game_over or state.turn > 30:
            break
        state = apply_turn(state, random_programs(state, rng))


@pytest.mark.parametrize("drawn", [0, 1, 3])
def test_a_reserve_drawn_from_since_last_seen_is_counted_without_the_gears_drawn(
    drawn: int,
) -> None:
    full = position(dumps={1: (), 2: ()}, reserve=(1, 2, 2, 3, 3, 3, 4))
    assert observe(full, "P1").reserve_counts[:4] == (1, 2, 3, 1)
    later = attrs.evolve(full, reserve=tuple(full.reserve[drawn:]))
    expected = _counts_by_rank(later.reserve)
    assert observe(later, "P1").reserve_counts == expected
    assert sum(expected) == 7 - drawn


def test_an_observation_shows_the_reserve_as_counts_and_only_its_own_card() -> None:
    state = setup_game([1, 2, 3], seed=5, options=Options(upgrades=True))
    seen = observe(state, "P1")
    holders = {p.name: p.upgrade for p in state.players}
    assert seen.upgrade is holders["P1"]
    assert seen.holds_upgrade("P2")
    assert seen.holds_upgrade("P3")
    assert seen.reserve_counts == tuple(Counter(state.reserve)[gear] for gear in CANONICAL_GEARS)
    assert holders["P2"] is not None
    assert holders["P2"].value not in seen.to_string().split("\n", 1)[1]


def test_the_vector_follows_the_documented_layout() -> None:
    state = position(
        feet={1: (2, 2), 3: ()}, circuit={1: (1,)}, dumps={1: (3,), 3: ()}, reserve=(1, 2)
    )
    revealed = {1: legal_programs(state, 1)[0], 3: legal_programs(state, 3)[-1]}
    vector = observe(state, "P3", revealed=revealed).to_vector()
    assert len(vector) == observation_size() == 515
    assert vector[0:4] == [1.0, 0.0, 2.0, 0.0]
    assert vector[4:12] == [1, 0, 1, 0, 0, 0, 0, 0]
    assert vector[12:20] == [0, 0, 1, 0, 0, 0, 0, 0]
    assert vector[20:30] == [0, 2, 0, 0, 0, 0, 0, 0, 0, 0]  # robot 1's feet: two orange
    assert vector[100:110] == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # robot 1's circuit: one red
    assert vector[180:190] == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]  # dump 1: one yellow
    assert vector[260:270] == [1, 1, 0, 0, 0, 0, 0, 0, 0, 0]  # the reserve
    assert vector[270:283] == [0.0] * 13
    ones = [i for i in range(283, 515) if vector[i]]
    assert ones == [283 + action_id(revealed[1]), 283 + 2 * 29 + action_id(revealed[3])]
    # turn, reserve size, in play, mine, feet, circuit, dump, reserve counts, revealed
    assert sum(vector) == 1 + 2 + 2 + 1 + 2 + 1 + 1 + 2 + 2


def test_players_of_one_state_differ_only_in_their_own_part() -> None:
    state = setup_game([1, 2, 3, 4], seed=9, options=Options(upgrades=True))
    vectors = [observe(state, p.name).to_vector() for p in state.players]
    differing = {i for v in vectors for i in range(515) if v[i] != vectors[0][i]}
    assert differing <= set(range(12, 20)) | set(range(278, 283))
    vectors[0][0] = 99.0  # a caller's list is its own
    assert observe(state, "P1").to_vector()[0] == 1.0


def test_an_unknown_player_is_refused() -> None:
    with pytest.raises(ValueError, match="'Zed' is not in the game"):
        observe(setup_game([1, 2], seed=0), "Zed")


# ------------------------------------------------------------------ actions


def test_every_program_has_a_number_and_back() -> None:
    options = Options(upgrades=True)
    assert [program_of(action_id(p), options) for p in ALL_PROGRAMS] == list(ALL_PROGRAMS)
    assert num_actions() == 24
    assert num_actions(options) == 29 == len(ALL_PROGRAMS)
    with pytest.raises(ValueError, match="not one of the 29 actions"):
        program_of(29, options)


@given(setups(expansions=True))
def test_masks_are_exactly_the_legal_programs(state: GameState) -> None:
    for player in state.players:
        if len(player.robots) == 1:
            robot = player.robots[0]
            mask = action_mask(state, robot)
            assert len(mask) == num_actions(state.options)
            legal = [ALL_PROGRAMS[i] for i, bit in enumerate(mask) if bit]
            assert legal == list(legal_programs(state, robot))
            assert player_actions(state, player.name) == [action_id(p) for p in legal]
        else:
            mask = joint_action_mask(state, player.name)
            assert len(mask) == num_joint_actions(state.options)
            pairs = [joint_program_of(i, state.options) for i, bit in enumerate(mask) if bit]
            assert sorted(pairs, key=str) == sorted(
                legal_joint_programs(state, player.name), key=str
            )
        seen = observe(state, player.name).legal_actions()
        for move in player_actions(state, player.name):
            assert seen.count(move) == 1
            programs = programs_of_move(state, player.name, move)
            assert sorted(programs) == list(player.robots)


def test_a_joint_action_numbers_the_lower_robot_first() -> None:
    state = setup_two_robot_game({"Ada": (1, 2), "Bo": (3, 4)}, seed=1)
    first, second = legal_joint_programs(state, "Ada")[5]
    move = joint_action_id(first, second)
    assert programs_of_move(state, "Ada", move) == {1: first, 2: second}


# ------------------------------------------------------------------ returns, turn cap, info


def _finished(seed: int, robots: list[int]) -> GameState:
    rng = random.Random(seed)
    state = setup_game(robots, seed=seed)
    while not state.game_over:
        state = apply_turn(state, random_programs(state, rng))
    return state


@pytest.mark.ruling("R-TURN-CAP")
def test_a_game_cut_off_at_its_turn_cap_is_scored_as_it_stands() -> None:
    state = position(feet={1: (1, 1), 2: (2,)}, dumps={1: (3,), 2: (3,)}, reserve=(4,), turn=6)
    assert (is_terminal(state), is_terminal(state, 6), is_terminal(state, 5)) == (
        False,
        False,
        True,
    )
    assert returns(state, turn_cap=6) == {"P1": 0.0, "P2": 0.0}
    assert returns(state, turn_cap=5) == {"P1": 1.0, "P2": 0.0}
    assert returns(state, "win_loss", turn_cap=5) == {"P1": 1.0, "P2": -1.0}
    assert returns(state, "points", turn_cap=5) == {"P1": 4.0, "P2": 2.0}
    with pytest.raises(ValueError, match="not 'wins'"):
        returns(state, "wins")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a turn cap"):
        returns(state, turn_cap=-1)


def test_the_win_shares_of_a_finished_game_add_up_to_one() -> None:
    for seed in range(5):
        state = _finished(seed, [1, 2, 3, 4])
        shares = returns(state)
        assert sum(shares.values()) == pytest.approx(1.0)
        assert shares == returns(state, turn_cap=1)  # over before the cap: the cap is moot


def test_game_info_describes_both_variants() -> None:
    info = game_info(setup_game([1, 2, 3], seed=0, options=Options(upgrades=True)))
    assert (info.num_actions, info.num_player_actions, info.max_turns) == (29, 29, None)
    two = game_info(setup_two_robot_game({"A": (1, 2), "B": (3, 4)}, seed=0), kind="win_loss")
    assert (two.players, two.robots) == (("A", "B"), ((1, 2), (3, 4)))
    assert (two.num_player_actions, two.min_utility, two.max_utility) == (576, -1.0, 1.0)


# ------------------------------------------------------------------ copies and pickles


def test_copies_of_a_state_are_the_state_and_pickles_keep_the_shared_gears() -> None:
    state = _finished(3, [1, 2, 3, 4, 5, 6, 7, 8])
    assert copy.copy(state) is state
    assert copy.deepcopy(state) is state
    again = pickle.loads(pickle.dumps(state))
    assert again == state
    pieces = [g for robot in again.robots for g in robot.all_gears]
    pieces += [g for dump in again.dumps for g in dump.gears]
    assert pieces
    assert all(any(g is c for c in CANONICAL_GEARS) for g in pieces)
    assert copy.deepcopy(state.robots[0]).all_gears[0] is state.robots[0].all_gears[0]


def test_choices_pickle_and_copy() -> None:
    choices = Choices(
        defence_steals={(1, 2): DefenceSteal("feet", gears(2)[0])},
        assemblies={3: gears(3, 3)},
        splits={Place.dump(4): {1: gears(4), 2: ()}},
    )
    assert pickle.loads(pickle.dumps(choices)) == choices
    assert copy.deepcopy(choices) is choices
    assert copy.copy(choices) is choices


@pytest.mark.parametrize(
    "error",
    [
        OutOfGearsError("plain"),
        InvalidStateError("robot 9 does not exist"),
        SetupError("two robots numbered 3", clause="SET-1"),
        IllegalProgramError(3, "dump 7 is not in play", clause="PRG-2"),
        IllegalChoiceError(None, "no such split", clause="SPL-5"),
        GameOverError(12),
        LogError("game.json", "$.turns[0]", "bad", turn=1, robot=2, clause="PRG-1"),
        LogFieldError("a turn number is 1 to 1000, not 0", "turn", 3),
        GameFileError("game.json", "$.players", "missing"),
    ],
    ids=lambda error: type(error).__name__,
)
def test_every_error_pickles_and_copies_with_its_attributes(error: Exception) -> None:
    for again in (pickle.loads(pickle.dumps(error)), copy.deepcopy(error)):
        assert type(again) is type(error)
        assert (str(again), again.args) == (str(error), error.args)
        assert vars(again) == vars(error)


def test_every_error_class_of_the_package_derives_from_the_root() -> None:
    import outofgears.errors as errors

    classes = [
        value
        for value in vars(errors).values()
        if isinstance(value, type) and issubclass(value, Exception)
    ]
    assert len(classes) >= 6
    assert all(issubclass(cls, OutOfGearsError) for cls in classes)
