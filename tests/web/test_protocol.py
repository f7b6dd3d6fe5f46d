"""The table in the browser's protocol, phone by phone, without a browser (Starlette's
TestClient): a whole game sealed and revealed, what no frame may hold before every seal is in,
forged, malformed, oversized, replayed and out-of-turn messages, the Origin check, the pages'
headers, a restart from the log, and record mode."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("starlette.testclient")

from click.testing import CliRunner
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from outofgears.cli.main import main as cli
from outofgears.log import read_log_text
from outofgears.log.seals import seal_commitment
from outofgears.table.room import Room, Seat, host_key, seat_key
from outofgears.web.app import CSP, MAX_MESSAGE, RATE, create_app
from tests.web.phones import (
    ORIGIN,
    SECRET,
    FileStore,
    MemoryStore,
    Table,
    make_room,
    new_log,
    table,
)


def play_to_the_end(connected: Table, rng: random.Random) -> list[str]:
    kinds: list[str] = []
    while connected.room.phase != "over":
        kinds += connected.play_turn(rng)
    return kinds


def test_four_phones_play_a_whole_game_and_its_log_replays_as_agreeing(tmp_path: Path) -> None:
    store = MemoryStore()
    room = make_room(store=store)
    with table(room) as connected:
        kinds = play_to_the_end(connected, random.Random(5))
        final = connected.phones["Ada"].view
    assert final["phase"] == "over"
    assert final["winners"]
    assert final["viewer"].startswith("/viewer/")
    log = tmp_path / "game.json"
    log.write_text(store.saved[-1][1], encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(log)])
    assert result.exit_code == 0, result.output
    game = read_log_text(store.saved[-1][1], "game")
    assert len(store.saved) == len(game.turns)  # each turn written as it resolved
    assert all(turn.seals and set(turn.seals) == {1, 2, 3, 4} for turn in game.turns)
    assert kinds  # the game asked the players something


def test_no_frame_holds_another_seats_program_before_every_seal_is_in() -> None:
    """Every frame the server sends is recorded; those sent while a turn's seals are not all
    in hold no program of that turn (not as the last turn, not as a nonce), the host's
    page's included, with two bots whose programs the server knows from the start."""
    store = MemoryStore()
    seats = {"Cy": Seat("Cy", (), bot="greedy"), "Dan": Seat("Dan", (), bot="random")}
    room = make_room(seats=seats, store=store)
    rng = random.Random(2)
    windows: list[tuple[int, int, int]] = []  # (turn, first frame, frame after the last seal)
    with table(room, host=True) as connected:
        sent = connected.client.app.state.table.sent  # type: ignore[attr-defined]
        while room.phase != "over":
            turn, first = room.state.turn, len(sent)
            connected.lay("Ada", rng)
            windows.append((turn, first, len(sent)))  # Bea's seal is the last one
            connected.lay("Bea", rng)
            connected.reveal("Ada")
            connected.reveal("Bea")
            connected.answer_choices()
    game = read_log_text(store.saved[-1][1], "game")
    nonces = {
        turn.turn: [seal.nonce for seal in (turn.seals or {}).values()] for turn in game.turns
    }
    checked = 0
    for turn, first, last in windows:
        for key, text in sent[first:last]:
            frame = json.loads(text)
            assert not any(nonce in text for nonce in nonces[turn]), (turn, key)
            if frame["type"] == "view":
                assert frame["last"] is None or frame["last"]["turn"] < turn
                assert frame["commitments"] == {}  # not even the seals, while sealing
                checked += 1
    assert checked >= 3 * len(windows)  # Ada's phone, Bea's and the host's page, each turn
    # and once every seal is in, the programs are shown with their seals
    shown = [json.loads(text)["last"] for _, text in sent if json.loads(text).get("last")]
    assert {last["turn"] for last in shown} == set(nonces)
    assert all(len(last["seals"]) == 4 for last in shown)


def test_a_forged_reveal_is_refused_and_changes_nothing() -> None:
    room = make_room()
    rng = random.Random(1)
    with table(room) as connected:
        for name in ("Ada", "Bea", "Cy", "Dan"):
            connected.lay(name, rng)
        sealed = connected.phones["Ada"].sealed["1"]
        legal = connected.phones["Ada"].view["players"]
        other = "trap 2" if sealed["program"] != "trap 2" else "trap 3"
        version = room.version
        forged = {"1": {"program": other, "nonce": sealed["nonce"]}}
        reply = connected.send("Ada", {"type": "reveal", "reveals": forged})
        assert reply["type"] == "error"
        assert reply["code"] == "forged"
        assert "does not match the commitment" in reply["reason"]
        assert room.version == version
        assert room.reveals == {}
        assert connected.reveal("Ada")["type"] == "view"  # the true one is taken
        assert legal


def test_a_copied_commitment_opens_to_nothing_for_another_robot() -> None:
    """A seat that copies another's commitment cannot reveal the other's program as its own:
    the robot's number is in what is hashed."""
    room = make_room()
    with table(room) as connected:
        connected.lay("Ada", random.Random(1), "harvest 1")
        copied = seal_commitment(1, 1, "harvest 1", connected.phones["Ada"].sealed["1"]["nonce"])
        connected.send("Bea", {"type": "commit", "commitments": {"2": copied}})
        for name in ("Cy", "Dan"):
            connected.lay(name, random.Random(2))
        connected.reveal("Ada")
        reply = connected.send(
            "Bea", {"type": "reveal", "reveals": connected.phones["Ada"].sealed | {}}
        )
        assert reply["type"] == "error"
        reply = connected.send(
            "Bea", {"type": "reveal", "reveals": {"2": connected.phones["Ada"].sealed["1"]}}
        )
        assert reply["code"] == "forged"


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"type": "launch"}', "malformed"),
        ('{"type": "commit", "commitments": {"1": "abc"}}', "malformed"),
        ('{"type": "commit", "commitments": {"2": "' + "0" * 64 + '"}}', "malformed"),
        ('{"type": "commit", "commitments": ["' + "0" * 64 + '"]}', "malformed"),
        (
            '{"type": "reveal", "reveals": {"1": {"program": "trap 2", "nonce": "00"}}}',
            "out-of-turn",
        ),
        ('{"type": "choose", "key": "1", "answer": "red+red"}', "out-of-turn"),
        ('{"type": "answer", "text": "harvest 1"}', "out-of-turn"),
        (
            '{"type": "commit", "commitments": {"1": "'
            + "0" * 64
            + '"}, "x": "'
            + "y" * MAX_MESSAGE
            + '"}',
            "oversized",
        ),
        ("[" * 5000 + "]" * 5000, "oversized"),
    ],
)
def test_a_hostile_message_gets_a_clear_error_and_changes_nothing(message: str, code: str) -> None:
    room = make_room()
    with table(room) as connected:
        before = (room.version, dict(room.commitments), connected.phones["Bea"].view)
        reply = connected.send("Ada", message)
        assert reply == {"type": "error", "code": code, "reason": reply["reason"]}
        assert reply["reason"]
        assert (room.version, dict(room.commitments)) == before[:2]


def test_a_replayed_commitment_is_refused() -> None:
    room = make_room()
    with table(room) as connected:
        connected.lay("Ada", random.Random(1))
        again = connected.lay("Ada", random.Random(1))
        assert again["code"] == "out-of-turn"
        assert "sealed already" in again["reason"]


def test_a_phone_that_sends_too_fast_is_told_to_wait() -> None:
    room = make_room()
    with table(room) as connected:
        codes = [connected.send("Ada", "{}")["code"] for _ in range(RATE + 3)]
    assert codes[:RATE] == ["malformed"] * RATE
    assert codes[RATE:] == ["rate"] * 3


@pytest.mark.parametrize("origin", [None, "http://evil.example", "http://testserver.evil", "null"])
def test_a_websocket_from_another_origin_is_closed_unread(origin: str | None) -> None:
    room = make_room()
    headers = {"origin": origin} if origin else {}
    with (
        TestClient(create_app(room)) as client,
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/{seat_key(SECRET, 'Ada')}", headers=headers) as socket,
    ):
        socket.receive_json()
    assert closed.value.code == 1008


def test_a_key_that_is_no_seat_gets_nothing() -> None:
    room = make_room()
    with TestClient(create_app(room)) as client:
        assert client.get("/s/" + "0" * 32).status_code == 404
        assert client.get("/picture/" + "0" * 32 + "/1.svg").status_code == 404
        assert client.get(f"/qr/{seat_key(SECRET, 'Ada')}/0.svg").status_code == 404
        assert client.get("/static/../app.py").status_code == 404
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws/" + "0" * 32, headers={"origin": ORIGIN}) as socket,
        ):
            socket.receive_json()


def test_the_pages_are_sent_with_a_strict_policy_and_no_referrer() -> None:
    room = make_room()
    with TestClient(create_app(room)) as client:
        for path in (
            f"/s/{seat_key(SECRET, 'Ada')}",
            f"/h/{host_key(SECRET)}",
            "/static/app.js",
            f"/picture/{seat_key(SECRET, 'Ada')}/0.svg",
            f"/qr/{host_key(SECRET)}/0.svg",
        ):
            response = client.get(path)
            assert response.status_code == 200, path
            assert response.headers["content-security-policy"] == CSP
            assert response.headers["referrer-policy"] == "no-referrer"
            assert response.headers["x-content-type-options"] == "nosniff"
        page = client.get(f"/s/{seat_key(SECRET, 'Ada')}").text
        assert "<script>" not in page
        assert "style=" not in page
        assert "onclick" not in page
        script = client.get("/static/app.js").text
        assert "innerHTML" not in script
        assert "eval(" not in script


def test_a_restarted_server_resumes_from_its_log_and_a_phone_gets_its_seat_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    path.write_text(new_log(), encoding="utf-8")
    rng = random.Random(3)
    room = Room(path.read_text(), {}, FileStore(path), SECRET, seed=1)
    with table(room) as connected:
        connected.play_turn(rng)
        connected.play_turn(rng)
        connected.lay("Ada", rng)  # sealed, then the server stops
    written = read_log_text(path.read_text(), "game")
    assert [turn.turn for turn in written.turns] == [1, 2]
    again = Room(path.read_text(), {}, FileStore(path), SECRET, seed=1)
    assert again.state.turn == 3
    assert again.phase == "commit"
    with table(again) as connected:
        phone = connected.phones["Ada"]
        assert phone.view["seat"]["name"] == "Ada"  # the same link, the same seat
        assert phone.view["last"]["turn"] == 2
        connected.play_turn(rng)
    assert len(read_log_text(path.read_text(), "game").turns) == 3


def test_a_decision_nobody_answers_takes_the_default_when_its_time_is_up() -> None:
    now = [0.0]
    room = make_room(clock=lambda: now[0], choice_seconds=30)
    rng = random.Random(5)
    with table(room) as connected:
        while room.pending is None and room.phase != "over":
            for name in connected.phones:
                connected.lay(name, rng)
            for name in connected.phones:
                connected.reveal(name)
        assert room.pending is not None
        question = room.pending.decision.question
        chooser = connected.phones[room.pending.chooser]
        asked_before = chooser.view["question"]
        assert asked_before["default"] == question.default
        assert not room.tick()
        now[0] += 31  # nobody answers: the server's clock applies the default
        frame = chooser.receive()
        assert frame["type"] == "view"
        asked = frame["question"]
        assert asked is None or asked["key"] != asked_before["key"]
        assert room.pending is None or room.pending.decision.question.key != question.key


def test_record_mode_is_driven_from_the_hosts_page_only() -> None:
    store = MemoryStore()
    room = make_room(store=store, mode="record")
    with table(room, ["Ada"], host=True) as connected:
        host = connected.phones["host"]
        question = host.view["question"]
        assert question["kind"] == "program"
        assert "harvest 1" in question["options"]
        assert (
            connected.send("Ada", {"type": "answer", "text": "harvest 1"})["code"] == "out-of-turn"
        )
        assert connected.send("host", {"type": "answer", "text": "harvest 9"})["refusal"]
        assert connected.send("host", {"type": "answer", "text": "harvest 1"})["answers"] == [
            "harvest 1"
        ]
        connected.send("host", {"type": "undo"})
        assert host.view["answers"] == []
        for program in ("harvest 1", "harvest 2", "attack 1", "trap 2"):
            connected.send("host", {"type": "answer", "text": program})
        while host.view["question"] and host.view["turn"] == 1:
            connected.send("host", {"type": "answer", "text": ""})
        assert host.view["turn"] == 2
        assert host.view["last"]["turn"] == 1
        connected.send("host", {"type": "undo"})  # at a turn's first question: the last turn
        assert host.view["turn"] == 1
        assert host.view["last"] is None
        assert connected.send("host", {"type": "undo"})["code"] == "out-of-turn"
        for program in ("harvest 1", "harvest 2", "attack 1", "trap 2"):
            connected.send("host", {"type": "answer", "text": program})
        while host.view["question"] and host.view["turn"] == 1:
            connected.send("host", {"type": "answer", "text": ""})
    assert [what for what, _ in store.saved] == ["turn 1", "turn 1 taken back", "turn 1"]
    game = read_log_text(store.saved[-1][1], "game")
    assert str(game.turns[0].programs[3]) == "attack 1"


def test_a_phone_that_lost_what_it_sealed_takes_its_seal_back_and_lays_again() -> None:
    room = make_room()
    rng = random.Random(4)
    with table(room) as connected:
        for name in ("Ada", "Bea", "Cy", "Dan"):
            connected.lay(name, rng)
        for name in ("Ada", "Bea", "Cy"):
            connected.reveal(name)
        assert connected.send("Ada", {"type": "withdraw"})["code"] == "out-of-turn"  # revealed
        reply = connected.send("Dan", {"type": "withdraw"})  # Dan's phone lost its nonce
        assert reply["phase"] == "commit"
        assert reply["last"] is None  # nothing of the turn was shown meanwhile
        assert connected.send("Dan", {"type": "withdraw"})["code"] == "out-of-turn"
        connected.lay("Dan", rng)
        assert connected.reveal("Dan")["type"] == "view"
    assert room.state.turn == 2 or room.phase == "choose"


def test_the_host_seats_a_bot_for_a_player_who_left_and_the_game_goes_on() -> None:
    store = MemoryStore()
    room = make_room(store=store)
    rng = random.Random(6)
    with table(room, ["Ada", "Bea", "Cy", "Dan"], host=True) as connected:
        for name in ("Ada", "Bea", "Cy", "Dan"):
            connected.lay(name, rng)
        for name in ("Ada", "Bea", "Cy"):
            connected.reveal(name)  # Dan sealed, then left without revealing
        assert (
            connected.send("Ada", {"type": "seat-bot", "name": "Dan", "bot": "greedy"})["code"]
            == "out-of-turn"
        )  # only the host's page
        assert (
            connected.send("host", {"type": "seat-bot", "name": "Dan", "bot": "genius"})["code"]
            == "malformed"
        )
        view = connected.send("host", {"type": "seat-bot", "name": "Dan", "bot": "greedy"})
        assert view["type"] == "view"
        assert [p["bot"] for p in view["players"]] == [None, None, None, "greedy"]
        assert room.phase in ("choose", "over") or room.state.turn == 2  # the turn went on
        del connected.phones["Dan"]  # Dan's phone is gone; the others play on
        connected.answer_choices()
        while room.phase != "over":
            connected.play_turn(rng)
    game = read_log_text(store.saved[-1][1], "game")
    assert all(turn.seals and 4 in turn.seals for turn in game.turns)
