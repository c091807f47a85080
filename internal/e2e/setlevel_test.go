package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// TestSetLevelOnWaitingPage: the creator of a table still waiting for
// players sees a level choice beside each bot seat, within the viewport
// of a phone and of a desktop; choosing another level changes the bot at
// the server, and a spectator's page shows the new bot. Nobody else gets
// the choice.
func TestSetLevelOnWaitingPage(t *testing.T) {
	for _, size := range []struct {
		name          string
		width, height int64
	}{{"phone", 390, 844}, {"desktop", 1440, 900}} {
		t.Run(size.name, func(t *testing.T) {
			srv := newServer(t)
			p := newPage(t, srv, "Creator", size.width, size.height)
			id := p.createFromLobby("", "", "easy")
			const choice = `document.querySelector('select.seat-level[data-seat="2"]')`
			waitFor[bool](p, "the level choice of seat 3", `!!`+choice, 10*time.Second)
			inView := eval[bool](p, `(() => { const r = `+choice+`.getBoundingClientRect();
				return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })()`)
			if !inView {
				t.Errorf("the level choice is not within the %dx%d viewport", size.width, size.height)
			}
			if n := eval[int](p, `document.querySelectorAll('select.seat-level').length`); n != 1 {
				t.Errorf("%d level choices, want one: for the only bot", n)
			}
			p.screenshot(fmt.Sprintf("setlevel-%s", size.name))
			p.setSelect(`select.seat-level[data-seat="2"]`, "hard")
			var g protocol.SeatAnswer
			for deadline := time.Now().Add(10 * time.Second); ; {
				srv.api(t, "GET", "/api/games/"+id, "", &g)
				if g.Game.Seats[2].Bot == "hard" || time.Now().After(deadline) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if s := g.Game.Seats[2]; s.Bot != "hard" || s.Name != "Bot 3 (hard)" {
				t.Fatalf("seat 3 at the server: %+v, want the hard bot", s)
			}
			waitFor[bool](p, "the choice showing hard", choice+`.value === "hard" && !`+choice+`.disabled`, 10*time.Second)

			other := newPage(t, srv, "Spectator", size.width, size.height)
			other.open("/g/" + id)
			waitFor[bool](other, "the hard bot on a spectator's page", `document.querySelector("#open-seats").textContent.includes("Bot 3 (hard)")`, 10*time.Second)
			if n := eval[int](other, `document.querySelectorAll('select.seat-level').length`); n != 0 {
				t.Errorf("a spectator gets %d level choices, want none", n)
			}
		})
	}
}
