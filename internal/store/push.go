package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Push is the storage of Web Push: the server's VAPID key
// pair, shared by every node and kept across restarts, and the push
// subscriptions and settings of accounts. An account's subscriptions and
// settings go with it when it is deleted. Every Store implements it;
// storetest specifies it.
type Push interface {
	// InitPushKeys stores k as the server's VAPID key pair unless a pair
	// is stored already, and returns the stored pair: the first start
	// keeps the pair it made, and every later start and every other node
	// gets that one.
	InitPushKeys(ctx context.Context, k VAPIDKeys) (VAPIDKeys, error)
	// AddPushSubscription stores a browser's subscription for its account
	// (ErrNoAccount when there is no such account). An endpoint is one
	// browser's: a subscription with a stored endpoint replaces it, even
	// another account's (the browser signed in as someone else). When the
	// account would have more than max subscriptions, its oldest are
	// removed: a browser gone quiet is the likeliest to be stale. A zero
	// Created is set to now.
	AddPushSubscription(ctx context.Context, s PushSubscription, max int) error
	// PushSubscriptions returns the account's subscriptions, oldest first.
	PushSubscriptions(ctx context.Context, account string) ([]PushSubscription, error)
	// DeletePushSubscription removes the subscription with the endpoint
	// if it belongs to account, or whoever's it is when account is "" (a
	// push service reported it gone). It reports whether it removed one.
	DeletePushSubscription(ctx context.Context, account, endpoint string) (bool, error)
	// PushSettings returns what the account wants pushed: DefaultPushSettings
	// until it sets them; ErrNoAccount when there is no such account.
	PushSettings(ctx context.Context, account string) (PushSettings, error)
	// SetPushSettings stores the account's settings; ErrNoAccount when
	// there is no such account.
	SetPushSettings(ctx context.Context, account string, p PushSettings) error
}

// VAPIDKeys is the server's VAPID key pair (RFC 8292) as internal/push
// makes it: base64url text the store keeps as it is.
type VAPIDKeys struct {
	Public  string
	Private string
}

// A PushSubscription is where and how to push to one browser of an
// account: the push service's endpoint URL, which is unique, and the
// browser's keys. internal/push checks them (and bounds the endpoint's
// length) before they are stored.
type PushSubscription struct {
	Endpoint string
	Account  string
	P256dh   string
	Auth     string
	// Lang is the language of the page that subscribed: the notifications
	// to this browser are in it.
	Lang    string
	Created time.Time
}

// PushSettings is what an account wants pushed to its browsers.
type PushSettings struct {
	Turn     bool // "your turn at table X"
	GameOver bool // "the game at table X is over"
	Reminder bool // half of a correspondence decision's time has passed
}

// DefaultPushSettings are the settings of an account that never set
// them: everything on, since a player turns push on to hear of their games.
var DefaultPushSettings = PushSettings{Turn: true, GameOver: true, Reminder: true}

// CheckPushSubscription reports what makes s unfit to store.
func CheckPushSubscription(s PushSubscription, max int) error {
	switch {
	case s.Endpoint == "":
		return errors.New("push subscription with no endpoint")
	case s.Account == "":
		return errors.New("push subscription of no account")
	case s.P256dh == "" || s.Auth == "":
		return fmt.Errorf("push subscription of %q without its keys", s.Account)
	case max < 1:
		return fmt.Errorf("push subscriptions capped at %d; want at least 1", max)
	}
	return nil
}

// CheckVAPIDKeys reports what makes k unfit to store: a half missing.
func CheckVAPIDKeys(k VAPIDKeys) error {
	if k.Public == "" || k.Private == "" {
		return errors.New("VAPID keys with an empty half")
	}
	return nil
}
