"""Phones without a browser: seats that speak the table's WebSocket protocol (Starlette's
TestClient), for the protocol tests and the benchmark's idea of a client."""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from outofgears.log import GameLog, Start, dump_log
from outofgears.log.seals import seal_commitment
from outofgears.table.room import Mode, Room, Seat, host_key, seat_key
from outofgears.web.app import create_app

SECRET = b"a table's secret, for the tests!"
ORIGIN = "http://testserver"
PLAYERS: dict[str, tuple[int, ...]] = {"Ada": (1,), "Bea": (2,), "Cy": (3,), "Dan": (4,)}


class MemoryStore:
    """A log kept in memory: every text saved, in order."""

    def __init__(self) -> None:
        self.saved: list[tuple[str, str]] = []

    def save(self, text: str, what: str) -> None:
        self.saved.append((what, text))


class FileStore:
    """A log kept in a file, replaced whole with each turn."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def save(self, text: str, what: str) -> None:
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(self.path)


def new_log(seed: int = 7, players: dict[str, tuple[int, ...]] | None = None) -> str:
    """A new game's log text."""
    return dump_log(GameLog(players=players or PLAYERS, start=Start(seed=seed)))


def make_room(
    text: str | None = None,
    seats: dict[str, Seat] | None = None,
    store: Any = None,
    *,
    mode: Mode = "play",
    **options: Any,
) -> Room:
    """A room on a new game (or ``text``), its log kept in memory unless ``store`` is given."""
    return Room(
        text or new_log(),
        seats or {},
        store if store is not None else MemoryStore(),
        SECRET,
        mode=mode,
        seed=1,
        **options,
    )


class Phone:
    """One seat's connection: the frames it received, its latest view, its sealed programs."""

    def __init__(self, name: str, key: str, socket: WebSocketTestSession) -> None:
        self.name = name
        self.key = key
        self.socket = socket
        self.words = socket.receive_json()
        assert self.words["type"] == "words"
        self.view: dict[str, Any] = socket.receive_json()
        self.sealed: dict[str, dict[str, str]] = {}

    def receive(self) -> dict[str, Any]:
        data: dict[str, Any] = self.socket.receive_json()
        if data["type"] == "view":
            self.view = data
        return data


class Table:
    """Four phones (and the host's page) connected to one app."""

    def __init__(self, client: TestClient, room: Room, names: list[str], host: bool) -> None:
        self.client = client
        self.room = room
        self.stack = ExitStack()
        self.phones: dict[str, Phone] = {}
        for name in names:
            key = seat_key(SECRET, name)
            socket = self.stack.enter_context(
                client.websocket_connect(f"/ws/{key}", headers={"origin": ORIGIN})
            )
            self.phones[name] = Phone(name, key, socket)
        if host:
            key = host_key(SECRET)
            socket = self.stack.enter_context(
                client.websocket_connect(f"/ws/{key}", headers={"origin": ORIGIN})
            )
            self.phones["host"] = Phone("host", key, socket)

    def send(self, name: str, message: dict[str, Any] | str) -> dict[str, Any]:
        """Send from one phone; its answer (a view or an error). After a view every other
        phone receives its own view too."""
        phone = self.phones[name]
        text = message if isinstance(message, str) else json.dumps(message)
        phone.socket.send_text(text)
        answer = phone.receive()
        if answer["type"] == "view":
            for other in self.phones.values():
                if other is not phone:
                    assert other.receive()["type"] == "view"
        return answer

    def lay(self, name: str, rng: random.Random, program: str | None = None) -> dict[str, Any]:
        """A phone seals a program for its robot (one it may lay, drawn with ``rng``)."""
        phone = self.phones[name]
        view = phone.view
        commitments = {}
        for robot, legal in view["legal"].items():
            chosen = program or rng.choice(legal)
            nonce = secrets.token_hex(16)
            phone.sealed[robot] = {"program": chosen, "nonce": nonce}
            commitments[robot] = seal_commitment(view["turn"], int(robot), chosen, nonce)
        return self.send(name, {"type": "commit", "commitments": commitments})

    def reveal(self, name: str) -> dict[str, Any]:
        return self.send(name, {"type": "reveal", "reveals": self.phones[name].sealed})

    def answer_choices(self, rng: random.Random | None = None) -> list[str]:
        """Answer every question asked, each with its default (or an option drawn with
        ``rng``); the kinds answered."""
        kinds: list[str] = []
        while True:
            asked = [p for p in self.phones.values() if p.view.get("question")]
            if not asked or self.room.phase != "choose":
                return kinds
            phone = asked[0]
            question = phone.view["question"]
            kinds.append(question["kind"])
            answer = rng.choice(question["options"]) if rng and question["options"] else ""
            reply = self.send(
                phone.name, {"type": "choose", "key": question["key"], "answer": answer}
            )
            assert reply["type"] == "view", reply

    def play_turn(self, rng: random.Random) -> list[str]:
        """One turn: every phone seals, then reveals, then the choices are answered."""
        people = [name for name in self.phones if name != "host"]
        for name in people:
            assert self.lay(name, rng)["type"] == "view"
        for name in people:
            assert self.reveal(name)["type"] == "view"
        return self.answer_choices(rng)


@contextmanager
def table(
    room: Room, names: list[str] | None = None, *, host: bool = False, record: bool = True
) -> Iterator[Table]:
    """The app of ``room`` with a phone for each of ``names`` (every person by default)."""
    app = create_app(room, record_frames=record)
    people = names if names is not None else [n for n, s in room.seats.items() if s.bot is None]
    with TestClient(app) as client:
        connected = Table(client, room, people, host)
        with connected.stack:
            yield connected
