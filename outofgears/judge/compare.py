"""Comparing two resolutions of one turn: what differs, event by event and place by place.

The rules-lawyer commands resolve one turn of a log more than once -- under
another reading of the rule options (``outofgears dispute``), with one program
replaced (``outofgears whatif``) -- and show what changes:

* :func:`replay_to_turn` replays a log up to one of its turns (:func:`replay_through` keeps
  the whole replay);
* :func:`resolve_with_choices` resolves a turn with the log's post-reveal
  choices, dropping only a choice that the rules refuse (its default policy
  decides instead) and saying which;
* :func:`compare_results` gives the difference between two turn results: the
  events only one of them has, and the places, scores, upgrade cards and end
  of game that differ afterwards, in the words a table uses
  (``"robot 3 feet: 2 red, 1 blue"``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from attrs import frozen

from outofgears.errors import ArgumentTypeError, IllegalChoiceError, InvalidStateError, expect
from outofgears.judge.departures import refused
from outofgears.judge.replay import Replay, TurnReplay, UndecidedError, replay_log
from outofgears.judge.resolution import Resolution, drop_refused_choice, resolve_with_choices
from outofgears.log import GameLog, LogError
from outofgears.log.serialization import event_to_dict, to_json
from outofgears.rules.choices import Choices
from outofgears.rules.events import Event
from outofgears.rules.gears import Gear
from outofgears.rules.model import GameState, Place, expect_state
from outofgears.rules.scoring import player_scores
from outofgears.rules.turn import TurnResult
from outofgears.words import gears_text, place_text, translator
from outofgears.words.findings import (
    ChosenSteal,
    Differs,
    GameEnd,
    HeldCard,
    Over,
    Points,
    RefusedChoice,
    ReserveHeld,
    ScoreOf,
    UpgradeOf,
    fact_text,
)


@frozen
class EventDifference:
    """The events that only one of two resolutions of a turn has.

    Attributes:
        only_base: Events of the first resolution that the second lacks, in their order.
        only_other: Events of the second resolution that the first lacks, in their order.
    """

    only_base: tuple[Event, ...] = ()
    only_other: tuple[Event, ...] = ()

    @property
    def same(self) -> bool:
        """Whether both resolutions have the same events."""
        return not self.only_base and not self.only_other


#: What can differ after two resolutions of a turn, and the values it can take.
Subject = Place | ScoreOf | UpgradeOf | GameEnd
Value = tuple[Gear, ...] | ReserveHeld | Points | HeldCard | Over


@frozen
class StateDifference:
    """One thing that differs after two resolutions of a turn, as facts
    (:mod:`outofgears.words.findings` says them in English, Italian or French).

    Attributes:
        subject: What differs: a place (a robot's feet or circuit, a dump, the reserve), a
            player's score or upgrade card, or the end of the game.
        base_value: Its value after the first resolution.
        other_value: Its value after the second resolution.
    """

    subject: Subject
    base_value: Value
    other_value: Value

    @property
    def what(self) -> str:
        """What differs, in English: ``"robot 3 feet"``, ``"dump 2"``, ``"reserve"``,
        ``"Ada's score"``, ``"Ada's upgrade card"`` or ``"game over"``."""
        return fact_text(self.subject, "en")

    @property
    def base(self) -> str:
        """Its value after the first resolution, in English table words."""
        return fact_text(self.base_value, "en")

    @property
    def other(self) -> str:
        """Its value after the second resolution, in English table words."""
        return fact_text(self.other_value, "en")

    @property
    def base_gears(self) -> tuple[Gear, ...] | None:
        """The gears after the first resolution, where it is a place."""
        return _gears_of(self.base_value)

    @property
    def other_gears(self) -> tuple[Gear, ...] | None:
        """The gears after the second resolution, where it is a place."""
        return _gears_of(self.other_value)

    def describe(self, base_label: str, lang: str = "en") -> str:
        """The difference as a line in ``lang``: the second value, the first one in brackets
        after ``base_label`` (in ``lang`` too).

        >>> from outofgears.rules.gears import gears
        >>> place_difference(Place.feet(3), gears(1), gears(1, 1, 5)).describe("as logged")
        'robot 3 feet: 2 red, 1 blue (as logged: 1 red)'
        >>> place_difference(Place.feet(3), gears(1), ()).describe("originale", "it")
        'piedi del robot 3: nessuna (originale: 1 rossa)'
        """
        return fact_text(Differs(self.subject, self.other_value, self.base_value, base_label), lang)


def _gears_of(value: Value) -> tuple[Gear, ...] | None:
    if isinstance(value, ReserveHeld):
        return value.gears
    return value if isinstance(value, tuple) else None


@frozen
class TurnDifference:
    """What differs between two resolutions of one turn.

    Attributes:
        events: The events only one of them has.
        state: What differs afterwards: places, scores, upgrade cards, the end of the game.
    """

    events: EventDifference
    state: tuple[StateDifference, ...]

    @property
    def same(self) -> bool:
        """Whether the two resolutions agree: the same events and the same position."""
        return self.events.same and not self.state


def _events(events: Iterable[Event], argument: str) -> tuple[Event, ...]:
    """The events of one side, refused unless they are events."""
    items = tuple(events) if isinstance(events, Iterable) and not isinstance(events, str) else None
    if items is None or not all(isinstance(event, Event) for event in items):
        raise ArgumentTypeError(argument, "a list of events", events)
    return items


def diff_events(base: Iterable[Event], other: Iterable[Event]) -> EventDifference:
    """The events only one of two resolutions has, each list in its own order.

    Events are matched as a multiset: an event both resolutions have, as many
    times in each, is in neither list, wherever it comes in the turn.

    >>> from outofgears.rules.events import TurnEnded
    >>> diff = diff_events([TurnEnded(1, False, "TURN-1")], [TurnEnded(1, True, "END-1")])
    >>> [str(e) for e in diff.only_base], [str(e) for e in diff.only_other]
    (['turn 1 ended [TURN-1]'], ['turn 1 ended: the game is over [END-1]'])
    """
    first, second = _events(base, "base"), _events(other, "other")
    return EventDifference(_unmatched(first, second), _unmatched(second, first))


def _unmatched(events: tuple[Event, ...], against: tuple[Event, ...]) -> tuple[Event, ...]:
    available = Counter(against)
    left: list[Event] = []
    for event in events:
        if available[event]:
            available[event] -= 1
        else:
            left.append(event)
    return tuple(left)


def place_difference(
    place: Place, base: tuple[Gear, ...], other: tuple[Gear, ...]
) -> StateDifference:
    """The gears of one place after two resolutions, in table words.

    >>> from outofgears.rules.gears import gears
    >>> place_difference(Place.dump(2), gears(4, 4), ()).other
    'none'
    """
    return StateDifference(place, base, other)


def diff_states(base: GameState, other: GameState) -> tuple[StateDifference, ...]:
    """What differs between two positions of the same game, in table words.

    Each robot's feet and circuit in robot order, then the dumps, the reserve,
    the players' scores, the upgrade cards they still hold, and the end of the game.

    >>> from outofgears.rules.gears import gears
    >>> from outofgears.rules.setup import from_position
    >>> def table(feet):
    ...     return from_position(robots={1: {"feet": feet}, 2: {}}, dumps={1: (), 2: ()},
    ...                          reserve=())
    >>> [d.describe("before") for d in diff_states(table(gears(1)), table(gears(2)))]
    ['robot 1 feet: 1 orange (before: 1 red)', "P1's score: 1 point (before: 2 points)"]
    """
    expect_state(base, "base")
    expect_state(other, "other")
    if [(r.number, r.player) for r in base.robots] != [(r.number, r.player) for r in other.robots]:
        raise InvalidStateError("base and other are positions of different games")
    found: list[StateDifference] = []
    for robot in base.robots:
        twin = other.robot(robot.number)
        if robot.feet != twin.feet:
            found.append(place_difference(Place.feet(robot.number), robot.feet, twin.feet))
        if robot.circuit != twin.circuit:
            found.append(place_difference(Place.circuit(robot.number), robot.circuit, twin.circuit))
    for dump in base.dumps:
        gears = other.dump(dump.number).gears
        if dump.gears != gears:
            found.append(place_difference(Place.dump(dump.number), dump.gears, gears))
    if base.reserve != other.reserve:
        found.append(
            StateDifference(Place.reserve(), ReserveHeld(base.reserve), ReserveHeld(other.reserve))
        )
    before = {score.player: score.points for score in player_scores(base)}
    after = {score.player: score.points for score in player_scores(other)}
    for player in base.players:
        if before[player.name] != after[player.name]:
            found.append(
                StateDifference(
                    ScoreOf(player.name), Points(before[player.name]), Points(after[player.name])
                )
            )
    for player in base.players:
        held = other.player_of(player.robots[0]).upgrade
        if player.upgrade != held:
            found.append(
                StateDifference(UpgradeOf(player.name), HeldCard(player.upgrade), HeldCard(held))
            )
    if base.game_over != other.game_over:
        found.append(StateDifference(GameEnd(), Over(base.game_over), Over(other.game_over)))
    return tuple(found)


def compare_results(base: TurnResult, other: TurnResult) -> TurnDifference:
    """The difference between two resolutions of the same turn.

    >>> from outofgears.rules.gears import gears
    >>> from outofgears.rules.programs import parse_program
    >>> from outofgears.rules.setup import from_position
    >>> from outofgears.rules.turn import resolve_turn
    >>> state = from_position(robots={1: {}, 2: {}}, dumps={1: gears(1), 2: ()},
    ...                       reserve=gears(2, 2))
    >>> def play(one):
    ...     return resolve_turn(state, {1: parse_program(one), 2: parse_program("harvest 1")})
    >>> diff = compare_results(play("attack 2"), play("trap 1"))
    >>> [d.describe("attack") for d in diff.state]
    ['robot 1 feet: 1 red (attack: none)', 'robot 2 feet: none (attack: 1 red)', "P1's score: 2 points (attack: 0 points)", "P2's score: 0 points (attack: 1 point)"]
    >>> [str(e) for e in diff.events.only_other][:2]
    ['robot 2 harvest 1: harvest voided by a trap [TRP-2]', 'robot 1 trap 1: trap sprang [TRP-3]']
    """
    expect(base, TurnResult, "base", "a TurnResult")
    expect(other, TurnResult, "other", "a TurnResult")
    return TurnDifference(
        diff_events(base.events, other.events), diff_states(base.state, other.state)
    )


def replay_to_turn(log: GameLog, turn: int, source: str = "<log>") -> TurnReplay:
    """Replay a log up to one of its turns: that turn's replay, with the state before it.

    The turns after it are not read. It is :func:`~outofgears.judge.replay.replay_log`'s walk,
    stopped there: choices are inferred from recorded values as ``replay`` infers them,
    and departures of the earlier turns do not stop it (the rules' values are carried on).

    Raises:
        LogError: The log has no such turn, or is invalid up to it.
        UndecidedError: More positions than the bound were open at or before the turn.

    >>> from outofgears.log import Start, TurnRecord
    >>> from outofgears.rules.programs import parse_program
    >>> log = GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=1),
    ...               turns=(TurnRecord(1, {1: parse_program("harvest 1"),
    ...                                     2: parse_program("harvest 2")}),))
    >>> replay_to_turn(log, 1).before.turn
    1
    >>> replay_to_turn(log, 2)
    Traceback (most recent call last):
    ...
    outofgears.log.LogError: <log>: $.turns: the log has no turn 2 (its turns: 1)
    """
    return replay_through(log, turn, source).turn(turn)


def replay_through(log: GameLog, turn: int, source: str = "<log>") -> Replay:
    """The replay of a log up to and including one of its turns (the turns after it unread).

    Raises:
        LogError: The log has no such turn, or is invalid up to it.
        UndecidedError: More positions than the bound were open at or before the turn.
    """
    expect(log, GameLog, "log", "a GameLog")
    expect(turn, int, "turn", "an int")
    numbers = [record.turn for record in log.turns]
    if turn not in numbers:
        raise no_such_turn(numbers, turn, source)
    replayed = replay_log(log, source, through=turn)
    if replayed.undecided is not None and replayed.undecided.turn <= turn:
        raise UndecidedError(source, replayed.undecided)
    return replayed


def no_such_turn(numbers: list[int], turn: int, source: str) -> LogError:
    """The one error of every command asked for a turn the log does not hold.

    >>> str(no_such_turn([1, 2, 3], 999, "game.json"))
    'game.json: $.turns: the log has no turn 999 (its turns: 1-3)'
    """
    return LogError(source, "$.turns", f"the log has no turn {turn} ({_turn_span(numbers)})")


def _turn_span(numbers: list[int]) -> str:
    if not numbers:
        return "it has no turns"
    if len(numbers) == 1:
        return f"its turns: {numbers[0]}"
    return f"its turns: {numbers[0]}-{numbers[-1]}"


def describe_choices(choices: Choices, lang: str = "en") -> list[str]:
    """Post-reveal choices in table words, one per line, in ``lang``.

    >>> from outofgears.rules.choices import DefenceSteal
    >>> from outofgears.rules.gears import gears
    >>> describe_choices(Choices(defence_steals={(2, 1): DefenceSteal("circuit", gears(2)[0])},
    ...                          assemblies={3: ()}))
    ["robot 2 takes orange from robot 1's circuit", 'robot 3 assembles nothing']
    >>> describe_choices(Choices(assemblies={3: gears(1, 1)}), "fr")
    ['assemblage du Robot 3 : 2 rouges']
    """
    expect(choices, Choices, "choices", "a Choices")
    t = translator(lang)
    lines = [
        t.gettext("robot {defender} takes {steal}").format(
            defender=defender,
            steal=fact_text(ChosenSteal(steal.gear, attacker, steal.source), lang),
        )
        for (defender, attacker), steal in sorted(choices.defence_steals.items())
    ]
    for robot, picked in sorted(choices.assemblies.items()):
        what = gears_text(picked, lang) if picked else t.pgettext("no gears assembled", "nothing")
        lines.append(t.gettext("robot {robot} assembles {gears}").format(robot=robot, gears=what))
    for place, shares in sorted(choices.splits.items(), key=lambda item: str(item[0])):
        parts = ", ".join(
            t.gettext("robot {robot} gets {gears}").format(
                robot=robot, gears=gears_text(share, lang)
            )
            for robot, share in sorted(shares.items())
        )
        lines.append(
            t.gettext("{place} is split: {shares}").format(
                place=place_text(place, lang), shares=parts
            )
        )
    return lines


def refused_choice(error: IllegalChoiceError) -> RefusedChoice:
    """A refused choice as a fact, which :func:`~outofgears.words.findings.fact_text` says in
    English (the error's own message), Italian or French.

    >>> from outofgears.rules.refusals import choice_refused
    >>> error = choice_refused("assembly is mandatory: it must move {count} gears", robot=3,
    ...                        clause="ASM-1", count=2)
    >>> fact_text(refused_choice(error), "en") == str(error)
    True
    """
    expect(error, IllegalChoiceError, "error", "an IllegalChoiceError")
    return RefusedChoice(error.robot, refused(error))


def refusal_json(error: IllegalChoiceError) -> dict[str, Any]:
    """A refused choice as JSON-ready data.

    >>> refusal_json(IllegalChoiceError(3, "no", clause="ASM-1"))["message"]
    'robot 3: no (ASM-1)'
    """
    expect(error, IllegalChoiceError, "error", "an IllegalChoiceError")
    return {
        "robot": error.robot,
        "reason": error.reason,
        "clause": error.clause,
        "message": str(error),
    }


def difference_json(
    difference: TurnDifference, base: str = "base", other: str = "other"
) -> dict[str, Any]:
    """A turn difference as JSON-ready data, its two sides named ``base`` and ``other``.

    >>> difference_json(TurnDifference(EventDifference(), ()), "original", "whatif")
    {'same': True, 'state': [], 'events_only_original': [], 'events_only_whatif': []}
    """
    expect(difference, TurnDifference, "difference", "a TurnDifference")
    return {
        "same": difference.same,
        "state": [_state_json(item, base, other) for item in difference.state],
        f"events_only_{base}": [event_to_dict(event) for event in difference.events.only_base],
        f"events_only_{other}": [event_to_dict(event) for event in difference.events.only_other],
    }


def _state_json(item: StateDifference, base: str, other: str) -> dict[str, Any]:
    data: dict[str, Any] = {"what": item.what, base: item.base, other: item.other}
    if item.base_gears is not None and item.other_gears is not None:
        data[f"{base}_gears"] = to_json(item.base_gears, tuple[Gear, ...])
        data[f"{other}_gears"] = to_json(item.other_gears, tuple[Gear, ...])
    return data


__all__ = [
    "EventDifference",
    "Resolution",
    "StateDifference",
    "TurnDifference",
    "compare_results",
    "describe_choices",
    "diff_events",
    "diff_states",
    "difference_json",
    "drop_refused_choice",
    "place_difference",
    "refusal_json",
    "refused_choice",
    "replay_to_turn",
    "resolve_with_choices",
]
