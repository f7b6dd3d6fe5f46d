"""``outofgears view``: one self-contained HTML page that steps through a game log."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from outofgears.clauses import paraphrase
from outofgears.cli.main import main
from outofgears.judge.replay import replay_log
from outofgears.log import (
    dump_log,
    read_log,
    read_log_text,
)
from outofgears.pictures.viewer import PAGE_TURNS, game_data, game_html
from outofgears.rules.scoring import score_robot
from tests.log_samples import two_robots_fighting

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
        # the clause is shown beside the text (a link), not a second time inside it
        assert not event["text"].endswith("]")
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
    assert first["text"] == "robot 1's feet: the table wrote none; the rules give 1 red, 1 orange."
    assert first["path"] == "$.turns[3].recorded.robots.1.feet"
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
    assert others == {"dump 4 shared by robots 1, 4: 1 each, none left"}


def test_departures_are_told_in_the_players_words_with_the_json_path_only_on_request() -> None:
    replay = replay_log(read_log(DISPUTED))
    departures = game_data(replay)["turns"][3]["departures"]
    scores = [d for d in departures if d["clause"] == "END-2"]
    assert [d["text"] for d in scores] == [
        "Ada's score: the table wrote 0 points; the rules give 3 points.",
        "Chiara's score: the table wrote 2 points; the rules give 0 points.",
    ]
    # the points added up by the worth of the gears, with no "gear(s)" and no clause twice
    assert (
        scores[0]["reason"]
        == "robot 1's gears: 1 \N{MULTIPLICATION SIGN} 2 + 1 \N{MULTIPLICATION SIGN} 1 = 3 points"
    )
    assert scores[1]["reason"] == "robot 3's gears: 0 = 0 points"
    for departure in departures:
        assert "$." not in departure["text"] + departure["reason"]
        assert "(s)" not in departure["text"] + departure["reason"]
        assert departure["path"].startswith("$.turns[3].")
    italian = game_data(replay, lang="it")["turns"][3]["departures"]
    assert italian[0]["text"] == (
        "piedi del robot 1: al tavolo \u00e8 stato scritto nessuna; le regole danno "
        "1 rossa, 1 arancione."
    )
    assert italian[2]["reason"].startswith("rotelle del robot 1: ")


def test_the_page_is_titled_by_the_players_and_the_date_and_each_picture_says_its_table(
    tmp_path: Path,
) -> None:
    out = tmp_path / "game.html"
    log = shutil.copy(DISPUTED, tmp_path / "d.json")
    os.utime(log, (0, 1_700_000_000))
    assert run("view", str(log), "-o", str(out))[0] == 0
    page = out.read_text(encoding="utf-8")
    assert "<title>Out of Gears: Ada, Bruno, Chiara, Dario \N{EM DASH} 2023-11-14</title>" in page
    turn = page_data(page)["turns"][3]  # type: ignore[index]
    # the alternative text is the table's own description, and the after picture is the
    # table after turn 4, not "Turn 5"
    assert turn["before_alt"].startswith("Before turn 4.\nRobot 1 (red, Ada, ")
    assert turn["after_alt"].startswith("After turn 4.\nRobot 1 (red, Ada, ")
    after = base64.b64decode(turn["after"].partition(",")[2]).decode("utf-8")
    assert ">After turn 4</text>" in after
    assert ">Turn 5<" not in after
    assert "the table after turn 4" in after


def test_view_lang_gives_the_page_and_the_paraphrases_in_italian_or_french(tmp_path: Path) -> None:
    for lang, words, turn in (
        ("it", "Prima del turno, con le sue programmazioni", "Turno 1"),
        ("fr", "Avant le tour, avec ses programmations", "Tour 1"),
    ):
        code, page, _ = run("view", DISPUTED, "-o", "-", "--lang", lang)
        assert code == 0
        assert f'<html lang="{lang}">' in page
        assert words in page
        assert f">{turn}</option>" in page
        data = page_data(page)
        assert data["clauses"]["TURN-1"] == paraphrase("TURN-1", lang)  # type: ignore[index]
        assert data["words"]["turn"] == turn.replace("1", "{turn}")  # type: ignore[index]
    code, _, err = run("view", DISPUTED, "-o", "-", "--lang", "de")
    assert code == 2
    assert "Traceback" not in err


def test_docs_url_takes_only_http_and_relative_addresses(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    for hostile in (
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "data:text/html,<b>x</b>",
        "vbscript:msgbox(1)",
        "java\tscript:alert(1)",
        " javascript:alert(1)",
        "file:///etc/",
        "https:evil",
    ):
        code, _, err = run("view", DISPUTED, "-o", str(out), "--docs-url", hostile)
        assert code == 2, hostile
        assert "http:// or https:// address or a relative one" in err
        assert not out.exists()
    for fine in ("https://d.example/docs/", "HTTP://d.example", "../docs/", "/docs", "docs"):
        code, page, _ = run("view", DISPUTED, "-o", "-", "--docs-url", fine)
        assert code == 0, fine
        assert f"{fine.rstrip('/')}/spec/" in page


def test_a_hostile_player_name_cannot_end_or_open_a_script_block() -> None:
    text = Path(DISPUTED).read_text(encoding="utf-8").replace('"Ada"', '"<!--<script></script>"')
    replay = replay_log(read_log_text(text, "hostile.json"))
    page = game_html(replay, docs_url="https://d.example/")
    payload = page.split('id="game-data">', 1)[1].split("</script>", 1)[0]
    assert not {"<", ">", "&"} & set(payload)
    assert (page.count("<script"), page.count("</script>")) == (2, 2)
    data = json.loads(payload)
    assert data["turns"][3]["departures"][2]["text"].startswith("<!--<script></script>'s score")
    # the title is escaped as HTML text
    assert "<title>Out of Gears: &lt;!--&lt;script&gt;&lt;/script&gt;, Bruno" in page


def test_the_viewer_tells_the_events_and_programs_in_the_readers_language() -> None:
    """The viewer's words come from the one set of catalogues that `explain --lang` reads."""
    from outofgears.pictures.render import describe_position
    from outofgears.pictures.viewer import WORDS
    from outofgears.words import event_text, program_text

    replayed = replay_log(read_log(Path("examples/full-game.log.json")))
    first = replayed.turns[0]
    for lang in ("it", "fr"):
        turn = game_data(replayed, lang=lang)["turns"][0]
        texts = [event["text"] for event in turn["events"]]
        assert texts == [
            event_text(e, lang).removesuffix(f" [{e.clause}]") for e in first.result.events
        ]
        english = [str(e).removesuffix(f" [{e.clause}]") for e in first.result.events]
        assert not set(texts) & set(english)
        assert [p["program"] for p in turn["programs"]] == [
            program_text(program, lang) for _, program in sorted(first.programs.items())
        ]
        # the pictures and their text alternatives speak the reader's language too
        assert turn["before_alt"] == describe_position(first.before, first.programs, lang=lang)
        assert turn["before_alt"] != describe_position(first.before, first.programs)
        assert "language note" not in WORDS[lang]


def test_a_long_log_is_shown_a_page_of_turns_at_a_time(tmp_path: Path) -> None:
    log = tmp_path / "long.log.json"
    log.write_text(dump_log(two_robots_fighting(PAGE_TURNS * 2 + 5)), encoding="utf-8")
    first, last = tmp_path / "first.html", tmp_path / "last.html"
    assert run("view", str(log), "-o", str(first))[0] == 0
    code, _, err = run("view", str(log), "-o", str(last), "--turn", str(PAGE_TURNS * 2 + 3))
    assert code == 0, err
    opening: Any = page_data(first.read_text(encoding="utf-8"))
    assert [t["turn"] for t in opening["turns"]] == list(range(1, PAGE_TURNS + 1))
    page = last.read_text(encoding="utf-8")
    closing: Any = page_data(page)
    assert [t["turn"] for t in closing["turns"]] == list(
        range(PAGE_TURNS * 2 + 1, PAGE_TURNS * 2 + 6)
    )
    assert closing["start"] == 2
    assert (
        f"Turns {PAGE_TURNS * 2 + 1} to {PAGE_TURNS * 2 + 5} of the {PAGE_TURNS * 2 + 5} turns"
        in page
    )
    assert page.count("<option ") == 5
    # The chart starts from the position the page's first turn starts from.
    replay = replay_log(two_robots_fighting(PAGE_TURNS * 2 + 5))
    before = replay.turns[PAGE_TURNS * 2].before
    assert closing["scores"][0] == {str(r.number): score_robot(r) for r in before.robots}


def test_a_log_of_one_page_says_only_how_many_turns_it_has(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert run("view", DISPUTED, "-o", str(out))[0] == 0
    page = out.read_text(encoding="utf-8")
    assert "4 turns." in page
    assert "of the 4 turns" not in page
