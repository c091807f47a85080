package web

import "testing"

// TestMeetScript: the clocks of Play now and challenges (how long a
// request waited, how long a challenge has left), a player count or
// range, a challenge's settings and a refused request as the page says
// them.
func TestMeetScript(t *testing.T) {
	runCases(t, "meet.js and challenges.js", `import "./fakedom.mjs";
import { waited, playersText } from "./meet.mjs";
import { left, describe } from "./challenges.mjs";
import { listed, failureText } from "./playnow.mjs";
const t0 = Date.parse("2026-03-14T19:40:05Z");
const t = Object.assign((k, a) => k + (a ? JSON.stringify(a) : ""), { has: (k) => k === "pace.rapid" });
const cases = [
  [waited("2026-03-14T19:40:05Z", t0), "0:00"],
  [waited("2026-03-14T19:40:05Z", t0 + 42_900), "0:42"],
  [waited("2026-03-14T19:40:05Z", t0 + 3_725_000), "1:02:05"],
  [waited("2026-03-14T19:40:05Z", t0 - 5000), "0:00"],
  [playersText(3, 3), "3"],
  [playersText(2, 4), "2–4"],
  [left({ expires: "2026-03-14T19:43:05Z" }, t0), "3:00"],
  [left({ expires: "2026-03-14T19:43:05Z" }, t0 + 179_001), "0:01"],
  [left({ expires: "2026-03-14T19:43:05Z" }, t0 + 200_000), "0:00"],
  [left({ expires: "2026-03-16T19:40:05Z" }, t0), "2d 0h"],
  [describe(t, { pace: "rapid", rated: true, to: [{}, {}] }), 'pace.rapid · web.profile.rated · web.playnow.players{"n":3}'],
  // A guest under a name taken is told to change the form's name, not
  // that someone at a table has it.
  [failureText(t, { code: "name_taken" }), "web.playnow.name.taken"],
  [failureText(t, { code: "pace.rapid" }), "error.unknown{\"code\":\"pace.rapid\"}"],
];
// Requests as lobbies hear of them: kept in waiting order, the reader's
// own marked, gone when no longer open.
const a = { id: "a", status: "open", created: "2026-03-14T19:40:05Z" };
const b = { id: "b", status: "open", created: "2026-03-14T19:40:01Z" };
let seeks = listed([], a, []);
seeks = listed(seeks, b, [{ id: "b" }]);
cases.push([seeks.map((s) => s.id + (s.mine ? "*" : "")).join(), "b*,a"]);
seeks = listed(seeks, { ...a, status: "paired" }, []);
cases.push([seeks.map((s) => s.id).join(), "b"]);
cases.push([listed(seeks, { ...b, status: "open" }, []).length, 1]);
`)
}

// TestChallengesKeepTheNewer: a read of the person's challenges that
// comes back after a message about one of them (the read was on its way
// when the challenge lapsed) does not bring the challenge back to open.
func TestChallengesKeepTheNewer(t *testing.T) {
	runCases(t, "challenges.js", `import "./fakedom.mjs";
`+fakeSockets+`globalThis.setInterval = () => 1;
globalThis.location = { pathname: "/p/Bob", protocol: "http:", host: "x" };
document.addEventListener = () => {};
document.getElementById = () => null;
document.body = document.createElement("body");
document.body.append = (el) => document.body.appendChild(el);
const reads = []; // the reads of the list on their way
const answer = (v) => ({ ok: true, status: 200, text: async () => JSON.stringify(v) });
globalThis.fetch = (path) => path === "/api/session"
  ? Promise.resolve(answer({ accounts: true, account: { name: "Ann" } }))
  : new Promise((resolve) => reads.push((v) => resolve(answer(v))));
const { startLive } = await import("./live.mjs");
const { watchChallenges, onChallenges, refreshChallenges } = await import("./challenges.mjs");
let seen = [];
onChallenges((list) => { seen = list; });
const settle = () => new Promise((r) => setTimeout(r, 0));
const watching = watchChallenges(() => null);
startLive(() => null);
await settle();
const c = { id: "c1", from: "Ann", mine: true, to: [{ name: "Bob" }], status: "open", pace: "rapid", expires: "2026-03-14T19:43:05Z" };
reads.shift()({ challenges: [] });
await watching;
const ws = sockets[sockets.length - 1];
const say = (m) => ws.listeners.message({ data: JSON.stringify(m) });
say({ type: "challenge", challenge: c });
refreshChallenges(); // as the form does after sending
await settle();
say({ type: "challenge", challenge: { ...c, status: "lapsed" } });
reads.shift()({ challenges: [c] }); // read before the lapse, answered after it
await settle();
const cases = [[seen.map((x) => x.id + ":" + x.status).join(), "c1:lapsed"]];
// A challenge heard of while the list was on its way is kept, and an
// older message does not undo a newer one.
const d = { ...c, id: "d1", status: "open" };
refreshChallenges();
await settle();
say({ type: "challenge", challenge: d });
reads.shift()({ challenges: [{ ...c, status: "lapsed" }] });
await settle();
say({ type: "challenge", challenge: { ...d, to: [{ name: "Bob", answer: "decline" }], status: "declined" } });
say({ type: "challenge", challenge: d });
cases.push([seen.map((x) => x.id + ":" + x.status).join(), "d1:declined,c1:lapsed"]);
`)
}

// TestPlayNowKeepsWhatItHeard: a read of the requests that comes back
// after a message about one of them (paired while the read was on its
// way) does not list it as open again.
func TestPlayNowKeepsWhatItHeard(t *testing.T) {
	runCases(t, "playnow.js", `import "./fakedom.mjs";
`+fakeSockets+`globalThis.setInterval = () => 1;
globalThis.location = { pathname: "/", protocol: "http:", host: "x" };
document.addEventListener = () => {};
const els = new Map();
document.getElementById = (id) => {
  if (!els.has(id)) els.set(id, Object.assign(document.createElement("div"), { querySelectorAll: () => [] }));
  return els.get(id);
};
const reads = [];
globalThis.fetch = () => new Promise((resolve) => reads.push((v) => resolve({ ok: true, status: 200, text: async () => JSON.stringify(v) })));
const { startLive } = await import("./live.mjs");
const { setupPlayNow, loadPlayNow } = await import("./playnow.mjs");
setupPlayNow();
startLive(() => null);
const settle = () => new Promise((r) => setTimeout(r, 0));
const ws = sockets[sockets.length - 1];
const say = (m) => ws.listeners.message({ data: JSON.stringify(m) });
const a = { id: "a", status: "open", created: "2026-03-14T19:40:05Z", min: 2, max: 2 };
const b = { id: "b", status: "open", created: "2026-03-14T19:40:06Z", min: 2, max: 2 };
const shown = () => document.getElementById("seeks-open").childNodes.map((li) => li.getAttribute("data-seek")).join();
const loading = loadPlayNow();
await settle();
say({ type: "seeks", seek: { ...a, status: "paired" } });
say({ type: "seeks", seek: b });
reads.shift()({ seeks: [a], mine: [] }); // read before a was paired and b made
await loading;
const cases = [[shown(), "b"]];
`)
}
