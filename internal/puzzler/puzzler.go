// Package puzzler finds puzzles in a server's finished games, in the
// background, and serves them: a puzzle to solve, the next one at the
// solver's level, the day's, the answers with the ratings of solvers and
// puzzles, the puzzles of one game ("learn from your mistakes"), and each
// player's luck and skill over their games.
//
// Its background work is the lowest of the server: it takes only games
// the analyst has analysed (the analysis says where the players went
// wrong, which is where puzzles are looked for), before every search it
// waits, as the analyst does, until the live bots leave the CPU free
// (Options.Spare), and its searches run on a thread of the lowest CPU
// priority (nice 19, on Linux). A claim on a game lapses after ClaimTTL, so a game a
// stopped node left is scanned by another.
package puzzler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/analyst"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/puzzle"
	"github.com/razziagame/razzia/internal/store"
)

// Store is what the puzzler asks of the store. store.Store has it.
type Store interface {
	Game(ctx context.Context, id string) (*store.Game, error)
	Analysis(ctx context.Context, id string) (store.Analysis, error)
	AccountByKey(ctx context.Context, key string) (*store.Account, error)
	store.Puzzles
}

// Options configure the background search.
type Options struct {
	// Puzzle are the rule's options; the zero value is the rule as
	// documented (expert's search, three seeds).
	Puzzle puzzle.Options
	// Workers is the most games searched at once; default 1.
	Workers int
	// Node names the claimer in the store; default the host name and the
	// process id.
	Node string
	// ClaimTTL is how long a claim lasts; default 2 hours, longer than a
	// game's search at expert's budget on a busy machine.
	ClaimTTL time.Duration
	// Rescan is how often an idle worker looks for games again; default
	// a minute.
	Rescan time.Duration
	// Done, when set, is called after each game scanned, with the
	// puzzles found or the error.
	Done func(id string, found int, err error)
	// Logger receives the log; default slog.Default().
	Logger *slog.Logger
}

// The defaults of Options.
const (
	DefaultClaimTTL = 2 * time.Hour
	DefaultRescan   = time.Minute
)

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
		o.Rescan = DefaultRescan
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Check reports what makes o unusable: the rule's options.
func (o Options) Check() error {
	if err := o.Puzzle.Check(); err != nil {
		return fmt.Errorf("puzzler: %w", err)
	}
	return nil
}

// A Worker is the background search: Run it, and Wake it when a game may
// be waiting (the analyst stored an analysis).
type Worker struct {
	st   Store
	o    Options
	wake chan struct{} // a game may be waiting: a token per worker
}

// NewWorker returns the background search of st.
func NewWorker(st Store, o Options) *Worker {
	o = o.withDefaults()
	return &Worker{st: st, o: o, wake: make(chan struct{}, o.Workers)}
}

// Wake tells the workers a game may be waiting; it never blocks.
func (w *Worker) Wake() {
	for range w.o.Workers {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

// Run scans the finished, analysed games of the store, Options.Workers
// at a time, until ctx is done, and then returns ctx's error; a scan cut
// short is left to the claim's lapse.
func (w *Worker) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for range w.o.Workers {
		wg.Go(func() { w.work(ctx) })
	}
	wg.Wait()
	return ctx.Err()
}

// work claims and scans games until there is none, then waits to be
// woken or for the next rescan, until ctx is done.
func (w *Worker) work(ctx context.Context) error {
	tick := time.NewTicker(w.o.Rescan)
	defer tick.Stop()
	for {
		id, err := w.st.ClaimPuzzleScan(ctx, w.o.Node, w.o.ClaimTTL)
		if err != nil && ctx.Err() == nil {
			w.o.Logger.Error("cannot claim a game to search for puzzles", "err", err)
		}
		if err == nil && id != "" {
			start := time.Now()
			var found int
			lowest(func() { found, err = Scan(ctx, w.st, id, w.o.Puzzle, nil) })
			if ctx.Err() != nil {
				return ctx.Err()
			}
			log := w.o.Logger.With("game", id)
			if err != nil {
				log.Error("cannot search a game for puzzles", "err", err)
			} else {
				log.Info("game searched for puzzles", "found", found, "took", time.Since(start).Round(time.Millisecond))
			}
			if w.o.Done != nil {
				w.o.Done(id, found, err)
			}
			continue
		}
		select {
		case <-w.wake:
		case <-tick.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// lowest runs f on an OS thread of its own at the lowest CPU priority
// (nice 19, on Linux): the search of a position runs in the goroutine
// that asks (one worker, puzzle.DefaultSpec), so the live bots, the
// analyst and the requests all come before it. The thread is never given
// back: it ends with f, and its priority with it.
func lowest(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		lowerThread() // at worst the search runs at the server's priority, after Spare
		f()
	}()
	<-done
}

// Scan searches finished game id of st for puzzles and stores them with
// its seats' luck and skill, from its stored analysis; it returns the
// puzzles found. A game whose analysis failed is stored as scanned, with
// nothing found. progress, when set, is called after each decision
// searched. It refuses a game that is not finished.
func Scan(ctx context.Context, st Store, id string, o puzzle.Options, progress func(done, total int)) (int, error) {
	g, err := st.Game(ctx, id)
	if err != nil {
		return 0, err
	}
	if g.Status != store.StatusFinished {
		return 0, fmt.Errorf("game %s is %s: %w", id, g.Status, puzzle.ErrUnfinished)
	}
	a, err := st.Analysis(ctx, id)
	if err != nil {
		return 0, err
	}
	var scan store.PuzzleScan
	rep, err := analyst.Decode(a)
	switch {
	case errors.Is(err, analyst.ErrFailed):
		// Nothing to learn from a record the engine refuses.
	case err != nil:
		return 0, err
	default:
		found, err := puzzle.Find(ctx, id, analyst.Record(g), rep, o, progress)
		if err != nil {
			return 0, err
		}
		for i := range found {
			p, err := stored(&found[i])
			if err != nil {
				return 0, err
			}
			scan.Puzzles = append(scan.Puzzles, p)
		}
		scan.Luck = luckOf(id, rep)
	}
	if err := st.PutPuzzleScan(ctx, id, scan); err != nil {
		return 0, err
	}
	return len(scan.Puzzles), nil
}

// RecordLuck stores the luck and skill of the seats of finished game id
// from its stored analysis, at once: a player's profile counts the game
// without waiting for its search for puzzles. A game whose analysis
// failed has none.
func RecordLuck(ctx context.Context, st Store, id string) error {
	a, err := st.Analysis(ctx, id)
	if err != nil {
		return err
	}
	rep, err := analyst.Decode(a)
	if errors.Is(err, analyst.ErrFailed) {
		return nil
	}
	if err != nil {
		return err
	}
	return st.PutSeatLuck(ctx, id, luckOf(id, rep))
}

// stored returns the store's row of a puzzle found: new, rated as a new
// solver is.
func stored(p *puzzle.Puzzle) (*store.Puzzle, error) {
	eval, err := json.Marshal(storedEval{Evaluation: p.Eval, Played: p.Played})
	if err != nil {
		return nil, err
	}
	themes := make([]string, len(p.Themes))
	for i, t := range p.Themes {
		themes[i] = string(t)
	}
	r := puzzle.Model().New()
	return &store.Puzzle{ID: p.ID(), Game: p.Game, Move: p.Move, Seat: p.Seat, Themes: themes, Best: p.Eval.Best,
		Margin: p.Eval.Margin, Eval: eval, Rating: store.Rating{Mu: r.Mu, Sigma: r.Sigma}}, nil
}

// storedEval is a puzzle's stored evaluation, with what was played.
type storedEval struct {
	puzzle.Evaluation
	Played string `json:"played"`
}

// luckOf returns the seats' luck and skill of game id from its report.
func luckOf(id string, rep *protocol.AnalysisReport) []store.SeatLuck {
	out := make([]store.SeatLuck, len(rep.Summary))
	for i, s := range rep.Summary {
		out[i] = store.SeatLuck{Game: id, Seat: s.Seat, Start: float64(s.Start), Result: float64(s.Result),
			Luck: float64(s.Luck), Skill: float64(s.Skill), Adjusted: float64(s.Adjusted)}
	}
	return out
}
