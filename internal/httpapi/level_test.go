package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/razziagame/razzia/internal/httpapi"
)

// The creator changes a bot seat's level before the start with PUT
// .../seats/{seat}/level; anyone else, a seat without a bot, a level that
// is not one and a body that is not JSON are refused, and change nothing.
func TestSetLevel(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	resp, v := e.do("POST", "/api/games", `{"seats":[{"bot":""},{"bot":""},{"bot":"easy"}]}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", resp.StatusCode, v)
	}
	id := v["game"].(map[string]any)["id"].(string)
	creator := "Bearer " + v["creatorToken"].(string)
	_, ann := e.join(id, "Ann")
	level := func(seat, body string, header ...string) (*http.Response, map[string]any) {
		t.Helper()
		return e.do("PUT", "/api/games/"+id+"/seats/"+seat+"/level", body, header...)
	}
	for _, c := range []struct {
		name, seat, body, auth string
		status                 int
		code                   string
	}{
		{"no token", "2", `{"level":"hard"}`, "", http.StatusForbidden, "not_creator"},
		{"a player's token", "2", `{"level":"hard"}`, "Bearer " + ann, http.StatusForbidden, "not_creator"},
		{"a person's seat", "0", `{"level":"hard"}`, creator, http.StatusBadRequest, "bad_request"},
		{"an open seat", "1", `{"level":"hard"}`, creator, http.StatusBadRequest, "bad_request"},
		{"no such seat", "3", `{"level":"hard"}`, creator, http.StatusBadRequest, "bad_request"},
		{"a negative seat", "-1", `{"level":"hard"}`, creator, http.StatusBadRequest, "bad_request"},
		{"a seat that is no number", "two", `{"level":"hard"}`, creator, http.StatusBadRequest, "bad_request"},
		{"an unknown level", "2", `{"level":"godlike"}`, creator, http.StatusBadRequest, "bad_request"},
		{"no level", "2", `{}`, creator, http.StatusBadRequest, "bad_request"},
		{"not JSON", "2", `hard`, creator, http.StatusBadRequest, "bad_request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, v := level(c.seat, c.body, "Authorization", c.auth)
			wantError(t, resp, v, c.status, c.code)
			if _, g := e.do("GET", "/api/games/"+id, ""); seatBot(g, 2) != "easy" {
				t.Errorf("a refused level left seat 2 as %v", g)
			}
		})
	}
	resp, v = level("2", `{"level":"hard"}`, "Authorization", creator)
	if resp.StatusCode != http.StatusOK || seatBot(v, 2) != "hard" {
		t.Fatalf("the creator sets the level: %d %v", resp.StatusCode, v)
	}
	e.join(id, "Bob")
	resp, v = level("2", `{"level":"easy"}`, "Authorization", creator)
	wantError(t, resp, v, http.StatusConflict, "already_started")
}

// seatBot returns the bot level of a seat of a game answer.
func seatBot(v map[string]any, seat int) any {
	g, _ := v["game"].(map[string]any)
	seats, _ := g["seats"].([]any)
	if seat >= len(seats) {
		return nil
	}
	return seats[seat].(map[string]any)["bot"]
}
