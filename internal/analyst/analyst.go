// Package analyst analyses a server's finished games in the background,
// with package analysis as its engine, and keeps the reports in the store,
// where the API finds them.
//
// A bounded pool of workers claims the games in the order they finished
// (store.Analyses): a game is claimed when its last move is announced, and
// again whenever a claim lapsed, so that a game a stopped server or a
// dead node left unanalysed is analysed after all. The analysis gives way
// to the live bots: before every decision it studies, a worker waits until
// the bots leave a worker of theirs free (Options.Spare).
package analyst

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/store"
)

// Options configure the analyst.
type Options struct {
	// Workers is the most games analysed at once; default 1.
	Workers int
	// Iterations is the search's iterations per decision; 0 means
	// analysis.DefaultIterations. A report's labels are as reliable as
	// the engine at these iterations.
	Iterations int
	// Node names the claimer in the store; default the host name and the
	// process id.
	Node string
	// ClaimTTL is how long a claim lasts: a game whose worker stopped is
	// claimed again after it. Default 30 minutes, longer than an analysis.
	ClaimTTL time.Duration
	// Rescan is how often idle workers look again for games whose claims
	// lapsed; default ClaimTTL.
	Rescan time.Duration
	// Spare, when set, returns once the live bots leave the CPU free
	// (table.Hub.WaitSpare), or with ctx's error.
	Spare func(ctx context.Context) error
	// Done, when set, is called after each game the analyst stored an
	// analysis of, with the error that made it a failure, if any.
	Done func(id string, err error)
	// Logger receives the analyst's log; default slog.Default().
	Logger *slog.Logger
}

// DefaultClaimTTL is the default of Options.ClaimTTL.
const DefaultClaimTTL = 30 * time.Minute

func (o Options) withDefaults() Options {
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.Node == "" {
		host, _ := os.Hostname()
		o.Node = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	if o.ClaimTTL <= 0 {
		o.ClaimTTL = DefaultClaimTTL
	}
	if o.Rescan <= 0 {
		o.Rescan = o.ClaimTTL
	}
	if o.Spare == nil {
		o.Spare = func(ctx context.Context) error { return ctx.Err() }
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Check reports what makes o unusable: iterations out of the engine's
// range.
func (o Options) Check() error {
	if o.Iterations < 0 || o.Iterations > analysis.MaxIterations {
		return fmt.Errorf("analyst: %d iterations per decision; want 1 to %d (0 for %d)",
			o.Iterations, analysis.MaxIterations, analysis.DefaultIterations)
	}
	return nil
}

// Store is what the analyst asks of the store: the announcements of
// finished games, the games themselves, and the queue of analyses.
// store.Store has it.
type Store interface {
	Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error)
	Game(ctx context.Context, id string) (*store.Game, error)
	ClaimAnalysis(ctx context.Context, node string, ttl time.Duration) (string, error)
	PutAnalysis(ctx context.Context, id string, a store.Analysis) error
}

// Run analyses the finished games of st until ctx is done, and then
// returns ctx's error; an analysis cut short is left to the next run.
func Run(ctx context.Context, st Store, o Options) error {
	if err := o.Check(); err != nil {
		return err
	}
	o = o.withDefaults()
	a := &analyst{st: st, o: o, wake: make(chan struct{}, o.Workers)}
	notices, ended, err := a.listen(ctx)
	if err != nil {
		return fmt.Errorf("analyst: %w", err)
	}
	done := make(chan struct{})
	for range o.Workers {
		go func() {
			defer func() { done <- struct{}{} }()
			a.work(ctx)
		}()
	}
	a.watch(ctx, notices, ended)
	for range o.Workers {
		<-done
	}
	return ctx.Err()
}

type analyst struct {
	st   Store
	o    Options
	wake chan struct{} // a game may be waiting: one token per worker
}

// listen has heard hear the changes of the games: on the store's own
// goroutine where it can (store.Hearer), as a node hears every move of
// the cluster and a goroutine reading them would wake at each; else
// through notices. ended closes as the subscription ends.
func (a *analyst) listen(ctx context.Context) (notices <-chan store.Notice, ended <-chan struct{}, err error) {
	if h, ok := a.st.(store.Hearer); ok {
		ended, err = h.Hear(ctx, a.heard, store.ChangesChannel)
		return nil, ended, err
	}
	notices, err = a.st.Subscribe(ctx, store.ChangesChannel)
	return notices, nil, err
}

// heard wakes the workers when a notice may announce a finished game, or
// says that notices were lost. It never waits.
func (a *analyst) heard(n store.Notice) {
	if n.Missed || store.MayFinish(n.Payload) && finished(n.Payload) {
		a.wakeAll()
	}
}

// watch wakes the workers when a game finishes, when notices were lost
// and every Rescan, until ctx is done.
func (a *analyst) watch(ctx context.Context, notices <-chan store.Notice, ended <-chan struct{}) {
	tick := time.NewTicker(a.o.Rescan)
	defer tick.Stop()
	for {
		select {
		case n, ok := <-notices:
			if !ok {
				<-ctx.Done() // the store closed: nothing more to do
				return
			}
			a.heard(n)
		case <-ended:
			<-ctx.Done()
			return
		case <-tick.C:
			a.wakeAll()
		case <-ctx.Done():
			return
		}
	}
}

// finished reports whether a change's payload announces the move that
// finished its game. The others, every move of every game, are passed
// over undecoded (store.MayFinish).
func finished(payload string) bool {
	c, err := store.ParseChange(payload)
	return err == nil && c.Status == store.StatusFinished && c.Kind == store.ChangeMove
}

func (a *analyst) wakeAll() {
	for range a.o.Workers {
		select {
		case a.wake <- struct{}{}:
		default:
		}
	}
}

// work claims and analyses games until there is none, then waits to be
// woken, until ctx is done.
func (a *analyst) work(ctx context.Context) {
	for {
		if err := a.o.Spare(ctx); err != nil {
			return
		}
		id, err := a.st.ClaimAnalysis(ctx, a.o.Node, a.o.ClaimTTL)
		if err != nil && ctx.Err() == nil {
			a.o.Logger.Error("cannot claim a game to analyse", "err", err)
		}
		if err != nil || id == "" {
			select {
			case <-a.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		a.analyse(ctx, id)
	}
}

// analyse analyses game id and stores the result: its report, or why the
// engine refused its record. An analysis cut short by ctx stores nothing.
func (a *analyst) analyse(ctx context.Context, id string) {
	log := a.o.Logger.With("game", id)
	g, err := a.st.Game(ctx, id)
	if err != nil {
		if ctx.Err() == nil {
			log.Error("cannot read a game to analyse", "err", err)
		}
		return
	}
	start := time.Now()
	rep, err := analysis.Analyze(ctx, Record(g), analysis.Options{
		Iterations: a.o.Iterations,
		Seed:       Seed(id),
		Progress:   func(int, int) { a.o.Spare(ctx) },
	})
	if ctx.Err() != nil {
		return
	}
	var stored store.Analysis
	switch {
	case err != nil:
		// A record the engine refuses is refused again tomorrow.
		stored.Failed = err.Error()
		log.Error("cannot analyse a finished game", "err", err)
	default:
		if stored.Report, err = json.Marshal(rep); err != nil {
			panic(err) // numbers and strings always encode
		}
	}
	if perr := a.st.PutAnalysis(ctx, id, stored); perr != nil {
		if ctx.Err() == nil {
			log.Error("cannot store an analysis", "err", perr)
		}
		return
	}
	log.Info("game analysed", "moves", len(g.Moves), "took", time.Since(start).Round(time.Millisecond))
	if a.o.Done != nil {
		a.o.Done(id, err)
	}
}

// Record returns the record of stored game g, as the engine reads it.
func Record(g *store.Game) *razzia.Record {
	players := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		players[i] = s.Name
	}
	rec := &razzia.Record{Format: razzia.RecordFormat, Players: players, Cheques: g.Cheques, Moves: g.Moves}
	if len(rec.Cheques) == 0 {
		rec.Cheques = nil // the rulebook sets, as a store may keep them
	}
	return rec
}

// Seed returns the seed of game id's analysis, so that a game's analysis
// is the same whichever node makes it, and again.
func Seed(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// Decode returns the report stored in a, or the reason the game could
// not be analysed as an error wrapping ErrFailed.
func Decode(a store.Analysis) (*analysis.Report, error) {
	if a.Failed != "" {
		return nil, fmt.Errorf("%w: %s", ErrFailed, a.Failed)
	}
	var rep analysis.Report
	if err := json.Unmarshal(a.Report, &rep); err != nil {
		return nil, fmt.Errorf("analyst: stored report: %w", err)
	}
	return &rep, nil
}

// ErrFailed is a game the engine could not analyse.
var ErrFailed = errors.New("the game could not be analysed")
