package push

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/pace"
)

// A Notification is what a push shows: the payload the service worker
// reads, as JSON {"title", "body", "url", "tag"}.
type Notification struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"` // the page to open or focus on a click: the table's
	// Tag groups notifications: a newer one with the same tag replaces the
	// one shown, so a table never shows more than one.
	Tag string `json:"tag"`
}

// MaxPayload is the largest payload sent, in bytes: what fits in one
// 4096-byte record with its encryption header and padding delimiter.
const MaxPayload = 4096 - 16 - 86 - 1

// tableTag is the tag of a table's notifications.
func tableTag(url string) string { return "razzia " + url }

// Turn returns "your turn at table X" in the catalogue's language; url is
// the table's page.
func Turn(c *i18n.Catalogue, table, url string) Notification {
	return Notification{Title: c.T("push.turn.title"), Body: c.T("push.turn.body", "table", table), URL: url, Tag: tableTag(url)}
}

// GameOver returns "the game at table X is over".
func GameOver(c *i18n.Catalogue, table, url string) Notification {
	return Notification{Title: c.T("push.gameover.title"), Body: c.T("push.gameover.body", "table", table), URL: url, Tag: tableTag(url)}
}

// Reminder returns the reminder that half a correspondence decision's time
// has passed, with the time left until the deadline.
func Reminder(c *i18n.Catalogue, table, url string, left time.Duration) Notification {
	return Notification{
		Title: c.T("push.reminder.title"),
		Body:  c.T("push.reminder.body", "table", table, "left", pace.Duration(c, left)),
		URL:   url, Tag: tableTag(url),
	}
}

// payload encodes the notification, refusing one too large to send.
func (n Notification) payload() ([]byte, error) {
	b, err := json.Marshal(n)
	if err != nil {
		return nil, err
	}
	if len(b) > MaxPayload {
		return nil, fmt.Errorf("push: the notification is %d bytes; at most %d", len(b), MaxPayload)
	}
	return b, nil
}

// topic returns the Topic header for the notification (RFC 8030 §5.4): a
// push service keeps only the newest undelivered message per topic, so a
// phone that was off gets one notice per table, not a pile. A topic is at
// most 32 base64url characters.
func (n Notification) topic() string {
	sum := sha256.Sum256([]byte(n.Tag))
	return b64.EncodeToString(sum[:])[:32]
}
