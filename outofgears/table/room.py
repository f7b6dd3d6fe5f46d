"""A game room: one game at a table of phones, with no user interface and no transport.

The room holds the seats (each a player of the log, a person with a private key or a shipped
bot), the log as written so far, and the turn in progress. A face (the web app of
:mod:`outofgears.web`) passes on what each seat sends (:meth:`Room.act`) and sends each seat
what :meth:`Room.view` gives it after every change.

Two modes:

* **play**: the rules resolve each turn. Each seat lays its robots' programs in secret, sealed
  (:mod:`outofgears.log.seals`): first a commitment only; when every seat has committed, each
  reveals its program and nonce and the room checks them; no view shows a program of the turn
  before every reveal is in. Then each decision the rules leave to a player (a defence steal,
  a split, an assembly) is asked on that player's phone, with the rules' default, which a
  time-out applies; the questions are the table session's own
  (:func:`~outofgears.table.session.steal_decisions` and its siblings).
* **record**: a game played with the real cards is entered by one phone, the host's: the room
  drives a :class:`~outofgears.table.session.TableSession` (its questions, its refusals, its
  undo), exactly as ``outofgears record`` does at a terminal.

Every turn is written whole to the log as it resolves (:class:`Store`); a room made again
from its log goes on from where it stopped.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, Protocol

import attrs
from attrs import frozen

from outofgears.errors import IllegalProgramError, OutOfGearsError
from outofgears.judge.replay import Replay, TurnReplay, replay_log
from outofgears.log import SealRecord, TurnRecord, read_log_text
from outofgears.log.seals import COMMITMENT, seal_commitment, seal_refusal
from outofgears.log.writing import append_turn_text, without_last_turn_text
from outofgears.play.actions import programs_of_move
from outofgears.play.bots import Bot, make_bot
from outofgears.play.observation import ObservationCache
from outofgears.rules.events import Event, SplitResolved
from outofgears.rules.model import GameState
from outofgears.rules.programs import AnyProgram, legal_programs, parse_program, validate_programs
from outofgears.rules.scoring import player_scores, winners
from outofgears.table.session import (
    AnswerRefusedError,
    Decision,
    Question,
    TableSession,
    TurnDraft,
    assembly_decisions,
    split_decisions,
    steal_decisions,
)
from outofgears.words import check_language

Mode = Literal["play", "record"]

#: The seconds a player has to answer a decision before the rules' default is taken.
CHOICE_SECONDS: Final = 90.0
#: The built-in bots a seat may be given.
BOT_KINDS: Final = ("random", "greedy", "lookahead", "mcts", "learned")
#: The longest answer a recording phone may send, in characters.
MAX_ANSWER: Final = 500
#: The decisions of a turn, in the order the table session asks them.
DECISIONS: Final = (
    ("steal", steal_decisions),
    ("split", split_decisions),
    ("assembly", assembly_decisions),
)


class Store(Protocol):
    """Where the log is kept: the whole text replaced at once with each turn."""

    def save(self, text: str, what: str) -> None:
        """Replace the log with ``text`` (``what`` says what it adds: ``"turn 3"``)."""
        ...


class RoomRefusedError(OutOfGearsError, ValueError):
    """A message the room does not take; nothing is changed.

    Attributes:
        code: What kind of refusal: ``"malformed"``, ``"out-of-turn"``, ``"forged"``,
            ``"illegal"``, ``"unknown-seat"``.
        reason: Why, in English.
    """

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@frozen
class Seat:
    """A seat at the table: a player of the log, its robots, its language, its bot if any."""

    name: str
    robots: tuple[int, ...]
    lang: str = "en"
    bot: str | None = None


@attrs.define
class Pending:
    """The decision asked now: the question (in the chooser's language), who answers it,
    how an answer is read, and when the default is taken."""

    kind: str
    decision: Decision
    chooser: str
    deadline: float


def seat_key(secret: bytes, name: str) -> str:
    """The private key of the seat ``name`` (its link): derived from the room's secret, so a
    room made again from its log and the same secret gives every seat the same link."""
    digest = hmac.new(secret, b"seat\0" + name.encode("utf-8"), hashlib.sha256).digest()
    return digest[:16].hex()


def host_key(secret: bytes) -> str:
    """The private key of the host's page."""
    return hmac.new(secret, b"host\0", hashlib.sha256).digest()[:16].hex()


class Room:
    """One game at a table of phones (see the module's description).

    Args:
        text: The log as written so far (``outofgears-log/1``).
        seats: The language and bot of each player of the log, by name (a player left out is
            a person who reads English).
        store: Where each turn is written.
        secret: The room's secret, from which each seat's key is derived.
        mode: ``"play"`` or ``"record"``.
        choice_seconds: How long a player has to answer a decision.
        clock: The clock of the time-outs (``time.monotonic``).
        seed: The bots' random numbers.
        lang: The language of the host's page (and of the questions of record mode).
    """

    def __init__(
        self,
        text: str,
        seats: Mapping[str, Seat],
        store: Store,
        secret: bytes,
        *,
        mode: Mode = "play",
        choice_seconds: float = CHOICE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
        source: str = "<log>",
        lang: str = "en",
    ) -> None:
        self.text = text
        self.source = source
        self.store = store
        self.mode = mode
        self.choice_seconds = choice_seconds
        self.clock = clock
        self.replayed: Replay = replay_log(read_log_text(text, source), source)
        players = self.replayed.log.players
        self.seats: dict[str, Seat] = {}
        for name, robots in players.items():
            given = seats.get(name, Seat(name, robots))
            check_language(given.lang)
            self.seats[name] = Seat(name, tuple(robots), given.lang, given.bot)
        for name in seats:
            if name not in players:
                raise RoomRefusedError("unknown-seat", f"{name!r} is not a player of the log")
        self.keys = {seat_key(secret, name): name for name in self.seats}
        self.host = host_key(secret)
        self.bots: dict[str, Bot] = {
            seat.name: make_bot(seat.bot) for seat in self.seats.values() if seat.bot
        }
        self.rng = random.Random(seed)
        self.cache = ObservationCache()
        self.commitments: dict[int, str] = {}
        self.reveals: dict[int, tuple[AnyProgram, str]] = {}
        self.draft: TurnDraft | None = None
        self.decided: set[tuple[str, object]] = set()
        self.pending: Pending | None = None
        self.version = 0
        self.lang = check_language(lang)
        self.session = TableSession(self.replayed, source, lang=lang) if mode == "record" else None
        self.refusal: str | None = None
        self._start_turn()

    # --- what the room is ------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The table before the turn in progress."""
        return self.replayed.final

    @property
    def phase(self) -> str:
        """``"commit"``, ``"reveal"``, ``"choose"``, ``"record"`` or ``"over"``."""
        if self.state.game_over:
            return "over"
        if self.mode == "record":
            return "record"
        if self.draft is not None:
            return "choose"
        if len(self.commitments) < len(self.state.robot_numbers):
            return "commit"
        return "reveal"

    @property
    def last(self) -> TurnReplay | None:
        """The last turn written, replayed; ``None`` before the first."""
        return self.replayed.turns[-1] if self.replayed.turns else None

    def seat_of(self, key: str) -> Seat | None:
        """The seat whose key is ``key``; ``None`` for none (the host's key is no seat)."""
        name = self.keys.get(key)
        return self.seats[name] if name is not None else None

    def owner(self, robot: int) -> Seat:
        """The seat of the player of ``robot``."""
        return self.seats[self.state.player_of(robot).name]

    # --- what a seat sends -------------------------------------------------------------------

    def act(self, key: str, message: Mapping[str, Any]) -> None:
        """Take what the seat (or the host) with ``key`` sends; every view changes.

        Raises:
            RoomRefusedError: The message is refused; nothing changed.
        """
        kind = message.get("type")
        seat = self.seat_of(key)
        if seat is None and key != self.host:
            raise RoomRefusedError("unknown-seat", "this link is no seat of the table")
        if kind in ("answer", "undo") and (key != self.host or self.mode != "record"):
            raise RoomRefusedError("out-of-turn", "only the host's page records, in record mode")
        if kind == "seat-bot" and (key != self.host or self.mode != "play"):
            raise RoomRefusedError("out-of-turn", "only the host's page seats a bot, in play")
        if kind == "answer":
            self._answer(message.get("text"))
        elif kind == "undo":
            self._undo()
        elif kind == "seat-bot":
            self._seat_bot(message.get("name"), message.get("bot"))
        elif seat is None:
            raise RoomRefusedError("out-of-turn", f"the host's page does not send {kind!r}")
        elif kind == "commit":
            self._commit(seat, message.get("commitments"))
        elif kind == "reveal":
            self._reveal(seat, message.get("reveals"))
        elif kind == "withdraw":
            self._withdraw(seat)
        elif kind == "choose":
            self._choose(seat, message.get("key"), message.get("answer"))
        else:
            raise RoomRefusedError("malformed", f"no message of type {kind!r} is taken here")
        self.version += 1

    def tick(self) -> bool:
        """Apply the default of a decision whose time is up; whether anything changed."""
        pending = self.pending
        if pending is None or self.clock() < pending.deadline:
            return False
        self._decide(pending, pending.decision.question.default or "")
        self.version += 1
        return True

    def _commit(self, seat: Seat, commitments: object) -> None:
        if self.phase != "commit":
            raise RoomRefusedError("out-of-turn", "programs are not being laid now")
        sent = _robot_map(commitments, "commitments")
        if set(sent) != set(seat.robots):
            raise RoomRefusedError("malformed", f"commit one program for each of {seat.robots}")
        if any(robot in self.commitments for robot in seat.robots):
            raise RoomRefusedError("out-of-turn", "your program is sealed already this turn")
        for commitment in sent.values():
            if not isinstance(commitment, str) or not COMMITMENT.fullmatch(commitment):
                raise RoomRefusedError(
                    "malformed", "a commitment is 64 lower-case hexadecimal digits"
                )
        self.commitments.update((robot, str(c)) for robot, c in sent.items())
        self._reveal_bots()

    def _reveal(self, seat: Seat, reveals: object) -> None:
        if self.phase != "reveal":
            raise RoomRefusedError("out-of-turn", "programs are not being revealed now")
        sent = _robot_map(reveals, "reveals")
        if set(sent) != set(seat.robots):
            raise RoomRefusedError("malformed", f"reveal one program for each of {seat.robots}")
        if any(robot in self.reveals for robot in seat.robots):
            raise RoomRefusedError("out-of-turn", "your program is revealed already")
        opened = {robot: self._opened(robot, reveal) for robot, reveal in sent.items()}
        for robot, (text, _) in opened.items():
            refusal = program_refusal(self.state, robot, text)
            if refusal is not None:
                # Nothing is shown before every reveal is in: the seat may lay again.
                for mine in seat.robots:
                    self.commitments.pop(mine, None)
                raise RoomRefusedError("illegal", f"{refusal}: lay a program again")
        self.reveals.update(
            (robot, (parse_program(text), nonce)) for robot, (text, nonce) in opened.items()
        )
        if len(self.reveals) == len(self.state.robot_numbers):
            self._all_revealed()

    def _seat_bot(self, name: object, kind: object) -> None:
        """The host seats a bot for a player who left: it answers the seat's pending choice
        with the default and lays (and seals) the seat's programs if they are not revealed
        yet (a seal the player made and did not reveal is dropped: nothing was shown)."""
        if not isinstance(name, str) or name not in self.seats:
            raise RoomRefusedError("malformed", "seat a bot for a player of the table")
        if kind not in BOT_KINDS:
            raise RoomRefusedError("malformed", f"a bot is one of {', '.join(BOT_KINDS)}")
        seat = self.seats[name]
        if seat.bot is not None:
            raise RoomRefusedError("out-of-turn", f"{name}'s seat is a bot already")
        if self.state.game_over:
            raise RoomRefusedError("out-of-turn", "the game is over")
        self.seats[name] = attrs.evolve(seat, bot=str(kind))
        self.bots[name] = make_bot(str(kind))
        if self.draft is None and not any(robot in self.reveals for robot in seat.robots):
            for robot in seat.robots:
                self.commitments.pop(robot, None)
            self._bot_seals(name)
            self._reveal_bots()
        pending = self.pending
        if pending is not None and pending.chooser == name:
            self._decide(pending, pending.decision.question.default or "")

    def _withdraw(self, seat: Seat) -> None:
        """A seat takes its seal back to lay again (a phone that lost what it sealed): only
        before it revealed, when no program of the turn has been shown to anyone."""
        if self.phase not in ("commit", "reveal"):
            raise RoomRefusedError("out-of-turn", "programs are not being laid now")
        if not all(robot in self.commitments for robot in seat.robots):
            raise RoomRefusedError("out-of-turn", "you have sealed nothing this turn")
        if any(robot in self.reveals for robot in seat.robots):
            raise RoomRefusedError("out-of-turn", "your program is revealed already")
        for robot in seat.robots:
            del self.commitments[robot]

    def _opened(self, robot: int, reveal: object) -> tuple[str, str]:
        """A reveal's program and nonce, checked against the robot's commitment."""
        if not isinstance(reveal, Mapping) or set(reveal) != {"program", "nonce"}:
            raise RoomRefusedError("malformed", "a reveal is {program, nonce}")
        program, nonce = reveal["program"], reveal["nonce"]
        if not isinstance(program, str) or not isinstance(nonce, str):
            raise RoomRefusedError("malformed", "a reveal's program and nonce are strings")
        commitment = self.commitments[robot]
        reason = seal_refusal(self.state.turn, robot, program, commitment, nonce)
        if reason is not None:
            raise RoomRefusedError("forged", reason)
        return program, nonce

    def _all_revealed(self) -> None:
        programs = {robot: program for robot, (program, _) in sorted(self.reveals.items())}
        try:
            validate_programs(self.state, programs)
        except IllegalProgramError as error:
            seat = self.owner(error.robot)
            for robot in seat.robots:
                self.commitments.pop(robot, None)
                self.reveals.pop(robot, None)
            self.refusal = f"{seat.name}: {error}; lay again"
            return
        self.draft = TurnDraft(self.state, programs)
        self.decided = set()
        self._next_decision()

    def _choose(self, seat: Seat, key: object, answer: object) -> None:
        pending = self.pending
        if pending is None or pending.chooser != seat.name:
            raise RoomRefusedError("out-of-turn", "nothing is asked of you now")
        if _json_key(pending.decision.question.key) != key:
            raise RoomRefusedError("out-of-turn", "that question is no longer asked")
        if not isinstance(answer, str) or len(answer) > MAX_ANSWER:
            raise RoomRefusedError("malformed", "an answer is a short text")
        self._decide(pending, answer or pending.decision.question.default or "")

    def _decide(self, pending: Pending, text: str) -> None:
        assert self.draft is not None
        try:
            draft = pending.decision.read(self.draft, text)
        except OutOfGearsError as error:
            raise RoomRefusedError("illegal", str(error)) from None
        self.draft = draft
        self.decided.add((pending.kind, pending.decision.question.key))
        self._next_decision()

    def _next_decision(self) -> None:
        """Ask the next decision of the turn, or write the turn when none is left."""
        draft = self.draft
        assert draft is not None
        while True:
            found = self._undecided(draft)
            if found is None:
                self.pending = None
                self._write_turn(draft)
                return
            kind, decision, chooser = found
            if chooser.bot is None:
                self.pending = Pending(
                    kind, decision, chooser.name, self.clock() + self.choice_seconds
                )
                return
            draft = decision.read(draft, decision.question.default or "")
            self.draft = draft
            self.decided.add((kind, decision.question.key))

    def _undecided(self, draft: TurnDraft) -> tuple[str, Decision, Seat] | None:
        """The first decision of the turn not yet made, in its chooser's language."""
        result = draft.resolve()
        for kind, decisions in DECISIONS:
            for decision in decisions(draft, result, "en"):
                key = decision.question.key
                if (kind, key) in self.decided:
                    continue
                chooser = self._chooser(kind, key, result.events)
                asked = decisions(draft, result, chooser.lang)
                return kind, next(d for d in asked if d.question.key == key), chooser
        return None

    def _chooser(self, kind: str, key: Any, events: tuple[Event, ...]) -> Seat:
        """Who answers a decision: the defender (ATK-4), the assembling robot (ASM-1), and
        for a split the first taker the rules name (SPL-5), who enters what the takers
        agree."""
        if kind == "steal":
            return self.owner(key[0])
        if kind == "assembly":
            return self.owner(key)
        split = next(e for e in events if isinstance(e, SplitResolved) and e.place == key)
        return self.owner(split.takers[0])

    def _write_turn(self, draft: TurnDraft) -> None:
        seals = {
            robot: SealRecord(self.commitments[robot], nonce)
            for robot, (_, nonce) in sorted(self.reveals.items())
        }
        self._append(attrs.evolve(draft.record(), seals=seals))
        self._start_turn()

    def _append(self, record: TurnRecord) -> None:
        """Write ``record`` as the log's next turn, then take the log as written."""
        text = append_turn_text(self.text, self.replayed.log, record)
        replayed = replay_log(
            attrs.evolve(self.replayed.log, turns=(*self.replayed.log.turns, record)), self.source
        )
        self.store.save(text, f"turn {record.turn}")
        self.text = text
        self.replayed = replayed

    def _start_turn(self) -> None:
        """A new turn: nothing sealed, and the bots' programs sealed at once."""
        self.commitments, self.reveals = {}, {}
        self.draft, self.pending, self.refusal = None, None, None
        self._bot_programs: dict[int, tuple[AnyProgram, str]] = {}
        if self.mode != "play" or self.state.game_over:
            return
        for name in self.bots:
            self._bot_seals(name)
        self._reveal_bots()

    def _bot_seals(self, name: str) -> None:
        """The bot of seat ``name`` lays and seals its programs (revealed with the others')."""
        revealed = self.last.programs if self.last is not None else None
        observation = self.cache.observe(self.state, name, revealed=revealed)
        move = self.bots[name].act(observation, self.rng)
        for robot, program in programs_of_move(self.state, name, move).items():
            nonce = secrets.token_hex(16)
            self._bot_programs[robot] = (program, nonce)
            self.commitments[robot] = seal_commitment(self.state.turn, robot, str(program), nonce)

    def _reveal_bots(self) -> None:
        """Once every seat has committed, the bots reveal (they committed first)."""
        if self.phase == "reveal" and self._bot_programs:
            self.reveals.update(self._bot_programs)
            self._bot_programs = {}
            if len(self.reveals) == len(self.state.robot_numbers):
                self._all_revealed()

    # --- record mode -----------------------------------------------------------------------

    def _answer(self, text: object) -> None:
        session = self.session
        assert session is not None
        if not isinstance(text, str) or len(text) > MAX_ANSWER:
            raise RoomRefusedError("malformed", "an answer is a short text")
        if self.state.game_over:
            raise RoomRefusedError("out-of-turn", "the game is over")
        try:
            question = session.answer(text)
        except AnswerRefusedError as error:
            self.refusal = error.reason
            return
        self.refusal = None
        if question is None:
            self._append(session.entered().record)
            session.written(self.replayed)

    def _undo(self) -> None:
        """Take the last answer back; at a turn's first question, the last turn written (as
        ``record`` does)."""
        session = self.session
        assert session is not None
        self.refusal = None
        if session.undo() is not None:
            return
        if not self.replayed.log.turns:
            raise RoomRefusedError("out-of-turn", "nothing is entered yet: nothing to take back")
        turn = self.replayed.log.turns[-1].turn
        text = without_last_turn_text(self.text)
        replayed = replay_log(session.without_last_turn(), self.source)
        self.store.save(text, f"turn {turn} taken back")
        self.text, self.replayed = text, replayed
        session.written(replayed)

    # --- what a seat sees --------------------------------------------------------------------

    def view(self, key: str) -> dict[str, Any]:
        """What the seat (or the host) with ``key`` is shown now, as JSON data. Before every
        reveal is in, it holds no program of the turn in progress, whoever asks."""
        seat = self.seat_of(key)
        state = self.state
        data: dict[str, Any] = {
            "mode": self.mode,
            "phase": self.phase,
            "turn": state.turn,
            "version": self.version,
            "seat": None,
            "players": [self._player_view(player.name) for player in state.players],
            "scores": [{"name": s.player, "points": s.points} for s in player_scores(state)],
            "winners": list(winners(state)) if state.game_over else [],
            "commitments": (
                {str(r): c for r, c in sorted(self.commitments.items())}
                if self.phase != "commit"
                else {}
            ),
            "refusal": self.refusal,
        }
        if seat is not None:
            data["seat"] = {"name": seat.name, "robots": list(seat.robots), "lang": seat.lang}
            data["legal"] = (
                {str(r): [str(p) for p in legal_programs(state, r)] for r in seat.robots}
                if self.phase == "commit"
                else {}
            )
            data["question"] = self._question_view(seat)
        if self.mode == "record" and self.session is not None and key == self.host:
            question = self.session.question() if not state.game_over else None
            data["question"] = _question_data(question, "record") if question else None
            data["answers"] = list(self.session.answers)
        return data

    def _player_view(self, name: str) -> dict[str, Any]:
        seat = self.seats[name]
        return {
            "name": name,
            "robots": list(seat.robots),
            "bot": seat.bot,
            "committed": all(r in self.commitments for r in seat.robots),
            "revealed": all(r in self.reveals for r in seat.robots),
            "asked": self.pending is not None and self.pending.chooser == name,
        }

    def _question_view(self, seat: Seat) -> dict[str, Any] | None:
        pending = self.pending
        if pending is None or pending.chooser != seat.name:
            return None
        data = _question_data(pending.decision.question, pending.kind)
        data["seconds"] = max(0.0, pending.deadline - self.clock())
        return data


def program_refusal(state: GameState, robot: int, text: str) -> str | None:
    """Why ``robot`` may not lay the program ``text`` (as the log writes it) on the next
    turn; ``None`` when it may."""
    try:
        program = parse_program(text)
    except OutOfGearsError as error:
        return str(error)
    if program not in legal_programs(state, robot):
        return f"robot {robot} may not lay {program}"
    return None


def _question_data(question: Question, kind: str) -> dict[str, Any]:
    """A question as JSON data."""
    return {
        "kind": question.kind,
        "key": _json_key(question.key),
        "text": question.prompt or question.text,
        "shape": question.shape,
        "default": question.default,
        "options": list(question.options),
        "empty": question.empty,
        "notes": list(question.notes),
        "departures": [str(d) for d in question.departures],
    }


def _json_key(key: object) -> str:
    """A question's key as the phones send it back."""
    if isinstance(key, tuple):
        return ",".join(map(str, key))
    return str(key)


def _robot_map(value: object, what: str) -> dict[int, object]:
    """An object keyed by robot number (``{"3": ...}``)."""
    if not isinstance(value, Mapping) or not 0 < len(value) <= 2:
        raise RoomRefusedError("malformed", f"{what} are an object keyed by robot number")
    out: dict[int, object] = {}
    for key, item in value.items():
        if not isinstance(key, str) or not key.isascii() or not key.isdigit() or len(key) > 1:
            raise RoomRefusedError("malformed", f"{what} are keyed by robot number")
        out[int(key)] = item
    return out


def new_secret() -> bytes:
    """A new room secret."""
    return secrets.token_bytes(32)
