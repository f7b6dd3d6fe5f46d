"""How much a table types to record a game, issue 31's figures: ``python -m benchmarks.keystrokes``.

The shipped 4-robot game (``examples/full-game.log.json``) is typed into ``outofgears record``
through a pseudo-terminal, as a hurried table types it: each program in its short form
(``h2``), Enter for every choice (the rules' default, which the log then holds), and what the
players write down in one of two ways: nothing, or the scores alone (``Ada=12``, one a line).
The script prints, for each way, the prompts and keystrokes a turn (mean and median), and checks
that the log written replays as agreeing with nothing left open. Targets (issue 31): at most 40
keystrokes a turn with nothing written down, 80 with the scores alone.
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import statistics
import sys
import tempfile
import time
from pathlib import Path

import attrs

from outofgears.judge.replay import replay_log
from outofgears.log import dump_log, read_log
from outofgears.rules.programs import Program
from outofgears.rules.scoring import player_scores
from outofgears.table.session import TableSession

FULL = Path(__file__).resolve().parents[1] / "examples" / "full-game.log.json"
TARGETS = {"nothing": 40, "scores": 80}


def short(program: object) -> str:
    """A program as a hurried table types it: ``h2``."""
    assert isinstance(program, Program)
    return f"{program.action.value[0]}{program.number}"


def typed_game(mode: str) -> tuple[list[list[str]], str]:
    """Each turn's answers as typed (``mode``: ``nothing`` or ``scores``), and the log text of
    the game before its first turn."""
    game = read_log(FULL)
    start = attrs.evolve(game, turns=())
    session = TableSession(replay_log(start))
    turns: list[list[str]] = []
    for record in game.turns:
        answers: list[str] = []
        after = replay_log(attrs.evolve(game, turns=game.turns[: record.turn])).final
        scores = [f"{score.player}={score.points}" for score in player_scores(after)]
        while (question := session.question()) is not None:
            if question.kind == "program":
                answer = short(record.programs[question.key])
            elif question.kind == "recorded" and mode == "scores" and scores:
                answer = scores.pop(0)
            else:
                answer = ""
            answers.append(answer)
            session.answer(answer)
        turns.append(answers)
        entered = session.entered()
        session.written(entered.replayed)
    return turns, dump_log(start)


def through_a_terminal(log: Path, answers: list[str]) -> str:
    """Run ``outofgears record LOG`` in a pseudo-terminal fed ``answers``; what it printed."""
    pid, master = pty.fork()
    if pid == 0:  # the child: record at a terminal
        os.execv(sys.executable, [sys.executable, "-m", "outofgears", "record", str(log)])
    output = bytearray()
    for answer in [*answers, ""]:  # the last empty answer stops at the next turn's first robot
        os.write(master, (answer + "\n").encode())
        time.sleep(0.002)
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.waitpid(pid, 0)
    return output.decode(errors="replace")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-terminal", action="store_true", help="count only, type nothing")
    arguments = parser.parse_args()
    print(f"{'written down':<14}{'prompts/turn':>14}{'keys/turn':>11}{'median':>8}{'target':>8}")
    for mode in ("nothing", "scores"):
        turns, start = typed_game(mode)
        keys = [sum(len(answer) + 1 for answer in turn) for turn in turns]
        prompts = [len(turn) for turn in turns]
        print(
            f"{mode:<14}{statistics.mean(prompts):>14.1f}{statistics.mean(keys):>11.1f}"
            f"{statistics.median(keys):>8.1f}{TARGETS[mode]:>8}"
        )
        if arguments.no_terminal:
            continue
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "game.json"
            log.write_text(start, encoding="utf-8")
            through_a_terminal(log, [answer for turn in turns for answer in turn])
            replayed = replay_log(read_log(log))
            written = json.loads(log.read_text(encoding="utf-8"))["turns"]
            print(
                f"  through a terminal: {len(written)} turns written of {len(turns)}, "
                f"{replayed.verdict}, {replayed.positions} position(s) open at the end"
            )


if __name__ == "__main__":
    main()
