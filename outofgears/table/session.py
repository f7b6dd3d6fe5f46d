"""The table session: one game entered turn by turn as it is played, with no user interface.

A face (``outofgears record`` at a terminal, the table in the browser) drives a
:class:`TableSession`:

1. :meth:`TableSession.question` says what to ask next (a :class:`Question`: its kind, its
   text in the table's language, how to write the answer, the rules' default, the legal
   answers where they can be listed, and the lines to show first), or ``None`` when the turn
   is entered whole;
2. :meth:`TableSession.answer` takes what was typed or tapped, or refuses it with the reason
   (:class:`AnswerRefusedError`); an empty answer takes the default, which the log then holds
   as the table's explicit choice;
3. :meth:`TableSession.undo` takes the last answer back;
4. :meth:`TableSession.entered` gives the finished turn (its record and the log replayed with
   it), which the face writes (:func:`~outofgears.log.writing.append_turn_text`), then
   :meth:`TableSession.written` moves the session on to the next turn.

The turn in progress is nothing but the answers taken so far (:attr:`TableSession.answers`):
each question is found by entering the turn again from them (:func:`enter_turn`, the one
procedure of a turn, with its questions in :data:`QUESTIONS`). So an answer is never lost or
reordered, undo is dropping the last one, and a session is restored from its log and that list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, Final, TypeVar

import attrs
from attrs import field, frozen

from outofgears.errors import (
    IllegalChoiceError,
    IllegalProgramError,
    InvalidStateError,
    OutOfGearsError,
    expect,
    show,
)
from outofgears.judge.replay import Departure, Replay, arrange_draws, replay_log
from outofgears.log import (
    ChoicesRecord,
    GameLog,
    LogError,
    Recorded,
    SplitRecord,
    StealRecord,
    TurnRecord,
)
from outofgears.rules.assembly import assembly_options
from outofgears.rules.choices import Choices
from outofgears.rules.events import Event, GearMoved, SplitResolved
from outofgears.rules.exploration import dumps_explored
from outofgears.rules.gears import Gear, describe_gears, gear_key, gear_ranks, sort_gears
from outofgears.rules.legal import Decision as WalkDecision
from outofgears.rules.legal import legal_choices
from outofgears.rules.model import GameState, Place, expect_state
from outofgears.rules.programs import (
    Action,
    AnyProgram,
    Program,
    check_robot_program,
    legal_programs,
    validate_programs,
)
from outofgears.rules.refusals import Refusal
from outofgears.rules.turn import TurnResult, resolve_turn
from outofgears.table.answers import (
    SHORT_CARDS,
    CountMissingError,
    Examples,
    add_recorded,
    answer_in,
    defence_number,
    parse_drawn,
    parse_gear_list,
    parse_shares,
    parse_steal,
    parse_table_program,
    table_answer,
)
from outofgears.words import (
    card_name,
    check_language,
    clause_title,
    colour_name,
    gears_text,
    kind_word,
    place_text,
    taken_each_text,
    translator,
)
from outofgears.words.findings import refusal_text

__all__ = [
    "UNDO_WORDS",
    "UNKNOWN",
    "AnswerRefusedError",
    "Entered",
    "Given",
    "GivenRefusedError",
    "Question",
    "TableSession",
    "UnfollowableError",
    "is_undo",
    "short_forms_line",
]

T = TypeVar("T")

#: The answer to a decision that the table does not know (nobody saw which gear was taken):
#: nothing is written, and replay infers it from what the players write down.
UNKNOWN: Final = "?"

#: The most legal assemblies a question lists; beyond, it says "any two of them".
MAX_LISTED: Final = 10


# --- what the session says -------------------------------------------------------------------


@frozen
class Question:
    """What the table is asked next.

    Attributes:
        kind: ``"program"``, ``"steal"``, ``"split"``, ``"assembly"``, ``"drawn"`` (a gear
            turned up at exploration), ``"recorded"`` (what the players wrote down) or
            ``"confirm"`` (write a value that departs from the rules anyway?).
        key: Which one: a robot, a (defender, attacker) pair, a place, a dump, a turn.
        text: The question, in the session's language, with the default an empty answer takes.
        shape: How to write the answer, in the session's language.
        default: The answer (in the log's English words) that an empty answer stands for, and
            that the log then holds as the table's choice; ``None`` when there is none.
        options: The legal answers (in the log's English words) where they can be listed, for
            a face that offers them to tap; empty for an answer to be written.
        empty: What an empty answer does: ``"default"`` (takes :attr:`default`), ``"stop"``
            (the first program of a turn: the recording stops), ``"refused"`` (an answer is
            needed), ``"done"`` (nothing more written down) or ``"no"`` (a confirmation).
        notes: Lines to show before the question (why an earlier answer was set aside).
        departures: For a confirmation, the values that depart from the rules, as ``replay``
            reports them.
        prompt: For a choice, the question as its chooser is asked it while the turn is
            played (the table in the browser's phones): in the present, without the hints
            of a record; empty for the others.
    """

    kind: str
    key: Any
    text: str
    shape: str = ""
    default: str | None = None
    options: tuple[str, ...] = ()
    empty: str = "default"
    notes: tuple[str, ...] = ()
    departures: tuple[Departure, ...] = ()
    prompt: str = ""


class AnswerRefusedError(OutOfGearsError, ValueError):
    """An answer the session does not take: it cannot be read, or the rules refuse it.

    Attributes:
        question: The question it answered.
        answer: The answer as typed.
        reason: Why, in the session's language.
        error: The error behind it, when there is one.
    """

    def __init__(
        self, question: Question, answer: str, reason: str, error: OutOfGearsError | None = None
    ) -> None:
        super().__init__(reason)
        self.question = question
        self.answer = answer
        self.reason = reason
        self.error = error


class GivenRefusedError(OutOfGearsError, ValueError):
    """An answer given ahead (``record``'s options) that the table refuses, or a question
    that nothing given answers when nobody is asked. The message names the option."""


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
    #: Raises :class:`UnfollowableError` when the game cannot go on from the position the
    #: table wrote down and confirmed (SET-8). ``None``: nothing is checked.
    follow_check: Callable[[TurnDraft], object] | None = field(default=None, eq=False, repr=False)

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
        """The turn as the log writes it. When the table confirmed a place it wrote down that
        the rules do not give, the game goes on from the table's position (SET-8)."""
        chose = self.choices != ChoicesRecord()
        return TurnRecord(
            turn=self.state.turn,
            programs=dict(self.programs),
            choices=self.choices if chose else None,
            recorded=self.recorded,
            drawn=self.drawn,
            follows="table" if self.follows_table else "rules",
        )

    @property
    def follows_table(self) -> bool:
        """Whether the table confirmed a robot's or a dump's gears that depart (SET-8): a
        departing score alone moves nothing."""
        return any(
            ".recorded.robots." in path or ".recorded.dumps." in path for path in self.confirmed
        )


# --- what is given ahead ---------------------------------------------------------------------


@frozen
class Given:
    """Answers given ahead for the next turn (``record``'s ``--program``, ``--steal``,
    ``--assemble``, ``--split``, ``--recorded`` and ``--drawn``), read but not yet checked
    against the table.

    Attributes:
        programs: ``robot -> program``.
        steals: The defence steals (ATK-4).
        assemblies: ``robot -> the gears it moved into its circuit`` (ASM-1).
        splits: The splits the table agreed on (SPL-5).
        recorded: Values written down, each as a table types it (``"score Ada=12"``).
        drawn: ``dump -> gear`` turned up at exploration (EXP-1), ``None`` for none.
    """

    programs: dict[int, AnyProgram] = field(factory=dict)
    steals: tuple[StealRecord, ...] = ()
    assemblies: dict[int, tuple[Gear, ...]] = field(factory=dict)
    splits: tuple[SplitRecord, ...] = ()
    recorded: tuple[str, ...] = ()
    drawn: dict[int, Gear | None] = field(factory=dict)

    @property
    def anything(self) -> bool:
        """Whether anything is given."""
        return self != Given()

    def scripted(self, state: GameState) -> bool:
        """Whether every program of the turn is given: then nothing is asked."""
        return set(state.robot_numbers) <= set(self.programs)


# --- who answers -----------------------------------------------------------------------------


class _Pending(Exception):  # noqa: N818 (a signal inside the session, never seen outside)
    """The answers taken so far end here: ``question`` is asked next."""

    def __init__(self, question: Question) -> None:
        super().__init__(question.text)
        self.question = question


@attrs.define
class Asker:
    """Who answers while a turn is entered: the answers taken so far, in order, then
    :class:`_Pending` with the next question. When nobody is asked (``interactive`` false),
    every question is left unanswered. ``notes`` collects the lines the next question shows."""

    answers: Sequence[str]
    interactive: bool = True
    lang: str = "en"
    used: int = 0
    notes: list[str] = attrs.field(factory=list)

    def note(self, line: str) -> None:
        """A line the next question shows first."""
        self.notes.append(line)

    def text(self, question: Question) -> str | None:
        """The next answer to ``question`` (stripped), ``None`` when nobody is asked."""
        if not self.interactive:
            return None
        if self.used == len(self.answers):
            raise _Pending(attrs.evolve(question, notes=tuple(self.notes)))
        answer = self.answers[self.used]
        self.used += 1
        self.notes.clear()
        return answer.strip()

    def ask(self, question: Question, read: Callable[[str], T]) -> T | None:
        """The answer to ``question`` as ``read`` takes it; ``None`` for an empty answer or
        when nobody is asked. An answer ``read`` refuses is :class:`AnswerRefusedError` (only
        the newest answer can be: every earlier one was taken when it was given)."""
        text = self.text(question)
        if not text:
            return None
        try:
            return read(text)
        except OutOfGearsError as error:
            reason = refused_text(error, text, question.shape, self.lang)
            raise AnswerRefusedError(question, text, reason, error) from None

    def refuse(self, question: Question, text: str, reason: str) -> None:
        """Refuse the newest answer, ``text``, to ``question``."""
        raise AnswerRefusedError(question, text, reason)


def refused_text(error: OutOfGearsError, text: str, shape: str, lang: str) -> str:
    """Why an answer ``text`` is refused, in ``lang``: in English the error's own words; in
    Italian or French a choice the rules refuse as they say it, a program by the clause it
    breaks, and any other answer as one that cannot be read, with how to write it."""
    if lang == "en":
        return str(error)
    t = translator(lang)
    if isinstance(error, IllegalChoiceError) and isinstance(error.refusal, Refusal):
        return f"{refusal_text(error.refusal, lang)} ({error.clause})"
    if isinstance(error, UnfollowableError):
        return t.gettext(
            "the game cannot go on from the position the table wrote down (SET-8): write that "
            "robot's other places too, or take a value back"
        )
    if isinstance(error, CountMissingError):
        return t.gettext("{word} gives no count: write how many, such as {example}").format(
            word=show(error.word), example=f"`2 {error.word}`"
        )
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
    return ", ".join(f"{count} `{kind_word(gear, lang, count)}`" for gear, count in counts.items())


def in_play(state: GameState) -> str:
    """The robots in play, for a message."""
    return "robots in play: " + ", ".join(map(str, state.robot_numbers))


# --- the questions of a turn -----------------------------------------------------------------

#: A question of a turn: the turn so far, the answers given ahead, who answers the rest.
Ask = Callable[[TurnDraft, Given, Asker], TurnDraft]


def ask_programs(draft: TurnDraft, given: Given, asker: Asker) -> TurnDraft:
    """Every robot's program (PRG-1), each legal on its own, then all of them together
    (partners in the two-robot variant: VAR-2, UPG-4)."""
    state = draft.state
    for robot in sorted(set(given.programs) - set(state.robot_numbers)):
        raise GivenRefusedError(f"--program: robot {robot} is not in play ({in_play(state)})")
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
                raise GivenRefusedError(f"--program: {error}") from None
            reason = refused_text(error, "", "", asker.lang)
            asker.note(translator(asker.lang).gettext("  not taken: {error}.").format(error=reason))
            programs[error.robot] = asked_program(state, error.robot, asker, first=False)
            continue
        return attrs.evolve(draft, programs=programs)


def given_program(state: GameState, robot: int, program: AnyProgram) -> AnyProgram:
    """A program given ahead, checked on its own."""
    try:
        return legal_program(state, robot, str(program))
    except OutOfGearsError as error:
        raise GivenRefusedError(f"--program {robot}={program}: {error}") from None


def asked_program(state: GameState, robot: int, asker: Asker, *, first: bool) -> AnyProgram:
    """One robot's program. An empty answer for the first robot asked stops the recording
    (the face's business: the question says so); for another robot it is refused."""
    lang = asker.lang
    t = translator(lang)
    legal = legal_programs(state, robot)
    hint = programs_hint(legal, lang)
    question = Question(
        "program",
        robot,
        t.gettext("Robot {robot} ({player}, {colour}) program [{hint}]:").format(
            robot=robot,
            player=state.player_of(robot).name,
            colour=colour_name(robot, lang),
            hint=hint,
        ),
        t.gettext("robot {robot} may lay {programs}").format(robot=robot, programs=hint),
        options=tuple(map(str, legal)),
        empty="stop" if first else "refused",
    )
    text = asker.text(question)
    if text is None:
        raise GivenRefusedError(f"--program: robot {robot}'s program is not given")
    if not text:
        asker.refuse(
            question,
            text,
            t.gettext("every robot lays a program (an empty answer stops only at the first robot)"),
        )
    try:
        return legal_program(state, robot, text, lang)
    except OutOfGearsError as error:
        reason = refused_text(error, text, question.shape, lang)
        raise AnswerRefusedError(question, text, reason, error) from None


def legal_program(state: GameState, robot: int, text: str, lang: str = "en") -> AnyProgram:
    """The program ``text`` names (read forgivingly: ``Harvest1``, ``h1``; in Italian or French
    also with the card's name in ``lang``; a defence, ``difesa``, as the attack on the robot's
    own number, ATK-3), if ``robot`` may lay it on the next turn (PRG-2, UPG-2, UPG-3); else
    the reason, naming the programs it may lay."""
    legal = legal_programs(state, robot)
    defended = defence_number(text, lang)
    if defended not in (None, 0, robot):
        raise InvalidStateError(
            f"a defence is an attack on the robot's own number: robot {robot} defends with "
            f"'attack {robot}' (ATK-3)"
        )
    if defended is not None:
        text = f"attack {robot}"
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
        question: The question, with the default the rules apply to an empty answer.
        read: The draft with the answer taken, or the reason it is refused.
    """

    question: Question
    read: Callable[[TurnDraft, str], TurnDraft]


def ask_decisions(
    draft: TurnDraft,
    asker: Asker,
    decided: set[object],
    decisions: Callable[[TurnDraft, TurnResult, str], list[Decision]],
) -> TurnDraft:
    """Ask each decision of one kind not yet decided, in the order the turn meets them; the
    turn is resolved again after each answer, as an answer can change what comes next. An
    empty answer takes the rules' default, which the draft then holds as the table's choice;
    :data:`UNKNOWN` (``?``), or nobody asked, leaves the decision out of the log, to be
    inferred from what the players write down."""
    while True:
        found = decisions(draft, draft.resolve(), asker.lang)
        pending = [d for d in found if d.question.key not in decided]
        if not pending:
            return draft
        decision = pending[0]
        decided.add(decision.question.key)
        text = asker.text(decision.question)
        if text is None or text == UNKNOWN:  # nobody asked, or not known: left to inference
            continue
        try:
            draft = decision.read(draft, text or decision.question.default or "")
        except OutOfGearsError as error:
            reason = refused_text(error, text, decision.question.shape, asker.lang)
            raise AnswerRefusedError(decision.question, text, reason, error) from None


def take_given(option: str, what: object, add: Callable[[T], TurnDraft], choice: T) -> TurnDraft:
    """A choice given ahead, checked against the rules."""
    try:
        return add(choice)
    except OutOfGearsError as error:
        raise GivenRefusedError(f"{option} ({what}): {error}") from None


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
            default = f"{event.gear} from {event.source.kind.value}"
            options = steal_options(draft, defender, attacker) or (default,)
            sources = listed_answers(options if len(options) <= MAX_LISTED else (default,), lang)
            question = t.gettext(
                "Robot {defender} defended against robot {attacker}: which gear did it "
                "take? ({sources}; empty: the default, {default}, ATK-5; ?: not known)"
            ).format(
                defender=defender, attacker=attacker, sources=sources, default=typed(default, lang)
            )
            shape = t.gettext("write {sources}").format(sources=sources)
            prompt = t.gettext(
                "Robot {defender}, you defended against robot {attacker}: which gear do you "
                "take from it?"
            ).format(defender=defender, attacker=attacker)
            asked = Question(
                "steal", (defender, attacker), question, shape, default, options, prompt=prompt
            )
            decisions.append(Decision(asked, partial(read_steal, defender, attacker, lang=lang)))
    return decisions


def listed_answers(answers: Sequence[str], lang: str) -> str:
    """Answers offered in a question, quoted as the players type them: ``'red from feet' or
    'blue from circuit'``."""
    shown = [quoted(answer, lang) for answer in answers]
    if len(shown) == 1:
        return shown[0]
    return (
        translator(lang)
        .gettext("{one} or {other}")
        .format(one=", ".join(shown[:-1]), other=shown[-1])
    )


def steal_options(draft: TurnDraft, defender: int, attacker: int) -> tuple[str, ...]:
    """The gears ``defender`` may take from ``attacker`` as answers (``"red from feet"``), as
    the rules list them at that moment of the turn (ATK-4, through
    :class:`~outofgears.rules.legal.ChoiceSpace`), the table's earlier answers applied."""
    space = legal_choices(draft.table(), draft.programs)
    given = draft.choices.to_choices()
    table = space.start_table()
    for step in space.walk():
        offered = space.options(step, table)
        if offered and offered[0][0] == "steal" and offered[0][1] == (defender, attacker):
            return tuple(f"{steal.gear} from {steal.source}" for _, _, steal in offered)
        space.advance(step, table, _answered(offered, given))
    return ()


def _answered(offered: Sequence[WalkDecision], given: Choices) -> WalkDecision | None:
    """The decision among ``offered`` the table's answers make, ``None`` for the default."""
    if not offered:
        return None
    kind, key, _ = offered[0]
    chosen: object
    if kind == "steal":
        chosen = given.defence_steals.get(key)
    elif kind == "split":
        chosen = given.splits.get(key)
    else:
        chosen = given.assemblies.get(key)
    if chosen is None:
        return None
    return next((d for d in offered if d[2] == chosen), None)


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
        where = place_text(place, lang)
        question = t.gettext(
            "{place}: {taken}, from {pool}. Which went to whom? (written like the default "
            "split, {default}, SPL-5, which an empty answer takes; ?: not known)"
        ).format(
            place=where[:1].upper() + where[1:],
            taken=taken_each_text(event.takers, event.share, lang),
            pool=answer_gears(pool, lang),
            default=typed(default, lang),
        )
        shape = t.gettext("write each taker's share like the default split, {default}").format(
            default=typed(default, lang)
        )
        read = partial(read_split, place, lang=lang)
        prompt = t.gettext("{place}: {taken}, from {pool}. How do the takers share them?").format(
            place=where[:1].upper() + where[1:],
            taken=taken_each_text(event.takers, event.share, lang),
            pool=gears_text(pool, lang),
        )
        asked = Question("split", place, question, shape, default, prompt=prompt)
        decisions.append(Decision(asked, read))
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
            "{default}, ASM-2; ?: not known)"
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
        picks = tuple(pick_text(pick) for pick in options)
        prompt = t.gettext("Robot {robot}: which two of {feet} do you assemble?").format(
            robot=robot, feet=gears_text(feet, lang)
        )
        asked = Question("assembly", robot, question, shape, pick_text(moved), picks, prompt=prompt)
        decisions.append(Decision(asked, read))
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


def ask_drawn(draft: TurnDraft, given: Given, asker: Asker) -> TurnDraft:
    """What was turned up onto each dump at exploration (EXP-1), when the log does not know
    the reserve's order: one gear for each dump, ascending, while the reserve lasts. Under a
    known order the rules know it; a ``--drawn`` answer is then kept and checked by replay."""
    pile = draft.state.reserve
    robots = draft.state.robot_numbers
    dumps, _ = dumps_explored(robots, pile)
    for dump, told in given.drawn.items():
        if dump not in robots:
            raise GivenRefusedError(
                f"--drawn: dump {dump} is not in play (dumps in play: {robots})"
            )
        if dump not in dumps and told is not None:
            raise GivenRefusedError(
                f"--drawn: dump {dump} gets no gear this turn: the reserve has run out (EXP-1)"
            )
    if draft.order_known or not dumps:
        return attrs.evolve(draft, drawn=dict(given.drawn) or None)
    left = Counter(pile)
    drawn: dict[int, Gear | None] = {}
    for dump in dumps:
        gear = given.drawn.get(dump)
        if gear is None and dump in given.drawn:
            raise GivenRefusedError(
                f"--drawn: dump {dump} gets a gear this turn: the reserve still holds "
                f"{describe_gears(sorted(left.elements(), key=gear_key))} (EXP-1)"
            )
        if gear is None:
            gear = asked_draw(dump, left, asker, Examples.of(draft.state))
        elif left[gear] == 0:
            held = describe_gears(sorted(left.elements(), key=gear_key))
            raise GivenRefusedError(
                f"--drawn: {gear} for dump {dump}, but the reserve holds {held}"
            )
        left[gear] -= 1
        drawn[dump] = gear
    drawn.update((dump, None) for dump in given.drawn if dump not in dumps)
    return attrs.evolve(draft, drawn=dict(sorted(drawn.items())))


def asked_draw(dump: int, left: Counter[Gear], asker: Asker, words: Examples) -> Gear:
    """The gear the table turned up onto ``dump``, one the reserve still holds."""
    if not asker.interactive:
        raise GivenRefusedError(
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

    question = Question(
        "drawn",
        dump,
        t.gettext("Which gear was turned up onto dump {dump}? ({holds})").format(
            dump=dump, holds=holds
        ),
        holds,
        options=tuple(str(gear) for gear in sort_gears(tuple(+left))),
        empty="refused",
    )
    gear = asker.ask(question, one_held)
    if gear is None:
        asker.refuse(
            question, "", t.gettext("a gear is needed: the reserve still holds gears (EXP-1)")
        )
    assert gear is not None
    return gear


def ask_recorded(draft: TurnDraft, given: Given, asker: Asker) -> TurnDraft:
    """What the players wrote down after the turn, if anything: feet, circuits, dumps,
    scores, one value an answer, each checked at once against the rules (a departure is
    written only when the table confirms it)."""
    players = tuple(player.name for player in draft.state.players)
    recorded = Recorded()
    for text in given.recorded:
        try:
            recorded = add_checked(draft.state, recorded, players, text)
        except OutOfGearsError as error:
            raise GivenRefusedError(f"--recorded {text!r}: {error}") from None
    lang = asker.lang
    t = translator(lang)
    forms = recorded_forms(Examples.of(draft.state), lang)
    question = Question(
        "recorded",
        draft.state.turn,
        t.gettext(
            "What did the players write down after turn {turn}? ({forms}; one a line; "
            "empty: nothing)"
        ).format(turn=draft.state.turn, forms=forms),
        t.gettext("write {forms}").format(forms=forms),
        empty="done",
    )
    while True:
        read = partial(add_checked, draft.state, recorded, players, lang=lang)
        added = asker.ask(question, read)
        if added is None:
            check_followable(attrs.evolve(draft, recorded=recorded or None), question, asker)
            break
        with_value = attrs.evolve(draft, recorded=added)
        try:
            departing = with_value.departures()
        except InvalidStateError as error:
            text = asker.answers[asker.used - 1].strip()
            reason = refused_text(error, text, question.shape, lang)
            raise AnswerRefusedError(question, text, reason, error) from None
        new = [d for d in departing if d.json_path not in previous_paths(draft)]
        anyway = t.gettext("Write it down as recorded anyway?")
        if new and not confirmed(new, asker, anyway):
            asker.note(t.gettext("  not written down. Again, or an empty answer to leave it."))
            continue
        draft = with_value.confirming(new)
        recorded = added
        question = attrs.evolve(question, text=t.gettext("Anything more written down? (empty: no)"))
    return attrs.evolve(draft, recorded=recorded if recorded != Recorded() else None)


def check_followable(draft: TurnDraft, question: Question, asker: Asker) -> None:
    """Refuse the end of what was written down (an empty answer to ``question``) when the game
    could not go on from the position the table wrote down and confirmed (SET-8): the table
    then writes the robot's other places too, or takes a value back."""
    if not (asker.interactive and draft.follows_table and draft.follow_check):
        return
    try:
        draft.follow_check(draft)
    except UnfollowableError as error:
        reason = refused_text(error, "", question.shape, asker.lang)
        raise AnswerRefusedError(question, "", reason, error) from None


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


class UnfollowableError(InvalidStateError):
    """A "yes" to values that depart, refused: the game could not go on from the position the
    table wrote down (SET-8: the box cannot hold it, say), typically because the table wrote
    one place of a robot and the others, as the rules leave them, no longer fit.

    Attributes:
        reason: Why, in English.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"the position the table wrote down cannot be followed: {reason}; write that "
            "robot's other places too, or take a value back (SET-8)"
        )
        self.reason = reason


def confirmed(
    departures: Sequence[Departure],
    asker: Asker,
    question: str,
    followable: Callable[[], object] | None = None,
) -> bool:
    """Whether the table confirms values that depart from the rules: the question shows each
    departure as ``replay`` shows it, and only an explicit "yes" writes them. ``followable``
    checks that the game can go on from the table's position once confirmed (SET-8): a "yes"
    it refuses (:class:`~outofgears.errors.InvalidStateError`) is asked again, with the
    reason."""
    lang = asker.lang
    t = translator(lang)

    def read(text: str) -> bool:
        yes = read_yes_no(text, lang)
        if yes and followable is not None:
            followable()  # raises UnfollowableError with the reason
        return yes

    asked = Question(
        "confirm",
        tuple(d.json_path for d in departures),
        t.gettext(
            "{question} (yes: write it as the table recorded it; no or empty: enter it again)"
        ).format(question=question),
        t.gettext("answer yes or no"),
        options=("yes", "no"),
        empty="no",
        departures=tuple(departures),
    )
    return asker.ask(asked, read) is True


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


#: What a table types to take its last answer back, in each language besides ``undo`` and ``<``.
UNDO_WORDS: Final[dict[str, tuple[str, ...]]] = {"en": (), "it": ("annulla",), "fr": ("annuler",)}


def short_forms_line(state: GameState, lang: str) -> str:
    """How a program and a score may be typed short, in ``lang``: ``a2`` for attack 2 and the
    other cards' letters, ``d`` for a defence, ``Ada=12`` for a score."""
    expect_state(state)
    t = translator(lang)
    letters: dict[str, str] = {}
    for letter, action in SHORT_CARDS[lang].items():
        letters.setdefault(action, letter)  # the language's own letter first
    cards = ", ".join(
        f"{letter}2 {action if lang == 'en' else card_name(Action(action), lang)} 2"
        for action, letter in letters.items()
    )
    return t.gettext("Short forms: {cards}, d a defence; {player}=12 a score.").format(
        cards=cards, player=state.players[0].name
    )


def is_undo(text: str, lang: str = "en") -> bool:
    """Whether ``text`` asks to take the last answer back: ``undo`` or ``<`` (any case), or
    the word of ``lang`` (``annulla``, ``annuler``).

    >>> is_undo(" Undo "), is_undo("<"), is_undo("annulla", "it"), is_undo("trap 2")
    (True, True, True, False)
    """
    expect(text, str, "text", "a str")
    check_language(lang)
    return text.strip().lower() in ("undo", "<", *UNDO_WORDS[lang])


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


#: The questions of a turn, in the order they are asked.
QUESTIONS: Final[tuple[Ask, ...]] = (
    ask_programs,
    ask_steals,
    ask_splits,
    ask_assemblies,
    ask_drawn,
    ask_recorded,
)


# --- a turn, entered whole -------------------------------------------------------------------


@frozen
class Entered:
    """A turn entered whole: its draft, the record the log gets, and the log replayed with it.

    Attributes:
        draft: The turn as answered.
        record: The turn as the log writes it (exactly what was entered).
        replayed: The log replayed with the turn (its verdict may be undecided: the turn is
            written all the same).
    """

    draft: TurnDraft
    record: TurnRecord
    replayed: Replay


def enter_turn(
    replayed: Replay,
    given: Given,
    asker: Asker,
    *,
    source: str = "<log>",
    write_departures: bool = False,
    replays: dict[TurnRecord, Replay | LogError] | None = None,
) -> Entered:
    """The next turn of the log ``replayed``, every question answered ahead (``given``) or by
    ``asker``, then the turn checked as replay checks it. ``replays`` keeps the log replayed
    with each record tried (or why it cannot be), so that entering the turn again from its
    answers replays nothing twice. A value that departs from the rules
    and was not confirmed while it was entered is shown and written only when the table
    confirms it (or, when nobody is asked, with ``write_departures``); otherwise what was
    written down is asked again (a draw the reserve's known order gives otherwise is dropped).

    Raises:
        _Pending: The answers end before the turn does (inside the session only).
        AnswerRefusedError: The newest answer is refused.
        GivenRefusedError: An answer given ahead is refused, or one is missing.
    """
    game = replayed.log
    position = game.start.position
    order_known = position is None or position.reserve_order_known

    known = {} if replays is None else replays

    def replayed_with(record: TurnRecord) -> Replay:
        if record not in known:
            try:
                known[record] = replay_log(attrs.evolve(game, turns=(*game.turns, record)), source)
            except LogError as error:
                known[record] = error
        found = known[record]
        if isinstance(found, LogError):
            raise found
        return found

    def with_turn(draft: TurnDraft) -> Replay:
        return replayed_with(draft.record())

    def judge(draft: TurnDraft) -> tuple[Departure, ...]:
        # the departures of the turn itself, whatever position the game goes on from
        try:
            again = replayed_with(attrs.evolve(draft.record(), follows="rules"))
        except LogError as error:
            raise InvalidStateError(error.reason) from None
        return tuple(d for d in again.departures if d.turn == draft.state.turn)

    def follow_check(draft: TurnDraft) -> None:
        try:
            with_turn(draft)
        except LogError as error:
            raise UnfollowableError(error.reason) from None

    draft = TurnDraft(
        replayed.final, order_known=order_known, judge=judge, follow_check=follow_check
    )
    for ask in QUESTIONS:
        draft = ask(draft, given, asker)
    t = translator(asker.lang)
    while True:
        try:
            after = with_turn(draft)
        except LogError as error:
            raise GivenRefusedError(str(error)) from None
        new = [
            d
            for d in after.departures
            if d.turn == draft.state.turn and d.json_path not in draft.confirmed
        ]
        if not new or (not asker.interactive and write_departures):
            return Entered(draft, draft.record(), after)
        if not asker.interactive:
            raise GivenRefusedError(departures_refusal(draft.state.turn, new))
        question = t.gettext("Turn {turn} departs from the rules. Write it anyway?").format(
            turn=draft.state.turn
        )
        if confirmed(new, asker, question, partial(follow_check, draft.confirming(new))):
            final = draft.confirming(new)
            record = final.record()
            if record != draft.record():
                after = with_turn(final)
            return Entered(final, record, after)
        draft = entered_again(draft, new, asker)


def departures_refusal(turn: int, departures: Sequence[Departure]) -> str:
    """Why a turn given ahead is not written: it departs from the rules."""
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
        asker.note(t.gettext("  the draws are left to the reserve's known order."))
        draft = attrs.evolve(draft, drawn=None)
    if any(".recorded" in d.json_path for d in departures):
        asker.note(t.gettext("  What the players wrote down, again:"))
        draft = ask_recorded(attrs.evolve(draft, recorded=None), Given(), asker)
    if not any(".drawn" in d.json_path or ".recorded" in d.json_path for d in departures):
        raise GivenRefusedError(departures_refusal(draft.state.turn, departures))
    return draft


# --- the session -----------------------------------------------------------------------------


class TableSession:
    """A game being entered at a table, turn by turn: the log as written so far, replayed,
    and the answers of the turn in progress.

    ``given`` answers the first turn's questions ahead; when it gives every program nothing is
    asked (:meth:`Given.scripted`): the questions it leaves take the rules' defaults and are
    not written, the departures are written only with ``write_departures``.

    >>> from outofgears.log import GameLog, Start
    >>> session = TableSession(replay_log(GameLog(players={"A": (1,), "B": (2,)},
    ...                                              start=Start(seed=1))))
    >>> session.question().text
    'Robot 1 (A, red) program [attack, trap, harvest 1, 2]:'
    >>> session.answer("harvest 1").text
    'Robot 2 (B, orange) program [attack, trap, harvest 1, 2]:'
    >>> session.answer("Harvest2").kind, session.answers
    ('recorded', ('harvest 1', 'Harvest2'))
    >>> session.answer("") is None, session.entered().record.turn
    (True, 1)
    """

    def __init__(
        self,
        replayed: Replay,
        source: str = "<log>",
        *,
        lang: str = "en",
        given: Given | None = None,
        write_departures: bool = False,
    ) -> None:
        expect(replayed, Replay, "replayed", "a Replay (judge.replay.replay_log)")
        expect(source, str, "source", "a str")
        check_language(lang)
        expect(given, (Given, type(None)), "given", "a Given or None")
        expect(write_departures, bool, "write_departures", "a bool")
        self.replayed = replayed
        self.source = source
        self.lang = lang
        self.given = given or Given()
        self.write_departures = write_departures
        self._answers: list[str] = []
        self._outcome: tuple[tuple[str, ...], Question | Entered] | None = None
        self._replays: dict[TurnRecord, Replay | LogError] = {}

    @property
    def log(self) -> GameLog:
        """The log as written so far."""
        return self.replayed.log

    @property
    def state(self) -> GameState:
        """The table before the turn in progress."""
        return self.replayed.final

    @property
    def game_over(self) -> bool:
        """Whether the game has ended: no turn is left to enter."""
        return self.state.game_over

    @property
    def answers(self) -> tuple[str, ...]:
        """The answers taken for the turn in progress, in order, as typed."""
        return tuple(self._answers)

    @property
    def interactive(self) -> bool:
        """Whether the turn in progress is asked (not every program is given ahead)."""
        return not self.given.scripted(self.state)

    def question(self) -> Question | None:
        """What to ask next; ``None`` when the turn is entered whole (:meth:`entered`).

        Raises:
            GivenRefusedError: An answer given ahead is refused, or one is missing when
                nobody is asked.
        """
        outcome = self._run(self.answers)
        return outcome if isinstance(outcome, Question) else None

    def answer(self, text: str) -> Question | None:
        """Take ``text`` as the answer to :meth:`question`; the next question, or ``None``
        when the turn is entered whole. An empty answer does what :attr:`Question.empty`
        says (the default is then written as the table's choice).

        Raises:
            AnswerRefusedError: The answer is not taken (the session is as before).
            OutOfGearsError: The turn is entered whole already: nothing is asked.
        """
        if self.question() is None:
            raise InvalidStateError("the turn is entered whole: nothing is asked")
        trial = (*self._answers, text)
        outcome = self._run(trial)  # raises AnswerRefusedError, taking nothing
        self._answers.append(text)
        return outcome if isinstance(outcome, Question) else None

    def undo(self) -> str | None:
        """Take the last answer of the turn in progress back; it, or ``None`` when the turn
        has none (then :meth:`without_last_turn` takes back a written turn)."""
        return self._answers.pop() if self._answers else None

    def entered(self) -> Entered:
        """The turn entered whole.

        Raises:
            InvalidStateError: A question is still open.
        """
        outcome = self._run(self.answers)
        if isinstance(outcome, Question):
            raise InvalidStateError(f"the turn is not entered whole: {outcome.text}")
        return outcome

    def written(self, replayed: Replay) -> None:
        """The turn entered was written: the log is now ``replayed``; the next turn is asked
        from scratch, with nothing given ahead."""
        self.replayed = replayed
        self.given = Given()
        self._answers = []
        self._outcome = None
        self._replays = {}

    def without_last_turn(self) -> GameLog:
        """The log with its last turn taken back (the face writes it, then calls
        :meth:`written` with its replay).

        Raises:
            InvalidStateError: The log has no turn to take back, or the turn in progress has
                answers (undo them first).
        """
        if self._answers:
            raise InvalidStateError("the turn in progress has answers: undo them first")
        if not self.log.turns:
            raise InvalidStateError("the log has no turn to take back")
        return attrs.evolve(self.log, turns=self.log.turns[:-1])

    def _run(self, answers: tuple[str, ...]) -> Question | Entered:
        """The turn entered from ``answers``: the question they stop at, or the whole turn
        (the last run is kept: asking twice costs nothing)."""
        if self._outcome is not None and self._outcome[0] == answers:
            return self._outcome[1]
        asker = Asker(answers, interactive=self.interactive, lang=self.lang)
        try:
            outcome: Question | Entered = enter_turn(
                self.replayed,
                self.given,
                asker,
                source=self.source,
                write_departures=self.write_departures,
                replays=self._replays,
            )
        except _Pending as pending:
            outcome = pending.question
        if asker.used < len(answers):  # the turn ended before its answers: the last is extra
            raise InvalidStateError("the turn is entered whole: nothing is asked")
        self._outcome = (answers, outcome)
        return outcome
