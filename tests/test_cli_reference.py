"""The CLI reference shows real defaults, marks required options and has an example per command."""

from __future__ import annotations

import shlex

import click

from outofgears.cli.main import all_commands, main
from tests.cli_reference import EXAMPLES, cli_reference


def test_every_command_has_an_example_that_names_only_its_own_options() -> None:
    assert sorted(EXAMPLES) == sorted(all_commands())
    for name, (_, line) in EXAMPLES.items():
        words = shlex.split(line)
        assert words[:2] == ["outofgears", name]
        command = all_commands()[name]
        known = {opt for p in command.params if isinstance(p, click.Option) for opt in p.opts}
        assert {w for w in words[2:] if w.startswith("-") and w != "-"} <= known, line


def test_the_reference_shows_real_defaults_and_marks_required_options() -> None:
    page = cli_reference(main)
    assert "Sentinel" not in page
    assert "| `--turn` `N` | integer | **required** |" in page
    assert "| `--quiet` | flag | off |" in page
    assert "| `--format` | `text` \\| `json` | `text` |" in page
    assert page.count("**Example.**") == len(all_commands())
    for name in all_commands():
        assert f"\n## {name}\n" in page
