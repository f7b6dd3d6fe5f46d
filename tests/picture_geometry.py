"""Measure a picture of the table: what its arrows and labels overlap, and its smallest text.

Used by ``tests/test_render.py`` on every drawing the documentation ships. It reads the SVG
alone (never the renderer's own layout), so it measures what a reader sees:

* the boxes: each robot's and each dump's rectangle (a face-down dump's card included);
* the labels: each arrow's text, as a rectangle of its estimated size (bold 12 px DejaVu Sans
  averages under 0.64 em a character; the estimate errs wide);
* the arrows: each program's line, from its robot to what it names.
"""

from __future__ import annotations

import math
import re
import unicodedata
import xml.etree.ElementTree as ET
from itertools import pairwise
from typing import Final

from attrs import frozen

SVG: Final = "{http://www.w3.org/2000/svg}"
#: Width of an average character of the arrow labels, in ems (errs wide).
CHAR_WIDTH: Final = 0.64


@frozen
class Rect:
    """An axis-aligned rectangle: left, top, width, height."""

    name: str
    x: float
    y: float
    width: float
    height: float
    #: The ``id`` of the drawing's box (``robot-2``, ``dump-3``), whatever language it is in.
    ident: str = ""

    def overlaps(self, other: Rect) -> bool:
        """Whether the two rectangles share more than an edge."""
        return (
            self.x < other.x + other.width
            and other.x < self.x + self.width
            and self.y < other.y + other.height
            and other.y < self.y + self.height
        )

    def crossed_by(self, x1: float, y1: float, x2: float, y2: float) -> bool:
        """Whether the segment from (x1, y1) to (x2, y2) passes through the rectangle."""
        # Liang-Barsky clipping
        dx, dy = x2 - x1, y2 - y1
        low, high = 0.0, 1.0
        for p, q in (
            (-dx, x1 - self.x),
            (dx, self.x + self.width - x1),
            (-dy, y1 - self.y),
            (dy, self.y + self.height - y1),
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


@frozen
class Arrow:
    """One arrow: its robot, what it names (``robot-2`` or ``dump-3``), its curve as points."""

    robot: str
    target: str
    points: tuple[tuple[float, float], ...]
    label: Rect | None
    name: str

    def crosses(self, rect: Rect) -> bool:
        """Whether the arrow passes through a rectangle."""
        return any(
            rect.crossed_by(a[0], a[1], b[0], b[1])
            for a, b in zip(self.points, self.points[1:], strict=False)
        )


def curve_points(d: str, steps: int = 24) -> tuple[tuple[float, float], ...]:
    """Points along a path ``M x1,y1 Q cx,cy x2,y2`` (or straight runs ``M ... L ... L ...``).

    >>> curve_points("M0,0 L10,0 L10,5")
    ((0.0, 0.0), (10.0, 0.0), (10.0, 5.0))
    """
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    if "Q" not in d:
        return tuple(zip(numbers[::2], numbers[1::2], strict=True))
    x1, y1, cx, cy, x2, y2 = numbers[:6]
    return tuple(
        (
            (1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t**2 * x2,
            (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t**2 * y2,
        )
        for t in (i / steps for i in range(steps + 1))
    )


def _font_size(style: str, classes: str, default: float) -> float:
    size = default
    for name in ["text", *classes.split()]:
        selector = "text" if name == "text" else f"\\.{name}"
        for match in re.finditer(rf"(?:^|}}|,){selector}[^{{,]*{{([^}}]*)}}", style):
            found = re.search(r"font-size:(\d+(?:\.\d+)?)px", match[1])
            if found:
                size = float(found[1])
    return size


def width(svg: str) -> float:
    """The width of a picture, in its own pixels (its ``viewBox``)."""
    return float(ET.fromstring(svg).attrib["viewBox"].split()[2])


def text_sizes(svg: str) -> list[float]:
    """The font size of every text of a picture, in the picture's own pixels."""
    root = ET.fromstring(svg)
    style = "".join(element.text or "" for element in root.iter(f"{SVG}style"))
    default = float(root.get("font-size", "16"))
    return [_font_size(style, text.get("class", ""), default) for text in root.iter(f"{SVG}text")]


def boxes(root: ET.Element) -> list[Rect]:
    """The rectangle of every robot and dump."""
    found: list[Rect] = []
    for group in root.iter(f"{SVG}g"):
        kind = group.get("class", "")
        if kind not in ("robot", "dump", "dump face-down"):
            continue
        rects = group.findall(f"{SVG}rect")
        if kind == "robot" and len(rects) == 2:  # the defence ring comes first
            rects = rects[1:]
        rect = rects[0]
        title = (group.findtext(f"{SVG}title") or "").split(":")[0].split(" (")[0]
        found.append(
            Rect(
                title,
                float(rect.attrib["x"]),
                float(rect.attrib["y"]),
                float(rect.attrib["width"]),
                float(rect.attrib["height"]),
                group.get("id", ""),
            )
        )
    return found


def arrows(root: ET.Element) -> list[Arrow]:
    """Every arrow of a picture, with its label's rectangle."""
    found: list[Arrow] = []
    for group in root.iter(f"{SVG}g"):
        path = group.find(f"{SVG}path")
        if path is None or group.get("class") != "program":
            continue
        text = group.find(f"{SVG}text")
        name = group.findtext(f"{SVG}title") or ""
        label: Rect | None = None
        if text is not None:
            words = "".join(text.itertext())
            width = len(words) * 12 * CHAR_WIDTH
            x, y = float(text.attrib["x"]), float(text.attrib["y"])
            label = Rect(words, x - width / 2, y - 11, width, 14)
        found.append(
            Arrow(
                robot=group.get("data-from", ""),
                target=group.get("data-to", ""),
                points=curve_points(path.attrib["d"]),
                label=label,
                name=name,
            )
        )
    return found


def overlaps(svg: str) -> list[str]:
    """What the arrows and labels of a picture overlap, in words (empty when nothing does)."""
    root = ET.fromstring(svg)
    placed = boxes(root)
    drawn = arrows(root)
    problems: list[str] = []
    labels = [arrow.label for arrow in drawn if arrow.label is not None]
    for arrow in drawn:
        own = {arrow.robot, arrow.target}
        for box in placed:
            ident = box.ident or box.name.lower().replace(" ", "-")
            if ident not in own and arrow.crosses(box):
                problems.append(f"arrow {arrow.name!r} crosses {box.name}")
        for label in labels:
            if arrow.crosses(label):
                problems.append(f"arrow {arrow.name!r} crosses label {label.name!r}")
    for index, label in enumerate(labels):
        for box in placed:
            if label.overlaps(box):
                problems.append(f"label {label.name!r} overlaps {box.name}")
        for other in labels[index + 1 :]:
            if label.overlaps(other):
                problems.append(f"labels {label.name!r} and {other.name!r} overlap")
    return problems


def _segments_cross(
    a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], d: tuple[float, float]
) -> bool:
    """Whether segments ab and cd cross at a point inside both (touching ends do not count)."""

    def side(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2 = side(c, d, a), side(c, d, b)
    d3, d4 = side(a, b, c), side(a, b, d)
    return d1 * d2 < 0 and d3 * d4 < 0


def crossings(svg: str) -> list[str]:
    """The pairs of arrows of a picture that cross each other, or run along each other (closer
    than 4 units, side by side), in words.

    Two curves that start at the same robot or end at the same place meet there by design; a
    crossing counts only away from their shared ends (the first and last tenth of each curve).
    """
    drawn = arrows(ET.fromstring(svg))
    found = []
    for index, first in enumerate(drawn):
        for second in drawn[index + 1 :]:
            if _curves_cross(first.points, second.points):
                found.append(f"arrow {first.name!r} crosses arrow {second.name!r}")
            if _run_along(first.points, second.points):
                found.append(f"arrow {first.name!r} runs along arrow {second.name!r}")
    return found


def _run_along(
    first: tuple[tuple[float, float], ...], second: tuple[tuple[float, float], ...]
) -> bool:
    """Whether two paths have parallel runs closer than 4 units over more than 4 units."""
    for (ax, ay), (bx, by) in pairwise(first):
        along = math.hypot(bx - ax, by - ay)
        if along == 0:
            continue
        ux, uy = (bx - ax) / along, (by - ay) / along
        for (cx, cy), (dx, dy) in pairwise(second):
            if math.hypot(dx - cx, dy - cy) == 0 or abs(ux * (dy - cy) - uy * (dx - cx)) > 1e-6:
                continue
            if abs((cx - ax) * uy - (cy - ay) * ux) >= 4:
                continue
            t1, t2 = (cx - ax) * ux + (cy - ay) * uy, (dx - ax) * ux + (dy - ay) * uy
            if min(along, max(t1, t2)) - max(0.0, min(t1, t2)) > 4:
                return True
    return False


def outside(svg: str) -> list[str]:
    """The arrows of a picture that leave it (run past the edge of its ``viewBox``), in words."""
    root = ET.fromstring(svg)
    left, top, width, height = (float(n) for n in root.attrib["viewBox"].split())
    return [
        f"arrow {arrow.name!r} leaves the picture"
        for arrow in arrows(root)
        if any(
            not (left <= x <= left + width and top <= y <= top + height) for x, y in arrow.points
        )
    ]


def _curves_cross(
    first: tuple[tuple[float, float], ...], second: tuple[tuple[float, float], ...]
) -> bool:
    def inner(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
        cut = len(points) // 10
        return points[cut : len(points) - cut] if len(points) > 4 else points

    one, two = inner(first), inner(second)
    return any(_segments_cross(a, b, c, d) for a, b in pairwise(one) for c, d in pairwise(two))


#: The advance widths of DejaVu Sans (the pictures' first font), in ems, by character: the
#: letters, digits and signs the pictures write; an accented letter is as wide as its base
#: letter, and any other character counts :data:`OTHER_CHAR`. Bold text is about
#: :data:`BOLD` times as wide; the oblique as wide as the upright.
ADVANCE: Final[dict[str, float]] = {
    **dict(
        zip(
            "abcdefghijklmnopqrstuvwxyz",
            (
                0.613,
                0.635,
                0.550,
                0.635,
                0.615,
                0.352,
                0.635,
                0.634,
                0.278,
                0.278,
                0.579,
                0.278,
                0.974,
                0.634,
                0.612,
                0.635,
                0.635,
                0.411,
                0.521,
                0.392,
                0.634,
                0.592,
                0.818,
                0.592,
                0.592,
                0.525,
            ),
            strict=True,
        )
    ),
    **dict(
        zip(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            (
                0.684,
                0.686,
                0.698,
                0.770,
                0.632,
                0.575,
                0.775,
                0.752,
                0.295,
                0.295,
                0.656,
                0.557,
                0.863,
                0.748,
                0.787,
                0.603,
                0.787,
                0.695,
                0.635,
                0.611,
                0.732,
                0.684,
                0.989,
                0.685,
                0.611,
                0.685,
            ),
            strict=True,
        )
    ),
    **dict.fromkeys("0123456789", 0.636),
    **dict.fromkeys(" .,\N{MIDDLE DOT}", 0.318),
    **dict.fromkeys(":;", 0.337),
    **dict.fromkeys("()", 0.390),
    **dict.fromkeys("+\N{MINUS SIGN}\N{MULTIPLICATION SIGN}=", 0.838),
    "-": 0.361,
    "'": 0.275,
    "\N{HORIZONTAL ELLIPSIS}": 1.0,
}
OTHER_CHAR: Final = 0.8
BOLD: Final = 1.12


def text_width(words: str, size: float, bold: bool = False) -> float:
    """The width of a line of text in DejaVu Sans at ``size`` pixels (:data:`ADVANCE`)."""
    base = unicodedata.normalize("NFD", words)
    ems = sum(ADVANCE.get(char, OTHER_CHAR) for char in base if not unicodedata.combining(char))
    return ems * size * (BOLD if bold else 1.0)


def _text_rect(text: ET.Element, style: str, default: float) -> Rect:
    """The rectangle of one line of text (its baseline at ``y``)."""
    words = "".join(text.itertext()).replace("".join(_title_text(text)), "", 1)
    classes = text.get("class", "").split()
    size = _font_size(style, " ".join(classes), default)
    width = text_width(words, size, bold=bool({"name", "gl", "turn"} & set(classes)))
    x, y = float(text.attrib["x"]), float(text.attrib["y"])
    if {"gl", "faint", "centre", "arrow"} & set(classes):
        x -= width / 2
    elif "end" in classes:
        x -= width
    return Rect(words, x, y - size * 0.8, width, size)


def _title_text(text: ET.Element) -> list[str]:
    title = text.find(f"{SVG}title")
    return [title.text or ""] if title is not None else []


def text_overflows(svg: str) -> list[str]:
    """The words of a robot's or a dump's box that run past its right edge or over one of its
    gears, in words (empty when every line fits)."""
    root = ET.fromstring(svg)
    style = "".join(element.text or "" for element in root.iter(f"{SVG}style"))
    default = float(root.get("font-size", "16"))
    problems: list[str] = []
    for group in root.iter(f"{SVG}g"):
        if group.get("class") not in ("robot", "dump"):
            continue
        rect = group.findall(f"{SVG}rect")[-1]
        right = float(rect.attrib["x"]) + float(rect.attrib["width"])
        gears = [
            Rect("gear", float(c.attrib["cx"]) - 10, float(c.attrib["cy"]) - 10, 20, 20)
            for cell in group.findall(f"{SVG}g")
            for c in cell.findall(f"{SVG}circle")[:1]
        ]
        for text in group.findall(f"{SVG}text"):
            line = _text_rect(text, style, default)
            if line.x + line.width > right:
                problems.append(f"{line.name!r} runs past the edge of {group.get('id')}")
            if any(line.overlaps(gear) for gear in gears):
                problems.append(f"{line.name!r} runs over a gear of {group.get('id')}")
    return problems


def texts_outside(svg: str) -> list[str]:
    """The lines of text of a picture that run past the left or right edge of its ``viewBox``."""
    root = ET.fromstring(svg)
    style = "".join(element.text or "" for element in root.iter(f"{SVG}style"))
    default = float(root.get("font-size", "16"))
    left, _, width, _ = (float(n) for n in root.attrib["viewBox"].split())
    lines = [_text_rect(text, style, default) for text in root.iter(f"{SVG}text")]
    return [
        f"{line.name!r} runs past the edge of the picture"
        for line in lines
        if line.x < left or line.x + line.width > left + width
    ]
