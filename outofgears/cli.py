"""The ``outofgears`` command line.

Commands: ``replay``, ``explain``, ``dispute``, ``whatif``, ``render`` (an SVG
picture of the table), ``view`` (a game viewer in one HTML file), ``new``, ``simulate``, ``tournament`` (bots
against each other), ``schema`` and ``play``. No Python
traceback reaches the user: every expected failure ends with a message and exit
status 2, and :func:`run` (the installed ``outofgears`` script) turns an
unexpected one into a one-line report with exit status 3 (set
``OUTOFGEARS_DEBUG=1`` to see the traceback).
"""

from __future__ import annotations

import os
import sys

import click

from outofgears import __version__
from outofgears.commands.dispute import dispute
from outofgears.commands.explain import explain
from outofgears.commands.new import new
from outofgears.commands.play import play
from outofgears.commands.render import render
from outofgears.commands.replay import replay
from outofgears.commands.schema import schema
from outofgears.commands.simulate import simulate
from outofgears.commands.tournament import tournament
from outofgears.commands.view import view
from outofgears.commands.whatif import whatif


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="outofgears")
def main() -> None:
    """Rules engine and rules-checking tools for the card game Out of Gears."""


for command in (
    replay,
    explain,
    dispute,
    whatif,
    render,
    view,
    new,
    simulate,
    tournament,
    schema,
    play,
):
    main.add_command(command)


#: Exit status for an internal error: a defect of outofgears, not of the input.
INTERNAL_ERROR = 3


def run(argv: list[str] | None = None) -> None:
    """The installed ``outofgears`` script: :data:`main`, with a last-resort error report."""
    try:
        main.main(args=argv, prog_name="outofgears", standalone_mode=True)
    except Exception as error:  # a defect: say so in one line, not with a traceback
        if os.environ.get("OUTOFGEARS_DEBUG"):
            raise
        click.echo(
            f"outofgears: internal error ({type(error).__name__}: {error}). "
            "Please report it; OUTOFGEARS_DEBUG=1 shows the traceback.",
            err=True,
        )
        sys.exit(INTERNAL_ERROR)
