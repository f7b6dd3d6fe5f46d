"""A seeded setup written from the text of SET-7 alone, with its own MT19937, compared with
``setup_game`` and ``setup_two_robot_game`` for every option (issue 26).

The derivation is ``scripts/deal_from_the_text.py``, which calls neither the engine's setup nor
Python's ``random``: the generator, the shuffle, the order of the gears and the deal are the
spec's words in code, as an implementation in another language would write them. The
hand-worked case ``hand-set-4-the-deal-from-seed-0`` takes its expected deal from it too."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import pytest

from outofgears import Options, setup_game, setup_two_robot_game
from outofgears.rules.model import GameState
from scripts.deal_from_the_text import table_from_the_spec


def spec_table(
    players: Mapping[str, tuple[int, ...]], seed: int, *switches: bool
) -> dict[str, object]:
    """The spec's table, each dump's gears sorted: a dump is a collection (SET-4)."""
    table = table_from_the_spec(players, seed, *switches)
    dumps = table["dumps"]
    assert isinstance(dumps, dict)
    return {**table, "dumps": {n: sorted(gears) for n, gears in dumps.items()}}


def table_of(state: GameState) -> dict[str, object]:
    return {
        "dumps": {d.number: sorted(str(g) for g in d.gears) for d in state.dumps},
        "reserve": [str(g) for g in state.reserve],
        "upgrades": {p.name: p.upgrade.value for p in state.players if p.upgrade},
    }


SWITCHES = list(itertools.product((False, True), repeat=4))


@pytest.mark.clause("SET-7", "SET-3", "SET-4", "UPG-1", "REF-2", "JOL-1", "TRI-1")
@pytest.mark.ruling("R-PAD-RESERVE", "R-UPG-DECK")
@pytest.mark.parametrize(("jolly", "three", "pad", "upgrades"), SWITCHES)
def test_a_seeded_setup_written_from_the_spec_alone_is_the_engines(
    jolly: bool, three: bool, pad: bool, upgrades: bool
) -> None:
    options = Options(
        jolly_gears=jolly, three_point_gears=three, pad_reserve=pad, upgrades=upgrades
    )
    tables = [
        ({"Ada": (2,), "Bo": (5,), "Cy": (7,)}, 0),
        ({"A": (1,), "B": (3,), "C": (4,), "D": (6,), "E": (8,)}, 2**40 + 17),  # a two-word key
        ({"A": (4,), "B": (1,)}, 123456789),
    ]
    for players, seed in tables:
        names = sorted(players, key=lambda name: players[name][0])
        state = setup_game(
            [players[n][0] for n in names], seed=seed, players=names, options=options
        )
        assert table_of(state) == spec_table(players, seed, jolly, three, pad, upgrades)
    variant = {"Ada": (3, 1), "Bo": (2, 6)}
    state = setup_two_robot_game(variant, seed=99, options=options)
    assert table_of(state) == spec_table(variant, 99, jolly, three, pad, upgrades)
