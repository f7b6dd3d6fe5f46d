"""``outofgears record LOG``: enter a game turn by turn, as it is played at a table.

The terminal's face of :class:`~outofgears.table.session.TableSession`, which knows what to
ask, how to read and check an answer, and what a turn adds to the log. This module only reads
the options, shows each question and reads a line for it, says what the session refuses or
takes back, and writes each turn the session gives to LOG (rewritten whole or not at all,
under a lock), saying what a signal left written.

The log is created when it is missing (with the options of ``outofgears new``), else read and
replayed to the current table (:func:`outofgears.judge.replay.replay_log`). Before each turn
the table, the scores and the rule options in play are shown. ``undo`` (``annulla``,
``annuler``, or ``<``) takes the last answer back; at a turn's first question, the last
written turn, after a "yes".
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Final, TypeVar

import click
from attrs import frozen

from outofgears.cli.common import (
    AGREES,
    DEPARTS,
    UNDECIDED,
    AsciiIntRange,
    check_output,
    deliver,
    fail,
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
from outofgears.errors import OutOfGearsError, printable, show
from outofgears.judge.replay import Replay, TurnReplay, replay_log
from outofgears.judge.start import spec_note_facts
from outofgears.log import (
    MAX_LOG_BYTES,
    LogError,
    SplitRecord,
    read_log_bytes,
)
from outofgears.log.writing import append_turn_text, without_last_turn_text
from outofgears.rules.programs import parse_program
from outofgears.table.answers import (
    parse_drawn,
    parse_gear_list,
    parse_robot,
    parse_shares,
    parse_split_place,
    parse_steal,
    split_keyed,
)
from outofgears.table.session import (
    AnswerRefusedError,
    Entered,
    Given,
    GivenRefusedError,
    Question,
    TableSession,
    is_undo,
    read_yes_no,
    short_forms_line,
)
from outofgears.words import options_lines, position_lines, translator
from outofgears.words.findings import fact_text

T = TypeVar("T")


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


def again_line(reason: str, question: Question, lang: str) -> str:
    """An answer refused, asked again: with what an empty answer does, where it does
    something."""
    t = translator(lang)
    if question.empty == "default":
        line = t.gettext("  not taken: {error}. Again, or an empty answer for the default.")
    elif question.empty == "done":
        line = t.gettext("  not taken: {error}. Again, or an empty answer to leave it.")
    else:
        line = t.gettext("  not taken: {error}. Again:")
    return line.format(error=reason)


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

    def append(self, entered: Entered) -> LogFile:
        """The log with the turn ``entered`` appended (exactly the turn as entered): the file
        is rewritten whole or not at all, with its mode, and only if nobody changed it since
        it was read (the re-read, the check and the replacement under one lock:
        :func:`~outofgears.cli.locking.replace_if_unchanged`). Every key is kept as it was."""
        record = entered.record
        text = append_turn_text(self.raw.decode("utf-8-sig"), self.replayed.log, record)
        replace_if_unchanged(self.path, self.name, self.raw, text, what=f"turn {record.turn}")
        return LogFile(self.path, self.name, text.encode("utf-8"), entered.replayed)

    def without_last_turn(self) -> LogFile:
        """The log with its last turn taken back, rewritten as :meth:`append` rewrites it."""
        text = without_last_turn_text(self.raw.decode("utf-8-sig"))
        turn = self.replayed.log.turns[-1].turn
        replace_if_unchanged(self.path, self.name, self.raw, text, what=f"turn {turn}")
        replayed = replay_log(read_log_bytes(text.encode("utf-8"), self.name), self.name)
        return LogFile(self.path, self.name, text.encode("utf-8"), replayed)


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
    game = new_game(header, lang=lang)
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
    try:
        line_editing()
        recording = start_and_record(
            context, log, header, given_texts, limit, write_departures, lang
        )
    except Terminated:
        restore()
        say(stopped_line(signal.SIGTERM, "start", lang))
        raise SystemExit(STOPPED_BY[signal.SIGTERM]) from None
    except KeyboardInterrupt:
        restore()
        click.echo()  # the question's line ends here
        say(stopped_line(signal.SIGINT, "start", lang))
        raise SystemExit(STOPPED_BY[signal.SIGINT]) from None
    except BaseException:  # a refusal (exit 2) and the like: the handler goes as it came
        restore()
        raise
    # Every turn entered is written by now: a SIGTERM while the summary is said stops it, says
    # so, and the status is still the log's (nothing is lost; 143 would tell a shell otherwise).
    try:
        status = closing(recording, log, lang)
    except Terminated:
        say(stopped_line(signal.SIGTERM, "between", lang))
        status = log_status(recording)
    finally:
        restore()
    raise SystemExit(status)


def closing(recording: Recording, log: str, lang: str) -> int:
    """Say how the recording ended (the turns recorded, the log's verdict); its exit status."""
    t = translator(lang)
    count = recording.count
    say(
        t.ngettext(
            "Recorded {count} turn in {log}.", "Recorded {count} turns in {log}.", count
        ).format(count=count, log=log)
    )
    replayed = recording.file.replayed
    command = f"outofgears replay {log}" + (f" --lang {lang}" if lang != "en" else "")
    if replayed.verdict == "undecided" and lang == "en":
        say(f"The log is {replayed.undecided}: {command} says which choices.")
    elif replayed.verdict == "undecided":
        assert replayed.undecided is not None
        say(undecided_line(replayed.undecided, lang))
    elif not replayed.agrees:
        say(
            t.gettext("The log departs from the rules: {command} says where.").format(
                command=command
            )
        )
    status = log_status(recording)
    if recording.stopped_by == signal.SIGINT or (recording.stopped_by and recording.lost):
        status = STOPPED_BY[recording.stopped_by]
    return status


def log_status(recording: Recording) -> int:
    """The exit status the log gives: 0 when it agrees, 1 when it departs, 4 undecided."""
    verdict = recording.file.replayed.verdict
    return {"agrees": AGREES, "undecided": UNDECIDED}.get(verdict, DEPARTS)


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
) -> Recording:
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
class Recording:
    """How a recording ended: the log as last written, the turns recorded, and the signal
    that stopped it, if one did (``lost``: with a turn half entered, which was not written)."""

    file: LogFile
    count: int
    stopped_by: int | None = None
    lost: bool = False


class TurnTakenBack(Exception):  # noqa: N818 (a signal of the loop, never seen outside)
    """``undo`` at a turn's first question, confirmed: the last written turn was taken back."""


def record_turns(
    file: LogFile,
    given: Given,
    limit: int | None,
    *,
    write_departures: bool = False,
    lang: str = "en",
) -> Recording:
    """Record turns until the game ends, ``limit`` turns are recorded, the input stops or a
    signal (Ctrl-C, SIGTERM) comes, speaking ``lang``. A signal during the writing of a turn
    is acted on once the turn is written."""
    t = translator(lang)
    say_notes(file.replayed, lang)
    if file.replayed.undecided is None and not given.scripted(file.replayed.final):
        say(
            t.gettext(
                "An empty answer takes the default; ? leaves a choice nobody saw to what is "
                "written down; undo takes the last answer back."
            )
        )
        say(short_forms_line(file.replayed.final, lang))
    session = TableSession(
        file.replayed, file.name, lang=lang, given=given, write_departures=write_departures
    )
    count = 0
    entering: int | None = None
    try:
        while True:
            if file.replayed.undecided is not None:
                say(undecided_line(file.replayed.undecided, lang))
                return Recording(file, count)
            state = session.state
            if state.game_over:
                if session.given.anything and count == 0:
                    fail(f"{file.name}: the game is over; there is no turn to record")
                say(
                    t.gettext("The game is over after turn {turn}. Scores:").format(
                        turn=state.turn - 1
                    )
                )
                for line in scores_lines(state, lang):
                    say(line)
                return Recording(file, count)
            say_table(session, lang)
            if count == limit:
                return Recording(file, count)
            entering = state.turn
            try:
                entered = enter_turn(session, file, lang)
            except TurnTakenBack:
                file = file.without_last_turn()
                session.written(file.replayed)
                count -= 1
                entering = None
                continue
            except RecordingStoppedError as stop:
                if stop.unfinished and session.given.anything:
                    fail(f"standard input ended before turn {state.turn} was complete")
                if stop.unfinished:
                    say(
                        t.gettext("Turn {turn} was left unfinished; it is not recorded.").format(
                            turn=state.turn
                        )
                    )
                return Recording(file, count)
            except GivenRefusedError as error:
                fail(str(error))
            for line in entered_lines(entered, lang):
                say(line)
            with signals_held() as came:
                file = file.append(entered)
                session.written(file.replayed)
                entering = None
            say(
                t.gettext("Turn {turn} written to {log}.").format(
                    turn=entered.record.turn, log=file.name
                )
            )
            count += 1
            if came:
                say(stopped_line(came[0], "written", lang, entered.record.turn))
                return Recording(file, count, came[0])
    except (KeyboardInterrupt, Terminated) as stop:
        signum = signal.SIGINT if isinstance(stop, KeyboardInterrupt) else signal.SIGTERM
        click.echo()  # the question's line ends here
        if entering is None:
            say(stopped_line(signum, "between", lang))
            return Recording(file, count, signum)
        lost = session.given.anything or bool(session.answers)
        say(stopped_line(signum, "lost" if lost else "unentered", lang, entering))
        return Recording(file, count, signum, lost)


def say_table(session: TableSession, lang: str) -> None:
    """What the table sees before a turn: the table, the scores as they stand, the rule
    options in play."""
    t = translator(lang)
    state = session.state
    say(t.gettext("The table before turn {turn}:").format(turn=state.turn))
    for line in position_lines(state, lang):
        say(line)
    for line in scores_lines(state, lang):
        say(line)
    for line in options_lines(state.options, session.log.two_robot_variant or False, lang):
        say(line)


def enter_turn(session: TableSession, file: LogFile, lang: str) -> Entered:
    """The turn in progress, each question shown and answered at the keyboard until the
    session has the turn whole. ``undo`` takes the last answer back; with none, the last
    written turn (after a "yes": :class:`TurnTakenBack`).

    Raises:
        RecordingStoppedError: The first program was left empty, or the input ended.
        GivenRefusedError: An answer given as an option is refused.
    """
    t = translator(lang)
    while True:
        question = session.question()
        if question is None:
            return session.entered()
        for line in question.notes:
            say(line)
        for departure in question.departures:
            for line in departure_text(departure, lang):
                say(f"  {line}")
        ended = False
        try:
            text = read_answer(question.text)
        except RecordingStoppedError:
            if question.kind != "recorded":
                unfinished = bool(session.answers) or question.empty != "stop"
                raise RecordingStoppedError(unfinished=unfinished) from None
            text, ended = "", True  # what was written down is optional: the turn is complete
        if is_undo(text, lang):
            undone = session.undo()
            if undone is not None:
                say(t.gettext("  taken back: {answer}").format(answer=show(undone)))
            elif take_back_turn(file, lang):
                raise TurnTakenBack()
            continue
        if not text.strip() and question.empty == "stop":
            raise RecordingStoppedError(unfinished=False)
        try:
            session.answer(text)
        except AnswerRefusedError as refused:
            say(again_line(refused.reason, question, lang))
            if ended:  # nothing more can be typed: the turn cannot be completed
                raise RecordingStoppedError(unfinished=True) from None


def take_back_turn(file: LogFile, lang: str) -> bool:
    """Whether the table confirms taking the last written turn out of the log (``undo`` at a
    turn's first question); ``False`` when the log has none."""
    t = translator(lang)
    turns = file.replayed.log.turns
    if not turns:
        say(t.gettext("  nothing to take back: the log has no turn yet."))
        return False
    question = t.gettext(
        "Take turn {turn} back out of the log? (yes: it is removed and asked again; no or "
        "empty: keep it)"
    ).format(turn=turns[-1].turn)
    while True:
        try:
            text = read_answer(question)
        except RecordingStoppedError:
            return False
        if not text.strip():
            return False
        try:
            return read_yes_no(text, lang)
        except OutOfGearsError:
            say("  " + t.gettext("answer yes or no"))


def entered_lines(entered: Entered, lang: str) -> list[str]:
    """A turn just entered as ``replay`` reports it (programs, what happened, departures);
    for a log that the turn leaves undecided, the verdict instead."""
    number = entered.record.turn
    replayed = entered.replayed
    for turn in replayed.turns:
        if turn.turn == number:
            return turn_lines(turn, lang)
    assert replayed.undecided is not None
    return [undecided_line(replayed.undecided, lang)]


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
