package table

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
)

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

	live     *registry[*loop] // where the loop takes itself out as it ends
	leases   *leases          // the leases the loop lets go or loses
	holds    *holds           // what the loop holds of the limits
	replicas *refresher       // where a replica asks for the moves it missed
	after    *afterChats      // the chat after the game, which its watchers follow on
	// write passes a command to the node that runs the game, for a
	// replica (a player who comes back there); it returns the seat of a
	// join.
	write func(ctx context.Context, c match.Command) (int, error)
}

// gameStore is what a loop asks of the store: its game, its chat, the
// writes it makes with the lease's fence, and letting the lease go.
type gameStore interface {
	Game(ctx context.Context, id string) (*store.Game, error)
	store.Chats
	ReleaseLease(ctx context.Context, l store.Lease) error

	TakeSeat(ctx context.Context, id string, fence store.Fence, seat int, s store.Seat, status store.Status) error
	FreeSeat(ctx context.Context, id string, fence store.Fence, seat int) error
	SetSeatBot(ctx context.Context, id string, fence store.Fence, seat int, s store.Seat) error
	CloseTable(ctx context.Context, id string, fence store.Fence, status store.Status) error
	AppendTimedMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) error
	SetClock(ctx context.Context, id string, fence store.Fence, moves int, clock []byte) error
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
