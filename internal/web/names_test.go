package web

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/playername"
)

// TestNameFieldsTakeTheServersLength checks that every field where a
// person chooses a name takes as many characters as the server's rule
// allows (playername.MaxLen), and that the hints and the refusal say that
// number in every language.
func TestNameFieldsTakeTheServersLength(t *testing.T) {
	want := strconv.Itoa(playername.MaxLen)
	for _, f := range []struct{ page, id string }{
		{"table.html", "join-name"},
		{"lobby.html", "learn-name"},
		{"lobby.html", "playnow-name"},
		{"account.html", "register-name"},
	} {
		t.Run(f.id, func(t *testing.T) {
			b, err := files.ReadFile("static/" + f.page)
			if err != nil {
				t.Fatal(err)
			}
			m := regexp.MustCompile(`<input[^>]*id="` + f.id + `"[^>]*>`).Find(b)
			if m == nil {
				t.Fatalf("%s has no #%s", f.page, f.id)
			}
			got := regexp.MustCompile(`maxlength="(\d+)"`).FindSubmatch(m)
			if got == nil || string(got[1]) != want {
				t.Errorf("%s #%s: %s; want maxlength=%q (playername.MaxLen)", f.page, f.id, m, want)
			}
		})
	}
	for _, lang := range i18n.Languages() {
		c, _ := i18n.Lookup(lang.Tag)
		for _, key := range []string{"web.join.hint", "error.bad_name"} {
			if text := c.T(key); !strings.Contains(text, want) || strings.Contains(text, "64") {
				t.Errorf("%s %s = %q; want the limit %s", lang.Tag, key, text, want)
			}
		}
	}
}
