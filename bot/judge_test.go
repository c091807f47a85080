package bot

import (
	"math"
	"testing"
)

// TestExp checks the judge's exp against math.Exp over the arguments it
// meets, and at the ends of its range.
func TestExp(t *testing.T) {
	for x := -50.0; x < 50; x += 0.001 {
		if r := exp(x) / math.Exp(x); math.Abs(r-1) > 1e-7 {
			t.Fatalf("exp(%g) = %g, want %g", x, exp(x), math.Exp(x))
		}
	}
	if exp(-800) != 0 || !math.IsInf(exp(800), 1) {
		t.Errorf("exp(-800) = %g, exp(800) = %g; want 0 and +Inf", exp(-800), exp(800))
	}
}

// TestNormal: the logistic stand-in for the normal distribution function
// (with the usual factor 1.702) is symmetric and within 0.01 of it.
func TestNormal(t *testing.T) {
	for x := -5.0; x <= 5; x += 0.01 {
		phi := 0.5 * math.Erfc(-x/math.Sqrt2)
		if d := math.Abs(normal(x) - phi); d > 0.0095 {
			t.Fatalf("normal(%g) = %g, Φ = %g", x, normal(x), phi)
		}
		if s := normal(x) + normal(-x); math.Abs(s-1) > 1e-6 {
			t.Fatalf("normal(%g) + normal(%g) = %g", x, -x, s)
		}
	}
}

func BenchmarkExp(b *testing.B) {
	x := 0.0
	for i := 0; b.Loop(); i++ {
		x += exp(float64(i%100) * -0.1)
	}
	_ = x
}

// TestChequeBeat: with beat, a cheque's spare (what it could still buy
// this round) counts in proportion to the others' face-up cheques it
// beats: fully for one above all of them, not at all for one below all,
// and the rest of its cost stays as it was. At the start of a 2-player
// game one seat holds 2 5 6 9 and the other 3 4 7 8 (R4).
func TestChequeBeat(t *testing.T) {
	g := newGame(t, 2, "cheque beat")
	st := g.State()
	plain := defaultWeights
	beat := plain
	beat.beat = 1
	for p := range 2 {
		others := st.FaceUp(1 - p)
		up := st.FaceUp(p)
		for c := up; c != 0; c &= c - 1 {
			v := c.Min()
			below := others.Len() - others.Above(v-1).Len()
			share := float64(below) / float64(others.Len())
			a, b := newJudge(&st, &plain), newJudge(&st, &beat)
			if got := b.beaten(p, v); got != share {
				t.Errorf("seat %d, cheque %d: beaten %v, want %v", p, v, got, share)
			}
			spare := plain.spare
			if up.Len() == 1 {
				spare *= 1 + plain.lastOne
			}
			want := a.chequeCost(p, v) - a.left*spare*(1-share)
			if got := b.chequeCost(p, v); math.Abs(got-want) > 1e-9 {
				t.Errorf("seat %d, cheque %d: cost with beat %v, want %v", p, v, got, want)
			}
		}
	}
	if got := newJudge(&st, &beat); got.beaten(0, 1) != 0 || got.beaten(0, 16) != 1 {
		t.Errorf("a 1 beats %v of the others' cheques, a 16 %v: want 0 and 1", got.beaten(0, 1), got.beaten(0, 16))
	}
}
