"""``outofgears record`` keeps the log whole under concurrency and signals (issue 23).

Two real processes on one log, the log's mode, a hard-linked log, Ctrl-C and SIGTERM while a
turn is entered, and a signal while the turn is written.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from outofgears.cli import common, locking
from outofgears.cli import record as record_module
from outofgears.cli.main import main
from outofgears.log import read_log

TABLE: dict[str, Any] = {
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

SCRIPTED = ("--program", "1=attack 1", "--program", "2=attack 1", "--program", "3=harvest 1")


def table_log(tmp_path: Path, name: str = "table.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(TABLE), encoding="utf-8")
    return path


def record(*args: str, typed: str | None = None) -> Result:
    result = CliRunner().invoke(main, ["record", *args], input=typed)
    assert "Traceback" not in result.output
    return result


def script(*args: str) -> subprocess.Popen[bytes]:
    """The installed entry point, ``python -m outofgears ARGS``, its standard streams piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "outofgears", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


#: What each process printed so far, and how far the test has read it.
PRINTED: dict[int, list[Any]] = {}


def read_until(process: subprocess.Popen[bytes], text: str, seconds: float = 30) -> str:
    """What the process printed after the last text waited for, up to and including ``text``
    (which must come in time)."""
    assert process.stdout is not None
    seen, start = PRINTED.setdefault(process.pid, [b"", 0])
    deadline = time.monotonic() + seconds
    while text.encode() not in seen[start:]:
        left = deadline - time.monotonic()
        assert left > 0, f"no {text!r} in {seen.decode()!r}"
        ready, _, _ = select.select([process.stdout], [], [], left)
        if ready:
            chunk = os.read(process.stdout.fileno(), 4096)
            assert chunk, f"the process ended before {text!r}: {seen.decode()!r}"
            seen += chunk
    end = seen.index(text.encode(), start) + len(text)
    PRINTED[process.pid] = [seen, end]
    return str(seen[start:end].decode())


def finish(process: subprocess.Popen[bytes]) -> tuple[int, str]:
    """The exit status and everything the process printed."""
    output, _ = process.communicate(timeout=60)
    seen, _ = PRINTED.pop(process.pid, [b"", 0])
    return process.returncode, (seen + output).decode()


# --- two processes on one log ------------------------------------------------------------------


def test_two_record_processes_on_one_log_never_both_write_turn_one(tmp_path: Path) -> None:
    """Both read the empty log, then wait for the lock the test holds; once it is let go, one
    writes turn 1 and the other finds the log changed. Without one lock around re-read,
    check and replace, both would say "Turn 1 written" over a log of one turn."""
    path = table_log(tmp_path)
    with path.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        racers = [script("record", str(path), *SCRIPTED, "--turns", "1") for _ in range(2)]
        for racer in racers:  # each has read the log and resolved the turn: it waits to write
            read_until(racer, "robot 3 harvest 1")
        time.sleep(0.3)
    results = [finish(racer) for racer in racers]
    written = [output for status, output in results if "Turn 1 written" in output]
    refused = [output for status, output in results if status == 2]
    assert len(written) == 1, results
    assert len(refused) == 1, results
    assert "changed while turn 1 was entered" in refused[0], results
    assert len(read_log(path).turns) == 1


def test_a_lock_held_elsewhere_for_too_long_leaves_the_log_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = table_log(tmp_path)
    before = path.read_bytes()
    monkeypatch.setattr(locking, "LOCK_PATIENCE", 0.05)
    with path.open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        result = record(str(path), *SCRIPTED)
    assert result.exit_code == 2
    assert "stays locked by another process" in result.output
    assert path.read_bytes() == before


# --- the file itself ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664])
def test_the_rewritten_log_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    path = table_log(tmp_path)
    path.chmod(mode)
    result = record(str(path), *SCRIPTED)
    assert result.exit_code == 0, result.output
    assert len(read_log(path).turns) == 1
    assert path.stat().st_mode & 0o7777 == mode


def test_a_hard_linked_log_is_refused_and_both_names_keep_it(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    other = tmp_path / "backup.json"
    os.link(path, other)
    before = path.read_bytes()
    result = record(str(path), *SCRIPTED)
    assert result.exit_code == 2
    assert "has 2 hard links" in result.output
    assert "split the log in two" in result.output
    assert path.read_bytes() == other.read_bytes() == before
    assert path.stat().st_ino == other.stat().st_ino


def test_a_hard_link_made_while_the_turn_was_entered_is_refused_at_the_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = table_log(tmp_path)
    asked = record_module.enter_turn

    def linked_meanwhile(*args: Any, **kwargs: Any) -> Any:
        draft = asked(*args, **kwargs)
        os.link(path, tmp_path / "other.json")
        return draft

    monkeypatch.setattr(record_module, "enter_turn", linked_meanwhile)
    result = record(str(path), *SCRIPTED)
    assert result.exit_code == 2
    assert "has 2 hard links" in result.output
    assert read_log(path).turns == ()
    assert path.stat().st_ino == (tmp_path / "other.json").stat().st_ino


# --- signals -----------------------------------------------------------------------------------


def test_ctrl_c_mid_turn_says_the_turn_was_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = table_log(tmp_path)
    before = path.read_bytes()
    answers = iter(["harvest 1"])

    def typed(question: str) -> str:
        answer = next(answers, None)
        if answer is None:
            raise KeyboardInterrupt
        return answer

    monkeypatch.setattr(record_module, "read_answer", typed)
    result = record(str(path))
    assert result.exit_code == 130
    assert "Interrupted (Ctrl-C): turn 1 was not written." in result.output
    assert "Recorded 0 turns" in result.output
    assert path.read_bytes() == before


def test_ctrl_c_before_a_turn_is_begun_loses_nothing_and_still_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = table_log(tmp_path)

    def interrupted(question: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(record_module, "read_answer", interrupted)
    result = record(str(path))
    assert result.exit_code == 130
    assert "before turn 1 was entered; nothing is lost" in result.output


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_the_turn_is_written_waits_for_the_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signum: int
) -> None:
    path = table_log(tmp_path)
    replace = locking.replace_if_unchanged

    def signalled_meanwhile(*args: Any, **kwargs: Any) -> None:
        os.kill(os.getpid(), signum)
        time.sleep(0.05)  # the signal has come: a handler that acts now would cut the write
        replace(*args, **kwargs)

    monkeypatch.setattr(record_module, "replace_if_unchanged", signalled_meanwhile)
    result = record(str(path), *SCRIPTED)
    assert len(read_log(path).turns) == 1
    assert "Turn 1 written" in result.output
    assert "after turn 1 was written; stopping." in result.output
    assert result.exit_code == (0 if signum == signal.SIGTERM else 130)


def test_sigterm_mid_turn_exits_143_and_says_the_turn_was_not_written(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    before = path.read_bytes()
    process = script("record", str(path))
    assert process.stdin is not None
    read_until(process, "Robot 1 (Ada, red)")
    process.stdin.write(b"harvest 1\n")
    process.stdin.flush()
    read_until(process, "Robot 2 (Ben, orange)")
    process.send_signal(signal.SIGTERM)
    status, output = finish(process)
    assert status == 143, output
    assert "Terminated (SIGTERM): turn 1 was not written." in output
    assert path.read_bytes() == before


def test_sigterm_after_a_turn_was_written_exits_0_and_says_so(tmp_path: Path) -> None:
    path = table_log(tmp_path)
    process = script("record", str(path))
    assert process.stdin is not None
    read_until(process, "Robot 1 (Ada, red)")
    process.stdin.write(b"attack 1\nattack 1\nharvest 1\n\n")
    process.stdin.flush()
    read_until(process, "Turn 1 written")
    read_until(process, "Robot 1 (Ada, red)")
    process.send_signal(signal.SIGTERM)
    status, output = finish(process)
    assert status == 0, output
    assert "Terminated (SIGTERM) before turn 2 was entered; nothing is lost." in output
    assert "Recorded 1 turn in" in output
    assert len(read_log(path).turns) == 1


def test_a_sigterm_while_a_new_log_is_written_waits_for_it_and_exits_143(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "new.json"
    deliver = common.deliver

    def signalled_meanwhile(*args: Any, **kwargs: Any) -> bool:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)
        return deliver(*args, **kwargs)

    monkeypatch.setattr(record_module, "deliver", signalled_meanwhile)
    result = record(str(path), "--robots", "1,2", "--seed", "3")
    assert result.exit_code == 143
    assert "Wrote " in result.output
    assert "Terminated (SIGTERM) before any turn was entered." in result.output
    assert read_log(path).turns == ()


def test_ctrl_c_at_a_layout_question_writes_no_log_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "new.json"

    def interrupted() -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    result = record(str(path), "--robots", "1,2", "--layout")
    assert result.exit_code == 130
    assert "Interrupted (Ctrl-C) before any turn was entered." in result.output
    assert not path.exists()


def test_a_log_that_cannot_be_locked_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = table_log(tmp_path)
    before = path.read_bytes()

    def no_locks(descriptor: int, operation: int) -> None:
        raise OSError(37, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    result = record(str(path), *SCRIPTED)
    assert result.exit_code == 2
    assert "cannot lock the log: No locks available; nothing is written" in result.output
    assert path.read_bytes() == before


def test_a_sigterm_while_the_summary_is_said_keeps_the_logs_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 35: on a long log, a SIGTERM after the last write (while record replays the log for
    # its closing lines) killed it with 143, which a shell reads as a lost turn.
    path = table_log(tmp_path)

    def terminated(*args: object) -> int:
        raise record_module.Terminated()

    monkeypatch.setattr(record_module, "closing", terminated)
    result = CliRunner().invoke(
        main,
        ["record", str(path), "--program", "1=harvest 1", "--program", "2=harvest 2",
         "--program", "3=trap 3", "--turns", "1"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Terminated (SIGTERM); every turn entered is written." in result.output
    assert len(read_log(path).turns) == 1
