"""The two-robot variant for 2-4 players (spec VAR-1 to VAR-4).

Each player controls two robots with both number sets but a single trio of
action cards, so the two robots must use different action cards in a turn
(VAR-2); both may name the same number. A robot may target its partner (VAR-4:
nothing in the rules forbids it, so the ordinary rules apply). The player
scores the lower of its two robots (VAR-3).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from attrs import frozen

from outofgears.errors import IllegalProgramError
from outofgears.rules.model import GameState


def check_partners_use_different_actions(state: GameState, actions: Mapping[int, Hashable]) -> None:
    """Two robots of one player may not lay the same action card (spec VAR-2).

    ``actions`` maps each robot to the action card it laid. The error names the
    higher-numbered robot of the pair.

    >>> from outofgears.rules.setup import setup_two_robot_game
    >>> state = setup_two_robot_game({"Ada": (1, 2), "Bo": (3, 4)}, seed=1)
    >>> check_partners_use_different_actions(
    ...     state, {1: "trap", 2: "trap", 3: "trap", 4: "attack"})
    Traceback (most recent call last):
    ...
    outofgears.errors.IllegalProgramError: robot 2: player 'Ada' has one trap card, and robot 1 already uses it (VAR-2)
    """
    # A state lists its players by their lower robot, the order GEN-2 item 3 takes them in.
    for player in state.players:
        if len(player.robots) != 2:
            continue
        first, second = player.robots
        if first in actions and second in actions and actions[first] == actions[second]:
            raise IllegalProgramError(
                second,
                f"player {player.name!r} has one {_card_name(actions[first])} card, "
                f"and robot {first} already uses it",
                clause="VAR-2",
            )


def _card_name(card: Hashable) -> str:
    return str(getattr(card, "value", card))


@frozen
class PlayerScore:
    """A player's final score and tie-break (spec END-3, VAR-3).

    Attributes:
        player: The player's name.
        points: The points that count for the player.
        own_colour: The own-colour gears of the robot that gives those points.
        robot: That robot's number.
    """

    player: str
    points: int
    own_colour: int
    robot: int


def score_player_by_lower_robot(
    player: str, robot_scores: Sequence[tuple[int, int, int]]
) -> PlayerScore:
    """A player's score from its robots' ``(robot, points, own_colour)`` (spec VAR-3).

    With one robot that robot's score counts. With two, the lower score counts,
    and the tie-break uses that robot's own-colour gears; if both robots score
    the same, the lower own-colour count (ruling R-TWO-ROBOTS).

    >>> score_player_by_lower_robot("Ada", [(1, 12, 3), (2, 9, 4)])
    PlayerScore(player='Ada', points=9, own_colour=4, robot=2)
    >>> score_player_by_lower_robot("Bo", [(3, 9, 4), (4, 9, 2)]).own_colour
    2
    """
    if len(robot_scores) == 1:
        robot, points, own = robot_scores[0]
    else:
        robot, points, own = min(robot_scores, key=lambda entry: (entry[1], entry[2], entry[0]))
    return PlayerScore(player, points, own, robot)
