package web_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/razziagame/razzia/internal/gametest"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/web"
)

// TestReplayPatches applies a whole game's replay patches with patch.js,
// as the replay viewer does, and checks each view against the engine's.
func TestReplayPatches(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	for _, players := range []int{2, 5} {
		g := gametest.Random(t, players, uint64(players))
		start, steps, _, err := protocol.Replay(g.Record(), i18n.Default())
		if err != nil {
			t.Fatal(err)
		}
		answer, err := json.Marshal(protocol.ReplayAnswer{Start: start, Steps: steps})
		if err != nil {
			t.Fatal(err)
		}
		check := `import { views } from "./patch.mjs";
import { readFileSync } from "node:fs";
console.log(JSON.stringify(views(JSON.parse(readFileSync(process.argv[2], "utf8")))));
`
		node, dir := web.NodeModules(t, map[string][]byte{"check.mjs": []byte(check), "answer.json": answer})
		out, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "answer.json")).Output()
		if err != nil {
			t.Fatalf("patch.js: %v", err)
		}
		var got []protocol.View
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		replayed, err := g.Record().Game()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(replayed.Moves())+1 {
			t.Fatalf("%d views for %d moves", len(got), len(replayed.Moves()))
		}
		a := protocol.ReplayAnswer{Start: start, Steps: steps}
		want, err := a.Views()
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			g, _ := json.Marshal(got[i])
			w, _ := json.Marshal(want[i])
			if string(g) != string(w) {
				t.Fatalf("%d players, view %d:\n got %s\nwant %s", players, i, g, w)
			}
		}
	}
}
