// render.js: the table, drawn from one view (the protocol's View) and the
// events so far, which the server tells in sentences. The live page and
// the replay viewer both use renderTable; it knows nothing of connections,
// so it also runs under node in the tests.
//
// The table is laid out for decisions: a strip per player (name, cheques,
// points, holdings, part in the auction, what the lot is worth to them),
// the board (police track and raid risk, piles, centre cheque, row, the
// undrawn cards), and the decision panel (whose turn, the auction's state,
// what the lot is worth to you, your moves) side by side on a desktop and
// on one phone screen.
//
// Stable hooks for tests and the guided first game (ids unless said):
//   #seats (the strips), #seat-N / .strip[data-seat=N] (a player's strip),
//   .strip[data-seat=N] [data-cheque] (a face-up cheque), #my-cheques (the
//   viewer's face-up cheques), #board, #police (the track), #risk (the raid
//   risk), #piles, #centre, #row, #deck (the undrawn cards), #decide (the
//   decision panel), #turn, #latest (the newest event), #auction, #stake,
//   #moves, button[data-move="draw" | "call" | "pass" | "bid N" |
//   "thief ..."], [data-row-card] (a row card to take with a thief),
//   #round-end (the round-end overlay), #round-continue, #game-end,
//   #final-table, #score-chart, #scores, #log; [data-clock-seat=N] (a
//   player's clock, at a timed table), .badge-standin (a bot plays for the
//   player), #take-back, #premove (deciding ahead in an auction),
//   button[data-premove="pass" | "bid N" | ""]; #rematch and #leave
//   (rematch.js).

import { JEWELS, BUSINESSES, GROUPS, card, back, cheque, chip } from "./cards.js";
import { h, sync, setAttr, isLeaving, dropLeaving } from "./dom.js";
import { T, CATEGORIES, list, count, moveLabel, thiefToken, signed, num, points, displayNames, tableKind } from "./words.js";
import { scorePanel, roundOverlay, roundBanner, gameEnd } from "./scores.js";
import { hintsBox } from "./hints.js";
import { tick, left, lowAt } from "./clock.js";
import { leaveBox } from "./rematch.js";

export { T };

/**
 * coverAround makes the page's few parts around the table that the
 * round's end covers too (marked data-under-overlay: the header, the chat,
 * the links) inert while it is open, and no longer once it is not, or the
 * table went (on being true or false). The table itself skips its
 * contents meanwhile (renderTable).
 */
export function coverAround(root, on) {
  const mem = root.razzia;
  if (!mem || mem.covered === on || typeof document === "undefined" || !document.querySelectorAll) return;
  mem.covered = on;
  for (const e of document.querySelectorAll("[data-under-overlay]")) e.inert = on;
}

/**
 * renderTable draws the table into root (replacing what was there).
 *
 * snapshot: the view (protocol.View JSON). events: every event so far,
 * oldest first (the log), each with its sentence (text) as the server told
 * it. catalogue: the language's flat JSON catalogue (or a translator
 * function). options:
 *   game      GameInfo, for the status, seat kinds (bots) and names
 *   seat      the viewer's seat (default snapshot.seat; -1 a spectator)
 *   onMove    called with a legal move's token when a move button is pressed;
 *             without it no move buttons are drawn (the replay viewer)
 *   busy      a move is on its way: the move buttons are disabled
 *   animate   follow a drawn card or a won lot with the eye (default true;
 *             off under prefers-reduced-motion)
 *   log       false to leave the game log out
 *   replay    true in the replay viewer: no "you are watching", and a
 *             round's end shows inline at the step that ended it (recent:
 *             that step's events) instead of as an overlay
 *   links     {replay, record, download} for the game-end screen
 *   clock     the table's clocks (clock.js received()), counted down in the
 *             strips; absent at an untimed table
 *   onTakeBack  called when the viewer, whose seat a bot plays, takes it back
 *   onLeave   called when the viewer leaves the table (a bot plays for
 *             them); left: they did, and a bot plays for them now
 *   rematch   {offer, onAnswer(accept), busy}: the rematch at the game's
 *             end (rematch.js)
 *   ratings   {name: figure}: the ratings of the signed-in players, shown
 *             beside their names ("1672?")
 *   presence  called with a seat (not the viewer's), returns what shows
 *             beside the name whether its person is there, or null: drawn
 *             with the table, so that a redraw keeps it
 *   onPreMove called with "pass", "bid N" or "" (withdraw) to decide ahead
 *             in the running auction; preMove and preMoveDropped are the
 *             viewer's own pre-move and why it was dropped
 *   onDrawn   called after every drawing of the table, its own redraws
 *             (the round's scores in a task of their own, a thief's card
 *             picked, the round's continue button) included: a redraw
 *             takes away any class the page added to the table's elements
 *             (the guide's pointer), which it may add again at once
 *
 * root gets data-status, data-phase, data-seat, data-to-move and data-moves.
 * A redraw of the same root changes only the elements that differ (dom.js
 * sync): focus, scroll positions, open details, a half-made thieves
 * choice and a closed round-end overlay survive it.
 */
export function renderTable(root, snapshot, events, catalogue, options = {}) {
  const t = T(catalogue);
  const v = snapshot;
  const o = { seat: v.seat, animate: true, log: true, ...options };
  const seat = typeof o.seat === "number" ? o.seat : -1;
  const game = o.game || null;
  const status = game ? game.status : v.phase === "over" ? "finished" : "playing";
  const { names, tell } = displayNames(t, v.players, game);
  const mem = root.razzia || (root.razzia = { moves: -1, selected: [], dismissed: null, shown: 0, covered: false });
  if (mem.moves !== v.moves) mem.selected = [];
  mem.args = [snapshot, events, catalogue, options];
  mem.redraw = () => renderTable(root, ...mem.args);
  events = events || [];

  setAttr(root, "data-status", status);
  setAttr(root, "data-phase", v.phase);
  setAttr(root, "data-seat", String(seat));
  setAttr(root, "data-to-move", String(v.toMove));
  setAttr(root, "data-moves", String(v.moves));

  const mine = seat >= 0 && v.toMove === seat && v.legal.length > 0 && typeof o.onMove === "function";
  const ctx = { t, v, seat, game, names, tell, mine, o, mem, root, events };

  // The round-end overlay: a round that ends while the page looks on
  // shows until the reader goes on; one that ended before the page
  // opened only if its next round has not decided a lot yet.
  const ended = lastRoundEnd(events);
  if (mem.dismissed === null) mem.dismissed = ended ? ended.event.round - (ended.settled ? 0 : 1) : 0;
  let overlay = !o.replay && ended && v.phase !== "over" && ended.event.round > mem.dismissed ? ended.event : null;
  // Nothing covers a decision whose clock runs: when one of the viewer's
  // begins, the scores step aside into the side panel, and a note in the
  // decision panel points there.
  if (overlay && mine && o.clock && left(o.clock, seat).running) {
    mem.dismissed = overlay.round;
    mem.roundNote = overlay.round;
    overlay = null;
  }
  const banner = o.replay && v.phase !== "over" ? (o.recent || []).find((e) => e.kind === "roundend") : null;

  // Keep the reader's place across the redraw.
  const focus = focusKey(root);

  const over = v.phase === "over";
  // The game's end and a round's end are new screens: their score tables
  // and chart come in a task of their own, so that no one task draws all
  // of it.
  const fresh = (over && !mem.overDrawn) || (overlay && mem.shown !== overlay.round);
  ctx.later = fresh && typeof setTimeout === "function" && typeof requestAnimationFrame === "function" && !mem.later;
  if (ctx.later) {
    mem.later = true;
    setTimeout(() => {
      mem.later = false;
      mem.redraw();
    }, 0);
  }
  if (over) mem.overDrawn = true;
  const main = h("div", { class: "tbl-main", "data-key": "main" },
    over ? gameEnd(ctx, o.links) : null,
    banner ? roundBanner(ctx, banner) : null,
    // After the game the board is empty: its end takes the place.
    over ? null : board(ctx),
    over ? null : decidePanel(ctx));
  // Once the game is over its end comes first, before the strips.
  // Behind the round's end nothing can be reached: the table skips its
  // contents (content-visibility: hidden), which no Tab, pointer, search
  // or screen reader reaches, as inert would keep them, for the style of
  // one element (inert restyles each of the table's, several hundred).
  const tbl = h("div", { class: `tbl${over ? " tbl-over" : ""}${overlay ? " tbl-covered" : ""}`, "data-players": String(v.players.length),
    "aria-hidden": overlay ? "true" : null },
    over ? [main, seatsPanel(ctx)] : [seatsPanel(ctx), main],
    h("div", { class: "tbl-side", "data-key": "side" },
      v.seats.some((s) => s.scores.length > 0)
        ? kept(ctx, "scores", "section", [names, v.seats.map((s) => [s.total, s.scores])], () => scorePanel(ctx), ctx.later) : null,
      o.log ? logPanel(ctx) : null));
  coverAround(root, !!overlay);
  const dialog = overlay ? roundOverlay(ctx, overlay, () => {
    mem.dismissed = overlay.round;
    // The next round's first clock waits for the players who read the
    // scores: tell the server this one has.
    if (seat >= 0 && o.onContinue) o.onContinue();
    renderTable(root, ...mem.args);
    // On to the next move, at the frame: focusing now would lay the
    // changed page out.
    mem.refocus = mem.refocus || ["any", ""];
  }) : null;
  // The clocks show their time before the table goes in, so that only a
  // clock whose figure changed is touched.
  tick(tbl, t, o.clock);
  // Only what changed is changed: the rest, and the reader's focus,
  // scroll and open details with it, stays as it is.
  const focused = typeof document !== "undefined" ? document.activeElement : null;
  sync(root, tbl, dialog);
  // The strips left as they were show the clock's new time too.
  tick(root, t, o.clock);

  // A round's end, new, takes the focus: at the frame, which lays the
  // page out anyway (focusing lays it out to scroll the button in sight).
  if (overlay && mem.shown !== overlay.round) {
    mem.shown = overlay.round;
    mem.focusContinue = true;
  } else if (focus && (!focused || !focused.isConnected || focused !== document.activeElement || isLeaving(focused))) {
    // Focusing lays the page out: the frame does, once. A focused part
    // the redraw took out waits, hidden, for the frame (dom.js sync).
    mem.refocus = mem.refocus || focus;
  }
  mem.moves = v.moves;
  // What needs the new layout waits for the frame, which lays the page out
  // once anyway: reading it here would lay it out a second time, and
  // several messages may come before a frame.
  beforeFrame(mem, () => {
    mem.drawn = true;
    afterLayout(root, mem);
  });
  if (typeof o.onDrawn === "function") o.onDrawn();
}

// kept returns build()'s element, or, when what it shows (key, in the
// page's language) is as at the last redraw and its element #id is in the
// page, a stand-in that tells sync to leave that element as it is: most
// of a table does not change with a bid. later: not now, whatever the
// key (the element in the page, if any, stays until the next redraw).
function kept(ctx, id, tag, key, build, later) {
  const { mem, root } = ctx;
  const memo = mem.memo || (mem.memo = {});
  const lang = typeof document !== "undefined" && document.documentElement ? document.documentElement.lang : "";
  const k = JSON.stringify([lang, key]);
  const live = root.querySelector && root.querySelector(`#${id}`);
  if (live && (later || memo[id] === k)) {
    const el = h(tag, { id });
    el.__keep = true;
    return el;
  }
  if (later) return null;
  memo[id] = k;
  return build();
}

// lastRoundEnd finds the newest round end, and whether a lot was decided
// after it (settled).
function lastRoundEnd(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.kind === "roundend") {
      const settled = events.slice(i + 1).some((x) => x.kind === "win" || x.kind === "nowinner" || x.kind === "thieves");
      return { event: e, settled };
    }
  }
  return null;
}

// ---- the players' strips --------------------------------------------------------

function seatsPanel(ctx) {
  const { t, v } = ctx;
  return h("section", { class: "seats", id: "seats", "aria-label": t("web.seats") },
    h("ol", { class: "strip-list" }, v.seats.map((s, i) => kept(ctx, `seat-${i}`, "li", stripKey(ctx, s, i), () => strip(ctx, s, i)))));
}

// stripKey is everything a player's strip shows: a bid changes the
// bidder's strip and the turn's two, and leaves the others in the page.
function stripKey(ctx, s, i) {
  const { v } = ctx;
  return [headKey(ctx, s, i), s.faceUp, s.faceDown, s.holdings, v.stakes && v.stakes[i] && v.stakes[i].gain, v.row.length > 0 || v.round === 3];
}

// headKey is everything a strip's head shows: its name, marks and points
// and the player's part in the auction.
function headKey({ v, seat, names, game, o }, s, i) {
  const a = v.auction;
  const presence = o.presence && i !== seat ? o.presence(i) : null;
  return [i === seat, v.toMove === i, v.phase === "over", v.phase === "over" && v.winners.includes(i), s.total, s.faceUp.length === 0,
    a && [a.initiator === i, a.highBidder === i, a.bids[i] || ""],
    names[i], !!(game && game.seats[i] && game.seats[i].standIn), ratingOf(o, game, i), presence ? presence.outerHTML : "",
    !!o.clock && clockAttrs(game, i)];
}

// strip is one player, compact: name, part in the auction, what the lot is
// worth to them, points; cheques face up and down with their sum; the
// cards held, by kind. Each part is built again only when what it shows
// changed: a drawn card changes what the lot is worth to every player,
// not their cheques and cards.
function strip(ctx, s, i) {
  const { v, seat, names } = ctx;
  const toMove = v.toMove === i;
  const winner = v.phase === "over" && v.winners.includes(i);
  const out = v.phase !== "over" && s.faceUp.length === 0;
  const a = v.auction;
  const high = a && a.highBidder === i;
  const cls = `strip s${i}${toMove ? " strip-turn" : ""}${i === seat ? " strip-you" : ""}${winner ? " strip-winner" : ""}` +
    `${out ? " strip-out" : ""}${high ? " strip-high" : ""}`;
  const stake = v.stakes && v.stakes[i];
  const showStake = stake && v.phase !== "over" && (v.row.length > 0 || v.round === 3);
  return h("li", { class: cls, id: `seat-${i}`, "data-seat": String(i), "aria-label": names[i] },
    kept(ctx, `seat-${i}-head`, "div", headKey(ctx, s, i), () => stripHead(ctx, s, i)),
    kept(ctx, `seat-${i}-body`, "div", [s.faceUp, s.faceDown, s.holdings, i === seat, names[i], showStake && stake.gain],
      () => stripBody(ctx, s, i, showStake && stake)));
}

// stripHead is a player's name, marks (presence, rating, you, winner,
// stand-in, clock), points and part in the auction.
function stripHead(ctx, s, i) {
  const { t, v, seat, names, game, o } = ctx;
  const standIn = game && game.seats[i] && game.seats[i].standIn;
  const winner = v.phase === "over" && v.winners.includes(i);
  const a = v.auction;
  return h("div", { class: "strip-head", id: `seat-${i}-head` },
      h("span", { class: `seat-dot s${i}`, "aria-hidden": "true" }),
      h("span", { class: "strip-name", title: names[i] }, names[i]),
      o.presence && i !== seat ? o.presence(i) : null,
      ratingOf(o, game, i) ? h("span", { class: "strip-rating", title: t("web.rating.of", { player: names[i] }) }, ratingOf(o, game, i)) : null,
      i === seat ? h("span", { class: "badge badge-you" }, t("term.you")) : null,
      winner ? h("span", { class: "badge badge-win" }, t("web.seat.winner")) : null,
      standIn ? h("span", { class: "badge badge-standin", title: t("web.standin") }, t("web.standin")) : null,
      o.clock && v.phase !== "over" ? h("span", { class: "strip-clock", ...clockAttrs(game, i), role: "timer",
        title: t("web.clock.label", { player: names[i], time: "" }).trim() }) : null,
      h("span", { class: "strip-points", title: t("web.seat.points.title") }, points(t, s.total)),
      h("span", { class: "strip-break", "aria-hidden": "true" }),
      a && a.initiator === i ? h("span", { class: "strip-caller", title: t("web.auction.caller"), role: "img", "aria-label": t("web.auction.caller") }, "★") : null,
      partOf(ctx, s, i));
}

// stripBody is a player's cheques face up and down with their sum, the
// cards held, by kind, and what the lot is worth to them (stake).
function stripBody(ctx, s, i, stake) {
  const { t, seat } = ctx;
  const sum = s.faceUp.reduce((x, c) => x + c, 0) + s.faceDown.reduce((x, c) => x + c, 0);
  const up = i === seat ? "my-cheques" : `seat-${i}-cheques`;
  return h("div", { class: "strip-body", id: `seat-${i}-body` },
      kept(ctx, up, "span", [s.faceUp], () => h("span", { class: "strip-cheques", id: up, role: "group",
        "aria-label": s.faceUp.length ? t("web.seat.faceup", { cheques: s.faceUp.join(", ") }) : t("web.seat.out") },
      s.faceUp.length
        ? s.faceUp.map((c) => cheque(c, t, { attrs: { "data-cheque": String(c) } }))
        : h("span", { class: "none", "aria-hidden": "true" }, t("web.seat.out")))),
      s.faceDown.length ? kept(ctx, `seat-${i}-down`, "span", [s.faceDown], () => h("span", { class: "strip-down", id: `seat-${i}-down`,
        role: "group", "aria-label": t("web.seat.facedown", { cheques: s.faceDown.join(", ") }) },
      s.faceDown.map((c) => cheque(c, t, { down: true })))) : null,
      h("span", { class: "strip-sum", title: t("web.seat.sum.title") },
        h("span", { "aria-hidden": "true" }, t("web.seat.sum", { n: sum })),
        h("span", { class: "visually-hidden" }, t("web.seat.sum.label", { n: sum }))),
      GROUPS.some(([, kinds]) => kinds.some((k) => s.holdings[k] > 0))
        ? kept(ctx, `seat-${i}-hold`, "ul", [s.holdings], () => holdings(ctx, s, i)) : null,
      stake ? h("span", { class: `strip-stake${stake.gain.total > 0 ? " pos" : stake.gain.total < 0 ? " neg" : ""}`,
        title: stakeText(ctx, stake), role: "img", "aria-label": stakeText(ctx, stake) },
      h("span", { class: "strip-stake-label" }, t("web.stake.lot")), " ", signed(stake.gain.total)) : null);
}

// holdings are the cards a player holds, a box for each scoring group
// (cars with drivers, the jewels, the businesses), each kind with its
// count beside it.
function holdings({ t }, s, i) {
  const held = [];
  for (const [group, kinds] of GROUPS) {
    const chips = kinds.filter((k) => s.holdings[k] > 0)
      .map((k) => h("span", { class: "hold", "data-key": k }, chip(k, s.holdings[k], count(t, k, s.holdings[k]))));
    if (chips.length) held.push(h("li", { class: "hold-group", "data-group": group, "data-key": group }, chips));
  }
  return h("ul", { class: "strip-hold", id: `seat-${i}-hold`, "aria-label": t("web.seat.holdings") }, held);
}

// ratingOf is the rating figure of a signed-in player's seat, when the
// page knows it (options.ratings, by name: the server's display figure).
function ratingOf(o, game, i) {
  const seat = game && game.seats[i];
  return seat && seat.account && o.ratings ? o.ratings[seat.name] || "" : "";
}

// partOf is a player's part in the auction running, or their turn.
function partOf({ t, v }, s, i) {
  const a = v.auction;
  if (!a) {
    if (v.phase === "over") return null;
    if (s.faceUp.length === 0) return h("span", { class: "strip-part part-out" }, t("web.seat.out"));
    return v.toMove === i ? h("span", { class: "strip-part part-now" }, t("web.seat.turn")) : null;
  }
  const b = a.bids[i] || "undecided";
  if (b.startsWith("bid ")) {
    return h("span", { class: `strip-part ${a.highBidder === i ? "part-high" : "part-bid"}` }, t("bids.bid", { cheque: b.slice(4) }));
  }
  if (b === "pass") return h("span", { class: "strip-part part-pass" }, t("bids.pass"));
  if (b === "passed over") {
    // A player without cheques is out of the round, not outbid.
    return h("span", { class: "strip-part part-pass" }, s.faceUp.length === 0 ? t("web.seat.out") : t("web.bid.passedover"));
  }
  if (v.toMove === i) return h("span", { class: "strip-part part-now" }, t("web.bid.deciding"));
  return h("span", { class: "strip-part part-wait" }, t("bids.undecided"));
}

// stakeText says what the lot is worth to a seat, by category.
function stakeText({ t, names }, stake) {
  return t("web.stake.seat", { player: names[stake.seat], points: gainText(t, stake.gain) });
}

// gainText is a gain by category: "Bodyguards +5, Gold coins +3 (+8)".
function gainText(t, gain) {
  const parts = CATEGORIES.filter((c) => gain[c]).map((c) => `${t(`cat.${c}`)} ${signed(gain[c])}`);
  if (parts.length === 0) return t("web.stake.none");
  if (parts.length === 1) return parts[0];
  return `${parts.join(", ")} (${signed(gain.total)})`;
}

// ---- the board ----------------------------------------------------------------------

function board(ctx) {
  const { t, v } = ctx;
  return h("section", { class: "board", id: "board", "aria-label": t("web.board") },
    kept(ctx, "police", "div", [v.police, v.policeLimit, v.phase, v.raid, v.remaining.police, v.deckLeft], () => policeTrack(ctx)),
    h("div", { class: "board-mid" },
      kept(ctx, "piles", "div", [v.deckLeft, canDraw(ctx), !!ctx.o.busy], () => piles(ctx)),
      kept(ctx, "centre", "div", [v.centre], () => centre(ctx)),
      kept(ctx, "row", "div", [v.row, thievesOn(ctx) && [v.moves, ctx.mem.selected, !!ctx.o.busy]], () => row(ctx))),
    kept(ctx, "deck", "div", [v.remaining, v.deckLeft], () => deck(ctx)));
}

function policeTrack(ctx) {
  const { t, v } = ctx;
  const limit = v.policeLimit;
  const left = limit - v.police;
  const danger = v.phase !== "over" && left <= 2 ? (left <= 1 ? " danger-high" : " danger") : "";
  const slots = () => {
    const out = [];
    for (let i = 0; i < limit; i++) {
      const filled = i < v.police;
      const last = i === limit - 1;
      out.push(h("li", { class: `police-slot${filled ? " filled" : ""}${last ? " last" : ""}`, "aria-hidden": "true" },
        filled ? card("police", t, { size: "mini", tag: "span" }) : h("span", { class: "slot-num" }, String(i + 1))));
    }
    return out;
  };
  return h("div", { class: `police${danger}`, id: "police", role: "group", "aria-label": t("web.police.label", { n: v.police, limit }) },
    h("div", { class: "police-head" },
      h("span", { class: "zone-title" }, t("term.police")),
      h("span", { class: "police-count" }, t("web.police.count", { n: v.police, limit }))),
    // A drawn card changes the risk: the track, only a police card.
    kept(ctx, "police-track", "ol", [v.police, limit], () => h("ol", { class: "police-track", id: "police-track" }, slots())),
    v.phase !== "over" ? risk(t, v) : null);
}

// risk is the raid risk: the chance that the next card is police, and
// what one more police card means (R7).
function risk(t, v) {
  const r = v.raid || { police: v.police, limit: v.policeLimit, policeLeft: v.remaining.police || 0, cardsLeft: v.deckLeft };
  const toRaid = Math.max(r.limit - r.police, 0);
  const chance = r.cardsLeft > 0 ? r.policeLeft / r.cardsLeft : 0;
  return h("p", { class: `risk${toRaid === 1 ? " risk-next" : toRaid === 2 ? " risk-soon" : ""}`, id: "risk" },
    h("span", { class: "risk-chance" }, t("web.raid.chance", { percent: Math.round(100 * chance), police: r.policeLeft, cards: r.cardsLeft })),
    " ",
    h("span", { class: "risk-more" }, toRaid === 1 ? t("web.raid.next") : t("web.raid.more", { n: toRaid })));
}

// canDraw: the viewer may draw now.
function canDraw({ v, mine }) {
  return mine && v.legal.includes("draw") && v.deckLeft > 0;
}

function piles(ctx) {
  const { t, v, o, mem } = ctx;
  // One stock in the engine, drawn as the rulebook's two piles (R5).
  const inner = [h("span", { class: "pile-pair", "aria-hidden": "true" }, back(v.deckLeft === 0 ? "empty" : ""), back(v.deckLeft < 2 ? "empty" : "")),
    h("span", { class: "pile-count" }, t("web.pile.count", { n: v.deckLeft }))];
  // The piles stay in the page while they look the same: their button
  // moves with the newest options.
  const pile = canDraw(ctx)
    ? h("button", { type: "button", class: "pile pile-button", "data-move": "draw", "aria-label": t("web.pile.draw", { n: v.deckLeft }),
      disabled: o.busy, onclick: () => { park(ctx); mem.args[3].onMove("draw"); } }, inner)
    : h("div", { class: "pile", role: "img", "aria-label": t("web.piles.label", { n: v.deckLeft }) }, inner);
  return h("div", { class: "piles", id: "piles" }, h("span", { class: "zone-title" }, t("web.piles")), pile);
}

function centre({ t, v }) {
  return h("div", { class: "centre", id: "centre" },
    h("span", { class: "zone-title" }, t("term.centre.cheque")),
    cheque(v.centre, t, { extra: "cheque-centre", label: t("web.centre.label", { value: v.centre }) }));
}

// thievesOn: the viewer may pick row cards for their thieves now.
function thievesOn({ v, mine }) {
  return mine && v.phase === "turn" && v.legal.some((m) => m.startsWith("thief"));
}

function row(ctx) {
  const { t, v, mem, o } = ctx;
  const thieves = thievesOn(ctx);
  // A drawn card builds its slot: the others stay as they are.
  const slots = [];
  for (let i = 0; i < 7; i++) {
    const kind = v.row[i];
    const id = `row-slot-${i}`;
    const on = thieves && mem.selected.includes(i);
    slots.push(kept(ctx, id, "li", [kind || "", thieves && [on, !!o.busy, v.moves]], () => {
      if (!kind) return h("li", { class: "row-slot empty", id, "aria-hidden": "true" }, h("span", { class: "slot-num" }, String(i + 1)));
      if (!thieves) return h("li", { class: "row-slot", id, "data-index": String(i) }, card(kind, t));
      return h("li", { class: "row-slot", id }, card(kind, t, {
        tag: "button",
        extra: on ? "picked" : "pickable",
        attrs: { type: "button", "data-row-card": String(i), "aria-pressed": on ? "true" : "false", disabled: o.busy,
          "aria-label": t("web.row.pick", { card: t(`card.${kind}`) }), onclick: () => toggle(ctx, i) },
      }));
    }));
  }
  return h("div", { class: "row", id: "row", role: "group", "aria-label": t("web.row.label", { n: v.row.length }) },
    h("div", { class: "zone-head" },
      h("span", { class: "zone-title" }, t("term.row")),
      h("span", { class: "row-count" }, t("web.row.count", { n: v.row.length }))),
    h("ol", { class: "row-cards" }, slots));
}

// DECK groups the undrawn cards as a player counts them: jewels and
// businesses together (the title names each kind), cars apart from drivers.
const DECK = [["police", ["police"]], ["jewels", JEWELS], ["bodyguard", ["bodyguard"]], ["car", ["car"]], ["driver", ["driver"]],
  ["thief", ["thief"]], ["gold", ["gold"]], ["businesses", BUSINESSES]];

// deck is the composition of the undrawn cards (public: R1 lists the deck).
function deck(ctx) {
  const { t, v } = ctx;
  const items = [];
  for (const [name, kinds] of DECK) {
    const n = kinds.reduce((a, k) => a + (v.remaining[k] || 0), 0);
    let label = kinds.length > 1 ? t(`web.deck.${name}`, { n }) : count(t, name, n);
    if (kinds.length > 1 && n > 0) {
      label += ": " + list(t, kinds.filter((k) => v.remaining[k]).map((k) => count(t, k, v.remaining[k])));
    }
    // A drawn card builds its family's line: the others stay.
    items.push(kept(ctx, `deck-${name}`, "li", [n, label], () =>
      h("li", { class: `deck-item${n === 0 ? " deck-none" : ""}`, id: `deck-${name}`, "data-family": name, "data-count": String(n) },
        chip(kinds[kinds.length > 1 ? kinds.length - 1 : 0], 1, label), h("span", { class: "deck-n", "aria-hidden": "true" }, String(n)))));
  }
  return h("div", { class: "deck", id: "deck", role: "group", "aria-label": t("web.deck.label", { n: v.deckLeft }) },
    h("span", { class: "zone-title" }, t("web.deck.title")),
    h("ul", { class: "deck-list" }, items));
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

// ---- the decision panel ---------------------------------------------------------------

// decidePanel is what a decision needs, beside the move buttons: whose
// turn, the newest event, the auction's state, what the lot is worth to
// you.
function decidePanel(ctx) {
  const { t, v, seat, names, tell, events, mine, o, game } = ctx;
  let turn;
  let cls = "turn";
  if (v.toMove === seat && seat >= 0) {
    turn = v.phase === "auction" ? t("web.turn.you.auction") : t("term.yourturn");
    cls += " turn-you";
  } else {
    turn = t(v.phase === "auction" ? "web.turn.other.auction" : "term.tomove", { player: names[v.toMove] || "" });
  }
  const said = events.filter((e) => e.text);
  const latest = said.length ? said[said.length - 1] : null;
  // The clock of the decision running, large, beside it.
  const clock = o.clock && v.phase !== "over" && v.toMove >= 0 && o.clock.running === v.toMove
    ? h("span", { class: `decide-clock${v.toMove === seat ? " decide-clock-mine" : ""}`, id: "decide-clock", role: "timer",
      ...clockAttrs(game, v.toMove), "aria-label": t("web.clock.label", { player: v.toMove === seat ? t("term.you") : names[v.toMove], time: "" }).trim() })
    : null;
  return h("section", { class: `decide${mine ? " decide-mine" : ""}`, id: "decide", tabindex: "-1", "aria-labelledby": "turn" },
    h("div", { class: "decide-head" },
      h("span", { class: "round" }, t("term.round.n", { round: v.round })),
      game && !o.replay ? h("span", { class: `table-kind${game.rated ? " is-rated" : ""}`, id: "table-kind" }, tableKind(t, game)) : null,
      h("h2", { class: cls, id: "turn" }, turn),
      clock,
      seat < 0 && !o.replay ? h("span", { class: "watching" }, t("web.watching")) : null),
    roundNote(ctx),
    latest ? h("p", { class: `latest ev-${latest.kind}`, id: "latest" }, tell(latest.text)) : null,
    takeBackBox(ctx),
    v.auction ? auctionState(ctx) : null,
    stakeLine(ctx),
    droppedLine(ctx),
    mine ? movesPanel(ctx) : null,
    mine ? null : preMoveBox(ctx),
    // At a casual table only: options.hints is absent at a rated one.
    mine && o.hints ? hintsBox(t, v, o.hints.state, o.hints.ask) : null,
    leaveBox(ctx));
}

// clockAttrs marks a clock element for tick(): its seat, the time left
// under which it shows low (10 s, or a tenth of the pace's decision when
// that is longer) and the pace's kind (correspondence counts days and
// vacation).
function clockAttrs(game, seat) {
  const pace = game && game.pace;
  return { "data-clock-seat": String(seat), "data-clock-low": String(lowAt(pace)), "data-clock-kind": (pace && pace.kind) || "live" };
}

// roundNote points to the scores of the round just ended, which stepped
// aside for the viewer's decision, until the new round settles a lot.
function roundNote({ t, v, mem, events, root }) {
  const ended = lastRoundEnd(events);
  if (!ended || ended.settled || mem.roundNote !== ended.event.round || v.round !== ended.event.round + 1) return null;
  return h("p", { class: "round-note", id: "round-note", role: "status" },
    t("web.round.note", { round: ended.event.round }), " ",
    h("button", { type: "button", class: "small", id: "round-note-scores", onclick: () => {
      const el = root.querySelector && root.querySelector("#scores");
      if (el && el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
      if (el && el.focus) el.focus({ preventScroll: true });
    } }, t("web.round.note.show")));
}

function auctionState({ t, v, seat, names }) {
  const a = v.auction;
  const n = v.players.length;
  const order = [];
  for (let k = 1; k <= n; k++) order.push((a.initiator + k) % n);
  const undecided = order.filter((s) => (a.bids[s] || "undecided") === "undecided").map((s) => (s === seat ? t("term.you") : names[s]));
  let obligation = null;
  if (a.kind === "forced") {
    if (a.mustBid) {
      obligation = h("p", { class: "must-bid", role: "note" },
        a.initiator === seat ? t("web.auction.mustbid.you") : t("auction.mustbid", { player: names[a.initiator] }));
    } else if (a.highBidder < 0) {
      obligation = h("p", { class: "obligation" }, t("web.auction.obligation", { player: names[a.initiator] }));
    }
  }
  return h("div", { class: `auction auction-${a.kind}`, id: "auction" },
    h("p", { class: "auction-title" }, h("strong", {}, t(`auction.${a.kind}`)), " ",
      h("span", { class: "auction-by" }, t("web.auction.by", { player: a.initiator === seat ? t("term.you") : names[a.initiator] }))),
    h("p", { class: "auction-high" },
      a.highBidder >= 0 ? t("auction.highbid", { player: a.highBidder === seat ? t("term.you") : names[a.highBidder], cheque: a.highBid }) : t("auction.nobid")),
    undecided.length ? h("p", { class: "auction-left" }, t("web.auction.left", { players: list(t, undecided) })) : null,
    obligation);
}

// stakeLine says what the lot is worth to the viewer if they won it now at
// their lowest bid and the round ended.
function stakeLine({ t, v, seat }) {
  if (seat < 0 || !v.stakes || !v.stakes[seat] || (v.row.length === 0 && v.round < 3)) return null;
  const st = v.stakes[seat];
  return h("p", { class: "stake", id: "stake" },
    h("span", { class: "stake-label" }, st.bid > 0 ? t("web.stake.you", { cheque: st.bid }) : t("web.stake.you.nobid")), " ",
    h("strong", { class: st.gain.total > 0 ? "pos" : st.gain.total < 0 ? "neg" : "" }, gainText(t, st.gain)));
}

function movesPanel(ctx) {
  const { t, v, o, mem } = ctx;
  const disabled = !!o.busy;
  const btn = (token, cls, content, label) =>
    h("button", { type: "button", class: `move ${cls}`, "data-move": token, disabled, "aria-label": label || null,
      onclick: () => { park(ctx); o.onMove(token); } }, content);
  const parts = [];
  if (v.phase === "turn") {
    if (v.legal.includes("draw")) parts.push(btn("draw", "move-draw", [back("tiny"), t("action.draw")]));
    if (v.legal.includes("call")) parts.push(btn("call", "move-call", t("action.call")));
    const thieves = v.legal.filter((m) => m.startsWith("thief"));
    if (thieves.length) {
      const held = v.seats[ctx.seat].holdings.thief || 0;
      const kinds = mem.selected.map((i) => v.row[i]).filter(Boolean);
      const token = kinds.length ? thiefToken(kinds) : "";
      const box = [h("span", { class: "thief-hint" }, chip("thief", held, count(t, "thief", held)), " ", t("web.thief.hint", { n: held }))];
      if (token && v.legal.includes(token)) box.push(btn(token, "move-thief", moveLabel(t, token)));
      parts.push(h("div", { class: "thief-box" }, box));
    }
  } else {
    if (v.legal.includes("pass")) parts.push(btn("pass", "move-pass", t("action.pass")));
    const gains = new Map((v.legalMoves || []).filter((m) => m.gain).map((m) => [m.token, m.gain]));
    const bids = v.legal.filter((m) => m.startsWith("bid "));
    if (bids.length) {
      parts.push(h("div", { class: "bid-buttons", role: "group", "aria-label": t("web.move.bids") },
        bids.map((m) => {
          const gain = v.round === 3 ? gains.get(m) : null;
          return btn(m, "move-bid", [h("span", { class: "move-bid-verb" }, t("action.bid")), " ",
            h("span", { class: "bid-value" }, m.slice(4)),
            gain ? h("span", { class: "bid-gain", title: gainText(t, gain) }, ` (${signed(gain.total)})`) : null]);
        })));
    }
  }
  return h("div", { class: "moves", id: "moves", role: "group", "aria-label": t(v.phase === "auction" ? "web.moves.auction" : "web.moves") },
    parts);
}

// takeBackBox offers the viewer their seat back while a bot plays it.
function takeBackBox({ t, seat, game, o }) {
  if (seat < 0 || !game || !game.seats[seat] || !game.seats[seat].standIn || typeof o.onTakeBack !== "function") return null;
  return h("div", { class: "standin-note", role: "note" },
    h("p", {}, t(o.left ? "web.standin.left" : "web.standin.you")),
    h("button", { type: "button", class: "primary", id: "take-back", disabled: !!o.busy, onclick: () => o.onTakeBack() }, t("web.takeback")));
}

// droppedLine says why the viewer's decision ahead was not played.
function droppedLine({ t, o }) {
  if (!o.preMoveDropped) return null;
  return h("p", { class: "notice premove-dropped", id: "premove-dropped", role: "alert" },
    t("web.premove.dropped", { move: moveLabel(t, o.preMove), reason: o.preMoveDropped }));
}

// preMoveBox lets a player who is still to decide in the running auction
// decide ahead: pass, or a bid above the highest (R10); only they see it.
function preMoveBox({ t, v, seat, game, o }) {
  const a = v.auction;
  if (!a || seat < 0 || typeof o.onPreMove !== "function" || v.toMove === seat) return null;
  if (game && game.seats[seat] && game.seats[seat].standIn) return null; // the bot decides: take the seat back first
  if ((a.bids[seat] || "undecided") !== "undecided") return null;
  const cheques = v.seats[seat].faceUp.filter((c) => c > a.highBid).sort((x, y) => x - y);
  if (cheques.length === 0) return null;
  const current = o.preMoveDropped ? "" : o.preMove || "";
  const btn = (token, label) => h("button", { type: "button", class: `small premove${current === token ? " is-set" : ""}`,
    "data-premove": token, "aria-pressed": token ? String(current === token) : null, disabled: !!o.busy,
    onclick: () => o.onPreMove(token) }, label);
  return h("div", { class: "premove-box", id: "premove", role: "group", "aria-labelledby": "premove-h" },
    h("p", { class: "premove-title" }, h("strong", { id: "premove-h" }, t("web.premove.title")), " ",
      current ? h("span", { class: "premove-set" }, t("web.premove.set", { move: moveLabel(t, current) })) : null),
    h("p", { class: "muted premove-hint" }, t("web.premove.hint")),
    h("div", { class: "premove-buttons" },
      a.mustBid && a.initiator === seat ? null : btn("pass", t("action.pass")),
      cheques.map((c) => btn(`bid ${c}`, t("action.bid.cheque", { cheque: c }))),
      current ? btn("", t("web.premove.withdraw")) : null));
}

// ---- the log ----------------------------------------------------------------------------

function logPanel({ t, v, names, tell, events, mem, root }) {
  const said = events.filter((e) => e.text);
  // The lines drawn before stand when the events before them do: only the
  // new ones are built (sync keeps the first __keepFirst of the list).
  const lang = typeof document !== "undefined" && document.documentElement ? document.documentElement.lang : "";
  const drawn = mem.logDrawn;
  const live = root.querySelector ? root.querySelector("#log") : null;
  const from = drawn && drawn.lang === lang && drawn.n > 0 && drawn.n <= said.length && said[drawn.n - 1].text === drawn.last &&
    live && live.children.length === drawn.n ? drawn.n : 0;
  const items = [];
  let move = -1;
  said.forEach((e, i) => {
    // The server tells each event in the page's language (?lang=).
    // Events that know their move (the replay's) are numbered by it, as
    // the replay's counter is; the others of the same move go unnumbered.
    const numbered = typeof e.move === "number";
    const same = numbered && e.move === move;
    if (numbered) move = e.move;
    if (i < from) return;
    items.push(h("li", { class: `ev ev-${e.kind}${e.card === "police" ? " ev-police" : ""}${same ? " ev-same" : ""}`,
      value: numbered && !same ? String(e.move) : null }, tell(e.text)));
  });
  mem.logDrawn = said.length ? { lang, n: said.length, last: said[said.length - 1].text } : null;
  if (said.length === 0 && v.toMove >= 0) items.push(h("li", { class: "ev ev-start" }, t("web.log.empty", { player: names[v.toMove] })));
  const lines = from + items.length;
  const follow = mem.logFollow !== false;
  if (follow) mem.logSeen = lines;
  const unread = follow ? 0 : lines - (mem.logSeen || 0);
  // Only the reader's own hand says they scrolled back: a scroll that
  // follows a change of layout is not theirs.
  const intent = () => { mem.logIntent = Date.now(); };
  const list = h("ol", { id: "log", class: "log-list", tabindex: "0", "aria-label": t("web.log.label"),
    onwheel: intent, ontouchstart: intent, onpointerdown: intent, onkeydown: intent,
    onscroll: () => {
      // What the scroll did is read once the frame has laid the page out
      // (settle): read here, it would lay out what the last message changed.
      if (mem.covered) return;
      mem.scrolled = { mine: Date.now() - (mem.logIntent || 0) <= 1500 };
      afterLayout(null, mem);
    } }, items);
  list.__keepFirst = from;
  // The handlers find the live log: a redraw keeps the elements in the
  // page, not these.
  const more = h("button", { type: "button", class: "small log-more", id: "log-more", hidden: unread <= 0,
    onclick: (ev) => {
      const btn = ev.currentTarget || ev.target;
      const live = btn.parentNode.querySelector("#log");
      mem.logFollow = true;
      mem.logSeen = live.children.length;
      btn.hidden = true;
      live.scrollTop = live.scrollHeight;
    } }, t("web.log.more", { n: Math.max(unread, 0) }));
  return h("section", { class: "log-panel", "aria-labelledby": "log-h" },
    h("h2", { id: "log-h" }, t("web.log")), list, more);
}

// beforeFrame runs fn before the next frame is drawn (at once where there
// are no frames), once however many redraws come first.
function beforeFrame(mem, fn) {
  if (typeof requestAnimationFrame !== "function") {
    fn();
    return;
  }
  mem.next = fn;
  if (mem.frame) return;
  mem.frame = requestAnimationFrame(() => {
    mem.frame = 0;
    mem.next();
  });
}

// placeFocus moves the focus where a redraw left it to go: to the round's
// end's button, back to what the redraw took out, or from the decision
// panel to the next move. Focusing lays the page out: after the frame's
// layout (settle), that costs nothing.
function placeFocus(root, mem) {
  if (mem.focusContinue) {
    mem.focusContinue = false;
    mem.refocus = null;
    const button = root.querySelector && root.querySelector("#round-continue");
    if (button && button.focus) button.focus();
  } else if (mem.refocus) {
    // Unless the reader went somewhere meanwhile.
    const a = typeof document !== "undefined" ? document.activeElement : null;
    if (!a || a === document.body || !a.isConnected) restoreFocus(root, mem.refocus);
    mem.refocus = null;
  }
  if (mem.parked) {
    // Back from the decision panel to the next move, once there is one.
    if (document.activeElement !== mem.parked) mem.parked = null;
    else if (root.querySelector(MOVES)) {
      mem.parked = null;
      moveFocus(root);
    }
  }
}

// afterLayout has settle read the layout the frame lays out anyway: a
// ResizeObserver reports a target observed anew between the frame's layout
// and its paint, where reading the layout costs nothing; read in a task or
// in the frame's callbacks, it would make the browser lay the page out
// there and then, and again should anything change after.
function afterLayout(root, mem) {
  if (root) mem.root = root;
  if (typeof ResizeObserver !== "function" || typeof document === "undefined") {
    settle(mem);
    return;
  }
  const log = mem.root && mem.root.querySelector ? mem.root.querySelector(".log-list") : null;
  // Observed anew, the page is reported after the next layout; the log,
  // again whenever its size changes: the side column changes height as
  // the scores and the chat come and go.
  if (!mem.settler) mem.settler = new ResizeObserver(() => settle(mem));
  mem.settler.disconnect();
  mem.settler.observe(document.documentElement);
  if (log) mem.settler.observe(log);
}

// settle, with the page laid out, takes out what a redraw hid on its way
// out, follows the log (its newest line in sight unless the reader
// scrolled back), takes in the reader's scroll, and after a redraw notes
// where the cards are for the next move's motion and places the focus.
function settle(mem) {
  const root = mem.root;
  if (!root) return;
  dropLeaving();
  // Covered by the round's end, the table shows nothing to follow or
  // move: reading its layout would make the browser style and lay out
  // what it skips. Going on draws it again, and follows then.
  if (mem.covered) {
    mem.scrolled = null;
    if (mem.drawn) {
      mem.drawn = false;
      mem.before = null;
      placeFocus(root, mem);
    }
    return;
  }
  const log = root.querySelector ? root.querySelector(".log-list") : null;
  const scrolled = mem.scrolled;
  mem.scrolled = null;
  if (log && scrolled) {
    const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    if (scrolled.mine) {
      // Only the reader's own hand says they scrolled back: a scroll that
      // follows a change of layout is not theirs.
      mem.logFollow = atEnd;
      mem.logTop = log.scrollTop;
      if (atEnd) {
        mem.logSeen = log.children.length;
        const more = log.parentNode && log.parentNode.querySelector("#log-more");
        if (more) more.hidden = true;
      }
    }
  }
  // A scroll not the reader's, while they read back, is left as it is.
  if (log && !(scrolled && mem.logFollow === false)) {
    const top = mem.logFollow === false ? mem.logTop || 0 : log.scrollHeight - log.clientHeight;
    if (Math.abs(log.scrollTop - top) >= 1) log.scrollTop = top;
  }
  if (!mem.drawn) return;
  mem.drawn = false;
  // Where the cards are as the reader sees them, for the next move's
  // motion.
  const now = mem.args[3].animate === false ? null : measure(root);
  const b = mem.before;
  if (b && b.rects && now && mem.moves === b.moves + 1) animate(root, b.rects, mem.args[1] || [], T(mem.args[2]));
  mem.before = { rects: now, moves: mem.moves };
  placeFocus(root, mem);
}

// ---- focus and motion -------------------------------------------------------------

function focusKey(root) {
  if (typeof document === "undefined" || !document.activeElement || !root.contains) return null;
  const a = document.activeElement;
  if (!root.contains(a)) return null;
  for (const attr of ["data-move", "data-row-card", "id"]) {
    if (a.getAttribute && a.getAttribute(attr) !== null) return [attr, a.getAttribute(attr)];
  }
  return ["any", ""];
}

// restoreFocus puts the focus back where it was before a redraw; when that
// element is gone (the move was made), on the next move to make or the
// decision panel, never on the page itself.
function restoreFocus(root, key) {
  if (!key || !root.querySelector) return;
  const [attr, value] = key;
  const el = attr === "any" ? null : root.querySelector(`[${attr}="${cssEscape(value)}"]`);
  if (el && !el.disabled && el.focus) el.focus({ preventScroll: true });
  else moveFocus(root);
}

// MOVES are the moves on offer.
const MOVES = "#moves button[data-move]:not([disabled]), [data-row-card]:not([disabled])";

// moveFocus focuses the first move on offer, or the decision panel.
function moveFocus(root) {
  if (!root.querySelector) return;
  const el = root.querySelector(MOVES) ||
    root.querySelector("#decide") || root.querySelector("#game-end");
  if (el && el.focus) el.focus({ preventScroll: true });
}

// park takes the focus from a move button pressed, which the move takes
// out of the page, to the decision panel, which stays: a focused element
// taken out makes the browser lay the page out there and then, in the
// task of the state that takes it. It comes back to the next move on
// offer (beforeFrame).
function park({ root, mem }) {
  const a = typeof document !== "undefined" ? document.activeElement : null;
  const decide = root.querySelector && root.querySelector("#decide");
  if (!a || !decide || !a.closest || !a.closest("button[data-move]")) return;
  decide.focus({ preventScroll: true });
  mem.parked = decide;
}

function cssEscape(s) {
  return String(s).replace(/["\\]/g, "\\$&");
}

let motion = null;

function reducedMotion() {
  if (!motion && typeof matchMedia === "function") motion = matchMedia("(prefers-reduced-motion: reduce)");
  return !!motion && motion.matches;
}

// measure notes where the row cards (and their kinds) and the piles are,
// in the page's coordinates: the page may scroll before the next move.
function measure(root) {
  if (!root.querySelectorAll || typeof window === "undefined" || reducedMotion()) return null;
  const x = window.scrollX;
  const y = window.scrollY;
  const rect = (el) => { const r = el.getBoundingClientRect(); return { left: r.left + x, top: r.top + y, width: r.width, height: r.height }; };
  const p = root.querySelector("#piles .pile");
  return {
    row: [...root.querySelectorAll(".row-slot:not(.empty) .card")].map((el) => ({ rect: rect(el), kind: el.getAttribute("data-kind") })),
    pile: p ? rect(p) : null,
  };
}

// onScreen takes a rectangle measured in the page's coordinates to the
// viewport's, where it is now.
function onScreen(r) {
  return { left: r.left - window.scrollX, top: r.top - window.scrollY, width: r.width, height: r.height };
}

// animate lets the eye follow the last move: a drawn card slides from the
// piles, a won lot (or a thieves' catch) flies to its new owner.
function animate(root, before, events, t) {
  if (!root.animate && !Element.prototype.animate) return;
  const last = events.slice(-4);
  const draw = last.findLast ? last.findLast((e) => e.kind === "draw") : null;
  const gone = last.find((e) => e.kind === "win" || e.kind === "thieves");
  const pile = before.pile ? onScreen(before.pile) : null;
  if (draw && draw.card !== "police" && pile && !gone) {
    const cards = root.querySelectorAll(".row-slot:not(.empty) .card");
    const el = cards[cards.length - 1];
    if (el) fly(el.getBoundingClientRect(), pile, el, true);
  }
  if (draw && draw.card === "police") {
    const slots = root.querySelectorAll(".police-slot.filled");
    const el = slots[slots.length - 1];
    if (el && pile) fly(el.getBoundingClientRect(), pile, el, true);
  }
  if (gone && gone.seat >= 0) {
    const seatEl = root.querySelector(`.strip[data-seat="${gone.seat}"]`);
    if (!seatEl) return;
    const to = seatEl.getBoundingClientRect();
    const moved = gone.kind === "win" ? before.row : before.row.filter((r) => gone.cards.includes(r.kind));
    // Where each flies from, read before the first copy goes in: reading
    // the page's scroll after would lay the page out again for each.
    const from = moved.map((r) => onScreen(r.rect));
    // The strip's flash (razzia.css .strip::before) by its opacity alone,
    // before the copies go in: animating a pseudo-element styles the page,
    // again if they were in already.
    seatEl.animate([{ opacity: 0 }, { opacity: 1 }, { opacity: 0 }], { duration: 900, easing: "ease-out", pseudoElement: "::before" });
    // The cards left the page: copies of them fly, only for the eye.
    moved.forEach((r, k) => ghost(card(r.kind, t), from[k], to, k * 60));
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

// flyLayer is where the flying copies go: one element kept above the
// page, so that a copy that comes or goes repaints that layer, not the
// whole page (a new stacking context at the page's root repaints it).
function flyLayer() {
  let layer = document.getElementById("fly-layer");
  if (!layer) {
    layer = document.createElement("div");
    layer.id = "fly-layer";
    layer.setAttribute("aria-hidden", "true");
    document.body.appendChild(layer);
  }
  return layer;
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
    height: `${from.height}px`, margin: "0", pointerEvents: "none" });
  flyLayer().appendChild(g);
  const dx = to.left + Math.min(to.width, 80) / 2 - (from.left + from.width / 2);
  const dy = to.top + 20 - (from.top + from.height / 2);
  const a = g.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.45)`, opacity: 0.2 }],
    { duration: 650, delay, easing: "cubic-bezier(.5,0,.3,1)", fill: "forwards" });
  a.onfinish = () => g.remove();
  a.oncancel = () => g.remove();
}

