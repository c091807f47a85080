package protocol

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/razziagame/razzia"
)

// TestStateDiffAsWhole: the patch of every seat's state (SeatState) into
// the next, made from the spectators' patch of the change kept member by
// member (DiffStates, StateDiff.AppendDiff), is byte for byte the patch
// AppendStateDiff makes of the two states alone, at every moment of
// random games of 2 to 5 players with pre-moves, open tables and the
// optional parts of the game by turns; so is the patch between states
// the memo was not made of (found from bytes, two moves apart) and the
// spectators' own (go test -patch-games 3000 for thousands).
func TestStateDiffAsWhole(t *testing.T) {
	games := *manyGames
	if games == 0 {
		games = 8
	}
	names := []string{"Miriam", `<b>Felix</b> & "co"`, "Zoë", "Ann\\", "Ed"}
	for i := range games {
		players := razzia.MinPlayers + i%(razzia.MaxPlayers-razzia.MinPlayers+1)
		g, err := razzia.NewGame(razzia.Setup{Players: names[:players], Seed: []byte{byte(i), byte(i >> 8), 'd'}})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 11))
		var prevPublic *State
		prev, older := map[int]*State{}, map[int]*State{}
		for step := 0; ; step++ {
			pm, public := publicMoment(t, g, gameInfo(g, step+i, names[:players]), step%9 == 0)
			var memo *StateDiff
			if prevPublic != nil {
				if memo, err = DiffStates(prevPublic, public); err != nil {
					t.Fatal(err)
				}
				want, same, _ := AppendStateDiff(nil, prevPublic, public)
				if string(memo.Patch) != string(want) || same != (memo.Patch == nil) {
					t.Fatalf("game %d, move %d: the spectators' patch %s, want %s", i, g.Len(), memo.Patch, want)
				}
			}
			for seat := -1; seat < players; seat++ {
				m := seatMoment(g, pm, seat, step)
				st, err := SeatState(public, &m)
				if err != nil {
					t.Fatal(err)
				}
				found, err := NewState(st.encoded())
				if err != nil {
					t.Fatal(err)
				}
				what := fmt.Sprintf("game %d, move %d, seat %d", i, g.Len(), seat)
				if memo != nil {
					pairs := []struct{ a, b *State }{{prev[seat], st}, {prev[seat], found}, {st, prev[seat]}, {prevPublic, public}}
					if o := older[seat]; o != nil {
						pairs = append(pairs, struct{ a, b *State }{o, st})
					}
					for _, c := range pairs {
						p, same, err := memo.AppendDiff([]byte("x"), c.a, c.b)
						q, sameQ, errQ := AppendStateDiff([]byte("x"), c.a, c.b)
						if err != nil || errQ != nil || string(p) != string(q) || same != sameQ {
							t.Fatalf("%s: from the memo %s (%t, %v), whole %s (%t, %v)", what, p, same, err, q, sameQ, errQ)
						}
					}
				}
				older[seat], prev[seat] = prev[seat], st
			}
			prevPublic = public
			if !playOn(t, g, rng) {
				break
			}
		}
	}
}

// publicMoment returns the spectators' state message of g's moment (an
// open table's, without a view) and its state.
func publicMoment(t testing.TB, g *razzia.Game, info GameInfo, open bool) (StateMessage, *State) {
	pv := NewView(g.View(-1))
	pm := StateMessage{Type: TypeState, Game: info, Seat: -1, View: &pv}
	if open {
		pm.View = nil
	}
	pdoc, err := pm.AppendState(nil)
	if err != nil {
		t.Fatal(err)
	}
	public, err := NewState(pdoc)
	if err != nil {
		t.Fatal(err)
	}
	return pm, public
}

// seatMoment returns the seat's state message of the moment of pm
// (publicMoment's), with pre-moves by turns of step.
func seatMoment(g *razzia.Game, pm StateMessage, seat, step int) StateMessage {
	m := pm
	m.Seat = seat
	m.PreMove, m.PreMoveDropped = []string{"", "bid 9"}[(step+seat+2)%2], []string{"", "", "a higher bid"}[(step+seat+3)%3]
	if pm.View != nil {
		m.View = pm.View.ForSeat(g.View(seat))
	}
	return m
}

// playOn plays one of g's legal moves at random; false once g is over.
func playOn(t testing.TB, g *razzia.Game, rng *rand.Rand) bool {
	if g.Over() {
		return false
	}
	legal := g.LegalMoves()
	if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
		t.Fatal(err)
	}
	return true
}

// BenchmarkSeatDiffs is a server's work to patch one change for four
// seats and the spectators: "whole" diffs each seat's states alone
// (AppendStateDiff), "shared" makes the spectators' patch once and the
// seats' from it (DiffStates, StateDiff.AppendDiff).
func BenchmarkSeatDiffs(b *testing.B) {
	names := []string{"Load 1.0", "Load 1.1", "Load 1.2", "Load 1.3"}
	g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte("bench")})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	type moment struct{ public, seats []*State }
	var moments []moment
	for !g.Over() {
		pv := NewView(g.View(-1))
		pm := StateMessage{Type: TypeState, Game: gameInfo(g, 3, names), Seat: -1, View: &pv}
		doc, _ := pm.AppendState(nil)
		public, _ := NewState(doc)
		mo := moment{public: []*State{public}}
		for seat := range names {
			m := pm
			m.Seat, m.View = seat, pv.ForSeat(g.View(seat))
			st, err := SeatState(public, &m)
			if err != nil {
				b.Fatal(err)
			}
			mo.seats = append(mo.seats, st)
		}
		moments = append(moments, mo)
		legal := g.LegalMoves()
		g.Play(legal[rng.IntN(len(legal))])
	}
	for _, shared := range []bool{false, true} {
		b.Run(map[bool]string{false: "whole", true: "shared"}[shared], func(b *testing.B) {
			var dst []byte
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				k := i % (len(moments) - 1)
				from, to := moments[k], moments[k+1]
				if !shared {
					dst, _, _ = AppendStateDiff(dst[:0], from.public[0], to.public[0])
					for s := range from.seats {
						dst, _, _ = AppendStateDiff(dst[:0], from.seats[s], to.seats[s])
					}
					continue
				}
				memo, _ := DiffStates(from.public[0], to.public[0])
				for s := range from.seats {
					dst, _, _ = memo.AppendDiff(dst[:0], from.seats[s], to.seats[s])
				}
			}
		})
	}
}

// TestStateAllocations: a server's state (AppendState's, its clocks and
// take-overs too) and a whole message of version 2 are found in one
// allocation (NewState), and a seat's state made from the spectators' in
// one (SeatState), at every moment of random games of 2 to 5 players:
// their members fit the room made for them.
func TestStateAllocations(t *testing.T) {
	names := []string{"Miriam", "Felix", "Zoë", "Ann", "Ed"}
	for i := range 4 {
		players := razzia.MinPlayers + i%(razzia.MaxPlayers-razzia.MinPlayers+1)
		g, err := razzia.NewGame(razzia.Setup{Players: names[:players], Seed: []byte{byte(i), 'a'}})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 3))
		for step := 0; ; step++ {
			pm, public := publicMoment(t, g, gameInfo(g, step+i, names[:players]), false)
			pm.Clock = &ClockView{ReserveMs: []int64{1, 2}, Running: 1}
			pm.TakeOvers = []TakeOver{{Seat: 1, Bot: "easy", Reason: ReasonTimeout}}
			whole := seatMoment(g, pm, step%players, 1)
			whole.Events, whole.Version = Events(g.EventsSince(max(0, g.Len()-1)), nil, nil), int64(step+1)
			for _, m := range []StateMessage{pm, whole} {
				doc, err := m.AppendLean(nil)
				if err != nil {
					t.Fatal(err)
				}
				if n := testing.AllocsPerRun(3, func() { NewState(doc) }); n != 1 {
					t.Fatalf("game %d, move %d: NewState made %v allocations of %s", i, g.Len(), n, doc)
				}
			}
			m := seatMoment(g, pm, step%players, step)
			if n := testing.AllocsPerRun(3, func() { SeatState(public, &m) }); n != 1 {
				t.Fatalf("game %d, move %d: SeatState made %v allocations", i, g.Len(), n)
			}
			if !playOn(t, g, rng) {
				break
			}
			// The spectators' patch of the move, with its members, in one
			// allocation where it fits.
			_, next := publicMoment(t, g, gameInfo(g, step+i+1, names[:players]), false)
			d, err := DiffStates(public, next)
			if err != nil {
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(3, func() { DiffStates(public, next) }); cap(d.Patch) <= len(d.patchBuf) && n != 1 {
				t.Fatalf("game %d, move %d: DiffStates made %v allocations for a patch of %d bytes", i, g.Len(), n, len(d.Patch))
			}
		}
	}
}

// TestSameOwn: the patch of a seat that is not to move before or after a
// move, with the same pre-moves, is its spectators' (the memo's patch
// taken whole); a seat to move at one of the moments, or whose pre-move
// changed, is diffed.
func TestSameOwn(t *testing.T) {
	names := []string{"Miriam", "Felix", "Zoë", "Ann"}
	g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte("same own")})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 6))
	// states returns each seat's state of the moment, without pre-moves
	// or with one dropped.
	states := func(step int) (plain, dropped [4]*State) {
		pm, public := publicMoment(t, g, gameInfo(g, step, names), false)
		for seat := range names {
			m := seatMoment(g, pm, seat, 0)
			m.PreMove, m.PreMoveDropped = "", ""
			if plain[seat], err = SeatState(public, &m); err != nil {
				t.Fatal(err)
			}
			m.PreMoveDropped = "a higher bid"
			if dropped[seat], err = SeatState(public, &m); err != nil {
				t.Fatal(err)
			}
		}
		return plain, dropped
	}
	prev, _ := states(0)
	for step := 1; ; step++ {
		was := g.ToMove()
		if !playOn(t, g, rng) {
			break
		}
		plain, dropped := states(step)
		for seat := range names {
			moved, moves := seat == was, seat == g.ToMove()
			if moved && moves {
				continue // its moves may be the same, or not
			}
			want := !moved && !moves
			if got := sameOwn(prev[seat], plain[seat]); got != want {
				t.Fatalf("move %d, seat %d (to move %d then %d): sameOwn %t", g.Len(), seat, was, g.ToMove(), got)
			}
			if sameOwn(prev[seat], dropped[seat]) {
				t.Fatalf("move %d, seat %d: a pre-move dropped is the same", g.Len(), seat)
			}
		}
		prev = plain
	}
}
