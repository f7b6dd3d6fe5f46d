"""The table session (:mod:`outofgears.table.session`), driven as a table drives it.

A stateful test types random games into a session: programs and choices picked among the legal
answers, defaults taken with an empty answer, choices nobody saw (``?``), answers that cannot be
read, values written down that agree or depart (confirmed or refused), undos of answers and of
written turns, and interruptions (a new session reopened from the log and the answers so far).
Whatever happens, the log holds exactly the turns written, in order, each as it was entered,
and reopens to the same session.
"""

from __future__ import annotations

import json
import random

import attrs
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from outofgears.errors import InvalidStateError
from outofgears.judge.replay import replay_log
from outofgears.log import GameLog, Start, TurnRecord, dump_log, read_log_bytes
from outofgears.log.converter import LOG_CONVERTER
from outofgears.log.writing import append_turn_text, without_last_turn_text
from outofgears.play.policies import random_programs
from outofgears.rules.legal import legal_choices
from outofgears.rules.model import Options
from outofgears.rules.scoring import player_scores
from outofgears.rules.setup import setup_game
from outofgears.rules.turn import apply_turn
from outofgears.table.session import (
    AnswerRefusedError,
    Question,
    TableSession,
    is_undo,
)
from tests.cli.test_record import TABLE
from tests.log_samples import recorded_after

PLAYERS: dict[str, tuple[int, ...]] = {"Ada": (1,), "Ben": (2,), "Cy": (3,)}


def new_log(seed: int, options: Options | None = None) -> GameLog:
    return GameLog(players=PLAYERS, start=Start(seed=seed), options=options or Options())


def table_log(options: Options) -> GameLog:
    """Ada's robot 1 has four gears at its feet, Ben's robot 2 two at its feet and one in its
    circuit, Cy's robot 3 none; dump 1 holds three gears of three colours."""
    data = {**TABLE, "options": LOG_CONVERTER.unstructure(options)}
    return read_log_bytes(json.dumps(data).encode(), "table")


def session_of(log: GameLog, answers: tuple[str, ...] = (), lang: str = "en") -> TableSession:
    session = TableSession(replay_log(log), lang=lang)
    for answer in answers:
        session.answer(answer)
    return session


def finish_turn(session: TableSession, picks: list[str]) -> TurnRecord:
    """Answer every question of the turn: ``picks`` first, then the defaults; the record."""
    while session.question() is not None:
        session.answer(picks.pop(0) if picks else "")
    return session.entered().record


# --- example tests, named after the table -------------------------------------------------------


def test_the_table_presses_enter_for_every_choice_and_the_log_holds_each_default() -> None:
    # Ada's robot 1 defends (attack 1) against Ben's attack and takes a gear from him; she
    # holds four gears at her feet, so her assembly is asked too
    log = table_log(Options(assembly="optional"))
    session = session_of(log)
    asked: list[Question] = []
    for program in ("attack 1", "attack 1", "harvest 3"):
        asked.append(session.question())  # type: ignore[arg-type]
        session.answer(program)
    while (question := session.question()) is not None:
        asked.append(question)
        session.answer("")
    record = session.entered().record
    decisions = [q for q in asked if q.kind in ("steal", "split", "assembly")]
    written = record.choices
    assert {q.kind for q in decisions} >= {"steal", "assembly"}, [q.kind for q in asked]
    assert written is not None
    count = len(written.defence_steals) + len(written.assemblies) + len(written.splits)
    assert count == len(decisions)
    after = replay_log(attrs.evolve(log, turns=(record,)))
    assert after.agrees
    assert after.positions == 1


def test_a_choice_nobody_saw_is_left_out_of_the_log() -> None:
    log = table_log(Options(assembly="optional"))
    session = session_of(log, ("attack 1", "attack 1", "harvest 3"))
    while (question := session.question()) is not None:
        session.answer("?" if question.kind != "recorded" else "")
    assert session.entered().record.choices is None


def test_undo_takes_the_last_answer_back_and_asks_it_again() -> None:
    session = session_of(new_log(3))
    first = session.question()
    session.answer("harvest 1")
    second = session.question()
    assert session.undo() == "harvest 1"
    assert session.question() == first
    session.answer("trap 2")
    assert session.question() == second
    assert session.answers == ("trap 2",)


def test_a_refused_answer_is_not_kept() -> None:
    session = session_of(new_log(3))
    with pytest.raises(AnswerRefusedError) as refused:
        session.answer("trap 9")
    assert "is not a program" in refused.value.reason
    assert isinstance(refused.value, ValueError)
    assert session.answers == ()


def test_a_later_robot_may_not_skip_its_program_but_the_first_may_stop() -> None:
    session = session_of(new_log(3))
    assert session.question().empty == "stop"  # type: ignore[union-attr]
    session.answer("harvest 1")
    with pytest.raises(AnswerRefusedError, match="every robot lays a program"):
        session.answer("")


def test_a_written_turn_is_taken_back_whole() -> None:
    log = new_log(3)
    session = session_of(log)
    record = finish_turn(session, ["harvest 1", "harvest 2", "harvest 3"])
    text = append_turn_text(dump_log(log), log, record)
    session.written(replay_log(read_log_bytes(text.encode(), "t")))
    assert session.state.turn == 2
    shorter = without_last_turn_text(text)
    assert session.without_last_turn() == read_log_bytes(shorter.encode(), "t")
    assert shorter == dump_log(log)


def test_nothing_is_asked_once_the_turn_is_entered_whole() -> None:
    session = session_of(new_log(3))
    finish_turn(session, ["harvest 1", "harvest 2", "harvest 3"])
    with pytest.raises(InvalidStateError, match="entered whole"):
        session.answer("")


def test_the_undo_words_of_each_language() -> None:
    assert is_undo("UNDO")
    assert is_undo(" < ")
    assert is_undo("Annulla", "it")
    assert is_undo("annuler", "fr")
    assert not is_undo("annulla")
    assert not is_undo("trap 2", "it")


def test_a_turn_typed_past_the_open_positions_bound_is_written_as_typed() -> None:
    # Issue 31: a 4-robot game with optional assembly, scores only written down, leaves more
    # than 256 positions open after turn 4; the turn typed next must be written as typed.
    log = scores_only_game(seed=0, turns=4)
    assert replay_log(log).undecided is None  # the last turn only lists what stays open
    session = session_of(log)
    state = session.state
    programs = random_programs(state, random.Random(1))
    record = finish_turn(session, [str(programs[robot]) for robot in state.robot_numbers])
    entered = session.entered()
    assert record.turn == 5
    assert record.programs == programs
    assert entered.replayed.undecided is not None
    assert entered.replayed.undecided.turn == 4


def scores_only_game(seed: int, turns: int) -> GameLog:
    """A seeded 4-robot game under optional assembly, random programs and choices, the scores
    alone written down after each turn."""
    rng = random.Random(seed)
    options = Options(assembly="optional")
    state = setup_game([1, 2, 3, 4], seed=seed, options=options)
    records = []
    for _ in range(turns):
        programs = random_programs(state, rng)
        after = apply_turn(state, programs, choices=legal_choices(state, programs).sample(rng))
        records.append(
            TurnRecord(state.turn, programs, recorded=recorded_after(after, "scores", rng))
        )
        state = after
    players: dict[str, tuple[int, ...]] = {f"P{robot}": (robot,) for robot in (1, 2, 3, 4)}
    return GameLog(players=players, start=Start(seed=seed), options=options, turns=tuple(records))


# --- the stateful test ---------------------------------------------------------------------------


class TableAtWork(RuleBasedStateMachine):
    """A table typing a game into a session, and the log it keeps."""

    def __init__(self) -> None:
        super().__init__()
        self.session: TableSession | None = None
        self.text = ""
        self.written: list[TurnRecord] = []

    @rule(
        seed=st.integers(0, 2**16),
        optional=st.booleans(),
        lang=st.sampled_from(["en", "it", "fr"]),
    )
    @precondition(lambda self: self.session is None)
    def start(self, seed: int, optional: bool, lang: str) -> None:
        log = new_log(seed, Options(assembly="optional" if optional else "mandatory"))
        self.text = dump_log(log)
        self.session = TableSession(replay_log(log), lang=lang)

    def asked(self) -> Question | None:
        assert self.session is not None
        return None if self.session.game_over else self.session.question()

    @rule(data=st.data())
    @precondition(lambda self: self.session is not None)
    def answer(self, data: st.DataObject) -> None:
        assert self.session is not None
        question = self.asked()
        if question is None:
            return
        choices = [*question.options, "", "?", "not an answer"]
        if question.kind == "recorded":
            robot = data.draw(st.sampled_from(self.session.state.robot_numbers))
            choices += [f"robot {robot} circuit=none", f"robot {robot} feet=red,red"]
        text = data.draw(st.sampled_from(choices))
        before = self.session.answers
        try:
            self.session.answer(text)
        except AnswerRefusedError:
            assert self.session.answers == before
        else:
            assert self.session.answers == (*before, text)

    @rule()
    @precondition(lambda self: self.session is not None)
    def undo(self) -> None:
        assert self.session is not None
        before = self.session.answers
        undone = self.session.undo()
        assert undone == (before[-1] if before else None)

    @rule()
    @precondition(lambda self: self.session is not None)
    def write(self) -> None:
        assert self.session is not None
        if self.session.game_over or self.session.question() is not None:
            return
        entered = self.session.entered()
        self.text = append_turn_text(self.text, self.session.log, entered.record)
        self.session.written(replay_log(read_log_bytes(self.text.encode(), "t")))
        self.written.append(entered.record)

    @rule()
    @precondition(lambda self: self.session is not None)
    def take_back_a_written_turn(self) -> None:
        assert self.session is not None
        if self.session.answers or not self.written:
            return
        shorter = self.session.without_last_turn()
        self.text = without_last_turn_text(self.text)
        assert read_log_bytes(self.text.encode(), "t") == shorter
        self.session.written(replay_log(shorter))
        self.written.pop()

    @rule()
    @precondition(lambda self: self.session is not None)
    def interrupt_and_reopen(self) -> None:
        assert self.session is not None
        reopened = TableSession(
            replay_log(read_log_bytes(self.text.encode(), "t")), lang=self.session.lang
        )
        for answer in self.session.answers:
            reopened.answer(answer)
        assert reopened.answers == self.session.answers
        assert self.asked() == (None if reopened.game_over else reopened.question())
        self.session = reopened

    @invariant()
    def the_log_holds_exactly_the_turns_written(self) -> None:
        if self.session is None:
            return
        log = read_log_bytes(self.text.encode(), "t")
        assert log.turns == tuple(self.written)
        assert self.session.log == log
        assert [turn.turn for turn in log.turns] == list(range(1, len(log.turns) + 1))


TableAtWork.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_a_table_at_work = TableAtWork.TestCase


def test_the_steal_question_offers_only_gears_the_attacker_has() -> None:
    # Ben's robot 2 holds orange and blue at its feet and red in its circuit; Ada defends
    # against his attack: the question offers those three, and nothing Ben does not have.
    session = session_of(table_log(Options()), ("attack 1", "attack 1", "harvest 3"))
    question = session.question()
    assert question is not None
    assert question.kind == "steal"
    assert set(question.options) == {"orange from feet", "blue from feet", "red from circuit"}
    for gear in ("yellow", "purple", "green", "white"):
        assert gear not in question.text
    feet_only = session_of(
        table_log(Options(defence_steal_source="feet_only")), ("attack 1", "attack 1", "harvest 3")
    ).question()
    assert feet_only is not None
    assert set(feet_only.options) == {"orange from feet", "blue from feet"}


@pytest.mark.parametrize(
    ("robots", "written"), [((1, 2, 3, 4), "scores"), ((1, 2, 3, 4, 5, 6), "")]
)
def test_a_whole_game_typed_with_every_default_replays_with_nothing_open(
    robots: tuple[int, ...], written: str
) -> None:
    # Issue 31's two logs: a 4-robot game with the scores alone written down, a 6-robot game
    # with nothing written down, every choice left to Enter; no turn lost or repeated.
    rng = random.Random(len(robots))
    players: dict[str, tuple[int, ...]] = {f"P{robot}": (robot,) for robot in robots}
    log = GameLog(players=players, start=Start(seed=len(robots)))
    session = TableSession(replay_log(log))
    typed = 0
    while not session.game_over:
        state = session.state
        programs = random_programs(state, rng)
        after = apply_turn(state, programs)  # the rules' defaults, which Enter takes
        scores = [f"{s.player}={s.points}" for s in player_scores(after)] if written else []
        while (question := session.question()) is not None:
            if question.kind == "program":
                session.answer(str(programs[question.key]))
            elif question.kind == "recorded" and scores:
                session.answer(scores.pop())
            else:
                session.answer("")
        entered = session.entered()
        session.written(entered.replayed)
        typed += 1
    final = session.replayed
    assert [turn.turn for turn in final.log.turns] == list(range(1, typed + 1))
    assert final.agrees
    assert final.positions == 1
    assert not final.left_open
