"""``outofgears dispute``: placeholder, being written."""

from __future__ import annotations

import click


@click.command()
def dispute() -> None:
    """Placeholder."""
    raise click.ClickException("not written yet")
