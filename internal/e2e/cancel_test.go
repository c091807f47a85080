package e2e

import (
	"net/http"
	"testing"
	"time"
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
