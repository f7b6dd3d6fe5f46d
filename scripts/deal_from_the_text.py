"""A seeded setup worked from the text of SET-7 alone (issue 33): the gears before the shuffle,
MT19937 seeded by array, the draw below n, Fisher-Yates from the end, SET-4's deal and UPG-1's
cards. It imports nothing of ``outofgears`` and not Python's ``random``: it is what an
implementation in another language writes from the spec, and the derivation the hand-worked
case ``hand-set-4-the-deal-from-seed-0`` names for its expected dumps and reserve.
``tests/test_setup_from_the_spec.py`` compares it with the engine's setup for every option.

    python scripts/deal_from_the_text.py --robots 1 2 --seed 0            # the dumps, the reserve
    python scripts/deal_from_the_text.py --robots 1 3 5 --seed 7 --jolly --upgrades
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence

N, M = 624, 397
#: The colours of robots 1 to 8 (GEN-1), as a log writes them.
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "grey", "white")
#: The default upgrade deck, in the order SET-7 step 5 lists it.
DECK = [
    card
    for card in ("super harvest", "super attack", "super trap", "super shovel", "counter defence")
    for _ in range(2)
]


class Twister:
    """MT19937 seeded by its authors' ``init_by_array`` (SET-7, step 2)."""

    def __init__(self, seed: int) -> None:
        key = []
        while True:  # the seed in base 2**32, least significant word first; 0 is [0]
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
        """A draw below n: the top k bits of an output, k the binary digits of n, until < n."""
        k = n.bit_length()
        while True:
            draw = self.uint32() >> (32 - k)
            if draw < n:
                return draw

    def shuffle(self, items: list[str]) -> None:
        """Fisher-Yates from the end (SET-7, step 3)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def table_from_the_spec(
    players: Mapping[str, Sequence[int]],
    seed: int,
    jolly: bool = False,
    three: bool = False,
    pad: bool = False,
    upgrades: bool = False,
) -> dict[str, object]:
    """The dumps (each in dealt order), the reserve (draw order) and the cards of a seeded
    setup, from SET-7's five steps."""
    robots = sorted(n for pair in players.values() for n in pair)
    pile = [COLOURS[n - 1] for n in robots for _ in range(11)]  # step 1
    pile += ["jolly"] * 4 * jolly + ["3-point"] * 4 * three
    if pad:  # REF-2: the lowest colour not in play, up to a multiple of the robots
        free = next(n for n in range(1, 9) if n not in robots)
        pile += [COLOURS[free - 1]] * (-(len(pile) - 2 * len(robots)) % len(robots))
    twister = Twister(seed)  # step 2
    twister.shuffle(pile)  # step 3
    dumps = {n: pile[2 * i : 2 * i + 2] for i, n in enumerate(robots)}  # step 4, SET-4
    held: dict[str, str] = {}
    if upgrades:  # step 5, UPG-1
        deck = list(DECK)
        twister.shuffle(deck)
        seated = sorted(players, key=lambda name: min(players[name]))
        held = dict(zip(seated, deck, strict=False))
    return {"dumps": dumps, "reserve": pile[2 * len(robots) :], "upgrades": held}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--robots", type=int, nargs="+", required=True)
    parser.add_argument("--seed", type=int, required=True)
    for flag in ("jolly", "three-point", "pad", "upgrades"):
        parser.add_argument(f"--{flag}", action="store_true")
    args = parser.parse_args(argv)
    players = {f"P{n}": [n] for n in args.robots}
    table = table_from_the_spec(
        players, args.seed, args.jolly, args.three_point, args.pad, args.upgrades
    )
    json.dump(table, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
