"""outofgears: the rules of the card game *Out of Gears* (*Fuori di Rotella*), executed.

The heart is :func:`apply_turn`: a state and the robots' programs in, the next
state out, nothing modified in place. :func:`resolve_turn` also returns the
events of the turn, each with the spec clause that caused it.

>>> from outofgears import Program, apply_turn, setup_game
>>> state = setup_game([1, 2, 3], seed=2026)
>>> programs = {1: Program.parse("attack 2"), 2: Program.parse("attack 2"),
...             3: Program.parse("harvest 3")}
>>> apply_turn(state, programs).turn
2
"""

from outofgears._version import SPEC_VERSION, __version__
from outofgears.errors import (
    ArgumentTypeError,
    GameOverError,
    IllegalChoiceError,
    IllegalProgramError,
    InvalidStateError,
    OutOfGearsError,
    ProgramParseError,
    SetupError,
)
from outofgears.rules.choices import Choices, DefenceSteal
from outofgears.rules.events import (
    ActionResolved,
    Event,
    GearMoved,
    Outcome,
    SplitResolved,
    TurnEnded,
    UpgradeDiscarded,
)
from outofgears.rules.gears import (
    COLOUR_NAMES,
    JOLLY,
    THREE_POINT,
    Gear,
    GearKind,
    describe_gears,
    gears,
    gears_in_order,
)
from outofgears.rules.legal import ChoiceSpace, legal_choices
from outofgears.rules.model import (
    DEFAULT_UPGRADE_DECK,
    Dump,
    GameState,
    Options,
    Place,
    PlaceKind,
    Player,
    Robot,
    UpgradeCard,
)
from outofgears.rules.programs import (
    Action,
    AnyProgram,
    Program,
    UpgradeProgram,
    legal_joint_programs,
    legal_programs,
    parse_program,
    validate_programs,
)
from outofgears.rules.scoring import player_scores, score_robot, winners
from outofgears.rules.setup import from_position, setup_game, setup_two_robot_game
from outofgears.rules.table import apply_events
from outofgears.rules.turn import TurnResult, apply_turn, resolve_turn
from outofgears.rules.variant import PlayerScore

__all__ = [
    "COLOUR_NAMES",
    "DEFAULT_UPGRADE_DECK",
    "JOLLY",
    "SPEC_VERSION",
    "THREE_POINT",
    "Action",
    "ActionResolved",
    "AnyProgram",
    "ArgumentTypeError",
    "ChoiceSpace",
    "Choices",
    "DefenceSteal",
    "Dump",
    "Event",
    "GameOverError",
    "GameState",
    "Gear",
    "GearKind",
    "GearMoved",
    "IllegalChoiceError",
    "IllegalProgramError",
    "InvalidStateError",
    "Options",
    "OutOfGearsError",
    "Outcome",
    "Place",
    "PlaceKind",
    "Player",
    "PlayerScore",
    "Program",
    "ProgramParseError",
    "Robot",
    "SetupError",
    "SplitResolved",
    "TurnEnded",
    "TurnResult",
    "UpgradeCard",
    "UpgradeDiscarded",
    "UpgradeProgram",
    "__version__",
    "apply_events",
    "apply_turn",
    "describe_gears",
    "from_position",
    "gears",
    "gears_in_order",
    "legal_choices",
    "legal_joint_programs",
    "legal_programs",
    "parse_program",
    "player_scores",
    "resolve_turn",
    "score_robot",
    "setup_game",
    "setup_two_robot_game",
    "validate_programs",
    "winners",
]
