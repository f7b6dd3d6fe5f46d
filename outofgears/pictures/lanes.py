"""The geometry of the pictures of the table: boxes, and arrows routed along lanes between them.

:mod:`outofgears.pictures.render` places robots and dumps as :class:`Box` es. In its wide layout an
arrow is a curve bent round the boxes; in its narrow layout (a phone's width) the boxes stand
in two columns with lanes between and around them, and :func:`route` draws each arrow as a
path of straight runs along those lanes: out of its robot, along a gap between two rows or
down a lane between the columns, into what it names, touching no other box and neither
crossing nor running along an arrow already drawn.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from attrs import frozen

#: A point of the picture, in SVG user units.
Point = tuple[float, float]


@frozen
class Box:
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

    @property
    def right(self) -> float:
        return self.x + self.width / 2

    @property
    def bottom(self) -> float:
        return self.y + self.height / 2

    def overlaps(self, other: Box) -> bool:
        """Whether the two boxes share more than an edge.

        >>> Box(0, 0, 10, 10).overlaps(Box(9, 0, 10, 10)), Box(0, 0, 10, 10).overlaps(Box(10, 0, 10, 10))
        (True, False)
        """
        return (
            abs(self.x - other.x) * 2 < self.width + other.width
            and abs(self.y - other.y) * 2 < self.height + other.height
        )

    def crossed_by(self, x1: float, y1: float, x2: float, y2: float) -> bool:
        """Whether the segment from (x1, y1) to (x2, y2) passes through the box (Liang-Barsky).

        >>> Box(0, 0, 10, 10).crossed_by(-20, 0, 20, 0), Box(0, 0, 10, 10).crossed_by(6, -20, 6, 20)
        (True, False)
        """
        dx, dy = x2 - x1, y2 - y1
        low, high = 0.0, 1.0
        for p, q in (
            (-dx, x1 - self.left),
            (dx, self.right - x1),
            (-dy, y1 - self.top),
            (dy, self.bottom - y1),
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

    def edge_towards(self, x: float, y: float, margin: float = 6) -> Point:
        """The point where the ray from the centre towards ``(x, y)`` leaves the box."""
        dx, dy = x - self.x, y - self.y
        if dx == 0 and dy == 0:
            return self.x, self.y
        scale = min(
            (self.width / 2 + margin) / abs(dx) if dx else math.inf,
            (self.height / 2 + margin) / abs(dy) if dy else math.inf,
        )
        return self.x + dx * scale, self.y + dy * scale


def crosses(points: Sequence[Point], box: Box) -> bool:
    """Whether a path through ``points`` passes through ``box``."""
    return any(box.crossed_by(a[0], a[1], b[0], b[1]) for a, b in itertools.pairwise(points))


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments ab and cd cross at a point inside both (touching ends do not count).

    >>> segments_cross((0, 0), (10, 10), (0, 10), (10, 0)), segments_cross((0, 0), (5, 5), (5, 5), (9, 0))
    (True, False)
    """

    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(c, d, a) * side(c, d, b) < 0 and side(a, b, c) * side(a, b, d) < 0


#: How close two parallel runs of arrows may come before they read as one line.
APART: Final = 4.0


def segments_run_along(a: Point, b: Point, c: Point, d: Point, apart: float = APART) -> bool:
    """Whether segments ab and cd are parallel, closer than ``apart`` and side by side over
    more than ``apart`` of their length (two arrows drawn on top of each other).

    >>> segments_run_along((0, 0), (100, 0), (50, 2), (150, 2)), segments_run_along((0, 0), (100, 0), (50, 9), (150, 9))
    (True, False)
    >>> segments_run_along((0, 0), (100, 0), (102, 0), (150, 0))
    False
    """
    ux, uy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(ux, uy)
    vx, vy = d[0] - c[0], d[1] - c[1]
    if length == 0 or math.hypot(vx, vy) == 0:
        return False
    ux, uy = ux / length, uy / length
    if abs(ux * vy - uy * vx) > 1e-6 * math.hypot(vx, vy):
        return False
    distance = abs((c[0] - a[0]) * uy - (c[1] - a[1]) * ux)
    if distance >= apart:
        return False
    t1 = (c[0] - a[0]) * ux + (c[1] - a[1]) * uy
    t2 = (d[0] - a[0]) * ux + (d[1] - a[1]) * uy
    shared = min(length, max(t1, t2)) - max(0.0, min(t1, t2))
    return shared > apart


def paths_meet(first: Sequence[Point], second: Sequence[Point]) -> bool:
    """Whether two paths of straight runs cross or run along each other anywhere."""
    return any(
        segments_cross(a, b, c, d) or segments_run_along(a, b, c, d)
        for a, b in itertools.pairwise(first)
        for c, d in itertools.pairwise(second)
    )


@frozen
class Cell:
    """Where a box stands in the two-column layout: its row (from the top) and column."""

    row: int
    column: int


@frozen
class Lanes:
    """The free space of a two-column layout: the x of the three lanes (left of the first
    column, between the columns, right of the second) and the y of the gaps above each row
    and below the last (``gaps[r]`` is above row ``r``)."""

    columns: tuple[float, float, float]
    gaps: tuple[float, ...]

    def beside(self, column: int) -> tuple[int, int]:
        """The two lanes beside a column: ``(0, 1)`` for the first, ``(1, 2)`` for the second."""
        return (column, column + 1)


#: Where along an edge an arrow may leave or enter a box, from its middle (tried in turn).
_PORTS: Final = (0.0, -16.0, 16.0, -32.0, 32.0, -48.0, 48.0)
#: How far from the middle of a lane or gap an arrow may run, so that two do not merge.
_TRACKS: Final = (0.0, -6.0, 6.0)
#: The gap between an arrow's end and the edge of the box it names, for the arrowhead.
_END: Final = 3.0
_START: Final = 2.0


def _ports(box: Box, along: str) -> Iterator[float]:
    half = (box.width if along == "x" else box.height) / 2 - 10
    centre = box.x if along == "x" else box.y
    for offset in _PORTS:
        if abs(offset) <= half:
            yield centre + offset


def _tracks(middle: float) -> Iterator[float]:
    return (middle + track for track in _TRACKS)


def _vertical_end(box: Box, gap: float, port: float, margin: float) -> Point:
    """The point on the top or bottom edge of ``box`` facing ``gap``."""
    return (port, box.top - margin if gap < box.y else box.bottom + margin)


def _side_end(box: Box, lane: float, port: float, margin: float) -> Point:
    """The point on the left or right edge of ``box`` facing ``lane``."""
    return (box.left - margin if lane < box.x else box.right + margin, port)


def _gaps_of(cell: Cell) -> tuple[int, int]:
    return (cell.row, cell.row + 1)


def candidates(
    source: Box, source_cell: Cell, target: Box, target_cell: Cell, lanes: Lanes
) -> Iterator[tuple[Point, ...]]:
    """Every path an arrow may take from ``source`` to ``target`` along the lanes: straight
    across a gap or lane between neighbours, or out into a gap or lane, along it (and along
    a second one), and in. (:func:`route` finds the best of them without trying each.)"""
    yield from _short_candidates(source, source_cell, target, target_cell, lanes)
    yield from _through_two_gaps(source, source_cell, target, target_cell, lanes)


def _short_candidates(
    source: Box, source_cell: Cell, target: Box, target_cell: Cell, lanes: Lanes
) -> Iterator[tuple[Point, ...]]:
    """The paths of two and four points: straight between neighbours, or along one gap or
    one lane."""
    s, t = source_cell, target_cell
    # straight, between neighbours
    if s.column == t.column and abs(s.row - t.row) == 1:
        gap = lanes.gaps[max(s.row, t.row)]
        for port in _ports(source, "x"):
            yield (_vertical_end(source, gap, port, _START), _vertical_end(target, gap, port, _END))
    if s.row == t.row and s.column != t.column:
        lane = lanes.columns[1]
        for port in _ports(source, "y"):
            if not target.top + 10 <= port <= target.bottom - 10:
                continue
            yield (_side_end(source, lane, port, _START), _side_end(target, lane, port, _END))
    # out into a gap, along it, in
    for gap_index in set(_gaps_of(s)) & set(_gaps_of(t)):
        for y in _tracks(lanes.gaps[gap_index]):
            for out, into in itertools.product(_ports(source, "x"), _ports(target, "x")):
                yield (
                    _vertical_end(source, y, out, _START),
                    (out, y),
                    (into, y),
                    _vertical_end(target, y, into, _END),
                )
    # out into a lane, along it, in
    for lane_index in set(lanes.beside(s.column)) & set(lanes.beside(t.column)):
        for x in _tracks(lanes.columns[lane_index]):
            for out, into in itertools.product(_ports(source, "y"), _ports(target, "y")):
                yield (
                    _side_end(source, x, out, _START),
                    (x, out),
                    (x, into),
                    _side_end(target, x, into, _END),
                )


def _through_two_gaps(
    source: Box, source_cell: Cell, target: Box, target_cell: Cell, lanes: Lanes
) -> Iterator[tuple[Point, ...]]:
    """The paths of six points: out into a gap, along a lane to a gap beside the target, in."""
    for first, second in itertools.product(_gaps_of(source_cell), _gaps_of(target_cell)):
        for lane_index in range(3):
            for x, y1, y2 in itertools.product(
                _tracks(lanes.columns[lane_index]),
                _tracks(lanes.gaps[first]),
                _tracks(lanes.gaps[second]),
            ):
                for out, into in itertools.product(_ports(source, "x"), _ports(target, "x")):
                    yield (
                        _vertical_end(source, y1, out, _START),
                        (out, y1),
                        (x, y1),
                        (x, y2),
                        (into, y2),
                        _vertical_end(target, y2, into, _END),
                    )


def length(points: Sequence[Point]) -> float:
    """The length of a path of straight runs."""
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


class _Segments:
    """Which runs touch a box or meet an arrow already laid, each run measured once."""

    def __init__(self, obstacles: Iterable[Box], laid: Sequence[Sequence[Point]]) -> None:
        self.boxes = [(box, box.left, box.top, box.right, box.bottom) for box in obstacles]
        self.laid = [
            (c, d, min(c[0], d[0]), min(c[1], d[1]), max(c[0], d[0]), max(c[1], d[1]))
            for path in laid
            for c, d in itertools.pairwise(path)
        ]
        self._box: dict[tuple[Point, Point], bool] = {}
        self._laid: dict[tuple[Point, Point], bool] = {}

    def touches_box(self, a: Point, b: Point) -> bool:
        found = self._box.get((a, b))
        if found is None:
            (x1, y1), (x2, y2) = a, b
            low_x, high_x, low_y, high_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
            found = any(
                box.crossed_by(x1, y1, x2, y2)
                for box, left, top, right, bottom in self.boxes
                # a box wholly beside the run cannot be crossed
                if high_x >= left and low_x <= right and high_y >= top and low_y <= bottom
            )
            self._box[(a, b)] = found
        return found

    def meets_laid(self, a: Point, b: Point) -> bool:
        found = self._laid.get((a, b))
        if found is None:
            low_x, low_y = min(a[0], b[0]) - APART, min(a[1], b[1]) - APART
            high_x, high_y = max(a[0], b[0]) + APART, max(a[1], b[1]) + APART
            found = any(
                segments_cross(a, b, c, d) or segments_run_along(a, b, c, d)
                for c, d, left, top, right, bottom in self.laid
                # a run farther than APART from this one neither crosses nor runs along it
                if right >= low_x and left <= high_x and bottom >= low_y and top <= high_y
            )
            self._laid[(a, b)] = found
        return found

    def tier(self, points: Sequence[Point]) -> int:
        """0: the path touches no box and meets no laid arrow; 1: it touches no box; 2: else."""
        runs = list(itertools.pairwise(points))
        if any(self.touches_box(a, b) for a, b in runs):
            return 2
        return 1 if any(self.meets_laid(a, b) for a, b in runs) else 0


#: A path's rank among the candidates: its number of points, then its length (then the
#: order of generation breaks a tie).
_Rank = tuple[int, float]


def _rank(points: Sequence[Point]) -> _Rank:
    return (len(points), round(length(points), 3))


def _best_short(
    paths: Iterable[tuple[Point, ...]], segments: _Segments
) -> list[tuple[_Rank, int, tuple[Point, ...]] | None]:
    """The best path of each tier (see :meth:`_Segments.tier`) among ``paths``, with its rank
    and order; a path of a better tier counts for the worse ones too."""
    best: list[tuple[_Rank, int, tuple[Point, ...]] | None] = [None, None, None]
    for order, points in enumerate(paths):
        entry = (_rank(points), order, points)
        for tier in range(segments.tier(points), 3):
            current = best[tier]
            if current is None or entry[:2] < current[:2]:
                best[tier] = entry
    return best


def _best_through_two_gaps(
    source: Box,
    source_cell: Cell,
    target: Box,
    target_cell: Cell,
    lanes: Lanes,
    segments: _Segments,
    tier: int,
) -> tuple[_Rank, int, tuple[Point, ...]] | None:
    """The best six-point path of ``tier`` or better: out into a gap, along a lane to a gap beside the
    target, in. Such a path's runs depend on its ports and its middle separately, so each
    middle takes the best port out and the best port in (the first of the shortest), rather
    than trying every pair; the result is the one :func:`candidates` would rank first."""
    best: tuple[_Rank, int, tuple[Point, ...]] | None = None
    outs, intos = list(_ports(source, "x")), list(_ports(target, "x"))

    @functools.cache
    def ways_out(x: float, y1: float) -> list[float | None]:
        """The best port out of the source to the lane at ``x`` by the gap at ``y1``, by tier."""
        ends = [(_vertical_end(source, y1, out, _START), out) for out in outs]
        return _best_ports(
            [
                (segments.tier((end, (out, y1), (x, y1))), abs(end[1] - y1) + abs(out - x), out)
                for end, out in ends
            ]
        )

    @functools.cache
    def ways_in(x: float, y2: float) -> list[float | None]:
        """The same for each port into the target from the lane at ``x`` by the gap at ``y2``."""
        ends = [(_vertical_end(target, y2, into, _END), into) for into in intos]
        return _best_ports(
            [
                (segments.tier(((x, y2), (into, y2), end)), abs(end[1] - y2) + abs(into - x), into)
                for end, into in ends
            ]
        )

    order = 0
    for first, second in itertools.product(_gaps_of(source_cell), _gaps_of(target_cell)):
        for lane_index in range(3):
            for x, y1, y2 in itertools.product(
                _tracks(lanes.columns[lane_index]),
                _tracks(lanes.gaps[first]),
                _tracks(lanes.gaps[second]),
            ):
                order += 1
                out, into = ways_out(x, y1)[tier], ways_in(x, y2)[tier]
                if out is None or into is None or segments.tier(((x, y1), (x, y2))) > tier:
                    continue
                points = (
                    _vertical_end(source, y1, out, _START),
                    (out, y1),
                    (x, y1),
                    (x, y2),
                    (into, y2),
                    _vertical_end(target, y2, into, _END),
                )
                entry = (_rank(points), order, points)
                if best is None or entry[:2] < best[:2]:
                    best = entry
    return best


def _best_ports(ports: Sequence[tuple[int, float, float]]) -> list[float | None]:
    """For each tier, the first port of the least cost among ``(tier, cost, port)`` of that
    tier or better (``None``: no port)."""
    best: list[float | None] = []
    for tier in range(3):
        fitting = [
            (round(cost, 3), index, port)
            for index, (t, cost, port) in enumerate(ports)
            if t <= tier
        ]
        best.append(min(fitting)[2] if fitting else None)
    return best


def route(
    source: Box,
    source_cell: Cell,
    target: Box,
    target_cell: Cell,
    lanes: Lanes,
    obstacles: Iterable[Box],
    laid: Sequence[Sequence[Point]] = (),
) -> tuple[Point, ...]:
    """The path of an arrow from ``source`` to ``target``: the one with the fewest turns, then
    the shortest, that touches no box and meets no path already ``laid``; failing that, the
    best that touches no box; failing that, the best.

    Every run is measured once, and the longest paths (through two gaps) are searched by
    their parts, so that a picture's arrows cost milliseconds, not seconds.

    >>> lanes = Lanes((10, 100, 190), (10, 70, 130))
    >>> top, bottom = Box(55, 40, 70, 40), Box(55, 100, 70, 40)
    >>> route(top, Cell(0, 0), bottom, Cell(1, 0), lanes, [top, bottom])
    ((55.0, 62.0), (55.0, 77.0))
    """
    segments = _Segments(obstacles, laid)
    short = _best_short(
        _short_candidates(source, source_cell, target, target_cell, lanes), segments
    )
    for tier in range(3):
        # a short path (fewer points) always ranks before a long one
        entry = short[tier] or _best_through_two_gaps(
            source, source_cell, target, target_cell, lanes, segments, tier
        )
        if entry is not None:
            return entry[2]
    raise AssertionError("no path between two boxes")  # pragma: no cover
