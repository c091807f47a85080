// puzzles.js: the puzzles page at /puzzles. A puzzle is a position of a
// game played here where one move is clearly best (the server's engine
// judged it at its strongest level); the reader, seated as the player to
// move, answers with the table's own move buttons, and the verdict
// follows: right or not, the best move and its margin, every move's
// chance to win, what was played at the table, and the rating change.
//
// Addresses: /puzzles (the next puzzle at the solver's level; ?theme=
// chooses a theme), /puzzles/{id} (one puzzle), /puzzles?daily=1 (the
// day's), /puzzles?game={id}&seat={n} (learn from your mistakes: the
// puzzles found in one game, the seat's own first).

import { h, replace, $ } from "./dom.js";
import { onClick } from "./forms.js";
import * as api from "./api.js";
import { start } from "./page.js";
import { translator } from "./i18n.js";
import { renderTable } from "./render.js";
import { moveLabel } from "./words.js";
import { whoami, showAccount, changeText, when } from "./players.js";
import { errorText } from "./errors.js";
import { percent, signedPercent } from "./analysis.js";

const THEMES = ["bid-or-pass", "which-cheque", "call-or-draw", "thieves", "forced-auction", "cheque-majority"];
const SEEN = "razzia-puzzles-seen"; // a guest's puzzles seen, newest last
const SEEN_MAX = 150;

const state = {
  t: translator({}, {}),
  lang: "en",
  me: null, // the signed-in account, null for a guest, false without accounts
  overview: null, // GET /api/puzzles
  mode: parseAddress(),
  puzzle: null, // the puzzle shown
  verdict: null, // its verdict, once answered
  busy: false,
  learn: null, // {game, seat, list, i, status}
  learnTimer: 0,
};

/** parseAddress reads the mode from the page's address. */
function parseAddress() {
  const q = new URLSearchParams(location.search);
  const m = location.pathname.match(/^\/puzzles\/([^/]+)\/?$/);
  const theme = THEMES.includes(q.get("theme")) ? q.get("theme") : "";
  if (q.get("game")) {
    const seat = /^\d+$/.test(q.get("seat") || "") ? Number(q.get("seat")) : -1;
    return { kind: "learn", game: q.get("game"), seat, id: m ? decodeURIComponent(m[1]) : "", theme: "" };
  }
  if (m) return { kind: "id", id: decodeURIComponent(m[1]), theme };
  if (q.get("daily")) return { kind: "daily", theme };
  return { kind: "next", theme };
}

/** seen returns a guest's puzzles seen, which the next one skips. */
function seen() {
  try {
    const list = JSON.parse(localStorage.getItem(SEEN) || "[]");
    return Array.isArray(list) ? list.filter((x) => typeof x === "string") : [];
  } catch {
    return [];
  }
}

function remember(id) {
  try {
    const list = seen().filter((x) => x !== id);
    list.push(id);
    localStorage.setItem(SEEN, JSON.stringify(list.slice(-SEEN_MAX)));
  } catch {
    // No storage (a private window): the guest may meet a puzzle again.
  }
}

const tr = (key, args) => state.t(key, args);
const themeName = (theme) => tr(`puzzles.theme.${theme}`);

/** status says what the page is doing; "" clears it. */
function status(text) {
  $("puzzle-status").textContent = text || "";
}

function showError(err) {
  const box = $("puzzle-error");
  if (!err) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.textContent = errorText(state.t, err);
  box.hidden = false;
}

/** drawBar draws the solver's rating and the themes. */
function drawBar() {
  const t = state.t;
  showAccount(t, state.me);
  const o = state.overview;
  const solver = $("puzzle-solver");
  if (o && o.solver) {
    const r = `${o.solver.rating}${o.solver.provisional ? "?" : ""}`;
    solver.textContent = o.solver.attempts
      ? tr("puzzles.solver", { rating: r, solved: o.solver.solved, attempts: o.solver.attempts })
      : tr("puzzles.solver.new", { rating: r });
  } else if (state.me === null) {
    replace(solver, tr("puzzles.solver.guest"), " ", h("a", { href: "/account" }, tr("puzzles.signin")));
  } else {
    solver.textContent = "";
  }
  const select = $("puzzle-theme");
  const counts = new Map(((o && o.themes) || []).map((x) => [x.theme, x.count]));
  replace(select,
    h("option", { value: "" }, o ? tr("puzzles.theme.all", { n: o.total }) : tr("puzzles.theme.any")),
    THEMES.map((th) => h("option", { value: th }, counts.has(th) ? tr("puzzles.theme.count", { theme: themeName(th), n: counts.get(th) }) : themeName(th))));
  select.value = state.mode.theme || "";
  $("puzzle-modes").hidden = state.mode.kind === "learn";
  const recent = (o && o.recent) || [];
  $("puzzle-recent").hidden = recent.length === 0;
  replace($("puzzle-recent-list"), recent.map((a) => h("li", { class: a.correct ? "is-right" : "is-wrong" },
    h("a", { href: `/puzzles/${encodeURIComponent(a.puzzle)}` },
      h("span", { class: "verdict-mark", "aria-hidden": "true" }, a.correct ? "✓" : "✗"), " ",
      tr(a.correct ? "puzzles.recent.right" : "puzzles.recent.wrong", {
        date: when(a.at, true), before: a.before, after: a.after, change: changeText(a.after - a.before),
      })))));
}

/** question states the puzzle's question for the position v. */
function question(v) {
  if (v.phase === "auction") return v.auction && v.auction.mustBid ? tr("puzzles.q.mustbid") : tr("puzzles.q.auction");
  return v.legal.some((m) => m.startsWith("thief")) ? tr("puzzles.q.thieves") : tr("puzzles.q.turn");
}

/** drawPuzzle draws the puzzle and, once answered, its verdict. */
function drawPuzzle() {
  const p = state.puzzle;
  const box = $("puzzle");
  if (!p) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const t = state.t;
  const v = p.view;
  const me = p.players[p.seat] || tr("term.seat.n", { n: p.seat + 1 });
  const kicker = [p.daily ? tr("puzzles.daily.kicker", { day: p.daily }) : tr("puzzles.kicker", { rating: p.rating }),
    p.themes.map(themeName).join(" · ")];
  if (p.attempts) kicker.push(tr("puzzles.solvedby", { solved: p.solved, attempts: p.attempts }));
  $("puzzle-kicker").textContent = kicker.join(" — ");
  $("puzzle-q").textContent = question(v);
  $("puzzle-find").textContent = `${tr("puzzles.you", { player: me })} ${tr("puzzles.q.find")}`;
  replace($("puzzle-source"), tr("puzzles.source", { players: p.players.length, round: v.round, n: p.move + 1 }), " ",
    h("a", { href: `${p.replay}#${p.move}`, id: "puzzle-replay" }, tr("puzzles.source.replay")));
  const answered = state.verdict;
  renderTable($("table"), v, p.events, state.t, {
    seat: p.seat, animate: false, log: true, busy: state.busy, replay: true,
    onMove: answered ? undefined : answer,
  });
  drawVerdict();
}

/** drawVerdict tells the verdict of the answer given. */
function drawVerdict() {
  const box = $("puzzle-verdict");
  const v = state.verdict;
  const p = state.puzzle;
  if (!v || !p) {
    box.hidden = true;
    replace(box);
    return;
  }
  const t = state.t;
  const me = p.players[p.seat] || tr("term.seat.n", { n: p.seat + 1 });
  box.hidden = false;
  box.className = `puzzle-verdict ${v.correct ? "is-right" : "is-wrong"}`;
  const lines = [];
  lines.push(h("p", { class: "verdict-title", id: "verdict-title" },
    h("span", { class: "verdict-mark", "aria-hidden": "true" }, v.correct ? "✓" : "✗"), " ",
    v.correct ? tr("puzzles.right", { move: moveLabel(t, v.best) }) : tr("puzzles.wrong", { move: moveLabel(t, v.best) })));
  lines.push(h("p", {}, tr("puzzles.best", { move: moveLabel(t, v.best), chance: percent(v.bestShare), margin: points(v.margin) })));
  if (!v.correct) {
    lines.push(h("p", {}, v.overpaid
      ? tr("puzzles.overpaid", { move: moveLabel(t, v.answer) })
      : tr("puzzles.yours", { move: moveLabel(t, v.answer), chance: percent(v.share), loss: signedPercent(-v.loss) })));
  }
  lines.push(h("p", {}, v.played === v.best ? tr("puzzles.played.best", { player: me })
    : tr("puzzles.played", { player: me, move: moveLabel(t, v.played) })));
  lines.push(movesChart(v));
  if (v.rating) {
    lines.push(h("p", { class: "verdict-rating", id: "verdict-rating" },
      tr("puzzles.rating", { before: v.rating.before, after: `${v.rating.after}${v.rating.provisional ? "?" : ""}`, change: changeText(v.rating.change) }),
      " ", tr("puzzles.rating.puzzle", { rating: v.rating.puzzle })));
  } else if (state.me === null) {
    lines.push(h("p", { class: "verdict-rating muted" }, tr("puzzles.guest"), " ", h("a", { href: "/account" }, tr("puzzles.signin"))));
  }
  lines.push(h("div", { class: "verdict-actions" }, nextButton(),
    h("a", { class: "button", href: `${p.replay}#${p.move}` }, tr("puzzles.source.replay"))));
  replace(box, lines);
}

/** points writes a difference of win shares as points of the chance to win. */
function points(x) {
  return tr("puzzles.points", { n: Math.round(x * 100) });
}

/** movesChart lists every move with its chance to win, as bars. */
function movesChart(v) {
  const t = state.t;
  const rows = v.moves.map((m) => {
    const tags = [];
    if (m.move === v.best) tags.push(tr("puzzles.move.best"));
    if (m.move === v.answer) tags.push(tr("puzzles.move.yours"));
    if (m.move === v.played) tags.push(tr("puzzles.move.played"));
    const cls = ["move-row", m.move === v.best ? "is-best" : "", m.move === v.answer ? "is-yours" : ""].filter(Boolean).join(" ");
    return h("li", { class: cls, "data-move": m.move },
      h("span", { class: "move-name" }, moveLabel(t, m.move), tags.length ? h("span", { class: "move-tags" }, ` (${tags.join(", ")})`) : null),
      h("span", { class: "move-bar", "aria-hidden": "true" }, fill(m.share)),
      h("span", { class: "move-chance" }, percent(m.share)));
  });
  return h("div", { class: "verdict-moves" }, h("h3", { id: "moves-h" }, tr("puzzles.moves")),
    h("ol", { class: "move-list", "aria-labelledby": "moves-h" }, rows));
}

/** fill is a bar's filled part for a share; set through the CSSOM, which the page's CSP allows (a style attribute it does not). */
function fill(share) {
  const e = h("span", { class: "move-fill" });
  e.style.width = `${Math.round(share * 100)}%`;
  return e;
}

/** nextButton goes on: the next mistake of the game, or the next puzzle. */
function nextButton() {
  const l = state.learn;
  if (l && l.i + 1 < l.list.length) {
    return h("button", { type: "button", class: "primary", id: "puzzle-next", onclick: () => learnAt(l.i + 1) },
      tr("puzzles.learn.next"));
  }
  return h("button", { type: "button", class: "primary", id: "puzzle-next", onclick: () => go({ kind: "next", theme: state.mode.theme }) },
    tr("puzzles.next"));
}

/** answer sends the move pressed as the answer. */
async function answer(token) {
  if (state.busy || state.verdict || !state.puzzle) return;
  state.busy = true;
  showError(null);
  status(tr("puzzles.sending"));
  drawPuzzle();
  try {
    state.verdict = await api.request("POST", `/api/puzzles/${encodeURIComponent(state.puzzle.id)}/answer`, { move: token });
    remember(state.puzzle.id);
    status("");
    refreshOverview();
  } catch (err) {
    status("");
    showError(err);
    if (err.code === "puzzle_answered") {
      // Answered from another tab: show what was answered there.
      state.busy = false;
      return show(state.puzzle.id);
    }
  }
  state.busy = false;
  drawPuzzle();
  const box = $("puzzle-verdict");
  if (!box.hidden) {
    box.scrollIntoView({ block: "start", behavior: "instant" });
    box.focus({ preventScroll: true });
  }
}

async function refreshOverview() {
  try {
    state.overview = await api.request("GET", "/api/puzzles");
  } catch {
    return; // the bar keeps what it had
  }
  drawBar();
}

/** address is the page's address for the puzzle shown in the mode. */
function address(p) {
  const m = state.mode;
  if (m.kind === "learn") return `/puzzles/${encodeURIComponent(p.id)}?game=${encodeURIComponent(m.game)}${m.seat >= 0 ? `&seat=${m.seat}` : ""}`;
  if (m.kind === "daily") return "/puzzles?daily=1";
  return `/puzzles/${encodeURIComponent(p.id)}${m.theme ? `?theme=${m.theme}` : ""}`;
}

/** load fetches the puzzle of path and shows it. */
async function load(path, empty) {
  showError(null);
  status(tr("puzzles.loading"));
  state.busy = false;
  try {
    const p = await api.request("GET", `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(state.lang)}`);
    state.puzzle = p;
    state.verdict = p.verdict || null;
    status(state.verdict ? tr("puzzles.answered") : "");
    history.replaceState(null, "", address(p));
    drawPuzzle();
    $("puzzle-q").focus({ preventScroll: true });
    window.scrollTo({ top: 0, behavior: "instant" });
  } catch (err) {
    state.puzzle = null;
    state.verdict = null;
    drawPuzzle();
    status("");
    if (err.code === "puzzle_not_found" && empty) {
      status(empty);
    } else {
      showError(err);
      if (state.mode.kind !== "next") {
        // A puzzle that is not there (an old link): the next one is.
        replace($("puzzle-status"), h("button", { type: "button", class: "primary", id: "puzzle-next",
          onclick: () => go({ kind: "next", theme: state.mode.theme }) }, tr("puzzles.next")));
      }
    }
  }
}

const show = (id) => load(`/api/puzzles/${encodeURIComponent(id)}`);

/** go switches to mode m and loads its puzzle. */
function go(m) {
  state.mode = m;
  state.learn = m.kind === "learn" ? state.learn : null;
  $("puzzle-learn").hidden = m.kind !== "learn";
  drawBar();
  switch (m.kind) {
    case "id":
      return show(m.id);
    case "daily":
      return load("/api/puzzles/daily", tr("puzzles.none"));
    case "learn":
      return loadLearn();
  }
  const q = new URLSearchParams();
  if (m.theme) q.set("theme", m.theme);
  if (!state.me) {
    const skip = seen();
    if (state.puzzle) skip.push(state.puzzle.id);
    if (skip.length) q.set("skip", skip.slice(-SEEN_MAX).join(","));
  }
  return load(`/api/puzzles/next?${q}`, m.theme ? tr("puzzles.none.theme") : tr("puzzles.none"));
}

// LEARN_TRIES bounds how often a page asks again for the puzzles of a
// game still being searched (at the server's lowest priority, which may
// take a while): every 10 seconds at first, then every minute, for about
// two hours.
const LEARN_TRIES = 120;

/** loadLearn fetches the puzzles of the game of the mode, the seat's own. */
async function loadLearn(tries = 0) {
  const m = state.mode;
  clearTimeout(state.learnTimer);
  const note = $("puzzle-learn");
  note.hidden = false;
  let answer;
  try {
    answer = await api.request("GET", `/api/games/${encodeURIComponent(m.game)}/puzzles`);
  } catch (err) {
    note.hidden = true;
    showError(err);
    // Never advice on a game being played: say so in the puzzles' words.
    if (err.code === "game_in_progress") $("puzzle-error").textContent = tr("puzzles.learn.live");
    return;
  }
  const mine = answer.puzzles.filter((p) => m.seat < 0 || p.seat === m.seat);
  state.learn = { game: m.game, seat: m.seat, list: mine, i: 0, status: answer.status };
  if (mine.length === 0) {
    state.puzzle = null;
    drawPuzzle();
    if (answer.status === "pending") {
      note.textContent = tr("puzzles.learn.pending");
      if (tries < LEARN_TRIES) state.learnTimer = setTimeout(() => loadLearn(tries + 1), Math.min(60000, 10000 * (1 + tries)));
      return;
    }
    replace(note, tr("puzzles.learn.none"), " ",
      h("button", { type: "button", class: "primary", id: "puzzle-more", onclick: () => go({ kind: "next", theme: "" }) }, tr("puzzles.learn.more")));
    return;
  }
  const at = Math.max(0, mine.findIndex((p) => p.id === m.id));
  return learnAt(at);
}

function learnAt(i) {
  const l = state.learn;
  l.i = i;
  state.mode = { ...state.mode, id: l.list[i].id };
  replace($("puzzle-learn"), h("strong", {}, tr("puzzles.learn.title")), " — ",
    tr("puzzles.learn.progress", { n: i + 1, total: l.list.length }));
  return show(l.list[i].id);
}

$("puzzle-theme").addEventListener("change", (ev) => go({ kind: "next", theme: ev.target.value }));
onClick("puzzle-daily", () => go({ kind: "daily", theme: state.mode.theme }));

await start(async (t, tag) => {
  state.t = t;
  state.lang = tag;
  document.title = `Razzia! — ${t("puzzles.title")}`;
  drawBar();
  if (state.puzzle) {
    // The events are told in the language asked for: ask again.
    const keep = state.verdict;
    await show(state.puzzle.id);
    state.verdict = state.verdict || keep;
    drawPuzzle();
  }
});
try {
  [state.me, state.overview] = await Promise.all([whoami().catch(() => false), api.request("GET", "/api/puzzles")]);
} catch (err) {
  showError(err);
}
drawBar();
await go(state.mode);
