"""Pictures of the table: a position, and the programs of a turn, as a standalone SVG image.

:func:`render_svg` draws what a table would see from above: the octagon of dumps in the
middle (ascending dump number is clockwise, ruling R-EXPLORE; the dumps not in play lie face
down), each robot in play behind its dump with its circuit and the gears at its feet, and, when
the turn's programs are given, one arrow per program from the robot to what it names.

Colour is never the only carrier of meaning, so the picture reads in print and for colour-blind
readers: every gear shows its colour number (a Jolly is a star marked ``J``, a three-point gear
a triangle marked ``3P``) and how many of it there are (``\N{MULTIPLICATION SIGN}2``), every robot and dump is named in
text, every arrow carries its program in words and has its own line style (an attack is solid, a
trap dashed, a harvest dotted), and the ``<title>`` and ``<desc>`` of the image say the whole
position in words for screen readers.

The output is deterministic: the same position and programs always give the same text.
"""

from __future__ import annotations

import itertools
import math
import re
import textwrap
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from typing import Final, Literal

import attrs
from attrs import frozen

from outofgears.errors import ArgumentTypeError, expect, printable
from outofgears.pictures.lanes import Box, Cell, Lanes, Point, crosses, route, segments_cross
from outofgears.rules.attacks import attackers_by_target
from outofgears.rules.gears import (
    ROBOT_NUMBERS,
    Gear,
    GearKind,
    gear_key,
)
from outofgears.rules.model import Dump, GameState, Place, Robot, UpgradeCard, expect_state
from outofgears.rules.programs import (
    Action,
    AnyProgram,
    Program,
    ProgramReading,
    UpgradeProgram,
    expect_programs,
)
from outofgears.rules.scoring import score_robot
from outofgears.words import LANGUAGES, card_name, gears_text, place_text, program_text, translator

#: The sign written before a count of gears (the multiplication sign).
TIMES: Final = "\N{MULTIPLICATION SIGN}"
#: The centre of the table, in SVG user units; the picture is cropped to what it shows.
_CENTRE: Final = 560
#: Distance from the centre of the table to the dumps and to the robots, across and down
#: (the boxes are wider than they are tall).
_DUMP_RADIUS: Final = (265.0, 235.0)
_ROBOT_RADIUS: Final = (530.0, 445.0)
#: Box sizes: robots and dumps are taller when they hold many kinds of gear.
_ROBOT_WIDTH: Final = 212
_DUMP_WIDTH: Final = 160
_ROW: Final = 24
_CELL: Final = 46
_ROBOT_LABEL: Final = 63
_MARGIN: Final = 16

#: The fill of each gear colour, and whether its number is written in white on it.
#: Okabe and Ito's palette for colour-blind readers (vermilion, orange, yellow, bluish green,
#: blue, reddish purple), with a dark grey and a white: the eight stay apart under protanopia,
#: deuteranopia and tritanopia (``tests/test_render.py`` simulates them), and the number on
#: every gear says the colour anyway.
GEAR_FILLS: Final[dict[int, str]] = {
    1: "#d55e00",
    2: "#e69f00",
    3: "#f0e442",
    4: "#009e73",
    5: "#0072b2",
    6: "#cc79a7",
    7: "#5a5a5a",
    8: "#ffffff",
}
_WHITE_TEXT: Final = frozenset({5, 7})
#: The darker shade of each colour, for a robot's outline and its arrows.
INK: Final[dict[int, str]] = {
    1: "#a0460a",
    2: "#8f6200",
    3: "#736c00",
    4: "#006b4e",
    5: "#004f7c",
    6: "#8e4672",
    7: "#555555",
    8: "#222222",
}
#: The light tint that fills a robot's box.
_TINT: Final[dict[int, str]] = {
    1: "#fbe5d9",
    2: "#fdf0d5",
    3: "#fcf9d9",
    4: "#d9f2ea",
    5: "#d9eaf5",
    6: "#f6e6ef",
    7: "#eeeeee",
    8: "#fafafa",
}
#: The smallest text of a picture, in pixels at its natural size (the documentation shows the
#: pictures at that size, never scaled down).
MIN_FONT_SIZE: Final = 12

#: How each kind of program is drawn: its dash pattern (``""`` is a solid line).
_DASHES: Final[dict[str, str]] = {
    "attack": "",
    "trap": "10 6",
    "harvest": "1 6",
    "super attack": "",
    "counter defence": "",
    "super trap": "10 6",
    "super harvest": "1 6",
    "super shovel": "14 4 2 4",
}


def svg_text(
    x: float, y: float, words: str, css_class: str | None = None, title: str | None = None
) -> str:
    """One ``<text>`` element: every word a picture writes goes through here, escaped
    (:func:`_xml`); ``title`` is shown on hovering (a name cut short, in full).

    >>> svg_text(10, 20.5, "Bruno & <Co>", "name")
    '<text x="10" y="20.5" class="name">Bruno &amp; &lt;Co&gt;</text>'
    """
    attribute = f' class="{css_class}"' if css_class else ""
    hover = f"<title>{_xml(title)}</title>" if title else ""
    return f'<text x="{_n(x)}" y="{_n(y)}"{attribute}>{hover}{_xml(words)}</text>'


#: How many narrow characters of a player's name a robot's box shows (a wide one counts 2).
NAME_WIDTH: Final = 12
_XML_FORBIDDEN = re.compile("[\ufffe\uffff]")


def _xml(text: str) -> str:
    """``text`` as XML character data: controls, bidi characters and lone surrogates escaped
    as visible ``\\x..``/``\\u....`` (they are not allowed in XML, or would reorder the text),
    then ``&``, ``<``, ``>`` and quotes as entities.

    >>> _xml("A<B>\\x00\\u202e")
    'A&lt;B&gt;\\\\x00\\\\u202e'
    """
    text = _XML_FORBIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", printable(text))
    return escape(text)


def short_name(name: str, width: int = NAME_WIDTH) -> str:
    """A player's name cut to fit a robot's box, with an ellipsis when cut.

    East Asian wide and full-width characters count twice; control and bidi characters
    are escaped first (:func:`outofgears.errors.printable`), and the escapes count.

    >>> short_name("Ada"), short_name("Bartholomew-Alexander")
    ('Ada', 'Bartholomew…')
    """
    text = printable(name)
    widths = [2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text]
    if sum(widths) <= width:
        return text
    used = 0
    for index, char_width in enumerate(widths):
        if used + char_width > width - 1:
            return text[:index].rstrip() + "\N{HORIZONTAL ELLIPSIS}"
        used += char_width
    return text  # pragma: no cover - the loop always returns


def _n(value: float) -> str:
    """A coordinate as text, always written the same way."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def slot(number: int, radius: tuple[float, float]) -> tuple[float, float]:
    """Where slot ``number`` (1-8) of the octagon is, at ``radius`` (across, down) from the centre.

    Slot 1 is at the top and the numbers go clockwise (ruling R-EXPLORE).

    >>> slot(1, (100, 80)), slot(3, (100, 80))
    ((560.0, 480.0), (660.0, 560.0))
    """
    angle = math.radians(-90 + 45 * (number - 1))
    return (
        round(_CENTRE + radius[0] * math.cos(angle), 1),
        round(_CENTRE + radius[1] * math.sin(angle), 1),
    )


def gear_label(gear: Gear) -> str:
    """The text written on a gear in a picture: its colour number, ``J`` or ``3P``.

    >>> from outofgears.rules.gears import JOLLY, THREE_POINT
    >>> gear_label(Gear(5)), gear_label(JOLLY), gear_label(THREE_POINT)
    ('5', 'J', '3P')
    """
    if gear.kind is GearKind.JOLLY:
        return "J"
    if gear.kind is GearKind.THREE_POINT:
        return "3P"
    return str(gear.colour)


def _count(number: int, lang: str = "en") -> str:
    return (
        translator(lang)
        .npgettext("picture", "{count} gear", "{count} gears", number)
        .format(count=number)
    )


def _points(points: int, lang: str) -> str:
    """A robot's score in words (``12 points``)."""
    return (
        translator(lang)
        .npgettext("picture", "{count} point", "{count} points", points)
        .format(count=points)
    )


def _robot_colour(number: int, lang: str) -> str:
    """The colour of a robot, as a noun (a robot is named by its colour, not a gear's)."""
    t = translator(lang)
    names = {
        1: t.pgettext("robot colour", "red"),
        2: t.pgettext("robot colour", "orange"),
        3: t.pgettext("robot colour", "yellow"),
        4: t.pgettext("robot colour", "green"),
        5: t.pgettext("robot colour", "blue"),
        6: t.pgettext("robot colour", "purple"),
        7: t.pgettext("robot colour", "grey"),
        8: t.pgettext("robot colour", "white"),
    }
    return names[number]


def _place_word(place: str, lang: str) -> str:
    """The word for a robot's place written in its box (``circuit``, ``feet``)."""
    t = translator(lang)
    if place == "circuit":
        return t.pgettext("picture", "circuit")
    return t.pgettext("picture", "feet")


def _gear_counts(items: Sequence[Gear]) -> list[tuple[Gear, int]]:
    counts = Counter(items)
    return [(gear, counts[gear]) for gear in sorted(counts, key=gear_key)]


def _rows(kinds: int, per_row: int) -> int:
    return max(1, math.ceil(kinds / per_row))


def _gear_glyph(gear: Gear, x: float, y: float) -> list[str]:
    """One gear: a toothed disc of its colour with its number, or the shape of its kind."""
    if gear.kind is GearKind.JOLLY:
        points = " ".join(
            f"{_n(x + r * math.cos(math.radians(-90 + 36 * i)))},"
            f"{_n(y + r * math.sin(math.radians(-90 + 36 * i)))}"
            for i, r in enumerate([11, 5] * 5)
        )
        return [
            f'<polygon points="{points}" fill="#ffffff" stroke="#222222" stroke-width="1.5"/>',
            svg_text(x, y + 3.5, gear_label(gear), "gl"),
        ]
    if gear.kind is GearKind.THREE_POINT:
        points = f"{_n(x)},{_n(y - 14)} {_n(x + 14)},{_n(y + 9)} {_n(x - 14)},{_n(y + 9)}"
        return [
            f'<polygon points="{points}" fill="#e0e0e0" stroke="#222222" stroke-width="1.5"/>',
            svg_text(x, y + 6, gear_label(gear), "gl small"),
        ]
    text_class = "gl light" if gear.colour in _WHITE_TEXT else "gl"
    return [
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="10" fill="none" stroke="#222222" '
        'stroke-width="3.5" stroke-dasharray="2.6 2.6"/>',
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8.5" fill="{GEAR_FILLS[gear.colour]}" '
        'stroke="#222222" stroke-width="1"/>',
        svg_text(x, y + 4, gear_label(gear), text_class),
    ]


@frozen
class _Style:
    """The sizes of one layout's boxes and arrows."""

    #: Width of a robot's box and of a dump's.
    robot_width: float
    dump_width: float
    #: Width of one gear cell (the gear and its count), and how many stand in a row.
    cell: float
    cells: int
    #: Whether a place's name (``circuit 2``) stands beside its gears or above them.
    label_beside: bool
    #: The most characters a line of a box holds (longer lines wrap); ``None``: no limit.
    line_chars: int | None
    #: Whether a dump's count of gears shares the line of its name.
    dump_count_beside: bool
    #: The space below a box's last row of gears, and the width of an arrow's line.
    bottom: float
    stroke: float
    #: Whether each arrow writes its program beside it (the narrow layout writes it once,
    #: in the robot's box, where the arrow starts).
    arrow_labels: bool
    #: The width of a place's name when it stands beside its gears.
    label_width: float = _ROBOT_LABEL


_WIDE: Final = _Style(
    robot_width=_ROBOT_WIDTH,
    dump_width=_DUMP_WIDTH,
    cell=_CELL,
    cells=3,
    label_beside=True,
    line_chars=None,
    dump_count_beside=True,
    bottom=10,
    stroke=3.5,
    arrow_labels=True,
)


def _gear_cells(
    items: Sequence[Gear], left: float, top: float, style: _Style, what: str, lang: str = "en"
) -> list[str]:
    """The gears of one place, one cell per kind of gear with its count; ``none`` if empty."""
    if not items:
        none = translator(lang).pgettext("no gears", "none")
        return [svg_text(left, top + 16, none, "none")]
    parts: list[str] = []
    for index, (gear, count) in enumerate(_gear_counts(items)):
        x = left + 11 + style.cell * (index % style.cells)
        y = top + 12 + _ROW * (index // style.cells)
        parts.append(f"<g><title>{_xml(what)}: {_xml(gears_text([gear] * count, lang))}</title>")
        parts += _gear_glyph(gear, x, y)
        parts.append(svg_text(x + 13, y + 4, f"{TIMES}{count}", "count") + "</g>")
    return parts


def _place_height(items: Sequence[Gear], style: _Style) -> float:
    """The height a place's gears take in a box: beside its name, or under it (an empty
    place is then its name alone, ``circuit 0``)."""
    if style.label_beside:
        return _ROW * _rows(len(set(items)), style.cells)
    return 16 + (_ROW * _rows(len(set(items)), style.cells) if items else 0)


def _robot_height(robot: Robot, lines: int, style: _Style) -> float:
    places = _place_height(robot.circuit, style) + _place_height(robot.feet, style)
    return 18 + 16 * lines + 8 + places + style.bottom


def _dump_name(number: int, lang: str) -> str:
    return translator(lang).pgettext("picture", "Dump {number}").format(number=number)


def _dump_head(dump: Dump, moved: str, style: _Style, lang: str = "en") -> list[str]:
    """The lines at the top of a dump's box: its name (and count), what moved."""
    name = _dump_name(dump.number, lang)
    if style.dump_count_beside:
        lines = [f"{name} · {_count(len(dump.gears), lang)}"]
    else:
        lines = [name, _count(len(dump.gears), lang)]
    moved_line = translator(lang).pgettext("picture", "moved {moves}").format(moves=moved)
    return lines + ([moved_line] if moved else [])


def _dump_height(dump: Dump, moved: str = "", style: _Style = _WIDE, lang: str = "en") -> float:
    lines = len(_dump_head(dump, moved, style, lang))
    return 14 + 16 * lines + _ROW * _rows(len(set(dump.gears)), style.cells) + 6


def moved_text(before: Sequence[Gear], after: Sequence[Gear]) -> str:
    """How many gears a place gained and lost between two pictures; empty if none moved.

    >>> moved_text((Gear(1), Gear(2)), (Gear(2), Gear(3), Gear(3)))
    '+2 \N{MINUS SIGN}1'
    >>> moved_text((Gear(1),), (Gear(1),))
    ''
    """
    gained = sum((Counter(after) - Counter(before)).values())
    lost = sum((Counter(before) - Counter(after)).values())
    words = ([f"+{gained}"] if gained else []) + ([f"\N{MINUS SIGN}{lost}"] if lost else [])
    return " ".join(words)


def _robot_moves(robot: Robot, before: GameState | None, lang: str = "en") -> str:
    if before is None or robot.number not in before.robot_numbers:
        return ""
    old = before.robot(robot.number)
    moves = [
        f"{_place_word(place, lang)} {text}"
        for place, text in (
            ("circuit", moved_text(old.circuit, robot.circuit)),
            ("feet", moved_text(old.feet, robot.feet)),
        )
        if text
    ]
    return ", ".join(moves)


def _dump_moves(dump: Dump, before: GameState | None) -> str:
    if before is None:
        return ""
    old = {d.number: d for d in before.dumps}.get(dump.number)
    return moved_text(old.gears if old is not None else (), dump.gears)


def _robot_lines(
    state: GameState,
    robot: Robot,
    program: AnyProgram | None,
    before: GameState | None = None,
    style: _Style = _WIDE,
    lang: str = "en",
) -> list[str]:
    t = translator(lang)
    player = state.player_of(robot.number)
    lines = [f"{short_name(player.name)} · {_points(score_robot(robot), lang)}"]
    moves = _robot_moves(robot, before, lang)
    if moves:
        lines.append(t.pgettext("picture", "moved: {moves}").format(moves=moves))
    if player.upgrade is not None:
        card = card_name(player.upgrade, lang)
        lines.append(t.pgettext("picture", "holds: {card}").format(card=card))
    if program is not None:
        played = program_text(program, lang)
        if program.is_defence_of(robot.number):
            lines.append(t.pgettext("picture", "plays: {program} (defence)").format(program=played))
        else:
            lines.append(t.pgettext("picture", "plays: {program}").format(program=played))
    return [part for line in lines for part in wrapped(line, style.line_chars)]


def wrapped(line: str, width: int | None) -> list[str]:
    """A line of a box cut into lines of at most ``width`` characters: at a `` · ``, a comma
    or a colon first, then between words; ``None`` leaves it whole.

    >>> wrapped("Bartholomew… · 12 points", 16), wrapped("plays: super harvest", 16)
    (['Bartholomew…', '12 points'], ['plays:', 'super harvest'])
    >>> wrapped("moved: circuit +2, feet +1", 16)
    ['moved:', 'circuit +2,', 'feet +1']
    """
    if width is None or len(line) <= width:
        return [line]
    for separator, keep in ((" · ", ""), (", ", ","), (": ", ":")):
        head, found, tail = line.partition(separator)
        if found and len(head) + len(keep) <= width:
            return [head + keep, *wrapped(tail, width)]
    return textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)


def _draw_robot(
    state: GameState,
    robot: Robot,
    program: AnyProgram | None,
    box: Box,
    lines: list[str],
    style: _Style = _WIDE,
    lang: str = "en",
) -> list[str]:
    t = translator(lang)
    number = robot.number
    colour = _robot_colour(number, lang)
    hover = t.pgettext("picture", "Robot {number} ({colour}), {player} · {points}").format(
        number=number,
        colour=colour,
        player=state.player_of(number).name,
        points=_points(score_robot(robot), lang),
    )
    parts = [f'<g class="robot" id="robot-{number}">', f"<title>{_xml(hover)}</title>"]
    if program is not None and program.is_defence_of(number):
        parts.append(
            f'<rect x="{_n(box.left - 6)}" y="{_n(box.top - 6)}" width="{_n(box.width + 12)}" '
            f'height="{_n(box.height + 12)}" rx="12" fill="none" stroke="{INK[number]}" '
            'stroke-width="2" stroke-dasharray="6 3"/>'
        )
    parts.append(
        f'<rect x="{_n(box.left)}" y="{_n(box.top)}" width="{_n(box.width)}" '
        f'height="{_n(box.height)}" rx="8" fill="{_TINT[number]}" stroke="{INK[number]}" '
        'stroke-width="3"/>'
    )
    left = box.left + 8
    y = box.top + 18
    name = t.pgettext("picture", "Robot {number} · {colour}").format(number=number, colour=colour)
    parts.append(svg_text(left, y, name, "name"))
    full_name = state.player_of(number).name
    cut = short_name(full_name) != full_name
    for index, line in enumerate(lines):
        y += 16
        parts.append(svg_text(left, y, line, title=full_name if index == 0 and cut else None))
    y += 8
    for place, items in ((Place.circuit(number), robot.circuit), (Place.feet(number), robot.feet)):
        what = place_text(place, lang)
        label = f"{_place_word(place.kind.value, lang)} {len(items)}"
        if style.label_beside:
            parts.append(svg_text(left, y + 16, label, "place"))
            parts += _gear_cells(items, left + style.label_width, y, style, what, lang)
        else:
            parts.append(svg_text(left, y + 12, label, "place"))
            if items:
                parts += _gear_cells(items, left, y + 16, style, what, lang)
        y += _place_height(items, style)
    parts.append("</g>")
    return parts


def _moved_ring(box: Box) -> str:
    """The thick black outline of a place whose gears moved (shape, not colour, says it)."""
    return (
        f'<rect class="moved" x="{_n(box.left - 5)}" y="{_n(box.top - 5)}" '
        f'width="{_n(box.width + 10)}" height="{_n(box.height + 10)}" rx="10" fill="none" '
        'stroke="#000000" stroke-width="4" stroke-dasharray="9 4"/>'
    )


def _draw_dump(
    dump: Dump, box: Box, moved: str = "", style: _Style = _WIDE, lang: str = "en"
) -> list[str]:
    what = f"{_dump_name(dump.number, lang)}: {gears_text(dump.gears, lang)}"
    parts = [
        f'<g class="dump" id="dump-{dump.number}">',
        f"<title>{_xml(what)}</title>",
        f'<rect x="{_n(box.left)}" y="{_n(box.top)}" width="{_n(box.width)}" '
        f'height="{_n(box.height)}" rx="6" fill="#f4efe6" stroke="#6d5c45" stroke-width="2"/>',
    ]
    head = _dump_head(dump, moved, style, lang)
    for index, line in enumerate(head):
        parts.append(
            svg_text(box.left + 8, box.top + 18 + 16 * index, line, "name" if index == 0 else None)
        )
    top = box.top + 10 + 16 * len(head)
    where = place_text(Place.dump(dump.number), lang)
    parts += _gear_cells(dump.gears, box.left + 8, top, style, where, lang)
    parts.append("</g>")
    if moved:
        parts.append(_moved_ring(box))
    return parts


#: A face-down dump: a small grey card with its number.
_FACE_DOWN: Final = (34.0, 28.0)


def _draw_face_down(number: int, box: Box, lang: str = "en") -> list[str]:
    what = translator(lang).pgettext("picture", "Dump {number}: not in play, face down")
    return [
        f'<g class="dump face-down"><title>{_xml(what.format(number=number))}</title>',
        f'<rect x="{_n(box.left)}" y="{_n(box.top)}" width="{_n(box.width)}" '
        f'height="{_n(box.height)}" rx="5" fill="#eeeeee" stroke="#999999" stroke-width="1.5" '
        'stroke-dasharray="4 3"/>',
        svg_text(box.x, box.y + 4.5, str(number), "faint"),
        "</g>",
    ]


def program_targets(
    robot: int,
    program: AnyProgram,
    programs: Mapping[int, AnyProgram],
    state: GameState,
    lang: str = "en",
) -> list[tuple[str, int, str]]:
    """What one program points at in a picture: ``(kind, number, label)`` per arrow.

    ``kind`` is ``"robot"`` or ``"dump"``. A defence points at nothing (the robot is circled
    instead); a Super Attack points at every other robot, a Counter Defence at every robot that
    programmed a defence, a Super Trap, Super Harvest or Super Shovel at every dump in play.

    >>> from outofgears import setup_game
    >>> state = setup_game([1, 2, 3], seed=1)
    >>> laid = {1: Program.parse("attack 2"), 2: Program.parse("harvest 3")}
    >>> program_targets(1, laid[1], laid, state), program_targets(2, laid[2], laid, state)
    ([('robot', 2, 'attack 2')], [('dump', 3, 'harvest 3')])
    """
    label = program_text(program, lang)
    if isinstance(program, Program) and program.action is not Action.ATTACK:
        return [("dump", program.number, label)]
    if isinstance(program, Program) or program.card in (
        UpgradeCard.SUPER_ATTACK,
        UpgradeCard.COUNTER_DEFENCE,
    ):
        attackers = attackers_by_target(ProgramReading(state, programs, check=False))
        return [
            ("robot", target, label) for target, hitting in attackers.items() if robot in hitting
        ]
    return [("dump", number, label) for number in state.robot_numbers]


def _arrow_kind(program: AnyProgram) -> str:
    if isinstance(program, UpgradeProgram):
        return program.card.value
    return program.action.value


#: Size of the arrow labels: font size, and the width of an average character in ems (errs
#: wide, so that a label's box holds its text).
_LABEL_FONT: Final = 12
_LABEL_CHAR: Final = 0.64
#: How far an arrow may bend sideways to go round a box, tried in this order.
_BENDS: Final = (0, 60, -60, 120, -120, 180, -180, 240, -240, 300, -300)
#: Where along its arrow a label may sit (a fraction of the way), and how far beside it.
_LABEL_STOPS: Final = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.15, 0.85, 0.1, 0.9)
_LABEL_SIDES: Final = (6, -6, 18, -18, 32, -32, 50, -50, 70, -70)


def _curve(
    x1: float, y1: float, cx: float, cy: float, x2: float, y2: float, steps: int = 24
) -> list[tuple[float, float]]:
    """Points along the quadratic curve from (x1, y1) to (x2, y2) pulled towards (cx, cy)."""
    return [
        (
            (1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t**2 * x2,
            (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t**2 * y2,
        )
        for t in (i / steps for i in range(steps + 1))
    ]


@frozen
class _Arrow:
    """One arrow laid out: its robot, program and target, its SVG path and points along it."""

    colour: int
    kind: str
    label: str
    target_id: str
    path: str
    points: tuple[Point, ...]


def _lay_arrow(
    source: Box,
    target: Box,
    colour: int,
    kind: str,
    label: str,
    offset: float,
    target_id: str,
    obstacles: Sequence[Box],
    laid: Sequence[_Arrow] = (),
) -> _Arrow:
    """The arrow from one box to another, bent as little as it can to go round the others and,
    where a bend allows, without crossing an arrow already ``laid``."""
    length = math.hypot(target.x - source.x, target.y - source.y) or 1.0
    # the normal, to the right of the direction of travel: two robots attacking each other get
    # two arrows side by side
    nx, ny = -(target.y - source.y) / length, (target.x - source.x) / length
    others = [box for box in obstacles if box is not source and box is not target]
    chosen: _Arrow | None = None
    clear: _Arrow | None = None
    for bend in _BENDS:
        cx = (source.x + target.x) / 2 + nx * (2 * bend + offset)
        cy = (source.y + target.y) / 2 + ny * (2 * bend + offset)
        x1, y1 = source.edge_towards(cx, cy)
        x2, y2 = target.edge_towards(cx, cy, margin=9)
        x1, y1, x2, y2 = x1 + nx * offset, y1 + ny * offset, x2 + nx * offset, y2 + ny * offset
        points = tuple(_curve(x1, y1, cx, cy, x2, y2))
        path = f"M{_n(x1)},{_n(y1)} Q{_n(cx)},{_n(cy)} {_n(x2)},{_n(y2)}"
        arrow = _Arrow(colour, kind, label, target_id, path, points)
        if chosen is None:
            chosen = arrow
        if not any(crosses(points, box) for box in others):
            if not any(_arrows_cross(points, other.points) for other in laid):
                return arrow
            clear = clear or arrow
    if clear is not None:
        return clear
    assert chosen is not None
    return chosen


def _arrows_cross(
    first: Sequence[tuple[float, float]], second: Sequence[tuple[float, float]]
) -> bool:
    """Whether two curves cross away from their ends (arrows from one robot, or to one
    place, meet there by design)."""
    cut_first, cut_second = len(first) // 10, len(second) // 10
    one = first[cut_first : len(first) - cut_first]
    two = second[cut_second : len(second) - cut_second]
    return any(
        segments_cross(a, b, c, d)
        for a, b in itertools.pairwise(one)
        for c, d in itertools.pairwise(two)
    )


def _label_box(label: str, x: float, y: float) -> Box:
    return Box(x, y, len(label) * _LABEL_FONT * _LABEL_CHAR, _LABEL_FONT + 2)


def _place_label(
    arrow: _Arrow, obstacles: Sequence[Box], placed: Sequence[Box], arrows: Sequence[_Arrow]
) -> Box:
    """Where an arrow's label goes: beside its curve, clear of boxes, labels and arrows."""
    text = f"R{arrow.colour}: {arrow.label}"
    first: Box | None = None
    for stop in _LABEL_STOPS:
        index = round(stop * (len(arrow.points) - 1))
        (ax, ay), (bx, by) = arrow.points[max(0, index - 1)], arrow.points[index + 1]
        length = math.hypot(bx - ax, by - ay) or 1.0
        nx, ny = -(by - ay) / length, (bx - ax) / length
        x, y = arrow.points[index]
        size = _label_box(text, x, y)
        # the label's half-extent across the curve, so that the gap is measured from its edge
        reach = abs(nx) * size.width / 2 + abs(ny) * size.height / 2
        for gap in _LABEL_SIDES:
            side = math.copysign(reach + abs(gap), gap)
            box = _label_box(text, x + nx * side, y + ny * side)
            if first is None:
                first = box
            if not any(box.overlaps(other) for other in (*obstacles, *placed)) and not any(
                crosses(other.points, box) for other in arrows
            ):
                return box
    assert first is not None
    return first


def _route_path(points: Sequence[Point]) -> str:
    """A path of straight runs as SVG path data: ``M x,y L x,y ...``."""
    first, *rest = points
    return f"M{_n(first[0])},{_n(first[1])} " + " ".join(f"L{_n(x)},{_n(y)}" for x, y in rest)


def _robot_word(number: int, lang: str) -> str:
    return translator(lang).gettext("robot {number}").format(number=number)


def _draw_arrow(
    arrow: _Arrow, label: Box | None, style: _Style = _WIDE, lang: str = "en"
) -> list[str]:
    """An arrow with its program written beside it (when ``label`` is given)."""
    dash = _DASHES[arrow.kind]
    dash_attribute = f' stroke-dasharray="{dash}"' if dash else ""
    cap = ' stroke-linecap="round"' if arrow.kind.endswith("harvest") else ""
    return [
        f'<g class="program" data-from="robot-{arrow.colour}" data-to="{arrow.target_id}">'
        f"<title>{_xml(_robot_word(arrow.colour, lang))}: {_xml(arrow.label)}</title>",
        f'<path d="{arrow.path}" fill="none" stroke="{INK[arrow.colour]}" '
        f'stroke-width="{_n(style.stroke)}" stroke-linejoin="round"{dash_attribute}{cap} '
        f'marker-end="url(#arrow-{arrow.colour})"/>',
        *(
            [svg_text(label.x, label.y + 4, f"R{arrow.colour}: {arrow.label}", "arrow")]
            if label is not None
            else []
        ),
        "</g>",
    ]


def _legend(left: float, top: float, lang: str = "en") -> list[str]:
    t = translator(lang)
    heading = t.pgettext("picture", "Legend: how each kind of program is drawn")
    parts = [f'<g class="legend"><title>{_xml(heading)}</title>']
    for index, (kind, words) in enumerate(
        (
            ("attack", t.pgettext("picture", "attack (solid)")),
            ("trap", t.pgettext("picture", "trap (dashed)")),
            ("harvest", t.pgettext("picture", "harvest (dotted)")),
        )
    ):
        y = top + 10 + 20 * index
        dash = _DASHES[kind]
        dash_attribute = f' stroke-dasharray="{dash}"' if dash else ""
        cap = ' stroke-linecap="round"' if kind == "harvest" else ""
        parts.append(
            f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(left + 40)}" y2="{_n(y)}" '
            f'stroke="#333333" stroke-width="3.5"{dash_attribute}{cap}/>'
        )
        parts.append(svg_text(left + 48, y + 4, words))
    parts.append("</g>")
    return parts


_LEGEND_HEIGHT: Final = 66


def moment(state: GameState, before: GameState | None = None, lang: str = "en") -> str:
    """When a picture shows the table: before a turn, after one (``before`` is the table
    before it), or at the end of the game.

    >>> from outofgears import setup_game
    >>> start = setup_game([1, 2], seed=1)
    >>> moment(start), moment(start, before=start)
    ('before turn 1', 'after turn 1')
    """
    t = translator(lang)
    if state.game_over:
        return t.pgettext("picture", "at the end of the game")
    if before is not None:
        return t.pgettext("picture", "after turn {turn}").format(turn=before.turn)
    return t.pgettext("picture", "before turn {turn}").format(turn=state.turn)


def describe_position(
    state: GameState,
    programs: Mapping[int, AnyProgram] | None = None,
    before: GameState | None = None,
    *,
    lang: str = "en",
) -> str:
    """The position (and the programs, if given) in words, as a picture's ``<desc>`` says it;
    ``before`` (the table before the turn) makes it the table after that turn; in ``lang``
    (``"en"``, ``"it"`` or ``"fr"``; :class:`ArgumentTypeError` for any other).

    >>> from outofgears import from_position, gears
    >>> state = from_position(robots={1: {"feet": gears(2)}, 2: {}}, dumps={1: gears(1), 2: ()},
    ...                       reserve=gears(1, 2))
    >>> print(describe_position(state, {1: Program.parse("attack 2"),
    ...                                 2: Program.parse("harvest 1")}))
    Before turn 1. Robot 1 (red, P1, 1 point): feet 1 orange; circuit none; plays attack 2.
    Robot 2 (orange, P2, 0 points): feet none; circuit none; plays harvest 1.
    Dump 1: 1 red. Dump 2: none. Reserve: 2 gears face down.
    """
    expect_state(state)
    if programs is not None:
        expect_programs(programs, "programs")
    if before is not None:
        expect_state(before, "before")
    _expect_language(lang)
    t = translator(lang)
    when = moment(state, before, lang)
    sentences = [when[0].upper() + when[1:] + "."]
    for robot in state.robots:
        player = state.player_of(robot.number)
        words = t.pgettext(
            "picture",
            "Robot {number} ({colour}, {player}, {points}): feet {feet}; circuit {circuit}",
        ).format(
            number=robot.number,
            colour=_robot_colour(robot.number, lang),
            player=player.name,
            points=_points(score_robot(robot), lang),
            feet=gears_text(robot.feet, lang),
            circuit=gears_text(robot.circuit, lang),
        )
        if player.upgrade is not None:
            card = card_name(player.upgrade, lang)
            words += t.pgettext("picture", "; holds {card}").format(card=card)
        if programs is not None and robot.number in programs:
            played = program_text(programs[robot.number], lang)
            words += t.pgettext("picture", "; plays {program}").format(program=played)
        sentences.append(words + ".")
    dumps = " ".join(
        t.pgettext("picture", "Dump {number}: {gears}.").format(
            number=d.number, gears=gears_text(d.gears, lang)
        )
        for d in state.dumps
    )
    reserve = t.pgettext("picture", "Reserve: {count} face down.").format(
        count=_count(len(state.reserve), lang)
    )
    sentences.append(f"{dumps} {reserve}")
    return "\n".join(sentences)


def _expect_language(lang: object) -> None:
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ArgumentTypeError("lang", " or ".join(LANGUAGES), lang)


def _style(layout: Layout, lang: str) -> _Style:
    """The sizes of a layout in a language. The English words were fitted to the boxes; the
    Italian and French ones are longer, so a wide picture in either leaves a robot's place
    names (``circuito 12``) a wider column beside its gears, and wraps the lines of a box at
    :data:`_WIDE_LINE` characters; a dump's count of gears shares the line of its name only
    when that line is no longer than the English."""
    style = _WIDE if layout == "wide" else _NARROW
    if lang == "en":
        return style
    head = len(f"{_dump_name(8, lang)} · {_count(20, lang)}")
    return attrs.evolve(
        style,
        label_width=_WIDE_LABEL if style.label_beside else style.label_width,
        cell=_WIDE_CELL if style.label_beside else style.cell,
        line_chars=style.line_chars or _WIDE_LINE,
        dump_count_beside=style.dump_count_beside and head <= len("Dump 8 · 20 gears"),
    )


#: The most characters a line of a wide robot's box holds in Italian or French; the width of
#: a place's name beside its gears (``circuito 12``), and of a gear's cell after it.
_WIDE_LINE: Final = 26
_WIDE_LABEL: Final = 70
_WIDE_CELL: Final = 45


#: The layouts of a picture: ``"wide"`` (the octagon of the table, for a desktop's width) and
#: ``"narrow"`` (two columns, :data:`NARROW_WIDTH` wide, for a phone's).
Layout = Literal["wide", "narrow"]
LAYOUTS: Final[tuple[Layout, ...]] = ("wide", "narrow")
#: The width of a narrow picture, in SVG user units: the width of the documentation's text on a
#: 360-pixel phone screen, so that the picture is shown at its own size and its smallest text
#: stays :data:`MIN_FONT_SIZE` pixels.
NARROW_WIDTH: Final = 328
#: The widest screen, in CSS pixels, that the narrow pictures are always for: the game viewer
#: shows them up to this width at least (further up where its wide pictures would not fit);
#: the documentation site shows them on every screen, its text column being narrower than a
#: wide picture.
NARROW_SCREEN: Final = 700
#: The width of the lanes of a narrow picture (left of, between and right of its two columns),
#: where its arrows run, and the height of the gaps between its rows.
_LANE: Final = 20
_GAP: Final = 30
_NARROW_COLUMN: Final = (NARROW_WIDTH - 3 * _LANE) / 2
_NARROW: Final = _Style(
    robot_width=_NARROW_COLUMN,
    dump_width=_NARROW_COLUMN,
    cell=41,
    cells=3,
    label_beside=False,
    line_chars=16,
    dump_count_beside=False,
    bottom=6,
    stroke=2.5,
    arrow_labels=False,
)


@frozen
class _Table:
    """Where a picture puts everything: the boxes of the robots, the dumps in play and the
    face-down dumps; the turn's heading; the table's surface; and, in the narrow layout, the
    cell of each box, the lanes between them and the picture's fixed frame."""

    robots: dict[int, Box]
    dumps: dict[int, Box]
    face_down: dict[int, Box]
    heading: Point
    ground: str
    cells: dict[str, Cell]
    lanes: Lanes | None
    frame: Box | None

    @property
    def boxes(self) -> list[Box]:
        return [*self.dumps.values(), *self.face_down.values(), *self.robots.values()]


def _wide_table(
    state: GameState, heights: Mapping[int, float], dump_heights: Mapping[int, float]
) -> _Table:
    """The octagon: dumps in a ring, each robot behind its dump, the face-down dumps as cards."""
    dumps: dict[int, Box] = {}
    face_down: dict[int, Box] = {}
    for number in ROBOT_NUMBERS:
        x, y = slot(number, _DUMP_RADIUS)
        if number in dump_heights:
            dumps[number] = Box(x, y, _DUMP_WIDTH, dump_heights[number])
        else:
            face_down[number] = Box(x, y, *_FACE_DOWN)
    robots = {
        number: Box(*slot(number, _ROBOT_RADIUS), _ROBOT_WIDTH, height)
        for number, height in heights.items()
    }
    octagon = " ".join(
        f"{_n(x)},{_n(y)}" for x, y in (slot(n, _DUMP_RADIUS) for n in ROBOT_NUMBERS)
    )
    ground = f'<polygon points="{octagon}" fill="#faf7f0" stroke="#d8cfbf" stroke-width="2"/>'
    return _Table(robots, dumps, face_down, (_CENTRE, _CENTRE - 8), ground, {}, None, None)


def ring_cells(count: int) -> list[Cell]:
    """The cells of ``count`` places in two columns, in table order: clockwise round the
    columns from the top left, as the seats go round the table (ruling R-EXPLORE).

    >>> [(c.row, c.column) for c in ring_cells(4)], [(c.row, c.column) for c in ring_cells(5)]
    ([(0, 0), (0, 1), (1, 1), (1, 0)], [(0, 0), (0, 1), (1, 1), (2, 1), (2, 0)])
    """
    rows = max(1, math.ceil(count / 2))
    ring = [
        Cell(0, 0),
        *(Cell(r, 1) for r in range(rows)),
        *(Cell(r, 0) for r in range(rows - 1, 0, -1)),
    ]
    return ring[:count]


def _narrow_table(
    state: GameState, heights: Mapping[int, float], dump_heights: Mapping[int, float]
) -> _Table:
    """Two columns: the heading and the face-down dumps on top, then the robots of the first
    half of the table, the dumps in play, the robots of the second half; each robot in the same
    corner as its dump, all in table order clockwise (:func:`ring_cells`)."""
    robot_cells = dict(zip(sorted(heights), ring_cells(len(heights)), strict=True))
    dump_cells = dict(zip(sorted(dump_heights), ring_cells(len(dump_heights)), strict=True))
    robot_rows = max((cell.row for cell in robot_cells.values()), default=0) + 1
    dump_rows = max((cell.row for cell in dump_cells.values()), default=0) + 1
    top_rows = math.ceil(robot_rows / 2) if robot_rows > 1 else 1
    # the rows from the top: (kind, row of its own grid)
    order = [("robot", r) for r in range(top_rows)]
    order += [("dump", r) for r in range(dump_rows)]
    order += [("robot", r) for r in range(top_rows, robot_rows)]
    columns = (_LANE + _NARROW_COLUMN / 2, NARROW_WIDTH - _LANE - _NARROW_COLUMN / 2)
    heading = (NARROW_WIDTH / 2, 30.0)
    face_down_numbers = [n for n in ROBOT_NUMBERS if n not in dump_heights]
    face_down: dict[int, Box] = {}
    y = heading[1] + 32
    if face_down_numbers:
        width, height = _FACE_DOWN
        step = width + 6
        left = NARROW_WIDTH / 2 - (step * len(face_down_numbers) - 6) / 2 + 36
        for index, number in enumerate(face_down_numbers):
            face_down[number] = Box(left + width / 2 + step * index, y + height / 2, width, height)
        y += height + 4
    robots: dict[int, Box] = {}
    dumps: dict[int, Box] = {}
    cells: dict[str, Cell] = {}
    gaps: list[float] = []
    surface_top = surface_bottom = y
    for index, (kind, row) in enumerate(order):
        gaps.append(y + _GAP / 2)
        y += _GAP
        places = robot_cells if kind == "robot" else dump_cells
        sizes = heights if kind == "robot" else dump_heights
        in_row = [number for number, cell in places.items() if cell.row == row]
        tallest = max(sizes[number] for number in in_row)
        if kind == "dump" and row == 0:
            surface_top = y - _GAP / 2 + 4
        for number in in_row:
            cell = places[number]
            box = Box(columns[cell.column], y + sizes[number] / 2, _NARROW_COLUMN, sizes[number])
            (robots if kind == "robot" else dumps)[number] = box
            cells[f"{kind}-{number}"] = Cell(index, cell.column)
        y += tallest
        if kind == "dump":
            surface_bottom = y + _GAP / 2 - 4
    gaps.append(y + _GAP / 2)
    y += _GAP
    lanes = Lanes((_LANE / 2, NARROW_WIDTH / 2, NARROW_WIDTH - _LANE / 2), tuple(gaps))
    ground = (
        f'<rect x="4" y="{_n(surface_top)}" width="{NARROW_WIDTH - 8}" '
        f'height="{_n(surface_bottom - surface_top)}" rx="14" fill="#faf7f0" stroke="#d8cfbf" '
        'stroke-width="2"/>'
    )
    frame = Box(NARROW_WIDTH / 2, y / 2, NARROW_WIDTH, y)
    return _Table(robots, dumps, face_down, heading, ground, cells, lanes, frame)


def _lay_arrows(
    state: GameState, laid: Mapping[int, AnyProgram], table: _Table, lang: str = "en"
) -> list[_Arrow]:
    """The arrows of the programs, in robot order: curves in the wide layout, runs along the
    lanes in the narrow one."""
    arrows: list[_Arrow] = []
    obstacles = table.boxes
    for player_robot in sorted(robot for robot in laid if robot in table.robots):
        program = laid[player_robot]
        for kind, number, label in program_targets(player_robot, program, laid, state, lang):
            targets = table.robots if kind == "robot" else table.dumps
            if number not in targets:
                continue
            target_id = f"{kind}-{number}"
            source, target = table.robots[player_robot], targets[number]
            if table.lanes is None:
                arrow = _lay_arrow(
                    source,
                    target,
                    player_robot,
                    _arrow_kind(program),
                    label,
                    5,
                    target_id,
                    obstacles,
                    arrows,
                )
            else:
                points = route(
                    source,
                    table.cells[f"robot-{player_robot}"],
                    target,
                    table.cells[target_id],
                    table.lanes,
                    obstacles,
                    [other.points for other in arrows],
                )
                arrow = _Arrow(
                    player_robot,
                    _arrow_kind(program),
                    label,
                    target_id,
                    _route_path(points),
                    points,
                )
            arrows.append(arrow)
    return arrows


def _labels(arrows: Sequence[_Arrow], obstacles: Sequence[Box]) -> list[Box | None]:
    """Where each arrow's label goes; a program with several targets (a Super Trap, ...) is
    written once, on its first arrow (``None`` for the others)."""
    labels: list[Box] = []
    labelled: list[Box | None] = []
    seen: set[int] = set()
    for arrow in arrows:
        if arrow.colour in seen:
            labelled.append(None)
            continue
        seen.add(arrow.colour)
        labels.append(_place_label(arrow, obstacles, labels, arrows))
        labelled.append(labels[-1])
    return labelled


def _extent(table: _Table, arrows: Sequence[_Arrow], labels: Sequence[Box | None]) -> Box:
    """The part of the plane a picture shows: the narrow layout's frame, or everything the
    wide layout draws with a margin round it."""
    if table.frame is not None:
        return table.frame
    boxes = [*table.boxes, *(label for label in labels if label is not None)]
    xs = [x for box in boxes for x in (box.left, box.right)]
    ys = [y for box in boxes for y in (box.top, box.bottom)]
    xs += [x for arrow in arrows for x, _ in arrow.points]
    ys += [y for arrow in arrows for _, y in arrow.points]
    left, top = min(xs) - _MARGIN, min(ys) - _MARGIN
    right, bottom = max(xs) + _MARGIN, max(ys) + _MARGIN
    return Box((left + right) / 2, (top + bottom) / 2, right - left, bottom - top)


def render_svg(
    state: GameState,
    programs: Mapping[int, AnyProgram] | None = None,
    *,
    title: str | None = None,
    before: GameState | None = None,
    layout: Layout = "wide",
    lang: str = "en",
) -> str:
    """The table as a standalone SVG image: dumps, robots, their gears and the turn's programs.

    Args:
        state: The position to draw.
        programs: The programs of the turn to play from ``state``, drawn as arrows from each
            robot to what it names; ``None`` draws the position alone.
        title: The image's title; by default it names the turn (``"Out of Gears: the table
            before turn 3"``).
        before: An earlier position (the table before the turn): each robot and dump whose
            gears differ from it is outlined in thick black dashes and says how many gears it
            gained and lost (``moved: feet +2 \N{MINUS SIGN}1``).
        layout: ``"wide"`` draws the table as it lies, the dumps in an octagon with each robot
            behind its dump, each arrow labelled with its program. ``"narrow"`` draws it for a
            phone: :data:`NARROW_WIDTH` units wide and as tall as it needs, the robots and
            dumps in two columns in table order (clockwise from the top left, each robot in
            the corner of its dump), the face-down dumps as a row of cards under the turn, and
            each arrow running along the lanes between the boxes; a program is written once,
            in its robot's box, where its arrow starts.
        lang: The language of every word drawn and of the ``<desc>``: ``"en"``, ``"it"`` or
            ``"fr"`` (the rulebooks' own terms, from the package's catalogues); the longer
            Italian and French words get more room beside a robot's gears and wrap in its box.

    Returns:
        The SVG document as text, with ``xmlns``, a ``viewBox``, a ``<title>`` and a
            ``<desc>`` that says the whole position in words. The same arguments always give
            the same text.

    Raises:
        ArgumentTypeError: ``layout`` is neither ``"wide"`` nor ``"narrow"``, or ``lang`` is
            not one of :data:`~outofgears.words.LANGUAGES`.

    >>> from outofgears import Program, setup_game
    >>> state = setup_game([1, 2, 3], seed=2026)
    >>> plays = {1: Program.parse("attack 1"), 2: Program.parse("attack 1"),
    ...          3: Program.parse("harvest 3")}
    >>> svg = render_svg(state, plays)
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    True
    >>> "R2: attack 1" in svg, "plays: attack 1 (defence)" in svg
    (True, True)
    >>> svg == render_svg(state, plays)
    True
    >>> render_svg(state, plays, layout="narrow").split('viewBox="')[1].split()[2]
    '328'
    """
    if before is not None:
        expect_state(before, "before")
    if title is not None:
        expect(title, str, "title", "a str")
    expect_state(state)
    if programs is not None:
        expect_programs(programs, "programs")
    if layout not in LAYOUTS:
        raise ArgumentTypeError("layout", '"wide" or "narrow"', layout)
    _expect_language(lang)
    t = translator(lang)
    style = _style(layout, lang)
    laid = dict(programs) if programs is not None else {}
    if title is None:
        when = moment(state, before, lang)
        if laid:
            title = t.pgettext(
                "picture", "Out of Gears: the table {moment}, with the programs of the turn"
            ).format(moment=when)
        else:
            title = t.pgettext("picture", "Out of Gears: the table {moment}").format(moment=when)
    description = describe_position(
        state, laid if programs is not None else None, before, lang=lang
    )

    # lay the table out first, so that the picture can be cropped to what it shows
    dumps = {dump.number: dump for dump in state.dumps}
    dump_moves = {number: _dump_moves(dump, before) for number, dump in dumps.items()}
    dump_heights = {
        number: _dump_height(dump, dump_moves[number], style, lang)
        for number, dump in dumps.items()
    }
    robot_lines = {
        robot.number: _robot_lines(state, robot, laid.get(robot.number), before, style, lang)
        for robot in state.robots
    }
    heights = {
        robot.number: _robot_height(robot, len(robot_lines[robot.number]), style)
        for robot in state.robots
    }
    lay_out = _wide_table if layout == "wide" else _narrow_table
    table = lay_out(state, heights, dump_heights)
    arrows = _lay_arrows(state, laid, table, lang)
    labels = _labels(arrows, table.boxes) if style.arrow_labels else [None] * len(arrows)
    extent = _extent(table, arrows, labels)
    left, top, width = extent.left, extent.top, extent.width
    legend_top = extent.bottom
    height = extent.height + (_LEGEND_HEIGHT if arrows else 0)
    colours = sorted({arrow.colour for arrow in arrows})

    body: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{_n(left)} {_n(top)} {_n(width)} {_n(height)}" '
        f'width="{_n(width)}" height="{_n(height)}" role="img" '
        'aria-labelledby="oog-title oog-desc" '
        'font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="13">',
        f'<title id="oog-title">{_xml(title)}</title>',
        # one sentence a line: each escaped alone, so that the lines stay lines, not "\\n"
        '<desc id="oog-desc">' + "\n".join(map(_xml, description.split("\n"))) + "</desc>",
        "<style>"
        "text{fill:#1a1a1a}"
        ".name{font-weight:bold}"
        ".place{font-style:italic;fill:#444444}"
        ".gl{text-anchor:middle;font-size:12px;font-weight:bold;fill:#111111}"
        ".gl.light{fill:#ffffff}"
        ".gl.small{font-size:12px}"
        ".count{font-size:12px}"
        ".none,.faint{fill:#666666;font-size:12px}"
        ".faint{text-anchor:middle}"
        ".end{text-anchor:end}"
        ".arrow{text-anchor:middle;font-size:12px;font-weight:bold;"
        "paint-order:stroke;stroke:#ffffff;stroke-width:4px;stroke-linejoin:round}"
        ".centre{text-anchor:middle}"
        ".turn{font-size:22px;font-weight:bold}"
        "</style>",
    ]
    if colours:
        body.append("<defs>")
        body += [
            f'<marker id="arrow-{c}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
            f'markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{INK[c]}"/></marker>'
            for c in colours
        ]
        body.append("</defs>")
    body.append(
        f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(width)}" height="{_n(height)}" '
        'fill="#ffffff"/>'
    )
    body.append(table.ground)
    # the turn and the reserve: in the middle of the table, or at the top of a narrow picture
    if state.game_over:
        head = t.pgettext("picture", "Game over")
    elif before is not None:
        head = t.pgettext("picture", "After turn {turn}").format(turn=before.turn)
    else:
        head = t.pgettext("picture", "Turn {turn}").format(turn=state.turn)
    reserve = t.pgettext("picture", "reserve: {count}").format(
        count=_count(len(state.reserve), lang)
    )
    hx, hy = table.heading
    body += [svg_text(hx, hy, head, "centre turn"), svg_text(hx, hy + 24, reserve, "centre")]
    if table.face_down and table.frame is not None:
        first = min(table.face_down.values(), key=lambda box: box.x)
        face_down = t.pgettext("picture", "face down:")
        body.append(svg_text(first.left - 8, first.y + 4.5, face_down, "none end"))
    for number in ROBOT_NUMBERS:
        if number in dumps:
            body += _draw_dump(dumps[number], table.dumps[number], dump_moves[number], style, lang)
        elif number in table.face_down:
            body += _draw_face_down(number, table.face_down[number], lang)
    for robot in state.robots:
        box = table.robots[robot.number]
        body += _draw_robot(
            state, robot, laid.get(robot.number), box, robot_lines[robot.number], style, lang
        )
        if _robot_moves(robot, before):
            body.append(_moved_ring(box))
    for arrow, label_box in zip(arrows, labels, strict=True):
        body += _draw_arrow(arrow, label_box, style, lang)
    if arrows:
        body += _legend(left + _MARGIN, legend_top, lang)
    body.append("</svg>")
    return "\n".join(body) + "\n"


#: The public names of this module (the rest serves them).
__all__ = [
    "describe_position",
    "render_svg",
]
