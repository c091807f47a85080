package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	rclient "github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/push"
	"github.com/razziagame/razzia/internal/push/pushtest"
	"github.com/razziagame/razzia/internal/servertest"
)

// pushServer starts a server with Web Push wired as razzia serve wires
// it, allowed to push to a local test push service, which it returns.
func pushServer(t *testing.T, opts notify.Options) (*servertest.Server, *pushtest.Service) {
	t.Helper()
	opts.Endpoints.Loopback = true
	return servertest.New(t, servertest.Options{Push: &opts}), pushtest.New(t)
}

// subscribe makes a browser's subscription at the push service with the
// server's key and posts it, in the language lang.
func (b *browser) subscribe(svc *pushtest.Service, lang string) *pushtest.Subscriber {
	b.t.Helper()
	var key protocol.PushKeyAnswer
	b.must(http.MethodGet, "/api/push/key", nil, &key)
	sub := svc.Subscribe(b.t, key.Key)
	var answer protocol.PushSubscriptionAnswer
	b.must(http.MethodPost, "/api/push/subscriptions", subscribeRequest(sub.Subscription(), lang), &answer)
	if answer.Endpoint != sub.Subscription().Endpoint || answer.Lang != lang {
		b.t.Fatalf("subscribed: %+v", answer)
	}
	return sub
}

func subscribeRequest(s push.Subscription, lang string) protocol.PushSubscribeRequest {
	return protocol.PushSubscribeRequest{Endpoint: s.Endpoint, Keys: protocol.PushKeys{P256dh: s.Keys.P256dh, Auth: s.Keys.Auth}, Lang: lang}
}

// signedInClient returns a protocol client signed in as name.
func signedInClient(t *testing.T, srv *servertest.Server, name string) *rclient.Client {
	t.Helper()
	c := srv.Client()
	if _, err := c.SignIn(servertest.Context(t), name, goodPassword); err != nil {
		t.Fatal(err)
	}
	return c
}

// delivery waits for the push service's next delivery.
func delivery(t *testing.T, svc *pushtest.Service) pushtest.Delivery {
	t.Helper()
	select {
	case d := <-svc.Deliveries():
		return d
	case r := <-svc.Refusals():
		t.Fatalf("the push service refused a push: %+v", r)
	case <-servertest.Context(t).Done():
		t.Fatal("no push came")
	}
	panic("unreachable")
}

// TestPushYourTurn: a signed-in player away from a live table (no
// connection) is pushed "your turn", in the language the page had, to a
// push service that checks the VAPID signature and decrypts the payload.
func TestPushYourTurn(t *testing.T) {
	srv, svc := pushServer(t, notify.Options{})
	b := newBrowser(t, srv)
	b.register("Ann")
	b.subscribe(svc, "de")
	c := signedInClient(t, srv, "Ann")
	ctx := servertest.Context(t)
	game, _, err := c.Create(ctx, []string{"", "easy"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Join(ctx, game.ID, "", 0); err != nil {
		t.Fatal(err)
	}
	d := delivery(t, svc)
	want := push.Notification{Title: "Du bist dran", Body: "Du bist am Tisch " + game.ID + " dran.", URL: "/g/" + game.ID}
	n := d.Notification
	if n.Title != want.Title || n.URL != want.URL || !strings.Contains(n.Body, game.ID) {
		t.Errorf("pushed %+v, want %+v", n, want)
	}
	if d.Subject != "mailto:ops@razzia.test" || d.Audience != svc.URL {
		t.Errorf("VAPID subject %q audience %q", d.Subject, d.Audience)
	}
}

// TestPushGameOverOnly: with turns switched off, a correspondence player
// (pushed whether or not the table is open) hears only that the game is
// over; one sender worker keeps the pushes in order, so a turn pushed
// would come first.
func TestPushGameOverOnly(t *testing.T) {
	srv, svc := pushServer(t, notify.Options{Workers: 1})
	b := newBrowser(t, srv)
	b.register("Ann")
	b.subscribe(svc, "en")
	var settings protocol.PushSettingsAnswer
	b.must(http.MethodPut, "/api/push/settings", protocol.PushSettings{GameOver: true, Reminder: true}, &settings)
	if settings.Settings != (protocol.PushSettings{GameOver: true, Reminder: true}) || settings.Devices != 1 {
		t.Fatalf("settings after PUT: %+v", settings)
	}
	c := signedInClient(t, srv, "Ann")
	game, _, err := c.CreateTable(servertest.Context(t), rclient.Table{Seats: []string{"", "easy"}, Pace: "day1"})
	if err != nil {
		t.Fatal(err)
	}
	servertest.PlayAll(t, c, game.ID)
	if n := delivery(t, svc).Notification; n.Title != "Game over" || n.URL != "/g/"+game.ID {
		t.Errorf("first push %+v, want the game over at /g/%s", n, game.ID)
	}
}

// TestPushHangingServiceDoesNotDelayMoves: a push service that never
// answers holds up no move: the whole correspondence game, a push at
// every turn, is played while the sender waits for an hour.
func TestPushHangingServiceDoesNotDelayMoves(t *testing.T) {
	srv, svc := pushServer(t, notify.Options{Timeout: time.Hour})
	b := newBrowser(t, srv)
	b.register("Ann")
	b.subscribe(svc, "en").Hang()
	c := signedInClient(t, srv, "Ann")
	game, _, err := c.CreateTable(servertest.Context(t), rclient.Table{Seats: []string{"", "easy"}, Pace: "day1"})
	if err != nil {
		t.Fatal(err)
	}
	servertest.PlayAll(t, c, game.ID)
	select {
	case <-svc.Hanging():
	case <-servertest.Context(t).Done():
		t.Fatal("no push reached the hanging service")
	}
}

// TestPushSubscriptionRefused: a subscription with a bad endpoint or
// keys is refused with bad_subscription and nothing is stored; one from
// a guest is unauthorized, one from another site's page forbidden.
func TestPushSubscriptionRefused(t *testing.T) {
	srv := servertest.New(t, servertest.Options{Push: &notify.Options{}}) // production policy: public https only
	svc := pushtest.New(t)
	b := newBrowser(t, srv)
	var key protocol.PushKeyAnswer
	b.must(http.MethodGet, "/api/push/key", nil, &key)
	good := svc.Subscribe(t, key.Key).Subscription()
	good.Endpoint = "https://push.example.org/send/abc"
	if status, code := b.call(http.MethodPost, "/api/push/subscriptions", subscribeRequest(good, "en"), nil); code != protocol.Unauthorized {
		t.Errorf("a guest's subscription: %d %s, want unauthorized", status, code)
	}
	b.register("Ann")
	for _, c := range []struct {
		name   string
		change func(s *push.Subscription)
	}{
		{"http endpoint", func(s *push.Subscription) { s.Endpoint = "http://push.example.org/send/abc" }},
		{"loopback endpoint", func(s *push.Subscription) { s.Endpoint = svc.URL + "/push/1" }},
		{"private address", func(s *push.Subscription) { s.Endpoint = "https://10.0.0.7/push" }},
		{"no endpoint", func(s *push.Subscription) { s.Endpoint = "" }},
		{"endpoint too long", func(s *push.Subscription) { s.Endpoint += strings.Repeat("a", push.MaxEndpoint) }},
		{"p256dh not a point", func(s *push.Subscription) { s.Keys.P256dh = "BAAA" }},
		{"p256dh not base64", func(s *push.Subscription) { s.Keys.P256dh = "not base64!" }},
		{"auth too short", func(s *push.Subscription) { s.Keys.Auth = "AAAA" }},
	} {
		s := good
		c.change(&s)
		if status, code := b.call(http.MethodPost, "/api/push/subscriptions", subscribeRequest(s, "en"), nil); code != protocol.BadSubscription || status != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400 bad_subscription", c.name, status, code)
		}
	}
	status, code := b.call(http.MethodPost, "/api/push/subscriptions", subscribeRequest(good, "en"), nil,
		"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if code != protocol.Forbidden {
		t.Errorf("another site's subscription: %d %s, want forbidden", status, code)
	}
	var settings protocol.PushSettingsAnswer
	b.must(http.MethodGet, "/api/push/settings", nil, &settings)
	if settings.Devices != 0 {
		t.Fatalf("%d subscriptions stored after refusals", settings.Devices)
	}
	// The good one is stored, in the language of the Accept-Language
	// header when the body names none, and removed again.
	req := subscribeRequest(good, "")
	var answer protocol.PushSubscriptionAnswer
	if status, code := b.call(http.MethodPost, "/api/push/subscriptions", req, &answer, "Accept-Language", "hu-HU,hu;q=0.9"); code != "" || status != http.StatusCreated || answer.Lang != "hu" {
		t.Fatalf("a good subscription: %d %s %+v", status, code, answer)
	}
	b.must(http.MethodGet, "/api/push/settings", nil, &settings)
	if settings.Devices != 1 || settings.Settings != (protocol.PushSettings{Turn: true, GameOver: true, Reminder: true}) {
		t.Fatalf("settings with one subscription: %+v", settings)
	}
	del := "/api/push/subscriptions?endpoint=" + url.QueryEscape(good.Endpoint)
	b.must(http.MethodDelete, del, nil, nil)
	if status, code := b.call(http.MethodDelete, del, nil, nil); code != protocol.NotFound {
		t.Errorf("deleting it again: %d %s, want not_found", status, code)
	}
}

// TestServiceWorker: /sw.js is served from the root, so that its scope
// is the whole site, as JavaScript.
func TestServiceWorker(t *testing.T) {
	srv := servertest.New(t, servertest.Options{})
	resp, err := http.Get(srv.URL + "/sw.js")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("GET /sw.js: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}
