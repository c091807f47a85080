package meet

import (
	"context"
	"errors"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
)

// MaxChallenged is the most people one challenge invites: a table has
// five seats.
const MaxChallenged = 4

// LapseAfter is how long a challenge at the pace waits for its answers:
// at a live pace three decisions' time, from one to five minutes (an
// untimed table three minutes), at a correspondence pace one decision's
// time, since the people challenged come back once a day.
func LapseAfter(p pace.Pace) time.Duration {
	switch p.Kind {
	case pace.Correspondence:
		return p.Decision
	case pace.Live:
		return min(max(3*p.Decision, time.Minute), 5*time.Minute)
	}
	return 3 * time.Minute
}

// Challenge invites the people named (account names, one to four) to a
// table with p, at the pace, rated or not. Each is told at once, and
// pushed a notification.
func (s *Service) Challenge(ctx context.Context, p Person, names []string, paceID string, rated bool) (protocol.ChallengeInfo, error) {
	if p.Account == "" {
		return protocol.ChallengeInfo{}, reject(ErrAccountRequired, "sign in to challenge people")
	}
	switch {
	case len(names) == 0:
		return protocol.ChallengeInfo{}, reject(ErrBadRequest, "name the people you challenge")
	case len(names) > MaxChallenged:
		return protocol.ChallengeInfo{}, reject(ErrUnmet, "a table has 5 seats: challenge at most %d people, not %d", MaxChallenged, len(names))
	}
	pc, err := pace.Choose(paceID, rated)
	if err != nil {
		return protocol.ChallengeInfo{}, &Error{Kind: ErrUnmet, Msg: err.Error(), Err: err}
	}
	now := s.opts.Now()
	c := store.Invitation{ID: newID(), From: p.Account, FromName: p.Name, Pace: pc.ID, Rated: rated,
		Status: store.ChallengeOpen, Created: now, Expires: now.Add(LapseAfter(pc))}
	keys := []string{playername.Key(p.Name)}
	for _, name := range names {
		if slices.Contains(keys, playername.Key(name)) {
			if playername.Key(name) == keys[0] {
				return protocol.ChallengeInfo{}, reject(ErrSelf, "you cannot challenge yourself")
			}
			return protocol.ChallengeInfo{}, reject(ErrUnmet, "%s is named twice", name)
		}
		keys = append(keys, playername.Key(name))
		to, err := s.account(ctx, name)
		if err != nil {
			return protocol.ChallengeInfo{}, err
		}
		if to.Account == p.Account {
			return protocol.ChallengeInfo{}, reject(ErrSelf, "you cannot challenge yourself")
		}
		if err := s.mayChallenge(ctx, p, to); err != nil {
			return protocol.ChallengeInfo{}, err
		}
		c.To = append(c.To, store.Challenged{Account: to.Account, Name: to.Name})
	}
	switch err := s.st.AddChallenge(ctx, c, s.opts.MaxChallenges); {
	case errors.Is(err, store.ErrLimit):
		return protocol.ChallengeInfo{}, reject(ErrTooManyChallenges, "you have %d open challenges, the most a person may: cancel one first", s.opts.MaxChallenges)
	case errors.Is(err, store.ErrNoAccount):
		return protocol.ChallengeInfo{}, reject(ErrNotFound, "a person challenged has deleted their account meanwhile")
	case err != nil:
		return protocol.ChallengeInfo{}, s.failed("store a challenge", err)
	}
	s.log.Info("meet: challenge", "challenge", c.ID, "from", c.From, "to", len(c.To))
	s.tellChallenge(ctx, c)
	if s.opts.Notify != nil {
		for _, t := range c.To {
			s.opts.Notify(t.Account, s.challengeInfo(c, t.Account))
		}
	}
	return s.challengeInfo(c, p.Account), nil
}

// account finds the account called name.
func (s *Service) account(ctx context.Context, name string) (Person, error) {
	if s.opts.Account == nil {
		return Person{}, reject(ErrNotFound, "this server has no accounts to challenge")
	}
	to, err := s.opts.Account(ctx, name)
	switch {
	case errors.Is(err, store.ErrNoAccount) && utf8.RuneCountInString(name) > playername.MaxLen:
		// Not echoed: a refusal never carries back a page of the sender's text.
		return Person{}, reject(ErrNotFound, "there is no such player: names have at most %d characters", playername.MaxLen)
	case errors.Is(err, store.ErrNoAccount):
		return Person{}, reject(ErrNotFound, "there is no player called %q", name)
	case err != nil:
		return Person{}, s.failed("find an account", err)
	}
	return to, nil
}

// mayChallenge refuses a challenge to a person who cannot play now, and
// between people one of whom blocks the other.
func (s *Service) mayChallenge(ctx context.Context, from, to Person) error {
	if s.opts.Barred != nil && s.opts.Barred(to.Account) != nil {
		// Why is the person's business and the operators'.
		return reject(ErrUnavailable, "%s cannot play at the moment", to.Name)
	}
	if s.opts.Blocked == nil {
		return nil
	}
	for _, pair := range []struct {
		a, b Person
		msg  string
	}{{from, to, "you blocked %s: unblock them to challenge them"}, {to, from, "%s does not take challenges from you"}} {
		blocked, err := s.opts.Blocked(ctx, pair.a.Account, pair.b.Account)
		if err != nil {
			return s.failed("read a block", err)
		}
		if blocked {
			return reject(ErrBlocked, pair.msg, to.Name)
		}
	}
	return nil
}

// Answer records p's answer to challenge id: accept, or decline with one
// of protocol.DeclineReasons ("" is "generic"). The last accept seats
// everyone at a new table; a decline ends the challenge for all.
func (s *Service) Answer(ctx context.Context, p Person, id string, accept bool, reason string) (protocol.ChallengeInfo, error) {
	if p.Account == "" {
		return protocol.ChallengeInfo{}, reject(ErrAccountRequired, "sign in to answer a challenge")
	}
	a := store.Answer{Accept: accept}
	if !accept {
		if reason == "" {
			reason = "generic"
		}
		if !slices.Contains(protocol.DeclineReasons, reason) {
			return protocol.ChallengeInfo{}, reject(ErrBadRequest, "decline with one of the reasons %v, not %q", protocol.DeclineReasons, reason)
		}
		a.Reason = reason
	}
	c, err := s.st.AnswerChallenge(ctx, id, p.Account, a, s.opts.Now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return protocol.ChallengeInfo{}, reject(ErrNotFound, "you have no challenge %q", id)
	case errors.Is(err, store.ErrConflict):
		return protocol.ChallengeInfo{}, reject(ErrChallengeOver, "the challenge %q is over, or you answered it already", id)
	case err != nil:
		return protocol.ChallengeInfo{}, s.failed("answer a challenge", err)
	}
	if c.Status == store.ChallengeAccepted {
		ctx = context.WithoutCancel(ctx) // as a pairing: never half seated
		game, err := s.seatChallenge(ctx, c)
		if err != nil {
			s.log.Warn("meet: seating a challenge, once more", "challenge", id, "err", err)
			game, err = s.seatChallenge(ctx, c) // a failure may pass
		}
		if err != nil {
			s.log.Error("meet: seating a challenge", "challenge", id, "err", err)
		} else {
			c.Game = game
		}
	}
	s.tellChallenge(ctx, c)
	return s.challengeInfo(c, p.Account), nil
}

// seatChallenge makes the table of an accepted challenge and seats
// everyone: the challenger first, then the people challenged in order.
func (s *Service) seatChallenge(ctx context.Context, c store.Invitation) (string, error) {
	seats := make([]string, 1+len(c.To))
	tbl, err := s.hub.Create(ctx, table.TableSetup{Seats: seats, Pace: c.Pace, Rated: c.Rated})
	if err != nil {
		return "", err
	}
	game := tbl.Info.ID
	if err := s.st.SetChallengeGame(ctx, c.ID, game); err != nil {
		s.hub.Cancel(ctx, game, tbl.Creator)
		return "", err
	}
	people := append([]store.Challenged{{Account: c.From, Name: c.FromName}}, c.To...)
	for i, t := range people {
		s.sit(ctx, game, i, table.Person{Name: t.Name, Account: t.Account})
	}
	s.log.Info("meet: challenge accepted", "challenge", c.ID, "game", game)
	return game, nil
}

// CancelChallenge withdraws p's open challenge id.
func (s *Service) CancelChallenge(ctx context.Context, p Person, id string) (protocol.ChallengeInfo, error) {
	switch err := s.st.CancelChallenge(ctx, id, p.Account); {
	case p.Account == "" || errors.Is(err, store.ErrNotFound):
		return protocol.ChallengeInfo{}, reject(ErrNotFound, "you made no challenge %q", id)
	case errors.Is(err, store.ErrConflict):
		return protocol.ChallengeInfo{}, reject(ErrChallengeOver, "the challenge %q is over already", id)
	case err != nil:
		return protocol.ChallengeInfo{}, s.failed("cancel a challenge", err)
	}
	c, err := s.st.Challenge(ctx, id)
	if err != nil {
		return protocol.ChallengeInfo{}, s.failed("read a challenge", err)
	}
	s.tellChallenge(ctx, c)
	return s.challengeInfo(c, p.Account), nil
}

// ChallengeSeat returns where p sits at the table of challenge id, which
// everyone accepted: the game, the seat and the account's seat token.
func (s *Service) ChallengeSeat(ctx context.Context, p Person, id string) (game string, seat int, token string, err error) {
	c, err := s.st.Challenge(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "", 0, "", reject(ErrNotFound, "you have no challenge %q", id)
	case err != nil:
		return "", 0, "", s.failed("read a challenge", err)
	}
	seat = slices.Index(append([]string{c.From}, accountsOf(c)...), p.Account)
	switch {
	case p.Account == "" || seat < 0:
		return "", 0, "", reject(ErrNotFound, "you have no challenge %q", id)
	case c.Game == "":
		return "", 0, "", reject(ErrChallengeOver, "the challenge %q is %s, without a table", id, c.Status)
	}
	if token, err = s.opts.SeatToken(ctx, p.Account, c.Game); err != nil {
		return "", 0, "", s.failed("make a seat token", err)
	}
	return c.Game, seat, token, nil
}

// Challenges lists p's challenges, made or received, open or recently
// ended, newest first.
func (s *Service) Challenges(ctx context.Context, p Person) ([]protocol.ChallengeInfo, error) {
	out := []protocol.ChallengeInfo{}
	if p.Account == "" {
		return out, nil
	}
	cs, err := s.st.ChallengesOf(ctx, p.Account, time.Now().Add(-s.opts.Kept))
	if err != nil {
		return nil, s.failed("read the challenges", err)
	}
	for _, c := range cs {
		out = append(out, s.challengeInfo(c, p.Account))
	}
	return out, nil
}

// challengeInfo describes c to the account viewer.
func (s *Service) challengeInfo(c store.Invitation, viewer string) protocol.ChallengeInfo {
	in := protocol.ChallengeInfo{ID: c.ID, From: c.FromName, Pace: c.Pace, Rated: c.Rated, Status: string(c.Status),
		Game: c.Game, Created: c.Created.UTC(), Expires: c.Expires.UTC(), Mine: c.From == viewer, To: []protocol.ChallengedInfo{}}
	for _, t := range c.To {
		ti := protocol.ChallengedInfo{Name: t.Name}
		if t.Answered {
			ti.Answer, ti.Reason = "decline", t.Reason
			if t.Accept {
				ti.Answer, ti.Reason = "accept", ""
			}
		}
		in.To = append(in.To, ti)
	}
	return in
}

// tellChallenge tells everyone at c what it is now, each as they see it.
func (s *Service) tellChallenge(ctx context.Context, c store.Invitation) {
	for _, a := range append([]string{c.From}, accountsOf(c)...) {
		in := s.challengeInfo(c, a)
		s.tell(ctx, protocol.MeetMessage{Type: protocol.TypeChallenge, Challenge: &in}, "a:"+a)
	}
}

func accountsOf(c store.Invitation) []string {
	out := make([]string, len(c.To))
	for i, t := range c.To {
		out[i] = t.Account
	}
	return out
}
