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
