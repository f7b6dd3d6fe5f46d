"""``outofgears simulate``: placeholder, being written."""

from __future__ import annotations

import click


@click.command()
def simulate() -> None:
    """Placeholder."""
    raise click.ClickException("not written yet")
