package razzia

import (
	"encoding/json"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// uniform returns a number in [0, n) from r by Lemire's multiply-shift; its
// bias, at most n/2^64, is far below anything a game could show. Calling
// the concrete PCG keeps the benchmark about the engine, not about an
// interface call per random number.
func uniform(r *rand.PCG, n int) int {
	hi, _ := bits.Mul64(r.Uint64(), uint64(n))
	return int(hi)
}

// playRandom plays one complete game from s choosing uniformly among the
// legal moves, chance drawn from r, and returns the number of moves (record
// tokens) played.
func playRandom(s *State, r *rand.PCG, buf []Move) (int, []Move) {
	moves := 0
	for !s.Over() {
		buf = s.LegalMoves(buf[:0])
		m := buf[uniform(r, len(buf))]
		if m.Action == ActionDraw {
			m.Card = s.CardAt(uniform(r, s.DeckLeft()))
		}
		s.Apply(m)
		moves++
	}
	return moves, buf
}

// BenchmarkRandomGame plays complete 4-player games choosing uniformly among
// legal moves and reports games/s and moves/s (a move is one record token).
func BenchmarkRandomGame(b *testing.B) {
	start, err := NewState(4, nil)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.NewPCG(1, 2)
	buf := make([]Move, 0, 80)
	moves := 0
	b.ReportAllocs()
	for b.Loop() {
		s := start
		var n int
		n, buf = playRandom(&s, r, buf)
		moves += n
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "games/s")
	b.ReportMetric(float64(moves)/sec, "moves/s")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
}

// BenchmarkLegalMoves generates the legal moves of positions met in random games.
func BenchmarkLegalMoves(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var positions []State
	for range 20 {
		s, _ := NewState(4, nil)
		var buf []Move
		for !s.Over() {
			positions = append(positions, s)
			buf = s.LegalMoves(buf[:0])
			m := buf[r.IntN(len(buf))]
			if m.Action == ActionDraw {
				m.Card = s.RandomCard(r)
			}
			s.Apply(m)
		}
	}
	buf := make([]Move, 0, 80)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		buf = positions[i].LegalMoves(buf[:0])
		i++
		if i == len(positions) {
			i = 0
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// BenchmarkScoreJSON encodes a score, as every state sent to a player
// does once a seat: allocs/op is the figure to watch.
func BenchmarkScoreJSON(b *testing.B) {
	s := Score{3, 1, 4, 1, 5, 9, 2}
	for b.Loop() {
		if _, err := json.Marshal(s); err != nil {
			b.Fatal(err)
		}
	}
}
