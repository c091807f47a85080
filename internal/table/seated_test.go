package table

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestCreateSeated: a seated table starts at once with the deal of its
// seed and each account's seat held by the account's token; creating it
// again creates nothing; bad tables are refused, nothing stored.
func TestCreateSeated(t *testing.T) {
	st := memstore.New()
	opts := testOptions(t)
	opts.SeatToken = func(_ context.Context, account, game string) (string, error) { return account + "@" + game, nil }
	h := New(st, opts)
	t.Cleanup(func() { h.Close() })
	ctx := testContext(t)
	seed := bytes.Repeat([]byte{7}, 32)
	tb := SeatedTable{ID: "seated2345", Seed: seed, Pace: "rapid", Rated: true,
		Seats: []SeatedPlayer{{Name: "Ann", Account: "a1"}, {Bot: "easy"}, {Name: "Bea", Account: "b2"}}}
	created, err := h.CreateSeated(ctx, tb)
	if err != nil || !created {
		t.Fatalf("CreateSeated = %v, %v", created, err)
	}
	g := storedGame(t, st, "seated2345")
	if g.Status != store.StatusPlaying || !g.Rated || !bytes.Equal(g.Seed, seed) {
		t.Errorf("stored %s, rated %v, seed %x", g.Status, g.Rated, g.Seed)
	}
	if want := razzia.NewSetup(match.PlayerNames(g.Seats), seed).Cheques; !slices.EqualFunc(g.Cheques, want[:], slices.Equal) {
		t.Errorf("cheques %v, want the seed's %v", g.Cheques, want)
	}
	if s := g.Seats[0]; s.Account != "a1" || !bytes.Equal(s.TokenHash, hashToken("a1@seated2345")) || g.Seats[1].Bot != "easy" {
		t.Errorf("seats %+v", g.Seats)
	}
	if _, seat, err := h.Game(ctx, "seated2345", "b2@seated2345"); err != nil || seat != 2 {
		t.Errorf("Bea's token holds seat %d, %v; want 2", seat, err)
	}
	if created, err := h.CreateSeated(ctx, tb); err != nil || created {
		t.Errorf("again: created %v, %v; want nothing done", created, err)
	}
	for name, bad := range map[string]SeatedTable{
		"bad id":    {ID: "UPPER2345x", Seed: seed, Pace: "rapid", Seats: tb.Seats},
		"one seat":  {ID: "oneseat234", Seed: seed, Pace: "rapid", Seats: tb.Seats[:1]},
		"short key": {ID: "shortkey23", Seed: seed[:5], Pace: "rapid", Seats: tb.Seats},
		"bad level": {ID: "badlevel23", Seed: seed, Pace: "rapid", Seats: []SeatedPlayer{{Name: "Ann", Account: "a1"}, {Bot: "godlike"}}},
		"bots only": {ID: "botsonly23", Seed: seed, Pace: "rapid", Rated: true, Seats: []SeatedPlayer{{Bot: "easy"}, {Bot: "easy"}}},
		"bad pace":  {ID: "badpace234", Seed: seed, Pace: "warp", Seats: tb.Seats},
	} {
		if _, err := h.CreateSeated(ctx, bad); err == nil {
			t.Errorf("%s: created", name)
		} else if _, err := st.Game(ctx, bad.ID); err == nil {
			t.Errorf("%s: refused, yet stored", name)
		}
	}
}
