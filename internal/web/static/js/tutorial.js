// tutorial.js: the guided first game's script. It decides, from the game's
// actual state and events (never from a count of moves), which lesson to
// show, what it points at, which move it advises and why, and which
// buttons must stay uncovered; and it notices a move the learner made
// against the advice, to explain it. Lessons come in any order, each when
// its situation first arises; one the learner's choices skipped comes back
// when the round's scores show, as a short set-up scene (SCENES) in which
// the learner makes the move. It knows nothing of the page, so it also
// runs under node: the Go tests play the prepared deal (internal/tutorial)
// with it. coach.js draws what it decides.

export { BOT, isTutorial } from "./guided.js";

const mine = (c) => c.v.toMove === c.seat && c.v.legal.length > 0;
const turn = (c) => mine(c) && c.v.phase === "turn";
const auction = (c) => mine(c) && c.v.phase === "auction" && !!c.v.auction;
const bidMoves = (c) => (c.v.legalMoves || []).filter((m) => m.action === "bid");
const has = (c, pred) => c.events.some(pred);
const need = (tokens) => tokens.filter((t) => !t.startsWith("thief ")).map((tok) => `button[data-move="${tok}"]`);
const firstEnd = (c) => c.events.find((e) => e.kind === "roundend");
const ROUND_END = ["#round-end .overlay-box", "#scores"];
const column = (cat) => [`#round-end th.col-${cat}`, ...ROUND_END];

// The advice's thresholds, in points the lot adds to the learner's round
// (the protocol's Gain of the lowest bid): worth a cheque from BID on,
// worth calling an auction for from CALL on; a cheque above DEAR is kept
// unless the lot brings GREAT.
const BID = 3;
const CALL = 5;
const DEAR = 9;
const GREAT = 7;

/**
 * LESSONS are what the guide teaches, in the order it tells them when
 * several are due at once. when says that the lesson's situation has
 * arisen; does that a move of the learner's was the lesson's move (an
 * action lesson is learned by making it, an info lesson by reading it);
 * recap that, skipped by the learner's choices, it is told when the
 * round's scores show; end that it belongs to the round's scores.
 */
export const LESSONS = [
  { id: "draw", target: "#piles", when: (c) => turn(c) && advise(c).key === "draw", does: (tok) => tok === "draw", recap: true },
  { id: "row", info: true, target: "#row", when: (c) => has(c, (e) => e.kind === "draw" && e.card !== "police") },
  { id: "police", info: true, target: "#police", when: (c) => has(c, (e) => e.kind === "draw" && e.card === "police") },
  { id: "bid", target: "#auction", when: (c) => auction(c) && !c.v.auction.mustBid, does: (tok) => tok === "pass" || tok.startsWith("bid "), recap: true },
  { id: "centre", info: true, target: "#centre", when: (c) => has(c, (e) => e.kind === "win"), recap: true },
  { id: "thieves", target: "#row", when: (c) => turn(c) && c.v.legal.some((m) => m.startsWith("thief ")), does: (tok) => tok.startsWith("thief "), recap: true },
  { id: "call", target: "#moves", when: (c) => turn(c) && advise(c).key === "call", does: (tok) => tok === "call", recap: true },
  { id: "forced", target: "#auction", when: (c) => auction(c) && c.v.auction.mustBid, does: (tok) => tok.startsWith("bid "), recap: true },
  { id: "raid", info: true, target: ["#round-end .round-why", "#police"], end: true },
  { id: "bodyguards", info: true, target: column("bodyguards"), end: true },
  { id: "cars", info: true, target: column("cars"), end: true },
  { id: "jewels", info: true, target: column("jewels"), end: true },
  { id: "extras", info: true, target: column("thieves"), end: true },
  { id: "businesses", info: true, target: ROUND_END, end: true },
  { id: "cheques", info: true, target: ["#round-end .overlay-box", "#my-cheques", "#scores"], end: true },
];

/**
 * SCENES bring back a move lesson the learner's choices skipped, and play
 * the scoring round 1 cannot show (no jewel, businesses and the cheque
 * majority, scored after round 3). Each is a prepared position for the
 * tutorial's three players (the row, the learner's face-up cheques, the
 * centre, the highest bid) with the moves on offer, the one the lesson
 * teaches (want) and the guide's advice for it, numbers included, as
 * advise would give it there. The learner makes the move in the bubble;
 * the lesson is learned when it is the right one.
 */
export const SCENES = {
  // Two cards in the row, worth little to the learner: too early to call.
  draw: { row: ["car", "ring"], cheques: [3, 8, 12], centre: 5, moves: ["draw", "call"], want: "draw", advice: { key: "draw", args: { row: 2 } } },
  // Three kinds of jewel and the learner has none: +5 instead of −5.
  bid: { row: ["diamond", "necklace", "brooch"], cheques: [3, 8, 12], centre: 5, high: 4, moves: ["bid 8", "bid 12", "pass"], want: "bid 8", advice: { key: "bid", args: { bid: 8, gain: 10 } } },
  thieves: { row: ["diamond", "restaurant", "car"], cheques: [3, 8, 12], centre: 5, thief: true, moves: ["thief diamond", "thief restaurant", "thief car", "draw"], want: "thief diamond", advice: { key: "thief", args: { card: "diamond" } } },
  // With the learner's ring, three kinds of jewel (+5) and gold (+3).
  call: { row: ["diamond", "necklace", "gold"], cheques: [3, 8, 12], centre: 5, moves: ["draw", "call"], want: "call", advice: { key: "call", args: { gain: 8, bid: 3 } } },
  // The learner called and nobody bid: a car and its driver, 2 points.
  forced: { row: ["car", "driver"], cheques: [3, 8, 12], centre: 5, high: 0, moves: ["bid 3", "bid 8", "bid 12"], want: "bid 3", advice: { key: "mustbid", args: { bid: 3, gain: 2 } } },
  // The scoring the first round cannot show is played too. No jewel costs
  // 5: a lone ring, worth nothing by itself, saves them.
  jewels: { row: ["ring"], cheques: [3, 8, 12], centre: 5, high: 0, moves: ["bid 3", "pass"], want: "bid 3", advice: { key: "bid", args: { bid: 3, gain: 5 } } },
  // A third casino: 3 alike add 5 after round 3.
  businesses: { row: ["casino"], cheques: [3, 8, 12], centre: 5, high: 4, moves: ["bid 8", "bid 12", "pass"], want: "bid 8", advice: { key: "bid", args: { bid: 8, gain: 5 } } },
  // The game's last auction: cheques of 30 in all (7 face down) against 34
  // and 26. Won with the 3, the 13 in the centre makes 40, the highest
  // sum (+5, and 3 for the gold); won with the 12, only 31.
  cheques: { row: ["gold"], cheques: [3, 8, 12], centre: 13, high: 0, moves: ["bid 3", "bid 12", "pass"], want: "bid 3", advice: { key: "bid", args: { bid: 3, gain: 8 } } },
};

/** WELCOME is the greeting, LAST the closing summary: neither is a lesson. */
export const WELCOME = "welcome";
export const LAST = "free";

/** newMemory returns what the guide remembers of one game. */
export function newMemory() {
  return { done: [], welcomed: false, seen: 0, shown: null, note: null, closed: false, shows: {}, tried: null };
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
 * guide returns what to show now, and updates mem: {id, lesson (true for
 * a lesson), again (a lesson offered before: its advice only), info (it
 * waits for Next), target (selectors), want (tokens
 * advised), advice ({key, args} of the reason given, or null), need
 * (selectors that must stay uncovered), args (for the text), progress
 * ({n, total} lessons learned), learned (ids), note ({did, asked} after a
 * move against the advice, else null)}, or null once the learner closed
 * the guide. view is the protocol's View, events every event so far,
 * seat the learner's. Once the round's scores show, it shows only the
 * lessons about them and the summary, never a move the scores cover.
 */
export function guide(mem, view, events, seat) {
  if (mem.closed) return null;
  const c = { v: view, events, seat };
  for (const e of events.slice(mem.seen)) {
    if (e.seat !== seat) continue;
    const tok = tokenOf(e);
    if (!tok) continue;
    const shown = mem.shown;
    mem.note = shown && shown.want.length > 0 && !shown.want.includes(tok) ? { did: tok, asked: shown.want.slice() } : null;
    if (shown && shown.info) finish(mem, shown.id); // moving on is reading on
    const lesson = shown && LESSONS.find((l) => l.id === shown.id);
    if (lesson && lesson.does && lesson.does(tok)) finish(mem, lesson.id);
    mem.shown = null;
  }
  mem.seen = events.length;
  const out = pick(mem, c);
  out.note = mem.note;
  out.text = textKey(out);
  out.progress = { n: learned(mem).length, total: LESSONS.length };
  out.learned = learned(mem);
  mem.shown = out;
  return out;
}

// textKey is the catalogue key of what is shown: a skipped lesson told
// afterwards, a round ended otherwise than by the raid and the summary
// have their own wording.
function textKey(out) {
  if (out.recap || (out.id === "raid" && !out.args.policeLimit)) return `web.tutorial.${out.id}.recap`;
  if (out.id === LAST) return `web.tutorial.free.${out.args.ahead ? "ahead" : "behind"}`;
  return `web.tutorial.${out.id}.text`;
}

const learned = (mem) => LESSONS.filter((l) => mem.done.includes(l.id)).map((l) => l.id);

function finish(mem, id) {
  if (id === WELCOME) mem.welcomed = true;
  else if (id === LAST) mem.closed = true;
  else if (!mem.done.includes(id)) mem.done.push(id);
}

// pick chooses what to show: an info lesson shown stays until read; at the
// round's end the lessons still missing, then the scoring, then the
// summary; else the first lesson due; else advice for the move at hand.
function pick(mem, c) {
  const shown = mem.shown && mem.shown.info ? mem.shown.id : null;
  const open = (l) => !mem.done.includes(l.id);
  const latched = shown && ![WELCOME, LAST].includes(shown) ? LESSONS.find((l) => l.id === shown && open(l)) : null;
  if (latched) return lesson(latched, c, latched.end || (firstEnd(c) && latched.recap));
  if (!mem.welcomed) return info(WELCOME, ["#my-cheques", ".strip-you"], c);
  if (firstEnd(c)) {
    const due = LESSONS.find((l) => open(l) && (l.end || l.recap));
    if (due && SCENES[due.id]) return scene(mem, due, c);
    if (due) return lesson(due, c, true);
    return info(LAST, [], c);
  }
  const due = LESSONS.find((l) => open(l) && !l.end && l.when && l.when(c));
  if (due) {
    // A lesson offered again (its move was not made) shows only its
    // advice: the learner has read the rest, and a phone has no room.
    if (!mem.shown || mem.shown.id !== due.id) mem.shows[due.id] = (mem.shows[due.id] || 0) + 1;
    return { ...lesson(due, c, false), again: mem.shows[due.id] > 1 };
  }
  return hint(c);
}

// lesson shows l: in its situation, with the advice for the move at
// hand; told afterwards (recap), as something to read.
function lesson(l, c, recap) {
  if (recap || l.info) {
    // The round's button stays clear: the learner goes on from the scores.
    // Told afterwards, it points at the round's scores, which cover the table.
    const target = recap && !l.end ? ["#round-end .overlay-box", ...[].concat(l.target)] : [].concat(l.target);
    return { id: l.id, lesson: true, info: true, recap: recap && !l.end, target, want: [], advice: null, need: ["#round-continue"], args: args(c, l.id) };
  }
  const a = advise(c);
  // A thief's button comes once its card is picked: keep its place free.
  const need2 = l.id === "thieves" ? ["[data-row-card]", 'button[data-move^="thief"]', "#moves"] : [...need(a.want), "#row"];
  return { id: l.id, lesson: true, info: false, recap: false, target: [].concat(l.target), want: a.want, advice: a, need: need2, args: args(c, l.id) };
}

// scene brings back the skipped move lesson l, or plays a scoring lesson
// round 1 cannot show, as its set-up scene in the bubble: the lesson's
// text, the position, and, once the learner tried another move, the
// advice. The bubble points at the scene it holds, and may cover the
// round's scores meanwhile: nothing there is to be pressed until the
// scene is played.
function scene(mem, l, c) {
  const sc = SCENES[l.id];
  const tried = mem.tried && mem.tried.id === l.id ? mem.tried.did : null;
  return {
    id: l.id, lesson: true, info: false, recap: !l.end, target: ["#coach-scene"], want: [],
    scene: { ...sc, id: l.id, tried }, advice: tried ? sc.advice : null, need: [], args: args(c, l.id),
  };
}

function info(id, target, c) {
  return { id, lesson: false, info: true, recap: false, target, want: [], advice: null, need: ["#round-continue"], args: args(c, id) };
}

// hint is the advice between lessons.
function hint(c) {
  const { v } = c;
  if (!mine(c)) {
    return { id: "wait", lesson: false, info: false, target: [`#seat-${v.toMove}`], want: [], advice: null, need: [], args: { ...args(c), seat: v.toMove } };
  }
  const a = advise(c);
  const id = v.phase === "turn" ? "hint-turn" : "hint-auction";
  return { id, lesson: false, info: false, target: [v.phase === "turn" ? (a.key === "draw" ? "#piles" : "#moves") : "#auction"], want: a.want, advice: a, need: [...need(a.want), "#row"], args: args(c) };
}

// Kinds a thief is best spent on, most wanted first.
const THIEF = ["diamond", "necklace", "brooch", "watch", "ring", "gold", "driver", "bodyguard", "car", "casino", "transport", "cinema", "racetrack", "realestate", "nightclub", "restaurant"];

/**
 * advise returns the move advised for the learner to move, with its
 * reason: {key (the advice's text is web.tutorial.advice.<key>), want
 * (tokens), args (numbers the text names)}. Every pass comes with the
 * numbers that make it right.
 */
export function advise(c) {
  const { v, seat } = c;
  const bids = bidMoves(c);
  const gainOf = (m) => (m && m.gain ? m.gain.total : 0);
  if (v.phase === "auction" && v.auction) {
    const low = bids[0];
    if (v.auction.mustBid && low) return { key: "mustbid", want: [low.token], args: { bid: low.cheque, gain: gainOf(low) } };
    // The engine passes over a seat without a high enough cheque (R10), so
    // a decision always has a lowest bid.
    const gain = gainOf(low);
    if (!low || gain < BID) return { key: "pass-small", want: ["pass"], args: { bid: low ? low.cheque : 0, gain } };
    if (low.cheque > DEAR && gain < GREAT) return { key: "pass-dear", want: ["pass"], args: { bid: low.cheque, gain, great: GREAT } };
    return { key: "bid", want: [low.token], args: { bid: low.cheque, gain } };
  }
  const thieves = v.legal.filter((m) => m.startsWith("thief ") && m.split(" ").length === 2);
  if (thieves.length > 0) {
    const rank = (m) => {
      const i = THIEF.indexOf(m.split(" ")[1]);
      return i < 0 ? THIEF.length : i;
    };
    thieves.sort((a, b) => rank(a) - rank(b));
    return { key: "thief", want: [thieves[0]], args: { card: thieves[0].split(" ")[1] } };
  }
  const stake = (v.stakes || []).find((s) => s.seat === seat);
  const gain = stake ? stake.gain.total : 0;
  if (v.legal.includes("call") && v.row.length >= 2 && stake && stake.bid > 0 && stake.bid <= DEAR && gain >= CALL) {
    return { key: "call", want: ["call"], args: { gain, bid: stake.bid } };
  }
  return { key: "draw", want: ["draw"], args: { row: v.row.length, police: v.police, limit: v.policeLimit } };
}

// minus writes a number with the typographic minus sign the score
// tables use; signed adds a plus to a gain, as they do.
const minus = (n) => (n < 0 ? `\u2212${-n}` : String(n));
const signed = (n) => (n > 0 ? `+${n}` : minus(n));

// args are the numbers the texts may name.
function args(c, id) {
  const { v, seat } = c;
  const me = v.seats[seat] || { faceUp: [], faceDown: [], holdings: {} };
  const end = firstEnd(c);
  const out = {
    police: v.police, limit: v.policeLimit, centre: v.centre, row: v.row.length,
    cheques: me.faceUp.join(", "), high: v.auction ? v.auction.highBid : 0,
  };
  if (end) {
    const score = (end.scores && end.scores[seat]) || {};
    const others = (end.scores || []).filter((_, i) => i !== seat).map((s) => s.total);
    const cat = id === "extras" ? "thieves" : id;
    out.points = signed(cat && score[cat] !== undefined ? score[cat] : 0);
    const mine = score.total || 0;
    const best = others.length ? Math.max(...others) : 0;
    out.mine = minus(mine);
    out.best = minus(best);
    out.ahead = mine > best;
    out.kinds = ["casino", "transport", "cinema", "racetrack", "realestate", "nightclub", "restaurant"].filter((k) => (me.holdings || {})[k] > 0).length;
    out.sum = [...me.faceUp, ...(me.faceDown || [])].reduce((a, b) => a + b, 0);
    out.policeLimit = !!end.policeLimit;
  }
  return out;
}

/** next marks the info shown as read. */
export function next(mem) {
  if (mem.shown && mem.shown.info) finish(mem, mem.shown.id);
  mem.shown = null;
  mem.note = null;
}

/**
 * practise makes the move tok in the scene shown: the right one finishes
 * its lesson, another is remembered, so that the scene shows the advice.
 */
export function practise(mem, tok) {
  const sc = mem.shown && mem.shown.scene;
  if (!sc) return;
  if (tok === sc.want) {
    finish(mem, sc.id);
    mem.tried = null;
    mem.shown = null;
  } else {
    mem.tried = { id: sc.id, did: tok };
  }
}

/** close ends the guide: the learner plays on alone. */
export function close(mem) {
  mem.closed = true;
  mem.shown = null;
}
