"""Small builders that keep table situations short to write in tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from outofgears import (
    Action,
    ActionResolved,
    Event,
    GameState,
    Gear,
    GearMoved,
    Options,
    Outcome,
    Place,
    PlaceKind,
    Program,
    SplitResolved,
    TurnResult,
    UpgradeCard,
    from_position,
)
from outofgears.rules.gears import sort_gears


def programs(**by_robot: str) -> dict[int, Program]:
    """Programs written the way a table says them: ``programs(r1="attack 2", r2="trap 1")``."""
    return {int(name.lstrip("r")): Program.parse(text) for name, text in by_robot.items()}


def everyone_defends(state: GameState) -> dict[int, Program]:
    """Programs under which no gear moves in activation: every robot guards itself."""
    return {robot: Program(Action.ATTACK, robot) for robot in state.robot_numbers}


def as_gear(item: int | Gear) -> Gear:
    """A gear given as itself, or as a colour number for a standard gear."""
    return item if isinstance(item, Gear) else Gear(item)


def position(
    *,
    feet: Mapping[int, Iterable[int | Gear]] | None = None,
    circuit: Mapping[int, Iterable[int | Gear]] | None = None,
    dumps: Mapping[int, Iterable[int | Gear]],
    reserve: Iterable[int | Gear] = (),
    players: Mapping[str, tuple[int, ...]] | None = None,
    options: Options | None = None,
    upgrades: Mapping[str, UpgradeCard] | None = None,
    turn: int = 1,
) -> GameState:
    """A position from colour numbers: ``position(feet={1: [2, 2]}, dumps={1: [3], 2: []})``.

    The robots in play are the dumps' numbers; feet and circuits default to empty. A gear
    may also be given as a :class:`Gear` (a Jolly, a three-point gear). Feet, circuits and
    dumps are sorted; the reserve stays in the order given, its draw order. ``upgrades``:
    the upgrade cards the players still hold.
    """
    feet = feet or {}
    circuit = circuit or {}
    return from_position(
        robots={
            n: {
                "feet": sort_gears(map(as_gear, feet.get(n, ()))),
                "circuit": sort_gears(map(as_gear, circuit.get(n, ()))),
            }
            for n in dumps
        },
        dumps={n: sort_gears(map(as_gear, pile)) for n, pile in dumps.items()},
        reserve=tuple(map(as_gear, reserve)),
        players=players,
        options=options,
        upgrades=upgrades,
        turn=turn,
    )


def feet_of(state: GameState) -> dict[int, tuple[Gear, ...]]:
    """Every robot's feet gears."""
    return {robot.number: robot.feet for robot in state.robots}


def circuits_of(state: GameState) -> dict[int, tuple[Gear, ...]]:
    """Every robot's circuit gears."""
    return {robot.number: robot.circuit for robot in state.robots}


def dumps_of(state: GameState) -> dict[int, tuple[Gear, ...]]:
    """Every dump's gears."""
    return {dump.number: dump.gears for dump in state.dumps}


def moves(result: TurnResult, clause: str) -> Counter[GearMoved]:
    """The gear movements a clause caused, as a multiset."""
    return Counter(e for e in result.events if isinstance(e, GearMoved) and e.clause == clause)


def outcomes(result: TurnResult) -> list[tuple[int, Outcome, str]]:
    """Every program's outcome and deciding clause, by robot."""
    return sorted(
        (e.robot, e.outcome, e.clause) for e in result.events if isinstance(e, ActionResolved)
    )


def splits(result: TurnResult) -> list[SplitResolved]:
    """The splits of the turn."""
    return [e for e in result.events if isinstance(e, SplitResolved)]


class GearTable:
    """A position as lists of gears that events are replayed on, written apart from the
    engine's table: the tests read where gears stood at a point of a turn from it."""

    def __init__(self, state: GameState) -> None:
        self.feet: dict[int, list[Gear]] = {r.number: list(r.feet) for r in state.robots}
        self.circuit: dict[int, list[Gear]] = {r.number: list(r.circuit) for r in state.robots}
        self.dumps: dict[int, list[Gear]] = {d.number: list(d.gears) for d in state.dumps}
        self.reserve: list[Gear] = list(state.reserve)

    def gears_at(self, place: Place) -> list[Gear]:
        """The live list of gears at ``place``."""
        if place.kind is PlaceKind.FEET:
            return self.feet[place.number]
        if place.kind is PlaceKind.CIRCUIT:
            return self.circuit[place.number]
        if place.kind is PlaceKind.DUMP:
            return self.dumps[place.number]
        return self.reserve

    def apply(self, event: Event) -> None:
        """Move the gear of a :class:`GearMoved`; other events change no place."""
        if isinstance(event, GearMoved):
            self.gears_at(event.source).remove(event.gear)
            self.gears_at(event.destination).append(event.gear)

    def apply_all(self, events: Iterable[Event]) -> None:
        """Replay events in order."""
        for event in events:
            self.apply(event)
