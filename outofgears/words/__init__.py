"""The players' words in English, Italian and French, from one set of gettext catalogues.

Whatever a player reads about a game in Italian or French (``outofgears explain --lang``, the
game viewer's ``view --lang``) takes its words from here, so that a colour, a card, a place or
an event is said the same way everywhere, in the rulebooks' own words (``spec/terms.toml``).

The messages are written in English in the code; their Italian and French are in gettext
catalogues, ``outofgears/words/locale/LANG/LC_MESSAGES/outofgears.po``, edited by hand, and in
the ``.mo`` files compiled from them, which the standard library's :mod:`gettext` reads at run
time. Babel is needed only to compile and check them (``python -m tests.sync_catalogues``, run
after editing a ``.po``; ``tests/test_words.py`` fails when a ``.mo`` is stale, a message of
the code is missing from a catalogue or left untranslated), so it is a development dependency,
never a runtime one.

The API, for any layer above the rules:

* :func:`translator` -- a :class:`gettext.NullTranslations` for a language, with ``gettext``,
  ``ngettext``, ``pgettext`` and ``npgettext``. Write the English message in the call, with
  ``str.format`` fields (``t.gettext("dump {number}").format(number=4)``): Babel extracts the
  calls of those four method names from the package's sources.
* :func:`colour_name`, :func:`gear_name`, :func:`gears_text`, :func:`place_text`,
  :func:`place_from_text`, :func:`card_name`, :func:`program_text`, :func:`outcome_text`,
  :func:`event_text`, :func:`position_lines`, :func:`numbers_text`, :func:`taken_each_text`:
  the table's things in words; :func:`clause_title`: a spec clause's
  title (the catalogues hold every title of ``spec/clauses.toml``, context ``clause title``).

>>> from outofgears.rules.gears import gears
>>> gears_text(gears(1, 1, 5), "it")
'2 rosse, 1 blu'
>>> place_text(Place.feet(3), "fr")
'pieds du Robot 3'
>>> event_text(GearMoved(Gear(1), Place.dump(4), Place.feet(4), 4, "HRV-2"), "it")
'rotella rossa: discarica 4 -> piedi del robot 4 (robot 4) [HRV-2]'
"""

from __future__ import annotations

import gettext as _gettext
import re
from collections import Counter
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Final

from outofgears.clauses import clauses
from outofgears.errors import ArgumentTypeError, InvalidStateError, expect
from outofgears.rules.events import (
    ActionResolved,
    Event,
    GearMoved,
    Outcome,
    SplitResolved,
    UpgradeDiscarded,
)
from outofgears.rules.gears import Gear, GearKind, sort_gears
from outofgears.rules.model import GameState, Options, Place, PlaceKind, UpgradeCard, expect_state
from outofgears.rules.programs import PROGRAM_TEXTS, Action, Program, UpgradeProgram

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "card_name",
    "clause_title",
    "colour_name",
    "event_text",
    "gear_name",
    "gears_text",
    "numbers_text",
    "outcome_text",
    "place_from_text",
    "place_text",
    "position_lines",
    "program_text",
    "taken_each_text",
    "translator",
]

#: The languages a player may read: English (the messages as written), Italian, French.
LANGUAGES: Final = ("en", "it", "fr")

#: The gettext domain: the catalogues' file name.
DOMAIN: Final = "outofgears"


def check_language(lang: str) -> str:
    """``lang`` when it is one of :data:`LANGUAGES`; else an error naming them.

    >>> check_language("de")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: the players' languages are en, it, fr, not 'de'
    """
    if lang not in LANGUAGES:
        raise InvalidStateError(f"the players' languages are {', '.join(LANGUAGES)}, not {lang!r}")
    return lang


def translator(lang: str) -> _gettext.NullTranslations:
    """The translations of the package's messages into ``lang`` (English: the messages as they
    are written).

    >>> translator("fr").gettext("reserve")
    'Réserve'
    >>> translator("en").gettext("reserve")
    'reserve'
    """
    return _catalogue(check_language(lang))


@cache
def _catalogue(lang: str) -> _gettext.NullTranslations:
    """The catalogue of a language already checked, read once."""
    if lang == "en":
        return _gettext.NullTranslations()
    path = resources.files("outofgears.words").joinpath(f"locale/{lang}/LC_MESSAGES/{DOMAIN}.mo")
    with path.open("rb") as catalogue:
        return _gettext.GNUTranslations(catalogue)


def colour_name(colour: int, lang: str, count: int = 1) -> str:
    """The name of a colour (a robot number 1-8) as an adjective of ``count`` gears.

    The rulebooks name no colours (ruling R-COLOURS): these names are the project's.

    >>> colour_name(1, "it", 2), colour_name(2, "fr", 2), colour_name(8, "en")
    ('rosse', 'orange', 'white')
    """
    if type(colour) is not int or not 1 <= colour <= 8:
        raise ArgumentTypeError("colour", "a robot number 1-8", colour)
    if type(count) is not int or count < 0:
        raise ArgumentTypeError("count", "a count of gears, 0 or more", count)
    t = translator(lang)
    names = {
        1: t.npgettext("colour of gears", "red", "red", count),
        2: t.npgettext("colour of gears", "orange", "orange", count),
        3: t.npgettext("colour of gears", "yellow", "yellow", count),
        4: t.npgettext("colour of gears", "green", "green", count),
        5: t.npgettext("colour of gears", "blue", "blue", count),
        6: t.npgettext("colour of gears", "purple", "purple", count),
        7: t.npgettext("colour of gears", "grey", "grey", count),
        8: t.npgettext("colour of gears", "white", "white", count),
    }
    return names[colour]


def kind_word(gear: Gear, lang: str, count: int) -> str:
    """A gear's colour or kind as the adjective of ``count`` gears: ``red``, ``rosse``."""
    t = translator(lang)
    if gear.kind is GearKind.JOLLY:
        return t.npgettext("kind of gears", "jolly", "jolly", count)
    if gear.kind is GearKind.THREE_POINT:
        return t.npgettext("kind of gears", "3-point", "3-point", count)
    return colour_name(gear.colour, lang, count)


def gear_name(gear: Gear, lang: str) -> str:
    """One gear in words: ``"red gear"``, ``"rotella rossa"``, ``"engrenage rouge"``.

    >>> gear_name(Gear(5), "fr"), gear_name(Gear(0, GearKind.JOLLY), "it")
    ('engrenage bleu', 'rotella jolly')
    """
    expect(gear, Gear, "gear", "a Gear")
    return (
        translator(lang)
        .pgettext("one gear, named by its colour or kind", "{name} gear")
        .format(name=kind_word(gear, lang, 1))
    )


def gears_text(items: Iterable[Gear], lang: str) -> str:
    """Gears counted by colour, the way a table says them; ``"none"`` in the language when
    there are none.

    >>> from outofgears.rules.gears import gears
    >>> gears_text(gears(1, 5, 1), "en"), gears_text((), "fr")
    ('2 red, 1 blue', 'aucun')
    """
    if isinstance(items, str) or not isinstance(items, Iterable):
        raise ArgumentTypeError("items", "an iterable of Gear", items)
    items = tuple(items)
    if not all(isinstance(item, Gear) for item in items):
        raise ArgumentTypeError("items", "an iterable of Gear", items)
    counts = Counter(sort_gears(tuple(items)))
    if not counts:
        return translator(lang).pgettext("no gears", "none")
    return ", ".join(f"{count} {kind_word(gear, lang, count)}" for gear, count in counts.items())


def numbers_text(numbers: Iterable[int], lang: str) -> str:
    """Robot or dump numbers as a table lists them, the last joined by "and" in ``lang``.

    >>> numbers_text([1, 3], "it"), numbers_text([1, 2, 3], "fr"), numbers_text([4], "en")
    ('1 e 3', '1, 2 et 3', '4')
    """
    items = [str(number) for number in _numbers(numbers, "numbers")]
    if len(items) < 2:
        return "".join(items)
    return (
        translator(lang)
        .pgettext("the last of a list of numbers", "{most} and {last}")
        .format(most=", ".join(items[:-1]), last=items[-1])
    )


def taken_each_text(takers: Iterable[int], share: int, lang: str) -> str:
    """What each taker of a split took (SPL-1): ``"robots 1 and 3 took 2 gears each"``.

    >>> taken_each_text([1, 3], 2, "it")
    'i robot 1 e 3 hanno preso 2 rotelle ciascuno'
    >>> taken_each_text([2, 4, 5], 1, "fr")
    'les Robots 2, 4 et 5 ont pris 1 engrenage chacun'
    """
    robots = _numbers(takers, "takers")
    if len(robots) < 2:
        raise ArgumentTypeError("takers", "two or more robot numbers (a split's takers)", takers)
    if isinstance(share, bool) or not isinstance(share, int) or share < 0:
        raise ArgumentTypeError("share", "a whole number of gears", share)
    return (
        translator(lang)
        .ngettext(
            "robots {robots} took {count} gear each",
            "robots {robots} took {count} gears each",
            share,
        )
        .format(robots=numbers_text(robots, lang), count=share)
    )


def _numbers(numbers: Iterable[int], argument: str) -> list[int]:
    items = (
        list(numbers) if isinstance(numbers, Iterable) and not isinstance(numbers, str) else None
    )
    if items is None or not all(isinstance(n, int) and not isinstance(n, bool) for n in items):
        raise ArgumentTypeError(argument, "an iterable of whole numbers", numbers)
    return items


def place_text(place: Place, lang: str) -> str:
    """A place in words: a robot's feet or circuit, a dump, the reserve.

    >>> place_text(Place.circuit(2), "it"), place_text(Place.dump(4), "fr")
    ('Circuito Interno del robot 2', 'Décharge 4')
    """
    expect(place, Place, "place", "a Place")
    t = translator(lang)
    if place.kind is PlaceKind.FEET:
        return t.gettext("robot {number} feet").format(number=place.number)
    if place.kind is PlaceKind.CIRCUIT:
        return t.gettext("robot {number} circuit").format(number=place.number)
    if place.kind is PlaceKind.DUMP:
        return t.gettext("dump {number}").format(number=place.number)
    return t.gettext("reserve")


def place_from_text(place: Place, lang: str) -> str:
    """Where a gear comes from, in words: the place with its preposition, and in Italian and
    French its article ("dai piedi del robot 3", "de la Décharge 4").

    >>> place_from_text(Place.feet(3), "it"), place_from_text(Place.dump(4), "fr")
    ('dai piedi del robot 3', 'de la Décharge 4')
    >>> place_from_text(Place.circuit(2), "en"), place_from_text(Place.reserve(), "it")
    ('from robot 2 circuit', 'dalla riserva')
    """
    expect(place, Place, "place", "a Place")
    t = translator(lang)
    if place.kind is PlaceKind.FEET:
        return t.gettext("from robot {number} feet").format(number=place.number)
    if place.kind is PlaceKind.CIRCUIT:
        return t.gettext("from robot {number} circuit").format(number=place.number)
    if place.kind is PlaceKind.DUMP:
        return t.gettext("from dump {number}").format(number=place.number)
    return t.gettext("from the reserve")


def card_name(card: Action | UpgradeCard, lang: str) -> str:
    """An action card's or an upgrade card's name.

    The Italian rulebook names no upgrade card: their Italian names are the project's.

    >>> card_name(Action.TRAP, "fr"), card_name(UpgradeCard.SUPER_SHOVEL, "it")
    ('Piège', 'Super Pala')
    """
    expect(card, (Action, UpgradeCard), "card", "an Action or an UpgradeCard")
    t = translator(lang)
    names: dict[Action | UpgradeCard, str] = {
        Action.ATTACK: t.pgettext("card", "attack"),
        Action.TRAP: t.pgettext("card", "trap"),
        Action.HARVEST: t.pgettext("card", "harvest"),
        UpgradeCard.SUPER_HARVEST: t.pgettext("card", "super harvest"),
        UpgradeCard.SUPER_ATTACK: t.pgettext("card", "super attack"),
        UpgradeCard.SUPER_TRAP: t.pgettext("card", "super trap"),
        UpgradeCard.SUPER_SHOVEL: t.pgettext("card", "super shovel"),
        UpgradeCard.COUNTER_DEFENCE: t.pgettext("card", "counter defence"),
    }
    return names[card]


#: An upgrade program as an event names it at one of its targets: ``"super trap (dump 2)"``.
_AIMED: Final = re.compile(r"(?P<card>[a-z ]+) \((?P<kind>dump|robot) (?P<number>[1-8])\)")


def program_text(program: Program | UpgradeProgram | str, lang: str) -> str:
    """A program in words: its action card and number card, or its upgrade card (with the
    dump or robot it acted on, as an event names it).

    >>> program_text("harvest 4", "it"), program_text("super trap (dump 2)", "fr")
    ('Raccolta 4', 'Super Piège (Décharge 2)')
    """
    if not isinstance(program, Program | UpgradeProgram | str):
        raise ArgumentTypeError("program", "a program or its text", program)
    if isinstance(program, str):
        aimed = _AIMED.fullmatch(program)
        if aimed is not None:
            number = int(aimed["number"])
            target = Place.dump(number) if aimed["kind"] == "dump" else None
            where = (
                place_text(target, lang)
                if target is not None
                else translator(lang).gettext("robot {number}").format(number=number)
            )
            return f"{program_text(aimed['card'], lang)} ({where})"
        if program not in PROGRAM_TEXTS:
            raise InvalidStateError(f"no program is written {program!r}")
        program = PROGRAM_TEXTS[program]
    if isinstance(program, UpgradeProgram):
        return card_name(program.card, lang)
    return f"{card_name(program.action, lang)} {program.number}"


def outcome_text(outcome: Outcome, lang: str) -> str:
    """What a program came to, in words.

    >>> outcome_text(Outcome.TRAP_SPRUNG, "it")
    'la trappola ha avuto effetto'
    """
    expect(outcome, Outcome, "outcome", "an Outcome")
    t = translator(lang)
    texts = {
        Outcome.DEFENDED: t.pgettext("outcome", "defended"),
        Outcome.DEFENDED_UNTESTED: t.pgettext("outcome", "defended, but nobody attacked"),
        Outcome.ATTACK_VOIDED: t.pgettext("outcome", "attack voided by a defence"),
        Outcome.ATTACK_HIT: t.pgettext("outcome", "attack hit"),
        Outcome.TRAP_SPRUNG: t.pgettext("outcome", "trap sprang"),
        Outcome.TRAP_IDLE: t.pgettext("outcome", "trap blocked no harvest"),
        Outcome.HARVEST_VOIDED: t.pgettext("outcome", "harvest voided by a trap"),
        Outcome.HARVEST_DONE: t.pgettext("outcome", "harvested"),
        Outcome.DEFENCE_COUNTERED: t.pgettext("outcome", "defence voided by a counter defence"),
        Outcome.COUNTER_UNUSED: t.pgettext("outcome", "counter defence found no defence"),
        Outcome.SHOVELLED: t.pgettext("outcome", "shovelled"),
    }
    return texts[outcome]


def event_text(event: Event, lang: str) -> str:
    """An event in words, ending with the clause behind it; in English exactly ``str(event)``.

    >>> from outofgears.rules.events import TurnEnded
    >>> event_text(TurnEnded(12, True, "END-1"), "fr")
    'fin du tour 12 : la partie est terminée [END-1]'
    """
    if not isinstance(event, Event):
        raise ArgumentTypeError("event", "an event", event)
    t = translator(lang)
    if isinstance(event, GearMoved):
        by = "" if event.robot is None else t.gettext(" (robot {robot})").format(robot=event.robot)
        text = t.gettext("{gear}: {source} -> {destination}{by}").format(
            gear=gear_name(event.gear, lang),
            source=place_text(event.source, lang),
            destination=place_text(event.destination, lang),
            by=by,
        )
    elif isinstance(event, ActionResolved):
        text = t.gettext("robot {robot} {program}: {outcome}").format(
            robot=event.robot,
            program=program_text(event.program, lang),
            outcome=outcome_text(event.outcome, lang),
        )
    elif isinstance(event, SplitResolved):
        text = t.gettext("{place} shared by robots {takers}: {share} each, {left} left").format(
            place=place_text(event.place, lang),
            takers=", ".join(str(robot) for robot in event.takers),
            share=event.share,
            left=gears_text(event.left, lang),
        )
    elif isinstance(event, UpgradeDiscarded):
        text = t.gettext("robot {robot}: {card} discarded by {player}").format(
            robot=event.robot, card=card_name(event.card, lang), player=event.player
        )
    else:
        if event.game_over:
            text = t.gettext("turn {turn} ended: the game is over").format(turn=event.turn)
        else:
            text = t.gettext("turn {turn} ended").format(turn=event.turn)
    return f"{text} [{event.clause}]"


#: The gettext context of the spec clauses' titles in the catalogues.
CLAUSE_TITLE: Final = "clause title"


def clause_title(clause_id: str, lang: str) -> str:
    """The title of a spec clause in ``lang``; the ID itself for a clause the spec lacks.

    >>> clause_title("EXP-1", "fr"), clause_title("ATK-99", "it")
    ('Réapprovisionnement', 'ATK-99')
    """
    expect(clause_id, str, "clause_id", "a clause ID")
    found = clauses().get(clause_id)
    if found is None:
        return clause_id
    return translator(lang).pgettext(CLAUSE_TITLE, found.title)


def position_lines(state: GameState, lang: str, indent: str = "  ") -> list[str]:
    """A position in table words: each robot's feet and circuit, each dump, the reserve, the
    upgrade cards held. In English, the lines of the replay's reports.

    >>> from outofgears.rules.setup import setup_game
    >>> position_lines(setup_game([1, 2], seed=0), "it")[-1]
    '  riserva: 18 rotelle'
    """
    expect_state(state)
    expect(indent, str, "indent", "a str")
    t = translator(lang)
    lines = [
        indent
        + t.gettext("robot {robot} ({player}): feet {feet}; circuit {circuit}").format(
            robot=robot.number,
            player=state.player_of(robot.number).name,
            feet=gears_text(robot.feet, lang),
            circuit=gears_text(robot.circuit, lang),
        )
        for robot in state.robots
    ]
    lines += [
        indent
        + t.gettext("dump {number}: {gears}").format(
            number=dump.number, gears=gears_text(dump.gears, lang)
        )
        for dump in state.dumps
    ]
    count = len(state.reserve)
    lines.append(
        indent
        + t.ngettext("reserve: {count} gear", "reserve: {count} gears", count).format(count=count)
    )
    held = [
        f"{player.name} {card_name(player.upgrade, lang)}"
        for player in state.players
        if player.upgrade is not None
    ]
    if held:
        lines.append(
            indent + t.gettext("upgrade cards held: {cards}").format(cards=", ".join(held))
        )
    return lines


def options_lines(options: Options, two_robots: bool, lang: str, indent: str = "  ") -> list[str]:
    """The rule options in play, one line, in ``lang``: the two disputed readings (rulings
    R-DEFENCE and R-ASSEMBLY), then the variant and the expansions that are on.

    >>> options_lines(Options(), False, "en")
    ['  rules: a defender takes from feet or circuit (R-DEFENCE); assembly mandatory (R-ASSEMBLY)']
    >>> options_lines(Options(assembly="optional", jolly_gears=True), True, "it")[0]
    '  regole: chi si difende prende dai piedi o dal circuito (R-DEFENCE); assemblaggio facoltativo (R-ASSEMBLY); variante a due robot; rotelle Jolly'
    """
    t = translator(lang)
    parts = [
        t.gettext("a defender takes from feet or circuit (R-DEFENCE)")
        if options.defence_steal_source == "feet_or_circuit"
        else t.gettext("a defender takes from feet only (R-DEFENCE)"),
        t.gettext("assembly mandatory (R-ASSEMBLY)")
        if options.assembly == "mandatory"
        else t.gettext("assembly optional (R-ASSEMBLY)"),
    ]
    if two_robots:
        parts.append(t.gettext("the two-robot variant"))
    if options.upgrades:
        parts.append(t.gettext("upgrade cards"))
    if options.jolly_gears:
        parts.append(t.gettext("Jolly gears"))
    if options.three_point_gears:
        parts.append(t.gettext("3-point gears"))
    if options.pad_reserve:
        parts.append(t.gettext("padded reserve"))
    return [indent + t.gettext("rules: {options}").format(options="; ".join(parts))]
