package httpapi

import (
	"net/http"
	"testing"

	"github.com/razziagame/razzia/bot"
)

// GET /api/levels answers bot.Levels, names and descriptions, weakest
// first, and the level offered first; a table can be made of each.
func TestLevels(t *testing.T) {
	e := newEnv(t, Options{})
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
