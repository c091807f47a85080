// render.js: builds the table's parts from a state message. Every function
// returns elements; none keeps state.

import { h } from "./dom.js";
import { KINDS, CATEGORIES, cardName, plural, moveLabel, joinAnd } from "./words.js";

const AUCTION_TITLES = {
  police: "Police auction",
  seventh: "Auction: the row is full",
  forced: "Forced auction",
};

/** names returns the seats' display names. */
export function names(game, view) {
  if (view && view.players) return view.players;
  return game.seats.map((s, i) => (s.open ? `Seat ${i + 1} (open)` : s.name));
}

function cardClass(kind) {
  if (kind === "police") return "card k-police";
  if (["ring", "watch", "brooch", "necklace", "diamond"].includes(kind)) return "card k-jewel";
  if (kind === "bodyguard") return "card k-bodyguard";
  if (kind === "car" || kind === "driver") return "card k-car";
  if (kind === "thief") return "card k-thief";
  if (kind === "gold") return "card k-gold";
  return "card k-business";
}

function card(kind) {
  return h("li", { class: cardClass(kind) }, cardName(kind));
}

function cheques(values, label, faceDown) {
  if (!values || values.length === 0) return h("span", { class: "muted" }, "none");
  return h("ul", { class: "cheques", "aria-label": label },
    values.map((v) => h("li", { class: faceDown ? "cheque down" : "cheque" }, String(v))));
}

/** summary: round, police, centre, deck and whose turn. */
export function summary(game, view, you) {
  const n = names(game, view);
  let turn;
  if (view.phase === "over") turn = h("strong", {}, "The game is over.");
  else if (view.toMove === you) {
    turn = h("strong", { class: "your-turn" }, view.phase === "auction" ? "Your turn: bid or pass." : "Your turn.");
  } else {
    const bot = game.seats[view.toMove] && game.seats[view.toMove].bot;
    const what = view.phase === "auction" ? "to bid or pass" : "to move";
    turn = h("span", {}, `${n[view.toMove]}${bot ? " (bot)" : ""} ${what}.`);
  }
  return h("div", {},
    h("p", { class: "turn" }, turn),
    h("dl", { class: "facts" },
      h("div", {}, h("dt", {}, "Round"), h("dd", {}, `${view.round} of 3`)),
      h("div", {}, h("dt", {}, "Police"), h("dd", {},
        `${view.police} of ${view.policeLimit} `,
        h("meter", { min: 0, max: view.policeLimit, value: view.police, "aria-hidden": "true" }))),
      h("div", {}, h("dt", {}, "Centre cheque"), h("dd", {}, h("span", { class: "cheque" }, String(view.centre)))),
      h("div", {}, h("dt", {}, "Deck"), h("dd", {}, `${view.deckLeft} cards left`))));
}

/** row: the loot cards in the auction row. */
export function row(view) {
  if (view.row.length === 0) return h("p", { class: "muted" }, "The row is empty.");
  return h("div", {},
    h("p", { class: "muted" }, `${view.row.length} of 7 loot cards`),
    h("ul", { class: "cards" }, view.row.map(card)));
}

/** auction: the running auction, who bid what and who still decides. */
export function auction(game, view, you) {
  const a = view.auction;
  const n = names(game, view);
  const title = a.kind === "forced" ? `Forced auction called by ${n[a.initiator]}` : AUCTION_TITLES[a.kind] || a.kind;
  const stake = view.row.length
    ? `For the row (${view.row.length} card${view.row.length === 1 ? "" : "s"}) and the centre cheque ${view.centre}.`
    : `For the centre cheque ${view.centre} (the row is empty).`;
  const high = a.highBidder >= 0 ? `Highest bid: ${a.highBid} by ${n[a.highBidder]}.` : "No bids yet.";
  let duty = null;
  if (a.kind === "forced") {
    if (a.mustBid) duty = h("p", { class: "duty" }, `Nobody else bid: ${view.toMove === you ? "you" : n[a.initiator]} must bid now.`);
    else if (a.highBidder < 0) duty = h("p", { class: "duty" }, `If nobody bids, ${n[a.initiator]} (the caller) must bid.`);
  }
  const undecided = [];
  const rows = a.bids.map((part, seat) => {
    let text = part;
    if (part === "undecided") {
      undecided.push(n[seat]);
      text = seat === view.toMove ? "deciding now" : "still to decide";
    } else if (part === "pass") text = "passed";
    return h("tr", { class: seat === view.toMove ? "to-move" : null },
      h("th", { scope: "row" }, n[seat], seat === a.initiator ? " (started it, decides last)" : ""),
      h("td", {}, text));
  });
  return h("div", {},
    h("p", {}, h("strong", {}, title), ". ", stake),
    h("p", {}, high),
    duty,
    h("table", { class: "bids" },
      h("caption", { class: "visually-hidden" }, "Each player's part in the auction"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Bid"))),
      h("tbody", {}, rows)),
    undecided.length ? h("p", { class: "muted" }, `Still to decide: ${joinAnd(undecided)}.`) : null);
}

function holdings(held) {
  const kinds = KINDS.filter((k) => held[k] > 0);
  if (kinds.length === 0) return h("span", { class: "muted" }, "nothing yet");
  return h("ul", { class: "cards small" },
    kinds.map((k) => h("li", { class: cardClass(k) }, plural(k, held[k]))));
}

/** players: each seat's cheques, holdings and points. */
export function players(game, view, you) {
  const n = names(game, view);
  return view.seats.map((s, seat) => {
    const info = game.seats[seat] || {};
    const badges = [];
    if (seat === you) badges.push(h("span", { class: "badge you" }, "you"));
    if (info.bot) badges.push(h("span", { class: "badge" }, `bot: ${info.bot}`));
    if (seat === view.toMove) badges.push(h("span", { class: "badge turn" }, "to move"));
    if (view.winners.includes(seat)) badges.push(h("span", { class: "badge win" }, "winner"));
    return h("article", { class: seat === view.toMove ? "player to-move" : "player", "aria-label": n[seat] },
      h("h4", {}, n[seat], " ", badges),
      h("dl", {},
        h("dt", {}, "Cheques face up"), h("dd", {}, cheques(s.faceUp, `${n[seat]}'s face-up cheques`, false)),
        h("dt", {}, "Face down (next round)"), h("dd", {}, cheques(s.faceDown, `${n[seat]}'s face-down cheques`, true)),
        h("dt", {}, "Holdings"), h("dd", {}, holdings(s.holdings)),
        h("dt", {}, "Points"), h("dd", {}, String(s.total))));
  });
}

/** moves: a button for each legal move, grouped. send(token) plays it. */
export function moves(view, send, disabled) {
  const groups = { turn: [], thieves: [], auction: [] };
  for (const token of view.legal) {
    const verb = token.split(" ")[0];
    const group = verb === "thief" ? groups.thieves : verb === "bid" || verb === "pass" ? groups.auction : groups.turn;
    group.push(h("button", { type: "button", class: verb === "pass" ? "move pass" : "move", "data-move": token,
      disabled, onclick: () => send(token) }, moveLabel(token)));
  }
  const out = [];
  if (groups.turn.length) out.push(h("div", { class: "move-group", role: "group", "aria-label": "Actions" }, groups.turn));
  if (groups.thieves.length) {
    out.push(h("fieldset", { class: "move-group" }, h("legend", {}, "Use thieves"), groups.thieves));
  }
  if (groups.auction.length) out.push(h("div", { class: "move-group", role: "group", "aria-label": "Bid or pass" }, groups.auction));
  return out;
}

/** scores: one table per scored round, and the totals. */
export function scores(game, view) {
  const n = names(game, view);
  const rounds = view.seats[0].scores.length;
  const tables = [];
  for (let r = 0; r < rounds; r++) {
    const cats = r === 2 ? CATEGORIES : CATEGORIES.filter((c) => c !== "businesses" && c !== "cheques");
    tables.push(h("div", { class: "scroll" }, h("table", { class: "scores" },
      h("caption", {}, `Round ${r + 1}`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Category"), n.map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {},
        cats.map((c) => h("tr", {}, h("th", { scope: "row" }, c), view.seats.map((s) => h("td", {}, String(s.scores[r][c]))))),
        h("tr", { class: "total" }, h("th", { scope: "row" }, "round total"),
          view.seats.map((s) => h("td", {}, String(s.scores[r].total))))))));
  }
  return tables;
}

/** result: the winners and the final ranking. */
export function result(game, view) {
  const n = names(game, view);
  const w = view.winners;
  const best = w.length ? view.seats[w[0]].total : 0;
  const headline = w.length === 1
    ? `${n[w[0]]} wins with ${best} points.`
    : `${joinAnd(w.map((s) => n[s]))} share the win with ${best} points.`;
  const ranking = view.seats.map((s, seat) => ({ seat, total: s.total })).sort((a, b) => b.total - a.total);
  return [h("p", { class: "headline" }, headline),
    h("ol", { class: "ranking" }, ranking.map((r) => h("li", {}, `${n[r.seat]}: ${r.total} points`)))];
}
