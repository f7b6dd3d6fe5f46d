"""The engine's fast paths agree with the clear, checked versions they replace.

:meth:`outofgears.table.Table.freeze` builds the state after a turn without re-running the
converters and :func:`outofgears.model.check_state`; :meth:`~outofgears.table.Table.freeze_checked`
builds it with the public constructors. Both must give equal states, field for field, over
random positions, programs and expansions. :func:`outofgears.traps.trappers_of` and
:func:`~outofgears.traps.harvesters_of` scan the programs once; they must agree with
:func:`~outofgears.traps.robots_programming` and :func:`~outofgears.traps.robots_laying`.
"""

from __future__ import annotations

import attrs
from hypothesis import given
from hypothesis import strategies as st

from outofgears import GameState, apply_turn, resolve_turn
from outofgears.model import Dump, Robot, UpgradeCard
from outofgears.programs import Action
from outofgears.table import Table
from outofgears.traps import harvesters_of, robots_laying, robots_programming, trappers_of
from tests.strategies import legal_programs, positions


def assert_same_state(fast: GameState, checked: GameState) -> None:
    assert fast == checked
    for name in ("robots", "dumps", "reserve", "players"):
        assert type(getattr(fast, name)) is tuple
    for robot in fast.robots:
        assert type(robot.feet) is tuple
        assert type(robot.circuit) is tuple
    assert [r.number for r in fast.robots] == sorted(r.number for r in fast.robots)


def test_the_fast_path_sets_every_field_of_the_classes_it_builds() -> None:
    assert [f.name for f in attrs.fields(Robot)] == ["number", "player", "feet", "circuit"]
    assert [f.name for f in attrs.fields(Dump)] == ["number", "gears"]
    assert [f.name for f in attrs.fields(GameState)] == [
        "robots", "dumps", "reserve", "players", "turn", "options", "game_over"
    ]  # fmt: skip


@given(data=st.data(), expansions=st.booleans())
def test_a_turn_frozen_by_the_fast_path_equals_the_checked_state(
    data: st.DataObject, expansions: bool
) -> None:
    state = data.draw(positions(expansions=expansions))
    programs = data.draw(legal_programs(state))
    result = resolve_turn(state, programs)
    table = Table(state)
    table.apply_all(result.events)
    assert_same_state(result.state, table.freeze_checked())
    assert_same_state(table.freeze(), table.freeze_checked())
    assert apply_turn(state, programs) == result.state


@given(data=st.data())
def test_trappers_and_harvesters_are_the_robots_programming_and_laying_the_card(
    data: st.DataObject,
) -> None:
    state = data.draw(positions(expansions=True))
    programs = data.draw(legal_programs(state))
    for dump in state.robot_numbers:
        assert trappers_of(programs, dump) == tuple(
            sorted(
                robots_programming(programs, Action.TRAP, dump)
                + robots_laying(programs, UpgradeCard.SUPER_TRAP)
            )
        )
        assert harvesters_of(programs, dump) == tuple(
            sorted(
                robots_programming(programs, Action.HARVEST, dump)
                + robots_laying(programs, UpgradeCard.SUPER_HARVEST)
            )
        )
