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
	node, dir := nodeModules(t, map[string][]byte{"check.mjs": []byte(check)})
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "0 wrong") {
		t.Fatalf("conn.js: %v\n%s", err, out)
	}
}
