package web

import "testing"

// TestPeopleWords: a finish rate and how long ago someone was seen read
// as the lobby, the table and a profile show them.
func TestPeopleWords(t *testing.T) {
	t.Parallel()
	runCases(t, "the people's words", `import "./fakedom.mjs";
globalThis.document.documentElement = { lang: "en" };
const { finishText, finishTitle } = await import("./online.mjs");
const { ago } = await import("./presence.mjs");
const t = (k, a) => k + (a ? " " + JSON.stringify(a) : "");
const now = Date.UTC(2026, 10, 24, 12, 0, 0);
const cases = [
  [finishText(t, { percent: 100, games: 0, left: 0 }), "social.finish.new"],
  [finishText(t, { percent: 96, games: 21, left: 1 }), 'social.finish {"percent":96}'],
  [finishTitle(t, { percent: 100, games: 0, left: 0 }), "social.finish.none"],
  [finishTitle(t, { percent: 96, games: 21, left: 1 }), 'social.finish.title {"percent":96,"games":21,"left":1}'],
  [ago(new Date(now - 20e3).toISOString(), now), "20 seconds ago"],
  [ago(new Date(now - 3 * 60e3).toISOString(), now), "3 minutes ago"],
  [ago(new Date(now - 5 * 3600e3).toISOString(), now), "5 hours ago"],
  [ago(new Date(now - 26 * 3600e3).toISOString(), now), "yesterday"],
  [ago(new Date(now - 3 * 86400e3).toISOString(), now), "3 days ago"],
  [ago("not a time", now), ""],
];
`)
}
