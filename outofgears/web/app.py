"""The table in the browser: a thin transport over a :class:`~outofgears.table.room.Room`.

Each seat opens its private link, ``/s/KEY`` (the host, ``/h/KEY``): a static page whose
script opens a WebSocket, ``/ws/KEY``, receives the seat's view after every change and sends
what the seat does (JSON messages of :meth:`Room.act <outofgears.table.room.Room.act>`). The
picture of the table is ``/picture/KEY/VERSION.svg``, in the seat's language; the host's page
shows each seat's link as a QR code (``/qr/HOSTKEY/N.svg``); at the end ``/viewer/KEY`` is the
viewer of the game.

What a hostile client meets: a WebSocket whose ``Origin`` is not the page's own is closed
before anything is read; a message larger than :data:`MAX_MESSAGE` bytes, not a JSON object,
sent faster than :data:`RATE` allows, or refused by the room gets an ``error`` frame with the
reason, and changes nothing. Every page is sent with a strict Content Security Policy (scripts,
styles, pictures and connections from this server only, nothing inline), no referrer (the
keys are in the addresses) and no caching.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import time
from collections.abc import AsyncIterator, Callable, Mapping
from importlib.resources import files
from typing import Any, Final

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from outofgears.clauses import paraphrase
from outofgears.judge.replay import TurnReplay
from outofgears.pictures.render import render_svg
from outofgears.pictures.viewer import game_html
from outofgears.table.answers import answer_in
from outofgears.table.room import Room, RoomRefusedError
from outofgears.web.words import page_words
from outofgears.words import clause_title, event_text, program_text

#: The largest message a phone may send, in bytes.
MAX_MESSAGE: Final = 4096
#: How many messages a connection may send in :data:`RATE_WINDOW` seconds.
RATE: Final = 30
RATE_WINDOW: Final = 10.0
#: How often the time-outs of the decisions are looked at, in seconds.
TICK: Final = 0.5

CSP: Final = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
#: The viewer is one self-contained page (its script and styles inline, its pictures as
#: data): it gets a policy of its own, that still loads and sends nothing.
VIEWER_CSP: Final = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS: Final = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
}
STATIC: Final = {
    "app.js": "text/javascript; charset=utf-8",
    "sha256.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}


def static_text(name: str) -> str:
    """A file of the pages, shipped with the package."""
    return files("outofgears.web").joinpath("static", name).read_text(encoding="utf-8")


class Table:
    """The room, its lock, and the connections of each seat (by key)."""

    def __init__(self, room: Room, *, base_url: str | None = None) -> None:
        self.room = room
        self.lock = asyncio.Lock()
        self.sockets: dict[str, set[WebSocket]] = {}
        self.base_url = base_url
        self.pages = {"index": static_text("index.html")}
        self.sent: list[tuple[str, str]] | None = None  # every frame sent, when a test asks
        self.turns: dict[str, tuple[TurnReplay, dict[str, Any]]] = {}

    def lang_of(self, key: str) -> str:
        """The language of a seat's pages (the host's: the room's)."""
        seat = self.room.seat_of(key)
        return seat.lang if seat is not None else self.room.lang

    def frame(self, key: str) -> dict[str, Any]:
        """What a seat is sent now: the room's view, the last turn in its words, the links."""
        room = self.room
        lang = self.lang_of(key)
        data = room.view(key)
        data["type"] = "view"
        data["last"] = self.last_turn(lang)
        data["labels"] = option_labels(data, lang)
        data["picture"] = f"/picture/{key}/{room.version}-{len(room.replayed.turns)}.svg"
        if key == room.host:
            data["links"] = [
                {
                    "name": name,
                    "path": f"/s/{seat_key}",
                    "address": f"{self.base_url}/s/{seat_key}" if self.base_url else None,
                    "qr": f"/qr/{key}/{index}.svg",
                }
                for index, (seat_key, name) in enumerate(room.keys.items())
                if room.seats[name].bot is None
            ]
        if room.state.game_over:
            data["viewer"] = f"/viewer/{key}"
        return data

    def last_turn(self, lang: str) -> dict[str, Any] | None:
        """The last turn in ``lang`` (:func:`turn_data`), made once for each language."""
        last = self.room.last
        if last is None:
            return None
        kept = self.turns.get(lang)
        if kept is None or kept[0] is not last:
            kept = self.turns[lang] = (last, turn_data(last, lang))
        return kept[1]

    async def send(self, socket: WebSocket, key: str, data: Mapping[str, Any]) -> None:
        """Send one frame (kept when a test records them)."""
        text = json.dumps(data, ensure_ascii=False)
        if self.sent is not None:
            self.sent.append((key, text))
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await socket.send_text(text)

    async def broadcast(self) -> None:
        """Send every connection its seat's view."""
        for key, sockets in list(self.sockets.items()):
            frame = self.frame(key)
            for socket in list(sockets):
                await self.send(socket, key, frame)

    async def act(self, key: str, message: Mapping[str, Any]) -> None:
        """Pass a seat's message to the room (bots may think a while: in a thread), then send
        every seat its view."""
        async with self.lock:
            await anyio.to_thread.run_sync(self.room.act, key, message)
            await self.broadcast()

    async def tick(self) -> None:
        """Apply the defaults of decisions whose time is up."""
        async with self.lock:
            changed = await anyio.to_thread.run_sync(self.room.tick)
            if changed:
                await self.broadcast()


def option_labels(view: Mapping[str, Any], lang: str) -> dict[str, str]:
    """What each option of a view is called on the phone: a program by its cards' names, an
    answer in the words a table of ``lang`` uses (the options themselves stay the log's)."""
    labels = {
        program: program_text(program, lang)
        for programs in view.get("legal", {}).values()
        for program in programs
    }
    question = view.get("question")
    if question is not None:
        if question["default"] and question["kind"] != "program":
            labels[question["default"]] = answer_in(question["default"], lang)
        for option in question["options"]:
            labels[option] = (
                program_text(option, lang)
                if question["kind"] == "program"
                else answer_in(option, lang)
            )
    return labels


def turn_data(last: TurnReplay, lang: str) -> dict[str, Any]:
    """The last turn played, in ``lang``: its programs, events (each with its clause, the
    clause's title and paraphrase) and seals."""
    events = []
    for event in last.result.events:
        clause = event.clause
        try:
            said = paraphrase(clause, lang)
        except KeyError:
            said = ""
        events.append(
            {
                "text": event_text(event, lang),
                "clause": clause,
                "title": clause_title(clause, lang),
                "paraphrase": said,
            }
        )
    seals = last.record.seals or {}
    return {
        "turn": last.turn,
        "programs": {str(r): str(p) for r, p in sorted(last.programs.items())},
        "shown": {str(r): program_text(p, lang) for r, p in sorted(last.programs.items())},
        "events": events,
        "seals": {str(r): {"commitment": s.commitment, "nonce": s.nonce} for r, s in seals.items()},
    }


def page_response(text: str, media: str = "text/html; charset=utf-8") -> Response:
    """A response with the pages' headers."""
    return Response(text, media_type=media, headers=HEADERS)


def not_found() -> Response:
    """The answer to any address that is not a key's page."""
    return Response("not found\n", status_code=404, media_type="text/plain", headers=HEADERS)


def same_origin(headers: Mapping[str, str], scheme: str) -> bool:
    """Whether a WebSocket's ``Origin`` is the page's own (its scheme and ``Host``)."""
    origin = headers.get("origin")
    host = headers.get("host")
    page = "https" if scheme in ("https", "wss") else "http"
    return origin is not None and host is not None and origin == f"{page}://{host}"


class Limiter:
    """At most :data:`RATE` messages in any :data:`RATE_WINDOW` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.times: list[float] = []

    def allow(self) -> bool:
        now = self.clock()
        self.times = [t for t in self.times if now - t < RATE_WINDOW]
        if len(self.times) >= RATE:
            return False
        self.times.append(now)
        return True


def read_message(text: str | None) -> dict[str, Any]:
    """A phone's message: a JSON object of at most :data:`MAX_MESSAGE` bytes."""
    if text is None:
        raise RoomRefusedError("malformed", "messages are JSON text")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise RoomRefusedError("oversized", f"a message holds at most {MAX_MESSAGE} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise RoomRefusedError("malformed", "a message is a JSON object") from None
    if not isinstance(data, dict):
        raise RoomRefusedError("malformed", "a message is a JSON object")
    return data


def create_app(
    room: Room, *, base_url: str | None = None, record_frames: bool = False
) -> Starlette:
    """The web app of one table; ``base_url`` is the address the phones reach it at (the
    seats' links and QR codes use it; by default, the address the host's page was opened at)."""
    table = Table(room, base_url=base_url)
    if record_frames:
        table.sent = []

    def known(key: str) -> bool:
        return key == room.host or room.seat_of(key) is not None

    async def seat_page(request: Request) -> Response:
        if not known(request.path_params["key"]):
            return not_found()
        return page_response(table.pages["index"])

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return not_found()
        return page_response(static_text(name), STATIC[name])

    async def picture(request: Request) -> Response:
        key = request.path_params["key"]
        if not known(key):
            return not_found()
        async with table.lock:
            last, state = room.last, room.state
        before = last.before if last is not None else None
        svg = render_svg(state, before=before, layout="narrow", lang=table.lang_of(key))
        return page_response(svg, "image/svg+xml")

    async def qr(request: Request) -> Response:
        import segno

        if request.path_params["key"] != room.host:
            return not_found()
        keys = list(room.keys)
        index = request.path_params["index"]
        if not 0 <= index < len(keys):
            return not_found()
        base = table.base_url or str(request.base_url).rstrip("/")
        address = f"{base}/s/{keys[index]}"
        buffer = io.BytesIO()
        segno.make(address, error="m").save(buffer, kind="svg", scale=4, xmldecl=False)
        return page_response(buffer.getvalue().decode("utf-8"), "image/svg+xml")

    async def viewer(request: Request) -> Response:
        key = request.path_params["key"]
        if not known(key) or not room.state.game_over:
            return not_found()
        html = game_html(room.replayed, lang=table.lang_of(key))
        return Response(
            html,
            media_type="text/html; charset=utf-8",
            headers={**HEADERS, "Content-Security-Policy": VIEWER_CSP},
        )

    async def socket(websocket: WebSocket) -> None:
        key = websocket.path_params["key"]
        if not same_origin(websocket.headers, websocket.url.scheme) or not known(key):
            await websocket.close(code=1008)
            return
        await websocket.accept()
        table.sockets.setdefault(key, set()).add(websocket)
        limiter = Limiter()
        try:
            await table.send(websocket, key, {"type": "words", **page_words(table.lang_of(key))})
            async with table.lock:
                frame = table.frame(key)
            await table.send(websocket, key, frame)
            while True:
                incoming = await websocket.receive()
                if incoming["type"] == "websocket.disconnect":
                    return
                try:
                    if not limiter.allow():
                        raise RoomRefusedError("rate", "too many messages: wait a moment")
                    await table.act(key, read_message(incoming.get("text")))
                except RoomRefusedError as error:
                    refusal = {"type": "error", "code": error.code, "reason": error.reason}
                    await table.send(websocket, key, refusal)
        except WebSocketDisconnect:
            return
        finally:
            table.sockets.get(key, set()).discard(websocket)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async def ticking() -> None:
            while True:
                await asyncio.sleep(TICK)
                await table.tick()

        task = asyncio.create_task(ticking())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    app = Starlette(
        routes=[
            Route("/s/{key}", seat_page),
            Route("/h/{key}", seat_page),
            Route("/static/{name}", static),
            Route("/picture/{key}/{version}.svg", picture),
            Route("/qr/{key}/{index:int}.svg", qr),
            Route("/viewer/{key}", viewer),
            Route("/favicon.ico", lambda request: Response(status_code=204, headers=HEADERS)),
            WebSocketRoute("/ws/{key}", socket),
        ],
        lifespan=lifespan,
    )
    app.state.table = table
    return app
