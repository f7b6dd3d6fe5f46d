"""The legal programs of a robot and of a player, against the checks of a turn.

:func:`legal_programs` and :func:`legal_joint_programs` list exactly what
:func:`validate_programs` accepts: every program listed is accepted (and played by
:func:`apply_turn`) with everyone else laying a legal program, and every other program of
the whole universe (each action card with each number card, each upgrade card) is refused
with :class:`IllegalProgramError` naming the robot. They also agree, order included, with
the independent enumeration of the test strategies (``tests.strategies``). Positions are
arbitrary (SET-5), in both variants and with any combination of the expansions.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping

import attrs
import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from outofgears import (
    Action,
    AnyProgram,
    GameOverError,
    GameState,
    IllegalProgramError,
    InvalidStateError,
    Options,
    Player,
    Program,
    UpgradeCard,
    UpgradeProgram,
    apply_turn,
    legal_joint_programs,
    legal_programs,
    setup_game,
    setup_two_robot_game,
    validate_programs,
)
from outofgears.play.policies import random_programs
from outofgears.rules.programs import EVERY_PROGRAM, check_programs_laid, check_robot_program
from tests.strategies import player_program_options, positions, robot_program_options

#: Every program that can be formed: each action card with each number card 1-8 (a number
#: card outside 1-8 does not exist, PRG-1), and each upgrade card.
UNIVERSE: tuple[AnyProgram, ...] = (
    *(Program(action, number) for action in Action for number in range(1, 9)),
    *(UpgradeProgram(card) for card in UpgradeCard),
)

#: The order documented by legal_programs: attack, trap, harvest, each by number, then cards.
ACTION_RANK = {Action.ATTACK: 0, Action.TRAP: 1, Action.HARVEST: 2}


def order_key(program: AnyProgram) -> tuple[int, int]:
    if isinstance(program, Program):
        return ACTION_RANK[program.action], program.number
    return 3, list(UpgradeCard).index(program.card)


def any_positions() -> st.SearchStrategy[GameState]:
    """Positions of either variant, with or without the expansions (so with upgrade cards)."""
    return st.one_of(positions(), positions(expansions=True))


def others_legal(state: GameState, player: Player) -> dict[int, AnyProgram]:
    """A legal program for every robot that is not ``player``'s: each player's first pair."""
    programs: dict[int, AnyProgram] = {}
    for other in state.players:
        if other.name == player.name:
            continue
        first = (
            legal_joint_programs(state, other.name)[0]
            if len(other.robots) == 2
            else legal_programs(state, other.robots[0])[:1]
        )
        programs.update(zip(other.robots, first, strict=True))
    return programs


def refusal(state: GameState, programs: Mapping[int, AnyProgram]) -> IllegalProgramError | None:
    try:
        validate_programs(state, programs)
    except IllegalProgramError as error:
        return error
    return None


def a_robot(data: st.DataObject, state: GameState) -> tuple[Player, int]:
    player: Player = data.draw(st.sampled_from(state.players), label="player")
    robot: int = data.draw(st.sampled_from(player.robots), label="robot")
    return player, robot


@pytest.mark.clause("PRG-2", "PRG-4", "UPG-2", "UPG-3")
@given(
    state=st.one_of(positions(variant="one"), positions(variant="one", expansions=True)),
    data=st.data(),
)
def test_a_robot_of_a_one_robot_player_may_lay_exactly_its_legal_programs(
    state: GameState, data: st.DataObject
) -> None:
    player = data.draw(st.sampled_from(state.players), label="player")
    (robot,) = player.robots
    legal = legal_programs(state, robot)
    others = others_legal(state, player)
    for program in UNIVERSE:
        error = refusal(state, {**others, robot: program})
        if program in legal:
            assert error is None, f"{program}: {error}"
        else:
            assert error is not None, f"{program} is not listed, yet accepted"
            assert error.robot == robot


@pytest.mark.clause("VAR-2", "UPG-4", "PRG-2", "UPG-3")
@given(state=positions(variant="two", expansions=True), data=st.data())
def test_the_two_robots_of_a_player_may_lay_exactly_their_legal_pairs(
    state: GameState, data: st.DataObject
) -> None:
    player = data.draw(st.sampled_from(state.players), label="player")
    first, second = player.robots
    pairs = legal_joint_programs(state, player.name)
    listed = set(pairs)
    assert len(listed) == len(pairs)
    others = others_legal(state, player)
    for one, other in itertools.product(UNIVERSE, UNIVERSE):
        error = refusal(state, {**others, first: one, second: other})
        if (one, other) in listed:
            assert error is None, f"{one}, {other}: {error}"
        else:
            assert error is not None, f"{one}, {other} is not listed, yet accepted"
            assert error.robot in (first, second)


@pytest.mark.clause("VAR-2", "UPG-4")
@given(state=positions(variant="two", expansions=True), data=st.data())
def test_a_partners_legal_programs_ignore_the_other_robot(
    state: GameState, data: st.DataObject
) -> None:
    player, robot = a_robot(data, state)
    partner = next(number for number in player.robots if number != robot)
    legal = legal_programs(state, robot)
    pairs = legal_joint_programs(state, player.name)
    index = player.robots.index(robot)
    # Every program of the robot goes with some program of its partner, and only those.
    assert {pair[index] for pair in pairs} == set(legal)
    assert {pair[1 - index] for pair in pairs} == set(legal_programs(state, partner))


@pytest.mark.clause("PRG-2", "UPG-2", "VAR-2", "UPG-4")
@given(state=any_positions(), data=st.data())
def test_the_order_is_attack_trap_harvest_by_number_then_the_upgrade_card(
    state: GameState, data: st.DataObject
) -> None:
    player, robot = a_robot(data, state)
    legal = legal_programs(state, robot)
    assert list(legal) == sorted(legal, key=order_key)
    assert legal_programs(state, robot) == legal  # the same every time
    # The independent enumeration of the test strategies gives the same list in the same order.
    assert list(legal) == robot_program_options(state, player, robot)
    if len(player.robots) == 2:
        # Pairs in the order of the first robot's program, then of the second's.
        pairs = legal_joint_programs(state, player.name)
        assert list(pairs) == sorted(
            pairs, key=lambda pair: (order_key(pair[0]), order_key(pair[1]))
        )
        assert list(pairs) == player_program_options(state, player)


@pytest.mark.clause("TURN-1", "PRG-2", "VAR-2")
@given(state=any_positions(), data=st.data())
def test_every_legal_program_is_played_by_apply_turn(state: GameState, data: st.DataObject) -> None:
    player, robot = a_robot(data, state)
    others = others_legal(state, player)
    if len(player.robots) == 2:
        choices: list[tuple[AnyProgram, ...]] = list(legal_joint_programs(state, player.name))
    else:
        choices = [(program,) for program in legal_programs(state, robot)]
    # A few of them, all of them over the examples: apply_turn plays a whole turn.
    picked = data.draw(st.lists(st.sampled_from(choices), min_size=1, max_size=4), label="laid")
    for laid in picked:
        programs = {**others, **dict(zip(player.robots, laid, strict=True))}
        note(f"programs: {programs}")
        after = apply_turn(state, programs)
        assert after.turn == state.turn + 1


@pytest.mark.clause("PRG-5")
@given(state=any_positions(), data=st.data())
def test_asking_for_the_legal_programs_of_a_finished_game_raises_game_over(
    state: GameState, data: st.DataObject
) -> None:
    over = attrs.evolve(state, game_over=True)
    player, robot = a_robot(data, state)
    with pytest.raises(GameOverError):
        legal_programs(over, robot)
    with pytest.raises(GameOverError):
        legal_programs(over, 9)  # PRG-5 comes before any other check, as in validate_programs
    with pytest.raises(GameOverError):
        legal_joint_programs(over, player.name)


@pytest.mark.clause("PRG-1")
@given(state=any_positions(), number=st.integers(min_value=-1, max_value=10))
def test_a_robot_not_in_play_has_no_programs_to_list(state: GameState, number: int) -> None:
    if number in state.robot_numbers:
        return
    with pytest.raises(InvalidStateError, match=f"robot {number} is not in play"):
        legal_programs(state, number)


# --- the derived lists against the old trial and error ---------------------------------------


def tried_programs(state: GameState, robot: int) -> tuple[AnyProgram, ...]:
    """The legal programs as they were found before issue 20: every program tried by the check
    of a laid program, the refused ones dropped."""
    found = []
    for program in EVERY_PROGRAM:
        try:
            check_robot_program(state, robot, program)
        except IllegalProgramError:
            continue
        found.append(program)
    return tuple(found)


def tried_pairs(state: GameState, player: Player) -> tuple[tuple[AnyProgram, AnyProgram], ...]:
    """The legal pairs as they were found before issue 20, by the check of programs laid."""
    first, second = player.robots
    found = []
    for one, other in itertools.product(
        tried_programs(state, first), tried_programs(state, second)
    ):
        try:
            check_programs_laid(state, {first: one, second: other})
        except IllegalProgramError:
            continue
        found.append((one, other))
    return tuple(found)


def game_positions(robots: int, games: int, variant: str) -> list[GameState]:
    """Every position of a few whole random games, with all the expansions."""
    rng = random.Random(robots)
    options = Options(upgrades=True, jolly_gears=True, three_point_gears=True)
    found = []
    for game in range(games):
        if variant == "two":
            names = [f"P{n}" for n in range(1, robots // 2 + 1)]
            seating = {name: (n, n + robots // 2) for n, name in enumerate(names, 1)}
            state = setup_two_robot_game(seating, seed=game, options=options)
        else:
            state = setup_game(list(range(1, robots + 1)), seed=game, options=options)
        while not state.game_over:
            found.append(state)
            state = apply_turn(state, random_programs(state, rng))
    return found


@pytest.mark.clause("PRG-2", "UPG-2", "UPG-3")
@pytest.mark.parametrize("robots", [2, 5, 8])
def test_the_derived_legal_programs_are_those_the_check_of_a_laid_program_accepts(
    robots: int,
) -> None:
    positions_seen = game_positions(robots, 3, "one")
    held = 0
    for state in positions_seen:
        for robot in state.robot_numbers:
            derived = legal_programs(state, robot)
            assert derived == tried_programs(state, robot), (state.turn, robot)
            held += isinstance(derived[-1], UpgradeProgram)
    assert len(positions_seen) > 30
    assert held > 0  # some positions had an upgrade card to lay, some had none left


@pytest.mark.clause("VAR-2", "UPG-4")
@pytest.mark.parametrize("robots", [4, 8])
def test_the_derived_legal_pairs_are_those_the_check_of_programs_laid_accepts(robots: int) -> None:
    positions_seen = game_positions(robots, 1, "two")
    for state in positions_seen[::3]:
        for player in state.players:
            assert legal_joint_programs(state, player.name) == tried_pairs(state, player)
    assert len(positions_seen) > 10
