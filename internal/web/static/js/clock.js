// clock.js: a timed table's clocks (the state message's "clock"), counted
// down in the page. The server is the authority: it says when the running
// decision's free time ends and when it times out, by its clock, and when
// it sent the message (serverTime); the page counts with its own clock
// corrected by the difference, so a wrong clock on the reader's machine
// does not matter. It runs under node in the tests, with any "now".

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

/**
 * received notes when a clock arrived, by the page's clock (now), so
 * that left() can count from it.
 */
export function received(clock, now = Date.now()) {
  if (!clock) return null;
  return { ...clock, offset: clock.serverTime - now };
}

/**
 * left returns what seat has left at now (the page's clock): the free
 * decision time and the reserve, in milliseconds, and whether the seat's
 * decision runs. Seats not deciding show their reserve.
 */
export function left(clock, seat, now = Date.now()) {
  const reserve = clock.reserveMs[seat] || 0;
  if (clock.running !== seat) return { running: false, decision: 0, reserve };
  const t = now + (clock.offset || 0);
  const decision = Math.max(0, clock.decisionEnds - t);
  const res = Math.max(0, Math.min(reserve, clock.deadline - Math.max(t, clock.decisionEnds)));
  return { running: true, decision, reserve: res };
}

/**
 * lowAt is the time left under which a decision's clock shows low: 10 s,
 * or a tenth of the pace's decision time when that is longer (a day's
 * correspondence decision is low with 2.4 hours left).
 */
export function lowAt(pace) {
  return Math.max(10 * SECOND, pace && pace.decisionMs > 0 ? pace.decisionMs / 10 : 0);
}

/**
 * format writes a duration as a clock does: "0:07", "1:02:03", or days
 * and hours. kind "correspondence" writes hours and minutes as words
 * ("5 h 12 min"): nobody counts a day's decision in seconds.
 */
export function format(t, ms, kind) {
  ms = Math.max(0, ms);
  if (ms >= DAY) return t("web.clock.days", { d: Math.floor(ms / DAY), h: Math.floor((ms % DAY) / HOUR) });
  if (kind === "correspondence" && ms >= HOUR) return t("web.clock.hours", { h: Math.floor(ms / HOUR), m: Math.floor((ms % HOUR) / 60000) });
  const s = Math.ceil(ms / SECOND);
  const pad = (n) => String(n).padStart(2, "0");
  if (s >= 3600) return `${Math.floor(s / 3600)}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/**
 * text is what a seat's clock shows at now: the running decision's free
 * time and the reserve ("0:07 + 1:00"), short enough for a phone's strip,
 * or, once the free time is spent and for the others, the reserve. In
 * correspondence (kind) the reserve is the vacation allowance, and is
 * called so.
 */
export function text(t, clock, seat, now = Date.now(), kind) {
  const l = left(clock, seat, now);
  const corr = kind === "correspondence";
  if (l.running && l.decision > 0) {
    if (corr) return t("web.clock.corr", { time: format(t, l.decision, kind), vacation: format(t, l.reserve, kind) });
    return `${format(t, l.decision)} + ${format(t, l.reserve)}`;
  }
  return t(corr ? "web.clock.vacation" : "web.clock.reserve", { time: format(t, l.reserve, kind) });
}

/**
 * tick fills every clock element under root ([data-clock-seat]) for now,
 * and marks the running one low when less than its data-clock-low
 * milliseconds are left in all (10 s without it); data-clock-kind is the
 * pace's kind.
 */
export function tick(root, t, clock, now = Date.now()) {
  if (!clock || !root.querySelectorAll) return;
  for (const el of root.querySelectorAll("[data-clock-seat]")) {
    const seat = Number(el.getAttribute("data-clock-seat"));
    const low = Number(el.getAttribute("data-clock-low")) || 10 * SECOND;
    const l = left(clock, seat, now);
    const value = text(t, clock, seat, now, el.getAttribute("data-clock-kind") || "live");
    if (el.textContent !== value) el.textContent = value;
    el.classList.toggle("clock-running", l.running);
    el.classList.toggle("clock-low", l.running && l.decision + l.reserve < low);
  }
}

/** LAST_SECONDS are the seconds of a player's own clock that tick audibly. */
export const LAST_SECONDS = 5;

/**
 * ticks reports whether a player's own running clock ticks at now: once in
 * each of its last LAST_SECONDS, free time and reserve together. last is
 * the second it showed at the check before, which ticks returns too.
 */
export function ticks(clock, seat, last, now = Date.now()) {
  const l = clock && seat >= 0 ? left(clock, seat, now) : null;
  const s = l && l.running ? Math.ceil((l.decision + l.reserve) / SECOND) : 0;
  return { tick: s > 0 && s <= LAST_SECONDS && s !== last, second: s };
}
