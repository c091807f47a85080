package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/protocol"
)

// TestCancelAsksFirst creates a table from the lobby with a player
// seated: "Cancel the table" asks first and "Keep the table" keeps it;
// once cancelled, the page says the table is closed and offers only the
// way back (no chat, no record, no alerts).
func TestCancelAsksFirst(t *testing.T) {
	srv := newServer(t)
	p := newPage(t, srv, "Ann", 390, 844)
	id := p.createFromLobby("", "", "easy")
	p.join("Ann")
	status := func() string {
		var got struct {
			Game struct{ Status string } `json:"game"`
		}
		if code := srv.api(t, "GET", "/api/games/"+id, "", &got); code != http.StatusOK {
			return "gone"
		}
		return got.Game.Status
	}

	p.click("#cancel-table")
	waitFor[bool](p, "the question", `(() => { const q = document.querySelector("#cancel-confirm"); return !!q && !q.hidden; })()`, 5*time.Second)
	if s := status(); s != "open" {
		t.Fatalf("asking cancelled the table: status %s", s)
	}
	p.screenshot("cancel-ask-phone")
	p.click("#cancel-no")
	waitFor[bool](p, "the table kept", `document.querySelector("#cancel-confirm").hidden && !document.querySelector("#cancel-table").hidden`, 5*time.Second)
	if s := status(); s != "open" {
		t.Fatalf("keeping the table cancelled it: status %s", s)
	}

	p.click("#cancel-table")
	p.click("#cancel-yes")
	waitFor[bool](p, "the closed table", `!document.querySelector("#gone").hidden`, 5*time.Second)
	if s := status(); s == "open" {
		t.Fatalf("the table is still open after cancelling")
	}
	p.screenshot("cancel-done-phone")
	p.accessible("the cancelled table's page")
	shown := eval[[]string](p, `["#chat", "#alerts", ".game-links", "#waiting", "#rematch-line"].filter((s) => {
  const e = document.querySelector(s); return e && e.getClientRects().length > 0; })`)
	if len(shown) > 0 {
		t.Errorf("the closed table's page still shows %v", shown)
	}
	if h := p.text("#gone-h"); h != "This table is closed" {
		t.Errorf("the closed table's page is headed %q", h)
	}
	if n := eval[int](p, `[...document.querySelectorAll("main a, main button")].filter((e) => e.getClientRects().length > 0).length`); n != 1 {
		t.Errorf("the closed table's page offers %d links and buttons, want only the way back", n)
	}
}

// TestGiveUpSeat: a person seated at another's table that waits for
// players gives the seat up from the waiting room, after a question that
// can keep it (at 1440×900; the control is in sight at 390×844 too), and
// the seat is open for someone else, as the other seated person's page
// shows.
func TestGiveUpSeat(t *testing.T) {
	srv := newServer(t)
	id := srv.create(t, "", "", "", "easy")
	bob := newPage(t, srv, "Bob", desktop.w, desktop.h)
	bob.open("/g/" + id)
	seat := bob.join("Bob")
	cy := newPage(t, srv, "Cy", phone.w, phone.h)
	cy.resize(phone)
	cy.open("/g/" + id)
	cy.join("Cy")
	for _, p := range []*page{bob, cy} {
		p.do("scroll to the control", chromedp.ScrollIntoView(chromedp.CSS("#giveup-seat")))
		if !eval[bool](p, inView("#giveup-seat")) {
			p.fail("the button to give up the seat is not in sight")
		}
	}
	cy.screenshotViewport("giveup-offer-" + phone.String())
	seatOf := func(i int) string {
		var got protocol.SeatAnswer
		srv.api(t, "GET", "/api/games/"+id, "", &got)
		return got.Game.Seats[i].Name
	}

	bob.click("#giveup-seat")
	waitFor[bool](bob, "the question", shown("#giveup-confirm")+` && document.activeElement.id === "giveup-no"`, 5*time.Second)
	bob.screenshotViewport("giveup-ask-" + desktop.String())
	bob.accessible("the waiting room asking whether to give up the seat")
	if name := seatOf(seat); name != "Bob" {
		t.Fatalf("asking gave the seat up: it holds %q", name)
	}
	bob.click("#giveup-no")
	waitFor[bool](bob, "the seat kept", `document.querySelector("#giveup-confirm").hidden && !document.querySelector("#giveup-seat").hidden`, 5*time.Second)

	bob.click("#giveup-seat")
	bob.click("#giveup-yes")
	waitFor[bool](bob, "the join form again", shown("#join")+" && "+shown("#giveup-done")+` && !`+shown("#giveup-seat"), 10*time.Second)
	bob.screenshotViewport("giveup-done-" + desktop.String())
	if name := seatOf(seat); name != "" {
		t.Fatalf("the seat still holds %q after giving it up", name)
	}
	open := fmt.Sprintf(`#open-seats li.seat-open[data-seat="%d"]`, seat)
	waitFor[bool](cy, "the seat open on another's page", shown(open), 10*time.Second)
	if got, _ := srv.Join(id, "Dan"); got != seat {
		t.Fatalf("Dan took seat %d, want the one given up, %d", got, seat)
	}
	waitFor[bool](cy, "Dan in the seat", fmt.Sprintf(`(() => { const s = document.querySelector('#open-seats li[data-seat="%d"]'); return !!s && s.textContent.includes("Dan"); })()`, seat), 10*time.Second)
}
