package social

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

func mkAccount(t *testing.T, st store.Store, id, name string) {
	t.Helper()
	a := &store.Account{ID: id, Name: name, Key: playername.Key(name), Handle: bytes.Repeat([]byte(id), 8),
		SeatKey: bytes.Repeat([]byte(id), 8), Rating: store.Rating{Mu: 25, Sigma: 8}}
	if err := st.CreateAccount(t.Context(), a); err != nil {
		t.Fatal(err)
	}
}

func service(t *testing.T) (*Service, store.Store) {
	t.Helper()
	st := memstore.New()
	t.Cleanup(func() { st.Close() })
	s := New(st, Options{})
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	for _, a := range [][2]string{{"ann", "Ann"}, {"bob", "Bob"}, {"cy", "Cy"}} {
		mkAccount(t, st, a[0], a[1])
	}
	return s, st
}

// TestFollowBlock: follows and blocks by name, each way as it should be;
// Blocked is either way, Blocks one way; undone they are gone.
func TestFollowBlock(t *testing.T) {
	s, _ := service(t)
	ctx := t.Context()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Follow(ctx, "ann", "BOB", true)) // names compare by key
	must(s.Block(ctx, "bob", "Cy", true))
	if f, _ := s.Following(ctx, "ann"); len(f) != 1 || f[0] != "bob" {
		t.Errorf("Following(ann) = %v", f)
	}
	for _, c := range []struct {
		a, b          string
		blocks, block bool
	}{
		{"bob", "cy", true, true}, {"cy", "bob", false, true}, {"ann", "bob", false, false}, {"", "bob", false, false},
	} {
		if got, err := s.Blocks(ctx, c.a, c.b); err != nil || got != c.blocks {
			t.Errorf("Blocks(%s, %s) = %v, %v; want %v", c.a, c.b, got, err, c.blocks)
		}
		if got, err := s.Blocked(ctx, c.a, c.b); err != nil || got != c.block {
			t.Errorf("Blocked(%s, %s) = %v, %v; want %v", c.a, c.b, got, err, c.block)
		}
	}
	must(s.Block(ctx, "bob", "Cy", false))
	if got, _ := s.Blocked(ctx, "cy", "bob"); got {
		t.Error("Blocked after the block was undone")
	}
}

// TestFollowBlockRefused: oneself, nobody, a guest and too many are
// refused by their codes, and change nothing.
func TestFollowBlockRefused(t *testing.T) {
	s, st := service(t)
	ctx := t.Context()
	for _, c := range []struct {
		name          string
		err           error
		account, whom string
		code          protocol.Code
	}{
		{"oneself", s.Follow(ctx, "ann", "ann", true), "ann", "ann", protocol.SelfRelation},
		{"nobody", s.Block(ctx, "ann", "Zed", true), "ann", "Zed", protocol.NotFound},
		{"a guest", s.Follow(ctx, "", "Bob", true), "", "Bob", protocol.Unauthorized},
	} {
		if !errors.Is(c.err, c.code) {
			t.Errorf("%s: %v, want %s", c.name, c.err, c.code)
		}
	}
	for i := range MaxBlocks {
		id := string(rune('A'+i/26)) + string(rune('a'+i%26)) + "x"
		mkAccount(t, st, id, "P"+id)
		if err := st.SetBlock(ctx, "ann", id, true); err != nil {
			t.Fatal(err)
		}
	}
	s.forget("ann")
	if err := s.Block(ctx, "ann", "Bob", true); !errors.Is(err, protocol.TooManyRelations) {
		t.Errorf("the %d-th block: %v, want too_many_relations", MaxBlocks+1, err)
	}
	if got, _ := s.Blocks(ctx, "ann", "bob"); got {
		t.Error("a refused block was stored")
	}
	if err := s.Block(ctx, "ann", "PAax", true); err != nil {
		t.Errorf("blocking someone blocked already, at the limit: %v", err)
	}
}

// TestRateOf checks the finish rate formula against sums worked by hand.
func TestRateOf(t *testing.T) {
	f := store.Finish{}
	l := store.Finish{Left: true}
	w1 := math.Exp2(-1.0 / 20) // 0.965936...
	repeat := func(n int, m store.Finish) []store.Finish {
		out := make([]store.Finish, n)
		for i := range out {
			out[i] = m
		}
		return out
	}
	for _, c := range []struct {
		name    string
		marks   []store.Finish
		rate    float64
		games   int
		percent int
	}{
		{"no game", nil, 1, 0, 100},
		{"one finished", []store.Finish{f}, 1, 1, 100},
		{"one left", []store.Finish{l}, 0, 1, 0},
		// 0.965936 / 1.965936
		{"left last, finished before", []store.Finish{l, f}, w1 / (1 + w1), 2, 49},
		{"finished last, left before", []store.Finish{f, l}, 1 / (1 + w1), 2, 50},
		// The 21st game back weighs 2^-1 = 0.5; the 20 after it
		// (1 − 0.5) / (1 − 2^(−1/20)) = 14.6783: 14.6783 / 15.1783.
		{"left 20 games ago", append(repeat(20, f), l), 14.678327 / 15.178327, 21, 96},
		// Only the last 100 count: the 50 left before them do not.
		{"window", append(repeat(100, f), repeat(50, l)...), 1, 100, 100},
		// Half left, alternating from the newest: 1/(1+w1) again.
		{"alternating", []store.Finish{f, l, f, l}, (1 + w1*w1) / (1 + w1 + w1*w1 + w1*w1*w1), 4, 50},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := RateOf(c.marks)
			if math.Abs(r.Rate-c.rate) > 1e-6 || r.Games != c.games || r.Percent() != c.percent {
				t.Errorf("RateOf = %+v (%d %%), want rate %.6f over %d games (%d %%)", r, r.Percent(), c.rate, c.games, c.percent)
			}
		})
	}
}

// TestFinished: a game's end marks its accounts (not guests), once, and
// the rate follows at once on this node.
func TestFinished(t *testing.T) {
	s, _ := service(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	if r, _ := s.FinishRate(ctx, "ann"); r.Games != 0 || r.Rate != 1 {
		t.Errorf("before any game: %+v", r)
	}
	seats := []Seat{{Account: "ann"}, {Account: "bob", Left: true}, {}}
	for range 2 {
		if err := s.Finished(ctx, "g1", at, seats); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Finished(ctx, "g2", at.Add(time.Hour), []Seat{{Account: "ann", Left: true}}); err != nil {
		t.Fatal(err)
	}
	ann, _ := s.FinishRate(ctx, "ann")
	bob, _ := s.FinishRate(ctx, "bob")
	if ann.Games != 2 || ann.Left != 1 || math.Abs(ann.Rate-1/(1+math.Exp2(1.0/20))) > 1e-9 {
		t.Errorf("Ann: %+v", ann)
	}
	if bob.Games != 1 || bob.Rate != 0 {
		t.Errorf("Bob: %+v", bob)
	}
	if guest, _ := s.FinishRate(ctx, ""); guest.Rate != 1 {
		t.Errorf("a guest: %+v", guest)
	}
}

// TestAcrossNodes: a block made through one node holds on another at
// once its notice arrives, though that node had read the blocks before.
func TestAcrossNodes(t *testing.T) {
	a, st := service(t)
	b := New(st, Options{})
	if err := b.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	changed, stop := b.Watch()
	defer stop()
	ctx := t.Context()
	if got, _ := b.Blocked(ctx, "cy", "bob"); got {
		t.Fatal("blocked before any block")
	}
	if err := a.Block(ctx, "bob", "Cy", true); err != nil {
		t.Fatal(err)
	}
	select {
	case who := <-changed:
		if who != "bob" {
			t.Errorf("Watch told %q, want bob", who)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the other node heard nothing within 5 s")
	}
	if got, _ := b.Blocked(ctx, "cy", "bob"); !got {
		t.Error("the other node does not see the block")
	}
}
