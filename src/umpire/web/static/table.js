// The table page: draws the board the server describes (continuous inches, squares or hexes),
// lists the seat's legal orders with their odds, keeps the event log, replays, undoes.
// Everything shown comes from the seat's own filtered view; the page never sees more.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const [, , GAME, TOKEN] = location.pathname.split("/");
const API = `/api/games/${GAME}/seats/${TOKEN}`;
const $ = (id) => document.getElementById(id);

const S = {
  view: null,      // the latest view
  log: [],         // log groups, in order
  index: -1,       // actions seen
  logIndex: -1,    // last log group shown
  selected: null,  // selected unit id
  sight: null,     // {unit, lines}
  frame: null,     // a replay frame while replaying
  busy: false,
};

// -- helpers ------------------------------------------------------------------------------------
function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}
function h(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}
const pct = (p) => (p * 100).toFixed(p < 0.1 && p > 0 ? 1 : 0) + "%";
const up = (s) => (s ? String(s).toUpperCase() : "—");
function toast(text, bad = true) {
  const t = $("toast");
  t.textContent = text;
  t.className = "toast" + (bad ? " bad" : "");
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.hidden = true), 6000);
}
async function api(path, options = {}) {
  const r = await fetch(API + path, options);
  const data = await r.json().catch(() => ({ detail: r.statusText }));
  if (!r.ok) { const e = new Error(data.detail || r.statusText); e.status = r.status; throw e; }
  return data;
}
const post = (path, body) => api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

// -- geometry per layout ------------------------------------------------------------------------
function geometry(board) {
  const L = board.layout;
  if (L === "continuous") {
    return { w: board.width, h: board.height, pt: (x, y) => [x, board.height - y], sym: 2.3, margin: 2.2 };
  }
  if (L === "hex") {  // odd-q offset columns, flat-topped hexes of width 1
    const dx = 0.75, dy = Math.sqrt(3) / 2;
    const rows = board.height;
    const pt = (x, y) => [0.5 + x * dx, (rows - 1 - y) * dy + dy / 2 + (x % 2 ? dy / 2 : 0)];
    return { w: 0.25 + board.width * dx + 0.25, h: rows * dy + dy / 2, pt, sym: 0.62, margin: 0.45, hex: dy };
  }
  return { w: board.width, h: board.height, pt: (x, y) => [x + 0.5, board.height - y - 0.5], sym: 0.62, margin: 0.45 };
}

// -- drawing ------------------------------------------------------------------------------------
const TERRAIN_FILL = {
  woods: "url(#p-woods)", buildings: "url(#p-buildings)", town: "url(#p-buildings)",
  hill: "#b59c66", rough: "url(#p-rough)", very_rough: "url(#p-marsh)", water: "#5b86b5",
  river: "#5b86b5", open: "#8da766",
};
const SIDE_COLOUR = { F: "#1f5fb4", H: "#b42020" };

function defs(svg) {
  const d = el("defs", {}, svg);
  const woods = el("pattern", { id: "p-woods", width: 2, height: 2, patternUnits: "userSpaceOnUse" }, d);
  el("rect", { width: 2, height: 2, fill: "#3e6a32" }, woods);
  for (const [cx, cy, r] of [[0.5, 0.5, 0.55], [1.5, 1.4, 0.6], [1.6, 0.3, 0.35], [0.4, 1.6, 0.35]])
    el("circle", { cx, cy, r, fill: "#2f5627", stroke: "#264a20", "stroke-width": 0.06 }, woods);
  const bld = el("pattern", { id: "p-buildings", width: 1.6, height: 1.6, patternUnits: "userSpaceOnUse" }, d);
  el("rect", { width: 1.6, height: 1.6, fill: "#b8a58c" }, bld);
  el("rect", { x: 0.15, y: 0.15, width: 0.9, height: 0.6, fill: "#8c3b2e" }, bld);
  el("rect", { x: 0.7, y: 0.95, width: 0.75, height: 0.5, fill: "#7b6a5a" }, bld);
  const rough = el("pattern", { id: "p-rough", width: 1.2, height: 1.2, patternUnits: "userSpaceOnUse" }, d);
  el("rect", { width: 1.2, height: 1.2, fill: "#a8a65c" }, rough);
  el("path", { d: "M0.1 0.4 l0.25 -0.25 M0.7 1.0 l0.25 -0.25", stroke: "#7d7a3c", "stroke-width": 0.07 }, rough);
  const marsh = el("pattern", { id: "p-marsh", width: 1.4, height: 1, patternUnits: "userSpaceOnUse" }, d);
  el("rect", { width: 1.4, height: 1, fill: "#6f8d73" }, marsh);
  el("path", { d: "M0.1 0.3 h0.5 M0.7 0.75 h0.5", stroke: "#4b7a9a", "stroke-width": 0.08 }, marsh);
  el("path", { d: "M0.35 0.3 v-0.25 M0.95 0.75 v-0.25", stroke: "#35502f", "stroke-width": 0.05 }, marsh);
  const mat = el("radialGradient", { id: "g-mat", cx: "50%", cy: "50%", r: "75%" }, d);
  el("stop", { offset: "0%", "stop-color": "#90a865" }, mat);
  el("stop", { offset: "100%", "stop-color": "#6f8a4a" }, mat);
  const arrow = el("marker", { id: "m-arrow", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, d);
  el("path", { d: "M0 0 L10 5 L0 10 z", fill: "#111" }, arrow);
}

function polyPoints(G, pts) {
  return pts.map(([x, y]) => G.pt(x, y).map((v) => v.toFixed(3)).join(",")).join(" ");
}

function drawContinuous(svg, board, G) {
  const layer = el("g", { class: "terrain" }, svg);
  el("rect", { x: 0, y: 0, width: board.width, height: board.height, fill: "url(#g-mat)", stroke: "#3b2f1e", "stroke-width": 0.25 }, layer);
  for (let x = 6; x < board.width; x += 6) el("line", { x1: x, y1: 0, x2: x, y2: board.height, class: "gridline" }, layer);
  for (let y = 6; y < board.height; y += 6) el("line", { x1: 0, y1: y, x2: board.width, y2: y, class: "gridline" }, layer);
  for (const road of board.roads || []) {
    const d = "M" + road.points.map(([x, y]) => G.pt(x, y).join(" ")).join(" L");
    el("path", { d, fill: "none", stroke: "#7d6947", "stroke-width": road.width + 0.35, "stroke-linejoin": "round", "stroke-linecap": "round" }, layer);
    el("path", { d, fill: "none", stroke: "#d2bd8c", "stroke-width": road.width, "stroke-linejoin": "round", "stroke-linecap": "round" }, layer);
  }
  for (const t of board.terrain || []) {
    const g = el("g", { class: "area " + t.kind }, layer);
    el("polygon", { points: polyPoints(G, t.points), fill: TERRAIN_FILL[t.kind] || "#999", stroke: t.kind === "hill" ? "#7d6535" : "#2a2a1a", "stroke-width": 0.12, "fill-opacity": t.kind === "rough" ? 0.85 : 1 }, g);
    if (t.kind === "hill") {
      const cx = t.points.reduce((s, p) => s + p[0], 0) / t.points.length;
      const cy = t.points.reduce((s, p) => s + p[1], 0) / t.points.length;
      for (const k of [0.66, 0.33]) {
        const pts = t.points.map(([x, y]) => [cx + (x - cx) * k, cy + (y - cy) * k]);
        el("polygon", { points: polyPoints(G, pts), fill: k < 0.5 ? "#c9b07a" : "#bea46d", stroke: "#7d6535", "stroke-width": 0.08 }, g);
      }
    }
    el("title", {}, g).textContent = `${t.id} (${t.kind.replace("_", " ")})`;
  }
  // ruler along the edges, every 6 inches
  for (let x = 0; x <= board.width; x += 6) el("text", { x, y: board.height + 1.3, class: "ruler" }, svg).textContent = x + '"';
  for (let y = 0; y <= board.height; y += 6) el("text", { x: -1.4, y: board.height - y + 0.35, class: "ruler" }, svg).textContent = y + '"';
  for (const o of board.objectives || []) {
    const [x, y] = G.pt(o.x, o.y);
    const g = el("g", { class: "objective" }, svg);
    el("circle", { cx: x, cy: y, r: board.objective_radius || 3, fill: "rgba(255,215,0,0.08)", stroke: "#f2c200", "stroke-width": 0.15, "stroke-dasharray": "0.6 0.4" }, g);
    el("path", { d: star(x, y, 0.9), fill: "#f2c200", stroke: "#5a4500", "stroke-width": 0.08 }, g);
    el("text", { x, y: y + 1.9, class: "obj-label" }, g).textContent = o.id.replace(/-/g, " ");
  }
}

function star(cx, cy, r) {
  let d = "";
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5, rr = i % 2 ? r * 0.45 : r;
    d += (i ? "L" : "M") + (cx + rr * Math.cos(a)).toFixed(3) + " " + (cy + rr * Math.sin(a)).toFixed(3);
  }
  return d + "z";
}

const CELL_FILL = { open: "#8da766", woods: "url(#p-woods)", town: "url(#p-buildings)", hill: "#c2a86e", river: "#5b86b5" };

function cellShape(G, x, y, attrs, parent) {
  const [cx, cy] = G.pt(x, y);
  if (G.hex) {
    const r = 0.5, pts = [];
    for (let i = 0; i < 6; i++) pts.push([cx + r * Math.cos((i * Math.PI) / 3), cy + r * Math.sin((i * Math.PI) / 3)]);
    return el("polygon", { points: pts.map((p) => p.join(",")).join(" "), ...attrs }, parent);
  }
  return el("rect", { x: cx - 0.5, y: cy - 0.5, width: 1, height: 1, ...attrs }, parent);
}

function drawCells(svg, board, G) {
  const layer = el("g", { class: "terrain" }, svg);
  el("rect", { x: -0.05, y: -0.05, width: G.w + 0.1, height: G.h + 0.1, fill: "#3b2f1e" }, layer);
  for (const c of board.cells) {
    const g = el("g", { class: "cell", "data-x": c.x, "data-y": c.y }, layer);
    cellShape(G, c.x, c.y, { fill: CELL_FILL[c.terrain] || "#8da766", stroke: "#54663a", "stroke-width": 0.02 }, g);
    const [cx, cy] = G.pt(c.x, c.y);
    if (c.terrain === "hill") el("ellipse", { cx, cy, rx: 0.32, ry: 0.2, fill: "#d3bb85", stroke: "#7d6535", "stroke-width": 0.02 }, g);
    if (c.road) el("rect", { x: cx - 0.09, y: cy - 0.5, width: 0.18, height: 1, fill: "#d2bd8c", stroke: "#7d6947", "stroke-width": 0.015 }, g);
    if (c.ford) el("path", { d: `M${cx - 0.35} ${cy} h0.7 M${cx - 0.35} ${cy + 0.12} h0.7`, stroke: "#dfe9f2", "stroke-width": 0.04, "stroke-dasharray": "0.08 0.05" }, g);
    if (c.trench) el("path", { d: `M${cx - 0.4} ${cy + 0.3} l0.1 -0.1 l0.1 0.1 l0.1 -0.1 l0.1 0.1 l0.1 -0.1 l0.1 0.1 l0.1 -0.1 l0.1 0.1`, stroke: "#3b2f1e", fill: "none", "stroke-width": 0.04 }, g);
    if (c.wire) el("path", { d: `M${cx - 0.4} ${cy - 0.3} l0.8 0 M${cx - 0.35} ${cy - 0.36} l0.1 0.12 M${cx - 0.05} ${cy - 0.36} l0.1 0.12 M${cx + 0.25} ${cy - 0.36} l0.1 0.12`, stroke: "#333", "stroke-width": 0.025 }, g);
    if (c.mines) el("text", { x: cx + 0.3, y: cy + 0.42, class: "cell-tag" }, g).textContent = "M";
    if (c.gas) el("circle", { cx, cy, r: 0.42, fill: "rgba(190,220,60,0.45)" }, g);
    if (c.objective) {
      el("path", { d: star(cx + 0.32, cy - 0.32, 0.13), fill: c.holder ? (c.holder === S.viewer ? SIDE_COLOUR.F : SIDE_COLOUR.H) : "#f2c200", stroke: "#5a4500", "stroke-width": 0.015 }, g);
    }
    el("text", { x: cx - 0.46, y: cy - 0.38, class: "cell-label" }, g).textContent = c.label || `${c.x},${c.y}`;
  }
}

const symbolCache = new Map();
// milsymbol draws the APP-6 / MIL-STD-2525 symbol; it is inlined as a nested <svg> (drawn at
// once, unlike an <image>, so a table redrawn while the AI plays never flickers)
function symbolImage(sidc) {
  let found = symbolCache.get(sidc);
  if (!found) {
    const sym = new ms.Symbol(sidc, { size: 28, fill: true, frame: true });
    const size = sym.getSize(), anchor = sym.getAnchor();
    found = { node: sym.asDOM(), svg: sym.asSVG(), w: size.width, h: size.height, ax: anchor.x, ay: anchor.y, valid: sym.isValid() };
    symbolCache.set(sidc, found);
  }
  return found;
}
function symbolNode(img, x, y, w, h) {
  const node = img.node.cloneNode(true);
  node.setAttribute("x", x); node.setAttribute("y", y);
  node.setAttribute("width", w); node.setAttribute("height", h);
  node.setAttribute("class", "symbol");
  return node;
}
const symbolHref = (img) => "data:image/svg+xml;charset=utf-8," + encodeURIComponent(img.svg);

function shortName(u) {
  const m = /\(([^)]+)\)\s*$/.exec(u.name || "");
  return m ? m[1] : "";
}

function drawUnit(layer, u, G, board, ctx) {
  const [x, y] = G.pt(u.x, u.y);
  const aff = u.side === S.viewer ? "F" : "H";
  // off the table (reserve, embarked, exited, removed): nothing to draw; a wreck stays
  if (u.status && u.status !== "active" && !u.wreck) return;
  const g = el("g", { class: "unit" + (u.side === S.viewer ? " own" : " enemy") + (u.active ? " active" : "") + (S.selected === u.id ? " selected" : ""), "data-unit": u.id, transform: `translate(${x.toFixed(3)} ${y.toFixed(3)})` }, layer);
  if (u.status && u.status !== "active") {
    const s = G.sym / 2.3;
    el("ellipse", { cx: 0.4 * s, cy: -0.6 * s, rx: 1.1 * s, ry: 0.7 * s, fill: "rgba(60,60,60,0.45)" }, g);
    el("rect", { x: -0.9 * s, y: -0.5 * s, width: 1.8 * s, height: 1.0 * s, rx: 0.2 * s, fill: "#2b2b2b", stroke: "#000", "stroke-width": 0.05 * s, transform: `rotate(${-u.facing})` }, g);
    el("path", { d: `M${-0.3 * s} ${0.1 * s} q${0.3 * s} ${-1.2 * s} ${0.35 * s} ${-0.2 * s} q${0.2 * s} ${-0.8 * s} ${0.3 * s} ${0.2 * s} z`, fill: "#ff7a1a", stroke: "#b33", "stroke-width": 0.04 * s }, g);
    el("title", {}, g).textContent = `${u.name}: wreck`;
    return;
  }
  const r = u.radius || G.sym * 0.3;
  el("circle", { r, class: "footprint", fill: aff === "F" ? "rgba(31,95,180,0.18)" : "rgba(180,32,32,0.18)", stroke: SIDE_COLOUR[aff], "stroke-width": G.sym * 0.03 }, g);
  const a = (-u.facing * Math.PI) / 180, len = Math.max(r * 1.9, G.sym * 0.62);
  el("line", { x1: 0, y1: 0, x2: (Math.cos(a) * len).toFixed(3), y2: (Math.sin(a) * len).toFixed(3), stroke: "#111", "stroke-width": G.sym * 0.045, "marker-end": "url(#m-arrow)" }, g);
  if (u.arc && u.arc < 360 && S.selected === u.id) {
    const half = (u.arc / 2) * (Math.PI / 180), R = 30;
    el("path", { d: `M0 0 L${R * Math.cos(a - half)} ${R * Math.sin(a - half)} A${R} ${R} 0 0 1 ${R * Math.cos(a + half)} ${R * Math.sin(a + half)} z`, fill: "rgba(255,255,255,0.07)", stroke: "rgba(255,255,255,0.4)", "stroke-width": 0.08 }, g);
  }
  const img = symbolImage(u.sidc || "SUGP-----------");
  const k = G.sym / img.w;
  g.appendChild(symbolNode(img, (-img.ax * k).toFixed(3), (-img.ay * k).toFixed(3), (img.w * k).toFixed(3), (img.h * k).toFixed(3)));
  const label = shortName(u) || (u.sp !== undefined ? `${u.sp}SP` : "");
  if (board.layout === "continuous") el("text", { x: 0, y: G.sym * 0.72, class: "unit-label" }, g).textContent = label;
  // command tokens (gold) and morale markers (red) as counters beside the model
  const chips = [];
  for (let i = 0; i < (u.tokens || 0); i++) chips.push("token");
  for (let i = 0; i < (u.markers || 0); i++) chips.push("marker");
  chips.forEach((kind, i) => {
    const cx = G.sym * 0.55 + (i % 3) * G.sym * 0.19, cy = -G.sym * 0.32 + Math.floor(i / 3) * G.sym * 0.19;
    el("circle", { cx, cy, r: G.sym * 0.085, class: "chip " + kind }, g);
  });
  if (u.sp !== undefined) {  // strength points as pips
    for (let i = 0; i < u.max_sp; i++) el("rect", { x: -0.36 + i * 0.13, y: 0.33, width: 0.1, height: 0.08, fill: i < u.sp ? "#fff" : "#444", stroke: "#000", "stroke-width": 0.01 }, g);
  }
  if (u.commander) el("text", { x: -G.sym * 0.62, y: -G.sym * 0.3, class: "cmd-star" }, g).textContent = "★";
  if (ctx.targets[u.id]) {
    const t = ctx.targets[u.id];
    el("circle", { r: r * 1.6, class: "crosshair" }, g);
    el("text", { x: 0, y: -G.sym * 0.55, class: "odds-tag" }, g).textContent = `${pct(t.p_kill)} kill`;
  }
  el("title", {}, g).textContent = `${u.name} (${up(u.side)})` + (u.type ? ` — ${u.type}` : "");
}

function render() {
  const source = S.frame || S.view;
  if (!source) return;
  const board = source.board;
  S.viewer = S.frame ? S.frame.viewer : S.view.seat.viewer;
  const svg = $("table");
  svg.innerHTML = "";
  const G = geometry(board);
  S.G = G;
  const m = G.margin;
  svg.setAttribute("viewBox", `${-m} ${-m * 0.5} ${G.w + m * 1.5} ${G.h + m * 1.3}`);
  defs(svg);
  if (board.layout === "continuous") drawContinuous(svg, board, G);
  else if (board.cells) drawCells(svg, board, G);
  const ctx = { targets: {} };
  const live = !S.frame && S.view.your_turn;
  const acts = live ? S.view.actions : [];
  for (const a of acts) if (a.odds && a.action.target) {
    const prev = ctx.targets[a.action.target];
    if (!prev || a.odds.p_kill > prev.p_kill) ctx.targets[a.action.target] = a.odds;
  }
  const over = el("g", { class: "overlay" }, svg);
  // movement: reach circles and the legal destinations the rules offer
  const sel = board.units.find((u) => u.id === S.selected);
  const moves = acts.filter((a) => a.action.point && (!a.action.unit || a.action.unit === (sel ? sel.id : a.action.unit)));
  if (sel && sel.move && board.layout === "continuous" && moves.length) {
    const [x, y] = G.pt(sel.x, sel.y);
    for (const [speed, dist] of Object.entries(sel.move)) {
      if (!moves.some((a) => a.action.kind === (speed === "normal" ? "move" : speed))) continue;
      el("circle", { cx: x, cy: y, r: dist, class: "reach " + speed }, over);
    }
  }
  // line of sight from the selected unit
  if (S.sight && sel && S.sight.unit === sel.id) {
    for (const line of S.sight.lines) {
      const t = board.units.find((u) => u.id === line.target);
      if (!t) continue;
      const [x1, y1] = G.pt(sel.x, sel.y), [x2, y2] = G.pt(t.x, t.y);
      el("line", { x1, y1, x2, y2, class: "los " + (line.visible ? (line.obscured ? "obscured" : "clear") : "blocked") }, over);
    }
  }
  const units = el("g", { class: "units" }, svg);
  const order_ = [...board.units].sort((a, b) => (a.status === "active") - (b.status === "active"));
  for (const u of order_) drawUnit(units, u, G, board, ctx);
  const dests = el("g", { class: "destinations" }, svg);  // above the models: always clickable
  for (const a of moves) {
    const [x, y] = G.pt(a.action.point[0], a.action.point[1]);
    const dot = el("circle", { cx: x, cy: y, r: board.layout === "continuous" ? 0.45 : 0.16, class: "dest " + a.action.kind }, dests);
    el("title", {}, dot).textContent = a.text;
    dot.addEventListener("click", (ev) => { ev.stopPropagation(); order(a.action); });
  }
  for (const m of board.hidden_markers || []) {  // face-down deployment markers
    const [x, y] = G.pt(m.x, m.y);
    const g = el("g", { class: "hidden-marker", "data-marker": m.id, transform: `translate(${x} ${y})` }, units);
    el("rect", { x: -0.9, y: -0.9, width: 1.8, height: 1.8, rx: 0.2, fill: "#d9cfb0", stroke: m.side === S.viewer ? SIDE_COLOUR.F : SIDE_COLOUR.H, "stroke-width": 0.18 }, g);
    el("text", { x: 0, y: 0.45, class: "marker-q" }, g).textContent = "?";
    el("title", {}, g).textContent = `hidden ${up(m.side)} deployment marker`;
  }
  for (const s of board.smoke || []) {
    const [x, y] = G.pt(s.x, s.y);
    el("circle", { cx: x, cy: y, r: s.r || 2, class: "smoke" }, units);
  }
}

// -- side panels ----------------------------------------------------------------------------------
function renderStatus() {
  const v = S.view, st = (S.frame || v).board.status || {};
  $("title").textContent = `${v.game.title} — ${v.game.scenario.replace(/-/g, " ")}`;
  const bits = [];
  if (st.turn !== undefined) bits.push(`Turn ${st.turn}${st.turns ? "/" + st.turns : ""}`);
  if (st.initiative) bits.push(`Initiative ${up(st.initiative)}`);
  if (st.pools) bits.push("Tokens " + Object.entries(st.pools).map(([s, n]) => `${up(s)} ${n}`).join(" · "));
  if (st.stage) bits.push(`Stage ${st.stage}`);
  if (st.activations_left !== undefined && st.activations_left !== null) bits.push(`Activations left ${st.activations_left}`);
  if (st["objectives held"]) bits.push("Objectives " + Object.entries(st["objectives held"]).map(([s, n]) => `${up(s)} ${n}`).join(" · "));
  $("status").innerHTML = "";
  for (const b of bits) $("status").append(h("span", { className: "chip-stat", textContent: b }));
  const turn = $("turn");
  const you = v.seat.sides.length ? v.seat.sides.map(up).join(" + ") : "watching";
  if (v.outcome) turn.innerHTML = `<b>Game over</b>: ${up(v.outcome.winner)} — ${v.outcome.how}`;
  else if (v.your_turn) turn.innerHTML = `<b>${up(v.to_act)} to act</b> — your decision`;
  else if (v.ai_thinking) turn.innerHTML = `<b>${up(v.to_act)}</b> (AI) is acting…`;
  else turn.innerHTML = `Waiting for <b>${up(v.to_act)}</b>`;
  turn.className = "turn " + (v.your_turn ? "yours" : "theirs");
  turn.append(h("div", { className: "hint", textContent: `You: ${you} · seen as ${up(v.seat.viewer)} · action ${v.index}` }));
  if (v.ai_error) turn.append(h("div", { className: "error", textContent: v.ai_error }));
  $("undo").hidden = !(v.seat.can_undo && v.index > 0 && !S.frame);
  // against the AI undo stops at a roll, a card or a secret: say why in one line
  $("undo-why").hidden = !(v.seat.undo_blocked && !S.frame);
  $("undo-why").textContent = v.seat.undo_blocked ? `Undo: ${v.seat.undo_blocked}` : "";
  const slider = $("slider");
  slider.max = v.index;
  if (!S.frame) slider.value = v.index;
  const cards = v.board.cards || (v.board.hand ? { hand: v.board.hand } : null);
  $("cards").hidden = !cards;
  if (cards) {
    $("hand").innerHTML = "";
    const hand = Array.isArray(cards) ? cards : cards.hand || [];
    const label = (c) => (typeof c === "string" ? c.replace(/_/g, " ") : (c.name || c.id || "") + (c.text ? ": " + c.text : ""));
    for (const c of hand) $("hand").append(h("div", { className: "game-card", textContent: label(c) }));
    if (!hand.length) $("hand").append(h("p", { className: "hint", textContent: "no cards in hand" }));
    const info = [];
    if (cards.enemy_hand !== undefined) info.push(`opponent holds ${cards.enemy_hand}`);
    if (cards.deck !== undefined) info.push(`deck ${cards.deck}`);
    if (Array.isArray(cards.discard)) info.push(`discard ${cards.discard.length}`);
    if (info.length) $("hand").append(h("p", { className: "hint", textContent: info.join(" · ") }));
  }
}

function renderCard() {
  const card = $("card");
  const board = (S.frame || S.view).board;
  const u = board.units.find((x) => x.id === S.selected);
  if (!u) { card.hidden = true; return; }
  card.hidden = false;
  card.innerHTML = "";
  const img = symbolImage(u.sidc || "SUGP-----------");
  card.append(h("div", { className: "card-head" }, h("img", { src: symbolHref(img), className: "card-sym" }), h("div", {}, h("b", { textContent: u.name }), h("div", { className: "hint", textContent: `${up(u.side)}${u.type ? " · " + u.type : ""}${u.status && u.status !== "active" ? " · " + u.status : ""}` }))));
  const dl = h("dl", { className: "stats" });
  const stats = { ...(u.stats || {}) };
  if (u.markers !== undefined) stats.markers = u.markers;
  if (u.tokens !== undefined) stats.tokens = u.tokens;
  if (u.move) stats.move = `${u.move.normal}" / rapid ${u.move.rapid}" / road ${u.move.road}"`;
  if (u.arc) stats["fire arc"] = `${u.arc}°`;
  if (u.carrying && u.carrying.length) stats.carrying = u.carrying.join(", ");
  for (const [k, v] of Object.entries(stats)) {
    if (v === null || v === undefined || v === "") continue;
    dl.append(h("dt", { textContent: k.replace(/_/g, " ") }), h("dd", { textContent: Array.isArray(v) ? v.join(", ") || "—" : String(v) }));
  }
  card.append(dl);
  if (S.sight && S.sight.unit === u.id && S.sight.lines.length) {
    const seen = S.sight.lines.filter((l) => l.visible);
    card.append(h("div", { className: "hint", textContent: `Line of sight: ${seen.length} of ${S.sight.lines.length} enemy units visible (${seen.filter((l) => l.obscured).length} obscured)` }));
  }
}

function actionButton(a) {
  const b = h("button", { className: "order " + a.action.kind });
  b.dataset.kind = a.action.kind;
  if (a.action.unit) b.dataset.unit = a.action.unit;
  if (a.action.target) b.dataset.target = a.action.target;
  b.append(h("span", { textContent: a.text }));
  if (a.odds) {
    const o = a.odds;
    b.append(h("span", { className: "odds", textContent: `${o.dice}d10 need ${o.need}+ · hit ${pct(o.p_hit)} · kill ${pct(o.p_kill)}` }));
    b.title = o.modifiers.map((m) => `${m.delta > 0 ? "+" : ""}${m.delta} ${m.why} [${m.rule}]`).join("\n") || "no modifiers";
  }
  b.addEventListener("click", () => order(a.action));
  return b;
}

function renderActions() {
  const box = $("actions");
  box.innerHTML = "";
  const v = S.view;
  if (S.frame) { box.append(h("p", { className: "hint", textContent: "Replaying: orders are given on the live table." })); return; }
  if (!v.your_turn) { box.append(h("p", { className: "hint", textContent: v.outcome ? "The game is over." : "Not your decision." })); return; }
  const acts = v.actions;
  const points = acts.filter((a) => a.action.point);
  const others = acts.filter((a) => !a.action.point);
  const mine = S.selected ? others.filter((a) => a.action.unit === S.selected || a.action.target === S.selected) : [];
  const rest = others.filter((a) => !mine.includes(a));
  if (mine.length) { box.append(h("div", { className: "group-title", textContent: "Selected unit" })); for (const a of mine) box.append(actionButton(a)); }
  if (points.length) box.append(h("p", { className: "hint", textContent: `${points.length} destinations marked on the table — click one, or click any point (the rules decide).` }));
  const shots = rest.filter((a) => a.odds), plain = rest.filter((a) => !a.odds);
  if (shots.length) { box.append(h("div", { className: "group-title", textContent: "Shots" })); for (const a of shots.sort((x, y) => y.odds.p_kill - x.odds.p_kill)) box.append(actionButton(a)); }
  const LIMIT = 40;
  for (const a of plain.slice(0, LIMIT)) box.append(actionButton(a));
  if (plain.length > LIMIT) box.append(h("p", { className: "hint", textContent: `…and ${plain.length - LIMIT} more: click a unit to see its orders.` }));
}

function dieFaces(ev) {
  const span = h("span", { className: "dice" });
  for (const d of ev.dice || []) span.append(h("span", { className: "die" + (ev.need && d >= ev.need ? " ok" : ""), textContent: d }));
  return span;
}

function logGroup(group) {
  const li = h("li", { className: "group" + (group.setup ? " setup" : "") });
  li.dataset.index = group.index;
  for (const ev of group.events) {
    const row = h("div", { className: "ev " + ev.kind + (ev.kind === "roll" ? (ev.success ? " success" : " fail") : "") });
    if (ev.kind === "roll") row.append(dieFaces(ev));
    row.append(h("span", { className: "text", textContent: ev.text }));
    if (ev.kind === "roll" && ev.need !== null && ev.need !== undefined) row.append(h("span", { className: "need", textContent: `need ${ev.need}+` }));
    if (ev.rule) row.append(h("span", { className: "rule", textContent: ev.rule }));
    li.append(row);
  }
  return li;
}

function renderLog(groups, replace) {
  const ol = $("log");
  if (replace) ol.innerHTML = "";
  for (const g of groups) if (g.events.length) ol.append(logGroup(g));
  ol.scrollTop = ol.scrollHeight;
}

// -- interaction --------------------------------------------------------------------------------
let refreshing = Promise.resolve();
function refresh() {  // one at a time: the wait loop and an order may both ask
  refreshing = refreshing.then(refreshNow, refreshNow);
  return refreshing;
}

async function refreshNow() {
  const since = S.index >= 0 ? S.index : 0;
  const v = await api(`/view?since=${since}`);
  const reset = S.index < 0 || v.index < S.index;
  if (reset && S.index >= 0) { const full = await api(`/view?since=0`); return apply(full, true); }
  apply(v, reset);
}

function apply(v, reset) {
  S.view = v;
  S.index = v.index;
  if (reset) { S.log = []; S.logIndex = -1; }
  const fresh = v.log.filter((g) => g.index > S.logIndex);  // never the same action twice
  if (fresh.length) S.logIndex = fresh[fresh.length - 1].index;
  S.log.push(...fresh);
  if (!S.frame) renderLog(fresh, reset);
  if (S.selected && !v.board.units.some((u) => u.id === S.selected)) S.selected = null;
  if (!S.selected) {
    const active = v.board.units.find((u) => u.active && u.side === v.seat.viewer);
    if (active && v.your_turn) S.selected = active.id;
  }
  renderStatus();
  render();
  renderCard();
  renderActions();
}

async function order(action) {
  if (S.busy || S.frame) return;
  S.busy = true;
  try {
    await post("/actions", { index: S.index, action });
    await refresh();
  } catch (e) {
    toast(`Refused: ${e.message}`);
    if (e.status === 409) await refresh();
  } finally { S.busy = false; }
}

async function select(id) {
  S.selected = id;
  S.sight = null;
  render(); renderCard(); renderActions();
  if (!S.frame && S.view.board.sight) {
    try { S.sight = await api(`/sight?unit=${encodeURIComponent(id)}`); render(); renderCard(); } catch { /* no sight for this one */ }
  }
}

function tablePoint(ev) {
  const svg = $("table");
  const p = svg.createSVGPoint();
  p.x = ev.clientX; p.y = ev.clientY;
  const q = p.matrixTransform(svg.getScreenCTM().inverse());
  return [q.x, q.y];
}

function onTableClick(ev) {
  const unitNode = ev.target.closest && ev.target.closest(".unit");
  if (unitNode) {
    const id = unitNode.dataset.unit;
    const v = S.view;
    // clicking a target of the active unit fires the best shot at it
    if (!S.frame && v.your_turn && S.selected && id !== S.selected) {
      const shots = v.actions.filter((a) => a.action.target === id && a.odds);
      if (shots.length && ev.detail === 2) { order(shots.sort((a, b) => b.odds.p_kill - a.odds.p_kill)[0].action); return; }
    }
    select(id);
    return;
  }
  const v = S.view;
  if (S.frame || !v.your_turn) return;
  const [sx, sy] = tablePoint(ev);
  const board = v.board;
  if (board.layout === "continuous") {
    const x = sx, y = board.height - sy;
    const sel = board.units.find((u) => u.id === S.selected);
    const movers = v.actions.filter((a) => a.action.point && a.action.unit === (sel && sel.id));
    if (!sel || !movers.length) return;
    const d = Math.hypot(x - sel.x, y - sel.y);
    const kinds = new Set(movers.map((a) => a.action.kind));
    let kind = "move";
    if (sel.move && d > sel.move.normal) kind = kinds.has("rapid") && d <= sel.move.rapid ? "rapid" : "road";
    if (!kinds.has(kind) && kinds.has("rapid")) kind = "rapid";
    order({ kind, unit: sel.id, point: [Math.round(x * 10) / 10, Math.round(y * 10) / 10] });
  } else {
    // which cell? the nearest centre
    let best = null, bestD = 1e9;
    for (const c of board.cells) {
      const [cx, cy] = S.G.pt(c.x, c.y);
      const dd = Math.hypot(cx - sx, cy - sy);
      if (dd < bestD) { bestD = dd; best = c; }
    }
    if (!best) return;
    const here = v.actions.filter((a) => a.action.point && a.action.point[0] === best.x && a.action.point[1] === best.y);
    if (here.length === 1) order(here[0].action);
    else if (here.length > 1) { const box = $("actions"); box.prepend(...here.map(actionButton)); toast(`Several orders for ${best.label}: pick one in the list`, false); }
  }
}

async function showFrame(at) {
  if (at >= S.view.index) { S.frame = null; $("replay-banner").hidden = true; render(); renderCard(); renderActions(); renderStatus(); renderLog(S.log, true); return; }
  S.frame = await api(`/replay?at=${at}`);
  $("replay-at").textContent = at;
  $("replay-banner").hidden = false;
  render(); renderCard(); renderActions(); renderStatus();
  renderLog(S.frame.log, true);
}

function showInvite() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem("umpire.games") || "{}")[GAME] || null; } catch { saved = null; }
  if (!saved) return;
  const mine = saved.seats.find((s) => s.token === TOKEN);
  if (!mine || !mine.here) return;
  const others = saved.seats.filter((s) => s.token !== TOKEN);
  if (!others.length) return;
  $("invite").hidden = false;
  for (const s of others) $("invite-links").append(h("li", {}, h("b", { textContent: s.sides.map(up).join(" + ") + ": " }), h("a", { href: s.url, textContent: location.origin + s.url })));
}

async function waitLoop() {
  for (;;) {
    try {
      const w = await api(`/wait?index=${S.index}`);
      if (w.index !== S.index && !S.busy) await refresh();
    } catch (e) {
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

async function init() {
  $("table").addEventListener("click", onTableClick);
  $("slider").addEventListener("input", (e) => showFrame(Number(e.target.value)));
  $("live").addEventListener("click", () => { $("slider").value = S.view.index; showFrame(S.view.index); });
  $("undo").addEventListener("click", async () => {
    try { await post("/undo", { index: S.index }); S.selected = null; await refresh(); } catch (e) { toast(`Refused: ${e.message}`); }
  });
  try { await refresh(); } catch (e) { document.body.innerHTML = `<p class="error">${e.message}</p>`; return; }
  showInvite();
  waitLoop();
}

init();
