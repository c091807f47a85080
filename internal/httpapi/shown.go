package httpapi

import (
	"context"
	"time"

	"github.com/razziagame/razzia/internal/presence"
)

// Presence as others are shown it. Every surface that tells one person
// whether another is online (the lobby's list, the challenge buttons on
// it, a followed player's notices, a profile's presence) reads it
// through these, so that the rule below holds everywhere at once.

// hidden reports whether an operator suspended or banned the account:
// nobody is shown them online (nor when they were last seen, which would
// tell it), nor told when they come, nor counted among the people online:
// a count above the list would tell that someone unseen is there.
func (s *Server) hidden(account string) bool {
	m := s.opts.Moderation
	return account != "" && m != nil && m.Barred(account) != nil
}

// shownPeople returns the people online with a name as others are shown
// them, and how many people others are shown online: the named shown and
// the guests without a name, not the hidden.
func (s *Server) shownPeople() ([]presence.Status, int) {
	count := s.opts.Presence.Count()
	people := s.opts.Presence.People()
	named := len(people)
	shown := people[:0]
	for _, st := range people {
		if !s.hidden(st.Account) {
			shown = append(shown, st)
		}
	}
	// Count and People are read one after the other: someone may come or
	// go between, never making the count below those listed.
	return shown, max(count-(named-len(shown)), len(shown))
}

// shownStatus returns how the account's person stands online as others
// are shown it, and whether they are shown online at all; the second is
// false for the hidden, who are shown no last seen either (see
// shownLastSeen).
func (s *Server) shownStatus(account string) (presence.Status, bool) {
	if s.hidden(account) {
		return presence.Status{}, false
	}
	return s.opts.Presence.Lookup(presence.AccountKey(account))
}

// shownLastSeen returns when the account's person was last seen, as
// others are shown it: now while online, never for the hidden.
func (s *Server) shownLastSeen(ctx context.Context, account string) (time.Time, bool, error) {
	if s.hidden(account) {
		return time.Time{}, false, nil
	}
	seen, err := s.opts.Presence.LastSeen(ctx, account)
	if err != nil {
		return time.Time{}, false, err
	}
	at, ok := seen[account]
	return at, ok, nil
}

// shownEvent reports whether a presence event about a person may be
// told to others.
func (s *Server) shownEvent(e presence.Event) bool { return !s.hidden(e.Status.Account) }
