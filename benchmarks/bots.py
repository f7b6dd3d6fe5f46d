"""The engine as a game for bots, issue 13's figures side by side: ``python -m benchmarks.bots``.

In one process, on the positions of random 8-robot games (seeded, the random policy), round
after round (these machines are noisy: compare the medians and the ratios, not single runs):

1. ``apply_turn`` with given programs: microseconds per turn.
2. The PettingZoo ``step`` of ``outofgears.pettingzoo`` with the same programs as actions, the
   observations of every agent (vectors and masks, as NumPy arrays) included; and its ratio to
   1 (target: at most 2). Skipped without the extra ``outofgears[pettingzoo]``.
3. ``observe(state, p).to_vector()`` for all 8 players of a state: states per second (target:
   at least 20,000), each state observed for the first time.
4. ``copy.deepcopy(state)``: microseconds, and how many times faster than a turn (target: at
   least 100).
5. ``pickle`` round trip of a state, for information, and a turn on the unpickled state
   against a turn on the original (the shared gear instances are kept: about 1).
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import statistics
import time
from collections.abc import Callable

from outofgears import GameState, apply_turn, setup_game
from outofgears.actions import action_id
from outofgears.observation import observe
from outofgears.policies import random_programs
from outofgears.programs import AnyProgram

Case = tuple[GameState, dict[int, AnyProgram]]


def cases(count: int) -> list[Case]:
    """Positions of random 8-robot games with the programs played there."""
    rng = random.Random(1)
    found: list[Case] = []
    game = 0
    while len(found) < count:
        state = setup_game(list(range(1, 9)), seed=game)
        game += 1
        while not state.game_over and len(found) < count:
            programs = random_programs(state, rng)
            found.append((state, programs))
            state = apply_turn(state, programs)
    return found


def timed(run: Callable[[], None], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        run()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args()
    positions = cases(args.positions)
    try:
        from outofgears.pettingzoo import parallel_env
    except ImportError:
        parallel_env = None  # type: ignore[assignment]
    figures: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        figures.setdefault(name, []).append(value)

    for _ in range(args.rounds):
        start = time.perf_counter()
        for state, programs in positions:
            apply_turn(state, programs)
        turn = (time.perf_counter() - start) / len(positions)
        add("apply_turn, 8 robots (us)", turn * 1e6)

        if parallel_env is not None:
            env = parallel_env(robots=8)
            env.reset(seed=0)
            steps = []
            for state, programs in positions:
                actions = {f"P{robot}": action_id(program) for robot, program in programs.items()}
                env.state, env.agents, env._revealed = state, list(env.possible_agents), None
                begin = time.perf_counter()
                env.step(actions)
                steps.append(time.perf_counter() - begin)
            step = sum(steps) / len(steps)
            add("PettingZoo step, 8 robots, all observations (us)", step * 1e6)
            add("  ratio step / apply_turn (target <= 2)", step / turn)

        fresh = [setup_game(list(range(1, 9)), seed=1000 + i) for i in range(50)]
        fresh += [apply_turn(state, programs) for state, programs in positions]
        names = [player.name for player in fresh[0].players]
        start = time.perf_counter()
        for state in fresh:
            for name in names:
                observe(state, name).to_vector()
        per_state = (time.perf_counter() - start) / len(fresh)
        add("observe().to_vector(), 8 players (states/s, target >= 20,000)", 1 / per_state)
        add("  its time per state / apply_turn", per_state / turn)

        state = positions[len(positions) // 2][0]
        deep = timed(lambda state=state: copy.deepcopy(state), 2000)
        add("deepcopy of a state (us)", deep * 1e6)
        add("  turns per deepcopy: turn / deepcopy (target >= 100)", turn / deep)

        data = pickle.dumps(state)
        add(
            "pickle round trip of a state (us)",
            timed(lambda state=state: pickle.loads(pickle.dumps(state)), 200) * 1e6,
        )
        again = pickle.loads(data)
        programs = positions[len(positions) // 2][1]
        original = timed(lambda state=state, programs=programs: apply_turn(state, programs), 300)
        unpickled = timed(lambda again=again, programs=programs: apply_turn(again, programs), 300)
        add("  turn on an unpickled state / on the original", unpickled / original)

    width = max(map(len, figures))
    print(f"{'figure':<{width}}  {'median':>12}  {'min':>12}  {'max':>12}   ({args.rounds} rounds)")
    for name, values in figures.items():
        print(
            f"{name:<{width}}  {statistics.median(values):>12,.2f}  {min(values):>12,.2f}  "
            f"{max(values):>12,.2f}"
        )


if __name__ == "__main__":
    main()
