"""The conformance suite of spec/conformance/ (issue 26): its cases hang together, the engine
passes every one in-process, a broken engine fails exactly the cases of the clauses it breaks,
and the runner survives engines that crash, hang, babble or answer another case."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
import textwrap
import time
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from referencing import Registry, Resource

from outofgears.cli.main import main
from outofgears.judge.conformance import (
    differences,
    load_cases,
    reference_answer,
    request_of,
    run_case,
)
from outofgears.rules import sharing, traps
from outofgears.rules.gears import BEST_FIRST, OWN_RANK

REPO = Path(__file__).resolve().parents[1]
SUITE = REPO / "spec" / "conformance"
CASES = load_cases(SUITE)
CLAUSE_MAP = tomllib.loads((REPO / "spec" / "clauses.toml").read_text(encoding="utf-8"))
CLAUSE_IDS = [entry["id"] for entry in CLAUSE_MAP["clause"]]
RULING_IDS = re.findall(
    r"^### (R-[A-Z-]+)", (REPO / "spec" / "rulings.md").read_text("utf-8"), re.M
)

#: The refusal clauses: those whose refusals the protocol can carry, each needing a refusal
#: case. SET-4 (a reserve too short for the deal) cannot arise from a seeded start, whose box
#: holds 11 gears a colour.
REFUSAL_CLAUSES = [
    "GEN-1",
    "SET-2",
    "SET-3",
    "PRG-1",
    "PRG-2",
    "PRG-5",
    "UPG-1",
    "UPG-2",
    "UPG-3",
    "UPG-4",
    "VAR-1",
    "VAR-2",
    "SET-1",
    "SET-5",
    "JOL-1",
    "TRI-1",
    "REF-2",
    "ATK-4",
    "ASM-1",
    "SPL-1",
    "SPL-2",
    "SPL-4",
    "SPL-5",
]


def failing(engine: Callable[[Mapping[str, Any]], Any]) -> dict[str, tuple[str, ...]]:
    results = [run_case(case, engine) for case in CASES]
    return {r.case: r.clauses for r in results if not r.passed}


def test_every_case_is_valid_under_the_suites_json_schema() -> None:
    schema = json.loads((SUITE / "case.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    problems = {
        case["id"]: next(iter(validator.iter_errors(case))).message
        for case in CASES
        if not validator.is_valid(case)
    }
    assert problems == {}
    assert len({case["id"] for case in CASES}) == len(CASES)


def test_every_answer_of_the_engine_is_valid_under_the_answer_schema() -> None:
    answer_schema = json.loads((SUITE / "answer.schema.json").read_text("utf-8"))
    case_schema = json.loads((SUITE / "case.schema.json").read_text("utf-8"))
    registry: Registry[Any] = Registry().with_resource(
        case_schema["$id"], Resource.from_contents(case_schema)
    )
    validator = jsonschema.Draft202012Validator(answer_schema, registry=registry)
    for case in CASES[::7]:
        validator.validate(reference_answer(request_of(case)))


#: The clauses and rulings no request of the protocol can reach, each with the reason.
UNREACHABLE = {
    "SET-8": "a log's judge goes on from the position the players wrote down after a turn that "
    "departs; a request carries programs and choices, never written-down values",
    "R-TABLE-POSITION": "SET-8's ruling: the same written-down values, which no request carries",
}
JUDGE_ONLY = tuple(UNREACHABLE)


def test_every_clause_and_every_ruling_has_a_case() -> None:
    covered = {tag for case in CASES for tag in (*case["clauses"], *case["rulings"])}
    judged = [tag for tag in (*CLAUSE_IDS, *RULING_IDS) if tag not in JUDGE_ONLY]
    assert [tag for tag in judged if tag not in covered] == []
    assert set(covered) <= set(judged)
    assert set(JUDGE_ONLY) <= set(CLAUSE_IDS) | set(RULING_IDS)


def test_every_clause_and_every_ruling_has_a_case_worked_by_hand() -> None:
    # A generated case's answer is this engine's: only a hand-worked one holds a rule to the
    # text. A clause without one fails here, unless UNREACHABLE says why no request reaches it.
    hand = {
        tag
        for case in CASES
        if case["origin"] == "hand"
        for tag in (*case["clauses"], *case["rulings"])
    }
    wanted = [tag for tag in (*CLAUSE_IDS, *RULING_IDS) if tag not in UNREACHABLE]
    assert [tag for tag in wanted if tag not in hand] == []
    assert all(reason for reason in UNREACHABLE.values())


def test_every_refusal_clause_has_a_case_refused_citing_it() -> None:
    cited = {
        case["expected"]["refusal"]["clause"] for case in CASES if "refusal" in case["expected"]
    }
    assert [clause for clause in REFUSAL_CLAUSES if clause not in cited] == []
    assert None not in cited  # every refusal of the suite names its clause


def test_the_suite_holds_hand_worked_cases_and_seeded_setups_of_every_option() -> None:
    hand = [case for case in CASES if case["origin"] == "hand"]
    assert len(hand) >= 12
    assert all(case["id"].startswith("hand-") for case in hand)
    seeded = [case for case in CASES if "seed" in case["input"]["start"]]
    options = {json.dumps(case["input"].get("options", {}), sort_keys=True) for case in seeded}
    assert len(options) >= 16  # every combination of the four expansion switches


def test_the_engine_passes_every_case_in_process() -> None:
    assert failing(reference_answer) == {}


def test_the_generated_cases_are_what_the_script_writes() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "make_conformance.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr


# --- a broken engine fails the cases of the clauses it breaks, and only those ---------------


def test_an_engine_that_reverses_the_own_colour_priority_fails_only_cases_of_spl_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each taker gets none of its own colour first, and likes it least.
    last = tuple(
        tuple([rank for rank in ranks if rank != OWN_RANK[taker]] + [OWN_RANK[taker]])
        if taker
        else ranks
        for taker, ranks in enumerate(BEST_FIRST)
    )
    monkeypatch.setattr(sharing, "BEST_FIRST", last)
    monkeypatch.setattr(sharing, "own_quota", lambda counts, robot, share: 0)
    failed = failing(reference_answer)
    assert failed, "no case noticed the reversed priority"
    assert {case: clauses for case, clauses in failed.items() if "SPL-2" not in clauses} == {}
    assert "hand-atk-8-two-attackers-split-the-feet" in failed


def test_an_engine_whose_traps_spring_without_a_harvester_fails_only_cases_of_trp_3(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spring = traps.spring_trap

    def spring_always(table: Any, reading: Any, dump: int) -> None:
        spring(table, reading, dump)
        if not traps.harvesters_of(reading, dump):
            trappers = traps.trappers_of(reading, dump)
            clauses = ["TRP-3"] * len(trappers) if table.events is not None else None
            traps.take_dump(table, dump, trappers, clauses)

    monkeypatch.setattr(traps, "spring_trap", spring_always)
    failed = failing(reference_answer)
    assert failed, "no case noticed the traps springing"
    assert {case: clauses for case, clauses in failed.items() if "TRP-3" not in clauses} == {}
    assert "hand-trp-3-trap-on-a-dump-nobody-harvests" in failed


def test_a_difference_names_the_field_what_was_expected_and_what_came() -> None:
    expected = {"position": {"robots": {"2": {"feet": ["red"]}}, "dumps": {"3": ["white"]}}}
    answer: dict[str, Any] = {
        "case": "x",
        "position": {"robots": {"2": {"feet": ["blue"], "circuit": []}}, "dumps": {"3": ["white"]}},
    }
    assert differences(expected, answer) == [
        'position.robots.2.feet: expected ["red"], got ["blue"]'
    ]
    # gears are collections: their order does not matter, except the reserve's
    answer["position"]["robots"]["2"]["feet"] = ["red"]
    assert differences(expected, answer) == []
    assert differences(
        {"position": {"reserve": ["red", "blue"]}}, {"position": {"reserve": ["blue", "red"]}}
    )


# --- the runner and external engines ----------------------------------------------------------


@pytest.fixture
def small_suite(tmp_path: Path) -> Path:
    """Two cases: a position after a turn, and a refusal."""
    for kind in ("hand",):
        (tmp_path / kind).mkdir()
    for name in ("hand-trp-2-a-sprung-trap-takes-the-dump", "hand-upg-4-before-upg-3"):
        shutil.copy(SUITE / "hand" / f"{name}.json", tmp_path / "hand")
    return tmp_path


def fake_engine(tmp_path: Path, body: str) -> str:
    script = tmp_path / "engine.py"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{sys.executable} {script}"


def conformance(*args: str) -> Any:
    return CliRunner().invoke(main, ["conformance", *args])


def test_the_runner_passes_this_engine_run_as_a_program(small_suite: Path) -> None:
    result = conformance(
        "--engine", f"{sys.executable} -m outofgears.judge.conformance", "--cases", str(small_suite)
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].endswith("2 of 2 cases passed")


def test_a_wrong_answer_is_reported_by_case_clause_and_difference(
    small_suite: Path, tmp_path: Path
) -> None:
    engine = fake_engine(
        tmp_path,
        """
        import json, sys
        request = json.load(sys.stdin)
        print(json.dumps({"case": request["case"],
                          "refusal": {"kind": "program", "clause": "UPG-3", "robot": 2}}))
        """,
    )
    result = conformance("--engine", engine, "--cases", str(small_suite))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert "FAIL hand-upg-4-before-upg-3 [UPG-4 UPG-3 GEN-2 VAR-1 R-UPG-VARIANT]" in lines
    assert '  refusal.clause: expected "UPG-4", got "UPG-3"' in lines
    assert "  UPG-4: 0/1" in lines
    assert lines[-1].endswith("0 of 2 cases passed")


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (
            "import sys\nsys.stderr.write('segfault in split()\\n')\nsys.exit(139)\n",
            "the engine exited with status 139: segfault in split()",
        ),
        ("import time\ntime.sleep(30)\n", "no answer within 0.5 s (the engine hangs?)"),
        ("print('hello, world')\n", 'its answer is not JSON: "hello, world"'),
        ("print('[1, 2]')\n", "its answer is not a JSON object: [1, 2]"),
        (
            "import json\nprint(json.dumps({'case': 'another', 'refusal': None}))\n",
            'it answered case "another", not "hand-trp-2-a-sprung-trap-takes-the-dump"',
        ),
    ],
    ids=["crash", "hang", "garbage", "not-an-object", "wrong-case"],
)
def test_a_broken_engine_gets_a_clear_line_and_a_non_zero_exit(
    small_suite: Path, tmp_path: Path, body: str, said: str
) -> None:
    engine = fake_engine(tmp_path, body)
    # The hang is cut at half a second; the others answer at once, but get ten seconds to start
    # on a busy machine.
    timeout = "0.5" if "no answer within" in said else "10"
    result = conformance(
        "--engine", engine, "--cases", str(small_suite), "--timeout", timeout, "--max-faults", "1"
    )
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"  the engine gave no answer: {said}" in result.output.splitlines()
    assert "Traceback" not in result.output
    assert "stopped: the engine gave no usable answer too many times" in result.output


def test_an_engine_whose_child_holds_its_output_open_is_ended_whole_at_the_time_out(
    small_suite: Path, tmp_path: Path
) -> None:
    pid_file = tmp_path / "child.pid"
    engine = fake_engine(
        tmp_path,
        f"""
        import subprocess, sys
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        open({str(pid_file)!r}, "w").write(str(child.pid))
        """,
    )
    started = time.monotonic()
    result = conformance(
        "--engine", engine, "--cases", str(small_suite), "--timeout", "1", "--max-faults", "1"
    )
    # Not a benchmark: a runner that waited for the child would take its whole two minutes.
    assert time.monotonic() - started < 60
    # The engine itself exits at once, answering nothing; its child goes with its group.
    assert "  the engine gave no answer: it wrote no answer" in result.output.splitlines()
    child = int(pid_file.read_text())
    for _ in range(50):  # the kill is sent; give the kernel a moment
        if not _alive(child):
            break
        time.sleep(0.1)
    assert not _alive(child), "the engine's child still runs"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0]
    except OSError:
        return False
    return state != "Z"  # a zombie is dead, waiting for its parent (init) to reap it


def test_an_engine_that_cannot_start_or_an_empty_command_is_told_so(
    small_suite: Path, tmp_path: Path
) -> None:
    missing = conformance("--engine", str(tmp_path / "nothing-here"), "--cases", str(small_suite))
    assert missing.exit_code == 1
    assert "the engine cannot be started" in missing.output
    empty = conformance("--engine", "  ", "--cases", str(small_suite))
    assert empty.exit_code == 2
    assert "the engine command is empty" in empty.output


def test_a_folder_without_cases_is_refused(tmp_path: Path) -> None:
    result = conformance("--engine", "true", "--cases", str(tmp_path))
    assert result.exit_code == 2
    assert "no case to run" in result.output


def test_the_json_report_counts_by_clause(small_suite: Path) -> None:
    result = conformance(
        "--engine",
        f"{sys.executable} -m outofgears.judge.conformance",
        "--cases",
        str(small_suite),
        "--format",
        "json",
    )
    report = json.loads(result.output)
    assert (report["run"], report["passed"], report["failures"]) == (2, 2, [])
    assert report["by_clause"]["UPG-4"] == {"passed": 1, "run": 1}


# --- the mutation kit (scripts/mutants.py) ------------------------------------------------------


def _mutants() -> Any:
    spec = importlib.util.spec_from_file_location("mutants", REPO / "scripts" / "mutants.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutants"] = module
    spec.loader.exec_module(module)
    return module


def test_every_mutant_of_the_kit_still_patches_the_code_exactly_once() -> None:
    kit = _mutants()
    assert kit.check_patches(kit.MUTANTS) == []
    assert len({mutant.name for mutant in kit.MUTANTS}) == len(kit.MUTANTS)
    known = set(CLAUSE_IDS) | set(RULING_IDS)
    assert {c for mutant in kit.MUTANTS for c in mutant.clauses} - known == set()


def test_a_mutant_runs_through_the_runner_and_is_killed_by_its_clauses_cases() -> None:
    kit = _mutants()
    (mutant,) = [mutant for mutant in kit.MUTANTS if mutant.name == "one-gear-a-dump"]
    killed, failing, first = kit.run_mutant(mutant, 10.0)
    assert killed
    assert failing > 0
    assert first.startswith(("game-", "setup-"))
