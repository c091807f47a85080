// Package moderation is what a server's operators do about people who
// abuse it: any signed-in person reports another (chat abuse, stalling,
// cheating suspicion) at a game; operators read the open reports with the
// game and the chat lines concerned, and mute (no chat), suspend for a
// time or ban an account (no chat, no creating or joining a table; in
// running games a bot takes their seat), lift those sanctions, remove a
// chat line for everyone, or dismiss a report. Every action is logged
// with who acted and why, and shown to the person acted on, at once on
// their open pages.
//
// # Roles
//
// An operator is an account with the role: the first account made on a
// new server gets it (Created), and razzia admin grant and revoke give
// and take it on the server's database. The role is read from the store
// at every operator's request, so a revoked operator is refused at once,
// on every node.
//
// # Sanctions across nodes
//
// The sanctions in force are few, and every request that creates, joins
// or chats is checked against them, so each node keeps them in memory
// (Silenced, Barred, NameBarred answer without the store). An action
// publishes a notice on Channel; every node reads them again from the
// store when it hears one, or when notices may have been lost. A
// sanction's end is judged at each check by the Options.Now clock, so
// it needs no notice. A ban holds the name's key, not only the account:
// the account deleted, its name cannot come back as a guest or as a new
// account.
package moderation

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// Channel is the store channel on which a node tells the others that the
// sanctions changed.
const Channel = "razzia_moderation"

// The refusals of moderation, each declared once with its code.
var (
	ErrNotOperator     = protocol.NewRefusal(protocol.NotOperator, "not an operator")
	ErrUnknownPlayer   = protocol.NewRefusal(protocol.UnknownPlayer, "no account by that name")
	ErrBadReason       = protocol.NewRefusal(protocol.BadReason, "a reason is needed")
	ErrReportSelf      = protocol.NewRefusal(protocol.ReportSelf, "one cannot report oneself")
	ErrNotAtGame       = protocol.NewRefusal(protocol.NotAtGame, "the person was not at the game")
	ErrAlreadyReported = protocol.NewRefusal(protocol.AlreadyReported, "reported already")
	ErrTooManyReports  = protocol.NewRefusal(protocol.TooManyReports, "too many reports")
	ErrReportClosed    = protocol.NewRefusal(protocol.ReportClosed, "the report is closed")
	ErrOperatorTarget  = protocol.NewRefusal(protocol.OperatorTarget, "the person is an operator")
	ErrMuted           = protocol.NewRefusal(protocol.ChatMuted, "an operator took the chat away")
	ErrSuspended       = protocol.NewRefusal(protocol.Suspended, "the account is suspended")
	ErrBanned          = protocol.NewRefusal(protocol.Banned, "the account is banned")
	ErrBadRequest      = protocol.NewRefusal(protocol.BadRequest, "bad moderation request")
	ErrInternal        = protocol.NewRefusal(protocol.Internal, "the moderation failed")
)

// An Error is a request the Service refused; nothing changed.
type Error struct {
	Kind       *protocol.Refusal // one of the sentinels
	Msg        string            // for the person
	Err        error             // the cause, if any
	RetryAfter time.Duration
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the sentinel and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

func reject(kind *protocol.Refusal, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Store is what the Service asks of the store.
type Store interface {
	store.Moderation
	Account(ctx context.Context, id string) (*store.Account, error)
	AccountByKey(ctx context.Context, key string) (*store.Account, error)
	AccountGames(ctx context.Context, account string, limit int, statuses ...store.Status) ([]store.Summary, error)
	Game(ctx context.Context, id string) (*store.Game, error)
	Chat(ctx context.Context, id string) (store.Chat, error)
	Publish(ctx context.Context, channel, payload string) error
	Subscribe(ctx context.Context, channels ...string) (<-chan store.Notice, error)
}

// Tables is what the Service asks of the tables (a table.Hub): a
// sanctioned person's seat taken, a chat line removed, on whichever node
// runs the game.
type Tables interface {
	Expel(ctx context.Context, game, account string) error
	Strike(ctx context.Context, game string, seq int) error
}

// Options configure a Service; zero fields take the defaults.
type Options struct {
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Tell, when set, sends a JSON message to every page the account has
	// open, on every node (presence's live socket): how a person hears of
	// an action on them at once.
	Tell func(ctx context.Context, account string, message []byte) error
	// Sanctioned, when set, is called after a suspension or a ban with
	// the account: the features that hold its open requests (Play now,
	// challenges) end them.
	Sanctioned func(ctx context.Context, account string)
	// Reports is how many reports one person may file an hour; default
	// DefaultReports.
	Reports int
	// Log receives the service's log; default slog.Default().
	Log *slog.Logger
}

// DefaultReports is the default of Options.Reports.
const DefaultReports = 10

// Bounds of a sanction's length.
const (
	MaxHours = 365 * 24
)

// A Service moderates one server's people. Its methods are safe for
// concurrent use.
type Service struct {
	st     Store
	tables Tables
	opts   Options
	log    *slog.Logger

	reads atomic.Int64 // the reads of the sanctions begun

	mu      sync.RWMutex
	read    int64                     // the read the sanctions in memory come from
	inForce map[string][]store.Action // the sanctions in force, by the name key of their person
	byID    map[string]string         // the name key of each sanctioned account
}

// New returns the Service over st and tables; call Start before the
// checks are asked.
func New(st Store, tables Tables, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Reports <= 0 {
		opts.Reports = DefaultReports
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Service{st: st, tables: tables, opts: opts, log: opts.Log,
		inForce: map[string][]store.Action{}, byID: map[string]string{}}
}

// Start reads the sanctions in force and follows their changes from
// every node until stop is called, which waits for it to end.
func (s *Service) Start() (stop func(), err error) {
	ctx, cancel := context.WithCancel(context.Background())
	notices, err := s.st.Subscribe(ctx, Channel)
	if err == nil {
		err = s.reload(ctx)
	}
	if err != nil {
		cancel()
		return nil, fmt.Errorf("moderation: %w", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range notices {
			// A change or a notice missed: either way, read them again.
			rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			if err := s.reload(rctx); err != nil && ctx.Err() == nil {
				s.log.Warn("cannot read the sanctions again; they are read at the next change", "err", err)
			}
			cancel()
		}
	}()
	return func() { cancel(); <-done }, nil
}

// reload reads the sanctions in force. Of two reads at once, the one
// begun later is kept: it saw every change the other saw.
func (s *Service) reload(ctx context.Context) error {
	read := s.reads.Add(1)
	all, err := s.st.Sanctions(ctx, s.opts.Now())
	if err != nil {
		return fmt.Errorf("moderation: read the sanctions: %w", err)
	}
	inForce, byID := map[string][]store.Action{}, map[string]string{}
	for _, a := range all {
		inForce[a.TargetKey] = append(inForce[a.TargetKey], a)
		if a.Target != "" {
			byID[a.Target] = a.TargetKey
		}
	}
	s.mu.Lock()
	if read > s.read {
		s.read, s.inForce, s.byID = read, inForce, byID
	}
	s.mu.Unlock()
	return nil
}

// Version changes whenever the sanctions in memory are read again: what
// a cache made of Barred's answers holds while it is the same (or until a
// sanction's end passes).
func (s *Service) Version() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.read
}

// changed tells every node, this one at once, that the sanctions changed.
func (s *Service) changed(ctx context.Context) {
	if err := s.reload(ctx); err != nil {
		s.log.Error("cannot read the sanctions again", "err", err)
	}
	if err := s.st.Publish(ctx, Channel, "changed"); err != nil {
		s.log.Error("cannot tell the other nodes of a sanction", "err", err)
	}
}

// standingOf returns the standing of the person whose name key is key
// at now, from the sanctions in memory.
func (s *Service) standingOf(key string, now time.Time) protocol.Standing {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return StandingOf(s.inForce[key], now)
}

// keyOf returns the name key of a sanctioned account, "" for one without
// a sanction.
func (s *Service) keyOf(account string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byID[account]
}

// StandingOf returns the standing the sanctions of one person make at
// now (store.InForce's, in any order).
func StandingOf(sanctions []store.Action, now time.Time) protocol.Standing {
	var (
		st                  protocol.Standing
		muteEnd, suspendEnd time.Time
		forGood             bool // a mute until lifted
	)
	for _, a := range store.InForce(sanctions, now) {
		switch a.Kind {
		case store.ActBan:
			st.Banned = true
		case store.ActSuspend:
			st.Suspended = true
			suspendEnd = latest(suspendEnd, a.Until)
		case store.ActMute:
			st.Muted, forGood = true, forGood || a.Until.IsZero()
			muteEnd = latest(muteEnd, a.Until)
		}
	}
	if st.Suspended {
		st.SuspendedUntil = &suspendEnd
	}
	if st.Muted && !forGood {
		st.MutedUntil = &muteEnd
	}
	return st
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Silenced reports why the account may not chat now, or nil: muted,
// suspended or banned. It reads memory only (table.Options.Silenced).
func (s *Service) Silenced(account string) error {
	key := s.keyOf(account)
	if key == "" {
		return nil
	}
	st := s.standingOf(key, s.opts.Now())
	switch {
	case st.Banned:
		return reject(ErrMuted, "an operator banned your account: you cannot chat")
	case st.Suspended:
		return reject(ErrMuted, "an operator suspended your account until %s: you cannot chat until then", when(st.SuspendedUntil))
	case st.Muted && st.MutedUntil != nil:
		return reject(ErrMuted, "an operator muted you until %s", when(st.MutedUntil))
	case st.Muted:
		return reject(ErrMuted, "an operator muted you: you cannot chat until they lift it")
	}
	return nil
}

// Barred reports why the account may not create, join or ask for a
// table now, or nil: suspended or banned. It reads memory only.
func (s *Service) Barred(account string) error {
	key := s.keyOf(account)
	if key == "" {
		return nil
	}
	return barred(s.standingOf(key, s.opts.Now()))
}

// NameBarred reports why a guest may not play under name: the name of
// an account banned (deleted since, or not) or suspended, while it is.
// It reads memory only.
func (s *Service) NameBarred(name string) error {
	if name == "" {
		return nil
	}
	switch st := s.standingOf(playername.Key(name), s.opts.Now()); {
	case st.Banned:
		return reject(ErrBanned, "the name %s belongs to a banned account: choose another", name)
	case st.Suspended:
		return reject(ErrSuspended, "the name %s belongs to an account suspended until %s: choose another", name, when(st.SuspendedUntil))
	}
	return nil
}

func barred(st protocol.Standing) error {
	switch {
	case st.Banned:
		return reject(ErrBanned, "an operator banned your account: it cannot play here any more")
	case st.Suspended:
		return reject(ErrSuspended, "an operator suspended your account until %s: you cannot play until then", when(st.SuspendedUntil))
	}
	return nil
}

func when(t *time.Time) string {
	if t == nil {
		return "further notice"
	}
	return t.UTC().Format("2006-01-02 15:04 MST")
}

// Created makes the account an operator if it is the first of a new
// server (store.Moderation.FirstOperator): the account service's hook.
func (s *Service) Created(ctx context.Context, account string) {
	made, err := s.st.FirstOperator(ctx, account, s.opts.Now())
	switch {
	case err != nil:
		s.log.Error("cannot tell whether the first account is an operator", "account", account, "err", err)
	case made:
		s.log.Info("the first account is an operator", "account", account)
	}
}

// IsOperator reports whether the account is an operator, from the store.
func (s *Service) IsOperator(ctx context.Context, account string) (bool, error) {
	ok, err := s.st.Operator(ctx, account)
	if err != nil {
		return false, s.internal("read the operators", err)
	}
	return ok, nil
}

// operator returns the account with the id if it is an operator.
func (s *Service) operator(ctx context.Context, id string) (*store.Account, error) {
	ok, err := s.IsOperator(ctx, id)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, reject(ErrNotOperator, "only the server's operators may do this")
	}
	a, err := s.st.Account(ctx, id)
	if err != nil {
		return nil, s.internal("read the operator's account", err)
	}
	return a, nil
}

// person returns the account called name, or ErrUnknownPlayer.
func (s *Service) person(ctx context.Context, name string) (*store.Account, error) {
	if strings.TrimSpace(name) == "" {
		return nil, reject(ErrUnknownPlayer, "name the player")
	}
	a, err := s.st.AccountByKey(ctx, playername.Key(name))
	switch {
	case errors.Is(err, store.ErrNoAccount):
		return nil, reject(ErrUnknownPlayer, "there is no player called %s with an account here", name)
	case err != nil:
		return nil, s.internal("read an account", err)
	}
	return a, nil
}

// checkReason returns the reason trimmed, or why it is not one.
func checkReason(reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	switch n := utf8.RuneCountInString(reason); {
	case !utf8.ValidString(reason):
		return "", reject(ErrBadReason, "the reason is not UTF-8 text")
	case n == 0:
		return "", reject(ErrBadReason, "say why, in a few words")
	case n > protocol.MaxReasonRunes:
		return "", reject(ErrBadReason, "the reason is %d characters long: at most %d", n, protocol.MaxReasonRunes)
	}
	return reason, nil
}

func (s *Service) internal(what string, err error) *Error {
	s.log.Error(what+" failed", "err", err)
	return &Error{Kind: ErrInternal, Msg: "internal error: please try again", Err: fmt.Errorf("%s: %w", what, err)}
}

func newID() string { return strings.ToLower(rand.Text()[:16]) }
