// presence.js: at the table, whether each seat's person is there: a dot
// by their name (connected, away: their page is hidden, or gone), and for
// a gone player at a correspondence table when they were last seen. The
// server sends the seats' presence on the table's socket ("seats"); this
// page tells it when it is hidden ("away").

import { h } from "./dom.js";

let seats = new Map(); // seat -> {presence, lastSeen}
let send = null;

// AGAIN_MS is how often the marks are drawn again, so that "last seen 2
// minutes ago" keeps true between the table's messages.
const AGAIN_MS = 30000;
let painted = null; // the arguments of the last paintSeats

/** setupSeats sends the page's visibility through send (the table's socket) now and whenever it changes. */
export function setupSeats(sendFn) {
  send = sendFn;
  document.addEventListener("visibilitychange", hello);
  setInterval(() => {
    if (painted && document.visibilityState === "visible") paintSeats(...painted);
  }, AGAIN_MS);
}

/** hello tells a new connection whether the page is hidden. */
export function hello() {
  if (send && document.visibilityState === "hidden") send({ type: "away", away: true });
  else if (send) send({ type: "away", away: false });
}

/** receiveSeats takes a "seats" message. */
export function receiveSeats(msg) {
  seats = new Map((msg.seats || []).map((s) => [s.seat, s]));
}

/** ago says how long ago an ISO time was, in the page's language: "3 hours ago". */
export function ago(iso, now = Date.now()) {
  const d = (new Date(iso).getTime() - now) / 1000;
  if (!isFinite(d)) return "";
  const rtf = new Intl.RelativeTimeFormat(document.documentElement.lang || undefined, { numeric: "auto" });
  const a = Math.abs(d);
  if (a < 60) return rtf.format(Math.round(d), "second");
  if (a < 3600) return rtf.format(Math.round(d / 60), "minute");
  if (a < 86400) return rtf.format(Math.round(d / 3600), "hour");
  return rtf.format(Math.round(d / 86400), "day");
}

/**
 * paintSeats marks the players' strips of root (.strip[data-seat=N]) and
 * the waiting room's seats (#open-seats li[data-seat=N]) with
 * their presence, but for the reader's own seat you; game is the table
 * (its pace: correspondence shows when a gone player was last seen).
 */
export function paintSeats(root, t, game, you) {
  if (!root) return;
  painted = [document, t, game, you];
  // The players' strips, and the waiting room's list of seats.
  for (const strip of root.querySelectorAll(".strip[data-seat], #open-seats li[data-seat]")) {
    const head = strip.querySelector(".strip-head") || strip;
    const mark = strip.querySelector(".seat-presence");
    const want = presenceMark(t, game, you, Number(strip.getAttribute("data-seat")));
    // A mark as it should be stays: the table is drawn at every message.
    if (mark && want && mark.isEqualNode(want)) continue;
    if (mark) mark.remove();
    if (!want) continue;
    const name = head.querySelector(".strip-name");
    if (name) name.after(want);
    else head.append(want);
  }
}

/**
 * presenceMark is what shows by a seat's name whether its person is there
 * (null for the reader's own seat you, or a seat nobody told of); game is
 * the table (its pace: correspondence shows when a gone player was last
 * seen). The table draws it with the strips (render.js presence).
 */
export function presenceMark(t, game, you, seat) {
  const s = seat === you ? null : seats.get(seat);
  if (!s) return null;
  const slow = game && game.pace && game.pace.kind === "correspondence";
  const seen = s.presence === "gone" && s.lastSeen ? t("social.seat.seen", { when: ago(s.lastSeen) }) : "";
  const label = `${t(`social.seat.${s.presence}`)}${seen ? ` · ${seen}` : ""}`;
  const shown = s.presence === "connected" ? "" : slow && seen ? seen : t(`social.seat.${s.presence}`);
  return h("span", { class: `seat-presence presence-${s.presence}`, "data-presence": s.presence, title: label, role: "img", "aria-label": label },
    h("span", { class: "presence-dot", "aria-hidden": "true" }),
    shown ? h("span", { class: "seat-presence-text", "aria-hidden": "true" }, shown) : null);
}
