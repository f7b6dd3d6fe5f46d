"""A turn that departs in more than one way: each departure cites the rule it breaks, and says
only what the table could have chosen that changes that value (issue 31, point 7).

The logs are what a table writes after a turn it played wrongly: gears and scores, never the
decisions. Each test reads the departures as ``replay`` reports them, in English, Italian and
French, and as ``replay --format json`` gives them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from click.testing import CliRunner

from outofgears import Options, gears
from outofgears.cli.main import main
from outofgears.judge.departures import Departure
from outofgears.judge.replay import replay_log
from outofgears.log import (
    GameLog,
    PositionRecord,
    Recorded,
    RobotGears,
    Start,
    TurnRecord,
    dump_log,
)
from outofgears.rules.gears import Gear
from outofgears.rules.model import Place
from outofgears.rules.programs import parse_program
from outofgears.words import numbers_text, taken_each_text
from outofgears.words.findings import (
    AssemblyDeclined,
    AssemblyOptions,
    ClosestOutcome,
    ScoreCount,
    SplitOptions,
    SplitQuotas,
    StealFromCircuit,
    StealOptions,
    departure_lines,
)

LANGUAGES = ("en", "it", "fr")


def one_turn(
    programs: Mapping[int, str],
    recorded: Recorded,
    *,
    feet: Mapping[int, tuple[Gear, ...]],
    circuit: Mapping[int, tuple[Gear, ...]] | None = None,
    dumps: Mapping[int, tuple[Gear, ...]],
    options: Options | None = None,
) -> GameLog:
    """A one-turn log from a position, one player per robot (``P1``...)."""
    circuit = circuit or {}
    position = PositionRecord(
        robots={n: RobotGears(feet=feet.get(n, ()), circuit=circuit.get(n, ())) for n in dumps},
        dumps=dict(dumps),
        reserve=gears(8, 8, 8, 8, 8, 8),
    )
    turn = TurnRecord(
        1, {robot: parse_program(text) for robot, text in programs.items()}, recorded=recorded
    )
    return GameLog(
        players={f"P{n}": (n,) for n in dumps},
        start=Start(position=position),
        turns=(turn,),
        options=options or Options(),
    )


def departures_of(log: GameLog) -> dict[str, Departure]:
    """The departures of a log, by what departs (``"robot 1 feet"``, ``"P1's score"``)."""
    return {departure.what: departure for departure in replay_log(log).departures}


def replay_json(log: GameLog) -> dict[str, dict[str, Any]]:
    result = CliRunner().invoke(main, ["replay", "-", "--format", "json"], input=dump_log(log))
    assert result.exit_code == 1, result.output
    return {d["what"]: d for d in json.loads(result.output)["departures"]}


def circuit_steal_and_miscounted_score() -> GameLog:
    # Under --defence-steal-source feet_only, robot 2 attacks robot 1, which defends: robot 1
    # may take only the yellow gear at robot 2's feet. The table took the blue one from robot
    # 2's circuit, and wrote down 9 points for P1 besides (one gear is 1 point).
    return one_turn(
        {1: "attack 1", 2: "attack 1"},
        Recorded(
            robots={1: RobotGears(feet=gears(5)), 2: RobotGears(circuit=gears(6))},
            scores={"P1": 9},
        ),
        feet={2: gears(3)},
        circuit={2: gears(5, 6)},
        dumps={1: (), 2: ()},
        options=Options(defence_steal_source="feet_only"),
    )


def test_a_steal_from_the_circuit_beside_a_miscounted_score_cites_atk_4_for_the_steal() -> None:
    found = departures_of(circuit_steal_and_miscounted_score())
    assert set(found) == {"robot 1 feet", "robot 2 circuit", "P1's score"}
    for what in ("robot 1 feet", "robot 2 circuit"):
        assert found[what].clause == "ATK-4"
        assert found[what].why == StealFromCircuit(((1, gears(5)[0], Place.circuit(2)),))
    assert found["P1's score"].clause == "END-2"
    assert isinstance(found["P1's score"].why, ScoreCount)


def test_the_steal_from_the_circuit_has_its_clause_in_the_json_too() -> None:
    found = replay_json(circuit_steal_and_miscounted_score())
    assert {what: d["clause"] for what, d in found.items()} == {
        "robot 1 feet": "ATK-4",
        "robot 2 circuit": "ATK-4",
        "P1's score": "END-2",
    }
    assert found["robot 2 circuit"]["reason"] == (
        "robot 1 took 1 blue from robot 2 circuit: under defence_steal_source='feet_only' a "
        "defender takes from the attacker's feet only (ATK-4)"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_steal_from_the_circuit_is_reported_with_its_clause_in_every_language(
    lang: str,
) -> None:
    found = departures_of(circuit_steal_and_miscounted_score())
    nothing_moved = {
        "en": "no gear moved there",
        "it": "nessuna rotella è arrivata lì",
        "fr": "aucun engrenage n'y est arrivé",
    }[lang]
    clause = {"en": "clause: ", "it": "clausola: ", "fr": "clause : "}[lang]
    for what in ("robot 1 feet", "robot 2 circuit"):
        lines = departure_lines(found[what], lang)
        assert f"  {clause}ATK-4 (" in "\n".join(lines)
        assert "--defence-steal-source feet_only" in "\n".join(lines) or lang == "en"
        assert not any(nothing_moved in line for line in lines)
    assert f"  {clause}END-2 (" in "\n".join(departure_lines(found["P1's score"], lang))


def test_declining_to_assemble_beside_a_miscounted_score_cites_asm_1_and_no_pair_for_the_score() -> (
    None
):
    # Under mandatory assembly robot 1 must move two of its four gears into its circuit; the
    # table wrote all four at its feet, and 99 points.
    found = departures_of(
        one_turn(
            {1: "attack 1", 2: "attack 2"},
            Recorded(robots={1: RobotGears(feet=gears(1, 2, 3, 6))}, scores={"P1": 99}),
            feet={1: gears(1, 2, 3, 6)},
            dumps={1: (), 2: ()},
        )
    )
    assert found["robot 1 feet"].clause == "ASM-1"
    assert found["robot 1 feet"].why == AssemblyDeclined()
    assert found["robot 1 feet"].options is not None
    assert [type(option) for option in found["robot 1 feet"].options] == [AssemblyOptions]
    score = found["P1's score"]
    assert score.clause == "END-2"
    # An assembly moves gears within one robot: it never changes a score (END-2).
    assert score.options == ()
    assert score.allowed == "no choice of this turn changes this value"


def victim_who_harvested() -> GameLog:
    # Robot 1 attacks robot 2, which harvests dump 2 in the same turn: robot 1 takes robot 2's
    # red and yellow (ATK-6), then robot 2 takes the green of dump 2 (HRV-2). The table left
    # the red and the yellow with robot 2.
    return one_turn(
        {1: "attack 2", 2: "harvest 2"},
        Recorded(robots={2: RobotGears(feet=gears(1, 3, 4))}),
        feet={2: gears(1, 3)},
        dumps={1: (), 2: gears(4)},
    )


def test_gears_left_with_an_attacks_victim_that_harvested_are_the_attacks_atk_6() -> None:
    [departure] = replay_log(victim_who_harvested()).departures
    assert departure.what == "robot 2 feet"
    assert departure.clause == "ATK-6"
    assert [event.clause for event in departure.events] == ["ATK-6", "ATK-6", "HRV-2"]


def test_a_harvest_the_table_forgot_is_still_the_harvests_hrv_2() -> None:
    # The same turn, written with robot 2's feet empty: the attack was right, the green of
    # dump 2 is missing.
    log = one_turn(
        {1: "attack 2", 2: "harvest 2"},
        Recorded(robots={2: RobotGears(feet=())}),
        feet={2: gears(1, 3)},
        dumps={1: (), 2: gears(4)},
    )
    [departure] = replay_log(log).departures
    assert departure.clause == "HRV-2"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_victims_gears_cite_atk_6_in_every_language_and_in_the_json(lang: str) -> None:
    [departure] = replay_log(victim_who_harvested()).departures
    clause = {"en": "clause: ", "it": "clausola: ", "fr": "clause : "}[lang]
    assert any(line.startswith(f"  {clause}ATK-6 (") for line in departure_lines(departure, lang))
    [as_json] = replay_json(victim_who_harvested()).values()
    assert as_json["clause"] == "ATK-6"


def a_busy_turn(recorded: Recorded) -> GameLog:
    # Robot 1 attacks robot 2, which defends (a steal from robot 1); robots 3 and 4 share
    # dump 3 (a red, a blue, two purples: two gears each, several ways); robot 2, with four
    # gears at its feet after the steal, assembles two of them.
    return one_turn(
        {1: "attack 2", 2: "attack 2", 3: "harvest 3", 4: "harvest 3"},
        recorded,
        feet={1: gears(2, 3), 2: gears(1, 4, 5)},
        circuit={1: gears(5)},
        dumps={1: (), 2: (), 3: gears(1, 5, 6, 6), 4: ()},
    )


def test_each_departure_of_a_busy_turn_lists_only_the_choices_that_change_it() -> None:
    found = departures_of(
        a_busy_turn(
            Recorded(
                robots={3: RobotGears(feet=gears(1, 1)), 2: RobotGears(circuit=gears(3, 6))},
                scores={"P2": 30},
                dumps={3: gears(6)},
            )
        )
    )
    kinds = {what: {type(o) for o in d.options or ()} for what, d in found.items()}
    # Robot 3's feet: only the split of dump 3 it took part in, and its closest outcome.
    assert kinds["robot 3 feet"] == {SplitOptions, SplitQuotas, ClosestOutcome}
    # Robot 2's circuit: its own assembly and the steal that brought it a gear.
    assert kinds["robot 2 circuit"] == {AssemblyOptions, StealOptions, ClosestOutcome}
    assert [
        o.robot for o in found["robot 2 circuit"].options or () if isinstance(o, AssemblyOptions)
    ] == [2]
    # P2's score: the steal, never an assembly, never the split it took no part in.
    assert kinds["P2's score"] == {StealOptions}
    # Dump 3: every way of the split takes the whole dump, so none leaves it another gear.
    assert found["dump 3"].options == ()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_scores_options_name_no_assembly_in_any_language(lang: str) -> None:
    found = departures_of(a_busy_turn(Recorded(scores={"P2": 30})))
    text = "\n".join(departure_lines(found["P2's score"], lang))
    assembly = {"en": "could assemble", "it": "poteva assemblare", "fr": "pouvait assembler"}
    steal = {"en": "could take one gear", "it": "poteva prendere", "fr": "pouvait prendre"}
    assert assembly[lang] not in text
    assert steal[lang] in text


def test_the_split_takers_read_as_robots_not_as_a_list_with_the_share() -> None:
    assert [taken_each_text([1, 3], 2, lang) for lang in LANGUAGES] == [
        "robots 1 and 3 took 2 gears each",
        "i robot 1 e 3 hanno preso 2 rotelle ciascuno",
        "les Robots 1 et 3 ont pris 2 engrenages chacun",
    ]
    assert [taken_each_text([2, 4, 5], 1, lang) for lang in LANGUAGES] == [
        "robots 2, 4 and 5 took 1 gear each",
        "i robot 2, 4 e 5 hanno preso 1 rotella ciascuno",
        "les Robots 2, 4 et 5 ont pris 1 engrenage chacun",
    ]
    assert numbers_text([7], "it") == "7"


@pytest.mark.parametrize(("takers", "share"), [([1], 2), ([1, 2], -1), ("12", 1), ([1, 2], True)])
def test_a_split_of_fewer_than_two_takers_or_no_share_is_refused(
    takers: object, share: object
) -> None:
    from outofgears.errors import ArgumentTypeError

    with pytest.raises(ArgumentTypeError):
        taken_each_text(takers, share, "en")  # type: ignore[arg-type]
