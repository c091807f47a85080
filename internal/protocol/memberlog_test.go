package protocol

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/razziagame/razzia"
)

// TestEncodeState: EncodeState's state is NewState's of AppendState's
// document, member by member, for the spectators and every seat (with
// pre-moves, clocks and take-overs by turns), of open tables and games
// of 2 to 5 at every moment, and takes one allocation for its members,
// as NewState does, and one for its document, besides the encoding's.
func TestEncodeState(t *testing.T) {
	names := []string{"Miriam", `<b>Felix</b> & "co"`, "Zoë", "Ann\\", "Ed"}
	var scratch []byte
	for i := range 8 {
		players := razzia.MinPlayers + i%(razzia.MaxPlayers-razzia.MinPlayers+1)
		g, err := razzia.NewGame(razzia.Setup{Players: names[:players], Seed: []byte{byte(i), 'e'}})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 13))
		for step := 0; ; step++ {
			pm, _ := publicMoment(t, g, gameInfo(g, step+i, names[:players]), step%7 == 0)
			if step%3 == 0 {
				pm.Clock = &ClockView{ReserveMs: []int64{1, 2}, Running: 1}
				pm.TakeOvers = []TakeOver{{Seat: 1, Bot: "easy", Reason: ReasonTimeout}}
			}
			for seat := -1; seat < players; seat++ {
				m := pm
				if seat >= 0 {
					m = seatMoment(g, pm, seat, step)
				}
				what := fmt.Sprintf("game %d, move %d, seat %d", i, g.Len(), seat)
				doc, err := m.AppendState(nil)
				if err != nil {
					t.Fatal(err)
				}
				want, err := NewState(doc)
				if err != nil {
					t.Fatal(err)
				}
				got, err := EncodeState(&m, &scratch)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if string(got.Doc) != string(want.Doc) || !sameMembers(got.top, want.top) || !sameMembers(got.view, want.view) ||
					(got.view == nil) != (want.view == nil) || got.split != want.split || got.public != want.public {
					t.Fatalf("%s: EncodeState\n%s\n%q\nNewState\n%s\n%q", what, got.Doc, got.view, want.Doc, want.view)
				}
				encode := testing.AllocsPerRun(2, func() { scratch, _ = m.AppendState(scratch[:0]) })
				if n := testing.AllocsPerRun(2, func() { EncodeState(&m, &scratch) }); n != encode+2 {
					t.Fatalf("%s: %v allocations, want the encoding's %v and 2", what, n, encode)
				}
			}
			if !playOn(t, g, rng) {
				break
			}
		}
	}
}

// sameMembers reports whether a and b are the same keys and values.
func sameMembers(a, b []jsonMember) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if string(a[i].key) != string(b[i].key) || string(a[i].value) != string(b[i].value) {
			return false
		}
	}
	return true
}

// TestEncodeStateOverflow: a state with more members than the log holds
// is read again, whole.
func TestEncodeStateOverflow(t *testing.T) {
	var l memberLog
	var b []byte
	for i := range len(l.top) + 1 {
		b = l.member(b, ',', fmt.Sprint("k", i), false)
		b = append(b, '1')
	}
	if !l.overflow || l.ntop != len(l.top) {
		t.Errorf("%d members logged, overflow %t", l.ntop, l.overflow)
	}
}

// BenchmarkEncodeState is the spectators' state of every moment of a
// game of four, encoded and its members found: "parsed" encodes it
// (AppendState) and reads it again (NewState), "logged" logs them as it
// writes it (EncodeState).
func BenchmarkEncodeState(b *testing.B) {
	names := []string{"Miriam", "Felix", "Elke", "Dennis"}
	g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte("bench")})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	var moments []StateMessage
	for step := 0; ; step++ {
		pm, _ := publicMoment(b, g, gameInfo(g, step, names), false)
		moments = append(moments, pm)
		if !playOn(b, g, rng) {
			break
		}
	}
	var scratch []byte
	b.Run("parsed", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			scratch, _ = moments[i%len(moments)].AppendState(scratch[:0])
			if _, err := NewState(append([]byte(nil), scratch...)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("logged", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := EncodeState(&moments[i%len(moments)], &scratch); err != nil {
				b.Fatal(err)
			}
		}
	})
}
