"""The table: a private working copy of a position while a turn resolves.

Resolution never touches a :class:`~outofgears.model.GameState`. Each phase
reads a :class:`Table`, returns the events it causes, and the pipeline applies
those events to the table; at the end the table is frozen into the new state.
:func:`apply_events` runs the very same code, which is why the events of a
turn applied to the old state always give the new one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

import attrs

from outofgears.errors import InvalidStateError
from outofgears.events import Event, GearMoved, TurnEnded, UpgradeDiscarded
from outofgears.gears import Gear, sort_gears
from outofgears.model import Dump, GameState, Place, PlaceKind, Robot, UpgradeCard

_T = TypeVar("_T")


def _trusted(cls: type[_T], **values: object) -> _T:
    """An instance of the frozen attrs class ``cls`` built without its converters and validators.

    Only for values already in the form the converters produce (tuples, gears sorted) and a
    position already known to hang together: see :meth:`Table.freeze`.
    """
    instance = object.__new__(cls)
    for name, value in values.items():
        object.__setattr__(instance, name, value)
    return instance


class Table:
    """Mutable lists of gears for one position, indexed by place."""

    __slots__ = ("circuit", "dumps", "feet", "game_over", "reserve", "state", "turn", "upgrades")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.feet: dict[int, list[Gear]] = {r.number: list(r.feet) for r in state.robots}
        self.circuit: dict[int, list[Gear]] = {r.number: list(r.circuit) for r in state.robots}
        self.dumps: dict[int, list[Gear]] = {d.number: list(d.gears) for d in state.dumps}
        self.reserve: list[Gear] = list(state.reserve)
        self.upgrades: dict[str, UpgradeCard | None] = {p.name: p.upgrade for p in state.players}
        self.turn = state.turn
        self.game_over = state.game_over

    def gears_at(self, place: Place) -> list[Gear]:
        """The live list of gears at ``place``."""
        try:
            if place.kind is PlaceKind.FEET:
                return self.feet[place.number]
            if place.kind is PlaceKind.CIRCUIT:
                return self.circuit[place.number]
            if place.kind is PlaceKind.DUMP:
                return self.dumps[place.number]
        except KeyError:
            raise InvalidStateError(f"{place} is not in play") from None
        return self.reserve

    def apply(self, event: Event) -> None:
        """Carry out one event: move a gear, or close the turn."""
        if isinstance(event, GearMoved):
            source = self.gears_at(event.source)
            try:
                source.remove(event.gear)
            except ValueError:
                raise InvalidStateError(
                    f"no {event.gear} gear at {event.source} to move ({event.clause})"
                ) from None
            self.gears_at(event.destination).append(event.gear)
        elif isinstance(event, UpgradeDiscarded):
            if self.upgrades.get(event.player) is not event.card:
                raise InvalidStateError(
                    f"player {event.player!r} does not hold {event.card.value} ({event.clause})"
                )
            self.upgrades[event.player] = None
        elif isinstance(event, TurnEnded):
            self.turn = event.turn + 1
            self.game_over = event.game_over

    def apply_all(self, events: Iterable[Event]) -> None:
        """Carry out events in order."""
        for event in events:
            self.apply(event)

    def freeze(self) -> GameState:
        """The position on the table as a new immutable state, built by the fast path.

        Used at the end of a turn, whose events only move gears that are there
        (:meth:`apply` checks it), so the new position keeps every gear and every
        player of the checked state the table started from. The robots, dumps and
        state are built with their fields already in canonical form and without
        re-running :func:`~outofgears.model.check_state`; what is unchanged is
        shared. :meth:`freeze_checked` is the reference it is tested against.
        """
        state = self.state
        robots = tuple(
            robot
            if feet == list(robot.feet) and circuit == list(robot.circuit)
            else _trusted(
                Robot,
                number=robot.number,
                player=robot.player,
                feet=sort_gears(feet),
                circuit=sort_gears(circuit),
            )
            for robot in state.robots
            for feet, circuit in ((self.feet[robot.number], self.circuit[robot.number]),)
        )
        dumps = tuple(
            dump
            if gears == list(dump.gears)
            else _trusted(Dump, number=dump.number, gears=sort_gears(gears))
            for dump in state.dumps
            for gears in (self.dumps[dump.number],)
        )
        players = tuple(
            player
            if player.upgrade is self.upgrades[player.name]
            else attrs.evolve(player, upgrade=self.upgrades[player.name])
            for player in state.players
        )
        return _trusted(
            GameState,
            robots=robots,
            dumps=dumps,
            reserve=tuple(self.reserve),
            players=players,
            turn=self.turn,
            options=state.options,
            game_over=self.game_over,
        )

    def freeze_checked(self) -> GameState:
        """The position on the table as a new state built by the public, checked constructors."""
        robots = tuple(
            attrs.evolve(robot, feet=self.feet[robot.number], circuit=self.circuit[robot.number])
            for robot in self.state.robots
        )
        dumps = tuple(Dump(number, gears) for number, gears in self.dumps.items())
        players = tuple(
            attrs.evolve(player, upgrade=self.upgrades[player.name])
            for player in self.state.players
        )
        return attrs.evolve(
            self.state,
            robots=robots,
            dumps=dumps,
            reserve=tuple(self.reserve),
            players=players,
            turn=self.turn,
            game_over=self.game_over,
        )


def apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    """The state that ``events`` lead to from ``state``.

    Applied to the events of a turn, this gives exactly the state that
    :func:`outofgears.apply_turn` returned.

    >>> from outofgears import Program, resolve_turn, setup_game
    >>> state = setup_game([1, 2], seed=3)
    >>> programs = {1: Program.parse("harvest 1"), 2: Program.parse("harvest 2")}
    >>> result = resolve_turn(state, programs)
    >>> apply_events(state, result.events) == result.state
    True
    """
    table = Table(state)
    table.apply_all(events)
    return table.freeze_checked()
