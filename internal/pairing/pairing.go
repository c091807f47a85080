// Package pairing decides which Play-now requests sit down together: it
// takes the open requests and the time, and returns the tables to make.
// It is pure (no store, clock or goroutine), so that the rule is one
// function with table tests; internal/meet runs it on the stored
// requests and seats the tables it returns.
//
// # The rule
//
// Requests are taken in the order they were made, the one that waited
// longest first. Each in turn, if its person is not seated yet, starts a
// table: for each size it accepts, largest first, it takes the compatible
// requests that accept that size, again longest waiting first, until the
// table is full. The first size that fills is made. A table that cannot
// fill waits, and its requests stay open for later ones; a request is
// never passed over for a later one that would take the same seat.
//
// Two requests are compatible when they are of different people (and
// names), neither
// blocks the other, they want the same pace and the same kind (rated or
// casual), their player counts overlap, each one's rating lies in the
// other's rating range and each one's finish rate is at least the other's
// minimum. A person without a rating (a guest) fits only a request that
// sets no rating range; a person without a finish rate (no finished or
// abandoned game yet) fits any minimum.
//
// # Bots
//
// A request may ask for bots to fill the table once it has waited a
// while (BotsAfter). When a table cannot fill with people, and every
// request at it asked for bots and has waited at least its BotsAfter,
// the table is made with bots in the seats people did not take: of the
// sizes the first request accepts, the one that seats the most people
// (of the requests that waited for bots), with as few bots as make it
// reach the count every request at it wants.
package pairing

import (
	"cmp"
	"slices"
	"time"
)

// The player counts of a Razzia table.
const (
	MinPlayers = 2
	MaxPlayers = 5
)

// A Request is an open Play-now request as pairing sees it.
type Request struct {
	ID     string
	Person string // who made it: two requests of one person never sit together
	// Name is the key of the person's name (playername.Key): two people
	// of one name cannot sit at one table.
	Name string
	// Min and Max bound the players the person wants at the table,
	// themselves included and bots too: 2 to 5, Min <= Max.
	Min, Max int
	Pace     string
	Rated    bool
	// Rating is the person's rating as shown; 0 for none (a guest).
	Rating int
	// RatingMin and RatingMax bound the ratings of the others at the
	// table; 0 leaves that side open.
	RatingMin, RatingMax int
	// Finish is the person's finish rate in percent; negative for none
	// yet. MinFinish is the least finish rate of the others (0: any).
	Finish, MinFinish int
	// BotsAfter is how long the request waits for people before bots may
	// fill the table; 0 never.
	BotsAfter time.Duration
	Created   time.Time
}

// A Table is a table to make: the requests seated at it, in the order
// they were made, and how many bots fill the other seats.
type Table struct {
	Requests []string
	Bots     int
}

// Seats returns the number of seats of the table.
func (t Table) Seats() int { return len(t.Requests) + t.Bots }

// Blocks reports whether person a blocks person b: neither is ever
// seated with the other.
type Blocks func(a, b string) bool

// Compatible reports whether requests a and b may sit at one table.
func Compatible(a, b Request, blocks Blocks) bool {
	switch {
	case a.Person == b.Person || a.Name != "" && a.Name == b.Name:
		return false
	case a.Pace != b.Pace || a.Rated != b.Rated:
		return false
	case max(a.Min, b.Min) > min(a.Max, b.Max):
		return false
	case !accepts(a, b) || !accepts(b, a):
		return false
	case blocks != nil && (blocks(a.Person, b.Person) || blocks(b.Person, a.Person)):
		return false
	}
	return true
}

// accepts reports whether a's person accepts b's at the table: b's
// rating in a's range and b's finish rate at least a's minimum.
func accepts(a, b Request) bool {
	if a.RatingMin > 0 || a.RatingMax > 0 {
		if b.Rating <= 0 || a.RatingMin > 0 && b.Rating < a.RatingMin || a.RatingMax > 0 && b.Rating > a.RatingMax {
			return false
		}
	}
	return a.MinFinish <= 0 || b.Finish < 0 || b.Finish >= a.MinFinish
}

// Pair returns the tables to make of the open requests at now, by the
// rule of the package comment. blocks may be nil (nobody blocks anyone).
// Each request is at one table at most, and so is each person. reqs is
// not changed.
func Pair(reqs []Request, now time.Time, blocks Blocks) []Table {
	order := slices.Clone(reqs)
	slices.SortStableFunc(order, func(a, b Request) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	seated := map[string]bool{} // people
	var tables []Table
	for i, first := range order {
		if seated[first.Person] || !valid(first) {
			continue
		}
		free := func(r Request) bool { return !seated[r.Person] && valid(r) }
		group, ok := people(first, order[i+1:], free, blocks)
		bots := 0
		if !ok {
			due := func(r Request) bool { return free(r) && botsDue(r, now) }
			if !botsDue(first, now) {
				continue
			}
			group = withBots(first, order[i+1:], due, blocks)
			bots = max(0, max(first.Min, maxMin(group))-len(group))
		}
		t := Table{Bots: bots}
		for _, r := range group {
			seated[r.Person] = true
			t.Requests = append(t.Requests, r.ID)
		}
		tables = append(tables, t)
	}
	return tables
}

// people returns the largest table of people first can sit at with the
// requests of rest that free admits, each size tried from first's Max
// down; ok is false when none fills.
func people(first Request, rest []Request, free func(Request) bool, blocks Blocks) (group []Request, ok bool) {
	for n := first.Max; n >= first.Min; n-- {
		if g := gather(first, rest, n, free, blocks); len(g) == n {
			return g, true
		}
	}
	return nil, false
}

// withBots returns the people of the table first sits at with bots: the
// size that seats the most people, the smallest of those, so the fewest
// bots fill it.
func withBots(first Request, rest []Request, due func(Request) bool, blocks Blocks) []Request {
	var best []Request
	for n := first.Min; n <= first.Max; n++ {
		if g := gather(first, rest, n, due, blocks); len(g) > len(best) {
			best = g
		}
	}
	return best
}

// gather collects, longest waiting first, the requests of rest that want
// a table of n, pass admit and are compatible with first and each other,
// until n people are there.
func gather(first Request, rest []Request, n int, admit func(Request) bool, blocks Blocks) []Request {
	group := []Request{first}
	for _, r := range rest {
		if len(group) == n {
			break
		}
		if r.Min <= n && n <= r.Max && admit(r) && fits(group, r, blocks) {
			group = append(group, r)
		}
	}
	return group
}

// maxMin returns the largest Min of group.
func maxMin(group []Request) int {
	n := 0
	for _, r := range group {
		n = max(n, r.Min)
	}
	return n
}

// valid reports whether r's counts can make a table at all; the caller
// checks requests when they are made, so an invalid one is only skipped.
func valid(r Request) bool {
	return r.Min >= MinPlayers && r.Max <= MaxPlayers && r.Min <= r.Max
}

// fits reports whether r is compatible with every request of group.
func fits(group []Request, r Request, blocks Blocks) bool {
	for _, g := range group {
		if !Compatible(g, r, blocks) {
			return false
		}
	}
	return true
}

// botsDue reports whether r asked for bots and has waited for them.
func botsDue(r Request, now time.Time) bool {
	return r.BotsAfter > 0 && now.Sub(r.Created) >= r.BotsAfter
}

// BotsDue returns when the first request of reqs could be seated with
// bots, if any asks for them: the time a server should look again
// without a new request. ok is false when none asks.
func BotsDue(reqs []Request) (due time.Time, ok bool) {
	for _, r := range reqs {
		if r.BotsAfter <= 0 {
			continue
		}
		at := r.Created.Add(r.BotsAfter)
		if !ok || at.Before(due) {
			due, ok = at, true
		}
	}
	return due, ok
}
