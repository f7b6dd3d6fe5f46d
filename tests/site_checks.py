"""The build check of the documentation site: read the built HTML, report what a reader trips on.

Run by ``scripts/check_site.py`` (so by ``.ci/run``) after ``mkdocs build --strict``, before the
browser check; ``--static-only`` runs it alone. It fails on:

* a clause, ruling or rulebook ID left as plain text, in running text or in code, event traces
  included (``tests/site_links.py``), and fewer than :data:`LINKED_SHARE` of all the site's IDs
  (headings aside) as links;
* a link to an anchor that the target page does not have;
* the project's bookkeeping ("issue 14") on a reader's page (any page but the changelog and the
  API reference, whose docstrings are the developers');
* ``Sentinel.UNSET`` (click's marker of "no default") anywhere on a page;
* a raw Sphinx role (``:func:`x```) left in a page's text;
* a picture of the table that is not a link to itself (click to enlarge), or whose smallest
  text is under 12 px at the size the page shows it (its own: the pictures are never scaled);
  one without a narrow twin for phones, or whose twin is missing, wider than the text of a
  360-pixel screen (``NARROW_WIDTH``) or has text under 12 px;
* an English sentence left on an Italian or French page that is meant to be translated
  (:data:`TRANSLATED_PAGES`): a sentence of at least :data:`ENGLISH_WORDS` words, outside code,
  that the English page has word for word (:func:`english_left`); an English label of the
  specification's pages left on their Italian or French page (:func:`english_labels_left`).
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from tests.clause_map import REPO_ROOT
from tests.site_links import id_link_counts, unlinked_ids

#: The share of the site's clause, ruling and rulebook IDs that must be links.
LINKED_SHARE: Final = 0.98

#: An element id.
ELEMENT_ID: Final = re.compile(r'\sid="([^"]+)"')
#: A link with a fragment, relative to its page.
LINK: Final = re.compile(r'<a\s[^>]*?href="(?P<href>[^"#:]*#[^"]+)"')
#: What a Sphinx role looks like once Markdown has rendered it.
RAW_ROLE: Final = re.compile(
    r":(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj|const):(?:<code>|`)"
)
#: The project's bookkeeping, which reader pages leave out.
BOOKKEEPING: Final = re.compile(r"\b[Ii]ssue\s+#?\d+\b")
#: The pages that may name the project's issues: the changelog and the API reference.
BOOKKEEPING_PAGES: Final = ("changelog/", "reference/")
#: The folders of the site's other languages (mkdocs-static-i18n): ``it/guide/`` is the guide.
LANGUAGE_FOLDERS: Final = ("it/", "fr/")
#: Built pages that are not content.
SKIPPED_PAGES: Final = ("404.html", "search/", "assets/")


def pages(site: Path) -> Iterator[tuple[str, str]]:
    """The built content pages: (path under the site, HTML)."""
    for path in sorted(site.rglob("*.html")):
        relative = path.relative_to(site).as_posix()
        if not relative.startswith(SKIPPED_PAGES):
            yield relative, path.read_text(encoding="utf-8")


def article(html: str) -> str:
    """The content of a built page (Material's ``<article>``), without the navigation."""
    start = html.find("<article")
    end = html.rfind("</article>")
    return html[start:end] if start >= 0 and end > start else html


def resolve(page: str, href: str) -> tuple[str, str]:
    """The page (path under the site) and fragment a relative link of ``page`` goes to.

    >>> resolve("spec/base-game/index.html", "../rulings/#r-split")
    ('spec/rulings/index.html', 'r-split')
    >>> resolve("spec/base-game/index.html", "#atk-4")
    ('spec/base-game/index.html', 'atk-4')
    """
    target, _, fragment = href.partition("#")
    if not target:
        return page, fragment
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
    if target.endswith("/") or not posixpath.splitext(joined)[1]:
        joined = posixpath.join(joined, "index.html")
    return joined, fragment


#: A picture of the table shown on a page, and the link around it when there is one.
PICTURE: Final = re.compile(
    r'(?P<link><a class="oog-picture" href="(?P<href>[^"]+)"[^>]*>)?'
    r'<img [^>]*?src="(?P<src>[^"]+\.svg)"'
)


def check_pictures(site: Path, page: str, content: str) -> list[str]:
    """Each picture of a page shows once, as its narrow drawing (it fits a phone's and a
    desktop's text column at its own size, text at least 12 px), in a link to its wide drawing
    (click to enlarge)."""
    from outofgears.pictures.render import NARROW_WIDTH
    from tests.doc_pages import narrow_name
    from tests.picture_geometry import text_sizes, width

    problems: list[str] = []
    shown: list[str] = []
    for match in PICTURE.finditer(content):
        src, href = match["src"], match["href"]
        shown.append(src)
        if href is None or narrow_name(href.removesuffix(".svg")) + ".svg" != src:
            problems.append(f"{page}: picture {src} does not open its wide drawing on a click")
        for name in filter(None, (src, href)):
            path, _ = resolve(page, name)
            file = site / path.removesuffix("/index.html")
            if not file.is_file():
                problems.append(f"{page}: picture {name} is missing")
                continue
            svg = file.read_text(encoding="utf-8")
            smallest = min(text_sizes(svg), default=12.0)
            if smallest < 12:
                problems.append(f"{page}: picture {name} has {smallest:g} px text")
            if name == src and width(svg) > NARROW_WIDTH:
                problems.append(f"{page}: picture {src} is {width(svg):g} wide")
    problems += [
        f"{page}: picture {src} is shown {shown.count(src)} times"
        for src in sorted(set(shown))
        if shown.count(src) > 1
    ]
    return problems


def id_prefixes_of_the_spec() -> frozenset[str]:
    """The prefixes of the spec clause IDs (``ATK``, ``GEN``, ...), read from the spec."""
    from tests.clause_map import load_clause_map
    from tests.doc_pages import ANCHORED_HEADING, SPEC_PAGES
    from tests.site_links import id_prefixes, link_targets

    return id_prefixes(link_targets(SPEC_PAGES, load_clause_map(), ANCHORED_HEADING))


def check_built_site(site: Path, prefixes: frozenset[str] | None = None) -> list[str]:
    """The problems of a built site (none when it passes)."""
    prefixes = id_prefixes_of_the_spec() if prefixes is None else prefixes
    built = dict(pages(site))
    ids = {page: set(ELEMENT_ID.findall(html)) for page, html in built.items()}
    problems: list[str] = []
    linked, total = id_link_figures(site, prefixes)
    if total and linked < LINKED_SHARE * total:
        problems.append(f"only {linked} of {total} IDs are links (under {LINKED_SHARE:.0%})")
    for page, html in built.items():
        content = article(html)
        unlinked = unlinked_ids(content, prefixes)
        if unlinked:
            problems.append(f"{page}: unlinked ID(s) {sorted(set(unlinked))}")
        for match in LINK.finditer(content):
            target, fragment = resolve(page, match["href"])
            if target in ids and fragment not in ids[target]:
                problems.append(f"{page}: link {match['href']} has no anchor in {target}")
        problems += check_pictures(site, page, content)
        if not unlocalised(page).startswith(BOOKKEEPING_PAGES):
            bookkeeping = sorted({" ".join(m.split()) for m in BOOKKEEPING.findall(_text(content))})
            if bookkeeping:
                problems.append(f"{page}: names the project's bookkeeping {bookkeeping}")
        if "Sentinel.UNSET" in html:
            problems.append(f"{page}: shows Sentinel.UNSET")
        roles = RAW_ROLE.findall(content)
        if roles:
            problems.append(f"{page}: {len(roles)} raw Sphinx role(s), e.g. {roles[0]!r}")
    for page, labels in english_labels_left(built).items():
        problems.append(f"{page}: the English label(s) {labels} left")
    for page, left in english_left(built, the_games_words()).items():
        problems.append(f"{page}: {len(left)} English sentence(s) left, e.g. {left[0]!r}")
    return problems


#: The pages of the Italian and French sites written in their language (the specification's
#: clauses, the rulings and the developers' pages are English in every language).
TRANSLATED_PAGES: Final = (
    "guide/index.html",
    "guide/turn-card/index.html",
    "guide/glossary/index.html",
    "guide/table/index.html",
    "examples/",
)
#: How many words a sentence needs before an identical one counts as English left untranslated
#: (names such as "Robot Upgrades" or "Super Attack" are shorter).
ENGLISH_WORDS: Final = 5
#: What is not prose: code, the pictures' drawings, the permalinks, the page's scripts.
_NOT_PROSE: Final = re.compile(
    r"<(pre|code|script|style|svg|kbd)\b.*?</\1>|<a class=\"headerlink\".*?</a>", re.DOTALL
)
#: Where a sentence ends: a stop, a block's edge or a table cell's.
_SENTENCE_END: Final = re.compile(
    r"(?<=[.!?;:])\s+|</?(?:p|li|td|th|h[1-6]|div|summary|figcaption|dt|dd|blockquote|br)\b[^>]*>"
)
#: A word of a sentence: letters (a clause ID, a number or a name in code is not one).
_WORD: Final = re.compile(r"(?<![\w-])[^\W\d_]{2,}(?![\w-])")


def sentences(html: str) -> set[str]:
    """The sentences of a page's content with at least :data:`ENGLISH_WORDS` words, spacing
    normalised, code left out.

    >>> sorted(sentences("<p>The defence resolves first (ATK-2). <code>Robot 1 attacks it</code>"
    ...     " Robot 1 then takes one gear.</p><td>a card from one to eight</td>"))
    ['Robot 1 then takes one gear.', 'a card from one to eight']
    """
    text = _SENTENCE_END.sub("\n", _NOT_PROSE.sub(" ", html))
    found = set()
    for raw in text.split("\n"):
        sentence = " ".join(re.sub(r"<[^>]+>", " ", raw).split())
        if len(_WORD.findall(sentence)) >= ENGLISH_WORDS:
            found.add(sentence)
    return found


#: The fixed labels of the specification's pages, which its Italian and French pages translate
#: (their clauses stay English): the titles of the notes and boxes, the labels that start a
#: paragraph, the rulebooks' names in a source's line.
SPEC_TITLES: Final = ("For developers", "For example", "In the players' languages")
SPEC_PARAGRAPH_LABELS: Final = ("Sources:", "Sources (the paraphrases", "Worked examples:")
SPEC_RULEBOOK_NAMES: Final = ("(Italian rulebook,", "(French rulebook,")
_TITLES: Final = re.compile(r"<summary>(.*?)</summary>|<p class=\"admonition-title\">(.*?)</p>")
_STARTS: Final = re.compile(r"<(p|li)>(?=(.{0,160}))", re.DOTALL)


def english_labels_left(built: dict[str, str]) -> dict[str, list[str]]:
    """The English labels left on the specification's Italian and French pages: in the titles of
    their notes and boxes, at the start of a paragraph, in a source's line (a clause's own text
    may say "for example" or "the Italian rulebook": it is English on every page).

    >>> english_labels_left({"it/spec/index.html": "<article><p>Fonti: x. For example</p>"
    ...     "<summary>For developers</summary><li><a>IT-A-1</a> (French rulebook, x)</li>"
    ...     "<p>For example, a rule.</p></article>",
    ...     "spec/index.html": "<article><p>Sources: x</p></article>"})
    {'it/spec/index.html': ['For developers', '(French rulebook,']}
    """
    left = {}
    for page, html in built.items():
        if page == unlocalised(page) or not unlocalised(page).startswith("spec/"):
            continue
        content = _NOT_PROSE.sub(" ", article(html))
        titles = [" ".join(_text("".join(t)).split()) for t in _TITLES.findall(content)]
        starts = {
            kind: [" ".join(_text(s).split()) for k, s in _STARTS.findall(content) if k == kind]
            for kind in ("p", "li")
        }
        found = [label for label in SPEC_TITLES if any(t.startswith(label) for t in titles)]
        found += [
            label
            for label in SPEC_PARAGRAPH_LABELS
            if any(s.startswith(label) for s in starts["p"])
        ]
        found += [label for label in SPEC_RULEBOOK_NAMES if any(label in s for s in starts["li"])]
        if found:
            left[page] = found
    return left


def the_games_words() -> frozenset[str]:
    """The game's words in the three languages (``spec/terms.toml``): names, the same on every
    page (the glossary shows each in its three columns)."""
    with (REPO_ROOT / "spec" / "terms.toml").open("rb") as file:
        terms = tomllib.load(file)["term"]
    return frozenset(term[lang] for term in terms for lang in ("en", "it", "fr"))


def english_left(
    built: dict[str, str], names: frozenset[str] = frozenset()
) -> dict[str, list[str]]:
    """The English sentences left on each Italian and French page meant to be translated: the
    sentences it shares word for word with its English page (a name of ``names`` aside, with
    or without its "(ours)" mark).

    >>> english_left({"guide/index.html": "<article><p>Each robot takes two gears here.</p>"
    ...     "<p>A short one.</p></article>", "it/guide/index.html": "<article><p>Ogni robot "
    ...     "prende due rotelle qui.</p><p>Each robot takes two gears here.</p></article>"})
    {'it/guide/index.html': ['Each robot takes two gears here.']}
    """
    left: dict[str, list[str]] = {}
    for page, html in built.items():
        english_page = unlocalised(page)
        if english_page == page or not english_page.startswith(TRANSLATED_PAGES):
            continue
        english = sentences(article(built.get(english_page, "")))
        same = sorted(
            sentence
            for sentence in sentences(article(html)) & english
            if sentence.removesuffix(" (ours)") not in names
        )
        if same:
            left[page] = same
    return left


def unlocalised(page: str) -> str:
    """A built page's path in the default language.

    >>> unlocalised("it/changelog/index.html"), unlocalised("guide/index.html")
    ('changelog/index.html', 'guide/index.html')
    """
    for folder in LANGUAGE_FOLDERS:
        if page.startswith(folder):
            return page.removeprefix(folder)
    return page


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def id_link_figures(site: Path, prefixes: frozenset[str] | None = None) -> tuple[int, int]:
    """How many of the clause, ruling and rulebook IDs of the built site's pages are links, and
    how many there are (headings aside)."""
    prefixes = id_prefixes_of_the_spec() if prefixes is None else prefixes
    counts = [id_link_counts(article(html), prefixes) for _, html in pages(site)]
    return sum(c[0] for c in counts), sum(c[1] for c in counts)


#: The turn card, in each language: it must print on one sheet.
TURN_CARDS: Final = (
    "guide/turn-card/index.html",
    *(f"{f}guide/turn-card/index.html" for f in LANGUAGE_FOLDERS),
)


def printed_sheets(site: Path, pages: tuple[str, ...] = TURN_CARDS) -> dict[str, int]:
    """How many A4 and Letter sheets each page prints on, in headless Chromium (Playwright and
    the system's Chromium, the extra ``browser-check``): ``{"guide/... A4": 1, ...}``."""
    from playwright.sync_api import sync_playwright  # type: ignore[import-not-found,unused-ignore]

    sheets: dict[str, int] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page()
        for path in pages:
            page.goto((site / path).resolve().as_uri())
            for paper in ("A4", "Letter"):
                pdf = page.pdf(format=paper)
                sheets[f"{path} {paper}"] = len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))
        browser.close()
    return sheets


if __name__ == "__main__":  # python -m tests.site_checks [SITE]: the figures and the problems
    import sys

    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    built_site = Path(arguments[0] if arguments else "site")
    linked_ids, all_ids = id_link_figures(built_site)
    print(f"IDs that are links: {linked_ids} of {all_ids} ({linked_ids / max(all_ids, 1):.1%})")
    found = check_built_site(built_site)
    if "--print" in sys.argv:  # the turn card on one printed sheet, in every language
        for sheet, count in printed_sheets(built_site).items():
            print(f"{sheet}: {count} sheet(s)")
            if count != 1:
                found.append(f"{sheet} prints on {count} sheets")
    print("\n".join(found) or "no problems")
    sys.exit(1 if found else 0)
