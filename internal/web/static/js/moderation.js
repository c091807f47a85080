// moderation.js: what every page shows of the server's moderation
// (docs/protocol.md, "Moderation") to the signed-in person: a banner while
// an operator's sanction holds (muted, suspended, banned), a notice of
// each action on them they have not acknowledged yet (who, why, until
// when), at once when it comes on the live socket; the link to the
// operators' page for an operator; and, on the account page, every action
// on them.

import { h, replace } from "./dom.js";
import * as api from "./api.js";
import { onLive } from "./live.js";
import { whoami } from "./players.js";

const SEEN_KEY = "razzia.moderation.seen";

let getT = () => (k) => k;
let record = null; // GET /api/moderation/me, null for a guest
let loading = null;

/** watchModeration reads the person's record now and whenever the page is shown again; t() gives the page's translator. */
export function watchModeration(t) {
  getT = t;
  load();
  onLive("moderation", moderationMessage);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") load(true);
  });
}

/** redrawModeration draws again, in the page's new language. */
export function redrawModeration() {
  draw();
}

/** reloadModeration reads the record again: the person signed in or out. */
export function reloadModeration() {
  load(true);
}

// moderationMessage takes a live ModerationMessage: the action is shown at once.
function moderationMessage(msg) {
  if (!record) record = { operator: false, standing: {}, actions: [] };
  record.standing = msg.standing || {};
  record.actions = [msg.action, ...record.actions.filter((a) => a.id !== msg.action.id)];
  draw();
}

// load reads the record; fresh asks who is signed in again, else the
// page's shared answer stands.
async function load(fresh = false) {
  if (loading) return loading;
  loading = (async () => {
    try {
      const who = await whoami(fresh);
      record = who ? await api.request("GET", "/api/moderation/me") : null;
    } catch {
      // no accounts, or the server is away: nothing to show now
    }
    loading = null;
    draw();
  })();
  return loading;
}

/** when is a time in the page's language. */
export function when(iso) {
  return new Date(iso).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** standingText says the sanction in force, "" for none. */
export function standingText(t, s) {
  if (!s) return "";
  if (s.banned) return t("moderation.standing.banned");
  if (s.suspended) return t("moderation.standing.suspended", { until: when(s.suspendedUntil) });
  if (s.muted) return s.mutedUntil ? t("moderation.standing.muted", { until: when(s.mutedUntil) }) : t("moderation.standing.muted.forever");
  return "";
}

/** actionText says an action to the person acted on. */
export function actionText(t, a) {
  const args = { operator: a.operator, until: a.until ? when(a.until) : "" };
  if (a.kind === "mute" && !a.until) return t("moderation.action.mute.forever", args);
  return t(`moderation.action.${a.kind}`, args);
}

function seen() {
  try {
    return localStorage.getItem(SEEN_KEY) || "";
  } catch {
    return "";
  }
}

function markSeen(at) {
  try {
    localStorage.setItem(SEEN_KEY, at);
  } catch {
    // not kept: the notice comes again on the next page
  }
}

// actionItem is one action as its person reads it.
function actionItem(t, a) {
  return h("li", { class: "mod-action", "data-kind": a.kind },
    h("p", { class: "mod-action-what" }, actionText(t, a), " ", h("time", { datetime: a.at, class: "muted" }, when(a.at))),
    h("p", { class: "mod-action-why" }, t("moderation.action.reason", { reason: a.reason })),
    a.game ? h("p", {}, h("a", { href: `/g/${encodeURIComponent(a.game)}` }, t("moderation.action.game"))) : null);
}

// atTable reports whether the page is a table's: there nothing may move
// the table under the player's finger, so the notice floats and the
// banner stays away (the chat says why a message is refused).
const atTable = () => document.body.classList.contains("page-table");

// bar returns the place of the banner and the notice, above the page's
// main part (never inside it: the lobby's is a grid), made at the first.
function bar() {
  let el = document.getElementById("moderation-bar");
  if (!el) {
    el = h("div", { id: "moderation-bar", class: `mod-bar${atTable() ? " mod-float" : ""}` });
    const main = document.querySelector("main");
    if (main) main.before(el);
    else document.body.prepend(el);
  }
  return el;
}

function draw() {
  const t = getT();
  drawOperatorLink(t);
  let banner = document.getElementById("moderation-banner");
  const text = record && !atTable() ? standingText(t, record.standing) : "";
  if (!text) {
    if (banner) banner.remove();
  } else {
    if (!banner) {
      banner = h("p", { id: "moderation-banner", class: "notice notice-error mod-banner", role: "status" });
      bar().prepend(banner);
    }
    banner.textContent = text;
  }
  drawNotice(t);
  drawHistory(t);
}

// drawNotice shows the actions newer than the last one acknowledged.
function drawNotice(t) {
  let box = document.getElementById("moderation-notice");
  const last = Number(seen()) || 0;
  const fresh = record ? record.actions.filter((a) => Date.parse(a.at) > last) : [];
  if (fresh.length === 0) {
    if (box) box.remove();
    return;
  }
  if (!box) {
    box = h("section", { id: "moderation-notice", class: "panel mod-notice", role: "alert", "aria-labelledby": "moderation-notice-h" });
    bar().append(box);
  }
  replace(box,
    h("h2", { id: "moderation-notice-h" }, t("moderation.notice.title")),
    h("ul", { class: "mod-actions" }, fresh.map((a) => actionItem(t, a))),
    h("button", { type: "button", class: "primary", id: "moderation-ok", onclick: () => {
      markSeen(String(Math.max(...fresh.map((a) => Date.parse(a.at)))));
      draw();
    } }, t("moderation.notice.ok")));
}

// drawHistory shows the account page's record of every action, at the
// end of the signed-in person's settings (#signed-in).
function drawHistory(t) {
  const settings = document.getElementById("signed-in");
  let box = document.getElementById("moderation-record");
  if (!settings) return;
  if (!box) {
    box = h("section", { id: "moderation-record", class: "panel mod-record", "aria-labelledby": "moderation-record-h", hidden: true });
    settings.appendChild(box);
  }
  const actions = record ? record.actions : [];
  const operator = !!record && record.operator;
  box.hidden = actions.length === 0 && !operator;
  if (box.hidden) return;
  replace(box,
    h("h2", { id: "moderation-record-h" }, t("moderation.history.title")),
    // The operators' page, also where a narrow header has no room for it.
    operator ? h("p", {}, h("a", { class: "button", href: "/operator", id: "moderation-operator-link" }, t("moderation.op.title"))) : null,
    actions.length ? h("p", { class: "muted" }, t("moderation.history.about")) : null,
    actions.length ? h("ul", { class: "mod-actions" }, actions.map((a) => actionItem(t, a))) : null);
}

// drawOperatorLink puts the operators' page in an operator's header.
function drawOperatorLink(t) {
  const nav = document.querySelector(".top-tools");
  let link = document.getElementById("nav-operator");
  if (!nav) return;
  if (!record || !record.operator) {
    if (link) link.remove();
    return;
  }
  if (!link) {
    link = h("a", { id: "nav-operator", class: "tool nav-operator", href: "/operator" });
    const account = document.getElementById("nav-account");
    nav.insertBefore(link, account || nav.firstChild);
  }
  // A phone shows the mark only: its header holds few words.
  replace(link, h("span", { class: "nav-operator-mark", "aria-hidden": "true" }, "⚖"),
    h("span", { class: "nav-operator-text" }, t("moderation.nav")));
  link.setAttribute("aria-label", t("moderation.nav"));
}
