// The seat loop's rule: what a seat does after the server refused its
// move. One fact with the Go client (internal/client.AfterRefusal): both
// are checked against internal/client/testdata/refusals.json.

// resend the same move with the same seq after a wait; resync: send
// nothing, the next state says whose turn it is; give_up the move: the
// person chooses again.
export const RESEND = "resend";
export const RESYNC = "resync";
export const GIVE_UP = "give_up";

const resync = new Set(["stale", "game_over", "not_started"]);
// The catalogue's codes whose request may succeed later, unchanged.
const temporary = new Set(["rate_limited", "too_many_games", "too_many_connections", "chat_too_fast", "too_many_reports", "internal", "unavailable", "unsupported"]);

// afterRefusal returns what a seat does after its move was refused with
// code.
export function afterRefusal(code) {
  if (resync.has(code)) return RESYNC;
  if (temporary.has(code)) return RESEND;
  return GIVE_UP;
}

// A move to resend goes again after MIN_RETRY_MS or the server's
// retryAfter, whichever is longer, at most MAX_RESENDS times.
export const MIN_RETRY_MS = 1200;
export const MAX_RESENDS = 3;

// resendDelay returns in how many milliseconds to send the last move
// (last: {token, seq, resends}) again after the refusal msg, or -1 not
// to: at most MAX_RESENDS times per move, and only while the game is at
// the position it was sent for (view).
export function resendDelay(msg, last, view) {
  if (afterRefusal(msg.code) !== RESEND || !last || !view || last.seq !== view.moves) return -1;
  if ((last.resends || 0) >= MAX_RESENDS) return -1;
  return Math.max(MIN_RETRY_MS, 1000 * (msg.retryAfter || 0));
}
