"""The legal choices of a turn that reproduce what the players recorded: :func:`reproduce`,
and the legal play that comes closest when none does: :func:`closest`.

A table often writes down only what came of a decision (a robot's circuit after it chose
which two gears to assemble, its feet after a split) and not the decision itself. Whether that
outcome is legal is a question about every legal choice of the turn, not about the default
policy. :func:`reproduce` answers it with a depth-first search over the walk of
:func:`outofgears.rules.legal.legal_choices` (driven through :class:`ChoiceSpace`'s public
walk: :meth:`~ChoiceSpace.walk`, :meth:`~ChoiceSpace.options`, :meth:`~ChoiceSpace.advance`):
each decision is tried by running the rules' own step on a copy of the table; a branch is cut as
soon as a robot's recorded feet or circuit can no longer be matched (its assembly comes right
after the last step that changes its feet), and branches that reach the same position are
merged. Each surviving combination is then resolved by the engine and kept if every recorded
value of the turn agrees; the answer holds one combination per distinct position it leaves,
every one of them (the default's included), at most ``limit + 1``.

:func:`closest` walks the same tree by branch and bound: the mismatches of a robot are known as
soon as it has assembled, so a branch is cut as soon as it misses as many recorded gears as the
best play found so far.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs
from attrs import frozen

from outofgears.errors import IllegalChoiceError, OutOfGearsError
from outofgears.rules.assembly import move_to_circuit
from outofgears.rules.choices import Choices
from outofgears.rules.events import GearMoved
from outofgears.rules.gears import Gear, gear_ranks, sort_gears
from outofgears.rules.legal import ChoiceSpace, Decision, WalkStep, as_choices
from outofgears.rules.model import GameState
from outofgears.rules.programs import Programs
from outofgears.rules.scoring import player_scores
from outofgears.rules.table import Table
from outofgears.rules.turn import TurnResult, resolve_turn

#: The assemblies left to the end of a search, each as the list of its options.
_Free = list[list[Decision]]

#: The most distinct positions replay carries from turn to turn by default (``--max-open``).
POSITION_LIMIT = 256

#: How many branches :func:`closest` may open before it settles for the best play found.
CLOSEST_NODES = 20_000

#: How many branches the searches of one replay may open between them (:class:`Branches`), so
#: that every command stays within its budget (5 s of CPU, 500 MB) on any log: with a play
#: resolved counted as :data:`RESOLVED` branches, the search for the plays that give what was
#: recorded costs about 20 µs a branch on the 2-core machine (1.77 million took 36 s), so
#: 100,000 some 2 s. ``benchmarks/judge_bounds.py`` measures the logs that ran past it
#: before (docs/reliability.md gives the figures).
REPLAY_BRANCHES = 100_000

#: What a play resolved by the engine and checked against what was recorded (about 200 µs)
#: costs of :data:`REPLAY_BRANCHES`.
RESOLVED = 10

#: What each position a turn is played from, the first aside, costs of :data:`REPLAY_BRANCHES`
#: (its turn resolved, 25-140 µs, and its memory kept: 4 KB for a position of its own, less
#: for one that shares its history).
CARRIED = 7

#: What a position a search keeps without resolving the turn again (another assembly of robots
#: nothing recorded reads, about 40 µs and 4 KB) costs of :data:`REPLAY_BRANCHES`.
KEPT = 4

#: What a branch of the closest-play search costs of :data:`REPLAY_BRANCHES` (130-160 µs).
CLOSEST_BRANCH = 8

#: The percentage of :data:`REPLAY_BRANCHES` the closest-play searches may take between them.
CLOSEST_SHARE = 40


#: The most legal options of one decision the judge lists. A split of a large dump among
#: several takers can have hundreds of thousands (28 gears of four colours none of the four
#: takers owns: 381,424 ways, 8 s and 290 MB to list; 36 gears: 2.3 million, 74 s and 2 GB):
#: a turn that leaves such a decision to be inferred is undecided (see :class:`TooManyWaysError`).
MOST_WAYS = 2_000


class TooManyWaysError(OutOfGearsError, ValueError):
    """A decision the log does not give that has more legal options than the judge lists
    (:data:`MOST_WAYS`): what was recorded cannot be checked against each of them.

    Attributes:
        kind: ``"split"``, ``"steal"`` or ``"assembly"``.
        key: The place split, the ``(defender, attacker)`` pair or the robot assembling.
        most: The bound (:data:`MOST_WAYS`).
    """

    def __init__(self, kind: str, key: object, most: int) -> None:
        self.kind = kind
        self.key = key
        self.most = most
        super().__init__(f"the {kind} of {key} has more than {most} legal ways")


class SearchBudgetError(OutOfGearsError, ValueError):
    """The judge's searches of one replay ran past their shared budget (:class:`Branches`):
    what was recorded leaves too much to try. Replay stops there with its undecided verdict.

    Attributes:
        most: The budget, in branches.
    """

    def __init__(self, most: int) -> None:
        self.most = most
        super().__init__(f"the judge's search ran past its budget of {most:,} branches")


@attrs.define
class Branches:
    """What the searches of one replay may still do, shared by all its turns: the branches
    the searches open, each position a turn is played from, each play resolved
    (:data:`REPLAY_BRANCHES` in all; :data:`RESOLVED` for a play resolved or a position
    carried, whose memory is kept). The search for the plays that give what was recorded
    (:func:`reproduce`) stops with :class:`SearchBudgetError` past it; the search for the
    closest play (:func:`closest`) settles for the closest it found.

    The closest-play searches take their branches from a share of the budget
    (:data:`CLOSEST_SHARE`), so that a log departing at every turn leaves the searches of
    its later turns the rest.

    Attributes:
        left: How many more branches may be opened.
        most: The whole budget (for the message).
        closest: How many of those left the closest-play searches may still take.
    """

    left: int = REPLAY_BRANCHES
    most: int = attrs.field(default=attrs.Factory(lambda self: self.left, takes_self=True))
    closest: int = attrs.field(
        default=attrs.Factory(lambda self: self.left * CLOSEST_SHARE // 100, takes_self=True)
    )

    def allowance(self) -> int:
        """How many branches the next closest-play search may take: half of its share left,
        so that a departure late in a long log still gets a search."""
        return max(min(self.left, self.closest) // 2, 0)

    def spend(self, branches: int) -> None:
        """Take ``branches`` from what is left; :class:`SearchBudgetError` past the budget."""
        self.left -= branches
        if self.left < 0:
            raise SearchBudgetError(self.most)

    def spend_closest(self, branches: int) -> None:
        """Take ``branches`` that a closest-play search opened (within its allowance)."""
        self.left -= branches
        self.closest -= branches


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
        for number, told in self.feet.items():
            total += _apart(told, gear_ranks(state.robot(number).feet))
        for number, told in self.circuit.items():
            total += _apart(told, gear_ranks(state.robot(number).circuit))
        for number, told in self.dumps.items():
            total += _apart(told, gear_ranks(state.dump(number).gears))
        if self.scores:
            points = {score.player: score.points for score in player_scores(state)}
            total += sum(abs(points.get(p, 0) - told) for p, told in self.scores.items())
        return total

    def floor(self, before: GameState) -> int:
        """A lower bound on :meth:`distance` for every play of a turn from ``before``: the
        recorded gears of each kind beyond all that the game holds (a turn moves gears from
        place to place, it never makes one: ``test_a_turn_conserves_every_gear``)."""
        recorded: Counter[int] = Counter()
        for told in itertools.chain(self.feet.values(), self.circuit.values(), self.dumps.values()):
            recorded.update(told)
        if not recorded:
            return 0
        held: Counter[int] = Counter(gear_ranks(before.reserve))
        for robot in before.robots:
            held.update(gear_ranks(robot.feet))
            held.update(gear_ranks(robot.circuit))
        for dump in before.dumps:
            held.update(gear_ranks(dump.gears))
        return sum((recorded - held).values())

    def robot_distance(self, robot: int, feet: list[int], circuit: list[int]) -> int:
        """How many of ``robot``'s recorded gears these feet and circuit ranks miss."""
        total = 0
        told = self.feet.get(robot)
        if told is not None:
            total += _apart(told, feet)
        told = self.circuit.get(robot)
        if told is not None:
            total += _apart(told, circuit)
        return total


def _apart(told: tuple[int, ...], ranks: list[int]) -> int:
    """How many gears two multisets of ranks differ by (each gear too many or missing);
    ``told`` is sorted. (A walk along both sorted lists: the search asks this of every option
    of every assembly, and it costs a third of a comparison of two ``Counter`` objects.)"""
    mine = sorted(ranks)
    common = i = j = 0
    while i < len(told) and j < len(mine):
        if told[i] == mine[j]:
            common += 1
            i += 1
            j += 1
        elif told[i] < mine[j]:
            i += 1
        else:
            j += 1
    return len(told) + len(mine) - 2 * common


@frozen
class Reproduction:
    """A legal combination of the turn's decisions that gives every recorded value.

    Attributes:
        before: The position the turn starts from.
        programs: The turn's programs.
        given: The decisions the log gave.
        every: Every decision the search made or met, as ``(kind, key, value)``.
        decisions: The decisions the search made (those the log did not give):
            ``("steal", (defender, attacker), DefenceSteal)``, ``("split", place, {robot:
            gears})`` or ``("assembly", robot, gears)``.
        state: The position the play leaves.
        resolved: The turn resolved with these choices, when the search resolved it (a play
            that differs from another only by the assembly of a robot nothing recorded reads
            is resolved when :attr:`result` is asked for).
        key: :func:`position_key` of :attr:`state`.
    """

    before: GameState
    programs: Programs
    given: Choices
    every: tuple[Decision, ...]
    decisions: tuple[Decision, ...]
    state: GameState
    resolved: TurnResult | None = None
    key: tuple[Any, ...] = attrs.field(
        default=attrs.Factory(lambda r: position_key(r.state), takes_self=True)
    )

    @property
    def choices(self) -> Choices:
        """Every decision of the turn, the given ones included."""
        return self.given.with_decisions(as_choices(self.every))

    @property
    def result(self) -> TurnResult:
        """The turn resolved with :attr:`choices`."""
        if self.resolved is not None:
            return self.resolved
        return resolve_turn(self.before, self.programs, choices=self.choices)


def _given(choices: Choices, decision: Decision) -> Any:
    kind, key, _ = decision
    if kind == "steal":
        return choices.defence_steals.get(key)
    if kind == "split":
        return choices.splits.get(key)
    return choices.assemblies.get(key)


def decision_value(kind: str, value: Any) -> Any:
    """A decision's value as a hashable key, the same for the same choice (gears in any
    order)."""
    if kind == "assembly":
        return sort_gears(value)
    if kind == "split":
        return tuple(sorted((robot, sort_gears(gears)) for robot, gears in value.items()))
    return value


def same_decision(kind: str, one: Any, other: Any) -> bool:
    """Whether two values of a decision of ``kind`` are the same choice (gears in any order)."""
    return bool(decision_value(kind, one) == decision_value(kind, other))


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


def _listed(
    space: ChoiceSpace, step: WalkStep, table: Table, given: Choices
) -> tuple[list[Decision], list[Decision]]:
    """The legal decisions of ``step`` as the walk lists them (at most :data:`MOST_WAYS` + 1),
    and of those the ones to search: only the one the log gives where it gives one.

    Raises:
        TooManyWaysError: The log does not give the decision, and it has more than
            :data:`MOST_WAYS` legal options.
    """
    listed = space.options(step, table, most=MOST_WAYS)
    if not listed:
        return listed, listed
    kind, key, _ = listed[0]
    wanted = _given(given, listed[0])
    if wanted is None:
        if len(listed) > MOST_WAYS:
            raise TooManyWaysError(kind, key, MOST_WAYS)
        return listed, listed
    if len(listed) > MOST_WAYS:  # the list stops short: ask the rules about the log's choice
        given_one = (kind, key, wanted)
        return listed, [given_one] if space.offers(step, table, given_one) else []
    return listed, [option for option in listed if same_decision(kind, option[2], wanted)]


def position_key(state: GameState) -> tuple[Any, ...]:
    """What tells two positions apart, as a hashable key of gear ranks (replay merges the
    positions it carries by it; hashing ranks is much cheaper than hashing gears)."""
    return (
        tuple(
            (r.number, tuple(gear_ranks(r.feet)), tuple(gear_ranks(r.circuit)))
            for r in state.robots
        ),
        tuple((d.number, tuple(gear_ranks(d.gears))) for d in state.dumps),
        tuple(gear_ranks(state.reserve)),
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
    branches: Branches | None = None,
) -> list[Reproduction]:
    """The legal combinations of decisions that reproduce ``target``, one per distinct position.

    ``given`` holds the decisions the log gave (they are kept); every other decision is
    searched, and every position a legal play leaves that agrees with ``target`` is in the
    answer, the default policy's included. Stops after ``limit + 1`` distinct positions: more
    than ``limit`` means the recorded values leave the turn too open to follow.

    The search spends from ``branches`` (a budget of its own, :data:`REPLAY_BRANCHES`, when
    none is given): a branch for each decision tried, :data:`RESOLVED` for each play resolved.

    Raises:
        IllegalProgramError: A program the rules do not allow.
        GameOverError: The game is over.
        SearchBudgetError: The search ran past ``branches``.

    >>> from outofgears import Program, from_position, gears
    >>> state = from_position(robots={1: {"feet": gears(1, 2, 3, 4)}, 2: {}},
    ...                       dumps={1: (), 2: ()}, reserve=())
    >>> quiet = {1: Program.parse("attack 1"), 2: Program.parse("attack 2")}
    >>> target = Target.of({1: (None, gears(3, 4))}, {}, {})
    >>> [found.decisions for found in reproduce(state, quiet, Choices(), target)]
    [(('assembly', 1, (Gear(3), Gear(4))),)]
    """
    if target.floor(state) > 0:  # a recorded gear the game does not have: nothing fits
        return []
    budget = Branches() if branches is None else branches
    space = ChoiceSpace(state, programs)
    walk = space.walk()
    seen: set[tuple[Any, ...]] = set()
    found: dict[tuple[Any, ...], Reproduction] = {}

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
            _, offered = _listed(space, step, table, given)
            if step.assembling:
                robot = step.assembling
                if not offered:
                    if not fits(robot, table, ()):
                        return
                    index += 1
                    continue
                if len(offered) > 1 and robot not in target.feet and robot not in target.circuit:
                    # Nothing recorded says where this robot's gears are, and an assembly
                    # changes nothing else (not even the score): every pick is tried at the end.
                    free = [*free, offered]
                    index += 1
                    continue
                fitting = [o for o in offered if fits(robot, table, o[2])]
                if len(fitting) == 1:
                    _assemble(table, robot, fitting[0][2])
                    decisions = [*decisions, fitting[0]]
                    index += 1
                    continue
                budget.spend(len(fitting))
                for option in fitting:
                    child = table.copy()
                    _assemble(child, robot, option[2])
                    yield from search(index + 1, child, [*decisions, option], free)
                return
            if len(offered) <= 1:
                space.advance(step, table, offered[0] if offered else None)
                decisions = decisions + offered
                index += 1
                continue
            for option in offered:
                budget.spend(1)
                child = table.copy()
                space.advance(step, child, option)
                key = _position_key(child, index + 1)
                if key in seen:
                    continue
                seen.add(key)
                yield from search(index + 1, child, [*decisions, option], free)
            return
        yield decisions, free

    def resolved(decisions: Iterable[Decision]) -> TurnResult | None:
        budget.spend(RESOLVED)
        try:
            return resolve_turn(
                state, programs, choices=given.with_decisions(as_choices(decisions))
            )
        except IllegalChoiceError:  # pragma: no cover - every decision comes from the rules
            return None

    def keep(every: list[Decision], after: GameState, result: TurnResult | None) -> bool:
        key = position_key(after)
        if key not in found:
            searched = tuple(d for d in every if _given(given, d) is None)
            found[key] = Reproduction(
                state, programs, given, tuple(every), searched, after, result, key
            )
        return len(found) > limit

    for decisions, free in search(0, space.start_table(), [], []):
        # The free assemblies change no recorded value: the default's first.
        first = resolved(decisions)
        if first is None or not target.matches(first.state):
            continue
        if not free:
            if keep(decisions, first.state, first):
                break
            continue
        made = _assembled(first)
        base = _table_after(first.state)
        ordered = [
            sorted(offered, key=lambda o: not same_decision("assembly", o[2], made.get(o[1], ())))
            for offered in free
        ]
        stop = False
        for index, picks in enumerate(itertools.product(*ordered)):
            every = [*decisions, *picks]
            if index == 0:
                stop = keep(every, first.state, first)
            else:
                budget.spend(KEPT)
                stop = keep(every, _reassembled(base, made, picks), None)
            if stop:
                break
        if stop:
            break
    return list(found.values())


def _reassembled(
    base: Table, made: Mapping[int, tuple[Gear, ...]], picks: Iterable[Decision]
) -> GameState:
    """The position a turn leaves when robots nothing recorded reads assembled ``picks``
    instead of what they assembled in ``state`` (``made``).

    Assembly is the last step that reads or changes a robot's feet and circuit (exploration
    and the end check read neither), so the positions differ in those robots' feet and
    circuits alone: the assembly made is taken back and the rules' own move
    (:func:`~outofgears.rules.assembly.move_to_circuit`) makes the other one, on a copy of
    ``base`` (a table of that position, see :func:`_table_after`).
    ``tests/test_replay_exact.py`` checks this against the engine.
    """
    table = base.copy()
    for _, robot, pick in picks:
        circuit = table.circuit_of(robot)
        for rank in gear_ranks(made.get(robot, ())):
            circuit.remove(rank)
            table.feet[robot].append(rank)
        table.moved_feet[robot] = table.moved_circuit[robot] = True
        move_to_circuit(table, robot, gear_ranks(pick))
    return table.freeze()


def _table_after(state: GameState) -> Table:
    """A table of the position after a turn, whose :meth:`~Table.freeze` gives that turn's
    number again (a table counts the turn it plays)."""
    return Table(attrs.evolve(state, turn=state.turn - 1))


def _assembled(result: TurnResult) -> dict[int, tuple[Gear, ...]]:
    """What each robot assembled in a resolved turn."""
    made: dict[int, list[Gear]] = {}
    for event in result.events:
        if isinstance(event, GearMoved) and event.clause.startswith("ASM") and event.robot:
            made.setdefault(event.robot, []).append(event.gear)
    return {robot: sort_gears(picked) for robot, picked in made.items()}


@frozen
class Closest:
    """The legal play whose outcome misses the fewest recorded gears and points.

    Attributes:
        choices: Every decision of the play, the given ones included.
        decisions: The decisions the search made, as ``(kind, key, value)``.
        result: The turn resolved with ``choices``.
        distance: How many recorded gears (and points) it misses.
        offered: The legal options of each decision along the play, as the walk met them.
        complete: Whether the search saw every play it had to (``False``: it ran out of
            branches, and this is the closest play it found).
    """

    choices: Choices
    decisions: tuple[Decision, ...]
    result: TurnResult
    distance: int
    offered: tuple[tuple[Decision, ...], ...]
    complete: bool = True


def closest(
    state: GameState,
    programs: Programs,
    given: Choices,
    target: Target,
    *,
    nodes: int = CLOSEST_NODES,
    default: TurnResult | None = None,
    branches: Branches | None = None,
) -> Closest | None:
    """The legal play that misses the fewest recorded gears (branch and bound over the walk;
    after ``nodes`` branches the best found so far); ``None`` if a given decision is not legal.

    A robot's recorded feet and circuit are compared as soon as it has assembled, so a branch
    is cut once it misses as many as the best play found; the dumps and scores count at the end.
    A robot whose gears are not recorded keeps the default assembly (no recorded value reads it).
    With ``default`` (the turn resolved with ``given`` and the default policies), only plays
    strictly closer than it are searched for: among equally close plays the default's wins.
    With ``branches``, the search opens no more branches than half of what it has left allows
    (each costs :data:`CLOSEST_BRANCH`), and takes those it opened from it.

    Raises:
        IllegalProgramError: A program the rules do not allow.
        GameOverError: The game is over.
    """
    space = ChoiceSpace(state, programs)
    walk = space.walk()
    best: list[Closest] = []
    allowed = min(nodes, branches.allowance() // CLOSEST_BRANCH) if branches is not None else nodes
    budget = [allowed]
    cheapest: dict[tuple[Any, ...], int] = {}
    floor = target.floor(state)

    def bound() -> float:
        return best[0].distance if best else math.inf

    def settled() -> bool:
        # No play misses fewer than ``floor``: one that misses that many is the closest.
        return budget[0] <= 0 or bound() <= floor

    def finish(decisions: list[Decision], offered: list[tuple[Decision, ...]]) -> None:
        choices = given.with_decisions(as_choices(decisions))
        try:
            result = resolve_turn(state, programs, choices=choices)
        except IllegalChoiceError:  # pragma: no cover - every decision comes from the rules
            return
        distance = target.distance(result.state)
        if distance < bound():
            searched = tuple(d for d in decisions if _given(given, d) is None)
            best[:] = [Closest(choices, searched, result, distance, tuple(offered))]

    def search(
        index: int,
        table: Table,
        cost: int,
        decisions: list[Decision],
        offered: list[tuple[Decision, ...]],
    ) -> None:
        while index < len(walk):
            if cost >= bound() or settled():
                return
            step = walk[index]
            listed, options = _listed(space, step, table, given)
            if options:
                offered = [*offered, tuple(listed)]
            if step.assembling:
                robot = step.assembling
                if robot not in target.feet and robot not in target.circuit:
                    index += 1
                    continue
                costed = sorted(
                    (
                        target.robot_distance(
                            robot,
                            _without(table.feet[robot], o[2]),
                            [*table.circuit_of(robot), *gear_ranks(o[2])],
                        ),
                        n,
                    )
                    for n, o in enumerate(options)
                ) or [
                    (target.robot_distance(robot, table.feet[robot], table.circuit_of(robot)), -1)
                ]
                for extra, n in costed:
                    if cost + extra >= bound() or settled():
                        break
                    budget[0] -= 1
                    if n < 0:
                        search(index + 1, table, cost + extra, decisions, offered)
                        break
                    child = table.copy()
                    _assemble(child, robot, options[n][2])
                    search(index + 1, child, cost + extra, [*decisions, options[n]], offered)
                return
            if len(options) <= 1:
                space.advance(step, table, options[0] if options else None)
                decisions = decisions + options
                index += 1
                continue
            for option in options:
                if settled():
                    return
                child = table.copy()
                space.advance(step, child, option)
                key = _position_key(child, index + 1)
                if cheapest.get(key, math.inf) <= cost:
                    continue
                cheapest[key] = cost
                budget[0] -= 1
                search(index + 1, child, cost, [*decisions, option], offered)
            return
        finish(decisions, offered)

    if default is not None:
        best.append(
            Closest(
                given,
                (),
                default,
                target.distance(default.state),
                _offered_by_default(space, given),
            )
        )
    search(0, space.start_table(), 0, [], [])
    if branches is not None:
        branches.spend_closest((allowed - max(budget[0], 0)) * CLOSEST_BRANCH)
    if not best:
        return None
    if budget[0] <= 0 and best[0].distance > floor:
        return attrs.evolve(best[0], complete=False)
    return best[0]


def _offered_by_default(space: ChoiceSpace, given: Choices) -> tuple[tuple[Decision, ...], ...]:
    """The legal options of each decision along the play of the default policies (the
    decisions ``given`` kept)."""
    table = space.start_table()
    offered: list[tuple[Decision, ...]] = []
    for step in space.walk():
        options, kept = _listed(space, step, table, given)
        if options:
            offered.append(tuple(options))
        space.advance(step, table, kept[0] if len(kept) < len(options) and kept else None)
    return tuple(offered)


def _without(ranks: list[int], pick: tuple[Gear, ...]) -> list[int]:
    left = list(ranks)
    for rank in gear_ranks(pick):
        left.remove(rank)
    return left
