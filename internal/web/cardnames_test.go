package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestCardNamesBreak: every word of seven letters or more in a card's
// name, in every language, has the places where a narrow card may break
// it (cards.js BREAKS); the name reads the same without them.
func TestCardNamesBreak(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	files, err := filepath.Glob("../i18n/locales/*/common.json")
	if err != nil || len(files) < 6 {
		t.Fatalf("the catalogues: %v, %d found", err, len(files))
	}
	card := regexp.MustCompile(`^card\.[a-z]+$`)
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cat map[string]string
		if err := json.Unmarshal(b, &cat); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for k, v := range cat {
			if card.MatchString(k) {
				names = append(names, v)
			}
		}
	}
	list, _ := json.Marshal(names)
	runCases(t, "card names", `import "./fakedom.mjs";
import { breakable } from "./cards.mjs";
const cases = [];
for (const name of `+string(list)+`) {
  const b = breakable(name);
  cases.push([b.replace(/\u00ad/g, ""), name]);
  for (const word of b.split(" ")) {
    const letters = word.replace(/\u00ad/g, "");
    if ([...letters].length >= 7) cases.push([letters + (word.includes("\u00ad") ? " breaks" : " has no place to break"), letters + " breaks"]);
  }
}
`)
}
