"""``outofgears record`` at a terminal: line editing and history (issue 21).

A real process on a pseudo-terminal: the up arrow recalls the answer before, Ctrl-A and
Ctrl-D edit the line. Without line editing the escape codes would be part of the answers,
which would be refused.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from outofgears.log import read_log

pty = pytest.importorskip("pty")

TABLE = {
    "format": "outofgears-log/1",
    "players": {"Ada": [1], "Ben": [2], "Cy": [3]},
    "start": {
        "position": {
            "robots": {"1": {"feet": ["red", "orange"]}, "2": {}, "3": {}},
            "dumps": {"1": ["green"], "2": [], "3": []},
            "reserve": ["white", "white", "grey", "grey", "grey", "grey"],
        }
    },
    "turns": [],
}


class Terminal:
    """A process on a pseudo-terminal, and what it printed."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "outofgears", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**os.environ, "TERM": "xterm"},
        )
        os.close(slave)
        self.printed = b""

    def wait_for(self, text: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while text.encode() not in self.printed:
            assert time.monotonic() < deadline, self.printed.decode(errors="replace")
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    self.printed += os.read(self.master, 4096)
                except OSError:  # the process has ended
                    break

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def close(self) -> int:
        status = self.process.wait(timeout=60)
        os.close(self.master)
        return status


def test_answers_have_line_editing_and_history_at_a_terminal(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(TABLE), encoding="utf-8")
    terminal = Terminal("record", str(path), "--turns", "1")
    terminal.wait_for("Robot 1 (Ada, red) program")
    terminal.type(b"attack 1\r")
    terminal.wait_for("Robot 2 (Ben, orange) program")
    terminal.type(b"\x1b[A\r")  # the up arrow: the answer before
    terminal.wait_for("Robot 3 (Cy, yellow) program")
    terminal.type(b"trap 3\x01\x04\x04\x04\x04harvest\r")  # to the start, delete "trap"
    terminal.wait_for("write down after turn 1?")
    terminal.type(b"\r")
    terminal.wait_for("Recorded 1 turn")
    assert terminal.close() == 0
    programs = read_log(path).turns[0].programs
    assert [str(programs[n]) for n in (1, 2, 3)] == ["attack 1", "attack 1", "harvest 3"]
