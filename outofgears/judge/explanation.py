"""One turn of a log explained event by event, with the clause behind every event.

:func:`explain_turn` is what ``outofgears explain LOG --turn N`` prints, as data: the turn's
replay (programs, choices given and inferred, the position before and after, departures),
every event in words with its spec clause (title, rulebook sources, paraphrase) in the
language asked for, and the earlier turns that departed. The command only lays it out.

>>> from outofgears.judge.explanation import explain_turn
>>> from outofgears.log import read_log
>>> explanation = explain_turn(read_log("examples/full-game.log.json"), 3, lang="fr")
>>> explanation.agrees, explanation.turn
(True, 3)
>>> first = explanation.events[0]
>>> first.text
'Robot 2 Attaque 1 : Attaque réussie [ATK-6]'
>>> first.clause.id, first.clause.title
('ATK-6', 'Une Attaque réussie prend les Engrenages aux pieds du Robot ciblé')
"""

from __future__ import annotations

from attrs import frozen

from outofgears.clauses import clauses, paraphrases
from outofgears.errors import expect
from outofgears.judge.compare import replay_through
from outofgears.judge.departures import Departure
from outofgears.judge.replay import InferredChoice, Replay, TurnReplay
from outofgears.log import ChoicesRecord, GameLog
from outofgears.rules.events import Event
from outofgears.rules.model import GameState
from outofgears.rules.programs import AnyProgram
from outofgears.rules.scoring import player_scores
from outofgears.rules.variant import PlayerScore
from outofgears.words import check_language, clause_title, event_text
from outofgears.words.findings import rulebook_sources


@frozen
class ClauseNote:
    """A spec clause as an explanation cites it.

    Attributes:
        id: The clause ID (``"ATK-4"``).
        title: Its title, in the explanation's language (the ID's stand-in text for an ID
            the specification lacks).
        italian_sources: The Italian rulebook's clauses it formalises (``"IT-ATK-4"``, ...).
        french_sources: The French rulebook's clauses it formalises.
        engine_policy: Whether no rulebook clause is behind it (the rulebooks leave the
            decision to the engine).
        sources: Those rulebook clauses in one line of words, in the explanation's language.
        paraphrase: The project's paraphrase of the clause in that language (empty when the
            specification has none).
    """

    id: str
    title: str
    italian_sources: tuple[str, ...]
    french_sources: tuple[str, ...]
    engine_policy: bool
    sources: str
    paraphrase: str


@frozen
class ExplainedEvent:
    """One event of the turn, in words, with its clause.

    Attributes:
        event: The engine's event.
        text: The event in words, in the explanation's language.
        clause: The clause behind it.
    """

    event: Event
    text: str
    clause: ClauseNote


@frozen
class Explanation:
    """One turn of a log explained (:func:`explain_turn`).

    Attributes:
        source: The log's name, as the explanation cites it.
        lang: The language of the words (``"en"``, ``"it"`` or ``"fr"``).
        replay: The replay of the log up to and including the turn.
        replayed: The turn's own replay (the state before it, its programs and choices, its
            result, its departures and the choices inferred from what was recorded).
        events: Every event of the turn, in order, with its clause.
        earlier_departures: The earlier turns that depart from the rules (this turn is then
            replayed from the position the rules give).
    """

    source: str
    lang: str
    replay: Replay
    replayed: TurnReplay
    events: tuple[ExplainedEvent, ...]
    earlier_departures: tuple[int, ...]

    @property
    def turn(self) -> int:
        """The turn's number."""
        return self.replayed.turn

    @property
    def agrees(self) -> bool:
        """Whether the turn agrees with the rules."""
        return not self.replayed.departures

    @property
    def programs(self) -> dict[int, AnyProgram]:
        """Each robot's program of the turn."""
        return self.replayed.programs

    @property
    def choices(self) -> ChoicesRecord | None:
        """The post-reveal choices the log gives for the turn (``None`` when it gives none)."""
        return self.replayed.record.choices

    @property
    def inferred(self) -> tuple[InferredChoice, ...]:
        """The choices inferred from what the players recorded."""
        return self.replayed.inferred

    @property
    def before(self) -> GameState:
        """The position before the turn."""
        return self.replayed.before

    @property
    def after(self) -> GameState:
        """The position after the turn: the rules', or the table's when the turn departs and
        its record says ``"follows": "table"`` (SET-8)."""
        return self.replayed.after

    @property
    def scores(self) -> tuple[PlayerScore, ...]:
        """Every player's score after the turn."""
        return player_scores(self.after)

    @property
    def departures(self) -> tuple[Departure, ...]:
        """The turn's departures from the rules."""
        return self.replayed.departures


def clause_note(clause_id: str, lang: str = "en") -> ClauseNote:
    """A spec clause as an explanation cites it, in ``lang``.

    >>> note = clause_note("ATK-4")
    >>> note.title, note.sources
    ('The defender takes one gear from each attacker', 'IT: IT-ATK-4, IT-ACT-ATK-2 | FR: FR-ATK-4, FR-ACT-ATK-2')
    >>> clause_note("ATK-5").engine_policy
    True
    """
    expect(clause_id, str, "clause_id", "a clause ID")
    check_language(lang)
    found = clauses().get(clause_id)
    sources = found.sources if found is not None else ()
    return ClauseNote(
        id=clause_id,
        title=clause_title(clause_id, lang) if found else "(not a clause of the specification)",
        italian_sources=tuple(s for s in sources if s.startswith("IT-")),
        french_sources=tuple(s for s in sources if s.startswith("FR-")),
        engine_policy=not sources,
        sources=rulebook_sources(clause_id, lang),
        paraphrase=paraphrases().get(clause_id, {}).get(lang, ""),
    )


def explain_turn(
    log: GameLog, turn: int, *, source: str = "<log>", lang: str = "en"
) -> Explanation:
    """Explain turn ``turn`` of ``log`` in ``lang``: what ``outofgears explain`` prints.

    The log is replayed up to that turn (the turns after it are not read, so a fault later
    does not stop its explanation).

    Raises:
        LogError: The log has no such turn, or is invalid up to it (naming ``source``).
        UndecidedError: More positions than the replay's bound were open at or before the
            turn.
        InvalidStateError: ``lang`` is not one of ``"en"``, ``"it"``, ``"fr"``.
    """
    check_language(lang)
    return explain_replayed(replay_through(log, turn, source), turn, source=source, lang=lang)


def explain_replayed(
    replay: Replay, turn: int, *, source: str = "<log>", lang: str = "en"
) -> Explanation:
    """Explain turn ``turn`` of a log already replayed (:func:`~outofgears.judge.replay.replay_log`),
    in ``lang``: the turns of a whole replay explained without replaying it again.

    Raises:
        NoSuchTurnError: The replay holds no turn ``turn``.
        InvalidStateError: ``lang`` is not one of ``"en"``, ``"it"``, ``"fr"``.
    """
    expect(replay, Replay, "replay", "a Replay")
    check_language(lang)
    replayed = replay.turn(turn)
    notes = {clause: clause_note(clause, lang) for clause in _clauses(replayed)}
    events = tuple(
        ExplainedEvent(event, event_text(event, lang), notes[event.clause])
        for event in replayed.result.events
    )
    earlier = tuple(sorted({d.turn for d in replay.departures if d.turn < turn}))
    return Explanation(source, lang, replay, replayed, events, earlier)


def _clauses(replayed: TurnReplay) -> dict[str, None]:
    return dict.fromkeys(event.clause for event in replayed.result.events)


#: The public names of this module (the rest serves them).
__all__ = [
    "ClauseNote",
    "ExplainedEvent",
    "Explanation",
    "clause_note",
    "explain_replayed",
    "explain_turn",
]
