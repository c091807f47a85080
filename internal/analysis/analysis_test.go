package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
)

// playGame plays a game of heuristic bots whose deck comes from seed; the
// first moves are those given (their draws naming cards), and the game
// stops after limit moves when limit > 0.
func playGame(t testing.TB, players int, seed string, first []razzia.Move, limit int) *razzia.Game {
	t.Helper()
	names := []string{"Ann", "Bob", "Cy", "Di", "Ed"}[:players]
	g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte(seed)})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range first {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	bots := make([]bot.Bot, players)
	for i := range bots {
		bots[i] = bot.NewHeuristic(uint64(i))
	}
	for n := 0; limit <= 0 || n < limit; n++ {
		st := g.State()
		if st.Over() {
			break
		}
		v := g.View(st.ToMove())
		if err := g.Play(bots[st.ToMove()].Choose(v)); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

var quick = Options{Iterations: 40, Seed: 7}

func TestAnalyzeReport(t *testing.T) {
	g := playGame(t, 3, "report", nil, 0)
	rep, err := Analyze(context.Background(), g.Record(), quick)
	if err != nil {
		t.Fatal(err)
	}
	moves := g.Moves()
	if len(rep.Decisions) != len(moves) {
		t.Fatalf("%d decisions for %d moves", len(rep.Decisions), len(moves))
	}
	st := g.State()
	if !reflect.DeepEqual(rep.Winners, st.Winners()) {
		t.Errorf("winners %v, want %v", rep.Winners, st.Winners())
	}
	draws := 0
	for i, d := range rep.Decisions {
		if d.Move != i+1 || d.Played != moves[i].String() {
			t.Errorf("decision %d: move %d %q, want %d %q", i, d.Move, d.Played, i+1, moves[i])
		}
		sum := 0.0
		for _, s := range d.Before {
			sum += float64(s)
		}
		if len(d.Before) != 3 || sum < 0.99 || sum > 1.01 {
			t.Errorf("move %d: win shares before %v do not sum to 1", d.Move, d.Before)
		}
		if d.Loss < 0 || d.Label == "" || (d.Label == Best) != (d.Best == d.Played || d.Best == "draw" && strings.HasPrefix(d.Played, "draw")) {
			t.Errorf("move %d: played %s, best %s, loss %v, label %s", d.Move, d.Played, d.Best, d.Loss, d.Label)
		}
		if (d.Luck != nil) != strings.HasPrefix(d.Played, "draw") {
			t.Errorf("move %d (%s): luck %v; want luck for draws only", d.Move, d.Played, d.Luck)
		}
		if d.Luck != nil {
			draws++
		}
	}
	if draws == 0 {
		t.Error("no draw in the game")
	}
}

func TestLabel(t *testing.T) {
	tests := []struct {
		best bool
		loss float64
		want Label
	}{
		{true, 0, Best},
		{false, 0, Good},
		{false, GoodLoss - 0.001, Good},
		{false, GoodLoss, Inaccuracy},
		{false, InaccuracyLoss, Mistake},
		{false, MistakeLoss - 0.001, Mistake},
		{false, MistakeLoss, Blunder},
		{false, 1, Blunder},
	}
	for _, tt := range tests {
		if got := label(tt.best, tt.loss); got != tt.want {
			t.Errorf("label(%v, %v) = %s, want %s", tt.best, tt.loss, got, tt.want)
		}
	}
}

// TestAnalyzeDeterministic: the same record, seed and iterations give the
// same report however many workers analyse it.
func TestAnalyzeDeterministic(t *testing.T) {
	rec := playGame(t, 2, "workers", nil, 0).Record()
	one, err := Analyze(context.Background(), rec, quick)
	if err != nil {
		t.Fatal(err)
	}
	o := quick
	o.Workers = 3
	three, err := Analyze(context.Background(), rec, o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, three) {
		t.Error("one worker and three gave different reports")
	}
}

// TestAnalyzeHonest: two games that agree up to a move and draw other
// cards after it get the same analysis of the moves before it: the
// analysis of a decision never reads a card drawn later.
func TestAnalyzeHonest(t *testing.T) {
	a := playGame(t, 2, "deck one", nil, 0)
	const k = 40
	b := playGame(t, 2, "deck two", a.Moves()[:k], 0)
	if reflect.DeepEqual(a.Moves(), b.Moves()) {
		t.Fatal("the games are the same: the test proves nothing")
	}
	ra, err := Analyze(context.Background(), a.Record(), quick)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Analyze(context.Background(), b.Record(), quick)
	if err != nil {
		t.Fatal(err)
	}
	for i := range k - 1 {
		if !reflect.DeepEqual(ra.Decisions[i], rb.Decisions[i]) {
			t.Errorf("move %d: %+v with one future, %+v with the other", i+1, ra.Decisions[i], rb.Decisions[i])
		}
	}
	da, db := ra.Decisions[k-1], rb.Decisions[k-1]
	da.Luck, db.Luck = nil, nil // the luck of move k is what came after it
	if !reflect.DeepEqual(da, db) {
		t.Errorf("move %d: %+v with one future, %+v with the other", k, da, db)
	}
	// So are the luck and skill of each seat up to there.
	sa, sb := Summarise(ra.Decisions[:k-1], nil, 2), Summarise(rb.Decisions[:k-1], nil, 2)
	if !reflect.DeepEqual(sa, sb) || sa[0].Luck == 0 {
		t.Errorf("luck and skill to move %d: %+v with one future, %+v with the other", k-1, sa, sb)
	}
}

func TestAnalyzeRefuses(t *testing.T) {
	unfinished := playGame(t, 4, "unfinished", nil, 60).Record()
	if _, err := Analyze(context.Background(), unfinished, quick); !errors.Is(err, ErrUnfinished) {
		t.Errorf("unfinished game: %v, want ErrUnfinished", err)
	}
	illegal := playGame(t, 2, "illegal", nil, 0).Record()
	illegal.Moves[3] = "bid 16"
	_, err := Analyze(context.Background(), illegal, quick)
	if re, ok := errors.AsType[*razzia.RecordError](err); !ok || re.Move != 4 {
		t.Errorf("illegal move: %v, want a *razzia.RecordError for move 4", err)
	}
	for _, o := range []Options{{Iterations: -1}, {Iterations: MaxIterations + 1}, {Workers: -1}} {
		if _, err := Analyze(context.Background(), playGame(t, 2, "x", nil, 0).Record(), o); !errors.Is(err, ErrOptions) {
			t.Errorf("options %+v: %v, want ErrOptions", o, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, playGame(t, 2, "cancel", nil, 0).Record(), quick); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

func TestHints(t *testing.T) {
	g := playGame(t, 4, "hints", nil, 30)
	st := g.State()
	v := g.View(st.ToMove())
	hints, err := Hints(context.Background(), v, quick)
	if err != nil {
		t.Fatal(err)
	}
	if len(hints) == 0 || len(hints) > MaxHints || len(hints) > len(v.Legal) {
		t.Fatalf("%d hints for %d legal moves", len(hints), len(v.Legal))
	}
	for _, h := range hints {
		m, err := razzia.ParseMove(h.Move)
		if err != nil || v.State.Check(m) != nil || h.WinChance < 0 || h.WinChance > 1 {
			t.Errorf("hint %+v is not a legal move with a chance", h)
		}
	}

	other := g.View((st.ToMove() + 1) % 4)
	if _, err := Hints(context.Background(), other, quick); !errors.Is(err, ErrNotToMove) {
		t.Errorf("another seat: %v, want ErrNotToMove", err)
	}
	if _, err := Hints(context.Background(), g.View(-1), quick); !errors.Is(err, ErrNotToMove) {
		t.Errorf("a spectator: %v, want ErrNotToMove", err)
	}
	over := playGame(t, 2, "over", nil, 0)
	if _, err := Hints(context.Background(), over.View(0), quick); !errors.Is(err, ErrGameOver) {
		t.Errorf("game over: %v, want ErrGameOver", err)
	}
}

// TestHintsHonest: two games with the same moves but decks in different
// orders give the same hints, with the heuristic's playouts (3 players)
// and the light ones (4).
func TestHintsHonest(t *testing.T) {
	for i, at := range []int{10, 35, 80, 12, 60} {
		a := playGame(t, 3+i/3, "deck one", nil, at)
		b, err := razzia.NewGame(razzia.Setup{Players: a.Players(), Seed: []byte("deck two")})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range a.Moves() {
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		sa := a.State()
		seat := sa.ToMove()
		ha, err := Hints(context.Background(), a.View(seat), quick)
		if err != nil {
			t.Fatal(err)
		}
		hb, err := Hints(context.Background(), b.View(seat), quick)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ha, hb) {
			t.Errorf("move %d: hints %v with one deck order, %v with the other", at, ha, hb)
		}
	}
}

// TestJudgesAsHard: hints (and so the analysis, which searches alike)
// come from the search hard and expert play (hard's Fixed spec at the
// hints' iterations): at 2 players its playouts run to the game's end by
// the yardstick's policy, at 4 they are light, and either differs from
// the heuristic's playouts cut at the round's end.
func TestJudgesAsHard(t *testing.T) {
	hard, ok := bot.LookupLevel("hard")
	if !ok {
		t.Fatal("no level hard")
	}
	for _, players := range []int{2, 4} {
		t.Run(fmt.Sprintf("players=%d", players), func(t *testing.T) {
			g := playGame(t, players, "as hard", nil, 30)
			st := g.State()
			v := g.View(st.ToMove())
			o := Options{Iterations: 60, Seed: 3}
			got, err := Hints(context.Background(), v, o)
			if err != nil {
				t.Fatal(err)
			}
			same := func(spec string) bool {
				b, err := bot.New(spec, o.Seed)
				if err != nil {
					t.Fatal(err)
				}
				ev, err := b.(*bot.MCTS).Evaluate(context.Background(), &v.State, razzia.Move{})
				if err != nil {
					t.Fatal(err)
				}
				for i, h := range got {
					if h.Move != ev[i].Move.String() || h.WinChance != Share(ev[i].Share[v.Seat]) {
						return false
					}
				}
				return len(got) == min(MaxHints, len(ev))
			}
			if spec := withIters(t, hard.Fixed, o.Iterations); !same(spec) {
				t.Errorf("hints %v are not those of %s", got, spec)
			}
			if same("mcts:iters=60,rollout=heuristic") {
				t.Errorf("hints %v are those of the heuristic's playouts too: the position tells nothing", got)
			}
		})
	}
}

// withIters returns the mcts spec with its iterations (one count, or one
// by table size) replaced by iters, on one worker.
func withIters(t *testing.T, spec string, iters int) string {
	name, opts, _ := strings.Cut(spec, ":")
	if name != "mcts" {
		t.Fatalf("%q is not a tree search", spec)
	}
	parts := strings.Split(opts, ",")
	for i, o := range parts {
		switch {
		case strings.HasPrefix(o, "iters="):
			parts[i] = fmt.Sprintf("iters=%d", iters)
		case strings.HasPrefix(o, "workers="):
			parts[i] = "workers=1"
		}
	}
	return name + ":" + strings.Join(parts, ",")
}

func TestShareJSON(t *testing.T) {
	// Luck and skill are differences: negative, and never "-0".
	b, err := json.Marshal([]Share{0, 1, 0.12345, 0.5, 1.0 / 3, -0.0004, -1.25})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), "[0,1,0.123,0.5,0.333,0,-1.25]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func ExampleHints() {
	g, _ := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Cy", "Di"}, Seed: []byte("example")})
	// A car and a driver in the row, and the police: an auction, in which
	// the next seat may pass or bid one of three cheques.
	for _, tok := range []string{"draw car", "draw driver", "draw police"} {
		if err := g.PlayToken(tok); err != nil {
			fmt.Println(err)
			return
		}
	}
	st := g.State()
	hints, err := Hints(context.Background(), g.View(st.ToMove()), Options{Iterations: 2000, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(hints), "hints, the best first")
	// Output: 3 hints, the best first
}
