"""The players' words (outofgears.words): catalogues complete, in step with the code and compiled;
English exactly as the events print themselves; Italian and French with no English left."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.catalog import Catalog

from outofgears.errors import InvalidStateError
from outofgears.judge.replay import Replay, replay_log
from outofgears.log.reading import read_log
from outofgears.rules.events import Event
from outofgears.rules.gears import ROBOT_NUMBERS, Gear, gears
from outofgears.rules.model import UpgradeCard
from outofgears.words import (
    LANGUAGES,
    card_name,
    colour_name,
    event_text,
    gears_text,
    translator,
)
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


#: The English words of an explanation's frame: headers, positions, choices, departures.
FRAME_WORDS = frozenset(
    " ".join(
        (
            "programs choices log before after events followed clause behind next scores",
            "agrees rules departs departures note earlier engine policy rulebook italian",
            "french defends takes assembles upgrade cards held inferred recorded open",
            "positions agree report assembled would have taken took default steal give",
            "allowed because why nothing of the from and with at",
        )
    ).split()
)


def explanation_words(lang: str) -> dict[str, str]:
    """Every word of ``explain --lang`` of every turn of the shipped examples, with a line it
    stands in; proper names, IDs, options, JSON paths and the judge's own reasons left out."""
    from outofgears.cli.explain import explain_text

    t = translator(lang)
    judges = tuple(
        t.gettext(label).split("{")[0].strip()
        for label in ("why: {reason}", "the rules allowed: {allowed}")
    )
    seen: dict[str, str] = {}
    for name, replayed in shipped_replays():
        names = {player.name for player in replayed.start.players}
        for turn in replayed.turns:
            lines = explain_text(replayed, turn, name, lang)
            # an option in backquotes may be wrapped over two lines
            text = re.sub(r"`[^`]*`", "", "\n".join(lines))
            for line in text.splitlines():
                if line.strip().startswith(judges):
                    continue
                text = re.sub(r"\$\S*|\S+\.log\.json|\b[A-Z]+(?:-[A-Z0-9]+)+\b", "", line)
                for word in re.findall(r"[A-Za-z]+", text):
                    if word not in names:
                        seen.setdefault(word.lower(), line)
    return seen


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_explain_of_the_shipped_examples_leaves_no_english_word(lang: str) -> None:
    """Every turn of every shipped example, explained in Italian or French: no English word of
    the events or the frame is left (the judge's reasons for a departure aside)."""
    english = (ENGLISH_WORDS | FRAME_WORDS) - SHARED_WORDS[lang]
    left = {word: line for word, line in explanation_words(lang).items() if word in english}
    assert not left, "\n".join(f"{word!r} in {line!r}" for word, line in sorted(left.items()))


def test_the_english_check_sees_an_english_explanation() -> None:
    english = ENGLISH_WORDS | FRAME_WORDS
    assert {"programs", "feet", "reserve", "events"} <= explanation_words("en").keys() & english
