package puzzle

import (
	"context"
	"fmt"
	"hash/fnv"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/protocol"
)

// A Puzzle is a position of a finished game that the rule made a puzzle.
type Puzzle struct {
	Game   string // the game's id
	Move   int    // the moves played before the position
	Seat   int    // the seat to move
	Played string // what the seat played in the game
	Themes []Theme
	Eval   Evaluation
}

// ID returns the puzzle's id: its game's and the position's.
func (p *Puzzle) ID() string { return ID(p.Game, p.Move) }

// ID returns the id of the puzzle at the position after move moves of
// game.
func ID(game string, move int) string { return fmt.Sprintf("%s-%d", game, move) }

// Find returns the puzzles of the finished game id, whose record is rec
// and whose analysis is rep, in the order of the game. It searches the
// decisions whose move played gave up at least Options.Screen, and
// calls progress, when set, after each with the decisions searched and
// the decisions to search. It returns ErrUnfinished for a game that is
// not over, the record's error for a malformed one, an error wrapping
// ErrOptions for bad options and ctx's error when ctx is done first.
func Find(ctx context.Context, id string, rec *razzia.Record, rep *protocol.AnalysisReport, o Options, progress func(done, total int)) ([]Puzzle, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	g, err := rec.Game()
	if err != nil {
		return nil, err
	}
	if !g.Over() {
		return nil, fmt.Errorf("%w: game %s", ErrUnfinished, id)
	}
	moves := g.Moves()
	if len(rep.Decisions) != len(moves) {
		return nil, fmt.Errorf("game %s: an analysis of %d decisions for %d moves", id, len(rep.Decisions), len(moves))
	}
	var candidates []int
	for i, d := range rep.Decisions {
		if !d.Forced && float64(d.Loss) >= o.Screen {
			candidates = append(candidates, i)
		}
	}
	states, err := analysis.Positions(rec)
	if err != nil {
		return nil, err
	}
	var out []Puzzle
	for n, i := range candidates {
		s := &states[i]
		ev, ok, err := judge(ctx, s, seedOf(id, i), &o)
		if err != nil {
			return nil, err
		}
		if progress != nil {
			progress(n+1, len(candidates))
		}
		if !ok {
			continue
		}
		best, _ := razzia.ParseMove(ev.Best)
		next, _ := razzia.ParseMove(ev.Moves[1].Move)
		played := moves[i]
		if played.Action == razzia.ActionDraw {
			played = razzia.Draw(razzia.NoKind) // the decision, not the card
		}
		out = append(out, Puzzle{Game: id, Move: i, Seat: s.ToMove(), Played: played.String(),
			Themes: ThemesOf(s, best, next), Eval: *ev})
	}
	return out, nil
}

// seedOf returns the seed of the searches of the position after move
// moves of game id: the same on every node, and again.
func seedOf(id string, move int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return mix(h.Sum64(), uint64(move))
}
