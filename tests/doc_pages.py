"""Run the code of the documentation pages, and build the pages generated at site build time.

Shared by ``tests/test_docs.py`` (which fails when a page's code no longer holds) and
``scripts/gen_docs_pages.py`` (which mkdocs-gen-files runs at build time to write the spec
pages with their clause anchors, the clause index and the worked examples' pictures).

A worked example page (``docs/examples/*.md``) is Markdown whose ``>>>`` lines are a doctest.
It keeps the SVG pictures it shows in a ``pictures`` dict (``pictures[name] =
render_svg(...)``) and shows each as ``![...](img/<name>.svg)``; the site build writes them
there. Every picture is drawn a second time in the narrow layout, for phones, from the same
call (:func:`run_page` records the calls); the site shows it as ``img/<name>-narrow.svg`` on
screens up to ``NARROW_SCREEN`` pixels wide.
"""

from __future__ import annotations

import doctest
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final
from unittest import mock

from attrs import frozen

from tests.clause_map import REPO_ROOT, Clause

#: The documentation sources.
DOCS_DIR: Final = REPO_ROOT / "docs"
#: The worked examples.
EXAMPLES_DIR: Final = DOCS_DIR / "examples"
#: The pages whose ``>>>`` examples run: the home page and the worked examples.
RUN_PAGES: Final = (DOCS_DIR / "index.md", DOCS_DIR / "writing-a-bot.md", DOCS_DIR / "library.md")
#: A picture shown by a worked example page.
PICTURE: Final = re.compile(r"!\[[^\]]+\]\(img/(?P<name>[a-z0-9-]+)\.svg\)")
#: A clause or ruling heading of a spec document: ``### ATK-4 — The defender takes...``.
ANCHORED_HEADING: Final = re.compile(
    r"^(?P<hashes>###) (?P<id>(?:R-)?[A-Z]+(?:-[A-Z]+)*(?:-\d+)?) — (?P<title>.*?)[ \t]*$",
    re.MULTILINE,
)
#: The spec documents of the site: (page, source file); rulings.md has its own nav entry.
SPEC_PAGES: Final = (
    ("spec/index.md", "spec/README.md"),
    ("spec/base-game.md", "spec/base-game.md"),
    ("spec/two-robot-variant.md", "spec/two-robot-variant.md"),
    ("spec/expansions.md", "spec/expansions.md"),
    ("spec/rulings.md", "spec/rulings.md"),
)
FLAGS: Final = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.REPORT_NDIFF


def example_pages() -> tuple[Path, ...]:
    """The worked example pages, the index excluded, in file name order (in English: the
    Italian and French pages written there for a build, ``defence.it.md``, are left out)."""
    return tuple(
        p for p in sorted(EXAMPLES_DIR.glob("*.md")) if p.name != "index.md" and "." not in p.stem
    )


@frozen
class PageRun:
    """What running the ``>>>`` examples of one page gave."""

    path: Path
    examples: int
    failures: int
    report: str
    pictures: dict[str, str]
    #: The same pictures in the narrow layout, by the same names.
    narrow: dict[str, str]


@contextmanager
def narrow_twins() -> Iterator[dict[str, str]]:
    """While it is open, every picture :func:`outofgears.pictures.render.render_svg` draws is drawn in the
    narrow layout too: yields ``{picture: its narrow twin}``."""
    import outofgears.pictures.render

    draw = outofgears.pictures.render.render_svg
    twins: dict[str, str] = {}

    def drawing_both(*args: Any, **kwargs: Any) -> str:
        picture = draw(*args, **kwargs)
        twins[picture] = draw(*args, **{**kwargs, "layout": "narrow"})
        return picture

    with mock.patch.object(outofgears.pictures.render, "render_svg", drawing_both):
        yield twins


def run_page(path: Path) -> PageRun:
    """Run the ``>>>`` examples of a Markdown page as a doctest; keep its ``pictures``, and
    their narrow twins."""
    text = path.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(
        text, {"__name__": f"docs.{path.stem}"}, path.name, str(path), 0
    )
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    output: list[str] = []
    with narrow_twins() as twins:
        runner.run(test, out=output.append, clear_globs=False)
    pictures = test.globs.get("pictures", {})
    if not isinstance(pictures, dict):
        pictures = {}
    drawn = {str(name): str(svg) for name, svg in pictures.items()}
    return PageRun(
        path,
        len(test.examples),
        runner.failures,
        "".join(output),
        drawn,
        {name: twins[svg] for name, svg in drawn.items() if svg in twins},
    )


def narrow_name(name: str) -> str:
    """The name of a picture's narrow twin.

    >>> narrow_name("split-before")
    'split-before-narrow'
    """
    return f"{name}-narrow"


def shown_pictures(path: Path) -> tuple[str, ...]:
    """The names of the pictures a page shows, in page order."""
    return tuple(m["name"] for m in PICTURE.finditer(path.read_text(encoding="utf-8")))


def anchor(identifier: str) -> str:
    """The permanent anchor of a clause or ruling heading.

    >>> anchor("ATK-4"), anchor("R-END-CIRCUIT")
    ('atk-4', 'r-end-circuit')
    """
    return identifier.lower()


def with_clause_anchors(text: str) -> str:
    """A spec document with a permanent ``{#id}`` anchor on each clause and ruling heading.

    The visible text is unchanged; only the attribute list (``attr_list``) is added.

    >>> with_clause_anchors("### ATK-4 — The defender takes one gear\\ntext")
    '### ATK-4 — The defender takes one gear {#atk-4}\\ntext'
    """
    return ANCHORED_HEADING.sub(
        lambda m: f"{m['hashes']} {m['id']} — {m['title']} {{#{anchor(m['id'])}}}", text
    )


def _code(text: str) -> str:
    return f"<code>{text}</code>"


def clause_index(
    clauses: Iterable[Clause], examples: Mapping[str, Sequence[Path]] | None = None
) -> str:
    """The clause index page: spec clause → rulebook sources, examples, functions, tests.

    ``examples`` gives the worked example pages that show each clause. Every rulebook clause
    has an anchor in the second table (``#it-atk-4``), where its IDs on the site link.

    >>> lines = clause_index([Clause("ATK-4", "The defender takes", "spec/base-game.md",
    ...                              ("IT-ATK-4",), ("outofgears.rules.attacks.steal_from_attacker",),
    ...                              ("R-DEFENCE",), ("tests/t.py::test_a",))],
    ...                      {"ATK-4": [Path("docs/examples/defence.md")]}).splitlines()
    >>> print(lines[lines.index("## By spec clause") + 4])  # doctest: +NORMALIZE_WHITESPACE
    | [ATK-4](spec/base-game.md#atk-4) The defender takes | IT-ATK-4 | [defence](examples/defence.md) | [`rules.attacks.steal_from_attacker`][outofgears.rules.attacks.steal_from_attacker] | [R-DEFENCE](spec/rulings.md#r-defence) | <details><summary>1 test</summary><code>tests/t.py::test_a</code></details> |
    >>> print(lines[-1])
    | <span id="it-atk-4"></span>IT-ATK-4 | [ATK-4](spec/base-game.md#atk-4) The defender takes |
    """
    items = tuple(clauses)
    examples = examples or {}
    lines = [
        "# Clause index",
        "",
        "Generated when the site is built from `spec/clauses.toml`, the machine-readable map "
        "that `tests/test_spec_coverage.py` keeps in step with the documents, the code and the "
        "tests, so this table cannot drift from them. Each row is one clause of the "
        "specification: the rulebook clauses it formalises (the IT-… and FR-… IDs of "
        "`CLAUSES.md`), the worked examples that show it, the functions that implement it "
        "(linked to the [API reference](reference/engine.md)), the rulings it depends on and "
        "the tests that check it. The [second table](#by-rulebook-clause) goes from a rulebook "
        "clause to the spec clauses that cite it.",
        "",
        f"{len(items)} clauses, "
        f"{len({s for c in items for s in c.sources})} rulebook clauses, "
        f"{len({t for c in items for t in c.tests})} tests.",
        "",
        "## By spec clause",
        "",
        "| Spec clause | Rulebook clauses | Worked examples | Implemented by | Rulings | Tests |",
        "|---|---|---|---|---|---|",
    ]
    for clause in items:
        sources = ", ".join(clause.sources) or "none (engine clause)"
        spec = f"[{clause.id}]({clause.doc}#{anchor(clause.id)}) {clause.title}"
        shown = ", ".join(
            f"[{path.stem}](examples/{path.name})" for path in examples.get(clause.id, ())
        )
        functions = ", ".join(
            f"[`{path.removeprefix('outofgears.')}`][{path}]" for path in clause.functions
        )
        rulings = ", ".join(f"[{r}](spec/rulings.md#{anchor(r)})" for r in clause.rulings)
        count = len(clause.tests)
        tests = (
            f"<details><summary>{count} test{'s' if count != 1 else ''}</summary>"
            + "<br>".join(_code(test) for test in clause.tests)
            + "</details>"
        )
        lines.append(f"| {spec} | {sources} | {shown} | {functions} | {rulings} | {tests} |")
    by_source: dict[str, list[Clause]] = {}
    for clause in items:
        for source in clause.sources:
            by_source.setdefault(source, []).append(clause)
    lines += [
        "",
        "## By rulebook clause",
        "",
        "| Rulebook clause | Spec clauses |",
        "|---|---|",
    ]
    for source in sorted(by_source):
        cited = ", ".join(f"[{c.id}]({c.doc}#{anchor(c.id)}) {c.title}" for c in by_source[source])
        lines.append(f'| <span id="{anchor(source)}"></span>{source} | {cited} |')
    lines.append("")
    return "\n".join(lines)


#: The rulebook clauses' one-line summaries, in the project's words.
SOURCES_FILE: Final = REPO_ROOT / "spec" / "sources.toml"
#: The page that lists every rulebook clause with its summary (generated).
SOURCES_PAGE: Final = "rulebook-clauses.md"
#: A clause's ``Sources:`` line in a spec document.
SOURCES_LINE: Final = re.compile(r"^Sources: (?P<ids>.+)$", re.MULTILINE)


@frozen
class Source:
    """A rulebook clause: its ID, where it stands in its rulebook, what it says in our words."""

    id: str
    section: str
    summary: str

    @property
    def book(self) -> str:
        """``Italian`` or ``French``."""
        return "Italian" if self.id.startswith("IT-") else "French"


def load_sources() -> dict[str, Source]:
    """Every rulebook clause the specification cites, by ID (``spec/sources.toml``)."""
    import tomllib

    data = tomllib.loads(SOURCES_FILE.read_text(encoding="utf-8"))
    return {key: Source(key, entry["section"], entry["summary"]) for key, entry in data.items()}


def rulebook_box(
    clause_id: str,
    source_ids: Sequence[str],
    paraphrases: Mapping[str, Mapping[str, str]],
    sources: Mapping[str, Source],
) -> list[str]:
    """The box under a clause: its Italian and French paraphrases, then its rulebook clauses,
    each with its one-line summary (``pymdownx.details``, open).

    >>> box = rulebook_box("X-1", ["IT-A-1"], {"X-1": {"it": "Uno.", "fr": "Un."}},
    ...                    {"IT-A-1": Source("IT-A-1", "PREP", "What it says.")})
    >>> print("\\n".join(box))
    ???+ quote "In the players' languages, and the rulebooks' clauses"
        **Italiano** — Uno.
    <BLANKLINE>
        **Français** — Un.
    <BLANKLINE>
        Sources (the paraphrases above are ours; a summary is not the rulebook's text):
    <BLANKLINE>
        - IT-A-1 (Italian rulebook, *PREP*): What it says.
    """
    words = paraphrases.get(clause_id, {})
    lines = [RULEBOOK_BOX]
    for lang, name in (("it", "Italiano"), ("fr", "Français")):
        if lang in words:
            lines += [f"    **{name}** — {words[lang]}", ""]
    if source_ids:
        lines += [
            "    Sources (the paraphrases above are ours; a summary is not the rulebook's text):",
            "",
        ]
        for source_id in source_ids:
            found = sources.get(source_id)
            if found is None:
                lines.append(f"    - {source_id}")
            else:
                lines.append(
                    f"    - {source_id} ({found.book} rulebook, *{found.section}*): {found.summary}"
                )
    else:
        lines.append("    Sources: none, an engine clause (no rulebook says it).")
    return lines


#: The title of the box of :func:`rulebook_box`.
RULEBOOK_BOX: Final = "???+ quote \"In the players' languages, and the rulebooks' clauses\""


def with_rulebook_boxes(
    text: str,
    paraphrases: Mapping[str, Mapping[str, str]],
    sources: Mapping[str, Source],
) -> str:
    """A spec document whose clauses each carry :func:`rulebook_box` after their ``Sources:``
    line (which stays, for the readers who want the IDs alone)."""
    out: list[str] = []
    current: str | None = None
    for line in text.splitlines():
        heading = ANCHORED_HEADING.match(line)
        if heading:
            current = heading["id"]
        found = SOURCES_LINE.match(line)
        out.append(line)
        if found and current is not None and not current.startswith("R-"):
            ids = [
                s.strip() for s in found["ids"].split(",") if s.strip().startswith(("IT-", "FR-"))
            ]
            out += ["", *rulebook_box(current, ids, paraphrases, sources)]
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def rulebook_clauses_page(sources: Mapping[str, Source], clauses: Iterable[Clause]) -> str:
    """The page of every rulebook clause the specification cites: its summary in our words and
    the spec clauses that formalise it; each clause's anchor is its ID (``#it-atk-4``)."""
    cited: dict[str, list[Clause]] = {}
    for clause in clauses:
        for source in clause.sources:
            cited.setdefault(source, []).append(clause)
    lines = [
        "# The rulebooks' clauses",
        "",
        "Every clause of the two rulebooks that the specification cites, with what it says in a "
        "line of the project's own words (a pointer into the rulebook, never its text) and the "
        "clauses of the specification that formalise it. The Italian rulebook is *Fuori di "
        "Rotella*; the French one, *Out of Gears*, also holds the Robot Upgrades and the "
        "expansions #2 (Jolly gears) and #3 (three-point gears). Each spec clause shows the same "
        "summaries under its rule, beside the project's Italian and French paraphrases.",
        "",
    ]
    for book in ("Italian", "French"):
        lines += [
            f"## The {book} rulebook",
            "",
            "| Clause | Where | What it says (our words) | Spec clauses |",
            "|---|---|---|---|",
        ]
        for entry in sources.values():
            if entry.book != book:
                continue
            spec = ", ".join(
                f"[{c.id}]({c.doc}#{anchor(c.id)}) {c.title}" for c in cited.get(entry.id, ())
            )
            lines.append(
                f'| <span id="{anchor(entry.id)}"></span>{entry.id} | {entry.section} '
                f"| {entry.summary} | {spec} |"
            )
        lines.append("")
    return "\n".join(lines)


#: The inline examples of the clauses, in the project's words.
FOR_EXAMPLE_FILE: Final = REPO_ROOT / "spec" / "for-example.toml"
#: The opening of an inline example on a spec page.
FOR_EXAMPLE: Final = '!!! example "For example"'
#: A clause whose own text gives an example.
INLINE_EXAMPLE_IN_TEXT: Final = re.compile(r"\bFor example\b")


def load_for_example() -> dict[str, str]:
    """Each clause's inline example, by clause ID (``spec/for-example.toml``)."""
    import tomllib

    data = tomllib.loads(FOR_EXAMPLE_FILE.read_text(encoding="utf-8"))
    return {key: str(value) for key, value in data.items()}


def with_inline_examples(text: str, examples: Mapping[str, str]) -> str:
    """A spec document with each clause's inline example under its rule: before the clause's
    first note for developers, or its ``Sources:`` line.

    >>> print(with_inline_examples("### X-1 — T\\n\\nRule.\\n\\nSources: none\\n", {"X-1": "Ex."}))
    ### X-1 — T
    <BLANKLINE>
    Rule.
    <BLANKLINE>
    !!! example "For example"
        Ex.
    <BLANKLINE>
    Sources: none
    <BLANKLINE>
    """
    out: list[str] = []
    pending: str | None = None
    for line in text.splitlines():
        heading = ANCHORED_HEADING.match(line)
        if heading:
            pending = examples.get(heading["id"])
        elif pending is not None and line.startswith(('??? note "For developers"', "Sources:")):
            out += [FOR_EXAMPLE, f"    {pending}", ""]
            pending = None
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def clauses_with_an_inline_example(
    documents: Mapping[str, str], examples: Mapping[str, str]
) -> set[str]:
    """The clauses of the spec documents (``{path: text}``) that show an inline example: their
    own text gives one, or ``spec/for-example.toml`` does."""
    shown: set[str] = set()
    for text in documents.values():
        sections = re.split(r"^(?=### )", text, flags=re.MULTILINE)
        for section in sections:
            heading = ANCHORED_HEADING.match(section)
            if heading is None or heading["id"].startswith("R-"):
                continue
            rule = section.split('??? note "For developers"')[0].split("\nSources:")[0]
            if heading["id"] in examples or INLINE_EXAMPLE_IN_TEXT.search(rule):
                shown.add(heading["id"])
    return shown


#: The glossary's words for the Italian and French glossary pages, which the build writes from
#: the English one (``docs/guide/glossary.md``): its tables with the page's language first.
GLOSSARY_WORDS: Final = {
    "it": {
        "title": "Glossario",
        "ours": "(nostra)",
        "intro": (
            "Le parole del gioco in italiano (quelle di *Fuori di Rotella*), in inglese (quelle "
            "di questo progetto) e in francese (quelle di *Out of Gears*), con le clausole della "
            "[specifica](../spec/index.md) che le usano. Una parola segnata *(nostra)* è del "
            "progetto, dove il regolamento non ne ha una.\n\n"
            "Due parole che chi conosce un solo regolamento può non ritrovare:\n\n"
            "- Il regolamento francese non parla mai dei *piedi* di un robot: le rotelle che un "
            "robot tiene fuori dal suo circuito stanno *avec son Robot*, «con il suo robot», o "
            "*à côté des Robots*. Questo progetto le chiama le rotelle ai piedi del robot, come "
            "fa il regolamento italiano, e in francese *aux pieds* del robot.\n"
            "- Una *difesa* si gioca con la carta Attacco sul proprio numero, ma non è un attacco "
            "a se stessi (ATK-1): annulla gli attacchi al difensore e prende una rotella da ogni "
            "attaccante."
        ),
        "columns": {
            "English": "Inglese",
            "Italian": "Italiano",
            "French": "Francese",
            "What it is": "Che cos'è",
            "Clause": "Clausola",
            "Clauses": "Clausole",
        },
        "sections": {
            "Pieces": "Pezzi",
            "Cards": "Carte",
            "Colours": "Colori",
            "Places": "Luoghi",
            "Phases of the game": "Fasi della partita",
            "Actions and other words": "Azioni e altre parole",
        },
    },
    "fr": {
        "title": "Glossaire",
        "ours": "(nôtre)",
        "intro": (
            "Les mots du jeu en français (ceux d'*Out of Gears*), en anglais (ceux de ce projet) "
            "et en italien (ceux de *Fuori di Rotella*), avec les clauses de la "
            "[spécification](../spec/index.md) qui les emploient. Un mot marqué *(nôtre)* est "
            "celui du projet, là où la règle n'en a pas.\n\n"
            "Deux mots que le lecteur d'une seule règle peut chercher en vain :\n\n"
            "- La règle française ne parle jamais des *pieds* d'un robot : les engrenages qu'un "
            "robot détient hors de son circuit sont *avec son Robot* ou *à côté des Robots*. Ce "
            "projet les appelle les engrenages *aux pieds* du robot, comme la règle italienne "
            "(*ai piedi*), sur toutes les pages, dans les commandes et dans la visionneuse.\n"
            "- Une *défense* se joue avec la carte Attaque sur son propre numéro, mais ce n'est "
            "pas une attaque contre soi-même (ATK-1) : elle annule les attaques contre le "
            "défenseur et prend un engrenage à chaque attaquant."
        ),
        "columns": {
            "English": "Anglais",
            "Italian": "Italien",
            "French": "Français",
            "What it is": "Ce que c'est",
            "Clause": "Clause",
            "Clauses": "Clauses",
        },
        "sections": {
            "Pieces": "Pièces",
            "Cards": "Cartes",
            "Colours": "Couleurs",
            "Places": "Lieux",
            "Phases of the game": "Phases de la partie",
            "Actions and other words": "Actions et autres mots",
        },
    },
}
#: The column of each language in the glossary's tables.
_LANGUAGE_COLUMN: Final = {"it": "Italian", "fr": "French"}
#: The Italian and French descriptions of the glossary's words, keyed by the English ones.
GLOSSARY_DESCRIPTIONS: Final = REPO_ROOT / "docs" / "i18n" / "glossary.toml"


def load_glossary_descriptions() -> dict[str, dict[str, str]]:
    """The glossary's descriptions in each language: ``{"it": {english: italian}, ...}``."""
    with GLOSSARY_DESCRIPTIONS.open("rb") as file:
        return tomllib.load(file)


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def translated_glossary(
    english: str, lang: str, descriptions: Mapping[str, str] | None = None
) -> str:
    """The glossary page in Italian or French, from the English page: its tables with the
    page's language in the first column, headings, column names and descriptions translated
    (``descriptions``: the English description to the page's; one missing stays English).

    >>> page = translated_glossary("# Glossary\\n\\nIntro.\\n\\n## Cards\\n\\n"
    ...     "| English | Italian | French | What it is | Clauses |\\n|---|---|---|---|---|\\n"
    ...     "| trap card | Trappola | Piège | a card | TRP-1 |\\n", "fr", {"a card": "une carte"})
    >>> print(page[page.index("## "):])
    ## Cartes
    <BLANKLINE>
    | Français | Anglais | Italien | Ce que c'est | Clauses |
    |---|---|---|---|---|
    | Piège | trap card | Trappola | une carte | TRP-1 |
    <BLANKLINE>
    """
    words = GLOSSARY_WORDS[lang]
    columns: dict[str, str] = words["columns"]  # type: ignore[assignment]
    sections: dict[str, str] = words["sections"]  # type: ignore[assignment]
    lines = english.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(("## ", "|"))), len(lines))
    out = [f"# {words['title']}", "", str(words["intro"]), ""]
    descriptions = {} if descriptions is None else descriptions
    order: list[int] | None = None
    described = -1
    for line in lines[start:]:
        if not line.startswith("|"):
            order = None  # a table ends; the next one has its own header
        if line.startswith("## "):
            out.append("## " + sections.get(line[3:].strip(), line[3:].strip()))
        elif not line.startswith("|"):
            out.append(line)
        elif set(line) <= set("|-: "):
            out.append("|" + "---|" * (line.count("|") - 1))
        else:
            cells = _cells(line)
            if order is None:
                column = _LANGUAGE_COLUMN[lang]
                first = cells.index(column) if column in cells else 0
                order = [first, *(i for i in range(len(cells)) if i != first)]
                described = cells.index("What it is") if "What it is" in cells else -1
                cells = [columns.get(cell, cell) for cell in cells]
            else:
                cells = [cell.replace("(ours)", str(words["ours"])) for cell in cells]
                if 0 <= described < len(cells):
                    cells[described] = descriptions.get(cells[described], cells[described])
            out.append("| " + " | ".join(cells[i] for i in order if i < len(cells)) + " |")
    return "\n".join(out) + "\n"


def environment_page() -> str:
    """The page "The game for bots, at a glance": an environment box like PettingZoo's, the
    fields of ``game_info`` for three tables, and the observation's layout, every figure
    computed from the package when the site is built."""
    import attrs

    from outofgears.play.actions import num_actions, num_joint_actions
    from outofgears.play.game import GameInfo, game_info
    from outofgears.play.observation import observation_size
    from outofgears.rules.model import Options
    from outofgears.rules.setup import setup_seated_game

    base, upgrades = Options(), Options(upgrades=True)
    tables = {
        "4 robots, base game": setup_seated_game(4, seed=0),
        "6 robots, two each": setup_seated_game(6, seed=0, two_robots=True),
        "8 robots, upgrades": setup_seated_game(8, seed=0, options=upgrades),
    }
    infos = {name: game_info(state, turn_cap=100) for name, state in tables.items()}
    meanings = _field_meanings(GameInfo.__doc__ or "")
    lines = [
        "# The game for bots, at a glance",
        "",
        "What a program playing *Out of Gears* sees and does, as the environments of "
        "[PettingZoo](https://pettingzoo.farama.org/) and OpenSpiel describe a game. Every "
        "figure on this page is computed from the package when the site is built. The "
        "functions are in [Bots](bots.md); [Writing a bot](../writing-a-bot.md) shows one.",
        "",
        '!!! info "The environment"',
        "",
        "    | Property | Out of Gears |",
        "    |---|---|",
        "    | Import | `from outofgears.play.pettingzoo import parallel_env` (the extra "
        "`outofgears[pettingzoo]`); OpenSpiel: `outofgears.play.openspiel` |",
        "    | API | PettingZoo `ParallelEnv`: every agent moves at once, every turn |",
        "    | Agents | `P1` … `PK`, one per player: K = `robots` (2 to 8), or `robots / 2` "
        "with `two_robots=True` |",
        f"    | Actions | `Discrete({num_actions(base)})` (`Discrete({num_actions(upgrades)})` "
        f"with the upgrades); two robots each: `Discrete({num_joint_actions(base)})` "
        f"(`Discrete({num_joint_actions(upgrades)})`), one joint move for both |",
        f"    | Observation shape | `({observation_size(base)},)`, float32, the same for every "
        "table, and an `action_mask` of the action space's size, int8 |",
        "    | Observation values | whole numbers from 0 (the turn, gears in the reserve, gears by "
        "colour in each place) and flags and one-hot programs (0 or 1) |",
        "    | Rewards | 0 during the game; at its end each player's win share (1 for a sole "
        "winner, shared on a tie, 0 otherwise; sum 1); an illegal action: -1 to its agent, the "
        "game over |",
        "    | Truncation | at the turn cap, 100 turns by default (ruling R-TURN-CAP) |",
        "",
        "## `game_info` for three tables",
        "",
        "[`game_info`][outofgears.play.game.game_info] describes a game for a framework "
        "before it starts (here with `turn_cap=100` and the default return, the win share).",
        "",
        "| Field | What it is | " + " | ".join(infos) + " |",
        "|---|---|" + "---|" * len(infos),
    ]
    for field in attrs.fields(GameInfo):
        values = " | ".join(_shown(getattr(info, field.name)) for info in infos.values())
        lines.append(f"| `{field.name}` | {meanings.get(field.name, '')} | {values} |")
    lines += [
        "",
        "## The observation vector",
        "",
        "[`Observation.to_vector`][outofgears.play.observation.Observation.to_vector] lays out "
        f"what one player may know as {observation_size(base)} numbers:",
        "",
        *_observation_layout(),
        "",
    ]
    return "\n".join(lines)


def _shown(value: object) -> str:
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return ", ".join("+".join(str(n) for n in group) for group in value)
    if isinstance(value, tuple):
        return ", ".join(str(item) for item in value)
    return "none" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def _field_meanings(doc: str) -> dict[str, str]:
    """The ``Args:`` of a Google-style docstring: name → its description on one line."""
    meanings: dict[str, str] = {}
    current = None
    for line in doc.split("Args:", 1)[-1].splitlines():
        found = re.match(r"^\s{8}(\w+): (.*)$", line)
        if found:
            current = found[1]
            meanings[current] = found[2].strip()
        elif current and line.startswith(" " * 12):
            meanings[current] += " " + line.strip()
        elif line.strip():
            current = None
    return {key: _plain_code(text) for key, text in meanings.items()}


def _plain_code(text: str) -> str:
    """A docstring's text in Markdown: Sphinx roles and double backquotes as code spans.

    >>> _plain_code("one robot (:func:`~outofgears.play.actions.num_actions`), ``None``")
    'one robot (`num_actions`), `None`'
    """
    text = re.sub(r":\w+:`~?([\w.]+)`", lambda m: f"`{m[1].rsplit('.', 1)[-1]}`", text)
    return re.sub(r"``(.+?)``", r"`\1`", text)


def _observation_layout() -> list[str]:
    """The layout table of ``outofgears.play.observation``'s docstring, as Markdown."""
    import outofgears.play.observation
    from scripts.griffe_doctest_blocks import rst_tables_to_markdown

    text = rst_tables_to_markdown(outofgears.play.observation.__doc__ or "")
    rows = [line for line in text.splitlines() if line.startswith("|")]
    return [_plain_code(row) for row in rows]


#: The worked examples in Italian and French (``docs/i18n/examples/LANG/NAME.md``): the prose of
#: the English page, block by block in its order, written in the language; the code, its
#: events and the pictures stay the English page's, one copy (:func:`translated_example`).
EXAMPLE_TRANSLATIONS: Final = DOCS_DIR / "i18n" / "examples"
#: The titles of the folded code notes, in each language.
CODE_NOTE_TITLES: Final = {
    "it": {
        "The code of the page: its helpers": "Il codice della pagina: le sue funzioni",
        "The code of this table": "Il codice di questo tavolo",
        "The code of the page: the table all five cards share": (
            "Il codice della pagina: il tavolo comune alle cinque carte"
        ),
    },
    "fr": {
        "The code of the page: its helpers": "Le code de la page : ses fonctions",
        "The code of this table": "Le code de cette table",
        "The code of the page: the table all five cards share": (
            "Le code de la page : la table commune aux cinq cartes"
        ),
    },
}


def page_blocks(markdown: str) -> list[tuple[str, str]]:
    """A page's blocks in order, each ``("prose", text)`` or ``("code", text)``: a fenced block
    or a note (``???``/``!!!`` with its indented lines) is code, the rest is prose, one block a
    paragraph (a heading, a picture, a list, a table).

    >>> page_blocks("# T\\n\\nA b\\nc.\\n\\n??? example \\"x\\"\\n    >>> 1\\n\\n    ```\\n\\n```\\n>>> 2\\n```\\nEnd.")
    [('prose', '# T'), ('prose', 'A b\\nc.'), ('code', '??? example "x"\\n    >>> 1\\n\\n    ```'), ('code', '```\\n>>> 2\\n```'), ('prose', 'End.')]
    """
    lines = markdown.split("\n")
    blocks: list[tuple[str, str]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), i)
            blocks.append(("code", "\n".join(lines[i : end + 1])))
            i = end + 1
        elif line.startswith(("???", "!!!")):
            end = i + 1
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith("    ")):
                end += 1
            last = end
            while not lines[last - 1].strip():
                last -= 1
            blocks.append(("code", "\n".join(lines[i:last])))
            i = end
        else:
            end = i
            while end < len(lines) and lines[end].strip() and not lines[end].startswith("```"):
                end += 1
            blocks.append(("prose", "\n".join(lines[i:end])))
            i = end
    return blocks


def prose_blocks(markdown: str) -> list[str]:
    """The prose blocks of a page, in order."""
    return [text for kind, text in page_blocks(markdown) if kind == "prose"]


def translated_example(english: str, translation: str, lang: str) -> str:
    """A worked example in Italian or French: the English page with each prose block replaced
    by the translation's block of the same rank and the code notes' titles translated.

    >>> print(translated_example("# Title\\n\\n```\\nx = 1\\n```\\n\\nEnd.", "# Titolo\\n\\nFine.", "it"))
    # Titolo
    <BLANKLINE>
    ```
    x = 1
    ```
    <BLANKLINE>
    Fine.
    <BLANKLINE>
    """
    translated = iter(prose_blocks(translation))
    wanted, given = len(prose_blocks(english)), len(prose_blocks(translation))
    if wanted != given:
        raise ValueError(f"{given} prose blocks in the {lang} translation, {wanted} in English")
    titles = CODE_NOTE_TITLES[lang]
    out = []
    for kind, text in page_blocks(english):
        if kind == "prose":
            out.append(next(translated))
        else:
            first, _, rest = text.partition("\n")
            title = re.fullmatch(r'(\?\?\?|!!!)(\s+\w+\s+)"(.*)"', first)
            if title and title[3] in titles:
                first = f'{title[1]}{title[2]}"{titles[title[3]]}"'
            out.append(first + ("\n" + rest if rest else ""))
    return "\n\n".join(out) + "\n"


def example_translations() -> dict[tuple[str, str], Path]:
    """The translated worked examples: ``{("it", "defence"): path, ...}`` (the index too)."""
    return {
        (path.parent.name, path.stem): path for path in sorted(EXAMPLE_TRANSLATIONS.glob("*/*.md"))
    }


#: The fixed labels of the specification's pages in Italian and French (the clauses themselves
#: are English in every language; their paraphrases in the players' languages are in the box):
#: each English label, as a line starts, and the label of the page's language.
SPEC_LABELS: Final = {
    "it": (
        ('??? note "For developers"', '??? note "Per gli sviluppatori (in inglese)"'),
        (RULEBOOK_BOX, '???+ quote "Nelle lingue dei giocatori, e le clausole dei regolamenti"'),
        (
            "    Sources (the paraphrases above are ours; a summary is not the rulebook's text):",
            "    Fonti (le parafrasi qui sopra sono nostre; un riassunto non è il testo del "
            "regolamento):",
        ),
        (
            "    Sources: none, an engine clause (no rulebook says it).",
            "    Fonti: nessuna, una clausola del motore (nessun regolamento la enuncia).",
        ),
        ('!!! example "For example"', '!!! example "Per esempio (in inglese)"'),
        ("Sources: none (engine clause)", "Fonti: nessuna (clausola del motore)"),
        ("Sources: none", "Fonti: nessuna"),
        ("Sources: ", "Fonti: "),
        ("Worked examples: ", "Esempi svolti: "),
    ),
    "fr": (
        ('??? note "For developers"', '??? note "Pour les développeurs (en anglais)"'),
        (RULEBOOK_BOX, '???+ quote "Dans les langues des joueurs, et les clauses des règles"'),
        (
            "    Sources (the paraphrases above are ours; a summary is not the rulebook's text):",
            "    Sources (les paraphrases ci-dessus sont les nôtres ; un résumé n'est pas le "
            "texte de la règle) :",
        ),
        (
            "    Sources: none, an engine clause (no rulebook says it).",
            "    Sources : aucune, une clause du moteur (aucune règle ne l'énonce).",
        ),
        ('!!! example "For example"', '!!! example "Par exemple (en anglais)"'),
        ("Sources: none (engine clause)", "Sources : aucune (clause du moteur)"),
        ("Sources: none", "Sources : aucune"),
        ("Sources: ", "Sources : "),
        ("Worked examples: ", "Exemples détaillés : "),
    ),
}
#: The rulebooks' names in a source's line of the box, in each language.
_RULEBOOK_NAMES: Final = {
    "it": {
        "(Italian rulebook, ": "(regolamento italiano, ",
        "(French rulebook, ": "(regolamento francese, ",
    },
    "fr": {"(Italian rulebook, ": "(règle italienne, ", "(French rulebook, ": "(règle française, "},
}


def with_localised_labels(text: str, lang: str, titles: Mapping[str, str] | None = None) -> str:
    """A specification page with its fixed labels in Italian or French (:data:`SPEC_LABELS`):
    the notes' and boxes' titles, "Sources", the rulebooks' names, and the worked examples'
    titles in its "Worked examples" lines (``titles``: English title to the page's); the rest
    as it is.

    >>> print(with_localised_labels("Rule.\\n\\nSources: IT-A-1\\n\\n    - IT-A-1 (Italian rulebook,"
    ...     " *PREP*): x", "fr"))
    Rule.
    <BLANKLINE>
    Sources : IT-A-1
    <BLANKLINE>
        - IT-A-1 (règle italienne, *PREP*): x
    >>> with_localised_labels("Worked examples: [Assembly](a.md)", "it", {"Assembly": "Assemblaggio"})
    'Esempi svolti: [Assemblaggio](a.md)'
    """
    out = []
    examples_label = dict(SPEC_LABELS[lang])["Worked examples: "]
    for line in text.split("\n"):
        for english, label in SPEC_LABELS[lang]:
            if line.startswith(english):
                line = label + line[len(english) :]
                break
        if line.startswith("    - "):
            for english, name in _RULEBOOK_NAMES[lang].items():
                line = line.replace(english, name, 1)
        if line.startswith(examples_label):
            for english, title in (titles or {}).items():
                line = line.replace(f"[{english}](", f"[{title}](")
        out.append(line)
    return "\n".join(out)


def example_titles(lang: str) -> dict[str, str]:
    """The worked examples' titles in a language: ``{"Assembly": "Assemblaggio", ...}``."""

    def title(path: Path) -> str:
        return path.read_text(encoding="utf-8").partition("\n")[0].removeprefix("# ").strip()

    return {
        title(EXAMPLES_DIR / f"{name}.md"): title(path)
        for (language, name), path in example_translations().items()
        if language == lang
    }
