package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
)

// playOut plays the seat of c's connection (its first legal move at each
// turn) until the game is over.
func playOut(t *testing.T, c *client) {
	t.Helper()
	for {
		m := c.read()
		switch {
		case m.Type == "error":
			t.Fatalf("playing: %s %s", m.Code, m.Message.Message)
		case m.Type != protocol.TypeState:
		case m.Game.Status == protocol.StatusFinished:
			return
		case m.View != nil && m.View.ToMove == m.Seat && len(m.View.Legal) > 0:
			c.send(moveMessage(m.View.Legal[0], m.View.Moves))
		}
	}
}

// TestRematchHTTP: a player offers a rematch over HTTP at the end of a
// game with a bot, which accepts: the connection still open at the old
// game hears the offer start, the guest's seat cookie carries over, and
// bad requests change nothing.
func TestRematchHTTP(t *testing.T) {
	e := newEnv(t, httpapi.Options{MessageRate: 1e6, MessageBurst: 1 << 20})
	id := e.create("", "easy")
	_, token := e.join(id, "Ann")
	c := e.dial(id, "Authorization", "Bearer "+token)
	playOut(t, c)
	auth := []string{"Authorization", "Bearer " + token}

	for _, bad := range []struct {
		name, id, body string
		header         []string
		status         int
		code           string
	}{
		{"no answer", id, `{}`, auth, http.StatusBadRequest, "bad_request"},
		{"unknown field", id, `{"accept":true,"seats":2}`, auth, http.StatusBadRequest, "bad_request"},
		{"spectator", id, `{"accept":true}`, nil, http.StatusConflict, "not_your_seat"},
		{"nothing to decline", id, `{"accept":false}`, auth, http.StatusConflict, "rematch_refused"},
	} {
		resp, v := e.do("POST", "/api/games/"+bad.id+"/rematch", bad.body, bad.header...)
		obj := wantError(t, resp, v, bad.status, bad.code)
		t.Logf("%s: %s", bad.name, obj["message"])
	}
	playing := e.create("", "easy")
	_, other := e.join(playing, "Bea")
	resp, v := e.do("POST", "/api/games/"+playing+"/rematch", `{"accept":true}`, "Authorization", "Bearer "+other)
	wantError(t, resp, v, http.StatusConflict, "game_in_progress")

	resp, v = e.do("POST", "/api/games/"+id+"/rematch", `{"accept":true}`, auth...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("offer: %d %v", resp.StatusCode, v)
	}
	if v["token"] != token {
		t.Errorf("the answer's token = %v, want the guest's", v["token"])
	}
	offer := v["offer"].(map[string]any)
	next, _ := offer["game"].(string)
	if offer["state"] != protocol.RematchStarted || next == "" {
		t.Fatalf("offer = %v, want started (the bot accepts)", offer)
	}
	var cookie *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == "razzia_"+next {
			cookie = ck
		}
	}
	if cookie == nil || cookie.Value != token || !cookie.HttpOnly {
		t.Fatalf("the rematch's seat cookie = %v, want the old seat's token, HttpOnly", cookie)
	}
	for {
		m := c.read()
		if m.Type == protocol.TypeRematchOffer && m.Offer != nil && m.Offer.State == protocol.RematchStarted {
			if m.Offer.Game != next {
				t.Errorf("rematchOffer names game %q, want %q", m.Offer.Game, next)
			}
			break
		}
	}
	resp, v = e.do("GET", "/api/games/"+next, "", "Cookie", cookie.Name+"="+cookie.Value)
	if resp.StatusCode != http.StatusOK || v["you"] != 0.0 || v["game"].(map[string]any)["rematchOf"] != id {
		t.Errorf("the rematch with the cookie: %d, seat %v, game %v; want seat 0, rematchOf %s", resp.StatusCode, v["you"], v["game"], id)
	}
	resp, v = e.do("GET", "/api/games/"+id, "")
	if g := v["game"].(map[string]any); g["rematch"] != next {
		t.Errorf("the old game's rematch = %v, want %s", g["rematch"], next)
	}
	// One offer per game, over the WebSocket too.
	c.send(`{"type":"rematch","accept":true}`)
	c.wantError(protocol.RematchRefused)
	c.send(`{"type":"rematch"}`)
	c.wantError(protocol.BadMessage)
}
