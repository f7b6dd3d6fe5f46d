"""The conformance runner against hostile engines and hostile case files (issue 35, class 1),
and its batch protocol (issue 33): every way an engine can misbehave is a fault line, every
case file it cannot use is exit 2 naming the file and the JSON path, every bad argument of its
library a typed error."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from outofgears.cli.main import main
from outofgears.errors import OutOfGearsError
from outofgears.judge.conformance import (
    CaseError,
    CaseResult,
    ExternalEngine,
    by_clause,
    differences,
    load_cases,
    reference_answer,
    request_of,
    run_case,
    select_cases,
)

REPO = Path(__file__).resolve().parents[1]
SUITE = REPO / "spec" / "conformance"
ONE_CASE = SUITE / "hand" / "hand-trp-2-a-sprung-trap-takes-the-dump.json"


@pytest.fixture
def one_case(tmp_path: Path) -> Path:
    (tmp_path / "suite" / "hand").mkdir(parents=True)
    shutil.copy(ONE_CASE, tmp_path / "suite" / "hand")
    return tmp_path / "suite"


def conformance(*args: str) -> Any:
    return CliRunner().invoke(main, ["conformance", *args])


def fault_line(result: Any) -> str:
    faults = [line for line in result.output.splitlines() if "gave no answer" in line]
    assert faults, result.output
    return str(faults[0])


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0]
    except OSError:
        return False
    return state != "Z"


def _gone(pid: int) -> bool:
    for _ in range(50):  # the kill is sent; give the kernel a moment
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


# --- engines that write without end, or too deep -----------------------------------------------


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("sh -c 'cat /dev/zero'", "its answer is longer than 4194304 bytes"),
        ("sh -c 'cat /dev/zero >&2'", "it wrote more than 4194304 bytes to standard error"),
    ],
    ids=["output", "error"],
)
def test_an_engine_writing_without_end_is_cut_at_the_cap(
    one_case: Path, command: str, said: str
) -> None:
    result = conformance("--engine", command, "--cases", str(one_case), "--timeout", "60")
    assert result.exit_code == 1
    assert fault_line(result) == f"  the engine gave no answer: {said}"


@pytest.mark.parametrize(
    "answer",
    ["[" * 100_000, '{"a": ' * 100_000, None],
    ids=["arrays", "objects", "a-position-990-deep"],
)
def test_an_answer_nested_too_deep_is_a_fault_not_a_crash(
    one_case: Path, tmp_path: Path, answer: str | None
) -> None:
    if answer is None:  # a well-formed answer whose position nests 990 deep
        deep = "[" * 990 + "]" * 990
        answer = json.dumps({"case": "hand-trp-2-a-sprung-trap-takes-the-dump"})[:-1]
        answer += f', "position": {{"robots": {{"1": {{"feet": {deep}}}}}}}}}'
    (tmp_path / "answer.txt").write_text(answer)
    command = f"sh -c 'cat {tmp_path / 'answer.txt'}'"
    result = conformance("--engine", command, "--cases", str(one_case))
    assert result.exit_code == 1
    assert (
        fault_line(result)
        == "  the engine gave no answer: its answer nests more than 32 levels deep"
    )


# --- engines whose children outlive them -------------------------------------------------------


def test_a_child_in_a_session_of_its_own_does_not_hold_the_runner_past_its_time_out(
    one_case: Path, tmp_path: Path
) -> None:
    pid_file = tmp_path / "child.pid"
    command = f"sh -c 'setsid sleep 30 & echo $! > {pid_file}; sleep 5'"
    started = time.monotonic()
    result = conformance("--engine", command, "--cases", str(one_case), "--timeout", "1")
    # Not a benchmark: a runner held by the child would take its 30 seconds.
    assert time.monotonic() - started < 20
    assert (
        fault_line(result)
        == "  the engine gave no answer: no answer within 1 s (the engine hangs?)"
    )
    assert _gone(int(pid_file.read_text())), "the child that left the group still runs"


def test_a_detached_child_does_not_outlive_the_runner(one_case: Path, tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    command = f"sh -c 'sleep 40 </dev/null >/dev/null 2>&1 & echo $! > {pid_file}; echo {{}}'"
    result = conformance("--engine", command, "--cases", str(one_case))
    assert result.exit_code == 1  # {} answers no case
    assert _gone(int(pid_file.read_text())), "the detached child still runs"


# --- the command line's numbers ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--timeout", "nan"),
        ("--timeout", "inf"),
        ("--timeout", "\u0663"),
        ("--timeout", "\uff13"),
        ("--max-faults", "\u0663"),
    ],
)
def test_a_number_option_takes_ascii_digits_and_finite_values_only(
    one_case: Path, option: str, value: str
) -> None:
    result = conformance("--engine", "true", "--cases", str(one_case), option, value)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert f"Invalid value for '{option}'" in result.output


# --- case files the runner cannot use ----------------------------------------------------------


def _broken(change: Callable[[dict[str, Any]], None]) -> str:
    case = json.loads(ONE_CASE.read_text("utf-8"))
    change(case)
    return json.dumps(case)


MALFORMED = {
    "clauses-a-number": (_broken(lambda c: c.update(clauses=5)), "$.clauses"),
    "clauses-null": (_broken(lambda c: c.update(clauses=None)), "$.clauses"),
    "clauses-nested": (_broken(lambda c: c.update(clauses=[["TRP-2"]])), "$.clauses[0]"),
    "rulings-a-string": (_broken(lambda c: c.update(rulings="R-TRAP")), "$.rulings"),
    "id-a-number": (_broken(lambda c: c.update(id=7)), "$.id"),
    "no-expected": (_broken(lambda c: c.pop("expected")), "$"),
    "expected-a-list": (_broken(lambda c: c.update(expected=[])), "$.expected"),
    "expected-unknown-key": (_broken(lambda c: c["expected"].update(score=3)), "$.expected.score"),
    "places-a-list": (
        _broken(lambda c: c["expected"].update(position={"robots": {"1": ["red"]}})),
        "$.expected.position.robots.1",
    ),
    "a-pile-of-numbers": (
        _broken(lambda c: c["expected"].update(position={"dumps": {"1": [1]}})),
        "$.expected.position.dumps.1[0]",
    ),
    "refusal-kind-unknown": (
        _broken(
            lambda c: c.update(expected={"refusal": {"kind": "x", "clause": None, "robot": 1}})
        ),
        "$.expected.refusal.kind",
    ),
    "refusal-robot-a-string": (
        _broken(
            lambda c: c.update(
                expected={"refusal": {"kind": "setup", "clause": None, "robot": "1"}}
            )
        ),
        "$.expected.refusal.robot",
    ),
    "input-a-list": (_broken(lambda c: c.update(input=[])), "$.input"),
    "input-overrides-the-protocol": (
        _broken(lambda c: c["input"].update(protocol="x")),
        "$.input.protocol",
    ),
    "turns-an-object": (_broken(lambda c: c["input"].update(turns={})), "$.input.turns"),
    "events-not-objects": (
        _broken(lambda c: c["expected"].update(event_kinds=["split_resolved"], events=[1])),
        "$.expected.events[0]",
    ),
    "not-json": ("{", "$"),
    "nested-100000": ("[" * 100_000, "$"),
    "a-list": ("[]", "$"),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_case_is_exit_2_naming_the_file_and_the_json_path(
    one_case: Path, name: str
) -> None:
    text, path = MALFORMED[name]
    (one_case / "hand" / "z.json").write_text(text, encoding="utf-8")
    result = conformance("--engine", "true", "--cases", str(one_case))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert f"{one_case / 'hand' / 'z.json'}: {path}: " in result.output


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_special_file_among_the_cases_is_refused_unread(one_case: Path, kind: str) -> None:
    target = one_case / "hand" / "z.json"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    result = conformance("--engine", "true", "--cases", str(one_case))
    assert result.exit_code == 2
    assert f"{target}: $: not a regular file" in result.output


def test_a_case_id_given_twice_is_refused(one_case: Path) -> None:
    shutil.copy(ONE_CASE, one_case / "hand" / "copy.json")
    with pytest.raises(CaseError, match=r"dump\.json: \$\.id: the case .* is given twice"):
        load_cases(one_case)


# --- the library's arguments -------------------------------------------------------------------

BAD_CALLS: dict[str, Callable[[], object]] = {
    "reference_answer(None)": lambda: reference_answer(None),  # type: ignore[arg-type]
    "request_of(5)": lambda: request_of(5),  # type: ignore[arg-type]
    "differences(None, {})": lambda: differences(None, {}),  # type: ignore[arg-type]
    "differences(refusal 5)": lambda: differences({"refusal": 5}, {}),
    "differences(places a list)": lambda: differences(
        {"position": {"robots": {"1": ["red"]}}}, {"position": {}}
    ),
    "differences({}, [])": lambda: differences({}, []),  # type: ignore[arg-type]
    "run_case(no clauses)": lambda: run_case({"id": "x"}, reference_answer),
    "run_case(engine 5)": lambda: run_case(json.loads(ONE_CASE.read_text()), 5),  # type: ignore[arg-type]
    "by_clause(None)": lambda: by_clause(None),  # type: ignore[arg-type]
    "by_clause([1])": lambda: by_clause([1]),  # type: ignore[list-item]
    "ExternalEngine(5)": lambda: ExternalEngine(5),  # type: ignore[arg-type]
    "ExternalEngine(nan)": lambda: ExternalEngine("true", float("nan")),
    "ExternalEngine('3')": lambda: ExternalEngine("true", "3"),  # type: ignore[arg-type]
    "ExternalEngine('')": lambda: ExternalEngine(""),
    "ExternalEngine()(5)": lambda: ExternalEngine("true")(5),  # type: ignore[arg-type]
    "load_cases(5)": lambda: load_cases(5),  # type: ignore[arg-type]
    "select_cases(clauses str)": lambda: select_cases([], clauses="SPL-2"),
    "select_cases(expansion)": lambda: select_cases([], expansions=["moon"]),
}


@pytest.mark.parametrize("call", list(BAD_CALLS))
def test_a_bad_argument_of_the_library_is_a_typed_error(call: str) -> None:
    with pytest.raises(OutOfGearsError) as raised:
        BAD_CALLS[call]()
    assert isinstance(raised.value, ValueError | TypeError | RuntimeError)


@pytest.mark.parametrize(
    ("request_text", "said"),
    [
        ("nope", 'the request is not JSON: "nope"'),
        ("[1]", "the request is not a JSON object holding players and start"),
        ("[" * 100_000, "the request nests more than 32 levels deep"),
    ],
)
def test_the_engine_as_a_program_says_a_bad_request_in_one_line(
    request_text: str, said: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "outofgears.judge.conformance"],
        input=request_text,
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert done.returncode == 2
    assert done.stderr == f"outofgears conformance engine: {said}\n"
    assert done.stdout == ""


# --- the batch protocol ------------------------------------------------------------------------


def test_the_whole_suite_passes_in_batch_with_this_engine_as_one_process() -> None:
    result = conformance(
        "--engine", f"{sys.executable} -m outofgears.judge.conformance --batch", "--batch"
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert result.output.splitlines()[-1].endswith(" cases passed")


def test_a_batch_engine_that_dies_is_started_again_for_the_next_case(tmp_path: Path) -> None:
    (tmp_path / "suite" / "hand").mkdir(parents=True)
    for name in ("hand-trp-2-a-sprung-trap-takes-the-dump", "hand-upg-4-before-upg-3"):
        shutil.copy(SUITE / "hand" / f"{name}.json", tmp_path / "suite" / "hand")
    script = tmp_path / "engine.py"
    # It dies at the trap's case (the first), and would answer the next: a new process does.
    script.write_text(
        textwrap.dedent(
            """
            import json, sys
            from outofgears.judge.conformance import reference_answer
            for line in sys.stdin:
                request = json.loads(line)
                if "trp" in request["case"]:
                    sys.exit(3)
                print(json.dumps(reference_answer(request)), flush=True)
            """
        )
    )
    result = conformance(
        "--engine", f"{sys.executable} {script}", "--batch", "--cases", str(tmp_path / "suite")
    )
    assert result.exit_code == 1
    assert fault_line(result) == "  the engine gave no answer: the engine exited with status 3"
    assert "FAIL hand-upg-4" not in result.output
    assert result.output.splitlines()[-1].endswith("1 of 2 cases passed")


def test_a_batch_engine_that_answers_garbage_is_a_fault_per_case(tmp_path: Path) -> None:
    (tmp_path / "suite" / "hand").mkdir(parents=True)
    shutil.copy(ONE_CASE, tmp_path / "suite" / "hand")
    result = conformance(
        "--engine", "sh -c 'while read line; do echo nonsense; done'", "--batch",
        "--cases", str(tmp_path / "suite"),
    )  # fmt: skip
    assert result.exit_code == 1
    assert fault_line(result) == '  the engine gave no answer: its answer is not JSON: "nonsense"'


# --- the filters -------------------------------------------------------------------------------


def test_the_filters_choose_cases_by_clause_option_and_expansion() -> None:
    cases = load_cases(SUITE)
    optional = select_cases(cases, options=["assembly=optional"])
    assert optional
    assert all(case["input"]["options"]["assembly"] == "optional" for case in optional)
    variant = select_cases(cases, expansions=["variant"])
    assert variant
    assert all(
        any(len(robots) == 2 for robots in case["input"]["players"].values()) for case in variant
    )
    base = select_cases(cases, expansions=["base"])
    assert not {case["id"] for case in base} & {case["id"] for case in variant}
    assert all("SPL-2" in case["clauses"] for case in select_cases(cases, clauses=["SPL-2"]))


def test_a_case_result_counts_by_clause() -> None:
    results = [CaseResult("a", ("SPL-1",), ()), CaseResult("b", ("SPL-1",), ("x",))]
    assert by_clause(results) == {"SPL-1": (1, 2)}


def test_a_batch_engine_may_finish_its_work_when_its_input_ends(tmp_path: Path) -> None:
    (tmp_path / "suite" / "hand").mkdir(parents=True)
    shutil.copy(ONE_CASE, tmp_path / "suite" / "hand")
    marker = tmp_path / "done.txt"
    script = tmp_path / "engine.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, sys, time
            from outofgears.judge.conformance import reference_answer
            for line in sys.stdin:
                print(json.dumps(reference_answer(json.loads(line))), flush=True)
            time.sleep(0.2)  # a report written at the end, say
            open({str(marker)!r}, "w").write("done")
            """
        )
    )
    result = conformance(
        "--engine", f"{sys.executable} {script}", "--batch", "--cases", str(tmp_path / "suite")
    )
    assert result.exit_code == 0, result.output
    assert marker.read_text() == "done"
