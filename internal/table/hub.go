// Package table runs the live games of a Razzia server: one goroutine owns
// each game that is open or being played, and everything else talks to it
// through the Hub. Every accepted move is committed to the store before it
// is applied and broadcast, so a restarted Hub continues every game where
// it was. Games are described in the terms of internal/protocol (GameInfo,
// View): the goroutine that owns a game builds each seat's view once per
// change, and every connection that shows it shares it, with the bytes
// encoded from it (Update.Encoded).
//
// # The match and its host
//
// The rules of a table are internal/match's: the game goroutine hosts a
// match.Match. A command (a join, a move, a pre-move, a chat message...)
// or one of the goroutine's timers (the clock's alarm, the open table's
// expiry, a bot's move) is decided by the match at a time the goroutine
// gives it; the result's write is committed with the lease's fence, then
// applied to the match, broadcast, and the timers and bots it asks for are
// armed (loop.make). A refusal changes nothing.
//
// # Several nodes
//
// Each Hub is a node (Options.Node) of a cluster that shares one store;
// a single server is a cluster of one, on the same code path. At most one
// node runs a live game, its owner: it holds the game's lease in the store
// (store.Store.AcquireLease), and only its game goroutine writes the game,
// with the lease's fence, runs its bots and its timers. The owner renews
// all its leases in one call every LeaseTTL/3; the moment a renewal or a
// write says the lease is lost, or LeaseTTL passed since the last renewal
// that succeeded, the goroutine stops owning: it commits nothing more,
// stops its bots and timers and serves the game on as a replica.
//
// Any node serves any game: a node that does not run a game its clients
// watch keeps a replica of it, a goroutine like the owner's that never
// writes, brought up to date from the store. The store announces every
// committed change (store.ChangesChannel); the replica reads the new
// moves and the clock from the store (store.Store.DeltasSince: only the
// moves after those it holds), never from the notice, and broadcasts them
// to its own watchers as the owner does. A write (a move, a seat taken, a player
// removed) that reaches a replica is passed to the owner over the store's
// notifications: a command (match.Command) on the owner's channel (NodeChannel), answered
// on the asker's, waited for at most ForwardTimeout. If the owner does not
// answer, the asker looks at the lease: once it has lapsed (the owner is
// dead or cut off) the asker takes the game over and makes the write
// itself; until LeaseTTL more has passed it waits, and then gives up with
// ErrUnavailable, which the client retries.
//
// Every node scans the store for live games nobody owns
// (store.Store.Unowned) every LeaseTTL/4 and takes them over, so the games
// of a node that died resume within about LeaseTTL, bots and timers
// included. Drain (a graceful stop) releases every lease at once, and the
// other nodes, told by the store, take the games over without waiting.
//
// # The files
//
// Dependencies between files run one way (go run ./internal/tools/pkgmap
// ./internal/table counts them), from the Hub's methods down:
//
//   - hub.go (New, Close) and the features: tables.go (create, join,
//     remove, cancel), play.go (moves, chat), read.go (watch, describe,
//     list), rematch.go, analysis.go, presence.go.
//   - The node: forward.go (a write to the game's owner, wherever it
//     is), notice.go (the store's notices), find.go and own.go (a game's
//     goroutine: found, started, adopted; the leases renewed), and
//     node.go (the Hub's type and options).
//   - The host, one goroutine per live game (a loop): follow.go (a
//     replica applies what the store's notices carry), run.go (its life:
//     owner, replica, exit), host.go (a command decided, written,
//     applied; its effects and timers), watchers.go, bots.go, and loop.go
//     (the type, and env: all it asks of the node).
//   - What both use, knowing neither: registry.go, leases.go, seatbots.go,
//     limits.go, refresher.go, heard.go, envelope.go, afterchat.go, watch.go,
//     chat.go, finished.go, knownoffers.go, metrics.go, info.go, hooks.go,
//     errors.go.
package table

import (
	"context"
	"errors"

	"github.com/razziagame/razzia/internal/store"
)

// New returns a Hub for the store, listening to the store's notices.
// Call Resume to take over the games nobody runs, and Drain or Close to
// stop.
func New(st Store, opts Options) *Hub {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	h := &Hub{
		store:    st,
		opts:     opts,
		node:     opts.Node,
		log:      opts.Logger.With("node", opts.Node),
		ctx:      ctx,
		cancel:   cancel,
		workers:  newWorkers(opts.Limits.BotWorkers),
		finished: newFinishedCache(opts.Limits.FinishedCache),
		scanNow:  make(chan struct{}, 1),
		renewNow: make(chan struct{}, 1),
		live:     newRegistry[*loop](),
		leases:   newLeases(opts.LeaseTTL, opts.Logger.With("node", opts.Node)),
		holds:    newHolds(),
		asked:    store.AskerText(opts.Node),
	}
	h.metrics = newMetrics(opts.Registerer, h.leases.count, func() map[liveGame]int {
		counts := map[liveGame]int{}
		for _, l := range h.live.all() {
			st, owner := l.snapshot()
			counts[liveGame{st, owner}]++
		}
		return counts
	})
	h.leases.lost = h.metrics.lost
	h.refresh.init()
	h.fwd.init()
	known := newKnownOffers(knownOffersMax)
	h.rematches = &rematches{store: st, log: h.log, known: known, ctx: ctx, now: opts.Now, afterFunc: opts.AfterFunc,
		rand: opts.Rand, openTTL: opts.Limits.OpenTTL, background: h.background, seatToken: opts.SeatToken,
		create: func(ctx context.Context, g *store.Game) error {
			_, err := h.createGame(ctx, g, "", holdNone)
			return err
		},
		feeds: map[string]map[*RematchFeed]struct{}{}, timers: map[string]func() bool{}}
	h.after = newAfterChats(ctx, st, h.log, h.background)
	h.env = &env{
		ctx: ctx, wg: &h.wg, store: st, log: h.log, metrics: h.metrics,
		now: opts.Now, afterFunc: opts.AfterFunc, limits: opts.Limits,
		newBot: opts.NewBot, botDelay: opts.BotDelay, retryDelay: opts.RetryDelay, workers: h.workers,
		onAlert: opts.OnAlert, onFinish: opts.OnFinish, present: opts.Present,
		live: h.live, leases: h.leases, holds: h.holds, replicas: &h.refresh, after: h.after, write: h.write,
		offers: known,
	}

	h.env.silenced = opts.Silenced
	h.listen()
	h.background(h.refreshLoop)
	h.background(h.renewLoop)
	h.background(h.scanLoop)
	return h
}

// Node returns the Hub's node id.
func (h *Hub) Node() string { return h.node }

// Limits returns the limits in force, defaults filled in.
func (h *Hub) Limits() Limits { return h.opts.Limits }

// Resume takes over every live game that no node runs: it replays the
// games being played and restarts their bots, and takes the open tables
// back with their expiry, closing at once those that waited too long while
// no node ran them. It returns how many games it took; a game that cannot
// be replayed, or whose stored bot seat is not a bot level, is logged and
// left alone, so one damaged game does not stop the others. The Hub goes
// on taking over unowned games by itself; Resume does it now.
func (h *Hub) Resume(ctx context.Context) (int, error) {
	return h.scan(ctx)
}

// Ready reports why the node should not be sent new clients, or nil: it
// is handing its games over, or the store cannot serve (see
// store.Store.Health).
func (h *Hub) Ready(ctx context.Context) error {
	if h.leases.isDraining() || h.live.isClosed() {
		return errors.New("the node is shutting down: it hands its games over")
	}
	return h.store.Health(ctx)
}

// Close hands every game this node runs over (Drain, for at most
// commitTimeout), then stops every game goroutine and ends every
// subscription. Games are not lost: everything accepted is in the store.
// Close waits for the goroutines, including a bot that is thinking.
func (h *Hub) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	h.Drain(ctx)
	cancel()
	h.live.close()
	h.cancel()
	h.rematches.stop()
	h.wg.Wait()
	h.after.closeAll()
	return nil
}

// Done is closed when the Hub is closing.
func (h *Hub) Done() <-chan struct{} { return h.ctx.Done() }
