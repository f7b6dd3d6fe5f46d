"""What the commands share: loading a log, exit statuses, text for events and clauses."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, NoReturn, TypeVar

import click

from outofgears.errors import OutOfGearsError, printable
from outofgears.judge.replay import InferredChoice, TurnReplay, UndecidedError
from outofgears.log import GameLog, LogError, read_log
from outofgears.log.serialization import to_json
from outofgears.log.writing import json_safe
from outofgears.rules.events import (
    ActionResolved,
    Event,
    GearMoved,
    SplitResolved,
    UpgradeDiscarded,
)
from outofgears.rules.model import GameState
from outofgears.rules.programs import AnyProgram
from outofgears.rules.scoring import player_scores, winners
from outofgears.words import LANGUAGES, program_text, translator
from outofgears.words.findings import Points, fact_text

#: Exit statuses: the log agrees with the rules; it departs from them; it (or the command) is invalid.
AGREES, DEPARTS, INVALID = 0, 1, 2
#: Exit status: more positions agree with the log than the bound (``--max-open``) at some turn.
UNDECIDED = 4


class AsciiIntRange(click.IntRange):
    """:class:`click.IntRange` for ASCII digits only: Python's ``int`` reads ``"٣"`` as 3 and
    ``"²"`` crashes it; both are refused here, like a number of more than 30 digits."""

    def _describe_range(self) -> str:
        """No range in the help when there is no bound (click would show ``x<=None``)."""
        if self.min is None and self.max is None:
            return ""
        return super()._describe_range()

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and (not value.isascii() or len(value.strip()) > 31):
            self.fail(f"{value!r} is not a whole number in ASCII digits", param, ctx)
        return super().convert(value, param, ctx)


class AsciiFloatRange(click.FloatRange):
    """:class:`click.FloatRange` for ASCII decimal numbers only, and finite: Python's ``float``
    reads Arabic-Indic and fullwidth digits, and ``"nan"`` passes every range check; all are refused."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and (
            not value.isascii()
            or len(value.strip()) > 31
            or not re.fullmatch(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*", value)
        ):
            self.fail(f"{value!r} is not a number in ASCII digits", param, ctx)
        return super().convert(value, param, ctx)


LOG_ARGUMENT = click.argument(
    "log", metavar="LOG", type=click.Path(dir_okay=False, allow_dash=True)
)
F = TypeVar("F", bound=Callable[..., Any])


def output_option(what: str) -> Callable[[F], F]:
    """The required ``-o/--output`` of a command that writes one file (``-`` for standard
    output): ``render`` and ``view``."""
    return click.option(
        "-o",
        "--output",
        "output",
        required=True,
        type=click.Path(dir_okay=False, allow_dash=True),
        help=f"The {what} to write; - for standard output.",
    )


def lang_option(what: str) -> Callable[[F], F]:
    """The ``--lang`` of a command that writes for people, ``what`` being what it puts in that
    language: ``dispute``, ``explain``, ``record``, ``render``, ``replay``, ``view`` and
    ``whatif``."""
    return click.option(
        "--lang",
        type=click.Choice(LANGUAGES),
        default="en",
        show_default=True,
        help=f"The language of {what}: English, Italian or French (the rulebooks' words).",
    )


TURN_OPTION = click.option(
    "--turn", "turn", type=AsciiIntRange(min=1), required=True, help="The turn of the log."
)
FORMAT_OPTION = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Text for people, or JSON for programs.",
)


class InputError(click.ClickException):
    """A bad log, file or argument: one clear message, exit status 2, no traceback."""

    exit_code = INVALID

    def __init__(self, message: str, lang: str = "en") -> None:
        super().__init__(message)
        self.lang = lang

    def show(self, file: IO[Any] | None = None) -> None:
        """Print the message after click's ``Error:``, that word in the message's language."""
        t = translator(self.lang)
        text = t.gettext("Error: {message}").format(message=self.format_message())
        click.echo(text, file=file, err=file is None, color=self.show_color)

    def format_message(self) -> str:
        """The message on one line, with every control and bidi character escaped."""
        return printable(self.message)


class UndecidedInputError(InputError):
    """A log too open to follow (:class:`~outofgears.judge.replay.UndecidedError`): exit status 4."""

    exit_code = UNDECIDED


def fail(error: OutOfGearsError | str) -> NoReturn:
    """Stop the command with a message and exit status 2 (4 for an undecided log)."""
    if isinstance(error, UndecidedError):
        raise UndecidedInputError(str(error))
    raise InputError(str(error))


def load_log(path: str) -> GameLog:
    """Read a log for a command; a :class:`LogError` becomes a message and exit status 2."""
    if path == "-" and sys.stdin is None:
        fail("<stdin>: $: standard input is closed")
    try:
        return read_log(path)
    except LogError as error:
        fail(error)


def source_name(path: str) -> str:
    """The name a command uses for a log path in messages."""
    return "<stdin>" if path == "-" else path


def programs_line(programs: Mapping[int, AnyProgram], lang: str = "en") -> str:
    """A turn's programs as text, in robot order.

    >>> from outofgears.rules.programs import parse_program
    >>> programs_line({2: parse_program("attack 1"), 1: parse_program("harvest 1")})
    '1: harvest 1, 2: attack 1'
    >>> programs_line({1: parse_program("harvest 1")}, "it")
    '1: Raccolta 1'
    """
    if lang == "en":
        return ", ".join(f"{robot}: {programs[robot]}" for robot in sorted(programs))
    return ", ".join(
        f"{robot}: {program_text(programs[robot], lang)}" for robot in sorted(programs)
    )


def programs_json(programs: Mapping[int, AnyProgram]) -> dict[str, str]:
    """A turn's programs as JSON-ready data, in robot order.

    >>> from outofgears.rules.programs import parse_program
    >>> programs_json({2: parse_program("attack 1"), 1: parse_program("harvest 1")})
    {'1': 'harvest 1', '2': 'attack 1'}
    """
    data: dict[str, str] = to_json(programs, dict[int, AnyProgram])
    return data


def open_sentence(count: int, lang: str = "en") -> str:
    """The one wording of a turn whose recorded values more than one legal play gives."""
    return (
        translator(lang)
        .gettext(
            "{count} positions agree with what was recorded; this report follows the first, "
            "and a later recorded value may settle them"
        )
        .format(count=count)
    )


def inferred_lines(turn: TurnReplay, lang: str = "en") -> list[str]:
    """The choices a turn's replay inferred, and whether its position stays open, in ``lang``.

    ``explain``, ``dispute`` and ``whatif`` show them with these words.
    """
    t = translator(lang)
    lines = []
    if turn.inferred:
        lines.append(t.gettext("Choices inferred from what was recorded:"))
        lines += [f"  {fact_text(choice.fact, lang)}" for choice in turn.inferred]
    if turn.open_positions > 1:
        sentence = open_sentence(turn.open_positions, lang)
        lines.append(t.gettext("Open: {sentence}").format(sentence=sentence))
    return lines


def notes_lines(notes: Iterable[object], lang: str = "en") -> list[str]:
    """The notes on a log written under another version of the specification
    (:func:`outofgears.judge.start.spec_note_facts`), one line each, in ``lang``:
    ``replay``, ``explain`` and ``dispute`` open their reports with them."""
    t = translator(lang)
    return [t.gettext("Note: {note}").format(note=fact_text(note, lang)) for note in notes]


def inferred_json(choice: InferredChoice) -> dict[str, Any]:
    """An inferred choice as JSON-ready data: its attributes in English, and the sentence that
    says it."""
    return {
        "turn": choice.turn,
        "kind": choice.kind,
        "robot": choice.robot,
        "place": choice.place,
        "chosen": choice.chosen,
        "default": choice.default,
        "clause": choice.clause,
        "default_clause": choice.default_clause,
        "text": str(choice),
    }


def inferred_fields(turn: TurnReplay) -> dict[str, Any]:
    """A turn's inferred choices and open positions, and whether the game goes on from the
    position the table wrote down after it (``followed``, SET-8), as the JSON reports hold
    them."""
    return {
        "inferred": [inferred_json(choice) for choice in turn.inferred],
        "open_positions": turn.open_positions,
        "followed": turn.followed,
    }


def summary_events(events: Iterable[Event]) -> list[Event]:
    """The events a turn summary shows: outcomes, splits, discards and non-exploration moves."""
    return [
        event
        for event in events
        if isinstance(event, ActionResolved | SplitResolved | UpgradeDiscarded)
        or (isinstance(event, GearMoved) and event.clause != "EXP-1")
    ]


def turns_text(numbers: Iterable[int]) -> str:
    """Turn numbers in words: ``turn 3``, ``turns 3, 5``.

    >>> turns_text([3]), turns_text([3, 5])
    ('turn 3', 'turns 3, 5')
    """
    shown = [str(number) for number in numbers]
    return f"{'turn' if len(shown) == 1 else 'turns'} {', '.join(shown)}"


def scores_lines(state: GameState, lang: str = "en") -> list[str]:
    """The players' scores, best first, then who wins (a finished game) or leads (one still
    being played), in the singular for one player.

    >>> from outofgears.rules.setup import setup_game
    >>> scores_lines(setup_game([1, 2], seed=0))[-1]
    'Leading, level: P1, P2'
    """
    t = translator(lang)
    lines = [
        "  "
        + t.ngettext(
            "{player}: {points} ({count} own-colour gear, robot {robot})",
            "{player}: {points} ({count} own-colour gears, robot {robot})",
            score.own_colour,
        ).format(
            player=printable(score.player),
            points=fact_text(Points(score.points), lang),
            count=score.own_colour,
            robot=score.robot,
        )
        for score in player_scores(state)
    ]
    lines.append(best_line(winners(state), game_over=state.game_over, lang=lang))
    return lines


def best_line(best: tuple[str, ...], *, game_over: bool, lang: str = "en") -> str:
    """Who wins a finished game, or leads one still being played (END-3: the best score, then
    the most own-colour gears; a tie after both is shared).

    >>> best_line(("Ada",), game_over=True), best_line(("Ada", "Bo"), game_over=True)
    ('Winner: Ada', 'Winners, a shared victory (END-3): Ada, Bo')
    >>> best_line(("Ada",), game_over=False)
    'Leading: Ada'
    """
    names = ", ".join(map(printable, best))
    t = translator(lang)
    if game_over:
        if len(best) == 1:
            return t.gettext("Winner: {names}").format(names=names)
        return t.gettext("Winners, a shared victory (END-3): {names}").format(names=names)
    if len(best) == 1:
        return t.gettext("Leading: {names}").format(names=names)
    return t.gettext("Leading, level: {names}").format(names=names)


def scores_json(state: GameState) -> dict[str, Any]:
    """The players' scores and the winners, as JSON-ready data."""
    return {
        "scores": [
            {"player": s.player, "points": s.points, "own_colour": s.own_colour, "robot": s.robot}
            for s in player_scores(state)
        ],
        "winners": list(winners(state)),
        "game_over": state.game_over,
    }


def say(line: str, *, err: bool = False) -> None:
    """Print one report line with every control, separator and bidi character escaped.

    A line of a report stays one line whatever a name or a note holds: a newline in a
    player's name prints as ``\\n``, an escape sequence as ``\\x1b`` and so on
    (:func:`outofgears.errors.printable`).
    """
    click.echo(printable(line), err=err)


def json_text(data: Any, *, indent: int | None = 2) -> str:
    """JSON text for programs: non-ASCII kept, but controls, separators and bidi characters
    written as ``\\uXXXX`` escapes, which JSON reads back as the same characters.

    >>> json_text({"name": "A\\u2028\\u202eB"}, indent=None)
    '{"name": "A\\\\u2028\\\\u202eB"}'
    """
    return json_safe(json.dumps(data, indent=indent, ensure_ascii=False))


def echo_json(data: Any, *, err: bool = False) -> None:
    """Print JSON for programs, to standard error if ``err``."""
    click.echo(json_text(data), err=err)


def current_umask() -> int:
    """The process's file mode creation mask (read by setting it and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class UnsafeOutputError(OSError):
    """An output path that is not a regular file or absent: a directory, a FIFO, a device,
    a socket or a symbolic link (even one to a regular file, or dangling). Never replaced,
    not even with ``--force`` (issue 14)."""


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    kinds = [
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ]
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def check_output(path: Path, *, force: bool) -> None:
    """Refuse to write ``path`` unless it is absent, or a regular file and ``force`` is set.

    The path itself is looked at (:func:`os.lstat`), never what a symbolic link points to.

    Raises:
        UnsafeOutputError: ``path`` exists and is not a regular file.
        FileExistsError: ``path`` is a regular file and ``force`` is false; its message is
            ``"<path> exists; use --force to overwrite it"``.
        OSError: ``path`` cannot be looked at (a folder on the way is missing or a file).
    """
    if not str(path):
        raise UnsafeOutputError("the output file name is empty")
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise UnsafeOutputError(
            f"{path} is {_kind(mode)}, not a regular file; outofgears writes only regular "
            "files (use - for standard output)"
        )
    if not force:
        raise FileExistsError(f"{path} exists; use --force to overwrite it")


def output_path(output: str | os.PathLike[str] | None, *, force: bool) -> Path | None:
    """The file a command's ``-o`` names, checked before the work starts; ``None`` for
    standard output (no ``-o``, or ``-``). A refusal is a message and exit status 2.
    """
    if output is None or str(output) == "-":
        return None
    text = os.fspath(output)
    if not text:
        fail("the output file name is empty")
    path = Path(text)
    try:
        check_output(path, force=force)
    except FileExistsError:
        fail(f"{printable(text)} exists; use --force to overwrite it")
    except OSError as error:
        fail(output_error(text, error))
    if not path.parent.is_dir():
        fail(f"cannot write {printable(text)}: no such directory: {printable(str(path.parent))}")
    return path


def output_error(path: str, error: OSError) -> str:
    """The message for an output file that cannot be written."""
    if isinstance(error, UnsafeOutputError | FileExistsError):
        return str(error)
    return f"cannot write {path}: {error.strerror or error}"


@contextlib.contextmanager
def atomic_output(
    path: Path, *, force: bool = False, like: os.stat_result | None = None
) -> Iterator[IO[str]]:
    """A text stream whose content replaces ``path`` whole when the block ends, or not at all.

    The text goes to a temporary file beside ``path`` (private while written, then given
    the mode of a new file, or, with ``like``, the mode and, where this process may set it,
    the group of the file it replaces: a log of mode 600 stays 600). At the end the target is checked again (:func:`check_output`)
    and the temporary file takes its place: without ``force`` by :func:`os.link`, which
    fails if any file (or link) appeared meanwhile; with ``force`` by :func:`os.replace`,
    which replaces the directory entry itself, never a symbolic link's target. An
    exception, or SIGTERM (turned into :class:`SystemExit` by :func:`outofgears.cli.main.run`),
    removes the temporary file.
    """
    check_output(path, force=force)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        if like is None:
            os.chmod(temporary, 0o666 & ~current_umask())
        else:
            with contextlib.suppress(OSError):  # the group only where this process may set it
                os.chown(temporary, -1, like.st_gid)
            os.chmod(temporary, stat.S_IMODE(like.st_mode))
        check_output(path, force=force)  # again: a file may have appeared during a long run
        if force:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)  # fails if the file appeared meanwhile
            except FileExistsError:
                raise FileExistsError(f"{path} exists; use --force to overwrite it") from None
            except OSError as error:
                if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
                    raise
                os.replace(temporary, path)  # no hard links here: rename, after the check
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def write_atomically(
    path: Path, text: str, *, force: bool = False, like: os.stat_result | None = None
) -> None:
    """Write ``text`` to ``path`` whole or not at all; keep an existing file unless ``force``,
    and never replace anything but a regular file (:func:`atomic_output`; ``like`` gives the
    mode to keep).

    Raises:
        FileExistsError: ``path`` exists and ``force`` is false; its message is
            ``"<path> exists; use --force to overwrite it"``.
        UnsafeOutputError: ``path`` is a directory, FIFO, device, socket or symbolic link.
        OSError: The folder cannot be written.

    >>> folder = Path(tempfile.mkdtemp())
    >>> write_atomically(folder / "table.svg", "<svg/>")
    >>> (folder / "table.svg").read_text()
    '<svg/>'
    >>> write_atomically(folder / "table.svg", "<svg></svg>")
    Traceback (most recent call last):
    ...
    FileExistsError: ...table.svg exists; use --force to overwrite it
    >>> (folder / "link.svg").symlink_to(folder / "table.svg")
    >>> write_atomically(folder / "link.svg", "<svg/>", force=True)
    Traceback (most recent call last):
    ...
    outofgears.cli.common.UnsafeOutputError: ...link.svg is a symbolic link, not a regular file; ...
    >>> sorted(p.name for p in folder.iterdir())
    ['link.svg', 'table.svg']
    """
    with atomic_output(path, force=force, like=like) as file:
        file.write(text)


def deliver(
    text: str, target: Path | None, output: str | os.PathLike[str] | None, *, force: bool
) -> bool:
    """Print ``text`` on standard output when ``target`` is ``None`` (:func:`output_path`
    gave no file), else write it to ``target`` with :func:`write_atomically`; a file that
    cannot be written is a message naming ``output`` and exit status 2.

    Returns:
        Whether a file was written (the caller may then say so).
    """
    if target is None:
        click.echo(text, nl=False)
        return False
    try:
        write_atomically(target, text, force=force)
    except OSError as error:
        fail(output_error(str(output), error))
    return True
