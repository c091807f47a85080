// Package director runs a server's tournaments: it keeps them in the
// store, seats their rounds at tables the table Hub plays, follows the
// tables' results and ends them; and it answers the requests of their
// organisers and players, and of their pages.
//
// # One director per tournament, any node
//
// Each node of a cluster runs a Service. A tournament that is waiting or
// running is directed by one node at a time, the holder of its lease in
// the store (store.Tournaments.AcquireTournamentLease), as a game is run by
// the holder of its lease: every node scans for tournaments nobody holds
// and takes them, so that the tournaments of a node that died are taken
// over within about LeaseTTL.
//
// Nothing the director decides lives only in its memory. Every change (a
// round seated, a result, the end) is one compare-and-swap of the
// tournament's stored version, and the tables of a round are stored before
// their games are created, with game ids derived from the tournament, the
// round and the table: a director that takes over creates a missing game
// again, the same game, and never seats a round twice. Results are read
// from the finished games themselves, so a result the director did not
// hear of (its node died, a notice was lost) is found when it looks again.
//
// Joins and the organiser's actions are made by whichever node the request
// reaches, as compare-and-swaps too; every change is announced on the
// store's channel Channel, which wakes the director and refreshes the
// pages that watch the tournament on every node.
package director

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
)

// Channel is the store channel on which every change of a tournament is
// announced, its id the payload.
const Channel = "razzia_tournaments"

// Store is what the director asks of the store.
type Store interface {
	store.Tournaments
	Account(ctx context.Context, id string) (*store.Account, error)
	AccountByKey(ctx context.Context, key string) (*store.Account, error)
	Game(ctx context.Context, id string) (*store.Game, error)
	Publish(ctx context.Context, channel, payload string) error
	Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error)
}

// Hub is what the director asks of the table Hub: a table whose seats it
// gives, and the record of a finished one.
type Hub interface {
	CreateSeated(ctx context.Context, t table.SeatedTable) (bool, error)
	Record(ctx context.Context, id string) (*razzia.Record, error)
	RecordMeta(ctx context.Context, id string) (protocol.RecordMeta, error)
}

// FinishRates tells what share of their games a person finished (did
// not leave or time out of), in percent; known is false for someone
// with too few games to tell.
type FinishRates interface {
	FinishRate(ctx context.Context, account string) (percent int, known bool, err error)
}

// Options configure a Service.
type Options struct {
	// Node names this node, as the Hub's Node does.
	Node string
	// LeaseTTL is how long a director's lease lasts unrenewed; default
	// table.DefaultLeaseTTL.
	LeaseTTL time.Duration
	// Tick is how often a director looks at its tournament when nothing
	// wakes it, for results it was not told of; default 30 seconds.
	Tick time.Duration
	// Now and AfterFunc are the clock and its timers, as the Hub's.
	Now       func() time.Time
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Rand is the source of tournament ids and seeds; default
	// crypto/rand.Reader.
	Rand   io.Reader
	Logger *slog.Logger
	// FinishRates, when set, lets organisers bound who joins by finish
	// rate.
	FinishRates FinishRates
}

// A Service runs the tournaments of one node and serves their requests.
type Service struct {
	st   Store
	hub  Hub
	opts Options
	log  *slog.Logger

	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	handOver atomic.Bool // Close gives the leases up; a crash does not

	mu       sync.Mutex
	runs     map[string]*run                       // the tournaments this node directs
	watchers map[string]map[chan struct{}]struct{} // by tournament
	games    gameCache
	deals    map[dealKey]protocol.TournamentDeal // revealed deals
	descs    map[string]*description             // tournaments described, by id
	gens     map[string]uint64                   // changes announced, by tournament
}

// New returns a Service; Start runs it.
func New(st Store, hub Hub, opts Options) *Service {
	if opts.LeaseTTL <= 0 {
		opts.LeaseTTL = table.DefaultLeaseTTL
	}
	if opts.Tick <= 0 {
		opts.Tick = 30 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.AfterFunc == nil {
		opts.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	if opts.Rand == nil {
		opts.Rand = rand.Reader
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	s := &Service{st: st, hub: hub, opts: opts, log: opts.Logger.With("part", "director"),
		runs: map[string]*run{}, watchers: map[string]map[chan struct{}]struct{}{}, deals: map[dealKey]protocol.TournamentDeal{},
		descs: map[string]*description{}, gens: map[string]uint64{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

// Start subscribes to the announcements of changes and starts scanning
// for tournaments to direct.
func (s *Service) Start(ctx context.Context) error {
	notices, err := s.st.Subscribe(s.ctx, Channel)
	if err != nil {
		return err
	}
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.listen(notices) }()
	go func() { defer s.wg.Done(); s.scanLoop() }()
	return nil
}

// Close stops the directors of this node, releasing their leases so that
// another node takes them at once, and waits for them.
func (s *Service) Close() {
	s.handOver.Store(true)
	s.cancel()
	s.wg.Wait()
}

// listen wakes the director and the watchers of each tournament
// announced.
func (s *Service) listen(notices <-chan store.Notice) {
	for n := range notices {
		if n.Missed {
			s.mu.Lock()
			clear(s.descs) // any of them may have changed meanwhile
			ids := make([]string, 0, len(s.runs)+len(s.watchers))
			for id := range s.runs {
				ids = append(ids, id)
			}
			for id := range s.watchers {
				ids = append(ids, id)
			}
			s.mu.Unlock()
			for _, id := range ids {
				s.changed(id)
			}
			continue
		}
		s.changed(n.Payload)
	}
}

// changed wakes what this node runs and shows of tournament id.
func (s *Service) changed(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forgetLocked(id)
	if r := s.runs[id]; r != nil {
		r.kick()
	}
	for ch := range s.watchers[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// announce tells every node that tournament id changed; this one at
// once, so that what it answers next is the change's.
func (s *Service) announce(ctx context.Context, id string) {
	s.forget(id)
	if err := s.st.Publish(ctx, Channel, id); err != nil {
		s.log.Warn("announcing a tournament's change failed", "tournament", id, "err", err)
		s.changed(id) // this node at least
	}
}

// Watch returns a channel that receives a value whenever tournament id
// changes, until ctx is done.
func (s *Service) Watch(ctx context.Context, id string) <-chan struct{} {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	if s.watchers[id] == nil {
		s.watchers[id] = map[chan struct{}]struct{}{}
	}
	s.watchers[id][ch] = struct{}{}
	s.mu.Unlock()
	go func() {
		<-ctx.Done()
		s.mu.Lock()
		delete(s.watchers[id], ch)
		if len(s.watchers[id]) == 0 {
			delete(s.watchers, id)
		}
		s.mu.Unlock()
	}()
	return ch
}

// scanLoop takes the tournaments nobody directs, every LeaseTTL/4.
func (s *Service) scanLoop() {
	t := time.NewTicker(s.opts.LeaseTTL / 4)
	defer t.Stop()
	for {
		s.scan()
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// scan takes the tournaments nobody directs now.
func (s *Service) scan() {
	ctx, cancel := context.WithTimeout(s.ctx, s.opts.LeaseTTL)
	defer cancel()
	ids, err := s.st.UnownedTournaments(ctx, 100)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Warn("listing the tournaments to direct failed", "err", err)
		}
		return
	}
	for _, id := range ids {
		s.take(ctx, id)
	}
}

// take directs tournament id from this node if it can lease it.
func (s *Service) take(ctx context.Context, id string) {
	s.mu.Lock()
	_, running := s.runs[id]
	s.mu.Unlock()
	if running {
		return
	}
	l, err := s.st.AcquireTournamentLease(ctx, id, s.opts.Node, s.opts.LeaseTTL)
	if err != nil {
		if !errors.Is(err, store.ErrLeaseHeld) && !errors.Is(err, store.ErrConflict) && s.ctx.Err() == nil {
			s.log.Warn("leasing a tournament failed", "tournament", id, "err", err)
		}
		return
	}
	r := &run{s: s, id: id, lease: l, wake: make(chan struct{}, 1)}
	s.mu.Lock()
	if s.ctx.Err() != nil {
		s.mu.Unlock()
		s.handOverLease(id, l) // closed meanwhile: not left to lapse
		return
	}
	s.runs[id] = r
	s.mu.Unlock()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		r.loop()
		s.mu.Lock()
		delete(s.runs, id)
		s.mu.Unlock()
	}()
}
