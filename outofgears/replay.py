"""Replaying a game log under the rules, and finding where the table departed from them.

:func:`replay_log` builds the starting state of a log, plays every turn with
the engine and compares what the players recorded with what the rules give.
The log is invalid (:class:`~outofgears.log.LogError`, exit status 2 on the
command line) when it cannot describe a game at all: a header that does not hang
together, a start position that the box cannot hold, a turn out of sequence or
after the end, an illegal program (a missing one, one for a robot not in play,
an illegal card combination, an upgrade that is not held), a choice or a
recorded value naming a robot not in play, or recorded gears that the game does
not have. A recorded value or a post-reveal choice that the rules do not give,
among things that could have happened, is a :class:`Departure` (exit status 1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from attrs import frozen

from outofgears import SPEC_VERSION
from outofgears.choices import Choices
from outofgears.errors import (
    GameOverError,
    IllegalChoiceError,
    IllegalProgramError,
    InvalidStateError,
    SetupError,
)
from outofgears.events import Event, GearMoved, SplitResolved
from outofgears.gears import (
    EXPANSION_GEARS_PER_KIND,
    GEARS_PER_COLOUR,
    Gear,
    GearKind,
    describe_gears,
    sort_gears,
)
from outofgears.log import (
    ChoicesRecord,
    GameLog,
    LogError,
    PositionRecord,
    Recorded,
    TurnRecord,
    json_path,
)
from outofgears.model import GameState, Options, Place
from outofgears.programs import AnyProgram
from outofgears.resolution import resolve_with_choices
from outofgears.scoring import player_scores
from outofgears.setup import from_position, setup_game, setup_two_robot_game
from outofgears.turn import TurnResult


@frozen
class Departure:
    """A place where the log departs from the rules.

    Attributes:
        turn: The turn.
        json_path: Where in the log the departing value is.
        what: What was recorded or chosen, in words (``"robot 3 feet"``).
        recorded: What the log says, in words.
        expected: What the rules give, in words.
        robot: The robot concerned, if any.
        clause: The spec clause that decides it, if one does.
        events: The events of the turn that produced the value the rules give.
        reason: Why the rules refuse a recorded choice, if it is one.
    """

    turn: int
    json_path: str
    what: str
    recorded: str
    expected: str
    robot: int | None = None
    clause: str | None = None
    events: tuple[Event, ...] = ()
    reason: str | None = None

    def __str__(self) -> str:
        return (
            f"turn {self.turn}, {self.what} ({self.json_path}): recorded {self.recorded}; "
            f"the rules give {self.expected}"
        )


@frozen
class TurnReplay:
    """One replayed turn: the state before it, its programs and choices, and its result."""

    record: TurnRecord
    index: int
    before: GameState
    programs: dict[int, AnyProgram]
    choices: Choices
    result: TurnResult
    departures: tuple[Departure, ...]

    @property
    def turn(self) -> int:
        """The turn's number."""
        return self.before.turn


@frozen
class Replay:
    """A replayed log: the start, every turn, the final state, and what departs from the rules."""

    log: GameLog
    start: GameState
    turns: tuple[TurnReplay, ...]
    notes: tuple[str, ...]

    @property
    def final(self) -> GameState:
        """The state after the last turn of the log."""
        return self.turns[-1].result.state if self.turns else self.start

    @property
    def departures(self) -> tuple[Departure, ...]:
        """Every departure, in turn order."""
        return tuple(d for turn in self.turns for d in turn.departures)

    @property
    def agrees(self) -> bool:
        """Whether the log agrees with the rules throughout."""
        return not self.departures

    def turn(self, number: int) -> TurnReplay:
        """The replay of turn ``number``; ``KeyError`` if the log has no such turn."""
        for replayed in self.turns:
            if replayed.turn == number:
                return replayed
        raise KeyError(number)


def start_state(log: GameLog, source: str = "<log>") -> GameState:
    """The state a log starts from: a seeded setup or the position it gives.

    Raises:
        LogError: The header does not hang together, or the position cannot exist.

    >>> from outofgears.log import Start
    >>> start_state(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=1))).turn
    1
    """
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
            reserve=position.reserve,
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


def check_header(log: GameLog, source: str) -> None:
    """The header hangs together: robots once each; the variant flag matches the players.

    >>> from outofgears.log import Start
    >>> check_header(GameLog(players={"A": (1,), "B": (1,)}, start=Start(seed=1)), "x.json")
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: x.json: $.players.B[0] (robot 1): robot 1 is controlled by A already
    """
    owner: dict[int, str] = {}
    for name, numbers in log.players.items():
        for index, robot in enumerate(numbers):
            if robot in owner:
                raise LogError(
                    source,
                    json_path(["players", name, index]),
                    f"robot {robot} is controlled by {owner[robot]} already",
                    robot=robot,
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
        )
    position = log.start.position
    if position is not None:
        in_play = sorted(owner)
        for name, place in (("robots", position.robots), ("dumps", position.dumps)):
            for number in sorted(set(place) - set(in_play)):
                raise LogError(
                    source,
                    f"$.start.position.{name}.{number}",
                    f"robot {number} is not in play (robots in play: {in_play})",
                    robot=number,
                )
            for number in sorted(set(in_play) - set(place)):
                raise LogError(
                    source,
                    f"$.start.position.{name}.{number}",
                    f"robot {number} is in play, and the position must give its "
                    f"{'gears' if name == 'robots' else 'dump'}",
                    robot=number,
                )
        for name in position.upgrades:
            if name not in log.players:
                raise LogError(
                    source,
                    json_path(["start", "position", "upgrades", name]),
                    f"no player called {name!r}",
                )


def check_position(position: PositionRecord, options: Options, source: str) -> None:
    """The gears of a position fit in the box: at most 11 of a colour, Jolly and
    three-point gears only with their expansion, 4 of each (spec SET-5, JOL-1, TRI-1).

    The error names the first gear, in the order of the log, that the box cannot hold.
    """
    if position.upgrades and not options.upgrades:
        raise LogError(
            source,
            "$.start.position.upgrades",
            "players hold upgrade cards, but upgrades are not in play (options.upgrades)",
            clause="UPG-1",
        )
    seen: Counter[Gear] = Counter()
    places: list[tuple[list[str | int], Iterable[Gear], int | None]] = []
    for number, held in position.robots.items():
        for where, gears in (("feet", held.feet), ("circuit", held.circuit)):
            places.append((["robots", str(number), where], gears or (), number))
    places += [(["dumps", str(number)], pile, None) for number, pile in position.dumps.items()]
    places.append((["reserve"], position.reserve, None))
    for parts, pile, robot in places:
        for index, gear in enumerate(pile):
            seen[gear] += 1
            problem = _box_problem(gear, seen[gear], options)
            if problem is not None:
                raise LogError(
                    source,
                    json_path(["start", "position", *parts, index]),
                    problem,
                    robot=robot,
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


def replay_log(log: GameLog, source: str = "<log>") -> Replay:
    """Replay every turn of a log and compare it with what the players recorded.

    Raises:
        LogError: The log is invalid: a header that does not hang together, a
            turn out of sequence, an illegal program, a turn after the end.

    >>> from outofgears.log import Start, TurnRecord
    >>> from outofgears.programs import parse_program
    >>> log = GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=1),
    ...               turns=(TurnRecord(1, {1: parse_program("harvest 1"),
    ...                                     2: parse_program("harvest 2")}),))
    >>> replay = replay_log(log)
    >>> replay.agrees, replay.final.turn
    (True, 2)
    """
    start = state = start_state(log, source)
    notes = spec_notes(log)
    turns: list[TurnReplay] = []
    for index, record in enumerate(log.turns):
        replayed = replay_turn(state, record, index, source)
        turns.append(replayed)
        state = replayed.result.state
    return Replay(log, start, tuple(turns), notes)


#: The specification versions that changed what an absent post-reveal choice does, and how
#: (R-CHOICES): a log written before one of them may have relied on the former defaults.
CHANGED_DEFAULTS: tuple[tuple[tuple[int, int], str], ...] = (
    (
        (1, 2),
        "since spec version 1.2 the default choices break ties by the ring of seats "
        "(ruling R-SYMMETRY): a defence steal, an assembly, a split or a Super Attack's "
        "defenders left to the default may resolve differently",
    ),
)


def _version(text: str) -> tuple[int, int] | None:
    """``"1.1"`` as ``(1, 1)``; ``None`` for anything that is not major.minor."""
    major, dot, minor = text.partition(".")
    if not (dot and major.isdigit() and minor.isdigit()):
        return None
    return int(major), int(minor)


def spec_notes(log: GameLog) -> tuple[str, ...]:
    """Notes on a log written under another version of the specification.

    The first says so; then one for each later version that changed the default choices
    (:data:`CHANGED_DEFAULTS`), when the log's version is an older major.minor.

    >>> from outofgears.log import Start, WrittenBy
    >>> notes = spec_notes(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=1),
    ...                            written_by=WrittenBy("0.1.0", "1.1")))
    >>> notes[0]
    'this log was written under spec version 1.1; it is replayed under spec version 1.2'
    >>> notes[1].startswith("since spec version 1.2 the default choices")
    True
    """
    if log.written_by is None or log.written_by.spec == SPEC_VERSION:
        return ()
    written = log.written_by.spec
    notes = [
        f"this log was written under spec version {written}; it is replayed under spec version {SPEC_VERSION}"
    ]
    then, now = _version(written), _version(SPEC_VERSION)
    if then is not None and now is not None:
        notes += [note for version, note in CHANGED_DEFAULTS if then < version <= now]
    return tuple(notes)


def replay_turn(
    state: GameState,
    record: TurnRecord,
    index: int,
    source: str = "<log>",
) -> TurnReplay:
    """Replay one turn of a log from ``state``.

    Raises:
        LogError: The turn is invalid: after the end of the game, out of
            sequence, an illegal program, a choice or a recorded value naming a
            robot not in play, recorded gears the game does not have.
    """
    path = f"$.turns[{index}]"
    if state.game_over:
        raise LogError(
            source,
            path,
            f"the game ended with turn {state.turn - 1}; no turn is played after the end (PRG-5)",
            turn=record.turn,
            clause="PRG-5",
        )
    if record.turn != state.turn:
        raise LogError(
            source,
            f"{path}.turn",
            f"turns out of sequence: turn {state.turn} comes next, the log says {record.turn}",
            turn=record.turn,
        )
    laid = dict(record.programs)
    if record.choices is not None:
        check_choices_in_play(record.choices, state, record.turn, path, source)
    choices = record.choices.to_choices() if record.choices else Choices()
    departures: list[Departure] = []
    try:
        # A refused choice is a departure; the turn goes on with the table's other
        # choices and the default policy for the refused one (ruling R-CHOICES).
        resolution = resolve_with_choices(state, laid, choices)
        result, choices = resolution.result, resolution.choices
        departures += [
            choice_departure(record, index, error, result) for error in resolution.refused
        ]
    except IllegalProgramError as error:
        raise LogError(
            source,
            f"{path}.programs.{error.robot}",
            f"{error.reason} ({error.clause})",
            turn=record.turn,
            robot=error.robot,
            clause=error.clause,
        ) from None
    except GameOverError as error:  # pragma: no cover - checked above
        raise LogError(
            source, path, "the game was already over", turn=record.turn, clause=error.clause
        ) from None
    except InvalidStateError as error:
        raise LogError(source, path, str(error), turn=record.turn) from None
    if record.recorded is not None:
        departures += compare_recorded(record.recorded, result, record.turn, path, source)
    return TurnReplay(record, index, state, laid, choices, result, tuple(departures))


def check_choices_in_play(
    choices: ChoicesRecord, state: GameState, turn: int, path: str, source: str
) -> None:
    """Every robot, dump and robot's feet that a turn's choices name is in play.

    A choice naming a robot that is not in play does not describe this game:
    the log is invalid, where a choice the rules refuse is a departure.
    """
    in_play = set(state.robot_numbers)

    def refuse(where: str, robot: int, what: str = "robot") -> None:
        raise LogError(
            source,
            f"{path}.choices.{where}",
            f"{what} {robot} is not in play (robots in play: {sorted(in_play)})",
            turn=turn,
            robot=robot if what == "robot" else None,
        )

    for i, steal in enumerate(choices.defence_steals):
        for key in ("defender", "attacker"):
            robot = getattr(steal, key)
            if robot not in in_play:
                refuse(f"defence_steals[{i}].{key}", robot)
    for robot in sorted(choices.assemblies):
        if robot not in in_play:
            refuse(f"assemblies.{robot}", robot)
    for i, split in enumerate(choices.splits):
        if split.place.number not in in_play:
            what = "dump" if str(split.place).startswith("dump") else "robot"
            refuse(f"splits[{i}].place", split.place.number, what)
        for robot in sorted(split.shares):
            if robot not in in_play:
                refuse(f"splits[{i}].shares.{robot}", robot)


_CHOICE_KINDS = {"ATK": "defence steal", "SAT": "defence steal", "ASM": "assembly", "SPL": "split"}


def choice_departure(
    record: TurnRecord, index: int, error: IllegalChoiceError, result: TurnResult | None = None
) -> Departure:
    """A chosen gear, assembly or split that the rules do not allow, as a departure.

    ``result`` is the turn replayed with the default policies; the departure
    shows what they give the robot.
    """
    robot = error.robot
    kind = _CHOICE_KINDS.get(error.clause[:3], "choice")
    where, told = _recorded_choice(record, index, kind, robot)
    events = _choice_events(result.events if result else (), kind, robot)
    moves = [event for event in events if isinstance(event, GearMoved)]
    given = ", ".join(f"{move.gear} from {move.source}" for move in moves) or "nothing"
    return Departure(
        turn=record.turn,
        json_path=where,
        what=f"robot {robot}'s {kind}" if robot is not None else f"a {kind}",
        recorded=told,
        expected=f"a choice the rules allow; by the default policy, {given}",
        robot=robot,
        clause=error.clause,
        events=events,
        reason=f"{error.reason} ({error.clause})",
    )


def _recorded_choice(
    record: TurnRecord, index: int, kind: str, robot: int | None
) -> tuple[str, str]:
    base = f"$.turns[{index}].choices"
    choices = record.choices
    if choices is not None and kind == "defence steal":
        for i, steal in enumerate(choices.defence_steals):
            if steal.defender == robot:
                return (
                    f"{base}.defence_steals[{i}]",
                    f"{steal.gear} from robot {steal.attacker}'s {steal.source}",
                )
    if choices is not None and kind == "assembly" and robot in choices.assemblies:
        assert robot is not None
        return f"{base}.assemblies.{robot}", describe_gears(choices.assemblies[robot])
    if choices is not None and kind == "split":
        for i, split in enumerate(choices.splits):
            if robot is None or robot in split.shares or split.place.number == robot:
                shares = "; ".join(
                    f"robot {r}: {describe_gears(g)}" for r, g in sorted(split.shares.items())
                )
                return f"{base}.splits[{i}]", f"{split.place} split as {shares}"
    return base, "a choice"


def _choice_events(events: Sequence[Event], kind: str, robot: int | None) -> tuple[Event, ...]:
    if kind == "defence steal":
        return tuple(
            e
            for e in events
            if isinstance(e, GearMoved) and e.robot == robot and e.clause in ("ATK-4", "SATK-2")
        )
    if kind == "assembly":
        return tuple(
            e
            for e in events
            if isinstance(e, GearMoved) and e.robot == robot and e.clause.startswith("ASM")
        )
    if kind == "split":
        places = {e.place for e in events if isinstance(e, SplitResolved) and robot in e.takers}
        return tuple(
            e
            for e in events
            if (isinstance(e, SplitResolved) and e.place in places)
            or (isinstance(e, GearMoved) and e.source in places and e.robot == robot)
        )
    return ()


def compare_recorded(
    recorded: Recorded, result: TurnResult, turn: int, path: str, source: str
) -> list[Departure]:
    """Every recorded value that differs from the state the rules give after the turn.

    Raises:
        LogError: A recorded robot, dump or player that is not in the game, or
            recorded gears that the game does not have (more of a kind than
            all its places hold together).
    """
    state = result.state
    supply = Counter(state.all_gears())
    found: list[Departure] = []
    for robot, gears in sorted(recorded.robots.items()):
        if robot not in state.robot_numbers:
            raise LogError(
                source,
                f"{path}.recorded.robots.{robot}",
                f"robot {robot} is not in play (robots in play: {list(state.robot_numbers)})",
                turn=turn,
                robot=robot,
            )
        actual = state.robot(robot)
        for where, told, real in (
            ("feet", gears.feet, actual.feet),
            ("circuit", gears.circuit, actual.circuit),
        ):
            if told is None:
                continue
            at = f"{path}.recorded.robots.{robot}.{where}"
            check_gears_exist(told, supply, at, turn, robot, source)
            if sort_gears(told) != real:
                place = Place.feet(robot) if where == "feet" else Place.circuit(robot)
                found.append(gear_departure(turn, at, place, told, real, result.events, robot))
    for dump, told in sorted(recorded.dumps.items()):
        if dump not in state.robot_numbers:
            raise LogError(
                source,
                f"{path}.recorded.dumps.{dump}",
                f"dump {dump} is not in play (dumps in play: {list(state.robot_numbers)})",
                turn=turn,
            )
        at = f"{path}.recorded.dumps.{dump}"
        check_gears_exist(told, supply, at, turn, None, source)
        real = state.dump(dump).gears
        if sort_gears(told) != real:
            found.append(
                gear_departure(turn, at, Place.dump(dump), told, real, result.events, None)
            )
    scores = {score.player: score for score in player_scores(state)}
    for player, points in sorted(recorded.scores.items()):
        at = path + json_path(["recorded", "scores", player])[1:]
        if player not in scores:
            raise LogError(source, at, f"no player called {player!r}", turn=turn)
        if points != scores[player].points:
            found.append(
                Departure(
                    turn=turn,
                    json_path=at,
                    what=f"{player}'s score",
                    recorded=f"{points} points",
                    expected=f"{scores[player].points} points",
                    robot=scores[player].robot,
                    clause="END-2",
                )
            )
    return found


def check_gears_exist(
    told: Sequence[Gear],
    supply: Counter[Gear],
    at: str,
    turn: int,
    robot: int | None,
    source: str,
) -> None:
    """Recorded gears that the game has: a kind it has none of, or more of a kind than it has,
    cannot be at one place (gears are never created or destroyed in play).

    >>> from outofgears.gears import gears
    >>> check_gears_exist(gears(6), Counter(gears(1, 2)), "$.x", 1, None, "x.json")
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: x.json: $.x[0] (turn 1): there are no purple gears in this game
    """
    counts = Counter(told)
    for index, gear in enumerate(told):
        if supply[gear] == 0:
            raise LogError(
                source,
                f"{at}[{index}]",
                f"there are no {gear} gears in this game",
                turn=turn,
                robot=robot,
            )
        if counts[gear] > supply[gear]:
            raise LogError(
                source,
                at,
                f"{counts[gear]} {gear} gears are recorded here; the game has {supply[gear]}",
                turn=turn,
                robot=robot,
            )


def gear_departure(
    turn: int,
    json_path: str,
    place: Place,
    told: Sequence[Gear],
    real: Sequence[Gear],
    events: Sequence[Event],
    robot: int | None,
) -> Departure:
    """A recorded set of gears that differs from the rules', with the moves that made it."""
    moves = tuple(
        event
        for event in events
        if isinstance(event, GearMoved) and place in (event.source, event.destination)
    )
    return Departure(
        turn=turn,
        json_path=json_path,
        what=str(place),
        recorded=describe_gears(told),
        expected=describe_gears(real),
        robot=robot,
        clause=moves[-1].clause if moves else None,
        events=moves,
    )
