package puzzle

import (
	"errors"
	"fmt"
	"slices"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// ErrIllegal is an answer that is not a legal move of the puzzle's
// position; the error wrapping it says why.
var ErrIllegal = errors.New("not a legal move of the puzzle")

// Verdict is the judgement of an answer.
type Verdict = protocol.PuzzleVerdict

// Answer judges answer, a record token, to the puzzle p at position s by
// its stored evaluation: right when it is the best move. A move that is
// not legal at s (a malformed token, a draw naming its card, a cheque not
// held) is an error wrapping ErrIllegal. The verdict's Rating and At are
// the caller's to set.
func Answer(s *razzia.State, p *Puzzle, answer string) (Verdict, error) {
	m, err := razzia.ParseMove(answer)
	if err != nil {
		return Verdict{}, fmt.Errorf("%w: %w", ErrIllegal, err)
	}
	if m.Action == razzia.ActionDraw && m.Card != razzia.NoKind {
		return Verdict{}, fmt.Errorf("%w: %q names the card to draw; answer \"draw\"", ErrIllegal, answer)
	}
	if !slices.Contains(s.LegalMoves(nil), m) {
		if err := s.Check(m); err != nil {
			return Verdict{}, fmt.Errorf("%w: %w", ErrIllegal, err)
		}
		return Verdict{}, fmt.Errorf("%w: %s", ErrIllegal, m)
	}
	ev := &p.Eval
	best, _ := ev.Value(ev.Best)
	v := Verdict{Answer: m.String(), Correct: m.String() == ev.Best, Best: ev.Best, Margin: protocol.WinShare(ev.Margin),
		BestShare: best.Share, Played: p.Played, Moves: slices.Clone(ev.Moves)}
	if mine, ok := ev.Value(m.String()); ok {
		loss := max(0, best.Share-mine.Share)
		v.Share, v.Loss = &mine.Share, &loss
	} else {
		// Only the bids that pay more than needed are not evaluated.
		v.Overpaid = true
	}
	return v, nil
}
