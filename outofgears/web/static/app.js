// The table's page on a phone (or the host's): one WebSocket, the seat's view after every
// change, and what the seat does. Every word comes from the server and is written with
// textContent: nothing received is ever read as HTML.
"use strict";
(function () {
  const parts = location.pathname.split("/");
  const key = parts[2] || "";
  const isHost = parts[1] === "h";
  const store = `oog-seal-${key}`;
  let words = {};
  let view = null;
  let socket = null;
  let shownSig = "";
  let chosen = {};
  let answerChosen = null;
  let revealedTurn = 0;
  let countdown = null;
  let retry = 500;

  const $ = (id) => document.getElementById(id);
  const say = (template, values) =>
    (words[template] || template).replace(/\{(\w+)\}/g, (_, name) => String(values?.[name] ?? ""));

  function el(tag, text, attrs) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    return node;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function showError(text) {
    const box = $("error");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/ws/${key}`);
    socket.onopen = () => { retry = 500; showError(""); };
    socket.onmessage = (event) => {
      const data = JSON.parse(event.data);
      if (data.type === "words") { words = data; $("title").textContent = words.title; document.title = words.title; }
      else if (data.type === "error") showError(say("refused", { reason: data.reason }));
      else if (data.type === "view") { view = data; render(); }
    };
    socket.onclose = () => {
      showError(words.lost || "…");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  // --- seals ---------------------------------------------------------------------------------

  function sealed() {
    try { return JSON.parse(localStorage.getItem(store) || "null"); } catch { return null; }
  }

  function seal() {
    const turn = view.turn;
    const commitments = {}, reveals = {};
    for (const robot of view.seat.robots) {
      const program = chosen[robot];
      const nonce = OOGSeal.newNonce();
      reveals[robot] = { program, nonce };
      commitments[robot] = OOGSeal.sha256Hex(OOGSeal.sealedText(turn, robot, program, nonce));
    }
    localStorage.setItem(store, JSON.stringify({ turn, reveals, commitments }));
    send({ type: "commit", commitments });
  }

  function revealIfAsked() {
    if (view.phase !== "reveal" || !view.seat) return;
    const me = view.players.find((p) => p.name === view.seat.name);
    if (!me || me.revealed || !me.committed || revealedTurn === view.turn) return;
    const kept = sealed();
    if (!kept || kept.turn !== view.turn) return;  // renderAct offers to lay again
    revealedTurn = view.turn;
    send({ type: "reveal", reveals: kept.reveals });
  }

  function sealsLine(last) {
    const robots = Object.keys(last.seals);
    if (!robots.length) return null;
    const ok = robots.every((robot) => {
      const seal = last.seals[robot];
      const text = OOGSeal.sealedText(last.turn, robot, last.programs[robot], seal.nonce);
      return OOGSeal.sha256Hex(text) === seal.commitment;
    });
    return el("p", say(ok ? "seals_ok" : "seals_bad", { turn: last.turn }), { class: ok ? "seals-ok" : "seals-bad" });
  }

  // --- the page ------------------------------------------------------------------------------

  function render() {
    if (view.seat) document.documentElement.lang = view.seat.lang;
    $("who").textContent = view.seat
      ? say("you", { name: view.seat.name, robots: view.seat.robots.join(", ") })
      : say(view.mode === "record" ? "record" : "host");
    $("turn").textContent = view.phase === "over" ? "" : say("turn", { turn: view.turn });
    const picture = $("picture");
    if (picture.getAttribute("src") !== view.picture) {
      picture.setAttribute("src", view.picture);
      picture.setAttribute("alt", say("picture"));
    }
    if (view.refusal) showError(say("refused", { reason: view.refusal }));
    renderStatus();
    renderPlayers();
    renderLast();
    renderLinks();
    const sig = signature();
    if (sig !== shownSig) { shownSig = sig; renderAct(); }
    revealIfAsked();
  }

  function signature() {
    const me = view.seat && view.players.find((p) => p.name === view.seat.name);
    const q = view.question;
    return [view.phase, view.turn, me && me.committed, q && q.key, q && q.text,
      (view.answers || []).length, view.refusal].join("|");
  }

  function renderStatus() {
    let text = "";
    if (view.phase === "commit" || view.phase === "reveal") {
      const waiting = view.players.filter((p) => view.phase === "commit" ? !p.committed : !p.revealed);
      text = view.phase === "reveal" ? say("revealing") : "";
      if (waiting.length) text += (text ? " " : "") + say("waiting", { names: waiting.map((p) => p.name).join(", ") });
    } else if (view.phase === "choose") {
      const asked = view.players.filter((p) => p.asked);
      if (asked.length && !view.question) text = say("waiting", { names: asked.map((p) => p.name).join(", ") });
    } else if (view.phase === "over") {
      text = say("over") + " " + say("winners", { names: view.winners.join(", ") });
    }
    $("status").textContent = text;
  }

  function renderPlayers() {
    const section = $("players");
    section.replaceChildren(el("h2", say("scores")));
    const table = el("table");
    const points = Object.fromEntries(view.scores.map((s) => [s.name, s.points]));
    for (const player of view.players) {
      const row = el("tr");
      row.append(el("td", player.name + (player.bot ? ` (${say("bot")}: ${player.bot})` : "")));
      row.append(el("td", player.robots.join(", ")));
      row.append(el("td", String(points[player.name] ?? 0)));
      let state = "";
      if (view.phase === "commit") state = player.committed ? say("committed") : say("thinking");
      if (player.asked) state = say("asked");
      row.append(el("td", state));
      if (isHost && view.mode === "play" && !player.bot && view.phase !== "over") {
        // a player who left: the host seats a bot in their place
        const cell = el("td");
        const button = el("button", say("seat_bot"), { type: "button", "data-seat": player.name });
        button.addEventListener("click", () => send({ type: "seat-bot", name: player.name, bot: "greedy" }));
        cell.append(button);
        row.append(cell);
      }
      table.append(row);
    }
    section.append(table);
  }

  function renderLast() {
    const section = $("last");
    section.replaceChildren();
    const last = view.last;
    if (!last) return;
    section.append(el("h2", say("events", { turn: last.turn })));
    const programs = el("p", Object.entries(last.shown).map(([r, p]) => `${r}: ${p}`).join(" · "));
    section.append(programs);
    for (const event of last.events) {
      const details = el("details");
      details.append(el("summary", event.text));
      details.append(el("p", `${event.clause} ${event.title}: ${event.paraphrase}`));
      section.append(details);
    }
    const line = sealsLine(last);
    if (line) section.append(line);
    if (view.viewer) section.append(el("a", say("viewer"), { href: view.viewer, id: "viewer" }));
  }

  function renderLinks() {
    const section = $("links");
    if (!view.links || !view.links.length) { section.hidden = true; return; }
    section.hidden = false;
    section.replaceChildren(el("p", say("links")));
    const list = el("ul", null, { class: "links" });
    for (const link of view.links) {
      const item = el("li");
      const address = link.address || `${location.origin}${link.path}`;
      item.append(el("strong", link.name), el("br"), el("a", address, { href: address, class: "seat-link" }));
      item.append(el("img", null, { src: link.qr, alt: link.name }));
      list.append(item);
    }
    section.append(list);
  }

  function renderAct() {
    const act = $("act");
    act.replaceChildren();
    if (countdown) { clearInterval(countdown); countdown = null; }
    if (view.mode === "record" && isHost) return renderRecord(act);
    if (!view.seat) return;
    const me = view.players.find((p) => p.name === view.seat.name);
    if (view.phase === "commit" && !me.committed) return renderLay(act);
    if (view.phase === "commit") {
      const kept = sealed();
      const first = kept && kept.turn === view.turn ? Object.values(kept.commitments)[0].slice(0, 12) : "";
      act.append(el("p", say("sealed", { seal: first }), { class: "seal", id: "sealed" }));
      return;
    }
    if (view.phase === "reveal" && me.committed && !me.revealed) {
      const kept = sealed();
      if (kept && kept.turn === view.turn) return;
      // this phone lost what it sealed: it may take its seal back (nothing is shown yet)
      act.append(el("p", say("no_nonce")));
      const again = el("button", say("lay_again"), { type: "button", class: "primary", id: "again" });
      again.addEventListener("click", () => send({ type: "withdraw" }));
      act.append(again);
      return;
    }
    if (view.question) return renderQuestion(act, view.question);
  }

  function optionButtons(options, isChosen, pick) {
    const row = el("div", null, { class: "options" });
    for (const option of options) {
      const label = (view.labels && view.labels[option]) || option;
      const button = el("button", label, { type: "button", "data-option": option });
      if (isChosen(option)) button.classList.add("chosen");
      button.addEventListener("click", () => {
        pick(option);
        for (const other of row.children) other.classList.toggle("chosen", other === button);
      });
      row.append(button);
    }
    return row;
  }

  function renderLay(act) {
    chosen = {};
    const sealButton = el("button", say("seal"), { type: "button", class: "primary", id: "seal" });
    sealButton.disabled = true;
    const ready = () => { sealButton.disabled = !view.seat.robots.every((r) => chosen[r]); };
    for (const robot of view.seat.robots) {
      act.append(el("h2", say("lay", { robot })));
      act.append(optionButtons(view.legal[robot] || [], () => false, (option) => { chosen[robot] = option; ready(); }));
    }
    sealButton.addEventListener("click", () => { sealButton.disabled = true; seal(); });
    act.append(sealButton);
  }

  function renderQuestion(act, question) {
    act.append(el("p", question.text, { id: "question" }));
    answerChosen = question.default;
    let input = null;
    if (question.options.length) {
      act.append(optionButtons(question.options, (o) => o === question.default, (o) => { answerChosen = o; }));
    } else {
      input = el("input", null, { type: "text", id: "answer", autocomplete: "off" });
      input.value = (view.labels && view.labels[question.default]) || question.default || "";
      act.append(input);
    }
    const confirm = el("button", say("answer"), { type: "button", class: "primary", id: "confirm" });
    confirm.addEventListener("click", () => {
      confirm.disabled = true;
      send({ type: "choose", key: question.key, answer: input ? input.value : answerChosen || "" });
    });
    act.append(confirm);
    const clock = el("p", null, { id: "clock" });
    act.append(clock);
    const end = Date.now() + question.seconds * 1000;
    const tick = () => { clock.textContent = say("seconds", { seconds: Math.max(0, Math.round((end - Date.now()) / 1000)) }); };
    tick();
    countdown = setInterval(tick, 1000);
  }

  function renderRecord(act) {
    const question = view.question;
    if (!question) return;
    for (const note of question.notes) act.append(el("p", note));
    act.append(el("p", question.text, { id: "question" }));
    for (const departure of question.departures) act.append(el("p", departure, { class: "departure" }));
    const input = el("input", null, { type: "text", id: "answer", autocomplete: "off" });
    const enter = () => { send({ type: "answer", text: input.value }); };
    if (question.options.length) {
      // a tap writes the answer as the table would type it, in the page's language
      act.append(optionButtons(question.options, () => false, (o) => { input.value = (view.labels && view.labels[o]) || o; }));
    }
    act.append(input);
    const sendButton = el("button", say("send"), { type: "button", class: "primary", id: "send" });
    sendButton.addEventListener("click", enter);
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") enter(); });
    const undo = el("button", say("undo"), { type: "button", id: "undo" });
    undo.addEventListener("click", () => send({ type: "undo" }));
    act.append(sendButton, undo);
    input.focus();
  }

  connect();
})();
