package protocol

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia"
)

// TestLeanExpands: for every seat and a spectator at every other moment
// of a random game of each size, the game's information varied, the
// lean state of version 2, decoded and expanded, is the whole state of
// version 1 decoded, but for game.updated while the game is played; and
// it leaves out what it promises to.
func TestLeanExpands(t *testing.T) {
	names := []string{"Miriam", `<b>Felix</b> & "co"`, "Zoë", "Ann\\", "Ed"}
	for i := range razzia.MaxPlayers - razzia.MinPlayers + 1 {
		players := razzia.MinPlayers + i%(razzia.MaxPlayers-razzia.MinPlayers+1)
		g, err := razzia.NewGame(razzia.Setup{Players: names[:players], Seed: []byte{byte(i), 'l'}})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 11))
		for step := 0; ; step++ {
			info := gameInfo(g, step+i, names[:players])
			if step%4 == 2 {
				to := g.ToMove()
				info.ToMove = &to // as a server says it
			}
			for seat := -1; seat < players && step%2 == 0; seat++ {
				v := NewView(g.View(seat))
				since := max(0, g.Len()-2)
				if step%10 == 0 {
					since = 0 // every roundend so far
				}
				m := StateMessage{Type: TypeState, Game: info, Seat: seat, View: &v, Version: int64(step + 1),
					Events: Events(g.EventsSince(since), names[:players], nil)}
				if step%9 == 0 {
					m.View = nil
				}
				if step%6 == 4 {
					m.Game.Status = StatusFinished // as a finished game's read back says
				}
				checkLean(t, &m)
			}
			if g.Over() {
				break
			}
			legal := g.LegalMoves()
			if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func checkLean(t *testing.T, m *StateMessage) {
	t.Helper()
	whole, err := m.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	l := *m
	l.Events = slices.Clone(m.Events)
	LeanEvents(l.Events, l.View)
	lean, err := l.AppendLean(nil)
	if err != nil {
		t.Fatal(err)
	}
	var want, got Message
	if err := json.Unmarshal(whole, &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(lean, &got); err != nil {
		t.Fatal(err)
	}
	if err := Expand(&got, lean); err != nil {
		t.Fatalf("Expand: %v\n%s", err, lean)
	}
	ExpandEvents(&got)
	if m.Game.Status == StatusPlaying {
		want.Game.Updated = time.Time{}
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("the lean state\n%s\nexpands to\n%s\nwant\n%s", lean, g, w)
	}
	state, err := m.AppendState(nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.View != nil && bytes.Contains(lean, []byte(`"kind":"roundend","round":1,"scores"`)) && len(m.View.Seats[0].Scores) > 0 {
		t.Fatalf("the lean events keep a roundend's scores: %s", lean)
	}
	for _, left := range []string{`"legalMoves"`, `"raid"`, `"bidding"`, `"total":`, `"highBid"`} {
		if left == `"total":` {
			// Only the seats' totals, never a score's.
			if bytes.Count(state, []byte(left)) > len(want.Game.Seats) {
				t.Fatalf("the lean state keeps scores' totals: %s", state)
			}
			continue
		}
		if bytes.Contains(state, []byte(left)) {
			t.Fatalf("the lean state keeps %s: %s", left, state)
		}
	}
	if m.View != nil && (bytes.Contains(state, []byte(`"updated"`)) == (m.Game.Status == StatusPlaying) ||
		bytes.Count(state, []byte(`"moves"`)) != 1) {
		t.Fatalf("the lean state's game keeps what the view says: %s", state)
	}
}

// TestLeanAuctionAllocs: a running auction's view encodes lean without
// an allocation, its bidding left out when the bids say it, and kept
// when they do not.
func TestLeanAuctionAllocs(t *testing.T) {
	bids := []string{"bid 7", "pass", "passed over", "undecided"}
	a := &AuctionView{Kind: "police", HighBid: 7, HighBidder: 0, Bids: bids, Bidding: leanBidding(bids)}
	buf := make([]byte, 0, 512)
	if n := testing.AllocsPerRun(10, func() { buf = a.appendJSON(buf[:0], true) }); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
	if strings.Contains(string(buf), "bidding") {
		t.Errorf("the bidding the bids say is encoded: %s", buf)
	}
	other := *a
	other.Bidding = append([]Bid{{State: "bid", Cheque: 8}}, a.Bidding[1:]...)
	if b := other.appendJSON(nil, true); !strings.Contains(string(b), `"bidding"`) {
		t.Errorf("a bidding the bids do not say is left out: %s", b)
	}
	other.Bidding = a.Bidding[:3]
	if b := other.appendJSON(nil, true); !strings.Contains(string(b), `"bidding"`) {
		t.Errorf("a shorter bidding is left out: %s", b)
	}
}

// TestAppendLeanEvents: the events of a patch are those Events makes,
// lean for the view, encoded: a list even of none, and made without an
// allocation of their own.
func TestAppendLeanEvents(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke"}, Seed: []byte("lean events")})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	buf := make([]byte, 0, 4096)
	for from := 0; ; from = g.Len() {
		more := playOn(t, g, rng)
		v := NewView(g.View(-1))
		for _, events := range [][]razzia.Event{g.EventsSince(from), g.EventsSince(0), nil} {
			want := Events(events, nil, nil)
			LeanEvents(want, &v)
			wb, err := AppendEvents(nil, want)
			if err != nil {
				t.Fatal(err)
			}
			got, err := AppendLeanEvents(nil, events, &v)
			if err != nil || string(got) != string(wb) {
				t.Fatalf("move %d: %s (%v), want %s", g.Len(), got, err, wb)
			}
		}
		events := g.EventsSince(from)
		if n := testing.AllocsPerRun(3, func() { buf, _ = AppendLeanEvents(buf[:0], events, &v) }); len(events) <= 8 && n != 0 {
			t.Fatalf("move %d: %v allocations for %d events", g.Len(), n, len(events))
		}
		if !more {
			break
		}
	}
}

// TestAreRoundScores: areRoundScores is roundScores compared, at every
// edge: no view, no seats, a seat without the round, other lengths.
func TestAreRoundScores(t *testing.T) {
	a, b := razzia.Score{1, 2, 3}, razzia.Score{4, 5, 6}
	both := &View{Seats: []SeatView{{Scores: []razzia.Score{a}}, {Scores: []razzia.Score{b}}}}
	short := &View{Seats: []SeatView{{Scores: []razzia.Score{a}}, {}}}
	for _, v := range []*View{nil, {}, both, short} {
		for _, scores := range [][]razzia.Score{nil, {}, {a}, {a, b}, {b, a}, {a, b, a}} {
			for round := range 3 {
				if got, want := v.areRoundScores(scores, round), slices.Equal(scores, v.roundScores(round)); got != want {
					t.Errorf("view %+v, scores %v, round %d: %v, want %v", v, scores, round, got, want)
				}
			}
		}
	}
}
