"""``outofgears new``: placeholder, being written."""

from __future__ import annotations

import click


@click.command()
def new() -> None:
    """Placeholder."""
    raise click.ClickException("not written yet")
