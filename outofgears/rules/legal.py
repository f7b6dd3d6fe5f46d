"""Every legal post-reveal decision of a turn: :func:`legal_choices`.

Once the programs are revealed the players may still decide which gear a defender takes
(ATK-4), how a pile is split among its takers (SPL-1 to SPL-5) and which two gears a robot
assembles, or, where assembly is optional, whether it does (ASM-1). :func:`legal_choices`
gives the space of every legal combination of those decisions as a :class:`ChoiceSpace`:
its exact size, every combination as a :class:`~outofgears.rules.choices.Choices`, and a uniform
draw of one.

The space is not a product: a defence steal changes what the attacker's own attackers share,
and every split changes what the takers may assemble. It is walked on the turn's own plan
(:func:`outofgears.rules.turn.plan_turn`): each decision is tried by running the very step of the
rules module that makes it, on a copy of the table. Counting merges the positions that agree
on everything the remaining decisions can see, and counts each robot's assembly as soon as
nothing else will change its feet, so it never visits the combinations one by one.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from attrs import define

from outofgears.errors import ArgumentTypeError, IllegalChoiceError
from outofgears.rules.assembly import assembly_options, assembly_pick
from outofgears.rules.attacks import steal_options
from outofgears.rules.choices import Choices, DefenceSteal
from outofgears.rules.gears import Gear, gear_of
from outofgears.rules.model import GameState, Place, check_state, on_built_state
from outofgears.rules.programs import ProgramReading, Programs
from outofgears.rules.sharing import check_split_ranks, split_options
from outofgears.rules.table import Step, Table, reach_of
from outofgears.rules.turn import plan_turn

#: A decision: its kind ("steal", "split" or "assembly"), its key in :class:`Choices`
#: (``(defender, attacker)``, a place, a robot) and the value chosen.
Decision = tuple[str, Any, Any]


@define
class _Forced:
    """The decisions being tried, read by the steps as they read a :class:`Choices`."""

    defence_steals: dict[tuple[int, int], DefenceSteal]
    assemblies: dict[int, tuple[Gear, ...]]
    splits: dict[Place, Mapping[int, tuple[Gear, ...]]]


@define
class WalkStep:
    """One step of the walk (:meth:`ChoiceSpace.walk`): a step of the turn's plan, or one
    robot's assembly.

    Attributes:
        run: The rules' step, or ``None`` for an assembly (it runs nothing on the walk).
        subject: What the step acts on (a dump, a defender and its attacker ...).
        robots: The robots whose gears the step changes.
        dumps: The dumps whose gears the step changes.
        assembling: The robot assembling, for an assembly step; 0 otherwise. It comes right
            after the last step that changes the robot's feet.
    """

    run: Step | None
    subject: Any
    robots: frozenset[int]
    dumps: frozenset[int]
    assembling: int = 0


class ChoiceSpace:
    """The legal post-reveal decisions of one turn (see :func:`legal_choices`).

    ``len(space)`` is not offered, as the count may exceed what ``len`` can return: use
    :meth:`count`. :meth:`count`, :meth:`sample` and iteration make every option of every
    decision: a split of a large dump among several takers can have hundreds of thousands of
    legal ways (four robots, 28 gears of colours none of them owns: 381,424, about 8 s to
    make). To look at such a turn without making them all, walk it with :meth:`walk`,
    :meth:`options` and ``most``, and :meth:`offers`, as the judge does.
    """

    def __init__(self, state: GameState, programs: Programs) -> None:
        self.state = state
        self.programs = programs
        self._reading = ProgramReading(state, programs)
        self._plan = plan_turn(self._reading)
        self._walk: list[WalkStep] | None = None
        self._memo: dict[tuple[Any, ...], int] = {}

    # --- the public face ----------------------------------------------------------------------

    def count(self) -> int:
        """The exact number of legal combinations of decisions (each a distinct
        :class:`Choices`); 1 when the turn leaves nothing to decide."""
        return self._count(0, self._start())

    def __iter__(self) -> Iterator[Choices]:
        """Every legal combination, once each, in a stable order."""
        for decisions in self._combinations(0, self._start()):
            yield as_choices(decisions)

    def sample(self, rng: random.Random) -> Choices:
        """One legal combination drawn uniformly at random with ``rng`` (a
        :class:`random.Random`; else :class:`~outofgears.errors.ArgumentTypeError`)."""
        if not isinstance(rng, random.Random):
            raise ArgumentTypeError("rng", "a random.Random", rng)
        decisions: list[Decision] = []
        index, table = 0, self._start()
        walk = self._steps()
        while index < len(walk):
            options = self._options(walk[index], table)
            if not options:
                self._advance(walk[index], table, None)
                index += 1
                continue
            if walk[index].assembling:
                decision = options[rng.randrange(len(options))]
            else:
                weights = []
                for option in options:
                    child = table.copy()
                    self._advance(walk[index], child, option)
                    weights.append(self._count(index + 1, child))
                pick = rng.randrange(sum(weights))
                for option, weight in zip(options, weights, strict=True):
                    if pick < weight:
                        decision = option
                        break
                    pick -= weight
            decisions.append(decision)
            self._advance(walk[index], table, decision)
            index += 1
        return as_choices(decisions)

    def default(self) -> Choices:
        """The combination the default policies take (ATK-5, ASM-2, SPL-5): every decision of
        the turn as :func:`~outofgears.rules.turn.apply_turn` makes it when given no choices.

        >>> from outofgears import Program, gears, from_position, apply_turn
        >>> state = from_position(robots={1: {"feet": gears(2, 3, 3)}, 2: {}},
        ...                       dumps={1: (), 2: ()}, reserve=())
        >>> programs = {1: Program.parse("attack 2"), 2: Program.parse("attack 2")}
        >>> space = legal_choices(state, programs)
        >>> default = space.default()
        >>> dict(default.defence_steals)
        {(2, 1): DefenceSteal(source='feet', gear=Gear(2))}
        >>> default in space, apply_turn(state, programs, choices=default) == apply_turn(state, programs)
        (True, True)
        """
        decisions: list[Decision] = []
        table = self._start()
        for step in self._steps():
            decision = self._default_decision(step, table)
            if decision is not None:
                decisions.append(decision)
            self._advance(step, table, decision)
        return as_choices(decisions)

    def _default_decision(self, step: WalkStep, table: Table) -> Decision | None:
        """The option of ``step`` that its default policy takes on ``table`` (``None`` when the
        step decides nothing): the one that leaves the table as the policy leaves it."""
        if step.assembling:
            robot = step.assembling
            rule = self.state.options.assembly
            if not assembly_options(robot, table.feet[robot], rule):
                return None
            picked = assembly_pick(robot, table.feet[robot], None, rule)
            return ("assembly", robot, tuple(gear_of(rank) for rank in sorted(picked)))
        run = step.run
        assert run is not None
        if reach_of(run).steals:
            options: Iterable[Decision] = self._options(step, table)
        else:
            split = self._split(step, table)
            if split is None:
                return None
            place, pool, takers = split
            options = (
                ("split", place, dict(zip(takers, _as_gears(shares), strict=True)))
                for shares in split_options(pool, takers)
            )
        by_default = table.copy()
        self._advance(step, by_default, None)
        wanted = _places_key(by_default)
        for option in options:
            tried = table.copy()
            self._advance(step, tried, option)
            if _places_key(tried) == wanted:
                return option
        return None

    def __contains__(self, choices: object) -> bool:
        """Whether ``choices`` is one of the combinations (every decision given, each legal).

        This walks the combinations: use it on small spaces (``count()`` first).
        """
        if not isinstance(choices, Choices):
            return False
        return any(candidate == choices for candidate in self)

    # --- the walk, for searches over the decisions (the judge's inference) -------------------

    def walk(self) -> list[WalkStep]:
        """The steps of the turn in order, each robot's assembly placed right after the last
        step that changes its feet (the list is cached: do not change it).

        A search over the decisions walks it with :meth:`start_table`, :meth:`options` and
        :meth:`advance`, copying the table to branch:

        >>> from outofgears import Program, gears, from_position
        >>> state = from_position(robots={1: {"feet": gears(2, 3, 3)}, 2: {}},
        ...                       dumps={1: (), 2: ()}, reserve=())
        >>> space = legal_choices(state, {1: Program.parse("attack 2"),
        ...                               2: Program.parse("attack 2")})
        >>> table = space.start_table()
        >>> for step in space.walk():
        ...     offered = space.options(step, table)
        ...     print(step.assembling, [value for _, _, value in offered])
        ...     space.advance(step, table, offered[-1] if offered else None)
        0 [DefenceSteal(source='feet', gear=Gear(2)), DefenceSteal(source='feet', gear=Gear(3))]
        1 []
        2 []
        >>> [gear_of(rank) for rank in table.feet[2]]
        [Gear(3)]
        """
        return self._steps()

    def start_table(self) -> Table:
        """A fresh working table at the start of the walk, for :meth:`options` and
        :meth:`advance`; :meth:`~outofgears.rules.table.Table.copy` it to branch."""
        return self._start()

    def options(self, step: WalkStep, table: Table, most: int | None = None) -> list[Decision]:
        """The legal decisions of ``step`` on ``table`` (the walk's table at that step), each a
        ``(kind, key, value)``; empty for a step that decides nothing. With ``most``, no more
        than ``most + 1`` of them, in the same order: enough to tell that there are more than
        ``most`` without making them all (a split of a large dump among several takers can
        have hundreds of thousands of legal ways).

        Raises:
            ArgumentTypeError: ``step`` is not a step of this walk, ``table`` not a table, or
                ``most`` neither ``None`` nor a whole number of at least 1.
        """
        self._expect_walk(step, table)
        if most is not None and (isinstance(most, bool) or not isinstance(most, int) or most < 1):
            raise ArgumentTypeError("most", "None or a whole number of at least 1", most)
        return self._options(step, table, most)

    def offers(self, step: WalkStep, table: Table, decision: Decision) -> bool:
        """Whether ``decision`` is one of :meth:`options` (a split's shares in any order),
        decided without making the options: a split is checked by the rules' own check of a
        split the table agreed on (SPL-5).

        Raises:
            ArgumentTypeError: ``step`` is not a step of this walk, or ``table`` not a table.
        """
        self._expect_walk(step, table)
        if not isinstance(decision, tuple) or len(decision) != 3:
            return False
        kind, key, value = decision
        split = self._split(step, table)
        if kind != "split" or split is None:
            return decision in self._options(step, table)
        place, pool, takers = split
        if key != place or not isinstance(value, Mapping):
            return False
        try:
            check_split_ranks(pool, takers, value)
        except (IllegalChoiceError, ArgumentTypeError, TypeError, ValueError):
            return False
        return True

    def advance(self, step: WalkStep, table: Table, decision: Decision | None) -> None:
        """Run ``step`` on ``table`` with ``decision`` (one of :meth:`options`, or ``None``
        when it offers none: the default policy decides); an assembly step changes nothing on
        the walk's table.

        Raises:
            ArgumentTypeError: ``step`` is not a step of this walk, ``table`` not a table, or
                ``decision`` not a ``(kind, key, value)`` of :meth:`options`' kinds.
            IllegalChoiceError: A decision the rules refuse.
        """
        self._expect_walk(step, table)
        if decision is not None and (
            not isinstance(decision, tuple)
            or len(decision) != 3
            or decision[0] not in ("steal", "split", "assembly")
        ):
            raise ArgumentTypeError(
                "decision", "None or a (kind, key, value) of options()", decision
            )
        self._advance(step, table, decision)

    def _expect_walk(self, step: object, table: object) -> None:
        walk = self._steps()
        if not any(step is mine for mine in walk) and (
            not isinstance(step, WalkStep) or step not in walk  # a step of the same turn's walk
        ):
            raise ArgumentTypeError("step", "a step of this space's walk()", step)
        if not isinstance(table, Table) or not isinstance(table.choices, _Forced):
            raise ArgumentTypeError("table", "a table of this space's start_table()", table)

    # --- the walk -----------------------------------------------------------------------------

    def _start(self) -> Table:
        table = Table(self.state)
        table.choices = _Forced({}, {}, {})
        return table

    def _steps(self) -> list[WalkStep]:
        """The activation steps of the plan, each robot's assembly placed right after the
        last step that can change its feet (it changes nothing any other step reads)."""
        if self._walk is not None:
            return self._walk
        reading = self._reading
        steps: list[WalkStep] = []
        for run, subject in self._plan:
            robots, dumps = _touched(run, subject, reading)
            if robots or dumps:
                steps.append(WalkStep(run, subject, frozenset(robots), frozenset(dumps)))
        walk: list[WalkStep] = []
        last = dict.fromkeys(reading.numbers, -1)
        for index, step in enumerate(steps):
            for robot in step.robots:
                last[robot] = index
        for robot in reading.numbers:
            if last[robot] == -1:
                walk.append(WalkStep(None, None, frozenset({robot}), frozenset(), robot))
        for index, step in enumerate(steps):
            walk.append(step)
            for robot in sorted(robot for robot in step.robots if last[robot] == index):
                walk.append(WalkStep(None, None, frozenset({robot}), frozenset(), robot))
        self._walk = walk
        self._live = _live_places(walk)
        return walk

    def _key(self, index: int, table: Table) -> tuple[Any, ...]:
        robots, dumps = self._live[index]
        return (
            index,
            tuple(
                (tuple(sorted(table.feet[robot])), tuple(sorted(table.circuit_of(robot))))
                for robot in robots
            ),
            tuple(tuple(sorted(table.dumps[dump])) for dump in dumps),
            tuple(sorted((victim, tuple(sorted(pool))) for victim, pool in table.held.items())),
        )

    def _count(self, index: int, table: Table) -> int:
        walk = self._steps()
        total = 1
        while index < len(walk):
            step = walk[index]
            options = self._options(step, table)
            if step.assembling:
                total *= max(1, len(options))
                index += 1
                continue
            if len(options) <= 1:
                self._advance(step, table, options[0] if options else None)
                index += 1
                continue
            key = self._key(index, table)
            known = self._memo.get(key)
            if known is None:
                known = 0
                for option in options:
                    child = table.copy()
                    self._advance(step, child, option)
                    known += self._count(index + 1, child)
                self._memo[key] = known
            return total * known
        return total

    def _combinations(self, index: int, table: Table) -> Iterator[list[Decision]]:
        walk = self._steps()
        if index == len(walk):
            yield []
            return
        step = walk[index]
        options = self._options(step, table)
        if not options:
            self._advance(step, table, None)
            yield from self._combinations(index + 1, table)
            return
        for option in options:
            child = table.copy()
            self._advance(step, child, option)
            for rest in self._combinations(index + 1, child):
                yield [option, *rest]

    def _options(self, step: WalkStep, table: Table, most: int | None = None) -> list[Decision]:
        """The decisions of ``step`` on ``table``: none for a step that decides nothing; with
        ``most``, the first ``most + 1`` of them."""
        if step.assembling:
            robot = step.assembling
            rule = self.state.options.assembly
            return [
                ("assembly", robot, pick)
                for pick in assembly_options(robot, table.feet[robot], rule)
            ]
        run, subject = step.run, step.subject
        assert run is not None
        if reach_of(run).steals:
            defender, attacker = subject
            return [("steal", subject, steal) for steal in steal_options(table, defender, attacker)]
        split = self._split(step, table)
        if split is None:
            return []
        place, pool, takers = split
        ways = itertools.islice(split_options(pool, takers), None if most is None else most + 1)
        return [
            ("split", place, dict(zip(takers, _as_gears(shares), strict=True))) for shares in ways
        ]

    def _split(self, step: WalkStep, table: Table) -> tuple[Place, list[int], list[int]] | None:
        """The place, pool and takers of the split ``step`` decides, if it decides one."""
        if step.run is None or step.assembling:
            return None
        reach = reach_of(step.run)
        if reach.steals or reach.pile is None:
            return None
        split = reach.pile(step.subject, table, self._reading)
        if split is None:
            return None
        place, pool, takers = split
        if len(takers) < 2 or len(pool) < len(takers):
            return None
        return place, list(pool), list(takers)

    def _advance(self, step: WalkStep, table: Table, decision: Decision | None) -> None:
        """Run ``step`` on ``table`` with ``decision`` forced (an assembly runs nothing)."""
        if step.run is None:
            return
        if decision is not None:
            # A new _Forced: the copies of a table share the one they were made with.
            forced = table.choices
            assert isinstance(forced, _Forced)
            kind, key, value = decision
            if kind == "steal":
                steals = {**forced.defence_steals, key: value}
                table.choices = _Forced(steals, forced.assemblies, forced.splits)
            else:
                splits = {**forced.splits, key: value}
                table.choices = _Forced(forced.defence_steals, forced.assemblies, splits)
        step.run(table, self._reading, step.subject)


def _touched(step: Step, subject: Any, reading: ProgramReading) -> tuple[set[int], set[int]]:
    """The robots and dumps a step of the plan changes, as the step declares (:func:`reach_of`)."""
    robots, dumps = reach_of(step).touches(subject, reading)
    return set(robots), set(dumps)


def _live_places(walk: list[WalkStep]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """For each position of the walk, the robots and dumps that it or a later step reads."""
    live: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())] * (len(walk) + 1)
    robots: set[int] = set()
    dumps: set[int] = set()
    for index in range(len(walk) - 1, -1, -1):
        # An assembly comes after the last step that changes its robot (_steps), so the
        # union of what the later steps touch is exactly what is still live.
        robots |= walk[index].robots
        dumps |= walk[index].dumps
        live[index] = (tuple(sorted(robots)), tuple(sorted(dumps)))
    return live


def _as_gears(shares: tuple[tuple[int, ...], ...]) -> list[tuple[Gear, ...]]:
    return [tuple(gear_of(rank) for rank in share) for share in shares]


def _places_key(table: Table) -> tuple[Any, ...]:
    """What a step of the walk may change on a table: every robot's feet and circuit, every
    dump and the gears held back for a victim."""
    numbers = table.numbers
    return (
        tuple(tuple(sorted(table.feet[n])) for n in numbers),
        tuple(tuple(sorted(table.circuit_of(n))) for n in numbers),
        tuple(tuple(sorted(ranks)) for ranks in table.dumps),
        tuple(sorted((victim, tuple(sorted(pool))) for victim, pool in table.held.items())),
    )


def as_choices(decisions: Iterable[Decision]) -> Choices:
    """The decisions of a turn, as ``(kind, key, value)`` triples, as a :class:`Choices`."""
    steals: dict[tuple[int, int], DefenceSteal] = {}
    assemblies: dict[int, tuple[Gear, ...]] = {}
    splits: dict[Place, Mapping[int, tuple[Gear, ...]]] = {}
    for kind, key, value in decisions:
        if kind == "steal":
            steals[key] = value
        elif kind == "split":
            splits[key] = value
        else:
            assemblies[key] = value
    return Choices(defence_steals=steals, assemblies=assemblies, splits=splits)


@on_built_state
def legal_choices(state: GameState, programs: Programs) -> ChoiceSpace:
    """The space of every legal post-reveal decision of the turn ``programs`` make.

    Every defence steal's candidate gears and sources (ATK-4), every legal allocation of
    every split among several takers (SPL-1 to SPL-5; a Super Shovel always splits by the
    default, R-SHOVEL), and every robot's legal assemblies, declining included where assembly
    is optional (ASM-1). Each combination is a :class:`~outofgears.rules.choices.Choices` giving
    every decision; :func:`~outofgears.apply_turn` accepts each of them. Building the space
    costs about as much as reading the programs; :meth:`ChoiceSpace.count` and
    :meth:`ChoiceSpace.sample` never enumerate the combinations.

    Raises:
        IllegalProgramError: A program the rules do not allow.
        GameOverError: The game is over.

    >>> from outofgears import Program, apply_turn, gears, from_position
    >>> state = from_position(robots={1: {"feet": gears(2, 3, 3)}, 2: {}},
    ...                       dumps={1: (), 2: ()}, reserve=())
    >>> space = legal_choices(state, {1: Program.parse("attack 2"), 2: Program.parse("attack 2")})
    >>> space.count()
    2
    >>> [dict(choices.defence_steals) for choices in space]
    [{(2, 1): DefenceSteal(source='feet', gear=Gear(2))}, {(2, 1): DefenceSteal(source='feet', gear=Gear(3))}]
    """
    space = ChoiceSpace(state, programs)
    # What the space reads later, read now, where a state altered after it was built is named
    # (on_built_state): every place, the walk, the options.
    space.start_table()
    space.walk()
    check_state(state)
    return space
