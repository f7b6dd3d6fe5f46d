"""A griffe extension for the API reference: doctest examples in docstrings become code blocks.

The docstrings of ``outofgears`` carry their doctested examples as plain ``>>>`` lines (Google
style, run by ``pytest --doctest-modules``). Markdown would read them as nested quotes, so this
extension, loaded by mkdocstrings (``mkdocs.yml``), wraps each run of ``>>>``/``...`` lines
and their expected output in a ``pycon`` fenced block before the docstring is rendered. The
source is not changed.

The second extension, :class:`SphinxRoles`, turns the Sphinx roles of the docstrings
(``:func:`apply_turn```) into cross-references to the API pages; the third,
:class:`ConstantValues`, shows each computed constant by its value.
"""

from __future__ import annotations

import re
from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Wrap every doctest example of a docstring in a fenced ``pycon`` block.

    >>> print(fence_doctests("Text.\\n\\n>>> 1 + 1\\n2\\n\\nMore."))
    Text.
    <BLANKLINE>
    ```pycon
    >>> 1 + 1
    2
    ```
    <BLANKLINE>
    More.
    """
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    fenced = False
    while index < len(lines):
        line = lines[index]
        stripped = line.lstrip()
        if stripped.startswith("```"):
            fenced = not fenced
        if fenced or not stripped.startswith(">>>"):
            out.append(line)
            index += 1
            continue
        indent = line[: len(line) - len(stripped)]
        out.append(f"{indent}```pycon")
        while index < len(lines) and lines[index].strip():
            out.append(lines[index])
            index += 1
        out.append(f"{indent}```")
    return "\n".join(out)


#: The border of a reStructuredText simple table: runs of ``=`` separated by spaces.
RST_BORDER = re.compile(r"^(?P<indent> *)=+(?: +=+)+ *$")


def rst_tables_to_markdown(text: str) -> str:
    """Turn each reStructuredText simple table of a docstring into a Markdown table (Markdown
    reads one as a paragraph). A row whose first cell is blank continues the row above it;
    a double-backquoted literal becomes a Markdown code span.

    >>> print(rst_tables_to_markdown(
    ...     "Layout:\\n\\n=====  ===\\nslice  len\\n=====  ===\\n``0:4``  4\\n"
    ...     "       more\\n=====  ===\\n\\nEnd."))
    Layout:
    <BLANKLINE>
    | slice | len |
    |---|---|
    | `0:4` | 4 more |
    <BLANKLINE>
    End.
    """
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        border = RST_BORDER.match(lines[index])
        if border is None:
            out.append(lines[index])
            index += 1
            continue
        spans = [m.span() for m in re.finditer(r"=+", lines[index])]
        rows: list[list[str]] = []
        borders = 0
        header = 0
        while index < len(lines) and borders < 3:
            line = lines[index]
            index += 1
            if RST_BORDER.match(line):
                borders += 1
                if borders == 2:
                    header = len(rows)
                continue
            cells = [_rst_cell(line, start, spans, k) for k, (start, _) in enumerate(spans)]
            if rows and not cells[0] and borders == 2:
                rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
            else:
                rows.append(cells)
        indent = border["indent"]
        for number, row in enumerate(rows):
            out.append(indent + "| " + " | ".join(row) + " |")
            if number + 1 == header:
                out.append(indent + "|" + "---|" * len(spans))
    return "\n".join(out)


def _rst_cell(line: str, start: int, spans: list[tuple[int, int]], k: int) -> str:
    end = spans[k + 1][0] if k + 1 < len(spans) else len(line)
    cell = line[start:end].strip()
    return re.sub(r"``(.+?)``", r"`\1`", cell)


class DoctestBlocks(griffe.Extension):
    """Fence the doctest examples of every docstring griffe loads, and turn its
    reStructuredText simple tables into Markdown tables."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the docstring of each loaded object."""
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
        if obj.docstring is not None and "==" in obj.docstring.value:
            obj.docstring.value = rst_tables_to_markdown(obj.docstring.value)


#: A Sphinx role in a docstring: :func:`apply_turn`, :class:`~outofgears.rules.model.GameState`.
ROLE = re.compile(
    r":(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj|const):"
    r"`(?:(?P<title>[^`<]+?)\s*<(?P<explicit>[\w.]+)>|~?(?P<target>[\w.]+))`"
)


def resolve_target(obj: griffe.Object, target: str) -> str | None:
    """The canonical path of the object a role of ``obj``'s docstring names, or ``None``.

    Tried in turn: the name as written, in the object itself (a method of a class), in its
    parent class, in its module, and in the ``outofgears`` package; an alias (a name the module
    imports) resolves to where its target is defined, which is where the API pages show it.
    """
    module = obj if obj.is_module else obj.module
    scopes: list[griffe.Object | griffe.Alias] = [obj]
    if obj.parent is not None:
        scopes.append(obj.parent)
    scopes += [module, module.package]
    head, _, rest = target.partition(".")
    for scope in scopes:
        try:
            if target.startswith(scope.package.name + "."):
                found = scope.package[target.removeprefix(scope.package.name + ".")]
            elif head in scope.members:
                found = scope.members[head]
                if rest:
                    found = found[rest]
            else:
                continue
            while isinstance(found, griffe.Alias):
                found = found.final_target
            return str(found.canonical_path)
        except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            continue
    return None


def cross_references(obj: griffe.Object, text: str) -> str:
    """The docstring with each Sphinx role made a cross-reference (an optional autoref).

    An optional autoref that finds no page (a private helper) shows as plain code, never a
    warning.
    """

    def replace(match: re.Match[str]) -> str:
        target = match["target"] or match["explicit"]
        if match["title"]:
            shown = match["title"]
        else:
            shown = target.rsplit(".", 1)[-1] if "`~" in match[0] else target
        path = resolve_target(obj, target)
        if path is None:
            return f"`{shown}`"
        return f'<autoref identifier="{path}" optional><code>{shown}</code></autoref>'

    parts = re.split(r"(```.*?```)", text, flags=re.S)  # never inside a code block
    return "".join(p if p.startswith("```") else ROLE.sub(replace, p) for p in parts)


class SphinxRoles(griffe.Extension):
    """Turn the Sphinx roles of every docstring of the package into cross-references."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the docstrings once the whole package is loaded (aliases resolve then)."""
        self._rewrite(pkg, set())

    def _rewrite(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        if obj.docstring is not None and ":" in obj.docstring.value:
            obj.docstring.value = cross_references(obj, obj.docstring.value)
        for member in obj.members.values():
            if not isinstance(member, griffe.Alias):
                self._rewrite(member, seen)


#: The longest value shown in full; a longer one is cut, with an ellipsis.
LONGEST_VALUE = 100


def shown_value(value: object) -> str | None:
    """How the API pages show a constant's value: its ``repr``, cut at :data:`LONGEST_VALUE`
    characters; ``None`` (the source expression stays) for a function, a type, or a value
    whose ``repr`` holds a memory address or an object's id, which change from run to run.

    >>> shown_value(2), shown_value(("en", "it")), shown_value(len), shown_value(int)
    ('2', "('en', 'it')", None, None)
    >>> shown_value(tuple(range(60)))[-6:]
    '25, …)'
    >>> shown_value({140234567890123: ()})
    """
    if callable(value) or isinstance(value, type) or type(value).__module__ == "typing":
        return None
    text = repr(value)
    if "0x" in text or re.search(r"\d{9,}", text):
        return None
    if len(text) > LONGEST_VALUE:
        closing = text[-1] if text[-1] in ")]}" else ""
        text = text[: LONGEST_VALUE - 2].rsplit(", ", 1)[0] + ", …" + closing
    return text


class ConstantValues(griffe.Extension):
    """Show each module constant of the package by its value, not by the expression that
    computes it (``JOLLY_POINTS = 2``, not ``= OWN_COLOUR_POINTS``)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Once the package is loaded, put each computed constant's value in its place."""
        self._rewrite(pkg, set())

    def _rewrite(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        for member in obj.members.values():
            if isinstance(member, griffe.Alias):
                continue
            if member.is_module:
                self._rewrite(member, seen)
            elif isinstance(member, griffe.Attribute) and obj.is_module and member.value:
                self._show_value(obj, member)

    @staticmethod
    def _show_value(module: griffe.Object, attribute: griffe.Attribute) -> None:
        import ast
        import importlib

        source = str(attribute.value)
        try:
            ast.literal_eval(source)
            return  # a literal already shows its value
        except (ValueError, SyntaxError):
            pass
        try:
            value = getattr(importlib.import_module(module.path), attribute.name)
        except (ImportError, AttributeError):
            return
        shown = shown_value(value)
        if shown is not None:
            attribute.value = shown
