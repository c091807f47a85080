package bot

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

var (
	diagRecords = flag.String("diag-records", "", "directory of game records whose flat decisions TestDiagnoseFlat judges")
	diagPrefix  = flag.String("diag-prefix", "flat", "the bot, by the start of its name in the records, whose decisions are judged")
	diagIters   = flag.Int("diag-iters", 40000, "iterations of the judging search a decision")
	diagMax     = flag.Int("diag-max", 0, "decisions judged at most (0: all)")
	diagNew     = flag.String("diag-new", "", "a bot spec: TestDiagnoseFlat judges instead where it would play otherwise than the recorded bot, its move against the recorded one")
	diagJudge   = flag.String("diag-judge", "mcts", "the judge: mcts (the search of hard, -diag-iters iterations) or flat (the yardstick, -diag-iters samples, no move dropped)")
)

// A diagSum adds up, for one kind of decision, what the judging search
// found the played moves gave up against its best.
type diagSum struct {
	n, wrong int     // decisions; those whose move was not the judge's
	loss     float64 // win share given up, summed
	big      int     // decisions that gave up more than 5 points
}

// decisionKind names the kind of the decision in s, played m, best b.
func decisionKind(s *razzia.State, m, b razzia.Move) string {
	round := fmt.Sprintf("r%d", s.Round())
	name := func(m razzia.Move) string {
		switch m.Action {
		case razzia.ActionBid:
			return "bid"
		case razzia.ActionPass:
			return "pass"
		case razzia.ActionCall:
			return "call"
		case razzia.ActionDraw:
			return "draw"
		case razzia.ActionThieves:
			return "thief"
		}
		return "?"
	}
	var kind string
	switch {
	case s.Phase() == razzia.PhaseAuction && s.MustBid():
		kind = "forced"
	case s.Phase() == razzia.PhaseAuction && s.RowLen() == 0:
		kind = "auction-empty-row"
	case s.Phase() == razzia.PhaseAuction:
		kind = "auction"
	default:
		kind = "turn"
	}
	pair := name(m) + ">" + name(b)
	if m == b {
		pair = "same"
	} else if m.Action == razzia.ActionBid && b.Action == razzia.ActionBid {
		if m.Cheque < b.Cheque {
			pair = "bid>higher"
		} else {
			pair = "bid>lower"
		}
	}
	return kind + " " + round + " " + pair
}

// TestDiagnoseFlat replays recorded games and asks a deep search, for
// each decision of one bot (the yardstick by default), the win share of
// the move it played and of the search's best, and sums what it gave up
// by the kind of decision:
//
//	razzia arena --seats mcts:...,flat:... --records DIR
//	go test ./bot -run TestDiagnoseFlat -diag-records DIR -v -timeout 0
func TestDiagnoseFlat(t *testing.T) {
	if *diagRecords == "" {
		t.Skip("run with -diag-records DIR to judge the decisions in DIR")
	}
	sums := map[string]*diagSum{}
	var worst []string
	judged := 0
	eachRecord(t, *diagRecords, func(rec *razzia.Record, moves []razzia.Move, s razzia.State) {
		for _, m := range moves {
			me := s.ToMove()
			played := m
			if m.Action == razzia.ActionDraw {
				played = razzia.Draw(razzia.NoKind)
			}
			legal := prune(&s, s.LegalMoves(nil))
			if strings.HasPrefix(rec.Players[me], *diagPrefix) && len(legal) > 1 && (*diagMax == 0 || judged < *diagMax) {
				judged++
				if *diagNew != "" {
					compareNew(t, &s, played, uint64(judged), sums)
					s.Apply(m)
					continue
				}
				stats := judgeMoves(t, &s, played, uint64(judged))
				best := stats[0]
				i := slices.IndexFunc(stats, func(v MoveValue) bool { return v.Move == played })
				if i < 0 {
					t.Fatalf("played %v not among the judged moves", played)
				}
				loss := max(0, best.Share[me]-stats[i].Share[me])
				kind := decisionKind(&s, played, best.Move)
				if sums[kind] == nil {
					sums[kind] = &diagSum{}
				}
				d := sums[kind]
				d.n++
				d.loss += loss
				if played != best.Move {
					d.wrong++
				}
				if loss > 0.05 {
					d.big++
					worst = append(worst, fmt.Sprintf("%.3f %s: played %v (%.3f, %d visits) best %v (%.3f, %d) row %v police %d up %v/%v centre %d",
						loss, kind, played, stats[i].Share[me], stats[i].Visits, best.Move, best.Share[me], best.Visits,
						s.Row(), s.Police(), s.FaceUp(me), s.FaceUp(1-me), s.Centre()))
				}
			}
			s.Apply(m)
		}
	})
	keys := make([]string, 0, len(sums))
	total := diagSum{}
	for k, d := range sums {
		keys = append(keys, k)
		total.n += d.n
		total.wrong += d.wrong
		total.loss += d.loss
		total.big += d.big
	}
	sort.Slice(keys, func(a, b int) bool { return sums[keys[a]].loss > sums[keys[b]].loss })
	t.Logf("%-32s %6s %6s %6s %9s %8s", "kind", "n", "wrong", ">5pt", "loss", "loss/n")
	for _, k := range keys {
		d := sums[k]
		t.Logf("%-32s %6d %6d %6d %9.3f %8.4f", k, d.n, d.wrong, d.big, d.loss, d.loss/float64(d.n))
	}
	t.Logf("%-32s %6d %6d %6d %9.3f %8.4f", "all", total.n, total.wrong, total.big, total.loss, total.loss/float64(total.n))
	sort.Sort(sort.Reverse(sort.StringSlice(worst)))
	for _, w := range worst {
		t.Log(w)
	}
}

// compareNew asks the bot of -diag-new for its move in s and, where it is
// not played, the judge for the win share of both, and adds the second's
// gain to sums by the kind of decision.
func compareNew(t *testing.T, s *razzia.State, played razzia.Move, seed uint64, sums map[string]*diagSum) {
	b, err := New(*diagNew, seed)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Choose(razzia.View{Seat: s.ToMove(), State: *s})
	if m.Action == razzia.ActionDraw {
		m = razzia.Draw(razzia.NoKind)
	}
	kind := "same"
	if m != played {
		kind = decisionKind(s, played, m)
	}
	if sums[kind] == nil {
		sums[kind] = &diagSum{}
	}
	d := sums[kind]
	d.n++
	if m == played {
		return
	}
	share := func(x razzia.Move) float64 {
		for _, v := range judgeMoves(t, s, x, seed) {
			if v.Move == x {
				return v.Share[s.ToMove()]
			}
		}
		t.Fatalf("%v not among the judged moves", x)
		return 0
	}
	d.wrong++
	d.loss += share(m) - share(played) // the new move's gain
}

// judgeMoves returns the judge's values of the moves in s, the best
// first, played among them.
func judgeMoves(t *testing.T, s *razzia.State, played razzia.Move, seed uint64) []MoveValue {
	if *diagJudge == "flat" {
		f := NewFlat(seed, *diagIters, 0)
		f.dropSE = 0
		f.Choose(razzia.View{Seat: s.ToMove(), State: *s})
		stats := make([]MoveValue, len(f.root))
		for i, m := range f.root {
			stats[i].Move = m
			stats[i].Visits = len(f.reward[i])
			stats[i].Share[s.ToMove()] = mean(f.reward[i])
		}
		slices.SortStableFunc(stats, func(x, y MoveValue) int {
			return cmp.Compare(y.Share[s.ToMove()], x.Share[s.ToMove()])
		})
		return stats
	}
	b := NewMCTS(seed, *diagIters, 0, 1)
	stats, err := b.Evaluate(context.Background(), s, played)
	if err != nil {
		t.Fatal(err)
	}
	return stats
}

// TestJudgeResetFresh checks that a judge reset from state to state, as a
// playout's is, answers what a fresh judge of each state answers.
func TestJudgeResetFresh(t *testing.T) {
	for _, n := range []int{2, 4} {
		for _, w := range []*weights{&defaultWeights, &flatWeights} {
			p := playout{w: w, rng: newRand(uint64(n)), noise: 2}
			g, err := razzia.NewGame(razzia.Setup{Players: []string{"a", "b", "c", "d", "e"}[:n]})
			if err != nil {
				t.Fatal(err)
			}
			var st razzia.State
			var inc judge
			states := 0
			defer func() { t.Logf("%d players: %d states", n, states) }()
			for game := range 20 {
				st = g.State()
				for !st.Over() {
					inc.reset(&st, w)
					cp := st
					fresh := newJudge(&cp, w)
					for q := range n {
						check := func(what string, a, b float64) {
							if a != b {
								t.Fatalf("%d players, game %d, seat %d: %s %v after reset, %v fresh", n, game, q, what, a, b)
							}
						}
						check("lotValue", inc.lotValue(q), fresh.lotValue(q))
						check("want", inc.want(q), fresh.want(q))
						h := st.Holdings(q)
						check("worth", inc.worth(q, &h), fresh.worth(q, &h))
						for c := st.FaceUp(q); c != 0; c &= c - 1 {
							check(fmt.Sprint("chequeCost ", c.Min()), inc.chequeCost(q, c.Min()), fresh.chequeCost(q, c.Min()))
							check(fmt.Sprint("winChance ", c.Min()), inc.winChance(q, c.Min()), fresh.winChance(q, c.Min()))
						}
					}
					states++
					m := p.move(&st)
					p.apply(&st, m)
				}
			}
		}
	}
}
