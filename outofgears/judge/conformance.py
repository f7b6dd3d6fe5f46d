"""The conformance suite of the specification (``spec/conformance/``): its cases, the reference
engine's answer to each, and the comparison of any engine's answer with the expected one.

A **case** is a JSON object: its ``id``, the clause and ruling IDs it checks, where its expected
answer comes from (``"origin"``: worked by ``"hand"`` or ``"generated"`` by the engine), its
``input`` and its ``expected`` answer. The ``input`` is what an engine under test receives on
standard input, the **request**: the players, the options and the start of a log
(``spec/log-format.md``: a seed, or a position), then the turns to play, each its programs and
optionally its choices (possibly none: a setup case). The **answer** is one JSON object: the
position after the last turn (in the log's terms, the reserve in draw order), whether the game
is over, and then the scores, the ranking and the winners; the events of the last turn; or the
refusal, its ``kind``, ``clause`` and ``robot``, when a check of the spec refuses the input.

:func:`reference_answer` is this engine's answer; :func:`differences` compares an answer with a
case's expectation; :func:`run_case` does both for one case with any engine, and
:class:`ExternalEngine` runs a program over the protocol, turning a crash, a hang, a garbled or
a misaddressed answer into a failure that says so (:class:`EngineFaultError`), never an exception.
"""

from __future__ import annotations

import json
import reprlib
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from attrs import frozen

from outofgears._version import SPEC_VERSION
from outofgears.errors import (
    ArgumentTypeError,
    GameOverError,
    IllegalChoiceError,
    IllegalProgramError,
    OutOfGearsError,
    expect,
)
from outofgears.judge.cases import (
    INPUT_KEYS,
    REFUSAL_KINDS,
    CaseError,
    check_case,
    check_expected,
    load_cases,
    select_cases,
)
from outofgears.judge.engine_process import (
    EngineFaultError,
    EngineProcess,
    expect_timeout,
    parse_answer,
)
from outofgears.judge.start import start_state, structure_start
from outofgears.log import LOG_CONVERTER, LOG_FORMAT, ChoicesRecord, LogError, cattrs_failure
from outofgears.log.serialization import event_to_dict
from outofgears.rules.gears import GEAR_NAMES, ROBOT_NUMBERS, Gear
from outofgears.rules.model import GameState
from outofgears.rules.programs import (
    PROGRAM_TEXTS,
    refuse_turn_on_finished_game,
    validate_programs,
)
from outofgears.rules.scoring import player_scores, winners
from outofgears.rules.turn import TurnResult, resolve_turn

#: The protocol's name and version, sent with every request.
PROTOCOL: Final = "outofgears-conformance/1"

JSON = Any
Engine = Callable[[Mapping[str, Any]], JSON]


# --- the reference engine ---------------------------------------------------------------------


def _expect_object(value: object, argument: str, keys: tuple[str, ...]) -> None:
    """Raise :class:`ArgumentTypeError` unless ``value`` is a JSON object holding ``keys``."""
    if not isinstance(value, Mapping) or not all(key in value for key in keys):
        holding = f" holding {', '.join(keys)}" if keys else ""
        raise ArgumentTypeError(argument, f"a JSON object{holding}", value)


def request_of(case: Mapping[str, Any]) -> dict[str, Any]:
    """The request an engine receives for ``case``: its input, with the protocol, the spec
    version and the case's ID.

    >>> request_of({"id": "x", "input": {"players": {}}})["protocol"]
    'outofgears-conformance/1'
    """
    _expect_object(case, "case", ("id", "input"))
    _expect_object(case["input"], "case's input", ())
    given = {key: case["input"][key] for key in INPUT_KEYS if key in case["input"]}
    return {"protocol": PROTOCOL, "spec": SPEC_VERSION, "case": case["id"], **given}


def _log_of(request: Mapping[str, Any]) -> dict[str, Any]:
    """The request's header and start as a log without turns (``spec/log-format.md``), its
    fields in the order of that document."""
    options = {"options": request["options"]} if "options" in request else {}
    return {
        "format": LOG_FORMAT,
        "players": request["players"],
        **options,
        "start": request["start"],
        "turns": [],
    }


def reference_answer(request: Mapping[str, Any]) -> dict[str, Any]:
    """This engine's answer to a request of the protocol: the start checked as a log's (GEN-2
    item 1), then each turn in order, its programs read and checked before its choices, so that
    a refusal cites what GEN-2 says.

    >>> answer = reference_answer({"case": "c", "players": {"A": [1], "B": [2]},
    ...                            "start": {"seed": 1}, "turns": []})
    >>> answer["position"]["turn"], answer["game_over"]
    (1, False)
    """
    _expect_object(request, "request", ("players", "start"))
    case = request.get("case")
    start = request.get("start")
    kind = "setup" if isinstance(start, dict) and "seed" in start else "position"
    try:
        state = start_state(structure_start(_log_of(request), "<request>"), "<request>")
    except LogError as error:
        return refusal_answer(case, kind, error.clause, error.robot)
    turns = request.get("turns", [])
    if not isinstance(turns, list):
        return refusal_answer(case, "program", "PRG-1", None)
    events: JSON = []
    for turn in turns:
        try:
            result = _play(state, turn)
        except GameOverError as error:
            return refusal_answer(case, "game over", error.clause, None)
        except IllegalProgramError as error:
            robot = error.robot if error.robot in ROBOT_NUMBERS else None
            return refusal_answer(case, "program", error.clause, robot)
        except IllegalChoiceError as error:
            return refusal_answer(case, "choice", error.clause, error.robot)
        state = result.state
        events = [event_to_dict(event) for event in result.events]
    return {"case": case, **position_answer(state), "events": events}


#: The clause a choice of the wrong form cites: the clause of its decision (GEN-2 item 4).
CHOICE_CLAUSES: Final = {"defence_steals": "ATK-4", "assemblies": "ASM-1", "splits": "SPL-5"}


def _play(state: GameState, turn: JSON) -> TurnResult:
    """One turn of a request: PRG-5, then the programs as GEN-2 item 3 orders their checks (a
    text that is no program among them, PRG-1), then the choices' form, then the turn."""
    refuse_turn_on_finished_game(state)
    if not isinstance(turn, dict) or not isinstance(turn.get("programs"), dict):
        raise IllegalProgramError(0, "a turn is an object with its programs", clause="PRG-1")
    programs: dict[Any, Any] = {
        (int(key) if key in _ROBOT_KEYS else key): PROGRAM_TEXTS.get(text, text)
        if isinstance(text, str)
        else text
        for key, text in turn["programs"].items()
    }
    validate_programs(state, programs)
    choices = None
    if turn.get("choices") is not None:
        try:
            record = LOG_CONVERTER.structure(turn["choices"], ChoicesRecord)
        except Exception as error:  # cattrs' grouped failures: its first is the one named
            parts, reason = cattrs_failure(error)
            field = parts[0] if parts else None
            raise IllegalChoiceError(
                None, reason, clause=CHOICE_CLAUSES.get(str(field), "SPL-5")
            ) from None
        choices = record.to_choices()
    return resolve_turn(state, programs, choices=choices)


_ROBOT_KEYS: Final = {str(n): n for n in ROBOT_NUMBERS}


def refusal_answer(
    case: object, kind: str, clause: str | None, robot: int | None
) -> dict[str, Any]:
    """An answer that refuses the input."""
    return {"case": case, "refusal": {"kind": kind, "clause": clause, "robot": robot}}


def position_answer(state: GameState) -> dict[str, Any]:
    """The position, whether the game is over, and the scores, the ranking and the winners as
    the position stands (final at the end of the game; what a turn cap would give before it,
    R-TURN-CAP)."""
    answer: dict[str, Any] = {
        "position": {
            "turn": state.turn,
            "robots": {
                str(robot.number): {"feet": _names(robot.feet), "circuit": _names(robot.circuit)}
                for robot in state.robots
            },
            "dumps": {str(dump.number): _names(dump.gears) for dump in state.dumps},
            "reserve": _names(state.reserve),
            "upgrades": {p.name: p.upgrade.value for p in state.players if p.upgrade is not None},
        },
        "game_over": state.game_over,
    }
    scores = player_scores(state)
    answer["scores"] = {score.player: score.points for score in scores}
    lowest = {player.name: min(player.robots) for player in state.players}
    answer["ranking"] = ranking(
        [(s.player, s.points, s.own_colour, lowest[s.player]) for s in scores]
    )
    answer["winners"] = sorted(winners(state))
    return answer


def _names(gears: Iterable[Gear]) -> list[str]:
    return [str(gear) for gear in gears]


def ranking(scores: Iterable[tuple[str, int, int, int]]) -> list[str]:
    """The players best first (END-3): by points, then own-colour gears, then the lowest robot
    number; each score is ``(player, points, own-colour gears, lowest robot)``.

    >>> ranking([("B", 5, 1, 2), ("A", 5, 1, 3), ("C", 7, 0, 1)])
    ['C', 'B', 'A']
    """
    ordered = sorted(scores, key=lambda score: (-score[1], -score[2], score[3]))
    return [score[0] for score in ordered]


# --- comparing answers ------------------------------------------------------------------------

_GEAR_ORDER: Final = {name: index for index, name in enumerate(GEAR_NAMES)}


def _sorted_gears(value: JSON) -> JSON:
    if isinstance(value, list) and all(isinstance(g, str) for g in value):
        return sorted(value, key=lambda name: (_GEAR_ORDER.get(name, 99), name))
    return value


def normal_gears(position: JSON) -> JSON:
    """A position with every collection of gears in one order (the reserve keeps its draw
    order), so that two ways of writing one position compare equal.

    >>> normal_gears({"robots": {"1": {"feet": ["orange", "red"]}}, "dumps": {"2": []}})
    {'robots': {'1': {'feet': ['red', 'orange']}}, 'dumps': {'2': []}}
    """
    if not isinstance(position, dict):
        return position
    normal = dict(position)
    robots = position.get("robots")
    if isinstance(robots, dict):
        normal["robots"] = {
            n: {place: _sorted_gears(pile) for place, pile in held.items()}
            if isinstance(held, dict)
            else held
            for n, held in robots.items()
        }
    dumps = position.get("dumps")
    if isinstance(dumps, dict):
        normal["dumps"] = {n: _sorted_gears(pile) for n, pile in dumps.items()}
    return normal


#: The answer's fields compared for an answer that is a position.
POSITION_FIELDS: Final = ("position", "game_over", "scores", "ranking", "winners")


def differences(expected: Mapping[str, Any], answer: Mapping[str, Any]) -> list[str]:
    """What ``answer`` gets wrong against a case's ``expected`` answer, one line per field
    (empty when it passes). Only the events of the kinds the case names are compared.

    >>> differences({"refusal": {"kind": "program", "clause": "PRG-1", "robot": 3}},
    ...             {"refusal": {"kind": "program", "clause": "PRG-2", "robot": 3}})
    ['refusal.clause: expected "PRG-1", got "PRG-2"']
    """
    check_expected(expected)
    _expect_object(answer, "answer", ())
    if "refusal" in expected:
        got = answer.get("refusal")
        if not isinstance(got, dict):
            came = "a position" if got is None else f"the refusal {_show(got)}"
            return [f"expected a refusal {_show(expected['refusal'])}, got {came}"]
        return [
            f"refusal.{key}: expected {_show(want)}, got {_show(got.get(key))}"
            for key, want in expected["refusal"].items()
            if got.get(key) != want
        ]
    if "refusal" in answer:
        return [f"expected a position, got the refusal {_show(answer['refusal'])}"]
    found: list[str] = []
    for key in POSITION_FIELDS:
        if key not in expected:
            continue
        want, got = expected[key], answer.get(key)
        if key == "position":
            found += _position_differences(want, got)
        elif want != got:
            found.append(f"{key}: expected {_show(want)}, got {_show(got)}")
    kinds = expected.get("event_kinds")
    if kinds:
        events = answer.get("events")
        got_events = (
            [e for e in events if isinstance(e, dict) and e.get("type") in kinds]
            if isinstance(events, list)
            else events
        )
        if _normal_events(got_events) != _normal_events(expected.get("events", [])):
            found.append(
                f"events ({', '.join(kinds)}): expected {_show(expected.get('events'))}, "
                f"got {_show(got_events)}"
            )
    return found


def _normal_events(events: JSON) -> JSON:
    """Events with their lists of gears in one order (``left`` of a split is a collection)."""
    if not isinstance(events, list):
        return events
    return [
        {key: _sorted_gears(value) for key, value in event.items()}
        if isinstance(event, dict)
        else event
        for event in events
    ]


def _position_differences(want: JSON, got: JSON) -> list[str]:
    """The differences of a position from the expected one, where only what the expected one
    gives is compared (as a log's recorded values are: a hand-worked case may give a few
    places; a robot's missing place is empty in a full answer)."""
    want, got = normal_gears(want), normal_gears(got)
    if not isinstance(got, dict):
        return [f"position: expected {_show(want)}, got {_show(got)}"]
    found = []
    for key, wanted in want.items():
        given = got.get(key)
        if key == "robots" and isinstance(wanted, dict):
            held = given if isinstance(given, dict) else {}
            for robot, places in wanted.items():
                found_places = held.get(robot)
                has = found_places if isinstance(found_places, dict) else {}
                for place, pile in places.items():
                    if has.get(place, []) != pile:
                        found.append(
                            f"position.robots.{robot}.{place}: expected {_show(pile)}, "
                            f"got {_show(has.get(place))}"
                        )
        elif key == "dumps" and isinstance(wanted, dict):
            piles = given if isinstance(given, dict) else {}
            for dump, pile in wanted.items():
                if piles.get(dump) != pile:
                    found.append(
                        f"position.dumps.{dump}: expected {_show(pile)}, got {_show(piles.get(dump))}"
                    )
        elif given != wanted and not (key == "upgrades" and not wanted and given is None):
            found.append(f"position.{key}: expected {_show(wanted)}, got {_show(given)}")
    return found


def _show(value: JSON, limit: int = 200) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)
    except (RecursionError, ValueError, TypeError):
        text = reprlib.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- running cases ----------------------------------------------------------------------------


@frozen
class CaseResult:
    """The outcome of one case: its ID and clauses, and what went wrong (nothing if it passed;
    ``fault`` when the engine gave no usable answer)."""

    case: str
    clauses: tuple[str, ...]
    problems: tuple[str, ...]
    fault: str | None = None

    @property
    def passed(self) -> bool:
        return not self.problems and self.fault is None


def run_case(case: Mapping[str, Any], engine: Engine) -> CaseResult:
    """Ask ``engine`` for its answer to ``case`` and compare it with the expected one.

    >>> case = {"id": "c", "clauses": ["SET-1"], "input": {"players": {"A": [1], "B": [2]},
    ...         "start": {"seed": 1}, "turns": []}, "expected": {"game_over": False}}
    >>> run_case(case, reference_answer).passed
    True
    """
    check_case(case)
    if not callable(engine):
        raise ArgumentTypeError("engine", "a function from a request to an answer", engine)
    ids = tuple(case.get("clauses", ())) + tuple(case.get("rulings", ()))
    try:
        answer = engine(request_of(case))
    except EngineFaultError as fault:
        return CaseResult(case["id"], ids, (), fault.reason)
    if not isinstance(answer, dict):
        return CaseResult(case["id"], ids, (), f"its answer is not a JSON object: {_show(answer)}")
    if answer.get("case") != case["id"]:
        return CaseResult(
            case["id"],
            ids,
            (),
            f"it answered case {_show(answer.get('case'))}, not {_show(case['id'])}",
        )
    if "position" not in answer and "refusal" not in answer:
        return CaseResult(case["id"], ids, (), "its answer has neither a position nor a refusal")
    problems = differences(case["expected"], answer) + fired(case.get("not_clauses", ()), answer)
    return CaseResult(case["id"], ids, tuple(problems))


def fired(not_clauses: Iterable[str], answer: Mapping[str, Any]) -> list[str]:
    """The clauses a case says must not fire that the answer cites anyway: its refusal's
    clause, or an event's.

    >>> fired(["SPL-4"], {"events": [{"type": "split_resolved", "clause": "SPL-4"}]})
    ['events: an event cites SPL-4, which must not fire here']
    """
    if isinstance(not_clauses, str) or not isinstance(not_clauses, Iterable):
        raise ArgumentTypeError("not_clauses", "a list of clause IDs", not_clauses)
    barred = set(not_clauses)
    if not all(isinstance(clause, str) for clause in barred):
        raise ArgumentTypeError("not_clauses", "a list of clause IDs", not_clauses)
    _expect_object(answer, "answer", ())
    refusal = answer.get("refusal")
    cited = [refusal.get("clause")] if isinstance(refusal, dict) else []
    found = [f"refusal.clause: {c}, which must not fire here" for c in cited if c in barred]
    events = answer.get("events")
    if isinstance(events, list):
        clauses = {e.get("clause") for e in events if isinstance(e, dict)}
        found += [
            f"events: an event cites {c}, which must not fire here"
            for c in sorted(barred & {c for c in clauses if isinstance(c, str)})
        ]
    return found


class ExternalEngine:
    """An engine run as a program (:mod:`outofgears.judge.engine_process`): one process per
    case, the request as JSON on its standard input, its answer as JSON on its standard output,
    within ``timeout`` seconds; or, with ``batch``, one process for every case, a request a line
    and an answer a line (a process that faults is ended, and the next case starts another).

    The engine's command line is read as a shell would split it, but run without a shell."""

    def __init__(self, command: str, timeout: float = 10.0, *, batch: bool = False) -> None:
        expect(command, str, "command", "a str")
        problem = engine_command_ok(command)
        if problem is not None:
            raise ArgumentTypeError("command", "an engine's command line", command)
        expect(batch, bool, "batch", "True or False")
        self.command = command
        self.timeout = expect_timeout(timeout)
        self.batch = batch
        self._words = shlex.split(command)
        self._process: EngineProcess | None = None

    def __repr__(self) -> str:
        return f"ExternalEngine({self.command!r}, {self.timeout!r}, batch={self.batch!r})"

    def __call__(self, request: Mapping[str, Any]) -> JSON:
        _expect_object(request, "request", ())
        line = json.dumps(request, ensure_ascii=False).encode()
        if not self.batch:
            return parse_answer(EngineProcess(self._words).answer_once(line, self.timeout))
        if self._process is None or not self._process.running:
            self._process = EngineProcess(self._words)
        try:
            return parse_answer(self._process.answer_line(line, self.timeout))
        except EngineFaultError:
            self._process.close()
            self._process = None
            raise

    def close(self) -> None:
        """End the batch engine's process, if one runs."""
        if self._process is not None:
            self._process.close(grace=1.0)
            self._process = None

    def __enter__(self) -> ExternalEngine:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def engine_command_ok(command: str) -> str | None:
    """Why ``command`` cannot be an engine's command line, or ``None``.

    >>> engine_command_ok(""), engine_command_ok("python3 'x")
    ('the engine command is empty', 'the engine command cannot be read: No closing quotation')
    """
    expect(command, str, "command", "a str")
    if "\0" in command:
        return "the engine command holds a NUL character"
    try:
        words = shlex.split(command)
    except ValueError as error:
        return f"the engine command cannot be read: {error}"
    return None if words else "the engine command is empty"


# --- the cases --------------------------------------------------------------------------------


def default_cases_folder() -> Path | None:
    """``spec/conformance`` of the source tree this package runs from, if it is there."""
    folder = Path(__file__).resolve().parents[2] / "spec" / "conformance"
    return folder if folder.is_dir() else None


def by_clause(results: Sequence[CaseResult]) -> dict[str, tuple[int, int]]:
    """For each clause and ruling ID, how many of its cases passed and how many it has.

    >>> by_clause([CaseResult("a", ("SPL-1",), ()), CaseResult("b", ("SPL-1",), ("x",))])
    {'SPL-1': (1, 2)}
    """
    if not isinstance(results, list | tuple) or not all(isinstance(r, CaseResult) for r in results):
        raise ArgumentTypeError("results", "a list of CaseResult", results)
    tally: dict[str, list[int]] = {}
    for result in results:
        for clause in result.clauses:
            counts = tally.setdefault(clause, [0, 0])
            counts[0] += result.passed
            counts[1] += 1
    return {clause: (passed, total) for clause, (passed, total) in sorted(tally.items())}


def serve(batch: bool = False) -> int:
    """This engine as an external program (``python -m outofgears.judge.conformance``, the
    model of an adapter): one request read from standard input, its answer written on standard
    output; with ``batch`` (``--batch``), a request a line, an answer a line, until the input
    ends. A request that cannot be read is said in one line on standard error, and the exit
    status is 2 (in a batch, the answer line is then ``{"error": ...}`` and the batch goes on).
    """
    import sys

    expect(batch, bool, "batch", "True or False")
    if not batch:
        text = sys.stdin.buffer.read(MAX_REQUEST_BYTES + 1)
        answer = _serve_one(text)
        if "error" in answer:
            print(f"outofgears conformance engine: {answer['error']}", file=sys.stderr)
            return 2
        sys.stdout.write(json.dumps(answer, ensure_ascii=False))
        return 0
    status = 0
    for line in sys.stdin.buffer:
        answer = _serve_one(line)
        status = 2 if "error" in answer else status
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return status


#: The largest request ``serve`` reads, in bytes.
MAX_REQUEST_BYTES: Final = 4 * 1024 * 1024


def _serve_one(raw: bytes) -> dict[str, Any]:
    if len(raw) > MAX_REQUEST_BYTES:
        return {"error": f"the request is longer than {MAX_REQUEST_BYTES} bytes"}
    try:
        request = parse_answer(raw)
    except EngineFaultError as fault:
        return {"error": fault.reason.replace("its answer", "the request")}
    if not isinstance(request, dict) or "players" not in request or "start" not in request:
        return {"error": "the request is not a JSON object holding players and start"}
    try:
        return reference_answer(request)
    except OutOfGearsError as error:
        return {"error": str(error)}


if __name__ == "__main__":
    import sys

    raise SystemExit(serve(batch=sys.argv[1:] == ["--batch"]))


#: The public names of this module (the rest serves them).
__all__ = [
    "CHOICE_CLAUSES",
    "INPUT_KEYS",
    "PROTOCOL",
    "REFUSAL_KINDS",
    "CaseError",
    "CaseResult",
    "EngineFaultError",
    "ExternalEngine",
    "by_clause",
    "default_cases_folder",
    "differences",
    "engine_command_ok",
    "fired",
    "load_cases",
    "reference_answer",
    "request_of",
    "run_case",
    "select_cases",
]
