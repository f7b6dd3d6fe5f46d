"""Class 3 of issue 14: names and free text are escaped in every report, in JSON output and
in the SVG picture; class 4: lone surrogates in names and version strings are not a crash.

Every hostile name of :data:`tests.hostile.corpus.HOSTILE_NAMES` goes through every command
that prints a name; nothing unsafe reaches the output raw, every report line stays one
line, JSON output reads back to the very name, and the SVG is well-formed XML.
"""

from __future__ import annotations

import functools
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from outofgears.cli.main import main
from outofgears.errors import printable
from outofgears.pictures.render import short_name
from tests.hostile.corpus import HOSTILE_NAMES, UNSAFE, log_with_name

NAMES = sorted(HOSTILE_NAMES)

#: Each command that prints the players' names, reading the log from standard input.
TEXT_COMMANDS: dict[str, list[str]] = {
    "replay": ["replay", "-"],
    "replay-quiet": ["replay", "-", "--quiet"],
    "explain": ["explain", "-", "--turn", "2"],
    "dispute": ["dispute", "-", "--turn", "2"],
    "whatif": ["whatif", "-", "--turn", "2", "--robot", "1", "--program", "trap 2"],
}


def run(args: list[str], stdin: bytes) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args, input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


@functools.cache
def baseline(command: str) -> str:
    """The report for the log with its plain names."""
    return run(TEXT_COMMANDS[command], log_with_name("Ada"))[1]


def strings(value: Any) -> set[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value).union(*(strings(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(strings(item) for item in value))
    return set()


@pytest.mark.parametrize("command", sorted(TEXT_COMMANDS))
@pytest.mark.parametrize("key", NAMES)
def test_a_hostile_name_is_printed_escaped(command: str, key: str) -> None:
    name = HOSTILE_NAMES[key]
    status, out, err = run(TEXT_COMMANDS[command], log_with_name(name))
    assert status in (0, 1), err
    assert not UNSAFE.search(out), ascii(out)
    assert not UNSAFE.search(err), ascii(err)
    assert "\r" not in out
    assert "\t" not in out
    # exactly the lines of the same report for a plain name: no forged line
    assert len(out.splitlines()) == len(baseline(command).splitlines())
    assert printable(name) in out or command in ("whatif", "dispute")  # no names there


@pytest.mark.parametrize("command", ["replay", "explain", "dispute", "whatif"])
@pytest.mark.parametrize("key", NAMES)
def test_json_output_escapes_and_reads_back(command: str, key: str) -> None:
    name = HOSTILE_NAMES[key]
    args = [*TEXT_COMMANDS[command], "--format", "json"]
    status, out, err = run(args, log_with_name(name))
    assert status in (0, 1), err
    assert not UNSAFE.search(out), ascii(out)
    if command in ("replay", "explain"):  # the escapes read back as the very name
        assert name in strings(json.loads(out))


@pytest.mark.parametrize("key", NAMES)
def test_the_svg_is_well_formed_and_the_name_fits(key: str) -> None:
    name = HOSTILE_NAMES[key]
    status, out, err = run(["render", "-", "--turn", "2", "-o", "-"], log_with_name(name))
    assert status == 0, err
    root = ET.fromstring(out)  # well-formed XML, or this raises
    assert not UNSAFE.search(out), ascii(out)
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    shown = short_name(name)
    assert any(text.endswith(f"{shown} · 29 points") or shown in text for text in texts)
    if shown != printable(name):  # cut short: an ellipsis, and the whole name in a <title>
        assert shown.endswith("\N{HORIZONTAL ELLIPSIS}")
        titles = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}title")]
        assert printable(name) in titles


@pytest.mark.parametrize("width", [4, 8, 12, 20])
@pytest.mark.parametrize("key", NAMES)
def test_a_short_name_fits_its_width(key: str, width: int) -> None:
    import unicodedata

    shown = short_name(HOSTILE_NAMES[key], width)
    used = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in shown)
    assert used <= width


@pytest.mark.parametrize("where", ["engine", "spec", "description"])
@pytest.mark.parametrize("key", NAMES)
def test_free_text_and_version_strings_never_crash(where: str, key: str) -> None:
    for args in (["replay", "-"], ["replay", "-", "--format", "json"]):
        status, out, err = run(args, log_with_name(HOSTILE_NAMES[key], where=where))
        assert status in (0, 1, 2), (status, err)
        assert not UNSAFE.search(out + err), ascii(out + err)
        if status == 2:
            assert len(err.splitlines()) == 1, err


@pytest.mark.parametrize("key", NAMES)
def test_new_and_play_print_hostile_names_escaped(key: str, tmp_path: Path) -> None:
    name = HOSTILE_NAMES[key]
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"players": {name: [1], "Bo": [2]}, "seed": 3}), "utf-8")
    status, out, err = run(["play", str(game), "--quiet"], b"")
    assert status in (0, 2), err
    assert not UNSAFE.search(out + err), ascii(out + err)
    status, out, err = run(["new", "--players", f"{name}=1,Bo=2", "--seed", "1"], b"")
    assert status in (0, 2), err
    assert not UNSAFE.search(out + err), ascii(out + err)
