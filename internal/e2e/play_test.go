package e2e

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/protocol"
)

// tableState is what the table page's hooks say (docs: the ui spec's test
// hooks): the #table attributes and the move buttons on offer.
type tableState struct {
	Status  string   `json:"status"`
	Phase   string   `json:"phase"`
	Seat    int      `json:"seat"`
	ToMove  int      `json:"toMove"`
	Moves   int      `json:"moves"`
	Legal   []string `json:"legal"`   // data-move of the enabled, visible buttons
	Result  string   `json:"result"`  // the visible text of #result
	Message string   `json:"message"` // the text of #status-message
	Overlay int      `json:"overlay"` // the round whose end the overlay shows, or 0
	Row     int      `json:"row"`     // cards in the row
}

// stateJS reads the hooks in one round trip.
const stateJS = `(() => {
  const t = document.querySelector("#table");
  if (!t) return null;
  const visible = (e) => e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  const r = document.querySelector("#result");
  const m = document.querySelector("#status-message");
  return {
    status: t.dataset.status || "",
    phase: t.dataset.phase || "",
    seat: Number(t.dataset.seat ?? -1),
    toMove: Number(t.dataset.toMove ?? -1),
    moves: Number(t.dataset.moves ?? 0),
    legal: [...t.querySelectorAll("button[data-move]")].filter((b) => !b.disabled && visible(b)).map((b) => b.dataset.move),
    result: visible(r) ? r.innerText.trim() : "",
    message: m ? m.innerText.trim() : "",
    overlay: Number((document.querySelector("#round-end[aria-modal]") || { dataset: {} }).dataset.round || 0),
    row: document.querySelectorAll("#row .row-slot:not(.empty)").length,
  };
})()`

func (p *page) state() tableState {
	p.t.Helper()
	return eval[tableState](p, stateJS)
}

// choose is the players' simple policy: pass in an auction, draw on a
// turn, and bid the lowest cheque when the caller of a forced auction
// must bid. It never calls and never uses thieves.
func choose(legal []string) string {
	for _, want := range []string{"pass", "draw"} {
		if slices.Contains(legal, want) {
			return want
		}
	}
	for _, m := range legal {
		if strings.HasPrefix(m, "bid ") {
			return m
		}
	}
	return legal[0]
}

// move clicks the button of the move with the mouse and waits until the
// table has moved on (or the page reports an error).
func (p *page) move(st tableState, token string) {
	p.t.Helper()
	p.click(fmt.Sprintf(`#table button[data-move=%q]:not([disabled])`, token))
	waitFor[bool](p, fmt.Sprintf("the table to move on after %q", token),
		fmt.Sprintf(`(() => { const t = document.querySelector("#table"); return !!t && Number(t.dataset.moves) > %d; })()`, st.Moves),
		10*time.Second)
}

// play makes n moves for the page's seat (n < 0: to the end of the game),
// by the policy, going on after each round's end, and returns the last
// state.
func (p *page) play(n int) tableState {
	p.t.Helper()
	made := 0
	return p.playTo("the moves", func(st tableState) string { made++; return choose(st.Legal) },
		func(st tableState) bool { return n >= 0 && made >= n })
}

// playTo plays the page's seat, pick choosing each move, until done holds
// for the state shown (or the game is over), and returns that state. A
// round's end is gone on from, unless done holds for it. It fails when the
// game stalls: stall without a move of this seat.
func (p *page) playTo(what string, pick func(tableState) string, done func(tableState) bool) tableState {
	p.t.Helper()
	deadline := time.Now().Add(stall)
	for {
		st := p.state()
		if done(st) || st.Phase == "over" {
			return st
		}
		switch {
		case st.Overlay > 0:
			p.click("#round-continue")
			waitFor[bool](p, "the overlay to close", `!document.querySelector("#round-end[aria-modal]")`, 5*time.Second)
			deadline = time.Now().Add(stall)
			continue
		case st.Seat >= 0 && st.ToMove == st.Seat && len(st.Legal) > 0:
			p.move(st, pick(st))
			deadline = time.Now().Add(stall)
			continue
		}
		if time.Now().After(deadline) {
			p.fail("waiting for %s: nothing to do for %v", what, stall)
		}
		// The page redraws on every state message: wait for it to offer
		// this seat a move, to show a round's end, or the end.
		waitFor[bool](p, "a move offered, a round's end or the end", `(() => { const e = document.querySelector("#table");
  return !!e && (e.dataset.phase === "over" || !!document.querySelector("#round-end[aria-modal]") ||
    (e.dataset.seat !== "-1" && e.dataset.seat === e.dataset.toMove &&
    !!document.querySelector("#table button[data-move]:not([disabled])"))); })()`, time.Until(deadline))
	}
}

// playTogether plays the pages' seats against each other until the game
// is over: whichever page is to move moves. It fails when the game stalls:
// stall without a move.
func playTogether(t *testing.T, pages ...*page) {
	t.Helper()
	deadline := time.Now().Add(stall)
	for {
		over := 0
		moved := false
		for _, p := range pages {
			st := p.state()
			if st.Phase == "over" {
				over++
				continue
			}
			if st.Overlay > 0 {
				p.click("#round-continue")
				moved = true
				continue
			}
			if st.Seat >= 0 && st.ToMove == st.Seat && len(st.Legal) > 0 {
				p.move(st, choose(st.Legal))
				moved = true
			}
		}
		if over == len(pages) {
			return
		}
		if moved {
			deadline = time.Now().Add(stall)
		} else if time.Now().After(deadline) {
			t.Fatalf("the game stalled: no move for %v", stall)
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

var gamePath = regexp.MustCompile(`^/g/([a-z2-7]{10})$`)

// createFromLobby fills the lobby's form with the seats (N = 1.., "" open
// or a bot level), submits it and returns the new game's id once the
// table page shows.
func (p *page) createFromLobby(seats ...string) string {
	p.t.Helper()
	p.open("/")
	// The seats' choices come once the levels and the language have.
	waitFor[bool](p, "the lobby's form", `document.querySelectorAll('select[name="seat-2"] option').length > 1`, 10*time.Second)
	p.setSelect("#players", fmt.Sprint(len(seats)))
	for i, s := range seats {
		p.setSelect(fmt.Sprintf(`select[name="seat-%d"]`, i+1), s)
	}
	p.click("#create")
	path := waitFor[string](p, "the table page after creating", `/^\/g\/[a-z2-7]{10}$/.test(location.pathname) && location.pathname`, 10*time.Second)
	return gamePath.FindStringSubmatch(path)[1]
}

// join takes a seat through the table page's join form and waits for the
// seat's view.
func (p *page) join(name string) int {
	p.t.Helper()
	waitFor[bool](p, "the join form", `(() => { const b = document.querySelector("#join"); return !!b && b.getClientRects().length > 0; })()`, 10*time.Second)
	p.do("type a name", chromedp.SendKeys(chromedp.CSS("#join-name"), name))
	p.click("#join")
	return waitFor[int](p, "a seat after joining",
		`(() => { const t = document.querySelector("#table"); const s = t ? Number(t.dataset.seat) : -1; return s >= 0 ? s + 1 : 0; })()`,
		10*time.Second) - 1
}

// TestPlayWithBots creates a table with two bots from the lobby, takes the
// open seat and plays the whole game by clicking the move buttons.
func TestPlayWithBots(t *testing.T) {
	srv := newServer(t)
	p := newPage(t, srv, "Ann", 1280, 900)
	id := p.createFromLobby("", "easy", "medium")
	if seat := p.join("Ann"); seat != 0 {
		t.Fatalf("joined seat %d, want 0", seat)
	}
	st := p.play(-1)
	if st.Phase != "over" {
		t.Fatalf("the game did not end: %+v", st)
	}
	result := waitFor[string](p, "#result", `(() => { const r = document.querySelector("#result"); return r && r.getClientRects().length > 0 && r.innerText.trim(); })()`, 5*time.Second)

	var g protocol.SeatAnswer
	if code := srv.api(t, "GET", "/api/games/"+id, "", &g); code != http.StatusOK {
		t.Fatalf("GET the game: %d", code)
	}
	st = p.state()
	if g.Game.Status != protocol.StatusFinished || st.Status != "finished" || st.Moves != g.Game.Moves {
		t.Errorf("server: %s after %d moves; page: %+v", g.Game.Status, g.Game.Moves, st)
	}
	for _, w := range g.Game.Winners {
		if name := g.Game.Seats[w].Name; !strings.Contains(result, name) {
			t.Errorf("#result %q does not name the winner %q", result, name)
		}
	}
	if len(st.Legal) != 0 {
		t.Errorf("moves offered after the end: %v", st.Legal)
	}
}

// TestTwoPlayers: two people, each in their own browser (cookie jar), meet
// at one table through the invite link and play it to the end with a bot.
func TestTwoPlayers(t *testing.T) {
	srv := newServer(t)
	ann := newPage(t, srv, "Ann", 1280, 900)
	bob := newPage(t, srv, "Bob", 1280, 900)
	id := ann.createFromLobby("", "", "easy")
	annSeat := ann.join("Ann")
	invite := waitFor[string](ann, "#invite-link", `(() => { const e = document.querySelector("#invite-link"); return e && (e.value || e.href || e.textContent || "").trim(); })()`, 5*time.Second)
	if !strings.HasSuffix(invite, "/g/"+id) {
		t.Fatalf("#invite-link is %q, want the link of /g/%s", invite, id)
	}
	if !strings.HasPrefix(invite, "http") {
		invite = srv.URL + invite
	}
	bob.do("open the invite", chromedp.Navigate(invite))
	bobSeat := bob.join("Bob")
	if annSeat == bobSeat {
		t.Fatalf("both joined seat %d", annSeat)
	}
	// Each sees the other's name at the table.
	waitFor[bool](ann, "Bob's name at Ann's table", `document.querySelector("#table").innerText.includes("Bob")`, 5*time.Second)
	waitFor[bool](bob, "Ann's name at Bob's table", `document.querySelector("#table").innerText.includes("Ann")`, 5*time.Second)

	playTogether(t, ann, bob)
	a, b := ann.state(), bob.state()
	if a.Moves != b.Moves || a.Status != "finished" || b.Status != "finished" || a.Seat != annSeat || b.Seat != bobSeat {
		t.Errorf("at the end Ann sees %+v, Bob %+v", a, b)
	}
	for _, p := range []*page{ann, bob} {
		waitFor[bool](p, "#result", `(() => { const r = document.querySelector("#result"); return !!r && r.getClientRects().length > 0 && r.innerText.trim() !== ""; })()`, 5*time.Second)
	}
}

// TestReconnect reloads the page in the middle of a game: the cookie
// brings the seat back with the state as it was.
func TestReconnect(t *testing.T) {
	srv := newServer(t)
	id := srv.create(t, "", "easy")
	p := newPage(t, srv, "Ann", 1280, 900)
	p.open("/g/" + id)
	seat := p.join("Ann")
	p.play(4)
	// Wait for the turn: then the bots wait too, and nothing moves.
	before := waitForTurn(p)
	p.do("reload", chromedp.Reload())
	after := waitForTurn(p)
	if after.Seat != seat || after.Moves != before.Moves || after.Phase != before.Phase || !slices.Equal(after.Legal, before.Legal) {
		t.Errorf("before the reload %+v, after %+v", before, after)
	}
	if join := eval[bool](p, `(() => { const b = document.querySelector("#join"); return !!b && b.getClientRects().length > 0; })()`); join {
		t.Error("the join form shows again after the reload")
	}
	// The seat still plays.
	p.move(after, choose(after.Legal))
}

// waitForTurn waits until the page's seat is to move with moves offered.
func waitForTurn(p *page) tableState {
	p.t.Helper()
	waitFor[bool](p, "my turn", `(() => {
  const t = document.querySelector("#table");
  return !!t && t.dataset.seat !== "-1" && t.dataset.seat === t.dataset.toMove &&
    [...t.querySelectorAll("button[data-move]")].some((b) => !b.disabled);
})()`, 10*time.Second)
	return p.state()
}

// seated opens a table of a person and the bots on a desktop, with Ann
// in the first seat.
func seated(t *testing.T, bots ...string) *page {
	t.Helper()
	srv := newServer(t)
	id := srv.create(t, append([]string{""}, bots...)...)
	p := newPage(t, srv, "Ann", desktop.w, desktop.h)
	p.open("/g/" + id)
	p.join("Ann")
	return p
}

// create makes a table through the API and returns its id.
func (s *server) create(t *testing.T, seats ...string) string {
	t.Helper()
	return s.Create(seats...).ID
}
