package pairing_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/pairing"
)

var t0 = time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)

// req is a request of person p (its id too) made s seconds after t0,
// wanting lo to hi players, casual, rapid, no bounds.
func req(p string, s, lo, hi int) pairing.Request {
	return pairing.Request{ID: p, Person: p, Min: lo, Max: hi, Pace: "rapid", Finish: -1, Created: t0.Add(time.Duration(s) * time.Second)}
}

func with(r pairing.Request, f func(*pairing.Request)) pairing.Request { f(&r); return r }

func tbl(bots int, ids ...string) pairing.Table { return pairing.Table{Requests: ids, Bots: bots} }

func TestPair(t *testing.T) {
	blocksAB := func(a, b string) bool { return a == "a" && b == "b" }
	tests := []struct {
		name   string
		reqs   []pairing.Request
		now    time.Duration
		blocks pairing.Blocks
		want   []pairing.Table
	}{
		{"nobody", nil, 0, nil, nil},
		{"alone waits", []pairing.Request{req("a", 0, 2, 2)}, time.Hour, nil, nil},
		{"two", []pairing.Request{req("a", 0, 2, 2), req("b", 1, 2, 2)}, 0, nil, []pairing.Table{tbl(0, "a", "b")}},
		{"oldest first, whatever the input order",
			[]pairing.Request{req("c", 2, 2, 2), req("b", 1, 2, 2), req("a", 0, 2, 2)}, 0, nil,
			[]pairing.Table{tbl(0, "a", "b")}},
		{"three at a three-table", []pairing.Request{req("a", 0, 3, 3), req("b", 1, 3, 3), req("c", 2, 3, 3)}, 0, nil,
			[]pairing.Table{tbl(0, "a", "b", "c")}},
		{"three wait for the third", []pairing.Request{req("a", 0, 3, 3), req("b", 1, 3, 3)}, 0, nil, nil},
		{"five fill", []pairing.Request{req("a", 0, 5, 5), req("b", 1, 5, 5), req("c", 2, 5, 5), req("d", 3, 5, 5), req("e", 4, 5, 5)}, 0, nil,
			[]pairing.Table{tbl(0, "a", "b", "c", "d", "e")}},
		{"a range takes the largest table that fills",
			[]pairing.Request{req("a", 0, 2, 4), req("b", 1, 2, 4), req("c", 2, 3, 4)}, 0, nil,
			[]pairing.Table{tbl(0, "a", "b", "c")}},
		{"a larger minimum does not block a smaller table",
			[]pairing.Request{req("a", 0, 2, 4), req("b", 1, 4, 4), req("c", 2, 2, 2)}, 0, nil,
			[]pairing.Table{tbl(0, "a", "c")}},
		{"counts that do not overlap", []pairing.Request{req("a", 0, 2, 2), req("b", 1, 3, 5)}, 0, nil, nil},
		{"the longest waiting of three is seated", []pairing.Request{req("a", 0, 2, 2), req("b", 1, 2, 2), req("c", 2, 2, 2)}, 0, nil,
			[]pairing.Table{tbl(0, "a", "b")}},
		{"two tables", []pairing.Request{req("a", 0, 2, 2), req("b", 1, 2, 2), req("c", 2, 2, 2), req("d", 3, 2, 2)}, 0, nil,
			[]pairing.Table{tbl(0, "a", "b"), tbl(0, "c", "d")}},
		{"other pace", []pairing.Request{req("a", 0, 2, 2), with(req("b", 1, 2, 2), func(r *pairing.Request) { r.Pace = "blitz" })}, 0, nil, nil},
		{"rated and casual", []pairing.Request{req("a", 0, 2, 2), with(req("b", 1, 2, 2), func(r *pairing.Request) { r.Rated = true })}, 0, nil, nil},
		{"one person's two requests", []pairing.Request{req("a", 0, 2, 2), with(req("a", 1, 2, 2), func(r *pairing.Request) { r.ID = "a2" })}, 0, nil, nil},
		{"a person seated once, though two of their requests could sit",
			[]pairing.Request{req("a", 0, 2, 2), with(req("a", 1, 3, 3), func(r *pairing.Request) { r.ID = "a2" }),
				req("b", 2, 2, 3), req("c", 3, 3, 3), req("d", 4, 3, 3)}, 0, nil,
			[]pairing.Table{tbl(0, "a", "b")}},
		{"blocked one way", []pairing.Request{req("a", 0, 2, 2), req("b", 1, 2, 2)}, 0, blocksAB, nil},
		{"blocked the other way", []pairing.Request{req("b", 0, 2, 2), req("a", 1, 2, 2)}, 0, blocksAB, nil},
		{"blocked, so the next one", []pairing.Request{req("a", 0, 2, 2), req("b", 1, 2, 2), req("c", 2, 2, 2)}, 0, blocksAB,
			[]pairing.Table{tbl(0, "a", "c")}},
		{"no third who blocks one of two", []pairing.Request{req("a", 0, 3, 3), req("c", 1, 3, 3), req("b", 2, 3, 3)}, 0, blocksAB, nil},
		{"rating in range",
			[]pairing.Request{
				with(req("a", 0, 2, 2), func(r *pairing.Request) { r.Rating, r.RatingMin, r.RatingMax = 1500, 1400, 1600 }),
				with(req("b", 1, 2, 2), func(r *pairing.Request) { r.Rating = 1700 }),
				with(req("c", 2, 2, 2), func(r *pairing.Request) { r.Rating = 1600 }),
			}, 0, nil, []pairing.Table{tbl(0, "a", "c")}},
		{"rating range both ways",
			[]pairing.Request{
				with(req("a", 0, 2, 2), func(r *pairing.Request) { r.Rating = 1200 }),
				with(req("b", 1, 2, 2), func(r *pairing.Request) { r.Rating, r.RatingMin = 1500, 1400 }),
			}, 0, nil, nil},
		{"a guest has no rating for a range",
			[]pairing.Request{
				with(req("a", 0, 2, 2), func(r *pairing.Request) { r.Rating, r.RatingMax = 1500, 1900 }),
				req("guest", 1, 2, 2),
			}, 0, nil, nil},
		{"finish rate minimum",
			[]pairing.Request{
				with(req("a", 0, 2, 2), func(r *pairing.Request) { r.Finish, r.MinFinish = 95, 90 }),
				with(req("b", 1, 2, 2), func(r *pairing.Request) { r.Finish = 60 }),
				with(req("c", 2, 2, 2), func(r *pairing.Request) { r.Finish = 90 }),
			}, 0, nil, []pairing.Table{tbl(0, "a", "c")}},
		{"no finish rate yet passes a minimum",
			[]pairing.Request{
				with(req("a", 0, 2, 2), func(r *pairing.Request) { r.MinFinish = 90 }),
				req("b", 1, 2, 2),
			}, 0, nil, []pairing.Table{tbl(0, "a", "b")}},
		{"bots not yet", []pairing.Request{with(req("a", 0, 3, 3), func(r *pairing.Request) { r.BotsAfter = 30 * time.Second })},
			29 * time.Second, nil, nil},
		{"bots fill three seats", []pairing.Request{with(req("a", 0, 3, 3), func(r *pairing.Request) { r.BotsAfter = 30 * time.Second })},
			30 * time.Second, nil, []pairing.Table{tbl(2, "a")}},
		{"bots fill beside a person",
			[]pairing.Request{
				with(req("a", 0, 3, 3), func(r *pairing.Request) { r.BotsAfter = 30 * time.Second }),
				with(req("b", 10, 3, 3), func(r *pairing.Request) { r.BotsAfter = 10 * time.Second }),
			}, 30 * time.Second, nil, []pairing.Table{tbl(1, "a", "b")}},
		{"no bots while another has not waited for them",
			[]pairing.Request{
				with(req("a", 0, 3, 3), func(r *pairing.Request) { r.BotsAfter = 30 * time.Second }),
				with(req("b", 10, 3, 3), func(r *pairing.Request) { r.BotsAfter = 60 * time.Second }),
			}, 30 * time.Second, nil, []pairing.Table{tbl(2, "a")}},
		{"a range with bots takes the fewest bots",
			[]pairing.Request{with(req("a", 0, 2, 5), func(r *pairing.Request) { r.BotsAfter = time.Second })},
			time.Minute, nil, []pairing.Table{tbl(1, "a")}},
		{"people first, bots only when they cannot fill",
			[]pairing.Request{
				with(req("a", 0, 2, 2), func(r *pairing.Request) { r.BotsAfter = time.Second }),
				req("b", 50, 2, 2),
			}, time.Minute, nil, []pairing.Table{tbl(0, "a", "b")}},
		{"bad counts are skipped", []pairing.Request{req("a", 0, 1, 2), req("b", 1, 2, 6), req("c", 2, 3, 2)}, time.Hour, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := pairing.Pair(tc.reqs, t0.Add(tc.now), tc.blocks)
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Pair = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPairInvariants: whatever the requests, nobody sits twice, every
// table is within its requests' counts, and everyone at it is compatible.
func TestPairInvariants(t *testing.T) {
	paces := []string{"rapid", "blitz"}
	for seed := range 200 {
		var reqs []pairing.Request
		for i := range 12 {
			lo := 2 + (seed+i)%4
			hi := lo + (seed*7+i)%(6-lo)
			r := req(fmt.Sprintf("p%d", (seed*3+i*5)%9), i, lo, hi)
			r.ID = fmt.Sprintf("r%d", i)
			r.Pace = paces[(seed+i*i)%2]
			r.Rating = 1200 + 50*((seed+i)%9)
			if i%3 == 0 {
				r.RatingMin = r.Rating - 150
			}
			if i%4 == 0 {
				r.BotsAfter = time.Duration(i) * time.Second
			}
			reqs = append(reqs, r)
		}
		byID := map[string]pairing.Request{}
		for _, r := range reqs {
			byID[r.ID] = r
		}
		people := map[string]bool{}
		for _, tb := range pairing.Pair(reqs, t0.Add(8*time.Second), nil) {
			if tb.Seats() < pairing.MinPlayers || tb.Seats() > pairing.MaxPlayers {
				t.Fatalf("seed %d: a table of %d seats", seed, tb.Seats())
			}
			for i, id := range tb.Requests {
				r := byID[id]
				if people[r.Person] {
					t.Fatalf("seed %d: %s seated twice", seed, r.Person)
				}
				people[r.Person] = true
				if tb.Seats() < r.Min || tb.Seats() > r.Max {
					t.Fatalf("seed %d: %s wants %d-%d, seated at %d", seed, id, r.Min, r.Max, tb.Seats())
				}
				for _, other := range tb.Requests[:i] {
					if !pairing.Compatible(byID[other], r, nil) {
						t.Fatalf("seed %d: %s and %s are not compatible", seed, other, id)
					}
				}
			}
		}
	}
}

func TestBotsDue(t *testing.T) {
	if _, ok := pairing.BotsDue([]pairing.Request{req("a", 0, 2, 2)}); ok {
		t.Error("BotsDue without bots: ok")
	}
	due, ok := pairing.BotsDue([]pairing.Request{
		with(req("a", 0, 2, 2), func(r *pairing.Request) { r.BotsAfter = time.Minute }),
		with(req("b", 10, 2, 2), func(r *pairing.Request) { r.BotsAfter = 20 * time.Second }),
	})
	if want := t0.Add(30 * time.Second); !ok || !due.Equal(want) {
		t.Errorf("BotsDue = %v, %v; want %v", due, ok, want)
	}
}

// FuzzPair: whatever the requests, nobody sits twice, every table has 2
// to 5 seats within each of its requests' counts, and its requests are
// compatible with one another.
func FuzzPair(f *testing.F) {
	f.Add([]byte{2, 2, 0, 3, 3, 1, 2, 4, 2, 5, 5, 0})
	f.Add([]byte{2, 5, 3, 2, 5, 3, 3, 3, 7})
	f.Fuzz(func(t *testing.T, b []byte) {
		var reqs []pairing.Request
		for i := 0; i+2 < len(b) && len(reqs) < 20; i += 3 {
			r := req(fmt.Sprint("p", b[i+2]%7), i, int(b[i]%6), int(b[i+1]%7))
			r.ID = fmt.Sprint("r", i)
			r.Rated = b[i+2]&8 != 0
			r.Rating = int(b[i+2]) * 10
			if b[i]&16 != 0 {
				r.RatingMin = 800
			}
			if b[i+1]&16 != 0 {
				r.BotsAfter = time.Second
			}
			reqs = append(reqs, r)
		}
		byID := map[string]pairing.Request{}
		for _, r := range reqs {
			byID[r.ID] = r
		}
		people := map[string]bool{}
		for _, tb := range pairing.Pair(reqs, t0.Add(time.Minute), nil) {
			if tb.Seats() < pairing.MinPlayers || tb.Seats() > pairing.MaxPlayers || len(tb.Requests) == 0 {
				t.Fatalf("a table of %d seats: %+v", tb.Seats(), tb)
			}
			for i, id := range tb.Requests {
				r := byID[id]
				if people[r.Person] {
					t.Fatalf("%s seated twice", r.Person)
				}
				people[r.Person] = true
				if tb.Seats() < r.Min || tb.Seats() > r.Max {
					t.Fatalf("%s wants %d-%d, seated at %d", id, r.Min, r.Max, tb.Seats())
				}
				for _, other := range tb.Requests[:i] {
					if !pairing.Compatible(byID[other], r, nil) {
						t.Fatalf("%s and %s are not compatible", other, id)
					}
				}
			}
		}
	})
}
