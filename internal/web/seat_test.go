package web

import (
	"os"
	"testing"
)

// TestSeatScript checks seat.js against the rule every seat loop follows
// after a refusal (internal/client/testdata/refusals.json, which the Go
// client is checked against too): what follows each code, and that a
// move is sent again after the longer of the least wait and the server's
// retryAfter, at most the table's maxResends times, only while the game
// is where it was sent.
func TestSeatScript(t *testing.T) {
	t.Parallel()
	table, err := os.ReadFile("../client/testdata/refusals.json")
	if err != nil {
		t.Fatal(err)
	}
	runCases(t, "seat.js", `import { afterRefusal, resendDelay, MIN_RETRY_MS, MAX_RESENDS } from "./seat.mjs";
const table = `+string(table)+`;
const cases = [];
for (const c of table.cases) cases.push([c.code + ": " + afterRefusal(c.code), c.code + ": " + c.next]);
cases.push([table.cases.length > 40, true]);
cases.push([MIN_RETRY_MS, table.resend.minRetryMs], [MAX_RESENDS, table.resend.maxResends]);
const least = table.resend.minRetryMs, most = table.resend.maxResends;
const last = { token: "bid 9", seq: 4, resends: 0 };
cases.push([resendDelay({ code: "unavailable", retryAfter: 1 }, last, { moves: 4 }), least]);
cases.push([resendDelay({ code: "rate_limited", retryAfter: 3 }, last, { moves: 4 }), Math.max(least, 3000)]);
cases.push([resendDelay({ code: "internal" }, last, { moves: 4 }), least]);
cases.push([resendDelay({ code: "unavailable" }, last, { moves: 5 }), -1]); // the game moved on
cases.push([resendDelay({ code: "unavailable" }, { ...last, resends: most - 1 }, { moves: 4 }), least]);
cases.push([resendDelay({ code: "unavailable" }, { ...last, resends: most }, { moves: 4 }), -1]); // bounded
cases.push([resendDelay({ code: "stale" }, last, { moves: 4 }), -1]);
cases.push([resendDelay({ code: "illegal_move" }, last, { moves: 4 }), -1]);
cases.push([resendDelay({ code: "unavailable" }, null, { moves: 4 }), -1]);
`)
}
