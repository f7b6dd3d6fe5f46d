"""Setting up a game, and entering a position by hand (spec SET-1 to SET-6)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from outofgears import (
    Action,
    GameState,
    Gear,
    GearKind,
    InvalidStateError,
    Options,
    Place,
    Player,
    Program,
    SetupError,
    from_position,
    gears,
    resolve_turn,
    setup_game,
    setup_two_robot_game,
)
from outofgears.errors import ArgumentTypeError
from outofgears.rules.model import Dump, UpgradeCard
from outofgears.rules.setup import deal_initial_gears, seat_players, setup_seated_game
from tests.helpers import programs

# --- SET-1: robots in play -------------------------------------------------------------------


@pytest.mark.clause("SET-1")
def test_setup_rejects_a_single_robot() -> None:
    with pytest.raises(SetupError) as caught:
        setup_game([4], seed=1)
    assert caught.value.clause == "SET-1"


@pytest.mark.clause("SET-1")
def test_setup_rejects_nine_robots() -> None:
    with pytest.raises(SetupError) as caught:
        setup_game([1, 2, 3, 4, 5, 6, 7, 8, 9], seed=1)
    assert caught.value.clause == "SET-1"


@pytest.mark.clause("SET-1")
@pytest.mark.parametrize("robots", [[1, 3, 3], [2, 2], [1, 2, 3, 4, 5, 6, 7, 8, 1]])
def test_setup_rejects_a_robot_chosen_twice(robots: list[int]) -> None:
    with pytest.raises(SetupError) as caught:
        setup_game(robots, seed=1)
    assert caught.value.clause == "SET-1"


@pytest.mark.clause("SET-1")
@pytest.mark.parametrize("robots", [[0, 1], [1, 9], [2, -3]])
def test_setup_rejects_a_robot_number_outside_one_to_eight(robots: list[int]) -> None:
    with pytest.raises(SetupError) as caught:
        setup_game(robots, seed=1)
    assert caught.value.clause == "SET-1"


@pytest.mark.clause("SET-1")
def test_two_robots_and_eight_robots_are_both_a_game() -> None:
    assert setup_game([8, 3], seed=5).robot_numbers == (3, 8)
    assert setup_game([8, 7, 6, 5, 4, 3, 2, 1], seed=5).robot_numbers == (1, 2, 3, 4, 5, 6, 7, 8)


@pytest.mark.clause("SET-1")
def test_player_names_go_to_the_robots_in_ascending_robot_order() -> None:
    state = setup_game([6, 2], seed=1, players=["Ada", "Bo"])
    assert state.robot(2).player == "Ada"
    assert state.robot(6).player == "Bo"
    assert state.players == (Player("Ada", (2,)), Player("Bo", (6,)))


@pytest.mark.clause("SET-1")
def test_each_player_controls_one_robot_named_after_it_by_default() -> None:
    state = setup_game([5, 1], seed=1)
    assert state.players == (Player("P1", (1,)), Player("P5", (5,)))
    assert not state.is_two_robot_variant


@pytest.mark.clause("SET-1")
@pytest.mark.parametrize("names", [["Ada"], ["Ada", "Bo", "Cy", "Di"]])
def test_setup_wants_one_player_name_per_robot(names: list[str]) -> None:
    with pytest.raises(SetupError) as caught:
        setup_game([1, 2, 3], seed=1, players=names)
    assert caught.value.clause == "SET-1"


@pytest.mark.clause("SET-1")
def test_two_players_cannot_share_a_name() -> None:
    with pytest.raises(SetupError) as caught:
        setup_game([1, 2], seed=1, players=["Ada", "Ada"])
    assert caught.value.clause == "SET-1"


# --- SET-2: dumps in play --------------------------------------------------------------------


@pytest.mark.clause("SET-2")
def test_dumps_of_robots_not_in_play_are_out_of_play() -> None:
    state = setup_game([2, 5, 7], seed=9)
    assert [dump.number for dump in state.dumps] == [2, 5, 7]
    for missing in (1, 3, 4, 6, 8):
        with pytest.raises(InvalidStateError):
            state.dump(missing)


@pytest.mark.clause("SET-2")
def test_with_eight_robots_every_dump_of_the_octagon_is_in_play() -> None:
    state = setup_game([1, 2, 3, 4, 5, 6, 7, 8], seed=9)
    assert [dump.number for dump in state.dumps] == [1, 2, 3, 4, 5, 6, 7, 8]


@pytest.mark.clause("SET-2", "SET-5")
def test_a_position_with_the_dump_of_a_robot_not_in_play_is_refused() -> None:
    with pytest.raises(InvalidStateError):
        from_position(
            robots={1: {}, 2: {}},
            dumps={1: gears(1), 2: gears(2), 3: gears(3)},
            reserve=(),
        )


@pytest.mark.clause("SET-2", "SET-5")
def test_a_position_missing_the_dump_of_a_robot_in_play_is_refused() -> None:
    with pytest.raises(InvalidStateError):
        from_position(robots={1: {}, 2: {}, 3: {}}, dumps={1: gears(1), 2: gears(2)}, reserve=())


@pytest.mark.clause("SET-2", "EXP-1")
def test_a_dump_out_of_play_never_receives_gears() -> None:
    state = setup_game([1, 3], seed=4)
    everyone_defends = {1: Program(Action.ATTACK, 1), 3: Program(Action.ATTACK, 3)}
    result = resolve_turn(state, everyone_defends)
    dumps_fed = {move.destination for move in result.moves if move.clause == "EXP-1"}
    assert dumps_fed == {Place.dump(1), Place.dump(3)}


# --- SET-3: the reserve ----------------------------------------------------------------------


@pytest.mark.clause("SET-3")
def test_reserve_holds_eleven_gears_per_colour_in_play() -> None:
    state = setup_game([1, 4, 6], seed=21)
    on_dumps = [gear for dump in state.dumps for gear in dump.gears]
    counts = Counter(gear.colour for gear in (*on_dumps, *state.reserve))
    assert counts == {1: 11, 4: 11, 6: 11}
    assert len(state.reserve) == 33 - 6


@pytest.mark.clause("SET-3")
def test_gears_of_robots_not_in_play_stay_in_the_box() -> None:
    state = setup_game([2, 3], seed=8)
    assert {gear.colour for gear in state.all_gears()} == {2, 3}
    assert len(list(state.all_gears())) == 22


@pytest.mark.clause("SET-3")
def test_same_seed_gives_the_same_game() -> None:
    first = setup_game([1, 2, 5], seed=2026)
    second = setup_game([5, 2, 1], seed=2026)
    assert first == second
    assert first.reserve == second.reserve


@pytest.mark.clause("SET-3")
def test_different_seeds_shuffle_the_reserve_differently() -> None:
    first = setup_game([1, 2, 3, 4], seed=1)
    second = setup_game([1, 2, 3, 4], seed=2)
    assert first.reserve != second.reserve
    assert Counter(first.all_gears()) == Counter(second.all_gears())


@pytest.mark.clause("SET-3")
def test_the_reserve_is_shuffled_not_stacked_colour_by_colour() -> None:
    state = setup_game([1, 2, 3, 4], seed=0)
    dealt = [gear for dump in state.dumps for gear in dump.gears] + list(state.reserve)
    stacked = sorted(dealt, key=lambda gear: gear.colour)
    assert dealt != stacked


@pytest.mark.clause("SET-3")
def test_setup_neither_uses_nor_disturbs_the_global_random_generator() -> None:
    random.seed(1)
    before = random.getstate()
    first = setup_game([1, 2, 3], seed=77)
    assert random.getstate() == before
    random.seed(2)
    assert setup_game([1, 2, 3], seed=77) == first


@pytest.mark.clause("SET-3")
def test_the_seed_must_be_a_whole_number() -> None:
    seed: Any = "77"
    with pytest.raises(SetupError) as caught:
        setup_game([1, 2], seed=seed)
    assert caught.value.clause == "SET-3"


# --- SET-4: two gears on each dump -----------------------------------------------------------


@pytest.mark.clause("SET-4")
def test_setup_deals_two_gears_on_each_dump_in_play() -> None:
    state = setup_game([2, 5, 7], seed=13)
    assert [len(dump.gears) for dump in state.dumps] == [2, 2, 2]
    assert len(state.reserve) == 3 * 11 - 3 * 2


@pytest.mark.clause("SET-4")
def test_eight_robots_deal_sixteen_gears_and_keep_seventy_two_in_reserve() -> None:
    state = setup_game([1, 2, 3, 4, 5, 6, 7, 8], seed=13)
    assert sum(len(dump.gears) for dump in state.dumps) == 16
    assert len(state.reserve) == 72


@pytest.mark.clause("SET-4")
def test_robots_start_with_empty_feet_and_empty_circuits_on_turn_one() -> None:
    state = setup_game([1, 2, 3], seed=13)
    assert all(robot.feet == () and robot.circuit == () for robot in state.robots)
    assert state.turn == 1
    assert not state.game_over


@pytest.mark.clause("SET-4")
def test_the_dealt_gears_are_the_colours_in_play() -> None:
    state = setup_game([3, 8], seed=31)
    assert {gear.colour for dump in state.dumps for gear in dump.gears} <= {3, 8}


# --- SET-5: a position entered by hand -------------------------------------------------------


@pytest.mark.clause("SET-5")
def test_from_position_builds_the_exact_position() -> None:
    options = Options(assembly="optional", defence_steal_source="feet_only")
    state = from_position(
        robots={1: {"feet": (Gear(2), Gear(1)), "circuit": (Gear(1),)}, 3: {"feet": (Gear(3),)}},
        dumps={3: (), 1: (Gear(3), Gear(3))},
        reserve=(Gear(3), Gear(1), Gear(3)),
        players={"Ada": (1,), "Bo": (3,)},
        turn=7,
        options=options,
    )
    assert state.robot(1).feet == gears(1, 2)
    assert state.robot(1).circuit == gears(1)
    assert state.robot(1).player == "Ada"
    assert state.robot(3).feet == gears(3)
    assert state.robot(3).circuit == ()
    assert state.robot(3).player == "Bo"
    assert state.dump(1).gears == gears(3, 3)
    assert state.dump(3).gears == ()
    assert state.reserve == (Gear(3), Gear(1), Gear(3))
    assert state.players == (Player("Ada", (1,)), Player("Bo", (3,)))
    assert state.turn == 7
    assert state.options == options
    assert not state.game_over


@pytest.mark.clause("SET-5", "EXP-1")
def test_a_position_keeps_the_reserve_in_draw_order() -> None:
    state = from_position(
        robots={1: {}, 2: {}},
        dumps={1: (), 2: ()},
        reserve=(Gear(2), Gear(1), Gear(1)),
    )
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 2"))
    assert result.state.dump(1).gears == gears(2)
    assert result.state.dump(2).gears == gears(1)
    assert result.state.reserve == (Gear(1),)


@pytest.mark.clause("SET-5")
def test_a_position_with_a_robot_nobody_controls_is_refused() -> None:
    with pytest.raises(InvalidStateError):
        from_position(
            robots={1: {}, 2: {}},
            dumps={1: (), 2: ()},
            reserve=gears(1),
            players={"Ada": (1,)},
        )


@pytest.mark.clause("SET-5")
def test_a_position_with_a_player_controlling_a_robot_not_in_play_is_refused() -> None:
    with pytest.raises(InvalidStateError):
        from_position(
            robots={1: {}, 2: {}},
            dumps={1: (), 2: ()},
            reserve=gears(1),
            players={"Ada": (1,), "Bo": (2,), "Cy": (3,)},
        )


@pytest.mark.clause("SET-5")
def test_a_position_with_gears_somewhere_other_than_feet_or_circuit_is_refused() -> None:
    with pytest.raises(InvalidStateError):
        from_position(
            robots={1: {"hand": gears(1)}, 2: {}},
            dumps={1: (), 2: ()},
            reserve=gears(1),
        )


@pytest.mark.clause("SET-5", "SET-1")
def test_a_position_with_a_single_robot_is_refused() -> None:
    with pytest.raises(InvalidStateError):
        from_position(robots={1: {}}, dumps={1: gears(1)}, reserve=gears(1))


@pytest.mark.clause("SET-5")
@pytest.mark.parametrize("turn", [0, -2])
def test_a_position_before_the_first_turn_is_refused(turn: int) -> None:
    with pytest.raises(InvalidStateError):
        from_position(robots={1: {}, 2: {}}, dumps={1: (), 2: ()}, reserve=gears(1), turn=turn)


@pytest.mark.clause("SET-5", "GEN-1")
def test_a_position_with_twelve_gears_of_one_colour_is_refused() -> None:
    # The box holds 11 gears of each colour: a twelfth red is a typo at the table.
    with pytest.raises(InvalidStateError, match="12 red gears"):
        from_position(
            robots={1: {"feet": gears(1, 1), "circuit": gears(1)}, 2: {}},
            dumps={1: gears(*[1] * 8), 2: ()},
            reserve=gears(1),
        )


@pytest.mark.clause("SET-5", "GEN-1")
def test_a_position_with_all_eleven_gears_of_a_colour_is_accepted() -> None:
    state = from_position(
        robots={1: {"feet": gears(1, 1), "circuit": gears(1)}, 2: {}},
        dumps={1: gears(*[1] * 7), 2: ()},
        reserve=gears(1),
    )
    assert sum(1 for gear in state.all_gears() if gear == Gear(1)) == 11


# --- SET-6: no upgrade cards in the base game ------------------------------------------------


@pytest.mark.clause("SET-6")
def test_the_base_game_has_only_the_three_action_cards() -> None:
    assert {action.value for action in Action} == {"attack", "trap", "harvest"}


@pytest.mark.clause("SET-6")
@pytest.mark.parametrize("text", ["superharvest 1", "super-attack 2", "countredefence 1", "1"])
def test_an_upgrade_card_cannot_be_programmed(text: str) -> None:
    with pytest.raises(InvalidStateError):
        Program.parse(text)


@pytest.mark.clause("SET-6")
def test_a_new_game_has_no_jolly_or_three_point_gears() -> None:
    state = setup_game([1, 2, 3, 4, 5], seed=12)
    assert {gear.kind for gear in state.all_gears()} == {GearKind.STANDARD}
    assert len(list(state.all_gears())) == 55


# --- what a refused setup says (issue 7) -----------------------------------------------------
# Kill surviving mutants of setup.check_robots_in_play, setup_game, _deal, deal_initial_gears
# and from_position: a refused setup or position says what is wrong, with the numbers.

NOT_A_SEED: Any = "77"


@pytest.mark.clause("SET-1", "SET-3")
@pytest.mark.parametrize(
    ("robots", "players", "seed", "reason", "clause"),
    [
        ([1, 9], None, 1, "robots are numbered 1-8, not 9", "SET-1"),
        ([2, 5, 2], None, 1, "each robot can be chosen once: [2, 5, 2]", "SET-1"),
        ([4], None, 1, "a game has 2 to 8 robots, not 1", "SET-1"),
        ([1, 2, 3], ["Ada"], 1, "1 player names for 3 robots", "SET-1"),
        (
            [1, 2],
            ["Ada", "Ada"],
            1,
            "each player needs a name of their own: ['Ada', 'Ada']",
            "SET-1",
        ),
        ([1, 2], ["Ada", ""], 1, "a player needs a name", "SET-1"),
        ([1, 2], None, NOT_A_SEED, "the seed is an integer, not '77'", "SET-3"),
        (
            [1, 2],
            None,
            -5,
            "the seed is an integer from 0 to 18446744073709551615, not -5",
            "SET-3",
        ),
    ],
)
def test_a_refused_setup_says_what_is_wrong(
    robots: list[int], players: list[str] | None, seed: int, reason: str, clause: str
) -> None:
    with pytest.raises(SetupError) as caught:
        setup_game(robots, seed=seed, players=players)
    assert (caught.value.reason, caught.value.clause) == (reason, clause)
    assert str(caught.value) == f"{reason} ({clause})"


@pytest.mark.clause("SET-4")
def test_a_reserve_of_exactly_two_gears_per_dump_is_dealt_out_entirely() -> None:
    reserve = (Gear(1), Gear(2), Gear(2), Gear(1))
    dealt, rest = deal_initial_gears((1, 2), reserve)
    assert dealt == (Dump(1, gears(1, 2)), Dump(2, gears(1, 2)))
    assert rest == ()


@pytest.mark.clause("SET-4")
def test_a_reserve_too_small_for_the_deal_is_refused() -> None:
    with pytest.raises(SetupError) as caught:
        deal_initial_gears((1, 2, 3), gears(1, 2, 3, 1, 2))
    assert (caught.value.reason, caught.value.clause) == (
        "the reserve holds 5 gears; the dumps need 6",
        "SET-4",
    )


@pytest.mark.clause("SET-5")
@pytest.mark.parametrize(
    ("robots", "players", "upgrades", "message"),
    [
        ({1: {}, 2: {}}, {"Ada": (1,)}, None, "robot 2 has no player"),
        (
            {1: {}, 2: {}},
            None,
            {"Zed": UpgradeCard.SUPER_ATTACK},
            "player 'Zed' holds an upgrade card but is not in the game",
        ),
        ({1: {"hand": gears(1)}, 2: {}}, None, None, "robot 1: no place is called 'hand'"),
    ],
)
def test_a_refused_position_says_what_is_wrong(
    robots: dict[int, dict[str, tuple[Gear, ...]]],
    players: dict[str, tuple[int, ...]] | None,
    upgrades: dict[str, UpgradeCard] | None,
    message: str,
) -> None:
    with pytest.raises(InvalidStateError) as caught:
        from_position(
            robots=robots,
            dumps={1: (), 2: ()},
            reserve=gears(1),
            players=players,
            options=Options(upgrades=True),
            upgrades=upgrades,
        )
    assert str(caught.value) == message


@pytest.mark.clause("SET-1")
def test_a_position_typed_in_is_the_start_of_turn_1_unless_told() -> None:
    state = from_position(robots={1: {}, 2: {}}, dumps={1: (), 2: ()}, reserve=())
    assert state.turn == 1
    assert from_position(robots={1: {}, 2: {}}, dumps={1: (), 2: ()}, reserve=(), turn=4).turn == 4


# --- SET-1: seating by number, as simulations and the game adapters seat a table -------------


@pytest.mark.clause("SET-1")
def test_a_seated_table_of_three_gives_each_player_one_robot_in_order() -> None:
    assert seat_players(3) == {"P1": (1,), "P2": (2,), "P3": (3,)}
    jolly = Options(jolly_gears=True)
    assert setup_seated_game(3, seed=4, options=jolly) == setup_game(
        [1, 2, 3], seed=4, options=jolly
    )


# --- arguments of the wrong type (issue 14) ---------------------------------------------------
# A table typing a setup or a position in the wrong shape is told which argument, what it should
# be and what it got (ArgumentTypeError's facts), not a crash further in.

ADA_AND_BO = {"Ada": (1,), "Bo": (2,)}


@pytest.mark.clause("SET-1")
@pytest.mark.parametrize(
    ("robots", "players", "options", "argument", "expected", "given"),
    [
        pytest.param(
            "12", None, None, "robots", "a sequence of robot numbers", "12", id="robots-as-text"
        ),
        pytest.param(
            [1, 2], "AdaBo", None, "players", "a sequence of names, or names to robots", "AdaBo",
            id="names-as-text"
        ),
        pytest.param(
            [1, 2], None, {"jolly": True}, "options", "an Options or None", {"jolly": True},
            id="options-as-a-dict",
        ),
    ],
)  # fmt: skip
def test_a_setup_typed_in_the_wrong_shape_names_the_argument(
    robots: Any, players: Any, options: Any, argument: str, expected: str, given: Any
) -> None:
    with pytest.raises(ArgumentTypeError) as refused:
        setup_game(robots, seed=1, players=players, options=options)
    assert (refused.value.argument, refused.value.expected) == (argument, expected)
    assert refused.value.value == given


@pytest.mark.clause("SET-5")
@pytest.mark.parametrize(
    ("entered", "argument", "expected", "given"),
    [
        pytest.param(
            {"robots": [1, 2]}, "robots", "a mapping keyed by robot number", [1, 2],
            id="robots-as-a-list",
        ),
        pytest.param(
            {"dumps": [(), ()]}, "dumps", "a mapping keyed by robot number", [(), ()],
            id="dumps-as-a-list",
        ),
        pytest.param(
            {"robots": {1: gears(3), 2: {}}}, "robots[1]", "a mapping of 'feet' and 'circuit'",
            gears(3), id="a-robot-as-its-gears",
        ),
        pytest.param(
            {"players": 7}, "players",
            "a mapping of names to robot numbers, or a sequence of names", 7,
            id="players-as-a-number",
        ),
        pytest.param(
            {"players": {"Ada": 1, "Bo": (2,)}}, "players['Ada']", "a sequence of robot numbers",
            1, id="a-player-with-a-bare-number",
        ),
        pytest.param(
            {"players": {"Ada": "1", "Bo": (2,)}}, "players['Ada']",
            "a sequence of robot numbers", "1", id="a-player-with-a-number-as-text",
        ),
        pytest.param(
            {"upgrades": [UpgradeCard.SUPER_TRAP]}, "upgrades",
            "a mapping of names to UpgradeCard", [UpgradeCard.SUPER_TRAP],
            id="upgrades-as-a-list",
        ),
        pytest.param(
            {"options": "upgrades"}, "options", "an Options or None", "upgrades",
            id="options-as-text",
        ),
    ],
)  # fmt: skip
def test_a_position_typed_in_the_wrong_shape_names_the_argument(
    entered: dict[str, Any], argument: str, expected: str, given: Any
) -> None:
    typed: dict[str, Any] = {
        "robots": {1: {}, 2: {}},
        "dumps": {1: (), 2: ()},
        "reserve": gears(1),
        "players": ADA_AND_BO,
    }
    with pytest.raises(ArgumentTypeError) as refused:
        from_position(**(typed | entered))
    assert (refused.value.argument, refused.value.expected) == (argument, expected)
    assert refused.value.value == given


@pytest.mark.clause("SET-1", "SET-2", "SET-4", "VAR-1", "UPG-1")
@pytest.mark.parametrize(
    "options",
    [
        Options(),
        Options(upgrades=True, jolly_gears=True, three_point_gears=True),
        Options(pad_reserve=True, upgrades=True),
    ],
)
def test_every_dealt_state_is_one_the_public_constructor_accepts_and_rebuilds(
    options: Options,
) -> None:
    # setup_game puts its state together without check_state (table.dealt_state): the public
    # constructor, which runs it, must accept every dealt state and give it back unchanged.
    dealt = [
        setup_game(robots, seed=seed, options=options)
        for seed in range(8)
        for robots in ([1, 2], [3, 1, 7], [2, 4, 5, 6, 8])
    ]
    dealt += [
        setup_two_robot_game(
            {"Bo": (6, 2), "Ada": (1, 5), "Cy": (3, 4)}, seed=seed, options=options
        )
        for seed in range(4)
    ]
    if not options.pad_reserve:
        dealt.append(setup_game(list(range(1, 9)), seed=3, options=options))
    for state in dealt:
        rebuilt = GameState(
            robots=state.robots,
            dumps=state.dumps,
            reserve=state.reserve,
            players=state.players,
            options=state.options,
        )
        assert rebuilt == state
        assert rebuilt.players == state.players  # in the same order
        assert [type(part) for part in (state.robots, state.dumps, state.reserve)] == [tuple] * 3


# --- the two shapes of `players`: names one per robot, or names to robots -------------------


def test_setup_takes_the_players_as_a_log_writes_them_too() -> None:
    by_names = setup_game([2, 5], seed=9, players=["Ada", "Bo"])
    assert setup_game([2, 5], seed=9, players={"Bo": (5,), "Ada": (2,)}) == by_names
    assert by_names.player_of(5).name == "Bo"


def test_a_setup_whose_players_control_other_robots_is_refused_naming_both() -> None:
    with pytest.raises(
        SetupError, match=r"control robots \[1, 2\]; the robots in play are \[2, 5\]"
    ):
        setup_game([2, 5], seed=9, players={"Ada": (1,), "Bo": (2,)})
    with pytest.raises(SetupError, match="controls one robot, not"):
        setup_game([2, 5], seed=9, players={"Ada": (2, 5)})


def test_a_position_takes_the_players_as_setup_game_takes_them_too() -> None:
    position: dict[str, Any] = {"robots": {1: {}, 3: {}}, "dumps": {1: (), 3: ()}, "reserve": ()}
    by_names = from_position(**position, players=["Ada", "Bo"])
    assert by_names == from_position(**position, players={"Ada": (1,), "Bo": (3,)})
    with pytest.raises(SetupError, match="3 player names for 2 robots"):
        from_position(**position, players=["Ada", "Bo", "Cy"])
