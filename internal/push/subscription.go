package push

import (
	"crypto/ecdh"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// A Subscription is where and how to push to one browser: the push
// service's endpoint URL and the browser's keys, as PushSubscription.toJSON
// gives them. Build one with ParseSubscription or Endpoints.Check.
type Subscription struct {
	Endpoint string      `json:"endpoint"`
	Keys     BrowserKeys `json:"keys"`
}

// BrowserKeys are a subscription's keys, made by the browser: the payload
// is encrypted for them.
type BrowserKeys struct {
	P256dh string `json:"p256dh"` // the browser's P-256 public key, base64url
	Auth   string `json:"auth"`   // the 16-byte authentication secret, base64url
}

// ErrSubscription is wrapped by every *SubscriptionError.
var ErrSubscription = errors.New("bad push subscription")

// A SubscriptionError reports a subscription refused, naming the field.
type SubscriptionError struct {
	Field string // "endpoint", "p256dh", "auth" or "" for the whole
	msg   string
}

func (e *SubscriptionError) Error() string { return "push subscription: " + e.msg }
func (e *SubscriptionError) Unwrap() error { return ErrSubscription }

// MaxEndpoint is the longest endpoint URL accepted, in bytes; push
// services' are a few hundred.
const MaxEndpoint = 2048

// Endpoints is the policy on push endpoints, one for checking
// subscriptions and for connecting to them. The zero value, for
// production, accepts https URLs on public hosts only: a subscription is
// client input, and an endpoint on a private address would make the server
// post to its own network.
type Endpoints struct {
	// Loopback also accepts http and https on loopback hosts (localhost,
	// 127.0.0.0/8, ::1): for tests against a local push service.
	Loopback bool
}

// ParseSubscription decodes and checks a subscription sent by the page,
// the JSON of PushSubscription.toJSON, under the production policy.
func ParseSubscription(b []byte) (Subscription, error) { return Endpoints{}.Parse(b) }

// Parse decodes and checks a subscription under the policy.
func (p Endpoints) Parse(b []byte) (Subscription, error) {
	var s Subscription
	if err := json.Unmarshal(b, &s); err != nil {
		return Subscription{}, &SubscriptionError{msg: fmt.Sprintf("not the JSON of a PushSubscription: %v", err)}
	}
	return p.Check(s)
}

// Check checks a subscription under the policy and returns it with its keys
// in unpadded base64url, or a *SubscriptionError naming what is wrong.
func (p Endpoints) Check(s Subscription) (Subscription, error) {
	if err := p.checkEndpoint(s.Endpoint); err != nil {
		return Subscription{}, err
	}
	dh, err := decodeB64(s.Keys.P256dh)
	if err != nil {
		return Subscription{}, &SubscriptionError{Field: "p256dh", msg: "keys.p256dh is not base64url"}
	}
	if _, err := ecdh.P256().NewPublicKey(dh); err != nil {
		return Subscription{}, &SubscriptionError{Field: "p256dh", msg: "keys.p256dh is not an uncompressed P-256 public key"}
	}
	auth, err := decodeB64(s.Keys.Auth)
	if err != nil || len(auth) != 16 {
		return Subscription{}, &SubscriptionError{Field: "auth", msg: "keys.auth is not 16 bytes in base64url"}
	}
	s.Keys.P256dh, s.Keys.Auth = b64.EncodeToString(dh), b64.EncodeToString(auth)
	return s, nil
}

func (p Endpoints) checkEndpoint(endpoint string) error {
	fail := func(format string, args ...any) error {
		return &SubscriptionError{Field: "endpoint", msg: fmt.Sprintf(format, args...)}
	}
	if endpoint == "" {
		return fail("no endpoint")
	}
	if len(endpoint) > MaxEndpoint {
		return fail("the endpoint is %d bytes long; at most %d", len(endpoint), MaxEndpoint)
	}
	u, err := url.Parse(endpoint)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return fail("the endpoint is not an absolute URL")
	}
	if u.User != nil || u.Fragment != "" {
		return fail("the endpoint has a user name or a fragment")
	}
	loopback := isLoopbackHost(u.Hostname())
	switch {
	case loopback && !p.Loopback:
		return fail("the endpoint is on this machine (%s)", u.Hostname())
	case loopback && (u.Scheme == "http" || u.Scheme == "https"):
		return nil
	case u.Scheme != "https":
		return fail("the endpoint must be https, not %q", u.Scheme)
	}
	if ip, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil && !public(ip) {
		return fail("the endpoint is on a private address (%s)", ip)
	}
	return nil
}

// isLoopbackHost reports whether a URL's host names this machine.
func isLoopbackHost(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// public reports whether ip is an address a push service may have.
func public(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsValid() && !ip.IsLoopback() && !ip.IsPrivate() && !ip.IsUnspecified() &&
		!ip.IsLinkLocalUnicast() && !ip.IsLinkLocalMulticast() && !ip.IsInterfaceLocalMulticast() &&
		!ip.IsMulticast() && !sharedSpace.Contains(ip)
}

// sharedSpace is the carrier-grade NAT range, private in all but name.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// dialAllowed reports whether the sender may connect to address ("ip:port",
// after name resolution): the endpoint check holds for the name, and this
// holds for where the name leads.
func (p Endpoints) dialAllowed(address string) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return err
	}
	if public(ip) || (p.Loopback && ip.Unmap().IsLoopback()) {
		return nil
	}
	return fmt.Errorf("push: refusing to connect to %s: not a public address", ip)
}
