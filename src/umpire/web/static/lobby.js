// The lobby: pick rules and scenario (its briefing and map), who plays each side and the
// ruleset's options (force files and house rules uploaded from this computer); list the games
// this browser holds links to (the server keeps that list, by a cookie naming this browser).
// Drawing comes from table.js (drawPreview), loaded first.
"use strict";

const KINDS = [["here", "Human, here"], ["remote", "Human, another browser"], ["ai", "AI"]];
// the search AI and its personality presets (docs/search-ai.md); the think time is added on start
const SEARCH_KINDS = ["balanced", "aggressive", "cautious", "objective"].map((p) => [`search:${p}`, `Search AI, ${p}`]);
let RULESETS = [];
const PREVIEWS = new Map();

function savedGames() {
  try { return JSON.parse(localStorage.getItem("umpire.games") || "{}"); } catch { return {}; }
}

// this browser also keeps the seats it created (the table page shows their invite links)
function remember(game, ruleset, scenario) {
  const all = savedGames();
  all[game.id] = { ruleset, scenario, seats: game.seats, created: Date.now() };
  try { localStorage.setItem("umpire.games", JSON.stringify(all)); } catch { /* storage full or off */ }
}

async function showGames() {
  let games = [];
  try {
    const r = await fetch("/api/my-games");
    if (r.ok) games = await r.json();
  } catch { games = []; }
  const ul = $("games");
  ul.innerHTML = "";
  if (!games.length) { ul.append(h("li", { className: "hint", textContent: "none yet on this browser" })); return; }
  const title = (id) => (RULESETS.find((r) => r.id === id) || {}).title || id;
  for (const g of games) {
    const who = g.sides.length ? g.sides.join(" + ").toUpperCase() : "watch";
    const a = h("a", { href: g.url, className: "my-game", textContent: `${title(g.ruleset)} / ${g.scenario.replace(/-/g, " ")} — ${who}` });
    a.dataset.game = g.id;
    const against = Object.entries(g.players).filter(([s]) => !g.sides.includes(s)).map(([s, k]) => `${s.toUpperCase()} ${k === "ai" ? "AI" : k.startsWith("search") ? "search AI (" + k.slice(7) + ")" : k === "remote" ? "another browser" : "here"}`);
    const when = new Date(g.updated * 1000).toLocaleString();
    const rules = h("a", { href: g.url.replace(/^\/play\//, "/rules/"), className: "game-rules", textContent: "rules" });
    ul.append(h("li", {}, a, " ", rules, h("span", { className: "hint", textContent: `${against.length ? "against " + against.join(", ") + " · " : ""}${g.actions} actions · last played ${when}` })));
  }
}

function current() { return RULESETS.find((r) => r.id === $("ruleset").value); }

function fillScenarios() {
  const rs = current();
  $("scenario").innerHTML = "";
  const info = rs.briefings || {};
  for (const s of rs.scenarios) {
    const o = new Option(info[s] && info[s].title && info[s].title !== s ? `${s} — ${info[s].title}` : s, s);
    if (info[s] && info[s].briefing) o.title = info[s].briefing;
    $("scenario").append(o);
  }
  $("sides").innerHTML = "";
  rs.players.forEach((side, i) => {
    const label = document.createElement("label");
    label.textContent = side.toUpperCase() + " ";
    const sel = document.createElement("select");
    sel.id = "side-" + side;
    sel.dataset.side = side;
    for (const [k, text] of KINDS) if (k !== "ai" || rs.has_ai !== false) sel.append(new Option(text, k));
    for (const [k, text] of SEARCH_KINDS) sel.append(new Option(text, k));
    sel.value = i === 0 ? "here" : (rs.has_ai !== false ? "ai" : "here");
    const colour = (rs.side_colours || {})[side];
    // the side's map colour as a swatch beside its name: as text colour a dark one (Book and
    // Gun's army, #2c3e50) was unreadable on the lobby's dark panel
    if (colour) { label.style.borderLeft = `6px solid ${colour}`; label.style.paddingLeft = "6px"; }
    label.append(sel);
    $("sides").append(label);
  });
  const think = h("input", { id: "ai-think", type: "number", min: "0.1", max: "10", step: "0.1", value: "1" });
  $("sides").append(h("label", { textContent: "search AI think time (s) ", title: "seconds the search AI thinks per move" }, think));
  // how the search AI decides (docs/search-ai.md): the ruleset's default, the tree search, or
  // the improve mode (the scripted player's move, changed where paired samples show a better one)
  const mode = h("select", { id: "ai-mode" });
  for (const [v, text] of [["", "default"], ["tree", "tree search"], ["improve", "improve the scripted move"]]) mode.append(new Option(text, v));
  $("sides").append(h("label", { textContent: "search AI mode ", title: "how the search AI decides" }, mode));
  fillOptions(rs);
  switchesField($("switches"), rs.id);  // companion.js: a YAML file or a mode per rule
}

// the ruleset's declared options: yes/no, numbers, choices, and files from this computer
function fillOptions(rs) {
  const box = $("options");
  box.innerHTML = "";
  const rows = [];
  for (const o of rs.options || []) {
    const row = h("div", { className: "option-row" });
    row.dataset.option = o.name;
    const id = "opt-" + o.name;
    if (o.upload) {
      const sides = o.per_side ? rs.players : [null];
      row.append(h("b", { textContent: o.name.replace(/[-_]/g, " ") }));
      for (const side of sides) {
        const input = h("input", { type: "file", id: side ? `${id}-${side}` : id, accept: ".toml,.ros,.rosz,.yaml,.yml,.json" });
        input.dataset.option = o.name;
        if (side) input.dataset.side = side;
        row.append(h("label", { textContent: side ? side.toUpperCase() + " " : "" }, input));
      }
    } else if (o.type === "bool") {
      const sel = h("select", { id });
      sel.dataset.option = o.name;
      sel.dataset.type = "bool";
      sel.append(new Option("as the scenario says", ""), new Option("on", "true"), new Option("off", "false"));
      if (o.default === true) sel.value = "true"; else if (o.default === false) sel.value = "false";
      row.append(h("label", { textContent: o.name.replace(/[-_]/g, " ") + " " }, sel));
    } else if (o.choices && o.choices.length) {
      const sel = h("select", { id });
      sel.dataset.option = o.name;
      sel.append(new Option("default", ""));
      for (const c of o.choices) sel.append(new Option(c, c));
      row.append(h("label", { textContent: o.name.replace(/[-_]/g, " ") + " " }, sel));
    } else if (o.type === "int" || o.type === "float") {
      const input = h("input", { id, type: "number", step: o.type === "int" ? "1" : "any", placeholder: o.default === null || o.default === undefined ? "default" : String(o.default) });
      input.dataset.option = o.name;
      input.dataset.type = o.type;
      row.append(h("label", { textContent: o.name.replace(/[-_]/g, " ") + " " }, input));
    } else continue;  // free-text options are the command line's
    row.append(h("span", { className: "hint", textContent: o.help }));
    rows.push(row);
  }
  if (rs.house_rules) {
    const row = h("div", { className: "option-row" });
    row.dataset.option = "house_rules";
    const input = h("input", { type: "file", id: "opt-house_rules", accept: ".yaml,.yml,.toml,.json" });
    input.dataset.option = "house_rules";
    row.append(h("label", { textContent: "house rules " }, input), h("span", { className: "hint", textContent: "a YAML file of house-rule numbers to override (see the README's house rules)" }));
    rows.push(row);
  }
  box.append(...rows);
  $("options-box").hidden = !rows.length;
}

async function showScenario() {
  const rs = current();
  const scenario = $("scenario").value;
  const info = (rs && rs.briefings && rs.briefings[scenario]) || {};
  $("scenario-title").textContent = info.title || scenario;
  const box = $("briefing");
  box.textContent = info.briefing || "";
  box.hidden = !info.briefing;
  const key = `${rs.id}/${scenario}`;
  let board = PREVIEWS.get(key);
  if (!board) {
    try {
      const r = await fetch(`/api/rulesets/${encodeURIComponent(rs.id)}/scenarios/${encodeURIComponent(scenario)}/preview`);
      board = r.ok ? await r.json() : null;
    } catch { board = null; }
    if (board) PREVIEWS.set(key, board);
  }
  if (key !== `${current().id}/${$("scenario").value}`) return;  // the choice moved on
  const svg = $("preview");
  svg.hidden = !board;
  if (board) { drawPreview(svg, board); svg.dataset.scenario = key; }
}

function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    const binary = /\.rosz$/i.test(file.name);
    reader.onload = () => {
      if (!binary) resolve({ name: file.name, text: reader.result });
      else resolve({ name: file.name, base64: String(reader.result).split(",", 2)[1] || "" });
    };
    reader.onerror = () => reject(new Error(`could not read ${file.name}`));
    if (binary) reader.readAsDataURL(file); else reader.readAsText(file);
  });
}

async function chosenOptions() {
  const options = {};
  for (const node of $("options").querySelectorAll("[data-option]")) {
    if (node.classList.contains("option-row")) continue;
    const name = node.dataset.option;
    if (node.type === "file") {
      if (!node.files || !node.files.length) continue;
      const file = await readFile(node.files[0]);
      if (node.dataset.side) (options[name] = options[name] || {})[node.dataset.side] = file;
      else options[name] = file;
    } else if (node.value !== "") {
      if (node.dataset.type === "bool") options[name] = node.value === "true";
      else if (node.dataset.type === "int" || node.dataset.type === "float") options[name] = Number(node.value);
      else options[name] = node.value;
    }
  }
  return options;
}

async function start() {
  $("error").hidden = true;
  const players = {};
  const think = $("ai-think") ? $("ai-think").value || "1" : "1";
  const mode = $("ai-mode") ? $("ai-mode").value : "";
  for (const sel of $("sides").querySelectorAll("select[data-side]")) players[sel.dataset.side] = sel.value.startsWith("search") ? `${sel.value}${mode ? "+" + mode : ""}@${think}` : sel.value;
  const body = { ruleset: $("ruleset").value, scenario: $("scenario").value, players };
  try {
    const options = await chosenOptions();
    const switches = await readSwitches($("switches"));
    if (switches) options.rule_switches = switches;
    if (Object.keys(options).length) body.options = options;
  } catch (e) { $("error").textContent = e.message; $("error").hidden = false; return; }
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  // "AI explains its moves to everyone": the game's why_public (left out: the default)
  if ($("why-public") && $("why-public").value !== "") body.why_public = $("why-public").value === "true";
  const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json().catch(() => ({ detail: r.statusText }));
  if (!r.ok) { $("error").textContent = data.detail; $("error").hidden = false; return; }
  remember(data, body.ruleset, body.scenario);
  localStorage.setItem("umpire.last", `${body.ruleset}/${body.scenario}`);
  const here = data.seats.find((s) => s.here) || (data.seats.length === 1 ? data.seats[0] : null);
  const others = data.seats.filter((s) => s !== here);
  if (here && !others.length) { location.href = here.url; return; }
  $("created").hidden = false;
  $("links").innerHTML = "";
  for (const seat of data.seats) {
    const li = document.createElement("li");
    const url = location.origin + seat.url;
    const who = seat.sides.length ? seat.sides.join(" + ").toUpperCase() : "watch";
    li.append(h("b", { textContent: `${who}${seat === here ? " (you)" : ""}: ` }));
    const a = Object.assign(document.createElement("a"), { href: seat.url, textContent: url, className: "seat-link" });
    a.dataset.sides = seat.sides.join(",");
    li.append(a);
    $("links").append(li);
  }
  showGames();
}

async function initLobby() {
  RULESETS = await (await fetch("/api/rulesets")).json();
  for (const r of RULESETS) $("ruleset").append(new Option(r.title, r.id));
  const last = localStorage.getItem("umpire.last") || "";  // this browser's last choice
  const [lastRules, lastScenario] = last.split("/");
  if (RULESETS.some((r) => r.id === lastRules)) $("ruleset").value = lastRules;
  fillScenarios();
  $("ruleset").addEventListener("change", () => { fillScenarios(); showScenario(); });
  if ([...$("scenario").options].some((o) => o.value === lastScenario)) $("scenario").value = lastScenario;
  showScenario();
  $("scenario").addEventListener("change", showScenario);
  $("start").addEventListener("click", start);
  showGames();
}

initLobby();
