"""The search bot against the one it replaced, side by side in one run: ``python -m benchmarks.mcts_speed``.

Issue 36's item 3: ``mcts`` at a third of its time a move or less, at the same strength. The old
bot is the ``MCTSBot`` of commit ``--baseline`` (default ``eb16529``, before issue 36's work on
it): its module ``outofgears/play/bots.py`` is extracted with ``git archive`` into a temporary
directory and imported under another name, so that both bots play on this tree's engine (what
is measured is the bots, not the engine). Both at their defaults (400 iterations, foresight 8).

1. Head to head: ``mcts`` (new), the old ``mcts`` and ``greedy``, one each, in 3-robot games of
   :func:`~outofgears.play.tournament.play_tournament` (every bot in every seat of every deal),
   half the games with the bots in that order round the table and half in the order old, new,
   greedy (the same deals), so that neither search always sits just after the other: each
   bot's win share with its standard error ``s / sqrt(n)``, and the new bot's share less the
   old one's, game by game (mean and standard error of the differences).
2. Each of them alone against two ``greedy``, the same deals and seeds: its win share.
3. Milliseconds a move (wall clock, the bot's ``act`` calls only): the median over the games of
   each bot's time a move in the game, and the median of the per-game ratios old / new (the
   head-to-head games, where the two bots play the same positions' turns side by side).
4. Milliseconds a move in processor time (``time.thread_time``, which the load of a shared
   machine disturbs little): both bots on the same positions, those of ``--positions`` seats of
   3-robot games of three ``greedy`` (deals 100, 101, ...), each bot a fresh one seeded by the
   position's number, passes alternating between the bots (``--passes``); the median of the
   passes for each, and the median of the per-pass ratios old / new.

The figures in docs/performance.md and docs/writing-a-bot.md come from the default run
(``--games 300 --seed 1``; 300 games give standard errors of about 0.03 or less).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from outofgears.play.bots import Bot, make_bot, play_match
from outofgears.play.observation import Observation
from outofgears.play.tournament import BotSource, GameResult, mean_and_se, play_tournament
from outofgears.rules.setup import setup_game

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "eb16529"
OLD_MODULE = "outofgears/play/bots.py"


def old_bot_class(commit: str, into: Path) -> Callable[[], Bot]:
    """The ``MCTSBot`` class of ``commit``, its module extracted with ``git archive`` and
    imported as ``benchmarks_old_bots`` (its imports are this tree's)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, OLD_MODULE],
        check=True,
        capture_output=True,
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    spec = importlib.util.spec_from_file_location("benchmarks_old_bots", into / OLD_MODULE)
    if spec is None or spec.loader is None:
        raise ImportError(f"{OLD_MODULE} of {commit} cannot be loaded")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    old: Callable[[], Bot] = module.MCTSBot
    return old


def positions(count: int) -> list[Observation]:
    """The observations of ``count`` moves with a choice, from 3-robot games of three
    ``greedy`` (deals 100, 101, ...; every seat)."""
    seen: list[Observation] = []

    class Watching:
        def __init__(self) -> None:
            self.bot = make_bot("greedy")

        def act(self, observation: Observation, rng: random.Random) -> int:
            if len(observation.legal_actions()) > 1:
                seen.append(observation)
            return self.bot.act(observation, rng)

    deal = 100
    while len(seen) < count:
        state = setup_game([1, 2, 3], seed=deal)
        bots = {player.name: Watching() for player in state.players}
        play_match(state, bots, random.Random(deal))
        deal += 1
    return seen[:count]


def processor_ms(
    bots: dict[str, Callable[[], Bot]], seen: list[Observation], passes: int
) -> dict[str, list[float]]:
    """Each bot's processor milliseconds a move over ``seen``, pass by pass, alternating."""
    spent: dict[str, list[float]] = {name: [] for name in bots}
    names = list(bots)
    for index in range(passes):
        for name in names if index % 2 else reversed(names):
            began = time.thread_time()
            for number, observation in enumerate(seen):
                bots[name]().act(observation, random.Random(number))
            spent[name].append(1000 * (time.thread_time() - began) / len(seen))
    return spent


class _Run:
    """A tournament's games as they end: each bot's returns and its ms a move in each game."""

    def __init__(self, bots: int) -> None:
        self.shares: list[list[float]] = [[] for _ in range(bots)]
        self.ms: list[list[float]] = [[] for _ in range(bots)]

    def __call__(self, game: GameResult) -> None:
        for index, share in enumerate(game.shares):
            self.shares[index].append(share)
            self.ms[index].append(1000 * game.seconds[index] / max(1, game.moves))


def play(bots: list[BotSource], games: int, seed: int) -> _Run:
    run = _Run(len(bots))
    play_tournament(bots, games=games, seed=seed, on_game=run)
    return run


def _share(values: list[float]) -> str:
    mean, se = mean_and_se(values)
    return f"{mean:.3f} ± {se or 0.0:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=300, help="games of each table (a multiple of 6)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", default=BASELINE, help="the commit of the old bot")
    parser.add_argument("--positions", type=int, default=100, help="positions of figure 4")
    parser.add_argument("--passes", type=int, default=5, help="passes of figure 4")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        old: Any = old_bot_class(args.baseline, Path(folder))

        def old_mcts() -> Bot:
            bot: Bot = old()
            return bot

        spent = processor_ms(
            {"new": lambda: make_bot("mcts"), "old": old_mcts},
            positions(args.positions),
            args.passes,
        )
        head = play(["mcts", old_mcts, "greedy"], args.games // 2, args.seed)
        swapped = play([old_mcts, "mcts", "greedy"], args.games // 2, args.seed)
        for index, other in enumerate((1, 0, 2)):
            head.shares[index] += swapped.shares[other]
            head.ms[index] += swapped.ms[other]
        new_alone = play(["mcts", "greedy", "greedy"], args.games, args.seed)
        old_alone = play([old_mcts, "greedy", "greedy"], args.games, args.seed)
    differences = [a - b for a, b in zip(head.shares[0], head.shares[1], strict=True)]
    new_ms, old_ms = head.ms[0], head.ms[1]
    ratios = [b / a for a, b in zip(new_ms, old_ms, strict=True) if a > 0]
    print(
        f"3 robots, {args.games} games a table (seed {args.seed}), every bot in every seat; "
        f"old = MCTSBot of {args.baseline}; both at their defaults"
    )
    print()
    print("| table | bot | win share ± SE | ms a move (median of games) |")
    print("|---|---|---|---:|")
    for index, name in enumerate(("mcts (new)", "mcts (old)", "greedy")):
        ms = statistics.median(head.ms[index])
        print(f"| head to head | {name} | {_share(head.shares[index])} | {ms:.2f} |")
    for name, alone in (("mcts (new)", new_alone), ("mcts (old)", old_alone)):
        ms = statistics.median(alone.ms[0])
        print(f"| against two greedy | {name} | {_share(alone.shares[0])} | {ms:.2f} |")
    print()
    print(f"head to head, new less old, game by game: {_share(differences)}")
    print(
        f"ms a move, head to head: new {statistics.median(new_ms):.2f}, old "
        f"{statistics.median(old_ms):.2f}; old / new: median of the games' ratios "
        f"{statistics.median(ratios):.2f} (quartiles "
        + ", ".join(f"{q:.2f}" for q in statistics.quantiles(ratios, n=4)[::2])
        + ")"
    )
    cpu = [old / new for new, old in zip(spent["new"], spent["old"], strict=True)]
    print(
        f"processor ms a move on {args.positions} positions, {args.passes} passes: new "
        f"{statistics.median(spent['new']):.2f}, old {statistics.median(spent['old']):.2f}; "
        f"old / new: median of the passes' ratios {statistics.median(cpu):.2f} "
        f"(from {min(cpu):.2f} to {max(cpu):.2f})"
    )


if __name__ == "__main__":
    main()
