package web

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConnectionScript checks conn.js: a connection closed with 1012 (the
// server stops and hands its games over) comes back within half a second,
// without telling the player it was lost; any other loss waits its
// backoff and says so.
func TestConnectionScript(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	check := `globalThis.addEventListener = () => {};
const timers = [];
globalThis.setTimeout = (f, ms) => { timers.push({ f, ms }); return timers.length; };
globalThis.clearTimeout = () => {};
const sockets = [];
globalThis.WebSocket = class {
  constructor(url) { this.url = url; this.listeners = {}; sockets.push(this); }
  addEventListener(t, f) { this.listeners[t] = f; }
  close() {}
};
const { Connection } = await import("./conn.mjs");
const statuses = [];
const c = new Connection("ws://x", { message() {}, status: (s, d) => statuses.push(s), retry: async () => true });
c.start();
let bad = 0;
const want = (ok, what) => { if (!ok) { bad++; console.log("wrong: " + what); } };
sockets[0].listeners.close({ code: 1012 });
await null;
want(timers.length === 1 && timers[0].ms <= 500, "1012: reconnect within 500 ms, not " + JSON.stringify(timers));
want(!statuses.includes("waiting"), "1012: the connection shown as lost: " + statuses);
timers[0].f();
want(sockets.length === 2, "1012: no new socket");
sockets[1].listeners.close({ code: 1006 });
await new Promise((r) => queueMicrotask(r));
await null;
want(timers.length === 2 && timers[1].ms >= 800, "1006: no backoff: " + JSON.stringify(timers));
want(statuses.includes("waiting"), "1006: the loss not shown: " + statuses);
console.log(bad + " wrong");
process.exit(bad ? 1 : 0);
`
	runCheck(t, check)
}

// TestConnectionNoticesSilence checks conn.js on a connection that goes
// quiet without closing (a network drop): after 1 s without a message it
// pings; without a pong 2 s later (a slow link's pong may take nearly that) it says "offline", refuses to send,
// and opens a new connection; the first message there says "online". The
// browser's own offline event says it at once.
func TestConnectionNoticesSilence(t *testing.T) {
	t.Parallel()
	check := `const listeners = {};
globalThis.addEventListener = (t, f) => { listeners[t] = f; };
globalThis.setTimeout = (f, ms) => 1;
globalThis.clearTimeout = () => {};
` + fakeSockets + `const { Connection } = await import("./conn.mjs");
let now = 0, tick = null;
const statuses = [];
const c = new Connection("ws://x", { message() {}, status: (s) => statuses.push(s), retry: async () => true },
  { now: () => now, setInterval: (f) => { tick = f; } });
c.start();
let bad = 0;
const want = (ok, what) => { if (!ok) { bad++; console.log("wrong: " + what); } };
const ws = sockets[0];
ws.readyState = 1;
ws.listeners.open();
ws.listeners.message({ data: '{"type":"state"}' });
now = 900; tick();
want(ws.sent.length === 0, "pinged before 1 s of silence: " + ws.sent);
now = 1000; tick();
want(ws.sent.join() === '{"type":"ping"}', "no ping after 1 s of silence: " + ws.sent);
now = 2900; tick();
want(!statuses.includes("offline"), "offline before the pong was due: " + statuses);
now = 3000; tick();
want(statuses.includes("offline"), "no pong in 2 s, yet not offline: " + statuses);
want(ws.closed, "the silent socket kept");
want(c.send({ type: "move" }) === false, "a move sent while offline");
// A quiet connection that answers its pings stays online.
const statuses2 = [];
const c2 = new Connection("ws://y", { message() {}, status: (s) => statuses2.push(s), retry: async () => true },
  { now: () => now, setInterval: (f) => { tick = f; } });
c2.start();
const ws2 = sockets[sockets.length - 1];
ws2.readyState = 1;
ws2.listeners.open();
now += 1000; tick();
want(ws2.sent.length === 1, "no ping on the second connection");
// A slow phone link: the pong takes 1.9 s, and is no alarm.
now += 1900; tick();
want(!statuses2.includes("offline"), "offline while a slow pong was still due: " + statuses2);
ws2.listeners.message({ data: '{"type":"pong"}' });
now += 900; tick();
want(!statuses2.includes("offline"), "offline although the pong came: " + statuses2);
// The browser says it is offline: at once, and back with the next message.
listeners.offline();
want(statuses2[statuses2.length - 1] === "offline", "the offline event not told: " + statuses2);
ws2.listeners.message({ data: '{"type":"state"}' });
want(statuses2[statuses2.length - 1] === "online", "the first message after not told as online: " + statuses2);
console.log(bad + " wrong");
process.exit(bad ? 1 : 0);
`
	runCheck(t, check)
}

// fakeSockets stands in for the browser's WebSocket: the sockets made, in
// order, with what was sent on each and whether it was closed.
const fakeSockets = `const sockets = [];
globalThis.WebSocket = class {
  static OPEN = 1;
  constructor(url) { this.url = url; this.listeners = {}; this.sent = []; this.readyState = 0; this.closed = false; sockets.push(this); }
  addEventListener(t, f) { this.listeners[t] = f; }
  send(s) { this.sent.push(s); }
  close() { this.closed = true; }
};
`

// runCheck runs a check of conn.js that counts what it found wrong.
func runCheck(t *testing.T, check string) {
	t.Helper()
	node, dir := nodeModules(t, map[string][]byte{"check.mjs": []byte(check)})
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "0 wrong") {
		t.Fatalf("conn.js: %v\n%s", err, out)
	}
}

// TestConnectionPatches checks conn.js in protocol version 2: it states the
// versions it speaks, gives the page a whole state for each patch, asks
// once for the whole state when a patch is not of the state it holds, and
// gives the connection up when that whole state does not come in 3 s.
func TestConnectionPatches(t *testing.T) {
	t.Parallel()
	check := `globalThis.addEventListener = () => {};
globalThis.setTimeout = () => 1;
globalThis.clearTimeout = () => {};
` + fakeSockets + `const { Connection } = await import("./conn.mjs");
let now = 0, tick = null;
const got = [];
const c = new Connection("ws://x/api/games/g/ws?lang=nl", { message: (m, first) => got.push([m, first]), status() {}, retry: async () => true },
  { now: () => now, setInterval: (f) => { tick = f; } });
c.start();
let bad = 0;
const want = (ok, what) => { if (!ok) { bad++; console.log("wrong: " + what); } };
const ws = sockets[0];
want(ws.url === "ws://x/api/games/g/ws?lang=nl&protocol=1,2", "the URL " + ws.url);
ws.readyState = 1;
ws.listeners.open();
const say = (m) => ws.listeners.message({ data: JSON.stringify(m) });
say({ type: "state", game: { moves: 3 }, seat: 0, view: { moves: 3, auction: null }, events: [{ kind: "pass" }], version: 7 });
say({ type: "patch", base: 7, version: 8, events: [{ kind: "bid" }], patch: { game: { moves: 4 }, view: { moves: 4, auction: { kind: "police" } } } });
say({ type: "patch", base: 8, version: 9, events: [], patch: { view: { auction: null } } });
want(got.length === 3 && got[0][1] && !got[1][1] && !got[2][1], "first flags " + JSON.stringify(got.map((g) => g[1])));
const third = got[2] && got[2][0];
want(third && third.type === "state" && third.game.moves === 4 && third.view.moves === 4 && third.view.auction === null &&
  third.events.length === 0 && third.seat === 0, "the patched state " + JSON.stringify(third));
// A patch of another state: dropped, the whole state asked for once.
say({ type: "patch", base: 11, version: 12, events: [], patch: { view: { moves: 9 } } });
say({ type: "patch", base: 12, version: 13, events: [], patch: { view: { moves: 10 } } });
want(got.length === 3, "a patch of another state given to the page");
want(ws.sent.filter((s) => s === '{"type":"resync"}').length === 1, "resyncs sent " + JSON.stringify(ws.sent));
now = 2900; tick();
want(!ws.closed, "given up before 3 s");
now = 3000; tick();
want(ws.closed, "the whole state did not come in 3 s, yet the connection is kept");
console.log(bad + " wrong");
process.exit(bad ? 1 : 0);
`
	runCheck(t, check)
}
