"""``outofgears view``: one self-contained HTML page that steps through a game log."""

from __future__ import annotations

import datetime
import os

import click

from outofgears.cli.common import (
    LOG_ARGUMENT,
    AsciiIntRange,
    deliver,
    fail,
    lang_option,
    load_log,
    output_option,
    output_path,
    say,
    source_name,
)
from outofgears.judge.replay import UndecidedError, replay_log
from outofgears.log import LogError


def log_date(path: str) -> str | None:
    """The date of a log file (its last change, in UTC) for the page's title; ``None`` for
    standard input or a file whose date cannot be read."""
    if path == "-":
        return None
    try:
        changed = os.stat(path).st_mtime
    except OSError:
        return None
    return datetime.datetime.fromtimestamp(changed, datetime.UTC).date().isoformat()


@click.command()
@LOG_ARGUMENT
@output_option("HTML file")
@click.option("--turn", type=AsciiIntRange(min=1), default=None, help="The turn the page opens at.")
@click.option(
    "--docs-url",
    metavar="URL",
    default=None,
    help="The documentation site, to link every clause to (its base address: http://, "
    "https:// or relative); without it a clause shows only its paraphrase.",
)
@lang_option("the page's words, its pictures and the clause paraphrases")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
def view(
    log: str, output: str, turn: int | None, docs_url: str | None, lang: str, force: bool
) -> None:
    """Write a game viewer for LOG: one HTML file that steps through the game.

    The page needs no server and no network: it shows, turn by turn, the table before the
    turn with its programs and after it with what moved outlined (a click enlarges a
    picture), every event with its spec clause (a tap shows our paraphrase of the clause,
    with no network; with --docs-url also a link to the documentation site), the departures
    of the log from the rules, highlighted and told in the players' words (where in the log
    each sits on request), and a chart of the scores. The title names the players and the
    log file's date. The arrow keys, Home and End move through the turns; --turn N (or
    #turn-N in the address) opens at turn N. A log of more than 30 turns is shown a page of
    30 turns at a time, and --turn N writes the page that holds turn N (the later turns are
    not read). --lang it or fr gives the page's words, the pictures and their text
    alternatives, the events, the programs and the paraphrases in Italian or French.

    The file is written whole or not at all, and an existing file is kept unless --force is
    given. Exit status 0 (a log that departs from the rules is shown, not refused); 2 when
    the log, the turn, the address or the output file is invalid; 4 when the log is undecided
    by the page's last turn (more positions agree with it than replay carries).
    """
    from outofgears.pictures.viewer import (  # imported here rather than when the CLI starts
        DocsUrlError,
        checked_docs_url,
        game_html,
        page_of,
    )

    if docs_url is not None:
        try:
            docs_url = checked_docs_url(docs_url)
        except DocsUrlError as error:
            fail(error)
    target = output_path(output, force=force)
    name = source_name(log)
    game = load_log(log)
    numbers = [record.turn for record in game.turns]
    if not numbers:
        fail(f"{name}: the log has no turn to show")
    if turn is not None and turn not in numbers:
        fail(f"--turn {turn}: the log's turns are {numbers[0]} to {numbers[-1]}")
    shown = page_of(len(numbers), numbers.index(turn) if turn is not None else 0)
    try:  # the turns after the page are not read
        replay = replay_log(game, name, through=numbers[shown][-1])
    except LogError as error:
        fail(error)
    if replay.undecided is not None:  # the page would show a game the log does not settle
        fail(UndecidedError(name, replay.undecided))
    page = game_html(replay, turn=turn, docs_url=docs_url, lang=lang, date=log_date(log))
    if deliver(page, target, output, force=force):
        say(f"wrote {output}", err=True)
