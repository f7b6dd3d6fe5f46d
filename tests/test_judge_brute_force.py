"""The judge against a judge written the slow, obvious way (the outsider's check of issue 21).

The brute-force judge here knows only the rules' public face: it carries every position that
fits the record, by trying every legal play of every turn from every such position
(:func:`tests.brute_force.every_play`, no pruning, no merging but by what the positions hold)
and keeping each one whose recorded values it reads off the position itself; a turn that
records nothing is the default policies' (ruling R-CHOICES). A turn that leaves no position
departs. Nothing of :mod:`outofgears.judge` is used but the log's start.

Random small games are played with random legal decisions and logged as a table logs them:
every robot's gears, a random part of them, or the scores alone; some logs get one value
wrong. Replay must agree exactly: the same verdict, the same first departing turn, and at the
end the same set of positions still possible.
"""

from __future__ import annotations

import random

import attrs
from hypothesis import given, note, settings
from hypothesis import strategies as st

from outofgears import GameState, resolve_turn, setup_game
from outofgears.judge.replay import replay_log
from outofgears.judge.start import start_state
from outofgears.log import GameLog, Recorded, Start, TurnRecord
from outofgears.play.policies import random_programs
from outofgears.rules.gears import sort_gears
from outofgears.rules.legal import legal_choices
from outofgears.rules.programs import AnyProgram
from outofgears.rules.scoring import player_scores
from tests.brute_force import every_play
from tests.log_samples import recorded_after

#: Plays enumerated at the most in one turn from one position, and positions carried at the
#: most; a game past either is skipped (the brute force must stay quick).
MOST_PLAYS = 3_000
MOST_POSITIONS = 200


def held(state: GameState) -> tuple[object, ...]:
    """What tells two positions apart, read off the position: every place's gears (in any
    order), the reserve in its order, the players' cards, whether the game is over."""
    return (
        tuple((r.number, sort_gears(r.feet), sort_gears(r.circuit)) for r in state.robots),
        tuple((d.number, sort_gears(d.gears)) for d in state.dumps),
        state.reserve,
        tuple((p.name, p.upgrade) for p in state.players),
        state.game_over,
    )


def fits(state: GameState, recorded: Recorded) -> bool:
    """Whether every value the table recorded is the position's."""
    for number, told in recorded.robots.items():
        robot = state.robot(number)
        if told.feet is not None and sort_gears(told.feet) != sort_gears(robot.feet):
            return False
        if told.circuit is not None and sort_gears(told.circuit) != sort_gears(robot.circuit):
            return False
    points = {score.player: score.points for score in player_scores(state)}
    return all(points[player] == told for player, told in recorded.scores.items())


def brute_force_judge(log: GameLog) -> tuple[int | None, set[tuple[object, ...]]] | None:
    """The first turn no legal play fits (``None`` if none), and the positions still possible
    after the last turn; ``None`` when the game is too open to enumerate."""
    positions = {held(start := start_state(log)): start}
    for record in log.turns:
        programs: dict[int, AnyProgram] = dict(record.programs)
        following: dict[tuple[object, ...], GameState] = {}
        recorded = record.recorded
        for state in positions.values():
            if recorded is None or not (recorded.robots or recorded.dumps or recorded.scores):
                # Nothing recorded: the default policies decide (ruling R-CHOICES).
                after = resolve_turn(state, programs).state
                following.setdefault(held(after), after)
                continue
            plays = list(every_play(state, programs, MOST_PLAYS + 1))
            if len(plays) > MOST_PLAYS:
                return None
            for after in plays:
                if fits(after, recorded):
                    following.setdefault(held(after), after)
        if not following:
            return record.turn, set()
        if len(following) > MOST_POSITIONS:
            return None
        positions = following
    return None, set(positions)


def one_value_wrong(record: TurnRecord, rng: random.Random) -> TurnRecord:
    """The record with one value changed: a gear moved from one robot's record to another's,
    or a score one point off (the record unchanged when it holds neither)."""
    assert record.recorded is not None
    recorded = record.recorded
    givers = [n for n, g in recorded.robots.items() if g.feet]
    if givers and len(recorded.robots) > 1:
        giver = rng.choice(givers)
        taker = rng.choice([n for n in recorded.robots if n != giver])
        robots = dict(recorded.robots)
        feet = list(robots[giver].feet or ())
        gear = feet.pop(rng.randrange(len(feet)))
        robots[giver] = attrs.evolve(robots[giver], feet=tuple(feet))
        robots[taker] = attrs.evolve(robots[taker], feet=(*(robots[taker].feet or ()), gear))
        return attrs.evolve(record, recorded=attrs.evolve(recorded, robots=robots))
    if not recorded.scores:
        return record  # nothing to change
    scores = dict(recorded.scores)
    player = rng.choice(sorted(scores))
    scores[player] += 1
    return attrs.evolve(record, recorded=attrs.evolve(recorded, scores=scores))


def logged_game(seed: int, robots: int, mode: str, wrong: bool) -> GameLog:
    """A seeded game of at most 4 turns played with random legal decisions, logged in
    ``mode``; with ``wrong``, one turn's record has one value changed."""
    rng = random.Random(seed)
    state = setup_game(list(range(1, robots + 1)), seed=seed)
    records: list[TurnRecord] = []
    while not state.game_over and len(records) < 4:
        programs = random_programs(state, rng)
        choices = legal_choices(state, programs).sample(rng)
        after = resolve_turn(state, programs, choices=choices).state
        records.append(
            TurnRecord(state.turn, programs, recorded=recorded_after(after, mode, rng, 0.3))
        )
        state = after
    if wrong and records:
        index = rng.randrange(len(records))
        records[index] = one_value_wrong(records[index], rng)
    players = {p.name: p.robots for p in state.players}
    return GameLog(players=players, start=Start(seed=seed), turns=tuple(records))


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    robots=st.integers(2, 4),
    mode=st.sampled_from(["full", "partial", "scores"]),
    wrong=st.booleans(),
)
def test_replay_agrees_with_a_brute_force_judge(
    seed: int, robots: int, mode: str, wrong: bool
) -> None:
    log = logged_game(seed, robots, mode, wrong)
    judged = brute_force_judge(log)
    if judged is None:
        return
    departs_at, possible = judged
    replayed = replay_log(log, max_open=MOST_POSITIONS)
    note(f"brute force: departs at {departs_at}, {len(possible)} positions possible")
    if departs_at is not None:
        assert replayed.verdict == "departs"
        assert min(d.turn for d in replayed.departures) == departs_at
        return
    assert replayed.verdict == "agrees", replayed.departures[:1]
    assert {held(state) for state in replayed.possible} == possible
