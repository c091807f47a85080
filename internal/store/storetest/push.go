package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

func init() {
	checks = append(checks, []struct {
		name string
		run  func(t *testing.T, s store.Store)
	}{
		{"PushKeys", testPushKeys},
		{"PushSubscriptions", testPushSubscriptions},
		{"PushSubscriptionCap", testPushSubscriptionCap},
		{"PushSubscriptionMoves", testPushSubscriptionMoves},
		{"PushSubscriptionBad", testPushSubscriptionBad},
		{"PushSettings", testPushSettings},
		{"PushDeleteAccount", testPushDeleteAccount},
	}...)
}

var (
	keysA = store.VAPIDKeys{Public: "BPublicA", Private: "privateA"}
	keysB = store.VAPIDKeys{Public: "BPublicB", Private: "privateB"}
)

// newSubscription returns a subscription of the account at endpoint
// https://push.example/n, made age after base.
func newSubscription(account string, n int, age time.Duration) store.PushSubscription {
	return store.PushSubscription{
		Endpoint: fmt.Sprintf("https://push.example/%d", n),
		Account:  account,
		P256dh:   fmt.Sprintf("BKey%d", n),
		Auth:     fmt.Sprintf("auth%d", n),
		Lang:     "de",
		Created:  base.Add(age),
	}
}

func addSubscription(t *testing.T, s store.Store, p store.PushSubscription, max int) {
	t.Helper()
	if err := s.AddPushSubscription(ctx(t), p, max); err != nil {
		t.Fatalf("AddPushSubscription(%s): %v", p.Endpoint, err)
	}
}

// checkSubscriptions checks the account's subscriptions, by endpoint
// number, oldest first.
func checkSubscriptions(t *testing.T, s store.Store, account string, want ...store.PushSubscription) {
	t.Helper()
	got, err := s.PushSubscriptions(ctx(t), account)
	if err != nil {
		t.Fatalf("PushSubscriptions(%s): %v", account, err)
	}
	same := len(got) == len(want)
	for i := 0; same && i < len(got); i++ {
		g, w := got[i], want[i]
		same = g.Endpoint == w.Endpoint && g.Account == w.Account && g.P256dh == w.P256dh &&
			g.Auth == w.Auth && g.Lang == w.Lang && g.Created.Equal(w.Created)
	}
	if !same {
		t.Errorf("PushSubscriptions(%s) =\n\t%+v\nwant\n\t%+v", account, got, want)
	}
}

func testPushKeys(t *testing.T, s store.Store) {
	got, err := s.InitPushKeys(ctx(t), keysA)
	if err != nil || got != keysA {
		t.Fatalf("first InitPushKeys = %+v, %v; want the pair given", got, err)
	}
	if got, err := s.InitPushKeys(ctx(t), keysB); err != nil || got != keysA {
		t.Errorf("second InitPushKeys = %+v, %v; want the first pair, kept", got, err)
	}
	for _, bad := range []store.VAPIDKeys{{}, {Public: "x"}, {Private: "x"}} {
		if _, err := s.InitPushKeys(ctx(t), bad); err == nil {
			t.Errorf("InitPushKeys(%+v) succeeded", bad)
		}
	}
}

func testPushSubscriptions(t *testing.T, s store.Store) {
	ann, bo := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, ann)
	createAccount(t, s, bo)
	checkSubscriptions(t, s, ann.ID)
	a1, a2, b3 := newSubscription(ann.ID, 1, time.Hour), newSubscription(ann.ID, 2, time.Minute), newSubscription(bo.ID, 3, 0)
	a2.Lang = "hu"
	for _, p := range []store.PushSubscription{a1, a2, b3} {
		addSubscription(t, s, p, 10)
	}
	checkSubscriptions(t, s, ann.ID, a2, a1)
	checkSubscriptions(t, s, bo.ID, b3)

	// The same browser subscribes again with new keys: one subscription.
	a1.P256dh, a1.Auth, a1.Created = "BKeyNew", "authNew", base.Add(2*time.Hour)
	addSubscription(t, s, a1, 10)
	checkSubscriptions(t, s, ann.ID, a2, a1)

	// Another's endpoint is not removed in an account's name.
	if ok, err := s.DeletePushSubscription(ctx(t), ann.ID, b3.Endpoint); err != nil || ok {
		t.Errorf("DeletePushSubscription of another account's = %v, %v; want false", ok, err)
	}
	if ok, err := s.DeletePushSubscription(ctx(t), ann.ID, a2.Endpoint); err != nil || !ok {
		t.Errorf("DeletePushSubscription of one's own = %v, %v; want true", ok, err)
	}
	if ok, err := s.DeletePushSubscription(ctx(t), ann.ID, a2.Endpoint); err != nil || ok {
		t.Errorf("DeletePushSubscription again = %v, %v; want false", ok, err)
	}
	// A push service said it is gone: whoever's it is.
	if ok, err := s.DeletePushSubscription(ctx(t), "", b3.Endpoint); err != nil || !ok {
		t.Errorf("DeletePushSubscription of a gone one = %v, %v; want true", ok, err)
	}
	checkSubscriptions(t, s, ann.ID, a1)
	checkSubscriptions(t, s, bo.ID)

	if err := s.AddPushSubscription(ctx(t), newSubscription("nobody", 9, 0), 10); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("AddPushSubscription of no account: %v, want ErrNoAccount", err)
	}
}

// testPushSubscriptionCap: an account keeps its newest max subscriptions,
// the one added always among them.
func testPushSubscriptionCap(t *testing.T, s store.Store) {
	ann := newAccount("Ann", 1)
	createAccount(t, s, ann)
	var subs []store.PushSubscription
	for i := range 3 {
		subs = append(subs, newSubscription(ann.ID, i, time.Duration(i)*time.Minute))
		addSubscription(t, s, subs[i], 3)
	}
	checkSubscriptions(t, s, ann.ID, subs...)
	newest := newSubscription(ann.ID, 7, time.Hour)
	addSubscription(t, s, newest, 3)
	checkSubscriptions(t, s, ann.ID, subs[1], subs[2], newest)
	// One added with an older time than those kept still stays.
	old := newSubscription(ann.ID, 8, -time.Hour)
	addSubscription(t, s, old, 2)
	checkSubscriptions(t, s, ann.ID, old, newest)
	// Renewing a kept one removes nothing.
	newest.Auth = "renewed"
	addSubscription(t, s, newest, 2)
	checkSubscriptions(t, s, ann.ID, old, newest)
}

// testPushSubscriptionMoves: a browser whose endpoint another account
// subscribed (someone else signed in on it) now gets only that account's.
func testPushSubscriptionMoves(t *testing.T, s store.Store) {
	ann, bo := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, ann)
	createAccount(t, s, bo)
	p := newSubscription(ann.ID, 1, 0)
	addSubscription(t, s, p, 5)
	p.Account, p.Lang = bo.ID, "es"
	addSubscription(t, s, p, 5)
	checkSubscriptions(t, s, ann.ID)
	checkSubscriptions(t, s, bo.ID, p)
}

func testPushSubscriptionBad(t *testing.T, s store.Store) {
	ann := newAccount("Ann", 1)
	createAccount(t, s, ann)
	good := newSubscription(ann.ID, 1, 0)
	for name, change := range map[string]func(p *store.PushSubscription, max *int){
		"no endpoint":   func(p *store.PushSubscription, _ *int) { p.Endpoint = "" },
		"no account":    func(p *store.PushSubscription, _ *int) { p.Account = "" },
		"no p256dh":     func(p *store.PushSubscription, _ *int) { p.P256dh = "" },
		"no auth":       func(p *store.PushSubscription, _ *int) { p.Auth = "" },
		"a cap of none": func(_ *store.PushSubscription, max *int) { *max = 0 },
	} {
		p, max := good, 5
		change(&p, &max)
		if err := s.AddPushSubscription(ctx(t), p, max); err == nil {
			t.Errorf("%s: AddPushSubscription succeeded", name)
		}
	}
	checkSubscriptions(t, s, ann.ID)
}

func testPushSettings(t *testing.T, s store.Store) {
	ann, bo := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, ann)
	createAccount(t, s, bo)
	if got, err := s.PushSettings(ctx(t), ann.ID); err != nil || got != store.DefaultPushSettings {
		t.Errorf("PushSettings never set = %+v, %v; want %+v", got, err, store.DefaultPushSettings)
	}
	for _, p := range []store.PushSettings{{Turn: true}, {GameOver: true, Reminder: true}, {}, {Turn: true, Reminder: true}} {
		if err := s.SetPushSettings(ctx(t), ann.ID, p); err != nil {
			t.Fatalf("SetPushSettings(%+v): %v", p, err)
		}
		if got, err := s.PushSettings(ctx(t), ann.ID); err != nil || got != p {
			t.Errorf("PushSettings = %+v, %v; want %+v", got, err, p)
		}
	}
	if got, err := s.PushSettings(ctx(t), bo.ID); err != nil || got != store.DefaultPushSettings {
		t.Errorf("PushSettings of another = %+v, %v; want the defaults", got, err)
	}
	if _, err := s.PushSettings(ctx(t), "nobody"); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("PushSettings of no account: %v, want ErrNoAccount", err)
	}
	if err := s.SetPushSettings(ctx(t), "nobody", store.PushSettings{}); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("SetPushSettings of no account: %v, want ErrNoAccount", err)
	}
}

// testPushDeleteAccount: an account's subscriptions and settings go with it.
func testPushDeleteAccount(t *testing.T, s store.Store) {
	ann, bo := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, ann)
	createAccount(t, s, bo)
	addSubscription(t, s, newSubscription(ann.ID, 1, 0), 5)
	kept := newSubscription(bo.ID, 2, 0)
	addSubscription(t, s, kept, 5)
	if err := s.SetPushSettings(ctx(t), ann.ID, store.PushSettings{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteAccount(ctx(t), ann.ID, func(int) string { return "gone" }); err != nil {
		t.Fatal(err)
	}
	checkSubscriptions(t, s, ann.ID)
	checkSubscriptions(t, s, bo.ID, kept)
	// An account made again with the id starts afresh.
	createAccount(t, s, ann)
	if got, err := s.PushSettings(ctx(t), ann.ID); err != nil || got != store.DefaultPushSettings {
		t.Errorf("PushSettings of the account made again = %+v, %v; want the defaults", got, err)
	}
}

// PushKeysKept checks that the VAPID keys a store kept are those every
// later opening of it gets: open returns the store kept at one place each
// time, as a restarted server opens it.
func PushKeysKept(t *testing.T, open func(t *testing.T) store.Store) {
	s := open(t)
	first, err := s.InitPushKeys(ctx(t), keysA)
	if err != nil {
		t.Fatal(err)
	}
	ann := newAccount("Ann", 1)
	createAccount(t, s, ann)
	sub := newSubscription(ann.ID, 1, 0)
	addSubscription(t, s, sub, 5)
	if err := s.SetPushSettings(ctx(t), ann.ID, store.PushSettings{GameOver: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t)
	defer s.Close()
	if got, err := s.InitPushKeys(ctx(t), keysB); err != nil || got != first {
		t.Errorf("InitPushKeys after reopening = %+v, %v; want %+v", got, err, first)
	}
	checkSubscriptions(t, s, ann.ID, sub)
	if got, err := s.PushSettings(ctx(t), ann.ID); err != nil || got != (store.PushSettings{GameOver: true}) {
		t.Errorf("PushSettings after reopening = %+v, %v", got, err)
	}
}
