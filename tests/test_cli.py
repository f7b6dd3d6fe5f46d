"""The ``outofgears`` command line, end to end through click's runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from outofgears import __version__
from outofgears.cli.main import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_play_prints_every_turn_and_the_final_scores() -> None:
    code, output = run("play", str(EXAMPLES / "seeded-game.json"))
    assert code == 0
    assert output.startswith("Turn 1\n")
    assert "(game over)" in output
    assert output.count("points (") == 4
    assert "Winner: " in output or "Winners, a shared victory (END-3): " in output


def test_play_is_the_same_game_every_time() -> None:
    assert run("play", str(EXAMPLES / "seeded-game.json")) == run(
        "play", str(EXAMPLES / "seeded-game.json")
    )


def test_play_runs_the_two_robot_example() -> None:
    code, output = run("play", str(EXAMPLES / "two-robot-game.json"), "--quiet")
    assert code == 0
    assert "Turn" not in output
    assert output.count("points (") == 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "not JSON"),
        ("[1, 2]", "$: expected an object"),
        ('{"players": {"A": [1], "B": [2]}}', "$.seed: missing"),
        ('{"players": {"A": [1], "B": [2]}, "seed": "7"}', "$.seed: expected int"),
        ('{"players": {"A": [1], "B": [2]}, "seed": 7, "colour": 1}', "$.colour: unknown key"),
        ('{"players": {"A": [1]}, "seed": 7}', "2 to 8 robots"),
        ('{"players": {"A": [1], "B": [9]}, "seed": 7}', "robots are numbered 1-8"),
        ('{"players": {"A": [1], "B": ["2"]}, "seed": 7}', "$.players.B"),
        ('{"players": {"A": [1], "B": [2]}, "seed": 7, "options": {"x": 1}}', "$.options"),
        (
            '{"players": {"A": [1], "B": [2]}, "seed": 7, "options": {"assembly": "maybe"}}',
            "assembly is 'mandatory' or 'optional'",
        ),
    ],
)
def test_a_bad_game_file_gives_a_message_and_exit_2(
    tmp_path: Path, content: str, message: str
) -> None:
    game = tmp_path / "game.json"
    game.write_text(content, encoding="utf-8")
    code, output = run("play", str(game))
    assert code == 2
    assert message in output
    assert "Traceback" not in output


def test_a_missing_game_file_gives_a_message_and_exit_2(tmp_path: Path) -> None:
    code, output = run("play", str(tmp_path / "nope.json"))
    assert code == 2
    assert "nope.json" in output
    assert "Traceback" not in output


def test_version_names_the_package() -> None:
    code, output = run("--version")
    assert code == 0
    assert __version__ in output


def test_play_runs_the_expansions_example_with_upgrade_cards() -> None:
    code, output = run("play", str(EXAMPLES / "expansions-game.json"))
    assert code == 0
    assert "super trap" in output
    assert "discarded by" in output
    assert output.count("points (") == 5


def test_an_internal_error_is_one_line_and_exit_3(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import outofgears.cli.schema as schema_module
    from outofgears.cli.main import INTERNAL_ERROR, run

    def broken() -> dict[str, object]:
        raise RuntimeError("the schema went missing")

    monkeypatch.setattr(schema_module, "log_schema", broken)
    monkeypatch.delenv("OUTOFGEARS_DEBUG", raising=False)
    with pytest.raises(SystemExit) as exited:
        run(["schema"])
    assert exited.value.code == INTERNAL_ERROR
    err = capsys.readouterr().err
    assert "internal error (RuntimeError: the schema went missing)" in err
    assert "Traceback" not in err


def test_the_installed_script_runs_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    from outofgears.cli.main import run

    with pytest.raises(SystemExit) as exited:
        run(["replay", str(EXAMPLES / "full-game.log.json"), "--quiet"])
    assert exited.value.code == 0
    assert "The log agrees with the rules." in capsys.readouterr().out
