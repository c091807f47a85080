package web

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeDOM is just enough of the browser's document for render.js: it
// builds a tree whose text the check below reads.
const fakeDOM = `
class FakeNode {
  constructor() { this.childNodes = []; }
  appendChild(c) { this.childNodes.push(c); return c; }
  replaceChildren(...c) { this.childNodes = c; }
  get textContent() { return this.childNodes.map((c) => c.textContent).join(" "); }
  find(pred, out = []) {
    if (pred(this)) out.push(this);
    for (const c of this.childNodes) c.find(pred, out);
    return out;
  }
}
class FakeText extends FakeNode {
  constructor(t) { super(); this.data = t; }
  get textContent() { return this.data; }
}
class FakeElement extends FakeNode {
  constructor(tag) { super(); this.tag = tag; this.attrs = {}; this.listeners = {}; }
  setAttribute(n, v) { this.attrs[n] = v; }
  addEventListener(t, f) { this.listeners[t] = f; }
}
globalThis.Node = FakeNode;
globalThis.document = { createElement: (t) => new FakeElement(t), createTextNode: (t) => new FakeText(t) };
`

// renderCheck renders each case's state message and prints, per case, the
// text and the moves of the buttons as JSON.
const renderCheck = `import "./fakedom.mjs";
import * as parts from "./render.mjs";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = {};
for (const [name, msg] of Object.entries(cases)) {
  const { game, view, seat } = msg;
  const root = document.createElement("div");
  const sent = [];
  root.appendChild(parts.summary(game, view, seat));
  for (const el of parts.moves(view, (tok) => sent.push(tok), false)) root.appendChild(el);
  if (view.auction) root.appendChild(parts.auction(game, view, seat));
  root.appendChild(parts.row(view));
  for (const el of parts.players(game, view, seat)) root.appendChild(el);
  if (view.seats[0].scores.length) for (const el of parts.scores(game, view)) root.appendChild(el);
  if (view.phase === "over") for (const el of parts.result(game, view)) root.appendChild(el);
  const buttons = root.find((n) => n.tag === "button");
  for (const b of buttons) b.listeners.click();
  out[name] = { text: root.textContent.replace(/\s+/g, " "), moves: buttons.map((b) => b.attrs["data-move"]), sent };
}
console.log(JSON.stringify(out));
`

// TestRenderExamples renders real state messages (the protocol examples
// and a finished game) with render.js and checks what a player would read
// and which moves the buttons send.
func TestRenderExamples(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: render.js not checked")
	}
	ex := examples(t)
	cases := map[string]json.RawMessage{
		"connect": json.RawMessage(ex["state-connect"]),
		"mustbid": json.RawMessage(ex["state-mustbid"]),
	}
	g := playRandom(t, 4, 3)
	info := exampleInfo("finished", len(g.Moves()))
	info.Players = 4
	info.Seats = append(info.Seats, seatInfo{"Ann", "", false})
	snap := g.View(-1).Snapshot()
	info.Winners = snap.Winners
	over, err := json.Marshal(stateMsg{Type: "state", Game: info, Seat: -1, View: &snap, Events: g.Events()})
	if err != nil {
		t.Fatal(err)
	}
	cases["over"] = over
	data, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []string{"dom", "words", "render"} {
		b, err := files.ReadFile("static/js/" + m + ".js")
		if err != nil {
			t.Fatal(err)
		}
		// The copies are .mjs files: point the imports at them.
		write(m+".mjs", []byte(strings.ReplaceAll(strings.ReplaceAll(string(b), "./dom.js", "./dom.mjs"), "./words.js", "./words.mjs")))
	}
	write("fakedom.mjs", []byte(fakeDOM))
	write("check.mjs", []byte(renderCheck))
	write("cases.json", data)
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "cases.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("render.js failed: %v\n%s", err, out)
	}
	var got map[string]struct {
		Text  string
		Moves []string
		Sent  []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	tests := []struct {
		name     string
		contains []string
		lacks    []string
		moves    []string
	}{
		{"connect", []string{"Your turn.", "Round 1 of 3", "Police 1 of 7", "Centre cheque 7", "115 cards left",
			"Draw a card", "Call an auction", "Take 1 driver", "Take 1 gold coin", "2 of 7 loot cards",
			"1 car", "1 thief", "you"}, []string{"winner", "Round 1 Category"},
			[]string{"draw", "call", "thief driver", "thief gold"}},
		{"mustbid", []string{"Forced auction called by Cy", "Nobody else bid: you must bid now.", "No bids yet.",
			"Bid 4", "Bid 10", "Bid 11", "passed", "deciding now", "Still to decide: Cy."}, []string{"Pass"},
			[]string{"bid 4", "bid 10", "bid 11"}},
		{"over", []string{"The game is over.", "Round 1", "Round 3", "businesses", "cheques", "points", "winner"},
			[]string{"Your turn", "you "}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := got[tt.name]
			for _, s := range tt.contains {
				if !strings.Contains(g.Text, s) {
					t.Errorf("the page lacks %q:\n%s", s, g.Text)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(g.Text, s) {
					t.Errorf("the page shows %q:\n%s", s, g.Text)
				}
			}
			if strings.Join(g.Moves, "|") != strings.Join(tt.moves, "|") || strings.Join(g.Sent, "|") != strings.Join(tt.moves, "|") {
				t.Errorf("buttons %q sent %q, want %q", g.Moves, g.Sent, tt.moves)
			}
		})
	}
}
