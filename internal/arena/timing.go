package arena

import (
	"math"
	"math/bits"
	"time"
)

// Timing summarises how long a bot took to decide.
type Timing struct {
	Decisions int64         `json:"decisions"`
	Mean      time.Duration `json:"mean_ns"`
	P50       time.Duration `json:"p50_ns"`
	P90       time.Duration `json:"p90_ns"`
	P99       time.Duration `json:"p99_ns"`
	Max       time.Duration `json:"max_ns"`
	// Iterations is the mean number of iterations of the decisions where
	// a search bot searched (it has a choice and reports Iterations): a
	// bot limited by time runs fewer on a loaded machine, which this shows.
	Iterations float64 `json:"mean_iterations,omitempty"`
}

// A histogram counts durations in buckets of relative width 1/32, exact
// below 64ns: percentiles come out within about 2% (the bucket midpoint)
// with a fixed 15 KB however many decisions are counted, where keeping
// every duration of a long run of fast bots would take hundreds of
// megabytes.
type histogram struct {
	counts [histBuckets]int64
	n      int64
	sum    time.Duration
	max    time.Duration
	// searches and iters count the decisions a bot searched and their
	// iterations.
	searches, iters int64
}

const (
	subBits     = 5            // 32 buckets per power of two
	exact       = 2 << subBits // durations below this many ns have their own bucket
	histBuckets = exact + (64-subBits-1)<<subBits
)

// bucket returns the bucket index of a duration of v ns.
func bucket(v uint64) int {
	if v < exact {
		return int(v)
	}
	shift := bits.Len64(v) - subBits - 1 // >= 1
	return exact + (shift-1)<<subBits + int(v>>shift) - 1<<subBits
}

// bounds returns the least duration in bucket i and the bucket's width.
func bounds(i int) (low, width uint64) {
	if i < exact {
		return uint64(i), 1
	}
	i -= exact
	shift := i>>subBits + 1
	m := uint64(i&(1<<subBits-1) + 1<<subBits)
	return m << shift, 1 << shift
}

func (h *histogram) add(d time.Duration) {
	d = max(d, 0)
	h.counts[bucket(uint64(d))]++
	h.n++
	h.sum += d
	h.max = max(h.max, d)
}

// addIters counts a search of n iterations.
func (h *histogram) addIters(n int) {
	h.searches++
	h.iters += int64(n)
}

func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.sum += o.sum
	h.max = max(h.max, o.max)
	h.searches += o.searches
	h.iters += o.iters
}

// quantile returns the duration below which a share q of the counts lie:
// the midpoint of the bucket holding the ceil(q·n)-th smallest, never above
// the maximum.
func (h *histogram) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := max(int64(math.Ceil(q*float64(h.n))), 1)
	var seen int64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			low, width := bounds(i)
			return min(time.Duration(low+(width-1)/2), h.max)
		}
	}
	return h.max
}

func (h *histogram) timing() Timing {
	t := Timing{Decisions: h.n, Max: h.max}
	if h.n > 0 {
		t.Mean = h.sum / time.Duration(h.n)
		t.P50 = h.quantile(0.50)
		t.P90 = h.quantile(0.90)
		t.P99 = h.quantile(0.99)
	}
	if h.searches > 0 {
		t.Iterations = float64(h.iters) / float64(h.searches)
	}
	return t
}
