"""The API reference readable in the repository (``API.md``, ``CLI.md``): current, and every
public class with each of its fields described."""

from __future__ import annotations

import enum
import importlib
import inspect
import re

import attrs
import pytest

from scripts.make_api_reference import MODULES, main
from tests.clause_map import REPO_ROOT

#: A Google-style section that lists fields.
FIELDS_SECTION = re.compile(r"^(Args|Attributes):\s*$")
FIELD_ITEM = re.compile(r"^    (\w+)(?: \([^)]*\))?:")


def described_fields(doc: str | None) -> set[str]:
    """The names a docstring's ``Args`` and ``Attributes`` sections describe."""
    names: set[str] = set()
    inside = False
    for line in (doc or "").splitlines():
        if FIELDS_SECTION.match(line):
            inside = True
            continue
        if inside:
            item = FIELD_ITEM.match(line)
            if item:
                names.add(item.group(1))
            elif line.strip() and not line.startswith("        "):
                inside = False
    return names


def public_classes() -> list[tuple[str, type]]:
    """Every class a public module lists in its ``__all__``, once each."""
    seen: dict[type, str] = {}
    for module_name, _ in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value) and value not in seen:
                seen[value] = f"{module_name}.{name}"
    return [(path, cls) for cls, path in seen.items()]


def fields_of(cls: type) -> list[str]:
    """A record's fields or an enum's members (other classes: none to check here)."""
    if attrs.has(cls):
        return [field.name for field in attrs.fields(cls) if not field.name.startswith("_")]
    if issubclass(cls, enum.Enum):
        return [member.name for member in cls]
    return []


def test_the_committed_api_and_cli_references_are_current() -> None:
    assert main(["--check"]) == 0, "run: .venv/bin/python scripts/make_api_reference.py"


@pytest.mark.parametrize(("path", "cls"), public_classes(), ids=lambda value: str(value))
def test_every_public_class_describes_each_of_its_fields(path: str, cls: type) -> None:
    missing = [name for name in fields_of(cls) if name not in described_fields(inspect.getdoc(cls))]
    assert not missing, f"{path}: fields without a line in its Attributes: {missing}"


def test_the_field_check_sees_a_field_left_out() -> None:
    @attrs.frozen
    class Half:
        """Two fields, one described.

        Attributes:
            kept: Described.
        """

        kept: int
        forgotten: int

    assert fields_of(Half) == ["kept", "forgotten"]
    assert described_fields(inspect.getdoc(Half)) == {"kept"}


def test_the_api_reference_gives_the_fields_the_issue_looked_for() -> None:
    text = (REPO_ROOT / "API.md").read_text(encoding="utf-8")
    for wanted in (
        "- `open_positions`: ",  # TurnReplay
        "- `written_by`: ",  # GameLog
        "- `RESERVE`: ",  # PlaceKind
        "- `game_over`: ",  # TurnEnded
        "### `explain_turn(",
        "### `play_tournament(",
        "#### `ChoiceSpace.default()",
    ):
        assert wanted in text, wanted


#: Modules a page may import from besides those of ``API.md``: the optional adapters.
ADAPTERS = {
    "outofgears.play.pettingzoo",
    "outofgears.play.gym",
    "outofgears.play.envs",
    "outofgears.play.openspiel",
}
IMPORT = re.compile(
    r"^\s*(?:>>> |\.\.\. )?(?:from (outofgears[\w.]*) import|import (outofgears[\w.]*))", re.M
)


def written_pages() -> list[str]:
    """The markdown a developer reads in the repository (not the pages a site build writes)."""
    generated = {"docs/reference/cli.md", "docs/reference/environment.md"}
    pages = ["README.md", *(str(p.relative_to(REPO_ROOT)) for p in REPO_ROOT.glob("spec/*.md"))]
    for folder in ("docs", "docs/examples", "docs/guide", "docs/reference"):
        for path in sorted((REPO_ROOT / folder).glob("*.md")):
            name = str(path.relative_to(REPO_ROOT))
            if name not in generated and not name.endswith((".it.md", ".fr.md")):
                pages.append(name)
    return pages


def test_every_example_of_the_docs_imports_from_the_public_api_only() -> None:
    public = {module for module, _ in MODULES} | ADAPTERS
    internal = [
        f"{page}: {module}"
        for page in written_pages()
        for match in IMPORT.finditer((REPO_ROOT / page).read_text(encoding="utf-8"))
        if (module := match.group(1) or match.group(2)) not in public
    ]
    assert not internal, internal
