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

import contextlib
import json
import os
import shlex
import signal
import subprocess
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
    InvalidStateError,
    OutOfGearsError,
    expect,
)
from outofgears.judge.start import start_state
from outofgears.log import LOG_FORMAT, LogError, structure_log
from outofgears.log.serialization import event_to_dict
from outofgears.rules.gears import GEAR_NAMES, Gear
from outofgears.rules.model import GameState
from outofgears.rules.scoring import player_scores, winners
from outofgears.rules.turn import resolve_turn

#: The protocol's name and version, sent with every request.
PROTOCOL: Final = "outofgears-conformance/1"

#: The kinds of refusal: a seeded setup, a position entered by hand, a program, a choice, a
#: turn after the end of the game.
REFUSAL_KINDS: Final = ("setup", "position", "program", "choice", "game over")

#: The keys of a request's ``input`` (the rest of a request: ``protocol``, ``spec``, ``case``).
INPUT_KEYS: Final = ("players", "options", "start", "turns")

JSON = Any
Engine = Callable[[Mapping[str, Any]], JSON]


class EngineFaultError(OutOfGearsError, RuntimeError):
    """An external engine that gave no usable answer: it crashed, hung, or wrote something that
    is not an answer to the case (``reason`` says which, in one line)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --- the reference engine ---------------------------------------------------------------------


def _expect_object(value: object, argument: str, keys: tuple[str, ...]) -> None:
    """Raise :class:`ArgumentTypeError` unless ``value`` is a JSON object holding ``keys``."""
    if not isinstance(value, Mapping) or not all(key in value for key in keys):
        holding = f" holding {', '.join(keys)}" if keys else ""
        raise ArgumentTypeError(argument, f"a JSON object{holding}", value)


def _expect_case(case: object, keys: tuple[str, ...]) -> None:
    """Raise :class:`ArgumentTypeError` unless ``case`` is a case with ``keys`` and an input."""
    _expect_object(case, "case", keys)
    assert isinstance(case, Mapping)
    _expect_object(case["input"], "case's input", ())


def request_of(case: Mapping[str, Any]) -> dict[str, Any]:
    """The request an engine receives for ``case``: its input, with the protocol, the spec
    version and the case's ID.

    >>> request_of({"id": "x", "input": {"players": {}}})["protocol"]
    'outofgears-conformance/1'
    """
    _expect_case(case, ("id", "input"))
    return {"protocol": PROTOCOL, "spec": SPEC_VERSION, "case": case["id"], **case["input"]}


def _log_of(request: Mapping[str, Any]) -> dict[str, Any]:
    """The request as a log (``spec/log-format.md``), its turns numbered from the start's."""
    start = request["start"]
    first = start.get("position", {}).get("turn", 1) if isinstance(start, dict) else 1
    turns = [{"turn": first + index, **turn} for index, turn in enumerate(request.get("turns", []))]
    log = {"format": LOG_FORMAT, "players": request["players"], "start": start, "turns": turns}
    if "options" in request:
        log["options"] = request["options"]
    return log


def reference_answer(request: Mapping[str, Any]) -> dict[str, Any]:
    """This engine's answer to a request of the protocol.

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
        log = structure_log(_log_of(request), "<request>")
        state = start_state(log, "<request>")
    except LogError as error:
        return refusal_answer(case, kind, error.clause, error.robot)
    events: JSON = []
    for turn in log.turns:
        choices = turn.choices.to_choices() if turn.choices is not None else None
        try:
            result = resolve_turn(state, turn.programs, choices=choices)
        except GameOverError as error:
            return refusal_answer(case, "game over", error.clause, None)
        except IllegalProgramError as error:
            return refusal_answer(case, "program", error.clause, error.robot)
        except IllegalChoiceError as error:
            return refusal_answer(case, "choice", error.clause, error.robot)
        state = result.state
        events = [event_to_dict(event) for event in result.events]
    return {"case": case, **position_answer(state), "events": events}


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
    _expect_object(expected, "expected", ())
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
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
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
    _expect_case(case, ("id", "input", "expected"))
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
    return CaseResult(case["id"], ids, tuple(differences(case["expected"], answer)))


@frozen
class ExternalEngine:
    """An engine run as a program: one process per case, the request as JSON on its standard
    input, its answer as JSON on its standard output, within ``timeout`` seconds."""

    command: str
    timeout: float = 10.0

    def __call__(self, request: Mapping[str, Any]) -> JSON:
        returncode, out, err = self._run(json.dumps(request).encode())
        if returncode != 0:
            last = err.decode(errors="replace").strip().splitlines()
            said = f": {last[-1][:200]}" if last else ""
            how = (
                f"was killed by signal {-returncode}"
                if returncode < 0
                else f"exited with status {returncode}"
            )
            raise EngineFaultError(f"the engine {how}{said}")
        text = out.decode(errors="replace")
        try:
            return json.loads(text)
        except ValueError:
            raise EngineFaultError(f"its answer is not JSON: {_show(text.strip(), 80)}") from None

    def _run(self, request: bytes) -> tuple[int, bytes, bytes]:
        """Run the engine in a process group of its own, so that a hang is ended whole,
        children included (they would otherwise hold its output open)."""
        try:
            process = subprocess.Popen(
                shlex.split(self.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
        except OSError as error:
            raise EngineFaultError(
                f"the engine cannot be started: {error.strerror or error}"
            ) from None
        try:
            out, err = process.communicate(request, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise EngineFaultError(
                f"no answer within {self.timeout:g} s (the engine hangs?)"
            ) from None
        return process.returncode, out, err


def engine_command_ok(command: str) -> str | None:
    """Why ``command`` cannot be an engine's command line, or ``None``.

    >>> engine_command_ok(""), engine_command_ok("python3 'x")
    ('the engine command is empty', 'the engine command cannot be read: No closing quotation')
    """
    expect(command, str, "command", "a str")
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


def load_cases(folder: Path | str) -> list[dict[str, Any]]:
    """Every case of ``folder`` (its ``*.json`` files below ``hand/`` and ``generated/``), in
    the order of their IDs.

    Raises:
        InvalidStateError: A file that is not a case, naming it (a ``ValueError``).
    """
    expect(folder, (str, os.PathLike), "folder", "a path")
    root = Path(folder)
    cases = []
    for path in sorted(root.glob("*/*.json")):
        if path.parent.name not in ("hand", "generated"):
            continue
        try:
            case = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise InvalidStateError(f"{path}: not a JSON file: {error}") from None
        if not isinstance(case, dict) or not all(
            key in case for key in ("id", "clauses", "input", "expected")
        ):
            raise InvalidStateError(f"{path}: a case holds id, clauses, input and expected")
        cases.append(case)
    return sorted(cases, key=lambda case: str(case["id"]))


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


def serve() -> None:
    """Answer one request of the protocol from standard input on standard output: this engine
    as an external program (``python -m outofgears.judge.conformance``), the model of an
    adapter."""
    import sys

    request = json.load(sys.stdin)
    json.dump(reference_answer(request), sys.stdout)


if __name__ == "__main__":
    serve()


#: The public names of this module (the rest serves them).
__all__ = [
    "PROTOCOL",
    "CaseResult",
    "EngineFaultError",
    "ExternalEngine",
    "by_clause",
    "default_cases_folder",
    "differences",
    "engine_command_ok",
    "load_cases",
    "reference_answer",
    "request_of",
    "run_case",
]
