package push

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/SherClockHolmes/webpush-go"
)

// Errors of Send, wrapped in a *SendError.
var (
	// ErrGone: the push service says the subscription no longer exists
	// (404 or 410); remove it.
	ErrGone = errors.New("subscription gone")
	// ErrRejected: the push service refused the message (400, 401, 403,
	// 413, ...): a wrong VAPID key, a payload too large.
	ErrRejected = errors.New("push refused")
	// ErrUnavailable: the push service did not take the message: it could
	// not be reached, did not answer in time, or failed (429, 5xx).
	ErrUnavailable = errors.New("push service unavailable")
)

// A SendError reports a notification not delivered to a push service.
type SendError struct {
	Host   string // the push service's host
	Status int    // its HTTP status, or 0 if it gave none
	Err    error  // ErrGone, ErrRejected or ErrUnavailable
	detail string
}

func (e *SendError) Error() string {
	return fmt.Sprintf("push to %s: %v: %s", e.Host, e.Err, e.detail)
}

func (e *SendError) Unwrap() error { return e.Err }

// Config configures a Sender.
type Config struct {
	Keys Keys // the server's VAPID keys
	// Subject is how push services reach the server's operator (RFC 8292
	// "sub"): "mailto:ops@example.org" or an https URL.
	Subject string
	// Timeout bounds each send, connection included; default 10 s.
	Timeout time.Duration
	// TTL is how long a push service keeps a message for a browser that is
	// offline; default a day (a correspondence decision).
	TTL time.Duration
	// Queue is how many notifications wait for a worker before new ones
	// are dropped; default 1024. Workers is how many send at once; default 4.
	Queue, Workers int
	// Endpoints is the policy on where to connect (Endpoints.Loopback for tests).
	Endpoints Endpoints
	// Gone is called, from a worker, with each subscription the push service
	// reports gone, so that the caller removes it. It must not block long.
	Gone func(Subscription)
	// Log receives a line per notification dropped or not delivered; default slog.Default().
	Log *slog.Logger
}

// A Sender sends notifications to push services, off the caller's path:
// Enqueue never blocks, and Run's workers send with a timeout.
type Sender struct {
	cfg     Config
	subject string // as webpush-go takes it (see NewSender)
	client  *http.Client
	queue   chan job
}

type job struct {
	sub Subscription
	n   Notification
}

// NewSender checks the configuration and returns a Sender; call Run to
// start its workers.
func NewSender(cfg Config) (*Sender, error) {
	if err := cfg.Keys.Check(); err != nil {
		return nil, err
	}
	// webpush-go v1.4.0 prefixes "mailto:" to any subject that is not an
	// https URL, so it takes the address bare.
	subject, isMail := strings.CutPrefix(cfg.Subject, "mailto:")
	if u, err := url.Parse(cfg.Subject); !(isMail && strings.Contains(subject, "@")) && (err != nil || u.Scheme != "https" || u.Host == "") {
		return nil, fmt.Errorf("push: subject %q is neither mailto:address nor an https URL", cfg.Subject)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.TTL <= 0 {
		cfg.TTL = 24 * time.Hour
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 1024
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	dialer := &net.Dialer{
		Timeout: cfg.Timeout,
		Control: func(_, address string, _ syscall.RawConn) error { return cfg.Endpoints.dialAllowed(address) },
	}
	client := &http.Client{
		Timeout: cfg.Timeout,
		Transport: &http.Transport{
			DialContext:         dialer.DialContext,
			TLSHandshakeTimeout: cfg.Timeout,
			MaxIdleConnsPerHost: cfg.Workers,
			IdleConnTimeout:     time.Minute,
		},
		// Push services answer; they do not redirect. A redirect could lead
		// past the endpoint policy.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &Sender{cfg: cfg, subject: subject, client: client, queue: make(chan job, cfg.Queue)}, nil
}

// Send sends a notification to one subscription now and waits at most the
// configured timeout. It returns nil once the push service has taken it,
// or a *SendError: ErrGone means the subscription should be removed.
// Callers on a game's path use Enqueue.
func (s *Sender) Send(ctx context.Context, sub Subscription, n Notification) error {
	sub, err := s.cfg.Endpoints.Check(sub)
	if err != nil {
		return err
	}
	payload, err := n.payload()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	host := endpointHost(sub.Endpoint)
	// webpush-go v1.4.0 pads every message to one 4096-byte record (which
	// hides its length) and signs its JWT to expire 12 hours on.
	resp, err := webpush.SendNotificationWithContext(ctx, payload,
		&webpush.Subscription{Endpoint: sub.Endpoint, Keys: webpush.Keys{P256dh: sub.Keys.P256dh, Auth: sub.Keys.Auth}},
		&webpush.Options{
			HTTPClient:      s.client,
			Subscriber:      s.subject,
			Topic:           n.topic(),
			TTL:             int(s.cfg.TTL / time.Second),
			Urgency:         webpush.UrgencyHigh, // someone waits for the player
			VAPIDPublicKey:  s.cfg.Keys.Public,
			VAPIDPrivateKey: s.cfg.Keys.Private,
		})
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which identifies the subscriber
		}
		return &SendError{Host: host, Err: ErrUnavailable, detail: err.Error()}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	detail := fmt.Sprintf("%s %s", resp.Status, strings.TrimSpace(string(body)))
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return nil
	case code == http.StatusNotFound || code == http.StatusGone:
		return &SendError{Host: host, Status: code, Err: ErrGone, detail: detail}
	case code == http.StatusTooManyRequests || code >= 500:
		return &SendError{Host: host, Status: code, Err: ErrUnavailable, detail: detail}
	default:
		return &SendError{Host: host, Status: code, Err: ErrRejected, detail: detail}
	}
}

// endpointHost returns the host of an endpoint, for errors and logs: the
// rest of the URL identifies the subscriber.
func endpointHost(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "?"
	}
	return u.Host
}

// Enqueue queues a notification for the workers and returns at once: true
// if it was queued, false if the queue was full and it was dropped (with a
// log line). A push service that is down never delays the caller.
func (s *Sender) Enqueue(sub Subscription, n Notification) bool {
	select {
	case s.queue <- job{sub, n}:
		return true
	default:
		s.cfg.Log.Warn("push: queue full, notification dropped", "host", endpointHost(sub.Endpoint), "queue", cap(s.queue))
		return false
	}
}

// Run sends queued notifications with the configured number of workers
// until ctx is done; what is still queued then is dropped. Failures are
// logged, and gone subscriptions handed to Config.Gone.
func (s *Sender) Run(ctx context.Context) {
	done := make(chan struct{})
	for range s.cfg.Workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for {
				select {
				case <-ctx.Done():
					return
				case j := <-s.queue:
					s.deliver(ctx, j)
				}
			}
		}()
	}
	for range s.cfg.Workers {
		<-done
	}
	if n := len(s.queue); n > 0 {
		s.cfg.Log.Info("push: stopped with notifications queued, dropped", "count", n)
	}
}

func (s *Sender) deliver(ctx context.Context, j job) {
	err := s.Send(ctx, j.sub, j.n)
	switch {
	case err == nil:
	case errors.Is(err, ErrGone):
		s.cfg.Log.Info("push: subscription gone", "err", err)
		if s.cfg.Gone != nil {
			s.cfg.Gone(j.sub)
		}
	default:
		s.cfg.Log.Warn("push: not delivered", "err", err)
	}
}
