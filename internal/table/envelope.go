package table

import (
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
)

// An answer is the outcome of a request: the seat of a join, or the
// refusal: its sentinel's text, its code and its message.
type answer struct {
	Seat int    `json:"seat,omitempty"`
	Kind string `json:"kind,omitempty"` // the sentinel's text; empty for success
	// Code is the sentinel's code, which survives a node of another
	// version that lacks the sentinel.
	Code  protocol.Code `json:"code,omitempty"`
	Msg   string        `json:"msg,omitempty"`
	Retry time.Duration `json:"retry,omitempty"`
}

// answerOf describes the outcome of a request for its asker.
func answerOf(seat int, err error) answer {
	var e *Error
	switch {
	case err == nil:
		return answer{Seat: seat}
	case errors.Is(err, errNotOwner):
		return answer{Kind: errNotOwner.Error()}
	case !errors.As(err, &e):
		e = unavailable() // the owner's context ended: it was too slow
	}
	code, ok := protocol.CodeOf(e.Kind)
	if !ok {
		code = protocol.Internal
	}
	return answer{Kind: e.Kind.Error(), Code: code, Msg: e.Msg, Retry: e.RetryAfter}
}

// result is the outcome an answer describes.
func (a answer) result() (int, error) {
	if a.Kind == "" {
		return a.Seat, nil
	}
	if a.Kind == errNotOwner.Error() {
		return 0, errNotOwner
	}
	return 0, &Error{Kind: a.kind(), Msg: a.Msg, RetryAfter: a.Retry}
}

// kind is the sentinel the answer names; for one this node does not know
// (the owner runs another version), its code itself, or ErrInternal if the
// code is unknown too.
func (a answer) kind() error {
	if r := protocol.RefusalNamed(a.Kind); r != nil && (a.Code == "" || a.Code == r.Code()) {
		return r
	}
	if a.Code.Known() {
		return a.Code
	}
	return ErrInternal
}

// An envelope is a message on a node's channel: a command from From, or
// the answer (Re) to From's command ID.
type envelope struct {
	ID   uint64         `json:"id"`
	From string         `json:"from"`
	Req  *match.Command `json:"req,omitempty"`
	Re   *answer        `json:"re,omitempty"`
	// Notice says that From takes the change notice of a move made for
	// its command for the answer (store.Ask): nodes of earlier versions
	// wait for the answer.
	Notice bool `json:"notice,omitempty"`
}

// NodeChannel is the store channel on which node receives the requests
// passed to it and the answers to its own.
func NodeChannel(node string) string {
	return "razzia_node_" + strings.ReplaceAll(node, "-", "_")
}

// forwarder keeps the requests this node passed on, waiting for answers.
type forwarder struct {
	mu       sync.Mutex
	next     uint64
	waiting  map[uint64]chan answer
	spare    []chan answer // channels no answer can come to any more
	channels sync.Map      // node → NodeChannel(node), made once for each node asked
}

// channel returns NodeChannel(node).
func (f *forwarder) channel(node string) string {
	if c, ok := f.channels.Load(node); ok {
		return c.(string)
	}
	c := NodeChannel(node)
	f.channels.Store(node, c)
	return c
}

func (f *forwarder) init() { f.waiting = map[uint64]chan answer{} }

func (f *forwarder) add() (uint64, chan answer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	var ch chan answer
	if n := len(f.spare); n > 0 {
		ch, f.spare = f.spare[n-1], f.spare[:n-1]
	} else {
		ch = make(chan answer, 1)
	}
	f.waiting[f.next] = ch
	return f.next, ch
}

// remove forgets request id, whose answer came on ch if received. Its
// channel is used again when no answer can come to it any more: none was
// delivered, or the one delivered was received. A move passed on would
// cost a channel.
func (f *forwarder) remove(id uint64, ch chan answer, received bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, waiting := f.waiting[id]
	delete(f.waiting, id)
	if (waiting || received) && len(f.spare) < 64 {
		f.spare = append(f.spare, ch)
	}
}

// deliver hands an answer to its waiting request, if it still waits.
func (f *forwarder) deliver(id uint64, a answer) {
	f.mu.Lock()
	ch := f.waiting[id]
	delete(f.waiting, id)
	f.mu.Unlock()
	if ch != nil {
		ch <- a
	}
}
