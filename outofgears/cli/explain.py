"""``outofgears explain LOG --turn N``: one turn's full event trace, clause by clause.

The explanation is :func:`outofgears.judge.explanation.explain_turn`'s, laid out here: the
log is replayed up to turn ``N`` (later turns are not read, so a fault after the
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

from outofgears.cli.common import (
    AGREES,
    DEPARTS,
    FORMAT_OPTION,
    LOG_ARGUMENT,
    AsciiIntRange,
    echo_json,
    inferred_fields,
    inferred_lines,
    lang_option,
    load_log,
    notes_lines,
    programs_json,
    say,
    scores_json,
    source_name,
)
from outofgears.cli.reports import departure_json, departure_text, refuse_log
from outofgears.judge.explanation import ClauseNote, ExplainedEvent, Explanation, explain_turn
from outofgears.judge.replay import Replay, TurnReplay
from outofgears.judge.start import spec_note_facts
from outofgears.log import LOG_CONVERTER, GameLog, LogError, PositionRecord
from outofgears.log.serialization import event_to_dict
from outofgears.rules.gears import Gear
from outofgears.rules.model import GameState
from outofgears.words import (
    gears_text,
    place_text,
    position_lines,
    program_text,
    translator,
)
from outofgears.words.findings import TableFollowed, fact_text

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
@lang_option("the explanation")
@FORMAT_OPTION
def explain(log: str, turn_number: int, lang: str, output_format: str) -> None:
    """Explain turn N of LOG event by event, with the rules behind every event.

    LOG is replayed up to turn N. Then every event of that turn is printed with
    the spec clause that caused it, the clause's title, the Italian (IT-...) and
    French (FR-...) rulebook clauses it formalises ("engine policy" when the
    rulebooks leave the decision to the engine), and the clause's paraphrase. A
    run of events citing the same clause is followed by that clause once. The
    programs, the position before and after the turn, and any departure from the
    rules complete the picture. After a departing turn that says "follows":
    "table", the position after it is the one the table wrote down (spec SET-8),
    and a later turn says it is replayed from there.

    --lang it or --lang fr writes the whole explanation in Italian or French, in
    the words of that language's rulebook: headers, programs, events, places,
    colours, clause titles and paraphrases, and the departures: what was
    recorded, what the rules give, why and what they allowed instead.
    --format json gives the events' text, the clause titles and the
    paraphrases in that language too (a departure's fields stay English).

    Exit status 0 when the turn agrees with the rules, 1 when a recorded value
    or a choice of that turn departs from them, 2 when the log, the turn number
    or the command line is invalid, 4 when more than 256 positions agree with the log at or
    before turn N (see ``replay --max-open``).
    """
    name = source_name(log)
    explanation = explanation_of(load_log(log), turn_number, name, lang)
    if output_format == "json":
        echo_json(explain_json(explanation))
    else:
        for line in explain_text(explanation):
            say(line)
    raise SystemExit(AGREES if explanation.agrees else DEPARTS)


def explanation_of(game: GameLog, turn_number: int, name: str, lang: str = "en") -> Explanation:
    """The explanation of turn ``turn_number``; exit 2 if the log has none or is invalid up to
    it, 4 if it is undecided by then (said in ``lang``)."""
    try:
        return explain_turn(game, turn_number, source=name, lang=lang)
    except LogError as error:
        refuse_log(error, lang)


def clause_lines(clause: ClauseNote, lang: str, indent: str) -> list[str]:
    """A clause in text: ID and title, rulebook sources, paraphrase (in ``lang``)."""
    lines = [f"{indent}{clause.id} — {clause.title}", f"{indent}{clause.sources}"]
    if clause.paraphrase:
        lines += textwrap.wrap(
            clause.paraphrase,
            WIDTH,
            initial_indent=f"{indent}{lang}: ",
            subsequent_indent=indent + " " * (len(lang) + 2),
        )
    return lines


def clause_json(clause: ClauseNote) -> dict[str, Any]:
    """A clause as JSON-ready data: ID, title, rulebook sources, paraphrase."""
    return {
        "id": clause.id,
        "title": clause.title,
        "italian_sources": list(clause.italian_sources),
        "french_sources": list(clause.french_sources),
        "engine_policy": clause.engine_policy,
        "paraphrase": clause.paraphrase,
    }


# --- text ------------------------------------------------------------------------------------


def explain_text(explanation: Explanation) -> list[str]:
    """The explanation of one turn, for people, in its language."""
    lang, turn = explanation.lang, explanation.replayed
    t = translator(lang)
    lines = [t.gettext("Turn {turn} of {name}").format(turn=turn.turn, name=explanation.source)]
    lines += notes_lines(spec_note_facts(explanation.replay.log), lang)
    lines += earlier_lines(explanation.replay, turn, lang)
    before = explanation.before
    lines.append("")
    lines.append(t.gettext("Programs:"))
    lines += [
        "  "
        + t.gettext("robot {robot} ({player}): {program}").format(
            robot=robot,
            player=before.player_of(robot).name,
            program=program_text(turn.programs[robot], lang),
        )
        for robot in sorted(turn.programs)
    ]
    choices = choices_lines(turn, lang)
    if choices:
        lines.append(t.gettext("Choices in the log:"))
        lines += choices
    lines += inferred_lines(turn, lang)
    lines.append("")
    lines.append(t.gettext("Before turn {turn}:").format(turn=turn.turn))
    lines += position_lines(before, lang)
    events = explanation.events
    lines.append("")
    lines.append(
        t.ngettext(
            "Events ({count}), each followed by the clause behind it:",
            "Events ({count}), each followed by the clause behind it:",
            len(events),
        ).format(count=len(events))
    )
    lines += events_lines(events, lang)
    after = explanation.after
    lines.append("")
    status = (
        t.gettext("the game is over")
        if after.game_over
        else t.gettext("next turn {turn}").format(turn=after.turn)
    )
    lines.append(t.gettext("After turn {turn} ({status}):").format(turn=turn.turn, status=status))
    if turn.followed:
        lines.append(f"  {fact_text(TableFollowed(turn.turn), lang)}")
    lines += position_lines(after, lang)
    lines.append(
        "  "
        + t.gettext("scores: {scores}").format(
            scores=", ".join(f"{score.player} {score.points}" for score in explanation.scores)
        )
    )
    lines.append("")
    if turn.departures:
        lines.append(
            t.ngettext(
                "Departures of turn {turn} from the rules ({count}):",
                "Departures of turn {turn} from the rules ({count}):",
                len(turn.departures),
            ).format(turn=turn.turn, count=len(turn.departures))
        )
        for departure in turn.departures:
            lines += departure_text(departure, lang)
    else:
        lines.append(t.gettext("Turn {turn} agrees with the rules.").format(turn=turn.turn))
    return lines


def earlier_lines(replayed: Replay, turn: TurnReplay, lang: str) -> list[str]:
    """A note on the departures before ``turn``, and which position the turn is replayed from:
    the rules', or the table's when the last of them was followed (SET-8)."""
    earlier = sorted({d.turn for d in replayed.departures if d.turn != turn.turn})
    if not earlier:
        return []
    t = translator(lang)
    turns = ", ".join(map(str, earlier))
    if replayed.turn(earlier[-1]).followed:
        return [
            t.ngettext(
                "Note: the log departs from the rules earlier, at turn {turns}; this turn is "
                "replayed from the position the table wrote down after turn {last}",
                "Note: the log departs from the rules earlier, at turns {turns}; this turn is "
                "replayed from the position the table wrote down after turn {last}",
                len(earlier),
            ).format(turns=turns, last=earlier[-1])
        ]
    return [
        t.ngettext(
            "Note: the log departs from the rules earlier, at turn {turns}; "
            "this turn is replayed from the position the rules give",
            "Note: the log departs from the rules earlier, at turns {turns}; "
            "this turn is replayed from the position the rules give",
            len(earlier),
        ).format(turns=turns)
    ]


def events_lines(events: Sequence[ExplainedEvent], lang: str) -> list[str]:
    """Every event, numbered; after each run of events citing one clause, that clause."""
    lines: list[str] = []
    width = len(str(len(events)))
    for number, explained in enumerate(events, start=1):
        lines.append(f"  {number:>{width}}. {explained.text}")
        following = events[number] if number < len(events) else None
        if following is None or following.clause != explained.clause:
            lines += clause_lines(explained.clause, lang, " " * (width + 6))
    return lines


def choices_lines(turn: TurnReplay, lang: str = "en") -> list[str]:
    """The post-reveal choices the log gives for the turn, in words."""
    record = turn.record.choices
    if record is None:
        return []
    t = translator(lang)
    sources = {
        "feet": t.pgettext("steal source", "feet"),
        "circuit": t.pgettext("steal source", "circuit"),
    }
    lines = [
        "  "
        + t.gettext(
            "robot {defender} defends and takes {gear} from robot {attacker}'s {source}"
        ).format(
            defender=steal.defender,
            gear=gears_text((steal.gear,), lang),
            attacker=steal.attacker,
            source=sources[steal.source],
        )
        for steal in record.defence_steals
    ]
    lines += [
        "  "
        + t.gettext("robot {robot} assembles {gears}").format(
            robot=robot, gears=gears_or_nothing(gears, lang)
        )
        for robot, gears in sorted(record.assemblies.items())
    ]
    lines += [
        "  "
        + t.gettext("{place} is split: {shares}").format(
            place=place_text(split.place, lang),
            shares="; ".join(
                t.gettext("robot {robot} {gears}").format(
                    robot=robot, gears=gears_text(gears, lang)
                )
                for robot, gears in sorted(split.shares.items())
            ),
        )
        for split in record.splits
    ]
    return lines


def gears_or_nothing(gears: Sequence[Gear], lang: str = "en") -> str:
    """Gears in words, or ``"nothing"`` for an assembly that moves none.

    >>> from outofgears.rules.gears import gears
    >>> gears_or_nothing(gears(1, 2)), gears_or_nothing(()), gears_or_nothing((), "fr")
    ('1 red, 1 orange', 'nothing', 'rien')
    """
    if gears:
        return gears_text(gears, lang)
    return translator(lang).pgettext("no gears assembled", "nothing")


# --- JSON ------------------------------------------------------------------------------------


def explain_json(explanation: Explanation) -> dict[str, Any]:
    """The explanation of one turn as JSON-ready data for programs.

    ``before`` and ``after`` are written like a log's ``start.position``, so either can start
    a new log at that point of the game.
    """
    record = explanation.choices
    return {
        "log": explanation.source,
        "turn": explanation.turn,
        "lang": explanation.lang,
        "agrees": explanation.agrees,
        "notes": list(explanation.replay.notes),
        "earlier_departures": list(explanation.earlier_departures),
        "programs": programs_json(explanation.programs),
        "choices": LOG_CONVERTER.unstructure(record) if record is not None else {},
        "before": position_json(explanation.before),
        "events": [
            {
                "text": explained.text,
                "event": event_to_dict(explained.event),
                "clause": clause_json(explained.clause),
            }
            for explained in explanation.events
        ],
        "after": position_json(explanation.after),
        "result": scores_json(explanation.after),
        "departures": [departure_json(d) for d in explanation.departures],
        **inferred_fields(explanation.replayed),
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
