package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// testRematch: a rematch names the game it follows from its creation on,
// and a finished game's offer changes only from the offer the writer read
// (a compare-and-set), so two nodes offering at once store one offer.
func testRematch(t *testing.T, s store.Store) {
	old := newGame("rematch001", store.StatusFinished, 0)
	create(t, s, old)
	next := newGame("rematch002", store.StatusPlaying, 0)
	next.RematchOf = old.ID
	create(t, s, next)
	checkGame(t, s, next)

	notices, err := s.Subscribe(ctx(t), store.ChangesChannel)
	if err != nil {
		t.Fatalf("Subscribe: %v", err)
	}
	if err := s.SetRematch(ctx(t), old.ID, nil, []byte(`{"by":0}`)); err != nil {
		t.Fatalf("SetRematch: %v", err)
	}
	if got := get(t, s, old.ID); string(got.Rematch) != `{"by":0}` || !got.Updated.Equal(old.Updated) {
		t.Errorf("after SetRematch: Rematch %q, Updated %v; want {\"by\":0}, %v", got.Rematch, got.Updated, old.Updated)
	}
	for announced := false; !announced; {
		select {
		case n := <-notices:
			c, err := store.ParseChange(n.Payload)
			announced = err == nil && c.Game == old.ID && c.Kind == store.ChangeRematch
		case <-time.After(10 * time.Second):
			t.Fatal("SetRematch was not announced on ChangesChannel")
		}
	}
	for _, c := range []struct {
		name     string
		id       string
		old, new string
		want     error
	}{
		{"offer read before another", old.ID, "", `{"by":1}`, store.ErrConflict},
		{"offer changed meanwhile", old.ID, `{"by":2}`, `{"by":1}`, store.ErrConflict},
		{"game not finished", next.ID, "", `{"by":1}`, store.ErrConflict},
		{"unknown game", "nosuchgame", "", `{"by":1}`, store.ErrNotFound},
	} {
		var prev []byte
		if c.old != "" {
			prev = []byte(c.old)
		}
		if err := s.SetRematch(ctx(t), c.id, prev, []byte(c.new)); !errors.Is(err, c.want) {
			t.Errorf("%s: SetRematch = %v, want %v", c.name, err, c.want)
		}
	}
	if err := s.SetRematch(ctx(t), old.ID, []byte(`{"by":0}`), []byte(`{"by":0,"game":"rematch002"}`)); err != nil {
		t.Fatalf("SetRematch from the offer read: %v", err)
	}
	if got := get(t, s, old.ID); string(got.Rematch) != `{"by":0,"game":"rematch002"}` {
		t.Errorf("Rematch = %q, want the second offer", got.Rematch)
	}
	if err := s.SetRematch(ctx(t), old.ID, nil, nil); err == nil {
		t.Error("SetRematch with no offer succeeded")
	}
}
