"""Replay inferring every choice: ``python -m benchmarks.inference``.

Three figures, each measured side by side in one run (medians of ``--runs``):

1. Issue 12's: a whole 8-robot game (seeded, the random policy) played with post-reveal
   decisions drawn at random from :func:`~outofgears.rules.legal.legal_choices` (redrawn until
   they leave another position than the default policy, wherever the turn has one); the log
   keeps only the programs and every robot's recorded feet and circuit, no choice. Replay must
   infer the choices of every such turn.
2. Issue 21's departing log: a 1,000-turn 8-robot log (pairs of robots attacking and defending
   in turn, every defence steal drawn at random, every robot's feet and circuit recorded), and
   the same log with one impossible gear recorded at robot 1's feet every turn: every turn
   departs, and each departure is reported against the closest legal play. The ratio of the
   two replays must stay at most 5.
3. Issue 21's open positions: an 8-robot turn whose recorded scores leave 256 positions open
   (four robots' assemblies), then a turn that every robot's recorded feet and circuit settle:
   the time to carry the 256 positions through that second turn (two-turn replay minus the
   one-turn replay, each a median).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import attrs

from outofgears import Gear, apply_turn, gears, setup_game
from outofgears.judge.replay import replay_log
from outofgears.judge.start import start_state
from outofgears.log import GameLog, PositionRecord, Recorded, RobotGears, Start, TurnRecord
from outofgears.play.policies import random_programs
from outofgears.rules.legal import legal_choices
from outofgears.rules.programs import parse_program
from outofgears.rules.scoring import player_scores

PLAYERS: dict[str, tuple[int, ...]] = {f"P{n}": (n,) for n in range(1, 9)}


def inferred_game(seed: int) -> tuple[GameLog, int]:
    """An 8-robot game whose log records outcomes only, and how many turns depart from the
    default policy."""
    rng = random.Random(seed)
    state = setup_game(list(range(1, 9)), seed=seed, players=list(PLAYERS))
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
    return GameLog(players=PLAYERS, start=Start(seed=seed), turns=tuple(turns)), differing


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


def skirmish(turns: int, seed: int) -> GameLog:
    """An 8-robot log of ``turns`` turns that never ends: no robot harvests, the reserve is
    empty and every dump keeps its gears; robots 1-2, 3-4, 5-6 and 7-8 take turns to attack
    and to defend, each defence steal drawn at random; every robot's gears recorded."""
    rng = random.Random(seed)
    feet = {n: gears(n % 8 + 1, (n + 2) % 8 + 1, (n + 5) % 8 + 1) for n in range(1, 9)}
    circuit = {n: gears((n + 4) % 8 + 1, (n + 6) % 8 + 1) for n in range(1, 9)}
    position = PositionRecord(
        robots={n: RobotGears(feet=feet[n], circuit=circuit[n]) for n in range(1, 9)},
        dumps={n: gears((n + 1) % 8 + 1, (n + 3) % 8 + 1) for n in range(1, 9)},
        reserve=(),
    )
    state = start_state(GameLog(players=PLAYERS, start=Start(position=position)))
    records: list[TurnRecord] = []
    for number in range(1, turns + 1):
        programs = {}
        for first in (1, 3, 5, 7):
            attacker, defender = (first, first + 1) if number % 2 else (first + 1, first)
            programs[attacker] = parse_program(f"attack {defender}")
            programs[defender] = parse_program(f"attack {defender}")
        state = apply_turn(state, programs, choices=legal_choices(state, programs).sample(rng))
        recorded = Recorded(
            robots={r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in state.robots}
        )
        records.append(TurnRecord(number, programs, recorded=recorded))
    return GameLog(players=PLAYERS, start=Start(position=position), turns=tuple(records))


def open_then_settled(seed: int) -> tuple[GameLog, GameLog]:
    """Two logs: one 8-robot turn whose recorded scores leave 256 positions open (robots 1-4
    each hold four gears, two alike: four assemblies each), and the same log with a second
    turn (random programs) that every robot's recorded feet and circuit settle."""
    rng = random.Random(seed)
    feet = {n: gears(n, n, n % 8 + 1, (n + 1) % 8 + 1) for n in range(1, 5)}
    position = PositionRecord(
        robots={n: RobotGears(feet=feet.get(n, gears(n)), circuit=()) for n in range(1, 9)},
        dumps={n: gears((n + 2) % 8 + 1, (n + 5) % 8 + 1) for n in range(1, 9)},
        reserve=gears(*[n % 8 + 1 for n in range(12)]),
    )
    state = start_state(GameLog(players=PLAYERS, start=Start(position=position)))
    guards = {n: parse_program(f"attack {n}") for n in range(1, 9)}
    state = apply_turn(state, guards)
    first = TurnRecord(
        1, guards, recorded=Recorded(scores={s.player: s.points for s in player_scores(state)})
    )
    programs = random_programs(state, rng)
    after = apply_turn(state, programs)
    second = TurnRecord(
        2,
        programs,
        recorded=Recorded(
            robots={r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in after.robots}
        ),
    )
    one = GameLog(players=PLAYERS, start=Start(position=position), turns=(first,))
    return one, attrs.evolve(one, turns=(first, second))


def timed(run: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--turns", type=int, default=1000)
    arguments = parser.parse_args()
    runs = arguments.runs

    log, differing = inferred_game(arguments.seed)
    replayed = replay_log(log)
    assert replayed.agrees, replayed.departures[0]
    times = timed(lambda: replay_log(log), runs)
    print(
        f"8 robots, {len(log.turns)} turns, {differing} departing from the default policy, "
        f"{len(replayed.inferred)} choices inferred: replay best {min(times):.3f} s, "
        f"median {statistics.median(times):.3f} s"
    )

    agreeing = skirmish(arguments.turns, arguments.seed)
    departing = departing_everywhere(agreeing)
    assert replay_log(agreeing).agrees
    assert len({d.turn for d in replay_log(departing).departures}) == arguments.turns
    good: list[float] = []
    bad: list[float] = []
    for _ in range(max(1, runs // 2)):  # interleaved: both see the same machine
        good += timed(lambda: replay_log(agreeing), 1)
        bad += timed(lambda: replay_log(departing), 1)
    print(
        f"{arguments.turns}-turn 8-robot log: agreeing median {statistics.median(good):.2f} s, "
        f"departing at every turn median {statistics.median(bad):.2f} s, "
        f"ratio {statistics.median(bad) / statistics.median(good):.2f} (issue 21: at most 5)"
    )

    one, two = open_then_settled(arguments.seed)
    opened = replay_log(one)
    assert opened.positions == 256, opened.positions
    settled = replay_log(two)
    assert settled.agrees, settled.departures
    assert settled.positions == 1, settled.open
    first: list[float] = []
    both: list[float] = []
    for _ in range(runs):
        first += timed(lambda: replay_log(one), 1)
        both += timed(lambda: replay_log(two), 1)
    carried = statistics.median(both) - statistics.median(first)
    print(
        f"256 open 8-robot positions: turn 1 (opening them) median "
        f"{statistics.median(first):.3f} s, turns 1-2 median {statistics.median(both):.3f} s: "
        f"carried through turn 2 in {carried:.3f} s ({carried / 256 * 1000:.2f} ms a position)"
    )


if __name__ == "__main__":
    main()
