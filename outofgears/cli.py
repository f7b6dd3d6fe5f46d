"""The ``outofgears`` command line.

Commands: ``replay`` (check a game log against the rules), ``explain``, ``dispute``,
``whatif`` (one turn, clause by clause, under every reading, with a program replaced),
``render`` (an SVG picture of the table), ``new``, ``simulate``, ``schema`` (the log
format's JSON Schema) and ``play`` (a seeded game with random programs). No Python
traceback reaches the user: every expected failure ends with a message and exit
status 2.
"""

from __future__ import annotations

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
from outofgears.commands.whatif import whatif


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="outofgears")
def main() -> None:
    """Rules engine and rules-checking tools for the card game Out of Gears."""


for command in (replay, explain, dispute, whatif, render, new, simulate, schema, play):
    main.add_command(command)
