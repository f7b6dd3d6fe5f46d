"""``outofgears play GAME``: play a seeded game with the random policy, turn by turn."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import click

from outofgears.cli.common import (
    InputError,
    programs_line,
    say,
    scores_lines,
    summary_events,
)
from outofgears.errors import OutOfGearsError, show
from outofgears.play.policies import random_programs
from outofgears.rules.events import GearMoved
from outofgears.rules.gears import counted, describe_gears
from outofgears.rules.model import GameState, Options
from outofgears.rules.setup import setup_game, setup_two_robot_game
from outofgears.rules.turn import resolve_turn

#: Turns after which ``play`` stops a game that has not ended (none of the shipped ones come close).
MAX_TURNS = 500


class GameFileError(OutOfGearsError, ValueError):
    """A game file that cannot be read; names the file and the JSON path.

    Attributes:
        path: The file.
        json_path: Where in the file, as ``$.players``.
    """

    def __init__(self, path: str, json_path: str, reason: str) -> None:
        super().__init__(f"{path}: {json_path}: {reason}")
        self.path = path
        self.json_path = json_path
        self.reason = reason


def load_game(path: Path) -> tuple[GameState, int]:
    """The starting state and the policy seed of a game file.

    The file holds ``players`` (name -> list of one or two robot numbers),
    ``seed`` (the setup shuffle), optional ``policy_seed`` (the random
    programs; default the setup seed) and optional ``options``.
    """
    name = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise GameFileError(name, "$", f"cannot read it: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise GameFileError(name, "$", f"not JSON: {error}") from None
    except RecursionError:
        raise GameFileError(name, "$", "nested too deeply") from None
    except ValueError as error:  # a number of more than 4,300 digits
        raise GameFileError(name, "$", f"not JSON this reader accepts: {error}") from None
    if not isinstance(data, dict):
        raise GameFileError(name, "$", "expected an object")
    unknown = set(data) - {"players", "seed", "policy_seed", "options", "description"}
    if unknown:
        raise GameFileError(name, f"$.{sorted(unknown)[0]}", "unknown key")
    players = _field(name, data, "players", dict)
    seed = _field(name, data, "seed", int)
    policy_seed = _field(name, data, "policy_seed", int, default=seed)
    options = _field(name, data, "options", dict, default={})
    for player, robots in players.items():
        if not isinstance(robots, list) or not all(type(r) is int for r in robots):
            raise GameFileError(name, f"$.players.{player}", "expected a list of robot numbers")
    try:
        rules = Options(**options)
    except (TypeError, OutOfGearsError) as error:
        raise GameFileError(name, "$.options", str(error)) from None
    if any(len(robots) == 2 for robots in players.values()):
        state = setup_two_robot_game(players, seed=seed, options=rules)
    else:
        robots = [r for numbers in players.values() for r in numbers]
        if any(len(numbers) != 1 for numbers in players.values()):
            raise GameFileError(name, "$.players", "each player controls one or two robots")
        order = sorted(players, key=lambda p: players[p][0])
        state = setup_game(sorted(robots), seed=seed, players=order, options=rules)
    return state, policy_seed


def _field(path: str, data: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    if key not in data:
        if default is None:
            raise GameFileError(path, f"$.{key}", "missing")
        return default
    value = data[key]
    if type(value) is not kind:
        raise GameFileError(path, f"$.{key}", f"expected {kind.__name__}, got {show(value)}")
    if isinstance(value, int) and value < 0:
        raise GameFileError(path, f"$.{key}", f"expected a non-negative integer, got {value}")
    return value


@click.command()
@click.argument("game", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--quiet", is_flag=True, help="Print only the final scores.")
def play(game: Path, quiet: bool) -> None:
    """Play the seeded game described in GAME with random programs, turn by turn."""
    try:
        state, policy_seed = load_game(game)
        rng = random.Random(policy_seed)
        while not state.game_over and state.turn <= MAX_TURNS:
            programs = random_programs(state, rng)
            result = resolve_turn(state, programs)
            if not quiet:
                _print_turn(state, programs, result.events)
            state = result.state
    except GameFileError as error:
        raise InputError(str(error)) from None
    except OutOfGearsError as error:  # the game the file describes cannot be played
        raise InputError(f"{game}: {error}") from None
    _print_scores(state)


def _print_turn(state: GameState, programs: Any, events: Any) -> None:
    say(f"Turn {state.turn}")
    say("  programs: " + programs_line(programs))
    for event in summary_events(events):
        say(f"  {event}")
    drawn = [e.gear for e in events if isinstance(e, GearMoved) and e.clause == "EXP-1"]
    say(f"  exploration: {describe_gears(drawn)} drawn")


def _print_scores(state: GameState) -> None:
    over = "game over" if state.game_over else f"stopped after {MAX_TURNS} turns"
    say(f"After {counted(state.turn - 1, 'turn')} ({over}):")
    for line in scores_lines(state):
        say(line)
