"""The OpenSpiel adapter (extra ``outofgears[openspiel]``) passes OpenSpiel's own tests."""

from __future__ import annotations

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
        state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_a_players_observation_is_its_vector() -> None:
    game = pyspiel.load_game("python_out_of_gears(robots=3)")
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
