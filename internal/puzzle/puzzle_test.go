package puzzle

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/rating"
)

// small is a search far below expert's, for tests.
var small = Options{Spec: "mcts:iters=1200,rollout=auto", Seeds: 2}

// newGame returns a game of players seats whose deck comes from seed.
func newGame(t testing.TB, players int, seed string) *razzia.Game {
	t.Helper()
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Cy", "Di", "Ed"}[:players], Seed: []byte(seed)})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playBots plays g to its end between the bots of specs.
func playBots(t testing.TB, g *razzia.Game, specs ...string) {
	t.Helper()
	var bots []bot.Bot
	for i, spec := range specs {
		b, err := bot.New(spec, uint64(i+7))
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	for !g.Over() {
		if err := g.Play(bots[g.ToMove()].Choose(g.View(g.ToMove()))); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOptionsRefused(t *testing.T) {
	for _, o := range []Options{
		{Spec: "heuristic"},
		{Spec: "mcts:time=1s"},
		{Spec: "nonsense"},
		{Spec: "mcts:iters=10", Seeds: 17},
		{Spec: "mcts:iters=10", Seeds: -1},
		{Spec: "mcts:iters=10", Margin: 1.5},
		{Spec: "mcts:iters=10", Screen: -0.1},
	} {
		if err := o.Check(); !errors.Is(err, ErrOptions) {
			t.Errorf("%+v: %v, want ErrOptions", o, err)
		}
	}
	if err := (Options{}).Check(); err != nil {
		t.Errorf("the default options (expert's search): %v", err)
	}
}

// TestHiddenOrder: the judgement of a position, puzzle or not, is the
// same for two games with the same moves whose decks differ in the order
// of the cards still to come.
func TestHiddenOrder(t *testing.T) {
	if raceEnabled {
		t.Skip("SKIPPED under -race: searches of one goroutine, which the race detector has nothing to watch in; it ran in full without -race")
	}
	t.Parallel()
	g := newGame(t, 3, "deck one")
	playBots(t, g, "easy", "medium", "easy")
	moves := g.Moves()
	differ, puzzles := false, 0
	for at := 6; at < len(moves); at += 11 {
		a, b := newGame(t, 3, "deck one"), newGame(t, 3, "deck two")
		for _, m := range moves[:at] {
			if err := a.Play(m); err != nil {
				t.Fatal(err)
			}
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		sa, sb := a.State(), b.State()
		ea, oka, err := Judge(t.Context(), &sa, 99, small)
		if err != nil {
			t.Fatal(err)
		}
		eb, okb, err := Judge(t.Context(), &sb, 99, small)
		if err != nil {
			t.Fatal(err)
		}
		if oka != okb || !reflect.DeepEqual(ea, eb) {
			t.Errorf("move %d: judged %v %+v with one deck order, %v %+v with the other", at, oka, ea, okb, eb)
		}
		if oka {
			puzzles++
		}
		if sa.Phase() == razzia.PhaseTurn && sa.DeckLeft() > 3 {
			for range 3 {
				a.Play(razzia.Draw(razzia.NoKind))
				b.Play(razzia.Draw(razzia.NoKind))
			}
			ca, cb := a.Moves(), b.Moves()
			differ = differ || !slices.Equal(ca[len(ca)-3:], cb[len(cb)-3:])
		}
	}
	if !differ {
		t.Error("the two decks drew the same cards: the test proves nothing")
	}
	t.Logf("%d of the positions judged were puzzles", puzzles)
}

// findIn finds the puzzles of a game of bots, analysed at few
// iterations, with the options o.
func findIn(t *testing.T, seed string, o Options) (*razzia.Game, []Puzzle) {
	t.Helper()
	g := newGame(t, 3, seed)
	playBots(t, g, "easy", "medium", "easy")
	rep, err := analysis.Analyze(t.Context(), g.Record(), analysis.Options{Iterations: 800, Workers: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	found, err := Find(t.Context(), "g1", g.Record(), rep, o, func(done, total int) {
		calls++
		if done != calls || done > total {
			t.Errorf("progress %d of %d at call %d", done, total, calls)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 {
		t.Fatal("no decision was searched: the analysis saw no mistake")
	}
	return g, found
}

// TestBestAtHigherBudget: every puzzle found at a small budget keeps its
// best move, with a lead, when searched again at a budget ten times
// larger with another seed; and the puzzle's themes and move played are
// those of its position.
func TestBestAtHigherBudget(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("searches a game: not with -short, nor under the race detector")
	}
	t.Parallel()
	g, found := findIn(t, "higher budget", small)
	if len(found) < 3 {
		t.Fatalf("%d puzzles found: too few to tell", len(found))
	}
	states, err := analysis.Positions(g.Record())
	if err != nil {
		t.Fatal(err)
	}
	moves := g.Moves()
	for _, p := range found {
		s := &states[p.Move]
		b, err := bot.New("mcts:iters=12000,rollout=auto", 12345)
		if err != nil {
			t.Fatal(err)
		}
		vals, err := b.(evaluator).Evaluate(t.Context(), s, razzia.Move{})
		if err != nil {
			t.Fatal(err)
		}
		best := vals[0]
		for _, v := range vals[1:] {
			if v.Share[p.Seat] >= best.Share[p.Seat] {
				t.Errorf("puzzle %s: at the higher budget %v is worth %.3f, the best %v %.3f", p.ID(), v.Move, v.Share[p.Seat], best.Move, best.Share[p.Seat])
			}
		}
		if best.Move.String() != p.Eval.Best {
			t.Errorf("puzzle %s: best %s at the small budget, %v at the higher", p.ID(), p.Eval.Best, best.Move)
		}
		played := moves[p.Move]
		if played.Action == razzia.ActionDraw {
			played = razzia.Draw(razzia.NoKind)
		}
		if p.Played != played.String() || p.Seat != s.ToMove() || len(p.Themes) == 0 || p.Eval.Margin < DefaultMargin {
			t.Errorf("puzzle %s: played %s (want %v), seat %d, themes %v, margin %.3f", p.ID(), p.Played, played, p.Seat, p.Themes, p.Eval.Margin)
		}
	}
}

func TestFindRefusesUnfinished(t *testing.T) {
	g := newGame(t, 2, "unfinished")
	for range 10 {
		g.Play(g.LegalMoves()[0])
	}
	_, err := Find(context.Background(), "g", g.Record(), &analysis.Report{}, small, nil)
	if !errors.Is(err, ErrUnfinished) {
		t.Errorf("Find of a game being played: %v, want ErrUnfinished", err)
	}
}

// positions returns a state of a game of bots in an auction where pass
// and two bids are legal, and a turn where draw and call are.
func positions(t *testing.T) (auction, turn razzia.State) {
	t.Helper()
	g := newGame(t, 3, "themes")
	playBots(t, g, "medium", "medium", "medium")
	states, err := analysis.Positions(g.Record())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range states {
		legal := s.LegalMoves(nil)
		bids := 0
		for _, m := range legal {
			if m.Action == razzia.ActionBid {
				bids++
			}
		}
		switch {
		case s.Phase() == razzia.PhaseAuction && bids >= 2 && slices.Contains(legal, razzia.Pass()) && auction.Players() == 0:
			auction = s
		case s.Phase() == razzia.PhaseTurn && slices.Contains(legal, razzia.Call()) && turn.Players() == 0:
			turn = s
		}
	}
	if auction.Players() == 0 || turn.Players() == 0 {
		t.Fatal("no auction or turn found")
	}
	return auction, turn
}

func TestThemesOf(t *testing.T) {
	auction, turn := positions(t)
	var bids []razzia.Move
	for _, m := range auction.LegalMoves(nil) {
		if m.Action == razzia.ActionBid {
			bids = append(bids, m)
		}
	}
	for _, c := range []struct {
		name       string
		s          *razzia.State
		best, next razzia.Move
		want, not  Theme
	}{
		{"pass against a bid", &auction, razzia.Pass(), bids[0], BidOrPass, WhichCheque},
		{"a bid against pass", &auction, bids[0], razzia.Pass(), BidOrPass, WhichCheque},
		{"a bid against another", &auction, bids[1], bids[0], WhichCheque, BidOrPass},
		{"call against draw", &turn, razzia.Call(), razzia.Draw(razzia.NoKind), CallOrDraw, Thieves},
		{"draw against call", &turn, razzia.Draw(razzia.NoKind), razzia.Call(), CallOrDraw, BidOrPass},
	} {
		got := ThemesOf(c.s, c.best, c.next)
		if !slices.Contains(got, c.want) || slices.Contains(got, c.not) {
			t.Errorf("%s: themes %v, want %s and not %s", c.name, got, c.want, c.not)
		}
		forced := c.s.Auction() == razzia.AuctionForced
		if slices.Contains(got, ForcedAuction) != forced {
			t.Errorf("%s: themes %v in an auction of kind %v", c.name, got, c.s.Auction())
		}
	}
}

// TestChequeBonus: the final cheque bonus after a bid that wins, as R17
// scores it: most +5, fewest −5, all equal nobody.
func TestChequeBonus(t *testing.T) {
	s, err := razzia.NewState(3, nil)
	if err != nil {
		t.Fatal(err)
	}
	sums := make([]int, 3)
	for p := range sums {
		sums[p] = s.FaceUp(p).Sum()
	}
	me := s.ToMove()
	got := chequeBonus(&s, razzia.Pass())
	want := 0
	switch {
	case sums[me] == slices.Max(sums) && slices.Max(sums) != slices.Min(sums):
		want = 5
	case sums[me] == slices.Min(sums) && slices.Max(sums) != slices.Min(sums):
		want = -5
	}
	if got != want {
		t.Errorf("the bonus of seat %d with the sums %v: %d, want %d", me, sums, got, want)
	}
}

func TestAnswer(t *testing.T) {
	auction, _ := positions(t)
	var bids []razzia.Move
	for _, m := range auction.LegalMoves(nil) {
		if m.Action == razzia.ActionBid {
			bids = append(bids, m)
		}
	}
	p := &Puzzle{Played: "pass", Eval: Evaluation{Best: bids[0].String(), Margin: 0.12,
		Moves: []Value{{Move: bids[0].String(), Share: 0.6}, {Move: "pass", Share: 0.45}}}}
	for _, c := range []struct {
		answer   string
		correct  bool
		overpaid bool
		loss     float64
	}{
		{bids[0].String(), true, false, 0},
		{"PASS", false, false, 0.15},
		{bids[len(bids)-1].String(), false, true, 0},
	} {
		v, err := Answer(&auction, p, c.answer)
		if err != nil {
			t.Fatalf("%s: %v", c.answer, err)
		}
		if v.Correct != c.correct || v.Overpaid != c.overpaid || v.Best != bids[0].String() || len(v.Moves) != 2 {
			t.Errorf("%s: %+v", c.answer, v)
		}
		if !c.overpaid && (v.Loss == nil || abs(float64(*v.Loss)-c.loss) > 1e-9) {
			t.Errorf("%s: loss %v, want %v", c.answer, v.Loss, c.loss)
		}
	}
	for _, bad := range []string{"", "fly", "bid 99", "bid 1", "draw ring", "draw", "call", "thief car", "bid"} {
		if _, err := Answer(&auction, p, bad); !errors.Is(err, ErrIllegal) {
			t.Errorf("answer %q in an auction: %v, want ErrIllegal", bad, err)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestRate: a right answer raises the solver and lowers the puzzle, a
// wrong one the reverse; both grow surer, the puzzle without Tau.
func TestRate(t *testing.T) {
	m := Model()
	solver, puzzle := m.New(), rating.Rating{Mu: 27, Sigma: 5}
	for _, correct := range []bool{true, false} {
		s, p := Rate(solver, puzzle, correct)
		if (s.Mu > solver.Mu) != correct || (p.Mu < puzzle.Mu) != correct || !(p.Sigma < puzzle.Sigma) || !(s.Sigma < solver.Sigma) {
			t.Errorf("correct %v: solver %v → %v, puzzle %v → %v", correct, solver, s, puzzle, p)
		}
	}
	if got := Scale(m.New()); got != 1500 {
		t.Errorf("a new solver's scale: %d, want 1500", got)
	}
	if got := Scale(rating.Rating{Mu: 27, Sigma: 1}); got != 1600 {
		t.Errorf("mu 27: %d, want 1600", got)
	}
}

func ExampleID() {
	fmt.Println(ID("k3x7q2m5ab", 57))
	// Output: k3x7q2m5ab-57
}

// TestDefaultSpec: the default search is expert's Fixed spec, its
// iterations and options, on one worker.
func TestDefaultSpec(t *testing.T) {
	spec, err := DefaultSpec()
	if err != nil {
		t.Fatal(err)
	}
	l, _ := bot.LookupLevel(Level)
	if strings.Count(spec, "workers=") != 1 || !strings.Contains(spec, "workers=1") || !strings.Contains(spec, "iters=") {
		t.Errorf("DefaultSpec = %q, want %s's Fixed %q on one worker", spec, Level, l.Fixed)
	}
	for _, o := range strings.Split(strings.SplitN(l.Fixed, ":", 2)[1], ",") {
		if !strings.HasPrefix(o, "workers=") && !strings.Contains(spec, o) {
			t.Errorf("DefaultSpec %q lost %q of %q", spec, o, l.Fixed)
		}
	}
}
