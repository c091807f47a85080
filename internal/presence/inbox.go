package presence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/razziagame/razzia/internal/store"
)

// InboxChannel is the store channel that carries messages to the pages
// of one person, or to every lobby, on every node.
const InboxChannel = "razzia_inbox"

// inboxBuffer is how many messages an inbox holds for its reader.
const inboxBuffer = 32

// Resync is the message an inbox gets in place of those it lost (its
// reader fell behind, or the node missed the channel's notices): read
// again what the messages would have changed.
var Resync = []byte(`{"type":"resync"}`)

// A letter is a message for a person's pages, or for every lobby (All),
// as it travels.
type letter struct {
	Person  string          `json:"person,omitempty"`
	All     bool            `json:"all,omitempty"`
	Message json.RawMessage `json:"message"`
}

// ErrTooLong is a message too long to pass between nodes.
var ErrTooLong = errors.New("presence: a message too long to pass between nodes")

// An inbox is one live page's: the messages for its person, and, for a
// lobby, those for everyone.
type inbox struct {
	person string
	all    bool
	c      chan []byte
}

// Tell sends message (a JSON object for the page, with its "type") to
// every live page of the person (a Person.Key: AccountKey for an
// account), on every node: how a feature tells a person of something at
// once wherever they have a page open (a challenge, a table found).
// Delivery is at most once; a page that falls behind gets Resync instead;
// a person with no page open gets nothing.
func (s *Service) Tell(ctx context.Context, person string, message []byte) error {
	if person == "" {
		return fmt.Errorf("presence: a message for nobody")
	}
	return s.post(ctx, letter{Person: person, Message: message})
}

// TellLobbies sends message to every live page that asked for the
// lobby's messages (Inbox with lobby), on every node: a change every
// lobby shows (a Play-now request).
func (s *Service) TellLobbies(ctx context.Context, message []byte) error {
	return s.post(ctx, letter{All: true, Message: message})
}

func (s *Service) post(ctx context.Context, l letter) error {
	if !json.Valid(l.Message) {
		return fmt.Errorf("presence: a message for %q that is not JSON", l.Person)
	}
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if len(b) > store.MaxPayload {
		return fmt.Errorf("%w: %d bytes", ErrTooLong, len(b))
	}
	s.deliver(l) // this node's at once
	return s.st.Publish(ctx, InboxChannel, s.opts.Node+" "+string(b))
}

// Inbox returns the messages told to the person (Tell) while it is open,
// and, with lobby, those told to every lobby (TellLobbies), and the
// function that closes it: a page's live socket reads it.
func (s *Service) Inbox(person string, lobby bool) (<-chan []byte, func()) {
	in := &inbox{person: person, all: lobby, c: make(chan []byte, inboxBuffer)}
	s.mu.Lock()
	s.inboxes[in] = struct{}{}
	s.mu.Unlock()
	return in.c, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.inboxes, in)
	}
}

// deliver hands a letter to this node's inboxes it is for.
func (s *Service) deliver(l letter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for in := range s.inboxes {
		if l.All && in.all || !l.All && in.person != "" && in.person == l.Person {
			in.put(l.Message)
		}
	}
}

// resyncInboxes tells every inbox of this node that messages may be lost.
func (s *Service) resyncInboxes() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for in := range s.inboxes {
		in.put(Resync)
	}
}

// put gives the inbox m without waiting; a full inbox loses its oldest
// message and gets Resync, once, in its place.
func (in *inbox) put(m []byte) {
	select {
	case in.c <- m:
		return
	default:
	}
	select {
	case <-in.c:
	default:
	}
	select {
	case in.c <- Resync:
	default:
	}
}

// receive handles a letter from the store: another node's.
func (s *Service) receive(payload string) {
	node, body, _ := strings.Cut(payload, " ")
	if node == s.opts.Node {
		return // delivered when told
	}
	var l letter
	if err := json.Unmarshal([]byte(body), &l); err != nil || l.Person == "" && !l.All {
		s.log.Warn("a letter that does not parse", "payload", payload, "err", err)
		return
	}
	s.deliver(l)
}
