"""A game viewer: one self-contained HTML file that steps through a replayed game log.

:func:`game_html` turns a :class:`~outofgears.judge.replay.Replay` into a page that needs no server
and no network: the pictures of the table (before each turn with its programs, after it with
what moved outlined) are embedded as SVG data, the script and the styles are inline. For each
turn it shows the programs, every event with its spec clause (a link to the documentation site
when a base URL is given), the departures of the log from the rules, highlighted, and a chart
of the scores over the turns with the current turn marked. A decision the log does not record
(a defence steal, an assembly or a split left to the default policy) is marked as inferred. The arrow keys, Home and End, the
buttons and the turn list move through the game; the address's ``#turn-N`` opens a turn. On
a screen up to :data:`~outofgears.pictures.render.NARROW_SCREEN` pixels wide the pictures are drawn in
their narrow layout, which a phone shows whole at its own size.

``outofgears view LOG -o game.html [--turn N] [--docs-url URL]`` writes it.
"""

from __future__ import annotations

import base64
import json
import tomllib
from html import escape
from importlib import resources
from typing import Any, Final

from outofgears.clauses import paraphrases
from outofgears.errors import expect
from outofgears.judge.replay import Replay
from outofgears.pictures.render import INK, NARROW_SCREEN, render_svg
from outofgears.rules.choices import Choices
from outofgears.rules.events import Event, GearMoved, SplitResolved
from outofgears.rules.scoring import score_robot

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


def _data_url(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def game_data(replay: Replay, docs_url: str | None = None) -> dict[str, Any]:
    """What the page shows, turn by turn, as JSON-ready data."""
    pages = clause_pages()
    robots = [robot.number for robot in replay.start.robots]
    scores = [{str(r.number): score_robot(r) for r in replay.start.robots}]
    turns: list[dict[str, Any]] = []
    for turn in replay.turns:
        after = turn.result.state
        scores.append({str(r.number): score_robot(r) for r in after.robots})
        turns.append(
            {
                "turn": turn.turn,
                "programs": [
                    {"robot": robot, "program": str(program)}
                    for robot, program in sorted(turn.programs.items())
                ],
                "events": [
                    {
                        "text": str(event),
                        "clause": event.clause,
                        "url": clause_url(event.clause, docs_url, pages),
                        "inferred": inferred(event, turn.choices),
                    }
                    for event in turn.result.events
                ],
                "departures": [
                    {
                        "text": str(departure),
                        "reason": departure.reason or "",
                        "clause": departure.clause or "",
                        "url": clause_url(departure.clause, docs_url, pages)
                        if departure.clause
                        else None,
                    }
                    for departure in turn.departures
                ],
                "before": _data_url(render_svg(turn.before, turn.programs)),
                "after": _data_url(render_svg(after, before=turn.before)),
                "before_narrow": _data_url(render_svg(turn.before, turn.programs, layout="narrow")),
                "after_narrow": _data_url(render_svg(after, before=turn.before, layout="narrow")),
                "game_over": after.game_over,
            }
        )
    return {
        "robots": robots,
        "scores": scores,
        "turns": turns,
        "clauses": clause_texts(turns),
    }


def clause_texts(turns: list[dict[str, Any]]) -> dict[str, str]:
    """Our paraphrase (English) of every clause the page cites, by ID, for the page to show
    on a tap with no network (rulings, which have no paraphrase, are left out)."""
    known = paraphrases()
    cited = {
        entry["clause"]
        for turn in turns
        for entry in (*turn["events"], *turn["departures"])
        if entry["clause"]
    }
    return {
        clause: known[clause]["en"] for clause in sorted(cited) if "en" in known.get(clause, {})
    }


def score_chart(data: dict[str, Any]) -> str:
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
        'aria-label="Scores over the turns" xmlns="http://www.w3.org/2000/svg">',
        f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - 60}" y2="{y(0):.1f}" stroke="#888"/>',
        f'<text x="{left - 6}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>',
        f'<text x="{left - 6}" y="{y(top_score) + 4:.1f}" text-anchor="end">{top_score}</text>',
        f'<text x="{x(0):.1f}" y="{height - 4}" text-anchor="middle">start</text>',
        f'<text x="{x(steps):.1f}" y="{height - 4}" text-anchor="middle">'
        f"after turn {data['turns'][-1]['turn'] if data['turns'] else 0}</text>",
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
header,main{max-width:1100px;margin:0 auto;padding:0.6rem 1rem}
h1{font-size:1.3rem;margin:0.2rem 0}
nav.steps{display:flex;flex-wrap:wrap;gap:0.5rem;align-items:center;position:sticky;top:0;
  background:#fff;padding:0.5rem 0;border-bottom:1px solid #ddd;z-index:1}
button,select{font-size:1rem;min-height:44px;min-width:44px;padding:0 0.8rem}
.pictures{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,480px),1fr));gap:1rem}
figure{margin:0;overflow-x:auto}
figure img{display:block;max-width:none}
figcaption{font-weight:bold;margin:0.3rem 0}
.departures{border:3px solid #a0460a;background:#fbe5d9;padding:0.5rem 1rem;margin:1rem 0}
.departures h2{margin-top:0}
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
  const turns = data.turns;
  const select = document.getElementById("turn-select");
  let current = 0;
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
    if (url) { const more = el("a", "in the rules"); more.href = url; box.append(more); }
    return box;
  }
  function show(index) {
    current = Math.max(0, Math.min(turns.length - 1, index));
    const t = turns[current];
    document.getElementById("turn-title").textContent =
      "Turn " + t.turn + (t.departures.length ? " \\u2014 departs from the rules" : "");
    select.value = String(current);
    document.getElementById("before").src = t.before;
    document.getElementById("after").src = t.after;
    document.getElementById("before-narrow").srcset = t.before_narrow;
    document.getElementById("after-narrow").srcset = t.after_narrow;
    document.getElementById("before").alt = "The table before turn " + t.turn + ", with its programs";
    document.getElementById("after").alt = "The table after turn " + t.turn + ", what moved outlined";
    const programs = document.getElementById("programs");
    programs.replaceChildren();
    for (const p of t.programs) {
      const row = el("tr"); row.append(el("td", "Robot " + p.robot), el("td", p.program)); programs.append(row);
    }
    const events = document.getElementById("events");
    events.replaceChildren();
    for (const e of t.events) {
      const li = el("li"); li.append(el("span", e.text.replace(/ \\[[A-Z-0-9]+\\]$/, "") + " "), clauseLink(e.clause, e.url));
      if (e.inferred) { li.className = "inferred"; li.append(el("strong", " inferred: not recorded, the default policy decided")); }
      events.append(li);
    }
    const box = document.getElementById("departures");
    const list = document.getElementById("departure-list");
    list.replaceChildren();
    for (const d of t.departures) {
      const li = el("li", d.text + (d.reason ? " (" + d.reason + ")" : "") + " ");
      li.append(clauseLink(d.clause, d.url)); list.append(li);
    }
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
  document.getElementById("prev").addEventListener("click", () => show(current - 1));
  document.getElementById("next").addEventListener("click", () => show(current + 1));
  select.addEventListener("change", () => show(Number(select.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target === select) return;
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


def game_html(
    replay: Replay, *, title: str, turn: int | None = None, docs_url: str | None = None
) -> str:
    """The viewer page of a replayed game: self-contained HTML, opening at ``turn``.

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
    expect(title, str, "title", "a str")
    if docs_url is not None:
        expect(docs_url, str, "docs_url", "a str")
    if turn is not None:
        expect(turn, int, "turn", "an int")
    data = game_data(replay, docs_url)
    numbers = [t["turn"] for t in data["turns"]]
    start = numbers.index(turn) if turn in numbers else 0
    data["start"] = start
    steps = max(1, len(data["scores"]) - 1)
    x0, step = 34.0, (560.0 - 34.0 - 60) / steps
    chart = score_chart(data).replace(
        'id="chart-now"', f'id="chart-now" data-x0="{x0:.3f}" data-step="{step:.3f}"'
    )
    mark = " \N{WARNING SIGN} departure"
    options = "".join(
        f'<option value="{i}">Turn {t["turn"]}{mark if t["departures"] else ""}</option>'
        for i, t in enumerate(data["turns"])
    )
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    departed = sum(1 for t in data["turns"] if t["departures"])
    verdict = (
        f'<span class="departure-mark">{departed} turn(s) depart from the rules</span>'
        if departed
        else "Every turn agrees with the rules."
    )
    return f"""<!DOCTYPE html>
<html lang="en">
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
<p>{len(numbers)} turns. {verdict}</p>
<nav class="steps" aria-label="Turns">
<button id="prev" type="button" aria-label="Previous turn">&larr; Previous</button>
<select id="turn-select" aria-label="Go to turn">{options}</select>
<button id="next" type="button" aria-label="Next turn">Next &rarr;</button>
<span class="help">Keys: &larr; &rarr; (or j k), Home, End</span>
</nav>
</header>
<main>
<h2 id="turn-title">Turn</h2>
<section id="departures" class="departures" hidden>
<h2>Where the log departs from the rules</h2>
<ol id="departure-list"></ol>
</section>
<div class="pictures">
<figure><figcaption>Before the turn, with its programs</figcaption><picture><source id="before-narrow" media="(max-width: {NARROW_SCREEN}px)"><img id="before" alt=""></picture></figure>
<figure><figcaption>After the turn (what moved is outlined)</figcaption><picture><source id="after-narrow" media="(max-width: {NARROW_SCREEN}px)"><img id="after" alt=""></picture></figure>
</div>
<h3>Programs</h3>
<table class="programs"><tbody id="programs"></tbody></table>
<h3>Events, each with the clause behind it</h3>
<ol id="events" class="events"></ol>
<h3>Scores over the turns</h3>
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
