// Package pushtest is a Web Push service for tests: a local HTTP endpoint
// that does what a browser vendor's push service and the browser together
// do with a message, strictly, so that a test can assert what a user
// would see.
//
// For each POST to a subscription's endpoint it checks the VAPID
// authorization (RFC 8292): the "vapid t=..., k=..." header, the key k is
// the one the subscription was made with (the page's applicationServerKey),
// the JWT is ES256 and its signature verifies with k, "aud" is the
// endpoint's origin, "exp" is in the future and at most 24 hours ahead,
// "sub" is a mailto: or https: contact. It checks the headers (TTL,
// Content-Encoding aes128gcm), decrypts the body with the subscription's
// private key (RFC 8291, RFC 8188) and answers 201 Created with the
// decrypted Delivery on a channel. What it refuses goes to another
// channel as a Refusal. A Subscriber can be made gone (410) or hanging
// (no answer until the sender gives up), to test removal and timeouts.
package pushtest

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/push"
)

// A Delivery is a message the service took, decrypted.
type Delivery struct {
	Subscriber   string            // the Subscriber's ID
	Payload      []byte            // the decrypted payload
	Notification push.Notification // the payload decoded, if it is one
	TTL          int               // the TTL header, in seconds
	Topic        string            // the Topic header
	Urgency      string            // the Urgency header
	Subject      string            // the JWT's "sub"
	Audience     string            // the JWT's "aud"
	Expires      time.Time         // the JWT's "exp"
}

// A Refusal is a request the service refused, and why.
type Refusal struct {
	Subscriber string // the Subscriber's ID, or the path when unknown
	Status     int
	Reason     string
}

// A Service is a running test push service. Its channels hold up to 64
// events each; read them, or the service stops answering.
type Service struct {
	URL string // the service's origin, such as http://127.0.0.1:40123
	// Now is the service's clock for checking "exp"; time.Now by default.
	Now func() time.Time

	srv        *httptest.Server
	closing    chan struct{}
	deliveries chan Delivery
	refusals   chan Refusal
	hanging    chan string

	mu   sync.Mutex
	subs map[string]*Subscriber
}

// A Subscriber is one browser's subscription at the service.
type Subscriber struct {
	ID     string
	svc    *Service
	ua     *ecdh.PrivateKey
	auth   []byte
	appKey []byte // the VAPID public key the subscription was made for
	state  string // "", "gone" or "hang"; guarded by svc.mu
}

// New starts a service on a loopback port and stops it when the test ends.
func New(t testing.TB) *Service {
	s := &Service{
		Now:        time.Now,
		closing:    make(chan struct{}),
		deliveries: make(chan Delivery, 64),
		refusals:   make(chan Refusal, 64),
		hanging:    make(chan string, 64),
		subs:       map[string]*Subscriber{},
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(func() {
		close(s.closing) // release hanging requests, so Close can finish
		s.srv.Close()
	})
	return s
}

// Deliveries returns the channel of messages taken.
func (s *Service) Deliveries() <-chan Delivery { return s.deliveries }

// Refusals returns the channel of requests refused.
func (s *Service) Refusals() <-chan Refusal { return s.refusals }

// Hanging returns the channel of the subscribers' IDs whose request the
// service now holds without answering.
func (s *Service) Hanging() <-chan string { return s.hanging }

// Subscribe makes a subscription for the server whose VAPID public key is
// vapidPublic (base64url), as a browser does when the page calls
// pushManager.subscribe with it as applicationServerKey.
func (s *Service) Subscribe(t testing.TB, vapidPublic string) *Subscriber {
	t.Helper()
	appKey, err := base64.RawURLEncoding.DecodeString(vapidPublic)
	if err != nil {
		t.Fatalf("pushtest: applicationServerKey: %v", err)
	}
	ua, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	s.mu.Lock()
	defer s.mu.Unlock()
	sub := &Subscriber{ID: strconv.Itoa(len(s.subs) + 1), svc: s, ua: ua, auth: auth, appKey: appKey}
	s.subs[sub.ID] = sub
	return sub
}

// Subscription returns the subscription as the browser gives it to the page.
func (sub *Subscriber) Subscription() push.Subscription {
	return push.Subscription{
		Endpoint: sub.svc.URL + "/push/" + sub.ID,
		Keys: push.BrowserKeys{
			P256dh: base64.RawURLEncoding.EncodeToString(sub.ua.PublicKey().Bytes()),
			Auth:   base64.RawURLEncoding.EncodeToString(sub.auth),
		},
	}
}

// Gone makes the service answer 410 Gone for the subscription from now on,
// as when the user revoked the permission.
func (sub *Subscriber) Gone() { sub.set("gone") }

// Hang makes the service hold requests for the subscription without
// answering until the sender gives up, as a push service that is down.
func (sub *Subscriber) Hang() { sub.set("hang") }

func (sub *Subscriber) set(state string) {
	sub.svc.mu.Lock()
	sub.state = state
	sub.svc.mu.Unlock()
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutPrefix(r.URL.Path, "/push/")
	s.mu.Lock()
	sub := s.subs[id]
	state := ""
	if sub != nil {
		state = sub.state
	}
	s.mu.Unlock()
	refuse := func(status int, format string, args ...any) {
		reason := fmt.Sprintf(format, args...)
		if sub == nil {
			id = r.URL.Path
		}
		report(s, s.refusals, Refusal{Subscriber: id, Status: status, Reason: reason})
		http.Error(w, reason, status)
	}
	switch {
	case r.Method != http.MethodPost:
		refuse(http.StatusMethodNotAllowed, "a push is a POST")
		return
	case !ok || sub == nil:
		refuse(http.StatusNotFound, "no such subscription")
		return
	case state == "gone":
		refuse(http.StatusGone, "the subscription has expired or was unsubscribed")
		return
	case state == "hang":
		report(s, s.hanging, id)
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return
	}
	claims, status, err := s.checkVAPID(r.Header.Get("Authorization"), sub)
	if err != nil {
		refuse(status, "%v", err)
		return
	}
	ttl, err := strconv.Atoi(r.Header.Get("TTL"))
	if err != nil || ttl < 0 {
		refuse(http.StatusBadRequest, "no valid TTL header (RFC 8030 §5.2)")
		return
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		refuse(http.StatusUnsupportedMediaType, "Content-Encoding %q, want aes128gcm (RFC 8291 §4)", ce)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 4097))
	if err != nil {
		refuse(http.StatusBadRequest, "reading the body: %v", err)
		return
	}
	if len(body) > 4096 {
		refuse(http.StatusRequestEntityTooLarge, "a push message is at most 4096 bytes")
		return
	}
	payload, err := Decrypt(body, sub.ua, sub.auth)
	if err != nil {
		refuse(http.StatusBadRequest, "cannot decrypt: %v", err)
		return
	}
	d := Delivery{
		Subscriber: id, Payload: payload, TTL: ttl,
		Topic: r.Header.Get("Topic"), Urgency: r.Header.Get("Urgency"),
		Subject: claims.Sub, Audience: claims.Aud, Expires: time.Unix(claims.Exp, 0),
	}
	json.Unmarshal(payload, &d.Notification)
	w.Header().Set("Location", r.URL.Path+"/message")
	w.WriteHeader(http.StatusCreated)
	report(s, s.deliveries, d)
}

// report puts an event on a channel, unless the service is closing.
func report[T any](s *Service, ch chan T, v T) {
	select {
	case ch <- v:
	case <-s.closing:
	}
}

type claims struct {
	Aud string `json:"aud"`
	Exp int64  `json:"exp"`
	Sub string `json:"sub"`
}

// checkVAPID checks an Authorization header of the vapid scheme (RFC 8292
// §3) for sub and returns the JWT's claims, or the status to answer and why.
func (s *Service) checkVAPID(header string, sub *Subscriber) (claims, int, error) {
	var c claims
	fail := func(status int, format string, args ...any) (claims, int, error) {
		return claims{}, status, fmt.Errorf(format, args...)
	}
	params, ok := strings.CutPrefix(header, "vapid ")
	if !ok {
		return fail(http.StatusUnauthorized, "no vapid authorization (RFC 8292 §3)")
	}
	var token, key string
	for _, p := range strings.Split(params, ",") {
		p = strings.TrimSpace(p)
		if v, ok := strings.CutPrefix(p, "t="); ok {
			token = v
		} else if v, ok := strings.CutPrefix(p, "k="); ok {
			key = v
		}
	}
	k, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil || token == "" {
		return fail(http.StatusUnauthorized, "the vapid authorization lacks t= or a base64url k=")
	}
	if string(k) != string(sub.appKey) {
		return fail(http.StatusForbidden, "the VAPID key is not the one the subscription was made with")
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), k)
	if err != nil {
		return fail(http.StatusUnauthorized, "k is not a P-256 public key")
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return fail(http.StatusUnauthorized, "the token is not a JWT")
	}
	var head struct{ Typ, Alg string }
	if err := decodePart(parts[0], &head); err != nil || head.Alg != "ES256" {
		return fail(http.StatusUnauthorized, "the JWT header is not ES256 (%+v, %v)", head, err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return fail(http.StatusUnauthorized, "the JWT signature is not 64 bytes of base64url")
	}
	hash := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, ss := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(pub, hash[:], r, ss) {
		return fail(http.StatusUnauthorized, "the JWT signature does not verify with k")
	}
	if err := decodePart(parts[1], &c); err != nil {
		return fail(http.StatusUnauthorized, "the JWT claims: %v", err)
	}
	now := s.Now()
	switch exp := time.Unix(c.Exp, 0); {
	case c.Aud != s.URL:
		return fail(http.StatusUnauthorized, "aud %q is not the endpoint's origin %q", c.Aud, s.URL)
	case !exp.After(now):
		return fail(http.StatusUnauthorized, "the JWT expired at %v", exp)
	case exp.After(now.Add(24 * time.Hour)):
		return fail(http.StatusUnauthorized, "exp %v is more than 24 hours ahead (RFC 8292 §2)", exp)
	case !strings.HasPrefix(c.Sub, "mailto:") && !strings.HasPrefix(c.Sub, "https:"):
		return fail(http.StatusUnauthorized, "sub %q is not a mailto: or https: contact", c.Sub)
	case strings.HasPrefix(c.Sub, "mailto:mailto:"):
		return fail(http.StatusUnauthorized, "sub %q says mailto: twice", c.Sub)
	}
	return c, 0, nil
}

func decodePart(part string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
