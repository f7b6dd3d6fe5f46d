"""Programs sealed before the reveal: the seals a log keeps, checked whenever a log is read,
and the game room's commit and reveal (without a web framework)."""

from __future__ import annotations

import random
import secrets

import pytest
from hypothesis import given
from hypothesis import strategies as st

from outofgears.log import GameLog, LogError, SealRecord, Start, TurnRecord, dump_log, read_log_text
from outofgears.log.seals import seal_commitment, seal_refusal, sealed_text
from outofgears.rules.programs import Program, legal_programs
from outofgears.table.room import Room, RoomRefusedError, Seat, seat_key

SECRET = b"the seals' tests' table secret.."
NONCE = "5e" * 16


def sealed_turn(programs: dict[int, str], nonce: str = NONCE) -> TurnRecord:
    return TurnRecord(
        1,
        {robot: Program.parse(text) for robot, text in programs.items()},
        seals={
            robot: SealRecord(seal_commitment(1, robot, text, nonce), nonce)
            for robot, text in programs.items()
        },
    )


def log_text(turn: TurnRecord) -> str:
    return dump_log(GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=3), turns=(turn,)))


def test_a_log_whose_seals_hold_reads_back_as_written() -> None:
    turn = sealed_turn({1: "trap 2", 2: "harvest 2"})
    assert read_log_text(log_text(turn), "game").turns == (turn,)


def test_a_program_changed_after_its_seal_makes_the_log_invalid_naming_the_turn_and_robot() -> None:
    text = log_text(sealed_turn({1: "trap 2", 2: "harvest 2"})).replace('"trap 2"', '"trap 1"')
    with pytest.raises(LogError) as refused:
        read_log_text(text, "game")
    assert refused.value.json_path == "$.turns[0].seals[1]"
    assert "robot 1's program 'trap 1'" in str(refused.value)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda s: s.replace(NONCE, NONCE.upper()), "lower-case hexadecimal"),
        (lambda s: s.replace(NONCE, "5e" * 8), r"a nonce \(32 to 64"),
        (
            lambda s: s.replace('"seals": {\n        "1"', '"seals": {\n        "3"'),
            "laid no program",
        ),
    ],
)
def test_a_seal_the_format_does_not_allow_is_refused(change: object, reason: str) -> None:
    text = change(log_text(sealed_turn({1: "trap 2"})))  # type: ignore[operator]
    with pytest.raises(LogError, match=reason):
        read_log_text(text, "game")


@given(
    st.integers(1, 1000),
    st.integers(1, 8),
    st.sampled_from(["attack 3", "trap 1", "harvest 8", "super trap"]),
    st.text("0123456789abcdef", min_size=32, max_size=64),
)
def test_a_seal_opens_to_its_program_and_to_no_other_turn_robot_or_program(
    turn: int, robot: int, program: str, nonce: str
) -> None:
    commitment = seal_commitment(turn, robot, program, nonce)
    assert seal_refusal(turn, robot, program, commitment, nonce) is None
    assert seal_refusal(turn + 1, robot, program, commitment, nonce) is not None
    assert seal_refusal(turn, robot % 8 + 1, program, commitment, nonce) is not None
    assert seal_refusal(turn, robot, program + "x", commitment, nonce) is not None
    assert sealed_text(turn, robot, program, nonce).startswith("outofgears-seal/1|")


class Kept:
    def __init__(self) -> None:
        self.texts: list[str] = []

    def save(self, text: str, what: str) -> None:
        self.texts.append(text)


def room(seats: dict[str, Seat] | None = None) -> Room:
    players: dict[str, tuple[int, ...]] = {"A": (1,), "B": (2,), "C": (3,)}
    text = dump_log(GameLog(players=players, start=Start(seed=11)))
    return Room(text, seats or {}, Kept(), SECRET, seed=1)


def commit(table: Room, name: str, robot: int, program: str) -> str:
    nonce = secrets.token_hex(16)
    commitment = seal_commitment(table.state.turn, robot, program, nonce)
    table.act(seat_key(SECRET, name), {"type": "commit", "commitments": {str(robot): commitment}})
    return nonce


def test_a_sealed_program_the_robot_may_not_lay_is_refused_and_the_seat_lays_again() -> None:
    table = room()
    nonces = {name: commit(table, name, robot, "harvest 1") for name, robot in (("A", 1), ("B", 2))}
    wrong = commit(table, "C", 3, "harvest 9")  # no dump 9: not a program robot 3 may lay
    for name, robot in (("A", 1), ("B", 2)):
        reveal = {str(robot): {"program": "harvest 1", "nonce": nonces[name]}}
        table.act(seat_key(SECRET, name), {"type": "reveal", "reveals": reveal})
    with pytest.raises(RoomRefusedError) as refused:
        table.act(
            seat_key(SECRET, "C"),
            {"type": "reveal", "reveals": {"3": {"program": "harvest 9", "nonce": wrong}}},
        )
    assert refused.value.code == "illegal"
    assert table.phase == "commit"  # C lays again; nothing was shown to anyone
    assert table.last is None
    assert table.view(seat_key(SECRET, "C"))["legal"]["3"]
    nonce = commit(table, "C", 3, "trap 1")
    table.act(
        seat_key(SECRET, "C"),
        {"type": "reveal", "reveals": {"3": {"program": "trap 1", "nonce": nonce}}},
    )
    assert table.state.turn == 2 or table.phase == "choose"


def test_bots_seal_their_programs_first_and_reveal_them_only_once_every_seat_has_sealed() -> None:
    table = room({"B": Seat("B", (), bot="greedy"), "C": Seat("C", (), bot="random")})
    assert set(table.commitments) == {2, 3}
    assert table.phase == "commit"
    assert table.reveals == {}
    commit(table, "A", 1, str(random.Random(1).choice(legal_programs(table.state, 1))))
    assert set(table.reveals) == {2, 3}  # A's reveal is awaited


def test_a_player_of_two_robots_who_lays_one_action_card_twice_is_told_and_lays_again() -> None:
    players: dict[str, tuple[int, ...]] = {"A": (1, 2), "B": (3, 4)}
    table = Room(dump_log(GameLog(players=players, start=Start(seed=2))), {}, Kept(), SECRET)
    laid = {1: "attack 3", 2: "attack 4", 3: "harvest 1", 4: "trap 2"}
    nonces = {robot: secrets.token_hex(16) for robot in laid}
    for name, robots in players.items():
        commitments = {str(r): seal_commitment(1, r, laid[r], nonces[r]) for r in robots}
        table.act(seat_key(SECRET, name), {"type": "commit", "commitments": commitments})
    for name, robots in players.items():
        reveals = {str(r): {"program": laid[r], "nonce": nonces[r]} for r in robots}
        table.act(seat_key(SECRET, name), {"type": "reveal", "reveals": reveals})
    assert table.refusal is not None
    assert "VAR-2" in table.refusal
    assert table.phase == "commit"
    assert set(table.commitments) == {3, 4}  # B's seals stand; A lays again
    assert table.last is None
