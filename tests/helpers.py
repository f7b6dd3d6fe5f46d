"""Small builders that keep table situations short to write in tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from outofgears import (
    Action,
    ActionResolved,
    GameState,
    Gear,
    GearMoved,
    Options,
    Outcome,
    Program,
    SplitResolved,
    TurnResult,
    from_position,
    gears,
)


def programs(**by_robot: str) -> dict[int, Program]:
    """Programs written the way a table says them: ``programs(r1="attack 2", r2="trap 1")``."""
    return {int(name.lstrip("r")): Program.parse(text) for name, text in by_robot.items()}


def everyone_defends(state: GameState) -> dict[int, Program]:
    """Programs under which no gear moves in activation: every robot guards itself."""
    return {robot: Program(Action.ATTACK, robot) for robot in state.robot_numbers}


def position(
    *,
    feet: Mapping[int, Iterable[int]] | None = None,
    circuit: Mapping[int, Iterable[int]] | None = None,
    dumps: Mapping[int, Iterable[int]],
    reserve: Iterable[int] = (),
    players: Mapping[str, tuple[int, ...]] | None = None,
    options: Options | None = None,
    turn: int = 1,
) -> GameState:
    """A position from colour numbers: ``position(feet={1: [2, 2]}, dumps={1: [3], 2: []})``.

    The robots in play are the dumps' numbers; feet and circuits default to empty.
    """
    feet = feet or {}
    circuit = circuit or {}
    return from_position(
        robots={
            n: {"feet": gears(*feet.get(n, ())), "circuit": gears(*circuit.get(n, ()))}
            for n in dumps
        },
        dumps={n: gears(*pile) for n, pile in dumps.items()},
        reserve=tuple(Gear(c) for c in reserve),
        players=players,
        options=options,
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
