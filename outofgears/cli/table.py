"""``outofgears table LOG``: serve a game to the players' phones on the local network.

The command only reads its options, makes or reads LOG and the table's key file beside it,
prints each seat's link (and its QR code), and serves the web app of :mod:`outofgears.web`
with uvicorn until Ctrl-C. The game itself is :class:`outofgears.table.room.Room`'s.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import click

from outofgears.cli.common import fail, lang_option, say, write_atomically
from outofgears.cli.starting import Header, header_options, new_game
from outofgears.errors import OutOfGearsError, printable
from outofgears.log import MAX_LOG_BYTES, LogError
from outofgears.words import LANGUAGES

#: The extra that brings the web app's dependencies.
EXTRA_HINT = "outofgears table needs the [table] extra: pip install 'outofgears[table]'"


class LogFileStore:
    """The log file, rewritten whole or not at all with each turn."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def save(self, text: str, what: str) -> None:
        """Replace the log with ``text``."""
        write_atomically(self.path, text, force=True)


def key_file(log: Path) -> Path:
    """The table's key file beside LOG: its secret and its seats (never shared: the seats'
    links are derived from the secret)."""
    return log.with_name(log.name + ".table-key")


def read_settings(path: Path) -> dict[str, Any]:
    """The table's settings as last written, or none."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        bytes.fromhex(data["secret"])
        return dict(data)
    except (OSError, ValueError, KeyError, TypeError) as error:
        fail(f"{printable(str(path))} is not a table's key file: {error}")


def write_settings(path: Path, settings: dict[str, Any]) -> None:
    """Write the table's settings, readable by their owner only."""
    write_atomically(path, json.dumps(settings, indent=2) + "\n", force=True)
    os.chmod(path, 0o600)


def keyed(option: str, texts: tuple[str, ...], values: tuple[str, ...]) -> dict[str, str]:
    """``NAME=VALUE`` options, each VALUE one of ``values``."""
    found: dict[str, str] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or value not in values:
            fail(f"{option} {text!r}: write {option} NAME=VALUE, VALUE one of {', '.join(values)}")
        found[name] = value
    return found


def local_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


@click.command()
@click.argument("log", metavar="LOG", type=click.Path(dir_okay=False))
@header_options
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="NAME=KIND",
    help="Seat a shipped bot for player NAME: random, greedy, lookahead, mcts or learned.",
)
@click.option(
    "--seat-lang",
    "seat_langs",
    multiple=True,
    metavar="NAME=LANG",
    help="The language of player NAME's phone: en, it or fr (default: --lang).",
)
@click.option(
    "--record",
    "recording",
    is_flag=True,
    help="Record a game played with the real cards: the host's page asks what record asks.",
)
@click.option("--host", default="0.0.0.0", show_default=True, help="The address to serve on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--choice-seconds",
    type=click.IntRange(5, 3600),
    default=90,
    show_default=True,
    help="How long a player has to answer a choice before the rules' default is taken.",
)
@lang_option("the phones (each seat may have its own: --seat-lang)")
@click.pass_context
def table(
    context: click.Context,
    /,
    log: str,
    bots: tuple[str, ...],
    seat_langs: tuple[str, ...],
    recording: bool,
    host: str,
    port: int,
    choice_seconds: int,
    lang: str,
    **header: Any,
) -> None:
    """Serve the game of LOG to the players' phones on the local network.

    A missing LOG is created as "outofgears new -o LOG" creates it, with the same options; an
    existing one is resumed where it stopped. Each seat gets a private link (printed here with
    its QR code, and shown on the host's page): the link is the seat's key. On the phones each
    player lays its robot's program in secret, sealed by a commitment, and answers the choices
    the rules leave to it; every turn is written to LOG as it resolves. With --record, one
    page (the host's) records a game played with the real cards, asking what record asks.

    The table's secret and seats are kept in LOG.table-key (readable by its owner only): the
    same links work again when the command is run again on LOG.
    """
    try:
        import uvicorn

        from outofgears.table.room import (
            BOT_KINDS,
            Mode,
            Room,
            Seat,
            host_key,
            new_secret,
            seat_key,
        )
        from outofgears.web.app import MAX_MESSAGE, create_app
    except ImportError:
        fail(EXTRA_HINT)
    given_bots = keyed("--bot", bots, BOT_KINDS)
    given_langs = keyed("--seat-lang", seat_langs, LANGUAGES)
    path = Path(log)
    if not path.exists():
        game = new_game(Header(**header))
        write_atomically(path, game.text, force=False)
        say(game.written_line(log, lang))
    elif Header.given(context):
        fail(f"{printable(log)} exists: the game is resumed, not described again")
    settings_path = key_file(path)
    settings = read_settings(settings_path)
    secret = bytes.fromhex(settings["secret"]) if settings else new_secret()
    seats: dict[str, dict[str, Any]] = dict(settings.get("seats", {}))
    for name, kind in given_bots.items():
        seats.setdefault(name, {})["bot"] = kind
    for name, chosen in given_langs.items():
        seats.setdefault(name, {})["lang"] = chosen
    mode: Mode = "record" if recording or settings.get("mode") == "record" else "play"
    try:
        if path.stat().st_size > MAX_LOG_BYTES:
            fail(f"{printable(log)} is larger than a log may be ({MAX_LOG_BYTES} bytes)")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        fail(f"cannot read {printable(log)}: {error}")
    try:
        room = Room(
            text,
            {
                name: Seat(name, (), seat.get("lang", lang), seat.get("bot"))
                for name, seat in seats.items()
            },
            LogFileStore(path),
            secret,
            mode=mode,
            choice_seconds=choice_seconds,
            source=log,
            lang=lang,
        )
    except (LogError, OutOfGearsError) as error:
        fail(error)
    write_settings(settings_path, {"secret": secret.hex(), "mode": mode, "seats": seats})
    shown = local_address() if host in ("0.0.0.0", "::") else host
    base = f"http://{shown}:{port}"
    show_links(room, base, host_key(secret), {name: seat_key(secret, name) for name in room.seats})
    uvicorn.run(
        create_app(room, base_url=base),
        host=host,
        port=port,
        ws_max_size=MAX_MESSAGE * 2,
        log_level="warning",
    )


def show_links(room: Any, base: str, host: str, keys: dict[str, str]) -> None:
    """Print the host's link and each person's seat link with its QR code."""
    import segno

    say(f"The host's page: {base}/h/{host}")
    for name, key in keys.items():
        if room.seats[name].bot:
            say(f"{printable(name)}: {room.seats[name].bot} (a bot)")
            continue
        link = f"{base}/s/{key}"
        say(f"{printable(name)}: {link}")
        if sys.stdout.isatty():
            segno.make(link, error="m").terminal(compact=True)
