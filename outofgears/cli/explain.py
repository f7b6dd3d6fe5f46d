"""``outofgears explain LOG --turn N``: one turn's full event trace, clause by clause.

The log is replayed up to turn ``N`` (later turns are not read, so a fault after the
disputed turn does not stop its explanation). For that turn the command prints the
programs and the choices of the log, the position before, every event with the spec
clause behind it (its title, the Italian and French rulebook clauses it formalises, and
the project's paraphrase in the language of ``--lang``), the position after, and the
departures of the turn, if any.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any, Final

import click

from outofgears.clauses import LANGUAGES, Clause, clauses, paraphrases
from outofgears.cli.common import (
    AGREES,
    DEPARTS,
    FORMAT_OPTION,
    LOG_ARGUMENT,
    AsciiIntRange,
    echo_json,
    fail,
    inferred_fields,
    inferred_lines,
    load_log,
    programs_json,
    say,
    scores_json,
    source_name,
)
from outofgears.cli.reports import departure_json, departure_text, position_lines
from outofgears.judge.compare import no_such_turn
from outofgears.judge.replay import Replay, TurnReplay, UndecidedError, replay_log
from outofgears.log import LOG_CONVERTER, GameLog, LogError, PositionRecord
from outofgears.log.serialization import event_to_dict
from outofgears.rules.events import Event
from outofgears.rules.gears import Gear, describe_gears
from outofgears.rules.model import GameState
from outofgears.rules.scoring import player_scores

#: What the text says for a clause that no rulebook clause stands behind.
ENGINE_POLICY: Final = "engine policy"

#: The width the paraphrases are wrapped to.
WIDTH: Final = 100


@click.command()
@LOG_ARGUMENT
@click.option(
    "--turn",
    "turn_number",
    type=AsciiIntRange(),
    required=True,
    metavar="N",
    help="The turn to explain, as numbered in the log.",
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default="en",
    show_default=True,
    help="The language of the clause paraphrases: English, Italian or French.",
)
@FORMAT_OPTION
def explain(log: str, turn_number: int, lang: str, output_format: str) -> None:
    """Explain turn N of LOG event by event, with the rules behind every event.

    LOG is replayed up to turn N. Then every event of that turn is printed with
    the spec clause that caused it, the clause's title, the Italian (IT-...) and
    French (FR-...) rulebook clauses it formalises ("engine policy" when the
    rulebooks leave the decision to the engine), and the clause's paraphrase in
    the language of --lang (English unless told otherwise). A run of events
    citing the same clause is followed by that clause once. The programs, the
    position before and after the turn, and any departure from the rules
    complete the picture.

    Exit status 0 when the turn agrees with the rules, 1 when a recorded value
    or a choice of that turn departs from them, 2 when the log, the turn number
    or the command line is invalid, 4 when more than 256 positions agree with the log at or
    before turn N (see ``replay --max-open``).
    """
    name = source_name(log)
    game = load_log(log)
    replayed = replay_to(game, turn_number, name)
    turn = replayed.turns[-1]
    if output_format == "json":
        echo_json(explain_json(replayed, turn, name, lang))
    else:
        for line in explain_text(replayed, turn, name, lang):
            say(line)
    raise SystemExit(DEPARTS if turn.departures else AGREES)


def replay_to(game: GameLog, turn_number: int, name: str) -> Replay:
    """The replay of a log up to and including turn ``turn_number``; exit 2 if it has none,
    4 if the log is undecided by then."""
    numbers = [record.turn for record in game.turns]
    if turn_number not in numbers:
        fail(no_such_turn(numbers, turn_number, name))
    try:
        replayed = replay_log(game, name, through=turn_number)
    except LogError as error:
        fail(error)
    if replayed.undecided is not None and replayed.undecided.turn <= turn_number:
        fail(UndecidedError(name, replayed.undecided))
    return replayed


# --- clauses ---------------------------------------------------------------------------------


def clause_of(clause_id: str) -> Clause:
    """The spec clause ``clause_id``, or a stand-in saying the spec has none."""
    found = clauses().get(clause_id)
    return found or Clause(clause_id, "(not a clause of the specification)", (), ())


def sources_words(clause: Clause) -> str:
    """The rulebook clauses behind a spec clause, Italian then French.

    >>> from outofgears.clauses import clause
    >>> sources_words(clause("ATK-4"))
    'IT: IT-ATK-4, IT-ACT-ATK-2 | FR: FR-ATK-4, FR-ACT-ATK-2'
    >>> sources_words(clause("ATK-5"))
    'IT, FR: engine policy (no rulebook clause)'
    >>> sources_words(clause("SHOV-1"))
    'IT: not in the Italian rulebook | FR: FR-UPG-SHOV-1, FR-UPG-SHOV-2, FR-UPG-SHOV-3'
    """
    if not clause.sources:
        return f"IT, FR: {ENGINE_POLICY} (no rulebook clause)"
    italian = ", ".join(clause.italian_sources) or "not in the Italian rulebook"
    french = ", ".join(clause.french_sources) or "not in the French rulebook"
    return f"IT: {italian} | FR: {french}"


def paraphrase_of(clause_id: str, lang: str) -> str:
    """A clause's paraphrase, or an empty string when the spec has none."""
    return paraphrases().get(clause_id, {}).get(lang, "")


def clause_lines(clause_id: str, lang: str, indent: str) -> list[str]:
    """A clause in text: ID and title, rulebook sources, paraphrase."""
    clause = clause_of(clause_id)
    lines = [f"{indent}{clause.id} — {clause.title}", f"{indent}{sources_words(clause)}"]
    text = paraphrase_of(clause_id, lang)
    if text:
        lines += textwrap.wrap(
            text,
            WIDTH,
            initial_indent=f"{indent}{lang}: ",
            subsequent_indent=indent + " " * (len(lang) + 2),
        )
    return lines


def clause_json(clause_id: str, lang: str) -> dict[str, Any]:
    """A clause as JSON-ready data: ID, title, rulebook sources, paraphrase."""
    clause = clause_of(clause_id)
    return {
        "id": clause.id,
        "title": clause.title,
        "italian_sources": list(clause.italian_sources),
        "french_sources": list(clause.french_sources),
        "engine_policy": not clause.sources,
        "paraphrase": paraphrase_of(clause_id, lang),
    }


# --- text ------------------------------------------------------------------------------------


def explain_text(replayed: Replay, turn: TurnReplay, name: str, lang: str) -> list[str]:
    """The explanation of one replayed turn, for people."""
    lines = [f"Turn {turn.turn} of {name}"]
    lines += [f"Note: {note}" for note in replayed.notes]
    earlier = sorted({d.turn for d in replayed.departures if d.turn != turn.turn})
    if earlier:
        lines.append(
            "Note: the log departs from the rules earlier, at turn(s) "
            + ", ".join(map(str, earlier))
            + "; this turn is replayed from the position the rules give"
        )
    before = turn.before
    lines.append("")
    lines.append("Programs:")
    lines += [
        f"  robot {robot} ({before.player_of(robot).name}): {turn.programs[robot]}"
        for robot in sorted(turn.programs)
    ]
    choices = choices_lines(turn)
    if choices:
        lines.append("Choices in the log:")
        lines += choices
    lines += inferred_lines(turn)
    lines.append("")
    lines.append(f"Before turn {turn.turn}:")
    lines += position_lines(before)
    events = turn.result.events
    lines.append("")
    lines.append(f"Events ({len(events)}), each followed by the clause behind it:")
    lines += events_lines(events, lang)
    after = turn.result.state
    lines.append("")
    status = "the game is over" if after.game_over else f"next turn {after.turn}"
    lines.append(f"After turn {turn.turn} ({status}):")
    lines += position_lines(after)
    lines.append(
        "  scores: " + ", ".join(f"{score.player} {score.points}" for score in player_scores(after))
    )
    lines.append("")
    if turn.departures:
        lines.append(f"Departures of turn {turn.turn} from the rules ({len(turn.departures)}):")
        for departure in turn.departures:
            lines += departure_text(departure)
    else:
        lines.append(f"Turn {turn.turn} agrees with the rules.")
    return lines


def events_lines(events: Sequence[Event], lang: str) -> list[str]:
    """Every event, numbered; after each run of events citing one clause, that clause."""
    lines: list[str] = []
    width = len(str(len(events)))
    for number, event in enumerate(events, start=1):
        lines.append(f"  {number:>{width}}. {event}")
        following = events[number] if number < len(events) else None
        if following is None or following.clause != event.clause:
            lines += clause_lines(event.clause, lang, " " * (width + 6))
    return lines


def choices_lines(turn: TurnReplay) -> list[str]:
    """The post-reveal choices the log gives for the turn, in words."""
    record = turn.record.choices
    if record is None:
        return []
    lines = [
        f"  robot {steal.defender} defends and takes 1 {steal.gear} from robot "
        f"{steal.attacker}'s {steal.source}"
        for steal in record.defence_steals
    ]
    lines += [
        f"  robot {robot} assembles {gears_or_nothing(gears)}"
        for robot, gears in sorted(record.assemblies.items())
    ]
    lines += [
        f"  {split.place} is split: "
        + "; ".join(
            f"robot {robot} {describe_gears(gears)}"
            for robot, gears in sorted(split.shares.items())
        )
        for split in record.splits
    ]
    return lines


def gears_or_nothing(gears: Sequence[Gear]) -> str:
    """Gears in words, or ``"nothing"`` for an assembly that moves none.

    >>> from outofgears.rules.gears import gears
    >>> gears_or_nothing(gears(1, 2)), gears_or_nothing(())
    ('1 red, 1 orange', 'nothing')
    """
    return describe_gears(gears) if gears else "nothing"


# --- JSON ------------------------------------------------------------------------------------


def explain_json(replayed: Replay, turn: TurnReplay, name: str, lang: str) -> dict[str, Any]:
    """The explanation of one replayed turn as JSON-ready data for programs.

    ``before`` and ``after`` are written like a log's ``start.position``, so either can start
    a new log at that point of the game.
    """
    record = turn.record.choices
    after = turn.result.state
    return {
        "log": name,
        "turn": turn.turn,
        "lang": lang,
        "agrees": not turn.departures,
        "notes": list(replayed.notes),
        "earlier_departures": sorted({d.turn for d in replayed.departures if d.turn != turn.turn}),
        "programs": programs_json(turn.programs),
        "choices": LOG_CONVERTER.unstructure(record) if record is not None else {},
        "before": position_json(turn.before),
        "events": [
            {
                "text": str(event),
                "event": event_to_dict(event),
                "clause": clause_json(event.clause, lang),
            }
            for event in turn.result.events
        ],
        "after": position_json(after),
        "result": scores_json(after),
        "departures": [departure_json(d) for d in turn.departures],
        **inferred_fields(turn),
    }


def position_json(state: GameState) -> dict[str, Any]:
    """A position the way a log writes one (``start.position``), with its turn always written.

    >>> from outofgears.rules.setup import setup_game
    >>> data = position_json(setup_game([1, 2], seed=1))
    >>> data["turn"], data["robots"]["1"], data["dumps"]["1"]
    (1, {'feet': [], 'circuit': []}, ['red', 'orange'])
    """
    written: dict[str, Any] = LOG_CONVERTER.unstructure(PositionRecord.of(state))
    return {"turn": state.turn, **written}
