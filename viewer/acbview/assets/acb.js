// The AI Code Battle page: DATA is the replay (crucible-acb-replay/1),
// DERIVED what the Go side computed (win probabilities in thousandths,
// commentary, zone radii and centres).
(function () {
  const R = DATA, D = DERIVED;
  const rows = R.map.rows, cols = R.map.cols, np = R.players.length;
  const T = R.turns.length;
  const N = rows * cols;
  const cores = R.map.cores;

  // Per-turn figures, built once: index t*np+p, t = 0 the initial position.
  const units = new Int32Array((T + 1) * np), score = new Int32Array((T + 1) * np),
    energy = new Int32Array((T + 1) * np), coresUp = new Int32Array((T + 1) * np),
    collected = new Int32Array((T + 1) * np); // energy collected so far
  const inactiveFrom = new Array(np).fill(-1);
  const owned = new Int32Array(np);
  for (const c of cores) owned[c.owner]++;
  const unitsAt = (t) => t === 0 ? R.initial.units : R.turns[t - 1].units;
  const energyAt = (t) => t === 0 ? R.map.energy : R.turns[t - 1].energy;
  const razedAt = (t) => t === 0 ? [] : R.turns[t - 1].cores_razed;
  for (let t = 0; t <= T; t++) {
    for (const u of unitsAt(t)) units[t * np + u[1]]++;
    for (let p = 0; p < np; p++) coresUp[t * np + p] = owned[p];
    for (const c of razedAt(t)) coresUp[t * np + cores[c].owner]--;
    if (t > 0) {
      const ps = R.turns[t - 1].players;
      for (let p = 0; p < np; p++) { score[t * np + p] = ps[p].score; energy[t * np + p] = ps[p].energy; }
      for (let p = 0; p < np; p++) collected[t * np + p] = collected[(t - 1) * np + p];
      for (const e of R.turns[t - 1].events) {
        if (e.type === "bot_inactive" && inactiveFrom[e.player] < 0) inactiveFrom[e.player] = t;
        else if (e.type === "collected") collected[t * np + e.player]++;
      }
    }
  }
  const series = (arr, p) => { const v = new Array(T + 1); for (let t = 0; t <= T; t++) v[t] = arr[t * np + p]; return v; };

  // Terrain.
  const wall = new Uint8Array(N);
  for (const w of R.map.walls) wall[w[0] * cols + w[1]] = 1;

  // The canvas: an integer number of pixels per tile.
  const cell = Math.max(3, Math.min(18, Math.floor(720 / Math.max(rows, cols))));
  const canvas = document.getElementById("map");
  canvas.width = cols * cell;
  canvas.height = rows * cell;
  const ctx = canvas.getContext("2d", {alpha: false});
  ctx.imageSmoothingEnabled = false;

  // The background (floor, grid, walls) is drawn once.
  const bg = document.createElement("canvas");
  bg.width = canvas.width; bg.height = canvas.height;
  {
    const b = bg.getContext("2d");
    b.fillStyle = "#1a1d24";
    b.fillRect(0, 0, bg.width, bg.height);
    if (cell >= 6) {
      b.fillStyle = "#20242c";
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if ((r + c) & 1) b.fillRect(c * cell, r * cell, cell, cell);
    }
    b.fillStyle = "#5b6270";
    for (let i = 0; i < N; i++) if (wall[i]) b.fillRect((i % cols) * cell, Math.floor(i / cols) * cell, cell, cell);
  }

  // Overlays of one pixel per tile, scaled up when drawn.
  function overlayCanvas() { const c = document.createElement("canvas"); c.width = cols; c.height = rows; return c; }
  const fogCanvas = overlayCanvas(), fogCtx = fogCanvas.getContext("2d"), fogImg = fogCtx.createImageData(cols, rows);

  // Vision: tiles within vision_radius2 of a living unit or an active
  // core of the player, on the torus.
  const r2 = R.config.vision_radius2, rr = Math.floor(Math.sqrt(r2));
  const offsets = [];
  for (let dr = -rr; dr <= rr; dr++) for (let dc = -rr; dc <= rr; dc++) if (dr * dr + dc * dc <= r2) offsets.push(dr, dc);
  const seen = new Uint32Array(N);
  let stamp = 0;
  function vision(p, t) {
    stamp++;
    const mark = (r0, c0) => {
      for (let k = 0; k < offsets.length; k += 2) {
        let r = r0 + offsets[k], c = c0 + offsets[k + 1];
        r = ((r % rows) + rows) % rows; c = ((c % cols) + cols) % cols;
        seen[r * cols + c] = stamp;
      }
    };
    for (const u of unitsAt(t)) if (u[1] === p) mark(u[2], u[3]);
    const razed = new Set(razedAt(t));
    for (const c of cores) if (c.owner === p && !razed.has(c.id)) mark(c.row, c.col);
    return (i) => seen[i] === stamp;
  }

  // The zone: each tile's squared distance to the nearest centre, once;
  // one overlay per radius, cached.
  const zoneOn = !!R.config.zone_enabled && D.zone_radius;
  const zoneD2 = new Int32Array(N);
  const zoneCache = new Map();
  if (zoneOn) {
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
      let best = Infinity;
      for (const z of D.zone_centers) {
        let dr = Math.abs(r - z[0]), dc = Math.abs(c - z[1]);
        dr = Math.min(dr, rows - dr); dc = Math.min(dc, cols - dc);
        best = Math.min(best, dr * dr + dc * dc);
      }
      zoneD2[r * cols + c] = best;
    }
    document.getElementById("zonebox").hidden = false;
  }
  function zoneOverlay(radius, striking) {
    const key = radius * 2 + (striking ? 1 : 0);
    let c = zoneCache.get(key);
    if (c) return c;
    c = overlayCanvas();
    const g = c.getContext("2d"), img = g.createImageData(cols, rows);
    const lim = radius * radius, a = striking ? 110 : 40;
    for (let i = 0; i < N; i++) if (zoneD2[i] > lim) { img.data[i * 4] = 150; img.data[i * 4 + 1] = 60; img.data[i * 4 + 2] = 220; img.data[i * 4 + 3] = a; }
    g.putImageData(img, 0, 0);
    zoneCache.set(key, c);
    return c;
  }

  // Where the units that died in turn t stood: their position at t-1
  // moved by their order (a move into a wall stays).
  const DIRS = {N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1]};
  function deaths(t) {
    if (t === 0) return [];
    const tr = R.turns[t - 1], out = [];
    let prev = null, orders = null;
    for (const e of tr.events) {
      if (e.type !== "died" || e.cause === "eliminated") continue;
      if (!prev) {
        prev = new Map();
        for (const u of unitsAt(t - 1)) prev.set(u[0], u);
        orders = new Map(tr.orders);
      }
      const u = prev.get(e.unit);
      if (!u) continue;
      let r = u[2], c = u[3];
      const d = DIRS[orders.get(e.unit)];
      if (d) {
        const nr = (r + d[0] + rows) % rows, nc = (c + d[1] + cols) % cols;
        if (!wall[nr * cols + nc]) { r = nr; c = nc; }
      }
      out.push([r, c, u[1], e.cause]);
    }
    return out;
  }

  const fogSel = document.getElementById("fog"), zoneBox = document.getElementById("zone");
  for (let p = 0; p < np; p++) fogSel.append(el("option", {value: String(p), text: `P${p} ${R.players[p].name}`}));

  let draws = 0;
  function drawMap(t) {
    const fogOf = Number(fogSel.value);
    const sees = fogOf >= 0 ? vision(fogOf, t) : null;
    ctx.drawImage(bg, 0, 0);
    // Energy: yellow diamonds (no player is yellow, and units are
    // squares), a square dot where tiles are too small for a shape.
    ctx.fillStyle = "#ffd54a";
    const e = Math.max(2, Math.round(cell * 0.5)), eo = (cell - e) / 2, hr = cell * 0.32;
    ctx.beginPath();
    for (const p of energyAt(t)) {
      const i = p[0] * cols + p[1];
      if (sees && !sees(i)) continue;
      if (cell < 6) { ctx.rect(p[1] * cell + eo, p[0] * cell + eo, e, e); continue; }
      const cx = p[1] * cell + cell / 2, cy = p[0] * cell + cell / 2;
      ctx.moveTo(cx, cy - hr); ctx.lineTo(cx + hr, cy); ctx.lineTo(cx, cy + hr); ctx.lineTo(cx - hr, cy); ctx.closePath();
    }
    ctx.fill();
    // Cores: the owner's colour, a dark cross when razed.
    const razed = new Set(razedAt(t));
    const lw = Math.max(1, Math.round(cell / 6));
    for (const c of cores) {
      const x = c.col * cell, y = c.row * cell;
      ctx.fillStyle = razed.has(c.id) ? "#3a3f49" : colour(c.owner);
      ctx.fillRect(x, y, cell, cell);
      ctx.fillStyle = "#0d0f13";
      ctx.fillRect(x + lw, y + lw, cell - 2 * lw, cell - 2 * lw);
      if (razed.has(c.id)) {
        ctx.strokeStyle = colour(c.owner); ctx.lineWidth = lw;
        ctx.beginPath(); ctx.moveTo(x + lw, y + lw); ctx.lineTo(x + cell - lw, y + cell - lw);
        ctx.moveTo(x + cell - lw, y + lw); ctx.lineTo(x + lw, y + cell - lw); ctx.stroke();
      }
    }
    // Units, batched by owner.
    const us = unitsAt(t);
    const s = Math.max(2, cell - 2 * Math.max(1, Math.round(cell / 5))), o = (cell - s) / 2;
    for (let p = 0; p < np; p++) {
      ctx.fillStyle = colour(p);
      for (const u of us) {
        if (u[1] !== p) continue;
        if (sees && p !== fogOf && !sees(u[2] * cols + u[3])) continue;
        ctx.fillRect(u[3] * cell + o, u[2] * cell + o, s, s);
      }
    }
    // Deaths of this turn: a cross in the colour of the cause.
    ctx.lineWidth = Math.max(1, cell / 8);
    for (const d of deaths(t)) {
      if (sees && !sees(d[0] * cols + d[1])) continue;
      ctx.strokeStyle = d[3] === "combat" ? "#ff4d4d" : d[3] === "storm" ? "#c77dff" : "#ffa64d";
      const x = d[1] * cell, y = d[0] * cell;
      ctx.beginPath(); ctx.moveTo(x + 1, y + 1); ctx.lineTo(x + cell - 1, y + cell - 1);
      ctx.moveTo(x + cell - 1, y + 1); ctx.lineTo(x + 1, y + cell - 1); ctx.stroke();
    }
    // The zone.
    if (zoneOn && zoneBox.checked) {
      const radius = D.zone_radius[t];
      ctx.drawImage(zoneOverlay(radius, t >= R.config.zone_start_turn), 0, 0, canvas.width, canvas.height);
    }
    if (zoneOn) setText(document.getElementById("zonelabel"), `r = ${D.zone_radius[t]}` + (t < R.config.zone_start_turn ? ` (from turn ${R.config.zone_start_turn})` : ""));
    // Fog: what fogOf did not see is darkened.
    if (sees) {
      const px = fogImg.data;
      for (let i = 0; i < N; i++) { px[i * 4 + 3] = sees(i) ? 0 : 175; }
      fogCtx.putImageData(fogImg, 0, 0);
      ctx.drawImage(fogCanvas, 0, 0, canvas.width, canvas.height);
    }
    draws++;
  }

  // The legend.
  const tbody = document.querySelector("#legend tbody");
  const cellsOf = [];
  for (let p = 0; p < np; p++) {
    const pl = R.players[p];
    const tr = el("tr", {id: `row-${p}`});
    const name = el("td", {class: "name", title: `strategy ${pl.strategy}`}, `P${p} ${pl.name}`);
    const tag = el("span", {class: "tag"});
    name.append(tag);
    const c = {
      tr, tag,
      score: el("td", {id: `score-${p}`}), energy: el("td", {id: `energy-${p}`}),
      units: el("td", {id: `units-${p}`}), cores: el("td", {id: `cores-${p}`}), win: el("td", {id: `win-${p}`}),
    };
    tr.append(el("td", {}, el("span", {class: "swatch", style: `background:${colour(p)}`})), name, c.score, c.energy, c.units, c.cores, c.win);
    tbody.append(tr);
    cellsOf.push(c);
  }
  const drawRow = el("tr", {}, el("td", {}, el("span", {class: "swatch", style: "background:#888"})), el("td", {class: "name"}, "draw"),
    el("td"), el("td"), el("td"), el("td"));
  const drawWin = el("td", {id: "win-draw"});
  drawRow.append(drawWin);
  tbody.append(drawRow);
  const pct = (k) => (k / 10).toFixed(1) + "%";
  function drawLegend(t) {
    for (let p = 0; p < np; p++) {
      const c = cellsOf[p], i = t * np + p;
      setText(c.score, score[i]); setText(c.energy, energy[i]); setText(c.units, units[i]); setText(c.cores, coresUp[i]);
      setText(c.win, pct(D.wp[t][p]));
      c.tr.classList.toggle("out", coresUp[i] === 0);
      setText(c.tag, inactiveFrom[p] >= 0 && t >= inactiveFrom[p] ? "inactive" : "");
    }
    setText(drawWin, pct(D.wp[t][np]));
  }

  // The result.
  if (R.result) {
    const res = R.result;
    document.getElementById("result").textContent = res.winner === null
      ? `Draw (${res.reason}) after ${res.turns} turns.`
      : `P${res.winner} ${R.players[res.winner].name} wins (${res.reason}) after ${res.turns} turns.`;
  }

  let timeline = null;
  const pick = (t) => timeline && timeline.goTo(t);

  // The commentary.
  const list = document.getElementById("moments"), items = [];
  for (const m of D.moments) {
    const li = el("li", {"data-turn": String(m.t), title: `jump to turn ${m.t}`},
      el("span", {class: "mt"}, `T${m.t}`),
      el("span", {class: "swatch", style: `background:${m.p >= 0 ? colour(m.p) : "#888"}`}), " ", m.text);
    li.onclick = () => pick(m.t);
    list.append(li);
    items.push([m.t, li]);
  }

  // The event ribbon: kills and spawns per turn as bars; razes,
  // eliminations and inactive bots as marks that jump to their turn.
  const ribbon = (function () {
    const W = 1200, H = 104, L = 70, Rr = 8, rowH = 18, top = 6;
    const x = (t) => L + (T > 0 ? t / T : 0) * (W - L - Rr);
    const s = svgEl("svg", {viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", id: "ribbonsvg"});
    const labels = ["kills", "spawns", "razes", "eliminations", "inactive"];
    labels.forEach((lab, k) => {
      const tx = svgEl("text", {x: 4, y: top + k * rowH + 12, class: "rowlab"});
      tx.textContent = lab;
      s.append(tx);
      s.append(svgEl("line", {x1: L, x2: W - Rr, y1: top + (k + 1) * rowH, y2: top + (k + 1) * rowH, class: "grid"}));
    });
    const kills = new Int32Array(T + 1), spawns = new Int32Array(T + 1);
    const marks = [];
    for (let t = 1; t <= T; t++) {
      for (const e of R.turns[t - 1].events) {
        if (e.type === "died" && e.cause === "combat") kills[t]++;
        else if (e.type === "spawned") spawns[t]++;
        else if (e.type === "captured") marks.push([2, t, e.player, `T${t}: P${e.player} razes P${e.owner}'s core ${e.core}`]);
        else if (e.type === "bot_inactive") marks.push([4, t, e.player, `T${t}: P${e.player}'s bot goes inactive`]);
      }
      for (let p = 0; p < np; p++) if (coresUp[(t - 1) * np + p] > 0 && coresUp[t * np + p] === 0) marks.push([3, t, p, `T${t}: P${p} eliminated`]);
    }
    const bars = (arr, k, fill) => {
      let mx = 0;
      for (const v of arr) mx = Math.max(mx, v);
      if (mx === 0) return;
      let d = "";
      const w = Math.max(0.8, (W - L - Rr) / Math.max(1, T) * 0.8), base = top + (k + 1) * rowH - 1;
      for (let t = 0; t <= T; t++) if (arr[t]) { const h = Math.max(1, arr[t] / mx * (rowH - 3)); d += `M${(x(t) - w / 2).toFixed(1)} ${base}h${w.toFixed(1)}v${(-h).toFixed(1)}h${(-w).toFixed(1)}z`; }
      s.append(svgEl("path", {d, fill}));
    };
    bars(kills, 0, "#ff6b6b");
    bars(spawns, 1, "#7fb2ff");
    for (const [k, t, p, text] of marks) {
      const cy = top + k * rowH + rowH / 2;
      const m = svgEl("rect", {x: x(t) - 4, y: cy - 6, width: 8, height: 12, fill: colour(p), class: "mark", "data-turn": String(t)});
      const tt = svgEl("title"); tt.textContent = text; m.append(tt);
      m.addEventListener("click", (e) => { e.stopPropagation(); pick(t); });
      s.append(m);
    }
    const cur = svgEl("line", {y1: 2, y2: H - 2, class: "cursor"});
    s.append(cur);
    s.addEventListener("click", (e) => {
      const r = s.getBoundingClientRect();
      pick(Math.round(((e.clientX - r.left) / r.width * W - L) / (W - L - Rr) * T));
    });
    document.getElementById("ribbon").append(s);
    return (t) => { const xx = x(t).toFixed(1); cur.setAttribute("x1", xx); cur.setAttribute("x2", xx); };
  })();

  // The charts.
  const charts = document.getElementById("charts");
  const wpSeries = [];
  for (let p = 0; p < np; p++) wpSeries.push({values: D.wp.map((r) => r[p] / 1000), colour: colour(p), label: `P${p} ${R.players[p].name}`});
  wpSeries.push({values: D.wp.map((r) => r[np] / 1000), colour: "#999", dash: true, label: "draw"});
  const per = (arr) => { const out = []; for (let p = 0; p < np; p++) out.push({values: series(arr, p), colour: colour(p), label: `P${p} ${R.players[p].name}`}); return out; };
  const cursors = [
    lineChart(charts, "win probability", wpSeries, T, 1, pick, (v) => Math.round(v * 100) + "%"),
    lineChart(charts, "score", per(score), T, 0, pick),
    lineChart(charts, "units", per(units), T, 0, pick),
    // The energy held zigzags between 0 and the spawn cost (each spawn
    // spends it): the chart shows the energy collected so far instead.
    lineChart(charts, "energy collected", per(collected), T, 0, pick),
  ];

  // Draw timings, read by the benchmark: frames drawn, total and longest
  // draw in milliseconds.
  const stats = {frames: 0, totalMs: 0, maxMs: 0};
  function draw(t) {
    const t0 = performance.now();
    drawMap(t);
    drawLegend(t);
    for (const c of cursors) c(t);
    ribbon(t);
    for (const [mt, li] of items) li.classList.toggle("future", mt > t);
    const ms = performance.now() - t0;
    stats.frames++; stats.totalMs += ms; stats.maxMs = Math.max(stats.maxMs, ms);
    if (draws === 1) {
      window.viewerFirstFrame = performance.now();
      document.body.dataset.ready = "1";
    }
  }

  fogSel.onchange = () => { timeline.redraw(); fogSel.blur(); };
  zoneBox.onchange = () => timeline.redraw();
  timeline = Timeline(T, draw, 5);
  window.viewer = Object.assign(timeline, {draws: () => draws, canvas, stats});
})();
