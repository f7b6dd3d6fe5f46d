"""The game as bots and search algorithms see it: returns, the turn cap, hidden information.

* :func:`returns` gives every player's result as a number: the win share (the winners split
  1), win/loss (+1 each winner, -1 everyone else) or the points (END-2, VAR-3).
* A turn cap (ruling R-TURN-CAP) bounds a game: the rulebooks set none, and a game where every
  robot defends every turn never ends. With ``turn_cap=N`` a game not over after ``N`` turns is
  cut off and scored as it stands, exactly as a game that ended then (END-2, END-3).
  :func:`is_terminal` says whether a game is over or cut off.
* :func:`resample_hidden` draws what one player cannot see, for information-set search.
* :func:`game_info` describes the game for a framework: players, actions, observation size,
  utility range, maximum length.
"""

from __future__ import annotations

import random
from typing import Literal

from attrs import frozen

from outofgears.errors import ArgumentTypeError, InvalidStateError, printable
from outofgears.play.actions import num_actions, num_joint_actions
from outofgears.play.observation import observation_size, observe
from outofgears.rules.model import GameState, UpgradeCard
from outofgears.rules.scoring import player_scores, winners

ReturnKind = Literal["win_share", "win_loss", "points"]

#: The largest turn cap accepted.
MAX_TURN_CAP = 100_000

#: The kinds of :func:`returns`.
RETURN_KINDS: tuple[ReturnKind, ...] = ("win_share", "win_loss", "points")


def is_cut_off(state: GameState, turn_cap: int | None) -> bool:
    """Whether a game that has not ended reached its turn cap (ruling R-TURN-CAP).

    >>> from outofgears.rules.setup import setup_game
    >>> state = setup_game([1, 2], seed=0)
    >>> is_cut_off(state, None), is_cut_off(state, 0), is_cut_off(state, 1)
    (False, True, False)
    """
    _check_state(state)
    check_turn_cap(turn_cap)
    return not state.game_over and turn_cap is not None and state.turn > turn_cap


def is_terminal(state: GameState, turn_cap: int | None = None) -> bool:
    """Whether no turn is left to play: the game is over (END-1) or cut off at ``turn_cap``.

    >>> from outofgears.rules.setup import setup_game
    >>> is_terminal(setup_game([1, 2], seed=0)), is_terminal(setup_game([1, 2], seed=0), 0)
    (False, True)
    """
    _check_state(state)
    return state.game_over or is_cut_off(state, turn_cap)


def returns(
    state: GameState, kind: ReturnKind = "win_share", *, turn_cap: int | None = None
) -> dict[str, float]:
    """Every player's result as a number, by name, in the order of ``state.players``.

    Args:
        state: The position.
        kind: ``"win_share"``: the winners (END-3) split 1, the others 0, so the returns add
            up to 1; ``"win_loss"``: +1 for each winner, -1 for the others; ``"points"``: the
            player's points (END-2; in the two-robot variant its lower robot, VAR-3).
        turn_cap: The turn cap, if any (ruling R-TURN-CAP): a game cut off there is scored as
            it stands.

    The win shares and win/loss of a game that is neither over nor cut off are all 0; its
    points are the points each player would score if it ended now, so a search can read
    them at any turn.

    >>> from outofgears.rules.setup import from_position
    >>> from outofgears.rules.gears import gears
    >>> state = from_position(robots={1: {"feet": gears(1, 1)}, 2: {"feet": gears(2, 2)},
    ...                               3: {"feet": gears(3)}}, dumps={1: (), 2: (), 3: ()},
    ...                       reserve=gears(3))
    >>> returns(state), returns(state, turn_cap=0)
    ({'P1': 0.0, 'P2': 0.0, 'P3': 0.0}, {'P1': 0.5, 'P2': 0.5, 'P3': 0.0})
    >>> returns(state, "points")
    {'P1': 4.0, 'P2': 4.0, 'P3': 2.0}
    >>> returns(state, "win_loss", turn_cap=0), returns(state, "points", turn_cap=0)
    ({'P1': 1.0, 'P2': 1.0, 'P3': -1.0}, {'P1': 4.0, 'P2': 4.0, 'P3': 2.0})
    """
    _check_state(state)
    _check_kind(kind)
    names = [player.name for player in state.players]
    if kind == "points":
        check_turn_cap(turn_cap)
        points = {score.player: float(score.points) for score in player_scores(state)}
        return {name: points[name] for name in names}
    if not is_terminal(state, turn_cap):
        return dict.fromkeys(names, 0.0)
    best = set(winners(state))
    if kind == "win_share":
        return {name: 1.0 / len(best) if name in best else 0.0 for name in names}
    return {name: 1.0 if name in best else -1.0 for name in names}


def resample_hidden(
    state: GameState,
    player: str,
    rng: random.Random,
    *,
    seen_upgrades: tuple[UpgradeCard, ...] = (),
) -> GameState:
    """A position ``player`` cannot tell from ``state``: what it cannot see drawn afresh.

    The reserve is reshuffled, and every other player who still holds an upgrade card is dealt
    one from the deck less ``player``'s own card and ``seen_upgrades`` (the cards ``player``
    saw laid). Everything on the table stays. For information-set search (determinization).

    >>> from collections import Counter
    >>> from outofgears.rules.setup import setup_game
    >>> from outofgears.rules.model import Options
    >>> state = setup_game([1, 2, 3], seed=7, options=Options(upgrades=True))
    >>> other = resample_hidden(state, "P1", random.Random(1))
    >>> observe(other, "P1") == observe(state, "P1"), Counter(other.reserve) == Counter(state.reserve)
    (True, True)
    """
    if not isinstance(rng, random.Random):
        raise ArgumentTypeError("rng", "a random.Random", rng)
    if not isinstance(seen_upgrades, tuple) or not all(
        isinstance(card, UpgradeCard) for card in seen_upgrades
    ):
        raise ArgumentTypeError("seen_upgrades", "a tuple of UpgradeCard", seen_upgrades)
    return observe(state, player).sample_state(rng, seen_upgrades=seen_upgrades)


@frozen
class GameInfo:
    """What a framework needs to know of a game before it starts (:func:`game_info`).

    Args:
        players: The players' names, in seat order (their first robot's number).
        robots: Each player's robots.
        num_actions: Actions of one robot (:func:`~outofgears.play.actions.num_actions`).
        num_player_actions: Moves of one player: ``num_actions``, or its square in the
            two-robot variant (joint actions).
        observation_size: The length of an observation vector.
        min_utility: The lowest return of the kind.
        max_utility: The highest return of the kind.
        utility_sum: What the returns of a finished game add up to, when that is fixed.
        max_turns: The most turns a game can last: the turn cap, ``None`` without one.
    """

    players: tuple[str, ...]
    robots: tuple[tuple[int, ...], ...]
    num_actions: int
    num_player_actions: int
    observation_size: int
    min_utility: float
    max_utility: float
    utility_sum: float | None
    max_turns: int | None


def game_info(
    state: GameState, *, kind: ReturnKind = "win_share", turn_cap: int | None = None
) -> GameInfo:
    """The players, actions, observation size, utility range and maximum length of a game.

    >>> from outofgears.rules.setup import setup_game
    >>> info = game_info(setup_game([1, 2, 3], seed=0), turn_cap=50)
    >>> info.players, info.num_actions, info.observation_size, info.max_turns
    (('P1', 'P2', 'P3'), 24, 515, 50)
    >>> info.min_utility, info.max_utility, info.utility_sum
    (0.0, 1.0, 1.0)
    """
    _check_state(state)
    check_turn_cap(turn_cap)
    _check_kind(kind)
    options = state.options
    variant = state.is_two_robot_variant
    low, high, total = {
        "win_share": (0.0, 1.0, 1.0),
        "win_loss": (-1.0, 1.0, None),
        "points": (0.0, float(max_points(state)), None),
    }[kind]
    return GameInfo(
        players=tuple(player.name for player in state.players),
        robots=tuple(player.robots for player in state.players),
        num_actions=num_actions(options),
        num_player_actions=num_joint_actions(options) if variant else num_actions(options),
        observation_size=observation_size(options),
        min_utility=low,
        max_utility=high,
        utility_sum=total,
        max_turns=turn_cap,
    )


def max_points(state: GameState) -> int:
    """An upper bound on a player's points: every gear of the game at its best worth.

    >>> from outofgears.rules.setup import setup_game
    >>> max_points(setup_game([1, 2], seed=0))
    44
    """
    _check_state(state)
    return sum(
        max(gear.points_for(robot) for robot in state.robot_numbers) for gear in state.all_gears()
    )


def check_turn_cap(turn_cap: object, least: int = 0) -> None:
    """Raise :class:`~outofgears.errors.InvalidStateError` unless ``turn_cap`` is ``None`` or a
    whole number of turns from ``least`` to :data:`MAX_TURN_CAP`. Reading a position, a cap
    of 0 scores it as it stands; a game played with a cap needs ``least=1`` (a cap of 0 would
    end it before it starts).

    >>> check_turn_cap(0, least=1)
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: a turn cap is a whole number of turns from 1 to 100,000, or None, not 0
    """
    if turn_cap is not None and (
        type(turn_cap) is not int or not least <= turn_cap <= MAX_TURN_CAP
    ):
        raise InvalidStateError(
            f"a turn cap is a whole number of turns from {least} to {MAX_TURN_CAP:,}, or None, "
            f"not {printable(repr(turn_cap))[:40]}"
        )


def _check_state(state: object) -> None:
    if not isinstance(state, GameState):
        raise ArgumentTypeError("state", "a GameState", state)


def _check_kind(kind: object) -> None:
    if kind not in RETURN_KINDS:
        raise InvalidStateError(
            f"kind is one of {', '.join(RETURN_KINDS)}, not {printable(repr(kind))[:40]}"
        )


#: The public names of this module (the rest serves them).
__all__ = [
    "GameInfo",
    "game_info",
    "is_cut_off",
    "is_terminal",
    "max_points",
    "resample_hidden",
    "returns",
]
