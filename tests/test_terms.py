"""The term list (spec/terms.toml): each Italian and French word is its rulebook's own, on the
line given, or marked as the project's; every concept the players meet is there."""

from __future__ import annotations

import pytest

from tests.terms import OURS, RULEBOOKS, book_text, line_of, pin_problem, source_lines, terms

KINDS = {"piece", "card", "colour", "place", "phase", "term"}


@pytest.mark.parametrize("lang", ["it", "fr"])
def test_every_word_stands_in_its_rulebook_on_its_line_as_that_term(lang: str) -> None:
    book = RULEBOOKS[lang]
    if not book.exists():
        pytest.skip(f"no rulebook at {book} (set OUTOFGEARS_RULES)")
    text = book_text(book)
    problems = [
        problem
        for term in terms()
        if term[f"{lang}_line"] != OURS
        for problem in [pin_problem(term, lang, text)]
        if problem
    ]
    assert not problems, "\n".join(problems)


def test_a_homograph_on_another_clause_s_line_does_not_pass() -> None:
    """AVANZATE of the heading REGOLE AVANZATE (line 1 here, the variant's clause) is not the
    leftovers of a split (line 3, the split's clause): the word stands on both lines, only the
    split's passes."""
    text = "regole avanzate\naltro\nle rotelle avanzate restano"
    leftovers = {"en": "leftovers", "it": "avanzate", "clauses": ["SPL-3"]}
    assert line_of("avanzate", text) == 1
    assert pin_problem({**leftovers, "it_line": 1}, "it", text) is not None
    assert pin_problem({**leftovers, "it_line": 2}, "it", text) is not None
    split_line = min(source_lines()["IT-SPLIT-3"])
    real = "\n" * (split_line - 1) + "le rotelle avanzate restano"
    assert pin_problem({**leftovers, "it_line": split_line}, "it", real) is None
    heading = min(source_lines()["IT-ADV-1"])
    fake = "\n" * (heading - 1) + "regole avanzate"
    assert pin_problem({**leftovers, "it_line": heading}, "it", fake) is not None


def test_the_check_wants_whole_words() -> None:
    """A word that only begins a rulebook's word is not its word (circuito, Circuito Interno)."""
    text = "prende la tessera circuito interno e le discariche"
    assert line_of("circuito interno", text) == 1
    assert line_of("discarica", text) is None
    assert line_of("circuit", text) is None


def test_each_term_is_complete_and_of_a_known_kind() -> None:
    keys = {"kind", "en", "it", "it_line", "fr", "fr_line", "meaning", "clauses"}
    optional = {"it_printed", "fr_printed"}
    problems = [
        f"{term.get('en')}: keys {sorted(set(term) ^ keys)}, kind {term.get('kind')!r}"
        for term in terms()
        if not keys <= set(term) <= keys | optional or term["kind"] not in KINDS
    ]
    problems += [
        f"{term['en']}: {lang}_line is {term[f'{lang}_line']!r}"
        for term in terms()
        for lang in ("it", "fr")
        if term[f"{lang}_line"] != OURS
        and not (isinstance(term[f"{lang}_line"], int) and term[f"{lang}_line"] > 0)
    ]
    assert not problems, "\n".join(problems)


def test_the_list_covers_every_colour_card_phase_and_place() -> None:
    english = {term["en"] for term in terms()}
    wanted = {
        *(["red", "orange", "yellow", "green", "blue", "purple", "grey", "white"]),
        *("attack card", "trap card", "harvest card", "number card", "action card"),
        *("Super Harvest", "Super Attack", "Super Trap", "Super Shovel", "Counter Defence"),
        *("setup", "programming", "activation", "assembly", "exploration", "end of the game"),
        *("dump", "reserve", "internal circuit", "Jolly gear", "3-point gear", "partner"),
        "tie-break",
    }
    assert wanted <= english, sorted(wanted - english)
    assert len(english) == len(terms()), "an English word is listed twice"


def test_the_project_s_words_are_the_ones_no_rulebook_has() -> None:
    """The colours are the project's in both languages (R-COLOURS); the Italian upgrade cards
    are ours (the Italian rulebook sends players to a website for them)."""
    by_english = {term["en"]: term for term in terms()}
    for colour in ["red", "orange", "yellow", "green", "blue", "purple", "grey", "white"]:
        assert by_english[colour]["it_line"] == by_english[colour]["fr_line"] == OURS
    for card in ("Super Harvest", "Super Attack", "Super Shovel", "Counter Defence"):
        assert by_english[card]["it_line"] == OURS
        assert by_english[card]["fr_line"] != OURS
    assert by_english["exploration"]["fr"] == "Réapprovisionnement"
    assert by_english["internal circuit"]["it"] == "Circuito Interno"


def test_the_catalogues_say_the_term_lists_words() -> None:
    """explain and the viewer name the cards, the places and the colours as the term list does
    (the Italian colours agree with rotella, so they are checked by their stem)."""
    from outofgears.rules.model import Place, UpgradeCard
    from outofgears.rules.programs import Action
    from outofgears.words import card_name, colour_name, place_text

    by_english = {term["en"]: term for term in terms()}
    cards: dict[str, Action | UpgradeCard] = {
        "attack card": Action.ATTACK,
        "trap card": Action.TRAP,
        "harvest card": Action.HARVEST,
        "Super Harvest": UpgradeCard.SUPER_HARVEST,
        "Super Attack": UpgradeCard.SUPER_ATTACK,
        "Super Trap": UpgradeCard.SUPER_TRAP,
        "Super Shovel": UpgradeCard.SUPER_SHOVEL,
        "Counter Defence": UpgradeCard.COUNTER_DEFENCE,
    }
    places = {"dump": Place.dump(4), "internal circuit": Place.circuit(2)}
    colours = ["red", "orange", "yellow", "green", "blue", "purple", "grey", "white"]
    for lang in ("it", "fr"):
        for english, card in cards.items():
            assert card_name(card, lang) == by_english[english][lang]
        for english, place in places.items():
            assert by_english[english][lang].casefold() in place_text(place, lang).casefold()
        assert (
            place_text(Place.reserve(), lang).casefold() == by_english["reserve"][lang].casefold()
        )
        for number, english in enumerate(colours, start=1):
            word = by_english[english][lang]
            assert colour_name(number, lang).startswith(word[: max(3, len(word) - 1)])
