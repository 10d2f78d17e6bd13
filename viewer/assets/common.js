"use strict";
// Shared by the AI Code Battle and the Kindling pages: the data, the
// player colours, the timeline controls (buttons, slider, keys, speed,
// #t=N) and small SVG line charts.

// When the script starts and when the data is parsed, for the benchmark.
window.viewerScriptStart = performance.now();
const DATA = JSON.parse(document.getElementById("data").textContent);
const DERIVED = JSON.parse(document.getElementById("derived").textContent);
window.viewerParsed = performance.now();

// Player 3 is teal, not yellow: yellow is energy's on the AI Code Battle
// map (the two were taken for one another), so it comes after the six
// seats a match has at most.
const PALETTE = ["#e8554e", "#3d9df2", "#4cc06b", "#3cd6d0", "#b06ce8", "#f08a3c", "#f2c230", "#e85bb0",
  "#9aa63a", "#8c8cff", "#c9895f", "#58b0a0", "#d0d0d0", "#ff9e9e", "#7fd0ff", "#b8e986"];

function colour(p) { return PALETTE[p % PALETTE.length]; }

// el builds an HTML element: el("td", {class: "x"}, "text", child...).
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) {
    if (k === "text") e.textContent = attrs[k];
    else e.setAttribute(k, attrs[k]);
  }
  for (const c of children) e.append(c);
  return e;
}

const SVGNS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  return e;
}

// Timeline drives a page through turns 0..max: draw(t) is called for
// every turn shown. Controls are found by id: home, back, play, fwd, end,
// slider, speed, jump, go, turn (its text is the turn shown). Keys: Space
// plays or pauses, the arrows step, Home and End jump to the ends. The
// URL's #t=N opens at turn N and follows the turn as it plays.
function Timeline(max, draw, turnsPerSecond) {
  const $ = (id) => document.getElementById(id);
  const turnEl = $("turn"), slider = $("slider"), playBtn = $("play"), speedSel = $("speed"), jump = $("jump");
  let t = -1, playing = false, last = 0, acc = 0, lastHash = 0;
  slider.max = String(max);
  jump.max = String(max);
  $("maxturn").textContent = String(max);

  function writeHash() {
    const h = "#t=" + t;
    if (location.hash !== h) history.replaceState(null, "", h);
    lastHash = performance.now();
  }
  function show(n) {
    n = Math.max(0, Math.min(max, Math.floor(Number(n)) || 0));
    if (n === t) return;
    t = n;
    draw(t);
    turnEl.textContent = String(t);
    slider.value = String(t);
    // The jump box follows the turn shown, unless it is being typed in.
    if (document.activeElement !== jump) jump.value = String(t);
    if (!playing || performance.now() - lastHash > 250) writeHash();
  }
  function frame(now) {
    if (!playing) return;
    acc += (now - last) / 1000 * turnsPerSecond * Number(speedSel.value);
    last = now;
    const steps = Math.floor(acc);
    if (steps > 0) {
      acc -= steps;
      show(t + steps);
    }
    if (t >= max) { pause(); return; }
    requestAnimationFrame(frame);
  }
  function play() {
    if (playing) return;
    if (t >= max) show(0);
    playing = true;
    acc = 0;
    last = performance.now();
    playBtn.textContent = "\u275a\u275a";
    playBtn.setAttribute("aria-pressed", "true");
    requestAnimationFrame(frame);
  }
  function pause() {
    if (!playing) return;
    playing = false;
    playBtn.textContent = "\u25b6";
    playBtn.setAttribute("aria-pressed", "false");
    writeHash();
  }
  function toggle() { playing ? pause() : play(); }
  function step(d) { pause(); show(t + d); }
  function fromHash() {
    const m = /^#t=(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }

  $("home").onclick = () => step(-t);
  $("back").onclick = () => step(-1);
  $("fwd").onclick = () => step(1);
  $("end").onclick = () => step(max - t);
  playBtn.onclick = toggle;
  slider.oninput = () => { pause(); show(slider.value); };
  $("go").onclick = () => { pause(); show(jump.value); };
  jump.onkeydown = (e) => { if (e.key === "Enter") { pause(); show(jump.value); } };
  window.addEventListener("hashchange", () => { const h = fromHash(); if (h !== null && h !== t) { pause(); show(h); } });
  document.addEventListener("keydown", (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" && e.target.type !== "range" || tag === "SELECT" || tag === "TEXTAREA") return;
    switch (e.key) {
      case " ": toggle(); break;
      case "ArrowLeft": step(-1); break;
      case "ArrowRight": step(1); break;
      case "Home": step(-t); break;
      case "End": step(max - t); break;
      default: return;
    }
    e.preventDefault();
  });
  // A focused button would also be pressed by the Space that just played
  // or paused: it is not.
  document.addEventListener("keyup", (e) => {
    if (e.key === " " && e.target && e.target.tagName === "BUTTON") e.preventDefault();
  });

  const start = fromHash();
  show(start === null ? 0 : start);
  return {
    goTo(n) { pause(); show(n); },
    turn() { return t; },
    play, pause,
    playing() { return playing; },
    max,
    redraw() { draw(t); },
  };
}

// lineChart draws series over turns 0..turns into an SVG appended to
// parent: each series is {values, colour, dash, label}. yMax fixes the top
// of the scale (else the largest value). A click jumps to the turn under
// the pointer through onPick. It returns cursor(t), which moves the
// vertical line marking the turn shown.
function lineChart(parent, title, series, turns, yMax, onPick, fmt) {
  const W = 600, H = 150, L = 34, R = 8, T = 18, B = 14;
  const box = el("figure", {class: "chart"});
  const s = svgEl("svg", {viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img"});
  let top = yMax || 0;
  if (!yMax) for (const se of series) for (const v of se.values) if (v > top) top = v;
  if (top <= 0) top = 1;
  const x = (t) => L + (turns > 0 ? t / turns : 0) * (W - L - R);
  const y = (v) => T + (1 - v / top) * (H - T - B);
  s.append(svgEl("rect", {x: L, y: T, width: W - L - R, height: H - T - B, class: "plot"}));
  for (const frac of [0, 0.5, 1]) {
    s.append(svgEl("line", {x1: L, x2: W - R, y1: y(top * frac), y2: y(top * frac), class: "grid"}));
    const lab = svgEl("text", {x: L - 4, y: y(top * frac) + 4, class: "axis", "text-anchor": "end"});
    const v = top * frac;
    lab.textContent = fmt ? fmt(v) : (Number.isInteger(v) ? String(v) : v.toFixed(1));
    s.append(lab);
  }
  const cap = svgEl("text", {x: L, y: 12, class: "ctitle"});
  cap.textContent = title;
  s.append(cap);
  for (const se of series) {
    let pts = "";
    for (let t = 0; t < se.values.length; t++) pts += x(t).toFixed(1) + "," + y(se.values[t]).toFixed(1) + " ";
    const line = svgEl("polyline", {points: pts, fill: "none", stroke: se.colour, "stroke-width": 1.6, "vector-effect": "non-scaling-stroke"});
    if (se.dash) line.setAttribute("stroke-dasharray", "4 3");
    if (se.label) { const tt = svgEl("title"); tt.textContent = se.label; line.append(tt); }
    s.append(line);
  }
  const cur = svgEl("line", {y1: T, y2: H - B, class: "cursor"});
  s.append(cur);
  s.addEventListener("click", (e) => {
    const r = s.getBoundingClientRect();
    const sx = (e.clientX - r.left) / r.width * W;
    onPick(Math.round((sx - L) / (W - L - R) * turns));
  });
  box.append(s);
  parent.append(box);
  return (t) => { const xx = x(t).toFixed(1); cur.setAttribute("x1", xx); cur.setAttribute("x2", xx); };
}

// setText changes an element's text only when it differs (no layout work
// for unchanged cells while playing).
function setText(e, s) {
  s = String(s);
  if (e.textContent !== s) e.textContent = s;
}
