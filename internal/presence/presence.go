// Package presence knows who is connected to a Razzia server, across its
// nodes: the people online (signed-in players and guests with a name),
// what each is doing (in the lobby, playing, watching), and which seats of
// a table have their person connected, away (the page hidden) or gone.
//
// # The mechanism
//
// Every WebSocket a node serves is a connection (Connect): the node
// writes one row for it in the store (store.Social.PutPresence) and
// removes it when the socket closes (DropPresence), and announces each
// change on Channel to every node, which applies it to its copy of all
// the rows. A node beats every Beat (BeatPresence, and a beat notice), so
// that the others know it alive for TTL; a node that stops beating is
// dead, its rows dropped by every node at once and swept from the store
// by the first that sweeps. Every Resync, and whenever notices may have
// been missed, a node reads all the rows again.
//
// A person is online while any of their connections is, on any node, and
// for Linger after their last one closed, so that going from one page to
// another is not going offline. A person is online on every node within
// a notice's delay of connecting (well under the 5 s promised); offline
// within Linger of closing the page, within the WebSocket's ping timeout
// plus Linger of vanishing (a browser killed, a network cut), and within
// TTL plus Beat plus Linger of their node dying: at most 60 s with the
// defaults (see docs/presence.md).
//
// # Its cost
//
// Per connected person: one row written when a page connects, one
// removed when it closes, one rewritten when its tab is hidden or shown
// again, each with one notice that every node applies in O(1); the rows
// cost nothing while nothing changes. Per node: a beat (one row written
// and one notice) every Beat, a sweep (one statement) every Beat, and a
// full read of every row every Resync.
package presence

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// Channel is the store channel presence notices travel on.
const Channel = "razzia_presence"

// Defaults of Options.
const (
	DefaultBeat   = 5 * time.Second
	DefaultTTL    = 20 * time.Second
	DefaultLinger = 8 * time.Second
	DefaultResync = 5 * time.Minute
)

// Store is what presence needs of the store.
type Store interface {
	PutPresence(ctx context.Context, r store.PresenceRow) error
	DropPresence(ctx context.Context, node string, conn int64, at time.Time) error
	BeatPresence(ctx context.Context, node string, expires time.Time) error
	Presence(ctx context.Context, now time.Time) ([]store.PresenceRow, error)
	DropNode(ctx context.Context, node string, at time.Time) ([]store.PresenceRow, error)
	SweepPresence(ctx context.Context, now time.Time) ([]store.PresenceRow, error)
	LastSeen(ctx context.Context, accounts ...string) (map[string]time.Time, error)
	SeatsSeen(ctx context.Context, game string) (map[int]time.Time, error)
	Publish(ctx context.Context, channel, payload string) error
	Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error)
}

// Options configure a Service. Zero fields take the defaults.
type Options struct {
	// Node names this node among those sharing the store (the Hub's).
	Node string
	// Now and AfterFunc are the clock: time.Now and time.AfterFunc by
	// default; tests give a fake one.
	Now       func() time.Time
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	// Beat is how often the node says it is alive; TTL how long it is
	// believed alive after a beat; Linger how long a person stays online
	// after their last connection closed; Resync how often every row is
	// read again.
	Beat, TTL, Linger, Resync time.Duration
	Logger                    *slog.Logger
	// OnSeats, when set, is called (in a goroutine of its own) whenever
	// the presence at a table's seats may have changed, on any node: the
	// table's host looks again at a clock held for its people.
	OnSeats func(game string)
}

func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AfterFunc == nil {
		o.AfterFunc = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	for _, f := range []struct {
		v *time.Duration
		d time.Duration
	}{
		{&o.Beat, DefaultBeat}, {&o.TTL, DefaultTTL}, {&o.Linger, DefaultLinger}, {&o.Resync, DefaultResync},
	} {
		if *f.v <= 0 {
			*f.v = f.d
		}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// An Activity is what a person online is doing, from the least to the
// most telling.
type Activity int

// The activities.
const (
	Lobby    Activity = iota // any page but a table
	Watching                 // at a table without a seat
	Playing                  // at a table, in a seat
)

var activities = [...]string{Lobby: "lobby", Watching: "watching", Playing: "playing"}

func (a Activity) String() string { return activities[a] }

// A Person is who a connection belongs to.
type Person struct {
	// Key is "a:" and the account's id for a signed-in person, "g:" and a
	// hash of their guest cookie for a guest, "" for a connection known by
	// its seat only (it counts for the seat, not among the people).
	Key     string
	Account string // "" for a guest
	Name    string
}

// AccountKey is the Person.Key of the account with the id.
func AccountKey(id string) string { return "a:" + id }

// A Status is a person online as every node sees them.
type Status struct {
	Person
	Activity Activity
	// Game is the table they play at (the latest taken, if several), or
	// watch when they play at none; "" in the lobby.
	Game string
	// Away: every page of theirs is hidden.
	Away bool
	// Since is when their earliest connection still open was made.
	Since time.Time
}

// A Seat is the presence of a seat's person at a table.
type Seat struct {
	Connected bool
	Away      bool // connected, but every page of theirs at the table is hidden
}

type rowKey struct {
	node string
	conn int64
}

// An index finds the rows by one of their fields, so that a change costs
// the same however many people are online.
type index map[string]map[rowKey]struct{}

func (ix index) add(field string, k rowKey) {
	m := ix[field]
	if m == nil {
		m = map[rowKey]struct{}{}
		ix[field] = m
	}
	m[k] = struct{}{}
}

func (ix index) remove(field string, k rowKey) {
	if m := ix[field]; m != nil {
		delete(m, k)
		if len(m) == 0 {
			delete(ix, field)
		}
	}
}

// A Service keeps presence for one node. Its methods are safe for
// concurrent use.
type Service struct {
	st   Store
	opts Options
	log  *slog.Logger

	mu       sync.Mutex
	next     int64
	rows     map[rowKey]store.PresenceRow
	byPerson index                // the rows of each person
	byGame   index                // the rows at each table
	byNode   index                // the rows of each node
	nodes    map[string]time.Time // the other nodes' beats' expiry, as announced
	shown    map[string]bool      // the people online, as last told
	last     map[string]Status    // how each of them stands (a lingering person as last connected)
	linger   map[string]func() bool
	feeds    map[*Feed]struct{}
	inboxes  map[*inbox]struct{} // this node's live pages
	// undropped are this node's connections closed whose rows the store
	// could not drop, and when they closed: each beat tries again.
	undropped map[int64]time.Time
	version   atomic.Int64 // grows at every event told
	stopBeat  func() bool  // stops the timer of the next beat
	gameSubs  map[string]map[chan struct{}]struct{}

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	ticked chan struct{} // tests: told after each beat is handled
}

// New returns the presence of the node on st; Start starts it.
func New(st Store, opts Options) *Service {
	opts = opts.withDefaults()
	return &Service{st: st, opts: opts, log: opts.Logger.With("part", "presence"),
		rows: map[rowKey]store.PresenceRow{}, byPerson: index{}, byGame: index{}, byNode: index{}, nodes: map[string]time.Time{}, shown: map[string]bool{}, last: map[string]Status{},
		linger: map[string]func() bool{}, feeds: map[*Feed]struct{}{}, inboxes: map[*inbox]struct{}{}, undropped: map[int64]time.Time{}, gameSubs: map[string]map[chan struct{}]struct{}{}}
}

// Node returns the node's name.
func (s *Service) Node() string { return s.opts.Node }

// Start drops what an earlier run of the node left, subscribes to the
// other nodes' notices, reads every row and beats; the service runs until
// Close.
func (s *Service) Start(ctx context.Context) error {
	if s.opts.Node == "" {
		return fmt.Errorf("presence: no node name")
	}
	if _, err := s.st.DropNode(ctx, s.opts.Node, s.opts.Now()); err != nil {
		return fmt.Errorf("presence: %w", err)
	}
	s.ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	notices, err := s.st.Subscribe(s.ctx, Channel, InboxChannel)
	if err != nil {
		s.cancel()
		return fmt.Errorf("presence: %w", err)
	}
	s.beat(ctx)
	if err := s.resync(ctx); err != nil {
		s.cancel()
		return err
	}
	s.done = make(chan struct{})
	tick := make(chan struct{}, 1)
	s.armBeat(tick) // before Start returns: a clock moved next rings it
	go s.run(notices, tick)
	return nil
}

// armBeat sets the timer of the next beat, which ticks tick; s.stopBeat
// stops it.
func (s *Service) armBeat(tick chan struct{}) {
	stop := s.opts.AfterFunc(s.opts.Beat, func() {
		select {
		case tick <- struct{}{}:
		default:
		}
	})
	s.mu.Lock()
	s.stopBeat = stop
	s.mu.Unlock()
}

// Close drops this node's rows, so that its people go offline at once,
// and stops.
func (s *Service) Close() {
	if s.cancel == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := s.st.DropNode(ctx, s.opts.Node, s.opts.Now()); err != nil {
		s.log.Warn("cannot drop the node's presence", "err", err)
	} else {
		s.publish(ctx, notice{Op: opGone, Node: s.opts.Node})
	}
	s.cancel()
	<-s.done
	s.mu.Lock()
	for _, stop := range s.linger {
		stop()
	}
	s.linger = map[string]func() bool{}
	s.mu.Unlock()
}

// run applies the other nodes' notices and beats until Close.
func (s *Service) run(notices <-chan store.Notice, tick chan struct{}) {
	defer close(s.done)
	defer func() {
		s.mu.Lock()
		s.stopBeat()
		s.mu.Unlock()
	}()
	lastSync := s.opts.Now()
	for {
		select {
		case <-s.ctx.Done():
			return
		case n, ok := <-notices:
			if !ok {
				return
			}
			if n.Missed {
				s.resyncInboxes()
				if err := s.resync(s.ctx); err == nil {
					lastSync = s.opts.Now()
				}
				continue
			}
			if n.Channel == InboxChannel {
				s.receive(n.Payload)
				continue
			}
			s.apply(n.Payload)
		case <-tick:
			s.beat(s.ctx)
			s.expireNodes()
			if s.opts.Now().Sub(lastSync) >= s.opts.Resync {
				if err := s.resync(s.ctx); err == nil {
					lastSync = s.opts.Now()
				}
			}
			s.armBeat(tick)
			if s.ticked != nil {
				select {
				case s.ticked <- struct{}{}:
				default:
				}
			}
		}
	}
}

// The notices' operations.
const (
	opPut  = "put"
	opDrop = "drop"
	opBeat = "beat"
	opGone = "gone"
)

// A notice is one change a node announces.
type notice struct {
	Op      string `json:"op"`
	Node    string `json:"node"`
	Conn    int64  `json:"conn,omitempty"`
	Person  string `json:"person,omitempty"`
	Account string `json:"account,omitempty"`
	Name    string `json:"name,omitempty"`
	Game    string `json:"game,omitempty"`
	Seat    int    `json:"seat,omitempty"`
	Away    bool   `json:"away,omitempty"`
	At      int64  `json:"at,omitempty"` // Since of a put, the expiry of a beat (Unix ms)
}

func (n notice) row() store.PresenceRow {
	return store.PresenceRow{Node: n.Node, Conn: n.Conn, Person: n.Person, Account: n.Account, Name: n.Name,
		Game: n.Game, Seat: n.Seat - 1, Away: n.Away, Since: time.UnixMilli(n.At)}
}

func putNotice(r store.PresenceRow) notice {
	return notice{Op: opPut, Node: r.Node, Conn: r.Conn, Person: r.Person, Account: r.Account, Name: r.Name,
		Game: r.Game, Seat: r.Seat + 1, Away: r.Away, At: r.Since.UnixMilli()}
}

func (s *Service) publish(ctx context.Context, n notice) {
	b, err := json.Marshal(n)
	if err == nil {
		err = s.st.Publish(ctx, Channel, string(b))
	}
	if err != nil && ctx.Err() == nil {
		s.log.Warn("cannot announce a presence change", "op", n.Op, "err", err)
	}
}

// apply applies another node's notice.
func (s *Service) apply(payload string) {
	var n notice
	if err := json.Unmarshal([]byte(payload), &n); err != nil || n.Node == "" {
		s.log.Warn("a presence notice that does not parse", "payload", payload, "err", err)
		return
	}
	if n.Node == s.opts.Node {
		return // applied when made
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch n.Op {
	case opPut:
		if r := n.row(); r.Check() == nil {
			if _, ok := s.nodes[n.Node]; !ok {
				s.nodes[n.Node] = s.opts.Now().Add(s.opts.TTL) // until its beat says more
			}
			s.setRow(r)
		}
	case opDrop:
		s.deleteRow(rowKey{n.Node, n.Conn})
	case opBeat:
		s.nodes[n.Node] = time.UnixMilli(n.At)
	case opGone:
		delete(s.nodes, n.Node)
		for k := range s.byNode[n.Node] {
			s.deleteRow(k)
		}
	}
}

// beat renews this node's liveness, announces it, and sweeps the dead
// nodes' rows from the store.
func (s *Service) beat(ctx context.Context) {
	now := s.opts.Now()
	exp := now.Add(s.opts.TTL)
	if err := s.st.BeatPresence(ctx, s.opts.Node, exp); err != nil {
		if ctx.Err() == nil {
			s.log.Warn("cannot renew the node's presence", "err", err)
		}
		return
	}
	s.publish(ctx, notice{Op: opBeat, Node: s.opts.Node, At: exp.UnixMilli()})
	s.dropAgain(ctx)
	if _, err := s.st.SweepPresence(ctx, now); err != nil && ctx.Err() == nil {
		s.log.Warn("cannot sweep the dead nodes' presence", "err", err)
	}
}

// dropAgain drops the rows the store could not drop when their
// connections closed.
func (s *Service) dropAgain(ctx context.Context) {
	s.mu.Lock()
	todo := maps.Clone(s.undropped)
	s.mu.Unlock()
	for conn, at := range todo {
		if err := s.st.DropPresence(ctx, s.opts.Node, conn, at); err != nil {
			return // the store is down still: the next beat
		}
		s.mu.Lock()
		delete(s.undropped, conn)
		s.mu.Unlock()
	}
}

// expireNodes drops the rows of the other nodes whose beat expired.
func (s *Service) expireNodes() {
	now := s.opts.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for node, exp := range s.nodes {
		if !exp.After(now) {
			delete(s.nodes, node)
		}
	}
	// The rows of a node no longer beating (or never heard beating).
	for node, keys := range s.byNode {
		if _, alive := s.nodes[node]; !alive && node != s.opts.Node {
			for k := range keys {
				s.deleteRow(k)
			}
		}
	}
}

// resync reads every row again; this node's own rows are its own.
func (s *Service) resync(ctx context.Context) error {
	now := s.opts.Now()
	rows, err := s.st.Presence(ctx, now)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("cannot read who is connected", "err", err)
		}
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fresh := map[rowKey]bool{}
	for _, r := range rows {
		if r.Node == s.opts.Node {
			continue
		}
		fresh[rowKey{r.Node, r.Conn}] = true
		if _, ok := s.nodes[r.Node]; !ok {
			// Alive at now, by the store: until a beat says more.
			s.nodes[r.Node] = now.Add(s.opts.TTL)
		}
		if old, ok := s.rows[rowKey{r.Node, r.Conn}]; !ok || old != r {
			s.setRow(r)
		}
	}
	for k := range s.rows {
		if k.node != s.opts.Node && !fresh[k] {
			s.deleteRow(k)
		}
	}
	return nil
}

// setRow stores r in the copy and tells what changed; s.mu is held.
func (s *Service) setRow(r store.PresenceRow) {
	k := rowKey{r.Node, r.Conn}
	old, had := s.rows[k]
	if had {
		s.unindex(old)
	}
	s.rows[k] = r
	s.byPerson.add(r.Person, k)
	s.byGame.add(r.Game, k)
	s.byNode.add(r.Node, k)
	if had && old.Person != r.Person {
		s.changed(old.Person)
	}
	s.changed(r.Person)
	if had && old.Game != r.Game {
		s.gameChanged(old.Game)
	}
	s.gameChanged(r.Game)
}

// deleteRow removes a row from the copy and tells what changed; s.mu is
// held.
func (s *Service) deleteRow(k rowKey) {
	r, ok := s.rows[k]
	if !ok {
		return
	}
	delete(s.rows, k)
	s.unindex(r)
	s.changed(r.Person)
	s.gameChanged(r.Game)
}

// unindex removes r from the indexes; s.mu is held.
func (s *Service) unindex(r store.PresenceRow) {
	k := rowKey{r.Node, r.Conn}
	s.byPerson.remove(r.Person, k)
	s.byGame.remove(r.Game, k)
	s.byNode.remove(r.Node, k)
}

// changed tells the feeds how the person now stands: online (at once),
// changed, or offline once Linger has passed without a connection.
func (s *Service) changed(key string) {
	if key == "" {
		return
	}
	st, online := s.status(key)
	switch {
	case online:
		if stop := s.linger[key]; stop != nil {
			stop()
			delete(s.linger, key)
		}
		kind := Changed
		if !s.shown[key] {
			kind = Online
			s.shown[key] = true
		}
		s.last[key] = st
		s.tell(Event{Kind: kind, Status: st})
	case s.shown[key] && s.linger[key] == nil:
		s.linger[key] = s.opts.AfterFunc(s.opts.Linger, func() { s.lingered(key) })
		s.tell(Event{Kind: Lingering, Status: Status{Person: Person{Key: key}}})
	}
}

// lingered ends a person's linger: offline, unless they came back.
func (s *Service) lingered(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.linger[key] == nil {
		return
	}
	delete(s.linger, key)
	if _, online := s.status(key); online || !s.shown[key] {
		return
	}
	delete(s.shown, key)
	delete(s.last, key)
	s.tell(Event{Kind: Offline, Status: Status{Person: Person{Key: key}}})
}

// status aggregates the person's rows; s.mu is held.
func (s *Service) status(key string) (Status, bool) {
	var (
		st    Status
		found bool
		away  = true
		game  time.Time // when the row that names st.Game was made
	)
	for k := range s.byPerson[key] {
		r := s.rows[k]
		if !found || r.Since.Before(st.Since) {
			st.Since = r.Since
		}
		if !found || r.Name != "" && st.Name == "" {
			st.Person = Person{Key: key, Account: r.Account, Name: r.Name}
		}
		found = true
		away = away && r.Away
		act := Lobby
		switch {
		case r.Seat >= 0:
			act = Playing
		case r.Game != "":
			act = Watching
		}
		if act > st.Activity || act == st.Activity && act != Lobby && r.Since.After(game) {
			st.Activity, st.Game, game = act, r.Game, r.Since
		}
	}
	st.Away = found && away
	return st, found
}

// gameChanged wakes the watchers of the game's seats; s.mu is held.
func (s *Service) gameChanged(game string) {
	if game != "" && s.opts.OnSeats != nil {
		go s.opts.OnSeats(game)
	}
	for c := range s.gameSubs[game] {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// Version grows each time anyone's presence changes: a reader that made
// something of People at one version may keep it while it stays.
func (s *Service) Version() int64 { return s.version.Load() }

// Online reports whether the person with the key is online (lingering
// included).
func (s *Service) Online(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shown[key]
}

// OnlineAccount reports whether the account's person is online on any
// node: what a Play-now request or a challenge needs to lapse when its
// person leaves.
func (s *Service) OnlineAccount(account string) bool { return s.Online(AccountKey(account)) }

// Lookup returns the person's status and whether they are online (while
// lingering, as they last were).
func (s *Service) Lookup(key string) (Status, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shown[key] {
		return Status{}, false
	}
	return s.last[key], true
}

// People returns everyone online with a name (those lingering as they
// last were), the signed-in first, then by name.
func (s *Service) People() []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Status
	for key := range s.shown {
		if st := s.last[key]; st.Name != "" {
			out = append(out, st)
		}
	}
	slices.SortFunc(out, func(a, b Status) int {
		if (a.Account == "") != (b.Account == "") {
			if a.Account != "" {
				return -1
			}
			return 1
		}
		return cmp.Or(strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), strings.Compare(a.Key, b.Key))
	})
	return out
}

// Count returns how many people are online, with a name or not (those
// lingering too).
func (s *Service) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.shown)
}

// Seats returns the presence of the people at the game's seats, on every
// node; a seat not in the map has nobody connected.
func (s *Service) Seats(game string) map[int]Seat {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[int]Seat{}
	for k := range s.byGame[game] {
		r := s.rows[k]
		if r.Seat < 0 {
			continue
		}
		st, ok := out[r.Seat]
		if !ok {
			st = Seat{Connected: true, Away: true}
		}
		st.Away = st.Away && r.Away
		out[r.Seat] = st
	}
	return out
}

// WatchGame returns a channel that receives (coalesced) whenever the
// presence at the game's seats may have changed, and the function that
// stops it.
func (s *Service) WatchGame(game string) (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gameSubs[game] == nil {
		s.gameSubs[game] = map[chan struct{}]struct{}{}
	}
	s.gameSubs[game][c] = struct{}{}
	return c, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.gameSubs[game], c)
		if len(s.gameSubs[game]) == 0 {
			delete(s.gameSubs, game)
		}
	}
}

// LastSeen returns when the accounts were last seen; those online now are
// seen now.
func (s *Service) LastSeen(ctx context.Context, accounts ...string) (map[string]time.Time, error) {
	seen, err := s.st.LastSeen(ctx, accounts...)
	if err != nil {
		return nil, err
	}
	now := s.opts.Now()
	for _, a := range accounts {
		if s.OnlineAccount(a) {
			seen[a] = now
		}
	}
	return seen, nil
}

// SeatsSeen returns when each seat's person was last seen at the game:
// now for those connected.
func (s *Service) SeatsSeen(ctx context.Context, game string) (map[int]time.Time, error) {
	seen, err := s.st.SeatsSeen(ctx, game)
	if err != nil {
		return nil, err
	}
	now := s.opts.Now()
	for seat := range s.Seats(game) {
		seen[seat] = now
	}
	return seen, nil
}
