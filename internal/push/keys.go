// Package push sends Web Push notifications (RFC 8030) to players who are
// not looking at the page: "your turn at table X", "game over", and the
// reminder when half a correspondence decision's time has passed.
//
// The server identifies itself to push services with a VAPID key pair
// (RFC 8292) that it generates at first start (GenerateKeys) and keeps in
// its store; the page subscribes with the public half. A browser's
// subscription (ParseSubscription) names the push service's endpoint and
// the keys that encrypt the payload for that browser (RFC 8291). A
// Notification is a small JSON payload, in the recipient's language, that
// the service worker (ServiceWorker, served at /sw.js) shows.
//
// Sending never delays a game: a Sender queues notifications (a full queue
// drops them, with a log line) and its workers send them with a timeout.
// Subscriptions the push service reports gone (404, 410) are handed to a
// callback, so that the caller removes them. Package pushtest is a push
// service for tests that checks the VAPID signature and decrypts.
package push

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
)

// Keys is the server's VAPID key pair, both halves in unpadded base64url
// as the Push API and the store take them: Public is the 65-byte
// uncompressed P-256 point (the page's applicationServerKey), Private the
// 32-byte scalar. Keep Private secret: whoever has it can push to every
// subscriber.
type Keys struct {
	Public  string `json:"public"`
	Private string `json:"private"`
}

// ErrKeys is wrapped by the errors of Keys.Check.
var ErrKeys = errors.New("bad VAPID keys")

// GenerateKeys returns a new VAPID key pair.
func GenerateKeys() (Keys, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return Keys{}, err
	}
	return Keys{Public: b64.EncodeToString(k.PublicKey().Bytes()), Private: b64.EncodeToString(k.Bytes())}, nil
}

// b64 is the encoding of keys in the Push API: base64url without padding.
var b64 = base64.RawURLEncoding

// decodeB64 decodes base64url with or without padding, as browsers and
// libraries write it.
func decodeB64(s string) ([]byte, error) {
	if b, err := b64.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.URLEncoding.DecodeString(s)
}

// Check reports whether the keys are a P-256 key pair whose halves belong
// together, as a stored pair read back must be.
func (k Keys) Check() error {
	d, err := decodeB64(k.Private)
	if err != nil {
		return fmt.Errorf("%w: the private key is not base64url", ErrKeys)
	}
	priv, err := ecdh.P256().NewPrivateKey(d)
	if err != nil {
		return fmt.Errorf("%w: the private key is not a P-256 scalar", ErrKeys)
	}
	pub, err := decodeB64(k.Public)
	if err != nil {
		return fmt.Errorf("%w: the public key is not base64url", ErrKeys)
	}
	if b64.EncodeToString(pub) != b64.EncodeToString(priv.PublicKey().Bytes()) {
		return fmt.Errorf("%w: the public key is not the private key's", ErrKeys)
	}
	return nil
}
