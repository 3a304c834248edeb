// The lobby: pick rules, scenario and who plays each side; remember this browser's games.
"use strict";

const $ = (id) => document.getElementById(id);
const KINDS = [["here", "Human, here"], ["remote", "Human, another browser"], ["ai", "AI"]];
let RULESETS = [];

function savedGames() {
  try { return JSON.parse(localStorage.getItem("umpire.games") || "{}"); } catch { return {}; }
}

function remember(game, ruleset, scenario) {
  const all = savedGames();
  all[game.id] = { ruleset, scenario, seats: game.seats, created: Date.now() };
  localStorage.setItem("umpire.games", JSON.stringify(all));
}

function showGames() {
  const games = Object.entries(savedGames()).sort((a, b) => b[1].created - a[1].created);
  if (!games.length) return;
  const ul = $("games");
  ul.innerHTML = "";
  for (const [id, g] of games.slice(0, 20)) {
    for (const seat of g.seats) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = seat.url;
      a.textContent = `${g.ruleset} / ${g.scenario} — ${seat.sides.length ? seat.sides.join(" + ").toUpperCase() : "watch"}`;
      li.append(a, ` `, Object.assign(document.createElement("span"), {
        className: "hint", textContent: new Date(g.created).toLocaleString() + ` (${id})` }));
      ul.append(li);
    }
  }
}

function fillScenarios() {
  const rs = RULESETS.find((r) => r.id === $("ruleset").value);
  $("scenario").innerHTML = "";
  const info = rs.briefings || {};
  for (const s of rs.scenarios) {
    const o = new Option(info[s] && info[s].title && info[s].title !== s ? `${s} — ${info[s].title}` : s, s);
    if (info[s] && info[s].briefing) o.title = info[s].briefing;
    $("scenario").append(o);
  }
  showBriefing();
  $("sides").innerHTML = "";
  rs.players.forEach((side, i) => {
    const label = document.createElement("label");
    label.textContent = side.toUpperCase() + " ";
    const sel = document.createElement("select");
    sel.id = "side-" + side;
    sel.dataset.side = side;
    for (const [k, text] of KINDS) if (k !== "ai" || rs.has_ai !== false) sel.append(new Option(text, k));
    sel.value = i === 0 ? "here" : (rs.has_ai !== false ? "ai" : "here");
    const colour = (rs.side_colours || {})[side];
    if (colour) label.style.color = colour;
    label.append(sel);
    $("sides").append(label);
  });
}

function showBriefing() {
  const rs = RULESETS.find((r) => r.id === $("ruleset").value);
  const info = (rs && rs.briefings && rs.briefings[$("scenario").value]) || {};
  const box = $("briefing");
  if (box) { box.textContent = info.briefing || ""; box.hidden = !info.briefing; }
}

async function start() {
  $("error").hidden = true;
  const players = {};
  for (const sel of $("sides").querySelectorAll("select")) players[sel.dataset.side] = sel.value;
  const body = { ruleset: $("ruleset").value, scenario: $("scenario").value, players };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
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
    li.innerHTML = `<b>${who}${seat === here ? " (you)" : ""}</b>: `;
    const a = Object.assign(document.createElement("a"), { href: seat.url, textContent: url, className: "seat-link" });
    a.dataset.sides = seat.sides.join(",");
    li.append(a);
    $("links").append(li);
  }
  showGames();
}

async function init() {
  RULESETS = await (await fetch("/api/rulesets")).json();
  for (const r of RULESETS) $("ruleset").append(new Option(r.title, r.id));
  const last = localStorage.getItem("umpire.last") || "";  // this browser's last choice
  const [lastRules, lastScenario] = last.split("/");
  if (RULESETS.some((r) => r.id === lastRules)) $("ruleset").value = lastRules;
  fillScenarios();
  $("ruleset").addEventListener("change", fillScenarios);
  if ([...$("scenario").options].some((o) => o.value === lastScenario)) $("scenario").value = lastScenario;
  showBriefing();
  $("scenario").addEventListener("change", showBriefing);
  $("start").addEventListener("click", start);
  showGames();
}

init();
