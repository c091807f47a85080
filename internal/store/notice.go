package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
//
// A hearer (Hear) is handed its notices by the goroutines that publish,
// outside the broker's lock: the notices wait in one queue in the order
// they were published, and a publisher that finds nobody delivering
// delivers the queue, what others publish meanwhile included, while a
// publisher that finds someone delivering leaves its notice to them. So a
// hearer that publishes, subscribes or ends a subscription never
// deadlocks on the broker: what it publishes is heard after it returns,
// in order, and every hearer hears one notice at a time.
type Broker struct {
	mu   sync.Mutex
	subs map[*subscriber]struct{} // the subscribers through a channel
	// hearers is never changed in place: a delivery reads the slice it
	// took, without the lock.
	hearers    []*subscriber
	queue      []queued // the notices for the hearers, from head on
	head       int
	seq        uint64        // the notices published so far
	delivering bool          // a goroutine is delivering the queue
	ending     []*subscriber // hearers ended during a delivery, their done to close
	closed     bool
}

// A queued notice waits for the hearers; seq numbers it among all.
type queued struct {
	Notice
	seq uint64
}

type subscriber struct {
	ch       chan Notice
	hear     func(Notice)  // instead of ch: called as the notice is delivered
	done     chan struct{} // closed as a hearer's subscription ends, once it hears no more
	since    uint64        // a hearer hears the notices from this seq on
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
	// done, after which f is not called. Notices sent after Hear returns
	// are heard. f must not block nor call the store: it holds up every
	// notice after its own, and the goroutine that hears them may be the
	// store's own.
	Hear(ctx context.Context, f func(Notice), channels ...string) (done <-chan struct{}, err error)
}

// Hear implements Hearer: f is called by Publish or Missed, or by the
// Publish or Deliver of another goroutine that is delivering at the time
// (see Broker). It may call the broker.
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
	if sub.hear != nil {
		sub.since = b.seq
		b.hearers = append(slices.Clip(b.hearers), sub)
	} else {
		if b.subs == nil {
			b.subs = map[*subscriber]struct{}{}
		}
		b.subs[sub] = struct{}{}
	}
	context.AfterFunc(ctx, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.drop(sub)
	})
	return nil
}

// drop ends sub's subscription, if it is on: it closes a subscriber's
// channel, or a hearer's done once no delivery may still call it.
func (b *Broker) drop(sub *subscriber) {
	if sub.hear == nil {
		if _, ok := b.subs[sub]; ok {
			delete(b.subs, sub)
			close(sub.ch)
		}
		return
	}
	i := slices.Index(b.hearers, sub)
	if i < 0 {
		return
	}
	b.hearers = slices.Delete(slices.Clone(b.hearers), i, i+1)
	b.ended(sub)
}

// ended closes the done of hearer sub, taken out of hearers: at once, or
// after the notice being delivered.
func (b *Broker) ended(sub *subscriber) {
	if b.delivering {
		b.ending = append(b.ending, sub)
		return
	}
	close(sub.done)
}

// Channels returns the channels someone subscribes to.
func (b *Broker) Channels() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	seen := map[string]bool{}
	var cs []string
	add := func(sub *subscriber) {
		for c := range sub.channels {
			if !seen[c] {
				seen[c] = true
				cs = append(cs, c)
			}
		}
	}
	for sub := range b.subs {
		add(sub)
	}
	for _, sub := range b.hearers {
		add(sub)
	}
	return cs
}

// Publish delivers the payload to the channel's subscribers and hearers.
func (b *Broker) Publish(channel, payload string) {
	b.mu.Lock()
	b.send(Notice{Channel: channel, Payload: payload})
	b.deliver()
}

// Queue is Publish without delivering to the hearers: a caller that
// publishes under a lock of its own, so that its notices are in order,
// delivers them with Deliver once it released it, and its hearers may
// call it.
func (b *Broker) Queue(channel, payload string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.send(Notice{Channel: channel, Payload: payload})
}

// Deliver delivers the notices queued to the hearers, unless another
// goroutine is delivering them.
func (b *Broker) Deliver() {
	b.mu.Lock()
	b.deliver()
}

// Missed tells every subscriber that it may have missed notices.
func (b *Broker) Missed() {
	b.mu.Lock()
	b.send(Notice{Missed: true})
	b.deliver()
}

// send hands n to the subscribers, and queues it for the hearers that
// hear it. The lock is held.
func (b *Broker) send(n Notice) {
	for sub := range b.subs {
		if n.Missed || sub.channels[n.Channel] {
			sub.send(n)
		}
	}
	for _, h := range b.hearers {
		if n.Missed || h.channels[n.Channel] {
			b.queue = append(b.queue, queued{Notice: n, seq: b.seq})
			break
		}
	}
	b.seq++
}

// deliver hands the queued notices to the hearers, one notice at a time
// and without the lock, unless another goroutine is delivering them (it
// delivers what was queued meanwhile). It is called with the lock held,
// and releases it.
func (b *Broker) deliver() {
	if b.delivering || b.head == len(b.queue) {
		b.mu.Unlock()
		return
	}
	b.delivering = true
	done := false
	defer func() {
		if !done { // a hearer panicked: the next publisher delivers the rest
			b.mu.Lock()
			b.delivering = false
			b.endHearers()
			b.mu.Unlock()
		}
	}()
	for b.head < len(b.queue) {
		q := b.queue[b.head]
		b.queue[b.head] = queued{} // no payload kept
		b.head++
		hearers := b.hearers
		b.mu.Unlock()
		for _, h := range hearers {
			if q.seq >= h.since && (q.Missed || h.channels[q.Channel]) {
				h.hear(q.Notice)
			}
		}
		b.mu.Lock()
		b.endHearers()
	}
	b.queue, b.head = b.queue[:0], 0
	b.delivering = false
	done = true
	b.mu.Unlock()
}

// endHearers closes the done of the hearers ended while a notice was
// delivered: none hears any more. The lock is held.
func (b *Broker) endHearers() {
	for _, h := range b.ending {
		close(h.done)
	}
	clear(b.ending)
	b.ending = b.ending[:0]
}

// send queues n; on a full buffer it drops what waits for one Missed
// notice. Only the broker sends, under its lock, so there is room after
// the drain.
func (s *subscriber) send(n Notice) {
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
		b.drop(sub)
	}
	hearers := b.hearers
	b.hearers = nil
	for _, h := range hearers {
		b.ended(h)
	}
}
