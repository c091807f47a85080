package bot

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
)

var summarise = flag.String("summarise", "", "directory of game records (razzia arena --records) to summarise by bot")

// A playSummary sums how one bot played over the seats it held.
type playSummary struct {
	seats                  int
	won, cards, guards     int // auctions won, the cards and bodyguards they brought
	paid                   int // the winning cheques, in thousands
	bids, passes, passRows int // passes on a row holding a bodyguard: passRows
	calls, draws           int
	unspent                int // face-up cheques held when a round ended
	// value is the value function's estimate at the start of rounds 2
	// and 3, feat the features it read, share the wins (R18).
	value [2]float64
	feat  [2][numFeatures]float64
	share float64
}

// eachRecord calls fn with every game recorded in dir (razzia arena
// --records): its record, its moves and the state it started from.
func eachRecord(t *testing.T, dir string, fn func(rec *razzia.Record, moves []razzia.Move, start razzia.State)) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in %s (%v)", dir, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := razzia.ReadRecord(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		g, err := rec.Game()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		start, err := razzia.NewGame(razzia.Setup{Players: rec.Players, Cheques: rec.Cheques})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fn(rec, g.Moves(), start.State())
	}
}

// TestSummariseRecords prints, for each bot of an arena's records, how
// it played per game and what the value function made of its positions
// against what it won:
//
//	razzia arena --seats ... --records DIR
//	go test ./bot -run TestSummariseRecords -summarise DIR -v
//
// A bot whose value at rounds 2 and 3 stays above its wins is one whose
// search steers for positions the value function rates too high.
func TestSummariseRecords(t *testing.T) {
	if *summarise == "" {
		t.Skip("run with -summarise DIR to summarise the records in DIR")
	}
	sums := map[string]*playSummary{}
	of := func(name string) *playSummary {
		name, _, _ = strings.Cut(name, "#") // the arena numbers a bot's further seats
		if sums[name] == nil {
			sums[name] = &playSummary{}
		}
		return sums[name]
	}
	eachRecord(t, *summarise, func(rec *razzia.Record, moves []razzia.Move, s razzia.State) {
		for _, name := range rec.Players {
			of(name).seats++
		}
		for _, m := range moves {
			before := s
			me := s.ToMove()
			sum := of(rec.Players[me])
			guards := slices.Contains(s.Row(), razzia.Bodyguard)
			switch m.Action {
			case razzia.ActionBid:
				sum.bids++
			case razzia.ActionPass:
				sum.passes++
				if guards {
					sum.passRows++
				}
			case razzia.ActionCall:
				sum.calls++
			case razzia.ActionDraw:
				if s.Phase() == razzia.PhaseTurn {
					sum.draws++
				}
			}
			s.Apply(m)
			if before.Phase() == razzia.PhaseAuction && (s.Phase() != razzia.PhaseAuction || s.Round() != before.Round()) {
				c, w := before.HighBid()
				if m.Action == razzia.ActionBid {
					c, w = int(m.Cheque), me
				}
				if w >= 0 && c > 0 {
					ws := of(rec.Players[w])
					ws.won++
					ws.cards += before.RowLen()
					ws.paid += c
					for _, k := range before.Row() {
						if k == razzia.Bodyguard {
							ws.guards++
						}
					}
				}
			}
			if s.Round() != before.Round() || s.Over() {
				for p := range s.Players() {
					of(rec.Players[p]).unspent += before.FaceUp(p).Len()
				}
			}
			if s.Round() != before.Round() && !s.Over() {
				v := value(&s, valueWeights(&s))
				var totals [razzia.MaxPlayers]int
				for p := range s.Players() {
					totals[p] = s.Total(p)
				}
				for p := range s.Players() {
					sum := of(rec.Players[p])
					sum.value[s.Round()-2] += float64(v[p])
					var f [numFeatures]float64
					features(&s, p, &totals, &f)
					for i, x := range f {
						sum.feat[s.Round()-2][i] += x
					}
				}
			}
		}
		w := s.Winners()
		for _, p := range w {
			of(rec.Players[p]).share += 1 / float64(len(w))
		}
	})
	names := make([]string, 0, len(sums))
	for name := range sums {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		x := sums[name]
		n := float64(x.seats)
		fmt.Printf("%s: %d seats; per game: auctions won %.2f, cards %.2f, bodyguards %.2f, cheque paid %.1f on average; "+
			"bids %.2f, passes %.2f (%.2f on a row with a bodyguard), calls %.2f, draws %.2f, face-up cheques at a round's end %.2f\n",
			name, x.seats, float64(x.won)/n, float64(x.cards)/n, float64(x.guards)/n, float64(x.paid)/float64(max(1, x.won)),
			float64(x.bids)/n, float64(x.passes)/n, float64(x.passRows)/n, float64(x.calls)/n, float64(x.draws)/n, float64(x.unspent)/n)
		fmt.Printf("  win share %.3f; the value function said %.3f at round 2, %.3f at round 3\n", x.share/n, x.value[0]/n, x.value[1]/n)
		for r := range x.feat {
			fmt.Printf("  mean features at round %d:", r+2)
			for _, v := range x.feat[r] {
				fmt.Printf(" %.2f", v/n)
			}
			fmt.Println()
		}
	}
}
