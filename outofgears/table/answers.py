"""What a table says when it enters a turn, read into the log's records.

``outofgears record`` asks for a turn's programs, choices and recorded values, and takes the
same answers as options. Both are read here, with the log's own grammar of programs
(:func:`~outofgears.rules.programs.parse_program`), gears (:func:`~outofgears.rules.gears.parse_gear`)
and places (:func:`~outofgears.log.wire.parse_place`). A list of gears is their names
separated by commas, ``+`` or spaces, or ``none``. Every refusal is an
:class:`~outofgears.errors.InvalidStateError` saying what is wrong and how to write it.

Answers are read forgivingly (:func:`forgiving`): in any case, with any spacing, and with a
number glued to its word (``Harvest1`` is ``harvest 1``, ``robot3 feet`` is ``robot 3
feet``); a player's name in any case when no other player's name differs only by case.
The examples in a refusal name this game's robots, colours and players when the caller gives
:class:`Examples` of the game (:meth:`Examples.of`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Final

import attrs
from attrs import frozen

from outofgears.errors import InvalidStateError, show
from outofgears.log import Recorded, RobotGears, StealRecord
from outofgears.log.wire import parse_place
from outofgears.rules.gears import COLOUR_NAMES, GEAR_NAMES, Gear, parse_gear, sort_gears
from outofgears.rules.model import GameState, Place, PlaceKind, UpgradeCard
from outofgears.rules.programs import Action, AnyProgram, parse_program
from outofgears.words import card_name, kind_word, translator

_GLUED: Final = re.compile(r"(?<=[a-z])(?=\d)")


def forgiving(text: str) -> str:
    """An answer as the log's grammar writes it: lower case, one space between words, a
    number parted from the word it is glued to.

    >>> forgiving("  Harvest1 "), forgiving("ROBOT3  feet = Red"), forgiving("3-Point")
    ('harvest 1', 'robot 3 feet = red', '3-point')
    """
    return " ".join(_GLUED.sub(" ", text.lower()).split())


def parse_table_program(text: str, lang: str = "en") -> AnyProgram:
    """A program as a table says it: ``"Harvest1"``, ``"super-trap"``, ``"attack 2"``; in
    Italian or French (``lang``) also with the card's name in that language, the rulebook's
    (``"Raccolta 1"``, ``"Super Piege"``: accents optional). English is always read.

    >>> str(parse_table_program("Harvest1")), str(parse_table_program("Super_Trap"))
    ('harvest 1', 'super trap')
    >>> str(parse_table_program("Attacco2", "it")), str(parse_table_program("super piege", "fr"))
    ('attack 2', 'super trap')
    """
    plain = _card_spelling(text)
    short = _SHORT.fullmatch(plain)
    if short and short["letter"] in SHORT_CARDS[lang]:
        return parse_program(f"{SHORT_CARDS[lang][short['letter']]} {short['number']}")
    if lang != "en":
        for name, english in _card_words(lang):
            if plain == name or plain.startswith(name + " "):
                plain = english + plain[len(name) :]
                break
    return parse_program(plain)


#: A program's short form: one letter and a number (``h2``, ``a 3``).
_SHORT: Final = re.compile(r"(?P<letter>[a-z]) ?(?P<number>\d+)")

#: The letter of each action card in each language, its name's first letter (``a2`` is
#: attack 2; ``r2`` is Raccolta/Récolte 2, ``p2`` Piège 2); English's letters are read in
#: every language where they mean nothing else.
SHORT_CARDS: Final[dict[str, dict[str, str]]] = {
    "en": {"a": "attack", "t": "trap", "h": "harvest"},
    "it": {"a": "attack", "t": "trap", "r": "harvest", "h": "harvest"},
    "fr": {"a": "attack", "p": "trap", "r": "harvest", "t": "trap", "h": "harvest"},
}

#: The words for a defence, an attack on its own robot's number (ATK-3), in each language.
DEFENCE_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("defence", "defense", "defend", "d"),
    "it": ("difesa", "difendi", "d"),
    "fr": ("defense", "defendre", "d"),
}


def defence_number(text: str, lang: str = "en") -> int | None:
    """The number a defence names (``"difesa 3"``: 3; ``"defence"``: 0, its robot's own),
    or ``None`` when ``text`` is not a defence (ATK-3: a robot defends by attacking its own
    number).

    >>> defence_number("Difesa 3", "it"), defence_number("défense", "fr"), defence_number("a2")
    (3, 0, None)
    """
    word, _, number = _card_spelling(text).partition(" ")
    if word not in (*DEFENCE_WORDS["en"], *DEFENCE_WORDS[lang]):
        return None
    if not number:
        return 0
    if not (number.isascii() and number.isdigit()):
        return None
    return int(number)


def _card_spelling(text: str) -> str:
    """A card's name as :func:`parse_table_program` compares it: :func:`forgiving`, with
    dashes and underscores as spaces and no accents on its letters. Nothing else is folded:
    a superscript or full-width digit stays what it is, not a number (as everywhere else)."""
    plain = forgiving(text.replace("-", " ").replace("_", " "))
    kept: list[str] = []
    for char in unicodedata.normalize("NFD", plain):
        if not (unicodedata.combining(char) and kept and kept[-1].isalpha()):
            kept.append(char)
    return "".join(kept)


@cache
def _card_words(lang: str) -> tuple[tuple[str, str], ...]:
    """Each card's name in ``lang`` as :func:`_card_spelling` writes it, with its English
    name; the longest first, so that a super card is not read as its plain card."""
    cards: list[Action | UpgradeCard] = [*Action, *UpgradeCard]
    names = {_card_spelling(card_name(card, lang)): card.value for card in cards}
    return tuple(sorted(names.items(), key=lambda item: -len(item[0])))


#: The words of the answers' grammar besides the gears' names, which a table typing in another
#: language may say in it (:func:`table_answer`).
ANSWER_WORDS: Final = ("feet", "circuit", "dump", "robot", "score", "none", "from")

#: Forms a table types that the outputs do not print on their own (plurals, genders, the
#: contractions of "from"); the rest of each language's words are the catalogues'.
_MORE_WORDS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "it": {
        "dump": ("discariche",),
        "score": ("punteggio", "punteggi"),
        "none": ("nessuno", "niente", "nulla", "vuoto", "vuota", "vuoti"),
        "from": ("da", "dai", "dal"),
        # the glossary's masculine forms beside the tables' feminine ones
        "red": ("rosso", "rossi"),
        "yellow": ("giallo", "gialli"),
        "grey": ("grigio", "grigi"),
        "white": ("bianco", "bianchi"),
    },
    "fr": {
        "dump": ("decharges",),
        "score": ("score", "scores"),
        "none": ("aucune", "rien", "vide"),
        "from": ("de", "des", "du"),
        "orange": ("oranges",),
        "green": ("verte", "vertes"),
        "blue": ("bleue", "bleues"),
        "purple": ("violette", "violettes"),
        "grey": ("grise", "grises"),
        "white": ("blanche", "blanches"),
    },
}

#: The plural colour words of each language (``rosse``, ``rouges``): a gear count is needed
#: before one (``2 rosse``), never guessed (:class:`CountMissingError`).
_PLURALS: Final[dict[str, frozenset[str]]] = {
    "it": frozenset(
        {
            "rosse",
            "rossi",
            "arancioni",
            "gialle",
            "gialli",
            "verdi",
            "grigie",
            "grigi",
            "bianche",
            "bianchi",
        }
    ),
    "fr": frozenset(
        {
            "rouges",
            "oranges",
            "jaunes",
            "verts",
            "vertes",
            "bleus",
            "bleues",
            "violets",
            "violettes",
            "grises",
            "blancs",
            "blanches",
        }
    ),
}


#: Words that say a score only as an answer's first word (``punti Marco=5``, ``points Léa=4``):
#: elsewhere they belong to a three-point gear's name.
_SCORE_FIRST: Final[dict[str, tuple[str, ...]]] = {
    "en": (),
    "it": ("punti", "punto"),
    "fr": ("points", "point"),
}


class CountMissingError(InvalidStateError):
    """A plural colour word typed without a count (``piedi=rosse``): how many is asked back.

    Attributes:
        word: The word as typed.
    """

    def __init__(self, word: str) -> None:
        super().__init__(f"{show(word)} gives no count: write how many, such as '2 {word}'")
        self.word = word


@cache
def _written_words(lang: str) -> dict[str, str]:
    """How :func:`answer_in` writes the places and the score in ``lang``: the catalogues'
    words (``piedi``, ``décharge``), the score as :data:`_MORE_WORDS` gives it."""
    t = translator(lang)
    return {
        "feet": t.pgettext("viewer", "feet"),
        "circuit": t.pgettext("picture", "circuit"),
        "dump": t.gettext("dump {number}").format(number="").strip().lower(),
        "score": _MORE_WORDS[lang]["score"][0],
    }


#: How "from" is written before a place in each language (``dai piedi``, ``du circuit``).
_FROM: Final[dict[str, dict[str, str]]] = {
    "it": {"feet": "dai", "circuit": "dal", "robot": "dal"},
    "fr": {"feet": "des", "circuit": "du", "robot": "du"},
}

#: What stands before a counted gear: a number and spaces (``2 ``).
_COUNTED: Final = re.compile(r"\d\s+$")
#: A run of letters, each with its accents, however typed: one word of an answer.
_WORD: Final = re.compile(r"((?:[^\W\d_][\u0300-\u036f]*)+)")
#: What stands between "da"/"à" and "punti"/"points" in a three-point gear's name.
_THREE: Final = re.compile(r"(?P<lead>(?:.*[\s,+=:])?)3[\s-]*", re.DOTALL)


def _letters(word: str) -> str:
    """A word as :func:`table_answer` compares it: lower case, no accents on its letters."""
    return _card_spelling(word)


@cache
def answer_meanings(lang: str) -> dict[str, frozenset[str]]:
    """Each word a table of ``lang`` types for a gear or a place (as :func:`_letters` writes
    it), with the words of the English answers it may mean: the colours in every form the
    outputs print (singular, plural), Jolly, the places, ``none`` and ``from``. A word with
    more than one meaning would be a defect (tests check there is none).

    >>> sorted(answer_meanings("it")["rosse"]), sorted(answer_meanings("fr")["decharge"])
    (['red'], ['dump'])
    """
    t = translator(lang)
    meanings: dict[str, set[str]] = {}

    def add(word: str, english: str) -> None:
        if " " not in word.strip():  # an answer is read word by word
            meanings.setdefault(_letters(word), set()).add(english)

    for name, gear in GEAR_NAMES.items():
        if name != "3-point":  # three words: read by table_answer itself
            for count in (1, 2):
                add(kind_word(gear, lang, count), name)
    add(t.pgettext("picture", "feet"), "feet")
    add(t.pgettext("viewer", "feet"), "feet")
    add(t.pgettext("picture", "circuit"), "circuit")
    add(t.gettext("dump {number}").format(number="").strip(), "dump")
    add("robot", "robot")
    add(t.pgettext("no gears", "none"), "none")
    add(t.pgettext("no gears assembled", "nothing"), "none")  # wherever "none" is read
    for english, words in _MORE_WORDS.get(lang, {}).items():
        for word in words:
            add(word, english)
    return {word: frozenset(english) for word, english in meanings.items()}


@cache
def _answer_words(lang: str) -> dict[str, str]:
    """Each word of ``lang``'s answers with the one English word it stands for."""
    return {word: min(english) for word, english in answer_meanings(lang).items()}


@cache
def _three_point_words(lang: str) -> tuple[str, str]:
    """The words around the 3 in a three-point gear's name (``da``, ``punti``)."""
    lead, _, tail = kind_word(GEAR_NAMES["3-point"], lang, 1).partition(" 3 ")
    return _letters(lead), _letters(tail)


def table_answer(text: str, lang: str = "en") -> str:
    """An answer typed in ``lang`` as the English answers write it, word by word: the gears'
    colours and kinds, the places, ``none`` and ``from`` (accents optional, any case); any
    other word, and every English one, as typed. In an answer that gives a score, only its
    first word is read so (a player's name is never a colour). The circuit may be named in
    full (``circuito interno``, ``circuit interne``).

    >>> table_answer("Rossa dai Piedi", "it"), table_answer("discarica4=blu, da 3 punti", "it")
    ('red from feet', 'dump4=blue,  3-point')
    >>> table_answer("robot 2 circuit=2 rouges+Jolly", "fr"), table_answer("score Rouge=3", "fr")
    ('robot 2 circuit=2 red+jolly', 'score Rouge=3')
    """
    if lang == "en":
        return text
    words = _answer_words(lang)
    parts = _WORD.split(text)
    firsts = range(1, len(parts), 2)
    first = _letters(parts[1]) if firsts else ""
    at_start = bool(firsts) and parts[0].strip() == ""
    if firsts and words.get(first, first) == "score":
        return "score" + "".join(parts[2:]) if at_start else text
    if at_start and first in _SCORE_FIRST[lang]:
        return "score" + "".join(parts[2:])
    lead_word, tail_word = _three_point_words(lang)
    for index in firsts:  # "da 3 punti", "3 points": three words for one gear
        three = _THREE.fullmatch(parts[index - 1])
        if _letters(parts[index]) == tail_word and three is not None:
            parts[index - 1], parts[index] = f"{three['lead']}3-point", ""
            if not three["lead"].strip() and index > 1 and _letters(parts[index - 2]) == lead_word:
                parts[index - 2] = ""
    internal = _internal_word(lang)
    for index in firsts:
        word = _letters(parts[index])
        if word in _PLURALS.get(lang, ()) and not _COUNTED.search(parts[index - 1]):
            raise CountMissingError(parts[index])
        if word == internal and index > 1 and parts[index - 2] == "circuit":
            parts[index] = ""  # "circuito interno", the rulebooks' name: the circuit
        elif word in words:
            parts[index] = words[word]
    return "".join(parts)


@cache
def _internal_word(lang: str) -> str:
    """The adjective of the circuit's full name in ``lang`` (``interno``, ``interne``)."""
    return _letters(translator(lang).pgettext("viewer", "circuit")).partition(" ")[2]


def answer_in(text: str, lang: str) -> str:
    """An English answer as a table of ``lang`` types it (the hints' examples): the gears by
    their colour's name, the places and ``none`` in the language.

    >>> answer_in("red from feet", "it"), answer_in("1:grey+3-point, 2:none", "fr")
    ('rossa dai piedi', '1:gris+à 3 points, 2:aucun')
    """
    if lang == "en":
        return text
    t = translator(lang)
    written = {
        **{name: kind_word(gear, lang, 1) for name, gear in GEAR_NAMES.items()},
        **_written_words(lang),
        "none": t.pgettext("no gears", "none"),
    }
    if text.startswith("score "):  # a player's name is never translated
        return f"{written['score']} {text[len('score ') :]}"
    three = text.split("3-point")
    parts = [_WORD.split(piece) for piece in three]
    for piece in parts:
        for index in range(1, len(piece), 2):
            word = piece[index]
            if word == "from":
                after = piece[index + 2] if index + 2 < len(piece) else ""
                piece[index] = _FROM[lang].get(after, _MORE_WORDS[lang]["from"][0])
            elif word in written and word != "3":
                piece[index] = written[word]
    return written["3-point"].join("".join(piece) for piece in parts)


@frozen
class Examples:
    """What the examples in a refusal name: two robots, three gears, a dump, a player and the
    gears there are. :meth:`of` gives this game's; the defaults serve where no game is at
    hand (the command line's options, read before the log)."""

    robot: int = 3
    other: int = 1
    gear: str = "red"
    second: str = "yellow"
    third: str = "blue"
    dump: int = 4
    player: str = "Ada"
    gears: tuple[str, ...] = tuple(GEAR_NAMES)

    @classmethod
    def of(cls, state: GameState) -> Examples:
        """This game's robots, colours and first player, and the gears it has.

        >>> from outofgears.rules.setup import setup_game
        >>> Examples.of(setup_game([2, 5, 7], seed=1)).split_shape
        "write each taker's share as 'robot:gears', such as '2:orange+blue, 7:grey'"
        """
        robots = state.robot_numbers
        colours = [COLOUR_NAMES[number] for number in robots]
        return cls(
            robot=robots[-1],
            other=robots[0],
            gear=colours[0],
            second=colours[1],
            third=colours[-1],
            dump=robots[-1],
            player=state.players[0].name,
            gears=tuple(str(gear) for gear in sort_gears(set(state.all_gears()))),
        )

    @property
    def gears_shape(self) -> str:
        """How to write a list of gears."""
        return f"gear names separated by commas, such as '{self.gear}, {self.second}', or 'none'"

    @property
    def steal_shape(self) -> str:
        """How to write a defence steal."""
        return f"write '{self.gear} from feet' or '{self.gear} from robot {self.other} circuit'"

    @property
    def split_shape(self) -> str:
        """How to write a split."""
        return (
            "write each taker's share as 'robot:gears', such as "
            f"'{self.other}:{self.gear}+{self.second}, {self.robot}:{self.third}'"
        )

    @property
    def recorded_shape(self) -> str:
        """How to write a recorded value."""
        return (
            f"write 'robot {self.robot} feet={self.gear},{self.second}', "
            f"'robot {self.robot} circuit=none', 'dump {self.dump}={self.third}' or "
            f"'score {self.player}=12'"
        )

    def table_gear(self, word: str) -> Gear:
        """A gear from its name in any case; the refusal names the gears there are.

        >>> Examples(gears=("red", "orange")).table_gear("Blu")
        Traceback (most recent call last):
        ...
        outofgears.errors.InvalidStateError: "Blu" is not a gear of this game: its gears are red, orange
        """
        try:
            return parse_gear(word.lower())
        except InvalidStateError:
            where = (
                "a gear: a gear is one of"
                if self == GENERIC
                else "a gear of this game: its gears are"
            )
            raise InvalidStateError(
                f"{show(word)} is not {where} {', '.join(self.gears)}"
            ) from None


#: The examples of a message with no game at hand.
GENERIC: Final = Examples()


_SEPARATORS: Final = re.compile(r"[\s,+]+")

#: The most gears of one colour a count in an answer may give (more than a box holds).
MAX_COUNT: Final = 40
_STEAL: Final = re.compile(r"(\S+) from (?:robot (\S+) )?(feet|circuit)")
_SHARE_START: Final = re.compile(r"(?:^|,)\s*(\S+?)\s*:")


def parse_robot(text: str, what: str = "robot") -> int:
    """A robot number 1-8 from its digits (``what="dump"`` for a dump, numbered alike).

    >>> parse_robot(" 3 ")
    3
    >>> parse_robot("9", "dump")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "9" is not a dump: dumps are numbered 1-8
    """
    word = text.strip()
    if len(word) != 1 or not "1" <= word <= "8":
        raise InvalidStateError(f"{show(word)} is not a {what}: {what}s are numbered 1-8")
    return int(word)


def parse_gear_list(text: str, words: Examples = GENERIC) -> tuple[Gear, ...]:
    """Gears from their names, in any case: ``"red, yellow"``, ``"Red+Yellow"``; ``"none"``
    for no gear.

    >>> [str(gear) for gear in parse_gear_list("red, jolly+red")]
    ['red', 'jolly', 'red']
    >>> parse_gear_list("none")
    ()
    >>> parse_gear_list("red, yelow")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "yelow" is not a gear: a gear is one of red, orange, yellow, green, blue, purple, grey, white, jolly, 3-point
    """
    names = [name for name in _SEPARATORS.split(text.strip()) if name]
    if [name.lower() for name in names] in (["none"], ["nothing"], ["empty"]):
        return ()
    if not names:
        raise InvalidStateError(f"no gears given: write {words.gears_shape}")
    gears: list[Gear] = []
    count = 1
    for index, name in enumerate(names):
        if name.isascii() and name.isdigit() and index + 1 < len(names):
            count = int(name)  # "2 red", as the tables print it
            if not 1 <= count <= MAX_COUNT:
                raise InvalidStateError(f"{show(name)} gears of one colour: at most {MAX_COUNT}")
            continue
        gears += [words.table_gear(name)] * count
        count = 1
    return tuple(gears)


def split_keyed(text: str, what: str, shape: str) -> tuple[str, str]:
    """The two sides of ``KEY=VALUE``, each stripped; the value may not hold ``=``.

    >>> split_keyed("robot 3 feet = red", "a recorded value", "")
    ('robot 3 feet', 'red')
    """
    key, equals, value = text.rpartition("=")
    if not equals or not key.strip():
        raise InvalidStateError(f"{show(text)} is not {what}: {shape}")
    return key.strip(), value.strip()


def parse_steal(
    text: str, defender: int, attacker: int | None = None, words: Examples = GENERIC
) -> StealRecord:
    """The gear ``defender`` took in defence: ``"red from feet"`` when the attacker is known,
    else ``"red from robot 1 circuit"``.

    >>> steal = parse_steal("red from robot 1 circuit", 2)
    >>> steal.defender, steal.attacker, steal.source, str(steal.gear)
    (2, 1, 'circuit', 'red')
    >>> parse_steal("red from robot 3 feet", 2, attacker=1)
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: this question is about robot 1, not robot 3
    """
    match = _STEAL.fullmatch(forgiving(text))
    if match is None:
        raise InvalidStateError(f"{show(text)} is not a defence steal: {words.steal_shape}")
    gear_text, robot_text, source = match.groups()
    named = parse_robot(robot_text) if robot_text is not None else None
    if named is None and attacker is None:
        raise InvalidStateError(
            f"{show(text)} does not say which attacker: write "
            f"'{words.gear} from robot {words.other} circuit'"
        )
    if named is not None and attacker is not None and named != attacker:
        raise InvalidStateError(f"this question is about robot {attacker}, not robot {named}")
    taken_from = named if named is not None else attacker
    assert taken_from is not None
    # _STEAL matches only "feet" or "circuit" as the source.
    gear = words.table_gear(gear_text)
    return StealRecord(defender, taken_from, source, gear)  # type: ignore[arg-type]


def parse_drawn(text: str, words: Examples = GENERIC) -> Gear | None:
    """What was turned up onto a dump: a gear, or ``None`` for ``"none"`` (the reserve was
    empty).

    >>> parse_drawn("red"), parse_drawn("none")
    (Gear(1), None)
    """
    said = forgiving(text)
    return None if said in ("none", "nothing") else words.table_gear(said)


def parse_shares(text: str, words: Examples = GENERIC) -> dict[int, tuple[Gear, ...]]:
    """Each taker's share of a split: ``"1:red+yellow, 2:blue"``; ``"3:none"`` for nothing.

    >>> shares = parse_shares("1: red, yellow, 2:blue")
    >>> {robot: [str(g) for g in gears] for robot, gears in shares.items()}
    {1: ['red', 'yellow'], 2: ['blue']}
    >>> parse_shares("1:red, 1:blue")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: robot 1's share is given twice
    """
    starts = list(_SHARE_START.finditer(text))
    if not starts or text[: starts[0].start()].strip():
        raise InvalidStateError(f"{show(text)} is not a split: {words.split_shape}")
    shares: dict[int, tuple[Gear, ...]] = {}
    for index, start in enumerate(starts):
        robot = parse_robot(start.group(1))
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        if robot in shares:
            raise InvalidStateError(f"robot {robot}'s share is given twice")
        shares[robot] = parse_gear_list(text[start.end() : end], words)
    return shares


def parse_split_place(text: str) -> Place:
    """The place of a split: a dump or a robot's feet (``"dump 4"``, ``"robot 3 feet"``).

    >>> str(parse_split_place("dump 4"))
    'dump 4'
    >>> parse_split_place("robot 3 circuit")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: a split is of a dump or a robot's feet ('dump 4', 'robot 3 feet'), not robot 3 circuit
    """
    place = parse_place(forgiving(text))
    if place.kind not in (PlaceKind.DUMP, PlaceKind.FEET):
        raise InvalidStateError(
            f"a split is of a dump or a robot's feet ('dump 4', 'robot 3 feet'), not {place}"
        )
    return place


def add_recorded(
    recorded: Recorded, text: str, players: tuple[str, ...], words: Examples = GENERIC
) -> Recorded:
    """``recorded`` with one more value the players wrote down: ``"robot 3 feet=red"``,
    ``"robot 3 circuit=none"``, ``"dump 4=blue"`` or ``"score Ada=12"``.

    >>> one = add_recorded(Recorded(), "robot 3 feet=red, red", ("Ada",))
    >>> two = add_recorded(one, "score Ada=12", ("Ada",))
    >>> [str(g) for g in two.robots[3].feet], two.robots[3].circuit, two.scores
    (['red', 'red'], None, {'Ada': 12})
    >>> add_recorded(two, "score Bo=3", ("Ada",))
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "Bo" is not a player of this game (players: Ada)
    """
    if "=" not in text and ":" in text:
        text = text.replace(":", "=", 1)  # "score Ada: 12", "Ada: 12"
    key, value = split_keyed(text, "a recorded value", words.recorded_shape)
    first, _, rest = key.partition(" ")
    if first.lower() in SCORE_WORDS:
        name = player_named(rest, players)
        return attrs.evolve(recorded, scores={**recorded.scores, name: parse_score(value)})
    if not _PLACE_START.match(forgiving(key)) and _is_player(key, players):
        name = player_named(key, players)  # "Ada=12": a player's name, so a score
        return attrs.evolve(recorded, scores={**recorded.scores, name: parse_score(value)})
    place = recorded_place(key, words)
    gears = parse_gear_list(value, words)
    if place.kind is PlaceKind.DUMP:
        return attrs.evolve(recorded, dumps={**recorded.dumps, place.number: gears})
    robot = recorded.robots.get(place.number, RobotGears())
    robot = attrs.evolve(robot, **{place.kind.value: gears})
    return attrs.evolve(recorded, robots={**recorded.robots, place.number: robot})


#: The first words of a score written down, in English (``score Ada=12``, ``points Ada=12``).
SCORE_WORDS: Final = ("score", "points", "point")
#: The start of a place's name in an answer already in English words.
_PLACE_START: Final = re.compile(r"(robot|dump)\s*\d")


def _is_player(text: str, players: tuple[str, ...]) -> bool:
    """Whether ``text`` names one of ``players`` (as :func:`player_named` reads it)."""
    try:
        player_named(text, players)
    except InvalidStateError:
        return False
    return True


def player_named(text: str, players: tuple[str, ...]) -> str:
    """The player ``text`` names: exactly, or in another case when only one player's name
    reads so.

    >>> player_named("ada", ("Ada", "Bo")), player_named("Ada", ("Ada", "ADA"))
    ('Ada', 'Ada')
    >>> player_named("lea", ("Léa", "Bo"))
    'Léa'

    A name without its accents or in another case is read when only one player's name reads
    so.
    """
    name = text.strip()
    if name in players:
        return name
    alike = [player for player in players if player.casefold() == name.casefold()]
    if len(alike) == 1:
        return alike[0]
    plain = [player for player in players if _letters(player) == _letters(name)]
    if len(plain) == 1:  # "lea" for Léa
        return plain[0]
    raise InvalidStateError(
        f"{show(name)} is not a player of this game (players: {', '.join(players)})"
    )


def recorded_place(text: str, words: Examples = GENERIC) -> Place:
    """The place of a recorded value: ``"robot 3 feet"``, ``"robot 3 circuit"``, ``"dump 4"``.

    >>> str(recorded_place("robot  3 circuit"))
    'robot 3 circuit'
    >>> recorded_place("robot 9 feet")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "9" is not a robot: robots are numbered 1-8
    """
    said = forgiving(text).split()
    if len(said) == 3 and said[0] == "robot" and said[2] in ("feet", "circuit"):
        parse_robot(said[1])
    elif len(said) == 2 and said[0] == "dump":
        parse_robot(said[1])  # dumps are numbered like the robots
    try:
        place = parse_place(" ".join(said))
    except InvalidStateError:
        raise InvalidStateError(
            f"{show(text)} is not a recorded value: {words.recorded_shape}"
        ) from None
    if place.kind is PlaceKind.RESERVE:
        raise InvalidStateError(f"the reserve is not recorded: {words.recorded_shape}")
    return place


def parse_score(text: str) -> int:
    """A score a player wrote down: a whole number of points.

    >>> parse_score("12")
    12
    >>> parse_score("twelve")
    Traceback (most recent call last):
    ...
    outofgears.errors.InvalidStateError: "twelve" is not a score: a score is a whole number of points
    """
    word = text.strip()
    if not (word.isascii() and word.isdigit()) or len(word) > 5:
        raise InvalidStateError(f"{show(word)} is not a score: a score is a whole number of points")
    return int(word)
