// Package meet seats people who do not know each other's table yet: Play
// now, where a person states what they want and the server pairs
// compatible requests into tables (internal/pairing's rule), and
// challenges, where a signed-in person invites one or more others to a
// table of their settings. It keeps both in the store (store.Pairing),
// creates and seats the tables through the table Hub, and tells each
// person at once what became of theirs, on every node: through the
// pages' live socket (Options.Tell, presence's), and a challenged person
// is pushed a notification too (Options.Notify).
//
// # Several nodes
//
// Every node pairs: when one of its clients makes a request, and every
// Options.Tick for the requests that may get bots or lapse. Two nodes may
// pair the same requests at once; the store seats a request once and a
// person at one table (store.Pairing.PairSeeks is one atomic step), so
// the node that loses cancels the table it made, unseen. A challenge is
// answered once the same way. What a person is told travels through
// presence (Options.Tell) to the node their page is connected to.
//
// What presence knows (who is online, who blocks whom, a person's finish
// rate) comes in as functions of Options, so that this package does not
// depend on how presence keeps it.
package meet

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/table"
)

// Store is what the service asks of the store: the requests and
// challenges. A store.Store is one.
type Store interface {
	store.Pairing
}

// Hub is what the service asks of the table Hub: a table created, a
// person seated, a table nobody will sit at cancelled. A *table.Hub is
// one.
type Hub interface {
	Create(ctx context.Context, t table.TableSetup) (table.Table, error)
	Join(ctx context.Context, id string, seat int, p table.Person) (int, string, error)
	Cancel(ctx context.Context, id, creatorToken string) (protocol.GameInfo, error)
}

var _ Hub = (*table.Hub)(nil)

// Options configure a Service; zero fields take the defaults.
type Options struct {
	// MaxSeeks is the most open Play-now requests one person may have;
	// default 3. MaxChallenges the most open challenges one person may
	// have made; default 5.
	MaxSeeks, MaxChallenges int
	// Tick is how often the node pairs the requests, lapses those of
	// people gone offline and the challenges not answered in time;
	// default one second.
	Tick time.Duration
	// Kept is how long an ended request or challenge is listed to its
	// people (and then purged, after a day); default ten minutes.
	Kept time.Duration
	// MaxWait is the longest a request stays open, whether or not its
	// person is online; default an hour.
	MaxWait time.Duration
	// Reseat is how long an accepted challenge stays without its table
	// (its seating failed, or its node died) before a sweep seats it;
	// default ten seconds.
	Reseat time.Duration
	// Now is the clock of requests and challenges; default time.Now.
	Now    func() time.Time
	Logger *slog.Logger

	// Online reports whether a person (Person.Key) is online; a request
	// of a person offline lapses. Nil: everyone is.
	Online func(ctx context.Context, person string) (bool, error)
	// Blocked reports whether account blocker blocks account blocked:
	// neither may challenge the other, nor be paired with them. Nil:
	// nobody blocks anyone.
	Blocked func(ctx context.Context, blocker, blocked string) (bool, error)
	// Barred reports why an account may not play now (an operator
	// suspended or banned it), or nil: nobody may challenge it. Nil:
	// everyone may play.
	Barred func(account string) error
	// FinishRate returns an account's finish rate in percent; ok is false
	// while it has none. Nil: nobody has one.
	FinishRate func(ctx context.Context, account string) (rate int, ok bool, err error)
	// Account finds an account by its name, for a challenge: its id,
	// name as registered and rating as shown; and a guest may not make a
	// request under a name it finds. An unknown name is an error that
	// wraps store.ErrNoAccount.
	Account func(ctx context.Context, name string) (Person, error)
	// SeatToken returns the seat token of an account at a game, as the
	// account's seats are held everywhere it signs in (table.Options'
	// SeatToken). Required.
	SeatToken func(ctx context.Context, account, game string) (string, error)
	// Tell sends a message (a protocol.MeetMessage) to every live page of
	// a person (Person.Key) on every node, and TellLobbies to every lobby:
	// what becomes of one's requests and challenges, and the requests as
	// they change (presence.Service's Tell and TellLobbies). Nil: nobody
	// is told.
	Tell        func(ctx context.Context, person string, message []byte) error
	TellLobbies func(ctx context.Context, message []byte) error
	// Notify is told of a challenge to an account, to push it to its
	// browsers; it must return at once. Nil: no push.
	Notify func(account string, c protocol.ChallengeInfo)
	// BotLevel is the level of a bot filling a seat at a table of the
	// rating; default bot.DefaultLevel.
	BotLevel func(rated bool, rating int) string
}

func (o Options) withDefaults() Options {
	if o.MaxSeeks <= 0 {
		o.MaxSeeks = 3
	}
	if o.MaxChallenges <= 0 {
		o.MaxChallenges = 5
	}
	if o.Tick <= 0 {
		o.Tick = time.Second
	}
	if o.Kept <= 0 {
		o.Kept = 10 * time.Minute
	}
	if o.MaxWait <= 0 {
		o.MaxWait = time.Hour
	}
	if o.Reseat <= 0 {
		o.Reseat = 10 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.BotLevel == nil {
		o.BotLevel = func(bool, int) string { return bot.DefaultLevel }
	}
	return o
}

// A Person is who makes a request or a challenge.
type Person struct {
	// Key names the person across requests: "a:" and the account's id,
	// or "g:" and a guest's key.
	Key     string
	Account string // "" for a guest
	Name    string
	// Rating is the person's rating as shown; 0 for none (a guest).
	Rating int
}

// AccountPerson is the person of an account.
func AccountPerson(id, name string, rating int) Person {
	// A rating shown as 0 is a rating still: pairing reads 0 as none.
	return Person{Key: "a:" + id, Account: id, Name: name, Rating: max(1, rating)}
}

// GuestPerson is a guest, known by a key of their browser's.
func GuestPerson(key, name string) Person {
	return Person{Key: "g:" + key, Name: name}
}

// A Service seats people through Play now and challenges. Its methods
// are safe for concurrent use.
type Service struct {
	st   Store
	hub  Hub
	opts Options
	log  *slog.Logger

	pairing sync.Mutex // one pairing at a time on this node
}

// New returns the service of the store and the Hub. Run it.
func New(st Store, hub Hub, opts Options) *Service {
	opts = opts.withDefaults()
	if opts.SeatToken == nil {
		panic("meet: no SeatToken")
	}
	return &Service{st: st, hub: hub, opts: opts, log: opts.Logger}
}

// Refusals of the service: each is the Kind of an *Error.
var (
	ErrUnmet             = protocol.NewRefusal(protocol.UnmetSettings, "settings no table can meet")
	ErrSelf              = protocol.NewRefusal(protocol.ChallengeSelf, "a challenge to oneself")
	ErrBlocked           = protocol.NewRefusal(protocol.Blocked, "a person blocked")
	ErrUnavailable       = protocol.NewRefusal(protocol.PlayerUnavailable, "a person who cannot play now")
	ErrTooManySeeks      = protocol.NewRefusal(protocol.TooManySeeks, "too many open requests")
	ErrTooManyChallenges = protocol.NewRefusal(protocol.TooManyChallenges, "too many open challenges")
	ErrChallengeOver     = protocol.NewRefusal(protocol.ChallengeOver, "the challenge is over")
	ErrSeekGone          = protocol.NewRefusal(protocol.SeekGone, "the request is gone")
	ErrSeekUnfit         = protocol.NewRefusal(protocol.SeekUnfit, "the request does not accept the person")
	ErrNotFound          = protocol.NewRefusal(protocol.NotFound, "no such request or challenge")
	ErrAccountRequired   = protocol.NewRefusal(protocol.AccountRequired, "for signed-in people only")
	ErrBadName           = protocol.NewRefusal(protocol.BadName, "a guest's name unfit for a table")
	ErrNameTaken         = protocol.NewRefusal(protocol.NameTaken, "a guest's name an account has")
	ErrBadRequest        = protocol.NewRefusal(protocol.BadRequest, "a malformed request or answer")
	ErrInternal          = protocol.NewRefusal(protocol.Internal, "the pairing service failed")
)

// An Error is a request the Service refused or failed; nothing changed.
type Error struct {
	Kind error  // one of the sentinels
	Msg  string // for the person
	Err  error  // the cause, if any
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the sentinel and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

func reject(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// failed logs a failure of the store or the Hub and returns it as
// ErrInternal.
func (s *Service) failed(what string, err error) *Error {
	s.log.Error("meet: "+what, "err", err)
	return &Error{Kind: ErrInternal, Msg: "the server failed: please try again", Err: err}
}
