"""An engine under test run as a program, and held on a short leash: the conformance runner
trusts nothing it does (issue 35).

The engine runs in a session and process group of its own. What it writes is read with a
size cap (its answer, and what it writes to standard error); an answer is parsed only once its
containers are known to nest less than :data:`MAX_ANSWER_DEPTH` deep. At the time-out, when it
writes past a cap, and whenever it is done with, its whole process group is killed, and so is
any process that still holds its output open (a child that left the group with ``setsid``),
so that no child of the engine holds the runner or outlives it.

Two ways to talk to it: :meth:`EngineProcess.answer_once`, one request on standard input
and the answer read to the end of the output (protocol ``outofgears-conformance/1``, a process
per case), and :meth:`EngineProcess.answer_line`, one request a line and one answer a line,
for as many cases as the process lives (the batch protocol).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import Any, Final

from outofgears.errors import ArgumentTypeError, OutOfGearsError
from outofgears.log.reading import nesting_reaches

#: The most an answer may hold, in bytes: a whole position with its events is a few KB.
MAX_ANSWER_BYTES: Final = 4 * 1024 * 1024
#: The most an engine may write to standard error while it answers one case.
MAX_ERROR_BYTES: Final = 4 * 1024 * 1024
#: How much of standard error is kept to show with a failure (its end).
ERROR_TAIL_BYTES: Final = 4096
#: How deep an answer's containers may nest (an answer needs 5 levels).
MAX_ANSWER_DEPTH: Final = 32
#: How long the end of the output is waited for once the engine has exited, in seconds.
_DRAIN_SECONDS: Final = 0.5


class EngineFaultError(OutOfGearsError, RuntimeError):
    """An external engine that gave no usable answer: it crashed, hung, wrote too much, or
    wrote something that is not an answer to the case (``reason`` says which, in one line)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_answer(raw: bytes) -> Any:
    """An answer's JSON, parsed only when it is text that nests less than
    :data:`MAX_ANSWER_DEPTH` deep; :class:`EngineFaultError` otherwise.

    >>> parse_answer(b'{"case": "c"}')
    {'case': 'c'}
    >>> parse_answer(b"[" * 100000)
    Traceback (most recent call last):
    ...
    outofgears.judge.engine_process.EngineFaultError: its answer nests more than 32 levels deep
    """
    if not isinstance(raw, bytes):
        raise ArgumentTypeError("raw", "bytes", raw)
    text = raw.decode("utf-8", errors="replace")
    if not text.strip():
        raise EngineFaultError("it wrote no answer")
    if nesting_reaches(text, MAX_ANSWER_DEPTH + 1):
        raise EngineFaultError(f"its answer nests more than {MAX_ANSWER_DEPTH} levels deep")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        shown = json.dumps(text.strip()[:80], ensure_ascii=False)
        raise EngineFaultError(f"its answer is not JSON: {shown}") from None


class EngineProcess:
    """One process of an engine, started from its command's words, in a session of its own."""

    def __init__(self, argv: Sequence[str]) -> None:
        if (
            not isinstance(argv, list | tuple)
            or not argv
            or not all(isinstance(word, str) for word in argv)
        ):
            raise ArgumentTypeError("argv", "a non-empty list of str", argv)
        try:
            self._process = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise EngineFaultError(f"the engine cannot be started: {reason}") from None
        self._pipes = {
            name: pipe
            for name, pipe in (
                ("in", self._process.stdin),
                ("out", self._process.stdout),
                ("err", self._process.stderr),
            )
            if pipe is not None
        }
        for pipe in self._pipes.values():
            os.set_blocking(pipe.fileno(), False)
        self._inodes = {os.fstat(pipe.fileno()).st_ino for pipe in self._pipes.values()}
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._pipes["out"], selectors.EVENT_READ, "out")
        self._selector.register(self._pipes["err"], selectors.EVENT_READ, "err")
        self._out = bytearray()
        self._out_ended = False
        self._err_tail = b""
        self._err_bytes = 0
        self._closed = False

    # --- the two ways to ask --------------------------------------------------------------

    def answer_once(self, request: bytes, timeout: float) -> bytes:
        """Write ``request``, close standard input, and read the output to its end; the
        process must exit with status 0 within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        try:
            self._exchange(request, deadline, timeout, close_input=True, line=False)
            while self._process.poll() is None:
                if time.monotonic() >= deadline:
                    raise self._timed_out(timeout)
                time.sleep(0.005)
        finally:
            self.close()
        self._check_status()
        return bytes(self._out)

    def answer_line(self, request: bytes, timeout: float) -> bytes:
        """Write ``request`` as one line and read one line of answer within ``timeout``
        seconds; the process lives on for the next request."""
        deadline = time.monotonic() + timeout
        data = request.rstrip(b"\n") + b"\n"
        return self._exchange(data, deadline, timeout, close_input=False, line=True)

    # --- the exchange ---------------------------------------------------------------------

    def _exchange(
        self, data: bytes, deadline: float, timeout: float, *, close_input: bool, line: bool
    ) -> bytes:
        """Write ``data`` while reading the output, until a whole line is read (``line``) or
        the output ends; :class:`EngineFaultError` at the deadline or past a cap."""
        if self._closed:
            raise EngineFaultError("the engine is no longer running")
        pending = memoryview(data)
        self._err_bytes = 0
        stdin = self._pipes["in"]
        if pending:
            self._selector.register(stdin, selectors.EVENT_WRITE, "in")
        elif close_input:
            stdin.close()
        exited_at: float | None = None
        while True:
            if line and b"\n" in self._out:
                answer, _, rest = bytes(self._out).partition(b"\n")
                self._out = bytearray(rest)
                if pending:
                    self._selector.unregister(stdin)
                return answer
            if self._out_ended:
                if line:
                    self._fault_on_exit("it closed its output before answering")
                return bytes(self._out)
            now = time.monotonic()
            if now >= deadline:
                raise self._timed_out(timeout)
            if exited_at is None and self._process.poll() is not None:
                # Whatever still holds the output open is not the engine: it goes.
                exited_at = now
                self._kill_group()
            elif exited_at is not None and now - exited_at > _DRAIN_SECONDS:
                self._kill_holders()
                self._out_ended = True
                continue
            for key, _ in self._selector.select(min(deadline - now, 0.05)):
                if key.data == "in":
                    pending = self._write(pending)
                    if not pending:
                        self._selector.unregister(stdin)
                        if close_input:
                            stdin.close()
                else:
                    self._read(key.data)

    def _write(self, pending: memoryview) -> memoryview:
        try:
            written = os.write(self._pipes["in"].fileno(), pending[:65536])
        except BlockingIOError:
            return pending
        except OSError:  # the engine closed its input: what it answers still counts
            return memoryview(b"")
        return pending[written:]

    def _read(self, name: str) -> None:
        pipe = self._pipes[name]
        try:
            chunk = os.read(pipe.fileno(), 65536)
        except BlockingIOError:
            return
        if not chunk:
            self._selector.unregister(pipe)
            if name == "out":
                self._out_ended = True
            return
        if name == "out":
            self._out += chunk
            if len(self._out) > MAX_ANSWER_BYTES:
                self.close()
                raise EngineFaultError(f"its answer is longer than {MAX_ANSWER_BYTES} bytes")
        else:
            self._err_bytes += len(chunk)
            self._err_tail = (self._err_tail + chunk)[-ERROR_TAIL_BYTES:]
            if self._err_bytes > MAX_ERROR_BYTES:
                self.close()
                raise EngineFaultError(
                    f"it wrote more than {MAX_ERROR_BYTES} bytes to standard error"
                )

    # --- the end --------------------------------------------------------------------------

    def _timed_out(self, timeout: float) -> EngineFaultError:
        self.close()
        return EngineFaultError(f"no answer within {timeout:g} s (the engine hangs?)")

    def _fault_on_exit(self, otherwise: str) -> None:
        self.close()
        self._check_status()
        raise EngineFaultError(otherwise)

    def _check_status(self) -> None:
        returncode = self._process.returncode
        if returncode is None or returncode == 0:
            return
        last = self._err_tail.decode(errors="replace").strip().splitlines()
        said = f": {last[-1][:200]}" if last else ""
        how = (
            f"was killed by signal {-returncode}"
            if returncode < 0
            else f"exited with status {returncode}"
        )
        raise EngineFaultError(f"the engine {how}{said}")

    def close(self, grace: float = 0.0) -> None:
        """End the engine: its process group, and whatever still holds its output; ``grace``
        seconds are left to it first to exit by itself once its input is closed (a batch
        engine at the end of the suite)."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            self._pipes["in"].close()
        if grace > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=grace)
        self._kill_group()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=_DRAIN_SECONDS)
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        if not self._out_ended or self._selector.get_map():
            self._kill_holders()
        self._selector.close()
        for pipe in self._pipes.values():
            with contextlib.suppress(OSError):
                pipe.close()

    def _kill_group(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self._process.pid, signal.SIGKILL)

    def _kill_holders(self) -> None:
        """Kill every other process that holds one of the engine's pipes (Linux's /proc)."""
        targets = {f"pipe:[{inode}]" for inode in self._inodes}
        for pid in _pipe_holders(targets):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    @property
    def running(self) -> bool:
        """Whether the process is still there to be asked."""
        return not self._closed and self._process.poll() is None


def _pipe_holders(targets: set[str]) -> list[int]:
    """The processes other than this one with a descriptor open on one of ``targets``."""
    me = os.getpid()
    found = []
    try:
        entries = [entry.name for entry in os.scandir("/proc") if entry.name.isdigit()]
    except OSError:
        return []
    for name in entries:
        pid = int(name)
        if pid == me:
            continue
        try:
            links = [os.readlink(fd.path) for fd in os.scandir(f"/proc/{pid}/fd")]
        except OSError:
            continue
        if targets.intersection(links):
            found.append(pid)
    return found


def expect_timeout(timeout: object) -> float:
    """A time-out in seconds: a finite number above 0 (``nan``, ``inf`` and a bool are not).

    >>> expect_timeout(2)
    2.0
    """
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, int | float)
        or not math.isfinite(timeout)
        or timeout <= 0
    ):
        raise ArgumentTypeError("timeout", "a finite number of seconds above 0", timeout)
    return float(timeout)


#: The public names of this module (the rest serves them).
__all__ = [
    "ERROR_TAIL_BYTES",
    "MAX_ANSWER_BYTES",
    "MAX_ANSWER_DEPTH",
    "MAX_ERROR_BYTES",
    "EngineFaultError",
    "EngineProcess",
    "expect_timeout",
    "parse_answer",
]
