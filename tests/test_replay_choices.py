"""A refused choice is a departure, and the table's other choices still apply (R-CHOICES)."""

from __future__ import annotations

import pytest

from outofgears import gears
from outofgears.judge.replay import replay_log
from outofgears.log import (
    ChoicesRecord,
    GameLog,
    PositionRecord,
    RobotGears,
    Start,
    StealRecord,
    TurnRecord,
)
from outofgears.rules.programs import parse_program


@pytest.mark.ruling("R-CHOICES")
@pytest.mark.clause("ATK-4", "ASM-1")
def test_a_refused_steal_does_not_throw_away_a_legal_assembly_choice() -> None:
    # Robot 1 defends against robot 2, which holds only a red gear at its feet: the logged
    # steal of a blue gear is refused. Robot 3 harvests four gears and the table chose to
    # assemble the two yellows, not the default pair (its own colour first: also yellows,
    # so choose green + red to make the choice visible).
    position = PositionRecord(
        robots={1: RobotGears(), 2: RobotGears(feet=gears(1)), 3: RobotGears()},
        dumps={1: (), 2: (), 3: gears(1, 3, 3, 4)},
        reserve=(),
    )
    turn = TurnRecord(
        turn=1,
        programs={
            1: parse_program("attack 1"),
            2: parse_program("attack 1"),
            3: parse_program("harvest 3"),
        },
        choices=ChoicesRecord(
            defence_steals=(StealRecord(1, 2, "feet", gears(5)[0]),),
            assemblies={3: gears(1, 4)},
        ),
    )
    log = GameLog(
        players={"A": (1,), "B": (2,), "C": (3,)},
        start=Start(position=position),
        turns=(turn,),
    )
    replayed = replay_log(log)
    [departure] = replayed.departures
    assert departure.robot == 1
    assert departure.json_path == "$.turns[0].choices.defence_steals[0]"
    final = replayed.final
    assert final.robot(1).feet == gears(1)  # the default steal: robot 2's only gear
    assert final.robot(3).circuit == gears(1, 4)  # the table's assembly choice still applies
    assert final.robot(3).feet == gears(3, 3)
