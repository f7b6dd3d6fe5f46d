"""A griffe extension for the API reference: doctest examples in docstrings become code blocks.

The docstrings of ``outofgears`` carry their doctested examples as plain ``>>>`` lines (Google
style, run by ``pytest --doctest-modules``). Markdown would read them as nested quotes, so this
extension, loaded by mkdocstrings (``mkdocs.yml``), wraps each run of ``>>>``/``...`` lines
and their expected output in a ``pycon`` fenced block before the docstring is rendered. The
source is not changed.
"""

from __future__ import annotations

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


class DoctestBlocks(griffe.Extension):
    """Fence the doctest examples of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the docstring of each loaded object."""
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
