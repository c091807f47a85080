package web

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

// playRandom plays a whole game with random legal moves.
func playRandom(t testing.TB, players int, seed uint64) *razzia.Game {
	t.Helper()
	names := []string{"Miriam", "Felix", "Elke", "Dennis", "Ann"}[:players]
	g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: fmt.Appendf(nil, "seed-%d", seed)})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	for {
		s := g.State()
		if s.Over() {
			return g
		}
		legal := g.LegalMoves()
		if err := g.Play(legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNarrationMatchesEngine checks that the page's words.js tells every
// event of whole games in the same words as the engine's Narrate.
func TestNarrationMatchesEngine(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: words.js not checked against razzia.Narrate")
	}
	type testCase struct {
		Event   razzia.Event `json:"event"`
		Players []string     `json:"players"`
		Want    string       `json:"want"`
	}
	var cases []testCase
	kinds := map[razzia.EventKind]bool{}
	for i := range 12 {
		g := playRandom(t, 2+i%4, uint64(i))
		for _, e := range g.Events() {
			kinds[e.Kind] = true
			cases = append(cases, testCase{e, g.Players(), razzia.Narrate(e, g.Players())})
		}
	}
	if len(kinds) != 9 {
		t.Fatalf("the games produced %d kinds of event, want all 9", len(kinds))
	}
	dir := t.TempDir()
	words, err := files.ReadFile("static/js/words.js")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	check := `import { narrate } from "./words.mjs";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
let bad = 0;
for (const c of cases) {
  const got = narrate(c.event, c.players);
  if (got !== c.want && bad++ < 10) console.log(JSON.stringify(c.event) + "\n  got:  " + got + "\n  want: " + c.want);
}
console.log(cases.length + " events, " + bad + " differ");
process.exit(bad ? 1 : 0);
`
	for name, b := range map[string][]byte{"words.mjs": words, "check.mjs": []byte(check), "cases.json": data} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "cases.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("words.js narrates differently from razzia.Narrate: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), " 0 differ") {
		t.Fatalf("unexpected output: %s", out)
	}
}
