// challenges.js: a signed-in person's challenges on every page. A
// challenge to them shows at once, wherever they are, with accept and
// decline (a reason from the server's short list) and the time left; the
// challenger hears the answers the same way, and an accepted challenge
// opens its table from the lobby (elsewhere it offers a link). The
// lobby's form (challengeform.js) reads the same list.

import { h, replace } from "./dom.js";
import * as meet from "./meet.js";
import { whoami } from "./players.js";
import { errorText } from "./errors.js";
import { chime } from "./notify.js";

let tr = () => null;
// T is the page's translator, or the keys until the language has come.
const T = () => tr() || Object.assign((k) => k, { has: () => false });
let me; // the account: null for a guest, undefined until the server has said
let challenges = [];
const subscribers = new Set();
const dismissed = new Set(); // ended challenges already seen
const failures = new Map(); // challenge id -> error text

const paceName = (t, id) => (t.has && t.has(`pace.${id}`) ? t(`pace.${id}`) : id);

/** describe says a challenge's settings: pace, kind, players. */
export function describe(t, c) {
  return [paceName(t, c.pace), t(c.rated ? "web.profile.rated" : "web.profile.casual"),
    t("web.playnow.players", { n: c.to.length + 1 })].join(" · ");
}

/** left says the time until a challenge lapses, as a clock. */
export function left(c, now = Date.now()) {
  const s = Math.max(0, Math.ceil((new Date(c.expires).getTime() - now) / 1000));
  const d = Math.floor(s / 86400);
  if (d > 0) return `${d}d ${Math.floor((s % 86400) / 3600)}h`;
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}` : `${m}:${String(s % 60).padStart(2, "0")}`;
}

/** onChallenges calls f(list, account) now and whenever the challenges change. */
export function onChallenges(f) {
  subscribers.add(f);
  f(challenges, me);
}

function changed() {
  drawToasts();
  subscribers.forEach((f) => f(challenges, me));
}

// progress orders the versions of one challenge: a challenge only moves
// on (answers come, it ends, its table is seated), so of two versions the
// one further on is the newer, whichever came last.
const progress = (c) => (c.status === "open" ? 0 : 100) + c.to.filter((x) => x.answer).length + (c.game ? 1 : 0);

/** newer is the newer of two versions of a challenge (b if a is none). */
export const newer = (a, b) => (a && progress(a) > progress(b) ? a : b);

const reading = new Set(); // per read of the list on its way: the challenges heard meanwhile

/**
 * refreshChallenges reads the person's challenges again. A message heard
 * while the list was on its way may be newer than the list (a lapse, an
 * answer): the newer version of each challenge is kept.
 */
export async function refreshChallenges() {
  if (!me) return;
  const heard = new Map();
  reading.add(heard);
  let list;
  try {
    list = (await meet.listChallenges()).challenges || [];
  } catch {
    return; // the next message or reconnect reads them again
  } finally {
    reading.delete(heard);
  }
  const now = new Map(challenges.map((c) => [c.id, c]));
  list = list.map((c) => newer(now.get(c.id), c));
  for (const c of heard.values()) if (!list.some((x) => x.id === c.id)) list.unshift(c);
  challenges = list;
  changed();
}

function region() {
  let el = document.getElementById("meet-toasts");
  if (!el) {
    el = h("div", { id: "meet-toasts", class: "meet-toasts", role: "region", "aria-live": "polite" });
    document.body.append(el);
  }
  el.setAttribute("aria-label", T()("web.challenge.region"));
  return el;
}

const onLobby = () => location.pathname === "/";

/** toast is what a challenge shows its person now, or null. */
function toast(t, c) {
  const incoming = !c.mine;
  const mine = c.to.find((x) => x.name === (me && me.name));
  if (dismissed.has(c.id)) return null;
  if (incoming && c.status === "open" && mine && !mine.answer) return incomingToast(t, c);
  if (c.status === "accepted" && c.game) {
    return endedToast(t, c, t("web.challenge.accepted", { names: c.to.map((x) => x.name).join(", ") }),
      h("a", { href: `/g/${encodeURIComponent(c.game)}`, class: "button primary small" }, t("web.playnow.open")));
  }
  if (!incoming && c.status === "declined") {
    const by = c.to.find((x) => x.answer === "decline");
    return endedToast(t, c, t("web.challenge.declined", { name: by ? by.name : "", reason: t(`web.challenge.reason.${by && by.reason ? by.reason : "generic"}`) }));
  }
  if (!incoming && c.status === "lapsed") return endedToast(t, c, t("web.challenge.lapsed", { names: c.to.map((x) => x.name).join(", ") }));
  return null;
}

function incomingToast(t, c) {
  const others = c.to.filter((x) => x.name !== me.name).map((x) => x.name);
  const reason = h("select", { class: "challenge-reason", "aria-label": t("web.challenge.reason") },
    meet.REASONS.map((r) => h("option", { value: r }, t(`web.challenge.reason.${r}`))));
  const err = failures.get(c.id);
  return h("div", { class: "meet-toast meet-toast-in", "data-challenge": c.id, role: "group", "aria-label": t("web.challenge.from", { name: c.from }) },
    h("p", { class: "meet-toast-title" }, t(others.length ? "web.challenge.from.more" : "web.challenge.from", { name: c.from, others: others.join(", ") })),
    h("p", { class: "meet-toast-detail muted" }, describe(t, c), " · ",
      h("span", { class: "challenge-left", "data-expires": c.expires }, t("web.challenge.left", { left: left(c) }))),
    h("div", { class: "meet-toast-actions" },
      h("button", { type: "button", class: "primary small challenge-accept", onclick: () => answer(c, true) }, t("web.challenge.accept")),
      reason,
      h("button", { type: "button", class: "small challenge-decline", onclick: () => answer(c, false, reason.value) }, t("web.challenge.decline")),
      // Out of the way (of a table, say): the lobby still lists it to answer.
      h("button", { type: "button", class: "small challenge-hide", "aria-label": t("web.challenge.hide.about"),
        onclick: () => { dismissed.add(c.id); drawToasts(); } }, t("web.challenge.hide"))),
    err ? h("p", { class: "notice notice-error", role: "alert" }, err) : null);
}

function endedToast(t, c, text, action) {
  return h("div", { class: `meet-toast meet-toast-${c.status}`, "data-challenge": c.id },
    h("p", { class: "meet-toast-title" }, text),
    h("div", { class: "meet-toast-actions" }, action || null,
      h("button", { type: "button", class: "small", onclick: () => { dismissed.add(c.id); drawToasts(); } }, t("web.close"))));
}

function drawToasts() {
  if (!me) return;
  const t = T();
  replace(region(), challenges.map((c) => toast(t, c)).filter(Boolean));
}

/** answer accepts challenge c (opening its table once everyone did) or declines it with the reason. */
export async function answer(c, accept, reason) {
  failures.delete(c.id);
  try {
    const { challenge } = await meet.answerChallenge(c.id, accept, reason);
    if (accept && challenge.game) {
      location.assign(`/g/${encodeURIComponent(challenge.game)}`);
      return;
    }
    if (!accept) dismissed.add(c.id);
  } catch (err) {
    failures.set(c.id, errorText(T(), err));
  }
  refreshChallenges();
}

function onMessage(msg) {
  if (msg.type === "resync") {
    refreshChallenges();
    return;
  }
  if (msg.type !== "challenge" || !msg.challenge) return;
  const c = msg.challenge;
  for (const heard of reading) heard.set(c.id, newer(heard.get(c.id), c));
  const i = challenges.findIndex((x) => x.id === c.id);
  if (i >= 0) challenges[i] = newer(challenges[i], c);
  else challenges.unshift(c);
  // A new challenge to the reader rings as a turn does (Web Push, if on,
  // tells a browser that is away).
  if (i < 0 && !c.mine && c.status === "open") chime();
  // The challenger's lobby opens the table everyone accepted.
  if (c.mine && c.status === "accepted" && c.game && onLobby()) {
    location.assign(`/g/${encodeURIComponent(c.game)}`);
    return;
  }
  changed();
}

function tick() {
  for (const el of document.querySelectorAll(".challenge-left[data-expires]")) {
    el.textContent = T()("web.challenge.left", { left: left({ expires: el.getAttribute("data-expires") }) });
  }
}

/**
 * watchChallenges shows the signed-in person's challenges on this page,
 * live; getT returns the page's translator of the moment.
 */
export async function watchChallenges(getT) {
  tr = getT;
  let who = null;
  try {
    who = await whoami();
  } catch {
    return; // no session to watch
  }
  me = who || null;
  if (!me) {
    changed();
    return;
  }
  meet.listen(onMessage, "challenge");
  await refreshChallenges();
  setInterval(tick, 1000);
}

/** redrawChallenges draws the toasts again, in a new language. */
export const redrawChallenges = () => drawToasts();
