// The Kindling page: DATA is the log (GET /api/matches/{code}/log), DERIVED
// the beacons' names and base values and each seat's sparks per turn.
(function () {
  const L = DATA, D = DERIVED;
  const n = L.players.length, turns = L.turns || [], T = turns.length, B = D.beacons.length;
  const bids = (r, s) => (r.bids[s] || [0, 0, 0, 0, 0]);
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  const label = (s) => `S${s} ${L.players[s].name}`;
  // The values of turn t+1 (shown after turn t): the next record's values,
  // or after the last turn the rule (a lit beacon back to base, an unlit
  // one +1 up to 9).
  const upcoming = (t) => {
    if (t < T) return turns[t].values;
    const r = turns[T - 1];
    return r.values.map((v, i) => r.winners[i] === null ? Math.min(9, v + 1) : D.base[i]);
  };

  // The ridge: one card per beacon, one row per seat.
  const ridge = document.getElementById("ridge"), cards = [];
  for (let i = 0; i < B; i++) {
    const card = el("div", {class: "beacon", id: `beacon-${i}`});
    const value = el("span", {class: "bvalue", id: `kvalue-${i}`});
    const lit = el("div", {class: "blit", id: `klit-${i}`});
    const tb = el("tbody");
    const rowsOf = [];
    for (let s = 0; s < n; s++) {
      const bid = el("td", {id: `kbid-${s}-${i}`}), str = el("td", {id: `kstr-${s}-${i}`}), emb = el("td", {id: `kemb-${s}-${i}`});
      const bar = el("span", {class: "bar", style: `background:${colour(s)}`});
      const tr = el("tr", {}, el("td", {class: "name"}, el("span", {class: "swatch", style: `background:${colour(s)}`}), ` S${s}`), bid, str, emb, el("td", {class: "name"}, bar));
      tb.append(tr);
      rowsOf.push({tr, bid, str, emb, bar});
    }
    card.append(value, el("div", {class: "bname"}, D.beacons[i]), lit,
      el("table", {}, el("thead", {}, el("tr", {}, el("th"), el("th", {title: "bid this turn"}, "bid"), el("th", {title: "bid + embers held before"}, "str"), el("th", {title: "embers after the turn"}, "emb"), el("th"))), tb));
    ridge.append(card);
    cards.push({card, value, lit, rowsOf});
  }

  // The seats.
  const tbody = document.querySelector("#seats tbody"), seatRows = [];
  for (let s = 0; s < n; s++) {
    const p = L.players[s];
    const c = {
      tr: el("tr", {id: `seat-${s}`}),
      sparks: el("td", {id: `ksparks-${s}`}), bid: el("td", {id: `kbidsum-${s}`}), left: el("td", {id: `kleft-${s}`}),
      points: el("td", {id: `kpoints-${s}`}), score: el("td", {id: `kscore-${s}`}), note: el("td", {class: "name", id: `knote-${s}`}),
    };
    c.tr.append(el("td", {}, el("span", {class: "swatch", style: `background:${colour(s)}`})), el("td", {class: "name"}, label(s)),
      el("td", {class: "name"}, p.kind), c.sparks, c.bid, c.left, c.points, c.score, c.note);
    tbody.append(c.tr);
    seatRows.push(c);
  }

  function draw(t) {
    const r = t > 0 ? turns[t - 1] : null;
    const values = r ? r.values : D.base;
    setText(document.getElementById("caption"), r
      ? `Turn ${t} revealed. Next turn's values: ${upcoming(t).join(", ")}.`
      : "Before the first turn: no bids yet, no embers.");
    for (let i = 0; i < B; i++) {
      const c = cards[i], w = r ? r.winners[i] : null;
      setText(c.value, values[i]);
      setText(c.lit, r ? (w === null ? "unlit" : `lit by ${label(w)} (+${values[i]})`) : "");
      c.card.classList.toggle("lit", w !== null && r !== null);
      c.card.style.borderTopColor = w !== null && r ? colour(w) : "var(--line)";
      let top = 1;
      if (r) for (let s = 0; s < n; s++) top = Math.max(top, r.strength[s][i]);
      for (let s = 0; s < n; s++) {
        const row = c.rowsOf[s];
        setText(row.bid, r ? bids(r, s)[i] : "");
        setText(row.str, r ? r.strength[s][i] : "");
        setText(row.emb, r ? r.embers[s][i] : "");
        row.tr.classList.toggle("winner", w === s);
        row.bar.style.width = (r ? Math.round(r.strength[s][i] / top * 40) : 0) + "px";
      }
    }
    for (let s = 0; s < n; s++) {
      const c = seatRows[s];
      setText(c.sparks, r ? D.sparks[t - 1][s] : (T ? D.sparks[0][s] : ""));
      setText(c.bid, r ? sum(bids(r, s)) : "");
      setText(c.left, r ? D.left[t - 1][s] : "");
      setText(c.points, r ? r.points[s] : "");
      setText(c.score, r ? r.scores[s] : 0);
      let note = r && r.missed.includes(s) ? "missed the turn" : "";
      if (t === T && D.winners && D.winners.includes(s)) note = D.winners.length > 1 ? "shares the win" : "wins";
      setText(c.note, note);
    }
    setText(document.getElementById("final"), t === T && L.final
      ? `Final standings: ${L.final.standings.map((s) => `${label(s)} ${L.final.scores[s]} (${L.final.sparks[s]} sparks left)`).join(", ")}.`
      : "");
    cursor(t);
    if (!window.viewerFirstFrame) {
      window.viewerFirstFrame = performance.now();
      document.body.dataset.ready = "1";
    }
  }

  const scores = [];
  for (let s = 0; s < n; s++) {
    const v = [0];
    for (const r of turns) v.push(r.scores[s]);
    scores.push({values: v, colour: colour(s), label: label(s)});
  }
  let timeline = null;
  const cursor = lineChart(document.getElementById("charts"), "score", scores, T, 0, (t) => timeline && timeline.goTo(t));
  timeline = Timeline(T, draw, 1);
  window.viewer = timeline;
})();
