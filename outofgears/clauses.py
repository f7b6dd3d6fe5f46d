"""The specification's clauses at run time: titles, rulebook sources, paraphrases.

The package carries copies of ``spec/clauses.toml`` (and, where present,
``spec/paraphrases.toml``) in ``outofgears/_spec/``, so that replays and
explanations can cite the rulebook clauses behind every event.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any, Final

from attrs import frozen

from outofgears.errors import InvalidStateError

#: The languages of the paraphrases: English, Italian, French.
LANGUAGES: Final = ("en", "it", "fr")


@frozen
class Clause:
    """One spec clause: its ID, title, the rulebook clauses it formalises, its rulings."""

    id: str
    title: str
    sources: tuple[str, ...]
    rulings: tuple[str, ...]

    @property
    def italian_sources(self) -> tuple[str, ...]:
        """The Italian rulebook's clause IDs."""
        return tuple(s for s in self.sources if s.startswith("IT-"))

    @property
    def french_sources(self) -> tuple[str, ...]:
        """The French rulebook's clause IDs."""
        return tuple(s for s in self.sources if s.startswith("FR-"))


def _read(name: str) -> dict[str, Any]:
    import tomllib  # imported here rather than when the command line starts

    path = resources.files("outofgears").joinpath(f"_spec/{name}")
    if not path.is_file():
        return {}
    return tomllib.loads(path.read_text("utf-8"))


@cache
def clauses() -> dict[str, Clause]:
    """Every spec clause by ID.

    >>> clauses()["ATK-4"].title
    'The defender takes one gear from each attacker'
    >>> clauses()["ATK-4"].italian_sources
    ('IT-ATK-4', 'IT-ACT-ATK-2')
    """
    return {
        entry["id"]: Clause(
            entry["id"],
            entry["title"],
            tuple(entry.get("sources", ())),
            tuple(entry.get("rulings", ())),
        )
        for entry in _read("clauses.toml").get("clause", [])
    }


def clause(clause_id: str) -> Clause:
    """The spec clause ``clause_id``; ``KeyError`` if the spec has none."""
    return clauses()[clause_id]


def sources_text(clause_id: str) -> str:
    """The rulebook sources of a clause as text, or a note for engine-only clauses.

    >>> sources_text("HRV-2")
    'IT-HARV-2, FR-HARV-2, IT-ACT-HARV-1, FR-ACT-HARV-1'
    >>> sources_text("ATK-5")
    'no rulebook clause: an engine policy'
    """
    found = clauses().get(clause_id)
    if found is None or not found.sources:
        return "no rulebook clause: an engine policy"
    return ", ".join(found.sources)


@cache
def paraphrases() -> dict[str, dict[str, str]]:
    """Every clause's paraphrase by clause ID, then by language (``spec/paraphrases.toml``).

    >>> sorted(paraphrases()["ATK-4"])
    ['en', 'fr', 'it']
    """
    return {
        clause_id: {lang: text for lang, text in entry.items() if isinstance(text, str)}
        for clause_id, entry in _read("paraphrases.toml").items()
        if isinstance(entry, dict)
    }


def paraphrase(clause_id: str, lang: str = "en") -> str:
    """The project's own paraphrase of a spec clause in English, Italian or French.

    The paraphrases say in a sentence or three what the clause makes the engine do; they are
    never rulebook text.

    Raises:
        ValueError: ``lang`` is not one of :data:`LANGUAGES`.
        KeyError: The spec has no paraphrase of ``clause_id``.

    >>> paraphrase("TRP-1")
    'A trap card with number n traps dump n. Several robots may trap the same dump.'
    >>> paraphrase("TRP-1", "fr")
    'Une carte Piège portant le numéro n piège la décharge n. Plusieurs robots peuvent piéger la même décharge.'
    """
    if lang not in LANGUAGES:
        raise InvalidStateError(f"the paraphrases are in {', '.join(LANGUAGES)}, not {lang!r}")
    return paraphrases()[clause_id][lang]
