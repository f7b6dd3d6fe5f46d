"""``outofgears whatif LOG --turn N --robot R --program P``: one program replaced, compared.

The turn is resolved as logged and again with robot R's program replaced,
both with the log's choices (a choice the what-if makes impossible is dropped
and its default policy decides); the report lists the events only one of the
two has and the positions, scores and cards that differ afterwards.
"""

from __future__ import annotations

from typing import Any

import click
from attrs import frozen

from outofgears.cli.common import (
    FORMAT_OPTION,
    LOG_ARGUMENT,
    TURN_OPTION,
    AsciiIntRange,
    echo_json,
    fail,
    inferred_fields,
    inferred_lines,
    lang_option,
    load_log,
    programs_json,
    programs_line,
    say,
    source_name,
)
from outofgears.cli.reports import refuse_log
from outofgears.errors import GameOverError, IllegalProgramError, InvalidStateError
from outofgears.judge.compare import (
    Resolution,
    TurnDifference,
    compare_results,
    difference_json,
    refusal_json,
    refused_choice,
    replay_to_turn,
    resolve_with_choices,
)
from outofgears.judge.replay import TurnReplay
from outofgears.log import LogError
from outofgears.rules.programs import AnyProgram, parse_program, validate_programs
from outofgears.words import event_text, translator
from outofgears.words import program_text as program_words
from outofgears.words.findings import fact_text


@frozen
class WhatIf:
    """A turn as logged and with one program replaced."""

    replayed: TurnReplay
    robot: int
    program: AnyProgram
    programs: dict[int, AnyProgram]
    original: Resolution
    changed: Resolution
    difference: TurnDifference


def what_if(replayed: TurnReplay, robot: int, program: AnyProgram) -> WhatIf:
    """Resolve a replayed turn as logged and with ``robot``'s program replaced.

    Raises:
        InvalidStateError: The robot is not in play.
        IllegalProgramError: The replaced programs are not legal.
    """
    state = replayed.before
    if robot not in state.robot_numbers:
        in_play = ", ".join(str(number) for number in state.robot_numbers)
        raise InvalidStateError(
            f"robot {robot} is not in play at turn {state.turn} (robots in play: {in_play})"
        )
    programs = dict(replayed.programs)
    programs[robot] = program
    validate_programs(state, programs)
    choices = replayed.table_choices
    original = resolve_with_choices(state, replayed.programs, choices)
    changed = resolve_with_choices(state, programs, choices)
    return WhatIf(
        replayed,
        robot,
        program,
        programs,
        original,
        changed,
        compare_results(original.result, changed.result),
    )


@click.command()
@LOG_ARGUMENT
@TURN_OPTION
@click.option(
    "--robot",
    "robot",
    type=AsciiIntRange(1, 8),
    required=True,
    help="The robot whose program is replaced.",
)
@click.option(
    "--program",
    "program_text",
    required=True,
    metavar="PROGRAM",
    help='The program it plays instead, written as a log writes it: "trap 3", "attack 2", '
    '"super shovel", ...',
)
@FORMAT_OPTION
@lang_option("the report")
def whatif(
    log: str, turn: int, robot: int, program_text: str, output_format: str, lang: str
) -> None:
    """Replay turn N of LOG with robot R's program replaced and show what changes.

    Both versions of the turn keep the log's other programs and its choices; a choice that the
    new program makes impossible is dropped and its default policy decides, and the report says
    so. The report lists, event by event, what happens only in the original and only in the
    what-if, then the feet, circuits, dumps and scores that differ after the turn.

    --lang it or --lang fr writes the whole report in Italian or French, in the words of that
    language's rulebook, with the same words as replay and explain: programs, choices, events,
    places, scores and the refused choices. PROGRAM is still written as a log writes it, in
    English. --format json stays in English whatever --lang says.

    Exit status 0; 2 when the log, the turn, the robot or the program is invalid (an illegal
    program is reported with the robot and the reason); 4 when more than 256 positions agree
    with the log at or before turn N (see ``replay --max-open``).
    """
    name = source_name(log)
    game = load_log(log)
    try:
        program = parse_program(program_text)
    except InvalidStateError as error:
        fail(f"--program: {error}")
    try:
        replayed = replay_to_turn(game, turn, name)
        result = what_if(replayed, robot, program)
    except LogError as error:
        refuse_log(error, lang)
    except InvalidStateError as error:
        fail(f"{name}: turn {turn}: {error}")
    except IllegalProgramError as error:
        fail(f"{name}: turn {turn}: the what-if program is illegal: {error}")
    except GameOverError as error:  # pragma: no cover - the replay refuses it first
        fail(f"{name}: turn {turn}: {error}")
    if output_format == "json":
        echo_json(whatif_json(result, name))
    else:
        for line in whatif_text(result, name, lang):
            say(line)


def whatif_text(result: WhatIf, name: str, lang: str = "en") -> list[str]:
    """The report of a what-if, for people, in ``lang``."""
    t = translator(lang)
    replayed = result.replayed
    before = replayed.programs[result.robot]
    lines = [
        t.gettext(
            "What if robot {robot} had played {program} instead of {before} on turn {turn} "
            "of {name}?"
        ).format(
            robot=result.robot,
            program=program_words(result.program, lang),
            before=program_words(before, lang),
            turn=replayed.turn,
            name=name,
        ),
        "  "
        + t.gettext("original: {programs}").format(programs=programs_line(replayed.programs, lang)),
        "  "
        + t.gettext("what-if:  {programs}").format(programs=programs_line(result.programs, lang)),
    ]
    lines += inferred_lines(replayed, lang)
    for label, resolution in (
        (t.pgettext("the turn as logged", "original"), result.original),
        (t.pgettext("the turn with the program replaced", "what-if"), result.changed),
    ):
        lines += [
            "  "
            + t.gettext(
                "! {label}: choice refused: {refusal}; its default policy decides instead"
            ).format(label=label, refusal=fact_text(refused_choice(error), lang))
            for error in resolution.refused
        ]
    difference = result.difference
    if difference.same:
        lines.append(t.gettext("The what-if changes nothing on this turn."))
        return lines
    events = difference.events
    if events.only_base:
        lines.append(t.gettext("Events only in the original:"))
        lines += [f"  - {event_text(event, lang)}" for event in events.only_base]
    if events.only_other:
        lines.append(t.gettext("Events only in the what-if:"))
        lines += [f"  + {event_text(event, lang)}" for event in events.only_other]
    if difference.state:
        lines.append(t.gettext("After the turn, what differs (what-if, original in brackets):"))
        label = t.pgettext("the turn as logged", "original")
        lines += [f"  {item.describe(label, lang)}" for item in difference.state]
    else:
        lines.append(t.gettext("After the turn the position is the same."))
    return lines


def whatif_json(result: WhatIf, name: str) -> dict[str, Any]:
    """The report of a what-if, for programs."""
    replayed = result.replayed
    return {
        "log": name,
        "turn": replayed.turn,
        "robot": result.robot,
        "program": str(result.program),
        "original_program": str(replayed.programs[result.robot]),
        "programs": programs_json(replayed.programs),
        "whatif_programs": programs_json(result.programs),
        **inferred_fields(replayed),
        "refused_choices": {
            "original": [refusal_json(error) for error in result.original.refused],
            "whatif": [refusal_json(error) for error in result.changed.refused],
        },
        "changes_outcome": not result.difference.same,
        "difference": difference_json(result.difference, "original", "whatif"),
    }
