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
from collections.abc import Sequence
from typing import Any

import attrs
from attrs import frozen

from outofgears.errors import (
    ArgumentTypeError,
    GameOverError,
    IllegalProgramError,
    InvalidStateError,
    printable,
)
from outofgears.judge.culprit import cite_culprits, target_of
from outofgears.judge.departures import (
    CITED,
    Departure,
    blame,
    choice_departure,
    compare_recorded,
    drawn_departure,
    rules_allowed,
    shares_of,
)
from outofgears.judge.following import table_position
from outofgears.judge.inference import (
    CARRIED,
    POSITION_LIMIT,
    RESOLVED,
    Branches,
    Reproduction,
    SearchBudgetError,
    TooManyWaysError,
    closest,
    position_key,
    reproduce,
    same_decision,
)
from outofgears.judge.reach import decision_reach, played
from outofgears.judge.resolution import resolve_with_choices
from outofgears.judge.start import spec_notes, start_state
from outofgears.log import (
    ChoicesRecord,
    GameLog,
    LogError,
    Recorded,
    TurnRecord,
)
from outofgears.rules.choices import NO_CHOICES, Choices
from outofgears.rules.events import Event, GearMoved
from outofgears.rules.exploration import dumps_explored
from outofgears.rules.gears import (
    Gear,
    gear_key,
    sort_gears,
)
from outofgears.rules.legal import as_choices
from outofgears.rules.model import GameState, Place
from outofgears.rules.programs import AnyProgram
from outofgears.rules.turn import TurnResult
from outofgears.words.findings import (
    Inferred,
    NextInReserve,
    OneOfReserve,
    OpenDecision,
    OpenPlace,
    OpenPositions,
    ReserveEmpty,
    SharesOf,
    StealTaken,
    TakenFrom,
    fact_text,
    open_question_text,
)


@frozen
class InferredChoice:
    """A decision the log did not give, inferred from what the players recorded.

    Its facts are in :attr:`fact` (:class:`~outofgears.words.findings.Inferred`, which
    :func:`~outofgears.words.findings.fact_text` says in English, Italian or French); the other
    attributes are their English.

    Attributes:
        turn: The turn.
        fact: What was chosen, what the default policy would have done, and the clauses.
    """

    turn: int
    fact: Inferred

    @property
    def kind(self) -> str:
        """``"assembly"``, ``"split"`` or ``"defence steal"``."""
        return self.fact.kind

    @property
    def robot(self) -> int | None:
        """The robot that decided (the assembling robot, the defender), or ``None`` for a
        split."""
        return self.fact.robot

    @property
    def place(self) -> str | None:
        """The place shared, for a split, in English."""
        return None if self.fact.place is None else fact_text(self.fact.place, "en")

    @property
    def chosen(self) -> str:
        """What the table chose, in English."""
        return fact_text(self.fact.chosen, "en")

    @property
    def default(self) -> str:
        """What the default policy would have done, in English."""
        return fact_text(self.fact.default, "en")

    @property
    def clause(self) -> str:
        """The clause that allows the choice."""
        return self.fact.clause

    @property
    def default_clause(self) -> str:
        """The clause of the default policy."""
        return self.fact.default_clause

    def __str__(self) -> str:
        return fact_text(self.fact, "en")


@frozen
class TurnReplay:
    """One replayed turn: the state before it, its programs and choices, and its result.

    ``open_positions`` is how many positions agreed with everything recorded once this turn
    was played (1 when the record settles it); this replay follows the first of them.

    Attributes:
        record: The turn as the log writes it.
        index: Its index in the log's ``turns``.
        before: The position before it.
        programs: ``robot -> program``.
        choices: The choices it was resolved with: the log's and those inferred.
        result: The turn's result: the events and the position after it.
        departures: Where the log departs from the rules on this turn.
        inferred: The choices inferred from what the players recorded.
        open_positions: How many positions agree with everything recorded once the turn was
            played.
        inferred_choices: The inferred choices as engine choices.
        table_position: Set when the turn departs and its record says ``"follows": "table"``:
            the position the players wrote down, which the game goes on from (SET-8);
            :attr:`after` is the position after the turn either way.
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
    table_position: GameState | None = None

    @property
    def turn(self) -> int:
        """The turn's number."""
        return self.before.turn

    @property
    def after(self) -> GameState:
        """The position the game goes on from after this turn: the table's when it was
        followed (:attr:`followed`), otherwise the one the rules give (``result.state``)."""
        return self.result.state if self.table_position is None else self.table_position

    @property
    def followed(self) -> bool:
        """Whether the turn departs and the game goes on from the position the table wrote
        down (``"follows": "table"``, SET-8)."""
        return self.table_position is not None

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
        decisions: The decisions that differ among the positions still possible
            (:class:`~outofgears.words.findings.OpenDecision`).
        ways: How many different combinations of them the positions still possible hold.
    """

    turn: int
    decisions: tuple[OpenDecision, ...]
    ways: int

    @property
    def choices(self) -> tuple[str, ...]:
        """The decisions in English (``"robot 2's assembly"``, ``"the split of dump 3"``)."""
        return tuple(fact_text(decision, "en") for decision in self.decisions)

    def __str__(self) -> str:
        return open_question_text(self.turn, self.decisions, self.ways, "en")


@frozen
class Undecided:
    """The verdict of a log whose recorded values leave more positions open than the bound.

    Replay never picks one of them silently: it stops there (exit status 4 on the command line).

    A turn is also undecided when a decision it leaves to be inferred has more legal ways than
    the judge lists (:data:`~outofgears.judge.inference.MOST_WAYS`), or when the searches of the
    replay ran past their shared budget there (:class:`~outofgears.judge.inference.Branches`).

    Attributes:
        turn: The turn after which too many positions were open.
        json_path: Where that turn is in the log.
        bound: The bound (``max_open``).
        ways: For a decision with too many legal ways, the bound on them; 0 otherwise.
        decision: That decision; ``None`` otherwise.
        budget: For searches past their budget, the budget in branches; 0 otherwise.
    """

    turn: int
    json_path: str
    bound: int
    ways: int = 0
    decision: OpenDecision | None = None
    budget: int = 0

    def __str__(self) -> str:
        if self.budget:
            return (
                f"undecided: the judge's search of turn {self.turn} ran past its budget of "
                f"{self.budget:,} branches"
            )
        if self.decision is not None:
            what = fact_text(self.decision, "en")
            return f"undecided: {what} at turn {self.turn} has more than {self.ways} legal ways"
        positions = "position" if self.bound == 1 else "positions"
        return f"undecided: more than {self.bound} {positions} open at turn {self.turn}"


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
        left_open: What stays open at the end (empty when one position is left): how many
            positions (:class:`~outofgears.words.findings.OpenPositions`), then each place
            where they differ (:class:`~outofgears.words.findings.OpenPlace`).
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
    left_open: tuple[OpenPositions | OpenPlace, ...] = ()
    questions: tuple[OpenQuestion, ...] = ()
    positions: int = 1
    undecided: Undecided | None = None
    possible: tuple[GameState, ...] = ()

    @property
    def open(self) -> tuple[str, ...]:
        """What stays open at the end, in English."""
        return tuple(fact_text(fact, "en") for fact in self.left_open)

    @property
    def inferred(self) -> tuple[InferredChoice, ...]:
        """Every inferred choice, in turn order."""
        return tuple(c for turn in self.turns for c in turn.inferred)

    @property
    def final(self) -> GameState:
        """The position after the last turn replayed (the table's, when that turn was
        followed: :attr:`TurnReplay.after`)."""
        return self.turns[-1].after if self.turns else self.start

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
        """The replay of turn ``number`` (as numbered in the log).

        Raises:
            NoSuchTurnError: The replay holds no such turn (a ``KeyError`` too).
        """
        for replayed in self.turns:
            if replayed.turn == number:
                return replayed
        raise NoSuchTurnError(number, tuple(replayed.turn for replayed in self.turns))


class NoSuchTurnError(InvalidStateError, KeyError):
    """A turn asked of a replay that holds no such turn; a ``KeyError`` as well.

    Attributes:
        turn: The turn asked for.
        turns: The turns the replay holds.

    >>> error = NoSuchTurnError(0, (1, 2, 3))
    >>> str(error), error.turn, isinstance(error, KeyError)
    ('the replay has no turn 0 (its turns: 1-3)', 0, True)
    """

    def __init__(self, turn: object, turns: tuple[int, ...]) -> None:
        held = f"its turns: {turns[0]}-{turns[-1]}" if turns else "it has no turns"
        super().__init__(f"the replay has no turn {printable(repr(turn))} ({held})")
        self.turn = turn
        self.turns = turns

    def __str__(self) -> str:  # KeyError would show the message in quotes
        return str(self.args[0])

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.turn, self.turns))


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
    the fewest recorded values, and the walk goes on from that play, or, when the turn says
    ``"follows": "table"``, from the position the players wrote down (SET-8: each position's
    closest play at that fewest, its written places as written, merged). When more than
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
            following = _following(lines, record, index, source, order_known, max_open, branches)
            if len(following) > max_open:
                if not last:
                    undecided = Undecided(record.turn, f"$.turns[{index}]", max_open)
                more = True
            if undecided is None and not following:
                following = _departing_lines(
                    lines, record, index, source, order_known=order_known, branches=branches
                )
        except TooManyWaysError as error:
            undecided = Undecided(
                record.turn,
                f"$.turns[{index}]",
                max_open,
                error.most,
                _decision_fact((error.kind, error.key)),
            )
        except SearchBudgetError as error:
            undecided = Undecided(record.turn, f"$.turns[{index}]", max_open, budget=error.most)
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
    branches: Branches,
) -> dict[tuple[Any, ...], _Line]:
    """The positions after a turn that every legal play from ``lines`` giving its recorded
    values leaves, merged, each with its line; stops past ``max_open`` of them. Each position
    played from, the first aside, costs ``branches`` :data:`~outofgears.judge.inference.CARRIED`,
    so that the open positions and their memory are bounded with the searches, which spend
    from it too."""
    following: dict[tuple[Any, ...], _Line] = {}
    for number, line in enumerate(lines):
        if number:
            branches.spend(CARRIED)
        for play in fitting_plays(
            line.state,
            record,
            index,
            source,
            order_known=order_known,
            limit=max_open,
            checked=number > 0,
            branches=branches,
        ):
            if play.key not in following:
                following[play.key] = _Line(play.state, play, line)
        if len(following) > max_open:
            break
    return following


def _departing_lines(
    lines: Sequence[_Line],
    record: TurnRecord,
    index: int,
    source: str,
    *,
    order_known: bool,
    branches: Branches,
) -> dict[tuple[Any, ...], _Line]:
    """The positions after a turn that no position of ``lines`` explains: the departing play's
    (:func:`departing_play`); or, when the turn follows the table, every closest play that
    misses the fewest recorded values, each with the places the players wrote as written
    (:func:`~outofgears.judge.following.table_position`), merged, the reported one first."""
    states = [line.state for line in lines]
    follows = record.follows == "table"
    found = departing_plays(
        states, record, index, source, order_known=order_known, branches=branches, every=follows
    )
    if not follows:
        found = found[:1]
    following: dict[tuple[Any, ...], _Line] = {}
    for number, departing in found:
        if follows:
            written = table_position(departing.result.state, record, index, source)
            if position_key(written) != position_key(departing.result.state):
                departing = attrs.evolve(departing, table_position=written)
        play = Play(departing)
        following.setdefault(play.key, _Line(play.state, play, lines[number]))
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
        facts = tuple(_decision_fact(key) for key in sorted(differing, key=str))
        questions.append(OpenQuestion(plays[0].default.turn, facts, len(ways)))
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
            (("split", place), tuple(sorted((r, sort_gears(g)) for r, g in shares.items())))
        )
    return items


def _decisions_key(choices: Choices) -> frozenset[Any]:
    return frozenset(_decision_items(choices))


def _decision_fact(key: tuple[str, Any]) -> OpenDecision:
    kind, subject = key
    if kind == "assembly":
        return OpenDecision("assembly", robot=subject)
    if kind == "steal":
        return OpenDecision("steal", robot=subject[0], attacker=subject[1])
    return OpenDecision("split", place=subject)


def _gears_order(items: tuple[Gear, ...]) -> list[tuple[int, int]]:
    return [gear_key(gear) for gear in items]


def open_at_end(
    states: Sequence[GameState], *, more: bool = False
) -> tuple[OpenPositions | OpenPlace, ...]:
    """What the recorded values left undecided at the end: how many positions (``more``: at
    least so many, the last turn leaving more than the bound), each place where they differ,
    with the gears each would hold."""
    if len(states) < 2:
        return ()
    found: list[OpenPositions | OpenPlace] = [
        OpenPositions(len(states) - 1, more=True) if more else OpenPositions(len(states))
    ]
    first = states[0]
    for robot in first.robots:
        for where, place in (
            ("feet", Place.feet(robot.number)),
            ("circuit", Place.circuit(robot.number)),
        ):
            seen = sorted({getattr(s.robot(robot.number), where) for s in states}, key=_gears_order)
            if len(seen) > 1:
                found.append(OpenPlace(place, tuple(seen)))
    for dump in first.dumps:
        seen = sorted({s.dump(dump.number).gears for s in states}, key=_gears_order)
        if len(seen) > 1:
            found.append(OpenPlace(Place.dump(dump.number), tuple(seen)))
    return tuple(found)


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
    branches: Branches | None = None,
) -> list[Play]:
    """Every legal play of a turn from ``state`` that gives every value recorded after it,
    one per distinct position (the default policy's first when it is one of them); at most
    ``limit + 1``. Empty when none does, or when the turn departs whatever is played (a choice
    the rules refuse, a gear drawn that the reserve did not hold).

    A turn with no recorded values at all (no ``recorded``, or an empty one) leaves its choices
    to the default policies (R-CHOICES): its one play is theirs. With ``checked``, the recorded values are known to
    name this game's robots, dumps, players and gears (replay checks them from its first
    position only: every position of a turn holds the same game). ``branches`` bounds the search
    (:func:`~outofgears.judge.inference.reproduce`).

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
    found = reproduce(
        ready.state, ready.programs, ready.choices, target, limit=limit, branches=branches
    )
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
            return self.default.after
        return self.found.state

    @property
    def key(self) -> tuple[Any, ...]:
        """:func:`position_key` of :attr:`state`."""
        if self.found is not None:
            return self.found.key
        return position_key(self.default.after)

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
    return departing_plays(
        states, record, index, source, order_known=order_known, branches=branches
    )[0]


def departing_plays(
    states: Sequence[GameState],
    record: TurnRecord,
    index: int,
    source: str = "<log>",
    *,
    order_known: bool = True,
    branches: Branches | None = None,
    every: bool = False,
) -> list[tuple[int, TurnReplay]]:
    """The closest legal plays of a turn no position of ``states`` explains: each position's
    play that misses the fewest recorded values, for every position at that fewest, in the
    order of ``states`` (the first is the one :func:`departing_play` reports), each with the
    index of its position. Without ``every``, a play that misses nothing but the departure
    itself ends the search.

    Raises:
        LogError: The turn is invalid (see :func:`fitting_plays`).
    """
    closest_plays: list[tuple[int, TurnReplay]] = []
    fewest: int | None = None
    for number, state in enumerate(states):
        if branches is not None and number:
            branches.spend(RESOLVED)
        distance, play = _departing_from(state, record, index, source, order_known, branches)
        if fewest is None or distance < fewest:
            fewest, closest_plays = distance, []
        if distance == fewest:
            closest_plays.append((number, play))
        if distance == 0 and not every:
            break
    return closest_plays


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
        found = reproduce(
            ready.state, ready.programs, ready.choices, target, limit=1, branches=branches
        )
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
    near_choices = played(ready.state, ready.programs, ready.choices, near_result)
    reach = decision_reach(ready.state, ready.programs, near_choices)
    culprits = cite_culprits(
        ready.state,
        ready.programs,
        ready.choices,
        record.recorded,
        near_result,
        beside=(near_choices, reach),
        branches=branches,
    )
    cited = sorted((blame(d, culprits) for d in differing), key=lambda d: d.clause not in CITED)
    allowed = rules_allowed(near, target, ready.result, reach)
    departures += [attrs.evolve(d, options=allowed(d.subject)) for d in cited]
    play = default if near_found is None else _as_turn(default, near_found, ready.result.events)
    distance = near.distance if near is not None else len(differing)
    return distance + len(ready.departures), attrs.evolve(play, departures=tuple(departures))


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
    held = sort_gears(pile)
    departures = [
        drawn_departure(record, path, dump, drawn[dump], ReserveEmpty())
        for dump in skipped
        if drawn.get(dump) is not None
    ]
    if order_known:
        for place, (dump, gear) in enumerate(zip(receiving, pile, strict=False), start=1):
            told = drawn.get(dump, gear)
            if told != gear:
                departures.append(
                    drawn_departure(record, path, dump, told, NextInReserve(gear, place, held))
                )
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
        expected = OneOfReserve(held)
        departures.append(drawn_departure(record, path, dump, told, expected))
    # Where the log departs, the turn goes on with a gear the reserve did hold.
    rest = list(sort_gears(left.elements()))
    top = [gear if gear is not None else rest.pop(0) for gear in on_top]
    return attrs.evolve(state, reserve=(*top, *sort_gears(rest))), departures


def _dumps_text(numbers: Sequence[int]) -> str:
    """``"dump 4"``, ``"dumps 1, 2"``."""
    return ("dump " if len(numbers) == 1 else "dumps ") + ", ".join(map(str, numbers))


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
                    Inferred(
                        "assembly",
                        robot,
                        None,
                        sort_gears(value),
                        sort_gears(was),
                        "ASM-1",
                        "ASM-2",
                    ),
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
            chosen = StealTaken(value.gear, attacker, value.source)
            taken = TakenFrom(tuple((e.gear, e.source) for e in took))
            if took and (took[0].gear, str(took[0].source)) == (
                value.gear,
                str(Place.feet(attacker) if value.source == "feet" else Place.circuit(attacker)),
            ):
                continue
            inferred.append(
                InferredChoice(
                    turn, Inferred("defence steal", defender, None, chosen, taken, "ATK-4", "ATK-4")
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
                    Inferred(
                        "split",
                        None,
                        place,
                        SharesOf(shares_of(value)),
                        SharesOf(shares_of(was_shares)),
                        "SPL-1 to SPL-4",
                        "SPL-5",
                    ),
                )
            )
    return tuple(inferred)


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


#: The public names of this module (the rest serves them).
__all__ = [
    "Departure",
    "InferredChoice",
    "NoSuchTurnError",
    "Replay",
    "TurnReplay",
    "UndecidedError",
    "replay_log",
]
