// table.js: the table page at /g/{id}: the invite and join form while seats
// are open, then the live table; it keeps the WebSocket alive and explains
// every problem in the reader's language.

import { onSubmit, onClick } from "./forms.js";
import { h, replace, sync, setText, setClass, setAttr, $, stylesheet } from "./dom.js";
import * as api from "./api.js";
import { Connection } from "./conn.js";
import { narrate } from "./narrate.js";
import { start } from "./page.js";
import { coverAround, renderTable } from "./render.js";
import { displayNames, moveLabel, tableKind } from "./words.js";
import { fetchHints } from "./hints.js";
import { isTutorial } from "./guided.js";
import { whoami, changeText, ratingFigure } from "./players.js";
import { received, tick, left, ticks } from "./clock.js";
import { turnAlert, alertSettings, clockTick } from "./notify.js";
import { ChatPanel } from "./chat.js";
import { errorText } from "./errors.js";
import { resendDelay } from "./seat.js";
import { setupSeats, hello, receiveSeats, paintSeats, presenceMark } from "./presence.js";

const id = decodeURIComponent(location.pathname.split("/")[2] || "");

// The page's whole state; render() draws it.
const page = {
  t: (k) => k, // the translator, set once the catalogue is loaded
  lang: "", // its language, in which the server tells the events
  game: null, // GameInfo
  you: -1, // our seat, -1 for a spectator
  view: null, // Snapshot, null before the game starts
  log: [], // every event so far
  pending: null, // the token of a move sent and not yet answered
  pendingTimer: 0,
  lastSent: null, // {token, seq, resends} of the last move sent
  errorTimer: 0,
  connected: false,
  offline: false, // the browser is offline or the server stopped answering
  queued: null, // {token, seq} of a move made while offline, sent on return
  lost: false, // the connection dropped: say so when it comes back
  gone: false, // the game does not exist
  status: null, // [key, args] of the connection message shown
  error: null, // [key, args] of the last refusal
  hints: null, // {moves, list?, busy?, error?}: the bot's best moves, asked at view.moves
  clock: null, // the table's clocks (clock.js received()), null when untimed
  takeOvers: [], // every time a bot took a seat, told
  preMove: "", // our decision ahead in the running auction
  preMoveDropped: "", // why it was not played
  creator: false, // we created the table: we may cancel it and change its bots while it waits
  gaveUp: false, // we gave up our seat in the waiting room
  levels: null, // the server's bot levels (GET /api/levels), loaded for the creator
  levelBusy: -1, // the seat whose level change is being sent
  left: false, // we left the table: a bot plays for us until we come back
  rematch: { offer: null, busy: false }, // the rematch offered at the game's end
  me: null, // the signed-in account, null for a guest
  rating: null, // {change, figure}: what the rated game did to our rating, once the server has it
  ratings: {}, // name → rating figure of each signed-in player at the table, as their profiles say
  ratingAsks: 0,
};

// ---- messages -------------------------------------------------------------------

function announce(text) {
  // Emptying first makes a screen reader read the text even if unchanged.
  const el = $("announcer");
  el.textContent = "";
  if (text) setTimeout(() => (el.textContent = text), 60);
}

function showStatus() {
  const t = page.t;
  const el = $("status-message");
  const parts = [];
  // Offline, the banner says it all (showOffline).
  if (page.status && !page.offline) {
    const [key, args, action] = page.status;
    parts.push(h("span", { class: "status-text" }, t(key, args)));
    if (action === "reconnect") {
      parts.push(h("button", { type: "button", class: "small", onclick: () => conn.now() }, t("web.conn.now")));
    }
  }
  if (page.error) {
    parts.push(h("span", { class: "status-error" }, page.error),
      h("button", { type: "button", class: "small", "aria-label": t("web.close"), onclick: () => { page.error = null; showStatus(); } }, "✕"));
  }
  sync(el, parts);
  setClass(el, `status-message${page.error ? " is-error" : page.status ? " is-info" : ""}`);
}

// showOffline draws the connection banner: fixed over the page's top, so
// that it comes and goes without moving the table, with the move that
// waits for the connection.
function showOffline() {
  const t = page.t;
  const el = $("conn-banner");
  el.hidden = !page.offline && !page.queued;
  if (el.hidden) return;
  const parts = [h("strong", {}, t(page.offline ? "web.conn.offline" : "web.conn.sending"))];
  if (page.offline && page.status) {
    const [key, args, action] = page.status;
    parts.push(" ", h("span", { class: "conn-detail" }, t(key, args)));
    if (action === "reconnect") parts.push(" ", h("button", { type: "button", class: "small conn-detail", onclick: () => conn.now() }, t("web.conn.now")));
  }
  if (page.queued) {
    parts.push(" ", h("span", { id: "conn-queued" }, t("web.conn.queued", { move: moveLabel(t, page.queued.token) })), " ",
      h("button", { type: "button", class: "small", id: "conn-unqueue", onclick: () => { page.queued = null; showOffline(); render(); } },
        t("web.conn.unqueue")));
  }
  replace(el, parts);
}

// flushQueued sends the move made while offline, now that the table is
// known again, if it still stands: the same decision, still legal.
function flushQueued() {
  const q = page.queued;
  if (!q || page.offline || !page.connected) return;
  page.queued = null;
  showOffline();
  const v = page.view;
  if (v && v.moves === q.seq && v.legal.includes(q.token)) {
    send(q.token);
    return;
  }
  setError(page.t("web.conn.queue.dropped", { move: moveLabel(page.t, q.token) }));
  render();
}

function setError(text) {
  // A closed table's page says why once, in its own words (showGone).
  if (page.gone) text = null;
  page.error = text || null;
  clearTimeout(page.errorTimer);
  // A refusal is news, not a state: it fades after a while.
  if (text) page.errorTimer = setTimeout(() => setError(null), 12000);
  showStatus();
}

// ---- the waiting room and the join form -------------------------------------------

function renderWaiting() {
  const { game, you, t } = page;
  const open = game.seats.map((s, i) => (s.open ? i : -1)).filter((i) => i >= 0);
  const waiting = game.status === "open";
  setAttr($("waiting"), "hidden", !waiting && "");
  if (!waiting) return;
  $("waiting-text").textContent = t("web.waiting.text", { n: open.length }) +
    (you >= 0 ? " " + t("web.waiting.seat", { seat: you + 1 }) : "");
  $("waiting-kind").textContent = tableKind(t, game);
  $("waiting-kind").classList.toggle("is-rated", !!game.rated);
  const url = location.origin + (game.invite || `/g/${game.id}`);
  $("invite-link").value = url;
  $("invite-link").textContent = url;
  const { names } = displayNames(t, game.seats.map((s) => s.name), game);
  replace($("open-seats"), game.seats.map((s, i) =>
    h("li", { class: s.open ? "seat-open" : "seat-taken", "data-seat": String(i) },
      h("span", { class: "seat-no" }, t("web.join.seat.n", { n: i + 1 })),
      s.bot && page.creator && page.levels ? levelSelect(i, s.bot)
        : [s.open ? h("em", {}, t("web.seat.open")) : names[i],
          s.account && page.ratings[s.name] ? h("span", { class: "strip-rating" }, page.ratings[s.name]) : null,
          s.bot ? h("span", { class: "badge badge-bot" }, t("term.bot")) : null],
      i === you ? h("span", { class: "badge badge-you" }, t("term.you")) : null)));
  $("cancel-table").hidden = !page.creator || !$("cancel-confirm").hidden;
  // Another's table: a seated person may give the seat up for someone
  // else (the creator cancels the table instead).
  const canGiveUp = you >= 0 && !page.creator;
  if (!canGiveUp) $("giveup-confirm").hidden = true;
  $("giveup-seat").hidden = !canGiveUp || !$("giveup-confirm").hidden;
  $("giveup-q").textContent = canGiveUp ? t("giveup.ask", { seat: you + 1 }) : "";
  $("giveup-done").hidden = !page.gaveUp || you >= 0;
  const canJoin = you < 0 && open.length > 0;
  $("join-form").hidden = !canJoin;
  if (canJoin) {
    const select = $("join-seat");
    const was = select.value;
    replace(select,
      h("option", { value: "" }, t("web.join.first")),
      open.map((i) => h("option", { value: String(i), selected: was === String(i) }, t("web.join.seat.n", { n: i + 1 }))));
  }
}

// levelSelect is the creator's choice of the level of the bot at seat,
// from the server's levels; a rated table offers the rated ones only.
function levelSelect(seat, current) {
  const t = page.t;
  const name = (l) => (t.has && t.has(`bot.${l}`) ? t(`bot.${l}`) : l);
  const about = (l) => (t.has && t.has(`bot.${l.name}.about`) ? t(`bot.${l.name}.about`) : l.description);
  const offered = page.levels.filter((l) => l.name === current || !page.game.rated || l.rated !== false);
  return h("select", { class: "seat-level", "data-seat": String(seat), disabled: page.levelBusy >= 0,
    "aria-label": `${t("web.join.seat.n", { n: seat + 1 })}: ${t("term.bot")}`, onchange: (ev) => setLevel(seat, ev.target.value) },
  offered.map((l) => h("option", { value: l.name, selected: l.name === current, title: about(l) }, t("web.seat.bot", { level: name(l.name) }))));
}

async function loadLevels() {
  if (page.levels) return;
  try {
    const r = await api.listLevels();
    page.levels = (r && r.levels) || [];
  } catch {
    page.levels = null; // the names stand as they are; the next state tries again
    return;
  }
  render();
}

async function setLevel(seat, level) {
  page.levelBusy = seat;
  render();
  try {
    const res = await api.setLevel(id, seat, level);
    page.game = res.game;
    announce(page.t("web.seat.bot", { level: page.t.has && page.t.has(`bot.${level}`) ? page.t(`bot.${level}`) : level }));
  } catch (err) {
    setError(errorText(page.t, err.code));
  } finally {
    page.levelBusy = -1;
    render(); // a refused level shows the seat's own again
  }
}

async function join(ev) {
  ev.preventDefault();
  const t = page.t;
  const errEl = $("join-error");
  const name = $("join-name").value.trim();
  const seatValue = $("join-seat").value;
  errEl.hidden = true;
  if (!name) {
    errEl.textContent = t("web.join.noname");
    errEl.hidden = false;
    $("join-name").focus();
    return;
  }
  $("join").disabled = true;
  try {
    const res = await api.joinGame(id, name, seatValue === "" ? undefined : Number(seatValue));
    try {
      localStorage.setItem("razzia.name", name);
    } catch {
      // storage may be disabled; the name is only a convenience
    }
    page.you = res.seat;
    announce(t("web.join.done", { seat: res.seat + 1 }));
    // The cookie now names our seat: a new connection picks it up.
    conn.restart();
    await refreshInfo();
  } catch (err) {
    errEl.textContent = errorText(page.t, err.code);
    if (err.code === "account_required") {
      // A rated table: signing in comes back here.
      errEl.append(" ", h("a", { href: `/account?back=${encodeURIComponent(location.pathname)}` }, t("web.nav.signin")));
    }
    errEl.hidden = false;
    if (["seat_taken", "table_full", "not_found", "table_expired"].includes(err.code)) await refreshInfo();
  } finally {
    $("join").disabled = false;
  }
}

// ---- drawing ----------------------------------------------------------------------

function render() {
  const { game, view, you, t } = page;
  showStatus();
  if (!game) return;
  const mine = view && you >= 0 && view.toMove === you && view.legal.length > 0;
  const title = `${mine ? "● " : ""}Razzia! — ${t("web.game.title", { id: game.id })}`;
  if (document.title !== title) document.title = title;
  setText($("game-title"), t("web.game.title", { id: game.id }));
  setText($("game-status"), t(`status.${game.status}`));
  setClass($("game-status"), `badge status-${game.status}`);
  // An open game has no record yet (the server answers not_started); a
  // game that is over offers its record and replay on the game-end screen.
  const over = !!view && view.phase === "over";
  const links = { replay: `/g/${encodeURIComponent(game.id)}/replay`, record: api.recordURL(game.id), download: `razzia-${game.id}.json`,
    learn: you >= 0 && !isTutorial(game) ? api.learnURL(game.id, you) : null };
  setAttr($("record-link"), "hidden", (game.status === "open" || over) && "");
  setAttr($("record-link"), "href", links.record);
  setAttr($("record-link"), "download", links.download);
  setAttr($("replay-link"), "hidden", (over || !(game.status === "finished" || game.status === "archived")) && "");
  setAttr($("replay-link"), "href", links.replay);
  renderRematchLink();
  renderWaiting();
  paintSeats($("open-seats"), t, game, you);
  chat.update({ game, you, over: game.status !== "open" && game.status !== "playing" });

  const root = $("table");
  if (!view) {
    root.replaceChildren();
    root.setAttribute("data-status", game.status);
    root.setAttribute("data-phase", "");
    root.setAttribute("data-seat", String(you));
    root.setAttribute("data-to-move", "-1");
    root.setAttribute("data-moves", String(game.moves || 0));
    return;
  }
  renderTable(root, view, page.log, t, {
    // Offline, a move may still be made: it waits for the connection.
    game, seat: you, onMove: sendMove, busy: page.pending !== null || page.queued !== null || (!page.connected && !page.offline), links,
    hints: game.rated ? null : { state: page.hints, ask: askHints },
    clock: page.clock, onTakeBack: page.removed ? undefined : () => conn.send({ type: "takeback" }),
    onPreMove: (token) => conn.send({ type: "premove", move: token }),
    preMove: page.preMove, preMoveDropped: page.preMoveDropped,
    onLeave: () => conn.send({ type: "leave" }), left: page.left,
    onContinue: () => conn.send({ type: "continue" }),
    rematch: { ...page.rematch, onAnswer: you >= 0 ? answerRematch : undefined },
    rating: page.rating,
    ratings: page.ratings,
    challenge: { me: page.me, redraw: render },
    presence: (seat) => presenceMark(t, game, you, seat),
    // The table's own redraws, between the messages, take the guide's
    // pointer away: it points again in the same task, before any frame.
    onDrawn: () => coach && coach.point(),
  });
  // The strips carry their presence marks (options.presence): the
  // "seats" messages between redraws repaint them (paintSeats).
  chat.place();
  // The guided first game: the coach points at the table just drawn.
  if (isTutorial(game) && you >= 0) {
    if (coach) coach.update(view, page.log, t, displayNames(t, view.players, game).names);
    else loadCoach(game.id, you);
  }
}

// loadCoach brings the coach (coach.js and its styles, for a guided game
// only) and draws again with it.
function loadCoach(game, seat) {
  if (coachLoading) return;
  coachLoading = true;
  Promise.all([import("./coach.js"), stylesheet("tutorial.css")]).then(([{ Coach }]) => {
    coach = new Coach(game, seat);
    coach.onRefresh = render;
    render();
  }, () => (coachLoading = false));
}

// askHints asks what the bot would do in the position shown; the answer
// stands for that position only.
async function askHints() {
  const v = page.view;
  if (!v) return;
  const moves = v.moves;
  page.hints = { moves, busy: true };
  render();
  try {
    const res = await fetchHints(id);
    page.hints = { moves, list: res.hints || [] };
  } catch (err) {
    page.hints = { moves, error: errorText(page.t, err.code) };
  }
  render();
  const first = document.querySelector("#hints-list, #hints .hints-error");
  if (first) announce(first.textContent);
}

let coach = null;
let coachLoading = false;

// ---- the connection ------------------------------------------------------------------

function onMessage(msg, first) {
  const t = page.t;
  if (first) chat.reset(); // a new connection sends the conversation again
  if (first) hello(); // is this page hidden
  if (msg.type === "seats") {
    receiveSeats(msg);
    paintSeats(document, t, page.game, page.you);
    return;
  }
  if (msg.type === "chat") {
    chat.receive(msg);
    return;
  }
  if (msg.type === "error" && chat.handles(msg)) return;
  if (msg.type === "state") {
    const before = page.view;
    page.game = msg.game;
    page.you = typeof msg.seat === "number" ? msg.seat : -1;
    page.view = msg.view || null;
    const events = (msg.events || []).slice();
    page.clock = received(msg.clock);
    page.preMove = msg.preMove || "";
    page.preMoveDropped = msg.preMoveDropped || "";
    // A take-over and a return join the log where the page learns of them.
    const told = new Set(first ? [] : page.takeOvers.flatMap((x) => [x.text, x.backText]));
    for (const x of msg.takeOvers || []) {
      for (const line of [x.text, x.backText]) {
        if (line && !told.has(line + x.at)) events.push({ kind: "takeover", text: line });
      }
    }
    const mine = (msg.takeOvers || []).filter((x) => x.seat === page.you);
    page.left = mine.length > 0 && mine[mine.length - 1].reason === "left" && mine[mine.length - 1].backMove == null;
    page.removed = mine.length > 0 && mine[mine.length - 1].reason === "removed"; // an operator's: no way back
    if (msg.game.rematchOffer) page.rematch.offer = msg.game.rematchOffer;
    page.takeOvers = (msg.takeOvers || []).map((x) => ({ text: x.text + x.at, backText: x.backText ? x.backText + x.at : "" }));
    if (first) page.log = events.slice();
    else page.log.push(...events);
    clearPending();
    if (first && page.lost) {
      page.lost = false;
      page.status = ["web.conn.back"];
      setTimeout(() => {
        if (page.status && page.status[0] === "web.conn.back") {
          page.status = null;
          showStatus();
        }
      }, 4000);
    }
    render();
    flushQueued();
    askRating();
    askRatings();
    const v = page.view;
    const yourTurn = v && v.toMove === page.you && page.you >= 0 && v.legal.length > 0;
    const newTurn = yourTurn && (!before || before.moves !== v.moves || before.toMove !== page.you);
    const { tell } = displayNames(t, (v || {}).players || page.game.seats.map((s) => s.name), page.game);
    const said = first ? [] : events.map((e) => e.text).filter(Boolean).map(tell);
    if (newTurn) {
      said.push(t("web.announce.yourturn"));
      turnAlert(t("web.notify.turn", { id: page.game.id }));
    }
    if (said.length) announce(said.join(" "));
  } else if (msg.type === "rematchOffer" && msg.offer) {
    onOffer(msg.offer);
  } else if (msg.type === "error") {
    const last = page.lastSent;
    clearPending();
    const wait = resendDelay(msg, last, page.view);
    if (wait >= 0) {
      // The server could not take it now: send it again, same seq.
      setTimeout(() => {
        if (page.view && page.view.moves === last.seq && page.pending === null) send(last.token, last.resends + 1);
      }, wait);
    }
    setError(errorText(page.t, msg.code));
    render();
    announce(errorText(page.t, msg.code));
  }
}

// askRatings looks up the rating of each signed-in player at the table,
// once: their profile has the server's figure.
function askRatings() {
  if (!page.game) return;
  for (const s of page.game.seats) {
    if (!s.account || !s.name || s.name in page.ratings) continue;
    page.ratings[s.name] = "";
    api.request("GET", `/api/players/${encodeURIComponent(s.name)}`).then(({ profile }) => {
      page.ratings[s.name] = ratingFigure(profile.rating);
      render();
    }, () => {});
  }
}

// askRating asks, once a rated game of ours is over, what it did to our
// rating: the server counts it (docs/protocol.md, "displayChange") a
// moment after the end, so the page asks a few times.
async function askRating() {
  const { game, view, me } = page;
  if (!me || !game || !game.rated || page.you < 0 || !view || view.phase !== "over" || page.rating || page.ratingAsks >= 5) return;
  page.ratingAsks++;
  try {
    const { profile } = await api.request("GET", `/api/players/${encodeURIComponent(me.name)}`);
    const played = (profile.recent || []).find((g) => g.game === game.id);
    if (played && typeof played.displayChange === "number") {
      page.rating = { change: changeText(played.displayChange), figure: ratingFigure(profile.rating) };
      render();
      return;
    }
  } catch {
    // the game's end stands without it
  }
  setTimeout(askRating, 1500 * page.ratingAsks);
}

// ---- the rematch -----------------------------------------------------------------

// renderRematchLink links a rematch and the game it follows, both ways.
function renderRematchLink() {
  const { game, t } = page;
  const el = $("rematch-link");
  const other = game.rematchOf || game.rematch || "";
  setAttr($("rematch-line"), "hidden", !other && "");
  if (!other) return;
  setAttr(el, "href", `/g/${encodeURIComponent(other)}`);
  setText(el, t(game.rematchOf ? "web.rematch.of" : "web.rematch.link", { id: other }));
}

// onOffer shows the rematch offer as it is now; when it starts with us,
// we go to the new table.
function onOffer(offer) {
  const was = page.rematch.offer;
  page.rematch.offer = offer;
  render();
  const box = document.querySelector("#rematch-state");
  if (box && (!was || was.state !== offer.state || was.answers.join() !== offer.answers.join())) announce(box.textContent);
  if (offer.state === "started" && page.you >= 0 && offer.answers[page.you] === "yes" && (!was || was.state === "open")) {
    setTimeout(() => location.assign(`/g/${encodeURIComponent(offer.game)}`), 1500);
  }
}

// answerRematch offers or accepts the rematch (accept) or declines it,
// over HTTP: the answer carries the new table's seat cookie.
async function answerRematch(accept) {
  page.rematch.busy = true;
  render();
  try {
    const res = await api.rematch(id, accept);
    page.rematch.busy = false;
    onOffer(res.offer);
  } catch (err) {
    page.rematch.busy = false;
    setError(errorText(page.t, err.code));
    render();
  }
}

function clearPending() {
  page.pending = null;
  clearTimeout(page.pendingTimer);
}

function onStatus(state, delay) {
  if (state === "offline" || state === "online") {
    page.offline = state === "offline";
    // "online" comes with a message: the socket carries them again.
    page.connected = !page.offline;
    showOffline();
    if (page.game) render();
    return;
  }
  page.connected = state === "open";
  switch (state) {
    case "connecting":
      if (!page.status || page.status[0] !== "web.conn.lost") page.status = page.lost ? ["web.conn.retrying"] : ["web.conn.connecting"];
      break;
    case "open":
      if (!page.lost) page.status = null;
      break;
    case "waiting":
      page.lost = true;
      page.status = ["web.conn.lost", { s: Math.ceil(delay / 1000) }, "reconnect"];
      break;
    case "stopped":
      page.status = page.gone ? null : ["web.conn.stopped"];
      break;
  }
  showOffline();
  if (page.game) render();
  else showStatus();
}

// retry reports whether reconnecting makes sense: not when the game is gone.
async function retry() {
  try {
    const res = await api.getGame(id);
    page.game = res.game;
    return true;
  } catch (err) {
    if (["not_found", "table_expired", "table_cancelled"].includes(err.code)) {
      showGone(err.code);
      return false;
    }
    return true; // the server is down or restarting: keep trying
  }
}

function sendMove(token) {
  const v = page.view;
  if (!v || page.pending !== null) return;
  if (!v.legal.includes(token)) {
    // Only legal moves have buttons; anything else never leaves the page.
    setError(page.t("error.illegal_move"));
    return;
  }
  send(token);
}

function send(token, resends = 0) {
  setError(null);
  const seq = page.view ? page.view.moves : undefined;
  if (page.offline || conn.isOffline()) {
    // Sent now it would be lost: it waits, in sight, for the connection.
    page.queued = { token, seq };
    page.offline = true;
    showOffline();
    render();
    announce(page.t("web.conn.queued", { move: moveLabel(page.t, token) }));
    return;
  }
  const ok = conn.send({ type: "move", move: token, seq });
  if (!ok) {
    setError(page.t("web.conn.notsent"));
    conn.now();
    return;
  }
  page.pending = token;
  page.lastSent = { token, seq, resends };
  // No answer at all (a connection dying quietly): free the buttons again.
  page.pendingTimer = setTimeout(() => {
    page.pending = null;
    render();
  }, 10000);
  render();
}

// showGone says the game cannot be played or watched: it does not exist,
// or (code table_expired) it waited too long for players.
function showGone(code = page.goneCode) {
  page.gone = true;
  page.goneCode = code;
  page.game = null;
  $("gone").hidden = false;
  const closed = code === "table_expired" || code === "table_cancelled";
  $("gone-h").textContent = page.t(closed ? "web.gone.closed" : "web.gone.title");
  $("gone-text").textContent = closed ? errorText(page.t, code) : page.t("web.gone.text", { id });
  // Nothing is left to do here but go back: no chat, no record, no alerts.
  for (const el of ["waiting", "chat", "alerts", "rematch-line"]) $(el).hidden = true;
  document.querySelector(".game-links").hidden = true;
  $("table").replaceChildren();
  // The round's end went with the table: what it covered is within reach.
  coverAround($("table"), false);
  page.status = null;
  page.error = null;
  page.offline = false;
  page.queued = null;
  showOffline();
  showStatus();
}

async function refreshInfo() {
  try {
    const res = await api.getGame(id);
    page.game = res.game;
    if (typeof res.you === "number" && res.you >= 0) page.you = res.you;
    page.creator = !!res.creator && res.game.status === "open";
    if (page.creator && res.game.seats.some((s) => s.bot)) loadLevels();
    askRatings();
    render();
    return true;
  } catch (err) {
    if (["not_found", "table_expired", "table_cancelled"].includes(err.code)) {
      showGone(err.code);
      return false;
    }
    // The server is unreachable or restarting: the connection keeps trying.
    setError(errorText(page.t, err.code));
    return true;
  }
}

// ---- keyboard ----------------------------------------------------------------------

// Shortcuts for the common moves, outside text fields: D draw, C call, P pass.
addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tag = (ev.target && ev.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || document.querySelector("dialog[open], #round-end[aria-modal]")) return;
  const token = { d: "draw", c: "call", p: "pass" }[ev.key.toLowerCase()];
  if (!token || !page.view || !page.view.legal.includes(token)) return;
  ev.preventDefault();
  sendMove(token);
});

// ---- start ---------------------------------------------------------------------------

const conn = new Connection(api.socketURL(id, "en"), { message: onMessage, status: onStatus, retry });
const chat = new ChatPanel($("chat"), (msg) => conn.send(msg));
setupSeats((msg) => conn.send(msg));

onSubmit("join-form", join);
// askFirst makes a button that loses something ask first, in place: it
// shows its question (confirm), whose "no" button puts it back.
function askFirst(button, confirm, no) {
  onClick(button, () => {
    $(button).hidden = true;
    $(confirm).hidden = false;
    $(no).focus();
  });
  onClick(no, () => {
    $(confirm).hidden = true;
    render(); // the button, if it still applies
    $(button).focus();
  });
}
// Cancelling: a seated player would lose the table.
askFirst("cancel-table", "cancel-confirm", "cancel-no");
onClick("cancel-yes", async () => {
  try {
    const res = await api.cancelGame(id);
    page.game = res.game;
    render();
    showGone("table_cancelled");
  } catch (err) {
    setError(errorText(page.t, err.code));
  }
});
// Giving up a seat in the waiting room: the seat may be taken meanwhile.
askFirst("giveup-seat", "giveup-confirm", "giveup-no");
onClick("giveup-yes", async () => {
  $("giveup-yes").disabled = true;
  try {
    const res = await api.giveUpSeat(id, page.you);
    page.game = res.game;
    page.you = -1;
    page.gaveUp = true;
    $("giveup-confirm").hidden = true;
    announce(page.t("giveup.done"));
    // The seat's cookie no longer holds a seat: a new connection watches.
    conn.restart();
    await refreshInfo();
  } catch (err) {
    setError(errorText(page.t, err.code));
  } finally {
    $("giveup-yes").disabled = false;
  }
});
// The clocks count down between the server's messages; the player's own
// ticks audibly in its last seconds, and a round's scores step aside when
// the player's clock starts (render.js).
let lastTick = 0;
setInterval(() => {
  tick($("table"), page.t, page.clock);
  const l = page.clock && page.you >= 0 ? left(page.clock, page.you) : null;
  if (!l || !l.running) return;
  if (page.view && page.view.toMove === page.you && document.querySelector("#round-end[aria-modal]")) render();
  const { tick: due, second } = ticks(page.clock, page.you, lastTick);
  if (due) clockTick();
  lastTick = second;
}, 250);
onClick("copy-invite", async () => {
  const url = $("invite-link").value;
  try {
    await navigator.clipboard.writeText(url);
    $("copy-status").textContent = page.t("web.invite.copied");
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("invite-link"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    $("copy-status").textContent = page.t("web.invite.select");
  }
});
try {
  $("join-name").value = localStorage.getItem("razzia.name") || "";
} catch {
  // storage disabled
}
// A signed-in player sits under the account's name.
whoami().then((a) => {
  chat.update({ signedIn: !!a });
  page.me = a || null;
  askRating();
  if (!a) return;
  if (page.t) render(); // the game's end offers to challenge its players
  $("join-name").value = a.name;
  $("join-name").readOnly = true;
}, () => {});

// A tournament's table links back to it: tourback.js, for such a table only.
api.request("GET", `/api/games/${encodeURIComponent(id)}/tournament`).then(({ tournament }) => {
  if (tournament) import("./tourback.js").then((m) => m.showTournament(tournament));
}, () => {});

// The console can try a move the buttons do not offer: the server refuses
// it and the page explains, which is how a player would see it too.
window.razzia = { move: (token) => send(String(token)) };

let started = false;
await start((t, lang) => {
  page.t = t;
  alertSettings($("alerts"), t);
  chat.setT(t);
  const switched = page.lang !== lang;
  page.lang = lang;
  conn.url = api.socketURL(id, lang);
  conn.tell = (e, players) => narrate(t, e, players);
  // The events come told in the language asked for: after a switch, ask
  // again (the first state of a connection carries them all).
  if (switched && started && !page.gone) conn.restart();
  if (page.gone) showGone();
  else render();
});
started = true;
if (await refreshInfo()) conn.start();
