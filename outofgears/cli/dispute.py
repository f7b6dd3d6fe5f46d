"""``outofgears dispute LOG --turn N``: one turn under every reading of the rule options.

The turn is resolved with its programs and its logged choices under each
combination of the readings that the rule options offer for how a turn
resolves -- ``defence_steal_source`` (ruling R-DEFENCE) times ``assembly``
(ruling R-ASSEMBLY), four readings -- and each reading is compared with the
log's own one: the places, scores and events that change, and whether what the
players recorded after the turn is legal under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, get_args

import attrs
import click
from attrs import frozen

from outofgears.cli.common import (
    FORMAT_OPTION,
    LOG_ARGUMENT,
    AsciiIntRange,
    echo_json,
    fail,
    inferred_fields,
    inferred_lines,
    lang_option,
    load_log,
    notes_lines,
    programs_json,
    programs_line,
    say,
    source_name,
)
from outofgears.cli.reports import refuse_log
from outofgears.errors import GameOverError, IllegalProgramError
from outofgears.judge.compare import (
    Resolution,
    TurnDifference,
    compare_results,
    describe_choices,
    difference_json,
    refusal_json,
    refused_choice,
    replay_to_turn,
    resolve_with_choices,
)
from outofgears.judge.culprit import legal_under
from outofgears.judge.inference import POSITION_LIMIT, Branches, SearchBudgetError
from outofgears.judge.replay import TurnReplay, Undecided, UndecidedError
from outofgears.judge.start import spec_note_facts
from outofgears.log import LogError
from outofgears.rules.choices import Choices
from outofgears.rules.model import AssemblyRule, DefenceStealSource, Options
from outofgears.words import event_text, translator
from outofgears.words.findings import TieBreaksByRing, WrittenUnderSpec, fact_text

#: The options that change how a turn resolves (rulings R-DEFENCE and R-ASSEMBLY). The others
#: only decide what is in the game (the expansions, the upgrade deck) or how it is set up
#: (pad_reserve).
TURN_OPTIONS: Final = ("defence_steal_source", "assembly")


@frozen
class Reading:
    """One combination of the disputed readings of the rule options."""

    defence_steal_source: DefenceStealSource
    assembly: AssemblyRule

    @property
    def label(self) -> str:
        """The reading as its option values.

        >>> Reading("feet_only", "optional").label
        'defence_steal_source=feet_only, assembly=optional'
        """
        return self.name("en")

    def name(self, lang: str) -> str:
        """The reading in ``lang``: in Italian and French as the command line writes it.

        >>> Reading("feet_only", "optional").name("it")
        '`--defence-steal-source feet_only --assembly optional`'
        """
        return (
            translator(lang)
            .gettext("defence_steal_source={source}, assembly={assembly}")
            .format(source=self.defence_steal_source, assembly=self.assembly)
        )

    def options(self, logged: Options) -> Options:
        """The log's options with this reading's values.

        >>> Reading("feet_only", "mandatory").options(Options(upgrades=True)).upgrades
        True
        """
        return attrs.evolve(
            logged, defence_steal_source=self.defence_steal_source, assembly=self.assembly
        )


def readings_of(logged: Options) -> tuple[Reading, ...]:
    """Every reading the turn options offer, the log's own first.

    >>> [r.label for r in readings_of(Options(assembly="optional"))][:2]
    ['defence_steal_source=feet_or_circuit, assembly=optional', 'defence_steal_source=feet_or_circuit, assembly=mandatory']
    >>> len(readings_of(Options()))
    4
    """
    own = Reading(logged.defence_steal_source, logged.assembly)
    every = [
        Reading(source, assembly)
        for source in get_args(DefenceStealSource)
        for assembly in get_args(AssemblyRule)
    ]
    return (own, *(reading for reading in every if reading != own))


@frozen
class ReadingOutcome:
    """A turn resolved under one reading, and how it differs from the log's reading.

    ``record_legal`` says whether some legal play under this reading gives every value the
    players recorded after the turn (``None`` when they recorded nothing).
    """

    reading: Reading
    as_logged: bool
    resolution: Resolution
    difference: TurnDifference
    record_legal: bool | None = None

    @property
    def changes_outcome(self) -> bool:
        """Whether this reading gives another outcome than the log's reading."""
        return not self.difference.same


@frozen
class Dispute:
    """A turn of a log under every reading."""

    replayed: TurnReplay
    outcomes: tuple[ReadingOutcome, ...]
    notes: tuple[WrittenUnderSpec | TieBreaksByRing, ...]

    @property
    def changing(self) -> tuple[ReadingOutcome, ...]:
        """The readings that change the outcome."""
        return tuple(outcome for outcome in self.outcomes if outcome.changes_outcome)

    @property
    def record_legal_under(self) -> tuple[ReadingOutcome, ...] | None:
        """The readings under which the recorded values are legal, when that differs between
        readings (``None`` when every reading judges the record alike)."""
        judged = {outcome.record_legal for outcome in self.outcomes}
        if len(judged) < 2:
            return None
        return tuple(outcome for outcome in self.outcomes if outcome.record_legal)

    @property
    def verdict(self) -> str:
        """The closing line, in English."""
        return self.verdict_text("en")

    def verdict_text(self, lang: str) -> str:
        """The closing line, in ``lang``."""
        t = translator(lang)
        count = len(self.changing)
        if self.record_legal_under is not None:
            return t.gettext("the readings disagree on whether what was recorded is legal")
        if not count:
            return t.gettext("the readings agree on this turn")
        return t.ngettext(
            "{count} reading changes the outcome", "{count} readings change the outcome", count
        ).format(count=count)


def dispute_turn(replayed: TurnReplay) -> tuple[ReadingOutcome, ...]:
    """Resolve a replayed turn under every reading and compare each with the log's reading.

    The searches for a legal play under each reading share one budget
    (:class:`~outofgears.judge.inference.Branches`).

    Raises:
        SearchBudgetError: They ran past it.
    """
    branches = Branches()
    state = replayed.before
    logged = state.options
    choices = replayed.table_choices
    resolved = [
        (
            reading,
            resolve_with_choices(
                attrs.evolve(state, options=reading.options(logged)), replayed.programs, choices
            ),
        )
        for reading in readings_of(logged)
    ]
    base = resolved[0][1].result
    recorded = replayed.record.recorded
    given = replayed.record.choices.to_choices() if replayed.record.choices else Choices()
    return tuple(
        ReadingOutcome(
            reading,
            index == 0,
            resolution,
            compare_results(base, resolution.result),
            None
            if recorded is None
            else legal_under(
                state,
                replayed.programs,
                given,
                recorded,
                defence_steal_source=reading.defence_steal_source,
                assembly=reading.assembly,
                branches=branches,
            )
            is not None,
        )
        for index, (reading, resolution) in enumerate(resolved)
    )


@click.command()
@LOG_ARGUMENT
@click.option(
    "--turn",
    "turn",
    type=AsciiIntRange(min=1),
    required=True,
    help="The turn of the log to dispute.",
)
@FORMAT_OPTION
@lang_option("the report")
def dispute(log: str, turn: int, output_format: str, lang: str) -> None:
    """Resolve turn N of LOG under every reading of the rule options and show which change it.

    The readings compared are those of the two rule options that change how a turn resolves,
    four combinations in all:

    \b
      defence_steal_source  feet_or_circuit | feet_only   (ruling R-DEFENCE)
      assembly              mandatory | optional          (ruling R-ASSEMBLY)

    The log's own reading is "as logged" and the others are compared with it. The other options
    (upgrades, upgrade_deck, jolly_gears, three_point_gears) decide what is in the game, and
    pad_reserve acts only at setup: none of them offers another reading of a turn, so they are
    kept as logged.

    The turn keeps its programs and its logged choices. Where a reading refuses a choice (a steal
    from a circuit under feet_only; declining assembly under mandatory), that choice is dropped,
    its default policy decides instead, and the report says so. Where the players recorded
    values after the turn, each reading also says whether a legal play under it gives them all;
    when the readings differ on that, the verdict says so and names the readings it is legal
    under.

    --lang it or --lang fr writes the whole report in Italian or French, in the words of that
    language's rulebook, with the same words as replay and explain: programs, choices, events,
    places, scores, the refused choices and the verdict; a reading is then named as the command
    line writes it (`--defence-steal-source feet_only --assembly optional`). --format json stays
    in English whatever --lang says.

    Exit status 0; 2 when the log or the turn is invalid; 4 when more than 256 positions agree
    with the log at or before turn N (see ``replay --max-open``), or when what was recorded
    leaves the judge too much to try.
    """
    name = source_name(log)
    game = load_log(log)
    try:
        replayed = replay_to_turn(game, turn, name)
        try:
            outcomes = dispute_turn(replayed)
        except SearchBudgetError as error:
            path = f"$.turns[{replayed.index}]"
            undecided = Undecided(turn, path, POSITION_LIMIT, budget=error.most)
            raise UndecidedError(name, undecided) from None
    except LogError as error:
        refuse_log(error, lang)
    except (IllegalProgramError, GameOverError) as error:  # pragma: no cover - replay checked it
        fail(f"{name}: turn {turn}: {error}")
    result = Dispute(replayed, outcomes, spec_note_facts(game))
    if output_format == "json":
        echo_json(dispute_json(result, name))
    else:
        for line in dispute_text(result, name, lang):
            say(line)


def dispute_text(result: Dispute, name: str, lang: str = "en") -> list[str]:
    """The report of a dispute, for people, in ``lang``."""
    t = translator(lang)
    replayed = result.replayed
    count = len(result.outcomes)
    lines = [
        t.ngettext(
            "Dispute: turn {turn} of {name} under {count} reading",
            "Dispute: turn {turn} of {name} under {count} readings",
            count,
        ).format(turn=replayed.turn, name=name, count=count)
    ]
    lines += notes_lines(result.notes, lang)
    lines.append(
        t.gettext("Programs: {programs}").format(programs=programs_line(replayed.programs, lang))
    )
    logged = (
        describe_choices(replayed.record.choices.to_choices(), lang)
        if replayed.record.choices
        else []
    )
    lines.append(
        t.gettext("Logged choices: {choices}").format(
            choices="; ".join(logged) if logged else t.pgettext("no choices", "none")
        )
    )
    lines += inferred_lines(replayed, lang)
    for outcome in result.outcomes:
        lines += reading_text(outcome, lang)
    record_legal = result.record_legal_under
    if record_legal is not None:
        lines.append(
            t.gettext("What was recorded is legal only under: {readings}").format(
                readings=readings_text(record_legal, lang)
            )
        )
    if any(o.resolution.refused for o in result.outcomes):
        legal = [o for o in result.outcomes if not o.resolution.refused]
        lines.append(
            t.gettext("The logged choices are legal only under: {readings}").format(
                readings=readings_text(legal, lang)
            )
        )
    verdict = result.verdict_text(lang)
    if result.changing and result.record_legal_under is None:
        verdict = t.gettext("{verdict}: {readings}").format(
            verdict=verdict, readings=readings_text(result.changing, lang)
        )
    lines.append(t.gettext("Verdict: {verdict}.").format(verdict=verdict))
    return lines


def readings_text(outcomes: Sequence[ReadingOutcome], lang: str) -> str:
    """Readings named in a list, or ``none``, in ``lang``."""
    if not outcomes:
        return translator(lang).pgettext("no reading", "none")
    return "; ".join(outcome.reading.name(lang) for outcome in outcomes)


def reading_text(outcome: ReadingOutcome, lang: str = "en") -> list[str]:
    """One reading of the report: refused choices, then what it changes, in ``lang``."""
    t = translator(lang)
    name = outcome.reading.name(lang)
    lines = [
        t.gettext("Reading {reading} (as logged):").format(reading=name)
        if outcome.as_logged
        else t.gettext("Reading {reading}:").format(reading=name)
    ]
    lines += [
        "  "
        + t.gettext(
            "! choice refused under this reading: {refusal}; its default policy decides instead"
        ).format(refusal=fact_text(refused_choice(error), lang))
        for error in outcome.resolution.refused
    ]
    if outcome.record_legal is not None:
        lines.append(
            "  "
            + (
                t.gettext("what was recorded: legal (a legal play gives it)")
                if outcome.record_legal
                else t.gettext("what was recorded: not legal")
            )
        )
    if outcome.as_logged:
        lines.append("  " + t.gettext("the outcome the other readings are compared with"))
        return lines
    if not outcome.changes_outcome:
        lines.append("  " + t.gettext("same outcome as logged"))
        return lines
    lines.append("  " + t.gettext("changes the outcome:"))
    label = t.pgettext("the log's own reading", "as logged")
    lines += [f"    {item.describe(label, lang)}" for item in outcome.difference.state]
    events = outcome.difference.events
    if events.only_other:
        lines.append("  " + t.gettext("events only under this reading:"))
        lines += [f"    + {event_text(event, lang)}" for event in events.only_other]
    if events.only_base:
        lines.append("  " + t.gettext("events only as logged:"))
        lines += [f"    - {event_text(event, lang)}" for event in events.only_base]
    return lines


def dispute_json(result: Dispute, name: str) -> dict[str, Any]:
    """The report of a dispute, for programs."""
    replayed = result.replayed
    logged = replayed.record.choices.to_choices() if replayed.record.choices else None
    return {
        "log": name,
        "turn": replayed.turn,
        "notes": [fact_text(note, "en") for note in result.notes],
        "programs": programs_json(replayed.programs),
        "logged_choices": describe_choices(logged) if logged else [],
        **inferred_fields(replayed),
        "options_compared": list(TURN_OPTIONS),
        "readings": [
            {
                "label": o.reading.label,
                "defence_steal_source": o.reading.defence_steal_source,
                "assembly": o.reading.assembly,
                "as_logged": o.as_logged,
                "changes_outcome": o.changes_outcome,
                "record_legal": o.record_legal,
                "refused_choices": [refusal_json(error) for error in o.resolution.refused],
                "difference": difference_json(o.difference, "as_logged", "reading"),
            }
            for o in result.outcomes
        ],
        "agree": not result.changing and result.record_legal_under is None,
        "changing": len(result.changing),
        "verdict": result.verdict,
    }
