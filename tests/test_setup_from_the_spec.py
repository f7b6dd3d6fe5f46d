"""A seeded setup written from the text of SET-7 alone, with its own MT19937, compared with
``setup_game`` and ``setup_two_robot_game`` for every option (issue 26).

Nothing here calls the engine's setup or Python's ``random``: the generator, the shuffle, the
order of the gears and the deal are the spec's words in code, as an implementation in another
language would write them."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import pytest

from outofgears import Options, setup_game, setup_two_robot_game
from outofgears.rules.model import GameState

N, M = 624, 397


class Twister:
    """MT19937 seeded by ``init_by_array`` (SET-7, step 2)."""

    def __init__(self, seed: int) -> None:
        key = []
        while True:
            key.append(seed & 0xFFFFFFFF)
            seed >>= 32
            if not seed:
                break
        mt = [0] * N
        mt[0] = 19650218
        for i in range(1, N):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        i, j = 1, 0
        for _ in range(max(N, len(key))):
            mt[i] = (
                (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j
            ) & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= N:
                mt[0], i = mt[N - 1], 1
            if j >= len(key):
                j = 0
        for _ in range(N - 1):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= N:
                mt[0], i = mt[N - 1], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, N

    def uint32(self) -> int:
        mt = self.mt
        if self.index >= N:
            for k in range(N):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % N] & 0x7FFFFFFF)
                mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def below(self, n: int) -> int:
        k = n.bit_length()
        while True:
            draw = self.uint32() >> (32 - k)
            if draw < n:
                return draw

    def shuffle(self, items: list[str]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "grey", "white")
DECK = [
    c
    for c in ("super harvest", "super attack", "super trap", "super shovel", "counter defence")
    for _ in range(2)
]


def table_from_the_spec(
    players: Mapping[str, tuple[int, ...]],
    seed: int,
    jolly: bool,
    three: bool,
    pad: bool,
    upgrades: bool,
) -> dict[str, object]:
    robots = sorted(n for pair in players.values() for n in pair)
    pile = [COLOURS[n - 1] for n in robots for _ in range(11)]
    pile += ["jolly"] * 4 * jolly + ["3-point"] * 4 * three
    if pad:
        free = next(n for n in range(1, 9) if n not in robots)
        pile += [COLOURS[free - 1]] * (-(len(pile) - 2 * len(robots)) % len(robots))
    twister = Twister(seed)
    twister.shuffle(pile)
    dumps = {n: sorted(pile[2 * i : 2 * i + 2]) for i, n in enumerate(robots)}
    held: dict[str, str] = {}
    if upgrades:
        deck = list(DECK)
        twister.shuffle(deck)
        seated = sorted(players, key=lambda name: min(players[name]))
        held = dict(zip(seated, deck, strict=False))
    return {"dumps": dumps, "reserve": pile[2 * len(robots) :], "upgrades": held}


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
        assert table_of(state) == table_from_the_spec(players, seed, jolly, three, pad, upgrades)
    variant = {"Ada": (3, 1), "Bo": (2, 6)}
    state = setup_two_robot_game(variant, seed=99, options=options)
    assert table_of(state) == table_from_the_spec(variant, 99, jolly, three, pad, upgrades)
