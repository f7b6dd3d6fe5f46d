"""Rewriting a log that another process may be rewriting too (``outofgears record``).

:func:`replace_if_unchanged` is one step under one lock: an exclusive :func:`fcntl.flock` on
the log itself (no lock file is left behind), taken on the very file the path names (if the
log was replaced while the lock was awaited, the new file is locked instead); then the log is
read again, compared with what the command read, and replaced whole
(:func:`~outofgears.cli.common.write_atomically`) with its own mode. Two processes appending a
turn to one log are thus served one after the other, and the second finds the log changed.

A log with several hard links is refused: replacing it would give this name a new file and
leave the other names on the old one, splitting the log in two.

:func:`signals_held` keeps SIGINT and SIGTERM from cutting the replacement short: a signal
that comes meanwhile is acted on after it, when the caller can say that the turn was written.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Final

from outofgears.cli.common import fail, output_error, write_atomically
from outofgears.errors import printable

#: How long to wait for another process's lock on the log before giving up, in seconds.
LOCK_PATIENCE: Final = 10.0


def hard_link_refusal(name: str, links: int) -> str:
    """Why a log with ``links`` names is not rewritten.

    >>> print(hard_link_refusal("game.json", 2))
    game.json has 2 hard links: record would replace it under this name only and split the log in two; record a copy (cp game.json copy.json) or remove the other link
    """
    return (
        f"{printable(name)} has {links} hard links: record would replace it under this name "
        f"only and split the log in two; record a copy (cp {printable(name)} copy.json) or "
        "remove the other link"
    )


def check_not_linked(path: Path, name: str) -> None:
    """Refuse a log that has other names (hard links); a missing log passes."""
    try:
        links = os.lstat(path).st_nlink
    except FileNotFoundError:
        return
    except OSError as error:
        fail(output_error(name, error))
    if links > 1:
        fail(hard_link_refusal(name, links))


@contextlib.contextmanager
def locked(path: Path, name: str, patience: float | None = None) -> Iterator[int]:
    """An open descriptor of the file ``path`` names, exclusively locked while the block runs.

    The lock is on the file, and the file may be replaced while the lock is awaited: the
    lock is then let go and taken on the new file, so that the holder always holds the file
    the path names. A message and exit status 2 when the log is gone or stays locked longer
    than ``patience`` seconds (default :data:`LOCK_PATIENCE`).
    """
    deadline = time.monotonic() + (LOCK_PATIENCE if patience is None else patience)
    while True:
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            fail(f"{printable(name)} was removed while the turn was entered; nothing is written")
        except OSError as error:
            fail(output_error(name, error))
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                fail(f"{printable(name)} is no longer a regular file; nothing is written")
            if not _lock(descriptor, deadline):
                fail(
                    f"{printable(name)} stays locked by another process (another record?); "
                    "nothing is written"
                )
            held = os.fstat(descriptor)
            try:
                now = os.lstat(path)
            except FileNotFoundError:
                now = None
            if now is not None and (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino):
                yield descriptor
                return
        finally:
            os.close(descriptor)  # lets the lock go


def _lock(descriptor: int, deadline: float) -> bool:
    """Take the exclusive lock, waiting until ``deadline``; whether it was taken."""
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        except OSError as error:  # a file system without locks: nothing is written unlocked
            fail(f"cannot lock the log: {error.strerror or error}; nothing is written")


def read_descriptor(descriptor: int, limit: int) -> bytes:
    """At most ``limit`` bytes of an open file, from its start."""
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = os.pread(descriptor, min(1 << 20, limit - size), size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def replace_if_unchanged(path: Path, name: str, expected: bytes, text: str, *, what: str) -> None:
    """Replace the log at ``path`` with ``text`` if it still holds ``expected``: the re-read,
    the comparison and the replacement under one lock, the log's mode kept. A message and
    exit status 2 (nothing written) when it changed, gained a hard link or cannot be written;
    ``what`` says what would have been written (``"turn 3"``)."""
    with locked(path, name) as descriptor:
        held = os.fstat(descriptor)
        if held.st_nlink > 1:
            fail(hard_link_refusal(name, held.st_nlink))
        if read_descriptor(descriptor, len(expected) + 1) != expected:
            fail(
                f"{printable(name)} changed while {what} was entered; the turn is not written "
                "(run record again to enter it on the new content)"
            )
        try:
            write_atomically(path, text, force=True, like=held)
        except OSError as error:
            fail(output_error(name, error))


#: The signals that stop ``record``: Ctrl-C and a polite kill.
STOPPING: Final = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def signals_held() -> Iterator[list[int]]:
    """SIGINT and SIGTERM held while the block runs; the signals that came meanwhile, for the
    caller to act on once the block is done. Outside the main thread (where signals are not
    received) nothing is held."""
    came: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield came
        return

    def hold(signum: int, frame: FrameType | None) -> None:
        came.append(signum)

    previous = {number: signal.signal(number, hold) for number in STOPPING}
    try:
        yield came
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
