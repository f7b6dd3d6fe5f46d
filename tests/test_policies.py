"""The documented random policy always plays legal programs."""

from __future__ import annotations

import random

import pytest

from outofgears import Options, UpgradeProgram, apply_turn, setup_game, setup_two_robot_game
from outofgears.play.policies import random_programs
from outofgears.rules.programs import validate_programs


@pytest.mark.parametrize("seed", range(20))
def test_random_policy_plays_legal_programs_with_upgrades_to_the_end(seed: int) -> None:
    options = Options(upgrades=True, jolly_gears=True)
    state = (
        setup_two_robot_game({"A": (1, 2), "B": (3, 4)}, seed=seed, options=options)
        if seed % 2
        else setup_game([1, 2, 3, 5], seed=seed, options=options)
    )
    rng = random.Random(seed)
    laid_upgrades = 0
    while not state.game_over and state.turn < 300:
        programs = random_programs(state, rng)
        validate_programs(state, programs)
        laid_upgrades += sum(isinstance(p, UpgradeProgram) for p in programs.values())
        state = apply_turn(state, programs)
    assert laid_upgrades <= len(state.players)
    assert all(player.upgrade is None for player in state.players) == (
        laid_upgrades == len(state.players)
    )


def test_random_policy_without_upgrades_lays_only_action_cards() -> None:
    state = setup_game([1, 2, 3], seed=1)
    rng = random.Random(2)
    for _ in range(30):
        assert not any(isinstance(p, UpgradeProgram) for p in random_programs(state, rng).values())
