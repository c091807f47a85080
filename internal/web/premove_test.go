package web_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/web"
)

// preMoveCheck draws a state with the options given and prints the
// pre-move buttons offered, what pressing each sends, and the take-back
// and dropped notices.
const preMoveCheck = `import "./fakedom.mjs";
import { renderTable, T } from "./render.mjs";
import { readFileSync } from "node:fs";
const { catalogue, cases } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = {};
for (const [name, c] of Object.entries(cases)) {
  const root = document.createElement("div");
  const pre = [], back = [];
  renderTable(root, c.msg.view, c.msg.events, T(catalogue), { game: c.msg.game, seat: c.msg.seat, onMove: () => {},
    onPreMove: (tok) => pre.push(tok), onTakeBack: () => back.push(true), ...c.options });
  const buttons = root.find((n) => n.tag === "button" && n.attrs["data-premove"] !== undefined);
  for (const b of buttons) b.click();
  for (const b of root.find((n) => n.attrs && n.attrs.id === "take-back")) b.click();
  out[name] = { offered: buttons.map((b) => b.attrs["data-premove"]), sent: pre, back: back.length,
    dropped: root.find((n) => n.attrs && n.attrs.id === "premove-dropped").map((n) => n.textContent) };
}
console.log(JSON.stringify(out));
`

func TestPreMoveBox(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	// Ann calls an auction: Bob bids first; Ann, the caller, decides last.
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.PlayToken("call"); err != nil {
		t.Fatal(err)
	}
	st := g.State()
	caller := 1 - st.ToMove()
	info := protocol.GameInfo{ID: "k3x7q2m5ab", Status: protocol.StatusPlaying, Players: 2,
		Seats: []protocol.SeatInfo{{Name: "Ann"}, {Name: "Bob"}}}
	msg := func(seat int, info protocol.GameInfo) json.RawMessage {
		view := protocol.NewView(g.View(seat))
		b, err := json.Marshal(protocol.StateMessage{Type: protocol.TypeState, Game: info, Seat: seat, View: &view,
			Events: protocol.Events(g.Events(), g.Players(), i18n.Default())})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	standIn := info
	standIn.Seats = slices.Clone(info.Seats)
	standIn.Seats[caller].StandIn = "hard"
	type testCase struct {
		Msg     json.RawMessage `json:"msg"`
		Options map[string]any  `json:"options,omitempty"`
	}
	cases := map[string]testCase{
		"ahead":    {Msg: msg(caller, info)},
		"set":      {Msg: msg(caller, info), Options: map[string]any{"preMove": "pass"}},
		"dropped":  {Msg: msg(caller, info), Options: map[string]any{"preMove": "bid 5", "preMoveDropped": "the highest bid reached the pre-entered bid"}},
		"to move":  {Msg: msg(1-caller, info)},
		"watching": {Msg: msg(-1, info)},
		"stood in": {Msg: msg(caller, standIn)},
	}
	cat, err := i18n.JSON("en")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]any{"catalogue": json.RawMessage(cat), "cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	node, dir := web.NodeModules(t, map[string][]byte{"check.mjs": []byte(preMoveCheck), "cases.json": data})
	outb, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "cases.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("render.js failed: %v\n%s", err, outb)
	}
	var out map[string]struct {
		Offered, Sent, Dropped []string
		Back                   int
	}
	if err := json.Unmarshal(outb, &out); err != nil {
		t.Fatalf("%v in %s", err, outb)
	}
	var bids []string
	view := protocol.NewView(g.View(caller))
	for _, c := range view.Seats[caller].FaceUp {
		bids = append(bids, "bid "+strconv.Itoa(c))
	}
	slices.Sort(bids)
	ahead := out["ahead"]
	if len(ahead.Offered) != 1+len(bids) || ahead.Offered[0] != "pass" || !slices.Equal(ahead.Sent, ahead.Offered) {
		t.Errorf("deciding ahead offers %v and sends %v; want pass and a bid per face-up cheque %v", ahead.Offered, ahead.Sent, bids)
	}
	if set := out["set"]; !slices.Contains(set.Offered, "") {
		t.Errorf("with a pre-move set, no withdraw button: %v", set.Offered)
	}
	if d := out["dropped"]; len(d.Dropped) != 1 || !strings.Contains(d.Dropped[0], "highest bid reached") {
		t.Errorf("a dropped pre-move is told as %q", d.Dropped)
	}
	for _, name := range []string{"to move", "watching", "stood in"} {
		if len(out[name].Offered) != 0 {
			t.Errorf("%s: pre-move buttons %v, want none", name, out[name].Offered)
		}
	}
	if out["stood in"].Back != 1 || out["ahead"].Back != 0 {
		t.Errorf("take-back buttons: stood in %d, own seat %d; want 1 and 0", out["stood in"].Back, out["ahead"].Back)
	}
}
