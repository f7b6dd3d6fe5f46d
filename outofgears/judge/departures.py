"""A departure from the rules: what the log recorded, what the rules give, and why.

:mod:`outofgears.judge.replay` finds where a log departs; this module says what each departure
is: a recorded set of gears or score that differs from the rules' (:func:`compare_recorded`),
a choice the rules refuse (:func:`choice_departure`), a gear turned up that the reserve did not
hold (:func:`drawn_departure`), and what the turn's legal choices allowed instead
(:func:`rules_allowed`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
from attrs import frozen

from outofgears.errors import IllegalChoiceError
from outofgears.judge.culprit import Culprit
from outofgears.judge.inference import Closest, Target, decision_value
from outofgears.judge.reach import Reach
from outofgears.log import LogError, Recorded, TurnRecord, json_path
from outofgears.rules.choices import Choices
from outofgears.rules.events import Event, GearMoved, SplitResolved
from outofgears.rules.gears import (
    Gear,
    GearKind,
    gear_ranks,
    sort_gears,
)
from outofgears.rules.model import GameState, Place, PlaceKind, Robot
from outofgears.rules.refusals import Refusal
from outofgears.rules.scoring import player_scores, score_robot
from outofgears.rules.sharing import own_colour_quota
from outofgears.rules.turn import TurnResult
from outofgears.words.findings import (
    AssemblyOptions,
    ChoiceOf,
    ChosenAssembly,
    ChosenSplit,
    ChosenSteal,
    ClosestOutcome,
    DefaultMoves,
    Drawn,
    DrawnOnto,
    NextInReserve,
    OneOfReserve,
    Option,
    Points,
    Reason,
    Refused,
    ReserveEmpty,
    ScoreCount,
    ScoreOf,
    Shares,
    SomeChoice,
    SplitOptions,
    SplitQuotas,
    StealOptions,
    Subject,
    Value,
    departure_line,
    fact_text,
    options_text,
)


@frozen
class Departure:
    """A place where the log departs from the rules.

    It holds facts, not sentences (:mod:`outofgears.words.findings`): robots, places, gears
    and clause IDs as data, which :func:`~outofgears.words.findings.departure_lines` says in
    English, Italian or French. Its English is in :attr:`what`, :attr:`recorded`,
    :attr:`expected`, :attr:`reason` and :attr:`allowed`.

    Attributes:
        turn: The turn.
        json_path: Where in the log the departing value is.
        subject: What was recorded or chosen: a place, a player's score, a robot's choice, the
            gear turned up onto a dump.
        told: What the log says.
        given: What the rules give.
        robot: The robot concerned, if any.
        clause: The spec clause that decides it, if one does.
        events: The events of the turn that produced the value the rules give.
        why: Why the rules refuse the recorded value or choice, where it is named.
        options: What the legal choices of the turn allowed instead, when no legal play
            gives the recorded value (empty: no choice of the turn changes it); ``None`` when
            the turn's choices were not searched.
    """

    turn: int
    json_path: str
    subject: Subject
    told: Value
    given: Value
    robot: int | None = None
    clause: str | None = None
    events: tuple[Event, ...] = ()
    why: Reason | None = None
    options: tuple[Option, ...] | None = None

    @property
    def what(self) -> str:
        """What was recorded or chosen, in English (``"robot 3 feet"``)."""
        return fact_text(self.subject, "en")

    @property
    def recorded(self) -> str:
        """What the log says, in English."""
        return fact_text(self.told, "en")

    @property
    def expected(self) -> str:
        """What the rules give, in English."""
        return fact_text(self.given, "en")

    @property
    def reason(self) -> str | None:
        """Why, in English, where it is named."""
        return None if self.why is None else fact_text(self.why, "en")

    @property
    def allowed(self) -> str | None:
        """What the rules allowed instead, in English, where the turn's choices were searched."""
        return None if self.options is None else options_text(self.options, "en")

    def __str__(self) -> str:
        return departure_line(self, "en")


#: The clauses :func:`cite_culprits` cites: a departure citing one comes first.
CITED = ("ATK-4", "ASM-1", "SPL-1", "SPL-2")


def blame(departure: Departure, culprits: Sequence[Culprit]) -> Departure:
    """A recorded value's departure citing the rule that forbids it, where one is named: a
    culprit of the whole turn explains every recorded value, a robot's culprit its recorded
    gears (a score keeps its own count, END-2, unless the whole turn's culprit explains it)."""
    gears = isinstance(departure.subject, Place)
    for culprit in culprits:
        if culprit.robot is None or (gears and culprit.robot == departure.robot):
            return attrs.evolve(departure, clause=culprit.clause, why=culprit.why)
    return departure


def drawn_departure(
    record: TurnRecord,
    path: str,
    dump: int,
    told: Gear | None,
    expected: NextInReserve | OneOfReserve | ReserveEmpty,
) -> Departure:
    """A gear turned up onto a dump that the rules do not give (EXP-1)."""
    return Departure(
        turn=record.turn,
        json_path=f"{path}.drawn.{dump}",
        subject=DrawnOnto(dump),
        told=Drawn(told),
        given=expected,
        clause="EXP-1",
    )


#: The most ways of one split a departure lists (a split can have thousands); past them the
#: list ends with an ellipsis.
SHOWN_WAYS = 24


@frozen
class _Concern:
    """What a departing value is about, for the options relevant to it: the robots whose
    gears it reads, the dump, and whether it is a score (no assembly changes a score: it moves
    gears within one robot, and END-2 counts feet and circuit alike)."""

    robots: frozenset[int]
    dump: int | None
    score: bool
    reach: Reach

    @classmethod
    def of(cls, subject: Subject, state: GameState, reach: Reach) -> _Concern:
        if isinstance(subject, ScoreOf):
            players = [p for p in state.players if p.name == subject.player]
            robots = frozenset(players[0].robots) if players else frozenset()
            return cls(robots, None, True, reach)
        if isinstance(subject, Place) and subject.kind is PlaceKind.DUMP:
            return cls(frozenset(), subject.number, False, reach)
        if isinstance(subject, Place) and subject.kind in (PlaceKind.FEET, PlaceKind.CIRCUIT):
            return cls(frozenset({subject.number}), None, False, reach)
        return cls(frozenset(state.robot_numbers), None, False, reach)

    def changed_by(self, kind: str, key: Any, ways: Sequence[Any] = ()) -> bool:
        """Whether the decision ``(kind, key)``, whose legal values include ``ways``, can
        change the value (a split of the dump itself changes it only if its ways leave other
        gears behind)."""
        if self.score and kind == "assembly":
            return False
        if kind == "split" and self.dump is not None and key == Place.dump(self.dump):
            taken = {sort_gears(g for share in way.values() for g in share) for way in ways}
            return len(taken) > 1
        if (kind, key) not in self.reach:  # not met along the closest play: said all the same
            return True
        robots, dumps = self.reach[(kind, key)]
        return bool(robots & self.robots) or self.dump in dumps


def rules_allowed(
    near: Closest | None, target: Target, default: TurnResult, reach: Reach
) -> Callable[[Subject], tuple[Option, ...]]:
    """What the rules allowed instead of a recorded outcome that no legal play gives, as a
    function of the departing value's subject, read along the closest legal play ``near``.

    Only the decisions that can change that value (``reach``, :func:`decision_reach`): the
    assemblies the robot could make (ASM-1; the default pick is only ASM-2; never for a score),
    the gears taken in defence (ATK-4), the own-colour quota of each split (SPL-2) and the
    splits the table could agree on, and the closest legal outcome of the robots whose gears it
    is (not of a score: the closest play is the one whose score the rules give). Empty when no
    choice of the turn changes the value.
    """
    options: dict[tuple[str, Any], list[Any]] = {}
    seen: set[tuple[str, Any, Any]] = set()
    for offered in near.offered if near is not None else ():
        for kind, key, value in offered:
            mark = (kind, key, decision_value(kind, value))
            if mark not in seen:
                seen.add(mark)
                options.setdefault((kind, key), []).append(value)
    best = (near.choices, near.result, near.distance) if near is not None else None

    def told(subject: Subject) -> tuple[Option, ...]:
        concern = _Concern.of(subject, default.state, reach)
        return _allowed(options, best, target, default, concern)

    return told


def _allowed(
    options: dict[tuple[str, Any], list[Any]],
    best: tuple[Choices, TurnResult, int] | None,
    target: Target,
    default: TurnResult,
    concern: _Concern,
) -> tuple[Option, ...]:
    parts: list[Option] = []
    for (kind, key), values in sorted(options.items(), key=lambda item: str(item[0])):
        if not concern.changed_by(kind, key, values):
            continue
        if kind == "assembly":
            parts.append(AssemblyOptions(key, tuple(tuple(pick) for pick in values)))
        elif kind == "steal":
            parts.append(StealOptions(key[0], key[1], tuple((v.gear, v.source) for v in values)))
        elif kind == "split":
            shown = tuple(shares_of(v) for v in values[:SHOWN_WAYS])
            parts.append(SplitOptions(key, shown, more=len(values) > SHOWN_WAYS))
    parts += [
        quotas
        for quotas in split_quotas(default)
        if concern.changed_by("split", quotas.place, options.get(("split", quotas.place), ()))
    ]
    if best is not None and best[2] > 0 and not concern.score:
        near = best[1].state
        differ = tuple(
            (r.number, r.feet, r.circuit)
            for r in near.robots
            if (r.number in target.feet or r.number in target.circuit)
            and r.number in concern.robots
            and r != default.state.robot(r.number)
        )
        if differ:
            parts.append(ClosestOutcome(differ))
    return tuple(parts)


def shares_of(shares: Mapping[int, Sequence[Gear]]) -> Shares:
    """A split's shares as a fact holds them: each taker and its gears, in robot order."""
    return tuple((robot, sort_gears(got)) for robot, got in sorted(shares.items()))


def split_quotas(result: TurnResult) -> list[SplitQuotas]:
    """The own-colour quota of each taker of each split of the turn (SPL-2)."""
    events = result.events
    found = []
    for index, event in enumerate(events):
        if not isinstance(event, SplitResolved):
            continue
        pool = [
            moved.gear
            for moved in events[index + 1 :]
            if isinstance(moved, GearMoved)
            and moved.source == event.place
            and moved.robot in event.takers
        ]
        pool += event.left
        quotas = tuple(
            (taker, own_colour_quota(pool, taker, event.share)) for taker in event.takers
        )
        found.append(SplitQuotas(event.place, event.share, quotas))
    return found


CHOICE_KINDS = {"ATK": "defence steal", "SAT": "defence steal", "ASM": "assembly", "SPL": "split"}


def choice_departure(
    record: TurnRecord, index: int, error: IllegalChoiceError, result: TurnResult | None = None
) -> Departure:
    """A chosen gear, assembly or split that the rules do not allow, as a departure.

    ``result`` is the turn replayed with the default policies; the departure
    shows what they give the robot.
    """
    robot = error.robot
    kind = CHOICE_KINDS.get(error.clause[:3], "choice")
    where, told = _recorded_choice(record, index, kind, robot)
    events = _choice_events(result.events if result else (), kind, robot)
    moves = tuple((event.gear, event.source) for event in events if isinstance(event, GearMoved))
    return Departure(
        turn=record.turn,
        json_path=where,
        subject=ChoiceOf(kind, robot),
        told=told,
        given=DefaultMoves(moves),
        robot=robot,
        clause=error.clause,
        events=events,
        why=refused(error),
    )


def refused(error: IllegalChoiceError) -> Refused:
    """Why the rules refuse a choice, as a fact: their reason in English, the clause, and the
    reason as data when they gave it (``replay``'s departures, ``dispute``'s and ``whatif``'s
    dropped choices)."""
    refusal = error.refusal if isinstance(error.refusal, Refusal) else None
    return Refused(error.reason, error.clause, refusal)


def _recorded_choice(
    record: TurnRecord, index: int, kind: str, robot: int | None
) -> tuple[str, ChosenSteal | ChosenAssembly | ChosenSplit | SomeChoice]:
    base = f"$.turns[{index}].choices"
    choices = record.choices
    if choices is not None and kind == "defence steal":
        for i, steal in enumerate(choices.defence_steals):
            if steal.defender == robot:
                return (
                    f"{base}.defence_steals[{i}]",
                    ChosenSteal(steal.gear, steal.attacker, steal.source),
                )
    if choices is not None and kind == "assembly" and robot in choices.assemblies:
        assert robot is not None
        return f"{base}.assemblies.{robot}", ChosenAssembly(tuple(choices.assemblies[robot]))
    if choices is not None and kind == "split":
        for i, split in enumerate(choices.splits):
            if robot is None or robot in split.shares or split.place.number == robot:
                return f"{base}.splits[{i}]", ChosenSplit(split.place, shares_of(split.shares))
    return base, SomeChoice()


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
                    subject=ScoreOf(player),
                    told=Points(points),
                    given=Points(scores[player].points),
                    robot=scores[player].robot,
                    clause="END-2",
                    why=score_breakdown(state.robot(scores[player].robot)),
                )
            )
    return found


def score_breakdown(robot: Robot) -> ScoreCount:
    """A robot's points counted out, feet and circuit together (END-2, JOL-2, TRI-2).

    >>> from outofgears.rules.gears import JOLLY, gears
    >>> counted = score_breakdown(Robot(1, "Ada", feet=gears(1, 2), circuit=(JOLLY, *gears(1))))
    >>> fact_text(counted, "en")
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
    return ScoreCount(robot.number, own, other, jolly, three, score_robot(robot))


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
    """A recorded set of gears that differs from the rules', with the moves that made it and
    the clause of the moves behind the difference (:func:`differing_clause`)."""
    moves = tuple(
        event
        for event in events
        if isinstance(event, GearMoved) and place in (event.source, event.destination)
    )
    return Departure(
        turn=turn,
        json_path=json_path,
        subject=place,
        told=sort_gears(told),
        given=tuple(real),
        robot=robot,
        clause=differing_clause(place, told, real, moves),
        events=moves,
    )


def differing_clause(
    place: Place, told: Sequence[Gear], real: Sequence[Gear], moves: Sequence[GearMoved]
) -> str | None:
    """The clause of the moves that account for a recorded place's difference from the rules':
    those that took away a gear the record still has there, or brought a gear it lacks (a gear
    left with an attack's victim is the attack's, ATK-6, whatever came to its feet after).
    Among several, the clause that accounts for the most differing gears, the earliest on a
    tie; ``None`` when no move of the turn accounts for any.

    >>> from outofgears.rules.gears import gears
    >>> feet = Place.feet(2)
    >>> moves = [GearMoved(gears(1)[0], feet, Place.feet(1), 1, "ATK-6"),
    ...          GearMoved(gears(4)[0], Place.dump(2), feet, 2, "HRV-2")]
    >>> differing_clause(feet, gears(1, 4), gears(4), moves)
    'ATK-6'
    >>> differing_clause(feet, (), gears(4), moves)
    'HRV-2'
    """
    if not moves:
        return None
    told_ranks, real_ranks = Counter(gear_ranks(told)), Counter(gear_ranks(real))
    extra, missing = told_ranks - real_ranks, real_ranks - told_ranks
    counts: Counter[str] = Counter()
    for move, rank in zip(moves, gear_ranks([move.gear for move in moves]), strict=True):
        left = move.source == place and extra[rank] > 0
        came = move.destination == place and missing[rank] > 0
        if left or came:
            (extra if left else missing)[rank] -= 1
            counts[move.clause] += 1
    if not counts:
        return None
    return max(counts, key=lambda clause: counts[clause])


#: The public names of this module (the rest serves :mod:`outofgears.judge.replay`).
__all__ = ["Departure"]
