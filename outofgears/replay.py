"""Replaying a game log under the rules, and finding where the table departed from them.

:func:`replay_log` builds the starting state of a log, plays every turn with
the engine and compares what the players recorded with what the rules give.
An illegal program, a turn after the end, or a header that does not hang
together makes the log invalid (:class:`~outofgears.log.LogError`); a recorded
value or a choice that the rules do not give is a :class:`Departure`.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from outofgears import SPEC_VERSION
from outofgears.choices import Choices
from outofgears.errors import (
    GameOverError,
    IllegalChoiceError,
    IllegalProgramError,
    InvalidStateError,
)
from outofgears.events import Event, GearMoved
from outofgears.gears import Gear, describe_gears, sort_gears
from outofgears.log import GameLog, LogError, Recorded, TurnRecord
from outofgears.model import GameState, Place
from outofgears.programs import AnyProgram
from outofgears.scoring import player_scores
from outofgears.setup import from_position, setup_game, setup_two_robot_game
from outofgears.turn import TurnResult, resolve_turn


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
    """

    turn: int
    json_path: str
    what: str
    recorded: str
    expected: str
    robot: int | None = None
    clause: str | None = None
    events: tuple[Event, ...] = ()

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
        assert position is not None  # the schema demands one of the two
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
    except InvalidStateError as error:
        where = "$.start" if log.start.seed is not None else "$.start.position"
        raise LogError(source, where, str(error)) from None


def check_header(log: GameLog, source: str) -> None:
    """The header hangs together: robots once each; the variant flag matches the players."""
    robots = [r for numbers in log.players.values() for r in numbers]
    if len(set(robots)) != len(robots):
        raise LogError(source, "$.players", f"a robot is controlled twice: {sorted(robots)}")
    two = {len(numbers) for numbers in log.players.values()}
    if two == {1, 2}:
        raise LogError(source, "$.players", "either every player has one robot or every one two")
    if log.two_robot_variant is not None and log.two_robot_variant != (two == {2}):
        raise LogError(
            source,
            "$.two_robot_variant",
            f"says {str(log.two_robot_variant).lower()}, but the players control "
            f"{'two robots' if two == {2} else 'one robot'} each",
        )
    position = log.start.position
    if position is not None:
        for name, place in (("robots", position.robots), ("dumps", position.dumps)):
            if sorted(place) != sorted(robots):
                raise LogError(
                    source,
                    f"$.start.position.{name}",
                    f"must name exactly the robots in play {sorted(robots)}, not {sorted(place)}",
                )


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


def spec_notes(log: GameLog) -> tuple[str, ...]:
    """Notes on a log written under another version of the specification."""
    if log.written_by is not None and log.written_by.spec != SPEC_VERSION:
        return (
            f"this log was written under spec version {log.written_by.spec}; "
            f"it is replayed under spec version {SPEC_VERSION}",
        )
    return ()


def replay_turn(
    state: GameState,
    record: TurnRecord,
    index: int,
    source: str = "<log>",
    *,
    programs: dict[int, AnyProgram] | None = None,
) -> TurnReplay:
    """Replay one turn of a log from ``state`` (``programs`` replaces the log's, for what-ifs)."""
    path = f"$.turns[{index}]"
    if record.turn != state.turn:
        raise LogError(
            source,
            f"{path}.turn",
            f"expected turn {state.turn}, the log says {record.turn}",
            turn=record.turn,
        )
    laid = dict(record.programs) if programs is None else programs
    choices = record.choices.to_choices() if record.choices else Choices()
    departures: list[Departure] = []
    try:
        try:
            result = resolve_turn(state, laid, choices=choices)
        except IllegalChoiceError as error:
            departures.append(choice_departure(record, index, error))
            choices = Choices()
            result = resolve_turn(state, laid, choices=choices)
    except IllegalProgramError as error:
        where = f"{path}.programs.{error.robot}" if error.robot in laid else f"{path}.programs"
        raise LogError(
            source, where, str(error), turn=record.turn, robot=error.robot, clause=error.clause
        ) from None
    except GameOverError as error:
        raise LogError(
            source, path, "the game was already over", turn=record.turn, clause=error.clause
        ) from None
    if record.recorded is not None:
        departures += compare_recorded(record.recorded, result, record.turn, path, source)
    return TurnReplay(record, index, state, laid, choices, result, tuple(departures))


def choice_departure(record: TurnRecord, index: int, error: IllegalChoiceError) -> Departure:
    """A chosen gear, assembly or split that the rules do not allow, as a departure."""
    return Departure(
        turn=record.turn,
        json_path=f"$.turns[{index}].choices",
        what=f"robot {error.robot}'s choice" if error.robot is not None else "a choice",
        recorded=error.reason,
        expected="a choice the rules allow; the turn is replayed with the default policies",
        robot=error.robot,
        clause=error.clause,
    )


def compare_recorded(
    recorded: Recorded, result: TurnResult, turn: int, path: str, source: str
) -> list[Departure]:
    """Every recorded value that differs from the state the rules give after the turn."""
    state = result.state
    found: list[Departure] = []
    for robot, gears in sorted(recorded.robots.items()):
        if robot not in state.robot_numbers:
            raise LogError(
                source,
                f"{path}.recorded.robots.{robot}",
                f"robot {robot} is not in play",
                turn=turn,
                robot=robot,
            )
        actual = state.robot(robot)
        for where, told, real in (
            ("feet", gears.feet, actual.feet),
            ("circuit", gears.circuit, actual.circuit),
        ):
            if told is not None and sort_gears(told) != real:
                place = Place.feet(robot) if where == "feet" else Place.circuit(robot)
                found.append(
                    gear_departure(
                        turn,
                        f"{path}.recorded.robots.{robot}.{where}",
                        place,
                        told,
                        real,
                        result.events,
                        robot,
                    )
                )
    for dump, told in sorted(recorded.dumps.items()):
        if dump not in state.robot_numbers:
            raise LogError(
                source, f"{path}.recorded.dumps.{dump}", f"dump {dump} is not in play", turn=turn
            )
        real = state.dump(dump).gears
        if sort_gears(told) != real:
            found.append(
                gear_departure(
                    turn,
                    f"{path}.recorded.dumps.{dump}",
                    Place.dump(dump),
                    told,
                    real,
                    result.events,
                    None,
                )
            )
    scores = {score.player: score for score in player_scores(state)}
    for player, points in sorted(recorded.scores.items()):
        if player not in scores:
            raise LogError(
                source,
                f"{path}.recorded.scores.{player}",
                f"no player called {player!r}",
                turn=turn,
            )
        if points != scores[player].points:
            found.append(
                Departure(
                    turn=turn,
                    json_path=f"{path}.recorded.scores.{player}",
                    what=f"{player}'s score",
                    recorded=f"{points} points",
                    expected=f"{scores[player].points} points",
                    robot=scores[player].robot,
                    clause="END-2",
                )
            )
    return found


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
