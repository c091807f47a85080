package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// TestClockCountsDown opens a timed table (blitz: 10 s a decision and a
// minute of reserve) on a desktop and on a phone: the running clock shows
// in the player's strip, inside the screen, and counts down by itself
// between the server's messages.
func TestClockCountsDown(t *testing.T) {
	srv := newServer(t)
	for _, size := range []struct {
		name          string
		width, height int64
	}{{"desktop", 1440, 900}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			var created struct {
				Game struct{ ID string } `json:"game"`
			}
			if code := srv.api(t, "POST", "/api/games", `{"seats":[{"bot":""},{"bot":"easy"}],"pace":"blitz"}`, &created); code != http.StatusCreated {
				t.Fatalf("create: status %d", code)
			}
			p := newPage(t, srv, "Ann", size.width, size.height)
			p.open("/g/" + created.Game.ID)
			seat := p.join("Ann")
			waitForTurn(p)
			clock := fmt.Sprintf(`document.querySelector('#table [data-clock-seat="%d"]')`, seat)
			first := waitFor[string](p, "the running clock", `(() => { const c = `+clock+`;
  return c && c.classList.contains("clock-running") ? c.textContent : ""; })()`, 10*time.Second)
			visible := eval[bool](p, `(() => { const r = `+clock+`.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight; })()`)
			if !visible {
				t.Errorf("the running clock %q is not inside the %dx%d screen", first, size.width, size.height)
			}
			// No message comes while the player thinks: the page counts.
			next := waitFor[string](p, "the clock counting down", `(() => { const c = `+clock+`;
  return c && c.textContent !== `+fmt.Sprintf("%q", first)+` ? c.textContent : ""; })()`, 5*time.Second)
			t.Logf("%s: the clock went from %q to %q", size.name, first, next)
			p.screenshot("clock-" + size.name)
			if other := eval[string](p, fmt.Sprintf(`document.querySelector('#table [data-clock-seat="%d"]').textContent`, 1-seat)); other == "" {
				t.Errorf("the bot's seat shows no clock")
			}
		})
	}
}
