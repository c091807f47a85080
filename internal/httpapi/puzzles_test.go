package httpapi_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/analyst"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/puzzle"
	"github.com/razziagame/razzia/internal/puzzler"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
)

// aPuzzle stores, in srv's store, a puzzle at the first position of the
// finished game id with two moves or more: its first legal move is the
// best by a margin, as a search would have found. It returns the puzzle's
// id, the best move and another legal one.
func aPuzzle(t *testing.T, srv *servertest.Server, id string) (pid, best, other string) {
	t.Helper()
	ctx := servertest.Context(t)
	g, err := srv.Store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	states, err := analysis.Positions(analyst.Record(g))
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range states {
		legal := s.LegalMoves(nil)
		if i < 5 || len(legal) < 2 { // a few moves in: the log tells something
			continue
		}
		best, other = legal[0].String(), legal[1].String()
		eval := fmt.Sprintf(`{"spec":"mcts:iters=10","seeds":[1],"best":%q,"margin":0.2,"moves":[{"move":%q,"share":0.7},{"move":%q,"share":0.5}],"played":%q}`,
			best, best, other, other)
		p := &store.Puzzle{ID: puzzle.ID(id, i), Game: id, Move: i, Seat: s.ToMove(), Themes: []string{"bid-or-pass"}, Best: best,
			Margin: 0.2, Eval: []byte(eval), Rating: store.Rating{Mu: 25, Sigma: 25.0 / 3}}
		if err := srv.Store.PutPuzzleScan(ctx, id, store.PuzzleScan{Puzzles: []*store.Puzzle{p}}); err != nil {
			t.Fatal(err)
		}
		return p.ID, best, other
	}
	t.Fatal("no position with a choice")
	return
}

// TestPuzzleAnswers: a puzzle reads as the seat to move saw it, without
// its answer; a guest's answer is judged and not kept; a signed-in
// solver's is judged, rated and kept, once; bad answers, unknown puzzles
// and themes are refused with their codes and change nothing.
func TestPuzzleAnswers(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	id := srv.Create("easy", "easy").ID
	srv.WaitOver(id)
	pid, best, other := aPuzzle(t, srv, id)
	guest := newBrowser(t, srv)

	var p protocol.Puzzle
	guest.must("GET", "/api/puzzles/"+pid+"?lang=nl", nil, &p)
	if p.ID != pid || p.Game != id || p.View.Seat != p.Seat || len(p.View.Legal) < 2 || p.Verdict != nil || len(p.Events) == 0 ||
		p.Rating != 1500 || p.Replay != protocol.ReplayPath(id) {
		t.Fatalf("the puzzle reads %+v", p)
	}
	raw, _ := json.Marshal(p)
	if strings.Contains(string(raw), `"best"`) {
		t.Errorf("the puzzle tells its answer before it is answered: %s", raw)
	}

	var v protocol.PuzzleVerdict
	guest.must("POST", "/api/puzzles/"+pid+"/answer", protocol.PuzzleAnswerRequest{Move: other}, &v)
	if v.Correct || v.Best != best || v.Rating != nil || v.Loss == nil || *v.Loss != 0.2 || v.Played != other {
		t.Errorf("a guest's wrong answer: %+v", v)
	}
	guest.must("POST", "/api/puzzles/"+pid+"/answer", protocol.PuzzleAnswerRequest{Move: best}, &v)
	if !v.Correct || v.Rating != nil {
		t.Errorf("a guest's right answer (again: a guest's answers are not kept): %+v", v)
	}

	ann := newBrowser(t, srv)
	ann.register("Ann")
	for _, c := range []struct {
		name, method, path string
		body               any
		status             int
		code               protocol.Code
	}{
		{"an answer that is no move", "POST", "/api/puzzles/" + pid + "/answer", protocol.PuzzleAnswerRequest{Move: "fly away"}, 400, protocol.BadAnswer},
		{"a draw that names its card", "POST", "/api/puzzles/" + pid + "/answer", protocol.PuzzleAnswerRequest{Move: "draw ring"}, 400, protocol.BadAnswer},
		{"a cheque not held", "POST", "/api/puzzles/" + pid + "/answer", protocol.PuzzleAnswerRequest{Move: "bid 99"}, 400, protocol.BadAnswer},
		{"no answer", "POST", "/api/puzzles/" + pid + "/answer", map[string]string{}, 400, protocol.BadAnswer},
		{"an unknown field", "POST", "/api/puzzles/" + pid + "/answer", map[string]string{"mov": "pass"}, 400, protocol.BadRequest},
		{"no such puzzle", "POST", "/api/puzzles/" + id + "-99999/answer", protocol.PuzzleAnswerRequest{Move: best}, 404, protocol.PuzzleNotFound},
		{"no such puzzle to read", "GET", "/api/puzzles/nosuch", nil, 404, protocol.PuzzleNotFound},
		{"no such theme", "GET", "/api/puzzles/next?theme=luck", nil, 400, protocol.BadRequest},
		{"too many to skip", "GET", "/api/puzzles/next?skip=" + strings.Repeat("x,", puzzler.MaxSkip) + "y", nil, 400, protocol.BadRequest},
		{"no such player's luck", "GET", "/api/players/Nobody/luck", nil, 404, protocol.NotFound},
		{"no such game's puzzles", "GET", "/api/games/aaaaaaaaaa/puzzles", nil, 404, protocol.NotFound},
	} {
		status, code := ann.call(c.method, c.path, c.body, nil)
		if status != c.status || code != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, status, code, c.status, c.code)
		}
	}
	var o protocol.PuzzlesAnswer
	ann.must("GET", "/api/puzzles", nil, &o)
	if o.Total != 1 || o.Solver == nil || o.Solver.Attempts != 0 || o.Solver.Rating != 1500 || !o.Solver.Provisional {
		t.Fatalf("after the refused answers: %+v %+v", o, o.Solver)
	}

	ann.must("POST", "/api/puzzles/"+pid+"/answer", protocol.PuzzleAnswerRequest{Move: best}, &v)
	if !v.Correct || v.Rating == nil || v.Rating.Before != 1500 || v.Rating.After <= 1500 || v.Rating.Change != v.Rating.After-1500 ||
		v.Rating.Puzzle >= 1500 || !v.Rating.Provisional {
		t.Errorf("Ann's right answer: %+v %+v", v, v.Rating)
	}
	if status, code := ann.call("POST", "/api/puzzles/"+pid+"/answer", protocol.PuzzleAnswerRequest{Move: other}, nil); status != 409 || code != protocol.PuzzleAnswered {
		t.Errorf("a second answer: %d %s, want 409 %s", status, code, protocol.PuzzleAnswered)
	}
	ann.must("GET", "/api/puzzles/"+pid, nil, &p)
	if p.Verdict == nil || !p.Verdict.Correct || p.Verdict.Answer != best || p.Verdict.Rating == nil || p.Attempts != 1 || p.Solved != 1 {
		t.Errorf("the answered puzzle reads %+v, verdict %+v", p, p.Verdict)
	}
	ann.must("GET", "/api/puzzles", nil, &o)
	if o.Solver == nil || o.Solver.Attempts != 1 || o.Solver.Solved != 1 || o.Solver.Rating != v.Rating.After {
		t.Errorf("Ann's rating after her answer: %+v", o.Solver)
	}
	var public protocol.PuzzleSolver
	guest.must("GET", "/api/players/ann/puzzles", nil, &public)
	if public != *o.Solver {
		t.Errorf("Ann's puzzle rating on her profile: %+v, want %+v", public, o.Solver)
	}
	if status, code := guest.call("GET", "/api/players/nobody/puzzles", nil, nil); status != 404 || code != protocol.NotFound {
		t.Errorf("the puzzle rating of no player: %d %s", status, code)
	}
	if len(o.Recent) != 1 || o.Recent[0].Puzzle != pid || !o.Recent[0].Correct || o.Recent[0].After != v.Rating.After {
		t.Errorf("Ann's last answers: %+v", o.Recent)
	}
	var export struct {
		Account protocol.AccountInfo   `json:"account"`
		Puzzles *protocol.PuzzleExport `json:"puzzles"`
	}
	ann.must("GET", "/api/account/export", nil, &export)
	if export.Account.Name != "Ann" || export.Puzzles == nil || export.Puzzles.Solver.Attempts != 1 || len(export.Puzzles.Answers) != 1 ||
		export.Puzzles.Answers[0].Puzzle != pid || export.Puzzles.Answers[0].Move != best || !export.Puzzles.Answers[0].Correct ||
		export.Puzzles.Answers[0].After != v.Rating.After {
		t.Errorf("the account's export: %+v %+v", export.Account, export.Puzzles)
	}
	if status, code := ann.call("GET", "/api/puzzles/next", nil, nil); status != 404 || code != protocol.PuzzleNotFound {
		t.Errorf("the next puzzle when all are answered: %d %s", status, code)
	}
	var next protocol.Puzzle
	guest.must("GET", "/api/puzzles/next", nil, &next)
	if next.ID != pid {
		t.Errorf("a guest's next puzzle: %s, want %s", next.ID, pid)
	}
	if status, code := guest.call("GET", "/api/puzzles/next?skip="+pid, nil, nil); status != 404 || code != protocol.PuzzleNotFound {
		t.Errorf("a guest's next puzzle, every one skipped: %d %s", status, code)
	}
	guest.must("GET", "/api/puzzles/daily", nil, &next)
	if next.ID != pid || next.Daily == "" {
		t.Errorf("the day's puzzle: %s %q", next.ID, next.Daily)
	}
}

// TestGamePuzzles: a game still being played has no puzzles, and asking
// is refused (they would be advice); a finished game's are pending until
// it is searched, then listed.
func TestGamePuzzles(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	b := newBrowser(t, srv)
	live := srv.Create("", "easy").ID
	if status, code := b.call("GET", "/api/games/"+live+"/puzzles", nil, nil); status != 409 || code != protocol.GameInProgress {
		t.Errorf("the puzzles of a game being played: %d %s, want 409 %s", status, code, protocol.GameInProgress)
	}
	id := srv.Create("easy", "easy").ID
	srv.WaitOver(id)
	var gp protocol.GamePuzzles
	if status, _ := b.call("GET", "/api/games/"+id+"/puzzles", nil, &gp); status != http.StatusAccepted || gp.Status != protocol.AnalysisPending {
		t.Errorf("before the search: %d %+v", status, gp)
	}
	pid, _, _ := aPuzzle(t, srv, id)
	b.must("GET", "/api/games/"+id+"/puzzles", nil, &gp)
	if gp.Status != protocol.AnalysisDone || len(gp.Puzzles) != 1 || gp.Puzzles[0].ID != pid {
		t.Errorf("after the search: %+v", gp)
	}
}

// TestLuck: a player's luck and skill over their analysed games.
func TestLuck(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	b := newBrowser(t, srv)
	b.register("Ann")
	ctx := servertest.Context(t)
	acct, err := srv.Store.AccountByKey(ctx, playername.Key("Ann"))
	if err != nil {
		t.Fatal(err)
	}
	var rec protocol.LuckRecord
	b.must("GET", "/api/players/ann/luck", nil, &rec)
	if rec.Games != 0 || len(rec.Luckiest) != 0 || len(rec.Unluckiest) != 0 {
		t.Errorf("before any game: %+v", rec)
	}
	for i, luck := range []float64{0.3, -0.1, 0.05} {
		id := fmt.Sprintf("luckgame%02d", i)
		g := &store.Game{ID: id, Status: store.StatusFinished, Cheques: [][]int{{2, 5, 6, 9}, {3, 4, 7, 8}},
			Seats: []store.Seat{{Name: "Ann", Account: acct.ID, TokenHash: make([]byte, 32)}, {Name: "Bot", Bot: "easy"}}}
		if err := srv.Store.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if err := srv.Store.PutPuzzleScan(ctx, id, store.PuzzleScan{Luck: []store.SeatLuck{
			{Game: id, Seat: 0, Start: 0.5, Result: 1, Luck: luck, Skill: -0.1, Adjusted: 1 - luck},
			{Game: id, Seat: 1, Start: 0.5, Result: 0, Luck: -luck, Skill: -0.2, Adjusted: luck},
		}}); err != nil {
			t.Fatal(err)
		}
	}
	b.must("GET", "/api/players/ann/luck", nil, &rec)
	if rec.Games != 3 || math.Abs(float64(rec.Luck)-0.25/3) > 0.001 || math.Abs(float64(rec.Skill)+0.1) > 0.001 || rec.Result != 1 ||
		len(rec.Luckiest) != 2 || rec.Luckiest[0].Game != "luckgame00" || rec.Luckiest[0].Replay != protocol.ReplayPath("luckgame00") ||
		len(rec.Unluckiest) != 1 || rec.Unluckiest[0].Game != "luckgame01" || rec.Unluckiest[0].Players != 2 {
		t.Errorf("after three games: %+v", rec)
	}
}
