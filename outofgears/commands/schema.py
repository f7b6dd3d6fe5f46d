"""``outofgears schema``: print the JSON Schema of the log format."""

from __future__ import annotations

import json

import click

from outofgears.log import log_schema


@click.command()
def schema() -> None:
    """Print the JSON Schema (Draft 2020-12) of the log format outofgears-log/1."""
    click.echo(json.dumps(log_schema(), indent=2, ensure_ascii=False))
