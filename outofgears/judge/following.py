"""The position a table wrote down after a turn that departs, which the game then goes on from
(spec SET-8, ruling R-TABLE-POSITION).

A turn of a log with ``"follows": "table"`` that departs from the rules is reported like any
other; the game then goes on from the position the players wrote down, not from the closest
legal play: each place written in the turn's ``recorded`` (a robot's feet, a robot's circuit, a
dump) as written, every other place as that play leaves it. The reserve is never written down:
it stays as that play leaves it, in its draw order. Written scores are not places (a score is
counted from the gears). The position must be one the box can hold, as a position typed in at
the start must (SET-5, JOL-1, TRI-1), and the game is over in it when END-1 says so.
"""

from __future__ import annotations

import attrs

from outofgears.errors import ArgumentTypeError, InvalidStateError, expect
from outofgears.judge.start import BoxPlace, check_box
from outofgears.log import LogError, TurnRecord
from outofgears.rules.model import GameState
from outofgears.rules.scoring import is_game_over

#: The clause a followed position rests on.
CLAUSE = "SET-8"


def table_position(
    played: GameState,
    record: TurnRecord,
    index: int,
    source: str = "<log>",
) -> GameState:
    """The position the table wrote down after a turn (``record``, at ``index`` in the log): the
    places of its ``recorded`` as written, every other place (and the reserve, in its order) as
    ``played``, the closest legal play, leaves it (SET-8).

    Raises:
        LogError: The box cannot hold that position: a colour more than 11 times, a Jolly or
            a three-point gear beyond 4 (SET-5, JOL-1, TRI-1). The path names the first written
            gear too many.
    """
    expect(played, GameState, "played", "a GameState")
    expect(record, TurnRecord, "record", "a TurnRecord")
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise ArgumentTypeError("index", "a whole number of at least 0", index)
    expect(source, str, "source", "a str")
    recorded = record.recorded
    if recorded is None or not (recorded.robots or recorded.dumps):
        return played
    path: list[str | int] = ["turns", index, "recorded"]
    kept: list[BoxPlace] = [BoxPlace(["reserve"], played.reserve, indexed=False)]
    written: list[BoxPlace] = []
    robots = []
    for robot in played.robots:
        told = recorded.robots.get(robot.number)
        feet = robot.feet if told is None or told.feet is None else told.feet
        circuit = robot.circuit if told is None or told.circuit is None else told.circuit
        for where, gears, given in (
            ("feet", feet, told is not None and told.feet is not None),
            ("circuit", circuit, told is not None and told.circuit is not None),
        ):
            place = BoxPlace(["robots", str(robot.number), where], gears, robot.number, given)
            (written if given else kept).append(place)
        robots.append(attrs.evolve(robot, feet=feet, circuit=circuit))
    dumps = []
    for dump in played.dumps:
        gears = recorded.dumps.get(dump.number, dump.gears)
        given = dump.number in recorded.dumps
        (written if given else kept).append(
            BoxPlace(["dumps", str(dump.number)], gears, None, given)
        )
        dumps.append(attrs.evolve(dump, gears=gears))
    # The places not written are those of a legal position: a gear too many is a written one.
    check_box(
        [*kept, *written],
        played.options,
        source,
        path,
        turn=record.turn,
        why=f"the position the table wrote down cannot be followed ({CLAUSE}): ",
    )
    over = is_game_over(played.reserve, [dump.gears for dump in dumps])
    try:
        return attrs.evolve(played, robots=robots, dumps=dumps, game_over=over)
    except InvalidStateError as error:  # pragma: no cover - check_box refused it above
        raise LogError(source, f"$.turns[{index}].recorded", str(error), turn=record.turn) from None


#: The public names of this module.
__all__ = ["table_position"]
