package push_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/push"
	"github.com/razziagame/razzia/internal/push/pushtest"
)

func TestGenerateKeys(t *testing.T) {
	a, err := push.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := push.GenerateKeys()
	if err := a.Check(); err != nil {
		t.Errorf("a new pair fails its check: %v", err)
	}
	if len(a.Public) != 87 || len(a.Private) != 43 || strings.ContainsAny(a.Public+a.Private, "+/=") {
		t.Errorf("keys not in unpadded base64url of 65 and 32 bytes: %+v", a)
	}
	if a == b {
		t.Error("two pairs are the same")
	}
	stored, _ := json.Marshal(a)
	var back push.Keys
	if err := json.Unmarshal(stored, &back); err != nil || back != a {
		t.Errorf("stored as %s, read back %+v, %v", stored, back, err)
	}
	for name, k := range map[string]push.Keys{
		"halves of two pairs":       {Public: a.Public, Private: b.Private},
		"no private key":            {Public: a.Public},
		"not base64url":             {Public: a.Public, Private: "!!!"},
		"a private key of 31 bytes": {Public: a.Public, Private: a.Private[:41]},
		"a zero private key":        {Public: a.Public, Private: strings.Repeat("A", 43)},
	} {
		if err := k.Check(); !errors.Is(err, push.ErrKeys) {
			t.Errorf("%s: Check = %v, want ErrKeys", name, err)
		}
	}
}

// browserJSON is a subscription as PushSubscription.toJSON writes it.
func browserJSON(endpoint, p256dh, auth string) []byte {
	return []byte(fmt.Sprintf(`{"endpoint":%q,"expirationTime":null,"keys":{"p256dh":%q,"auth":%q}}`, endpoint, p256dh, auth))
}

const (
	goodP256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
	goodAuth   = "BTBZMqHH6r4Tts7J_aSIgg"
	fcm        = "https://fcm.googleapis.com/fcm/send/dK3x:APA91b"
)

func TestParseSubscription(t *testing.T) {
	tests := []struct {
		name     string
		json     []byte
		loopback bool   // the test policy
		field    string // the field refused, or "ok"
	}{
		{"a browser's subscription", browserJSON(fcm, goodP256dh, goodAuth), false, "ok"},
		{"Mozilla's push service", browserJSON("https://updates.push.services.mozilla.com/wpush/v2/gAAAA", goodP256dh, goodAuth), false, "ok"},
		{"keys with padding", browserJSON(fcm, goodP256dh+"=", goodAuth+"=="), false, "ok"},
		{"a local test service under the test policy", browserJSON("http://127.0.0.1:4000/push/1", goodP256dh, goodAuth), true, "ok"},
		{"localhost under the test policy", browserJSON("http://localhost:4000/push/1", goodP256dh, goodAuth), true, "ok"},
		{"IPv6 loopback under the test policy", browserJSON("https://[::1]:4000/push/1", goodP256dh, goodAuth), true, "ok"},
		{"not JSON", []byte(`endpoint=x`), false, ""},
		{"no endpoint", browserJSON("", goodP256dh, goodAuth), false, "endpoint"},
		{"plain http", browserJSON("http://fcm.googleapis.com/fcm/send/x", goodP256dh, goodAuth), false, "endpoint"},
		{"plain http to a public host under the test policy", browserJSON("http://fcm.googleapis.com/fcm/send/x", goodP256dh, goodAuth), true, "endpoint"},
		{"another scheme", browserJSON("ftp://fcm.googleapis.com/x", goodP256dh, goodAuth), false, "endpoint"},
		{"a relative URL", browserJSON("/push/1", goodP256dh, goodAuth), false, "endpoint"},
		{"not a URL", browserJSON("https://exa mple.org/%zz", goodP256dh, goodAuth), false, "endpoint"},
		{"a user name", browserJSON("https://user:pw@fcm.googleapis.com/x", goodP256dh, goodAuth), false, "endpoint"},
		{"too long", browserJSON(fcm+strings.Repeat("a", push.MaxEndpoint), goodP256dh, goodAuth), false, "endpoint"},
		{"localhost in production", browserJSON("https://localhost/push/1", goodP256dh, goodAuth), false, "endpoint"},
		{"loopback in production", browserJSON("https://127.0.0.1/push/1", goodP256dh, goodAuth), false, "endpoint"},
		{"a private address", browserJSON("https://10.1.2.3/push", goodP256dh, goodAuth), false, "endpoint"},
		{"a home network address", browserJSON("https://192.168.1.1/push", goodP256dh, goodAuth), false, "endpoint"},
		{"the cloud metadata address", browserJSON("https://169.254.169.254/latest", goodP256dh, goodAuth), false, "endpoint"},
		{"a private IPv6 address", browserJSON("https://[fd00::1]/push", goodP256dh, goodAuth), false, "endpoint"},
		{"an IPv4-mapped loopback", browserJSON("https://[::ffff:127.0.0.1]/push", goodP256dh, goodAuth), false, "endpoint"},
		{"carrier-grade NAT", browserJSON("https://100.64.0.1/push", goodP256dh, goodAuth), false, "endpoint"},
		{"the unspecified address", browserJSON("https://0.0.0.0/push", goodP256dh, goodAuth), false, "endpoint"},
		{"p256dh not base64url", browserJSON(fcm, "not base64!", goodAuth), false, "p256dh"},
		{"p256dh a compressed point", browserJSON(fcm, "A"+goodP256dh[1:44], goodAuth), false, "p256dh"},
		{"p256dh not on the curve", browserJSON(fcm, goodP256dh[:80]+"AAAAAAA", goodAuth), false, "p256dh"},
		{"no p256dh", browserJSON(fcm, "", goodAuth), false, "p256dh"},
		{"auth of 15 bytes", browserJSON(fcm, goodP256dh, goodAuth[:20]), false, "auth"},
		{"auth not base64url", browserJSON(fcm, goodP256dh, "****"), false, "auth"},
		{"no auth", browserJSON(fcm, goodP256dh, ""), false, "auth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub, err := push.Endpoints{Loopback: tt.loopback}.Parse(tt.json)
			if tt.field == "ok" {
				if err != nil {
					t.Fatal(err)
				}
				if sub.Keys.P256dh != goodP256dh || sub.Keys.Auth != goodAuth {
					t.Errorf("keys not made canonical: %+v", sub.Keys)
				}
				return
			}
			var se *push.SubscriptionError
			if !errors.As(err, &se) || !errors.Is(err, push.ErrSubscription) || se.Field != tt.field {
				t.Fatalf("error %v, want a *SubscriptionError on %q", err, tt.field)
			}
			if sub != (push.Subscription{}) {
				t.Errorf("a refused subscription came back as %+v", sub)
			}
		})
	}
	if _, err := push.ParseSubscription(browserJSON("http://127.0.0.1:4000/push/1", goodP256dh, goodAuth)); err == nil {
		t.Error("ParseSubscription, the production policy, accepts a loopback endpoint")
	}
}

func FuzzParseSubscription(f *testing.F) {
	f.Add(browserJSON(fcm, goodP256dh, goodAuth))
	f.Add(browserJSON("http://[::1]:80/x", goodP256dh, goodAuth))
	f.Add([]byte(`{"endpoint":"https://a.b","keys":{}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, p := range []push.Endpoints{{}, {Loopback: true}} {
			sub, err := p.Parse(b)
			if err != nil {
				continue
			}
			again, err := p.Check(sub)
			if err != nil || again != sub {
				t.Fatalf("accepted %q, but not again: %v", b, err)
			}
		}
	})
}

func TestNotifications(t *testing.T) {
	en, _ := i18n.Lookup("en")
	hu, _ := i18n.Lookup("hu")
	const url = "/table/42"
	tests := []struct {
		name string
		n    push.Notification
		want push.Notification
	}{
		{"your turn", push.Turn(en, "Friday night", url), push.Notification{Title: "Your turn", Body: "It is your turn at table Friday night.", URL: url}},
		{"game over", push.GameOver(en, "Friday night", url), push.Notification{Title: "Game over", Body: "The game at table Friday night is over.", URL: url}},
		{"a reminder", push.Reminder(en, "Friday night", url, 12*time.Hour), push.Notification{Title: "Reminder: your move", Body: "Half of your time for this move at table Friday night has passed. Time left: 12 h.", URL: url}},
		{"in Hungarian", push.Turn(hu, "Péntek", url), push.Notification{Title: "Te következel", Body: "Te következel a(z) Péntek asztalnál.", URL: url}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tag := tt.n.Tag
			tt.n.Tag = ""
			if tt.n != tt.want {
				t.Errorf("got %+v\nwant %+v", tt.n, tt.want)
			}
			if tag != push.Turn(en, "x", url).Tag {
				t.Errorf("tag %q is not the table's: one notification per table", tag)
			}
		})
	}
	if push.Turn(en, "x", "/table/1").Tag == push.Turn(en, "x", "/table/2").Tag {
		t.Error("two tables share a tag")
	}
}

// newSender returns a sender to the local test service.
func newSender(t *testing.T, keys push.Keys, cfg push.Config) *push.Sender {
	t.Helper()
	cfg.Keys, cfg.Subject, cfg.Endpoints = keys, "mailto:ops@example.org", push.Endpoints{Loopback: true}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	s, err := push.NewSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustKeys(t *testing.T) push.Keys {
	t.Helper()
	k, err := push.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// next waits for one event on a channel, failing the test if it takes
// longer than a generous deadline (never a timing of what it waits for).
func next[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatal("nothing came in 30 s")
		panic("unreachable")
	}
}

func TestSendDelivered(t *testing.T) {
	svc := pushtest.New(t)
	keys := mustKeys(t)
	sub := svc.Subscribe(t, keys.Public)
	s := newSender(t, keys, push.Config{TTL: 36 * time.Hour})
	de, _ := i18n.Lookup("de")
	n := push.Turn(de, "Freitag", "/table/7")
	if err := s.Send(context.Background(), sub.Subscription(), n); err != nil {
		t.Fatal(err)
	}
	d := next(t, svc.Deliveries())
	if d.Notification != n {
		t.Errorf("the browser read %+v, want %+v", d.Notification, n)
	}
	if want, _ := json.Marshal(n); string(d.Payload) != string(want) {
		t.Errorf("payload %s, want %s", d.Payload, want)
	}
	if d.Notification.Body != "Du bist am Tisch Freitag an der Reihe." {
		t.Errorf("the body in German is %q", d.Notification.Body)
	}
	if d.Subject != "mailto:ops@example.org" || d.Audience != svc.URL || d.TTL != 36*3600 || d.Urgency != "high" || len(d.Topic) != 32 {
		t.Errorf("delivery headers and claims: %+v", d)
	}
	// A second notice for the same table has the same topic, so the push
	// service keeps only the newest.
	if err := s.Send(context.Background(), sub.Subscription(), push.GameOver(de, "Freitag", "/table/7")); err != nil {
		t.Fatal(err)
	}
	if d2 := next(t, svc.Deliveries()); d2.Topic != d.Topic {
		t.Errorf("topics %q and %q for one table", d.Topic, d2.Topic)
	}
}

func TestSendWrongKey(t *testing.T) {
	svc := pushtest.New(t)
	sub := svc.Subscribe(t, mustKeys(t).Public) // subscribed for another server
	s := newSender(t, mustKeys(t), push.Config{})
	err := s.Send(context.Background(), sub.Subscription(), push.Turn(i18n.Default(), "x", "/table/1"))
	var se *push.SendError
	if !errors.As(err, &se) || !errors.Is(err, push.ErrRejected) || se.Status != 403 {
		t.Fatalf("Send = %v, want ErrRejected with 403", err)
	}
	if r := next(t, svc.Refusals()); !strings.Contains(r.Reason, "VAPID key") {
		t.Errorf("the service refused for %q", r.Reason)
	}
	if strings.Contains(err.Error(), sub.Subscription().Endpoint) {
		t.Errorf("the error %q names the whole endpoint, which identifies the subscriber", err)
	}
}

func TestSendGone(t *testing.T) {
	svc := pushtest.New(t)
	keys := mustKeys(t)
	sub := svc.Subscribe(t, keys.Public)
	sub.Gone()
	s := newSender(t, keys, push.Config{})
	err := s.Send(context.Background(), sub.Subscription(), push.Turn(i18n.Default(), "x", "/table/1"))
	var se *push.SendError
	if !errors.As(err, &se) || !errors.Is(err, push.ErrGone) || se.Status != 410 {
		t.Fatalf("Send = %v, want ErrGone with 410", err)
	}
}

// Through the queue: a gone subscription is handed to the callback, a
// live one delivered.
func TestRunReportsGone(t *testing.T) {
	svc := pushtest.New(t)
	keys := mustKeys(t)
	live, gone := svc.Subscribe(t, keys.Public), svc.Subscribe(t, keys.Public)
	gone.Gone()
	removed := make(chan push.Subscription, 1)
	s := newSender(t, keys, push.Config{Gone: func(sub push.Subscription) { removed <- sub }})
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { s.Run(ctx); close(stopped) }()
	defer func() { cancel(); <-stopped }()

	n := push.Turn(i18n.Default(), "x", "/table/1")
	if !s.Enqueue(gone.Subscription(), n) || !s.Enqueue(live.Subscription(), n) {
		t.Fatal("Enqueue dropped with an empty queue")
	}
	if got := next(t, removed); got != gone.Subscription() {
		t.Errorf("reported gone: %+v, want %+v", got, gone.Subscription())
	}
	if d := next(t, svc.Deliveries()); d.Subscriber != live.ID {
		t.Errorf("delivered to %q, want %q", d.Subscriber, live.ID)
	}
}

// A push service that does not answer delays neither the caller of
// Enqueue nor a sender beyond its timeout.
func TestHangingService(t *testing.T) {
	svc := pushtest.New(t)
	keys := mustKeys(t)
	sub := svc.Subscribe(t, keys.Public)
	sub.Hang()
	n := push.Turn(i18n.Default(), "x", "/table/1")

	t.Run("Send returns at its timeout", func(t *testing.T) {
		const timeout = 300 * time.Millisecond
		s := newSender(t, keys, push.Config{Timeout: timeout})
		start := time.Now()
		err := s.Send(context.Background(), sub.Subscription(), n)
		if !errors.Is(err, push.ErrUnavailable) {
			t.Errorf("Send = %v, want ErrUnavailable", err)
		}
		if strings.Contains(err.Error(), sub.Subscription().Endpoint) {
			t.Errorf("the error %q names the whole endpoint, which identifies the subscriber", err)
		}
		// Generous: the point is that it returns at all, and not much later.
		if took := time.Since(start); took > timeout+10*time.Second {
			t.Errorf("Send took %v with a timeout of %v", took, timeout)
		}
		next(t, svc.Hanging())
	})
	t.Run("Enqueue never blocks; a full queue drops", func(t *testing.T) {
		s := newSender(t, keys, push.Config{Timeout: time.Hour, Queue: 2, Workers: 1})
		ctx, cancel := context.WithCancel(context.Background())
		stopped := make(chan struct{})
		go func() { s.Run(ctx); close(stopped) }()
		if !s.Enqueue(sub.Subscription(), n) {
			t.Fatal("the first notification was dropped")
		}
		next(t, svc.Hanging()) // the only worker is stuck on it
		if !s.Enqueue(sub.Subscription(), n) || !s.Enqueue(sub.Subscription(), n) {
			t.Error("dropped with room in the queue")
		}
		if s.Enqueue(sub.Subscription(), n) {
			t.Error("queued beyond the queue's size")
		}
		cancel() // the stuck send is cancelled with the sender
		<-stopped
	})
}

func TestSendRefusesBeforeConnecting(t *testing.T) {
	svc := pushtest.New(t)
	keys := mustKeys(t)
	sub := svc.Subscribe(t, keys.Public)
	production, err := push.NewSender(push.Config{Keys: keys, Subject: "https://razzia.example", Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := production.Send(context.Background(), sub.Subscription(), push.Turn(i18n.Default(), "x", "/t")); !errors.Is(err, push.ErrSubscription) {
		t.Errorf("a production sender posts to a loopback endpoint: %v", err)
	}
	big := push.Notification{Title: "x", Body: strings.Repeat("é", 2500), URL: "/t", Tag: "t"}
	test := newSender(t, keys, push.Config{})
	if err := test.Send(context.Background(), sub.Subscription(), big); err == nil {
		t.Error("a payload beyond one record was sent")
	}
	select {
	case d := <-svc.Deliveries():
		t.Errorf("delivered %+v", d)
	case r := <-svc.Refusals():
		t.Errorf("the service saw a request: %+v", r)
	default:
	}
}

func TestNewSenderRefused(t *testing.T) {
	keys := mustKeys(t)
	tests := []struct {
		name string
		cfg  push.Config
	}{
		{"no keys", push.Config{Subject: "mailto:ops@example.org"}},
		{"halves of two pairs", push.Config{Keys: push.Keys{Public: keys.Public, Private: mustKeys(t).Private}, Subject: "mailto:ops@example.org"}},
		{"no subject", push.Config{Keys: keys}},
		{"a bare address", push.Config{Keys: keys, Subject: "ops@example.org"}},
		{"mailto without an address", push.Config{Keys: keys, Subject: "mailto:"}},
		{"an http subject", push.Config{Keys: keys, Subject: "http://razzia.example"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := push.NewSender(tt.cfg); err == nil {
				t.Error("accepted")
			}
		})
	}
}

func ExampleTurn() {
	it, _ := i18n.Lookup("it")
	n := push.Turn(it, "Venerdì", "/table/7")
	fmt.Println(n.Title)
	fmt.Println(n.Body)
	// Output:
	// Tocca a te
	// Tocca a te al tavolo Venerdì.
}
