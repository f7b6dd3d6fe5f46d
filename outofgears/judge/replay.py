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
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from attrs import frozen

from outofgears.errors import (
    ArgumentTypeError,
    GameOverError,
    IllegalChoiceError,
    IllegalProgramError,
    InvalidStateError,
)
from outofgears.judge.culprit import Culprit, cite_culprits, target_of
from outofgears.judge.inference import (
    POSITION_LIMIT,
    Branches,
    Closest,
    Reproduction,
    Target,
    TooManyWaysError,
    closest,
    position_key,
    reproduce,
    same_decision,
)
from outofgears.judge.resolution import resolve_with_choices
from outofgears.judge.start import spec_notes, start_state
from outofgears.log import (
    ChoicesRecord,
    GameLog,
    LogError,
    Recorded,
    TurnRecord,
    json_path,
)
from outofgears.rules.choices import NO_CHOICES, Choices
from outofgears.rules.events import Event, GearMoved, SplitResolved
from outofgears.rules.exploration import dumps_explored
from outofgears.rules.gears import (
    Gear,
    GearKind,
    counted,
    describe_gears,
    gear_key,
    points_text,
    sort_gears,
)
from outofgears.rules.legal import as_choices
from outofgears.rules.model import GameState, Place, Robot
from outofgears.rules.programs import AnyProgram
from outofgears.rules.scoring import player_scores, score_robot
from outofgears.rules.sharing import own_colour_quota
from outofgears.rules.turn import TurnResult


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
        allowed: What the legal choices of the turn allowed instead, when no legal play
            gives the recorded value.
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
    allowed: str | None = None

    def __str__(self) -> str:
        return (
            f"turn {self.turn}, {self.what} ({self.json_path}): recorded {self.recorded}; "
            f"the rules give {self.expected}"
        )


@frozen
class InferredChoice:
    """A decision the log did not give, inferred from what the players recorded.

    Attributes:
        turn: The turn.
        kind: ``"assembly"``, ``"split"`` or ``"defence steal"``.
        robot: The robot that decided (the assembling robot, the defender), or ``None``
            for a split.
        place: The place shared, for a split.
        chosen: What the table chose, in words.
        default: What the default policy would have done, in words.
        clause: The clause that allows the choice.
        default_clause: The clause of the default policy.
    """

    turn: int
    kind: str
    robot: int | None
    place: str | None
    chosen: str
    default: str
    clause: str
    default_clause: str

    def __str__(self) -> str:
        if self.kind == "assembly":
            who = f"robot {self.robot} "
            did = "declined to assemble" if self.chosen == "none" else f"assembled {self.chosen}"
            would = (
                "have assembled nothing"
                if self.default == "none"
                else (f"have taken {self.default}")
            )
            return (
                f"{who}{did} ({self.clause}; the default pick, {self.default_clause}, "
                f"would {would})"
            )
        if self.kind == "defence steal":
            return (
                f"robot {self.robot} took {self.chosen} in defence ({self.clause}; the default "
                f"steal would have taken {self.default})"
            )
        return (
            f"{self.place} was split as {self.chosen} ({self.clause}; the default split, "
            f"{self.default_clause}, would have given {self.default})"
        )


@frozen
class TurnReplay:
    """One replayed turn: the state before it, its programs and choices, and its result.

    ``open_positions`` is how many positions agreed with everything recorded once this turn
    was played (1 when the record settles it); this replay follows the first of them.
    """

    record: TurnRecord
    index: int
    before: GameState
    programs: dict[int, AnyProgram]
    choices: Choices
    result: TurnResult
    departures: tuple[Departure, ...]
    inferred: tuple[InferredChoice, ...] = ()
    open_positions: int = 1
    inferred_choices: Choices = NO_CHOICES

    @property
    def turn(self) -> int:
        """The turn's number."""
        return self.before.turn

    @property
    def table_choices(self) -> Choices:
        """The choices the table made: those the log gives and those inferred from what the
        players recorded (every other decision is left to the default policy).

        ``dispute`` and ``whatif`` resolve the turn again with these, so a play the
        replay inferred is kept under another reading or another program.
        """
        given = self.record.choices.to_choices() if self.record.choices else Choices()
        return given.with_decisions(self.inferred_choices)


@frozen
class OpenQuestion:
    """A turn whose decisions the recorded values left open at the end of the log.

    Attributes:
        turn: The turn.
        choices: The decisions that differ among the positions still possible, in words
            (``"robot 2's assembly"``, ``"the split of dump 3"``).
        ways: How many different combinations of them the positions still possible hold.
    """

    turn: int
    choices: tuple[str, ...]
    ways: int

    def __str__(self) -> str:
        return f"turn {self.turn}: {', '.join(self.choices)} ({self.ways} ways)"


@frozen
class Undecided:
    """The verdict of a log whose recorded values leave more positions open than the bound.

    Replay never picks one of them silently: it stops there (exit status 4 on the command line).

    A turn is also undecided when a decision it leaves to be inferred has more legal ways than
    the judge lists (:data:`~outofgears.judge.inference.MOST_WAYS`).

    Attributes:
        turn: The turn after which too many positions were open.
        json_path: Where that turn is in the log.
        bound: The bound (``max_open``).
        ways: For a decision with too many legal ways, the bound on them; 0 otherwise.
        decision: That decision, in words (``"the split of dump 1"``); empty otherwise.
    """

    turn: int
    json_path: str
    bound: int
    ways: int = 0
    decision: str = ""

    def __str__(self) -> str:
        if self.ways:
            return (
                f"undecided: {self.decision} at turn {self.turn} has more than {self.ways} "
                "legal ways"
            )
        return f"undecided: more than {self.bound} positions open at turn {self.turn}"


class UndecidedError(LogError):
    """A turn asked for lies at or after the turn where the log became undecided: its position
    is not known. A :class:`~outofgears.log.LogError` (the log does not settle it), which the
    command line reports with exit status 4, not 2.

    Attributes:
        undecided: The verdict.
    """

    def __init__(self, source: str, undecided: Undecided) -> None:
        super().__init__(
            source,
            undecided.json_path,
            f"{undecided}: write that turn's choices, or more of what was recorded",
            turn=undecided.turn,
        )
        self.undecided = undecided


@frozen
class Replay:
    """A replayed log: the start, every turn, the final state, and what departs from the rules.

    Attributes:
        log: The log.
        start: The starting position.
        turns: Every turn replayed, following the first position still possible.
        notes: Notes on the log's spec and engine versions.
        open: What stays open at the end, in words (empty when one position is left).
        questions: The turns whose decisions stay open at the end, and which.
        positions: How many positions agree with everything recorded at the end.
        undecided: Set when more positions than the bound were open: the replay stops there.
        possible: Every position that agrees with everything recorded at the end (the first
            is :attr:`final`); empty when undecided.
    """

    log: GameLog
    start: GameState
    turns: tuple[TurnReplay, ...]
    notes: tuple[str, ...]
    open: tuple[str, ...] = ()
    questions: tuple[OpenQuestion, ...] = ()
    positions: int = 1
    undecided: Undecided | None = None
    possible: tuple[GameState, ...] = ()

    @property
    def inferred(self) -> tuple[InferredChoice, ...]:
        """Every inferred choice, in turn order."""
        return tuple(c for turn in self.turns for c in turn.inferred)

    @property
    def final(self) -> GameState:
        """The state after the last turn replayed."""
        return self.turns[-1].result.state if self.turns else self.start

    @property
    def departures(self) -> tuple[Departure, ...]:
        """Every departure, in turn order."""
        return tuple(d for turn in self.turns for d in turn.departures)

    @property
    def agrees(self) -> bool:
        """Whether the log agrees with the rules throughout (and is not undecided)."""
        return not self.departures and self.undecided is None

    @property
    def verdict(self) -> str:
        """``"agrees"``, ``"departs"`` or ``"undecided"`` (a departure before the bound was
        passed makes the log depart)."""
        if self.departures:
            return "departs"
        return "undecided" if self.undecided is not None else "agrees"

    def turn(self, number: int) -> TurnReplay:
        """The replay of turn ``number``; ``KeyError`` if the log has no such turn."""
        for replayed in self.turns:
            if replayed.turn == number:
                return replayed
        raise KeyError(number)


@frozen
class _Line:
    """A position that agrees with everything recorded so far, and the turns that led to it
    (a linked list, newest first, so that carrying many of them costs nothing per turn)."""

    state: GameState
    last: Play | None = None
    before: _Line | None = None

    def plays(self) -> list[Play]:
        """The plays that led here, oldest first."""
        plays: list[Play] = []
        line: _Line | None = self
        while line is not None and line.last is not None:
            plays.append(line.last)
            line = line.before
        return plays[::-1]


def replay_log(
    log: GameLog,
    source: str = "<log>",
    *,
    through: int | None = None,
    max_open: int = POSITION_LIMIT,
) -> Replay:
    """Replay every turn of a log and compare it with what the players recorded.

    This is the one walk over a log's turns: ``replay``, ``explain``, ``dispute``,
    ``whatif``, ``render``, ``view`` and ``record`` all read its :class:`Replay`. With
    ``through``, the walk stops after that turn (the later turns are not read).

    The walk carries the set of positions that agree with everything recorded so far: each
    turn, every legal play from every position in the set that gives the turn's recorded
    values (the default policy's included), merged by position. A turn departs only when no
    position in the set explains it; it is then reported against the legal play that misses
    the fewest recorded values, and the walk goes on from that play. When more than
    ``max_open`` positions are open, the replay stops with its :attr:`Replay.undecided` verdict.

    Raises:
        LogError: The log is invalid: a header that does not hang together, a
            turn out of sequence, an illegal program, a turn after the end.
        ArgumentTypeError: ``max_open`` is not a whole number of at least 1.

    >>> from outofgears.log import Start, TurnRecord
    >>> from outofgears.rules.programs import parse_program
    >>> log = GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=1),
    ...               turns=(TurnRecord(1, {1: parse_program("harvest 1"),
    ...                                     2: parse_program("harvest 2")}),))
    >>> replay = replay_log(log)
    >>> replay.agrees, replay.final.turn
    (True, 2)
    """
    if isinstance(max_open, bool) or not isinstance(max_open, int) or max_open < 1:
        raise ArgumentTypeError("max_open", "a whole number of at least 1", max_open)
    start = start_state(log, source)
    notes = spec_notes(log)
    order_known = log.start.position is None or log.start.position.reserve_order_known
    lines = [_Line(start)]
    branches = Branches()
    counts: dict[int, int] = {}
    undecided: Undecided | None = None
    more = False
    for index, record in enumerate(log.turns):
        if through is not None and lines[0].last and lines[0].last.default.turn >= through:
            break
        # After the last turn read nothing is left to narrow the positions down: more than
        # the bound is then only a longer list of what stays open, not an undecided log.
        last = index == len(log.turns) - 1
        try:
            following = _following(lines, record, index, source, order_known, max_open)
            if len(following) > max_open:
                if not last:
                    undecided = Undecided(record.turn, f"$.turns[{index}]", max_open)
                more = True
            if undecided is None and not following:
                number, departing = departing_play(
                    [line.state for line in lines],
                    record,
                    index,
                    source,
                    order_known=order_known,
                    branches=branches,
                )
                following = {(): _Line(departing.result.state, Play(departing), lines[number])}
        except TooManyWaysError as error:
            undecided = Undecided(
                record.turn,
                f"$.turns[{index}]",
                max_open,
                error.most,
                _decision_words((error.kind, error.key)),
            )
        if undecided is not None:
            break
        lines = list(following.values())
        counts[index] = len(lines)
    turns = [
        attrs.evolve(turn, open_positions=counts[turn.index])
        if counts.get(turn.index, 1) > 1
        else turn
        for turn in (play.turn() for play in lines[0].plays())
    ]
    if undecided is not None:
        return Replay(log, start, tuple(turns), notes, undecided=undecided)
    return Replay(
        log,
        start,
        tuple(turns),
        notes,
        open_at_end([line.state for line in lines], more=more),
        open_questions(lines),
        len(lines),
        possible=tuple(line.state for line in lines),
    )


def _following(
    lines: Sequence[_Line],
    record: TurnRecord,
    index: int,
    source: str,
    order_known: bool,
    max_open: int,
) -> dict[tuple[Any, ...], _Line]:
    """The positions after a turn that every legal play from ``lines`` giving its recorded
    values leaves, merged, each with its line; stops past ``max_open`` of them."""
    following: dict[tuple[Any, ...], _Line] = {}
    for number, line in enumerate(lines):
        for play in fitting_plays(
            line.state,
            record,
            index,
            source,
            order_known=order_known,
            limit=max_open,
            checked=number > 0,
        ):
            if play.key not in following:
                following[play.key] = _Line(play.state, play, line)
        if len(following) > max_open:
            break
    return following


def open_questions(lines: Sequence[_Line]) -> tuple[OpenQuestion, ...]:
    """The turns whose decisions differ among the positions still possible, and which."""
    if len(lines) < 2:
        return ()
    histories = [line.plays() for line in lines]
    questions = []
    for plays in zip(*histories, strict=True):
        made = [play.decisions for play in plays]
        ways = {_decisions_key(choices) for choices in made}
        if len(ways) < 2:
            continue
        differing: set[tuple[str, Any]] = set()
        every = [dict(_decision_items(choices)) for choices in made]
        for key in {key for one in every for key in one}:
            if len({one.get(key) for one in every}) > 1:
                differing.add(key)
        words = tuple(_decision_words(key) for key in sorted(differing, key=str))
        questions.append(OpenQuestion(plays[0].default.turn, words, len(ways)))
    return tuple(questions)


def _decision_items(choices: Choices) -> list[tuple[tuple[str, Any], Any]]:
    """A turn's decisions as ``((kind, key), canonical value)`` pairs."""
    items: list[tuple[tuple[str, Any], Any]] = []
    for (defender, attacker), steal in choices.defence_steals.items():
        items.append((("steal", (defender, attacker)), steal))
    for robot, pick in choices.assemblies.items():
        items.append((("assembly", robot), sort_gears(pick)))
    for place, shares in choices.splits.items():
        items.append(
            (("split", str(place)), tuple(sorted((r, sort_gears(g)) for r, g in shares.items())))
        )
    return items


def _decisions_key(choices: Choices) -> frozenset[Any]:
    return frozenset(_decision_items(choices))


def _decision_words(key: tuple[str, Any]) -> str:
    kind, subject = key
    if kind == "assembly":
        return f"robot {subject}'s assembly"
    if kind == "steal":
        return f"robot {subject[0]}'s defence steal from robot {subject[1]}"
    return f"the split of {subject}"


def _gears_order(items: tuple[Gear, ...]) -> list[tuple[int, int]]:
    return [gear_key(gear) for gear in items]


def open_at_end(states: Sequence[GameState], *, more: bool = False) -> tuple[str, ...]:
    """What the recorded values left undecided at the end: how many positions (``more``: at
    least so many, the last turn leaving more than the bound), each place where they differ,
    with the gears each would hold."""
    if len(states) < 2:
        return ()
    count = f"more than {len(states) - 1}" if more else str(len(states))
    lines = [f"{count} positions remain possible: the recorded values do not settle them"]
    first = states[0]
    for robot in first.robots:
        for where in ("feet", "circuit"):
            seen = sorted({getattr(s.robot(robot.number), where) for s in states}, key=_gears_order)
            if len(seen) > 1:
                told = " or ".join(describe_gears(g) for g in seen)
                lines.append(f"robot {robot.number} {where}: {told}")
    for dump in first.dumps:
        seen = sorted({s.dump(dump.number).gears for s in states}, key=_gears_order)
        if len(seen) > 1:
            told = " or ".join(describe_gears(g) for g in seen)
            lines.append(f"dump {dump.number}: {told}")
    return tuple(lines)


@frozen
class _Prepared:
    """A turn checked and resolved with the log's choices, before any search."""

    state: GameState
    programs: dict[int, AnyProgram]
    choices: Choices
    result: TurnResult
    departures: tuple[Departure, ...]
    refused: bool


def _prepare(
    state: GameState, record: TurnRecord, index: int, source: str, order_known: bool
) -> _Prepared:
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
    state, drawn_departures = arrange_draws(state, record, path, source, order_known)
    departures: list[Departure] = list(drawn_departures)
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
    return _Prepared(state, laid, choices, result, tuple(departures), bool(resolution.refused))


def fitting_plays(
    state: GameState,
    record: TurnRecord,
    index: int,
    source: str = "<log>",
    *,
    order_known: bool = True,
    limit: int = POSITION_LIMIT,
    checked: bool = False,
) -> list[Play]:
    """Every legal play of a turn from ``state`` that gives every value recorded after it,
    one per distinct position (the default policy's first when it is one of them); at most
    ``limit + 1``. Empty when none does, or when the turn departs whatever is played (a choice
    the rules refuse, a gear drawn that the reserve did not hold).

    A turn with no recorded values at all (no ``recorded``, or an empty one) leaves its choices
    to the default policies (R-CHOICES): its one play is theirs. With ``checked``, the recorded values are known to
    name this game's robots, dumps, players and gears (replay checks them from its first
    position only: every position of a turn holds the same game).

    Raises:
        LogError: The turn is invalid: after the end of the game, out of sequence, an illegal
            program, a choice or a recorded value naming a robot not in play, recorded gears
            the game does not have.
    """
    ready = _prepare(state, record, index, source, order_known)
    if ready.departures:
        if record.recorded is not None:  # the recorded values are checked all the same
            compare_recorded(
                record.recorded, ready.result, record.turn, f"$.turns[{index}]", source
            )
        return []
    default = TurnReplay(
        record, index, ready.state, ready.programs, ready.choices, ready.result, ()
    )
    if record.recorded is None or not _records_anything(record.recorded):
        return [Play(default)]
    target = target_of(record.recorded)
    if checked:
        differing = not target.matches(ready.result.state)
    else:  # the recorded values name robots, dumps, players and gears of this game
        path = f"$.turns[{index}]"
        differing = bool(compare_recorded(record.recorded, ready.result, record.turn, path, source))
    found = reproduce(ready.state, ready.programs, ready.choices, target, limit=limit)
    plays = [Play(default, one) for one in found]
    if not differing:
        # The default policy's play first (the report follows it while it stays possible).
        first = position_key(ready.result.state)
        same = next((one for one in found if one.key == first), None)
        plays = [Play(default, same, True), *(p for p in plays if p.key != first)]
    return plays


@frozen
class Play:
    """A legal play of a turn that gives its recorded values: the default policy's, or one the
    search found. Its :class:`TurnReplay` is made when asked for (replay carries many).

    Attributes:
        default: The turn as the default policies play it (the log's choices kept).
        found: The play the search found (for the default policy's play, the search's play
            that leaves the same position, if it found it: its decisions in full).
        is_default: Whether this is the default policy's play.
    """

    default: TurnReplay
    found: Reproduction | None = None
    is_default: bool = False

    @property
    def state(self) -> GameState:
        """The position the play leaves."""
        if self.found is None or self.is_default:
            return self.default.result.state
        return self.found.state

    @property
    def key(self) -> tuple[Any, ...]:
        """:func:`position_key` of :attr:`state`."""
        if self.found is not None:
            return self.found.key
        return position_key(self.default.result.state)

    @property
    def decisions(self) -> Choices:
        """The decisions the search made (none for the default policy's play)."""
        return as_choices(self.found.decisions) if self.found is not None else NO_CHOICES

    def turn(self) -> TurnReplay:
        """The play as a turn of the replay."""
        if self.found is None or self.is_default:
            return self.default
        return _as_turn(self.default, self.found, self.default.result.events)


def _records_anything(recorded: Recorded) -> bool:
    """Whether a turn's ``recorded`` holds any value (an empty object records nothing)."""
    return bool(recorded.robots or recorded.dumps or recorded.scores)


def _as_turn(default: TurnReplay, found: Reproduction, events: Sequence[Event]) -> TurnReplay:
    return attrs.evolve(
        default,
        choices=found.choices,
        result=found.result,
        inferred=describe_inferred(default.record.turn, found, events),
        inferred_choices=as_choices(found.decisions),
    )


def departing_play(
    states: Sequence[GameState],
    record: TurnRecord,
    index: int,
    source: str = "<log>",
    *,
    order_known: bool = True,
    branches: Branches | None = None,
) -> tuple[int, TurnReplay]:
    """A turn no position of ``states`` explains, reported against the legal play that misses
    the fewest recorded values: the index of the position it starts from and the turn's
    replay, with its departures (each citing the clause that forbids the recorded value).
    ``branches`` bounds the searches for that play (see :class:`~outofgears.judge.inference.Branches`).

    Raises:
        LogError: The turn is invalid (see :func:`fitting_plays`).
    """
    best: tuple[int, int, TurnReplay] | None = None
    for number, state in enumerate(states):
        distance, play = _departing_from(state, record, index, source, order_known, branches)
        if best is None or distance < best[0]:
            best = (distance, number, play)
        if distance == 0:
            break
    assert best is not None
    return best[1], best[2]


def _departing_from(
    state: GameState,
    record: TurnRecord,
    index: int,
    source: str,
    order_known: bool,
    branches: Branches | None,
) -> tuple[int, TurnReplay]:
    ready = _prepare(state, record, index, source, order_known)
    path = f"$.turns[{index}]"
    departures = list(ready.departures)
    default = TurnReplay(
        record, index, ready.state, ready.programs, ready.choices, ready.result, ()
    )
    if record.recorded is None:
        return len(departures), attrs.evolve(default, departures=tuple(departures))
    target = target_of(record.recorded)
    if ready.refused:
        # A refused choice stops the search (R-CHOICES): the other values against the default.
        departures += compare_recorded(record.recorded, ready.result, record.turn, path, source)
        return len(departures) + 1000, attrs.evolve(default, departures=tuple(departures))
    if departures:
        # Only the draw departs: the turn was resolved from a pile that holds the recorded gears
        # where it could; the choices are still inferred.
        found = reproduce(ready.state, ready.programs, ready.choices, target, limit=1)
        if found:
            play = _as_turn(default, found[0], ready.result.events)
            return len(departures), attrs.evolve(play, departures=tuple(departures))
    near = closest(
        ready.state, ready.programs, ready.choices, target, default=ready.result, branches=branches
    )
    if near is None:  # pragma: no cover - the given choices were accepted above
        near_result, near_found = ready.result, None
    else:
        near_result = near.result
        near_found = Reproduction(
            ready.state,
            ready.programs,
            ready.choices,
            near.decisions,
            near.decisions,
            near.result.state,
            near.result,
        )
    differing = compare_recorded(record.recorded, near_result, record.turn, path, source)
    culprits = cite_culprits(
        ready.state, ready.programs, ready.choices, record.recorded, near_result
    )
    cited = sorted((_blame(d, culprits) for d in differing), key=lambda d: d.clause not in _CITED)
    allowed = rules_allowed(near, target, ready.result)
    departures += [attrs.evolve(d, allowed=allowed(d.robot)) for d in cited]
    play = default if near_found is None else _as_turn(default, near_found, ready.result.events)
    distance = near.distance if near is not None else len(differing)
    return distance + len(ready.departures), attrs.evolve(play, departures=tuple(departures))


#: The clauses :func:`cite_culprits` cites: a departure citing one comes first.
_CITED = ("ATK-4", "ASM-1", "SPL-1", "SPL-2")


def _blame(departure: Departure, culprits: Sequence[Culprit]) -> Departure:
    """A recorded value's departure citing the rule that forbids it, where one is named."""
    for culprit in culprits:
        if culprit.robot is None or culprit.robot == departure.robot:
            return attrs.evolve(departure, clause=culprit.clause, reason=culprit.reason)
    return departure


def replay_turn(
    state: GameState,
    record: TurnRecord,
    index: int,
    source: str = "<log>",
    *,
    reserve_order_known: bool = True,
) -> TurnReplay:
    """Replay one turn of a log from one position: the first legal play that gives every
    recorded value (see :func:`fitting_plays`), or the departing play (see
    :func:`departing_play`).

    Raises:
        LogError: The turn is invalid (see :func:`fitting_plays`).
    """
    plays = fitting_plays(state, record, index, source, order_known=reserve_order_known)
    if plays:
        return plays[0].turn()
    return departing_play([state], record, index, source, order_known=reserve_order_known)[1]


def arrange_draws(
    state: GameState, record: TurnRecord, path: str, source: str, order_known: bool
) -> tuple[GameState, list[Departure]]:
    """Check a turn's ``drawn`` against the reserve, and, when the reserve's order is
    unknown, put the drawn gears on top of it in the order exploration draws them (EXP-1:
    one gear onto each dump, ascending, while the reserve lasts).

    Returns the state to resolve the turn from and a departure for each drawn value the
    rules do not allow: a gear the reserve does not hold (or not next, when its order is
    known), nothing drawn while it still held gears, a gear on a dump the emptied reserve
    skips.

    Raises:
        LogError: A dump that is not in play; under an unknown order, a turn that does not
            say what was drawn onto a dump while the reserve held gears.
    """
    pile = state.reserve
    numbers = state.robot_numbers
    receiving, skipped = dumps_explored(numbers, pile)
    drawn = record.drawn
    if drawn is None:
        if order_known or not pile:
            return state, []
        raise LogError(
            source,
            path,
            "the log gives the reserve as counts (its order unknown), so each turn says what "
            f'was turned up onto each dump: add "drawn" for {_dumps_text(receiving)}',
            turn=record.turn,
            clause="EXP-1",
        )
    for dump in drawn:
        if dump not in numbers:
            raise LogError(
                source,
                f"{path}.drawn.{dump}",
                f"dump {dump} is not in play (dumps in play: {numbers})",
                turn=record.turn,
            )
    content = f"the reserve held {describe_gears(sort_gears(pile))}"
    departures = [
        _drawn_departure(record, path, dump, drawn[dump], "nothing: the reserve was empty")
        for dump in skipped
        if drawn.get(dump) is not None
    ]
    if order_known:
        for place, (dump, gear) in enumerate(zip(receiving, pile, strict=False), start=1):
            told = drawn.get(dump, gear)
            if told != gear:
                expected = f"{gear}, the reserve's gear number {place} in draw order ({content})"
                departures.append(_drawn_departure(record, path, dump, told, expected))
        return state, departures
    missing = [dump for dump in receiving if dump not in drawn]
    if missing:
        raise LogError(
            source,
            f"{path}.drawn",
            f"the reserve's order is unknown and it held gears: say what was turned up onto "
            f"{_dumps_text(missing)}",
            turn=record.turn,
            clause="EXP-1",
        )
    left = Counter(pile)
    on_top: list[Gear | None] = []
    for dump in receiving:
        told = drawn[dump]
        if told is not None and left[told] > 0:
            left[told] -= 1
            on_top.append(told)
            continue
        on_top.append(None)
        expected = f"one of the reserve's gears ({content})"
        departures.append(_drawn_departure(record, path, dump, told, expected))
    # Where the log departs, the turn goes on with a gear the reserve did hold.
    rest = list(sort_gears(left.elements()))
    top = [gear if gear is not None else rest.pop(0) for gear in on_top]
    return attrs.evolve(state, reserve=(*top, *sort_gears(rest))), departures


def _dumps_text(numbers: Sequence[int]) -> str:
    """``"dump 4"``, ``"dumps 1, 2"``."""
    return ("dump " if len(numbers) == 1 else "dumps ") + ", ".join(map(str, numbers))


def _drawn_departure(
    record: TurnRecord, path: str, dump: int, told: Gear | None, expected: str
) -> Departure:
    return Departure(
        turn=record.turn,
        json_path=f"{path}.drawn.{dump}",
        what=f"the gear turned up onto dump {dump}",
        recorded="nothing" if told is None else str(told),
        expected=expected,
        clause="EXP-1",
    )


def describe_inferred(
    turn: int, found: Reproduction, default: Sequence[Event]
) -> tuple[InferredChoice, ...]:
    """The decisions of ``found`` that differ from what the default policy does (its events
    ``default``), in words."""
    inferred: list[InferredChoice] = []
    for kind, key, value in found.decisions:
        if kind == "assembly":
            robot = key
            was = tuple(
                e.gear
                for e in default
                if isinstance(e, GearMoved) and e.robot == robot and e.clause.startswith("ASM")
            )
            if same_decision(kind, value, was):
                continue
            inferred.append(
                InferredChoice(
                    turn,
                    "assembly",
                    robot,
                    None,
                    describe_gears(value),
                    describe_gears(was),
                    "ASM-1",
                    "ASM-2",
                )
            )
        elif kind == "steal":
            defender, attacker = key
            sources = (Place.feet(attacker), Place.circuit(attacker))
            took = [
                e
                for e in default
                if isinstance(e, GearMoved)
                and e.robot == defender
                and e.source in sources
                and e.clause in ("ATK-4", "SATK-2")
            ]
            chosen = f"{describe_gears((value.gear,))} from robot {attacker}'s {value.source}"
            was_text = (
                ", ".join(f"{describe_gears((e.gear,))} from {e.source}" for e in took) or "nothing"
            )
            if took and (took[0].gear, str(took[0].source)) == (
                value.gear,
                str(Place.feet(attacker) if value.source == "feet" else Place.circuit(attacker)),
            ):
                continue
            inferred.append(
                InferredChoice(
                    turn, "defence steal", defender, None, chosen, was_text, "ATK-4", "ATK-4"
                )
            )
        else:
            place = key
            shares: dict[int, list[Gear]] = {}
            for e in default:
                if isinstance(e, GearMoved) and e.source == place and e.robot is not None:
                    shares.setdefault(e.robot, []).append(e.gear)
            was_shares = {r: tuple(shares.get(r, ())) for r in value}
            if same_decision("split", value, was_shares):
                continue
            inferred.append(
                InferredChoice(
                    turn,
                    "split",
                    None,
                    str(place),
                    _shares_text(value),
                    _shares_text(was_shares),
                    "SPL-1 to SPL-4",
                    "SPL-5",
                )
            )
    return tuple(inferred)


def _shares_text(shares: Any) -> str:
    return "; ".join(f"robot {r}: {describe_gears(g)}" for r, g in sorted(shares.items()))


def rules_allowed(
    near: Closest | None, target: Target, default: TurnResult
) -> Callable[[int | None], str]:
    """What the rules allowed instead of a recorded outcome that no legal play gives, as a
    function of the robot concerned, read along the closest legal play ``near``.

    For ``robot`` (every robot when ``None``): the assemblies it could make (ASM-1; the
    default pick is only ASM-2), the gears it could take in defence (ATK-4), the own-colour
    quota of each split it shared (SPL-2) and the splits the table could agree on, and the
    closest legal outcome to what was recorded.
    """
    options: dict[tuple[str, Any], list[Any]] = {}
    for offered in near.offered if near is not None else ():
        for kind, key, value in offered:
            values = options.setdefault((kind, key), [])
            if not any(same_decision(kind, value, v) for v in values):
                values.append(value)
    best = (near.choices, near.result, near.distance) if near is not None else None

    def told(robot: int | None) -> str:
        return _allowed_text(options, best, target, default, robot)

    return told


def _allowed_text(
    options: dict[tuple[str, Any], list[Any]],
    best: tuple[Choices, TurnResult, int] | None,
    target: Target,
    default: TurnResult,
    robot: int | None,
) -> str:
    parts: list[str] = []
    for (kind, key), values in sorted(options.items(), key=lambda item: str(item[0])):
        if kind == "assembly" and robot in (None, key):
            told = " | ".join(_pair_text(v) for v in values)
            parts.append(
                f"robot {key} could assemble any of: {told} (ASM-1; the default pick, "
                "ASM-2, decides only when the table does not)"
            )
        elif kind == "steal" and robot in (None, *key):
            told = ", ".join(f"{describe_gears((v.gear,))} from its {v.source}" for v in values)
            parts.append(f"robot {key[0]} could take one gear of robot {key[1]}: {told} (ATK-4)")
        elif kind == "split" and (robot is None or robot in values[0]):
            told = " | ".join(_shares_text(v) for v in values)
            parts.append(
                f"{key} could be split as {told} (SPL-1, SPL-2; the default split, SPL-5, "
                "decides only when the table does not)"
            )
    parts += split_quotas(default, robot)
    if best is not None and best[2] > 0:
        near = best[1].state
        differ = [
            f"robot {r.number} feet {describe_gears(r.feet)}, circuit {describe_gears(r.circuit)}"
            for r in near.robots
            if (r.number in target.feet or r.number in target.circuit)
            and robot in (None, r.number)
            and r != default.state.robot(r.number)
        ]
        if differ:
            parts.append("the closest legal outcome: " + "; ".join(differ))
    if not parts:
        return "no choice of this turn changes this value"
    return "; ".join(parts)


def _pair_text(pick: Sequence[Gear]) -> str:
    """An assembly in words: ``"red + orange"``, or ``"nothing"`` for declining."""
    return " + ".join(str(gear) for gear in pick) if pick else "nothing"


def split_quotas(result: TurnResult, robot: int | None) -> list[str]:
    """The own-colour quota of each taker of each split of the turn (SPL-2), for ``robot``."""
    events = result.events
    lines = []
    for index, event in enumerate(events):
        if not isinstance(event, SplitResolved) or robot not in (None, *event.takers):
            continue
        pool = [
            moved.gear
            for moved in events[index + 1 :]
            if isinstance(moved, GearMoved)
            and moved.source == event.place
            and moved.robot in event.takers
        ]
        pool += event.left
        quotas = [
            f"robot {taker} {own_colour_quota(pool, taker, event.share)}" for taker in event.takers
        ]
        lines.append(
            f"{event.place} gave {counted(event.share, 'gear')} to each of robots "
            f"{', '.join(map(str, event.takers))}, each first its own-colour quota "
            f"({', '.join(quotas)}) (SPL-2)"
        )
    return lines


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
                    reason=score_breakdown(state.robot(scores[player].robot)),
                )
            )
    return found


def score_breakdown(robot: Robot) -> str:
    """A robot's points counted out, feet and circuit together (END-2, JOL-2, TRI-2).

    >>> from outofgears.rules.gears import JOLLY, gears
    >>> score_breakdown(Robot(1, "Ada", feet=gears(1, 2), circuit=(JOLLY, *gears(1))))
    'robot 1 scores 2 own-colour gears x 2 + 1 other gear x 1 + 1 Jolly x 2 = 7 points (END-2)'
    """
    own = other = jolly = three = 0
    for gear in robot.all_gears:
        if gear.kind is GearKind.THREE_POINT:
            three += 1
        elif gear.kind is GearKind.JOLLY:
            jolly += 1
        elif gear.is_own_colour_of(robot.number):
            own += 1
        else:
            other += 1
    parts = [f"{counted(own, 'own-colour gear')} x 2", f"{counted(other, 'other gear')} x 1"]
    if jolly:
        parts.append(f"{jolly} Jolly x 2")
    if three:
        parts.append(f"{counted(three, 'three-point gear')} x 3")
    total = points_text(score_robot(robot))
    return f"robot {robot.number} scores {' + '.join(parts)} = {total} (END-2)"


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

    >>> from outofgears.rules.gears import gears
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


#: The public names of this module (the rest serves them).
__all__ = [
    "Departure",
    "InferredChoice",
    "Replay",
    "TurnReplay",
    "replay_log",
]
