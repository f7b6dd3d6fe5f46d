"""The mutation kit of the conformance suite (issue 33): one-rule mutants of this engine, each
run through the conformance runner, and the score by clause.

A mutant is a patched copy of the package: one textual change to one file of
``outofgears/``, which must match exactly once, copied to a temporary folder and never to the
shipped code. Each mutant runs as an external engine, ``python -m outofgears.judge.conformance
--batch`` with the copy first on ``PYTHONPATH``, through ``outofgears conformance --batch``
(the shipped runner); it is *killed* when the runner reports a failing case, and *survives*
when the whole suite passes. Every mutant that changes what the spec says must be killed; a
mutant that cannot change an answer is marked equivalent, with the argument, and not scored.

    python scripts/mutants.py               # run every mutant; exit 1 if one survives
    python scripts/mutants.py --only SPL-2  # the mutants of a clause (or by name)
    python scripts/mutants.py --list        # the mutants, one a line
    python scripts/mutants.py --check       # every patch applies exactly once (fast)
    python scripts/mutants.py --every 4     # a quarter, over every family (CI, ~40 s)
    python scripts/mutants.py --set blind   # the second set only, written blind (issue 33)
    python scripts/mutants.py --equivalent  # the equivalent ones too: each must survive
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "outofgears"


@dataclass(frozen=True)
class Mutant:
    """One rule changed: its name, the clauses it breaks, and the patch."""

    name: str
    clauses: tuple[str, ...]
    path: str
    old: str
    new: str
    equivalent: str = ""  # why the mutant cannot change an answer, when it cannot


def m(name: str, clauses: str, path: str, old: str, new: str, equivalent: str = "") -> Mutant:
    return Mutant(name, tuple(clauses.split()), path, old, new, equivalent)


FIRST: tuple[Mutant, ...] = (
    # --- setup ------------------------------------------------------------------------------
    m(
        "reserve-of-every-colour",
        "SET-3",
        "rules/setup.py",
        "for colour in numbers for _ in range(GEARS_PER_COLOUR)]",
        "for colour in range(1, 9) for _ in range(GEARS_PER_COLOUR)]",
    ),
    m(
        "one-gear-a-dump",
        "SET-4",
        "rules/setup.py",
        "INITIAL_GEARS_PER_DUMP = 2",
        "INITIAL_GEARS_PER_DUMP = 1",
    ),
    m(
        "expansion-gears-first",
        "SET-7 JOL-1 TRI-1",
        "rules/setup.py",
        "    pile += expansion_gears(rules)\n",
        "    pile = expansion_gears(rules) + pile\n",
    ),
    m(
        "padding-one-short",
        "REF-2",
        "rules/setup.py",
        "    return [CANONICAL_GEARS[unused[0] - 1]] * short",
        "    return [CANONICAL_GEARS[unused[0] - 1]] * max(short - 1, 0)",
    ),
    m(
        "cards-dealt-before-the-shuffle",
        "SET-7 UPG-1",
        "rules/upgrades.py",
        "    shuffled = list(deck)\n    rng.shuffle(shuffled)\n",
        "    shuffled = list(deck)\n",
    ),
    # --- programs ---------------------------------------------------------------------------
    m(
        "numbers-not-checked",
        "PRG-2",
        "rules/programs.py",
        "    if program.number in state.robot_numbers:\n        return\n    what =",
        "    if True:\n        return\n    what =",
    ),
    m(
        "turns-after-the-end",
        "PRG-5",
        "rules/programs.py",
        "    if state.game_over:\n        raise GameOverError(state.turn)",
        "    if False:\n        raise GameOverError(state.turn)",
    ),
    m(
        "partners-share-an-action",
        "VAR-2",
        "rules/variant.py",
        "        if first in actions and second in actions and actions[first] == actions[second]:",
        "        if False:",
    ),
    m(
        "partners-refused-naming-the-lower-robot",
        "VAR-2 GEN-2",
        "rules/variant.py",
        "            raise IllegalProgramError(\n                second,",
        "            raise IllegalProgramError(\n                first,",
    ),
    m(
        "partners-in-listed-order",
        "VAR-2 GEN-2",
        "rules/variant.py",
        "    for player in state.players:",
        "    for player in sorted(state.players, key=lambda player: player.name):",
    ),
    m(
        "upgrade-not-held",
        "UPG-3",
        "rules/programs.py",
        "    if player.upgrade is not program.card:",
        "    if player.upgrade is None:",
    ),
    m(
        "partner-lays-a-second-upgrade",
        "UPG-4",
        "rules/programs.py",
        "        if player.name in laid:",
        "        if False:",
    ),
    m(
        "upgrade-kept-after-use",
        "UPG-3",
        "rules/turn.py",
        "    if reading.upgrades:\n        discard_played_upgrades(table, reading)",
        "    if False:\n        discard_played_upgrades(table, reading)",
    ),
    # --- attacks ----------------------------------------------------------------------------
    m(
        "defence-voids-nothing",
        "ATK-3",
        "rules/attacks.py",
        "        victims = [victim for victim in victims if victim not in standing]",
        "        victims = list(victims)",
    ),
    m(
        "no-defence-steal",
        "ATK-4",
        "rules/attacks.py",
        "                plan.append((steal_from_attacker, (defender, attacker)))",
        "                pass",
    ),
    m(
        "default-steal-ignores-feet-only",
        "ATK-4 ATK-5",
        "rules/attacks.py",
        "        circuit = [] if feet_only else table.circuit_of(attacker)",
        "        circuit = table.circuit_of(attacker)",
    ),
    m(
        "default-steal-circuit-first",
        "ATK-5",
        "rules/attacks.py",
        "    same = [other for other in feet if WORTH[defender][other] == worth]",
        "    same: list[int] = []",
    ),
    m(
        "default-steal-ring-reversed",
        "ATK-5 R-SYMMETRY",
        "rules/attacks.py",
        "        return True, min(same, key=PREFERENCE_KEY[defender])",
        "        return True, max(same, key=PREFERENCE_KEY[defender])",
    ),
    m(
        "super-attacker-robbed-in-number-order",
        "SATK-2 R-SUPER-ATTACK",
        "rules/attacks.py",
        "            for defender in taking_order(aimed_at, attacker) if len(aimed_at) > 1 else aimed_at:",
        "            for defender in aimed_at:",
    ),
    m(
        "attacks-one-after-another",
        "ATK-7 R-SIMUL",
        "rules/attacks.py",
        "        plan.append((lift_feet, victims))\n        for victim in victims:\n"
        "            plan.append((strike, (victim, attackers[victim])))",
        "        for victim in victims:\n            plan.append((lift_feet, [victim]))\n"
        "            plan.append((strike, (victim, attackers[victim])))",
    ),
    m(
        "first-attacker-takes-all",
        "ATK-8",
        "rules/attacks.py",
        "    left = take(table, pool, FEET[victim], attackers, clauses, victim)",
        "    left = take(table, pool, FEET[victim], attackers[:1], clauses and clauses[:1], victim)",
    ),
    m(
        "counter-defence-voids-nothing",
        "CDEF-1 CDEF-2",
        "rules/attacks.py",
        "    return [] if reading.counter_defences else reading.defenders",
        "    return reading.defenders",
    ),
    # --- traps and harvests -----------------------------------------------------------------
    m(
        "traps-void-nothing",
        "TRP-2",
        "rules/harvests.py",
        "        if dump not in trapped:",
        "        if True:",
    ),
    m(
        "idle-trap-takes-the-dump",
        "TRP-3 R-TRAP",
        "rules/traps.py",
        "            for index, robot in enumerate(trappers):\n"
        "                table.act(robot, label(reading, robot, dump), TRAP_IDLE, clauses[index])\n"
        "            return",
        "            take_dump(table, dump, trappers, clauses)\n            return",
    ),
    m(
        "first-trapper-takes-all",
        "TRP-4",
        "rules/traps.py",
        "    if harvesters:\n        take_dump(table, dump, trappers, clauses)",
        "    if harvesters:\n        take_dump(table, dump, trappers[:1], clauses and clauses[:1])",
    ),
    m(
        "super-trap-on-no-dump",
        "STRAP-1",
        "rules/traps.py",
        "    if reading.super_traps:\n        return list(reading.numbers)\n",
        "",
    ),
    m(
        "harvests-take-nothing",
        "HRV-2",
        "rules/harvests.py",
        "    take_dump(table, dump, harvesters, clauses)",
        "    return",
    ),
    m(
        "super-harvest-on-no-dump",
        "SHARV-1",
        "rules/harvests.py",
        "    harvested = reading.numbers if reading.super_harvests else sorted(reading.harvest_on)",
        "    harvested = sorted(reading.harvest_on)",
    ),
    # --- sharing ----------------------------------------------------------------------------
    m(
        "leftovers-to-the-first-taker",
        "SPL-3",
        "rules/sharing.py",
        "    left = [rank for rank in range(10) for _ in range(counts[rank])]\n"
        "    return [sorted(shares[taker]) for taker in takers], left",
        "    left = [rank for rank in range(10) for _ in range(counts[rank])]\n"
        "    shares[order[0]] += left\n"
        "    return [sorted(shares[taker]) for taker in takers], []",
    ),
    m(
        "no-own-colour-priority",
        "SPL-2",
        "rules/sharing.py",
        "    return min(share, counts[OWN_RANK[robot]])",
        "    return 0",
    ),
    m(
        "three-point-counts-in-the-quota",
        "SPL-2 SPL-5 TRI-2",
        "rules/sharing.py",
        "    return min(share, counts[OWN_RANK[robot]])",
        "    return min(share, counts[OWN_RANK[robot]] + (counts[9] if len(counts) > 9 else 0))",
    ),
    m(
        "round-starts-at-the-lowest-taker",
        "SPL-5 R-SYMMETRY",
        "rules/sharing.py",
        "    order = taking_order(takers, after)",
        "    order = sorted(takers)",
    ),
    m(
        "round-takes-the-worst-gear",
        "SPL-5",
        "rules/sharing.py",
        "            for rank in BEST_FIRST[taker]:\n                if counts[rank]:",
        "            for rank in reversed(BEST_FIRST[taker]):\n                if counts[rank]:",
    ),
    m(
        "empty-place-splits-silently",
        "SPL-6",
        "rules/sharing.py",
        "    if len(takers) > 1 and table.events is not None:",
        "    if len(takers) > 1 and table.events is not None and pool:",
    ),
    m(
        "quota-checked-before-the-share-size",
        "GEN-2 SPL-1 SPL-2",
        "rules/sharing.py",
        "        got = gear_ranks(proposed[robot])\n        if len(got) != share:",
        "        got = gear_ranks(proposed[robot])\n"
        "        if got.count(OWN_RANK[robot]) != own_quota(counts, robot, share):\n"
        "            raise choice_refused(\n"
        '                "quota", robot=robot, clause="SPL-2"\n'
        "            )\n"
        "        if len(got) != share:",
    ),
    m(
        "takers-checked-highest-first",
        "GEN-2 SPL-1",
        "rules/sharing.py",
        "        strays = sorted(set(proposed) - set(takers)) or sorted(set(takers) - set(proposed))",
        "        strays = sorted(set(proposed) - set(takers), reverse=True) or sorted(\n"
        "            set(takers) - set(proposed), reverse=True\n"
        "        )",
    ),
    m(
        "missing-gears-named-after-every-share",
        "GEN-2 SPL-1",
        "rules/sharing.py",
        "        missing = [gear_of(rank) for rank in range(10) if available[rank] < 0]",
        "        missing = [\n"
        "            gear_of(rank) for rank in range(10) if available[rank] < 0 and robot == takers[-1]\n"
        "        ]",
    ),
    m(
        "shovels-follow-the-tables-splits",
        "SHOV-1 R-SHOVEL",
        "rules/upgrades.py",
        "    choices, table.choices = table.choices, None",
        "    choices = table.choices",
    ),
    # --- assembly ---------------------------------------------------------------------------
    m(
        "assembly-from-two-gears",
        "ASM-1",
        "rules/assembly.py",
        "ASSEMBLY_THRESHOLD = 3",
        "ASSEMBLY_THRESHOLD = 2",
    ),
    m(
        "optional-assembly-defaults-to-nothing",
        "ASM-1 R-CHOICES R-ASSEMBLY",
        "rules/assembly.py",
        "    if chosen is None:\n        return choose_assembly(robot, feet)",
        '    if chosen is None:\n        return [] if rule == "optional" else choose_assembly(robot, feet)',
    ),
    m(
        "mandatory-assembly-may-decline",
        "ASM-1 R-ASSEMBLY",
        "rules/assembly.py",
        '    if not chosen and rule == "optional":',
        "    if not chosen:",
    ),
    m(
        "assembly-picks-the-worst",
        "ASM-2",
        "rules/assembly.py",
        "    return sorted(feet, key=PREFERENCE_KEY[robot])[:ASSEMBLY_SIZE]",
        "    return sorted(feet, key=PREFERENCE_KEY[robot])[-ASSEMBLY_SIZE:]",
    ),
    m(
        "attack-takes-the-circuit-too",
        "ASM-3 ATK-6",
        "rules/attacks.py",
        "        held[victim] = feet[victim]\n        feet[victim] = []",
        "        held[victim] = feet[victim] + table.circuit_of(victim)\n"
        "        feet[victim] = []\n"
        "        table.circuit_of(victim).clear()\n"
        "        table.moved_circuit[victim] = True",
    ),
    # --- exploration and the end ------------------------------------------------------------
    m(
        "explore-descending",
        "EXP-1 R-EXPLORE",
        "rules/exploration.py",
        "    numbers, _ = dumps_explored(table.numbers, reserve)",
        "    numbers, _ = dumps_explored(table.numbers[::-1], reserve)",
    ),
    m(
        "end-when-every-dump-is-empty",
        "END-1 R-END",
        "rules/scoring.py",
        "    return not reserve and any(not pile for pile in piles)",
        "    return not reserve and all(not pile for pile in piles)",
    ),
    m(
        "end-when-the-reserve-is-empty",
        "END-1 R-END",
        "rules/scoring.py",
        "    return not reserve and any(not pile for pile in piles)",
        "    return not reserve",
    ),
    m(
        "own-colour-worth-three",
        "END-2 GEN-1",
        "rules/gears.py",
        "OWN_COLOUR_POINTS = 2",
        "OWN_COLOUR_POINTS = 3",
    ),
    m(
        "winners-by-points-alone",
        "END-3",
        "rules/scoring.py",
        "    best = (scores[0].points, scores[0].own_colour)\n"
        "    return tuple(s.player for s in scores if (s.points, s.own_colour) == best)",
        "    return tuple(s.player for s in scores if s.points == scores[0].points)",
    ),
    m(
        "ranking-ties-to-the-highest-robot",
        "END-3",
        "judge/conformance.py",
        "    ordered = sorted(scores, key=lambda score: (-score[1], -score[2], score[3]))",
        "    ordered = sorted(scores, key=lambda score: (-score[1], -score[2], -score[3]))",
    ),
    m(
        "variant-scores-the-higher-robot",
        "VAR-3",
        "rules/variant.py",
        "        robot, points, own = min(robot_scores, key=lambda entry: (entry[1], entry[2], entry[0]))",
        "        robot, points, own = max(robot_scores, key=lambda entry: (entry[1], entry[2], entry[0]))",
    ),
    m(
        "variant-tie-keeps-more-own-colour",
        "VAR-3 R-TWO-ROBOTS",
        "rules/variant.py",
        "        robot, points, own = min(robot_scores, key=lambda entry: (entry[1], entry[2], entry[0]))",
        "        robot, points, own = min(robot_scores, key=lambda entry: (entry[1], -entry[2], entry[0]))",
    ),
    # --- the expansions' gears --------------------------------------------------------------
    m(
        "jolly-nobodys-colour",
        "JOL-2",
        "rules/gears.py",
        "        if self.kind is GearKind.JOLLY:\n            return True",
        "        if self.kind is GearKind.JOLLY:\n            return False",
    ),
    m(
        "three-point-is-own-colour",
        "TRI-2",
        "rules/gears.py",
        "            return True\n        return self.kind is GearKind.STANDARD and self.colour == robot",
        "            return True\n        return self.kind is not GearKind.STANDARD or self.colour == robot",
    ),
    # --- the choices' own refusals ----------------------------------------------------------
    m(
        "split-of-a-trapped-dump-allowed",
        "SPL-5 TRP-3",
        "rules/turn.py",
        "    places |= {DUMP[dump] for dump in reading.numbers if harvesters_of(reading, dump)}",
        "    places |= {\n"
        "        DUMP[dump]\n"
        "        for dump in reading.numbers\n"
        "        if harvesters_of(reading, dump) or dump in reading.trap_on\n"
        "    }",
    ),
    m(
        "split-of-a-shovelled-dump-allowed",
        "SHOV-1 SPL-5 R-SHOVEL",
        "rules/turn.py",
        "    places |= {DUMP[dump] for dump in reading.numbers if harvesters_of(reading, dump)}",
        "    places |= {\n"
        "        DUMP[dump]\n"
        "        for dump in reading.numbers\n"
        "        if harvesters_of(reading, dump) or reading.super_shovels\n"
        "    }",
    ),
    m(
        "split-of-a-defenders-feet-allowed",
        "SPL-5 ATK-3",
        "rules/turn.py",
        "    places = {FEET[victim] for victim in attackers_by_target(reading) if victim not in standing}",
        "    places = {FEET[victim] for victim in attackers_by_target(reading)}",
    ),
    m(
        "idle-split-names-the-highest-robot",
        "SPL-5 GEN-2",
        "rules/turn.py",
        "                    robot=named[0] if named else None,",
        "                    robot=named[-1] if named else None,",
    ),
    m(
        "chosen-assembly-below-three-allowed",
        "ASM-1",
        "rules/assembly.py",
        "    if not can_assemble(feet):\n        if chosen:",
        "    if not can_assemble(feet):\n        if False:",
    ),
    m(
        "assembly-of-a-stranger-allowed",
        "ASM-1",
        "rules/assembly.py",
        "    for robot in sorted(set(assemblies) - set(numbers)):",
        "    for robot in ():",
    ),
    m(
        "steal-from-a-non-attacker-allowed",
        "ATK-4",
        "rules/attacks.py",
        "        if defender not in standing or attacker not in attackers.get(defender, ()):",
        "        if defender not in standing:",
    ),
    m(
        "chosen-steal-from-the-circuit-under-feet-only",
        "ATK-4",
        "rules/attacks.py",
        '    if not from_feet and table.state.options.defence_steal_source == "feet_only":',
        "    if False:",
    ),
    m(
        "upgrade-laid-with-the-upgrades-off",
        "UPG-2 SET-6",
        "rules/programs.py",
        "    if not state.options.upgrades:\n        raise IllegalProgramError(",
        "    if False:\n        raise IllegalProgramError(",
    ),
    # --- more rules of play -----------------------------------------------------------------
    m(
        "counter-defence-attacks-nobody",
        "CDEF-1",
        "rules/attacks.py",
        "        if victim in reading.defenders:\n            hitting += counters",
        "        if False:\n            hitting += counters",
    ),
    m(
        "super-attack-attacks-nobody",
        "SATK-1",
        "rules/attacks.py",
        "        hitting += [robot for robot in super_attackers if robot != victim]",
        "        hitting += []",
    ),
    m(
        "voided-super-attack-cites-atk-3",
        "SATK-2",
        "rules/attacks.py",
        '        table.act(attacker, label, ATTACK_VOIDED, "ATK-3" if card else "SATK-2")',
        '        table.act(attacker, label, ATTACK_VOIDED, "ATK-3")',
    ),
    m(
        "attackers-round-starts-after-the-first-attacker",
        "ATK-8 R-SYMMETRY",
        "rules/attacks.py",
        "    left = take(table, pool, FEET[victim], attackers, clauses, victim)",
        "    left = take(table, pool, FEET[victim], attackers, clauses, attackers[0])",
    ),
    m(
        "no-share-event-cites-spl-1",
        "SPL-4",
        "rules/sharing.py",
        '                "SPL-4" if len(pool) < len(takers) else "SPL-1",',
        '                "SPL-1",',
    ),
    m(
        "the-last-turn-cites-turn-1",
        "END-1 TURN-1",
        "rules/scoring.py",
        '    table.events.append(TurnEnded(table.state.turn, over, "END-1" if over else "TURN-1"))',
        '    table.events.append(TurnEnded(table.state.turn, over, "TURN-1"))',
    ),
    m(
        "cards-dealt-to-the-last-seat-first",
        "UPG-1 SET-7",
        "rules/upgrades.py",
        "    return dict(zip(players, shuffled, strict=False))",
        "    return dict(zip(list(players)[::-1], shuffled, strict=False))",
    ),
    m(
        "padding-of-the-highest-colour",
        "REF-2",
        "rules/setup.py",
        "    return [CANONICAL_GEARS[unused[0] - 1]] * short",
        "    return [CANONICAL_GEARS[unused[-1] - 1]] * short",
    ),
    m(
        "three-jolly-gears",
        "JOL-1",
        "rules/setup.py",
        "        extra += [JOLLY] * EXPANSION_GEARS_PER_KIND",
        "        extra += [JOLLY] * 3",
    ),
    m(
        "three-three-point-gears",
        "TRI-1",
        "rules/setup.py",
        "        extra += [THREE_POINT] * EXPANSION_GEARS_PER_KIND",
        "        extra += [THREE_POINT] * 3",
    ),
    m(
        "mixed-variant-allowed",
        "VAR-1",
        "judge/start.py",
        "    if len(set(sizes)) > 1:",
        "    if False:",
    ),
    m(
        "steals-after-the-attacks",
        "ATK-2",
        "rules/attacks.py",
        "    standing = standing_defenders(reading)\n"
        "    if reading.defenders:\n"
        "        plan.append((announce_defences, attackers))\n"
        "        for attacker in sorted({a for d in standing for a in attackers.get(d, ())}):\n"
        "            aimed_at = [d for d in standing if attacker in attackers.get(d, ())]\n"
        "            # Several defenders take from one Super Attacker in turn, clockwise after it.\n"
        "            for defender in taking_order(aimed_at, attacker) if len(aimed_at) > 1 else aimed_at:\n"
        "                plan.append((steal_from_attacker, (defender, attacker)))\n"
        "    elif counters:\n"
        "        plan.append((announce_unused_counters, counters))\n"
        "    if not attackers:\n"
        "        return\n"
        "    victims = sorted(attackers)\n"
        "    if standing:\n"
        "        victims = [victim for victim in victims if victim not in standing]\n"
        "    if victims:\n"
        "        plan.append((lift_feet, victims))\n"
        "        for victim in victims:\n"
        "            plan.append((strike, (victim, attackers[victim])))",
        "    standing = standing_defenders(reading)\n"
        "    later: Plan = []\n"
        "    if reading.defenders:\n"
        "        plan.append((announce_defences, attackers))\n"
        "        for attacker in sorted({a for d in standing for a in attackers.get(d, ())}):\n"
        "            aimed_at = [d for d in standing if attacker in attackers.get(d, ())]\n"
        "            # Several defenders take from one Super Attacker in turn, clockwise after it.\n"
        "            for defender in taking_order(aimed_at, attacker) if len(aimed_at) > 1 else aimed_at:\n"
        "                later.append((steal_from_attacker, (defender, attacker)))\n"
        "    elif counters:\n"
        "        plan.append((announce_unused_counters, counters))\n"
        "    victims = sorted(attackers)\n"
        "    if standing:\n"
        "        victims = [victim for victim in victims if victim not in standing]\n"
        "    if attackers and victims:\n"
        "        plan.append((lift_feet, victims))\n"
        "        for victim in victims:\n"
        "            plan.append((strike, (victim, attackers[victim])))\n"
        "    plan.extend(later)",
    ),
    m(
        "shovels-before-the-harvests",
        "SHOV-1 TURN-1 R-SHOVEL",
        "rules/turn.py",
        "    plan_harvests(plan, reading)\n    if reading.upgrades:\n        plan_shovels(plan, reading)",
        "    if reading.upgrades:\n        plan_shovels(plan, reading)\n    plan_harvests(plan, reading)",
    ),
    m(
        "the-end-checked-before-exploration",
        "END-1 TURN-1 R-END",
        "rules/turn.py",
        "    explore_dumps(table)\n    if reading.upgrades:\n        discard_played_upgrades(table, reading)\n"
        "    end_turn(table)",
        "    if reading.upgrades:\n        discard_played_upgrades(table, reading)\n"
        "    end_turn(table)\n    explore_dumps(table)",
    ),
    m(
        "exploration-before-assembly",
        "TURN-1",
        "rules/turn.py",
        "    assemble_circuits(table)\n    explore_dumps(table)",
        "    explore_dumps(table)\n    assemble_circuits(table)",
    ),
    m(
        "discards-before-exploration",
        "TURN-1 UPG-3",
        "rules/turn.py",
        "    explore_dumps(table)\n    if reading.upgrades:\n        discard_played_upgrades(table, reading)\n",
        "    if reading.upgrades:\n        discard_played_upgrades(table, reading)\n    explore_dumps(table)\n",
        "the discards change only the cards held, exploration only the dumps and the reserve: "
        "neither reads what the other writes; their events are of two kinds (upgrade_discarded, "
        "gear_moved), and an answer's events are compared kind by kind, so the order of the two "
        "steps shows in no answer",
    ),
    m(
        "traps-spring-on-shovels",
        "SHOV-1 TRP-3 R-SHOVEL",
        "rules/traps.py",
        "    trappers = trappers_of(reading, dump)\n    harvesters = harvesters_of(reading, dump)\n"
        "    clauses = None",
        "    trappers = trappers_of(reading, dump)\n"
        "    harvesters = harvesters_of(reading, dump) or list(reading.super_shovels)\n"
        "    clauses = None",
    ),
    m(
        "a-zero-share-refusal-cites-spl-1",
        "SPL-4 GEN-2",
        "rules/sharing.py",
        '            clause = "SPL-4" if share == 0 else "SPL-1"',
        '            clause = "SPL-1"',
    ),
    m(
        "strangers-before-missing-programs",
        "PRG-1 GEN-2",
        "rules/programs.py",
        "    for robot in sorted(in_play - set(programs)):\n"
        '        raise IllegalProgramError(robot, "it has no program", clause="PRG-1")\n'
        "    for robot in sorted(set(programs) - in_play, key=repr):\n"
        '        raise IllegalProgramError(robot, "this robot is not in play", clause="PRG-1")\n',
        "    for robot in sorted(set(programs) - in_play, key=repr):\n"
        '        raise IllegalProgramError(robot, "this robot is not in play", clause="PRG-1")\n'
        "    for robot in sorted(in_play - set(programs)):\n"
        '        raise IllegalProgramError(robot, "it has no program", clause="PRG-1")\n',
    ),
    m(
        "defaults-ignore-the-worth",
        "VAL-1 ASM-2 ATK-5 SPL-5",
        "rules/gears.py",
        "    return tuple(sorted(range(10), key=lambda rank: (-WORTH[taker][rank], ring_order(taker, rank))))",
        "    return tuple(sorted(range(10), key=lambda rank: ring_order(taker, rank)))",
    ),
    m(
        "a-robot-controlled-twice-allowed",
        "SET-1",
        "judge/start.py",
        "            if robot in owner:\n                raise LogError(",
        "            if False:\n                raise LogError(",
    ),
    # --- refusals of a start ----------------------------------------------------------------
    m(
        "a-gear-refusal-names-no-robot",
        "GEN-2 SET-5",
        "judge/start.py",
        "                    robot=place.robot,\n                    clause=_GEAR_CLAUSES[gear.kind],",
        "                    clause=_GEAR_CLAUSES[gear.kind],",
    ),
    m(
        "a-dump-refusal-names-its-dump",
        "GEN-2",
        "judge/start.py",
        r'_ROBOT_ENTRY: Final = re.compile(r"\$\.start\.position\.robots\.([1-8])\b")',
        r'_ROBOT_ENTRY: Final = re.compile(r"\$\.start\.position\.(?:robots|dumps)\.([1-8])\b")',
    ),
    m(
        "twelve-of-a-colour",
        "SET-5 GEN-1",
        "judge/start.py",
        "        if count > GEARS_PER_COLOUR:\n            return f",
        "        if count > GEARS_PER_COLOUR + 1:\n            return f",
    ),
    m(
        "cards-checked-after-the-gears",
        "GEN-2 UPG-1",
        "judge/start.py",
        "    try:\n        check_upgrade_holders(position.upgrades.values(), options)\n"
        "    except InvalidStateError as error:\n"
        '        raise LogError(source, "$.start.position.upgrades", str(error), clause="UPG-1")'
        " from None\n",
        "",
    ),
    m(
        "a-stranger-card-holder-cites-nothing",
        "UPG-1",
        "judge/start.py",
        '                    f"no player called {name!r}",\n                    clause="UPG-1",',
        '                    f"no player called {name!r}",',
    ),
    m(
        "dumps-cite-set-5",
        "SET-2",
        "judge/start.py",
        '            ("dumps", position.dumps, "SET-2"),',
        '            ("dumps", position.dumps, "SET-5"),',
    ),
)


#: The second set, written blind (issue 33): for each clause family, how an implementer working
#: from the text could get it subtly wrong (an off-by-one, an order, a tie-break, a dropped
#: condition, a changed default, a refusal citing the neighbouring clause, an event field), each
#: written before looking at which cases would catch it.
BLIND: tuple[Mutant, ...] = (
    # --- setup ------------------------------------------------------------------------------
    m(
        "b-largest-seed-refused",
        "SET-3",
        "rules/setup.py",
        "    if not 0 <= seed <= MAX_SEED:",
        "    if not 0 <= seed < MAX_SEED:",
    ),
    m(
        "b-seed-minus-one-allowed",
        "SET-3",
        "log/records.py",
        'Seed = Annotated[int, Range(0, MAX_SEED, "a seed")]',
        'Seed = Annotated[int, Range(-1, MAX_SEED, "a seed")]',
        "a request's seed meets two checks of the same bound, the log's type of `start.seed` and "
        "then `setup_game`'s (SET-3 both): widening one leaves the other to refuse -1 with the "
        "same clause; `b-largest-seed-refused` narrows the second and is killed",
    ),
    m(
        "b-dumps-dealt-in-descending-order",
        "SET-4 SET-7",
        "rules/setup.py",
        "        Dump(number, reserve[i * INITIAL_GEARS_PER_DUMP : (i + 1) * INITIAL_GEARS_PER_DUMP])\n"
        "        for i, number in enumerate(dumps)",
        "        Dump(number, reserve[i * INITIAL_GEARS_PER_DUMP : (i + 1) * INITIAL_GEARS_PER_DUMP])\n"
        "        for i, number in zip(range(len(dumps) - 1, -1, -1), dumps, strict=True)",
    ),
    m(
        "b-deal-from-the-back-of-the-reserve",
        "SET-4 SET-7",
        "rules/setup.py",
        "    need = INITIAL_GEARS_PER_DUMP * len(dumps)\n    if len(reserve) < need:",
        "    need = INITIAL_GEARS_PER_DUMP * len(dumps)\n    reserve = tuple(reserve)[::-1]\n"
        "    if len(reserve) < need:",
    ),
    m(
        "b-three-point-before-jolly",
        "SET-7 JOL-1 TRI-1",
        "rules/setup.py",
        "    if options.jolly_gears:\n        extra += [JOLLY] * EXPANSION_GEARS_PER_KIND\n"
        "    if options.three_point_gears:\n        extra += [THREE_POINT] * EXPANSION_GEARS_PER_KIND\n",
        "    if options.three_point_gears:\n        extra += [THREE_POINT] * EXPANSION_GEARS_PER_KIND\n"
        "    if options.jolly_gears:\n        extra += [JOLLY] * EXPANSION_GEARS_PER_KIND\n",
    ),
    m(
        "b-padding-counted-before-the-deal",
        "REF-2 R-PAD-RESERVE",
        "rules/setup.py",
        "    short = -(pile_size - INITIAL_GEARS_PER_DUMP * dumps) % dumps",
        "    short = -pile_size % dumps",
        "the deal takes two gears a dump, a multiple of the number of dumps, so the pile less the "
        "deal and the whole pile are short of a multiple of the dumps by the same count",
    ),
    m(
        "b-padding-of-the-lowest-colour-in-play",
        "REF-2 R-PAD-RESERVE",
        "rules/setup.py",
        "    return [CANONICAL_GEARS[unused[0] - 1]] * short",
        "    return [CANONICAL_GEARS[robots[0] - 1]] * short",
    ),
    m(
        "b-cards-shuffled-by-a-fresh-generator",
        "SET-7 UPG-1 R-UPG-DECK",
        "rules/upgrades.py",
        "    shuffled = list(deck)\n    rng.shuffle(shuffled)\n",
        "    shuffled = list(deck)\n    random.Random(0).shuffle(shuffled)\n",
    ),
    m(
        "b-cards-dealt-in-name-order",
        "UPG-1 SET-7",
        "rules/setup.py",
        "    seating = sorted(control, key=lambda name: min(control[name]))",
        "    seating = sorted(control)",
    ),
    m(
        "b-deck-one-short-allowed",
        "UPG-1",
        "rules/upgrades.py",
        "    if len(deck) < len(players):",
        "    if len(deck) < len(players) - 1:",
    ),
    # --- a start position's refusals ----------------------------------------------------------
    m(
        "b-robots-refusal-cites-set-2",
        "SET-5 GEN-2",
        "judge/start.py",
        '            ("robots", position.robots, "SET-5"),',
        '            ("robots", position.robots, "SET-2"),',
    ),
    m(
        "b-extra-places-named-highest-first",
        "SET-5 SET-2 GEN-2",
        "judge/start.py",
        "            for number in sorted(set(place) - set(in_play)):",
        "            for number in sorted(set(place) - set(in_play), reverse=True):",
        "a start's refusal of a robot or dump not in play names no robot (GEN-2 item 1) and cites "
        "the same clause for every number of the same place, so which extra number is found "
        "first shows in no answer",
    ),
    m(
        "b-extra-places-let-through",
        "SET-5 SET-2 GEN-2",
        "judge/start.py",
        "            for number in sorted(set(place) - set(in_play)):",
        "            for number in sorted(set(in_play) - set(place)) and ():",
    ),
    m(
        "b-mixed-variant-cites-set-5",
        "VAR-1 GEN-2",
        "judge/start.py",
        '            "either every player controls one robot or every player two (VAR-1)",\n'
        '            clause="VAR-1",',
        '            "either every player controls one robot or every player two (VAR-1)",\n'
        '            clause="SET-5",',
    ),
    m(
        "b-robot-twice-cites-set-5",
        "SET-1 GEN-2",
        "judge/start.py",
        '                    f"robot {robot} is controlled by {owner[robot]} already",\n'
        '                    clause="SET-1",',
        '                    f"robot {robot} is controlled by {owner[robot]} already",\n'
        '                    clause="SET-5",',
    ),
    m(
        "b-cards-without-the-option-cite-set-6",
        "UPG-1 SET-6",
        "judge/start.py",
        '            "players hold upgrade cards, but upgrades are not in play (options.upgrades)",\n'
        '            clause="UPG-1",',
        '            "players hold upgrade cards, but upgrades are not in play (options.upgrades)",\n'
        '            clause="SET-6",',
    ),
    m(
        "b-a-fifth-jolly-allowed",
        "JOL-1 TRI-1",
        "judge/start.py",
        "    if count > EXPANSION_GEARS_PER_KIND:",
        "    if count > EXPANSION_GEARS_PER_KIND + 1:",
    ),
    m(
        "b-expansion-gear-without-its-option-allowed",
        "JOL-1 TRI-1 SET-6",
        "judge/start.py",
        "    if not getattr(options, switch):",
        "    if False:",
    ),
    # --- programs -----------------------------------------------------------------------------
    m(
        "b-missing-program-named-highest-first",
        "PRG-1 GEN-2",
        "rules/programs.py",
        "    for robot in sorted(in_play - set(programs)):",
        "    for robot in sorted(in_play - set(programs), reverse=True):",
    ),
    m(
        "b-own-number-is-an-attack",
        "ATK-1",
        "rules/programs.py",
        "                    if program.is_defence_of(number):\n                        defenders.append(number)",
        "                    if False:\n                        defenders.append(number)",
    ),
    m(
        "b-a-trap-on-the-trappers-own-dump",
        "TRP-1",
        "rules/programs.py",
        "                    if aimed in trap_on:\n                        trap_on[aimed].append(number)\n"
        "                    else:\n                        trap_on[aimed] = [number]",
        "                    if number in trap_on:\n                        trap_on[number].append(number)\n"
        "                    else:\n                        trap_on[number] = [number]",
    ),
    m(
        "b-a-harvest-of-the-harvesters-own-dump",
        "HRV-1",
        "rules/programs.py",
        "                    if aimed in harvest_on:\n                        harvest_on[aimed].append(number)\n"
        "                    else:\n                        harvest_on[aimed] = [number]",
        "                    if number in harvest_on:\n                        harvest_on[number].append(number)\n"
        "                    else:\n                        harvest_on[number] = [number]",
    ),
    m(
        "b-cards-checked-highest-robot-first",
        "PRG-2 GEN-2",
        "rules/programs.py",
        "    for robot, program in sorted(programs.items()):\n        if isinstance(program, Program):",
        "    for robot, program in sorted(programs.items(), reverse=True):\n"
        "        if isinstance(program, Program):",
    ),
    m(
        "b-upgrades-checked-before-cards",
        "GEN-2 PRG-2 UPG-3",
        "rules/programs.py",
        "    for robot, program in sorted(programs.items()):\n        if isinstance(program, Program):\n"
        "            check_robot_program(state, robot, program)\n    check_upgrades_held(state, programs)\n",
        "    check_upgrades_held(state, programs)\n"
        "    for robot, program in sorted(programs.items()):\n        if isinstance(program, Program):\n"
        "            check_robot_program(state, robot, program)\n",
    ),
    m(
        "b-partners-checked-before-upgrades",
        "GEN-2 VAR-2 UPG-4",
        "rules/programs.py",
        "    check_upgrades_held(state, programs)\n    check_partners_use_different_actions(",
        "    check_partners_use_different_actions(",
    ),
    m(
        "b-card-not-held-cites-upg-2",
        "UPG-3 GEN-2",
        "rules/programs.py",
        '            f"player {player.name!r} {held}, so it cannot lay {program}",\n'
        '            clause="UPG-3",',
        '            f"player {player.name!r} {held}, so it cannot lay {program}",\n'
        '            clause="UPG-2",',
    ),
    m(
        "b-upgrades-off-cites-upg-3",
        "UPG-2 SET-6",
        "rules/programs.py",
        '            f"{program} is an upgrade card, and upgrades are not in play",\n'
        '            clause="UPG-2",',
        '            f"{program} is an upgrade card, and upgrades are not in play",\n'
        '            clause="UPG-3",',
    ),
    m(
        "b-second-card-of-a-player-cites-upg-3",
        "UPG-4",
        "rules/programs.py",
        '                f"{laid[player.name]} already lays it",\n                clause="UPG-4",',
        '                f"{laid[player.name]} already lays it",\n                clause="UPG-3",',
    ),
    # --- attacks and defences -------------------------------------------------------------------
    m(
        "b-an-untested-defence-reads-defended",
        "ATK-3",
        "rules/attacks.py",
        "            outcome = DEFENDED if tested else DEFENDED_UNTESTED",
        "            outcome = DEFENDED",
    ),
    m(
        "b-default-steal-takes-the-worst-gear",
        "ATK-5 VAL-1",
        "rules/attacks.py",
        "    for rank in BEST_FIRST[defender]:\n        if rank in feet:\n            return True, rank",
        "    for rank in BEST_FIRST[defender][::-1]:\n        if rank in feet:\n            return True, rank",
    ),
    m(
        "b-steal-cites-atk-5",
        "ATK-4",
        "rules/attacks.py",
        '    table.give([rank], source, defender, "ATK-4" if card else "SATK-2")',
        '    table.give([rank], source, defender, "ATK-5" if card else "SATK-2")',
    ),
    m(
        "b-a-hit-cites-atk-8",
        "ATK-6",
        "rules/attacks.py",
        '_HIT_CLAUSES = {ATTACK: "ATK-6",',
        '_HIT_CLAUSES = {ATTACK: "ATK-8",',
    ),
    m(
        "b-counter-defence-attacks-everyone",
        "CDEF-1",
        "rules/attacks.py",
        "        if victim in reading.defenders:\n            hitting += counters",
        "        if victim not in counters:\n            hitting += counters",
    ),
    m(
        "b-a-defender-steals-from-its-lowest-attacker-only",
        "ATK-4 ATK-3",
        "rules/attacks.py",
        "        for attacker in sorted({a for d in standing for a in attackers.get(d, ())}):",
        "        for attacker in sorted({a for d in standing for a in attackers.get(d, ())})[:1]:",
    ),
    m(
        "b-attackers-round-skips-the-next-robot",
        "ATK-8 R-SYMMETRY",
        "rules/attacks.py",
        "    left = take(table, pool, FEET[victim], attackers, clauses, victim)",
        "    left = take(table, pool, FEET[victim], attackers, clauses, victim % 8 + 1)",
    ),
    m(
        "b-attackers-round-starts-at-the-victim",
        "ATK-8 R-SYMMETRY",
        "rules/attacks.py",
        "    left = take(table, pool, FEET[victim], attackers, clauses, victim)",
        "    left = take(table, pool, FEET[victim], attackers, clauses, (victim - 2) % 8 + 1)",
        "the round starts with the first attacker clockwise after number `after`; with `after` "
        "one before the victim the first in the ring is the victim itself, which never attacks "
        "itself (its attack card with its own number is a defence, ATK-1), so the order of the "
        "attackers is the same",
    ),
    m(
        "b-super-attack-defenders-counter-clockwise",
        "SATK-2 R-SUPER-ATTACK",
        "rules/attacks.py",
        "            for defender in taking_order(aimed_at, attacker) if len(aimed_at) > 1 else aimed_at:\n"
        "                plan.append(",
        "            for defender in taking_order(aimed_at, attacker)[::-1] if len(aimed_at) > 1 else aimed_at:\n"
        "                plan.append(",
    ),
    m(
        "b-countered-defence-cites-atk-3",
        "CDEF-2",
        "rules/attacks.py",
        '            table.act(defender, reading.text(defender), DEFENCE_COUNTERED, "CDEF-2")',
        '            table.act(defender, reading.text(defender), DEFENCE_COUNTERED, "ATK-3")',
    ),
    m(
        "b-unused-counter-defence-cites-cdef-2",
        "CDEF-1",
        "rules/attacks.py",
        '        table.act(robot, reading.text(robot), Outcome.COUNTER_UNUSED, "CDEF-1")',
        '        table.act(robot, reading.text(robot), Outcome.COUNTER_UNUSED, "CDEF-2")',
    ),
    m(
        "b-steal-from-a-circuit-before-equal-feet",
        "ATK-5",
        "rules/attacks.py",
        "    if same:\n        return True, min(same, key=PREFERENCE_KEY[defender])\n    return False, rank",
        "    if same and rank in feet:\n        return True, min(same, key=PREFERENCE_KEY[defender])\n"
        "    return False, rank",
    ),
    # --- traps and harvests --------------------------------------------------------------------
    m(
        "b-voided-harvest-cites-trp-3",
        "TRP-2",
        "rules/traps.py",
        '            table.act(robot, label(reading, robot, dump), HARVEST_VOIDED, "TRP-2")',
        '            table.act(robot, label(reading, robot, dump), HARVEST_VOIDED, "TRP-3")',
    ),
    m(
        "b-super-trap-cites-trp-3",
        "STRAP-1",
        "rules/traps.py",
        '        clauses = ["TRP-3" if code[robot] == TRAP else "STRAP-1" for robot in trappers]',
        '        clauses = ["TRP-3" for robot in trappers]',
    ),
    m(
        "b-dump-rounds-start-at-robot-one",
        "SPL-5 R-SYMMETRY TRP-4 HRV-2",
        "rules/traps.py",
        "    table.dumps[dump] = take(table, pool, DUMP[dump], takers, clauses, dump)",
        "    table.dumps[dump] = take(table, pool, DUMP[dump], takers, clauses, 8)",
    ),
    m(
        "b-super-harvest-cites-hrv-2",
        "SHARV-1",
        "rules/harvests.py",
        '        clauses = ["HRV-2" if code[robot] == HARVEST else "SHARV-1" for robot in harvesters]',
        '        clauses = ["HRV-2" for robot in harvesters]',
    ),
    m(
        "b-harvests-in-descending-dumps",
        "HRV-2",
        "rules/harvests.py",
        "    for dump in harvested:\n        if dump not in trapped:",
        "    for dump in reversed(harvested):\n        if dump not in trapped:",
    ),
    m(
        "b-super-harvest-voided-everywhere-by-one-trap",
        "SHARV-1 TRP-2",
        "rules/harvests.py",
        "    trapped = trapped_dumps(reading)\n",
        "    trapped = trapped_dumps(reading)\n"
        "    if trapped and reading.super_harvests:\n        trapped = list(reading.numbers)\n",
    ),
    # --- splits ----------------------------------------------------------------------------------
    m(
        "b-no-share-of-one",
        "SPL-1 SPL-4",
        "rules/sharing.py",
        "    return gear_count // taker_count\n",
        "    return gear_count // taker_count if gear_count >= 2 * taker_count else 0\n",
    ),
    m(
        "b-own-colour-priority-for-one-gear",
        "SPL-2",
        "rules/sharing.py",
        "    return min(share, counts[OWN_RANK[robot]])",
        "    return min(1, share, counts[OWN_RANK[robot]])",
    ),
    m(
        "b-quota-counted-on-what-earlier-shares-left",
        "SPL-2 SPL-5",
        "rules/sharing.py",
        "        quota = own_quota(counts, robot, share)\n        own = got.count(OWN_RANK[robot])",
        "        quota = own_quota(available, robot, share)\n        own = got.count(OWN_RANK[robot])",
    ),
    m(
        "b-a-share-of-one-cites-spl-4",
        "SPL-1 SPL-4",
        "rules/sharing.py",
        '                "SPL-4" if len(pool) < len(takers) else "SPL-1",',
        '                "SPL-4" if len(pool) <= len(takers) else "SPL-1",',
    ),
    m(
        "b-split-event-forgets-what-is-left",
        "SPL-3",
        "rules/sharing.py",
        "                gears_of(list(left)),",
        "                (),",
    ),
    m(
        "b-split-event-takers-in-ring-order",
        "SPL-1",
        "rules/sharing.py",
        "                tuple(takers),\n                len(shares[0]),",
        "                tuple(taking_order(takers, after)),\n                len(shares[0]),",
    ),
    m(
        "b-split-event-share-of-the-last-taker",
        "SPL-1",
        "rules/sharing.py",
        "                tuple(takers),\n                len(shares[0]),",
        "                tuple(takers),\n                len(shares[-1]),",
        "every taker's share has the same size (SPL-1: the default deals each the same number, "
        "and a chosen split is refused unless every share has it), so the last share's length "
        "is the first's",
    ),
    m(
        "b-rounds-in-number-order-after-the-quota",
        "SPL-5 R-SYMMETRY",
        "rules/sharing.py",
        "    short = [taker for taker in order if len(shares[taker]) < share]\n    while short:",
        "    short = [taker for taker in sorted(order) if len(shares[taker]) < share]\n    while short:",
    ),
    m(
        "b-a-taker-fills-its-share-at-once",
        "SPL-5",
        "rules/sharing.py",
        "        short = [taker for taker in short if len(shares[taker]) < share]\n",
        "        short = [taker for taker in short if len(shares[taker]) < share]\n"
        "        short.sort(key=lambda taker: len(shares[taker]) < share - 1)\n",
    ),
    m(
        "b-ring-tie-break-counter-clockwise",
        "R-SYMMETRY ATK-5 ASM-2 SPL-5",
        "rules/gears.py",
        "    return (rank - taker) % 8 if rank < 8 else rank",
        "    return (taker - 2 - rank) % 8 if rank < 8 else rank",
    ),
    m(
        "b-ring-own-colour-first",
        "R-SYMMETRY",
        "rules/gears.py",
        "    return (rank - taker) % 8 if rank < 8 else rank",
        "    return (rank - taker + 1) % 8 if rank < 8 else rank",
        "the shift puts the taker's own colour first and keeps every other colour in the same "
        "order; the ring order only breaks ties of equal worth, and a gear of the taker's own "
        "colour is worth 2 to it while every other colour is worth 1 (END-2), so it never ties "
        "with another colour, and a Jolly (worth 2 too) comes after every colour either way",
    ),
    m(
        "b-jolly-before-own-colour",
        "R-SYMMETRY JOL-2 VAL-1",
        "rules/gears.py",
        "    return (rank - taker) % 8 if rank < 8 else rank",
        "    return (rank - taker) % 8 if rank < 8 else rank - 10",
    ),
    # --- assembly ---------------------------------------------------------------------------------
    m(
        "b-assembly-from-four-gears",
        "ASM-1",
        "rules/assembly.py",
        "ASSEMBLY_THRESHOLD = 3",
        "ASSEMBLY_THRESHOLD = 4",
    ),
    m(
        "b-assembly-of-one-gear-twice-allowed",
        "ASM-1",
        "rules/assembly.py",
        "        if picked.count(rank) > feet.count(rank):",
        "        if rank not in feet:",
    ),
    m(
        "b-declined-assembly-cites-asm-2",
        "ASM-1",
        "rules/assembly.py",
        '                "assembly is mandatory: it must move {size} gears",\n'
        "                robot=robot,\n"
        '                clause="ASM-1",',
        '                "assembly is mandatory: it must move {size} gears",\n'
        "                robot=robot,\n"
        '                clause="ASM-2",',
    ),
    m(
        "b-default-assembly-ties-by-colour-number",
        "ASM-2 R-SYMMETRY",
        "rules/assembly.py",
        "    return sorted(feet, key=PREFERENCE_KEY[robot])[:ASSEMBLY_SIZE]",
        "    return sorted(sorted(feet), key=lambda rank: -WORTH[robot][rank])[:ASSEMBLY_SIZE]",
    ),
    m(
        "b-assembly-event-cites-asm-2",
        "ASM-1",
        "rules/assembly.py",
        '            events.append(gear_moved(gear_of(rank), source, to, robot, "ASM-1"))',
        '            events.append(gear_moved(gear_of(rank), source, to, robot, "ASM-2"))',
    ),
    # --- exploration, the end, the scores -------------------------------------------------------
    m(
        "b-no-exploration-when-the-reserve-is-short",
        "EXP-1 REF-1",
        "rules/exploration.py",
        "    count = len(reserve)\n",
        "    count = len(reserve) if len(reserve) >= len(numbers) else 0\n",
    ),
    m(
        "b-explore-from-the-back-of-the-reserve",
        "EXP-1",
        "rules/exploration.py",
        "    drawn = tuple(reserve[: len(numbers)])\n",
        "    drawn = tuple(reserve[::-1][: len(numbers)])\n",
    ),
    m(
        "b-exploration-names-the-dumps-robot",
        "EXP-1",
        "rules/exploration.py",
        '            events.append(gear_moved(gear, RESERVE, DUMP[numbers[index]], None, "EXP-1"))',
        '            events.append(gear_moved(gear, RESERVE, DUMP[numbers[index]], numbers[index], "EXP-1"))',
    ),
    m(
        "b-end-needs-two-empty-dumps",
        "END-1",
        "rules/scoring.py",
        "    return not reserve and any(not pile for pile in piles)",
        "    return not reserve and sum(not pile for pile in piles) >= 2",
    ),
    m(
        "b-end-ignores-the-reserve",
        "END-1",
        "rules/scoring.py",
        "    return not reserve and any(not pile for pile in piles)",
        "    return any(not pile for pile in piles)",
        "the end is checked after exploration, which puts a gear on every dump in play while the "
        "reserve lasts: a dump is still empty after it only when the reserve ran out, so an "
        "empty dump already means an empty reserve",
    ),
    m(
        "b-circuit-not-scored",
        "END-2 R-END-CIRCUIT",
        "rules/scoring.py",
        "return ranks_tally(robot.number, ranks_of(robot.feet) + ranks_of(robot.circuit))",
        "return ranks_tally(robot.number, ranks_of(robot.feet))",
    ),
    m(
        "b-scores-ranked-by-fewer-own-colour",
        "END-3",
        "rules/scoring.py",
        "    return tuple(sorted(scores, key=lambda s: (-s.points, -s.own_colour)))",
        "    return tuple(sorted(scores, key=lambda s: (-s.points, s.own_colour)))",
    ),
    m(
        "b-ranking-ties-by-name",
        "END-3",
        "judge/conformance.py",
        "    ordered = sorted(scores, key=lambda score: (-score[1], -score[2], score[3]))",
        "    ordered = sorted(scores, key=lambda score: (-score[1], -score[2], score[0]))",
    ),
    m(
        "b-turn-ended-names-the-next-turn",
        "TURN-1",
        "rules/scoring.py",
        "        table.events.append(TurnEnded(table.state.turn, over,",
        "        table.events.append(TurnEnded(table.state.turn + 1, over,",
    ),
    # --- the variant ------------------------------------------------------------------------------
    m(
        "b-variant-scores-both-robots",
        "VAR-3",
        "rules/variant.py",
        "    return PlayerScore(player, points, own, robot)",
        "    return PlayerScore(player, sum(entry[1] for entry in robot_scores), own, robot)",
    ),
    m(
        "b-variant-tie-break-of-both-robots",
        "VAR-3 R-TWO-ROBOTS END-3",
        "rules/variant.py",
        "    return PlayerScore(player, points, own, robot)",
        "    return PlayerScore(player, points, sum(entry[2] for entry in robot_scores), robot)",
    ),
    # --- the upgrades -----------------------------------------------------------------------------
    m(
        "b-discard-cites-upg-4",
        "UPG-3",
        "rules/upgrades.py",
        '            table.emit(UpgradeDiscarded(robot, player, program.card, "UPG-3"))',
        '            table.emit(UpgradeDiscarded(robot, player, program.card, "UPG-4"))',
    ),
    m(
        "b-shovels-skip-the-empty-dumps",
        "SHOV-1 SPL-6",
        "rules/upgrades.py",
        "        for dump in table.numbers:  # an empty dump too",
        "        for dump in [n for n in table.numbers if table.dumps[n]]:  # an empty dump too",
    ),
    m(
        "b-shovels-take-only-the-untrapped-dumps",
        "SHOV-1 R-SHOVEL",
        "rules/upgrades.py",
        "        for dump in table.numbers:  # an empty dump too",
        "        for dump in [n for n in table.numbers if n not in reading.trap_on]:  # an empty dump too",
    ),
    m(
        "b-super-trap-idle-on-a-super-harvested-dump",
        "STRAP-1 SHARV-1",
        "rules/traps.py",
        "    trappers = trappers_of(reading, dump)\n    harvesters = harvesters_of(reading, dump)\n"
        "    clauses = None",
        "    trappers = trappers_of(reading, dump)\n    harvesters = reading.harvest_on.get(dump, [])\n"
        "    clauses = None",
    ),
    # --- the expansions' gears --------------------------------------------------------------------
    m(
        "b-jolly-worth-one",
        "JOL-2 END-2",
        "rules/gears.py",
        "            return THREE_POINT_POINTS\n        return OWN_COLOUR_POINTS if",
        "            return THREE_POINT_POINTS\n        if self.kind is GearKind.JOLLY:\n"
        "            return OTHER_COLOUR_POINTS\n        return OWN_COLOUR_POINTS if",
    ),
    m(
        "b-three-point-worth-two",
        "TRI-2 END-2",
        "rules/gears.py",
        "THREE_POINT_POINTS = 3",
        "THREE_POINT_POINTS = 2",
    ),
    m(
        "b-jolly-has-priority",
        "JOL-2 SPL-2",
        "rules/sharing.py",
        "    return min(share, counts[OWN_RANK[robot]])",
        "    return min(share, counts[OWN_RANK[robot]] + counts[8])",
    ),
    m(
        "b-jolly-not-own-colour-in-the-tie-break",
        "JOL-2 END-3",
        "rules/gears.py",
        "    tuple(int(gear.is_own_colour_of(robot)) for gear in CANONICAL_GEARS) for robot in range(9)",
        "    tuple(int(gear.has_priority_for(robot)) for gear in CANONICAL_GEARS) for robot in range(9)",
    ),
)


#: Every mutant of the kit: the first set, then the blind one.
MUTANTS: tuple[Mutant, ...] = FIRST + BLIND


def check_patches(mutants: Sequence[Mutant]) -> list[str]:
    """The mutants whose patch does not match its file exactly once."""
    bad = []
    for mutant in mutants:
        text = (PACKAGE / mutant.path).read_text(encoding="utf-8")
        if text.count(mutant.old) != 1 or mutant.old == mutant.new:
            bad.append(f"{mutant.name}: the patch matches {text.count(mutant.old)} times")
    return bad


def run_mutant(mutant: Mutant, timeout: float) -> tuple[bool, int, str]:
    """Run the suite against the mutant: (killed, failing cases, the first failing case)."""
    with tempfile.TemporaryDirectory(prefix="outofgears-mutant-") as folder:
        copy = Path(folder) / "outofgears"
        shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
        target = copy / mutant.path
        text = target.read_text(encoding="utf-8")
        if text.count(mutant.old) != 1:
            raise SystemExit(f"{mutant.name}: the patch no longer applies (see --check)")
        target.write_text(text.replace(mutant.old, mutant.new, 1), encoding="utf-8")
        engine = (
            f"env PYTHONPATH={folder} {sys.executable} -P -m outofgears.judge.conformance --batch"
        )
        done = subprocess.run(
            [
                sys.executable, "-m", "outofgears", "conformance", "--batch",
                "--engine", engine, "--format", "json", "--timeout", str(timeout),
                "--max-faults", "1000",
            ],
            capture_output=True, text=True, check=False, cwd=ROOT,
            env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        )  # fmt: skip
    if done.returncode not in (0, 1):
        raise SystemExit(f"{mutant.name}: the runner failed ({done.returncode}): {done.stderr}")
    report = json.loads(done.stdout)
    failures = report["failures"]
    return bool(failures), len(failures), failures[0]["case"] if failures else ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", default=[], help="mutant names or clause IDs")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--check", action="store_true", help="only check that the patches apply")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per case")
    parser.add_argument(
        "--set", choices=("all", "first", "blind"), default="all", help="which set of mutants"
    )
    parser.add_argument(
        "--equivalent",
        action="store_true",
        help="run the mutants argued equivalent too: each must survive (a killed one is not)",
    )
    parser.add_argument(
        "--every",
        type=int,
        default=1,
        metavar="K",
        help="every K-th mutant only, a sample over every family (CI runs --every 4)",
    )
    args = parser.parse_args(argv)
    pool = {"all": MUTANTS, "first": FIRST, "blind": BLIND}[args.set][:: max(args.every, 1)]
    chosen = [
        mutant
        for mutant in pool
        if not args.only or mutant.name in args.only or set(args.only) & set(mutant.clauses)
    ]
    if args.list:
        for mutant in chosen:
            note = " (equivalent)" if mutant.equivalent else ""
            print(f"{mutant.name:45} {' '.join(mutant.clauses)}{note}")
        return 0
    bad = check_patches(chosen)
    if bad or args.check:
        print("\n".join(bad) or f"{len(chosen)} patches apply")
        return 1 if bad else 0
    tally: dict[str, list[int]] = {}
    survivors = []
    started = time.monotonic()
    for mutant in chosen:
        if mutant.equivalent and not args.equivalent:
            print(f"equivalent {mutant.name}: {mutant.equivalent}")
            continue
        killed, failing, first = run_mutant(mutant, args.timeout)
        if mutant.equivalent:
            print(f"{'KILLED  ' if killed else 'survived'} {mutant.name:45} (argued equivalent)")
            if killed:
                survivors.append(mutant.name)
            continue
        print(
            f"{'killed  ' if killed else 'SURVIVED'} {mutant.name:45} "
            + (f"{failing} failing, first {first}" if killed else " ".join(mutant.clauses))
        )
        for clause in mutant.clauses:
            counts = tally.setdefault(clause, [0, 0])
            counts[0] += killed
            counts[1] += 1
        if not killed:
            survivors.append(mutant.name)
    print("\nMutation score by clause (killed/mutants):")
    for clause in sorted(tally):
        print(f"  {clause}: {tally[clause][0]}/{tally[clause][1]}")
    scored = [mutant for mutant in chosen if not mutant.equivalent]
    equivalent = {mutant.name for mutant in chosen if mutant.equivalent}
    killed_count = len(scored) - len([name for name in survivors if name not in equivalent])
    print(
        f"{killed_count} of {len(scored)} mutants killed, {len(equivalent)} argued equivalent"
        + (f" ({len(equivalent & set(survivors))} of them killed)" if args.equivalent else "")
        + f", in {time.monotonic() - started:.0f} s"
    )
    return 1 if survivors else 0


if __name__ == "__main__":
    raise SystemExit(main())
