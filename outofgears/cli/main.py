"""The ``outofgears`` command line.

Commands: ``replay``, ``explain``, ``dispute``, ``whatif``, ``render`` (an SVG
picture of the table), ``view`` (a game viewer in one HTML file), ``new``, ``record`` (a
game entered turn by turn at a table), ``simulate``, ``tournament`` (bots
against each other), ``schema`` and ``play``. No Python
traceback reaches the user: every expected failure ends with a message and exit
status 2, and :func:`run` (the installed ``outofgears`` script) turns an
unexpected one into a one-line report with exit status 3 (set
``OUTOFGEARS_DEBUG=1`` to see the traceback).
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import os
import signal
import sys
import threading

import click

from outofgears._version import __version__
from outofgears.errors import printable, printable_lines


class _PipeClosedError(Exception):
    """Standard output's reader went away (EPIPE), carried past click, which would exit 1."""


#: Each command, where it is defined, and what it does in one line (the first paragraph of
#: its help): a command's module is imported only when it runs, and ``outofgears --help``
#: lists the commands from these lines without importing any of them
#: (``tests/cli/test_help.py`` checks that they are the commands' own).
COMMANDS: dict[str, tuple[str, str]] = {
    "replay": (
        "outofgears.cli.replay",
        "Replay LOG under the rules and check every program and recorded value.",
    ),
    "explain": (
        "outofgears.cli.explain",
        "Explain turn N of LOG event by event, with the rules behind every event.",
    ),
    "dispute": (
        "outofgears.cli.dispute",
        "Resolve turn N of LOG under every reading of the rule options and show which change it.",
    ),
    "whatif": (
        "outofgears.cli.whatif",
        "Replay turn N of LOG with robot R's program replaced and show what changes.",
    ),
    "render": ("outofgears.cli.render", "Draw the table at turn N of LOG as an SVG picture."),
    "view": (
        "outofgears.cli.view",
        "Write a game viewer for LOG: one HTML file that steps through the game.",
    ),
    "new": ("outofgears.cli.new", "Write the log of a new game, ready for its turns."),
    "record": (
        "outofgears.cli.record",
        "Enter a game in LOG turn by turn, as it is played at a table.",
    ),
    "simulate": (
        "outofgears.cli.simulate",
        "Play games with random legal programs and write each as one line of JSON.",
    ),
    "tournament": (
        "outofgears.cli.tournament",
        "Let bots play each other and print each bot's win share with its standard error.",
    ),
    "schema": (
        "outofgears.cli.schema",
        "Print the JSON Schema (Draft 2020-12) of the log format outofgears-log/1.",
    ),
    "play": (
        "outofgears.cli.play",
        "Play the seeded game described in GAME with random programs, turn by turn.",
    ),
    "conformance": (
        "outofgears.cli.conformance",
        "Run the conformance suite of the specification against ENGINE, a program in any language.",
    ),
}


def _summary(name: str) -> click.Command:
    """A stand-in for command ``name`` holding only its summary, for the listing of help."""
    return click.Command(name, help=COMMANDS[name][1])


class _Group(click.Group):
    """The command group: its commands loaded when used (:data:`COMMANDS`), listed in help
    without loading them, and a broken pipe passed on to :func:`run` rather than to click."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, _ = COMMANDS[cmd_name]
        command: click.Command = getattr(importlib.import_module(module), cmd_name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their one-line summaries, as click lists them, none imported."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, _summary(name).get_short_help_str(limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as error:
            raise _PipeClosedError() from error


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="outofgears")
def main() -> None:
    """Rules engine and rules-checking tools for the card game Out of Gears."""


def all_commands() -> dict[str, click.Command]:
    """Every command of :data:`main` by name, in the order of :data:`COMMANDS`, loaded (for
    the CLI reference and its tests).

    >>> list(all_commands())[:3]
    ['replay', 'explain', 'dispute']
    """
    context = click.Context(main)
    found = {name: main.get_command(context, name) for name in COMMANDS}
    return {name: command for name, command in found.items() if command is not None}


#: Exit status for an internal error: a defect of outofgears, not of the input.
INTERNAL_ERROR = 3
#: Exit statuses after a signal, as shells report them: 128 + the signal's number.
INTERRUPTED = 128 + signal.SIGINT  # 130: Ctrl-C
BROKEN_PIPE = 128 + signal.SIGPIPE  # 141: the reader of standard output went away
TERMINATED = 128 + signal.SIGTERM  # 143: kill, or a job scheduler's stop

EPILOG = """\b
Exit statuses:
  0    success; replay, record: the log agrees with the rules
  1    replay, record: the log departs from the rules
  2    invalid log, game file, command line or output file; standard input or output
       closed or full
  3    internal error (a defect of outofgears; OUTOFGEARS_DEBUG=1 shows the traceback)
  4    replay, explain, dispute, whatif, render, view: undecided, more positions agree
       with the log than --max-open (256) after some turn, or a decision it leaves open
       has too many legal ways; neither agrees nor departs
  130  interrupted (SIGINT, Ctrl-C)
  141  standard output closed by its reader (SIGPIPE, e.g. | head)
  143  terminated (SIGTERM); no temporary file is left behind
"""
main.epilog = EPILOG


def _invalid() -> int:
    """The exit status of invalid input, :data:`outofgears.cli.common.INVALID`, imported only
    when needed: ``--help`` loads none of what the commands share."""
    from outofgears.cli.common import INVALID

    return INVALID


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM: unwind like an exception, so that temporary output files are removed."""
    raise SystemExit(TERMINATED)


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that nothing more is written to a closed pipe
    (not even by the interpreter's last flush at exit)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _complain(message: str) -> None:
    """One line on standard error, if there is one."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            click.echo(f"outofgears: {printable(message)}", err=True)


def _status(code: object) -> int:
    """The exit status a :class:`SystemExit` or ``ctx.exit`` carries."""
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def _invoke(argv: list[str] | None) -> int:
    """Run the command line; its exit status, or an exception for :func:`run` to report."""
    try:
        result = main.main(args=argv, prog_name="outofgears", standalone_mode=False)
        status = _status(result if isinstance(result, int) else 0)
    except SystemExit as stop:
        status = _status(stop.code)
    sys.stdout.flush()  # a closed pipe or a full disk shows here, not at exit
    return status


def run(argv: list[str] | None = None) -> None:
    """The installed ``outofgears`` script: :data:`main`, with the exit statuses of
    :data:`EPILOG` and a last-resort error report."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)
    if sys.stdout is None:
        _complain("standard output is closed")
        sys.exit(_invalid())
    try:
        status = _invoke(argv)
    except click.exceptions.Abort as abort:
        if isinstance(abort.__cause__, EOFError):
            _complain("standard input ended")
            status = _invalid()
        else:
            status = INTERRUPTED
    except click.ClickException as error:  # click's own messages too, escaped
        buffer = io.StringIO()
        error.show(file=buffer)
        with contextlib.suppress(OSError, ValueError, AttributeError):
            sys.stderr.write(printable_lines(buffer.getvalue()))
        status = error.exit_code
    except KeyboardInterrupt:
        status = INTERRUPTED
    except (BrokenPipeError, _PipeClosedError):
        _silence_stdout()
        status = BROKEN_PIPE
    except OSError as error:
        if error.errno not in (errno.ENOSPC, errno.EIO, errno.EBADF, errno.EDQUOT, errno.EFBIG):
            status = _internal_error(error)
        else:
            _silence_stdout()
            _complain(f"cannot write standard output: {error.strerror or error}")
            status = _invalid()
    except Exception as error:  # a defect: say so in one line, not with a traceback
        status = _internal_error(error)
    sys.exit(status)


def _internal_error(error: Exception) -> int:
    if os.environ.get("OUTOFGEARS_DEBUG"):
        raise error
    _complain(
        f"internal error ({type(error).__name__}: {error}). "
        "Please report it; OUTOFGEARS_DEBUG=1 shows the traceback."
    )
    return INTERNAL_ERROR
