"""``outofgears render``: a picture of the table at one turn of a log, written safely."""

from __future__ import annotations

import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from outofgears.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def title_of(svg: str) -> str:
    root = ET.fromstring(svg)
    return root.findtext(f"{SVG}title") or ""


def arrows(svg: str) -> int:
    root = ET.fromstring(svg)
    return sum("marker-end" in line.attrib for line in root.iter(f"{SVG}path"))


def test_render_draws_the_table_before_the_turn_with_its_programs(tmp_path: Path) -> None:
    out = tmp_path / "turn3.svg"
    code, _, err = run(
        "render", str(EXAMPLES / "full-game.log.json"), "--turn", "3", "-o", str(out)
    )
    assert code == 0, err
    assert f"wrote {out}" in err
    svg = out.read_text(encoding="utf-8")
    assert title_of(svg) == "Out of Gears: the table before turn 3, with its programs"
    assert arrows(svg) >= 1
    assert not [p for p in tmp_path.iterdir() if p.name != "turn3.svg"]  # no temporary left


def test_render_after_draws_the_table_after_the_turn_without_arrows(tmp_path: Path) -> None:
    out = tmp_path / "after.svg"
    log = str(EXAMPLES / "full-game.log.json")
    code, _, _ = run("render", log, "--turn", "10", "--after", "-o", str(out))
    assert code == 0
    svg = out.read_text(encoding="utf-8")
    assert title_of(svg).startswith("Out of Gears: the table after turn 10")
    assert arrows(svg) == 0


@pytest.mark.parametrize(
    ("lang", "title"),
    [
        ("it", "Fuori di Rotella: il tavolo prima del turno 3"),
        ("fr", "Out of Gears : la table avant le tour 3"),
    ],
)
def test_render_lang_draws_the_turn_in_the_players_language(
    tmp_path: Path, lang: str, title: str
) -> None:
    out = tmp_path / f"{lang}.svg"
    log = str(EXAMPLES / "full-game.log.json")
    code, _, err = run("render", log, "--turn", "3", "--lang", lang, "-o", str(out))
    assert code == 0, err
    svg = out.read_text(encoding="utf-8")
    assert title_of(svg).startswith(title)
    words = " ".join(ET.fromstring(svg).itertext()).lower()
    assert not {"feet", "dump", "reserve", "plays"} & set(words.split())
    assert arrows(svg) >= 1
    code, _, err = run("render", log, "--turn", "3", "--lang", "de", "-o", str(out), "--force")
    assert code == 2
    assert "--lang" in err


def test_the_same_turn_always_gives_the_same_file(tmp_path: Path) -> None:
    log = str(EXAMPLES / "two-robot.log.json")
    run("render", log, "--turn", "2", "-o", str(tmp_path / "a.svg"))
    run("render", log, "--turn", "2", "-o", str(tmp_path / "b.svg"))
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()


def test_render_refuses_to_overwrite_a_file_without_force(tmp_path: Path) -> None:
    out = tmp_path / "table.svg"
    out.write_text("keep me", encoding="utf-8")
    log = str(EXAMPLES / "full-game.log.json")
    code, _, err = run("render", log, "--turn", "1", "-o", str(out))
    assert code == 2
    assert f"{out} exists; use --force to overwrite it" in err
    assert out.read_text(encoding="utf-8") == "keep me"
    code, _, _ = run("render", log, "--turn", "1", "-o", str(out), "--force")
    assert code == 0
    assert out.read_text(encoding="utf-8").startswith("<svg ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.svg"]


def test_render_writes_to_standard_output_with_a_dash() -> None:
    code, out, _ = run("render", str(EXAMPLES / "full-game.log.json"), "--turn", "2", "-o", "-")
    assert code == 0
    assert title_of(out) == "Out of Gears: the table before turn 2, with its programs"


def test_render_reads_the_log_from_standard_input(tmp_path: Path) -> None:
    text = (EXAMPLES / "expansions.log.json").read_text(encoding="utf-8")
    code, out, _ = run("render", "-", "--turn", "1", "-o", "-", stdin=text)
    assert code == 0
    ET.fromstring(out)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--turn", "99"], "the log has no turn 99"),
        (["--turn", "0"], "Invalid value for '--turn'"),
        ([], "Missing option '--turn'"),
    ],
)
def test_render_exits_2_on_a_bad_turn(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "x.svg"
    code, _, err = run("render", str(EXAMPLES / "full-game.log.json"), *args, "-o", str(out))
    assert code == 2
    assert message in err
    assert not out.exists()


def test_render_exits_2_on_an_invalid_log(tmp_path: Path) -> None:
    bad = tmp_path / "bad.log.json"
    bad.write_text('{"format": "outofgears-log/1"}', encoding="utf-8")
    code, _, err = run("render", str(bad), "--turn", "1", "-o", str(tmp_path / "x.svg"))
    assert code == 2
    assert str(bad) in err
    code, _, err = run("render", str(tmp_path / "missing.json"), "--turn", "1", "-o", "x.svg")
    assert code == 2


def test_render_exits_2_when_the_output_directory_is_missing(tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "dir.svg"
    code, _, err = run(
        "render", str(EXAMPLES / "full-game.log.json"), "--turn", "1", "-o", str(out)
    )
    assert code == 2
    assert "cannot write" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write a read-only directory")
def test_render_exits_2_when_the_directory_is_read_only(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        code, _, err = run(
            "render",
            str(EXAMPLES / "full-game.log.json"),
            "--turn",
            "1",
            "-o",
            str(folder / "x.svg"),
        )
    finally:
        folder.chmod(0o700)
    assert code == 2
    assert "cannot write" in err
    assert not list(folder.iterdir())


def test_the_written_file_has_the_usual_permissions(tmp_path: Path) -> None:
    out = tmp_path / "table.svg"
    previous = os.umask(0o022)
    try:
        run("render", str(EXAMPLES / "full-game.log.json"), "--turn", "1", "-o", str(out))
    finally:
        os.umask(previous)
    assert out.stat().st_mode & 0o777 == 0o644


def test_a_log_with_departures_is_still_drawn(tmp_path: Path) -> None:
    log = tmp_path / "disputed.log.json"
    shutil.copy(EXAMPLES / "disputed.log.json", log)
    for args in (["--turn", "4"], ["--turn", "4", "--after"]):
        code, out, _ = run("render", str(log), *args, "-o", "-")
        assert code == 0  # turn 4 departs from the rules: the picture shows what the rules give
        ET.fromstring(out)


@pytest.mark.parametrize("name", ["table.png", "table.PDF", "table.jpeg"])
def test_render_refuses_an_output_that_is_not_svg_and_writes_nothing(
    tmp_path: Path, name: str
) -> None:
    out = tmp_path / name
    code, stdout, err = run(
        "render", str(EXAMPLES / "full-game.log.json"), "--turn", "3", "-o", str(out)
    )
    assert code == 2
    assert "writes SVG only" in err
    assert stdout == ""
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_render_narrow_draws_the_turn_for_a_phone(tmp_path: Path) -> None:
    out = tmp_path / "phone.svg"
    log = str(EXAMPLES / "disputed.log.json")
    code, _, err = run("render", log, "--turn", "4", "--narrow", "-o", str(out))
    assert code == 0, err
    svg = out.read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    assert root.attrib["viewBox"].split()[:3] == ["0", "0", "328"]
    assert title_of(svg) == "Out of Gears: the table before turn 4, with its programs"
    assert arrows(svg) >= 1
    code, _, _ = run("render", log, "--turn", "4", "-o", str(tmp_path / "wide.svg"))
    wide = ET.fromstring((tmp_path / "wide.svg").read_text(encoding="utf-8"))
    assert float(wide.attrib["viewBox"].split()[2]) > 328
