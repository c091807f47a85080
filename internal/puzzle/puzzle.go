// Package puzzle turns positions of finished games into puzzles: a
// decision where one move is clearly best, judged by the engine's search
// at the strongest level's budget, becomes a question with one right
// answer, a theme and the game it came from.
//
// # The rule
//
// A position is a puzzle when, in each of Options.Seeds searches of it
// (the search of the level expert, bounded by iterations so that the
// result depends on the seed alone, each search with a seed of its own):
//
//   - the seat to move has two moves or more worth making (the legal
//     moves less the bids that pay more than needed: a lower cheque wins
//     the same lot);
//   - the same move is the search's choice (its most visited);
//   - that move's win share for the seat to move is ahead of every other
//     move's by at least Options.Margin (0.10: ten points of the chance
//     to win).
//
// The stored evaluation is each move's win share averaged over the
// searches, and the margin the smallest lead any search found. An answer
// is right when it is the best move; any other legal move is wrong, and
// what it gives up is told from the evaluation.
//
// Not every decision is searched: Find looks only where the game's
// analysis saw the move played give up at least Options.Screen (a real
// player went wrong there, so the position is neither trivial nor
// forced), and stops at the first search that breaks the rule.
//
// The judge reads the position (a razzia.State: the public state, never
// the order of the undrawn cards), so a puzzle cannot leak what a player
// could not know, and is the same for two games that differ only in the
// order of their decks.
package puzzle

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/protocol"
)

// Sentinel errors.
var (
	ErrOptions    = errors.New("invalid puzzle options")
	ErrUnfinished = errors.New("the game is not finished")
)

// The defaults of Options.
const (
	DefaultSeeds  = 3
	DefaultMargin = 0.10
	DefaultScreen = 0.05
	// Level is the level whose search judges puzzles: its Fixed spec,
	// bounded by iterations, is the default Options.Spec.
	Level = "expert"
)

// Options bound the search that judges positions.
type Options struct {
	// Spec is the bot spec of the search, which must be a tree search
	// bounded by iterations (bot.New builds it); "" is the Fixed spec of
	// Level.
	Spec string
	// Seeds is how many searches, each with its own seed, must agree;
	// 0 means DefaultSeeds.
	Seeds int
	// Margin is the least lead of the best move over every other, in win
	// share; 0 means DefaultMargin.
	Margin float64
	// Screen is the least loss of the move played, in the game's
	// analysis, for Find to search a decision; 0 means DefaultScreen.
	Screen float64
	// Spare, when set, is called before each search and returns once the
	// search may use the CPU (the live bots leave it free), or with
	// ctx's error.
	Spare func(ctx context.Context) error
}

// Check reports what makes o unusable: a spec that is not a tree search
// bounded by iterations, seeds, a margin or a screen out of range.
func (o Options) Check() error { return o.check() }

func (o *Options) check() error {
	if o.Spec == "" {
		spec, err := DefaultSpec()
		if err != nil {
			return err
		}
		o.Spec = spec
	}
	switch {
	case o.Seeds < 0 || o.Seeds > 16:
		return fmt.Errorf("%w: %d seeds; want 1 to 16", ErrOptions, o.Seeds)
	case o.Margin < 0 || o.Margin >= 1 || math.IsNaN(o.Margin):
		return fmt.Errorf("%w: margin %v; want a win share above 0 and below 1", ErrOptions, o.Margin)
	case o.Screen < 0 || o.Screen >= 1 || math.IsNaN(o.Screen):
		return fmt.Errorf("%w: screen %v; want a win share above 0 and below 1", ErrOptions, o.Screen)
	}
	if o.Seeds == 0 {
		o.Seeds = DefaultSeeds
	}
	if o.Margin == 0 {
		o.Margin = DefaultMargin
	}
	if o.Screen == 0 {
		o.Screen = DefaultScreen
	}
	if _, err := o.evaluator(0); err != nil {
		return err
	}
	return nil
}

// DefaultSpec returns the search that judges puzzles unless Options say
// otherwise: Level's Fixed spec (its iterations, bounded), on one worker.
// One worker runs the search in the goroutine that asks, so that a
// background search can be given the lowest priority of the machine
// (package puzzler), and its result depends on the seed alone.
func DefaultSpec() (string, error) {
	l, ok := bot.LookupLevel(Level)
	if !ok {
		return "", fmt.Errorf("%w: no level %q", ErrOptions, Level)
	}
	name, opts, _ := strings.Cut(l.Fixed, ":")
	var kept []string
	for _, o := range strings.Split(opts, ",") {
		if o != "" && !strings.HasPrefix(o, "workers=") {
			kept = append(kept, o)
		}
	}
	return name + ":" + strings.Join(append(kept, "workers=1"), ","), nil
}

// An evaluator is a search that values every move of a position.
type evaluator interface {
	Evaluate(ctx context.Context, s *razzia.State, played razzia.Move) ([]bot.MoveValue, error)
}

// evaluator returns the search of the options' spec seeded with seed.
func (o *Options) evaluator(seed uint64) (evaluator, error) {
	b, err := bot.New(o.Spec, seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOptions, err)
	}
	ev, ok := b.(evaluator)
	if !ok || strings.Contains(o.Spec, "time=") {
		return nil, fmt.Errorf("%w: %q is not a tree search bounded by iterations", ErrOptions, o.Spec)
	}
	return ev, nil
}

// A Theme says what a puzzle is about. A puzzle has one or more.
type Theme = protocol.PuzzleTheme

// The themes.
const (
	BidOrPass      = protocol.ThemeBidOrPass      // an auction: bid or let the lot go
	WhichCheque    = protocol.ThemeWhichCheque    // an auction: which cheque to bid
	CallOrDraw     = protocol.ThemeCallOrDraw     // a turn: draw, or call an auction
	Thieves        = protocol.ThemeThieves        // a turn where using thieves is the question
	ForcedAuction  = protocol.ThemeForcedAuction  // a decision in an auction someone called
	ChequeMajority = protocol.ThemeChequeMajority // round 3: the moves differ in the final cheque bonus
)

// A Value is what the searches found about one move: the mover's win
// share after it, averaged over the searches.
type Value = protocol.PuzzleMoveValue

// An Evaluation is the judgement of a position that is a puzzle.
type Evaluation struct {
	Spec   string   `json:"spec"`   // the search's spec
	Seeds  []uint64 `json:"seeds"`  // the seed of each search
	Best   string   `json:"best"`   // the best move's record token (a draw without its card)
	Margin float64  `json:"margin"` // the smallest lead of the best move over the next in any search
	Moves  []Value  `json:"moves"`  // every move worth making, the best first, then by share
}

// Value returns the evaluation of move token, and whether it was
// evaluated.
func (e *Evaluation) Value(token string) (Value, bool) {
	for _, v := range e.Moves {
		if v.Move == token {
			return v, true
		}
	}
	return Value{}, false
}

// Judge applies the rule to position s: it returns the evaluation and
// true when s is a puzzle, false when it is not (the searches disagree,
// the lead is too small, or there is no choice). seed seeds the searches
// (each derives its own). It returns ctx's error when ctx is done first.
func Judge(ctx context.Context, s *razzia.State, seed uint64, o Options) (*Evaluation, bool, error) {
	if err := o.check(); err != nil {
		return nil, false, err
	}
	return judge(ctx, s, seed, &o)
}

func judge(ctx context.Context, s *razzia.State, seed uint64, o *Options) (*Evaluation, bool, error) {
	if s.Over() {
		return nil, false, nil
	}
	seat := s.ToMove()
	ev := &Evaluation{Spec: o.Spec, Margin: 1}
	sums := map[razzia.Move]float64{}
	var order []razzia.Move
	for k := range o.Seeds {
		if o.Spare != nil {
			if err := o.Spare(ctx); err != nil {
				return nil, false, err
			}
		}
		sd := mix(seed, uint64(k))
		b, err := o.evaluator(sd)
		if err != nil {
			return nil, false, err
		}
		vals, err := b.Evaluate(ctx, s, razzia.Move{})
		if err != nil {
			return nil, false, err
		}
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		if len(vals) < 2 {
			return nil, false, nil
		}
		best := vals[0] // the most visited: the search's choice
		lead := math.Inf(1)
		for _, v := range vals[1:] {
			lead = min(lead, best.Share[seat]-v.Share[seat])
		}
		if lead < o.Margin || k > 0 && best.Move != order[0] {
			return nil, false, nil
		}
		if k == 0 {
			for _, v := range vals {
				order = append(order, v.Move)
			}
		}
		for _, v := range vals {
			sums[v.Move] += v.Share[seat]
		}
		ev.Seeds = append(ev.Seeds, sd)
		ev.Margin = min(ev.Margin, lead)
	}
	for _, m := range order {
		ev.Moves = append(ev.Moves, Value{Move: m.String(), Share: protocol.WinShare(sums[m] / float64(o.Seeds))})
	}
	// The best first, then by share; ties keep the search's order.
	slices.SortStableFunc(ev.Moves[1:], func(a, b Value) int { return cmp.Compare(b.Share, a.Share) })
	ev.Best = ev.Moves[0].Move
	return ev, true, nil
}

// mix returns the k-th seed derived from seed (splitmix64).
func mix(seed, k uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15*(k+1)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// ThemesOf returns the themes of the decision at s whose best move is best
// and whose next best is next, in the order of protocol.PuzzleThemes.
func ThemesOf(s *razzia.State, best, next razzia.Move) []Theme {
	var out []Theme
	add := func(t Theme, ok bool) {
		if ok && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	either := func(a razzia.Action) bool { return best.Action == a || next.Action == a }
	switch s.Phase() {
	case razzia.PhaseAuction:
		add(BidOrPass, either(razzia.ActionPass))
		add(WhichCheque, best.Action == razzia.ActionBid && next.Action == razzia.ActionBid)
		add(ForcedAuction, s.Auction() == razzia.AuctionForced)
		add(ChequeMajority, s.Round() == 3 && chequeBonus(s, best) != chequeBonus(s, next))
	case razzia.PhaseTurn:
		add(CallOrDraw, either(razzia.ActionCall) || either(razzia.ActionDraw) && !either(razzia.ActionThieves))
		add(Thieves, either(razzia.ActionThieves))
	}
	slices.SortFunc(out, func(a, b Theme) int {
		return slices.Index(protocol.PuzzleThemes, a) - slices.Index(protocol.PuzzleThemes, b)
	})
	return out
}

// chequeBonus returns the final cheque bonus (R17) of the seat to move at
// s were the game to end with the cheques as m would leave them if its
// bid won: a bid gives the cheque for the centre's.
func chequeBonus(s *razzia.State, m razzia.Move) int {
	n := s.Players()
	sums := make([]int, n)
	for p := range n {
		sums[p] = s.FaceUp(p).Sum() + s.FaceDown(p).Sum()
	}
	me := s.ToMove()
	if m.Action == razzia.ActionBid {
		sums[me] += s.Centre() - int(m.Cheque)
	}
	hi, lo := slices.Max(sums), slices.Min(sums)
	switch {
	case hi == lo:
		return 0
	case sums[me] == hi:
		return 5
	case sums[me] == lo:
		return -5
	}
	return 0
}
