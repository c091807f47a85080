package table

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// limitHub is a Hub whose limits are lim (the others never met).
func limitHub(t *testing.T, st store.Store, lim Limits, change ...func(*Options)) *Hub {
	t.Helper()
	opts := testOptions(t)
	def := opts.Limits
	if lim.SeatMoveRate == 0 {
		lim.SeatMoveRate, lim.SeatMoveBurst = def.SeatMoveRate, def.SeatMoveBurst
	}
	for _, f := range []*int{&lim.MaxPerClient, &lim.MaxOpen, &lim.MaxBotGames} {
		if *f == 0 {
			*f = 1 << 30
		}
	}
	opts.Limits = lim
	for _, f := range change {
		f(&opts)
	}
	h := New(st, opts)
	t.Cleanup(func() { h.Close() })
	return h
}

// stored counts the games of the store.
func stored(t *testing.T, st store.Store) int {
	t.Helper()
	n := 0
	for _, s := range []store.Status{store.StatusOpen, store.StatusPlaying, store.StatusFinished, store.StatusExpired} {
		l, err := st.List(t.Context(), s, 0)
		if err != nil {
			t.Fatal(err)
		}
		n += len(l)
	}
	return n
}

// The attack: one client creating tables without end. Each limit refuses
// with ErrTooManyGames and stores nothing; a table that starts frees its
// creator's place.
func TestCreateLimits(t *testing.T) {
	ctx := testContext(t)
	t.Run("per client", func(t *testing.T) {
		st := memstore.New()
		release := make(chan struct{})
		h := limitHub(t, st, Limits{MaxPerClient: 2}, func(o *Options) {
			o.NewBot = func(string, uint64) (bot.Bot, error) { return blockingBot{release}, nil }
		})
		t.Cleanup(func() { close(release) })
		a, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}, Client: "10.0.0.1"}))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"easy", "easy"}, Client: "10.0.0.1"})); err != nil {
			t.Fatal(err)
		}
		_, _, err = created(h.Create(ctx, TableSetup{Seats: []string{"", ""}, Client: "10.0.0.1"}))
		wantKind(t, err, ErrTooManyGames)
		if n := stored(t, st); n != 2 {
			t.Fatalf("%d games stored, want 2: the refused one was stored", n)
		}
		// Another client is not held back by the first.
		if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}, Client: "10.0.0.2"})); err != nil {
			t.Fatalf("another client: %v", err)
		}
		// The open table fills: its place is free again.
		h.Join(ctx, a.ID, 0, Person{Name: "Ann"})
		h.Join(ctx, a.ID, 1, Person{Name: "Bob"})
		if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}, Client: "10.0.0.1"})); err != nil {
			t.Fatalf("after a table started: %v", err)
		}
	})
	t.Run("open tables", func(t *testing.T) {
		h := limitHub(t, memstore.New(), Limits{MaxOpen: 1})
		if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}, Client: "a"})); err != nil {
			t.Fatal(err)
		}
		_, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}, Client: "b"}))
		wantKind(t, err, ErrTooManyGames)
		if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"easy", "easy"}, Client: "b"})); err != nil {
			t.Fatalf("a game of bots is not an open table: %v", err)
		}
	})
	t.Run("games of bots", func(t *testing.T) {
		release := make(chan struct{})
		h := limitHub(t, memstore.New(), Limits{MaxBotGames: 1}, func(o *Options) {
			o.NewBot = func(string, uint64) (bot.Bot, error) { return blockingBot{release}, nil }
		})
		var once sync.Once
		free := func() { once.Do(func() { close(release) }) }
		t.Cleanup(free)
		in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"hard", "hard"}, Client: "a"}))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = created(h.Create(ctx, TableSetup{Seats: []string{"hard", "hard", "hard"}, Client: "b"}))
		wantKind(t, err, ErrTooManyGames)
		if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "hard"}, Client: "b"})); err != nil {
			t.Fatalf("a table with a person is not a game of bots: %v", err)
		}
		free() // the bots play the first game to its end
		sub, _ := h.Watch(ctx, in.ID, Watcher{})
		for _, ok := next(t, ctx, sub); ok; _, ok = next(t, ctx, sub) {
		}
		if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"hard", "hard"}, Client: "b"})); err != nil {
			t.Fatalf("after the game of bots ended: %v", err)
		}
	})
}

// blockingBot thinks until release is closed, then plays the default.
type blockingBot struct{ release chan struct{} }

func (b blockingBot) Choose(v razzia.View) razzia.Move { <-b.release; return bot.Default(v.Legal) }
func (blockingBot) Close() error                       { return nil }

// An open table nobody joins expires: watchers see status expired, the
// loop ends, and every later request is told ErrExpired, not "no such
// game". Its place is free again.
func TestExpiry(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	h := limitHub(t, st, Limits{OpenTTL: 30 * time.Millisecond, MaxOpen: 1})
	in, creator, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}, Client: "a"}))
	if err != nil {
		t.Fatal(err)
	}
	if in.Expires == nil || !in.Expires.Equal(in.Updated.Add(30*time.Millisecond)) {
		t.Errorf("Expires = %v, want Updated + 30ms (%v)", in.Expires, in.Updated)
	}
	sub, err := h.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	var last Update
	for u, ok := next(t, ctx, sub); ok; u, ok = next(t, ctx, sub) {
		last = u
	}
	if last.Game.Status != protocol.StatusExpired {
		t.Fatalf("the last update has status %q, want expired", last.Game.Status)
	}
	if g, _ := st.Game(ctx, in.ID); g.Status != store.StatusExpired {
		t.Fatalf("stored status %q", g.Status)
	}
	_, _, err = h.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	wantKind(t, err, ErrExpired)
	_, err = h.Watch(ctx, in.ID, Watcher{})
	wantKind(t, err, ErrExpired)
	_, _, err = h.Game(ctx, in.ID, "")
	wantKind(t, err, ErrExpired)
	wantKind(t, h.Remove(ctx, in.ID, creator, 0), ErrExpired)
	_, err = h.Record(ctx, in.ID)
	wantKind(t, err, ErrExpired)
	if l, _ := h.List(ctx, ""); len(l) != 0 {
		t.Errorf("the lobby lists an expired table: %+v", l)
	}
	if l, _ := h.List(ctx, store.StatusExpired); len(l) != 1 {
		t.Errorf("List(expired) = %+v", l)
	}
	if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}, Client: "a"})); err != nil {
		t.Fatalf("the expired table still holds its place: %v", err)
	}
}

// A seat taken restarts the wait: the table expires OpenTTL after its
// last change, not after its creation.
func TestExpiryRestartsOnJoin(t *testing.T) {
	ctx := testContext(t)
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	clock := make(chan time.Time, 1)
	clock <- now
	h := limitHub(t, memstore.New(), Limits{OpenTTL: time.Hour}, func(o *Options) {
		o.Now = func() time.Time { t := <-clock; clock <- t; return t }
	})
	in, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"", "", "easy"}}))
	<-clock
	clock <- now.Add(50 * time.Minute)
	h.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	info, _, err := h.Game(ctx, in.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := now.Add(110 * time.Minute); info.Expires == nil || !info.Expires.Equal(want) {
		t.Errorf("after a join at 12:50, Expires = %v, want %v", info.Expires, want)
	}
}

// Expiry holds across restarts: it is judged by the stored times. A table
// whose time ran out while no server ran is expired when one starts; one
// whose time has not come is resumed, holding its place.
func TestExpiryAcrossRestart(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	// Each Hub its own ids: crypto/rand.
	random := func(o *Options) { o.Rand = nil }
	old := limitHub(t, st, Limits{}, random, func(o *Options) {
		o.Now = func() time.Time { return time.Now().Add(-25 * time.Hour) }
	})
	stale, _, err := created(old.Create(ctx, TableSetup{Seats: []string{"", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	old.Close()
	// A table made just now, as another server would have.
	g, _ := st.Game(ctx, stale.ID)
	g.ID, g.Created, g.Updated = "freshtable", time.Time{}, time.Time{}
	if err := st.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}

	h := limitHub(t, st, Limits{MaxOpen: 1}, random)
	if _, err := h.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if g, _ := st.Game(ctx, stale.ID); g.Status != store.StatusExpired {
		t.Errorf("the table of 25 hours ago is %s after the restart, want expired", g.Status)
	}
	_, _, err = h.Join(ctx, stale.ID, 0, Person{Name: "Ann"})
	wantKind(t, err, ErrExpired)
	_, _, err = created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}}))
	wantKind(t, err, ErrTooManyGames) // the fresh table holds the one place
	if _, _, err := h.Join(ctx, g.ID, 0, Person{Name: "Ann"}); err != nil {
		t.Fatalf("the fresh table after the restart: %v", err)
	}
}

// The attack: a squatter takes a seat at someone's table. The creator
// removes them: their token stops working, the seat is open again, and
// everyone watching sees it. Only the creator may, and only before the
// game starts; a refusal changes nothing.
func TestRemove(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	h := newHub(t, st)
	in, creator, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	_, squatter, _ := h.Join(ctx, in.ID, 0, Person{Name: "Mallory"})
	squat, err := h.Watch(ctx, in.ID, Watcher{Token: squatter})
	if err != nil {
		t.Fatal(err)
	}
	spectator, _ := h.Watch(ctx, in.ID, Watcher{})
	next(t, ctx, squat)
	next(t, ctx, spectator)
	before, _ := st.Game(ctx, in.ID)
	refusals := []struct {
		name  string
		token string
		seat  int
		kind  error
	}{
		{"no token", "", 0, ErrNotCreator},
		{"the squatter's own token", squatter, 0, ErrNotCreator},
		{"another token", "JBSWY3DPEHPK3PXPJBSWY3DPEH", 0, ErrNotCreator},
		{"an open seat", creator, 1, ErrBadRequest},
		{"a bot", creator, 2, ErrBadRequest},
		{"no such seat", creator, 3, ErrBadRequest},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			wantKind(t, h.Remove(ctx, in.ID, c.token, c.seat), c.kind)
			if g, _ := st.Game(ctx, in.ID); !g.Equal(before) {
				t.Fatalf("a refused removal changed the game: %+v", g)
			}
		})
	}
	if err := h.Remove(ctx, in.ID, creator, 0); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	for name, sub := range map[string]*Subscription{"spectator": spectator, "removed": squat} {
		u, _ := next(t, ctx, sub)
		if !u.Game.Seats[0].Open || u.Seat != -1 {
			t.Errorf("%s sees seat 0 %+v, as seat %d; want it open, as a spectator", name, u.Game.Seats[0], u.Seat)
		}
	}
	if _, seat, _ := h.Game(ctx, in.ID, squatter); seat != -1 {
		t.Errorf("the removed token still holds seat %d", seat)
	}
	if seat, _, err := h.Join(ctx, in.ID, 0, Person{Name: "Ann"}); err != nil || seat != 0 {
		t.Fatalf("the freed seat: %d, %v", seat, err)
	}
	h.Join(ctx, in.ID, 1, Person{Name: "Bob"})
	wantKind(t, h.Play(ctx, in.ID, squatter, "draw", 0), ErrNotYourSeat)
	wantKind(t, h.Remove(ctx, in.ID, creator, 0), ErrAlreadyStarted)
	if is, err := h.Creator(ctx, in.ID, creator); !is || err != nil {
		t.Errorf("Creator(creator token) = %v, %v", is, err)
	}
	if is, _ := h.Creator(ctx, in.ID, squatter); is {
		t.Error("Creator(a seat's token) = true")
	}
}

// The attack: many connections of one seat sending moves. The seat's
// moves are limited over all its connections; what is refused changes
// nothing and says when to try again.
func TestSeatMoveLimit(t *testing.T) {
	ctx := testContext(t)
	h := limitHub(t, memstore.New(), Limits{SeatMoveRate: 1e-6, SeatMoveBurst: 3})
	in, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}}))
	_, ann, _ := h.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	_, bob, _ := h.Join(ctx, in.ID, 1, Person{Name: "Bob"})
	for range 3 { // stale moves reach the game: each costs one
		wantKind(t, h.Play(ctx, in.ID, ann, "draw", 99), ErrStale)
	}
	err := h.Play(ctx, in.ID, ann, "draw", 0)
	wantKind(t, err, ErrRateLimited)
	var e *Error
	if errors.As(err, &e); e.RetryAfter <= 0 {
		t.Errorf("RetryAfter = %v, want a wait", e.RetryAfter)
	}
	if info, _, _ := h.Game(ctx, in.ID, ""); info.Moves != 0 {
		t.Fatalf("a refused move changed the game: %d moves", info.Moves)
	}
	// The other seat has its own budget.
	wantKind(t, h.Play(ctx, in.ID, bob, "draw", 99), ErrStale)
}

// The attack: a crowd of spectators on one game. Past the limit a new
// spectator is refused; players are never refused, and a spectator that
// leaves makes room.
func TestSpectatorLimit(t *testing.T) {
	ctx := testContext(t)
	h := limitHub(t, memstore.New(), Limits{MaxSpectators: 2})
	in, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}}))
	_, ann, _ := h.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	a, _ := h.Watch(ctx, in.ID, Watcher{})
	if _, err := h.Watch(ctx, in.ID, Watcher{Token: "not a token"}); err != nil {
		t.Fatal(err)
	}
	_, err := h.Watch(ctx, in.ID, Watcher{})
	wantKind(t, err, ErrTooManyConnections)
	if _, err := h.Watch(ctx, in.ID, Watcher{Token: ann}); err != nil {
		t.Fatalf("a player refused: %v", err)
	}
	a.Close()
	if _, err := h.Watch(ctx, in.ID, Watcher{}); err != nil {
		t.Fatalf("after a spectator left: %v", err)
	}
}

// The attack: tables of hard bots taking every CPU. Bots think in a
// bounded pool; while it is busy a person's move is applied and
// broadcast at once, and the bots of a game with a person go before
// those of games of bots only.
func TestBotPool(t *testing.T) {
	ctx := testContext(t)
	release := make(chan struct{})
	started := make(chan string, 16)
	h := limitHub(t, memstore.New(), Limits{BotWorkers: 1}, func(o *Options) {
		o.NewBot = func(level string, seed uint64) (bot.Bot, error) {
			return startedBot{level, started, release}, nil
		}
	})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free) // before the Hub's Close, which waits for the bots
	// Never blocking: a failed test must not leave bots stuck here, and
	// the Hub's Close waiting for them.
	waiting := make(chan int, 64)
	h.workers.onWait = func(prio int) {
		select {
		case waiting <- prio:
		default:
		}
	}
	// One game of bots holds the only worker; two more wait for it.
	for range 3 {
		if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"hard", "hard"}})); err != nil {
			t.Fatal(err)
		}
	}
	if got := <-started; got != "hard" {
		t.Fatalf("first to think: %s", got)
	}
	for range 2 {
		if p := <-waiting; p != 1 {
			t.Fatalf("a bot of a game of bots waits with priority %d", p)
		}
	}
	// Two people play: every move goes through at once.
	in, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}}))
	_, ann, _ := h.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	_, bob, _ := h.Join(ctx, in.ID, 1, Person{Name: "Bob"})
	sub, _ := h.Watch(ctx, in.ID, Watcher{})
	next(t, ctx, sub)
	for moves := range 10 {
		g, _ := st(h, in.ID)
		token := []string{ann, bob}[g.ToMove()]
		if err := h.Play(ctx, in.ID, token, g.LegalMoves()[0].String(), moves); err != nil {
			t.Fatalf("move %d while the pool is busy: %v", moves, err)
		}
		if u, _ := next(t, ctx, sub); u.View.Moves != moves+1 {
			t.Fatalf("after move %d: %d moves", moves, u.View.Moves)
		}
	}
	// A person plays against an easy bot: its bot waits for the worker,
	// and goes before the hard ones waiting longer.
	mixed, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}}))
	_, cy, _ := h.Join(ctx, mixed.ID, 0, Person{Name: "Cy"})
	msub, _ := h.Watch(ctx, mixed.ID, Watcher{Token: cy})
	if u, _ := next(t, ctx, msub); u.View.ToMove == 0 {
		if err := h.Play(ctx, mixed.ID, cy, u.View.Legal[0], 0); err != nil {
			t.Fatal(err)
		}
		next(t, ctx, msub)
	}
	if p := <-waiting; p != 0 {
		t.Fatalf("the bot of a game with a person waits with priority %d", p)
	}
	select {
	case got := <-started:
		t.Fatalf("%s thinks while the pool's only worker is busy", got)
	default:
	}
	release <- struct{}{} // the first hard bot answers
	if got := <-started; got != "easy" {
		t.Fatalf("after the worker came free, %s thinks; want the bot of the game with a person", got)
	}
	free()
}

// A stand-in's decision is waited for when a person still plays at its
// table, and nobody waits for it when every person left: then it queues
// with the games of bots, behind the bots of games where a person plays,
// however long it waited.
func TestBotPoolStandIns(t *testing.T) {
	ctx := testContext(t)
	release := make(chan struct{})
	started, built := make(chan string, 16), make(chan string, 16)
	n := 0
	h := limitHub(t, memstore.New(), Limits{BotWorkers: 1}, func(o *Options) {
		o.NewBot = func(level string, seed uint64) (bot.Bot, error) {
			n++ // the game's goroutine builds its bots: one at a time per game
			name := fmt.Sprintf("%s %d", level, n)
			built <- name
			return startedBot{name, started, release}, nil
		}
	})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	waiting := make(chan int, 64)
	h.workers.onWait = func(prio int) {
		select {
		case waiting <- prio:
		default:
		}
	}
	// A game of bots holds the only worker.
	if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"hard", "hard"}})); err != nil {
		t.Fatal(err)
	}
	<-built
	<-built
	<-started
	// leave makes the people of a new table of two leave, the one to
	// move last (or alone, with one); it returns the name of the stand-in
	// that waits to move.
	leave := func(both bool) string {
		t.Helper()
		in, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}}))
		var tokens [2]string
		for i, name := range []string{"Ann", "Bob"} {
			_, tokens[i], _ = h.Join(ctx, in.ID, i, Person{Name: name})
		}
		g, err := st(h, in.ID)
		if err != nil {
			t.Fatal(err)
		}
		if both {
			if err := h.Leave(ctx, in.ID, tokens[1-g.ToMove()]); err != nil {
				t.Fatal(err)
			}
			<-built
		}
		if err := h.Leave(ctx, in.ID, tokens[g.ToMove()]); err != nil {
			t.Fatal(err)
		}
		return <-built
	}
	nobody := leave(true)
	if p := <-waiting; p != 1 {
		t.Fatalf("the stand-in at a table everyone left waits with priority %d", p)
	}
	someone := leave(false)
	if p := <-waiting; p != 0 {
		t.Fatalf("the stand-in at a table where a person plays waits with priority %d", p)
	}
	select {
	case got := <-started:
		t.Fatalf("%s thinks while the pool's only worker is busy", got)
	default:
	}
	release <- struct{}{} // the game of bots' first bot answers
	if got := <-started; got != someone {
		t.Fatalf("after the worker came free, %s thinks; want %s, whom a person waits for, not %s", got, someone, nobody)
	}
	free()
}

// st replays game id from the Hub's record.
func st(h *Hub, id string) (*razzia.Game, error) {
	rec, err := h.Record(context.Background(), id)
	if err != nil {
		return nil, err
	}
	return rec.Game()
}

// startedBot says when it starts thinking, then waits for release. Once
// release is closed it may stop saying so: nobody may be listening (the
// games play on while the Hub hands them over at Close).
type startedBot struct {
	level   string
	started chan<- string
	release <-chan struct{}
}

func (b startedBot) Choose(v razzia.View) razzia.Move {
	select {
	case b.started <- b.level:
	case <-b.release:
	}
	<-b.release
	return bot.Default(v.Legal)
}
func (startedBot) Close() error { return nil }

// Every new spectator of a finished game gets the game replayed once and
// kept: the same update, whose message is encoded once. The cache is
// bounded.
func TestFinishedWatchCached(t *testing.T) {
	ctx := testContext(t)
	h := limitHub(t, memstore.New(), Limits{FinishedCache: 2})
	var ids []string
	for range 3 {
		in, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"easy", "easy"}}))
		sub, _ := h.Watch(ctx, in.ID, Watcher{})
		for _, ok := next(t, ctx, sub); ok; _, ok = next(t, ctx, sub) {
		}
		ids = append(ids, in.ID)
	}
	watch := func(id string) Update {
		sub, err := h.Watch(ctx, id, Watcher{})
		if err != nil {
			t.Fatal(err)
		}
		u, _ := next(t, ctx, sub)
		return u
	}
	a, b := watch(ids[0]), watch(ids[0])
	if a.change == nil || a.change != b.change || a.View != b.View {
		t.Error("two spectators of a finished game did not share its replay")
	}
	encoded := 0
	for _, u := range []Update{a, b} {
		u.Encoded("en", func(Update) ([]byte, error) { encoded++; return []byte("x"), nil })
	}
	if encoded != 1 {
		t.Errorf("the state was encoded %d times for two spectators, want once", encoded)
	}
	if u := watch(ids[0]); len(u.Events) == 0 || u.Game.Status != protocol.StatusFinished || u.View.Phase != "over" {
		t.Errorf("the cached update: %+v", u.Game)
	}
	watch(ids[1])
	watch(ids[2])
	if n := h.finished.len(); n != 2 {
		t.Errorf("the cache holds %d games, want at most 2", n)
	}
}
