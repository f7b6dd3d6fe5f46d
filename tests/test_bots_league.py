"""The league of benchmarks/league.py (issue 36): its cells and tables, on a few tiny games
(the bots alone; exploiters need the bench extra)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.league import SHIPPED, Seat, markdown, play_league, shipped_bots


def test_every_seat_meets_two_of_every_other_bot_in_every_seat() -> None:
    bots = [Seat("random", "random"), Seat("greedy", "greedy:1")]
    league = play_league(bots, bots, games=3, seed=2)
    assert sorted(league.cells) == [("greedy", "random"), ("random", "greedy")]
    for cell in league.cells.values():
        assert len(cell.shares) == 3
        assert all(0.0 <= share <= 1.0 for share in cell.shares)
    assert league.moves["random"] > 0
    assert league.moves["greedy"] > 0
    table = markdown(league)
    assert "| `random` | — | " in table
    assert "| `greedy` | 1.000 ± 0.000 | — |" in table or "| `greedy` | 0." in table


def test_the_games_the_turn_cap_cuts_are_counted_in_the_table() -> None:
    bots = [Seat("random", "random"), Seat("first", "random")]
    league = play_league(bots, bots, games=3, seed=1, turn_cap=2)
    assert all(cell.cut_off == 3 for cell in league.cells.values())
    table = markdown(league)
    assert table.count("(3 cut)") == 2
    rows = [line for line in table.splitlines() if line.startswith("| `random` | ")]
    assert rows[-1].endswith(" | 3 | 3 |")  # 3 games of its row, all cut
    assert "turn cap 2" in table


def test_the_shipped_bots_are_the_leagues_by_default() -> None:
    assert shipped_bots()[: len(SHIPPED)] == list(SHIPPED)


def test_a_saved_learner_seated_in_the_league_plays_as_the_environment_evaluates_it(
    tmp_path: Path,
) -> None:
    pytest.importorskip("sb3_contrib")  # the bench extra
    from sb3_contrib import MaskablePPO

    from benchmarks.exploitability import save
    from benchmarks.league import exploiters
    from outofgears.play.gym import OutOfGearsEnv

    env = OutOfGearsEnv(3, opponents="random", seat=2)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=16, n_epochs=1, seed=3)
    model.learn(total_timesteps=32)
    save(model, tmp_path, "mcts:50")
    (seat,) = exploiters(tmp_path)
    assert seat.name == "exploiter:mcts:50"
    assert callable(seat.source)
    bot = seat.source()
    observation, _ = env.reset(seed=5)
    for _ in range(6):
        expected, _ = model.predict(
            observation, action_masks=env.action_masks(), deterministic=True
        )
        assert bot.act(env.learner_observation(), random.Random(0)) == int(expected)
        observation, _, ended, cut, _ = env.step(int(expected))
        if ended or cut:
            break
