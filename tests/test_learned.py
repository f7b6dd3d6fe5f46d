"""The learned bot (issue 36): its weights file read back exactly, its moves drawn from the
policy's probabilities over the legal moves, every game played, bad files refused by name."""

from __future__ import annotations

import math
import random
import struct
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outofgears import (
    GameState,
    Gear,
    Options,
    apply_turn,
    from_position,
    gears_in_order,
    setup_game,
    setup_two_robot_game,
)
from outofgears.errors import InvalidStateError
from outofgears.play.actions import ALL_PROGRAMS, MAX_ACTIONS, action_id, player_actions
from outofgears.play.bots import make_bot, play_match
from outofgears.play.learned import (
    LearnedBot,
    WeightsFileError,
    _network,
    read_weights,
    weights_bytes,
)
from outofgears.play.observation import observation_size, observe
from outofgears.play.policies import random_programs
from outofgears.rules.gears import GearKind
from outofgears.rules.programs import AnyProgram, Program

INPUTS = observation_size()


def _one_layer(biases: list[float]) -> bytes:
    """A network that scores program ``k`` with ``biases[k]`` whatever it sees."""
    return weights_bytes([([0.0] * INPUTS * MAX_ACTIONS, biases)])


def _written(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "net.oogw"
    path.write_bytes(data)
    return str(path)


def test_a_policy_that_scores_one_harvest_highest_draws_it_most_often(tmp_path: Path) -> None:
    harvest = action_id(Program.parse("harvest 2"))
    biases = [0.0] * MAX_ACTIONS
    biases[harvest] = math.log(8.0)  # eight times as likely as each other legal move
    bot = LearnedBot(weights=_written(tmp_path, _one_layer(biases)))
    observation = observe(setup_game([1, 2, 3], seed=4), "P1")
    legal = observation.legal_actions()
    probabilities = bot.probabilities(observation)
    assert sorted(probabilities) == legal
    assert probabilities[harvest] == pytest.approx(8 / (8 + len(legal) - 1))
    drawn = Counter(bot.act(observation, random.Random(seed)) for seed in range(400))
    assert set(drawn) <= set(legal)
    assert drawn.most_common(1)[0][0] == harvest
    assert len(drawn) > 3  # it mixes: the other moves are drawn too


def test_a_lower_temperature_plays_the_top_move_more_often(tmp_path: Path) -> None:
    biases = [float(k % 7) for k in range(MAX_ACTIONS)]
    path = _written(tmp_path, _one_layer(biases))
    observation = observe(setup_game([1, 2, 3], seed=4), "P2")
    warm = LearnedBot(weights=path).probabilities(observation)
    cold = LearnedBot(temperature=0.25, weights=path).probabilities(observation)
    top = max(warm, key=warm.__getitem__)
    assert cold[top] > warm[top]
    assert sum(cold.values()) == pytest.approx(1.0)


def test_two_layers_compute_tanh_between_them(tmp_path: Path) -> None:
    # hidden unit 0 = tanh(turn to play + 0.5); score of program 3 = 2 * hidden 0
    first = [0.0] * INPUTS * 2
    first[0 * 2 + 0] = 1.0  # input 0 (the turn) to hidden unit 0
    second = [0.0] * 2 * MAX_ACTIONS
    second[0 * MAX_ACTIONS + 3] = 2.0
    network = _network(weights_bytes([(first, [0.5, 0.0]), (second, [0.0] * MAX_ACTIONS)]), "x")
    vector = [0.0] * INPUTS
    vector[0] = 3.0
    scores = network.scores(vector)
    assert scores[3] == pytest.approx(2 * math.tanh(3.5), rel=1e-6)
    assert scores[4] == 0.0


def test_the_file_is_read_back_as_written() -> None:
    shipped = read_weights()
    layers = [(list(layer.weights), list(layer.biases)) for layer in shipped.layers]
    again = _network(weights_bytes(layers), "again")
    vector = observe(setup_game([2, 5, 7], seed=9), "P5").to_vector()
    assert again.scores(vector) == shipped.scores(vector)
    assert shipped.layers[0].inputs == INPUTS
    assert shipped.layers[-1].outputs == MAX_ACTIONS


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "too short"),
        (b"NOPE" + bytes(8), "it starts b'NOPE'"),
        (struct.pack("<4sII", b"OOGW", 2, 0), "it starts b'OOGW' 2"),
        (struct.pack("<4sII", b"OOGW", 1, 0), "no layer"),
        (struct.pack("<4sII", b"OOGW", 1, 1) + struct.pack("<II", INPUTS, 29), "ends inside"),
        (weights_bytes([([0.0] * INPUTS * 29, [0.0] * 29)]) + b"x", "1 bytes after"),
        (
            struct.pack("<4sII", b"OOGW", 1, 1) + struct.pack("<II", 3, 29) + bytes(4 * 4 * 29),
            "maps 3 inputs to 29 scores",
        ),
    ],
)
def test_a_file_that_is_not_a_network_is_refused_by_name(
    tmp_path: Path, data: bytes, reason: str
) -> None:
    path = _written(tmp_path, data)
    with pytest.raises(WeightsFileError, match=reason) as raised:
        LearnedBot(weights=path)
    assert raised.value.path == path
    assert isinstance(raised.value, ValueError)


def test_layers_that_do_not_join_are_refused() -> None:
    with pytest.raises(WeightsFileError, match="not the outputs of the one before"):
        weights_bytes([([0.0] * INPUTS * 4, [0.0] * 4), ([0.0] * 5 * 29, [0.0] * 29)])
    with pytest.raises(InvalidStateError, match="not whole"):
        weights_bytes([([0.0] * 7, [0.0] * 2)])


@pytest.mark.parametrize("temperature", [0, -1, math.inf, math.nan, "1"])
def test_a_temperature_is_a_positive_number(temperature: object) -> None:
    with pytest.raises(InvalidStateError, match="temperature"):
        LearnedBot(temperature=temperature)  # type: ignore[arg-type]


def test_the_shipped_policy_mixes_its_first_moves() -> None:
    """Trained by self-play with an entropy bonus, it does not play one move every time: at the
    first turn of five deals, no seat puts 99% of its weight on one move, and on average its
    favourite gets less than four fifths (a policy collapsed onto one move would be read by
    any learner)."""
    bot = LearnedBot()
    tops = []
    for seed in range(5):
        state = setup_game([1, 2, 3], seed=seed)
        for player in state.players:
            tops.append(max(bot.probabilities(observe(state, player.name)).values()))
    assert max(tops) < 0.99
    assert sum(tops) / len(tops) < 0.8


@pytest.mark.parametrize(
    "state",
    [
        setup_game([1, 2, 3], seed=5),
        setup_game([2, 4, 6, 8], seed=5, options=Options(upgrades=True)),
        setup_game(
            [1, 2, 3, 4, 5], seed=5, options=Options(jolly_gears=True, three_point_gears=True)
        ),
        setup_two_robot_game({"Ada": (1, 2), "Bo": (3, 4)}, seed=5),
    ],
    ids=["three robots", "four with upgrades", "five with the expansions", "two-robot variant"],
)
def test_the_learned_bot_plays_every_game_to_its_end(state: object) -> None:
    bots = {player.name: make_bot("learned") for player in state.players}  # type: ignore[attr-defined]
    result = play_match(state, bots, random.Random(3), turn_cap=60)  # type: ignore[arg-type]
    assert result.turns >= 1
    assert sum(result.returns.values()) == pytest.approx(1.0)


def test_the_same_generator_draws_the_same_moves() -> None:
    state = setup_game([3, 5, 8], seed=2)
    observation = observe(state, "P5")
    first = [LearnedBot().act(observation, random.Random(seed)) for seed in range(20)]
    again = [LearnedBot().act(observation, random.Random(seed)) for seed in range(20)]
    assert first == again
    assert all(move in player_actions(state, "P5") for move in first)


def _renumbered(state: GameState, new: dict[int, int]) -> GameState:
    """The same game with robot (and dump, and colour) ``n`` numbered ``new[n]``."""

    def moved(items: tuple[Gear, ...]) -> list[Gear]:
        return [Gear(new[g.colour]) if g.kind is GearKind.STANDARD else g for g in items]

    return from_position(
        robots={
            new[r.number]: {"feet": moved(r.feet), "circuit": moved(r.circuit)}
            for r in state.robots
        },
        dumps={new[d.number]: moved(d.gears) for d in state.dumps},
        reserve=gears_in_order(*(new[g.colour] for g in state.reserve)),
        players={f"Q{new[p.robots[0]]}": (new[p.robots[0]],) for p in state.players},
        turn=state.turn,
    )


def _program_renumbered(program: AnyProgram, new: dict[int, int]) -> AnyProgram:
    if isinstance(program, Program):
        return Program(program.action, new[program.number])
    return program


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    robots=st.lists(st.integers(1, 8), min_size=2, max_size=8, unique=True).map(sorted),
    seed=st.integers(0, 10**6),
    turns=st.integers(0, 4),
    data=st.data(),
)
def test_the_seat_view_is_the_same_game_whatever_the_robots_numbers(
    robots: list[int], seed: int, turns: int, data: st.DataObject
) -> None:
    """Renumber every robot (its dump and its colour with it), keeping their round order: each
    player's seat vector is unchanged, and each legal program maps to the same place of it as its renumbered twin."""
    rng = random.Random(seed)
    state = setup_game(robots, seed=seed)
    revealed = None
    for _ in range(turns):
        if state.game_over:
            break
        revealed = random_programs(state, rng)
        state = apply_turn(state, revealed)
    # new numbers for the robots in play, in the same round order (the seat view's order)
    chosen = sorted(
        data.draw(
            st.lists(st.integers(1, 8), min_size=len(robots), max_size=len(robots), unique=True)
        )
    )
    turn = data.draw(st.integers(0, len(robots) - 1))
    chosen = chosen[turn:] + chosen[:turn]
    others = [n for n in range(1, 9) if n not in chosen]
    new = dict(
        zip(robots + [n for n in range(1, 9) if n not in robots], chosen + others, strict=True)
    )
    twin = _renumbered(state, new)
    twin_revealed = (
        None
        if revealed is None
        else {new[r]: _program_renumbered(p, new) for r, p in revealed.items()}
    )
    for player in state.players:
        robot = player.robots[0]
        vector, programs = observe(state, player.name, revealed=revealed).to_seat_vector()
        twin_vector, twin_programs = observe(
            twin, f"Q{new[robot]}", revealed=twin_revealed
        ).to_seat_vector()
        assert vector == twin_vector
        for move in player_actions(state, player.name):  # the numbers in play
            program = _program_renumbered(ALL_PROGRAMS[move], new)
            assert programs[move] == twin_programs[action_id(program)]
    assert sorted(programs) == list(range(MAX_ACTIONS))  # a numbering: every place once
