package web_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/gametest"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/web"
)

// roundEndCheck draws a round's end, as the player to move sees it, with
// the case's clock, and prints what covers the table.
const roundEndCheck = `import "./fakedom.mjs";
import { renderTable, T } from "./render.mjs";
import { readFileSync } from "node:fs";
const { catalogue, cases } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = {};
for (const [name, c] of Object.entries(cases)) {
  const root = document.createElement("div");
  const clock = c.clock ? { ...c.clock, offset: 0 } : null;
  let continued = 0;
  renderTable(root, c.msg.view, c.msg.events, T(catalogue), { game: c.msg.game, seat: c.msg.seat, onMove: () => {}, clock,
    onContinue: () => continued++ });
  const by = (id) => root.find((n) => n.attrs && n.attrs.id === id)[0];
  const overlay = by("round-end");
  const tbl = root.find((n) => n.attrs && /(^| )tbl( |$)/.test(n.attrs.class || ""))[0];
  const clockEl = by("decide-clock");
  out[name] = {
    modal: !!overlay && overlay.attrs["aria-modal"] === "true",
    // The table skips its contents behind the dialog (render.js), which
    // the browser checks show nobody reaches (internal/e2e reachBehind).
    covered: /(^| )tbl-covered( |$)/.test(tbl.attrs.class || "") && tbl.attrs["aria-hidden"] === "true",
    moves: root.find((n) => n.tag === "button" && n.attrs["data-move"] && n.attrs.disabled === undefined).length,
    note: by("round-note") ? by("round-note").textContent.replace(/\s+/g, " ").trim() : "",
    kind: by("table-kind") ? by("table-kind").textContent : "",
    clock: clockEl ? { seat: clockEl.attrs["data-clock-seat"], low: clockEl.attrs["data-clock-low"], kind: clockEl.attrs["data-clock-kind"] } : null,
    held: root.find((n) => n.attrs && n.attrs.class === "round-held").map((n) => n.textContent).join(""),
  };
  const go = by("round-continue");
  if (go) go.click();
  out[name].continued = continued;
}
console.log(JSON.stringify(out));
`

// TestRoundEndNeverCoversARunningClock draws the start of round 2 for the
// player to move: while their decision's clock runs, the round's scores
// do not cover the table (the moves stay reachable, a note points to the
// scores, and the clock shows large in the decision panel); at an untimed
// table, or before the clock starts, the scores show as a dialog.
func TestRoundEndNeverCoversARunningClock(t *testing.T) {
	t.Parallel()
	ended := untilRoundEnd(t, gametest.Random(t, 3, 7))
	st := ended.State()
	seat := st.ToMove()
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusPlaying, Players: 3,
		Created: time.Now(), Updated: time.Now(), Invite: protocol.InvitePath("k3x7q2m5ab")}
	for i, name := range ended.Players() {
		si := protocol.SeatInfo{Name: name}
		if i != seat {
			si.Bot = "easy"
		}
		info.Seats = append(info.Seats, si)
	}
	untimed := stateMessage(t, ended, seat, info)
	info.Pace = &protocol.PaceInfo{ID: "blitz", Kind: "live", DecisionMs: 10000, ReserveMs: 60000}
	timed := stateMessage(t, ended, seat, info)
	info.Pace = &protocol.PaceInfo{ID: "day1", Kind: "correspondence", DecisionMs: 24 * 3600e3, ReserveMs: 14 * 24 * 3600e3}
	info.Rated = true
	corr := stateMessage(t, ended, seat, info)
	now := time.Now().UnixMilli()
	running := func(who int) map[string]any {
		reserve := make([]int64, 3)
		for i := range reserve {
			reserve[i] = 60000
		}
		c := map[string]any{"reserveMs": reserve, "running": who, "decisionEnds": int64(0), "deadline": int64(0), "serverTime": now}
		if who >= 0 {
			c["decisionEnds"], c["deadline"] = now+10000, now+70000
		}
		return c
	}
	// The server holds the new round's first clock until the players
	// have read the scores, 15 s at most.
	held := running(-1)
	held["heldUntil"] = now + 15000
	type testCase struct {
		Msg   json.RawMessage `json:"msg"`
		Clock map[string]any  `json:"clock,omitempty"`
	}
	cases := map[string]testCase{
		"untimed":             {Msg: untimed},
		"clock not started":   {Msg: timed, Clock: running(-1)},
		"clock held":          {Msg: timed, Clock: held},
		"my clock runs":       {Msg: timed, Clock: running(seat)},
		"correspondence runs": {Msg: corr, Clock: running(seat)},
	}
	cat, err := i18n.JSON("en")
	if err != nil {
		t.Fatal(err)
	}
	node, dir := web.NodeModules(t, map[string][]byte{"check.mjs": []byte(roundEndCheck),
		"cases.json": mustJSON(t, map[string]any{"catalogue": json.RawMessage(cat), "cases": cases})})
	b, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "cases.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, b)
	}
	type drawn struct {
		Modal, Covered bool
		Moves          int
		Note, Kind     string
		Clock          *struct{ Seat, Low, Kind string }
		Held           string
		Continued      int
	}
	var got map[string]drawn
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	for _, name := range []string{"untimed", "clock not started"} {
		if d := got[name]; !d.Modal || !d.Covered || d.Note != "" {
			t.Errorf("%s: %+v; want the round's scores as a dialog over a covered table", name, d)
		}
	}
	// Going on from the scores tells the server, which holds the next
	// round's first clock meanwhile, and the dialog says so while it does.
	for _, name := range []string{"untimed", "clock not started", "clock held"} {
		if d := got[name]; d.Continued != 1 {
			t.Errorf("%s: going on told the server %d times, want once", name, d.Continued)
		}
	}
	if d := got["clock held"]; !d.Modal || !strings.Contains(d.Held, "No clock runs until everyone has gone on") || !regexp.MustCompile(`for 1[0-5] s at most`).MatchString(d.Held) {
		t.Errorf("clock held: %+v; want the dialog to say that no clock runs for 15 s at most", d)
	}
	if d := got["clock not started"]; d.Held != "" {
		t.Errorf("clock not started: %q; no hold, nothing to say", d.Held)
	}
	for _, name := range []string{"my clock runs", "correspondence runs"} {
		d := got[name]
		if d.Modal || d.Covered || d.Moves == 0 {
			t.Errorf("%s: %+v; want no dialog and the moves reachable", name, d)
		}
		if !strings.Contains(d.Note, "Round 1 is scored") || !strings.Contains(d.Note, "See the scores") {
			t.Errorf("%s: note %q; want it to point to round 1's scores", name, d.Note)
		}
		if d.Clock == nil || d.Clock.Seat != strconv.Itoa(seat) {
			t.Errorf("%s: decision clock %+v; want seat %d's beside the decision", name, d.Clock, seat)
		}
	}
	// Every table says whether it is rated, and its pace.
	for name, want := range map[string]string{"untimed": "Casual · Untimed", "my clock runs": "Casual · Blitz",
		"correspondence runs": "Rated · Correspondence, 1 day"} {
		if got[name].Kind != want {
			t.Errorf("%s: the table is called %q, want %q", name, got[name].Kind, want)
		}
	}
	if c := got["my clock runs"].Clock; c != nil && (c.Low != "10000" || c.Kind != "live") {
		t.Errorf("blitz clock marked %+v; want low under 10 s, live", c)
	}
	if c := got["correspondence runs"].Clock; c != nil && (c.Low != "8640000" || c.Kind != "correspondence") {
		t.Errorf("correspondence clock marked %+v; want low under a tenth of the day, correspondence", c)
	}
}

// minusCheck draws a finished game and prints the table's text.
const minusCheck = `import "./fakedom.mjs";
import { renderTable, T } from "./render.mjs";
import { readFileSync } from "node:fs";
const { catalogue, msg } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const root = document.createElement("div");
const ratings = { [msg.game.seats[0].name]: "1555?" };
renderTable(root, msg.view, msg.events, T(catalogue), { game: msg.game, seat: -1, rating: { change: "+12", figure: "1672?" }, ratings });
const strip = root.find((n) => n.attrs && n.attrs.id === "seat-0")[0];
const svg = root.find((n) => n.html).map((n) => n.html).join(" ");
console.log(JSON.stringify({ text: root.textContent, svg, strip: strip.textContent }));
`

// TestOneMinusSign draws finished games: every negative number, in the
// strips, the score tables, the podium and the chart, has the minus sign
// (U+2212), none a hyphen.
func TestOneMinusSign(t *testing.T) {
	t.Parallel()
	hyphen := regexp.MustCompile(`(^|[^\w])-\d`)
	negatives := 0
	for _, seed := range []uint64{5, 7, 11} {
		g := gametest.Random(t, 4, seed)
		info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusFinished, Players: 4,
			Created: time.Now(), Updated: time.Now(), Invite: protocol.InvitePath("k3x7q2m5ab")}
		for i, name := range g.Players() {
			// The first player is signed in: their rating shows by their name.
			info.Seats = append(info.Seats, protocol.SeatInfo{Name: name, Account: i == 0})
		}
		st := g.State()
		info.Winners = st.Winners()
		cat, err := i18n.JSON("en")
		if err != nil {
			t.Fatal(err)
		}
		node, dir := web.NodeModules(t, map[string][]byte{"check.mjs": []byte(minusCheck),
			"case.json": mustJSON(t, map[string]any{"catalogue": json.RawMessage(cat), "msg": stateMessage(t, g, -1, info)})})
		b, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "case.json")).CombinedOutput()
		if err != nil {
			t.Fatalf("node: %v\n%s", err, b)
		}
		var got struct{ Text, SVG, Strip string }
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%v in %s", err, b)
		}
		// The score columns are headed by words, which a phone shows too.
		for _, word := range []string{"Thieves", "Bodyguards", "Cars and drivers", "Jewels", "Gold coins", "Businesses", "Cheques"} {
			if !strings.Contains(got.Text, word) {
				t.Errorf("seed %d: no column headed %q in words", seed, word)
			}
		}
		if !strings.Contains(got.Strip, "1555?") || strings.Count(got.Text, "1555?") != 1 {
			t.Errorf("seed %d: the signed-in player's rating is not beside their name (only): %s", seed, got.Strip)
		}
		// A rated game's end tells the rating's change, as the server counts it.
		if !strings.Contains(got.Text, "Your rating: +12, now 1672?") {
			t.Errorf("seed %d: the game's end does not tell the rating's change: %s", seed, got.Text)
		}
		for _, s := range []string{got.Text, got.SVG} {
			if m := hyphen.FindString(s); m != "" {
				t.Errorf("seed %d: a hyphen for a minus (%q) in %s", seed, m, s)
			}
			negatives += strings.Count(s, "\u2212")
		}
	}
	if negatives == 0 {
		t.Fatal("no negative number drawn: the test proves nothing")
	}
}
