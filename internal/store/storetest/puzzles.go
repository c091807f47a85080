package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The checks of store.Puzzles, run by Run with the others.
var puzzleChecks = []struct {
	name string
	run  func(t *testing.T, s store.Store)
}{
	{"PuzzleScan", testPuzzleScan},
	{"PuzzleScanRefused", testPuzzleScanRefused},
	{"PuzzleNext", testPuzzleNext},
	{"PuzzleDaily", testPuzzleDaily},
	{"PuzzleAnswer", testPuzzleAnswer},
	{"PuzzleAnswerRefused", testPuzzleAnswerRefused},
	{"PuzzleAnswerRace", testPuzzleAnswerRace},
	{"SeatLuck", testSeatLuck},
}

func init() { checks = append(checks, puzzleChecks...) }

// newPuzzle returns puzzle number move of game.
func newPuzzle(game string, move int, themes ...string) *store.Puzzle {
	return &store.Puzzle{ID: fmt.Sprintf("%s-%d", game, move), Game: game, Move: move, Seat: move % 3, Themes: themes,
		Best: "bid 9", Margin: 0.1 + float64(move)/1000, Eval: []byte(`{"best":"bid 9","moves":[{"move":"bid 9","share":0.6}]}`),
		Rating: store.Rating{Mu: 25 + float64(move)/10, Sigma: 25.0 / 3}}
}

// finishedAnalysed creates a finished game, analysed, and returns it.
func finishedAnalysed(t *testing.T, s store.Store, id string, age time.Duration) *store.Game {
	t.Helper()
	g := newGame(id, store.StatusFinished, age)
	create(t, s, g)
	putAnalysis(t, s, id, store.Analysis{Report: report})
	return g
}

func putScan(t *testing.T, s store.Store, id string, scan store.PuzzleScan) {
	t.Helper()
	if err := s.PutPuzzleScan(ctx(t), id, scan); err != nil {
		t.Fatalf("PutPuzzleScan(%s): %v", id, err)
	}
}

func claimScan(t *testing.T, s store.Store, node string, ttl time.Duration) string {
	t.Helper()
	id, err := s.ClaimPuzzleScan(ctx(t), node, ttl)
	if err != nil {
		t.Fatalf("ClaimPuzzleScan(%s): %v", node, err)
	}
	return id
}

func scanned(t *testing.T, s store.Store, id string) bool {
	t.Helper()
	done, err := s.PuzzleScanned(ctx(t), id)
	if err != nil {
		t.Fatalf("PuzzleScanned(%s): %v", id, err)
	}
	return done
}

// testPuzzleScan: only finished, analysed games are claimed, the oldest
// first, once; a stored scan keeps its puzzles, which read as stored, and
// a second scan adds without losing an answered puzzle's rating.
func testPuzzleScan(t *testing.T, s store.Store) {
	create(t, s, newGame("puzplaying", store.StatusPlaying, 9*time.Minute))
	create(t, s, newGame("puzunanalysed", store.StatusFinished, 8*time.Minute))
	old := finishedAnalysed(t, s, "puzold", time.Minute) // newGame's age: later is larger
	young := finishedAnalysed(t, s, "puzyoung", 5*time.Minute)
	if scanned(t, s, old.ID) {
		t.Errorf("a game never scanned reads as scanned")
	}
	if id := claimScan(t, s, "node-a", time.Hour); id != old.ID {
		t.Fatalf("ClaimPuzzleScan = %q, want the oldest analysed game %q", id, old.ID)
	}
	if id := claimScan(t, s, "node-b", time.Hour); id != young.ID {
		t.Fatalf("ClaimPuzzleScan = %q, want %q (the other is claimed)", id, young.ID)
	}
	if id := claimScan(t, s, "node-c", time.Hour); id != "" {
		t.Fatalf("ClaimPuzzleScan = %q, want none: the rest are claimed, unfinished or unanalysed", id)
	}
	a, b := newPuzzle(old.ID, 17, "bid-or-pass", "cheque-majority"), newPuzzle(old.ID, 3, "call-or-draw")
	putScan(t, s, old.ID, store.PuzzleScan{Puzzles: []*store.Puzzle{a, b},
		Luck: []store.SeatLuck{{Game: old.ID, Seat: 0, Start: 0.3, Result: 1, Luck: 0.25, Skill: -0.1, Adjusted: 0.75}}})
	if !scanned(t, s, old.ID) || scanned(t, s, young.ID) {
		t.Errorf("scanned: %v and %v, want true and false", scanned(t, s, old.ID), scanned(t, s, young.ID))
	}
	got, err := s.GamePuzzles(ctx(t), old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != b.ID || got[1].ID != a.ID {
		t.Fatalf("GamePuzzles = %v, want %s then %s", got, b.ID, a.ID)
	}
	p, err := s.Puzzle(ctx(t), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Game != a.Game || p.Move != a.Move || p.Seat != a.Seat || !slices.Equal(p.Themes, a.Themes) || p.Best != a.Best ||
		p.Margin != a.Margin || string(p.Eval) != string(a.Eval) || p.Rating.Mu != a.Rating.Mu || p.Rating.Sigma != a.Rating.Sigma ||
		p.Rating.Games != 0 || p.Solved != 0 || p.Created.IsZero() {
		t.Errorf("Puzzle = %+v, want %+v", p, a)
	}
	counts, err := s.PuzzleThemes(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"": 2, "bid-or-pass": 1, "cheque-majority": 1, "call-or-draw": 1}; fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("PuzzleThemes = %v, want %v", counts, want)
	}
	if _, err := s.Puzzle(ctx(t), "nosuch-1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Puzzle(nosuch) = %v, want ErrNotFound", err)
	}
	if _, err := s.PuzzleScanned(ctx(t), "nosuch"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PuzzleScanned(nosuch) = %v, want ErrNotFound", err)
	}
	// A scan again keeps an answered puzzle as it is.
	ann := newAccount("Ann", 0xa1)
	createAccount(t, s, ann)
	answer(t, s, a.ID, ann.ID, true)
	again := newPuzzle(old.ID, 17, "thieves")
	putScan(t, s, old.ID, store.PuzzleScan{Puzzles: []*store.Puzzle{again, newPuzzle(old.ID, 40, "thieves")}})
	if p, _ := s.Puzzle(ctx(t), a.ID); p == nil || p.Rating.Games != 1 || !slices.Equal(p.Themes, a.Themes) {
		t.Errorf("after a second scan, the answered puzzle reads %+v", p)
	}
	if got, _ := s.GamePuzzles(ctx(t), old.ID); len(got) != 3 {
		t.Errorf("after a second scan, %d puzzles, want 3", len(got))
	}
}

// testPuzzleScanRefused: a scan of a game not finished, unknown, or with
// a puzzle of another game or a bad one is refused and changes nothing.
func testPuzzleScanRefused(t *testing.T, s store.Store) {
	create(t, s, newGame("puzlive", store.StatusPlaying, time.Minute))
	finishedAnalysed(t, s, "puzdone", time.Minute)
	for _, c := range []struct {
		name string
		id   string
		scan store.PuzzleScan
		want error
	}{
		{"a game still being played", "puzlive", store.PuzzleScan{Puzzles: []*store.Puzzle{newPuzzle("puzlive", 1, "thieves")}}, store.ErrConflict},
		{"no such game", "nosuch", store.PuzzleScan{}, store.ErrNotFound},
		{"a puzzle of another game", "puzdone", store.PuzzleScan{Puzzles: []*store.Puzzle{newPuzzle("puzlive", 1, "thieves")}}, nil},
		{"a puzzle without a theme", "puzdone", store.PuzzleScan{Puzzles: []*store.Puzzle{newPuzzle("puzdone", 1)}}, nil},
		{"a puzzle twice", "puzdone", store.PuzzleScan{Puzzles: []*store.Puzzle{newPuzzle("puzdone", 1, "thieves"), newPuzzle("puzdone", 1, "thieves")}}, nil},
		{"luck of another game", "puzdone", store.PuzzleScan{Luck: []store.SeatLuck{{Game: "puzlive"}}}, nil},
	} {
		err := s.PutPuzzleScan(ctx(t), c.id, c.scan)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: PutPuzzleScan = %v, want %v", c.name, err, c.want)
		}
	}
	for _, id := range []string{"puzlive", "puzdone"} {
		if ps, err := s.GamePuzzles(ctx(t), id); err != nil || len(ps) != 0 || scanned(t, s, id) {
			t.Errorf("game %s after the refused scans: %v, %v, scanned %v", id, ps, err, scanned(t, s, id))
		}
	}
}

// testPuzzleNext: the next puzzle is the nearest in rating, of the theme
// asked, never one answered or skipped; none left is ErrNotFound.
func testPuzzleNext(t *testing.T, s store.Store) {
	g := finishedAnalysed(t, s, "puznext", time.Minute)
	var ps []*store.Puzzle
	for i, m := range []int{0, 10, 20, 30} { // rated 25, 26, 27, 28
		p := newPuzzle(g.ID, m, []string{"bid-or-pass", "thieves"}[i%2])
		ps = append(ps, p)
	}
	putScan(t, s, g.ID, store.PuzzleScan{Puzzles: ps})
	ann := newAccount("Ann", 0xa1)
	createAccount(t, s, ann)
	next := func(q store.PuzzleQuery) string {
		t.Helper()
		p, err := s.NextPuzzle(ctx(t), q)
		if errors.Is(err, store.ErrNotFound) {
			return ""
		}
		if err != nil {
			t.Fatalf("NextPuzzle(%+v): %v", q, err)
		}
		return p.ID
	}
	for _, c := range []struct {
		q    store.PuzzleQuery
		want string
	}{
		{store.PuzzleQuery{Mu: 26.9}, ps[2].ID},
		{store.PuzzleQuery{Mu: 25.5}, ps[0].ID}, // as near as ps[1]: the smaller id
		{store.PuzzleQuery{Mu: 26.5}, ps[1].ID},
		{store.PuzzleQuery{Mu: 99}, ps[3].ID},
		{store.PuzzleQuery{Mu: -99}, ps[0].ID},
		{store.PuzzleQuery{Mu: 26.9, Theme: "thieves"}, ps[1].ID},
		{store.PuzzleQuery{Mu: 26.9, Skip: []string{ps[2].ID}}, ps[1].ID},
		{store.PuzzleQuery{Mu: 99, Theme: "cheque-majority"}, ""},
	} {
		if got := next(c.q); got != c.want {
			t.Errorf("NextPuzzle(%+v) = %q, want %q", c.q, got, c.want)
		}
	}
	answer(t, s, ps[2].ID, ann.ID, false)
	if got := next(store.PuzzleQuery{Account: ann.ID, Mu: 26.9}); got == ps[2].ID {
		t.Errorf("NextPuzzle gave Ann a puzzle she answered")
	}
	if got := next(store.PuzzleQuery{Mu: 26.9, Skip: []string{ps[1].ID}}); got != ps[2].ID {
		t.Errorf("NextPuzzle of a guest = %q, want %q: Ann's answer is hers alone", got, ps[2].ID)
	}
}

// testPuzzleDaily: a day's puzzle is the clearest never picked, the same
// when asked again; the next day's another; none is ErrNotFound.
func testPuzzleDaily(t *testing.T, s store.Store) {
	if _, err := s.DailyPuzzle(ctx(t), "2026-11-24"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DailyPuzzle of no puzzles = %v, want ErrNotFound", err)
	}
	g := finishedAnalysed(t, s, "puzdaily", time.Minute)
	putScan(t, s, g.ID, store.PuzzleScan{Puzzles: []*store.Puzzle{newPuzzle(g.ID, 5, "thieves"), newPuzzle(g.ID, 50, "thieves")}})
	day := func(d string) string {
		t.Helper()
		p, err := s.DailyPuzzle(ctx(t), d)
		if err != nil {
			t.Fatalf("DailyPuzzle(%s): %v", d, err)
		}
		return p.ID
	}
	if first := day("2026-11-24"); first != g.ID+"-50" || day("2026-11-24") != first {
		t.Errorf("the puzzle of the day: %s, then %s; want %s-50 twice (the largest margin)", first, day("2026-11-24"), g.ID)
	}
	if second := day("2026-11-25"); second != g.ID+"-5" {
		t.Errorf("the next day's puzzle: %s, want %s-5", second, g.ID)
	}
	if _, err := s.DailyPuzzle(ctx(t), "2026-11-26"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DailyPuzzle with every puzzle used = %v, want ErrNotFound", err)
	}
}

// answer stores account's answer to puzzle id from the stored ratings.
func answer(t *testing.T, s store.Store, id, account string, correct bool) store.PuzzleAttempt {
	t.Helper()
	p, err := s.Puzzle(ctx(t), id)
	if err != nil {
		t.Fatal(err)
	}
	before := store.Rating{Mu: 25, Sigma: 25.0 / 3}
	if v, err := s.PuzzleSolver(ctx(t), account); err == nil {
		before = v.Rating
	}
	a := store.PuzzleAttempt{Puzzle: id, Account: account, Answer: "pass", Correct: correct, At: base,
		SolverBefore: before, SolverAfter: store.Rating{Mu: before.Mu + 1, Sigma: before.Sigma * 0.9},
		PuzzleBefore: p.Rating, PuzzleAfter: store.Rating{Mu: p.Rating.Mu - 1, Sigma: p.Rating.Sigma * 0.95}}
	if err := s.AnswerPuzzle(ctx(t), a); err != nil {
		t.Fatalf("AnswerPuzzle(%s, %s): %v", id, account, err)
	}
	return a
}

// testPuzzleAnswer: an answer stores the solver's and the puzzle's new
// ratings and counts, and reads back.
func testPuzzleAnswer(t *testing.T, s store.Store) {
	g := finishedAnalysed(t, s, "puzanswer", time.Minute)
	putScan(t, s, g.ID, store.PuzzleScan{Puzzles: []*store.Puzzle{newPuzzle(g.ID, 1, "thieves"), newPuzzle(g.ID, 2, "thieves")}})
	ann := newAccount("Ann", 0xa1)
	createAccount(t, s, ann)
	if _, err := s.PuzzleSolver(ctx(t), ann.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PuzzleSolver of a new solver = %v, want ErrNotFound", err)
	}
	a := answer(t, s, g.ID+"-1", ann.ID, true)
	b := answer(t, s, g.ID+"-2", ann.ID, false)
	v, err := s.PuzzleSolver(ctx(t), ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Rating.Mu != b.SolverAfter.Mu || v.Rating.Sigma != b.SolverAfter.Sigma || v.Rating.Games != 2 || v.Solved != 1 {
		t.Errorf("PuzzleSolver = %+v, want %v after 2 answers, 1 right", v, b.SolverAfter)
	}
	p, _ := s.Puzzle(ctx(t), a.Puzzle)
	if p.Rating.Mu != a.PuzzleAfter.Mu || p.Rating.Sigma != a.PuzzleAfter.Sigma || p.Rating.Games != 1 || p.Solved != 1 {
		t.Errorf("the puzzle after a right answer: %+v", p)
	}
	got, err := s.PuzzleAttempt(ctx(t), a.Puzzle, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Answer != a.Answer || !got.Correct || !got.At.Equal(a.At) || got.SolverBefore != a.SolverBefore || got.SolverAfter != a.SolverAfter ||
		got.PuzzleBefore != a.PuzzleBefore || got.PuzzleAfter != a.PuzzleAfter {
		t.Errorf("PuzzleAttempt = %+v, want %+v", got, a)
	}
	if _, err := s.PuzzleAttempt(ctx(t), g.ID+"-1", "acctnone"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PuzzleAttempt of no answer = %v, want ErrNotFound", err)
	}
	all, err := s.PuzzleAttempts(ctx(t), ann.ID, 0)
	if err != nil || len(all) != 2 || all[0].Puzzle != b.Puzzle || all[1].Puzzle != a.Puzzle || all[0].Correct || all[0].SolverAfter != b.SolverAfter {
		t.Errorf("PuzzleAttempts(Ann) = %+v, %v; want her two answers, the newest first", all, err)
	}
	if last, err := s.PuzzleAttempts(ctx(t), ann.ID, 1); err != nil || len(last) != 1 || last[0].Puzzle != b.Puzzle {
		t.Errorf("PuzzleAttempts(Ann, 1) = %+v, %v; want her last answer", last, err)
	}
	if none, err := s.PuzzleAttempts(ctx(t), "acctnone", 0); err != nil || len(none) != 0 {
		t.Errorf("PuzzleAttempts(nobody) = %v, %v", none, err)
	}
}

// testPuzzleAnswerRefused: a second answer, an answer to no puzzle, by no
// account or from ratings that moved is refused and changes nothing.
func testPuzzleAnswerRefused(t *testing.T, s store.Store) {
	g := finishedAnalysed(t, s, "puzrefuse", time.Minute)
	putScan(t, s, g.ID, store.PuzzleScan{Puzzles: []*store.Puzzle{newPuzzle(g.ID, 1, "thieves"), newPuzzle(g.ID, 2, "thieves")}})
	ann := newAccount("Ann", 0xa1)
	createAccount(t, s, ann)
	first := answer(t, s, g.ID+"-1", ann.ID, true)
	p2, _ := s.Puzzle(ctx(t), g.ID+"-2")
	fresh := store.Rating{Mu: 25, Sigma: 25.0 / 3}
	ok := store.PuzzleAttempt{Puzzle: p2.ID, Account: ann.ID, Answer: "pass", At: base, SolverBefore: first.SolverAfter,
		SolverAfter: fresh, PuzzleBefore: p2.Rating, PuzzleAfter: p2.Rating}
	with := func(f func(a *store.PuzzleAttempt)) store.PuzzleAttempt {
		a := ok
		f(&a)
		return a
	}
	for _, c := range []struct {
		name string
		a    store.PuzzleAttempt
		want error
	}{
		{"answered already", with(func(a *store.PuzzleAttempt) {
			a.Puzzle, a.SolverBefore, a.PuzzleBefore = first.Puzzle, first.SolverAfter, first.PuzzleAfter
		}), store.ErrAnswered},
		{"no such puzzle", with(func(a *store.PuzzleAttempt) { a.Puzzle = "nosuch-1" }), store.ErrNotFound},
		{"no such account", with(func(a *store.PuzzleAttempt) { a.Account = "acctnone" }), store.ErrNoAccount},
		{"the solver's rating moved", with(func(a *store.PuzzleAttempt) { a.SolverBefore = fresh }), store.ErrConflict},
		{"the puzzle's rating moved", with(func(a *store.PuzzleAttempt) { a.PuzzleBefore.Mu++ }), store.ErrConflict},
		{"no answer", with(func(a *store.PuzzleAttempt) { a.Answer = "" }), nil},
		{"a sigma of 0", with(func(a *store.PuzzleAttempt) { a.SolverAfter.Sigma = 0 }), nil},
	} {
		err := s.AnswerPuzzle(ctx(t), c.a)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: AnswerPuzzle = %v, want %v", c.name, err, c.want)
		}
	}
	if v, _ := s.PuzzleSolver(ctx(t), ann.ID); v.Rating.Games != 1 || v.Rating.Mu != first.SolverAfter.Mu {
		t.Errorf("after the refused answers the solver reads %+v", v)
	}
	if p, _ := s.Puzzle(ctx(t), p2.ID); p.Rating.Games != 0 || p.Rating.Mu != p2.Rating.Mu {
		t.Errorf("after the refused answers the puzzle reads %+v", p)
	}
}

// testPuzzleAnswerRace: answers to one puzzle by one account at once:
// one is stored, the others are refused as answered or as a conflict.
func testPuzzleAnswerRace(t *testing.T, s store.Store) {
	g := finishedAnalysed(t, s, "puzrace", time.Minute)
	p := newPuzzle(g.ID, 1, "thieves")
	putScan(t, s, g.ID, store.PuzzleScan{Puzzles: []*store.Puzzle{p}})
	ann := newAccount("Ann", 0xa1)
	createAccount(t, s, ann)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() {
			errs[i] = s.AnswerPuzzle(ctx(t), store.PuzzleAttempt{Puzzle: p.ID, Account: ann.ID, Answer: "pass", At: base,
				SolverBefore: store.Rating{Mu: 25, Sigma: 25.0 / 3}, SolverAfter: store.Rating{Mu: 24, Sigma: 8},
				PuzzleBefore: p.Rating, PuzzleAfter: store.Rating{Mu: 26, Sigma: 8}})
		})
	}
	wg.Wait()
	stored := 0
	for _, err := range errs {
		switch {
		case err == nil:
			stored++
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("AnswerPuzzle at once: %v, want nil or a conflict", err)
		}
	}
	if v, _ := s.PuzzleSolver(ctx(t), ann.ID); stored != 1 || v.Rating.Games != 1 {
		t.Errorf("%d answers stored, the solver counts %d; want 1", stored, v.Rating.Games)
	}
}

// testSeatLuck: an account's seats' luck, newest game first, only its
// own seats, stored with a game's scan or on its own (PutSeatLuck, which
// marks nothing scanned); refused for a game not finished or unknown.
func testSeatLuck(t *testing.T, s store.Store) {
	ann, bea := newAccount("Ann", 0xa1), newAccount("Bea", 0xb2)
	createAccount(t, s, ann)
	createAccount(t, s, bea)
	var ids []string
	for i, age := range []time.Duration{3 * time.Minute, time.Minute, 2 * time.Minute} {
		g := newGame(fmt.Sprintf("luck%d", i), store.StatusFinished, age)
		g.Seats[0] = store.Seat{Name: "Ann", TokenHash: hash(byte(0x10 + i)), Account: ann.ID}
		g.Seats[2] = store.Seat{Name: "Bea", TokenHash: hash(byte(0x20 + i)), Account: bea.ID}
		create(t, s, g)
		putAnalysis(t, s, g.ID, store.Analysis{Report: report})
		ids = append(ids, g.ID)
		luck := []store.SeatLuck{
			{Game: g.ID, Seat: 0, Start: 0.5, Result: 1, Luck: 0.1 * float64(i+1), Skill: -0.05, Adjusted: 0.9},
			{Game: g.ID, Seat: 2, Start: 0.5, Result: 0, Luck: -0.2, Skill: -0.1, Adjusted: 0.2},
		}
		if i == 2 {
			if err := s.PutSeatLuck(ctx(t), g.ID, luck); err != nil {
				t.Fatal(err)
			}
			if scanned(t, s, g.ID) {
				t.Errorf("PutSeatLuck marked game %s searched for puzzles", g.ID)
			}
			continue
		}
		putScan(t, s, g.ID, store.PuzzleScan{Luck: luck})
	}
	got, err := s.SeatLuck(ctx(t), ann.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Game != ids[0] || got[1].Game != ids[2] || got[2].Game != ids[1] {
		t.Fatalf("SeatLuck(Ann) = %+v, want games %s, %s, %s", got, ids[0], ids[2], ids[1])
	}
	if l := got[0]; l.Seat != 0 || l.Players != 3 || l.Luck != 0.1 || l.Skill != -0.05 || l.Result != 1 || l.Start != 0.5 ||
		l.Adjusted != 0.9 || l.Finished.IsZero() {
		t.Errorf("SeatLuck(Ann)[0] = %+v", l)
	}
	if got, _ := s.SeatLuck(ctx(t), ann.ID, 1); len(got) != 1 {
		t.Errorf("SeatLuck(Ann, 1) = %d rows", len(got))
	}
	if got, _ := s.SeatLuck(ctx(t), bea.ID, 0); len(got) != 3 || got[0].Seat != 2 || got[0].Luck != -0.2 {
		t.Errorf("SeatLuck(Bea) = %+v", got)
	}
	if got, err := s.SeatLuck(ctx(t), "acctnone", 0); err != nil || len(got) != 0 {
		t.Errorf("SeatLuck(nobody) = %v, %v", got, err)
	}
	create(t, s, newGame("luckplaying", store.StatusPlaying, time.Minute))
	for id, want := range map[string]error{"luckplaying": store.ErrConflict, "nosuch": store.ErrNotFound} {
		if err := s.PutSeatLuck(ctx(t), id, []store.SeatLuck{{Game: id, Seat: 0}}); !errors.Is(err, want) {
			t.Errorf("PutSeatLuck(%s) = %v, want %v", id, err, want)
		}
	}
	if err := s.PutSeatLuck(ctx(t), ids[0], []store.SeatLuck{{Game: ids[1], Seat: 0}}); err == nil {
		t.Error("PutSeatLuck took the luck of another game")
	}
}

// fillPuzzles writes a row of every puzzle table for Fill: done is a
// finished, analysed game with ann at seat 0, failed one whose analysis
// failed.
func fillPuzzles(t *testing.T, s store.Store, done, failed, ann string) {
	t.Helper()
	c := ctx(t)
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("Fill: %s: %v", what, err)
		}
	}
	p := newPuzzle(done, 2, "bid-or-pass", "forced-auction")
	must("PutPuzzleScan", s.PutPuzzleScan(c, done, store.PuzzleScan{Puzzles: []*store.Puzzle{p},
		Luck: []store.SeatLuck{{Game: done, Seat: 0, Start: 0.4, Result: 1, Luck: 0.31, Skill: -0.07, Adjusted: 0.69}}}))
	claimed, err := s.ClaimPuzzleScan(c, "node-fill", time.Hour)
	must("ClaimPuzzleScan", err)
	if claimed != failed {
		t.Fatalf("Fill: ClaimPuzzleScan claimed %q, want %s", claimed, failed)
	}
	_, err = s.DailyPuzzle(c, "2026-11-24")
	must("DailyPuzzle", err)
	must("AnswerPuzzle", s.AnswerPuzzle(c, store.PuzzleAttempt{Puzzle: p.ID, Account: ann, Answer: "bid 9", Correct: true, At: base,
		SolverBefore: store.Rating{Mu: 25, Sigma: 25.0 / 3}, SolverAfter: store.Rating{Mu: 26.5, Sigma: 7.7},
		PuzzleBefore: p.Rating, PuzzleAfter: store.Rating{Mu: 24.1, Sigma: 8.1}}))
}
