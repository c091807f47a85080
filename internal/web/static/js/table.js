// table.js: the table page at /g/{id}: join form, live table, game log.

import { h, replace, $ } from "./dom.js";
import * as api from "./api.js";
import { Connection } from "./conn.js";
import { narrate } from "./words.js";
import * as parts from "./render.js";

const id = decodeURIComponent(location.pathname.split("/")[2] || "");

// The page's whole state; render() draws it.
const page = {
  game: null, // GameInfo
  you: -1, // our seat, -1 for a spectator
  view: null, // Snapshot, null before the game starts
  log: [], // every event so far
  pending: false, // a move was sent and no answer came yet
  connected: false,
};

const ERRORS = {
  // WebSocket error codes, said for people; the server's message follows.
  stale: "The game moved on before your move arrived.",
  not_your_turn: "It is not your turn.",
  not_your_seat: "You can only play for your own seat.",
  game_over: "The game is over.",
  not_started: "The game has not started yet.",
  rate_limited: "Too many messages: slow down a little.",
  too_large: "That message was too large.",
  internal: "The server had a problem; nothing changed. Try again.",
};

function showError(text) {
  $("error-text").textContent = text;
  $("error-box").hidden = !text;
}

function announce(text) {
  // Re-setting the text makes screen readers read it even if unchanged.
  const el = $("announcer");
  el.textContent = "";
  if (text) setTimeout(() => (el.textContent = text), 50);
}

// ---- join -----------------------------------------------------------------

function renderJoin() {
  const g = page.game;
  const open = g.seats.map((s, i) => (s.open ? i : -1)).filter((i) => i >= 0);
  const show = g.status === "open" && page.you < 0 && open.length > 0;
  $("join-section").hidden = !show;
  if (!show) return;
  const select = $("join-seat");
  const was = select.value;
  replace(select,
    h("option", { value: "" }, "First open seat"),
    open.map((i) => h("option", { value: String(i), selected: was === String(i) }, `Seat ${i + 1}`)));
}

function joinMessage(err) {
  switch (err.code) {
    case "bad_name":
      return `That name cannot be used: ${err.message}`;
    case "table_full":
      return "The table is full: every seat is taken. You can still watch the game.";
    case "seat_taken":
      return "Someone else took that seat a moment ago. Choose another seat.";
    case "not_found":
      return "This game does not exist (any more).";
    case "rate_limited":
      return "Too many attempts: wait a moment and try again.";
  }
  return err.message;
}

async function join(ev) {
  ev.preventDefault();
  const errEl = $("join-error");
  const name = $("join-name").value.trim();
  const seatValue = $("join-seat").value;
  errEl.hidden = true;
  if (!name) {
    errEl.textContent = "Enter your name to take a seat.";
    errEl.hidden = false;
    $("join-name").focus();
    return;
  }
  $("join-button").disabled = true;
  try {
    const res = await api.joinGame(id, name, seatValue === "" ? undefined : Number(seatValue));
    try {
      localStorage.setItem("razzia.name", name);
    } catch {
      // storage may be disabled; the name is only a convenience
    }
    page.you = res.seat;
    announce(`You took seat ${res.seat + 1}.`);
    // The cookie now names our seat: a new connection picks it up.
    conn.restart();
    await refreshInfo();
  } catch (err) {
    errEl.textContent = joinMessage(err);
    errEl.hidden = false;
    if (err.code === "seat_taken" || err.code === "table_full") await refreshInfo();
  } finally {
    $("join-button").disabled = false;
  }
}

// ---- drawing ----------------------------------------------------------------

function render() {
  const { game, view, you } = page;
  if (!game) return;
  document.title = `Razzia — game ${game.id}`;
  $("game-title").textContent = `Game ${game.id}`;
  $("game-status").textContent = { open: "waiting for players", playing: "in progress", finished: "finished", archived: "uploaded record" }[game.status] || game.status;
  // An open game has no record yet (the server answers not_started).
  $("record-link").hidden = game.status === "open";
  $("record-link").href = api.recordURL(game.id);
  $("record-link").setAttribute("download", `razzia-${game.id}.json`);

  // Invite panel while seats are open.
  const open = game.seats.filter((s) => s.open).length;
  $("invite-section").hidden = game.status !== "open";
  if (game.status === "open") {
    $("invite-url").value = location.origin + (game.invite || `/g/${game.id}`);
    $("waiting-text").textContent =
      `Waiting for ${open} more player${open === 1 ? "" : "s"}: the game starts when every seat is taken.` +
      (you >= 0 ? ` You are in seat ${you + 1}.` : "");
    replace($("open-seats"), game.seats.map((s, i) =>
      h("li", {}, `Seat ${i + 1}: `, s.open ? h("em", {}, "open") : s.name, s.bot ? ` (bot: ${s.bot})` : "")));
  }
  renderJoin();

  $("table-section").hidden = !view;
  $("log-section").hidden = !view;
  if (!view) return;
  replace($("summary"), parts.summary(game, view, you),
    you < 0 ? h("p", { class: "muted" }, "You are watching this game.") : null);

  const mine = you >= 0 && view.toMove === you && view.legal.length > 0;
  // Redrawing replaces the buttons: keep a keyboard user's place.
  const active = document.activeElement;
  const focused = active && active.dataset ? active.dataset.move : undefined;
  $("moves-section").hidden = !mine;
  if (mine) {
    replace($("moves"), parts.moves(view, sendMove, page.pending || !page.connected));
    const buttons = [...$("moves").querySelectorAll("button")];
    const again = buttons.find((b) => b.dataset.move === focused && !b.disabled);
    if (again) again.focus();
    else if (focused !== undefined && buttons.length && !buttons[0].disabled) buttons[0].focus();
  }

  $("auction-section").hidden = !view.auction;
  if (view.auction) replace($("auction"), parts.auction(game, view, you));
  replace($("row"), parts.row(view));
  replace($("players"), parts.players(game, view, you));

  const scored = view.seats[0].scores.length > 0;
  $("scores-section").hidden = !scored;
  if (scored) replace($("scores"), parts.scores(game, view));
  const over = view.phase === "over";
  $("result-section").hidden = !over;
  if (over) replace($("result"), parts.result(game, view));
}

function renderLog(fresh) {
  const names = parts.names(page.game, page.view);
  const ol = $("log");
  const atBottom = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 4;
  if (fresh) ol.replaceChildren();
  const start = fresh ? 0 : page.log.length - page.lastAdded;
  for (const e of page.log.slice(start)) {
    ol.appendChild(h("li", { class: `ev ev-${e.kind}` }, narrate(e, names)));
  }
  if (atBottom || fresh) ol.scrollTop = ol.scrollHeight;
}

// ---- the connection -----------------------------------------------------------

function onMessage(msg, first) {
  if (msg.type === "state") {
    const before = page.view;
    page.game = msg.game;
    page.you = typeof msg.seat === "number" ? msg.seat : -1;
    page.view = msg.view || null;
    const events = msg.events || [];
    if (first) page.log = events.slice();
    else page.log.push(...events);
    page.lastAdded = events.length;
    page.pending = false;
    render();
    renderLog(first);
    if (!first && events.length) {
      const names = parts.names(page.game, page.view);
      let text = events.map((e) => narrate(e, names)).join(" ");
      const v = page.view;
      if (v && v.toMove === page.you && v.legal.length && (!before || before.toMove !== page.you || before.moves !== v.moves)) {
        text += " Your turn.";
      }
      announce(text);
    } else if (first && page.view && page.view.toMove === page.you && page.view.legal.length) {
      announce("Your turn.");
    }
  } else if (msg.type === "error") {
    page.pending = false;
    const lead = ERRORS[msg.code];
    showError(lead && lead !== msg.message ? `${lead} ${msg.message || ""}`.trim() : msg.message || msg.code);
    render();
  }
}

function onStatus(state, delay) {
  const el = $("conn-status");
  page.connected = state === "open";
  switch (state) {
    case "connecting":
      el.textContent = "Connecting…";
      break;
    case "open":
      el.textContent = "";
      break;
    case "waiting":
      el.textContent = `Connection lost. Reconnecting in ${Math.ceil(delay / 1000)} s… `;
      el.appendChild(h("button", { type: "button", class: "small", onclick: () => conn.now() }, "Reconnect now"));
      break;
    case "stopped":
      el.textContent = "Disconnected.";
      break;
  }
  if (page.view) render();
}

// retry reports whether reconnecting makes sense: not when the game is gone.
async function retry() {
  try {
    const res = await api.getGame(id);
    page.game = res.game;
    return true;
  } catch (err) {
    if (err.code === "not_found") {
      showError("This game no longer exists.");
      return false;
    }
    return true; // the server is down or restarting: keep trying
  }
}

function sendMove(token) {
  showError("");
  if (page.pending) return;
  const ok = conn.send({ type: "move", move: token, seq: page.view.moves });
  if (!ok) {
    showError("Not connected: your move was not sent. Reconnecting…");
    conn.now();
    return;
  }
  page.pending = true;
  render();
}

async function refreshInfo() {
  try {
    const res = await api.getGame(id);
    page.game = res.game;
    if (typeof res.you === "number" && res.you >= 0) page.you = res.you;
    render();
    return true;
  } catch (err) {
    if (err.code === "not_found") {
      replace($("main"),
        h("section", { class: "panel" },
          h("h2", {}, "No such game"),
          h("p", {}, `There is no game with the id “${id}”. The link may be mistyped, or the game was never created.`),
          h("p", {}, h("a", { href: "/" }, "Go to the lobby"))));
    } else {
      showError(`The game could not be loaded: ${err.message}`);
    }
    return false;
  }
}

// ---- start ---------------------------------------------------------------------

const conn = new Connection(api.socketURL(id), { message: onMessage, status: onStatus, retry });

$("join-form").addEventListener("submit", join);
$("error-dismiss").addEventListener("click", () => showError(""));
$("copy-button").addEventListener("click", async () => {
  const input = $("invite-url");
  try {
    await navigator.clipboard.writeText(input.value);
    $("copy-status").textContent = "Copied.";
  } catch {
    input.select();
    $("copy-status").textContent = "Press Ctrl+C (or ⌘C) to copy.";
  }
});
try {
  $("join-name").value = localStorage.getItem("razzia.name") || "";
} catch {
  // storage disabled
}

if (await refreshInfo()) conn.start();
