#!/usr/bin/env python3
"""Write ``API.md`` and ``CLI.md``: the public API and the command line of outofgears as
plain markdown, readable in the repository.

Usage (from the repository root)::

    .venv/bin/python scripts/make_api_reference.py            # (re)write API.md and CLI.md
    .venv/bin/python scripts/make_api_reference.py --check    # exit 1 if either is not current

The documentation site renders the same docstrings with mkdocstrings; this file is for a
reader of the sources (on a forge, in an editor, offline). Every name a module lists in its
``__all__`` is written with its signature and its whole docstring, each class with its fields
(the docstring's ``Attributes`` section) and its public methods and properties.
``CLI.md`` is the site's CLI reference page (``tests/cli_reference.py``), from the click
commands. ``tests/test_api_markdown.py`` checks that the committed files are what this script
writes.
"""

from __future__ import annotations

import argparse
import enum
import importlib
import inspect
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
TARGET: Final = ROOT / "API.md"
CLI_TARGET: Final = ROOT / "CLI.md"

#: The modules of the public API, in the order a developer meets them, each with a title.
MODULES: Final = (
    ("outofgears", "The engine: `from outofgears import ...`"),
    ("outofgears.log", "Game logs: reading, writing, the records"),
    ("outofgears.judge.replay", "Replaying a log under the rules"),
    ("outofgears.judge.explanation", "One turn explained (what `outofgears explain` prints)"),
    ("outofgears.judge.compare", "Resolving a turn again and comparing (`dispute`, `whatif`)"),
    ("outofgears.judge.departures", "Departures from the rules"),
    (
        "outofgears.table.session",
        "The table session: a game entered at a table (`record`, the browser)",
    ),
    ("outofgears.play.bots", "Bots and matches"),
    ("outofgears.play.learned", "The learned bot and its weights"),
    ("outofgears.play.tournament", "Tournaments (what `outofgears tournament` prints)"),
    ("outofgears.play.observation", "What a bot sees"),
    ("outofgears.play.actions", "Moves as numbers"),
    ("outofgears.play.game", "Returns, turn caps, hidden information"),
    ("outofgears.play.policies", "The random policy"),
    ("outofgears.pictures.render", "Pictures of the table"),
    ("outofgears.pictures.viewer", "The game viewer"),
)

#: A Sphinx role: ``:func:`~outofgears.x.y``` is written as the code it names.
ROLE: Final = re.compile(r":(?:py:)?[a-z]+:`~?(?P<name>[^`]+)`")
#: A Google-style section heading of a docstring.
SECTION: Final = re.compile(
    r"^(Args|Arguments|Attributes|Raises|Returns|Yields|Note|Notes|Example|Examples):$"
)
#: An item of a section: ``name: text`` or ``name (type): text``.
ITEM: Final = re.compile(r"^    (?P<name>[\w.*]+)(?: \((?P<type>[^)]*)\))?: ?(?P<text>.*)$")
#: A memory address in a repr, which would change from run to run.
ADDRESS: Final = re.compile(r" at 0x[0-9a-f]+")


def _roles(text: str) -> str:
    def code(match: re.Match[str]) -> str:
        name = match["name"]
        if "<" in name and name.endswith(">"):
            name = name.split("<", 1)[1][:-1]
        return f"`{name.rsplit('.', 1)[-1] if match.group(0).count('~') else name}`"

    return ROLE.sub(code, text)


def docstring_markdown(doc: str | None) -> list[str]:
    """A docstring as markdown: prose as it is, its sections as lists, its examples fenced.

    >>> print("\\n".join(docstring_markdown("Sum.\\n\\nArgs:\\n    a: One, or\\n        two.")))
    Sum.
    <BLANKLINE>
    **Args:**
    <BLANKLINE>
    - `a`: One, or two.
    """
    if not doc:
        return ["*(no description)*"]
    out: list[str] = []
    lines = _roles(doc).splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith(">>>"):
            block = []
            while index < len(lines) and lines[index].strip():
                block.append(lines[index])
                index += 1
            out += ["```pycon", *block, "```"]
            continue
        if SECTION.match(line):
            out += [f"**{line[:-1]}:**", ""]
            index += 1
            while index < len(lines) and (lines[index].startswith("    ") or not lines[index]):
                item = ITEM.match(lines[index])
                if item:
                    kind = f" ({item['type']})" if item["type"] else ""
                    out.append(f"- `{item['name']}`{kind}: {_roles(item['text'])}".rstrip())
                elif lines[index].strip() and out:
                    out[-1] += " " + _roles(lines[index].strip())
                index += 1
            out.append("")
            continue
        out.append(_roles(line))
        index += 1
    while out and not out[-1]:
        out.pop()
    return out


def signature_text(name: str, obj: Any, *, returns: bool = True) -> str:
    """``name(parameters) -> result`` as the source writes it; the name alone where Python
    has no signature to give.

    >>> def f(a: int, b: str = "<log>", *, c: int | None = None) -> str: ...
    >>> signature_text("f", f)
    "f(a: int, b: str = '<log>', *, c: int | None = None) -> str"
    """
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return name
    parts: list[str] = []
    star_done = False
    for parameter in signature.parameters.values():
        if parameter.kind is parameter.KEYWORD_ONLY and not star_done:
            parts.append("*")
            star_done = True
        if parameter.kind is parameter.VAR_POSITIONAL:
            star_done = True
        stars = "*" if parameter.kind is parameter.VAR_POSITIONAL else ""
        stars = "**" if parameter.kind is parameter.VAR_KEYWORD else stars
        text = stars + parameter.name
        if parameter.annotation is not parameter.empty:
            text += f": {_annotation(parameter.annotation)}"
        if parameter.default is not parameter.empty:
            text += f" = {_default(parameter.default)}"
        parts.append(text)
    text = f"{name}({', '.join(parts)})"
    result = signature.return_annotation
    if returns and result is not signature.empty and _annotation(result) != "None":
        text += f" -> {_annotation(result)}"
    return text


def _default(value: Any) -> str:
    """A default as a signature shows it: a factory's as ``<factory>``, a long one cut short."""
    if repr(value) == "NOTHING":  # attrs: the default is made by a factory
        return "<factory>"
    text = ADDRESS.sub("", repr(value))
    return text if len(text) <= 40 else text[:37] + "..."


def _first_argument(text: str) -> str:
    """``X`` of ``Annotated[X, limits...]``: the type without the log format's limits."""
    depth = 0
    for index, char in enumerate(text):
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == "," and depth == 0:
            return text[:index]
    return text


def _closing(text: str) -> int:
    """The index of the bracket that closes the one ``text`` follows."""
    depth = 1
    for index, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if depth == 0:
            return index
    return len(text)


def _annotation(annotation: object) -> str:
    """An annotation as the source writes it, without the log format's ``Annotated`` limits."""
    if not isinstance(annotation, str):
        if isinstance(annotation, type):
            return annotation.__name__
        return str(annotation).replace("typing.", "")
    text = annotation
    while "Annotated[" in text:
        start = text.index("Annotated[")
        inner = text[start + len("Annotated[") :]
        end = _closing(inner)
        text = text[:start] + _first_argument(inner[:end]) + inner[end + 1 :]
    return text


def _members(cls: type) -> Iterator[tuple[str, Any]]:
    """A class's own public methods and properties, in source order."""
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(member, property | classmethod | staticmethod) or inspect.isfunction(member):
            yield name, member


def class_markdown(name: str, cls: type) -> list[str]:
    """A class: its constructor's signature, its docstring (fields included), its members."""
    if issubclass(cls, enum.Enum):
        lines = [f"### enum `{name}`", "", *docstring_markdown(inspect.getdoc(cls)), ""]
        lines += [f"- `{name}.{member.name}` = `{member.value!r}`" for member in cls]
        return [*lines, ""]
    kind = "exception" if issubclass(cls, BaseException) else "class"
    lines = [f"### {kind} `{signature_text(name, cls)}`", ""]
    lines += [*docstring_markdown(inspect.getdoc(cls)), ""]
    for member_name, member in _members(cls):
        if isinstance(member, property):
            heading = f"#### property `{name}.{member_name}`"
            doc = inspect.getdoc(member)
        else:
            function = member.__func__ if isinstance(member, classmethod | staticmethod) else member
            prefix = "classmethod " if isinstance(member, classmethod) else ""
            signature = signature_text(member_name, function).replace("(self, ", "(")
            signature = signature.replace("(self)", "()").replace("(cls, ", "(")
            signature = signature.replace("(cls)", "()")
            heading = f"#### {prefix}`{name}.{signature}`"
            doc = inspect.getdoc(function)
        lines += [heading, "", *docstring_markdown(doc), ""]
    return lines


def object_markdown(name: str, obj: Any, module: str) -> list[str]:
    """One public name: a class, a function, or a value."""
    if inspect.isclass(obj):
        return class_markdown(name, obj)
    if callable(obj) and not isinstance(obj, type):
        doc = inspect.getdoc(obj)
        return [f"### `{signature_text(name, obj)}`", "", *docstring_markdown(doc), ""]
    value = ADDRESS.sub("", repr(obj))
    shown = value if len(value) <= 100 else value[:97] + "..."
    note = _roles(_value_note(module, name))
    return [f"### `{name}`", "", f"`{shown}`" + (f": {note}" if note else ""), ""]


def _value_note(module: str, name: str) -> str:
    """The ``#:`` comment above a module's constant, where its source has one."""
    source_module = importlib.import_module(module)
    try:
        source = inspect.getsource(source_module)
    except (OSError, TypeError):
        return ""
    match = re.search(rf"((?:^#:.*\n)+)^{re.escape(name)}\b", source, re.M)
    if not match:
        return ""
    return " ".join(line[2:].strip() for line in match.group(1).splitlines())


def module_markdown(module_name: str, title: str) -> list[str]:
    """A module: its docstring, then each name of its ``__all__``."""
    module = importlib.import_module(module_name)
    lines = [f"## `{module_name}` — {title}", ""]
    lines += [*docstring_markdown(inspect.getdoc(module)), ""]
    for name in module.__all__:
        obj = getattr(module, name)
        lines += object_markdown(name, obj, _source_module(obj, module_name, name))
    return lines


def _source_module(obj: Any, module_name: str, name: str) -> str:
    """The module whose source holds a constant's ``#:`` comment."""
    if inspect.isclass(obj) or callable(obj):
        return module_name
    module = importlib.import_module(module_name)
    for candidate in sys.modules.values():
        file = getattr(candidate, "__file__", "") or ""
        if (
            getattr(candidate, "__name__", "").startswith("outofgears")
            and file.endswith(".py")
            and getattr(candidate, name, None) is obj
            and candidate is not module
        ):
            return str(candidate.__name__)
    return module_name


def anchor(module_name: str, title: str) -> str:
    """The GitHub-style anchor of a module's heading."""
    text = f"{module_name} — {title}".lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def api_markdown() -> str:
    """The whole of ``API.md``."""
    lines = [
        "# The outofgears API",
        "",
        "<!-- Generated by scripts/make_api_reference.py from the docstrings: do not edit. -->",
        "",
        "Every public name of the package, with its signature and its documentation, as the",
        "docstrings give them (the documentation site shows the same, with links: see the",
        "README). The engine is `from outofgears import ...`; the other modules are imported by",
        "their names below. A name not listed here is an internal and may change without",
        "notice.",
        "",
        "Contents:",
        "",
    ]
    lines += [f"- [`{module}`](#{anchor(module, title)}) — {title}" for module, title in MODULES]
    lines.append("")
    for module, title in MODULES:
        lines += module_markdown(module, title)
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"


def cli_markdown() -> str:
    """The whole of ``CLI.md``: the site's CLI reference page."""
    from outofgears.cli.main import main as cli_main
    from tests.cli_reference import cli_reference

    return cli_reference(cli_main).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is not current")
    args = parser.parse_args(argv)
    stale = 0
    for target, text in ((TARGET, api_markdown()), (CLI_TARGET, cli_markdown())):
        if not args.check:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target}")
            continue
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{target.name} is not current: run scripts/make_api_reference.py")
            stale += 1
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
