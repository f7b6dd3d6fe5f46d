"""A departure from the rules: what the log recorded, what the rules give, and why.

:mod:`outofgears.judge.replay` finds where a log departs; this module says what each departure
is: a recorded set of gears or score that differs from the rules' (:func:`compare_recorded`),
a choice the rules refuse (:func:`choice_departure`), a gear turned up that the reserve did not
hold (:func:`drawn_departure`), and what the turn's legal choices allowed instead
(:func:`rules_allowed`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from attrs import frozen

from outofgears.errors import IllegalChoiceError
from outofgears.judge.culprit import Culprit
from outofgears.judge.inference import Closest, Target, same_decision
from outofgears.log import LogError, Recorded, TurnRecord, json_path
from outofgears.rules.choices import Choices
from outofgears.rules.events import Event, GearMoved, SplitResolved
from outofgears.rules.gears import (
    Gear,
    GearKind,
    counted,
    describe_gears,
    points_text,
    sort_gears,
)
from outofgears.rules.model import Place, Robot
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


#: The clauses :func:`cite_culprits` cites: a departure citing one comes first.
CITED = ("ATK-4", "ASM-1", "SPL-1", "SPL-2")


def blame(departure: Departure, culprits: Sequence[Culprit]) -> Departure:
    """A recorded value's departure citing the rule that forbids it, where one is named."""
    for culprit in culprits:
        if culprit.robot is None or culprit.robot == departure.robot:
            return attrs.evolve(departure, clause=culprit.clause, reason=culprit.reason)
    return departure


def drawn_departure(
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


def shares_text(shares: Any) -> str:
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
            told = " | ".join(shares_text(v) for v in values)
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


#: The public names of this module (the rest serves :mod:`outofgears.judge.replay`).
__all__ = ["Departure"]
