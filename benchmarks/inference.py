"""Replay inferring every choice: ``python -m benchmarks.inference``.

Issue 12's figure. A whole 8-robot game (seeded, the random policy) is played with post-reveal
decisions drawn at random from :func:`~outofgears.rules.legal.legal_choices` (redrawn until they
leave another position than the default policy, wherever the turn has one); the log keeps
only the programs and every robot's recorded feet and circuit, no choice. Replay must infer
the choices of every such turn. Prints the number of turns, how many needed inference, and
the replay time (best and median of the runs).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import attrs

from outofgears import Gear, apply_turn, setup_game
from outofgears.judge.replay import replay_log
from outofgears.log import GameLog, Recorded, RobotGears, Start, TurnRecord
from outofgears.play.policies import random_programs
from outofgears.rules.legal import legal_choices


def inferred_game(seed: int) -> tuple[GameLog, int]:
    """An 8-robot game whose log records outcomes only, and how many turns depart from the
    default policy."""
    rng = random.Random(seed)
    players: dict[str, tuple[int, ...]] = {f"P{n}": (n,) for n in range(1, 9)}
    state = setup_game(list(range(1, 9)), seed=seed, players=list(players))
    turns: list[TurnRecord] = []
    differing = 0
    while not state.game_over:
        programs = random_programs(state, rng)
        default = apply_turn(state, programs)
        after = default
        space = legal_choices(state, programs)
        for _ in range(20):
            after = apply_turn(state, programs, choices=space.sample(rng))
            if after != default:
                differing += 1
                break
        recorded = Recorded(
            robots={r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in after.robots}
        )
        turns.append(TurnRecord(state.turn, programs, recorded=recorded))
        state = after
    return GameLog(players=players, start=Start(seed=seed), turns=tuple(turns)), differing


def departing_everywhere(log: GameLog) -> GameLog:
    """The same log with an impossible white gear recorded at robot 1's feet every turn: every
    turn departs, and each departure says what the rules allowed."""
    turns = []
    for record in log.turns:
        assert record.recorded is not None
        robots = dict(record.recorded.robots)
        feet = robots[1].feet or ()
        robots[1] = RobotGears(feet=(*feet, Gear(8)), circuit=robots[1].circuit)
        turns.append(attrs.evolve(record, recorded=Recorded(robots=robots)))
    return attrs.evolve(log, turns=tuple(turns))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    log, differing = inferred_game(arguments.seed)
    times = []
    for _ in range(arguments.runs):
        started = time.perf_counter()
        replayed = replay_log(log)
        times.append(time.perf_counter() - started)
    assert replayed.agrees, replayed.departures[0]
    print(
        f"8 robots, {len(log.turns)} turns, {differing} departing from the default policy, "
        f"{len(replayed.inferred)} choices inferred: replay best {min(times):.3f} s, "
        f"median {statistics.median(times):.3f} s"
    )
    bad = departing_everywhere(log)
    started = time.perf_counter()
    departed = replay_log(bad)
    print(
        f"the same game departing at every turn: {len(departed.departures)} departures, "
        f"replay {time.perf_counter() - started:.3f} s"
    )


if __name__ == "__main__":
    main()
