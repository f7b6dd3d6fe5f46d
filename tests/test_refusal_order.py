"""Which refusal wins (spec GEN-2), read from the text and held against the engine: requests
breaking several checks at once, drawn at random, each refused as a model of GEN-2's order and
table, written here from the spec alone, says (issue 33).

The model knows each fault by the clause and robot GEN-2's table gives it and by its place in
GEN-2's order; the engine is asked through the conformance protocol (``reference_answer``), as
an engine in another language would be.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, NamedTuple

from hypothesis import given
from hypothesis import strategies as st

from outofgears.judge.conformance import reference_answer

Request = dict[str, Any]


class Fault(NamedTuple):
    """One broken check: where it stands in GEN-2's order, what it does to a request, and the
    refusal the spec gives it (kind, clause, robot)."""

    name: str
    rank: int
    breaks: Callable[[Request], None]
    refusal: tuple[str, str | None, int | None]


def _position(request: Request) -> dict[str, Any]:
    position: dict[str, Any] = request["start"]["position"]
    return position


def _robot_9(request: Request) -> None:
    request["players"]["C"] = [9]


def _robot_twice(request: Request) -> None:
    request["players"]["C"] = [2]
    # Robot 3 is then not in play: its entries go, so that only robot 2 is at fault.
    del _position(request)["robots"]["3"]
    del _position(request)["dumps"]["3"]


def _bad_option(request: Request) -> None:
    request["options"]["pad_reserve"] = "yes"


def _turn_zero(request: Request) -> None:
    _position(request)["turn"] = 0


def _no_gear_at_feet(request: Request) -> None:
    _position(request)["robots"]["2"]["feet"] = ["red", "pink"]


def _no_gear_on_dump(request: Request) -> None:
    _position(request)["dumps"]["1"] = ["mauve"]


def _extra_robot(request: Request) -> None:
    _position(request)["robots"]["5"] = {}


def _missing_dump(request: Request) -> None:
    del _position(request)["dumps"]["2"]


def _stranger_holds_a_card(request: Request) -> None:
    _position(request)["upgrades"] = {"Zed": "super trap"}


def _card_with_upgrades_off(request: Request) -> None:
    _position(request)["upgrades"] = {"A": "super trap"}
    request["options"]["upgrades"] = False


def _jolly_at_feet(request: Request) -> None:
    _position(request)["robots"]["1"]["circuit"] = ["jolly"]


def _twelve_yellows_on_a_dump(request: Request) -> None:
    _position(request)["dumps"]["3"] = ["yellow"] * 12


#: GEN-2 item 1: the form of the fields in the order written (options, then the start: the
#: robots, the dumps), then the values of the start (the position's turn), then those of the
#: header (a robot number), then the header
#: and the position (a robot controlled twice, the robots and dumps in play, the upgrade cards
#: held, the gears in the order written).
START_FAULTS = (
    Fault("bad option", 0, _bad_option, ("position", "REF-2", None)),
    Fault("no gear at feet", 1, _no_gear_at_feet, ("position", "GEN-1", 2)),
    Fault("no gear on dump", 2, _no_gear_on_dump, ("position", "GEN-1", None)),
    Fault("turn 0", 5, _turn_zero, ("position", "SET-5", None)),
    Fault("robot 9", 6, _robot_9, ("position", "SET-1", None)),
    Fault("robot twice", 10, _robot_twice, ("position", "SET-1", None)),
    Fault("extra robot", 11, _extra_robot, ("position", "SET-5", None)),
    Fault("missing dump", 12, _missing_dump, ("position", "SET-2", None)),
    Fault("stranger holds a card", 13, _stranger_holds_a_card, ("position", "UPG-1", None)),
    Fault("card with upgrades off", 14, _card_with_upgrades_off, ("position", "UPG-1", None)),
    Fault("jolly at feet", 15, _jolly_at_feet, ("position", "JOL-1", 1)),
    Fault("twelve yellows", 16, _twelve_yellows_on_a_dump, ("position", "SET-5", None)),
)

#: Faults that rewrite the same field, never drawn together.
_EXCLUSIVE = ({"robot 9", "robot twice"}, {"stranger holds a card", "card with upgrades off"})


def sound_request() -> Request:
    """Three robots, one player each, a position every check accepts."""
    return {
        "case": "refusal-order",
        "players": {"A": [1], "B": [2], "C": [3]},
        "options": {"upgrades": True},
        "start": {
            "position": {
                "turn": 4,
                "robots": {"1": {"feet": ["red"]}, "2": {"feet": ["red"]}, "3": {}},
                "dumps": {"1": ["orange"], "2": [], "3": ["yellow"]},
                "reserve": ["green", "blue", "purple"],
            }
        },
        "turns": [],
    }


def _compatible(faults: list[Fault]) -> bool:
    names = {fault.name for fault in faults}
    return all(len(names & group) < 2 for group in _EXCLUSIVE)


def model_refusal(faults: list[Fault]) -> tuple[str, str | None, int | None]:
    """The refusal GEN-2 gives: the first fault in its order."""
    return min(faults, key=lambda fault: fault.rank).refusal


def _answered(request: Request) -> tuple[str, str | None, int | None] | None:
    refusal = reference_answer(request).get("refusal")
    return None if refusal is None else (refusal["kind"], refusal["clause"], refusal["robot"])


def test_the_sound_request_is_accepted() -> None:
    assert _answered(sound_request()) is None


@given(st.sampled_from(START_FAULTS))
def test_each_start_fault_alone_is_refused_as_gen_2s_table_says(fault: Fault) -> None:
    request = sound_request()
    fault.breaks(request)
    assert _answered(request) == fault.refusal, fault.name


@given(
    st.lists(st.sampled_from(START_FAULTS), min_size=2, max_size=6, unique=True).filter(_compatible)
)
def test_a_start_breaking_several_checks_is_refused_for_the_first_in_gen_2s_order(
    faults: list[Fault],
) -> None:
    request = sound_request()
    for fault in faults:
        fault.breaks(request)
    assert _answered(request) == model_refusal(faults), [fault.name for fault in faults]


# --- the programs and the choices of a turn (GEN-2 items 3 and 4) ------------------------------

#: A program fault: the robot it concerns (the key it is written under) and what is written.
ProgramFault = tuple[str, int, str | None]

_PROGRAM_FAULTS: dict[str, tuple[int, str | None]] = {
    # kind of fault -> (rank in GEN-2 item 3, the text written; None: no program at all)
    "missing": (0, None),
    "stranger": (1, "harvest 1"),
    "not a program": (2, "Harvest 1"),
    "number not in play": (3, "attack 6"),
}


@st.composite
def turns_with_faults(draw: st.DrawFn) -> tuple[dict[str, Any], tuple[str, str | None, int | None]]:
    """A turn of the sound position whose programs break several checks at once (and maybe
    whose choices cannot be read), with the refusal GEN-2 item 3 (then 4) gives it."""
    programs = {"1": "harvest 1", "2": "harvest 3", "3": "trap 1"}
    robots = draw(st.lists(st.sampled_from([1, 2, 3, 7, 8]), min_size=1, max_size=4, unique=True))
    faults: list[tuple[int, int, str]] = []
    for robot in robots:
        if robot in (7, 8):
            kind = "stranger"
        else:
            kind = draw(st.sampled_from(["missing", "not a program", "number not in play"]))
        rank, text = _PROGRAM_FAULTS[kind]
        if text is None:
            del programs[str(robot)]
        else:
            programs[str(robot)] = text
        faults.append((rank, robot, kind))
    turn: dict[str, Any] = {"programs": programs}
    if draw(st.booleans()):
        turn["choices"] = {"splits": "the robots agree"}
    rank, robot, kind = min(faults)
    clause = "PRG-2" if kind == "number not in play" else "PRG-1"
    return turn, ("program", clause, robot)


@given(turns_with_faults())
def test_a_turn_breaking_several_program_checks_is_refused_as_gen_2_item_3_orders(
    drawn: tuple[dict[str, Any], tuple[str, str | None, int | None]],
) -> None:
    turn, refusal = drawn
    request = copy.deepcopy(sound_request())
    request["turns"] = [turn]
    assert _answered(request) == refusal, turn


def test_choices_that_cannot_be_read_are_refused_after_the_programs_citing_their_decision() -> None:
    request = sound_request()
    programs = {"1": "harvest 1", "2": "harvest 3", "3": "trap 1"}
    for field, clause in (
        ("splits", "SPL-5"),
        ("assemblies", "ASM-1"),
        ("defence_steals", "ATK-4"),
    ):
        request["turns"] = [{"programs": programs, "choices": {field: "whatever suits"}}]
        assert _answered(request) == ("choice", clause, None), field


def test_a_program_text_in_a_later_turn_is_not_read_before_an_earlier_turn_is_refused() -> None:
    request = sound_request()
    request["turns"] = [
        {"programs": {"1": "harvest 1", "2": "harvest 3"}},
        {"programs": {"1": "HARVEST", "2": "harvest 3", "3": "trap 1"}},
    ]
    assert _answered(request) == ("program", "PRG-1", 3)


def test_seeds_outside_sixty_four_bits_are_refused_citing_set_3() -> None:
    for seed in (-1, 2**64, 1.5, "7"):
        request = {"case": "s", "players": {"A": [1], "B": [2]}, "start": {"seed": seed}}
        assert _answered({**request, "turns": []}) == ("setup", "SET-3", None), seed


# --- the choices (GEN-2 items 4 and 5) ---------------------------------------------------------

#: Robot 1 defends against robot 2; robots 3 and 4 harvest dump 3 (a blue, a grey, a white and a
#: yellow: two gears each, robot 3's quota the yellow); robot 5 traps dump 1, which nobody
#: harvests.
CHOICE_TABLE: Request = {
    "case": "choice-order",
    "players": {"A": [1], "B": [2], "C": [3], "D": [4], "E": [5]},
    "start": {
        "position": {
            "robots": {"1": {}, "2": {"feet": ["red"]}, "3": {}, "4": {}, "5": {}},
            "dumps": {
                "1": ["orange"],
                "2": [],
                "3": ["blue", "grey", "white", "yellow"],
                "4": [],
                "5": [],
            },
            "reserve": ["green", "purple", "red", "orange", "blue"],
        }
    },
    "turns": [],
}
CHOICE_PROGRAMS = {
    "1": "attack 1",
    "2": "attack 1",
    "3": "harvest 3",
    "4": "harvest 3",
    "5": "trap 1",
}

#: A fault of the choices checked before anything moves (item 4), in its order there: the
#: defence steals, the assemblies of robots not in play, the splits of places nothing takes from.
BEFORE: dict[str, tuple[int, str, Any, tuple[str, str | None, int | None]]] = {
    "a steal from a robot that did not attack": (
        0,
        "defence_steals",
        [{"defender": 1, "attacker": 3, "from": "feet", "gear": "red"}],
        ("choice", "ATK-4", 1),
    ),
    "an assembly of robot 7": (1, "assemblies", {"7": ["red", "orange"]}, ("choice", "ASM-1", 7)),
    "a split of a dump only trapped": (
        2,
        "splits",
        [{"place": "dump 1", "shares": {"5": ["orange"]}}],
        ("choice", "SPL-5", 5),
    ),
}

#: A fault within dump 3's split (item 5), by the share that breaks it: the takers, then each
#: taker in ascending order its share's size, its quota, the gears there.
WITHIN: dict[str, tuple[dict[str, list[str]], tuple[str, str | None, int | None]]] = {
    "a stranger given a share": (
        {"3": ["yellow", "blue"], "4": ["grey", "white"], "5": []},
        ("choice", "SPL-1", 5),
    ),
    "robot 3's share too small": (
        {"3": ["yellow"], "4": ["grey", "white"]},
        ("choice", "SPL-1", 3),
    ),
    "robot 3 without its yellow": (
        {"3": ["blue", "grey"], "4": ["white", "yellow"]},
        ("choice", "SPL-2", 3),
    ),
    "robot 3 given gears not there": (
        {"3": ["yellow", "red"], "4": ["grey", "white"]},
        ("choice", "SPL-1", 3),
    ),
    "robot 4's share too large": (
        {"3": ["yellow", "blue"], "4": ["grey", "white", "white"]},
        ("choice", "SPL-1", 4),
    ),
}


@given(
    st.lists(st.sampled_from(sorted(BEFORE)), min_size=1, max_size=3, unique=True),
    st.none() | st.sampled_from(sorted(WITHIN)),
)
def test_choices_breaking_several_checks_are_refused_as_gen_2_items_4_and_5_order(
    before: list[str], within: str | None
) -> None:
    request = copy.deepcopy(CHOICE_TABLE)
    choices: dict[str, Any] = {}
    for name in before:
        _, field, value, _ = BEFORE[name]
        choices[field] = copy.deepcopy(value)
    if within is not None:
        split = {"place": "dump 3", "shares": WITHIN[within][0]}
        choices["splits"] = [*choices.get("splits", []), split]
    request["turns"] = [{"programs": CHOICE_PROGRAMS, "choices": choices}]
    expected = min((BEFORE[name][0], BEFORE[name][3]) for name in before)[1]
    assert _answered(request) == expected, (before, within)


@given(st.sampled_from(sorted(WITHIN)))
def test_a_split_breaking_its_checks_is_refused_for_the_first_within_it(within: str) -> None:
    request = copy.deepcopy(CHOICE_TABLE)
    split = {"place": "dump 3", "shares": WITHIN[within][0]}
    request["turns"] = [{"programs": CHOICE_PROGRAMS, "choices": {"splits": [split]}}]
    assert _answered(request) == WITHIN[within][1]


def test_the_choice_table_is_sound() -> None:
    request = copy.deepcopy(CHOICE_TABLE)
    split = {"place": "dump 3", "shares": {"3": ["yellow", "blue"], "4": ["grey", "white"]}}
    request["turns"] = [{"programs": CHOICE_PROGRAMS, "choices": {"splits": [split]}}]
    assert _answered(request) is None
