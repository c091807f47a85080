package bot

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

var (
	lossRecords = flag.String("loss-records", "", "directory of game records whose positions TestSearchLoss searches")
	lossEvery   = flag.Int("loss-every", 17, "TestSearchLoss takes every Nth decision with a choice")
	lossRef     = flag.String("loss-ref", "mcts:iters=100000,rollout=auto,cut=none", "the search that judges the others")
	lossSpecs   = flag.String("loss-specs", "mcts:iters=2000,rollout=auto;mcts:iters=6000,rollout=auto;mcts:iters=18000,rollout=auto",
		"the searches judged, separated by semicolons")
)

// TestSearchLoss asks how much a search's choices give up as its budget
// grows: on positions of recorded games, each spec of -loss-specs
// chooses a move, and a long search (-loss-ref) rates every move; a
// spec's loss is the win share the reference gives its best move less
// what it gives the move chosen, averaged over the positions. The
// reference searches each chosen move for at least a quarter of its
// iterations (Evaluate), so that the rating of a move it would not make
// is not a handful of playouts. Two references of other seeds say how
// far it agrees with itself.
//
//	go test ./bot -run TestSearchLoss -loss-records DIR -v
func TestSearchLoss(t *testing.T) {
	if *lossRecords == "" {
		t.Skip("run with -loss-records DIR")
	}
	specs := strings.Split(*lossSpecs, ";")
	loss := make([]float64, len(specs)+1)
	agree := make([]int, len(specs)+1)
	positions, seen := 0, 0
	eachRecord(t, *lossRecords, func(rec *razzia.Record, moves []razzia.Move, start razzia.State) {
		st := start
		for _, m := range moves {
			if st.Phase() != razzia.PhaseOver && len(prune(&st, st.LegalMoves(nil))) > 1 {
				seen++
				if seen%*lossEvery == 0 {
					searchLoss(t, &st, uint64(seen), specs, loss, agree)
					positions++
				}
			}
			st.Apply(m)
		}
	})
	for i, s := range append(slices.Clone(specs), *lossRef+" (another seed)") {
		t.Logf("%-60s loss %.4f a decision, agrees with the reference in %d of %d", s, loss[i]/float64(positions), agree[i], positions)
	}
}

// searchLoss adds each spec's loss and agreement on st to loss and agree;
// the last entry is a second reference's.
func searchLoss(t *testing.T, st *razzia.State, seed uint64, specs []string, loss []float64, agree []int) {
	me := st.ToMove()
	var chosen []razzia.Move
	for _, s := range specs {
		b := must(New(s, seed)).(*MCTS)
		v := razzia.View{State: *st, Legal: st.LegalMoves(nil)}
		chosen = append(chosen, b.Choose(v))
	}
	other := must(New(*lossRef, seed+1e6)).(*MCTS)
	stats, err := other.Evaluate(t.Context(), st, razzia.Move{})
	if err != nil {
		t.Fatal(err)
	}
	chosen = append(chosen, stats[0].Move)
	share := map[razzia.Move]float64{}
	best := math.Inf(-1)
	var bestMove razzia.Move
	for _, m := range chosen {
		if _, ok := share[m]; ok {
			continue
		}
		// Seeded apart from the searches judged, whose trees would
		// otherwise sample the same cards first and agree by that.
		ref := must(New(*lossRef, seed+2e6)).(*MCTS)
		stats, err := ref.Evaluate(t.Context(), st, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range stats {
			if s.Move == m {
				share[m] = s.Share[me]
			}
		}
		if stats[0].Share[me] > best {
			best, bestMove = stats[0].Share[me], stats[0].Move
		}
		if _, ok := share[stats[0].Move]; !ok {
			share[stats[0].Move] = stats[0].Share[me]
		}
	}
	line := fmt.Sprintf("%v to move, best %v %.3f:", st.Phase(), bestMove, best)
	for i, m := range chosen {
		loss[i] += max(0, share[bestMove]-share[m])
		if m == bestMove {
			agree[i]++
		}
		line += fmt.Sprintf(" %v %.3f", m, share[m])
	}
	t.Log(line)
}
