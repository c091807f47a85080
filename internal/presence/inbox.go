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
// of one account, on every node.
const InboxChannel = "razzia_inbox"

// inboxBuffer is how many messages an inbox holds for its reader.
const inboxBuffer = 16

// A letter is a message for an account's pages, as it travels.
type letter struct {
	Account string          `json:"account"`
	Message json.RawMessage `json:"message"`
}

// ErrTooLong is a message too long to pass between nodes.
var ErrTooLong = errors.New("presence: a message too long to pass between nodes")

// Tell sends message (a JSON object for the page, with its "type") to
// every live page of the account, on every node: how a feature tells a
// person of something at once wherever they have a page open (a
// challenge). Delivery is at most once; an account with no page open
// gets nothing.
func (s *Service) Tell(ctx context.Context, account string, message []byte) error {
	if account == "" || !json.Valid(message) {
		return fmt.Errorf("presence: a message for account %q that is not JSON", account)
	}
	b, err := json.Marshal(letter{Account: account, Message: message})
	if err != nil {
		return err
	}
	if len(b) > store.MaxPayload {
		return fmt.Errorf("%w: %d bytes", ErrTooLong, len(b))
	}
	s.deliver(letter{Account: account, Message: message}) // this node's at once
	return s.st.Publish(ctx, InboxChannel, s.opts.Node+" "+string(b))
}

// Inbox returns the messages told to the account (Tell) while it is
// open, and the function that closes it: a page's live socket reads it.
func (s *Service) Inbox(account string) (<-chan []byte, func()) {
	c := make(chan []byte, inboxBuffer)
	s.mu.Lock()
	if s.inboxes[account] == nil {
		s.inboxes[account] = map[chan []byte]struct{}{}
	}
	s.inboxes[account][c] = struct{}{}
	s.mu.Unlock()
	return c, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.inboxes[account], c)
		if len(s.inboxes[account]) == 0 {
			delete(s.inboxes, account)
		}
	}
}

// deliver hands a letter to this node's inboxes of its account; a full
// inbox drops it.
func (s *Service) deliver(l letter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.inboxes[l.Account] {
		select {
		case c <- l.Message:
		default:
		}
	}
}

// receive handles a letter from the store: another node's.
func (s *Service) receive(payload string) {
	node, body, _ := strings.Cut(payload, " ")
	if node == s.opts.Node {
		return // delivered when told
	}
	var l letter
	if err := json.Unmarshal([]byte(body), &l); err != nil || l.Account == "" {
		s.log.Warn("a letter that does not parse", "payload", payload, "err", err)
		return
	}
	s.deliver(l)
}
