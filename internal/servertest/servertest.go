// Package servertest runs a whole Razzia server in a test: a memory
// store, the table Hub, the HTTP API and the web page, assembled by
// package server as razzia serve assembles them, on an httptest server
// whose connections a test can cut. Its helpers create tables, take seats, connect the protocol client
// and wait for states by reading them, never by polling with sleeps. Only
// tests import it.
package servertest

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/analyst"
	"github.com/razziagame/razzia/internal/botrating"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/meet"
	"github.com/razziagame/razzia/internal/moderation"
	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/puzzler"
	"github.com/razziagame/razzia/internal/server"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/table"
	"github.com/razziagame/razzia/internal/web"
)

// Options configure a Server. The zero Options are a server whose bots
// play random legal moves at once, with no page and limits no test
// meets.
type Options struct {
	// API configures the HTTP API; its limits default to values no test
	// meets (see Limits). Its Logger is set by New.
	API httpapi.Options
	// Hub configures the table Hub; NewBot defaults to random bots of
	// every level (set LevelBots to play the real levels), Rand to a
	// seeded source. Its Logger is set by New.
	Hub table.Options
	// LevelBots keeps the real bot levels instead of random bots.
	LevelBots bool
	// Page mounts the web page (web.Handler) as razzia serve does.
	Page bool
	// Limits keeps the server's default limits (httpapi.DefaultOptions,
	// table.DefaultLimits) where API and Hub leave them zero. Without it
	// those are limits no test of something else meets.
	Limits bool
	// Store, when set, returns the store the server uses in place of the
	// memory store: one that wraps it (a test's slow or failing store), or
	// another (a benchmark's SQLite, a store two servers share). The
	// server does not close it.
	Store func(*memstore.Store) store.Store
	// Accounts configures the accounts, wired as razzia serve wires them
	// (the Hub's game-over hook records results and ratings; a result
	// that cannot be recorded fails the test). Zero
	// fields take cheap password hashing and no delay after a wrong
	// password, unless Limits is set; Logger is set by New.
	Accounts account.Options
	// Push, when set, wires Web Push (internal/notify) as razzia serve
	// does: the Hub's alerts are pushed to the accounts' subscriptions.
	// Tests set Endpoints.Loopback to push to a pushtest service.
	Push *notify.Options
	// Analyst, when set, analyses the finished games in the background
	// as razzia serve does with --analysis-workers.
	Analyst *analyst.Options
	// Meet configures Play now and challenges (a test's clock, a quick
	// Tick); its Logger is set by New.
	Meet meet.Options
	// Presence configures presence (a test may shorten its Linger).
	Presence presence.Options
	// Puzzler, when set, searches the analysed games for puzzles in the
	// background as razzia serve does with --puzzle-workers.
	Puzzler *puzzler.Options
	// Moderation configures the reports and operators' actions (a
	// test's clock).
	Moderation moderation.Options
}

// generous fills the zero limits of the API with values no test meets.
func generous(o httpapi.Options) httpapi.Options {
	for _, f := range []*float64{&o.MessageRate, &o.CreateRate, &o.JoinRate, &o.RegisterRate, &o.CeremonyRate} {
		if *f == 0 {
			*f = 1e6
		}
	}
	for _, f := range []*int{&o.MessageBurst, &o.CreateBurst, &o.JoinBurst, &o.MaxConns, &o.RegisterBurst, &o.CeremonyBurst} {
		if *f == 0 {
			*f = 1 << 20
		}
	}
	return o
}

// generousHub fills the zero limits of the Hub with values no test meets.
func generousHub(l table.Limits) table.Limits {
	if l.SeatMoveRate == 0 {
		l.SeatMoveRate = 1e6
	}
	for _, f := range []*int{&l.MaxOpen, &l.MaxPerClient, &l.MaxBotGames, &l.MaxSpectators, &l.SeatMoveBurst} {
		if *f == 0 {
			*f = 1 << 20
		}
	}
	return l
}

// A Server is a Razzia server in the test, stopped when the test ends.
type Server struct {
	*httptest.Server
	// Store is the memory store, which the server uses unless
	// Options.Store gave another.
	Store *memstore.Store
	Hub   *table.Hub
	API   *httpapi.Server
	// Accounts are the server's accounts.
	Accounts *account.Service
	// Push is the server's Web Push, when Options.Push is set.
	Push *notify.Service
	// Moderation is the server's reports and sanctions.
	Moderation *moderation.Service
	// Presence is who is connected (the server's presence.Service).
	Presence *presence.Service
	// Meet is Play now and challenges (a test may Sweep it by its clock).
	Meet *meet.Service

	t  testing.TB
	ln *cutListener
}

// New starts a server for the test.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if opts.Hub.NewBot == nil && !opts.LevelBots {
		opts.Hub.NewBot = func(_ string, seed uint64) (bot.Bot, error) { return bot.New("random", seed) }
	}
	if opts.Hub.Rand == nil {
		opts.Hub.Rand = &lockedReader{r: rand.NewChaCha8([32]byte{7})}
	}
	if !opts.Limits {
		opts.API = generous(opts.API)
		opts.Hub.Limits = generousHub(opts.Hub.Limits)
	}
	if !opts.Limits {
		if opts.Accounts.Params == (account.Params{}) {
			opts.Accounts.Params = account.Params{Memory: 64, Time: 1, Threads: 1}
		}
		if opts.Accounts.FailDelay == 0 {
			opts.Accounts.FailDelay = time.Nanosecond
		}
	}
	if opts.Accounts.Bots == nil {
		opts.Accounts.Bots = botrating.Levels() // as razzia serve has them
	}
	if opts.Push != nil && opts.Push.Subject == "" {
		po := *opts.Push
		po.Subject = "mailto:ops@razzia.test"
		opts.Push = &po
	}
	st := memstore.New()
	var used store.Store = st
	if opts.Store != nil {
		// The store given may be shared with another server of the
		// test: the test closes it, not the server.
		given := opts.Store(st)
		used = unclosed{given}
		if h, ok := given.(store.Hearer); ok {
			used = unclosedHearer{unclosed{given}, h} // heard as razzia serve hears it
		}
	}
	var page http.Handler
	if opts.Page {
		page = web.Handler()
	}
	s, err := server.New(t.Context(), server.Options{
		Store: used, Logger: log, Accounts: opts.Accounts, Push: opts.Push, Hub: opts.Hub,
		Analyst: opts.Analyst, Puzzler: opts.Puzzler, API: opts.API, Page: page, Meet: opts.Meet,
		Moderation: opts.Moderation, Presence: opts.Presence,
		ResultFailed: func(f table.Finished, err error) {
			t.Errorf("recording the result of game %s: %v", f.Game, err)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(s.API)
	srv.Config = s.HTTP // with the timeouts razzia serve has
	ln := &cutListener{Listener: srv.Listener}
	srv.Listener = ln
	srv.Start()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("stopping the server: %v", err)
		}
		srv.Close()
	})
	return &Server{Server: srv, Store: st, Hub: s.Hub, API: s.API, Accounts: s.Accounts, Push: s.Push,
		Moderation: s.Moderation, Presence: s.Presence, Meet: s.Meet, t: t, ln: ln}
}

// unclosed is a store whose Close is left to its owner.
type unclosed struct{ store.Store }

func (unclosed) Close() error { return nil }

// unclosedHearer is an unclosed store that hands its notices to a
// function (store.Hearer).
type unclosedHearer struct {
	unclosed
	store.Hearer
}

// Context returns a context that ends with the test or after a minute,
// whichever comes first.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// Client returns a protocol client of the server.
func (s *Server) Client() *client.Client {
	s.t.Helper()
	c, err := client.New(s.URL)
	if err != nil {
		s.t.Fatal(err)
	}
	return c
}

// Create creates a table: "" for a seat open to a person, or a bot level.
func (s *Server) Create(seats ...string) protocol.GameInfo {
	s.t.Helper()
	info, _, err := s.Client().Create(Context(s.t), seats)
	if err != nil {
		s.t.Fatalf("create %q: %v", seats, err)
	}
	return info
}

// Games returns every game the server keeps, whatever its status (a
// plain list leaves the expired and cancelled out): what a test that
// wants nothing created counts.
func (s *Server) Games() []protocol.GameInfo {
	s.t.Helper()
	var all []protocol.GameInfo
	for _, st := range []protocol.Status{protocol.StatusOpen, protocol.StatusPlaying, protocol.StatusFinished,
		protocol.StatusArchived, protocol.StatusExpired, protocol.StatusCancelled} {
		list, err := s.Client().List(Context(s.t), st)
		if err != nil {
			s.t.Fatalf("the %s games: %v", st, err)
		}
		all = append(all, list...)
	}
	return all
}

// Join takes the first open seat of the game for name and returns the
// seat and its token.
func (s *Server) Join(id, name string) (int, string) {
	s.t.Helper()
	seat, token, err := s.Client().Join(Context(s.t), id, name, -1)
	if err != nil {
		s.t.Fatalf("join %s as %s: %v", id, name, err)
	}
	return seat, token
}

// Dial connects to the game's WebSocket with the token ("" to watch),
// closed when the test ends.
func (s *Server) Dial(id, token string) *client.Conn {
	s.t.Helper()
	conn, err := s.Client().Dial(Context(s.t), id, token)
	if err != nil {
		s.t.Fatalf("dial %s: %v", id, err)
	}
	s.t.Cleanup(func() { conn.Close() })
	return conn
}

// Wait watches the game as a spectator until cond holds for a state and
// returns that state: it reads the states the server sends, so it waits
// exactly as long as the game takes.
func (s *Server) Wait(id string, cond func(*client.State) bool) *client.State {
	s.t.Helper()
	ctx := Context(s.t)
	conn := s.Dial(id, "")
	defer conn.Close()
	for {
		st, err := conn.Read(ctx)
		if err != nil {
			s.t.Fatalf("game %s: waiting: %v", id, err)
		}
		if cond(st) {
			return st
		}
	}
}

// WaitOver waits until the game is over and returns its last state.
func (s *Server) WaitOver(id string) *client.State {
	s.t.Helper()
	return s.Wait(id, (*client.State).Over)
}

// PlayAll joins the game with the client (as its signed-in account, if
// it is signed in) and plays the first legal move at every turn of its
// seat until the game is over; it returns the seat.
func PlayAll(t testing.TB, c *client.Client, id string) int {
	t.Helper()
	ctx := Context(t)
	seat, token, err := c.Join(ctx, id, "", -1)
	if err != nil {
		t.Fatalf("join %s: %v", id, err)
	}
	s := c.Session(id, token)
	defer s.Close()
	p := client.Player{Session: s, Decide: func(st *client.State) string { return st.View.Legal[0] }}
	if _, err := p.Play(ctx); err != nil {
		t.Fatalf("game %s: %v", id, err)
	}
	return seat
}

// Cut closes every connection to the server, WebSockets included, as a
// network failure would; the server goes on.
func (s *Server) Cut() { s.ln.cut() }

// lockedReader makes a seeded source safe for the Hub's goroutines.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

// cutListener remembers its connections so a test can cut them all.
type cutListener struct {
	net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func (l *cutListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c)
		l.mu.Unlock()
	}
	return c, err
}

func (l *cutListener) cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
}

// PlaySeat plays the seat with token at game id through the Hub, its first
// legal move each time, until the game is over: a person who always takes
// the first choice, for tests that need games played to their end.
func PlaySeat(ctx context.Context, hub *table.Hub, id, token string) error {
	sub, err := hub.Watch(ctx, id, table.Watcher{Token: token})
	if err != nil {
		return err
	}
	defer sub.Close()
	for u := range sub.Updates() {
		if u.View == nil || u.View.ToMove != u.Seat || len(u.View.Legal) == 0 {
			continue
		}
		if err := hub.Play(ctx, id, token, u.View.Legal[0], u.View.Moves); err != nil && !errors.Is(err, table.ErrStale) {
			return err
		}
	}
	return nil
}
