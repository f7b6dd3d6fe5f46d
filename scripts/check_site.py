"""Browser check of the built documentation site, in headless Chromium.

Run from the repository root after ``mkdocs build --strict`` (``.ci/run`` does both)::

    .venv/bin/python scripts/check_site.py [--site site] [--artifacts site-artifacts]

It first checks the built HTML without a browser (``tests/site_checks.py``: no clause, ruling
or rulebook ID left unlinked, no link to a missing anchor; ``--static-only`` stops there).
Then it installs Debian's ``chromium`` package when ``/usr/bin/chromium`` is missing (as root, with
``apt-get``; no browser is ever downloaded by Playwright, whose ``playwright install`` this never
runs), serves the site on 127.0.0.1 on a free port for the length of the check, and drives the
system Chromium through Playwright with a new, empty profile. It checks that:

* the home page, a spec page and a worked example load with no console error, no page error and
  no failed request;
* every clause anchor asked for exists (``#atk-4`` on the base-game page);
* the worked example's SVG pictures load and have a size;
* the site search, typed into like a reader would, finds clause ATK-4 by its ID;
* at a phone's width (360 pixels) every worked example shows the narrow twins of its pictures,
  whose smallest text is at least 12 px as shown, and neither a picture nor the page scrolls
  sideways;

and saves screenshots of the worked example (desktop and phone width) and of the search as CI
artifacts (``site-artifacts/worked-example.png``, ``worked-example-phone.png``,
``search.png``).

It then checks the game viewer (``outofgears view``): it writes the viewer of the shipped
disputed game to ``site-artifacts/viewer.html``, opens it from the file with the browser
offline, and checks that every turn is reachable with the keyboard, that the departing turn
shows its departures, that ``#turn-N`` opens turn N, that at a phone's width it shows the narrow
pictures whole with 12 px text, and that nothing fails or logs an error; screenshots
``viewer.png`` and ``viewer-phone.png``. Exit status 0 when all
holds, 1 otherwise; the whole check is bounded by ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import base64
import functools
import http.server
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
#: A phone's screen, in CSS pixels: width and height.
PHONE = (360, 780)
#: What a page says of each picture it shows: its file, the file shown, its own width, its
#: width as shown, and how far its figure scrolls sideways.
_SHOWN_PICTURES = """() => [...document.querySelectorAll("article img[src$='.svg'], figure img")]
  .map(i => { const f = i.closest("figure");
    return [i.getAttribute("src") || i.id, i.currentSrc, i.naturalWidth,
            i.getBoundingClientRect().width, f ? f.scrollWidth - f.clientWidth : 0]; })"""


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
                    page.screenshot(path=str(artifacts / "worked-example.png"), full_page=True)
                problems += [f"{what} /{path}: {error}" for error in errors]
                print(f"  {what}: /{path} {title!r} {time.monotonic() - started:.1f}s", flush=True)
            errors.clear()
            problems += check_search(page, root, artifacts)
            problems += [f"search: {error}" for error in errors]
            errors.clear()
            page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
            for example in sorted(site.glob("examples/*/index.html")):
                path = example.parent.relative_to(site).as_posix() + "/"
                page.goto(root + path, wait_until="load")
                page.wait_for_load_state("networkidle")
                problems += check_phone_pictures(page, f"/{path} at phone width", site, root)
                if path == EXAMPLE:
                    page.screenshot(
                        path=str(artifacts / "worked-example-phone.png"), full_page=True
                    )
            problems += [f"worked examples at phone width: {error}" for error in errors]
            page.set_viewport_size({"width": 1280, "height": 900})
        finally:
            context.close()
    return problems


#: The log the viewer check shows: a shipped game whose turn 4 departs from the rules.
VIEWER_LOG = Path(__file__).resolve().parent.parent / "examples" / "disputed.log.json"
DEPARTING_TURN = 4


def check_viewer(browser: str, artifacts: Path) -> list[str]:
    """The game viewer works from its file, offline: every turn by keyboard, no errors."""
    from playwright.sync_api import sync_playwright

    from outofgears.judge.replay import replay_log
    from outofgears.log import read_log
    from outofgears.pictures.viewer import game_html

    replay = replay_log(read_log(str(VIEWER_LOG)))
    turns = [turn.turn for turn in replay.turns]
    viewer = artifacts / "viewer.html"
    viewer.write_text(
        game_html(
            replay, title="Out of Gears: disputed.log.json", docs_url="https://docs.invalid/"
        ),
        encoding="utf-8",
    )
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
            viewport={"width": 1280, "height": 900},
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
            url = viewer.resolve().as_uri()
            page.goto(url, wait_until="load")

            def shown() -> str:
                return str(page.evaluate("document.body.dataset.turn"))

            if shown() != str(turns[0]):
                problems.append(f"viewer: opens at turn {shown()}, not {turns[0]}")
            seen = [shown()]
            for _ in turns[1:]:
                page.keyboard.press("ArrowRight")
                seen.append(shown())
            if seen != [str(t) for t in turns]:
                problems.append(f"viewer: ArrowRight showed turns {seen}, expected {turns}")
            page.keyboard.press("Home")
            if shown() != str(turns[0]):
                problems.append("viewer: Home does not go to the first turn")
            page.keyboard.press("End")
            if shown() != str(turns[-1]):
                problems.append("viewer: End does not go to the last turn")
            for picture in ("before", "after"):
                width = page.evaluate(f"document.getElementById('{picture}').naturalWidth")
                if not width:
                    problems.append(f"viewer: the {picture} picture did not load")
            page.goto(f"{url}#turn-{DEPARTING_TURN}", wait_until="load")
            page.reload(wait_until="load")
            if shown() != str(DEPARTING_TURN):
                problems.append(f"viewer: #turn-{DEPARTING_TURN} opened turn {shown()}")
            if not page.locator("#departures").is_visible():
                problems.append(f"viewer: turn {DEPARTING_TURN}'s departure is not shown")
            links = page.locator("#events a").count()
            if not links:
                problems.append("viewer: no event links its clause")
            if not page.locator("#events li.inferred").count():
                problems.append(f"viewer: turn {DEPARTING_TURN}'s default decisions not marked")
            explained = page.locator("#events details.clause")
            if not explained.count():
                problems.append("viewer: no clause is explained in the page itself")
            else:
                explained.first.locator("summary").click()
                if not explained.first.locator("span").is_visible():
                    problems.append("viewer: a tapped clause shows no paraphrase")
            page.screenshot(path=str(artifacts / "viewer.png"), full_page=True)
            page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
            page.wait_for_timeout(200)  # the narrow pictures replace the wide ones
            problems += check_phone_pictures(page, "viewer at phone width", None, "")
            page.screenshot(path=str(artifacts / "viewer-phone.png"), full_page=False)
            overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
            if overflow:
                problems.append("viewer: the page is wider than a phone's screen")
            problems += [f"viewer: {error}" for error in errors]
            print(
                f"  viewer: {len(turns)} turns reached by keyboard, {links} clause links on "
                f"turn {DEPARTING_TURN}, offline",
                flush=True,
            )
        finally:
            context.close()
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


def check_phone_pictures(page: object, what: str, site: Path | None, root: str) -> list[str]:
    """At a phone's width: the pictures shown are the narrow ones, not scaled, their smallest
    text at least 12 px as shown, and nothing scrolls sideways."""
    from playwright.sync_api import Page

    from outofgears.pictures.render import MIN_FONT_SIZE, NARROW_WIDTH
    from tests.picture_geometry import text_sizes

    assert isinstance(page, Page)
    problems: list[str] = []
    shown = page.evaluate(_SHOWN_PICTURES)
    smallest_seen = math.inf
    for src, current, natural, width, scroll in shown:
        if natural != NARROW_WIDTH:
            problems.append(f"{what}: picture {src} is {natural} wide, not the narrow one")
            continue
        smallest = min(text_sizes(_shown_svg(current, site, root))) * width / natural
        smallest_seen = min(smallest_seen, smallest)
        if smallest < MIN_FONT_SIZE:
            problems.append(f"{what}: picture {src} shows {smallest:.1f} px text")
        if scroll > 0:
            problems.append(f"{what}: picture {src} scrolls sideways by {scroll} px")
    if not shown:
        problems.append(f"{what}: no picture")
    if page.evaluate("document.documentElement.scrollWidth > window.innerWidth"):
        problems.append(f"{what}: the page is wider than the screen")
    print(
        f"  {what}: {len(shown)} pictures, smallest text {smallest_seen:.1f} px as shown",
        flush=True,
    )
    return problems


def check_search(page: object, root: str, artifacts: Path) -> list[str]:
    """Type a clause ID into the site search, as a reader would, and find the clause."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    page.goto(root, wait_until="load")
    box = page.locator("input[data-md-component='search-query']")
    box.click()
    box.press_sequentially("ATK-4", delay=50)
    # result links carry the highlighted terms as a query string: .../spec/base-game/?h=...#atk-4
    results = page.locator(".md-search-result__item a[href*='/spec/base-game/'][href$='#atk-4']")
    try:
        results.first.wait_for(state="visible", timeout=20_000)
    except Exception:  # playwright's TimeoutError
        page.screenshot(path=str(artifacts / "search.png"))
        return ["search: typing ATK-4 found no result linking to spec/base-game/#atk-4"]
    page.screenshot(path=str(artifacts / "search.png"))
    first = page.locator(".md-search-result__item a").first.get_attribute("href") or ""
    print(f"  search: ATK-4 -> the clause found; first result {first}", flush=True)
    return []


def main(argv: list[str] | None = None) -> int:
    """Run the check; exit status 0 when the site passes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--artifacts", type=Path, default=Path("site-artifacts"))
    parser.add_argument("--timeout", type=int, default=600, help="seconds for the whole check")
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
