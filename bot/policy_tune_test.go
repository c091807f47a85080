package bot

import (
	"flag"
	"fmt"
	"sync"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot/internal/frozen"
)

var (
	tunePolicy  = flag.Bool("tune-policy", false, "search the policy's weights by self-play (minutes)")
	tuneAgainst = flag.String("tune-against", "", "search the policy's weights by games against this spec")
	tuneDeals   = flag.Int("tune-deals", 150, "deals per score of -tune-against")
	tuneFrom    = flag.String("tune-from", "", "the weights -tune-against starts from, as spec options (spare=3,rel=1)")
)

// duel plays deals deals of players seats, each once per rotation of the
// seats, with one seat played by a bot of one and every other by a bot
// of other, on workers cores, and returns one's share of the wins (R18).
// Deal i is the same for every duel of the same tag.
func duel(one, other func(seed uint64) Bot, players, deals, workers int, tag string) float64 {
	names := make([]string, players)
	for i := range names {
		names[i] = fmt.Sprintf("P%d", i+1)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	wins := 0.0
	games := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range games {
				deal, seat := i/players, i%players
				g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: fmt.Appendf(nil, "%s %d", tag, deal)})
				if err != nil {
					panic(err)
				}
				bots := make([]Bot, players)
				for p := range bots {
					if p == seat {
						bots[p] = one(uint64(i*8 + p))
					} else {
						bots[p] = other(uint64(i*8 + p))
					}
				}
				for st := g.State(); !st.Over(); st = g.State() {
					if err := g.Play(bots[st.ToMove()].Choose(g.View(st.ToMove()))); err != nil {
						panic(err)
					}
				}
				st := g.State()
				for _, s := range st.Winners() {
					if s == seat {
						mu.Lock()
						wins += 1 / float64(len(st.Winners()))
						mu.Unlock()
					}
				}
			}
		})
	}
	for i := range players * deals {
		games <- i
	}
	close(games)
	wg.Wait()
	return wins / float64(players*deals)
}

func heuristicWith(w weights) func(seed uint64) Bot {
	return func(seed uint64) Bot {
		h := NewHeuristic(seed)
		h.w = &w
		return h
	}
}

// TestTunePolicy searches the policy's weights by coordinates, scored by
// the win share of a heuristic with them against the current weights and
// against medium@b971414, at 2 and 4 players:
//
//	go test ./bot -run TestTunePolicy -tune-policy -timeout 2h -v
func TestTunePolicy(t *testing.T) {
	if !*tunePolicy {
		t.Skip("run with -tune-policy to search the policy's weights")
	}
	const deals = 3000
	old := func(seed uint64) Bot { return frozen.NewHeuristic(seed) }
	cur := flatWeights
	if *tuneFrom != "" {
		h := must(New("heuristic:"+*tuneFrom, 0)).(*Heuristic)
		cur = *h.w
		cur.exact = true
	}
	score := func(w weights, pass int) float64 {
		ref := heuristicWith(cur)
		tag := fmt.Sprint("tune", pass)
		return duel(heuristicWith(w), ref, 2, deals, 1, tag) + duel(heuristicWith(w), old, 2, deals/2, 1, tag) +
			duel(heuristicWith(w), ref, 4, deals/4, 1, tag)
	}
	names := weightNames()
	for pass := range 4 {
		best := score(cur, pass)
		t.Logf("pass %d start: %.4f %+v", pass+1, best, cur)
		for _, name := range names {
			for _, f := range []float64{0.7, 1.4} {
				try := cur
				v := weightFields[name](&try)
				if *v == 0 {
					*v = (f - 0.7) * 2
				} else {
					*v *= f
				}
				s := score(try, pass)
				if s > best+0.01 {
					// Confirm on fresh deals against the old weights.
					if c := score(try, pass+100); c > score(cur, pass+100)+0.005 {
						best, cur = s, try
						t.Logf("pass %d: %s = %.3g: %.4f (confirmed %.4f)", pass+1, name, *v, s, c)
						break
					}
				}
			}
		}
		t.Logf("after pass %d: %.4f %+v", pass+1, best, cur)
	}
}

// TestTuneAgainst searches the policy's weights by coordinates, scored by
// the win share of a heuristic with them against a spec in 2-player
// duplicate games:
//
//	go test ./bot -run TestTuneAgainst -tune-against mcts:iters=300 -tune-from rel=1 -timeout 6h -v
func TestTuneAgainst(t *testing.T) {
	if *tuneAgainst == "" {
		t.Skip("run with -tune-against SPEC")
	}
	opp := func(seed uint64) Bot { return must(New(*tuneAgainst, seed)) }
	cur := flatWeights
	if *tuneFrom != "" {
		h := must(New("heuristic:"+*tuneFrom, 0)).(*Heuristic)
		cur = *h.w
		cur.exact = true
	}
	score := func(w weights, tag string) float64 { return duel(heuristicWith(w), opp, 2, *tuneDeals, 1, tag) }
	names := weightNames()
	best := score(cur, "a")
	t.Logf("start: %.4f %+v", best, cur)
	for pass := range 3 {
		for _, name := range names {
			for _, f := range []float64{0.6, 1.6} {
				try := cur
				v := weightFields[name](&try)
				if *v == 0 {
					*v = (f - 0.6) * 1
				} else {
					*v *= f
				}
				if s := score(try, "a"); s > best+0.02 {
					// Confirm on fresh deals.
					tag := fmt.Sprint("c", pass, name, f)
					if c, o := score(try, tag), score(cur, tag); c > o {
						best, cur = s, try
						t.Logf("pass %d: %s = %.3g: %.4f (confirmed %.4f > %.4f)", pass+1, name, *v, s, c, o)
						break
					}
				}
			}
		}
		t.Logf("after pass %d: %.4f %+v", pass+1, best, cur)
	}
}
