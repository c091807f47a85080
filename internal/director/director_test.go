package director

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/table"
)

// A fakeClock is the directors' clock in tests: it moves only when the
// test says, and fires the timers then.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	if d <= 0 {
		go f()
		return func() bool { return false }
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// Advance moves the clock on by d and fires the timers due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	kept := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case t.stopped:
		case !t.at.After(c.now):
			t.stopped = true
			due = append(due, t.f)
		default:
			kept = append(kept, t)
		}
	}
	c.timers = kept
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// A node is a Hub and a director sharing a store, as a server's.
type node struct {
	hub *table.Hub
	dir *Service
}

type harness struct {
	t     *testing.T
	ctx   context.Context
	st    store.Store
	clock *fakeClock // the directors'
	games *fakeClock // the Hubs', the games' clocks
	nodes []*node
	// played holds the games playRound played: until the director has
	// recorded their end, the tournament still shows them open.
	played map[string]bool
}

func quiet() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// token is the seat token of the account at game in these tests.
func token(account, game string) string { return account + "@" + game }

func newHarness(t *testing.T, st store.Store) *harness {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	t.Cleanup(cancel)
	return &harness{t: t, ctx: ctx, st: st, clock: &fakeClock{now: time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)},
		games: &fakeClock{now: time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)}, played: map[string]bool{}}
}

// addNode starts a Hub and a director on the harness's store.
func (h *harness) addNode(name string, ttl time.Duration) *node {
	n := &node{}
	opts := table.Options{Logger: quiet(), Node: name, LeaseTTL: ttl, Now: h.games.Now, AfterFunc: h.games.AfterFunc,
		NewBot:    func(_ string, seed uint64) (bot.Bot, error) { return bot.New("random", seed) },
		SeatToken: func(_ context.Context, account, game string) (string, error) { return token(account, game), nil },
		OnFinish:  func(ctx context.Context, f table.Finished) { n.dir.GameOver(ctx, f) },
		Limits:    table.Limits{SeatMoveRate: 1e9, SeatMoveBurst: 1 << 30, MaxPerClient: 1 << 30, MaxOpen: 1 << 30, MaxBotGames: 1 << 30},
	}
	n.hub = table.New(h.st, opts)
	n.dir = New(h.st, n.hub, Options{Node: name, LeaseTTL: ttl, Now: h.clock.Now, AfterFunc: h.clock.AfterFunc, Logger: quiet(),
		Rand: rand.NewChaCha8([32]byte{byte(len(h.nodes))})})
	if err := n.dir.Start(h.ctx); err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { n.dir.Close(); n.hub.Close() })
	h.nodes = append(h.nodes, n)
	return n
}

// people creates n accounts, p1 to pn, and returns them.
func (h *harness) people(n int) []Person {
	var out []Person
	for i := 1; i <= n; i++ {
		a := &store.Account{ID: fmt.Sprintf("acct%02d", i), Name: fmt.Sprintf("p%d", i), Key: fmt.Sprintf("p%d", i),
			Handle: []byte{byte(i)}, SeatKey: []byte{byte(i)}, Created: h.clock.Now(), Rating: store.Rating{Mu: 25, Sigma: 25.0 / 3}}
		if err := h.st.CreateAccount(h.ctx, a); err != nil {
			h.t.Fatal(err)
		}
		out = append(out, Person{Account: a.ID, Name: a.Name})
	}
	return out
}

// until waits, on the announcements of tournament id, for cond to hold
// of it as the guest sees it.
func (h *harness) until(d *Service, id, what string, cond func(protocol.Tournament) bool) protocol.Tournament {
	h.t.Helper()
	ctx, cancel := context.WithCancel(h.ctx)
	defer cancel()
	changes := d.Watch(ctx, id)
	for {
		v, err := d.Get(h.ctx, id, "")
		if err != nil {
			h.t.Fatalf("Get(%s): %v", id, err)
		}
		if cond(v) {
			return v
		}
		select {
		case <-changes:
		case <-h.ctx.Done():
			h.t.Fatalf("tournament %s: no %s before the deadline; last %+v", id, what, v)
		}
	}
}

// playRound plays every table of the last round seated (an arena's
// open tables) to its end, each person choosing their first legal move,
// but those skipped.
func (h *harness) playRound(n *node, v protocol.Tournament, skip ...string) {
	h.t.Helper()
	r := v.RoundsPlayed[len(v.RoundsPlayed)-1]
	names := map[string]string{}
	for i := 1; i <= 60; i++ {
		names[fmt.Sprintf("p%d", i)] = fmt.Sprintf("acct%02d", i)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for _, tb := range r.Tables {
		if tb.Over {
			continue
		}
		h.played[tb.Game] = true
		for _, s := range tb.Seats {
			if s.Bot || slices.Contains(skip, s.Name) {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := playSeat(h.ctx, n.hub, tb.Game, token(names[s.Name], tb.Game)); err != nil {
					errs <- fmt.Errorf("%s at %s: %w", s.Name, tb.Game, err)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		h.t.Error(err)
	}
}

// playSeat plays the seat with token, its first legal move each time,
// until the game is over.
func playSeat(ctx context.Context, hub *table.Hub, id, token string) error {
	sub, err := hub.Watch(ctx, id, table.Watcher{Token: token})
	if err != nil {
		return err
	}
	defer sub.Close()
	for {
		select {
		case u, ok := <-sub.Updates():
			if !ok {
				return nil
			}
			if u.Seat < 0 {
				return errors.New("the token holds no seat")
			}
			if u.View == nil || u.View.ToMove != u.Seat || len(u.View.Legal) == 0 {
				continue
			}
			if err := hub.Play(ctx, id, token, u.View.Legal[0], u.View.Moves); err != nil && !errors.Is(err, table.ErrStale) {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// ready reports whether every table of the last round has its game.
func ready(v protocol.Tournament) bool {
	if len(v.RoundsPlayed) == 0 {
		return false
	}
	for _, tb := range v.RoundsPlayed[len(v.RoundsPlayed)-1].Tables {
		if !tb.Ready {
			return false
		}
	}
	return true
}

// toPlay reports whether the last round of v has tables to play: some
// open, all of them ready, none played already. A view read after
// playRound but before the director recorded those games' end shows
// them open and ready still: it is not the next wave, and an arena
// whose time ran out then would end without seating it.
func (h *harness) toPlay(v protocol.Tournament) bool {
	if !ready(v) {
		return false
	}
	open := 0
	for _, tb := range v.RoundsPlayed[len(v.RoundsPlayed)-1].Tables {
		if tb.Over {
			continue
		}
		if h.played[tb.Game] {
			return false
		}
		open++
	}
	return open > 0
}

func zero() *int { z := 0; return &z }

// TestSwissThroughTheHub runs a Swiss tournament of 7 people at tables of
// 4 for 3 rounds: every round's tables legal and played by the Hub, no
// meeting repeated where the rules avoid it, the standings those of the
// rules over the stored results, the final ranks stored.
func TestSwissThroughTheHub(t *testing.T) {
	h := newHarness(t, memstore.New())
	n := h.addNode("n1", time.Minute)
	ps := h.people(7)
	v, err := n.dir.Create(h.ctx, ps[0], protocol.TournamentSettings{Name: "Tuesday club", Format: "swiss", TableSize: 4, Rounds: 3, BreakSeconds: zero()})
	if err != nil {
		t.Fatal(err)
	}
	id := v.ID
	for _, p := range ps {
		if err := n.dir.Join(h.ctx, id, p, ""); err != nil {
			t.Fatalf("%s joins: %v", p.Name, err)
		}
	}
	if err := n.dir.Organise(h.ctx, id, ps[1], protocol.ActionStart, ""); !errors.Is(err, ErrNotOrganiser) {
		t.Errorf("p2 starts: %v, want ErrNotOrganiser", err)
	}
	if err := n.dir.Organise(h.ctx, id, ps[0], protocol.ActionStart, ""); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 3; round++ {
		v = h.until(n.dir, id, fmt.Sprintf("round %d", round), func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == round && ready(v) })
		var tables [][]string
		for _, tb := range v.RoundsPlayed[round-1].Tables {
			if k := len(tb.Seats); k != 4 && k != 3 {
				t.Errorf("round %d: a table of %d", round, k)
			}
			var names []string
			for _, s := range tb.Seats {
				names = append(names, s.Name)
			}
			tables = append(tables, names)
		}
		seen := map[string]bool{}
		for _, tb := range tables {
			for _, p := range tb {
				if seen[p] {
					t.Errorf("round %d: %s at two tables", round, p)
				}
				seen[p] = true
			}
		}
		if len(seen) != 7 {
			t.Errorf("round %d seats %d people, want 7", round, len(seen))
		}
		h.playRound(n, v)
	}
	v = h.until(n.dir, id, "the end", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentFinished })
	if len(v.Ranking) != 7 || v.Ranking[0].Rank != 1 {
		t.Fatalf("final standings %+v", v.Ranking)
	}
	rec, err := h.st.Tournament(h.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := load(rec)
	want := tr.standings()
	for i, line := range v.Ranking {
		if line.Points != tr.shown(want[i]) || line.Games != 3 {
			t.Errorf("line %d: %+v; the rules say %v points", i+1, line, want[i].Points)
		}
		if p := rec.Players[tr.player(want[i].ID)]; p.Rank != want[i].Rank || p.Points != int64(tr.shown(want[i])*100+0.5) {
			t.Errorf("stored %s: rank %d, points %d; want %d, %v", p.Name, p.Rank, p.Points, want[i].Rank, want[i].Points)
		}
	}
	entries, err := n.dir.Entries(h.ctx, ps[3].Account, 10)
	if err != nil || len(entries) != 1 || entries[0].Rank == 0 || entries[0].Status != protocol.TournamentFinished {
		t.Errorf("p4's tournaments: %+v, %v", entries, err)
	}
	if !slices.ContainsFunc(v.RoundsPlayed[0].Tables, func(tb protocol.TournamentTable) bool { return tb.Over && tb.Seats[0].Total != nil }) {
		t.Errorf("round 1's tables show no results: %+v", v.RoundsPlayed[0])
	}
	// Its tables are marked a tournament's: they have no rematch.
	g, err := h.st.Game(h.ctx, v.RoundsPlayed[0].Tables[0].Game)
	if err != nil {
		t.Fatal(err)
	}
	if tm, err := match.DecodeTiming(g.Clock, len(g.Seats)); err != nil || !tm.Tournament {
		t.Errorf("a tournament's table has timing %+v, %v: not marked a tournament's", tm, err)
	}
}
