package meet_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/meet"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/table"
)

var quiet = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))

// clock is a clock the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// world is a node of a server: a store, a Hub, a service, and what
// presence would know (fakes).
type world struct {
	t     *testing.T
	st    store.Store
	hub   *table.Hub
	svc   *meet.Service
	clock *clock

	mu      sync.Mutex
	offline map[string]bool    // person keys
	blocks  map[[2]string]bool // account pairs: [blocker, blocked]
	finish  map[string]int     // accounts
	pushed  []string           // "account challenge-id"
	pages   []*page            // the live pages open
}

// page is a person's live page in the lobby, as presence keeps it (a
// fake): it hears what is told to its person and to every lobby.
type page struct {
	person string
	c      chan protocol.MeetMessage
}

func (p *page) Messages() <-chan protocol.MeetMessage { return p.c }

// listen opens a lobby page of the person.
func (w *world) listen(p meet.Person) *page {
	w.mu.Lock()
	defer w.mu.Unlock()
	pg := &page{person: p.Key, c: make(chan protocol.MeetMessage, 64)}
	w.pages = append(w.pages, pg)
	return pg
}

// tell delivers a message to the pages of the person ("": every page).
func (w *world) tell(person string, message []byte) error {
	var m protocol.MeetMessage
	if err := json.Unmarshal(message, &m); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, pg := range w.pages {
		if person == "" || pg.person == person {
			select {
			case pg.c <- m:
			default:
				w.t.Errorf("page of %s full", pg.person)
			}
		}
	}
	return nil
}

func hubOptions() table.Options {
	return table.Options{
		Logger: quiet,
		NewBot: func(_ string, seed uint64) (bot.Bot, error) { return bot.New("random", seed) },
		// Bots wait for no one: the tests read the table, never its moves.
		BotDelay: time.Hour,
		LeaseTTL: time.Minute,
		Limits:   table.Limits{MaxPerClient: 1 << 20, MaxOpen: 1 << 20, MaxBotGames: 1 << 20},
	}
}

func newWorld(t *testing.T) *world {
	st := memstore.New()
	t.Cleanup(func() { st.Close() })
	return newNode(t, st, &clock{now: time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)})
}

// newNode is a node on st, with the clock c.
func newNode(t *testing.T, st store.Store, c *clock) *world {
	return newNodeHub(t, st, c, func(h meet.Hub) meet.Hub { return h })
}

// newNodeHub is newNode with the Hub the service sees made by hub.
func newNodeHub(t *testing.T, st store.Store, c *clock, hub func(meet.Hub) meet.Hub) *world {
	w := &world{t: t, st: st, clock: c, offline: map[string]bool{}, blocks: map[[2]string]bool{}, finish: map[string]int{}}
	w.hub = table.New(st, hubOptions())
	t.Cleanup(func() { w.hub.Close() })
	w.svc = meet.New(st, hub(w.hub), meet.Options{
		Now: c.Now, Logger: quiet, Tick: time.Hour, Reseat: time.Nanosecond,
		Online: func(_ context.Context, p string) (bool, error) {
			w.mu.Lock()
			defer w.mu.Unlock()
			return !w.offline[p], nil
		},
		Blocked: func(_ context.Context, a, b string) (bool, error) {
			w.mu.Lock()
			defer w.mu.Unlock()
			return w.blocks[[2]string{a, b}], nil
		},
		FinishRate: func(_ context.Context, a string) (int, bool, error) {
			w.mu.Lock()
			defer w.mu.Unlock()
			r, ok := w.finish[a]
			return r, ok, nil
		},
		Account: func(ctx context.Context, name string) (meet.Person, error) {
			a, err := st.AccountByKey(ctx, playername.Key(name))
			if err != nil {
				return meet.Person{}, err
			}
			return meet.AccountPerson(a.ID, a.Name, 1500), nil
		},
		SeatToken: func(_ context.Context, account, game string) (string, error) {
			return "seat-" + account + "-" + game, nil
		},
		Tell:        func(_ context.Context, p string, m []byte) error { return w.tell(p, m) },
		TellLobbies: func(_ context.Context, m []byte) error { return w.tell("", m) },
		Notify: func(account string, c protocol.ChallengeInfo) {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.pushed = append(w.pushed, account+" "+c.ID)
		},
	})
	stop, err := w.svc.Start(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return w
}

// guest is a guest called name.
func guest(name string) meet.Person { return meet.GuestPerson("key-"+name, name) }

// account stores an account called name and returns it as a person.
func (w *world) account(name string, rating int) meet.Person {
	w.t.Helper()
	a := &store.Account{ID: "id-" + name, Name: name, Key: playername.Key(name), Handle: []byte("h" + name), SeatKey: []byte("k" + name),
		Created: time.Now(), Rating: store.Rating{Mu: 25, Sigma: 25.0 / 3}}
	if err := w.st.CreateAccount(w.t.Context(), a); err != nil && !errors.Is(err, store.ErrNameTaken) {
		w.t.Fatal(err)
	}
	return meet.AccountPerson(a.ID, name, rating)
}

func (w *world) seek(p meet.Person, set meet.Settings) protocol.SeekInfo {
	w.t.Helper()
	in, err := w.svc.Seek(w.t.Context(), p, set)
	if err != nil {
		w.t.Fatalf("Seek of %s: %v", p.Name, err)
	}
	w.clock.add(time.Millisecond) // who waited longest is plain
	return in
}

// game returns the table of a paired request, checked to seat the names.
func (w *world) game(in protocol.SeekInfo, names ...string) protocol.GameInfo {
	w.t.Helper()
	k, err := w.st.Seek(w.t.Context(), in.ID)
	if err != nil || k.Status != store.SeekPaired {
		w.t.Fatalf("request %s: %+v, %v; want it paired", in.ID, k, err)
	}
	info, _, err := w.hub.Game(w.t.Context(), k.Game, "")
	if err != nil {
		w.t.Fatal(err)
	}
	var got []string
	for _, s := range info.Seats {
		if s.Bot == "" {
			got = append(got, s.Name)
		}
	}
	slices.Sort(got)
	slices.Sort(names)
	if !slices.Equal(got, names) {
		w.t.Fatalf("game %s seats %v, want %v", k.Game, got, names)
	}
	return info
}

func (w *world) open() []string {
	w.t.Helper()
	open, err := w.st.OpenSeeks(w.t.Context())
	if err != nil {
		w.t.Fatal(err)
	}
	var ids []string
	for _, k := range open {
		ids = append(ids, k.Name)
	}
	return ids
}

// next waits for the listener's next message of the type.
func next(t *testing.T, l *page, typ string) protocol.MeetMessage {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case m := <-l.Messages():
			if m.Type == typ {
				return m
			}
		case <-deadline:
			t.Fatalf("no %q message", typ)
		}
	}
}

// nextSeek waits for the listener's next news of a request of the status.
func nextSeek(t *testing.T, l *page, status string) *protocol.SeekInfo {
	t.Helper()
	for {
		if m := next(t, l, protocol.TypeSeek); m.Seek.Status == status {
			return m.Seek
		}
	}
}

var two = meet.Settings{Min: 2, Max: 2, Pace: "rapid"}

// TestPlayNowPairs: two guests asking for the same table are seated at
// it, and each is told at once where.
func TestPlayNowPairs(t *testing.T) {
	w := newWorld(t)
	ann, bob := guest("Ann"), guest("Bob")
	la, lb := w.listen(ann), w.listen(bob)
	a := w.seek(ann, two)
	if a.Status != protocol.SeekOpen {
		t.Fatalf("a request alone: %s, want open", a.Status)
	}
	if got := w.open(); !slices.Equal(got, []string{"Ann"}) {
		t.Fatalf("open requests %v", got)
	}
	b := w.seek(bob, two)
	if b.Status != protocol.SeekPaired || b.Game == "" || b.Seat == nil {
		t.Fatalf("the second request: %+v, want paired", b)
	}
	info := w.game(a, "Ann", "Bob")
	if info.Status != protocol.StatusPlaying || info.Pace == nil || info.Pace.ID != "rapid" || info.Rated {
		t.Errorf("the table: %+v", info)
	}
	for _, l := range []*page{la, lb} {
		if s := nextSeek(t, l, protocol.SeekPaired); s.Game != info.ID || s.Seat == nil {
			t.Errorf("told %+v, want paired at %s", s, info.ID)
		}
	}
	// The guest's seat: its token holds the seat it names.
	game, seat, token, err := w.svc.SeekSeat(t.Context(), ann, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, you, err := w.hub.Game(t.Context(), game, token); err != nil || you != seat {
		t.Errorf("the guest's token holds seat %d (%v), want %d", you, err, seat)
	}
	if _, _, _, err := w.svc.SeekSeat(t.Context(), bob, a.ID); !errors.Is(err, protocol.NotFound) {
		t.Errorf("another's seat: %v, want not_found", err)
	}
	if got := w.open(); len(got) != 0 {
		t.Errorf("open requests after pairing: %v", got)
	}
}

// TestPlayNowTellsLobbies: every lobby hears each request as it comes
// and goes, the other requests of a person seated included.
func TestPlayNowTellsLobbies(t *testing.T) {
	w := newWorld(t)
	cy := w.listen(guest("Cy"))
	ann := guest("Ann")
	a2 := w.seek(ann, two)
	a3 := w.seek(ann, meet.Settings{Min: 3, Max: 3})
	w.seek(guest("Bob"), two)
	status := map[string]string{}
	for status[a2.ID] != protocol.SeekPaired || status[a3.ID] != protocol.SeekCancelled {
		m := next(t, cy, protocol.TypeSeeks)
		if m.Seek.Mine || m.Seek.Game != "" {
			t.Fatalf("a lobby hears %+v", m.Seek)
		}
		status[m.Seek.ID] = m.Seek.Status
	}
}

// TestPlayNowSizes: three, four and five seats fill too, and a range
// takes the largest table that fills.
func TestPlayNowSizes(t *testing.T) {
	for _, n := range []int{3, 4, 5} {
		w := newWorld(t)
		set := meet.Settings{Min: n, Max: n, Pace: "blitz"}
		var first protocol.SeekInfo
		names := []string{}
		for i := range n {
			name := string(rune('A'+i)) + "nn"
			names = append(names, name)
			in := w.seek(guest(name), set)
			if i == 0 {
				first = in
			}
			if i < n-1 && in.Status != protocol.SeekOpen {
				t.Fatalf("%d of %d: %s", i+1, n, in.Status)
			}
		}
		w.game(first, names...)
	}
	w := newWorld(t)
	a := w.seek(guest("Ann"), meet.Settings{Min: 3, Max: 4})
	w.seek(guest("Bob"), meet.Settings{Min: 2, Max: 4})
	w.seek(guest("Cy"), meet.Settings{Min: 3, Max: 3})
	w.game(a, "Ann", "Bob", "Cy")
}

// TestPlayNowBots: a request that asked for bots gets them once it has
// waited, at the table it asked for.
func TestPlayNowBots(t *testing.T) {
	w := newWorld(t)
	ann := guest("Ann")
	l := w.listen(ann)
	a := w.seek(ann, meet.Settings{Min: 3, Max: 3, Pace: "rapid", BotsAfter: 30 * time.Second})
	w.clock.add(29 * time.Second)
	w.svc.Sweep(t.Context())
	if got := w.open(); len(got) != 1 {
		t.Fatalf("before its wait: %v open", got)
	}
	w.clock.add(time.Second)
	w.svc.Sweep(t.Context())
	info := w.game(a, "Ann")
	if len(info.Seats) != 3 || info.Status != protocol.StatusPlaying {
		t.Errorf("the table: %d seats, %s", len(info.Seats), info.Status)
	}
	nextSeek(t, l, protocol.SeekPaired)
}

// TestSeekRefused: settings no table can meet, a guest's rated request,
// a bad name and a request past the limit are refused, each with its
// code, and nothing is stored.
func TestSeekRefused(t *testing.T) {
	w := newWorld(t)
	ann := guest("Ann")
	for _, tc := range []struct {
		name string
		p    meet.Person
		set  meet.Settings
		code protocol.Code
	}{
		{"one player", ann, meet.Settings{Min: 1, Max: 2}, protocol.UnmetSettings},
		{"six players", ann, meet.Settings{Min: 2, Max: 6}, protocol.UnmetSettings},
		{"upside down", ann, meet.Settings{Min: 4, Max: 3}, protocol.UnmetSettings},
		{"no pace", ann, meet.Settings{Min: 2, Max: 2, Pace: "warp"}, protocol.UnmetSettings},
		{"untimed rated", w.account("Zed", 1500), meet.Settings{Min: 2, Max: 2, Pace: "untimed", Rated: true}, protocol.UnmetSettings},
		{"ratings upside down", ann, meet.Settings{Min: 2, Max: 2, RatingMin: 1800, RatingMax: 1200}, protocol.UnmetSettings},
		{"finish over 100", ann, meet.Settings{Min: 2, Max: 2, MinFinish: 101}, protocol.UnmetSettings},
		{"bots too soon", ann, meet.Settings{Min: 2, Max: 2, BotsAfter: time.Second}, protocol.UnmetSettings},
		{"bots too late", ann, meet.Settings{Min: 2, Max: 2, BotsAfter: time.Hour}, protocol.UnmetSettings},
		{"a guest's rated", ann, meet.Settings{Min: 2, Max: 2, Rated: true}, protocol.AccountRequired},
		{"a bot's name", guest("Bot 1 (hard)"), two, protocol.BadName},
		{"no name", guest(""), two, protocol.BadName},
		{"an account's name", guest("ZED"), two, protocol.NameTaken},
		{"a negative rating", ann, meet.Settings{Min: 2, Max: 2, RatingMin: -5}, protocol.UnmetSettings},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := w.svc.Seek(t.Context(), tc.p, tc.set)
			var e *meet.Error
			if !errors.Is(err, tc.code) || !errors.As(err, &e) || e.Msg == "" {
				t.Errorf("Seek = %v, want %s with a message", err, tc.code)
			}
		})
	}
	if got := w.open(); len(got) != 0 {
		t.Errorf("refused requests stored: %v", got)
	}
	for range 3 {
		w.seek(ann, meet.Settings{Min: 5, Max: 5})
	}
	if _, err := w.svc.Seek(t.Context(), ann, two); !errors.Is(err, protocol.TooManySeeks) {
		t.Errorf("a fourth request: %v, want too_many_seeks", err)
	}
	if got := w.open(); len(got) != 3 {
		t.Errorf("%d open after the refusal, want 3", len(got))
	}
}

// TestJoinSeek: one click joins another's request, unless it is one's
// own, over, or does not accept the person.
func TestJoinSeek(t *testing.T) {
	w := newWorld(t)
	ann, bob, cy := w.account("Ann", 1500), guest("Bob"), w.account("Cy", 1900)
	a := w.seek(ann, meet.Settings{Min: 2, Max: 2, Pace: "blitz", RatingMax: 1700})
	if _, err := w.svc.JoinSeek(t.Context(), ann, a.ID); !errors.Is(err, protocol.ChallengeSelf) {
		t.Errorf("joining one's own: %v", err)
	}
	if _, err := w.svc.JoinSeek(t.Context(), bob, a.ID); !errors.Is(err, protocol.SeekUnfit) {
		t.Errorf("a guest without a rating at a rating range: %v", err)
	}
	if _, err := w.svc.JoinSeek(t.Context(), cy, a.ID); !errors.Is(err, protocol.SeekUnfit) {
		t.Errorf("a rating over the range: %v", err)
	}
	if _, err := w.svc.JoinSeek(t.Context(), guest("ann"), a.ID); !errors.Is(err, protocol.NameTaken) {
		t.Errorf("a guest under an account's name: %v", err)
	}
	g := w.seek(guest("Max"), two)
	if _, err := w.svc.JoinSeek(t.Context(), guest("MAX"), g.ID); !errors.Is(err, protocol.NameTaken) {
		t.Errorf("a guest under the name of the guest waiting: %v, want name_taken (not seek_unfit)", err)
	}
	if _, err := w.svc.CancelSeek(t.Context(), guest("Max"), g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.svc.JoinSeek(t.Context(), cy, "nope"); !errors.Is(err, protocol.SeekGone) {
		t.Errorf("an unknown request: %v", err)
	}
	if got := w.open(); len(got) != 1 {
		t.Fatalf("refused joins stored requests: %v", got)
	}
	dee := w.account("Dee", 1600)
	d, err := w.svc.JoinSeek(t.Context(), dee, a.ID)
	if err != nil || d.Status != protocol.SeekPaired || d.Pace != "blitz" {
		t.Fatalf("JoinSeek = %+v, %v", d, err)
	}
	w.game(a, "Ann", "Dee")
	if _, err := w.svc.JoinSeek(t.Context(), cy, a.ID); !errors.Is(err, protocol.SeekGone) {
		t.Errorf("joining a paired request: %v", err)
	}
}

// flaky is a store whose seating of paired requests (PairSeeks) and of
// accepted challenges (SetChallengeGame) fails, not for a conflict, the
// first fails times: the seat step broken as a database cut off would
// break it.
type flaky struct {
	store.Store
	mu    sync.Mutex
	fails int
}

var errCut = errors.New("connection reset by peer")

func (f *flaky) fail() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fails--
	return f.fails >= 0
}

func (f *flaky) PairSeeks(ctx context.Context, game string, seats []store.SeekSeat) error {
	if f.fail() {
		return errCut
	}
	return f.Store.PairSeeks(ctx, game, seats)
}

func (f *flaky) SetChallengeGame(ctx context.Context, id, game string) error {
	if f.fail() {
		return errCut
	}
	return f.Store.SetChallengeGame(ctx, id, game)
}

// seatFailures are the seat steps' failures the tests inject: one that
// passes at the second try, one that lasts beyond it.
var seatFailures = []struct {
	name  string
	fails int
}{{"passing", 1}, {"lasting", 2}}

// newFlaky is a node on a flaky store that fails fails times.
func newFlaky(t *testing.T, fails int) *world {
	st := &flaky{Store: memstore.New(), fails: fails}
	t.Cleanup(func() { st.Close() })
	return newNode(t, st, &clock{now: time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)})
}

// joinFlaky is a Hub whose seating of a person (Join) fails the first
// time, as a node cut off from the store would.
type joinFlaky struct {
	meet.Hub
	failed atomic.Bool
}

func (h *joinFlaky) Join(ctx context.Context, id string, seat int, p table.Person) (int, string, error) {
	if !h.failed.Swap(true) {
		return 0, "", errCut
	}
	return h.Hub.Join(ctx, id, seat, p)
}

// TestSitRetried: a person whose seat at a table made for them fails to
// be taken once sits at the second try, at a Play-now table and at a
// challenge's: no claimed seat is left open.
func TestSitRetried(t *testing.T) {
	node := func(t *testing.T) *world {
		st := memstore.New()
		t.Cleanup(func() { st.Close() })
		return newNodeHub(t, st, &clock{now: time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)},
			func(h meet.Hub) meet.Hub { return &joinFlaky{Hub: h} })
	}
	t.Run("play now", func(t *testing.T) {
		w := node(t)
		a := w.seek(guest("Ann"), two)
		w.seek(guest("Bob"), two)
		w.game(a, "Ann", "Bob")
	})
	t.Run("challenge", func(t *testing.T) {
		w := node(t)
		ann, bob := w.account("Ann", 1500), w.account("Bob", 1500)
		c, err := w.svc.Challenge(t.Context(), ann, []string{"Bob"}, "blitz", false)
		if err != nil {
			t.Fatal(err)
		}
		got, err := w.svc.Answer(t.Context(), bob, c.ID, true, "")
		if err != nil || got.Game == "" {
			t.Fatalf("the accept: %+v, %v", got, err)
		}
		info, _, err := w.hub.Game(t.Context(), got.Game, "")
		if err != nil || info.Seats[0].Name != "Ann" || info.Seats[1].Name != "Bob" {
			t.Errorf("the table: %+v, %v", info.Seats, err)
		}
	})
}

// TestJoinSeekSeatFails: a click on another's request whose table cannot
// be seated leaves nothing open: a failure that passes is tried once
// more and the person seated; one that lasts is refused as the server's
// failure, the click's request withdrawn (its page told), the other's
// request open still, and no table made is left waiting for anyone.
func TestJoinSeekSeatFails(t *testing.T) {
	for _, c := range seatFailures {
		t.Run(c.name, func(t *testing.T) {
			w := newFlaky(t, c.fails)
			ann, bob := guest("Ann"), guest("Bob")
			lb := w.listen(bob)
			a := w.seek(ann, two)
			b, err := w.svc.JoinSeek(t.Context(), bob, a.ID)
			waiting, lerr := w.hub.List(t.Context(), store.StatusOpen)
			if lerr != nil {
				t.Fatal(lerr)
			}
			if len(waiting) != 0 {
				t.Errorf("tables waiting for people: %+v", waiting)
			}
			if c.fails < 2 {
				if err != nil || b.Status != protocol.SeekPaired {
					t.Fatalf("JoinSeek after a failure that passed = %+v, %v; want paired", b, err)
				}
				w.game(a, "Ann", "Bob")
				return
			}
			if !errors.Is(err, protocol.Internal) || !errors.Is(err, errCut) {
				t.Fatalf("JoinSeek with the seating broken = %+v, %v; want the server's failure", b, err)
			}
			if got := w.open(); !slices.Equal(got, []string{"Ann"}) {
				t.Errorf("open requests %v, want Ann's alone", got)
			}
			nextSeek(t, lb, protocol.SeekCancelled)
			seeks, err := w.svc.Seeks(t.Context(), bob)
			if err != nil || len(seeks.Mine) != 1 || seeks.Mine[0].Status != protocol.SeekCancelled {
				t.Errorf("Bob's requests: %+v, %v; want the one withdrawn", seeks.Mine, err)
			}
		})
	}
}

// TestCancelSeek: a person cancels their request, once, and no other's.
func TestCancelSeek(t *testing.T) {
	w := newWorld(t)
	ann, bob := guest("Ann"), guest("Bob")
	a := w.seek(ann, meet.Settings{Min: 3, Max: 3})
	if _, err := w.svc.CancelSeek(t.Context(), bob, a.ID); !errors.Is(err, protocol.NotFound) {
		t.Errorf("cancelling another's: %v", err)
	}
	if in, err := w.svc.CancelSeek(t.Context(), ann, a.ID); err != nil || in.Status != protocol.SeekCancelled {
		t.Fatal(in, err)
	}
	if _, err := w.svc.CancelSeek(t.Context(), ann, a.ID); !errors.Is(err, protocol.SeekGone) {
		t.Errorf("cancelling twice: %v", err)
	}
	list, err := w.svc.Seeks(t.Context(), ann)
	if err != nil || len(list.Seeks) != 0 || len(list.Mine) != 1 || list.Mine[0].Status != protocol.SeekCancelled {
		t.Errorf("Seeks = %+v, %v", list, err)
	}
}

// TestSeekOffline: the requests of a person gone offline lapse, and they
// are told; a request just made waits OnlineGrace for its person's page
// to be counted online.
func TestSeekOffline(t *testing.T) {
	w := newWorld(t)
	ann := guest("Ann")
	l := w.listen(ann)
	w.seek(ann, meet.Settings{Min: 3, Max: 3})
	w.seek(ann, meet.Settings{Min: 4, Max: 4})
	w.svc.Sweep(t.Context())
	if got := w.open(); len(got) != 2 {
		t.Fatalf("online: %v open", got)
	}
	w.mu.Lock()
	w.offline[ann.Key] = true
	w.mu.Unlock()
	w.clock.add(meet.OnlineGrace - 10*time.Millisecond)
	w.svc.Sweep(t.Context())
	if got := w.open(); len(got) != 2 {
		t.Fatalf("offline within the grace: %v open", got)
	}
	w.clock.add(10 * time.Millisecond)
	w.svc.Sweep(t.Context())
	if got := w.open(); len(got) != 0 {
		t.Fatalf("offline: %v open", got)
	}
	nextSeek(t, l, protocol.SeekLapsed)
}

// TestSeekMaxWait: a request lapses once it waited MaxWait, online or
// not.
func TestSeekMaxWait(t *testing.T) {
	w := newWorld(t)
	w.seek(guest("Ann"), meet.Settings{Min: 3, Max: 3})
	w.clock.add(time.Hour - time.Second)
	w.svc.Sweep(t.Context())
	if got := w.open(); len(got) != 1 {
		t.Fatalf("before an hour: %v open", got)
	}
	w.clock.add(time.Second)
	w.svc.Sweep(t.Context())
	if got := w.open(); len(got) != 0 {
		t.Fatalf("after an hour: %v open", got)
	}
}

// TestBlockStopsPairing: people one of whom blocks the other are never
// paired, nor does one join the other's request; others still are.
func TestBlockStopsPairing(t *testing.T) {
	w := newWorld(t)
	ann, bob, cy := w.account("Ann", 1500), w.account("Bob", 1500), w.account("Cy", 1500)
	w.blocks[[2]string{bob.Account, ann.Account}] = true
	a := w.seek(ann, two)
	if b := w.seek(bob, two); b.Status != protocol.SeekOpen {
		t.Fatalf("a blocked pair: %s", b.Status)
	}
	if _, err := w.svc.JoinSeek(t.Context(), bob, a.ID); !errors.Is(err, protocol.Blocked) {
		t.Errorf("joining a blocked person's request: %v", err)
	}
	w.seek(cy, two)
	w.game(a, "Ann", "Cy")
}

// TestPairingNodes: two nodes on one store, pairing the same requests at
// once, seat each request and each person once; the tables of the node
// that lost are cancelled.
func TestPairingNodes(t *testing.T) {
	w1 := newWorld(t)
	w2 := newNode(t, w1.st, w1.clock)
	pairNodes(t, w1, w2)
}

// pairNodes fills the store with requests and pairs them from w1 and w2
// at once, several times, and checks the seats.
func pairNodes(t *testing.T, w1, w2 *world) {
	ctx := t.Context()
	// Stored straight, so that nobody pairs before both nodes start.
	for i := range 12 {
		name := string(rune('A'+i)) + "nn"
		k := store.Seek{ID: "k" + name, Person: "g:" + name, Name: name, Min: 2, Max: 3, Pace: "rapid", Finish: -1,
			Status: store.SeekOpen, Created: w1.clock.Now().Add(time.Duration(i) * time.Second)}
		if i%4 == 0 { // a second request of the same person
			k2 := k
			k2.ID, k2.Min, k2.Max = k.ID+"2", 2, 2
			if err := w1.st.AddSeek(ctx, k2, 3); err != nil {
				t.Fatal(err)
			}
		}
		if err := w1.st.AddSeek(ctx, k, 3); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for range 3 {
		for _, w := range []*world{w1, w2} {
			wg.Go(func() {
				if err := w.svc.Pair(ctx); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	open, _ := w1.st.OpenSeeks(ctx)
	if len(open) > 1 {
		t.Errorf("%d requests open after pairing", len(open))
	}
	seated := map[string]string{} // person -> game
	games := map[string]int{}
	for i := range 12 {
		name := string(rune('A'+i)) + "nn"
		for _, id := range []string{"k" + name, "k" + name + "2"} {
			k, err := w1.st.Seek(ctx, id)
			if err != nil || k.Status != store.SeekPaired {
				continue
			}
			if g, ok := seated[k.Person]; ok {
				t.Errorf("%s seated at %s and %s", k.Person, g, k.Game)
			}
			seated[k.Person] = k.Game
			games[k.Game]++
		}
	}
	for g, n := range games {
		info, _, err := w1.hub.Game(ctx, g, "")
		if err != nil {
			t.Fatal(err)
		}
		if info.Status != protocol.StatusPlaying || len(info.Seats) != n {
			t.Errorf("game %s: %s with %d seats, %d requests", g, info.Status, len(info.Seats), n)
		}
	}
	// Every table either node made and did not claim was cancelled.
	for _, st := range []store.Status{store.StatusOpen} {
		list, err := w1.st.List(ctx, st, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 0 {
			t.Errorf("%d tables left open", len(list))
		}
	}
}
