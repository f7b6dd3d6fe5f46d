"""The bots (issue 13, part 7): legal moves in every variant, chosen from the observation
alone, and whole matches scored by win share."""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from outofgears import (
    GameState,
    Options,
    Player,
    UpgradeCard,
    apply_turn,
    setup_game,
    setup_two_robot_game,
)
from outofgears.errors import ArgumentTypeError, GameOverError, InvalidStateError
from outofgears.play.actions import player_actions
from outofgears.play.bots import (
    ENTRY_POINT_GROUP,
    GreedyBot,
    IllegalMoveError,
    LookaheadBot,
    MCTSBot,
    RandomBot,
    make_bot,
    play_match,
)
from outofgears.play.game import returns
from outofgears.play.learned import LearnedBot
from outofgears.play.observation import Observation, observe
from outofgears.play.policies import random_programs
from outofgears.rules.programs import Action, Program
from outofgears.rules.scoring import player_scores
from outofgears.rules.turn import turn_scores
from tests.strategies import positions, rebuild

BOTS = [
    RandomBot(),
    GreedyBot(samples=2),
    LookaheadBot(samples=2),
    MCTSBot(iterations=30),
    LearnedBot(),
]


def _states() -> list[GameState]:
    one = setup_game([1, 3, 5, 7], seed=3, options=Options(upgrades=True))
    two = setup_two_robot_game(
        {"Ada": (1, 2), "Bo": (3, 4)}, seed=3, options=Options(upgrades=True)
    )
    later = apply_turn(one, random_programs(one, random.Random(3)))
    return [one, two, later]


@pytest.mark.parametrize("bot", BOTS, ids=lambda bot: type(bot).__name__)
def test_every_bot_plays_a_legal_move_in_both_variants(bot: object) -> None:
    for state in _states():
        for player in state.players:
            move = bot.act(observe(state, player.name), random.Random(1))  # type: ignore[attr-defined]
            assert move in player_actions(state, player.name)


class _Spy:
    """A bot that records what it was given."""

    def __init__(self) -> None:
        self.seen: list[object] = []

    def act(self, observation: Observation, rng: random.Random) -> int:
        self.seen.append(observation)
        return observation.legal_actions()[0]


def test_a_bot_is_given_its_observation_and_nothing_else() -> None:
    state = setup_game([1, 2, 3], seed=8, options=Options(upgrades=True))
    spies = {player.name: _Spy() for player in state.players}
    result = play_match(state, spies, random.Random(0), turn_cap=3)
    assert result.turns == 3
    for name, spy in spies.items():
        assert len(spy.seen) == 3
        assert all(type(seen) is Observation for seen in spy.seen)
        assert all(seen.player == name for seen in spy.seen)  # type: ignore[attr-defined]
    second = spies["P1"].seen[1]
    assert isinstance(second, Observation)
    assert second.revealed is not None
    assert sorted(second.revealed) == [1, 2, 3]


@pytest.mark.parametrize("bot", BOTS[1:], ids=lambda bot: type(bot).__name__)
def test_hidden_things_do_not_change_a_bots_move(bot: object) -> None:
    state = setup_game([1, 2, 3], seed=11, options=Options(upgrades=True))
    reserve = tuple(reversed(state.reserve))
    cards = {"P2": UpgradeCard.COUNTER_DEFENCE, "P3": UpgradeCard.SUPER_SHOVEL}
    players = tuple(Player(p.name, p.robots, cards.get(p.name, p.upgrade)) for p in state.players)
    if state.players[0].upgrade in cards.values():
        pytest.skip("the deal gave P1 a card used here")
    other = attrs.evolve(state, reserve=reserve, players=players)
    first = bot.act(observe(state, "P1"), random.Random(5))  # type: ignore[attr-defined]
    again = bot.act(observe(other, "P1"), random.Random(5))  # type: ignore[attr-defined]
    assert first == again


def test_a_match_ends_or_is_cut_off_and_the_shares_add_up_to_one() -> None:
    state = setup_game([1, 2, 3, 4], seed=2)
    bots = {p.name: RandomBot() for p in state.players}
    result = play_match(state, bots, random.Random(2))
    assert result.final.game_over
    assert not result.cut_off
    assert sum(result.returns.values()) == pytest.approx(1.0)
    cut = play_match(state, bots, random.Random(2), turn_cap=2)
    assert (cut.turns, cut.cut_off, cut.final.turn) == (2, True, 3)
    assert sum(cut.returns.values()) == pytest.approx(1.0)


def test_bots_by_name() -> None:
    assert make_bot("greedy:3") == GreedyBot(samples=3)
    assert make_bot("mcts") == MCTSBot()
    assert isinstance(make_bot("random"), RandomBot)
    assert make_bot("learned") == LearnedBot()
    assert make_bot("lookahead:4") == LookaheadBot(samples=4)
    assert isinstance(make_bot("outofgears.play.bots:LookaheadBot"), LookaheadBot)
    with pytest.raises(InvalidStateError, match="whole number from 1 to 20,000"):
        make_bot("mcts:0")
    with pytest.raises(InvalidStateError, match="unknown bot 'alphazero'"):
        make_bot("alphazero")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:99999999999", "from 1 to 20,000"),
        ("mcts:", "from 1 to 20,000"),
        ("greedy:-1", "from 1 to 2,000"),
        ("mcts:٣", "from 1 to 20,000"),
        ("random:3", "random takes no number"),
        ("no_such_module_xyz:Bot", "cannot be imported"),
        ("outofgears.play.bots:Nothing", "has no Nothing"),
        ("outofgears.play.bots:BOTS", "cannot be called"),
        ("outofgears.play.bots:MatchResult", "building it failed"),
        ("outofgears.play.bots:ObservationCache", "has no act"),
        (":Bot", "module:Class"),
        ("a:b:c", "module:Class"),
        ("", "unknown bot"),
    ],
)
def test_a_bad_bot_spec_is_refused_with_a_typed_error(spec: str, message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        make_bot(spec)


@pytest.mark.parametrize("spec", [None, 3, b"mcts", ["mcts"]])
def test_a_bot_spec_that_is_not_a_string_is_an_argument_type_error(spec: object) -> None:
    with pytest.raises(ArgumentTypeError):
        make_bot(spec)  # type: ignore[arg-type]


def test_a_bot_named_by_an_entry_point_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata as metadata

    point = metadata.EntryPoint("mine", "outofgears.play.bots:LookaheadBot", ENTRY_POINT_GROUP)
    real = metadata.entry_points

    def entry_points(**kwargs: Any) -> Any:
        if kwargs.get("group") == ENTRY_POINT_GROUP:
            return metadata.EntryPoints([point])
        return real(**kwargs)

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    assert isinstance(make_bot("mine"), LookaheadBot)
    with pytest.raises(InvalidStateError, match="unknown bot 'yours'"):
        make_bot("yours")


def test_a_finished_game_gives_a_bot_no_move_and_a_typed_error() -> None:
    state = setup_game([1, 2], seed=3)
    result = play_match(state, {"P1": RandomBot(), "P2": RandomBot()}, random.Random(1))
    finished = observe(result.final, "P1")
    for bot in (RandomBot(), GreedyBot(samples=1), LookaheadBot(samples=1), MCTSBot(iterations=2)):
        with pytest.raises(GameOverError):
            bot.act(finished, random.Random(0))
        with pytest.raises(ArgumentTypeError):
            bot.act(None, random.Random(0))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("bots", "turn_cap", "error"),
    [
        ({"P1": RandomBot()}, 10, InvalidStateError),
        ({"P1": RandomBot(), "P2": RandomBot(), "P9": RandomBot()}, 10, InvalidStateError),
        ({"P1": RandomBot(), "P2": "random"}, 10, ArgumentTypeError),
        ({"P1": RandomBot(), "P2": RandomBot()}, 0, InvalidStateError),
        ({"P1": RandomBot(), "P2": RandomBot()}, -3, InvalidStateError),
        ({"P1": RandomBot(), "P2": RandomBot()}, 2.5, InvalidStateError),
        (None, 10, ArgumentTypeError),
    ],
    ids=["missing", "extra", "not a bot", "cap 0", "cap -3", "cap 2.5", "no bots"],
)
def test_play_match_refuses_bad_arguments_with_typed_errors(
    bots: Any, turn_cap: Any, error: type[Exception]
) -> None:
    with pytest.raises(error):
        play_match(setup_game([1, 2], seed=1), bots, random.Random(0), turn_cap=turn_cap)


def test_a_bot_that_plays_an_illegal_move_is_named() -> None:
    class Cheat:
        def act(self, observation: Observation, rng: random.Random) -> int:
            return 23  # harvest 8, not in play

    with pytest.raises(IllegalMoveError, match="the bot of P2 chose 23") as caught:
        play_match(setup_game([1, 2], seed=1), {"P1": RandomBot(), "P2": Cheat()}, random.Random(0))
    assert caught.value.player == "P2"
    assert pickle.loads(pickle.dumps(caught.value)).move == 23


def test_the_search_remembers_the_cards_laid_and_the_others_action_cards_per_game() -> None:
    from outofgears.play.bots import _Memory
    from outofgears.rules.programs import AnyProgram, Program, UpgradeProgram

    state = setup_game([1, 2, 3], seed=5, options=Options(upgrades=True))
    card = state.players[1].upgrade
    assert card is not None
    laid: dict[int, AnyProgram] = {
        1: Program.parse("attack 1"),
        2: UpgradeProgram(card),
        3: Program.parse("harvest 2"),
    }
    after = apply_turn(state, laid)
    memory = _Memory()
    memory.see(observe(state, "P1"))
    memory.see(observe(after, "P1", revealed=laid))
    assert memory.cards == [card]
    assert dict(memory.laid["P3"]) == {Action.HARVEST: 1}
    assert "P1" not in memory.laid  # its own moves are not a model of anyone
    memory.see(observe(state, "P1"))  # turn 1 again: a new game
    assert (memory.cards, memory.laid) == ([], {})


def test_the_search_never_deals_a_card_seen_laid_to_another_player() -> None:
    state = setup_game([1, 2, 3], seed=5, options=Options(upgrades=True))
    mine = state.players[0].upgrade
    seen = next(c for c in state.options.upgrade_deck if c != mine)
    observation = observe(state, "P1")
    rng = random.Random(3)
    for _ in range(50):
        sampled = observation.sample_state(rng, seen_upgrades=(seen,))
        held = [p.upgrade for p in sampled.players[1:]]
        left = list(state.options.upgrade_deck)
        left.remove(mine)  # type: ignore[arg-type]
        if left.count(seen) == 1:
            assert seen not in held


def test_points_are_read_before_the_end_and_win_shares_are_not() -> None:
    state = setup_game([1, 2], seed=2)
    after = apply_turn(state, random_programs(state, random.Random(1)))
    assert not after.game_over
    points = returns(after, "points")
    assert points == {score.player: float(score.points) for score in player_scores(after)}
    assert returns(after) == {"P1": 0.0, "P2": 0.0}


def test_the_search_forecasts_another_players_obvious_harvest() -> None:
    from outofgears.play.actions import action_id
    from outofgears.play.bots import _foreseen, _Turns
    from outofgears.rules.gears import gears
    from outofgears.rules.programs import Program
    from outofgears.rules.setup import from_position

    # Dump 1 holds four gears of robot 2's colour; dump 2 is empty.
    state = from_position(
        robots={1: {"feet": gears(1)}, 2: {"feet": gears(2)}},
        dumps={1: gears(2, 2, 2, 2), 2: ()},
        reserve=gears(3, 4, 5, 6),
    )
    models = _foreseen(_Turns(observe(state, "P1"), ()), random.Random(1), 8, 400)
    assert list(models) == ["P2"]  # the bot's own player is searched, not forecast
    moves, cumulative = models["P2"]
    assert moves == sorted(observe(state, "P2").legal_actions())
    assert cumulative[-1] == pytest.approx(1.0)
    weights = [b - a for a, b in zip([0.0, *cumulative], cumulative, strict=False)]
    assert min(weights) > 0  # every legal move stays possible
    harvest = moves.index(action_id(Program.parse("harvest 1")))
    assert weights[harvest] >= 0.9


@given(state=positions(expansions=True), seed=st.integers(0, 2**16))
def test_every_position_a_search_draws_passes_the_public_constructors_checks(
    state: GameState, seed: int
) -> None:
    # After the first, sample_state puts its positions together without GameState's checks
    # (rules.table.drawn_state): each must be one the public constructors accept as it is.
    rng = random.Random(seed)
    for player in state.players:
        observation = observe(state, player.name)
        for _ in range(3):
            drawn = observation.sample_state(rng)
            assert rebuild(drawn) == drawn
            assert observe(drawn, player.name) == observation


@given(state=positions(expansions=True), seed=st.integers(0, 2**16))
def test_the_points_after_a_turn_do_not_depend_on_the_reserves_order(
    state: GameState, seed: int
) -> None:
    # What lets the search play each turn once (bots._Turns): only exploration draws from the
    # reserve (EXP-1), and the scores do not count the dumps (END-2).
    if state.game_over:
        return
    rng = random.Random(seed)
    programs = random_programs(state, rng)
    reserve = list(state.reserve)
    rng.shuffle(reserve)
    shuffled = attrs.evolve(state, reserve=tuple(reserve))
    assert player_scores(apply_turn(shuffled, programs)) == player_scores(
        apply_turn(state, programs)
    )


@given(state=positions(expansions=True), seed=st.integers(0, 2**16))
def test_a_turn_the_search_remembers_scores_as_the_turn_played_on_the_true_position(
    state: GameState, seed: int
) -> None:
    from outofgears.play.bots import _Turns

    if state.game_over:
        return
    rng = random.Random(seed)
    programs = random_programs(state, rng)
    player = state.players[0].name
    turns = _Turns(observe(state, player), ())
    # The hidden cards drawn are the true ones when nobody else holds one; else deal them as
    # they are in the true position, through the drawn position's players.
    drawn = turns.position(rng)
    if turns.hidden:
        drawn = attrs.evolve(drawn, players=state.players)
    points, margins = turns.outcome(drawn, turns.joint_of(state, programs))
    true = {score.player: score.points for score in player_scores(apply_turn(state, programs))}
    assert points == tuple(true[p.name] for p in state.players)
    for seat, p in enumerate(state.players):
        others = [true[o.name] for o in state.players if o.name != p.name]
        assert margins[seat] == true[p.name] - max(others, default=0)


@given(state=positions(expansions=True), seed=st.integers(0, 2**16))
def test_the_points_after_a_turn_do_not_depend_on_the_cards_held_and_not_laid(
    state: GameState, seed: int
) -> None:
    # The other half of what lets the search play each turn once: a card held decides only
    # which programs are legal (UPG-2, UPG-3), so the search's turns are keyed by the moves.
    if state.game_over:
        return
    programs = random_programs(state, random.Random(seed))
    laying = {
        state.player_of(robot).name
        for robot, program in programs.items()
        if not isinstance(program, Program)
    }
    players = tuple(
        player if player.name in laying else attrs.evolve(player, upgrade=None)
        for player in state.players
    )
    without = attrs.evolve(state, players=players)
    assert turn_scores(without, programs) == turn_scores(state, programs)


@pytest.mark.parametrize("options", [Options(), Options(upgrades=True)], ids=["base", "upgrades"])
def test_the_search_plays_each_turn_once(monkeypatch: pytest.MonkeyPatch, options: Options) -> None:
    import outofgears.play.bots as bots

    played: list[object] = []

    def counted(state: GameState, programs: Any) -> Any:
        played.append(tuple(sorted(programs.items(), key=lambda item: item[0])))
        return turn_scores(state, programs)

    monkeypatch.setattr(bots, "turn_scores", counted)
    state = setup_game([1, 2, 3], seed=4, options=options)
    MCTSBot(iterations=400).act(observe(state, "P1"), random.Random(2))
    assert played
    assert len(played) == len(set(played))
    assert len(played) < 400


@pytest.mark.parametrize("options", [Options(), Options(upgrades=True)], ids=["base", "upgrades"])
def test_the_search_is_the_same_for_the_same_seed_and_legal(options: Options) -> None:
    for seed in range(4):
        state = setup_game([1, 2, 3], seed=seed, options=options)
        for player in state.players:
            observation = observe(state, player.name)
            moves = {MCTSBot(iterations=60).act(observation, random.Random(seed)) for _ in range(2)}
            assert len(moves) == 1
            assert moves <= set(observation.legal_actions())


def test_the_search_with_a_rollout_plays_legal_moves() -> None:
    for state in _states():
        for player in state.players:
            observation = observe(state, player.name)
            move = MCTSBot(iterations=20, rollout=2).act(observation, random.Random(1))
            assert move in observation.legal_actions()


def test_the_search_remembers_what_it_saw_in_the_game_it_plays() -> None:
    state = setup_game([1, 2, 3], seed=5)
    bot = MCTSBot(iterations=10)
    laid: dict[int, Any] = {
        1: Program.parse("attack 2"),
        2: Program.parse("trap 1"),
        3: Program.parse("trap 2"),
    }
    bot.act(observe(state, "P1"), random.Random(1))
    after = apply_turn(state, laid)
    bot.act(observe(after, "P1", revealed=laid), random.Random(1))
    assert {name: dict(cards) for name, cards in bot._memory.laid.items()} == {
        "P2": {Action.TRAP: 1},
        "P3": {Action.TRAP: 1},
    }
