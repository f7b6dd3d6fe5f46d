"""``outofgears tournament`` (issue 13, part 8), through click's CliRunner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from outofgears.cli.main import main
from outofgears.play.tournament import TournamentGame, play_tournament, round_seeds, seating
from outofgears.rules.model import Options


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["tournament", *args])
    return result.exit_code, result.output


def test_the_json_report_gives_each_bot_its_win_share_and_standard_error() -> None:
    code, output = _run("random", "greedy:2", "--games", "4", "--seed", "3", "--format", "json")
    assert code == 0, output
    report = json.loads(output)
    assert (report["games"], report["seed"], report["turn_cap"]) == (4, 3, 100)
    assert [row["bot"] for row in report["bots"]] == ["random", "greedy:2"]
    shares = [row["win_share"] for row in report["bots"]]
    assert sum(shares) == pytest.approx(1.0)
    assert all(row["win_share_se"] is not None for row in report["bots"])
    assert all(row["points"] > 0 for row in report["bots"])


def test_the_text_report_and_the_same_results_with_workers() -> None:
    args = ("random", "random", "greedy:1", "--games", "3", "--seed", "9")
    code, text = _run(*args)
    assert code == 0, text
    assert text.splitlines()[0] == "3 games, seed 9, every bot in every seat once"
    assert "greedy:1" in text
    code, pooled = _run(*args, "--workers", "2")
    assert code == 0, pooled
    assert _without_times(pooled) == _without_times(text)
    assert text.splitlines()[1].split()[-1] == "ms/move"


def _without_times(text: str) -> list[str]:
    """The report's lines less their last column (ms per move, a timing)."""
    return [
        line.rsplit(None, 1)[0] if line[:2].strip().isdigit() else line
        for line in text.splitlines()
    ]


def test_a_bot_given_as_module_and_class_plays_and_reports_its_time_per_move() -> None:
    code, output = _run(
        "outofgears.play.bots:LookaheadBot",
        "random",
        "--games",
        "2",
        "--seed",
        "4",
        "--format",
        "json",
    )
    assert code == 0, output
    rows = json.loads(output)["bots"]
    assert rows[0]["bot"] == "outofgears.play.bots:LookaheadBot"
    assert all(row["ms_per_move"] >= 0 for row in rows)
    assert rows[0]["ms_per_move"] > rows[1]["ms_per_move"]


def test_every_bot_plays_every_seat_once_per_round() -> None:
    seats = [seating(4, game) for game in range(1, 9)]
    for bot in range(4):
        assert sorted(s.index(bot) for s in seats[:4]) == [0, 1, 2, 3]
    assert seats[:4] == seats[4:]


def test_a_game_depends_only_on_the_seed_and_its_number() -> None:
    job = TournamentGame(("random", "greedy:1"), 5, 100, Options())
    assert job(2) == job(2)
    assert round_seeds(5, 1) != round_seeds(5, 2)
    assert round_seeds(5, 1) != round_seeds(6, 1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("random", "--games", "2", "--seed", "1"), "2 to 8 bots, not 1"),
        (("random", "chess", "--games", "2", "--seed", "1"), "unknown bot 'chess'"),
        (("random", "greedy", "--games", "3", "--seed", "1"), "a multiple of the 2 bots"),
        (("random", "mcts:x", "--games", "2", "--seed", "1"), "whole number from 1 to 20,000"),
        (("random", "mcts:99999999999", "--games", "2", "--seed", "1"), "from 1 to 20,000"),
        (("random", "mcts:", "--games", "2", "--seed", "1"), "from 1 to 20,000"),
        (("random:3", "mcts", "--games", "2", "--seed", "1"), "random takes no number"),
        (("random", "nowhere_xyz:Bot", "--games", "2", "--seed", "1"), "cannot be imported"),
        (("sys:exit", "random", "--games", "2", "--seed", "1"), "building it failed (SystemExit)"),
    ],
)
def test_bad_arguments_exit_with_status_2_and_a_message(
    args: tuple[str, ...], message: str
) -> None:
    code, output = _run(*args)
    assert code == 2
    assert message in output


def test_the_command_prints_what_play_tournament_gives_with_the_same_seed() -> None:
    code, output = _run("random", "greedy:2", "--games", "4", "--seed", "11", "--format", "json")
    assert code == 0, output
    printed = json.loads(output)
    result = play_tournament(["random", "greedy:2"], games=4, seed=11)
    assert printed["cut_off"] == result.cut_off
    assert [
        (row["bot"], row["seat_order"], row["win_share"], row["win_share_se"], row["points"])
        for row in printed["bots"]
    ] == [(s.bot, s.seat_order, s.win_share, s.win_share_se, s.points) for s in result.standings]
