package account_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/store"
)

// TestProfileKinds: a profile counts the casual games and the rated ones,
// and its figures and recent games can be made of either kind alone.
func TestProfileKinds(t *testing.T) {
	ctx := context.Background()
	svc, accts := newService(t, account.Options{}, "Ann")
	ann := store.Seat{Name: "Ann", Account: accts["Ann"].ID}
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, g := range []account.GameEnd{
		{Game: "casual0001", Seats: []store.Seat{ann, {Name: "Bot 2 (easy)", Bot: "easy"}}},
		{Game: "casual0002", Seats: []store.Seat{ann, {Name: "Bot 2 (easy)", Bot: "easy"}, {Name: "Cy"}}},
		{Game: "rated00001", Rated: true, Seats: []store.Seat{ann, {Name: "Bot 2 (easy)", Bot: "easy"}}},
	} {
		g.Scores, g.At = []razzia.Score{points(40), points(10), points(5)}[:len(g.Seats)], at.Add(time.Duration(i)*time.Hour)
		if err := svc.Finished(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		only          string
		recent, games int // recent games listed, games counted by table size
	}{{"", 3, 3}, {"rated", 1, 1}, {"casual", 2, 2}} {
		p, err := svc.ProfileOf(ctx, "Ann", c.only)
		if err != nil {
			t.Fatalf("%q: %v", c.only, err)
		}
		if len(p.History) != 1 {
			t.Errorf("%q: %d points of rating history, want the rated game's", c.only, len(p.History))
		}
		if p.Games.Rated != 1 || p.Games.Casual != 2 || p.Only != c.only {
			t.Errorf("%q: counts %+v, only %q; want 1 rated and 2 casual", c.only, p.Games, p.Only)
		}
		played := 0
		for _, n := range p.ByPlayers {
			played += n.Played
		}
		if len(p.Recent) != c.recent || played != c.games {
			t.Errorf("%q: %d recent games, %d counted by table size; want %d and %d", c.only, len(p.Recent), played, c.recent, c.games)
		}
		for _, g := range p.Recent {
			if c.only != "" && g.Rated != (c.only == "rated") {
				t.Errorf("%q lists %s (rated %v)", c.only, g.Game, g.Rated)
			}
		}
	}
	if _, err := svc.ProfileOf(ctx, "Ann", "ranked"); !errors.Is(err, account.ErrBadRequest) {
		t.Errorf("games=ranked: %v, want a bad request", err)
	}
}
