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
    lang_option,
    load_log,
    notes_lines,
    programs_json,
    say,
    scores_json,
    scores_lines,
    source_name,
)
from outofgears.cli.reports import departure_json, departure_text, turn_text, undecided_line
from outofgears.errors import OutOfGearsError
from outofgears.judge.inference import POSITION_LIMIT
from outofgears.judge.replay import Replay, replay_log
from outofgears.judge.start import spec_note_facts
from outofgears.log import LogError
from outofgears.log.serialization import event_to_dict
from outofgears.words import translator
from outofgears.words.findings import TableFollowed, fact_text, open_question_text


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
@lang_option("the report")
def replay(log: str, output_format: str, quiet: bool, max_open: int, lang: str) -> None:
    """Replay LOG under the rules and check every program and recorded value.

    Where the players recorded outcomes and not the choices behind them, every position that
    agrees with everything recorded so far is carried to the next turn, and a turn departs
    only when none of them explains it. What stays open at the end is reported. After a
    departing turn that says "follows": "table", the later turns are judged from the position
    the table wrote down (spec SET-8), and the report says so under that turn.

    Exit status 0 when the log agrees with the rules, 1 when a recorded value
    or a choice departs from them (the first one is reported with the events
    and clauses behind the rules' value), 2 when the log or the command line
    is invalid: one message naming the file, the JSON path and, where it
    applies, the turn and the robot; 4 when more than N positions (--max-open)
    agree with the log after some turn: "undecided", the log neither agrees nor
    departs. LOG "-" reads standard input; a log over 5,000,000 bytes is refused.

    --lang it or --lang fr writes the whole report in Italian or French, in the
    words of that language's rulebook: turns, programs, events, inferred
    choices, scores, who wins or leads, what stays open, the undecided verdict
    and the departure (what was recorded, what the rules give, why, what they
    allowed instead). --format json stays in English whatever --lang says.
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
        for line in replay_text(replayed, source_name(log), quiet=quiet, lang=lang):
            say(line)
    raise SystemExit(VERDICT_STATUS[replayed.verdict])


#: The exit status of each verdict.
VERDICT_STATUS = {"agrees": AGREES, "departs": DEPARTS, "undecided": UNDECIDED}


def replay_text(replayed: Replay, name: str, *, quiet: bool = False, lang: str = "en") -> list[str]:
    """The turn-by-turn report of a replay, in ``lang``."""
    t = translator(lang)
    lines = [t.gettext("Replaying {name}").format(name=name)]
    lines += notes_lines(spec_note_facts(replayed.log), lang)
    if not quiet:
        for turn in replayed.turns:
            lines += turn_text(turn, lang)
    else:  # the scores below are counted from the table's position where it was followed
        lines += notes_lines([TableFollowed(t.turn) for t in replayed.turns if t.followed], lang)
    final = replayed.final
    status = (
        t.gettext("game over")
        if final.game_over
        else t.gettext("next turn {turn}").format(turn=final.turn)
    )
    count = len(replayed.turns)
    lines.append(
        t.ngettext(
            "Scores after {count} turn of the log ({status}):",
            "Scores after {count} turns of the log ({status}):",
            count,
        ).format(count=count, status=status)
    )
    lines += scores_lines(final, lang)
    lines += open_lines(replayed, lang)
    if replayed.verdict == "undecided":
        assert replayed.undecided is not None
        lines.append(undecided_line(replayed.undecided, lang))
    elif replayed.agrees:
        lines.append(t.gettext("The log agrees with the rules."))
    else:
        lines += departure_text(replayed.departures[0], lang)
        more = len(replayed.departures) - 1
        if more:
            lines.append(
                t.ngettext(
                    "... and {count} more departure after it.",
                    "... and {count} more departures after it.",
                    more,
                ).format(count=more)
            )
    return lines


def open_lines(replayed: Replay, lang: str = "en") -> list[str]:
    """What the recorded values leave open at the end: how many positions, which turns'
    decisions, and the places where the positions differ."""
    if not replayed.left_open:
        return []
    t = translator(lang)
    first, *places = replayed.left_open
    lines = [t.gettext("Left open: {what}").format(what=fact_text(first, lang))]
    lines += [
        "  " + open_question_text(question.turn, question.decisions, question.ways, lang)
        for question in replayed.questions
    ]
    lines += [f"  {fact_text(place, lang)}" for place in places]
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
                "budget": replayed.undecided.budget or None,
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
