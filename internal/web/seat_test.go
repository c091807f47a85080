package web

import (
	"os"
	"testing"
)

// TestSeatScript checks seat.js against the rule every seat loop follows
// after a refusal (internal/client/testdata/refusals.json, which the Go
// client is checked against too), and that a move is sent again once,
// only while the game is where it was sent.
func TestSeatScript(t *testing.T) {
	t.Parallel()
	table, err := os.ReadFile("../client/testdata/refusals.json")
	if err != nil {
		t.Fatal(err)
	}
	runCases(t, "seat.js", `import { afterRefusal, resendDelay } from "./seat.mjs";
const table = `+string(table)+`;
const cases = [];
for (const c of table.cases) cases.push([c.code + ": " + afterRefusal(c.code), c.code + ": " + c.next]);
cases.push([table.cases.length > 40, true]);
const last = { token: "bid 9", seq: 4, retried: false };
cases.push([resendDelay({ code: "unavailable", retryAfter: 1 }, last, { moves: 4 }), 1200]);
cases.push([resendDelay({ code: "rate_limited", retryAfter: 3 }, last, { moves: 4 }), 3000]);
cases.push([resendDelay({ code: "internal" }, last, { moves: 4 }), 1200]);
cases.push([resendDelay({ code: "unavailable" }, last, { moves: 5 }), -1]); // the game moved on
cases.push([resendDelay({ code: "unavailable" }, { ...last, retried: true }, { moves: 4 }), -1]); // once
cases.push([resendDelay({ code: "stale" }, last, { moves: 4 }), -1]);
cases.push([resendDelay({ code: "illegal_move" }, last, { moves: 4 }), -1]);
cases.push([resendDelay({ code: "unavailable" }, null, { moves: 4 }), -1]);
`)
}
