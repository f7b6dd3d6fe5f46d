"""The players' words (outofgears.words): catalogues complete, in step with the code and compiled;
English exactly as the events print themselves; Italian and French with no English left."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import attrs
import pytest
from babel.messages.catalog import Catalog

from outofgears.clauses import paraphrases
from outofgears.errors import InvalidStateError
from outofgears.judge.replay import Replay, replay_log
from outofgears.log import GameLog, Recorded
from outofgears.log.reading import read_log
from outofgears.rules.events import Event
from outofgears.rules.gears import ROBOT_NUMBERS, Gear, gears
from outofgears.rules.model import Place, UpgradeCard
from outofgears.rules.refusals import Refusal
from outofgears.words import (
    LANGUAGES,
    card_name,
    colour_name,
    event_text,
    gears_text,
    translator,
)
from outofgears.words.findings import refusal_text
from tests import sync_catalogues
from tests.clause_map import REPO_ROOT

EXAMPLES = sorted((REPO_ROOT / "examples").glob("*.log.json"))
FIELD = re.compile(r"\{[a-z_]*\}")


@cache
def shipped_replays() -> tuple[tuple[str, Replay], ...]:
    """Every shipped example log, replayed: its file name and its replay."""
    return tuple((path.name, replay_log(read_log(path), path.name)) for path in EXAMPLES)


def shipped_events() -> tuple[Event, ...]:
    """Every event of every turn of the shipped example logs."""
    return tuple(
        event
        for _, replayed in shipped_replays()
        for turn in replayed.turns
        for event in turn.result.events
    )


def test_the_catalogues_are_in_step_with_the_code() -> None:
    stale = [str(path.relative_to(REPO_ROOT)) for path in sync_catalogues.stale_files()]
    assert not stale, f"run python -m tests.sync_catalogues: {stale} out of step"


def test_the_step_check_sees_a_changed_translation() -> None:
    catalogue = sync_catalogues.read_catalogue("it")
    before = sync_catalogues.compiled(sync_catalogues.mo_bytes(catalogue))
    message = next(m for m in catalogue if m.id == "reserve")
    message.string = "magazzino"
    assert sync_catalogues.compiled(sync_catalogues.mo_bytes(catalogue)) != before


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_message_is_translated_with_its_fields(lang: str) -> None:
    catalogue: Catalog = sync_catalogues.read_catalogue(lang)
    problems: list[str] = []
    for message in catalogue:
        if not message.id:
            continue
        ids = tuple(message.id) if isinstance(message.id, tuple | list) else (message.id,)
        strings = (
            tuple(message.string) if isinstance(message.string, tuple | list) else (message.string,)
        )
        if message.fuzzy or not all(strings):
            problems.append(f"{message.id!r}: untranslated or fuzzy")
        fields = set(FIELD.findall(ids[0]))
        problems += [
            f"{message.id!r}: {text!r} has fields {sorted(FIELD.findall(text))}"
            for text in strings
            if text and set(FIELD.findall(text)) != fields
        ]
    assert not problems, "\n".join(problems)


def test_english_events_read_exactly_as_they_print() -> None:
    events = shipped_events()
    assert len(events) > 500
    assert [event_text(event, "en") for event in events] == [str(event) for event in events]


#: English words of the event lines that neither Italian nor French uses.
ENGLISH_WORDS = frozenset(
    " ".join(
        (
            "gear gears feet circuit dump reserve attack trap harvest shared each left ended",
            "game over none red orange yellow green blue purple grey white discarded by",
            "defended voided hit sprang harvested shovel shovelled counter defence super turn",
            "nobody",
        )
    ).split()
)


#: The English words that are also the language's own (the card names' "Super").
SHARED_WORDS = {"it": {"super"}, "fr": {"super", "circuit", "orange", "clause", "scores"}}


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_no_english_word_is_left_in_an_event(lang: str) -> None:
    left = {
        word
        for event in shipped_events()
        for word in re.findall(r"[a-z]+", event_text(event, lang).split(" [")[0].lower())
        if word in ENGLISH_WORDS - SHARED_WORDS[lang]
    }
    assert not left, f"English in the {lang} events: {sorted(left)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_eight_colours_have_eight_names_in_each_number(lang: str) -> None:
    for count in (1, 2):
        names = {colour_name(colour, lang, count) for colour in ROBOT_NUMBERS}
        assert len(names) == 8, names


def test_gears_are_counted_with_their_plural() -> None:
    assert gears_text(gears(1, 1, 3), "it") == "2 rosse, 1 gialla"
    assert gears_text(gears(4, 4, 4, 5), "fr") == "3 verts, 1 bleu"
    assert gears_text((Gear(2),), "fr") == "1 orange"


def test_the_upgrade_cards_have_five_names_in_each_language() -> None:
    for lang in LANGUAGES:
        assert len({card_name(card, lang) for card in UpgradeCard}) == 5


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(InvalidStateError, match="not 'de'"):
        translator("de")


# --- no English left in what an Italian or French player reads -----------------------------------

#: A ``{field}`` of a message; a clause ID (``ASM-1``, ``IT-TRAP-3``); the game's English title,
#: a proper name; an option in backquotes or as the command line writes it, with its value.
_FIELDS = re.compile(r"\{[a-z_]*\}")
_IDS = re.compile(r"\b[A-Z]+(?:-[A-Z0-9]+)+\b")
_NAMES = re.compile(r"Out of Gears|`[^`]*`|--[a-z][a-z-]*|\b\w+='\w+'|\b[a-z]+_[a-z_]+\b")
_WORD = re.compile(r"[^\W\d_]+")


def words_of(text: str) -> set[str]:
    """The words of a text, lower case: fields, IDs, the title and options left out."""
    text = _IDS.sub(" ", _NAMES.sub(" ", _FIELDS.sub(" ", text)))
    return {word.lower() for word in _WORD.findall(text)}


def _texts(message: Any) -> tuple[str, ...]:
    return message if isinstance(message, tuple) else (message,)


@cache
def english_words() -> frozenset[str]:
    """Every word of the English messages: the code's messages and the clause titles, as
    Babel extracts them for the catalogues."""
    found: set[str] = set()
    for message in sync_catalogues.extracted():
        if message.id:
            for text in _texts(message.id):
                found |= words_of(text)
    return frozenset(found)


@cache
def language_words(lang: str) -> frozenset[str]:
    """Every word of a language's catalogue and of its paraphrases."""
    found: set[str] = set()
    for message in sync_catalogues.read_catalogue(lang):
        if message.id:
            for text in _texts(message.string):
                found |= words_of(text)
    for texts in paraphrases().values():
        found |= words_of(texts.get(lang, ""))
    return frozenset(found)


#: The English words that are also the language's own, each read and accepted: a new one
#: (an English message copied as its translation, say) fails
#: :func:`test_the_words_english_shares_with_each_language_are_reviewed` until it is read.
REVIEWED_SHARED = {
    "it": frozenset(
        [
            "a",
            "base",
            "c",
            "ctrl",
            "d",
            "fr",
            "home",
            "in",
            "it",
            "j",
            "jolly",
            "k",
            "n",
            "no",
            "per",
            "quota",
            "robot",
            "sigterm",
            "super",
            "view",
            "x",
        ]
    ),
    "fr": frozenset(
        " ".join(
            (
                "a action assemble base change circuit clause fr it j jolly k note orange phases place places",
                "point points position positions possible robot robots s score scores super",
                "table version view x n page face trio",
                "c ctrl sigterm d",
                "branches",
            )
        ).split()
    ),
}


def foreign_english(lang: str) -> frozenset[str]:
    """The English words an Italian or French report must not hold: the words of the English
    messages less those the language has too."""
    return english_words() - language_words(lang)


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_the_words_english_shares_with_each_language_are_reviewed(lang: str) -> None:
    shared = english_words() & language_words(lang)
    assert shared <= REVIEWED_SHARED[lang], sorted(shared - REVIEWED_SHARED[lang])
    assert len(foreign_english(lang)) > 250


def english_left(lines: list[str], lang: str, names: set[str]) -> dict[str, str]:
    """Each English word of ``lines`` (outside proper names, IDs, numbers, JSON paths, file
    names and options), with a line it stands in."""
    english = foreign_english(lang)
    names = {name.lower() for name in names}
    left: dict[str, str] = {}
    for line in lines:
        text = re.sub(r"\$\S*|\S+\.log\.json", " ", line)
        for word in words_of(text) - names:
            if word in english:
                left.setdefault(word, line)
    return left


def shipped_reports(lang: str) -> list[tuple[str, list[str], set[str]]]:
    """What a player reads of every shipped example in ``lang``: ``explain`` of every turn,
    ``replay``'s whole report, and the scores-only example's undecided report (``--max-open
    4``); each with the example's player names."""
    from outofgears.cli.explain import explain_text
    from outofgears.cli.replay import replay_text
    from outofgears.judge.explanation import explain_replayed

    reports = []
    for name, replayed in shipped_replays():
        names = {player.name for player in replayed.start.players}
        for turn in replayed.turns:
            reports.append(
                (
                    f"explain {name} --turn {turn.turn}",
                    explain_text(explain_replayed(replayed, turn.turn, source=name, lang=lang)),
                    names,
                )
            )
        reports.append((f"replay {name}", replay_text(replayed, name, lang=lang), names))
    scores_only = REPO_ROOT / "examples" / "scores-only.log.json"
    undecided = replay_log(read_log(scores_only), scores_only.name, max_open=4)
    assert undecided.verdict == "undecided"
    names = {player.name for player in undecided.start.players}
    reports.append(
        ("replay --max-open 4", replay_text(undecided, scores_only.name, lang=lang), names)
    )
    return reports


def test_the_shipped_reports_show_every_kind_of_verdict() -> None:
    """The check below reads departures, inferred choices, open positions and an undecided
    log, not only games that agree."""
    text = "\n".join(line for _, lines, _ in shipped_reports("en") for line in lines)
    for seen in (
        "DEPARTS FROM THE RULES",
        "the rules allowed:",
        "why:",
        "inferred:",
        "Left open:",
        "The log is undecided",
        "Winner:",
        "Leading:",
    ):
        assert seen in text, seen


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_the_shipped_examples_read_in_italian_and_french_hold_no_english_word(lang: str) -> None:
    """``explain --lang`` of every turn and ``replay --lang`` of every shipped example (those
    that depart, leave positions open or are undecided included): no English word."""
    found = {
        word: f"{report}: {line!r}"
        for report, lines, names in shipped_reports(lang)
        for word, line in english_left(lines, lang, names).items()
    }
    assert not found, "\n".join(f"{word!r} in {where}" for word, where in sorted(found.items()))


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_the_english_check_finds_a_planted_english_line(lang: str) -> None:
    report, lines, names = shipped_reports(lang)[0]
    assert not english_left(lines, lang, names), report
    planted = [*lines, "  the rules allowed: robot 2 could assemble any of: red + red"]
    assert {"rules", "allowed", "could", "assemble", "red"} - REVIEWED_SHARED[lang] <= set(
        english_left(planted, lang, names)
    )
    assert set(english_left(["Winner: Ada"], lang, {"Ada"})) == {"winner"}


def test_the_english_check_finds_the_english_reports() -> None:
    """The English reports are full of the words the check looks for (in French, less the
    words French shares)."""
    for lang in LANGUAGES[1:]:
        found = {
            word
            for _, lines, names in shipped_reports("en")
            for word in english_left(lines, lang, names)
        }
        assert {"departs", "allowed", "inferred", "undecided", "feet", "leading"} <= found


# --- the rules' refusals of a choice, in the reader's language ------------------------------------

#: A value for each field the rules' refusals name.
REFUSAL_FIELDS: dict[str, Any] = {
    "attacker": 2,
    "defender": 1,
    "gear": Gear(1),
    "source": "circuit",
    "place": Place.dump(3),
    "takers": "[1, 2]",
    "proposed": "[1, 3]",
    "size": 2,
    "count": 2,
    "needed": 3,
    "quota": 1,
    "own": 0,
    "share": 2,
    "got": 1,
    "missing": gears(5),
    "chosen": gears(1, 5),
    "feet": gears(1, 2, 2),
}


def refusal_messages() -> list[Refusal]:
    """Every refusal the rules can raise, from Babel's extraction of their calls, with a
    value in each field."""
    found = []
    for message in sync_catalogues.extracted():
        if not any("outofgears/rules/" in where for where, _ in message.locations):
            continue
        texts = _texts(message.id)
        singular, plural = str(texts[0]), (str(texts[1]) if len(texts) > 1 else None)
        names = re.findall(r"\{([a-z_]+)\}", singular)
        fields = tuple((name, REFUSAL_FIELDS[name]) for name in names)
        found.append(Refusal(singular, fields, plural, 2))
    return found


def test_every_rule_refuses_a_choice_through_its_refusal() -> None:
    """No rules module raises IllegalChoiceError with only an English sentence."""
    direct = [
        f"{path.name}:{number}"
        for path in sorted((REPO_ROOT / "outofgears" / "rules").glob("*.py"))
        if path.name != "refusals.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if "IllegalChoiceError(" in line and not line.lstrip().startswith((">>>", "#"))
    ]
    assert not direct, direct
    assert len(refusal_messages()) >= 13


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_refusal_of_the_rules_reads_with_no_english_word(lang: str) -> None:
    problems = {}
    for refusal in refusal_messages():
        assert refusal_text(refusal, "en") == refusal.english()
        left = english_left([refusal_text(refusal, lang)], lang, set())
        if left:
            problems[refusal.message] = sorted(left)
    assert not problems, problems


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_a_refused_choice_departs_in_the_readers_language(lang: str) -> None:
    """A log whose defence steal the rules refuse: explain and replay say why in ``lang``."""
    from outofgears.cli.explain import explain_text
    from outofgears.cli.replay import replay_text
    from outofgears.judge.explanation import explain_replayed
    from outofgears.log import ChoicesRecord, GameLog, Start, StealRecord, TurnRecord
    from outofgears.rules.programs import parse_program

    log = GameLog(
        players={"Ada": (1,), "Bo": (2,)},
        start=Start(seed=1),
        turns=(
            TurnRecord(
                1,
                {1: parse_program("harvest 1"), 2: parse_program("harvest 2")},
                ChoicesRecord(defence_steals=(StealRecord(2, 1, "feet", Gear(1)),)),
            ),
        ),
    )
    replayed = replay_log(log, "refused.log.json")
    [departure] = replayed.departures
    assert departure.why is not None
    assert departure.reason is not None
    assert "did not attack" in departure.reason
    lines = [
        *explain_text(
            explain_replayed(replayed, replayed.turns[0].turn, source="refused.log.json", lang=lang)
        ),
        *replay_text(replayed, "refused.log.json", lang=lang),
    ]
    assert not english_left(lines, lang, {"Ada", "Bo"}), lines


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_the_notes_on_an_older_spec_version_read_in_the_readers_language(lang: str) -> None:
    from outofgears.cli.explain import explain_text
    from outofgears.cli.replay import replay_text
    from outofgears.judge.explanation import explain_replayed
    from outofgears.log import GameLog, Start, TurnRecord, WrittenBy
    from outofgears.rules.programs import parse_program

    log = GameLog(
        players={"Ada": (1,), "Bo": (2,)},
        start=Start(seed=1),
        turns=(TurnRecord(1, {1: parse_program("harvest 1"), 2: parse_program("harvest 2")}),),
        written_by=WrittenBy("0.1.0", "1.1"),
    )
    replayed = replay_log(log, "old.log.json")
    assert len(replayed.notes) == 2
    lines = [
        *explain_text(
            explain_replayed(replayed, replayed.turns[0].turn, source="old.log.json", lang=lang)
        ),
        *replay_text(replayed, "old.log.json", lang=lang),
    ]
    assert sum("1.1" in line for line in lines) == 2
    assert not english_left(lines, lang, {"Ada", "Bo"}), lines


def perturbed_game(seed: int) -> GameLog:
    """A short three-robot game, its choices random legal ones, every value recorded; then in
    its last turn a gear written at another robot's feet, or a score one point high."""
    from outofgears.judge.start import start_state
    from outofgears.log import RobotGears, Start, TurnRecord
    from outofgears.play.policies import random_programs
    from outofgears.rules.legal import legal_choices
    from outofgears.rules.scoring import player_scores
    from outofgears.rules.turn import resolve_turn

    rng = random.Random(seed)
    log = GameLog(players={"Ada": (1,), "Bo": (2,), "Cy": (3,)}, start=Start(seed=seed))
    state = start_state(log)
    turns = []
    for _ in range(rng.randint(2, 5)):
        programs = random_programs(state, rng)
        result = resolve_turn(state, programs, choices=legal_choices(state, programs).sample(rng))
        after = result.state
        recorded = Recorded(
            robots={r.number: RobotGears(r.feet, r.circuit) for r in after.robots},
            scores={score.player: score.points for score in player_scores(after)},
        )
        turns.append(TurnRecord(state.turn, programs, None, recorded))
        state = after
        if state.game_over:
            break
    last = turns[-1].recorded
    assert last is not None
    recorded = last
    robots = dict(recorded.robots)
    giver, taker = rng.sample(sorted(robots), 2)
    feet, circuit = robots[giver].feet or (), robots[giver].circuit
    if rng.random() < 0.7 and feet:
        robots[giver] = RobotGears(feet[1:], circuit)
        robots[taker] = RobotGears((*(robots[taker].feet or ()), feet[0]), robots[taker].circuit)
        recorded = attrs.evolve(recorded, robots=robots)
    else:
        scores = dict(recorded.scores)
        scores["Bo"] += 1
        recorded = attrs.evolve(recorded, scores=scores)
    return attrs.evolve(log, turns=(*turns[:-1], attrs.evolve(turns[-1], recorded=recorded)))


def test_generated_departures_of_every_kind_read_with_no_english_word() -> None:
    """Departures the shipped examples do not have: sixty short games, each with one recorded
    value changed; every departure's report in Italian and French holds no English word, and
    in English it carries the judge's English attributes."""
    from outofgears.words.findings import departure_lines

    kinds: set[str] = set()
    count = 0
    for seed in range(60):
        for departure in replay_log(perturbed_game(seed)).departures:
            count += 1
            kinds |= {type(departure.why).__name__}
            kinds |= {type(option).__name__ for option in departure.options or ()}
            english = departure_lines(departure, "en")
            assert f"  recorded:       {departure.recorded}" in english
            if departure.allowed is not None:
                assert f"  the rules allowed: {departure.allowed}" in english
            for lang in LANGUAGES[1:]:
                lines = departure_lines(departure, lang)
                assert not english_left(lines, lang, {"Ada", "Bo", "Cy"}), lines
    assert count >= 50
    assert {
        "AssemblyOptions",
        "StealOptions",
        "SplitOptions",
        "SplitQuotas",
        "ClosestOutcome",
        "ScoreCount",
    } <= kinds, kinds
