// scores.js: the scores of the table: the score table by category, the
// round-end overlay, and the game-end screen with its chart. Each takes the
// renderer's context (translator, view, names).

import { h } from "./dom.js";
import { chip } from "./cards.js";
import { CATEGORIES, list, signed, num, points } from "./words.js";
import { rematchBox } from "./rematch.js";

/** CATEGORY_KINDS draws each scoring category by a card of its family. */
const CATEGORY_KINDS = {
  thieves: "thief", bodyguards: "bodyguard", cars: "car", jewels: "diamond", gold: "gold", businesses: "casino",
};

/**
 * categoryHead is a score table's column head: the family's card and its
 * name in words, set upright in a narrow column (a phone shows no
 * tooltips).
 */
function categoryHead(t, c) {
  const name = t(`cat.${c}`);
  const icon = CATEGORY_KINDS[c]
    ? chip(CATEGORY_KINDS[c], 1, name)
    : h("span", { class: "chip-cheque", "aria-hidden": "true" }, "$");
  return h("th", { scope: "col", class: `col-${c} col-cat`, "aria-label": name }, h("span", { class: "cat-head", "aria-hidden": "true" },
    icon, h("span", { class: "cat-word" }, name)));
}

/** seatName is a player's name in a table or list: a dot of the seat's colour, then the name. */
export function seatName(names, i, extra) {
  return [h("span", { class: `seat-dot s${i}`, "aria-hidden": "true" }), h("span", { class: `seat-name-text${extra ? " " + extra : ""}` }, names[i])];
}

/** wrap holds a table that may scroll sideways: a keyboard can reach it. */
export function wrap(table, label) {
  return h("div", { class: "score-wrap", tabindex: "0", role: "region", "aria-label": label }, table);
}

function cell(p, strong, extra) {
  return h("td", { class: `${p > 0 ? "pos" : p < 0 ? "neg" : "zero"}${strong ? " sum" : ""}${extra ? " " + extra : ""}` }, signed(p));
}

/**
 * scoreTable is one round's score: a row per player (in order), a column
 * per category, the round's total and, from round 2 on, the total so far.
 */
export function scoreTable({ t, v, names }, r, order = v.seats.map((_, i) => i)) {
  const cats = CATEGORIES.filter((c) => r === 3 || (c !== "businesses" && c !== "cheques"));
  const sofar = (i) => v.seats[i].scores.slice(0, r).reduce((a, s) => a + s.total, 0);
  return h("table", { class: "score-table", "data-round": String(r) },
    h("caption", {}, t("web.scores.round", { round: r })),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "col-name" }, t("term.player")),
      cats.map((c) => categoryHead(t, c)),
      h("th", { scope: "col", class: "col-total" }, t("cat.total")),
      r > 1 ? h("th", { scope: "col", class: "col-sofar" }, t("web.scores.sofar")) : null)),
    h("tbody", {}, order.map((i) => {
      const s = v.seats[i].scores[r - 1] || {};
      return h("tr", {},
        h("th", { scope: "row", class: "col-name" }, seatName(names, i)),
        cats.map((c) => cell(s[c] || 0)),
        cell(s.total || 0, true),
        r > 1 ? h("td", { class: "sum col-sofar" }, num(sofar(i))) : null);
    })));
}

/** scorePanel is the side panel: every player's points, then each scored round, the newest open. */
export function scorePanel(ctx) {
  const { t, v, names } = ctx;
  const rounds = Math.max(0, ...v.seats.map((s) => s.scores.length));
  const tables = [];
  for (let r = rounds; r >= 1; r--) {
    const table = wrap(scoreTable(ctx, r), t("web.scores.round", { round: r }));
    tables.push(r === rounds ? table : h("details", { class: "score-old" }, h("summary", {}, t("web.scores.round", { round: r })), table));
  }
  return h("section", { class: "scores", id: "scores", tabindex: "-1", "aria-labelledby": "scores-h" },
    h("h2", { id: "scores-h" }, t("web.scores")),
    h("ul", { class: "score-totals" }, v.seats.map((s, i) =>
      h("li", { class: "score-chip" }, seatName(names, i), " ", h("strong", {}, points(t, s.total))))),
    tables);
}

/**
 * roundOverlay is the moment a round ends: its score by category, the
 * reason it ended, and a button to go on to the next round. onContinue
 * closes it.
 */
export function roundOverlay(ctx, event, onContinue) {
  const { t, tell } = ctx;
  const r = event.round;
  const button = h("button", { type: "button", class: "primary big", id: "round-continue", onclick: onContinue },
    t("web.round.continue", { round: r + 1 }));
  return h("div", { class: "overlay", id: "round-end", role: "dialog", "aria-modal": "true", "aria-labelledby": "round-end-h",
    "data-round": String(r), onkeydown: (ev) => {
      if (ev.key === "Escape") onContinue();
    } },
  h("div", { class: "overlay-box" },
    h("h2", { id: "round-end-h" }, t("web.round.scored", { round: r })),
    h("p", { class: "round-why" }, tell(event.text || "")),
    ctx.o.clock && ctx.o.clock.heldUntil ? h("p", { class: "round-held" },
      t("web.round.held", { s: Math.max(0, Math.ceil((ctx.o.clock.heldUntil - Date.now()) / 1000)) })) : null,
    // ctx.later: the table comes in a task of its own (render.js).
    ctx.later ? h("div", { class: "score-wrap" }) : wrap(scoreTable(ctx, r), t("web.scores.round", { round: r })),
    h("p", { class: "overlay-actions" }, button)));
}

/** roundBanner shows a round's score inline: the replay's round end. */
export function roundBanner(ctx, event) {
  const { t, tell } = ctx;
  return h("section", { class: "round-banner", id: "round-end", "aria-labelledby": "round-end-h", "data-round": String(event.round) },
    h("h2", { id: "round-end-h" }, t("web.round.scored", { round: event.round })),
    h("p", { class: "round-why" }, tell(event.text || "")),
    wrap(scoreTable(ctx, event.round), t("web.scores.round", { round: event.round })));
}

/** ranking orders the seats by points, the winners first. */
function ranking(v) {
  return v.seats.map((s, i) => i).sort((a, b) =>
    Number(v.winners.includes(b)) - Number(v.winners.includes(a)) || v.seats[b].total - v.seats[a].total || a - b);
}

// endchallenge.js, once loaded: only a signed-in person's finished game
// offers to challenge its players, so the module comes when one ends.
let challenges = null;
let challengesAsked = false;

// endChallenge is the game end's challenge box (endchallenge.js), null
// until its module has come; the page draws again when it has.
function endChallenge(ctx) {
  const c = ctx.o && ctx.o.challenge;
  const game = ctx.game;
  if (!c || !c.me || !game || (game.status !== "finished" && game.status !== "archived")) return null;
  if (challenges) return challenges.challengeBox(ctx);
  if (!challengesAsked) {
    challengesAsked = true;
    import("./endchallenge.js").then((m) => {
      challenges = m;
      if (c.redraw) c.redraw();
    }, () => (challengesAsked = false));
  }
  return null;
}

/**
 * gameEnd is the game-end screen: the winner first, the final table by
 * category over the three rounds, a chart of the points after each round,
 * and big links to the replay, the record and the puzzles of the game's
 * mistakes (links: {replay, record, learn}, any may be missing), right
 * under the winner.
 */
export function gameEnd(ctx, links = {}) {
  const { t, v, seat, names } = ctx;
  const w = v.winners.map((i) => names[i]);
  let head;
  if (v.winners.includes(seat) && v.winners.length === 1) head = t("web.result.you");
  else if (w.length === 1) head = t("web.result.winner", { player: w[0] });
  else head = t("web.result.shared", { players: list(t, w) });
  const order = ranking(v);
  // The rematch first: at hand without scrolling.
  const actions = [rematchBox(ctx)].filter(Boolean);
  if (links.replay) actions.push(h("a", { class: "button big primary", href: links.replay, id: "end-replay" }, t("web.end.replay")));
  if (links.record) {
    actions.push(h("a", { class: "button big", href: links.record, download: links.download || true, id: "end-record" }, t("web.end.download")));
  }
  if (links.learn) actions.push(h("a", { class: "button big", href: links.learn, id: "end-learn" }, t("puzzles.learn.title")));
  const challenge = endChallenge(ctx);
  if (challenge) actions.push(challenge);
  const rating = ctx.o && ctx.o.rating;
  return h("section", { class: "game-end", id: "game-end", "aria-labelledby": "game-end-h" },
    h("div", { class: "result", id: "result" },
      h("p", { class: "game-end-kicker" }, t("phase.over")),
      h("h2", { id: "game-end-h", class: "game-end-title" }, trophy("trophy-big"), " ", head),
      rating ? h("p", { class: "rating-change", id: "rating-change" }, t("web.end.rating", rating)) : null,
      h("ol", { class: "podium" }, order.map((i) =>
        h("li", { class: v.winners.includes(i) ? "rank-win" : "" },
          seatName(names, i, "rank-name"), " ", h("span", { class: "rank-points" }, points(t, v.seats[i].total)))))),
    actions.length ? h("div", { class: "game-end-actions", id: "game-end-actions" }, actions) : null,
    // ctx.later: the figures come in a task of their own (render.js).
    h("div", { class: "game-end-grid", "data-key": "grid" }, ctx.later ? null : [
      wrap(finalTable(ctx, order), t("web.end.table")),
      chart(ctx, order)]));
}

/** finalTable is the whole game by category (three rounds added up), then each round and the total. */
function finalTable({ t, v, names }, order) {
  const rounds = [1, 2, 3].filter((r) => v.seats.some((s) => s.scores.length >= r));
  const sum = (i, c) => v.seats[i].scores.reduce((a, s) => a + (s[c] || 0), 0);
  return h("table", { class: "score-table final-table", id: "final-table" },
    h("caption", {}, t("web.end.table")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "col-name" }, t("term.player")),
      CATEGORIES.map((c) => categoryHead(t, c)),
      rounds.map((r) => h("th", { scope: "col", class: "col-round", title: t("web.scores.round", { round: r }) },
        h("span", { "aria-hidden": "true" }, t("web.end.r", { round: r })), h("span", { class: "visually-hidden" }, t("web.scores.round", { round: r })))),
      h("th", { scope: "col", class: "col-total" }, t("cat.total")))),
    h("tbody", {}, order.map((i) => h("tr", { class: v.winners.includes(i) ? "rank-win" : "" },
      h("th", { scope: "row", class: "col-name" }, seatName(names, i)),
      CATEGORIES.map((c) => cell(sum(i, c))),
      rounds.map((r) => cell(v.seats[i].scores[r - 1].total, false, "round")),
      h("td", { class: "sum" }, num(v.seats[i].total))))));
}

/** chart draws each player's points after each round as a line, in the seat's colour. */
function chart({ t, v, names }, order) {
  const rounds = Math.max(...v.seats.map((s) => s.scores.length));
  const points = v.seats.map((s) => {
    const out = [0];
    for (const sc of s.scores) out.push(out[out.length - 1] + sc.total);
    return out;
  });
  const all = points.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const W = 320;
  const H = 180;
  const L = 34;
  const R = 12;
  const TOP = 10;
  const B = 24;
  const x = (k) => L + (k * (W - L - R)) / Math.max(1, rounds);
  const y = (p) => TOP + ((hi - p) * (H - TOP - B)) / (hi - lo);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  let svg = `<svg viewBox="0 0 ${W} ${H}" focusable="false" aria-hidden="true">`;
  // The grid: zero, the top and the bottom, and a line per round.
  for (const p of new Set([lo, 0, hi])) {
    svg += `<line class="grid${p === 0 ? " zero" : ""}" x1="${L}" x2="${W - R}" y1="${y(p)}" y2="${y(p)}"/>` +
      `<text class="axis" x="${L - 6}" y="${y(p) + 4}" text-anchor="end">${num(p)}</text>`;
  }
  for (let k = 0; k <= rounds; k++) {
    const label = k === 0 ? t("web.end.start") : t("web.end.r", { round: k });
    svg += `<text class="axis" x="${x(k)}" y="${H - 6}" text-anchor="middle">${esc(label)}</text>`;
  }
  for (const i of [...order].reverse()) {
    const pts = points[i].map((p, k) => `${x(k)},${y(p)}`).join(" ");
    svg += `<polyline class="line s${i}" points="${pts}"/>`;
    svg += points[i].map((p, k) => `<circle class="dot s${i}" cx="${x(k)}" cy="${y(p)}" r="3.5"/>`).join("");
  }
  svg += "</svg>";
  const pic = h("div", { class: "chart-svg" });
  pic.innerHTML = svg;
  const summary = order.map((i) => `${names[i]}: ${points[i].slice(1).map(num).join(", ")}`).join("; ");
  return h("figure", { class: "chart", id: "score-chart", role: "img", "aria-label": t("web.end.chart.label", { points: summary }) },
    h("figcaption", {}, t("web.end.chart")),
    pic,
    h("ul", { class: "chart-legend", "aria-hidden": "true" }, order.map((i) =>
      h("li", {}, seatName(names, i), " ", h("strong", {}, num(v.seats[i].total))))));
}

/** trophy is the winner's cup, drawn: no emoji font needed. */
export function trophy(extra) {
  const s = h("span", { class: `trophy${extra ? " " + extra : ""}`, "aria-hidden": "true" });
  s.innerHTML = '<svg viewBox="0 0 24 24" focusable="false"><path fill="currentColor" d="M6 2h12v2h3v3c0 2.8-2 5-4.6 5.4A6 6 0 0 1 13 15.9V19h3v3H8v-3h3v-3.1a6 6 0 0 1-3.4-3.5C5 12 3 9.8 3 7V4h3zm0 4H5v1c0 1.4.8 2.6 2 3.2A6 6 0 0 1 6 8zm12 0v2c0 .8-.1 1.5-.4 2.2A3.6 3.6 0 0 0 19 7V6z"/></svg>';
  return s;
}
