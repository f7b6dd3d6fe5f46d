"""Helpers shared by the command-line tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from outofgears.cli.main import main
from outofgears.log import ChoicesRecord, TurnRecord
from outofgears.rules.programs import parse_program


def replay(*args: str, stdin: bytes | str | None = None) -> Result:
    return CliRunner().invoke(main, ["replay", *args], input=stdin)


def write(tmp_path: Path, data: dict[str, Any], name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def turn(number: int, choices: ChoicesRecord | None = None, **programs: str) -> TurnRecord:
    """A turn record from programs as a table says them: turn(1, r1="attack 2", ...)."""
    return TurnRecord(
        number, {int(name[1:]): parse_program(text) for name, text in programs.items()}, choices
    )
