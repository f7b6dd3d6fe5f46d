"""``simulate``, ``render`` and ``new`` write a file whole or not at all (issue 7).

Each writes to a temporary file beside the target and moves it into place; a failure or an
interruption part-way leaves the folder as it was: no half-written target, no temporary
file, an existing file untouched. Without ``--force`` an existing file is never replaced.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from outofgears.cli import simulate as simulate_module
from outofgears.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LOG = str(EXAMPLES / "full-game.log.json")

#: Each command, writing to the target given.
COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "simulate": lambda target: [
        "simulate",
        "--games",
        "3",
        "--robots",
        "3",
        "--seed",
        "1",
        "-o",
        str(target),
    ],
    "render": lambda target: ["render", LOG, "--turn", "1", "-o", str(target)],
    "new": lambda target: ["new", "--seed", "6", "-o", str(target)],
}


def invoke(args: list[str]) -> int:
    return CliRunner().invoke(main, args).exit_code


def invoke_output(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("existing", [False, True])
def test_a_failed_rename_leaves_the_folder_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, existing: bool
) -> None:
    target = tmp_path / "out.txt"
    if existing:
        target.write_text("the table's notes", encoding="utf-8")

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", broken)
    monkeypatch.setattr(os, "link", broken)
    args = COMMANDS[name](target) + (["--force"] if existing else [])
    code, output = invoke_output(args)
    assert code == 2
    assert "Input/output error" in output, output
    if existing:
        assert target.read_text(encoding="utf-8") == "the table's notes"
        assert os.listdir(tmp_path) == ["out.txt"]
    else:
        assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_existing_file_is_kept_without_force(tmp_path: Path, name: str) -> None:
    target = tmp_path / "out.txt"
    target.write_text("the table's notes", encoding="utf-8")
    assert invoke(COMMANDS[name](target)) == 2
    assert target.read_text(encoding="utf-8") == "the table's notes"
    assert os.listdir(tmp_path) == ["out.txt"]
    assert invoke([*COMMANDS[name](target), "--force"]) == 0
    assert target.read_text(encoding="utf-8") != "the table's notes"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_a_simulation_interrupted_part_way_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "games.jsonl"
    played = simulate_module.simulate_game
    calls: list[int] = []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return played(*args, **kwargs)

    monkeypatch.setattr(simulate_module, "simulate_game", interrupted)
    result = CliRunner().invoke(main, COMMANDS["simulate"](target))
    assert result.exit_code != 0
    assert len(calls) == 2
    assert os.listdir(tmp_path) == []
