package server

import (
	"context"

	"github.com/razziagame/razzia/internal/moderation"
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
	return p.Tell(ctx, account, message)
}

// hubTables is the Hub as the moderation asks for it, once it is built.
type hubTables struct{ s *Server }

func (h hubTables) Expel(ctx context.Context, game, account string) error {
	return h.s.Hub.Expel(ctx, game, account)
}

func (h hubTables) Strike(ctx context.Context, game string, seq int) error {
	return h.s.Hub.Strike(ctx, game, seq)
}
