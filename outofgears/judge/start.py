"""The start of a log, checked before any turn is replayed: the header (robots, players, options,
seed), a typed-in position against the box, and the spec version the log was written under.

:func:`start_state` gives the position the first turn is played from."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, Final

from attrs import frozen

from outofgears._version import SPEC_VERSION
from outofgears.errors import (
    InvalidStateError,
    SetupError,
    expect,
)
from outofgears.log import (
    GameLog,
    LogError,
    PositionRecord,
    json_path,
    structure_log,
)
from outofgears.rules.gears import (
    EXPANSION_GEARS_PER_KIND,
    GEARS_PER_COLOUR,
    Gear,
    GearKind,
)
from outofgears.rules.model import GameState, Options, check_upgrade_holders
from outofgears.rules.setup import from_position, setup_game, setup_two_robot_game
from outofgears.words.findings import TieBreaksByRing, WrittenUnderSpec, fact_text


def start_state(log: GameLog, source: str = "<log>") -> GameState:
    """The state a log starts from: a seeded setup or the position it gives.

    Raises:
        LogError: The header does not hang together, or the position cannot exist.

    >>> from outofgears.log import Start
    >>> start_state(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=1))).turn
    1
    """
    expect(log, GameLog, "log", "a GameLog")
    check_header(log, source)
    try:
        if log.start.seed is not None:
            two = any(len(robots) == 2 for robots in log.players.values())
            if two:
                return setup_two_robot_game(log.players, seed=log.start.seed, options=log.options)
            names = sorted(log.players, key=lambda name: log.players[name][0])
            robots = [log.players[name][0] for name in names]
            return setup_game(robots, seed=log.start.seed, players=names, options=log.options)
        position = log.start.position
        assert position is not None  # a Start holds exactly one of the two
        check_position(position, log.options, source)
        return from_position(
            robots={
                n: {"feet": g.feet or (), "circuit": g.circuit or ()}
                for n, g in position.robots.items()
            },
            dumps=position.dumps,
            reserve=position.reserve_gears,
            players=log.players,
            turn=position.turn,
            options=log.options,
            upgrades=position.upgrades,
        )
    except SetupError as error:
        where = _SETUP_PATHS.get(error.clause, "$.start")
        raise LogError(source, where, str(error), clause=error.clause) from None
    except InvalidStateError as error:
        where = "$.start" if log.start.seed is not None else "$.start.position"
        raise LogError(source, where, str(error)) from None


#: Where in a log the header breaks a setup clause.
_SETUP_PATHS = {
    "SET-1": "$.players",
    "VAR-1": "$.players",
    "UPG-1": "$.options.upgrade_deck",
    "REF-2": "$.options.pad_reserve",
}


#: The clause a field of a log's header or start belongs to, first match first: a field of the
#: wrong form is refused citing it (spec GEN-2 item 1). A field not listed cites none.
FIELD_CLAUSES: Final = tuple(
    (re.compile(pattern), clause)
    for pattern, clause in (
        (r"\$\.players\b", "SET-1"),
        (r"\$\.two_robot_variant\b", "VAR-1"),
        (r"\$\.options\.(upgrades|upgrade_deck)\b", "UPG-1"),
        (r"\$\.options\.pad_reserve\b", "REF-2"),
        (r"\$\.options\.jolly_gears\b", "JOL-1"),
        (r"\$\.options\.three_point_gears\b", "TRI-1"),
        (r"\$\.options\.defence_steal_source\b", "ATK-4"),
        (r"\$\.options\.assembly\b", "ASM-1"),
        (r"\$\.start\.seed\b", "SET-3"),
        (r"\$\.start\.position\.turn\b", "SET-5"),
        (r"\$\.start\.position\.robots\.[1-8]\.(feet|circuit)\[\d+\]$", "GEN-1"),
        (r"\$\.start\.position\.robots\b", "SET-5"),
        (r"\$\.start\.position\.dumps\.[1-8]\[\d+\]$", "GEN-1"),
        (r"\$\.start\.position\.dumps\b", "SET-2"),
        (r"\$\.start\.position\.reserve\[\d+\]$", "GEN-1"),
        (r"\$\.start\.position\.reserve\b", "SET-5"),
        (r"\$\.start\.position\.upgrades\b", "UPG-1"),
    )
)

_ROBOT_ENTRY: Final = re.compile(r"\$\.start\.position\.robots\.([1-8])\b")


def field_clause(path: str) -> str | None:
    """The clause a field of the wrong form cites, by its JSON path (:data:`FIELD_CLAUSES`).

    >>> field_clause("$.start.position.dumps.2[0]"), field_clause("$.format")
    ('GEN-1', None)
    """
    expect(path, str, "path", "a str")
    return next((clause for pattern, clause in FIELD_CLAUSES if pattern.match(path)), None)


def structure_start(data: Any, source: str = "<log>") -> GameLog:
    """:func:`~outofgears.log.structure_log`, its refusal citing the clause of the field
    (:func:`field_clause`) and naming a robot only within that robot's entry of the position
    (spec GEN-2 item 1).

    >>> try:
    ...     structure_start({"format": "outofgears-log/1", "players": {"A": [1], "B": [9]},
    ...                      "start": {"seed": 1}, "turns": []})
    ... except LogError as error:
    ...     print(error.json_path, error.clause, error.robot)
    $.players.B[0] SET-1 None
    """
    try:
        return structure_log(data, source)
    except LogError as error:
        robot = _ROBOT_ENTRY.match(error.json_path)
        raise LogError(
            source,
            error.json_path,
            error.reason,
            turn=error.turn,
            robot=int(robot.group(1)) if robot else None,
            clause=error.clause or field_clause(error.json_path),
        ) from None


def check_header(log: GameLog, source: str) -> None:
    """The header hangs together: robots once each; the variant flag matches the players.

    >>> from outofgears.log import Start
    >>> check_header(GameLog(players={"A": (1,), "B": (1,)}, start=Start(seed=1)), "x.json")
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: x.json: $.players.B[0]: robot 1 is controlled by A already
    """
    expect(log, GameLog, "log", "a GameLog")
    owner: dict[int, str] = {}
    for name, numbers in log.players.items():
        for index, robot in enumerate(numbers):
            if robot in owner:
                raise LogError(
                    source,
                    json_path(["players", name, index]),
                    f"robot {robot} is controlled by {owner[robot]} already",
                    clause="SET-1",
                )
            owner[robot] = name
    sizes = [len(numbers) for numbers in log.players.values()]
    if len(set(sizes)) > 1:
        name = list(log.players)[sizes.index(sizes[0] ^ 3)]
        raise LogError(
            source,
            json_path(["players", name]),
            "either every player controls one robot or every player two (VAR-1)",
            clause="VAR-1",
        )
    two = sizes[0] == 2
    if log.two_robot_variant is not None and log.two_robot_variant != two:
        raise LogError(
            source,
            "$.two_robot_variant",
            f"says {str(log.two_robot_variant).lower()}, but the players control "
            f"{'two robots' if two else 'one robot'} each",
            clause="VAR-1",
        )
    position = log.start.position
    if position is not None:
        in_play = sorted(owner)
        for name, place, clause in (
            ("robots", position.robots, "SET-5"),
            ("dumps", position.dumps, "SET-2"),
        ):
            for number in sorted(set(place) - set(in_play)):
                raise LogError(
                    source,
                    f"$.start.position.{name}.{number}",
                    f"robot {number} is not in play (robots in play: {in_play})",
                    clause=clause,
                )
            for number in sorted(set(in_play) - set(place)):
                raise LogError(
                    source,
                    f"$.start.position.{name}.{number}",
                    f"robot {number} is in play, and the position must give its "
                    f"{'gears' if name == 'robots' else 'dump'}",
                    clause=clause,
                )
        for name in position.upgrades:
            if name not in log.players:
                raise LogError(
                    source,
                    json_path(["start", "position", "upgrades", name]),
                    f"no player called {name!r}",
                    clause="UPG-1",
                )


def check_position(position: PositionRecord, options: Options, source: str) -> None:
    """The gears of a position fit in the box: at most 11 of a colour, Jolly and
    three-point gears only with their expansion, 4 of each (spec SET-5, JOL-1, TRI-1).

    The error names the first gear, in the order of the log, that the box cannot hold.
    """
    expect(position, PositionRecord, "position", "a PositionRecord")
    expect(options, Options, "options", "an Options")
    if position.upgrades and not options.upgrades:
        raise LogError(
            source,
            "$.start.position.upgrades",
            "players hold upgrade cards, but upgrades are not in play (options.upgrades)",
            clause="UPG-1",
        )
    try:
        check_upgrade_holders(position.upgrades.values(), options)
    except InvalidStateError as error:
        raise LogError(source, "$.start.position.upgrades", str(error), clause="UPG-1") from None
    places: list[BoxPlace] = []
    for number, held in position.robots.items():
        for where, gears in (("feet", held.feet), ("circuit", held.circuit)):
            places.append(BoxPlace(["robots", str(number), where], gears or (), number))
    places += [BoxPlace(["dumps", str(number)], pile) for number, pile in position.dumps.items()]
    if isinstance(position.reserve, dict):
        # Counts: a gear the box cannot hold is named by its key, not by an index.
        places += [
            BoxPlace(["reserve", str(g)], [g] * n, indexed=False)
            for g, n in position.reserve.items()
        ]
    else:
        places.append(BoxPlace(["reserve"], position.reserve))
    check_box(places, options, source, ["start", "position"])


@frozen
class BoxPlace:
    """A place of a position as a log writes it, for :func:`check_box`: where it is in the log
    (``parts``, under a prefix), its gears, the robot it belongs to, and whether a gear of it is
    named by its index in the list."""

    parts: list[str | int]
    gears: Iterable[Gear]
    robot: int | None = None
    indexed: bool = True


def check_box(
    places: Iterable[BoxPlace],
    options: Options,
    source: str,
    prefix: list[str | int],
    *,
    turn: int | None = None,
    why: str = "",
) -> None:
    """The gears of a position's places fit in the box: at most 11 of a colour, Jolly and
    three-point gears only with their expansion, 4 of each (spec SET-5, JOL-1, TRI-1).

    The error names the first gear, in the order of ``places``, that the box cannot hold, at
    its path under ``prefix``; ``why`` opens its reason.
    """
    seen: Counter[Gear] = Counter()
    for place in places:
        for index, gear in enumerate(place.gears):
            seen[gear] += 1
            problem = _box_problem(gear, seen[gear], options)
            if problem is not None:
                at = [*place.parts, index] if place.indexed else place.parts
                raise LogError(
                    source,
                    json_path([*prefix, *at]),
                    why + problem,
                    turn=turn,
                    robot=place.robot,
                    clause=_GEAR_CLAUSES[gear.kind],
                )


_GEAR_CLAUSES = {GearKind.STANDARD: "SET-5", GearKind.JOLLY: "JOL-1", GearKind.THREE_POINT: "TRI-1"}


def _box_problem(gear: Gear, count: int, options: Options) -> str | None:
    if gear.kind is GearKind.STANDARD:
        if count > GEARS_PER_COLOUR:
            return f"this is {gear} gear number {count}; the box has {GEARS_PER_COLOUR} of a colour"
        return None
    switch = "jolly_gears" if gear.kind is GearKind.JOLLY else "three_point_gears"
    if not getattr(options, switch):
        return f"{gear} gears are not in play (options.{switch} is not true)"
    if count > EXPANSION_GEARS_PER_KIND:
        return f"this is {gear} gear number {count}; the expansion has {EXPANSION_GEARS_PER_KIND}"
    return None


#: The specification versions that changed what an absent post-reveal choice does, and how
#: (R-CHOICES): a log written before one of them may have relied on the former defaults.
CHANGED_DEFAULTS: tuple[tuple[tuple[int, int], TieBreaksByRing], ...] = (
    ((1, 2), TieBreaksByRing("1.2")),
)


def _version(text: str) -> tuple[int, int] | None:
    """``"1.1"`` as ``(1, 1)``; ``None`` for anything that is not major.minor in ASCII digits
    (``str.isdigit`` is true of ``"²"``, which ``int`` refuses, and of ``"٣"``, which it reads)."""
    major, dot, minor = text.partition(".")
    if not (dot and text.isascii() and major.isdigit() and minor.isdigit()):
        return None
    return int(major), int(minor)


def spec_note_facts(log: GameLog) -> tuple[WrittenUnderSpec | TieBreaksByRing, ...]:
    """Notes on a log written under another version of the specification, as facts
    (:mod:`outofgears.words.findings` says them in English, Italian or French).

    The first says so; then one for each later version that changed the default choices
    (:data:`CHANGED_DEFAULTS`), when the log's version is an older major.minor.
    """
    expect(log, GameLog, "log", "a GameLog")
    if log.written_by is None or log.written_by.spec == SPEC_VERSION:
        return ()
    written = log.written_by.spec
    notes: list[WrittenUnderSpec | TieBreaksByRing] = [WrittenUnderSpec(written, SPEC_VERSION)]
    then, now = _version(written), _version(SPEC_VERSION)
    if then is not None and now is not None:
        notes += [note for version, note in CHANGED_DEFAULTS if then < version <= now]
    return tuple(notes)


def spec_notes(log: GameLog) -> tuple[str, ...]:
    """:func:`spec_note_facts` in English.

    >>> from outofgears.log import Start, WrittenBy
    >>> notes = spec_notes(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=1),
    ...                            written_by=WrittenBy("0.1.0", "1.1")))
    >>> notes[0]
    'this log was written under spec version 1.1; it is replayed under spec version 1.4'
    >>> notes[1].startswith("since spec version 1.2 the default choices")
    True
    """
    return tuple(fact_text(note, "en") for note in spec_note_facts(log))


#: The public names of this module (the rest serves them).
__all__ = [
    "CHANGED_DEFAULTS",
    "FIELD_CLAUSES",
    "check_header",
    "check_position",
    "field_clause",
    "spec_note_facts",
    "spec_notes",
    "start_state",
    "structure_start",
]
