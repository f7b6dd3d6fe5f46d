"""What each decision of a turn can change: :func:`decision_reach`.

The judge says what the rules allowed instead of a departing value (only the decisions that can
change it), and asks whether another reading of the rule options allows one robot's recorded
gears (searching only the decisions that can change them). Both read the reach the rules' own
steps declare (:attr:`~outofgears.rules.legal.WalkStep.robots` and ``dumps``, from
:func:`~outofgears.rules.table.reaches`), carried forward along the turn's walk.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from outofgears.errors import OutOfGearsError
from outofgears.rules.choices import Choices, DefenceSteal
from outofgears.rules.events import GearMoved, SplitResolved
from outofgears.rules.gears import Gear
from outofgears.rules.legal import ChoiceSpace, WalkStep, as_choices
from outofgears.rules.model import GameState, Place, PlaceKind
from outofgears.rules.programs import Programs
from outofgears.rules.turn import TurnResult, resolve_turn

#: What each decision of a turn can change, keyed by ``(kind, key)``: the robots and the dumps
#: (see :func:`decision_reach`).
Reach = Mapping[tuple[str, Any], tuple[frozenset[int], frozenset[int]]]


def decision_reach(state: GameState, programs: Programs, choices: Choices) -> Reach:
    """What each decision of a turn can change, read along the play ``choices`` make: the
    robots and dumps of the step that decides it (:attr:`~outofgears.rules.legal.WalkStep.robots`,
    as the rules' steps declare what they touch), and of every later step that touches one of
    them (a steal from an attacker changes what the attacker's own victims' attackers take).

    >>> from outofgears import Program, gears, from_position
    >>> state = from_position(robots={1: {"feet": gears(2, 3, 3)}, 2: {}, 3: {}},
    ...                       dumps={1: (), 2: (), 3: gears(4, 5)}, reserve=())
    >>> programs = {1: Program.parse("attack 2"), 2: Program.parse("attack 2"),
    ...             3: Program.parse("harvest 3")}
    >>> reach = decision_reach(state, programs, Choices())
    >>> sorted(reach)
    [('steal', (2, 1))]
    >>> reach[("steal", (2, 1))]
    (frozenset({1, 2}), frozenset())
    """
    space = ChoiceSpace(state, programs)
    walk = space.walk()
    made = {(kind, key): value for kind, key, value in decisions_of(choices)}
    table = space.start_table()
    found: dict[tuple[str, Any], tuple[frozenset[int], frozenset[int]]] = {}
    for index, step in enumerate(walk):
        listed = space.options(step, table, most=1)
        decision = None
        if listed:
            kind, key, _ = listed[0]
            found[(kind, key)] = _onward(walk, index)
            if (kind, key) in made:
                decision = (kind, key, made[(kind, key)])
        space.advance(step, table, decision)
    return found


def decisions_of(choices: Choices) -> list[tuple[str, Any, Any]]:
    """The decisions of ``choices`` as ``(kind, key, value)``, as the walk lists them."""
    return [
        *(("steal", key, steal) for key, steal in choices.defence_steals.items()),
        *(("split", place, shares) for place, shares in choices.splits.items()),
        *(("assembly", robot, pick) for robot, pick in choices.assemblies.items()),
    ]


def _onward(walk: Sequence[WalkStep], index: int) -> tuple[frozenset[int], frozenset[int]]:
    robots, dumps = set(walk[index].robots), set(walk[index].dumps)
    for step in walk[index + 1 :]:
        if robots & step.robots or dumps & step.dumps:
            robots |= step.robots
            dumps |= step.dumps
    return frozenset(robots), frozenset(dumps)


def unrelated(choices: Choices, reach: Reach, robot: int) -> Choices:
    """The decisions of ``choices`` that cannot change ``robot``'s gears, nor be changed by a
    decision that can: a search for its recorded gears may keep them as they are (whatever the
    others are searched to, they stay legal, and they change nothing the search reads).

    >>> from outofgears.rules.gears import gears
    >>> reach = {("assembly", 1): (frozenset({1}), frozenset()),
    ...          ("assembly", 2): (frozenset({2}), frozenset())}
    >>> dict(unrelated(Choices(assemblies={1: gears(1, 2), 2: ()}), reach, 1).assemblies)
    {2: ()}
    """
    robots: set[int] = set()
    dumps: set[int] = set()
    for reached, touched in reach.values():
        if robot in reached:
            robots |= reached
            dumps |= touched
    return as_choices(
        (kind, key, value)
        for kind, key, value in decisions_of(choices)
        if (kind, key) in reach
        and not reach[(kind, key)][0] & robots
        and not reach[(kind, key)][1] & dumps
        and robot not in reach[(kind, key)][0]
    )


def played(state: GameState, programs: Programs, given: Choices, result: TurnResult) -> Choices:
    """Every decision of the play ``result`` (resolved with ``given``, the default policies
    deciding the rest), read back from its moves: each defence steal, split and assembly.
    Checked by resolving the turn with them: when they do not give ``result``'s position (a
    move this reading does not know), ``given`` alone.

    >>> from outofgears import Program, gears, from_position, resolve_turn
    >>> state = from_position(robots={1: {"feet": gears(2, 3, 3)}, 2: {}},
    ...                       dumps={1: (), 2: ()}, reserve=())
    >>> programs = {1: Program.parse("attack 2"), 2: Program.parse("attack 2")}
    >>> made = played(state, programs, Choices(), resolve_turn(state, programs))
    >>> dict(made.defence_steals)
    {(2, 1): DefenceSteal(source='feet', gear=Gear(2))}
    """
    steals: dict[tuple[int, int], DefenceSteal] = {}
    splits: dict[Place, dict[int, tuple[Gear, ...]]] = {}
    assemblies: dict[int, list[Gear]] = {}
    open_splits: dict[Place, tuple[int, ...]] = {}
    for event in result.events:
        if isinstance(event, SplitResolved):
            open_splits[event.place] = event.takers
            splits[event.place] = dict.fromkeys(event.takers, ())
        elif isinstance(event, GearMoved) and event.robot is not None:
            robot, source = event.robot, event.source
            if event.clause in ("ATK-4", "SATK-2"):
                feet = source.kind is PlaceKind.FEET
                steal = DefenceSteal("feet" if feet else "circuit", event.gear)
                steals[(robot, source.number)] = steal
            elif event.clause.startswith("ASM"):
                assemblies.setdefault(robot, []).append(event.gear)
            elif robot in open_splits.get(source, ()):
                splits[source][robot] = (*splits[source][robot], event.gear)
    made = given.with_decisions(
        Choices(
            defence_steals=steals,
            assemblies={robot: tuple(pick) for robot, pick in assemblies.items()},
            splits=splits,
        )
    ).with_decisions(given)
    try:
        again = resolve_turn(state, programs, choices=made)
    except OutOfGearsError:
        return given
    return made if again.state == result.state else given


#: The public names of this module (the rest serves :mod:`outofgears.judge.replay` and
#: :mod:`outofgears.judge.culprit`).
__all__ = ["Reach"]
