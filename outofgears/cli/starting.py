"""The header of a new log, shared by ``new`` and ``record``: robots, players, options and seed
from the command line, checked, and the skeleton they give.

A real table deals its own start: ``--dump``, ``--feet``, ``--circuit`` and ``--reserve`` (or the
questions of ``--layout``) give the layout as it lies on the table, and the log starts from that
position, its reserve as counts (the order unknown), instead of a seeded deal. The layout is
checked as a typed-in position is (:func:`~outofgears.judge.start.start_state`), and a refusal
names the option that gave the value."""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any, Final, TypeVar, cast, get_args

import attrs
import click
from attrs import frozen
from click.core import ParameterSource

from outofgears._version import SPEC_VERSION, __version__
from outofgears.cli.common import (
    AsciiIntRange,
    F,
    fail,
)
from outofgears.errors import InvalidStateError, printable, show
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
from outofgears.log.writing import json_safe
from outofgears.rules.gears import COLOUR_NAMES, ROBOT_NUMBERS, Gear, gear_key
from outofgears.rules.model import (
    AssemblyRule,
    DefenceStealSource,
    GameState,
    Options,
    UpgradeCard,
)
from outofgears.rules.programs import UpgradeProgram
from outofgears.rules.setup import build_reserve
from outofgears.table.answers import (
    Examples,
    answer_in,
    forgiving,
    parse_gear_list,
    parse_table_program,
    player_named,
    table_answer,
)
from outofgears.table.session import refused_text
from outofgears.words import card_name, colour_name, gears_text, translator

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
    click.option(
        "--dump",
        "dumps_text",
        multiple=True,
        metavar="N=GEARS",
        help="The starting layout as dealt at the table: what dump N holds, such as "
        "3=red,red,green (3=none: nothing). With any of --dump, --feet, --circuit, --reserve or "
        "--layout the log starts from this layout, not from a seeded deal (no --seed); every "
        "dump in play is then given.",
    ),
    click.option(
        "--feet",
        "feet_text",
        multiple=True,
        metavar="N=GEARS",
        help="The gears at robot N's feet at the start, such as 2=orange (default: none).",
    ),
    click.option(
        "--circuit",
        "circuits_text",
        multiple=True,
        metavar="N=GEARS",
        help="The gears in robot N's circuit at the start (default: none).",
    ),
    click.option(
        "--reserve",
        "reserve_text",
        metavar="GEAR=COUNT,...",
        help="How many of each gear the face-down reserve holds at the start, such as "
        "red=2,orange=3 (its order unknown: each turn then says what was turned up). Default: "
        "the rest of the box (the colours in play, 11 each, and the expansions' gears).",
    ),
    click.option(
        "--upgrade",
        "upgrades_text",
        multiple=True,
        metavar="PLAYER=CARD",
        help="With --upgrades and a layout: the upgrade card a player holds at the start "
        "(UPG-1), such as Ada=super-trap; repeat it for each player who holds one. At --layout "
        "each player is asked.",
    ),
    click.option(
        "--layout",
        "ask_layout",
        is_flag=True,
        help="Ask for the starting layout: each dump not given by --dump, then each robot's "
        "feet and circuit and the reserve (an empty answer: none; for the reserve, the rest of "
        "the box). Each answer is checked at once and asked again with the reason.",
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
    dumps_text: tuple[str, ...] = ()
    feet_text: tuple[str, ...] = ()
    circuits_text: tuple[str, ...] = ()
    reserve_text: str | None = None
    upgrades_text: tuple[str, ...] = ()
    ask_layout: bool = False

    @property
    def layout_given(self) -> bool:
        """Whether the table gives its starting layout (then no seed deals it)."""
        return bool(
            self.dumps_text
            or self.feet_text
            or self.circuits_text
            or self.reserve_text is not None
            or self.ask_layout
        )

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
    #: Whether the game starts from a layout the table gave (else from the seed's deal).
    layout: bool = False

    def written_line(self, output: str, lang: str = "en") -> str:
        """What a command says after writing the log to ``output``, in ``lang``."""
        t = translator(lang)
        count = sum(len(numbers) for numbers in self.players.values())
        if self.layout:
            dealt = t.gettext("the layout given")
        else:
            dealt = t.gettext("seed {seed}").format(seed=self.seed)
        return t.gettext("Wrote {output}: {count} robots, {players} players, {dealt}.").format(
            output=output, count=count, players=len(self.players), dealt=dealt
        )


def new_game(header: Header, *, prompts_to_stderr: bool = False, lang: str = "en") -> NewGame:
    """The log of the game the header options describe; a message and exit status 2 when
    they do not describe one. Without ``--seed`` the seed is drawn at random; with a layout
    (:attr:`Header.layout_given`) the log starts from it, asked for where ``--layout`` says
    so (the questions on standard error with ``prompts_to_stderr``), with the upgrade card
    each player holds. The questions and refusals are in ``lang``, and the gears may be
    typed in it."""
    t = translator(lang)
    if header.layout_given and header.seed is not None:
        fail(
            t.gettext(
                "--seed deals the table; --dump, --feet, --circuit, --reserve and --layout "
                "give it: not both"
            )
        )
    if header.upgrades_text and not (header.layout_given and header.upgrades):
        fail(t.gettext("--upgrade says who holds which card at a dealt layout, with --upgrades"))
    if header.robots_text is not None and header.players_text is not None:
        fail(t.gettext("give either --robots or --players, not both"))
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
        fail(t.gettext("cannot start this game: {error}").format(error=error))
    import secrets  # imported here rather than when the command line starts

    seed = header.seed if header.seed is not None else secrets.randbelow(2**32)
    data = skeleton_json(players, options, seed)
    if header.layout_given:
        robots = tuple(sorted(n for numbers in players.values() for n in numbers))
        layout = Layout.given(header, robots, options, lang)
        held = held_upgrades(header.upgrades_text, tuple(players), options, lang)
        if header.ask_layout:
            layout = layout.asked(robots, options, err=prompts_to_stderr, lang=lang)
            if options.upgrades:
                held = ask_upgrades(tuple(players), held, options, err=prompts_to_stderr, lang=lang)
        data["start"] = {"position": layout.position_json(robots, options, lang)}
        if held:
            data["start"]["position"]["upgrades"] = {
                name: card.value for name, card in held.items()
            }
    text = json_safe(format_json(data)) + "\n"
    try:
        start = start_state(read_log_text(text, "<new>"), "<new>")
    except LogError as error:
        fail(f"{option_of(error.json_path)}{error.reason}")
    return NewGame(players, options, seed, text, start, layout=header.layout_given)


#: Where in a log's start each layout option writes: its JSON path, and the option.
_LAYOUT_PATHS: Final = (
    (re.compile(r"\$\.start\.position\.robots\.(\d)\.feet"), "--feet {}"),
    (re.compile(r"\$\.start\.position\.robots\.(\d)\.circuit"), "--circuit {}"),
    (re.compile(r"\$\.start\.position\.dumps\.(\d)"), "--dump {}"),
    (re.compile(r"\$\.start\.position\.reserve()"), "--reserve{}"),
)


def option_of(path: str) -> str:
    """The layout option that wrote the value at ``path``, as a message's start; else
    ``"cannot start this game: "``.

    >>> option_of("$.start.position.dumps.3[2]"), option_of("$.players")
    ('--dump 3: ', 'cannot start this game: ')
    """
    for pattern, option in _LAYOUT_PATHS:
        match = pattern.match(path)
        if match:
            return option.format(*match.groups()) + ": "
    return "cannot start this game: "


def box_of(robots: tuple[int, ...], options: Options) -> Counter[Gear]:
    """The gears of a game of these robots before the deal: the colours in play, 11 each, the
    expansions' gears and any padding (SET-3, JOL-1, TRI-1, REF-2), as the setup builds them."""
    return Counter(build_reserve(robots, random.Random(0), options))


@frozen
class Layout:
    """A starting layout as the table gives it: each dump, feet and circuit, and the reserve
    as counts (``None``: the rest of the box)."""

    dumps: dict[int, tuple[Gear, ...]]
    feet: dict[int, tuple[Gear, ...]]
    circuits: dict[int, tuple[Gear, ...]]
    reserve: dict[Gear, int] | None

    @classmethod
    def given(
        cls, header: Header, robots: tuple[int, ...], options: Options, lang: str = "en"
    ) -> Layout:
        """The layout the options give, each value read (in English or in ``lang``) and its
        key checked (a message naming the option for one that is wrong)."""
        dumps = keyed_places("--dump", header.dumps_text, robots, "dump", lang)
        feet = keyed_places("--feet", header.feet_text, robots, "robot", lang)
        circuits = keyed_places("--circuit", header.circuits_text, robots, "robot", lang)
        reserve = None
        if header.reserve_text is not None:
            try:
                reserve = parse_counts(header.reserve_text)
            except InvalidStateError as error:
                fail(f"--reserve {header.reserve_text!r}: {error}")
        missing = [n for n in robots if n not in dumps]
        if missing and not header.ask_layout:
            fail(
                translator(lang)
                .gettext(
                    "--dump: dump {dump} is in play: say what it holds (--dump {dump}=red,orange, "
                    "or --dump {dump}=none), or ask for the layout with --layout"
                )
                .format(dump=missing[0])
            )
        return cls(dumps, feet, circuits, reserve)

    def asked(
        self, robots: tuple[int, ...], options: Options, *, err: bool, lang: str = "en"
    ) -> Layout:
        """The layout with what the options left out asked at the terminal, in ``lang``: each
        dump not given, then each robot's feet and circuit, then the reserve."""
        t = translator(lang)
        box = box_of(robots, options)
        words = Examples(
            robot=robots[-1],
            other=robots[0],
            gear=COLOUR_NAMES[robots[0]],
            second=COLOUR_NAMES[robots[1]],
            third=COLOUR_NAMES[robots[-1]],
            gears=tuple(str(gear) for gear in sorted(box, key=gear_key)),
        )
        dumps, feet, circuits = dict(self.dumps), dict(self.feet), dict(self.circuits)
        for number in robots:
            if number not in dumps:
                question = t.gettext("Dump {number} holds").format(number=number)
                dumps[number] = ask_gears(question, words, err=err, lang=lang)
        for number in robots:
            colour = colour_name(number, lang)
            if number not in feet:
                question = t.gettext("Robot {number} ({colour}) feet").format(
                    number=number, colour=colour
                )
                feet[number] = ask_gears(question, words, err=err, lang=lang)
            if number not in circuits:
                question = t.gettext("Robot {number} ({colour}) circuit").format(
                    number=number, colour=colour
                )
                circuits[number] = ask_gears(question, words, err=err, lang=lang)
        reserve = self.reserve
        if reserve is None:
            rest = attrs.evolve(self, dumps=dumps, feet=feet, circuits=circuits).rest(box)
            shown = counts_text(rest, lang) if rest is not None else t.gettext("none left")
            reserve = ask_line(
                t.gettext(
                    "The reserve, as counts ({shown}: the rest of the box, which an empty "
                    "answer keeps):"
                ).format(shown=shown),
                lambda text: asked_counts(text, lang),
                err=err,
                lang=lang,
            )
        return Layout(dumps, feet, circuits, reserve)

    def rest(self, box: Counter[Gear]) -> dict[Gear, int] | None:
        """What the box holds beyond the gears laid out; ``None`` when the layout holds a
        gear the box does not."""
        left = Counter(box)
        laid = [*self.dumps.values(), *self.feet.values(), *self.circuits.values()]
        left.subtract(Counter(gear for pile in laid for gear in pile))
        if any(count < 0 for count in left.values()):
            return None
        return {gear: left[gear] for gear in sorted(left, key=gear_key) if left[gear]}

    def position_json(
        self, robots: tuple[int, ...], options: Options, lang: str = "en"
    ) -> dict[str, Any]:
        """The layout as a log's ``start.position``: the reserve as counts, the rest of the
        box by default (a message naming the option that laid a gear the box lacks)."""
        reserve = self.reserve
        if reserve is None:
            box = box_of(robots, options)
            reserve = self.rest(box)
            if reserve is None:
                fail(self.beyond_box(box, lang))
        return {
            "robots": {
                str(n): {
                    "feet": [str(g) for g in self.feet.get(n, ())],
                    "circuit": [str(g) for g in self.circuits.get(n, ())],
                }
                for n in robots
            },
            "dumps": {str(n): [str(g) for g in self.dumps.get(n, ())] for n in robots},
            "reserve": {str(gear): count for gear, count in reserve.items() if count},
        }

    def beyond_box(self, box: Counter[Gear], lang: str = "en") -> str:
        """Which option lays more of a gear than the box holds (the reserve cannot then be
        the rest of the box)."""
        left = Counter(box)
        places = [
            *(("--dump", n, pile) for n, pile in sorted(self.dumps.items())),
            *(("--feet", n, pile) for n, pile in sorted(self.feet.items())),
            *(("--circuit", n, pile) for n, pile in sorted(self.circuits.items())),
        ]
        for option, number, pile in places:
            for gear in pile:
                left[gear] -= 1
                if left[gear] < 0:
                    return (
                        translator(lang)
                        .gettext(
                            "{option} {number}: one gear too many, {gear}: the box of this game "
                            "holds {count} (its gears: {gears}); give --reserve to lay out gears "
                            "of another box"
                        )
                        .format(
                            option=option,
                            number=number,
                            gear=gears_text((gear,), lang),
                            count=box[gear],
                            gears=gears_text(tuple(box.elements()), lang),
                        )
                    )
        raise AssertionError("the layout fits the box")  # pragma: no cover


def keyed_places(
    option: str, texts: tuple[str, ...], robots: tuple[int, ...], what: str, lang: str = "en"
) -> dict[int, tuple[Gear, ...]]:
    """Each ``N=GEARS`` of a repeated layout option: N a robot or dump in play, once; the
    gears in English or in ``lang`` (``2 rosse, gialla``), the refusals in ``lang``."""
    t = translator(lang)
    places: dict[int, tuple[Gear, ...]] = {}
    for text in texts:
        key, equals, value = text.partition("=")
        word = forgiving(key).removeprefix(f"{what} ")
        if not equals or not (word.isascii() and word.isdigit() and len(word) == 1):
            fail(
                t.gettext("{option} {text}: write {option} N=GEARS, such as {example}").format(
                    option=option, text=show(text), example=f"{option} {robots[0]}=red,orange"
                )
            )
        number = int(word)
        if number not in robots:
            absent = (
                t.gettext("{option} {text}: dump {number} is not in play (dumps in play: {robots})")
                if what == "dump"
                else t.gettext(
                    "{option} {text}: robot {number} is not in play (robots in play: {robots})"
                )
            )
            fail(
                absent.format(
                    option=option,
                    text=show(text),
                    number=number,
                    robots=", ".join(map(str, robots)),
                )
            )
        if number in places:
            twice = (
                t.gettext("{option}: dump {number} is given twice")
                if what == "dump"
                else t.gettext("{option}: robot {number} is given twice")
            )
            fail(twice.format(option=option, number=number))
        try:
            places[number] = parse_gear_list(table_answer(value, lang))
        except InvalidStateError as error:
            shape = t.gettext("write the gears, such as {example}").format(
                example=gears_example(lang)
            )
            fail(f"{option} {show(text)}: {refused_text(error, value, shape, lang)}")
    return places


def gears_example(lang: str) -> str:
    """Gears as a table of ``lang`` types them: ``red, 2 orange``; ``rossa, 2 arancioni``."""
    return answer_in("red, 2 orange", lang).replace("2 arancione", "2 arancioni")


def parse_counts(text: str) -> dict[Gear, int]:
    """The reserve as counts: ``"red=2, orange=3"``; ``"none"`` for an empty reserve.

    >>> {str(gear): count for gear, count in parse_counts("Red=2, orange = 3").items()}
    {'red': 2, 'orange': 3}
    >>> parse_counts("red=2,red=1")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: red is counted twice
    """
    if forgiving(text) == "none":
        return {}
    counts: dict[Gear, int] = {}
    for item in text.split(","):
        name, equals, number = item.partition("=")
        word = number.strip()
        if not equals or not (word.isascii() and word.isdigit()) or len(word) > 3:
            raise InvalidStateError(
                f"{item.strip()!r} is not a count: write each gear and how many, such as "
                "'red=2, orange=3'"
            )
        gear = parse_gear_list(name)
        if len(gear) != 1:
            raise InvalidStateError(f"{name.strip()!r} is not one gear")
        if gear[0] in counts:
            raise InvalidStateError(f"{gear[0]} is counted twice")
        counts[gear[0]] = int(word)
    return counts


def asked_counts(text: str, lang: str = "en") -> dict[Gear, int] | None:
    """The reserve's counts typed at the terminal, in English or in ``lang`` (``None``: the
    rest of the box)."""
    return parse_counts(counts_answer(text, lang)) if text.strip() else None


def counts_answer(text: str, lang: str) -> str:
    """Counts typed in ``lang`` (``rossa=2, grigia=3``) in English words, each gear's name
    read as :func:`~outofgears.table.answers.table_answer` reads it."""
    if lang == "en":
        return text
    items = []
    for item in text.split(","):
        name, equals, number = item.partition("=")
        items.append(table_answer(name, lang) + equals + number)
    return ",".join(items)


def counts_text(counts: dict[Gear, int], lang: str = "en") -> str:
    """Counts the way ``--reserve`` writes them: ``red=2, orange=3``; ``none`` when empty; in
    ``lang`` as a table types them (``rossa=2``)."""
    text = ", ".join(f"{gear}={count}" for gear, count in counts.items()) or "none"
    return answer_in(text, lang)


def ask_gears(question: str, words: Examples, *, err: bool, lang: str = "en") -> tuple[Gear, ...]:
    """Gears asked at the terminal in ``lang``, checked as they are typed (in English or in
    ``lang``: ``2 rosse, gialla``); an empty answer: none."""
    example = answer_in(f"{words.gear}, {words.second}", lang)
    return ask_line(
        translator(lang)
        .gettext("{question} (such as {example}; empty: none):")
        .format(question=question, example=f"'{example}'"),
        lambda text: parse_gear_list(table_answer(text, lang), words) if text.strip() else (),
        err=err,
        lang=lang,
    )


T = TypeVar("T")


def ask_line(question: str, read: Callable[[str], T], *, err: bool, lang: str = "en") -> T:
    """One answer typed after ``question`` (on standard error with ``err``), read by
    ``read`` and asked again with the reason, in ``lang``, while ``read`` refuses it. Answers
    from a pipe are shown as typed; the end of the input is a message and exit status 2."""
    t = translator(lang)
    while True:
        click.echo(printable(question) + " ", nl=False, err=err)
        try:
            text = input()
        except EOFError:
            click.echo(err=err)
            fail(
                t.gettext("standard input ended before the layout was complete; nothing is written")
            )
        if not sys.stdin.isatty():
            click.echo(printable(text), err=err)
        try:
            return read(text)
        except InvalidStateError as error:
            reason = refused_text(error, text, "", lang)
            click.echo(
                printable(t.gettext("  not taken: {error}. Again:").format(error=reason)), err=err
            )


def held_upgrades(
    texts: tuple[str, ...], players: tuple[str, ...], options: Options, lang: str = "en"
) -> dict[str, UpgradeCard]:
    """The upgrade card each player holds at a dealt layout, from ``--upgrade PLAYER=CARD``
    (UPG-1): a player of the game, once, and a card of the deck."""
    t = translator(lang)
    held: dict[str, UpgradeCard] = {}
    for text in texts:
        name, equals, card = text.partition("=")
        try:
            if not equals:
                raise InvalidStateError(f"{show(text)} is not PLAYER=CARD")
            player = player_named(name, players)
            if player in held:
                raise InvalidStateError(f"{player} is given twice")
            held[player] = upgrade_card(card, options, lang)
        except InvalidStateError as error:
            shape = t.gettext("write --upgrade PLAYER=CARD, such as {example}").format(
                example=f"{players[0]}=super-trap"
            )
            fail(f"--upgrade {show(text)}: {refused_text(error, text, shape, lang)}")
    return held


def upgrade_card(text: str, options: Options, lang: str = "en") -> UpgradeCard:
    """An upgrade card of the game's deck, named in English or in ``lang`` (``super-trap``,
    ``Super Trappola``)."""
    program = parse_table_program(text, lang)
    if not isinstance(program, UpgradeProgram):
        raise InvalidStateError(f"{show(text)} is not an upgrade card")
    if program.card not in options.upgrade_deck:
        raise InvalidStateError(f"{program.card.value} is not in this game's upgrade deck (UPG-1)")
    return program.card


def ask_upgrades(
    players: tuple[str, ...],
    held: dict[str, UpgradeCard],
    options: Options,
    *,
    err: bool,
    lang: str = "en",
) -> dict[str, UpgradeCard]:
    """The upgrade card each player not given by ``--upgrade`` holds, asked at the terminal
    (UPG-1; an empty answer: none)."""
    t = translator(lang)
    cards = ", ".join(
        card.value if lang == "en" else card_name(card, lang)
        for card in dict.fromkeys(options.upgrade_deck)
    )
    held = dict(held)
    for player in players:
        if player in held:
            continue
        question = t.gettext("Which upgrade card does {player} hold? ({cards}; empty: none):")
        card = ask_line(
            question.format(player=player, cards=cards),
            lambda text: upgrade_card(text, options, lang) if text.strip() else None,
            err=err,
            lang=lang,
        )
        if card is not None:
            held[player] = card
    return held
