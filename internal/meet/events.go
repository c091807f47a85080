package meet

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Channel carries what people are told, between the nodes.
const Channel = "razzia_meet"

// notice is a payload on Channel: a message for some people, or for
// everyone listening (All).
type notice struct {
	To  []string             `json:"to,omitempty"`
	All bool                 `json:"all,omitempty"`
	Msg protocol.MeetMessage `json:"msg"`
}

// A Listener receives the messages for one person on this node: their
// requests and challenges as they change, and the lobby's changes.
type Listener struct {
	person string
	c      chan protocol.MeetMessage
	s      *Service
}

// Messages returns the listener's messages. A listener that falls behind
// loses the oldest and is sent a protocol.TypeResync message.
func (l *Listener) Messages() <-chan protocol.MeetMessage { return l.c }

// Close stops the listener.
func (l *Listener) Close() {
	l.s.ln.mu.Lock()
	defer l.s.ln.mu.Unlock()
	delete(l.s.ln.by[l.person], l)
	if len(l.s.ln.by[l.person]) == 0 {
		delete(l.s.ln.by, l.person)
	}
}

// deliver sends m without waiting, under the listeners' lock.
func (l *Listener) deliver(m protocol.MeetMessage) {
	select {
	case l.c <- m:
		return
	default:
	}
	// Full: the reader fell behind. Drop the oldest and tell it to read
	// the lists again.
	select {
	case <-l.c:
	default:
	}
	select {
	case l.c <- protocol.MeetMessage{Type: protocol.TypeResync}:
	default:
	}
}

// listeners are the listeners of this node, by person.
type listeners struct {
	mu sync.Mutex
	by map[string]map[*Listener]bool
}

// Listen returns a listener of the person's messages on this node.
func (s *Service) Listen(p Person) *Listener {
	l := &Listener{person: p.Key, c: make(chan protocol.MeetMessage, 32), s: s}
	s.ln.mu.Lock()
	defer s.ln.mu.Unlock()
	if s.ln.by[p.Key] == nil {
		s.ln.by[p.Key] = map[*Listener]bool{}
	}
	s.ln.by[p.Key][l] = true
	return l
}

// Listening reports how many listeners this node has, for tests.
func (s *Service) Listening() int {
	s.ln.mu.Lock()
	defer s.ln.mu.Unlock()
	n := 0
	for _, ls := range s.ln.by {
		n += len(ls)
	}
	return n
}

// receive delivers a notice to this node's listeners.
func (s *Service) receive(n notice) {
	s.ln.mu.Lock()
	defer s.ln.mu.Unlock()
	if n.All {
		for _, ls := range s.ln.by {
			for l := range ls {
				l.deliver(n.Msg)
			}
		}
		return
	}
	for _, p := range n.To {
		for l := range s.ln.by[p] {
			l.deliver(n.Msg)
		}
	}
}

// tell sends m to the people on every node. Delivery is at most once: a
// page that misses a message reads its lists again when it reconnects.
func (s *Service) tell(ctx context.Context, m protocol.MeetMessage, people ...string) {
	s.publish(ctx, notice{To: people, Msg: m})
}

func (s *Service) publish(ctx context.Context, n notice) {
	b, err := json.Marshal(n)
	if err == nil && len(b) > store.MaxPayload {
		err = errTooLong
	}
	if err == nil {
		err = s.st.Publish(context.WithoutCancel(ctx), Channel, string(b))
	}
	if err != nil {
		s.log.Warn("meet: cannot tell", "type", n.Msg.Type, "err", err)
	}
}

var errTooLong = &Error{Kind: ErrInternal, Msg: "a message too long for the channel between nodes"}

// resync tells every listener of this node that messages may be lost.
func (s *Service) resync() {
	s.receive(notice{All: true, Msg: protocol.MeetMessage{Type: protocol.TypeResync}})
}

// Start subscribes to the channel between nodes and runs the service
// (Run) in a goroutine; stop ends it and waits.
func (s *Service) Start(ctx context.Context) (stop func(), err error) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	notices, err := s.st.Subscribe(ctx, Channel)
	if err != nil {
		cancel()
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.run(ctx, notices)
	}()
	return func() { cancel(); <-done }, nil
}
