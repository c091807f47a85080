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
package table

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Options configure a Hub. The zero Options are the production defaults,
// except that a server normally sets BotDelay.
type Options struct {
	// BotDelay is how long a bot waits before it moves, so people can
	// follow the game.
	BotDelay time.Duration
	// RetryDelay is how long a bot waits to try again after the store
	// failed to commit its move; default one second.
	RetryDelay time.Duration
	// Logger receives the Hub's log; default slog.Default().
	Logger *slog.Logger
	// NewBot builds the bot for a seat from its level, one of
	// bot.LevelNames (the Hub refuses any other stored value before it
	// asks); default bot.NewLevel.
	NewBot func(level string, seed uint64) (bot.Bot, error)
	// Now is the clock for timestamps and the tables' clocks; default time.Now.
	Now func() time.Time
	// AfterFunc calls f in its own goroutine once d has passed by the
	// clock Now reads, and returns a function that stops it (reporting
	// whether it stopped it): the timers of the tables' clocks. Default:
	// time.AfterFunc. Tests give a fake clock to both.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Rand is the source of game ids, seeds and seat tokens; default
	// crypto/rand.Reader. Tests may make it deterministic.
	Rand io.Reader
	// Limits bound the tables, bots and watchers the Hub keeps; a zero
	// field takes its default (DefaultLimits).
	Limits Limits

	// Node names this Hub among the nodes that share its store: 1 to 40
	// lower-case letters, digits and dashes (see CheckNode), unique to the
	// process (NewNodeID adds a random suffix to a name). Default: a new
	// random one.
	Node string
	// LeaseTTL is how long a node's lease on a game lasts unrenewed: how
	// soon the games of a dead node are taken over. Default
	// DefaultLeaseTTL.
	LeaseTTL time.Duration
	// ForwardTimeout bounds the wait for the owner's answer to a write
	// passed to it; default DefaultForwardTimeout.
	ForwardTimeout time.Duration
	// ReplicaReadGap is the least time between two reads of the moves
	// the store announced for the games this node serves and does not
	// run: the notices that come meanwhile are read together, in one
	// statement. Default DefaultReplicaReadGap.
	ReplicaReadGap time.Duration
	// Registerer receives the Hub's metrics; nil keeps them unexported.
	Registerer prometheus.Registerer
	// OnFinish, when set, is called once a game is over, its last move
	// committed, by the game's goroutine before it tells the watchers:
	// the hook that records results and ratings. It should return
	// within its context's time (30 seconds).
	OnFinish func(ctx context.Context, f Finished)
	// OnAlert, when set, is called by a game's goroutine when a
	// signed-in person may want to hear of the game while away (see
	// Alert). It is on the game's path: it must return at once, leaving
	// any slow work (a push service) to another goroutine.
	OnAlert func(Alert)
	// SeatToken, when set, returns the seat token of the account with
	// the id at game: a signed-in player's rematch seat is held by it, as
	// every seat of theirs is. Unset, the seat keeps the token of the
	// game the rematch follows, as a guest's does.
	SeatToken func(ctx context.Context, account, game string) (string, error)
}

// The defaults of Options.
const (
	DefaultLeaseTTL       = 5 * time.Second
	DefaultForwardTimeout = 2 * time.Second
	DefaultReplicaReadGap = 10 * time.Millisecond
)

// commitTimeout bounds one store write, so a stuck database cannot stall a
// game forever.
const commitTimeout = 10 * time.Second

// Store is what a Hub asks of its store: the games and their writes
// with the lease's fence, the leases, the chats, the analyses the games'
// watchers are told of, and the channels between nodes. A store.Store is
// one.
type Store interface {
	CreateGame(ctx context.Context, g *store.Game) error
	CreateOwnedGame(ctx context.Context, g *store.Game, node string, ttl time.Duration) (store.Lease, error)
	Game(ctx context.Context, id string) (*store.Game, error)
	List(ctx context.Context, status store.Status, limit int) ([]store.Summary, error)
	DeltasSince(ctx context.Context, from map[string]int) (map[string]store.Delta, error)

	TakeSeat(ctx context.Context, id string, fence store.Fence, seat int, s store.Seat, status store.Status) error
	FreeSeat(ctx context.Context, id string, fence store.Fence, seat int) error
	SetSeatBot(ctx context.Context, id string, fence store.Fence, seat int, s store.Seat) error
	CloseTable(ctx context.Context, id string, fence store.Fence, status store.Status) error
	AppendTimedMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) error
	SetClock(ctx context.Context, id string, fence store.Fence, moves int, clock []byte) error
	SetRematch(ctx context.Context, id string, old, offer []byte) error

	AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error)
	RenewLeases(ctx context.Context, leases []store.Lease, ttl time.Duration) ([]store.Lease, error)
	ReleaseLease(ctx context.Context, l store.Lease) error
	Lease(ctx context.Context, id string) (store.Lease, error)
	Unowned(ctx context.Context, limit int) ([]string, error)

	store.Chats
	Analysis(ctx context.Context, id string) (store.Analysis, error)

	Publish(ctx context.Context, channel, payload string) error
	Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error)
	Health(ctx context.Context) error
}

var _ Store = store.Store(nil)

// A Hub runs the games of one store. Its methods are safe for concurrent use.
type Hub struct {
	store   Store
	opts    Options
	node    string
	log     *slog.Logger
	metrics *metrics

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // game, bot and background goroutines

	workers   *workers       // the pool of bot decisions
	finished  *finishedCache // finished games ready for new spectators
	refresh   refresher      // replicas waiting for the store's new moves
	fwd       forwarder      // writes passed to other nodes, waiting for answers
	rematches rematches      // the rematch offers watched here (rematch.go)
	after     afterChats     // the chats after the game followed here (afterchat.go)
	scanNow   chan struct{}  // asks the scanner to look for unowned games at once
	renewNow  chan struct{}  // asks the renewer to check the leases at once

	mu       sync.Mutex
	closed   bool
	draining bool                  // no more leases: the node is handing its games over
	games    map[string]*loop      // the live games: open or playing, owned or replicas
	held     map[string]*heldLease // the leases this node holds, by game
	winners  map[string][]int      // finished games' winners, which never change
	holds    holds                 // what the live games hold of the limits
}

// New returns a Hub for the store, listening to the store's notices.
// Call Resume to take over the games nobody runs, and Drain or Close to
// stop.
func New(st Store, opts Options) *Hub {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Node == "" {
		opts.Node = NewNodeID("node")
	}
	if opts.LeaseTTL <= 0 {
		opts.LeaseTTL = DefaultLeaseTTL
	}
	if opts.ForwardTimeout <= 0 {
		opts.ForwardTimeout = DefaultForwardTimeout
	}
	if opts.ReplicaReadGap <= 0 {
		opts.ReplicaReadGap = DefaultReplicaReadGap
	}
	if opts.Registerer == nil {
		opts.Registerer = prometheus.NewRegistry()
	}
	if opts.NewBot == nil {
		opts.NewBot = bot.NewLevel
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.AfterFunc == nil {
		opts.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	if opts.Rand == nil {
		opts.Rand = rand.Reader
	}
	if opts.RetryDelay <= 0 {
		opts.RetryDelay = time.Second
	}
	opts.Limits = opts.Limits.withDefaults()
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
		games:    map[string]*loop{},
		held:     map[string]*heldLease{},
		winners:  map[string][]int{},
		holds:    holds{clients: map[string]int{}},
	}
	h.metrics = newMetrics(h, opts.Registerer)
	h.refresh.init()
	h.fwd.init()
	h.rematches.init()
	h.after.init()
	h.listen()
	h.background(h.refreshLoop)
	h.background(h.renewLoop)
	h.background(h.scanLoop)
	return h
}

// background runs f in a goroutine that Close waits for.
func (h *Hub) background(f func()) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		f()
	}()
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
	h.mu.Lock()
	draining, closed := h.draining, h.closed
	h.mu.Unlock()
	if draining || closed {
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
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.cancel()
	h.stopRematches()
	h.wg.Wait()
	h.after.closeAll()
	return nil
}

// Done is closed when the Hub is closing.
func (h *Hub) Done() <-chan struct{} { return h.ctx.Done() }

// Create stores a new table as t describes it. A table of bots starts at
// once, and so does a tutorial. It returns the table and the tokens it
// gives out.
func (h *Hub) Create(ctx context.Context, t TableSetup) (Table, error) {
	if t.Tutorial {
		return h.createTutorial(ctx, t.Learner, t.Client)
	}
	in, creator, err := h.createTable(ctx, t)
	return Table{Info: in, Creator: creator}, err
}

// createTable stores a table that waits for people, or a game of bots.
func (h *Hub) createTable(ctx context.Context, t TableSetup) (protocol.GameInfo, string, error) {
	client := t.Client
	seats, rated := t.Seats, t.Rated
	if rated && !slices.Contains(seats, "") {
		return protocol.GameInfo{}, "", reject(ErrBadRequest, "a rated table needs a seat for a person: bots alone are never rated")
	}
	p, err := ChoosePace(t.Pace, rated)
	if err != nil {
		return protocol.GameInfo{}, "", err
	}
	if n := len(seats); n < razzia.MinPlayers || n > razzia.MaxPlayers {
		return protocol.GameInfo{}, "", reject(ErrBadRequest, "a table has %d to %d seats, not %d", razzia.MinPlayers, razzia.MaxPlayers, n)
	}
	g := &store.Game{Status: store.StatusPlaying, Seats: make([]store.Seat, len(seats)), Rated: rated}
	for i, level := range seats {
		switch {
		case level == "":
			g.Status = store.StatusOpen
		case match.IsLevel(level):
			// Numbered by seat, so two bots of one level are told apart in the log.
			g.Seats[i] = store.Seat{Name: playername.Bot(i, level), Bot: level}
		default:
			return protocol.GameInfo{}, "", reject(ErrBadRequest, "seat %d: unknown bot level %q (want %s, or empty for a person)", i, level, strings.Join(bot.LevelNames(), ", "))
		}
	}
	id, err := h.newID()
	if err != nil {
		return protocol.GameInfo{}, "", internal(err)
	}
	g.ID = id
	g.Seed = make([]byte, 32)
	if _, err := io.ReadFull(h.opts.Rand, g.Seed); err != nil {
		return protocol.GameInfo{}, "", internal(err)
	}
	// From crypto/rand, not Options.Rand: a secret that tests need not
	// foresee, and that leaves their ids, seeds and seat tokens as they were.
	creator := rand.Text()
	g.CreatorHash = hashToken(creator)
	// Dealt once, here, and stored: a stored game is never dealt again.
	g.Cheques = razzia.NewSetup(match.PlayerNames(g.Seats), g.Seed).Cheques
	g.Created = h.opts.Now()
	g.Updated = g.Created
	g.Moves = []string{}
	if g.Clock, err = match.NewTiming(p, len(seats)); err != nil {
		return protocol.GameInfo{}, "", internal(err)
	}
	held := holdOf(g.Status == store.StatusOpen, true)
	h.mu.Lock()
	err = h.holds.reserve(h.opts.Limits, client, held)
	h.mu.Unlock()
	if err != nil {
		return protocol.GameInfo{}, "", err
	}
	l, err := h.createGame(ctx, g, client, held)
	if err != nil || l == nil {
		h.mu.Lock()
		h.holds.add(client, held, -1)
		h.mu.Unlock()
	}
	if err != nil {
		return protocol.GameInfo{}, "", err
	}
	h.log.Info("game created", "game", id, "seats", seats)
	var in protocol.GameInfo
	err = errEnded
	if l != nil {
		err = h.send(ctx, l, func(l *loop) error { in = l.info(); return nil })
	}
	if err != nil {
		// The game was committed; describe it as stored.
		in = h.newInfo(g.ID, g.Status, g.Seats, g.Rated, 0, g.Created, g.Updated, nil)
	}
	return in, creator, nil
}

// createGame stores g with its lease, in one store operation so that no
// scanner (of another node or of this one) takes the new game first, and
// runs it as its owner, with held counted for client.
func (h *Hub) createGame(ctx context.Context, g *store.Game, client string, held hold) (*loop, error) {
	if h.isDraining() {
		return nil, reject(ErrClosed, "the server is shutting down")
	}
	since := time.Now()
	lease, err := h.store.CreateOwnedGame(ctx, g, h.node, h.opts.LeaseTTL)
	if errors.Is(err, store.ErrConflict) && g.RematchOf != "" {
		// A rematch's id comes with its offer: whoever starts it second,
		// here or on another node, finds it created, which is no failure.
		return nil, err
	}
	if err != nil {
		return nil, h.failed("create game", g.ID, err)
	}
	h.hold(lease, since)
	l, err := newLoop(h, g, lease)
	if err != nil {
		h.letGo(lease)
		return nil, h.failed("start game", g.ID, err)
	}
	l.client, l.held, l.counted = client, held, true
	if _, ok := h.start(l); ok {
		return l, nil
	}
	// Only a Hub that is closing refuses a new game's loop: nobody else
	// knows its id yet.
	l.closeBots()
	h.letGo(lease)
	return nil, reject(ErrClosed, "the server is shutting down")
}

// A Watcher is who watches a game: the holder of a seat's token, or a
// spectator (no token, or one that is not the game's), signed in with an
// account or not.
type Watcher struct {
	Token string
	// Account is the signed-in account's id, "" for none: a spectator's
	// mutes are the account's.
	Account string
}

// Watch subscribes w to a game's state: a seat's, or a spectator's. The
// first Update carries every event so far. Close the subscription when
// done.
func (h *Hub) Watch(ctx context.Context, id string, w Watcher) (*Subscription, error) {
	token, account := w.Token, w.Account
	var sub *Subscription
	err := h.with(ctx, id, func(l *loop) error {
		var err error
		sub, err = l.watch(hashToken(token), account)
		return err
	}, func(g *store.Game) error {
		f, err := h.finishedGame(g)
		if err != nil {
			return err
		}
		seat := match.SeatOf(g.Seats, hashToken(token))
		sub = newSubscription(h, nil, seat)
		sub.account = account
		u := f.update(seat)
		if g.RematchOf != "" || g.Rematch != nil {
			// The offer changes: not the cached description's encoding.
			describeRematch(&u.Game, g)
			u.change = &change{}
		}
		sub.c <- u
		if g.Status == store.StatusFinished && chat.CheckOpen(g.Updated, h.opts.Now()) == nil {
			// The conversation so far, both channels (the game is over),
			// then what is said after the game.
			sub.endGame(id, 0)
			h.readChat(ctx, id)
			return nil
		}
		if c, err := h.store.Chat(ctx, id); err != nil {
			h.log.Error("cannot read the chat", "game", id, "err", err)
		} else if m := chatMessage(match.RoomOf(c.Mutes), sub.reader(), c.Lines, true); len(m.Lines)+len(m.Muted) > 0 {
			// The conversation as it ended: its chat is closed.
			sub.chat <- m
		}
		sub.end()
		return nil
	})
	return sub, err
}

// Remove frees seat, taken by a person, at a table that has not started:
// the person's token stops working, the seat is open again, and every
// watcher is told. Only the table's creator may (creatorToken, returned by
// Create).
func (h *Hub) Remove(ctx context.Context, id, creatorToken string, seat int) error {
	hash := hashToken(creatorToken)
	_, err := h.write(ctx, match.Command{Kind: match.Remove, Game: id, Hash: hash, Seat: seat})
	return err
}

// SetLevel gives the bot of seat another level (one of bot.Levels) at a
// table that has not started, and every watcher is told. Only the
// table's creator may (creatorToken, returned by Create).
func (h *Hub) SetLevel(ctx context.Context, id, creatorToken string, seat int, level string) error {
	hash := hashToken(creatorToken)
	_, err := h.write(ctx, match.Command{Kind: match.SetLevel, Game: id, Hash: hash, Seat: seat, Level: level})
	return err
}

// Creator reports whether creatorToken is the creator's of game id.
func (h *Hub) Creator(ctx context.Context, id, creatorToken string) (bool, error) {
	hash := hashToken(creatorToken)
	var is bool
	err := h.with(ctx, id, func(l *loop) error {
		is = match.SameHash(l.m.Creator, hash)
		return nil
	}, func(g *store.Game) error {
		is = match.SameHash(g.CreatorHash, hash)
		return nil
	})
	return is, err
}

// Play makes the move (a record token) for the seat whose token is given.
// Only the seat to move may play; a draw names no card, since the server
// draws it. seq, when not negative, is the number of moves the player saw:
// if the game has moved on since, the move is rejected with ErrStale.
func (h *Hub) Play(ctx context.Context, id, token, move string, seq int) error {
	hash := hashToken(token)
	_, err := h.write(ctx, match.Command{Kind: match.Play, Game: id, Hash: hash, Move: move, Seq: seq})
	return err
}

// Game describes the game and returns the seat the token holds, or -1.
func (h *Hub) Game(ctx context.Context, id, token string) (protocol.GameInfo, int, error) {
	var in protocol.GameInfo
	seat := -1
	hash := hashToken(token)
	err := h.with(ctx, id, func(l *loop) error {
		in, seat = l.info(), match.SeatOf(l.m.Seats, hash)
		return nil
	}, func(g *store.Game) error {
		w, err := h.winnersOf(g)
		if err != nil {
			return err
		}
		in, seat = h.newInfo(g.ID, g.Status, g.Seats, g.Rated, len(g.Moves), g.Created, g.Updated, w), match.SeatOf(g.Seats, hash)
		describeRematch(&in, g)
		return nil
	})
	return in, seat, err
}

// MaxList is the most games List returns.
const MaxList = 100

// List returns the games with the status, most recently updated first, at
// most MaxList; the empty status lists every game but the expired tables.
// Tutorials (CreateTutorial) are left out.
func (h *Hub) List(ctx context.Context, status store.Status) ([]protocol.GameInfo, error) {
	statuses := []store.Status{status}
	switch status {
	case store.StatusOpen, store.StatusPlaying, store.StatusFinished, store.StatusArchived, store.StatusExpired, store.StatusCancelled:
	case "":
		statuses = []store.Status{store.StatusOpen, store.StatusPlaying, store.StatusFinished, store.StatusArchived}
	default:
		return nil, reject(ErrBadRequest, "unknown status %q (want open, playing, finished, archived, expired or cancelled)", status)
	}
	var all []store.Summary
	for _, st := range statuses {
		list, err := h.store.List(ctx, st, MaxList)
		if err != nil {
			return nil, h.failed("list games", "", err)
		}
		all = append(all, list...)
	}
	if len(statuses) > 1 {
		sortRecent(all)
	}
	if len(all) > MaxList {
		all = all[:MaxList]
	}
	infos := make([]protocol.GameInfo, 0, len(all))
	for _, s := range all {
		if isTutorial(s.Seats) {
			continue // nobody else can take part
		}
		var w []int
		if s.Status == store.StatusFinished || s.Status == store.StatusArchived {
			var err error
			if w, err = h.cachedWinners(ctx, s.ID); err != nil {
				h.log.Error("cannot find the winners", "game", s.ID, "err", err)
			}
		}
		infos = append(infos, h.newInfo(s.ID, s.Status, s.Seats, s.Rated, s.Moves, s.Created, s.Updated, w))
	}
	return infos, nil
}

// sortRecent sorts summaries most recently updated first (insertion sort:
// the lists are short and each is sorted already).
func sortRecent(s []store.Summary) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Updated.After(s[j-1].Updated); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Record returns the record of a game that has started: every move so far.
func (h *Hub) Record(ctx context.Context, id string) (*razzia.Record, error) {
	if !protocol.ValidID(id) {
		return nil, notFound(id)
	}
	g, err := h.store.Game(ctx, id)
	if err != nil {
		return nil, h.storeError("read game", id, err)
	}
	switch g.Status {
	case store.StatusOpen:
		return nil, reject(ErrNotStarted, "the game has not started: there is no record yet")
	case store.StatusExpired:
		return nil, h.expired(g)
	case store.StatusCancelled:
		return nil, cancelled()
	}
	rec := &razzia.Record{Format: razzia.RecordFormat, Players: match.PlayerNames(g.Seats), Moves: append([]string{}, g.Moves...)}
	for _, set := range g.Cheques {
		rec.Cheques = append(rec.Cheques, append([]int(nil), set...))
	}
	return rec, nil
}

// Upload reads a record, checks it by replaying it, and stores it as an
// archived game, which can be watched like a finished one. A bad record is
// an *Error of kind ErrBadRecord wrapping the *razzia.RecordError.
func (h *Hub) Upload(ctx context.Context, r io.Reader) (protocol.GameInfo, error) {
	rec, err := razzia.ReadRecord(r)
	if err != nil {
		return protocol.GameInfo{}, &Error{Kind: ErrBadRecord, Msg: err.Error(), Err: err}
	}
	game, err := rec.Game()
	if err != nil {
		return protocol.GameInfo{}, &Error{Kind: ErrBadRecord, Msg: err.Error(), Err: err}
	}
	id, err := h.newID()
	if err != nil {
		return protocol.GameInfo{}, internal(err)
	}
	norm := game.Record() // moves in canonical form
	g := &store.Game{
		ID:      id,
		Status:  store.StatusArchived,
		Seats:   make([]store.Seat, len(rec.Players)),
		Cheques: rec.Cheques,
		Seed:    []byte{},
		Moves:   norm.Moves,
		Created: h.opts.Now(),
	}
	g.Updated = g.Created
	if g.Cheques == nil {
		g.Cheques = razzia.ChequeSets(len(rec.Players))
	}
	for i, p := range rec.Players {
		g.Seats[i] = store.Seat{Name: p}
	}
	if err := h.store.CreateGame(ctx, g); err != nil {
		return protocol.GameInfo{}, h.failed("store uploaded record", id, err)
	}
	h.log.Info("record uploaded", "game", id, "moves", len(g.Moves))
	return h.newInfo(id, g.Status, g.Seats, false, len(g.Moves), g.Created, g.Updated, game.Winners()), nil
}

// with runs live in the goroutine of game id if it is open or being
// played, or static with its stored form if it is finished or archived.
// An expired table is ErrExpired.
func (h *Hub) with(ctx context.Context, id string, live func(*loop) error, static func(*store.Game) error) error {
	for {
		l, g, err := h.find(ctx, id)
		if err != nil {
			return err
		}
		if l == nil {
			return static(g)
		}
		err = h.send(ctx, l, live)
		if err != errEnded {
			return err
		}
		// The game ended meanwhile: look again.
	}
}

// errEnded reports a request sent to a game goroutine that has ended.
var errEnded = errors.New("the game goroutine has ended")

// send runs f in l's goroutine and returns its result.
func (h *Hub) send(ctx context.Context, l *loop, f func(*loop) error) error {
	reply := make(chan error, 1)
	select {
	case l.reqs <- func(l *loop) { reply <- f(l) }:
		return <-reply
	case <-l.done:
		return errEnded
	case <-ctx.Done():
		return ctx.Err()
	case <-h.ctx.Done():
		return reject(ErrClosed, "the server is shutting down")
	}
}

// find returns the goroutine of live game id: its owner's if this node
// runs it or takes it now (no node runs it), else a replica. A game that
// is over is returned as stored.
func (h *Hub) find(ctx context.Context, id string) (*loop, *store.Game, error) {
	if !protocol.ValidID(id) {
		return nil, nil, notFound(id)
	}
	for {
		h.mu.Lock()
		closed, l := h.closed, h.games[id]
		h.mu.Unlock()
		switch {
		case closed:
			return nil, nil, reject(ErrClosed, "the server is shutting down")
		case l != nil:
			return l, nil, nil
		}
		g, err := h.store.Game(ctx, id)
		if err != nil {
			return nil, nil, h.storeError("read game", id, err)
		}
		switch {
		case g.Status == store.StatusExpired:
			return nil, nil, h.expired(g)
		case g.Status == store.StatusCancelled:
			return nil, nil, cancelled()
		case !g.Status.Live():
			return nil, g, nil
		}
		lease, err := h.store.Lease(ctx, id)
		if err != nil {
			return nil, nil, h.storeError("read the lease of game", id, err)
		}
		if lease.Node == "" || lease.Node == h.node {
			l, err := h.adopt(ctx, id)
			switch {
			case err == nil && l != nil:
				return l, nil, nil
			case err == nil, errors.Is(err, store.ErrConflict):
				continue // it ended meanwhile: look again
			case errors.Is(err, store.ErrLeaseHeld), errors.Is(err, errDraining):
				// Another node was quicker, or this one takes no more games.
				if lease, err = h.store.Lease(ctx, id); err != nil {
					return nil, nil, h.storeError("read the lease of game", id, err)
				}
			default:
				return nil, nil, h.storeError("take game", id, err)
			}
		}
		if l, err = newLoop(h, g, store.Lease{}); err != nil {
			return nil, nil, h.failed("replay game", id, err)
		}
		l.holder = lease.Node
		if got, _ := h.start(l); got != nil {
			return got, nil, nil
		}
	}
}

// start registers and runs a new loop, counting what an owner holds. It
// returns the loop, or the game's loop that was there first, or nil
// (and false) when the Hub is closing or the game ended meanwhile: then
// the caller looks again.
func (h *Hub) start(l *loop) (*loop, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ended := h.winners[l.id]; h.closed || ended {
		return nil, false
	}
	if got := h.games[l.id]; got != nil {
		return got, false
	}
	h.games[l.id] = l
	if l.owns() && !l.counted {
		h.holds.add(l.client, l.held, 1)
		l.counted = true
	}
	h.wg.Add(1)
	go l.run()
	return l, true
}

// expired is the error of a request about a table that expired.
func (h *Hub) expired(g *store.Game) *Error {
	return reject(ErrExpired, "the table waited %s for players and closed at %s: create a new one",
		h.opts.Limits.OpenTTL, g.Updated.UTC().Format("2006-01-02 15:04 MST"))
}

// winnersOf returns the winners of a stored game that is over.
func (h *Hub) winnersOf(g *store.Game) ([]int, error) {
	if g.Status != store.StatusFinished && g.Status != store.StatusArchived {
		return nil, nil
	}
	h.mu.Lock()
	w, ok := h.winners[g.ID]
	h.mu.Unlock()
	if ok {
		return w, nil
	}
	game, err := match.Replay(g)
	if err != nil {
		return nil, h.failed("replay game", g.ID, err)
	}
	w = game.Winners()
	h.mu.Lock()
	h.winners[g.ID] = w
	h.mu.Unlock()
	return w, nil
}

func (h *Hub) cachedWinners(ctx context.Context, id string) ([]int, error) {
	h.mu.Lock()
	w, ok := h.winners[id]
	h.mu.Unlock()
	if ok {
		return w, nil
	}
	g, err := h.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	return h.winnersOf(g)
}

func notFound(id string) *Error {
	return reject(ErrNotFound, "there is no game %q", id)
}

// storeError maps a store error about game id.
func (h *Hub) storeError(what, id string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return notFound(id)
	}
	return h.failed(what, id, err)
}

// failed logs an internal failure and returns the error for the player.
func (h *Hub) failed(what, id string, err error) error {
	h.log.Error(what+" failed", "game", id, "err", err)
	return internal(fmt.Errorf("%s %s: %w", what, id, err))
}

// idEncoding spells game ids and tokens: base32, lower case for ids.
var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// newID returns a new game id: protocol.IDLen lower-case base32
// characters (50 bits).
func (h *Hub) newID() (string, error) {
	var b [7]byte
	if _, err := io.ReadFull(h.opts.Rand, b[:]); err != nil {
		return "", err
	}
	return strings.ToLower(idEncoding.EncodeToString(b[:]))[:protocol.IDLen], nil
}

// newToken returns a seat's secret: 128 bits, as crypto/rand.Text spells them.
func (h *Hub) newToken() (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(h.opts.Rand, b[:]); err != nil {
		return "", err
	}
	return idEncoding.EncodeToString(b[:]), nil
}

// hashToken returns what the store keeps of a token; nil for no token.
func hashToken(token string) []byte {
	if token == "" {
		return nil
	}
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}
