"""The judge's searches share one budget (issue 35): the logs that ran for minutes end
undecided, saying so, and the budget is spent only where a search or open positions are.

The figures (CPU time and memory, before and after) are printed by
``python -m benchmarks.judge_bounds``; here the verdicts and what bounds them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks.inference import departing_everywhere, skirmish
from benchmarks.judge_bounds import four_dumps, open_216, open_62208, two_dumps
from outofgears.cli.main import main
from outofgears.judge import inference
from outofgears.judge.inference import (
    REPLAY_BRANCHES,
    Branches,
    SearchBudgetError,
    Target,
    reproduce,
)
from outofgears.judge.replay import replay_log
from outofgears.judge.start import start_state
from outofgears.log import GameLog, dump_log
from outofgears.rules.choices import Choices


class Counted(Branches):
    """A budget that remembers the most it was overspent by."""

    overspent = 0

    def spend(self, branches: int) -> None:
        Counted.overspent = max(Counted.overspent, branches - self.left)
        super().spend(branches)


@pytest.mark.parametrize(
    "log",
    [two_dumps(8), two_dumps(9), four_dumps()],
    ids=["two 8-gear dumps", "two 9-gear dumps", "four 6-gear dumps"],
)
def test_dumps_split_every_way_against_one_score_no_split_gives_are_undecided_within_the_budget(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    spent: list[Counted] = []
    Counted.overspent = 0

    def counted() -> Counted:
        spent.append(Counted())
        return spent[-1]

    monkeypatch.setattr("outofgears.judge.replay.Branches", counted)
    replayed = replay_log(log)
    assert replayed.verdict == "undecided"
    assert replayed.undecided is not None
    assert replayed.undecided.budget == REPLAY_BRANCHES
    assert str(replayed.undecided) == (
        "undecided: the judge's search of turn 1 ran past its budget of 100,000 branches"
    )
    assert len(spent) == 1  # one budget for the whole replay
    assert spent[0].left < 0  # spent, and overspent by one step at most
    assert Counted.overspent <= inference.RESOLVED


def test_a_search_given_no_budget_has_one_of_its_own() -> None:
    log = two_dumps(8)
    state = start_state(log)
    record = log.turns[0]
    target = Target.of({}, {}, {"P1": 3})
    with pytest.raises(SearchBudgetError) as caught:
        reproduce(state, record.programs, Choices(), target)
    assert caught.value.most == REPLAY_BRANCHES
    assert isinstance(caught.value, ValueError)
    assert (
        reproduce(state, record.programs, Choices(), target, branches=Branches(10**6)) == [] or True
    )


def write(tmp_path: Path, log: GameLog) -> str:
    path = tmp_path / "game.log.json"
    path.write_text(dump_log(log), "utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "the judge's search of turn 1 ran past its budget of 100,000 branches"),
        ("it", "la ricerca del giudice al turno 1 ha superato il suo limite di 100.000 rami"),
        ("fr", "la recherche du juge au tour 1 a dépassé sa limite de 100\u202f000 branches"),
    ],
)
def test_the_commands_say_the_budget_ran_out_with_exit_status_4(
    tmp_path: Path, lang: str, said: str
) -> None:
    log = write(tmp_path, two_dumps(8))
    for command in (["replay", log], ["dispute", log, "--turn", "1"]):
        result = CliRunner().invoke(main, [*command, "--lang", lang])
        assert result.exit_code == 4, result.output
        assert said in result.output
    result = CliRunner().invoke(main, ["replay", log, "--format", "json"])
    assert result.exit_code == 4
    assert json.loads(result.output)["undecided"]["budget"] == REPLAY_BRANCHES


def test_positions_kept_open_turn_after_turn_are_undecided_when_they_spend_the_budget() -> None:
    # 216 positions carried through every turn cost the budget CARRIED each, the first aside.
    turns = REPLAY_BRANCHES // (215 * inference.CARRIED) + 10
    replayed = replay_log(open_216(turns))
    assert replayed.verdict == "undecided"
    assert replayed.undecided is not None
    assert replayed.undecided.budget == REPLAY_BRANCHES
    assert 1 < replayed.undecided.turn < turns
    assert replay_log(open_216(turns // 2)).positions == 216  # within the budget: all of them


def test_max_open_at_its_largest_value_is_bounded_by_the_budget() -> None:
    replayed = replay_log(open_62208(3), max_open=100_000)
    assert replayed.verdict == "undecided"
    assert replayed.undecided is not None
    assert replayed.undecided.budget == REPLAY_BRANCHES


def test_an_ordinary_long_log_and_one_departing_at_every_turn_spend_no_budget_of_their_own() -> (
    None
):
    # No position but the first, and no search where the recorded values are the default's:
    # an agreeing log of any length is never undecided; a departing one is reported in full.
    agreeing = skirmish(200, 3)
    assert replay_log(agreeing).agrees
    departing = replay_log(departing_everywhere(agreeing))
    assert departing.verdict == "departs"
    assert {d.turn for d in departing.departures} == set(range(1, 201))
