"""The table: a private working copy of a position while a turn resolves.

Resolution never touches a :class:`~outofgears.model.GameState`. Each phase
reads a :class:`Table`, returns the events it causes, and the pipeline applies
those events to the table; at the end the table is frozen into the new state.
:func:`apply_events` runs the very same code, which is why the events of a
turn applied to the old state always give the new one.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from outofgears.errors import InvalidStateError
from outofgears.events import Event, GearMoved, TurnEnded, UpgradeDiscarded
from outofgears.gears import Gear
from outofgears.model import Dump, GameState, Place, PlaceKind, UpgradeCard


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
        """The position on the table as a new immutable state."""
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
    return table.freeze()
