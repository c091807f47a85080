package table

import (
	"reflect"
	"testing"

	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestFinishedDescribedAsLive: a finished game read back (by another hub,
// as another node or a restarted server does) has the pace and the
// take-overs its game's goroutine showed at its end.
func TestFinishedDescribedAsLive(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	h := newHub(t, st)
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}, Pace: "untimed"}))
	if err != nil {
		t.Fatal(err)
	}
	_, ann, err := h.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := h.Watch(ctx, in.ID, Watcher{Token: ann})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	var live Update
	for live.View == nil || live.View.Phase != "over" {
		live, _ = next(t, ctx, sub)
		if v := live.View; v != nil && v.MyTurn() {
			if err := h.Play(ctx, in.ID, ann, v.Legal[0], v.Moves); err != nil {
				t.Fatal(err)
			}
		}
	}
	read, err := newHub(t, st).Watch(ctx, in.ID, Watcher{Token: ann})
	if err != nil {
		t.Fatal(err)
	}
	defer read.Close()
	u, _ := next(t, ctx, read)
	if live.Game.Pace == nil || !reflect.DeepEqual(u.Game.Pace, live.Game.Pace) || !reflect.DeepEqual(u.TakeOvers, live.TakeOvers) {
		t.Errorf("read back: pace %+v, take-overs %v; at its end: pace %+v, take-overs %v", u.Game.Pace, u.TakeOvers, live.Game.Pace, live.TakeOvers)
	}
}
