package notify

import (
	"context"
	"net/url"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/push"
)

// ChallengePath is the page a challenge's notification opens: the lobby,
// which shows the challenge to answer.
func ChallengePath(id string) string { return "/?challenge=" + url.QueryEscape(id) }

// Challenge pushes a challenge to the account's browsers, each in its
// language, and returns at once: internal/meet's Notify. A browser
// subscribed is one whose person turned push on.
func (s *Service) Challenge(account string, c protocol.ChallengeInfo) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
		defer cancel()
		subs, err := s.st.PushSubscriptions(ctx, account)
		if err != nil {
			s.log.Warn("push: cannot read the subscriptions; challenge not pushed", "challenge", c.ID, "err", err)
			return
		}
		for _, sub := range subs {
			cat := catalogue(sub.Lang)
			n := push.Challenge(cat, c.From, len(c.To)-1, cat.T("pace."+c.Pace), ChallengePath(c.ID))
			s.sender.Enqueue(push.Subscription{Endpoint: sub.Endpoint, Keys: push.BrowserKeys{P256dh: sub.P256dh, Auth: sub.Auth}}, n)
		}
	}()
}
