"""The table: the engine's working copy of a position while a turn resolves.

A :class:`~outofgears.rules.model.GameState` is the frozen, public face of a position. While a turn
resolves, the rules modules work on a :class:`Table` instead: each place is a list of gear
*ranks* (0-9, :func:`outofgears.rules.gears.gear_rank`) indexed by robot or dump number, as
python-chess keeps bitboards under its ``Board``. At the end of the turn :meth:`Table.freeze`
builds the new state, sharing every robot, dump and player the turn left alone.

Events are written by the same code that moves the gears, and only when somebody asked for
them (``record=True``): :meth:`Table.move` is the one place a rule moves a gear.
:func:`apply_events` replays a turn's events on a table and builds the state with the public,
checked constructors, which is why the events of a turn applied to the old state give the new
one (a property the tests check on every turn they play).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

import attrs

from outofgears.errors import ArgumentTypeError, InvalidStateError
from outofgears.rules.events import (
    ActionResolved,
    Event,
    GearMoved,
    Outcome,
    TurnEnded,
    UpgradeDiscarded,
)
from outofgears.rules.gears import (
    RANKS_OF_SHARED,
    SHARED_MULTISETS,
    Gear,
    gear_of,
    gear_rank,
    gears_of,
    ranks_of,
)
from outofgears.rules.model import (
    Dump,
    GameState,
    Options,
    Place,
    PlaceKind,
    Player,
    Robot,
    expect_state,
)

if TYPE_CHECKING:
    from outofgears.rules.choices import DefenceSteal
    from outofgears.rules.programs import ProgramReading


class Decisions(Protocol):
    """What the steps read of the players' decisions: a :class:`~outofgears.rules.choices.Choices`,
    or the decisions :mod:`outofgears.rules.legal` tries."""

    @property
    def defence_steals(self) -> Mapping[tuple[int, int], DefenceSteal]: ...

    @property
    def assemblies(self) -> Mapping[int, tuple[Gear, ...]]: ...

    @property
    def splits(self) -> Mapping[Place, Mapping[int, tuple[Gear, ...]]]: ...


#: A step of a turn's activation: a function of the table, the programs as read and the step's
#: subject (the dump, the attacked robot and its attackers, the defender and the attacker...).
Step = Callable[["Table", "ProgramReading", Any], None]

#: A turn's activation as steps in order, each with its subject
#: (:func:`outofgears.rules.turn.plan_turn`): run as ``step(table, reading, subject)``.
Plan = list[tuple[Step, Any]]


@attrs.frozen
class Reach:
    """What a step of the plan touches and what it leaves the players to decide, declared
    beside the step (:func:`reaches`) and read by :func:`outofgears.rules.legal.legal_choices`.

    Attributes:
        touches: ``touches(subject, reading)``: the robots and the dumps the step may change.
        pile: ``pile(subject, table, reading)``: the place whose pile the step may split among
            several takers, the pile (ranks) and the takers, ascending; ``None`` for a step
            that splits nothing by the players' choice, or when it splits nothing this time.
        steals: Whether the step is a defence steal, its subject ``(defender, attacker)``.
    """

    touches: Callable[[Any, ProgramReading], tuple[Iterable[int], Iterable[int]]]
    pile: (
        Callable[[Any, Table, ProgramReading], tuple[Place, list[int], list[int]] | None] | None
    ) = None
    steals: bool = False


#: Each step a plan can hold and its :class:`Reach`, declared with the step (:func:`reaches`).
STEP_REACH: Final[dict[Step, Reach]] = {}

_S = TypeVar("_S", bound=Step)


def reaches(
    touches: Callable[[Any, ProgramReading], tuple[Iterable[int], Iterable[int]]],
    *,
    pile: Callable[[Any, Table, ProgramReading], tuple[Place, list[int], list[int]] | None]
    | None = None,
    steals: bool = False,
) -> Callable[[_S], _S]:
    """Declare a step's :class:`Reach`: ``@reaches(touches, pile=..., steals=...)``."""

    def declare(step: _S) -> _S:
        STEP_REACH[step] = Reach(touches, pile, steals)
        return step

    return declare


def reach_of(step: Step) -> Reach:
    """The reach a step declared; an error naming a step that declared none."""
    reach = STEP_REACH.get(step)
    if reach is None:
        name = getattr(step, "__qualname__", repr(step))
        raise InvalidStateError(f"the step {name} does not declare its reach (table.reaches)")
    return reach


def touches_nothing(subject: Any, reading: ProgramReading) -> tuple[Iterable[int], Iterable[int]]:
    """The reach of a step that only announces: no robot, no dump."""
    return (), ()


# A speed trick that stays: the outcomes the steps record, read once here. On Python 3.11
# reading an Enum member goes through EnumType's attribute hook (about 90 ns, issue 11), and the
# events of a turn name an outcome for every program.
DEFENDED: Final = Outcome.DEFENDED
DEFENDED_UNTESTED: Final = Outcome.DEFENDED_UNTESTED
DEFENCE_COUNTERED: Final = Outcome.DEFENCE_COUNTERED
ATTACK_VOIDED: Final = Outcome.ATTACK_VOIDED
ATTACK_HIT: Final = Outcome.ATTACK_HIT
TRAP_IDLE: Final = Outcome.TRAP_IDLE
HARVEST_VOIDED: Final = Outcome.HARVEST_VOIDED
TRAP_SPRUNG: Final = Outcome.TRAP_SPRUNG
HARVEST_DONE: Final = Outcome.HARVEST_DONE

#: The places of the table, prebuilt: ``FEET[n]``, ``CIRCUIT[n]``, ``DUMP[n]``.
FEET: Final = tuple(Place.feet(number) for number in range(9))
CIRCUIT: Final = tuple(Place.circuit(number) for number in range(9))
DUMP: Final = tuple(Place.dump(number) for number in range(9))
RESERVE: Final = Place.reserve()

_new = object.__new__


# A speed trick that stays (issue 20): frozen attrs classes with slots refuse ``setattr``; their
# slot descriptors do not. The engine builds its events and the new state through them: no
# converter or validator needs to run on values it made itself from a checked position (the
# tests rebuild every state it makes through the public constructors and compare). Measured on
# 2,000 robots of 8-robot games (2026-11-25, python -m benchmarks.house): a robot
# built through the descriptors costs a fifth to an eighth of one built by ``Robot(...)``, whose
# converters re-check and re-sort both piles; most robots change every turn.
_set_gear = GearMoved.__dict__["gear"].__set__
_set_source = GearMoved.__dict__["source"].__set__
_set_destination = GearMoved.__dict__["destination"].__set__
_set_mover = GearMoved.__dict__["robot"].__set__
_set_move_clause = GearMoved.__dict__["clause"].__set__
_set_actor = ActionResolved.__dict__["robot"].__set__
_set_program = ActionResolved.__dict__["program"].__set__
_set_outcome = ActionResolved.__dict__["outcome"].__set__
_set_act_clause = ActionResolved.__dict__["clause"].__set__
_set_robot_number = Robot.__dict__["number"].__set__
_set_robot_player = Robot.__dict__["player"].__set__
_set_robot_feet = Robot.__dict__["feet"].__set__
_set_robot_circuit = Robot.__dict__["circuit"].__set__
_set_dump_number = Dump.__dict__["number"].__set__
_set_dump_gears = Dump.__dict__["gears"].__set__
_set_player_name = Player.__dict__["name"].__set__
_set_player_robots = Player.__dict__["robots"].__set__
_set_player_upgrade = Player.__dict__["upgrade"].__set__
_set_robots = GameState.__dict__["robots"].__set__
_set_dumps = GameState.__dict__["dumps"].__set__
_set_reserve = GameState.__dict__["reserve"].__set__
_set_players = GameState.__dict__["players"].__set__
_set_turn = GameState.__dict__["turn"].__set__
_set_options = GameState.__dict__["options"].__set__
_set_game_over = GameState.__dict__["game_over"].__set__


def gear_moved(
    gear: Gear, source: Place, destination: Place, robot: int | None, clause: str
) -> GearMoved:
    """A :class:`~outofgears.rules.events.GearMoved` event, built without attrs' ``__init__``."""
    moved: GearMoved = _new(GearMoved)
    _set_gear(moved, gear)
    _set_source(moved, source)
    _set_destination(moved, destination)
    _set_mover(moved, robot)
    _set_move_clause(moved, clause)
    return moved


def _without_card(player: Player) -> Player:
    bare: Player = _new(Player)
    _set_player_name(bare, player.name)
    _set_player_robots(bare, player.robots)
    _set_player_upgrade(bare, None)
    return bare


class Table:
    """Mutable lists of gear ranks for one position, indexed by robot and dump number.

    Attributes:
        state: The position the turn started from.
        numbers: The robots in play, ascending (also the dumps in play).
        feet: ``feet[n]``: the ranks at robot ``n``'s feet (``[]`` for a number not in play).
        dumps: ``dumps[n]``: the ranks on dump ``n``.
        held: The feet gears of attacked robots, lifted while the attacks strike all at once
            (R-SIMUL): victim number to ranks.
        events: The events so far, or ``None`` when nobody asked for them.
        choices: The players' post-reveal decisions, or ``None`` for the default policies.
    """

    __slots__ = (
        "choices",
        "circuit",
        "discarded",
        "dumps",
        "events",
        "feet",
        "game_over",
        "held",
        "moved_circuit",
        "moved_dumps",
        "moved_feet",
        "numbers",
        "reserve",
        "state",
    )

    def __init__(
        self,
        state: GameState,
        *,
        record: bool = False,
        choices: Decisions | None = None,
        numbers: list[int] | None = None,
    ) -> None:
        self.state = state
        self.numbers = [robot.number for robot in state.robots] if numbers is None else numbers
        feet: list[list[int]] = [[]] * 9
        dumps: list[list[int]] = [[]] * 9
        known = RANKS_OF_SHARED.get  # ranks_of, inlined for the usual shared tuples
        for robot in state.robots:
            gears = robot.feet
            ranks = known(id(gears))
            feet[robot.number] = ranks_of(gears) if ranks is None else [*ranks]
        for dump in state.dumps:
            gears = dump.gears
            ranks = known(id(gears))
            dumps[dump.number] = ranks_of(gears) if ranks is None else [*ranks]
        self.feet = feet
        self.circuit: list[list[int] | None] = [None] * 9  # read only when a circuit changes
        self.dumps = dumps
        self.held: dict[int, list[int]] = {}
        self.reserve: Sequence[Gear] = state.reserve
        self.moved_feet = [False] * 9
        self.moved_circuit = [False] * 9
        self.moved_dumps = [False] * 9
        self.events: list[Event] | None = [] if record else None
        self.choices: Decisions | None = choices
        self.discarded: set[str] = set()
        self.game_over = state.game_over

    def copy(self) -> Table:
        """An independent copy (no events), to try a decision without touching this table."""
        twin: Table = _new(Table)
        twin.state = self.state
        twin.numbers = self.numbers
        twin.feet = [list(ranks) for ranks in self.feet]
        twin.circuit = [None if ranks is None else list(ranks) for ranks in self.circuit]
        twin.dumps = [list(ranks) for ranks in self.dumps]
        twin.held = {victim: list(ranks) for victim, ranks in self.held.items()}
        twin.reserve = self.reserve
        twin.moved_feet = list(self.moved_feet)
        twin.moved_circuit = list(self.moved_circuit)
        twin.moved_dumps = list(self.moved_dumps)
        twin.events = None
        twin.choices = self.choices
        twin.discarded = set(self.discarded)
        twin.game_over = self.game_over
        return twin

    # --- reading ------------------------------------------------------------------------------

    def circuit_of(self, robot: int) -> list[int]:
        """The live list of ranks in robot ``robot``'s circuit."""
        ranks = self.circuit[robot]
        if ranks is None:
            gears = self.state.robots[self.numbers.index(robot)].circuit
            shared = RANKS_OF_SHARED.get(id(gears))  # ranks_of, inlined for the shared tuples
            ranks = ranks_of(gears) if shared is None else [*shared]
            self.circuit[robot] = ranks
        return ranks

    def ranks_at(self, place: Place) -> list[int]:
        """The live list of ranks at ``place``."""
        kind = place.kind
        number = place.number
        if kind is not PlaceKind.RESERVE and number not in self.numbers:
            raise InvalidStateError(f"{place} is not in play")
        if kind is PlaceKind.FEET:
            return self.feet[number]
        if kind is PlaceKind.CIRCUIT:
            return self.circuit_of(number)
        if kind is PlaceKind.DUMP:
            return self.dumps[number]
        raise InvalidStateError("the reserve is not a place gears are moved to or from here")

    # --- writing ------------------------------------------------------------------------------

    def give(self, ranks: list[int], source: Place, robot: int, clause: str) -> None:
        """``robot`` takes ``ranks`` (already out of ``source``) to its feet, with their events."""
        if not ranks:
            return
        self.feet[robot].extend(ranks)
        self.moved_feet[robot] = True
        events = self.events
        if events is not None:
            to = FEET[robot]
            for rank in sorted(ranks):
                events.append(gear_moved(gear_of(rank), source, to, robot, clause))

    def act(self, robot: int, program: str, outcome: Outcome, clause: str) -> None:
        """Record what a program came to (only when events are recorded)."""
        events = self.events
        if events is not None:
            resolved: ActionResolved = _new(ActionResolved)
            _set_actor(resolved, robot)
            _set_program(resolved, program)
            _set_outcome(resolved, outcome)
            _set_act_clause(resolved, clause)
            events.append(resolved)

    def emit(self, event: Event) -> None:
        """Record an event (only when events are recorded)."""
        if self.events is not None:
            self.events.append(event)

    # --- the new state ------------------------------------------------------------------------

    def freeze(self) -> GameState:
        """The position on the table as a new state, sharing whatever the turn left alone.

        The turn only moved gears that were there between places of a checked position, so
        the new robots, dumps and state are built with their fields already canonical and
        without re-running :func:`~outofgears.rules.model.check_state`.
        """
        state = self.state
        moved_feet = self.moved_feet
        moved_circuit = self.moved_circuit
        feet = self.feet
        circuits = self.circuit
        # gears_of, inlined for the shared multisets (all but the largest piles): sort, look up.
        shared = SHARED_MULTISETS.get
        found: tuple[Gear, ...] | None
        robots: list[Robot] = []
        for robot in state.robots:
            number = robot.number
            if moved_feet[number] or moved_circuit[number]:
                gears = robot.feet
                if moved_feet[number]:
                    ranks = feet[number]
                    ranks.sort()
                    found = shared(tuple(ranks))
                    gears = gears_of(ranks) if found is None else found
                circuit = robot.circuit
                in_circuit = circuits[number]
                if in_circuit is not None:
                    in_circuit.sort()
                    found = shared(tuple(in_circuit))
                    circuit = gears_of(in_circuit) if found is None else found
                if gears is not robot.feet or circuit is not robot.circuit:
                    new: Robot = _new(Robot)  # _robot, inlined: most robots change every turn
                    _set_robot_number(new, number)
                    _set_robot_player(new, robot.player)
                    _set_robot_feet(new, gears)
                    _set_robot_circuit(new, circuit)
                    robot = new
            robots.append(robot)
        moved_dumps = self.moved_dumps
        piles = self.dumps
        dumps: list[Dump] = []
        for dump in state.dumps:
            number = dump.number
            if moved_dumps[number]:
                ranks = piles[number]
                ranks.sort()
                found = shared(tuple(ranks))
                gears = gears_of(ranks) if found is None else found
                if gears is not dump.gears:
                    dump = _new(Dump)  # _dump, inlined: every dump changes every turn
                    _set_dump_number(dump, number)
                    _set_dump_gears(dump, gears)
            dumps.append(dump)
        players = state.players
        discarded = self.discarded
        if discarded:
            players = tuple(
                _without_card(player) if player.name in discarded else player for player in players
            )
        return _trusted_state(
            tuple(robots),
            tuple(dumps),
            tuple(self.reserve),
            players,
            state.turn + 1,
            state.options,
            self.game_over,
        )


def dealt_state(
    robots: Iterable[Robot],
    dumps: Iterable[Dump],
    reserve: Sequence[Gear],
    players: Iterable[Player],
    options: Options,
) -> GameState:
    """The first state of a new game, from the robots, dumps, reserve and players that
    :func:`outofgears.rules.setup.setup_game` dealt and checked itself (each built by its
    checked constructor, the robots and the players named and seated by setup's own checks),
    in the order of play.

    A speed trick that stays (issue 20): the state is put together through the slot
    descriptors, without running :func:`~outofgears.rules.model.check_state` again over what
    setup made hang together by construction; that check was a fifth of ``setup_game``
    (``python -m benchmarks.house``, figure 3). The tests hold every dealt state to the public
    constructor (``tests/rules/test_setup.py``).
    """
    return _trusted_state(
        tuple(robots), tuple(dumps), tuple(reserve), tuple(players), 1, options, False
    )


def drawn_state(
    robots: tuple[Robot, ...],
    dumps: tuple[Dump, ...],
    reserve: tuple[Gear, ...],
    players: tuple[Player, ...],
    turn: int,
    options: Options,
    game_over: bool,
) -> GameState:
    """A position drawn for a search from one that passed
    :func:`~outofgears.rules.model.check_state`: the same robots, dumps and players' seats,
    the reserve's gears in another order and the hidden upgrade cards dealt again from the
    deck (:meth:`Observation.sample_state <outofgears.play.observation.Observation.sample_state>`
    checks the first position it draws from a table, then draws the others with this).

    The same speed trick as :func:`dealt_state`: put together through the slot descriptors,
    without the checks, which were a third of drawing a position for the search bots. The
    tests hold drawn positions to the public constructor (``tests/test_bots.py``).
    """
    return _trusted_state(robots, dumps, reserve, players, turn, options, game_over)


def _trusted_state(
    robots: tuple[Robot, ...],
    dumps: tuple[Dump, ...],
    reserve: tuple[Gear, ...],
    players: tuple[Player, ...],
    turn: int,
    options: Options,
    game_over: bool,
) -> GameState:
    state: GameState = _new(GameState)
    _set_robots(state, robots)
    _set_dumps(state, dumps)
    _set_reserve(state, reserve)
    _set_players(state, players)
    _set_turn(state, turn)
    _set_options(state, options)
    _set_game_over(state, game_over)
    return state


def apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    """The state that ``events`` lead to from ``state``, built by the public constructors.

    Applied to the events of a turn, this gives exactly the state that
    :func:`outofgears.apply_turn` returned: the engine builds the new state from the same
    moves it records.

    >>> from outofgears import Program, resolve_turn, setup_game
    >>> state = setup_game([1, 2], seed=3)
    >>> programs = {1: Program.parse("harvest 1"), 2: Program.parse("harvest 2")}
    >>> result = resolve_turn(state, programs)
    >>> apply_events(state, result.events) == result.state
    True
    """
    expect_state(state)
    if isinstance(events, str | bytes | Mapping):
        raise ArgumentTypeError("events", "an iterable of Event", events)
    try:
        events = tuple(events)
    except TypeError:
        raise ArgumentTypeError("events", "an iterable of Event", events) from None
    for event in events:
        if not isinstance(event, Event):
            raise ArgumentTypeError("events", "an iterable of Event", event)
    table = Table(state)
    reserve = list(state.reserve)
    upgrades = {player.name: player.upgrade for player in state.players}
    turn, game_over = state.turn, state.game_over
    for event in events:
        if isinstance(event, GearMoved):
            rank = gear_rank(event.gear)
            if event.source.kind is PlaceKind.RESERVE:
                if event.gear not in reserve:
                    raise InvalidStateError(f"no {event.gear} gear in the reserve ({event.clause})")
                reserve.remove(event.gear)
            else:
                source = table.ranks_at(event.source)
                if rank not in source:
                    raise InvalidStateError(
                        f"no {event.gear} gear at {event.source} to move ({event.clause})"
                    )
                source.remove(rank)
            table.ranks_at(event.destination).append(rank)
        elif isinstance(event, UpgradeDiscarded):
            if upgrades.get(event.player) is not event.card:
                raise InvalidStateError(
                    f"player {event.player!r} does not hold {event.card.value} ({event.clause})"
                )
            upgrades[event.player] = None
        elif isinstance(event, TurnEnded):
            turn, game_over = event.turn + 1, event.game_over
    robots = tuple(
        attrs.evolve(
            robot,
            feet=[gear_of(rank) for rank in table.feet[robot.number]],
            circuit=[gear_of(rank) for rank in table.circuit_of(robot.number)],
        )
        for robot in state.robots
    )
    dumps = tuple(
        Dump(dump.number, [gear_of(rank) for rank in table.dumps[dump.number]])
        for dump in state.dumps
    )
    players = tuple(attrs.evolve(player, upgrade=upgrades[player.name]) for player in state.players)
    return attrs.evolve(
        state,
        robots=robots,
        dumps=dumps,
        reserve=tuple(reserve),
        players=players,
        turn=turn,
        game_over=game_over,
    )
