package web

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
)

var (
	memberTag = regexp.MustCompile(`<[a-z]+\b[^>]*\bdata-member\b[^>]*>`)
	guestTag  = regexp.MustCompile(`<[a-z]+\b[^>]*\bdata-guest\b[^>]*>`)
)

// TestSignedInLayout: a page's parts for a signed-in person only
// (data-member) and for a guest only (data-guest) are written so that
// signedInLayout can swap them, and a request with a session cookie gets
// the lobby laid out for a signed-in person, one without it a guest's, so
// that the lobby's buttons do not move when its script learns who reads.
func TestSignedInLayout(t *testing.T) {
	h := Handler()
	for name, url := range pages {
		page := body(t, get(t, h, "GET", url, nil))
		for _, tag := range memberTag.FindAllString(page, -1) {
			if !strings.Contains(tag, " hidden data-member") {
				t.Errorf("%s: %s: write a signed-in person's part as \"hidden data-member\"", name, tag)
			}
		}
		for _, tag := range guestTag.FindAllString(page, -1) {
			if _, hidden := attributes(tag)["hidden"]; hidden {
				t.Errorf("%s: %s: a guest's part is shown to a guest: data-guest, without hidden", name, tag)
			}
		}
	}
	cookie := http.Header{"Cookie": {protocol.SessionCookie + "=anything"}}
	for _, c := range []struct {
		who           string
		header        http.Header
		shown, hidden []string
	}{
		{"a guest", nil, []string{"challenge-guest", "playnow-name-field"}, []string{"challenge-form", "playnow-rated-field", "rated-field"}},
		{"signed in", cookie, []string{"challenge-form", "playnow-rated-field", "rated-field"}, []string{"challenge-guest", "playnow-name-field"}},
	} {
		resp := get(t, h, "GET", "/", c.header)
		if !strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Cookie") {
			t.Errorf("%s: the lobby does not vary by Cookie: %q", c.who, resp.Header.Values("Vary"))
		}
		page := body(t, resp)
		for _, id := range append(c.shown, c.hidden...) {
			tag := regexp.MustCompile(`<[a-z]+\b[^>]*\bid="` + id + `"[^>]*>`).FindString(page)
			if _, hidden := attributes(tag)["hidden"]; tag == "" || hidden != slices.Contains(c.hidden, id) {
				t.Errorf("%s: #%s is %s", c.who, id, tag)
			}
		}
	}
}
