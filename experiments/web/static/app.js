// Koira RL suite: the lobby, the table and the replay viewer. Plain JavaScript, no build step.
// Every table is drawn from the generic table dict (koira_env/core/table.py, docs/games.md):
// nothing here knows which game it draws.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { C: ["♣", false], D: ["♦", true], H: ["♥", true], S: ["♠", false] };
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
function card(name, extra = "") {
  // A face-up card; 52-card names ("QS", "TD") get their suit symbol, others show as named.
  const match = /^(10|[2-9TJQKA])([CDHS])$/.exec(name);
  const node = el("span", { class: `card ${extra}`.trim(), "data-card": name });
  if (match) {
    const [symbol, red] = SUITS[match[2]];
    node.textContent = (match[1] === "T" ? "10" : match[1]) + symbol;
    if (red) node.classList.add("red");
  } else {
    node.textContent = name;
  }
  return node;
}

function backs(count, small) {
  const box = el("span", { class: "backs" });
  const shown = Math.min(count, 12);
  for (let i = 0; i < shown; i++) box.append(el("span", { class: `card back${small ? " mini" : ""}` }));
  if (count > shown) box.append(el("span", { class: "more", text: `+${count - shown}` }));
  return box;
}

function seatLabel(table, seat, names) {
  const who = names && names[seat] ? ` (${names[seat]})` : "";
  return `player_${seat}${who}`;
}

function zoneNode(zone, table, names, fresh) {
  // A labelled place: who played what, face-up cards, a face-down count and/or a text.
  const node = el("div", { class: "zone", "data-zone": zone.label });
  node.append(el("div", { class: "label", text: zone.label }));
  const body = el("div", { class: "zone-body" });
  for (const play of zone.plays || []) {
    const group = el("span", { class: "play" });
    for (const name of play.cards) group.append(card(name, fresh(name)));
    group.append(el("small", { text: seatLabel(table, play.seat, names) }));
    body.append(group);
  }
  for (const name of zone.cards || []) body.append(card(name, "mini"));
  if (zone.count !== undefined && zone.cards === undefined) {
    body.append(backs(Math.min(zone.count, 1), true), el("span", { class: "count", text: String(zone.count) }));
  }
  if (zone.text) body.append(el("span", { class: "text", text: zone.text }));
  node.append(body);
  return node;
}

function renderTable(box, table, { names = null, onMove = null } = {}) {
  // Draw a table dict into box. onMove(action) makes the viewer's legal moves clickable.
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
  const zones = el("div", { class: "zones" });
  for (const zone of table.zones) zones.append(zoneNode(zone, table, names, fresh));
  box.append(zones);

  // The viewer's moves: a hand card is clickable when exactly one move plays just that card;
  // every other move (a bid, a pass, a run, a card with two ways to play it) is a button.
  const byCard = new Map();
  for (const move of table.moves) {
    if (move.cards.length === 1) byCard.set(move.cards[0], (byCard.get(move.cards[0]) || []).concat([move]));
  }
  const buttons = table.moves.filter((m) => m.cards.length !== 1 || byCard.get(m.cards[0]).length > 1);

  const seats = el("div", { class: "seats" });
  const order = table.seats.map((s) => s.seat);
  if (table.seat !== null) order.push(...order.splice(0, table.seat + 1)); // the viewer last
  for (const p of order) {
    const seat = table.seats[p];
    const panel = el("div", { class: "seat", "data-seat": String(p) });
    if (p === table.current) panel.classList.add("acting");
    if (p === table.seat) panel.classList.add("me");
    const head = el("div", { class: "seat-head" },
      el("span", { class: "name", text: seatLabel(table, p, names) }));
    for (const flag of seat.flags) head.append(el("span", { class: "flag", text: flag }));
    if (p === table.current) head.append(el("span", { class: "flag turn", text: "to act" }));
    const who = el("div", { class: "who" }, head);
    if (seat.info.length) who.append(el("div", { class: "info", text: seat.info.join(" · ") }));
    panel.append(who);
    const hand = el("div", { class: "hand" });
    for (const name of seat.hand) {
      const moves = p === table.seat && onMove ? byCard.get(name) : null;
      const node = card(name);
      if (moves && moves.length === 1) {
        node.classList.add("legal");
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
        node.setAttribute("data-action", String(moves[0].action));
        node.title = `play ${moves[0].name}`;
        node.addEventListener("click", () => onMove(moves[0].action));
        node.addEventListener("keydown", (e) => { if (e.key === "Enter") onMove(moves[0].action); });
      }
      hand.append(node);
    }
    if (seat.hidden) hand.append(backs(seat.hidden, false));
    const middle = el("div", { class: "middle" }, hand);
    if (p === table.seat && onMove && buttons.length) {
      const bar = el("div", { class: "moves" });
      for (const move of buttons) {
        bar.append(el("button", {
          type: "button", class: "move", "data-action": String(move.action), text: move.name,
          onclick: () => onMove(move.action),
        }));
      }
      middle.append(bar);
    }
    panel.append(middle);
    const row = el("div", { class: "piles" });
    for (const pile of seat.piles.filter((p) => (p.cards || []).length || p.count)) {
      row.append(zoneNode(pile, table, names, () => "mini"));
    }
    panel.append(row);
    seats.append(panel);
  }
  box.append(seats);

  if (table.result) {
    const ranked = table.seats.map((s) => s.seat).sort((a, b) => table.result.places[a] - table.result.places[b] || a - b);
    const list = el("ol", { class: "places" });
    for (const p of ranked) {
      const place = table.result.places[p];
      list.append(el("li", { text: `place ${place}: ${seatLabel(table, p, names)}, score ${table.result.scores[p]}` }));
    }
    box.append(el("div", { class: "result", id: "result" }, el("h2", { text: "Final placements" }), list));
  }
  lastCards = zoneCards;
}

function renderLog(list, lines, fresh) {
  list.replaceChildren();
  lines.forEach((line, i) => {
    list.append(el("li", { class: i >= lines.length - fresh ? "new" : "", text: line }));
  });
  list.parentElement.scrollTop = list.parentElement.scrollHeight; // the log scrolls, not the page
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
    options.append(el("label", { class: opt.kind === "bool" ? "check" : "" }, `${opt.name} `, input));
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

function drawPlay(data) {
  const table = data.table;
  $("play-title").textContent = `${table.title}: you are player_${data.seat}, seed ${data.seed}`;
  renderTable($("play-board"), table, { names: data.names, onMove: data.waiting ? null : (a) => playMove(data.id, a) });
  renderLog($("play-log"), table.log, table.log.length - playLogSize);
  playLogSize = table.log.length;
  const record = $("play-record");
  record.hidden = !table.result;
  if (table.result) {
    record.href = `/api/tables/${data.id}/record`;
    record.download = `${table.game}-seed${data.seed}.json`;
  }
  $("next-bot").hidden = !(data.waiting && Number($("speed").value) < 0);
  document.body.dataset.waiting = data.waiting ? "1" : "0";
}

async function showPlay(id) {
  show("play");
  const run = ++loop;
  playLogSize = 0;
  lastCards = new Set();
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

const viewer = { id: null, step: 0, steps: 0, seat: "all" };

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
  renderTable($("replay-board"), table, { names: data.names });
  renderLog($("replay-log"), table.log, data.new_events);
}

async function showReplay(id) {
  show("replay");
  loop++;
  viewer.id = id;
  viewer.seat = "all";
  $("r-seat").replaceChildren();
  lastCards = new Set();
  await replayStep(0);
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
  $("speed").addEventListener("change", () => { if (document.body.dataset.page === "play") route(); });
  $("r-first").addEventListener("click", () => replayStep(0));
  $("r-prev").addEventListener("click", () => replayStep(viewer.step - 1));
  $("r-next").addEventListener("click", () => replayStep(viewer.step + 1));
  $("r-last").addEventListener("click", () => replayStep(viewer.steps));
  $("r-slider").addEventListener("input", (e) => replayStep(Number(e.target.value)));
  $("r-step").addEventListener("change", (e) => replayStep(Number(e.target.value)));
  $("r-seat").addEventListener("change", (e) => { viewer.seat = e.target.value; replayStep(viewer.step); });
  document.addEventListener("keydown", (e) => {
    if (document.body.dataset.page !== "replay" || ["INPUT", "SELECT"].includes(e.target.tagName)) return;
    const keys = { ArrowLeft: viewer.step - 1, ArrowRight: viewer.step + 1, Home: 0, End: viewer.steps };
    if (e.key in keys) replayStep(keys[e.key]);
  });
  window.addEventListener("hashchange", route);
  route();
});
