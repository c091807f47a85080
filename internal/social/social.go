// Package social keeps what players know of each other beyond a table:
// whom each account follows and blocks, and each account's finish rate
// (how reliably they finish the games they start).
//
// Other features ask it through narrow methods: Blocked (either of two
// accounts blocks the other: no challenge between them, never paired),
// Blocks (one account blocks another: their chat hidden from it) and
// FinishRate. Presence (who is online) is package presence's.
package social

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Channel carries the id of an account whose follows or blocks changed,
// so that every node reads them again.
const Channel = "razzia_social"

// Limits of what an account keeps.
const (
	// MaxFollows is the most accounts one account may follow, and
	// MaxBlocks the most it may block.
	MaxFollows = 500
	MaxBlocks  = 500
	// rateTTL is how long a finish rate read is kept before it is read
	// again (a game's end on this node renews it at once).
	rateTTL = time.Minute
	// maxCached bounds the accounts whose blocks and rates are kept.
	maxCached = 20000
)

// The refusals of the service.
var (
	ErrSelf        = protocol.NewRefusal(protocol.SelfRelation, "one cannot follow or block oneself")
	ErrNoPlayer    = protocol.NewRefusal(protocol.NotFound, "no such player")
	ErrTooMany     = protocol.NewRefusal(protocol.TooManyRelations, "too many follows or blocks")
	ErrSignIn      = protocol.NewRefusal(protocol.Unauthorized, "following and blocking need an account")
	ErrUnavailable = protocol.NewRefusal(protocol.Internal, "the social service failed")
)

// An Error is a refused or failed request: its refusal (errors.Is) and a
// message for people.
type Error struct {
	Refusal *protocol.Refusal
	Msg     string
	Err     error // the cause of a failure, for the log
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the refusal and the cause.
func (e *Error) Unwrap() []error { return []error{e.Refusal, e.Err} }

func refuse(r *protocol.Refusal, format string, args ...any) *Error {
	return &Error{Refusal: r, Msg: fmt.Sprintf(format, args...)}
}

// Store is what the service needs of the store.
type Store interface {
	AccountByKey(ctx context.Context, key string) (*store.Account, error)
	Account(ctx context.Context, id string) (*store.Account, error)
	SetFollow(ctx context.Context, follower, followed string, on bool) error
	Following(ctx context.Context, account string) ([]string, error)
	Followers(ctx context.Context, account string) ([]string, error)
	SetBlock(ctx context.Context, blocker, blocked string, on bool) error
	Blocking(ctx context.Context, account string) ([]string, error)
	BlockedBy(ctx context.Context, account string) ([]string, error)
	AddFinishes(ctx context.Context, marks []store.Finish) error
	Finishes(ctx context.Context, account string, limit int) ([]store.Finish, error)
	Publish(ctx context.Context, channel, payload string) error
	Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error)
}

// Options configure a Service.
type Options struct {
	Now    func() time.Time // default time.Now
	Logger *slog.Logger
}

// A Service answers who follows and blocks whom and how reliable each
// account is, for every node: its caches are renewed from the notices of
// the others.
type Service struct {
	st   Store
	now  func() time.Time
	log  *slog.Logger
	mu   sync.Mutex
	blk  map[string][]string // whom each account blocks, sorted
	fol  map[string][]string // whom each account follows, sorted
	rate map[string]cachedRate
	card map[string]cachedCard
	subs map[chan string]struct{}

	cancel context.CancelFunc
	done   chan struct{}
}

type cachedRate struct {
	r  Rate
	at time.Time
}

// New returns the service on st; Start makes it hear the other nodes.
func New(st Store, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Service{st: st, now: opts.Now, log: opts.Logger.With("part", "social"),
		blk: map[string][]string{}, fol: map[string][]string{}, rate: map[string]cachedRate{}, card: map[string]cachedCard{}, subs: map[chan string]struct{}{}}
}

// Start listens to the other nodes' changes until Close.
func (s *Service) Start(ctx context.Context) error {
	ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	notices, err := s.st.Subscribe(ctx, Channel)
	if err != nil {
		s.cancel()
		return fmt.Errorf("social: %w", err)
	}
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		for n := range notices {
			if n.Missed {
				s.forget("")
				continue
			}
			s.forget(n.Payload)
		}
	}()
	return nil
}

// Close stops listening.
func (s *Service) Close() {
	if s.cancel != nil {
		s.cancel()
		<-s.done
	}
}

// forget drops what is cached of the account ("" : of everyone) and tells
// the watchers of its relations.
func (s *Service) forget(account string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if account == "" {
		clear(s.blk)
		clear(s.fol)
	} else {
		delete(s.blk, account)
		delete(s.fol, account)
	}
	for c := range s.subs {
		select {
		case c <- account:
		default:
		}
	}
}

// Watch returns a channel that receives the id of an account whose
// follows or blocks changed ("" when any may have), on any node, and the
// function that stops it.
func (s *Service) Watch() (<-chan string, func()) {
	c := make(chan string, 16)
	s.mu.Lock()
	s.subs[c] = struct{}{}
	s.mu.Unlock()
	return c, func() {
		s.mu.Lock()
		delete(s.subs, c)
		s.mu.Unlock()
	}
}

func (s *Service) internal(what string, err error) *Error {
	return &Error{Refusal: ErrUnavailable, Msg: "internal error: please try again", Err: fmt.Errorf("social: %s: %w", what, err)}
}

// A Player is an account as other players know it.
type Player struct {
	ID   string
	Name string
}

// ByName returns the player called name: ErrNoPlayer when there is none.
func (s *Service) ByName(ctx context.Context, name string) (Player, error) {
	a, err := s.byName(ctx, name)
	if err != nil {
		return Player{}, err
	}
	return Player{ID: a.ID, Name: a.Name}, nil
}

// byName returns the account called name: ErrNoPlayer when there is none.
func (s *Service) byName(ctx context.Context, name string) (*store.Account, error) {
	a, err := s.st.AccountByKey(ctx, playername.Key(name))
	switch {
	case errors.Is(err, store.ErrNoAccount):
		return nil, refuse(ErrNoPlayer, "there is no player %q", name)
	case err != nil:
		return nil, s.internal("read account", err)
	}
	return a, nil
}

// relation is follows or blocks.
type relation struct {
	what  string // "follow", "block"
	max   int
	set   func(ctx context.Context, from, to string, on bool) error
	list  func(ctx context.Context, account string) ([]string, error)
	cache func(s *Service) map[string][]string
}

func (s *Service) follows() relation {
	return relation{what: "follow", max: MaxFollows, set: s.st.SetFollow, list: s.st.Following,
		cache: func(s *Service) map[string][]string { return s.fol }}
}

func (s *Service) blocks() relation {
	return relation{what: "block", max: MaxBlocks, set: s.st.SetBlock, list: s.st.Blocking,
		cache: func(s *Service) map[string][]string { return s.blk }}
}

// change makes account follow or block (on) the player called name, or
// stop; it returns the other account's id.
func (s *Service) change(ctx context.Context, rel relation, account, name string, on bool) (string, error) {
	if account == "" {
		return "", refuse(ErrSignIn, "sign in to %s players", rel.what)
	}
	other, err := s.byName(ctx, name)
	if err != nil {
		return "", err
	}
	if other.ID == account {
		return "", refuse(ErrSelf, "you cannot %s yourself", rel.what)
	}
	if on {
		have, err := s.related(ctx, rel, account)
		if err != nil {
			return "", err
		}
		if !slices.Contains(have, other.ID) && len(have) >= rel.max {
			return "", refuse(ErrTooMany, "you %s %d players, the most one may: stop one first", rel.what, rel.max)
		}
	}
	if err := rel.set(ctx, account, other.ID, on); err != nil {
		if errors.Is(err, store.ErrNoAccount) {
			return "", refuse(ErrNoPlayer, "there is no player %q", name)
		}
		return "", s.internal(rel.what, err)
	}
	s.forget(account)
	if err := s.st.Publish(ctx, Channel, account); err != nil {
		s.log.Warn("cannot tell the other nodes of a follow or block", "err", err)
	}
	return other.ID, nil
}

// related returns whom account follows or blocks, cached.
func (s *Service) related(ctx context.Context, rel relation, account string) ([]string, error) {
	s.mu.Lock()
	ids, ok := rel.cache(s)[account]
	s.mu.Unlock()
	if ok {
		return ids, nil
	}
	ids, err := rel.list(ctx, account)
	if err != nil {
		return nil, s.internal("read "+rel.what+"s", err)
	}
	s.mu.Lock()
	c := rel.cache(s)
	if len(c) >= maxCached {
		clear(c)
	}
	c[account] = ids
	s.mu.Unlock()
	return ids, nil
}

// Follow makes the account follow the player called name (on), or stop.
func (s *Service) Follow(ctx context.Context, account, name string, on bool) error {
	_, err := s.change(ctx, s.follows(), account, name, on)
	return err
}

// Block makes the account block the player called name (on), or stop.
func (s *Service) Block(ctx context.Context, account, name string, on bool) error {
	_, err := s.change(ctx, s.blocks(), account, name, on)
	return err
}

// Following returns the ids of the accounts the account follows, sorted.
func (s *Service) Following(ctx context.Context, account string) ([]string, error) {
	if account == "" {
		return nil, nil
	}
	return s.related(ctx, s.follows(), account)
}

// Blocking returns the ids of the accounts the account blocks, sorted.
func (s *Service) Blocking(ctx context.Context, account string) ([]string, error) {
	if account == "" {
		return nil, nil
	}
	return s.related(ctx, s.blocks(), account)
}

// Blocks reports whether blocker blocks blocked (their chat is hidden
// from blocker). Guests ("") block nobody and are blocked by nobody.
func (s *Service) Blocks(ctx context.Context, blocker, blocked string) (bool, error) {
	if blocker == "" || blocked == "" {
		return false, nil
	}
	ids, err := s.Blocking(ctx, blocker)
	if err != nil {
		return false, err
	}
	_, found := slices.BinarySearch(ids, blocked)
	return found, nil
}

// Blocked reports whether either account blocks the other: no challenge
// passes between them and Play now never seats them together.
func (s *Service) Blocked(ctx context.Context, a, b string) (bool, error) {
	if x, err := s.Blocks(ctx, a, b); err != nil || x {
		return x, err
	}
	return s.Blocks(ctx, b, a)
}

// Followers returns the ids of the accounts that follow the account.
func (s *Service) Followers(ctx context.Context, account string) ([]string, error) {
	ids, err := s.st.Followers(ctx, account)
	if err != nil {
		return nil, s.internal("read followers", err)
	}
	return ids, nil
}
