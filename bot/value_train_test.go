package bot

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/razziagame/razzia"
)

var (
	trainValue   = flag.Bool("train-value", false, "fit the value function and rewrite value_weights.go")
	valueRecords = flag.String("value-records", "", "fit the value function to the games recorded in this directory instead (razzia arena --records) and print the weights")
	valueName    = flag.String("value-name", "", "with -value-records: write the fit as the value function value=NAME, in value_NAME_weights.go")
)

// valueSample is one seat's side of a position at the start of round 2
// or 3 and what it won in the end.
type valueSample struct {
	f     [razzia.MaxPlayers][numFeatures]float64
	share [razzia.MaxPlayers]float64 // of the win (R18)
}

// valueGames plays games of the heuristic against itself, with some noise
// so that the positions vary, and returns the samples for each round.
func valueGames(players, games int, seed uint64) [razzia.Rounds - 1][]valueSample {
	var out [razzia.Rounds - 1][]valueSample
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Go(func() {
			var buf []razzia.Move
			for g := range next {
				rng := rand.New(rand.NewPCG(seed, uint64(g)))
				st, err := razzia.NewState(players, razzia.DealCheques(players, rng))
				if err != nil {
					panic(err)
				}
				bots := make([]*Heuristic, players)
				for p := range bots {
					bots[p] = NewHeuristic(rng.Uint64())
					bots[p].noise = float64(rng.IntN(3))
				}
				var samples [razzia.Rounds - 1]valueSample
				round := 1
				for !st.Over() {
					if st.Round() != round {
						round = st.Round()
						var totals [razzia.MaxPlayers]int
						for p := range players {
							totals[p] = st.Total(p)
						}
						for p := range players {
							features(&st, p, &totals, &samples[round-2].f[p])
						}
					}
					buf = st.LegalMoves(buf[:0])
					m := bots[st.ToMove()].Choose(razzia.View{Seat: st.ToMove(), State: st, Legal: buf})
					if m.Action == razzia.ActionDraw {
						m.Card = st.RandomCard(rng)
					}
					st.Apply(m)
				}
				w := st.Winners()
				for i := range samples {
					for _, p := range w {
						samples[i].share[p] = 1 / float64(len(w))
					}
				}
				mu.Lock()
				for i := range samples {
					out[i] = append(out[i], samples[i])
				}
				mu.Unlock()
			}
		})
	}
	for g := range games {
		next <- g
	}
	close(next)
	wg.Wait()
	return out
}

// recordedValueSamples returns the samples of the games recorded in dir,
// by player count and round.
func recordedValueSamples(t *testing.T, dir string) map[int]*[razzia.Rounds - 1][]valueSample {
	out := map[int]*[razzia.Rounds - 1][]valueSample{}
	eachRecord(t, dir, func(_ *razzia.Record, moves []razzia.Move, s razzia.State) {
		players := s.Players()
		var samples [razzia.Rounds - 1]valueSample
		for _, m := range moves {
			round := s.Round()
			s.Apply(m)
			if s.Round() != round && !s.Over() {
				var totals [razzia.MaxPlayers]int
				for p := range players {
					totals[p] = s.Total(p)
				}
				for p := range players {
					features(&s, p, &totals, &samples[s.Round()-2].f[p])
				}
			}
		}
		if !s.Over() {
			return // an unfinished game has no outcome
		}
		w := s.Winners()
		for i := range samples {
			for _, p := range w {
				samples[i].share[p] = 1 / float64(len(w))
			}
		}
		if out[players] == nil {
			out[players] = &[razzia.Rounds - 1][]valueSample{}
		}
		for i := range samples {
			out[players][i] = append(out[players][i], samples[i])
		}
	})
	return out
}

// TestFitRecordedValue fits the value function to recorded games and
// prints the weights and their log loss, with the log loss of the
// embedded weights on the same positions:
//
//	razzia arena --seats mcts:iters=300,mcts:iters=300 --games 4000 --seed 60 --records DIR
//	go test ./bot -run TestFitRecordedValue -value-records DIR -v
func TestFitRecordedValue(t *testing.T) {
	if *valueRecords == "" {
		t.Skip("run with -value-records DIR")
	}
	for players, rounds := range recordedValueSamples(t, *valueRecords) {
		for r, samples := range rounds {
			// Hold out every fifth game to tell a fit from an echo.
			var train, test []valueSample
			for i, x := range samples {
				if i%5 == 4 {
					test = append(test, x)
				} else {
					train = append(train, x)
				}
			}
			w, loss := fitValue(players, train)
			t.Logf("%d players, round %d: %d positions, log loss %.4f fitted, held out %.4f, embedded %.4f (%.4f knowing nothing)",
				players, r+2, len(samples), loss, logLoss(players, test, &w),
				logLoss(players, test, &trainedValue[players-razzia.MinPlayers][r]), math.Log(float64(players)))
			t.Logf("  weights: %.6g", w)
		}
	}
}

// logLoss is the mean log loss of the weights w on samples.
func logLoss(players int, samples []valueSample, w *[numFeatures]float64) float64 {
	loss := 0.0
	for _, s := range samples {
		var score [razzia.MaxPlayers]float64
		top := math.Inf(-1)
		for p := range players {
			for i, x := range s.f[p] {
				score[p] += w[i] * x
			}
			top = max(top, score[p])
		}
		sum := 0.0
		for p := range players {
			sum += math.Exp(score[p] - top)
		}
		for p := range players {
			loss -= s.share[p] * (score[p] - top - math.Log(sum))
		}
	}
	return loss / float64(len(samples))
}

// fitValue fits softmax weights to the samples by gradient descent (Adam)
// on standardised features, and returns them for the raw features with
// the mean log loss.
func fitValue(players int, samples []valueSample) ([numFeatures]float64, float64) {
	x := make([]float64, 0, len(samples)*players*numFeatures)
	share := make([]float64, 0, len(samples)*players)
	for _, s := range samples {
		for p := range players {
			x = append(x, s.f[p][:]...)
			share = append(share, s.share[p])
		}
	}
	var w [numFeatures]float64
	loss := fitSoftmax(players, numFeatures, x, share, w[:])
	return w, loss
}

// fitSoftmax fits softmax weights by gradient descent (Adam) on
// standardised features, writes them for the raw features to w and
// returns the mean log loss. x holds nf features of each seat of each
// sample, seat after seat, and share each seat's share of the win.
func fitSoftmax(players, nf int, x, share []float64, w []float64) float64 {
	seats := len(share)
	mean, sd := make([]float64, nf), make([]float64, nf)
	for i, v := range x {
		mean[i%nf] += v
	}
	for i := range mean {
		mean[i] /= float64(seats)
	}
	for i, v := range x {
		sd[i%nf] += (v - mean[i%nf]) * (v - mean[i%nf])
	}
	for i := range sd {
		sd[i] = math.Sqrt(sd[i]/float64(seats)) + 1e-9
	}
	c := make([]float64, len(x)) // centred; divided by sd in place, as the weights were fitted
	for i, v := range x {
		c[i] = v - mean[i%nf]
	}
	samples := float64(seats / players)
	sw, m, v := make([]float64, nf), make([]float64, nf), make([]float64, nf)
	grad := make([]float64, nf)
	const rate, b1, b2 = 0.05, 0.9, 0.999
	loss := 0.0
	for step := 1; step <= 600; step++ {
		clear(grad)
		loss = 0
		for s0 := 0; s0 < seats; s0 += players {
			var score [razzia.MaxPlayers]float64
			top := math.Inf(-1)
			for p := range players {
				for i, f := range c[(s0+p)*nf : (s0+p+1)*nf] {
					score[p] += sw[i] * f / sd[i]
				}
				top = max(top, score[p])
			}
			sum := 0.0
			for p := range players {
				score[p] = math.Exp(score[p] - top)
				sum += score[p]
			}
			for p := range players {
				prob := score[p] / sum
				loss -= share[s0+p] * math.Log(prob)
				for i, f := range c[(s0+p)*nf : (s0+p+1)*nf] {
					grad[i] += (prob - share[s0+p]) * f / sd[i]
				}
			}
		}
		loss /= samples
		for i := range sw {
			g := grad[i]/samples + 1e-4*sw[i]
			m[i] = b1*m[i] + (1-b1)*g
			v[i] = b2*v[i] + (1-b2)*g*g
			mh := m[i] / (1 - math.Pow(b1, float64(step)))
			vh := v[i] / (1 - math.Pow(b2, float64(step)))
			sw[i] -= rate * mh / (math.Sqrt(vh) + 1e-8)
		}
	}
	for i := range sw {
		w[i] = sw[i] / sd[i] // the means cancel in the softmax
	}
	return loss
}

// TestTrainRecordedValue fits a value function to recorded games and
// writes it as value=NAME, in value_NAME_weights.go, for the player counts
// recorded (the embedded weights for the others):
//
//	razzia arena --seats mcts:iters=300,mcts:iters=300 --games 4000 --seed 60 --records DIR
//	go test ./bot -run TestTrainRecordedValue -value-records DIR -value-name search
func TestTrainRecordedValue(t *testing.T) {
	if *valueRecords == "" || *valueName == "" {
		t.Skip("run with -value-records DIR -value-name NAME")
	}
	table := trainedValue
	counts := ""
	for players, rounds := range recordedValueSamples(t, *valueRecords) {
		for r, samples := range rounds {
			w, loss := fitValue(players, samples)
			table[players-razzia.MinPlayers][r] = w
			t.Logf("%d players, round %d: %d positions, log loss %.4f", players, r+2, len(samples), loss)
		}
		counts += fmt.Sprintf(" %d players: %d games;", players, len(rounds[0]))
	}
	name := *valueName
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by go test ./bot -run TestTrainRecordedValue -value-records DIR -value-name %s; DO NOT EDIT.\n\n", name)
	b.WriteString("package bot\n\n")
	fmt.Fprintf(&b, "// %sValue is the value function value=%s, fitted to recorded games (%s\n// the others are the embedded weights).\n", name, name, counts)
	fmt.Fprintf(&b, "var %sValue = ", name)
	writeTable(&b, &table)
	fmt.Fprintf(&b, "\nfunc init() { valueTables[%q] = &%sValue }\n", name, name)
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("value_"+name+"_weights.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeTable writes t as Go source to b.
func writeTable(b *bytes.Buffer, t *valueTable) {
	b.WriteString("valueTable")
	rows := make([][][]float64, len(t))
	for i := range t {
		for r := range t[i] {
			rows[i] = append(rows[i], t[i][r][:])
		}
	}
	writeRows(b, rows)
}

// writeRows writes the weights of a table by player count and round as
// the body of a Go composite literal to b.
func writeRows(b *bytes.Buffer, t [][][]float64) {
	b.WriteString("{\n")
	for _, rounds := range t {
		b.WriteString("\t{\n")
		for _, w := range rounds {
			b.WriteString("\t\t{")
			for i, x := range w {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(b, "%.6g", x)
			}
			b.WriteString("},\n")
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
}

// TestTrainValue fits the value function and rewrites value_weights.go:
//
//	go test ./bot -run TestTrainValue -train-value -timeout 1h
//
// It plays 20,000 games per player count; the fit is deterministic.
func TestTrainValue(t *testing.T) {
	if !*trainValue {
		t.Skip("run with -train-value to fit the value function")
	}
	const games = 20000
	var b bytes.Buffer
	b.WriteString("// Code generated by go test ./bot -run TestTrainValue -train-value; DO NOT EDIT.\n\n")
	b.WriteString("package bot\n\n")
	b.WriteString("// trainedValue holds the value function's weights by player count (2 to 5)\n")
	b.WriteString("// and round (2 and 3), fitted to 20,000 games of the heuristic per player count.\n")
	var table valueTable
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		rounds := valueGames(players, games, uint64(players))
		for r, samples := range rounds {
			w, loss := fitValue(players, samples)
			table[players-razzia.MinPlayers][r] = w
			t.Logf("%d players, round %d: %d positions, log loss %.4f (%.4f knowing nothing)",
				players, r+2, len(samples), loss, math.Log(float64(players)))
		}
	}
	b.WriteString("var trainedValue = ")
	writeTable(&b, &table)
	src, err := format.Source(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("value_weights.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
}
