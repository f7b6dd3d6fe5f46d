"""Seat symmetry of the default policies (ruling R-SYMMETRY).

With all eight robots in play, turning the table -- adding the same k to every robot number,
gear colour and dump number, modulo 8 -- and playing the turned programs with the default
choices gives the turned outcome. The default steal (ATK-5), the assembly pick (ASM-2), the
default split and its rounds (SPL-5), the defenders of a Super Attack (SATK-2), the Super
Shovels' splits (SHOV-1) and the worth of the expansions' gears (VAL-1) all look at the ring
from the robot that decides, so no seat is favoured.

Exploration deals the next gears of the reserve to the dumps in ascending number (R-EXPLORE),
so the turned position also turns the block of gears that the next exploration deals: the gear
that went to dump j goes to dump j + k. A short refill (fewer gears than dumps) fills the
dumps from dump 1 and is not symmetric; those positions drop their reserve.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from outofgears import GameState, Gear, GearKind, Program, apply_turn, from_position
from outofgears.rules.gears import ROBOT_NUMBERS
from outofgears.rules.programs import AnyProgram
from tests.strategies import positions, some_programs

RING = len(ROBOT_NUMBERS)


def turned(number: int, k: int) -> int:
    """Robot (colour, dump) ``number`` once the table is turned by ``k`` seats."""
    return (number - 1 + k) % RING + 1


def turn_gears(gears: tuple[Gear, ...], k: int) -> list[Gear]:
    """The gears with every colour turned; the colourless Jolly and three-point gears stay."""
    return [
        Gear(turned(gear.colour, k)) if gear.kind is GearKind.STANDARD else gear for gear in gears
    ]


def turn_table(state: GameState, k: int, *, next_deal: bool) -> GameState:
    """``state`` with every robot, colour and dump turned by ``k`` seats.

    With ``next_deal`` the first eight gears of the reserve, which the next exploration deals
    one to each dump in ascending number, are reordered so that each goes to the turned dump.
    """
    reserve = turn_gears(state.reserve, k)
    if next_deal and len(reserve) >= RING:
        block = reserve[:RING]
        reserve[:RING] = [block[turned(dump, -k) - 1] for dump in ROBOT_NUMBERS]
    return from_position(
        robots={
            turned(robot.number, k): {
                "feet": turn_gears(robot.feet, k),
                "circuit": turn_gears(robot.circuit, k),
            }
            for robot in state.robots
        },
        dumps={turned(dump.number, k): turn_gears(dump.gears, k) for dump in state.dumps},
        reserve=reserve,
        players={p.name: tuple(turned(r, k) for r in p.robots) for p in state.players},
        turn=state.turn,
        options=state.options,
        upgrades={p.name: p.upgrade for p in state.players if p.upgrade is not None},
    )


def turn_programs(programs: dict[int, AnyProgram], k: int) -> dict[int, AnyProgram]:
    """The same programs laid by the turned robots, naming the turned robots and dumps."""
    return {
        turned(robot, k): (
            Program(program.action, turned(program.number, k))
            if isinstance(program, Program)
            else program
        )
        for robot, program in programs.items()
    }


def table_of(state: GameState) -> tuple[object, ...]:
    """What a turn's outcome is made of, in an order that does not depend on the numbering."""
    return (
        sorted((r.number, r.feet, r.circuit) for r in state.robots),
        sorted((d.number, d.gears) for d in state.dumps),
        state.reserve,
        sorted((p.name, p.robots, p.upgrade is None, str(p.upgrade)) for p in state.players),
        state.turn,
    )


@pytest.mark.clause("ATK-5", "ASM-2", "SPL-5", "SATK-2", "SHOV-1", "VAL-1")
@pytest.mark.ruling("R-SYMMETRY")
@given(
    state=positions(all_robots=True, expansions=True, max_reserve=16),
    k=st.integers(min_value=1, max_value=RING - 1),
    data=st.data(),
)
def test_turning_the_table_turns_the_outcome_of_a_turn(
    state: GameState, k: int, data: st.DataObject
) -> None:
    if 0 < len(state.reserve) < RING:
        state = attrs.evolve(state, reserve=())
    programs = data.draw(some_programs(state))
    note(f"programs: {programs}")
    after = apply_turn(state, programs)
    after_turned = apply_turn(turn_table(state, k, next_deal=True), turn_programs(programs, k))
    assert table_of(after_turned) == table_of(turn_table(after, k, next_deal=False))
    assert after_turned.game_over == after.game_over
