// playnow.js: the lobby's Play now: a person says what table they want,
// the server seats compatible requests together; the open requests are
// listed, and one click joins one. The page opens the table as soon as
// the live socket says the person is seated.

import { onSubmit } from "./forms.js";
import { h, replace, $ } from "./dom.js";
import * as meet from "./meet.js";
import { errorText } from "./errors.js";

let t = (k) => k;
let me; // the account (null: a guest, false: no accounts, undefined: not known yet)
let list = { seeks: [], mine: [] };
let failed = null;
let loaded = false; // the server has answered with the requests (or failed to)
let busy = false;

const paceName = (id) => (t.has && t.has(`pace.${id}`) ? t(`pace.${id}`) : id);

/** seatsText says how many players a request wants. */
const seatsText = (s) => t("web.playnow.players", { n: meet.playersText(s.min, s.max) });

/** details are a request's facts for the list, in reading order. */
function details(s) {
  const out = [paceName(s.pace), t(s.rated ? "web.profile.rated" : "web.profile.casual"), seatsText(s)];
  if (s.ratingMin || s.ratingMax) out.push(t("web.playnow.range", { min: s.ratingMin || "…", max: s.ratingMax || "…" }));
  if (s.minFinish) out.push(t("web.playnow.minfinish", { n: s.minFinish }));
  if (s.botsAfter) out.push(t("web.playnow.botsafter", { n: s.botsAfter }));
  return out.join(" · ");
}

/** who is the request's person: name, rating and finish rate. */
function who(s) {
  const name = s.signedIn ? h("a", { href: `/p/${encodeURIComponent(s.name)}`, class: "seek-name" }, s.name)
    : h("span", { class: "seek-name" }, s.name);
  return h("span", { class: "seek-who" }, name,
    s.rating ? h("span", { class: "seek-rating", title: t("web.account.rating") }, s.rating) : null,
    s.finish !== undefined && s.finish !== null
      ? h("span", { class: "seek-finish", title: t("web.playnow.finish.about") }, t("web.playnow.finish", { n: s.finish })) : null);
}

function openItem(s) {
  return h("li", { class: `seek${s.mine ? " seek-mine" : ""}`, "data-seek": s.id },
    who(s),
    h("span", { class: "seek-detail muted" }, details(s)),
    h("span", { class: "seek-wait muted", "data-since": s.created }, meet.waited(s.created)),
    s.mine ? h("span", { class: "seek-yours" }, t("web.playnow.yours"))
      // A guest cannot sit at a rated table: the button says why instead.
      : h("button", { type: "button", class: "small primary seek-join", onclick: () => join(s), disabled: s.rated && !me,
        title: s.rated && !me ? t("error.account_required") : null }, t("web.playnow.join")));
}

function mineItem(s) {
  const status = s.status === "open" ? t("web.playnow.waiting") : t(`web.playnow.status.${s.status}`);
  return h("li", { class: `seek seek-mine seek-${s.status}`, "data-seek": s.id },
    h("span", { class: "seek-status" }, status),
    h("span", { class: "seek-detail muted" }, details(s)),
    s.status === "open" ? h("span", { class: "seek-wait muted", "data-since": s.created }, meet.waited(s.created)) : null,
    s.status === "open" ? h("button", { type: "button", class: "small seek-cancel", onclick: () => cancel(s) }, t("web.playnow.cancel")) : null,
    s.status === "paired" ? h("button", { type: "button", class: "small primary", onclick: () => meet.goToSeat(s) }, t("web.playnow.open")) : null);
}

function draw() {
  // Until the account is known the page keeps the server's layout.
  if (me !== undefined) {
    const signedIn = Boolean(me);
    $("playnow-rated-field").hidden = !signedIn;
    $("playnow-rating-field").hidden = !signedIn;
    $("playnow-name-field").hidden = signedIn;
  }
  $("playnow-submit").disabled = busy;
  const open = list.seeks || [];
  // A request cancelled is gone from the person's view; one seated or
  // lapsed says so for a while.
  const mine = (list.mine || []).filter((s) => s.status !== "cancelled");
  $("seeks-mine-h").hidden = mine.length === 0;
  replace($("seeks-mine"), mine.map(mineItem));
  if (failed) replace($("seeks-open"), h("li", { class: "notice notice-error" }, errorText(t, failed)));
  else if (open.length === 0) replace($("seeks-open"), h("li", { class: "muted none" }, t("web.playnow.none")));
  else replace($("seeks-open"), open.map(openItem));
  $("seeks-count").textContent = open.length ? t("web.playnow.count", { n: open.length }) : "";
  // Until the language and the requests have come the line keeps its title.
  if (t.has) $("seeks-jump").textContent = failed || !loaded ? t("web.playnow.open.title") : t("lobby.requests.jump", { n: open.length });
}

function showError(text) {
  const el = $("playnow-error");
  el.textContent = text || "";
  el.hidden = !text;
}

const reading = new Set(); // per read of the lists on its way: the requests heard meanwhile, in order

/**
 * refresh reads the lists again. The requests heard of while the read was
 * on its way are applied to it after, in order: the read may be older
 * than they are (a request it lists as open was paired meanwhile), and a
 * message older than the read is followed by the newer one.
 */
async function refresh() {
  const heard = [];
  reading.add(heard);
  try {
    let got = await meet.listSeeks();
    for (const s of heard) got = { ...got, seeks: listed(got.seeks || [], s, got.mine || []) };
    list = got;
    failed = null;
  } catch (err) {
    failed = err;
  } finally {
    reading.delete(heard);
  }
  loaded = true;
  draw();
}

/** settings reads the form as a request (docs/protocol.md, POST /api/seeks). */
function settings() {
  const [min, max] = $("playnow-players").value.split("-").map(Number);
  const body = { min, max: max || min };
  const pace = $("playnow-pace").value;
  if (pace) body.pace = pace;
  if (me && $("playnow-rated").checked) body.rated = true;
  const spread = Number($("playnow-rating").value);
  if (me && spread && me.rating) {
    body.ratingMin = Math.max(1, me.rating.display - spread);
    body.ratingMax = me.rating.display + spread;
  }
  const finish = Number($("playnow-finish").value);
  if (finish) body.minFinish = finish;
  const bots = Number($("playnow-bots").value);
  if (bots) body.botsAfter = bots;
  if (!me) body.name = guestName();
  return body;
}

/** asked follows a request just made: to its table if it was paired at once, else the lists again. */
async function asked({ seek }) {
  if (seek.status === "paired") await meet.goToSeat(seek);
  else await refresh();
}

/**
 * failureText explains a refused request or join in the language t: a
 * guest's name taken (a registered player's, or that of the person
 * waiting) is the form's to change.
 */
export function failureText(t, err) {
  return err && err.code === "name_taken" ? t("web.playnow.name.taken") : errorText(t, err);
}

async function submit(ev) {
  ev.preventDefault();
  busy = true;
  showError(null);
  draw();
  try {
    await asked(await meet.makeSeek(settings()));
  } catch (err) {
    showError(failureText(t, err));
  } finally {
    busy = false;
    draw();
  }
}

async function join(s) {
  showError(null);
  const name = me ? "" : guestName();
  if (!me && !name) {
    showError(t("web.playnow.name.first"));
    $("playnow-name").focus();
    return;
  }
  try {
    await asked(await meet.joinSeek(s.id, name));
  } catch (err) {
    showError(failureText(t, err));
    refresh();
  }
}

async function cancel(s) {
  try {
    await meet.cancelSeek(s.id);
  } catch (err) {
    showError(errorText(t, err));
  }
  refresh();
}

/**
 * listed applies a request as every lobby hears of it: an open one is
 * listed (oldest first, the person's own marked), any other is not.
 */
export function listed(seeks, s, mine) {
  const out = seeks.filter((x) => x.id !== s.id);
  if (s.status !== "open") return out;
  out.push({ ...s, mine: mine.some((m) => m.id === s.id) });
  return out.sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
}

/** onMessage follows the live socket: a request of the person seated opens its table. */
function onMessage(msg) {
  if (msg.type === "seek" && msg.seek && msg.seek.status === "paired" && msg.seek.game) {
    meet.goToSeat(msg.seek).catch((err) => showError(errorText(t, err)));
    return;
  }
  if (msg.type === "seeks" && msg.seek) {
    // Every lobby hears every request: applied here, not read again.
    list = { ...list, seeks: listed(list.seeks || [], msg.seek, list.mine || []) };
    for (const heard of reading) heard.push(msg.seek);
    draw();
    return;
  }
  if (msg.type === "seek" || msg.type === "seeks" || msg.type === "resync") refresh();
}

/** tick moves the waiting clocks on. */
function tick() {
  for (const el of document.querySelectorAll(".seek-wait[data-since]")) el.textContent = meet.waited(el.getAttribute("data-since"));
}

// NAME is where the page keeps a guest's name, as the table's join form does.
const NAME = "razzia.name";

/** guestName returns the name field's name, kept for the next visit. */
function guestName() {
  const name = $("playnow-name").value.trim();
  try {
    if (name) localStorage.setItem(NAME, name);
  } catch {
    // storage disabled: the name is only a convenience
  }
  return name;
}

/** setupPlayNow starts the panel. */
export function setupPlayNow() {
  try {
    $("playnow-name").value = localStorage.getItem(NAME) || "";
  } catch {
    // as above
  }
  onSubmit("playnow-form", submit);
  meet.listen(onMessage, "seek", "seeks");
  setInterval(tick, 1000);
}

/** drawPlayNow redraws the panel for the language t and the account (null: a guest). */
export function drawPlayNow(tr, account) {
  t = tr;
  me = account;
  draw();
}

/** loadPlayNow reads the requests. */
export const loadPlayNow = refresh;

/** fillPaces offers the paces the new-game form has (the server's). */
export function fillPaces(paces) {
  const select = $("playnow-pace");
  const was = select.value || "rapid";
  replace(select, paces.map((p) => h("option", { value: p.id, selected: p.id === was }, p.name)));
}
