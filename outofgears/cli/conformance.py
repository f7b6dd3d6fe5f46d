"""``outofgears conformance``: run the spec's conformance suite against another engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from outofgears._version import SPEC_VERSION
from outofgears.cli.common import DEPARTS, InputError, echo_json, say
from outofgears.errors import printable
from outofgears.judge.conformance import (
    PROTOCOL,
    CaseResult,
    ExternalEngine,
    by_clause,
    default_cases_folder,
    engine_command_ok,
    load_cases,
    run_case,
)


@click.command()
@click.option(
    "--engine",
    "command",
    required=True,
    metavar="CMD",
    help="The engine's command line, run once per case: the case's request as JSON on its "
    "standard input, its answer as JSON on its standard output.",
)
@click.option(
    "--cases",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The suite's folder (its hand/ and generated/ cases); by default spec/conformance of "
    "the source tree.",
)
@click.option(
    "--clause",
    "clauses",
    multiple=True,
    metavar="ID",
    help="Run only the cases of this clause or ruling (repeatable).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1, max=600),
    default=10.0,
    show_default=True,
    help="Seconds the engine has for each case.",
)
@click.option(
    "--max-faults",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Stop after this many cases the engine gave no usable answer to (a crash, a "
    "time-out, garbage, an answer to another case).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="The report: lines for people, or JSON.",
)
def conformance(
    command: str,
    folder: Path | None,
    clauses: tuple[str, ...],
    timeout: float,
    max_faults: int,
    output_format: str,
) -> None:
    """Run the conformance suite of the specification against ENGINE, a program in any language.

    Each case is sent to a new process of the engine (protocol outofgears-conformance/1, see
    the page "Implementing the rules elsewhere"); its answer is compared with the case's
    expected one. The report gives every failing case with its clauses and the difference,
    then the cases passed by clause. Exit status 0 when every case passes, 1 when one fails
    (or the engine crashes, hangs or answers garbage), 2 when the suite cannot be read or
    the command line is wrong.
    """
    problem = engine_command_ok(command)
    if problem:
        raise InputError(problem)
    cases = _cases(folder, clauses)
    engine = ExternalEngine(command, timeout)
    results: list[CaseResult] = []
    faults = 0
    stopped = False
    for case in cases:
        result = run_case(case, engine)
        results.append(result)
        if result.fault is not None:
            faults += 1
            if faults >= max_faults:
                stopped = True
                break
    if output_format == "json":
        echo_json(_report_json(results, len(cases), stopped))
    else:
        for line in _report_lines(results, len(cases), stopped):
            say(line)
    if stopped or not all(result.passed for result in results):
        raise SystemExit(DEPARTS)


def _cases(folder: Path | None, clauses: tuple[str, ...]) -> list[dict[str, Any]]:
    where = folder or default_cases_folder()
    if where is None:
        raise InputError("no spec/conformance folder here: give the suite's folder with --cases")
    if not where.is_dir():
        raise InputError(f"{printable(str(where))}: no such folder")
    try:
        cases = load_cases(where)
    except ValueError as error:
        raise InputError(str(error)) from None
    if clauses:
        cases = [c for c in cases if set(clauses) & {*c["clauses"], *c.get("rulings", ())}]
    if not cases:
        raise InputError(f"{printable(str(where))}: no case to run")
    return cases


def _report_lines(results: list[CaseResult], total: int, stopped: bool) -> list[str]:
    lines = []
    for result in results:
        if result.passed:
            continue
        ids = " ".join(result.clauses[:6]) + (" ..." if len(result.clauses) > 6 else "")
        lines.append(f"FAIL {result.case} [{ids}]")
        if result.fault is not None:
            lines.append(f"  the engine gave no answer: {printable(result.fault)}")
        lines += [f"  {printable(problem)}" for problem in result.problems]
    failing = {c: t for c, t in by_clause(results).items() if t[0] < t[1]}
    if failing:
        lines.append("Failing clauses and rulings (cases passed/run):")
        lines += [f"  {clause}: {passed}/{run}" for clause, (passed, run) in failing.items()]
    passed = sum(result.passed for result in results)
    lines.append(
        f"{PROTOCOL}, spec {SPEC_VERSION}: {passed} of {len(results)} cases passed"
        + (f" ({total - len(results)} not run)" if len(results) < total else "")
    )
    if stopped:
        lines.append("stopped: the engine gave no usable answer too many times (see --max-faults)")
    return lines


def _report_json(results: list[CaseResult], total: int, stopped: bool) -> dict[str, Any]:
    return {
        "protocol": PROTOCOL,
        "spec": SPEC_VERSION,
        "cases": total,
        "run": len(results),
        "passed": sum(result.passed for result in results),
        "stopped": stopped,
        "failures": [
            {
                "case": r.case,
                "clauses": list(r.clauses),
                "fault": r.fault,
                "differences": list(r.problems),
            }
            for r in results
            if not r.passed
        ],
        "by_clause": {c: {"passed": p, "run": n} for c, (p, n) in by_clause(results).items()},
    }
