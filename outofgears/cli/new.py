"""``outofgears new``: write the skeleton of a log for a new game.

The skeleton holds the versions that wrote it, the players and their robots,
the two-robot variant flag, every rule option, the seed of the setup shuffle
and an empty list of turns; the table then appends a turn at a time. A file is
written whole or not at all: to a temporary file beside it, then renamed over
it; an existing file is kept unless ``--force``.
"""

from __future__ import annotations

from typing import Any

import click

from outofgears.cli.common import (
    deliver,
    lang_option,
    output_path,
    say,
)
from outofgears.cli.starting import (
    Header,
    header_options,
    new_game,
)
from outofgears.words import position_lines, translator


@click.command()
@header_options
@click.option(
    "-o",
    "--output",
    type=str,
    help="The file to write (default, or '-': standard output).",
)
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@lang_option("the layout's questions, the refusals and the table printed")
def new(output: str | None, force: bool, lang: str, **header: Any) -> None:
    """Write the log of a new game, ready for its turns.

    The log records the engine and spec versions, the players and their robots, the variant, every
    rule option and the seed of the setup shuffle, with an empty list of turns. It goes to
    standard output, or to FILE with -o: written whole or not at all, and an existing FILE is
    kept unless --force.

    A real table deals its own start: --dump for each dump in play, --feet and --circuit for
    any gears a robot starts with, --reserve for the face-down pile as counts (default: the
    rest of the box), or --layout to be asked for them. The log then starts from that layout
    (its reserve's order unknown: each turn says what was turned up) instead of a seed; it is
    checked like a typed-in position, and a refusal names the option.

    Then the table the game starts from (each robot's gears, each dump, the size of the
    reserve) is printed: on standard output after writing FILE, on standard error when the log
    itself goes to standard output (so that the log stays a JSON document).

    Exit status 0; 2 for invalid robots, players or options, or a file that cannot be written.
    """
    game = new_game(Header(**header), prompts_to_stderr=output in (None, "-"), lang=lang)
    target = output_path(output, force=force)
    written = deliver(game.text, target, output, force=force)
    if written:
        say(game.written_line(str(output), lang))
    starts = translator(lang).gettext("The table it starts from (turn {turn}):")
    say(starts.format(turn=game.start.turn), err=not written)
    for line in position_lines(game.start, lang):
        say(line, err=not written)
