"""``outofgears view``: one self-contained HTML page that steps through a game log."""

from __future__ import annotations

import click

from outofgears.cli.common import (
    LOG_ARGUMENT,
    AsciiIntRange,
    deliver,
    fail,
    load_log,
    output_option,
    output_path,
    say,
    source_name,
)
from outofgears.judge.replay import replay_log
from outofgears.log import LogError


@click.command()
@LOG_ARGUMENT
@output_option("HTML file")
@click.option("--turn", type=AsciiIntRange(min=1), default=None, help="The turn the page opens at.")
@click.option(
    "--docs-url",
    metavar="URL",
    default=None,
    help="The documentation site, to link every clause to (its base address); without it a clause shows only its paraphrase.",
)
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
def view(log: str, output: str, turn: int | None, docs_url: str | None, force: bool) -> None:
    """Write a game viewer for LOG: one HTML file that steps through the game.

    The page needs no server and no network: it shows, turn by turn, the table before the
    turn with its programs and after it with what moved outlined, every event with its spec
    clause (a tap shows our paraphrase of the clause, with no network; with --docs-url also
    a link to the documentation site), the departures of the log from
    the rules, highlighted, and a chart of the scores. The arrow keys, Home and End move
    through the turns; --turn N (or #turn-N in the address) opens at turn N.

    The file is written whole or not at all, and an existing file is kept unless --force is
    given. Exit status 0 (a log that departs from the rules is shown, not refused); 2 when
    the log, the turn or the output file is invalid.
    """
    from outofgears.pictures.viewer import (
        game_html,  # imported here rather than when the CLI starts
    )

    target = output_path(output, force=force)
    name = source_name(log)
    game = load_log(log)
    try:
        replay = replay_log(game, name)
    except LogError as error:
        fail(error)
    numbers = [t.turn for t in replay.turns]
    if not numbers:
        fail(f"{name}: the log has no turn to show")
    if turn is not None and turn not in numbers:
        fail(f"--turn {turn}: the log's turns are {numbers[0]} to {numbers[-1]}")
    page = game_html(replay, title=f"Out of Gears: {name}", turn=turn, docs_url=docs_url)
    if deliver(page, target, output, force=force):
        say(f"wrote {output}", err=True)
