"""The end of the game and the scores (spec END-1 to END-3, ruling R-END).

After exploration, the game is over when the reserve is empty and at least one
dump in play has no gear (END-1). Feet and circuit gears count together: 2
points for the robot's own colour, 1 for any other (END-2). The highest score
wins; a tie goes to the most own-colour gears; a tie after that is a shared
win (END-3). In the two-robot variant a player scores its lower robot (VAR-3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sized
from typing import Final

from outofgears.errors import ArgumentTypeError
from outofgears.rules.events import TurnEnded
from outofgears.rules.gears import CANONICAL_GEARS, ROBOT_NUMBERS, Gear
from outofgears.rules.model import GameState, Robot, expect_state
from outofgears.rules.table import Table
from outofgears.rules.variant import PlayerScore, score_player_by_lower_robot


def is_game_over(reserve: Sized, piles: Iterable[Sized]) -> bool:
    """Whether the game ends: the reserve is empty and a dump has no gear (END-1).

    ``piles`` are the dumps in play, as anything that has a length (gears or ranks).

    >>> from outofgears.rules.gears import gears
    >>> is_game_over((), [gears(2), ()]), is_game_over(gears(1), [()])
    (True, False)
    """
    return not reserve and any(not pile for pile in piles)


#: Each shared gear's points for each robot, by the gear's identity, read off
#: :meth:`~outofgears.rules.gears.Gear.points_for` (END-2, JOL-2, TRI-2): scoring a robot's shared
#: gears is then a lookup per gear.
_POINTS: Final = {
    robot: {id(gear): gear.points_for(robot) for gear in CANONICAL_GEARS} for robot in ROBOT_NUMBERS
}
#: Whether each shared gear counts as each robot's own colour, read off
#: :meth:`~outofgears.rules.gears.Gear.is_own_colour_of` (END-3's tie-break, JOL-2, TRI-2).
_OWN: Final = {
    robot: {id(gear): int(gear.is_own_colour_of(robot)) for gear in CANONICAL_GEARS}
    for robot in ROBOT_NUMBERS
}


def _counted(table: dict[int, int], gears: tuple[Gear, ...], worth: Callable[[Gear], int]) -> int:
    try:
        return sum(map(table.__getitem__, map(id, gears)))
    except KeyError:  # a gear that is not a shared instance
        return sum(map(worth, gears))


def score_robot(robot: Robot) -> int:
    """A robot's points: its feet and circuit gears together (END-2).

    >>> from outofgears.rules.gears import gears
    >>> score_robot(Robot(1, "Ada", feet=gears(1, 2), circuit=gears(1, 1, 3)))
    8
    """
    if not isinstance(robot, Robot):
        raise ArgumentTypeError("robot", "a Robot", robot)
    number = robot.number
    points = _POINTS[number]

    def worth(gear: Gear) -> int:
        return gear.points_for(number)

    return _counted(points, robot.feet, worth) + _counted(points, robot.circuit, worth)


def own_colour_gears(robot: Robot) -> int:
    """How many of a robot's gears count as its own colour, for the tie-break (END-3).

    >>> from outofgears.rules.gears import gears
    >>> own_colour_gears(Robot(1, "Ada", feet=gears(1, 2), circuit=gears(1)))
    2
    """
    number = robot.number
    own = _OWN[number]

    def worth(gear: Gear) -> int:
        return int(gear.is_own_colour_of(number))

    return _counted(own, robot.feet, worth) + _counted(own, robot.circuit, worth)


def player_scores(state: GameState) -> tuple[PlayerScore, ...]:
    """Every player's score, best first (ties in player order): END-2, VAR-3.

    >>> from outofgears.rules.setup import setup_game
    >>> [s.points for s in player_scores(setup_game([1, 2], seed=0))]
    [0, 0]
    """
    expect_state(state)
    scores = [
        score_player_by_lower_robot(
            player.name,
            [
                (number, score_robot(state.robot(number)), own_colour_gears(state.robot(number)))
                for number in player.robots
            ],
        )
        for player in state.players
    ]
    return tuple(sorted(scores, key=lambda s: (-s.points, -s.own_colour)))


def winners(state: GameState) -> tuple[str, ...]:
    """The names of the winners: most points, then most own-colour gears; else shared (END-3).

    >>> from outofgears.rules.setup import setup_game
    >>> winners(setup_game([1, 2], seed=0))
    ('P1', 'P2')
    """
    expect_state(state)
    scores = player_scores(state)
    best = (scores[0].points, scores[0].own_colour)
    return tuple(s.player for s in scores if (s.points, s.own_colour) == best)


def end_turn(table: Table) -> None:
    """Close the turn: after exploration, whether the game is over (TURN-1, END-1)."""
    dumps = table.dumps
    over = is_game_over(table.reserve, (dumps[number] for number in table.numbers))
    table.game_over = over
    if table.events is not None:
        table.events.append(TurnEnded(table.state.turn, over, "END-1" if over else "TURN-1"))
