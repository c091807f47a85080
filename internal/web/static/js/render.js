// render.js: the table, drawn from one view (the protocol's View) and the
// events so far, which the server tells in sentences. The live page and the replay viewer both use renderTable;
// it knows nothing of connections, so it also runs under node in the tests.

import { KINDS, GROUPS, CROSSED, card, back, cheque } from "./cards.js";
import { translator } from "./i18n.js";

/** CATEGORIES are the score table's lines, as in the score JSON. */
export const CATEGORIES = ["thieves", "bodyguards", "cars", "jewels", "gold", "businesses", "cheques"];

// ---- words ------------------------------------------------------------------

/** T returns a translator for a catalogue given as a flat object or as t itself. */
export function T(catalogue) {
  return typeof catalogue === "function" ? catalogue : translator(catalogue, catalogue);
}

/** list joins items as the language does: "a, b and c". */
export function list(t, items) {
  if (items.length === 0) return "";
  if (items.length === 1) return items[0];
  let s = items[0];
  for (const it of items.slice(1, -1)) s += t("list.sep") + it;
  return t("list.and", { first: s, last: items[items.length - 1] });
}

/** count returns "1 car", "2 cars" in the language. */
export function count(t, kind, n) {
  return n === 1 ? t("card.one", { card: t(`card.${kind}`) }) : t(`card.${kind}.count`, { n });
}

/** cardList describes cards grouped by kind in the engine's order, or "no cards". */
export function cardList(t, tokens) {
  if (!tokens || tokens.length === 0) return t("cards.none");
  const n = new Map();
  for (const k of tokens) n.set(k, (n.get(k) || 0) + 1);
  return list(t, KINDS.filter((k) => n.has(k)).map((k) => count(t, k, n.get(k))));
}

/** moveLabel describes a legal move token for a button. */
export function moveLabel(t, token) {
  const [verb, ...rest] = token.split(" ");
  switch (verb) {
    case "draw":
      return t("action.draw");
    case "call":
      return t("action.call");
    case "pass":
      return t("action.pass");
    case "bid":
      return t("action.bid.cheque", { cheque: rest[0] });
    case "thief":
      return t("action.thieves.take", { thieves: count(t, "thief", rest.length), cards: cardList(t, rest) });
  }
  return token;
}

/** thiefToken returns the record token taking the given row cards: kinds in the engine's order. */
export function thiefToken(kinds) {
  const sorted = [...kinds].sort((a, b) => KINDS.indexOf(a) - KINDS.indexOf(b));
  return ["thief", ...sorted].join(" ");
}

// ---- elements -------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  add(e, children);
  return e;
}

function add(e, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) add(e, c);
    else e.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
}

// ---- the table ------------------------------------------------------------------

/**
 * renderTable draws the table into root (replacing what was there).
 *
 * snapshot: the view (protocol.View JSON). events: every event so far,
 * oldest first (the log), each with its sentence (text) as the server told
 * it. catalogue: the language's flat JSON catalogue (or
 * a translator function). options:
 *   game      GameInfo, for the status, seat kinds (bots) and names
 *   seat      the viewer's seat (default snapshot.seat; -1 a spectator)
 *   onMove    called with a legal move's token when a move button is pressed;
 *             without it no move buttons are drawn (the replay viewer)
 *   busy      a move is on its way: the move buttons are disabled
 *   animate   follow a drawn card or a won lot with the eye (default true;
 *             off under prefers-reduced-motion)
 *   log       false to leave the game log out
 *
 * root gets data-status, data-phase, data-seat, data-to-move and data-moves.
 * Focus, the log's scroll position and a half-made thieves choice survive a
 * redraw of the same root.
 */
export function renderTable(root, snapshot, events, catalogue, options = {}) {
  const t = T(catalogue);
  const v = snapshot;
  const o = { seat: v.seat, animate: true, log: true, ...options };
  const seat = typeof o.seat === "number" ? o.seat : -1;
  const game = o.game || null;
  const status = game ? game.status : v.phase === "over" ? "finished" : "playing";
  const names = v.players.map((p, i) => p || (game && game.seats[i] && game.seats[i].name) || t("term.seat.n", { n: i + 1 }));
  const mem = root.razzia || (root.razzia = { moves: -1, selected: [] });
  if (mem.moves !== v.moves) mem.selected = [];
  mem.args = [snapshot, events, catalogue, options];

  root.setAttribute("data-status", status);
  root.setAttribute("data-phase", v.phase);
  root.setAttribute("data-seat", String(seat));
  root.setAttribute("data-to-move", String(v.toMove));
  root.setAttribute("data-moves", String(v.moves));

  const mine = seat >= 0 && v.toMove === seat && v.legal.length > 0 && typeof o.onMove === "function";
  const ctx = { t, v, seat, game, names, mine, o, mem, root };

  // Keep the reader's place across the redraw.
  const focus = focusKey(root);
  const oldLog = root.querySelector ? root.querySelector(".log-list") : null;
  const logAtEnd = !oldLog || oldLog.scrollTop + oldLog.clientHeight >= oldLog.scrollHeight - 8;
  const logTop = oldLog ? oldLog.scrollTop : 0;
  const before = o.animate ? measure(root) : null;

  const main = h("div", { class: "tbl-main" },
    turnBar(ctx),
    board(ctx),
    v.auction ? auctionPanel(ctx) : null,
    v.phase === "over" ? result(ctx) : null,
    v.phase !== "over" ? roundBanner(ctx, events || []) : null,
    seatsPanel(ctx),
    mine ? movesPanel(ctx) : null);
  const side = h("div", { class: "tbl-side" },
    v.seats.some((s) => s.scores.length > 0) ? scoreTables(ctx) : null,
    o.log ? logPanel(ctx, events || []) : null);
  root.replaceChildren(h("div", { class: "tbl" }, main, side));

  const newLog = root.querySelector ? root.querySelector(".log-list") : null;
  if (newLog) newLog.scrollTop = logAtEnd ? newLog.scrollHeight : logTop;
  restoreFocus(root, focus);
  if (before && mem.moves >= 0 && v.moves === mem.moves + 1) animate(root, before, events || [], v);
  mem.moves = v.moves;
}

// turnBar says the round and whose turn it is.
function turnBar({ t, v, seat, names }) {
  let text;
  let cls = "turn";
  if (v.phase === "over") {
    text = t("phase.over");
    cls += " turn-over";
  } else if (v.toMove === seat && seat >= 0) {
    text = v.phase === "auction" ? t("web.turn.you.auction") : t("term.yourturn");
    cls += " turn-you";
  } else {
    text = t(v.phase === "auction" ? "web.turn.other.auction" : "term.tomove", { player: names[v.toMove] || "" });
  }
  return h("section", { class: "turnbar", "aria-label": t("web.turnbar") },
    h("span", { class: "round" }, t("term.round.n", { round: v.round })),
    h("span", { class: cls, id: "turn" }, text),
    seat < 0 ? h("span", { class: "watching" }, t("web.watching")) : null);
}

// board: the police track, the piles, the centre cheque and the row.
function board(ctx) {
  const { t, v } = ctx;
  return h("section", { class: "board", "aria-label": t("web.board") },
    policeTrack(ctx),
    h("div", { class: "board-mid" }, piles(ctx), centre(ctx)),
    row(ctx));
}

function policeTrack({ t, v }) {
  const limit = v.policeLimit;
  const left = limit - v.police;
  const danger = v.phase !== "over" && left <= 2 ? (left <= 1 ? " danger-high" : " danger") : "";
  const slots = [];
  for (let i = 0; i < limit; i++) {
    const filled = i < v.police;
    const last = i === limit - 1;
    slots.push(h("li", { class: `police-slot${filled ? " filled" : ""}${last ? " last" : ""}`, "aria-hidden": "true" },
      filled ? card("police", t, { size: "mini", tag: "span" }) : h("span", { class: "slot-num" }, String(i + 1))));
  }
  return h("div", { class: `police${danger}`, role: "group", "aria-label": t("web.police.label", { n: v.police, limit }) },
    h("div", { class: "police-head" },
      h("span", { class: "police-title" }, t("term.police")),
      h("span", { class: "police-count" }, t("web.police.count", { n: v.police, limit })),
      left === 1 && v.phase !== "over" ? h("span", { class: "police-warn" }, t("web.police.danger")) : null),
    h("ol", { class: "police-track" }, slots));
}

function piles({ t, v, mine, o }) {
  // One stock in the engine; the table shows it as the rulebook's two piles (R5).
  const a = Math.ceil(v.deckLeft / 2);
  const b = v.deckLeft - a;
  const canDraw = mine && v.legal.includes("draw");
  const pile = (n, i) => {
    const inner = [back(n === 0 ? "empty" : ""), h("span", { class: "pile-count" }, String(n))];
    if (canDraw && n > 0) {
      return h("button", { type: "button", class: "pile pile-button", "data-move": "draw", "data-pile": String(i),
        "aria-label": t("web.pile.draw", { n }), disabled: o.busy, onclick: () => o.onMove("draw") }, inner);
    }
    return h("div", { class: "pile", "data-pile": String(i), role: "img", "aria-label": t("web.pile", { n }) }, inner);
  };
  return h("div", { class: "piles", role: "group", "aria-label": t("web.piles.label", { n: v.deckLeft }) },
    h("span", { class: "zone-title" }, t("web.piles")),
    h("div", { class: "pile-pair" }, pile(a, 0), pile(b, 1)));
}

function centre({ t, v }) {
  return h("div", { class: "centre" },
    h("span", { class: "zone-title" }, t("term.centre.cheque")),
    cheque(v.centre, t, { extra: "cheque-centre", label: t("web.centre.label", { value: v.centre }) }));
}

function row(ctx) {
  const { t, v, mine, mem, o } = ctx;
  const thieves = mine && v.phase === "turn" && v.legal.some((m) => m.startsWith("thief"));
  const slots = [];
  for (let i = 0; i < 7; i++) {
    const kind = v.row[i];
    if (!kind) {
      slots.push(h("li", { class: "row-slot empty", "aria-hidden": "true" }, h("span", { class: "slot-num" }, String(i + 1))));
      continue;
    }
    if (thieves) {
      const on = mem.selected.includes(i);
      slots.push(h("li", { class: "row-slot" }, card(kind, t, {
        tag: "button",
        extra: on ? "picked" : "pickable",
        attrs: { type: "button", "data-row-card": String(i), "aria-pressed": on ? "true" : "false", disabled: o.busy,
          "aria-label": t("web.row.pick", { card: t(`card.${kind}`) }), onclick: () => toggle(ctx, i) },
      })));
    } else {
      slots.push(h("li", { class: "row-slot", "data-index": String(i) }, card(kind, t)));
    }
  }
  const el = h("div", { class: "row", role: "group", "aria-label": t("web.row.label", { n: v.row.length }) },
    h("div", { class: "zone-head" },
      h("span", { class: "zone-title" }, t("term.row")),
      h("span", { class: "row-count" }, t("web.row.count", { n: v.row.length }))),
    h("ol", { class: "row-cards" }, slots));
  return el;
}

// toggle picks or drops a row card for the thieves and redraws.
function toggle(ctx, i) {
  const { mem, v } = ctx;
  const sel = mem.selected;
  const at = sel.indexOf(i);
  if (at >= 0) sel.splice(at, 1);
  else {
    const thieves = v.seats[ctx.seat].holdings.thief || 0;
    if (sel.length >= thieves) sel.shift(); // one card per thief: the oldest pick gives way
    sel.push(i);
  }
  mem.selected = sel;
  renderTable(ctx.root, ...mem.args);
}

function auctionPanel({ t, v, seat, names }) {
  const a = v.auction;
  const n = v.players.length;
  const title = t(`auction.${a.kind}`);
  const order = [];
  for (let k = 1; k <= n; k++) order.push((a.initiator + k) % n);
  const items = order.map((s) => {
    const b = a.bids[s] || "undecided";
    let text;
    let cls = "bid";
    if (b.startsWith("bid ")) {
      text = t("bids.bid", { cheque: b.slice(4) });
      cls += s === a.highBidder ? " bid-high" : " bid-made";
    } else if (b === "pass") {
      text = t("bids.pass");
      cls += " bid-pass";
    } else if (b === "passed over") {
      text = t("bids.passedover");
      cls += " bid-pass";
    } else if (s === v.toMove) {
      text = t("web.bid.deciding");
      cls += " bid-now";
    } else {
      text = t("bids.undecided");
      cls += " bid-wait";
    }
    return h("li", { class: cls },
      h("span", { class: "bid-name" }, names[s], s === seat ? h("span", { class: "you-tag" }, " · " + t("term.you")) : null,
        s === a.initiator ? h("span", { class: "initiator", title: t("web.auction.initiator") }, " ★") : null),
      h("span", { class: "bid-state" }, text));
  });
  let obligation = null;
  if (a.kind === "forced") {
    if (a.mustBid) {
      obligation = h("p", { class: "must-bid", role: "note" },
        a.initiator === seat ? t("web.auction.mustbid.you") : t("auction.mustbid", { player: names[a.initiator] }));
    } else if (a.highBidder < 0) {
      obligation = h("p", { class: "obligation" }, t("web.auction.obligation", { player: names[a.initiator] }));
    }
  }
  const undecided = order.filter((s) => (a.bids[s] || "undecided") === "undecided").map((s) => names[s]);
  return h("section", { class: `auction auction-${a.kind}`, "aria-labelledby": "auction-h" },
    h("h2", { id: "auction-h" }, title),
    h("p", { class: "auction-by" }, t("web.auction.by", { player: names[a.initiator] })),
    h("p", { class: "auction-high" },
      a.highBidder >= 0
        ? [t("auction.highbid", { player: names[a.highBidder], cheque: a.highBid })]
        : t("auction.nobid")),
    h("ol", { class: "bids" }, items),
    undecided.length ? h("p", { class: "auction-left" }, t("web.auction.left", { players: list(t, undecided) })) : null,
    obligation);
}

function movesPanel(ctx) {
  const { t, v, o, mem } = ctx;
  const disabled = !!o.busy;
  const btn = (token, cls, content, label) =>
    h("button", { type: "button", class: `move ${cls}`, "data-move": token, disabled, "aria-label": label || null,
      onclick: () => o.onMove(token) }, content);
  const parts = [];
  if (v.phase === "turn") {
    if (v.legal.includes("draw")) parts.push(btn("draw", "move-draw", [back("tiny"), t("action.draw")], t("action.draw")));
    if (v.legal.includes("call")) parts.push(btn("call", "move-call", t("action.call")));
    const thieves = v.legal.filter((m) => m.startsWith("thief"));
    if (thieves.length) {
      const held = v.seats[ctx.seat].holdings.thief || 0;
      const kinds = mem.selected.map((i) => v.row[i]).filter(Boolean);
      const token = kinds.length ? thiefToken(kinds) : "";
      const box = [h("span", { class: "thief-hint" }, card("thief", t, { size: "mini", tag: "span" }),
        " ", t("web.thief.hint", { n: held }))];
      if (token && v.legal.includes(token)) {
        box.push(btn(token, "move-thief", moveLabel(t, token)));
      }
      parts.push(h("div", { class: "thief-box" }, box));
    }
  } else {
    if (v.legal.includes("pass")) parts.push(btn("pass", "move-pass", t("action.pass")));
    const bids = v.legal.filter((m) => m.startsWith("bid "));
    if (bids.length) {
      parts.push(h("div", { class: "bid-buttons", role: "group", "aria-label": t("web.move.bids") },
        bids.map((m) => {
          const value = m.slice(4);
          return btn(m, "move-bid", [h("span", { class: "move-bid-verb" }, t("action.bid")),
            cheque(value, t, { extra: "cheque-small", label: "" })], moveLabel(t, m));
        })));
    }
  }
  return h("section", { class: "moves", id: "moves", "aria-labelledby": "moves-h" },
    h("h2", { id: "moves-h" }, t(v.phase === "auction" ? "web.moves.auction" : "web.moves")),
    h("div", { class: "move-list" }, parts));
}

function seatsPanel(ctx) {
  const { t, v } = ctx;
  return h("section", { class: "seats", "aria-label": t("web.seats") },
    h("ol", { class: "seat-list" }, v.seats.map((s, i) => seatPanel(ctx, s, i))));
}

function seatPanel({ t, v, seat, game, names }, s, i) {
  const info = game && game.seats[i];
  const toMove = v.toMove === i;
  const winner = v.phase === "over" && v.winners.includes(i);
  const out = v.phase !== "over" && s.faceUp.length === 0;
  const badges = [];
  if (i === seat) badges.push(h("span", { class: "badge badge-you" }, t("term.you")));
  if (info && info.bot) badges.push(h("span", { class: "badge badge-bot" }, t("web.seat.bot", { level: t(`bot.${info.bot}`) })));
  if (toMove) badges.push(h("span", { class: "badge badge-turn" }, v.phase === "auction" ? t("web.seat.bidding") : t("web.seat.turn")));
  if (out) badges.push(h("span", { class: "badge badge-out" }, t("web.seat.out")));
  if (winner) badges.push(h("span", { class: "badge badge-win" }, trophy(), t("web.seat.winner")));
  let bid = null;
  if (v.auction && v.auction.bids[i] && v.auction.bids[i].startsWith("bid ")) {
    bid = h("span", { class: "seat-bid" }, t("bids.bid", { cheque: v.auction.bids[i].slice(4) }));
  }
  const groups = [];
  for (const [cat, kinds] of GROUPS) {
    const held = kinds.filter((k) => s.holdings[k] > 0);
    if (!held.length) continue;
    groups.push(h("li", { class: `holding holding-${cat}`, "aria-label": t(`cat.${cat}`) },
      held.map((k) => h("span", { class: "stack", "data-kind": k, "data-count": String(s.holdings[k]) },
        stackCards(k, s.holdings[k], t)))));
  }
  const cls = `seat${toMove ? " seat-turn" : ""}${i === seat ? " seat-you" : ""}${winner ? " seat-winner" : ""}${out ? " seat-out" : ""}`;
  return h("li", { class: cls, "data-seat": String(i), "aria-label": names[i] },
    h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, names[i]),
      badges,
      bid,
      h("span", { class: "seat-score", title: t("web.seat.points.title") }, t("web.seat.points", { n: s.total }))),
    h("div", { class: "seat-cheques" },
      h("span", { class: "mini-title" }, t("term.faceup")),
      s.faceUp.length ? s.faceUp.map((c) => cheque(c, t, { unit: "" })) : h("span", { class: "none" }, "—"),
      s.faceDown.length ? [h("span", { class: "mini-title down" }, t("term.facedown")),
        s.faceDown.map((c) => cheque(c, t, { down: true, unit: "" }))] : null),
    groups.length
      ? h("ul", { class: "holdings", "aria-label": t("web.seat.holdings") }, groups)
      : h("p", { class: "holdings-none" }, t("web.seat.none")));
}

// trophy is the winner's cup, drawn: no emoji font needed.
function trophy(extra) {
  const s = h("span", { class: `trophy${extra ? " " + extra : ""}`, "aria-hidden": "true" });
  s.innerHTML = '<svg viewBox="0 0 24 24" focusable="false"><path fill="currentColor" d="M6 2h12v2h3v3c0 2.8-2 5-4.6 5.4A6 6 0 0 1 13 15.9V19h3v3H8v-3h3v-3.1a6 6 0 0 1-3.4-3.5C5 12 3 9.8 3 7V4h3zm0 4H5v1c0 1.4.8 2.6 2 3.2A6 6 0 0 1 6 8zm12 0v2c0 .8-.1 1.5-.4 2.2A3.6 3.6 0 0 0 19 7V6z"/></svg>';
  return s;
}

// stackCards draws n cards of a kind as a fanned stack, named below.
function stackCards(kind, n, t) {
  const shown = Math.min(n, 4);
  const cards = [];
  for (let k = 0; k < shown; k++) {
    const top = k === shown - 1;
    cards.push(card(kind, t, { size: "mini", tag: "span", count: top ? n : 0, extra: top ? "" : "under",
      attrs: { "aria-hidden": "true" } }));
  }
  return [h("span", { class: "stack-cards" }, cards),
    h("span", { class: "stack-name" }, n > 1 ? t(`card.${kind}.count`, { n }) : t(`card.${kind}`))];
}

function result({ t, v, seat, names }) {
  const ranking = v.seats.map((s, i) => ({ i, total: s.total })).sort((a, b) => b.total - a.total || a.i - b.i);
  const w = v.winners.map((i) => names[i]);
  let head;
  if (v.winners.includes(seat) && v.winners.length === 1) head = t("web.result.you");
  else if (w.length === 1) head = t("web.result.winner", { player: w[0] });
  else head = t("web.result.shared", { players: list(t, w) });
  return h("section", { class: "result", id: "result", "aria-labelledby": "result-h" },
    h("h2", { id: "result-h" }, trophy("trophy-big"), " ", head),
    h("ol", { class: "ranking" }, ranking.map((r) =>
      h("li", { class: v.winners.includes(r.i) ? "rank-win" : "" },
        h("span", { class: "rank-name" }, names[r.i]),
        h("span", { class: "rank-points" }, t("web.seat.points", { n: r.total }))))));
}

// roundBanner shows the round just scored at the top of the table until
// the next round's first lot is decided: the score table by category the
// rulebook has players add up at the end of every round.
function roundBanner(ctx, events) {
  const { t, v, names } = ctx;
  let end = -1;
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i].kind === "roundend") {
      end = i;
      break;
    }
    if (events[i].kind === "win" || events[i].kind === "nowinner") return null;
  }
  if (end < 0) return null;
  const e = events[end];
  const r = e.round;
  return h("section", { class: "round-banner", "aria-labelledby": "round-banner-h" },
    h("h2", { id: "round-banner-h" }, t("web.round.scored", { round: r })),
    h("p", { class: "round-why" }, e.text || ""),
    h("div", { class: "score-wrap" }, scoreTable(ctx, r, false)));
}

// scoreTable is one round's score by category, a column per player.
function scoreTable({ t, v, names }, r, caption = true) {
  const cats = CATEGORIES.filter((c) => r === 3 || (c !== "businesses" && c !== "cheques"));
  return h("table", { class: "score-table" },
    caption ? h("caption", {}, t("web.scores.round", { round: r })) : null,
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("web.scores.category")),
      names.map((n) => h("th", { scope: "col", title: n }, n)))),
    h("tbody", {},
      cats.map((c) => h("tr", {}, h("th", { scope: "row" }, t(`cat.${c}`)),
        v.seats.map((s) => {
          const p = s.scores[r - 1] ? s.scores[r - 1][c] : 0;
          return h("td", { class: p > 0 ? "pos" : p < 0 ? "neg" : "zero" }, p > 0 ? "+" + p : String(p));
        }))),
      h("tr", { class: "score-total" }, h("th", { scope: "row" }, t("cat.total")),
        v.seats.map((s) => h("td", {}, String(s.scores[r - 1] ? s.scores[r - 1].total : 0))))));
}

function scoreTables(ctx) {
  const { t, v, names } = ctx;
  const rounds = Math.max(...v.seats.map((s) => s.scores.length));
  const tables = [];
  for (let r = rounds; r >= 1; r--) {
    const table = scoreTable(ctx, r);
    tables.push(r === rounds ? h("div", { class: "score-wrap" }, table)
      : h("details", { class: "score-old" }, h("summary", {}, t("web.scores.round", { round: r })), h("div", { class: "score-wrap" }, table)));
  }
  return h("section", { class: "scores", id: "scores", "aria-labelledby": "scores-h" },
    h("h2", { id: "scores-h" }, t("web.scores")),
    h("p", { class: "score-totals" }, v.seats.map((s, i) =>
      h("span", { class: "score-chip" }, names[i], " ", h("strong", {}, String(s.total))))),
    tables);
}

function logPanel({ t }, events) {
  const items = [];
  for (const e of events) {
    // The server tells each event in the page's language (?lang=).
    const text = e.text;
    if (!text) continue;
    items.push(h("li", { class: `ev ev-${e.kind}${e.card === "police" ? " ev-police" : ""}` }, text));
  }
  return h("section", { class: "log-panel", "aria-labelledby": "log-h" },
    h("h2", { id: "log-h" }, t("web.log")),
    h("ol", { id: "log", class: "log-list", tabindex: "0", "aria-label": t("web.log.label") }, items));
}

// ---- focus and motion -------------------------------------------------------------

function focusKey(root) {
  if (typeof document === "undefined" || !document.activeElement || !root.contains) return null;
  const a = document.activeElement;
  if (!root.contains(a)) return null;
  for (const attr of ["data-move", "data-row-card", "id"]) {
    if (a.getAttribute && a.getAttribute(attr) !== null) return [attr, a.getAttribute(attr), a.tagName];
  }
  return ["any", "", a.tagName];
}

function restoreFocus(root, key) {
  if (!key || !root.querySelector) return;
  const [attr, value] = key;
  let el = attr === "any" ? null : root.querySelector(`[${attr}="${cssEscape(value)}"]`);
  if (!el || el.disabled) el = root.querySelector("button[data-move]:not([disabled]), [data-row-card]:not([disabled])");
  if (el && el.focus) el.focus({ preventScroll: true });
}

function cssEscape(s) {
  return String(s).replace(/["\\]/g, "\\$&");
}

function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// measure remembers where the row cards, piles and seats were before a redraw.
function measure(root) {
  if (!root.querySelectorAll || typeof window === "undefined" || reducedMotion()) return null;
  const rect = (el) => el.getBoundingClientRect();
  return {
    row: [...root.querySelectorAll(".row-slot:not(.empty) .card")].map((el) => ({ rect: rect(el), node: el.cloneNode(true) })),
    pile: (() => { const p = root.querySelector(".pile"); return p ? rect(p) : null; })(),
  };
}

// animate lets the eye follow the last move: a drawn card slides from the
// piles, a won lot (or a thieves' catch) flies to its new owner.
function animate(root, before, events, v) {
  if (!root.animate && !Element.prototype.animate) return;
  const last = events.slice(-4);
  const draw = last.findLast ? last.findLast((e) => e.kind === "draw") : null;
  const gone = last.find((e) => e.kind === "win" || e.kind === "thieves");
  if (draw && draw.card !== "police" && before.pile && !gone) {
    const cards = root.querySelectorAll(".row-slot:not(.empty) .card");
    const el = cards[cards.length - 1];
    if (el) fly(el.getBoundingClientRect(), before.pile, el, true);
  }
  if (draw && draw.card === "police") {
    const slots = root.querySelectorAll(".police-slot.filled");
    const el = slots[slots.length - 1];
    if (el && before.pile) fly(el.getBoundingClientRect(), before.pile, el, true);
  }
  if (gone && gone.seat >= 0) {
    const target = root.querySelector(`.seat[data-seat="${gone.seat}"] .holdings, .seat[data-seat="${gone.seat}"] .holdings-none`);
    if (!target) return;
    const to = target.getBoundingClientRect();
    const moved = gone.kind === "win" ? before.row : before.row.filter((r) => gone.cards.includes(r.node.getAttribute("data-kind")));
    moved.forEach((r, k) => ghost(r.node, r.rect, to, k * 60));
    const seatEl = root.querySelector(`.seat[data-seat="${gone.seat}"]`);
    if (seatEl) seatEl.animate([{ boxShadow: "0 0 0 0 rgba(240,192,64,0)" }, { boxShadow: "0 0 0 6px rgba(240,192,64,.8)" },
      { boxShadow: "0 0 0 0 rgba(240,192,64,0)" }], { duration: 900, easing: "ease-out" });
  }
}

// fly animates el from the rectangle from to where it is now.
function fly(now, from, el, flip) {
  const dx = from.left + from.width / 2 - (now.left + now.width / 2);
  const dy = from.top + from.height / 2 - (now.top + now.height / 2);
  const frames = [
    { transform: `translate(${dx}px, ${dy}px) ${flip ? "rotateY(90deg)" : ""} scale(.9)`, opacity: 0.6 },
    { transform: `translate(${dx * 0.4}px, ${dy * 0.4}px) rotateY(0deg) scale(1.08)`, opacity: 1, offset: 0.6 },
    { transform: "none", opacity: 1 },
  ];
  el.animate(frames, { duration: 520, easing: "cubic-bezier(.2,.7,.3,1)" });
}

// ghost flies a copy of a card that left the row to its new owner.
function ghost(node, from, to, delay) {
  const g = node;
  g.classList.add("ghost");
  // A copy only for the eye: nothing to find, click or read.
  for (const a of ["id", "data-row-card", "data-move", "data-kind", "role", "aria-label", "aria-pressed"]) g.removeAttribute(a);
  g.setAttribute("aria-hidden", "true");
  g.inert = true;
  Object.assign(g.style, { position: "fixed", left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`,
    height: `${from.height}px`, margin: "0", zIndex: "50", pointerEvents: "none" });
  document.body.appendChild(g);
  const dx = to.left + Math.min(to.width, 80) / 2 - (from.left + from.width / 2);
  const dy = to.top + 20 - (from.top + from.height / 2);
  const a = g.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.45)`, opacity: 0.2 }],
    { duration: 650, delay, easing: "cubic-bezier(.5,0,.3,1)", fill: "forwards" });
  a.onfinish = () => g.remove();
  a.oncancel = () => g.remove();
}

export { CROSSED };
