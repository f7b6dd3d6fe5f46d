"""The term list (``spec/terms.toml``) read for the tests and the glossary writer, and the
check that a term stands in its rulebook."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Final

from tests.clause_map import REPO_ROOT, shared_rules_dir

TERMS: Final = REPO_ROOT / "spec" / "terms.toml"
RULEBOOKS: Final = {
    "it": shared_rules_dir() / "fuori-di-rotella.it.txt",
    "fr": shared_rules_dir() / "out-of-gears.fr.txt",
}
#: The mark of a word that no rulebook prints: the project's own.
OURS: Final = "ours"


@cache
def terms() -> tuple[dict[str, Any], ...]:
    return tuple(tomllib.loads(TERMS.read_text(encoding="utf-8"))["term"])


def book_text(path: Path) -> str:
    """A rulebook's text with its emphasis marks (``*``) dropped, case folded."""
    return path.read_text(encoding="utf-8").replace("*", "").casefold()


def line_of(word: str, text: str) -> int | None:
    """The line where ``word`` first stands in ``text`` as whole words (it may run over a line
    break: the words may be separated by any spacing), or ``None``.

    >>> line_of("circuito interno", "il circuito\\ninterno")
    1
    >>> line_of("circuito", "circuiti interni") is None
    True
    """
    pattern = r"(?<!\w)" + r"\s+".join(map(re.escape, word.casefold().split())) + r"(?!\w)"
    found = re.search(pattern, text)
    return None if found is None else text.count("\n", 0, found.start()) + 1
