package httpapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/analyst"
	rclient "github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/store"
)

// analysed stores the analysis of finished game id, as the background
// analyst would, with a few iterations.
func (e *env) analysed(id string) *analysis.Report {
	e.t.Helper()
	g, err := e.Store.Game(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	rep, err := analysis.Analyze(e.ctx, analyst.Record(g), analysis.Options{Iterations: 10})
	if err != nil {
		e.t.Fatal(err)
	}
	b, _ := json.Marshal(rep)
	if err := e.Store.PutAnalysis(e.ctx, id, store.Analysis{Report: b}); err != nil {
		e.t.Fatal(err)
	}
	return rep
}

// moves returns the moves of game id as the API describes it.
func (e *env) moves(id string) float64 {
	e.t.Helper()
	resp, v := e.do("GET", "/api/games/"+id, "")
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("GET game %s: %d %v", id, resp.StatusCode, v)
	}
	return v["game"].(map[string]any)["moves"].(float64)
}

func TestAnalysisOfAFinishedGame(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id := e.create("easy", "easy")
	e.WaitOver(id)
	// Pending until the analyst stored it.
	resp, v := e.do("GET", "/api/games/"+id+"/analysis", "")
	if resp.StatusCode != http.StatusAccepted || v["status"] != "pending" || v["report"] != nil {
		t.Fatalf("before the analysis: %d %v", resp.StatusCode, v)
	}
	rep := e.analysed(id)
	resp, v = e.do("GET", "/api/games/"+id+"/analysis", "")
	if resp.StatusCode != http.StatusOK || v["status"] != "done" {
		t.Fatalf("after the analysis: %d %v", resp.StatusCode, v)
	}
	got := v["report"].(map[string]any)
	if d := got["decisions"].([]any); len(d) != len(rep.Decisions) || len(d) != int(e.moves(id)) {
		t.Errorf("%d decisions, want %d, one per move", len(d), len(rep.Decisions))
	}
	first := got["decisions"].([]any)[0].(map[string]any)
	for _, k := range []string{"move", "seat", "played", "before", "best", "bestValue", "playedValue", "loss", "label"} {
		if _, ok := first[k]; !ok {
			t.Errorf("a decision has no %q: %v", k, first)
		}
	}
}

func TestAnalysisThatFailed(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id := e.create("easy", "easy")
	e.WaitOver(id)
	if err := e.Store.PutAnalysis(e.ctx, id, store.Analysis{Failed: "move 3 (bid 99): no such cheque"}); err != nil {
		t.Fatal(err)
	}
	resp, v := e.do("GET", "/api/games/"+id+"/analysis", "")
	if resp.StatusCode != http.StatusOK || v["status"] != "failed" || v["failed"] != "move 3 (bid 99): no such cheque" {
		t.Errorf("%d %v", resp.StatusCode, v)
	}
}

func TestAnalysisRefused(t *testing.T) {
	// The analysis of a game under way would advise its players: refused,
	// and asking changes nothing.
	e := newEnv(t, httpapi.Options{})
	playing := e.create("", "", "easy")
	_, tok := e.join(playing, "Ann")
	e.join(playing, "Bob")
	open := e.create("", "easy")
	resp, v := e.do("POST", "/api/records", `{"format":"razzia-record/1","players":["Ann","Bob"],"moves":["draw car","draw police","pass","pass"]}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %v", resp.StatusCode, v)
	}
	archived := v["game"].(map[string]any)["id"].(string)
	cases := []struct {
		name, id, token string
		status          int
		code            string
	}{
		{"playing", playing, "", http.StatusConflict, "game_in_progress"},
		{"playing, asked by a player", playing, tok, http.StatusConflict, "game_in_progress"},
		{"open", open, "", http.StatusConflict, "game_in_progress"},
		{"uploaded", archived, "", http.StatusConflict, "not_analysed"},
		{"unknown", "zzzzzzzzzz", "", http.StatusNotFound, "not_found"},
		{"malformed id", "..%2F..", "", http.StatusNotFound, "not_found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var header []string
			if c.token != "" {
				header = []string{"Authorization", "Bearer " + c.token}
			}
			resp, v := e.do("GET", "/api/games/"+c.id+"/analysis", "", header...)
			wantError(t, resp, v, c.status, c.code)
		})
	}
	if n := e.moves(playing); n != 0 {
		t.Errorf("the game under way has %v moves after the refusals, want 0", n)
	}
	if id, err := e.Store.ClaimAnalysis(e.ctx, "test", 1); err != nil || id != "" {
		t.Errorf("ClaimAnalysis = %q, %v: a refused request queued a game", id, err)
	}
}

// hints asks for hints with the token and decodes the answer.
func (e *env) hints(id, token string) (*http.Response, map[string]any) {
	e.t.Helper()
	var header []string
	if token != "" {
		header = []string{"Authorization", "Bearer " + token}
	}
	return e.do("POST", "/api/games/"+id+"/hints", "", header...)
}

func TestHints(t *testing.T) {
	e := newEnv(t, httpapi.Options{HintIterations: 200})
	id := e.create("", "")
	_, ann := e.join(id, "Ann")
	e.join(id, "Bob")
	resp, v := e.hints(id, ann)
	if resp.StatusCode != http.StatusOK || v["seat"] != 0.0 || v["moves"] != 0.0 {
		t.Fatalf("hints for Ann: %d %v", resp.StatusCode, v)
	}
	hints := v["hints"].([]any)
	if len(hints) == 0 || len(hints) > analysis.MaxHints {
		t.Fatalf("%d hints, want 1 to %d", len(hints), analysis.MaxHints)
	}
	last := 1.0
	for _, h := range hints {
		h := h.(map[string]any)
		w := h["winChance"].(float64)
		if h["move"] == "" || w < 0 || w > last {
			t.Errorf("hint %v: want a move and a win chance from 0 to 1, the best first", h)
		}
		last = w
	}
	// The same question, the same answer.
	if _, again := e.hints(id, ann); !equalJSON(t, again, v) {
		t.Errorf("asked again: %v, then %v", v, again)
	}
}

func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestHintsRefused(t *testing.T) {
	// Hints are for the seat to move at a casual table: anyone else is
	// refused with a clear error, and the game is as it was.
	e := newEnv(t, httpapi.Options{HintIterations: 50, HintBurst: 2, HintRate: 1e-6})
	id := e.create("", "")
	_, ann := e.join(id, "Ann")
	_, bob := e.join(id, "Bob")
	open := e.create("", "")
	_, early := e.join(open, "Cy")
	over := e.create("easy", "easy")
	e.WaitOver(over)
	cases := []struct {
		name, id, token string
		status          int
		code            string
	}{
		{"not your turn", id, bob, http.StatusConflict, "not_your_turn"},
		{"spectator", id, "", http.StatusConflict, "not_your_seat"},
		{"foreign token", id, early, http.StatusConflict, "not_your_seat"},
		{"table still open", open, early, http.StatusConflict, "not_started"},
		{"game over", over, "", http.StatusConflict, "not_your_seat"},
		{"unknown game", "zzzzzzzzzz", ann, http.StatusNotFound, "not_found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, v := e.hints(c.id, c.token)
			wantError(t, resp, v, c.status, c.code)
		})
	}
	if n := e.moves(id); n != 0 {
		t.Errorf("the game has %v moves after the refusals, want 0", n)
	}
	// Refusals cost the seat nothing; past its burst, it waits.
	for i := range 2 {
		if resp, v := e.hints(id, ann); resp.StatusCode != http.StatusOK {
			t.Fatalf("hint %d: %d %v", i+1, resp.StatusCode, v)
		}
	}
	resp, v := e.hints(id, ann)
	obj := wantError(t, resp, v, http.StatusTooManyRequests, "rate_limited")
	if obj["retryAfter"] == nil || resp.Header.Get("Retry-After") == "" {
		t.Errorf("rate_limited without a wait: %v", obj)
	}
}

// TestHintsRefusedAtRatedTable: a rated game is played without the
// engine's help, whoever asks and whenever.
func TestHintsRefusedAtRatedTable(t *testing.T) {
	e := newEnv(t, httpapi.Options{HintIterations: 50})
	c := e.Client()
	if _, err := c.Register(e.ctx, "Ann", goodPassword); err != nil {
		t.Fatal(err)
	}
	rated, _, err := c.CreateTable(e.ctx, rclient.Table{Seats: []string{"", "medium"}, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	_, token, err := c.Join(e.ctx, rated.ID, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	before := e.moves(rated.ID)
	resp, v := e.hints(rated.ID, token)
	wantError(t, resp, v, http.StatusForbidden, "rated_table")
	if after := e.moves(rated.ID); after < before {
		t.Errorf("the game went from %v moves to %v", before, after)
	}
}
