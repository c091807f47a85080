// analysis.js: the engine's analysis of a finished game on the replay
// page (GET /api/games/{id}/analysis), drawn as a chart of each player's
// chance of winning over the game, one line per player, in SVG made here
// (nothing from a CDN). Mistakes and blunders are marked; a click on the
// chart or a mark goes to that move, and the move's verdict is told
// below: "Best was: bid 9 (+12%)". A draw is never a mistake for the card
// that came: that is luck, and told as luck.

import { h, replace } from "./dom.js";
import { request } from "./api.js";
import { list, moveLabel } from "./words.js";
import { percent, signedPercent } from "./hints.js";

export { percent, signedPercent };

/** fetchAnalysis returns the analysis answer: {status, report?, failed?}. */
export const fetchAnalysis = (id) => request("GET", `/api/games/${encodeURIComponent(id)}/analysis`);

const SVG = "http://www.w3.org/2000/svg";
// The chart is drawn in the box's own pixels, so that its text keeps its
// size: W wide (the box's width) and H high.
const PAD = { left: 34, right: 10, top: 10, bottom: 22 };

// MARKED are the labels a mark stands out for.
const MARKED = new Set(["mistake", "blunder"]);

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c) el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

/** shares returns each seat's win share in the position after pos moves. */
export function shares(report, pos) {
  const d = report.decisions;
  if (pos < d.length) return d[pos].before;
  const n = report.players.length;
  return Array.from({ length: n }, (_, i) => (report.winners.includes(i) ? 1 / report.winners.length : 0));
}

/**
 * drawChart draws the chart of report into box with a cursor at pos;
 * onPick(pos) is called when the reader picks a position.
 */
export function drawChart(box, report, names, pos, t, onPick) {
  const n = report.decisions.length;
  const W = Math.max(280, Math.round(box.clientWidth || 600));
  // Low enough for the board and the log to stay in sight beside it.
  const H = W < 600 ? 140 : 160;
  const x = (p) => PAD.left + (p * (W - PAD.left - PAD.right)) / Math.max(1, n);
  const y = (v) => PAD.top + (1 - v) * (H - PAD.top - PAD.bottom);
  const parts = [];
  for (const v of [0, 0.5, 1]) {
    parts.push(s("line", { class: "wc-grid", x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }),
      s("text", { class: "wc-axis", x: PAD.left - 4, y: y(v) + 4, "text-anchor": "end" }, percent(v)));
  }
  // A click anywhere goes to the nearest position.
  parts.push(s("rect", {
    class: "wc-hit", x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom,
    onclick: (ev) => {
      const r = ev.currentTarget.getBoundingClientRect();
      onPick(Math.round(((ev.clientX - r.left) / r.width) * n));
    },
  }));
  parts.push(s("line", { class: "wc-cursor", id: "wc-cursor", x1: x(pos), x2: x(pos), y1: PAD.top, y2: H - PAD.bottom }));
  for (let seat = 0; seat < report.players.length; seat++) {
    const pts = [];
    for (let p = 0; p <= n; p++) pts.push(`${x(p).toFixed(1)},${y(shares(report, p)[seat]).toFixed(1)}`);
    parts.push(s("polyline", { class: `wc-line s${seat}`, points: pts.join(" "), "data-seat": seat }));
  }
  for (const d of report.decisions) {
    if (!MARKED.has(d.label)) continue;
    const label = t("web.analysis.mark", { n: d.move, player: names[d.seat] || "", label: labelText(t, d.label) });
    parts.push(s("circle", {
      class: `wc-mark mark-${d.label} s${d.seat}`, cx: x(d.move), cy: y(shares(report, d.move)[d.seat]), r: 6,
      tabindex: 0, role: "button", "aria-label": label, "data-move": d.move,
      onclick: () => onPick(d.move),
      onkeydown: (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          onPick(d.move);
        }
      },
    }, s("title", {}, label)));
  }
  const svg = s("svg", {
    class: "wc-chart", id: "analysis-chart", viewBox: `0 0 ${W} ${H}`, role: "group",
    "aria-label": t("web.analysis.chart"),
  }, parts);
  const legend = h("ul", { class: "wc-legend" },
    report.players.map((_, seat) => h("li", { class: `s${seat}` }, h("span", { class: "wc-swatch", "aria-hidden": "true" }), names[seat] || "")));
  replace(box, svg, legend);
}

/** moveCursor moves the chart's cursor to pos without drawing it again. */
export function moveCursor(report, pos) {
  const c = document.getElementById("wc-cursor");
  const svg = document.getElementById("analysis-chart");
  if (!c || !svg) return;
  const W = svg.viewBox.baseVal.width;
  const n = report.decisions.length;
  const x = PAD.left + (pos * (W - PAD.left - PAD.right)) / Math.max(1, n);
  c.setAttribute("x1", x);
  c.setAttribute("x2", x);
}

function labelText(t, label) {
  return t(`web.analysis.label.${label}`);
}

/**
 * verdict tells what the analysis says of the move that led to pos:
 * the move, its label and the best move with what it was worth more, the
 * luck of a draw, and everyone's chances now.
 */
export function verdict(t, report, names, pos) {
  const lines = [];
  if (pos === 0) lines.push(t("web.analysis.start"));
  else {
    const d = report.decisions[pos - 1];
    const who = names[d.seat] || "";
    // A draw's decision is to draw; the card that came is luck.
    const played = d.luck ? moveLabel(t, "draw") : moveLabel(t, d.played);
    lines.push(t("web.analysis.move", { n: d.move, player: who, move: played }));
    if (d.forced) lines.push(t("web.analysis.forced"));
    else if (d.label === "best") lines.push(t("web.analysis.best"));
    else {
      lines.push(t("web.analysis.bestwas", {
        label: labelText(t, d.label), move: moveLabel(t, d.best), gain: signedPercent(d.bestValue - d.playedValue),
      }));
    }
    if (d.luck) {
      lines.push(t("web.analysis.luck", { list: list(t, d.luck.map((l, i) => `${names[i] || ""} ${signedPercent(l)}`)) }));
    }
  }
  const now = shares(report, pos).map((v, i) => `${names[i] || ""} ${percent(v)}`);
  lines.push(t("web.analysis.chances", { list: list(t, now) }));
  return lines;
}

/** verdictClass is the class of the verdict at pos: its label, or luck. */
export function verdictClass(report, pos) {
  if (pos === 0) return "";
  const d = report.decisions[pos - 1];
  return d.luck && (d.label === "best" || d.label === "good") ? "verdict-luck" : `verdict-${d.label}`;
}

/**
 * summary counts each player's inaccuracies, mistakes and blunders, and
 * their accuracy: the share of their own decisions, forced moves left
 * out, that were best or good, in whole percent (docs/protocol.md,
 * "Analysis of a finished game"); null for a player with no decision.
 */
export function summary(report) {
  return report.players.map((_, seat) => {
    const own = report.decisions.filter((d) => d.seat === seat && !d.forced);
    const count = (label) => own.filter((d) => d.label === label).length;
    const sound = own.filter((d) => d.label === "best" || d.label === "good").length;
    return { seat, decisions: own.length, inaccuracy: count("inaccuracy"), mistake: count("mistake"), blunder: count("blunder"),
      accuracy: own.length ? Math.round((100 * sound) / own.length) : null };
  });
}

/** mistakes are the decisions marked on the chart (mistakes and blunders), in the game's order. */
export function mistakes(report) {
  return report.decisions.filter((d) => MARKED.has(d.label) && !d.forced);
}

/**
 * nextMistake returns the position of the first mistake after pos (dir 1)
 * or the last one before it (dir −1), or null when there is none.
 */
export function nextMistake(report, pos, dir) {
  const at = mistakes(report).map((d) => d.move);
  const found = dir > 0 ? at.find((m) => m > pos) : at.reverse().find((m) => m < pos);
  return found === undefined ? null : found;
}

/**
 * summaryBox draws the summary: a table of each player's counts and
 * accuracy, then the mistakes as a list of buttons; onPick(pos) goes to
 * one, and the keys N and P go to the next and the previous (replay.js).
 */
export function summaryBox(t, report, names, pos, onPick) {
  const rows = summary(report).map((r) => h("tr", {},
    h("th", { scope: "row", class: `s${r.seat}` }, h("span", { class: "wc-swatch", "aria-hidden": "true" }), names[r.seat] || ""),
    h("td", {}, String(r.inaccuracy)), h("td", {}, String(r.mistake)), h("td", {}, String(r.blunder)),
    h("td", { class: "accuracy" }, r.accuracy === null ? "—" : `${r.accuracy}%`)));
  const table = h("table", { class: "analysis-summary", id: "analysis-summary" },
    h("caption", {}, t("web.analysis.summary")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("term.player")),
      h("th", { scope: "col" }, t("web.analysis.label.inaccuracy")), h("th", { scope: "col" }, t("web.analysis.label.mistake")),
      h("th", { scope: "col" }, t("web.analysis.label.blunder")), h("th", { scope: "col" }, t("web.analysis.accuracy")))),
    h("tbody", {}, rows));
  const list = mistakes(report);
  const items = list.map((d) => h("li", {}, h("button", {
    type: "button", class: `mistake-item mark-${d.label}${d.move === pos ? " is-current" : ""}`, "data-move": String(d.move),
    "aria-current": d.move === pos ? "step" : null, onclick: () => onPick(d.move),
  }, t("web.analysis.item", { n: d.move, player: names[d.seat] || "", move: moveLabel(t, d.played), label: labelText(t, d.label) }))));
  return h("div", { class: "analysis-more" }, table,
    h("h3", { class: "mistakes-h", id: "mistakes-h" }, t("web.analysis.mistakes", { n: list.length })),
    items.length ? h("ol", { class: "mistake-list", id: "mistake-list", "aria-labelledby": "mistakes-h" }, items)
      : h("p", { class: "muted" }, t("web.analysis.nomistakes")),
    items.length ? h("p", { class: "muted mistakes-keys" }, t("web.analysis.keys")) : null);
}
