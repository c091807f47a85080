package director

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tournament"
)

// Patience is how long people left over in an arena (fewer than a
// table) wait for others to finish before they are seated at a smaller
// table, or with bots (tournament.ArenaSeat).
const Patience = 30 * time.Second

// advance takes the tournament as far as it can go at now: it starts it,
// seats a round or an arena's tables, or ends it. It returns whether it
// changed anything, the tables it seated, and when it should be asked
// again at the latest (zero: when something happens).
func (t *tour) advance(now time.Time) (changed bool, added []store.TournamentTable, wake time.Time) {
	if t.rec.Status == store.TournamentWaiting {
		due := t.st.StartAsked || !t.rec.Starts.IsZero() && !now.Before(t.rec.Starts)
		if !due {
			return false, nil, t.rec.Starts
		}
		if len(t.active()) < minPlayers(t.set) {
			if t.set.TooFew == protocol.TooFewCancel {
				t.rec.Status = store.TournamentCancelled
				return true, nil, time.Time{}
			}
			return false, nil, time.Time{} // a join asks again
		}
		t.rec.Status = store.TournamentRunning
		t.st.Started = now
		if t.format() == tournament.Arena {
			t.st.Ends = now.Add(time.Duration(t.set.Minutes) * time.Minute)
		}
		changed = true
	}
	if t.rec.Status != store.TournamentRunning {
		return changed, nil, time.Time{}
	}
	var c bool
	if t.format() == tournament.Arena {
		c, added, wake = t.arenaStep(now)
	} else {
		c, added, wake = t.roundStep(now)
	}
	return changed || c, added, wake
}

// roundStep seats the next round of a Swiss or duplicate tournament once
// the last is over and its break has passed, or ends the tournament.
func (t *tour) roundStep(now time.Time) (bool, []store.TournamentTable, time.Time) {
	if !t.roundOver(t.st.Round) {
		return false, nil, time.Time{}
	}
	if t.st.Round >= t.set.Rounds || t.st.Ended {
		t.finish()
		return true, nil, time.Time{}
	}
	if t.st.Paused {
		return false, nil, time.Time{}
	}
	if t.st.Round > 0 {
		if t.st.Next.IsZero() {
			t.st.Next = now.Add(time.Duration(*t.set.BreakSeconds) * time.Second)
			if now.Before(t.st.Next) {
				return true, nil, t.st.Next
			}
		}
		if now.Before(t.st.Next) {
			return false, nil, t.st.Next
		}
	}
	people := t.active()
	if len(people) < minPlayers(t.set) {
		if t.anyPaused() {
			return false, nil, time.Time{} // until they play again, or the organiser ends it
		}
		t.finish()
		return true, nil, time.Time{}
	}
	tables, err := t.seatRound(people)
	if err != nil {
		t.finish()
		return true, nil, time.Time{}
	}
	t.st.Round++
	t.st.Next = time.Time{}
	added := make([]store.TournamentTable, len(tables))
	for i, tb := range tables {
		added[i] = store.TournamentTable{Round: t.st.Round, Index: i + 1, Game: t.gameID(t.st.Round, i+1),
			Deal: tb.Deal, Seats: tb.Seats}
	}
	t.rec.Tables = append(t.rec.Tables, added...)
	return true, added, time.Time{}
}

// anyPaused reports whether a player sits out for now.
func (t *tour) anyPaused() bool {
	return slices.ContainsFunc(t.rec.Players, func(p store.TournamentPlayer) bool { return p.Status == protocol.PlayerPaused })
}

// seatRound seats the next round of people: by the standings after the
// first round, and in an order drawn from the seed for the first, so that
// the first round's tables are a fair draw.
func (t *tour) seatRound(people []string) ([]tournament.Table, error) {
	round := t.st.Round + 1
	seed := t.pairingSeed("round " + strconv.Itoa(round))
	var order []tournament.Ranked
	if round == 1 {
		for _, id := range people {
			order = append(order, tournament.Ranked{ID: id})
		}
		rand.New(rand.NewPCG(seed, 0)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	} else {
		order = rankedOf(t.standings(), people)
	}
	met := tournament.History{}
	counts := tournament.SeatCounts{}
	for _, tb := range t.rec.Tables {
		met.Add(tb.Seats)
		counts.Add(tb.Seats)
	}
	if t.format() == tournament.Duplicate {
		return tournament.DuplicateRound(order, t.set.TableSize, round, met, counts, seed)
	}
	return tournament.SwissRound(order, t.set.TableSize, t.set.Fill, met, seed)
}

// rankedOf lists people in the order of the standings, with their points.
func rankedOf(st []tournament.Standing, people []string) []tournament.Ranked {
	in := map[string]bool{}
	for _, p := range people {
		in[p] = true
	}
	var out []tournament.Ranked
	for _, s := range st {
		if in[s.ID] {
			out = append(out, tournament.Ranked{ID: s.ID, Points: s.Points})
			delete(in, s.ID)
		}
	}
	for _, p := range people { // not ranked yet: last, in the order they joined
		if in[p] {
			out = append(out, tournament.Ranked{ID: p})
		}
	}
	return out
}

// arenaStep seats the people of an arena who are free, or ends it once
// its time is up and its last games are over.
func (t *tour) arenaStep(now time.Time) (bool, []store.TournamentTable, time.Time) {
	open := t.open()
	if !now.Before(t.st.Ends) || t.st.Ended {
		if len(open) == 0 {
			t.finish()
			return true, nil, time.Time{}
		}
		return false, nil, time.Time{}
	}
	if t.st.Paused {
		return false, nil, t.st.Ends
	}
	waiting := t.waiting()
	tables := tournament.ArenaSeat(now, waiting, t.set.TableSize, Patience, t.set.Fill, t.lastMet(), t.pairingSeed("table "+strconv.Itoa(t.st.Tables+1)))
	var added []store.TournamentTable
	seated := map[string]bool{}
	for _, tb := range tables {
		t.st.Tables++
		added = append(added, store.TournamentTable{Index: t.st.Tables, Game: t.gameID(0, t.st.Tables), Seats: tb.Seats})
		for _, a := range tb.Seats {
			seated[a] = true
		}
	}
	t.rec.Tables = append(t.rec.Tables, added...)
	wake := t.st.Ends
	for _, w := range waiting {
		if at := w.Since.Add(Patience); !seated[w.ID] && at.After(now) && at.Before(wake) {
			wake = at
		}
	}
	return len(added) > 0, added, wake
}

// waiting returns the arena's people free to play, best first, with
// since when: the end of their last game, or when they joined, or the
// start.
func (t *tour) waiting() []tournament.Waiting {
	busy := t.busy()
	last := map[string]time.Time{}
	for _, tb := range t.rec.Tables {
		for _, a := range tb.Seats {
			if tb.Finished.After(last[a]) {
				last[a] = tb.Finished
			}
		}
	}
	var free []string
	since := map[string]time.Time{}
	for _, p := range t.rec.Players {
		if p.Status != protocol.PlayerIn {
			continue
		}
		if _, ok := busy[p.Account]; ok {
			continue
		}
		free = append(free, p.Account)
		s := t.st.Started
		if p.Joined.After(s) {
			s = p.Joined
		}
		if last[p.Account].After(s) {
			s = last[p.Account]
		}
		since[p.Account] = s
	}
	var out []tournament.Waiting
	for _, r := range rankedOf(t.standings(), free) {
		out = append(out, tournament.Waiting{Ranked: r, Since: since[r.ID]})
	}
	return out
}

// lastMet counts as met the people of each person's last table only, so
// that an arena avoids an immediate rematch, not every old opponent.
func (t *tour) lastMet() tournament.History {
	last := map[string]store.TournamentTable{}
	for _, tb := range t.rec.Tables {
		for _, a := range tb.Seats {
			if a != "" && (last[a].Game == "" || tb.Index > last[a].Index) {
				last[a] = tb
			}
		}
	}
	h := tournament.History{}
	for a, tb := range last {
		for _, b := range tb.Seats {
			if b != "" && b != a && h.Met(a, b) == 0 {
				h.Add([]string{a, b})
			}
		}
	}
	return h
}

// finish ends the tournament and writes each ranked person's final rank
// and number (points, or a duplicate tournament's percentage, times 100).
func (t *tour) finish() {
	t.rec.Status = store.TournamentFinished
	t.st.Next = time.Time{}
	for _, s := range t.standings() {
		i := t.player(s.ID)
		t.rec.Players[i].Rank = s.Rank
		t.rec.Players[i].Points = int64(t.shown(s)*100 + 0.5)
	}
}
