"""``outofgears table``: the log made or resumed, the links printed, the key file kept private,
and the app handed to uvicorn (not run: the protocol has its own tests)."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from click.testing import CliRunner

from outofgears.cli.main import main


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What uvicorn would have served, instead of serving it."""
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(
        uvicorn, "run", lambda app, **options: calls.append({"app": app, **options})
    )
    return calls


def links(output: str) -> dict[str, str]:
    return {
        line.split(": ")[0]: line.split(": ")[1] for line in output.splitlines() if "/s/" in line
    }


def test_a_new_table_writes_its_log_prints_a_link_for_each_person_and_keeps_its_key_private(
    tmp_path: Path, served: list[dict[str, Any]]
) -> None:
    log = tmp_path / "game.json"
    arguments = ["table", str(log), "--players", "Ada=1,Bea=2,Cy=3", "--seed", "4"]
    result = CliRunner().invoke(main, [*arguments, "--bot", "Cy=greedy", "--host", "127.0.0.1"])
    assert result.exit_code == 0, result.output
    assert "Cy: greedy (a bot)" in result.output
    first = links(result.output)
    assert set(first) == {"Ada", "Bea"}
    assert all(link.startswith("http://127.0.0.1:8000/s/") for link in first.values())
    assert json.loads(log.read_text())["start"] == {"seed": 4}
    key = tmp_path / "game.json.table-key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert served[0]["ws_max_size"] > 0
    again = CliRunner().invoke(main, ["table", str(log), "--host", "127.0.0.1"])
    assert again.exit_code == 0, again.output
    assert links(again.output) == first  # the same links: the seats are found again
    assert "Cy: greedy (a bot)" in again.output


def test_a_table_refuses_to_describe_again_a_game_that_exists(
    tmp_path: Path, served: list[dict[str, Any]]
) -> None:
    log = tmp_path / "game.json"
    CliRunner().invoke(main, ["table", str(log), "--robots", "1,2"])
    result = CliRunner().invoke(main, ["table", str(log), "--seed", "3"])
    assert result.exit_code == 2
    assert "resumed, not described again" in result.output
    assert served[1:] == []


def test_a_bot_of_no_known_kind_is_refused(tmp_path: Path, served: list[dict[str, Any]]) -> None:
    log = tmp_path / "g.json"
    result = CliRunner().invoke(main, ["table", str(log), "--robots", "1,2", "--bot", "P1=genius"])
    assert result.exit_code == 2
    assert "random, greedy, lookahead, mcts, learned" in result.output
    assert served == []
    assert not log.exists()  # refused before anything is written
