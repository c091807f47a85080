package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// A member is an account registered from Go, with its session.
type member struct {
	name    string
	session string
	hc      *http.Client
}

// register makes an account called name and returns it signed in.
func register(t *testing.T, srv *server, name string) *member {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	m := &member{name: name, hc: &http.Client{Jar: jar}}
	m.call(t, srv, http.MethodPost, "/api/account", protocol.RegisterRequest{Name: name, Password: "correct horse battery staple"}, nil)
	u, _ := url.Parse(srv.URL)
	for _, c := range jar.Cookies(u) {
		if c.Name == "razzia_session" {
			m.session = c.Value
		}
	}
	if m.session == "" {
		t.Fatalf("%s has no session", name)
	}
	return m
}

// call sends a request as the member and decodes the answer into out.
func (m *member) call(t *testing.T, srv *server, method, path string, body, out any) {
	t.Helper()
	var r *strings.Reader
	if body == nil {
		body = struct{}{}
	}
	b, _ := json.Marshal(body)
	r = strings.NewReader(string(b))
	req, _ := http.NewRequest(method, srv.URL+path, r)
	req.Header.Set("Content-Type", "application/json")
	resp, err := m.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s %s: %d", m.name, method, path, resp.StatusCode)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// useSession gives the page the member's session, as signing in would.
func (p *page) useSession(m *member) {
	p.t.Helper()
	u, _ := url.Parse(p.srv.URL)
	p.do("the session cookie", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: "razzia_session", Value: m.session,
			Domain: u.Hostname(), Path: "/"})
		return err
	}))
}

// front brings the page's tab to the front, where the mouse acts.
func (p *page) front() {
	p.t.Helper()
	p.do("bring to front", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdppage.BringToFront, cdp.Empty{})
		return err
	}))
}

// playRound plays the members' seats of the last round seated, each its
// first legal move, until its games are over.
func playRound(t *testing.T, srv *server, members map[string]*member, v protocol.Tournament) {
	t.Helper()
	r := v.RoundsPlayed[len(v.RoundsPlayed)-1]
	var wg sync.WaitGroup
	for _, tb := range r.Tables {
		for _, s := range tb.Seats {
			m := members[s.Name]
			if m == nil {
				continue
			}
			se, err := srv.Accounts.Session(context.Background(), m.session)
			if err != nil {
				t.Fatal(err)
			}
			token := account.SeatToken(se.Account, tb.Game)
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := servertest.PlaySeat(servertest.Context(t), srv.Hub, tb.Game, token); err != nil {
					t.Errorf("%s at %s: %v", s.Name, tb.Game, err)
				}
			}()
		}
	}
	wg.Wait()
}

// tournament reads the tournament as a guest.
func (s *server) tournament(t *testing.T, id string) protocol.Tournament {
	t.Helper()
	var v protocol.Tournament
	if status := s.api(t, http.MethodGet, "/api/tournaments/"+id, "", &v); status != http.StatusOK {
		t.Fatalf("GET the tournament: %d", status)
	}
	return v
}

// TestTournamentPage: an organiser creates a Swiss tournament on the
// tournaments page, players join, the organiser starts it from its page,
// which follows the rounds live (the table to play, the standings, the
// countdown) to the podium; the lobby and the profiles list it. Every
// page passes axe at a desktop's and a phone's size.
func TestTournamentPage(t *testing.T) {
	srv := &server{servertest.New(t, servertest.Options{Page: true})}
	members := map[string]*member{}
	for _, n := range []string{"Ann", "Bea", "Cyril", "Dora", "Emmerich-Lang"} {
		members[n] = register(t, srv, n)
	}
	p := newPage(t, srv, "Ann", desktop.w, desktop.h)
	p.useSession(members["Ann"])
	p.open("/tournaments")
	waitFor[bool](p, "the form", shown("#create-form"), 10*time.Second)
	p.look("the tournaments page", "tournaments")
	p.setSelect("#t-name", "Tuesday club night")
	p.setSelect("#t-size", "3")
	p.setSelect("#t-rounds", "2")
	p.click(".tour-more summary")
	p.setSelect("#t-break", "0")
	p.click("#t-create")
	waitFor[bool](p, "the tournament's page", `location.pathname.startsWith("/t/") && `+shown("#tour-head"), 10*time.Second)
	id := strings.TrimPrefix(eval[string](p, "location.pathname"), "/t/")
	for _, n := range []string{"Ann", "Bea", "Cyril", "Dora", "Emmerich-Lang"} {
		if n == "Ann" {
			p.click(".tour-join button")
			continue
		}
		members[n].call(t, srv, http.MethodPost, "/api/tournaments/"+id+"/join", nil, nil)
	}
	waitFor[bool](p, "five players", `document.querySelectorAll("#people li").length === 5`, 10*time.Second)
	if !eval[bool](p, shown("#tour-organise")) {
		p.fail("the organiser sees no controls")
	}
	// Nobody is ranked before the start: the entrants, without figures.
	if got := eval[string](p, `[...document.querySelectorAll("#standings tr")].map((r) => r.cells[0].textContent + r.cells.length).join(" ")`); got != strings.Repeat("—2 ", 4)+"—2" {
		p.fail("before the start the standings' lines are %q (rank and cells), want five unranked entrants without figures", got)
	}
	if got := p.text("#standings-h"); got != "Players" || eval[bool](p, shown("#download-csv")) || eval[bool](p, shown("#tour-people")) {
		p.fail("before the start the list is headed %q, or offers results to download, or is there twice", got)
	}
	p.look("a tournament waiting", "tournament-waiting")
	p.resize(phone)
	p.do("scroll to the entrants", chromedp.Evaluate[chromedp.Void](`document.querySelector("#tour-standings").scrollIntoView()`))
	waitFor[bool](p, "the entrants in view on a phone", inView("#standings tr"), 5*time.Second)
	p.screenshotViewport("tournament-waiting-entrants-" + phone.String())
	p.resize(desktop)
	// The organiser's choice of whom to remove stays while the page
	// follows the tournament: Dora withdraws and comes back meanwhile.
	p.setSelect("#org-remove", "Cyril")
	members["Dora"].call(t, srv, http.MethodPost, "/api/tournaments/"+id+"/withdraw", nil, nil)
	waitFor[bool](p, "Dora withdrawn", `document.querySelector("#people").textContent.includes("(")`, 10*time.Second)
	members["Dora"].call(t, srv, http.MethodPost, "/api/tournaments/"+id+"/join", nil, nil)
	waitFor[bool](p, "Dora back", `!document.querySelector("#people").textContent.includes("(")`, 10*time.Second)
	if got := eval[string](p, `document.querySelector("#org-remove").value`); got != "Cyril" {
		p.fail("the player chosen to remove is %q after the page changed, want Cyril", got)
	}

	// The lobby lists it as coming.
	lobby := newPage(t, srv, "a guest", desktop.w, desktop.h)
	lobby.open("/")
	waitFor[bool](lobby, "the tournament in the lobby", `[...document.querySelectorAll("#tours-coming a")].some((a) => a.textContent === "Tuesday club night")`, 10*time.Second)
	if got := lobby.text("#tours-coming .tour-item"); !strings.Contains(got, "5 of 100 players") {
		lobby.fail("the lobby's tournament says %q, want its 5 players", got)
	}
	lobby.look("the lobby with a tournament coming", "lobby-tournaments")
	for _, s := range []size{desktop, phone} {
		lobby.resize(s)
		if !eval[bool](lobby, `(() => {
			const a = document.querySelector(".panel-tours").getBoundingClientRect();
			return [...document.querySelectorAll(".lobby > .panel, .lobby-side > .panel")].every((e) => {
				const b = e.getBoundingClientRect();
				return e.classList.contains("panel-tours") || b.height === 0 || a.bottom <= b.top || b.bottom <= a.top || a.right <= b.left || b.right <= a.left;
			});
		})()`) {
			lobby.fail("at %s the lobby's tournaments overlap another panel", s)
		}
	}
	lobby.resize(desktop)

	p.front()
	p.click("#org-actions button.primary") // Start now
	waitFor[bool](p, "the table to play", shown(".tour-play"), 15*time.Second)
	v := srv.tournament(t, id)
	if len(v.RoundsPlayed) != 1 || len(v.RoundsPlayed[0].Tables) != 2 {
		t.Fatalf("round 1: %+v", v.RoundsPlayed)
	}
	annsGame := ""
	for _, tb := range v.RoundsPlayed[0].Tables {
		for _, s := range tb.Seats {
			if s.Name == "Ann" {
				annsGame = tb.Game
			}
		}
	}
	if got := eval[string](p, `document.querySelector(".tour-play").getAttribute("href")`); got != "/g/"+annsGame {
		p.fail("the play link goes to %q, want Ann's table %s", got, annsGame)
	}
	p.look("round 1 under way", "tournament-round")
	// At her table, the way back to the tournament.
	table := newPage(t, srv, "Ann's table", desktop.w, desktop.h)
	table.useSession(members["Ann"])
	table.open("/g/" + annsGame)
	waitFor[bool](table, "the way back to the tournament", shown("#nav-tournament"), 10*time.Second)
	if got := eval[string](table, `document.querySelector("#nav-tournament").getAttribute("href")`); got != "/t/"+id {
		table.fail("the tournament link goes to %q", got)
	}
	playRound(t, srv, members, v)
	waitFor[bool](p, "round 2", `document.querySelectorAll(".tour-round").length === 2`, 15*time.Second)
	// Her next table is offered where she played the last.
	waitFor[bool](table, "the next table offered", shown("#tour-next a"), 15*time.Second)
	table.look("a tournament's table with the next one ready", "tournament-table-next")
	// The offer hides nothing of the game's end, read at that moment, at a
	// phone's size or a desktop's; itself in the viewport.
	for _, s := range []size{phone, desktop} {
		table.resize(s)
		table.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
		if covered := eval[[]string](table, `(() => { const o = document.querySelector("#tour-next").getBoundingClientRect();
  if (o.top < 0 || o.bottom > innerHeight) return ["the offer itself out of the viewport"];
  return ["#game-end-h", "#result .podium", "#game-end-actions", "#final-table"].filter((s) => { const e = document.querySelector(s), r = e && e.getBoundingClientRect();
    return !e || r.top < o.bottom - 1 && o.top < r.bottom - 1 && r.left < o.right - 1 && o.left < r.right - 1; }); })()`); len(covered) > 0 {
			table.fail("at %s the next table's offer covers %v", s, covered)
		}
	}
	if eval[bool](table, shown("#rematch")) {
		table.fail("a tournament's table offers a rematch beside the next table")
	}
	// The tournament's podium style stays on its page: the game's end keeps its own.
	if got := eval[string](table, `getComputedStyle(document.querySelector("#result .podium li")).borderTopStyle`); got != "none" {
		table.fail("the game's end list has a %s border: the tournament's podium style leaks into it", got)
	}
	v = srv.tournament(t, id)
	playRound(t, srv, members, v)
	waitFor[bool](p, "the podium", shown("#podium li"), 15*time.Second)
	if n := eval[int](p, `document.querySelectorAll("#standings tr").length`); n != 5 {
		p.fail("%d lines of standings, want 5", n)
	}
	if got := p.text("#standings-h"); got != "Standings" || !eval[bool](p, shown("#download-csv")) {
		p.fail("at the end the standings are headed %q, or offer no results to download", got)
	}
	p.look("a finished tournament", "tournament-finished")
	if !eval[bool](p, `document.querySelector("#podium li").getBoundingClientRect().width === document.querySelector("#podium").getBoundingClientRect().width`) {
		p.fail("the podium's places do not fill its width")
	}
	p.resize(phone)
	p.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
	waitFor[bool](p, "the podium in view on a phone", inView("#podium li"), 5*time.Second)
	p.resize(desktop)

	// A duplicate round: its deal shown once the round is over.
	var dup protocol.Tournament
	members["Ann"].call(t, srv, http.MethodPost, "/api/tournaments", protocol.TournamentSettings{Name: "Duplicate evening",
		Format: "duplicate", TableSize: 2, Rounds: 1, BreakSeconds: new(int)}, &dup)
	for _, n := range []string{"Ann", "Bea", "Cyril", "Dora"} {
		members[n].call(t, srv, http.MethodPost, "/api/tournaments/"+dup.ID+"/join", nil, nil)
	}
	members["Ann"].call(t, srv, http.MethodPost, "/api/tournaments/"+dup.ID+"/organise/start", nil, nil)
	p.open("/t/" + dup.ID)
	waitFor[bool](p, "the duplicate tables", `document.querySelectorAll(".tour-table").length === 2 && !document.querySelector("#rounds").textContent.includes("Being set up")`, 15*time.Second)
	// Ann plays hers; the other, with the same deal, is hidden from her.
	if got := eval[string](p, `document.querySelector("#rounds").textContent`); !strings.Contains(got, "Opens when the round is over") || !strings.Contains(got, "Play") {
		p.fail("the duplicate round shows %q while it is played", got)
	}
	playRound(t, srv, members, srv.tournament(t, dup.ID))
	waitFor[bool](p, "the deal revealed", shown(".tour-deal summary"), 15*time.Second)
	p.click(".tour-deal summary")
	p.look("a duplicate round over, its deal shown", "tournament-duplicate")

	// A club's private evening: what Bea types as its password stays,
	// focused, while others join, and lets her in.
	var club protocol.Tournament
	members["Ann"].call(t, srv, http.MethodPost, "/api/tournaments", protocol.TournamentSettings{Name: "Club evening",
		Format: "swiss", TableSize: 2, Password: "door code"}, &club)
	bea := newPage(t, srv, "Bea", phone.w, phone.h)
	bea.useSession(members["Bea"])
	bea.open("/t/" + club.ID)
	waitFor[bool](bea, "the password field", shown("#tour-password"), 10*time.Second)
	bea.do("focus the password", chromedp.Evaluate[chromedp.Void](`document.querySelector("#tour-password").focus()`))
	bea.setSelect("#tour-password", "door code")
	members["Cyril"].call(t, srv, http.MethodPost, "/api/tournaments/"+club.ID+"/join", map[string]string{"password": "door code"}, nil)
	waitFor[bool](bea, "Cyril in", `document.querySelectorAll("#people li").length === 1`, 10*time.Second)
	if !eval[bool](bea, `document.querySelector("#tour-password").value === "door code" && document.activeElement.id === "tour-password"`) {
		bea.fail("the password typed was lost, or its focus, when Cyril joined")
	}
	bea.click(".tour-join button")
	waitFor[bool](bea, "Bea in", `!document.querySelector(".tour-join") && document.querySelectorAll("#people li").length === 2`, 10*time.Second)

	// A player's profile lists it with their place.
	prof := newPage(t, srv, "a guest", phone.w, phone.h)
	prof.open("/p/Bea")
	waitFor[bool](prof, "the tournament on Bea's profile", `[...document.querySelectorAll("#tournaments a")].some((a) => a.textContent === "Tuesday club night")`, 10*time.Second)
	if !eval[bool](prof, shown(`.top-tools a[href="/tournaments"]`)) {
		prof.fail("a profile, which lists tournaments, has no way to the tournaments page")
	}
	for _, s := range []size{phone, narrow} {
		prof.resize(s)
		if !eval[bool](prof, `(() => {
			const tools = [...document.querySelectorAll(".top-tools > *")];
			return tools.every((e, i) => e.scrollWidth <= e.clientWidth + 1 && (i === 0 || (() => {
				const a = tools[i - 1].getBoundingClientRect(), b = e.getBoundingClientRect();
				return a.right <= b.left + 1 || a.bottom <= b.top + 1;
			})()));
		})()`) {
			prof.fail("at %s the profile's header tools overlap or overflow", s)
		}
	}
}
