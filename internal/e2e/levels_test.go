package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/bot"
)

// TestLobbyLevels checks that the lobby offers the server's levels, not a
// list of its own: in front of a real server, GET /api/levels answers
// bot.Levels and one more level that no catalogue knows, which the lobby
// shows by the server's name and description, and the known ones in the
// page's language.
func TestLobbyLevels(t *testing.T) {
	srv := newServer(t)
	type level struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	var levels []level
	for _, l := range bot.Levels() {
		levels = append(levels, level{l.Name, l.Doc})
	}
	newcomer := level{"grandmaster", "thinks for a week before every move"}
	levels = append(levels, newcomer)
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/levels" {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"levels": levels, "default": bot.DefaultLevel})
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)

	// The page talks to the front; everything else the test asks of the server.
	behind := *srv.Server
	behind.Server = front
	p := newPage(t, &server{&behind}, "Anna", 1280, 900)
	p.open("/")
	const options = `[...document.querySelectorAll('select[name="seat-2"] option')].map((o) => o.value)`
	waitFor[bool](p, "the seats", `document.querySelectorAll('select[name="seat-2"] option').length > 1`, 10*time.Second)
	// The creator's own seat, an open one, then the server's levels.
	want := []string{"you", ""}
	for _, l := range levels {
		want = append(want, l.Name)
	}
	if got := eval[[]string](p, options); !slices.Equal(got, want) {
		t.Errorf("seat 2 offers %q, want %q", got, want)
	}
	if got := eval[string](p, `document.querySelector('select[name="seat-2"]').value`); got != bot.DefaultLevel {
		t.Errorf("seat 2 is %q, want the default level %q", got, bot.DefaultLevel)
	}

	nl := srv.catalogue(t, "nl")
	p.setSelect("#lang", "nl")
	waitFor[bool](p, "html[lang=nl]", `document.documentElement.lang === "nl"`, 5*time.Second)
	about := eval[string](p, `document.querySelector("#level-list").textContent`)
	seat := eval[string](p, `document.querySelector('select[name="seat-2"]').textContent`)
	for _, l := range levels {
		name, desc := nl["bot."+l.Name], nl["bot."+l.Name+".about"]
		if l == newcomer {
			name, desc = l.Name, l.Description
		}
		if name == "" || desc == "" {
			t.Errorf("the nl catalogue lacks the name or description of %s", l.Name)
			continue
		}
		if !strings.Contains(about, name) || !strings.Contains(about, desc) || !strings.Contains(seat, name) {
			t.Errorf("the lobby does not show %s as %q: %q", l.Name, name+": "+desc, about)
		}
	}
}
