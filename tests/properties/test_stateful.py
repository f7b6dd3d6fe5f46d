"""Whole games as a hypothesis state machine (issue 7: reliability).

An ``initialize`` rule draws a game the way a log starts one: one robot per player or the
two-robot variant, any combination of the expansions, a seed. Each step then plays a turn
of random legal programs (:func:`tests.strategies.legal_programs`), with the default
choices or random legal ones (:func:`tests.strategies.legal_choices`), and checks after
every turn:

* every invariant of :func:`tests.properties.checks.check_turn` (conservation, no gear in
  two places nor a negative count, the events, the outcomes, the takings, ...);
* the events replay to the new state (:func:`outofgears.apply_events`);
* the state survives ``state_to_dict`` -> JSON text -> ``state_from_dict``;
* the log written so far (programs and choices as :class:`~outofgears.log.ChoicesRecord`)
  survives ``dump_log`` -> ``read_log_text`` and replays to the same state, agreeing with
  the rules throughout.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from outofgears import Choices, GameOverError, GameState, Options, apply_events, resolve_turn
from outofgears.judge.replay import replay_log
from outofgears.judge.start import start_state
from outofgears.log import (
    ChoicesRecord,
    GameLog,
    SplitRecord,
    Start,
    StealRecord,
    TurnRecord,
    dump_log,
    read_log_text,
)
from outofgears.log.serialization import state_from_dict, state_to_dict
from outofgears.rules.programs import AnyProgram
from tests.properties.checks import budget, check_turn
from tests.strategies import (
    legal_choices,
    legal_programs,
    options,
    robots_in_play,
    seeds,
    two_robot_control,
)

pytestmark = [pytest.mark.clause("TURN-1"), pytest.mark.slow]


def choices_record(choices: Choices) -> ChoicesRecord:
    """The engine's choices as a log writes them."""
    return ChoicesRecord(
        defence_steals=tuple(
            StealRecord(defender, attacker, steal.source, steal.gear)
            for (defender, attacker), steal in choices.defence_steals.items()
        ),
        assemblies=dict(choices.assemblies),
        splits=tuple(SplitRecord(place, dict(shares)) for place, shares in choices.splits.items()),
    )


class WholeGame(RuleBasedStateMachine):
    """A game from its seeded setup, one random legal turn per step."""

    def __init__(self) -> None:
        super().__init__()
        self.header: GameLog | None = None
        self.state: GameState | None = None
        self.turns: list[TurnRecord] = []

    @initialize(data=st.data())
    def set_up(self, data: st.DataObject) -> None:
        two: bool = data.draw(st.booleans(), label="two-robot variant")
        players: dict[str, tuple[int, ...]]
        if two:
            players = dict(data.draw(two_robot_control(), label="control"))
        else:
            robots: tuple[int, ...] = data.draw(robots_in_play(), label="robots")
            players = {f"P{n}": (n,) for n in robots}
        count = sum(len(pair) for pair in players.values())
        rules: Options = data.draw(
            options(expansions=True, players=len(players), robots=count), label="options"
        )
        seed: int = data.draw(seeds(), label="seed")
        self.header = GameLog(
            players=players, start=Start(seed=seed), options=rules, two_robot_variant=two
        )
        self.state = start_state(self.header)

    @precondition(lambda self: self.state is not None and not self.state.game_over)
    @rule(data=st.data())
    def play_turn(self, data: st.DataObject) -> None:
        before = self.state
        assert before is not None
        programs: dict[int, AnyProgram] = data.draw(legal_programs(before), label="programs")
        chosen: bool = data.draw(st.booleans(), label="explicit choices")
        choices = data.draw(legal_choices(before, programs), label="choices") if chosen else None
        result = resolve_turn(before, programs, choices=choices)
        check_turn(before, programs, result, choices)
        assert apply_events(before, result.events) == result.state
        self.turns.append(
            TurnRecord(
                turn=before.turn,
                programs=dict(programs),
                choices=choices_record(choices) if choices is not None else None,
            )
        )
        self.state = result.state

    @precondition(lambda self: self.state is not None and self.state.game_over)
    @rule()
    def game_is_over(self) -> None:
        state = self.state
        assert state is not None
        assert not state.reserve
        with pytest.raises(GameOverError):
            resolve_turn(state, self.turns[-1].programs)

    @invariant()
    def state_round_trips(self) -> None:
        if self.state is None:
            return
        text = json.dumps(state_to_dict(self.state))
        assert state_from_dict(json.loads(text)) == self.state

    @invariant()
    def log_replays(self) -> None:
        if self.header is None or self.state is None:
            return
        log = GameLog(
            players=self.header.players,
            start=self.header.start,
            turns=tuple(self.turns),
            options=self.header.options,
            two_robot_variant=self.header.two_robot_variant,
        )
        read = read_log_text(dump_log(log), "<stateful>")
        assert read == log
        replayed = replay_log(read, "<stateful>")
        assert replayed.agrees, replayed.departures
        assert replayed.final == self.state


WholeGame.TestCase.settings = settings(budget(default=10, ci=40), stateful_step_count=30)
TestWholeGame = WholeGame.TestCase
