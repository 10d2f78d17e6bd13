// Kindling in the browser. Everything here goes through the public JSON API
// an agent uses (create, join, start, state, bids, log), as kind "human".
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  // The state is polled about once a second, as the seed asks of agents;
  // ?poll=MS changes it (at least 100 ms).
  const POLL = Math.max(100, Number(params.get("poll")) || 1000);
  const KIND = { human: "Human", agent: "Agent", bot: "Bot" };

  let me = null;        // {code, seat, token}
  let state = null;     // the last state received
  let lastVersion = -1;
  let inputTurn = -1;   // the turn the bid inputs were last reset for
  let deadlineAt = 0;   // ms since the epoch when this turn's deadline falls
  let timer = 0;
  let logShown = "";
  let inputs = [];

  // checkBid applies the rules' legality to what is typed: five whole
  // numbers, each 0 or more and at most the sparks held, adding up to at
  // most the sparks held (engine/kindling CheckBid). It names every problem.
  function checkBid(texts, sparks, names) {
    const errors = [], bid = [];
    texts.forEach((raw, i) => {
      const t = String(raw).trim(), name = names[i] || "beacon " + i;
      let v = NaN;
      if (t === "") {
        errors.push({ beacon: i, msg: `${name}: empty; enter a number (0 bids nothing)` });
      } else if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) || !Number.isInteger(v = Number(t))) {
        errors.push({ beacon: i, msg: `${name}: "${t}" is not a whole number` });
      } else if (v < 0) {
        errors.push({ beacon: i, msg: `${name}: ${t} is negative (each bid must be 0 or more)` });
      } else if (v > sparks) {
        errors.push({ beacon: i, msg: `${name}: ${t} is more than your ${sparks} sparks` });
      }
      bid.push(Number.isInteger(v) ? v + 0 : 0);
    });
    const sum = bid.reduce((a, b) => a + b, 0);
    if (errors.length === 0 && sum > sparks) {
      errors.push({ beacon: -1, msg: `Your bids add up to ${sum}, more than your ${sparks} sparks` });
    }
    return { ok: errors.length === 0, bid, sum, errors };
  }
  window.Kindling = { checkBid };

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k instanceof Node ? k : String(k));
    return e;
  }
  function chip(seat, text) {
    return el("span", { class: "chip s" + seat, title: "seat " + seat }, text);
  }
  function kindBadge(kind) {
    return el("span", { class: "kind kind-" + kind }, KIND[kind] || kind);
  }
  function playerName(seat) {
    const p = state && state.players[seat];
    return p ? p.name : "seat " + seat;
  }

  async function api(method, path, body) {
    const headers = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (me && me.token) headers.Authorization = "Bearer " + me.token;
    const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    let data = null;
    try { data = JSON.parse(text); } catch (_) { /* not JSON: reported below */ }
    if (!r.ok) {
      const msg = data && data.error ? data.error + (data.hint ? " (" + data.hint + ")" : "") : `HTTP ${r.status}`;
      const e = new Error(msg);
      e.status = r.status;
      throw e;
    }
    return { data, text };
  }

  // --- start screen -------------------------------------------------------
  function fillBots() {
    const seats = Number($("create-seats").value), sel = $("create-bots");
    const keep = sel.value === "" ? seats - 1 : Math.min(Number(sel.value), seats - 1);
    sel.replaceChildren(...Array.from({ length: seats }, (_, i) => el("option", { value: i }, i)));
    sel.value = String(keep);
  }
  $("create-seats").addEventListener("change", fillBots);
  fillBots();

  function seated(reply) {
    me = { code: reply.code, seat: reply.seat, token: reply.token };
    sessionStorage.setItem("kindling:" + me.code, JSON.stringify(me));
    history.replaceState(null, "", location.pathname + location.search + "#" + me.code);
    enterGame();
    apply(reply.state);
    schedule();
  }
  async function guarded(fn) {
    $("start-error").textContent = "";
    try { await fn(); } catch (e) { $("start-error").textContent = e.message; }
  }
  $("create-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    guarded(async () => seated((await api("POST", "/api/matches", {
      name: $("create-name").value, seats: Number($("create-seats").value), bots: Number($("create-bots").value),
      turnSeconds: Number($("create-turn-seconds").value), botLevel: $("create-bot-level").value, kind: "human",
    })).data));
  });
  $("join-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = $("join-code").value.trim().toUpperCase();
    guarded(async () => seated((await api("POST", `/api/matches/${encodeURIComponent(code)}/join`,
      { name: $("join-name").value, kind: "human" })).data));
  });
  $("again").addEventListener("click", () => {
    clearTimeout(timer);
    me = null; state = null; lastVersion = -1; inputTurn = -1; logShown = "";
    history.replaceState(null, "", location.pathname + location.search);
    $("game-screen").hidden = true; $("match-bar").hidden = true; $("start-screen").hidden = false;
  });

  // --- the game -----------------------------------------------------------
  function enterGame() {
    $("start-screen").hidden = true;
    $("game-screen").hidden = false;
    $("match-bar").hidden = false;
    $("match-code").textContent = me.code;
  }
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(poll, POLL);
  }
  async function poll() {
    try {
      apply((await api("GET", `/api/matches/${encodeURIComponent(me.code)}`)).data);
      $("status-note").textContent = "";
    } catch (e) {
      $("status-note").textContent = "Error: " + e.message;
      if (e.status === 404 || e.status === 401) return; // the match or the seat is gone
    }
    if (state && state.phase !== "finished") schedule();
  }
  $("start").addEventListener("click", async () => {
    try { apply((await api("POST", `/api/matches/${encodeURIComponent(me.code)}/start`, {})).data); }
    catch (e) { $("status-note").textContent = "Error: " + e.message; }
  });

  function apply(st) {
    state = st;
    if (st.phase === "playing") deadlineAt = Date.now() + st.secondsLeft * 1000;
    tick();
    if (st.version === lastVersion) return;
    lastVersion = st.version;
    render();
  }
  function tick() {
    const box = $("countdown-box");
    if (!state || state.phase !== "playing") { box.hidden = true; return; }
    box.hidden = false;
    const left = Math.max(0, Math.ceil((deadlineAt - Date.now()) / 1000));
    $("countdown").textContent = left;
    box.classList.toggle("urgent", left <= 5);
  }
  setInterval(tick, 250);

  function render() {
    const st = state, you = st.you;
    $("phase").textContent = "· " + st.phase;
    $("turn").textContent = st.turn;
    $("turns").textContent = st.turns;
    $("you-sparks").textContent = you ? you.sparks : "–";
    const lobby = st.phase === "lobby";
    $("lobby").hidden = !lobby;
    if (lobby) {
      const open = st.seats - st.players.length;
      $("lobby-code").textContent = st.code;
      $("lobby-open").textContent = `${open} open seat${open === 1 ? "" : "s"}: the match starts when they fill.`;
      $("start").hidden = !(you && you.seat === st.host);
    }
    renderRidge();
    renderBidForm();
    renderPlayers();
    renderReveal();
    renderEnd();
  }

  function renderRidge() {
    const ridge = $("ridge"), st = state, last = st.lastTurn;
    if (inputs.length === 0) {
      st.beacons.forEach((b, i) => {
        const input = el("input", { id: "bid-" + i, type: "text", inputmode: "numeric", value: "0", "aria-label": "bid on " + b.name });
        input.addEventListener("input", validate);
        inputs.push(input);
        ridge.append(el("div", { class: "beacon", id: "beacon-" + i },
          el("div", { class: "name" }, b.name), el("div", { class: "value" }), el("div", { class: "base" }),
          el("div", { class: "embers" }), input, el("div", { class: "strength" })));
      });
    }
    st.beacons.forEach((b, i) => {
      const card = $("beacon-" + i);
      card.querySelector(".value").textContent = b.value;
      const w = last ? last.winners[i] : null;
      card.querySelector(".base").textContent = `base ${b.base}` + (last ? (w === null ? " · unlit last turn" : ` · lit by ${playerName(w)}`) : "");
      card.classList.toggle("lit", w !== null && w !== undefined);
      const embers = card.querySelector(".embers");
      embers.replaceChildren(...st.players.filter((p) => p.embers[i] > 0).map((p) => chip(p.seat, `${p.embers[i]} ember${p.embers[i] === 1 ? "" : "s"}`)));
    });
  }

  function renderBidForm() {
    const st = state, you = st.you, playing = st.phase === "playing" && you;
    $("bid-form").hidden = !playing;
    inputs.forEach((x) => {
      x.hidden = !playing;
      x.parentElement.querySelector(".strength").hidden = !playing;
    });
    if (!playing) return;
    if (inputTurn !== st.turn) {
      inputTurn = st.turn;
      const start = you.bids || [0, 0, 0, 0, 0];
      inputs.forEach((x, i) => { x.value = String(start[i]); });
    }
    $("lock-status").className = you.lockedIn ? "locked" : "waiting";
    $("lock-status").textContent = you.lockedIn
      ? `Locked in [${you.bids.join(", ")}]: you can change it until the turn resolves.`
      : "Not locked in yet: if the clock runs out you bid nothing.";
    $("lock-in").textContent = you.lockedIn ? "Change bid" : "Lock in";
    validate();
  }

  function validate() {
    const st = state;
    if (!st || !st.you) return null;
    const names = st.beacons.map((b) => b.name);
    const res = checkBid(inputs.map((x) => x.value), st.you.sparks, names);
    inputs.forEach((x, i) => {
      x.classList.toggle("bad", res.errors.some((e) => e.beacon === i));
      const s = x.parentElement.querySelector(".strength");
      const emb = st.you.embers[i];
      s.textContent = res.ok ? `strength ${res.bid[i] + emb}` + (emb ? ` (${emb} embers)` : "") : "";
    });
    $("bid-error").textContent = res.errors.map((e) => e.msg).join("; ");
    $("bid-summary").textContent = res.ok
      ? `Spending ${res.sum} of ${st.you.sparks} sparks; ${st.you.sparks - res.sum} carried over.`
      : `You hold ${st.you.sparks} sparks.`;
    $("lock-in").disabled = !res.ok;
    return res;
  }

  async function sendBid(bid) {
    try {
      apply((await api("POST", `/api/matches/${encodeURIComponent(me.code)}/bids`, { bids: bid, turn: state.turn })).data);
    } catch (e) {
      $("bid-error").textContent = e.message;
      if (e.status === 409) poll();
    }
  }
  $("bid-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const res = validate();
    if (res && res.ok) sendBid(res.bid);
  });
  $("pass").addEventListener("click", () => {
    inputs.forEach((x) => { x.value = "0"; });
    sendBid([0, 0, 0, 0, 0]);
  });

  function renderPlayers() {
    const st = state, tb = $("players").tBodies[0];
    tb.replaceChildren(...st.players.map((p) => {
      const mine = st.you && st.you.seat === p.seat;
      const turnCell = st.phase !== "playing" ? "" : p.lockedIn ? "locked in" : "thinking…";
      return el("tr", { class: mine ? "you" : "", "data-seat": p.seat },
        el("td", {}, chip(p.seat, p.seat)), el("td", {}, p.name + (mine ? " (you)" : "")),
        el("td", { class: "kind-cell" }, kindBadge(p.kind)), el("td", { class: "score" }, p.score),
        el("td", { class: "sparks" }, p.sparks), el("td", {}, p.embers.join(" ")),
        el("td", { class: p.lockedIn ? "locked" : "waiting" }, turnCell));
    }));
  }

  function renderReveal() {
    const last = state.lastTurn, box = $("reveal");
    box.hidden = !last;
    if (!last) return;
    $("reveal-title").textContent = `Turn ${last.turn} revealed`;
    const seats = last.bids.length;
    const head = el("tr", {}, el("th", {}, "Beacon"), el("th", {}, "Value"),
      ...Array.from({ length: seats }, (_, s) => el("th", {}, chip(s, s), " ", playerName(s), " bid / strength")), el("th", {}, "Lit by"));
    const rows = state.beacons.map((b, i) => {
      const w = last.winners[i];
      return el("tr", {}, el("td", {}, b.name), el("td", {}, last.values[i]),
        ...Array.from({ length: seats }, (_, s) => el("td", { class: w === s ? "won" : "" }, `${last.bids[s][i]} / ${last.strength[s][i]}`)),
        el("td", {}, w === null ? "nobody" : `${playerName(w)} (+${last.values[i]})`));
    });
    const pts = el("tr", {}, el("th", {}, "Points"), el("td", {}), ...last.points.map((p, s) => el("td", {}, `+${p} → ${last.scores[s]}`)), el("td", {}));
    $("reveal-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows, pts));
    $("reveal-note").textContent = last.missed.length
      ? "Missed the deadline (bid nothing): " + last.missed.map(playerName).join(", ") : "";
  }

  async function renderEnd() {
    const st = state;
    $("end").hidden = st.phase !== "finished";
    if (st.phase !== "finished") return;
    const ws = st.winners.map(playerName);
    $("winners").textContent = ws.length === 1 ? `Winner: ${ws[0]}` : `Shared win: ${ws.join(", ")}`;
    $("standings").replaceChildren(el("tr", {}, el("th", {}, "Place"), el("th", {}, "Player"), el("th", {}, "Who"), el("th", {}, "Score"), el("th", {}, "Sparks left")),
      ...st.standings.map((s, i) => {
        const p = st.players[s];
        return el("tr", { "data-seat": s }, el("td", {}, i + 1), el("td", {}, p.name), el("td", {}, kindBadge(p.kind)), el("td", {}, p.score), el("td", {}, p.sparks));
      }));
    if (logShown === st.code) return;
    logShown = st.code;
    try {
      const { data, text } = await api("GET", `/api/matches/${encodeURIComponent(st.code)}/log`);
      showLog(data, text);
    } catch (e) {
      logShown = "";
      $("status-note").textContent = "Error (log): " + e.message;
    }
  }

  function showLog(log, text) {
    document.querySelectorAll(".code-slot").forEach((x) => { x.textContent = log.code; });
    const a = $("download-log");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    a.download = `kindling-${log.code}.json`;
    $("log-json").textContent = text;
    const names = state.beacons.map((b) => b.name);
    const head = el("tr", {}, el("th", {}, "Turn"), el("th", {}, "Values " + names.join(" ")),
      ...log.players.map((p) => el("th", {}, chip(p.seat, p.seat), " ", p.name, " bids → points (score)")), el("th", {}, "Lit"));
    const rows = log.turns.map((t) => el("tr", { "data-turn": t.turn }, el("td", {}, t.turn), el("td", {}, t.values.join(" ")),
      ...t.bids.map((b, s) => el("td", { class: "log-cell", "data-seat": s }, `[${b.join(" ")}] → +${t.points[s]} (${t.scores[s]})`)),
      el("td", {}, t.winners.map((w, i) => (w === null ? "" : `${names[i]}:${w}`)).filter(Boolean).join(" "))));
    $("log-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
    $("end").dataset.logReady = "1";
  }

  // --- resume after a reload: the seat's token is kept for this tab -------
  const hashCode = location.hash.slice(1).toUpperCase();
  if (hashCode) {
    const saved = sessionStorage.getItem("kindling:" + hashCode);
    if (saved) {
      me = JSON.parse(saved);
      enterGame();
      poll();
    } else {
      $("join-code").value = hashCode;
    }
  }
})();
