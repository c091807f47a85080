package httpapi_test

import (
	"encoding/json"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/httpapi"
)

// GET /api/levels answers bot.Levels, names and descriptions, weakest
// first, and the level offered first; a table can be made of each.
func TestLevels(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	resp, v := e.do("GET", "/api/levels", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	got, _ := v["levels"].([]any)
	want := bot.Levels()
	if len(got) != len(want) || v["default"] != bot.DefaultLevel {
		t.Fatalf("got %v, want the %d levels and default %q", v, len(want), bot.DefaultLevel)
	}
	for i, l := range want {
		g, _ := got[i].(map[string]any)
		if g["name"] != l.Name || g["description"] != l.Doc || len(g) != 2 {
			t.Errorf("level %d: got %v, want %s: %s", i, g, l.Name, l.Doc)
		}
		e.create("", l.Name)
	}
}

// The example of docs/protocol.md is what the server answers.
func TestLevelsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n### Bot levels\n")
	_, example, ok2 := strings.Cut(section, "```json\n")
	example, _, ok3 := strings.Cut(example, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal(`docs/protocol.md has no JSON example under "### Bot levels"`)
	}
	var documented any
	if err := json.Unmarshal([]byte(example), &documented); err != nil {
		t.Fatalf("the example: %v", err)
	}
	_, answered := newEnv(t, httpapi.Options{}).do("GET", "/api/levels", "")
	if !reflect.DeepEqual(documented, any(answered)) {
		t.Errorf("docs/protocol.md shows\n%s\nthe server answers %v", example, answered)
	}
}
