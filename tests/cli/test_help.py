"""``outofgears --help`` lists the commands without importing them (issue 20)."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from outofgears.cli.main import COMMANDS, all_commands, main


def test_each_commands_summary_is_the_first_paragraph_of_its_own_help() -> None:
    for name, command in all_commands().items():
        first_paragraph = (command.help or "").split("\n\n")[0]
        assert COMMANDS[name][1] == " ".join(first_paragraph.split()), name


@pytest.mark.parametrize("width", [60, 80, 120])
def test_help_lists_the_commands_as_click_does_with_every_command_loaded(width: int) -> None:
    # The same group with click's own listing, which loads every command.
    plain = click.Group(name="outofgears", commands=all_commands())
    formatter = click.HelpFormatter(width=width)
    plain.format_commands(click.Context(plain), formatter)
    ours = click.HelpFormatter(width=width)
    main.format_commands(click.Context(main), ours)
    assert ours.getvalue() == formatter.getvalue()
    assert "simulate" in ours.getvalue()


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    listed = result.output.split("Commands:")[1].split("Exit statuses")[0]
    assert [line.split()[0] for line in listed.strip().splitlines()] == sorted(COMMANDS)


def test_help_imports_no_command_nor_what_the_commands_share() -> None:
    code = (
        "import sys; sys.argv = ['outofgears', '--help']\n"
        "from outofgears.cli.main import run\n"
        "try:\n    run()\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('outofgears.cli.')), "
        "file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "Commands:" in done.stdout
    assert done.stderr.strip() == "['outofgears.cli.main']"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_help_shows_a_bound_of_none(command: str) -> None:
    # An AsciiIntRange() without bounds once showed `[x<=None; required]` under --turn.
    result = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    assert "None" not in result.output
