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
  placing: null,   // the piece to place at a deployment step (deployment.pieces)
  lastActive: null,  // the viewer's unit active at the last view (a new one is selected)
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
// a probability as a whole percentage, rounded exactly as the rules' own texts round it
// (Python's "{:.0%}": p × 100 in floating point, then half to even), so one probability reads
// the same in the order text, the odds line, the map and the tooltips
function pct(p) {
  if (typeof p !== "number" || !isFinite(p)) return "—";
  const x = p * 100;
  const [whole, frac = "0"] = Math.abs(x).toFixed(60).split(".");
  let n = parseInt(whole, 10);
  const c = frac[0];
  if (c > "5" || (c === "5" && (/[1-9]/.test(frac.slice(1)) || n % 2 === 1))) n += 1;
  return (x < 0 ? "-" : "") + n + "%";
}
// a modifier as the order text writes it: a shot's modifiers change the score needed, the text
// gives them as changes to the die (+1 to the need is -1 on the die)
function modText(m, odds) {
  const d = odds && odds.need !== undefined && !odds.results ? -m.delta : m.delta;
  return `${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.abs(d)} (${m.why})`;  // "−2 (2 morale markers...)"
}
function modTitle(mods, odds) {
  return mods.map((m) => `${modText(m, odds)} [${m.rule}]` + (RULES[m.rule] ? `\n    ${RULES[m.rule]}` : "")).join("\n");
}
let RULES = {};  // rule id -> its one-line summary (the ruleset's catalogue), for tooltips
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
    if (c.road && !board.roads) el("rect", { x: cx - 0.09, y: cy - 0.5, width: 0.18, height: 1, fill: "#d2bd8c", stroke: "#7d6947", "stroke-width": 0.015 }, g);
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
    const oct = sym.getOctagonAnchor ? sym.getOctagonAnchor() : anchor;
    found = { node: sym.asDOM(), svg: sym.asSVG(), w: size.width, h: size.height, ax: anchor.x, ay: anchor.y, ox: oct.x, oy: oct.y, valid: sym.isValid() };
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
  // the symbol's frame centred on the unit (a headquarters staff hangs below it); on a grid
  // the whole symbol, staff included, fits inside the unit's square
  let k = G.sym / img.w;
  if (board.layout !== "continuous") k = Math.min(k, 0.44 / Math.max(img.ox, img.w - img.ox, img.oy, img.h - img.oy));
  g.appendChild(symbolNode(img, (-img.ox * k).toFixed(3), (-img.oy * k).toFixed(3), (img.w * k).toFixed(3), (img.h * k).toFixed(3)));
  const label = shortName(u) || (u.sp !== undefined ? `${u.sp}SP` : "");
  if (board.layout === "continuous" && label) {
    const t = el("text", { x: 0, y: G.sym * 0.72, class: "unit-label", "data-label": u.id }, g);
    t.textContent = label;
  }
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
  if (u.commander) {  // the commander's star sits inside the unit's own footprint
    const star_ = el("text", { x: -r * 0.55, y: -r * 0.25, class: "cmd-star" }, g);
    star_.textContent = "★";
    el("title", {}, star_).textContent = "commander";
  }
  if (ctx.targets[u.id]) {
    const t = ctx.targets[u.id];
    el("circle", { r: r * 1.6, class: "crosshair" }, g);
    el("text", { x: 0, y: -G.sym * 0.55, class: "odds-tag" }, g).textContent = `${pct(t.p_kill)} kill`;
  }
  el("title", {}, g).textContent = `${u.name} (${up(u.side)})` + (u.type ? ` — ${u.type}` : "") + (ctx.targets[u.id] ? ` — double-click to fire (hit ${pct(ctx.targets[u.id].p_hit)}, kill ${pct(ctx.targets[u.id].p_kill)})` : "");
}

function render() {
  const source = S.frame || S.view;
  if (!source) return;
  const board = onTableOnly(source.board);
  S.viewer = S.frame ? S.frame.viewer : S.view.seat.viewer;
  const svg = $("table");
  svg.innerHTML = "";
  const G = geometry(board);
  S.G = G;
  const m = G.margin;
  S.home = [-m, -m * 0.5, G.w + m * 1.5, G.h + m * 1.3];
  svg.setAttribute("viewBox", (S.zoom || S.home).join(" "));
  // a phone sizes the map box to the table's own shape (see app.css)
  $("table-wrap").style.setProperty("--map-ratio", ((G.w + m * 1.5) / (G.h + m * 1.3)).toFixed(3));
  defs(svg);
  if (board.layout === "continuous") drawContinuous(svg, board, G);
  else if (board.cells) drawCells(svg, board, G);
  if (board.buildings) drawBuildings(svg, board, G);
  if (board.layout === "hex") { drawHexFeatures(svg, board, G); drawZoc(svg, board, G); drawAirEw(svg, board, G); }
  if (!S.frame) drawZone(svg, board, G, S.view.deployment);
  const ctx = { targets: {}, attacked: {} };
  const live = !S.frame && S.view.your_turn;
  const acts = live ? S.view.actions : [];
  for (const a of acts) if (a.odds && a.odds.kind === "crt" && a.action.cell) ctx.attacked[a.action.cell] = true;
  for (const a of acts) if (a.odds && a.action.target && a.odds.p_kill !== undefined) {
    const prev = ctx.targets[a.action.target];
    if (!prev || a.odds.p_kill > prev.p_kill) ctx.targets[a.action.target] = a.odds;
  }
  const over = el("g", { class: "overlay" }, svg);
  // movement: reach circles and the legal destinations the rules offer
  const sel = board.units.find((u) => u.id === S.selected);
  if (board.layout === "hex") hexIndex(board);
  // the selected unit's destinations; with another unit selected (an enemy looked at), those
  // of every unit that has some (the active one's), so the orders' "marked on the table" holds
  const pointed = acts.filter((a) => a.action.point);
  const selMoves = sel ? pointed.filter((a) => !a.action.unit || a.action.unit === sel.id) : pointed;
  const moves = S.view.deploying && !S.frame
    ? acts.filter((a) => a.action.point && a.action.unit === S.placing)  // the piece being placed
    : (selMoves.length ? selMoves : pointed);
  if (sel && sel.move && board.layout === "continuous" && moves.length) {
    const [x, y] = G.pt(sel.x, sel.y);
    for (const [speed, dist] of Object.entries(sel.move)) {
      if (!moves.some((a) => a.action.kind === (speed === "normal" ? "move" : speed))) continue;
      el("circle", { cx: x, cy: y, r: dist, class: "reach " + speed }, over);
    }
  }
  // line of sight from the selected unit (spotting lines carry their own ends)
  if (S.sight && sel && S.sight.unit === sel.id) {
    for (const line of S.sight.lines) {
      if (line.from && line.to) {
        const [x1, y1] = G.pt(line.from[0], line.from[1]), [x2, y2] = G.pt(line.to[0], line.to[1]);
        const ln = el("line", { x1, y1, x2, y2, class: "los spot " + (line.visible ? "clear" : "blocked"), "data-target": line.target }, over);
        el("title", {}, ln).textContent = `${line.from_figure} → ${line.figure}: ${line.visible ? "in sight" : "no line of sight"}, ${line.range}"` + (line.spot !== undefined ? `, spot ${line.spot === "auto" ? "automatic" : line.spot === 0 ? "impossible" : line.spot + "+"}` : "");
        continue;
      }
      if (line.reach) continue;
      const t = board.units.find((u) => u.id === line.target);
      if (!t) continue;
      const [x1, y1] = G.pt(sel.x, sel.y), [x2, y2] = G.pt(t.x, t.y);
      el("line", { x1, y1, x2, y2, class: "los " + (line.visible ? (line.obscured ? "obscured" : "clear") : "blocked") }, over);
    }
  }
  if (board.layout === "hex") drawReach(over, board, G, sel, moves);
  const units = el("g", { class: "units" }, svg);
  // the selected counter of a stack is drawn on top of it
  const order_ = [...board.units].sort((a, b) => (a.status === "active") - (b.status === "active") || (a.id === S.selected) - (b.id === S.selected));
  if (board.figures) drawFigures(units, board, G);
  else for (const u of order_) (board.layout === "hex" ? drawCounter : drawUnit)(units, u, G, board, ctx);
  const dests = el("g", { class: "destinations" }, svg);  // above the models: always clickable
  // several orders to one point (a move and a rapid move to it): drawn as rings around each
  // other, the ordinary move smallest and on top, so each can be clicked
  const base = board.layout === "continuous" ? 0.45 : 0.16;
  const rank = (a) => (a.action.kind === "move" ? 1 : 0);
  const atPoint = {};
  const ordered = [...moves].sort((p, q) => rank(p) - rank(q));
  for (const a of ordered) { const k = a.action.point.join(","); atPoint[k] = (atPoint[k] || 0) + 1; }
  const drawn = {};
  for (const a of ordered) {
    const k = a.action.point.join(",");
    drawn[k] = (drawn[k] || 0) + 1;
    const ring = atPoint[k] - drawn[k];  // how many are drawn on top of this one
    const [x, y] = G.pt(a.action.point[0], a.action.point[1]);
    const dot = el("circle", { cx: x, cy: y, r: base * (1 + 0.6 * ring), class: "dest " + a.action.kind }, dests);
    el("title", {}, dot).textContent = a.text;
    dot.addEventListener("click", (ev) => { ev.stopPropagation(); order(a.action); });
  }
  if (board.layout === "hex" && sel) {  // the selected counter's legal moves, by hex
    const shift = { normal: -0.09, column: 0.09, heli: 0 };
    for (const a of acts) {
      if (a.action.kind !== "move" || a.action.unit !== sel.id || !a.action.cell) continue;
      const p = hexCentre(G, board, a.action.cell);
      if (!p) continue;
      const dot = el("circle", { cx: p[0] + (shift[a.action.option] || 0), cy: p[1] + 0.28, r: 0.07, class: "dest move mode-" + a.action.option, "data-hex": a.action.cell }, dests);
      el("title", {}, dot).textContent = a.text;
      dot.addEventListener("click", (ev) => { ev.stopPropagation(); order(a.action); });
    }
  }
  for (const m of board.hidden_markers || []) {  // face-down deployment markers
    const [x, y] = G.pt(m.x, m.y);
    const g = el("g", { class: "hidden-marker", "data-marker": m.id, transform: `translate(${x} ${y})` }, units);
    el("rect", { x: -0.9, y: -0.9, width: 1.8, height: 1.8, rx: 0.2, fill: "#d9cfb0", stroke: m.side === S.viewer ? SIDE_COLOUR.F : SIDE_COLOUR.H, "stroke-width": 0.18 }, g);
    el("text", { x: 0, y: 0.45, class: "marker-q" }, g).textContent = "?";
    if (m.contents) el("text", { x: 0, y: 1.5, class: "marker-contents" }, g).textContent = m.contents;
    el("title", {}, g).textContent = m.site ? `concealment marker ${m.id} at ${m.site}` + (m.contents ? `: ${m.contents}` : "") : `hidden ${up(m.side)} deployment marker`;
  }
  for (const s of board.smoke || []) {
    const [x, y] = G.pt(s.x, s.y);
    el("circle", { cx: x, cy: y, r: s.r || 2, class: "smoke" }, units);
  }
  if (live) drawDeploySites(svg, board, G, acts);
  declutterLabels(svg);
}

// -- hex maps: hexsides, roads, zones of control, air/EW markers, counters, reach ----------------
function hexIndex(board) {
  if (!board._byId) { board._byId = {}; for (const c of board.cells || []) board._byId[c.id] = c; }
  return board._byId;
}
function hexCentre(G, board, id) {
  const c = hexIndex(board)[id];
  return c ? G.pt(c.x, c.y) : null;
}
function hexPolygon(G, cx, cy, r, attrs, parent) {
  const pts = [];
  for (let i = 0; i < 6; i++) pts.push([cx + r * Math.cos((i * Math.PI) / 3), cy + r * Math.sin((i * Math.PI) / 3)]);
  return el("polygon", { points: pts.map((p) => p.map((v) => v.toFixed(3)).join(",")).join(" "), ...attrs }, parent);
}
const sideAff = (side) => (side === S.viewer ? "F" : "H");

function drawHexFeatures(svg, board, G) {
  const layer = el("g", { class: "hex-features" }, svg);
  // roads and the autobahn: centre to centre across each road hexside
  for (const r of board.roads || []) {
    const a = hexCentre(G, board, r.a), b = hexCentre(G, board, r.b);
    if (!a || !b) continue;
    const g = el("g", { class: "road " + r.kind, "data-a": r.a, "data-b": r.b }, layer);
    const wide = r.kind === "autobahn";
    el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: wide ? "#3b3b3b" : "#7d6947", "stroke-width": wide ? 0.16 : 0.1, "stroke-linecap": "round" }, g);
    el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: wide ? "#f2d04a" : "#e3cf9c", "stroke-width": wide ? 0.05 : 0.05, "stroke-linecap": "round", "stroke-dasharray": wide ? "0.12 0.06" : null }, g);
    el("title", {}, g).textContent = `${r.kind} ${r.a}–${r.b}`;
  }
  // rivers on hexsides (the shared edge of two hexes), bridges where a road crosses
  for (const s of board.hexsides || []) {
    const a = hexCentre(G, board, s.a), b = hexCentre(G, board, s.b);
    if (!a || !b) continue;
    const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
    const dx = b[0] - a[0], dy = b[1] - a[1], n = Math.hypot(dx, dy) || 1;
    const px = (-dy / n) * 0.25, py = (dx / n) * 0.25;  // half a side of a hex of radius 0.5
    const g = el("g", { class: "hexside river " + s.kind + (s.bridge ? " bridged" : ""), "data-a": s.a, "data-b": s.b }, layer);
    const major = /major/.test(s.kind);
    el("line", { x1: mx - px, y1: my - py, x2: mx + px, y2: my + py, stroke: "#2f6fb0", "stroke-width": major ? 0.11 : 0.07, "stroke-linecap": "round" }, g);
    if (s.bridge) {
      const bx = (dx / n) * 0.09, by = (dy / n) * 0.09;
      el("line", { class: "bridge", x1: mx - bx, y1: my - by, x2: mx + bx, y2: my + by, stroke: "#5a4a3a", "stroke-width": 0.12 }, g);
    }
    el("title", {}, g).textContent = `${s.kind.replace(/_/g, " ")} ${s.a}|${s.b}` + (s.bridge ? " (bridge)" : "") + (s.ends_move ? " — crossing ends movement" : "");
  }
  // cities, control, refugees, air markers
  const named = new Set();
  for (const c of board.cells || []) {
    const [cx, cy] = G.pt(c.x, c.y);
    if (c.city && !named.has(c.city) && named.add(c.city)) el("text", { x: cx, y: cy + 0.4, class: "city-label" }, layer).textContent = c.city + (c.vp ? ` (${c.vp})` : "");
    if (c.control && c.objective) el("circle", { cx: cx - 0.3, cy: cy - 0.3, r: 0.06, class: "control " + (c.control === S.viewer ? "own" : "enemy") }, layer);
    if (c.refugees) el("text", { x: cx + 0.26, y: cy + 0.2, class: "refugee-tag" }, layer).textContent = "R";
  }
}

function drawZoc(svg, board, G) {
  const layer = el("g", { class: "zoc-layer" }, svg);
  for (const [side, hexes] of Object.entries(board.zoc || {})) {
    for (const id of hexes) {
      const p = hexCentre(G, board, id);
      if (!p) continue;
      const poly = hexPolygon(G, p[0], p[1], 0.44, { class: `zoc zoc-${sideAff(side) === "F" ? "own" : "enemy"}`, "data-side": side, "data-hex": id }, layer);
      el("title", {}, poly).textContent = `${up(side)} zone of control`;
    }
  }
}

function drawAirEw(svg, board, G) {
  const layer = el("g", { class: "markers" }, svg);
  const air = board.air || {};
  for (const id of air.in_range || []) {
    const p = hexCentre(G, board, id);
    if (p) hexPolygon(G, p[0], p[1], 0.47, { class: "air-range " + (air.holder === S.viewer ? "own" : "enemy") }, layer);
  }
  for (const id of air.markers || []) {
    const p = hexCentre(G, board, id);
    if (!p) continue;
    const g = el("g", { class: "air-marker", "data-hex": id, transform: `translate(${p[0] - 0.3} ${p[1] + 0.22})` }, layer);
    el("rect", { x: -0.13, y: -0.13, width: 0.26, height: 0.26, rx: 0.03, fill: air.holder === S.viewer ? SIDE_COLOUR.F : SIDE_COLOUR.H, stroke: "#fff", "stroke-width": 0.015 }, g);
    el("text", { x: 0, y: 0.07, class: "marker-glyph" }, g).textContent = "✈";
    el("title", {}, g).textContent = `air superiority marker (${up(air.holder)})`;
  }
}

function drawCounter(layer, u, G, board, ctx) {
  if (u.status && u.status !== "active") return;
  const [x0, y0] = G.pt(u.x, u.y);
  const k = u.stack_index || 0, n = u.stack_size || 1;
  const off = (k - (n - 1) / 2) * 0.07;
  const x = x0 + off, y = y0 - off;
  const aff = sideAff(u.side);
  const g = el("g", { class: "unit counter" + (aff === "F" ? " own" : " enemy") + (S.selected === u.id ? " selected" : ""), "data-unit": u.id, "data-hex": u.hex, transform: `translate(${x.toFixed(3)} ${y.toFixed(3)})` }, layer);
  const s = 0.5;
  el("rect", { x: -s / 2, y: -s / 2, width: s, height: s, rx: 0.03, class: "counter-face", fill: u.side === "pact" ? "#c9a27a" : "#a9bfd6", stroke: S.selected === u.id ? "#fff" : "#111", "stroke-width": S.selected === u.id ? 0.04 : 0.02 }, g);
  const img = symbolImage(u.sidc || "SUGP-----------");
  const w = 0.34, kk = w / img.w;
  g.appendChild(symbolNode(img, (-img.ax * kk).toFixed(3), (-img.ay * kk - 0.05).toFixed(3), (img.w * kk).toFixed(3), (img.h * kk).toFixed(3)));
  el("text", { x: 0, y: 0.215, class: "counter-values" }, g).textContent = `${u.strength}-${u.ma}`;
  if (n > 1 && k === n - 1) el("text", { x: 0.22, y: -0.17, class: "stack-count" }, g).textContent = n;
  if (u.ew) {
    el("rect", { x: -0.27, y: -0.3, width: 0.2, height: 0.12, fill: "#7a2bbd", stroke: "#fff", "stroke-width": 0.01, class: "ew-marker" }, g);
    el("text", { x: -0.17, y: -0.21, class: "ew-text" }, g).textContent = `EW${u.ew > 1 ? u.ew : ""}`;
  }
  if (ctx.attacked[u.hex]) el("circle", { r: 0.33, class: "crosshair" }, g);
  el("title", {}, g).textContent = `${u.name} (${up(u.side)}) — ${u.type} ${u.strength}-${u.ma}, ${u.division}` + (u.ew ? `, ${u.ew} EW marker(s)` : "");
}

function drawReach(over, board, G, sel, moves) {
  // the reach the rules give the selected unit (sight answer) and its legal moves now
  const lines = S.sight && sel && S.sight.unit === sel.id ? S.sight.lines.filter((l) => l.reach) : [];
  for (const l of lines) {
    const p = hexCentre(G, board, l.reach);
    if (!p) continue;
    const poly = hexPolygon(G, p[0], p[1], 0.42, { class: "reach-hex " + l.mode, "data-hex": l.reach }, over);
    el("title", {}, poly).textContent = `${sel.id} can reach ${l.reach} (${l.mode}, ${l.cost} MP)`;
  }
}

// -- skirmish tables: buildings, figures, formations -------------------------------------------
function drawBuildings(svg, board, G) {
  const layer = el("g", { class: "buildings" }, svg);
  for (const b of board.buildings || []) {
    const g = el("g", { class: "building", "data-building": b.id }, layer);
    el("polygon", { points: polyPoints(G, b.points), fill: "#b8a58c", stroke: "#3b2f1e", "stroke-width": 0.15 }, g);
    for (const r of b.rooms) {
      const upper = r.floor > 0;
      const cls = "room" + (upper ? " upper" : "") + (r.searched ? " searched" : "") + (board.cache_room === r.id ? " cache" : "");
      const inset = upper ? r.points.map(([x, y], i, arr) => {
        const cx = arr.reduce((s, p) => s + p[0], 0) / arr.length, cy = arr.reduce((s, p) => s + p[1], 0) / arr.length;
        return [x + (cx - x) * 0.12, y + (cy - y) * 0.12];
      }) : r.points;
      const poly = el("polygon", { points: polyPoints(G, inset), class: cls, "data-room": r.id, "data-floor": r.floor }, g);
      el("title", {}, poly).textContent = `${b.name}: room ${r.id}, floor ${r.floor}` + (r.searched ? " (searched)" : "") + (r.cache_candidate ? " — the cache may be here" : "");
      const [cx, cy] = G.pt(r.centre[0], r.centre[1]);
      if (upper) el("text", { x: cx, y: cy - 0.35 * r.floor, class: "floor-tag" }, g).textContent = `floor ${r.floor}`;
      if (board.cache_room === r.id) el("text", { x: cx, y: cy + 0.5, class: "cache-tag" }, g).textContent = "CACHE";
    }
    for (const d of b.doors) {
      const [x, y] = G.pt(d.at[0], d.at[1]);
      el("rect", { x: x - 0.4, y: y - 0.4, width: 0.8, height: 0.8, class: "door" }, g);
    }
    for (const w of b.windows) {
      const [x, y] = G.pt(w.at[0], w.at[1]);
      el("rect", { x: x - 0.35, y: y - 0.2, width: 0.7, height: 0.4, class: "window" }, g);
    }
    const [bx, by] = G.pt(b.points[0][0], b.points[2][1]);
    el("text", { x: bx + 0.3, y: by + 0.9, class: "building-label" }, g).textContent = b.name + (b.floors.length > 1 ? ` (${b.floors.length} floors)` : "");
  }
  if (board.ied) {
    const [x, y] = G.pt(board.ied[0], board.ied[1]);
    el("text", { x, y, class: "ied-tag" }, layer).textContent = "IED";
  }
}

function drawFigures(layer, board, G) {
  const base = board.figure_base || 0.8;
  const byUnit = {};
  for (const f of board.figures) (byUnit[f.unit] = byUnit[f.unit] || []).push(f);
  for (const u of board.units) {
    const figs = (byUnit[u.id] || []).filter((f) => f.status === "fit" || f.status === "wounded");
    if (figs.length > 1) {  // the formation: the unit's figures joined in order round their centre
      const cx = figs.reduce((s, f) => s + f.x, 0) / figs.length, cy = figs.reduce((s, f) => s + f.y, 0) / figs.length;
      const ring = [...figs].sort((a, b) => Math.atan2(a.y - cy, a.x - cx) - Math.atan2(b.y - cy, b.x - cx));
      const pts = ring.map((f) => [f.x, f.y]);
      el("polygon", { points: polyPoints(G, pts), class: `formation ${u.formation} ${sideAff(u.side) === "F" ? "own" : u.side === "civilians" ? "neutral" : "enemy"}`, "data-unit": u.id }, layer);
    }
  }
  for (const f of board.figures) {
    const u = board.units.find((x) => x.id === f.unit) || {};
    const [x, y] = G.pt(f.x, f.y);
    const aff = f.side === "civilians" ? "N" : sideAff(f.side);
    const cls = "unit figure " + (aff === "F" ? "own" : aff === "N" ? "neutral" : "enemy") + " " + f.status + (f.prone ? " prone" : "") + (S.selected === f.unit ? " selected" : "") + (u.active ? " active" : "");
    const g = el("g", { class: cls, "data-unit": f.unit, "data-figure": f.id, transform: `translate(${x.toFixed(3)} ${y.toFixed(3)})` }, layer);
    const r = base / 2;
    if (f.status === "killed" || f.status === "captured") {
      el("path", { d: `M${-r} ${-r} L${r} ${r} M${-r} ${r} L${r} ${-r}`, class: "casualty" }, g);
    } else {
      const a = (-f.facing * Math.PI) / 180;
      el("line", { x1: 0, y1: 0, x2: (Math.cos(a) * r * 1.9).toFixed(3), y2: (Math.sin(a) * r * 1.9).toFixed(3), class: "facing" }, g);
      if (f.prone) el("ellipse", { rx: r * 1.2, ry: r * 0.6, class: "base", transform: `rotate(${-f.facing})` }, g);
      else el("circle", { r, class: "base" }, g);
      if (f.status === "wounded") el("circle", { r: r * 0.45, class: "wound" }, g);
      if (f.role === "leader" || f.role === "officer") el("circle", { r: r * 1.25, class: "leader-ring" }, g);
      if (board.commander === f.id) el("text", { x: -r, y: -r, class: "cinc-badge" }, g).textContent = "★";  // one's own secret Commander-in-Chief
      if (f.floor) el("text", { x: r, y: -r, class: "floor-badge" }, g).textContent = `↑${f.floor}`;
    }
    el("title", {}, g).textContent = `${f.name} (${u.name || f.unit}) — ${f.weapon}${f.second ? " + " + f.second : ""}, ${f.status}${f.prone ? ", prone" : ""}${f.room ? ", in " + f.room : ""}${board.commander === f.id ? ", your Commander-in-Chief (secret)" : ""}`;
  }
  for (const u of board.units) {
    if (u.status !== "active" || u.x === undefined) continue;
    const [x, y] = G.pt(u.x, u.y);
    const t = el("text", { x, y: y - 1.4, class: "unit-label figure-unit" + (S.selected === u.id ? " selected" : ""), "data-label": u.id }, layer);
    t.textContent = `${u.name} · ${u.formation}${u.state && u.state !== "ok" ? " · " + u.state : ""}`;
  }
}

// -- exact distributions in the order list ------------------------------------------------------
function distBars(o) {
  const box = h("span", { className: "dist" });
  const order = o.order || Object.keys(o.results);
  for (const r of order) {
    const p = o.results[r];
    if (!p) continue;
    const cell = h("span", { className: "dist-cell", title: o.exact && o.exact[r] ? `${r}: ${o.exact[r]}` : `${r}: ${pct(p)}` });
    cell.dataset.result = r;
    cell.dataset.p = p;
    cell.style.flexGrow = String(Math.max(p, 0.04));
    cell.append(h("b", { textContent: r }), h("span", { textContent: " " + pct(p) }));
    box.append(cell);
  }
  return box;
}

function distribution(a) {
  const o = a.odds;
  const wrap = h("span", { className: "odds distribution" });
  if (o.kind === "crt") {
    wrap.append(h("span", { className: "odds-head", textContent: `${o.odds} → column ${o.column}, DRM ${o.drm >= 0 ? "+" : ""}${o.drm}` + (o.before_support ? " (before support)" : o.own_support !== undefined ? ` (your support ${o.own_support}, enemy's assumed none)` : "") }));
    wrap.append(distBars(o));
    const notes = [];
    if (o.support && o.support.length) notes.push("your support: " + o.support.slice(0, 3).map((s) => `+${s.own} → hex vacated ${pct(s.vacated)}`).join(", "));
    if (o.worst) notes.push(`if the enemy commits all ${o.worst.enemy}: vacated ${pct(o.worst.vacated)}`);
    else if (o.enemy_support_max !== undefined) notes.push(o.enemy_support_max ? `enemy support unknown until the reveal (up to ${o.enemy_support_max})` : "the enemy has no support to commit");
    if (notes.length) wrap.append(h("span", { className: "hint", textContent: notes.join(" · ") }));
  } else if (o.kind === "casualties") {
    wrap.append(h("span", { className: "odds-head", textContent: o.dice.map((d) => `${d.dice}d20≤${d.need}${d.blast ? " (" + d.blast + ")" : ""}`).join(" + ") + ` · ${o.visible} target figure(s) visible` }));
    wrap.append(distBars(o));
    wrap.append(h("span", { className: "hint", textContent: `killed ≥1 ${pct(1 - (o.killed["0"] || 0))} · leader hit ${pct(o.leader_hit)} · expected ${o.expected.toFixed(2)}` + (o.blast_not_counted ? " · blast rounds not in these odds" : "") }));
    for (const b of o.blasts || []) wrap.append(h("span", { className: "hint blast-odds", textContent: `${b.figure}'s ${b.weapon.replace(/_/g, " ")} on target ${pct(b.on_target)}, else it scatters (burst casualties not in these odds)` }));
  } else if (o.kind === "door") {
    wrap.append(h("span", { className: "odds-head", textContent: `HE at the door of ${o.room}: ` + o.dice.map((d) => `1d20≤${d.need} (${d.weapon.replace(/_/g, " ")}, ${d.band})`).join(", then ") }));
    wrap.append(distBars(o));
  }
  const mods = o.modifiers || [];
  if (mods.length) wrap.title = modTitle(mods, o);
  return wrap;
}

function renderDrawnCard(board) {
  const c = board.drawn_card;
  const box = $("drawn");
  if (!box) return;
  box.innerHTML = "";
  box.hidden = !c && !board.deck;
  if (!c) return;
  const red = /[♥♦]/.test(c.label || "");
  box.append(h("div", { className: "playing-card" + (red ? " red" : ""), id: "drawn-card", textContent: c.joker ? "JOKER" : c.label }));
  const who = c.joker ? "joker" : c.side ? `${up(c.side)}'s card` : "";
  const bits = [];
  if (board.deck && board.deck.pile !== undefined) bits.push(`deck ${board.deck.pile}`);
  if (board.casualty_pile && board.casualty_pile.left !== undefined) bits.push(`casualty cards ${board.casualty_pile.left}`);
  box.append(h("div", { className: "hint", textContent: [who, ...bits].filter(Boolean).join(" · ") }));
}

// -- side panels ----------------------------------------------------------------------------------
function renderStatus() {
  const v = S.view, st = (S.frame || v).board.status || {};
  $("title").textContent = `${v.game.title} — ${v.game.scenario.replace(/-/g, " ")}`;
  const bits = [];
  if (st.turn !== undefined) bits.push(`Turn ${st.turn}${st.turns ? "/" + st.turns : ""}`);
  // before the battle the status says so: initiative and activations start after deployment
  const deploying = Boolean(v.deployment) && !S.frame;
  if (deploying) bits.push(`Deployment: ${up(v.deployment.side)} placing`);
  if (st.initiative && !deploying) bits.push(`Initiative ${up(st.initiative)}`);
  if (st.pools) bits.push("Tokens " + Object.entries(st.pools).map(([s, n]) => `${up(s)} ${n}`).join(" · "));
  if (st.stage) bits.push(`Stage ${st.stage}`);
  if (st.activations_left !== undefined && st.activations_left !== null && !deploying) bits.push(`Activations left ${st.activations_left}`);
  if (st.phase) bits.push(`Phase ${String(st.phase).replace(/_/g, " ")}`);
  if (st.segment) bits.push(`Segment ${st.segment}`);
  if (st.card) bits.push(`Card ${st.card}`);
  // a points key in words: a side's name in capitals, the rest as written ("NATO losses")
  const sides = v.game.sides || [];
  const words = (k) => k.split("_").map((p) => (sides.includes(p) ? up(p) : p)).join(" ");
  if (st.vp && Object.keys(st.vp).length) bits.push("VP " + Object.entries(st.vp).map(([s, n]) => `${words(s)} ${n}`).join(" · "));
  if (st["objectives held"]) bits.push("Objectives " + Object.entries(st["objectives held"]).map(([s, n]) => `${up(s)} ${n}`).join(" · "));
  $("status").innerHTML = "";
  for (const b of bits) $("status").append(h("span", { className: "chip-stat", textContent: b }));
  const turn = $("turn");
  const you = v.seat.sides.length ? v.seat.sides.map(up).join(" + ") : "watching";
  if (v.outcome) turn.innerHTML = `<b>Game over</b>: ${up(v.outcome.winner)} — ${v.outcome.how}`;
  else if (v.your_turn && v.deploying) turn.innerHTML = `<b>${up(v.to_act)}: deployment</b> — your decision: ${deployHow(v)} ${deployingWhat(v)}, or let the rules' player deploy for you`;
  else if (v.deployment) turn.innerHTML = `Waiting for <b>${up(v.deployment.side)}</b> to deploy` + (v.deployment.hidden && v.deployment.side !== v.seat.viewer ? " (you see only its markers)" : "");
  else if (v.your_turn) turn.innerHTML = `<b>${up(v.to_act)} to act</b> — your decision`;
  else if (v.ai_thinking) turn.innerHTML = `<b>${up(v.to_act)}</b> (AI) is acting…`;
  else turn.innerHTML = `Waiting for <b>${up(v.to_act)}</b>`;
  turn.className = "turn " + (v.your_turn ? "yours" : "theirs");
  turn.append(h("div", { className: "hint", textContent: `You: ${you} · seen as ${up(v.seat.viewer)} · action ${v.index}` }));
  if (v.ai_error) turn.append(h("div", { className: "error", textContent: v.ai_error }));
  // undo is hidden once the game is over: the battle report stands
  $("undo").hidden = !(v.seat.can_undo && v.index > 0 && !S.frame && !v.outcome);
  $("deploy-for-me").hidden = !(v.deploying && v.your_turn && !S.frame);
  // against the AI undo stops at a roll, a card or a secret: say why in one line
  $("undo-why").hidden = !(v.seat.undo_blocked && !S.frame);
  $("undo-why").textContent = v.seat.undo_blocked ? `Undo: ${v.seat.undo_blocked}` : "";
  const slider = $("slider");
  slider.max = v.index;
  if (!S.frame) slider.value = v.index;
  const shownBoard = (S.frame || v).board;
  $("drawn-panel").hidden = !shownBoard.drawn_card;
  renderDrawnCard(shownBoard);
  renderTray();
  renderReport();
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
  const reach = S.sight && S.sight.unit === u.id ? S.sight.lines.filter((l) => l.reach) : [];
  if (reach.length) {
    const by = {};
    for (const l of reach) by[l.mode] = (by[l.mode] || 0) + 1;
    card.append(h("div", { className: "hint reach-summary", textContent: `Reach this movement phase: ${reach.length} hexes (` + Object.entries(by).map(([m, n]) => `${m} ${n}`).join(", ") + ")" }));
  } else if (S.sight && S.sight.unit === u.id && S.sight.lines.length && S.sight.lines[0].from) {
    const seen = S.sight.lines.filter((l) => l.visible);
    card.append(h("div", { className: "hint spot-summary", textContent: `Spotting from ${S.sight.figure || "the nearest figure"}: ${seen.length} of ${S.sight.lines.length} enemy figures or markers in sight` }));
  } else if (S.sight && S.sight.unit === u.id && S.sight.lines.length) {
    const seen = S.sight.lines.filter((l) => l.visible);
    card.append(h("div", { className: "hint", textContent: `Line of sight: ${seen.length} of ${S.sight.lines.length} enemy units visible (${seen.filter((l) => l.obscured).length} obscured)` }));
  }
}

function actionButton(a) {
  const b = h("button", { className: "order " + a.action.kind });
  b.dataset.kind = a.action.kind;
  if (a.action.unit) b.dataset.unit = a.action.unit;
  if (a.action.target) b.dataset.target = a.action.target;
  b.append(h("span", { textContent: orderText(a) }));
  if (a.odds && a.odds.results) b.append(distribution(a));
  else if (a.odds) {
    const o = a.odds;
    b.append(h("span", { className: "odds", textContent: `${o.dice}d10 need ${o.need}+ · hit ${pct(o.p_hit)} · kill ${pct(o.p_kill)}` }));
    b.title = modTitle(o.modifiers || [], o) || "no modifiers";
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
  deployTray(box, v);
  // the card swap is made in the card tray (every combination of cards would be an order)
  const acts = v.actions.filter((a) => !(a.action.kind === "swap" && a.action.option));
  if (acts.length < v.actions.length) box.append(h("p", { className: "hint", textContent: "Swap cards in the card tray: click the cards to give back, then Swap." }));
  const points = acts.filter((a) => a.action.point);
  const others = acts.filter((a) => !a.action.point);
  const at = S.target ? others.filter((a) => a.action.target === S.target && a.odds) : [];
  if (at.length) {
    const t = v.board.units.find((u) => u.id === S.target);
    box.append(h("div", { className: "group-title", textContent: `Shots at ${t ? t.name : S.target} — double-click it on the table to fire the best` }));
    for (const a of at.sort((x, y) => y.odds.p_kill - x.odds.p_kill)) box.append(actionButton(a));
  }
  const mine = S.selected ? others.filter((a) => a.action.unit === S.selected || a.action.target === S.selected || (a.action.units || []).includes(S.selected)) : [];
  const rest = others.filter((a) => !mine.includes(a));
  if (mine.length) { box.append(h("div", { className: "group-title", textContent: "Selected unit" })); for (const a of mine) box.append(actionButton(a)); }
  if (v.deploying && S.placing) {
    const spots = points.filter((a) => a.action.unit === S.placing).length;
    box.append(h("p", { className: "hint", textContent: `${spots} places for ${pieceName(S.placing)} marked on the table — click one, or any point of your zone (the rules decide).` }));
  } else if (points.length) box.append(h("p", { className: "hint", textContent: `${points.length} destinations marked on the table — click one, or click any point (the rules decide).` }));
  const dists = rest.filter((a) => a.odds && a.odds.results);
  if (dists.length) { box.append(h("div", { className: "group-title", textContent: "Exact odds (before it is made)" })); for (const a of dists) box.append(actionButton(a)); }
  const shots = rest.filter((a) => a.odds && !a.odds.results), plain = rest.filter((a) => !a.odds);
  if (shots.length) { box.append(h("div", { className: "group-title", textContent: "Shots" })); for (const a of shots.sort((x, y) => y.odds.p_kill - x.odds.p_kill)) box.append(actionButton(a)); }
  const LIMIT = 40;
  for (const a of plain.slice(0, LIMIT)) box.append(actionButton(a));
  if (plain.length > LIMIT) box.append(h("p", { className: "hint", textContent: `…and ${plain.length - LIMIT} more: click a unit to see its orders.` }));
}

function dieFaces(ev) {
  const span = h("span", { className: "dice" });
  // a roll-under (Book and Gun's d20: "need" is the most that passes) colours the low faces
  const good = (d) => (ev.under ? d <= ev.need : d >= ev.need);
  for (const d of ev.dice || []) span.append(h("span", { className: "die" + (ev.need && good(d) ? " ok" : ""), textContent: d }));
  return span;
}

function logGroup(group) {
  const li = h("li", { className: "group" + (group.setup ? " setup" : "") });
  li.dataset.index = group.index;
  for (const ev of group.events) {
    const row = h("div", { className: "ev " + ev.kind + (ev.kind === "roll" ? (ev.success ? " success" : " fail") : "") });
    if (ev.kind === "roll") row.append(dieFaces(ev));
    row.append(h("span", { className: "text", textContent: ev.text }));
    if (ev.kind === "roll" && ev.need !== null && ev.need !== undefined) row.append(h("span", { className: "need", textContent: ev.under ? `need ${ev.need} or less` : `need ${ev.need}+` }));
    if (ev.rule) {
      const rule = h("span", { className: "rule", textContent: ev.rule });
      rule.dataset.rule = ev.rule;
      if (RULES[ev.rule]) rule.title = RULES[ev.rule];
      row.append(rule);
    }
    li.append(row);
  }
  if (group.why) {  // the search AI's reasons for this move (docs/search-ai.md)
    const why = h("details", { className: "ai-why" }, h("summary", { textContent: "why the AI chose this" }));
    const text = h("pre", { textContent: group.why });
    text.style.whiteSpace = "pre-wrap";
    why.append(text);
    li.append(why);
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
  // the unit that has just activated is selected (its destinations are drawn for it); a
  // unit the player clicked stays selected while the same unit is active
  const active = v.board.units.find((u) => u.active && u.side === v.seat.viewer);
  const activeId = active && v.your_turn ? active.id : null;
  if (activeId && (activeId !== S.lastActive || !S.selected)) S.selected = activeId;
  S.lastActive = activeId;
  const pieces = (v.deploying && v.deployment && v.deployment.pieces) || [];
  if (!pieces.includes(S.placing)) S.placing = pieces.length ? pieces[0] : null;
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

async function select(id, figure = null) {
  S.selected = id;
  S.target = null;
  S.sight = null;
  render(); renderCard(); renderActions();
  if (!S.frame && S.view.board.sight) {
    try {
      // a figure clicked on a skirmish table: the spotting lines of that figure
      const found = await api(`/sight?unit=${encodeURIComponent(figure || id)}`);
      if (S.selected !== id) return;
      S.sight = { unit: id, figure, lines: found.lines };
      render(); renderCard();
    } catch { /* no sight for this one */ }
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
    // a click on a target keeps the firer selected and lists the shots at it (a double
    // click fires the best of them: see onTableDoubleClick)
    if (!S.frame && v.your_turn && bestShot(id) && S.selected && S.selected !== id) {
      S.target = id;
      renderActions();
      return;
    }
    // a click on a stack's selected counter selects the next counter of the stack
    const stack = unitNode.dataset.hex && v.board.stacks ? v.board.stacks[unitNode.dataset.hex] || [] : [];
    if (stack.length > 1 && stack.includes(S.selected)) {
      select(stack[(stack.indexOf(S.selected) + 1) % stack.length]);
      return;
    }
    select(id, unitNode.dataset.figure || null);
    return;
  }
  const v = S.view;
  if (S.frame || !v.your_turn) return;
  const [sx, sy] = tablePoint(ev);
  const board = v.board;
  const dep = v.deploying ? v.deployment : null;
  if (dep && S.placing && !dep.zone.sites) {  // a deployment step: place the picked piece here
    placeAt(board, sx, sy, dep);
    return;
  }
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
    const here = v.actions.filter((a) => (a.action.point && a.action.point[0] === best.x && a.action.point[1] === best.y) || (best.id && a.action.cell === best.id && a.action.kind === "move" && a.action.unit === S.selected));
    if (here.length === 1) order(here[0].action);
    else if (here.length > 1) { const box = $("actions"); box.prepend(...here.map(actionButton)); toast(`Several orders for ${best.label}: pick one in the list`, false); }
  }
}

function placeAt(board, sx, sy, dep) {
  const kind = dep.kinds[0];
  if (board.layout === "continuous") {
    const x = sx, y = board.height - sy;
    order({ kind, unit: S.placing, point: [Math.round(x * 10) / 10, Math.round(y * 10) / 10] });
    return;
  }
  let best = null, bestD = 1e9;
  for (const c of board.cells || []) {
    const [cx, cy] = S.G.pt(c.x, c.y);
    const dd = Math.hypot(cx - sx, cy - sy);
    if (dd < bestD) { bestD = dd; best = c; }
  }
  if (!best) return;
  const name = best.label || `${best.x},${best.y}`;
  const found = S.view.actions.find((a) => dep.kinds.includes(a.action.kind) && a.action.unit === S.placing && a.action.cell === name);
  if (found) order(found.action);
  else toast(`${pieceName(S.placing)} cannot be placed at ${name}: outside your zone or taken`);
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
  $("table").addEventListener("dblclick", onTableDoubleClick);
  initZoom();
  $("deploy-for-me").addEventListener("click", deployForMe);
  $("slider").addEventListener("input", (e) => showFrame(Number(e.target.value)));
  $("live").addEventListener("click", () => { $("slider").value = S.view.index; showFrame(S.view.index); });
  $("undo").addEventListener("click", async () => {
    try { await post("/undo", { index: S.index }); S.selected = null; await refresh(); } catch (e) { toast(`Refused: ${e.message}`); }
  });
  try { await refresh(); } catch (e) { noGame(e); return; }
  loadRules(S.view.game.ruleset);
  showInvite();
  waitLoop();
}

if (document.body.classList.contains("play")) init();

// -- cards: the tray ------------------------------------------------------------------------------
function cardName(id) {
  const info = (S.view && S.view.card_info) || {};
  return (info[id] && info[id].name) || String(id).replace(/_/g, " ");
}
function cardText(id) {
  const info = (S.view && S.view.card_info) || {};
  return (info[id] && info[id].text) || "";
}
function unitName(id) {
  const u = S.view && S.view.board.units.find((x) => x.id === id);
  return u ? u.name : id;
}
// an order's words: the ruleset's description, or for a card its name and what it is aimed at
function orderText(a) {
  const k = a.action.kind;
  if ((k === "card" || k === "no_response" || k === "swap") && (!a.text || a.text === k)) {
    if (k === "no_response") return "Let the enemy's card stand (no response)";
    if (k === "swap") return a.action.option ? "Swap " + a.action.option.split("+").map(cardName).join(" and ") : "Keep the hand";
    const [id, detail] = String(a.action.option || "").split("|");
    return `Play ${cardName(id)}` + (a.action.target ? ` on ${unitName(a.action.target)}` : "") + (detail ? ` (${detail.replace(/[-_]/g, " ")})` : "");
  }
  return a.text;
}

function trayActions(v) {
  const acts = v.your_turn && !S.frame ? v.actions : [];
  const plays = {}, swaps = acts.filter((a) => a.action.kind === "swap");
  for (const a of acts) {
    if (a.action.kind !== "card") continue;
    const id = String(a.action.option || "").split("|")[0];
    (plays[id] = plays[id] || []).push(a);
  }
  const pass = acts.find((a) => a.action.kind === "no_response");
  return { plays, swaps, pass };
}

function renderTray() {
  const v = S.view, board = (S.frame || v).board;
  const cards = board.cards || (board.hand ? { hand: board.hand } : null);
  $("cards").hidden = !cards;
  if (!cards) return;
  const hand = Array.isArray(cards) ? cards : cards.hand || [];
  const { plays, swaps, pass } = trayActions(v);
  S.swapPick = (S.swapPick || []).filter((c) => hand.includes(c));
  const swapping = swaps.length > 0;
  $("tray-hint").textContent = swapping ? "click the cards to give back, then Swap" : Object.keys(plays).length ? "click a lit card to play it" : pass ? "the enemy played a card: answer it or let it stand" : "";
  const box = $("hand");
  box.innerHTML = "";
  hand.forEach((c, i) => {
    const id = typeof c === "string" ? c : c.id || c.name || String(i);
    const playable = !!plays[id];
    const picked = S.swapPick.includes(id);
    const b = h("button", { className: "game-card" + (playable ? " playable" : "") + (swapping ? " swappable" : "") + (picked ? " picked" : ""), type: "button" });
    b.dataset.card = id;
    b.append(h("b", { className: "card-name", textContent: typeof c === "string" ? cardName(c) : c.name || id }));
    const text = typeof c === "string" ? cardText(c) : c.text || "";
    if (text) b.append(h("span", { className: "card-text", textContent: text }));
    if (!playable && !swapping) b.disabled = true;
    b.title = playable ? "click to play" : swapping ? (picked ? "click to keep it" : "click to give it back in the swap") : "not playable now";
    b.addEventListener("click", () => onCard(id));
    box.append(b);
  });
  if (!hand.length) box.append(h("p", { className: "hint", textContent: "no cards in hand" }));
  const choices = $("card-choices");
  choices.innerHTML = "";
  if (swapping) {
    const want = [...S.swapPick].sort().join("+");
    const match = swaps.find((a) => (a.action.option || "").split("+").filter(Boolean).sort().join("+") === want);
    const go = h("button", { className: "order swap primary", type: "button", textContent: S.swapPick.length ? `Swap ${S.swapPick.map(cardName).join(" and ")}` : "Keep the hand" });
    go.dataset.kind = "swap";
    go.disabled = !match;
    if (!match) go.title = "the rules do not allow that swap";
    go.addEventListener("click", () => { if (match) { S.swapPick = []; order(match.action); } });
    choices.append(go);
  }
  if (S.cardChoice && plays[S.cardChoice] && plays[S.cardChoice].length > 1) {
    choices.append(h("div", { className: "group-title", textContent: `Play ${cardName(S.cardChoice)}:` }));
    for (const a of plays[S.cardChoice]) choices.append(actionButton(a));
  }
  if (pass) choices.append(actionButton(pass));
  const info = [];
  if (cards.enemy_hand !== undefined) info.push(`opponent holds ${cards.enemy_hand}`);
  if (cards.deck !== undefined) info.push(`deck ${cards.deck}`);
  if (Array.isArray(cards.discard)) info.push(`discard ${cards.discard.length}`);
  if (Array.isArray(cards.chain) && cards.chain.length) info.push("in play: " + cards.chain.map((c) => cardName(typeof c === "string" ? c : c.card || c.id)).join(" ← "));
  $("tray-info").textContent = info.join(" · ");
}

function onCard(id) {
  const v = S.view;
  const { plays, swaps } = trayActions(v);
  if (swaps.length) {
    S.swapPick = S.swapPick.includes(id) ? S.swapPick.filter((c) => c !== id) : [...S.swapPick, id];
    renderTray();
    return;
  }
  const options = plays[id] || [];
  if (options.length === 1) { S.cardChoice = null; order(options[0].action); return; }
  S.cardChoice = options.length ? id : null;
  renderTray();
}

// -- the end of the game: the battle report, as the terminal prints it ---------------------------
function renderReport() {
  const v = S.view, box = $("report");
  const r = v.report;
  box.hidden = !r || !!S.frame;
  if (!r || S.frame) return;
  box.innerHTML = "";
  const winner = r.winner === "draw" ? "Draw" : r.winner === "unfinished" ? "Unfinished" : `${up(r.winner)} wins`;
  box.append(h("h3", { textContent: `Battle report — ${winner} (${r.how})` }));
  box.append(h("p", { className: "report-line", textContent: `${r.ruleset}/${r.scenario} · turns played ${r.turns} · actions ${r.actions} · events ${r.events}` }));
  const losses = r.losses || {};
  const sides = Object.keys(losses);
  if (sides.length) {
    const first = losses[sides[0]];
    const scalar = Object.keys(first).filter((k) => k !== "units" && k !== "of_units" && !Array.isArray(first[k]));
    const table = h("table", { className: "losses" });
    const head = h("tr");
    for (const c of ["side", "units lost", ...scalar]) head.append(h("th", { textContent: c.replace(/_/g, " ") }));
    table.append(h("caption", { textContent: "Losses" }), head);
    for (const side of sides) {
      const loss = losses[side];
      const row = h("tr");
      row.append(h("td", { textContent: up(side) }));
      if ("units" in loss) row.append(h("td", { textContent: `${loss.units}` + (loss.of_units !== undefined && loss.of_units !== null ? `/${loss.of_units}` : "") }));
      else row.append(h("td", { textContent: "—" }));
      for (const k of scalar) row.append(h("td", { textContent: String(loss[k]) }));
      table.append(row);
    }
    box.append(h("div", { className: "table-scroll" }, table));  // a wide table scrolls in its panel
    for (const side of sides) {
      const named = Object.entries(losses[side]).filter(([, val]) => Array.isArray(val)).map(([k, val]) => `${k.replace(/_/g, " ")}: ${val.join(", ") || "none"}`);
      if (named.length) box.append(h("p", { className: "hint", textContent: `${up(side)} ${named.join("; ")}` }));
    }
  }
  const fired = r.house_rules_fired || {};
  box.append(h("p", { className: "hint", textContent: Object.keys(fired).length ? "House rules that fired: " + Object.entries(fired).map(([k, n]) => `${k} ×${n}`).join(", ") : "No house rule fired." }));
}

// -- deployment --------------------------------------------------------------------------------
function pieceName(id) {
  const u = S.view.board.units.find((x) => x.id === id);
  return u && u.name ? u.name : String(id).replace(/[-_]/g, " ");
}

function deployingWhat(v) {
  const id = S.placing || (v.deployment && (v.deployment.pieces || [])[0]);
  return id ? pieceName(id) : "your pieces";
}

// what a click places a piece on, by the board's kind: a point of a table, a square, a hex
function spotWord(board) {
  const layout = board && board.layout;
  return layout === "hex" ? "hex" : layout === "continuous" ? "point" : "square";
}

function deployHow(v) {
  const zone = (v.deployment && v.deployment.zone) || {};
  if (zone.sites) return "click a site on the table to place";
  const spot = spotWord(v.board);
  const where = zone.cells ? `a ${spot} of your zone` : `a ${spot} in your zone`;
  return `pick a unit in the deployment tray, then click ${where} (yellow) to place`;
}

// a unit or marker off the table (a piece not yet placed) is not drawn on it
function onTableOnly(board) {
  if (!board.units) return board;
  const inside = (u) => typeof u.x !== "number" || typeof u.y !== "number" || (u.x >= 0 && u.y >= 0 && u.x <= board.width && u.y <= board.height);
  return { ...board, units: board.units.filter(inside), hidden_markers: (board.hidden_markers || []).filter(inside) };
}

// the deploying side's zone: rectangles on a table, cells on a grid (named sites: see below)
function drawZone(svg, board, G, dep) {
  if (!dep || !dep.zone) return;
  const layer = el("g", { class: "deploy-zone", "data-side": dep.side }, svg);
  for (const [x0, y0, x1, y1] of dep.zone.rects || []) {
    const [ax, ay] = G.pt(x0, y1), [bx, by] = G.pt(x1, y0);
    const r = el("rect", { x: Math.min(ax, bx), y: Math.min(ay, by), width: Math.abs(bx - ax), height: Math.abs(by - ay), class: "zone-rect" }, layer);
    el("title", {}, r).textContent = `${up(dep.side)} deployment zone`;
  }
  if (dep.zone.cells && board.cells) {
    const wanted = new Set(dep.zone.cells);
    for (const c of board.cells) {
      if (!wanted.has(c.label || `${c.x},${c.y}`)) continue;
      const z = cellShape(G, c.x, c.y, { class: "zone-cell" }, layer);
      if (z) el("title", {}, z).textContent = `${up(dep.side)} deployment zone`;
    }
  }
}

// the deploying seat's pieces still to place: click one, then a point, square or hex of the zone
function deployTray(box, v) {
  const dep = v.deployment;
  if (!v.deploying || !dep || !dep.pieces || dep.zone.sites) return false;
  box.append(h("div", { className: "group-title", textContent: `Deployment — ${dep.pieces.length} to place: pick one, then click your zone` }));
  const tray = h("div", { className: "deploy-tray" });
  for (const id of dep.pieces) {
    const b = h("button", { className: "piece" + (id === S.placing ? " picked" : ""), textContent: pieceName(id) });
    b.dataset.piece = id;
    b.addEventListener("click", () => { S.placing = id; render(); renderActions(); renderStatus(); });
    tray.append(b);
  }
  box.append(tray);
  return true;
}

function drawDeploySites(svg, board, G, acts) {
  const kinds = (S.view.deployment && S.view.deployment.kinds) || [];
  const deploys = acts.filter((a) => kinds.includes(a.action.kind));
  if (!deploys.length || !board.deploy_sites) return;
  const layer = el("g", { class: "deploy-sites" }, svg);
  for (const site of board.deploy_sites) {
    const a = deploys.find((d) => d.action.option === site.id);
    if (!a) continue;
    const [x, y] = G.pt(site.x, site.y);
    const g = el("g", { class: "deploy-site", "data-site": site.id, transform: `translate(${x} ${y})` }, layer);
    el("circle", { r: 1.3, class: "deploy-ring" }, g);
    el("text", { x: 0, y: 2.3, class: "deploy-label" }, g).textContent = site.id;
    el("title", {}, g).textContent = `${orderText(a)} — click to place`;
    g.addEventListener("click", (ev) => { ev.stopPropagation(); order(a.action); });
  }
}

async function deployForMe() {
  if (S.busy || S.frame) return;
  S.busy = true;
  try {
    const r = await post("/deploy", { index: S.index });
    toast(r.done ? "Your side is deployed (the rules' player placed the rest)"
      : `Deployed ${r.placed} piece${r.placed === 1 ? "" : "s"} for you`, false);
    await refresh();
  } catch (e) {
    toast(`Refused: ${e.message}`);
    if (e.status === 409) await refresh();
  } finally { S.busy = false; }
}

// -- firing by double click ------------------------------------------------------------------------
function bestShot(id) {
  const v = S.view;
  if (!v || S.frame || !v.your_turn) return null;
  const shots = v.actions.filter((a) => a.action.target === id && a.odds && a.odds.p_kill !== undefined);
  return shots.length ? shots.sort((a, b) => b.odds.p_kill - a.odds.p_kill)[0] : null;
}

function onTableDoubleClick(ev) {
  const unitNode = ev.target.closest && ev.target.closest(".unit");
  if (!unitNode) return;
  const shot = bestShot(unitNode.dataset.unit);
  if (shot) { ev.preventDefault(); S.target = null; order(shot.action); }
}

// -- labels that never overlap ---------------------------------------------------------------------
// Each unit label starts under its symbol; one that would overlap a label already placed tries
// other spots round its unit (below, above, right, left, then further out) and, if none is
// free, is hidden (the unit's tooltip and card still name it).
function boxOf(node) {  // on screen: the same boxes a player (and the layout test) sees
  const r = node.getBoundingClientRect();
  return { x1: r.left, y1: r.top, x2: r.right, y2: r.bottom };
}
const hits = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;

function declutterLabels(svg) {
  const labels = [...svg.querySelectorAll("text.unit-label")];
  if (labels.length < 2) return;
  const placed = [];
  const size = parseFloat(getComputedStyle(labels[0]).fontSize) || 0.75;
  for (const t of labels) {
    t.removeAttribute("display");
    const x0 = parseFloat(t.getAttribute("x")) || 0, y0 = parseFloat(t.getAttribute("y")) || 0;
    const spots = [[0, 0]];
    for (const ring of [1, 2, 3]) {
      const d = size * 1.15 * ring;
      spots.push([0, -y0 * 2 - size * 0.3 * ring], [d * 2.2, -y0 * 0.6], [-d * 2.2, -y0 * 0.6], [0, d], [d * 2, d * 0.6], [-d * 2, d * 0.6], [0, -y0 * 2 - d]);
    }
    let done = false;
    for (const [dx, dy] of spots) {
      t.setAttribute("x", (x0 + dx).toFixed(3));
      t.setAttribute("y", (y0 + dy).toFixed(3));
      const b = boxOf(t);
      if (!placed.some((p) => hits(p, b))) { placed.push(b); done = true; break; }
    }
    if (!done) {
      t.setAttribute("x", x0); t.setAttribute("y", y0);
      t.setAttribute("display", "none");
      t.classList.add("decluttered");
    }
  }
}

// -- rule summaries, a readable page for a wrong link, the lobby's preview ---------------------------
async function loadRules(ruleset) {
  try {
    const r = await fetch(`/api/rulesets/${encodeURIComponent(ruleset)}/rules`);
    if (!r.ok) return;
    RULES = await r.json();
    for (const span of document.querySelectorAll("#log .rule[data-rule]")) if (RULES[span.dataset.rule]) span.title = RULES[span.dataset.rule];
  } catch { /* tooltips are a comfort, not a need */ }
}

function noGame(e) {
  const main = document.querySelector("main");
  main.className = "lobby-main";
  main.innerHTML = "";
  main.append(h("section", { className: "panel", id: "no-game" },
    h("h2", { textContent: e.status === 404 ? "No game at this link" : "This game cannot be opened" }),
    h("p", { textContent: e.message }),
    h("p", {}, h("a", { href: "/", textContent: "Back to the lobby" }))));
}

function drawPreview(svg, board) {
  svg.innerHTML = "";
  const G = geometry(board);
  const m = G.margin;
  svg.setAttribute("viewBox", `${-m} ${-m * 0.5} ${G.w + m * 1.5} ${G.h + m * 1.3}`);
  S.viewer = null;
  defs(svg);
  if (board.layout === "continuous") drawContinuous(svg, board, G);
  else if (board.cells) drawCells(svg, board, G);
  if (board.buildings) drawBuildings(svg, board, G);
  if (board.layout === "hex") drawHexFeatures(svg, board, G);
}

// -- zoom and pan, as on a virtual tabletop: the wheel zooms round the pointer, a drag pans, the
// button in the corner (or the 0 key) shows the whole table again --------------------------------
function setView(box) {
  const [hx, hy, hw, hh] = S.home;
  const w = Math.min(Math.max(box[2], hw / 12), hw), h = (w * hh) / hw;
  const x = Math.min(Math.max(box[0], hx - w * 0.25), hx + hw - w * 0.75);
  const y = Math.min(Math.max(box[1], hy - h * 0.25), hy + hh - h * 0.75);
  S.zoom = w >= hw ? null : [x, y, w, h];
  $("table").setAttribute("viewBox", (S.zoom || S.home).join(" "));
  $("zoom-home").hidden = !S.zoom;
}

function initZoom() {
  const svg = $("table");
  const wrap = $("table-wrap");
  const home = h("button", { id: "zoom-home", className: "zoom-home", type: "button", title: "show the whole table (0)", textContent: "⤢ whole table" });
  home.hidden = true;
  home.addEventListener("click", () => setView(S.home));
  wrap.append(home);
  svg.addEventListener("wheel", (ev) => {
    if (!S.home) return;
    ev.preventDefault();
    const [px, py] = tablePoint(ev);
    const box = S.zoom || S.home;
    const k = ev.deltaY > 0 ? 1.2 : 1 / 1.2;
    setView([px - (px - box[0]) * k, py - (py - box[1]) * k, box[2] * k, box[3] * k]);
  }, { passive: false });
  let start = null;
  svg.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0 || !S.zoom) return;
    start = { x: ev.clientX, y: ev.clientY, box: [...S.zoom], moved: false };
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!start) return;
    const dx = ev.clientX - start.x, dy = ev.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < 6) return;  // a click, not a drag
    start.moved = true;
    const scale = start.box[2] / svg.getBoundingClientRect().width;
    setView([start.box[0] - dx * scale, start.box[1] - dy * scale, start.box[2], start.box[3]]);
  });
  const stop = () => { if (start && start.moved) S.dragged = true; start = null; };
  // the click that ends a drag reaches nothing on the table (no order, no selection)
  svg.addEventListener("click", (ev) => { if (S.dragged) { S.dragged = false; ev.stopPropagation(); ev.preventDefault(); } }, true);
  svg.addEventListener("pointerup", stop);
  svg.addEventListener("pointerleave", () => { start = null; });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
    if (ev.key === "0" && S.home) setView(S.home);
  });
}
