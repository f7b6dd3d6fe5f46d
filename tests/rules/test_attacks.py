"""Attacks and defences at the table (spec ATK-1 to ATK-8).

Rulings checked: R-SIMUL (attacks are simultaneous, defences first), R-DEFENCE
(the defence steal and its ``defence_steal_source`` option), R-SPLIT (several
attackers of one robot), R-CHOICES (chosen defence steals and splits).

Every expected value below was worked out by hand from the rulebooks
(IT-ATK-*, IT-ACT-ATK-*, FR-ATK-*, FR-ACT-ATK-*, IT-SPLIT-*) and the readings,
not read off the engine. Positions keep the reserve empty (no exploration) and
feet small (no assembly), unless a test says otherwise.
"""

from __future__ import annotations

from collections import Counter

import pytest

from outofgears import (
    Choices,
    DefenceSteal,
    Gear,
    GearMoved,
    IllegalChoiceError,
    Options,
    Outcome,
    Place,
    SplitResolved,
    gears,
    resolve_turn,
)
from outofgears.rules.attacks import (
    attackers_by_target,
    choose_defence_steal,
)
from outofgears.rules.programs import Program, ProgramReading
from tests.helpers import (
    circuits_of,
    dumps_of,
    feet_of,
    moves,
    outcomes,
    position,
    programs,
    splits,
)

# --- helpers ---------------------------------------------------------------------------------


def moved(colour: int, source: Place, destination: Place, robot: int, clause: str) -> GearMoved:
    """A :class:`GearMoved` written short."""
    return GearMoved(Gear(colour), source, destination, robot, clause)


def no_assembly(*robots: int) -> Choices:
    """Choices that keep every listed robot's feet as they are (with optional assembly)."""
    return Choices(assemblies=dict.fromkeys(robots, ()))


OPTIONAL_ASSEMBLY = Options(assembly="optional")
FEET_ONLY = Options(defence_steal_source="feet_only")

HIT, VOIDED = Outcome.ATTACK_HIT, Outcome.ATTACK_VOIDED
DEFENDED, UNTESTED = Outcome.DEFENDED, Outcome.DEFENDED_UNTESTED
IDLE = Outcome.TRAP_IDLE


# --- ATK-1: attack or defence ----------------------------------------------------------------


@pytest.mark.clause("ATK-1", "ATK-6")
def test_attack_card_naming_another_robot_attacks_it() -> None:
    state = position(feet={2: [1, 3], 3: [3]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 2", r2="trap 1", r3="trap 2"))
    assert feet_of(result.state) == {1: gears(1, 3), 2: (), 3: gears(3)}
    assert moves(result, "ATK-6") == Counter(
        [
            moved(1, Place.feet(2), Place.feet(1), 1, "ATK-6"),
            moved(3, Place.feet(2), Place.feet(1), 1, "ATK-6"),
        ]
    )
    assert outcomes(result) == [(1, HIT, "ATK-6"), (2, IDLE, "TRP-3"), (3, IDLE, "TRP-3")]


@pytest.mark.clause("ATK-1", "ATK-3")
def test_attack_card_naming_ones_own_robot_is_a_defence_not_a_theft() -> None:
    state = position(feet={1: [1, 2]}, circuit={1: [2]}, dumps={1: [], 2: []})
    result = resolve_turn(state, programs(r1="attack 1", r2="trap 2"))
    assert feet_of(result.state) == {1: gears(1, 2), 2: ()}
    assert circuits_of(result.state) == {1: gears(2), 2: ()}
    assert result.moves == ()
    assert outcomes(result) == [(1, UNTESTED, "ATK-3"), (2, IDLE, "TRP-3")]


@pytest.mark.clause("ATK-1")
def test_defence_and_attacks_are_told_apart_by_the_number_card() -> None:
    laid = {
        1: Program.parse("attack 1"),
        2: Program.parse("attack 1"),
        3: Program.parse("attack 2"),
        4: Program.parse("attack 2"),
        5: Program.parse("harvest 5"),
    }
    reading = ProgramReading(position(dumps={n: [] for n in range(1, 6)}), laid)
    assert reading.defenders == [1]
    assert attackers_by_target(reading) == {1: [2], 2: [3, 4]}


@pytest.mark.clause("ATK-1", "ATK-6")
@pytest.mark.ruling("R-TWO-ROBOTS")
def test_attacking_ones_partner_is_an_attack_not_a_defence() -> None:
    state = position(
        feet={2: [2, 3]},
        circuit={2: [1]},
        dumps={1: [], 2: [], 3: [], 4: []},
        players={"Ada": (1, 2), "Bo": (3, 4)},
    )
    result = resolve_turn(
        state, programs(r1="attack 2", r2="trap 1", r3="attack 3", r4="harvest 4")
    )
    assert feet_of(result.state) == {1: gears(2, 3), 2: (), 3: (), 4: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(1), 3: (), 4: ()}
    assert outcomes(result) == [
        (1, HIT, "ATK-6"),
        (2, IDLE, "TRP-3"),
        (3, UNTESTED, "ATK-3"),
        (4, Outcome.HARVEST_DONE, "HRV-2"),
    ]


# --- ATK-2: defences resolve before attacks --------------------------------------------------


@pytest.mark.clause("ATK-2", "ATK-4")
@pytest.mark.ruling("R-SIMUL", "R-DEFENCE")
def test_defender_steals_before_the_voided_attacker_is_robbed() -> None:
    # Robot 2 attacks the defending robot 1 and is itself attacked by robot 3.
    # The defence comes first: robot 1 takes its own-colour gear, robot 3 the rest.
    state = position(feet={2: [1, 4]}, dumps={1: [], 2: [], 3: [], 4: []})
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="attack 2", r4="trap 4"))
    assert feet_of(result.state) == {1: gears(1), 2: (), 3: gears(4), 4: ()}
    steal = moved(1, Place.feet(2), Place.feet(1), 1, "ATK-4")
    theft = moved(4, Place.feet(2), Place.feet(3), 3, "ATK-6")
    assert moves(result, "ATK-4") == Counter([steal])
    assert moves(result, "ATK-6") == Counter([theft])
    assert result.events.index(steal) < result.events.index(theft)
    assert outcomes(result) == [
        (1, DEFENDED, "ATK-3"),
        (2, VOIDED, "ATK-3"),
        (3, HIT, "ATK-6"),
        (4, IDLE, "TRP-3"),
    ]


@pytest.mark.clause("ATK-2", "ATK-7")
@pytest.mark.ruling("R-SIMUL")
def test_attacker_stripped_by_a_defender_leaves_nothing_for_its_own_attacker() -> None:
    state = position(feet={2: [2]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="attack 2"))
    assert feet_of(result.state) == {1: gears(2), 2: (), 3: ()}
    assert moves(result, "ATK-4") == Counter([moved(2, Place.feet(2), Place.feet(1), 1, "ATK-4")])
    assert moves(result, "ATK-6") == Counter()
    assert outcomes(result) == [(1, DEFENDED, "ATK-3"), (2, VOIDED, "ATK-3"), (3, HIT, "ATK-6")]


@pytest.mark.clause("ATK-2", "ATK-4", "ATK-5")
@pytest.mark.ruling("R-SIMUL", "R-DEFENCE")
def test_defender_takes_from_the_circuit_so_the_attackers_attacker_gets_its_feet() -> None:
    # Default option: robot 1's own colour sits in robot 2's circuit; it takes that one,
    # and robot 3's attack then takes the gear at robot 2's feet.
    state = position(feet={2: [3]}, circuit={2: [1]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="attack 2"))
    assert feet_of(result.state) == {1: gears(1), 2: (), 3: gears(3)}
    assert circuits_of(result.state) == {1: (), 2: (), 3: ()}
    assert moves(result, "ATK-4") == Counter(
        [moved(1, Place.circuit(2), Place.feet(1), 1, "ATK-4")]
    )
    assert moves(result, "ATK-6") == Counter([moved(3, Place.feet(2), Place.feet(3), 3, "ATK-6")])


@pytest.mark.clause("ATK-2", "ATK-4")
@pytest.mark.ruling("R-SIMUL", "R-DEFENCE")
def test_feet_only_defender_takes_the_feet_gear_before_the_attackers_attacker() -> None:
    # Same table under defence_steal_source="feet_only": the defender must take the feet
    # gear, and it does so before robot 3's attack, which then finds nothing.
    state = position(
        feet={2: [3]}, circuit={2: [1]}, dumps={1: [], 2: [], 3: []}, options=FEET_ONLY
    )
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="attack 2"))
    assert feet_of(result.state) == {1: gears(3), 2: (), 3: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(1), 3: ()}
    assert moves(result, "ATK-4") == Counter([moved(3, Place.feet(2), Place.feet(1), 1, "ATK-4")])
    assert moves(result, "ATK-6") == Counter()


# --- ATK-3: a defence voids the attacks on the defender --------------------------------------


@pytest.mark.clause("ATK-3", "ATK-4", "ATK-5")
@pytest.mark.ruling("R-DEFENCE")
def test_victim_defended_by_itself_while_attacked_by_two() -> None:
    # Robot 3 defends; robots 1 and 2 attack it. Both attacks are voided, robot 3 keeps
    # its feet and takes one gear from each: from robot 1 the green, the first colour after
    # its own yellow (none is worth more, R-SYMMETRY), from robot 2 the yellow in its circuit
    # (worth 2 to robot 3).
    state = position(
        feet={1: [2, 4], 3: [1]},
        circuit={2: [1, 3]},
        dumps={1: [], 2: [], 3: [], 4: []},
        options=OPTIONAL_ASSEMBLY,
    )
    result = resolve_turn(
        state,
        programs(r1="attack 3", r2="attack 3", r3="attack 3", r4="trap 4"),
        choices=no_assembly(3),
    )
    assert feet_of(result.state) == {1: gears(2), 2: (), 3: gears(1, 3, 4), 4: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(1), 3: (), 4: ()}
    assert moves(result, "ATK-4") == Counter(
        [
            moved(4, Place.feet(1), Place.feet(3), 3, "ATK-4"),
            moved(3, Place.circuit(2), Place.feet(3), 3, "ATK-4"),
        ]
    )
    assert moves(result, "ATK-6") == Counter()
    assert outcomes(result) == [
        (1, VOIDED, "ATK-3"),
        (2, VOIDED, "ATK-3"),
        (3, DEFENDED, "ATK-3"),
        (4, IDLE, "TRP-3"),
    ]


@pytest.mark.clause("ATK-3", "ATK-6")
@pytest.mark.ruling("R-DEFENCE")
def test_attack_on_a_defender_is_voided_while_attacks_on_others_still_hit() -> None:
    state = position(feet={1: [1], 2: [2], 4: [2, 4]}, dumps={1: [], 2: [], 3: [], 4: []})
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="attack 4", r4="trap 1"))
    assert feet_of(result.state) == {1: gears(1, 2), 2: (), 3: gears(2, 4), 4: ()}
    assert moves(result, "ATK-4") == Counter([moved(2, Place.feet(2), Place.feet(1), 1, "ATK-4")])
    assert moves(result, "ATK-6") == Counter(
        [
            moved(2, Place.feet(4), Place.feet(3), 3, "ATK-6"),
            moved(4, Place.feet(4), Place.feet(3), 3, "ATK-6"),
        ]
    )
    assert outcomes(result) == [
        (1, DEFENDED, "ATK-3"),
        (2, VOIDED, "ATK-3"),
        (3, HIT, "ATK-6"),
        (4, IDLE, "TRP-3"),
    ]


@pytest.mark.clause("ATK-3", "ATK-4")
@pytest.mark.ruling("R-DEFENCE")
def test_defender_not_attacked_gets_nothing() -> None:
    # Robot 1 defends but the only attack goes to robot 3: robot 1 takes nothing,
    # not even robot 2's red circuit gear.
    state = position(feet={2: [2], 3: [3]}, circuit={2: [1]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 3", r3="trap 2"))
    assert feet_of(result.state) == {1: (), 2: gears(2, 3), 3: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(1), 3: ()}
    assert moves(result, "ATK-4") == Counter()
    assert outcomes(result) == [(1, UNTESTED, "ATK-3"), (2, HIT, "ATK-6"), (3, IDLE, "TRP-3")]


@pytest.mark.clause("ATK-3", "ATK-4")
@pytest.mark.ruling("R-DEFENCE")
def test_defender_keeps_its_feet_and_circuit_against_two_empty_handed_attackers() -> None:
    state = position(feet={2: [1, 2]}, circuit={2: [2]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 2", r2="attack 2", r3="attack 2"))
    assert feet_of(result.state) == {1: (), 2: gears(1, 2), 3: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(2), 3: ()}
    assert result.moves == ()
    assert outcomes(result) == [(1, VOIDED, "ATK-3"), (2, DEFENDED, "ATK-3"), (3, VOIDED, "ATK-3")]


@pytest.mark.clause("ATK-3", "ATK-6")
@pytest.mark.ruling("R-DEFENCE")
def test_defender_keeps_its_feet_gears_while_an_undefended_robot_is_robbed() -> None:
    # Robot 2 defends, so robot 1's attack fails even though robot 2 holds gears; robot 2
    # takes robot 1's green. Robot 3 did not defend, and robot 4 takes its yellow.
    state = position(feet={1: [4], 2: [2], 3: [3]}, dumps={1: [], 2: [], 3: [], 4: []})
    result = resolve_turn(state, programs(r1="attack 2", r2="attack 2", r3="trap 1", r4="attack 3"))
    assert feet_of(result.state) == {1: (), 2: gears(2, 4), 3: (), 4: gears(3)}
    assert moves(result, "ATK-4") == Counter([moved(4, Place.feet(1), Place.feet(2), 2, "ATK-4")])
    assert moves(result, "ATK-6") == Counter([moved(3, Place.feet(3), Place.feet(4), 4, "ATK-6")])
    assert outcomes(result) == [
        (1, VOIDED, "ATK-3"),
        (2, DEFENDED, "ATK-3"),
        (3, IDLE, "TRP-3"),
        (4, HIT, "ATK-6"),
    ]


# --- ATK-4: the defender takes one gear from each attacker -----------------------------------


@pytest.mark.clause("ATK-4", "ATK-5")
@pytest.mark.ruling("R-DEFENCE")
def test_defender_steals_one_gear_from_each_attacker() -> None:
    # Robot 4 defends against robots 1, 2 and 3.
    #   robot 1 (feet red, green): green is robot 4's colour, worth 2 -> green from feet;
    #   robot 2 (feet orange, yellow): equal value -> lowest colour, orange;
    #   robot 3 (circuit yellow only): the circuit is allowed -> yellow from circuit.
    state = position(
        feet={1: [1, 4], 2: [2, 3]},
        circuit={3: [3]},
        dumps={1: [], 2: [], 3: [], 4: []},
        options=OPTIONAL_ASSEMBLY,
    )
    result = resolve_turn(
        state,
        programs(r1="attack 4", r2="attack 4", r3="attack 4", r4="attack 4"),
        choices=no_assembly(4),
    )
    assert feet_of(result.state) == {1: gears(1), 2: gears(3), 3: (), 4: gears(2, 3, 4)}
    assert circuits_of(result.state) == {1: (), 2: (), 3: (), 4: ()}
    assert moves(result, "ATK-4") == Counter(
        [
            moved(4, Place.feet(1), Place.feet(4), 4, "ATK-4"),
            moved(2, Place.feet(2), Place.feet(4), 4, "ATK-4"),
            moved(3, Place.circuit(3), Place.feet(4), 4, "ATK-4"),
        ]
    )
    assert outcomes(result) == [
        (1, VOIDED, "ATK-3"),
        (2, VOIDED, "ATK-3"),
        (3, VOIDED, "ATK-3"),
        (4, DEFENDED, "ATK-3"),
    ]


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-DEFENCE")
def test_attacker_with_no_gears_loses_nothing() -> None:
    state = position(feet={3: [3]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="attack 1"))
    assert feet_of(result.state) == {1: gears(3), 2: (), 3: ()}
    assert moves(result, "ATK-4") == Counter([moved(3, Place.feet(3), Place.feet(1), 1, "ATK-4")])
    assert outcomes(result) == [(1, DEFENDED, "ATK-3"), (2, VOIDED, "ATK-3"), (3, VOIDED, "ATK-3")]


@pytest.mark.clause("ATK-4", "ATK-5")
@pytest.mark.ruling("R-DEFENCE")
def test_defence_steal_may_come_from_the_attackers_circuit() -> None:
    state = position(feet={2: [3]}, circuit={2: [1, 2]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="trap 3"))
    assert feet_of(result.state) == {1: gears(1), 2: gears(3), 3: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(2), 3: ()}
    assert moves(result, "ATK-4") == Counter(
        [moved(1, Place.circuit(2), Place.feet(1), 1, "ATK-4")]
    )


@pytest.mark.clause("ATK-4", "ATK-5")
@pytest.mark.ruling("R-DEFENCE")
def test_feet_only_option_leaves_the_attackers_circuit_alone() -> None:
    state = position(
        feet={2: [3]}, circuit={2: [1, 2]}, dumps={1: [], 2: [], 3: []}, options=FEET_ONLY
    )
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="trap 3"))
    assert feet_of(result.state) == {1: gears(3), 2: (), 3: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(1, 2), 3: ()}
    assert moves(result, "ATK-4") == Counter([moved(3, Place.feet(2), Place.feet(1), 1, "ATK-4")])


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-DEFENCE")
def test_feet_only_option_takes_nothing_from_an_attacker_with_only_circuit_gears() -> None:
    state = position(circuit={2: [1]}, dumps={1: [], 2: []}, options=FEET_ONLY)
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 1"))
    assert feet_of(result.state) == {1: (), 2: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(1)}
    assert result.moves == ()
    assert outcomes(result) == [(1, DEFENDED, "ATK-3"), (2, VOIDED, "ATK-3")]


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-DEFENCE", "R-CHOICES")
def test_defender_may_choose_which_gear_to_steal() -> None:
    # The default would take the red gear from robot 2's circuit; robot 1 chooses yellow.
    state = position(feet={2: [2, 3]}, circuit={2: [1]}, dumps={1: [], 2: [], 3: []})
    choices = Choices(defence_steals={(1, 2): DefenceSteal("feet", Gear(3))})
    result = resolve_turn(
        state, programs(r1="attack 1", r2="attack 1", r3="trap 3"), choices=choices
    )
    assert feet_of(result.state) == {1: gears(3), 2: gears(2), 3: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(1), 3: ()}
    assert moves(result, "ATK-4") == Counter([moved(3, Place.feet(2), Place.feet(1), 1, "ATK-4")])


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-DEFENCE", "R-CHOICES")
def test_defender_may_choose_a_circuit_gear_of_no_extra_value() -> None:
    state = position(feet={2: [1]}, circuit={2: [2]}, dumps={1: [], 2: [], 3: []})
    choices = Choices(defence_steals={(1, 2): DefenceSteal("circuit", Gear(2))})
    result = resolve_turn(
        state, programs(r1="attack 1", r2="attack 1", r3="trap 3"), choices=choices
    )
    assert feet_of(result.state) == {1: gears(2), 2: gears(1), 3: ()}
    assert circuits_of(result.state) == {1: (), 2: (), 3: ()}
    assert moves(result, "ATK-4") == Counter(
        [moved(2, Place.circuit(2), Place.feet(1), 1, "ATK-4")]
    )


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-DEFENCE", "R-CHOICES")
def test_chosen_circuit_steal_is_refused_under_the_feet_only_option() -> None:
    state = position(
        feet={2: [3]}, circuit={2: [1]}, dumps={1: [], 2: [], 3: []}, options=FEET_ONLY
    )
    choices = Choices(defence_steals={(1, 2): DefenceSteal("circuit", Gear(1))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="trap 3"), choices=choices)
    assert (caught.value.robot, caught.value.clause) == (1, "ATK-4")


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-CHOICES")
def test_chosen_steal_of_a_gear_the_attacker_does_not_hold_there_is_refused() -> None:
    # The red gear is in robot 2's circuit, not at its feet.
    state = position(feet={2: [2, 3]}, circuit={2: [1]}, dumps={1: [], 2: [], 3: []})
    choices = Choices(defence_steals={(1, 2): DefenceSteal("feet", Gear(1))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="trap 3"), choices=choices)
    assert (caught.value.robot, caught.value.clause) == (1, "ATK-4")


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-CHOICES")
def test_chosen_steal_from_a_robot_that_attacked_someone_else_is_refused() -> None:
    state = position(feet={2: [2], 3: [3]}, dumps={1: [], 2: [], 3: []})
    choices = Choices(defence_steals={(1, 3): DefenceSteal("feet", Gear(3))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="attack 2"), choices=choices)
    assert (caught.value.robot, caught.value.clause) == (1, "ATK-4")


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-CHOICES")
def test_chosen_steal_by_a_defender_nobody_attacked_is_refused() -> None:
    state = position(feet={2: [2]}, dumps={1: [], 2: []})
    choices = Choices(defence_steals={(1, 2): DefenceSteal("feet", Gear(2))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="attack 1", r2="harvest 2"), choices=choices)
    assert (caught.value.robot, caught.value.clause) == (1, "ATK-4")


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-CHOICES")
def test_chosen_steal_by_a_robot_that_attacked_instead_of_defending_is_refused() -> None:
    state = position(feet={1: [1], 2: [2]}, dumps={1: [], 2: []})
    choices = Choices(defence_steals={(2, 1): DefenceSteal("feet", Gear(1))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="attack 2", r2="attack 1"), choices=choices)
    assert (caught.value.robot, caught.value.clause) == (2, "ATK-4")


# --- ATK-5: the default defence steal --------------------------------------------------------


@pytest.mark.clause("ATK-5")
@pytest.mark.ruling("R-DEFENCE")
def test_default_steal_prefers_the_defenders_own_colour_even_from_the_circuit() -> None:
    assert choose_defence_steal(2, gears(1, 3), gears(2)) == DefenceSteal("circuit", Gear(2))


@pytest.mark.clause("ATK-5")
@pytest.mark.ruling("R-DEFENCE")
def test_default_steal_prefers_the_attackers_feet_on_equal_value() -> None:
    # Red in the circuit has the lower colour number, but place comes first.
    assert choose_defence_steal(5, gears(4), gears(1)) == DefenceSteal("feet", Gear(4))


@pytest.mark.clause("ATK-5")
@pytest.mark.ruling("R-DEFENCE")
def test_default_steal_takes_the_lowest_colour_on_equal_value_and_place() -> None:
    assert choose_defence_steal(5, gears(4, 2, 3), ()) == DefenceSteal("feet", Gear(2))
    assert choose_defence_steal(5, (), gears(4, 3)) == DefenceSteal("circuit", Gear(3))


@pytest.mark.clause("ATK-5")
@pytest.mark.ruling("R-DEFENCE")
def test_default_steal_takes_own_colour_from_the_feet_when_both_places_hold_it() -> None:
    assert choose_defence_steal(3, gears(1, 3), gears(3)) == DefenceSteal("feet", Gear(3))


@pytest.mark.clause("ATK-5")
@pytest.mark.ruling("R-DEFENCE")
def test_default_steal_takes_nothing_from_nothing() -> None:
    assert choose_defence_steal(1, (), ()) is None
    assert choose_defence_steal(1, (), gears(1, 2), "feet_only") is None
    assert choose_defence_steal(1, gears(2), gears(1), "feet_only") == DefenceSteal("feet", Gear(2))


@pytest.mark.clause("ATK-5")
@pytest.mark.ruling("R-DEFENCE", "R-CHOICES")
def test_absent_steal_choice_uses_the_default_policy() -> None:
    # Robot 2 holds green at its feet and red (robot 1's colour) in its circuit; robot 3
    # holds orange and yellow at its feet. Defaults: red from the circuit, orange.
    state = position(feet={2: [4], 3: [2, 3]}, circuit={2: [1]}, dumps={1: [], 2: [], 3: [], 4: []})
    laid = programs(r1="attack 1", r2="attack 1", r3="attack 1", r4="trap 4")
    result = resolve_turn(state, laid)
    assert resolve_turn(state, laid, choices=Choices()) == result
    assert feet_of(result.state) == {1: gears(1, 2), 2: gears(4), 3: gears(3), 4: ()}
    assert circuits_of(result.state) == {1: (), 2: (), 3: (), 4: ()}
    assert moves(result, "ATK-4") == Counter(
        [
            moved(1, Place.circuit(2), Place.feet(1), 1, "ATK-4"),
            moved(2, Place.feet(3), Place.feet(1), 1, "ATK-4"),
        ]
    )


# --- ATK-6: a successful attack takes the victim's feet gears --------------------------------


@pytest.mark.clause("ATK-6")
def test_attacker_takes_every_gear_at_the_victims_feet_but_not_its_circuit() -> None:
    state = position(feet={2: [2, 3]}, circuit={2: [2, 2]}, dumps={1: [], 2: []})
    result = resolve_turn(state, programs(r1="attack 2", r2="trap 1"))
    assert feet_of(result.state) == {1: gears(2, 3), 2: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(2, 2)}
    assert moves(result, "ATK-6") == Counter(
        [
            moved(2, Place.feet(2), Place.feet(1), 1, "ATK-6"),
            moved(3, Place.feet(2), Place.feet(1), 1, "ATK-6"),
        ]
    )
    assert outcomes(result) == [(1, HIT, "ATK-6"), (2, IDLE, "TRP-3")]


@pytest.mark.clause("ATK-6", "ASM-3")
def test_circuits_are_never_taken_by_attacks() -> None:
    state = position(circuit={2: [1, 2]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 2", r2="trap 1", r3="attack 2"))
    assert feet_of(result.state) == {1: (), 2: (), 3: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(1, 2), 3: ()}
    assert result.moves == ()
    assert outcomes(result) == [(1, HIT, "ATK-6"), (2, IDLE, "TRP-3"), (3, HIT, "ATK-6")]


@pytest.mark.clause("ATK-6")
def test_attacker_adds_the_victims_gears_to_its_own() -> None:
    state = position(feet={1: [1], 2: [2]}, circuit={1: [3]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 2", r2="trap 1", r3="trap 2"))
    assert feet_of(result.state) == {1: gears(1, 2), 2: (), 3: ()}
    assert circuits_of(result.state) == {1: gears(3), 2: (), 3: ()}
    assert moves(result, "ATK-6") == Counter([moved(2, Place.feet(2), Place.feet(1), 1, "ATK-6")])


@pytest.mark.clause("ATK-6")
def test_attacked_robot_keeps_what_it_harvests_after_the_attack() -> None:
    # Attacks come before harvests: robot 1 takes robot 2's yellow; robot 2's harvest of
    # its own dump lands afterwards and stays.
    state = position(feet={2: [3]}, dumps={1: [], 2: [1, 2], 3: []})
    result = resolve_turn(state, programs(r1="attack 2", r2="harvest 2", r3="trap 3"))
    assert feet_of(result.state) == {1: gears(3), 2: gears(1, 2), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: ()}
    assert moves(result, "ATK-6") == Counter([moved(3, Place.feet(2), Place.feet(1), 1, "ATK-6")])


# --- ATK-7: attacks are simultaneous ---------------------------------------------------------


@pytest.mark.clause("ATK-7")
@pytest.mark.ruling("R-SIMUL")
def test_chain_attack_passes_along_former_feet_gears() -> None:
    # 1 -> 2 -> 3: robot 1 gets robot 2's former gear, robot 2 gets robot 3's.
    state = position(feet={1: [1], 2: [2], 3: [3]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 2", r2="attack 3", r3="trap 1"))
    assert feet_of(result.state) == {1: gears(1, 2), 2: gears(3), 3: ()}
    assert moves(result, "ATK-6") == Counter(
        [
            moved(2, Place.feet(2), Place.feet(1), 1, "ATK-6"),
            moved(3, Place.feet(3), Place.feet(2), 2, "ATK-6"),
        ]
    )


@pytest.mark.clause("ATK-7")
@pytest.mark.ruling("R-SIMUL")
def test_chain_attack_from_the_high_numbers_down_passes_along_former_gears() -> None:
    # 3 -> 2 -> 1: robot 2's winnings (two reds) are not taken on by robot 3.
    state = position(feet={1: [1, 1], 2: [2]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="trap 1", r2="attack 1", r3="attack 2"))
    assert feet_of(result.state) == {1: (), 2: gears(1, 1), 3: gears(2)}
    assert moves(result, "ATK-6") == Counter(
        [
            moved(1, Place.feet(1), Place.feet(2), 2, "ATK-6"),
            moved(1, Place.feet(1), Place.feet(2), 2, "ATK-6"),
            moved(2, Place.feet(2), Place.feet(3), 3, "ATK-6"),
        ]
    )


@pytest.mark.clause("ATK-7")
@pytest.mark.ruling("R-SIMUL")
def test_mutual_attackers_swap_their_feet_gears() -> None:
    state = position(feet={1: [1, 3], 2: [2]}, circuit={1: [2]}, dumps={1: [], 2: []})
    result = resolve_turn(state, programs(r1="attack 2", r2="attack 1"))
    assert feet_of(result.state) == {1: gears(2), 2: gears(1, 3)}
    assert circuits_of(result.state) == {1: gears(2), 2: ()}
    assert moves(result, "ATK-6") == Counter(
        [
            moved(2, Place.feet(2), Place.feet(1), 1, "ATK-6"),
            moved(1, Place.feet(1), Place.feet(2), 2, "ATK-6"),
            moved(3, Place.feet(1), Place.feet(2), 2, "ATK-6"),
        ]
    )
    assert outcomes(result) == [(1, HIT, "ATK-6"), (2, HIT, "ATK-6")]


@pytest.mark.clause("ATK-7")
@pytest.mark.ruling("R-SIMUL")
def test_three_robot_attack_ring_rotates_the_feet_gears() -> None:
    state = position(feet={1: [1], 2: [2, 2], 3: [3]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 2", r2="attack 3", r3="attack 1"))
    assert feet_of(result.state) == {1: gears(2, 2), 2: gears(3), 3: gears(1)}


@pytest.mark.clause("ATK-7", "ATK-8")
@pytest.mark.ruling("R-SIMUL", "R-SPLIT")
def test_two_attackers_share_a_robot_that_is_itself_robbing_another() -> None:
    # Robots 1 and 2 attack robot 3, which attacks robot 4. Robots 1 and 2 split robot 3's
    # former gears (own colour first); robot 3 keeps robot 4's two greens.
    state = position(feet={3: [1, 2], 4: [4, 4]}, dumps={1: [], 2: [], 3: [], 4: []})
    result = resolve_turn(state, programs(r1="attack 3", r2="attack 3", r3="attack 4", r4="trap 4"))
    assert feet_of(result.state) == {1: gears(1), 2: gears(2), 3: gears(4, 4), 4: ()}
    assert splits(result) == [SplitResolved(Place.feet(3), (1, 2), 1, (), "SPL-1")]


# --- ATK-8: several attackers of one robot split ---------------------------------------------


@pytest.mark.clause("ATK-8", "SPL-3")
@pytest.mark.ruling("R-SPLIT")
def test_several_attackers_split_a_victims_feet() -> None:
    # Five gears, two attackers: two each, one stays at robot 3's feet. Own colour first
    # (red to 1, orange to 2), then yellow, yellow dealt in turn; the green stays.
    state = position(feet={3: [1, 2, 3, 3, 4]}, dumps={1: [], 2: [], 3: [], 4: []})
    result = resolve_turn(state, programs(r1="attack 3", r2="attack 3", r3="trap 3", r4="trap 4"))
    assert feet_of(result.state) == {1: gears(1, 3), 2: gears(2, 3), 3: gears(4), 4: ()}
    assert splits(result) == [SplitResolved(Place.feet(3), (1, 2), 2, gears(4), "SPL-1")]
    assert moves(result, "ATK-6") == Counter(
        [
            moved(1, Place.feet(3), Place.feet(1), 1, "ATK-6"),
            moved(3, Place.feet(3), Place.feet(1), 1, "ATK-6"),
            moved(2, Place.feet(3), Place.feet(2), 2, "ATK-6"),
            moved(3, Place.feet(3), Place.feet(2), 2, "ATK-6"),
        ]
    )


@pytest.mark.clause("ATK-8", "SPL-2")
@pytest.mark.ruling("R-SPLIT")
def test_attackers_have_priority_on_their_own_colour_at_the_victims_feet() -> None:
    # Robots 2 and 3 split robot 1's red, orange, yellow, yellow: robot 3 gets both
    # yellows, robot 2 its orange and the red.
    state = position(feet={1: [1, 2, 3, 3]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="trap 1", r2="attack 1", r3="attack 1"))
    assert feet_of(result.state) == {1: (), 2: gears(1, 2), 3: gears(3, 3)}
    assert splits(result) == [SplitResolved(Place.feet(1), (2, 3), 2, (), "SPL-1")]


@pytest.mark.clause("ATK-8", "SPL-4")
@pytest.mark.ruling("R-SPLIT")
def test_more_attackers_than_victims_gears_nobody_takes() -> None:
    state = position(feet={4: [1, 2]}, dumps={1: [], 2: [], 3: [], 4: []})
    result = resolve_turn(state, programs(r1="attack 4", r2="attack 4", r3="attack 4", r4="trap 1"))
    assert feet_of(result.state) == {1: (), 2: (), 3: (), 4: gears(1, 2)}
    assert splits(result) == [SplitResolved(Place.feet(4), (1, 2, 3), 0, gears(1, 2), "SPL-4")]
    assert moves(result, "ATK-6") == Counter()
    assert outcomes(result) == [
        (1, HIT, "ATK-6"),
        (2, HIT, "ATK-6"),
        (3, HIT, "ATK-6"),
        (4, IDLE, "TRP-3"),
    ]


@pytest.mark.clause("ATK-8", "SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_attackers_may_agree_on_another_legal_split_of_the_victims_feet() -> None:
    state = position(feet={3: [1, 2, 3, 3, 4]}, dumps={1: [], 2: [], 3: [], 4: []})
    choices = Choices(splits={Place.feet(3): {1: gears(1, 4), 2: gears(2, 3)}})
    result = resolve_turn(
        state, programs(r1="attack 3", r2="attack 3", r3="trap 3", r4="trap 4"), choices=choices
    )
    assert feet_of(result.state) == {1: gears(1, 4), 2: gears(2, 3), 3: gears(3), 4: ()}
    assert splits(result) == [SplitResolved(Place.feet(3), (1, 2), 2, gears(3), "SPL-1")]


@pytest.mark.clause("ATK-8", "SPL-5")
@pytest.mark.ruling("R-SPLIT", "R-CHOICES")
def test_split_of_the_victims_feet_denying_an_attacker_its_colour_is_refused() -> None:
    # Robot 2 must get the orange gear (its own colour); this split gives it to nobody.
    state = position(feet={3: [1, 2, 3, 3, 4]}, dumps={1: [], 2: [], 3: [], 4: []})
    choices = Choices(splits={Place.feet(3): {1: gears(1, 3), 2: gears(3, 4)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(
            state,
            programs(r1="attack 3", r2="attack 3", r3="trap 3", r4="trap 4"),
            choices=choices,
        )
    assert (caught.value.robot, caught.value.clause) == (2, "SPL-2")


@pytest.mark.clause("ATK-8", "ATK-3")
@pytest.mark.ruling("R-SPLIT", "R-DEFENCE")
def test_voided_attackers_do_not_share_in_a_split_of_another_victim() -> None:
    # Robot 4 defends against robot 1; robots 2 and 3 attack robot 1 and split its feet
    # after robot 4 took one gear (green, its own colour).
    state = position(feet={1: [2, 3, 4]}, dumps={1: [], 2: [], 3: [], 4: []})
    result = resolve_turn(
        state, programs(r1="attack 4", r2="attack 1", r3="attack 1", r4="attack 4")
    )
    assert feet_of(result.state) == {1: (), 2: gears(2), 3: gears(3), 4: gears(4)}
    assert splits(result) == [SplitResolved(Place.feet(1), (2, 3), 1, (), "SPL-1")]


# --- what a refused defence steal says, and the steal's defaults (issue 7) -------------------
# Each refusal names the defender, the attacker, the gear and the place, so that a table can
# tell which choice was wrong; these tests pin the words. They kill surviving mutants of
# attacks.check_defence_steal_choices, check_defence_steal and steal_from_attacker.


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-CHOICES")
def test_refused_steal_from_a_robot_that_attacked_someone_else_says_whom_it_attacked() -> None:
    state = position(feet={2: [2], 3: [3]}, dumps={1: [], 2: [], 3: []})
    choices = Choices(defence_steals={(1, 3): DefenceSteal("feet", Gear(3))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="attack 2"), choices=choices)
    assert str(caught.value) == (
        "robot 1: no defence steal from robot 3: it did not attack a defending robot 1 (ATK-4)"
    )


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-DEFENCE", "R-CHOICES")
def test_refused_circuit_steal_under_the_feet_only_option_names_the_option() -> None:
    state = position(
        feet={2: [3]}, circuit={2: [1]}, dumps={1: [], 2: [], 3: []}, options=FEET_ONLY
    )
    choices = Choices(defence_steals={(1, 2): DefenceSteal("circuit", Gear(1))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="trap 3"), choices=choices)
    assert str(caught.value) == (
        "robot 1: under defence_steal_source='feet_only' it cannot take from robot 2's circuit "
        "(ATK-4)"
    )


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-CHOICES")
def test_refused_steal_of_a_gear_the_attacker_does_not_hold_there_names_gear_and_place() -> None:
    # The red gear is in robot 2's circuit, not at its feet.
    state = position(feet={2: [2, 3]}, circuit={2: [1]}, dumps={1: [], 2: [], 3: []})
    choices = Choices(defence_steals={(1, 2): DefenceSteal("feet", Gear(1))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="attack 1", r2="attack 1", r3="trap 3"), choices=choices)
    assert str(caught.value) == "robot 1: robot 2 has no red gear in its feet (ATK-4)"


@pytest.mark.clause("ATK-4")
@pytest.mark.ruling("R-CHOICES")
def test_a_steal_forged_to_come_from_the_attackers_hand_is_refused_by_the_rule() -> None:
    # DefenceSteal refuses any place but "feet" and "circuit" when it is built; the rule
    # checks again, so a steal forged past that check still moves no gear.
    forged = DefenceSteal("feet", Gear(2))
    object.__setattr__(forged, "source", "hand")
    state = position(feet={2: [2]}, dumps={1: [], 2: []})
    choices = Choices(defence_steals={(1, 2): forged})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs(r1="attack 1", r2="attack 1"), choices=choices)
    assert (caught.value.robot, caught.value.clause) == (1, "ATK-4")
    assert caught.value.reason == "a defence steal comes from 'feet' or 'circuit', not 'hand'"


@pytest.mark.clause("ATK-4", "ATK-5")
@pytest.mark.ruling("R-DEFENCE")
def test_a_defence_steal_takes_from_what_the_attacker_holds_on_the_table_by_default() -> None:
    # Robot 2 holds a yellow at its feet and a red in its circuit. Robot 1 takes its own red
    # from the circuit, robot 3 its own yellow from the feet, each under ATK-4 unless told
    # otherwise; from what robot 2 would still hold (only the yellow), robot 1 takes the yellow.
    held = position(feet={2: [3]}, circuit={2: [1]}, dumps={1: [], 2: [], 3: []}).robot(2)
    assert choose_defence_steal(1, held.feet, held.circuit) == DefenceSteal("circuit", Gear(1))
    assert choose_defence_steal(3, held.feet, held.circuit) == DefenceSteal("feet", Gear(3))
    assert choose_defence_steal(1, gears(3), ()) == DefenceSteal("feet", Gear(3))


# --- R-SYMMETRY: the tie-break of the default steal ----------------------------------------


@pytest.mark.clause("ATK-5")
@pytest.mark.ruling("R-SYMMETRY", "R-DEFENCE")
def test_robot_5_defending_against_a_red_and_a_white_gear_takes_the_white() -> None:
    # Both are worth 1 to robot 5; the ring from robot 5 runs 6, 7, 8, 1, ...: white (key 2)
    # before red (key 3). The former reading, the lowest colour, took the red.
    assert choose_defence_steal(5, gears(1, 8), ()) == DefenceSteal("feet", Gear(8))
    state = position(feet={1: [1, 8]}, dumps={1: [], 5: [], 8: []}, reserve=[1, 5, 8])
    result = resolve_turn(state, programs(r1="attack 5", r5="attack 5", r8="harvest 8"))
    assert feet_of(result.state) == {1: gears(1), 5: gears(8), 8: ()}
    assert moves(result, "ATK-4") == Counter([moved(8, Place.feet(1), Place.feet(5), 5, "ATK-4")])


@pytest.mark.clause("ATK-5")
@pytest.mark.ruling("R-SYMMETRY", "R-DEFENCE")
def test_the_defender_prefers_the_colour_of_the_next_robot_clockwise_and_its_own_comes_first() -> (
    None
):
    # Robot 8's ring starts at red, wrapping round: red before orange before grey.
    assert choose_defence_steal(8, gears(2, 7), gears(1)) == DefenceSteal("feet", Gear(2))
    assert choose_defence_steal(8, (), gears(1, 2, 7)) == DefenceSteal("circuit", Gear(1))
    # Robot 3's ring: green, blue, ..., orange; its own yellow is worth more than any.
    assert choose_defence_steal(3, gears(2, 4, 5), ()) == DefenceSteal("feet", Gear(4))
    assert choose_defence_steal(3, gears(2, 4), gears(3)) == DefenceSteal("circuit", Gear(3))
    # Feet before circuit still comes before the ring: the circuit's green waits.
    assert choose_defence_steal(3, gears(2), gears(4)) == DefenceSteal("feet", Gear(2))
    # Under feet_only the ring decides among the feet.
    assert choose_defence_steal(7, gears(1, 6, 8), gears(7), "feet_only") == DefenceSteal(
        "feet", Gear(8)
    )


@pytest.mark.clause("ATK-3", "ATK-4")
def test_two_robots_defend_and_only_one_is_attacked() -> None:
    # Robots 1 and 2 defend; only robot 3 attacks, robot 1. Robot 1 takes robot 3's red; robot
    # 2's defence is untested and takes nothing.
    state = position(feet={3: [1]}, dumps={1: [], 2: [], 3: []})
    result = resolve_turn(state, programs(r1="attack 1", r2="attack 2", r3="attack 1"))
    assert feet_of(result.state) == {1: gears(1), 2: (), 3: ()}
    assert outcomes(result) == [
        (1, Outcome.DEFENDED, "ATK-3"),
        (2, Outcome.DEFENDED_UNTESTED, "ATK-3"),
        (3, Outcome.ATTACK_VOIDED, "ATK-3"),
    ]


@pytest.mark.clause("ATK-5")
@pytest.mark.ruling("R-SYMMETRY", "R-DEFENCE")
def test_a_defender_whose_best_colour_is_in_the_circuit_takes_the_feet_gear_first_in_its_ring() -> (
    None
):
    # Robot 5 defends against robot 2, whose feet hold a red and a white and whose circuit a
    # purple: all worth 1 to robot 5. The purple comes first in robot 5's ring, but a feet gear
    # comes before a circuit gear; of the two at the feet, white (two seats on) before red.
    assert choose_defence_steal(5, gears(1, 8), gears(6)) == DefenceSteal("feet", Gear(8))
    state = position(feet={2: [1, 8]}, circuit={2: [6]}, dumps={n: [] for n in range(1, 6)})
    laid = programs(r1="attack 1", r2="attack 5", r3="attack 3", r4="attack 4", r5="attack 5")
    assert feet_of(resolve_turn(state, laid).state)[5] == gears(8)
