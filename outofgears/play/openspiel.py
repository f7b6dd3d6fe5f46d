"""Out of Gears as an OpenSpiel game (the extra ``outofgears[openspiel]``).

Importing this module registers the game ``python_out_of_gears`` with ``pyspiel``: a
simultaneous-move game of ``robots`` players (one robot each), whose actions are the program
numbers of :mod:`outofgears.play.actions`, with explicit chance nodes.

**Chance.** Every gear that leaves the reserve is a chance outcome: the two gears of each dump
at the deal (SET-4) and every gear drawn when the dumps are explored (EXP-1). An outcome is a
gear rank (0-9: colours 1-8, Jolly, three-point), with probability its count in the reserve
over the reserve's size. With the upgrades, each player's card is a chance outcome too (its
index in :class:`~outofgears.rules.model.UpgradeCard`, probability its count in what is left of
the deck over the cards left), in seat order (UPG-1). The reserve's order is never in the state:
a state holds the reserve as counts and the gears chance already drew, so no search on a
cloned state can read the next draws. A turn whose exploration needs more gears than chance
drew is held, with the players' actions, while chance draws them (one chance node per gear).

The game is *explicit stochastic* rather than *sampled stochastic*: OpenSpiel's exact
algorithms (expectimax, CFR's chance sampling, ``random_sim_test``'s serialization of the
history) need the outcomes and their probabilities, and a sampled game would make a cloned
state replay its generator's draws, which is exactly the peeking this removes.

**Seed.** With the parameter ``seed`` (0 or more) the deal is that of
:func:`~outofgears.rules.setup.setup_seated_game` with that seed (its dumps and upgrade cards;
no chance node at the deal), so a deal can be replayed; the draws after it are still chance.
The default ``seed=-1`` deals by chance.

**Observations.** A player's observation is its
:class:`~outofgears.play.observation.Observation` (tensor: :meth:`to_vector
<outofgears.play.observation.Observation.to_vector>`, string: :meth:`to_string
<outofgears.play.observation.Observation.to_string>`). The observer types are honoured:

* the default (public and the player's private information): the observation;
* public information only (``private_info=NONE``): the part every player shares, the same for
  all (no own robot marked, no own card);
* perfect recall: the information-state *string*, the player's own card and the public
  history (each turn's revealed programs and every gear drawn, all seen on the table);
  there is no information-state tensor (a clear ``SpielError`` if asked);
* anything else (private information alone, every player's) is refused with a ``SpielError``.

From Python, ``state.observation_tensor(player)`` is served by the state itself, from the
position's observations (the same numbers as the observer's tensor, without OpenSpiel's round
trip through C++, which costs more than the observation); a state's shared part is computed
once and the caches live in the game object, so ``clone()`` copies little.

The returns are the win shares (constant sum 1); a game not over after ``turn_cap`` turns is
cut off and scored as it stands (ruling R-TURN-CAP).

Parameters, in the game string: ``robots`` (2-8, default 4), ``seed`` (default -1),
``upgrades`` (default false), ``turn_cap`` (1-10,000, default 100) and ``two_robots`` (default
false), as in ``pyspiel.load_game("python_out_of_gears(robots=3,seed=7)")``. With
``two_robots=true`` (4, 6 or 8 robots) it is the two-robot variant: ``robots / 2`` players,
player ``j`` controlling robots ``j`` and ``j + robots / 2`` (VAR-1), each action a joint
action of both robots (:func:`~outofgears.play.actions.joint_action_id`), the legal ones
respecting VAR-2.

Errors: bad parameters raise :class:`~outofgears.errors.InvalidStateError` when the game is
built; an illegal or out-of-range action, a player out of range and an unsupported observer
raise ``pyspiel.SpielError``, the error OpenSpiel documents.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

import numpy as np
import pyspiel
from attrs import evolve, frozen

from outofgears.errors import InvalidStateError
from outofgears.play.actions import num_actions, num_joint_actions, programs_of_move
from outofgears.play.game import MAX_TURN_CAP, is_terminal, returns
from outofgears.play.observation import (
    Observation,
    ObservationCache,
    observation_size,
    own_slots,
    shared_vector,
)
from outofgears.rules.gears import CANONICAL_GEARS, gear_ranks
from outofgears.rules.model import Dump, GameState, Options, UpgradeCard
from outofgears.rules.programs import AnyProgram
from outofgears.rules.setup import INITIAL_GEARS_PER_DUMP, setup_seated_game
from outofgears.rules.turn import apply_turn

_DEFAULT_PARAMS: dict[str, Any] = {
    "robots": 4,
    "seed": -1,
    "upgrades": False,
    "turn_cap": 100,
    "two_robots": False,
}

_RANKS: Final = len(CANONICAL_GEARS)
_CARDS: Final = tuple(UpgradeCard)

_GAME_TYPE = pyspiel.GameType(
    short_name="python_out_of_gears",
    long_name="Python Out of Gears",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULT_PARAMS,
)


@frozen
class _Setup:
    """What every state of a game shares (never copied: :meth:`__deepcopy__` is itself).

    Args:
        template: A deal of the game, whose dumps, reserve and cards a state replaces.
        gears: Every gear of the game, as counts by rank.
        dumps: The dumps in play, ascending.
        deck: The upgrade deck as counts by card (empty without the upgrades).
        seated: The players' indices in the order the cards are dealt.
        seeded: The deal of the ``seed`` parameter, if one was given.
    """

    template: GameState
    gears: tuple[int, ...]
    dumps: tuple[int, ...]
    deck: tuple[int, ...]
    seated: tuple[int, ...]
    seeded: GameState | None
    cache: ObservationCache

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self


class OutOfGearsGame(pyspiel.Game):  # type: ignore[misc]
    """The game; ``pyspiel.load_game("python_out_of_gears(...)")`` builds it."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULT_PARAMS, **(params or {})}
        robots = _whole(params, "robots", 2, 8)
        self.two_robots = _flag(params, "two_robots")
        if self.two_robots and robots not in (4, 6, 8):
            raise InvalidStateError(f"the two-robot variant has 4, 6 or 8 robots, not {robots}")
        self.robots = robots
        self.seed = _whole(params, "seed", -1, 2**63 - 1)
        self.options = Options(upgrades=_flag(params, "upgrades"))
        self.turn_cap = _whole(params, "turn_cap", 1, min(MAX_TURN_CAP, 10_000))
        seeded = setup_seated_game(
            robots, two_robots=self.two_robots, seed=max(0, self.seed), options=self.options
        )
        counts = Counter(gear_ranks(tuple(seeded.all_gears())))
        gears = [counts[rank] for rank in range(_RANKS)]
        # Before the deal: empty dumps, every gear in the reserve, no card held.
        template = evolve(
            seeded,
            dumps=tuple(Dump(dump.number, ()) for dump in seeded.dumps),
            reserve=_gears_of_counts(gears),
            players=tuple(evolve(player, upgrade=None) for player in seeded.players),
        )
        deck = Counter(self.options.upgrade_deck) if self.options.upgrades else Counter()
        order = sorted(template.players, key=lambda player: min(player.robots))
        self.setup = _Setup(
            template=template,
            gears=tuple(gears),
            dumps=tuple(dump.number for dump in template.dumps),
            deck=tuple(deck[card] for card in _CARDS),
            seated=tuple(template.players.index(player) for player in order),
            seeded=seeded if self.seed >= 0 else None,
            cache=ObservationCache(),
        )
        players = robots // 2 if self.two_robots else robots
        deal = len(self.setup.dumps) * INITIAL_GEARS_PER_DUMP + (
            players if self.options.upgrades else 0
        )
        super().__init__(
            _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=(
                    num_joint_actions(self.options)
                    if self.two_robots
                    else num_actions(self.options)
                ),
                max_chance_outcomes=max(_RANKS, len(_CARDS)),
                num_players=players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=1.0,
                # The turns, the deal's chance nodes and one chance node per gear drawn.
                max_game_length=self.turn_cap + deal + sum(self.setup.gears),
            ),
            params,
        )

    def new_initial_state(self) -> OutOfGearsState:
        """The deal: chance nodes, or the deal of the ``seed`` parameter."""
        return OutOfGearsState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> OutOfGearsObserver:
        """The observer of the type asked for (see the module's docstring)."""
        if params:
            raise pyspiel.SpielError(f"the observer takes no parameters, not {params!r}")
        return OutOfGearsObserver(_kind_of(iig_obs_type), self)


def _whole(params: dict[str, Any], name: str, least: int, most: int) -> int:
    value = params[name]
    if type(value) is not int or not least <= value <= most:
        raise InvalidStateError(f"parameter {name} is a whole number from {least} to {most}")
    return value


def _flag(params: dict[str, Any], name: str) -> bool:
    value = params[name]
    if type(value) is not bool:
        raise InvalidStateError(f"parameter {name} is true or false, not {value!r}")
    return value


_PLAY: Final = "play"
_DEAL_GEARS: Final = "deal gears"
_DEAL_CARDS: Final = "deal cards"
_DRAW: Final = "draw"


class OutOfGearsState(pyspiel.State):  # type: ignore[misc]
    """A position of the game.

    Its attributes are small and immutable but for the lists, so that OpenSpiel's ``clone``
    (a deep copy of them) is cheap. :attr:`state` is the position with its reserve laid out
    as the gears chance drew, then the others in rank order: the rules draw from the front,
    and a turn that would draw past what chance drew is held until chance draws more.
    """

    def __init__(self, game: OutOfGearsGame) -> None:
        super().__init__(game)
        self.setup = game.setup
        self.turn_cap = game.turn_cap
        self.names = tuple(player.name for player in self.setup.template.players)
        self.revealed: _SameDict | None = None
        #: Gears dealt to the dumps (during the deal) or drawn ahead in the reserve (during play).
        self.drawn: list[int] = []
        #: Cards dealt, in seat order (during the deal).
        self.cards: list[int] = []
        #: The actions of a turn held while chance draws its gears.
        self.pending: _SameDict | None = None
        #: How many gears chance must have drawn before the held turn is tried again.
        self.need = 0
        #: The public history, for the information states: per event, a line of words.
        self.history = _SameTuple()
        #: The shared part of the observation vector of :attr:`state`, once computed.
        self.shared: tuple[GameState, bytes] | None = None
        if self.setup.seeded is not None:
            self.phase = _PLAY
            self.state = self.setup.seeded
            self.dealt_cards = tuple(
                _CARDS.index(player.upgrade) if player.upgrade is not None else -1
                for player in self.state.players
            )
            self._unorder_reserve()
        else:
            self.phase = _DEAL_GEARS
            self.state = self.setup.template
            self.dealt_cards = ()

    # ---------------------------------------------------------------- the players and chance

    def current_player(self) -> int:
        """Chance during the deal and the draws, every player at once otherwise."""
        if self.phase != _PLAY:
            return int(pyspiel.PlayerId.CHANCE)
        if is_terminal(self.state, self.turn_cap):
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.SIMULTANEOUS)

    def _legal_actions(self, player: int) -> list[int]:
        if self.phase != _PLAY or is_terminal(self.state, self.turn_cap):
            return []
        return list(self.setup.cache.legal_moves(self.state, self._name(player)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The gear ranks (or cards) chance may draw next, with their probabilities."""
        if self.phase == _DEAL_CARDS:
            left = list(self.setup.deck)
            for card in self.cards:
                left[card] -= 1
        elif self.phase == _DEAL_GEARS:
            left = list(self.setup.gears)
            for rank in self.drawn:
                left[rank] -= 1
        elif self.phase == _DRAW:
            left = self._unseen_reserve()
        else:
            return []
        total = sum(left)
        return [(index, count / total) for index, count in enumerate(left) if count]

    def _apply_action(self, action: int) -> None:
        outcomes = dict(self.chance_outcomes())
        if self.phase == _PLAY or action not in outcomes:
            raise pyspiel.SpielError(
                f"{action!r} is not a chance outcome here (outcomes: {sorted(outcomes)})"
            )
        if self.phase == _DEAL_CARDS:
            self.cards.append(action)
            if len(self.cards) == len(self.setup.seated):
                self._finish_deal()
            return
        self.drawn.append(action)
        if self.phase == _DEAL_GEARS:
            if len(self.drawn) == len(self.setup.dumps) * INITIAL_GEARS_PER_DUMP:
                if self.setup.deck and any(self.setup.deck):
                    self.phase = _DEAL_CARDS
                else:
                    self._finish_deal()
            return
        self.history = _SameTuple((*self.history, f"drawn {CANONICAL_GEARS[action]}"))
        self._lay_reserve()
        self._try_turn()

    def _apply_actions(self, actions: list[int]) -> None:
        if self.phase != _PLAY or is_terminal(self.state, self.turn_cap):
            raise pyspiel.SpielError("no turn to play: the game is over or chance is to move")
        if len(actions) != len(self.names):
            raise pyspiel.SpielError(
                f"{len(actions)} actions for {len(self.names)} players: one each"
            )
        programs: dict[int, AnyProgram] = {}
        for player, action in enumerate(actions):
            name = self.names[player]
            if action not in self.setup.cache.legal_moves(self.state, name):
                raise pyspiel.SpielError(f"action {action!r} is not legal for {name}")
            programs.update(programs_of_move(self.state, name, int(action)))
        laid = ", ".join(f"robot {robot} {programs[robot]}" for robot in sorted(programs))
        self.history = _SameTuple((*self.history, f"turn {self.state.turn}: {laid}"))
        self.pending = _SameDict(programs)
        self.phase = _DRAW
        self.need = 0
        self._try_turn()

    def _try_turn(self) -> None:
        """Play the held turn if chance drew every gear it takes; else wait for chance.

        The turn is played on the reserve as laid out (the gears drawn, then the others): if
        it takes no more gears than chance drew, it saw only those, and stands; otherwise
        chance draws as many as it took, and the turn is tried again.
        """
        assert self.pending is not None
        if len(self.drawn) < self.need:
            return
        before = self.state
        after = apply_turn(before, self.pending)
        taken = len(before.reserve) - len(after.reserve)
        if taken > len(self.drawn):
            self.need = taken
            return
        del self.drawn[:taken]
        self.state = after
        self.revealed = self.pending
        self.pending = None
        self.phase = _PLAY

    # ------------------------------------------------------------------ the reserve as counts

    def _finish_deal(self) -> None:
        setup = self.setup
        per = INITIAL_GEARS_PER_DUMP
        dumps = tuple(
            Dump(
                number, tuple(CANONICAL_GEARS[rank] for rank in self.drawn[i * per : i * per + per])
            )
            for i, number in enumerate(setup.dumps)
        )
        players = list(setup.template.players)
        held = [-1] * len(players)
        for seat, card in zip(setup.seated, self.cards, strict=False):
            players[seat] = evolve(players[seat], upgrade=_CARDS[card])
            held[seat] = card
        left = list(setup.gears)
        for rank in self.drawn:
            left[rank] -= 1
        self.state = evolve(
            setup.template,
            dumps=dumps,
            reserve=_gears_of_counts(left),
            players=tuple(players),
        )
        self.dealt_cards = tuple(held)
        piles = "; ".join(f"dump {d.number} {', '.join(map(str, d.gears))}" for d in dumps)
        self.history = _SameTuple((*self.history, f"deal: {piles}"))
        self.drawn = []
        self.cards = []
        self.phase = _PLAY

    def _unorder_reserve(self) -> None:
        """Forget the seeded reserve's order: chance draws from its counts."""
        counts = [0] * _RANKS
        for rank in gear_ranks(self.state.reserve):
            counts[rank] += 1
        self.state = evolve(self.state, reserve=_gears_of_counts(counts))

    def _unseen_reserve(self) -> list[int]:
        """The reserve's gears that chance has not drawn yet, as counts by rank."""
        counts = [0] * _RANKS
        for rank in gear_ranks(self.state.reserve):
            counts[rank] += 1
        for rank in self.drawn:
            counts[rank] -= 1
        return counts

    def _lay_reserve(self) -> None:
        """The reserve as the gears chance drew, in order, then the others by rank."""
        rest = self._unseen_reserve()
        drawn = tuple(CANONICAL_GEARS[rank] for rank in self.drawn)
        self.state = evolve(self.state, reserve=drawn + _gears_of_counts(rest))

    # ------------------------------------------------------------------------------ the rest

    def _name(self, player: int) -> str:
        if type(player) is not int or not 0 <= player < len(self.names):
            raise pyspiel.SpielError(
                f"player {player!r} is not one of the {len(self.names)} players"
            )
        return self.names[player]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.phase == _DEAL_CARDS:
                return f"card {_CARDS[action].value}" if 0 <= action < len(_CARDS) else "?"
            return f"gear {CANONICAL_GEARS[action]}" if 0 <= action < _RANKS else "?"
        name = self._name(player)
        try:
            moves = programs_of_move(self.state, name, int(action))
        except ValueError as error:
            raise pyspiel.SpielError(str(error)) from None
        laid = ", ".join(f"robot {robot} {program}" for robot, program in moves.items())
        return f"{name}: {laid}"

    def is_terminal(self) -> bool:
        """Whether the game is over (END-1) or cut off at the turn cap."""
        return self.phase == _PLAY and is_terminal(self.state, self.turn_cap)

    def returns(self) -> list[float]:
        """The win shares, in player order; 0 before the end."""
        if not self.is_terminal():
            return [0.0] * len(self.names)
        shares = returns(self.state, turn_cap=self.turn_cap)
        return [shares[name] for name in self.names]

    def shared_part(self) -> bytes:
        """The shared part of the observation vector of the position (computed once)."""
        kept = self.shared
        if kept is not None and kept[0] is self.state:
            return kept[1]
        revealed = None
        if self.revealed is not None:
            from outofgears.play.actions import action_id

            revealed = {robot: action_id(program) for robot, program in self.revealed.items()}
        part = shared_vector(self.state, revealed, cache=self.setup.cache)
        self.shared = (self.state, part)
        return part

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The player's observation vector (OpenSpiel's method, without its round trip
        through the C++ observer: the same numbers)."""
        if player is None:
            player = self.current_player()
        name = self._name(player)
        return self.setup.cache.observe(self.state, name, revealed=self.revealed).to_vector()

    def __str__(self) -> str:
        return f"{self.phase}; " + " | ".join(self.history[-3:])


class _SameTuple(tuple[str, ...]):
    """A tuple that a deep copy (OpenSpiel's ``clone``) shares: it holds strings only."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _SameTuple:
        return self


class _SameDict(dict[int, AnyProgram]):
    """Programs by robot, never changed once made, which a deep copy shares."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _SameDict:
        return self


def _gears_of_counts(counts: list[int]) -> tuple[Any, ...]:
    return tuple(CANONICAL_GEARS[rank] for rank, count in enumerate(counts) for _ in range(count))


_DEFAULT: Final = "default"
_PUBLIC: Final = "public"
_RECALL: Final = "perfect recall"


def _kind_of(iig_obs_type: Any) -> str:
    """Which observer an ``IIGObservationType`` asks for; a ``SpielError`` for the others."""
    if iig_obs_type is None:
        return _DEFAULT
    private = iig_obs_type.private_info
    if iig_obs_type.perfect_recall:
        if iig_obs_type.public_info and private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return _RECALL
    elif iig_obs_type.public_info and private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
        return _DEFAULT
    elif iig_obs_type.public_info and private == pyspiel.PrivateInfoType.NONE:
        return _PUBLIC
    raise pyspiel.SpielError(
        "python_out_of_gears observes a player's own view, the public view or (as a string) "
        f"the player's perfect-recall information state, not {iig_obs_type}"
    )


class OutOfGearsObserver:
    """A player's observation, as OpenSpiel's Python observers give it."""

    def __init__(self, kind: str, game: OutOfGearsGame) -> None:
        self.kind = kind
        self.tensor = np.zeros(observation_size(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: OutOfGearsState, player: int) -> None:
        """Fill :attr:`tensor` with the player's observation vector (or the public one)."""
        if self.kind == _RECALL:
            raise pyspiel.SpielError(
                "python_out_of_gears has no information-state tensor: use "
                "information_state_string, or the observation tensor"
            )
        name = state._name(player)
        tensor = self.tensor
        tensor[:] = np.frombuffer(state.shared_part(), np.float32)
        if self.kind == _DEFAULT:
            seat = state.state.players[player]
            for slot in own_slots(seat.robots, seat.upgrade):
                tensor[slot] = 1.0
        assert name

    def string_from(self, state: OutOfGearsState, player: int) -> str:
        """The player's observation (or the public one, or its information state) in words."""
        name = state._name(player)
        if self.kind == _RECALL:
            card = state.dealt_cards[player] if state.dealt_cards else -1
            own = f"{name}, dealt {_CARDS[card].value}" if card >= 0 else name
            return "\n".join([own, *state.history])
        seat = state.state.players[player]
        seen = state.setup.cache.observe(state.state, name, revealed=state.revealed)
        if self.kind == _PUBLIC:
            seen = Observation(name, seat.robots, None, seen.public)
        return f"[{state.phase}] " + seen.to_string() if state.phase != _PLAY else seen.to_string()


pyspiel.register_game(_GAME_TYPE, OutOfGearsGame)
