"""The end of the game and the scores (spec END-1 to END-3, ruling R-END).

After exploration, the game is over when the reserve is empty and at least one
dump in play has no gear (END-1). Feet and circuit gears count together: 2
points for the robot's own colour, 1 for any other (END-2). The highest score
wins; a tie goes to the most own-colour gears; a tie after that is a shared
win (END-3). In the two-robot variant a player scores its lower robot (VAR-3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sized

from outofgears.errors import ArgumentTypeError
from outofgears.rules.events import TurnEnded
from outofgears.rules.gears import OWN_COLOUR, WORTH, ranks_of
from outofgears.rules.model import GameState, Player, Robot, expect_state
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


def score_robot(robot: Robot) -> int:
    """A robot's points: its feet and circuit gears together (END-2), each worth
    :meth:`~outofgears.rules.gears.Gear.points_for` (:data:`~outofgears.rules.gears.WORTH`).

    >>> from outofgears.rules.gears import gears
    >>> score_robot(Robot(1, "Ada", feet=gears(1, 2), circuit=gears(1, 1, 3)))
    8
    """
    if not isinstance(robot, Robot):
        raise ArgumentTypeError("robot", "a Robot", robot)
    return robot_tally(robot)[0]


def own_colour_gears(robot: Robot) -> int:
    """How many of a robot's gears count as its own colour, for the tie-break (END-3):
    :meth:`~outofgears.rules.gears.Gear.is_own_colour_of`
    (:data:`~outofgears.rules.gears.OWN_COLOUR`).

    >>> from outofgears.rules.gears import gears
    >>> own_colour_gears(Robot(1, "Ada", feet=gears(1, 2), circuit=gears(1)))
    2
    """
    if not isinstance(robot, Robot):
        raise ArgumentTypeError("robot", "a Robot", robot)
    return robot_tally(robot)[1]


def robot_tally(robot: Robot) -> tuple[int, int]:
    """A robot's points (END-2) and own-colour gears (END-3), its gears read once: what
    :func:`score_robot` and :func:`own_colour_gears` give, for the scores of a whole table."""
    return ranks_tally(robot.number, ranks_of(robot.feet) + ranks_of(robot.circuit))


def ranks_tally(number: int, ranks: list[int]) -> tuple[int, int]:
    """The points (END-2) and own-colour gears (END-3) of robot ``number`` holding gears of
    ``ranks`` (feet and circuit together), each gear worth
    :data:`~outofgears.rules.gears.WORTH` and counted by
    :data:`~outofgears.rules.gears.OWN_COLOUR`.

    >>> ranks_tally(1, [0, 0, 1])
    (5, 2)
    """
    return (
        sum(map(WORTH[number].__getitem__, ranks)),
        sum(map(OWN_COLOUR[number].__getitem__, ranks)),
    )


def player_scores(state: GameState) -> tuple[PlayerScore, ...]:
    """Every player's score, best first (ties in player order): END-2, VAR-3.

    >>> from outofgears.rules.setup import setup_game
    >>> [s.points for s in player_scores(setup_game([1, 2], seed=0))]
    [0, 0]
    """
    expect_state(state)
    tallies = {robot.number: robot_tally(robot) for robot in state.robots}
    return best_first(scores_of(state.players, tallies))


def table_scores(table: Table) -> list[PlayerScore]:
    """Every player's score on ``table`` after its turn's activation and assembly, in player
    order (END-2, VAR-3): the scores of the position :meth:`Table.freeze
    <outofgears.rules.table.Table.freeze>` would build, read off the table's gears."""
    feet, circuit_of = table.feet, table.circuit_of
    tallies = {
        number: ranks_tally(number, feet[number] + circuit_of(number)) for number in table.numbers
    }
    return scores_of(table.state.players, tallies)


def scores_of(
    players: Iterable[Player], tallies: Mapping[int, tuple[int, int]]
) -> list[PlayerScore]:
    """Every player's score, in player order, from its robots' points and own-colour gears
    (``tallies`` by robot number; a player's lower robot counts, VAR-3)."""
    return [
        score_player_by_lower_robot(
            player.name, [(number, *tallies[number]) for number in player.robots]
        )
        for player in players
    ]


def best_first(scores: Iterable[PlayerScore]) -> tuple[PlayerScore, ...]:
    """Scores ordered best first: most points, then most own-colour gears (END-3); ties keep
    their order."""
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
