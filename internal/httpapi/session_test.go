package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/servertest"
)

// TestGuestAnswerKeepsCookies: a guest's request answered as a guest sets
// no cookie (an answer that crosses a sign-in made meanwhile must not
// sign the browser out); a dead session cookie is removed.
func TestGuestAnswerKeepsCookies(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	for _, c := range []struct {
		name, cookie string
		cleared      bool
	}{
		{"no cookie", "", false},
		{"a dead session", "razzia_session=deadbeefdeadbeefdeadbeef", true},
	} {
		for _, path := range []string{"/api/session", "/api/account"} {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+path, nil)
			if c.cookie != "" {
				req.Header.Set("Cookie", c.cookie)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			set := strings.Join(resp.Header.Values("Set-Cookie"), "; ")
			if cleared := strings.Contains(set, "razzia_session="); cleared != c.cleared {
				t.Errorf("%s, GET %s: Set-Cookie %q, want the session cleared: %v", c.name, path, set, c.cleared)
			}
		}
	}
}
