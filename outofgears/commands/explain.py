"""``outofgears explain``: placeholder, being written."""

from __future__ import annotations

import click


@click.command()
def explain() -> None:
    """Placeholder."""
    raise click.ClickException("not written yet")
