package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// ChangesChannel carries a Change for every committed change of a game.
const ChangesChannel = "razzia_changes"

// MaxPayload is the longest payload Publish sends: PostgreSQL's NOTIFY
// takes less than 8000 bytes.
const MaxPayload = 7000

// A Notice is one message received on a channel.
type Notice struct {
	Channel string
	Payload string
	// Missed marks a notice without a message: notices to this subscriber
	// may have been lost (it fell behind, or the connection to the
	// database was lost and is back). Re-read what you serve.
	Missed bool
}

// ChangeKind says what changed in a game.
type ChangeKind string

// The kinds of change.
const (
	ChangeCreated ChangeKind = "created" // CreateGame, CreateOwnedGame (with the lease)
	ChangeSeat    ChangeKind = "seat"    // TakeSeat, FreeSeat
	ChangeClosed  ChangeKind = "closed"  // CloseTable
	ChangeMove    ChangeKind = "move"    // AppendMove: move Moves-1 is committed
	ChangeClock   ChangeKind = "clock"   // SetClock: a timeout, a take-over, a pre-move
	ChangeLease   ChangeKind = "lease"   // acquired by a new holder, or released
	ChangeChat    ChangeKind = "chat"    // AddChat, SetMute
	// ChangeRematch is SetRematch: a finished game's rematch offer changed.
	ChangeRematch ChangeKind = "rematch"
)

// A Change is the payload of a notice on ChangesChannel.
type Change struct {
	Game   string     `json:"game"`
	Kind   ChangeKind `json:"kind"`
	Moves  int        `json:"moves"`          // moves stored after the change
	Status Status     `json:"status"`         // the status after the change
	Node   string     `json:"node,omitempty"` // a lease's holder; empty when released or none
	Fence  Fence      `json:"fence,omitempty"`
	// Token and Clock are a move's (ChangeMove): the move committed and
	// the clock stored with it ("" when the move kept the stored clock);
	// Clock is also a ChangeClock's clock, "" for none. A replica that
	// holds the moves before them applies them without reading the game
	// (Carried).
	Token string `json:"token,omitempty"`
	Clock string `json:"clock,omitempty"`
	// Asker and Ask name the request another node passed to the owner
	// that this change made (a move's): the asker takes the notice for
	// the owner's answer (see Ask).
	Asker string `json:"asker,omitempty"`
	Ask   uint64 `json:"ask,omitempty"`
}

// An Ask is a request that node Node passed to a game's owner, its
// number ID there. The owner makes the request's move with a context
// carrying it (WithAsk); a store that names it in the move's change
// notice (Change.Asked) sets Told once the move is committed, and the
// owner then leaves the answer to the notice: one notice a move, not two.
// A store that does not leaves Told false, and the owner answers.
type Ask struct {
	Node string
	ID   uint64
	Told bool
}

type askKey struct{}

// WithAsk returns ctx carrying a, for the write made for it.
func WithAsk(ctx context.Context, a *Ask) context.Context {
	return context.WithValue(ctx, askKey{}, a)
}

// AskOf returns the Ask that ctx carries, or nil.
func AskOf(ctx context.Context) *Ask {
	a, _ := ctx.Value(askKey{}).(*Ask)
	return a
}

// Asked returns c naming the request a (nil: c as it is).
func (c Change) Asked(a *Ask) Change {
	if a != nil {
		c.Asker, c.Ask = a.Node, a.ID
	}
	return c
}

// maxCarried bounds the move and clock a notice carries: a longer pair (or
// one that is not UTF-8, which JSON would alter) is left out and the
// replica reads the game instead, so that the notice stays under
// MaxPayload whatever the clock holds.
const maxCarried = MaxPayload / 4

// carried reports whether a notice carries the token and clock.
func carried(token string, clock []byte) bool {
	return len(token)+len(clock) <= maxCarried && utf8.ValidString(token) && utf8.Valid(clock)
}

// MoveChange returns the notice of move index of game id, committed with
// the status and clock (nil: the stored clock kept).
func MoveChange(id string, index int, token string, status Status, clock []byte) Change {
	c := Change{Game: id, Kind: ChangeMove, Moves: index + 1, Status: status}
	if carried(token, clock) {
		c.Token, c.Clock = token, string(clock)
	}
	return c
}

// ClockChange returns the notice of the clock of game id stored after its
// first moves moves, with the status.
func ClockChange(id string, moves int, status Status, clock []byte) Change {
	c := Change{Game: id, Kind: ChangeClock, Moves: moves, Status: status}
	if carried("", clock) {
		c.Clock = string(clock)
	}
	return c
}

// Carried returns what a change of a game's moves or clock carries: the
// game after its first from moves has the move ("" for a clock's change)
// and the clock (nil: the one stored kept); false for another change or
// one that does not carry it (the reader reads the game instead). A
// replica hears one a move: the move is not a Delta's slice, which would
// cost an allocation.
func (c Change) Carried() (from int, move string, clock []byte, ok bool) {
	switch {
	case c.Kind == ChangeMove && c.Token != "":
		move, from = c.Token, c.Moves-1
	case c.Kind == ChangeClock && c.Clock != "":
		from = c.Moves
	default:
		return 0, "", nil, false
	}
	if c.Clock != "" {
		clock = []byte(c.Clock)
	}
	return from, move, clock, true
}

// Payload encodes c for ChangesChannel.
func (c Change) Payload() string {
	if p, ok := encodeChange(c); ok {
		return p
	}
	return marshalChange(c)
}

// ParseChange decodes the payload of a notice on ChangesChannel.
func ParseChange(payload string) (Change, error) {
	c, ok := decodeChange(payload)
	if !ok {
		var err error
		if c, err = unmarshalChange(payload); err != nil {
			return Change{}, fmt.Errorf("store: change notice %q: %w", payload, err)
		}
	}
	if c.Game == "" || c.Kind == "" {
		return Change{}, fmt.Errorf("store: change notice %q: no game or kind", payload)
	}
	return c, nil
}

// unmarshalChange decodes the payloads decodeChange leaves: a variable
// of its own, so that ParseChange's change stays off the heap.
func unmarshalChange(payload string) (Change, error) {
	var c Change
	err := json.Unmarshal([]byte(payload), &c)
	return c, err
}

// MayFinish reports, without decoding it, whether the payload of a notice
// on ChangesChannel may announce that a game finished: a subscriber that
// waits for finished games decodes only those (ParseChange says for sure).
func MayFinish(payload string) bool {
	return strings.Contains(payload, `"status":"`+string(StatusFinished)+`"`)
}

// CheckChannel reports what makes name unfit as a channel: it must be 1 to
// 63 lower-case letters, digits and underscores (a PostgreSQL identifier
// that needs no quoting), starting with a letter.
func CheckChannel(name string) error {
	ok := len(name) > 0 && len(name) < 64 && name[0] >= 'a' && name[0] <= 'z'
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
	}
	if !ok {
		return fmt.Errorf("store: channel name %q: want 1 to 63 of a-z, 0-9 and _, starting with a letter", name)
	}
	return nil
}

// CheckPublish reports what makes a Publish by a caller unfit: a bad
// channel name, the store's own ChangesChannel, or a payload too long.
func CheckPublish(channel, payload string) error {
	if err := CheckChannel(channel); err != nil {
		return err
	}
	if channel == ChangesChannel {
		return fmt.Errorf("store: %s carries the store's own notices: publish on another channel", channel)
	}
	if len(payload) > MaxPayload {
		return fmt.Errorf("store: payload of %d bytes on %s: at most %d", len(payload), channel, MaxPayload)
	}
	return nil
}

// ErrClosed is a call on a closed store or broker.
var ErrClosed = errors.New("the store is closed")

// subscriberBuffer is how many notices wait for a slow subscriber before
// they are dropped for one Missed notice. A node of a busy cluster hears
// every game's commits (thousands a second at a thousand tables), and a
// Missed notice makes it re-read every game it serves: on a machine short
// of CPU, a buffer of a fraction of a second turned every scheduling
// hiccup into such a re-read, which cost more CPU still. Some seconds of
// notices (a few hundred kilobytes) keep the re-read for real losses.
const subscriberBuffer = 16384

// A Broker delivers notices to the subscribers of one process, never
// blocking the sender: a subscriber whose buffer is full loses its queued
// notices and gets one Missed notice instead. The zero value is ready.
type Broker struct {
	mu     sync.Mutex
	subs   map[*subscriber]struct{}
	closed bool
}

type subscriber struct {
	ch       chan Notice
	hear     func(Notice)  // instead of ch: called as the notice is published
	done     chan struct{} // closed as a hearer's subscription ends
	channels map[string]bool
}

// Subscribe registers a subscriber of the channels until ctx is done or
// the broker closes.
func (b *Broker) Subscribe(ctx context.Context, channels ...string) (<-chan Notice, error) {
	sub := &subscriber{ch: make(chan Notice, subscriberBuffer)}
	if err := b.add(ctx, sub, channels); err != nil {
		return nil, err
	}
	return sub.ch, nil
}

// A Hearer delivers notices to a function on the goroutine that receives
// them, rather than through a Go channel that another goroutine waits on:
// a node hears several notices a move, and each hop is a goroutine's
// wake-up.
type Hearer interface {
	// Hear calls f with every notice of the channels, one at a time and
	// in order, until ctx is done or the store closes; then it closes
	// done. Notices sent after Hear returns are heard. f must not block
	// nor call the store: it holds up every notice after its own.
	Hear(ctx context.Context, f func(Notice), channels ...string) (done <-chan struct{}, err error)
}

// Hear implements Hearer: f is called by Publish and Missed, under the
// broker's lock, so it must not call the broker.
func (b *Broker) Hear(ctx context.Context, f func(Notice), channels ...string) (<-chan struct{}, error) {
	sub := &subscriber{hear: f, done: make(chan struct{})}
	if err := b.add(ctx, sub, channels); err != nil {
		return nil, err
	}
	return sub.done, nil
}

// add registers sub for the channels until ctx is done or the broker
// closes.
func (b *Broker) add(ctx context.Context, sub *subscriber, channels []string) error {
	if len(channels) == 0 {
		return errors.New("store: subscribe to no channel")
	}
	sub.channels = map[string]bool{}
	for _, c := range channels {
		if err := CheckChannel(c); err != nil {
			return err
		}
		sub.channels[c] = true
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return ErrClosed
	}
	if b.subs == nil {
		b.subs = map[*subscriber]struct{}{}
	}
	b.subs[sub] = struct{}{}
	context.AfterFunc(ctx, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if _, ok := b.subs[sub]; ok {
			delete(b.subs, sub)
			sub.end()
		}
	})
	return nil
}

// end closes the subscriber's channel, or a hearer's done.
func (s *subscriber) end() {
	if s.hear != nil {
		close(s.done)
		return
	}
	close(s.ch)
}

// Channels returns the channels someone subscribes to.
func (b *Broker) Channels() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	seen := map[string]bool{}
	var cs []string
	for sub := range b.subs {
		for c := range sub.channels {
			if !seen[c] {
				seen[c] = true
				cs = append(cs, c)
			}
		}
	}
	return cs
}

// Publish delivers the payload to the channel's subscribers.
func (b *Broker) Publish(channel, payload string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for sub := range b.subs {
		if sub.channels[channel] {
			sub.send(Notice{Channel: channel, Payload: payload})
		}
	}
}

// Missed tells every subscriber that it may have missed notices.
func (b *Broker) Missed() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for sub := range b.subs {
		sub.send(Notice{Missed: true})
	}
}

// send queues n; on a full buffer it drops what waits for one Missed
// notice. Only the broker sends, under its lock, so there is room after
// the drain. A hearer hears n at once.
func (s *subscriber) send(n Notice) {
	if s.hear != nil {
		s.hear(n)
		return
	}
	select {
	case s.ch <- n:
		return
	default:
	}
	for drained := false; !drained; {
		select {
		case <-s.ch:
		default:
			drained = true
		}
	}
	s.ch <- Notice{Missed: true}
	if !n.Missed {
		s.ch <- n
	}
}

// Close ends every subscription; later Subscribes fail.
func (b *Broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for sub := range b.subs {
		delete(b.subs, sub)
		sub.end()
	}
}
