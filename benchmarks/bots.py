"""The engine as a game for bots, issue 13's figures side by side: ``python -m benchmarks.bots``.

In one process, on the positions of random 8-robot games (seeded, the random policy), round
after round (these machines are noisy: compare the medians and the ratios, not single runs).
Times are the CPU time of the process by default (``time.thread_time``: the wall clock's on a
quiet machine, and little disturbed by other processes on a busy one); ``--clock wall`` times
with ``time.perf_counter``.

1. ``apply_turn`` with given programs: microseconds per turn.
2. The PettingZoo ``step`` of ``outofgears.play.pettingzoo``, the observations of every agent
   (vectors and masks, as NumPy arrays) included, in games of the environment played by the
   random policy; ``apply_turn`` on the same positions with the same programs; and their
   ratio (target: at most 2). Skipped without the extra ``outofgears[pettingzoo]``.
3. ``observe(state, p).to_vector()`` for all 8 players of a state, with the
   :class:`~outofgears.play.observation.ObservationCache` a game's owner keeps: states per
   second (target: at least 20,000), each state observed for the first time.
3b. The OpenSpiel game (extra ``outofgears[openspiel]``): ``clone()`` of a state against a turn
   (target: at most 2), and ``observation_tensor`` of all 8 players against figure 3 (target:
   at most 2). Skipped without the extra.
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
from typing import Any

from outofgears import GameState, apply_turn, setup_game
from outofgears.play.actions import action_id
from outofgears.play.game import returns
from outofgears.play.observation import ObservationCache
from outofgears.play.policies import random_programs
from outofgears.rules.programs import AnyProgram

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


Turn = tuple[GameState, dict[int, AnyProgram], dict[str, int]]


def env_games(count: int) -> list[tuple[int, list[Turn]]]:
    """Games of the 8-robot PettingZoo environment played by the random policy, at least
    ``count`` turns in all: each game's seed, and each turn's position, programs and actions."""
    from outofgears.play.pettingzoo import parallel_env

    rng = random.Random(1)
    env = parallel_env(robots=8)
    games: list[tuple[int, list[Turn]]] = []
    total = 0
    while total < count:
        seed = len(games)
        env.reset(seed=seed)
        turns: list[Turn] = []
        while env.agents and total < count:
            assert env.position is not None
            programs = random_programs(env.position, rng)
            actions = {f"P{robot}": action_id(program) for robot, program in programs.items()}
            turns.append((env.position, programs, actions))
            env.step(actions)
            total += 1
        games.append((seed, turns))
    return games


CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.perf_counter}
clock = CLOCKS["cpu"]


def timed(run: Callable[[], None], repeat: int) -> float:
    start = clock()
    for _ in range(repeat):
        run()
    return (clock() - start) / repeat


def step_time(parallel_env: Callable[..., Any], played: list[tuple[int, list[Turn]]]) -> float:
    """Seconds per PettingZoo step: the games replayed, the clock read around each game's
    steps (a reset is not a step; timed apart, resets ran faster than within the games and the
    difference was counted as steps)."""
    env = parallel_env(robots=8)
    steps = 0.0
    for seed, turns in played:
        env.reset(seed=seed)
        start = clock()
        for _, _, actions in turns:
            env.step(actions)
        steps += clock() - start
    return steps / sum(len(turns) for _, turns in played)


def ends_time(played: list[tuple[int, list[Turn]]]) -> float:
    """Seconds per step spent on ``returns`` of the games' last positions, which the step
    computes as the rewards when a game ends (scoring, END-2 and END-3)."""
    ends = []
    for _, turns in played:
        state, programs, _ = turns[-1]
        after = apply_turn(state, programs)
        if after.game_over:
            ends.append(after)
    start = clock()
    for state in ends:
        returns(state, turn_cap=100)
    return (clock() - start) / sum(len(turns) for _, turns in played)


def openspiel_states(pyspiel: Any, count: int) -> list[Any]:
    """States of the 8-robot OpenSpiel game at its players' nodes, chance and the players
    drawing uniformly (seeded)."""
    import numpy as np

    game = pyspiel.load_game("python_out_of_gears(robots=8)")
    rng = np.random.RandomState(1)
    found: list[Any] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=chances)))
                continue
            found.append(state.clone())
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(8)])
    return found


def openspiel_times(pyspiel: Any, states: list[Any]) -> tuple[float, float]:
    """Seconds per ``clone()`` and per ``observation_tensor`` of all 8 players, each state
    observed fresh (a clone, whose shared part is not computed yet)."""
    start = clock()
    clones = [state.clone() for state in states]
    clone = (clock() - start) / len(states)
    for copy_ in clones:
        copy_.shared = None
    start = clock()
    for copy_ in clones:
        for player in range(8):
            copy_.observation_tensor(player)
    return clone, (clock() - start) / len(states)


def turn_time(cases: list[Case]) -> float:
    """Seconds per ``apply_turn`` on the cases."""
    start = clock()
    for state, programs in cases:
        apply_turn(state, programs)
    return (clock() - start) / len(cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    positions = cases(args.positions)
    try:
        from outofgears.play.pettingzoo import parallel_env
    except ImportError:
        parallel_env = None  # type: ignore[assignment]
    played = env_games(args.positions) if parallel_env is not None else []
    try:
        import pyspiel

        import outofgears.play.openspiel

        openspiel: Any = pyspiel
        assert outofgears.play.openspiel
    except ImportError:
        openspiel = None
    played_os = openspiel_states(openspiel, 200) if openspiel is not None else []
    figures: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        figures.setdefault(name, []).append(value)

    for _ in range(args.rounds):
        turn = turn_time(positions)
        add("apply_turn, 8 robots (us)", turn * 1e6)

        if parallel_env is not None:
            step = step_time(parallel_env, played)
            same = turn_time(
                [(state, programs) for _, turns in played for state, programs, _ in turns]
            )
            add("PettingZoo step, 8 robots, all observations (us)", step * 1e6)
            add("  apply_turn on the same positions, same programs (us)", same * 1e6)
            add("  ratio step / apply_turn (target <= 2)", step / same)
            add(
                "  of the step: the win shares at games' ends, per step (us)",
                ends_time(played) * 1e6,
            )

        fresh = [setup_game(list(range(1, 9)), seed=1000 + i) for i in range(50)]
        fresh += [apply_turn(state, programs) for state, programs in positions]
        names = [player.name for player in fresh[0].players]
        start = clock()
        cache = ObservationCache()  # as a game's owner keeps one (play_match, the envs)
        for state in fresh:
            for name in names:
                cache.observe(state, name).to_vector()
        per_state = (clock() - start) / len(fresh)
        add("observe().to_vector(), 8 players (states/s, target >= 20,000)", 1 / per_state)
        add("  its time per state / apply_turn", per_state / turn)

        if openspiel is not None:
            clone, tensors = openspiel_times(openspiel, played_os)
            add("OpenSpiel clone(), 8 robots (us)", clone * 1e6)
            add("  clone / apply_turn (target <= 2)", clone / turn)
            add("OpenSpiel observation_tensor of all 8 players (us)", tensors * 1e6)
            add("  / observe().to_vector() of 8 players (target <= 2)", tensors / per_state)

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
    print(
        f"{'figure':<{width}}  {'median':>12}  {'min':>12}  {'max':>12}   "
        f"({args.rounds} rounds, {args.clock} clock)"
    )
    for name, values in figures.items():
        print(
            f"{name:<{width}}  {statistics.median(values):>12,.2f}  {min(values):>12,.2f}  "
            f"{max(values):>12,.2f}"
        )


if __name__ == "__main__":
    main()
