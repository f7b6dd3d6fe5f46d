"""What a hurried table types, read as it means it (issue 31): short programs, a defence by
name, the glossary's colour words in any gender and number, the tables' printed counts typed
back, natural score forms, names without accents, every "none" word; a plural colour without
its count asked back, never guessed."""

from __future__ import annotations

import pytest

from outofgears.log import Recorded
from outofgears.rules.setup import setup_game
from outofgears.table.answers import (
    CountMissingError,
    add_recorded,
    parse_gear_list,
    parse_table_program,
    table_answer,
)
from outofgears.table.session import legal_program


@pytest.mark.parametrize(
    ("typed", "lang", "program"),
    [
        ("h2", "en", "harvest 2"),
        ("A1", "en", "attack 1"),
        ("t 3", "en", "trap 3"),
        ("r2", "it", "harvest 2"),
        ("t1", "it", "trap 1"),
        ("p3", "fr", "trap 3"),
        ("r1", "fr", "harvest 1"),
        ("h1", "fr", "harvest 1"),
    ],
)
def test_a_program_typed_as_one_letter_and_a_number(typed: str, lang: str, program: str) -> None:
    assert str(parse_table_program(typed, lang)) == program


@pytest.mark.parametrize(
    ("typed", "lang"), [("difesa", "it"), ("Difesa 2", "it"), ("défense 2", "fr"), ("d", "en")]
)
def test_a_defence_is_the_attack_on_the_robots_own_number(typed: str, lang: str) -> None:
    state = setup_game([1, 2, 3], seed=1)
    assert str(legal_program(state, 2, typed, lang)) == "attack 2"


def test_a_defence_naming_another_robot_is_refused_with_atk_3() -> None:
    state = setup_game([1, 2, 3], seed=1)
    with pytest.raises(Exception, match="ATK-3"):
        legal_program(state, 2, "difesa 3", "it")


@pytest.mark.parametrize(
    ("typed", "lang", "gears"),
    [
        ("rosso", "it", ["red"]),
        ("2 rossi, giallo", "it", ["red", "red", "yellow"]),
        ("2 rosse", "it", ["red", "red"]),
        ("1 red, 1 orange", "en", ["red", "orange"]),  # the table's printed form typed back
        ("verte+2 bleues", "fr", ["green", "blue", "blue"]),
        ("niente", "it", []),
        ("vuoto", "it", []),
        ("rien", "fr", []),
        ("nothing", "en", []),
    ],
)
def test_gears_in_the_tables_words(typed: str, lang: str, gears: list[str]) -> None:
    assert [str(gear) for gear in parse_gear_list(table_answer(typed, lang))] == gears


@pytest.mark.parametrize(("typed", "lang"), [("robot 1 piedi=rosse", "it"), ("pieds=rouges", "fr")])
def test_a_plural_colour_without_its_count_is_asked_back(typed: str, lang: str) -> None:
    with pytest.raises(CountMissingError) as asked:
        table_answer(typed, lang)
    assert "how many" in str(asked.value)


@pytest.mark.parametrize(
    ("typed", "lang"),
    [
        ("score lea=17", "en"),
        ("Léa=17", "en"),
        ("points Lea=17", "en"),
        ("punti Léa=17", "it"),
        ("punteggio Léa: 17", "it"),
        ("Lea=17", "it"),
        ("points léa=17", "fr"),
        ("score LÉA = 17", "fr"),
    ],
)
def test_a_score_in_the_ways_a_table_writes_it(typed: str, lang: str) -> None:
    players = ("Léa", "Marco")
    recorded = add_recorded(Recorded(), table_answer(typed, lang), players)
    assert recorded.scores == {"Léa": 17}


def test_a_name_that_reads_as_two_players_is_refused() -> None:
    with pytest.raises(Exception, match="not a player"):
        add_recorded(Recorded(), "score lea=3", ("Léa", "Lèa"))
