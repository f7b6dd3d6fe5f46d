"""The turn: :func:`apply_turn` and :func:`resolve_turn` (spec TURN-1).

A turn is programming (checked when the programs are read), then activation -- attacks with
defences first, traps, harvests (and the Super Shovels) --, assembly, exploration, and the end
check, in the rulebooks' order. :func:`plan_turn` lays activation out as a list of steps, each
a function of the rules module named after its rulebook concern, and :func:`play_turn` runs
them on a :class:`~outofgears.rules.table.Table`, then the phases that close the turn. The same steps
run with or without events and with or without the players' choices: a choice is read by the
step that makes the decision, and where there is none the step applies its clause's default
policy.
"""

from __future__ import annotations

from attrs import frozen

from outofgears.errors import ArgumentTypeError
from outofgears.rules.assembly import assemble_circuits, check_assembly_choices
from outofgears.rules.attacks import (
    attackers_by_target,
    check_defence_steal_choices,
    plan_attacks,
    standing_defenders,
)
from outofgears.rules.choices import Choices
from outofgears.rules.events import Event, GearMoved
from outofgears.rules.exploration import explore_dumps
from outofgears.rules.harvests import plan_harvests
from outofgears.rules.model import GameState, Place, on_built_state
from outofgears.rules.programs import ProgramReading, Programs
from outofgears.rules.refusals import choice_refused
from outofgears.rules.scoring import end_turn, table_scores
from outofgears.rules.table import DUMP, FEET, Plan, Table
from outofgears.rules.traps import harvesters_of, plan_traps
from outofgears.rules.upgrades import discard_played_upgrades, plan_shovels
from outofgears.rules.variant import PlayerScore


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


def plan_turn(reading: ProgramReading) -> Plan:
    """The steps of activation in the rulebooks' order (TURN-1, ATK-2, SHOV-1): each runs as
    ``step(table, reading, subject)``.

    >>> from outofgears import Program, setup_game
    >>> state = setup_game([1, 2], seed=5)
    >>> reading = ProgramReading(state, {1: Program.parse("harvest 2"), 2: Program.parse("trap 2")})
    >>> [(step.__name__, subject) for step, subject in plan_turn(reading)]
    [('spring_trap', 2)]
    """
    plan: Plan = []
    plan_attacks(plan, reading)
    plan_traps(plan, reading)
    plan_harvests(plan, reading)
    if reading.upgrades:
        plan_shovels(plan, reading)
    return plan


def play_turn(table: Table, reading: ProgramReading) -> None:
    """Play the turn on ``table``: activation as :func:`plan_turn` lays it out, then assembly,
    exploration, the discards of the upgrade cards laid, and the end check (TURN-1, UPG-3)."""
    for step, subject in plan_turn(reading):
        step(table, reading, subject)
    assemble_circuits(table)
    explore_dumps(table)
    if reading.upgrades:
        discard_played_upgrades(table, reading)
    end_turn(table)


def _play(state: GameState, programs: Programs, choices: Choices | None, record: bool) -> Table:
    reading = ProgramReading(state, programs)
    if choices is not None and type(choices) is not Choices and not isinstance(choices, Choices):
        raise ArgumentTypeError("choices", "a Choices or None", choices)
    if choices is not None:
        if choices.defence_steals or choices.assemblies or choices.splits:
            check_choices(reading, choices)
        else:
            choices = None
    table = Table(state, record=record, choices=choices, numbers=reading.numbers)
    play_turn(table, reading)
    return table


@on_built_state
def resolve_turn(
    state: GameState,
    programs: Programs,
    *,
    choices: Choices | None = None,
) -> TurnResult:
    """Play one turn and keep its events.

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
    table = _play(state, programs, choices, record=True)
    return TurnResult(table.freeze(), tuple(table.events or ()))


@on_built_state
def apply_turn(
    state: GameState,
    programs: Programs,
    *,
    choices: Choices | None = None,
) -> GameState:
    """Play one turn: the state after it (spec TURN-1). Pure: ``state`` is not modified.

    The same steps as :func:`resolve_turn`, without building any event.

    >>> from outofgears import Program, setup_game
    >>> state = setup_game([1, 2], seed=5)
    >>> after = apply_turn(state, {1: Program.parse("harvest 1"), 2: Program.parse("harvest 2")})
    >>> after.turn, len(after.robot(1).feet) + len(after.robot(1).circuit)
    (2, 2)
    """
    return _play(state, programs, choices, record=False).freeze()


@on_built_state
def turn_scores(state: GameState, programs: Programs) -> list[PlayerScore]:
    """Every player's score after the turn, in player order (END-2, VAR-3): the scores of
    :func:`apply_turn`'s state, read off the turn's table without building that state (for
    searches that play a turn only for its points). Best first, they are
    :func:`~outofgears.rules.scoring.player_scores` of the state after the turn.

    >>> from outofgears import Program, player_scores, setup_game
    >>> state = setup_game([1, 2], seed=5)
    >>> programs = {1: Program.parse("harvest 1"), 2: Program.parse("harvest 2")}
    >>> [(score.player, score.points) for score in turn_scores(state, programs)]
    [('P1', 2), ('P2', 4)]
    >>> [(s.player, s.points) for s in player_scores(apply_turn(state, programs))]
    [('P2', 4), ('P1', 2)]
    """
    return table_scores(_play(state, programs, None, record=False))


def check_choices(reading: ProgramReading, choices: Choices) -> None:
    """Refuse, before anything moves, a choice for a decision the turn does not have.

    A defence steal must name a standing defender and one of its attackers (ATK-4), an
    assembly a robot in play (ASM-1), a split a place that something takes from (SPL-5).
    Whether the choice itself is legal is checked by the step that makes the decision.
    """
    if choices.defence_steals:
        check_defence_steal_choices(reading, choices.defence_steals)
    if choices.assemblies:
        check_assembly_choices(reading.numbers, choices.assemblies)
    if choices.splits:
        real = places_taken_from(reading)
        for place in choices.splits:
            if place not in real:
                named = sorted(choices.splits[place])
                raise choice_refused(
                    "nothing takes gears from {place} this turn",
                    robot=named[0] if named else None,
                    clause="SPL-5",
                    place=place,
                )


def places_taken_from(reading: ProgramReading) -> set[Place]:
    """The places that robots take from this turn, whose split the table may choose: the feet
    of attacked robots whose defence does not hold, and every harvested dump (its harvesters
    take, or its trappers if it is trapped). Super Shovels always split by the default policy
    (ruling R-SHOVEL).

    >>> from outofgears import Program, setup_game
    >>> state = setup_game([1, 2], seed=1)
    >>> reading = ProgramReading(state, {1: Program.parse("attack 2"), 2: Program.parse("harvest 1")})
    >>> sorted(str(place) for place in places_taken_from(reading))
    ['dump 1', 'robot 2 feet']
    """
    standing = standing_defenders(reading)
    places = {FEET[victim] for victim in attackers_by_target(reading) if victim not in standing}
    places |= {DUMP[dump] for dump in reading.numbers if harvesters_of(reading, dump)}
    return places
