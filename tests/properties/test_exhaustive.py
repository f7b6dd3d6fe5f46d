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
"""

from __future__ import annotations

import copy
import itertools

import pytest

from outofgears import GameState, Options, Program, resolve_turn
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


def check_every_combination(state: GameState) -> int:
    """Play and check every legal combination of programs on ``state``; how many there were."""
    snapshot = copy.deepcopy(state)
    rebuilt = rebuild(state)
    seen: set[tuple[tuple[int, Program], ...]] = set()
    for programs in every_legal_programs(state):
        seen.add(tuple(sorted(programs.items())))
        result = resolve_turn(state, programs)
        check_turn(state, programs, result)
        # The same position built again and the same programs given in the reverse order:
        # the same state and the same events (determinism, PRG-3).
        assert resolve_turn(rebuilt, reversed_programs(programs)) == result, (
            f"not the same result again with the programs reversed: {programs}"
        )
        assert state == snapshot, f"the turn changed its input: {programs}"
    assert state == rebuilt
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
