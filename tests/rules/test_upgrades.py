"""The Robot Upgrades expansion at the table (spec UPG-1 to UPG-4, SHARV-1, SATK-1, SATK-2,
STRAP-1, SHOV-1, CDEF-1, CDEF-2).

Rulings checked: R-UPG-DECK (the deck and the deal), R-UPG-VARIANT (upgrades in the two-robot
variant), R-SUPER-HARVEST, R-SUPER-ATTACK, R-SHOVEL, R-COUNTER-DEFENCE, and R-TRAP where a
Super Trap is involved.

Every expected value below was worked out by hand from the French rulebook (FR-UPG-*) and the
readings of issue 3, not read off the engine. Positions keep the reserve empty (no exploration)
unless a test says otherwise; where a robot ends a turn with three or more gears at its feet,
the default assembly (the two gears worth most to it, then the lowest colour) is spelt out.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

import attrs
import pytest

from outofgears import (
    ActionResolved,
    Choices,
    DefenceSteal,
    GameState,
    Gear,
    GearMoved,
    IllegalChoiceError,
    IllegalProgramError,
    InvalidStateError,
    Options,
    Outcome,
    Place,
    SetupError,
    SplitResolved,
    TurnResult,
    from_position,
    gears,
    resolve_turn,
    setup_game,
    setup_two_robot_game,
    validate_programs,
)
from outofgears.rules.attacks import attackers_by_target
from outofgears.rules.events import UpgradeDiscarded
from outofgears.rules.model import DEFAULT_UPGRADE_DECK, UpgradeCard
from outofgears.rules.programs import (
    AnyProgram,
    Program,
    ProgramReading,
    UpgradeProgram,
    parse_program,
)
from tests.helpers import circuits_of, dumps_of, feet_of, position, splits

# --- helpers ---------------------------------------------------------------------------------

UPGRADES = Options(upgrades=True)
ADA_AND_BO = {"Ada": (1, 2), "Bo": (3, 4)}

SUPER_HARVEST = UpgradeCard.SUPER_HARVEST
SUPER_ATTACK = UpgradeCard.SUPER_ATTACK
SUPER_TRAP = UpgradeCard.SUPER_TRAP
SUPER_SHOVEL = UpgradeCard.SUPER_SHOVEL
COUNTER_DEFENCE = UpgradeCard.COUNTER_DEFENCE

HIT, VOIDED = Outcome.ATTACK_HIT, Outcome.ATTACK_VOIDED
DEFENDED, UNTESTED = Outcome.DEFENDED, Outcome.DEFENDED_UNTESTED
COUNTERED, UNUSED = Outcome.DEFENCE_COUNTERED, Outcome.COUNTER_UNUSED
SPRUNG, IDLE = Outcome.TRAP_SPRUNG, Outcome.TRAP_IDLE
HARVESTED, HARVEST_VOIDED = Outcome.HARVEST_DONE, Outcome.HARVEST_VOIDED
SHOVELLED = Outcome.SHOVELLED


#: A position from colour numbers and the upgrade cards the players still hold (``upgrades``):
#: :func:`tests.helpers.position` with the expansion on by default.
table = partial(position, options=UPGRADES)


def deck(*cards: UpgradeCard) -> Options:
    """The expansion on, with this upgrade deck."""
    return Options(upgrades=True, upgrade_deck=cards)


def laid(**by_robot: str) -> dict[int, AnyProgram]:
    """Programs as a table says them, upgrades included: ``laid(r1="super attack")``."""
    return {int(name.lstrip("r")): parse_program(text) for name, text in by_robot.items()}


def held_cards(state: GameState) -> dict[str, UpgradeCard | None]:
    """The upgrade card each player still holds."""
    return {player.name: player.upgrade for player in state.players}


def all_moves(result: TurnResult) -> Counter[GearMoved]:
    """Every gear movement of the turn, as a multiset."""
    return Counter(result.moves)


def outcomes(result: TurnResult) -> Counter[tuple[int, Outcome, str]]:
    """Every program's outcomes with their deciding clauses (an upgrade can have several)."""
    return Counter(
        (e.robot, e.outcome, e.clause) for e in result.events if isinstance(e, ActionResolved)
    )


def discards(result: TurnResult) -> list[UpgradeDiscarded]:
    """The upgrade cards discarded at the end of the turn."""
    return [e for e in result.events if isinstance(e, UpgradeDiscarded)]


def take(colour: int, source: Place, robot: int, clause: str) -> GearMoved:
    """A gear taken from ``source`` to ``robot``'s feet."""
    return GearMoved(Gear(colour), source, Place.feet(robot), robot, clause)


def assemble(colour: int, robot: int) -> GearMoved:
    """A gear moved from ``robot``'s feet into its circuit."""
    return GearMoved(Gear(colour), Place.feet(robot), Place.circuit(robot), robot, "ASM-1")


def first_index(result: TurnResult, clause: str) -> int:
    """The position in the events of the first gear moved under ``clause``."""
    return next(
        i for i, e in enumerate(result.events) if isinstance(e, GearMoved) and e.clause == clause
    )


def last_index(result: TurnResult, clause: str) -> int:
    """The position in the events of the last gear moved under ``clause``."""
    return max(
        i for i, e in enumerate(result.events) if isinstance(e, GearMoved) and e.clause == clause
    )


# --- UPG-1: the deck and the deal ------------------------------------------------------------


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_default_upgrade_deck_holds_two_cards_of_each_kind() -> None:
    assert len(DEFAULT_UPGRADE_DECK) == 10
    assert Counter(DEFAULT_UPGRADE_DECK) == dict.fromkeys(UpgradeCard, 2)
    assert Options(upgrades=True).upgrade_deck == DEFAULT_UPGRADE_DECK


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_each_player_is_dealt_one_card_face_down_at_setup() -> None:
    state = setup_game([2, 4, 5, 7, 8], seed=11, options=UPGRADES)
    held = held_cards(state)
    assert sorted(held) == ["P2", "P4", "P5", "P7", "P8"]
    cards = [card for card in held.values() if card is not None]
    assert len(cards) == 5
    # Dealt from the deck: never more cards of a kind than the deck's two.
    assert not Counter(cards) - Counter(DEFAULT_UPGRADE_DECK)


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_a_deck_of_one_card_per_player_is_dealt_out_entirely() -> None:
    cards = (SUPER_HARVEST, SUPER_ATTACK, SUPER_TRAP, SUPER_SHOVEL, COUNTER_DEFENCE)
    state = setup_game([1, 3, 5, 6, 8], seed=3, options=deck(*cards))
    assert Counter(held_cards(state).values()) == Counter(cards)


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_a_deck_of_only_super_traps_deals_a_super_trap_to_everyone() -> None:
    only_traps = deck(*(SUPER_TRAP,) * 4)
    state = setup_game([1, 2, 3], seed=5, options=only_traps)
    assert held_cards(state) == {"P1": SUPER_TRAP, "P2": SUPER_TRAP, "P3": SUPER_TRAP}


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_same_seed_deals_the_same_cards_and_the_deal_is_shuffled() -> None:
    first = setup_game([1, 2, 3, 4], seed=2026, options=UPGRADES)
    again = setup_game([1, 2, 3, 4], seed=2026, options=UPGRADES)
    assert held_cards(first) == held_cards(again)
    assert first == again
    deals = {
        tuple(held_cards(setup_game([1, 2, 3, 4], seed=seed, options=UPGRADES)).values())
        for seed in range(20)
    }
    assert len(deals) > 1


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_the_deal_comes_after_the_gears_so_a_seed_places_the_same_gears() -> None:
    for seed in (0, 1, 99):
        plain = setup_game([1, 2, 3], seed=seed)
        with_cards = setup_game([1, 2, 3], seed=seed, options=UPGRADES)
        assert dumps_of(with_cards) == dumps_of(plain)
        assert with_cards.reserve == plain.reserve


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK", "R-UPG-VARIANT")
@pytest.mark.parametrize("seed", [0, 7, 2026])
def test_the_deck_is_shuffled_after_the_reserve_and_dealt_from_the_lowest_robot_up(
    seed: int,
) -> None:
    # The game's Random(seed) shuffles the reserve first (how it draws depends only on the
    # reserve's size), then the deck; the first card goes to the lowest robot's player.
    # Bo, with robot 1, is dealt before Ada, with robots 3 and 4.
    rng = random.Random(seed)
    rng.shuffle([None] * (4 * 11))
    shuffled = list(DEFAULT_UPGRADE_DECK)
    rng.shuffle(shuffled)
    state = setup_two_robot_game({"Ada": (3, 4), "Bo": (1, 2)}, seed=seed, options=UPGRADES)
    assert held_cards(state) == {"Bo": shuffled[0], "Ada": shuffled[1]}
    rng = random.Random(seed)
    rng.shuffle([None] * (3 * 11))
    shuffled = list(DEFAULT_UPGRADE_DECK)
    rng.shuffle(shuffled)
    state = setup_game([2, 5, 6], seed=seed, options=UPGRADES)
    assert held_cards(state) == {"P2": shuffled[0], "P5": shuffled[1], "P6": shuffled[2]}


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_an_upgrade_deck_smaller_than_the_number_of_players_is_refused() -> None:
    short = deck(SUPER_ATTACK, SUPER_SHOVEL)
    with pytest.raises(SetupError) as caught:
        setup_game([1, 2, 3], seed=1, options=short)
    assert caught.value.clause == "UPG-1"


@pytest.mark.clause("UPG-1", "UPG-4")
@pytest.mark.ruling("R-UPG-DECK", "R-UPG-VARIANT")
def test_two_robot_players_are_dealt_one_card_per_player_not_per_robot() -> None:
    two_cards = deck(SUPER_ATTACK, COUNTER_DEFENCE)
    state = setup_two_robot_game(ADA_AND_BO, seed=4, options=two_cards)
    assert Counter(held_cards(state).values()) == Counter([SUPER_ATTACK, COUNTER_DEFENCE])
    one_card = deck(SUPER_ATTACK)
    with pytest.raises(SetupError) as caught:
        setup_two_robot_game(ADA_AND_BO, seed=4, options=one_card)
    assert caught.value.clause == "UPG-1"


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_without_the_expansion_nobody_holds_an_upgrade_card() -> None:
    switched_off = attrs.evolve(deck(*(SUPER_TRAP,) * 3), upgrades=False)
    state = setup_game([1, 2, 3], seed=8, options=switched_off)
    assert held_cards(state) == {"P1": None, "P2": None, "P3": None}
    with pytest.raises(InvalidStateError):
        table(dumps={1: [], 2: []}, upgrades={"P1": SUPER_TRAP}, options=Options())


# --- UPG-2: laying an upgrade instead of a program -------------------------------------------


@pytest.mark.clause("UPG-2")
def test_upgrade_cards_are_read_from_the_table_s_words() -> None:
    assert parse_program("super harvest") == UpgradeProgram(SUPER_HARVEST)
    assert parse_program("super attack") == UpgradeProgram(SUPER_ATTACK)
    assert parse_program("super trap") == UpgradeProgram(SUPER_TRAP)
    assert parse_program("super shovel") == UpgradeProgram(SUPER_SHOVEL)
    assert parse_program("counter defence") == UpgradeProgram(COUNTER_DEFENCE)
    assert parse_program("trap 3") == Program.parse("trap 3")
    # One grammar, the log's: the card's name as written, and nothing else.
    for text in ("Super Attack", "super_trap", "SUPER SHOVEL", "counter-defence"):
        with pytest.raises(InvalidStateError, match="is not a program: write"):
            parse_program(text)


@pytest.mark.clause("UPG-2")
def test_upgrade_laid_when_the_expansion_is_off_is_illegal() -> None:
    state = table(dumps={1: [1], 2: [2]}, options=Options())
    with pytest.raises(IllegalProgramError) as caught:
        resolve_turn(state, laid(r1="super harvest", r2="attack 2"))
    assert (caught.value.robot, caught.value.clause) == (1, "UPG-2")
    assert str(caught.value).startswith("robot 1: ")


@pytest.mark.clause("UPG-2", "UPG-3")
def test_upgrade_the_player_holds_replaces_its_program_and_is_legal() -> None:
    state = table(dumps={1: [1], 2: [2]}, upgrades={"P2": SUPER_SHOVEL})
    validate_programs(state, laid(r1="harvest 1", r2="super shovel"))


# --- UPG-3: once per game, discarded at the end of the turn ----------------------------------


@pytest.mark.clause("UPG-3", "SHARV-1")
@pytest.mark.ruling("R-SUPER-HARVEST")
def test_played_upgrade_is_discarded_and_cannot_be_laid_again() -> None:
    # Turn 1: robot 1 super-harvests both dumps; exploration refills them, so the game
    # goes on. Robot 2 keeps the card it did not play. Turn 2: robot 1's card is gone.
    state = table(
        dumps={1: [1], 2: [2]},
        reserve=[3, 4],
        upgrades={"P1": SUPER_HARVEST, "P2": SUPER_TRAP},
    )
    result = resolve_turn(state, laid(r1="super harvest", r2="attack 2"))
    after = result.state
    assert feet_of(after) == {1: gears(1, 2), 2: ()}
    assert dumps_of(after) == {1: gears(3), 2: gears(4)}
    assert not after.game_over
    assert discards(result) == [UpgradeDiscarded(1, "P1", SUPER_HARVEST, "UPG-3")]
    assert held_cards(after) == {"P1": None, "P2": SUPER_TRAP}
    with pytest.raises(IllegalProgramError) as caught:
        resolve_turn(after, laid(r1="super harvest", r2="attack 2"))
    assert (caught.value.robot, caught.value.clause) == (1, "UPG-3")
    assert str(caught.value).startswith("robot 1: ")


@pytest.mark.clause("UPG-3")
def test_upgrade_never_dealt_to_the_player_is_illegal() -> None:
    state = table(dumps={1: [1], 2: [2], 3: []}, upgrades={"P1": SUPER_TRAP})
    with pytest.raises(IllegalProgramError) as caught:
        resolve_turn(state, laid(r1="harvest 1", r2="harvest 2", r3="super shovel"))
    assert (caught.value.robot, caught.value.clause) == (3, "UPG-3")
    assert str(caught.value).startswith("robot 3: ")


@pytest.mark.clause("UPG-3")
def test_upgrade_other_than_the_one_held_is_illegal() -> None:
    state = table(dumps={1: [1], 2: [2]}, upgrades={"P1": SUPER_TRAP})
    with pytest.raises(IllegalProgramError) as caught:
        resolve_turn(state, laid(r1="super attack", r2="harvest 2"))
    assert (caught.value.robot, caught.value.clause) == (1, "UPG-3")


@pytest.mark.clause("UPG-3")
def test_unplayed_upgrade_card_stays_with_its_player() -> None:
    state = table(dumps={1: [1], 2: [2]}, upgrades={"P1": SUPER_ATTACK, "P2": COUNTER_DEFENCE})
    result = resolve_turn(state, laid(r1="harvest 1", r2="harvest 2"))
    assert discards(result) == []
    assert held_cards(result.state) == {"P1": SUPER_ATTACK, "P2": COUNTER_DEFENCE}


# --- UPG-4: upgrades in the two-robot variant ------------------------------------------------


@pytest.mark.clause("UPG-4", "SHARV-1", "STRAP-1")
@pytest.mark.ruling("R-UPG-VARIANT", "R-SUPER-HARVEST", "R-TRAP")
def test_one_robot_lays_the_upgrade_while_its_partner_harvests_with_the_harvest_card() -> None:
    # Ada: robot 1 lays her Super Harvest, robot 2 harvests dump 2 with her Harvest card.
    # Bo: robot 3 traps dump 3, robot 4 defends. Dump 3: the super harvest is voided and
    # the trap springs. Dump 2: robots 1 and 2 share (own colour: the orange to robot 2,
    # then the yellow to robot 1). Dump 1 and the empty dump 4 go to robot 1 alone.
    state = table(
        dumps={1: [1], 2: [2, 3], 3: [4], 4: []},
        players=ADA_AND_BO,
        upgrades={"Ada": SUPER_HARVEST},
    )
    result = resolve_turn(
        state, laid(r1="super harvest", r2="harvest 2", r3="trap 3", r4="attack 4")
    )
    assert feet_of(result.state) == {1: gears(1, 3), 2: gears(2), 3: gears(4), 4: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: (), 4: ()}
    assert all_moves(result) == Counter(
        [
            take(4, Place.dump(3), 3, "TRP-3"),
            take(1, Place.dump(1), 1, "SHARV-1"),
            take(3, Place.dump(2), 1, "SHARV-1"),
            take(2, Place.dump(2), 2, "HRV-2"),
        ]
    )
    assert splits(result) == [SplitResolved(Place.dump(2), (1, 2), 1, (), "SPL-1")]
    assert outcomes(result) == Counter(
        [
            (1, HARVEST_VOIDED, "TRP-2"),
            (3, SPRUNG, "TRP-3"),
            (1, HARVESTED, "SHARV-1"),
            (1, HARVESTED, "SHARV-1"),
            (1, HARVESTED, "SHARV-1"),
            (2, HARVESTED, "HRV-2"),
            (4, UNTESTED, "ATK-3"),
        ]
    )
    assert discards(result) == [UpgradeDiscarded(1, "Ada", SUPER_HARVEST, "UPG-3")]
    assert held_cards(result.state) == {"Ada": None, "Bo": None}


@pytest.mark.clause("UPG-4")
@pytest.mark.ruling("R-UPG-VARIANT")
@pytest.mark.parametrize("partner", ["attack 3", "trap 3", "harvest 3"])
def test_partner_of_the_robot_laying_the_upgrade_may_use_any_action_card(partner: str) -> None:
    state = table(
        dumps={1: [1], 2: [2], 3: [3], 4: [4]},
        players=ADA_AND_BO,
        upgrades={"Ada": SUPER_ATTACK},
    )
    validate_programs(state, laid(r1="super attack", r2=partner, r3="trap 1", r4="harvest 4"))
    validate_programs(state, laid(r1=partner, r2="super attack", r3="trap 1", r4="harvest 4"))


@pytest.mark.clause("UPG-4")
@pytest.mark.ruling("R-UPG-VARIANT")
def test_both_robots_of_a_player_laying_its_upgrade_is_illegal() -> None:
    state = table(
        dumps={1: [1], 2: [2], 3: [3], 4: [4]},
        players=ADA_AND_BO,
        upgrades={"Ada": SUPER_TRAP},
    )
    with pytest.raises(IllegalProgramError) as caught:
        validate_programs(
            state, laid(r1="super trap", r2="super trap", r3="harvest 1", r4="attack 4")
        )
    assert (caught.value.robot, caught.value.clause) == (2, "UPG-4")
    assert str(caught.value).startswith("robot 2: ")


# --- SHARV-1: Super Harvest ------------------------------------------------------------------


@pytest.mark.clause("SHARV-1")
@pytest.mark.ruling("R-SUPER-HARVEST")
def test_super_harvest_takes_every_dump_in_play() -> None:
    # Robot 1 takes all four gears, then assembles its red and the lowest other, the orange.
    state = table(dumps={1: [2], 2: [1, 3], 3: [3]}, upgrades={"P1": SUPER_HARVEST})
    result = resolve_turn(state, laid(r1="super harvest", r2="attack 2", r3="attack 3"))
    assert feet_of(result.state) == {1: gears(3, 3), 2: (), 3: ()}
    assert circuits_of(result.state) == {1: gears(1, 2), 2: (), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: ()}
    assert all_moves(result) == Counter(
        [
            take(2, Place.dump(1), 1, "SHARV-1"),
            take(1, Place.dump(2), 1, "SHARV-1"),
            take(3, Place.dump(2), 1, "SHARV-1"),
            take(3, Place.dump(3), 1, "SHARV-1"),
            assemble(1, 1),
            assemble(2, 1),
        ]
    )
    assert outcomes(result) == Counter(
        [
            (1, HARVESTED, "SHARV-1"),
            (1, HARVESTED, "SHARV-1"),
            (1, HARVESTED, "SHARV-1"),
            (2, UNTESTED, "ATK-3"),
            (3, UNTESTED, "ATK-3"),
        ]
    )


@pytest.mark.clause("SHARV-1", "TRP-2", "TRP-3")
@pytest.mark.ruling("R-SUPER-HARVEST", "R-TRAP")
def test_super_harvest_on_a_trapped_dump_springs_the_trap_and_harvests_the_others() -> None:
    # Robot 2 traps dump 2, which only robot 1's Super Harvest harvests: that is enough for
    # the trap to spring. Robot 1 takes dumps 1 and 4 alone and shares dump 3 with robot 3
    # (each its own colour), then assembles its two reds.
    state = table(
        dumps={1: [1, 2], 2: [3, 4], 3: [1, 3], 4: [2]},
        upgrades={"P1": SUPER_HARVEST},
    )
    result = resolve_turn(
        state, laid(r1="super harvest", r2="trap 2", r3="harvest 3", r4="attack 4")
    )
    assert feet_of(result.state) == {1: gears(2, 2), 2: gears(3, 4), 3: gears(3), 4: ()}
    assert circuits_of(result.state) == {1: gears(1, 1), 2: (), 3: (), 4: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: (), 4: ()}
    assert all_moves(result) == Counter(
        [
            take(3, Place.dump(2), 2, "TRP-3"),
            take(4, Place.dump(2), 2, "TRP-3"),
            take(1, Place.dump(1), 1, "SHARV-1"),
            take(2, Place.dump(1), 1, "SHARV-1"),
            take(1, Place.dump(3), 1, "SHARV-1"),
            take(3, Place.dump(3), 3, "HRV-2"),
            take(2, Place.dump(4), 1, "SHARV-1"),
            assemble(1, 1),
            assemble(1, 1),
        ]
    )
    assert splits(result) == [SplitResolved(Place.dump(3), (1, 3), 1, (), "SPL-1")]
    assert outcomes(result) == Counter(
        [
            (1, HARVEST_VOIDED, "TRP-2"),
            (2, SPRUNG, "TRP-3"),
            (1, HARVESTED, "SHARV-1"),
            (1, HARVESTED, "SHARV-1"),
            (1, HARVESTED, "SHARV-1"),
            (3, HARVESTED, "HRV-2"),
            (4, UNTESTED, "ATK-3"),
        ]
    )


# --- STRAP-1: Super Trap ---------------------------------------------------------------------


@pytest.mark.clause("STRAP-1", "UPG-3")
@pytest.mark.ruling("R-TRAP")
def test_super_trap_with_no_harvest_anywhere_takes_nothing() -> None:
    state = table(dumps={1: [1], 2: [2, 2], 3: [3]}, upgrades={"P1": SUPER_TRAP})
    result = resolve_turn(state, laid(r1="super trap", r2="attack 2", r3="attack 3"))
    assert feet_of(result.state) == {1: (), 2: (), 3: ()}
    assert dumps_of(result.state) == {1: gears(1), 2: gears(2, 2), 3: gears(3)}
    assert all_moves(result) == Counter()
    assert outcomes(result) == Counter(
        [
            (1, IDLE, "STRAP-1"),
            (1, IDLE, "STRAP-1"),
            (1, IDLE, "STRAP-1"),
            (2, UNTESTED, "ATK-3"),
            (3, UNTESTED, "ATK-3"),
        ]
    )
    # The card was played, so it is spent even though it took nothing.
    assert discards(result) == [UpgradeDiscarded(1, "P1", SUPER_TRAP, "UPG-3")]
    assert held_cards(result.state)["P1"] is None


@pytest.mark.clause("STRAP-1", "TRP-4")
@pytest.mark.ruling("R-TRAP", "R-SPLIT")
def test_super_trap_takes_only_harvested_dumps_sharing_with_the_other_trapper() -> None:
    # Robot 2 harvests dump 2, which robot 3 traps too. The Super Trap springs there only:
    # robots 1 and 3 split red, yellow, green one each (own colours), the green stays.
    state = table(
        dumps={1: [1], 2: [1, 3, 4], 3: [1, 3], 4: [4]},
        upgrades={"P1": SUPER_TRAP},
    )
    result = resolve_turn(state, laid(r1="super trap", r2="harvest 2", r3="trap 2", r4="attack 4"))
    assert feet_of(result.state) == {1: gears(1), 2: (), 3: gears(3), 4: ()}
    assert dumps_of(result.state) == {1: gears(1), 2: gears(4), 3: gears(1, 3), 4: gears(4)}
    assert all_moves(result) == Counter(
        [take(1, Place.dump(2), 1, "STRAP-1"), take(3, Place.dump(2), 3, "TRP-3")]
    )
    assert splits(result) == [SplitResolved(Place.dump(2), (1, 3), 1, gears(4), "SPL-1")]
    assert outcomes(result) == Counter(
        [
            (1, IDLE, "STRAP-1"),
            (1, SPRUNG, "STRAP-1"),
            (1, IDLE, "STRAP-1"),
            (1, IDLE, "STRAP-1"),
            (2, HARVEST_VOIDED, "TRP-2"),
            (3, SPRUNG, "TRP-3"),
            (4, UNTESTED, "ATK-3"),
        ]
    )


@pytest.mark.clause("STRAP-1", "SHARV-1")
@pytest.mark.ruling("R-TRAP", "R-SUPER-HARVEST")
def test_super_trap_against_super_harvest_takes_every_dump() -> None:
    # Every dump is trapped and harvested: the Super Harvest is voided everywhere and the
    # Super Trap takes red, orange, orange, then assembles its red and an orange.
    state = table(dumps={1: [1, 2], 2: [2]}, upgrades={"P1": SUPER_TRAP, "P2": SUPER_HARVEST})
    result = resolve_turn(state, laid(r1="super trap", r2="super harvest"))
    assert feet_of(result.state) == {1: gears(2), 2: ()}
    assert circuits_of(result.state) == {1: gears(1, 2), 2: ()}
    assert dumps_of(result.state) == {1: (), 2: ()}
    assert all_moves(result) == Counter(
        [
            take(1, Place.dump(1), 1, "STRAP-1"),
            take(2, Place.dump(1), 1, "STRAP-1"),
            take(2, Place.dump(2), 1, "STRAP-1"),
            assemble(1, 1),
            assemble(2, 1),
        ]
    )
    assert outcomes(result) == Counter(
        [
            (1, SPRUNG, "STRAP-1"),
            (1, SPRUNG, "STRAP-1"),
            (2, HARVEST_VOIDED, "TRP-2"),
            (2, HARVEST_VOIDED, "TRP-2"),
        ]
    )
    assert discards(result) == [
        UpgradeDiscarded(1, "P1", SUPER_TRAP, "UPG-3"),
        UpgradeDiscarded(2, "P2", SUPER_HARVEST, "UPG-3"),
    ]


# --- SATK-1: Super Attack --------------------------------------------------------------------


@pytest.mark.clause("SATK-1")
@pytest.mark.ruling("R-SUPER-ATTACK")
def test_super_attack_takes_the_feet_of_every_other_robot() -> None:
    # Robot 1 takes robot 2's orange and yellow (not its circuit) and robot 3's red, then
    # assembles its red and the orange. Robot 2 harvests afterwards; robot 3's trap is idle.
    state = table(
        feet={2: [2, 3], 3: [1]},
        circuit={2: [2]},
        dumps={1: [], 2: [4], 3: []},
        upgrades={"P1": SUPER_ATTACK},
    )
    result = resolve_turn(state, laid(r1="super attack", r2="harvest 2", r3="trap 1"))
    assert feet_of(result.state) == {1: gears(3), 2: gears(4), 3: ()}
    assert circuits_of(result.state) == {1: gears(1, 2), 2: gears(2), 3: ()}
    assert all_moves(result) == Counter(
        [
            take(2, Place.feet(2), 1, "SATK-1"),
            take(3, Place.feet(2), 1, "SATK-1"),
            take(1, Place.feet(3), 1, "SATK-1"),
            take(4, Place.dump(2), 2, "HRV-2"),
            assemble(1, 1),
            assemble(2, 1),
        ]
    )
    assert outcomes(result) == Counter(
        [
            (1, HIT, "SATK-1"),
            (1, HIT, "SATK-1"),
            (2, HARVESTED, "HRV-2"),
            (3, IDLE, "TRP-3"),
        ]
    )


@pytest.mark.clause("SATK-1", "UPG-4")
@pytest.mark.ruling("R-SUPER-ATTACK", "R-UPG-VARIANT")
def test_super_attack_in_the_two_robot_variant_also_robs_the_partner() -> None:
    # Ada's robot 1 attacks robots 2 (her own), 3 and 4; robot 2 harvests an empty dump.
    state = table(
        feet={2: [2, 3], 3: [1]},
        dumps={1: [4], 2: [], 3: [], 4: []},
        players=ADA_AND_BO,
        upgrades={"Ada": SUPER_ATTACK},
    )
    result = resolve_turn(
        state, laid(r1="super attack", r2="harvest 2", r3="trap 4", r4="harvest 1")
    )
    assert feet_of(result.state) == {1: gears(3), 2: (), 3: (), 4: gears(4)}
    assert circuits_of(result.state) == {1: gears(1, 2), 2: (), 3: (), 4: ()}
    assert all_moves(result) == Counter(
        [
            take(2, Place.feet(2), 1, "SATK-1"),
            take(3, Place.feet(2), 1, "SATK-1"),
            take(1, Place.feet(3), 1, "SATK-1"),
            take(4, Place.dump(1), 4, "HRV-2"),
            assemble(1, 1),
            assemble(2, 1),
        ]
    )
    assert outcomes(result) == Counter(
        [
            (1, HIT, "SATK-1"),
            (1, HIT, "SATK-1"),
            (1, HIT, "SATK-1"),
            (2, HARVESTED, "HRV-2"),
            (3, IDLE, "TRP-3"),
            (4, HARVESTED, "HRV-2"),
        ]
    )


@pytest.mark.clause("SATK-1", "ATK-8")
@pytest.mark.ruling("R-SUPER-ATTACK", "R-SPLIT", "R-SIMUL")
def test_super_attacker_shares_an_undefended_robot_with_its_other_attacker() -> None:
    # Robots 1 (Super Attack) and 2 both attack robot 3: two gears each, own colour first,
    # then a yellow each. Robot 1 also takes robot 2's green (not what robot 2 gains in the
    # same step), then assembles its red and a yellow.
    state = table(
        feet={2: [4], 3: [1, 2, 3, 3]},
        dumps={1: [], 2: [], 3: [5]},
        upgrades={"P1": SUPER_ATTACK},
    )
    result = resolve_turn(state, laid(r1="super attack", r2="attack 3", r3="harvest 3"))
    assert feet_of(result.state) == {1: gears(4), 2: gears(2, 3), 3: gears(5)}
    assert circuits_of(result.state) == {1: gears(1, 3), 2: (), 3: ()}
    assert splits(result) == [SplitResolved(Place.feet(3), (1, 2), 2, (), "SPL-1")]
    assert all_moves(result) == Counter(
        [
            take(4, Place.feet(2), 1, "SATK-1"),
            take(1, Place.feet(3), 1, "SATK-1"),
            take(3, Place.feet(3), 1, "SATK-1"),
            take(2, Place.feet(3), 2, "ATK-6"),
            take(3, Place.feet(3), 2, "ATK-6"),
            take(5, Place.dump(3), 3, "HRV-2"),
            assemble(1, 1),
            assemble(3, 1),
        ]
    )


# --- SATK-2: defenders against a Super Attack ------------------------------------------------


def two_defenders_table() -> GameState:
    """Robot 1 (yellow, green at its feet; red in its circuit) holds a Super Attack."""
    return table(
        feet={1: [3, 4], 4: [2]},
        circuit={1: [1]},
        dumps={1: [], 2: [], 3: [], 4: [4]},
        upgrades={"P1": SUPER_ATTACK},
    )


TWO_DEFENDERS = laid(r1="super attack", r2="attack 2", r3="attack 3", r4="harvest 4")


@pytest.mark.clause("SATK-2", "SATK-1", "ATK-5")
@pytest.mark.ruling("R-SUPER-ATTACK", "R-DEFENCE")
def test_super_attack_against_two_defenders_loses_a_gear_to_each_in_robot_order() -> None:
    # Robot 2, the first defender clockwise after robot 1, chooses first: every gear is worth
    # 1 to it, so it takes the first colour after its own at robot 1's feet, the yellow --
    # robot 3's own colour (R-SYMMETRY). Robot 3 then takes from what is
    # left: the green at the feet (before the red in the circuit). The attacks on 2 and 3
    # are voided; the one on robot 4 hits.
    result = resolve_turn(two_defenders_table(), TWO_DEFENDERS)
    assert feet_of(result.state) == {1: gears(2), 2: gears(3), 3: gears(4), 4: gears(4)}
    assert circuits_of(result.state) == {1: gears(1), 2: (), 3: (), 4: ()}
    steal_2 = take(3, Place.feet(1), 2, "SATK-2")
    steal_3 = take(4, Place.feet(1), 3, "SATK-2")
    theft = take(2, Place.feet(4), 1, "SATK-1")
    assert all_moves(result) == Counter(
        [steal_2, steal_3, theft, take(4, Place.dump(4), 4, "HRV-2")]
    )
    assert result.events.index(steal_2) < result.events.index(steal_3)
    assert result.events.index(steal_3) < result.events.index(theft)
    assert outcomes(result) == Counter(
        [
            (2, DEFENDED, "ATK-3"),
            (3, DEFENDED, "ATK-3"),
            (1, VOIDED, "SATK-2"),
            (1, VOIDED, "SATK-2"),
            (1, HIT, "SATK-1"),
            (4, HARVESTED, "HRV-2"),
        ]
    )


@pytest.mark.clause("SATK-2", "ATK-4")
@pytest.mark.ruling("R-SUPER-ATTACK", "R-CHOICES")
def test_defenders_of_a_super_attack_may_choose_their_gears() -> None:
    # Robot 2 chooses the red in robot 1's circuit, robot 3 its own yellow at the feet.
    chosen = Choices(
        defence_steals={
            (2, 1): DefenceSteal("circuit", Gear(1)),
            (3, 1): DefenceSteal("feet", Gear(3)),
        }
    )
    result = resolve_turn(two_defenders_table(), TWO_DEFENDERS, choices=chosen)
    assert feet_of(result.state) == {1: gears(2, 4), 2: gears(1), 3: gears(3), 4: gears(4)}
    assert circuits_of(result.state) == {1: (), 2: (), 3: (), 4: ()}
    assert all_moves(result) == Counter(
        [
            take(1, Place.circuit(1), 2, "SATK-2"),
            take(3, Place.feet(1), 3, "SATK-2"),
            take(2, Place.feet(4), 1, "SATK-1"),
            take(4, Place.dump(4), 4, "HRV-2"),
        ]
    )


@pytest.mark.clause("SATK-2", "ATK-4")
@pytest.mark.ruling("R-SUPER-ATTACK", "R-CHOICES")
def test_second_defender_cannot_choose_the_gear_the_first_defender_took() -> None:
    # Robot 2 takes the yellow by default; robot 3 chooses from what is left.
    chosen = Choices(defence_steals={(3, 1): DefenceSteal("feet", Gear(3))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(two_defenders_table(), TWO_DEFENDERS, choices=chosen)
    assert (caught.value.robot, caught.value.clause) == (3, "ATK-4")


@pytest.mark.clause("SATK-2")
@pytest.mark.ruling("R-SUPER-ATTACK", "R-DEFENCE")
def test_super_attacker_with_one_gear_loses_it_to_the_first_defender_only() -> None:
    state = table(
        feet={1: [4]},
        dumps={1: [], 2: [], 3: []},
        upgrades={"P1": SUPER_ATTACK},
    )
    result = resolve_turn(state, laid(r1="super attack", r2="attack 2", r3="attack 3"))
    assert feet_of(result.state) == {1: (), 2: gears(4), 3: ()}
    assert all_moves(result) == Counter([take(4, Place.feet(1), 2, "SATK-2")])
    assert outcomes(result) == Counter(
        [
            (2, DEFENDED, "ATK-3"),
            (3, DEFENDED, "ATK-3"),
            (1, VOIDED, "SATK-2"),
            (1, VOIDED, "SATK-2"),
        ]
    )


# --- CDEF-1, CDEF-2: Counter Defence ---------------------------------------------------------


@pytest.mark.clause("CDEF-1", "CDEF-2", "ATK-8")
@pytest.mark.ruling("R-COUNTER-DEFENCE", "R-SPLIT")
def test_counter_defence_against_a_defender_that_two_robots_attack() -> None:
    # Robot 4 defends against robots 2 and 3; robot 1's Counter Defence voids the defence,
    # so robot 4 steals nothing (though robots 2 and 3 hold gears in their circuits) and
    # robots 1, 2, 3 share its six feet gears: two each, own colour first, then green,
    # green, blue in turn.
    state = table(
        feet={4: [1, 2, 3, 4, 4, 5]},
        circuit={2: [2], 3: [3]},
        dumps={1: [], 2: [], 3: [], 4: []},
        upgrades={"P1": COUNTER_DEFENCE},
    )
    result = resolve_turn(
        state, laid(r1="counter defence", r2="attack 4", r3="attack 4", r4="attack 4")
    )
    assert feet_of(result.state) == {1: gears(1, 4), 2: gears(2, 4), 3: gears(3, 5), 4: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(2), 3: gears(3), 4: ()}
    assert splits(result) == [SplitResolved(Place.feet(4), (1, 2, 3), 2, (), "SPL-1")]
    assert all_moves(result) == Counter(
        [
            take(1, Place.feet(4), 1, "CDEF-1"),
            take(4, Place.feet(4), 1, "CDEF-1"),
            take(2, Place.feet(4), 2, "ATK-6"),
            take(4, Place.feet(4), 2, "ATK-6"),
            take(3, Place.feet(4), 3, "ATK-6"),
            take(5, Place.feet(4), 3, "ATK-6"),
        ]
    )
    assert outcomes(result) == Counter(
        [
            (4, COUNTERED, "CDEF-2"),
            (1, HIT, "CDEF-1"),
            (2, HIT, "ATK-6"),
            (3, HIT, "ATK-6"),
        ]
    )


@pytest.mark.clause("CDEF-1", "UPG-3")
@pytest.mark.ruling("R-COUNTER-DEFENCE")
def test_counter_defence_with_nobody_defending_takes_nothing() -> None:
    state = table(
        feet={3: [3]},
        dumps={1: [], 2: [], 3: [2]},
        upgrades={"P1": COUNTER_DEFENCE},
    )
    result = resolve_turn(state, laid(r1="counter defence", r2="attack 3", r3="harvest 3"))
    assert feet_of(result.state) == {1: (), 2: gears(3), 3: gears(2)}
    assert all_moves(result) == Counter(
        [take(3, Place.feet(3), 2, "ATK-6"), take(2, Place.dump(3), 3, "HRV-2")]
    )
    assert outcomes(result) == Counter(
        [(1, UNUSED, "CDEF-1"), (2, HIT, "ATK-6"), (3, HARVESTED, "HRV-2")]
    )
    assert discards(result) == [UpgradeDiscarded(1, "P1", COUNTER_DEFENCE, "UPG-3")]


@pytest.mark.clause("CDEF-1", "CDEF-2")
@pytest.mark.ruling("R-COUNTER-DEFENCE", "R-SPLIT")
def test_counter_defence_attacks_every_defender_and_shares_one_with_its_attacker() -> None:
    # Robots 2 and 3 defend; robot 4 attacks robot 3. Both defences are voided: robot 3 does
    # not take robot 4's green. Robot 1 takes robot 2's feet alone and shares robot 3's with
    # robot 4 (one each: robot 1 its red, robot 4 a yellow; a yellow stays). Robot 1 then
    # assembles its red and the orange.
    state = table(
        feet={2: [2, 4], 3: [1, 3, 3], 4: [4]},
        dumps={1: [], 2: [], 3: [], 4: []},
        upgrades={"P1": COUNTER_DEFENCE},
    )
    result = resolve_turn(
        state, laid(r1="counter defence", r2="attack 2", r3="attack 3", r4="attack 3")
    )
    assert feet_of(result.state) == {1: gears(4), 2: (), 3: gears(3), 4: gears(3, 4)}
    assert circuits_of(result.state) == {1: gears(1, 2), 2: (), 3: (), 4: ()}
    assert splits(result) == [SplitResolved(Place.feet(3), (1, 4), 1, gears(3), "SPL-1")]
    assert all_moves(result) == Counter(
        [
            take(2, Place.feet(2), 1, "CDEF-1"),
            take(4, Place.feet(2), 1, "CDEF-1"),
            take(1, Place.feet(3), 1, "CDEF-1"),
            take(3, Place.feet(3), 4, "ATK-6"),
            assemble(1, 1),
            assemble(2, 1),
        ]
    )
    assert outcomes(result) == Counter(
        [
            (2, COUNTERED, "CDEF-2"),
            (3, COUNTERED, "CDEF-2"),
            (1, HIT, "CDEF-1"),
            (1, HIT, "CDEF-1"),
            (4, HIT, "ATK-6"),
        ]
    )


@pytest.mark.clause("CDEF-2", "CDEF-1")
@pytest.mark.ruling("R-COUNTER-DEFENCE", "R-SPLIT")
def test_defence_voided_by_a_counter_defence_steals_nothing_from_its_attacker() -> None:
    # Robot 3 defends against robot 2, but robot 1's Counter Defence voids it: robot 2 keeps
    # its yellow gears, and robots 1 and 2 share robot 3's red and orange (own colours).
    state = table(
        feet={2: [3], 3: [1, 2]},
        circuit={2: [3]},
        dumps={1: [], 2: [], 3: []},
        upgrades={"P1": COUNTER_DEFENCE},
    )
    programs = laid(r1="counter defence", r2="attack 3", r3="attack 3")
    result = resolve_turn(state, programs)
    assert feet_of(result.state) == {1: gears(1), 2: gears(2, 3), 3: ()}
    assert circuits_of(result.state) == {1: (), 2: gears(3), 3: ()}
    assert all_moves(result) == Counter(
        [take(1, Place.feet(3), 1, "CDEF-1"), take(2, Place.feet(3), 2, "ATK-6")]
    )
    assert outcomes(result) == Counter(
        [(3, COUNTERED, "CDEF-2"), (1, HIT, "CDEF-1"), (2, HIT, "ATK-6")]
    )
    # A steal for the voided defence is not a choice anyone has.
    chosen = Choices(defence_steals={(3, 2): DefenceSteal("feet", Gear(3))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, programs, choices=chosen)
    assert (caught.value.robot, caught.value.clause) == (3, "ATK-4")


@pytest.mark.clause("SATK-1", "CDEF-1", "CDEF-2")
@pytest.mark.ruling("R-SUPER-ATTACK", "R-COUNTER-DEFENCE", "R-SPLIT")
def test_super_attack_and_counter_defence_in_the_same_turn() -> None:
    # Robot 3's defence is voided by robot 2's Counter Defence, so it takes nothing from
    # the Super Attacker. Robot 1 robs robots 2, 3 and 4; robot 2 robs robot 3 alongside
    # robot 1 (two each: own colour, then a yellow each). Nobody attacks robot 1, which
    # keeps its green and assembles its two reds.
    state = table(
        feet={1: [4], 2: [1, 2], 3: [1, 2, 3, 3], 4: [5]},
        dumps={1: [], 2: [], 3: [], 4: [4]},
        upgrades={"P1": SUPER_ATTACK, "P2": COUNTER_DEFENCE},
    )
    result = resolve_turn(
        state, laid(r1="super attack", r2="counter defence", r3="attack 3", r4="harvest 4")
    )
    assert feet_of(result.state) == {1: gears(2, 3, 4, 5), 2: gears(2, 3), 3: (), 4: gears(4)}
    assert circuits_of(result.state) == {1: gears(1, 1), 2: (), 3: (), 4: ()}
    assert splits(result) == [SplitResolved(Place.feet(3), (1, 2), 2, (), "SPL-1")]
    assert all_moves(result) == Counter(
        [
            take(1, Place.feet(2), 1, "SATK-1"),
            take(2, Place.feet(2), 1, "SATK-1"),
            take(1, Place.feet(3), 1, "SATK-1"),
            take(3, Place.feet(3), 1, "SATK-1"),
            take(5, Place.feet(4), 1, "SATK-1"),
            take(2, Place.feet(3), 2, "CDEF-1"),
            take(3, Place.feet(3), 2, "CDEF-1"),
            take(4, Place.dump(4), 4, "HRV-2"),
            assemble(1, 1),
            assemble(1, 1),
        ]
    )
    assert outcomes(result) == Counter(
        [
            (3, COUNTERED, "CDEF-2"),
            (1, HIT, "SATK-1"),
            (1, HIT, "SATK-1"),
            (1, HIT, "SATK-1"),
            (2, HIT, "CDEF-1"),
            (4, HARVESTED, "HRV-2"),
        ]
    )
    assert discards(result) == [
        UpgradeDiscarded(1, "P1", SUPER_ATTACK, "UPG-3"),
        UpgradeDiscarded(2, "P2", COUNTER_DEFENCE, "UPG-3"),
    ]


# --- SHOV-1: Super Shovel --------------------------------------------------------------------


@pytest.mark.clause("SHOV-1")
@pytest.mark.ruling("R-SHOVEL", "R-SPLIT")
def test_super_shovel_takes_what_the_harvests_left_including_a_split_leftover() -> None:
    # Robots 2 and 3 split dump 2 (own colours), leaving the blue; after the harvests the
    # shovel takes dump 1, that blue and dump 3, and before assembly (red and yellow go in).
    state = table(dumps={1: [1, 4], 2: [2, 3, 5], 3: [3]}, upgrades={"P1": SUPER_SHOVEL})
    result = resolve_turn(state, laid(r1="super shovel", r2="harvest 2", r3="harvest 2"))
    assert feet_of(result.state) == {1: gears(4, 5), 2: gears(2), 3: gears(3)}
    assert circuits_of(result.state) == {1: gears(1, 3), 2: (), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: ()}
    assert splits(result) == [SplitResolved(Place.dump(2), (2, 3), 1, gears(5), "SPL-1")]
    assert all_moves(result) == Counter(
        [
            take(2, Place.dump(2), 2, "HRV-2"),
            take(3, Place.dump(2), 3, "HRV-2"),
            take(1, Place.dump(1), 1, "SHOV-1"),
            take(4, Place.dump(1), 1, "SHOV-1"),
            take(5, Place.dump(2), 1, "SHOV-1"),
            take(3, Place.dump(3), 1, "SHOV-1"),
            assemble(1, 1),
            assemble(3, 1),
        ]
    )
    assert last_index(result, "HRV-2") < first_index(result, "SHOV-1")
    assert last_index(result, "SHOV-1") < first_index(result, "ASM-1")
    assert outcomes(result) == Counter(
        [(1, SHOVELLED, "SHOV-1"), (2, HARVESTED, "HRV-2"), (3, HARVESTED, "HRV-2")]
    )


@pytest.mark.clause("SHOV-1", "TRP-3")
@pytest.mark.ruling("R-SHOVEL", "R-TRAP")
def test_trap_neither_voids_a_super_shovel_nor_is_sprung_by_it() -> None:
    # Robot 2 traps dump 1; the shovel is no harvest, so the trap blocks nothing and takes
    # nothing, and the shovel takes the trapped dump too (then assembles red and orange).
    state = table(dumps={1: [1, 2], 2: [2]}, upgrades={"P1": SUPER_SHOVEL})
    result = resolve_turn(state, laid(r1="super shovel", r2="trap 1"))
    assert feet_of(result.state) == {1: gears(2), 2: ()}
    assert circuits_of(result.state) == {1: gears(1, 2), 2: ()}
    assert dumps_of(result.state) == {1: (), 2: ()}
    assert all_moves(result) == Counter(
        [
            take(1, Place.dump(1), 1, "SHOV-1"),
            take(2, Place.dump(1), 1, "SHOV-1"),
            take(2, Place.dump(2), 1, "SHOV-1"),
            assemble(1, 1),
            assemble(2, 1),
        ]
    )
    assert outcomes(result) == Counter([(1, SHOVELLED, "SHOV-1"), (2, IDLE, "TRP-3")])


@pytest.mark.clause("SHOV-1", "STRAP-1")
@pytest.mark.ruling("R-SHOVEL", "R-TRAP")
def test_super_shovel_does_not_spring_a_super_trap() -> None:
    # Nobody harvests: the Super Trap is idle on both dumps and the shovel takes all three
    # gears, then assembles its orange and the yellow, the next colour after its own.
    state = table(dumps={1: [1], 2: [2, 3]}, upgrades={"P1": SUPER_TRAP, "P2": SUPER_SHOVEL})
    result = resolve_turn(state, laid(r1="super trap", r2="super shovel"))
    assert feet_of(result.state) == {1: (), 2: gears(1)}
    assert circuits_of(result.state) == {1: (), 2: gears(2, 3)}
    assert dumps_of(result.state) == {1: (), 2: ()}
    assert all_moves(result) == Counter(
        [
            take(1, Place.dump(1), 2, "SHOV-1"),
            take(2, Place.dump(2), 2, "SHOV-1"),
            take(3, Place.dump(2), 2, "SHOV-1"),
            assemble(2, 2),
            assemble(3, 2),
        ]
    )
    assert outcomes(result) == Counter(
        [(1, IDLE, "STRAP-1"), (1, IDLE, "STRAP-1"), (2, SHOVELLED, "SHOV-1")]
    )


@pytest.mark.clause("SHOV-1", "TRP-3")
@pytest.mark.ruling("R-SHOVEL", "R-TRAP")
def test_sprung_trap_empties_its_dump_before_the_super_shovel() -> None:
    state = table(dumps={1: [3], 2: [1, 2], 3: [1]}, upgrades={"P1": SUPER_SHOVEL})
    result = resolve_turn(state, laid(r1="super shovel", r2="trap 2", r3="harvest 2"))
    assert feet_of(result.state) == {1: gears(1, 3), 2: gears(1, 2), 3: ()}
    assert dumps_of(result.state) == {1: (), 2: (), 3: ()}
    assert all_moves(result) == Counter(
        [
            take(1, Place.dump(2), 2, "TRP-3"),
            take(2, Place.dump(2), 2, "TRP-3"),
            take(3, Place.dump(1), 1, "SHOV-1"),
            take(1, Place.dump(3), 1, "SHOV-1"),
        ]
    )
    assert outcomes(result) == Counter(
        [(1, SHOVELLED, "SHOV-1"), (2, SPRUNG, "TRP-3"), (3, HARVEST_VOIDED, "TRP-2")]
    )


@pytest.mark.clause("SHOV-1", "SPL-1", "SPL-3", "SPL-4")
@pytest.mark.ruling("R-SHOVEL", "R-SPLIT")
def test_two_super_shovels_split_each_dump_and_leave_the_leftovers() -> None:
    # Dump 1: red to 1, orange to 2, the green stays. Dump 2: no own colour, so robot 1
    # takes the lowest, the yellow, and robot 2 the green. Dump 3: one gear for two
    # shovels, nobody takes it.
    state = table(
        dumps={1: [1, 2, 4], 2: [3, 4], 3: [3]},
        upgrades={"P1": SUPER_SHOVEL, "P2": SUPER_SHOVEL},
    )
    result = resolve_turn(state, laid(r1="super shovel", r2="super shovel", r3="attack 3"))
    assert feet_of(result.state) == {1: gears(1, 3), 2: gears(2, 4), 3: ()}
    assert dumps_of(result.state) == {1: gears(4), 2: (), 3: gears(3)}
    assert splits(result) == [
        SplitResolved(Place.dump(1), (1, 2), 1, gears(4), "SPL-1"),
        SplitResolved(Place.dump(2), (1, 2), 1, (), "SPL-1"),
        SplitResolved(Place.dump(3), (1, 2), 0, gears(3), "SPL-4"),
    ]
    assert all_moves(result) == Counter(
        [
            take(1, Place.dump(1), 1, "SHOV-1"),
            take(2, Place.dump(1), 2, "SHOV-1"),
            take(3, Place.dump(2), 1, "SHOV-1"),
            take(4, Place.dump(2), 2, "SHOV-1"),
        ]
    )
    assert outcomes(result) == Counter(
        [(1, SHOVELLED, "SHOV-1"), (2, SHOVELLED, "SHOV-1"), (3, UNTESTED, "ATK-3")]
    )


@pytest.mark.clause("SHOV-1", "SPL-5")
@pytest.mark.ruling("R-SHOVEL", "R-CHOICES")
def test_shovellers_cannot_agree_on_a_split_of_their_own() -> None:
    state = table(
        dumps={1: [1, 2, 4], 2: [3, 4], 3: [3]},
        upgrades={"P1": SUPER_SHOVEL, "P2": SUPER_SHOVEL},
    )
    chosen = Choices(splits={Place.dump(2): {1: gears(4), 2: gears(3)}})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(
            state, laid(r1="super shovel", r2="super shovel", r3="attack 3"), choices=chosen
        )
    assert caught.value.clause == "SPL-5"


# --- every card: its moves and its outcome cite its clause; its discard cites UPG-3 ----------


@pytest.mark.clause("SHARV-1", "SATK-1", "STRAP-1", "SHOV-1", "CDEF-1", "UPG-3")
@pytest.mark.ruling("R-SUPER-HARVEST", "R-SUPER-ATTACK", "R-SHOVEL", "R-COUNTER-DEFENCE")
@pytest.mark.parametrize(
    ("card", "other", "feet_2", "dump_2", "source", "clause", "outcome"),
    [
        (SUPER_HARVEST, "attack 1", [], [2], Place.dump(2), "SHARV-1", HARVESTED),
        (SUPER_ATTACK, "harvest 1", [2], [], Place.feet(2), "SATK-1", HIT),
        (SUPER_TRAP, "harvest 2", [], [2], Place.dump(2), "STRAP-1", SPRUNG),
        (SUPER_SHOVEL, "attack 1", [], [2], Place.dump(2), "SHOV-1", SHOVELLED),
        (COUNTER_DEFENCE, "attack 2", [2], [], Place.feet(2), "CDEF-1", HIT),
    ],
)
def test_each_upgrade_moves_its_gear_under_its_own_clause(
    card: UpgradeCard,
    other: str,
    feet_2: list[int],
    dump_2: list[int],
    source: Place,
    clause: str,
    outcome: Outcome,
) -> None:
    # Robot 1 lays the card; robot 2's one orange gear (at its feet or on its dump) is what
    # the card takes. Dump 1 is empty, so robot 2's program takes nothing.
    state = table(feet={2: feet_2}, dumps={1: [], 2: dump_2}, upgrades={"P1": card})
    result = resolve_turn(state, {1: UpgradeProgram(card), 2: parse_program(other)})
    assert result.moves == (take(2, source, 1, clause),)
    assert feet_of(result.state) == {1: gears(2), 2: ()}
    assert (1, outcome, clause) in outcomes(result)
    assert discards(result) == [UpgradeDiscarded(1, "P1", card, "UPG-3")]
    assert result.events.index(discards(result)[0]) > result.events.index(result.moves[0])


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_a_position_where_more_players_hold_a_card_than_the_deck_has_is_refused() -> None:
    # The default deck has two Super Shovels: a third one at the table is a mistake.
    with pytest.raises(
        InvalidStateError, match="3 players hold super shovel, but the upgrade deck has 2"
    ):
        table(
            dumps={1: [], 2: [], 3: []},
            upgrades={"P1": SUPER_SHOVEL, "P2": SUPER_SHOVEL, "P3": SUPER_SHOVEL},
        )


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_a_held_card_must_be_in_a_custom_deck() -> None:
    with pytest.raises(InvalidStateError, match="the upgrade deck has 0"):
        from_position(
            robots={1: {}, 2: {}},
            dumps={1: (), 2: ()},
            reserve=(),
            options=deck(UpgradeCard.SUPER_TRAP, UpgradeCard.SUPER_TRAP),
            upgrades={"P1": UpgradeCard.SUPER_SHOVEL},
        )


@pytest.mark.clause("STRAP-1", "TRP-2")
def test_a_super_trap_names_each_dump_it_acts_on_in_the_trace() -> None:
    # Kills surviving mutants of traps.label and traps.spring_trap (issue 7): every outcome
    # of a card that acts on every dump names the dump.
    def trace(result: TurnResult) -> list[str]:
        return [str(e) for e in result.events if isinstance(e, ActionResolved) and e.robot != 3]

    state = table(dumps={1: [1], 2: [2], 3: []}, upgrades={"P1": SUPER_TRAP, "P2": SUPER_HARVEST})
    assert trace(resolve_turn(state, laid(r1="super trap", r2="super harvest", r3="attack 3"))) == [
        f"robot {robot} super {card} (dump {dump}): {what}"
        for dump in (1, 2, 3)
        for robot, card, what in (
            (2, "harvest", "harvest voided by a trap [TRP-2]"),
            (1, "trap", "trap sprang [STRAP-1]"),
        )
    ]
    state = table(dumps={1: [1], 2: [2], 3: []}, upgrades={"P1": SUPER_TRAP})
    assert trace(resolve_turn(state, laid(r1="super trap", r2="harvest 1", r3="attack 3"))) == [
        "robot 2 harvest 1: harvest voided by a trap [TRP-2]",
        "robot 1 super trap (dump 1): trap sprang [STRAP-1]",
        "robot 1 super trap (dump 2): trap blocked no harvest [STRAP-1]",
        "robot 1 super trap (dump 3): trap blocked no harvest [STRAP-1]",
    ]


# --- SATK-1, SATK-2, CDEF-1, CDEF-2, SHARV-1, SHOV-1: what the trace says (issue 7) --------
# Kill surviving mutants of attacks._label, attacks.resolve_defences, attacks.strike_attacks,
# attacks.attackers_by_target, harvests.harvest_dump and upgrades.shovel_dumps: an outcome of
# a card that acts on several robots or dumps names the one it is about, and every outcome
# names the card.


def trace(result: TurnResult) -> list[str]:
    """The outcomes of the turn as the trace prints them, in order."""
    return [str(e) for e in result.events if isinstance(e, ActionResolved)]


@pytest.mark.clause("SATK-1", "SATK-2")
@pytest.mark.ruling("R-SUPER-ATTACK")
def test_each_outcome_of_a_super_attack_names_the_robot_it_attacked() -> None:
    state = table(dumps={1: [], 2: [], 3: []}, upgrades={"P1": SUPER_ATTACK})
    result = resolve_turn(state, laid(r1="super attack", r2="attack 2", r3="harvest 3"))
    assert trace(result) == [
        "robot 2 attack 2: defended [ATK-3]",
        "robot 1 super attack (robot 2): attack voided by a defence [SATK-2]",
        "robot 1 super attack (robot 3): attack hit [SATK-1]",
        "robot 3 harvest 3: harvested [HRV-2]",
    ]


@pytest.mark.clause("SATK-1")
@pytest.mark.ruling("R-SUPER-ATTACK")
def test_a_super_attack_targets_every_other_robot_in_play_programmed_or_not() -> None:
    # Robot 1's Super Attack attacks robots 2 and 3, whatever they programmed.
    state = table(dumps={1: [], 2: [], 3: []}, upgrades={"P1": SUPER_ATTACK})
    reading = ProgramReading(state, laid(r1="super attack", r2="attack 2", r3="trap 1"))
    assert attackers_by_target(reading) == {2: [1], 3: [1]}


@pytest.mark.clause("CDEF-1", "CDEF-2")
@pytest.mark.ruling("R-COUNTER-DEFENCE")
def test_each_outcome_of_a_counter_defence_names_the_card_and_the_defender() -> None:
    state = table(dumps={1: [], 2: [], 3: []}, upgrades={"P1": COUNTER_DEFENCE})
    result = resolve_turn(state, laid(r1="counter defence", r2="attack 2", r3="harvest 3"))
    assert trace(result) == [
        "robot 2 attack 2: defence voided by a counter defence [CDEF-2]",
        "robot 1 counter defence (robot 2): attack hit [CDEF-1]",
        "robot 3 harvest 3: harvested [HRV-2]",
    ]
    result = resolve_turn(state, laid(r1="counter defence", r2="harvest 2", r3="harvest 3"))
    assert trace(result) == [
        "robot 1 counter defence: counter defence found no defence [CDEF-1]",
        "robot 2 harvest 2: harvested [HRV-2]",
        "robot 3 harvest 3: harvested [HRV-2]",
    ]


@pytest.mark.clause("SATK-2", "ATK-4")
@pytest.mark.ruling("R-SUPER-ATTACK", "R-DEFENCE")
def test_super_attacker_with_one_circuit_gear_loses_it_to_the_first_defender_only() -> None:
    # Robot 2 takes the red from robot 1's circuit; robot 3, choosing from what is left,
    # finds nothing.
    state = table(circuit={1: [1]}, dumps={1: [], 2: [], 3: []}, upgrades={"P1": SUPER_ATTACK})
    result = resolve_turn(state, laid(r1="super attack", r2="attack 2", r3="attack 3"))
    assert feet_of(result.state) == {1: (), 2: gears(1), 3: ()}
    assert circuits_of(result.state) == {1: (), 2: (), 3: ()}
    assert all_moves(result) == Counter([take(1, Place.circuit(1), 2, "SATK-2")])


@pytest.mark.clause("SHARV-1")
@pytest.mark.ruling("R-SUPER-HARVEST")
def test_each_outcome_of_a_super_harvest_names_the_dump_it_harvested() -> None:
    state = table(dumps={1: [1], 2: [2], 3: []}, upgrades={"P1": SUPER_HARVEST})
    result = resolve_turn(state, laid(r1="super harvest", r2="attack 2", r3="attack 3"))
    assert trace(result) == [
        "robot 2 attack 2: defended, but nobody attacked [ATK-3]",
        "robot 3 attack 3: defended, but nobody attacked [ATK-3]",
        "robot 1 super harvest (dump 1): harvested [SHARV-1]",
        "robot 1 super harvest (dump 2): harvested [SHARV-1]",
        "robot 1 super harvest (dump 3): harvested [SHARV-1]",
    ]


@pytest.mark.clause("SHOV-1")
@pytest.mark.ruling("R-SHOVEL")
def test_the_outcome_of_a_super_shovel_names_the_card() -> None:
    state = table(dumps={1: [1], 2: []}, upgrades={"P1": SUPER_SHOVEL})
    result = resolve_turn(state, laid(r1="super shovel", r2="attack 2"))
    assert trace(result) == [
        "robot 2 attack 2: defended, but nobody attacked [ATK-3]",
        "robot 1 super shovel: shovelled [SHOV-1]",
    ]
    assert all_moves(result) == Counter([take(1, Place.dump(1), 1, "SHOV-1")])


@pytest.mark.clause("UPG-1")
@pytest.mark.ruling("R-UPG-DECK")
def test_a_short_upgrade_deck_is_refused_counting_the_cards_and_the_players() -> None:
    # Kills a surviving mutant of upgrades.deal_upgrade_cards (issue 7).
    with pytest.raises(SetupError) as caught:
        setup_game([1, 2, 3], seed=1, options=deck(SUPER_ATTACK, SUPER_SHOVEL))
    assert str(caught.value) == "the upgrade deck has 2 cards for 3 players (UPG-1)"


# --- R-SYMMETRY: seat-fair orders in the expansions -----------------------------------------


@pytest.mark.clause("SATK-2", "ATK-5")
@pytest.mark.ruling("R-SYMMETRY", "R-SUPER-ATTACK")
def test_super_attack_by_robot_6_defended_by_robots_2_and_7_robot_7_takes_first() -> None:
    # Robot 6 holds a single red gear. The defenders take clockwise from robot 6: robot 7, then
    # robot 2 (wrapping round past 8), which finds nothing left. The events still list the
    # defenders in ascending number.
    state = table(feet={6: [1]}, dumps={2: [], 6: [], 7: []}, upgrades={"P6": SUPER_ATTACK})
    result = resolve_turn(state, laid(r2="attack 2", r6="super attack", r7="attack 7"))
    assert feet_of(result.state) == {2: (), 6: (), 7: gears(1)}
    assert all_moves(result) == Counter([take(1, Place.feet(6), 7, "SATK-2")])
    assert outcomes(result) == Counter(
        [
            (2, DEFENDED, "ATK-3"),
            (7, DEFENDED, "ATK-3"),
            (6, VOIDED, "SATK-2"),
            (6, VOIDED, "SATK-2"),
        ]
    )


@pytest.mark.clause("SATK-2", "ATK-4")
@pytest.mark.ruling("R-SYMMETRY", "R-SUPER-ATTACK", "R-CHOICES")
def test_robot_2_cannot_choose_the_gear_robot_7_took_first_from_super_attacker_6() -> None:
    # Robot 6: a red and a grey at its feet. Robot 7 takes its own grey first by default;
    # robot 2 may then choose only the red.
    state = table(feet={6: [1, 7]}, dumps={2: [], 6: [], 7: []}, upgrades={"P6": SUPER_ATTACK})
    plays = laid(r2="attack 2", r6="super attack", r7="attack 7")
    grey = Choices(defence_steals={(2, 6): DefenceSteal("feet", Gear(7))})
    with pytest.raises(IllegalChoiceError) as caught:
        resolve_turn(state, plays, choices=grey)
    assert (caught.value.robot, caught.value.clause) == (2, "ATK-4")
    # Robot 7 choosing the red leaves robot 2 the grey.
    red = Choices(defence_steals={(7, 6): DefenceSteal("feet", Gear(1))})
    assert feet_of(resolve_turn(state, plays, choices=red).state) == {
        2: gears(7),
        6: (),
        7: gears(1),
    }


@pytest.mark.clause("SATK-2")
@pytest.mark.ruling("R-SYMMETRY", "R-SUPER-ATTACK")
def test_two_super_attackers_each_lose_to_their_defenders_in_their_own_ring_order() -> None:
    # Robots 1 and 5 lay Super Attacks; robots 3 and 7 defend both. From robot 1 the order is
    # 3, 7; from robot 5 it is 7, 3. Each Super Attacker holds one white gear, worth 1 to both
    # defenders: robot 3 gets robot 1's, robot 7 robot 5's. The Super Attacks on each other
    # hit, and swap nothing (their feet are empty after the defences).
    state = table(
        feet={1: [8], 5: [8]},
        dumps={1: [], 3: [], 5: [], 7: []},
        upgrades={"P1": SUPER_ATTACK, "P5": SUPER_ATTACK},
    )
    result = resolve_turn(
        state, laid(r1="super attack", r3="attack 3", r5="super attack", r7="attack 7")
    )
    assert feet_of(result.state) == {1: (), 3: gears(8), 5: (), 7: gears(8)}
    assert all_moves(result) == Counter(
        [take(8, Place.feet(1), 3, "SATK-2"), take(8, Place.feet(5), 7, "SATK-2")]
    )


@pytest.mark.clause("SHOV-1", "SPL-5")
@pytest.mark.ruling("R-SYMMETRY", "R-SHOVEL")
def test_two_super_shovels_deal_each_dump_from_the_first_shoveller_after_it() -> None:
    # Robots 1 and 2 shovel. Dump 1 holds a yellow and a green: worth 1 to both, and both would
    # take the yellow first; the round starts with robot 2 (the first after dump 1), which
    # takes it. Dump 2 holds the same: there robot 1 goes first and takes the yellow.
    state = table(
        dumps={1: [3, 4], 2: [3, 4]},
        reserve=[1, 2],
        upgrades={"P1": SUPER_SHOVEL, "P2": SUPER_SHOVEL},
    )
    result = resolve_turn(state, laid(r1="super shovel", r2="super shovel"))
    assert feet_of(result.state) == {1: gears(3, 4), 2: gears(3, 4)}
    assert all_moves(result) == Counter(
        [
            take(3, Place.dump(1), 2, "SHOV-1"),
            take(4, Place.dump(1), 1, "SHOV-1"),
            take(3, Place.dump(2), 1, "SHOV-1"),
            take(4, Place.dump(2), 2, "SHOV-1"),
            GearMoved(Gear(1), Place.reserve(), Place.dump(1), None, "EXP-1"),
            GearMoved(Gear(2), Place.reserve(), Place.dump(2), None, "EXP-1"),
        ]
    )


@pytest.mark.clause("SHOV-1", "ASM-1")
@pytest.mark.ruling("R-SHOVEL", "R-CHOICES")
def test_the_tables_assembly_choice_holds_after_a_super_shovel() -> None:
    # Robot 2's Super Shovel takes red, orange and yellow from the dumps; the table chose that
    # robot 2 assembles red and yellow (not its default, orange and yellow), and it does.
    state = table(dumps={1: [1], 2: [2, 3]}, upgrades={"P2": SUPER_SHOVEL})
    chosen = Choices(assemblies={2: gears(1, 3)})
    after = resolve_turn(state, laid(r1="attack 1", r2="super shovel"), choices=chosen).state
    assert after.robot(2).circuit == gears(1, 3)
    assert after.robot(2).feet == gears(2)
