package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// A seated person gives their seat up before the start with DELETE
// .../seats/{seat} and their own token: the seat is open, their token
// holds nothing, and another person takes it. Another's seat is still
// the creator's to free, and a started game's seats are fixed.
func TestGiveUpSeat(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id := e.create("", "", "")
	_, ann := e.join(id, "Ann")
	_, bob := e.join(id, "Bob")
	del := func(seat, token string) (*http.Response, map[string]any) {
		t.Helper()
		return e.do("DELETE", "/api/games/"+id+"/seats/"+seat, "", "Authorization", "Bearer "+token)
	}
	resp, v := del("0", bob)
	wantError(t, resp, v, http.StatusForbidden, "not_creator")
	resp, v = del("0", ann)
	if resp.StatusCode != http.StatusOK || !v["game"].(map[string]any)["seats"].([]any)[0].(map[string]any)["open"].(bool) {
		t.Fatalf("Ann gives up her seat: %d %v", resp.StatusCode, v)
	}
	if _, v := e.do("GET", "/api/games/"+id, "", "Authorization", "Bearer "+ann); v["you"] != -1.0 {
		t.Errorf("the token given up still holds seat %v", v["you"])
	}
	if seat, _ := e.join(id, "Cy"); seat != 0 {
		t.Fatalf("Cy took seat %d, want the one given up", seat)
	}
	e.join(id, "Dee")
	resp, v = del("1", bob)
	wantError(t, resp, v, http.StatusConflict, "already_started")
	if _, v := e.do("GET", "/api/games/"+id, "", "Authorization", "Bearer "+bob); v["you"] != 1.0 {
		t.Errorf("after a refused give-up Bob holds seat %v, want 1", v["you"])
	}
}

// A signed-in player gives up their seat the same way, from the page
// (its cookies), and a guest takes it.
func TestGiveUpAccountSeat(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	b := newBrowser(t, srv)
	b.register("Ann")
	id := srv.Create("", "", "easy").ID
	var j protocol.JoinAnswer
	b.must(http.MethodPost, "/api/games/"+id+"/join", protocol.JoinRequest{}, &j)
	var g protocol.GameAnswer
	b.must(http.MethodDelete, fmt.Sprintf("/api/games/%s/seats/%d", id, j.Seat), nil, &g)
	if !g.Game.Seats[j.Seat].Open {
		t.Fatalf("seat %d after Ann gave it up: %+v", j.Seat, g.Game.Seats[j.Seat])
	}
	if seat, _ := srv.Join(id, "Gus"); seat != j.Seat {
		t.Errorf("Gus took seat %d, want %d", seat, j.Seat)
	}
}
