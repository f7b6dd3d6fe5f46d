"""``outofgears simulate``: random games as JSON Lines logs that replay exactly, and statistics."""

from __future__ import annotations

import io
import json
import math
import os
import stat
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from outofgears.cli import simulate as simulate_module
from outofgears.cli.main import main
from outofgears.cli.simulate import (
    GameOutcome,
    SimulationStats,
    game_seeds,
    simulate_game,
    stats_text,
)
from outofgears.judge.replay import replay_log
from outofgears.log import GameLog, read_log_text
from outofgears.rules.model import Options
from outofgears.rules.programs import UpgradeProgram
from outofgears.rules.scoring import player_scores, winners
from outofgears.rules.setup import seat_players


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, ["simulate", *args])


def logs_of(text: str) -> list[GameLog]:
    lines = text.splitlines()
    return [read_log_text(line, f"line {n}") for n, line in enumerate(lines, 1)]


@pytest.mark.parametrize(
    ("flags", "robots", "options", "two_robots"),
    [
        ((), 4, Options(), False),
        (("--two-robots", "--upgrades"), 6, Options(upgrades=True), True),
        (
            ("--upgrades", "--jolly", "--three-point", "--pad-reserve"),
            3,
            Options(upgrades=True, jolly_gears=True, three_point_gears=True, pad_reserve=True),
            False,
        ),
        (("--jolly",), 8, Options(jolly_gears=True), False),
    ],
)
def test_every_simulated_game_replays_to_the_state_the_simulation_reached(
    tmp_path: Path,
    flags: tuple[str, ...],
    robots: int,
    options: Options,
    two_robots: bool,
) -> None:
    out = tmp_path / "games.jsonl"
    result = invoke("--games", "12", "--robots", str(robots), "--seed", "5", "-o", str(out), *flags)
    assert result.exit_code == 0, result.output
    logs = logs_of(out.read_text(encoding="utf-8"))
    assert len(logs) == 12
    for number, log in enumerate(logs, 1):
        assert log.start.seed == game_seeds(5, number)[0]
        assert log.players == seat_players(robots, two_robots)
        assert log.options == options
        replayed = replay_log(log)
        assert replayed.agrees
        assert replayed.final.game_over
        recorded = log.turns[-1].recorded
        assert recorded is not None
        assert recorded.scores == {s.player: s.points for s in player_scores(replayed.final)}
        # The state the simulation reached, gear for gear, is the one replay reaches.
        played = simulate_game(5, number, robots, two_robots=two_robots, options=options)
        assert replayed.final == played.final
        assert played.log == log


def test_a_simulated_game_replays_through_the_command_line(tmp_path: Path) -> None:
    result = invoke("--games", "3", "--robots", "5", "--seed", "11")
    assert result.exit_code == 0
    for number, line in enumerate(result.stdout.splitlines(), 1):
        game = tmp_path / f"game{number}.json"
        game.write_text(line, encoding="utf-8")
        replayed = CliRunner().invoke(main, ["replay", str(game), "--quiet"])
        assert replayed.exit_code == 0, replayed.output
        assert replayed.output.endswith("The log agrees with the rules.\n")


def test_the_upgrade_policy_lays_cards_in_simulated_games() -> None:
    result = invoke("--games", "5", "--robots", "5", "--seed", "2", "--upgrades")
    laid = [
        program
        for log in logs_of(result.stdout)
        for turn in log.turns
        for program in turn.programs.values()
        if isinstance(program, UpgradeProgram)
    ]
    assert laid  # and they replay: see the test above


def test_the_same_arguments_give_byte_identical_logs(tmp_path: Path) -> None:
    args = ("--games", "6", "--robots", "4", "--seed", "99", "--two-robots", "--jolly")
    first, second = invoke(*args), invoke(*args)
    assert first.exit_code == second.exit_code == 0
    assert first.stdout_bytes == second.stdout_bytes
    assert first.stdout_bytes.count(b"\n") == 6
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    invoke(*args, "-o", str(a))
    invoke(*args, "-o", str(b))
    assert a.read_bytes() == b.read_bytes() == first.stdout_bytes


def test_a_game_depends_only_on_the_seed_and_its_number() -> None:
    five = invoke("--games", "5", "--robots", "3", "--seed", "8").stdout.splitlines()
    two = invoke("--games", "2", "--robots", "3", "--seed", "8").stdout.splitlines()
    other = invoke("--games", "2", "--robots", "3", "--seed", "9").stdout.splitlines()
    assert five[:2] == two
    assert other[0] != two[0]
    assert len(set(five)) == 5


def test_logs_on_standard_output_send_the_statistics_to_standard_error() -> None:
    result = invoke("--games", "4", "--robots", "4", "--seed", "1")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert all(json.loads(line)["format"] == "outofgears-log/1" for line in lines)
    assert result.stderr.startswith("Simulated 4 games with the random policy, seed 1: ")
    assert "4 finished, 0 stopped at the 500-turn cap" in result.stderr
    assert "Mean turns per game: " in result.stderr
    assert (
        "Seat  Robots  Wins (shared)  Win rate  Win share ± SE    Mean score  Min  Max"
        in result.stderr
    )
    assert [line.split()[0] for line in result.stderr.splitlines()[3:7]] == [
        "P1",
        "P2",
        "P3",
        "P4",
    ]
    assert "games/s" in result.stderr


def test_logs_in_a_file_leave_the_statistics_on_standard_output(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = invoke("--games", "4", "--robots", "4", "--seed", "1", "-o", str(out))
    assert result.exit_code == 0
    assert result.stderr == ""
    assert f"Logs written to {out} (JSON Lines, one game per line)" in result.stdout
    assert len(out.read_text(encoding="utf-8").splitlines()) == 4
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]  # no temporary file left


def test_json_statistics_count_wins_scores_and_turns(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = invoke(
        "--games",
        "10",
        "--robots",
        "4",
        "--seed",
        "4",
        "--two-robots",
        "--format",
        "json",
        "-o",
        str(out),
    )
    assert result.exit_code == 0
    stats = json.loads(result.stdout)
    logs = logs_of(out.read_text(encoding="utf-8"))
    finals = [replay_log(log).final for log in logs]
    assert stats["games"] == stats["finished"] == 10
    assert stats["unfinished"] == 0
    assert stats["mean_turns"] == round(sum(len(log.turns) for log in logs) / 10, 2)
    assert [seat["player"] for seat in stats["seats"]] == ["P1", "P2"]
    assert [seat["robots"] for seat in stats["seats"]] == [[1, 3], [2, 4]]
    every = [s.points for final in finals for s in player_scores(final)]
    assert stats["scores"] == {
        "mean": round(sum(every) / len(every), 2),
        "min": min(every),
        "max": max(every),
    }
    for seat in stats["seats"]:
        won = [final for final in finals if seat["player"] in winners(final)]
        points = [
            next(s.points for s in player_scores(final) if s.player == seat["player"])
            for final in finals
        ]
        assert seat["wins"] == len(won)
        assert seat["shared_wins"] == sum(1 for final in won if len(winners(final)) > 1)
        assert seat["win_rate"] == round(len(won) / 10, 4)
        split = sum(Fraction(1, len(winners(final))) for final in won)
        assert seat["split_wins"] == round(float(split), 4)
        assert seat["win_share"] == round(float(split / 10), 4)
        assert (seat["min_score"], seat["max_score"]) == (min(points), max(points))
        assert seat["mean_score"] == round(sum(points) / 10, 2)
    assert stats["output"] == str(out)
    assert stats["turn_cap"] == 500


def test_json_statistics_go_to_standard_error_when_logs_go_to_standard_output() -> None:
    result = invoke("--games", "2", "--robots", "2", "--seed", "0", "--format", "json")
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 2
    stats = json.loads(result.stderr)
    assert stats["games"] == 2
    assert stats["output"] is None
    assert sum(seat["wins"] for seat in stats["seats"]) >= 2


def test_each_seat_gets_its_win_share_with_its_standard_error(tmp_path: Path) -> None:
    # Seed 8, 12 games of 4 robots: P1 and P2 share one win, every other win is alone.
    out = tmp_path / "games.jsonl"
    args = ("--games", "12", "--robots", "4", "--seed", "8", "-o", str(out))
    result = invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    n = stats["finished"]
    assert n == 12
    finals = [replay_log(log).final for log in logs_of(out.read_text(encoding="utf-8"))]
    seats = {seat["player"]: seat for seat in stats["seats"]}
    # By hand: 1.5, 5.5, 2 and 3 wins, the shared one counted half to each of its two winners.
    assert [seats[p]["wins"] for p in ("P1", "P2", "P3", "P4")] == [2, 6, 2, 3]
    assert [seats[p]["shared_wins"] for p in ("P1", "P2", "P3", "P4")] == [1, 1, 0, 0]
    assert [seats[p]["split_wins"] for p in ("P1", "P2", "P3", "P4")] == [1.5, 5.5, 2.0, 3.0]
    # P1: p = 1.5 / 12 = 0.125, SE = sqrt(0.125 * 0.875 / 12) = 0.0955 (4 places).
    assert seats["P1"]["win_share"] == 0.125
    assert seats["P1"]["win_share_se"] == 0.0955
    assert seats["P4"]["win_share_se"] == round(math.sqrt(1 / 4 * 3 / 4 / 12), 4) == 0.125
    for name, seat in seats.items():
        split = sum(Fraction(1, len(winners(f))) for f in finals if name in winners(f))
        p = split / n
        assert seat["split_wins"] == round(float(split), 4)
        assert seat["win_share"] == round(float(p), 4)
        assert seat["win_share_se"] == round(math.sqrt(p * (1 - p) / n), 4)
        assert seat["win_rate"] == round(seat["wins"] / n, 4)  # a shared win counted whole
    assert sum(Fraction(seat["split_wins"]) for seat in seats.values()) == n
    text = invoke(*args, "--force").stdout
    assert "P1    1          2 (   1)     16.7%      12.5% ± 9.5%  " in text
    assert "P4    4          3 (   0)     25.0%      25.0% ± 12.5% " in text


def test_win_shares_split_a_shared_win_among_its_winners() -> None:
    stats = SimulationStats.for_players(seat_players(3))
    for won in (("P1",), ("P1", "P2"), ("P1", "P2", "P3"), ("P3",)):
        scores = tuple((name, 10 if name in won else 5) for name in ("P1", "P2", "P3"))
        stats.add_outcome(GameOutcome(turns=5, finished=True, scores=scores, winners=won))
    stats.add_outcome(GameOutcome(turns=500, finished=False))  # not counted: unfinished
    seats = {seat["player"]: seat for seat in stats.as_json()["seats"]}
    # P1: 1 + 1/2 + 1/3 = 11/6 wins of 4, p = 11/24; P2: 1/2 + 1/3 = 5/6, p = 5/24;
    # P3: 1/3 + 1 = 4/3, p = 8/24. The shares add up to 24/24.
    for name, p in (("P1", Fraction(11, 24)), ("P2", Fraction(5, 24)), ("P3", Fraction(8, 24))):
        assert seats[name]["split_wins"] == round(float(4 * p), 4)
        assert seats[name]["win_share"] == round(float(p), 4)
        assert seats[name]["win_share_se"] == round(math.sqrt(p * (1 - p) / 4), 4)
    assert seats["P1"]["win_share_se"] == 0.2491  # sqrt(11/24 * 13/24 / 4)
    assert [seats[name]["wins"] for name in ("P1", "P2", "P3")] == [3, 2, 2]
    assert [seats[name]["win_rate"] for name in ("P1", "P2", "P3")] == [0.75, 0.5, 0.5]


def test_without_a_finished_game_there_is_no_win_share_nor_error() -> None:
    stats = SimulationStats.for_players(seat_players(2))
    stats.add_outcome(GameOutcome(turns=2, finished=False))
    for seat in stats.as_json()["seats"]:
        assert (seat["win_share"], seat["win_share_se"], seat["split_wins"]) == (None, None, 0.0)
    text = stats_text(stats, seed=1, cap=2, output=None)
    assert any(
        line.startswith("P1    1          0 (   0)         -          - ± -  ") for line in text
    )


def test_a_game_still_going_at_the_turn_cap_is_stopped_and_counted(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = invoke(
        "--games", "3", "--robots", "4", "--seed", "1", "--max-turns", "2", "-o", str(out)
    )
    assert result.exit_code == 0
    assert "0 finished, 3 stopped at the 2-turn cap" in result.stdout
    for log in logs_of(out.read_text(encoding="utf-8")):
        assert [turn.turn for turn in log.turns] == [1, 2]
        replayed = replay_log(log)
        assert replayed.agrees
        assert not replayed.final.game_over


def test_no_progress_bar_when_standard_error_is_not_a_terminal(tmp_path: Path) -> None:
    result = invoke("--games", "3", "--robots", "3", "--seed", "1", "-o", str(tmp_path / "g"))
    assert result.exit_code == 0
    assert result.stderr == ""
    assert "Simulating" not in result.output


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_progress_bar_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = Terminal()
    monkeypatch.setattr(simulate_module, "progress_stream", lambda: terminal)
    result = invoke("--games", "3", "--robots", "3", "--seed", "1", "-o", str(tmp_path / "g"))
    assert result.exit_code == 0
    assert "Simulating" in terminal.getvalue()
    assert "100%" in terminal.getvalue()
    assert "Simulating" not in result.output


def test_an_existing_file_is_replaced_only_with_force(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    out.write_text("keep me\n", encoding="utf-8")
    refused = invoke("--games", "1", "--robots", "2", "--seed", "1", "-o", str(out))
    assert refused.exit_code == 2
    assert f"{out} exists; use --force to overwrite it" in refused.output
    assert out.read_text(encoding="utf-8") == "keep me\n"
    forced = invoke("--games", "1", "--robots", "2", "--seed", "1", "-o", str(out), "--force")
    assert forced.exit_code == 0
    assert len(logs_of(out.read_text(encoding="utf-8"))) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]


def test_an_output_file_in_a_missing_directory_gives_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "nowhere" / "games.jsonl"
    result = invoke("--games", "1", "--robots", "2", "--seed", "1", "-o", str(out))
    assert result.exit_code == 2
    assert "no such directory" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--games", "1", "--robots", "1", "--seed", "1"), "'--robots': 1 is not in the range"),
        (("--games", "1", "--robots", "9", "--seed", "1"), "'--robots': 9 is not in the range"),
        (("--games", "0", "--robots", "4", "--seed", "1"), "'--games': 0 is not in the range"),
        (("--games", "x", "--robots", "4", "--seed", "1"), "'x' is not a valid integer"),
        (("--games", "1", "--robots", "4", "--seed", "-1"), "'--seed': -1 is not in the range"),
        (("--robots", "4", "--seed", "1"), "Missing option '--games'"),
        (("--games", "1", "--seed", "1"), "Missing option '--robots'"),
        (("--games", "1", "--robots", "4"), "Missing option '--seed'"),
        (
            ("--games", "1", "--robots", "5", "--seed", "1", "--two-robots"),
            "--two-robots needs 4, 6 or 8 robots",
        ),
        (
            ("--games", "1", "--robots", "2", "--seed", "1", "--two-robots"),
            "--two-robots needs 4, 6 or 8 robots",
        ),
        (
            ("--games", "1", "--robots", "8", "--seed", "1", "--pad-reserve"),
            "--pad-reserve needs a colour that is not in play",
        ),
        (("--games", "1", "--robots", "4", "--seed", "1", "--max-turns", "0"), "--max-turns"),
        (("--games", "1", "--robots", "4", "--seed", "1", "--max-turns", "1001"), "--max-turns"),
        (("--games", "1", "--robots", "4", "--seed", "1", "--format", "xml"), "'xml' is not one"),
        (("--games", "1", "--robots", "4", "--seed", "1", "--colour", "red"), "No such option"),
    ],
)
def test_bad_arguments_give_one_message_and_exit_2(args: tuple[str, ...], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_the_output_file_gets_the_ordinary_permissions(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    mask = os.umask(0o022)
    os.umask(mask)
    assert invoke("--games", "1", "--robots", "2", "--seed", "1", "-o", str(out)).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask


@pytest.mark.parametrize("flags", [(), ("--two-robots", "--upgrades", "--jolly")])
def test_two_workers_write_the_same_logs_and_statistics_as_one(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    outputs = []
    for workers in ("1", "2"):
        target = tmp_path / f"games-{workers}.jsonl"
        result = invoke(
            "--games", "9", "--robots", "4", "--seed", "11", *flags,
            "--workers", workers, "-o", str(target), "--format", "json",
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        del data["seconds"], data["games_per_second"], data["output"]
        outputs.append((target.read_text(encoding="utf-8"), data))
    assert outputs[0] == outputs[1]
    assert len(outputs[0][0].splitlines()) == 9


def test_the_batches_cover_every_game_once_in_order() -> None:
    for games, workers in ((1, 2), (7, 2), (1000, 2), (5000, 3), (100_000, 2)):
        batches = simulate_module.game_batches(games, workers)
        assert [n for batch in batches for n in batch] == list(range(1, games + 1))
        assert max(len(batch) for batch in batches) <= 64


class _InstantPool:
    """A stand-in for ProcessPoolExecutor that plays each batch at once and counts how many
    batches are submitted but not yet taken by the parent."""

    most_in_flight = 0

    def __init__(self, max_workers: int) -> None:
        self.in_flight = 0

    def __enter__(self) -> _InstantPool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, job: Any, batch: range) -> Any:
        from concurrent.futures import Future

        pool = self
        pool.in_flight += 1
        _InstantPool.most_in_flight = max(_InstantPool.most_in_flight, pool.in_flight)
        future: Future[Any] = Future()
        future.set_result(job(batch))
        original = future.result

        def result(timeout: float | None = None) -> Any:
            pool.in_flight -= 1
            return original(timeout)

        future.result = result  # type: ignore[method-assign]
        return future


def test_a_long_simulation_keeps_only_a_few_batches_per_worker_in_flight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import concurrent.futures

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _InstantPool)
    _InstantPool.most_in_flight = 0
    job = simulate_module._GameJob(5, 2, False, Options(), 40)
    games = 600  # 75 batches of 4 games for 2 workers
    played = list(simulate_module.played_games(job, games, 2))
    assert played == list(simulate_module.played_games(job, games, 1))
    assert 1 < _InstantPool.most_in_flight <= 2 * simulate_module.BATCHES_PER_WORKER


def test_one_worker_hands_out_the_first_games_before_playing_the_rest() -> None:
    """A reader that goes away (``| head``) stops the games: with one worker the games are
    played in batches, and the first batch's lines come out before the second is played."""
    played: list[range] = []

    def job(numbers: range) -> list[tuple[str, Any]]:
        played.append(numbers)
        return [(f"game {n}", None) for n in numbers]

    lines = simulate_module.played_games(job, 3000, 1)
    assert next(lines)[0] == "game 1"
    assert len(played) == 1
    assert len(played[0]) < 3000


def test_more_workers_than_batches_start_no_more_processes_than_batches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[int] = []

    class Pool:
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)

        def __enter__(self) -> Pool:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def submit(self, job: Any, batch: range) -> Any:
            from concurrent.futures import Future

            future: Future[Any] = Future()
            future.set_result(job(batch))
            return future

    monkeypatch.setattr("concurrent.futures.ProcessPoolExecutor", Pool)

    def job(numbers: range) -> list[tuple[str, Any]]:
        return [(str(n), None) for n in numbers]

    games = list(simulate_module.played_games(job, 2, 256))
    assert [line for line, _ in games] == ["1", "2"]
    assert started == [len(simulate_module.game_batches(2, 256))] == [2]
