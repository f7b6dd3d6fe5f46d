"""Programming: the action card and number card each robot lays face down.

Spec clauses PRG-1 to PRG-5. The engine receives the programs once everyone
has laid theirs (PRG-3): changing one's mind and revealing in order are table
procedure. Cards return to the hand after every turn (PRG-4), so a program may
use any card of the set on every turn.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Final

from attrs import field, frozen

from outofgears.errors import GameOverError, IllegalProgramError, InvalidStateError, show
from outofgears.gears import ROBOT_NUMBERS
from outofgears.model import GameState, UpgradeCard
from outofgears.variant import check_partners_use_different_actions


class Action(enum.Enum):
    """The three action cards of a set (spec PRG-1)."""

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
        outofgears.errors.InvalidStateError: "super trap" is an upgrade card, not an action card and a number card
        """
        program = parse_program(text)
        if not isinstance(program, Program):
            raise InvalidStateError(
                f"{show(text)} is an upgrade card, not an action card and a number card"
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
        return f"{self.action.value} {self.number}"


@frozen
class UpgradeProgram:
    """A Robot Upgrade card laid instead of an action card and a number card (spec UPG-2).

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
    outofgears.errors.InvalidStateError: "Harvest 2" is not a program: write 'harvest 2' (lower case, one space)
    """
    program = PROGRAM_TEXTS.get(text) if type(text) is str else None
    if program is None:
        raise InvalidStateError(program_refusal(text))
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
        if number.isascii() and number.isdigit() and int(number) not in ROBOT_NUMBERS:
            return f"{quoted} is not a program: a number card shows 1-8, not {number}"
    return f"{quoted} is not a program: {PROGRAM_SHAPE}"


def validate_programs(state: GameState, programs: Programs) -> None:
    """Check that ``programs`` are legal for the next turn of ``state``.

    Raises :class:`IllegalProgramError` naming the robot and the reason: a robot
    in play with no program or a program for a robot not in play (PRG-1), a
    number not in play (PRG-2), or, in the two-robot variant, partners using the
    same action card (VAR-2). Raises :class:`GameOverError` on a finished game
    (PRG-5).

    >>> from outofgears.setup import setup_game
    >>> state = setup_game([1, 2, 3], seed=1)
    >>> validate_programs(state, {1: Program.parse("harvest 1"), 2: Program.parse("trap 1")})
    Traceback (most recent call last):
    ...
    outofgears.errors.IllegalProgramError: robot 3: it has no program (PRG-1)
    """
    refuse_turn_on_finished_game(state)
    check_every_robot_programmed_once(state, programs)
    for robot, program in sorted(programs.items()):
        if isinstance(program, Program):
            check_target_in_play(state, robot, program)
    check_upgrades_held(state, programs)
    check_partners_use_different_actions(
        state,
        {
            robot: program.action.value
            for robot, program in programs.items()
            if isinstance(program, Program)
        },
    )


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
        if not state.options.upgrades:
            raise IllegalProgramError(
                robot,
                f"{program} is an upgrade card, and upgrades are not in play",
                clause="UPG-2",
            )
        player = state.player_of(robot)
        if player.name in laid:
            raise IllegalProgramError(
                robot,
                f"player {player.name!r} has one upgrade card, and robot "
                f"{laid[player.name]} already lays it",
                clause="UPG-4",
            )
        if player.upgrade is not program.card:
            held = f"holds {player.upgrade.value}" if player.upgrade else "holds no upgrade card"
            raise IllegalProgramError(
                robot,
                f"player {player.name!r} {held}, so it cannot lay {program}",
                clause="UPG-3",
            )
        laid[player.name] = robot


def check_target_in_play(state: GameState, robot: int, program: Program) -> None:
    """The number card names a robot (attack) or a dump (trap, harvest) in play (spec PRG-2)."""
    if program.number in state.robot_numbers:
        return
    what = "robot" if program.action is Action.ATTACK else "dump"
    raise IllegalProgramError(
        robot, f"{what} {program.number} is not in play ({program})", clause="PRG-2"
    )
