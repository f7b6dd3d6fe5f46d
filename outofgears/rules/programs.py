"""Programming: the action card and number card each robot lays face down.

Spec clauses PRG-1 to PRG-5. The engine receives the programs once everyone
has laid theirs (PRG-3): changing one's mind and revealing in order are table
procedure. Cards return to the hand after every turn (PRG-4), so a program may
use any card of the set on every turn.

:func:`validate_programs` checks the programs of a turn (it judges programs laid);
:func:`legal_programs` and :func:`legal_joint_programs` list the programs a robot, or
the two robots of a player, may lay, derived from the same clauses (PRG-2, UPG-2,
UPG-3, UPG-4, VAR-2) rather than by trying each program on the checks; the tests hold
the two together.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Mapping
from operator import attrgetter
from typing import Final

from attrs import field, frozen

from outofgears.errors import (
    ArgumentTypeError,
    GameOverError,
    IllegalProgramError,
    InvalidStateError,
    ProgramParseError,
    show,
)
from outofgears.rules.gears import ROBOT_NUMBERS
from outofgears.rules.model import GameState, UpgradeCard, expect_state, on_built_state
from outofgears.rules.variant import check_partners_use_different_actions


class Action(enum.Enum):
    """The three action cards of a set (spec PRG-1).

    Attributes:
        ATTACK: Attack the robot of the number card; one's own number is a defence (ATK-1).
        TRAP: Trap the dump of the number card (TRP-1).
        HARVEST: Harvest the dump of the number card (HRV-1).
    """

    ATTACK = "attack"
    TRAP = "trap"
    HARVEST = "harvest"


def _check_card(instance: object, attribute: object, value: UpgradeCard) -> None:
    if not isinstance(value, UpgradeCard):
        raise InvalidStateError(f"an upgrade program lays an UpgradeCard, not {value!r}")


def _check_action(instance: object, attribute: object, value: Action) -> None:
    if not isinstance(value, Action):
        raise InvalidStateError(f"the action card is an Action, not {value!r}")


def _check_number(instance: object, attribute: object, value: int) -> None:
    if type(value) is not int or value not in ROBOT_NUMBERS:
        raise InvalidStateError(f"a number card shows 1-8, not {value!r}")


@frozen
class Program:
    """One robot's program: an action card and a number card (spec PRG-1).

    With :attr:`Action.ATTACK` the number names a robot; the robot's own number
    is a defence (spec ATK-1). With a trap or a harvest it names a dump.

    Attributes:
        action: The action card.
        number: The number card, 1-8.

    >>> Program(Action.TRAP, 3)
    Program(action=<Action.TRAP: 'trap'>, number=3)
    >>> str(Program.parse("harvest 5"))
    'harvest 5'
    """

    action: Action = field(validator=_check_action)
    number: int = field(validator=_check_number)

    @classmethod
    def parse(cls, text: str) -> Program:
        """An action card and a number card from their text, such as ``"attack 3"``.

        The text is read by :func:`parse_program`, the one grammar of programs; an upgrade
        card's name is refused here.

        >>> Program.parse("attack 2") == Program(Action.ATTACK, 2)
        True
        >>> Program.parse("super trap")
        Traceback (most recent call last):
        ...
        outofgears.errors.ProgramParseError: "super trap" is an upgrade card, not an action card and a number card
        """
        program = parse_program(text)
        if not isinstance(program, Program):
            raise ProgramParseError(
                f"{show(text)} is an upgrade card, not an action card and a number card", text
            )
        return program

    def is_defence_of(self, robot: int) -> bool:
        """Whether this program, laid by robot ``robot``, is a defence (spec ATK-1).

        >>> Program.parse("attack 2").is_defence_of(2)
        True
        >>> Program.parse("attack 2").is_defence_of(1)
        False
        """
        return self.action is Action.ATTACK and self.number == robot

    def __str__(self) -> str:
        # ``_value_`` is the Enum member's value as a plain attribute; ``.value`` goes through
        # a descriptor in Python, and events write a program's text for every outcome.
        return f"{self.action._value_} {self.number}"


@frozen
class UpgradeProgram:
    """A Robot Upgrade card laid instead of an action card and a number card (spec UPG-2).

    Attributes:
        card: The upgrade card laid.

    >>> str(UpgradeProgram(UpgradeCard.SUPER_ATTACK))
    'super attack'
    """

    card: UpgradeCard = field(validator=_check_card)

    def is_defence_of(self, robot: int) -> bool:
        """An upgrade is never a defence (spec ATK-1).

        >>> UpgradeProgram(UpgradeCard.COUNTER_DEFENCE).is_defence_of(1)
        False
        """
        return False

    def __str__(self) -> str:
        return self.card.value


AnyProgram = Program | UpgradeProgram
Programs = Mapping[int, AnyProgram]


#: Every program as it is written, in a log, on the command line and in JSON output: an action
#: and a number card, ``"attack 3"`` (lower case, one space, a number 1-8), or the name of an
#: upgrade card, ``"super trap"``. This is the whole grammar of programs: a text is a program
#: exactly when it is a key here, and ``str`` of a program gives its key.
PROGRAM_TEXTS: Final[Mapping[str, AnyProgram]] = {
    **{str(p): p for p in (Program(a, n) for a in Action for n in ROBOT_NUMBERS)},
    **{card.value: UpgradeProgram(card) for card in UpgradeCard},
}

#: How to write a program, for messages.
PROGRAM_SHAPE: Final = (
    "write 'attack 3', 'trap 1', 'harvest 5', or an upgrade card such as 'super trap'"
)


def parse_program(text: str) -> AnyProgram:
    """A program from its text: ``"trap 3"``, ``"super shovel"``, ``"counter defence"``.

    The one grammar of programs, shared by the log reader, the command line and
    :meth:`Program.parse`: the text must be one of :data:`PROGRAM_TEXTS`, as written there.

    >>> parse_program("super attack")
    UpgradeProgram(card=<UpgradeCard.SUPER_ATTACK: 'super attack'>)
    >>> parse_program("harvest 2")
    Program(action=<Action.HARVEST: 'harvest'>, number=2)
    >>> parse_program("Harvest 2")
    Traceback (most recent call last):
    ...
    outofgears.errors.ProgramParseError: "Harvest 2" is not a program: write 'harvest 2' (lower case, one space)
    """
    program = PROGRAM_TEXTS.get(text) if type(text) is str else None
    if program is None:
        raise ProgramParseError(program_refusal(text), text)
    return program


def program_refusal(value: object) -> str:
    """Why ``value`` is not a program, for a message: the log reader, its schema check and the
    command line all say it this way.

    >>> print(program_refusal("trap 9"))
    "trap 9" is not a program: a number card shows 1-8, not 9
    >>> print(program_refusal(" trap 2 "))
    " trap 2 " is not a program: write 'trap 2' (lower case, one space)
    """
    quoted = show(value)
    if type(value) is not str:
        return f"{quoted} is not a program: {PROGRAM_SHAPE}"
    words = value.lower().replace("-", " ").replace("_", " ").split()
    near = " ".join(words)
    if near in PROGRAM_TEXTS:
        return f"{quoted} is not a program: write {near!r} (lower case, one space)"
    if len(words) == 2 and words[0] in {action.value for action in Action}:
        number = words[1]
        # a short number only: int() is slow on thousands of digits, and refuses more
        if (
            number.isascii()
            and number.isdigit()
            and (len(number) > 2 or int(number) not in ROBOT_NUMBERS)
        ):
            shown = number if len(number) <= 20 else number[:17] + "..."
            return f"{quoted} is not a program: a number card shows 1-8, not {shown}"
    return f"{quoted} is not a program: {PROGRAM_SHAPE}"


def validate_programs(state: GameState, programs: Programs) -> None:
    """Check that ``programs`` are legal for the next turn of ``state``.

    Raises :class:`IllegalProgramError` naming the robot and the reason: a robot
    in play with no program or a program for a robot not in play (PRG-1), a
    number not in play (PRG-2), or, in the two-robot variant, partners using the
    same action card (VAR-2). Raises :class:`GameOverError` on a finished game
    (PRG-5).

    >>> from outofgears.rules.setup import setup_game
    >>> state = setup_game([1, 2, 3], seed=1)
    >>> validate_programs(state, {1: Program.parse("harvest 1"), 2: Program.parse("trap 1")})
    Traceback (most recent call last):
    ...
    outofgears.errors.IllegalProgramError: robot 3: it has no program (PRG-1)
    """
    expect_state(state)
    if not isinstance(programs, Mapping):
        raise ArgumentTypeError("programs", "a mapping of robot numbers to programs", programs)
    refuse_turn_on_finished_game(state)
    check_every_robot_programmed_once(state, programs)
    check_programs_laid(state, programs)


def check_programs_laid(state: GameState, programs: Programs) -> None:
    """Check the programs laid by some or all of the robots in play, each and together.

    Everything :func:`validate_programs` checks after PRG-5 and PRG-1, in its order: the
    card programs in ascending robot number (PRG-2), then the upgrade programs in
    ascending robot number (UPG-2 to UPG-4), then partners' action cards (VAR-2). Each
    robot on its own is checked by :func:`check_robot_program`. The robots are assumed to
    be in play and the programs to be :class:`Program` or :class:`UpgradeProgram`
    (:func:`check_every_robot_programmed_once` sees to both); a robot without a program
    is not checked, so this also checks the two programs of a player alone
    (:func:`legal_joint_programs`).
    """
    for robot, program in sorted(programs.items()):
        if isinstance(program, Program):
            check_robot_program(state, robot, program)
    check_upgrades_held(state, programs)
    check_partners_use_different_actions(
        state,
        {
            robot: program.action.value
            for robot, program in programs.items()
            if isinstance(program, Program)
        },
    )


#: Program codes: what the engine reads each program as, once per turn.
ATTACK: Final = 0
TRAP: Final = 1
HARVEST: Final = 2
SUPER_HARVEST: Final = 3
SUPER_ATTACK: Final = 4
SUPER_TRAP: Final = 5
SUPER_SHOVEL: Final = 6
COUNTER_DEFENCE: Final = 7

_CODES: Final = {
    Action.ATTACK: ATTACK,
    Action.TRAP: TRAP,
    Action.HARVEST: HARVEST,
    UpgradeCard.SUPER_HARVEST: SUPER_HARVEST,
    UpgradeCard.SUPER_ATTACK: SUPER_ATTACK,
    UpgradeCard.SUPER_TRAP: SUPER_TRAP,
    UpgradeCard.SUPER_SHOVEL: SUPER_SHOVEL,
    UpgradeCard.COUNTER_DEFENCE: COUNTER_DEFENCE,
}


#: No robot: the shared empty list of a card nobody laid.
_NOBODY: list[int] = []


_number = attrgetter("number")

# Enum members read once: on Python 3.11 reading ``Action.ATTACK`` goes through EnumType's
# attribute hook, about 90 ns, and the programs of every turn are read here.
_ATTACK_CARD: Final = Action.ATTACK
_TRAP_CARD: Final = Action.TRAP


class ProgramReading:
    """The programs of a turn read once, for the rules modules: codes and targets by robot.

    Attributes:
        programs: The programs as given.
        numbers: The robots in play, ascending.
        code: ``code[n]``: robot ``n``'s program code (``ATTACK`` ... ``COUNTER_DEFENCE``).
        target: ``target[n]``: the number on robot ``n``'s number card (0 for an upgrade).
        defenders: The robots that programmed an attack on themselves (ATK-1), ascending.
        attacked_by: Each robot attacked with an attack *card*, and its attackers, ascending.
        trap_on: Each trapped dump and its trappers by trap *card*, ascending.
        harvest_on: Each harvested dump and its harvesters by harvest *card*, ascending.
        laid: The robots that laid each upgrade card, by code, ascending.
        upgrades: Whether any upgrade card was laid.
        super_harvests, super_attacks, super_traps, super_shovels, counter_defences: The
            robots that laid each upgrade card, ascending (never to be modified).
    """

    __slots__ = (
        "attacked_by",
        "code",
        "counter_defences",
        "defenders",
        "harvest_on",
        "laid",
        "numbers",
        "programs",
        "super_attacks",
        "super_harvests",
        "super_shovels",
        "super_traps",
        "target",
        "trap_on",
        "upgrades",
    )

    def __init__(self, state: GameState, programs: Programs, *, check: bool = True) -> None:
        """Read and check the programs (PRG-1 to PRG-5, UPG-2 to UPG-4, VAR-2).

        With ``check=False`` the programs are read as far as they go and not checked (a
        picture of programs still being typed in). The plain case -- one robot per player, the game not over, for each robot an action
        card with a number in play or the upgrade card its player holds -- is checked while
        reading; anything else goes to :func:`validate_programs` for its precise error.
        """
        if type(state) is not GameState:
            expect_state(state)
        if type(programs) is not dict and not isinstance(programs, Mapping):
            raise ArgumentTypeError("programs", "a mapping of robot numbers to programs", programs)
        numbers = list(map(_number, state.robots))
        code = [-1] * 9
        target = [0] * 9
        plain = not state.game_over and len(programs) == len(numbers)
        plain = plain and len(state.players) == len(numbers)
        trap_on: dict[int, list[int]] = {}
        harvest_on: dict[int, list[int]] = {}
        attacked_by: dict[int, list[int]] = {}
        defenders: list[int] = []
        laid: dict[int, list[int]] = {}
        for number in numbers:
            program = programs.get(number)
            if type(program) is Program:
                aimed = program.number
                if aimed not in numbers:
                    plain = False
                target[number] = aimed
                action = program.action  # compared by identity: an Enum hashes in Python
                if action is _ATTACK_CARD:
                    code[number] = ATTACK
                    if program.is_defence_of(number):
                        defenders.append(number)
                    elif aimed in attacked_by:
                        attacked_by[aimed].append(number)
                    else:
                        attacked_by[aimed] = [number]
                elif action is _TRAP_CARD:
                    code[number] = TRAP
                    if aimed in trap_on:
                        trap_on[aimed].append(number)
                    else:
                        trap_on[aimed] = [number]
                else:
                    code[number] = HARVEST
                    if aimed in harvest_on:
                        harvest_on[aimed].append(number)
                    else:
                        harvest_on[aimed] = [number]
            elif type(program) is UpgradeProgram:
                kind = code[number] = _CODES[program.card]
                laid.setdefault(kind, []).append(number)
                # With one robot per player, players and robots share their order; the card
                # must be the one the robot's player holds, with upgrades in play (UPG-2, UPG-3).
                if plain and not (
                    state.options.upgrades
                    and state.players[numbers.index(number)].upgrade is program.card
                ):
                    plain = False
            else:
                plain = False
        if check and not plain:
            validate_programs(state, programs)
        self.programs = programs
        self.numbers = numbers
        self.code = code
        self.target = target
        self.defenders = defenders
        self.attacked_by = attacked_by
        self.trap_on = trap_on
        self.harvest_on = harvest_on
        self.laid = laid
        self.upgrades = bool(laid)
        if laid:
            self.super_harvests = laid.get(SUPER_HARVEST, _NOBODY)
            self.super_attacks = laid.get(SUPER_ATTACK, _NOBODY)
            self.super_traps = laid.get(SUPER_TRAP, _NOBODY)
            self.super_shovels = laid.get(SUPER_SHOVEL, _NOBODY)
            self.counter_defences = laid.get(COUNTER_DEFENCE, _NOBODY)
        else:
            self.super_harvests = self.super_attacks = self.super_traps = _NOBODY
            self.super_shovels = self.counter_defences = _NOBODY

    def text(self, robot: int) -> str:
        """Robot ``robot``'s program as text, for the events."""
        return str(self.programs[robot])


def check_robot_program(state: GameState, robot: int, program: AnyProgram) -> None:
    """Check one robot's program on its own, whatever the other robots lay.

    A card program's number must be in play (PRG-2); an upgrade program needs the
    upgrades in play (UPG-2) and the card held by the robot's player (UPG-3). What
    depends on a partner's program (UPG-4, VAR-2) is checked by
    :func:`check_programs_laid`. ``robot`` must be in play.

    >>> from outofgears.rules.setup import setup_game
    >>> state = setup_game([1, 2, 3], seed=1)
    >>> check_robot_program(state, 1, Program.parse("trap 3"))
    >>> check_robot_program(state, 1, Program.parse("trap 4"))
    Traceback (most recent call last):
    ...
    outofgears.errors.IllegalProgramError: robot 1: dump 4 is not in play (trap 4) (PRG-2)
    """
    if isinstance(program, Program):
        check_target_in_play(state, robot, program)
    else:
        check_upgrade_card(state, robot, program)


#: Every program there is, in the order of :func:`legal_programs`: the attack card with the
#: numbers 1 to 8, then the trap card, then the harvest card, then the upgrade cards in the
#: order of :class:`UpgradeCard`.
EVERY_PROGRAM: tuple[AnyProgram, ...] = (
    *(Program(action, number) for action in Action for number in ROBOT_NUMBERS),
    *(UpgradeProgram(card) for card in UpgradeCard),
)

#: The card programs (PRG-1), in the order of :func:`legal_programs`; the program of each
#: upgrade card.
_CARD_PROGRAMS: Final = tuple(program for program in EVERY_PROGRAM if isinstance(program, Program))
_UPGRADE_PROGRAM: Final = {
    program.card: program for program in EVERY_PROGRAM if isinstance(program, UpgradeProgram)
}


def upgrade_card_to_lay(state: GameState, robot: int) -> UpgradeCard | None:
    """The upgrade card robot ``robot`` may lay this turn, on its own: the card its player
    holds, with the upgrades in play (spec UPG-2, UPG-3); ``None`` if there is none.
    :func:`check_upgrade_card` judges a laid one."""
    if not state.options.upgrades:
        return None
    return state.player_of(robot).upgrade


@on_built_state
def legal_programs(state: GameState, robot: int) -> tuple[AnyProgram, ...]:
    """Every program robot ``robot`` may lay on the next turn of ``state``, on its own.

    The order is fixed: the attack card with each number in play, ascending (the
    robot's own number is its defence, ATK-1), then the trap card with each number
    in play, then the harvest card with each (PRG-2), then the upgrade card its player
    holds, if the upgrades are in play (UPG-2, UPG-3). Every card is available every
    turn (PRG-4). So a robot of an ``n``-robot game has ``3 * n`` programs, one more
    while its player holds an upgrade card.

    The list is derived from those clauses, not found by trial: exactly the programs
    :func:`check_robot_program`, which :func:`validate_programs` runs on every robot,
    accepts (a differential test holds the two together). In the two-robot variant the
    list ignores the partner: partners may not lay the same action card (VAR-2) nor both
    lay the upgrade card (UPG-4), so :func:`legal_joint_programs` gives the programs of
    both robots of a player together.

    Raises :class:`GameOverError` on a finished game, as :func:`validate_programs`
    does (PRG-5), and :class:`InvalidStateError` for a robot not in play.

    >>> from outofgears.rules.setup import setup_game
    >>> state = setup_game([2, 5], seed=1)
    >>> [str(program) for program in legal_programs(state, 5)]
    ['attack 2', 'attack 5', 'trap 2', 'trap 5', 'harvest 2', 'harvest 5']
    """
    expect_state(state)
    if type(robot) is not int:
        raise ArgumentTypeError("robot", "a robot number", robot)
    refuse_turn_on_finished_game(state)
    numbers = state.robot_numbers
    if robot not in numbers:
        _refuse_robot_not_in_play(state, robot)
    cards = tuple(program for program in _CARD_PROGRAMS if program.number in numbers)  # PRG-2
    card = upgrade_card_to_lay(state, robot)
    return cards if card is None else (*cards, _UPGRADE_PROGRAM[card])


def legal_joint_programs(
    state: GameState, player: str
) -> tuple[tuple[AnyProgram, AnyProgram], ...]:
    """Every pair of programs the two robots of ``player`` may lay together (two-robot variant).

    Each pair gives the programs of ``player``'s robots in the order of
    :attr:`Player.robots <outofgears.rules.model.Player.robots>` (ascending). The pairs are
    the pairs of :func:`legal_programs` of the two robots where the two robots lay
    different action cards (VAR-2; both may name the same number) and at most one of
    them lays the player's upgrade card (UPG-4): those :func:`check_programs_laid`
    accepts together. They come in the order of the first robot's program in
    :func:`legal_programs`, then of the second's.

    Raises :class:`GameOverError` on a finished game (PRG-5), and
    :class:`InvalidStateError` for a player who is not in the game or who controls
    one robot (whose programs are :func:`legal_programs`).

    >>> from outofgears.rules.setup import setup_two_robot_game
    >>> state = setup_two_robot_game({"Ada": (1, 2), "Bo": (3, 4)}, seed=1)
    >>> pairs = legal_joint_programs(state, "Ada")
    >>> len(pairs), [str(program) for program in pairs[0]]
    (96, ['attack 1', 'trap 1'])
    >>> any(first.action is second.action for first, second in pairs)
    False
    """
    expect_state(state)
    if type(player) is not str:
        raise ArgumentTypeError("player", "a player's name", player)
    refuse_turn_on_finished_game(state)
    found = [candidate for candidate in state.players if candidate.name == player]
    if not found:
        names = ", ".join(repr(candidate.name) for candidate in state.players)
        raise InvalidStateError(f"player {player!r} is not in the game (players: {names})")
    robots = found[0].robots
    if len(robots) != 2:
        raise InvalidStateError(
            f"player {player!r} controls one robot; its programs are legal_programs(state, "
            f"{robots[0]})"
        )
    first, second = robots
    return tuple(
        (one, other)
        for one, other in itertools.product(
            legal_programs(state, first), legal_programs(state, second)
        )
        if partners_may_lay(one, other)
    )


def partners_may_lay(one: AnyProgram, other: AnyProgram) -> bool:
    """Whether the two robots of one player may lay these programs together: not the same
    action card (spec VAR-2) and not both the player's one upgrade card (UPG-4).
    :func:`check_programs_laid` judges programs laid."""
    if isinstance(one, Program):
        return not isinstance(other, Program) or one.action is not other.action
    return isinstance(other, Program)


def _refuse_robot_not_in_play(state: GameState, robot: object) -> None:
    in_play = ", ".join(str(number) for number in state.robot_numbers)
    raise InvalidStateError(f"robot {robot!r} is not in play (robots in play: {in_play})")


def refuse_turn_on_finished_game(state: GameState) -> None:
    """No turn is played once the game is over (spec PRG-5)."""
    if state.game_over:
        raise GameOverError(state.turn)


def check_every_robot_programmed_once(state: GameState, programs: Programs) -> None:
    """Every robot in play has exactly one program, and only they have one (spec PRG-1)."""
    in_play = set(state.robot_numbers)
    for robot in sorted(in_play - set(programs)):
        raise IllegalProgramError(robot, "it has no program", clause="PRG-1")
    for robot in sorted(set(programs) - in_play, key=repr):
        raise IllegalProgramError(robot, "this robot is not in play", clause="PRG-1")
    for robot, program in programs.items():
        if not isinstance(program, Program | UpgradeProgram):
            raise IllegalProgramError(
                robot,
                f"a program is an action card and a number card, not {program!r}",
                clause="PRG-1",
            )


def check_upgrades_held(state: GameState, programs: Programs) -> None:
    """An upgrade program lays the card its player holds, once (spec UPG-2, UPG-3, UPG-4).

    Upgrades must be in play; the player must still hold that very card (it was
    dealt to them and not used yet); and in the two-robot variant only one of the
    player's robots can lay it in a turn.
    """
    laid: dict[str, int] = {}
    for robot, program in sorted(programs.items()):
        if not isinstance(program, UpgradeProgram):
            continue
        player = state.player_of(robot)
        if player.name in laid:
            # An earlier robot of this player laid an upgrade, so upgrades are in play (UPG-2).
            raise IllegalProgramError(
                robot,
                f"player {player.name!r} has one upgrade card, and robot "
                f"{laid[player.name]} already lays it",
                clause="UPG-4",
            )
        check_robot_program(state, robot, program)
        laid[player.name] = robot


def check_upgrade_card(state: GameState, robot: int, program: UpgradeProgram) -> None:
    """An upgrade program needs the upgrades in play and the card held (spec UPG-2, UPG-3)."""
    if not state.options.upgrades:
        raise IllegalProgramError(
            robot,
            f"{program} is an upgrade card, and upgrades are not in play",
            clause="UPG-2",
        )
    player = state.player_of(robot)
    if player.upgrade is not program.card:
        held = f"holds {player.upgrade.value}" if player.upgrade else "holds no upgrade card"
        raise IllegalProgramError(
            robot,
            f"player {player.name!r} {held}, so it cannot lay {program}",
            clause="UPG-3",
        )


def check_target_in_play(state: GameState, robot: int, program: Program) -> None:
    """The number card names a robot (attack) or a dump (trap, harvest) in play (spec PRG-2)."""
    if program.number in state.robot_numbers:
        return
    what = "robot" if program.action is Action.ATTACK else "dump"
    raise IllegalProgramError(
        robot, f"{what} {program.number} is not in play ({program})", clause="PRG-2"
    )


def expect_programs(programs: object, argument: str = "programs") -> None:
    """Raise :class:`ArgumentTypeError` unless ``programs`` maps robot numbers to programs.

    What it checks is the shape only; :func:`validate_programs` checks the programs against a
    position.

    >>> expect_programs({1: Program.parse("attack 2")})
    >>> expect_programs({1: "attack 2"})
    Traceback (most recent call last):
    ...
    outofgears.errors.ArgumentTypeError: programs must be a mapping of robot numbers to programs, not {1: 'attack 2'}
    """
    if not isinstance(programs, Mapping) or not all(
        type(robot) is int and isinstance(program, Program | UpgradeProgram)
        for robot, program in programs.items()
    ):
        raise ArgumentTypeError(argument, "a mapping of robot numbers to programs", programs)
