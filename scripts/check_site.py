"""Browser check of the built documentation site, in headless Chromium.

Run from the repository root after ``mkdocs build --strict`` (``.ci/run`` does both)::

    .venv/bin/python scripts/check_site.py [--site site] [--artifacts site-artifacts]

It first checks the built HTML without a browser (``tests/site_checks.py``: no clause, ruling
or rulebook ID left unlinked, no link to a missing anchor, each picture shown once;
``--static-only`` stops there). Then it installs Debian's ``chromium`` package when
``/usr/bin/chromium`` is missing (as root, with ``apt-get``; no browser is ever downloaded by
Playwright, whose ``playwright install`` this never runs), serves the site on 127.0.0.1 on a
free port for the length of the check, and drives the system Chromium through Playwright with a
new, empty profile. It checks that:

* the home page, a spec page and a worked example load with no console error, no page error and
  no failed request; every clause anchor asked for exists (``#atk-4`` on the base-game page);
* the site search, typed into like a reader would, finds clause ATK-4 by its ID (first), and
  "piege" finds *Piège* (the index keeps clause IDs whole and folds accents);
* on **every page**, at a desktop's width (1280 pixels) and a phone's (390 and 360): its
  smallest visible text is at least 12 px, and every picture of the table shows whole (neither
  cut by the screen nor by a scrolling box round it) with its smallest text at least 12 px as
  shown (:func:`check_fit`); at a phone's width nothing scrolls sideways;

and saves screenshots at 1280 and 390 pixels of the guide, a worked example and a clause (at its
anchor) in each language as CI artifacts (``site-artifacts/guide-en-1280.png``,
``example-it-390.png``, ``clause-fr-1280.png``, ...), and of the searches (``search.png``,
``search-folded.png``). Each page is loaded once and measured at the three widths in turn.

It then checks the game viewer (``outofgears view``): it writes the viewer of the shipped
disputed game in English, Italian and French to ``site-artifacts/viewer-LANG.html``, opens each
from the file with the browser offline, and checks that every turn is reachable with the
keyboard, that the departing turn shows its departures, that ``#turn-N`` opens turn N, that
the pictures fit at 1280 and 390 pixels with 12 px text, that a click enlarges a picture and
that nothing fails or logs an error; screenshots ``viewer-LANG-1280.png`` and
``viewer-LANG-390.png``. A viewer of a game whose player is named ``<!--<script>`` must still
run its script. Exit status 0 when all holds, 1 otherwise; the whole check is bounded by
``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import base64
import functools
import http.server
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

CHROMIUM = "/usr/bin/chromium"
#: The flags this workplace runs Chromium with (a new empty profile is added per run).
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The pages to open: (path under the site, what it is, anchors that must exist on it).
PAGES = [
    ("", "home page", []),
    ("spec/base-game/", "spec page", ["atk-4", "spl-2", "end-3"]),
    ("examples/defence/", "worked example", []),
]
EXAMPLE = "examples/defence/"
#: A phone's screen, in CSS pixels: width and height (and the narrowest phone checked).
PHONE = (390, 844)
SMALL_PHONE = (360, 780)
DESKTOP = (1280, 900)
#: The smallest text a page may show, in CSS pixels.
MIN_TEXT = 12.0
#: What a page says of each picture of the table it shows: its name, the file shown, its own
#: width, its width as shown, and how much of it is cut off: by the screen, or by a box round
#: it that clips or scrolls (the largest cut, in CSS pixels; 0 when it shows whole).
_SHOWN_PICTURES = """() => [...document.querySelectorAll(
    "article img[src$='.svg'], .oog-figure img, .pictures img")]
  .filter(i => i.getClientRects().length > 0)
  .map(i => {
    const r = i.getBoundingClientRect();
    let left = 0, right = document.documentElement.clientWidth;
    for (let a = i.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX !== "visible") {
        const b = a.getBoundingClientRect();
        left = Math.max(left, b.left); right = Math.min(right, b.right);
      }
    }
    const cut = Math.max(0, left - r.left, r.right - right);
    return [i.id || i.getAttribute("src"), i.currentSrc, i.naturalWidth, r.width, cut];
  })"""
#: The smallest font size of the visible text of a page, in CSS pixels, and where it is.
_SMALLEST_TEXT = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let smallest = [Infinity, ""];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const e = node.parentElement;
    if (!e || e.closest("script, style, noscript, svg, [hidden], .md-search, dialog:not([open])")) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 1 && r.height > 1);
    if (!rects.length) continue;
    const style = getComputedStyle(e);
    if (style.visibility !== "visible" || parseFloat(style.opacity) === 0) continue;
    const size = parseFloat(style.fontSize);
    if (size < smallest[0]) smallest = [size, e.tagName.toLowerCase() + "." + e.className + ": " + node.textContent.trim().slice(0, 40)];
  }
  return smallest;
}"""


def ensure_chromium() -> str:
    """The path of Debian's Chromium, installing the package first when it is missing."""
    if Path(CHROMIUM).exists():
        return CHROMIUM
    if os.geteuid() != 0:
        raise SystemExit(f"{CHROMIUM} is missing; install Debian's chromium package (as root)")
    print("--- installing Debian's chromium package", flush=True)
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-q"], check=True, env=environment, timeout=600)
    subprocess.run(
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium"],
        check=True,
        env=environment,
        timeout=1200,
    )
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"the chromium package did not provide {CHROMIUM}")
    return CHROMIUM


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serve files without logging every request."""

    def log_message(self, format: str, *args: object) -> None:
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    """A server that does not print a traceback when the browser drops a request it no longer
    wants (a ``<picture>`` that switches to its narrow source at a phone's width)."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 on a free port; always stopped on the way out."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _timed_out(signum: int, frame: FrameType | None) -> None:
    raise TimeoutError("the browser check ran out of time")


def check(site: Path, artifacts: Path, browser: str) -> list[str]:
    """Open the pages in headless Chromium; the problems found (none when all holds)."""
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    artifacts.mkdir(parents=True, exist_ok=True)
    with (
        serve(site) as root,
        tempfile.TemporaryDirectory(prefix="oog-chromium-") as profile,
        sync_playwright() as playwright,
    ):
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=browser,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 900},
        )
        try:
            page = context.new_page()
            page.set_default_timeout(30_000)
            errors: list[str] = []
            page.on(
                "console",
                lambda message: (
                    errors.append(f"console {message.type}: {message.text}")
                    if message.type == "error"
                    else None
                ),
            )
            page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
            page.on("requestfailed", lambda request: errors.append(f"failed: {request.url}"))
            page.on(
                "response",
                lambda response: (
                    errors.append(f"HTTP {response.status}: {response.url}")
                    if response.status >= 400
                    else None
                ),
            )
            for path, what, anchors in PAGES:
                errors.clear()
                started = time.monotonic()
                response = page.goto(root + path, wait_until="load")
                page.wait_for_load_state("networkidle")
                if response is None or response.status != 200:
                    problems.append(f"{what} /{path}: no 200 response")
                title = page.title()
                for anchor in anchors:
                    if page.locator(f"[id='{anchor}']").count() != 1:
                        problems.append(f"{what} /{path}: no element with id {anchor!r}")
                if path == EXAMPLE:
                    problems += check_pictures(page, what)
                problems += [f"{what} /{path}: {error}" for error in errors]
                print(f"  {what}: /{path} {title!r} {time.monotonic() - started:.1f}s", flush=True)
            errors.clear()
            problems += check_search(page, site, root, artifacts)
            problems += [f"search: {error}" for error in errors]
            errors.clear()
            problems += check_every_page(page, site, root, artifacts)
            problems += screenshot_clauses(page, root, artifacts)
            problems += [f"pages: {error}" for error in errors]
            page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
        finally:
            context.close()
    return problems


#: The pages shown as screenshots in every language (the clause's is taken at its anchor).
SCREENSHOTS = {"guide/": "guide", EXAMPLE: "example"}
CLAUSE = ("spec/base-game/", "atk-4")
#: The site's languages: the folder of each under the site (English at its root).
SITE_LANGUAGES = {"en": "", "it": "it/", "fr": "fr/"}
#: The widths of the screenshots: a desktop's and a phone's.
SCREENSHOT_WIDTHS = (DESKTOP, PHONE)
#: The pictures of the page have loaded (those the current width shows included).
_PICTURES_LOADED = "() => [...document.images].every(i => i.complete)"
#: Two frames drawn: a ``<picture>`` has chosen its source for the new width.
_TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def check_every_page(page: Any, site: Path, root: str, artifacts: Path) -> list[str]:
    """Every page of every language at a desktop's width and two phones': text size, pictures
    whole (:func:`check_fit`), nothing wider than a phone's screen; the screenshots of the
    guide and a worked example in each language. Each page is loaded once and resized."""
    problems: list[str] = []
    every = sorted(site.glob("**/index.html"))
    pictures = dict.fromkeys((DESKTOP, PHONE, SMALL_PHONE), 0)
    smallest = dict.fromkeys((DESKTOP, PHONE, SMALL_PHONE), math.inf)
    shots = {
        lang + path: f"{name}-{code}"
        for code, lang in SITE_LANGUAGES.items()
        for path, name in SCREENSHOTS.items()
    }
    for file in every:
        path = file.parent.relative_to(site).as_posix() + "/"
        path = "" if path == "./" else path
        page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
        page.goto(root + path, wait_until="load")
        for size in (DESKTOP, PHONE, SMALL_PHONE):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.evaluate(_TWO_FRAMES)
            page.wait_for_function(_PICTURES_LOADED)
            found, fit, least = check_fit(page, f"/{path} at {size[0]} px", site, root)
            problems += found
            pictures[size] += fit
            smallest[size] = min(smallest[size], least)
            if size != DESKTOP and page.evaluate(_WIDER_THAN_SCREEN):
                problems.append(f"/{path} at {size[0]} px: wider than the screen")
            if path in shots and size in SCREENSHOT_WIDTHS:
                name = f"{shots[path]}-{size[0]}.png"
                page.screenshot(path=str(artifacts / name), full_page=True)
    for size in (DESKTOP, PHONE, SMALL_PHONE):
        print(
            f"  every page at {size[0]} px: {len(every)} pages, {pictures[size]} pictures "
            f"whole, smallest text {smallest[size]:.1f} px",
            flush=True,
        )
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    return problems


def screenshot_clauses(page: Any, root: str, artifacts: Path) -> list[str]:
    """A clause as a reader sees it at its anchor, in every language, at a desktop's and a
    phone's width: ``clause-LANG-WIDTH.png``."""
    problems: list[str] = []
    path, anchor = CLAUSE
    for code, lang in SITE_LANGUAGES.items():
        for size in SCREENSHOT_WIDTHS:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.goto(f"{root}{lang}{path}#{anchor}", wait_until="load")
            heading = page.locator(f"[id='{anchor}']")
            if heading.count() != 1 or not heading.is_visible():
                problems.append(f"/{lang}{path}#{anchor} at {size[0]} px: the clause is not shown")
            page.screenshot(path=str(artifacts / f"clause-{code}-{size[0]}.png"))
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    return problems


#: The log the viewer check shows: a shipped game whose turn 4 departs from the rules.
VIEWER_LOG = Path(__file__).resolve().parent.parent / "examples" / "disputed.log.json"
DEPARTING_TURN = 4
#: A player's name that would stop the viewer's script if its data escaped only ``</``.
HOSTILE_NAME = "<!--<script>"


def write_viewers(artifacts: Path) -> dict[str, Path]:
    """The viewer of the disputed game in each language, and one whose first player has a
    hostile name (``"hostile"``), written under ``artifacts``."""
    from outofgears.clauses import LANGUAGES
    from outofgears.judge.replay import replay_log
    from outofgears.log import read_log, read_log_text
    from outofgears.pictures.viewer import game_html

    replay = replay_log(read_log(str(VIEWER_LOG)))
    text = VIEWER_LOG.read_text(encoding="utf-8").replace('"Ada"', json.dumps(HOSTILE_NAME))
    hostile = replay_log(read_log_text(text, "hostile.json"))
    viewers: dict[str, Path] = {}
    for name, game, lang in (
        *((lang, replay, lang) for lang in LANGUAGES),
        ("hostile", hostile, "en"),
    ):
        viewers[name] = artifacts / f"viewer-{name}.html"
        viewers[name].write_text(
            game_html(game, docs_url="https://docs.invalid/", lang=lang, date="2026-11-25"),
            encoding="utf-8",
        )
    return viewers


def check_viewer(browser: str, artifacts: Path) -> list[str]:
    """The game viewer works from its file, offline, in each language: every turn by
    keyboard, the pictures whole at a desktop's and a phone's width, no errors."""
    from playwright.sync_api import sync_playwright

    viewers = write_viewers(artifacts)
    problems: list[str] = []
    with (
        tempfile.TemporaryDirectory(prefix="oog-chromium-") as profile,
        sync_playwright() as playwright,
    ):
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=browser,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": DESKTOP[0], "height": DESKTOP[1]},
            offline=True,
        )
        try:
            page = context.new_page()
            page.set_default_timeout(30_000)
            errors: list[str] = []
            page.on(
                "console",
                lambda message: (
                    errors.append(f"console {message.type}: {message.text}")
                    if message.type == "error"
                    else None
                ),
            )
            page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
            page.on(
                "request",
                lambda request: (
                    errors.append(f"network request: {request.url}")
                    if not request.url.startswith(("file:", "data:"))
                    else None
                ),
            )
            for name, viewer in viewers.items():
                errors.clear()
                page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
                if name == "hostile":
                    page.goto(viewer.resolve().as_uri(), wait_until="load")
                    if page.evaluate("document.body.dataset.turn") != "1":
                        problems.append(f"viewer: a player named {HOSTILE_NAME!r} stops its script")
                    if HOSTILE_NAME not in page.title():
                        problems.append("viewer: the hostile name is not in the title as text")
                else:
                    problems += check_one_viewer(page, viewer, name, artifacts)
                problems += [f"viewer ({name}): {error}" for error in errors]
        finally:
            context.close()
    return problems


def check_one_viewer(page: Any, viewer: Path, lang: str, artifacts: Path) -> list[str]:
    """One language's viewer: the keyboard, the departures, the clauses, the pictures whole
    at 1280 and 390 pixels, a click to enlarge; its screenshots."""
    from outofgears.judge.replay import replay_log
    from outofgears.log import read_log

    turns = [turn.turn for turn in replay_log(read_log(str(VIEWER_LOG))).turns]
    problems: list[str] = []
    what = f"viewer ({lang})"
    url = viewer.resolve().as_uri()
    page.goto(url, wait_until="load")

    def shown() -> str:
        return str(page.evaluate("document.body.dataset.turn"))

    if shown() != str(turns[0]):
        problems.append(f"{what}: opens at turn {shown()}, not {turns[0]}")
    seen = [shown()]
    for _ in turns[1:]:
        page.keyboard.press("ArrowRight")
        seen.append(shown())
    if seen != [str(t) for t in turns]:
        problems.append(f"{what}: ArrowRight showed turns {seen}, expected {turns}")
    page.keyboard.press("Home")
    if shown() != str(turns[0]):
        problems.append(f"{what}: Home does not go to the first turn")
    page.keyboard.press("End")
    if shown() != str(turns[-1]):
        problems.append(f"{what}: End does not go to the last turn")
    page.goto(f"{url}#turn-{DEPARTING_TURN}", wait_until="load")
    page.reload(wait_until="load")
    if shown() != str(DEPARTING_TURN):
        problems.append(f"{what}: #turn-{DEPARTING_TURN} opened turn {shown()}")
    if not page.locator("#departures").is_visible():
        problems.append(f"{what}: turn {DEPARTING_TURN}'s departure is not shown")
    if page.locator("#departure-list code").first.is_visible():
        problems.append(f"{what}: a JSON path shows without being asked for")
    links = page.locator("#events a").count()
    if not links:
        problems.append(f"{what}: no event links its clause")
    if not page.locator("#events li.inferred").count():
        problems.append(f"{what}: turn {DEPARTING_TURN}'s default decisions not marked")
    explained = page.locator("#events details.clause")
    if not explained.count():
        problems.append(f"{what}: no clause is explained in the page itself")
    else:
        explained.first.locator("summary").click()
        if not explained.first.locator("span").is_visible():
            problems.append(f"{what}: a tapped clause shows no paraphrase")
    if page.evaluate("document.documentElement.lang") != lang:
        problems.append(f"{what}: the page is not marked as {lang}")
    for size in (DESKTOP, PHONE, SMALL_PHONE):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        try:  # the pictures of the new width replace the others
            page.wait_for_function(_PICTURES_SHOWN_FOR_THE_WIDTH, timeout=20_000)
        except Exception:  # playwright's TimeoutError
            problems.append(f"{what} at {size[0]} px: the pictures of that width do not load")
        found, count, smallest = check_fit(page, f"{what} at {size[0]} px", None, "")
        problems += found
        if count != 2:
            problems.append(f"{what} at {size[0]} px: {count} pictures shown, not 2")
        if size != DESKTOP and page.evaluate(_WIDER_THAN_SCREEN):
            problems.append(f"{what} at {size[0]} px: the page is wider than the screen")
        if size != SMALL_PHONE:
            page.screenshot(path=str(artifacts / f"viewer-{lang}-{size[0]}.png"), full_page=True)
        print(
            f"  {what} at {size[0]} px: pictures whole, smallest text {smallest:.1f} px",
            flush=True,
        )
    page.locator("#after").click()
    if not page.locator("#enlarged").is_visible():
        problems.append(f"{what}: a click does not enlarge the picture")
    else:
        big = page.evaluate("document.getElementById('enlarged-img').naturalWidth")
        shown_width = page.evaluate(
            "document.getElementById('enlarged-img').getBoundingClientRect().width"
        )
        if not big or shown_width < big - 0.5:
            problems.append(f"{what}: the enlarged picture is {shown_width} of {big} px")
        page.keyboard.press("Escape")
    print(f"  {what}: {len(turns)} turns reached by keyboard, {links} clause links", flush=True)
    return problems


def check_pictures(page: object, what: str) -> list[str]:
    """The SVG pictures of a worked example are loaded and have a size."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    sizes = page.eval_on_selector_all(
        "article img[src$='.svg']",
        "images => images.map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])",
    )
    problems = [
        f"{what}: picture {src} did not load" for src, complete, width in sizes if not complete
    ] + [f"{what}: picture {src} has no size" for src, _, width in sizes if not width]
    if len(sizes) < 2:
        problems.append(f"{what}: {len(sizes)} SVG pictures, expected a before and an after")
    print(f"  {what}: {len(sizes)} SVG pictures, widths {[w for _, _, w in sizes]}", flush=True)
    return problems


def _shown_svg(current: str, site: Path | None, root: str) -> str:
    """The SVG text of a picture as the browser shows it: a file of the site, or a data URL."""
    if current.startswith("data:"):
        return base64.b64decode(current.partition(",")[2]).decode("utf-8")
    assert site is not None
    return (site / current.removeprefix(root).partition("?")[0]).read_text(encoding="utf-8")


_WIDER_THAN_SCREEN = "document.documentElement.scrollWidth > window.innerWidth"
#: True once each picture of the viewer shows, loaded, the source its media query picks for
#: the screen's width (the narrow one up to the switch, the wide one above).
_PICTURES_SHOWN_FOR_THE_WIDTH = """() => [...document.querySelectorAll("picture")].every(picture => {
  const img = picture.querySelector("img"), source = picture.querySelector("source");
  const wanted = source && matchMedia(source.media).matches ? source.srcset : img.src;
  return img.complete && img.naturalWidth > 0 && img.currentSrc === wanted;
})"""


def check_fit(
    page: object, what: str, site: Path | None, root: str
) -> tuple[list[str], int, float]:
    """Every picture of the table on the page shows whole, at a size where its smallest text
    is at least 12 px, and the page's smallest visible text is 12 px too: the problems, how
    many pictures were measured, the smallest text seen."""
    from playwright.sync_api import Page

    from tests.picture_geometry import text_sizes

    assert isinstance(page, Page)
    problems: list[str] = []
    smallest_text, where = page.evaluate(_SMALLEST_TEXT)
    if smallest_text < MIN_TEXT:
        problems.append(f"{what}: text of {smallest_text:g} px ({where})")
    shown = page.evaluate(_SHOWN_PICTURES)
    smallest_seen = float(smallest_text)
    for src, current, natural, width, cut in shown:
        if not natural:
            problems.append(f"{what}: picture {src} did not load")
            continue
        smallest = min(text_sizes(_shown_svg(current, site, root))) * width / natural
        smallest_seen = min(smallest_seen, smallest)
        if smallest < MIN_TEXT - 0.01:
            problems.append(f"{what}: picture {src} shows {smallest:.1f} px text")
        if cut > 0.5:
            problems.append(f"{what}: picture {src} is cut by {cut:.0f} px, not whole")
    return problems, len(shown), smallest_seen


#: What a reader types into the site search, on which language's home page, and what the
#: first section found must be: a clause's anchor, or a section with the accented word.
SEARCHES = (
    # a clause ID kept whole: the clause's own section comes first
    ("ATK-4", "", "#atk-4", "search.png"),
    # accents folded: "piege" finds the sections with the word Piège
    ("piege", "fr/", "piège", "search-folded.png"),
)
#: The sections found (the links with an anchor; a page's own link has none).
_SECTIONS_FOUND = ".md-search-result__item a[href*='#']"
#: True once the first section found is one found for the whole query (its ``h`` terms).
_FIRST_FOUND_FOR = """([selector, query]) => {
  const first = document.querySelector(selector);
  if (!first) return false;
  const terms = new URL(first.href).searchParams.get("h") || "";
  return terms.toLowerCase() === query.toLowerCase();
}"""


def check_search(page: object, site: Path, root: str, artifacts: Path) -> list[str]:
    """Type into the site search, as a reader would: a clause ID finds the clause first, and a
    word typed without its accents finds the sections that have it with them."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    problems: list[str] = []
    for query, home, wanted, screenshot in SEARCHES:
        page.goto(root + home, wait_until="load")
        box = page.locator("input[data-md-component='search-query']")
        box.click()
        box.press_sequentially(query, delay=50)
        # The results of "ATK" and "ATK-" are shown while the rest is typed, so wait for those of
        # the whole query: result links carry the highlighted terms, .../base-game/?h=atk-4#atk-4.
        try:
            page.wait_for_function(_FIRST_FOUND_FOR, arg=[_SECTIONS_FOUND, query], timeout=20_000)
        except Exception:  # playwright's TimeoutError
            problems.append(f"search: typing {query} found nothing for the whole query")
            continue
        finally:
            page.screenshot(path=str(artifacts / screenshot))
        first = page.locator(_SECTIONS_FOUND).first.get_attribute("href") or ""
        count = page.locator(".md-search-result__item").count()
        print(f"  search: {query} -> {count} results shown, the first section {first}", flush=True)
        if wanted.startswith("#"):
            if not first.endswith(wanted):
                problems.append(f"search: the first section found for {query} is {first}")
        else:
            path = first.removeprefix(root).partition("?")[0].partition("#")[0]
            text = (site / path / "index.html").read_text(encoding="utf-8").lower()
            if wanted not in text:
                problems.append(f"search: {query} found {first}, which has no {wanted!r}")
        box.fill("")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Run the check; exit status 0 when the site passes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--artifacts", type=Path, default=Path("site-artifacts"))
    parser.add_argument("--timeout", type=int, default=900, help="seconds for the whole check")
    parser.add_argument(
        "--static-only", action="store_true", help="check the built HTML only, no browser"
    )
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"{args.site}/index.html is missing: run mkdocs build first", file=sys.stderr)
        return 1
    from tests.site_checks import check_built_site

    started = time.monotonic()
    static = check_built_site(args.site)
    print(f"  built HTML: {len(static)} problem(s)", flush=True)
    if static or args.static_only:
        for problem in static:
            print(f"  {problem}", file=sys.stderr)
        return 1 if static else 0
    signal.signal(signal.SIGALRM, _timed_out)
    signal.alarm(args.timeout)
    try:
        browser = ensure_chromium()
        problems = check(args.site.resolve(), args.artifacts, browser)
        problems += check_viewer(browser, args.artifacts)
    except TimeoutError as error:
        problems = [str(error)]
    finally:
        signal.alarm(0)
    elapsed = time.monotonic() - started
    if problems:
        print(f"browser check FAILED in {elapsed:.1f}s:", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(f"browser check passed in {elapsed:.1f}s; screenshots in {args.artifacts}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
