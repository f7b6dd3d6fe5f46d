"""Sharing: several robots taking from one dump or one robot at once.

Spec SPL-1 to SPL-5 (rulings R-SPLIT, R-SYMMETRY). With ``n`` takers and ``g`` gears each
taker gets ``g // n`` gears and the rest stay where they were; with fewer gears than takers
nobody gets any. Each taker first gets gears of its own colour, up to its share. The same rule
serves dumps (harvests, sprung traps, shovels) and robots (several attackers of one robot); a
single taker takes everything.

The engine works on gear ranks (:mod:`outofgears.rules.table`); the functions on gears below are the
same rules for callers that hold :class:`~outofgears.rules.gears.Gear` objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from attrs import frozen

from outofgears.rules.events import SplitResolved
from outofgears.rules.gears import (
    BEST_FIRST,
    OWN_RANK,
    Gear,
    gear_of,
    gear_ranks,
    gears_of,
    taking_order,
)
from outofgears.rules.model import Place
from outofgears.rules.refusals import choice_refused, choice_refused_counted
from outofgears.rules.table import Table


@frozen
class Split:
    """The outcome of a split: each taker's gears, and what stays behind.

    >>> from outofgears.rules.gears import gears
    >>> split_gears(gears(1, 2, 2, 3, 5), (2, 3), place_number=4)
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


def own_quota(counts: Sequence[int], robot: int, share: int) -> int:
    """How many of its own colour a taker must get: all there are, up to its share (SPL-2).

    ``counts[rank]`` is how many gears of each rank the pool holds; Jolly and three-point
    gears are nobody's colour (JOL-2, TRI-2).

    >>> own_quota([3, 1, 0, 0, 0, 0, 0, 0, 0, 0], 1, 2), own_quota([1, 2] + [0] * 8, 1, 2)
    (2, 1)
    """
    return min(share, counts[OWN_RANK[robot]])


def rank_counts(pool: Iterable[int]) -> list[int]:
    """How many gears of each rank ``pool`` holds: a list of ten counts.

    >>> rank_counts([0, 0, 9])
    [2, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    """
    counts = [0] * 10
    for rank in pool:
        counts[rank] += 1
    return counts


def own_colour_quota(pool: Sequence[Gear], robot: int, share: int) -> int:
    """:func:`own_quota` of a pool of gears.

    >>> from outofgears.rules.gears import gears
    >>> own_colour_quota(gears(1, 1, 1, 2), 1, 2), own_colour_quota(gears(1, 2, 2), 1, 2)
    (2, 1)
    """
    return own_quota(rank_counts(gear_ranks(pool)), robot, share)


# --- the default split, on ranks ------------------------------------------------------------


def deal(
    pool: Sequence[int], takers: Sequence[int], share: int, after: int
) -> tuple[list[list[int]], list[int]]:
    """The default split policy (SPL-5, ruling R-SYMMETRY) on ranks: each share and the rest.

    Each taker first takes its own-colour gears up to its share (SPL-2). Then the remaining
    gears are dealt one at a time, round after round, to the takers still short: the round
    starts with the first taker clockwise after number ``after`` (the dump's number, or the
    attacked robot's), and each taker takes the gear worth most to it, ties by the ring from
    its own colour (:data:`~outofgears.rules.gears.BEST_FIRST`). The shares come back in the order
    of ``takers``.

    >>> deal([0, 0, 0, 1, 2, 2], [1, 2, 3], 2, after=5)
    ([[0, 0], [0, 1], [2, 2]], [])
    >>> deal([3, 5], [2, 4], 1, after=3)
    ([[5], [3]], [])
    """
    if share == 0:
        return [[] for _ in takers], sorted(pool)
    counts = rank_counts(pool)
    shares: dict[int, list[int]] = {}
    for taker in takers:
        own = OWN_RANK[taker]
        owned = own_quota(counts, taker, share)
        counts[own] -= owned
        shares[taker] = [own] * owned
    order = taking_order(takers, after)
    short = [taker for taker in order if len(shares[taker]) < share]
    while short:
        for taker in short:
            got = shares[taker]
            for rank in BEST_FIRST[taker]:
                if counts[rank]:
                    counts[rank] -= 1
                    got.append(rank)
                    break
        short = [taker for taker in short if len(shares[taker]) < share]
    if len(pool) == share * len(takers):
        return [sorted(shares[taker]) for taker in takers], []
    left = [rank for rank in range(10) for _ in range(counts[rank])]
    return [sorted(shares[taker]) for taker in takers], left


# --- explicit splits ----------------------------------------------------------------------------


def check_split_ranks(
    pool: Sequence[int], takers: Sequence[int], proposed: Mapping[int, Sequence[Gear]]
) -> tuple[list[list[int]], list[int]]:
    """Check a split the table agreed on (SPL-5); its shares as ranks in ``takers``' order and
    the rest, or :class:`~outofgears.errors.IllegalChoiceError` naming the taker at fault.

    A split is legal when it gives exactly the takers, each exactly the equal share (SPL-1,
    SPL-4), from gears that are in the pool, and each taker all of its own colour there is, up
    to its share (SPL-2).
    """
    share = share_size(len(pool), len(takers))
    if len(proposed) != len(takers) or any(robot not in proposed for robot in takers):
        # The refusal names a robot given a share that does not take, else a taker left out
        # (GEN-2).
        strays = sorted(set(proposed) - set(takers)) or sorted(set(takers) - set(proposed))
        raise choice_refused(
            "a split must give a share to exactly robots {takers}, not {proposed}",
            robot=strays[0],
            clause="SPL-1",
            takers=str(list(takers)),
            proposed=str(sorted(proposed)),
        )
    counts = rank_counts(pool)
    available = list(counts)
    shares: list[list[int]] = []
    for robot in takers:
        got = gear_ranks(proposed[robot])
        if len(got) != share:
            clause = "SPL-4" if share == 0 else "SPL-1"
            raise choice_refused_counted(
                "its share is {share} gear, not {got}",
                "its share is {share} gears, not {got}",
                share,
                robot=robot,
                clause=clause,
                share=share,
                got=len(got),
            )
        quota = own_quota(counts, robot, share)
        own = got.count(OWN_RANK[robot])
        if own != quota:
            raise choice_refused_counted(
                "it must get {quota} gear of its own colour, not {own}",
                "it must get {quota} gears of its own colour, not {own}",
                quota,
                robot=robot,
                clause="SPL-2",
                quota=quota,
                own=own,
            )
        for rank in got:
            available[rank] -= 1
        missing = [gear_of(rank) for rank in range(10) if available[rank] < 0]
        if missing:
            raise choice_refused(
                "its share holds gears that are not there: {missing}",
                robot=robot,
                clause="SPL-1",
                missing=tuple(missing),
            )
        shares.append(sorted(got))
    left = [rank for rank in range(10) for _ in range(available[rank])]
    return shares, left


def split_options(
    pool: Sequence[int], takers: Sequence[int]
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every legal split of ``pool`` among ``takers`` (SPL-1 to SPL-4), as ranks per taker.

    Each taker, in the order of ``takers``, gets all of its own colour there is up to its
    share and the rest of its share from the other gears; the splits come in a stable order
    (each share as an ascending tuple, earlier takers' shares varying slowest).

    >>> list(split_options([0, 1, 2, 2], [1, 2]))
    [((0, 2), (1, 2))]
    >>> len(list(split_options([2, 3, 4, 5], [1, 2])))
    6
    """
    share = share_size(len(pool), len(takers))
    counts = rank_counts(pool)
    quotas = [own_quota(counts, robot, share) for robot in takers]

    def fill(index: int) -> Iterator[tuple[tuple[int, ...], ...]]:
        if index == len(takers):
            yield ()
            return
        own = OWN_RANK[takers[index]]
        quota = quotas[index]
        if counts[own] < quota:
            return
        counts[own] -= quota
        # _multisets keeps ``rest`` out of ``counts`` while it is yielded.
        for rest in _multisets(counts, share - quota, skip=own):
            taken = tuple(sorted((own,) * quota + rest))
            for later in fill(index + 1):
                yield (taken, *later)
        counts[own] += quota

    yield from fill(0)


def _multisets(
    counts: list[int], size: int, skip: int, start: int = 0
) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` ranks from ``counts`` (rank ``skip`` excluded), ascending."""
    if size == 0:
        yield ()
        return
    for rank in range(start, 10):
        if rank == skip or counts[rank] <= 0:
            continue
        counts[rank] -= 1
        for rest in _multisets(counts, size - 1, skip, rank):
            yield (rank, *rest)
        counts[rank] += 1


# --- taking, on the table ---------------------------------------------------------------------


def take(
    table: Table,
    pool: list[int],
    place: Place,
    takers: Sequence[int],
    clauses: Sequence[str] | None,
    after: int,
) -> list[int]:
    """``takers`` (ascending) take the ``pool`` of ``place`` to their feet; returns what stays.

    One taker takes everything; several split it (SPL-1 to SPL-5): by the table's explicit
    split of ``place`` if there is one, else by the default (:func:`deal`, starting the round
    after number ``after``). ``clauses[i]`` is the clause taker ``i`` takes under, for the
    events; ``None`` when the table records none.
    """
    choices = table.choices
    splits = None if choices is None else choices.splits
    proposed = splits.get(place) if splits else None  # no Place hashed when nothing is chosen
    if len(takers) == 1 and proposed is None:
        table.give(pool, place, takers[0], clauses[0] if clauses else "")
        return []
    if proposed is None:
        shares, left = deal(pool, takers, share_size(len(pool), len(takers)), after)
    else:
        shares, left = check_split_ranks(pool, takers, proposed)
    if len(takers) > 1 and table.events is not None:
        table.events.append(
            SplitResolved(
                place,
                tuple(takers),
                len(shares[0]),
                gears_of(list(left)),
                "SPL-4" if len(pool) < len(takers) else "SPL-1",
            )
        )
    for index, taker in enumerate(takers):
        table.give(shares[index], place, taker, clauses[index] if clauses else "")
    return left


# --- the same rules on gears ------------------------------------------------------------------


def default_split(
    pool: Sequence[Gear], takers: Sequence[int], share: int, *, place_number: int
) -> dict[int, tuple[Gear, ...]]:
    """The default split (SPL-5, :func:`deal`) of a pool of gears: each taker's share.

    >>> from outofgears.rules.gears import gears, describe_gears
    >>> shares = default_split(gears(1, 1, 1, 2, 3, 3), (1, 2, 3), 2, place_number=5)
    >>> [describe_gears(shares[r]) for r in (1, 2, 3)]
    ['2 red', '1 red, 1 orange', '2 yellow']
    """
    ordered = sorted(set(takers))
    shares, _ = deal(gear_ranks(pool), ordered, share, place_number)
    return {robot: gears_of(got) for robot, got in zip(ordered, shares, strict=True)}


def check_split(
    pool: Sequence[Gear], takers: Sequence[int], proposed: Mapping[int, Sequence[Gear]]
) -> None:
    """Refuse a proposed split that the rules do not allow (SPL-5, :func:`check_split_ranks`).

    >>> from outofgears.rules.gears import gears
    >>> check_split(gears(1, 2, 2, 2), (1, 2), {1: gears(2, 2), 2: gears(1, 2)})
    Traceback (most recent call last):
    ...
    outofgears.errors.IllegalChoiceError: robot 1: it must get 1 gear of its own colour, not 0 (SPL-2)
    """
    check_split_ranks(gear_ranks(pool), sorted(set(takers)), proposed)


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
        place_number: The number of the place (dump or attacked robot): the default's round
            starts with the first taker clockwise after it (R-SYMMETRY).

    >>> from outofgears.rules.gears import gears, describe_gears
    >>> result = split_gears(gears(4, 4, 4, 1), (1, 4), place_number=4)
    >>> describe_gears(result.share_of(1)), describe_gears(result.share_of(4))
    ('1 red, 1 green', '2 green')
    """
    ordered = sorted(set(takers))
    ranks = gear_ranks(pool)
    if proposed is None:
        shares, left = deal(ranks, ordered, share_size(len(ranks), len(ordered)), place_number)
    else:
        shares, left = check_split_ranks(ranks, ordered, proposed)
    return Split(
        shares=tuple((robot, gears_of(got)) for robot, got in zip(ordered, shares, strict=True)),
        left=gears_of(left),
    )
