"""``outofgears schema``: print the JSON Schema of the log format."""

from __future__ import annotations

import click

from outofgears.cli.common import echo_json
from outofgears.log import log_schema


@click.command()
def schema() -> None:
    """Print the JSON Schema (Draft 2020-12) of the log format outofgears-log/1."""
    echo_json(log_schema())
