"""The typed-error promise over the whole public surface (issue 23): every public callable, given
wrong arguments, raises only the project's errors.

The surface is found, not listed: the ``__all__`` of every public module (the package's top,
``outofgears.log``, and every module of the public folders ``judge``, ``play`` and ``pictures``,
each of which must declare one), the public methods of the classes found there, and the methods
of what the engine hands out (a :class:`~outofgears.rules.legal.ChoiceSpace`, an
:class:`~outofgears.play.observation.Observation`). A valid call is built for each from
:data:`SAMPLES`, a valid value per parameter name; a public callable with a parameter that has no
sample fails :func:`test_every_public_callable_can_be_called`, so a new entry point is covered as
soon as it exists. Then each argument in turn is replaced by each value of :data:`WRONG`: ``None``,
wrong types, out-of-range numbers, unknown names, a state of another game and a finished game.
Only an :class:`~outofgears.errors.OutOfGearsError` (which is also the builtin it refines) may
escape, with a one-line message. The adapters to optional frameworks raise their frameworks'
documented errors and are tested with them (``tests/test_pettingzoo.py``,
``tests/test_openspiel.py``).
"""

from __future__ import annotations

import copy
import enum
import importlib
import inspect
import json
import pkgutil
import random
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, Protocol

import attrs
import pytest

import outofgears
from outofgears import (
    Action,
    AnyProgram,
    Choices,
    GameState,
    Gear,
    Options,
    Outcome,
    OutOfGearsError,
    Place,
    PlaceKind,
    Program,
    UpgradeCard,
    apply_turn,
    gears,
    legal_choices,
    setup_game,
    setup_two_robot_game,
)
from outofgears.errors import IllegalChoiceError
from outofgears.judge.compare import compare_results
from outofgears.judge.conformance import load_cases, reference_answer, request_of, run_case
from outofgears.judge.departures import Departure
from outofgears.judge.replay import replay_log
from outofgears.log import GameLog, Recorded, RobotGears, Start, TurnRecord, read_log
from outofgears.play.observation import ObservationCache, observe
from outofgears.words import findings
from tests.clause_map import REPO_ROOT

#: Folders whose every module is public and declares ``__all__``.
PUBLIC_FOLDERS = ("outofgears.judge", "outofgears.play", "outofgears.pictures")
#: Modules of the public folders that serve another module only: the arrow routing of the
#: pictures (its callers are :mod:`~outofgears.pictures.render` and the geometry tests) and the
#: judge's search for the table's choices and its naming of the rule a record breaks (public
#: through ``replay_log``).
INTERNAL = ("outofgears.pictures.lanes", "outofgears.judge.inference", "outofgears.judge.culprit")
#: Modules that need an optional framework; their errors are the framework's.
ADAPTERS = (
    "outofgears.play.pettingzoo",
    "outofgears.play.openspiel",
    "outofgears.play.gym",
    "outofgears.play.envs",
    "outofgears.play.registration",
)

STATE = setup_game([1, 2, 3], seed=7, players=["Ada", "Bo", "Cy"])
PROGRAMS: dict[int, AnyProgram] = {
    1: Program.parse("harvest 1"),
    2: Program.parse("harvest 2"),
    3: Program.parse("attack 1"),
}
OTHER_GAME = setup_game([5, 6], seed=8)


def _finished() -> GameState:
    state, rng = setup_game([1, 2], seed=3), random.Random(3)
    from outofgears.play.policies import random_programs

    while not state.game_over:
        state = apply_turn(state, random_programs(state, rng))
    return state


FINISHED = _finished()
#: A log of one turn of two robots: its replay and its viewer are quick to make.
LOG = GameLog(
    players={"Ada": (1,), "Bo": (2,)},
    start=Start(seed=1),
    turns=(
        TurnRecord(turn=1, programs={1: Program.parse("harvest 1"), 2: Program.parse("attack 1")}),
    ),
)
REPLAY = replay_log(LOG, "short.log.json")
OBSERVATION = observe(STATE, "Ada")
PAIRS = setup_two_robot_game({"Ada": (1, 5), "Bo": (2, 6)}, seed=7)
LOG_TEXT = (REPO_ROOT / "examples" / "full-game.log.json").read_text("utf-8")
_POSITION = read_log(REPO_ROOT / "examples" / "from-position.log.json").start.position
assert _POSITION is not None
POSITION = _POSITION
RESULT = outofgears.resolve_turn(STATE, PROGRAMS)


def _refusal() -> IllegalChoiceError:
    try:
        apply_turn(STATE, PROGRAMS, choices=Choices(assemblies={2: (Gear(8), Gear(8))}))
    except IllegalChoiceError as error:
        return error
    raise AssertionError("the choice was accepted")


REFUSAL = _refusal()
#: A departure, as the judge makes one (robot 1's feet recorded empty, the rules give red).
DEPARTURE = Departure(1, "$.turns[0].recorded.robots.1.feet", Place.feet(1), (), (Gear(1),))
CASE = load_cases(REPO_ROOT / "spec" / "conformance")[0]
#: The choice space whose methods are called, and a step and a table of its own walk.
SPACE = legal_choices(STATE, PROGRAMS)


class _Sample(Protocol):
    def __call__(self) -> Any: ...


#: A valid value for each parameter name of the public surface.
SAMPLES: dict[str, _Sample] = {
    "commitment": lambda: "0" * 64,
    "nonce": lambda: "0" * 32,
    "state": lambda: STATE,
    "before": lambda: STATE,
    "programs": lambda: dict(PROGRAMS),
    "choices": Choices,
    "robot": lambda: 1,
    "player": lambda: "Ada",
    "rng": lambda: random.Random(1),
    "seed": lambda: 1,
    "robots": lambda: [1, 2, 3],
    "options": Options,
    "log": lambda: LOG,
    "game": lambda: LOG,
    "replay": lambda: REPLAY,
    "source": lambda: "x.json",
    "title": lambda: "A game",
    "turn": lambda: 1,
    "turn_cap": lambda: 3,
    "spec": lambda: "greedy",
    "bots": lambda: {"Ada": _bot(), "Bo": _bot(), "Cy": _bot()},
    "program": lambda: Program.parse("attack 2"),
    "first": lambda: Program.parse("attack 2"),
    "second": lambda: Program.parse("trap 1"),
    "action": lambda: 0,
    "move": lambda: 0,
    "text": lambda: "attack 2",
    "clause_id": lambda: "ATK-4",
    "lang": lambda: "en",
    "fact": lambda: findings.Points(1),
    "allowed": lambda: (findings.AssemblyOptions(1, ((Gear(1), Gear(2)),)),),
    "departure": lambda: DEPARTURE,
    "clause": lambda: "ATK-4",
    "refusal": lambda: REFUSAL.refusal,
    "decisions": lambda: (findings.OpenDecision("assembly", 2),),
    "ways": lambda: 2,
    "gears": lambda: gears(1, 2),
    "gear": lambda: Gear(1),
    "events": lambda: apply_events_sample(),
    "path": lambda: REPO_ROOT / "examples" / "full-game.log.json",
    "data": lambda: (REPO_ROOT / "examples" / "full-game.log.json").read_bytes(),
    "observation": lambda: OBSERVATION,
    "kind": lambda: "win_share",
    "case": lambda: dict(CASE),
    "request": lambda: request_of(CASE),
    "expected": lambda: dict(CASE["expected"]),
    "answer": lambda: reference_answer(request_of(CASE)),
    "engine": lambda: reference_answer,
    "folder": lambda: REPO_ROOT / "spec" / "conformance",
    "results": lambda: [run_case(CASE, reference_answer)],
    "command": lambda: "python3 -c pass",
    "cases": lambda: [dict(CASE)],
    "not_clauses": lambda: ["SPL-4"],
    "raw": lambda: b'{"case": "c"}',
    "argv": lambda: ["true"],
    "timeout": lambda: 1.0,
    "card": lambda: UpgradeCard.SUPER_TRAP,
    "colour": lambda: 1,
    "count": lambda: 2,
    "numbers": lambda: [1, 3],
    "takers": lambda: [1, 3],
    "share": lambda: 2,
    "event": lambda: RESULT.events[0],
    "items": lambda: gears(1, 2),
    "outcome": lambda: Outcome.DEFENDED,
    "place": lambda: Place(PlaceKind.DUMP, 1),
    "step": lambda: SPACE.walk()[0],
    "table": lambda: SPACE.start_table(),
    "decision": lambda: None,
    "cache": lambda: ObservationCache(),
}


def _bot() -> Any:
    from outofgears.play.bots import RandomBot

    return RandomBot()


def apply_events_sample() -> tuple[Any, ...]:
    return tuple(outofgears.resolve_turn(STATE, PROGRAMS).events)


class _Opaque:
    """An object of no type the package knows."""


#: Wrong values for any argument: None, wrong types, out-of-range numbers, unknown names, a
#: state of another game, a finished game.
WRONG: tuple[Any, ...] = (
    None,
    _Opaque(),
    3.5,
    "nobody",
    b"x",
    -1,
    0,
    10**12,
    True,
    [None],
    {None: None},
    {1: None},
    {99: Program.parse("attack 1")},
    OTHER_GAME,
    FINISHED,
)


def public_modules() -> list[ModuleType]:
    """The package's top, ``outofgears.log``, the modules of :data:`PUBLIC_FOLDERS` and every
    other module that declares ``__all__``; the adapters and the command line aside."""
    names = ["outofgears", "outofgears.log"]
    for info in pkgutil.walk_packages(outofgears.__path__, "outofgears."):
        if info.name.startswith(("outofgears.cli", *ADAPTERS, *INTERNAL)) or info.name in names:
            continue
        module = importlib.import_module(info.name)
        if info.name.startswith(PUBLIC_FOLDERS) or hasattr(module, "__all__"):
            names.append(info.name)
    return [importlib.import_module(name) for name in names]


def is_entry_point(value: object) -> bool:
    """A callable that takes input: not an exception, an enum, a protocol or a constant."""
    if not (inspect.isroutine(value) or inspect.isclass(value)):
        return False  # a constant, or a type alias such as ReserveRecord
    if inspect.isclass(value):
        return not (
            issubclass(value, (BaseException, enum.Enum)) or getattr(value, "_is_protocol", False)
        )
    return True


def surface() -> Iterator[tuple[str, Callable[..., Any]]]:
    """(dotted name, callable) for every public callable and public method of a public class."""
    seen: set[int] = set()
    for module in public_modules():
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if not is_entry_point(value) or id(value) in seen:
                continue
            seen.add(id(value))
            yield f"{module.__name__}.{name}", value


def methods_of(instance: object) -> Iterator[tuple[str, Callable[..., Any]]]:
    for name, _ in inspect.getmembers(type(instance), callable):
        if not name.startswith("_"):
            yield name, getattr(instance, name)


def parameters(function: Callable[..., Any]) -> list[inspect.Parameter]:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return []
    return [
        p
        for p in signature.parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name != "self"
    ]


def valid_call(function: Callable[..., Any]) -> dict[str, Any] | None:
    """Keyword arguments for a valid call (required parameters only), or None when a required
    parameter has no sample."""
    kwargs: dict[str, Any] = {}
    for parameter in parameters(function):
        if parameter.default is not inspect.Parameter.empty:
            continue
        if parameter.name not in SAMPLES:
            return None
        kwargs[parameter.name] = SAMPLES[parameter.name]()
    return kwargs


def call(function: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    positional = [
        p.name for p in parameters(function) if p.kind is inspect.Parameter.POSITIONAL_ONLY
    ]
    args = [kwargs.pop(name) for name in positional if name in kwargs]
    return function(*args, **kwargs)


#: Classes built by the engine whose constructors are not input: records of what happened.
#: Each is listed here, so that a new public class is called unless someone decides otherwise.
BUILT_BY_THE_ENGINE = {
    "outofgears.table.session.Question",
    "outofgears.table.session.Entered",
    "outofgears.ActionResolved",
    "outofgears.GearMoved",
    "outofgears.SplitResolved",
    "outofgears.TurnEnded",
    "outofgears.UpgradeDiscarded",
    "outofgears.TurnResult",
    "outofgears.PlayerScore",
    "outofgears.judge.conformance.CaseResult",
    "outofgears.judge.compare.EventDifference",
    "outofgears.judge.compare.Resolution",
    "outofgears.judge.compare.StateDifference",
    "outofgears.judge.compare.TurnDifference",
    "outofgears.judge.departures.Departure",
    "outofgears.words.findings.AssemblyDeclined",
    "outofgears.rules.refusals.Refusal",
    "outofgears.words.findings.AssemblyOptions",
    "outofgears.words.findings.TieBreaksByRing",
    "outofgears.words.findings.WrittenUnderSpec",
    "outofgears.words.findings.OpenDecision",
    "outofgears.words.findings.OpenPlace",
    "outofgears.words.findings.OpenPositions",
    "outofgears.words.findings.Inferred",
    "outofgears.words.findings.SharesOf",
    "outofgears.words.findings.StealTaken",
    "outofgears.words.findings.TakenFrom",
    "outofgears.words.findings.ChoiceOf",
    "outofgears.words.findings.ChosenAssembly",
    "outofgears.words.findings.ChosenSplit",
    "outofgears.words.findings.ChosenSteal",
    "outofgears.words.findings.ClosestOutcome",
    "outofgears.words.findings.DefaultMoves",
    "outofgears.words.findings.Drawn",
    "outofgears.words.findings.DrawnOnto",
    "outofgears.words.findings.NextInReserve",
    "outofgears.words.findings.OneOfReserve",
    "outofgears.words.findings.Points",
    "outofgears.words.findings.Refused",
    "outofgears.words.findings.ReserveEmpty",
    "outofgears.words.findings.ScoreCount",
    "outofgears.words.findings.ScoreOf",
    "outofgears.words.findings.ShareQuota",
    "outofgears.words.findings.ShareSize",
    "outofgears.words.findings.SomeChoice",
    "outofgears.words.findings.SplitOptions",
    "outofgears.words.findings.SplitQuotas",
    "outofgears.words.findings.StealFromCircuit",
    "outofgears.words.findings.StealOptions",
    "outofgears.words.findings.Differs",
    "outofgears.words.findings.GameEnd",
    "outofgears.words.findings.HeldCard",
    "outofgears.words.findings.Over",
    "outofgears.words.findings.RefusedChoice",
    "outofgears.words.findings.ReserveHeld",
    "outofgears.words.findings.UpgradeOf",
    "outofgears.judge.replay.Departure",
    "outofgears.judge.replay.InferredChoice",
    "outofgears.judge.replay.Replay",
    "outofgears.judge.replay.TurnReplay",
    "outofgears.play.bots.MatchResult",
    "outofgears.play.game.GameInfo",
    "outofgears.play.observation.Observation",
    "outofgears.play.observation.PublicInfo",
    "outofgears.judge.explanation.ClauseNote",
    "outofgears.judge.explanation.ExplainedEvent",
    "outofgears.judge.explanation.Explanation",
    "outofgears.play.tournament.GameResult",
    "outofgears.play.tournament.Standing",
    "outofgears.play.tournament.TournamentResult",
}

#: Callables whose arguments have no name in :data:`SAMPLES` and a valid call of their own.
OWN_CALLS: dict[str, dict[str, Any]] = {
    "outofgears.play.learned.LearnedBot": {"temperature": 1.0, "weights": None},
    "outofgears.play.learned.read_weights": {"path": None},
    "outofgears.play.learned.weights_bytes": {"layers": [([0.0] * 515 * 29, [0.0] * 29)]},
    "outofgears.DefenceSteal": {"source": "feet", "gear": Gear(1)},
    "outofgears.Dump": {"number": 1, "gears": gears(1)},
    "outofgears.GameState": {
        "robots": STATE.robots,
        "dumps": STATE.dumps,
        "reserve": STATE.reserve,
        "players": STATE.players,
        "turn": 1,
        "options": Options(),
        "game_over": False,
    },
    "outofgears.Gear": {"colour": 1},
    "outofgears.Place": {"kind": PlaceKind.DUMP, "number": 1},
    "outofgears.Player": {"name": "Ada", "robots": (1,), "upgrade": None},
    "outofgears.Program": {"action": Action.ATTACK, "number": 1},
    "outofgears.Robot": {"number": 1, "player": "Ada", "feet": gears(1), "circuit": gears(2)},
    "outofgears.UpgradeProgram": {"card": UpgradeCard.SUPER_TRAP},
    "outofgears.describe_gears": {"items": gears(1, 2)},
    "outofgears.from_position": {
        "robots": {1: {"feet": gears(1)}, 2: {"circuit": gears(2)}},
        "dumps": {1: gears(3), 2: ()},
        "reserve": gears(4),
        "players": {"Ada": (1,), "Bo": (2,)},
        "turn": 2,
        "options": Options(),
        "upgrades": {},
    },
    "outofgears.legal_joint_programs": {"state": PAIRS, "player": "Ada"},
    "outofgears.score_robot": {"robot": STATE.robots[0]},
    "outofgears.setup_two_robot_game": {"players": {"Ada": (1, 5), "Bo": (2, 6)}, "seed": 1},
    "outofgears.log.GameLog": {"players": LOG.players, "start": LOG.start},
    "outofgears.log.PositionRecord": attrs.asdict(POSITION, recurse=False),
    "outofgears.log.SplitRecord": {"place": Place(PlaceKind.DUMP, 1), "shares": {1: gears(1)}},
    "outofgears.log.Start": {"seed": 1},
    "outofgears.log.StealRecord": {
        "defender": 1,
        "attacker": 2,
        "source": "feet",
        "gear": Gear(2),
    },
    "outofgears.log.WrittenBy": {"engine": "0.2.0", "spec": "1.2"},
    "outofgears.judge.following.table_position": {
        "played": RESULT.state,
        "record": TurnRecord(
            turn=1,
            programs=dict(PROGRAMS),
            recorded=Recorded(robots={1: RobotGears(circuit=())}),
            follows="table",
        ),
        "index": 0,
    },
    "outofgears.judge.conformance.ExternalEngine": {"command": "python3 -c pass"},
    "outofgears.log.cattrs_failure": {"error": ValueError("x")},
    "outofgears.log.format_json": {"value": {"a": [1, 2]}},
    "outofgears.log.json_path": {"parts": ["turns", 0]},
    "outofgears.log.parse_log_text": {"text": LOG_TEXT},
    "outofgears.log.read_log_bytes": {"raw": LOG_TEXT.encode()},
    "outofgears.log.read_log_text": {"text": LOG_TEXT},
    "outofgears.log.structure_log": {"data": json.loads(LOG_TEXT)},
    "outofgears.judge.compare.compare_results": {"base": RESULT, "other": RESULT},
    "outofgears.judge.compare.diff_events": {"base": RESULT.events, "other": RESULT.events},
    "outofgears.judge.compare.diff_states": {"base": STATE, "other": RESULT.state},
    "outofgears.judge.compare.difference_json": {"difference": compare_results(RESULT, RESULT)},
    "outofgears.judge.compare.drop_refused_choice": {"choices": Choices(), "error": REFUSAL},
    "outofgears.judge.compare.place_difference": {
        "place": Place(PlaceKind.DUMP, 1),
        "base": gears(1),
        "other": gears(2),
    },
    "outofgears.judge.compare.refusal_json": {"error": REFUSAL},
    "outofgears.judge.compare.refused_choice": {"error": REFUSAL},
    "outofgears.judge.cases.read_case": {
        "path": REPO_ROOT / "spec" / "conformance" / "hand" / "hand-end-1-the-last-turn.json"
    },
    "outofgears.judge.start.field_clause": {"path": "$.start.seed"},
    "outofgears.judge.start.structure_start": {"data": json.loads(LOG_TEXT), "source": "x.json"},
    "outofgears.judge.start.check_position": {
        "position": POSITION,
        "options": Options(),
        "source": "x.json",
    },
    "outofgears.play.actions.joint_action_mask": {"state": PAIRS, "player": "Ada"},
    "outofgears.play.observation.own_slots": {"robots": (1,), "upgrade": None},
    "outofgears.play.tournament.play_tournament": {
        "bots": ["random", "random"],
        "games": 2,
        "seed": 1,
        "turn_cap": 3,
    },
    "outofgears.play.tournament.check_tournament": {"bots": ["random", "random"], "games": 2},
    "outofgears.play.tournament.round_seeds": {"seed": 1, "round_number": 1},
    "outofgears.play.tournament.seating": {"bots": 3, "game": 2},
    "outofgears.play.tournament.TournamentGame": {
        "bots": ("random", "random"),
        "seed": 1,
        "turn_cap": 3,
        "options": Options(),
    },
    "Observation().dump": {"number": 1},
    "outofgears.table.session.TableSession": {
        "replayed": replay_log(GameLog(players={"Ada": (1,), "Bo": (2,)}, start=Start(seed=1)))
    },
}


#: Folders whose errors are being made typed on another branch; empty when none is.
PENDING: tuple[str, ...] = ()


def entries() -> list[tuple[str, Callable[..., Any]]]:
    found = [
        (name, value)
        for name, value in surface()
        if name not in BUILT_BY_THE_ENGINE and not name.startswith(PENDING)
    ]
    held = [("ChoiceSpace", SPACE)] + ([("Observation", OBSERVATION)] if not PENDING else [])
    for holder, instance in held:
        found += [(f"{holder}().{name}", method) for name, method in methods_of(instance)]
    return found


ENTRIES = entries()


def test_every_public_folder_module_declares_all() -> None:
    missing = [
        info.name
        for info in pkgutil.walk_packages(outofgears.__path__, "outofgears.")
        if info.name.startswith(PUBLIC_FOLDERS)
        and not info.ispkg
        and not info.name.startswith((*ADAPTERS, *INTERNAL))
        and not hasattr(importlib.import_module(info.name), "__all__")
    ]
    assert not missing, f"public modules without __all__: {missing}"


def test_every_public_callable_can_be_called() -> None:
    """A public callable whose required parameter has no sample is named here: add the sample
    (or an entry of :data:`OWN_CALLS`), and it is checked from then on."""
    uncallable = [
        name for name, function in ENTRIES if name not in OWN_CALLS and valid_call(function) is None
    ]
    assert not uncallable, f"no valid call for: {uncallable}"


def _kwargs_of(name: str, function: Callable[..., Any]) -> dict[str, Any]:
    if name in OWN_CALLS:
        return copy.copy(OWN_CALLS[name])
    kwargs = valid_call(function)
    assert kwargs is not None
    return kwargs


@pytest.mark.parametrize(("name", "function"), ENTRIES, ids=[name for name, _ in ENTRIES])
def test_the_valid_call_succeeds(name: str, function: Callable[..., Any]) -> None:
    call(function, _kwargs_of(name, function))


def _cases() -> list[tuple[str, Callable[..., Any], str, int]]:
    cases = []
    for name, function in ENTRIES:
        for parameter in parameters(function):
            for index in range(len(WRONG)):
                cases.append((name, function, parameter.name, index))
    return cases


CASES = _cases()


@pytest.mark.parametrize(
    ("name", "function", "argument", "index"),
    CASES,
    ids=[f"{name}-{argument}-{index}" for name, _, argument, index in CASES],
)
def test_a_wrong_argument_raises_only_the_projects_errors(
    name: str, function: Callable[..., Any], argument: str, index: int
) -> None:
    kwargs = _kwargs_of(name, function)
    kwargs[argument] = WRONG[index]
    message = ""
    try:
        call(function, kwargs)
    except OutOfGearsError as error:
        message = str(error)
    except Exception as error:
        pytest.fail(f"{name}({argument}={WRONG[index]!r}) raised {type(error).__name__}: {error}")
    assert len(message.splitlines()) <= 1, message
    if not message and name.startswith(STRICT):
        _accepted_only_if_of_the_right_type(function, name, argument, WRONG[index])


#: Where a value of the wrong type must be refused, not only fail cleanly: the engine's public
#: API, whose constructors and functions check their arguments' types at the boundary.
STRICT = tuple(f"outofgears.{name}" for name in outofgears.__all__)


def _accepted_only_if_of_the_right_type(
    function: Callable[..., Any], name: str, argument: str, value: object
) -> None:
    parameter = next(p for p in parameters(function) if p.name == argument)
    if value is None and parameter.default is None:
        return  # None is the documented default
    valid = _kwargs_of(name, function).get(argument, parameter.default)
    if type(value) is type(valid):
        return  # of the right type: refused by value elsewhere, or a legal value
    pytest.fail(f"{name}({argument}={value!r}) was accepted")


#: The learning environments' constructors (the adapters' entry points; the extra
#: ``outofgears[pettingzoo]``): a valid call each, every keyword then given every wrong value.
ENV_CALLS: dict[str, dict[str, Any]] = {
    "outofgears.play.gym.OutOfGearsEnv": {
        "robots": 3,
        "opponents": "random",
        "two_robots": False,
        "upgrades": False,
        "turn_cap": 3,
        "render_mode": None,
        "flat": False,
    },
    "outofgears.play.pettingzoo.parallel_env": {
        "robots": 3,
        "two_robots": False,
        "upgrades": False,
        "turn_cap": 3,
        "render_mode": None,
        "flat": False,
    },
    "outofgears.play.pettingzoo.OutOfGearsParallelEnv": {"robots": 3, "turn_cap": 3},
}


def _env_constructor(dotted: str) -> Callable[..., Any]:
    pytest.importorskip("pettingzoo")
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


ENV_CASES = [
    (dotted, argument, index)
    for dotted, kwargs in ENV_CALLS.items()
    for argument in kwargs
    for index in range(len(WRONG))
]


@pytest.mark.parametrize("dotted", ENV_CALLS)
def test_the_valid_env_construction_succeeds(dotted: str) -> None:
    _env_constructor(dotted)(**ENV_CALLS[dotted]).reset(seed=1)


@pytest.mark.parametrize(
    ("dotted", "argument", "index"),
    ENV_CASES,
    ids=[f"{dotted}-{argument}-{index}" for dotted, argument, index in ENV_CASES],
)
def test_a_wrong_env_argument_raises_only_the_projects_errors(
    dotted: str, argument: str, index: int
) -> None:
    kwargs = dict(ENV_CALLS[dotted])
    kwargs[argument] = WRONG[index]
    message = ""
    try:
        _env_constructor(dotted)(**kwargs)
    except OutOfGearsError as error:
        message = str(error)
    except Exception as error:
        pytest.fail(f"{dotted}({argument}={WRONG[index]!r}) raised {type(error).__name__}: {error}")
    assert len(message.splitlines()) <= 1, message
