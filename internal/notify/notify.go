// Package notify tells signed-in players of their games while they are
// away, by Web Push: "your turn at table X", "the game at table
// X is over", and the reminder when half of a correspondence decision's
// time has passed. It joins the table Hub's alerts (table.Alert) to the
// accounts' push subscriptions and settings in the store, and hands the
// notifications to a push.Sender.
//
// # Who is told
//
// At a correspondence table every alert is pushed, whether or not the
// player has the table open: a correspondence player comes back once a
// day, and a tab left open in the background says nothing of whether they
// look at it. At a live or untimed table an alert is pushed only when no
// connection of the player's seat watches the game at the node that runs
// it: with the table open, the page alerts them itself (a sound, the tab's
// title, a browser notification while the tab is hidden). Each kind can be
// turned off per account (Settings); notifications go to every
// browser the account subscribed, each in the language its page had.
//
// Nothing here is on a game's path: Alert queues and returns at once, a
// worker reads the store, and the Sender's workers talk to the push
// services with a timeout, so a push service that is down never delays a
// move. Subscriptions a push service reports gone are removed.
package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/push"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
)

// Options configure a Service. The zero Options are the production
// defaults but for Subject, which names the server's operator.
type Options struct {
	// Subject is how push services reach the server's operator:
	// "mailto:ops@example.org" or an https URL (push.Config.Subject).
	Subject string
	// Endpoints is the policy on push endpoints; the zero value accepts
	// https on public hosts only (Endpoints.Loopback for tests).
	Endpoints push.Endpoints
	// MaxSubscriptions is how many browsers of one account are kept:
	// subscribing one more removes the oldest. Default DefaultMaxSubscriptions.
	MaxSubscriptions int
	// Queue is how many alerts wait for the worker before new ones are
	// dropped; default 1024. The Sender's queue is sized the same.
	Queue int
	// Workers is how many notifications are sent at once
	// (push.Config.Workers); default 4. With one, they go in order.
	Workers int
	// Timeout bounds each send to a push service (push.Config.Timeout)
	// and each read of the store; default 10 s.
	Timeout time.Duration
	// Log receives the service's log; default slog.Default().
	Log *slog.Logger
}

// DefaultMaxSubscriptions is the default of Options.MaxSubscriptions.
const DefaultMaxSubscriptions = 10

// ErrNoAccount is the error of a request for an account that is gone
// (deleted since its session began).
var ErrNoAccount = errors.New("notify: no such account")

// Settings are what an account wants pushed: each kind of alert, on or
// off.
type Settings struct {
	Turn     bool // it is the player's turn
	GameOver bool // a game of theirs ended
	Reminder bool // half of a correspondence decision's time has passed
}

// A Subscription is a browser subscribed to an account's notifications:
// its push endpoint and the language its notifications are in.
type Subscription struct {
	Endpoint string
	Lang     string
}

// fromStore turns the store's errors into the package's: callers of a
// Service need not know the store.
func fromStore(err error, account string) error {
	if errors.Is(err, store.ErrNoAccount) {
		return fmt.Errorf("%w: %q", ErrNoAccount, account)
	}
	return err
}

// A Service pushes the alerts of a Hub to the accounts' browsers and
// keeps their subscriptions. Run it; its methods are safe for concurrent
// use.
type Service struct {
	st     store.Push
	opts   Options
	keys   push.Keys
	sender *push.Sender
	alerts chan table.Alert
	log    *slog.Logger
}

// New returns the service of the store: it stores a new VAPID key pair
// if the store has none (the first start), else uses the stored one.
func New(ctx context.Context, st store.Push, opts Options) (*Service, error) {
	if opts.MaxSubscriptions <= 0 {
		opts.MaxSubscriptions = DefaultMaxSubscriptions
	}
	if opts.Queue <= 0 {
		opts.Queue = 1024
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	fresh, err := push.GenerateKeys()
	if err != nil {
		return nil, fmt.Errorf("notify: making VAPID keys: %w", err)
	}
	stored, err := st.InitPushKeys(ctx, store.VAPIDKeys{Public: fresh.Public, Private: fresh.Private})
	if err != nil {
		return nil, fmt.Errorf("notify: %w", err)
	}
	keys := push.Keys{Public: stored.Public, Private: stored.Private}
	s := &Service{st: st, opts: opts, keys: keys, alerts: make(chan table.Alert, opts.Queue), log: opts.Log}
	s.sender, err = push.NewSender(push.Config{Keys: keys, Subject: opts.Subject, Timeout: opts.Timeout,
		Queue: opts.Queue, Workers: opts.Workers, Endpoints: opts.Endpoints, Gone: s.gone, Log: opts.Log})
	if err != nil {
		return nil, fmt.Errorf("notify: %w", err)
	}
	return s, nil
}

// PublicKey returns the server's VAPID public key, base64url: the page's
// applicationServerKey.
func (s *Service) PublicKey() string { return s.keys.Public }

// Subscribe checks a browser's subscription (its endpoint must be https
// on a public host) and stores it for the account, with the language its
// notifications are in (an unknown one is English); it returns what it
// stored. A bad subscription is a *push.SubscriptionError and nothing is
// stored; an account that is gone is ErrNoAccount.
func (s *Service) Subscribe(ctx context.Context, account string, sub push.Subscription, lang string) (Subscription, error) {
	sub, err := s.opts.Endpoints.Check(sub)
	if err != nil {
		return Subscription{}, err
	}
	stored := store.PushSubscription{Endpoint: sub.Endpoint, Account: account,
		P256dh: sub.Keys.P256dh, Auth: sub.Keys.Auth, Lang: catalogue(lang).Tag()}
	if err := s.st.AddPushSubscription(ctx, stored, s.opts.MaxSubscriptions); err != nil {
		return Subscription{}, fromStore(err, account)
	}
	return Subscription{Endpoint: stored.Endpoint, Lang: stored.Lang}, nil
}

// catalogue returns the catalogue of the language, English for one
// Razzia does not speak.
func catalogue(lang string) *i18n.Catalogue {
	if c, ok := i18n.Lookup(lang); ok {
		return c
	}
	return i18n.Default()
}

// Unsubscribe removes the account's subscription with the endpoint; it
// reports whether there was one.
func (s *Service) Unsubscribe(ctx context.Context, account, endpoint string) (bool, error) {
	ok, err := s.st.DeletePushSubscription(ctx, account, endpoint)
	return ok, fromStore(err, account)
}

// Settings returns what the account wants pushed, and how many browsers
// it subscribed; an account that is gone is ErrNoAccount.
func (s *Service) Settings(ctx context.Context, account string) (Settings, int, error) {
	p, err := s.st.PushSettings(ctx, account)
	if err != nil {
		return Settings{}, 0, fromStore(err, account)
	}
	subs, err := s.st.PushSubscriptions(ctx, account)
	if err != nil {
		return Settings{}, 0, fromStore(err, account)
	}
	return settingsOf(p), len(subs), nil
}

// SetSettings stores what the account wants pushed; an account that is
// gone is ErrNoAccount.
func (s *Service) SetSettings(ctx context.Context, account string, p Settings) error {
	err := s.st.SetPushSettings(ctx, account, store.PushSettings{Turn: p.Turn, GameOver: p.GameOver, Reminder: p.Reminder})
	return fromStore(err, account)
}

// settingsOf is the Settings of the stored ones.
func settingsOf(p store.PushSettings) Settings {
	return Settings{Turn: p.Turn, GameOver: p.GameOver, Reminder: p.Reminder}
}

// Alert queues a table's alert and returns at once: the Hub's OnAlert
// hook. A full queue drops it, with a log line.
func (s *Service) Alert(a table.Alert) {
	select {
	case s.alerts <- a:
	default:
		s.log.Warn("push: alert queue full, alert dropped", "game", a.Game, "kind", a.Kind.String())
	}
}

// Start runs Run in a goroutine and returns the function that stops it
// and waits until it has.
func (s *Service) Start() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// Run sends the alerts until ctx is done.
func (s *Service) Run(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.sender.Run(ctx)
	}()
	for {
		select {
		case <-ctx.Done():
			<-done
			return
		case a := <-s.alerts:
			s.handle(ctx, a)
		}
	}
}

// pushed reports whether the alert is pushed at all (see the package
// comment): at a correspondence table always, else to a player away.
func pushed(a table.Alert) bool { return a.Pace == pace.Correspondence || !a.Watching }

// wanted reports whether the account's settings let the alert through.
func wanted(a table.Alert, p Settings) bool {
	switch a.Kind {
	case table.AlertTurn:
		return p.Turn
	case table.AlertGameOver:
		return p.GameOver
	case table.AlertReminder:
		return p.Reminder
	}
	return false
}

// handle pushes one alert to the account's browsers, as it wants.
func (s *Service) handle(ctx context.Context, a table.Alert) {
	if !pushed(a) {
		return // before reading the store: the common case of a live game
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	p, err := s.st.PushSettings(ctx, a.Account)
	if errors.Is(err, store.ErrNoAccount) {
		return // deleted meanwhile
	}
	if err != nil {
		s.log.Warn("push: cannot read the settings; alert dropped", "game", a.Game, "err", err)
		return
	}
	if !wanted(a, settingsOf(p)) {
		return
	}
	subs, err := s.st.PushSubscriptions(ctx, a.Account)
	if err != nil {
		s.log.Warn("push: cannot read the subscriptions; alert dropped", "game", a.Game, "err", err)
		return
	}
	url := protocol.InvitePath(a.Game)
	for _, sub := range subs {
		c := catalogue(sub.Lang)
		var n push.Notification
		switch a.Kind {
		case table.AlertTurn:
			n = push.Turn(c, a.Game, url)
		case table.AlertGameOver:
			n = push.GameOver(c, a.Game, url)
		case table.AlertReminder:
			n = push.Reminder(c, a.Game, url, a.Left)
		}
		s.sender.Enqueue(push.Subscription{Endpoint: sub.Endpoint, Keys: push.BrowserKeys{P256dh: sub.P256dh, Auth: sub.Auth}}, n)
	}
}

// gone removes a subscription the push service reported gone.
func (s *Service) gone(sub push.Subscription) {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
	defer cancel()
	if _, err := s.st.DeletePushSubscription(ctx, "", sub.Endpoint); err != nil {
		s.log.Warn("push: cannot remove a gone subscription", "err", err)
	}
}
