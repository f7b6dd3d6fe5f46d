"""Which rule a departing turn broke: :func:`cite_culprits`.

When no legal play gives what the players recorded, replay reports the turn against the legal
play that misses the fewest recorded values (:func:`outofgears.judge.inference.closest`). The
clause to cite is the one that forbids the recorded value, not the one of the event that moved
the gears the rules' way. Two questions find it:

- Would another reading of the rule options (R-DEFENCE's ``defence_steal_source``, R-ASSEMBLY's
  ``assembly``) allow the recorded values? Then the turn broke that option's clause: a steal
  from the attacker's circuit under ``feet_only`` (ATK-4), a robot that did not assemble under
  ``mandatory`` (ASM-1). Asked of the whole turn first; when the turn departs in something
  else as well (a score miscounted besides a steal from a circuit), asked of each robot's
  recorded gears alone: a robot's feet and circuit that the table's reading cannot give and
  the other reading can broke that option's clause, whatever else of the turn departs.
- Did a taker of a split end up with another share of the same pool than the closest play gave
  it? Then the split broke the share size (SPL-1) or the own-colour quota (SPL-2).

:func:`legal_under` answers the first question for one reading; ``dispute`` asks it of each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import attrs
from attrs import frozen

from outofgears.errors import ArgumentTypeError, expect
from outofgears.judge.inference import Branches, Target, reproduce
from outofgears.judge.reach import Reach, unrelated
from outofgears.log import Recorded, RobotGears
from outofgears.rules.assembly import can_assemble
from outofgears.rules.choices import Choices
from outofgears.rules.events import GearMoved, SplitResolved
from outofgears.rules.gears import Gear, gear_ranks, sort_gears
from outofgears.rules.model import (
    AssemblyRule,
    DefenceStealSource,
    GameState,
    PlaceKind,
    expect_state,
)
from outofgears.rules.programs import Programs
from outofgears.rules.sharing import own_colour_quota
from outofgears.rules.turn import TurnResult
from outofgears.words.findings import AssemblyDeclined, ShareQuota, ShareSize, StealFromCircuit


@frozen
class Culprit:
    """The rule a departing turn broke.

    Attributes:
        robot: The robot whose recorded values it explains, or ``None`` for all of the turn's.
        clause: The clause that forbids the recorded values.
        why: Why, as a fact (:mod:`outofgears.words.findings` says it in words).
    """

    robot: int | None
    clause: str
    why: StealFromCircuit | AssemblyDeclined | ShareSize | ShareQuota


def target_of(recorded: Recorded) -> Target:
    """What a search must reproduce: every recorded value of the turn."""
    return Target.of(
        {n: (g.feet, g.circuit) for n, g in recorded.robots.items()},
        recorded.dumps,
        recorded.scores,
    )


def legal_under(
    state: GameState,
    programs: Programs,
    given: Choices,
    recorded: Recorded,
    *,
    defence_steal_source: DefenceStealSource,
    assembly: AssemblyRule,
    branches: Branches | None = None,
) -> TurnResult | None:
    """A legal play under this reading of the rule options that gives every recorded value
    (and keeps ``given``), or ``None`` when there is none.

    Raises:
        ArgumentTypeError: An argument of the wrong type.
        InvalidStateError: A reading the options do not offer.
        IllegalProgramError: A program the rules do not allow.
        SearchBudgetError: The search ran past ``branches`` (its own budget when none is given).
    """
    _expect_turn(state, given, recorded)
    options = attrs.evolve(
        state.options, defence_steal_source=defence_steal_source, assembly=assembly
    )
    read = attrs.evolve(state, options=options)
    found = reproduce(read, programs, given, target_of(recorded), limit=1, branches=branches)
    return found[0].result if found else None


def cite_culprits(
    state: GameState,
    programs: Programs,
    given: Choices,
    recorded: Recorded,
    near: TurnResult,
    *,
    beside: tuple[Choices, Reach] | None = None,
    branches: Branches | None = None,
) -> list[Culprit]:
    """The rules a departing turn broke, as far as they can be named: see the module's text.

    ``near`` is the legal play that misses the fewest recorded values. ``beside`` is its
    decisions and what each can change (:func:`~outofgears.judge.reach.decision_reach`): the
    search for one robot's recorded gears then keeps the decisions that cannot change them
    (without it, the robots' gears are not searched one by one).

    Raises:
        ArgumentTypeError: An argument of the wrong type.
        SearchBudgetError: The searches ran past ``branches``.
    """
    _expect_turn(state, given, recorded)
    expect(near, TurnResult, "near", "a TurnResult")
    reading = _other_reading(state, programs, given, recorded, None, branches=branches)
    if reading is not None:
        return [reading]
    if beside is None:
        return _split_culprits(recorded, near)
    if not (isinstance(beside, tuple) and len(beside) == 2 and isinstance(beside[0], Choices)):
        raise ArgumentTypeError("beside", "None or a (Choices, reach) pair", beside)
    target = target_of(recorded)
    missed = [
        robot
        for robot in sorted(recorded.robots)
        if target.robot_distance(
            robot,
            gear_ranks(near.state.robot(robot).feet),
            gear_ranks(near.state.robot(robot).circuit),
        )
    ]
    robots = [
        culprit
        for robot in missed
        if (culprit := _robot_reading(state, programs, given, recorded, robot, beside, branches))
        is not None
    ]
    return robots + _split_culprits(recorded, near)


def _expect_turn(state: object, given: object, recorded: object) -> None:
    expect_state(state)
    expect(given, Choices, "given", "a Choices")
    expect(recorded, Recorded, "recorded", "a Recorded")


def _robot_reading(
    state: GameState,
    programs: Programs,
    given: Choices,
    recorded: Recorded,
    robot: int,
    beside: tuple[Choices, Reach],
    branches: Branches | None = None,
) -> Culprit | None:
    """The other reading that alone allows ``robot``'s recorded feet and circuit (which the
    closest play misses), when no play under the table's reading gives them. The closest
    play's decisions that cannot change them are kept (``beside``): a search over the others."""
    told = recorded.robots[robot]
    options = state.options
    stolen = any(kind == "steal" and robot in on for (kind, _), (on, _) in beside[1].items())
    readings = {
        "ATK-4": options.defence_steal_source == "feet_only" and stolen,
        "ASM-1": options.assembly == "mandatory"
        and _may_have_declined(told, state.robot(robot).circuit),
    }
    if not any(readings.values()):
        return None
    alone = Recorded(robots={robot: told})
    kept = given.with_decisions(unrelated(*beside, robot))
    other = _other_reading(state, programs, kept, alone, robot, readings, branches)
    if other is None or legal_under(
        state,
        programs,
        kept,
        alone,
        defence_steal_source=options.defence_steal_source,
        assembly=options.assembly,
        branches=branches,
    ):
        return None
    return other


#: Every reading of the rule options a culprit may come from, by the clause it decides.
_EVERY_READING: Mapping[str, bool] = {"ATK-4": True, "ASM-1": True}


def _may_have_declined(told: RobotGears, circuit: Sequence[Gear]) -> bool:
    """Whether a robot's recorded gears may be those of a robot that declined to assemble: at
    least three gears at its feet, no gear in its circuit that was not there before the turn
    (a steal may take one out). Only such a play of the optional reading is not one of the
    mandatory reading's too."""
    if told.feet is not None and not can_assemble(told.feet):
        return False
    return told.circuit is None or not Counter(told.circuit) - Counter(circuit)


def _other_reading(
    state: GameState,
    programs: Programs,
    given: Choices,
    recorded: Recorded,
    robot: int | None,
    readings: Mapping[str, bool] = _EVERY_READING,
    branches: Branches | None = None,
) -> Culprit | None:
    """The culprit for ``robot`` (``None``: every recorded value of the turn) when another
    reading of the rule options gives what ``recorded`` holds; only the readings ``readings``
    leaves to try (by clause: ATK-4's ``defence_steal_source``, ASM-1's ``assembly``)."""
    options = state.options
    if options.defence_steal_source == "feet_only" and readings["ATK-4"]:
        other = legal_under(
            state,
            programs,
            given,
            recorded,
            defence_steal_source="feet_or_circuit",
            assembly=options.assembly,
            branches=branches,
        )
        if other is not None:
            steals = [
                event
                for event in other.events
                if isinstance(event, GearMoved)
                and event.clause in ("ATK-4", "SATK-2")
                and event.source.kind is PlaceKind.CIRCUIT
            ]
            took = tuple((e.robot, e.gear, e.source) for e in steals if e.robot is not None)
            return Culprit(robot, "ATK-4", StealFromCircuit(took))
    if options.assembly == "mandatory" and readings["ASM-1"]:
        other = legal_under(
            state,
            programs,
            given,
            recorded,
            defence_steal_source=options.defence_steal_source,
            assembly="optional",
            branches=branches,
        )
        if other is not None:
            return Culprit(robot, "ASM-1", AssemblyDeclined())
    return None


def _split_culprits(recorded: Recorded, near: TurnResult) -> list[Culprit]:
    """A split whose takers' recorded gears say one of them took another share of the same
    pool than the closest play gave it: the rule that share breaks, cited for every taker
    (the others' shares changed with it)."""
    events = near.events
    found: list[Culprit] = []
    for index, event in enumerate(events):
        if not isinstance(event, SplitResolved):
            continue
        moved = [
            e
            for e in events[index + 1 :]
            if isinstance(e, GearMoved) and e.source == event.place and e.robot in event.takers
        ]
        pool = [e.gear for e in moved] + list(event.left)
        broken = [
            culprit
            for taker in event.takers
            if (got := _recorded_share(recorded, near, taker, moved, pool)) is not None
            and (culprit := _share_culprit(event, pool, taker, got)) is not None
        ]
        if broken:
            found += [attrs.evolve(broken[0], robot=taker) for taker in event.takers]
    return found


def _recorded_share(
    recorded: Recorded, near: TurnResult, taker: int, moved: list[GearMoved], pool: list[Gear]
) -> tuple[Gear, ...] | None:
    """The share of a split that ``taker``'s recorded gears say it took, when they differ from
    the closest play only by gears of that pool."""
    told = _recorded_total(recorded, near.state, taker)
    if told is None:
        return None
    robot = near.state.robot(taker)
    extra = Counter(told) - Counter(robot.all_gears)
    missing = Counter(robot.all_gears) - Counter(told)
    share = Counter(e.gear for e in moved if e.robot == taker)
    if not (extra or missing) or missing - share or extra - Counter(pool):
        return None
    return sort_gears((share - missing + extra).elements())


def _share_culprit(
    event: SplitResolved, pool: Sequence[Gear], taker: int, got: tuple[Gear, ...]
) -> Culprit | None:
    if len(got) != event.share:
        return Culprit(
            taker, "SPL-1", ShareSize(taker, got, event.place, event.takers, event.share)
        )
    quota = own_colour_quota(pool, taker, event.share)
    own = sum(1 for gear in got if gear.is_own_colour_of(taker))
    if own != quota:
        why = ShareQuota(taker, got, event.place, event.takers, sort_gears(pool), quota, own)
        return Culprit(taker, "SPL-2", why)
    return None


def _recorded_total(recorded: Recorded, state: GameState, robot: int) -> list[Gear] | None:
    """A robot's recorded gears, feet and circuit together, the part not recorded taken from
    ``state``; ``None`` if neither is recorded."""
    told = recorded.robots.get(robot)
    if told is None or (told.feet is None and told.circuit is None):
        return None
    real = state.robot(robot)
    feet = told.feet if told.feet is not None else real.feet
    circuit = told.circuit if told.circuit is not None else real.circuit
    return [*feet, *circuit]


#: The public names of this module (the rest serves them).
__all__ = ["Culprit", "cite_culprits", "legal_under", "target_of"]
