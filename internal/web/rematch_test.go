package web_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
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

// rematchCheck draws each case, presses the rematch and leave buttons it
// offers (leave, then its confirmation) and prints what was offered,
// where, and what pressing sent.
const rematchCheck = `import "./fakedom.mjs";
import { renderTable, T } from "./render.mjs";
import { readFileSync } from "node:fs";
const { catalogue, cases } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = {};
const byId = (root, id) => root.find((n) => n.attrs && n.attrs.id === id);
for (const [name, c] of Object.entries(cases)) {
  const root = document.createElement("div");
  const answers = [], left = [];
  const rematch = c.offer === undefined ? undefined : { offer: c.offer, onAnswer: c.seat >= 0 ? (a) => answers.push(a) : undefined };
  renderTable(root, c.msg.view, c.msg.events, T(catalogue), { game: c.msg.game, seat: c.seat, onMove: () => {},
    onLeave: () => left.push(true), rematch });
  const ids = ["rematch-offer", "rematch-accept", "rematch-decline", "rematch-go", "leave"].filter((id) => byId(root, id).length);
  const actions = byId(root, "game-end-actions");
  const first = actions.length && actions[0].childNodes.length ? actions[0].childNodes[0].attrs.id : "";
  const state = byId(root, "rematch-state").map((n) => n.textContent).join("");
  const go = byId(root, "rematch-go").map((n) => n.attrs.href).join("");
  for (const id of ["rematch-offer", "rematch-accept", "rematch-decline"]) for (const b of byId(root, id)) b.click();
  let confirm = "";
  for (const b of byId(root, "leave")) {
    b.click();
    confirm = byId(root, "leave-confirm").map((n) => n.textContent).join("");
    for (const y of byId(root, "leave-yes")) y.click();
  }
  out[name] = { ids, first, state, go, answers, left: left.length, confirm };
}
console.log(JSON.stringify(out));
`

// TestRematchBox: the rematch comes first in the game-end actions, with
// the buttons the offer's state calls for; the leave button asks first
// and says a bot plays and the seat can be taken back.
func TestRematchBox(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	over := gametest.Random(t, 3, 5)
	seats := []protocol.SeatInfo{{Name: "Ann"}, {Name: "Bob"}, {Name: "Bot 3 (easy)", Bot: "easy"}}
	msg := func(g *razzia.Game, status protocol.Status, rated ...bool) json.RawMessage {
		view := protocol.NewView(g.View(0))
		info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: status, Players: 3, Seats: seats, Rated: len(rated) > 0}
		b, err := json.Marshal(protocol.StateMessage{Type: protocol.TypeState, Game: info, Seat: 0, View: &view,
			Events: protocol.Events(g.Events(), g.Players(), i18n.Default())})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	playing, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Bot 3 (easy)"}})
	if err != nil {
		t.Fatal(err)
	}
	offer := func(state string, answers ...string) *protocol.RematchOffer {
		return &protocol.RematchOffer{By: 1, State: state, Answers: answers, Expires: time.Now().Add(time.Minute), Game: "q7nd2kx4ma"}
	}
	type testCase struct {
		Msg   json.RawMessage        `json:"msg"`
		Seat  int                    `json:"seat"`
		Offer *protocol.RematchOffer `json:"offer"`
	}
	done := msg(over, protocol.StatusFinished)
	cases := map[string]testCase{
		"no offer":  {Msg: done, Seat: 0},
		"offered":   {Msg: done, Seat: 0, Offer: offer("open", "", "yes", "yes")},
		"answered":  {Msg: done, Seat: 0, Offer: offer("open", "yes", "yes", "")},
		"started":   {Msg: done, Seat: 0, Offer: offer("started", "yes", "yes", "yes")},
		"lapsed":    {Msg: done, Seat: 0, Offer: offer("lapsed", "no", "yes", "no")},
		"spectator": {Msg: done, Seat: -1},
		"playing":   {Msg: msg(playing, protocol.StatusPlaying), Seat: 0},
		"rated":     {Msg: msg(playing, protocol.StatusPlaying, true), Seat: 0},
	}
	cat, err := i18n.JSON("en")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]any{"catalogue": json.RawMessage(cat), "cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	node, dir := web.NodeModules(t, map[string][]byte{"check.mjs": []byte(rematchCheck), "cases.json": data})
	outb, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "cases.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("render.js failed: %v\n%s", err, outb)
	}
	var out map[string]struct {
		IDs                       []string
		First, State, Go, Confirm string
		Answers                   []bool
		Left                      int
	}
	if err := json.Unmarshal(outb, &out); err != nil {
		t.Fatalf("%v in %s", err, outb)
	}
	for name, want := range map[string]struct {
		ids     []string
		answers []bool
		state   string
	}{
		"no offer":  {[]string{"rematch-offer"}, []bool{true}, ""},
		"offered":   {[]string{"rematch-accept", "rematch-decline"}, []bool{true, false}, "offers a rematch"},
		"answered":  {nil, nil, "Waiting for 1 more answer."},
		"started":   {[]string{"rematch-go"}, nil, "The rematch starts"},
		"lapsed":    {nil, nil, "lapsed"},
		"spectator": {nil, nil, ""},
	} {
		got := out[name]
		if !slices.Equal(got.IDs, want.ids) || !slices.Equal(got.Answers, want.answers) || !strings.Contains(got.State, want.state) {
			t.Errorf("%s: buttons %v, answers %v, text %q; want %v, %v, %q", name, got.IDs, got.Answers, got.State, want.ids, want.answers, want.state)
		}
		if len(want.ids) > 0 && got.First != "rematch" {
			t.Errorf("%s: the game-end actions start with %q, want the rematch", name, got.First)
		}
	}
	if g := out["started"].Go; g != "/g/q7nd2kx4ma" {
		t.Errorf("the rematch link is %q", g)
	}
	p := out["playing"]
	if !slices.Equal(p.IDs, []string{"leave"}) || p.Left != 1 || !strings.Contains(p.Confirm, "bot plays for you") || !strings.Contains(p.Confirm, "take your seat back") {
		t.Errorf("playing: buttons %v, left %d, confirmation %q; want leave, asked first, then sent", p.IDs, p.Left, p.Confirm)
	}
	if r := out["rated"].Confirm; !strings.Contains(r, "counts as a loss") || strings.Contains(p.Confirm, "counts as a loss") {
		t.Errorf("leaving a rated table asks %q, a casual one %q; want the loss said at the rated one only", r, p.Confirm)
	}
	for _, name := range []string{"no offer", "spectator"} {
		if out[name].Left != 0 || slices.Contains(out[name].IDs, "leave") {
			t.Errorf("%s: a leave button at a game that is over", name)
		}
	}
}
