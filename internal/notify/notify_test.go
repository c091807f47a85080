package notify_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/push"
	"github.com/razziagame/razzia/internal/push/pushtest"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/table"
)

// deletions is a memory store that tells of each subscription it removed.
type deletions struct {
	*memstore.Store
	deleted chan string
}

func (d deletions) DeletePushSubscription(ctx context.Context, account, endpoint string) (bool, error) {
	ok, err := d.Store.DeletePushSubscription(ctx, account, endpoint)
	if ok {
		d.deleted <- endpoint
	}
	return ok, err
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// start returns a running service of st that may push to loopback.
func start(t *testing.T, st store.Push, opts notify.Options) *notify.Service {
	t.Helper()
	opts.Subject, opts.Log, opts.Endpoints.Loopback = "mailto:ops@razzia.test", quiet(), true
	s, err := notify.New(t.Context(), st, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Start())
	return s
}

// subscribed subscribes a browser of "acct-ann" at a new test push
// service, in the language.
func subscribed(t *testing.T, s *notify.Service, lang string) (*pushtest.Service, *pushtest.Subscriber) {
	t.Helper()
	svc := pushtest.New(t)
	sub := svc.Subscribe(t, s.PublicKey())
	if _, err := s.Subscribe(t.Context(), "acct-ann", sub.Subscription(), lang); err != nil {
		t.Fatal(err)
	}
	return svc, sub
}

// withAccount stores the account "acct-ann" in st.
func withAccount(t *testing.T, st store.Store) {
	t.Helper()
	err := st.CreateAccount(t.Context(), &store.Account{ID: "acct-ann", Name: "Ann", Key: "ann",
		Handle: []byte("handle-of-ann"), SeatKey: []byte("seat-key-of-ann"), Rating: store.Rating{Mu: 25, Sigma: 8}})
	if err != nil {
		t.Fatal(err)
	}
}

func context10s(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestKeysKeptAcrossRestarts: the VAPID key pair made at the first start
// is the one every later start on the store uses. (That a store keeps
// the keys when it is reopened is storetest's PushKeysKept, on SQLite and
// PostgreSQL.)
func TestKeysKeptAcrossRestarts(t *testing.T) {
	st := memstore.New()
	var keys []string
	for range 2 {
		s, err := notify.New(t.Context(), st, notify.Options{Subject: "mailto:ops@razzia.test", Log: quiet()})
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, s.PublicKey())
	}
	if keys[0] == "" || keys[0] != keys[1] {
		t.Errorf("public keys of two starts: %q, %q; want one, kept", keys[0], keys[1])
	}
}

// TestGoneRemoved: a subscription the push service says is gone (410) is
// removed from the store.
func TestGoneRemoved(t *testing.T) {
	st := deletions{memstore.New(), make(chan string, 1)}
	withAccount(t, st)
	s := start(t, st, notify.Options{})
	_, sub := subscribed(t, s, "en")
	sub.Gone()
	s.Alert(table.Alert{Kind: table.AlertTurn, Game: "k3x7q2m5ab", Account: "acct-ann", Pace: pace.Correspondence})
	select {
	case e := <-st.deleted:
		if e != sub.Subscription().Endpoint {
			t.Errorf("removed %q", e)
		}
	case <-context10s(t).Done():
		t.Fatal("the gone subscription was not removed")
	}
	if subs, err := st.PushSubscriptions(t.Context(), "acct-ann"); err != nil || len(subs) != 0 {
		t.Errorf("subscriptions left: %v, %v", subs, err)
	}
}

// TestReminderPushed: a reminder reaches the browser in its language,
// with the time left.
func TestReminderPushed(t *testing.T) {
	st := memstore.New()
	withAccount(t, st)
	s := start(t, st, notify.Options{})
	svc, _ := subscribed(t, s, "nl-BE")
	s.Alert(table.Alert{Kind: table.AlertReminder, Game: "k3x7q2m5ab", Account: "acct-ann", Pace: pace.Correspondence,
		Watching: true, Left: 12 * time.Hour})
	select {
	case d := <-svc.Deliveries():
		if n := d.Notification; n.Title != "Herinnering: jouw zet" || n.URL != "/g/k3x7q2m5ab" || !strings.Contains(n.Body, "k3x7q2m5ab") {
			t.Errorf("pushed %+v", n)
		}
	case r := <-svc.Refusals():
		t.Fatalf("refused: %+v", r)
	case <-context10s(t).Done():
		t.Fatal("no reminder pushed")
	}
}

// TestAlertNeverBlocks: with the queue full and nothing sending, Alert
// still returns at once, dropping the alert.
func TestAlertNeverBlocks(t *testing.T) {
	st := memstore.New()
	s, err := notify.New(t.Context(), st, notify.Options{Subject: "mailto:ops@razzia.test", Log: quiet(), Queue: 1})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		s.Alert(table.Alert{Kind: table.AlertTurn, Account: "acct-ann", Pace: pace.Correspondence})
	}
}

// TestSubscribeChecks: Subscribe refuses a bad subscription with a
// *push.SubscriptionError naming the field, and stores nothing.
func TestSubscribeChecks(t *testing.T) {
	st := memstore.New()
	withAccount(t, st)
	s, err := notify.New(t.Context(), st, notify.Options{Subject: "mailto:ops@razzia.test", Log: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	good := pushtest.New(t).Subscribe(t, s.PublicKey()).Subscription() // on loopback: refused in production
	_, err = s.Subscribe(t.Context(), "acct-ann", good, "en")
	var se *push.SubscriptionError
	if !errors.As(err, &se) || se.Field != "endpoint" {
		t.Errorf("a loopback endpoint: %v, want a SubscriptionError of the endpoint", err)
	}
	if subs, _ := st.PushSubscriptions(t.Context(), "acct-ann"); len(subs) != 0 {
		t.Errorf("stored %v", subs)
	}
}

// TestAccountGone: each request for an account that is gone fails with
// ErrNoAccount, in the package's vocabulary and not the store's.
func TestAccountGone(t *testing.T) {
	st := memstore.New()
	s := start(t, st, notify.Options{})
	sub := pushtest.New(t).Subscribe(t, s.PublicKey()).Subscription()
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"Subscribe", func() error { _, err := s.Subscribe(t.Context(), "acct-gone", sub, "en"); return err }},
		{"Settings", func() error { _, _, err := s.Settings(t.Context(), "acct-gone"); return err }},
		{"SetSettings", func() error { return s.SetSettings(t.Context(), "acct-gone", notify.Settings{Turn: true}) }},
	} {
		err := c.call()
		if !errors.Is(err, notify.ErrNoAccount) || errors.Is(err, store.ErrNoAccount) {
			t.Errorf("%s: %v, want notify.ErrNoAccount only", c.name, err)
		}
	}
}

// TestSettingsKept: the settings an account sets are those it reads,
// with the number of browsers it subscribed.
func TestSettingsKept(t *testing.T) {
	st := memstore.New()
	withAccount(t, st)
	s := start(t, st, notify.Options{})
	subscribed(t, s, "en")
	want := notify.Settings{Turn: false, GameOver: true, Reminder: false}
	if err := s.SetSettings(t.Context(), "acct-ann", want); err != nil {
		t.Fatal(err)
	}
	got, devices, err := s.Settings(t.Context(), "acct-ann")
	if err != nil || got != want || devices != 1 {
		t.Errorf("Settings: %+v, %d devices, %v; want %+v, 1 device", got, devices, err, want)
	}
}
