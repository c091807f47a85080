package server

import (
	"context"

	"github.com/razziagame/razzia/internal/meet"
	"github.com/razziagame/razzia/internal/moderation"
	"github.com/razziagame/razzia/internal/presence"
	"github.com/razziagame/razzia/internal/protocol"
)

// startModeration builds the moderation before the accounts, which it
// watches (a new server's first account is an operator, a banned name
// cannot be registered again), and the Hub, which asks it who may chat;
// it reaches the Hub, built after it, through hubTables, and the
// person's pages through presence's Tell. It follows the sanctions until
// the server stops.
func (s *Server) startModeration() error {
	o := s.opts.Moderation
	if o.Log == nil {
		o.Log = s.log
	}
	if o.Tell == nil {
		o.Tell = s.tell
	}
	if o.Sanctioned == nil {
		o.Sanctioned = s.endMeets
	}
	s.Moderation = moderation.New(s.Store, hubTables{s}, o)
	stop, err := s.Moderation.Start()
	if err != nil {
		return err
	}
	s.stops = append(s.stops, stop)
	a := &s.opts.Accounts
	if a.Created == nil {
		a.Created = s.Moderation.Created
	}
	if a.NameBarred == nil {
		a.NameBarred = s.Moderation.NameBarred
	}
	return nil
}

// tell sends a message to the account's live pages through presence,
// which starts after the moderation; before it, the person reads the
// action when a page of theirs opens.
func (s *Server) tell(ctx context.Context, account string, message []byte) error {
	p := s.present.Load()
	if p == nil {
		return nil
	}
	return p.Tell(ctx, presence.AccountKey(account), message)
}

// endMeets ends a suspended or banned account's open Play-now requests
// and challenges: made by them, cancelled; to them, declined. The meeting
// service starts after the moderation; an action before it has none.
func (s *Server) endMeets(ctx context.Context, account string) {
	if s.Meet == nil {
		return
	}
	p := meet.AccountPerson(account, "", 0)
	seeks, err := s.Meet.Seeks(ctx, p)
	if err != nil {
		s.log.Warn("cannot read a sanctioned person's requests", "account", account, "err", err)
	}
	for _, k := range seeks.Mine {
		if k.Status == protocol.SeekOpen {
			if _, err := s.Meet.CancelSeek(ctx, p, k.ID); err != nil {
				s.log.Warn("cannot end a sanctioned person's request", "seek", k.ID, "err", err)
			}
		}
	}
	challenges, err := s.Meet.Challenges(ctx, p)
	if err != nil {
		s.log.Warn("cannot read a sanctioned person's challenges", "account", account, "err", err)
	}
	for _, c := range challenges {
		if c.Status != protocol.ChallengeOpen {
			continue
		}
		if _, err := s.Meet.CancelChallenge(ctx, p, c.ID); err == nil {
			continue // theirs
		}
		if _, err := s.Meet.Answer(ctx, p, c.ID, false, "generic"); err != nil {
			s.log.Warn("cannot end a sanctioned person's challenge", "challenge", c.ID, "err", err)
		}
	}
}

// hubTables is the Hub as the moderation asks for it, once it is built.
type hubTables struct{ s *Server }

func (h hubTables) Expel(ctx context.Context, game, account string) error {
	return h.s.Hub.Expel(ctx, game, account)
}

func (h hubTables) Strike(ctx context.Context, game string, seq int) error {
	return h.s.Hub.Strike(ctx, game, seq)
}
