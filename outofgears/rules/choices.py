"""Post-reveal decisions: which gear a defender takes, which gears a robot
assembles, and how a table agreed to split a pile.

They are optional inputs of :func:`outofgears.apply_turn`. Where one is not
given, the default policy of its spec clause decides deterministically (ATK-5,
ASM-2, SPL-5). A given choice is checked against the rules and refused with
:class:`outofgears.errors.IllegalChoiceError` when it breaks them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Literal

from attrs import field, frozen

from outofgears.errors import InvalidStateError
from outofgears.rules.gears import Gear, sort_gears
from outofgears.rules.model import Place

StealSource = Literal["feet", "circuit"]


@frozen
class DefenceSteal:
    """The gear a defender takes from one attacker (spec ATK-4).

    Attributes:
        source: Where the gear is taken from: ``"feet"`` or ``"circuit"`` of the attacker.
        gear: The gear taken.

    >>> from outofgears.rules.gears import Gear
    >>> DefenceSteal("circuit", Gear(2)).source
    'circuit'
    """

    source: StealSource
    gear: Gear

    def __attrs_post_init__(self) -> None:
        if self.source not in ("feet", "circuit"):
            raise InvalidStateError(
                f"a defender takes from 'feet' or 'circuit', not {self.source!r}"
            )
        if not isinstance(self.gear, Gear):
            raise InvalidStateError(f"a defence steal takes a Gear, not {self.gear!r}")


def _robot(value: object, what: str) -> int:
    if type(value) is not int:
        raise InvalidStateError(f"{what} is a robot number, not {value!r}")
    return value


def _gears(value: object, what: str) -> tuple[Gear, ...]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidStateError(f"{what} is a sequence of gears, not {value!r}")
    gears = tuple(value)
    for gear in gears:
        if not isinstance(gear, Gear):
            raise InvalidStateError(f"{what} holds gears, not {gear!r}")
    return sort_gears(gears)


def _mapping(value: object, what: str) -> Mapping[object, object]:
    if not isinstance(value, Mapping):
        raise InvalidStateError(f"{what} is a mapping, not {value!r}")
    return value


def _steals(
    value: Mapping[tuple[int, int], DefenceSteal],
) -> Mapping[tuple[int, int], DefenceSteal]:
    for key, steal in _mapping(value, "defence_steals").items():
        if not (isinstance(key, tuple) and len(key) == 2):
            raise InvalidStateError(
                f"a defence steal is keyed by (defender, attacker), not {key!r}"
            )
        _robot(key[0], "the defender")
        _robot(key[1], "the attacker")
        if not isinstance(steal, DefenceSteal):
            raise InvalidStateError(f"defence steal {key!r} is a DefenceSteal, not {steal!r}")
    return MappingProxyType(dict(value))


def _assemblies(value: Mapping[int, Iterable[Gear]]) -> Mapping[int, tuple[Gear, ...]]:
    _mapping(value, "assemblies")
    return MappingProxyType(
        {
            _robot(robot, "an assembling robot"): _gears(picked, f"robot {robot}'s assembly")
            for robot, picked in value.items()
        }
    )


def _splits(
    value: Mapping[Place, Mapping[int, Iterable[Gear]]],
) -> Mapping[Place, Mapping[int, tuple[Gear, ...]]]:
    for place, shares in _mapping(value, "splits").items():
        if not isinstance(place, Place):
            raise InvalidStateError(f"a split is keyed by a Place, not {place!r}")
        _mapping(shares, f"the split of {place}")
    return MappingProxyType(
        {
            place: MappingProxyType(
                {
                    _robot(robot, "a taker"): _gears(share, f"robot {robot}'s share")
                    for robot, share in shares.items()
                }
            )
            for place, shares in value.items()
        }
    )


@frozen(eq=False)
class Choices:
    """The decisions players make after the programs are revealed.

    Args:
        defence_steals: ``(defender, attacker) -> DefenceSteal``: the gear a
            defender takes from an attacker (spec ATK-4; default ATK-5).
        assemblies: ``robot -> gears``: the two feet gears a robot moves into its
            circuit, or ``()`` to assemble nothing where assembly is optional
            (spec ASM-1; default ASM-2).
        splits: ``place -> {robot: gears}``: an explicit split of a dump
            (``Place.dump(n)``) or of a robot's feet (``Place.feet(n)``) among
            its takers (spec SPL-5).

    >>> from outofgears.rules.gears import gears
    >>> Choices(assemblies={3: gears(3, 3)}).assemblies[3] == gears(3, 3)
    True
    """

    defence_steals: Mapping[tuple[int, int], DefenceSteal] = field(factory=dict, converter=_steals)
    assemblies: Mapping[int, tuple[Gear, ...]] = field(factory=dict, converter=_assemblies)
    splits: Mapping[Place, Mapping[int, tuple[Gear, ...]]] = field(factory=dict, converter=_splits)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Choices):
            return NotImplemented
        return (
            dict(self.defence_steals) == dict(other.defence_steals)
            and dict(self.assemblies) == dict(other.assemblies)
            and {p: dict(s) for p, s in self.splits.items()}
            == {p: dict(s) for p, s in other.splits.items()}
        )

    __hash__ = None  # type: ignore[assignment]

    def with_decisions(self, other: Choices) -> Choices:
        """These choices with ``other``'s decisions added; ``other`` decides where both do.

        >>> from outofgears.rules.gears import gears
        >>> given = Choices(assemblies={1: gears(1, 1), 2: ()})
        >>> dict(given.with_decisions(Choices(assemblies={2: gears(2, 3)})).assemblies)
        {1: (Gear(1), Gear(1)), 2: (Gear(2), Gear(3))}
        """
        return Choices(
            defence_steals={**self.defence_steals, **other.defence_steals},
            assemblies={**self.assemblies, **other.assemblies},
            splits={**self.splits, **other.splits},
        )

    def without(self, kind: str, robot: int | None) -> Choices:
        """These choices less ``robot``'s decisions of ``kind``: its defence steals as the
        defender (``"steal"``), its assembly (``"assembly"``) or every split it takes a share
        of (``"split"``; with ``robot`` ``None``, every split). Itself when none is dropped.

        What is kept was checked when these choices were built: the copy is made without
        checking it again (``resolve_with_choices`` drops one refused choice at a time, and a
        log can refuse thousands).

        >>> from outofgears.rules.gears import gears
        >>> dict(Choices(assemblies={1: (), 2: gears(2, 2)}).without("assembly", 1).assemblies)
        {2: (Gear(2), Gear(2))}
        """
        steals, assemblies, splits = self.defence_steals, self.assemblies, self.splits
        if kind == "steal":
            steals = MappingProxyType({k: v for k, v in steals.items() if k[0] != robot})
        elif kind == "assembly":
            assemblies = MappingProxyType({k: v for k, v in assemblies.items() if k != robot})
        elif kind == "split":
            splits = MappingProxyType(
                {p: v for p, v in splits.items() if robot is not None and robot not in v}
            )
        sizes = (len(steals), len(assemblies), len(splits))
        if sizes == (len(self.defence_steals), len(self.assemblies), len(self.splits)):
            return self
        kept: Choices = object.__new__(Choices)
        object.__setattr__(kept, "defence_steals", steals)
        object.__setattr__(kept, "assemblies", assemblies)
        object.__setattr__(kept, "splits", splits)
        return kept

    def __reduce__(self) -> tuple[type[Choices], tuple[Any, ...]]:
        """Pickle the decisions as plain dictionaries (a read-only mapping does not pickle).

        >>> import pickle
        >>> pickle.loads(pickle.dumps(Choices(assemblies={3: ()}))) == Choices(assemblies={3: ()})
        True
        """
        return (
            Choices,
            (
                dict(self.defence_steals),
                dict(self.assemblies),
                {place: dict(shares) for place, shares in self.splits.items()},
            ),
        )

    def __copy__(self) -> Choices:
        """Choices are immutable: the copy is the same object."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Choices:
        return self


#: No decisions: every default policy applies.
NO_CHOICES = Choices()
