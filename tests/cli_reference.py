"""The CLI reference page, generated from the click commands at site build time.

``scripts/gen_docs_pages.py`` writes it as ``reference/cli.md``. Each command gets its usage
line, its help as paragraphs (click's ``\\b`` blocks kept as preformatted text), a table of its
arguments and options with the real default ("off" for a flag, "required" in bold for a required
one, never click's internal ``Sentinel.UNSET``) and a worked example from :data:`EXAMPLES`.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Final

import click

from outofgears.cli.main import all_commands, main

#: One example per command: (what it does, the command line). Each runs from the repository
#: root on the shipped logs (``tests/test_cli_reference.py`` parses every one).
EXAMPLES: Final[Mapping[str, tuple[str, str]]] = {
    "replay": (
        "Check the shipped full game against the rules and print the scores.",
        "outofgears replay examples/full-game.log.json",
    ),
    "explain": (
        "Every event of turn 4 of the disputed game, with the clauses, in Italian.",
        "outofgears explain examples/disputed.log.json --turn 4 --lang it",
    ),
    "dispute": (
        "Which readings of the rule options change turn 4 of the disputed game.",
        "outofgears dispute examples/disputed.log.json --turn 4",
    ),
    "whatif": (
        "Turn 3 of the full game had robot 2 laid a trap on dump 1 instead.",
        'outofgears whatif examples/full-game.log.json --turn 3 --robot 2 --program "trap 1"',
    ),
    "render": (
        "Draw the table after turn 4 of the disputed game, narrow enough for a phone.",
        "outofgears render examples/disputed.log.json --turn 4 --after --narrow -o turn4.svg",
    ),
    "view": (
        "A page to share: step through the disputed game, opening at the turn in dispute.",
        "outofgears view examples/disputed.log.json --turn 4 -o game.html "
        "--docs-url https://docs.example.org/outofgears",
    ),
    "new": (
        "Start the log of a four-player game with the upgrade cards.",
        'outofgears new --players "Ada=1,Bruno=2,Carla=3,Dario=4" --upgrades --seed 7 -o game.json',
    ),
    "record": (
        "Start a three-robot game and record its first turn, every answer given as an option "
        "(nothing is asked); without --program it asks for each robot's program in turn.",
        'outofgears record game.json --robots 1,2,3 --seed 5 --program 1="harvest 1" '
        '--program 2="attack 2" --program 3="trap 1" --turns 1',
    ),
    "simulate": (
        "Play 100 random four-robot games and keep their logs.",
        "outofgears simulate --games 100 --robots 4 --seed 1 -o games.jsonl",
    ),
    "tournament": (
        "The greedy bot against three random bots, 40 games, the seats rotated.",
        "outofgears tournament greedy random random random --games 40 --seed 1",
    ),
    "schema": ("Print the JSON Schema of the log format.", "outofgears schema"),
    "play": (
        "Play the shipped seeded game with random programs.",
        "outofgears play examples/seeded-game.json --quiet",
    ),
    "conformance": (
        "Run the spec's conformance suite against this engine, as another one would be run.",
        'outofgears conformance --engine "python -m outofgears.judge.conformance" --clause SPL-6',
    ),
}


#: What the positional arguments are (click arguments carry no help of their own).
ARGUMENTS: Final[Mapping[str, str]] = {
    "LOG": "The game log (`outofgears-log/1`, JSON) to read; `-` reads standard input.",
    "GAME": "A seeded game file, such as `examples/seeded-game.json`.",
}


def default_text(param: click.Parameter) -> str:
    """What the reference says of a parameter's default.

    >>> default_text(click.Option(["--quiet"], is_flag=True))
    'off'
    >>> default_text(click.Option(["--turn"], type=int, required=True))
    '**required**'
    >>> default_text(click.Option(["--lang"], default="en"))
    '`en`'
    >>> default_text(click.Option(["--seed"], type=int))
    '—'
    """
    if param.required:
        return "**required**"
    if isinstance(param, click.Option) and param.is_flag:
        return "on" if param.default is True else "off"
    default = param.default
    if default is None or not isinstance(default, str | int | float | bool):
        return "—"
    return f"`{default}`"


def type_text(param: click.Parameter) -> str:
    """The values a parameter takes: its choices, or its type's name."""
    if isinstance(param, click.Option) and param.is_flag:
        return "flag"
    kind = param.type
    if isinstance(kind, click.Choice):
        return " \\| ".join(f"`{choice}`" for choice in kind.choices)
    if isinstance(kind, click.IntRange):
        if kind.min is not None and kind.max is not None:
            return f"integer {kind.min} to {kind.max}"
        if kind.min is not None:
            return f"integer of at least {kind.min}"
        if kind.max is not None:
            return f"integer of at most {kind.max}"
        return "integer"
    return str(kind.name)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def help_markdown(text: str) -> str:
    """A click help text as Markdown: paragraphs, and each ``\\b`` block preformatted.

    >>> print(help_markdown("One.\\n\\n    Two\\n    lines.\\n\\n    \\b\\n      a  b\\n      c  d\\n"))
    One.
    <BLANKLINE>
    Two lines.
    <BLANKLINE>
    ```text
    a  b
    c  d
    ```
    """
    out: list[str] = []
    for block in inspect.cleandoc(text).split("\n\n"):
        lines = block.splitlines()
        if lines and lines[0].strip() == "\b":
            body = inspect.cleandoc("\n".join(lines[1:]))
            out.append(f"```text\n{body}\n```")
        else:
            out.append(" ".join(" ".join(lines).split()))
    return "\n\n".join(out)


def command_section(name: str, command: click.Command, prog: str) -> str:
    """The reference of one command."""
    context = click.Context(command, info_name=f"{prog} {name}")
    lines = [
        f"## {name}",
        "",
        "```text",
        " ".join(context.command.collect_usage_pieces(context)).join([f"{prog} {name} ", ""]),
        "```",
        "",
        help_markdown(command.help or ""),
        "",
    ]
    if command.params:
        lines += [
            "| Argument or option | Values | Default | What it does |",
            "|---|---|---|---|",
        ]
        for param in command.params:
            if isinstance(param, click.Argument):
                names = f"`{param.make_metavar(context)}`"
                helped = ARGUMENTS.get(param.make_metavar(context), "")
            else:
                assert isinstance(param, click.Option)
                names = ", ".join(f"`{opt}`" for opt in param.opts)
                if param.metavar:
                    names += f" `{param.metavar}`"
                helped = param.help or ""
            lines.append(
                f"| {names} | {type_text(param)} | {default_text(param)} | {_cell(helped)} |"
            )
        lines.append("")
    example = EXAMPLES.get(name)
    if example is not None:
        what, line = example
        lines += [f"**Example.** {what}", "", "```sh", line, "```", ""]
    return "\n".join(lines)


def cli_reference(group: click.Group, prog: str = "outofgears") -> str:
    """The whole CLI reference page."""
    lines = [
        "# CLI reference",
        "",
        f"Generated from the click commands of `outofgears/cli/main.py`; in the repository as `CLI.md` (scripts/make_api_reference.py). "
        f"`{prog} --help` and `{prog} COMMAND --help` print the same help. Every command exits "
        "with status 2 on an invalid log or command line, with one message naming the file "
        "and, for a log, the JSON path; no Python traceback reaches the user.",
        "",
        "## Exit statuses",
        "",
        "| Status | Meaning |",
        "|--:|---|",
        "| 0 | Success; for `replay` and `record`, the log agrees with the rules. |",
        "| 1 | `replay`, `record` (and `explain` for its turn): the log departs from the rules "
        "(turn, robot, what was recorded, what the rules give). |",
        "| 2 | An invalid log, game file, command line or output file (not a regular file, or "
        "existing without `--force`); standard input closed; standard output closed or full. "
        "One message on standard error. |",
        "| 3 | An internal error: a defect of outofgears, reported in one line "
        "(`OUTOFGEARS_DEBUG=1` shows the traceback). |",
        '| 130 | Interrupted by SIGINT (Ctrl-C); no "Aborted!", no temporary file left. |',
        "| 141 | Standard output closed by its reader (`... \\| head`): SIGPIPE's status, and "
        "nothing printed. |",
        "| 143 | Terminated by SIGTERM; no temporary file left. |",
        "",
        "Names and free text taken from a log, a game file or the command line are printed "
        "escaped: control characters, line and paragraph separators and bidi controls appear "
        "as `\\x1b`, `\\u2028`, `\\u202e` and so on (`outofgears.errors.printable`), so one line "
        "of a report is always one line; JSON output writes them as `\\uXXXX` escapes.",
        "",
        "## Commands",
        "",
        "| Command | What it does |",
        "|---|---|",
    ]
    commands = all_commands() if group is main else dict(group.commands)
    for name, command in commands.items():
        summary = command.get_short_help_str(limit=200)
        lines.append(f"| [`{name}`](#{name}) | {_cell(summary)} |")
    lines.append("")
    for name, command in commands.items():
        lines.append(command_section(name, command, prog))
    return "\n".join(lines)
