package table

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// An Update is the state of a game as one watcher may see it.
type Update struct {
	Game protocol.GameInfo
	Seat int            // the watcher's seat, or -1 for a spectator
	View *protocol.View // nil while the table is open; shared: do not modify
	// Public is the spectators' view of the same moment, which View
	// differs from only in its seat and legal moves; shared.
	Public *protocol.View
	Events []razzia.Event // what happened since the previous Update of this subscription; shared
	// Clock is the table's clocks at the change (nil when untimed),
	// TakeOvers every time a bot stood in for a person; shared.
	Clock     *protocol.ClockView
	TakeOvers []protocol.TakeOver
	// PreMove is the watcher's own pre-move (a token), PreMoveDropped
	// why it was dropped when due; empty for others and spectators.
	PreMove, PreMoveDropped string
	// Version numbers the change the update shows, growing within the
	// game's goroutine: a connection that sends patches names the
	// version it sent last as a patch's base.
	Version int64
	// Full marks an update the watcher asked for again whole
	// (Subscription.Resync): its Events start at the game's first.
	Full bool

	from   int     // the move whose events Events starts with
	change *change // the broadcast the update belongs to
}

// A change is one broadcast of a game's new state. Its updates share it,
// so that a message built from an update is encoded once for every
// watcher who sees the same thing, not once per connection.
type change struct {
	mu      sync.Mutex          // guards encoded and free, not the encoding itself
	encoded []keyed             // a few (about ten a move): searched in order
	free    []encoding          // allocated together: a change has several
	clock   *protocol.ClockView // the clocks at the change, made once (showing.addClock)
	// The first encodings' room, in the change's own allocation: a move's
	// broadcast to four seats makes ten.
	encodedBuf [12]keyed
	freeBuf    [12]encoding
	bufUsed    bool
}

// A keyed is an encoding of a change and what it encodes.
type keyed struct {
	key encodedKey
	e   *encoding
}

type encodedKey struct {
	seat, from int
	variant    string
	base       int64
}

// An encoding is one message of a change: the first watcher who needs it
// encodes it while the others who need it wait; messages of other seats
// are encoded meanwhile, by their own watchers.
type encoding struct {
	once  sync.Once
	value any
	bytes []byte // EncodedSince's: bytes in an interface would take an allocation
	err   error
}

// Encoded returns the bytes encode makes of the update. Updates of one
// change with the same seat, the same events and the same variant (such
// as a language) share the bytes: encode runs for the first of them only.
func (u *Update) Encoded(variant string, encode func(Update) ([]byte, error)) ([]byte, error) {
	return u.EncodedSince(variant, 0, encode)
}

// EncodedSince is Encoded for a message that depends on the version the
// watcher received last too, base, such as a patch: updates of one
// change with the same seat, events, variant and base share the bytes.
func (u *Update) EncodedSince(variant string, base int64, encode func(Update) ([]byte, error)) ([]byte, error) {
	e := u.entry(encodedKey{u.Seat, u.from, variant, base})
	if e == nil {
		return encodeAlone(u, encode)
	}
	e.once.Do(func() { e.bytes, e.err = encode(*u) })
	return e.bytes, e.err
}

// encodeAlone and buildAlone make the value of an update of no change.
// Apart, so that the frames of EncodedSince and shared, which encodings
// run below on a socket's stack, hold no copy of the update.
//
//go:noinline
func encodeAlone(u *Update, encode func(Update) ([]byte, error)) ([]byte, error) { return encode(*u) }

//go:noinline
func buildAlone(u *Update, build func(Update) (any, error)) (any, error) { return build(*u) }

// SharedByChange is Shared for a value made once for the whole change,
// whatever the seat or events of the update that asks first (such as the
// spectators' state, from which each seat's is made).
func (u *Update) SharedByChange(variant string, make func(Update) (any, error)) (any, error) {
	return u.SharedByChangeSince(variant, 0, make)
}

// SharedByChangeSince is SharedByChange for a value that depends on the
// version the watcher received last too, base (such as the spectators'
// patch, from which each seat's is made).
func (u *Update) SharedByChangeSince(variant string, base int64, make func(Update) (any, error)) (any, error) {
	return u.shared(encodedKey{seat: math.MinInt, from: -1, variant: variant, base: base}, make)
}

// SharedByEvents is SharedByChange for a value made of the update's
// events and what every watcher sees alike (such as the events as a
// patch carries them): made once for the updates of one change with the
// same events.
func (u *Update) SharedByEvents(variant string, make func(Update) (any, error)) (any, error) {
	return u.shared(encodedKey{seat: math.MinInt + 1, from: u.from, variant: variant}, make)
}

// Shared is EncodedSince for any value made of the update (such as an
// encoded state with what its patches need of it): made once for the
// updates of one change with the same seat, events, variant and base.
func (u *Update) Shared(variant string, base int64, make func(Update) (any, error)) (any, error) {
	return u.shared(encodedKey{u.Seat, u.from, variant, base}, make)
}

func (u *Update) shared(key encodedKey, build func(Update) (any, error)) (any, error) {
	e := u.entry(key)
	if e == nil {
		return buildAlone(u, build)
	}
	e.once.Do(func() { e.value, e.err = build(*u) })
	return e.value, e.err
}

// entry returns the change's encoding of key, made the first time it is
// asked for; nil for an update of no change.
func (u *Update) entry(key encodedKey) *encoding {
	c := u.change
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range c.encoded {
		if k.key == key {
			return k.e
		}
	}
	if c.encoded == nil {
		c.encoded = c.encodedBuf[:0]
	}
	if len(c.free) == 0 {
		if c.free = c.freeBuf[:]; c.bufUsed {
			c.free = make([]encoding, 16)
		}
		c.bufUsed = true
	}
	e := &c.free[0]
	c.free = c.free[1:]
	c.encoded = append(c.encoded, keyed{key, e})
	return e
}

// A Subscription receives a game's updates. A slow subscriber never holds
// up the game: when it has not taken an update before the next one, the
// two are merged, so it always gets the latest state and every event.
type Subscription struct {
	seat  int // the watcher's seat, or -1 for a spectator; owned by its game's goroutine
	c     chan Update
	leave func() // takes it out of its game's goroutine and of the chat after the game
	sent  int    // moves whose events the updates sent carry; owned by its game's goroutine
	full  bool   // the next update is asked for whole; owned by its game's goroutine
	once  sync.Once
	// resync asks the game's goroutine for a whole update; nil for a
	// game that sends no more.
	resync func()
	// direct is Watcher.Direct; queued counts the updates put in c
	// that the receiver has not handled yet (Handled), while direct is
	// set: direct is offered an update only when none is.
	direct func(Update) bool
	queued atomic.Int32

	// The chat (chat.go), owned by l's goroutine but chat itself, then,
	// after the game, by the Hub's followers (afterchat.go).
	account string                    // a signed-in spectator's account, for their mutes
	chat    chan protocol.ChatMessage // the chat's messages, merged while not taken
	muted   []int                     // the seats muted as last sent
	game    string                    // the finished game whose chat s follows
	heard   int                       // the stored lines of that chat s has read
}

func newSubscription(seat int, leave func(*Subscription)) *Subscription {
	s := &Subscription{seat: seat, c: make(chan Update, 1), chat: make(chan protocol.ChatMessage, 1)}
	s.leave = func() { leave(s) }
	return s
}

// Updates returns the channel of updates. It is closed when no more will
// come: the game is over, the subscription or the Hub was closed.
func (s *Subscription) Updates() <-chan Update { return s.c }

// Chat returns the channel of the table's chat as the watcher may read
// it: the first message carries the conversation so far (none comes
// while there is nothing to read). Once the game is finished, it stays
// open after Updates closed, for the chat after the game, until Close,
// or until the Hub closes; else it is closed with Updates.
func (s *Subscription) Chat() <-chan protocol.ChatMessage { return s.chat }

// end closes the subscription's channels: nothing more will come.
func (s *Subscription) end() {
	close(s.c)
	close(s.chat)
}

// Handled tells, for a subscription with Watcher.Direct, that the
// receiver has handled (written) an update it took from Updates: until
// it has, the next go to the channel too, in order.
func (s *Subscription) Handled() {
	if s.direct != nil {
		s.queued.Add(-1)
	}
}

// Resync asks for the state again, whole: the next update is Full and
// carries every event of the game. It does nothing once the game sends
// no more updates.
func (s *Subscription) Resync() {
	if s.resync != nil {
		s.resync()
	}
}

// Close ends the subscription.
func (s *Subscription) Close() {
	s.once.Do(func() {
		s.leave()
	})
}
