"""The turn pipeline: :func:`apply_turn` and :func:`resolve_turn` (spec TURN-1).

A turn is programming (validated here), then activation -- attacks with
defences first, traps, harvests --, assembly, exploration, and the end check,
in the rulebooks' order. Each phase reads the table and returns events; the
pipeline applies them before the next phase. The new state is built from the
events alone.

That pipeline is the reference (:func:`resolve_turn_reference`). Turns played with
the default choices take a fast path that gives the same state and events on plain
integers (:mod:`outofgears.fastturn`); :func:`use_engine` chooses between them, or
runs both and compares them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal

from attrs import frozen

from outofgears.assembly import assemble_circuits
from outofgears.attacks import (
    attackers_by_target,
    resolve_defences,
    standing_defenders,
    strike_attacks,
)
from outofgears.choices import NO_CHOICES, Choices
from outofgears.errors import EngineMismatchError, IllegalChoiceError
from outofgears.events import Event, GearMoved
from outofgears.exploration import explore_dumps
from outofgears.fastturn import resolve_turn_fast
from outofgears.harvests import harvest_dumps
from outofgears.model import GameState, Place
from outofgears.programs import Programs, validate_programs
from outofgears.scoring import end_turn_events
from outofgears.table import Table
from outofgears.traps import harvesters_of, spring_traps
from outofgears.upgrades import discard_played_upgrades, shovel_dumps

Phase = Callable[[Table, Programs, Choices], list[Event]]

#: The phases of a turn in the rulebooks' order (TURN-1, ATK-2).
PHASES: Final[tuple[Phase, ...]] = (
    resolve_defences,
    strike_attacks,
    spring_traps,
    harvest_dumps,
    shovel_dumps,
    assemble_circuits,
    explore_dumps,
    discard_played_upgrades,
)


@frozen
class TurnResult:
    """A resolved turn: the new state and the events that lead to it.

    Attributes:
        state: The state after the turn.
        events: Everything that happened, in order; applied to the old state
            with :func:`outofgears.apply_events` they give ``state``.
    """

    state: GameState
    events: tuple[Event, ...]

    @property
    def moves(self) -> tuple[GearMoved, ...]:
        """Only the gear movements."""
        return tuple(event for event in self.events if isinstance(event, GearMoved))


Engine = Literal["fast", "reference", "checked"]
_ENGINES: Final[tuple[str, ...]] = ("fast", "reference", "checked")
_engine: Engine = "fast"


def use_engine(engine: Engine) -> Engine:
    """Choose how turns with the default choices are resolved; returns the previous choice.

    * ``"fast"`` (the default): :mod:`outofgears.fastturn`, on plain integers.
    * ``"reference"``: the phase pipeline, :func:`resolve_turn_reference`.
    * ``"checked"``: both, raising :class:`~outofgears.errors.EngineMismatchError` if the
      states or the events differ (the test suite's setting).

    Turns with explicit choices always go through the reference pipeline.

    >>> previous = use_engine("checked")
    >>> use_engine(previous)
    'checked'
    """
    global _engine
    if engine not in _ENGINES:
        raise ValueError(f"the engine is one of {', '.join(_ENGINES)}, not {engine!r}")
    previous, _engine = _engine, engine
    return previous


def _default_choices(choices: Choices | None) -> bool:
    return choices is None or not (choices.defence_steals or choices.assemblies or choices.splits)


def resolve_turn(
    state: GameState,
    programs: Programs,
    *,
    choices: Choices | None = None,
) -> TurnResult:
    """Play one turn and keep its events.

    With no explicit choices the fast path resolves it (:mod:`outofgears.fastturn`,
    unless :func:`use_engine` says otherwise); with choices, the reference pipeline.

    Args:
        state: The position before the turn; it is not modified.
        programs: Each robot in play's program (an action card and a number).
        choices: Post-reveal decisions; where absent, the default policies decide.

    Returns:
        The new state and the events of the turn.

    Raises:
        IllegalProgramError: A program the rules do not allow, naming the robot.
        IllegalChoiceError: A choice the rules do not allow, naming the robot.
        GameOverError: The game was already over.

    >>> from outofgears import Program, setup_game
    >>> state = setup_game([1, 2], seed=5)
    >>> result = resolve_turn(state, {1: Program.parse("harvest 2"),
    ...                               2: Program.parse("trap 2")})
    >>> [str(e) for e in result.events[:2]]
    ['robot 1 harvest 2: harvest voided by a trap [TRP-2]', 'robot 2 trap 2: trap sprang [TRP-3]']
    """
    if _engine == "reference" or not _default_choices(choices):
        return resolve_turn_reference(state, programs, choices=choices)
    new_state, events = resolve_turn_fast(state, programs)
    if _engine == "checked":
        _check_against_reference(state, programs, new_state, events)
    return TurnResult(new_state, events)


def resolve_turn_reference(
    state: GameState,
    programs: Programs,
    *,
    choices: Choices | None = None,
) -> TurnResult:
    """:func:`resolve_turn` by the reference pipeline: the phase modules, one after another.

    This is the plain implementation of the rules that the fast path
    (:mod:`outofgears.fastturn`) is tested against; it gives the same result, slower.

    >>> from outofgears import Program, setup_game
    >>> state = setup_game([1, 2], seed=5)
    >>> programs = {1: Program.parse("harvest 2"), 2: Program.parse("trap 2")}
    >>> resolve_turn_reference(state, programs) == resolve_turn(state, programs)
    True
    """
    validate_programs(state, programs)
    return _resolve_by_phases(state, programs, choices)


def _check_against_reference(
    state: GameState, programs: Programs, new_state: GameState, events: tuple[Event, ...]
) -> None:
    reference = _resolve_by_phases(state, programs, None)
    if reference.state != new_state:
        raise EngineMismatchError(state, programs, "state")
    if reference.events != events:
        raise EngineMismatchError(state, programs, "events")


def _resolve_by_phases(state: GameState, programs: Programs, choices: Choices | None) -> TurnResult:
    decided = choices if choices is not None else NO_CHOICES
    check_split_choices_name_real_splits(state, programs, decided)
    table = Table(state)
    events: list[Event] = []
    for phase in PHASES:
        produced = phase(table, programs, decided)
        table.apply_all(produced)
        events.extend(produced)
    closing = end_turn_events(state.turn, table.reserve, table.dumps)
    table.apply_all(closing)
    events.extend(closing)
    return TurnResult(table.freeze(), tuple(events))


def apply_turn(
    state: GameState,
    programs: Programs,
    *,
    choices: Choices | None = None,
) -> GameState:
    """Play one turn: the state after it (spec TURN-1). Pure: ``state`` is not modified.

    Use :func:`resolve_turn` to also get the events; with no explicit choices this builds
    none at all, which makes it about twice as fast.

    >>> from outofgears import Program, setup_game
    >>> state = setup_game([1, 2], seed=5)
    >>> after = apply_turn(state, {1: Program.parse("harvest 1"), 2: Program.parse("harvest 2")})
    >>> after.turn, len(after.robot(1).feet) + len(after.robot(1).circuit)
    (2, 2)
    """
    if _engine != "fast" or not _default_choices(choices):
        return resolve_turn(state, programs, choices=choices).state
    return resolve_turn_fast(state, programs, record=False)[0]


def places_split_this_turn(state: GameState, programs: Programs) -> set[Place]:
    """The places that takers share this turn: attacked robots' feet, harvested dumps.

    A harvested dump is shared by its harvesters, or by its trappers if it is
    trapped. Super Shovels always split by the default policy (ruling R-SHOVEL).

    >>> from outofgears.setup import setup_game
    >>> from outofgears.programs import Program
    >>> state = setup_game([1, 2], seed=1)
    >>> sorted(str(p) for p in places_split_this_turn(state, {1: Program.parse("attack 2"),
    ...                                                       2: Program.parse("harvest 1")}))
    ['dump 1', 'robot 2 feet']
    """
    guarding = set(standing_defenders(programs))
    places = {
        Place.feet(victim)
        for victim in attackers_by_target(programs, state.robot_numbers)
        if victim not in guarding
    }
    places |= {Place.dump(dump) for dump in state.robot_numbers if harvesters_of(programs, dump)}
    return places


def check_split_choices_name_real_splits(
    state: GameState, programs: Programs, choices: Choices
) -> None:
    """An explicit split must name a place that something takes from this turn (SPL-5)."""
    if not choices.splits:
        return
    real = places_split_this_turn(state, programs)
    for place in choices.splits:
        if place not in real:  # only feet and dumps are ever split
            named = sorted(choices.splits[place])
            raise IllegalChoiceError(
                named[0] if named else None,
                f"nothing takes gears from {place} this turn",
                clause="SPL-5",
            )
