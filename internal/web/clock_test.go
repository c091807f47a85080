package web

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// clockCheck runs clock.js with its "now" given: the page counts down
// with its own clock corrected by the server's (serverTime), first the
// free decision time, then the reserve, and stops at the deadline.
const clockCheck = `import { received, left, format, text } from "./clock.mjs";
const t = (k, a) => k === "web.clock.reserve" ? "r " + a.time : k === "web.clock.days" ? a.d + "d" + a.h + "h" : k;
// The server's clock is 5 s ahead of the page's.
const page0 = 1_000_000, server0 = page0 + 5000;
const c = received({ reserveMs: [60000, 45000], running: 1, decisionEnds: server0 + 10000,
  deadline: server0 + 10000 + 45000, serverTime: server0 }, page0);
const at = (ms) => left(c, 1, page0 + ms);
const out = [
  JSON.stringify(at(0)), JSON.stringify(at(4000)), JSON.stringify(at(15000)), JSON.stringify(at(99000)),
  JSON.stringify(left(c, 0, page0 + 30000)),
  text(t, c, 1, page0 + 2500), text(t, c, 1, page0 + 20000), text(t, c, 0, page0),
  format(t, 3 * 24 * 3600e3 + 5 * 3600e3), format(t, 3723e3), format(t, 0),
];
console.log(out.join("\n"));
`

func TestClockCountsDown(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	node, dir := nodeModules(t, map[string][]byte{"check.mjs": []byte(clockCheck)})
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := []string{
		`{"running":true,"decision":10000,"reserve":45000}`,
		`{"running":true,"decision":6000,"reserve":45000}`,
		`{"running":true,"decision":0,"reserve":40000}`,
		`{"running":true,"decision":0,"reserve":0}`,
		`{"running":false,"decision":0,"reserve":60000}`,
		"0:08 + 0:45",
		"r 0:35",
		"r 1:00",
		"3d5h",
		"1:02:03",
		"0:00",
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(got), len(want), out)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %s, want %s", i, got[i], want[i])
		}
	}
}

// corrCheck writes a correspondence clock: days as days, hours and
// minutes as words, and the reserve called vacation; and where each pace
// shows low.
const corrCheck = `import { received, text, lowAt } from "./clock.mjs";
const t = (k, a) => k + JSON.stringify(a || {});
const now = 1_000_000;
const DAY = 24 * 3600e3;
const c = received({ reserveMs: [12 * DAY, 3 * DAY], running: 0, decisionEnds: now + 5 * 3600e3 + 12 * 60e3,
  deadline: now + 5 * 3600e3 + 12 * 60e3 + 12 * DAY, serverTime: now }, now);
console.log([
  text(t, c, 0, now, "correspondence"), text(t, c, 1, now, "correspondence"), text(t, c, 1, now, "live"),
  lowAt(undefined), lowAt({ decisionMs: 10000 }), lowAt({ decisionMs: DAY }),
].join("\n"));
`

func TestClockCorrespondence(t *testing.T) {
	t.Parallel()
	node, dir := nodeModules(t, map[string][]byte{"check.mjs": []byte(corrCheck)})
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := []string{
		`web.clock.corr{"time":"web.clock.hours{\"h\":5,\"m\":12}","vacation":"web.clock.days{\"d\":12,\"h\":0}"}`,
		`web.clock.vacation{"time":"web.clock.days{\"d\":3,\"h\":0}"}`,
		`web.clock.reserve{"time":"web.clock.days{\"d\":3,\"h\":0}"}`,
		"10000", "10000", "8640000",
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestClockTicks follows a blitz clock through its last seconds, checked
// four times a second as the page does: the player's own clock ticks
// audibly once at 5, 4, 3, 2 and 1 seconds left in all (the free time
// spent, the reserve running out), and never for another seat's clock or
// a clock that stopped.
func TestClockTicks(t *testing.T) {
	t.Parallel()
	runCases(t, "the clock's ticks", `import { received, ticks } from "./clock.mjs";
const now = 1_000_000;
const c = received({ reserveMs: [8000, 60000], running: 0, decisionEnds: now + 2000, deadline: now + 10000, serverTime: now }, now);
const heard = [];
let last = 0;
for (let ms = 0; ms <= 11000; ms += 250) {
  const r = ticks(c, 0, last, now + ms);
  if (r.tick) heard.push(r.second);
  last = r.second;
}
const cases = [
  [JSON.stringify(heard), "[5,4,3,2,1]"],
  [ticks(c, 1, 0, now + 8000).tick, false],
  [ticks({ ...c, running: -1 }, 0, 0, now + 8000).tick, false],
];
`)
}
