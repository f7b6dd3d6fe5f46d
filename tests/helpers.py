"""Small builders that keep table situations short to write in tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from outofgears import GameState, Gear, Options, Program, from_position, gears


def programs(**by_robot: str) -> dict[int, Program]:
    """Programs written the way a table says them: ``programs(r1="attack 2", r2="trap 1")``."""
    return {int(name.lstrip("r")): Program.parse(text) for name, text in by_robot.items()}


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
