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

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
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

// renderCheck draws each case's state message with renderTable and prints,
// per case, the table's attributes, its text, the moves of its buttons,
// and what pressing them sent. For the thieves it picks row cards first.
const renderCheck = `import "./fakedom.mjs";
import { renderTable, T } from "./render.mjs";
import { readFileSync } from "node:fs";
const { catalogue, cases } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const t = T(catalogue);
const out = {};
for (const [name, msg] of Object.entries(cases)) {
  const root = document.createElement("div");
  const sent = [];
  const opts = { game: msg.game, seat: msg.seat, onMove: (tok) => sent.push(tok) };
  renderTable(root, msg.view, msg.events, t, opts);
  const moves = () => root.find((n) => n.tag === "button" && n.attrs["data-move"]).map((b) => b.attrs["data-move"]);
  const first = moves();
  const text = root.textContent.replace(/\s+/g, " ");
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
  const attrs = {};
  for (const a of ["data-status", "data-phase", "data-seat", "data-to-move", "data-moves"]) attrs[a] = root.attrs[a];
  out[name] = { attrs, text, moves: first, sent, thief, log: root.find((n) => n.attrs && n.attrs.id === "log").length };
}
console.log(JSON.stringify(out));
`

// TestRenderTable draws real state messages (the protocol examples and a
// finished game) with render.js in English and checks what a player reads,
// the test hooks, which moves the buttons send, and the thieves' choice.
func TestRenderTable(t *testing.T) {
	ex := docExamples(t)
	cases := map[string]json.RawMessage{
		"connect": ex["state-connect"],
		"mustbid": ex["state-mustbid"],
	}
	g := servertest.RandomGame(t, 4, 3)
	snap := protocol.NewView(g.View(-1))
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusFinished, Players: 4, Moves: len(g.Moves()),
		Created: time.Now(), Updated: time.Now(), Winners: snap.Winners, Invite: protocol.InvitePath("k3x7q2m5ab")}
	for _, name := range g.Players() {
		info.Seats = append(info.Seats, protocol.SeatInfo{Name: name})
	}
	over, err := json.Marshal(protocol.StateMessage{Type: protocol.TypeState, Game: info, Seat: -1, View: &snap,
		Events: protocol.Events(g.Events(), g.Players(), i18n.Default())})
	if err != nil {
		t.Fatal(err)
	}
	cases["over"] = over
	en, err := i18n.JSON("en")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]any{"catalogue": json.RawMessage(en), "cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	node, dir := web.NodeModules(t, map[string][]byte{"check.mjs": []byte(renderCheck), "cases.json": data})
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "cases.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("render.js failed: %v\n%s", err, out)
	}
	type thiefStep struct {
		Pressed []string
		Offered []string
	}
	var got map[string]struct {
		Attrs map[string]string
		Text  string
		Moves []string
		Sent  []string
		Thief []thiefStep
		Log   int
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tests := []struct {
		name     string
		attrs    string // data-status data-phase data-seat data-to-move data-moves
		contains []string
		lacks    []string
		moves    []string // the move buttons, in order (both piles draw)
		sent     []string
		thief    []thiefStep
	}{
		{"connect", "playing turn 2 2 8",
			[]string{"Round 1 of 3", "Your turn", "Police", "1 / 7", "Draw piles", "Centre cheque", "Auction row", "2 / 7",
				"Draw a card", "Call an auction", "Thieves (1): pick cards in the row", "Cy", "you",
				"Cy wins with 7: takes 1 car and 1 thief and cheque 1 face down.", "Game log"},
			[]string{"winner", "Scores", "Your bid"},
			[]string{"draw", "draw", "draw", "call"}, []string{"draw", "draw", "draw", "call", "thief driver", "thief gold"},
			[]thiefStep{{[]string{"0"}, []string{"thief driver"}}, {[]string{"1"}, []string{"thief gold"}}}},
		{"mustbid", "playing auction 2 2 11",
			[]string{"Forced auction", "Started by Cy, who decides last.", "Nobody else bid: you must bid now.", "No bid yet",
				"Your bid", "Bid 4", "Bid 10", "Bid 11", "passed", "deciding now", "Your turn to bid"},
			[]string{"Pass"},
			[]string{"bid 4", "bid 10", "bid 11"}, []string{"bid 4", "bid 10", "bid 11"}, nil},
		{"over", "finished over -1 -1 " + strings.TrimSpace(string(mustJSON(t, len(g.Moves())))),
			[]string{"Game over", "Round 1", "Round 3", "Businesses", "Cheques", "Total", "pts", "You are watching"},
			[]string{"Your turn", "Your move", "Your bid"}, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := got[tt.name]
			a := g.Attrs
			if s := strings.Join([]string{a["data-status"], a["data-phase"], a["data-seat"], a["data-to-move"], a["data-moves"]}, " "); s != tt.attrs {
				t.Errorf("table attributes %q, want %q", s, tt.attrs)
			}
			for _, s := range tt.contains {
				if !strings.Contains(g.Text, s) {
					t.Errorf("the table lacks %q:\n%s", s, g.Text)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(g.Text, s) {
					t.Errorf("the table shows %q:\n%s", s, g.Text)
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
			if g.Log != 1 {
				t.Errorf("%d elements #log, want 1", g.Log)
			}
		})
	}
	t.Run("a winner's result", func(t *testing.T) {
		if w := snap.Winners; len(w) == 0 || !strings.Contains(got["over"].Text, snap.Players[w[0]]) {
			t.Errorf("the result does not name the winner %v:\n%s", w, got["over"].Text)
		}
		if !strings.Contains(got["over"].Text, "wins!") && !strings.Contains(got["over"].Text, "share the win!") {
			t.Errorf("no result headline:\n%s", got["over"].Text)
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
