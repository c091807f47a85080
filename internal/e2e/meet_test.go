package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/meet"
	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/push"
	"github.com/razziagame/razzia/internal/push/pushtest"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/store/postgres"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// testClock is the clock of Play now and challenges in a test: it moves
// when the test says, so a wait for bots or a lapse takes no time.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newTestClock() *testClock { return &testClock{now: time.Now()} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// meetOptions are Play now's for a test: its clock, and a node that
// looks at the requests often.
func meetOptions(c *testClock) meet.Options {
	return meet.Options{Now: c.Now, Tick: 50 * time.Millisecond}
}

// playNow fills the lobby's Play-now form and sends it.
func (p *page) playNow(name, players, bots string) {
	p.t.Helper()
	waitFor[bool](p, "the Play-now form", shown("#playnow-submit")+` && document.querySelector("#playnow-pace option[value=blitz]") !== null`, 20*time.Second)
	if name != "" {
		p.setSelect("#playnow-name", name)
	}
	p.setSelect("#playnow-players", players)
	p.setSelect("#playnow-pace", "blitz")
	p.setSelect("#playnow-bots", bots)
	p.click("#playnow-submit")
}

// seatedAt waits until the page shows a table and returns its id and the
// page's seat there (-1: a spectator).
func (p *page) seatedAt(what string) (string, int) {
	p.t.Helper()
	id := waitFor[string](p, what, `location.pathname.startsWith("/g/") && location.pathname.slice(3)`, 20*time.Second)
	js := fmt.Sprintf(`fetch("/api/games/%s", {credentials: "same-origin"}).then((r) => r.json()).then((j) => j.you)`, id)
	you, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("reading the seat at %s: %v", id, err)
	}
	return id, you
}

// sameTable checks that the pages sit at one table, each at its own seat,
// and returns the table.
func sameTable(t *testing.T, what string, pages ...*page) string {
	t.Helper()
	var table string
	seats := map[int]string{}
	for _, p := range pages {
		id, seat := p.seatedAt(what)
		if table == "" {
			table = id
		}
		if id != table {
			t.Fatalf("%s: %s is at %s, the others at %s", what, p.name, id, table)
		}
		if seat < 0 || seats[seat] != "" {
			t.Fatalf("%s: %s is at seat %d (taken by %q)", what, p.name, seat, seats[seat])
		}
		seats[seat] = p.name
	}
	return table
}

// TestPlayNowNodes: three guests meet through Play now on two nodes
// sharing PostgreSQL: Ann's request on one node is joined with a click
// by Bob on the other, both are seated at once; then three ask for a
// table of three and sit at it; then two ask for three with bots after
// 15 seconds and are seated with a bot once that passed. The lobby with
// open requests is looked at, at a desktop's and a phone's size.
func TestPlayNowNodes(t *testing.T) {
	db := pgtest.NewCluster(t).DB(t)
	clock := newTestClock()
	var nodes []*server
	for range 2 {
		st, err := postgres.Open(t.Context(), db, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		nodes = append(nodes, &server{servertest.New(t, servertest.Options{Page: true, LevelBots: true, Meet: meetOptions(clock),
			Store: func(*memstore.Store) store.Store { return st }})})
	}
	ann := newPage(t, nodes[0], "Ann", desktop.w, desktop.h)
	bob := newPage(t, nodes[1], "Bob", desktop.w, desktop.h)
	cy := newPage(t, nodes[0], "Cy", desktop.w, desktop.h)

	// Two: Ann asks, Bob sees it on the other node and joins it.
	ann.open("/")
	ann.playNow("Ann", "2", "0")
	waitFor[bool](ann, "Ann's request waiting", shown("#seeks-mine .seek-open"), 20*time.Second)
	bob.open("/")
	waitFor[bool](bob, "Ann's request listed", `[...document.querySelectorAll("#seeks-open .seek")].some((e) => e.innerText.includes("Ann"))`, 20*time.Second)
	bob.setSelect("#playnow-name", "Bob")
	bob.click("#seeks-open .seek-join")
	two := sameTable(t, "the table of two", ann, bob)

	// A signed-in player's rated request, at another pace: listed, never
	// paired here.
	dora := nodes[1].Client()
	if _, err := dora.Register(t.Context(), "Dora", "correct horse battery staple"); err != nil {
		t.Fatal(err)
	}
	if _, err := dora.Seek(t.Context(), protocol.SeekRequest{Min: 3, Max: 5, Pace: "standard", Rated: true, RatingMin: 1100, RatingMax: 1900, BotsAfter: 120}); err != nil {
		t.Fatal(err)
	}

	// Three, each from the form: the last request seats all three.
	for i, p := range []*page{ann, bob, cy} {
		p.open("/")
		if i == 2 {
			waitFor[bool](p, "three open requests", `document.querySelectorAll("#seeks-open .seek").length === 3`, 20*time.Second)
			for _, s := range []size{desktop, phone} {
				p.resize(s)
				p.accessible("the lobby with open requests at " + s.String())
				p.screenshotViewport("lobby-playnow-" + s.String())
			}
			p.resize(narrow)
			p.noOverflow("the lobby with open requests", int(narrow.w))
			p.resize(desktop)
		}
		p.playNow(map[int]string{0: "", 1: "", 2: "Cy"}[i], "3", "0")
		if i < 2 {
			waitFor[bool](p, p.name+"'s request waiting", shown("#seeks-mine .seek-open"), 20*time.Second)
		}
	}
	three := sameTable(t, "the table of three", ann, bob, cy)
	if three == two {
		t.Fatal("the table of three is the table of two")
	}

	// Bots: two ask for three with bots after 15 s; the third seat is a
	// bot's once 15 s passed (by the test's clock).
	for _, p := range []*page{ann, cy} {
		p.open("/")
		p.playNow("", "3", "15")
		waitFor[bool](p, p.name+"'s request waiting", shown("#seeks-mine .seek-open"), 20*time.Second)
	}
	clock.add(15 * time.Second)
	withBot := sameTable(t, "the table with a bot", ann, cy)
	var g protocol.SeatAnswer
	nodes[1].api(t, "GET", "/api/games/"+withBot, "", &g)
	bots := 0
	for _, s := range g.Game.Seats {
		if s.Bot != "" {
			bots++
		}
	}
	if len(g.Game.Seats) != 3 || bots != 1 || g.Game.Status != protocol.StatusPlaying || g.Game.Pace == nil || g.Game.Pace.ID != "blitz" {
		t.Errorf("the table with a bot: %d seats, %d bots, %s, pace %+v", len(g.Game.Seats), bots, g.Game.Status, g.Game.Pace)
	}
}

// register makes an account in the page's browser and signs it in.
func (p *page) register(name string) {
	p.t.Helper()
	p.postAccount("/api/account", name, 201)
}

// signIn signs the page's browser in to an account made before.
func (p *page) signIn(name string) {
	p.t.Helper()
	p.postAccount("/api/session", name, 200)
}

// postAccount sends the name and the tests' password to path from the
// page, as its account forms do, and wants the status.
func (p *page) postAccount(path, name string, want int) {
	p.t.Helper()
	js := fmt.Sprintf(`fetch(%q, {method: "POST", headers: {"Content-Type": "application/json"},
  body: JSON.stringify({name: %q, password: "correct horse battery staple"})}).then((r) => r.status)`, path, name)
	status, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](js, chromedp.EvalAwaitPromise))
	if err != nil || status != want {
		p.fail("%s as %s: %d %v", path, name, status, err)
	}
}

// TestChallengeLive: Ann challenges Bob from the lobby; the challenge
// shows at once on the table page Bob has open in another browser, and
// in the push service his browser subscribed to. Declined with a reason,
// Ann's lobby says so; a second challenge lapses unanswered (by the
// test's clock) and both pages drop it; a third, its notice hidden and
// accepted from Bob's lobby, seats both at a table, which both pages
// open.
func TestChallengeLive(t *testing.T) {
	clock := newTestClock()
	srv := &server{servertest.New(t, servertest.Options{Page: true, LevelBots: true, Meet: meetOptions(clock),
		Push: &notify.Options{Endpoints: push.Endpoints{Loopback: true}}})}
	svc := pushtest.New(t)
	sub := svc.Subscribe(t, srv.Push.PublicKey())
	fake, err := json.Marshal(sub.Subscription())
	if err != nil {
		t.Fatal(err)
	}
	ann := newPage(t, srv, "Ann", desktop.w, desktop.h)
	bob := newPage(t, srv, "Bob", phone.w, phone.h)
	ann.open("/")
	ann.register("Ann")
	bob.open("/")
	bob.register("Bob")
	// Bob turns push on for his browser (the test push service stands in
	// for the browser vendor's).
	bob.do("fake the push manager", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument,
			cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(fakePushManager, fake)})
		return err
	}))
	bob.open("/account/push")
	waitFor[bool](bob, "the push settings", shown("#push-enable")+` && document.querySelector("#push-devices").textContent !== ""`, 20*time.Second)
	bob.click("#push-enable")
	waitFor[bool](bob, "push on", shown("#push-disable"), 20*time.Second)

	// Bob is at a table, not the lobby.
	game := srv.create(t, "", "easy")
	bob.open("/g/" + game)
	waitFor[bool](bob, "the table page", `document.querySelector("#table") !== null`, 20*time.Second)

	// The later challenges come from the lobby's online list, where Bob
	// is listed at his table with a button that fills the form in.
	challenge := func() {
		ann.open("/")
		button := `#online-list .person[data-name="Bob"] .person-challenge`
		waitFor[bool](ann, "Bob's challenge button in the online list", shown(button), 20*time.Second)
		ann.click(button)
		waitFor[bool](ann, "the form filled in", shown("#challenge-form")+` && document.querySelector("#challenge-to").value === "Bob"`, 20*time.Second)
		ann.setSelect("#challenge-pace", "rapid")
		ann.click("#challenge-submit")
		waitFor[bool](ann, "the challenge listed", shown("#challenges-list .challenge-open"), 20*time.Second)
	}
	toast := `document.querySelector("#meet-toasts .meet-toast-in")`

	// Declined, with a reason. The first challenge comes from Bob's
	// profile, whose button fills the lobby's form in.
	ann.open("/p/Bob")
	waitFor[bool](ann, "the profile's challenge button", shown("#challenge-link"), 20*time.Second)
	ann.click("#challenge-link")
	waitFor[bool](ann, "the form filled in", shown("#challenge-form")+` && document.querySelector("#challenge-to").value === "Bob"`, 20*time.Second)
	ann.setSelect("#challenge-pace", "rapid")
	ann.click("#challenge-submit")
	waitFor[bool](ann, "the challenge listed", shown("#challenges-list .challenge-open"), 20*time.Second)
	waitFor[bool](bob, "the challenge on Bob's table page", shown("#meet-toasts .meet-toast-in"), 20*time.Second)
	if text := bob.text("#meet-toasts"); !strings.Contains(text, "Ann") {
		t.Errorf("Bob's notice: %q", text)
	}
	if n := delivery(t, svc).Notification; n.Title != "Ann challenges you" || n.URL != notify.ChallengePath(eval[string](bob, toast+`.dataset.challenge`)) {
		t.Errorf("pushed %+v", n)
	}
	bob.accessible("the challenge's notice on a table page")
	bob.screenshotViewport("challenge-notice-" + phone.String())
	bob.setSelect("#meet-toasts .challenge-reason", "later")
	bob.click("#meet-toasts .challenge-decline")
	waitFor[bool](bob, "the notice gone", `!document.querySelector("#meet-toasts .meet-toast-in")`, 20*time.Second)
	waitFor[bool](ann, "the decline in Ann's lobby", shown("#challenges-list .challenge-declined"), 20*time.Second)
	if text := ann.text("#challenges-list .challenge-declined"); !strings.Contains(text, "Not now, later") {
		t.Errorf("Ann's list says %q", text)
	}
	ann.do("scroll to the challenges", chromedp.ScrollIntoView("#requests"))
	ann.screenshotViewport("lobby-challenges-" + desktop.String())

	// Lapsed: a rapid challenge waits a minute.
	challenge()
	waitFor[bool](bob, "the second challenge", shown("#meet-toasts .meet-toast-in"), 20*time.Second)
	delivery(t, svc)
	clock.add(time.Minute)
	waitFor[bool](bob, "the lapsed challenge gone", `!document.querySelector("#meet-toasts .meet-toast-in")`, 20*time.Second)
	waitFor[bool](ann, "the lapse in Ann's lobby", shown("#challenges-list .challenge-lapsed"), 20*time.Second)

	// Accepted, from the lobby after the notice was hidden: both open the
	// table.
	challenge()
	waitFor[bool](bob, "the third challenge", shown("#meet-toasts .meet-toast-in"), 20*time.Second)
	delivery(t, svc)
	bob.click("#meet-toasts .challenge-hide")
	waitFor[bool](bob, "the notice hidden", `!document.querySelector("#meet-toasts .meet-toast-in")`, 20*time.Second)
	bob.open("/")
	waitFor[bool](bob, "the challenge in Bob's lobby", shown("#challenges-list .challenge-open .challenge-answers"), 20*time.Second)
	bob.click("#challenges-list .challenge-open .challenge-answers button.primary")
	sameTable(t, "the challenge's table", ann, bob)
}

// delivery waits for the push service's next delivery.
func delivery(t *testing.T, svc *pushtest.Service) pushtest.Delivery {
	t.Helper()
	select {
	case d := <-svc.Deliveries():
		return d
	case r := <-svc.Refusals():
		t.Fatalf("the push service refused a push: %+v", r)
	case <-time.After(20 * time.Second):
		t.Fatal("no push came")
	}
	panic("unreachable")
}
