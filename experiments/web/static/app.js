// Koira RL suite: the lobby, the table and the replay viewer. Plain JavaScript, no build step.
// Every table is drawn from the generic table dict (koira_env/core/table.py, docs/games.md):
// nothing here knows which game it draws; cards.js draws the card faces of each deck.
"use strict";

const $ = (id) => document.getElementById(id);
let lobbyData = null;
let loop = 0; // bumped to stop a running bot-move loop when the page moves on
let lastCards = new Set(); // face-up cards of the zones last drawn: new ones are animated

// ------------------------------------------------------------------ server
async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

function showError(err) {
  const box = $("error");
  box.textContent = err ? String(err.message || err) : "";
  box.hidden = !err;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// ------------------------------------------------------------------ cards and tables
function card(name, deck, extra = "") {
  // A face-up card: its SVG face (cards.js), or its name when the deck has no picture.
  const node = el("span", { class: `card ${extra}`.trim(), "data-card": name });
  const drawn = Cards.face(name, deck);
  if (drawn) {
    node.append(drawn[0]);
    node.title = drawn[1];
    node.setAttribute("aria-label", drawn[1]);
  } else {
    node.classList.add("plain");
    node.textContent = name;
  }
  return node;
}

function backs(count, small) {
  // A face-down stack: one back and the count on it.
  const box = el("span", { class: "backs" });
  if (count > 0) {
    box.append(el("span", { class: `card back${small ? " mini" : ""}` }, el("b", { text: String(count) })));
  }
  return box;
}

function seatLabel(table, seat, names) {
  const who = names && names[seat] ? ` (${names[seat]})` : "";
  return `player_${seat}${who}`;
}

function fan(cards, deck, fresh = () => "", size = "mini") {
  // Overlapping cards that still show each card's corner index ("wide": full-size cards).
  const box = el("span", { class: `fan ${size}` });
  for (const name of cards) box.append(card(name, deck, `${size === "mini" ? "mini " : ""}${fresh(name)}`));
  return box;
}

function zoneNode(zone, table, names, deck, fresh, big) {
  // A labelled place: who played what, face-up cards, a face-down count and/or a text.
  const plays = (zone.plays || []).reduce((n, play) => n + play.cards.length, 0);
  const node = el("div", { class: plays > 4 ? "zone many" : "zone", "data-zone": zone.label });
  node.append(el("div", { class: "label", text: zone.label }));
  const body = el("div", { class: "zone-body" });
  for (const play of zone.plays || []) {
    const group = el("span", { class: "play" });
    const cards = el("span", { class: "play-cards" });
    for (const name of play.cards) cards.append(card(name, deck, big ? fresh(name) : `mini ${fresh(name)}`));
    const who = names && names[play.seat] ? ` (${names[play.seat]})` : "";
    group.append(cards, el("small", { text: `player_${play.seat}` }, who ? el("span", { class: "who", text: who }) : null));
    body.append(group);
  }
  if ((zone.cards || []).length) {
    if (big && zone.cards.length <= 3) for (const name of zone.cards) body.append(card(name, deck, fresh(name)));
    else if (big) body.append(fan(zone.cards, deck, fresh, "wide"));
    else body.append(fan(zone.cards, deck, fresh));
  }
  if (zone.count !== undefined && zone.cards === undefined) {
    body.append(backs(zone.count, true));
    if (!zone.count) body.append(el("span", { class: "count", text: "0" }));
  }
  if (zone.text) body.append(el("span", { class: "text", text: zone.text }));
  node.append(body);
  return node;
}

function legendNode(deck) {
  const legend = Cards.legend(deck);
  if (!legend) return null;
  const box = el("div", { class: "legend", id: "legend" }, el("span", { class: "label", text: legend.title }));
  for (const [key, word, fill] of legend.items) {
    const swatch = el("i", {});
    swatch.style.background = fill; // CSSOM, allowed by the page's CSP
    box.append(el("span", { class: "key" }, swatch, el("b", { text: key }), ` ${word}`));
  }
  return box;
}

// The move being built by clicks: the cards picked so far (Red7: a palette card, then a
// canvas card; Whist 22's Fool: the card, then its value). Reset whenever the moves change.
const picking = { key: "", cards: [] };

function movesKey(table) {
  return JSON.stringify([table.seat, table.log.length, table.moves.map((m) => m.action)]);
}

function startsWith(cards, prefix) {
  return prefix.every((name, i) => cards[i] === name);
}

function choicesFor(table) {
  // What the picked cards allow: the hand cards that extend a move, and the moves they
  // complete (a button each); moves without cards (a bid, a pass, risk) are always buttons.
  const pick = picking.cards;
  const open = table.moves.filter((m) => m.cards.length && startsWith(m.cards, pick));
  const next = new Map();
  for (const move of open) {
    if (move.cards.length > pick.length) {
      const name = move.cards[pick.length];
      next.set(name, (next.get(name) || []).concat([move]));
    }
  }
  const complete = open.filter((m) => m.cards.length === pick.length && pick.length);
  const plain = table.moves.filter((m) => !m.cards.length);
  return { next, buttons: [...complete, ...plain] };
}

function clickCard(table, name, onMove, redraw) {
  // A hand card clicked: play the one move it stands for, or pick it and offer the rest.
  const move = singleMove(table, name);
  if (move) return onMove(move.action);
  picking.cards = [...picking.cards, name];
  redraw();
}

function singleMove(table, name) {
  const pick = [...picking.cards, name];
  const open = table.moves.filter((m) => m.cards.length && startsWith(m.cards, pick));
  return open.length === 1 && open[0].cards.length === pick.length ? open[0] : null;
}

function seatPanel(table, p, names, deck, { me, fresh }) {
  const seat = table.seats[p];
  const panel = el("div", { class: `seat${me ? " me" : " other"}`, "data-seat": String(p) });
  if (p === table.current) panel.classList.add("acting");
  const head = el("div", { class: "seat-head" }, el("span", { class: "name", text: seatLabel(table, p, names) }));
  for (const flag of seat.flags) head.append(el("span", { class: "flag", text: flag }));
  if (p === table.current) head.append(el("span", { class: "flag turn", text: "to act" }));
  panel.append(head);
  if (seat.info.length) panel.append(el("div", { class: "info", text: seat.info.join(" · ") }));
  const row = el("div", { class: "piles" });
  for (const pile of seat.piles.filter((z) => (z.cards || []).length || z.count)) {
    row.append(zoneNode(pile, table, names, deck, fresh, false));
  }
  if (!me) {
    const hand = el("div", { class: "hand small" });
    if (seat.hand.length) hand.append(fan(seat.hand, deck));
    if (seat.hidden) hand.append(backs(seat.hidden, true));
    panel.append(hand);
  }
  if (row.childElementCount) panel.append(row);
  return panel;
}

function myHand(table, deck, onMove, redraw) {
  // The viewer's hand, the cards it may pick raised, and the moves that are not one card.
  const seat = table.seats[table.seat];
  const hand = el("div", { class: "hand mine" });
  const { next, buttons } = onMove ? choicesFor(table) : { next: new Map(), buttons: [] };
  const picked = [...picking.cards];
  for (const name of seat.hand) {
    const node = card(name, deck);
    const at = picked.indexOf(name);
    if (at >= 0) {
      picked[at] = null; // a copy picked once (Dois holds copies)
      node.classList.add("picked", "choice");
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      node.title = `${node.title} (picked: click to put back)`;
      const undo = () => { picking.cards = picking.cards.slice(0, at); redraw(); };
      node.addEventListener("click", undo);
      node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); undo(); } });
    } else if (next.has(name)) {
      const single = singleMove(table, name);
      node.classList.add("legal", "choice");
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", "0");
      if (single) {
        node.setAttribute("data-action", String(single.action));
        node.title = `${node.title}: ${single.label || single.name}`;
      } else {
        node.setAttribute("data-pick", name);
        const to = next.get(name)[0].to;
        node.title = `${node.title}: pick${to ? ` for the ${to[picking.cards.length]}` : ""}`;
      }
      const act = () => clickCard(table, name, onMove, redraw);
      node.addEventListener("click", act);
      node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); } });
    }
    hand.append(node);
  }
  const bar = el("div", { class: "moves", id: "moves" });
  if (onMove && picking.cards.length) {
    const open = table.moves.filter((m) => m.cards.length > picking.cards.length && startsWith(m.cards, picking.cards));
    const to = open.length && open[0].to ? open[0].to[picking.cards.length] : null;
    const hint = to ? `pick a card for the ${to}` : open.length ? "pick the next card" : "choose";
    bar.append(el("span", { class: "hint", text: `${picking.cards.join(" + ")} picked: ${hint}` }));
  }
  for (const move of buttons) {
    bar.append(el("button", {
      type: "button", class: "move choice", "data-action": String(move.action), text: move.label || move.name,
      title: move.name, onclick: () => onMove(move.action),
    }));
  }
  if (onMove && picking.cards.length) {
    bar.append(el("button", { type: "button", class: "cancel", text: "put back (Esc)", onclick: () => { picking.cards = []; redraw(); } }));
  }
  return [hand, bar];
}

function numberChoices(box) {
  // Keyboard play: the choices get the digits 1-9 and 0, in the order drawn.
  box.querySelectorAll(".choice").forEach((node, i) => {
    if (i < 10) node.dataset.key = String((i + 1) % 10);
  });
}

function scoreSheet(table) {
  if (!table.scores) return null;
  const box = el("div", { class: "scores", id: "scores" }, el("h2", { text: "Score by hand" }));
  const head = el("tr", {}, el("th", { text: "hand" }), ...table.scores.columns.map((c) => el("th", { text: c })));
  const body = table.scores.rows.map((row) => el("tr", {}, el("td", { text: String(row.hand) }), ...row.values.map((v) => el("td", { text: v }))));
  if (!body.length) body.push(el("tr", {}, el("td", { colspan: String(table.scores.columns.length + 1), text: "no hand scored yet" })));
  box.append(el("table", {}, el("thead", {}, head), el("tbody", {}, ...body)), el("p", { class: "note", text: table.scores.caption }));
  return box;
}

// ------------------------------------------------------------------ move values (hint, analysis)
// One decision row of the server (experiments/analyze.py's decision(): the hint and every
// decision of the analysis board): each legal move's value, the best, the move played.
const EXACT = "exact endgame solver";

function moveValue(row, move) {
  // The number a move is ranked by: Koira's exact endgame gives an escape share.
  const value = row.by === EXACT ? move.escape : move.value;
  return value === null || value === undefined ? null : value;
}

function formatValue(row, move) {
  // A share (of escaping deals) as a percentage; other values signed.
  const value = moveValue(row, move);
  if (value === null) return "undecided";
  if (row.kind.endsWith("share")) return `${Math.round(value * 100)}%`;
  return `${value > 0 ? "+" : ""}${value.toFixed(3)}`;
}

function analystName(row) {
  return row.by === EXACT ? EXACT : `by ${row.by}`;
}

function valuesNode(row, table, title) {
  // Every legal move with its value, best first: the best and the move played marked.
  const labels = new Map((table.moves || []).map((m) => [m.action, m.label || m.name]));
  const box = el("div", { class: `valued${row.mistake ? " mistake" : ""}`, "data-seat": String(row.seat) });
  const head = el("div", { class: "valued-head" }, el("strong", { text: title }),
    el("span", { class: "by", text: ` ${analystName(row)} (${row.kind})` }));
  if (row.mistake) head.append(el("span", { class: "flag bad", text: "mistake" }));
  box.append(head);
  // The best first (a value tied once rounded may still be second), then by value.
  const rank = (m) => (m.move === row.best ? Infinity : moveValue(row, m) ?? -Infinity);
  const sorted = [...row.moves].sort((a, b) => (rank(b) > rank(a)) - (rank(b) < rank(a)));
  const list = el("ol", { class: "values" });
  for (const move of sorted) {
    const item = el("li", { class: "value", "data-move": move.move, "data-move-action": String(move.action) },
      el("span", { class: "move-name", text: labels.get(move.action) || move.move }),
      el("span", { class: "number", text: formatValue(row, move) }));
    if (move.move === row.best) { item.classList.add("best"); item.append(el("span", { class: "tag is-best", text: "best" })); }
    if (row.played !== undefined && move.move === row.played) { item.classList.add("played"); item.append(el("span", { class: "tag is-played", text: "played" })); }
    if (move.exact !== undefined) item.append(el("span", { class: "tag", text: { true: "escape", false: "caught", null: "undecided" }[String(move.exact)] }));
    list.append(item);
  }
  box.append(list);
  return box;
}

function markBest(box, row, table) {
  // The best move's card or button on the table outlined (its first card for a move of two).
  const best = table.moves.find((m) => m.name === row.best);
  if (!best) return;
  const node = box.querySelector(`.hand.mine [data-action="${best.action}"], #moves [data-action="${best.action}"]`) ||
    (best.cards.length ? box.querySelector(`.hand.mine [data-pick="${CSS.escape(best.cards[0])}"]`) : null);
  if (node) node.classList.add("best-move");
}

function renderTable(box, table, { names = null, onMove = null, redraw = null, hint = null } = {}) {
  // Draw a table dict into box: the others around the top, the trick in the middle, the
  // viewer's hand at the bottom. onMove(action) makes the viewer's legal moves clickable;
  // hint (a decision row) shows the values of those moves under them.
  const deck = Cards.deckOf(table.game);
  const key = movesKey(table);
  if (key !== picking.key) picking.cards = [];
  picking.key = key;
  const zoneCards = new Set();
  const fresh = (name) => {
    zoneCards.add(name);
    return lastCards.has(name) ? "" : "fresh";
  };
  box.replaceChildren();
  box.append(
    el("div", { class: "status", id: "status" },
      el("strong", { text: table.title + (table.variant !== table.game ? ` (${table.variant})` : "") }),
      ` — ${table.status}`));
  const me = table.seat;
  const order = table.seats.map((s) => s.seat);
  if (me !== null) order.push(...order.splice(0, me + 1)); // the others in playing order after the viewer
  // Around the table, clockwise from you: up your left side, along the top, down the right
  // (a narrow screen puts them all in one row above the trick).
  const others = order.filter((p) => p !== me);
  const side = me === null || others.length < 2 ? 0 : Math.ceil(others.length / 4);
  const places = { left: others.slice(0, side), top: others.slice(side, others.length - side), right: others.slice(others.length - side) };
  box.className = `board ${side ? "seated" : "flat"}`;
  const ring = el("div", { class: "ring seats" });
  for (const [where, seats] of Object.entries(places)) {
    const part = el("div", { class: `around around-${where}` });
    for (const p of seats) part.append(seatPanel(table, p, names, deck, { me: false, fresh: () => "" }));
    ring.append(part);
  }
  box.append(ring);
  const middle = el("div", { class: "middle zones", id: "middle" });
  for (const zone of table.zones) middle.append(zoneNode(zone, table, names, deck, fresh, true));
  box.append(middle);
  if (me !== null) {
    const panel = seatPanel(table, me, names, deck, { me: true, fresh: () => "" });
    const [hand, bar] = myHand(table, deck, onMove, redraw || (() => {}));
    panel.insertBefore(hand, panel.querySelector(".piles"));
    panel.append(bar);
    if (hint) panel.append(valuesNode(hint, table, "Hint:"));
    box.append(panel);
    if (hint) markBest(panel, hint, table);
  }
  const legend = legendNode(deck);
  if (legend) box.append(legend);
  if (table.result) {
    const ranked = table.seats.map((s) => s.seat).sort((a, b) => table.result.places[a] - table.result.places[b] || a - b);
    const list = el("ol", { class: "places" });
    for (const p of ranked) {
      const place = table.result.places[p];
      list.append(el("li", { text: `place ${place}: ${seatLabel(table, p, names)}, score ${table.result.scores[p]}` }));
    }
    box.append(el("div", { class: "result", id: "result" }, el("h2", { text: "Final placements" }), list));
  }
  numberChoices(box);
  lastCards = zoneCards;
}

function renderScores(aside, table) {
  const old = aside.querySelector(".scores");
  if (old) old.remove();
  const sheet = scoreSheet(table);
  if (sheet) aside.prepend(sheet);
}

function renderLog(list, lines, fresh) {
  list.replaceChildren();
  lines.forEach((line, i) => {
    list.append(el("li", { class: i >= lines.length - fresh ? "new" : "", text: line }));
  });
  list.scrollTop = list.scrollHeight; // the log scrolls, not the page
}

// ------------------------------------------------------------------ the lobby
function currentGame() {
  return lobbyData.games.find((g) => g.id === $("f-game").value);
}

function fillLobby() {
  const game = currentGame();
  const players = $("f-players");
  players.min = game.players[0];
  players.max = game.players[1];
  players.value = game.default_players;
  players.disabled = game.players[0] === game.players[1];
  $("agent-names").replaceChildren(...game.agents.map((a) => el("option", { value: a })));
  const options = $("f-options");
  options.replaceChildren();
  for (const opt of game.options) {
    let input;
    if (opt.kind === "bool") {
      input = el("input", { type: "checkbox" });
      input.checked = opt.default;
    } else if (opt.kind === "choice") {
      input = el("select");
      opt.choices.forEach((c, i) => input.append(el("option", { value: String(i), text: String(c) })));
      input.value = String(opt.choices.indexOf(opt.default));
    } else {
      input = el("input", { type: opt.kind === "int" ? "number" : "text" });
      if (opt.min !== undefined) input.min = opt.min;
      if (opt.max !== undefined) input.max = opt.max;
      input.value = opt.default;
    }
    input.dataset.option = opt.name;
    input.addEventListener("change", () => { input.dataset.touched = "1"; checkRules(); });
    const label = el("label", { class: opt.kind === "bool" ? "check" : "" }, el("span", { class: "option-name", text: opt.name.replaceAll("_", " ") }), input);
    options.append(el("div", { class: "option", "data-name": opt.name }, label, el("small", { class: "description", text: opt.description || "" })));
  }
  $("f-opponents").replaceChildren(); // a new game: its own default opponents
  fillSeats();
  $("f-rules-note").textContent = "";
  showError(null); // an error about the game left behind is stale
}

function optionValue(input) {
  const opt = currentGame().options.find((o) => o.name === input.dataset.option);
  if (opt.kind === "bool") return input.checked;
  if (opt.kind === "choice") return opt.choices[Number(input.value)];
  if (opt.kind === "int") return Number(input.value);
  return input.value;
}

function touchedOptions() {
  const options = {};
  for (const input of $("f-options").querySelectorAll("[data-option]")) {
    if (input.dataset.touched) options[input.dataset.option] = optionValue(input);
  }
  return options;
}

function fillSeats() {
  const game = currentGame();
  const n = Number($("f-players").value);
  const seat = $("f-seat");
  const keep = Math.min(Number(seat.value) || 0, n - 1);
  seat.replaceChildren(...Array.from({ length: n }, (_, i) => el("option", { value: String(i), text: `player_${i}${i === 0 ? " (leads)" : ""}` })));
  seat.value = String(keep);
  const box = $("f-opponents");
  const old = Array.from(box.querySelectorAll("input")).map((i) => i.value);
  box.replaceChildren();
  for (let i = 0; i < n - 1; i++) {
    const input = el("input", { type: "text", list: "agent-names", class: "opponent" });
    input.value = old[i] || game.default_opponent;
    box.append(el("label", {}, `opponent ${i + 1} `, input));
  }
}

async function checkRules() {
  // The server's rules for the choices so far: untouched options show what a preset implies.
  const note = $("f-rules-note");
  try {
    const data = await api("POST", "/api/rules", {
      game: $("f-game").value, players: Number($("f-players").value), options: touchedOptions(),
    });
    for (const input of $("f-options").querySelectorAll("[data-option]")) {
      if (input.dataset.touched) continue;
      const opt = currentGame().options.find((o) => o.name === input.dataset.option);
      const value = data.rules[opt.name];
      if (opt.kind === "bool") input.checked = value;
      else if (opt.kind === "choice") input.value = String(opt.choices.indexOf(value));
      else input.value = value;
    }
    note.textContent = "";
    note.classList.remove("bad");
  } catch (err) {
    note.textContent = err.message;
    note.classList.add("bad");
  }
}

async function showLobby() {
  if (!lobbyData) {
    lobbyData = await api("GET", "/api/games");
    $("f-game").replaceChildren(...lobbyData.games.map((g) => {
      const option = el("option", { value: g.id, text: g.error ? `${g.title} (unavailable: ${g.error})` : g.title });
      option.disabled = Boolean(g.error);
      return option;
    }));
    $("f-game").addEventListener("change", fillLobby);
    $("f-players").addEventListener("change", () => { fillSeats(); checkRules(); });
    $("lobby-form").addEventListener("submit", startGame);
    fillLobby();
  }
  show("lobby");
}

async function startGame(event) {
  event.preventDefault();
  showError(null);
  const seed = $("f-seed").value;
  try {
    const data = await api("POST", "/api/tables", {
      game: $("f-game").value,
      players: Number($("f-players").value),
      options: touchedOptions(),
      opponents: Array.from($("f-opponents").querySelectorAll("input")).map((i) => i.value.trim()),
      seat: Number($("f-seat").value),
      seed: seed === "" ? null : Number(seed),
    });
    location.hash = `#/table/${data.id}`;
  } catch (err) {
    showError(err);
  }
}

// ------------------------------------------------------------------ the table
let playLogSize = 0;
let playData = null; // the table last drawn: a picked card redraws it without the server
// The hint of the person's decision: shown while the moves it valued are the moves offered.
const hint = { key: "", row: null, asking: false };

function drawBoard() {
  const data = playData;
  const mine = !data.waiting && !data.table.result;
  renderTable($("play-board"), data.table, {
    names: data.names,
    onMove: data.waiting ? null : (a) => playMove(data.id, a),
    redraw: () => { drawBoard(); document.body.dataset.waiting = "0"; },
    hint: mine && hint.row && hint.key === movesKey(data.table) ? hint.row : null,
  });
  fitBoard($("play-board"));
  const button = $("hint-button");
  button.hidden = !mine;
  button.disabled = hint.asking;
  button.textContent = hint.asking ? "Asking…" : "Hint (h)";
}

async function askHint() {
  // The analyst's values of your moves now (GET /api/tables/{id}/hint), drawn under them.
  const data = playData;
  if (!data || data.waiting || data.table.result || hint.asking) return;
  const key = movesKey(data.table);
  if (hint.row && hint.key === key) return;
  hint.asking = true;
  drawBoard();
  try {
    const row = await api("GET", `/api/tables/${data.id}/hint`);
    Object.assign(hint, { key, row });
  } catch (err) {
    showError(err);
  } finally {
    hint.asking = false;
    if (playData && playData.id === data.id) drawBoard(); // a move made meanwhile: no hint shown
  }
}

function fitBoard(board) {
  // The table fits the window below its bar: the others' seats and then the middle scroll
  // inside it when there is too much, so your hand and the trick stay on the screen.
  const top = board.getBoundingClientRect().top + window.scrollY;
  board.style.height = `${Math.max(320, window.innerHeight - top - 8)}px`;
  const hand = board.querySelector(".hand.mine");
  if (hand && hand.children.length > 1) {
    // Your cards overlap just enough to fit one row, each corner still showing; a hand too
    // long even so (Koira's phase two) goes on in a second row.
    const size = parseFloat(getComputedStyle(hand).getPropertyValue("--card")) || 60;
    const room = (hand.clientWidth - size - 4) / (hand.children.length - 1);
    hand.style.setProperty("--strip", `${Math.max(22, Math.min(size + 4, room))}px`);
  }
}

function drawPlay(data) {
  const table = data.table;
  playData = data;
  $("play-title").textContent = `${table.title}: you are player_${data.seat}, seed ${data.seed}`;
  drawBoard();
  renderScores($("play-aside"), table);
  renderLog($("play-log"), table.log, table.log.length - playLogSize);
  playLogSize = table.log.length;
  const record = $("play-record");
  record.hidden = !table.result;
  $("play-analyse").hidden = !table.result;
  if (table.result) {
    record.href = `/api/tables/${data.id}/record`;
    record.download = `${table.game}-seed${data.seed}.json`;
  }
  $("next-bot").hidden = !(data.waiting && Number($("speed").value) < 0);
  $("undo-button").hidden = !data.undo || data.waiting;
  document.body.dataset.waiting = data.waiting ? "1" : "0";
}

async function undoMove() {
  // Your last move and the bots' answers since, taken back (POST /api/tables/{id}/undo).
  const data = playData;
  if (!data || !data.undo || data.waiting) return;
  showError(null);
  hint.row = null;
  ++loop; // no bot loop goes on with the old game
  try {
    drawPlay(await api("POST", `/api/tables/${data.id}/undo`));
  } catch (err) {
    showError(err);
  }
}

async function showPlay(id) {
  show("play");
  const run = ++loop;
  playLogSize = 0;
  lastCards = new Set();
  hint.row = null;
  const data = await api("GET", `/api/tables/${id}`);
  drawPlay(data);
  botMoves(id, data, run);
}

function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function botMoves(id, data, run) {
  // The bots move one at a time, each shown for the chosen time, so a person can follow.
  while (data.waiting && run === loop) {
    const delay = Number($("speed").value);
    if (delay < 0) return; // one at a time: the "Next bot move" button steps
    await pause(delay);
    if (run !== loop) return;
    data = await api("POST", `/api/tables/${id}/step`);
    if (run !== loop) return;
    drawPlay(data);
  }
}

async function playMove(id, action) {
  showError(null);
  hint.row = null; // a hint is for the decision it was asked at
  const run = ++loop;
  try {
    const data = await api("POST", `/api/tables/${id}/move`, { action });
    drawPlay(data);
    botMoves(id, data, run);
  } catch (err) {
    showError(err);
  }
}

async function nextBot() {
  const id = location.hash.split("/")[2];
  try {
    drawPlay(await api("POST", `/api/tables/${id}/step`));
  } catch (err) {
    showError(err);
  }
}

function playKey(e) {
  // Keyboard play: a digit picks that choice; the arrows move between the choices and
  // Enter (or Space) picks the one in focus; Esc puts picked cards back.
  const choices = Array.from($("play-board").querySelectorAll(".choice"));
  if (/^[0-9]$/.test(e.key)) {
    const chosen = choices.find((c) => c.dataset.key === e.key);
    if (chosen) { e.preventDefault(); chosen.click(); }
  } else if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key) && choices.length) {
    e.preventDefault();
    const at = choices.indexOf(document.activeElement);
    const step = e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 1;
    const next = at < 0 ? (step > 0 ? 0 : choices.length - 1) : (at + step + choices.length) % choices.length;
    choices[next].focus();
  } else if (e.key === "Escape" && picking.cards.length && playData) {
    picking.cards = [];
    drawBoard();
  } else if (e.key === "h") {
    askHint();
  } else if (e.key === "u") {
    undoMove();
  }
}

async function analyseGame() {
  // A finished game's record opened in the replay viewer, its analysis asked for at once.
  try {
    const record = await api("GET", `/api/tables/${playData.id}/record`);
    viewer.analyseOnOpen = true;
    await openReplay({ record });
  } catch (err) {
    showError(err);
  }
}

// ------------------------------------------------------------------ replays
async function showRecords() {
  show("replays");
  const data = await api("GET", "/api/records");
  const box = $("record-list");
  box.replaceChildren();
  if (!data.folders.length) {
    box.append(el("p", { class: "note", text: "No records folder is served: start the server with koira serve --records DIR (a tournament's --save-records writes OUT/records/)." }));
  }
  for (const folder of data.folders) {
    const mine = data.records.filter((r) => r.root === folder.root);
    const list = el("ul", { class: "records" });
    for (const record of mine) {
      list.append(el("li", {}, el("a", {
        href: "#", class: "record", "data-path": record.path, text: record.path,
        onclick: (e) => { e.preventDefault(); openReplay({ root: record.root, path: record.path }); },
      })));
    }
    box.append(el("h2", { text: folder.folder }), mine.length ? list : el("p", { class: "note", text: "no game records here" }));
  }
}

async function openReplay(body) {
  showError(null);
  try {
    const data = await api("POST", "/api/replays", body);
    location.hash = `#/replay/${data.id}`;
  } catch (err) {
    showError(err);
  }
}

async function uploadRecord(event) {
  const file = event.target.files[0];
  if (!file) return;
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (err) {
    showError(`${file.name} is not JSON: ${err.message}`);
    return;
  }
  event.target.value = "";
  openReplay({ record });
}

const viewer = { id: null, step: 0, steps: 0, seat: "all", table: null, analysis: null, analysing: false, analyseOnOpen: false };

async function replayStep(step) {
  const target = Math.max(0, Math.min(viewer.steps, step));
  try {
    const data = await api("GET", `/api/replays/${viewer.id}?step=${target}&seat=${viewer.seat}`);
    drawReplay(data);
  } catch (err) {
    showError(err);
  }
}

function drawReplay(data) {
  viewer.step = data.step;
  viewer.steps = data.steps;
  const table = data.table;
  $("replay-title").textContent = `${table.title}: ${data.source}`;
  $("r-slider").max = data.steps;
  $("r-slider").value = data.step;
  $("r-step").max = data.steps;
  $("r-step").value = data.step;
  $("r-steps").textContent = data.steps;
  const seat = $("r-seat");
  if (seat.options.length !== table.players + 1) {
    seat.replaceChildren(el("option", { value: "all", text: "full view" }),
      ...table.seats.map((s) => el("option", { value: String(s.seat), text: `${seatLabel(table, s.seat, data.names)}'s view` })));
    seat.value = viewer.seat;
  }
  viewer.table = table;
  drawDecision();
  renderTable($("replay-board"), table, { names: data.names });
  fitBoard($("replay-board"));
  renderScores($("replay-aside"), table);
  renderLog($("replay-log"), table.log, data.new_events);
}

// ------------------------------------------------------------------ the analysis board
async function analyse() {
  // The record's analysis (GET /api/replays/{id}/analysis: koira analyze's decisions), asked
  // for once per replay; it takes a few seconds for a long record.
  if (viewer.analysis || viewer.analysing) return;
  const id = viewer.id;
  viewer.analysing = true;
  drawAnalysis();
  try {
    const data = await api("GET", `/api/replays/${id}/analysis`);
    if (viewer.id === id) viewer.analysis = data;
  } catch (err) {
    showError(err);
  } finally {
    viewer.analysing = false;
    if (viewer.id === id) {
      drawAnalysis();
      drawDecision();
      fitBoard($("replay-board"));
    }
  }
}

function drawAnalysis() {
  // The summary and the mistakes, each a button to its step.
  const button = $("r-analyse");
  const data = viewer.analysis;
  button.disabled = viewer.analysing || Boolean(data);
  button.textContent = viewer.analysing ? "Analysing…" : data ? "Analysed" : "Analyse";
  const box = $("analysis");
  box.hidden = !viewer.analysing && !data;
  const summary = $("analysis-summary");
  const list = $("mistakes");
  list.replaceChildren();
  if (!data) {
    summary.textContent = viewer.analysing ? "Analysing every decision of the record: a few seconds for a long game…" : "";
    return;
  }
  const by = new Map();
  for (const d of data.decisions) by.set(d.by, (by.get(d.by) || 0) + 1);
  const mistakes = data.decisions.filter((d) => d.mistake);
  summary.textContent = `${data.decisions.length} decisions valued (` +
    [...by].map(([who, count]) => `${count} ${analystName({ by: who })}`).join(", ") +
    `); ${mistakes.length} mistake${mistakes.length === 1 ? "" : "s"}${mistakes.length ? ":" : "."}`;
  for (const d of mistakes) {
    list.append(el("button", {
      type: "button", class: "mistake-link", "data-step": String(d.index),
      text: `move ${d.index}: player_${d.seat} played ${d.played}`,
      title: `${d.best} was better (${analystName(d)})`,
      onclick: () => replayStep(d.index),
    }));
  }
}

function drawDecision() {
  // The decision the shown step starts from: every move's value, the played and best marked.
  const box = $("decision");
  box.replaceChildren();
  const data = viewer.analysis;
  if (!data || !viewer.table) return;
  for (const node of $("mistakes").children) node.classList.toggle("current", Number(node.dataset.step) === viewer.step);
  const row = data.decisions.find((d) => d.index === viewer.step);
  if (!row) {
    const why = viewer.step >= viewer.steps ? "the game is over" : "a single legal move";
    box.append(el("p", { class: "note", text: `Move ${viewer.step}: no decision (${why}).` }));
    return;
  }
  box.append(valuesNode(row, viewer.table, `Move ${row.index}, player_${row.seat}:`));
}

async function showReplay(id) {
  show("replay");
  loop++;
  viewer.id = id;
  viewer.seat = "all";
  viewer.analysis = null;
  viewer.analysing = false;
  $("r-seat").replaceChildren();
  lastCards = new Set();
  drawAnalysis();
  await replayStep(0);
  if (viewer.analyseOnOpen) {
    viewer.analyseOnOpen = false;
    analyse();
  }
}

// ------------------------------------------------------------------ pages
function show(name) {
  for (const id of ["lobby", "play", "replays", "replay"]) $(id).hidden = id !== name;
  document.body.dataset.page = name;
}

async function route() {
  showError(null);
  loop++;
  const [, page, id] = location.hash.split("/");
  try {
    if (page === "table" && id) await showPlay(id);
    else if (page === "replay" && id) await showReplay(id);
    else if (page === "replays") await showRecords();
    else await showLobby();
  } catch (err) {
    showError(err);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("upload").addEventListener("change", uploadRecord);
  $("next-bot").addEventListener("click", nextBot);
  $("hint-button").addEventListener("click", askHint);
  $("undo-button").addEventListener("click", undoMove);
  $("play-analyse").addEventListener("click", analyseGame);
  $("r-analyse").addEventListener("click", analyse);
  $("speed").addEventListener("change", () => { if (document.body.dataset.page === "play") route(); });
  $("r-first").addEventListener("click", () => replayStep(0));
  $("r-prev").addEventListener("click", () => replayStep(viewer.step - 1));
  $("r-next").addEventListener("click", () => replayStep(viewer.step + 1));
  $("r-last").addEventListener("click", () => replayStep(viewer.steps));
  $("r-slider").addEventListener("input", (e) => replayStep(Number(e.target.value)));
  $("r-step").addEventListener("change", (e) => replayStep(Number(e.target.value)));
  $("r-seat").addEventListener("change", (e) => { viewer.seat = e.target.value; replayStep(viewer.step); });
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.body.dataset.page === "play") return playKey(e);
    if (document.body.dataset.page !== "replay") return;
    const keys = { ArrowLeft: viewer.step - 1, ArrowRight: viewer.step + 1, Home: 0, End: viewer.steps };
    if (e.key in keys) replayStep(keys[e.key]);
    else if (e.key === "a") analyse();
  });
  window.addEventListener("hashchange", route);
  window.addEventListener("resize", () => {
    if (document.body.dataset.page === "play" && playData) fitBoard($("play-board"));
    if (document.body.dataset.page === "replay") fitBoard($("replay-board"));
  });
  route();
});
