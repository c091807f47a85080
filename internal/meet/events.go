package meet

import (
	"context"
	"encoding/json"

	"github.com/razziagame/razzia/internal/protocol"
)

// tell sends m to the people (Person.Key) on every node, through
// Options.Tell. Delivery is at most once: a page that misses a message
// reads its lists again when it reconnects.
func (s *Service) tell(ctx context.Context, m protocol.MeetMessage, people ...string) {
	if s.opts.Tell == nil {
		return
	}
	b, err := json.Marshal(m)
	for _, p := range people {
		if err == nil {
			err = s.opts.Tell(context.WithoutCancel(ctx), p, b)
		}
	}
	if err != nil {
		s.log.Warn("meet: cannot tell", "type", m.Type, "err", err)
	}
}

// tellLobbies sends m to every lobby, through Options.TellLobbies.
func (s *Service) tellLobbies(ctx context.Context, m protocol.MeetMessage) {
	if s.opts.TellLobbies == nil {
		return
	}
	b, err := json.Marshal(m)
	if err == nil {
		err = s.opts.TellLobbies(context.WithoutCancel(ctx), b)
	}
	if err != nil {
		s.log.Warn("meet: cannot tell the lobbies", "type", m.Type, "err", err)
	}
}

// Start runs the service (Run) in a goroutine; stop ends it and waits.
func (s *Service) Start(ctx context.Context) (stop func(), err error) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.run(ctx)
	}()
	return func() { cancel(); <-done }, nil
}
