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
from typing import Literal

from attrs import field, frozen

from outofgears.gears import Gear, sort_gears
from outofgears.model import Place

StealSource = Literal["feet", "circuit"]


@frozen
class DefenceSteal:
    """The gear a defender takes from one attacker (spec ATK-4).

    >>> from outofgears.gears import Gear
    >>> DefenceSteal("circuit", Gear(2)).source
    'circuit'
    """

    source: StealSource
    gear: Gear


def _steals(
    value: Mapping[tuple[int, int], DefenceSteal],
) -> Mapping[tuple[int, int], DefenceSteal]:
    return MappingProxyType(dict(value))


def _assemblies(value: Mapping[int, Iterable[Gear]]) -> Mapping[int, tuple[Gear, ...]]:
    return MappingProxyType({robot: sort_gears(picked) for robot, picked in value.items()})


def _splits(
    value: Mapping[Place, Mapping[int, Iterable[Gear]]],
) -> Mapping[Place, Mapping[int, tuple[Gear, ...]]]:
    return MappingProxyType(
        {
            place: MappingProxyType({robot: sort_gears(share) for robot, share in shares.items()})
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

    >>> from outofgears.gears import gears
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


#: No decisions: every default policy applies.
NO_CHOICES = Choices()
