"""Classes 1, 4 and 5 of issue 14: output files, standard streams, signals, exit statuses.

* Every writer (``simulate -o``, ``render -o``, ``new -o``) refuses anything but a regular
  file or nothing, with or without ``--force``, and leaves it as it was; a file that
  appears during the run is kept; ``-o ''`` says the name is empty.
* The installed script exits 141 quietly on a closed pipe, 130 on SIGINT (no "Aborted!"),
  143 on SIGTERM without leaving a temporary file, 2 on a full or closed standard output
  and on a closed standard input.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from outofgears.cli.common import UnsafeOutputError, atomic_output
from outofgears.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LOG = str(EXAMPLES / "full-game.log.json")

WRITERS: dict[str, Callable[[str], list[str]]] = {
    "simulate": lambda target: [
        "simulate",
        "--games",
        "2",
        "--robots",
        "2",
        "--seed",
        "1",
        "-o",
        target,
    ],
    "render": lambda target: ["render", LOG, "--turn", "1", "-o", target],
    "new": lambda target: ["new", "--seed", "6", "-o", target],
}


def make_fifo(folder: Path) -> Path:
    path = folder / "fifo"
    os.mkfifo(path)
    return path


def make_directory(folder: Path) -> Path:
    path = folder / "folder"
    path.mkdir()
    return path


def make_link_to_file(folder: Path) -> Path:
    (folder / "precious.txt").write_text("keep me", "utf-8")
    path = folder / "link"
    path.symlink_to(folder / "precious.txt")
    return path


def make_dangling_link(folder: Path) -> Path:
    path = folder / "dangling"
    path.symlink_to(folder / "nowhere" / "file")
    return path


def make_link_to_stdout(folder: Path) -> Path:
    path = folder / "stdout"
    path.symlink_to("/proc/self/fd/1")
    return path


def make_link_to_dev_null(folder: Path) -> Path:
    path = folder / "null"
    path.symlink_to(os.devnull)
    return path


def dev_null(folder: Path) -> Path:
    return Path(os.devnull)


NOT_REGULAR: dict[str, Callable[[Path], Path]] = {
    "fifo": make_fifo,
    "directory": make_directory,
    "symlink-to-file": make_link_to_file,
    "dangling-symlink": make_dangling_link,
    "symlink-to-stdout": make_link_to_stdout,
    "symlink-to-dev-null": make_link_to_dev_null,
    "character-device": dev_null,
}


def snapshot(path: Path) -> tuple[int, str | None, str | None]:
    """What a path is: its mode, a link's target, a regular file's content."""
    info = os.lstat(path)
    target = os.readlink(path) if stat.S_ISLNK(info.st_mode) else None
    text = path.read_text("utf-8") if stat.S_ISREG(info.st_mode) else None
    return stat.S_IFMT(info.st_mode), target, text


@pytest.mark.parametrize("force", [False, True], ids=["keep", "force"])
@pytest.mark.parametrize("kind", sorted(NOT_REGULAR))
@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_writer_never_replaces_what_is_not_a_regular_file(
    command: str, kind: str, force: bool, tmp_path: Path
) -> None:
    target = NOT_REGULAR[kind](tmp_path)
    before = snapshot(target)
    listing = sorted(p.name for p in tmp_path.iterdir())
    precious = tmp_path / "precious.txt"
    args = WRITERS[command](str(target)) + (["--force"] if force else [])
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert "not a regular file" in result.stderr or "is a directory" in result.stderr
    assert snapshot(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == listing  # no temporary file left
    if precious.exists():
        assert precious.read_text("utf-8") == "keep me"


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_an_empty_output_name_is_named_as_such(command: str) -> None:
    result = CliRunner().invoke(main, WRITERS[command](""))
    assert result.exit_code == 2
    assert result.stderr.strip() == "Error: the output file name is empty"


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_an_existing_file_is_kept_without_force(command: str, tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.write_text("keep me", "utf-8")
    result = CliRunner().invoke(main, WRITERS[command](str(target)))
    assert result.exit_code == 2
    assert f"{target} exists; use --force to overwrite it" in result.stderr
    assert target.read_text("utf-8") == "keep me"


def write_while(target: Path, meanwhile: Callable[[], object], *, force: bool = False) -> None:
    """Write ``target`` through :func:`atomic_output`, calling ``meanwhile`` mid-way."""
    with atomic_output(target, force=force) as stream:
        stream.write("new\n")
        meanwhile()


def test_a_file_that_appears_during_the_run_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    with pytest.raises(FileExistsError):
        write_while(target, lambda: target.write_text("arrived meanwhile", "utf-8"))
    assert target.read_text("utf-8") == "arrived meanwhile"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def test_a_fifo_that_appears_during_the_run_is_kept_even_with_force(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    with pytest.raises(UnsafeOutputError):
        write_while(target, lambda: os.mkfifo(target), force=True)
    assert stat.S_ISFIFO(os.lstat(target).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl"]


def test_a_symlink_that_appears_during_the_run_is_kept_even_with_force(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    (tmp_path / "precious").write_text("keep me", "utf-8")
    with pytest.raises(UnsafeOutputError):
        write_while(target, lambda: target.symlink_to(tmp_path / "precious"), force=True)
    assert (tmp_path / "precious").read_text("utf-8") == "keep me"
    assert target.is_symlink()


def test_force_replaces_a_regular_file(tmp_path: Path) -> None:
    target = tmp_path / "out.svg"
    target.write_text("old", "utf-8")
    result = CliRunner().invoke(main, [*WRITERS["render"](str(target)), "--force"])
    assert result.exit_code == 0, result.output
    assert target.read_text("utf-8").startswith("<svg")


# --------------------------------------------------------------- the installed script


def script(*args: str, **popen: object) -> subprocess.Popen[bytes]:
    """``python -m outofgears ARGS``: the installed script's entry point, :func:`run`."""
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "outofgears", *args],
        stdout=popen.pop("stdout", subprocess.PIPE),
        stderr=subprocess.PIPE,
        **popen,
    )


def wait_for_temporary(folder: Path, seconds: float = 60) -> None:
    """Wait until the simulation's temporary file exists (the work has started)."""
    deadline = time.monotonic() + seconds
    while not any(p.name.endswith(".tmp") for p in folder.iterdir()):
        assert time.monotonic() < deadline, "simulate never started writing"
        time.sleep(0.05)


def test_sigterm_during_simulate_leaves_no_temporary_file(tmp_path: Path) -> None:
    process = script(
        "simulate",
        "--games",
        "1000000",
        "--robots",
        "3",
        "--seed",
        "1",
        "-o",
        str(tmp_path / "out.jsonl"),
    )
    wait_for_temporary(tmp_path)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    assert list(tmp_path.iterdir()) == []


def _hear_ctrl_c() -> None:
    # A job started in the background by a non-interactive shell (CI's `cmd &`, nohup) inherits
    # SIGINT ignored, and Python then keeps it ignored: give the child a terminal's disposition.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_sigint_exits_130_without_aborted(tmp_path: Path) -> None:
    process = script(
        "simulate",
        "--games",
        "1000000",
        "--robots",
        "3",
        "--seed",
        "1",
        "-o",
        str(tmp_path / "out.jsonl"),
        preexec_fn=_hear_ctrl_c,
    )
    wait_for_temporary(tmp_path)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert b"Aborted" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "2000", "--robots", "3", "--seed", "1"],
        ["schema"],
        ["replay", LOG],
    ],
    ids=["simulate", "schema", "replay"],
)
def test_a_closed_pipe_exits_141_quietly(args: list[str]) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte
    process = script(*args, stdout=write)
    os.close(write)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 141, err
    assert err == b""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_is_exit_2() -> None:
    with open("/dev/full", "wb") as full:
        process = script("replay", LOG, stdout=full)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert err.decode().strip() == (
        "outofgears: cannot write standard output: No space left on device"
    )


@pytest.mark.parametrize(
    ("stream", "message"), [(1, "standard output is closed"), (0, "standard input is closed")]
)
def test_a_closed_standard_stream_is_exit_2(stream: int, message: str) -> None:
    redirect = ">&-" if stream == 1 else "<&-"
    command = f'"{sys.executable}" -m outofgears replay - {redirect}'
    result = subprocess.run(["bash", "-c", command], capture_output=True, timeout=60, check=False)
    assert result.returncode == 2
    assert message in result.stderr.decode()
