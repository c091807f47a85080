// Package server assembles a Razzia server from its parts, in one order:
// the store, the accounts, Web Push, the table Hub (with the games it
// resumes), the analyst, Play now and challenges, and the HTTP API; and
// it takes them down in the reverse order. razzia serve and the test
// server (internal/servertest) both build theirs here, so that what the
// tests run is what is deployed; they differ only in their Options.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/analyst"
	"github.com/razziagame/razzia/internal/director"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/meet"
	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/puzzler"
	"github.com/razziagame/razzia/internal/social"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
)

// Options say what to build. The Logger of each part's options is set
// from Logger (with the node's id from the API on); the hooks that join the parts (the Hub's OnFinish, OnAlert
// and SeatToken, the API's Accounts, Push and Metrics) are set by New
// where they are nil.
type Options struct {
	// Store is the database, opened: the server closes it last, when it
	// stops.
	Store store.Store
	// Logger receives every part's log; default slog.Default().
	Logger *slog.Logger
	// Metrics, when set, receives the Hub's figures and is served at
	// /metrics.
	Metrics *prometheus.Registry
	// Accounts configures the accounts.
	Accounts account.Options
	// Push, when set, turns on Web Push: the Hub's alerts are pushed to
	// the accounts' subscriptions.
	Push *notify.Options
	// Hub configures the table Hub.
	Hub table.Options
	// Analyst, when set, analyses finished games in the background, only
	// while the bots leave a worker of theirs free.
	Analyst *analyst.Options
	// Tournaments configures the directors of tournaments (Node and
	// Logger are the server's; LeaseTTL the Hub's unless set).
	Tournaments director.Options
	// Meet configures Play now and challenges; its hooks into the other
	// parts are set by New where they are nil.
	Meet meet.Options
	// Puzzler, when set, finds puzzles in the analysed games in the
	// background, at the lowest priority: after the analyst, and only
	// while the bots leave a worker of theirs free.
	Puzzler *puzzler.Options
	// API configures the HTTP API.
	API httpapi.Options
	// Page serves the web page; nil serves none.
	Page http.Handler
	// PurgeEvery is how often expired sessions and passkey challenges
	// are removed; default an hour.
	PurgeEvery time.Duration
	// DrainTimeout bounds the hand-over of the games when the server
	// stops; default 10 s.
	DrainTimeout time.Duration
	// ResultFailed is called when the result of a finished game could
	// not be recorded; default: an error in the log.
	ResultFailed func(f table.Finished, err error)
	// Presence configures presence; its Node, Logger and (unless set)
	// clock are the Hub's.
	Presence presence.Options
}

// A Server is an assembled Razzia server: Serve it on a listener, and
// Shutdown to stop it.
type Server struct {
	Store    store.Store
	Accounts *account.Service
	Push     *notify.Service // nil without Options.Push
	Hub      *table.Hub
	// Tournaments directs the tournaments this node leases.
	Tournaments *director.Service
	Meet        *meet.Service
	// Presence knows who is connected, on every node; Social who follows
	// and blocks whom, and finish rates.
	Presence *presence.Service
	Social   *social.Service
	API      *httpapi.Server
	// HTTP is the API's http.Server, with its timeouts.
	HTTP *http.Server
	// Resumed is the number of games the Hub took up from the store.
	Resumed int

	opts    Options
	log     *slog.Logger
	stops   []func()                         // the background work, in the order it started
	present atomic.Pointer[presence.Service] // Presence, for the Hub's games, once started
}

// New builds a server on opts.Store. If a part cannot be built, New stops
// what it had built, closes the store and returns the error.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Store == nil {
		return nil, errors.New("server: no store")
	}
	opts = withDefaults(opts)
	s := &Server{Store: opts.Store, opts: opts, log: opts.Logger}
	if err := s.build(ctx); err != nil {
		s.stop()
		if cerr := s.Store.Close(); cerr != nil {
			s.log.Warn("closing the database", "err", cerr)
		}
		return nil, err
	}
	return s, nil
}

func withDefaults(opts Options) Options {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.PurgeEvery <= 0 {
		opts.PurgeEvery = time.Hour
	}
	if opts.DrainTimeout <= 0 {
		opts.DrainTimeout = 10 * time.Second
	}
	if opts.ResultFailed == nil {
		log := opts.Logger
		opts.ResultFailed = func(f table.Finished, err error) {
			log.Error("recording a game's result failed", "game", f.Game, "err", err)
		}
	}
	opts.Accounts.Logger, opts.Hub.Logger = opts.Logger, opts.Logger
	return opts
}

// build makes the parts in order, each from those before it.
func (s *Server) build(ctx context.Context) error {
	o := &s.opts
	s.Accounts = account.New(s.Store, o.Accounts)
	s.every(o.PurgeEvery, s.purge)
	s.Social = social.New(s.Store, social.Options{Logger: s.log})
	if err := s.Social.Start(ctx); err != nil {
		return err
	}
	s.stops = append(s.stops, s.Social.Close)
	if o.Push != nil {
		po := *o.Push
		po.Log = s.log
		var err error
		if s.Push, err = notify.New(ctx, s.Store, po); err != nil {
			return err
		}
		s.stops = append(s.stops, s.Push.Start())
	}
	s.Hub = table.New(s.Store, s.hubOptions())
	s.stops = append(s.stops, func() { s.Hub.Close() })
	s.log = s.log.With("node", s.Hub.Node()) // the Hub adds it to its own lines
	var err error
	if s.Resumed, err = s.Hub.Resume(ctx); err != nil {
		return fmt.Errorf("resuming the games: %w", err)
	}
	if err := s.startPresence(ctx); err != nil {
		return err
	}
	if err := s.startTournaments(ctx); err != nil {
		return fmt.Errorf("starting the tournaments: %w", err)
	}
	wake := func() {}
	if o.Puzzler != nil {
		wake = s.startPuzzler(*o.Puzzler)
	}
	if o.Analyst != nil {
		s.startAnalyst(*o.Analyst, wake)
	}
	if err := s.startMeet(ctx); err != nil {
		return fmt.Errorf("starting Play now: %w", err)
	}
	api := o.API
	api.Logger = s.log
	if api.Accounts == nil {
		api.Accounts = s.Accounts
	}
	if api.Push == nil {
		api.Push = s.Push
	}
	if api.Metrics == nil {
		api.Metrics = o.Metrics
	}
	if api.Tournaments == nil {
		api.Tournaments = s.Tournaments
	}
	if api.Meet == nil {
		api.Meet = s.Meet
	}
	if api.Presence == nil {
		api.Presence = s.Presence
	}
	if api.Social == nil {
		api.Social = s.Social
	}
	if api.Puzzles == nil {
		api.Puzzles = puzzler.NewService(s.Store, nil, s.log)
	}
	s.API = httpapi.New(s.Hub, o.Page, api)
	s.HTTP = s.API.HTTPServer()
	return nil
}

// hubOptions are the Hub's options joined to the parts built before it.
func (s *Server) hubOptions() table.Options {
	h := s.opts.Hub
	if h.OnFinish == nil {
		h.OnFinish = func(ctx context.Context, f table.Finished) {
			if err := s.Accounts.Finished(ctx, account.GameEnd(f)); err != nil {
				s.opts.ResultFailed(f, err)
			}
			if err := s.Social.Finished(ctx, f.Game, f.At, finishSeats(f)); err != nil {
				s.opts.ResultFailed(f, err)
			}
			if s.Tournaments != nil {
				s.Tournaments.GameOver(ctx, f)
			}
		}
	}
	if h.SeatToken == nil {
		h.SeatToken = s.Accounts.SeatTokenOf
	}
	if h.OnAlert == nil && s.Push != nil {
		h.OnAlert = s.Push.Alert
	}
	if h.Registerer == nil && s.opts.Metrics != nil {
		h.Registerer = s.opts.Metrics
	}
	if h.Present == nil {
		// Presence starts after the Hub (it takes the Hub's node name).
		h.Present = func(game string) []int {
			p := s.present.Load()
			if p == nil {
				return nil
			}
			return slices.Sorted(maps.Keys(p.Seats(game)))
		}
	}
	return h
}

// startTournaments runs the directors of the tournaments until the
// server stops; it closes before the Hub, handing its tournaments over.
func (s *Server) startTournaments(ctx context.Context) error {
	o := s.opts.Tournaments
	o.Node, o.Logger = s.Hub.Node(), s.log
	if o.LeaseTTL == 0 {
		o.LeaseTTL = s.opts.Hub.LeaseTTL
	}
	s.Tournaments = director.New(s.Store, s.Hub, o)
	if err := s.Tournaments.Start(ctx); err != nil {
		return err
	}
	s.stops = append(s.stops, s.Tournaments.Close)
	return nil
}

// startPresence starts the node's presence, with the Hub's node name and
// clock, until the server stops.
func (s *Server) startPresence(ctx context.Context) error {
	o := s.opts.Presence
	o.Node, o.Logger = s.Hub.Node(), s.log
	if o.OnSeats == nil {
		o.OnSeats = s.Hub.SeatsChanged
	}
	if o.Now == nil {
		o.Now, o.AfterFunc = s.opts.Hub.Now, s.opts.Hub.AfterFunc
	}
	s.Presence = presence.New(s.Store, o)
	if err := s.Presence.Start(ctx); err != nil {
		return err
	}
	s.present.Store(s.Presence)
	s.stops = append(s.stops, s.Presence.Close)
	return nil
}

// finishSeats are the accounts at a finished game and whether each left
// or timed out: their finish marks.
func finishSeats(f table.Finished) []social.Seat {
	var seats []social.Seat
	for i, st := range f.Seats {
		if st.Account != "" {
			seats = append(seats, social.Seat{Account: st.Account, Left: i < len(f.Forfeited) && f.Forfeited[i]})
		}
	}
	return seats
}

// startAnalyst runs the analyst until the server stops. After each game
// it analysed, the seats' luck and skill are stored for the players'
// profiles, and wake tells the search for puzzles.
func (s *Server) startAnalyst(o analyst.Options, wake func()) {
	o.Spare, o.Logger = s.Hub.WaitSpare, s.log
	done := o.Done
	s.start(func(ctx context.Context) {
		o.Done = func(id string, err error) {
			if err == nil {
				if lerr := puzzler.RecordLuck(ctx, s.Store, id); lerr != nil && ctx.Err() == nil {
					s.log.Error("cannot store a game's luck", "game", id, "err", lerr)
				}
			}
			if done != nil {
				done(id, err)
			}
			wake()
		}
		analyst.Run(ctx, s.Store, o)
	})
}

// startPuzzler runs the search for puzzles until the server stops, and
// returns the function that wakes it.
func (s *Server) startPuzzler(o puzzler.Options) func() {
	o.Puzzle.Spare, o.Logger = s.Hub.WaitSpare, s.log
	w := puzzler.NewWorker(s.Store, o)
	s.start(func(ctx context.Context) { w.Run(ctx) })
	return w.Wake
}

// every runs f every interval until the server stops.
func (s *Server) every(interval time.Duration, f func(context.Context)) {
	s.start(func(ctx context.Context) {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				f(ctx)
			}
		}
	})
}

// start runs f in a goroutine until the server stops, which cancels f's
// context and waits for f to return.
func (s *Server) start(f func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(ctx)
	}()
	s.stops = append(s.stops, func() { cancel(); <-done })
}

// purge removes the expired sessions and passkey challenges.
func (s *Server) purge(ctx context.Context) {
	if err := s.Accounts.Purge(ctx); err != nil {
		s.log.Warn("purging expired sessions failed", "err", err)
	}
}

// Serve serves the API on ln until Shutdown; it returns
// http.ErrServerClosed after Shutdown, or why it stopped.
func (s *Server) Serve(ln net.Listener) error { return s.HTTP.Serve(ln) }

// Shutdown stops the server. First the games: the other nodes take them
// at once, while this one still passes its clients' moves on. Then the
// WebSockets, told to reconnect (to another node), before the HTTP server,
// whose Shutdown does not wait for hijacked connections. Then the
// background work in the reverse order it started (the analyst, the Hub,
// Web Push, the purge), and the store last. ctx bounds the HTTP server's
// wait for its requests; the hand-over has its own bound (DrainTimeout).
// The error is the store's: what it had not written may be lost.
func (s *Server) Shutdown(ctx context.Context) error {
	dctx, cancel := context.WithTimeout(context.Background(), s.opts.DrainTimeout)
	if err := s.Hub.Drain(dctx); err != nil {
		s.log.Warn("hand-over", "err", err)
	}
	cancel()
	s.API.Close()
	if err := s.HTTP.Shutdown(ctx); err != nil {
		s.log.Warn("shutdown", "err", err) // requests cut short: nothing is lost
	}
	s.stop()
	if err := s.Store.Close(); err != nil {
		return fmt.Errorf("closing the database: %w", err)
	}
	return nil
}

// stop ends the background work, the last started first.
func (s *Server) stop() {
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
	s.stops = nil
}
