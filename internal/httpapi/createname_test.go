package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// TestCreateRefusesNameFirst: a table asked for under a name the join
// would refuse is not made, and costs none of the tables the address may
// create: after more such refusals than the burst of creations, under
// the server's real limits, the address creates a table.
func TestCreateRefusesNameFirst(t *testing.T) {
	srv := servertest.New(t, servertest.Options{Limits: true})
	b := newBrowser(t, srv)
	seats := []protocol.SeatRequest{{}, {Bot: "easy"}}
	for range 6 {
		if _, code := b.call(http.MethodPost, "/api/games", protocol.CreateRequest{Seats: seats, Name: "Bot 1 (hard)"}, nil); code != protocol.BadName {
			t.Fatalf("a table to join as a bot: %s, want %s", code, protocol.BadName)
		}
	}
	if games := srv.Games(); len(games) != 0 {
		t.Errorf("the refusals made %d games: %+v", len(games), games)
	}
	if status, code := b.call(http.MethodPost, "/api/games", protocol.CreateRequest{Seats: seats, Name: "Ann"}, nil); status != http.StatusCreated {
		t.Errorf("a table after the refusals: %d %s", status, code)
	}
}
