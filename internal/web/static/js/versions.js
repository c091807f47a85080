// versions.js: the state of a connection that speaks version 2 of the game's
// protocol (docs/protocol.md, "Protocol versions"): a whole state, then
// patches of it, turned back into whole state messages, so that the page
// is given a whole state after every change as in version 1.

import { patch } from "./patch.js";

/** VERSIONS are the versions of the protocol the page speaks. */
export const VERSIONS = "1,2";

/** withVersions returns the WebSocket URL that states the versions spoken. */
export function withVersions(url) {
  return `${url}${url.includes("?") ? "&" : "?"}protocol=${VERSIONS}`;
}

export class LiveState {
  constructor() {
    this.reset();
  }

  /** reset forgets the state: a new connection starts with a whole one. */
  reset() {
    this.doc = null;
    this.version = 0;
    this.asked = false;
  }

  /**
   * accept takes a message of the server and returns what the page is to
   * be given: {msg, whole}, msg a whole state message for a patch, whole
   * true for a whole state that replaces the log; or null for a patch
   * that does not apply to the state held (a message went missing), after
   * calling resync once to ask for the whole state. tell(event, players),
   * when given, tells the events of version 2, which come without their
   * sentences ("text").
   */
  accept(msg, resync, tell) {
    if (msg.type === "state" && msg.version) {
      const { events, version: _version, ...doc } = msg;
      this.doc = doc;
      this.version = msg.version;
      this.asked = false;
      const state = expand(doc);
      return { msg: { ...state, events: told(events, state, tell) }, whole: true };
    }
    if (msg.type !== "patch") return { msg, whole: false };
    const base = msg.base === undefined ? msg.version - 1 : msg.base;
    if (!this.doc || base !== this.version || msg.patch === null || typeof msg.patch !== "object") {
      if (!this.asked) {
        this.asked = true;
        resync();
      }
      return null;
    }
    const doc = patch(this.doc, msg.patch);
    this.doc = doc;
    this.version = msg.version;
    const state = expand(doc);
    return { msg: { ...state, events: told(msg.events, state, tell) }, whole: false };
  }
}

// told returns the events with what version 2 leaves out of them (a
// roundend's scores, the seats' of its round) and their sentences, told
// by tell naming the state's players.
function told(events, state, tell) {
  const seats = (state.view && state.view.seats) || [];
  const list = (events || []).map((e) =>
    e.kind === "roundend" && e.scores === undefined && seats.length > 0 && seats.every((s) => s.scores.length >= e.round)
      ? { ...e, scores: seats.map((s) => ({ ...s.scores[e.round - 1] })) }
      : e);
  if (!tell) return list;
  const players = ((state.game && state.game.seats) || []).map((s) => s.name);
  return list.map((e) => (e.text === undefined ? { ...e, text: tell(e, players) } : e));
}

// expand returns the whole state of version 2's lean state doc (not
// changed): what it leaves out, derived (docs/protocol.md, "What version 2
// leaves out"), and the members a whole state writes as null.
export function expand(doc) {
  const out = withNulls(structuredClone(doc));
  const v = out.view;
  if (!v) return out;
  const g = out.game;
  if (g.moves === undefined) g.moves = v.moves;
  if (g.toMove === undefined) {
    if (v.toMove >= 0) g.toMove = v.toMove;
  } else if (g.toMove === -1) delete g.toMove;
  if (v.raid === undefined) {
    const left = (v.remaining && v.remaining.police) || 0;
    v.raid = { police: v.police, limit: v.policeLimit, policeLeft: left, cardsLeft: v.deckLeft,
      toRaid: Math.max(v.policeLimit - v.police, 0), chance: v.deckLeft > 0 ? left / v.deckLeft : 0 };
  }
  if (v.phase === undefined) v.phase = v.toMove < 0 ? "over" : v.auction ? "auction" : "turn";
  for (const s of v.seats || []) for (const sc of s.scores || []) withTotal(sc);
  const a = v.auction;
  if (a) {
    if (a.mustBid === undefined) a.mustBid = false;
    const cheques = (a.bids || []).map((b) => (b.startsWith("bid ") ? Number(b.slice(4)) : 0));
    if (a.highBid === undefined) {
      const high = Math.max(0, ...cheques);
      a.highBid = high;
      a.highBidder = high > 0 ? cheques.indexOf(high) : -1;
    }
    if (a.bidding === undefined) {
      a.bidding = (a.bids || []).map((b, i) =>
        cheques[i] > 0 ? { state: "bid", cheque: cheques[i] } : { state: b === "passed over" ? "passedOver" : b });
    }
  }
  const high = a ? a.highBid : 0;
  for (const s of v.stakes || []) {
    withTotal(s.gain);
    if (s.bid === undefined) s.bid = ((v.seats[s.seat] || {}).faceUp || []).find((c) => c > high) || 0;
  }
  if (v.legalMoves === undefined) {
    const stake = (v.stakes || []).find((s) => s.seat === v.seat);
    const gains = v.gains || {};
    v.legalMoves = (v.legal || []).map((token) => typedMove(token, gains[token] ? withTotal(gains[token]) : stake && stake.gain));
  }
  delete v.gains;
  return out;
}

// withTotal adds a score's total, the sum of its categories.
function withTotal(score) {
  if (score && score.total === undefined) {
    score.total = Object.values(score).reduce((sum, n) => sum + n, 0);
  }
  return score;
}

// typedMove is a legal move's token in both forms (docs/protocol.md,
// "Typed moves"); a bid's with its gain.
function typedMove(token, gain) {
  const [word, ...rest] = token.split(" ");
  if (word === "bid") return { token, action: "bid", cheque: Number(rest[0]), gain: { ...gain } };
  if (word === "thief") return { token, action: "thieves", cards: rest };
  return { token, action: word };
}

// withNulls puts back the members a whole state writes as null and a
// patch removes (docs/protocol.md: a null member and a missing one mean
// the same), so that the page sees the very state a whole message gives.
function withNulls(doc) {
  if (doc.view === undefined) doc.view = null;
  if (doc.view && doc.view.auction === undefined) doc.view.auction = null;
  return doc;
}
