"""The cited function is what runs (issue 20): a turn runs every function that the clauses of
a turn's phases cite in ``spec/clauses.toml``, on the default path and with explicit choices.

Every Python call of whole games is traced (:func:`sys.setprofile`): a function the map cites
for activation, assembly, exploration or the end check that a turn never calls is one whose
rule runs somewhere else, as an inline copy. The few Gear methods that the engine reads off a
table instead of calling are held to that table, entry by entry.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType, FrameType
from typing import Any

import pytest

from outofgears import (
    Choices,
    GameState,
    Options,
    apply_turn,
    legal_choices,
    resolve_turn,
    setup_game,
    setup_two_robot_game,
)
from outofgears.play.policies import random_programs
from outofgears.rules import sharing
from outofgears.rules.gears import CANONICAL_GEARS, OWN_COLOUR, OWN_RANK, ROBOT_NUMBERS, WORTH
from tests.clause_map import load_clause_map, resolve_dotted

#: The clauses of a turn's phases: activation (attacks, traps, harvests and their splits, the
#: upgrade cards' steps), assembly, exploration, the end check, and the worth the default
#: policies compare. The programs' checks (PRG, UPG-2 to UPG-4, VAR-2), the setup and the
#: final scores are not turn phases.
TURN_PHASES = (
    "TURN-1",
    "ATK-",
    "TRP-",
    "HRV-",
    "SPL-",
    "ASM-",
    "EXP-1",
    "END-1",
    "SHARV-",
    "SATK-",
    "STRAP-",
    "SHOV-",
    "CDEF-",
    "VAL-1",
    "REF-1",
    "JOL-2",
)

#: What checks the table's explicit choices: it runs only when there are some.
CHOICE_CHECKS = {
    "outofgears.rules.attacks.check_defence_steal",
    "outofgears.rules.sharing.check_split_ranks",
    "outofgears.rules.turn.check_choices",
}
#: The default policies of the decisions explicit choices make (ATK-5, ASM-2).
DEFAULT_POLICIES = {
    "outofgears.rules.attacks.choose_steal",
    "outofgears.rules.assembly.choose_assembly",
}
#: The Gear methods the engine reads off a table of :mod:`outofgears.rules.gears` built from
#: them (checked below, entry by entry, rather than traced).
TABULATED = {
    "outofgears.rules.gears.Gear.points_for",
    "outofgears.rules.gears.Gear.is_own_colour_of",
    "outofgears.rules.gears.Gear.has_priority_for",
}


def turn_phase_functions() -> set[str]:
    """The functions that the clauses of the turn's phases cite."""
    return {
        function
        for clause in load_clause_map()
        if clause.id.startswith(TURN_PHASES)
        for function in clause.functions
    } - TABULATED


def code_of(path: str) -> CodeType:
    """The code a cited function runs (a class's: its ``__init__``)."""
    found: Any = resolve_dotted(path)
    function = vars(found)["__init__"] if isinstance(found, type) else found
    code: CodeType = function.__code__
    return code


@contextmanager
def calls_traced() -> Iterator[set[CodeType]]:
    """Every Python function called inside the block, as its code."""
    seen: set[CodeType] = set()

    def profile(frame: FrameType, event: str, argument: object) -> None:
        if event == "call":
            seen.add(frame.f_code)

    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(None)


def game_starts() -> Iterator[GameState]:
    """Games that reach every branch of a turn: 8 robots with all the expansions, the
    two-robot variant, and the other readings of the rule options."""
    expansions = Options(upgrades=True, jolly_gears=True, three_point_gears=True)
    other_readings = Options(
        upgrades=True,
        jolly_gears=True,
        three_point_gears=True,
        defence_steal_source="feet_only",
        assembly="optional",
    )
    for seed in range(3):
        yield setup_game(list(ROBOT_NUMBERS), seed=seed, options=expansions)
        yield setup_game([1, 3, 4, 6], seed=seed, options=other_readings)
        yield setup_two_robot_game({"A": (1, 2), "B": (3, 4)}, seed=seed, options=expansions)


def cited_code() -> dict[str, CodeType]:
    """The code of each function that the turn's phases cite."""
    return {path: code_of(path) for path in turn_phase_functions()}


def functions_run(
    turn: Callable[[GameState, dict[int, Any], Choices | None], object],
    cited: dict[str, CodeType] | None = None,
) -> set[str]:
    """The turn-phase functions (of ``cited``, by default all) that ``turn`` runs over whole
    random games."""
    cited = cited_code() if cited is None else cited
    rng = random.Random(20)
    with calls_traced() as seen:
        for start in game_starts():
            state = start
            while not state.game_over:
                programs = random_programs(state, rng)
                turn(state, programs, legal_choices(state, programs).sample(rng))
                state = apply_turn(state, programs)
    return {path for path, code in cited.items() if code in seen}


@pytest.mark.clause("TURN-1")
def test_a_plain_apply_turn_runs_every_function_the_turn_phases_cite() -> None:
    expected = turn_phase_functions() - CHOICE_CHECKS - {"outofgears.rules.turn.resolve_turn"}
    run = functions_run(lambda state, programs, choices: apply_turn(state, programs))
    assert sorted(expected - run) == []
    assert "outofgears.rules.assembly.assembly_pick" in run  # the four, by name
    assert "outofgears.rules.sharing.share_size" in run
    assert "outofgears.rules.programs.Program.is_defence_of" in run


@pytest.mark.clause("TURN-1")
def test_resolve_turn_with_choices_runs_every_function_the_turn_phases_cite() -> None:
    expected = turn_phase_functions() - DEFAULT_POLICIES - {"outofgears.rules.turn.apply_turn"}
    run = functions_run(
        lambda state, programs, choices: resolve_turn(state, programs, choices=choices)
    )
    assert sorted(expected - run) == []


def test_an_inline_copy_of_a_cited_function_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # The sharing module's own copy of SPL-1's share, in place of the cited function: the
    # turns play the same, and the trace reports share_size as not run.
    cited = cited_code()
    monkeypatch.setattr(
        sharing, "share_size", lambda gear_count, taker_count: gear_count // taker_count
    )
    run = functions_run(lambda state, programs, choices: apply_turn(state, programs), cited)
    assert "outofgears.rules.sharing.share_size" not in run
    assert "outofgears.rules.sharing.deal" in run


@pytest.mark.clause("END-2", "JOL-2", "TRI-2", "VAL-1")
def test_the_worth_table_is_points_for_of_every_gear_and_robot() -> None:
    for robot in ROBOT_NUMBERS:
        assert list(WORTH[robot]) == [gear.points_for(robot) for gear in CANONICAL_GEARS]


@pytest.mark.clause("END-3", "JOL-2")
def test_the_own_colour_table_is_is_own_colour_of_every_gear_and_robot() -> None:
    for robot in ROBOT_NUMBERS:
        expected = [int(gear.is_own_colour_of(robot)) for gear in CANONICAL_GEARS]
        assert list(OWN_COLOUR[robot]) == expected


@pytest.mark.clause("SPL-2", "JOL-2")
def test_the_priority_table_names_the_one_gear_each_robot_has_priority_on() -> None:
    for robot in ROBOT_NUMBERS:
        priority = [
            rank for rank, gear in enumerate(CANONICAL_GEARS) if gear.has_priority_for(robot)
        ]
        assert priority == [OWN_RANK[robot]]
