package protocol

// The Web Push API: a signed-in player's browsers subscribe to
// be told of their games while away.

// PushKeyAnswer answers GET /api/push/key: the server's VAPID public key,
// base64url, for PushManager.subscribe's applicationServerKey.
type PushKeyAnswer struct {
	Key string `json:"key"`
}

// PushSubscribeRequest is the body of POST /api/push/subscriptions: what
// PushSubscription.toJSON() gives, and the language the notifications
// are to be in.
type PushSubscribeRequest struct {
	Endpoint       string   `json:"endpoint"`
	ExpirationTime *float64 `json:"expirationTime,omitempty"` // given by browsers; not used
	Keys           PushKeys `json:"keys"`
	Lang           string   `json:"lang,omitempty"` // default: the Accept-Language header's
}

// PushKeys are a subscription's keys, made by the browser.
type PushKeys struct {
	P256dh string `json:"p256dh"`
	Auth   string `json:"auth"`
}

// PushSubscriptionAnswer answers a subscription stored: its endpoint and
// the language its notifications are in.
type PushSubscriptionAnswer struct {
	Endpoint string `json:"endpoint"`
	Lang     string `json:"lang"`
}

// PushSettings is the body of PUT /api/push/settings and part of the
// answer of GET: which notifications the account wants.
type PushSettings struct {
	Turn     bool `json:"turn"`
	GameOver bool `json:"gameOver"`
	Reminder bool `json:"reminder"`
}

// PushSettingsAnswer answers GET and PUT /api/push/settings: the settings
// and how many browsers of the account are subscribed.
type PushSettingsAnswer struct {
	Settings PushSettings `json:"settings"`
	Devices  int          `json:"devices"`
}
