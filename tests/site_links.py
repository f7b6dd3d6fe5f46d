"""Link every clause, ruling and rulebook ID of the documentation site to its anchor.

Shared by the site build (``scripts/mkdocs_hooks.py`` runs :func:`link_ids` over the HTML of
every page), by ``scripts/gen_docs_pages.py`` (the "Implemented by" and "Worked examples" lines
of each clause) and by the site's build check (``scripts/check_site.py``, which fails on an ID
left as plain text, :func:`unlinked_ids`).

An ID is a spec clause (``ATK-4``), a ruling (``R-SPLIT``) or a rulebook clause of
``CLAUSES.md`` (``IT-ATK-4``, ``FR-ATK-4``). Spec clauses and rulings link to their heading on
the spec pages; rulebook clauses to their row of the page of the rulebooks' clauses
(``rulebook-clauses/#it-atk-4``).
Text inside links, headings, scripts and styles is left alone; code is linked, inline and in
blocks (an event's ``[ATK-3]`` in running text and in a worked example's trace).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Final

from tests.clause_map import Clause

#: An ID as it appears in running text. The rulebook form is tried first, so that the
#: ``ATK-4`` of ``IT-ATK-4`` is never read as a spec clause.
ID: Final = re.compile(
    r"(?<![\w/#.-])(?P<id>(?:IT|FR)-[A-Z0-9]+(?:-[A-Z0-9]+)*|R-[A-Z]+(?:-[A-Z]+)*|[A-Z]{2,6}-\d+)"
    r"(?![\w…-]|\.\w)"
)
#: An HTML tag (with its attributes) or a comment.
TAG: Final = re.compile(
    r"<!--.*?-->|<(?P<close>/?)(?P<name>[a-zA-Z][\w-]*)[^>]*?(?P<self>/?)>", re.S
)
#: Elements whose text is never linked: links, headings, scripts, styles, pictures.
SKIPPED: Final = frozenset(
    {"a", "autoref", "script", "style", "textarea", "title", "svg"}
    | {f"h{level}" for level in range(1, 7)}
)
#: Elements whose IDs are not counted by :func:`id_link_counts`: a heading names its own clause.
UNCOUNTED: Final = frozenset(
    {"script", "style", "textarea", "title", "svg"} | {f"h{level}" for level in range(1, 7)}
)
#: Void elements: never closed.
VOID: Final = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


def anchor(identifier: str) -> str:
    """The anchor of an ID: its lower case (``ATK-4`` → ``atk-4``)."""
    return identifier.lower()


def id_prefixes(targets: Iterable[str]) -> frozenset[str]:
    """The prefixes of the known spec clause IDs (``ATK`` of ``ATK-4``).

    >>> sorted(id_prefixes(["ATK-4", "ATK-5", "R-SPLIT", "IT-ATK-1", "GEN-1"]))
    ['ATK', 'GEN']
    """
    return frozenset(t.rsplit("-", 1)[0] for t in targets if re.fullmatch(r"[A-Z]{2,6}-\d+", t))


def is_id(candidate: str, prefixes: frozenset[str]) -> bool:
    """Whether a match of :data:`ID` is one of ours (``SHA-256`` and ``UTF-8`` are not).

    >>> is_id("ATK-9", frozenset({"ATK"})), is_id("SHA-256", frozenset({"ATK"}))
    (True, False)
    >>> is_id("R-ANYTHING", frozenset()), is_id("FR-X-1", frozenset())
    (True, True)
    """
    if candidate.startswith(("R-", "IT-", "FR-")):
        return True
    return candidate.rsplit("-", 1)[0] in prefixes


def _text_segments(html: str, skipped: frozenset[str] = SKIPPED) -> Iterable[tuple[bool, str]]:
    """The page cut into (linkable, piece): tags and skipped text are not linkable."""
    for inside, text in _segments(html, skipped):
        yield not inside, text


def _segments(html: str, watched: frozenset[str]) -> Iterable[tuple[set[str], str]]:
    """The page cut into (the watched elements open around a piece, the piece); a tag is a
    piece of its own, inside ``{"<tag>"}``."""
    depth: dict[str, int] = {}
    position = 0
    for match in TAG.finditer(html):
        text = html[position : match.start()]
        if text:
            yield {n for n, d in depth.items() if d}, text
        yield {"<tag>"}, match[0]
        position = match.end()
        name = (match["name"] or "").lower()
        if name in watched and name not in VOID and not match["self"]:
            depth[name] = max(0, depth.get(name, 0) + (-1 if match["close"] else 1))
    if position < len(html):
        yield {n for n, d in depth.items() if d}, html[position:]


def link_ids(
    html: str, url_of: Callable[[str], str | None], prefixes: frozenset[str]
) -> tuple[str, list[str]]:
    """The HTML with every ID in running text made a link, and the IDs no target was known for.

    ``url_of(id)`` gives the link's address (relative to the page) or ``None``.

    >>> urls = {"ATK-4": "../spec/base-game/#atk-4", "R-SPLIT": "../spec/rulings/#r-split"}
    >>> link_ids("<p>ATK-4 and R-SPLIT, not <a href='x'>ATK-4</a></p><h3>ATK-4</h3>",
    ...          urls.get, frozenset({"ATK"}))
    ('<p><a class="oog-id" href="../spec/base-game/#atk-4">ATK-4</a> and <a class="oog-id" href="../spec/rulings/#r-split">R-SPLIT</a>, not <a href=\\'x\\'>ATK-4</a></p><h3>ATK-4</h3>', [])
    >>> link_ids("<p>ATK-99 and SHA-256</p>", urls.get, frozenset({"ATK"}))[1]
    ['ATK-99']
    >>> link_ids('<pre>clause("ATK-99") [ATK-4]</pre>', urls.get, frozenset({"ATK"}))
    ('<pre>clause("ATK-99") [<a class="oog-id" href="../spec/base-game/#atk-4">ATK-4</a>]</pre>', [])
    """
    unknown: list[str] = []
    in_code = False

    def replace(match: re.Match[str]) -> str:
        identifier = match["id"]
        if not is_id(identifier, prefixes):
            return identifier
        url = url_of(identifier)
        if url is None:
            if not in_code:  # a code example may name a clause that does not exist on purpose
                unknown.append(identifier)
            return identifier
        return f'<a class="oog-id" href="{url}">{identifier}</a>'

    pieces: list[str] = []
    for inside, text in _segments(html, SKIPPED | {"pre"}):
        in_code = "pre" in inside
        linkable = not inside - {"pre"}
        pieces.append(ID.sub(replace, text) if linkable else text)
    return "".join(pieces), unknown


def id_link_counts(html: str, prefixes: frozenset[str]) -> tuple[int, int]:
    """How many of the IDs of a built page are links, and how many IDs it shows: every ID in
    its text, code blocks included, headings, scripts and pictures aside.

    >>> id_link_counts('<h3>ATK-4</h3><p><a href="#x">ATK-4</a> [ATK-5] SHA-256</p>'
    ...                '<pre>[<a class="oog-id" href="#y">ATK-6</a>]</pre>', frozenset({"ATK"}))
    (2, 3)
    """
    linked = total = 0
    for inside, text in _segments(html, UNCOUNTED | {"a", "autoref"}):
        if "<tag>" in inside or inside & UNCOUNTED:
            continue
        found = sum(1 for m in ID.finditer(text) if is_id(m["id"], prefixes))
        total += found
        if inside & {"a", "autoref"}:
            linked += found
    return linked, total


def unlinked_ids(html: str, prefixes: frozenset[str]) -> list[str]:
    """The IDs left as plain running text in a built page (the build check's test). Code blocks
    are left to the share of :func:`id_link_counts`: a code example may name a clause that does
    not exist on purpose.

    >>> unlinked_ids('<p>See <a href="#atk-4">ATK-4</a>, ATK-5 and SHA-256.</p><pre>ATK-99</pre>',
    ...              frozenset({"ATK"}))
    ['ATK-5']
    """
    return [
        match["id"]
        for linkable, text in _text_segments(html, SKIPPED | {"pre"})
        if linkable
        for match in ID.finditer(text)
        if is_id(match["id"], prefixes)
    ]


def link_targets(
    spec_pages: Iterable[tuple[str, str]], clauses: Iterable[Clause], heading: re.Pattern[str]
) -> dict[str, str]:
    """Every linkable ID → the docs page (``spec/base-game.md``) and anchor that hold it.

    Spec clauses and rulings go to their headings; rulebook clauses to their row of the page of
    the rulebooks' clauses (``rulebook-clauses.md``).
    """
    from tests.clause_map import REPO_ROOT

    targets: dict[str, str] = {}
    for page, source in spec_pages:
        text = (REPO_ROOT / source).read_text(encoding="utf-8")
        for match in heading.finditer(text):
            targets[match["id"]] = f"{page}#{anchor(match['id'])}"
    for clause in clauses:
        for source in clause.sources:
            targets.setdefault(source, f"rulebook-clauses.md#{anchor(source)}")
    return targets


def examples_by_clause(pages: Iterable[Path], prefixes: frozenset[str]) -> dict[str, list[Path]]:
    """The worked example pages that show each spec clause (name it in text or in an event)."""
    shown: dict[str, list[Path]] = {}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for identifier in sorted({m["id"] for m in ID.finditer(text)}):
            if is_id(identifier, prefixes) and not identifier.startswith(("R-", "IT-", "FR-")):
                shown.setdefault(identifier, []).append(page)
    return shown


def page_title(page: Path) -> str:
    """The title of a Markdown page: its first ``# `` heading."""
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return page.stem


def implemented_by_line(functions: Iterable[str]) -> str:
    """The "Implemented by" line of a clause, each function a cross-reference to the API pages.

    >>> implemented_by_line(["outofgears.rules.gears.Gear", "outofgears.rules.gears.Gear.points_for"])
    'Implemented by: [`rules.gears.Gear`][outofgears.rules.gears.Gear], [`rules.gears.Gear.points_for`][outofgears.rules.gears.Gear.points_for]'
    """
    return "Implemented by: " + ", ".join(
        f"[`{path.removeprefix('outofgears.')}`][{path}]" for path in functions
    )


def with_clause_links(
    text: str,
    page: str,
    clauses: Mapping[str, Clause],
    examples: Mapping[str, list[Path]],
    heading: re.Pattern[str],
) -> str:
    """A spec document whose clauses link to their functions and their worked examples.

    Each clause shows one folded note for developers (:func:`with_one_developer_note`): its
    "Implemented by" line, the functions as cross-references to the API reference, goes into the
    clause's own note, and a "Worked examples" line takes its place when an example shows the
    clause.
    """
    up = "../" * page.count("/")
    out: list[str] = []
    section: list[str] = []
    current: str | None = None

    def flush() -> None:
        clause = clauses.get(current) if current is not None else None
        if clause is None:
            out.extend(section)
            return
        shown = [
            f"[{page_title(path)}]({up}examples/{path.name})"
            for path in examples.get(clause.id, [])
        ]
        out.extend(with_one_developer_note(section, clause.functions, shown))

    for line in text.splitlines():
        match = heading.match(line)
        if match:
            flush()
            section, current = [], match["id"]
        section.append(line)
    flush()
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def with_one_developer_note(
    lines: list[str], functions: Iterable[str], examples: list[str]
) -> list[str]:
    """The lines of one clause with a single note for developers, its functions at the end.

    The "Implemented by" line is appended to the clause's last note for developers or, when the
    clause has none, becomes a note of its own before the "Sources:" line; a "Worked examples"
    line, when there are examples, takes its place.

    >>> clause = ["### X-1 — T", "", "Rule.", "", "Sources: none", "", "Implemented by: `a.b`"]
    >>> print("\\n".join(with_one_developer_note(clause, ["outofgears.a.b"], ["[e](e.md)"])))
    ### X-1 — T
    <BLANKLINE>
    Rule.
    <BLANKLINE>
    ??? note "For developers"
        Implemented by: [`a.b`][outofgears.a.b]
    <BLANKLINE>
    Sources: none
    <BLANKLINE>
    Worked examples: [e](e.md)
    """
    implemented = next(
        (i for i, line in enumerate(lines) if line.startswith("Implemented by:")), None
    )
    if implemented is None:
        return lines
    body = [line for i, line in enumerate(lines) if i != implemented]
    if examples:
        body.insert(implemented, "Worked examples: " + ", ".join(examples))
    entry = "    " + implemented_by_line(functions)
    notes = [i for i, line in enumerate(body) if line.startswith(DEVELOPER_NOTE)]
    if notes:
        end = note_end(body, notes[-1])
        return [*body[:end], "", entry, *body[end:]]
    at = next((i for i, line in enumerate(body) if line.startswith("Sources:")), implemented)
    return [*body[:at], DEVELOPER_NOTE, entry, "", *body[at:]]


def note_end(lines: list[str], opening: int) -> int:
    """The index just after the last line of the note for developers opened at ``opening``: its
    body is the indented lines under it, blank lines between them included.

    >>> note_end([DEVELOPER_NOTE, "    a", "", "    b", "", "Sources: x"], 0)
    4
    """
    end = opening + 1
    for index in range(opening + 1, len(lines)):
        line = lines[index]
        if line.startswith("    "):
            end = index + 1
        elif line.strip():
            break
    return end


#: The opening of a note for developers in a spec document (``pymdownx.details``, folded): its
#: body is the lines indented under it.
DEVELOPER_NOTE: Final = '??? note "For developers"'
#: An inline code span of Markdown.
INLINE_CODE: Final = re.compile(r"(`+)(?!`)(?P<code>.+?)(?<!`)\1(?!`)")
#: The lines of a spec document that the build folds for developers itself.
FOLDED_LINES: Final = ("Implemented by:",)


def code_in_prose(markdown: str) -> list[str]:
    """The code of a spec document's text for players, as ``line N: `code````` for an inline
    code span and ``line N: ```lang`` for a fenced code block: everything outside the notes for
    developers (``??? note "For developers"`` and the lines indented under it) and the
    "Implemented by:" lines, which the build folds into the notes. The rules pages read without
    code; the code facts, the executable examples included, go to the notes.

    >>> code_in_prose("A robot `attacks`.\\n\\n" + DEVELOPER_NOTE + "\\n    `apply_turn` does it.\\n")
    ['line 1: `attacks`']
    >>> code_in_prose(DEVELOPER_NOTE + "\\n    ```pycon\\n    >>> `x`\\n    ```\\nImplemented by: `a`")
    []
    >>> code_in_prose("Plain.\\n```pycon\\n>>> `x`\\n```\\n")
    ['line 2: ```pycon']
    """
    found: list[str] = []
    fenced = in_note = False
    for number, line in enumerate(markdown.splitlines(), start=1):
        if fenced:
            fenced = not line.startswith("```")
            continue
        if in_note and (line.startswith("    ") or not line.strip()):
            continue
        in_note = line.startswith(DEVELOPER_NOTE)
        if in_note or line.startswith(FOLDED_LINES):
            continue
        if line.startswith("```"):
            fenced = True
            found.append(f"line {number}: {line.strip()}")
            continue
        found += [f"line {number}: `{m['code']}`" for m in INLINE_CODE.finditer(line)]
    return found
