package table

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/razziagame/razzia/bot"
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
	// whether it stopped it): every timer of the Hub's tables (their
	// clocks, an open table's expiry, a bot's BotDelay and RetryDelay).
	// Default: time.AfterFunc. Tests give a fake clock to both.
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
	// Present, when set, returns the seats of the game whose people are
	// connected to it through any node (presence across nodes): a new
	// round's held clock waits for them too, not only for those watching
	// here. Call SeatsChanged when they change. It is on the game's path:
	// it must return at once.
	Present func(game string) []int
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
	// Silenced, when set, returns why the account may not chat now (an
	// operator muted, suspended or banned it: a refusal), or nil. The
	// person at a seat is judged by the seat's account and the one they
	// are signed in with. It is on the game's path: it must return at
	// once.
	Silenced func(account string) error
}

// withDefaults fills the unset fields of o with their defaults.
func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Node == "" {
		o.Node = NewNodeID("node")
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = DefaultLeaseTTL
	}
	if o.ForwardTimeout <= 0 {
		o.ForwardTimeout = DefaultForwardTimeout
	}
	if o.ReplicaReadGap <= 0 {
		o.ReplicaReadGap = DefaultReplicaReadGap
	}
	if o.Registerer == nil {
		o.Registerer = prometheus.NewRegistry()
	}
	if o.NewBot == nil {
		o.NewBot = bot.NewLevel
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AfterFunc == nil {
		o.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	if o.RetryDelay <= 0 {
		o.RetryDelay = time.Second
	}
	o.Limits = o.Limits.withDefaults()
	return o
}

// The defaults of Options.
const (
	DefaultLeaseTTL       = 5 * time.Second
	DefaultForwardTimeout = 2 * time.Second
	DefaultReplicaReadGap = 10 * time.Millisecond
)

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

	FencedWrites
	SetRematch(ctx context.Context, id string, old, offer []byte) error

	AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error)
	RenewLeases(ctx context.Context, leases []store.Lease, ttl time.Duration) ([]store.Lease, error)
	ReleaseLease(ctx context.Context, l store.Lease) error
	Lease(ctx context.Context, id string) (store.Lease, error)
	Unowned(ctx context.Context, limit int) ([]string, error)

	store.Chats
	moderationWrites
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
	rematches *rematches     // the rematch offers, and those watched here (rematch.go)
	after     *afterChats    // the chats after the game followed here (afterchat.go)
	env       *env           // what the games' goroutines ask of the node
	scanNow   chan struct{}  // asks the scanner to look for unowned games at once
	renewNow  chan struct{}  // asks the renewer to check the leases at once

	live   *registry[*loop] // the live games' goroutines, and the winners of those that ended
	leases *leases          // the leases this node holds
	holds  *holds           // what the live games hold of the limits
	asked  string           // how a change notice names this node's request (store.AskerText)
}

// background runs f in a goroutine that Close waits for.
func (h *Hub) background(f func()) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		f()
	}()
}

// expired is the error of a request about a table that expired.
func (h *Hub) expired(g *store.Game) *Error { return expiredError(h.opts.Limits.OpenTTL, g) }

// storeError maps a store error about game id.
func (h *Hub) storeError(what, id string, err error) error { return storeFailed(h.log, what, id, err) }

// failed logs an internal failure and returns the error for the player.
func (h *Hub) failed(what, id string, err error) error { return logFailed(h.log, what, id, err) }

// idEncoding spells game ids and tokens: base32, lower case for ids.
var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// newID returns a new game id, from rand: protocol.IDLen lower-case base32
// characters (50 bits).
func newID(rand io.Reader) (string, error) {
	var b [7]byte
	if _, err := io.ReadFull(rand, b[:]); err != nil {
		return "", err
	}
	return strings.ToLower(idEncoding.EncodeToString(b[:]))[:protocol.IDLen], nil
}

// newToken returns a seat's secret, from rand: 128 bits, as crypto/rand.Text spells them.
func newToken(rand io.Reader) (string, error) {
	var b [16]byte
	if _, err := io.ReadFull(rand, b[:]); err != nil {
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

// pause waits d, and reports false if ctx ended meanwhile.
func pause(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// kick asks a background goroutine to work now, unless it was asked.
func kick(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// every calls f every period, or at once when kicked, until ctx ends.
func every(ctx context.Context, period time.Duration, kicked <-chan struct{}, f func()) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-kicked:
		}
		f()
	}
}

// maxNode is the longest node id: its channel (NodeChannel) must be a
// PostgreSQL identifier.
const maxNode = 40

// CheckNode reports what makes id unfit as a node id: it must be 1 to 40
// lower-case letters, digits and dashes.
func CheckNode(id string) error {
	ok := len(id) > 0 && len(id) <= maxNode
	for i := 0; ok && i < len(id); i++ {
		c := id[i]
		ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-'
	}
	if !ok {
		return fmt.Errorf("node id %q: want 1 to %d lower-case letters, digits and dashes", id, maxNode)
	}
	return nil
}

// NewNodeID returns a node id for this process: name (such as the host's
// name), lower-cased and cut short, a dash, and a random suffix, so that
// a restarted process, or a second one given the same name, is another
// node and never takes the first one's leases for its own.
func NewNodeID(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	prefix := strings.Trim(b.String(), "-")
	if len(prefix) > maxNode-9 {
		prefix = strings.TrimRight(prefix[:maxNode-9], "-")
	}
	if prefix == "" {
		prefix = "node"
	}
	return prefix + "-" + strings.ToLower(rand.Text()[:8])
}

// HostNodeID returns NewNodeID of the host's name.
func HostNodeID() string {
	host, err := os.Hostname()
	if err != nil {
		host = "node"
	}
	return NewNodeID(host)
}
