package table

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// testOptions are fast and deterministic: no bot delay, random bots, a
// seeded source for ids, seeds and tokens.
func testOptions(t *testing.T) Options {
	return Options{
		Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
		NewBot:     func(_ string, seed uint64) (bot.Bot, error) { return bot.New("random", seed) },
		Rand:       &lockedReader{r: rand.NewChaCha8([32]byte{byte(len(t.Name()))})},
		RetryDelay: time.Millisecond,
		// A Hub alone keeps its games however slow a loaded machine
		// makes its renewals; the tests of several nodes set their own.
		LeaseTTL: time.Minute,
		// The limits that tests of other things never meet.
		Limits: Limits{SeatMoveRate: 1e9, SeatMoveBurst: 1 << 30, MaxPerClient: 1 << 30, MaxOpen: 1 << 30, MaxBotGames: 1 << 30},
	}
}

// lockedReader makes a deterministic source safe for concurrent use.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

func newHub(t *testing.T, st Store) *Hub {
	t.Helper()
	h := New(st, testOptions(t))
	t.Cleanup(func() { h.Close() })
	return h
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// wantKind fails unless err is an *Error of the kind.
func wantKind(t *testing.T, err, kind error) {
	t.Helper()
	var e *Error
	if !errors.Is(err, kind) || !errors.As(err, &e) || e.Msg == "" {
		t.Fatalf("got error %v, want an *Error of kind %q", err, kind)
	}
}

// next returns the subscription's next update, failing after the deadline.
func next(t *testing.T, ctx context.Context, s *Subscription) (Update, bool) {
	t.Helper()
	select {
	case u, ok := <-s.Updates():
		return u, ok
	case <-ctx.Done():
		t.Fatal("no update before the deadline")
		return Update{}, false
	}
}

// playAlong plays the seat with token by always choosing its first legal
// move, until the game is over. It returns every event it received.
func playAlong(t *testing.T, ctx context.Context, h *Hub, id, token string) []razzia.Event {
	t.Helper()
	sub, err := h.Watch(ctx, id, Watcher{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	var events []razzia.Event
	for {
		u, ok := next(t, ctx, sub)
		if !ok {
			return events
		}
		events = append(events, u.Events...)
		if u.View == nil || u.View.ToMove != u.Seat || len(u.View.Legal) == 0 {
			continue
		}
		err := h.Play(ctx, id, token, u.View.Legal[0], u.View.Moves)
		if err != nil && !errors.Is(err, ErrStale) {
			t.Fatalf("move %d: %v", u.View.Moves, err)
		}
	}
}

func TestCreate(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, memstore.New())
	bad := map[string][]string{
		"one seat":    {""},
		"six seats":   {"", "", "", "", "", ""},
		"no seats":    nil,
		"bad level":   {"", "grandmaster"},
		"bot spec":    {"", "random"},
		"level cased": {"", "Hard"},
	}
	for name, seats := range bad {
		t.Run(name, func(t *testing.T) {
			_, _, err := created(h.Create(ctx, TableSetup{Seats: seats}))
			wantKind(t, err, ErrBadRequest)
		})
	}
	t.Run("open", func(t *testing.T) {
		in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "hard", ""}}))
		if err != nil {
			t.Fatal(err)
		}
		if in.Status != protocol.StatusOpen || in.Players != 3 || !protocol.ValidID(in.ID) || in.Invite != "/g/"+in.ID {
			t.Errorf("got %+v", in)
		}
		want := []protocol.SeatInfo{{Open: true}, {Name: "Bot 2 (hard)", Bot: "hard"}, {Open: true}}
		for i, s := range in.Seats {
			if s != want[i] {
				t.Errorf("seat %d: got %+v, want %+v", i, s, want[i])
			}
		}
	})
	t.Run("bots start at once", func(t *testing.T) {
		in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"easy", "medium"}}))
		if err != nil {
			t.Fatal(err)
		}
		if in.Status != protocol.StatusPlaying {
			t.Errorf("status %q, want playing", in.Status)
		}
	})
}

func TestJoin(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, memstore.New())
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "easy", ""}}))
	if err != nil {
		t.Fatal(err)
	}
	id := in.ID
	for name, bad := range map[string]string{
		"empty":         "",
		"blank":         "   ",
		"too long":      strings.Repeat("x", razzia.MaxNameLen+1),
		"control":       "Ann\x07",
		"newline":       "Ann\nBob",
		"invalid UTF-8": "Ann\xff",
	} {
		t.Run("bad name/"+name, func(t *testing.T) {
			_, _, err := h.Join(ctx, id, -1, Person{Name: bad})
			wantKind(t, err, ErrBadName)
		})
	}
	t.Run("unknown game", func(t *testing.T) {
		for _, id := range []string{"", "nosuchgame", "NOSUCHGAME", "../etc/pas", strings.Repeat("a", 100)} {
			_, _, err := h.Join(ctx, id, -1, Person{Name: "Ann"})
			wantKind(t, err, ErrNotFound)
		}
	})
	t.Run("no such seat", func(t *testing.T) {
		_, _, err := h.Join(ctx, id, 3, Person{Name: "Ann"})
		wantKind(t, err, ErrBadRequest)
	})
	t.Run("bot seat", func(t *testing.T) {
		_, _, err := h.Join(ctx, id, 1, Person{Name: "Ann"})
		wantKind(t, err, ErrSeatTaken)
	})
	seat, ann, err := h.Join(ctx, id, 2, Person{Name: "Ann"})
	if err != nil || seat != 2 || len(ann) < 26 {
		t.Fatalf("join seat 2: %d, %q, %v", seat, ann, err)
	}
	t.Run("taken", func(t *testing.T) {
		_, _, err := h.Join(ctx, id, 2, Person{Name: "Bob"})
		wantKind(t, err, ErrSeatTaken)
	})
	t.Run("not started", func(t *testing.T) {
		wantKind(t, h.Play(ctx, id, ann, "draw", -1), ErrNotStarted)
		if _, err := h.Record(ctx, id); !errors.Is(err, ErrNotStarted) {
			t.Errorf("record of an open game: %v", err)
		}
	})
	info, you, err := h.Game(ctx, id, ann)
	if err != nil || you != 2 || info.Status != protocol.StatusOpen || info.Seats[2].Name != "Ann" {
		t.Fatalf("game: %+v, you %d, %v", info, you, err)
	}
	seat, bob, err := h.Join(ctx, id, -1, Person{Name: "Bob"})
	if err != nil || seat != 0 || bob == ann {
		t.Fatalf("join first open seat: %d, %v", seat, err)
	}
	info, you, err = h.Game(ctx, id, bob)
	if err != nil || you != 0 || info.Status != protocol.StatusPlaying {
		t.Fatalf("the game starts when every seat is filled: %+v, you %d, %v", info, you, err)
	}
	t.Run("full", func(t *testing.T) {
		_, _, err := h.Join(ctx, id, -1, Person{Name: "Cy"})
		wantKind(t, err, ErrTableFull)
		_, _, err = h.Join(ctx, id, 0, Person{Name: "Cy"})
		wantKind(t, err, ErrTableFull)
	})
	if _, you, _ := h.Game(ctx, id, "not a token"); you != -1 {
		t.Errorf("a wrong token holds seat %d", you)
	}
}

// TestFullGame plays a game between two bots and a scripted person to the
// end, and checks that the stored record replays to the same result.
func TestFullGame(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	h := newHub(t, st)
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"easy", "", "hard"}}))
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := h.Join(ctx, in.ID, -1, Person{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	events := playAlong(t, ctx, h, in.ID, token)
	info, _, err := h.Game(ctx, in.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if info.Status != protocol.StatusFinished || len(info.Winners) == 0 {
		t.Fatalf("after the game: %+v", info)
	}
	rec, err := h.Record(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Players[1] != "Ann" || rec.Players[0] != "Bot 1 (easy)" || len(rec.Moves) != info.Moves {
		t.Errorf("record %v with %d moves, info %+v", rec.Players, len(rec.Moves), info)
	}
	g, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	st2 := g.State()
	if !st2.Over() || !equalInts(st2.Winners(), info.Winners) {
		t.Errorf("replayed winners %v, game's %v", st2.Winners(), info.Winners)
	}
	if got, want := len(events), len(g.Events()); got != want {
		t.Errorf("the player received %d events, the game has %d", got, want)
	}
	stored, _ := st.Game(ctx, in.ID)
	if stored.Status != store.StatusFinished || len(stored.Moves) != len(rec.Moves) {
		t.Errorf("stored %s with %d moves", stored.Status, len(stored.Moves))
	}
	t.Run("after the end", func(t *testing.T) {
		wantKind(t, h.Play(ctx, in.ID, token, "pass", -1), ErrGameOver)
		wantKind(t, h.Play(ctx, in.ID, "", "pass", -1), ErrNotYourSeat)
		sub, err := h.Watch(ctx, in.ID, Watcher{Token: token})
		if err != nil {
			t.Fatal(err)
		}
		u, ok := next(t, ctx, sub)
		if !ok || u.Seat != 1 || u.View == nil || len(u.View.Winners) == 0 || len(u.Events) != len(g.Events()) {
			t.Errorf("watching a finished game: %+v", u)
		}
		if _, ok := next(t, ctx, sub); ok {
			t.Error("a finished game's subscription is not closed after its state")
		}
		sub.Close()
	})
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// waitOver waits for the game's end on a subscription of its own, which
// reads every update until the Hub closes it at the end.
func waitOver(t *testing.T, ctx context.Context, h *Hub, id string) {
	t.Helper()
	sub, err := h.Watch(ctx, id, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	for {
		select {
		case _, ok := <-sub.Updates():
			if !ok {
				return
			}
		case <-ctx.Done():
			t.Fatalf("game %s did not end", id)
		}
	}
}

func TestBotsOnly(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, memstore.New())
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"easy", "medium", "hard", "easy", "medium"}}))
	if err != nil {
		t.Fatal(err)
	}
	// A subscriber that reads nothing until the end must not hold up the
	// game, and then gets the final state and every event.
	sub, err := h.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	waitOver(t, ctx, h, in.ID)
	u, ok := next(t, ctx, sub)
	if !ok {
		t.Fatal("no update")
	}
	rec, _ := h.Record(ctx, in.ID)
	g, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	if u.View == nil || u.View.Phase != "over" || u.Seat != -1 || len(u.View.Legal) != 0 {
		t.Errorf("final spectator update: %+v", u.View)
	}
	if len(u.Events) != len(g.Events()) {
		t.Errorf("coalesced update has %d events, the game %d", len(u.Events), len(g.Events()))
	}
	if _, ok := next(t, ctx, sub); ok {
		t.Error("the subscription is not closed at the end")
	}
}

func TestPlayRejections(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, memstore.New())
	in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}}))
	if err != nil {
		t.Fatal(err)
	}
	id := in.ID
	tokens := make([]string, 2)
	_, tokens[0], _ = h.Join(ctx, id, 0, Person{Name: "Ann"})
	_, tokens[1], _ = h.Join(ctx, id, 1, Person{Name: "Bob"})
	sub, _ := h.Watch(ctx, id, Watcher{})
	u, _ := next(t, ctx, sub)
	sub.Close()
	// ann is to move (R4: the dealt cheques decide who starts), bob is not.
	ann, bob := tokens[u.View.ToMove], tokens[1-u.View.ToMove]
	name := u.View.Players[u.View.ToMove]
	cases := []struct {
		name, token, move string
		seq               int
		kind              error
	}{
		{"spectator", "", "draw", -1, ErrNotYourSeat},
		{"wrong token", "AAAAAAAAAAAAAAAAAAAAAAAAAA", "draw", -1, ErrNotYourSeat},
		{"other seat", bob, "draw", -1, ErrNotYourTurn},
		{"stale", ann, "draw", 3, ErrStale},
		{"client names the card", ann, "draw police", -1, ErrIllegalMove},
		{"malformed", ann, "fly away", -1, ErrIllegalMove},
		{"empty", ann, "", -1, ErrIllegalMove},
		{"no auction (R10)", ann, "bid 9", -1, ErrIllegalMove},
		{"no thieves (R8)", ann, "thief car", -1, ErrIllegalMove},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantKind(t, h.Play(ctx, id, c.token, c.move, c.seq), c.kind)
		})
	}
	var me *razzia.MoveError
	if err := h.Play(ctx, id, ann, "bid 9", -1); !errors.As(err, &me) || !strings.Contains(err.Error(), name) {
		t.Errorf("an illegal move does not wrap the engine's *MoveError naming the player: %v", err)
	}
	if info, _, _ := h.Game(ctx, id, ""); info.Moves != 0 {
		t.Fatalf("rejected moves changed the game: %d moves", info.Moves)
	}
	if err := h.Play(ctx, id, ann, "DRAW", 0); err != nil {
		t.Fatalf("a draw: %v", err)
	}
	rec, _ := h.Record(ctx, id)
	if len(rec.Moves) != 1 || !strings.HasPrefix(rec.Moves[0], "draw ") {
		t.Errorf("the stored draw does not name its card: %q", rec.Moves)
	}
}

// failStore fails the moves (AppendTimedMove, which the Hub calls) while
// fail is set.
type failStore struct {
	store.Store
	mu   sync.Mutex
	fail bool
}

func (s *failStore) set(fail bool) { s.mu.Lock(); s.fail = fail; s.mu.Unlock() }

func (s *failStore) AppendTimedMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) error {
	s.mu.Lock()
	fail := s.fail
	s.mu.Unlock()
	if fail {
		return errors.New("disk full")
	}
	return s.Store.AppendTimedMove(ctx, id, fence, index, token, status, clock)
}

func TestStoreFailure(t *testing.T) {
	ctx := testContext(t)
	st := &failStore{Store: memstore.New()}
	h := newHub(t, st)
	in, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"", ""}}))
	_, ann, _ := h.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	_, _, _ = h.Join(ctx, in.ID, 1, Person{Name: "Bob"})
	sub, _ := h.Watch(ctx, in.ID, Watcher{})
	defer sub.Close()
	next(t, ctx, sub)
	st.set(true)
	err := h.Play(ctx, in.ID, ann, "draw", 0)
	wantKind(t, err, ErrInternal)
	if strings.Contains(err.Error(), "disk") {
		t.Errorf("the player sees the store's error: %v", err)
	}
	select {
	case u := <-sub.Updates():
		t.Fatalf("a refused move was broadcast: %+v", u)
	default:
	}
	if info, _, _ := h.Game(ctx, in.ID, ""); info.Moves != 0 {
		t.Fatalf("the refused move changed the game: %d moves", info.Moves)
	}
	st.set(false)
	if err := h.Play(ctx, in.ID, ann, "draw", 0); err != nil {
		t.Fatalf("after the store recovered: %v", err)
	}
}

// TestBotRetry: a bot whose move the store refuses tries again.
func TestBotRetry(t *testing.T) {
	ctx := testContext(t)
	st := &failStore{Store: memstore.New(), fail: true}
	h := newHub(t, st)
	in, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"easy", ""}}))
	_, ann, _ := h.Join(ctx, in.ID, 1, Person{Name: "Ann"})
	sub, _ := h.Watch(ctx, in.ID, Watcher{Token: ann})
	defer sub.Close()
	if u, _ := next(t, ctx, sub); u.View.Moves != 0 {
		t.Fatalf("a move got through a failing store: %+v", u.View)
	}
	st.set(false)
	if u, _ := next(t, ctx, sub); u.View.Moves != 1 {
		t.Fatalf("after the store recovered: %+v", u.View)
	}
}

// TestResume stops a Hub mid-game and starts another on the same store:
// the game continues where it was, with its seats and bots.
func TestResume(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	h1 := New(st, testOptions(t))
	in, _, _ := created(h1.Create(ctx, TableSetup{Seats: []string{"", "easy", "medium"}}))
	_, ann, _ := h1.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	// Play a few of Ann's moves, then stop.
	sub, _ := h1.Watch(ctx, in.ID, Watcher{Token: ann})
	for played := 0; played < 5; {
		u, ok := next(t, ctx, sub)
		if !ok {
			t.Fatal("the game ended early")
		}
		if u.View.ToMove == 0 {
			if err := h1.Play(ctx, in.ID, ann, u.View.Legal[0], u.View.Moves); err != nil {
				t.Fatal(err)
			}
			played++
		}
	}
	h1.Close()
	if _, ok := <-sub.Updates(); ok {
		// The buffered update, if any; then the channel must close.
		if _, ok := <-sub.Updates(); ok {
			t.Fatal("Close did not end the subscription")
		}
	}
	before, _ := st.Game(ctx, in.ID)

	h2 := newHub(t, st)
	n, err := h2.Resume(ctx)
	if err != nil || n != 1 {
		t.Fatalf("resume: %d games, %v", n, err)
	}
	// Its bots may have moved already: they play at once.
	info, you, err := h2.Game(ctx, in.ID, ann)
	if err != nil || you != 0 || info.Status != protocol.StatusPlaying || info.Moves < len(before.Moves) {
		t.Fatalf("after resume: %+v, you %d, %v", info, you, err)
	}
	playAlong(t, ctx, h2, in.ID, ann)
	rec, _ := h2.Record(ctx, in.ID)
	for i, m := range before.Moves {
		if rec.Moves[i] != m {
			t.Fatalf("move %d changed from %q to %q", i+1, m, rec.Moves[i])
		}
	}
	g, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	if !g.Over() {
		t.Error("the resumed game did not finish")
	}
}

func TestUploadAndList(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, memstore.New())
	in, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"easy", "easy"}}))
	waitOver(t, ctx, h, in.ID)
	final, _, _ := h.Game(ctx, in.ID, "")
	rec, _ := h.Record(ctx, in.ID)
	var buf bytes.Buffer
	rec.WriteTo(&buf)
	up, err := h.Upload(ctx, &buf)
	if err != nil {
		t.Fatal(err)
	}
	if up.Status != protocol.StatusArchived || up.Moves != len(rec.Moves) || !equalInts(up.Winners, final.Winners) || up.ID == in.ID {
		t.Errorf("uploaded %+v, played %+v", up, final)
	}
	rec2, _ := h.Record(ctx, up.ID)
	if strings.Join(rec2.Moves, ",") != strings.Join(rec.Moves, ",") {
		t.Error("the archived record differs")
	}

	bad := map[string]struct {
		text string
		move int
	}{
		"not JSON":     {"{", 0},
		"no format":    {`{"players":["a","b"],"moves":[]}`, 0},
		"one player":   {`{"format":"razzia-record/1","players":["a"],"moves":[]}`, 0},
		"illegal move": {`{"format":"razzia-record/1","players":["a","b"],"moves":["draw car","bid 9"]}`, 2},
	}
	for name, c := range bad {
		t.Run(name, func(t *testing.T) {
			_, err := h.Upload(ctx, strings.NewReader(c.text))
			wantKind(t, err, ErrBadRecord)
			var re *razzia.RecordError
			if !errors.As(err, &re) || re.Move != c.move {
				t.Errorf("got %v, want a *RecordError at move %d", err, c.move)
			}
		})
	}

	open, _, _ := created(h.Create(ctx, TableSetup{Seats: []string{"", "hard"}}))
	for status, want := range map[store.Status][]string{
		store.StatusOpen:     {open.ID},
		store.StatusFinished: {in.ID},
		store.StatusArchived: {up.ID},
		store.StatusPlaying:  nil,
		"":                   {open.ID, up.ID, in.ID},
	} {
		list, err := h.List(ctx, status)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, g := range list {
			got = append(got, g.ID)
			if (g.Status == protocol.StatusFinished || g.Status == protocol.StatusArchived) && len(g.Winners) == 0 {
				t.Errorf("%s %s lists no winners", g.Status, g.ID)
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("list %q: got %v, want %v", status, got, want)
		}
	}
	_, err = h.List(ctx, "lost")
	wantKind(t, err, ErrBadRequest)
}

// TestConcurrency runs people joining, watching and playing several games
// at once; run it with -race.
func TestConcurrency(t *testing.T) {
	ctx := testContext(t)
	h := newHub(t, memstore.New())
	var wg sync.WaitGroup
	for range 4 {
		in, _, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "", "easy"}}))
		if err != nil {
			t.Fatal(err)
		}
		tokens := make(chan string, 4)
		for _, name := range []string{"Ann", "Bob", "Cy"} {
			wg.Go(func() {
				_, tok, err := h.Join(ctx, in.ID, -1, Person{Name: name})
				if err != nil {
					if !errors.Is(err, ErrTableFull) {
						t.Errorf("join: %v", err)
					}
					return
				}
				tokens <- tok
			})
		}
		for range 2 {
			wg.Go(func() {
				tok := <-tokens
				playAlong(t, ctx, h, in.ID, tok)
			})
		}
		// Spectators and stray moves while the game runs.
		wg.Go(func() {
			for range 20 {
				if sub, err := h.Watch(ctx, in.ID, Watcher{}); err == nil {
					sub.Close()
				}
				h.Play(ctx, in.ID, "", "draw", -1)
				h.List(ctx, "")
			}
		})
	}
	wg.Wait()
}

// created splits a new table into its description and its creator's
// token, as most tests use them.
func created(t Table, err error) (protocol.GameInfo, string, error) { return t.Info, t.Creator, err }
