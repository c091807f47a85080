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
