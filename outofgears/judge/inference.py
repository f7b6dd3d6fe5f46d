"""The legal choices of a turn that reproduce what the players recorded: :func:`reproduce`.

A table often writes down only what came of a decision (a robot's circuit after it chose
which two gears to assemble, its feet after a split) and not the decision itself. Whether that
outcome is legal is a question about every legal choice of the turn, not about the default
policy. :func:`reproduce` answers it with a depth-first search over the walk of
:func:`outofgears.rules.legal.legal_choices`: each decision is tried by running the rules' own step
on a copy of the table; a branch is cut as soon as a robot's recorded feet or circuit can no
longer be matched (its assembly comes right after the last step that changes its feet), and
branches that reach the same position are merged. Each surviving combination is then resolved
by the engine and kept if every recorded value of the turn agrees; the answer holds one
combination per distinct position it leaves, at most ``limit + 1`` of them.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from attrs import frozen

from outofgears.errors import IllegalChoiceError
from outofgears.rules.assembly import move_to_circuit
from outofgears.rules.choices import Choices
from outofgears.rules.events import GearMoved
from outofgears.rules.gears import Gear, gear_ranks, sort_gears
from outofgears.rules.legal import ChoiceSpace, Decision, as_choices
from outofgears.rules.model import GameState
from outofgears.rules.programs import Programs
from outofgears.rules.scoring import player_scores
from outofgears.rules.table import Table
from outofgears.rules.turn import TurnResult, resolve_turn

#: The assemblies left to the end of a search, each as the list of its options.
_Free = list[list[Decision]]

#: The most distinct positions an ambiguous turn may leave before replay asks for choices.
POSITION_LIMIT = 256


@frozen
class Target:
    """What the players recorded after a turn, as the search compares it.

    Attributes:
        feet: Robot number to its recorded feet (sorted ranks).
        circuit: Robot number to its recorded circuit (sorted ranks).
        dumps: Dump number to its recorded gears (sorted ranks).
        scores: Player name to recorded points.
    """

    feet: Mapping[int, tuple[int, ...]]
    circuit: Mapping[int, tuple[int, ...]]
    dumps: Mapping[int, tuple[int, ...]]
    scores: Mapping[str, int]

    @classmethod
    def of(
        cls,
        robots: Mapping[int, tuple[tuple[Gear, ...] | None, tuple[Gear, ...] | None]],
        dumps: Mapping[int, tuple[Gear, ...]],
        scores: Mapping[str, int],
    ) -> Target:
        """A target from recorded gears: robot to ``(feet, circuit)``, each ``None`` if unknown."""

        def ranks(gears: tuple[Gear, ...]) -> tuple[int, ...]:
            return tuple(sorted(gear_ranks(gears)))

        return cls(
            feet={n: ranks(f) for n, (f, _) in robots.items() if f is not None},
            circuit={n: ranks(c) for n, (_, c) in robots.items() if c is not None},
            dumps={n: ranks(g) for n, g in dumps.items()},
            scores=dict(scores),
        )

    def matches(self, state: GameState) -> bool:
        """Whether ``state`` (after the turn) has every recorded value."""
        for robot in state.robots:
            feet = self.feet.get(robot.number)
            if feet is not None and tuple(sorted(gear_ranks(robot.feet))) != feet:
                return False
            circuit = self.circuit.get(robot.number)
            if circuit is not None and tuple(sorted(gear_ranks(robot.circuit))) != circuit:
                return False
        for dump in state.dumps:
            told = self.dumps.get(dump.number)
            if told is not None and tuple(sorted(gear_ranks(dump.gears))) != told:
                return False
        if self.scores:
            points = {score.player: score.points for score in player_scores(state)}
            if any(points.get(player) != told for player, told in self.scores.items()):
                return False
        return True

    def distance(self, state: GameState) -> int:
        """How many recorded gears (and points) ``state`` misses: 0 when it matches."""
        total = 0

        def apart(told: tuple[int, ...], real: tuple[Gear, ...]) -> int:
            ranks = gear_ranks(real)
            if len(ranks) == len(told) and tuple(sorted(ranks)) == told:
                return 0
            a, b = Counter(told), Counter(ranks)
            return sum(((a - b) + (b - a)).values())

        for number, told in self.feet.items():
            total += apart(told, state.robot(number).feet)
        for number, told in self.circuit.items():
            total += apart(told, state.robot(number).circuit)
        for number, told in self.dumps.items():
            total += apart(told, state.dump(number).gears)
        if self.scores:
            points = {score.player: score.points for score in player_scores(state)}
            total += sum(abs(points.get(p, 0) - told) for p, told in self.scores.items())
        return total


@frozen
class Reproduction:
    """A legal combination of the turn's decisions that gives every recorded value.

    Attributes:
        choices: Every decision of the turn, the given ones included.
        decisions: The decisions the search made (those the log did not give), as
            ``(kind, key, value)``: ``("steal", (defender, attacker), DefenceSteal)``,
            ``("split", place, {robot: gears})`` or ``("assembly", robot, gears)``.
        result: The turn resolved with ``choices``.
    """

    choices: Choices
    decisions: tuple[Decision, ...]
    result: TurnResult


def _given(choices: Choices, decision: Decision) -> Any:
    kind, key, _ = decision
    if kind == "steal":
        return choices.defence_steals.get(key)
    if kind == "split":
        return choices.splits.get(key)
    return choices.assemblies.get(key)


def same_decision(kind: str, one: Any, other: Any) -> bool:
    """Whether two values of a decision of ``kind`` are the same choice (gears in any order)."""
    if kind == "assembly":
        return bool(sort_gears(one) == sort_gears(other))
    if kind == "split":
        return {r: sort_gears(g) for r, g in one.items()} == {
            r: sort_gears(g) for r, g in other.items()
        }
    return bool(one == other)


def _position_key(table: Table, index: int) -> tuple[Any, ...]:
    numbers = table.numbers
    return (
        index,
        tuple(tuple(sorted(table.feet[n])) for n in numbers),
        tuple(tuple(sorted(table.circuit_of(n))) for n in numbers),
        tuple(tuple(sorted(table.dumps[n])) for n in numbers),
        tuple(sorted((victim, tuple(sorted(pool))) for victim, pool in table.held.items())),
    )


def _assemble(table: Table, robot: int, pick: tuple[Gear, ...]) -> None:
    """Move ``pick`` from the robot's feet to its circuit on ``table`` (no later step of the
    walk reads them: it only tells the branches apart)."""
    move_to_circuit(table, robot, gear_ranks(pick))


def position_key(state: GameState) -> tuple[Any, ...]:
    """What tells two positions apart, as a hashable key (replay merges the paths it carries)."""
    return (
        tuple((r.number, r.feet, r.circuit) for r in state.robots),
        tuple((d.number, d.gears) for d in state.dumps),
        state.reserve,
        tuple((p.name, p.upgrade) for p in state.players),
        state.game_over,
    )


def reproduce(
    state: GameState,
    programs: Programs,
    given: Choices,
    target: Target,
    *,
    limit: int = POSITION_LIMIT,
) -> list[Reproduction]:
    """The legal combinations of decisions that reproduce ``target``, one per distinct position.

    ``given`` holds the decisions the log gave (they are kept); every other decision is
    searched. Stops after ``limit + 1`` distinct positions: more than ``limit`` means the
    recorded values leave the turn too open to follow.

    Raises:
        IllegalProgramError: A program the rules do not allow.
        GameOverError: The game is over.

    >>> from outofgears import Program, from_position, gears
    >>> state = from_position(robots={1: {"feet": gears(1, 2, 3, 4)}, 2: {}},
    ...                       dumps={1: (), 2: ()}, reserve=())
    >>> quiet = {1: Program.parse("attack 1"), 2: Program.parse("attack 2")}
    >>> target = Target.of({1: (None, gears(3, 4))}, {}, {})
    >>> [found.decisions for found in reproduce(state, quiet, Choices(), target)]
    [(('assembly', 1, (Gear(3), Gear(4))),)]
    """
    space = ChoiceSpace(state, programs)
    walk = space._steps()
    seen: set[tuple[Any, ...]] = set()
    found: dict[tuple[Any, ...], Reproduction] = {}

    def options(index: int, table: Table) -> list[Decision]:
        offered = space._options(walk[index], table)
        if not offered:
            return offered
        wanted = _given(given, offered[0])
        if wanted is None:
            return offered
        kind = offered[0][0]
        return [option for option in offered if same_decision(kind, option[2], wanted)]

    def fits(robot: int, table: Table, pick: tuple[Gear, ...]) -> bool:
        ranks = gear_ranks(pick)
        feet = target.feet.get(robot)
        if feet is not None:
            left = Counter(table.feet[robot])
            left.subtract(ranks)
            if tuple(sorted(left.elements())) != feet:
                return False
        circuit = target.circuit.get(robot)
        return circuit is None or tuple(sorted([*table.circuit_of(robot), *ranks])) == circuit

    def search(
        index: int, table: Table, decisions: list[Decision], free: _Free
    ) -> Iterator[tuple[list[Decision], _Free]]:
        while index < len(walk):
            step = walk[index]
            offered = options(index, table)
            if step.assembling:
                robot = step.assembling
                if not offered:
                    if not fits(robot, table, ()):
                        return
                    index += 1
                    continue
                if len(offered) > 1 and robot not in target.feet and robot not in target.circuit:
                    # Nothing recorded says where this robot's gears are, and an assembly
                    # changes nothing else (not even the score): decided at the end.
                    free = [*free, offered]
                    index += 1
                    continue
                fitting = [o for o in offered if fits(robot, table, o[2])]
                if len(fitting) == 1:
                    _assemble(table, robot, fitting[0][2])
                    decisions = [*decisions, fitting[0]]
                    index += 1
                    continue
                for option in fitting:
                    child = table.copy()
                    _assemble(child, robot, option[2])
                    yield from search(index + 1, child, [*decisions, option], free)
                return
            if len(offered) <= 1:
                space._advance(step, table, offered[0] if offered else None)
                decisions = decisions + offered
                index += 1
                continue
            for option in offered:
                child = table.copy()
                space._advance(step, child, option)
                key = _position_key(child, index + 1)
                if key in seen:
                    continue
                seen.add(key)
                yield from search(index + 1, child, [*decisions, option], free)
            return
        yield decisions, free

    def resolved(decisions: list[Decision]) -> TurnResult | None:
        try:
            return resolve_turn(
                state, programs, choices=given.with_decisions(as_choices(decisions))
            )
        except IllegalChoiceError:  # pragma: no cover - every decision comes from the rules
            return None

    for decisions, free in search(0, space._start(), [], []):
        # The free assemblies change no recorded value: try the default first.
        first = resolved(decisions)
        if first is None or not target.matches(first.state):
            continue
        # The default assembly of each free robot first: the first position found is the one
        # that follows the default wherever nothing recorded says otherwise.
        made = {
            robot: sort_gears(
                e.gear
                for e in first.events
                if isinstance(e, GearMoved) and e.robot == robot and e.clause.startswith("ASM")
            )
            for robot in {offered[0][1] for offered in free}
        }
        free = [
            sorted(offered, key=lambda o: not same_decision("assembly", o[2], made[o[1]]))
            for offered in free
        ]
        for picks in itertools.product(*free):
            every = [*decisions, *picks]
            result = first if not picks else resolved(every)
            if result is None:  # pragma: no cover
                continue
            key = position_key(result.state)
            if key not in found:
                searched = tuple(d for d in every if _given(given, d) is None)
                found[key] = Reproduction(given.with_decisions(as_choices(every)), searched, result)
                if len(found) > limit:
                    return list(found.values())
    return list(found.values())


def closest(
    state: GameState, programs: Programs, given: Choices, target: Target, *, tries: int = 4096
) -> tuple[Choices, TurnResult, int] | None:
    """The legal combination (among the first ``tries``) whose outcome misses the fewest
    recorded gears, with that number; ``None`` when the turn decides nothing."""
    best: tuple[Choices, TurnResult, int] | None = None
    for count, combination in enumerate(ChoiceSpace(state, programs)):
        if count >= tries:
            break
        choices = Choices(
            defence_steals={**combination.defence_steals, **given.defence_steals},
            assemblies={**combination.assemblies, **given.assemblies},
            splits={**combination.splits, **given.splits},
        )
        try:
            result = resolve_turn(state, programs, choices=choices)
        except IllegalChoiceError:
            continue
        distance = target.distance(result.state)
        if best is None or distance < best[2]:
            best = (choices, result, distance)
    return best


#: The public names of this module (the rest serves them).
__all__ = [
    "Reproduction",
    "Target",
    "reproduce",
]
