"""What a departure says the rules allowed leaves out no choice that changes the departing value
(issue 31, point 7): a differential test against the engine.

A random game of a few turns is played with random legal decisions and written down in full,
then one value of its last turn is spoiled as a hurried table spoils it: a gear from elsewhere added to a robot's feet,
or a score off by one. For each departure replay reports, every decision of the play it judges
against is tried with each of its other legal values (the engine resolves the turn again); a
decision that gives the departing value another value must be among what the departure says
the rules allowed. A score departure never lists an assembly (END-2 counts feet and circuit
alike).
"""

from __future__ import annotations

import random
from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from outofgears import resolve_turn, setup_game
from outofgears.judge.departures import Departure
from outofgears.judge.reach import decisions_of, played
from outofgears.judge.replay import TurnReplay, replay_log
from outofgears.judge.resolution import resolve_with_choices
from outofgears.log import GameLog, PositionRecord, Recorded, RobotGears, Start, TurnRecord
from outofgears.play.policies import random_programs
from outofgears.rules.choices import Choices
from outofgears.rules.gears import sort_gears
from outofgears.rules.legal import ChoiceSpace, as_choices, legal_choices
from outofgears.rules.model import GameState, Place, PlaceKind
from outofgears.rules.scoring import player_scores
from outofgears.words.findings import AssemblyOptions, ScoreOf, SplitOptions, StealOptions


def spoiled_game(seed: int, robots: int, spoil: str, turns: int = 4) -> GameLog:
    """A game of a few turns played with random legal decisions, each written down in full, the
    last one with one value spoiled."""
    rng = random.Random(seed)
    state = first = setup_game(list(range(1, robots + 1)), seed=seed)
    records: list[TurnRecord] = []
    while not state.game_over and len(records) < turns:
        programs = random_programs(state, rng)
        choices = legal_choices(state, programs).sample(rng)
        state = resolve_turn(state, programs, choices=choices).state
        records.append(TurnRecord(state.turn - 1, programs, recorded=written(state)))
    last = records[-1]
    records[-1] = attrs.evolve(last, recorded=spoiled(last.recorded, state, spoil, rng))
    start = PositionRecord(
        robots={r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in first.robots},
        dumps={d.number: d.gears for d in first.dumps},
        reserve=first.reserve,
    )
    players = {p.name: p.robots for p in first.players}
    return GameLog(players=players, start=Start(position=start), turns=tuple(records))


def written(state: GameState) -> Recorded:
    """Every robot's gears and every score."""
    return Recorded(
        robots={r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in state.robots},
        scores={score.player: score.points for score in player_scores(state)},
    )


def spoiled(
    recorded: Recorded | None, state: GameState, spoil: str, rng: random.Random
) -> Recorded:
    """``recorded`` with a score off by one, or a gear from elsewhere added to a robot's feet."""
    assert recorded is not None
    if spoil == "score":
        player = rng.choice(sorted(recorded.scores))
        return attrs.evolve(
            recorded, scores={**recorded.scores, player: recorded.scores[player] + 1}
        )
    robot = rng.choice(state.robot_numbers)
    elsewhere = [g for r in state.robots if r.number != robot for g in r.all_gears]
    elsewhere += [g for d in state.dumps for g in d.gears]
    if not elsewhere:
        return recorded
    feet = RobotGears(feet=(*state.robot(robot).feet, rng.choice(elsewhere)))
    return attrs.evolve(recorded, robots={**recorded.robots, robot: feet})


def value_of(departure: Departure, state: GameState) -> Any:
    """The departing value in a position."""
    subject = departure.subject
    if isinstance(subject, ScoreOf):
        return {s.player: s.points for s in player_scores(state)}[subject.player]
    assert isinstance(subject, Place)
    if subject.kind is PlaceKind.DUMP:
        return sort_gears(state.dump(subject.number).gears)
    robot = state.robot(subject.number)
    return sort_gears(robot.feet if subject.kind is PlaceKind.FEET else robot.circuit)


def listed(departure: Departure) -> set[tuple[str, Any]]:
    """The decisions a departure says the rules allowed."""
    found: set[tuple[str, Any]] = set()
    for option in departure.options or ():
        if isinstance(option, AssemblyOptions):
            found.add(("assembly", option.robot))
        elif isinstance(option, StealOptions):
            found.add(("steal", (option.defender, option.attacker)))
        elif isinstance(option, SplitOptions):
            found.add(("split", option.place))
    return found


def changing(turn: TurnReplay, departure: Departure) -> set[tuple[str, Any]]:
    """The decisions of the judged play that, given another legal value, change the departing
    value (a change that makes a later decision illegal is not counted)."""
    space = ChoiceSpace(turn.before, turn.programs)
    made = turn.choices
    table = space.start_table()
    found: set[tuple[str, Any]] = set()
    now = value_of(departure, turn.result.state)
    for step in space.walk():
        options = space.options(step, table)
        for kind, key, value in options:
            other = made.with_decisions(as_choices([(kind, key, value)]))
            done = resolve_with_choices(turn.before, turn.programs, other)
            if not done.refused and value_of(departure, done.result.state) != now:
                found.add((kind, key))
        kept = [o for o in options if _made(made, o)]
        space.advance(step, table, kept[0] if kept else None)
    return found


def _made(made: Choices, option: tuple[str, Any, Any]) -> bool:
    kind, key, value = option
    if kind == "steal":
        return bool(made.defence_steals.get(key) == value)
    if kind == "split":
        return bool(made.splits.get(key) == value)
    return False


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    robots=st.integers(2, 4),
    spoil=st.sampled_from(["score", "feet"]),
)
def test_a_departure_lists_every_choice_that_changes_its_value(
    seed: int, robots: int, spoil: str
) -> None:
    log = spoiled_game(seed, robots, spoil, turns=5)
    replayed = replay_log(log)
    for turn in replayed.turns:
        for departure in turn.departures:
            if departure.options is None:
                continue
            assert changing(turn, departure) <= listed(departure), departure
            if isinstance(departure.subject, ScoreOf):
                assert not any(isinstance(o, AssemblyOptions) for o in departure.options)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), robots=st.integers(2, 6))
def test_every_decision_of_a_random_play_is_read_back_from_its_moves(
    seed: int, robots: int
) -> None:
    # The search for one robot's gears keeps the judged play's other decisions as read back
    # from its moves (judge.reach.played): each must be read, or the search is not narrowed.
    rng = random.Random(seed)
    state = setup_game(list(range(1, robots + 1)), seed=seed)
    for _ in range(3):
        programs = random_programs(state, rng)
        space = legal_choices(state, programs)
        choices = space.sample(rng)
        result = resolve_turn(state, programs, choices=choices)
        made = played(state, programs, Choices(), result)
        assert resolve_turn(state, programs, choices=made).state == result.state
        decided = {(kind, key) for kind, key, _ in decisions_of(choices)}
        read = {(kind, key) for kind, key, _ in decisions_of(made)}
        assert decided <= read
        state = result.state
        if state.game_over:
            break
