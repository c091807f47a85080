package protocol

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia"
)

func TestViewOfAnAuction(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke", "Dennis"},
		Cheques: [][]int{{3, 7, 12}, {4, 8, 11}, {5, 9, 10}, {2, 6, 13}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{"draw watch", "draw car", "draw car", "draw car", "draw police", "bid 7"} {
		if err := g.PlayToken(tok); err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
	}
	back, _ := throughJSON(t, NewView(g.View(1)))
	checks := []struct {
		name      string
		got, want any
	}{
		{"seat", back.Seat, 1},
		{"moves", back.Moves, 6},
		{"phase", back.Phase, "auction"},
		{"toMove", back.ToMove, 1},
		{"police", back.Police, 1},
		{"row", strings.Join(back.Row, ","), "watch,car,car,car"},
		{"deckLeft", back.DeckLeft, razzia.DeckSize - 5},
		{"remaining police", back.Remaining["police"], 20},
		{"remaining car", back.Remaining["car"], 13},
		{"auction kind", back.Auction.Kind, "police"},
		{"initiator", back.Auction.Initiator, 3},
		{"high bid", back.Auction.HighBid, 7},
		{"bids", strings.Join(back.Auction.Bids, ","), "bid 7,undecided,undecided,undecided"},
		{"Felix face up", len(back.Seats[1].FaceUp), 3},
		{"legal", strings.Join(back.Legal, ","), "pass,bid 8,bid 11"},
		{"typed bid", back.Auction.Bidding[0], Bid{State: "bid", Cheque: 7}},
		{"typed undecided", back.Auction.Bidding[1], Bid{State: "undecided"}},
		{"typed legal pass", back.LegalMoves[0].Action, "pass"},
		{"typed legal bid", back.LegalMoves[2].Cheque, 11},
		{"typed legal token", back.LegalMoves[2].Token, "bid 11"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if spectator := NewView(g.View(-1)); len(spectator.Legal) != 0 || spectator.Seat != -1 {
		t.Errorf("spectator view has seat %d and legal moves %v", spectator.Seat, spectator.Legal)
	}
}

// TestViewStakes checks that a view carries what is at stake as the engine
// computes it, for every seat and for each of the seat's bids, through
// JSON, and the raid risk with what it derives; once the game is over
// nothing is at stake.
func TestViewStakes(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke"}, Seed: []byte("stakes")})
	if err != nil {
		t.Fatal(err)
	}
	bids := 0
	for !g.Over() {
		s := g.State()
		back, data := throughJSON(t, NewView(g.View(s.ToMove())))
		want := s.Stakes(nil)
		if len(back.Stakes) != len(want) {
			t.Fatalf("move %d: %d stakes, want %d", g.Len(), len(back.Stakes), len(want))
		}
		for i, st := range want {
			if back.Stakes[i] != st {
				t.Fatalf("move %d: stake %d is %+v, want %+v", g.Len(), i, back.Stakes[i], st)
			}
		}
		if back.Raid != s.RaidRisk() {
			t.Fatalf("move %d: raid %+v, want %+v", g.Len(), back.Raid, s.RaidRisk())
		}
		if !strings.Contains(string(data), `"toRaid":`) || !strings.Contains(string(data), `"chance":`) {
			t.Fatalf("the raid risk lacks what it derives: %s", data)
		}
		for _, m := range back.LegalMoves {
			switch {
			case m.Action == "bid" && (m.Gain == nil || *m.Gain != s.Stake(s.ToMove(), m.Cheque)):
				t.Fatalf("move %d: %s gains %v, want %v", g.Len(), m.Token, m.Gain, s.Stake(s.ToMove(), m.Cheque))
			case m.Action == "bid":
				bids++
			case m.Gain != nil:
				t.Fatalf("move %d: %s has a gain", g.Len(), m.Token)
			}
		}
		legal := g.LegalMoves()
		if err := g.Play(legal[(g.Len()*5)%len(legal)]); err != nil {
			t.Fatal(err)
		}
	}
	if bids == 0 {
		t.Fatal("the game offered no bid")
	}
	if over := NewView(g.View(-1)); len(over.Stakes) != 0 || over.Stakes == nil {
		t.Errorf("a game over has stakes %v", over.Stakes)
	}
}

// throughJSON returns the view as a client decodes it, and its JSON.
func throughJSON(t *testing.T, v View) (View, []byte) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back View
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	return back, data
}

// TestForSeat checks that a seat's view derived from the public one is
// the view built for the seat, at every moment of whole games of two to
// five players: the engine hides nothing else from one seat.
func TestForSeat(t *testing.T) {
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		names := []string{"Miriam", "Felix", "Elke", "Dennis", "Ann"}[:players]
		g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte{byte(players)}})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; ; i++ {
			public := NewView(g.View(-1))
			for seat := range players {
				want, err := json.Marshal(NewView(g.View(seat)))
				if err != nil {
					t.Fatal(err)
				}
				got, err := json.Marshal(public.ForSeat(g.View(seat)))
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Fatalf("%d players, move %d, seat %d:\n got %s\nwant %s", players, g.Len(), seat, got, want)
				}
			}
			if g.Over() {
				break
			}
			legal := g.LegalMoves()
			if err := g.Play(legal[i%len(legal)]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestClockViewLeft(t *testing.T) {
	c := &ClockView{ReserveMs: []int64{60000, 45000}, Running: 1, DecisionEnds: 10000, Deadline: 55000, ServerTime: 0}
	for _, tc := range []struct {
		name              string
		seat              int
		now               int64
		running           bool
		decision, reserve time.Duration
	}{
		{"start", 1, 0, true, 10 * time.Second, 45 * time.Second},
		{"in the decision time", 1, 4000, true, 6 * time.Second, 45 * time.Second},
		{"in the reserve", 1, 15000, true, 0, 40 * time.Second},
		{"past the deadline", 1, 99000, true, 0, 0},
		{"a seat waiting", 0, 30000, false, 0, time.Minute},
		{"no such seat", 5, 0, false, 0, 0},
	} {
		running, dec, res := c.Left(tc.seat, tc.now)
		if running != tc.running || dec != tc.decision || res != tc.reserve {
			t.Errorf("%s: Left = %v, %v, %v; want %v, %v, %v", tc.name, running, dec, res, tc.running, tc.decision, tc.reserve)
		}
	}
}

// TestNewViewAfter plays random games and checks that a view made after
// the previous move's, or after another game's, is the view made alone,
// and that the view shared from is left as it was.
func TestNewViewAfter(t *testing.T) {
	encode := func(v View) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		for seed := range 5 {
			names := []string{"Miriam", "Felix", "Elke", "Dennis", "Ann"}[:players]
			g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte{byte(players), byte(seed)}})
			if err != nil {
				t.Fatal(err)
			}
			other, err := razzia.NewGame(razzia.Setup{Players: []string{"A", "B", "C", "D", "E"}[:players], Seed: []byte{9, byte(seed)}})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(players), uint64(seed)))
			prev := NewView(g.View(-1))
			for playOn(t, g, rng) {
				playOn(t, other, rng)
				was := encode(prev)
				want := encode(NewView(g.View(-1)))
				next := NewViewAfter(g.View(-1), &prev)
				if got := encode(next); got != want {
					t.Fatalf("%d players, seed %d, move %d: after the previous view\n got %s\nwant %s", players, seed, g.Len(), got, want)
				}
				if encode(prev) != was {
					t.Fatalf("%d players, seed %d, move %d: the previous view changed", players, seed, g.Len())
				}
				o := NewView(other.View(-1))
				if got := encode(NewViewAfter(g.View(-1), &o)); got != want {
					t.Fatalf("%d players, seed %d, move %d: after another game's view\n got %s\nwant %s", players, seed, g.Len(), got, want)
				}
				prev = next
			}
		}
	}
}

// BenchmarkNewView makes the spectators' view of every moment of a game
// of four, alone ("alone") and sharing with the previous moment's
// ("after"), as a table's host does at every move.
func BenchmarkNewView(b *testing.B) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke", "Dennis"}, Seed: []byte("bench")})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var moments []razzia.View
	for {
		moments = append(moments, g.View(-1))
		if !playOn(b, g, rng) {
			break
		}
	}
	for _, after := range []bool{false, true} {
		b.Run(map[bool]string{false: "alone", true: "after"}[after], func(b *testing.B) {
			b.ReportAllocs()
			var prev *View
			for i := 0; b.Loop(); i++ {
				v := moments[i%len(moments)]
				if after {
					next := NewViewAfter(v, prev)
					prev = &next
				} else {
					NewView(v)
				}
			}
		})
	}
}

// TestNewViewAfterAllocs: a table's view after a move, the spectators'
// and the mover's, costs few allocations: its row, stakes and auction
// take one, the seats none when no seat changed, and a legal move's
// token is made once.
func TestNewViewAfterAllocs(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke", "Dennis"}, Seed: []byte("allocs")})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	prev, allocs, moves := NewView(g.View(-1)), 0.0, 0
	for playOn(t, g, rng) {
		public, mover := g.View(-1), g.View(g.ToMove())
		allocs += testing.AllocsPerRun(1, func() {
			next := NewViewAfter(public, &prev)
			next.ForSeat(mover)
		})
		prev = NewViewAfter(public, &prev)
		moves++
	}
	if got, want := allocs/float64(moves), 5.0; got > want {
		t.Errorf("%.2f allocations a move, want at most %v", got, want)
	}
	t.Logf("%.2f allocations a move over %d moves", allocs/float64(moves), moves)
}

// TestLegalOf: the legal moves' lists, however many there are (each
// size of legalOf's room and beyond), name each move once in both forms,
// with a bid's gain, and are full at their length.
func TestLegalOf(t *testing.T) {
	sizes := map[int]bool{}
	for seed := range 40 {
		g, err := razzia.NewGame(razzia.Setup{Players: []string{"Miriam", "Felix", "Elke", "Dennis"}, Seed: []byte{byte(seed), 5}})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(seed), 5))
		for playOn(t, g, rng) {
			v := g.View(g.ToMove())
			tokens, typed := legalOf(v)
			sizes[len(v.Legal)] = true
			if len(tokens) != len(v.Legal) || len(typed) != len(v.Legal) || cap(tokens) != len(tokens) || cap(typed) != len(typed) {
				t.Fatalf("move %d: %d legal moves, lists of %d/%d and %d/%d", g.Len(), len(v.Legal), len(tokens), cap(tokens), len(typed), cap(typed))
			}
			for i, m := range v.Legal {
				want := MoveOf(m)
				if m.Action == razzia.ActionBid {
					gain := v.State.Stake(v.State.ToMove(), int(m.Cheque))
					want.Gain = &gain
				}
				if tokens[i] != m.String() || !reflect.DeepEqual(typed[i], want) {
					t.Fatalf("move %d: legal %d: %q %+v, want %q %+v", g.Len(), i, tokens[i], typed[i], m.String(), want)
				}
			}
		}
	}
	if !sizes[2] || !sizes[5] || !sizes[6] {
		t.Errorf("the games had %v legal moves, not each size of legalOf's room and beyond", sizes)
	}
}
