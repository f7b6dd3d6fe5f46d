"""The table in headless Chromium: four phones play a whole game, and two phones with two bots.

The server runs in this process (uvicorn on 127.0.0.1, a free port); each phone is its own
browser context at a phone's size, one Italian and one French. The test taps what a player
taps: a program, "Seal", then "Confirm" on each question asked on that phone (the rules'
default preselected). It needs the ``[table]`` and ``[browser-check]`` extras and Debian's
Chromium (``/usr/bin/chromium``, as ``scripts/check_site.py`` uses it); without them it is
skipped. ``.ci/run`` installs both and runs it.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from click.testing import CliRunner
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from outofgears.cli.main import main as cli
from outofgears.log import read_log_text
from outofgears.rules.programs import legal_programs
from outofgears.table.room import Room, Seat, seat_key
from outofgears.web.app import MAX_MESSAGE, create_app
from tests.web.phones import SECRET, FileStore, new_log

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]
PHONE: ViewportSize = {"width": 390, "height": 844}
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
#: How long one step may take, in seconds.
PATIENCE = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(room: Room) -> Iterator[str]:
    """The table's app served on 127.0.0.1 for the length of the block."""
    import uvicorn

    port = free_port()
    config = uvicorn.Config(
        create_app(room),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=MAX_MESSAGE * 2,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + PATIENCE
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@contextmanager
def phones(
    browser: Browser, base: str, langs: dict[str, str]
) -> Iterator[tuple[dict[str, Page], list[str]]]:
    """A phone-sized browser context for each seat, its page open at the seat's link; the
    console errors and page errors of them all."""
    errors: list[str] = []
    contexts = []
    pages: dict[str, Page] = {}
    for name, lang in langs.items():
        context = browser.new_context(
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            locale={"en": "en-GB", "it": "it-IT", "fr": "fr-FR"}[lang],
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(PATIENCE * 1000)
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/s/{seat_key(SECRET, name)}")
        pages[name] = page
    try:
        yield pages, errors
    finally:
        for context in contexts:
            context.close()


def sealed(room: Room, robot: int, turn: int) -> bool:
    return robot in room.commitments or room.state.turn > turn


def revealed(room: Room, turn: int) -> bool:
    return room.phase in ("choose", "over") or room.state.turn > turn


def answered(room: Room, pending: object) -> bool:
    return room.pending is not pending


def played(room: Room, turn: int) -> bool:
    return room.state.turn > turn or room.phase == "over"


def asked_or_played(room: Room, turn: int) -> bool:
    return room.pending is not None or played(room, turn)


def play(room: Room, pages: dict[str, Page], rng: random.Random) -> list[str]:
    """Play the game to its end by tapping on the phones; the kinds of questions answered."""
    kinds: list[str] = []
    while room.phase != "over":
        turn = room.state.turn
        for name, page in pages.items():
            robot = room.seats[name].robots[0]
            program = str(rng.choice(legal_programs(room.state, robot)))
            page.locator(f'#act button[data-option="{program}"]').tap()
            page.locator("#seal").tap()
            wait_for(partial(sealed, room, robot, turn), "the seal")
        wait_for(partial(revealed, room, turn), "the reveal")
        while True:
            # the room asks its next decision (or writes the turn) a moment after the reveal
            wait_for(partial(asked_or_played, room, turn), "a choice or the turn")
            pending = room.pending
            if pending is None:
                break
            kinds.append(pending.kind)
            page = pages[pending.chooser]
            if pending.decision.question.options:
                chosen = page.locator("#act button.chosen")
                default = pending.decision.question.default
                assert chosen.get_attribute("data-option") == default  # preselected
            page.locator("#confirm").tap()
            wait_for(partial(answered, room, pending), "the answer")
        wait_for(partial(played, room, turn), "the turn")
    return kinds


def replays_agreeing(path: Path) -> None:
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=FLAGS
        )
        yield launched
        launched.close()


def test_four_phones_play_a_whole_game_in_three_languages(browser: Browser, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(new_log(seed=1), encoding="utf-8")
    langs = {"Ada": "en", "Bea": "it", "Cy": "fr", "Dan": "en"}
    seats = {name: Seat(name, (), lang) for name, lang in langs.items()}
    room = Room(path.read_text(), seats, FileStore(path), SECRET, seed=1)
    with serving(room) as base, phones(browser, base, langs) as (pages, errors):
        assert pages["Bea"].locator("#who").text_content()
        pages["Bea"].locator("#seal").wait_for()
        assert pages["Bea"].locator("#seal").text_content() == "Sigilla la mia Programmazione"
        assert pages["Cy"].locator("#seal").text_content() == "Sceller ma Programmation"
        assert pages["Cy"].evaluate("document.documentElement.lang") == "fr"
        kinds = play(room, pages, random.Random(1))
        for page in pages.values():
            page.locator("#viewer").wait_for()
        assert "Turno" in (pages["Bea"].locator("#last h2").text_content() or "")
        said = pages["Cy"].locator("#last").text_content() or ""
        assert "chaque Programmation correspond à son sceau" in said  # checked on the phone
        width = pages["Ada"].evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]  # nothing scrolls sideways on a phone
        viewer = pages["Bea"]
        viewer.locator("#viewer").tap()
        viewer.wait_for_load_state()
        assert errors == []
    assert {"steal", "split", "assembly"} <= set(kinds), kinds
    game = read_log_text(path.read_text(), "game")
    assert all(turn.seals for turn in game.turns)
    replays_agreeing(path)


def test_two_phones_play_a_game_with_two_bots_seated(browser: Browser, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(new_log(seed=4), encoding="utf-8")
    seats: dict[str, Any] = {
        "Cy": Seat("Cy", (), bot="greedy"),
        "Dan": Seat("Dan", (), bot="lookahead"),
    }
    room = Room(path.read_text(), seats, FileStore(path), SECRET, seed=1)
    with (
        serving(room) as base,
        phones(browser, base, {"Ada": "en", "Bea": "it"}) as (pages, errors),
    ):
        play(room, pages, random.Random(4))
        pages["Ada"].locator("#viewer").wait_for()
        assert errors == []
    replays_agreeing(path)
