"""Pictures of the table (``outofgears.pictures.render``): valid, labelled, deterministic SVG."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outofgears import (
    JOLLY,
    THREE_POINT,
    AnyProgram,
    GameState,
    Options,
    Program,
    UpgradeCard,
    UpgradeProgram,
    apply_turn,
    from_position,
    gears,
    setup_game,
    setup_two_robot_game,
)
from outofgears.errors import ArgumentTypeError
from outofgears.pictures import render as render_module
from outofgears.pictures.lanes import (
    Box,
    Cell,
    Lanes,
    Point,
    candidates,
    crosses,
    length,
    paths_meet,
    route,
)
from outofgears.pictures.render import (
    GEAR_FILLS,
    LAYOUTS,
    MIN_FONT_SIZE,
    NARROW_WIDTH,
    TIMES,
    describe_position,
    render_svg,
)
from outofgears.rules.gears import COLOUR_NAMES
from outofgears.words import LANGUAGES
from tests.helpers import position, programs
from tests.picture_geometry import (
    crossings,
    outside,
    overlaps,
    text_overflows,
    text_sizes,
    texts_outside,
    width,
)
from tests.strategies import crowded_programs

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def texts(root: ET.Element) -> list[str]:
    return ["".join(element.itertext()) for element in root.iter(f"{SVG}text")]


def group_titles(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}title")]


def crowded_table() -> GameState:
    return from_position(
        robots={
            1: {"feet": gears(1, 1, 1, 2, 5), "circuit": (*gears(1, 1), JOLLY, THREE_POINT)},
            2: {"feet": gears(3)},
            3: {},
        },
        dumps={1: (*gears(4, 4, 6), JOLLY), 2: (), 3: gears(3, 3)},
        reserve=gears(2, 2, 7),
        players={"Ada": (1,), "Bruno & <Co>": (2,), "Chiara": (3,)},
        options=Options(jolly_gears=True, three_point_gears=True),
    )


def test_the_picture_is_a_standalone_svg_document_with_a_title_and_a_description() -> None:
    svg = render_svg(crowded_table())
    root = parse(svg)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert re.fullmatch(r"-?[\d.]+ -?[\d.]+ [\d.]+ [\d.]+", root.attrib["viewBox"])
    assert root.attrib["role"] == "img"
    children = list(root)
    assert children[0].tag == f"{SVG}title"
    assert children[0].text == "Out of Gears: the table before turn 1"
    assert children[1].tag == f"{SVG}desc"
    description = children[1].text or ""
    assert "Robot 1 (red, Ada, 17 points): feet 3 red, 1 orange, 1 blue;" in description
    assert "circuit 2 red, 1 jolly, 1 3-point." in description
    assert "Robot 2 (orange, Bruno & <Co>, 1 point)" in description
    assert "Dump 1: 2 green, 1 purple, 1 jolly. Dump 2: none. Dump 3: 2 yellow." in description
    assert "Reserve: 3 gears face down." in description


def test_every_gear_count_of_every_place_is_written_beside_its_gear() -> None:
    root = parse(render_svg(crowded_table()))
    titles = group_titles(root)
    for expected in (
        "robot 1 feet: 3 red",
        "robot 1 feet: 1 orange",
        "robot 1 feet: 1 blue",
        "robot 1 circuit: 2 red",
        "robot 1 circuit: 1 jolly",
        "robot 1 circuit: 1 3-point",
        "robot 2 feet: 1 yellow",
        "dump 1: 2 green",
        "dump 1: 1 purple",
        "dump 1: 1 jolly",
        "dump 3: 2 yellow",
    ):
        assert expected in titles
    words = texts(root)
    # each kind of gear carries its count, and the places their totals
    assert words.count(TIMES + "3") == 1
    assert words.count(TIMES + "2") == 3
    assert words.count(TIMES + "1") == 7
    for total in ("feet 5", "circuit 4", "feet 1", "circuit 0", "Dump 1 · 4 gears"):
        assert total in words
    assert "Dump 2 · 0 gears" in words
    assert "reserve: 3 gears" in words


def test_colour_is_not_the_only_carrier_gears_show_their_number_or_kind() -> None:
    root = parse(render_svg(crowded_table()))
    words = texts(root)
    for label in ("1", "2", "5", "3", "4", "6"):
        assert label in words
    assert "J" in words  # the Jolly: a star marked J
    assert "3P" in words  # the three-point gear: a triangle marked 3P
    assert words.count("none") == 4  # robot 2 circuit, robot 3 feet and circuit, dump 2
    stars = [p for p in root.iter(f"{SVG}polygon") if len(p.attrib["points"].split()) == 10]
    triangles = [p for p in root.iter(f"{SVG}polygon") if len(p.attrib["points"].split()) == 3]
    assert len(stars) == 2  # a Jolly in robot 1's circuit and one on dump 1
    assert len(triangles) == 1
    for number in (1, 2, 3):
        assert f"Robot {number} · {COLOUR_NAMES[number]}" in words


def test_each_program_is_an_arrow_labelled_with_its_robot_and_program() -> None:
    state = position(dumps={1: [1], 2: [2], 3: [3], 4: [4]}, reserve=[1, 2, 3, 4])
    laid = programs(r1="attack 2", r2="attack 1", r3="trap 4", r4="harvest 4")
    root = parse(render_svg(state, laid))
    lines = list(root.iter(f"{SVG}path"))
    arrows = [line for line in lines if "marker-end" in line.attrib]
    assert len(arrows) == 4
    assert sorted(line.attrib["marker-end"] for line in arrows) == [
        "url(#arrow-1)",
        "url(#arrow-2)",
        "url(#arrow-3)",
        "url(#arrow-4)",
    ]
    words = texts(root)
    for label in ("R1: attack 2", "R2: attack 1", "R3: trap 4", "R4: harvest 4"):
        assert label in words
    # line styles, not colours alone, tell the actions apart
    dashes = {line.attrib.get("stroke-dasharray", "") for line in arrows}
    assert dashes == {"", "10 6", "1 6"}
    markers = {marker.attrib["id"] for marker in root.iter(f"{SVG}marker")}
    assert markers == {"arrow-1", "arrow-2", "arrow-3", "arrow-4"}
    assert "attack (solid)" in words
    assert "trap (dashed)" in words
    assert "plays: trap 4" in words


def test_a_defence_circles_its_robot_instead_of_an_arrow() -> None:
    state = position(dumps={1: [1], 2: [2]}, reserve=[1, 2])
    root = parse(render_svg(state, programs(r1="attack 1", r2="attack 1")))
    arrows = [line for line in root.iter(f"{SVG}path") if "marker-end" in line.attrib]
    assert len(arrows) == 1
    assert "plays: attack 1 (defence)" in texts(root)
    assert "R2: attack 1" in texts(root)


def test_upgrade_cards_point_at_everything_they_act_on() -> None:
    state = setup_game([1, 2, 3], seed=4, options=Options(upgrades=True))
    laid: dict[int, AnyProgram] = {
        1: UpgradeProgram(UpgradeCard.SUPER_ATTACK),
        2: UpgradeProgram(UpgradeCard.SUPER_TRAP),
        3: Program.parse("attack 3"),
    }
    root = parse(render_svg(state, laid))
    words = texts(root)
    # one arrow per target, the program written once
    targets = [
        (g.get("data-from"), g.get("data-to"))
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "program"
    ]
    assert [t for f, t in targets if f == "robot-1"] == ["robot-2", "robot-3"]
    assert [t for f, t in targets if f == "robot-2"] == ["dump-1", "dump-2", "dump-3"]
    assert words.count("R1: super attack") == 1
    assert words.count("R2: super trap") == 1
    laid = {
        1: UpgradeProgram(UpgradeCard.COUNTER_DEFENCE),
        2: Program.parse("attack 2"),
        3: Program.parse("harvest 1"),
    }
    words = texts(parse(render_svg(state, laid)))
    assert words.count("R1: counter defence") == 1  # only the defender, robot 2


def test_the_dumps_not_in_play_lie_face_down_in_the_octagon() -> None:
    root = parse(render_svg(position(dumps={2: [], 5: []}, reserve=[2])))
    face_down = [g for g in root.iter(f"{SVG}g") if g.get("class") == "dump face-down"]
    assert [[t.strip() for t in g.itertext() if t.strip()] for g in face_down] == [
        [f"Dump {n}: not in play, face down", str(n)] for n in (1, 3, 4, 6, 7, 8)
    ]
    for group in face_down:  # compact: a small card, not a box the size of a dump
        rect = group.find(f"{SVG}rect")
        assert rect is not None
        assert float(rect.attrib["width"]) <= 40
        assert float(rect.attrib["height"]) <= 30
    assert "Dump 2 · 0 gears" in texts(root)


def test_the_two_robot_variant_names_each_robots_player() -> None:
    state = setup_two_robot_game({"Ada": (1, 3), "Bo": (2, 4)}, seed=9)
    words = texts(parse(render_svg(state)))
    assert sum(word.startswith("Ada · ") for word in words) == 2
    assert sum(word.startswith("Bo · ") for word in words) == 2


def test_the_same_position_and_programs_always_give_the_same_picture() -> None:
    state = setup_game([1, 2, 3, 4, 5, 6, 7, 8], seed=11)
    laid = programs(
        r1="attack 1",
        r2="attack 1",
        r3="trap 3",
        r4="harvest 3",
        r5="attack 6",
        r6="attack 5",
        r7="harvest 8",
        r8="harvest 8",
    )
    first = render_svg(state, laid)
    again = render_svg(state, dict(reversed(list(laid.items()))))
    assert first == again
    parse(first)
    assert render_svg(state) != first
    assert render_svg(state) == render_svg(state)


def test_a_finished_game_says_so() -> None:
    state = position(dumps={1: [], 2: [2]})
    over = apply_turn(state, programs(r1="harvest 2", r2="attack 2"))
    assert over.game_over
    root = parse(render_svg(over))
    assert next(iter(root)).text == "Out of Gears: the table at the end of the game"
    assert "Game over" in texts(root)


def test_an_after_picture_is_the_table_after_its_turn_not_before_the_next() -> None:
    state = setup_game([1, 2, 3], seed=7)
    after = apply_turn(state, programs(r1="harvest 1", r2="harvest 2", r3="attack 1"))
    for layout in ("wide", "narrow"):
        root = parse(render_svg(after, before=state, layout=layout))
        assert next(iter(root)).text == "Out of Gears: the table after turn 1"
        assert root.find(f"{SVG}desc").text.startswith("After turn 1.\nRobot 1 (red, ")  # type: ignore[union-attr]
        assert "After turn 1" in texts(root)
        assert "Turn 2" not in texts(root)
        # without the table before, it is the table before turn 2
        assert "Turn 2" in texts(parse(render_svg(after, layout=layout)))
    over = position(dumps={1: [], 2: [2]})
    ended = apply_turn(over, programs(r1="harvest 2", r2="attack 2"))
    assert "Game over" in texts(parse(render_svg(ended, before=over)))


def test_a_given_title_is_escaped() -> None:
    root = parse(render_svg(setup_game([1, 2], seed=1), title="Turn <3> & more"))
    assert next(iter(root)).text == "Turn <3> & more"


# --- pictures people can read (issue 15) -------------------------------------------------------


def shipped_drawings() -> list[tuple[str, str]]:
    """Every picture the documentation ships: the worked examples' before and after, each
    wide and narrow (its twin for phones)."""
    from tests.doc_pages import example_pages, narrow_name, run_page

    runs = [run_page(page) for page in example_pages()]
    return [
        drawing
        for run in runs
        for name in sorted(run.pictures)
        for drawing in ((name, run.pictures[name]), (narrow_name(name), run.narrow[name]))
    ]


SHIPPED = shipped_drawings()
NARROW_SHIPPED = [(name, svg) for name, svg in SHIPPED if name.endswith("-narrow")]


def test_there_are_shipped_drawings_to_measure_wide_and_narrow() -> None:
    assert len(SHIPPED) >= 52
    assert len(NARROW_SHIPPED) == len(SHIPPED) / 2


@pytest.mark.parametrize(("name", "svg"), SHIPPED, ids=[name for name, _ in SHIPPED])
def test_no_arrow_of_a_shipped_drawing_leaves_the_picture(name: str, svg: str) -> None:
    assert outside(svg) == []


@pytest.mark.parametrize(("name", "svg"), NARROW_SHIPPED, ids=[n for n, _ in NARROW_SHIPPED])
def test_a_narrow_drawing_fits_the_text_of_a_phone_at_its_own_size(name: str, svg: str) -> None:
    # 328 units: the text column of the site on a 360-pixel screen, shown unscaled
    assert width(svg) == NARROW_WIDTH == 328
    assert min(text_sizes(svg)) >= MIN_FONT_SIZE


def test_the_measures_see_an_arrow_leaving_the_picture_and_two_arrows_on_one_line() -> None:
    def arrow(robot: int, path: str) -> str:
        return (
            f'<g class="program" data-from="robot-{robot}" data-to="dump-1">'
            f'<title>robot {robot}: harvest 1</title><path d="{path}"/></g>'
        )

    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{}</svg>'
    along = arrow(1, "M10,10 L10,50 L60,50") + arrow(2, "M90,10 L90,52 L30,52")
    assert crossings(svg.format(along)) == [
        "arrow 'robot 1: harvest 1' runs along arrow 'robot 2: harvest 1'"
    ]
    apart = arrow(1, "M10,10 L10,50 L60,50") + arrow(2, "M90,10 L90,58 L30,58")
    assert crossings(svg.format(apart)) == []
    assert outside(svg.format(arrow(1, "M10,10 Q250,50 10,90"))) == [
        "arrow 'robot 1: harvest 1' leaves the picture"
    ]
    assert outside(svg.format(arrow(1, "M10,10 Q50,50 10,90"))) == []


def test_a_narrow_picture_seats_the_robots_clockwise_each_in_the_corner_of_its_dump() -> None:
    state = position(feet={1: [2]}, dumps={1: [1], 2: [2], 3: [], 4: [4]}, reserve=[1])
    root = parse(render_svg(state, programs(r1="attack 3", r2="harvest 4"), layout="narrow"))
    corners = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") in ("robot", "dump"):
            rect = group.findall(f"{SVG}rect")[-1]
            corners[group.get("id")] = (float(rect.get("x", 0)), float(rect.get("y", 0)))
    left, right = corners["robot-1"][0], corners["robot-2"][0]
    assert left < right
    # clockwise from the top left: 1 and 2 above the dumps, 3 and 4 below, 3 on the right
    assert corners["robot-1"][1] == corners["robot-2"][1] < corners["dump-1"][1]
    assert corners["robot-4"][1] == corners["robot-3"][1] > corners["dump-4"][1]
    for number in (1, 2, 3, 4):
        assert corners[f"robot-{number}"][0] == corners[f"dump-{number}"][0]
    assert [corners[f"robot-{n}"][0] for n in (1, 2, 3, 4)] == [left, right, right, left]


def test_a_narrow_picture_writes_each_program_in_its_robot_and_draws_its_arrows() -> None:
    state = position(dumps={1: [1], 2: [2], 3: [3]}, reserve=[1])
    plays = programs(r1="attack 3", r2="harvest 1", r3="trap 2")
    root = parse(render_svg(state, plays, layout="narrow"))
    words = texts(root)
    assert [w for w in words if w.startswith("plays")] == [
        "plays: attack 3",
        "plays: harvest 1",
        "plays: trap 2",
    ]
    assert not [w for w in words if w.startswith("R1:")]  # no label on the arrows
    drawn = [
        (g.get("data-from"), g.get("data-to"))
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "program"
    ]
    assert drawn == [("robot-1", "robot-3"), ("robot-2", "dump-1"), ("robot-3", "dump-2")]


def test_a_long_line_of_a_narrow_box_wraps_and_an_unknown_layout_is_refused() -> None:
    state = position(
        dumps={1: [1], 2: [2]},
        players={"Bartholomew-Alexander": (1,), "Bo": (2,)},
        upgrades={"Bartholomew-Alexander": UpgradeCard.COUNTER_DEFENCE},
        options=Options(upgrades=True),
    )
    words = texts(parse(render_svg(state, layout="narrow")))
    assert words[words.index("Robot 1 · red") + 1].endswith("Bartholomew…")  # (its title first)
    assert "0 points" in words
    assert "holds:" in words
    assert "counter defence" in words
    with pytest.raises(ArgumentTypeError, match='layout must be "wide" or "narrow"'):
        render_svg(state, layout="tall")  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "svg"), SHIPPED, ids=[name for name, _ in SHIPPED])
def test_no_arrow_or_label_of_a_shipped_drawing_overlaps_a_box_a_label_or_an_arrow(
    name: str, svg: str
) -> None:
    assert overlaps(svg) == []


@pytest.mark.parametrize(("name", "svg"), SHIPPED, ids=[name for name, _ in SHIPPED])
def test_no_arrow_of_a_shipped_drawing_crosses_another(name: str, svg: str) -> None:
    assert crossings(svg) == []


def test_the_crossing_measure_sees_two_arrows_that_cross_and_not_two_that_share_an_end() -> None:
    def arrow(robot: int, target: str, path: str) -> str:
        return (
            f'<g class="program" data-from="robot-{robot}" data-to="{target}">'
            f'<title>robot {robot}: to {target}</title><path d="{path}"/></g>'
        )

    crossing = arrow(1, "dump-2", "M0,0 L100,100") + arrow(2, "dump-1", "M100,0 L0,100")
    meeting = arrow(1, "dump-3", "M0,0 L50,100") + arrow(2, "dump-3", "M100,0 L50,100")
    svg = '<svg xmlns="http://www.w3.org/2000/svg">{}</svg>'
    assert crossings(svg.format(crossing)) == [
        "arrow 'robot 1: to dump-2' crosses arrow 'robot 2: to dump-1'"
    ]
    assert crossings(svg.format(meeting)) == []


@pytest.mark.parametrize(("name", "svg"), SHIPPED, ids=[name for name, _ in SHIPPED])
def test_the_smallest_text_of_a_shipped_drawing_is_twelve_pixels(name: str, svg: str) -> None:
    assert min(text_sizes(svg)) >= MIN_FONT_SIZE == 12


def test_the_overlap_measure_sees_a_label_on_a_box_and_an_arrow_through_a_dump() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg"><style>text{font-size:12px}</style>'
        '<g class="dump" id="dump-2"><title>Dump 2: none</title>'
        '<rect x="100" y="100" width="100" height="50"/></g>'
        '<g class="program" data-from="robot-1" data-to="dump-3"><title>robot 1: trap 3</title>'
        '<path d="M0,125 Q150,125 300,125"/><text x="150" y="130" class="arrow">R1: trap 3</text>'
        "</g></svg>"
    )
    assert overlaps(svg) == [
        "arrow 'robot 1: trap 3' crosses Dump 2",
        "arrow 'robot 1: trap 3' crosses label 'R1: trap 3'",
        "label 'R1: trap 3' overlaps Dump 2",
    ]


def test_a_score_of_one_is_one_point() -> None:
    state = position(feet={1: [2]}, dumps={1: [], 2: []}, reserve=[1])
    words = texts(parse(render_svg(state)))
    assert "P1 · 1 point" in words
    assert "P2 · 0 points" in words
    for _, svg in SHIPPED:
        assert not re.search(r"\b1 points\b", svg)


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


#: Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB.
DEFICIENCIES = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def seen_as(colour: str, deficiency: str) -> tuple[float, float, float]:
    """A fill colour as a reader with the deficiency sees it, in CIELAB."""
    rgb = [_linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5)]
    matrix = DEFICIENCIES[deficiency]
    seen = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in matrix]
    return _lab((seen[0], seen[1], seen[2]))


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_the_eight_gear_colours_stay_apart_under_each_colour_vision_deficiency(
    deficiency: str,
) -> None:
    # CIE76 distance of at least 15 between every two gear colours (2.3 is just noticeable)
    labs = {n: seen_as(fill, deficiency) for n, fill in GEAR_FILLS.items()}
    close = [
        (a, b, round(math.dist(labs[a], labs[b]), 1))
        for a in labs
        for b in labs
        if a < b and math.dist(labs[a], labs[b]) < 15
    ]
    assert close == []


def test_every_gear_carries_its_number_whatever_its_colour() -> None:
    state = position(feet={1: list(range(1, 9))}, dumps={1: [], 2: []}, reserve=[1])
    root = parse(render_svg(state))
    numbers = ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if "gl" in t.get("class", "")]
    assert numbers == [str(n) for n in range(1, 9)]


def test_an_after_picture_outlines_and_counts_what_moved_since_the_before() -> None:
    before = position(
        feet={1: [2, 3], 2: [1, 2]},
        dumps={1: [1], 2: [2], 3: [3]},
        reserve=[1, 2, 3],
    )
    after = apply_turn(before, programs(r1="attack 2", r2="trap 3", r3="harvest 1"))
    root = parse(render_svg(after, before=before))
    words = texts(root)
    # robot 1 took robot 2's two feet gears (and assembled them), robot 3 harvested dump 1,
    # the reserve refilled the dumps
    assert [w for w in words if w.startswith("moved")] == [
        "moved +1",
        "moved +1",
        "moved: circuit +2",
        "moved: feet \N{MINUS SIGN}2",
        "moved: feet +1",
    ]
    rings = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "moved"]
    assert len(rings) == 5
    # without an earlier position nothing is marked
    assert not [r for r in parse(render_svg(after)).iter(f"{SVG}rect") if r.get("class")]


def route_by_trying_every_path(
    source: Box,
    source_cell: Cell,
    target: Box,
    target_cell: Cell,
    lanes: Lanes,
    obstacles: Iterable[Box],
    laid: Sequence[Sequence[Point]] = (),
) -> tuple[Point, ...]:
    """The routing the fast one replaced: every candidate path ranked, then tried in turn."""
    boxes = list(obstacles)
    best = clear = None
    ranked = sorted(
        candidates(source, source_cell, target, target_cell, lanes),
        key=lambda points: (len(points), round(length(points), 3)),
    )
    for points in ranked:
        best = best or points
        if any(crosses(points, box) for box in boxes):
            continue
        clear = clear or points
        if not any(paths_meet(points, other) for other in laid):
            return points
    chosen = clear or best
    assert chosen is not None
    return chosen


@settings(max_examples=8, deadline=None)
@given(st.data(), st.integers(3, 5), st.integers(0, 2**16))
def test_the_fast_routing_takes_the_path_that_trying_every_path_takes(
    data: st.DataObject, robots: int, seed: int
) -> None:
    # a differential test: each arrow of a crowded narrow picture, routed both ways, with the
    # arrows laid before it (so that the fallbacks, a path meeting an arrow or a box, are met);
    # up to five robots, as trying every path costs seconds on eight
    state = setup_game(list(range(1, robots + 1)), seed=seed)
    plays = data.draw(crowded_programs(state))
    routed: list[tuple[tuple[Point, ...], tuple[Point, ...]]] = []

    def both(*args: Any) -> tuple[Point, ...]:
        fast, slow = route(*args), route_by_trying_every_path(*args)
        routed.append((fast, slow))
        return fast

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(render_module, "route", both)
        render_svg(state, plays, layout="narrow")
    assert routed or not plays
    for fast, slow in routed:
        assert fast == slow


def test_a_crowded_narrow_picture_whose_arrows_cannot_all_stay_clear_is_still_drawn() -> None:
    # every path blocked by an arrow already laid: the routing falls back to one that only
    # keeps off the boxes, the same one as trying every path
    top, bottom = Box(55, 40, 70, 40), Box(55, 100, 70, 40)
    lanes = Lanes((10, 100, 190), (10, 70, 130))
    wall = [((0.0, y), (200.0, y)) for y in (64.0, 70.0, 76.0)]
    args = (top, Cell(0, 0), bottom, Cell(1, 0), lanes, [top, bottom], wall)
    path = route(*args)
    assert path == route_by_trying_every_path(*args)
    assert any(paths_meet(path, other) for other in wall)
    assert not any(crosses(path, box) for box in (top, bottom))


# --- the pictures in the players' languages ---------------------------------------------------


def translated_drawings() -> list[tuple[str, str]]:
    """The pictures of the first, a middle and the last turn of every example log, before and
    after, wide and narrow, in each language: the shapes of tables the documentation shows,
    with upgrade cards, defences, face-down dumps and the end of a game."""
    from outofgears.judge.replay import replay_log
    from outofgears.log import read_log

    drawings = []
    for path in sorted(Path("examples").glob("*.log.json")):
        turns = replay_log(read_log(path)).turns
        for index in sorted({0, len(turns) // 2, len(turns) - 1}):
            turn = turns[index]
            for lang, layout in itertools.product(LANGUAGES, LAYOUTS):
                name = f"{path.name.removesuffix('.log.json')}-{turn.turn}-{layout}-{lang}"
                drawings += [
                    (
                        f"{name}-before",
                        render_svg(turn.before, turn.programs, layout=layout, lang=lang),
                    ),
                    (
                        f"{name}-after",
                        render_svg(turn.result.state, before=turn.before, layout=layout, lang=lang),
                    ),
                ]
    # two robots: six face-down dumps in a row, their label at the picture's left edge
    for lang, layout in itertools.product(LANGUAGES, LAYOUTS):
        drawings.append(
            (
                f"two-robots-1-{layout}-{lang}-before",
                render_svg(setup_game([1, 2], seed=1), layout=layout, lang=lang),
            )
        )
    return drawings


DRAWN = translated_drawings()
ENGLISH = {name: svg for name, svg in DRAWN if "-en-" in name}
TRANSLATED = [(name, svg) for name, svg in DRAWN if "-en-" not in name]


@pytest.mark.parametrize(("name", "svg"), TRANSLATED, ids=[name for name, _ in TRANSLATED])
def test_a_picture_in_each_language_keeps_its_words_in_their_boxes_and_off_the_arrows(
    name: str, svg: str
) -> None:
    """Differential: the same table in English is the reference for what its arrows may
    overlap (a Super Trap's arrows cannot all miss the dumps); the words of every box fit."""
    if name.endswith("-en-before") or name.endswith("-en-after"):
        return
    english = ENGLISH[name.replace("-it-", "-en-").replace("-fr-", "-en-")]
    assert text_overflows(svg) == []
    assert texts_outside(svg) == []
    assert len(overlaps(svg)) <= len(overlaps(english))
    assert len(outside(svg)) <= len(outside(english))
    assert min(text_sizes(svg)) >= MIN_FONT_SIZE


@pytest.mark.parametrize(("name", "svg"), SHIPPED, ids=[name for name, _ in SHIPPED])
def test_the_words_of_a_shipped_drawing_stay_in_their_boxes(name: str, svg: str) -> None:
    assert text_overflows(svg) == []
    assert texts_outside(svg) == []


@pytest.mark.parametrize(("layout", "lang"), itertools.product(LAYOUTS, LANGUAGES))
def test_a_circuit_of_fourteen_gears_keeps_its_name_off_its_gears(layout: str, lang: str) -> None:
    """Two-digit counts: "circuit 14" in English ran 2 px over the first gear."""
    state = from_position(
        robots={
            1: {"circuit": gears(*[1] * 7, *[3] * 7), "feet": gears(*[2] * 11)},
            2: {},
        },
        dumps={1: (), 2: gears(3)},
        reserve=gears(4),
    )
    svg = render_svg(state, layout=layout, lang=lang)  # type: ignore[arg-type]
    assert "14" in svg  # the count written beside the place's name
    assert text_overflows(svg) == []
    assert texts_outside(svg) == []


def test_the_text_measure_sees_a_line_past_its_box_and_a_label_over_a_gear() -> None:
    box = (
        '<g class="robot" id="robot-1"><rect x="0" y="0" width="100" height="60"/>'
        '<text x="8" y="18" class="name">{}</text>'
        '<g><circle cx="60" cy="40" r="10"/></g><text x="8" y="44">{}</text></g>'
    )
    svg = '<svg xmlns="http://www.w3.org/2000/svg" font-size="13">{}</svg>'
    assert text_overflows(svg.format(box.format("Robot 1", "feet 1"))) == []
    assert text_overflows(svg.format(box.format("Robot 1 · arancione", "circuito 12"))) == [
        "'Robot 1 · arancione' runs past the edge of robot-1",
        "'circuito 12' runs over a gear of robot-1",
    ]


#: The English words of a picture's labels, legend and description that neither Italian nor
#: French writes ("circuit" is the French rulebook's own word, and checked in Italian only).
PICTURE_ENGLISH = (
    "feet",
    "dump",
    "reserve",
    "gear",
    "gears",
    "plays",
    "holds",
    "moved",
    "turn",
    "none",
    "before",
    "after",
    "legend",
    "attack",
    "harvest",
    "trap",
    "red",
    "yellow",
    "green",
    "blue",
)


def english_words_of(svg: str) -> set[str]:
    root = parse(svg)
    words = " ".join([*texts(root), *group_titles(root), root.findtext(f"{SVG}desc") or ""])
    words = words.replace("Out of Gears", "")  # the game's name, in French too
    return set(re.findall(r"[a-z]+", words.lower()))


@pytest.mark.parametrize("lang", ["it", "fr"])
def test_a_picture_in_italian_or_french_holds_no_english_label_word(lang: str) -> None:
    state = crowded_table()
    plays = {
        1: Program.parse("attack 2"),
        2: Program.parse("trap 3"),
        3: Program.parse("harvest 1"),
    }
    after = from_position(
        robots={1: {"feet": gears(1)}, 2: {}, 3: {}}, dumps={1: (), 2: (), 3: ()}, reserve=()
    )
    english = set(PICTURE_ENGLISH) | ({"circuit"} if lang == "it" else set())
    for layout in LAYOUTS:
        for svg in (
            render_svg(state, plays, layout=layout),
            render_svg(after, before=state, layout=layout),
        ):
            assert english_words_of(svg) & english  # the check sees the English
        for svg in (
            render_svg(state, plays, layout=layout, lang=lang),
            render_svg(after, before=state, layout=layout, lang=lang),
        ):
            assert not english_words_of(svg) & english, layout
    description = describe_position(state, plays, lang=lang)
    assert description.startswith({"it": "Prima del turno 1.", "fr": "Avant le tour 1."}[lang])
    assert not set(re.findall(r"[a-z]+", description.lower())) & english


@pytest.mark.parametrize("lang", ["de", "EN", "", None])
def test_a_language_the_pictures_do_not_speak_is_refused(lang: Any) -> None:
    state = crowded_table()
    with pytest.raises(ArgumentTypeError, match="lang must be en or it or fr"):
        render_svg(state, lang=lang)
    with pytest.raises(ArgumentTypeError, match="lang must be en or it or fr"):
        describe_position(state, lang=lang)
