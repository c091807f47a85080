// replay.js: the replay viewer at /g/{id}/replay. It asks the server for
// the game replayed move by move (GET /api/games/{id}/replay: the start's
// view, and each move's events and patch of the view) and steps through
// it; the table is drawn by the live page's renderer, so both look the
// same. Opened without a step it plays the game by itself, a move at a
// time, until a button, a key or the slider takes over.
//
// Keys: ← and → step one move, PageUp and PageDown ten, Home and End go
// to the start and the end, Space plays or pauses, N and P go to the next
// and the previous mistake of the analysis. The position is kept
// in the address (#12), so a reload or a shared link shows the same move.

import { renderTable } from "./render.js";
import { guest } from "./dom.js";
import { replayURL } from "./api.js";
import { views } from "./patch.js";
import { start } from "./page.js";
import { onClick } from "./forms.js";
import { drawChart, fetchAnalysis, moveCursor, verdict, verdictClass, summaryBox, nextMistake } from "./analysis.js";
import { lineItem } from "./chat.js";
import { errorText } from "./errors.js";
import { whoami } from "./players.js";
import { luckBox, fetchGamePuzzles, markPuzzles } from "./luck.js";

const id = (location.pathname.match(/^\/g\/([a-z0-9]+)\/replay\/?$/) || [])[1] || "";

/** STEP is how long autoplay shows a move at 1×; a round's end stays longer. */
const STEP = 1100;
const ROUND_END = 4000;

const $ = (name) => document.getElementById(name);

// The analysis sits under the board (replay.js draw): it is moved into
// each table drawn, so it is kept here.
const analysisBox = $("analysis");
const state = {
  game: null, // GameInfo
  steps: [], // [{view, events}]: events are those the step's move caused
  chat: [], // the players' chat, each line with the moves played when it was said
  log: [], // every event of the game, for the table's log
  logged: [], // logged[i]: how many events steps 0..i caused
  rounds: [], // rounds[r-1]: the first step of round r
  pos: 0,
  playing: false,
  speed: 1, // autoplay's speed: 0.5, 1, 2 or 4
  timer: 0,
  t: null, // the translator of the page's language
  lang: "en",
  me: null, // the signed-in account, to challenge the game's players at its end
  error: null, // {code, message} when the replay cannot be shown
  analysis: null, // the analysis answer, once asked (analysis.js)
  puzzles: null, // the puzzles found in the game, once it is analysed
  analysisTimer: 0,
};

// CHROME are the page's own words: [element id, attribute or "" for the
// text, key, English]. The keys belong to the web domain; until a
// catalogue has them the English stands, never a bare key.
const CHROME = [
  ["replay-title", "", "web.replay.title", "Replay"],
  ["replay-nav", "aria-label", "web.nav.label", "Page"],
  ["rules-button", "", "web.rules.open", "Rules"],
  ["rules-close", "aria-label", "web.close", "Close"],
  ["replay-table-link", "", "web.replay.table", "Table"],
  ["replay-record-link", "", "web.replay.record", "Download record"],
  ["lang-label", "", "web.replay.language", "Language"],
  ["replay-buttons", "aria-label", "web.replay.controls", "Step through the game"],
  ["replay-first", "aria-label", "web.replay.first", "The start"],
  ["replay-prev", "aria-label", "web.replay.prev", "Previous move"],
  ["replay-next", "aria-label", "web.replay.next", "Next move"],
  ["replay-last", "aria-label", "web.replay.last", "The end"],
  ["replay-slider-label", "", "web.replay.slider", "Move"],
  ["replay-rounds", "aria-label", "web.replay.rounds", "Go to"],
  ["replay-back-link", "", "web.gone.lobby", "Go to the lobby"],
  ["replay-chat-h", "", "web.replay.chat", "Chat"],
  ["replay-speeds", "aria-label", "web.replay.speed", "Speed"],
  ["mistake-prev", "", "web.replay.prevmistake", "Previous mistake"],
  ["mistake-next", "", "web.replay.nextmistake", "Next mistake"],
];

function translateChrome() {
  for (const [id, attr, key, english] of CHROME) {
    const e = $(id);
    if (!e) continue;
    if (attr) e.setAttribute(attr, text(key, null, english));
    else e.textContent = text(key, null, english);
  }
  for (const id of ["replay-first", "replay-prev", "replay-next", "replay-last"]) {
    $(id).title = $(id).getAttribute("aria-label");
  }
  drawPlay();
  drawRounds();
}

// text returns the translation of key, or fallback when the catalogue
// lacks it (a page must never show a bare key).
function text(key, args, fallback) {
  const t = state.t;
  if (t && (!t.has || t.has(key))) return t(key, args);
  return fallback.replace(/\{(\w+)\}/g, (all, name) => (args && name in args ? String(args[name]) : all));
}

async function load() {
  if (!id) return fail({ code: "not_found" });
  let resp;
  try {
    resp = await fetch(replayURL(id, state.lang), {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
  } catch {
    return fail({ code: "network" });
  }
  let data = null;
  try {
    data = await resp.json();
  } catch {
    data = null;
  }
  if (!resp.ok || !data || !data.start || !Array.isArray(data.steps)) {
    return fail((data && data.error) || { code: "http", message: `HTTP ${resp.status}` });
  }
  state.game = data.game;
  state.chat = Array.isArray(data.chat) ? data.chat : [];
  const all = views(data);
  state.steps = all.map((view, i) => ({ view, events: i ? data.steps[i - 1].events || [] : [] }));
  state.log = [];
  // Each event carries its move: the log numbers moves as the counter does.
  state.logged = state.steps.map((s, i) => {
    state.log.push(...s.events.map((e) => ({ ...e, move: i })));
    return state.log.length;
  });
  state.rounds = [];
  state.steps.forEach((s, i) => {
    if (state.rounds[s.view.round - 1] === undefined && s.view.phase !== "over") state.rounds[s.view.round - 1] = i;
  });
  state.error = null;
  const hash = (location.hash || "").slice(1);
  state.pos = clamp(Number(hash) || 0);
  $("replay-controls").hidden = false;
  $("replay-back").hidden = true;
  const slider = $("replay-slider");
  slider.max = String(state.steps.length - 1);
  drawRounds();
  draw();
  // A link to a step shows that step; the replay itself plays.
  if (hash === "" && !state.loadedOnce) play(true);
  else if (state.playing) schedule();
  state.loadedOnce = true;
  loadAnalysis();
}

// loadAnalysis asks for the analysis of a finished game; while it is
// pending, the section says so.
async function loadAnalysis(tries = 0) {
  if (!state.game || state.game.status !== "finished") return;
  clearTimeout(state.analysisTimer);
  try {
    state.analysis = await fetchAnalysis(id);
    if (state.analysis.status === "done") state.puzzles = (await fetchGamePuzzles(id)).puzzles;
  } catch {
    state.analysis = state.analysis || null; // the replay stands without it
  }
  drawAnalysis(true);
  // The server analyses in the background: look again, less and less often.
  if (state.analysis && state.analysis.status === "pending" && tries < 40) {
    state.analysisTimer = setTimeout(() => loadAnalysis(tries + 1), Math.min(30000, 3000 * (tries + 1)));
  }
}

function drawAnalysis(all) {
  const a = state.analysis;
  const box = analysisBox;
  if (!a) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("analysis-h").textContent = text("web.analysis.title", null, "Win chances");
  const verdictBox = $("analysis-verdict");
  if (a.status !== "done" || !a.report) {
    $("analysis-chart-box").replaceChildren();
    $("analysis-luck-box").replaceChildren();
    verdictBox.className = "analysis-verdict";
    $("analysis-more-box").replaceChildren();
    $("mistake-nav").hidden = true;
    verdictBox.textContent = a.status === "failed"
      ? text("web.analysis.failed", null, "This game could not be analysed.")
      : text("web.analysis.pending", null, "The analysis of this game is being made: it appears here once it is ready.");
    return;
  }
  const t = (key, args) => text(key, args, key);
  if (all || !document.getElementById("analysis-chart")) {
    drawChart($("analysis-chart-box"), a.report, a.report.players, state.pos, t, (pos) => by(pos));
    $("analysis-luck-box").replaceChildren(luckBox(t, a.report, a.report.players, id) || "");
  } else moveCursor(a.report, state.pos);
  verdictBox.className = `analysis-verdict ${verdictClass(a.report, state.pos)}`;
  verdictBox.replaceChildren(...verdict(t, a.report, a.report.players, state.pos).map((line) => {
    const p = document.createElement("p");
    p.textContent = line;
    return p;
  }));
  $("mistake-nav").hidden = false;
  $("mistake-prev").disabled = nextMistake(a.report, state.pos, -1) === null;
  $("mistake-next").disabled = nextMistake(a.report, state.pos, 1) === null;
  $("analysis-more-box").replaceChildren(summaryBox(t, a.report, a.report.players, state.pos, (pos) => by(pos)));
  markPuzzles(t, $("analysis-more-box"), state.puzzles);
}

// toMistake goes to the next (dir 1) or previous (dir −1) mistake.
function toMistake(dir) {
  const a = state.analysis;
  if (!a || !a.report) return false;
  const pos = nextMistake(a.report, state.pos, dir);
  if (pos === null) return false;
  by(pos);
  return true;
}

function fail(err) {
  state.error = err;
  pause();
  $("replay-controls").hidden = true;
  $("replay-back").hidden = false;
  const table = $("table");
  table.replaceChildren();
  table.removeAttribute("aria-busy");
  table.dataset.status = "";
  showError();
}

function showError() {
  const err = state.error;
  if (!err) return;
  let msg;
  switch (err.code) {
    case "network":
      msg = text("web.replay.error.network", null, "The server cannot be reached. Check your connection and reload the page.");
      break;
    case "not_started":
      msg = text("web.replay.error.not_started", null, "This game has not started yet: there is nothing to replay.");
      break;
    default:
      msg = state.t ? errorText(state.t, err) : err.message || "The replay cannot be shown.";
  }
  const status = $("status-message");
  status.textContent = msg;
  status.classList.add("error");
}

function clamp(pos) {
  const last = Math.max(0, state.steps.length - 1);
  if (!Number.isFinite(pos)) return 0;
  return Math.min(last, Math.max(0, Math.trunc(pos)));
}

/** go shows the table after move pos (0: the start). */
function go(pos) {
  // While the steps are (re)loading the address keeps the position: load
  // reads it.
  if (!state.steps.length) return;
  pos = clamp(pos);
  if (pos === state.pos) return;
  state.pos = pos;
  history.replaceState(null, "", pos ? `#${pos}` : location.pathname);
  draw();
}

/** by is go for the reader's own moves: they stop the autoplay. */
function by(pos) {
  pause();
  go(pos);
}

// ---- autoplay -----------------------------------------------------------------

function play(auto) {
  if (!state.steps.length) return;
  if (state.pos >= state.steps.length - 1) {
    if (auto) return;
    go(0); // play again from the start
  }
  state.playing = true;
  drawPlay();
  schedule();
}

function pause() {
  state.playing = false;
  clearTimeout(state.timer);
  drawPlay();
}

function schedule() {
  clearTimeout(state.timer);
  if (!state.playing) return;
  const step = state.steps[state.pos];
  const ended = step && step.events.some((e) => e.kind === "roundend");
  state.timer = setTimeout(() => {
    if (!state.playing) return;
    go(state.pos + 1);
    if (state.pos >= state.steps.length - 1) pause();
    else schedule();
  }, (ended ? ROUND_END : STEP) / state.speed);
}

// setSpeed sets autoplay's speed; a move on its way comes at the new one.
function setSpeed(speed) {
  state.speed = speed;
  for (const b of $("replay-speeds").querySelectorAll("button")) {
    b.setAttribute("aria-pressed", String(Number(b.dataset.speed) === speed));
  }
  if (state.playing) schedule();
}

function drawPlay() {
  const b = $("replay-play");
  if (!b) return;
  const label = state.playing ? text("web.replay.pause", null, "Pause") : text("web.replay.play", null, "Play");
  b.textContent = state.playing ? "❚❚" : "▶";
  b.setAttribute("aria-label", label);
  b.title = label;
  b.setAttribute("aria-pressed", state.playing ? "true" : "false");
}

// drawRounds offers a button for each round's start and the end.
function drawRounds() {
  const box = $("replay-rounds");
  const items = state.rounds.map((pos, i) => [pos, text("web.replay.round", { round: i + 1 }, "Round {round}"), `round-${i + 1}`]);
  if (state.steps.length) items.push([state.steps.length - 1, text("web.replay.end", null, "End"), "end"]);
  box.replaceChildren(...items.map(([pos, label, key]) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "replay-round";
    b.dataset.step = String(pos);
    b.dataset.round = key;
    b.textContent = label;
    b.addEventListener("click", () => by(pos));
    return b;
  }));
}

// ---- drawing --------------------------------------------------------------------

function draw() {
  if (state.error) return showError();
  const step = state.steps[state.pos];
  if (!step) return;
  const last = state.steps.length - 1;
  const view = step.view;

  const table = $("table");
  table.removeAttribute("aria-busy");
  // Without onMove the renderer draws no move buttons; the log holds the
  // game up to this step. data-status stays the game's (finished,
  // archived, or playing when a game is watched before its end).
  renderTable(table, view, state.log.slice(0, state.logged[state.pos]), state.t, {
    game: state.game,
    seat: -1,
    replay: true,
    recent: step.events,
    links: { record: `/api/games/${id}/record`, download: `razzia-${id}.json` },
    challenge: { me: state.me, redraw: draw },
  });
  // Under the board (or the game's end): on a phone the board comes first,
  // on a desktop board, chart and log are in sight together.
  const main = table.querySelector(".tbl-main");
  if (main && analysisBox.parentNode !== main) main.appendChild(guest(analysisBox));

  $("replay-pos").textContent = `${state.pos} / ${last}`;
  $("replay-pos").setAttribute("aria-label",
    text("web.replay.position", { n: state.pos, total: last }, "Move {n} of {total}"));
  const slider = $("replay-slider");
  slider.value = String(state.pos);
  slider.setAttribute("aria-valuetext", text("web.replay.position", { n: state.pos, total: last }, "Move {n} of {total}"));
  $("replay-first").disabled = $("replay-prev").disabled = state.pos === 0;
  $("replay-next").disabled = $("replay-last").disabled = state.pos === last;
  for (const b of $("replay-rounds").querySelectorAll("button")) {
    const at = Number(b.dataset.step);
    const next = [...b.parentNode.children].map((x) => Number(x.dataset.step)).filter((s) => s > at);
    b.setAttribute("aria-current", state.pos >= at && (next.length === 0 || state.pos < Math.min(...next)) ? "step" : "false");
  }

  const events = $("replay-events");
  const sentences = state.pos === 0
    ? [text("web.replay.start", null, "The start of the game: nobody has moved yet.")]
    : step.events.map((e) => e.text).filter(Boolean);
  const ul = document.createElement("ul");
  for (const s of sentences) {
    const li = document.createElement("li");
    li.textContent = s;
    ul.appendChild(li);
  }
  events.replaceChildren(ul);

  $("status-message").textContent = "";
  $("status-message").classList.remove("error");
  drawAnalysis(false);
  drawChat();
}

// drawChat shows the players' chat said up to the step shown, the lines
// said at this very step marked: as text, never as HTML (chat.js).
function drawChat() {
  const box = $("replay-chat");
  box.hidden = state.chat.length === 0;
  const said = state.chat.filter((l) => l.move <= state.pos);
  const list = $("replay-chat-lines");
  const t = state.t || ((k) => k);
  list.replaceChildren(...said.map((l) => {
    const li = lineItem(t, l);
    if (l.move === state.pos) li.classList.add("chat-now");
    return li;
  }));
  list.scrollTop = list.scrollHeight;
}

function onKey(ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || !state.steps.length) return;
  const tag = ev.target && ev.target.tagName;
  // The slider and the language select handle their own keys; a button
  // its Space.
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const mistake = { n: 1, N: 1, p: -1, P: -1 }[ev.key];
  if (mistake) {
    if (toMistake(mistake)) ev.preventDefault();
    return;
  }
  const steps = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
  if (ev.key in steps) by(state.pos + steps[ev.key]);
  else if (ev.key === "Home") by(0);
  else if (ev.key === "End") by(state.steps.length - 1);
  else if (ev.key === " " && tag !== "BUTTON") state.playing ? pause() : play(false);
  else return;
  ev.preventDefault();
}

onClick("replay-first", () => by(0));
onClick("replay-prev", () => by(state.pos - 1));
onClick("replay-next", () => by(state.pos + 1));
onClick("replay-last", () => by(state.steps.length - 1));
onClick("replay-play", () => (state.playing ? pause() : play(false)));
$("replay-slider").addEventListener("input", (ev) => by(Number(ev.target.value)));
for (const b of $("replay-speeds").querySelectorAll("button")) onClick(b.id, () => setSpeed(Number(b.dataset.speed)));
onClick("mistake-prev", () => toMistake(-1));
onClick("mistake-next", () => toMistake(1));
document.addEventListener("keydown", onKey);
// The chart is drawn in the page's pixels: again when the page's width changes.
let chartWidth = 0;
window.addEventListener("resize", () => {
  if (innerWidth !== chartWidth) {
    chartWidth = innerWidth;
    drawAnalysis(true);
  }
});
window.addEventListener("hashchange", () => {
  const n = Number(location.hash.slice(1)) || 0;
  if (n !== state.pos) by(n);
});

if (id) {
  $("replay-game").textContent = id;
  $("replay-table-link").href = `/g/${id}`;
  $("replay-record-link").href = `/api/games/${id}/record`;
  $("replay-record-link").setAttribute("download", `razzia-${id}.json`);
}

whoami().then((a) => {
  state.me = a || null;
  if (a && state.steps.length) draw();
}, () => {});

// start (page.js) sets up the language switch and the rules dialog, as on
// every page.
let loaded = false;
start((t, lang) => {
  state.t = t;
  const switched = state.lang !== lang;
  state.lang = lang;
  translateChrome();
  drawAnalysis(true);
  document.title = `Razzia — ${text("web.replay.title", null, "Replay")} ${id}`;
  // The server tells the events in the language asked for: ask again,
  // and show no sentence of the old language meanwhile.
  if (switched && loaded) {
    state.steps = [];
    load();
  } else if (state.steps.length || state.error) draw();
}).then(() => {
  loaded = true;
  return load();
}, load);
