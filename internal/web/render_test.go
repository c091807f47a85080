package web_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/gametest"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/web"
)

// docExamples returns the state messages of docs/protocol.md, which the
// protocol's tests generate from its types and the engine.
func docExamples(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]json.RawMessage{}
	for _, m := range regexp.MustCompile("(?s)<!-- example: (state-[a-z-]+) -->\n```json\n(.*?)\n```").FindAllStringSubmatch(string(doc), -1) {
		out[m[1]] = json.RawMessage(m[2])
	}
	return out
}

// renderCheck draws each case's state message with renderTable, in the
// case's language, and prints, per case, the table's attributes, its text,
// the accessible names, the moves of its buttons, and what pressing them
// sent. For the thieves it picks row cards first; then it presses the
// round-end overlay's button, if any, and reads the table again.
const renderCheck = `import "./fakedom.mjs";
import { renderTable, T } from "./render.mjs";
import { readFileSync } from "node:fs";
const { catalogues, cases } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = {};
const text = (root) => root.textContent.replace(/\s+/g, " ");
for (const [name, c] of Object.entries(cases)) {
  const msg = c.msg;
  const t = T(catalogues[c.lang || "en"]);
  const root = document.createElement("div");
  const sent = [];
  const opts = { game: msg.game, seat: msg.seat, onMove: (tok) => sent.push(tok), ...(c.options || {}) };
  renderTable(root, msg.view, msg.events, t, opts);
  const moves = () => root.find((n) => n.tag === "button" && n.attrs["data-move"]).map((b) => b.attrs["data-move"]);
  const first = moves();
  const before = text(root);
  const labels = root.find((n) => n.attrs && n.attrs["aria-label"]).map((n) => n.attrs["aria-label"]);
  const ids = root.find((n) => n.attrs && n.attrs.id).map((n) => n.attrs.id);
  const rounds = root.find((n) => n.tag === "table" && n.attrs["data-round"]).map((n) => n.attrs["data-round"]);
  for (const b of root.find((n) => n.tag === "button" && n.attrs["data-move"])) b.click();
  // Thieves: pick each row card in turn; the confirming button carries the token.
  const thief = [];
  for (const c of root.find((n) => n.attrs && n.attrs["data-row-card"] !== undefined)) {
    const i = c.attrs["data-row-card"];
    const now = root.find((n) => n.attrs && n.attrs["data-row-card"] === i)[0];
    now.click();
    const pressed = root.find((n) => n.attrs && n.attrs["aria-pressed"] === "true").map((n) => n.attrs["data-row-card"]);
    const b = root.find((n) => n.tag === "button" && (n.attrs["data-move"] || "").startsWith("thief"));
    thief.push({ pressed, offered: b.map((x) => x.attrs["data-move"]) });
    for (const x of b) x.click();
  }
  let after = null;
  for (const b of root.find((n) => n.attrs && n.attrs.id === "round-continue")) {
    b.click();
    after = {
      text: text(root),
      ids: root.find((n) => n.attrs && n.attrs.id).map((n) => n.attrs.id),
      rounds: root.find((n) => n.tag === "table" && n.attrs["data-round"]).map((n) => n.attrs["data-round"]),
    };
  }
  const attrs = {};
  for (const a of ["data-status", "data-phase", "data-seat", "data-to-move", "data-moves"]) attrs[a] = root.attrs[a];
  out[name] = { attrs, text: before, labels, ids, rounds, moves: first, sent, thief, after };
}
console.log(JSON.stringify(out));
`

// stateMessage returns the state message of the game after n moves, as
// the seat sees it, with every event so far.
func stateMessage(t *testing.T, g *razzia.Game, seat int, info protocol.GameInfo) json.RawMessage {
	t.Helper()
	view := protocol.NewView(g.View(seat))
	info.Moves = len(g.Moves())
	b, err := json.Marshal(protocol.StateMessage{Type: protocol.TypeState, Game: info, Seat: seat, View: &view,
		Events: protocol.Events(g.Events(), g.Players(), i18n.Default())})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// untilRoundEnd replays a finished game up to the move that ended its
// first round.
func untilRoundEnd(t *testing.T, whole *razzia.Game) *razzia.Game {
	t.Helper()
	rec := whole.Record()
	g, err := razzia.NewGame(razzia.Setup{Players: rec.Players, Cheques: rec.Cheques})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rec.Moves {
		if err := g.PlayToken(m); err != nil {
			t.Fatal(err)
		}
		if s := g.State(); s.Round() == 2 {
			return g
		}
	}
	t.Fatal("the game has no second round")
	return nil
}

// TestRenderTable draws real state messages (the protocol examples, a
// round's end and a finished game) with render.js and checks what a player
// reads, the test hooks, which moves the buttons send, and the thieves'
// choice.
func TestRenderTable(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	ex := docExamples(t)
	type testCase struct {
		Msg     json.RawMessage `json:"msg"`
		Lang    string          `json:"lang,omitempty"`
		Options map[string]any  `json:"options,omitempty"`
	}
	cases := map[string]testCase{
		"connect": {Msg: ex["state-connect"]},
		"mustbid": {Msg: ex["state-mustbid"]},
		"dutch":   {Msg: ex["state-mustbid"], Lang: "nl"},
	}
	// A player without cheques in an auction is out, not outbid.
	var out map[string]any
	if err := json.Unmarshal(ex["state-mustbid"], &out); err != nil {
		t.Fatal(err)
	}
	view := out["view"].(map[string]any)
	view["seats"].([]any)[0].(map[string]any)["faceUp"] = []any{}
	view["auction"].(map[string]any)["bids"].([]any)[0] = "passed over"
	cases["out"] = testCase{Msg: mustJSON(t, out)}

	g := gametest.Random(t, 4, 3)
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusPlaying, Players: 4,
		Created: time.Now(), Updated: time.Now(), Invite: protocol.InvitePath("k3x7q2m5ab")}
	for _, name := range g.Players() {
		info.Seats = append(info.Seats, protocol.SeatInfo{Name: name})
	}
	start, err := razzia.NewGame(razzia.Setup{Players: g.Players(), Cheques: g.Record().Cheques})
	if err != nil {
		t.Fatal(err)
	}
	cases["start"] = testCase{Msg: stateMessage(t, start, 0, info)}
	cases["roundend"] = testCase{Msg: stateMessage(t, untilRoundEnd(t, g), -1, info)}
	ended := untilRoundEnd(t, g)
	recent := protocol.Events(ended.EventsSince(len(ended.Moves())-1), ended.Players(), i18n.Default())
	cases["replayed roundend"] = testCase{Msg: stateMessage(t, ended, -1, info), Options: map[string]any{"replay": true, "recent": recent}}
	info.Status = protocol.StatusFinished
	final := g.State()
	info.Winners = final.Winners()
	cases["over"] = testCase{Msg: stateMessage(t, g, -1, info)}

	catalogues := map[string]json.RawMessage{}
	for _, lang := range []string{"en", "nl"} {
		b, err := i18n.JSON(lang)
		if err != nil {
			t.Fatal(err)
		}
		catalogues[lang] = b
	}
	data := mustJSON(t, map[string]any{"catalogues": catalogues, "cases": cases})
	node, dir := web.NodeModules(t, map[string][]byte{"check.mjs": []byte(renderCheck), "cases.json": data})
	outb, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "cases.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("render.js failed: %v\n%s", err, outb)
	}
	type thiefStep struct {
		Pressed []string
		Offered []string
	}
	type drawn struct {
		Text   string
		IDs    []string
		Rounds []string
	}
	var got map[string]struct {
		Attrs  map[string]string
		Text   string
		Labels []string
		IDs    []string
		Rounds []string
		Moves  []string
		Sent   []string
		Thief  []thiefStep
		After  *drawn
	}
	if err := json.Unmarshal(outb, &got); err != nil {
		t.Fatalf("%v\n%.2000s", err, outb)
	}
	// Every case has the hooks of docs: the strips, the board's parts, the
	// log; the game's end has no board.
	hooks := []string{"seats", "seat-0", "log"}
	board := []string{"board", "police", "piles", "centre", "row", "deck"}
	tests := []struct {
		name     string
		attrs    string // data-status data-phase data-seat data-to-move data-moves
		contains []string
		lacks    []string
		labels   []string // accessible names
		ids      []string
		moves    []string // the move buttons, in order (the pile draws too)
		sent     []string
		thief    []thiefStep
	}{
		{"connect", "playing turn 2 2 8",
			[]string{"Round 1 of 3", "Your turn", "Police", "1 / 7", "Next card police: 17% (20 of 115)", "6 more police cards end the round.",
				"Draw piles", "115 cards", "Centre cheque", "Auction row", "2 / 7", "Still in the deck", "Draw a card", "Call an auction",
				"Thieves (1): pick cards in the row", "Cy", "you", "Worth to you now, for 4:", "lot +",
				"Cy wins with 7: takes 1 car and 1 thief and cheque 1 face down.", "Game log"},
			[]string{"winner", "Scores", "▲", "You are watching"},
			[]string{"20 police cards", "Draw a card (115 cards left)", "1 thief", "Cards still in the deck: 115"},
			[]string{"my-cheques", "decide", "turn", "latest", "stake", "moves", "risk"},
			[]string{"draw", "draw", "call"}, []string{"draw", "draw", "call", "thief driver", "thief gold"},
			[]thiefStep{{[]string{"0"}, []string{"thief driver"}}, {[]string{"1"}, []string{"thief gold"}}}},
		{"mustbid", "playing auction 2 2 11",
			[]string{"Forced auction", "Started by you, who decides last.", "Nobody else bid: you must bid now.", "No bid yet",
				"Still to decide: you.", "Bid 4", "Bid 10", "Bid 11", "passed", "deciding now", "Your turn to bid",
				"Worth to you now, for 4: Cars and drivers +2, Gold coins +3 (+5)", "Bot 2 (hard) passes."},
			[]string{"Pass", "passed over"},
			[]string{"Bid one of your cheques", "Face up: 4, 10, 11"},
			[]string{"auction", "moves", "stake"},
			[]string{"bid 4", "bid 10", "bid 11"}, []string{"bid 4", "bid 10", "bid 11"}, nil},
		{"dutch", "playing auction 2 2 11",
			[]string{"Bot 2 (moeilijk)", "Dwangverkoop", "Ronde 1 van 3"},
			[]string{"Bot 2 (hard)", "Forced auction"},
			nil, nil,
			[]string{"bid 4", "bid 10", "bid 11"}, []string{"bid 4", "bid 10", "bid 11"}, nil},
		{"out", "playing auction 2 2 11",
			[]string{"no cheques left"},
			[]string{"passed over", "no higher cheque"},
			nil, nil,
			[]string{"bid 4", "bid 10", "bid 11"}, []string{"bid 4", "bid 10", "bid 11"}, nil},
		{"start", "playing turn 0 0 0",
			[]string{"Nothing has happened yet: Miriam begins.", "Your turn"},
			nil, nil, nil,
			[]string{"draw", "draw", "call"}, []string{"draw", "draw", "call"}, nil},
		{"roundend", "",
			[]string{"Round 1 scored", "Continue to round 2", "You are watching"},
			[]string{"Game over"},
			[]string{"Thieves", "Bodyguards", "Cars and drivers", "Jewels", "Gold coins"},
			[]string{"round-end", "round-continue"},
			nil, nil, nil},
		{"replayed roundend", "",
			[]string{"Round 1 scored"},
			[]string{"Continue to round 2", "You are watching"},
			nil,
			[]string{"round-end"},
			nil, nil, nil},
		{"over", "finished over -1 -1 " + string(mustJSON(t, len(g.Moves()))),
			[]string{"Game over", "wins", "Final scores by category, the three rounds added up", "Points after each round",
				"R1", "R2", "R3", "Total", "Round 1", "Round 2", "Round 3", "pts"},
			[]string{"Your turn", "Your bid", "You are watching", "Continue"},
			[]string{"Businesses", "Cheques"},
			[]string{"game-end", "result", "final-table", "score-chart"},
			nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := got[tt.name]
			a := g.Attrs
			if s := strings.Join([]string{a["data-status"], a["data-phase"], a["data-seat"], a["data-to-move"], a["data-moves"]}, " "); tt.attrs != "" && s != tt.attrs {
				t.Errorf("table attributes %q, want %q", s, tt.attrs)
			}
			for _, s := range tt.contains {
				if !strings.Contains(g.Text, s) {
					t.Errorf("the table lacks %q:\n%.3000s", s, g.Text)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(g.Text, s) {
					t.Errorf("the table shows %q:\n%.3000s", s, g.Text)
				}
			}
			for _, s := range tt.labels {
				if !slices.Contains(g.Labels, s) {
					t.Errorf("no element is named %q; the names: %q", s, g.Labels)
				}
			}
			ids := append(slices.Clone(hooks), tt.ids...)
			if tt.name != "over" {
				ids = append(ids, board...)
			}
			for _, id := range ids {
				if n := strings.Count(" "+strings.Join(g.IDs, " ")+" ", " "+id+" "); n != 1 {
					t.Errorf("%d elements #%s, want 1", n, id)
				}
			}
			if !slices.Equal(g.Moves, tt.moves) || !slices.Equal(g.Sent, tt.sent) {
				t.Errorf("buttons %q sent %q, want %q and %q", g.Moves, g.Sent, tt.moves, tt.sent)
			}
			for i, st := range tt.thief {
				if i >= len(g.Thief) || !slices.Equal(g.Thief[i].Pressed, st.Pressed) || !slices.Equal(g.Thief[i].Offered, st.Offered) {
					t.Errorf("thieves: step %d: got %+v, want %+v", i, g.Thief, tt.thief)
					break
				}
			}
		})
	}
	t.Run("the round end goes on", func(t *testing.T) {
		end := got["roundend"]
		if end.After == nil {
			t.Fatal("the overlay has no button to go on")
		}
		if slices.Contains(end.After.IDs, "round-end") || strings.Contains(end.After.Text, "Continue to round 2") {
			t.Errorf("the overlay is still there after going on:\n%.2000s", end.After.Text)
		}
		// Round 1's table shows once: in the scores, not twice.
		if n := strings.Count(strings.Join(end.After.Rounds, " "), "1"); n != 1 {
			t.Errorf("round 1's table shows %d times: %q", n, end.After.Rounds)
		}
	})
	t.Run("the winner comes first", func(t *testing.T) {
		over := got["over"].Text
		w := final.Winners()
		if len(w) == 0 {
			t.Fatal("no winner")
		}
		name := g.Players()[w[0]]
		if i := strings.Index(over, "wins"); i < 0 || !strings.Contains(over[:i+len("wins")], name) {
			t.Errorf("the game end does not begin with the winner %s:\n%.500s", name, over)
		}
	})
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
