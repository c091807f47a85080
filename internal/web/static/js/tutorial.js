// tutorial.js: the guided first game's script. It decides, from the game's
// actual state and events (never from a count of moves), which step of
// the guide to show, what it points at, which moves it asks for and which
// buttons must stay uncovered; and it notices a move the learner made
// against the advice, to explain it. It knows nothing of the page, so it
// also runs under node: the Go tests play the prepared deal
// (internal/tutorial) with it and check that every step comes, in order.
// coach.js draws what it decides.

/** BOT is the kind of a tutorial's bot seats (tutorial.Bot on the server). */
export const BOT = "tutorial";

/** isTutorial reports whether a game (GameInfo) is a guided first game. */
export function isTutorial(game) {
  return !!game && game.seats.some((s) => s.bot === BOT);
}

const mine = (c) => c.v.toMove === c.seat && c.v.legal.length > 0;
const turn = (c) => mine(c) && c.v.phase === "turn";
const bids = (c) => c.v.legal.filter((m) => m.startsWith("bid "));
const lowestBid = (c) => {
  const b = bids(c);
  return b.length ? [b[0]] : [];
};
const has = (c, pred) => c.events.some(pred);
const need = (tokens) => tokens.map((tok) => `button[data-move="${tok}"]`);
// The lot at stake stays in sight while the learner decides about it.
const needLot = (want) => (c) => [...need(want(c)), "#row"];

/**
 * STEPS are the lessons in their order. An info step (info: true) shows
 * once its situation has arisen (when: true from then on) and stays until
 * the learner reads it (next) or moves; an action step shows while its
 * situation holds, asks for moves (want) and is done when the learner
 * makes one of them. target is a selector, or a list tried in order.
 */
export const STEPS = [
  { id: "welcome", info: true, target: ["#my-cheques", ".strip-you"], when: () => true },
  { id: "draw", target: "#piles", when: turn, want: () => ["draw"] },
  { id: "row", info: true, target: "#row", when: (c) => has(c, (e) => e.kind === "draw" && e.card !== "police") },
  { id: "police", info: true, target: "#police", when: (c) => has(c, (e) => e.kind === "draw" && e.card === "police") },
  { id: "bid", target: "#auction", when: (c) => mine(c) && c.v.phase === "auction" && !c.v.auction.mustBid && bids(c).length > 0, want: lowestBid, need: needLot(lowestBid) },
  { id: "centre", info: true, target: "#centre", when: (c) => has(c, (e) => e.kind === "win") },
  {
    id: "thieves", target: "#row", when: (c) => turn(c) && c.v.legal.some((m) => m.startsWith("thief ")),
    want: (c) => c.v.legal.filter((m) => m.startsWith("thief ")),
    need: () => ["[data-row-card]", 'button[data-move^="thief"]'],
  },
  {
    id: "call", target: "#moves", when: (c) => turn(c) && c.v.legal.includes("call") && c.v.row.length > 0,
    want: () => ["call"], need: needLot(() => ["call"]),
  },
  { id: "forced", target: "#auction", when: (c) => mine(c) && c.v.phase === "auction" && c.v.auction.mustBid, want: lowestBid, need: needLot(lowestBid) },
  { id: "raid", info: true, target: ["#round-end .round-why", "#police"], when: (c) => has(c, (e) => e.kind === "roundend" && e.policeLimit) },
  {
    id: "scoring", info: true, target: ["#round-end table", "#scores"], when: (c) => has(c, (e) => e.kind === "roundend"),
    need: () => ["#round-continue"],
  },
];

/** LAST is the closing step: the learner plays on freely. */
export const LAST = "free";

/** newMemory returns what the guide remembers of one game. */
export function newMemory() {
  return { done: [], seen: 0, shown: null, note: null, closed: false };
}

// tokenOf returns the record token of a learner's move told by an event,
// or "" for an event that is not a decision.
function tokenOf(e) {
  switch (e.kind) {
    case "draw":
      return "draw";
    case "thieves":
      return ["thief", ...e.cards].join(" ");
    case "bid":
      return `bid ${e.cheque}`;
    case "pass":
      return "pass";
    case "auction":
      return e.auction === "forced" ? "call" : "";
  }
  return "";
}

/**
 * guide returns what to show now, and updates mem: {id, step (true for a
 * lesson, false for a hint between lessons), info, target (selectors),
 * want (tokens asked for), need (selectors that must stay uncovered),
 * args (for the text), note ({did, asked} after a move against the
 * advice, else null)}, or null once the learner closed the guide.
 * view is the protocol's View, events every event so far, seat the
 * learner's.
 */
export function guide(mem, view, events, seat) {
  if (mem.closed) return null;
  const c = { v: view, events, seat };
  // What did the learner do since last time, against what was shown?
  for (const e of events.slice(mem.seen)) {
    if (e.seat !== seat) continue;
    const tok = tokenOf(e);
    if (!tok) continue;
    const shown = mem.shown;
    if (shown && shown.info) {
      finish(mem, shown.id); // moving on is reading on
      mem.note = null;
    } else if (shown && shown.want.length > 0 && !shown.want.includes(tok)) {
      mem.note = { did: tok, asked: shown.want.slice() };
    } else {
      if (shown && shown.step) finish(mem, shown.id);
      mem.note = null;
    }
    mem.shown = null;
  }
  mem.seen = events.length;
  const out = pick(mem, c);
  out.note = mem.note;
  mem.shown = out;
  return out;
}

function finish(mem, id) {
  if (!mem.done.includes(id)) mem.done.push(id);
}

// pick chooses the step: a shown info step stays; else the first lesson not
// done whose situation holds; else a hint for the move at hand.
function pick(mem, c) {
  const { v, seat } = c;
  const latched = mem.shown && mem.shown.info && !mem.done.includes(mem.shown.id) ? STEPS.find((s) => s.id === mem.shown.id) : null;
  const givenUp = has(c, (e) => e.kind === "roundend" && e.round >= 2) || v.phase === "over";
  const step = latched || (givenUp ? null : STEPS.find((s) => !mem.done.includes(s.id) && s.when(c)));
  if (step) {
    const want = step.want ? step.want(c) : [];
    return {
      id: step.id, step: true, info: !!step.info, target: [].concat(step.target), want,
      need: step.need ? step.need(c) : need(want), args: args(c),
    };
  }
  if (givenUp || STEPS.every((s) => mem.done.includes(s.id))) {
    return { id: LAST, step: true, info: true, target: [], want: [], need: [], args: args(c) };
  }
  if (!mine(c)) {
    return { id: "wait", step: false, info: false, target: [`#seat-${v.toMove}`], want: [], need: [], args: { ...args(c), seat: v.toMove } };
  }
  if (v.phase === "turn") {
    return { id: "hint-draw", step: false, info: false, target: ["#piles"], want: ["draw"], need: need(["draw"]), args: args(c) };
  }
  if (v.auction && v.auction.mustBid) {
    const want = lowestBid(c);
    return { id: "hint-mustbid", step: false, info: false, target: ["#auction"], want, need: need(want), args: args(c) };
  }
  return { id: "hint-pass", step: false, info: false, target: ["#auction"], want: ["pass"], need: need(["pass"]), args: args(c) };
}

// args are the numbers the texts may name.
function args(c) {
  const { v, seat } = c;
  const bid = lowestBid(c)[0];
  const a = v.auction;
  return {
    police: v.police, limit: v.policeLimit, toRaid: Math.max(v.policeLimit - v.police, 0), centre: v.centre,
    cheques: (v.seats[seat] ? v.seats[seat].faceUp : []).join(", "),
    bid: bid ? Number(bid.split(" ")[1]) : 0, high: a ? a.highBid : 0, row: v.row.length,
  };
}

/** next marks the info step shown as read. */
export function next(mem) {
  if (mem.shown && mem.shown.info) {
    if (mem.shown.id === LAST) mem.closed = true;
    else finish(mem, mem.shown.id);
  }
  mem.shown = null;
  mem.note = null;
}

/** close ends the guide: the learner plays on alone. */
export function close(mem) {
  mem.closed = true;
  mem.shown = null;
}
