package push

import (
	"github.com/razziagame/razzia/internal/i18n"
)

// Challenge returns "NAME challenges you" in the catalogue's language:
// from is the challenger's name, others how many more are invited, pace
// the pace's name as told, and url the page that answers it.
func Challenge(c *i18n.Catalogue, from string, others int, pace, url string) Notification {
	body := c.T("push.challenge.body", "from", from, "pace", pace)
	if others > 0 {
		body = c.T("push.challenge.body.more", "from", from, "pace", pace, "n", others)
	}
	return Notification{Title: c.T("push.challenge.title", "from", from), Body: body, URL: url, Tag: "razzia challenge " + url}
}
