"""What the reports of several commands share: a turn, a departure and a position in words and
in JSON (``replay``, ``explain``, ``new`` and ``record`` print them alike)."""

from __future__ import annotations

from typing import Any

from outofgears.clauses import sources_text
from outofgears.cli.common import (
    event_line,
    open_sentence,
    programs_line,
    summary_events,
)
from outofgears.judge.replay import Departure, TurnReplay
from outofgears.log.serialization import event_to_dict


def turn_text(turn: TurnReplay) -> list[str]:
    """One turn of the report: programs, what happened, departures found."""
    lines = [f"Turn {turn.turn}  [{programs_line(turn.programs)}]"]
    lines += [f"  {event_line(event)}" for event in summary_events(turn.result.events)]
    lines += [f"  inferred: {choice}" for choice in turn.inferred]
    if turn.open_positions > 1:
        lines.append(f"  open: {open_sentence(turn.open_positions)}")
    lines += [f"  ! {departure}" for departure in turn.departures]
    return lines


def departure_text(departure: Departure) -> list[str]:
    """The report of the first departure: where, what was recorded, what the rules give, why."""
    lines = [
        f"DEPARTS FROM THE RULES at turn {departure.turn}: {departure.what}",
        f"  in the log at:  {departure.json_path}",
    ]
    if departure.robot is not None:
        lines.append(f"  robot:          {departure.robot}")
    lines += [
        f"  recorded:       {departure.recorded}",
        f"  the rules give: {departure.expected}",
    ]
    if departure.reason:
        lines.append(f"  why:            {departure.reason}")
    if departure.clause:
        lines.append(f"  clause: {departure.clause} ({sources_text(departure.clause)})")
    if departure.allowed:
        lines.append(f"  the rules allowed: {departure.allowed}")
    if departure.events:
        lines.append("  because:")
        lines += [f"    {event_line(event, sources=True)}" for event in departure.events]
    elif departure.reason is None and departure.clause is None:
        lines.append(f"  because:        no gear moved there in turn {departure.turn}")
    return lines


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
