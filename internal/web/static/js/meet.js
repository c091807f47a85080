// meet.js: what Play now and challenges share: their calls of the HTTP
// API (docs/protocol.md, "Play now and challenges") and what the page's
// live socket (live.js) tells at once of the person's requests and
// challenges.

import { request } from "./api.js";
import { onLive } from "./live.js";

const enc = encodeURIComponent;

export const listSeeks = () => request("GET", "/api/seeks");
export const makeSeek = (body) => request("POST", "/api/seeks", body);
export const joinSeek = (id, name) => request("POST", `/api/seeks/${enc(id)}/join`, name ? { name } : {});
export const cancelSeek = (id) => request("DELETE", `/api/seeks/${enc(id)}`);
export const seekSeat = (id) => request("POST", `/api/seeks/${enc(id)}/seat`);
export const listChallenges = () => request("GET", "/api/challenges");
export const challenge = (to, pace, rated) => request("POST", "/api/challenges", { to, ...(pace ? { pace } : {}), ...(rated ? { rated } : {}) });
export const answerChallenge = (id, accept, reason) =>
  request("POST", `/api/challenges/${enc(id)}/answer`, accept ? { accept: true } : { accept: false, reason: reason || "generic" });
export const cancelChallenge = (id) => request("DELETE", `/api/challenges/${enc(id)}`);

/** challengeHref is the lobby's challenge form, filled in with a player's name. */
export const challengeHref = (name) => `/?challenge-to=${enc(name)}#challenge`;

/** REASONS a challenge may be declined with (the server's list). */
export const REASONS = ["generic", "later", "pace", "rated", "casual", "players"];

/** playersText says a player count or range: "3", "2–4". */
export const playersText = (min, max) => (min === max ? String(min) : `${min}–${max}`);

/**
 * listen calls f(msg) with the live socket's messages of the types
 * (seek, seeks, challenge), and with a {type: "resync"} each time the
 * socket opens, since messages may have been lost before.
 */
export function listen(f, ...types) {
  for (const type of [...types, "resync"]) onLive(type, f);
}

/** waited says how long ago an instant was, as a clock: "0:42", "12:05". */
export function waited(iso, now = Date.now()) {
  const s = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 1000));
  const m = Math.floor(s / 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`
    : `${m}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * goToSeat opens the table a paired request sits at: a guest's browser
 * takes the seat's cookie first.
 */
export async function goToSeat(seek) {
  if (!seek.signedIn) await seekSeat(seek.id);
  location.assign(`/g/${enc(seek.game)}`);
}
