package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/razziagame/razzia/internal/protocol"
)

// TestPlayNowGuestAcrossNodes: two servers on one PostgreSQL database. A
// guest's page and request are on one node; another guest joins the
// request on the other node, which pairs them: the first guest's page
// hears "table found" (its request paired, with the game and the seat)
// through presence, from the other node, and takes the seat there.
func TestPlayNowGuestAcrossNodes(t *testing.T) {
	node := pgNodes(t)
	a, b := node(), node()
	ann, bob := newBrowser(t, b), newBrowser(t, a)
	ann.must(http.MethodGet, "/api/seeks", nil, nil) // the guest cookie
	ws := ann.meetWS()
	var mine protocol.SeekAnswer
	ann.must(http.MethodPost, "/api/seeks", protocol.SeekRequest{Min: 2, Pace: "rapid", Name: "Ann"}, &mine)
	if mine.Seek.Status != protocol.SeekOpen {
		t.Fatalf("Ann's request: %+v", mine.Seek)
	}
	var joined protocol.SeekAnswer
	bob.must(http.MethodPost, "/api/seeks/"+mine.Seek.ID+"/join", protocol.SeekJoinRequest{Name: "Bob"}, &joined)
	if joined.Seek.Status != protocol.SeekPaired || joined.Seek.Game == "" {
		t.Fatalf("Bob's click on the other node: %+v", joined.Seek)
	}
	// The page heard of its request made, then of it paired.
	m := nextMeet(t, ws, protocol.TypeSeek)
	for m.Seek != nil && m.Seek.Status == protocol.SeekOpen {
		m = nextMeet(t, ws, protocol.TypeSeek)
	}
	if m.Seek == nil || m.Seek.ID != mine.Seek.ID || m.Seek.Status != protocol.SeekPaired || m.Seek.Game != joined.Seek.Game || m.Seek.Seat == nil || !m.Seek.Mine {
		t.Fatalf("Ann's page is told %+v", m.Seek)
	}
	// The seat is hers on either node: the cookie the guest has names her.
	onA := &browser{t: t, srv: a, hc: ann.hc}
	var seat protocol.SeekSeatAnswer
	onA.must(http.MethodPost, "/api/seeks/"+mine.Seek.ID+"/seat", nil, &seat)
	if seat.Seat != *m.Seek.Seat || seat.Game.ID != joined.Seek.Game {
		t.Errorf("Ann's seat: %+v, told seat %d", seat, *m.Seek.Seat)
	}
}
