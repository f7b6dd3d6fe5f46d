"""``outofgears whatif``: placeholder, being written."""

from __future__ import annotations

import click


@click.command()
def whatif() -> None:
    """Placeholder."""
    raise click.ClickException("not written yet")
