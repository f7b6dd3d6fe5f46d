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

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from typing import Final

from attrs import frozen

from outofgears.attacks import attackers_by_target
from outofgears.errors import printable
from outofgears.gears import COLOUR_NAMES, ROBOT_NUMBERS, Gear, GearKind, describe_gears, gear_key
from outofgears.model import Dump, GameState, Robot, UpgradeCard
from outofgears.programs import Action, AnyProgram, Program, ProgramReading, UpgradeProgram
from outofgears.scoring import score_robot

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
_ROBOT_LABEL: Final = 58
_ROBOT_CELLS: Final = 3
_DUMP_CELLS: Final = 3
_MARGIN: Final = 16

#: The fill of each gear colour, and whether its number is written in white on it.
GEAR_FILLS: Final[dict[int, str]] = {
    1: "#d62728",
    2: "#ff8c1a",
    3: "#f5d90a",
    4: "#2ca02c",
    5: "#1f77b4",
    6: "#9467bd",
    7: "#9e9e9e",
    8: "#ffffff",
}
_WHITE_TEXT: Final = frozenset({1, 4, 5, 6})
#: The darker shade of each colour, for a robot's outline and its arrows.
INK: Final[dict[int, str]] = {
    1: "#a51d1d",
    2: "#c25e00",
    3: "#8a7400",
    4: "#1b6b1b",
    5: "#12507f",
    6: "#5e3a8c",
    7: "#555555",
    8: "#222222",
}
#: The light tint that fills a robot's box.
_TINT: Final[dict[int, str]] = {
    1: "#fbe4e4",
    2: "#fff0e0",
    3: "#fdf8d0",
    4: "#e3f4e3",
    5: "#e1eef8",
    6: "#efe8f7",
    7: "#eeeeee",
    8: "#fafafa",
}

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


@frozen
class _Box:
    """A rectangle of the picture, by its centre and size."""

    x: float
    y: float
    width: float
    height: float

    @property
    def left(self) -> float:
        return self.x - self.width / 2

    @property
    def top(self) -> float:
        return self.y - self.height / 2

    def edge_towards(self, x: float, y: float, margin: float = 6) -> tuple[float, float]:
        """The point where the ray from the centre towards ``(x, y)`` leaves the box."""
        dx, dy = x - self.x, y - self.y
        if dx == 0 and dy == 0:
            return self.x, self.y
        scale = min(
            (self.width / 2 + margin) / abs(dx) if dx else math.inf,
            (self.height / 2 + margin) / abs(dy) if dy else math.inf,
        )
        return self.x + dx * scale, self.y + dy * scale


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

    >>> from outofgears.gears import JOLLY, THREE_POINT
    >>> gear_label(Gear(5)), gear_label(JOLLY), gear_label(THREE_POINT)
    ('5', 'J', '3P')
    """
    if gear.kind is GearKind.JOLLY:
        return "J"
    if gear.kind is GearKind.THREE_POINT:
        return "3P"
    return str(gear.colour)


def _count(number: int) -> str:
    return f"{number} gear" if number == 1 else f"{number} gears"


def _gear_counts(items: Sequence[Gear]) -> list[tuple[Gear, int]]:
    counts = Counter(items)
    return [(gear, counts[gear]) for gear in sorted(counts, key=gear_key)]


def _rows(kinds: int, per_row: int) -> int:
    return max(1, math.ceil(kinds / per_row))


def _gear_glyph(gear: Gear, x: float, y: float) -> list[str]:
    """One gear: a toothed disc of its colour with its number, or the shape of its kind."""
    label = _xml(gear_label(gear))
    if gear.kind is GearKind.JOLLY:
        points = " ".join(
            f"{_n(x + r * math.cos(math.radians(-90 + 36 * i)))},"
            f"{_n(y + r * math.sin(math.radians(-90 + 36 * i)))}"
            for i, r in enumerate([11, 5] * 5)
        )
        return [
            f'<polygon points="{points}" fill="#ffffff" stroke="#222222" stroke-width="1.5"/>',
            f'<text x="{_n(x)}" y="{_n(y + 3.5)}" class="gl">{label}</text>',
        ]
    if gear.kind is GearKind.THREE_POINT:
        points = f"{_n(x)},{_n(y - 12)} {_n(x + 11)},{_n(y + 8)} {_n(x - 11)},{_n(y + 8)}"
        return [
            f'<polygon points="{points}" fill="#e0e0e0" stroke="#222222" stroke-width="1.5"/>',
            f'<text x="{_n(x)}" y="{_n(y + 5)}" class="gl small">{label}</text>',
        ]
    text_class = "gl light" if gear.colour in _WHITE_TEXT else "gl"
    return [
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="10" fill="none" stroke="#222222" '
        'stroke-width="3.5" stroke-dasharray="2.6 2.6"/>',
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8.5" fill="{GEAR_FILLS[gear.colour]}" '
        'stroke="#222222" stroke-width="1"/>',
        f'<text x="{_n(x)}" y="{_n(y + 3.5)}" class="{text_class}">{label}</text>',
    ]


def _gear_cells(
    items: Sequence[Gear], left: float, top: float, per_row: int, what: str
) -> list[str]:
    """The gears of one place, one cell per kind of gear with its count; ``none`` if empty."""
    if not items:
        return [f'<text x="{_n(left)}" y="{_n(top + 16)}" class="none">none</text>']
    parts: list[str] = []
    for index, (gear, count) in enumerate(_gear_counts(items)):
        x = left + 11 + _CELL * (index % per_row)
        y = top + 12 + _ROW * (index // per_row)
        parts.append(f"<g><title>{_xml(what)}: {count} {gear}</title>")
        parts += _gear_glyph(gear, x, y)
        parts.append(
            f'<text x="{_n(x + 13)}" y="{_n(y + 4)}" class="count">{TIMES}{count}</text></g>'
        )
    return parts


def _robot_height(robot: Robot, extra_lines: int) -> float:
    circuit = _rows(len(set(robot.circuit)), _ROBOT_CELLS)
    feet = _rows(len(set(robot.feet)), _ROBOT_CELLS)
    return 44 + 16 * extra_lines + _ROW * (circuit + feet) + 8


def _dump_height(dump: Dump) -> float:
    return 30 + _ROW * _rows(len(set(dump.gears)), _DUMP_CELLS) + 6


def _robot_lines(state: GameState, robot: Robot, program: AnyProgram | None) -> list[str]:
    player = state.player_of(robot.number)
    lines = [f"{short_name(player.name)} · {score_robot(robot)} points"]
    if player.upgrade is not None:
        lines.append(f"holds: {player.upgrade.value}")
    if program is not None:
        defence = " (defence)" if program.is_defence_of(robot.number) else ""
        lines.append(f"plays: {program}{defence}")
    return lines


def _draw_robot(
    state: GameState, robot: Robot, program: AnyProgram | None, box: _Box, lines: list[str]
) -> list[str]:
    number = robot.number
    parts = [
        f'<g class="robot" id="robot-{number}">',
        f"<title>Robot {number} ({COLOUR_NAMES[number]}), "
        f"{_xml(state.player_of(number).name)} · {score_robot(robot)} points</title>",
    ]
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
    parts.append(
        f'<text x="{_n(left)}" y="{_n(y)}" class="name">Robot {number} · '
        f"{COLOUR_NAMES[number]}</text>"
    )
    full_name = state.player_of(number).name
    for index, line in enumerate(lines):
        y += 16
        title = ""
        if index == 0 and short_name(full_name) != full_name:  # cut short: the whole name
            title = f"<title>{_xml(full_name)}</title>"
        parts.append(f'<text x="{_n(left)}" y="{_n(y)}">{title}{_xml(line)}</text>')
    y += 8
    for place, items in (("circuit", robot.circuit), ("feet", robot.feet)):
        parts.append(
            f'<text x="{_n(left)}" y="{_n(y + 16)}" class="place">{place} {len(items)}</text>'
        )
        parts += _gear_cells(items, left + _ROBOT_LABEL, y, _ROBOT_CELLS, f"robot {number} {place}")
        y += _ROW * _rows(len(set(items)), _ROBOT_CELLS)
    parts.append("</g>")
    return parts


def _draw_dump(dump: Dump, box: _Box) -> list[str]:
    parts = [
        f'<g class="dump" id="dump-{dump.number}">',
        f"<title>Dump {dump.number}: {describe_gears(dump.gears)}</title>",
        f'<rect x="{_n(box.left)}" y="{_n(box.top)}" width="{_n(box.width)}" '
        f'height="{_n(box.height)}" rx="6" fill="#f4efe6" stroke="#6d5c45" stroke-width="2"/>',
        f'<text x="{_n(box.left + 8)}" y="{_n(box.top + 18)}" class="name">Dump {dump.number} '
        f"· {_count(len(dump.gears))}</text>",
    ]
    parts += _gear_cells(dump.gears, box.left + 8, box.top + 26, _DUMP_CELLS, f"dump {dump.number}")
    parts.append("</g>")
    return parts


def _draw_face_down(number: int) -> list[str]:
    x, y = slot(number, _DUMP_RADIUS)
    return [
        f'<g class="dump face-down"><title>Dump {number}: not in play, face down</title>',
        f'<rect x="{_n(x - 45)}" y="{_n(y - 20)}" width="90" height="40" rx="6" '
        'fill="#eeeeee" stroke="#999999" stroke-width="1.5" stroke-dasharray="4 3"/>',
        f'<text x="{_n(x)}" y="{_n(y + 5)}" class="faint">{number}: face down</text>',
        "</g>",
    ]


def program_targets(
    robot: int, program: AnyProgram, programs: Mapping[int, AnyProgram], state: GameState
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
    if isinstance(program, Program) and program.action is not Action.ATTACK:
        return [("dump", program.number, str(program))]
    label = str(program)
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


def _draw_arrow(
    source: _Box, target: _Box, colour: int, kind: str, label: str, offset: float
) -> list[str]:
    """An arrow from one box to another, shifted sideways, with its program written on it."""
    x1, y1 = source.edge_towards(target.x, target.y)
    x2, y2 = target.edge_towards(source.x, source.y, margin=9)
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    # shift to the right of the direction of travel, so that two robots attacking each other
    # get two arrows side by side
    nx, ny = -(y2 - y1) / length * offset, (x2 - x1) / length * offset
    x1, y1, x2, y2 = x1 + nx, y1 + ny, x2 + nx, y2 + ny
    dash = _DASHES[kind]
    dash_attribute = f' stroke-dasharray="{dash}"' if dash else ""
    cap = ' stroke-linecap="round"' if kind.endswith("harvest") else ""
    # the label sits beside the middle of the arrow, on the same side as the shift
    mid_x = (x1 + x2) / 2 + nx / offset * 14 if offset else (x1 + x2) / 2
    mid_y = (y1 + y2) / 2 + ny / offset * 14 if offset else (y1 + y2) / 2
    return [
        f"<g><title>robot {colour}: {_xml(label)}</title>",
        f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="{INK[colour]}" '
        f'stroke-width="3.5"{dash_attribute}{cap} marker-end="url(#arrow-{colour})"/>',
        f'<text x="{_n(mid_x)}" y="{_n(mid_y + 4)}" class="arrow">R{colour}: {_xml(label)}</text>',
        "</g>",
    ]


def _legend(left: float, top: float) -> list[str]:
    parts = ['<g class="legend"><title>Legend: how each kind of program is drawn</title>']
    for index, (kind, words) in enumerate(
        (("attack", "attack (solid)"), ("trap", "trap (dashed)"), ("harvest", "harvest (dotted)"))
    ):
        y = top + 10 + 20 * index
        dash = _DASHES[kind]
        dash_attribute = f' stroke-dasharray="{dash}"' if dash else ""
        cap = ' stroke-linecap="round"' if kind == "harvest" else ""
        parts.append(
            f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(left + 40)}" y2="{_n(y)}" '
            f'stroke="#333333" stroke-width="3.5"{dash_attribute}{cap}/>'
        )
        parts.append(f'<text x="{_n(left + 48)}" y="{_n(y + 4)}">{words}</text>')
    parts.append("</g>")
    return parts


_LEGEND_HEIGHT: Final = 66


def describe_position(state: GameState, programs: Mapping[int, AnyProgram] | None = None) -> str:
    """The position (and the programs, if given) in words, as a picture's ``<desc>`` says it.

    >>> from outofgears import from_position, gears
    >>> state = from_position(robots={1: {"feet": gears(2)}, 2: {}}, dumps={1: gears(1), 2: ()},
    ...                       reserve=gears(1, 2))
    >>> print(describe_position(state, {1: Program.parse("attack 2"),
    ...                                 2: Program.parse("harvest 1")}))
    Before turn 1. Robot 1 (red, P1, 1 points): feet 1 orange; circuit none; plays attack 2.
    Robot 2 (orange, P2, 0 points): feet none; circuit none; plays harvest 1.
    Dump 1: 1 red. Dump 2: none. Reserve: 2 gears face down.
    """
    head = "At the end of the game." if state.game_over else f"Before turn {state.turn}."
    sentences = [head]
    for robot in state.robots:
        player = state.player_of(robot.number)
        words = (
            f"Robot {robot.number} ({COLOUR_NAMES[robot.number]}, {player.name}, "
            f"{score_robot(robot)} points): feet {describe_gears(robot.feet)}; "
            f"circuit {describe_gears(robot.circuit)}"
        )
        if player.upgrade is not None:
            words += f"; holds {player.upgrade.value}"
        if programs is not None and robot.number in programs:
            words += f"; plays {programs[robot.number]}"
        sentences.append(words + ".")
    dumps = " ".join(f"Dump {d.number}: {describe_gears(d.gears)}." for d in state.dumps)
    sentences.append(f"{dumps} Reserve: {_count(len(state.reserve))} face down.")
    return "\n".join(sentences)


def render_svg(
    state: GameState,
    programs: Mapping[int, AnyProgram] | None = None,
    *,
    title: str | None = None,
) -> str:
    """The table as a standalone SVG image: dumps, robots, their gears and the turn's programs.

    Args:
        state: The position to draw.
        programs: The programs of the turn to play from ``state``, drawn as arrows from each
            robot to what it names; ``None`` draws the position alone.
        title: The image's title; by default it names the turn (``"Out of Gears: the table
            before turn 3"``).

    Returns:
        The SVG document as text, with ``xmlns``, a ``viewBox``, a ``<title>`` and a
            ``<desc>`` that says the whole position in words. The same arguments always give
            the same text.

    >>> from outofgears import Program, setup_game
    >>> state = setup_game([1, 2, 3], seed=2026)
    >>> svg = render_svg(state, {1: Program.parse("attack 1"), 2: Program.parse("attack 1"),
    ...                          3: Program.parse("harvest 3")})
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    True
    >>> "R2: attack 1" in svg, "plays: attack 1 (defence)" in svg
    (True, True)
    >>> svg == render_svg(state, {1: Program.parse("attack 1"), 2: Program.parse("attack 1"),
    ...                           3: Program.parse("harvest 3")})
    True
    """
    laid = dict(programs) if programs is not None else {}
    if title is None:
        title = (
            "Out of Gears: the table at the end of the game"
            if state.game_over
            else f"Out of Gears: the table before turn {state.turn}"
        )
        if laid:
            title += ", with the programs of the turn"
    description = describe_position(state, laid if programs is not None else None)

    # lay the table out first, so that the picture can be cropped to what it shows
    dumps = {dump.number: dump for dump in state.dumps}
    dump_boxes: dict[int, _Box] = {}
    face_down: dict[int, _Box] = {}
    for number in ROBOT_NUMBERS:
        x, y = slot(number, _DUMP_RADIUS)
        if number in dumps:
            dump_boxes[number] = _Box(x, y, _DUMP_WIDTH, _dump_height(dumps[number]))
        else:
            face_down[number] = _Box(x, y, 90, 40)
    robot_lines = {
        robot.number: _robot_lines(state, robot, laid.get(robot.number)) for robot in state.robots
    }
    robot_boxes: dict[int, _Box] = {}
    for robot in state.robots:
        x, y = slot(robot.number, _ROBOT_RADIUS)
        height = _robot_height(robot, len(robot_lines[robot.number]) - 1)
        robot_boxes[robot.number] = _Box(x, y, _ROBOT_WIDTH, height)
    boxes = [*dump_boxes.values(), *face_down.values(), *robot_boxes.values()]
    left = min(box.left for box in boxes) - _MARGIN
    top = min(box.top for box in boxes) - _MARGIN
    right = max(box.left + box.width for box in boxes) + _MARGIN
    bottom = max(box.top + box.height for box in boxes) + _MARGIN
    colours = sorted(robot for robot in laid if robot in robot_boxes)
    legend_top = bottom
    if colours:
        bottom += _LEGEND_HEIGHT
    width, height = right - left, bottom - top

    body: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{_n(left)} {_n(top)} {_n(width)} {_n(height)}" '
        f'width="{_n(width)}" height="{_n(height)}" role="img" '
        'aria-labelledby="oog-title oog-desc" '
        'font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="13">',
        f'<title id="oog-title">{_xml(title)}</title>',
        f'<desc id="oog-desc">{_xml(description)}</desc>',
        "<style>"
        "text{fill:#1a1a1a}"
        ".name{font-weight:bold}"
        ".place{font-style:italic;fill:#444444}"
        ".gl{text-anchor:middle;font-size:11px;font-weight:bold;fill:#111111}"
        ".gl.light{fill:#ffffff}"
        ".gl.small{font-size:8px}"
        ".count{font-size:11px}"
        ".none,.faint{fill:#777777;font-size:11px}"
        ".faint{text-anchor:middle}"
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
    octagon = " ".join(
        f"{_n(x)},{_n(y)}" for x, y in (slot(n, _DUMP_RADIUS) for n in ROBOT_NUMBERS)
    )
    body.append(f'<polygon points="{octagon}" fill="#faf7f0" stroke="#d8cfbf" stroke-width="2"/>')
    # the centre of the table: the turn and the reserve
    head = "Game over" if state.game_over else f"Turn {state.turn}"
    body += [
        f'<text x="{_n(_CENTRE)}" y="{_n(_CENTRE - 8)}" class="centre turn">{head}</text>',
        f'<text x="{_n(_CENTRE)}" y="{_n(_CENTRE + 16)}" class="centre">reserve: '
        f"{_count(len(state.reserve))}</text>",
    ]
    for number in ROBOT_NUMBERS:
        if number in dumps:
            body += _draw_dump(dumps[number], dump_boxes[number])
        else:
            body += _draw_face_down(number)
    for robot in state.robots:
        body += _draw_robot(
            state,
            robot,
            laid.get(robot.number),
            robot_boxes[robot.number],
            robot_lines[robot.number],
        )
    for player_robot in colours:
        program = laid[player_robot]
        for kind, number, label in program_targets(player_robot, program, laid, state):
            targets = robot_boxes if kind == "robot" else dump_boxes
            if number in targets:
                body += _draw_arrow(
                    robot_boxes[player_robot],
                    targets[number],
                    player_robot,
                    _arrow_kind(program),
                    label,
                    5,
                )
    if colours:
        body += _legend(left + _MARGIN, legend_top)
    body.append("</svg>")
    return "\n".join(body) + "\n"
