"""Write the generated cases of the conformance suite, spec/conformance/generated/ (issue 26).

The cases are found, not typed: seeded setups for every option; turns of games played with
random legal programs and random legal choices, each turn a case of the clauses its events cite
and of the situations it shows (a defence, two attackers of one robot, the end of the game...);
and refusals, from small positions broken on purpose. The expected answers are the engine's
(``outofgears.judge.conformance.reference_answer``); the hand-worked cases of
spec/conformance/hand/ are not touched.

    python scripts/make_conformance.py           # rewrite spec/conformance/generated/
    python scripts/make_conformance.py --check   # exit 1 if it would change anything
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import sys
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from outofgears import GameState, Options, resolve_turn, setup_game, setup_two_robot_game
from outofgears.judge.conformance import reference_answer, request_of
from outofgears.log.serialization import choices_to_dict
from outofgears.rules.events import ActionResolved, GearMoved, Outcome, SplitResolved
from outofgears.rules.gears import GearKind
from outofgears.rules.legal import legal_choices
from outofgears.rules.programs import Program, legal_joint_programs, legal_programs
from outofgears.rules.scoring import player_scores
from outofgears.rules.turn import TurnResult

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "spec" / "conformance" / "generated"

#: The clauses about events, and the kinds of event a case of them compares.
EVENT_KINDS = {
    "SPL-1": ["split_resolved"],
    "SPL-4": ["split_resolved"],
    "SPL-6": ["split_resolved"],
    "UPG-3": ["upgrade_discarded"],
}

#: How many played-turn cases each clause gets at most from random play.
PER_CLAUSE = 4

JSON = Any


def clause_rulings() -> dict[str, list[str]]:
    data = tomllib.loads((ROOT / "spec" / "clauses.toml").read_text(encoding="utf-8"))
    return {entry["id"]: list(entry.get("rulings", [])) for entry in data["clause"]}


RULINGS = clause_rulings()


def options_json(options: Options) -> JSON:
    data: dict[str, Any] = {}
    default = Options()
    for name in ("defence_steal_source", "assembly", "upgrades", "jolly_gears"):
        if getattr(options, name) != getattr(default, name):
            data[name] = getattr(options, name)
    for name in ("three_point_gears", "pad_reserve"):
        if getattr(options, name) != getattr(default, name):
            data[name] = getattr(options, name)
    if options.upgrade_deck != default.upgrade_deck:
        data["upgrade_deck"] = [card.value for card in options.upgrade_deck]
    return data


def names(gears: Sequence[Any]) -> list[str]:
    return [str(gear) for gear in gears]


def position_json(state: GameState) -> JSON:
    return {
        "turn": state.turn,
        "robots": {
            str(r.number): {"feet": names(r.feet), "circuit": names(r.circuit)}
            for r in state.robots
        },
        "dumps": {str(d.number): names(d.gears) for d in state.dumps},
        "reserve": names(state.reserve),
        "upgrades": {p.name: p.upgrade.value for p in state.players if p.upgrade is not None},
    }


def players_json(state: GameState) -> JSON:
    return {p.name: list(p.robots) for p in state.players}


def turn_json(programs: Mapping[int, Any], choices: Any = None) -> JSON:
    turn: dict[str, Any] = {"programs": {str(n): str(p) for n, p in sorted(programs.items())}}
    if choices is not None:
        turn["choices"] = choices_to_dict(choices)  # the log's own shape
    return turn


def make_case(
    name: str,
    tags: Iterable[str],
    description: str,
    case_input: JSON,
    rulings: Iterable[str] | None = None,
    not_clauses: Iterable[str] = (),
) -> dict[str, Any]:
    """A generated case: the engine's answer as its expectation. ``tags`` are the clauses and
    rulings it checks; without ``rulings``, the rulings its clauses depend on are added (a
    crafted case's few clauses); ``not_clauses`` are those that must not fire."""
    tags = list(tags)
    clause_list = sorted({tag for tag in tags if not tag.startswith("R-")}, key=clause_key)
    named = {tag for tag in tags if tag.startswith("R-")}
    if rulings is None:
        named |= {r for c in clause_list for r in RULINGS.get(c, [])}
    else:
        named |= set(rulings)
    barred = sorted(set(not_clauses) - set(clause_list), key=clause_key)
    case: dict[str, Any] = {
        "id": name,
        "origin": "generated",
        "clauses": clause_list,
        "rulings": sorted(named),
        **({"not_clauses": barred} if barred else {}),
        "description": description,
        "input": case_input,
    }
    answer = reference_answer(request_of(case))
    expected = {k: v for k, v in answer.items() if k not in ("case", "events")}
    kinds = sorted({kind for c in clause_list for kind in EVENT_KINDS.get(c, [])})
    if kinds and "refusal" not in answer:
        expected["event_kinds"] = kinds
        expected["events"] = [e for e in answer["events"] if e["type"] in kinds]
    case["expected"] = expected
    return case


def clause_key(clause: str) -> tuple[str, int]:
    prefix, _, number = clause.rpartition("-")
    return (prefix, int(number)) if number.isdigit() else (clause, 0)


# --- seeded setups ------------------------------------------------------------------------------


def setup_rulings(options: Options) -> set[str]:
    """The rulings a seeded setup shows: the colours' names, and those of the options it sets."""
    return (
        {"R-COLOURS"}
        | ({"R-PAD-RESERVE"} if options.pad_reserve else set())
        | ({"R-UPG-DECK"} if options.upgrades else set())
    )


def setup_cases() -> Iterator[dict[str, Any]]:
    tables = [
        ({"Ada": [2], "Bo": [5], "Cy": [7]}, 11),
        ({f"P{n}": [n] for n in range(1, 9)}, 2**40 + 3),
        ({"A": [4], "B": [1]}, 0),
    ]
    for jolly, three, pad, upgrades in itertools.product((False, True), repeat=4):
        options = Options(
            jolly_gears=jolly, three_point_gears=three, pad_reserve=pad, upgrades=upgrades
        )
        tag = (
            "".join(
                flag for flag, on in zip("jtpu", (jolly, three, pad, upgrades), strict=True) if on
            )
            or "base"
        )
        for index, (players, seed) in enumerate(tables):
            if pad and len(players) == 8:
                continue
            clauses = ["SET-1", "SET-2", "SET-3", "SET-4", "SET-7", "GEN-1"]
            clauses += ["SET-6"] if tag == "base" else []
            clauses += (
                ["JOL-1"] * jolly + ["TRI-1"] * three + ["REF-2"] * pad + ["UPG-1"] * upgrades
            )
            yield make_case(
                f"setup-{tag}-{index + 1}",
                clauses,
                f"a seeded setup of robots {sorted(n for r in players.values() for n in r)}, "
                f"seed {seed}, options {tag}",
                {
                    "players": players,
                    "options": options_json(options),
                    "start": {"seed": seed},
                    "turns": [],
                },
                setup_rulings(options),
            )
    for upgrades in (False, True):
        options = Options(upgrades=upgrades, jolly_gears=True, pad_reserve=True)
        players = {"Ada": [1, 5], "Bo": [2, 6], "Cy": [3, 4]}
        yield make_case(
            f"setup-variant-{'u' if upgrades else 'base'}",
            ["VAR-1", "SET-7", "SET-3", "SET-4", "REF-2", "JOL-1"] + ["UPG-1", "UPG-4"] * upgrades,
            "a seeded setup of the two-robot variant",
            {
                "players": players,
                "options": options_json(options),
                "start": {"seed": 77},
                "turns": [],
            },
            setup_rulings(options) | {"R-TWO-ROBOTS"} | ({"R-UPG-VARIANT"} if upgrades else set()),
        )


# --- turns of random games ----------------------------------------------------------------------

GAMES: list[tuple[str, dict[str, list[int]], Options]] = [
    ("base3", {"A": [1], "B": [2], "C": [3]}, Options()),
    ("base5", {"A": [2], "B": [3], "C": [5], "D": [6], "E": [8]}, Options()),
    ("base2", {"A": [3], "B": [7]}, Options()),
    ("base8", {f"P{n}": [n] for n in range(1, 9)}, Options()),
    (
        "optional",
        {"A": [1], "B": [4], "C": [6]},
        Options(assembly="optional", defence_steal_source="feet_only"),
    ),
    ("upgrades", {"A": [1], "B": [2], "C": [3], "D": [4]}, Options(upgrades=True)),
    (
        "expansions",
        {"A": [1], "B": [3], "C": [5]},
        Options(upgrades=True, jolly_gears=True, three_point_gears=True, pad_reserve=True),
    ),
    ("variant", {"A": [1, 3], "B": [2, 4]}, Options()),
    (
        "variant-upgrades",
        {"A": [1, 4], "B": [2, 5], "C": [3, 6]},
        Options(upgrades=True, jolly_gears=True),
    ),
]


def start_of(players: Mapping[str, list[int]], options: Options, seed: int) -> GameState:
    if any(len(r) == 2 for r in players.values()):
        return setup_two_robot_game(
            {k: tuple(v) for k, v in players.items()}, seed=seed, options=options
        )
    ordered = sorted(players, key=lambda name: players[name][0])
    return setup_game([players[n][0] for n in ordered], seed=seed, players=ordered, options=options)


def random_programs(state: GameState, rng: random.Random) -> dict[int, Any]:
    if state.is_two_robot_variant:
        chosen: dict[int, Any] = {}
        for player in state.players:
            pair = rng.choice(legal_joint_programs(state, player.name))
            chosen.update(zip(player.robots, pair, strict=True))
        return chosen
    return {n: rng.choice(legal_programs(state, n)) for n in state.robot_numbers}


def split_pools(events: Sequence[Any]) -> list[tuple[SplitResolved, list[Any]]]:
    """Each split of the turn and the gears it shared out: the shares (the gear moves that
    follow its event, from its place) and what it left."""
    pools = []
    for index, event in enumerate(events):
        if not isinstance(event, SplitResolved):
            continue
        pool = list(event.left)
        for later in events[index + 1 :]:
            if not isinstance(later, GearMoved) or later.source != event.place:
                break
            pool.append(later.gear)
        pools.append((event, pool))
    return pools


#: The clauses a played turn's answer cannot cite when no program of a kind was laid, and the
#: kinds that could make them fire: the generated cases' ``not_clauses`` (issue 33).
FIRED_ONLY_BY = {
    "TRP-2": {"trap", "super trap"},
    "TRP-3": {"trap", "super trap"},
    "TRP-4": {"trap", "super trap"},
    "STRAP-1": {"super trap"},
    "HRV-2": {"harvest", "super harvest"},
    "SHARV-1": {"super harvest"},
    "ATK-3": {"attack", "super attack", "counter defence"},
    "ATK-4": {"attack", "super attack", "counter defence"},
    "ATK-6": {"attack", "super attack", "counter defence"},
    "ATK-8": {"attack", "super attack", "counter defence"},
    "SATK-1": {"super attack"},
    "SATK-2": {"super attack"},
    "CDEF-1": {"counter defence"},
    "CDEF-2": {"counter defence"},
    "SHOV-1": {"super shovel"},
    "UPG-3": {"super harvest", "super attack", "super trap", "super shovel", "counter defence"},
}


def program_kind(program: Any) -> str:
    return program.action.value if isinstance(program, Program) else program.card.value


def situation_tags(
    state: GameState, programs: Mapping[int, Any], chose: bool, result: TurnResult
) -> tuple[set[str], set[str], set[str]]:
    """What one played turn exercises: the clauses, the rulings and the clauses that must not
    fire. The clauses are those its events cite, the decisions taken (chosen, or the default
    policies') and the few situations an event does not name (a defence, two victims hit at
    once, a tie at the top); the rulings are those of the situations that show; the clauses
    that must not fire are those only a program nobody laid could make fire, the end when the
    game goes on, and SPL-4 when every split had a share."""
    events = result.events
    tags = {event.clause for event in events}
    kinds = {program_kind(p) for p in programs.values()}
    cards = {n: p for n, p in programs.items() if isinstance(p, Program)}
    defenders = {n for n, p in cards.items() if p.is_defence_of(n)}
    if defenders:
        tags.add("ATK-1")
    attacked: dict[int, list[int]] = {}
    for n, p in cards.items():
        if p.action.value == "attack" and p.number != n:
            attacked.setdefault(p.number, []).append(n)
    if set(attacked) & defenders:
        tags.add("ATK-2")
    trapping = (Outcome.TRAP_IDLE, Outcome.TRAP_SPRUNG)
    if any(isinstance(e, ActionResolved) and e.outcome in trapping for e in events):
        tags.add("TRP-3")  # a Super Trap springs, or not, by TRP-3 too (STRAP-1)
    hits = [e for e in events if isinstance(e, ActionResolved) and e.outcome is Outcome.ATTACK_HIT]
    hit_victims = {n for n, who in attacked.items() for e in hits if e.robot in who}
    if any(len(who) > 1 for n, who in attacked.items() if n in hit_victims):
        tags.add("ATK-8")
    if len(hit_victims) > 1:
        tags.add("ATK-7")
    if any(state.robot(v).circuit for v in hit_victims):
        tags.add("ASM-3")
    pools = split_pools(events)
    if pools:
        tags.add("SPL-5")
    if any(e.left for e, _ in pools):
        tags.add("SPL-3")
    if any(e.share == 0 and not e.left for e, _ in pools):
        tags.add("SPL-6")
    if any(
        e.share > 0
        and any(g.kind is GearKind.STANDARD and g.colour == t for g in pool for t in e.takers)
        for e, pool in pools
    ):
        tags.add("SPL-2")  # a taker's own colour was in the pool: its priority decided
    if any(
        e.place.kind.value == "dump"
        and any(cards.get(t) and cards[t].action.value == "trap" for t in e.takers)
        for e, _ in pools
    ):
        tags.add("TRP-4")
    moves = [e for e in events if isinstance(e, GearMoved)]
    defaults: set[str] = set()
    if not chose:
        if any(e.clause == "ATK-4" for e in moves):
            defaults.add("ATK-5")
        if any(e.clause == "ASM-1" for e in moves):
            defaults.add("ASM-2")
        expansion = [e for e in moves if e.gear.kind is not GearKind.STANDARD]
        if any(e.clause in ("ATK-4", "ASM-1") for e in expansion) or (
            pools and any(e.clause != "EXP-1" for e in expansion)
        ):
            defaults.add("VAL-1")
    tags |= defaults
    explored = sum(1 for e in moves if e.clause == "EXP-1")
    if 0 < explored < len(state.dumps):
        tags.add("REF-1")
    if state.is_two_robot_variant:
        partner = {n: m for p in state.players for n in p.robots for m in p.robots if m != n}
        if any(p.number == partner[n] for n, p in cards.items()):
            tags.add("VAR-4")
        if any(not isinstance(p, Program) for p in programs.values()):
            tags.add("UPG-4")
    if any(not isinstance(p, Program) for p in programs.values()):
        tags.add("UPG-2")
    if chose:
        tags.add("GEN-2")  # the choices pass every check
    rulings: set[str] = set()
    standing = sorted((score.points for score in player_scores(result.state)), reverse=True)
    if not result.state.game_over and len(standing) > 1 and standing[0] == standing[1] > 0:
        tags |= {"END-2", "END-3"}  # a tie on points, as a turn cap would score it
        rulings.add("R-TURN-CAP")
    if result.state.game_over:
        tags |= {"END-2", "END-3"}
        rulings.add("R-END")
        if state.is_two_robot_variant:
            tags.add("VAR-3")
            rulings.add("R-TWO-ROBOTS")
        held = [g for r in result.state.robots for g in (*r.feet, *r.circuit)]
        if any(g.kind is GearKind.JOLLY for g in held):
            tags.add("JOL-2")
            rulings.add("R-JOLLY")
        if any(g.kind is GearKind.THREE_POINT for g in held):
            tags.add("TRI-2")
        if any(r.circuit for r in result.state.robots):
            rulings.add("R-END-CIRCUIT")
    # The rulings of the situations that show, not every ruling of every clause.
    situations = {
        "R-SPLIT": bool(pools),
        "R-SYMMETRY": bool(defaults) or bool(pools and not chose),
        "R-CHOICES": chose or bool(defaults) or bool(pools),
        "R-DEFENCE": bool(tags & {"ATK-3", "ATK-4"}),
        "R-SIMUL": bool(tags & {"ATK-2", "ATK-7"}),
        "R-TRAP": bool(tags & {"TRP-2", "TRP-3", "TRP-4", "STRAP-1"}),
        "R-EXPLORE": "EXP-1" in tags,
        "R-ASSEMBLY": "ASM-1" in tags and state.options.assembly != "mandatory",
        "R-SUPER-HARVEST": "SHARV-1" in tags,
        "R-SUPER-ATTACK": bool(tags & {"SATK-1", "SATK-2"}),
        "R-COUNTER-DEFENCE": bool(tags & {"CDEF-1", "CDEF-2"}),
        "R-SHOVEL": "SHOV-1" in tags,
        "R-UPG-VARIANT": "UPG-4" in tags,
        "R-TWO-ROBOTS": "VAR-4" in tags,
    }
    rulings |= {ruling for ruling, shows in situations.items() if shows}
    cited = {event.clause for event in events}
    barred = {c for c, makers in FIRED_ONLY_BY.items() if not makers & kinds} - cited
    if not result.state.game_over:
        barred.add("END-1")
    if not any(e.share == 0 for e, _ in pools):
        barred.add("SPL-4")
    return tags, rulings, barred


def played_cases() -> Iterator[dict[str, Any]]:
    """Turns of random games, each a case of the clauses it shows, at most PER_CLAUSE each."""
    counts: dict[str, int] = {}
    number = 0
    for (label, players, options), seed in itertools.product(GAMES, range(6)):
        rng = random.Random(f"{label}-{seed}")
        state = start_of(players, options, seed)
        previous: tuple[GameState, dict[int, Any], Any, set[str], set[str]] | None = None
        while not state.game_over and state.turn <= 80:
            programs = random_programs(state, rng)
            choices = legal_choices(state, programs).sample(rng) if rng.random() < 0.4 else None
            result = resolve_turn(state, programs, choices=choices)
            clauses, rulings, barred = situation_tags(state, programs, choices is not None, result)
            turn_clauses, turn_rulings = set(clauses), set(rulings)
            repeated = previous is not None and any(
                previous[1].get(n) == p for n, p in programs.items()
            )
            wanted = {c for c in clauses if counts.get(c, 0) < PER_CLAUSE}
            if repeated and counts.get("PRG-4", 0) < PER_CLAUSE:
                wanted.add("PRG-4")
            if wanted:
                number += 1
                start = previous[0] if "PRG-4" in wanted and previous else state
                turns = (
                    [turn_json(previous[1], previous[2])] if start is not state and previous else []
                )
                turns.append(turn_json(programs, choices))
                if start is not state and previous:
                    clauses |= previous[3] | {"PRG-4"}  # both turns are checked
                    rulings |= previous[4] | {"R-PROGRAMS"}
                for clause in clauses:
                    counts[clause] = counts.get(clause, 0) + 1
                yield make_case(
                    f"play-{number:03d}",
                    sorted(clauses),
                    f"turn {state.turn} of a {label} game (seed {seed}), random legal programs"
                    + (" and choices" if choices is not None else ""),
                    {
                        "players": players_json(start),
                        "options": options_json(options),
                        "start": {"position": position_json(start)},
                        "turns": turns,
                    },
                    rulings,
                    barred,  # the answer's events are the last turn's
                )
                if result.state.game_over and counts.get("PRG-5", 0) < PER_CLAUSE:
                    counts["PRG-5"] = counts.get("PRG-5", 0) + 1
                    number += 1
                    yield make_case(
                        f"play-{number:03d}",
                        ["PRG-5", "END-1", "R-END"],
                        "a turn played after the turn that ended the game",
                        {
                            "players": players_json(state),
                            "options": options_json(options),
                            "start": {"position": position_json(state)},
                            "turns": [turn_json(programs, choices), turn_json(programs)],
                        },
                        [],
                    )
            previous = (state, programs, choices, turn_clauses, turn_rulings)
            state = result.state


# --- whole seeded games, to their end -----------------------------------------------------------

#: The games played from their seed to their end: each a case of every turn (issue 33).
WHOLE_GAMES: list[tuple[str, dict[str, list[int]], Options, int, list[str]]] = [
    ("base", {"Ada": [2], "Bo": [5], "Cy": [7]}, Options(), 3, []),
    (
        "optional-feet-only",
        {"A": [1], "B": [4], "C": [6]},
        Options(assembly="optional", defence_steal_source="feet_only"),
        5,
        ["R-ASSEMBLY", "R-DEFENCE"],
    ),
    ("variant", {"A": [1, 3], "B": [2, 4]}, Options(), 8, ["VAR-1", "VAR-3"]),
    (
        "expansions",
        {"A": [1], "B": [3], "C": [5], "D": [8]},
        Options(upgrades=True, jolly_gears=True, three_point_gears=True, pad_reserve=True),
        13,
        ["UPG-1", "UPG-3", "JOL-1", "TRI-1", "REF-2"],
    ),
]


def whole_game_cases() -> Iterator[dict[str, Any]]:
    """Seeded games played to their end with random legal programs and, one turn in three,
    random legal choices: the answer is the final position, its scores and the last turn's
    END-1 event."""
    for label, players, options, seed, tags in WHOLE_GAMES:
        rng = random.Random(f"whole-{label}-{seed}")
        state = start_of(players, options, seed)
        turns = []
        cited: set[str] = set()  # a whole game exercises what each of its turns does
        shown: set[str] = set()
        barred: set[str] = set()
        while not state.game_over:
            programs = random_programs(state, rng)
            choices = legal_choices(state, programs).sample(rng) if rng.random() < 0.3 else None
            result = resolve_turn(state, programs, choices=choices)
            clauses, rulings, barred = situation_tags(state, programs, choices is not None, result)
            cited |= clauses
            shown |= rulings
            state = result.state
            turns.append(turn_json(programs, choices))
        case = make_case(
            f"game-{label}",
            ["SET-3", "SET-4", "SET-7", "END-1", "END-2", "END-3", *tags, *sorted(cited)],
            f"a seeded game ({label}) played to its end in {len(turns)} turns, random legal "
            "programs and choices",
            {
                "players": players,
                "options": options_json(options),
                "start": {"seed": seed},
                "turns": turns,
            },
            shown | {"R-END"} | {r for t in tags if not t.startswith("R-") for r in RULINGS[t]},
            barred,  # the answer's events are the last turn's
        )
        events = reference_answer(request_of(case))["events"]
        case["expected"]["event_kinds"] = ["turn_ended"]
        case["expected"]["events"] = [e for e in events if e["type"] == "turn_ended"]
        yield case


# --- crafted cases: refusals, and a few situations random play rarely shows ---------------------------------------------------------------------------------


def table(
    robots: Mapping[int, Mapping[str, list[str]]] | Sequence[int],
    dumps: Mapping[int, list[str]] | None = None,
    reserve: Sequence[str] = ("red", "orange", "yellow", "green", "blue", "purple"),
    players: Mapping[str, list[int]] | None = None,
    options: Mapping[str, Any] | None = None,
    upgrades: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    held = robots if isinstance(robots, Mapping) else {n: {} for n in robots}
    numbers = sorted(held)
    position: dict[str, Any] = {
        "robots": {str(n): dict(held[n]) for n in numbers},
        "dumps": {str(n): list((dumps or {}).get(n, [])) for n in numbers},
        "reserve": list(reserve),
    }
    if upgrades:
        position["upgrades"] = dict(upgrades)
    return {
        "players": dict(players) if players else {f"P{n}": [n] for n in numbers},
        "options": dict(options or {}),
        "start": {"position": position},
    }


def with_turn(game: dict[str, Any], programs: Mapping[int, str], choices: JSON = None) -> JSON:
    turn: dict[str, Any] = {"programs": {str(n): p for n, p in programs.items()}}
    if choices:
        turn["choices"] = choices
    return {**game, "turns": [turn]}


def crafted_cases() -> Iterator[tuple[str, list[str], str, JSON]]:
    three = table([1, 2, 3], {1: ["red", "orange"], 2: ["yellow"], 3: ["green", "green"]})
    yield (
        "prg-1-missing",
        ["PRG-1"],
        "robot 3 has no program",
        with_turn(three, {1: "attack 2", 2: "trap 1"}),
    )
    yield (
        "prg-1-stranger",
        ["PRG-1"],
        "a program for robot 5, not in play",
        with_turn(three, {1: "attack 2", 2: "trap 1", 3: "harvest 3", 5: "harvest 1"}),
    )
    yield (
        "prg-2-dump",
        ["PRG-2"],
        "a harvest of dump 6, not in play",
        with_turn(three, {1: "attack 2", 2: "harvest 6", 3: "harvest 3"}),
    )
    yield (
        "prg-2-robot",
        ["PRG-2"],
        "an attack on robot 8, not in play",
        with_turn(three, {1: "attack 8", 2: "harvest 1", 3: "harvest 3"}),
    )
    yield (
        "gen-2-programs",
        ["GEN-2", "PRG-1", "PRG-2"],
        "robot 3 has no program and robot 1 attacks robot 7: PRG-1 first",
        with_turn(three, {1: "attack 7", 2: "harvest 1"}),
    )
    yield (
        "gen-2-targets",
        ["GEN-2", "PRG-2"],
        "robots 1 and 3 name things not in play: the lower first",
        with_turn(three, {1: "trap 5", 2: "harvest 1", 3: "attack 4"}),
    )
    yield (
        "upg-2-off",
        ["UPG-2", "SET-6"],
        "a super shovel laid with the upgrades off",
        with_turn(three, {1: "super shovel", 2: "harvest 1", 3: "harvest 3"}),
    )
    cards = table(
        [1, 2, 3],
        {1: ["red"], 2: ["orange"], 3: []},
        options={"upgrades": True},
        upgrades={"P1": "super trap", "P2": "super shovel"},
    )
    yield (
        "upg-3-other-card",
        ["UPG-3"],
        "robot 1 lays a super attack, its player holds a super trap",
        with_turn(cards, {1: "super attack", 2: "harvest 1", 3: "harvest 3"}),
    )
    yield (
        "upg-3-none",
        ["UPG-3"],
        "robot 3 lays a card, its player holds none",
        with_turn(cards, {1: "attack 2", 2: "harvest 1", 3: "super trap"}),
    )
    yield (
        "gen-2-upgrades",
        ["GEN-2", "UPG-2", "UPG-3", "PRG-2"],
        "robot 1 names dump 7, robot 3 lays a card it lacks: PRG-2 first",
        with_turn(cards, {1: "harvest 7", 2: "harvest 1", 3: "super trap"}),
    )
    pairs = table(
        [1, 2, 3, 4],
        {1: ["red"], 2: [], 3: ["yellow"], 4: []},
        players={"A": [1, 2], "B": [3, 4]},
        options={"upgrades": True},
        upgrades={"A": "super shovel", "B": "super trap"},
    )
    yield (
        "upg-4-both",
        ["UPG-4", "VAR-1"],
        "both robots of player A lay its card",
        with_turn(pairs, {1: "super shovel", 2: "super shovel", 3: "harvest 1", 4: "trap 3"}),
    )
    yield (
        "gen-2-upg-4-first",
        ["GEN-2", "UPG-4", "UPG-3"],
        "robot 2 lays a card player A lacks beside robot 1's: UPG-4, not UPG-3",
        with_turn(pairs, {1: "super shovel", 2: "super attack", 3: "harvest 1", 4: "trap 3"}),
    )
    yield (
        "var-2-same-action",
        ["VAR-2", "VAR-1"],
        "both robots of player B lay a harvest",
        with_turn(pairs, {1: "attack 3", 2: "trap 1", 3: "harvest 1", 4: "harvest 3"}),
    )
    yield (
        "var-4-partner",
        ["VAR-4", "VAR-2"],
        "robot 1 attacks its partner, robot 2",
        with_turn(
            table(
                {1: {}, 2: {"feet": ["red", "blue"]}, 3: {}, 4: {}},
                {1: [], 2: [], 3: ["red"], 4: []},
                players={"A": [1, 2], "B": [3, 4]},
            ),
            {1: "attack 2", 2: "harvest 3", 3: "trap 1", 4: "attack 4"},
        ),
    )
    # Positions that cannot stand.
    yield (
        "set-5-twelve-reds",
        ["SET-5", "GEN-1"],
        "a position with twelve red gears",
        table([1, 2], {1: ["red"] * 6, 2: ["red"] * 6}),
    )
    yield (
        "set-1-robot-twice",
        ["SET-1"],
        "robot 2 controlled by two players",
        {
            **table([1, 2]),
            "players": {"A": [2], "B": [2]},
        },
    )
    yield (
        "var-1-mixed",
        ["VAR-1"],
        "one player with two robots, one with one",
        {
            **table([1, 2, 3]),
            "players": {"A": [1, 2], "B": [3]},
        },
    )
    yield (
        "jol-1-off",
        ["JOL-1"],
        "a Jolly gear without expansion #2",
        table([1, 2], {1: ["jolly"], 2: []}),
    )
    yield (
        "tri-1-off",
        ["TRI-1"],
        "a three-point gear without expansion #3",
        table([1, 2], {1: [], 2: ["3-point"]}),
    )
    yield (
        "jol-1-five",
        ["JOL-1"],
        "five Jolly gears",
        table([1, 2], {1: ["jolly"] * 3, 2: ["jolly"] * 2}, options={"jolly_gears": True}),
    )
    yield (
        "upg-1-off",
        ["UPG-1", "SET-6"],
        "a card held with the upgrades off",
        table([1, 2], {1: [], 2: []}, upgrades={"P1": "super trap"}),
    )
    yield (
        "upg-1-short-deck",
        ["UPG-1"],
        "a deck of one card for three players",
        {
            "players": {"A": [1], "B": [2], "C": [3]},
            "options": {"upgrades": True, "upgrade_deck": ["super trap"]},
            "start": {"seed": 5},
        },
    )
    yield (
        "ref-2-eight",
        ["REF-2"],
        "padding with all eight robots in play",
        {
            "players": {f"P{n}": [n] for n in range(1, 9)},
            "options": {"pad_reserve": True},
            "start": {"seed": 5},
        },
    )
    # Choices.
    duel = table(
        {
            1: {"feet": ["orange", "yellow"], "circuit": ["red", "red"]},
            2: {"feet": ["blue"]},
            3: {},
        },
        {1: ["red"], 2: ["yellow"], 3: []},
    )
    steal = {1: "attack 2", 2: "attack 2", 3: "harvest 3"}
    yield (
        "atk-4-absent",
        ["ATK-4"],
        "robot 2 takes a white gear robot 1 does not hold",
        with_turn(
            duel,
            steal,
            {"defence_steals": [{"defender": 2, "attacker": 1, "from": "feet", "gear": "white"}]},
        ),
    )
    yield (
        "atk-4-not-attacker",
        ["ATK-4", "GEN-2"],
        "robot 2 takes from robot 3, which did not attack it",
        with_turn(
            duel,
            steal,
            {"defence_steals": [{"defender": 2, "attacker": 3, "from": "feet", "gear": "red"}]},
        ),
    )
    yield (
        "atk-4-circuit-feet-only",
        ["ATK-4"],
        "a steal from the circuit under feet_only",
        with_turn(
            {**duel, "options": {"defence_steal_source": "feet_only"}},
            steal,
            {"defence_steals": [{"defender": 2, "attacker": 1, "from": "circuit", "gear": "red"}]},
        ),
    )
    crowd = table(
        {1: {"feet": ["red", "orange", "yellow"]}, 2: {}, 3: {}},
        {1: [], 2: ["orange", "orange"], 3: []},
    )
    quiet = {1: "attack 1", 2: "harvest 2", 3: "attack 3"}
    yield (
        "asm-1-absent",
        ["ASM-1"],
        "robot 1 assembles two reds it does not have",
        with_turn(crowd, quiet, {"assemblies": {"1": ["red", "red"]}}),
    )
    yield (
        "asm-1-declined",
        ["ASM-1"],
        "robot 1 declines under mandatory assembly",
        with_turn(crowd, quiet, {"assemblies": {"1": []}}),
    )
    yield (
        "asm-1-not-in-play",
        ["ASM-1", "GEN-2"],
        "an assembly for robot 6, not in play",
        with_turn(crowd, quiet, {"assemblies": {"6": ["red", "red"]}}),
    )
    shared = table([1, 2, 3, 4], {1: ["red", "red", "red", "green", "green"], 2: [], 3: [], 4: []})
    sharing = {1: "attack 1", 2: "harvest 1", 3: "harvest 1", 4: "trap 4"}
    yield (
        "spl-1-size",
        ["SPL-1", "SPL-5"],
        "robot 2's share is three gears, not two",
        with_turn(
            shared,
            sharing,
            {
                "splits": [
                    {"place": "dump 1", "shares": {"2": ["red", "red", "red"], "3": ["green"]}}
                ]
            },
        ),
    )
    yield (
        "spl-1-takers",
        ["SPL-1", "SPL-5", "GEN-2"],
        "a share for robot 4, which does not take, and none for robot 3",
        with_turn(
            shared,
            sharing,
            {
                "splits": [
                    {"place": "dump 1", "shares": {"2": ["red", "red"], "4": ["red", "green"]}}
                ]
            },
        ),
    )
    yield (
        "spl-1-absent",
        ["SPL-1", "SPL-5"],
        "a share of gears the dump does not hold",
        with_turn(
            shared,
            sharing,
            {
                "splits": [
                    {"place": "dump 1", "shares": {"2": ["red", "red"], "3": ["blue", "blue"]}}
                ]
            },
        ),
    )
    own = table([1, 2, 3], {1: [], 2: ["orange", "yellow", "yellow", "red"], 3: []})
    yield (
        "spl-2-quota",
        ["SPL-2", "SPL-5", "R-SPLIT"],
        "robot 3 gets one of the two yellows it has priority on",
        with_turn(
            own,
            {1: "attack 1", 2: "harvest 2", 3: "harvest 2"},
            {
                "splits": [
                    {
                        "place": "dump 2",
                        "shares": {"2": ["orange", "yellow"], "3": ["yellow", "red"]},
                    }
                ]
            },
        ),
    )
    thin = table([1, 2, 3], {1: ["blue", "red"], 2: [], 3: []})
    yield (
        "spl-4-share",
        ["SPL-4", "SPL-5"],
        "three harvesters of two gears, one given a gear",
        with_turn(
            thin,
            {1: "harvest 1", 2: "harvest 1", 3: "harvest 1"},
            {"splits": [{"place": "dump 1", "shares": {"1": ["red"], "2": [], "3": []}}]},
        ),
    )
    yield (
        "spl-5-idle-place",
        ["SPL-5"],
        "a split of dump 3, which nothing takes from",
        with_turn(
            thin,
            {1: "harvest 1", 2: "harvest 1", 3: "attack 3"},
            {"splits": [{"place": "dump 3", "shares": {"3": []}}]},
        ),
    )
    yield (
        "gen-2-steal-before-split",
        ["GEN-2", "ATK-4", "SPL-5"],
        "a steal from a robot that did not attack and a split of an idle dump: ATK-4 first",
        with_turn(
            duel,
            steal,
            {
                "defence_steals": [{"defender": 2, "attacker": 3, "from": "feet", "gear": "red"}],
                "splits": [{"place": "dump 2", "shares": {"2": []}}],
            },
        ),
    )
    yield (
        "gen-2-assembly-before-split",
        ["GEN-2", "ASM-1", "SPL-5"],
        "an assembly for robot 6, not in play, and a split of an idle dump: ASM-1 first",
        with_turn(
            crowd,
            quiet,
            {
                "assemblies": {"6": ["red", "red"]},
                "splits": [{"place": "dump 1", "shares": {"1": []}}],
            },
        ),
    )
    yield (
        "gen-2-split-before-assembly",
        ["GEN-2", "SPL-2", "ASM-1"],
        "a split breaking the own-colour quota and an assembly of gears robot 1 lacks: the split, resolved first",
        with_turn(
            own,
            {1: "attack 1", 2: "harvest 2", 3: "harvest 2"},
            {
                "splits": [
                    {
                        "place": "dump 2",
                        "shares": {"2": ["orange", "yellow"], "3": ["yellow", "red"]},
                    }
                ],
                "assemblies": {"1": ["white", "white"]},
            },
        ),
    )
    lone = table(
        [3, 5, 7], {3: [], 5: ["blue", "red"], 7: ["grey"]}, reserve=["red", "orange", "green"]
    )
    yield (
        "spl-6-lone-taker-stranger",
        ["SPL-6", "SPL-5", "SPL-1", "GEN-2"],
        "dump 3 empty, harvested by robot 3 alone; the split gives robot 7 a red",
        with_turn(
            lone,
            {3: "harvest 3", 5: "attack 5", 7: "harvest 7"},
            {"splits": [{"place": "dump 3", "shares": {"7": ["red"]}}]},
        ),
    )
    yield (
        "spl-6-lone-taker-gear",
        ["SPL-6", "SPL-4", "SPL-5"],
        "dump 3 empty, harvested by robot 3 alone; the split gives it a red",
        with_turn(
            lone,
            {3: "harvest 3", 5: "attack 5", 7: "harvest 7"},
            {"splits": [{"place": "dump 3", "shares": {"3": ["red"]}}]},
        ),
    )


def all_cases() -> list[dict[str, Any]]:
    cases = list(setup_cases())
    cases += played_cases()
    cases += whole_game_cases()
    for name, clauses, description, case_input in crafted_cases():
        case_input.setdefault("turns", [])
        if not case_input.get("options"):
            case_input.pop("options", None)
        cases.append(make_case(f"crafted-{name}", clauses, description, case_input))
    return cases


def rendered(case: Mapping[str, Any]) -> str:
    return json.dumps(case, indent=1, ensure_ascii=False) + "\n"


DOCS_PAGE = ROOT / "docs" / "implementing-elsewhere.md"
COUNTS_START, COUNTS_END = "<!-- conformance-counts -->", "<!-- /conformance-counts -->"


def counts_table(cases: Sequence[Mapping[str, Any]]) -> str:
    """The docs page's table: for each clause and ruling, its cases, hand-worked and refusals."""
    ids = [
        *RULINGS,
        *sorted(
            {r for rulings in RULINGS.values() for r in rulings}
            | set(
                re.findall(
                    r"^### (R-[A-Z-]+)", (ROOT / "spec" / "rulings.md").read_text("utf-8"), re.M
                )
            )
        ),
    ]
    rows = ["| Clause or ruling | Cases | Worked by hand | Refusals |", "|---|---:|---:|---:|"]
    for tag in ids:
        of = [c for c in cases if tag in c["clauses"] or tag in c["rulings"]]
        hand = sum(c["origin"] == "hand" for c in of)
        refusals = sum("refusal" in c["expected"] for c in of)
        rows.append(f"| {tag} | {len(of)} | {hand} | {refusals} |")
    hand = sum(c["origin"] == "hand" for c in cases)
    refused = sum("refusal" in c["expected"] for c in cases)
    seeded = sum("seed" in c["input"]["start"] for c in cases)
    summary = (
        f"{len(cases)} cases ({hand} worked by hand, {len(cases) - hand} generated; {refused} "
        f"refusals; {seeded} seeded setups) over {len(RULINGS)} clauses and "
        f"{len(ids) - len(RULINGS)} rulings."
    )
    return "\n".join([COUNTS_START, "", summary, "", *rows, "", COUNTS_END])


def page_with_counts(cases: Sequence[Mapping[str, Any]]) -> str:
    text = DOCS_PAGE.read_text(encoding="utf-8")
    start, end = text.index(COUNTS_START), text.index(COUNTS_END) + len(COUNTS_END)
    return text[:start] + counts_table(cases) + text[end:]


def hand_cases() -> list[dict[str, Any]]:
    return [
        json.loads(p.read_text("utf-8")) for p in sorted((FOLDER.parent / "hand").glob("*.json"))
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="report what would change; write nothing"
    )
    args = parser.parse_args(argv)
    generated = all_cases()
    wanted = {f"{case['id']}.json": rendered(case) for case in generated}
    page = page_with_counts([*hand_cases(), *generated])
    page_stale = page != DOCS_PAGE.read_text(encoding="utf-8")
    present = {path.name: path.read_text(encoding="utf-8") for path in FOLDER.glob("*.json")}
    stale = sorted(name for name in present if name not in wanted)
    changed = sorted(name for name, text in wanted.items() if present.get(name) != text)
    if args.check:
        for name in stale + changed:
            print(f"spec/conformance/generated/{name} is out of date", file=sys.stderr)
        if page_stale:
            print("the counts of docs/implementing-elsewhere.md are out of date", file=sys.stderr)
        return 1 if stale or changed or page_stale else 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in stale:
        (FOLDER / name).unlink()
    for name in changed:
        temporary = FOLDER / f".{name}.tmp"
        temporary.write_text(wanted[name], encoding="utf-8")
        temporary.replace(FOLDER / name)
    if page_stale:
        DOCS_PAGE.write_text(page, encoding="utf-8")
    print(f"{len(wanted)} generated cases; {len(changed)} written, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
