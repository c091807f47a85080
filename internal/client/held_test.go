package client_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/servertest"
)

// TestTakeSeat: a seat joined is kept and taken back from the store; a
// name the server would refuse at the join makes no table and keeps
// nothing.
func TestTakeSeat(t *testing.T) {
	srv := servertest.New(t, servertest.Options{LevelBots: true})
	c := newClient(t, srv)
	ctx := servertest.Context(t)
	store := &client.SeatStore{Path: filepath.Join(t.TempDir(), "seats.json")}

	if _, err := c.TakeSeat(ctx, store, client.SeatRequest{Name: "Bot 1 (hard)", Seats: []string{"", "easy"}}); err == nil {
		t.Fatal("the server took a bot's name")
	}
	if games := srv.Games(); len(games) != 0 {
		t.Errorf("the server has %d games after the failed join: %+v", len(games), games)
	}
	if seats, _ := store.Seats(c.URL()); len(seats) != 0 {
		t.Errorf("a seat was kept: %v", seats)
	}

	// A store that cannot keep the seat is found out before the server
	// is asked for anything: the seat's token would be lost.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	nowhere := &client.SeatStore{Path: filepath.Join(file, "razzia", "seats.json")}
	if _, err := c.TakeSeat(ctx, nowhere, client.SeatRequest{Name: "Yan", Seats: []string{"", "easy"}}); err == nil ||
		!strings.Contains(err.Error(), "cannot keep your seats in "+nowhere.Path) {
		t.Errorf("TakeSeat with a store that cannot keep seats: %v", err)
	}
	if games, err := c.List(ctx, ""); err != nil || len(games) != 0 {
		t.Errorf("the server has %d games after a seat that could not be kept (%v)", len(games), err)
	}

	first, err := c.TakeSeat(ctx, store, client.SeatRequest{Name: "Ann", Seats: []string{"", "easy", ""}})
	if err != nil || !first.Saved.IsZero() || first.Creator == "" {
		t.Fatalf("TakeSeat = %+v, %v; want a new seat at a table of Ann's", first, err)
	}
	again, err := c.TakeSeat(ctx, store, client.SeatRequest{Game: first.Game, Name: "Ann"})
	if err != nil || again.Token != first.Token || again.Saved.IsZero() {
		t.Fatalf("TakeSeat again = %+v, %v; want the kept seat", again, err)
	}
	// Another name at the same table is another person's seat, joined and
	// kept beside Ann's, not Ann's taken back.
	bob, err := c.TakeSeat(ctx, store, client.SeatRequest{Game: first.Game, Name: "Bob"})
	if err != nil || bob.Token == first.Token || bob.Seat == first.Seat || !bob.Saved.IsZero() {
		t.Fatalf("TakeSeat as Bob = %+v, %v; want a seat of his own", bob, err)
	}
	ann, err := c.TakeSeat(ctx, store, client.SeatRequest{Game: first.Game, Name: "ann"})
	if err != nil || ann.Token != first.Token {
		t.Errorf("TakeSeat as ann = %+v, %v; want Ann's seat back", ann, err)
	}
	anyone, err := c.TakeSeat(ctx, store, client.SeatRequest{Game: first.Game, Name: "Cy", AnyName: true})
	if err != nil || anyone.Token != bob.Token {
		t.Errorf("TakeSeat with any name = %+v, %v; want the newest seat kept, Bob's", anyone, err)
	}
	held, err := c.HeldGames(ctx, store)
	if err != nil || len(held) != 2 || held[0].Seat.Game != first.Game {
		t.Errorf("HeldGames = %+v, %v; want Ann's and Bob's seats", held, err)
	}
}
