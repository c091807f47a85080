package bot

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

var (
	fitRecords = flag.String("fit-records", "", "directory of game records whose decisions the policy's weights are fitted to")
	fitPrefix  = flag.String("fit-prefix", "", "fit to the seats whose name starts so only")
)

// A decision is a position of a record and the move played there.
type decision struct {
	s     razzia.State
	legal []razzia.Move
	move  razzia.Move
}

// readDecisions returns the decisions of the records in dir that had more
// than one move worth making (see prune), by the seats whose name has
// prefix.
func readDecisions(t *testing.T, dir, prefix string) []decision {
	var out []decision
	eachRecord(t, dir, func(rec *razzia.Record, moves []razzia.Move, s razzia.State) {
		for _, m := range moves {
			if strings.HasPrefix(rec.Players[s.ToMove()], prefix) {
				legal := prune(&s, s.LegalMoves(nil))
				if len(legal) > 1 {
					out = append(out, decision{s: s, legal: legal, move: m})
				}
			}
			s.Apply(m)
		}
	})
	return out
}

// same reports whether the policy's move a is the move m played, a draw
// being a draw whatever card came.
func same(a, m razzia.Move) bool {
	if a.Action == razzia.ActionDraw {
		return m.Action == razzia.ActionDraw
	}
	return a == m
}

// agreement returns the share of the decisions in which the policy with
// weights w makes the move played, and a count of (played, policy)
// actions.
func agreement(ds []decision, w *weights) (float64, map[string]int) {
	hits := 0
	conf := map[string]int{}
	for i := range ds {
		d := &ds[i]
		st := d.s
		j := newJudge(&st, w)
		a := decide(&j, d.legal, noError)
		if same(a, d.move) {
			hits++
		}
		conf[fmt.Sprintf("%v->%v", d.move.Action, a.Action)]++
	}
	return float64(hits) / float64(len(ds)), conf
}

// TestFitPolicy fits the policy's weights, by coordinates, to the moves a
// stronger bot made in the records of -fit-records:
//
//	razzia arena --seats mcts:iters=3000,mcts:iters=3000 --games 240 --records DIR
//	go test ./bot -run TestFitPolicy -fit-records DIR -v
func TestFitPolicy(t *testing.T) {
	if *fitRecords == "" {
		t.Skip("run with -fit-records DIR")
	}
	ds := readDecisions(t, *fitRecords, *fitPrefix)
	cur := flatWeights
	if *tuneFrom != "" {
		h := must(New("heuristic:"+*tuneFrom, 0)).(*Heuristic)
		cur = *h.w
		cur.exact = true
	}
	best, conf := agreement(ds, &cur)
	t.Logf("%d decisions; start: %.4f %+v", len(ds), best, cur)
	logConf(t, conf)
	names := weightNames()
	for pass := range 6 {
		improved := false
		for _, name := range names {
			for _, f := range []float64{0.5, 0.8, 1.25, 2} {
				try := cur
				v := weightFields[name](&try)
				if *v == 0 {
					*v = f - 0.5
				} else {
					*v *= f
				}
				if s, _ := agreement(ds, &try); s > best+0.0005 {
					best, cur, improved = s, try, true
					t.Logf("pass %d: %s = %.3g: %.4f", pass+1, name, *v, s)
				}
			}
		}
		if !improved {
			break
		}
	}
	_, conf = agreement(ds, &cur)
	t.Logf("end: %.4f %+v", best, cur)
	logConf(t, conf)
}

func logConf(t *testing.T, conf map[string]int) {
	keys := make([]string, 0, len(conf))
	for k := range conf {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("  %s: %d", k, conf[k])
	}
}

// TestCallStats prints, for the turns of -fit-records where a call was
// possible, how often the seats called by row length and by what calling
// was worth to the policy.
func TestCallStats(t *testing.T) {
	if *fitRecords == "" {
		t.Skip("run with -fit-records DIR")
	}
	ds := readDecisions(t, *fitRecords, *fitPrefix)
	type key struct{ a, b int }
	calls, turns := map[key]int{}, map[key]int{}
	gainCalls, gainTurns := map[int]int{}, map[int]int{}
	for i := range ds {
		d := &ds[i]
		if d.s.Phase() != razzia.PhaseTurn {
			continue
		}
		canCall := false
		for _, m := range d.legal {
			canCall = canCall || m.Action == razzia.ActionCall
		}
		if !canCall {
			continue
		}
		st := d.s
		me := st.ToMove()
		others := 0
		for p := range st.Players() {
			if p != me {
				others += st.FaceUp(p).Len()
			}
		}
		k := key{st.RowLen(), others}
		j := newJudge(&st, &flatWeights)
		g := int(callGain(&j, 0, 1000))
		if g < -10 {
			g = -10
		}
		if g > 30 {
			g = 30
		}
		g = g / 3 * 3
		turns[k]++
		gainTurns[g]++
		if d.move.Action == razzia.ActionCall {
			calls[k]++
			gainCalls[g]++
		}
	}
	for r := 0; r <= 6; r++ {
		line := fmt.Sprintf("row %d:", r)
		for o := 0; o <= 5; o++ {
			k := key{r, o}
			if turns[k] > 0 {
				line += fmt.Sprintf("  others %d: %d/%d", o, calls[k], turns[k])
			}
		}
		t.Log(line)
	}
	for g := -12; g <= 30; g++ {
		if gainTurns[g] > 0 {
			t.Logf("call gain %d: %d/%d", g, gainCalls[g], gainTurns[g])
		}
	}
}
