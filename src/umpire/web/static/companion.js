// The companion page: Umpire beside a physical table (issue 21). The game lives on the server
// (/api/companion/...): this page shows what the session said, asks for the dice and the
// positions measured on the table, and sends each entry as the one line the terminal would
// take. A reload asks the server for the game again: nothing is kept only here.
// Also the rule-switches field (switchesField/readSwitches), shared with the lobby.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  function h(tag, props = {}, ...children) {
    const node = Object.assign(document.createElement(tag), props);
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  // -- the rule-switches field: a YAML file (as --rules FILE) or a mode per switchable rule --
  const CATALOGUES = new Map();
  async function switchesField(box, rulesetId, asDefault = "as the game plays it") {
    box.innerHTML = "";
    box.dataset.ruleset = rulesetId;
    let rules = CATALOGUES.get(rulesetId);
    if (!rules) {
      try {
        const r = await fetch(`/api/rulesets/${encodeURIComponent(rulesetId)}/switches`);
        rules = r.ok ? await r.json() : [];
      } catch { rules = []; }
      CATALOGUES.set(rulesetId, rules);
    }
    if (box.dataset.ruleset !== rulesetId) return;  // the choice moved on
    const file = h("input", { type: "file", accept: ".yaml,.yml", className: "switch-file" });
    box.append(h("div", { className: "option-row" },
      h("label", { textContent: "rule switches file " }, file),
      h("span", { className: "hint", textContent: "a YAML file of rule-id: enforce | advise | off (as umpire battle --rules FILE; wildcards allowed)" })));
    if (!rules.length) {
      box.append(h("p", { className: "hint", textContent: "This ruleset has no rule that can be switched yet." }));
      return;
    }
    const list = h("div", { className: "switch-list" });
    for (const rule of rules) {
      const sel = h("select", { className: "switch-mode" });
      sel.dataset.rule = rule.id;
      sel.append(new Option(asDefault, ""), new Option("enforce", "enforce"), new Option("advise", "advise"), new Option("off", "off"));
      sel.setAttribute("aria-label", rule.id);
      list.append(h("label", { className: "switch-row", title: rule.summary },
        h("code", { textContent: rule.id }), sel,
        h("span", { className: "hint", textContent: rule.summary })));
    }
    box.append(list);
  }

  function readText(file) {
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(new Error(`could not read ${file.name}`));
      reader.readAsText(file);
    });
  }

  // what the field says: undefined (nothing chosen), an uploaded file, or rule: mode pairs
  async function readSwitches(box) {
    const file = box.querySelector("input.switch-file");
    if (file && file.files && file.files.length) {
      return { name: file.files[0].name, text: await readText(file.files[0]) };
    }
    const picked = {};
    for (const sel of box.querySelectorAll("select.switch-mode")) if (sel.value) picked[sel.dataset.rule] = sel.value;
    return Object.keys(picked).length ? picked : undefined;
  }
  window.switchesField = switchesField;
  window.readSwitches = readSwitches;

  if (!document.body.classList.contains("companion")) return;

  // -- a new companion game ------------------------------------------------------------------
  const KINDS = [["me", "me, at the table"], ["scripted", "AI (scripted)"], ["search", "AI (search)"], ["random", "AI (random)"]];
  let RULESETS = [];

  function current() { return RULESETS.find((r) => r.id === $("c-ruleset").value); }

  function fillSides() {
    const rs = current();
    $("c-scenario").innerHTML = "";
    for (const s of rs.scenarios) {
      const info = (rs.briefings || {})[s] || {};
      $("c-scenario").append(new Option(info.title && info.title !== s ? `${s} — ${info.title}` : s, s));
    }
    $("c-sides").innerHTML = "";
    rs.players.forEach((side, i) => {
      const sel = h("select", { id: "c-side-" + side });
      sel.dataset.side = side;
      for (const [k, text] of KINDS) if (k === "me" || rs.has_ai !== false) sel.append(new Option(text, k));
      sel.value = i === 0 || rs.has_ai === false ? "me" : "scripted";
      $("c-sides").append(h("label", { textContent: side.toUpperCase() + " " }, sel));
    });
    switchesField($("c-switches"), rs.id, "advise (the table's default)");
  }

  function savedTables() {
    try { return JSON.parse(localStorage.getItem("umpire.tables") || "[]"); } catch { return []; }
  }

  async function startGame() {
    $("c-error").hidden = true;
    const sides = {};
    for (const sel of $("c-sides").querySelectorAll("select")) sides[sel.dataset.side] = sel.value;
    const body = { ruleset: $("c-ruleset").value, scenario: $("c-scenario").value, sides, ai_dice: $("c-ai-dice").value };
    if ($("c-seed").value !== "") body.seed = Number($("c-seed").value);
    try {
      const switches = await readSwitches($("c-switches"));
      if (switches) body.options = { rule_switches: switches };
    } catch (e) { $("c-error").textContent = e.message; $("c-error").hidden = false; return; }
    $("c-start").disabled = true;
    const r = await fetch("/api/companion", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json().catch(() => ({ detail: r.statusText }));
    $("c-start").disabled = false;
    if (!r.ok) { $("c-error").textContent = data.detail; $("c-error").hidden = false; return; }
    const saved = savedTables().filter((g) => g.id !== data.id);
    saved.unshift({ id: data.id, game: data.game, created: Date.now() });
    try { localStorage.setItem("umpire.tables", JSON.stringify(saved.slice(0, 20))); } catch { /* storage off */ }
    location.href = data.url;
  }

  async function initNew() {
    $("new-companion").hidden = false;
    RULESETS = await (await fetch("/api/rulesets")).json();
    for (const r of RULESETS) $("c-ruleset").append(new Option(r.title, r.id));
    fillSides();
    $("c-ruleset").addEventListener("change", fillSides);
    $("c-start").addEventListener("click", startGame);
    const saved = savedTables();
    if (saved.length) {
      const ul = h("ul", { id: "c-games" });
      for (const g of saved) ul.append(h("li", {}, h("a", { href: "/companion/" + g.id, textContent: `${g.game} — ${new Date(g.created).toLocaleString()}` })));
      $("new-companion").append(h("h3", { textContent: "Your table games on this browser" }), ul);
    }
  }

  // -- a game in progress --------------------------------------------------------------------
  const GAME = (location.pathname.match(/^\/companion\/([A-Za-z0-9_-]+)$/) || [])[1];
  let STATE = null;
  let busy = false;

  function showRefusal(text) {
    $("refusal").textContent = text ? "refused: " + text : "";
    $("refusal").hidden = !text;
  }

  function render(s) {
    STATE = s;
    document.title = `Umpire — ${s.game} at the table`;
    $("title").textContent = `${s.game} at the table`;
    const ask = s.ask || {};
    const me = (s.me || []).map((x) => x.toUpperCase()).join(" + ");
    $("ask-title").textContent = ask.kind === "dice" ? `Roll ${ask.count}d${ask.sides}` : ask.kind === "card" ? "Draw a card" : ask.kind === "over" ? "Game over" : `${(ask.side || "").toUpperCase()} to decide`;
    $("ask").textContent = ask.kind === "decide" ? "Pick a line the rules allow (a move goes to the position Umpire proposes: put the model there), or enter a position you measured." : ask.text || "";
    $("now").className = "panel now-panel ask-" + (ask.kind || "none");
    const input = $("enter");
    $("enter-form").hidden = ask.kind === "over";
    input.placeholder = ask.kind === "dice" ? `the ${ask.count} face(s) you rolled, 1-${ask.sides}, e.g. ${Array.from({ length: ask.count }, (_, i) => Math.min(ask.sides, i + 3)).join(" ")}` : ask.kind === "card" ? "the card you drew" : "a menu number or a command (help)";
    // the cards that can be drawn now, offered as the card prompt's suggestions
    $("cards").innerHTML = "";
    const named = ask.kind === "card" ? /\(([^()]*)\)\s*$/.exec(ask.text || "") : null;
    if (named) for (const card of named[1].split(", ")) $("cards").append(h("option", { value: card }));
    $("enter-go").textContent = ask.kind === "dice" ? "Enter the dice" : ask.kind === "card" ? "Enter the card" : "Enter";
    const said = (s.said || []).filter((l) => l.trim());
    $("said").hidden = !said.length;
    $("said").innerHTML = "";
    for (const line of said.slice(-12)) $("said").append(h("div", { textContent: line }));
    // the menu, the position form and undo: only at a decision of yours
    const deciding = ask.kind === "decide";
    $("menu-panel").hidden = !deciding;
    $("menu").innerHTML = "";
    for (const item of s.menu || []) {
      const b = h("button", { type: "button", className: "order " + item.kind, textContent: `${item.n}. ${item.text}` });
      b.dataset.n = item.n;
      b.addEventListener("click", () => send(String(item.n)));
      $("menu").append(b);
    }
    $("pos-kind").innerHTML = "";
    for (const k of s.kinds || []) $("pos-kind").append(new Option(k, k));
    if ((s.kinds || []).includes("move")) $("pos-kind").value = "move";
    $("position-form").hidden = !(s.kinds || []).length;
    const mine = (s.units || []).filter((u) => u.mine);
    const fill = (sel, units) => { sel.innerHTML = ""; for (const u of units) sel.append(new Option(`${u.name} (${u.where})`, u.uid)); };
    fill($("pos-unit"), mine);
    const acting = (s.menu || []).find((m) => m.unit && mine.some((u) => u.uid === m.unit));
    if (acting) $("pos-unit").value = acting.unit;  // the unit the menu is about
    fill($("m-unit"), s.units || []);
    // units and log
    $("units").innerHTML = "";
    for (const u of s.units || []) {
      const li = h("li", { className: u.mine ? "mine" : "theirs" }, h("b", { textContent: u.name }), ` ${u.where}`, u.status && u.status !== "active" ? h("span", { className: "hint", textContent: ` ${u.status}` }) : null);
      li.dataset.uid = u.uid;
      $("units").append(li);
    }
    $("log").innerHTML = "";
    for (const line of s.log || []) {
      const cls = line.startsWith("> ") ? "typed" : /^\s*- /.test(line) ? "event" : /^\s*roll |^\s*draw /.test(line) ? "request" : "say";
      $("log").append(h("li", { className: cls, textContent: line }));
    }
    $("log").scrollTop = $("log").scrollHeight;
    const sides = Object.entries(s.sides || {}).map(([side, k]) => `${side.toUpperCase()}: ${k === "me" ? "you" : "AI " + k}`).join(" · ");
    $("game-info").textContent = `${s.table}. ${sides}. AI dice: ${s.ai_dice === "umpire" ? "rolled by Umpire" : "rolled at the table"}. ${s.actions} action(s) so far. You are ${me}.`;
    const sw = Object.entries(s.switches || {});
    const words = ([k, v]) => (k === "*" ? `every switchable rule ${v}` : `${k} ${v}`);
    $("switch-info").textContent = sw.length ? "Rule switches: " + sw.map(words).join(", ") : "Rule switches: none (every rule enforced)";
    if (!busy && ask.kind !== "over") input.focus({ preventScroll: true });
  }

  async function load() {
    const r = await fetch(`/api/companion/${encodeURIComponent(GAME)}`);
    const data = await r.json().catch(() => ({ detail: r.statusText }));
    if (!r.ok) {
      $("companion-game").hidden = true;
      $("new-companion").hidden = true;
      document.querySelector(".companion-main").append(h("section", { className: "panel", id: "no-game" },
        h("h2", { textContent: "No game at this link" }), h("p", { textContent: data.detail || "" }),
        h("p", {}, h("a", { href: "/companion", textContent: "Start a game at the table" }))));
      return;
    }
    $("companion-game").hidden = false;
    render(data);
  }

  async function send(line) {
    if (busy || !line.trim()) return;
    busy = true;
    document.body.classList.add("busy");
    try {
      const r = await fetch(`/api/companion/${encodeURIComponent(GAME)}/enter`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ line }) });
      const data = await r.json().catch(() => ({ detail: r.statusText }));
      if (!r.ok) { showRefusal(data.detail || "refused"); return; }
      showRefusal("");
      $("enter").value = "";
      render(data);
    } catch (e) {
      showRefusal(`the server did not answer (${e.message}); nothing was lost, try again`);
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  }

  function initGame() {
    $("enter-form").addEventListener("submit", (e) => { e.preventDefault(); send($("enter").value); });
    $("position-form").addEventListener("submit", (e) => {
      e.preventDefault();
      send(`${$("pos-kind").value} ${$("pos-unit").value} ${$("pos-where").value}`.trim());
    });
    $("measure-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const a = $("m-a").value.trim().replace(/\s+/g, "");
      const b = $("m-b").value.trim().replace(/\s+/g, "");
      if (!a || !b) { showRefusal("range needs two units or positions: A and B"); return; }
      send(`range ${a} ${b}`);
    });
    $("sees-form").addEventListener("submit", (e) => { e.preventDefault(); if ($("m-unit").value) send(`sees ${$("m-unit").value}`); });
    $("c-undo").addEventListener("click", () => send("undo"));
    load();
  }

  if (GAME) initGame(); else initNew();
})();
