"""A game viewer: one self-contained HTML file that steps through a replayed game log.

:func:`game_html` turns a :class:`~outofgears.judge.replay.Replay` into a page that needs no server
and no network: the pictures of the table (before each turn with its programs, after it with
what moved outlined) are embedded as SVG data, the script and the styles are inline. For each
turn it shows the programs, every event with its spec clause (a link to the documentation site
when a base URL is given), the departures of the log from the rules, highlighted, and a chart
of the scores over the turns with the current turn marked. A decision the log does not record
(a defence steal, an assembly or a split left to the default policy) is marked as inferred. The arrow keys, Home and End, the
buttons and the turn list move through the game; the address's ``#turn-N`` opens a turn.
The before and after pictures stand one above the other, each shown whole at its own size
(its text 12 px): the wide drawing where the screen holds the game's widest
(:func:`picture_switch`), the narrow one, which a phone shows whole, below that; a click shows
a picture full size.

The page is titled by the players and the date, each picture's text alternative is the
table's own description (:func:`~outofgears.pictures.render.describe_position`), and the
departures are told in the players' words (where in the log each sits, its JSON path, is shown
only on request). Its words are English, Italian or French (:data:`WORDS`, ``lang``), from the
package's one set of catalogues (:mod:`outofgears.words`), as the events, the programs and the
clauses' paraphrases are, and the pictures and their text alternatives too.

Whatever a log holds, the page stays inert: every ``<`` of the embedded data is escaped, so
that no name can end or open a script block, and the documentation site's address is accepted
only as an ``http(s)`` or a relative address (:func:`checked_docs_url`).

``outofgears view LOG -o game.html [--turn N] [--docs-url URL] [--lang it]`` writes it.
"""

from __future__ import annotations

import base64
import json
import math
import re
import tomllib
import urllib.parse
from html import escape
from importlib import resources
from typing import Any, Final

from outofgears.clauses import LANGUAGES, paraphrases
from outofgears.errors import ArgumentTypeError, OutOfGearsError, expect
from outofgears.judge.replay import Departure, Replay
from outofgears.pictures.render import INK, NARROW_SCREEN, describe_position, render_svg
from outofgears.rules.choices import Choices
from outofgears.rules.events import Event, GearMoved, SplitResolved
from outofgears.rules.model import GameState
from outofgears.rules.scoring import score_robot
from outofgears.words import colour_name, event_text, program_text, translator
from outofgears.words.findings import TableFollowed, fact_text

#: The pages of the documentation site that hold the clauses, by spec document.
_PAGES: Final = {
    "spec/base-game.md": "spec/base-game/",
    "spec/two-robot-variant.md": "spec/two-robot-variant/",
    "spec/expansions.md": "spec/expansions/",
}


def clause_pages() -> dict[str, str]:
    """Each spec clause's page on the documentation site (``ATK-4`` → ``spec/base-game/``)."""
    text = resources.files("outofgears").joinpath("_spec/clauses.toml").read_text("utf-8")
    entries = tomllib.loads(text).get("clause", [])
    return {e["id"]: _PAGES.get(e["doc"], "spec/base-game/") for e in entries}


def clause_url(clause: str, docs_url: str | None, pages: dict[str, str]) -> str | None:
    """The address of a clause (or ruling) on the documentation site, if a base URL is given.

    >>> clause_url("ATK-4", "https://example.org/docs", {"ATK-4": "spec/base-game/"})
    'https://example.org/docs/spec/base-game/#atk-4'
    >>> clause_url("R-SPLIT", "https://example.org/docs/", {})
    'https://example.org/docs/spec/rulings/#r-split'
    >>> clause_url("ATK-4", None, {}) is None
    True
    """
    if not docs_url:
        return None
    page = "spec/rulings/" if clause.startswith("R-") else pages.get(clause)
    if page is None:
        return None
    return f"{docs_url.rstrip('/')}/{page}#{clause.lower()}"


def inferred(event: Event, choices: Choices) -> bool:
    """Whether an event carries out a decision the log does not record (a default policy).

    A defence steal (ATK-4), an assembly (ASM-1) or a split among several takers whose choice
    the log leaves out was decided by the spec's default policy: the viewer marks it, since the
    table may have decided otherwise.

    >>> from outofgears.rules.gears import Gear
    >>> from outofgears.rules.model import Place
    >>> moved = GearMoved(Gear(1), Place.feet(2), Place.circuit(2), 2, "ASM-1")
    >>> inferred(moved, Choices()), inferred(moved, Choices(assemblies={2: (Gear(1), Gear(1))}))
    (True, False)
    """
    if isinstance(event, GearMoved) and event.robot is not None:
        if event.clause == "ATK-4":
            return (event.robot, event.source.number) not in choices.defence_steals
        if event.clause == "ASM-1":
            return event.robot not in choices.assemblies
    if isinstance(event, SplitResolved):
        return len(event.takers) > 1 and event.share > 0 and event.place not in choices.splits
    return False


#: The colours as the viewer names them, robots 1 to 8.
COLOUR_WORDS: Final = ("red", "orange", "yellow", "green", "blue", "purple", "grey", "white")


def _texts(lang: str) -> dict[str, str]:
    """The viewer's texts in ``lang``, by message, from the package's one set of catalogues
    (:mod:`outofgears.words`): the colours are the engine's colour names."""
    t = translator(lang)
    texts = {
        "game": t.pgettext("viewer", "Out of Gears"),
        "turn": t.pgettext("viewer", "Turn {turn}"),
        "turns": t.pgettext("viewer", "{count} turns."),
        "page": t.pgettext(
            "viewer",
            "Turns {first} to {last} of the {count} turns: a page shows {most} turns at the most "
            "(view --turn N writes the page that holds turn N).",
        ),
        "departs": t.pgettext("viewer", " — departs from the rules"),
        "departure mark": t.pgettext("viewer", "departure"),
        "agrees": t.pgettext("viewer", "Every turn agrees with the rules."),
        "departed one": t.pgettext("viewer", "1 turn departs from the rules"),
        "departed many": t.pgettext("viewer", "{count} turns depart from the rules"),
        "previous": t.pgettext("viewer", "Previous"),
        "next": t.pgettext("viewer", "Next"),
        "previous turn": t.pgettext("viewer", "Previous turn"),
        "next turn": t.pgettext("viewer", "Next turn"),
        "go to turn": t.pgettext("viewer", "Go to turn"),
        "turns nav": t.pgettext("viewer", "Turns"),
        "keys": t.pgettext("viewer", "Keys: ← → (or j k), Home, End"),
        "departures": t.pgettext("viewer", "Where the log departs from the rules"),
        "before": t.pgettext("viewer", "Before the turn, with its programs"),
        "after": t.pgettext("viewer", "After the turn (what moved is outlined)"),
        "enlarge": t.pgettext("viewer", "Click a picture to enlarge it."),
        "close": t.pgettext("viewer", "Close"),
        "programs": t.pgettext("viewer", "Programs"),
        "events": t.pgettext("viewer", "Events, each with the clause behind it"),
        "scores": t.pgettext("viewer", "Scores over the turns"),
        "start": t.pgettext("viewer", "start"),
        "after turn": t.pgettext("viewer", "after turn {turn}"),
        "robot": t.pgettext("viewer", "Robot {robot}"),
        "inferred": t.pgettext("viewer", " inferred: not recorded, the default policy decided"),
        "in the rules": t.pgettext("viewer", "in the rules"),
        "where in the log": t.pgettext("viewer", "where in the log"),
        "departure": t.pgettext(
            "viewer", "{what}: the table wrote {recorded}; the rules give {expected}."
        ),
        "robot place": t.pgettext("viewer", "robot {robot}'s {place}"),
        "feet": t.pgettext("viewer", "feet"),
        "circuit": t.pgettext("viewer", "circuit"),
        "score of": t.pgettext("viewer", "{name}'s score"),
        "dump": t.pgettext("viewer", "dump {dump}"),
        "drawn": t.pgettext("viewer", "the gear turned up onto dump {dump}"),
        "none": t.pgettext("viewer", "none"),
        "points": t.pgettext("viewer", "{count} points"),
        "point": t.pgettext("viewer", "1 point"),
        "worth": t.pgettext("viewer", "robot {robot}'s gears: {sum}"),
        "gears worth": t.pgettext("viewer", "{count} \N{MULTIPLICATION SIGN} {worth}"),
    }
    for colour, name in enumerate(COLOUR_WORDS, start=1):
        texts[name] = colour_name(colour, lang, 1)
        texts[f"{name} many"] = colour_name(colour, lang, 2)
    return texts


#: The viewer's texts by language, made once (:func:`_texts`).
WORDS: Final[dict[str, dict[str, str]]] = {lang: _texts(lang) for lang in LANGUAGES}


def word(message: str, lang: str = "en", **values: object) -> str:
    """The viewer's text of ``message`` in ``lang`` (English when the language lacks it),
    with ``values`` put in.

    >>> word("turn", "it", turn=3), word("points", "fr", count=5)
    ('Turno 3', '5 points')
    """
    return WORDS.get(lang, WORDS["en"])[message].format(**values)


class DocsUrlError(OutOfGearsError, ValueError):
    """A documentation site's address that is neither ``http(s)`` nor relative.

    Attributes:
        url: The address refused.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        super().__init__(
            f"--docs-url {json.dumps(url)}: give an http:// or https:// address or a relative one"
        )


_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


def checked_docs_url(url: str) -> str:
    """``url`` when it is an ``http(s)`` address with a host or a relative one; every other
    scheme (``javascript:``, ``data:``, ``vbscript:``, ``file:`` ...) is refused, and so is
    any space or control character, which a browser would drop before reading the scheme.

    >>> checked_docs_url("https://example.org/docs/"), checked_docs_url("../docs")
    ('https://example.org/docs/', '../docs')
    >>> checked_docs_url("java\\tscript:alert(1)")
    Traceback (most recent call last):
    ...
    outofgears.pictures.viewer.DocsUrlError: --docs-url "java\\tscript:alert(1)": give an http:// or https:// address or a relative one
    """
    if not isinstance(url, str) or any(ord(c) <= 0x20 or 0x7F <= ord(c) <= 0x9F for c in url):
        raise DocsUrlError(str(url))
    scheme = _SCHEME.match(url)
    if scheme is None:
        return url
    parts = urllib.parse.urlsplit(url)
    if scheme[1].lower() in ("http", "https") and parts.netloc:
        return url
    raise DocsUrlError(url)


def _data_url(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


_PATHS: Final = (
    (re.compile(r"\.recorded\.robots\.(\d+)\.(feet|circuit)$"), "robot place"),
    (re.compile(r"\.recorded\.scores\.(.+)$"), "score of"),
    (re.compile(r"\.recorded\.dumps\.(\d+)$"), "dump"),
    (re.compile(r"\.drawn\.(\d+)$"), "drawn"),
)


def departure_what(departure: Departure, lang: str) -> str:
    """What a departure is about, in the players' words: read from where it is in the log."""
    for pattern, message in _PATHS:
        found = pattern.search(departure.json_path)
        if found is None:
            continue
        if message == "robot place":
            return word(message, lang, robot=found[1], place=word(found[2], lang))
        if message == "score of":
            return word(message, lang, name=found[1])
        return word(message, lang, dump=found[1])
    return departure.what


def score_sum(state: GameState, robot: int, lang: str) -> str:
    """How a robot's points add up, by the worth of its gears: ``2 \N{MULTIPLICATION SIGN} 2 + 1 \N{MULTIPLICATION SIGN} 1 = 5 points``."""
    held = state.robot(robot)
    worths = [gear.points_for(robot) for gear in (*held.feet, *held.circuit)]
    counts = sorted({worth: worths.count(worth) for worth in worths}.items(), reverse=True)
    total = score_robot(held)
    terms = " + ".join(word("gears worth", lang, count=n, worth=w) for w, n in counts)
    points = word("point", lang) if total == 1 else word("points", lang, count=total)
    return word("worth", lang, robot=robot, sum=f"{terms or 0} = {points}")


def departure_entry(
    departure: Departure, after: GameState, lang: str, docs_url: str | None, pages: dict[str, str]
) -> dict[str, Any]:
    """One departure as the page shows it: a sentence in the players' words, why (a score
    added up on ``after``, the position the rules give after the turn, or the rules' reason),
    its clause, and its JSON path for who asks."""
    text = word(
        "departure",
        lang,
        what=departure_what(departure, lang),
        recorded=fact_text(departure.told, lang),
        expected=fact_text(departure.given, lang),
    )
    if departure.clause == "END-2" and departure.robot is not None:
        why = score_sum(after, departure.robot, lang)
    else:
        said = "" if departure.why is None else fact_text(departure.why, lang)
        why = said.removesuffix(f" ({departure.clause})")
    return {
        "text": text,
        "reason": why,
        "clause": departure.clause or "",
        "url": clause_url(departure.clause, docs_url, pages) if departure.clause else None,
        "path": departure.json_path,
    }


#: The most turns one page shows. A longer log is shown a page at a time (``view --turn N``
#: writes the page that holds turn N), so that ``view`` stays within a command's budget: each
#: turn costs four pictures, some 30 ms of CPU and 150 kB of page for 8 robots, and a whole
#: 1,000-turn log took 27 s and 680 MB.
PAGE_TURNS: Final = 30


def page_of(count: int, index: int) -> slice:
    """The turns, by index, of the page that holds the turn at ``index`` among ``count``:
    pages of :data:`PAGE_TURNS` from the first turn.

    >>> page_of(12, 5), page_of(1000, 75), page_of(1000, 999)
    (slice(0, 12, None), slice(60, 90, None), slice(990, 1000, None))
    """
    first = index // PAGE_TURNS * PAGE_TURNS
    return slice(first, min(first + PAGE_TURNS, count))


def game_data(
    replay: Replay, docs_url: str | None = None, lang: str = "en", page: slice = slice(None)
) -> dict[str, Any]:
    """What the page shows, turn by turn, as JSON-ready data: the turns of ``page``."""
    if docs_url is not None:
        docs_url = checked_docs_url(docs_url)
    pages = clause_pages()
    shown = replay.turns[page]
    opening = shown[0].before if shown else replay.start
    robots = [robot.number for robot in replay.start.robots]
    scores = [{str(r.number): score_robot(r) for r in opening.robots}]
    turns: list[dict[str, Any]] = []
    for turn in shown:
        after = turn.after  # the table's position when the turn followed it (SET-8)
        scores.append({str(r.number): score_robot(r) for r in after.robots})
        turns.append(
            {
                "turn": turn.turn,
                "programs": [
                    {"robot": robot, "program": program_text(program, lang)}
                    for robot, program in sorted(turn.programs.items())
                ],
                "events": [
                    {
                        "text": event_text(event, lang).removesuffix(f" [{event.clause}]"),
                        "clause": event.clause,
                        "url": clause_url(event.clause, docs_url, pages),
                        "inferred": inferred(event, turn.choices),
                    }
                    for event in turn.result.events
                ],
                "departures": [
                    departure_entry(departure, turn.result.state, lang, docs_url, pages)
                    for departure in turn.departures
                ],
                "followed": fact_text(TableFollowed(turn.turn), lang) if turn.followed else "",
                "before": _data_url(render_svg(turn.before, turn.programs, lang=lang)),
                "after": _data_url(render_svg(after, before=turn.before, lang=lang)),
                "before_narrow": _data_url(
                    render_svg(turn.before, turn.programs, layout="narrow", lang=lang)
                ),
                "after_narrow": _data_url(
                    render_svg(after, before=turn.before, layout="narrow", lang=lang)
                ),
                "before_alt": describe_position(turn.before, turn.programs, lang=lang),
                "after_alt": describe_position(after, before=turn.before, lang=lang),
                "game_over": after.game_over,
            }
        )
    return {
        "robots": robots,
        "scores": scores,
        "turns": turns,
        "clauses": clause_texts(turns, lang),
    }


def clause_texts(turns: list[dict[str, Any]], lang: str = "en") -> dict[str, str]:
    """Our paraphrase of every clause the page cites, by ID, in ``lang`` (English where it
    lacks one), for the page to show on a tap with no network (rulings, which have no
    paraphrase, are left out)."""
    known = paraphrases()
    cited = {
        entry["clause"]
        for turn in turns
        for entry in (*turn["events"], *turn["departures"])
        if entry["clause"]
    }
    return {
        clause: known[clause].get(lang) or known[clause]["en"]
        for clause in sorted(cited)
        if "en" in known.get(clause, {})
    }


def score_chart(data: dict[str, Any], lang: str = "en") -> str:
    """A small SVG chart of every robot's score over the turns, each line labelled by robot."""
    scores: list[dict[str, int]] = data["scores"]
    robots: list[int] = data["robots"]
    width, height, left, top = 560.0, 200.0, 34.0, 12.0
    steps = max(1, len(scores) - 1)
    top_score = max([1, *(s[str(r)] for s in scores for r in robots)])

    def x(index: int) -> float:
        return left + (width - left - 60) * index / steps

    def y(value: int) -> float:
        return top + (height - top - 24) * (1 - value / top_score)

    parts = [
        f'<svg class="chart" viewBox="0 0 {width:g} {height:g}" role="img" '
        f'aria-label="{escape(word("scores", lang))}" xmlns="http://www.w3.org/2000/svg">',
        f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - 60}" y2="{y(0):.1f}" stroke="#888"/>',
        f'<text x="{left - 6}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>',
        f'<text x="{left - 6}" y="{y(top_score) + 4:.1f}" text-anchor="end">{top_score}</text>',
        f'<text x="{x(0):.1f}" y="{height - 4}" text-anchor="middle">{escape(word("start", lang))}</text>',
        f'<text x="{x(steps):.1f}" y="{height - 4}" text-anchor="middle">'
        f"{escape(word('after turn', lang, turn=data['turns'][-1]['turn'] if data['turns'] else 0))}"
        "</text>",
        f'<line id="chart-now" x1="{x(0):.1f}" y1="{top}" x2="{x(0):.1f}" y2="{y(0):.1f}" '
        'stroke="#000" stroke-width="2" stroke-dasharray="4 3"/>',
    ]
    for robot in robots:
        points = " ".join(f"{x(i):.1f},{y(s[str(robot)]):.1f}" for i, s in enumerate(scores))
        last = scores[-1][str(robot)]
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{INK[robot]}" stroke-width="2.5"/>'
            f'<text x="{x(steps) + 6:.1f}" y="{y(last) + 4:.1f}" fill="{INK[robot]}">'
            f"R{robot}: {last}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


_STYLE: Final = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0;
  color:#1a1a1a;background:#fff;font-size:16px;line-height:1.45}
header,main{max-width:1240px;margin:0 auto;padding:0.6rem 16px}
h1{font-size:1.3rem;margin:0.2rem 0}
nav.steps{display:flex;flex-wrap:wrap;gap:0.5rem;align-items:center;position:sticky;top:0;
  background:#fff;padding:0.5rem 0;border-bottom:1px solid #ddd;z-index:1}
button,select{font-size:1rem;min-height:44px;min-width:44px;padding:0 0.8rem}
.pictures{display:flex;flex-direction:column;gap:1rem}
figure{margin:0;max-width:100%}
figure img{display:block;max-width:none;cursor:zoom-in}
figcaption{font-weight:bold;margin:0.3rem 0}
dialog.enlarged{padding:0;border:0;max-width:100vw;max-height:100vh;width:100vw;height:100vh}
dialog.enlarged img{display:block;margin:0 auto;max-width:none}
dialog.enlarged .scroll{overflow:auto;width:100%;height:calc(100% - 52px)}
dialog.enlarged button{position:sticky;top:0;margin:4px}
.departures{border:3px solid #a0460a;background:#fbe5d9;padding:0.5rem 1rem;margin:1rem 0}
.departures h2{margin-top:0}
.departures details{display:inline;font-size:0.9rem}
.departures code{overflow-wrap:anywhere}
.departure-mark{font-weight:bold;color:#a0460a}
ol.events li{margin:0.15rem 0}
ol.events li,.departures li{overflow-wrap:anywhere}
ol.events li.inferred{border-left:4px dashed #8f6200;padding-left:0.4rem;background:#fdf0d5}
details.clause{display:inline}
details.clause summary{display:inline;cursor:pointer;text-decoration:underline dotted}
details.clause[open]{display:block;margin:0.2rem 0 0.3rem;padding:0.2rem 0.5rem;background:#eef2f7;border-radius:4px}
.chart{width:100%;max-width:560px;height:auto;font-size:12px}
.help{color:#555;font-size:0.9rem}
table.programs td,table.programs th{padding:0.2rem 0.8rem 0.2rem 0;text-align:left}
"""

_SCRIPT: Final = """
(function () {
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const turns = data.turns, words = data.words;
  const select = document.getElementById("turn-select");
  let current = 0;
  function say(id, values) {
    return (words[id] || id).replace(/\\{(\\w+)\\}/g, (m, key) => String(values[key]));
  }
  function el(tag, text) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; }
  function clauseLink(clause, url) {
    if (!clause) return el("span", "");
    const text = (data.clauses || {})[clause];
    const label = url ? el("a", clause) : el("span", clause);
    if (url) label.href = url;
    if (!text) return label;
    // The clause in our words, shown on a tap, with no network (and the link, if any).
    const box = el("details"); box.className = "clause";
    const summary = el("summary", clause);
    box.append(summary, el("span", text + (url ? " " : "")));
    if (url) { const more = el("a", say("in the rules", {})); more.href = url; box.append(more); }
    return box;
  }
  function show(index) {
    current = Math.max(0, Math.min(turns.length - 1, index));
    const t = turns[current];
    document.getElementById("turn-title").textContent =
      say("turn", {turn: t.turn}) + (t.departures.length ? say("departs", {}) : "");
    select.value = String(current);
    for (const side of ["before", "after"]) {
      const img = document.getElementById(side);
      img.src = t[side];
      img.alt = t[side + "_alt"];
      document.getElementById(side + "-narrow").srcset = t[side + "_narrow"];
    }
    const programs = document.getElementById("programs");
    programs.replaceChildren();
    for (const p of t.programs) {
      const row = el("tr"); row.append(el("td", say("robot", {robot: p.robot})), el("td", p.program)); programs.append(row);
    }
    const events = document.getElementById("events");
    events.replaceChildren();
    for (const e of t.events) {
      const li = el("li"); li.append(el("span", e.text + " "), clauseLink(e.clause, e.url));
      if (e.inferred) { li.className = "inferred"; li.append(el("strong", say("inferred", {}))); }
      events.append(li);
    }
    const box = document.getElementById("departures");
    const list = document.getElementById("departure-list");
    list.replaceChildren();
    for (const d of t.departures) {
      const li = el("li", d.text + (d.reason ? " (" + d.reason + ")" : "") + " ");
      li.append(clauseLink(d.clause, d.url));
      // where in the log: only on request
      const where = el("details"); where.className = "path";
      where.append(el("summary", say("where in the log", {})), el("code", d.path));
      li.append(" ", where);
      list.append(li);
    }
    const followed = document.getElementById("followed");
    followed.textContent = t.followed; followed.hidden = !t.followed;
    box.hidden = t.departures.length === 0;
    const now = document.getElementById("chart-now");
    const start = parseFloat(now.dataset.x0), step = parseFloat(now.dataset.step);
    const x = start + step * (current + 1);
    now.setAttribute("x1", x); now.setAttribute("x2", x);
    document.getElementById("prev").disabled = current === 0;
    document.getElementById("next").disabled = current === turns.length - 1;
    if (location.hash !== "#turn-" + t.turn) history.replaceState(null, "", "#turn-" + t.turn);
    document.body.dataset.turn = String(t.turn);
  }
  function fromHash() {
    const m = /^#turn-(\\d+)$/.exec(location.hash);
    if (!m) return null;
    const i = turns.findIndex(t => t.turn === Number(m[1]));
    return i >= 0 ? i : null;
  }
  // a click on a picture shows the table at its own size, whole, in a scrolling overlay
  const dialog = document.getElementById("enlarged");
  for (const side of ["before", "after"]) {
    document.getElementById(side).addEventListener("click", () => {
      const big = document.getElementById("enlarged-img");
      big.src = turns[current][side]; big.alt = turns[current][side + "_alt"];
      dialog.showModal();
    });
  }
  document.getElementById("enlarged-close").addEventListener("click", () => dialog.close());
  document.getElementById("prev").addEventListener("click", () => show(current - 1));
  document.getElementById("next").addEventListener("click", () => show(current + 1));
  select.addEventListener("change", () => show(Number(select.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target === select || dialog.open) return;
    if (event.key === "ArrowLeft" || event.key === "k") { show(current - 1); event.preventDefault(); }
    else if (event.key === "ArrowRight" || event.key === "j") { show(current + 1); event.preventDefault(); }
    else if (event.key === "Home") { show(0); event.preventDefault(); }
    else if (event.key === "End") { show(turns.length - 1); event.preventDefault(); }
  });
  window.addEventListener("hashchange", () => { const i = fromHash(); if (i !== null) show(i); });
  const fromAddress = fromHash();
  show(fromAddress !== null ? fromAddress : data.start);
})();
"""


def script_safe_json(data: object) -> str:
    """``data`` as JSON that a ``<script>`` block holds inertly: every ``<``, ``>`` and ``&``
    written as a JSON escape, so that no text (``</script>``, ``<!--``, ``<script>``) can end
    or change the block, and the separators U+2028 and U+2029 escaped too.

    >>> script_safe_json({"name": "<!--<script>"})
    '{"name":"\\\\u003c!--\\\\u003cscript\\\\u003e"}'
    """
    text = json.dumps(data, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def game_title(replay: Replay, date: str | None = None, lang: str = "en") -> str:
    """The page's title: the game, its players in seating order, and the date if given.

    >>> from outofgears.log import GameLog, Start
    >>> from outofgears.judge.replay import replay_log
    >>> log = GameLog(players={"Ada": (1,), "Ben": (2,)}, start=Start(seed=1), turns=())
    >>> game_title(replay_log(log), "2026-11-25", "it")
    'Fuori di Rotella: Ada, Ben \N{EM DASH} 2026-11-25'
    """
    players = ", ".join(replay.log.players)
    return f"{word('game', lang)}: {players}" + (f" \N{EM DASH} {date}" if date else "")


#: The widest the page's column grows, in CSS pixels, and its padding on each side.
_COLUMN: Final = 1240
_PADDING: Final = 16
#: Room for a scrollbar beside the page.
_SCROLLBAR: Final = 24
#: A screen width no screen reaches: the narrow pictures show on every screen.
_EVERY_SCREEN: Final = 100_000


def picture_switch(data: dict[str, Any]) -> int:
    """The widest screen, in CSS pixels, that shows the narrow pictures: below it, a wide
    picture (the widest of the game, with the page's margins) would not show whole; when
    it could not show whole in the page's widest column, every screen shows the narrow ones.

    >>> svg = lambda width: _data_url(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}"/>')
    >>> picture_switch({"turns": [{"before": svg(950), "after": svg(1071)}]})
    1127
    >>> picture_switch({"turns": [{"before": svg(950), "after": svg(1300)}]})
    100000
    """
    widest = max(
        (float(_svg_width(turn[side])) for turn in data["turns"] for side in ("before", "after")),
        default=0.0,
    )
    if widest > _COLUMN - 2 * _PADDING:
        return _EVERY_SCREEN
    return max(NARROW_SCREEN, math.ceil(widest) + 2 * _PADDING + _SCROLLBAR)


def _svg_width(url: str) -> str:
    svg = base64.b64decode(url.partition(",")[2]).decode("utf-8")
    found = re.search(r'<svg [^>]*?width="([0-9.]+)"', svg)
    return found[1] if found else "0"


def game_html(
    replay: Replay,
    *,
    title: str | None = None,
    turn: int | None = None,
    docs_url: str | None = None,
    lang: str = "en",
    date: str | None = None,
) -> str:
    """The viewer page of a replayed game: self-contained HTML, opening at ``turn``, its words
    in ``lang`` (``"en"``, ``"it"`` or ``"fr"``), titled ``title`` or by the players and
    ``date`` (:func:`game_title`).

    Raises:
        DocsUrlError: ``docs_url`` is neither an ``http(s)`` address nor a relative one.
        ArgumentTypeError: ``lang`` is not one of :data:`LANGUAGES`.

    >>> from outofgears.log import GameLog, Start, TurnRecord
    >>> from outofgears.rules.programs import parse_program
    >>> from outofgears.judge.replay import replay_log
    >>> log = GameLog(players={"A": (1,), "B": (2,)}, start=Start(seed=1),
    ...               turns=(TurnRecord(1, {1: parse_program("harvest 1"),
    ...                                     2: parse_program("attack 1")}),))
    >>> page = game_html(replay_log(log), title="A game", docs_url="https://example.org")
    >>> page.startswith("<!DOCTYPE html>"), "https://example.org/spec/base-game/#" in page
    (True, True)
    >>> "<script src" in page or "<link" in page
    False
    """
    expect(replay, Replay, "replay", "a Replay")
    if title is not None:
        expect(title, str, "title", "a str")
    if docs_url is not None:
        expect(docs_url, str, "docs_url", "a str")
    if turn is not None:
        expect(turn, int, "turn", "an int")
    if date is not None:
        expect(date, str, "date", "a str")
    if lang not in LANGUAGES:
        raise ArgumentTypeError("lang", " or ".join(LANGUAGES), lang)
    # The log's turns, which a replay read only through the page's last turn lacks.
    every = [record.turn for record in replay.log.turns]
    page = page_of(len(every), every.index(turn) if turn in every else 0)
    data = game_data(replay, docs_url, lang, page)
    if title is None:
        title = game_title(replay, date, lang)
    numbers = [t["turn"] for t in data["turns"]]
    start = numbers.index(turn) if turn in numbers else 0
    data["start"] = start
    data["words"] = dict(WORDS[lang])
    steps = max(1, len(data["scores"]) - 1)
    x0, step = 34.0, (560.0 - 34.0 - 60) / steps
    chart = score_chart(data, lang).replace(
        'id="chart-now"', f'id="chart-now" data-x0="{x0:.3f}" data-step="{step:.3f}"'
    )
    mark = f" \N{WARNING SIGN} {word('departure mark', lang)}"
    options = "".join(
        f'<option value="{i}">{escape(word("turn", lang, turn=t["turn"]))}'
        f"{escape(mark) if t['departures'] else ''}</option>"
        for i, t in enumerate(data["turns"])
    )
    switch = picture_switch(data)
    payload = script_safe_json(data)
    departed = sum(1 for t in data["turns"] if t["departures"])
    if departed:
        said = (
            word("departed one", lang)
            if departed == 1
            else word("departed many", lang, count=departed)
        )
        verdict = f'<span class="departure-mark">{escape(said)}</span>'
    else:
        verdict = escape(word("agrees", lang))
    if page.stop - page.start < len(every):
        count_line = word(
            "page",
            lang,
            first=every[page.start],
            last=every[page.stop - 1],
            count=len(every),
            most=PAGE_TURNS,
        )
    else:
        count_line = word("turns", lang, count=len(numbers))

    def w(message: str) -> str:
        return escape(word(message, lang))

    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<p>{escape(count_line)} {verdict}</p>
<nav class="steps" aria-label="{w("turns nav")}">
<button id="prev" type="button" aria-label="{w("previous turn")}">&larr; {w("previous")}</button>
<select id="turn-select" aria-label="{w("go to turn")}">{options}</select>
<button id="next" type="button" aria-label="{w("next turn")}">{w("next")} &rarr;</button>
<span class="help">{w("keys")}</span>
</nav>
</header>
<main>
<h2 id="turn-title">{w("turns nav")}</h2>
<section id="departures" class="departures" hidden>
<h2>{w("departures")}</h2>
<ol id="departure-list"></ol>
<p id="followed" hidden></p>
</section>
<p class="help">{w("enlarge")}</p>
<div class="pictures">
<figure><figcaption>{w("before")}</figcaption><picture><source id="before-narrow" media="(max-width: {switch}px)"><img id="before" alt=""></picture></figure>
<figure><figcaption>{w("after")}</figcaption><picture><source id="after-narrow" media="(max-width: {switch}px)"><img id="after" alt=""></picture></figure>
</div>
<dialog id="enlarged" class="enlarged"><button id="enlarged-close" type="button">{w("close")}</button><div class="scroll"><img id="enlarged-img" alt=""></div></dialog>
<h3>{w("programs")}</h3>
<table class="programs"><tbody id="programs"></tbody></table>
<h3>{w("events")}</h3>
<ol id="events" class="events"></ol>
<h3>{w("scores")}</h3>
{chart}
</main>
<script type="application/json" id="game-data">{payload}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""


#: The public names of this module (the rest serves them).
__all__ = [
    "game_html",
]
