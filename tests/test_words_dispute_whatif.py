"""``dispute --lang`` and ``whatif --lang``: the rules lawyer's two reports in Italian and French
with no English word left, from the words ``replay`` and ``explain`` use; in English as before;
the JSON the same in every language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from outofgears.cli.dispute import Dispute, dispute_text, dispute_turn
from outofgears.cli.main import main
from outofgears.cli.reports import undecided_line
from outofgears.cli.whatif import WhatIf, what_if, whatif_text
from outofgears.errors import IllegalProgramError, InvalidStateError
from outofgears.judge.compare import StateDifference, refused_choice
from outofgears.judge.replay import TurnReplay, replay_log
from outofgears.judge.start import spec_note_facts
from outofgears.log import GameLog, Recorded, RobotGears, dump_log
from outofgears.rules.gears import describe_gears, gears
from outofgears.rules.model import GameState, Options, Place, UpgradeCard
from outofgears.rules.programs import PROGRAM_TEXTS
from outofgears.rules.refusals import Refusal
from outofgears.words import LANGUAGES
from outofgears.words.findings import (
    GameEnd,
    HeldCard,
    Over,
    Points,
    ReserveHeld,
    ScoreOf,
    UpgradeOf,
    fact_text,
    refusal_text,
)
from tests.cli.test_dispute import circuit_steal_log, declined_assembly_log
from tests.test_replay_search_budget import four_share_a_dump
from tests.test_words import english_left, shipped_replays

FOREIGN = LANGUAGES[1:]


def player_names(state: GameState) -> set[str]:
    return {player.name for player in state.players}


@cache
def shipped_disputes() -> tuple[tuple[str, Dispute, set[str]], ...]:
    """Every turn of every shipped example log under every reading, with its player names."""
    found = []
    for name, replayed in shipped_replays():
        notes = spec_note_facts(replayed.log)
        for turn in replayed.turns:
            found.append(
                (name, Dispute(turn, dispute_turn(turn), notes), player_names(replayed.start))
            )
    return tuple(found)


def what_ifs(turn: TurnReplay) -> Iterator[WhatIf]:
    """The turn with each robot's program replaced by each program the rules allow it (its own
    included: a what-if that changes nothing)."""
    for robot in sorted(turn.programs):
        for program in PROGRAM_TEXTS.values():
            try:
                yield what_if(turn, robot, program)
            except (IllegalProgramError, InvalidStateError):
                continue


@cache
def shipped_what_ifs() -> tuple[tuple[str, WhatIf, set[str]], ...]:
    """Every program the rules allow in place of every program of every shipped example."""
    return tuple(
        (name, result, player_names(replayed.start))
        for name, replayed in shipped_replays()
        for turn in replayed.turns
        for result in what_ifs(turn)
    )


def test_the_shipped_reports_show_every_kind_of_line() -> None:
    """The checks below read refused choices, changed outcomes, events on either side, records
    legal under some readings only, inferred choices and open positions, not only quiet turns."""
    disputes = "\n".join(
        line for name, result, _ in shipped_disputes() for line in dispute_text(result, name)
    )
    for seen in (
        "Logged choices: robot",
        "Choices inferred from what was recorded:",
        "Open: ",
        "what was recorded: not legal",
        "what was recorded: legal (a legal play gives it)",
        "same outcome as logged",
    ):
        assert seen in disputes, seen
    what_if_lines = "\n".join(
        line for name, result, _ in shipped_what_ifs() for line in whatif_text(result, name)
    )
    for seen in (
        "choice refused",
        "The what-if changes nothing on this turn.",
        "Events only in the original:",
        "Events only in the what-if:",
        "After the turn the position is the same.",
        "'s upgrade card: ",
        "game over: ",
        " circuit: ",
        "dump ",
    ):
        assert seen in what_if_lines, seen


@pytest.mark.parametrize("lang", FOREIGN)
def test_dispute_of_every_shipped_turn_holds_no_english_word(lang: str) -> None:
    found = {
        word: f"dispute {name} --turn {result.replayed.turn}: {line!r}"
        for name, result, names in shipped_disputes()
        for word, line in english_left(dispute_text(result, name, lang), lang, names).items()
    }
    assert not found, "\n".join(f"{word!r} in {where}" for word, where in sorted(found.items()))


@pytest.mark.parametrize("lang", FOREIGN)
def test_whatif_of_every_shipped_turn_and_program_holds_no_english_word(lang: str) -> None:
    found = {
        word: f"whatif {name} --turn {result.replayed.turn} --robot {result.robot}: {line!r}"
        for name, result, names in shipped_what_ifs()
        for word, line in english_left(whatif_text(result, name, lang), lang, names).items()
    }
    assert not found, "\n".join(f"{word!r} in {where}" for word, where in sorted(found.items()))


def test_the_english_check_finds_english_in_the_english_reports() -> None:
    """The check is not blind to these reports: their English words are found in them."""
    name, result, names = next(d for d in shipped_disputes() if d[1].replayed.record.choices)
    for lang in FOREIGN:
        assert {"reading", "outcome", "logged"} <= set(
            english_left(dispute_text(result, name), lang, names)
        )
    name, changed, names = next(w for w in shipped_what_ifs() if w[1].difference.events.only_base)
    for lang in FOREIGN:
        assert {"events", "only", "original"} <= set(
            english_left(whatif_text(changed, name), lang, names)
        )


def test_the_english_facts_read_as_the_rules_and_the_errors_write_them() -> None:
    """In English a difference's gears are :func:`describe_gears`'s words and a refused choice
    is the error's own message: the English of the reports is what it was."""
    differences = [
        item
        for _, result, _ in shipped_what_ifs()
        for item in result.difference.state
        if item.base_gears is not None and item.other_gears is not None
    ]
    assert len(differences) > 100
    for item in differences:
        assert (item.base, item.other) == (
            describe_gears(item.base_gears or ()),
            describe_gears(item.other_gears or ()),
        )
        assert item.what == str(item.subject)
    refused = [
        error
        for _, result, _ in shipped_what_ifs()
        for error in (*result.original.refused, *result.changed.refused)
    ]
    assert len(refused) > 20
    for error in refused:
        assert fact_text(refused_choice(error), "en") == str(error)


#: A difference of each kind a turn can make, the reserve's included (no shipped turn has it).
DIFFERENCES = (
    StateDifference(Place.feet(3), gears(1, 1), ()),
    StateDifference(Place.circuit(2), (), gears(5)),
    StateDifference(Place.dump(4), gears(6), gears(6, 7)),
    StateDifference(Place.reserve(), ReserveHeld(gears(1, 2)), ReserveHeld(gears(1))),
    StateDifference(Place.reserve(), ReserveHeld(gears(3)), ReserveHeld(())),
    StateDifference(ScoreOf("Ada"), Points(1), Points(4)),
    StateDifference(UpgradeOf("Ada"), HeldCard(UpgradeCard.SUPER_SHOVEL), HeldCard(None)),
    StateDifference(UpgradeOf("Bo"), HeldCard(None), HeldCard(UpgradeCard.COUNTER_DEFENCE)),
    StateDifference(GameEnd(), Over(False), Over(True)),
    StateDifference(GameEnd(), Over(True), Over(False)),
)


def test_every_kind_of_difference_reads_in_english_as_before() -> None:
    assert [item.describe("as logged") for item in DIFFERENCES] == [
        "robot 3 feet: none (as logged: 2 red)",
        "robot 2 circuit: 1 blue (as logged: none)",
        "dump 4: 1 purple, 1 grey (as logged: 1 purple)",
        "reserve: 1 gear: 1 red (as logged: 2 gears: 1 red, 1 orange)",
        "reserve: 0 gears: none (as logged: 1 gear: 1 yellow)",
        "Ada's score: 4 points (as logged: 1 point)",
        "Ada's upgrade card: none (as logged: super shovel)",
        "Bo's upgrade card: counter defence (as logged: none)",
        "game over: yes (as logged: no)",
        "game over: no (as logged: yes)",
    ]


@pytest.mark.parametrize("lang", FOREIGN)
def test_every_kind_of_difference_reads_with_no_english_word(lang: str) -> None:
    lines = [item.describe("x", lang) for item in DIFFERENCES]
    assert not english_left(lines, lang, {"Ada", "Bo"}), lines
    assert len(set(lines)) == len(lines)


# --- the command line ---------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def write_log(path: Path, log: GameLog) -> str:
    path.write_text(dump_log(log), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("lang", FOREIGN)
def test_a_circuit_steal_disputed_names_the_rule_it_breaks_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    """Robot 2 took a gear from robot 1's circuit: under --defence-steal-source feet_only the
    rules refuse it (ATK-4), and the report says so in the reader's words, naming the readings
    as the command line writes them."""
    path = write_log(tmp_path / "steal.log.json", circuit_steal_log())
    code, english, _ = run("dispute", path, "--turn", "1")
    code_in, report, _ = run("dispute", path, "--turn", "1", "--lang", lang)
    assert code == code_in == 0
    [refusal] = {
        error.refusal
        for outcome in dispute_turn(replay_log(circuit_steal_log()).turns[0])
        for error in outcome.resolution.refused
    }
    assert isinstance(refusal, Refusal)
    lines = report.splitlines()
    refused = [line for line in lines if f"{refusal_text(refusal, lang)} (ATK-4)" in line]
    assert len(refused) == 2  # feet_only, with either assembly
    assert "Circuit" in refused[0]
    assert "`--defence-steal-source feet_only --assembly mandatory`" in report
    assert english.count("\n") == report.count("\n")
    assert not english_left(lines, lang, {"Ada", "Bo", "Cy"}), report


@pytest.mark.parametrize("lang", FOREIGN)
def test_a_declined_assembly_departs_under_mandatory_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    """A player declined to assemble under --assembly optional: the readings that make assembly
    mandatory refuse it (ASM-1), and the record is legal under some readings only."""
    log = declined_assembly_log(Options(assembly="optional"))
    recorded = Recorded(robots={3: RobotGears(feet=gears(1, 2, 3), circuit=())})
    log = attrs.evolve(log, turns=(attrs.evolve(log.turns[0], recorded=recorded),))
    path = write_log(tmp_path / "declined.log.json", log)
    code, english, _ = run("dispute", path, "--turn", "1")
    assert code == 0
    assert "What was recorded is legal only under:" in english
    assert "choice refused under this reading: robot 3:" in english
    code, report, _ = run("dispute", path, "--turn", "1", "--lang", lang)
    assert code == 0
    assert "(ASM-1)" in report
    assert not english_left(report.splitlines(), lang, {"Ada", "Bo", "Cy"}), report


@pytest.mark.parametrize("lang", FOREIGN)
def test_a_whatif_that_refuses_a_logged_choice_says_why_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    """Robot 1 harvests instead of attacking: robot 2's logged steal from its circuit is refused
    in the what-if (it did not attack), and the report says so in the reader's words."""
    path = write_log(tmp_path / "steal.log.json", circuit_steal_log())
    args = ("whatif", path, "--turn", "1", "--robot", "1", "--program", "harvest 1")
    code, english, _ = run(*args)
    assert code == 0
    assert "! what-if: choice refused: robot 2:" in english
    code, report, _ = run(*args, "--lang", lang)
    assert code == 0
    assert "(ATK-4)" in report
    assert not english_left(report.splitlines(), lang, {"Ada", "Bo", "Cy"}), report


def undecided_log() -> GameLog:
    """Four robots share a dump of 44 gears and only a score is recorded: the split has too many
    ways to try, and the log is undecided at turn 1."""
    log = four_share_a_dump(11)
    recorded = attrs.evolve(log.turns[0], recorded=Recorded(scores={"P1": 22}))
    return attrs.evolve(log, turns=(recorded,))


@pytest.mark.parametrize("lang", FOREIGN)
def test_an_undecided_log_is_refused_with_replays_verdict_in_the_readers_language(
    tmp_path: Path, lang: str
) -> None:
    path = write_log(tmp_path / "undecided.log.json", undecided_log())
    undecided = replay_log(undecided_log()).undecided
    assert undecided is not None
    commands = (
        ("dispute", path, "--turn", "1"),
        ("whatif", path, "--turn", "1", "--robot", "1", "--program", "harvest 2"),
    )
    for command in commands:
        code, _, english = run(*command)
        assert code == 4
        assert "undecided: the split of dump 1 at turn 1" in english
        assert english.startswith("Error: ")
        code, out, error = run(*command, "--lang", lang)
        assert (code, out) == (4, "")
        assert undecided_line(undecided, lang) in error
        assert not error.startswith("Error:")
        assert not english_left(error.splitlines(), lang, {"P1"}), error


@pytest.mark.parametrize("command", ["dispute", "whatif"])
def test_the_json_is_the_same_in_every_language(tmp_path: Path, command: str) -> None:
    path = write_log(tmp_path / "steal.log.json", circuit_steal_log())
    args = [command, path, "--turn", "1", "--format", "json"]
    if command == "whatif":
        args += ["--robot", "1", "--program", "harvest 1"]
    outputs = []
    for lang in LANGUAGES:
        code, out, _ = run(*args, "--lang", lang)
        assert code == 0
        outputs.append(json.loads(out))
    assert outputs[0] == outputs[1] == outputs[2]
    assert "ATK-4" in json.dumps(outputs[0])


def test_the_english_report_is_the_default(tmp_path: Path) -> None:
    path = write_log(tmp_path / "steal.log.json", circuit_steal_log())
    for command in (
        ["dispute", path, "--turn", "1"],
        ["whatif", path, "--turn", "1", "--robot", "1", "--program", "harvest 1"],
    ):
        assert run(*command) == run(*command, "--lang", "en")


@pytest.mark.parametrize("lang", FOREIGN)
def test_explain_refuses_an_undecided_log_in_the_readers_language_too(
    tmp_path: Path, lang: str
) -> None:
    path = write_log(tmp_path / "undecided.log.json", undecided_log())
    code, _, english = run("explain", path, "--turn", "1")
    assert code == 4
    assert english.startswith("Error: ")
    assert "undecided: the split" in english
    code, _, error = run("explain", path, "--turn", "1", "--lang", lang)
    assert code == 4
    assert not error.startswith("Error:")
    assert not english_left(error.splitlines(), lang, {"P1"}), error
