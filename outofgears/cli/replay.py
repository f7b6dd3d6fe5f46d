"""``outofgears replay LOG``: replay a log, check it against the rules, report departures."""

from __future__ import annotations

from typing import Any

import click

from outofgears.cli.common import (
    AGREES,
    DEPARTS,
    FORMAT_OPTION,
    LOG_ARGUMENT,
    UNDECIDED,
    AsciiIntRange,
    echo_json,
    fail,
    inferred_fields,
    load_log,
    programs_json,
    say,
    scores_json,
    scores_lines,
    source_name,
)
from outofgears.cli.reports import departure_json, departure_text, turn_text
from outofgears.errors import OutOfGearsError
from outofgears.judge.inference import POSITION_LIMIT
from outofgears.judge.replay import Replay, replay_log
from outofgears.log import LogError
from outofgears.log.serialization import event_to_dict
from outofgears.rules.gears import counted


@click.command()
@LOG_ARGUMENT
@FORMAT_OPTION
@click.option("--quiet", is_flag=True, help="Only the verdict and the final scores.")
@click.option(
    "--max-open",
    "max_open",
    type=AsciiIntRange(min=1, max=100_000),
    default=POSITION_LIMIT,
    show_default=True,
    metavar="N",
    help="The most positions agreeing with the record carried from turn to turn.",
)
def replay(log: str, output_format: str, quiet: bool, max_open: int) -> None:
    """Replay LOG under the rules and check every program and recorded value.

    Where the players recorded outcomes and not the choices behind them, every position that
    agrees with everything recorded so far is carried to the next turn, and a turn departs
    only when none of them explains it. What stays open at the end is reported.

    Exit status 0 when the log agrees with the rules, 1 when a recorded value
    or a choice departs from them (the first one is reported with the events
    and clauses behind the rules' value), 2 when the log or the command line
    is invalid: one message naming the file, the JSON path and, where it
    applies, the turn and the robot; 4 when more than N positions (--max-open)
    agree with the log after some turn: "undecided", the log neither agrees nor
    departs. LOG "-" reads standard input; a log over 5,000,000 bytes is refused.
    """
    game = load_log(log)
    try:
        replayed = replay_log(game, source_name(log), max_open=max_open)
    except LogError as error:
        fail(error)
    except OutOfGearsError as error:  # a safety net: the replay names what it refuses
        fail(f"{source_name(log)}: $: {error}")
    if output_format == "json":
        echo_json(replay_json(replayed))
    else:
        for line in replay_text(replayed, source_name(log), quiet=quiet):
            say(line)
    raise SystemExit(VERDICT_STATUS[replayed.verdict])


#: The exit status of each verdict.
VERDICT_STATUS = {"agrees": AGREES, "departs": DEPARTS, "undecided": UNDECIDED}


def replay_text(replayed: Replay, name: str, *, quiet: bool = False) -> list[str]:
    """The turn-by-turn report of a replay."""
    lines = [f"Replaying {name}"]
    lines += [f"Note: {note}" for note in replayed.notes]
    if not quiet:
        for turn in replayed.turns:
            lines += turn_text(turn)
    final = replayed.final
    status = "game over" if final.game_over else f"next turn {final.turn}"
    lines.append(f"Scores after {counted(len(replayed.turns), 'turn')} of the log ({status}):")
    lines += scores_lines(final)
    lines += open_lines(replayed)
    if replayed.verdict == "undecided":
        assert replayed.undecided is not None
        raise_bound = "" if replayed.undecided.ways else ", or raise --max-open"
        lines.append(
            f"The log is {replayed.undecided}: write that turn's choices, or more of what was "
            f"recorded ({replayed.undecided.json_path}){raise_bound}."
        )
    elif replayed.agrees:
        lines.append("The log agrees with the rules.")
    else:
        lines += departure_text(replayed.departures[0])
        more = len(replayed.departures) - 1
        if more:
            lines.append(
                f"... and {more} more {'departure' if more == 1 else 'departures'} after it."
            )
    return lines


def open_lines(replayed: Replay) -> list[str]:
    """What the recorded values leave open at the end: how many positions, which turns'
    decisions, and the places where the positions differ."""
    if not replayed.open:
        return []
    lines = [f"Left open: {replayed.open[0]}"]
    lines += [f"  {question}" for question in replayed.questions]
    lines += [f"  {line}" for line in replayed.open[1:]]
    return lines


def open_json(replayed: Replay) -> dict[str, Any]:
    """What stays open at the end, as JSON-ready data."""
    return {
        "positions": replayed.positions,
        "questions": [
            {"turn": q.turn, "choices": list(q.choices), "ways": q.ways} for q in replayed.questions
        ],
        "places": list(replayed.open[1:]),
    }


def replay_json(replayed: Replay) -> dict[str, Any]:
    """A replay as JSON-ready data for programs."""
    return {
        "agrees": replayed.agrees,
        "verdict": replayed.verdict,
        "undecided": (
            None
            if replayed.undecided is None
            else {
                "turn": replayed.undecided.turn,
                "json_path": replayed.undecided.json_path,
                "max_open": replayed.undecided.bound,
                "most_ways": replayed.undecided.ways or None,
                "text": str(replayed.undecided),
            }
        ),
        "notes": list(replayed.notes),
        "turns": [
            {
                "turn": turn.turn,
                "programs": programs_json(turn.programs),
                "events": [event_to_dict(event) for event in turn.result.events],
                **inferred_fields(turn),
            }
            for turn in replayed.turns
        ],
        "open": open_json(replayed),
        "departures": [departure_json(d) for d in replayed.departures],
        "final": scores_json(replayed.final),
    }
