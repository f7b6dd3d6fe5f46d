"""The API reference of the engine: the public API first, the internals apart.

``scripts/mkdocs_hooks.py`` expands two markers of the reference pages with what this gives:

* ``<!-- outofgears:public-api -->`` (``reference/engine.md``): a table of everything
  ``import outofgears`` gives (its ``__all__``), each name linked to its documentation, then
  each engine module with only its public members;
* ``<!-- outofgears:internals -->`` (``reference/internals.md``): every other member of those
  modules, the helpers the rules modules and the tests build on.

A name is public when ``outofgears.__all__`` lists it; its documentation is where it is
defined (``outofgears.apply_turn`` is documented as ``outofgears.rules.turn.apply_turn``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

import griffe

import outofgears

#: The modules of the engine page, in page order.
ENGINE_MODULES: Final = (
    "rules.turn",
    "rules.legal",
    "rules.setup",
    "rules.model",
    "rules.gears",
    "rules.programs",
    "rules.choices",
    "rules.events",
    "rules.scoring",
    "rules.variant",
    "rules.table",
    "errors",
)
#: A Sphinx role, shown in the summary table as the code it names.
ROLE: Final = re.compile(r":(?:py:)?[a-z]+:`~?(?:[^`<]*?<)?(?P<name>[\w.]+)>?`")
PUBLIC_MARKER: Final = "<!-- outofgears:public-api -->"
INTERNALS_MARKER: Final = "<!-- outofgears:internals -->"


def load_package() -> griffe.Module:
    """The ``outofgears`` package as griffe reads it (what mkdocstrings renders)."""
    package = griffe.load("outofgears", resolve_aliases=True, resolve_external=False)
    assert isinstance(package, griffe.Module)
    return package


def _target(package: griffe.Module, name: str) -> griffe.Object | None:
    try:
        found = package[name]
        while isinstance(found, griffe.Alias):
            found = found.final_target
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None
    return found if isinstance(found, griffe.Object) else None


def _summary(obj: griffe.Object | None) -> str:
    if obj is None:
        return ""
    if obj.docstring is None:
        value = getattr(obj, "value", None)
        text = " ".join(str(value).split()) if value is not None else ""
        return f"`{text[:60]}{'…' if len(text) > 60 else ''}`".replace("|", "\\|") if text else ""
    first = obj.docstring.value.strip().split("\n\n", 1)[0]
    first = ROLE.sub(lambda m: f"`{m['name'].rsplit('.', 1)[-1]}`", first)
    return " ".join(first.split()).replace("|", "\\|")


def _kind(obj: griffe.Object | None) -> str:
    if obj is None:
        return "value"
    return {"class": "class", "function": "function", "module": "module"}.get(
        obj.kind.value, "constant"
    )


def code_text(name: str) -> str:
    """A name as the text of an HTML ``<code>`` in markdown: its underscores escaped, so that
    ``__version__`` is not read as bold ``version``.

    >>> code_text("__version__")
    '&#95;&#95;version&#95;&#95;'
    """
    return name.replace("_", "&#95;")


def public_paths(package: griffe.Module) -> dict[str, str]:
    """Each public name → the path where it is documented."""
    paths: dict[str, str] = {}
    for name in outofgears.__all__:
        obj = _target(package, name)
        paths[name] = obj.path if obj is not None else f"outofgears.{name}"
    return paths


def public_api_markdown(package: griffe.Module, modules: Sequence[str] = ENGINE_MODULES) -> str:
    """The summary table of the public API, then each engine module with its public members."""
    paths = public_paths(package)
    lines = [
        "## What `import outofgears` gives",
        "",
        "| Name | Kind | What it is |",
        "|---|---|---|",
    ]
    for name in outofgears.__all__:
        obj = _target(package, name)
        link = (
            f'<autoref identifier="{paths[name]}" optional><code>{code_text(name)}</code></autoref>'
        )
        lines.append(f"| {link} | {_kind(obj)} | {_summary(obj)} |")
    lines += [
        "",
        "The helpers these build on are documented apart, on the [internals](internals.md) page.",
        "",
    ]
    for module in modules:
        path = f"outofgears.{module}"
        public = [p.rsplit(".", 1)[1] for p in paths.values() if p.rsplit(".", 1)[0] == path]
        members = ", ".join(public) if public else ""
        lines += [f"::: {path}", "    options:", f"      members: [{members}]", ""]
    return "\n".join(lines)


def internal_members(package: griffe.Module, module: str) -> list[str]:
    """The members of an engine module that the public API does not list, in source order."""
    public = set(public_paths(package).values())
    obj = package[module]
    return [
        name
        for name, member in obj.members.items()
        if not isinstance(member, griffe.Alias)
        and not name.startswith("_")
        and member.path not in public
    ]


def internals_markdown(package: griffe.Module, modules: Sequence[str] = ENGINE_MODULES) -> str:
    """Each engine module's internal members, under a heading per module."""
    lines: list[str] = []
    for module in modules:
        members = internal_members(package, module)
        if not members:
            continue
        lines += [f"## `outofgears.{module}`", ""]
        for name in members:
            lines += [
                f"::: outofgears.{module}.{name}",
                "    options:",
                "      heading_level: 3",
                "      show_root_full_path: false",
                "",
            ]
    return "\n".join(lines)
