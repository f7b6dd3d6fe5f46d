"""``replay``, ``explain``, ``view`` and ``render`` after a turn that follows the table (SET-8):
the departure reported, the position the game goes on from the table's, said in three
languages."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from outofgears.cli.main import main
from outofgears.judge.replay import replay_log
from outofgears.log import read_log
from outofgears.pictures.render import describe_position, render_svg
from outofgears.pictures.viewer import game_data, game_html
from outofgears.rules.scoring import score_robot
from outofgears.words.findings import TableFollowed, fact_text

FOLLOWED = str(Path(__file__).resolve().parents[2] / "examples" / "real-table-followed.log.json")
#: The turn of the example that departs and follows the table.
TURN = next(t.turn for t in replay_log(read_log(FOLLOWED)).turns if t.followed)
ENGLISH = (
    f"after turn {TURN} the game goes on from the position the table wrote down, not from the "
    "rules' (SET-8)"
)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout


@pytest.mark.clause("SET-8")
@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_replay_says_under_the_departing_turn_that_the_tables_position_is_followed(
    lang: str,
) -> None:
    code, output = run("replay", FOLLOWED, "--lang", lang)
    said = fact_text(TableFollowed(TURN), lang)
    assert code == 1
    assert f"  {said}" in output.splitlines()
    assert output.count(said) == 1
    assert (said == ENGLISH) == (lang == "en")


def test_replay_quiet_notes_the_followed_turn_before_the_scores() -> None:
    code, output = run("replay", FOLLOWED, "--quiet")
    lines = output.splitlines()
    assert code == 1
    assert f"Note: {ENGLISH}" in lines
    assert lines.index(f"Note: {ENGLISH}") < next(
        i for i, line in enumerate(lines) if line.startswith("Scores after")
    )


def test_replay_json_marks_the_followed_turn_and_counts_the_scores_from_the_tables_position() -> (
    None
):
    code, output = run("replay", FOLLOWED, "--format", "json")
    data: dict[str, Any] = json.loads(output)
    assert code == 1
    assert [t["turn"] for t in data["turns"] if t["followed"]] == [TURN]
    final = replay_log(read_log(FOLLOWED)).final
    points = {s["robot"]: s["points"] for s in data["final"]["scores"]}
    assert points == {robot.number: score_robot(robot) for robot in final.robots}


@pytest.mark.clause("SET-8")
def test_explain_shows_the_tables_position_after_the_turn_and_says_so() -> None:
    replayed = replay_log(read_log(FOLLOWED))
    turn = replayed.turn(TURN)
    code, output = run("explain", FOLLOWED, "--turn", str(TURN), "--format", "json")
    data = json.loads(output)
    assert code == 1
    assert data["followed"] is True
    robot = next(r.number for r in turn.after.robots if r != turn.result.state.robot(r.number))
    written = data["after"]["robots"][str(robot)]["circuit"]
    assert sorted(written) == sorted(str(g) for g in turn.after.robot(robot).circuit)
    code, text = run("explain", FOLLOWED, "--turn", str(TURN))
    lines = text.splitlines()
    after = next(i for i, line in enumerate(lines) if line.startswith(f"After turn {TURN} "))
    assert lines[after + 1] == f"  {ENGLISH}"


@pytest.mark.parametrize("lang", ["en", "it", "fr"])
def test_explain_of_a_later_turn_is_replayed_from_the_tables_position(lang: str) -> None:
    code, output = run("explain", FOLLOWED, "--turn", str(TURN + 1), "--lang", lang)
    assert code == 0
    first_lines = "\n".join(output.splitlines()[:3])
    english = f"this turn is replayed from the position the table wrote down after turn {TURN}"
    if lang == "en":
        assert english in first_lines
    else:
        assert english not in first_lines
        assert f"{TURN}" in first_lines
    assert "position the rules give" not in first_lines


def test_view_says_it_under_the_departures_and_draws_the_tables_position() -> None:
    replayed = replay_log(read_log(FOLLOWED))
    data = game_data(replayed, lang="it")
    turns: list[dict[str, Any]] = data["turns"]
    assert [t["turn"] for t in turns if t["followed"]] == [TURN]
    assert turns[TURN - 1]["followed"] == fact_text(TableFollowed(TURN), "it")
    table = replayed.turn(TURN).after
    assert data["scores"][TURN] == {str(r.number): score_robot(r) for r in table.robots}
    before = replayed.turn(TURN).before
    rules = replayed.turn(TURN).result.state
    told = turns[TURN - 1]["after_alt"]
    assert told == describe_position(table, before=before, lang="it")
    assert told != describe_position(rules, before=before, lang="it")
    page = game_html(replayed, lang="it")
    assert re.search(r'<p id="followed" hidden></p>', page)


def test_render_after_draws_the_position_the_table_wrote_down(tmp_path: Path) -> None:
    out = tmp_path / "after.svg"
    code, _ = run("render", FOLLOWED, "--turn", str(TURN), "--after", "-o", str(out))
    assert code == 0
    turn = replay_log(read_log(FOLLOWED)).turn(TURN)
    drawn = out.read_text(encoding="utf-8")
    assert drawn == render_svg(
        turn.after,
        title=f"Out of Gears: the table after turn {TURN}",
        before=turn.before,
    )
    assert drawn != render_svg(
        turn.result.state,
        title=f"Out of Gears: the table after turn {TURN}",
        before=turn.before,
    )
