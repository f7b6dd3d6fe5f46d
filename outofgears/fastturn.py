"""The fast path of a turn: the rules of the phase modules, on plain integers.

:func:`outofgears.turn.resolve_turn` and :func:`outofgears.turn.apply_turn` run this path for
every turn played with the default post-reveal choices (explicit :class:`~outofgears.Choices`
go through the reference pipeline, :func:`outofgears.turn.resolve_turn_reference`). It gives
the very same new state and the very same events as the reference, in the same order; the
test suite checks that on every turn it plays (``OUTOFGEARS_ENGINE=checked``, the tests'
default) and on random positions of every option (``tests/test_fast_paths.py``).

What makes it fast (issue 6, docs/performance.md):

* a gear is its rank, 0-9 (:func:`outofgears.gears.gear_rank`), and each place a list of
  ranks; the model's gears are shared instances, so a rank is found by identity;
* the programs are read once into per-robot codes, and the attackers of each robot and the
  trappers and harvesters of each dump are indexed once per turn;
* with ``record=False`` (what :func:`~outofgears.turn.apply_turn` asks for) no event object is
  built at all;
* the new state reuses every robot, dump and player the turn left alone, and builds the others
  without re-running the model's converters and checks (the turn only moved gears that were
  there, between places of the same checked position).

The rules themselves are written, cited and explained in the phase modules (attacks, traps,
harvests, upgrades, sharing, assembly, exploration, scoring); each step here names the
function of the reference it mirrors.
"""

from __future__ import annotations

from typing import Final

from outofgears.events import (
    ActionResolved,
    Event,
    GearMoved,
    Outcome,
    SplitResolved,
    TurnEnded,
    UpgradeDiscarded,
)
from outofgears.gears import CANONICAL_GEARS, Gear, gear_ranks, ring_key
from outofgears.model import Dump, GameState, Options, Place, Player, Robot, UpgradeCard
from outofgears.programs import Action, Program, Programs, UpgradeProgram, validate_programs

__all__ = ["resolve_turn_fast"]

# Program codes, read once per turn.
_ATTACK: Final = 0
_TRAP: Final = 1
_HARVEST: Final = 2
_SUPER_HARVEST: Final = 3
_SUPER_ATTACK: Final = 4
_SUPER_TRAP: Final = 5
_SUPER_SHOVEL: Final = 6
_COUNTER: Final = 7

_CARD_CODES: Final = {
    UpgradeCard.SUPER_HARVEST: _SUPER_HARVEST,
    UpgradeCard.SUPER_ATTACK: _SUPER_ATTACK,
    UpgradeCard.SUPER_TRAP: _SUPER_TRAP,
    UpgradeCard.SUPER_SHOVEL: _SUPER_SHOVEL,
    UpgradeCard.COUNTER_DEFENCE: _COUNTER,
}

#: The clause a taker takes under, by its program code (attack_clause, spring_trap, harvest_dump).
_ATTACK_CLAUSES: Final = {_ATTACK: "ATK-6", _SUPER_ATTACK: "SATK-1", _COUNTER: "CDEF-1"}
_TRAP_CLAUSES: Final = {_TRAP: "TRP-3", _SUPER_TRAP: "STRAP-1"}
_HARVEST_CLAUSES: Final = {_HARVEST: "HRV-2", _SUPER_HARVEST: "SHARV-1"}

_ALL_RANKS: Final = range(10)

_gear_of = CANONICAL_GEARS.__getitem__

#: _WORTH[robot][rank]: what a gear is worth to a robot (Gear.points_for, END-2, JOL-2, TRI-2).
_WORTH: Final = tuple(
    tuple(CANONICAL_GEARS[rank].points_for(robot) for rank in _ALL_RANKS) for robot in range(9)
)


#: _BEST_FIRST[robot]: the ranks in the order the default policies prefer them for a robot:
#: worth most first, then gears.ring_key, the colours in the ring after the robot's own
#: (ATK-5, ASM-2, SPL-5, ruling R-SYMMETRY).
def _best_first(robot: int) -> tuple[int, ...]:
    return tuple(
        sorted(_ALL_RANKS, key=lambda rank: (-_WORTH[robot][rank], ring_key(_gear_of(rank), robot)))
    )


_BEST_FIRST: Final = tuple(_best_first(robot) for robot in range(9))

#: _PREFERENCE[robot][rank]: the rank's position in _BEST_FIRST[robot], a sort key.
_PREFERENCE: Final = tuple(tuple(order.index(rank) for rank in _ALL_RANKS) for order in _BEST_FIRST)

_FEET: Final = tuple(Place.feet(number) for number in range(9))
_CIRCUIT: Final = tuple(Place.circuit(number) for number in range(9))
_DUMP: Final = tuple(Place.dump(number) for number in range(9))
_RESERVE: Final = Place.reserve()


def _ranks(gears: tuple[Gear, ...]) -> list[int]:
    """The ranks of ``gears``; by identity when they are the shared instances (the usual case)."""
    known = _RANKS_OF_SMALL.get(id(gears))
    return gear_ranks(gears) if known is None else list(known)


#: The gear tuples of small multisets, shared (at most 3,003 of them: up to 5 gears of 10 kinds),
#: and their ranks by the tuple's identity (the tuples live as long as the module, so an
#: identity found here is one of them).
_SMALL_MULTISETS: dict[tuple[int, ...], tuple[Gear, ...]] = {(): ()}
_RANKS_OF_SMALL: dict[int, tuple[int, ...]] = {id(()): ()}
_SMALL: Final = 5


def _gears(ranks: list[int]) -> tuple[Gear, ...]:
    """The canonical multiset of gears for ``ranks`` (the model's sorted tuple)."""
    ranks.sort()
    if len(ranks) > _SMALL:
        return tuple(map(_gear_of, ranks))
    key = tuple(ranks)
    found = _SMALL_MULTISETS.get(key)
    if found is None:
        # setdefault: of two threads building the same tuple, only the one kept is registered.
        found = _SMALL_MULTISETS.setdefault(key, tuple(map(_gear_of, key)))
        _RANKS_OF_SMALL[id(found)] = key
    return found


_new = object.__new__
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


def _state(
    robots: tuple[Robot, ...],
    dumps: tuple[Dump, ...],
    reserve: tuple[Gear, ...],
    players: tuple[Player, ...],
    turn: int,
    options: Options,
    game_over: bool,
) -> GameState:
    """A GameState built without its converters and check_state: the turn only moved gears."""
    state: GameState = _new(GameState)
    _set_robots(state, robots)
    _set_dumps(state, dumps)
    _set_reserve(state, reserve)
    _set_players(state, players)
    _set_turn(state, turn)
    _set_options(state, options)
    _set_game_over(state, game_over)
    return state


_set_moved_gear = GearMoved.__dict__["gear"].__set__
_set_moved_source = GearMoved.__dict__["source"].__set__
_set_moved_destination = GearMoved.__dict__["destination"].__set__
_set_moved_robot = GearMoved.__dict__["robot"].__set__
_set_moved_clause = GearMoved.__dict__["clause"].__set__
_set_resolved_robot = ActionResolved.__dict__["robot"].__set__
_set_resolved_program = ActionResolved.__dict__["program"].__set__
_set_resolved_outcome = ActionResolved.__dict__["outcome"].__set__
_set_resolved_clause = ActionResolved.__dict__["clause"].__set__


def _gear_moved(
    gear: Gear, source: Place, destination: Place, robot: int | None, clause: str
) -> GearMoved:
    """A GearMoved event built without attrs' __init__ (events have no converters)."""
    moved: GearMoved = _new(GearMoved)
    _set_moved_gear(moved, gear)
    _set_moved_source(moved, source)
    _set_moved_destination(moved, destination)
    _set_moved_robot(moved, robot)
    _set_moved_clause(moved, clause)
    return moved


def _player_without_card(player: Player) -> Player:
    """The player once its upgrade card is discarded."""
    without: Player = _new(Player)
    _set_player_name(without, player.name)
    _set_player_robots(without, player.robots)
    _set_player_upgrade(without, None)
    return without


def _label(program: object, text: str) -> str:
    """attacks._label / traps.label: an upgrade names the robot or dump it acts on."""
    return str(program) if isinstance(program, Program) else f"{program} ({text})"


class _Turn:
    """One turn on plain integers: the places as lists of ranks, the programs as codes."""

    __slots__ = (
        "attackers",
        "circuit",
        "code",
        "defenders",
        "dumps",
        "events",
        "feet",
        "harvest_on",
        "moved_circuit",
        "moved_dumps",
        "moved_feet",
        "numbers",
        "programs",
        "record",
        "state",
        "target",
        "trap_on",
    )

    def __init__(self, state: GameState, programs: Programs, record: bool) -> None:
        self.state = state
        self.programs = programs
        self.record = record
        self.events: list[Event] = []
        robots = state.robots
        self.numbers = numbers = [robot.number for robot in robots]
        self.decode_programs(state, programs, numbers)
        feet: list[list[int]] = [[]] * 9
        dumps: list[list[int]] = [[]] * 9
        known = _RANKS_OF_SMALL  # _ranks, inlined for the common case
        for robot in robots:
            gears = robot.feet
            ranks = known.get(id(gears))
            feet[robot.number] = _ranks(gears) if ranks is None else list(ranks)
        for dump in state.dumps:
            gears = dump.gears
            ranks = known.get(id(gears))
            dumps[dump.number] = _ranks(gears) if ranks is None else list(ranks)
        self.feet = feet
        self.circuit: list[list[int] | None] = [None] * 9  # read only when a circuit changes
        self.dumps = dumps
        self.moved_feet = [False] * 9
        self.moved_circuit = [False] * 9
        self.moved_dumps = [False] * 9

    def decode_programs(self, state: GameState, programs: Programs, numbers: list[int]) -> None:
        """Read the programs once into codes and targets, checking them as they are read.

        The plain case -- one robot per player, the game not over, for each robot an action
        card with a number in play or the upgrade card its player holds -- is checked here;
        anything else is checked by :func:`~outofgears.programs.validate_programs`, which
        raises the precise error.
        """
        code = [-1] * 9
        target = [0] * 9
        plain = not state.game_over and len(programs) == len(numbers)
        plain = plain and len(state.players) == len(numbers)
        trap_on: dict[int, list[int]] = {}
        harvest_on: dict[int, list[int]] = {}
        defenders: list[int] = []
        attackers: dict[int, list[int]] = {}  # attacks.attackers_by_target, cards only
        for number in numbers:
            program = programs.get(number)
            if isinstance(program, Program):
                action = program.action
                aimed = program.number
                if aimed not in numbers:
                    plain = False
                target[number] = aimed
                if action is Action.ATTACK:
                    code[number] = _ATTACK
                    if aimed == number:
                        defenders.append(number)
                    elif aimed in attackers:
                        attackers[aimed].append(number)
                    else:
                        attackers[aimed] = [number]
                elif action is Action.TRAP:
                    code[number] = _TRAP
                    trap_on.setdefault(aimed, []).append(number)
                else:
                    code[number] = _HARVEST
                    harvest_on.setdefault(aimed, []).append(number)
            elif isinstance(program, UpgradeProgram):
                code[number] = _CARD_CODES[program.card]
                # With one robot per player, players and robots share their order; the card
                # must be the one the robot's player holds, with upgrades in play (UPG-2, UPG-3).
                if plain and not (
                    state.options.upgrades
                    and state.players[numbers.index(number)].upgrade is program.card
                ):
                    plain = False
            else:
                plain = False
        if not plain:
            validate_programs(state, programs)
        self.code = code
        self.target = target
        self.trap_on = trap_on
        self.harvest_on = harvest_on
        self.defenders = defenders
        self.attackers = attackers

    # --- moving gears ---------------------------------------------------------------------

    def circuit_of(self, robot: int) -> list[int]:
        ranks = self.circuit[robot]
        if ranks is None:
            ranks = _ranks(self.state.robots[self.numbers.index(robot)].circuit)
            self.circuit[robot] = ranks
        return ranks

    def take(
        self, pool: list[int], place: Place, takers: list[int], clauses: list[str]
    ) -> list[int]:
        """sharing.take_gears: the takers take or split ``pool``; returns what stays behind."""
        feet = self.feet
        moved = self.moved_feet
        if len(takers) == 1:
            taker = takers[0]
            if pool:
                feet[taker].extend(pool)
                moved[taker] = True
                if self.record:
                    to = _FEET[taker]
                    self.events.extend(
                        _gear_moved(_gear_of(rank), place, to, taker, clauses[0])
                        for rank in sorted(pool)
                    )
            return []
        share = len(pool) // len(takers)
        shares, left = _default_split(pool, takers, share, place.number)
        if self.record:
            self.events.append(
                SplitResolved(
                    place,
                    tuple(takers),
                    share,
                    _gears(list(left)),
                    "SPL-4" if len(pool) < len(takers) else "SPL-1",
                )
            )
        for taker, got, clause in zip(takers, shares, clauses, strict=True):
            if got:
                feet[taker].extend(got)
                moved[taker] = True
                if self.record:
                    to = _FEET[taker]
                    self.events.extend(
                        _gear_moved(_gear_of(rank), place, to, taker, clause) for rank in got
                    )
        return left

    def act(self, robot: int, text: str, outcome: Outcome, clause: str) -> None:
        resolved: ActionResolved = _new(ActionResolved)
        _set_resolved_robot(resolved, robot)
        _set_resolved_program(resolved, text)
        _set_resolved_outcome(resolved, outcome)
        _set_resolved_clause(resolved, clause)
        self.events.append(resolved)

    # --- the phases -----------------------------------------------------------------------

    def play(self) -> GameState:
        numbers = self.numbers
        code = self.code
        record = self.record
        defenders = self.defenders
        attackers = self.attackers
        counters: list[int] = []
        upgrades = max(code) >= _SUPER_HARVEST
        if upgrades:
            counters = [r for r in numbers if code[r] == _COUNTER]
            attackers = self.with_upgrade_attacks(defenders, counters)
        standing = () if counters else defenders
        if defenders:
            self.resolve_defences(defenders, counters, attackers)
        if attackers or counters:
            self.strike_attacks(defenders, counters, attackers, standing)
        super_harvests = self.laying(_SUPER_HARVEST)
        trapped = self.spring_traps(super_harvests)
        self.harvest_dumps(trapped, super_harvests)
        if upgrades:
            self.shovel_dumps()
        self.assemble_circuits()
        reserve = self.explore_dumps()
        discarded = self.discard_played_upgrades() if upgrades else {}
        dumps = self.dumps
        over = not reserve and any(not dumps[number] for number in numbers)
        if record:
            turn = self.state.turn
            self.events.append(TurnEnded(turn, over, "END-1" if over else "TURN-1"))
        return self.freeze(reserve, discarded, over)

    def with_upgrade_attacks(
        self, defenders: list[int], counters: list[int]
    ) -> dict[int, list[int]]:
        """attacks.attackers_by_target with the Super Attacks and Counter Defences (SATK-1,
        CDEF-1): every robot's attackers, ascending."""
        numbers = self.numbers
        code = self.code
        target = self.target
        attackers: dict[int, list[int]] = {}
        for robot in numbers:
            kind = code[robot]
            if kind == _ATTACK:
                if target[robot] != robot:
                    attackers.setdefault(target[robot], []).append(robot)
            elif kind == _SUPER_ATTACK:
                for other in numbers:
                    if other != robot:
                        attackers.setdefault(other, []).append(robot)
            elif kind == _COUNTER:
                for defender in defenders:
                    attackers.setdefault(defender, []).append(robot)
        return attackers

    def resolve_defences(
        self, defenders: list[int], counters: list[int], attackers: dict[int, list[int]]
    ) -> None:
        """attacks.resolve_defences (ATK-2 to ATK-5, SATK-2, CDEF-2)."""
        programs = self.programs
        record = self.record
        if counters:
            if record:
                for defender in defenders:
                    self.act(defender, str(programs[defender]), Outcome.DEFENCE_COUNTERED, "CDEF-2")
            return
        feet_only = self.state.options.defence_steal_source == "feet_only"
        code = self.code
        # The defenders of one attacker take in turn, clockwise after it (R-SYMMETRY).
        defended_by: dict[int, list[int]] = {}
        for defender in defenders:
            for attacker in attackers.get(defender, ()):
                defended_by.setdefault(attacker, []).append(defender)
        steals: dict[tuple[int, int], GearMoved | None] = {}
        for attacker in sorted(defended_by):
            its_defenders = defended_by[attacker]
            if len(its_defenders) > 1:
                its_defenders.sort(key=lambda d: (d - attacker - 1) % 8)
            simple = code[attacker] == _ATTACK
            for defender in its_defenders:
                steals[(defender, attacker)] = self.steal_from_attacker(
                    defender, attacker, feet_only, simple
                )
        if not record:
            return
        for defender in defenders:
            voided = attackers.get(defender, ())
            outcome = Outcome.DEFENDED if voided else Outcome.DEFENDED_UNTESTED
            self.act(defender, str(programs[defender]), outcome, "ATK-3")
            for attacker in voided:
                self.act(
                    attacker,
                    _label(programs[attacker], f"robot {defender}"),
                    Outcome.ATTACK_VOIDED,
                    "ATK-3" if code[attacker] == _ATTACK else "SATK-2",
                )
                moved = steals[(defender, attacker)]
                if moved is not None:
                    self.events.append(moved)

    def steal_from_attacker(
        self, defender: int, attacker: int, feet_only: bool, simple: bool
    ) -> GearMoved | None:
        """attacks.steal_from_attacker with choose_defence_steal (ATK-4, ATK-5): the move
        (when recording)."""
        feet = self.feet[attacker]
        circuit = [] if feet_only else self.circuit_of(attacker)
        for rank in _BEST_FIRST[defender]:
            # Feet before circuit on equal worth, then the ring after the defender (ATK-5).
            in_feet = rank in feet
            if in_feet or rank in circuit:
                break
        else:
            return None
        worth = _WORTH[defender][rank]
        if not in_feet:
            # A feet gear of the same worth comes before a circuit gear.
            same = [r for r in feet if _WORTH[defender][r] == worth]
            if same:
                rank, in_feet = min(same, key=_PREFERENCE[defender].__getitem__), True
        if in_feet:
            source = _FEET[attacker]
            kept = list(feet)
            kept.remove(rank)
            self.feet[attacker] = kept
            self.moved_feet[attacker] = True
        else:
            source = _CIRCUIT[attacker]
            circuit.remove(rank)
            self.moved_circuit[attacker] = True
        self.feet[defender] = self.feet[defender] + [rank]
        self.moved_feet[defender] = True
        if not self.record:
            return None
        return _gear_moved(
            _gear_of(rank),
            source,
            _FEET[defender],
            defender,
            "ATK-4" if simple else "SATK-2",
        )

    def strike_attacks(
        self,
        defenders: list[int],
        counters: list[int],
        attackers: dict[int, list[int]],
        standing: list[int] | tuple[()],
    ) -> None:
        """attacks.strike_attacks (ATK-6 to ATK-8, SATK-1, CDEF-1; ruling R-SIMUL)."""
        programs = self.programs
        record = self.record
        if record and counters and not defenders:
            for robot in counters:
                self.act(robot, str(programs[robot]), Outcome.COUNTER_UNUSED, "CDEF-1")
        if not attackers:
            return
        feet = self.feet
        code = self.code
        # Every victim's feet are taken as they stand before any attack of this step.
        pools: list[tuple[int, list[int]]] = []
        for victim in sorted(attackers):
            if victim in standing:
                continue
            pools.append((victim, feet[victim]))
            feet[victim] = []
            self.moved_feet[victim] = True
        for victim, pool in pools:
            hitting = attackers[victim]
            clauses = [_ATTACK_CLAUSES[code[a]] for a in hitting]
            if record:
                for attacker, clause in zip(hitting, clauses, strict=True):
                    self.act(
                        attacker,
                        _label(programs[attacker], f"robot {victim}"),
                        Outcome.ATTACK_HIT,
                        clause,
                    )
            left = self.take(pool, _FEET[victim], hitting, clauses)
            if left:
                feet[victim] = feet[victim] + left

    def laying(self, card_code: int) -> list[int]:
        """traps.robots_laying: the robots that laid an upgrade card, ascending."""
        code = self.code
        return [r for r in self.numbers if code[r] == card_code] if card_code in code else []

    def spring_traps(self, super_harvests: list[int]) -> list[bool]:
        """traps.spring_traps (TRP-2 to TRP-4, STRAP-1); returns which dumps are trapped."""
        code = self.code
        trapped = [False] * 9
        super_traps = self.laying(_SUPER_TRAP)
        if not (self.trap_on or super_traps):
            return trapped
        programs = self.programs
        record = self.record
        trap_on = self.trap_on
        harvest_on = self.harvest_on
        for dump in self.numbers if super_traps else sorted(trap_on):
            # traps.trappers_of and harvesters_of: the cards on the dump and the Super cards.
            trappers = sorted(trap_on.get(dump, []) + super_traps)
            harvesters = sorted(harvest_on.get(dump, []) + super_harvests)
            trapped[dump] = True
            clauses = [_TRAP_CLAUSES[code[r]] for r in trappers]
            if record:
                where = f"dump {dump}"
                if not harvesters:
                    for robot, clause in zip(trappers, clauses, strict=True):
                        self.act(robot, _label(programs[robot], where), Outcome.TRAP_IDLE, clause)
                    continue
                for robot in harvesters:
                    self.act(robot, _label(programs[robot], where), Outcome.HARVEST_VOIDED, "TRP-2")
                for robot, clause in zip(trappers, clauses, strict=True):
                    self.act(robot, _label(programs[robot], where), Outcome.TRAP_SPRUNG, clause)
            if harvesters:
                self.take_dump(dump, trappers, clauses)
        return trapped

    def take_dump(self, dump: int, takers: list[int], clauses: list[str]) -> None:
        pool = self.dumps[dump]
        if not pool and len(takers) == 1:
            return
        self.dumps[dump] = self.take(pool, _DUMP[dump], takers, clauses)
        self.moved_dumps[dump] = True

    def harvest_dumps(self, trapped: list[bool], super_harvests: list[int]) -> None:
        """harvests.harvest_dumps (HRV-2, SHARV-1): untrapped dumps go to their harvesters."""
        code = self.code
        harvest_on = self.harvest_on
        if not (harvest_on or super_harvests):
            return
        programs = self.programs
        record = self.record
        for dump in self.numbers if super_harvests else sorted(harvest_on):
            if trapped[dump]:
                continue
            harvesters = sorted(harvest_on.get(dump, []) + super_harvests)
            clauses = [_HARVEST_CLAUSES[code[r]] for r in harvesters]
            if record:
                where = f"dump {dump}"
                for robot, clause in zip(harvesters, clauses, strict=True):
                    self.act(robot, _label(programs[robot], where), Outcome.HARVEST_DONE, clause)
            self.take_dump(dump, harvesters, clauses)

    def shovel_dumps(self) -> None:
        """upgrades.shovel_dumps (SHOV-1, ruling R-SHOVEL)."""
        shovellers = self.laying(_SUPER_SHOVEL)
        if not shovellers:
            return
        if self.record:
            for robot in shovellers:
                self.act(robot, str(self.programs[robot]), Outcome.SHOVELLED, "SHOV-1")
        clauses = ["SHOV-1"] * len(shovellers)
        for dump in self.numbers:
            if self.dumps[dump]:
                self.take_dump(dump, shovellers, clauses)

    def assemble_circuits(self) -> None:
        """assembly.assemble_circuits with choose_assembly_gears (ASM-1, ASM-2)."""
        feet = self.feet
        for robot in self.numbers:
            ranks = feet[robot]
            if len(ranks) < 3:
                continue
            ranks.sort(key=_PREFERENCE[robot].__getitem__)
            picked = ranks[:2]
            del ranks[:2]
            self.circuit_of(robot).extend(picked)
            self.moved_feet[robot] = self.moved_circuit[robot] = True
            if self.record:
                self.events.extend(
                    _gear_moved(_gear_of(rank), _FEET[robot], _CIRCUIT[robot], robot, "ASM-1")
                    for rank in picked
                )

    def explore_dumps(self) -> tuple[Gear, ...]:
        """exploration.explore_dumps (EXP-1); returns the reserve left."""
        reserve = self.state.reserve
        drawn = reserve[: len(self.numbers)]
        dumps = self.dumps
        for dump, gear, rank in zip(self.numbers, drawn, _ranks(drawn), strict=False):
            dumps[dump].append(rank)
            self.moved_dumps[dump] = True
            if self.record:
                self.events.append(_gear_moved(gear, _RESERVE, _DUMP[dump], None, "EXP-1"))
        return reserve[len(drawn) :]

    def discard_played_upgrades(self) -> dict[str, UpgradeCard]:
        """upgrades.discard_played_upgrades (UPG-3): the players whose card leaves the game."""
        discarded: dict[str, UpgradeCard] = {}
        state = self.state
        for robot in self.numbers:
            program = self.programs[robot]
            if isinstance(program, UpgradeProgram):
                player = state.player_of(robot).name
                discarded[player] = program.card
                if self.record:
                    self.events.append(UpgradeDiscarded(robot, player, program.card, "UPG-3"))
        return discarded

    # --- the new state ----------------------------------------------------------------------

    def freeze(
        self, reserve: tuple[Gear, ...], discarded: dict[str, UpgradeCard], over: bool
    ) -> GameState:
        """table.Table.freeze: the new state, sharing whatever the turn left alone."""
        state = self.state
        moved_feet = self.moved_feet
        moved_circuit = self.moved_circuit
        feet = self.feet
        circuits = self.circuit
        robots = []
        for robot in state.robots:
            number = robot.number
            if moved_feet[number] or moved_circuit[number]:
                circuit = circuits[number]
                new = _new(Robot)
                _set_robot_number(new, number)
                _set_robot_player(new, robot.player)
                _set_robot_feet(new, _gears(feet[number]) if moved_feet[number] else robot.feet)
                _set_robot_circuit(new, robot.circuit if circuit is None else _gears(circuit))
                robot = new
            robots.append(robot)
        moved_dumps = self.moved_dumps
        piles = self.dumps
        dumps = []
        for dump in state.dumps:
            number = dump.number
            if moved_dumps[number]:
                dump = _new(Dump)
                _set_dump_number(dump, number)
                _set_dump_gears(dump, _gears(piles[number]))
            dumps.append(dump)
        players = state.players
        if discarded:
            players = tuple(
                _player_without_card(player) if player.name in discarded else player
                for player in players
            )
        return _state(
            tuple(robots),
            tuple(dumps),
            reserve,
            players,
            state.turn + 1,
            state.options,
            over,
        )


def _default_split(
    pool: list[int], takers: list[int], share: int, place_number: int
) -> tuple[list[list[int]], list[int]]:
    """sharing.default_split on ranks (SPL-1 to SPL-5): each taker's share and the leftover.

    Own colour first, up to the share; then one gear at a time, round-robin starting with the
    first taker clockwise after ``place_number``, the gear worth most to the taker (ties: the
    ring after its own colour, R-SYMMETRY).
    """
    if share == 0:
        return [[] for _ in takers], sorted(pool)
    counts = [0] * 10
    for rank in pool:
        counts[rank] += 1
    shares: list[list[int]] = []
    for taker in takers:
        own = taker - 1
        owned = min(share, counts[own])
        counts[own] -= owned
        shares.append([own] * owned)
    rounds = sorted(zip(takers, shares, strict=True), key=lambda t: (t[0] - place_number - 1) % 8)
    while True:
        needy = False
        for taker, got in rounds:
            if len(got) < share:
                for rank in _BEST_FIRST[taker]:
                    if counts[rank]:
                        counts[rank] -= 1
                        got.append(rank)
                        break
                needy = needy or len(got) < share
        if not needy:
            break
    left = [rank for rank in _ALL_RANKS for _ in range(counts[rank])]
    return [sorted(got) for got in shares], left


def resolve_turn_fast(
    state: GameState, programs: Programs, *, record: bool = True
) -> tuple[GameState, tuple[Event, ...]]:
    """A turn with the default choices: the new state and, when ``record``, the events.

    The programs must already be valid (:func:`outofgears.programs.validate_programs`); use
    :func:`outofgears.resolve_turn` or :func:`outofgears.apply_turn`, which check them and
    choose this path.

    >>> from outofgears import Program, resolve_turn_reference, setup_game
    >>> state = setup_game([1, 2, 3], seed=5)
    >>> programs = {1: Program.parse("attack 2"), 2: Program.parse("harvest 1"),
    ...             3: Program.parse("trap 1")}
    >>> fast = resolve_turn_fast(state, programs)
    >>> reference = resolve_turn_reference(state, programs)
    >>> fast == (reference.state, reference.events)
    True
    """
    turn = _Turn(state, programs, record)
    new_state = turn.play()
    return new_state, tuple(turn.events)
