package client_test

import (
	"testing"

	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// TestRematch: at the end of a game the session offers a rematch, which
// the bot accepts; the connection still open hears it as a state with
// the offer, and the session follows the rematch with the seat's token.
func TestRematch(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	c := newClient(t, srv)
	ctx := servertest.Context(t)
	info, _, err := c.Create(ctx, []string{"", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	seat, token, err := c.Join(ctx, info.ID, "Ann", -1)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Session(info.ID, token)
	defer s.Close()
	playToEnd(t, ctx, s, nil)
	offer, next, err := s.Rematch(ctx, true)
	if err != nil || offer.State != protocol.RematchStarted || next != token {
		t.Fatalf("Rematch = %+v, %q, %v; want started, the same token", offer, next, err)
	}
	for {
		st, err := s.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Offer != nil && st.Offer.State == protocol.RematchStarted {
			if st.Game.ID != info.ID || !st.Over() || len(st.Events) != 0 {
				t.Errorf("the offer came with game %s (over %t, %d events), want the finished game again", st.Game.ID, st.Over(), len(st.Events))
			}
			break
		}
	}
	if _, _, err := s.Rematch(ctx, true); !isCode(err, protocol.RematchRefused) {
		t.Errorf("a second offer: %v, want rematch_refused", err)
	}
	f := s.Follow(offer.Game, next)
	defer f.Close()
	st, err := f.Next(ctx)
	if err != nil || st.Seat != seat || st.Game.RematchOf != info.ID {
		t.Fatalf("the rematch: seat %d, rematchOf %q, %v; want seat %d of a rematch of %s", st.Seat, st.Game.RematchOf, err, seat, info.ID)
	}
}

func isCode(err error, code protocol.Code) bool {
	e, ok := err.(*client.Error)
	return ok && e.Code == code
}
