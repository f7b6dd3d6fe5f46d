"""``outofgears view``: one self-contained HTML page that steps through a game log."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from outofgears.clauses import paraphrase
from outofgears.cli.main import main
from outofgears.judge.replay import replay_log
from outofgears.log import read_log
from outofgears.pictures.viewer import game_data, game_html

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DISPUTED = str(EXAMPLES / "disputed.log.json")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def page_data(page: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert match is not None
    data = json.loads(match[1])
    assert isinstance(data, dict)
    return data


def test_view_writes_one_page_with_every_turn_and_no_outside_resource(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    code, _, err = run("view", DISPUTED, "-o", str(out), "--docs-url", "https://d.example/x/")
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    data = page_data(page)
    replay = replay_log(read_log(DISPUTED))
    turns = data["turns"]
    assert isinstance(turns, list)
    assert [t["turn"] for t in turns] == [t.turn for t in replay.turns] == [1, 2, 3, 4]
    # no script, style, picture or font from anywhere but the page itself
    assert not re.search(r'<(?:script|img|link|iframe)[^>]+(?:src|href)="(?!data:)', page)
    assert "default-src 'none'" in page
    for turn in turns:
        assert turn["before"].startswith("data:image/svg+xml;base64,")
        assert turn["after"].startswith("data:image/svg+xml;base64,")
    assert data["start"] == 0


def test_every_event_names_its_clause_linked_to_the_docs_site() -> None:
    data = game_data(replay_log(read_log(DISPUTED)), "https://d.example/x")
    events = [e for t in data["turns"] for e in t["events"]]
    assert events
    for event in events:
        assert event["text"].endswith(f"[{event['clause']}]")
        assert event["url"].startswith("https://d.example/x/spec/")
        assert event["url"].endswith(f"#{event['clause'].lower()}")
    assert all(
        e["url"] is None
        for t in game_data(replay_log(read_log(DISPUTED)))["turns"]
        for e in t["events"]
    )


def test_without_a_docs_site_every_cited_clause_is_explained_in_the_page_itself() -> None:
    data = game_data(replay_log(read_log(DISPUTED)))
    cited = {e["clause"] for t in data["turns"] for e in (*t["events"], *t["departures"])}
    clauses = {clause for clause in cited if not clause.startswith("R-") and clause}
    assert clauses
    assert set(data["clauses"]) == clauses
    assert data["clauses"]["TURN-1"] == paraphrase("TURN-1")
    page = game_html(replay_log(read_log(DISPUTED)), title="t")
    assert '"TURN-1":"' in page


def test_the_departing_turn_carries_its_departures_and_the_others_none() -> None:
    data = game_data(replay_log(read_log(DISPUTED)))
    departing = {t["turn"]: len(t["departures"]) for t in data["turns"]}
    assert departing[1] == departing[2] == departing[3] == 0
    assert departing[4] >= 1
    first = data["turns"][3]["departures"][0]
    assert first["text"].startswith("turn 4, ")
    assert data["scores"][0]
    assert len(data["scores"]) == 5


def test_turn_opens_the_page_at_that_turn_and_an_absent_turn_is_refused(tmp_path: Path) -> None:
    code, page, _ = run("view", DISPUTED, "-o", "-", "--turn", "4")
    assert code == 0
    assert page_data(page)["start"] == 3
    code, _, err = run("view", DISPUTED, "-o", str(tmp_path / "g.html"), "--turn", "9")
    assert code == 2
    assert "--turn 9: the log's turns are 1 to 4" in err
    assert not (tmp_path / "g.html").exists()


def test_an_existing_file_is_kept_without_force(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    out.write_text("mine", encoding="utf-8")
    code, _, err = run("view", DISPUTED, "-o", str(out))
    assert code == 2
    assert "exists" in err
    assert out.read_text(encoding="utf-8") == "mine"
    assert run("view", DISPUTED, "-o", str(out), "--force")[0] == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_decision_the_log_leaves_to_the_default_policy_is_marked_inferred() -> None:
    replay = replay_log(read_log(DISPUTED))
    data = game_data(replay)
    marked = [(t["turn"], e["text"]) for t in data["turns"] for e in t["events"] if e["inferred"]]
    # the disputed log records no choice: every assembly of its turns is the default pick
    assemblies = [
        (t["turn"], e["text"])
        for t in data["turns"]
        for e in t["events"]
        if e["clause"] == "ASM-1" and "circuit" in e["text"]
    ]
    assert assemblies
    assert set(assemblies) <= set(marked)
    others = {text for _, text in marked} - {text for _, text in assemblies}
    assert others == {"dump 4 shared by robots 1, 4: 1 each, none left [SPL-1]"}
