// Package analysis studies finished games and gives hints, with the tree
// search of package bot as its engine: for every decision of a record it
// estimates each seat's chance of winning before the move, the best move
// and its value, the value of the move played, the loss and a label; for a
// view it names the best moves with their chances.
//
// Win chances are shares of the win (a win shared by k players counts 1/k,
// R18), between 0 and 1. The engine reads what a player could see at the
// time of each decision, never a card drawn after it: a draw is judged as
// the decision to draw, and the card that came is reported as luck.
//
// Both analysis and hints refuse what must be refused: Analyze a game that
// is not finished (advice on a game still being played), Hints a view
// whose seat is not to move or whose game is over. Whether a table allows
// hints at all is the server's to decide.
package analysis

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/protocol"
)

// Sentinel errors.
var (
	ErrUnfinished = errors.New("the game is not finished")
	ErrGameOver   = errors.New("the game is over")
	ErrNotToMove  = errors.New("the seat is not to move")
	ErrOptions    = errors.New("invalid analysis options")
)

// DefaultIterations is the search's iterations per decision when Options
// does not say.
const DefaultIterations = 4000

// MaxIterations bounds the iterations per decision, so that one request
// cannot take a server's afternoon.
const MaxIterations = 1_000_000

// Options bound the work of an analysis or a hint.
type Options struct {
	// Iterations is the search's iterations per decision; 0 means
	// DefaultIterations.
	Iterations int
	// Workers is the number of decisions Analyze studies at once, or the
	// number of search workers of a hint; 0 means 1.
	Workers int
	// Seed makes the results reproducible: the same record or view, seed,
	// iterations and workers always give the same results.
	Seed uint64
	// Progress, when set, is called by Analyze after each decision with
	// the decisions done and the decisions in all; calls are never
	// concurrent.
	Progress func(done, total int)
}

func (o *Options) check() error {
	switch {
	case o.Iterations < 0 || o.Iterations > MaxIterations:
		return fmt.Errorf("%w: %d iterations; want 1 to %d", ErrOptions, o.Iterations, MaxIterations)
	case o.Workers < 0 || o.Workers > bot.MaxWorkers:
		return fmt.Errorf("%w: %d workers; want 1 to %d", ErrOptions, o.Workers, bot.MaxWorkers)
	}
	if o.Iterations == 0 {
		o.Iterations = DefaultIterations
	}
	if o.Workers == 0 {
		o.Workers = 1
	}
	return nil
}

// A Label judges a move by its loss, the win share it gives up against
// the best move found: under GoodLoss it is good, under InaccuracyLoss an
// inaccuracy, under MistakeLoss a mistake, else a blunder; the best move
// itself is best. The thresholds sit above the engine's noise, about 0.02
// at the default iterations. It is the protocol's type, since the server
// sends reports as they are.
type Label = protocol.AnalysisLabel

// The labels, from the best to the worst.
const (
	Best       = protocol.LabelBest
	Good       = protocol.LabelGood
	Inaccuracy = protocol.LabelInaccuracy
	Mistake    = protocol.LabelMistake
	Blunder    = protocol.LabelBlunder
)

// The losses, in win share, at which a move is no longer good, an
// inaccuracy or a mistake.
const (
	GoodLoss       = 0.04
	InaccuracyLoss = 0.08
	MistakeLoss    = 0.15
)

// label returns the label of a move that loses loss.
func label(best bool, loss float64) Label {
	switch {
	case best:
		return Best
	case loss < GoodLoss:
		return Good
	case loss < InaccuracyLoss:
		return Inaccuracy
	case loss < MistakeLoss:
		return Mistake
	}
	return Blunder
}

// The parts of a report, which the server sends as they are: the
// protocol holds them, so that its clients need not link the engine's
// search.
type (
	// A Share is a win share, 0 to 1.
	Share = protocol.WinShare
	// A Decision is the analysis of one move of a record.
	Decision = protocol.AnalysisDecision
	// A Report is the analysis of a finished game.
	Report = protocol.AnalysisReport
	// A Hint is one of the best moves for the seat to move, with its win
	// share after it.
	Hint = protocol.Hint
	// A Summary is one seat's account of a game: its luck, its skill and
	// its luck-adjusted result.
	Summary = protocol.AnalysisSummary
)

// Summarise returns each seat's account of the game of decisions, which
// winners won, among players seats: its luck, its skill and its
// luck-adjusted result.
func Summarise(decisions []Decision, winners []int, players int) []Summary {
	return protocol.Summarise(decisions, winners, players)
}

// Analyze analyses every decision of a finished game. It returns the
// record's *razzia.RecordError for a malformed record or an illegal move,
// ErrUnfinished for a game that is not over, an error wrapping ErrOptions
// for bad options, and ctx's error when ctx is done first.
func Analyze(ctx context.Context, rec *razzia.Record, o Options) (*Report, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	g, err := rec.Game()
	if err != nil {
		return nil, err
	}
	final := g.State()
	if !final.Over() {
		return nil, fmt.Errorf("%w: move %d of round %d is still to be played; a game is analysed once it is over",
			ErrUnfinished, len(rec.Moves)+1, final.Round())
	}
	moves := g.Moves()
	states, err := Positions(rec)
	if err != nil {
		return nil, err
	}
	n := final.Players()
	rep := &Report{Players: g.Players(), Winners: final.Winners(), Iterations: o.Iterations,
		Decisions: make([]Decision, len(moves))}

	// Every decision is searched on its own, with a seed of its own, so
	// that the results depend neither on the workers nor on the moves
	// after it.
	evals := make([][]bot.MoveValue, len(moves))
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range min(o.Workers, len(moves)) {
		wg.Go(func() {
			for i := range work {
				played := moves[i]
				if played.Action == razzia.ActionDraw {
					played = razzia.Draw(razzia.NoKind)
				}
				b := bot.NewMCTS(seedOf(o.Seed, i), o.Iterations, 0, 1)
				ev, err := b.Evaluate(ctx, &states[i], played)
				if err != nil {
					return
				}
				evals[i] = ev
				if o.Progress != nil {
					mu.Lock()
					done++
					o.Progress(done, len(moves))
					mu.Unlock()
				}
			}
		})
	}
feed:
	for i := range moves {
		select {
		case work <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	for i, m := range moves {
		d := &rep.Decisions[i]
		ev := evals[i]
		seat := states[i].ToMove()
		*d = Decision{Move: i + 1, Seat: seat, Played: m.String(), Best: ev[0].Move.String(),
			BestValue: Share(ev[0].Share[seat]), Before: shares(ev[0].Share[:n]),
			Forced: len(states[i].LegalMoves(nil)) == 1}
		decision := m
		if m.Action == razzia.ActionDraw {
			decision = razzia.Draw(razzia.NoKind)
		}
		var played bot.MoveValue
		for _, mv := range ev {
			if mv.Move == decision {
				played = mv
			}
		}
		d.PlayedValue = Share(played.Share[seat])
		d.Loss = Share(max(0, ev[0].Share[seat]-played.Share[seat]))
		d.Label = label(decision == ev[0].Move, float64(d.Loss))
		if m.Action == razzia.ActionDraw {
			d.Luck = luck(&states[i], played, m.Card, n)
		}
	}
	rep.Summary = Summarise(rep.Decisions, rep.Winners, n)
	return rep, nil
}

// luck returns what the card k that came at the draw of decision i, in
// state s, changed each seat's win share by, against the draw's expected
// value. Both come from the draw's own search, which went on after every
// kind of card: the expected value weighs what it found after each kind
// by the kind's chance to come, so that a draw's luck averages zero (the
// mean over the search's iterations would lean towards the kinds it
// happened to search deeper, where the seats play better), and the noise
// of two searches does not add up over a game. A kind the search never
// drew counts no luck: judging it by another search would lean the
// luck of every draw towards that search's errors. At the default
// iterations every kind still to come is searched many times over.
func luck(s *razzia.State, draw bot.MoveValue, k razzia.Kind, n int) []Share {
	out := make([]Share, n)
	if int(k) >= len(draw.Cards) || draw.Cards[k].Visits == 0 {
		return out
	}
	var expected [razzia.MaxPlayers]float64
	weight := 0.0
	for kind, c := range draw.Cards {
		if c.Visits == 0 {
			continue
		}
		pr := float64(s.Remaining(razzia.Kind(kind)))
		weight += pr
		for p := range n {
			expected[p] += pr * c.Share[p]
		}
	}
	for p := range n {
		out[p] = Share(draw.Cards[k].Share[p] - expected[p]/weight)
	}
	return out
}

// Positions returns the state before each of the moves of a record: the
// public position, never the order of the cards still to come. It returns
// the record's *razzia.RecordError for a malformed record or an illegal
// move.
func Positions(rec *razzia.Record) ([]razzia.State, error) {
	g, err := rec.Game()
	if err != nil {
		return nil, err
	}
	moves := g.Moves()
	s, err := razzia.NewState(len(rec.Players), rec.Cheques)
	if err != nil {
		return nil, err
	}
	out := make([]razzia.State, len(moves))
	for i, m := range moves {
		out[i] = s
		s.Apply(m)
	}
	return out, nil
}

// seedOf returns decision i's seed in an analysis seeded with seed.
func seedOf(seed uint64, i int) uint64 {
	z := seed + 0x9e3779b97f4a7c15*uint64(i+1)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func shares(v []float64) []Share {
	out := make([]Share, len(v))
	for i, x := range v {
		out[i] = Share(x)
	}
	return out
}

// MaxHints is the number of moves Hints names at most.
const MaxHints = 3

// Hints returns the best moves, at most MaxHints, for the seat of v, the
// best first, with the seat's win share after each. It reads the public
// state of v alone. It returns ErrGameOver for a finished game and
// ErrNotToMove when v's seat is not the one to move (a spectator's
// included), an error wrapping ErrOptions for bad options, and ctx's error
// when ctx is done first.
func Hints(ctx context.Context, v razzia.View, o Options) ([]Hint, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	s := &v.State
	switch {
	case s.Over():
		return nil, ErrGameOver
	case v.Seat != s.ToMove():
		return nil, fmt.Errorf("%w: seat %d asked, seat %d is to move", ErrNotToMove, v.Seat+1, s.ToMove()+1)
	}
	b := bot.NewMCTS(o.Seed, o.Iterations, 0, o.Workers)
	ev, err := b.Evaluate(ctx, s, razzia.Move{})
	if err != nil {
		return nil, err
	}
	hints := make([]Hint, 0, MaxHints)
	for _, mv := range ev[:min(MaxHints, len(ev))] {
		hints = append(hints, Hint{Move: mv.Move.String(), WinChance: Share(mv.Share[v.Seat])})
	}
	return hints, nil
}
