"""``outofgears record LOG``: enter a game turn by turn, as it is played at a table.

The log is created when it is missing (with the options of ``outofgears new``), else read
and replayed to the current table (:func:`outofgears.judge.replay.replay_log`). Then, turn after
turn, the command asks what the table did, checks each answer on the spot with the engine and
asks again on a bad one, resolves the turn, shows what happened and the new table, and appends
the turn to the log, which is rewritten whole or not at all.

The questions of a turn are :data:`QUESTIONS`: small functions, each taking the turn as
answered so far (a :class:`TurnDraft`), the answers the command line gave (:class:`Given`) and
who answers the rest (:class:`Asker`), and returning the turn with its answer. Adding a
question is adding one function there.

The asker speaks the players' language (``--lang``): every sentence is a gettext message of
:mod:`outofgears.words`, the turns and departures are ``replay``'s own lines, and an answer's
refusal is said by :func:`refused_text`. The answers' grammar stays the log's (its shapes,
shown in backquotes), but yes and no (:func:`read_yes_no`), the cards (typed by the
rulebook's names too: :func:`~outofgears.cli.table_words.parse_table_program`) and the gears and
places (:func:`~outofgears.cli.table_words.table_answer`, which each reader of an answer runs
first) may be typed in the language; the hints show them so (:func:`typed`).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final, TypeVar

import attrs
import click
from attrs import field, frozen

from outofgears.cli.common import (
    AGREES,
    DEPARTS,
    UNDECIDED,
    AsciiIntRange,
    check_output,
    deliver,
    fail,
    json_safe,
    lang_option,
    notes_lines,
    output_error,
    output_path,
    say,
    scores_lines,
)
from outofgears.cli.locking import check_not_linked, replace_if_unchanged, signals_held
from outofgears.cli.reports import departure_text, turn_text, undecided_line
from outofgears.cli.starting import Header, header_options, new_game
from outofgears.cli.table_words import (
    Examples,
    add_recorded,
    answer_in,
    parse_drawn,
    parse_gear_list,
    parse_robot,
    parse_shares,
    parse_split_place,
    parse_steal,
    parse_table_program,
    split_keyed,
    table_answer,
)
from outofgears.errors import (
    IllegalChoiceError,
    IllegalProgramError,
    InvalidStateError,
    OutOfGearsError,
    printable,
    show,
)
from outofgears.judge.replay import Departure, Replay, TurnReplay, arrange_draws, replay_log
from outofgears.judge.start import spec_note_facts
from outofgears.log import (
    MAX_LOG_BYTES,
    ChoicesRecord,
    LogError,
    Recorded,
    SplitRecord,
    StealRecord,
    TurnRecord,
    format_json,
    log_to_json,
    read_log_bytes,
)
from outofgears.rules.assembly import assembly_options
from outofgears.rules.events import Event, GearMoved, SplitResolved
from outofgears.rules.exploration import dumps_explored
from outofgears.rules.gears import Gear, describe_gears, gear_key, gear_ranks, sort_gears
from outofgears.rules.model import GameState, Place
from outofgears.rules.programs import (
    AnyProgram,
    Program,
    check_robot_program,
    legal_programs,
    parse_program,
    validate_programs,
)
from outofgears.rules.refusals import Refusal
from outofgears.rules.turn import TurnResult, resolve_turn
from outofgears.words import (
    card_name,
    clause_title,
    colour_name,
    gears_text,
    place_text,
    position_lines,
    translator,
)
from outofgears.words.findings import fact_text, refusal_text

T = TypeVar("T")

#: The most legal assemblies a question lists; beyond, it says "any two of them".
MAX_LISTED: Final = 10


class RecordingStoppedError(OutOfGearsError):
    """The recording stops: an empty answer for a turn's first program, or standard input
    ended.

    Attributes:
        unfinished: Whether the turn had answers already (they are not recorded).
    """

    def __init__(self, *, unfinished: bool) -> None:
        super().__init__("the turn was left unfinished" if unfinished else "stopped")
        self.unfinished = unfinished


class Terminated(BaseException):
    """SIGTERM came while ``record`` was asking or working (raised by its handler, which the
    command installs first thing); a base exception, as no ``except Exception`` may take it."""


def on_sigterm(signum: int, frame: object) -> None:
    """``record``'s SIGTERM handler: unwind to the command, which says what was written."""
    raise Terminated()


# --- who answers -----------------------------------------------------------------------------


def read_answer(question: str) -> str:
    """One line typed after ``question``; :class:`RecordingStoppedError` when standard input ends."""
    if sys.stdin is None:
        raise RecordingStoppedError(unfinished=True)
    try:
        answer = input(printable(question) + " ")
    except EOFError:
        click.echo()  # the question's line ends here, not in the next message
        raise RecordingStoppedError(unfinished=True) from None
    if not sys.stdin.isatty():
        click.echo(printable(answer))  # answers from a file or a pipe, shown as typed
    return answer


@frozen
class Asker:
    """Who answers the questions the command line left open: the person at the keyboard
    (``interactive``), or nobody, which leaves every optional answer empty. ``typed`` keeps
    the answers given so far, so that a stop can say whether a turn in progress is lost."""

    interactive: bool
    typed: list[str] = field(factory=list, eq=False)
    #: The language of the questions, hints and refusals (:data:`outofgears.words.LANGUAGES`).
    lang: str = "en"

    def ask(self, question: str, read: Callable[[str], T], shape: str = "") -> T | None:
        """The answer to ``question`` as ``read`` takes it, asking again with the reason while
        ``read`` refuses it; ``None`` for an empty answer (or when nobody answers). ``shape``
        says in the asker's language how to write the answer (the reason, in Italian or
        French, for an answer that cannot be read)."""
        if not self.interactive:
            return None
        while True:
            text = read_answer(question).strip()
            if not text:
                return None
            self.typed.append(text)
            try:
                return read(text)
            except OutOfGearsError as error:
                say(again_line(refused_text(error, text, shape, self.lang), self.lang))


def again_line(reason: str, lang: str) -> str:
    """An answer refused, asked again."""
    t = translator(lang)
    return t.gettext("  not taken: {error}. Again, or an empty answer to leave it.").format(
        error=reason
    )


def refused_text(error: OutOfGearsError, text: str, shape: str, lang: str) -> str:
    """Why an answer ``text`` is refused, in ``lang``: in English the error's own words; in
    Italian or French a choice the rules refuse as they say it, a program by the clause it
    breaks, and any other answer as one that cannot be read, with how to write it."""
    if lang == "en":
        return str(error)
    t = translator(lang)
    if isinstance(error, IllegalChoiceError) and isinstance(error.refusal, Refusal):
        return f"{refusal_text(error.refusal, lang)} ({error.clause})"
    if isinstance(error, IllegalProgramError):
        return t.gettext("robot {robot} may not lay that program: {title} ({clause})").format(
            robot=error.robot, title=clause_title(error.clause, lang), clause=error.clause
        )
    if shape:
        return t.gettext("{answer} cannot be read: {shape}").format(answer=show(text), shape=shape)
    return t.gettext("{answer} cannot be read").format(answer=show(text))


def typed(text: str, lang: str) -> str:
    """An English answer as the players type it, inside a sentence: as is in English; in
    Italian or French with its gears and places in the language, in backquotes."""
    return text if lang == "en" else f"`{answer_in(text, lang)}`"


def quoted(text: str, lang: str) -> str:
    """An English answer as the players type it, quoted: ``'red from feet'``; in Italian or
    French as :func:`typed` writes it."""
    return f"'{text}'" if lang == "en" else typed(text, lang)


def answer_gears(items: Iterable[Gear], lang: str) -> str:
    """Gears counted by colour, in English as a table says them (``"2 red, 1 blue"``); in
    Italian or French with the names a player types (``"2 `red`, 1 `blue`"``)."""
    if lang == "en":
        return gears_text(items, lang)
    counts = Counter(sort_gears(tuple(items)))
    if not counts:
        return translator(lang).pgettext("no gears", "none")
    return ", ".join(f"{count} {typed(str(gear), lang)}" for gear, count in counts.items())


# --- the turn as answered so far -------------------------------------------------------------


@frozen
class TurnDraft:
    """One turn as answered so far: the table before it, the programs, the choices, what
    the players wrote down. Every choice in it is one the rules allow."""

    state: GameState
    programs: dict[int, AnyProgram] = field(factory=dict)
    choices: ChoicesRecord = field(factory=ChoicesRecord)
    recorded: Recorded | None = None
    drawn: dict[int, Gear | None] | None = None
    #: Whether the log knows the reserve's order (a seed, or a list); if not, the table
    #: says what it turned up (``drawn``).
    order_known: bool = True
    #: The departures of the turn the table confirmed ("write it anyway"), by JSON path.
    confirmed: frozenset[str] = frozenset()
    #: The departures of this turn as the draft stands (the log replayed with it); the
    #: reason, as an :class:`~outofgears.errors.InvalidStateError`, for a value the log
    #: cannot hold. ``None``: nothing is checked while the turn is entered.
    judge: Callable[[TurnDraft], tuple[Departure, ...]] | None = field(
        default=None, eq=False, repr=False
    )

    def departures(self) -> tuple[Departure, ...]:
        """The departures of this turn the table has not confirmed."""
        found = self.judge(self) if self.judge is not None else ()
        return tuple(d for d in found if d.json_path not in self.confirmed)

    def confirming(self, departures: Iterable[Departure]) -> TurnDraft:
        """The draft with ``departures`` confirmed: written as the table recorded them."""
        paths = {departure.json_path for departure in departures}
        return attrs.evolve(self, confirmed=self.confirmed | paths)

    def resolve(self) -> TurnResult:
        """The turn resolved with its choices; :class:`~outofgears.errors.IllegalChoiceError`
        for one the rules refuse."""
        return resolve_turn(self.table(), self.programs, choices=self.choices.to_choices())

    def table(self) -> GameState:
        """The table before the turn, with the gears the table turned up on top of the
        reserve when its order is unknown (EXP-1)."""
        if self.order_known or self.drawn is None:
            return self.state
        arranged, _ = arrange_draws(self.state, self.record(), "$", "<record>", False)
        return arranged

    def choosing(self, **changes: Any) -> TurnDraft:
        """The draft with its choices changed, checked by resolving the turn with them."""
        draft = attrs.evolve(self, choices=attrs.evolve(self.choices, **changes))
        draft.resolve()
        return draft

    def with_steal(self, steal: StealRecord) -> TurnDraft:
        """The draft with one more defence steal (ATK-4)."""
        return self.choosing(defence_steals=(*self.choices.defence_steals, steal))

    def with_assembly(self, robot: int, gears: tuple[Gear, ...]) -> TurnDraft:
        """The draft with ``robot``'s assembly (ASM-1)."""
        return self.choosing(assemblies={**self.choices.assemblies, robot: gears})

    def with_split(self, split: SplitRecord) -> TurnDraft:
        """The draft with one more split the table agreed on (SPL-5)."""
        return self.choosing(splits=(*self.choices.splits, split))

    def record(self) -> TurnRecord:
        """The turn as the log writes it."""
        chose = self.choices != ChoicesRecord()
        return TurnRecord(
            turn=self.state.turn,
            programs=dict(self.programs),
            choices=self.choices if chose else None,
            recorded=self.recorded,
            drawn=self.drawn,
        )


# --- what the command line answers -----------------------------------------------------------


@frozen
class Given:
    """The answers the command line gives for the next turn (its ``--program``, ``--steal``,
    ``--assemble``, ``--split`` and ``--recorded`` options), read but not yet checked against
    the table."""

    programs: dict[int, AnyProgram] = field(factory=dict)
    steals: tuple[StealRecord, ...] = ()
    assemblies: dict[int, tuple[Gear, ...]] = field(factory=dict)
    splits: tuple[SplitRecord, ...] = ()
    recorded: tuple[str, ...] = ()
    drawn: dict[int, Gear | None] = field(factory=dict)

    @property
    def anything(self) -> bool:
        """Whether the command line answers anything."""
        return self != Given()

    def scripted(self, state: GameState) -> bool:
        """Whether the command line gives every program of the turn: then nothing is asked."""
        return set(state.robot_numbers) <= set(self.programs)


def keyed_options(option: str, texts: Iterable[str], read: Callable[[str, str], T]) -> list[T]:
    """Each ``KEY=VALUE`` of a repeated option read by ``read``; a message and exit status 2
    naming the option for one that cannot be read."""
    values = []
    for text in texts:
        try:
            values.append(
                read(*split_keyed(text, f"a {option} answer", f"write {option} KEY=VALUE"))
            )
        except OutOfGearsError as error:
            fail(f"{option} {text!r}: {error}")
    return values


def once_each(option: str, keys: Sequence[object]) -> None:
    """Refuse an option that answers the same question twice."""
    for index, key in enumerate(keys):
        if key in keys[:index]:
            fail(f"{option} answers for {key} twice")


def given_answers(
    programs: Sequence[str],
    steals: Sequence[str],
    assemblies: Sequence[str],
    splits: Sequence[str],
    recorded: Sequence[str],
    drawn: Sequence[str] = (),
) -> Given:
    """The answers the command line gives, read (not yet checked against the table)."""
    laid = keyed_options("--program", programs, lambda k, v: (parse_robot(k), parse_program(v)))
    once_each("--program", [f"robot {robot}" for robot, _ in laid])
    taken = keyed_options("--steal", steals, lambda k, v: parse_steal(v, parse_robot(k)))
    once_each("--steal", [f"robot {s.defender} from robot {s.attacker}" for s in taken])
    picked = keyed_options(
        "--assemble", assemblies, lambda k, v: (parse_robot(k), parse_gear_list(v))
    )
    once_each("--assemble", [f"robot {robot}" for robot, _ in picked])
    shared = keyed_options(
        "--split", splits, lambda k, v: SplitRecord(parse_split_place(k), parse_shares(v))
    )
    once_each("--split", [str(split.place) for split in shared])
    turned = keyed_options("--drawn", drawn, lambda k, v: (parse_robot(k, "dump"), parse_drawn(v)))
    once_each("--drawn", [f"dump {dump}" for dump, _ in turned])
    return Given(
        dict(laid), tuple(taken), dict(picked), tuple(shared), tuple(recorded), dict(turned)
    )


# --- the questions of a turn -----------------------------------------------------------------

#: A question of a turn: the turn so far, the command line's answers, who answers the rest.
Question = Callable[[TurnDraft, Given, Asker], TurnDraft]


def ask_programs(draft: TurnDraft, given: Given, asker: Asker) -> TurnDraft:
    """Every robot's program (PRG-1), each legal on its own, then all of them together
    (partners in the two-robot variant: VAR-2, UPG-4)."""
    state = draft.state
    for robot in sorted(set(given.programs) - set(state.robot_numbers)):
        fail(f"--program: robot {robot} is not in play ({in_play(state)})")
    programs: dict[int, AnyProgram] = {}
    for robot in state.robot_numbers:
        if robot in given.programs:
            programs[robot] = given_program(state, robot, given.programs[robot])
        else:
            first = not programs and not given.programs
            programs[robot] = asked_program(state, robot, asker, first=first)
    while True:
        try:
            validate_programs(state, programs)
        except IllegalProgramError as error:
            if not asker.interactive:
                fail(f"--program: {error}")
            reason = refused_text(error, "", "", asker.lang)
            say(translator(asker.lang).gettext("  not taken: {error}.").format(error=reason))
            programs[error.robot] = asked_program(state, error.robot, asker, first=False)
            continue
        return attrs.evolve(draft, programs=programs)


def given_program(state: GameState, robot: int, program: AnyProgram) -> AnyProgram:
    """A program the command line gives, checked on its own."""
    try:
        return legal_program(state, robot, str(program))
    except OutOfGearsError as error:
        fail(f"--program {robot}={program}: {error}")


def asked_program(state: GameState, robot: int, asker: Asker, *, first: bool) -> AnyProgram:
    """One robot's program, asked until a legal one is given. An empty answer for the first
    robot asked stops the recording."""
    lang = asker.lang
    t = translator(lang)
    hint = programs_hint(legal_programs(state, robot), lang)
    question = t.gettext("Robot {robot} ({player}, {colour}) program [{hint}]:").format(
        robot=robot,
        player=state.player_of(robot).name,
        colour=colour_name(robot, lang),
        hint=hint,
    )
    shape = t.gettext("robot {robot} may lay {programs}").format(robot=robot, programs=hint)
    while True:
        try:
            program = asker.ask(
                question, lambda text: legal_program(state, robot, text, lang), shape
            )
        except RecordingStoppedError:
            raise RecordingStoppedError(unfinished=not first) from None
        if program is not None:
            return program
        if first:
            raise RecordingStoppedError(unfinished=False)
        say(t.gettext("  every robot lays a program (an empty answer for the first robot stops)."))


def legal_program(state: GameState, robot: int, text: str, lang: str = "en") -> AnyProgram:
    """The program ``text`` names (read forgivingly: ``Harvest1``; in Italian or French also
    with the card's name in ``lang``), if ``robot`` may lay it on the next turn (PRG-2,
    UPG-2, UPG-3); else the reason, naming the programs it may lay."""
    legal = legal_programs(state, robot)
    try:
        program = parse_table_program(text, lang)
    except InvalidStateError:
        raise InvalidStateError(
            f"{show(text)} is not a program: robot {robot} may lay {programs_hint(legal)} "
            "(such as 'attack " + str(state.robot_numbers[0]) + "')"
        ) from None
    if program not in legal:
        check_robot_program(state, robot, program)  # raises with the reason
    return program


def programs_hint(programs: Sequence[AnyProgram], lang: str = "en") -> str:
    """The legal programs of a robot, short: ``"attack, trap, harvest 1-4; super trap"``, the
    cards named in ``lang`` (as the players may type them).

    >>> from outofgears.rules.setup import setup_game
    >>> programs_hint(legal_programs(setup_game([1, 2, 5], seed=1), 2))
    'attack, trap, harvest 1, 2, 5'
    >>> programs_hint(legal_programs(setup_game([1, 2, 5], seed=1), 2), "fr")
    'Attaque, Piège, Récolte 1, 2, 5'
    """
    cards = [program for program in programs if isinstance(program, Program)]
    numbers = sorted({program.number for program in cards})
    actions = list(dict.fromkeys(program.action for program in cards))
    shown = ", ".join(map(str, numbers))
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 2:
        shown = f"{numbers[0]}-{numbers[-1]}"
    upgrades = [program.card for program in programs if not isinstance(program, Program)]
    names = [action.value if lang == "en" else card_name(action, lang) for action in actions]
    upgrade_names = [card.value if lang == "en" else card_name(card, lang) for card in upgrades]
    return "; ".join([f"{', '.join(names)} {shown}", *upgrade_names])


@frozen
class Decision:
    """A decision the table may make once the programs are revealed, and how to ask it.

    Attributes:
        key: Which decision it is (a defender and attacker, a place, a robot).
        question: The question, with the default the rules apply to an empty answer.
        read: The draft with the answer taken, or the reason it is refused.
        shape: How to write the answer, in the question's language.
        default: The English answer that an empty answer stands for (the rules' default).
    """

    key: object
    question: str
    read: Callable[[TurnDraft, str], TurnDraft]
    shape: str = ""
    default: str = ""


def ask_decisions(
    draft: TurnDraft,
    asker: Asker,
    decided: set[object],
    decisions: Callable[[TurnDraft, TurnResult, str], list[Decision]],
) -> TurnDraft:
    """Ask each decision of one kind not yet decided, in the order the turn meets them; the
    turn is resolved again after each answer, as an answer can change what comes next."""
    while True:
        found = decisions(draft, draft.resolve(), asker.lang)
        pending = [d for d in found if d.key not in decided]
        if not pending:
            return draft
        decision = pending[0]
        decided.add(decision.key)
        answered = asker.ask(decision.question, partial(decision.read, draft), decision.shape)
        if answered is not None:
            draft = answered


def take_given(option: str, what: object, add: Callable[[T], TurnDraft], choice: T) -> TurnDraft:
    """A choice the command line gives, checked against the rules; exit status 2 if refused."""
    try:
        return add(choice)
    except OutOfGearsError as error:
        fail(f"{option} ({what}): {error}")


def ask_steals(draft: TurnDraft, given: Given, asker: Asker) -> TurnDraft:
    """The gear each defender took from each of its attackers (ATK-4; default ATK-5)."""
    for steal in given.steals:
        draft = take_given("--steal", f"robot {steal.defender}", draft.with_steal, steal)
    decided: set[object] = {(s.defender, s.attacker) for s in draft.choices.defence_steals}
    return ask_decisions(draft, asker, decided, steal_decisions)


def steal_decisions(draft: TurnDraft, result: TurnResult, lang: str = "en") -> list[Decision]:
    """The defence steals of the turn as resolved: each defender that took a gear."""
    t = translator(lang)
    decisions = []
    for event in result.events:
        if isinstance(event, GearMoved) and event.clause in ("ATK-4", "SATK-2"):
            defender, attacker = event.robot, event.source.number
            assert defender is not None
            sources = quoted(f"{event.gear} from feet", lang)
            if draft.state.options.defence_steal_source == "feet_or_circuit":
                sources = t.gettext("{one} or {other}").format(
                    one=sources, other=quoted(f"{event.gear} from circuit", lang)
                )
            default = typed(f"{event.gear} from {event.source.kind.value}", lang)
            question = t.gettext(
                "Robot {defender} defended against robot {attacker}: which gear did it "
                "take? ({sources}; empty: the default, {default}, ATK-5)"
            ).format(defender=defender, attacker=attacker, sources=sources, default=default)
            shape = t.gettext("write {sources}").format(sources=sources)
            decisions.append(
                Decision(
                    (defender, attacker),
                    question,
                    partial(read_steal, defender, attacker, lang=lang),
                    shape,
                    f"{event.gear} from {event.source.kind.value}",
                )
            )
    return decisions


def read_steal(
    defender: int, attacker: int, draft: TurnDraft, text: str, lang: str = "en"
) -> TurnDraft:
    """The draft with the defence steal ``text`` says (``"red from feet"``, or in ``lang``)."""
    said = table_answer(text, lang)
    return draft.with_steal(parse_steal(said, defender, attacker, Examples.of(draft.state)))


def ask_splits(draft: TurnDraft, given: Given, asker: Asker) -> TurnDraft:
    """How each pile shared among several takers was split (SPL-1 to SPL-4; default SPL-5)."""
    for split in given.splits:
        draft = take_given("--split", split.place, draft.with_split, split)
    decided: set[object] = {split.place for split in draft.choices.splits}
    return ask_decisions(draft, asker, decided, split_decisions)


def split_decisions(draft: TurnDraft, result: TurnResult, lang: str = "en") -> list[Decision]:
    """The splits of the turn as resolved that the table could have made otherwise: piles
    shared among several takers, holding more than one kind of gear (a Super Shovel's split is
    the default's, R-SHOVEL)."""
    t = translator(lang)
    decisions = []
    events = result.events
    for index, event in enumerate(events):
        if not isinstance(event, SplitResolved) or event.clause != "SPL-1":
            continue
        shares = shares_after(events[index + 1 :], event)
        pool = [*event.left, *(gear for share in shares.values() for gear in share)]
        if len(set(pool)) < 2 or any(
            isinstance(e, GearMoved) and e.source == event.place and e.clause.startswith("SHOV")
            for e in events[index + 1 : index + 1 + len(pool)]
        ):
            continue
        default = ", ".join(f"{robot}:{pick_text(share)}" for robot, share in shares.items())
        place = event.place
        question = t.gettext(
            "{place} was shared by robots {takers}, {share} each, from {pool}: how? (written "
            "like the default split, {default}, SPL-5, which an empty answer leaves)"
        ).format(
            place=place_text(place, lang),
            takers=", ".join(map(str, event.takers)),
            share=event.share,
            pool=answer_gears(pool, lang),
            default=typed(default, lang),
        )
        shape = t.gettext("write each taker's share like the default split, {default}").format(
            default=typed(default, lang)
        )
        read = partial(read_split, place, lang=lang)
        decisions.append(Decision(place, question, read, shape, default))
    return decisions


def read_split(place: Place, draft: TurnDraft, text: str, lang: str = "en") -> TurnDraft:
    """The draft with the split of ``place`` that ``text`` says (``"1:red, 2:blue"``, or in
    ``lang``)."""
    shares = parse_shares(table_answer(text, lang), Examples.of(draft.state))
    return draft.with_split(SplitRecord(place, shares))


def shares_after(events: Sequence[Event], split: SplitResolved) -> dict[int, tuple[Gear, ...]]:
    """What each taker got in a split: the moves from its place that follow it."""
    shares: dict[int, tuple[Gear, ...]] = dict.fromkeys(split.takers, ())
    for event in events:
        if not (isinstance(event, GearMoved) and event.source == split.place):
            break
        if event.robot in shares:
            shares[event.robot] += (event.gear,)
    return shares


def ask_assemblies(draft: TurnDraft, given: Given, asker: Asker) -> TurnDraft:
    """Which two feet gears each robot moved into its circuit, or none where assembly is
    optional (ASM-1; default ASM-2)."""
    for robot, gears in given.assemblies.items():
        draft = take_given(
            "--assemble", f"robot {robot}", partial(draft.with_assembly, robot), gears
        )
    decided: set[object] = set(draft.choices.assemblies)
    return ask_decisions(draft, asker, decided, assembly_decisions)


def assembly_decisions(draft: TurnDraft, result: TurnResult, lang: str = "en") -> list[Decision]:
    """The robots that had more than one legal assembly in the turn as resolved."""
    t = translator(lang)
    rule = draft.state.options.assembly
    decisions = []
    for robot in draft.state.robot_numbers:
        moved = tuple(
            event.gear
            for event in result.events
            if isinstance(event, GearMoved)
            and event.robot == robot
            and event.destination == Place.circuit(robot)
            and event.clause.startswith("ASM")
        )
        feet = (*result.state.robot(robot).feet, *moved)
        options = assembly_options(robot, gear_ranks(feet), rule)
        if len(options) < 2:
            continue
        legal = " | ".join(typed(pick_text(pick), lang) for pick in options)
        if len(options) > MAX_LISTED and rule == "optional":
            legal = t.gettext("any two of them or {none}").format(none=typed("none", lang))
        elif len(options) > MAX_LISTED:
            legal = t.gettext("any two of them")
        question = t.gettext(
            "Robot {robot} assembled which two of {feet}? ({legal}; empty: the default pick, "
            "{default}, ASM-2)"
        ).format(
            robot=robot,
            feet=answer_gears(feet, lang),
            legal=legal,
            default=typed(pick_text(moved), lang),
        )
        shape = t.gettext("write two of its gears, such as {pick}").format(
            pick=typed(pick_text(options[0]), lang)
        )
        read = partial(read_assembly, robot, lang=lang)
        decisions.append(Decision(robot, question, read, shape, pick_text(moved)))
    return decisions


def pick_text(gears: Sequence[Gear]) -> str:
    """Gears the way an answer writes them: ``"red+yellow"``, or ``"none"``.

    >>> from outofgears.rules.gears import gears
    >>> pick_text((gears(3)[0], gears(1)[0])), pick_text(())
    ('red+yellow', 'none')
    """
    return "+".join(map(str, sort_gears(gears))) if gears else "none"


def read_assembly(robot: int, draft: TurnDraft, text: str, lang: str = "en") -> TurnDraft:
    """The draft with the assembly of ``robot`` that ``text`` says (``"red, yellow"``, or in
    ``lang``)."""
    gears = parse_gear_list(table_answer(text, lang), Examples.of(draft.state))
    return draft.with_assembly(robot, gears)


def ask_recorded(draft: TurnDraft, given: Given, asker: Asker) -> TurnDraft:
    """What the players wrote down after the turn, if anything: feet, circuits, dumps,
    scores. Replay compares them with what the rules give."""
    players = tuple(player.name for player in draft.state.players)
    recorded = Recorded()
    for text in given.recorded:
        try:
            recorded = add_checked(draft.state, recorded, players, text)
        except OutOfGearsError as error:
            fail(f"--recorded {text!r}: {error}")
    lang = asker.lang
    t = translator(lang)
    forms = recorded_forms(Examples.of(draft.state), lang)
    question = t.gettext(
        "What did the players write down after turn {turn}? ({forms}; one a line; empty: nothing)"
    ).format(turn=draft.state.turn, forms=forms)
    shape = t.gettext("write {forms}").format(forms=forms)
    while True:
        try:
            read = partial(add_checked, draft.state, recorded, players, lang=lang)
            added = asker.ask(question, read, shape)
        except RecordingStoppedError:
            break  # the input ended on an optional question: the turn is complete
        if added is None:
            break
        with_value = attrs.evolve(draft, recorded=added)
        try:
            departing = with_value.departures()
        except InvalidStateError as error:
            say(again_line(refused_text(error, asker.typed[-1], shape, lang), lang))
            continue
        new = [d for d in departing if d.json_path not in previous_paths(draft)]
        if new and not confirmed(new, asker, t.gettext("Write it down as recorded anyway?")):
            say(t.gettext("  not written down. Again, or an empty answer to leave it."))
            continue
        draft = with_value.confirming(new)
        recorded = added
        question = t.gettext("Anything more written down? (empty: no)")
    return attrs.evolve(draft, recorded=recorded if recorded != Recorded() else None)


def recorded_forms(examples: Examples, lang: str) -> str:
    """The ways to write a value written down, as the players type them: ``'robot 3
    feet=red,yellow', 'robot 3 circuit=none', 'dump 4=blue' or 'score Ada=12'``."""
    robot, gear, second = examples.robot, examples.gear, examples.second
    forms = [
        f"robot {robot} feet={gear},{second}",
        f"robot {robot} circuit=none",
        f"dump {examples.dump}={examples.third}",
    ]
    return (
        translator(lang)
        .gettext("{one} or {other}")
        .format(
            one=", ".join(quoted(form, lang) for form in forms),
            other=quoted(f"score {examples.player}=12", lang),
        )
    )


def previous_paths(draft: TurnDraft) -> set[str]:
    """The JSON paths of the departures the draft has already (confirmed or not)."""
    try:
        return {d.json_path for d in draft.judge(draft)} if draft.judge is not None else set()
    except InvalidStateError:
        return set()


def confirmed(departures: Sequence[Departure], asker: Asker, question: str) -> bool:
    """Whether the table confirms values that depart from the rules: each departure is shown
    as ``replay`` shows it, and only an explicit "yes" writes them."""
    lang = asker.lang
    t = translator(lang)
    for departure in departures:
        for line in departure_text(departure, lang):
            say(f"  {line}")
    answer = asker.ask(
        t.gettext(
            "{question} (yes: write it as the table recorded it; no or empty: enter it again)"
        ).format(question=question),
        partial(read_yes_no, lang=lang),
        t.gettext("answer yes or no"),
    )
    return answer is True


#: The words for yes and no in each language besides ``yes``, ``y``, ``no`` and ``n``.
YES_NO: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "en": ((), ()),
    "it": (("sì", "si", "s"), ()),
    "fr": (("oui", "o"), ("non",)),
}


def read_yes_no(text: str, lang: str = "en") -> bool:
    """``yes`` or ``no`` (``y``, ``n``, any case), or the same in ``lang`` (``sì``/``no``,
    ``oui``/``non``); the reason, in English, for anything else (the question says in its
    language how to answer it).

    >>> read_yes_no("YES"), read_yes_no("n"), read_yes_no("Sì", "it"), read_yes_no("non", "fr")
    (True, False, True, False)
    """
    word = text.strip().lower()
    yes, no = YES_NO[lang]
    if word in ("yes", "y", *yes):
        return True
    if word in ("no", "n", *no):
        return False
    raise InvalidStateError(f"{show(text)} is neither yes nor no")


def add_checked(
    state: GameState, recorded: Recorded, players: tuple[str, ...], text: str, lang: str = "en"
) -> Recorded:
    """``recorded`` with the value ``text`` gives (in English, or in ``lang``), which names
    only robots, dumps and players in play."""
    recorded = add_recorded(recorded, table_answer(text, lang), players, Examples.of(state))
    for robot in recorded.robots:
        if robot not in state.robot_numbers:
            raise InvalidStateError(f"robot {robot} is not in play ({in_play(state)})")
    for dump in recorded.dumps:
        if dump not in [dump.number for dump in state.dumps]:
            raise InvalidStateError(f"dump {dump} is not in play")
    return recorded


def ask_drawn(draft: TurnDraft, given: Given, asker: Asker) -> TurnDraft:
    """What was turned up onto each dump at exploration (EXP-1), when the log does not know
    the reserve's order: one gear for each dump, ascending, while the reserve lasts. Under a
    known order the rules know it; a ``--drawn`` answer is then kept and checked by replay."""
    pile = draft.state.reserve
    in_play = draft.state.robot_numbers
    dumps, _ = dumps_explored(in_play, pile)
    for dump, told in given.drawn.items():
        if dump not in in_play:
            fail(f"--drawn: dump {dump} is not in play (dumps in play: {in_play})")
        if dump not in dumps and told is not None:
            fail(f"--drawn: dump {dump} gets no gear this turn: the reserve has run out (EXP-1)")
    if draft.order_known or not dumps:
        return attrs.evolve(draft, drawn=dict(given.drawn) or None)
    left = Counter(pile)
    drawn: dict[int, Gear | None] = {}
    for dump in dumps:
        gear = given.drawn.get(dump)
        if gear is None and dump in given.drawn:
            fail(
                f"--drawn: dump {dump} gets a gear this turn: the reserve still holds "
                f"{describe_gears(sorted(left.elements(), key=gear_key))} (EXP-1)"
            )
        if gear is None:
            gear = asked_draw(dump, left, asker, Examples.of(draft.state))
        elif left[gear] == 0:
            held = describe_gears(sorted(left.elements(), key=gear_key))
            fail(f"--drawn: {gear} for dump {dump}, but the reserve holds {held}")
        left[gear] -= 1
        drawn[dump] = gear
    drawn.update((dump, None) for dump in given.drawn if dump not in dumps)
    return attrs.evolve(draft, drawn=dict(sorted(drawn.items())))


def asked_draw(dump: int, left: Counter[Gear], asker: Asker, words: Examples) -> Gear:
    """The gear the table turned up onto ``dump``, one the reserve still holds."""
    if not asker.interactive:
        fail(
            f"--drawn: the log does not know the reserve's order: say what was turned up onto "
            f"dump {dump} (--drawn {dump}=GEAR)"
        )

    t = translator(asker.lang)
    held = answer_gears(sorted(left.elements(), key=gear_key), asker.lang)
    holds = t.gettext("the reserve holds {gears}").format(gears=held)

    def one_held(text: str) -> Gear:
        gear = parse_drawn(table_answer(text, asker.lang), words)
        if gear is None or left[gear] == 0:
            raise InvalidStateError(holds)
        return gear

    question = t.gettext("Which gear was turned up onto dump {dump}? ({holds})").format(
        dump=dump, holds=holds
    )
    while True:
        gear = asker.ask(question, one_held, holds)
        if gear is not None:
            return gear
        say(t.gettext("  a gear is needed: the reserve still holds gears (EXP-1)."))


def in_play(state: GameState) -> str:
    """The robots in play, for a message."""
    return "robots in play: " + ", ".join(map(str, state.robot_numbers))


#: The questions of a turn, in the order they are asked.
QUESTIONS: Final[tuple[Question, ...]] = (
    ask_programs,
    ask_steals,
    ask_splits,
    ask_assemblies,
    ask_drawn,
    ask_recorded,
)


def ask_turn(
    state: GameState,
    given: Given,
    asker: Asker | None = None,
    *,
    order_known: bool = True,
    judge: Callable[[TurnDraft], tuple[Departure, ...]] | None = None,
) -> TurnDraft:
    """The next turn, every question answered by the command line or asked. Nothing is asked
    when the command line gives every program (:meth:`Given.scripted`). With ``judge``, a
    value written down that departs from the rules is shown at once and asked again unless
    the table confirms it."""
    asker = asker or Asker(interactive=not given.scripted(state))
    draft = TurnDraft(state, order_known=order_known, judge=judge)
    for question in QUESTIONS:
        draft = question(draft, given, asker)
    return draft


# --- the log file ----------------------------------------------------------------------------


@frozen
class LogFile:
    """The log being recorded: where it is, its bytes as last read or written, its replay."""

    path: Path
    name: str
    raw: bytes
    replayed: Replay

    @classmethod
    def read(cls, path: Path, name: str) -> LogFile:
        """Read and replay the log; a message and exit status 2 when it is not a valid log."""
        raw = read_regular(path, name)
        try:
            return cls(path, name, raw, replay_log(read_log_bytes(raw, name), name))
        except LogError as error:
            fail(error)

    @property
    def order_known(self) -> bool:
        """Whether the log knows the reserve's draw order (a seed, or the reserve as a list)."""
        position = self.replayed.log.start.position
        return position is None or position.reserve_order_known

    def replay_with(self, draft: TurnDraft) -> Replay:
        """The log's replay with ``draft`` as its next turn (:class:`LogError` if the log
        cannot hold it)."""
        game = self.replayed.log
        return replay_log(attrs.evolve(game, turns=(*game.turns, draft.record())), self.name)

    def departures_of(self, draft: TurnDraft) -> tuple[Departure, ...]:
        """The departures of the turn ``draft`` enters, as replay finds them; a value the log
        cannot hold is an :class:`InvalidStateError` with the reason."""
        try:
            replayed = self.replay_with(draft)
        except LogError as error:
            raise InvalidStateError(error.reason) from None
        return tuple(d for d in replayed.departures if d.turn == draft.state.turn)

    def with_turn(
        self, draft: TurnDraft, asker: Asker, *, write_departures: bool = False
    ) -> Replay:
        """The log's replay with ``draft`` as its next turn. A value that departs from the
        rules and was not confirmed while it was entered is shown, and written only when the
        table confirms it ("yes"), or, when nothing is asked, with ``write_departures``;
        otherwise what was written down is asked again (a draw the reserve's known order
        gives otherwise is dropped: the rules know it). When the log cannot hold what the
        players wrote down (gears the game does not have), they are asked again."""
        while True:
            try:
                replayed = self.replay_with(draft)
            except LogError as error:
                if not asker.interactive or ".recorded" not in error.json_path:
                    fail(error)
                t = translator(asker.lang)
                reason = (
                    error.reason
                    if asker.lang == "en"
                    else t.gettext("the log cannot hold what the players wrote down")
                )
                say(
                    t.gettext("  not taken: {error}. What the players wrote down, again:").format(
                        error=reason
                    )
                )
                draft = ask_recorded(attrs.evolve(draft, recorded=None), Given(), asker)
                continue
            new = [
                d
                for d in replayed.departures
                if d.turn == draft.state.turn and d.json_path not in draft.confirmed
            ]
            if not new or (not asker.interactive and write_departures):
                return replayed
            if not asker.interactive:
                fail(departures_refusal(draft.state.turn, new))
            question = (
                translator(asker.lang)
                .gettext("Turn {turn} departs from the rules. Write it anyway?")
                .format(turn=draft.state.turn)
            )
            if confirmed(new, asker, question):
                return replayed
            draft = entered_again(draft, new, asker)

    def append(self, record: TurnRecord, replayed: Replay) -> LogFile:
        """The log with ``record`` appended: the file is rewritten whole or not at all, with
        its mode, and only if nobody changed it since it was read (the re-read, the check
        and the replacement under one lock: :func:`~outofgears.cli.locking.replace_if_unchanged`).
        Every key of the log is kept as it was."""
        data = json.loads(self.raw.decode("utf-8-sig"))
        data["turns"].append(
            log_to_json(attrs.evolve(self.replayed.log, turns=(record,)))["turns"][0]
        )
        text = json_safe(format_json(data)) + "\n"
        replace_if_unchanged(self.path, self.name, self.raw, text, what=f"turn {record.turn}")
        return LogFile(self.path, self.name, text.encode("utf-8"), replayed)


def departures_refusal(turn: int, departures: Sequence[Departure]) -> str:
    """Why a turn given on the command line is not written: it departs from the rules."""
    what = "; ".join(str(departure) for departure in departures)
    return (
        f"turn {turn} is not written: it departs from the rules ({what}); correct the "
        "option, or give --write-departures to write the turn as the table recorded it"
    )


def entered_again(draft: TurnDraft, departures: Sequence[Departure], asker: Asker) -> TurnDraft:
    """The draft with the departing values entered again: a departing draw under a known
    order is dropped (the rules know it), what was written down is asked again."""
    t = translator(asker.lang)
    if any(".drawn" in d.json_path for d in departures):
        say(t.gettext("  the draws are left to the reserve's known order."))
        draft = attrs.evolve(draft, drawn=None)
    if any(".recorded" in d.json_path for d in departures):
        say(t.gettext("  What the players wrote down, again:"))
        draft = ask_recorded(attrs.evolve(draft, recorded=None), Given(), asker)
    if not any(".drawn" in d.json_path or ".recorded" in d.json_path for d in departures):
        fail(departures_refusal(draft.state.turn, departures))  # nothing to enter again
    return draft


def read_regular(path: Path, name: str) -> bytes:
    """The bytes of a regular file (never a FIFO, a device or a link), at most one byte more
    than a log may hold; a message and exit status 2 when it cannot be read."""
    try:
        check_output(path, force=True)
        with path.open("rb") as file:
            return file.read(MAX_LOG_BYTES + 1)
    except OSError as error:
        fail(
            f"cannot read {printable(name)}: {error.strerror or error}"
            if error.strerror
            else str(error)
        )


def log_path(text: str) -> Path:
    """The path of LOG: a regular file that can be rewritten, or none yet. Standard input,
    a directory, a FIFO, a device, a socket or a symbolic link is refused, and so is a file
    that its owner may not write."""
    if text == "-":
        fail("record writes its log: give a file, not - (standard input)")
    path = Path(text)
    try:
        check_output(path, force=True)
    except OSError as error:
        fail(output_error(text, error))
    if os.path.lexists(path) and not writable(path):
        fail(f"{printable(text)} is read-only; record rewrites it with each turn")
    check_not_linked(path, text)
    return path


def writable(path: Path) -> bool:
    """Whether a file may be rewritten: its mode lets someone write it (even for root, a
    file without any write permission is one its owner means to keep) and this process may."""
    return bool(path.stat().st_mode & 0o222) and os.access(path, os.W_OK)


def create_log(path: str, header: Header, lang: str = "en") -> None:
    """Write the log of the new game the header options describe, as ``new -o`` does."""
    game = new_game(header)
    target = output_path(path, force=False)
    with signals_held() as came:  # the new log is written whole, then a signal acted on
        deliver(game.text, target, path, force=False)
    say(game.written_line(path, lang))
    if signal.SIGINT in came:
        raise KeyboardInterrupt
    if came:
        raise Terminated()


# --- the command -----------------------------------------------------------------------------


@click.command()
@click.argument("log", metavar="LOG", type=click.Path(dir_okay=False))
@header_options
@click.option(
    "--program",
    "programs",
    multiple=True,
    metavar='ROBOT="PROGRAM"',
    help='A robot\'s program for the next turn, as a log writes it: 1="attack 2". '
    "Repeat it for each robot; with every robot's program given, nothing is asked.",
)
@click.option(
    "--steal",
    "steals",
    multiple=True,
    metavar='DEFENDER="GEAR from robot A feet|circuit"',
    help='The gear a defender took from an attacker (ATK-4): 2="red from robot 1 circuit".',
)
@click.option(
    "--assemble",
    "assemblies",
    multiple=True,
    metavar="ROBOT=GEARS",
    help="The two feet gears a robot moved into its circuit (ASM-1): 3=red,yellow; "
    "3=none to assemble nothing where assembly is optional.",
)
@click.option(
    "--split",
    "splits",
    multiple=True,
    metavar='"PLACE=ROBOT:GEARS,..."',
    help='How the table split a pile (SPL-5): "dump 4=1:red,2:blue"; '
    '"robot 3 feet=1:red+red,2:blue".',
)
@click.option(
    "--recorded",
    "recorded",
    multiple=True,
    metavar='"PLACE=GEARS"',
    help='What the players wrote down after the turn: "robot 3 feet=red,yellow", '
    '"robot 3 circuit=none", "dump 4=blue", "score Ada=12".',
)
@click.option(
    "--drawn",
    "drawn",
    multiple=True,
    metavar="DUMP=GEAR",
    help="The gear turned up onto a dump at exploration (EXP-1): 1=red. Needed for every dump "
    "that gets one when the log gives the reserve as counts (its order unknown).",
)
@click.option(
    "--turns",
    "limit",
    type=AsciiIntRange(min=1),
    metavar="N",
    help="Stop after recording N turns. Default: until the game ends or input does.",
)
@click.option(
    "--write-departures",
    is_flag=True,
    help="Write the turn the options give even where a value departs from the rules (a "
    "--recorded value, a --drawn gear the reserve's known order does not give): the log keeps "
    "what the table wrote and record exits 1. Without it such a turn is not written (exit 2). "
    "At the keyboard the table is asked instead (write it anyway: yes or no).",
)
@lang_option("the questions, hints, tables, turns, departures and refusals")
@click.pass_context
def record(
    context: click.Context,
    /,
    log: str,
    programs: tuple[str, ...],
    steals: tuple[str, ...],
    assemblies: tuple[str, ...],
    splits: tuple[str, ...],
    recorded: tuple[str, ...],
    drawn: tuple[str, ...],
    limit: int | None,
    write_departures: bool,
    lang: str,
    **header: Any,
) -> None:
    """Enter a game in LOG turn by turn, as it is played at a table.

    A missing LOG is created as "outofgears new -o LOG" creates it, with the same options
    (--robots to --layout: a seed's deal, or the layout the table dealt; refused for a LOG
    that exists); an existing one is read and replayed to the current table. Then, for each
    turn, it asks each robot's program, the choices the table made (which gear a defender
    took, how a pile was split, which two gears a robot assembled: an empty answer leaves the
    rules' default), what was turned up onto each dump (asked only when the log gives the
    reserve as counts, its order unknown) and what the players wrote down (optional). Each
    answer is checked on the spot and asked again, with the reason, when the rules refuse it;
    a value written down that departs from the rules is shown as replay shows it and kept only
    after an explicit "yes". The turn is resolved, its events and the new table are shown, and
    it is appended to LOG. An empty answer for the first program of a turn, or the end of the
    input, stops.

    Answers are forgiving: any case, any spacing, a number glued to its word
    ("Harvest1" is "harvest 1", "robot3 feet=Red"), a player's name in any case when no
    other name differs only by case. The questions name only this game's robots (with their
    colours), gears and players. At a terminal the answers have line editing and history.

    The options --program, --steal, --assemble, --split, --drawn and --recorded answer the next
    turn's questions; given every program, nothing is asked, so that a script records a turn
    with one command. A turn they give that departs from the rules (a --recorded value, a
    --drawn gear the reserve's known order does not give) is written only with
    --write-departures.

    LOG is rewritten whole or not at all, keeping its mode: the re-read, the check that nobody
    changed it meanwhile and the replacement are one step under a lock on LOG, so two record
    commands on one log are served one after the other (the second finds it changed). A LOG
    with other hard links is refused (replacing it would split it).

    With --lang it or --lang fr the questions, hints, tables, turns and departures are in
    Italian or French, in the rulebooks' words; a yes is also "sì" or "oui" (a no "no" or
    "non"), a card may be typed by its name in the language ("Raccolta 2", "Super Piège"),
    and so may the gears and places of the answers, word by word in the shapes of the English
    answers, as the hints show them in backquotes: the colours as the tables print them
    ("rossa", "rosse", "bleus"), "Jolly", "da 3 punti" or "à 3 points", "piedi"/"pieds",
    "circuito"/"circuit" (or "circuito interno"), "discarica"/"décharge", "punteggio" (a score), "nessuna"/"aucun"
    (none) and "da"/"dai"/"dal" or "de"/"des"/"du" (from): "rossa dai piedi", "robot 3
    piedi=rossa,gialla", "2:rouge+bleu", "Décharge 4=aucun". Any case, accents optional;
    English is read too. Options stay in English. The log is the same whatever the
    language.

    Exit status 0 when LOG, as recorded, agrees with the rules; 1 when a value the players
    wrote down departs from them (written after a "yes" or with --write-departures); 2 for an
    invalid LOG, option or answer given as an option, or a LOG that cannot be written
    (standard input, a directory, a FIFO, a device, a symbolic link, a read-only or
    hard-linked file). Ctrl-C: 130, saying whether the turn in progress was lost (a half
    entered turn is never written). SIGTERM: 143 when a turn in progress was lost; between
    turns, where nothing is lost, the status of LOG (0 or 1). A signal that comes while a turn
    is written waits for the write, then says the turn was written.
    """
    restore = handle_sigterm()  # first thing: a SIGTERM from here on is answered in words
    given_texts = {
        "programs": programs,
        "steals": steals,
        "assemblies": assemblies,
        "splits": splits,
        "recorded": recorded,
        "drawn": drawn,
    }
    t = translator(lang)
    try:
        line_editing()
        session = start_and_record(context, log, header, given_texts, limit, write_departures, lang)
    except Terminated:
        say(stopped_line(signal.SIGTERM, "start", lang))
        raise SystemExit(STOPPED_BY[signal.SIGTERM]) from None
    except KeyboardInterrupt:
        click.echo()  # the question's line ends here
        say(stopped_line(signal.SIGINT, "start", lang))
        raise SystemExit(STOPPED_BY[signal.SIGINT]) from None
    finally:
        restore()
    count = session.count
    say(
        t.ngettext(
            "Recorded {count} turn in {log}.", "Recorded {count} turns in {log}.", count
        ).format(count=count, log=log)
    )
    replayed = session.file.replayed
    if replayed.verdict == "undecided" and lang == "en":
        say(f"The log is {replayed.undecided}: outofgears replay {log} says which choices.")
    elif replayed.verdict == "undecided":
        assert replayed.undecided is not None
        say(undecided_line(replayed.undecided, lang))
    elif not replayed.agrees:
        say(
            t.gettext("The log departs from the rules: outofgears replay {log} says where.").format(
                log=log
            )
        )
    status = {"agrees": AGREES, "undecided": UNDECIDED}.get(replayed.verdict, DEPARTS)
    if session.stopped_by == signal.SIGINT or (session.stopped_by and session.lost):
        status = STOPPED_BY[session.stopped_by]
    raise SystemExit(status)


def line_editing() -> None:
    """Line editing and history for the answers typed at a terminal (the standard library's
    readline: arrow keys, Ctrl-R, the answers of earlier questions a key away). Only when
    standard input and output are both a terminal: piped answers are read as they come."""
    if sys.stdin is None or sys.stdout is None:
        return
    try:
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return
    if interactive:
        with contextlib.suppress(ImportError):  # a Python built without readline
            import readline  # noqa: F401 (importing it turns line editing on for input())


#: The exit status after a signal, as shells report it: 130 for Ctrl-C, 143 for SIGTERM.
STOPPED_BY: Final[dict[int, int]] = {
    signal.SIGINT: 128 + signal.SIGINT,
    signal.SIGTERM: 128 + signal.SIGTERM,
}


def handle_sigterm() -> Callable[[], None]:
    """Answer SIGTERM with :class:`Terminated` (in the main thread, where signals arrive);
    the function that puts the previous handler back."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.signal(signal.SIGTERM, on_sigterm)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)

    return restore


def start_and_record(
    context: click.Context,
    log: str,
    header: dict[str, Any],
    given_texts: dict[str, tuple[str, ...]],
    limit: int | None,
    write_departures: bool,
    lang: str = "en",
) -> Session:
    """Check LOG and the options, create LOG if it is missing, then record its turns."""
    path = log_path(log)
    given = given_answers(**given_texts)
    if not os.path.lexists(path):
        create_log(log, Header(**header), lang)
    elif Header.given(context):
        fail(
            f"{printable(log)} exists: {', '.join(Header.given(context))} only "
            f"{'describes' if len(Header.given(context)) == 1 else 'describe'} a new "
            "game (the log says how its game started)"
        )
    file = LogFile.read(path, log)
    return record_turns(file, given, limit, write_departures=write_departures, lang=lang)


@frozen
class Session:
    """How a recording ended: the log as last written, the turns recorded, and the signal
    that stopped it, if one did (``lost``: with a turn half entered, which was not written)."""

    file: LogFile
    count: int
    stopped_by: int | None = None
    lost: bool = False


def record_turns(
    file: LogFile,
    given: Given,
    limit: int | None,
    *,
    write_departures: bool = False,
    lang: str = "en",
) -> Session:
    """Record turns until the game ends, ``limit`` turns are recorded, the input stops or a
    signal (Ctrl-C, SIGTERM) comes, speaking ``lang``. A signal during the writing of a turn
    is acted on once the turn is written."""
    t = translator(lang)
    say_notes(file.replayed, lang)
    count = 0
    entering: tuple[int, Given, Asker] | None = None
    try:
        while True:
            state = file.replayed.final
            if state.game_over:
                if given.anything and count == 0:
                    fail(f"{file.name}: the game is over; there is no turn to record")
                say(
                    t.gettext("The game is over after turn {turn}. Scores:").format(
                        turn=state.turn - 1
                    )
                )
                for line in scores_lines(state, lang):
                    say(line)
                return Session(file, count)
            say(t.gettext("The table before turn {turn}:").format(turn=state.turn))
            for line in position_lines(state, lang):
                say(line)
            if count == limit:
                return Session(file, count)
            answers = given if count == 0 else Given()
            asker = Asker(interactive=not answers.scripted(state), lang=lang)
            entering = (state.turn, answers, asker)
            try:
                draft = ask_turn(
                    state,
                    answers,
                    asker,
                    order_known=file.order_known,
                    judge=file.departures_of,
                )
                replayed = file.with_turn(draft, asker, write_departures=write_departures)
            except RecordingStoppedError as stop:
                if stop.unfinished and answers.anything:
                    fail(f"standard input ended before turn {state.turn} was complete")
                if stop.unfinished:
                    say(
                        t.gettext("Turn {turn} was left unfinished; it is not recorded.").format(
                            turn=state.turn
                        )
                    )
                return Session(file, count)
            turn = replayed.turns[-1]
            for line in turn_lines(turn, lang):
                say(line)
            with signals_held() as came:
                file = file.append(turn.record, replayed)
                entering = None
            say(t.gettext("Turn {turn} written to {log}.").format(turn=turn.turn, log=file.name))
            count += 1
            if came:
                say(stopped_line(came[0], "written", lang, turn.turn))
                return Session(file, count, came[0])
    except (KeyboardInterrupt, Terminated) as stop:
        signum = signal.SIGINT if isinstance(stop, KeyboardInterrupt) else signal.SIGTERM
        click.echo()  # the question's line ends here
        if entering is None:
            say(stopped_line(signum, "between", lang))
            return Session(file, count, signum)
        number, answers, asker = entering
        lost = answers.anything or bool(asker.typed)
        if lost:
            say(stopped_line(signum, "lost", lang, number))
        else:
            say(stopped_line(signum, "unentered", lang, number))
        return Session(file, count, signum, lost)


def stopped_line(signum: int, when: str, lang: str, turn: int = 0) -> str:
    """What the command says in ``lang`` when a signal stopped it: ``when`` is ``start``
    (before any turn was entered), ``between`` (between turns), ``lost`` or ``unentered``
    (turn ``turn`` in progress, with or without answers) or ``written`` (turn ``turn`` just
    written)."""
    t = translator(lang)
    if signum == signal.SIGINT:
        stop = t.gettext("Interrupted (Ctrl-C)")
    else:
        stop = t.gettext("Terminated (SIGTERM)")
    sentences = {
        "start": t.gettext("{stop} before any turn was entered."),
        "between": t.gettext("{stop}; every turn entered is written."),
        "lost": t.gettext("{stop}: turn {turn} was not written."),
        "unentered": t.gettext("{stop} before turn {turn} was entered; nothing is lost."),
        "written": t.gettext("{stop} after turn {turn} was written; stopping."),
    }
    return sentences[when].format(stop=stop, turn=turn)


def turn_lines(turn: TurnReplay, lang: str = "en") -> list[str]:
    """A recorded turn as ``replay`` reports it: programs, what happened, departures."""
    lines = turn_text(turn, lang)
    for departure in turn.departures:
        lines += departure_text(departure, lang)
    return lines


def say_notes(replayed: Replay, lang: str = "en") -> None:
    """What the log as read says before the first question: notes of the replay, earlier
    departures, what its recorded values left open."""
    t = translator(lang)
    for line in notes_lines(spec_note_facts(replayed.log), lang):
        say(line)
    departed = sorted({departure.turn for departure in replayed.departures})
    if departed:
        say(
            t.ngettext(
                "Note: the log departs from the rules at turn {turns}; the table below is the "
                "one the rules give",
                "Note: the log departs from the rules at turns {turns}; the table below is the "
                "one the rules give",
                len(departed),
            ).format(turns=", ".join(map(str, departed)))
        )
    for fact in replayed.left_open:
        say(t.gettext("Note: {note}").format(note=fact_text(fact, lang)))
