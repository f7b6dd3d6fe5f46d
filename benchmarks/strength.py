"""The baselines' strength, side by side in one run: ``python -m benchmarks.strength``.

Every pair of bots plays head to head in games of two robots: each deal is played twice, the
bots swapping seats, so that neither gains from the deal or the seat. Deal ``d`` of a pair is
``setup_game([1, 2], seed=SEED * 100_000 + d)``; the bots' random choices are seeded from the
game's number. The table gives the first bot's win share over the pair's games (a draw is half
a win) with its standard error ``s / sqrt(n)``, and each bot's thinking time in milliseconds
per move (wall clock, its ``act`` calls only; ``--workers`` processes share the machine).

The figures in docs/writing-a-bot.md come from ``--games 400 --seed 1``.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
from concurrent.futures import ProcessPoolExecutor

from outofgears.play.bots import make_bot, play_match
from outofgears.rules.setup import setup_game

BOTS = ("mcts", "lookahead", "greedy", "random")


def game(job: tuple[str, str, int, int]) -> tuple[float, float, float, int]:
    """Game ``number`` of the pair: the first bot's win share, both bots' seconds, the turns."""
    first, second, seed, number = job
    state = setup_game([1, 2], seed=seed * 100_000 + number // 2)
    seats = ("P1", "P2") if number % 2 == 0 else ("P2", "P1")
    bots = {seats[0]: make_bot(first), seats[1]: make_bot(second)}
    result = play_match(state, bots, random.Random(seed * 7919 + number))
    return (
        result.returns[seats[0]],
        result.seconds[seats[0]],
        result.seconds[seats[1]],
        result.turns,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair (even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("bots", nargs="*", default=list(BOTS))
    args = parser.parse_args()
    pairs = list(itertools.combinations(args.bots, 2))
    jobs = [(a, b, args.seed, n) for a, b in pairs for n in range(args.games)]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(game, jobs, chunksize=4))
    print(f"| bot | against | win share ± SE | ms/move | its ms/move | ({args.games} games each)")
    print("|---|---|---|---|---|")
    for index, (first, second) in enumerate(pairs):
        rows = results[index * args.games : (index + 1) * args.games]
        shares = [row[0] for row in rows]
        moves = sum(row[3] for row in rows)
        mean = statistics.mean(shares)
        se = statistics.stdev(shares) / len(shares) ** 0.5
        own = 1000 * sum(row[1] for row in rows) / moves
        theirs = 1000 * sum(row[2] for row in rows) / moves
        print(f"| {first} | {second} | {mean:.3f} ± {se:.3f} | {own:.1f} | {theirs:.1f} |")


if __name__ == "__main__":
    main()
