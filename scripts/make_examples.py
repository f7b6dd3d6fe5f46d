#!/usr/bin/env python3
"""Regenerate the shipped example logs in ``examples/``, deterministically.

Usage (from the repository root)::

    .venv/bin/python scripts/make_examples.py            # (re)write examples/*.log.json
    .venv/bin/python scripts/make_examples.py --check    # exit 1 if a file differs from this
    .venv/bin/python scripts/make_examples.py --out DIR  # write them to DIR instead

Every game comes from fixed seeds and the documented random policy
(:func:`outofgears.play.policies.random_programs`), played by the engine; what the
players "recorded" is what the rules give, except in ``disputed.log.json``, whose
turn 4 record is edited here, in code, from a clean game that agrees with the
rules. ``tests/test_examples.py`` runs ``--check``, so the files in ``examples/``
are always what this script writes.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

import attrs

from outofgears import SPEC_VERSION, __version__
from outofgears.errors import IllegalChoiceError
from outofgears.judge.following import table_position
from outofgears.judge.replay import replay_log
from outofgears.judge.start import start_state
from outofgears.log import (
    ChoicesRecord,
    GameLog,
    PositionRecord,
    Recorded,
    RobotGears,
    SplitRecord,
    Start,
    StealRecord,
    TurnRecord,
    WrittenBy,
    dump_log,
)
from outofgears.play.policies import random_programs
from outofgears.rules.events import GearMoved, SplitResolved
from outofgears.rules.exploration import dumps_explored
from outofgears.rules.gears import Gear, gear_key, sort_gears
from outofgears.rules.legal import legal_choices
from outofgears.rules.model import GameState, Options, Place, PlaceKind
from outofgears.rules.programs import AnyProgram, UpgradeProgram, parse_program
from outofgears.rules.scoring import player_scores
from outofgears.rules.turn import TurnResult, resolve_turn

ROOT: Final = Path(__file__).resolve().parent.parent
EXAMPLES: Final = ROOT / "examples"
WRITTEN_BY: Final = WrittenBy(engine=__version__, spec=SPEC_VERSION)

#: A guard: no example game may run longer than this.
MAX_TURNS: Final = 200

Chooser = Callable[[GameState, dict[int, AnyProgram]], ChoicesRecord | None]
Recorder = Callable[[GameState], Recorded | None]


# --- playing and recording -------------------------------------------------------------------


def seat_scores(state: GameState) -> dict[str, int]:
    """Every player's score, in seating order (as a table writes them)."""
    points = {score.player: score.points for score in player_scores(state)}
    return {player.name: points[player.name] for player in state.players}


def record_table(state: GameState, *, dumps: bool = False) -> Recorded:
    """What a careful table writes down: every robot's feet and circuit, the scores, the dumps."""
    return Recorded(
        robots={r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in state.robots},
        dumps={d.number: d.gears for d in state.dumps} if dumps else {},
        scores=seat_scores(state),
    )


def play(
    state: GameState,
    rng: random.Random,
    *,
    record: Recorder,
    stop_before: int | None = None,
    fixed: dict[int, dict[int, AnyProgram]] | None = None,
    choose: Chooser | None = None,
) -> tuple[list[TurnRecord], list[TurnResult], GameState]:
    """Play from ``state`` with the random policy until the game ends (or turn ``stop_before``).

    ``fixed`` gives the programs of some turns instead of the policy (the policy
    still draws, so later turns do not depend on it); ``choose`` gives post-reveal
    choices; ``record`` what the table writes after each turn.
    """
    turns: list[TurnRecord] = []
    results: list[TurnResult] = []
    while not state.game_over and (stop_before is None or state.turn < stop_before):
        if len(turns) >= MAX_TURNS:
            raise RuntimeError(f"an example game ran past {MAX_TURNS} turns")
        programs = random_programs(state, rng)
        if fixed and state.turn in fixed:
            programs = fixed[state.turn]
        chosen = choose(state, programs) if choose else None
        result = resolve_turn(state, programs, choices=chosen.to_choices() if chosen else None)
        turns.append(TurnRecord(state.turn, programs, chosen, record(result.state)))
        results.append(result)
        state = result.state
    return turns, results, state


def game_log(
    header: GameLog, turns: Sequence[TurnRecord], description: str | None = None
) -> GameLog:
    """``header`` with its turns (and a new description)."""
    return GameLog(
        players=header.players,
        start=header.start,
        turns=tuple(turns),
        options=header.options,
        two_robot_variant=header.two_robot_variant,
        description=header.description if description is None else description,
        written_by=header.written_by,
    )


def require(condition: bool, what: str) -> None:
    """Stop if an example no longer shows what it is meant to show."""
    if not condition:
        raise RuntimeError(f"scripts/make_examples.py: expected {what}")


def programs_of(**laid: str) -> dict[int, AnyProgram]:
    """Programs from text: ``programs_of(r1="trap 3", r2="harvest 2")``."""
    return {int(robot[1:]): parse_program(text) for robot, text in laid.items()}


# --- the examples ----------------------------------------------------------------------------


def full_game() -> GameLog:
    """A whole seeded four-robot game, the table recording everything after every turn."""
    header = GameLog(
        players={"Ada": (1,), "Bruno": (2,), "Chiara": (3,), "Dario": (4,)},
        start=Start(seed=2026),
        two_robot_variant=False,
        description=(
            "A full game: four players with one robot each, set up from seed 2026, programs "
            "from the random policy (outofgears.play.policies.random_programs) seeded 7, the same "
            "game as `outofgears play examples/seeded-game.json`. After every turn the table "
            "recorded every robot's feet and circuit, every dump and the scores."
        ),
        written_by=WRITTEN_BY,
    )
    turns, _, state = play(
        start_state(header), random.Random(7), record=lambda s: record_table(s, dumps=True)
    )
    require(state.game_over, "the game ends")
    return game_log(header, turns)


def from_position() -> GameLog:
    """A game entered at turn 5 from the table as it stood, then played to the end."""
    players: dict[str, tuple[int, ...]] = {"Ada": (1,), "Bruno": (2,), "Chiara": (3,)}
    rng = random.Random(31)
    seeded = GameLog(players=players, start=Start(seed=77), two_robot_variant=False)
    _, _, state = play(start_state(seeded), rng, record=lambda s: None, stop_before=5)
    require(state.turn == 5 and not state.game_over, "the seeded game reaches turn 5")
    position = PositionRecord(
        robots={r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in state.robots},
        dumps={d.number: d.gears for d in state.dumps},
        reserve=state.reserve,
        turn=5,
    )
    header = GameLog(
        players=players,
        start=Start(position=position),
        two_robot_variant=False,
        description=(
            "A game typed in from the middle: three players, one robot each, entered at turn 5 "
            "as the table stood (every robot's feet and circuit, every dump, the reserve in "
            "draw order, next gear first), then played to the end with the random policy. "
            "The table recorded the robots' gears and the scores after every turn."
        ),
        written_by=WRITTEN_BY,
    )
    turns, _, end = play(start_state(header), rng, record=record_table)
    require(end.game_over, "the game ends")
    return game_log(header, turns)


def two_robot() -> GameLog:
    """The two-robot variant with the post-reveal choices a table makes."""
    header = GameLog(
        players={"Ada": (1, 5), "Bruno": (2, 6)},
        start=Start(seed=11),
        options=Options(assembly="optional"),
        two_robot_variant=True,
        description=(
            "The two-robot variant: Ada plays robots 1 and 5, Bruno robots 2 and 6; set up "
            "from seed 11, programs from the random policy seeded 29, assembly optional "
            "(ruling R-ASSEMBLY). Where the rules leave a choice after the reveal, the table "
            "sometimes chose otherwise than the default policies: a defender's gear, an "
            "assembly (or none), an explicit split. Robots' gears and scores recorded every turn."
        ),
        written_by=WRITTEN_BY,
    )
    turns, _, state = play(
        start_state(header), random.Random(29), record=record_table, choose=TableChoices()
    )
    require(state.game_over, "the game ends")
    kinds = {
        kind
        for turn in turns
        if turn.choices
        for kind, present in (
            ("steal", turn.choices.defence_steals),
            ("assembly", turn.choices.assemblies),
            ("split", turn.choices.splits),
        )
        if present
    }
    require(kinds == {"steal", "assembly", "split"}, f"every kind of choice is made: {kinds}")
    return game_log(header, turns)


def expansions() -> GameLog:
    """Robot Upgrades, Jolly and three-point gears and a padded reserve, five players."""
    header = GameLog(
        players={"Ada": (1,), "Bruno": (2,), "Chiara": (3,), "Dario": (4,), "Elena": (5,)},
        start=Start(seed=5),
        options=Options(upgrades=True, jolly_gears=True, three_point_gears=True, pad_reserve=True),
        two_robot_variant=False,
        description=(
            "Every expansion: Robot Upgrades (each player dealt one card), four Jolly gears, "
            "four three-point gears and a padded reserve; five players, set up from seed 5, "
            "programs from the random policy seeded 3, the same game as `outofgears play "
            "examples/expansions-game.json`. Robots' gears and scores recorded every turn."
        ),
        written_by=WRITTEN_BY,
    )
    turns, _, state = play(start_state(header), random.Random(3), record=record_table)
    require(state.game_over, "the game ends")
    laid = [p for t in turns for p in t.programs.values() if isinstance(p, UpgradeProgram)]
    require(len(laid) >= 2, f"at least two upgrade cards are laid: {laid}")
    return game_log(header, turns)


#: Turn 4 of the disputed game: robot 1 traps dump 3, which robot 3 harvests.
DISPUTED_TURN_4: Final = programs_of(r1="trap 3", r2="harvest 2", r3="harvest 3", r4="harvest 4")

DISPUTED_PLAYERS: Final[dict[str, tuple[int, ...]]] = {
    "Ada": (1,),
    "Bruno": (2,),
    "Chiara": (3,),
    "Dario": (4,),
}


def clean_disputed_game() -> tuple[GameLog, TurnResult]:
    """The game behind the disputed example, recorded as the rules give it, and its turn 4.

    Turns 1-3 come from the random policy; turn 4 is :data:`DISPUTED_TURN_4`. The
    setup seed is the first from 1 up that makes a good case: the trap takes gears
    from dump 3 and neither robot assembles in turn 4.
    """
    for seed in range(1, 1000):
        header = GameLog(
            players=DISPUTED_PLAYERS,
            start=Start(seed=seed),
            two_robot_variant=False,
            written_by=WRITTEN_BY,
        )
        turns, results, state = play(
            start_state(header),
            random.Random(seed),
            record=record_table,
            stop_before=5,
            fixed={4: DISPUTED_TURN_4},
        )
        if state.turn != 5:
            continue
        fourth = results[3]
        trapped = trap_takings(fourth)
        assembled = {m.robot for m in fourth.moves if m.clause == "ASM-1"}
        harvester_feet = len(fourth.state.robot(3).feet) + len(trapped)
        if len(trapped) >= 2 and not assembled & {1, 3} and harvester_feet < 3:
            return game_log(header, turns), fourth
    raise RuntimeError("no seed from 1 to 999 makes the disputed case")


def trap_takings(result: TurnResult) -> tuple[Gear, ...]:
    """The gears robot 1's trap took from dump 3 (TRP-3)."""
    return sort_gears(
        m.gear
        for m in result.moves
        if m.clause == "TRP-3" and m.source == Place.dump(3) and m.destination == Place.feet(1)
    )


def disputed() -> GameLog:
    """The clean game with turn 4 recorded the way the table (wrongly) played it.

    The table gave the gears of the trapped dump 3 to its harvester, robot 3,
    instead of the trapper, robot 1 (TRP-2, TRP-3): the record of robot 1's and
    robot 3's feet and of the scores follows that belief.
    """
    clean, fourth = clean_disputed_game()
    moved = trap_takings(fourth)
    rules = fourth.state
    trapper, harvester = rules.robot(1), rules.robot(3)
    believed = attrs.evolve(
        rules,
        robots=[
            attrs.evolve(trapper, feet=(Counter(trapper.feet) - Counter(moved)).elements()),
            attrs.evolve(harvester, feet=harvester.feet + moved),
            *(r for r in rules.robots if r.number not in (1, 3)),
        ],
    )
    record = Recorded(
        robots={
            n: RobotGears(feet=believed.robot(n).feet, circuit=believed.robot(n).circuit)
            for n in (1, 3)
        },
        scores=seat_scores(believed),
    )
    turns = list(clean.turns)
    turns[3] = TurnRecord(turns[3].turn, turns[3].programs, turns[3].choices, record)
    seed = clean.start.seed
    description = (
        f"A disputed game: four players, one robot each, set up from seed {seed}, turns 1-3 "
        f"from the random policy seeded {seed}. In turn 4 Ada's robot 1 trapped dump 3 and "
        "Chiara's robot 3 harvested it; the table gave the dump's gears to the harvester, "
        "robot 3, and recorded robots 1 and 3 and the scores that way. The rules void the "
        "harvest and give the gears to the trapper (TRP-2, TRP-3): `outofgears replay` "
        "reports the departure at turn 4. The table stopped there to settle it."
    )
    return game_log(clean, turns, description)


# --- choices a table makes (the two-robot example) ------------------------------------------


class TableChoices:
    """Post-reveal choices as a table makes them, for the two-robot example.

    On every turn it tries candidates in a fixed order: defence steals, then
    assemblies, then splits; a candidate is kept when the rules accept it and
    the state after the turn differs from the one without it (each kind at most
    once a turn). Assembly choices are made on the first :attr:`assembly_turns`
    turns that allow one: another pair of gears first, then no assembly at all.
    """

    def __init__(self, assembly_turns: int = 2) -> None:
        self.assembly_choices_made = 0
        self.assembly_turns = assembly_turns

    def __call__(self, state: GameState, programs: dict[int, AnyProgram]) -> ChoicesRecord | None:
        """The choices of one turn, ``None`` if the table follows the default policies."""
        chosen = ChoicesRecord()
        outcome = resolve_turn(state, programs)
        kinds: list[Callable[[GameState, TurnResult, ChoicesRecord], list[ChoicesRecord]]] = [
            steal_candidates,
            self.assembly_candidates,
            split_candidates,
        ]
        for candidates in kinds:
            for candidate in candidates(state, outcome, chosen):
                try:
                    trial = resolve_turn(state, programs, choices=candidate.to_choices())
                except IllegalChoiceError:
                    continue
                if trial.state != outcome.state:
                    chosen, outcome = candidate, trial
                    break
        if chosen.assemblies:
            self.assembly_choices_made += 1
        return chosen if chosen != ChoicesRecord() else None

    def assembly_candidates(
        self, state: GameState, result: TurnResult, chosen: ChoicesRecord
    ) -> list[ChoicesRecord]:
        """For each robot that assembled: another pair of its feet gears, or none."""
        if self.assembly_choices_made >= self.assembly_turns:
            return []
        out: list[ChoicesRecord] = []
        for robot in sorted({m.robot for m in result.moves if m.clause == "ASM-1" and m.robot}):
            picked = sort_gears(
                m.gear for m in result.moves if m.clause == "ASM-1" and m.robot == robot
            )
            feet = result.state.robot(robot).feet + picked
            pairs = sorted({sort_gears(pair) for pair in itertools.combinations(feet, 2)}, key=repr)
            options = [*pairs, ()] if self.assembly_choices_made == 0 else [(), *pairs]
            out += [
                with_choices(chosen, assemblies={**chosen.assemblies, robot: pair})
                for pair in options
                if pair != picked
            ]
        return out


def steal_candidates(
    state: GameState, result: TurnResult, chosen: ChoicesRecord
) -> list[ChoicesRecord]:
    """Another gear for each defence steal of the turn."""
    out: list[ChoicesRecord] = []
    for move in result.moves:
        if move.clause != "ATK-4" or move.robot is None:
            continue
        attacker = state.robot(move.source.number)
        for source, held in (("feet", attacker.feet), ("circuit", attacker.circuit)):
            for gear in sort_gears(set(held)):
                if gear == move.gear and source == move.source.kind.value:
                    continue
                steal = StealRecord(move.robot, attacker.number, source, gear)
                out.append(with_choices(chosen, defence_steals=(*chosen.defence_steals, steal)))
    return out


def split_candidates(
    state: GameState, result: TurnResult, chosen: ChoicesRecord
) -> list[ChoicesRecord]:
    """For each split of the turn, the default shares with two gears swapped."""
    out: list[ChoicesRecord] = []
    for event in result.events:
        if not isinstance(event, SplitResolved) or event.share == 0:
            continue
        if event.place.kind not in (PlaceKind.DUMP, PlaceKind.FEET):
            continue
        shares = {
            robot: [
                m.gear
                for m in result.moves
                if m.source == event.place and m.robot == robot and is_take(m)
            ]
            for robot in event.takers
        }
        for first, second in itertools.combinations(event.takers, 2):
            for a, b in itertools.product(sorted(set(shares[first]), key=repr), shares[second]):
                if a == b:
                    continue
                swapped = dict(shares)
                swapped[first] = [*shares[first]]
                swapped[first].remove(a)
                swapped[first].append(b)
                swapped[second] = [*shares[second]]
                swapped[second].remove(b)
                swapped[second].append(a)
                split = SplitRecord(
                    event.place, {r: sort_gears(g) for r, g in sorted(swapped.items())}
                )
                out.append(with_choices(chosen, splits=(*chosen.splits, split)))
    return out


def is_take(move: GearMoved) -> bool:
    """A move that takes gears to a taker's feet in a split."""
    return move.destination.kind is PlaceKind.FEET and move.destination.number == move.robot


def with_choices(
    base: ChoicesRecord,
    *,
    defence_steals: tuple[StealRecord, ...] | None = None,
    assemblies: dict[int, tuple[Gear, ...]] | None = None,
    splits: tuple[SplitRecord, ...] | None = None,
) -> ChoicesRecord:
    """``base`` with some kinds of choice replaced."""
    return ChoicesRecord(
        defence_steals=base.defence_steals if defence_steals is None else defence_steals,
        assemblies=base.assemblies if assemblies is None else assemblies,
        splits=base.splits if splits is None else splits,
    )


# --- a real table: the reserve as counts, outcomes without choices ---------------------------

REAL_TABLE_PLAYERS: Final[dict[str, tuple[int, ...]]] = {
    "Ada": (1,),
    "Ben": (2,),
    "Chiara": (3,),
    "Dario": (4,),
}


def drawn_onto_dumps(state: GameState) -> dict[int, Gear | None]:
    """What exploration turns up onto each dump from ``state``'s reserve (EXP-1)."""
    receiving, skipped = dumps_explored(state.robot_numbers, state.reserve)
    return {**dict(zip(receiving, state.reserve, strict=False)), **dict.fromkeys(skipped)}


def real_table_turns() -> tuple[GameLog, list[TurnRecord], list[TurnResult]]:
    """A four-player game as a table plays it, with its turns and their results.

    Set up from seed 12 but written down as a table knows it: the reserve as counts. Every
    post-reveal decision is a random legal one (``legal_choices(...).sample``), so the table
    often chose otherwise than the default policies; the log keeps only what came of them.
    """
    seeded = GameLog(players=REAL_TABLE_PLAYERS, start=Start(seed=12), two_robot_variant=False)
    state = start_state(seeded)
    position = PositionRecord(
        robots={r.number: RobotGears(feet=r.feet, circuit=r.circuit) for r in state.robots},
        dumps={d.number: d.gears for d in state.dumps},
        reserve=dict(sorted(Counter(state.reserve).items(), key=lambda item: gear_key(item[0]))),
    )
    header = GameLog(
        players=REAL_TABLE_PLAYERS,
        start=Start(position=position),
        two_robot_variant=False,
        description=(
            "A game as a real table logs it: four players, the face-down reserve written as "
            "counts (its order unknown), and each turn what was turned up onto each dump "
            "(drawn). The players wrote down every robot's feet and circuit, every dump and "
            "the scores, but never the choices they made after the reveal: assemblies, "
            "defence steals and splits, often not the default ones. Replay infers them."
        ),
        written_by=WRITTEN_BY,
    )
    rng = random.Random(12)
    turns: list[TurnRecord] = []
    results: list[TurnResult] = []
    while not state.game_over:
        programs = random_programs(state, rng)
        choices = legal_choices(state, programs).sample(rng)
        result = resolve_turn(state, programs, choices=choices)
        recorded = record_table(result.state, dumps=True)
        turns.append(TurnRecord(state.turn, programs, None, recorded, drawn_onto_dumps(state)))
        results.append(result)
        state = result.state
    return header, turns, results


def real_table() -> GameLog:
    """A real table's game: reserve counts, drawn gears, choices only as their outcomes."""
    header, turns, _ = real_table_turns()
    log = game_log(header, turns)
    replayed = replay_log(log)
    require(replayed.agrees, "the real-table game agrees with the rules")
    require(len(replayed.inferred) >= 5, f"choices are inferred: {len(replayed.inferred)}")
    return log


def real_table_illegal() -> GameLog:
    """The real table's game up to the first turn with an inferred assembly, where the table
    wrote a circuit that no legal assembly gives (a gear that was not at the robot's feet)."""
    header, turns, results = real_table_turns()
    for index, result in enumerate(results):
        before = turns[index]
        moves = [m for m in result.moves if m.clause == "ASM-1"]
        if not moves or before.recorded is None:
            continue
        robot = moves[0].robot
        assert robot is not None
        circuit = result.state.robot(robot).circuit
        state_before = result.state if index == 0 else results[index - 1].state
        at_feet = set(state_before.robot(robot).feet) | set(result.state.robot(robot).feet)
        others = [g for d in result.state.dumps for g in d.gears if g not in at_feet]
        if not others:
            continue
        wrong = sort_gears((*circuit[:-1], others[0]))
        robots = dict(before.recorded.robots)
        robots[robot] = RobotGears(feet=robots[robot].feet, circuit=wrong)
        edited = attrs.evolve(before, recorded=attrs.evolve(before.recorded, robots=robots))
        log = game_log(
            header,
            [*turns[:index], edited],
            description=(
                f"The real-table game, up to turn {edited.turn}, where the table wrote robot "
                f"{robot}'s circuit with a {others[0]} gear that was never at its feet: no "
                "legal assembly gives it (ASM-1), so replay reports a departure and what the "
                "rules allowed instead."
            ),
        )
        replayed = replay_log(log)
        if [d.turn for d in replayed.departures] and all(
            d.turn == edited.turn for d in replayed.departures
        ):
            return log
    raise RuntimeError("no turn of the real-table game makes the illegal case")


def real_table_followed() -> GameLog:
    """The real table's game with a mistake the table confirmed: at the first turn with an
    assembly from a dump's gear's colour, the table wrote that the robot took a gear from a dump
    in place of one of its own (the circuit and the dump written so), and played on from there
    (``"follows": "table"``, SET-8). The later turns are played from the table's position and
    written down as they stood: replay reports the one departure and agrees with the rest."""
    header, turns, results = real_table_turns()
    for index, result in enumerate(results):
        record = turns[index]
        moves = [m for m in result.moves if m.clause == "ASM-1"]
        if not moves or record.recorded is None or moves[0].robot is None:
            continue
        robot = moves[0].robot
        assembled = [m.gear for m in moves if m.robot == robot][-1]
        circuit = result.state.robot(robot).circuit
        piles = [d for d in result.state.dumps if any(g != assembled for g in d.gears)]
        if not piles:
            continue
        dump = piles[0]
        taken = next(g for g in dump.gears if g != assembled)
        wrong_circuit = list(circuit)
        wrong_circuit.remove(assembled)
        wrong_pile = list(dump.gears)
        wrong_pile.remove(taken)
        robots = dict(record.recorded.robots)
        robots[robot] = RobotGears(
            feet=robots[robot].feet, circuit=sort_gears((*wrong_circuit, taken))
        )
        dumps = {**record.recorded.dumps, dump.number: sort_gears((*wrong_pile, assembled))}
        places = Recorded(robots=robots, dumps=dumps)
        written = table_position(result.state, attrs.evolve(record, recorded=places), index)
        recorded = attrs.evolve(places, scores=seat_scores(written))
        edited = attrs.evolve(record, recorded=recorded, follows="table")
        prefix = game_log(header, [*turns[:index], edited])
        replayed = replay_log(prefix)
        if {d.turn for d in replayed.departures} != {edited.turn}:
            continue
        require(replayed.turns[-1].followed, "the table's position is followed")
        state = replayed.final
        rng = random.Random(edited.turn)
        later: list[TurnRecord] = []
        while not state.game_over and len(later) < 3:
            programs = random_programs(state, rng)
            choices = legal_choices(state, programs).sample(rng)
            after = resolve_turn(state, programs, choices=choices).state
            table = record_table(after, dumps=True)
            later.append(TurnRecord(state.turn, programs, None, table, drawn_onto_dumps(state)))
            state = after
        log = game_log(
            header,
            [*turns[:index], edited, *later],
            description=(
                f"The real-table game, where at turn {edited.turn} the table wrote that robot "
                f"{robot} assembled a {taken} gear from dump {dump.number}, leaving its "
                f"{assembled} gear there: no legal play gives it (a departure). The table "
                'confirmed it and played on ("follows": "table"): the later turns are judged '
                "from the position the table wrote down, and agree with the rules."
            ),
        )
        replayed = replay_log(log)
        require(
            {d.turn for d in replayed.departures} == {edited.turn} and len(later) == 3,
            "one turn departs, followed; the three later turns agree from the table's position",
        )
        return log
    raise RuntimeError("no turn of the real-table game makes the followed case")


def scores_only() -> GameLog:
    """The real table's first three turns as a table that writes down only the scores: replay
    agrees, and says which assemblies and which positions the scores leave open."""
    header, turns, _ = real_table_turns()
    written = [
        attrs.evolve(turn, recorded=Recorded(scores=turn.recorded.scores))
        for turn in turns[:3]
        if turn.recorded is not None
    ]
    log = game_log(
        header,
        written,
        description=(
            "The real-table game's first three turns, written down as a table that keeps only "
            "the scores (and what was turned up onto each dump): the scores agree with the "
            "rules, but several assemblies give them, so replay says which turns' assemblies "
            "and which positions they leave open."
        ),
    )
    replayed = replay_log(log)
    require(replayed.agrees, "the scores-only game agrees with the rules")
    require(replayed.positions > 1 and replayed.questions != (), "the scores leave it open")
    return log


# --- writing and checking --------------------------------------------------------------------

#: The shipped example logs and the functions that make them.
MAKERS: Final[dict[str, Callable[[], GameLog]]] = {
    "full-game.log.json": full_game,
    "from-position.log.json": from_position,
    "two-robot.log.json": two_robot,
    "expansions.log.json": expansions,
    "disputed.log.json": disputed,
    "real-table.log.json": real_table,
    "real-table-illegal.log.json": real_table_illegal,
    "real-table-followed.log.json": real_table_followed,
    "scores-only.log.json": scores_only,
}


def example_texts() -> dict[str, str]:
    """Every example log's file name and text."""
    return {name: dump_log(make()) for name, make in MAKERS.items()}


def main(argv: Sequence[str] | None = None) -> int:
    """Write the examples, or check that the shipped ones are what this script writes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--out", type=Path, default=EXAMPLES, help="where the logs go")
    args = parser.parse_args(argv)
    texts = example_texts()
    if args.check:
        stale = [
            name
            for name, text in texts.items()
            if not (args.out / name).is_file()
            or (args.out / name).read_text(encoding="utf-8") != text
        ]
        for name in stale:
            print(f"{args.out / name}: differs from what scripts/make_examples.py writes")
        if stale:
            print("run: .venv/bin/python scripts/make_examples.py")
            return 1
        print(f"{len(texts)} example logs are up to date")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (args.out / name).write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
