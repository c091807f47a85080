package bot

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/cputime"
)

// roundThree returns a 3-player state at a turn of the last round, played
// there by heuristic bots.
func roundThree(t testing.TB) razzia.State {
	g := newGame(t, 3, "round three")
	specs := []string{"heuristic", "heuristic", "heuristic"}
	for {
		play(t, g, specs, 3, 1)
		st := g.State()
		if st.Over() {
			t.Fatal("the game ended before a turn of round 3")
		}
		if st.Round() == razzia.Rounds && st.Phase() == razzia.PhaseTurn {
			return st
		}
	}
}

// TestFlatFinalMajority checks the yardstick's policy counts the cheque
// majority of R17 exactly in the last round: highest +5, lowest -5, ties
// all score, all equal nobody; the heuristic's own judge keeps its
// smooth estimate.
func TestFlatFinalMajority(t *testing.T) {
	st := roundThree(t)
	tests := []struct {
		name string
		sums [3]int // the other seats' totals are sums[1:]
		sum  int    // seat 0's total
		want float64
	}{
		{"highest", [3]int{0, 20, 25}, 30, 5},
		{"lowest", [3]int{0, 20, 25}, 19, -5},
		{"between", [3]int{0, 20, 25}, 22, 0},
		{"shared highest", [3]int{0, 20, 25}, 25, 5},
		{"shared lowest", [3]int{0, 20, 25}, 20, -5},
		{"all equal", [3]int{0, 20, 20}, 20, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := newJudge(&st, &flatWeights)
			copy(j.sums[:], tt.sums[:])
			if got := j.majority(0, tt.sum); got != tt.want {
				t.Errorf("majority = %v, want %v", got, tt.want)
			}
			h := newJudge(&st, &defaultWeights)
			copy(h.sums[:], tt.sums[:])
			// All equal is 0 by symmetry in both.
			if got := h.majority(0, tt.sum); got == tt.want && tt.name != "all equal" {
				t.Errorf("the heuristic's judge counts %v exactly too: its smooth estimate is gone", got)
			}
		})
	}
}

// TestFlatDrop checks the rule that takes hopeless moves out of the
// running: more than DropSE standard errors of the paired differences
// behind the best.
func TestFlatDrop(t *testing.T) {
	const n = 32
	alternate := func(a, b float32) []float32 {
		r := make([]float32, n)
		for k := range r {
			r[k] = a
			if k%2 == 1 {
				r[k] = b
			}
		}
		return r
	}
	best := alternate(1, 0)
	tests := []struct {
		name  string
		other []float32
		kept  bool
	}{
		// Behind by 0.1 in every sample: no doubt.
		{"always behind", alternate(0.9, -0.1), false},
		// Equal to the best in every sample.
		{"same", alternate(1, 0), true},
		// Behind by 1 in one sample of 32, else level: 0.03 behind,
		// well within the noise of one sample.
		{"once behind", append(alternate(1, 0)[:n-1], -1), true},
		// Behind in half the samples by 0.5, level in the rest: a mean of
		// 0.25 with a standard error of 0.045.
		{"often behind", alternate(0.5, 0), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Flat{reward: [][]float32{best, tt.other}, alive: []bool{true, true}, dropSE: DropSE}
			left := b.drop()
			if b.alive[1] != tt.kept || left != 1+btoi(tt.kept) || !b.alive[0] {
				t.Errorf("alive %v, %d left; want the other kept: %v", b.alive, left, tt.kept)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestFlatSamplesBound checks that a flat bot bounded by samples takes no
// more, and stops sooner once a single move is left in the running.
func TestFlatSamplesBound(t *testing.T) {
	v := midGame(t, 2)
	b := NewFlat(1, 40, 0)
	b.Choose(v)
	if b.Samples() < flatWarmup || b.Samples() > 40 {
		t.Errorf("%d samples; want %d to 40", b.Samples(), flatWarmup)
	}
	left, runs := 0, 0
	for i, ok := range b.alive {
		left += btoi(ok)
		runs += len(b.reward[i])
	}
	if b.Iterations() != runs || runs < 2*b.Samples() {
		t.Errorf("%d playouts counted, %d run in %d samples", b.Iterations(), runs, b.Samples())
	}
	if b.Samples() < 40 && left != 1 {
		t.Errorf("stopped after %d samples with %d moves in the running", b.Samples(), left)
	}
}

// TestFlatUnbounded checks that a flat bot given no bound takes the
// default time rather than searching for ever.
func TestFlatUnbounded(t *testing.T) {
	if b := NewFlat(1, 0, 0); b.samples != 0 || b.limit != DefaultFlatTime {
		t.Errorf("samples %d, limit %v; want no bound on samples and %v", b.samples, b.limit, DefaultFlatTime)
	}
}

// BenchmarkFlatDecision times flat decisions of 200 samples on a mid-game
// position of 2 and 4 players and reports the playouts a second.
func BenchmarkFlatDecision(b *testing.B) {
	for _, players := range []int{2, 4} {
		b.Run(fmt.Sprintf("%dp", players), func(b *testing.B) {
			v := midGame(b, players)
			f := NewFlat(1, 200, 0)
			playouts := 0
			cpu := cputime.Process()
			for b.Loop() {
				f.Choose(v)
				playouts += f.Iterations()
			}
			if cpu := cputime.Process() - cpu; cpu > 0 {
				b.ReportMetric(float64(playouts)/cpu.Seconds(), "playouts/cpu-s")
			}
			b.ReportMetric(float64(f.Samples()), "samples")
		})
	}
}

// TestAlone checks that a seat is alone when no other seat holds a face-up
// cheque (R13), also right after a rival won the row with its last
// cheque, though the state still holds that bid as the last auction's
// high bid; and that it is not alone while a rival's last cheque is its
// standing bid: that rival takes the row should the seat pass (R11).
func TestAlone(t *testing.T) {
	g := newGame(t, 2, "alone bid")
	p := playout{w: &flatWeights, rng: newRand(7), noise: 2}
	var st razzia.State
	standing, settled, free := 0, 0, 0
	for game := 0; game < 300 && (standing < 5 || settled < 5 || free < 20); game++ {
		st = g.State()
		p.judged = false
		for !st.Over() {
			me := st.ToMove()
			c, w := st.HighBid()
			want := st.FaceUp(1-me) == 0
			if got := alone(&st, false); got != want {
				t.Fatalf("phase %v, high bid %d by seat %d, seat %d to move, seat %d holds %v: alone %v, want %v",
					st.Phase(), c, w, me, 1-me, st.FaceUp(1-me), got, want)
			}
			switch {
			case want && w == 1-me:
				settled++
				if alone(&st, true) {
					t.Fatalf("misread: seat %d alone though the last auction's high bid is seat %d's", me, w)
				}
			case want:
				free++
			case st.Phase() == razzia.PhaseAuction && w == 1-me && st.FaceUp(w) == razzia.Cheques(1)<<(c-1):
				standing++
			}
			p.apply(&st, p.move(&st))
		}
	}
	if standing < 5 || settled < 5 || free < 20 {
		t.Errorf("%d states with a rival's last cheque its standing bid, %d after a rival won with its last cheque, %d alone otherwise: too few to tell", standing, settled, free)
	}
}

// TestAloneMove checks how the yardstick's policy plays a seat that alone
// holds face-up cheques (R13): in an auction nobody forced it into it
// passes, keeping the row to grow, unless the row is full or the next
// card may end the round and losing the row outweighs one more card; at
// its turn, without thieves, it draws unless that holds, and then calls.
func TestAloneMove(t *testing.T) {
	p := playout{w: &flatWeights, rng: newRand(5), noise: 2}
	g := newGame(t, 2, "alone")
	var st razzia.State
	auctions, turns, buys := 0, 0, 0
	for game := 0; game < 200 && (auctions < 20 || turns < 100 || buys < 10); game++ {
		st = g.State()
		p.judged = false
		for !st.Over() {
			legal := st.LegalMoves(nil)
			if len(legal) > 1 && alone(&st, false) && !st.MustBid() && !slices.ContainsFunc(legal, func(m razzia.Move) bool { return m.Action == razzia.ActionThieves }) {
				j := newJudge(&st, &flatWeights)
				m := decide(&j, legal, noError)
				pEnd := 0.0
				if st.Police() == st.PoliceLimit()-1 {
					pEnd = float64(st.Remaining(razzia.Police)) / float64(st.DeckLeft())
				}
				buy := st.RowLen() == razzia.RowSize || pEnd*float64(st.RowLen()+1) >= 1
				if buy {
					buys++
				}
				switch {
				case st.Phase() == razzia.PhaseAuction:
					auctions++
					if !buy && m.Action != razzia.ActionPass {
						t.Fatalf("auction alone, row %d, police %d: %v, want a pass", st.RowLen(), st.Police(), m)
					}
				default:
					turns++
					if want := razzia.ActionDraw; !buy && m.Action != want {
						t.Fatalf("turn alone, row %d, police %d: %v, want a draw", st.RowLen(), st.Police(), m)
					}
				}
			}
			m := p.move(&st)
			p.apply(&st, m)
		}
	}
	if auctions < 20 || turns < 100 || buys < 10 {
		t.Errorf("only %d auctions, %d turns alone, %d buying: too few to tell", auctions, turns, buys)
	}
}

// TestTempo checks that with tempo a face-up cheque costs tempo more of
// what it could still buy this round (left of it, the more for the last
// one) when no rival holds fewer face-up cheques, and nothing more
// otherwise.
func TestTempo(t *testing.T) {
	base := flatWeights
	base.tempo = 0
	with := base
	with.tempo = 5
	behind, ahead := 0, 0
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		g := newGame(t, players, fmt.Sprint("tempo ", players))
		for st := g.State(); !st.Over(); st = g.State() {
			me := st.ToMove()
			j0, j1 := newJudge(&st, &base), newJudge(&st, &with)
			fewest := razzia.MaxCheque
			for q := range players {
				if q != me {
					fewest = min(fewest, st.FaceUp(q).Len())
				}
			}
			up := st.FaceUp(me)
			for c := up; c != 0; c &= c - 1 {
				want := 0.0
				if up.Len() <= fewest {
					want = 5 * j0.left
					if up.Len() == 1 {
						want *= 1 + base.lastOne
					}
					behind++
				} else {
					ahead++
				}
				if got := j1.chequeCost(me, c.Min()) - j0.chequeCost(me, c.Min()); math.Abs(got-want) > 1e-9 {
					t.Fatalf("%dp, %d face up against a rival's fewest %d: tempo adds %v, want %v", players, up.Len(), fewest, got, want)
				}
			}
			if err := g.Play(must(New("heuristic", 1)).Choose(g.View(me))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if behind < 50 || ahead < 50 {
		t.Errorf("%d cheques behind or level, %d ahead: too few to tell", behind, ahead)
	}
}
