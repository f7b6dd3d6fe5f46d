"""Sharing: several robots taking from one dump or one robot at once.

Spec SPL-1 to SPL-5 (ruling R-SPLIT). With ``n`` takers and ``g`` gears each
taker gets ``g // n`` gears and the rest stay where they were; with fewer gears
than takers nobody gets any. Each taker first gets gears of its own colour, up
to its share. The same rule serves dumps (harvests, sprung traps) and robots
(several attackers of one robot); a single taker is a split with one share.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from attrs import frozen

from outofgears.errors import IllegalChoiceError
from outofgears.events import Event, GearMoved, SplitResolved
from outofgears.gears import Gear, clockwise_after, describe_gears, gear_key, ring_key, sort_gears
from outofgears.model import Place


@frozen
class Split:
    """The outcome of a split: each taker's gears, and what stays behind.

    >>> from outofgears.gears import gears
    >>> split_gears(gears(1, 2, 2, 3, 5), (2, 3), place_number=1)
    Split(shares=((2, (Gear(2), Gear(2))), (3, (Gear(3), Gear(5)))), left=(Gear(1),))
    """

    shares: tuple[tuple[int, tuple[Gear, ...]], ...]
    left: tuple[Gear, ...]

    def share_of(self, robot: int) -> tuple[Gear, ...]:
        """The gears robot ``robot`` takes."""
        return dict(self.shares)[robot]


def share_size(gear_count: int, taker_count: int) -> int:
    """How many gears each taker gets: an equal whole share (SPL-1), none if too few (SPL-4).

    >>> share_size(7, 3), share_size(2, 3)
    (2, 0)
    """
    return gear_count // taker_count


def own_colour_quota(pool: Sequence[Gear], robot: int, share: int) -> int:
    """How many of its own colour a taker must get: all there are, up to its share (SPL-2).

    >>> from outofgears.gears import gears
    >>> own_colour_quota(gears(1, 1, 1, 2), 1, 2), own_colour_quota(gears(1, 2, 2), 1, 2)
    (2, 1)
    """
    return min(share, sum(1 for gear in pool if gear.has_priority_for(robot)))


def split_gears(
    pool: Sequence[Gear],
    takers: Sequence[int],
    proposed: Mapping[int, Sequence[Gear]] | None = None,
    *,
    place_number: int,
) -> Split:
    """Split ``pool`` among ``takers``: the proposed split if legal, else the default.

    Args:
        pool: The gears on the dump, or at the robot's feet.
        takers: The robots taking from it.
        proposed: A split the table agreed on, checked by :func:`check_split`.
        place_number: The number the place bears: the dump's, or the victim's. The
            default split deals its rounds clockwise after it (ruling R-SYMMETRY).

    Returns:
        Each taker's share and the gears left behind (SPL-3).

    >>> from outofgears.gears import gears, describe_gears
    >>> result = split_gears(gears(4, 4, 4, 1), (1, 4), place_number=2)
    >>> describe_gears(result.share_of(1)), describe_gears(result.share_of(4))
    ('1 red, 1 green', '2 green')
    """
    ordered = tuple(sorted(set(takers)))
    share = share_size(len(pool), len(ordered))
    if proposed is not None:
        check_split(pool, ordered, proposed)
        shares = {robot: sort_gears(proposed[robot]) for robot in ordered}
    else:
        shares = default_split(pool, ordered, share, place_number=place_number)
    left = list(pool)  # every share is drawn from the pool (default_split, check_split)
    for given in shares.values():
        for gear in given:
            left.remove(gear)
    return Split(
        shares=tuple((robot, shares[robot]) for robot in ordered),
        left=sort_gears(left),
    )


def default_split(
    pool: Sequence[Gear], takers: Sequence[int], share: int, *, place_number: int
) -> dict[int, tuple[Gear, ...]]:
    """The default split policy (SPL-5, ruling R-SYMMETRY).

    Each taker first takes its own-colour gears up to its share. Then the remaining
    gears are dealt one at a time, round-robin over the takers that still need gears,
    each round starting with the first taker clockwise after ``place_number`` (the
    dump's number, or the victim's), so that a robot taking from its own dump comes
    last. Each taker takes the gear worth most to it; among equals, the colours in the
    ring after its own come first (:func:`~outofgears.gears.ring_key`).

    >>> from outofgears.gears import gears, describe_gears
    >>> shares = default_split(gears(1, 1, 1, 2, 3, 3), (1, 2, 3), 2, place_number=3)
    >>> [describe_gears(shares[r]) for r in (1, 2, 3)]
    ['2 red', '1 red, 1 orange', '2 yellow']
    >>> shares = default_split(gears(1, 5, 6, 7), (2, 4), 2, place_number=3)
    >>> [describe_gears(shares[r]) for r in (2, 4)]
    ['1 red, 1 purple', '1 blue, 1 grey']
    """
    remaining = sorted(pool, key=gear_key)
    shares: dict[int, list[Gear]] = {robot: [] for robot in takers}
    if share == 0:
        return dict.fromkeys(takers, ())
    for robot in takers:
        own = [gear for gear in remaining if gear.has_priority_for(robot)][:share]
        for gear in own:
            remaining.remove(gear)
        shares[robot].extend(own)
    rounds = clockwise_after(place_number, takers)
    while any(len(got) < share for got in shares.values()):
        for robot in rounds:
            if len(shares[robot]) < share:
                best = min(
                    remaining, key=lambda gear: (-gear.points_for(robot), ring_key(gear, robot))
                )
                remaining.remove(best)
                shares[robot].append(best)
    return {robot: sort_gears(got) for robot, got in shares.items()}


def check_split(
    pool: Sequence[Gear], takers: Sequence[int], proposed: Mapping[int, Sequence[Gear]]
) -> None:
    """Refuse a proposed split that the rules do not allow (SPL-5).

    A split is legal when it gives exactly the takers, each exactly the equal
    share (SPL-1, SPL-4), from gears that are in the pool, and each taker all
    of its own colour there is, up to its share (SPL-2).

    >>> from outofgears.gears import gears
    >>> check_split(gears(1, 2, 2, 2), (1, 2), {1: gears(2, 2), 2: gears(1, 2)})
    Traceback (most recent call last):
    ...
    outofgears.errors.IllegalChoiceError: robot 1: it must get 1 gear(s) of its own colour, not 0 (SPL-2)
    """
    ordered = tuple(sorted(set(takers)))
    share = share_size(len(pool), len(ordered))
    if set(proposed) != set(ordered):
        strays = sorted(set(proposed) ^ set(ordered))
        raise IllegalChoiceError(
            strays[0],
            f"a split must give a share to exactly robots {list(ordered)}, not {sorted(proposed)}",
            clause="SPL-1",
        )
    available = Counter(pool)
    for robot in ordered:
        got = list(proposed[robot])
        if len(got) != share:
            clause = "SPL-4" if share == 0 else "SPL-1"
            raise IllegalChoiceError(
                robot, f"its share is {share} gear(s), not {len(got)}", clause=clause
            )
        quota = own_colour_quota(pool, robot, share)
        own = sum(1 for gear in got if gear.has_priority_for(robot))
        if own != quota:
            raise IllegalChoiceError(
                robot,
                f"it must get {quota} gear(s) of its own colour, not {own}",
                clause="SPL-2",
            )
        available.subtract(got)
        missing = [gear for gear, count in available.items() if count < 0]
        if missing:
            raise IllegalChoiceError(
                robot,
                f"its share holds gears that are not there: {describe_gears(missing)}",
                clause="SPL-1",
            )


def take_gears(
    pool: Sequence[Gear],
    source: Place,
    takers: Sequence[int],
    clause: str | Mapping[int, str],
    proposed: Mapping[int, Sequence[Gear]] | None = None,
) -> list[Event]:
    """The events of ``takers`` taking the gears of ``source`` to their feet.

    One taker takes everything; several split (SPL-1 to SPL-5), and a
    :class:`SplitResolved` event records the share and the leftover. ``clause``
    is the clause the gears move under, or one per taker.

    >>> from outofgears.gears import gears
    >>> [str(e) for e in take_gears(gears(3), Place.dump(2), (1,), "HRV-2")]
    ['yellow gear: dump 2 -> robot 1 feet (robot 1) [HRV-2]']
    """
    result = split_gears(pool, takers, proposed, place_number=source.number)
    events: list[Event] = []
    if len(result.shares) > 1:
        clause_of_split = "SPL-4" if len(pool) < len(result.shares) else "SPL-1"
        events.append(
            SplitResolved(
                place=source,
                takers=tuple(robot for robot, _ in result.shares),
                share=len(result.shares[0][1]),
                left=result.left,
                clause=clause_of_split,
            )
        )
    for robot, share in result.shares:
        why = clause if isinstance(clause, str) else clause[robot]
        events.extend(GearMoved(gear, source, Place.feet(robot), robot, why) for gear in share)
    return events
