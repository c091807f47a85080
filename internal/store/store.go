// Package store keeps games durably: their tables (seats, cheques, the
// secret seed) and every accepted move. SQLite is the embedded default,
// PostgreSQL serves several nodes; every implementation passes the shared
// suite in package storetest, which is the specification of this package.
//
// # Leases and fencing
//
// A live game (open or playing) is run by at most one node at a time. A
// node takes a game with AcquireLease, which succeeds when the game has no
// lease, its lease expired or was released, or the node holds it already;
// whenever the holder changes (another node, or the same node after its
// lease lapsed) the game's fencing number grows. The node renews the lease
// before it expires (RenewLease, or RenewLeases for all its games in one
// go) and gives it up with ReleaseLease, after
// which another node may take it at once. Expiry is judged by the
// database's clock, never the node's.
//
// Every write of a live game (TakeSeat, AppendMove and the status changes
// they carry) names the writer's Fence. The store checks it in the same
// transaction as the write: if the lease is not live and held with that
// fence, the write fails with ErrLeaseLost and changes nothing, so a node
// that lost its lease (paused past expiry, partitioned) can never commit.
// NoFence writes without a lease: it succeeds only while no node holds a
// live lease on the game, for a single process that does not use leases.
// (game, move index) is unique, so no move is ever stored twice.
//
// # Notifications
//
// Every committed change of a game is announced on ChangesChannel, after
// its commit, as a Change (game id, kind, moves stored, status, lease).
// Publish and Subscribe carry small payloads on other named channels too,
// for example a move passed to the node that owns a game. PostgreSQL
// delivers them to every node (LISTEN/NOTIFY, sent in the writing
// transaction); SQLite and memstore within the process. Delivery is at
// most once: a subscriber that fell behind, or whose connection to the
// database was lost and is back, receives a Notice with Missed set and
// should re-read what it serves.
//
// # Copies
//
// A store with a database schema is a Copier too: Kinds lists every
// table of the schema with its columns, Dump reads a kind's rows as Go
// values every store shares and Restore writes them in one transaction,
// which is how razzia migrate moves a database between SQLite and
// PostgreSQL losing nothing. storetest checks Kinds against each
// database's catalogue, so that a table or column a migration adds is
// copied too.
package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
)

// Errors every implementation returns (wrapped, for errors.Is).
var (
	// ErrNotFound is a game the store does not have; it is also the
	// Hub's, so that one "no such game" reaches the player with its code.
	ErrNotFound = protocol.NewRefusal(protocol.NotFound, "no such game")
	ErrConflict = errors.New("the game changed meanwhile") // a move index or seat no longer free
	ErrCorrupt  = errors.New("the database is damaged")
	// ErrLeaseLost is a write or a renewal by a node that does not hold
	// the game's lease with that fence (any more).
	ErrLeaseLost = errors.New("the lease on the game is not held")
	// ErrLeaseHeld is an AcquireLease while another node holds the lease.
	ErrLeaseHeld = errors.New("another node holds the lease on the game")
	// ErrSchema is a database whose schema this program cannot use: newer
	// than it knows, or another application's.
	ErrSchema = errors.New("the database schema is not this program's")
)

// Status is where a game is in its life: the protocol's statuses, so that
// what is stored and what is sent are one vocabulary.
type Status = protocol.Status

// The statuses.
const (
	StatusOpen      = protocol.StatusOpen
	StatusPlaying   = protocol.StatusPlaying
	StatusFinished  = protocol.StatusFinished
	StatusArchived  = protocol.StatusArchived
	StatusExpired   = protocol.StatusExpired
	StatusCancelled = protocol.StatusCancelled
)

// A Seat is one place at a table.
type Seat struct {
	Name      string // display name; empty while the seat is open
	Bot       string // the bot level or spec playing it; empty for a person
	TokenHash []byte // SHA-256 of the seat's secret token; nil for an open seat or a bot
	// Account is the id of the account the seat belongs to, "" for a
	// guest, a bot or an open seat.
	Account string
}

// Person reports whether a person holds the seat.
func (s Seat) Person() bool { return s.Bot == "" && s.TokenHash != nil }

// HeldByBot reports whether a bot holds the seat.
func (s Seat) HeldByBot() bool { return s.Bot != "" }

// Info describes the seat in protocol terms: never its token.
func (s Seat) Info() protocol.SeatInfo {
	return protocol.SeatInfo{Name: s.Name, Bot: s.Bot, Open: s.Name == "", Account: s.Account != ""}
}

// A Game is a table and everything needed to rebuild its state.
type Game struct {
	ID      string
	Status  Status
	Seats   []Seat
	Cheques [][]int  // the cheque sets dealt, in seat order
	Seed    []byte   // the secret source of chance: never sent to a client
	Moves   []string // record tokens, in order
	Created time.Time
	Updated time.Time // set by the store at every change
	// CreatorHash is the SHA-256 of the secret token of the table's
	// creator, who may remove a player before the game starts; nil when
	// the game has no creator to act for it (an uploaded record, a game
	// stored before creators had tokens).
	CreatorHash []byte
	// Clock is the state of a timed table's clocks (and who stood in for
	// whom), encoded by internal/table and kept as it is; nil for an
	// untimed game. AppendTimedMove and SetClock change it with the game.
	Clock []byte
	// Rated is a table whose result changes its players' ratings: every
	// person at it is signed in.
	Rated bool
	// RematchOf is the id of the finished game this one is the rematch
	// of; "" for a game that is not one. Set at creation only.
	RematchOf string
	// Rematch is the rematch offer made at this finished game, encoded by
	// internal/table and kept as it is (SetRematch); nil for none.
	Rematch []byte
}

// A Summary describes a game in a list.
type Summary struct {
	ID      string
	Status  Status
	Seats   []Seat // TokenHash is not filled in
	Rated   bool
	Moves   int
	Created time.Time
	Updated time.Time
}

// A Delta is what a reader of a game lacks (DeltasSince): the moves after
// those it holds, and the game's clock.
type Delta struct {
	Moves []string
	Clock []byte
}

// MovesOf returns the moves of deltas as MovesSince answers them: the
// games with new moves only. A store's MovesSince is its DeltasSince.
func MovesOf(deltas map[string]Delta, err error) (map[string][]string, error) {
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for id, d := range deltas {
		if len(d.Moves) > 0 {
			out[id] = d.Moves
		}
	}
	return out, nil
}

// A Fence is a game's fencing number: it grows each time the game's lease
// changes holder, and every write of a live game carries the writer's.
type Fence int64

// NoFence is the fence of a write made without a lease.
const NoFence Fence = 0

// A Lease is a node's ownership of a live game.
type Lease struct {
	Game    string
	Node    string    // the holder; empty when no node holds the game
	Fence   Fence     // the game's fencing number
	Expires time.Time // by the database's clock; zero when released
}

// Store is the durable storage of games. Every method is safe for
// concurrent use. A method that returns nil has committed its change.
type Store interface {
	Accounts

	// CreateGame stores a new game; its ID must be new, else ErrConflict.
	// A zero Created or Updated is set to the current time, in g too.
	CreateGame(ctx context.Context, g *Game) error
	// CreateOwnedGame is CreateGame of a live game and AcquireLease of it
	// by node for ttl, in one transaction: no other node ever sees the new
	// game without its lease (Unowned never lists it), so the node that
	// creates a game is the one that runs it. The lease's fence is the
	// game's first. Its change notice (ChangeCreated) names node and fence.
	CreateOwnedGame(ctx context.Context, g *Game, node string, ttl time.Duration) (Lease, error)
	// Game returns the game with every move, or ErrNotFound.
	Game(ctx context.Context, id string) (*Game, error)
	// TakeSeat fills an open seat with a person (s: a name, a token hash
	// and maybe an account), or returns ErrConflict if it is no longer
	// open, the game is not open, or the account holds another seat of
	// the game. status is the game's status afterwards. An
	// unknown game or a seat out of range is ErrNotFound; a fence that does
	// not hold the game's lease is ErrLeaseLost.
	TakeSeat(ctx context.Context, id string, fence Fence, seat int, s Seat, status Status) error
	// FreeSeat opens again seat seat, which a person took, at a table
	// that is still open: the seat's name and token hash are cleared. A
	// game that is not open, or a seat that is open or a bot's, is
	// ErrConflict; an unknown game or seat ErrNotFound; a fence that does
	// not hold the game's lease ErrLeaseLost.
	FreeSeat(ctx context.Context, id string, fence Fence, seat int) error
	// SetSeatBot puts another bot (s: a name and a bot level, nothing
	// else) in seat seat, which a bot holds, at a table that is still
	// open. A game that is not open, or a seat that is open or a
	// person's, is ErrConflict; an unknown game or seat ErrNotFound; a
	// fence that does not hold the game's lease ErrLeaseLost.
	SetSeatBot(ctx context.Context, id string, fence Fence, seat int, s Seat) error
	// CloseTable ends an open table that never started: its status
	// becomes status, one of the closed statuses (StatusExpired). A game
	// that is not open is ErrConflict, an unknown one ErrNotFound.
	CloseTable(ctx context.Context, id string, fence Fence, status Status) error
	// AppendMove stores move number index (0-based) of the game, which must
	// be the next one, else ErrConflict; status is the status afterwards.
	// A finished or archived game takes no more moves (ErrConflict); a
	// fence that does not hold the game's lease is ErrLeaseLost.
	AppendMove(ctx context.Context, id string, fence Fence, index int, token string, status Status) error
	// AppendTimedMove is AppendMove that also replaces the game's Clock in
	// the same transaction (nil keeps it), so that a move and the time it
	// took are never stored apart.
	AppendTimedMove(ctx context.Context, id string, fence Fence, index int, token string, status Status, clock []byte) error
	// SetClock replaces the Clock of a live game that has exactly moves
	// moves: ErrConflict if it has another number or is not live,
	// ErrNotFound if unknown, ErrLeaseLost for a fence that does not hold
	// its lease. A timeout stored this way happens once, whoever stores it.
	SetClock(ctx context.Context, id string, fence Fence, moves int, clock []byte) error
	// SetRematch replaces the rematch offer of a finished game with offer,
	// only if the stored one is old (nil: no offer yet): else
	// ErrConflict, as for a game that is not finished. An unknown game is
	// ErrNotFound. It is announced as ChangeRematch; the game's Updated
	// time stays.
	SetRematch(ctx context.Context, id string, old, offer []byte) error
	// List returns the games with the status, most recently updated first,
	// at most limit of them (all when limit <= 0).
	List(ctx context.Context, status Status, limit int) ([]Summary, error)
	// MovesSince reads the moves that follow those a reader has, for many
	// games at once: from maps a game's id to the number of its moves the
	// reader holds (a negative number as 0), and the answer maps it to the
	// moves stored after them, in order. A game with no more moves, or not stored, is left out.
	MovesSince(ctx context.Context, from map[string]int) (map[string][]string, error)
	// DeltasSince is MovesSince with each game's Clock as it is now, read
	// in the same snapshot as its moves, so that a reader never holds a
	// clock of other moves than its own: a game with no more moves is
	// there too (its clock may have changed), one not stored is left out.
	DeltasSince(ctx context.Context, from map[string]int) (map[string]Delta, error)

	// AcquireLease makes node the holder of the live game for ttl: it
	// fails with ErrLeaseHeld while another node's lease is live, with
	// ErrConflict for a finished or archived game, with ErrNotFound for an
	// unknown one.
	AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (Lease, error)
	// RenewLease extends a live lease by ttl from now, or fails with
	// ErrLeaseLost if the lease lapsed or changed holder.
	RenewLease(ctx context.Context, l Lease, ttl time.Duration) (Lease, error)
	// RenewLeases renews many leases at once, each as RenewLease would:
	// it returns those renewed, in the order given, with their new expiry.
	// A lease left out is lost (it lapsed, changed holder or was
	// released, or its game is gone). An error means nothing is
	// known: the database could not be asked.
	RenewLeases(ctx context.Context, leases []Lease, ttl time.Duration) ([]Lease, error)
	// ReleaseLease gives the lease up, so that another node can take the
	// game at once; ErrLeaseLost if it was not held any more.
	ReleaseLease(ctx context.Context, l Lease) error
	// Lease returns the game's lease: Node is empty when no node holds a
	// live lease. An unknown game is ErrNotFound.
	Lease(ctx context.Context, id string) (Lease, error)
	// Unowned returns the ids of the live games (open or playing) that no
	// node holds, playing first, at most limit (all when limit <= 0): the
	// games a node takes over when their owner died.
	Unowned(ctx context.Context, limit int) ([]string, error)

	// Publish sends payload (at most MaxPayload bytes) on the channel to
	// every subscriber of every node. ChangesChannel is the store's own.
	Publish(ctx context.Context, channel, payload string) error
	// Subscribe delivers the notices of the channels until ctx is done or
	// the store closes, and then closes the Go channel. Notices sent after
	// Subscribe returns are delivered.
	Subscribe(ctx context.Context, channels ...string) (<-chan Notice, error)

	// Analyses keeps the analyses of finished games.
	Analyses
	// Push keeps the VAPID keys and the accounts' push subscriptions.
	Push
	// Chats keeps the table chat of games.
	Chats
	// Tournaments keeps tournaments, their players and tables.
	Tournaments
	// Pairing keeps the Play-now requests and the challenges.
	Pairing
	// Social keeps presence, last sightings, follows, blocks and finish
	// marks.
	Social
	// Puzzles keeps the puzzles found in finished games and their answers.
	Puzzles
	// Moderation keeps the operators, the reports and the operators'
	// actions.
	Moderation

	// Health reports why the store cannot serve, or nil: the database is
	// reachable, its schema is this program's, and a commit succeeds.
	Health(ctx context.Context) error
	// Close releases the store.
	Close() error
}

// Validate reports what makes g unfit to store, if anything: every
// implementation checks a new game with it.
func (g *Game) Validate() error {
	switch {
	case g == nil:
		return errors.New("nil game")
	case g.ID == "":
		return errors.New("game with an empty id")
	case !g.Status.Valid():
		return fmt.Errorf("game %q: unknown status %q", g.ID, g.Status)
	case slices.Contains(g.Moves, ""):
		return fmt.Errorf("game %q: empty move token", g.ID)
	}
	accounts := map[string]bool{}
	for i, s := range g.Seats {
		if s.Account == "" {
			continue
		}
		if accounts[s.Account] {
			return fmt.Errorf("game %q seat %d: the account holds another seat of the game", g.ID, i)
		}
		accounts[s.Account] = true
	}
	return nil
}

// Clone returns a deep copy of g, so that neither the caller nor a store
// sees the other's later changes.
func (g *Game) Clone() *Game {
	c := *g
	c.Seats = slices.Clone(g.Seats)
	for i := range c.Seats {
		c.Seats[i].TokenHash = bytes.Clone(g.Seats[i].TokenHash)
	}
	c.Cheques = make([][]int, len(g.Cheques))
	for i, ch := range g.Cheques {
		c.Cheques[i] = slices.Clone(ch)
	}
	c.Seed = bytes.Clone(g.Seed)
	c.Moves = slices.Clone(g.Moves)
	c.CreatorHash = bytes.Clone(g.CreatorHash)
	c.Clock = bytes.Clone(g.Clock)
	c.Rematch = bytes.Clone(g.Rematch)
	return &c
}

// CheckOwned reports what makes a CreateOwnedGame unfit before any store
// looks: a game Validate refuses, one that is not live, a bad lease.
func (g *Game) CheckOwned(node string, ttl time.Duration) error {
	if err := g.Validate(); err != nil {
		return err
	}
	if !g.Status.Live() {
		return fmt.Errorf("game %q: a %s game has no lease: create it with CreateGame", g.ID, g.Status)
	}
	return CheckLease(g.ID, node, ttl)
}

// CheckRematch reports what makes a SetRematch unfit before any store
// looks: no offer.
func CheckRematch(id string, offer []byte) error {
	if len(offer) == 0 {
		return fmt.Errorf("game %q: an empty rematch offer", id)
	}
	return nil
}

// CheckLease reports what makes a lease request unfit: no game, no node
// name, or a ttl that is not positive.
func CheckLease(id, node string, ttl time.Duration) error {
	switch {
	case id == "":
		return errors.New("store: lease of a game with an empty id")
	case node == "":
		return fmt.Errorf("store: lease of game %q for a node with no name", id)
	case ttl <= 0:
		return fmt.Errorf("store: lease of game %q for %v: want a positive duration", id, ttl)
	}
	return nil
}

// Live reports whether l is held at now.
func (l Lease) Live(now time.Time) bool { return l.Node != "" && now.Before(l.Expires) }

// Permits reports whether a write with fence may go ahead on a game whose
// lease is l at now: the fence holds the live lease, or it is NoFence and
// nobody holds one. The stores that keep leases in Go share this rule;
// PostgreSQL states it in SQL.
func (l Lease) Permits(fence Fence, now time.Time) bool {
	if fence == NoFence {
		return !l.Live(now)
	}
	return l.Live(now) && l.Fence == fence
}

// Acquire returns the lease node holds after acquiring l at now for ttl,
// and whether the holder changed (the fence grew), or ErrLeaseHeld.
func (l Lease) Acquire(node string, now time.Time, ttl time.Duration) (next Lease, changed bool, err error) {
	switch {
	case l.Live(now) && l.Node != node:
		return l, false, fmt.Errorf("game %q: %w (%s, until %v)", l.Game, ErrLeaseHeld, l.Node, l.Expires)
	case !l.Live(now):
		l.Node = node
		l.Fence++
		changed = true
	}
	l.Expires = now.Add(ttl).Round(0)
	return l, changed, nil
}

// Holds reports ErrLeaseLost unless cur, the stored lease, is l and live
// at now.
func (cur Lease) Holds(l Lease, now time.Time) error {
	if !cur.Live(now) || cur.Node != l.Node || cur.Fence != l.Fence {
		return fmt.Errorf("game %q node %s fence %d: %w", l.Game, l.Node, l.Fence, ErrLeaseLost)
	}
	return nil
}

// CheckVersion refuses a database whose schema version (have) is newer
// than the newest this program knows (want): what names the database.
func CheckVersion(what string, have, want int64) error {
	if have > want {
		return fmt.Errorf("%s: %w: its schema is at version %d, newer than this razzia's %d; run a newer razzia (or restore a backup made before the upgrade)",
			what, ErrSchema, have, want)
	}
	return nil
}

// Equal reports whether g and h hold the same game: every field, times
// as instants.
func (g *Game) Equal(h *Game) bool {
	return g.ID == h.ID && g.Status == h.Status &&
		slices.EqualFunc(g.Seats, h.Seats, func(a, b Seat) bool {
			return a.Name == b.Name && a.Bot == b.Bot && bytes.Equal(a.TokenHash, b.TokenHash) && a.Account == b.Account
		}) && g.Rated == h.Rated &&
		slices.EqualFunc(g.Cheques, h.Cheques, slices.Equal) &&
		bytes.Equal(g.Seed, h.Seed) && slices.Equal(g.Moves, h.Moves) && bytes.Equal(g.CreatorHash, h.CreatorHash) &&
		bytes.Equal(g.Clock, h.Clock) && g.RematchOf == h.RematchOf && bytes.Equal(g.Rematch, h.Rematch) &&
		g.Created.Equal(h.Created) && g.Updated.Equal(h.Updated)
}

// CheckSeat reports what makes a TakeSeat unfit before any store looks:
// an empty name, no token hash, a bot, an unknown status.
func CheckSeat(id string, seat int, s Seat, status Status) error {
	switch {
	case s.Name == "":
		return fmt.Errorf("game %q seat %d: empty name", id, seat)
	case s.Bot != "":
		return fmt.Errorf("game %q seat %d: a person's seat with a bot", id, seat)
	case len(s.TokenHash) == 0:
		return fmt.Errorf("game %q seat %d: no token hash", id, seat)
	case !status.Valid():
		return fmt.Errorf("game %q: unknown status %q", id, status)
	}
	return nil
}

// CheckBotSeat reports what makes a SetSeatBot unfit before any store
// looks: an empty name or bot, a token hash or an account.
func CheckBotSeat(id string, seat int, s Seat) error {
	switch {
	case s.Name == "":
		return fmt.Errorf("game %q seat %d: empty name", id, seat)
	case s.Bot == "":
		return fmt.Errorf("game %q seat %d: a bot's seat without a bot", id, seat)
	case s.TokenHash != nil || s.Account != "":
		return fmt.Errorf("game %q seat %d: a bot's seat with a person's token or account", id, seat)
	}
	return nil
}

// CheckClose reports what makes a CloseTable unfit before any store
// looks: a status that does not close a table.
func CheckClose(id string, status Status) error {
	if !status.Closed() {
		return fmt.Errorf("game %q: %q does not close a table (want %q or %q)", id, status, StatusExpired, StatusCancelled)
	}
	return nil
}

// CheckMove reports what makes an AppendMove unfit before any store
// looks: an empty token, an unknown status.
func CheckMove(id string, index int, token string, status Status) error {
	switch {
	case token == "":
		return fmt.Errorf("game %q move %d: empty token", id, index)
	case !status.Valid():
		return fmt.Errorf("game %q: unknown status %q", id, status)
	}
	return nil
}

// Times returns the Created and Updated times a new game is stored with:
// its own, or now where they are zero.
func (g *Game) Times(now time.Time) (created, updated time.Time) {
	created, updated = g.Created, g.Updated
	if created.IsZero() {
		created = now
	}
	if updated.IsZero() {
		updated = now
	}
	return created, updated
}
