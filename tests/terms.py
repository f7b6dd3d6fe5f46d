"""The term list (``spec/terms.toml``) read for the tests and the glossary writer, and the
check that a term stands in its rulebook, on its line, as that term."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Final

from tests.clause_map import REPO_ROOT, load_clause_map, shared_rules_dir

TERMS: Final = REPO_ROOT / "spec" / "terms.toml"
SOURCES: Final = REPO_ROOT / "spec" / "sources.toml"
RULEBOOKS: Final = {
    "it": shared_rules_dir() / "fuori-di-rotella.it.txt",
    "fr": shared_rules_dir() / "out-of-gears.fr.txt",
}
#: The mark of a word that no rulebook prints: the project's own.
OURS: Final = "ours"
#: What may stand between two words of a term in a rulebook: spacing, and the commas and
#: semicolons the French scan puts between the words of its headings ("RÈGLES, AVANCÉES").
_BETWEEN: Final = r"[\s,;]+"


@cache
def terms() -> tuple[dict[str, Any], ...]:
    return tuple(tomllib.loads(TERMS.read_text(encoding="utf-8"))["term"])


def book_text(path: Path) -> str:
    """A rulebook's text with its emphasis marks (``*``) dropped, case folded."""
    return path.read_text(encoding="utf-8").replace("*", "").casefold()


def lines_of(word: str, text: str) -> tuple[int, ...]:
    """Every line where ``word`` begins in ``text`` as whole words (it may run over a line
    break: the words may be separated by any spacing).

    >>> lines_of("circuito interno", "il circuito\\ninterno\\ncircuito interno")
    (1, 3)
    >>> lines_of("circuito", "circuiti interni")
    ()
    """
    pattern = r"(?<!\w)" + _BETWEEN.join(map(re.escape, word.casefold().split())) + r"(?!\w)"
    return tuple(text.count("\n", 0, found.start()) + 1 for found in re.finditer(pattern, text))


def line_of(word: str, text: str) -> int | None:
    """The first line where ``word`` stands in ``text`` as whole words, or ``None``.

    >>> line_of("circuito interno", "il circuito\\ninterno")
    1
    >>> line_of("circuito", "circuiti interni") is None
    True
    """
    found = lines_of(word, text)
    return found[0] if found else None


def parse_lines(text: str) -> frozenset[int]:
    """The lines a rulebook clause covers, as ``spec/sources.toml`` writes them.

    >>> sorted(parse_lines("81, 125-127"))
    [81, 125, 126, 127]
    """
    lines: set[int] = set()
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        lines.update(range(int(first), int(last or first) + 1))
    return frozenset(lines)


@cache
def source_lines() -> Mapping[str, frozenset[int]]:
    """The lines of each rulebook clause: ``{"IT-SPLIT-3": {166}, ...}``."""
    data = tomllib.loads(SOURCES.read_text(encoding="utf-8"))
    return {key: parse_lines(entry["lines"]) for key, entry in data.items()}


@cache
def clause_sources() -> Mapping[str, tuple[str, ...]]:
    """The rulebook clauses each spec clause cites: ``{"SPL-3": ("IT-SPLIT-3", ...), ...}``."""
    return {clause.id: clause.sources for clause in load_clause_map()}


def printed(term: Mapping[str, Any], lang: str) -> str:
    """The word as the rulebook prints it on the term's line: the headword, or, where the
    headword is the word's dictionary form (rubare), the form printed (``it_printed``)."""
    return str(term.get(f"{lang}_printed", term[lang]))


def pin_problem(term: Mapping[str, Any], lang: str, text: str) -> str | None:
    """Why the term's word does not stand where the term list pins it, or ``None``.

    The word must stand on its line, and that line must belong to a rulebook clause that one
    of the term's spec clauses cites: a word found elsewhere (a homograph, the same letters in
    another sense: AVANZATE of a heading for the leftovers, "attaquant" as a participle) is on a
    line of another clause, and fails.
    """
    line = term[f"{lang}_line"]
    word = printed(term, lang)
    if line not in lines_of(word, text):
        found = lines_of(word, text)
        return f"{term['en']}: {word!r} is not on line {line} (it stands on {list(found)})"
    prefix = f"{lang.upper()}-"
    cited = [
        source
        for clause in term["clauses"]
        for source in clause_sources().get(clause, ())
        if source.startswith(prefix)
    ]
    if not any(line in source_lines()[source] for source in cited):
        return (
            f"{term['en']}: line {line} lies in none of the rulebook clauses its spec clauses "
            f"{term['clauses']} cite ({', '.join(cited) or 'none'})"
        )
    return None
