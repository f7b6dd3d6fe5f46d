"""Every combination of legal programs on a few small, busy positions.

Each robot lays one of attack, trap or harvest with one of the numbers in play (PRG-1,
PRG-2), so three robots have 9**3 = 729 combinations, four robots 12**4 = 20736; in the
two-robot variant partners lay different action cards (VAR-2), which leaves 96 pairs
per player of two robots, 96**2 = 9216 combinations for two players. Every combination
is played under every combination of the options and checked against the invariants of
:mod:`tests.properties.checks`: conservation, places, the reserve, events replaying to
the new state, clauses, traps taking only when blocking, splits, outcomes; and purity:
the same result twice, the same result with the programs given in reverse, the input
unchanged.

With the Robot Upgrades on, a robot whose player holds a card may lay it instead (UPG-2):
three robots whose players each hold a different card have 10 programs each, 10**3 = 1000
combinations, enumerated on the three-robot positions and on two positions with Jolly and
three-point gears (JOL-1, TRI-1); the held cards are chosen so that every card kind is held
and every two kinds meet in some enumeration. In the two-robot variant a player's two
robots lay either two different action cards (96 pairs) or the card and any program
(12 + 12), never the card twice (UPG-4): 120 pairs, 120**2 = 14400 combinations for two
players holding a card each, of which 24 * 120 = 2880 have the first player lay its card.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Mapping, Sequence

import attrs
import pytest

from outofgears import GameState, Gear, Options, from_position, resolve_turn
from outofgears.rules.gears import JOLLY, THREE_POINT
from outofgears.rules.model import UpgradeCard
from outofgears.rules.programs import AnyProgram, UpgradeProgram
from tests.helpers import position
from tests.properties.checks import PROFILE, check_turn, reversed_programs
from tests.strategies import (
    ASSEMBLY_RULES,
    DEFENCE_STEAL_SOURCES,
    count_legal_programs,
    every_legal_programs,
    rebuild,
)

ALL_OPTIONS: tuple[Options, ...] = tuple(
    Options(defence_steal_source=source, assembly=assembly)
    for source, assembly in itertools.product(DEFENCE_STEAL_SOURCES, ASSEMBLY_RULES)
)


def three_robot_positions(options: Options) -> dict[str, GameState]:
    """Small positions with something everywhere: feet, circuits, dumps, a short reserve."""
    return {
        # Robot 1 can assemble; a short reserve feeds dumps 1 and 2 only, so the game ends
        # exactly when dump 3 is emptied.
        "short reserve": position(
            feet={1: [1, 2, 3], 2: [2], 3: []},
            circuit={2: [1, 3], 3: [3]},
            dumps={1: [1, 2], 2: [], 3: [3, 2]},
            reserve=[2, 1],
            options=options,
        ),
        # The reserve is out: whatever empties a dump ends the game.
        "last turn": position(
            feet={2: [2, 5, 5, 7], 5: [], 7: [2]},
            circuit={5: [5, 5]},
            dumps={2: [5], 5: [2, 7, 7], 7: [7]},
            options=options,
        ),
        # Piles of 2 to 4 gears, so that splits leave gears behind; a long reserve.
        "even piles": position(
            feet={1: [2, 2], 2: [1, 1, 3], 3: [1, 2, 3, 3]},
            circuit={1: [1], 3: [2]},
            dumps={1: [1, 1, 2, 3], 2: [2, 2], 3: [1, 1, 3]},
            reserve=[1, 2, 3, 1, 2, 3, 1],
            options=options,
        ),
    }


def four_robot_position(options: Options) -> GameState:
    """Four robots with gears at every kind of place and a reserve one gear short."""
    return position(
        feet={1: [1, 3, 4], 3: [3, 3], 4: [1, 6], 6: [6, 6, 4, 1]},
        circuit={1: [6], 4: [4], 6: [3]},
        dumps={1: [1, 4, 4], 3: [], 4: [3, 6], 6: [1]},
        reserve=[6, 3, 1],
        options=options,
    )


def two_robot_positions(options: Options) -> dict[str, GameState]:
    """Two players with two robots each."""
    players = {"Ada": (1, 4), "Bo": (2, 3)}
    return {
        "partners": position(
            feet={1: [4, 4, 1], 2: [2], 3: [1, 3], 4: []},
            circuit={1: [2], 4: [4]},
            dumps={1: [1, 2], 2: [3, 3, 4], 3: [], 4: [4]},
            reserve=[1, 2],
            players=players,
            options=options,
        ),
        "last turn": position(
            feet={1: [1], 2: [2, 3, 3], 3: [], 4: [1, 2, 4]},
            circuit={2: [2, 2]},
            dumps={1: [3], 2: [4, 4], 3: [1, 1, 2], 4: [2]},
            players=players,
            options=options,
        ),
    }


def ada_lays_her_card(programs: Mapping[int, AnyProgram]) -> bool:
    """Whether Ada (robots 1 and 4 in :func:`two_robot_positions`) lays her upgrade card."""
    return isinstance(programs[1], UpgradeProgram) or isinstance(programs[4], UpgradeProgram)


def check_every_combination(
    state: GameState, keep: Callable[[Mapping[int, AnyProgram]], bool] | None = None
) -> int:
    """Play and check every legal combination of programs on ``state``; how many there were.

    With ``keep``, only the combinations it keeps (and then the count is not compared with
    :func:`count_legal_programs`).
    """
    snapshot = copy.deepcopy(state)
    rebuilt = rebuild(state)
    seen: set[tuple[tuple[int, AnyProgram], ...]] = set()
    for programs in every_legal_programs(state):
        if keep is not None and not keep(programs):
            continue
        seen.add(tuple(sorted(programs.items(), key=lambda item: item[0])))
        result = resolve_turn(state, programs)
        check_turn(state, programs, result)
        # The same position built again and the same programs given in the reverse order:
        # the same state and the same events (determinism, PRG-3).
        assert resolve_turn(rebuilt, reversed_programs(programs)) == result, (
            f"not the same result again with the programs reversed: {programs}"
        )
        assert state == snapshot, f"the turn changed its input: {programs}"
    assert state == rebuilt
    if keep is None:
        assert len(seen) == count_legal_programs(state)
    return len(seen)


def option_id(options: Options) -> str:
    """A short test id for a combination of options."""
    return f"{options.defence_steal_source}-{options.assembly}"


#: The four-robot enumeration covers every option on CI and one combination in the
#: edit-test loop (about 12 s for each).
FOUR_ROBOT_OPTIONS = ALL_OPTIONS if PROFILE == "ci" else (Options(),)

#: The two-robot enumerations: one position under the default options always; both
#: positions under every option on CI (about 5 s each).
TWO_ROBOT_CASES = [pytest.param("partners", Options(), id="partners-default")] + (
    [
        pytest.param(name, options, id=f"{name}-{option_id(options)}", marks=pytest.mark.slow)
        for name in ("partners", "last turn")
        for options in ALL_OPTIONS
        if (name, options) != ("partners", Options())
    ]
    if PROFILE == "ci"
    else []
)


@pytest.mark.clause(
    "TURN-1",
    "PRG-1",
    "PRG-2",
    "PRG-3",
    "ATK-5",
    "ATK-7",
    "TRP-3",
    "SPL-1",
    "SPL-2",
    "SPL-5",
    "ASM-2",
    "ASM-3",
    "END-1",
)
@pytest.mark.ruling("R-SIMUL", "R-TRAP", "R-SPLIT", "R-DEFENCE", "R-ASSEMBLY")
@pytest.mark.parametrize("options", ALL_OPTIONS, ids=option_id)
def test_every_program_combination_of_three_robots_keeps_the_invariants(options: Options) -> None:
    for name, state in three_robot_positions(options).items():
        assert check_every_combination(state) == 9**3, name


@pytest.mark.slow
@pytest.mark.clause(
    "TURN-1",
    "PRG-1",
    "PRG-2",
    "PRG-3",
    "ATK-5",
    "ATK-7",
    "TRP-3",
    "SPL-1",
    "SPL-2",
    "SPL-5",
    "ASM-2",
    "ASM-3",
    "END-1",
)
@pytest.mark.ruling("R-SIMUL", "R-TRAP", "R-SPLIT", "R-DEFENCE", "R-ASSEMBLY")
@pytest.mark.parametrize("options", FOUR_ROBOT_OPTIONS, ids=option_id)
def test_every_program_combination_of_four_robots_keeps_the_invariants(options: Options) -> None:
    assert check_every_combination(four_robot_position(options)) == 12**4


@pytest.mark.clause(
    "TURN-1",
    "PRG-3",
    "VAR-2",
    "VAR-4",
    "ATK-5",
    "ATK-7",
    "TRP-3",
    "SPL-1",
    "SPL-2",
    "ASM-2",
    "END-1",
)
@pytest.mark.ruling("R-TWO-ROBOTS", "R-TRAP", "R-SPLIT", "R-DEFENCE", "R-ASSEMBLY")
@pytest.mark.parametrize(("name", "options"), TWO_ROBOT_CASES)
def test_every_program_combination_of_two_players_with_two_robots_keeps_the_invariants(
    name: str, options: Options
) -> None:
    assert check_every_combination(two_robot_positions(options)[name]) == 96**2


# --------------------------------------------------------------------------- the expansions

SA, CD, SS = UpgradeCard.SUPER_ATTACK, UpgradeCard.COUNTER_DEFENCE, UpgradeCard.SUPER_SHOVEL
ST, SH = UpgradeCard.SUPER_TRAP, UpgradeCard.SUPER_HARVEST

#: Three different cards for the three players of a position. The four hands hold every kind
#: and put every two kinds in the same hand at least once.
HANDS: tuple[tuple[UpgradeCard, UpgradeCard, UpgradeCard], ...] = (
    (SA, CD, SS),
    (ST, SA, SH),
    (CD, ST, SH),
    (SS, SH, ST),
)


def holding(state: GameState, cards: Sequence[UpgradeCard]) -> GameState:
    """``state`` with its players (in seat order) holding ``cards``, one each (UPG-1)."""
    return attrs.evolve(
        state,
        players=tuple(
            attrs.evolve(player, upgrade=card)
            for player, card in zip(state.players, cards, strict=True)
        ),
    )


def pile(*items: int | str) -> tuple[Gear, ...]:
    """Gears from colour numbers, ``"J"`` for a Jolly and ``"T"`` for a three-point gear."""
    kinds = {"J": JOLLY, "T": THREE_POINT}
    return tuple(kinds[item] if isinstance(item, str) else Gear(item) for item in items)


def colourless_positions(options: Options) -> dict[str, GameState]:
    """Three robots with all four Jollies and all four three-point gears about the table."""
    return {
        # Jollies and three-point gears at the feet (for attacks and defence steals), on the
        # dumps (for harvests, traps and shovels) and in a circuit; a short reserve of two for
        # three dumps (REF-1).
        "colourless piles": from_position(
            robots={
                1: {"feet": pile("J", "T", 1), "circuit": pile(2)},
                2: {"feet": pile(2, "J", 3)},
                3: {"circuit": pile("T")},
            },
            dumps={1: pile("J", "J"), 2: pile("T", 1, 2), 3: pile(3, "T", 1)},
            reserve=pile(2, 3),
            options=options,
            upgrades={"P1": SA, "P2": SS, "P3": SH},
        ),
        # The reserve is out; the colourless gears lie where a split must leave some behind.
        "colourless last turn": from_position(
            robots={
                2: {"feet": pile("T", "T", 2, 4), "circuit": pile("J")},
                4: {"feet": pile(4, "J")},
                5: {"feet": pile(5, 5, "T")},
            },
            dumps={2: pile("J", 4, 5), 4: pile("T"), 5: pile("J", 2, 2, 5)},
            reserve=(),
            options=options,
            upgrades={"P2": CD, "P4": ST, "P5": SS},
        ),
    }


UPGRADES = Options(upgrades=True)
ALL_GEARS = Options(upgrades=True, jolly_gears=True, three_point_gears=True)

#: The three-robot positions with held cards: each position with one hand in the edit-test
#: loop (so that every kind is held), each position with every hand on CI.
THREE_ROBOT_HANDS = [
    pytest.param(name, hand, id=f"{name}-{'-'.join(c.name.lower() for c in hand)}")
    for index, name in enumerate(("short reserve", "last turn", "even piles"))
    for hand in (HANDS if PROFILE == "ci" else (HANDS[index],))
]

#: The positions with Jolly and three-point gears: under every option on CI.
COLOURLESS_OPTIONS = (
    tuple(
        attrs.evolve(ALL_GEARS, defence_steal_source=o.defence_steal_source, assembly=o.assembly)
        for o in ALL_OPTIONS
    )
    if PROFILE == "ci"
    else (ALL_GEARS,)
)


@pytest.mark.clause(
    "TURN-1",
    "PRG-3",
    "UPG-2",
    "UPG-3",
    "SHARV-1",
    "SATK-1",
    "SATK-2",
    "STRAP-1",
    "SHOV-1",
    "CDEF-1",
    "CDEF-2",
)
@pytest.mark.ruling(
    "R-SIMUL", "R-TRAP", "R-SUPER-HARVEST", "R-SUPER-ATTACK", "R-SHOVEL", "R-COUNTER-DEFENCE"
)
@pytest.mark.parametrize(("name", "hand"), THREE_ROBOT_HANDS)
def test_every_program_and_upgrade_combination_of_three_robots_keeps_the_invariants(
    name: str, hand: tuple[UpgradeCard, UpgradeCard, UpgradeCard]
) -> None:
    state = holding(three_robot_positions(UPGRADES)[name], hand)
    assert check_every_combination(state) == 10**3


@pytest.mark.clause(
    "JOL-1",
    "JOL-2",
    "TRI-1",
    "TRI-2",
    "VAL-1",
    "REF-1",
    "SPL-2",
    "SPL-5",
    "ATK-5",
    "ASM-2",
    "SATK-2",
    "SHOV-1",
)
@pytest.mark.ruling("R-JOLLY", "R-SPLIT", "R-DEFENCE", "R-ASSEMBLY", "R-EXPLORE", "R-SHOVEL")
@pytest.mark.parametrize("options", COLOURLESS_OPTIONS, ids=option_id)
def test_every_combination_with_jolly_and_three_point_gears_keeps_the_invariants(
    options: Options,
) -> None:
    for name, state in colourless_positions(options).items():
        assert check_every_combination(state) == 10**3, name


#: The two-robot enumeration with held cards: on one position, the combinations in which
#: Ada lays her Super Attack (Bo laying his Counter Defence or not) in the edit-test loop;
#: every combination on both positions on CI, where Bo's Super Harvest also meets Ada's
#: Super Trap (which her partner's harvests spring too, STRAP-1).
TWO_ROBOT_HANDS = [
    pytest.param("partners", (SA, CD), True, id="partners-attack-counter-ada-lays-hers"),
] + (
    [
        pytest.param(name, hand, False, id=f"{name}-{'-'.join(c.name.lower() for c in hand)}")
        for name, hand in (("partners", (SA, CD)), ("last turn", (ST, SH)))
    ]
    if PROFILE == "ci"
    else []
)


@pytest.mark.slow
@pytest.mark.clause(
    "UPG-2", "UPG-4", "VAR-2", "VAR-4", "SATK-1", "CDEF-1", "STRAP-1", "SHOV-1", "SHARV-1"
)
@pytest.mark.ruling("R-UPG-VARIANT", "R-TWO-ROBOTS", "R-SUPER-ATTACK", "R-COUNTER-DEFENCE")
@pytest.mark.parametrize(("name", "hand", "only_ada_laying"), TWO_ROBOT_HANDS)
def test_every_program_and_upgrade_combination_of_two_players_with_two_robots(
    name: str, hand: tuple[UpgradeCard, UpgradeCard], only_ada_laying: bool
) -> None:
    state = holding(two_robot_positions(UPGRADES)[name], hand)
    assert [p.name for p in state.players] == ["Ada", "Bo"]
    assert count_legal_programs(state) == 120**2
    if only_ada_laying:
        assert check_every_combination(state, keep=ada_lays_her_card) == 24 * 120
    else:
        assert check_every_combination(state) == 120**2
