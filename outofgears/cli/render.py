"""``outofgears render LOG --turn N -o FILE``: a picture of the table at one turn of a log.

The log is replayed up to turn N (departures of earlier turns do not stop it: the rules' values
are carried on, as ``replay`` does). The picture shows the table before turn N with the turn's
programs as arrows, or with ``--after`` the table after it. The file is written whole or not at
all: into a temporary file beside it, then moved into place; an existing file is kept unless
``--force`` is given.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING

import click

from outofgears.cli.common import (
    LOG_ARGUMENT,
    TURN_OPTION,
    deliver,
    fail,
    lang_option,
    load_log,
    output_option,
    output_path,
    say,
    source_name,
)
from outofgears.judge.compare import replay_to_turn
from outofgears.judge.replay import TurnReplay
from outofgears.log import LogError

if TYPE_CHECKING:
    from outofgears.pictures.render import Layout


def turn_picture(
    replayed: TurnReplay, *, after: bool = False, narrow: bool = False, lang: str = "en"
) -> str:
    """The SVG picture of a replayed turn: before it with its programs, or after it; in the
    narrow layout (for a phone) if asked; its words in ``lang`` (in Italian or French, the
    picture's own title, :func:`~outofgears.pictures.render.render_svg`).

    >>> from outofgears.log import GameLog, Start, TurnRecord
    >>> from outofgears.rules.programs import parse_program
    >>> log = GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=1),
    ...               turns=(TurnRecord(1, {1: parse_program("harvest 1"),
    ...                                     2: parse_program("attack 1")}),))
    >>> svg = turn_picture(replay_to_turn(log, 1))
    >>> "R2: attack 1" in svg, "the table after turn 1" in turn_picture(replay_to_turn(log, 1), after=True)
    (True, True)
    >>> 'viewBox="0 0 328 ' in turn_picture(replay_to_turn(log, 1), narrow=True)
    True
    """
    from outofgears.pictures.render import (
        render_svg,  # imported here rather than when the CLI starts
    )

    layout: Layout = "narrow" if narrow else "wide"
    english = lang == "en"
    if after:
        state = replayed.after  # the table's position when the turn followed it (SET-8)
        ending = ", the end of the game" if state.game_over else ""
        return render_svg(
            state,
            title=f"Out of Gears: the table after turn {replayed.turn}{ending}"
            if english
            else None,
            before=replayed.before,
            layout=layout,
            lang=lang,
        )
    return render_svg(
        replayed.before,
        replayed.programs,
        title=(
            f"Out of Gears: the table before turn {replayed.turn}, with its programs"
            if english
            else None
        ),
        layout=layout,
        lang=lang,
    )


#: File name endings of picture formats that ``render`` does not write: refused, rather than
#: an SVG document under a PNG's name.
OTHER_PICTURE_FORMATS = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".pdf", ".eps", ".ps"}
)


@click.command()
@LOG_ARGUMENT
@TURN_OPTION
@output_option("SVG file")
@click.option(
    "--after",
    is_flag=True,
    help="Draw the table after the turn instead of before it with its programs.",
)
@click.option(
    "--narrow",
    is_flag=True,
    help="Draw the narrow layout, 328 units wide, for a phone's screen: the robots and dumps "
    "in two columns, the arrows along the lanes between them.",
)
@lang_option("the picture's words")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
def render(
    log: str, turn: int, output: str, after: bool, narrow: bool, lang: str, force: bool
) -> None:
    """Draw the table at turn N of LOG as an SVG picture.

    The picture shows the octagon of dumps with their gears and each robot with the gears at
    its feet and in its circuit; every gear is labelled with its colour number and count, so
    that it reads without colour. By default it is the table before turn N, with the turn's
    programs as labelled arrows (an attack solid, a trap dashed, a harvest dotted); with
    --after, the table after turn N, what moved outlined (the position the table wrote down,
    when the turn departs and follows it: spec SET-8). With --narrow the picture is laid
    out for a phone: 328 units wide, as tall as it needs. --lang it or fr writes its words
    in Italian or French.

    The file is written whole or not at all, and an existing file is kept unless --force is
    given. Another picture format (-o x.png, .jpg, .pdf ...) is refused. Exit status 0; 2 when the log, the
    turn or the output file is invalid.
    """
    suffix = PurePath(output).suffix.lower() if output not in ("", "-") else ""
    if suffix in OTHER_PICTURE_FORMATS:
        fail(
            f"{output}: render writes SVG only; name the file *.svg (a browser or "
            "rsvg-convert turns it into a PNG)"
        )
    name = source_name(log)
    game = load_log(log)
    target = output_path(output, force=force)
    try:
        replayed = replay_to_turn(game, turn, name)
    except LogError as error:
        fail(error)
    picture = turn_picture(replayed, after=after, narrow=narrow, lang=lang)
    if deliver(picture, target, output, force=force):
        say(f"wrote {output}", err=True)
