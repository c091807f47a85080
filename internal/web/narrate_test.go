package web

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/i18n"
)

// TestNarrationMatchesGo checks that render.js tells every event of whole
// games, in every language, in the very words of i18n.Catalogue.Narrate
// (which the terminal shows): the page reads the catalogue the server
// serves at /static/i18n/<lang>.json.
func TestNarrationMatchesGo(t *testing.T) {
	type testCase struct {
		Lang    string       `json:"lang"`
		Event   razzia.Event `json:"event"`
		Players []string     `json:"players"`
		Want    string       `json:"want"`
	}
	var cases []testCase
	kinds := map[razzia.EventKind]bool{}
	catalogues := map[string]json.RawMessage{}
	for _, l := range i18n.Languages() {
		b, err := i18n.JSON(l.Tag)
		if err != nil {
			t.Fatal(err)
		}
		catalogues[l.Tag] = b
	}
	for i := range 12 {
		g := playRandom(t, 2+i%4, uint64(i))
		for _, e := range g.Events() {
			kinds[e.Kind] = true
			for _, l := range i18n.Languages() {
				if l.Tag != "en" && i >= 4 {
					break
				}
				c, _ := i18n.Lookup(l.Tag)
				cases = append(cases, testCase{l.Tag, e, g.Players(), c.Narrate(e, g.Players())})
			}
		}
	}
	if len(kinds) != 9 {
		t.Fatalf("the games produced %d kinds of event, want all 9", len(kinds))
	}
	data, err := json.Marshal(map[string]any{"catalogues": catalogues, "cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	check := `import "./fakedom.mjs";
import { narrate, T } from "./render.mjs";
import { readFileSync } from "node:fs";
const { catalogues, cases } = JSON.parse(readFileSync(process.argv[2], "utf8"));
let bad = 0;
for (const c of cases) {
  const got = narrate(T(catalogues[c.lang]), c.event, c.players);
  if (got !== c.want && bad++ < 10) console.log(c.lang + " " + JSON.stringify(c.event) + "\n  got:  " + got + "\n  want: " + c.want);
}
console.log(cases.length + " events, " + bad + " differ");
process.exit(bad ? 1 : 0);
`
	node, dir := nodeModules(t, map[string][]byte{"check.mjs": []byte(check), "cases.json": data})
	out, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "cases.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("render.js narrates differently from the Go side: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), " 0 differ") {
		t.Fatalf("unexpected output: %s", out)
	}
}
