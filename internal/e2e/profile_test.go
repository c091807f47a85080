package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/store"
)

// TestProfileKinds: a player's profile counts their casual games as well
// as the rated ones, and the reader picks which the figures are made of;
// the choice stays in the address.
func TestProfileKinds(t *testing.T) {
	srv := newServer(t)
	ctx := t.Context()
	if _, err := srv.Client().Register(ctx, "Ann", "correct horse battery staple"); err != nil {
		t.Fatal(err)
	}
	acct, err := srv.Store.AccountByKey(ctx, playername.Key("Ann"))
	if err != nil {
		t.Fatal(err)
	}
	ann := store.Seat{Name: "Ann", Account: acct.ID}
	easy := store.Seat{Name: "Bot 2 (easy)", Bot: "easy"}
	score := func(n int) razzia.Score { var s razzia.Score; s[0] = n; return s }
	at := time.Now().Add(-time.Hour)
	for i, g := range []account.GameEnd{
		{Game: "casual0001", Seats: []store.Seat{ann, easy}},
		{Game: "casual0002", Seats: []store.Seat{easy, ann}},
		{Game: "rated00001", Rated: true, Seats: []store.Seat{ann, easy}},
	} {
		g.Scores, g.At = []razzia.Score{score(30), score(10)}, at.Add(time.Duration(i)*time.Minute)
		if err := srv.Accounts.Finished(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	p := newPage(t, srv, "reader", phone.w, phone.h)
	p.resize(phone)
	p.open("/p/Ann")
	const games = `(() => { const r = document.querySelector("#recent"); return r && r.children.length > 0 && !document.querySelector("#profile").hidden
  ? [document.querySelector("#games-all").textContent, document.querySelector("#games-rated").textContent, document.querySelector("#games-casual").textContent, String(r.querySelectorAll("li.game").length)].join("|") : ""; })()`
	if got := waitFor[string](p, "the profile", games, 10*time.Second); got != "All (3)|Rated (1)|Casual (2)|3" {
		t.Errorf("the profile shows %q, want All (3)|Rated (1)|Casual (2)|3 games listed", got)
	}
	p.accessible("a profile")
	p.click(`#games-filter input[value="casual"]`)
	waitFor[bool](p, "the casual games alone", `document.querySelectorAll("#recent li.game").length === 2 && location.search === "?games=casual"`, 5*time.Second)
	if played := p.text("#by-players"); played == "" || eval[int](p, `[...document.querySelectorAll("#by-players tr")].reduce((a, r) => a + Number(r.cells[1].textContent), 0)`) != 2 {
		t.Errorf("the casual games by table size: %q, want 2 played", played)
	}
	p.screenshot("profile-casual-" + phone.String())
	p.do("reload", chromedp.Reload())
	waitFor[bool](p, "the casual games after a reload", `document.querySelectorAll("#recent li.game").length === 2 && document.querySelector('#games-filter input[value="casual"]').checked`, 10*time.Second)
	p.click(`#games-filter input[value="rated"]`)
	waitFor[bool](p, "the rated game alone", `document.querySelectorAll("#recent li.game").length === 1`, 5*time.Second)
}
