package director

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/table"
	"github.com/razziagame/razzia/internal/tournament"
)

// start creates a tournament organised by ps[0], enters everyone in ps
// and starts it.
func (h *harness) start(n *node, set protocol.TournamentSettings, ps []Person) string {
	h.t.Helper()
	v, err := n.dir.Create(h.ctx, ps[0], set)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, p := range ps {
		if err := n.dir.Join(h.ctx, v.ID, p, set.Password); err != nil {
			h.t.Fatalf("%s joins: %v", p.Name, err)
		}
	}
	if err := n.dir.Organise(h.ctx, v.ID, ps[0], protocol.ActionStart, ""); err != nil {
		h.t.Fatal(err)
	}
	return v.ID
}

// TestDuplicateThroughTheHub runs a duplicate tournament of 12 people at
// tables of 4 for 2 rounds: each round's tables play one deal (one seed),
// hidden from everyone while the round is played and revealed after it;
// the standings are the matchpoints of the stored results.
func TestDuplicateThroughTheHub(t *testing.T) {
	h := newHarness(t, memstore.New())
	n := h.addNode("n1", time.Minute)
	ps := h.people(12)
	id := h.start(n, protocol.TournamentSettings{Name: "Duplicate night", Format: "duplicate", TableSize: 4, Rounds: 2, BreakSeconds: zero()}, ps)
	for round := 1; round <= 2; round++ {
		v := h.until(n.dir, id, fmt.Sprintf("round %d", round), func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == round && ready(v) })
		r := v.RoundsPlayed[round-1]
		if len(r.Tables) != 3 || len(r.Deals) != 0 {
			t.Fatalf("round %d: %d tables, %d deals shown while played", round, len(r.Tables), len(r.Deals))
		}
		var seed []byte
		for _, tb := range r.Tables {
			g, err := h.st.Game(h.ctx, tb.Game)
			if err != nil {
				t.Fatal(err)
			}
			if seed != nil && !bytes.Equal(g.Seed, seed) || tb.Deal != round*10+4 {
				t.Errorf("round %d table %d: deal %d, seed %x; want deal %d, one seed", round, tb.Index, tb.Deal, g.Seed, round*10+4)
			}
			seed = g.Seed
			if hidden, err := n.dir.Hidden(h.ctx, tb.Game); err != nil || !hidden {
				t.Errorf("round %d table %d while played: hidden %v, %v", round, tb.Index, hidden, err)
			}
		}
		h.playRound(n, v)
		v = h.until(n.dir, id, fmt.Sprintf("round %d over", round), func(v protocol.Tournament) bool {
			return len(v.RoundsPlayed[round-1].Deals) == 1
		})
		d := v.RoundsPlayed[round-1].Deals[0]
		if d.Deal != round*10+4 || d.Players != 4 || len(d.Cheques) != 4 || len(d.Cards) == 0 {
			t.Errorf("round %d's deal revealed as %+v", round, d)
		}
		if hidden, err := n.dir.Hidden(h.ctx, r.Tables[0].Game); err != nil || hidden {
			t.Errorf("round %d over: hidden %v, %v", round, hidden, err)
		}
	}
	v := h.until(n.dir, id, "the end", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentFinished })
	rec, _ := h.st.Tournament(h.ctx, id)
	tr, _ := load(rec)
	mp := tournament.Matchpoints(tr.games())
	for _, line := range v.Ranking {
		var acct string
		for _, p := range rec.Players {
			if p.Name == line.Name {
				acct = p.Account
			}
		}
		m := mp[acct]
		if m.Deals != 2 || fmt.Sprintf("%.2f", 100*m.Sum/2) != fmt.Sprintf("%.2f", line.Percent) {
			t.Errorf("%s: %.2f%% over %d deals shown; the matchpoints are %v over %d", line.Name, line.Percent, line.Games, m.Sum, m.Deals)
		}
	}
	if hidden, err := n.dir.Hidden(h.ctx, "nosuchgame"); err != nil || hidden {
		t.Errorf("a game of no tournament: hidden %v, %v", hidden, err)
	}
}

// TestArenaThroughTheHub runs an arena of 7 at tables of 3: those who
// finish are seated again at once when enough are free, the one left
// over waits, a latecomer joins, and once its time is up the games under
// way finish and it ends.
func TestArenaThroughTheHub(t *testing.T) {
	h := newHarness(t, memstore.New())
	n := h.addNode("n1", time.Minute)
	ps := h.people(8)
	id := h.start(n, protocol.TournamentSettings{Name: "Arena", Format: "arena", TableSize: 3, Minutes: 10}, ps[:7])
	v := h.until(n.dir, id, "the first tables", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 1 && ready(v) })
	if got := len(v.RoundsPlayed[0].Tables); got != 2 {
		t.Fatalf("%d tables for 7 at tables of 3; want 2, one waiting", got)
	}
	if err := n.dir.Join(h.ctx, id, ps[7], ""); err != nil {
		t.Fatalf("a late join: %v", err)
	}
	// The latecomer and the one left over make 2 of 3: they wait, until
	// their patience runs out.
	h.clock.Advance(Patience)
	v = h.until(n.dir, id, "the late table", func(v protocol.Tournament) bool { return len(v.RoundsPlayed[0].Tables) == 3 && ready(v) })
	if got := len(v.RoundsPlayed[0].Tables[2].Seats); got != 2 {
		t.Errorf("the late table seats %d, want the 2 waiting", got)
	}
	h.playRound(n, v)
	v = h.until(n.dir, id, "the second wave", func(v protocol.Tournament) bool { return len(v.RoundsPlayed[0].Tables) > 3 && ready(v) })
	h.clock.Advance(10 * time.Minute) // the arena's time is up, not the games'
	// No table is seated now: those seated before finish, and it ends.
	// (A game that ended just before the time was up may still seat a
	// table.)
	for {
		v = h.until(n.dir, id, "the end, or a table to play", func(v protocol.Tournament) bool {
			return v.Status == protocol.TournamentFinished || h.toPlay(v)
		})
		if v.Status == protocol.TournamentFinished {
			break
		}
		h.playRound(n, v)
	}
	for _, tb := range v.RoundsPlayed[0].Tables {
		if !tb.Over {
			t.Errorf("table %d not over at the end", tb.Index)
		}
	}
	// How many tables the second wave had depends on the order the first
	// wave's games ended in; what holds: everyone's games are counted, and
	// some who finished were seated again.
	var games, seats, again int
	for _, l := range v.Ranking {
		games += l.Games
		if l.Games > 1 {
			again++
		}
		if len(l.Sheet) != l.Games {
			t.Errorf("%s: %d games, sheet %v", l.Name, l.Games, l.Sheet)
		}
	}
	for _, tb := range v.RoundsPlayed[0].Tables {
		seats += len(tb.Seats)
	}
	if len(v.Ranking) != 8 || games != seats || again < 3 {
		t.Errorf("%d ranked, %d games counted for %d seats, %d seated again: %+v", len(v.Ranking), games, seats, again, v.Ranking)
	}
	if err := n.dir.Join(h.ctx, id, ps[7], ""); !errors.Is(err, ErrOver) {
		t.Errorf("joining a finished arena: %v, want ErrOver", err)
	}
}

// TestAbsentWithdrawn: a person who never plays has a bot play for them
// when their clock runs out; the game counts as lost for them (last), and
// the organiser's rule pauses them for the next round.
func TestAbsentWithdrawn(t *testing.T) {
	h := newHarness(t, memstore.New())
	n := h.addNode("n1", time.Minute)
	ps := h.people(4)[1:] // p2, p3, p4: one table of 3
	id := h.start(n, protocol.TournamentSettings{Name: "Strict", Format: "swiss", TableSize: 3, Rounds: 2, Pace: "blitz",
		BreakSeconds: zero(), Absent: protocol.AbsentWithdraw}, ps)
	v := h.until(n.dir, id, "round 1", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 1 && ready(v) })
	var absentGame string
	for _, tb := range v.RoundsPlayed[0].Tables {
		for _, s := range tb.Seats {
			if s.Name == "p4" {
				absentGame = tb.Game
			}
		}
	}
	done := make(chan struct{})
	go func() { defer close(done); h.playRound(n, v, "p4") }()
	sub, err := n.hub.Watch(h.ctx, absentGame, table.Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	for over := false; !over; {
		select {
		case u := <-sub.Updates():
			if u.View == nil {
				continue
			}
			over = u.Game.Status == protocol.StatusFinished
			if !over && u.View.ToMove >= 0 && u.Game.Seats[u.View.ToMove].Name == "p4" && len(u.TakeOvers) == 0 {
				h.games.Advance(2 * time.Minute) // p4's time runs out
			}
		case <-h.ctx.Done():
			t.Fatal("p4's game never ended")
		}
	}
	<-done
	v = h.until(n.dir, id, "round 2", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 2 && ready(v) })
	for _, p := range v.People {
		if want := map[bool]string{true: protocol.PlayerPaused, false: protocol.PlayerIn}[p.Name == "p4"]; p.Status != want {
			t.Errorf("%s is %s, want %s", p.Name, p.Status, want)
		}
	}
	for _, tb := range v.RoundsPlayed[0].Tables {
		for _, s := range tb.Seats {
			if s.Name == "p4" && (!s.Forfeited || *s.Points != 0) {
				t.Errorf("p4's round 1: %+v, want forfeited, no points", s)
			}
		}
	}
	if tbs := v.RoundsPlayed[1].Tables; len(tbs) != 1 || len(tbs[0].Seats) != 2 || slices.ContainsFunc(tbs[0].Seats, func(s protocol.TournamentSeat) bool { return s.Name == "p4" }) {
		t.Errorf("round 2 without p4: %+v", tbs)
	}
}

// TestTwentyNineThroughTheHub runs 29 people through the Hub: a Swiss
// tournament at tables of 5 with bots filling the seats the numbers leave
// (every table full, the bots marked and never ranked, no meeting
// repeated), and a duplicate round at tables of 4 (one deal at every table,
// people at every seat of it).
func TestTwentyNineThroughTheHub(t *testing.T) {
	h := newHarness(t, memstore.New())
	n := h.addNode("n1", time.Minute)
	ps := h.people(29)
	swiss := h.start(n, protocol.TournamentSettings{Name: "Big Swiss", Format: "swiss", TableSize: 5, Rounds: 2, Fill: true, BreakSeconds: zero()}, ps)
	met := map[[2]string]bool{}
	for round := 1; round <= 2; round++ {
		v := h.until(n.dir, swiss, fmt.Sprintf("round %d", round), func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == round && ready(v) })
		checkTables(t, "swiss", 5, v, met)
		bots := 0
		for _, tb := range v.RoundsPlayed[round-1].Tables {
			if len(tb.Seats) != 5 {
				t.Errorf("round %d: a table of %d with bots filling", round, len(tb.Seats))
			}
			for _, s := range tb.Seats {
				if s.Bot {
					bots++
				}
			}
		}
		if bots != 1 {
			t.Errorf("round %d: %d bots; 29 at 6 tables of 5 leave 1 seat", round, bots)
		}
		h.playRound(n, v)
	}
	v := h.until(n.dir, swiss, "the Swiss end", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentFinished })
	if len(v.Ranking) != 29 || slices.ContainsFunc(v.Ranking, func(l protocol.TournamentLine) bool { return l.Name == "Bot" || l.Name == "" }) {
		t.Errorf("the standings rank %d, bots among them?", len(v.Ranking))
	}

	dup := h.start(n, protocol.TournamentSettings{Name: "Big duplicate", Format: "duplicate", TableSize: 4, Rounds: 1, BreakSeconds: zero()}, ps)
	v = h.until(n.dir, dup, "the duplicate round", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 1 && ready(v) })
	checkTables(t, "duplicate", 4, v, nil)
	deals := map[int]bool{}
	for _, tb := range v.RoundsPlayed[0].Tables {
		deals[tb.Deal] = true
	}
	h.playRound(n, v)
	v = h.until(n.dir, dup, "the duplicate end", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentFinished })
	if len(v.Ranking) != 29 || len(v.RoundsPlayed[0].Deals) != len(deals) {
		t.Errorf("%d ranked, %d deals revealed of %d", len(v.Ranking), len(v.RoundsPlayed[0].Deals), len(deals))
	}
}
