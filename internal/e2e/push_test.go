package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/razziagame/razzia/internal/notify"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/push"
	"github.com/razziagame/razzia/internal/push/pushtest"
	"github.com/razziagame/razzia/internal/servertest"
	"github.com/razziagame/razzia/internal/table"
)

// fakePushManager stands in for the parts of the browser a headless
// Chromium cannot do here: the notification permission prompt (nobody
// clicks it) and the browser vendor's push service (PushManager.subscribe
// would register with it over the Internet). subscribe hands the page a
// subscription of the local test push service, made with the key the page
// passes, and keeps it in localStorage as a browser keeps its own. The
// service worker is registered for real.
const fakePushManager = `(() => {
  const fake = %s;
  const KEY = "test.pushsub";
  const make = (key) => ({
    endpoint: fake.endpoint,
    options: { applicationServerKey: key },
    toJSON: () => ({ endpoint: fake.endpoint, expirationTime: null, keys: fake.keys }),
    unsubscribe: async () => { localStorage.removeItem(KEY); return true; },
  });
  Object.defineProperty(Notification, "permission", { get: () => "granted" });
  Notification.requestPermission = async () => "granted";
  PushManager.prototype.getSubscription = async function () {
    const key = localStorage.getItem(KEY);
    return key === null ? null : make(Uint8Array.from(JSON.parse(key)).buffer);
  };
  PushManager.prototype.subscribe = async function (opts) {
    const key = new Uint8Array(opts.applicationServerKey);
    localStorage.setItem(KEY, JSON.stringify(Array.from(key)));
    return make(key.buffer);
  };
})();`

// TestPushSettingsPage: a guest is told that push needs an account; a
// signed-in player turns push on for the device (the service worker
// registered, the subscription made with the server's key and posted: the
// server then pushes to it, and the test push service decrypts it),
// switches a kind off (kept across a reload) and turns push off again. The
// page passes axe at a desktop's and a phone's size.
func TestPushSettingsPage(t *testing.T) {
	srv := &server{servertest.New(t, servertest.Options{Page: true, LevelBots: true,
		Push: &notify.Options{Endpoints: push.Endpoints{Loopback: true}}})}
	svc := pushtest.New(t)
	sub := svc.Subscribe(t, srv.Push.PublicKey())
	fake, err := json.Marshal(sub.Subscription())
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t, srv, "Ann", desktop.w, desktop.h)
	p.do("fake the push manager", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument,
			cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(fakePushManager, fake)})
		return err
	}))

	p.open("/account/push")
	waitFor[bool](p, "the guest's notice", shown("#push-guest"), 10*time.Second)
	if eval[bool](p, shown("#push-settings")) {
		p.fail("a guest sees the push settings")
	}
	p.look("the push page of a guest", "push-guest")

	p.open("/account")
	p.signedOut()
	p.setSelect("#register-name", "Ann")
	p.setSelect("#register-password", "correct horse battery staple")
	p.click("#register")
	p.signedIn("Ann")
	p.click("#me-push")
	waitFor[bool](p, "the push settings", shown("#push-enable")+` && document.querySelector("#push-devices").textContent !== ""`, 10*time.Second)
	for _, id := range []string{"#push-turn", "#push-gameover", "#push-reminder"} {
		if !eval[bool](p, `document.querySelector("`+id+`").checked`) {
			p.fail("%s is off before the player chose", id)
		}
	}

	p.click("#push-enable")
	waitFor[bool](p, "push on", shown("#push-disable"), 10*time.Second)
	if msg := p.text("#push-error"); msg != "" {
		p.fail("turning push on: %s", msg)
	}
	registered, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](
		`navigator.serviceWorker.getRegistration("/").then((r) => !!r && (r.active || r.installing || r.waiting).scriptURL.endsWith("/sw.js"))`,
		chromedp.EvalAwaitPromise))
	if err != nil || !registered {
		p.fail("no service worker of /sw.js registered (%v)", err)
	}
	ann, err := srv.Store.AccountByKey(t.Context(), playername.Key("Ann"))
	if err != nil {
		t.Fatal(err)
	}
	stored, err := srv.Store.PushSubscriptions(t.Context(), ann.ID)
	if err != nil || len(stored) != 1 || stored[0].Endpoint != sub.Subscription().Endpoint || stored[0].Lang != "en" {
		t.Fatalf("stored subscriptions %+v (%v), want the page's", stored, err)
	}
	srv.Push.Alert(table.Alert{Kind: table.AlertTurn, Game: "k3x7q2m5ab", Account: ann.ID, Pace: pace.Correspondence})
	select {
	case d := <-svc.Deliveries():
		if d.Notification.Title != "Your turn" {
			t.Errorf("pushed %+v", d.Notification)
		}
	case r := <-svc.Refusals():
		t.Fatalf("the push service refused: %+v", r)
	case <-time.After(20 * time.Second):
		t.Fatal("nothing pushed to the subscription the page made")
	}
	p.look("the push settings", "push-settings")

	p.click("#push-turn")
	waitFor[bool](p, "the choice saved", shown("#push-saved"), 10*time.Second)
	p.open("/account/push")
	waitFor[bool](p, "the settings again", shown("#push-disable")+` && document.querySelector("#push-devices").textContent !== ""`, 10*time.Second)
	if eval[bool](p, `document.querySelector("#push-turn").checked`) || !eval[bool](p, `document.querySelector("#push-gameover").checked`) {
		p.fail("after a reload the turn is not off, or the game over not on")
	}

	p.click("#push-disable")
	waitFor[bool](p, "push off", shown("#push-enable"), 10*time.Second)
	if stored, err := srv.Store.PushSubscriptions(t.Context(), ann.ID); err != nil || len(stored) != 0 {
		t.Errorf("subscriptions left after turning push off: %+v (%v)", stored, err)
	}
}
