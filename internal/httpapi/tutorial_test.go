package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/razziagame/razzia/internal/httpapi"
)

// TestTutorial: POST /api/tutorial starts the guided first game with the
// learner seated (the answer and the cookie name the seat), refuses a bad
// name, and counts against the rate of creations.
func TestTutorial(t *testing.T) {
	e := newEnv(t, httpapi.Options{CreateRate: 1e-6, CreateBurst: 2})
	resp, v := e.do("POST", "/api/tutorial", `{"name":"Cy"}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("status %d: %v", resp.StatusCode, v)
	}
	game := v["game"].(map[string]any)
	id := game["id"].(string)
	if v["seat"] != 0.0 || v["token"] == "" || game["status"] != "playing" {
		t.Fatalf("answer %v", v)
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "razzia_"+id {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != v["token"] || !cookie.HttpOnly {
		t.Fatalf("cookies %v, want the seat's token", resp.Cookies())
	}
	_, seat := e.do("GET", "/api/games/"+id, "", "Cookie", cookie.Name+"="+cookie.Value)
	if seat["you"] != 0.0 {
		t.Errorf("with the cookie, GET /api/games/%s says %v", id, seat)
	}
	resp, v = e.do("POST", "/api/tutorial", `{"name":""}`)
	wantError(t, resp, v, http.StatusBadRequest, "bad_name")
	resp, v = e.do("POST", "/api/tutorial", `{"name":"Cy"}`)
	wantError(t, resp, v, http.StatusTooManyRequests, "rate_limited")
}
