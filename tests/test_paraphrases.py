"""The paraphrases of spec/paraphrases.toml: complete, in three languages, our own words.

Every clause of ``spec/clauses.toml`` has a paraphrase in English, Italian and French, in the
map's order; no other clause does; none repeats eight words of a rulebook; and the package
carries the file unchanged (``python -m tests.sync_clause_map`` copies it). Each paraphrase
names only the numbers and IDs of its spec clause, options as a player types them, the ruling
where it follows one against its reader's rulebook, and no word that rulebook lacks.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from functools import cache
from typing import Any

import pytest

from outofgears.clauses import LANGUAGES, clauses, paraphrase, paraphrases
from tests.clause_map import CLAUSE_MAP, REPO_ROOT, load_clause_map, shared_rules_dir

PARAPHRASES = REPO_ROOT / "spec" / "paraphrases.toml"
PACKAGED = REPO_ROOT / "outofgears" / "_spec" / "paraphrases.toml"

#: The length of a run of words that counts as copied from a rulebook.
RUN = 8
#: The longest paraphrase accepted, in characters (one to three sentences).
MAX_CHARS = 500


@cache
def table() -> dict[str, Any]:
    return tomllib.loads(PARAPHRASES.read_text(encoding="utf-8"))


@cache
def map_ids() -> tuple[str, ...]:
    return tuple(clause.id for clause in load_clause_map(CLAUSE_MAP))


def words(text: str) -> list[str]:
    """Lower-case words, punctuation and spacing dropped, accents in one normal form.

    >>> words("L'Attaque  -- réussit!")
    ['l', 'attaque', 'réussit']
    """
    return re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold())


def runs(text: str, size: int = RUN) -> set[tuple[str, ...]]:
    """Every run of ``size`` consecutive words of ``text``.

    >>> sorted(runs("a b c", 2))
    [('a', 'b'), ('b', 'c')]
    """
    items = words(text)
    return {tuple(items[i : i + size]) for i in range(len(items) - size + 1)}


def test_every_clause_has_a_paraphrase_in_each_language() -> None:
    problems = [
        f"{clause_id}: no {lang!r} paraphrase"
        for clause_id in map_ids()
        for lang in LANGUAGES
        if not isinstance(table().get(clause_id, {}).get(lang), str)
    ]
    assert not problems, "\n".join(problems)


def test_no_paraphrase_names_an_unknown_clause() -> None:
    unknown = sorted(set(table()) - set(map_ids()))
    assert not unknown, f"paraphrases of clauses that {CLAUSE_MAP.name} does not have: {unknown}"


def test_each_clause_has_only_the_three_languages() -> None:
    problems = [
        f"{clause_id}: unexpected key(s) {sorted(set(entry) - set(LANGUAGES))}"
        for clause_id, entry in table().items()
        if set(entry) - set(LANGUAGES)
    ]
    assert not problems, "\n".join(problems)


def test_paraphrases_follow_the_order_of_the_map() -> None:
    assert [cid for cid in table() if cid in map_ids()] == [
        cid for cid in map_ids() if cid in table()
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_paraphrase_is_a_few_plain_sentences(lang: str) -> None:
    problems: list[str] = []
    for clause_id, entry in table().items():
        text = entry.get(lang, "")
        if not text.strip():
            problems.append(f"{clause_id} {lang}: empty")
        elif text != text.strip() or "  " in text or "\n" in text:
            problems.append(f"{clause_id} {lang}: stray spaces or line breaks")
        elif len(text) > MAX_CHARS:
            problems.append(f"{clause_id} {lang}: {len(text)} characters, over {MAX_CHARS}")
        elif not text.endswith((".", "!")):
            problems.append(f"{clause_id} {lang}: does not end a sentence")
    assert not problems, "\n".join(problems)


def test_the_three_languages_differ() -> None:
    """A paraphrase left untranslated would be the same text in two languages."""
    same = [
        clause_id
        for clause_id, entry in table().items()
        if len({entry.get(lang) for lang in LANGUAGES}) < len(LANGUAGES)
    ]
    assert not same, f"paraphrases repeated across languages: {same}"


def test_no_paraphrase_copies_a_rulebook() -> None:
    """No run of eight words of either rulebook appears in any paraphrase."""
    rules = shared_rules_dir()
    books = sorted(rules.glob("*.txt")) if rules.is_dir() else []
    if not books:
        pytest.skip(f"no rulebooks in {rules}")
    copied: dict[tuple[str, ...], str] = {}
    for book in books:
        for run in runs(book.read_text(encoding="utf-8")):
            copied.setdefault(run, book.name)
    problems = [
        f"{clause_id} {lang} repeats {copied[run]}: {' '.join(run)!r}"
        for clause_id, entry in table().items()
        for lang, text in entry.items()
        for run in sorted(runs(text) & copied.keys())
    ]
    assert not problems, "\n".join(problems)


def test_the_copy_check_catches_a_copied_sentence() -> None:
    """The normalisation sees through case, spacing and punctuation."""
    book = "Le joueur prend TOUS les engrenages, de la décharge ciblée et les place."
    mine = "le joueur  prend tous les engrenages de la décharge ciblée... et les place"
    assert runs(mine) & runs(book)


def test_the_package_carries_the_paraphrases_unchanged() -> None:
    assert PACKAGED.is_file(), "run python -m tests.sync_clause_map to copy spec/paraphrases.toml"
    assert PACKAGED.read_bytes() == PARAPHRASES.read_bytes(), (
        "outofgears/_spec/paraphrases.toml differs from spec/: run python -m tests.sync_clause_map"
    )


def test_the_runtime_reader_gives_every_paraphrase() -> None:
    assert set(paraphrases()) == set(clauses()) == set(map_ids())
    for clause_id in map_ids():
        for lang in LANGUAGES:
            assert paraphrase(clause_id, lang) == table()[clause_id][lang]


def test_paraphrase_refuses_an_unknown_language_or_clause() -> None:
    with pytest.raises(ValueError, match="not 'de'"):
        paraphrase("ATK-4", "de")
    with pytest.raises(KeyError):
        paraphrase("ATK-99", "en")


def test_the_default_language_is_english() -> None:
    assert paraphrase("HRV-1") == paraphrase("HRV-1", "en")
    assert paraphrase("HRV-1").startswith("A harvest card")


def test_the_italian_and_french_use_the_games_words() -> None:
    """The Italian says rotella and discarica, the French engrenage and décharge."""
    italian = " ".join(entry["it"] for entry in table().values()).casefold()
    french = " ".join(entry["fr"] for entry in table().values()).casefold()
    for word in ("rotell", "discarica", "circuito interno", "trappola", "raccolta"):
        assert word in italian
    for word in ("engrenage", "décharge", "circuit interne", "piège", "récolte"):
        assert word in french
    assert not {"gear", "gears"} & set(words(italian) + words(french))


#: Number words of the spec's English, read as digits.
NUMBER_WORDS = {
    word: str(value)
    for value, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
}
ID_PATTERN = re.compile(r"\b(?:R-[A-Z]+(?:-[A-Z]+)*|[A-Z]+-\d+)\b")
#: The number words of each language's paraphrases from two on (one is also an article), read
#: as digits; "the two rulebooks" is a name, not a number of the clause.
PARAPHRASE_NUMBER_WORDS = {
    lang: {word: str(value) for value, word in enumerate(spelled.split(), start=2)}
    for lang, spelled in {
        "en": "two three four five six seven eight nine ten eleven twelve",
        "it": "due tre quattro cinque sei sette otto nove dieci undici dodici",
        "fr": "deux trois quatre cinq six sept huit neuf dix onze douze",
    }.items()
}
THE_TWO_RULEBOOKS = re.compile(r"\b(?:dei due regolamenti|des deux règles)\b")


def paraphrase_numbers(text: str, lang: str) -> set[str]:
    """The numbers a paraphrase names, in digits or in its language's words.

    >>> sorted(paraphrase_numbers("prende tre rotelle, 2 punti; nessuno dei due regolamenti", "it"))
    ['2', '3']
    """
    found = set(re.findall(r"(?<![\w-])\d+(?![\w-])", text))
    spelled = PARAPHRASE_NUMBER_WORDS[lang]
    return found | {spelled[w] for w in words(THE_TWO_RULEBOOKS.sub(" ", text)) if w in spelled}


@cache
def spec_sections() -> dict[str, str]:
    """Each clause's section of the spec pages: heading, text, sources and rulings."""
    sections: dict[str, str] = {}
    for clause in load_clause_map(CLAUSE_MAP):
        page = (REPO_ROOT / clause.doc).read_text(encoding="utf-8")
        start = page.index(f"### {clause.id} ")
        end = page.find("\n### ", start + 1)
        sections[clause.id] = page[start : end if end >= 0 else len(page)]
    return sections


def numbers_of(text: str) -> set[str]:
    """The numbers a text names, in digits or (in English) in words.

    >>> sorted(numbers_of("two gears, 3 points, one robot 12"))
    ['1', '12', '2', '3']
    """
    found = set(re.findall(r"(?<![\w-])\d+(?![\w-])", text))
    return found | {NUMBER_WORDS[w] for w in words(text) if w in NUMBER_WORDS}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_paraphrase_names_only_the_numbers_and_ids_of_its_clause(lang: str) -> None:
    """A number or an ID in a paraphrase that its spec clause does not have is a slip."""
    problems: list[str] = []
    for clause_id, entry in table().items():
        section = spec_sections()[clause_id]
        text = entry[lang]
        extra = sorted(paraphrase_numbers(text, lang) - numbers_of(section))
        if extra:
            problems.append(f"{clause_id} {lang}: numbers {extra} not in the clause")
        ids = set(ID_PATTERN.findall(text)) - set(ID_PATTERN.findall(section)) - {clause_id}
        if ids:
            problems.append(f"{clause_id} {lang}: IDs {sorted(ids)} not in the clause")
    assert not problems, "\n".join(problems)


def test_the_number_check_sees_a_wrong_number() -> None:
    section = spec_sections()["ASM-1"]
    assert "3" in numbers_of(section)
    assert "4" not in numbers_of(section)
    for lang, text in (("it", "sposta quattro rotelle"), ("fr", "déplace quatre engrenages")):
        assert paraphrase_numbers(text, lang) - numbers_of(section) == {"4"}


#: Where a paraphrase follows a ruling against what its reader's rulebook says: the clause and
#: language, the ruling, and the option giving the rulebook's reading (None: there is none).
RULINGS_AGAINST_A_RULEBOOK = {
    ("ASM-1", "it"): ("R-ASSEMBLY", "--assembly optional"),
    ("ATK-4", "fr"): ("R-DEFENCE", "--defence-steal-source feet_only"),
    ("END-2", "fr"): ("R-END-CIRCUIT", None),
    ("REF-2", "fr"): ("R-PAD-RESERVE", "--pad-reserve"),
    ("SHOV-1", "fr"): ("R-SHOVEL", None),
}


@pytest.mark.parametrize(("where", "ruling"), sorted(RULINGS_AGAINST_A_RULEBOOK.items()))
def test_a_ruling_against_the_readers_rulebook_is_named_with_its_option(
    where: tuple[str, str], ruling: tuple[str, str | None]
) -> None:
    clause_id, lang = where
    ruling_id, option = ruling
    text = table()[clause_id][lang]
    assert ruling_id in text
    assert ruling_id in clauses()[clause_id].rulings
    if option is not None:
        assert f"`{option}`" in text


def new_command_options() -> dict[str, tuple[str, ...]]:
    """Each option of ``outofgears new``: its choices, or ``()`` for a flag."""
    from outofgears.cli.new import new

    return {
        name: tuple(getattr(param.type, "choices", ()))
        for param in new.params
        for name in param.opts
        if name.startswith("--")
    }


def test_options_are_named_as_a_player_types_them() -> None:
    """Every option in a paraphrase is one of ``outofgears new``, with a value it accepts:
    never a log key such as `assembly` = `optional`."""
    options = new_command_options()
    problems: list[str] = []
    for clause_id, entry in table().items():
        for lang, text in entry.items():
            for span in re.findall(r"`([^`]*)`", text):
                name, _, value = span.partition(" ")
                if name not in options or (value and value not in options[name]):
                    problems.append(f"{clause_id} {lang}: `{span}` is not an option of `new`")
                elif not value and options[name]:
                    problems.append(f"{clause_id} {lang}: `{span}` needs its value")
    assert not problems, "\n".join(problems)


#: Words the reader's rulebook does not have, or that mislead there, and the words the term list
#: (spec/terms.toml) replaced: the French gears "avec" a robot read as gears taken together with
#: it, so the French pages, commands and paraphrases all say "pieds", as the Italian "piedi".
NOT_THE_RULEBOOKS_WORDS = {
    "it": ("precedenza", "scattano per lei", "prenditor", "rifornimento", "programmi", "trio"),
    "fr": (
        *("mise en place", "par tours", "plus petite couleur", "victime", "preneur"),
        *("récolteur", "poseur", "avec son propre robot", "avec leur propre robot", "avec lui"),
        *("avec elle", "avec eux", "avec la victime", "avec l'attaquant", "jokers", "variante"),
    ),
    "en": (),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_paraphrase_uses_a_word_its_rulebook_lacks(lang: str) -> None:
    found = [
        f"{clause_id}: {word!r}"
        for clause_id, entry in table().items()
        for word in NOT_THE_RULEBOOKS_WORDS[lang]
        if word in entry[lang].casefold()
    ]
    assert not found, found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_cases_the_rules_lawyers_found_are_said(lang: str) -> None:
    """PRG-3 reveals only once all are laid, in order; several attackers or trappers share
    (ATK-8, TRP-4); the player chooses the assembled gears; a tie of a player's two robots."""
    prg3 = table()["PRG-3"][lang].casefold()
    assert not any(
        phrase in prg3
        for phrase in ("revealed together", "si rivelano insieme", "révélées ensemble")
    )
    assert "ATK-8" in table()["ATK-6"][lang]
    assert "TRP-4" in table()["TRP-3"][lang]
    chosen = {"en": "chosen by its player", "it": "scelte dal suo giocatore", "fr": "choisis par"}
    assert chosen[lang] in table()["ASM-1"][lang]
    same = {"en": "score the same", "it": "stesso punteggio", "fr": "même score"}
    assert same[lang] in table()["VAR-3"][lang]
