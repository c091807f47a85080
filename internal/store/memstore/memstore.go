// Package memstore keeps games in memory: a store.Store for tests of other
// packages that need no durability. Everything is lost at Close.
//
// It is kept for speed: the HTTP API's tests, which start a server per
// test, run about four times as fast on it as on SQLite in a temporary
// directory. The shared suite (storetest) holds it to the same behaviour
// as the databases.
package memstore

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// Store is an in-memory store.Store. The zero value is not usable: call New.
// Its leases expire by the process's clock.
type Store struct {
	mu       storeLock
	games    map[string]*store.Game
	acc      accounts
	leases   map[string]*store.Lease // by game; Node empty once released
	analyses map[string]*analysis    // by game
	push     pushes
	chats    map[string]store.Chat // by game
	tour     tournaments
	pair     pairings
	social   social
	puz      puzzles
	mod      moderation
	closed   bool
	broker   store.Broker
	now      func() time.Time // Options.Now
}

var _ store.Store = (*Store)(nil)

// Options tune a Store; the zero value is the default.
type Options struct {
	// Now is the clock a game's Created and Updated times are stamped
	// from (default time.Now): the game hub's, so that a clock resumed
	// from when the game last changed runs on the hub's time. Leases keep
	// the real clock.
	Now func() time.Time
}

// New returns an empty store with the default options.
func New() *Store { return NewOptions(Options{}) }

// NewOptions returns an empty store.
func NewOptions(o Options) *Store {
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Store{now: o.Now, games: make(map[string]*store.Game), leases: make(map[string]*store.Lease),
		analyses: make(map[string]*analysis), chats: make(map[string]store.Chat), acc: newAccounts(), push: newPushes(), pair: newPairings(), social: newSocial()}
	s.mu.broker = &s.broker
	return s
}

// storeLock is the store's mutex. The notices of the changes made under
// it wait in the broker's queue, in the order made (store.Broker.Queue),
// and its Unlock delivers them to the hearers (Hear), which may then call
// the store.
type storeLock struct {
	sync.Mutex
	broker *store.Broker
}

// Unlock releases the lock, and delivers the notices queued.
func (l *storeLock) Unlock() {
	l.Mutex.Unlock()
	l.broker.Deliver()
}

var errClosed = fmt.Errorf("memstore: %w", store.ErrClosed)

// lock takes the mutex unless ctx is done or the store is closed; on nil
// the caller must unlock.
func (s *Store) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errClosed
	}
	return nil
}

// CreateGame implements store.Store.
func (s *Store) CreateGame(ctx context.Context, g *store.Game) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.games[g.ID]; ok {
		return fmt.Errorf("memstore: game %q: %w: the id exists", g.ID, store.ErrConflict)
	}
	s.insert(g)
	s.announce(g, store.ChangeCreated)
	return nil
}

// insert stores g, new; the store's lock is held.
func (s *Store) insert(g *store.Game) {
	// No monotonic reading: it means nothing stored.
	g.Created, g.Updated = g.Times(s.now().Round(0))
	s.games[g.ID] = g.Clone()
}

// CreateOwnedGame implements store.Store.
func (s *Store) CreateOwnedGame(ctx context.Context, g *store.Game, node string, ttl time.Duration) (store.Lease, error) {
	if err := g.CheckOwned(node, ttl); err != nil {
		return store.Lease{}, fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return store.Lease{}, err
	}
	defer s.mu.Unlock()
	if _, ok := s.games[g.ID]; ok {
		return store.Lease{}, fmt.Errorf("memstore: game %q: %w: the id exists", g.ID, store.ErrConflict)
	}
	l, _, err := store.Lease{Game: g.ID}.Acquire(node, time.Now(), ttl)
	if err != nil {
		return store.Lease{}, fmt.Errorf("memstore: %w", err)
	}
	s.insert(g)
	s.leases[g.ID] = &l
	s.announce(g, store.ChangeCreated)
	return l, nil
}

// announce publishes a change of g. The store's lock is held, so the
// changes of one game are announced in order; its hearers hear it as the
// lock is released (storeLock).
func (s *Store) announce(g *store.Game, kind store.ChangeKind) {
	c := store.Change{Game: g.ID, Kind: kind, Moves: len(g.Moves), Status: g.Status}
	if l := s.leases[g.ID]; (kind == store.ChangeLease || kind == store.ChangeCreated) && l != nil {
		c.Node, c.Fence = l.Node, l.Fence
	}
	s.broker.Queue(store.ChangesChannel, c.Payload())
}

// fenced reports whether a write of game id with fence may go ahead.
func (s *Store) fenced(id string, fence store.Fence) error {
	l := s.leases[id]
	if l == nil {
		l = &store.Lease{Game: id}
	}
	if !l.Permits(fence, time.Now()) {
		return fmt.Errorf("memstore: game %q fence %d: %w", id, fence, store.ErrLeaseLost)
	}
	return nil
}

// Game implements store.Store.
func (s *Store) Game(ctx context.Context, id string) (*store.Game, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok {
		return nil, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	return g.Clone(), nil
}

// TakeSeat implements store.Store.
func (s *Store) TakeSeat(ctx context.Context, id string, fence store.Fence, seat int, st store.Seat, status store.Status) error {
	if err := store.CheckSeat(id, seat, st, status); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, err := s.writable(id, fence, store.Status.Live)
	if err != nil {
		return err
	}
	if seat < 0 || seat >= len(g.Seats) {
		return fmt.Errorf("memstore: game %q has no seat %d: %w", id, seat, store.ErrNotFound)
	}
	if old := g.Seats[seat]; old.Name != "" || old.Bot != "" || old.TokenHash != nil {
		return fmt.Errorf("memstore: game %q seat %d: %w: the seat is taken", id, seat, store.ErrConflict)
	}
	if st.Account != "" && seatOfAccount(g, st.Account) >= 0 {
		return fmt.Errorf("memstore: game %q: %w: the account holds another seat", id, store.ErrConflict)
	}
	g.Seats[seat] = store.Seat{Name: st.Name, TokenHash: bytes.Clone(st.TokenHash), Account: st.Account}
	g.Status = status
	s.touch(g)
	s.announce(g, store.ChangeSeat)
	return nil
}

// FreeSeat implements store.Store.
func (s *Store) FreeSeat(ctx context.Context, id string, fence store.Fence, seat int) error {
	return s.replaceSeat(ctx, id, fence, seat, store.Seat.Person, "person", store.Seat{})
}

// SetSeatBot implements store.Store.
func (s *Store) SetSeatBot(ctx context.Context, id string, fence store.Fence, seat int, b store.Seat) error {
	if err := store.CheckBotSeat(id, seat, b); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	return s.replaceSeat(ctx, id, fence, seat, store.Seat.HeldByBot, "bot", store.Seat{Name: b.Name, Bot: b.Bot})
}

// replaceSeat puts next in seat seat of an open table, if held says its
// holder (a holder) is there.
func (s *Store) replaceSeat(ctx context.Context, id string, fence store.Fence, seat int, held func(store.Seat) bool, holder string, next store.Seat) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, err := s.writable(id, fence, store.Status.Open)
	if err != nil {
		return err
	}
	if seat < 0 || seat >= len(g.Seats) {
		return fmt.Errorf("memstore: game %q has no seat %d: %w", id, seat, store.ErrNotFound)
	}
	if !held(g.Seats[seat]) {
		return fmt.Errorf("memstore: game %q seat %d: %w: no %s holds it", id, seat, store.ErrConflict, holder)
	}
	g.Seats[seat] = next
	s.touch(g)
	s.announce(g, store.ChangeSeat)
	return nil
}

// CloseTable implements store.Store.
func (s *Store) CloseTable(ctx context.Context, id string, fence store.Fence, status store.Status) error {
	if err := store.CheckClose(id, status); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, err := s.writable(id, fence, store.Status.Open)
	if err != nil {
		return err
	}
	g.Status = status
	s.touch(g)
	s.announce(g, store.ChangeClosed)
	return nil
}

// writable returns game id for a write with fence: ErrLeaseLost unless
// the fence permits it, ErrConflict unless its status is ok.
func (s *Store) writable(id string, fence store.Fence, ok func(store.Status) bool) (*store.Game, error) {
	g, found := s.games[id]
	if !found {
		return nil, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	if err := s.fenced(id, fence); err != nil {
		return nil, err
	}
	if !ok(g.Status) {
		return nil, fmt.Errorf("memstore: game %q is %s: %w", id, g.Status, store.ErrConflict)
	}
	return g, nil
}

// AppendMove implements store.Store.
func (s *Store) AppendMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status) error {
	return s.AppendTimedMove(ctx, id, fence, index, token, status, nil)
}

// AppendTimedMove implements store.Store.
func (s *Store) AppendTimedMove(ctx context.Context, id string, fence store.Fence, index int, token string, status store.Status, clock []byte) error {
	if err := store.CheckMove(id, index, token, status); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, err := s.live(id, fence, index)
	if err != nil {
		return err
	}
	g.Moves = append(g.Moves, token)
	g.Status = status
	if clock != nil {
		g.Clock = bytes.Clone(clock)
	}
	s.touch(g)
	ask := store.AskOf(ctx)
	s.broker.Queue(store.ChangesChannel, store.MoveChange(id, index, token, status, clock).Asked(ask).Payload())
	if ask != nil {
		ask.Told = true
	}
	return nil
}

// SetClock implements store.Store.
func (s *Store) SetClock(ctx context.Context, id string, fence store.Fence, moves int, clock []byte) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, err := s.live(id, fence, moves)
	if err != nil {
		return err
	}
	g.Clock = bytes.Clone(clock)
	s.touch(g)
	s.broker.Queue(store.ChangesChannel, store.ClockChange(id, moves, g.Status, clock).Payload())
	return nil
}

// SetRematch implements store.Store.
func (s *Store) SetRematch(ctx context.Context, id string, old, offer []byte) error {
	if err := store.CheckRematch(id, offer); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	g, ok := s.games[id]
	switch {
	case !ok:
		return fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	case g.Status != store.StatusFinished:
		return fmt.Errorf("memstore: game %q is %s: %w", id, g.Status, store.ErrConflict)
	case !bytes.Equal(g.Rematch, old):
		return fmt.Errorf("memstore: game %q: %w: its rematch offer changed", id, store.ErrConflict)
	}
	g.Rematch = bytes.Clone(offer)
	s.announce(g, store.ChangeRematch)
	return nil
}

// live returns the live game id that has moves moves, for a write with
// fence.
func (s *Store) live(id string, fence store.Fence, moves int) (*store.Game, error) {
	g, ok := s.games[id]
	if !ok {
		return nil, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	if err := s.fenced(id, fence); err != nil {
		return nil, err
	}
	if !g.Status.Live() {
		return nil, fmt.Errorf("memstore: game %q is %s: %w", id, g.Status, store.ErrConflict)
	}
	if moves != len(g.Moves) {
		return nil, fmt.Errorf("memstore: game %q move %d: %w: the next move is %d", id, moves, store.ErrConflict, len(g.Moves))
	}
	return g, nil
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, status store.Status, limit int) ([]store.Summary, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var sums []store.Summary
	for _, g := range s.games {
		if g.Status != status {
			continue
		}
		sums = append(sums, summary(g))
	}
	return recent(sums, limit), nil
}

// MovesSince implements store.Store.
func (s *Store) MovesSince(ctx context.Context, from map[string]int) (map[string][]string, error) {
	return store.MovesOf(s.DeltasSince(ctx, from))
}

// DeltasSince implements store.Store.
func (s *Store) DeltasSince(ctx context.Context, from map[string]int) (map[string]store.Delta, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	out := map[string]store.Delta{}
	for id, n := range from {
		if g, ok := s.games[id]; ok {
			out[id] = store.Delta{Moves: slices.Clone(g.Moves[min(max(n, 0), len(g.Moves)):]), Clock: bytes.Clone(g.Clock)}
		}
	}
	return out, nil
}

// AcquireLease implements store.Store.
func (s *Store) AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckLease(id, node, ttl); err != nil {
		return store.Lease{}, err
	}
	if err := s.lock(ctx); err != nil {
		return store.Lease{}, err
	}
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok {
		return store.Lease{}, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	if g.Status != store.StatusOpen && g.Status != store.StatusPlaying {
		return store.Lease{}, fmt.Errorf("memstore: game %q is %s: %w", id, g.Status, store.ErrConflict)
	}
	l := s.leases[id]
	if l == nil {
		l = &store.Lease{Game: id}
		s.leases[id] = l
	}
	next, changed, err := l.Acquire(node, time.Now(), ttl)
	if err != nil {
		return store.Lease{}, fmt.Errorf("memstore: %w", err)
	}
	*l = next
	if changed {
		s.announce(g, store.ChangeLease)
	}
	return next, nil
}

// RenewLease implements store.Store.
func (s *Store) RenewLease(ctx context.Context, l store.Lease, ttl time.Duration) (store.Lease, error) {
	if err := store.CheckLease(l.Game, l.Node, ttl); err != nil {
		return store.Lease{}, err
	}
	if err := s.lock(ctx); err != nil {
		return store.Lease{}, err
	}
	defer s.mu.Unlock()
	cur, err := s.held(l)
	if err != nil {
		return store.Lease{}, err
	}
	now := time.Now()
	if err := cur.Holds(l, now); err != nil {
		return store.Lease{}, fmt.Errorf("memstore: %w", err)
	}
	cur.Expires = now.Add(ttl).Round(0)
	return *cur, nil
}

// RenewLeases implements store.Store.
func (s *Store) RenewLeases(ctx context.Context, leases []store.Lease, ttl time.Duration) ([]store.Lease, error) {
	for _, l := range leases {
		if err := store.CheckLease(l.Game, l.Node, ttl); err != nil {
			return nil, err
		}
	}
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	now := time.Now()
	var renewed []store.Lease
	for _, l := range leases {
		cur, err := s.held(l)
		if err != nil || cur.Holds(l, now) != nil {
			continue
		}
		cur.Expires = now.Add(ttl).Round(0)
		renewed = append(renewed, *cur)
	}
	return renewed, nil
}

// held returns the stored lease of l's game, or ErrNotFound.
func (s *Store) held(l store.Lease) (*store.Lease, error) {
	if _, ok := s.games[l.Game]; !ok {
		return nil, fmt.Errorf("memstore: game %q: %w", l.Game, store.ErrNotFound)
	}
	cur := s.leases[l.Game]
	if cur == nil {
		cur = &store.Lease{Game: l.Game}
	}
	return cur, nil
}

// ReleaseLease implements store.Store.
func (s *Store) ReleaseLease(ctx context.Context, l store.Lease) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	cur, err := s.held(l)
	if err != nil {
		return err
	}
	if err := cur.Holds(l, time.Now()); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	cur.Node, cur.Expires = "", time.Time{}
	s.announce(s.games[l.Game], store.ChangeLease)
	return nil
}

// Lease implements store.Store.
func (s *Store) Lease(ctx context.Context, id string) (store.Lease, error) {
	if err := s.lock(ctx); err != nil {
		return store.Lease{}, err
	}
	defer s.mu.Unlock()
	if _, ok := s.games[id]; !ok {
		return store.Lease{}, fmt.Errorf("memstore: game %q: %w", id, store.ErrNotFound)
	}
	l := store.Lease{Game: id}
	if cur := s.leases[id]; cur != nil {
		l.Fence = cur.Fence
		if cur.Live(time.Now()) {
			l.Node, l.Expires = cur.Node, cur.Expires
		}
	}
	return l, nil
}

// Unowned implements store.Store.
func (s *Store) Unowned(ctx context.Context, limit int) ([]string, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	now := time.Now()
	var games []*store.Game
	for id, g := range s.games {
		if (g.Status == store.StatusOpen || g.Status == store.StatusPlaying) && !(s.leases[id] != nil && s.leases[id].Live(now)) {
			games = append(games, g)
		}
	}
	sort.Slice(games, func(i, j int) bool {
		a, b := games[i], games[j]
		if (a.Status == store.StatusPlaying) != (b.Status == store.StatusPlaying) {
			return a.Status == store.StatusPlaying
		}
		if !a.Updated.Equal(b.Updated) {
			return a.Updated.Before(b.Updated)
		}
		return a.ID < b.ID
	})
	if limit > 0 && len(games) > limit {
		games = games[:limit]
	}
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.ID
	}
	return ids, nil
}

// Publish implements store.Store, within the process.
func (s *Store) Publish(ctx context.Context, channel, payload string) error {
	if err := store.CheckPublish(channel, payload); err != nil {
		return err
	}
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	s.broker.Queue(channel, payload)
	return nil
}

// Subscribe implements store.Store, within the process.
func (s *Store) Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error) {
	return s.broker.Subscribe(ctx, channels...)
}

// Hear implements store.Hearer, within the process: f hears a notice on
// the goroutine that made it, as that releases the store's lock
// (storeLock). It may call the store, though that holds up every notice
// after its own.
func (s *Store) Hear(ctx context.Context, f func(store.Notice), channels ...string) (<-chan struct{}, error) {
	return s.broker.Hear(ctx, f, channels...)
}

// Health implements store.Store: a memory store is healthy until closed.
func (s *Store) Health(ctx context.Context) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	s.mu.Unlock()
	return nil
}

// Close implements store.Store. Later calls fail.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.games = nil
	s.broker.Close()
	return nil
}

// touch advances g.Updated to now, and never backwards, so the order of
// changes survives a clock step.
func (s *Store) touch(g *store.Game) {
	now := s.now().Round(0)
	if !now.After(g.Updated) {
		now = g.Updated.Add(time.Nanosecond)
	}
	g.Updated = now
}
