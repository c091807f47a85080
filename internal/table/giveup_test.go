package table

import (
	"testing"

	"github.com/razziagame/razzia/internal/store/memstore"
)

// A guest who will not play after all gives their seat up before the
// start: their token stops working, everyone watching sees the seat
// open, and someone else takes it. Another's seat, a stranger and a
// started game are refused, and a refusal changes nothing.
func TestGiveUp(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	h := newHub(t, st)
	in, creator, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	_, guest, _ := h.Join(ctx, in.ID, 0, Person{Name: "Gus"})
	mine, err := h.Watch(ctx, in.ID, Watcher{Token: guest})
	if err != nil {
		t.Fatal(err)
	}
	spectator, _ := h.Watch(ctx, in.ID, Watcher{})
	next(t, ctx, mine)
	next(t, ctx, spectator)
	before, _ := st.Game(ctx, in.ID)
	for _, c := range []struct {
		name  string
		token string
		seat  int
		kind  error
	}{
		{"no token", "", 0, ErrNotYourSeat},
		{"the creator's token", creator, 0, ErrNotYourSeat},
		{"another seat", guest, 1, ErrNotYourSeat},
		{"the bot's seat", guest, 2, ErrNotYourSeat},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantKind(t, h.GiveUp(ctx, in.ID, c.token, c.seat), c.kind)
			if g, _ := st.Game(ctx, in.ID); !g.Equal(before) {
				t.Fatalf("a refused give-up changed the game: %+v", g)
			}
		})
	}
	if err := h.GiveUp(ctx, in.ID, guest, 0); err != nil {
		t.Fatalf("GiveUp: %v", err)
	}
	for name, sub := range map[string]*Subscription{"spectator": spectator, "the guest": mine} {
		u, _ := next(t, ctx, sub)
		if !u.Game.Seats[0].Open || u.Seat != -1 {
			t.Errorf("%s sees seat 0 %+v, as seat %d; want it open, as a spectator", name, u.Game.Seats[0], u.Seat)
		}
	}
	if g, _ := st.Game(ctx, in.ID); g.Seats[0].Name != "" || g.Seats[0].TokenHash != nil {
		t.Errorf("stored seat 0 after giving it up: %+v", g.Seats[0])
	}
	if seat, _, err := h.Join(ctx, in.ID, 0, Person{Name: "Ann"}); err != nil || seat != 0 {
		t.Fatalf("the freed seat: %d, %v", seat, err)
	}
	_, bob, _ := h.Join(ctx, in.ID, 1, Person{Name: "Bob"})
	wantKind(t, h.GiveUp(ctx, in.ID, guest, 0), ErrNotYourSeat)
	wantKind(t, h.GiveUp(ctx, in.ID, bob, 1), ErrAlreadyStarted)
	if g, _ := st.Game(ctx, in.ID); g.Seats[1].Name != "Bob" {
		t.Errorf("a give-up refused after the start changed seat 1: %+v", g.Seats[1])
	}
}
