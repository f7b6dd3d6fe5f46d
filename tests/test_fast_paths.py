"""The engine's fast paths agree with the clear, checked versions they replace.

:mod:`outofgears.fastturn` resolves a turn on plain integers; the phase pipeline
(:func:`outofgears.turn.resolve_turn_reference`) is the reference. Both must give the same
state and the same events, in order, on random positions of every option and variant, with
programs that collide (splits, voided attacks, sprung traps, upgrades), and refuse the same
illegal programs with the same error. The suite also runs every turn it plays through both
(``use_engine("checked")`` in ``tests/conftest.py``); a test here proves that check can fail.

:meth:`outofgears.table.Table.freeze` builds the state after a turn without re-running the
converters and :func:`outofgears.model.check_state`; :meth:`~outofgears.table.Table.freeze_checked`
builds it with the public constructors. Both must give equal states, field for field, over
random positions, programs and expansions. :func:`outofgears.traps.trappers_of` and
:func:`~outofgears.traps.harvesters_of` scan the programs once; they must agree with
:func:`~outofgears.traps.robots_programming` and :func:`~outofgears.traps.robots_laying`.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from outofgears import (
    EngineMismatchError,
    GameState,
    Gear,
    Options,
    OutOfGearsError,
    Program,
    UpgradeProgram,
    apply_turn,
    fastturn,
    resolve_turn,
    resolve_turn_reference,
    setup_game,
    use_engine,
)
from outofgears.events import ActionResolved, Event, GearMoved, TurnEnded
from outofgears.fastturn import resolve_turn_fast
from outofgears.gears import CANONICAL_GEARS, GearKind
from outofgears.model import Dump, Player, Robot, UpgradeCard
from outofgears.programs import Action, AnyProgram
from outofgears.table import Table, _trusted
from outofgears.traps import harvesters_of, robots_laying, robots_programming, trappers_of
from tests.strategies import crowded_programs, legal_programs, positions


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
    assert [f.name for f in attrs.fields(Player)] == ["name", "robots", "upgrade"]
    assert [f.name for f in attrs.fields(GearMoved)] == [
        "gear", "source", "destination", "robot", "clause"
    ]  # fmt: skip
    assert [f.name for f in attrs.fields(ActionResolved)] == [
        "robot",
        "program",
        "outcome",
        "clause",
    ]


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


def assert_fast_path_agrees(state: GameState, programs: dict[int, AnyProgram]) -> None:
    reference = resolve_turn_reference(state, programs)
    recorded = resolve_turn_fast(state, programs)
    silent = resolve_turn_fast(state, programs, record=False)
    assert recorded == (reference.state, reference.events)
    assert silent == (reference.state, ())
    assert_same_state(recorded[0], reference.state)


@given(data=st.data(), expansions=st.booleans(), crowded=st.booleans())
def test_the_fast_path_gives_the_reference_state_and_events(
    data: st.DataObject, expansions: bool, crowded: bool
) -> None:
    state = data.draw(positions(expansions=expansions))
    programs = data.draw(crowded_programs(state) if crowded else legal_programs(state))
    assert_fast_path_agrees(state, programs)


@given(data=st.data())
def test_the_fast_path_agrees_over_a_whole_game(data: st.DataObject) -> None:
    state = data.draw(positions(expansions=True))
    for _ in range(12):
        if state.game_over:
            break
        programs = data.draw(crowded_programs(state))
        assert_fast_path_agrees(state, programs)
        state = resolve_turn_fast(state, programs, record=False)[0]


def _gear_copy(gear: Gear) -> Gear:
    """An equal gear that is not the shared instance the model's constructors keep."""
    copy: Gear = object.__new__(Gear)
    object.__setattr__(copy, "colour", gear.colour)
    object.__setattr__(copy, "kind", gear.kind)
    return copy


@given(data=st.data())
def test_the_fast_path_reads_gears_that_are_not_the_shared_instances(
    data: st.DataObject,
) -> None:
    # A state built around the constructors (as Table.freeze does after explicit choices)
    # may hold gears that are equal to, but not, the shared instances.
    state = data.draw(positions(expansions=True))
    copied = _trusted(
        GameState,
        robots=tuple(
            _trusted(
                Robot,
                number=r.number,
                player=r.player,
                feet=tuple(map(_gear_copy, r.feet)),
                circuit=tuple(map(_gear_copy, r.circuit)),
            )
            for r in state.robots
        ),
        dumps=tuple(
            _trusted(Dump, number=d.number, gears=tuple(map(_gear_copy, d.gears)))
            for d in state.dumps
        ),
        reserve=tuple(map(_gear_copy, state.reserve)),
        players=state.players,
        turn=state.turn,
        options=state.options,
        game_over=state.game_over,
    )
    assert copied == state
    assert all(a is not b for a, b in zip(copied.reserve, state.reserve, strict=True))
    programs = data.draw(crowded_programs(state))
    assert_fast_path_agrees(copied, programs)


def test_the_model_keeps_the_shared_gear_instances() -> None:
    robot = Robot(1, "Ada", feet=(Gear(2), Gear(1)), circuit=(Gear(0, GearKind.JOLLY),))
    assert robot.feet[0] is CANONICAL_GEARS[0]
    assert robot.feet[1] is CANONICAL_GEARS[1]
    assert robot.circuit[0] is CANONICAL_GEARS[8]


def _illegal_programs() -> st.SearchStrategy[dict[int, object]]:
    program = st.one_of(
        st.builds(Program, st.sampled_from(list(Action)), st.integers(1, 8)),
        st.builds(UpgradeProgram, st.sampled_from(list(UpgradeCard))),
        st.just("attack 1"),
        st.none(),
    )
    return st.dictionaries(st.integers(0, 9), program, max_size=9)


def _outcome(play: object, *args: object) -> object:
    try:
        result = play(*args)  # type: ignore[operator]
    except OutOfGearsError as error:
        return (type(error), str(error))
    return result


@given(data=st.data(), expansions=st.booleans())
def test_the_fast_path_refuses_what_the_reference_refuses(
    data: st.DataObject, expansions: bool
) -> None:
    state = data.draw(positions(expansions=expansions))
    programs = data.draw(st.one_of(_illegal_programs(), legal_programs(state)))
    fast = _outcome(lambda: resolve_turn_fast(state, programs)[0])  # type: ignore[arg-type]
    reference = _outcome(lambda: resolve_turn_reference(state, programs).state)  # type: ignore[arg-type]
    assert fast == reference


def test_a_finished_game_is_refused_by_the_fast_path_too() -> None:
    state = setup_game([1, 2], seed=1)
    finished = _trusted(
        GameState, **{**{a: getattr(state, a) for a in _STATE_FIELDS}, "game_over": True}
    )
    programs = {1: Program.parse("harvest 1"), 2: Program.parse("harvest 2")}
    assert _outcome(lambda: resolve_turn_fast(finished, programs)) == _outcome(
        lambda: resolve_turn_reference(finished, programs)
    )
    assert "PRG-5" in str(_outcome(lambda: apply_turn(finished, programs)))


_STATE_FIELDS = ("robots", "dumps", "reserve", "players", "turn", "options", "game_over")


def test_the_checked_engine_fails_when_the_fast_path_strays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = setup_game([1, 2, 3], seed=4)
    programs = {
        1: Program.parse("harvest 1"),
        2: Program.parse("attack 1"),
        3: Program.parse("trap 2"),
    }
    real = fastturn.resolve_turn_fast

    def dropping_an_event(
        state: GameState, programs: object, *, record: bool = True
    ) -> tuple[GameState, tuple[Event, ...]]:
        new_state, events = real(state, programs, record=record)  # type: ignore[arg-type]
        return new_state, events[:-1]

    def a_turn_late(
        state: GameState, programs: object, *, record: bool = True
    ) -> tuple[GameState, tuple[Event, ...]]:
        new_state, events = real(state, programs, record=record)  # type: ignore[arg-type]
        return _trusted(
            GameState, **{**{a: getattr(new_state, a) for a in _STATE_FIELDS}, "turn": 9}
        ), events

    previous = use_engine("checked")
    try:
        for stray, what in ((dropping_an_event, "events"), (a_turn_late, "state")):
            monkeypatch.setattr("outofgears.turn.resolve_turn_fast", stray)
            with pytest.raises(EngineMismatchError) as raised:
                resolve_turn(state, programs)
            assert raised.value.what == what
            assert raised.value.state is state
    finally:
        use_engine(previous)


@pytest.mark.parametrize("engine", ["fast", "reference", "checked"])
def test_every_engine_gives_the_same_turn(engine: str) -> None:
    state = setup_game([1, 2, 3, 4], seed=8, options=Options(upgrades=True))
    programs = {
        1: Program.parse("attack 1"),
        2: Program.parse("attack 1"),
        3: Program.parse("harvest 2"),
        4: Program.parse("trap 2"),
    }
    expected = resolve_turn_reference(state, programs)
    previous = use_engine(engine)  # type: ignore[arg-type]
    try:
        assert resolve_turn(state, programs) == expected
        assert apply_turn(state, programs) == expected.state
        assert isinstance(expected.events[-1], TurnEnded)
    finally:
        use_engine(previous)


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="fast, reference, checked"):
        use_engine("turbo")  # type: ignore[arg-type]


def test_small_gear_tuples_are_shared_and_bounded() -> None:
    state = setup_game([1, 2, 3, 4, 5, 6, 7, 8], seed=2)
    after = apply_turn(state, {n: Program(Action.HARVEST, n) for n in range(1, 9)})
    before = dict(fastturn._SMALL_MULTISETS)
    again = apply_turn(state, {n: Program(Action.HARVEST, n) for n in range(1, 9)})
    assert [d.gears for d in again.dumps] == [d.gears for d in after.dumps]
    assert all(a.gears is b.gears for a, b in zip(again.dumps, after.dumps, strict=True))
    assert before == fastturn._SMALL_MULTISETS
    assert all(len(key) <= fastturn._SMALL for key in fastturn._SMALL_MULTISETS)
