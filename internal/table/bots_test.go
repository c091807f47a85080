package table

import (
	"errors"
	"go/build"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// tampered returns a store holding one game being played by Ann and a bot,
// whose stored bot seat then says value, and Ann's token. The row is
// written through the store interface, as a damaged database would give it.
func tampered(t *testing.T, status store.Status, value string) (store.Store, string, string) {
	t.Helper()
	ctx := testContext(t)
	clean := memstore.New()
	h := New(clean, testOptions(t))
	defer h.Close()
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	ann := ""
	if status != store.StatusOpen {
		if _, ann, err = h.Join(ctx, in.ID, 0, Person{Name: "Ann"}); err != nil {
			t.Fatal(err)
		}
	}
	h.Close()
	g, err := clean.Game(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	g.Seats[1].Bot = value
	st := memstore.New()
	if err := st.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	return st, in.ID, ann
}

// A stored bot seat that is not a level is refused when the game is
// resumed or first used, with an error naming the game, the seat and the
// value; nothing is built from it and the game is not run.
func TestStoredBotNotLevel(t *testing.T) {
	for _, value := range []string{"exec:rm -rf ~", "exec:python3 bot.py", "heuristic", "mcts:iters=5", "random", "Hard", " easy"} {
		t.Run(value, func(t *testing.T) {
			ctx := testContext(t)
			st, id, ann := tampered(t, store.StatusPlaying, value)
			before, err := st.Game(ctx, id) // the bot may have moved before the row was tampered
			if err != nil {
				t.Fatal(err)
			}
			log, err := os.Create(filepath.Join(t.TempDir(), "log"))
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			var built atomic.Int64
			opts := testOptions(t)
			opts.Logger = slog.New(slog.NewTextHandler(log, nil)) // a Write per record
			opts.NewBot = func(level string, seed uint64) (bot.Bot, error) {
				built.Add(1)
				return bot.NewLevel(level, seed)
			}
			h := New(st, opts)
			t.Cleanup(func() { h.Close() })

			n, err := h.Resume(ctx)
			if err != nil || n != 0 {
				t.Errorf("Resume = %d, %v; want 0 games resumed", n, err)
			}
			logged, err := os.ReadFile(log.Name())
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"game " + id, "seat 1", value, "not a bot level", "not run"} {
				if !strings.Contains(string(logged), want) {
					t.Errorf("the log does not say %s:\n%s", want, logged)
				}
			}
			// First use, by every way in.
			_, _, err = h.Game(ctx, id, ann)
			wantKind(t, err, ErrInternal)
			_, err = h.Watch(ctx, id, Watcher{Token: ann})
			wantKind(t, err, ErrInternal)
			wantKind(t, h.Play(ctx, id, ann, "draw", 0), ErrInternal)
			if built.Load() != 0 {
				t.Errorf("%d bots built", built.Load())
			}
			if g, _ := st.Game(ctx, id); len(g.Moves) != len(before.Moves) || g.Status != store.StatusPlaying {
				t.Errorf("the game changed: %d moves, %s; it had %d", len(g.Moves), g.Status, len(before.Moves))
			}
		})
	}
	t.Run("open table", func(t *testing.T) {
		ctx := testContext(t)
		st, id, _ := tampered(t, store.StatusOpen, "exec:rm -rf ~")
		h := newHub(t, st)
		_, _, err := h.Join(ctx, id, 0, Person{Name: "Ann"})
		wantKind(t, err, ErrInternal)
		if g, _ := st.Game(ctx, id); g.Seats[0].Name != "" {
			t.Errorf("the seat was taken: %+v", g.Seats[0])
		}
	})
	t.Run("a level resumes", func(t *testing.T) { // the tampering above is what is refused
		ctx := testContext(t)
		st, _, _ := tampered(t, store.StatusPlaying, "medium")
		if n, err := newHub(t, st).Resume(ctx); n != 1 || err != nil {
			t.Errorf("Resume = %d, %v; want 1", n, err)
		}
	})
}

// Bots that fail in each way the table survives.
type (
	panicBot   struct{ closeCount }
	illegalBot struct{ closeCount }
)

// closeCount counts the Close calls of a test bot.
type closeCount struct{ n *atomic.Int64 }

func (c closeCount) Close() error { c.n.Add(1); return nil }

func (panicBot) Choose(razzia.View) razzia.Move { panic("lost my marbles") }

func (illegalBot) Choose(v razzia.View) razzia.Move {
	if v.State.Phase() == razzia.PhaseAuction {
		return razzia.Bid(razzia.MaxCheque + 1)
	}
	return razzia.Pass() // no auction: illegal
}

// A bot that panics, chooses an illegal move or cannot be built plays
// bot.Default in every decision, the game ends, and every bot built is
// closed once.
func TestFailingBots(t *testing.T) {
	ctx := testContext(t)
	var built, closed atomic.Int64
	opts := testOptions(t)
	opts.NewBot = func(level string, seed uint64) (bot.Bot, error) {
		switch level {
		case "easy":
			built.Add(1)
			return panicBot{closeCount{&closed}}, nil
		case "medium":
			built.Add(1)
			return illegalBot{closeCount{&closed}}, nil
		}
		return nil, errors.New("out of memory")
	}
	h := New(memstore.New(), opts)
	t.Cleanup(func() { h.Close() })
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"easy", "medium", "hard"}}))
	if err != nil {
		t.Fatal(err)
	}
	sub, err := h.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := next(t, ctx, sub); ok; _, ok = next(t, ctx, sub) {
	}
	rec, err := h.Record(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := razzia.NewGame(razzia.Setup{Players: rec.Players, Cheques: rec.Cheques})
	if err != nil {
		t.Fatal(err)
	}
	for i, tok := range rec.Moves {
		m, err := razzia.ParseMove(tok)
		if err != nil {
			t.Fatal(err)
		}
		want := bot.Default(g.LegalMoves())
		if m != want && !(m.Action == razzia.ActionDraw && want == razzia.Draw(razzia.NoKind)) {
			t.Fatalf("move %d: played %s, the default is %s", i+1, m, want)
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if st := g.State(); !st.Over() {
		t.Fatal("the game did not end")
	}
	if built.Load() != 2 || closed.Load() != built.Load() {
		t.Errorf("%d bots built, %d closed", built.Load(), closed.Load())
	}
}

// Closing the Hub mid-game closes the bots too, the one thinking included.
func TestBotsClosedWithHub(t *testing.T) {
	ctx := testContext(t)
	var built, closed atomic.Int64
	opts := testOptions(t)
	opts.NewBot = func(level string, seed uint64) (bot.Bot, error) {
		built.Add(1)
		return countedBot{bot.NewRandom(seed), closeCount{&closed}}, nil
	}
	h := New(memstore.New(), opts)
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Join(ctx, in.ID, 0, Person{Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if built.Load() != 2 || closed.Load() != 2 {
		t.Errorf("%d bots built, %d closed", built.Load(), closed.Load())
	}
}

// countedBot is a real bot whose Close is counted.
type countedBot struct {
	*bot.Random
	closeCount
}

func (b countedBot) Close() error { return b.closeCount.Close() }

// The server's tables can run no program: this package imports neither
// os/exec nor internal/botexec (and bot imports no os/exec either).
func TestNoProgram(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range p.Imports {
		if imp == "os/exec" || strings.HasSuffix(imp, "/internal/botexec") {
			t.Errorf("package table imports %s", imp)
		}
	}
}

// askedBot blocks in Choose until let is closed, and counts its closes,
// those made while it is asked too.
type askedBot struct {
	asking       chan<- *askedBot // told when Choose is called
	let          <-chan struct{}
	choosing     atomic.Bool
	closes, busy atomic.Int64
}

func (b *askedBot) Choose(v razzia.View) razzia.Move {
	b.choosing.Store(true)
	defer b.choosing.Store(false)
	b.asking <- b
	<-b.let
	return v.Legal[0]
}

func (b *askedBot) Close() error {
	b.closes.Add(1)
	if b.choosing.Load() {
		b.busy.Add(1)
	}
	return nil
}

// TestBotAskedWhileHandedOver: a bot asked for a move while its game is
// handed over (Drain) is closed once, once it has answered, never while
// it thinks; the other bots are closed once.
func TestBotAskedWhileHandedOver(t *testing.T) {
	ctx := testContext(t)
	asking, let := make(chan *askedBot, 1), make(chan struct{})
	var (
		mu   sync.Mutex
		bots []*askedBot
	)
	opts := testOptions(t)
	opts.NewBot = func(string, uint64) (bot.Bot, error) {
		mu.Lock()
		defer mu.Unlock()
		b := &askedBot{asking: asking, let: let}
		bots = append(bots, b)
		return b, nil
	}
	h := New(memstore.New(), opts)
	defer h.Close()
	if _, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"easy", "easy"}})); err != nil {
		t.Fatal(err)
	}
	var thinking *askedBot
	select {
	case thinking = <-asking:
	case <-ctx.Done():
		t.Fatal("no bot was asked")
	}
	if err := h.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	close(let)
	h.Close() // waits for the bot's goroutine
	mu.Lock()
	defer mu.Unlock()
	for i, b := range bots {
		if n, busy := b.closes.Load(), b.busy.Load(); n != 1 || busy != 0 {
			t.Errorf("bot %d (asked: %v) closed %d times, %d of them while asked; want once, once it answered", i, b == thinking, n, busy)
		}
	}
}

// closingBot counts its closes.
type closingBot struct {
	bot.Bot
	closes int
}

func (b *closingBot) Close() error { b.closes++; return nil }

// TestSeatBots: each bot is closed once, the one asked for a move only
// once it answered, whether the bots are dropped, released or closed
// meanwhile.
func TestSeatBots(t *testing.T) {
	fresh := func() (*seatBots, []*closingBot) {
		bs := []*closingBot{{}, {}, {}}
		return &seatBots{bySeat: []bot.Bot{bs[0], nil, bs[2]}}, bs
	}
	want := func(t *testing.T, what string, bs []*closingBot, closes ...int) {
		t.Helper()
		for i, w := range closes {
			if i != 1 && bs[i].closes != w {
				t.Errorf("%s: the bot of seat %d closed %d times, want %d", what, i, bs[i].closes, w)
			}
		}
	}
	t.Run("dropped while asked", func(t *testing.T) {
		b, bs := fresh()
		b.ask(0)
		b.drop()
		want(t, "dropped", bs, 0, 0, 1)
		b.answered()
		want(t, "answered", bs, 1, 0, 1)
		if b.at(0) != nil || b.asked {
			t.Error("the bots were not forgotten")
		}
	})
	t.Run("released while asked", func(t *testing.T) {
		b, bs := fresh()
		b.ask(2)
		b.release(2)
		b.release(0)
		want(t, "released", bs, 1, 0, 0)
		b.answered()
		want(t, "answered", bs, 1, 0, 1)
	})
	t.Run("closed while asked", func(t *testing.T) {
		b, bs := fresh()
		b.ask(0)
		b.closeAll()
		want(t, "closed", bs, 0, 0, 1) // the asking goroutine closes its bot itself
	})
	t.Run("dropped twice", func(t *testing.T) {
		b, bs := fresh()
		b.ask(0)
		b.drop()
		b.drop()
		b.answered()
		want(t, "answered", bs, 1, 0, 1)
	})
}
