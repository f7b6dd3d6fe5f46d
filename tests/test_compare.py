"""Comparing two resolutions of one turn (``outofgears.judge.compare``)."""

from __future__ import annotations

import pytest

from outofgears.errors import IllegalChoiceError, IllegalProgramError
from outofgears.judge.compare import (
    compare_results,
    describe_choices,
    diff_events,
    diff_states,
    drop_refused_choice,
    replay_to_turn,
    resolve_with_choices,
)
from outofgears.log import GameLog, LogError, Start, TurnRecord
from outofgears.rules.choices import Choices, DefenceSteal
from outofgears.rules.events import ActionResolved, GearMoved, Outcome, TurnEnded
from outofgears.rules.gears import Gear, gears
from outofgears.rules.model import GameState, Options, Place, UpgradeCard
from outofgears.rules.programs import parse_program
from outofgears.rules.setup import from_position
from outofgears.rules.turn import resolve_turn
from tests.helpers import position, programs

RED, ORANGE, BLUE = gears(1)[0], gears(2)[0], gears(5)[0]


def test_events_are_matched_as_a_multiset() -> None:
    twice = GearMoved(RED, Place.dump(1), Place.feet(1), 1, "HRV-2")
    once = GearMoved(ORANGE, Place.dump(1), Place.feet(1), 1, "HRV-2")
    ended = TurnEnded(1, False, "TURN-1")
    diff = diff_events([twice, once, twice, ended], [ended, twice, once])
    assert diff.only_base == (twice,)
    assert diff.only_other == ()
    assert not diff.same
    assert diff_events([once, twice], [twice, once]).same


def test_events_only_one_side_has_keep_their_order() -> None:
    hit = ActionResolved(1, "attack 2", Outcome.ATTACK_HIT, "ATK-6")
    voided = ActionResolved(1, "attack 2", Outcome.ATTACK_VOIDED, "ATK-3")
    moved = GearMoved(RED, Place.feet(2), Place.feet(1), 1, "ATK-6")
    diff = diff_events([hit, moved], [voided])
    assert diff.only_base == (hit, moved)
    assert diff.only_other == (voided,)


def two_robots(feet: tuple[Gear, ...] = (), circuit: tuple[Gear, ...] = ()) -> GameState:
    """Robots 1 and 2, a red gear on dump 1 and an orange one on dump 2, an empty reserve;
    player P1 holds a Super Trap."""
    return from_position(
        robots={1: {"feet": feet, "circuit": circuit}, 2: {}},
        dumps={1: gears(1), 2: gears(2)},
        reserve=(),
        options=Options(upgrades=True),
        upgrades={"P1": UpgradeCard.SUPER_TRAP},
    )


def test_state_differences_name_feet_circuits_dumps_and_scores_in_table_words() -> None:
    before = two_robots(feet=gears(1), circuit=gears(2))
    after = two_robots(feet=gears(1, 1, 5), circuit=())
    assert [item.describe("as logged") for item in diff_states(before, after)] == [
        "robot 1 feet: 2 red, 1 blue (as logged: 1 red)",
        "robot 1 circuit: none (as logged: 1 orange)",
        "P1's score: 5 points (as logged: 3 points)",
    ]
    [feet, *_] = diff_states(before, after)
    assert (feet.base_gears, feet.other_gears) == (gears(1), gears(1, 1, 5))


def test_a_played_upgrade_and_the_end_of_the_game_are_differences() -> None:
    state = two_robots()
    waited = resolve_turn(state, programs(r1="attack 2", r2="attack 1"))
    super_trap = {1: parse_program("super trap"), 2: parse_program("harvest 1")}
    trapped = resolve_turn(state, super_trap)
    lines = [item.describe("attacks") for item in compare_results(waited, trapped).state]
    assert lines == [
        "robot 1 feet: 1 red (attacks: none)",
        "dump 1: none (attacks: 1 red)",
        "P1's score: 2 points (attacks: 0 points)",
        "P1's upgrade card: none (attacks: super trap)",
        "game over: yes (attacks: no)",
    ]


def test_reserve_difference_counts_the_gears() -> None:
    before = position(dumps={1: [], 2: []}, reserve=[1, 2])
    [reserve] = diff_states(before, position(dumps={1: [], 2: []}, reserve=[1]))
    assert reserve.describe("before") == "reserve: 1 gear: 1 red (before: 2 gears: 1 red, 1 orange)"


def test_identical_resolutions_are_the_same() -> None:
    state = two_robots()
    turn = programs(r1="harvest 1", r2="harvest 2")
    diff = compare_results(resolve_turn(state, turn), resolve_turn(state, turn))
    assert diff.same
    assert diff.state == ()


def steal_table(options: Options | None = None) -> GameState:
    """Robot 1 (red feet, orange circuit) will attack robot 2; robot 3 has three feet gears."""
    return position(
        feet={1: [1], 3: [1, 3, 5]},
        circuit={1: [2]},
        dumps={1: [], 2: [], 3: []},
        reserve=[4, 4, 4],
        options=options,
    )


STEAL = programs(r1="attack 2", r2="attack 2", r3="harvest 3")


def test_a_refused_steal_is_dropped_and_the_assembly_choice_kept() -> None:
    choices = Choices(
        defence_steals={(2, 1): DefenceSteal("circuit", ORANGE)}, assemblies={3: gears(1, 5)}
    )
    done = resolve_with_choices(
        steal_table(Options(defence_steal_source="feet_only")), STEAL, choices
    )
    assert [(error.robot, error.clause) for error in done.refused] == [(2, "ATK-4")]
    assert dict(done.choices.defence_steals) == {}
    assert dict(done.choices.assemblies) == {3: gears(1, 5)}
    after = done.result.state
    assert after.robot(2).feet == gears(1)
    assert (after.robot(1).feet, after.robot(1).circuit) == ((), gears(2))
    assert (after.robot(3).feet, after.robot(3).circuit) == (gears(3), gears(1, 5))


def test_every_refused_choice_is_reported_in_turn() -> None:
    choices = Choices(defence_steals={(2, 1): DefenceSteal("circuit", ORANGE)}, assemblies={3: ()})
    done = resolve_with_choices(
        steal_table(Options(defence_steal_source="feet_only")), STEAL, choices
    )
    assert [(error.robot, error.clause) for error in done.refused] == [(2, "ATK-4"), (3, "ASM-1")]
    assert done.choices == Choices()
    # The default assembly: its yellow and the blue, the first colour after it (R-SYMMETRY).
    assert done.result.state.robot(3).circuit == gears(3, 5)


def test_legal_choices_are_applied_untouched() -> None:
    choices = Choices(defence_steals={(2, 1): DefenceSteal("circuit", ORANGE)})
    done = resolve_with_choices(steal_table(), STEAL, choices)
    assert done.refused == ()
    assert done.choices == choices
    assert done.result.state.robot(2).feet == gears(2)


def test_an_illegal_program_is_not_a_choice() -> None:
    with pytest.raises(IllegalProgramError) as raised:
        resolve_with_choices(steal_table(), programs(r1="trap 7", r2="attack 2", r3="harvest 3"))
    assert raised.value.robot == 1


def test_drop_refused_split_keeps_the_other_splits() -> None:
    choices = Choices(
        splits={Place.dump(1): {1: gears(1), 2: gears(2)}, Place.dump(2): {3: gears(3)}}
    )
    kept = drop_refused_choice(choices, IllegalChoiceError(3, "no", clause="SPL-1"))
    assert list(kept.splits) == [Place.dump(1)]
    unnamed = drop_refused_choice(choices, IllegalChoiceError(None, "no", clause="SPL-5"))
    assert dict(unnamed.splits) == {}


def test_drop_refused_steals_of_that_defender_only() -> None:
    choices = Choices(
        defence_steals={
            (2, 1): DefenceSteal("feet", RED),
            (2, 3): DefenceSteal("feet", BLUE),
            (4, 1): DefenceSteal("feet", RED),
        }
    )
    kept = drop_refused_choice(choices, IllegalChoiceError(2, "no", clause="ATK-4"))
    assert list(kept.defence_steals) == [(4, 1)]


def test_a_refusal_that_names_no_choice_drops_them_all() -> None:
    choices = Choices(assemblies={1: gears(1, 2)})
    assert drop_refused_choice(choices, IllegalChoiceError(5, "no", clause="ASM-1")) == Choices()


def test_describe_choices_in_table_words() -> None:
    choices = Choices(
        defence_steals={(2, 1): DefenceSteal("feet", RED)},
        assemblies={3: gears(3, 5)},
        splits={Place.dump(4): {1: gears(1), 2: gears(2, 2)}},
    )
    assert describe_choices(choices) == [
        "robot 2 takes red from robot 1's feet",
        "robot 3 assembles 1 yellow, 1 blue",
        "dump 4 is split: robot 1 gets 1 red, robot 2 gets 2 orange",
    ]
    assert describe_choices(Choices()) == []


def seeded_log(*turns: TurnRecord) -> GameLog:
    return GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=3), turns=turns)


def test_replay_to_turn_gives_the_state_before_it() -> None:
    quiet = {1: parse_program("harvest 1"), 2: parse_program("harvest 2")}
    log = seeded_log(TurnRecord(1, quiet), TurnRecord(2, quiet), TurnRecord(3, quiet))
    replayed = replay_to_turn(log, 3)
    assert (replayed.turn, replayed.index, replayed.before.turn) == (3, 2, 3)
    assert replayed.programs == quiet


def test_replay_to_turn_stops_before_a_broken_later_turn() -> None:
    quiet = {1: parse_program("harvest 1"), 2: parse_program("harvest 2")}
    broken = {1: parse_program("harvest 5"), 2: parse_program("harvest 2")}
    log = seeded_log(TurnRecord(1, quiet), TurnRecord(2, broken))
    assert replay_to_turn(log, 1).turn == 1
    with pytest.raises(LogError) as raised:
        replay_to_turn(log, 2, "g.json")
    assert (raised.value.json_path, raised.value.robot) == ("$.turns[1].programs.1", 1)


@pytest.mark.parametrize(
    ("turns", "asked", "message"),
    [
        ((), 1, "the log has no turn 1 (it has no turns)"),
        ((1, 2, 3), 4, "the log has no turn 4 (its turns: 1-3)"),
        ((1,), 0, "the log has no turn 0 (its turns: 1)"),
    ],
)
def test_replay_to_a_turn_the_log_lacks(turns: tuple[int, ...], asked: int, message: str) -> None:
    quiet = {1: parse_program("harvest 1"), 2: parse_program("harvest 2")}
    log = seeded_log(*(TurnRecord(n, quiet) for n in turns))
    with pytest.raises(LogError) as raised:
        replay_to_turn(log, asked, "g.json")
    assert str(raised.value) == f"g.json: $.turns: {message}"
