// Koira RL suite: every card face drawn as SVG here, from the card's name alone (no image is
// fetched). A game names its deck (DECKS); a name the deck does not know is drawn as text.
// The index in the top-left corner is what a fanned card shows, so it carries rank and suit
// (or colour) on its own.
"use strict";

const Cards = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const W = 60;
  const H = 84;
  const DECKS = { koira: "french", kop: "french", matapesa: "french", teka: "french", red7: "red7", dois: "dois", whist22: "tarot" };
  const FRENCH = { C: ["♣", "#15171a", "clubs"], D: ["♦", "#c8102e", "diamonds"], H: ["♥", "#c8102e", "hearts"], S: ["♠", "#15171a", "spades"] };
  const RANK_WORDS = { A: "ace", K: "king", Q: "queen", J: "jack", T: "10" };
  // Red7's colours, red (highest) to violet (lowest); Dois's four suits use the same hues.
  const COLOURS = {
    R: ["red", "#d62828", "#fff"], O: ["orange", "#f07b12", "#fff"], Y: ["yellow", "#f4c430", "#1b1b1b"],
    G: ["green", "#2a9d4e", "#fff"], B: ["blue", "#1f6fd1", "#fff"], I: ["indigo", "#3b2d8f", "#fff"],
    V: ["violet", "#a34fc9", "#fff"],
  };
  const ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII"];

  function node(tag, attrs, text) {
    const item = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs)) item.setAttribute(key, String(value));
    if (text !== undefined) item.textContent = text;
    return item;
  }

  function text(x, y, size, fill, value, extra = {}) {
    return node("text", { x, y, "font-size": size, fill, "font-weight": 700, "font-family": "system-ui, sans-serif", ...extra }, value);
  }

  function frame(fill, stroke = "#4a4a4a") {
    const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "face", "aria-hidden": "true" });
    svg.append(node("rect", { x: 0.5, y: 0.5, width: W - 1, height: H - 1, rx: 5, fill, stroke }));
    return svg;
  }

  function index(svg, top, below, colour) {
    // The corner index: what stays visible when cards overlap.
    const narrow = top.length > 1 ? { textLength: 13, lengthAdjust: "spacingAndGlyphs" } : {};
    svg.append(text(3, 15, 14, colour, top, narrow));
    if (below) svg.append(text(3, 29, 13, colour, below));
  }

  function french(name) {
    const match = /^(10|[2-9TJQKA])([CDHS])$/.exec(name);
    if (!match) return null;
    const rank = match[1] === "T" ? "10" : match[1];
    const [symbol, colour, suit] = FRENCH[match[2]];
    const svg = frame("#fdfcf7");
    index(svg, rank, symbol, colour);
    if ("JQK".includes(rank)) {
      svg.append(node("rect", { x: 22, y: 20, width: 32, height: 56, rx: 3, fill: "none", stroke: colour, "stroke-width": 1.2 }));
      svg.append(text(38, 55, 26, colour, rank, { "text-anchor": "middle" }));
      svg.append(text(38, 71, 12, colour, symbol, { "text-anchor": "middle" }));
    } else {
      svg.append(text(36, 62, 34, colour, symbol, { "text-anchor": "middle" }));
    }
    return [svg, `${RANK_WORDS[match[1]] || rank} of ${suit}`];
  }

  function red7(name) {
    const match = /^([ROYGBIV])([1-7])$/.exec(name);
    if (!match) return null;
    const [word, fill, ink] = COLOURS[match[1]];
    const svg = frame(fill, "#222");
    index(svg, match[2], match[1], ink);
    svg.append(node("circle", { cx: 36, cy: 52, r: 17, fill: "none", stroke: ink, "stroke-width": 2, opacity: 0.7 }));
    svg.append(text(36, 62, 28, ink, match[2], { "text-anchor": "middle" }));
    return [svg, `${word} ${match[2]}`];
  }

  function dois(name) {
    const suit = /^(T?)([RYGB])$/.exec(name);
    if (suit) {
      const [word, fill, ink] = COLOURS[suit[2]];
      const trump = suit[1] === "T";
      const svg = frame(trump ? "#1c1c1c" : fill, trump ? fill : "#222");
      index(svg, trump ? "T" : suit[2], trump ? suit[2] : "", trump ? fill : ink);
      svg.append(node("circle", { cx: 36, cy: 54, r: 15, fill: trump ? fill : ink, opacity: trump ? 1 : 0.85 }));
      if (trump) svg.append(text(36, 60, 15, "#1c1c1c", "★", { "text-anchor": "middle" }));
      return [svg, trump ? `trump card: ${word}` : `${word} suit card`];
    }
    if (/^[1-8]$/.test(name)) {
      const svg = frame("#fdfcf7");
      index(svg, name, "", "#15171a");
      svg.append(text(36, 64, 36, "#15171a", name, { "text-anchor": "middle" }));
      return [svg, `number card ${name}`];
    }
    return null;
  }

  function tarot(name) {
    const fool = /^Fool(?:=(\d+))?$/.exec(name);
    if (fool) {
      const svg = frame("#f3ead2", "#7a5b1e");
      index(svg, "★", fool[1] ? `=${fool[1]}` : "", "#7a1e5b");
      svg.append(text(34, 58, 26, "#7a1e5b", "★", { "text-anchor": "middle" }));
      svg.append(text(34, 76, 10, "#7a1e5b", "FOOL", { "text-anchor": "middle" }));
      return [svg, fool[1] ? `the Fool, played as ${fool[1]}` : "the Fool"];
    }
    const match = /^(\d{1,2})$/.exec(name);
    if (!match || Number(name) < 1 || Number(name) > 21) return null;
    const svg = frame("#f3ead2", "#7a5b1e");
    svg.append(node("rect", { x: 4, y: 4, width: W - 8, height: H - 8, rx: 3, fill: "none", stroke: "#b08d3c", "stroke-width": 1 }));
    index(svg, name, "", "#3d2a07");
    svg.append(text(34, 58, 26, "#3d2a07", name, { "text-anchor": "middle" }));
    svg.append(text(34, 74, 9, "#7a5b1e", ROMAN[Number(name)], { "text-anchor": "middle" }));
    return [svg, `trump ${name}`];
  }

  const DRAW = { french, red7, dois, tarot };

  function deckOf(game) {
    return DECKS[game] || null;
  }

  function face(name, deck) {
    // [svg, words] for a card name, or null when the deck has no picture for it.
    const draw = DRAW[deck];
    return (draw && draw(name)) || null;
  }

  function legend(deck) {
    // Where a letter code remains on a card: which colour or kind each letter means.
    if (deck === "red7") {
      return { title: "Colours, highest first", items: Object.entries(COLOURS).map(([k, [word, fill]]) => [k, word, fill]) };
    }
    if (deck === "dois") {
      const items = "RYGB".split("").map((k) => [k, `${COLOURS[k][0]} suit`, COLOURS[k][1]]);
      items.push(["T", "trump card (a suit on black)", "#1c1c1c"], ["1-8", "number cards", "#fdfcf7"]);
      return { title: "Cards", items };
    }
    return null;
  }

  return { deckOf, face, legend };
})();
