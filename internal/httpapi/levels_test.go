package httpapi_test

import (
	"encoding/json"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/botrating"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/rating"
	"github.com/razziagame/razzia/internal/servertest"
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
	rated := botrating.Levels() // the test server's, as razzia serve's
	for i, l := range want {
		g, _ := got[i].(map[string]any)
		_, sure := rated[l.Name]
		if g["name"] != l.Name || g["description"] != l.Doc || g["rated"] != sure || len(g) != 3 {
			t.Errorf("level %d: got %v, want %s: %s, rated %t", i, g, l.Name, l.Doc, sure)
		}
		e.create("", l.Name)
	}
}

// A level is rated when the accounts' calibration has it: the page offers
// only those at a rated table.
func TestLevelsRated(t *testing.T) {
	bots := map[string]rating.Rating{"easy": {Mu: 20, Sigma: 2}}
	srv := servertest.New(t, servertest.Options{Accounts: account.Options{Bots: bots}})
	e := &env{Server: srv, t: t, ctx: servertest.Context(t)}
	_, v := e.do("GET", "/api/levels", "")
	got, _ := v["levels"].([]any)
	for _, g := range got {
		g, _ := g.(map[string]any)
		if want := g["name"] == "easy"; g["rated"] != want {
			t.Errorf("%v: rated %v, want %t", g["name"], g["rated"], want)
		}
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
