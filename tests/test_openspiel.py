"""The OpenSpiel adapter (extra ``outofgears[openspiel]``) passes OpenSpiel's own tests."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import mcts  # noqa: E402

import outofgears.play.openspiel  # noqa: E402  (registers python_out_of_gears)

assert outofgears.play.openspiel


@pytest.mark.parametrize(
    "game_string",
    [
        "python_out_of_gears",
        "python_out_of_gears(robots=3,seed=7,upgrades=True)",
        "python_out_of_gears(robots=6,seed=2,two_robots=True)",
        "python_out_of_gears(robots=4,seed=5,two_robots=True,upgrades=True)",
    ],
)
def test_the_game_passes_openspiels_random_simulation_test(game_string: str) -> None:
    game = pyspiel.load_game(game_string)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("game_string", "simulations"),
    [
        ("python_out_of_gears(robots=2,seed=3)", 20),
        ("python_out_of_gears(robots=4,seed=1,two_robots=True,turn_cap=15)", 10),
    ],
    ids=["base game", "two-robot variant"],
)
def test_openspiels_python_mcts_plays_a_whole_game(game_string: str, simulations: int) -> None:
    game = pyspiel.convert_to_turn_based(pyspiel.load_game(game_string))
    rng = np.random.RandomState(3)
    bots = [
        mcts.MCTSBot(game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        for _ in range(2)
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=chances)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_a_players_observation_is_its_vector() -> None:
    game = pyspiel.load_game("python_out_of_gears(robots=3,seed=0)")
    state = game.new_initial_state()
    tensor = state.observation_tensor(1)
    assert len(tensor) == 515
    assert tensor[12:20] == [0, 1, 0, 0, 0, 0, 0, 0]
    assert state.observation_string(1).startswith("P2 (robot 2), before turn 1")


def test_the_two_robot_variant_has_a_player_for_each_pair_of_robots() -> None:
    game = pyspiel.load_game("python_out_of_gears(robots=6,seed=2,two_robots=True)")
    assert game.num_players() == 3
    state = game.new_initial_state()
    legal = state.legal_actions(0)
    # 18 programs a robot (3 cards x 6 numbers); VAR-2: a player's two robots never lay the
    # same card, so 6 ordered pairs of cards x 6 x 6 numbers.
    assert len(legal) == 6 * 6 * 6
    assert "robot 1" in state.action_to_string(0, legal[0])
    assert "robot 4" in state.action_to_string(0, legal[0])


# ------------------------------------------------------------------ chance, seed, observers

from collections import Counter  # noqa: E402

from outofgears.play.openspiel import OutOfGearsState  # noqa: E402
from outofgears.rules.gears import gear_ranks  # noqa: E402
from outofgears.rules.model import Options  # noqa: E402
from outofgears.rules.setup import setup_seated_game  # noqa: E402


def _dealt(game: Any, rng: Any) -> Any:
    """A state after chance's deal, outcomes drawn with their probabilities."""
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, chances = zip(*state.chance_outcomes(), strict=True)
        assert sum(chances) == pytest.approx(1.0)
        state.apply_action(int(rng.choice(outcomes, p=chances)))
    return state


def test_every_episode_is_a_new_deal_drawn_by_chance() -> None:
    game = pyspiel.load_game("python_out_of_gears(robots=4)")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    rng = np.random.RandomState(0)
    deals = {_dealt(game, rng).observation_string(0) for _ in range(5)}
    assert len(deals) == 5


def test_the_deals_chance_outcomes_are_the_reserves_counts() -> None:
    game = pyspiel.load_game("python_out_of_gears(robots=3,upgrades=True)")
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 11 / 33), (1, 11 / 33), (2, 11 / 33)]
    state.apply_action(1)
    assert state.chance_outcomes() == [(0, 11 / 32), (1, 10 / 32), (2, 11 / 32)]
    with pytest.raises(pyspiel.SpielError, match="not a chance outcome"):
        state.apply_action(7)


def test_the_seed_parameter_replays_a_deal_and_leaves_the_draws_to_chance() -> None:
    game = pyspiel.load_game("python_out_of_gears(robots=3,seed=7,upgrades=True)")
    state = game.new_initial_state()
    assert not state.is_chance_node()
    seeded = setup_seated_game(3, seed=7, options=Options(upgrades=True))
    assert state.state.dumps == seeded.dumps
    assert state.state.players == seeded.players
    assert Counter(state.state.reserve) == Counter(seeded.reserve)
    assert state.state.reserve != seeded.reserve  # the order is not kept: chance draws


def _played_until_a_draw(game_string: str, seed: int) -> Any:
    game = pyspiel.load_game(game_string)
    rng = np.random.RandomState(seed)
    state = _dealt(game, rng)
    while not state.is_chance_node():
        state.apply_actions(
            [int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())]
        )
    return state


def test_a_cloned_state_holds_no_order_of_the_reserve_beyond_chances_draws() -> None:
    state = _played_until_a_draw("python_out_of_gears(robots=4)", 1)
    assert isinstance(state, OutOfGearsState)
    undrawn = gear_ranks(state.clone().state.reserve[len(state.drawn) :])
    assert undrawn == sorted(undrawn)
    # Two clones follow different draws: the future is chance's, not the state's.
    futures = set()
    for outcome, _ in state.chance_outcomes():
        child = state.clone()
        child.apply_action(outcome)
        futures.add(str(child.state.reserve[:1]))
    assert len(futures) == len(state.chance_outcomes()) > 1


def test_the_information_state_recalls_the_players_card_and_every_public_event() -> None:
    game = pyspiel.load_game("python_out_of_gears(robots=3,upgrades=True,turn_cap=30)")
    assert game.get_type().provides_information_state_string
    rng = np.random.RandomState(5)
    state = _dealt(game, rng)
    seen = []
    for _ in range(3):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=chances)))
            continue
        seen.append(state.information_state_string(0))
        state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(3)])
    final = state.information_state_string(0)
    assert all(final.startswith(earlier) for earlier in seen)  # perfect recall: it only grows
    cards = [state.information_state_string(p).splitlines()[0] for p in range(3)]
    assert all("dealt" in line for line in cards)
    assert len(set(cards)) == 3
    assert state.information_state_string(1).splitlines()[1:] == final.splitlines()[1:]
    with pytest.raises(pyspiel.SpielError, match="no information-state tensor"):
        state.information_state_tensor(0)


def test_the_public_observer_gives_every_player_the_same_and_nothing_private() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_out_of_gears(robots=3,seed=2,upgrades=True)")
    state = game.new_initial_state()
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    tensors = []
    for player in range(3):
        public.set_from(state, player)
        tensors.append(public.tensor.copy())
        text = public.string_from(state, player)
        assert "holding" not in text
    assert all((tensor == tensors[0]).all() for tensor in tensors)
    assert tensors[0][12:20].sum() == 0
    assert tensors[0][278:283].sum() == 0
    assert state.observation_tensor(0)[278:283] != [0] * 5  # the default shows the own card
    with pytest.raises(pyspiel.SpielError, match="not"):
        make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=False,
                public_info=True,
                private_info=pyspiel.PrivateInfoType.ALL_PLAYERS,
            ),
        )


def test_bad_actions_players_and_parameters_raise_the_documented_errors() -> None:
    game = pyspiel.load_game("python_out_of_gears(robots=3,seed=1)")
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError):
        state.apply_actions([23, 0, 0])  # harvest 8: not in play
    with pytest.raises(pyspiel.SpielError):
        state.apply_actions([0, 0])
    with pytest.raises(pyspiel.SpielError):
        state.apply_actions([999, 0, 0])
    with pytest.raises(pyspiel.SpielError):
        state.observation_string(5)
    with pytest.raises(pyspiel.SpielError):
        state.legal_actions(-7)
    for bad in ("robots=9", "turn_cap=0", "seed=-2", "two_robots=True,robots=3"):
        with pytest.raises((pyspiel.SpielError, ValueError)):
            pyspiel.load_game(f"python_out_of_gears({bad})")


def test_shimmys_wrapper_keeps_the_game_parameters_and_deals_by_its_seed() -> None:
    shimmy = pytest.importorskip("shimmy")
    from pettingzoo.test import api_test

    def wrapped() -> Any:
        return shimmy.OpenSpielCompatibilityV0(
            game_name="python_out_of_gears", config={"robots": 3, "turn_cap": 20}
        )

    env = wrapped()
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    first = env.game_state.observation_string(0)
    env.reset(seed=1)
    assert env.game_state.observation_string(0) == first
    env.reset(seed=2)
    assert env.game_state.observation_string(0) != first
    api_test(wrapped(), num_cycles=60)


def test_the_fast_observation_tensor_is_the_observers_tensor() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_out_of_gears(robots=5,upgrades=True)")
    observer = make_observation(game)
    state = _played_until_a_draw("python_out_of_gears(robots=5,upgrades=True)", 3)
    outcomes = state.chance_outcomes()
    state.apply_action(outcomes[0][0])
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for player in range(5):
        observer.set_from(state, player)
        assert state.observation_tensor(player) == observer.tensor.tolist()
        assert observer.string_from(state, player) == state.observation_string(player)
