"""What the reports of several commands share: a turn, a departure and a position in words and
in JSON (``replay``, ``explain``, ``dispute``, ``whatif``, ``new`` and ``record`` print them
alike)."""

from __future__ import annotations

from typing import Any, NoReturn

from outofgears.cli.common import (
    UndecidedInputError,
    fail,
    open_sentence,
    programs_line,
    summary_events,
)
from outofgears.judge.replay import Departure, TurnReplay, Undecided, UndecidedError
from outofgears.log import LogError
from outofgears.log.serialization import event_to_dict
from outofgears.words import event_text, translator
from outofgears.words.findings import TableFollowed, departure_line, departure_lines, fact_text


def turn_text(turn: TurnReplay, lang: str = "en") -> list[str]:
    """One turn of the report: programs, what happened, departures found, in ``lang``."""
    t = translator(lang)
    lines = [
        t.gettext("Turn {turn}  [{programs}]").format(
            turn=turn.turn, programs=programs_line(turn.programs, lang)
        )
    ]
    lines += [f"  {event_text(event, lang)}" for event in summary_events(turn.result.events)]
    lines += [
        "  " + t.gettext("inferred: {choice}").format(choice=fact_text(choice.fact, lang))
        for choice in turn.inferred
    ]
    if turn.open_positions > 1:
        lines.append(
            "  "
            + t.gettext("open: {sentence}").format(
                sentence=open_sentence(turn.open_positions, lang)
            )
        )
    lines += [f"  ! {departure_line(departure, lang)}" for departure in turn.departures]
    if turn.followed:
        lines.append(f"  {fact_text(TableFollowed(turn.turn), lang)}")
    return lines


def departure_text(departure: Departure, lang: str = "en") -> list[str]:
    """The report of a departure: where, what was recorded, what the rules give, why
    (:func:`outofgears.words.findings.departure_lines`)."""
    return departure_lines(departure, lang)


def departure_json(departure: Departure) -> dict[str, Any]:
    """A departure as JSON-ready data."""
    return {
        "turn": departure.turn,
        "json_path": departure.json_path,
        "what": departure.what,
        "recorded": departure.recorded,
        "expected": departure.expected,
        "robot": departure.robot,
        "clause": departure.clause,
        "reason": departure.reason,
        "allowed": departure.allowed,
        "events": [event_to_dict(event) for event in departure.events],
    }


#: How each language groups the thousands of a number.
_THOUSANDS = {"en": ",", "it": ".", "fr": "\u202f"}


def undecided_line(undecided: Undecided, lang: str) -> str:
    """The undecided verdict, and what settles it, in ``lang``."""
    t = translator(lang)
    if undecided.budget:
        return t.gettext(
            "The log is undecided: the judge's search of turn {turn} ran past its budget of "
            "{budget} branches: what was recorded leaves too much to try. Write that turn's "
            "choices, or more of what was recorded ({path})."
        ).format(
            turn=undecided.turn,
            budget=f"{undecided.budget:,}".replace(",", _THOUSANDS[lang]),
            path=undecided.json_path,
        )
    if undecided.decision is not None:
        return t.gettext(
            "The log is undecided: {decision} at turn {turn} has more than {ways} legal ways, "
            "too many to try against what was recorded: write that turn's choices ({path})."
        ).format(
            decision=fact_text(undecided.decision, lang),
            turn=undecided.turn,
            ways=undecided.ways,
            path=undecided.json_path,
        )
    return t.ngettext(
        "The log is undecided: more than {bound} position open at turn {turn}: write "
        "that turn's choices, or more of what was recorded ({path}), or raise "
        "--max-open.",
        "The log is undecided: more than {bound} positions open at turn {turn}: write "
        "that turn's choices, or more of what was recorded ({path}), or raise "
        "--max-open.",
        undecided.bound,
    ).format(bound=undecided.bound, turn=undecided.turn, path=undecided.json_path)


def refuse_log(error: LogError, lang: str = "en") -> NoReturn:
    """Stop a command on a log it cannot follow up to the turn asked for: its message and exit
    status 2, or 4 for a log undecided by then, whose verdict is said in ``lang`` as ``replay``
    says it (:func:`undecided_line`); in English, the error's own message."""
    if isinstance(error, UndecidedError) and lang != "en":
        message = f"{error.source}: {undecided_line(error.undecided, lang)}"
        raise UndecidedInputError(message, lang)
    fail(error)
