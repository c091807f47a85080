package e2e

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/puzzle"
	"github.com/razziagame/razzia/internal/puzzler"
	"github.com/razziagame/razzia/internal/store"
)

var updatePuzzles = flag.Bool("puzzles.update", false, "make testdata/puzzlegame.json again: a bot game, its analysis and its puzzles")

// puzzleGame is a finished game with its analysis, from which the
// puzzles' tests find their puzzles: made once (-puzzles.update), since
// an analysis and a search for puzzles take a while.
type puzzleGame struct {
	Players []string        `json:"players"`
	Cheques [][]int         `json:"cheques"`
	Moves   []string        `json:"moves"`
	Report  json.RawMessage `json:"report"`
}

// puzzleSpec is the search the tests judge puzzles with: far below
// expert's, so that finding them takes a second.
var puzzleOptions = puzzle.Options{Spec: "mcts:iters=1500,rollout=auto", Seeds: 2}

func loadPuzzleGame(t *testing.T) puzzleGame {
	t.Helper()
	path := filepath.Join("testdata", "puzzlegame.json")
	if *updatePuzzles {
		names := []string{"Ann", "Bob", "Cy"}
		g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte("puzzles e2e")})
		if err != nil {
			t.Fatal(err)
		}
		var bots []bot.Bot
		for i, spec := range []string{"easy", "medium", "easy"} {
			b, err := bot.New(spec, uint64(i+1))
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
		rep, err := analysis.Analyze(context.Background(), g.Record(), analysis.Options{Iterations: 1500, Workers: 2, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		rec := g.Record()
		b, _ := json.Marshal(rep)
		pg := puzzleGame{Players: rec.Players, Cheques: rec.Cheques, Moves: rec.Moves, Report: b}
		out, _ := json.MarshalIndent(pg, "", " ")
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (make it with go test ./internal/e2e -run TestPuzzle -puzzles.update)", err)
	}
	var pg puzzleGame
	if err := json.Unmarshal(b, &pg); err != nil {
		t.Fatal(err)
	}
	return pg
}

// seedPuzzles stores the puzzle game in srv's store as game id, finished
// and analysed, and finds its puzzles; it returns them. account, when
// set, holds the first seat.
func seedPuzzles(t *testing.T, srv *server, id, account string) []protocol.PuzzleBrief {
	t.Helper()
	pg := loadPuzzleGame(t)
	ctx := t.Context()
	g := &store.Game{ID: id, Status: store.StatusFinished, Cheques: pg.Cheques, Moves: pg.Moves}
	if g.Cheques == nil {
		g.Cheques = razzia.ChequeSets(len(pg.Players)) // the record's nil: the rulebook's, in seat order
	}
	for i, name := range pg.Players {
		if i == 0 && account != "" {
			g.Seats = append(g.Seats, store.Seat{Name: name, Account: account, TokenHash: make([]byte, 32)})
			continue
		}
		g.Seats = append(g.Seats, store.Seat{Name: name, Bot: "easy"})
	}
	if err := srv.Store.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := srv.Store.PutAnalysis(ctx, id, store.Analysis{Report: pg.Report}); err != nil {
		t.Fatal(err)
	}
	n, err := puzzler.Scan(ctx, srv.Store, id, puzzleOptions, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n < 3 {
		t.Fatalf("%d puzzles found in the game: too few to test with", n)
	}
	var out protocol.GamePuzzles
	status, body := srv.fetch(t, "GET", "/api/games/"+id+"/puzzles", "")
	if err := json.Unmarshal(body, &out); status != 200 || err != nil || out.Status != protocol.AnalysisDone {
		t.Fatalf("the game's puzzles: status %d, %s", status, body)
	}
	return out.Puzzles
}

// TestPuzzleSolved solves puzzles in the page at a desktop's and a
// phone's size, as a signed-in solver and as a guest: the question is
// stated and the table's move buttons are in view; an answer brings the
// verdict into view, with the best move, every move's chance and, for
// the solver, the rating change; the next puzzle follows. Axe finds
// nothing serious on the page, before and after an answer.
func TestPuzzleSolved(t *testing.T) {
	srv := newServer(t)
	briefs := seedPuzzles(t, srv, "puzzlegame", "")
	for _, c := range []struct {
		name   string
		size   size
		signed bool
	}{{"desktop", desktop, true}, {"phone", phone, false}} {
		t.Run(c.name, func(t *testing.T) {
			p := newPage(t, srv, "solver-"+c.name, c.size.w, c.size.h)
			if c.size.phone {
				p.resize(c.size)
			}
			if c.signed {
				p.open("/account")
				status, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`fetch("/api/account", {method: "POST", headers: {"Content-Type": "application/json"},
  body: JSON.stringify({name: "Solver", password: "correct horse battery staple"})}).then((r) => r.status)`, chromedp.EvalAwaitPromise))
				if err != nil || status != 201 {
					t.Fatalf("registering: status %d, %v", status, err)
				}
			}
			p.open("/puzzles")
			waitFor[bool](p, "a puzzle's move buttons", shown("#table button[data-move]"), 15*time.Second)
			if q := p.text("#puzzle-q"); !strings.Contains(q, "?") {
				p.fail("the question reads %q", q)
			}
			for _, sel := range []string{"#puzzle-q", "#puzzle-theme"} {
				if !eval[bool](p, inView(sel)) {
					p.fail("%s is not in view", sel)
				}
			}
			p.screenshotViewport("puzzle-" + c.name)
			if !eval[bool](p, `[...document.querySelectorAll("#table button[data-move]")].some((b) => { const r = b.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })`) {
				p.fail("no move button is in view at first")
			}
			p.screenshotViewport("puzzle-" + c.name)
			p.accessible("the puzzle")
			id := eval[string](p, `location.pathname.split("/").pop()`)
			// The answer: the best move on the desktop, another on the phone.
			best := bestOf(t, srv, id)
			move := best
			if !c.signed {
				move = eval[string](p, fmt.Sprintf(`[...document.querySelectorAll("#table button[data-move]")].map((b) => b.dataset.move).find((m) => m !== %q) || ""`, best))
			}
			p.click(fmt.Sprintf(`#table button[data-move=%q]`, move))
			waitFor[bool](p, "the verdict", inView("#verdict-title"), 15*time.Second)
			title := p.text("#verdict-title")
			if c.signed != strings.Contains(title, "✓") {
				p.fail("answered %s (best %s): the verdict reads %q", move, best, title)
			}
			if rows := eval[int](p, `document.querySelectorAll(".move-row").length`); rows < 2 {
				p.fail("%d moves listed in the verdict", rows)
			}
			p.screenshotViewport("puzzle-" + c.name + "-verdict")
			if c.signed {
				if r := p.text("#verdict-rating"); !strings.Contains(r, "→") {
					p.fail("the rating change reads %q", r)
				}
				waitFor[bool](p, "the answer among the last puzzles", shown("#puzzle-recent")+` && document.querySelectorAll("#puzzle-recent-list li.is-right").length === 1`, 10*time.Second)
			}
			if eval[int](p, `document.querySelectorAll("#table button[data-move]").length`) != 0 {
				p.fail("the move buttons are still there after the answer")
			}
			p.accessible("the puzzle's verdict")
			p.click("#puzzle-next")
			waitFor[bool](p, "the next puzzle", fmt.Sprintf(`location.pathname !== "/puzzles/%s" && !!document.querySelector("#table button[data-move]")`, id), 15*time.Second)

			if c.signed {
				// The profile shows the puzzle rating.
				p.open("/p/Solver")
				waitFor[bool](p, "the puzzle rating on the profile", shown("#puzzle-rating-line"), 10*time.Second)
				if got := p.text("#puzzle-rating"); !strings.Contains(got, "1 solved of 1") || !strings.Contains(got, "?") {
					p.fail("the profile's puzzle rating reads %q", got)
				}
			}

			// An old link to a puzzle that is not there says so, and offers the next.
			p.open("/puzzles/nosuchgame-3")
			waitFor[bool](p, "the refusal", shown("#puzzle-error")+` && `+shown("#puzzle-next"), 15*time.Second)
			if msg := p.text("#puzzle-error"); !strings.Contains(msg, "no such puzzle") {
				p.fail("the refusal reads %q", msg)
			}
			p.click("#puzzle-next")
			waitFor[bool](p, "a puzzle after the refusal", shown("#table button[data-move]")+` && `+`!`+shown("#puzzle-error"), 15*time.Second)
		})
	}
	_ = briefs
}

// bestOf reads puzzle id's best move from the store.
func bestOf(t *testing.T, srv *server, id string) string {
	t.Helper()
	p, err := srv.Store.Puzzle(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Best
}

// TestPuzzleLearn: after a game, its mistakes are puzzles to learn from,
// one after the other; the replay tells each player's luck and play
// beside the win-chance chart, and the profile a player's averages and
// luckiest and unluckiest games.
func TestPuzzleLearn(t *testing.T) {
	srv := newServer(t)
	p := newPage(t, srv, "learner", desktop.w, desktop.h)
	p.open("/account")
	status, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`fetch("/api/account", {method: "POST", headers: {"Content-Type": "application/json"},
  body: JSON.stringify({name: "Ann", password: "correct horse battery staple"})}).then((r) => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != 201 {
		t.Fatalf("registering: status %d, %v", status, err)
	}
	acct, err := srv.Store.AccountByKey(t.Context(), playername.Key("Ann"))
	if err != nil {
		t.Fatal(err)
	}
	const id = "learngame2"
	briefs := seedPuzzles(t, srv, id, acct.ID)

	p.open("/puzzles?game=" + id)
	waitFor[bool](p, "the first mistake", shown("#table button[data-move]")+` && document.querySelector("#puzzle-learn").innerText.includes("1")`, 15*time.Second)
	if got, want := p.text("#puzzle-learn"), fmt.Sprintf("1 of %d", len(briefs)); !strings.Contains(got, want) {
		p.fail("the learning note reads %q, want %q", got, want)
	}
	first := eval[string](p, `location.pathname.split("/").pop()`)
	if first != briefs[0].ID {
		p.fail("the first puzzle is %s, want %s", first, briefs[0].ID)
	}
	p.click("#table button[data-move]")
	waitFor[bool](p, "the verdict", inView("#verdict-title"), 15*time.Second)
	if got := p.text("#puzzle-next"); !strings.Contains(got, "mistake") {
		p.fail("the next button reads %q, want the next mistake", got)
	}
	p.click("#puzzle-next")
	waitFor[bool](p, "the second mistake", fmt.Sprintf(`location.pathname.endsWith(%q) && !!document.querySelector("#table button[data-move]")`, briefs[1].ID), 15*time.Second)

	// A game not yet searched says it is coming; a game being played has
	// no puzzles, and says why.
	pg := loadPuzzleGame(t)
	if err := srv.Store.CreateGame(t.Context(), &store.Game{ID: "pendgamea2", Status: store.StatusFinished, Cheques: razzia.ChequeSets(3),
		Moves: pg.Moves, Seats: []store.Seat{{Name: "Ann", Bot: "easy"}, {Name: "Bob", Bot: "easy"}, {Name: "Cy", Bot: "easy"}}}); err != nil {
		t.Fatal(err)
	}
	p.open("/puzzles?game=pendgamea2&seat=0")
	waitFor[bool](p, "the note that the game is being searched", shown("#puzzle-learn")+` && document.querySelector("#puzzle-learn").innerText.includes("still looking")`, 15*time.Second)
	live := srv.Create("", "easy").ID
	p.open("/puzzles?game=" + live + "&seat=0")
	waitFor[bool](p, "the refusal of a game being played", shown("#puzzle-error"), 15*time.Second)
	if msg := p.text("#puzzle-error"); !strings.Contains(msg, "still being played") {
		p.fail("the refusal reads %q", msg)
	}

	p.open("/g/" + id + "/replay")
	waitFor[bool](p, "luck and play beside the chart", shown("#luck-list"), 15*time.Second)
	if n := eval[int](p, `document.querySelectorAll("#luck-list li").length`); n != 3 {
		p.fail("%d players' luck, want 3", n)
	}
	if line := p.text("#luck-list li"); !strings.Contains(line, "Ann: luck ") || !strings.Contains(line, "play ") {
		p.fail("the luck line reads %q", line)
	}
	if href := eval[string](p, `document.querySelector("#learn-link").getAttribute("href")`); href != "/puzzles?game="+id {
		p.fail("the replay's learning link goes to %q", href)
	}
	p.screenshotViewport("puzzle-replay-luck")
	// The mistakes that became puzzles link them.
	waitFor[bool](p, "a mistake linked to its puzzle", `document.querySelectorAll("#mistake-list .mistake-puzzle").length > 0`, 10*time.Second)
	for _, href := range eval[[]string](p, `[...document.querySelectorAll("#mistake-list .mistake-puzzle")].map((a) => a.getAttribute("href"))`) {
		if !slices.ContainsFunc(briefs, func(b protocol.PuzzleBrief) bool { return href == "/puzzles/"+b.ID }) {
			p.fail("a mistake links %q, which is none of the game's puzzles", href)
		}
	}
	p.resize(phone)
	p.do("scroll to the luck", chromedp.ScrollIntoView("#analysis-luck"))
	if !eval[bool](p, inView("#luck-list")) {
		p.fail("the luck line is not in view on a phone once scrolled to")
	}
	p.screenshotViewport("puzzle-replay-luck-phone")

	p.open("/p/Ann")
	waitFor[bool](p, "the profile's luck", shown("#luck-table"), 15*time.Second)
	if games := p.text("#luck-body"); !strings.Contains(games, "Analysed games: 1") {
		p.fail("the profile's luck reads %q", games)
	}
	if eval[int](p, `document.querySelectorAll("#luckiest li, #unluckiest li").length`) != 1 {
		p.fail("the game is neither among the luckiest nor the unluckiest")
	}
	p.do("scroll to the luck", chromedp.ScrollIntoView("#luck"))
	p.screenshotViewport("puzzle-profile-luck")
	p.accessible("the profile with luck")
}
