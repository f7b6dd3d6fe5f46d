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

    def overlaps(self, other: _Box) -> bool:
        """Whether the two boxes share more than an edge."""
        return (
            abs(self.x - other.x) * 2 < self.width + other.width
            and abs(self.y - other.y) * 2 < self.height + other.height
        )

    def crossed_by(self, x1: float, y1: float, x2: float, y2: float) -> bool:
        """Whether the segment from (x1, y1) to (x2, y2) passes through the box."""
        dx, dy = x2 - x1, y2 - y1
        low, high = 0.0, 1.0
        for p, q in (
            (-dx, x1 - self.left),
            (dx, self.left + self.width - x1),
            (-dy, y1 - self.top),
            (dy, self.top + self.height - y1),
        ):
            if p == 0:
                if q < 0:
                    return False
                continue
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
            if low > high:
                return False
        return high - low > 1e-6

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


def points_text(number: int) -> str:
    """A score in words, singular for one: ``1 point``, ``0 points``, ``3 points``.

    >>> points_text(1), points_text(0), points_text(3)
    ('1 point', '0 points', '3 points')
    """
    return f"{number} point" if number == 1 else f"{number} points"


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


def _gear_cells(
    items: Sequence[Gear], left: float, top: float, per_row: int, what: str
) -> list[str]:
    """The gears of one place, one cell per kind of gear with its count; ``none`` if empty."""
    if not items:
        return [svg_text(left, top + 16, "none", "none")]
    parts: list[str] = []
    for index, (gear, count) in enumerate(_gear_counts(items)):
        x = left + 11 + _CELL * (index % per_row)
        y = top + 12 + _ROW * (index // per_row)
        parts.append(f"<g><title>{_xml(what)}: {count} {gear}</title>")
        parts += _gear_glyph(gear, x, y)
        parts.append(svg_text(x + 13, y + 4, f"{TIMES}{count}", "count") + "</g>")
    return parts


def _robot_height(robot: Robot, extra_lines: int) -> float:
    circuit = _rows(len(set(robot.circuit)), _ROBOT_CELLS)
    feet = _rows(len(set(robot.feet)), _ROBOT_CELLS)
    return 44 + 16 * extra_lines + _ROW * (circuit + feet) + 8


def _dump_height(dump: Dump, moved: str = "") -> float:
    return 30 + (16 if moved else 0) + _ROW * _rows(len(set(dump.gears)), _DUMP_CELLS) + 6


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


def _robot_moves(robot: Robot, before: GameState | None) -> str:
    if before is None or robot.number not in before.robot_numbers:
        return ""
    old = before.robot(robot.number)
    moves = [
        f"{place} {text}"
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
    state: GameState, robot: Robot, program: AnyProgram | None, before: GameState | None = None
) -> list[str]:
    player = state.player_of(robot.number)
    lines = [f"{short_name(player.name)} · {points_text(score_robot(robot))}"]
    moves = _robot_moves(robot, before)
    if moves:
        lines.append(f"moved: {moves}")
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
        f"{_xml(state.player_of(number).name)} · {points_text(score_robot(robot))}</title>",
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
    parts.append(svg_text(left, y, f"Robot {number} · {COLOUR_NAMES[number]}", "name"))
    full_name = state.player_of(number).name
    cut = short_name(full_name) != full_name
    for index, line in enumerate(lines):
        y += 16
        parts.append(svg_text(left, y, line, title=full_name if index == 0 and cut else None))
    y += 8
    for place, items in (("circuit", robot.circuit), ("feet", robot.feet)):
        parts.append(svg_text(left, y + 16, f"{place} {len(items)}", "place"))
        parts += _gear_cells(items, left + _ROBOT_LABEL, y, _ROBOT_CELLS, f"robot {number} {place}")
        y += _ROW * _rows(len(set(items)), _ROBOT_CELLS)
    parts.append("</g>")
    return parts


def _moved_ring(box: _Box) -> str:
    """The thick black outline of a place whose gears moved (shape, not colour, says it)."""
    return (
        f'<rect class="moved" x="{_n(box.left - 5)}" y="{_n(box.top - 5)}" '
        f'width="{_n(box.width + 10)}" height="{_n(box.height + 10)}" rx="10" fill="none" '
        'stroke="#000000" stroke-width="4" stroke-dasharray="9 4"/>'
    )


def _draw_dump(dump: Dump, box: _Box, moved: str = "") -> list[str]:
    parts = [
        f'<g class="dump" id="dump-{dump.number}">',
        f"<title>Dump {dump.number}: {describe_gears(dump.gears)}</title>",
        f'<rect x="{_n(box.left)}" y="{_n(box.top)}" width="{_n(box.width)}" '
        f'height="{_n(box.height)}" rx="6" fill="#f4efe6" stroke="#6d5c45" stroke-width="2"/>',
        svg_text(
            box.left + 8, box.top + 18, f"Dump {dump.number} · {_count(len(dump.gears))}", "name"
        ),
    ]
    top = box.top + 26
    if moved:
        parts.append(svg_text(box.left + 8, box.top + 34, f"moved {moved}"))
        top += 16
    parts += _gear_cells(dump.gears, box.left + 8, top, _DUMP_CELLS, f"dump {dump.number}")
    parts.append("</g>")
    if moved:
        parts.append(_moved_ring(box))
    return parts


#: A face-down dump: a small grey card with its number.
_FACE_DOWN: Final = (34.0, 28.0)


def _draw_face_down(number: int) -> list[str]:
    x, y = slot(number, _DUMP_RADIUS)
    width, height = _FACE_DOWN
    return [
        f'<g class="dump face-down"><title>Dump {number}: not in play, face down</title>',
        f'<rect x="{_n(x - width / 2)}" y="{_n(y - height / 2)}" width="{_n(width)}" '
        f'height="{_n(height)}" rx="5" fill="#eeeeee" stroke="#999999" stroke-width="1.5" '
        'stroke-dasharray="4 3"/>',
        svg_text(x, y + 4.5, str(number), "faint"),
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


def _crosses(points: Sequence[tuple[float, float]], box: _Box) -> bool:
    return any(box.crossed_by(a[0], a[1], b[0], b[1]) for a, b in itertools.pairwise(points))


@frozen
class _Arrow:
    """One arrow laid out: its robot, program and target, and the points of its curve."""

    colour: int
    kind: str
    label: str
    target_id: str
    start: tuple[float, float]
    control: tuple[float, float]
    end: tuple[float, float]
    points: tuple[tuple[float, float], ...]


def _lay_arrow(
    source: _Box,
    target: _Box,
    colour: int,
    kind: str,
    label: str,
    offset: float,
    target_id: str,
    obstacles: Sequence[_Box],
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
        arrow = _Arrow(colour, kind, label, target_id, (x1, y1), (cx, cy), (x2, y2), points)
        if chosen is None:
            chosen = arrow
        if not any(_crosses(points, box) for box in others):
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
        _segments_cross(a, b, c, d)
        for a, b in itertools.pairwise(one)
        for c, d in itertools.pairwise(two)
    )


def _segments_cross(
    a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], d: tuple[float, float]
) -> bool:
    def side(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(c, d, a) * side(c, d, b) < 0 and side(a, b, c) * side(a, b, d) < 0


def _label_box(label: str, x: float, y: float) -> _Box:
    return _Box(x, y, len(label) * _LABEL_FONT * _LABEL_CHAR, _LABEL_FONT + 2)


def _place_label(
    arrow: _Arrow, obstacles: Sequence[_Box], placed: Sequence[_Box], arrows: Sequence[_Arrow]
) -> _Box:
    """Where an arrow's label goes: beside its curve, clear of boxes, labels and arrows."""
    text = f"R{arrow.colour}: {arrow.label}"
    first: _Box | None = None
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
                _crosses(other.points, box) for other in arrows
            ):
                return box
    assert first is not None
    return first


def _draw_arrow(arrow: _Arrow, label: _Box | None) -> list[str]:
    """An arrow as a curve with its program written beside it (when ``label`` is given)."""
    dash = _DASHES[arrow.kind]
    dash_attribute = f' stroke-dasharray="{dash}"' if dash else ""
    cap = ' stroke-linecap="round"' if arrow.kind.endswith("harvest") else ""
    (x1, y1), (cx, cy), (x2, y2) = arrow.start, arrow.control, arrow.end
    return [
        f'<g class="program" data-from="robot-{arrow.colour}" data-to="{arrow.target_id}">'
        f"<title>robot {arrow.colour}: {_xml(arrow.label)}</title>",
        f'<path d="M{_n(x1)},{_n(y1)} Q{_n(cx)},{_n(cy)} {_n(x2)},{_n(y2)}" fill="none" '
        f'stroke="{INK[arrow.colour]}" stroke-width="3.5"{dash_attribute}{cap} '
        f'marker-end="url(#arrow-{arrow.colour})"/>',
        *(
            [svg_text(label.x, label.y + 4, f"R{arrow.colour}: {arrow.label}", "arrow")]
            if label is not None
            else []
        ),
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
        parts.append(svg_text(left + 48, y + 4, words))
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
    Before turn 1. Robot 1 (red, P1, 1 point): feet 1 orange; circuit none; plays attack 2.
    Robot 2 (orange, P2, 0 points): feet none; circuit none; plays harvest 1.
    Dump 1: 1 red. Dump 2: none. Reserve: 2 gears face down.
    """
    head = "At the end of the game." if state.game_over else f"Before turn {state.turn}."
    sentences = [head]
    for robot in state.robots:
        player = state.player_of(robot.number)
        words = (
            f"Robot {robot.number} ({COLOUR_NAMES[robot.number]}, {player.name}, "
            f"{points_text(score_robot(robot))}): feet {describe_gears(robot.feet)}; "
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
    before: GameState | None = None,
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
            moved = _dump_moves(dumps[number], before)
            dump_boxes[number] = _Box(x, y, _DUMP_WIDTH, _dump_height(dumps[number], moved))
        else:
            face_down[number] = _Box(x, y, *_FACE_DOWN)
    robot_lines = {
        robot.number: _robot_lines(state, robot, laid.get(robot.number), before)
        for robot in state.robots
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
        ".gl{text-anchor:middle;font-size:12px;font-weight:bold;fill:#111111}"
        ".gl.light{fill:#ffffff}"
        ".gl.small{font-size:12px}"
        ".count{font-size:12px}"
        ".none,.faint{fill:#666666;font-size:12px}"
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
        svg_text(_CENTRE, _CENTRE - 8, head, "centre turn"),
        svg_text(_CENTRE, _CENTRE + 16, f"reserve: {_count(len(state.reserve))}", "centre"),
    ]
    for number in ROBOT_NUMBERS:
        if number in dumps:
            body += _draw_dump(
                dumps[number], dump_boxes[number], _dump_moves(dumps[number], before)
            )
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
        if _robot_moves(robot, before):
            body.append(_moved_ring(robot_boxes[robot.number]))
    obstacles = [*dump_boxes.values(), *face_down.values(), *robot_boxes.values()]
    arrows: list[_Arrow] = []
    for player_robot in colours:
        program = laid[player_robot]
        for kind, number, label in program_targets(player_robot, program, laid, state):
            targets = robot_boxes if kind == "robot" else dump_boxes
            if number in targets:
                arrows.append(
                    _lay_arrow(
                        robot_boxes[player_robot],
                        targets[number],
                        player_robot,
                        _arrow_kind(program),
                        label,
                        5,
                        f"{kind}-{number}",
                        obstacles,
                        arrows,
                    )
                )
    # a program with several targets (a Super Trap, ...) is written once, on its first arrow
    labels: list[_Box] = []
    labelled: list[_Box | None] = []
    seen: set[int] = set()
    for arrow in arrows:
        if arrow.colour in seen:
            labelled.append(None)
            continue
        seen.add(arrow.colour)
        labels.append(_place_label(arrow, obstacles, labels, arrows))
        labelled.append(labels[-1])
    for arrow, label_box in zip(arrows, labelled, strict=True):
        body += _draw_arrow(arrow, label_box)
    if colours:
        body += _legend(left + _MARGIN, legend_top)
    body.append("</svg>")
    return "\n".join(body) + "\n"
