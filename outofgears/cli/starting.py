"""The header of a new log, shared by ``new`` and ``record``: robots, players, options and seed
from the command line, checked, and the skeleton they give."""

from __future__ import annotations

from typing import Any, Final, cast, get_args

import attrs
import click
from attrs import frozen
from click.core import ParameterSource

from outofgears.cli.common import (
    AsciiIntRange,
    F,
    fail,
    json_safe,
)
from outofgears.errors import InvalidStateError
from outofgears.judge.start import start_state
from outofgears.log import (
    LOG_FORMAT,
    MAX_NAME,
    MAX_SEED,
    GameLog,
    LogError,
    Start,
    WrittenBy,
    format_json,
    log_to_json,
    read_log_text,
)
from outofgears.rules.gears import ROBOT_NUMBERS
from outofgears.rules.model import AssemblyRule, DefenceStealSource, GameState, Options
from outofgears.version import SPEC_VERSION, __version__

#: The robots of a new game when neither ``--robots`` nor ``--players`` is given.
DEFAULT_ROBOTS: Final = (1, 2, 3, 4)


_HEADER_OPTIONS: Final = (
    click.option(
        "--robots",
        "robots_text",
        metavar="1,2,3",
        help="The robots in play, 2-8 of 1-8; players P<robot>. Default: 1,2,3,4.",
    ),
    click.option(
        "--players",
        "players_text",
        metavar='"Ada=1,Bruno=2"',
        help='Players and their robots: "Ada=1,Bruno=2"; in the variant "Ada=1+5,Bruno=2+6".',
    ),
    click.option(
        "--two-robots",
        is_flag=True,
        help="The two-robot variant: 2-4 players, two robots each (with --robots they pair up in "
        "order: 1,5,2,6 gives P1 robots 1 and 5, P2 robots 2 and 6).",
    ),
    click.option(
        "--seed",
        type=AsciiIntRange(0, MAX_SEED),
        help="Seed of the setup shuffle. Default: a random one, written in the log.",
    ),
    click.option("--upgrades", is_flag=True, help="The Robot Upgrades expansion."),
    click.option("--jolly", is_flag=True, help="Expansion #2: the Jolly gears."),
    click.option("--three-point", is_flag=True, help="Expansion #3: the three-point gears."),
    click.option(
        "--pad-reserve",
        is_flag=True,
        help="Pad the reserve to a multiple of the dumps at setup (R-PAD-RESERVE).",
    ),
    click.option(
        "--assembly",
        type=click.Choice(get_args(AssemblyRule)),
        default="mandatory",
        show_default=True,
        help="Whether assembly is mandatory or optional (R-ASSEMBLY).",
    ),
    click.option(
        "--defence-steal-source",
        type=click.Choice(get_args(DefenceStealSource)),
        default="feet_or_circuit",
        show_default=True,
        help="Where a defender takes its gear from (R-DEFENCE).",
    ),
)


def parse_robots(text: str) -> tuple[int, ...]:
    """Robot numbers from ``"1,2,3"``; :class:`InvalidStateError` if they are not robots.

    >>> parse_robots("3, 1,2")
    (3, 1, 2)
    >>> parse_robots("1,9")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: robots are numbered 1-8, not 9
    """
    numbers: list[int] = []
    for item in text.split(","):
        word = item.strip()
        if not (word.isascii() and word.isdigit()) or len(word) > 2:  # int() reads "٣" as 3
            shown = word if len(word) <= 20 else word[:17] + "..."
            raise InvalidStateError(f"a robot is a number 1-8, not {shown!r}")
        number = int(word)
        if number not in ROBOT_NUMBERS:
            raise InvalidStateError(f"robots are numbered 1-8, not {number}")
        if number in numbers:
            raise InvalidStateError(f"robot {number} is named twice")
        numbers.append(number)
    return tuple(numbers)


def parse_players(text: str) -> dict[str, tuple[int, ...]]:
    """Players and their robots from ``"Ada=1,Bruno=2"``, or ``"Ada=1+5,Bruno=2+6"``.

    >>> parse_players("Ada=1+5, Bruno=2+6")
    {'Ada': (1, 5), 'Bruno': (2, 6)}
    >>> parse_players("Ada=1,Ada=2")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: the player 'Ada' is named twice
    """
    players: dict[str, tuple[int, ...]] = {}
    taken: list[int] = []
    for item in text.split(","):
        name, equals, robots = item.partition("=")
        name = name.strip()
        if not equals or not name:
            raise InvalidStateError(
                f"a player reads like 'Ada=1' or 'Ada=1+5', not {item.strip()!r}"
            )
        if not name.isprintable() and any("\ud800" <= c <= "\udfff" for c in name):
            raise InvalidStateError(f"a player's name is text, not undecodable bytes: {name!r}")
        if len(name) > MAX_NAME:
            raise InvalidStateError(f"a player's name has at most {MAX_NAME} characters: {name!r}")
        if name in players:
            raise InvalidStateError(f"the player {name!r} is named twice")
        numbers = parse_robots(robots.replace("+", ","))
        if len(numbers) > 2:
            raise InvalidStateError(
                f"player {name!r} controls one or two robots, not {len(numbers)}"
            )
        for number in numbers:
            if number in taken:
                raise InvalidStateError(f"robot {number} is given to two players")
            taken.append(number)
        players[name] = numbers
    return players


def players_of(
    robots: tuple[int, ...] | None, players: dict[str, tuple[int, ...]] | None, two_robots: bool
) -> dict[str, tuple[int, ...]]:
    """The players of the new game, checked: 2-8 robots; 2-4 players of two robots each in the
    variant. From robots alone, players are named ``P<robot>``; in the variant the robots pair up
    in the order given and the players are named ``P1``, ``P2``, ...

    >>> players_of((1, 5, 2, 6), None, True)
    {'P1': (1, 5), 'P2': (2, 6)}
    >>> players_of((3, 1), None, False)
    {'P1': (1,), 'P3': (3,)}
    """
    if players is None:
        numbers = robots if robots is not None else DEFAULT_ROBOTS
        if two_robots:
            if len(numbers) % 2:
                raise InvalidStateError(
                    f"the two-robot variant needs an even number of robots, not {len(numbers)}"
                )
            players = {
                f"P{index + 1}": numbers[2 * index : 2 * index + 2]
                for index in range(len(numbers) // 2)
            }
        else:
            players = {f"P{number}": (number,) for number in numbers}
    sizes = {len(numbers) for numbers in players.values()}
    if two_robots and sizes != {2}:
        raise InvalidStateError(
            "in the two-robot variant every player controls two robots ('Ada=1+5')"
        )
    if sizes == {1, 2}:
        raise InvalidStateError(
            "either every player controls one robot or every one two (--two-robots)"
        )
    count = sum(len(numbers) for numbers in players.values())
    if not 2 <= count <= len(ROBOT_NUMBERS):
        raise InvalidStateError(f"a game has 2 to 8 robots, not {count}")
    if sizes == {2} and not 2 <= len(players) <= 4:
        raise InvalidStateError(
            f"the two-robot variant is for 2 to 4 players, not {len(players)} (VAR-1)"
        )
    return dict(sorted(players.items(), key=lambda item: min(item[1])))


def skeleton_json(
    players: dict[str, tuple[int, ...]], options: Options, seed: int
) -> dict[str, Any]:
    """The JSON of a new game's log: versions, players, variant, every option, seed, no turns.

    >>> data = skeleton_json({"A": (1,), "B": (2,)}, Options(), 7)
    >>> data["start"], data["turns"], data["options"]["assembly"], data["two_robot_variant"]
    ({'seed': 7}, [], 'mandatory', False)
    """
    variant = any(len(numbers) == 2 for numbers in players.values())
    log = GameLog(
        players=players,
        start=Start(seed=seed),
        options=options,
        two_robot_variant=variant,
        written_by=WrittenBy(engine=__version__, spec=SPEC_VERSION),
    )
    data = log_to_json(log)
    return {
        "format": LOG_FORMAT,
        "written_by": data["written_by"],
        "players": data["players"],
        "two_robot_variant": variant,
        "options": {
            "defence_steal_source": options.defence_steal_source,
            "assembly": options.assembly,
            "upgrades": options.upgrades,
            "jolly_gears": options.jolly_gears,
            "three_point_gears": options.three_point_gears,
            "pad_reserve": options.pad_reserve,
        },
        "start": data["start"],
        "turns": [],
    }


def header_options(command: F) -> F:
    """The options that describe a new game, shared by ``new`` and ``record``: the robots or
    the players, the variant, the seed and every rule option. The command receives them as
    the fields of :class:`Header`."""
    for option in reversed(_HEADER_OPTIONS):
        command = option(command)
    return command


@frozen
class Header:
    """What the options of :func:`header_options` say, as given on the command line."""

    robots_text: str | None
    players_text: str | None
    two_robots: bool
    seed: int | None
    upgrades: bool
    jolly: bool
    three_point: bool
    pad_reserve: bool
    assembly: str
    defence_steal_source: str

    @classmethod
    def given(cls, context: click.Context) -> list[str]:
        """The header options given on the command line of ``context``, as written there
        (``--seed``), not left to their defaults."""
        options = {param.name: param.opts[0] for param in context.command.params}
        return [
            options[name]
            for name in attrs.fields_dict(cls)
            if context.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
        ]


@frozen
class NewGame:
    """A new game's log, checked: its players, rule options and seed, its text, its start."""

    players: dict[str, tuple[int, ...]]
    options: Options
    seed: int
    text: str
    start: GameState

    def written_line(self, output: str) -> str:
        """What a command says after writing the log to ``output``."""
        count = sum(len(numbers) for numbers in self.players.values())
        return f"Wrote {output}: {count} robots, {len(self.players)} players, seed {self.seed}."


def new_game(header: Header) -> NewGame:
    """The log of the game the header options describe; a message and exit status 2 when
    they do not describe one. Without ``--seed`` the seed is drawn at random."""
    if header.robots_text is not None and header.players_text is not None:
        fail("give either --robots or --players, not both")
    try:
        robots = parse_robots(header.robots_text) if header.robots_text is not None else None
        named = parse_players(header.players_text) if header.players_text is not None else None
        players = players_of(robots, named, header.two_robots)
        options = Options(
            defence_steal_source=cast(DefenceStealSource, header.defence_steal_source),
            assembly=cast(AssemblyRule, header.assembly),
            upgrades=header.upgrades,
            jolly_gears=header.jolly,
            three_point_gears=header.three_point,
            pad_reserve=header.pad_reserve,
        )
    except InvalidStateError as error:
        fail(f"cannot start this game: {error}")
    import secrets  # imported here rather than when the command line starts

    seed = header.seed if header.seed is not None else secrets.randbelow(2**32)
    text = json_safe(format_json(skeleton_json(players, options, seed))) + "\n"
    try:
        start = start_state(read_log_text(text, "<new>"), "<new>")
    except LogError as error:
        fail(f"cannot start this game: {error.reason}")
    return NewGame(players, options, seed, text, start)
