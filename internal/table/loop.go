package table

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// A loop is the goroutine of one live game on this node: only it touches
// the fields below; everything else sends it functions over reqs. It runs
// the game as its owner while lease is held: it alone writes the game,
// with the lease's fence, and runs its bots and timers. Otherwise it is a
// replica: it never writes, and brings the game up to date from the store
// (catchUp, reload) for the watchers on this node; it ends when the last
// of them leaves.
type loop struct {
	env *env // what the loop asks of the node
	id  string

	lease  store.Lease            // held while the loop owns the game; zero for a replica
	holder string                 // a replica's owner as last heard: where writes go; "" unknown
	hint   atomic.Pointer[string] // holder for other goroutines, once the replica refused a write (elsewhere)
	keep   bool                   // a new replica stays until it served its first call, not a post
	shown  atomic.Pointer[shown]  // what other goroutines may read
	played atomic.Int64           // the moves shown: apart, so that a move makes no new shown

	m    *match.Match // the table's rules and state: changed by make, load, catchUp and syncChat only
	bots seatBots     // the bots of the seats, and the one asked for a move

	client  string              // who created the table in this process, or ""
	held    hold                // what the game holds of the Hub's limits
	counted bool                // held is counted in the Hub's holds
	expiry  stopper             // closes the table when it waited too long
	limits  map[int]seatLimiter // the move rate limit of each seat that moved
	watched int                 // subscriptions without a seat

	subs    map[*Subscription]struct{}
	version int64 // the broadcasts made: each showing's number
	// writeCtx is the context of the store writes, until writeBy
	// (writeContext); writeCancel ends it.
	writeCtx    context.Context
	writeCancel context.CancelFunc
	writeBy     time.Time
	// public is the spectators' view the last showing made, whose
	// unchanged parts the next shares (protocol.NewViewAfter).
	public *protocol.View
	// described is the description the last showing made, whose
	// unchanged parts the next shares (describeAfter).
	described protocol.GameInfo

	reqs  chan func(*loop)
	heard announcements // a replica's moves carried by notices, not yet applied
	botc  chan botMove
	retry stopper // pending retry of a bot move the store refused
	done  chan struct{}

	alarm func() bool // stops the timer of the clock's alarm, if set
	// ask is the forwarded request being made, if its move's notice is to
	// answer it; taken by the first move committed.
	ask *store.Ask
}

// A stopper stops a timer armed with the Hub's AfterFunc, as
// time.Timer.Stop does; the zero stopper stops nothing.
type stopper func() bool

func (s stopper) stop() {
	if s != nil {
		s()
	}
}

// shown is what the loop tells other goroutines of itself.
type shown struct {
	status store.Status
	owner  bool
}

// owns reports whether the loop runs the game: it holds the lease.
func (l *loop) owns() bool { return l.lease.Node != "" }

// show publishes the loop's status, role and moves to other goroutines.
func (l *loop) show() {
	moves := 0
	if l.m.Game != nil {
		moves = l.m.Game.Len()
	}
	l.played.Store(int64(moves))
	if s := l.shown.Load(); s == nil || s.status != l.m.Status || s.owner != l.owns() {
		l.shown.Store(&shown{status: l.m.Status, owner: l.owns()})
	}
}

// snapshot returns the status and role the loop last showed.
func (l *loop) snapshot() (store.Status, bool) {
	s := l.shown.Load()
	return s.status, s.owner
}

// setHolder notes the node that runs the game, as a replica heard; ""
// for none known.
func (l *loop) setHolder(node string) {
	l.holder = node
	if l.hint.Load() != nil {
		l.hint.Store(&node)
	}
}

// elsewhere returns the node that runs the game if the loop is a replica
// that knows it, and refused a write before: a replica's first write
// goes through its goroutine, which keeps a replica made for a write
// until then. "" means: ask the loop.
func (l *loop) elsewhere() string {
	if _, owner := l.snapshot(); owner {
		return ""
	}
	if p := l.hint.Load(); p != nil {
		return *p
	}
	return ""
}

// moves returns the moves of the game the loop last showed.
func (l *loop) moves() int { return int(l.played.Load()) }

// post runs f in the loop's goroutine later, without waiting for it; it
// is dropped if the loop ends first. A loop that waits takes f at once;
// only a busy one costs a goroutine (a replica is posted each move).
func (l *loop) post(f func(*loop)) {
	select {
	case l.reqs <- f:
		return
	default:
	}
	go func() {
		select {
		case l.reqs <- f:
		case <-l.done:
		}
	}()
}

// call runs f in the loop's goroutine and returns its result: errEnded
// if the loop ended first.
func (l *loop) call(ctx context.Context, f func(*loop) error) error {
	c := calls.Get().(*pendingCall)
	c.f = f
	defer func() {
		c.f = nil
		calls.Put(c)
	}()
	select {
	case l.reqs <- c.run: // a loop mostly waits: then no select over four channels
		return <-c.reply
	default:
	}
	select {
	case l.reqs <- c.run:
		return <-c.reply // the loop runs every request it takes
	case <-l.done:
		return errEnded
	case <-ctx.Done():
		l.post(leave) // a new replica waits for its first call: this one never comes
		return ctx.Err()
	case <-l.env.ctx.Done():
		return reject(ErrClosed, "the server is shutting down")
	}
}

// leave lets a new replica end once nobody watches it.
func leave(l *loop) { l.keep = false }

// A pendingCall is the request of a call and its reply, reused: every
// move is a call, and a new reply channel and function cost three
// allocations.
type pendingCall struct {
	f     func(*loop) error
	reply chan error
	run   func(*loop) // sends f's result on reply
}

var calls = sync.Pool{New: func() any {
	c := &pendingCall{reply: make(chan error, 1)}
	c.run = func(l *loop) {
		l.keep = false
		c.reply <- c.f(l)
	}
	return c
}}

// errOwned is a promotion of a loop that runs the game already.
var errOwned = errors.New("the loop runs the game already")

// An env is what the goroutine of a game (a loop) asks of the node that
// runs it, each need named: the loop never reaches into the Hub. The Hub
// makes one and gives it to every loop.
type env struct {
	ctx context.Context // the node's: done as it closes
	wg  *sync.WaitGroup // the goroutines Close waits for

	store   gameStore
	log     *slog.Logger
	metrics *metrics

	now       func() time.Time // Options.Now
	afterFunc func(d time.Duration, f func()) (stop func() bool)
	limits    Limits

	// The bots: how they are built, how long they wait before a move and
	// after a failed one, and the pool they think in.
	newBot     func(level string, seed uint64) (bot.Bot, error)
	botDelay   time.Duration
	retryDelay time.Duration
	workers    *workers

	onAlert  func(Alert)                     // Options.OnAlert, or nil
	onFinish func(context.Context, Finished) // Options.OnFinish, or nil
	present  func(game string) []int         // Options.Present, or nil

	live     *registry[*loop] // where the loop takes itself out as it ends
	leases   *leases          // the leases the loop lets go or loses
	holds    *holds           // what the loop holds of the limits
	replicas *refresher       // where a replica asks for the moves it missed
	after    *afterChats      // the chat after the game, which its watchers follow on
	offers   *knownOffers     // where the owner says that a game it ends has no rematch offer yet
	// write passes a command to the node that runs the game, for a
	// replica (a player who comes back there); it returns the seat of a
	// join.
	write func(ctx context.Context, c match.Command) (int, error)
	// silenced is Options.Silenced, or nil.
	silenced func(account string) error
}

// gameStore is what a loop asks of the store: its game, its chat, the
// writes it makes with the lease's fence, and letting the lease go.
type gameStore interface {
	Game(ctx context.Context, id string) (*store.Game, error)
	store.Chats
	ReleaseLease(ctx context.Context, l store.Lease) error
	FencedWrites
	moderationWrites
}

// background runs f in a goroutine that the node's Close waits for.
func (e *env) background(f func()) {
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		f()
	}()
}

// failed logs an internal failure and returns the error for the player.
func (e *env) failed(what, id string, err error) error {
	return logFailed(e.log, what, id, err)
}

// A botMove is a bot's choice for the position after moves moves.
type botMove struct {
	moves int
	move  razzia.Move
	at    time.Time // when the bot chose it
}
