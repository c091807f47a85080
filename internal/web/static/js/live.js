// live.js: every page's live socket (GET /api/live, docs/protocol.md
// "People"): while a page is open its person is online, and the page tells
// the server when it is hidden. The lobby gets the online list and the
// Play-now requests through it; every page shows a notice when a player
// one follows comes online or sits down at a table, and hears what the
// server tells its person (their challenges and requests).

import { h } from "./dom.js";

// DELAYS between attempts to reconnect, then the last again.
const DELAYS = [1000, 2000, 5000, 10000, 30000];
// NOTICE_MS is how long a notice stays unless closed.
const NOTICE_MS = 12000;
// TOO_MANY is the close status of a socket refused for now (1013): the
// address has too many; wait the longest.
const TOO_MANY = 1013;

let socket = null;
let attempt = 0;
let getT = null;
let wantList = false;
let wantSeeks = false;
const listeners = new Set();
let lastList = null;
let again = false; // reconnect at once
let hidden = false; // the page is left (pagehide): no socket until it shows again

/** onOnline calls fn with every online list (OnlineMessage) the server sends; the page asks for them. */
export function onOnline(fn) {
  listeners.add(fn);
  if (lastList) fn(lastList);
  if (!wantList) {
    wantList = true;
    if (socket) {
      // Connected without asking for the list: ask again at once.
      again = true;
      socket.close();
    }
  }
}

// handlers of the other messages, by type: what other features of the
// server tell the person's pages (presence.Service.Tell). A "resync"
// comes each time the socket opens too: what changed while it was
// closed is read again.
const handlers = new Map();

/**
 * onLive calls fn with every message of the type the live socket brings
 * (a page's module registers its own). "seeks" (every Play-now request as
 * it changes) comes only to a page that asks, as this does.
 */
export function onLive(type, fn) {
  if (!handlers.has(type)) handlers.set(type, new Set());
  handlers.get(type).add(fn);
  if (type === "seeks" && !wantSeeks) {
    wantSeeks = true;
    restartLive();
  }
}

function dispatch(msg) {
  for (const fn of handlers.get(msg.type) || []) fn(msg);
}

/** restartLive connects again: the person changed (signed in or out). */
export function restartLive() {
  if (socket) {
    again = true;
    socket.close();
  }
}

/** startLive opens the page's live socket once; t() gives the page's translator. */
export function startLive(t) {
  getT = t;
  if (socket || typeof WebSocket === "undefined") return;
  document.addEventListener("visibilitychange", sendAway);
  // A page left for another, even one the browser keeps to come back to
  // (the back/forward cache, which may keep its socket open), must not keep
  // its person online: the socket closes on pagehide and opens again if
  // the page is shown again.
  if (typeof addEventListener === "function") {
    addEventListener("pagehide", () => {
      hidden = true;
      if (socket) socket.close();
    });
    addEventListener("pageshow", (ev) => {
      hidden = false;
      if (ev.persisted && !socket) connect();
    });
  }
  connect();
}

function url() {
  let name = "";
  try {
    name = localStorage.getItem("razzia.name") || "";
  } catch {
    // no storage: a guest without a name is online, unlisted
  }
  const q = new URLSearchParams();
  if (wantList) q.set("list", "1");
  if (wantSeeks) q.set("seeks", "1");
  if (name) q.set("name", name);
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api/live?${q}`;
}

function connect() {
  const ws = new WebSocket(url());
  socket = ws;
  ws.addEventListener("open", () => {
    attempt = 0;
    sendAway();
    dispatch({ type: "resync" });
  });
  ws.addEventListener("message", (ev) => {
    let msg = null;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (msg.type === "online") {
      lastList = msg;
      for (const fn of listeners) fn(msg);
    } else if (msg.type === "notice") {
      notice(msg);
    } else {
      dispatch(msg);
    }
  });
  ws.addEventListener("close", (ev) => {
    if (socket === ws) socket = null;
    const wait = ev.code === TOO_MANY ? DELAYS[DELAYS.length - 1] : DELAYS[Math.min(attempt, DELAYS.length - 1)];
    attempt++;
    const now = again;
    again = false;
    if (hidden) return;
    setTimeout(() => {
      if (!socket && !hidden) connect();
    }, now ? 0 : wait * (0.8 + Math.random() * 0.4));
  });
}

// sendAway tells the server whether the page is hidden.
function sendAway() {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "away", away: document.visibilityState === "hidden" }));
  }
}

// notices is the region the notices appear in, made at the first.
function notices() {
  let box = document.getElementById("notices");
  if (!box) {
    box = h("div", { id: "notices", class: "notices", role: "status", "aria-live": "polite" });
    document.body.appendChild(box);
  }
  return box;
}

/** notice shows a NoticeMessage: a followed player online, or playing with a link to watch. */
export function notice(msg) {
  const t = getT ? getT() : (k) => k;
  const name = msg.name || "";
  const text = t(msg.kind === "playing" ? "social.notice.playing" : "social.notice.online", { name });
  const profile = `/p/${encodeURIComponent(name)}`;
  const item = h("div", { class: "notice-item", "data-kind": msg.kind, "data-name": name },
    h("span", { class: "presence-dot dot-online", "aria-hidden": "true" }),
    h("a", { href: profile, class: "notice-text" }, text),
    msg.game ? h("a", { href: `/g/${encodeURIComponent(msg.game)}`, class: "notice-watch" }, t("social.watch")) : null,
    h("button", { type: "button", class: "notice-close", "aria-label": t("social.notice.close"), onclick: () => item.remove() }, "✕"));
  notices().appendChild(item);
  setTimeout(() => item.remove(), NOTICE_MS);
}
