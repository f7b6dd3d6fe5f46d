"""``outofgears conformance``: run the spec's conformance suite against another engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from outofgears._version import SPEC_VERSION
from outofgears.cli.common import (
    DEPARTS,
    AsciiFloatRange,
    AsciiIntRange,
    InputError,
    echo_json,
    say,
)
from outofgears.errors import printable
from outofgears.judge.cases import EXPANSIONS
from outofgears.judge.conformance import (
    PROTOCOL,
    CaseError,
    CaseResult,
    ExternalEngine,
    by_clause,
    default_cases_folder,
    engine_command_ok,
    load_cases,
    run_case,
    select_cases,
)


@click.command()
@click.option(
    "--engine",
    "command",
    required=True,
    metavar="CMD",
    help="The engine's command line, run once per case: the case's request as JSON on its "
    "standard input, its answer as JSON on its standard output (with --batch, once for all).",
)
@click.option(
    "--batch",
    is_flag=True,
    help="Run the engine once for every case: a request a line on its standard input, an "
    "answer a line on its standard output, in order (a fault ends the process; the next case "
    "starts another).",
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
    "--option",
    "options",
    multiple=True,
    metavar="NAME[=VALUE]",
    help="Run only the cases that set this option of the log, or set it to VALUE, e.g. "
    "assembly=optional (repeatable).",
)
@click.option(
    "--expansion",
    "expansions",
    multiple=True,
    type=click.Choice(EXPANSIONS),
    help="Run only the cases that play this expansion or the variant; base: none of them "
    "(repeatable).",
)
@click.option(
    "--timeout",
    type=AsciiFloatRange(min=0.1, max=600),
    default=10.0,
    show_default=True,
    help="Seconds the engine has for each case.",
)
@click.option(
    "--max-faults",
    type=AsciiIntRange(min=1),
    default=5,
    show_default=True,
    help="Stop after this many cases the engine gave no usable answer to (a crash, a "
    "time-out, garbage, an answer too long or too deep, an answer to another case).",
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
    batch: bool,
    folder: Path | None,
    clauses: tuple[str, ...],
    options: tuple[str, ...],
    expansions: tuple[str, ...],
    timeout: float,
    max_faults: int,
    output_format: str,
) -> None:
    """Run the conformance suite of the specification against ENGINE, a program in any language.

    Each case is sent to a new process of the engine (protocol outofgears-conformance/1, see
    the page "Implementing the rules elsewhere"), or with --batch to one process, a case a
    line; its answer is compared with the case's expected one. The engine runs in a process
    group of its own, killed whole at the time-out; an answer longer than 4 MiB or nested
    more than 32 deep is a fault. The report gives every failing case with its clauses and the
    difference, then the cases passed by clause. Exit status 0 when every case passes, 1 when
    one fails (or the engine crashes, hangs or answers garbage), 2 when the suite cannot be
    read (the file and the JSON path named) or the command line is wrong.
    """
    problem = engine_command_ok(command)
    if problem:
        raise InputError(printable(problem))
    cases = _cases(folder, clauses, options, expansions)
    results: list[CaseResult] = []
    faults = 0
    stopped = False
    with ExternalEngine(command, timeout, batch=batch) as engine:
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


def _cases(
    folder: Path | None,
    clauses: tuple[str, ...],
    options: tuple[str, ...],
    expansions: tuple[str, ...],
) -> list[dict[str, Any]]:
    where = folder or default_cases_folder()
    if where is None:
        raise InputError("no spec/conformance folder here: give the suite's folder with --cases")
    if not where.is_dir():
        raise InputError(f"{printable(str(where))}: no such folder")
    try:
        every = load_cases(where)
    except CaseError as error:
        raise InputError(printable(str(error))) from None
    cases = [
        dict(case)
        for case in select_cases(every, clauses=clauses, options=options, expansions=expansions)
    ]
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
