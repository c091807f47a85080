// Package account gives players an identity that follows them: accounts
// with a unique name (playername), signed in with a password (argon2id)
// or a passkey (WebAuthn), sessions kept in the store, seats that belong
// to an account on every device, and ratings (Weng–Lin, internal/rating)
// from the results of rated games, with profiles and a leaderboard.
//
// Accounts are optional: a guest plays as before. The package knows
// nothing of HTTP; internal/httpapi serves it and cmd/razzia wires it to
// the table Hub (Service.Finished is the Hub's game-over hook).
//
// # Attacks
//
// A wrong password is answered after FailDelay, and sign-ins are limited
// per client address and per account (ErrRateLimited with the wait). The
// per-account limit never holds back an address that signed in to the
// account before, so a stranger's failures cannot lock its owner out;
// passkeys are never limited by it. A sign-in that fails says the same
// whether or not the name exists, and an unknown name costs the same
// hashing as a known one. Session ids and passkey challenges are random
// (130 bits), stored hashed, expire, and a challenge serves once.
package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/rating"
	"github.com/razziagame/razzia/internal/store"
)

// Sentinel errors: every error of a Service wraps one (in an *Error), each
// declared with the protocol code the HTTP layer answers.
var (
	ErrBadName      = protocol.NewRefusal(protocol.BadName, "bad account name")
	ErrNameTaken    = protocol.NewRefusal(protocol.NameTaken, "the name is taken")
	ErrWeakPassword = protocol.NewRefusal(protocol.WeakPassword, "weak password")
	// ErrSignIn is every failed sign-in with a password: a wrong password
	// and an unknown name look alike.
	ErrSignIn       = protocol.NewRefusal(protocol.SignInFailed, "wrong name or password")
	ErrUnauthorized = protocol.NewRefusal(protocol.Unauthorized, "not signed in")
	ErrRateLimited  = protocol.NewRefusal(protocol.RateLimited, "too many attempts")
	ErrPasskey      = protocol.NewRefusal(protocol.PasskeyFailed, "the passkey ceremony failed")
	ErrNotFound     = protocol.NewRefusal(protocol.NotFound, "not found")
	ErrBadRequest   = protocol.NewRefusal(protocol.BadRequest, "bad account request")
	ErrInternal     = protocol.NewRefusal(protocol.Internal, "the account service failed")
)

// An Error is a request the Service refused; nothing changed.
type Error struct {
	Kind       error  // one of the sentinels
	Msg        string // for the player
	Err        error  // the cause, if any
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

func reject(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Options configure a Service; zero fields take the defaults.
type Options struct {
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Sleep waits d or until ctx is done; default a timer. Tests
	// observe the delays instead of waiting them.
	Sleep func(ctx context.Context, d time.Duration)
	// Logger receives the log; default slog.Default().
	Logger *slog.Logger
	// Params are the argon2id parameters of new hashes; default OWASP.
	Params Params
	// Hashers bounds the password hashes computed at once (each takes
	// Params.Memory); default 2.
	Hashers int
	// SessionTTL is how long a session lasts; default 30 days.
	SessionTTL time.Duration
	// ChallengeTTL is how long a passkey ceremony may take; default 5
	// minutes.
	ChallengeTTL time.Duration
	// FailDelay is how long a wrong password waits for its answer;
	// default one second.
	FailDelay time.Duration
	// Limits on failed sign-ins (see the package doc); zero fields take
	// DefaultLimits.
	Limits Limits
	// Model is the rating model; default rating.Default().
	Model rating.Model
	// Bots are the fixed ratings of the bot levels; a level missing here
	// is rated as a new player and kept fixed too.
	Bots map[string]rating.Rating
	// RPName is the name passkeys show for this server; default "Razzia".
	RPName string
	// Origins are the fixed origins passkeys are bound to (such as
	// "https://razzia.example"); when empty, the origin of each request.
	Origins []string
	// NameBarred, when set, refuses a new account's name (a banned
	// account's, kept after its deletion): the refusal is returned as
	// it is, nothing stored.
	NameBarred func(name string) error
	// Created, when set, is called with each new account's id once it
	// is stored (the moderation's first operator).
	Created func(ctx context.Context, id string)
}

// A Service manages accounts in a store. It needs only the store's
// accounts (store.Accounts), so that it can be tested, and served, on
// anything that keeps them.
type Service struct {
	st     store.Accounts
	opts   Options
	log    *slog.Logger
	limits *limiter
	hash   chan struct{} // a token per hash computed at once
	dummy  string        // a hash to verify against when the name is unknown
}

// New returns the Service of the store's accounts.
func New(st store.Accounts, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sleep == nil {
		opts.Sleep = func(ctx context.Context, d time.Duration) {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
			}
		}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Params == (Params{}) {
		opts.Params = OWASP
	}
	if opts.Hashers <= 0 {
		opts.Hashers = 2
	}
	if opts.SessionTTL <= 0 {
		opts.SessionTTL = 30 * 24 * time.Hour
	}
	if opts.ChallengeTTL <= 0 {
		opts.ChallengeTTL = 5 * time.Minute
	}
	if opts.FailDelay <= 0 {
		opts.FailDelay = time.Second
	}
	if opts.Model == (rating.Model{}) {
		opts.Model = rating.Default()
	}
	if opts.RPName == "" {
		opts.RPName = "Razzia"
	}
	opts.Limits = opts.Limits.withDefaults()
	s := &Service{st: st, opts: opts, log: opts.Logger, limits: newLimiter(opts.Limits), hash: make(chan struct{}, opts.Hashers)}
	// The same work as a real verification, for unknown names.
	s.dummy = dummyHash(opts.Params)
	return s
}

// Options returns the options in force, defaults filled in.
func (s *Service) Options() Options { return s.opts }

// internal wraps a failure that is not the player's doing.
func (s *Service) internal(what string, err error) *Error {
	s.log.Error(what+" failed", "err", err)
	return &Error{Kind: ErrInternal, Msg: "internal error: please try again", Err: fmt.Errorf("%s: %w", what, err)}
}

// hashOf returns what the store keeps of a secret.
func hashOf(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return sum[:]
}

// CheckName reports why name cannot be an account's name (the rule of
// package playername), or nil.
func CheckName(name string) error {
	if err := playername.Check(name); err != nil {
		return &Error{Kind: ErrBadName, Msg: err.Error(), Err: err}
	}
	return nil
}

// An Account is a player's account as the Service's callers see it: who
// it is. What proves it (its password hash, passkey handle and seat key)
// stays inside the Service with the stored record, so only an Account
// the Service returned holds a seat (SeatToken). ID and Name are copies
// for reading: the Service works from the record.
type Account struct {
	ID   string
	Name string
	rec  *store.Account
}

// accountOf is the Account of a stored record: the one place a stored
// account becomes the callers'.
func accountOf(rec *store.Account) Account {
	return Account{ID: rec.ID, Name: rec.Name, rec: rec}
}

// newAccount returns an account called name, with new random id,
// WebAuthn handle and seat key, rated as a new player.
func (s *Service) newAccount(name string) *store.Account {
	return &store.Account{
		ID:      rand.Text(),
		Name:    name,
		Key:     playername.Key(name),
		Handle:  randomBytes(32),
		SeatKey: randomBytes(32),
		Created: s.opts.Now().UTC().Round(0),
		Rating:  store.Rating{Mu: s.opts.Model.Mu, Sigma: s.opts.Model.Sigma},
	}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return b
}

// create stores a new account, mapping a taken name.
func (s *Service) create(ctx context.Context, a *store.Account) error {
	if s.opts.NameBarred != nil {
		if err := s.opts.NameBarred(a.Name); err != nil {
			return err
		}
	}
	err := s.st.CreateAccount(ctx, a)
	switch {
	case errors.Is(err, store.ErrNameTaken):
		return reject(ErrNameTaken, "the name %s is taken: choose another", a.Name)
	case err != nil:
		return s.internal("create account", err)
	}
	s.log.Info("account created", "account", a.ID)
	if s.opts.Created != nil {
		s.opts.Created(ctx, a.ID)
	}
	return nil
}

// Register makes an account called name that signs in with password,
// and signs it in: it returns the account and its session's secret.
func (s *Service) Register(ctx context.Context, name, password string) (Account, string, error) {
	if err := CheckName(name); err != nil {
		return Account{}, "", err
	}
	if err := CheckPassword(password); err != nil {
		return Account{}, "", err
	}
	a := s.newAccount(name)
	hash, err := s.hashPassword(ctx, password)
	if err != nil {
		return Account{}, "", err
	}
	a.Password = hash
	if err := s.create(ctx, a); err != nil {
		return Account{}, "", err
	}
	token, err := s.newSession(ctx, a.ID)
	if err != nil {
		return Account{}, "", err
	}
	return accountOf(a), token, nil
}

// hashPassword hashes within the bound on hashes at once.
func (s *Service) hashPassword(ctx context.Context, password string) (string, error) {
	if err := s.acquire(ctx); err != nil {
		return "", err
	}
	defer s.release()
	h, err := hashPassword(password, s.opts.Params)
	if err != nil {
		return "", s.internal("hash password", err)
	}
	return h, nil
}

func (s *Service) acquire(ctx context.Context) error {
	select {
	case s.hash <- struct{}{}:
		return nil
	case <-ctx.Done():
		return &Error{Kind: ErrInternal, Msg: "the server is busy: please try again", Err: ctx.Err()}
	}
}

func (s *Service) release() { <-s.hash }

// verify reports whether password is the account's (a nil account or
// one without a password checks against a dummy hash and fails).
func (s *Service) verify(ctx context.Context, a *store.Account, password string) (bool, error) {
	if err := s.acquire(ctx); err != nil {
		return false, err
	}
	defer s.release()
	if a == nil || a.Password == "" {
		verifyPassword(password, s.dummy)
		return false, nil
	}
	ok, err := verifyPassword(password, a.Password)
	if err != nil {
		return false, s.internal("verify password of "+a.ID, err)
	}
	return ok, nil
}

// SignIn signs in the account called name with password from client (an
// address, for the limits), and returns it with the session's secret.
// Every failure of the name or password is the same ErrSignIn, after
// FailDelay; too many are ErrRateLimited.
func (s *Service) SignIn(ctx context.Context, name, password, client string) (Account, string, error) {
	key := playername.Key(name)
	now := s.opts.Now()
	attempt, err := s.limits.begin(key, client, now)
	if err != nil {
		return Account{}, "", err
	}
	var a *store.Account
	if name != "" && len(password) <= MaxPassword {
		a, err = s.st.AccountByKey(ctx, key)
		if err != nil && !errors.Is(err, store.ErrNoAccount) {
			attempt.cancel()
			return Account{}, "", s.internal("read account", err)
		}
	}
	ok, err := s.verify(ctx, a, password)
	if err != nil {
		attempt.cancel()
		return Account{}, "", err
	}
	if !ok {
		s.opts.Sleep(ctx, s.opts.FailDelay)
		return Account{}, "", reject(ErrSignIn, "wrong name or password")
	}
	attempt.succeeded(now)
	token, err := s.newSession(ctx, a.ID)
	if err != nil {
		return Account{}, "", err
	}
	s.log.Info("signed in", "account", a.ID, "with", "password")
	return accountOf(a), token, nil
}

// A Session is a signed-in request: its account and the hash of its
// secret.
type Session struct {
	Account Account
	Hash    []byte
	Expires time.Time
}

// newSession starts a session of the account and returns its secret.
func (s *Service) newSession(ctx context.Context, account string) (string, error) {
	token := rand.Text()
	now := s.opts.Now().UTC().Round(0)
	err := s.st.CreateSession(ctx, store.Session{Hash: hashOf(token), Account: account, Created: now, Expires: now.Add(s.opts.SessionTTL)})
	if err != nil {
		return "", s.internal("create session", err)
	}
	return token, nil
}

// Session returns the session whose secret is token: ErrUnauthorized for
// no token, an unknown one, or one that expired.
func (s *Service) Session(ctx context.Context, token string) (Session, error) {
	if token == "" || len(token) > 64 {
		return Session{}, reject(ErrUnauthorized, "sign in first")
	}
	hash := hashOf(token)
	se, a, err := s.st.Session(ctx, hash, s.opts.Now())
	switch {
	case errors.Is(err, store.ErrNoAccount):
		return Session{}, reject(ErrUnauthorized, "the session ended or expired: sign in again")
	case err != nil:
		return Session{}, s.internal("read session", err)
	}
	return Session{Account: accountOf(a), Hash: hash, Expires: se.Expires}, nil
}

// SignOut ends the session.
func (s *Service) SignOut(ctx context.Context, se Session) error {
	if err := s.st.DeleteSession(ctx, se.Hash); err != nil {
		return s.internal("delete session", err)
	}
	return nil
}

// SignOutEverywhere ends every session of the account, this one too.
func (s *Service) SignOutEverywhere(ctx context.Context, se Session) error {
	if err := s.st.DeleteSessions(ctx, se.Account.rec.ID, nil); err != nil {
		return s.internal("delete sessions", err)
	}
	s.log.Info("signed out everywhere", "account", se.Account.rec.ID)
	return nil
}

// ChangePassword sets the account's password to next after checking old
// (when it has one), and ends its other sessions. It returns the session
// as it is now: its account has a password.
func (s *Service) ChangePassword(ctx context.Context, se Session, client, old, next string) (Session, error) {
	if err := CheckPassword(next); err != nil {
		return se, err
	}
	a := se.Account.rec
	if a.Password != "" {
		attempt, err := s.limits.begin(a.Key, client, s.opts.Now())
		if err != nil {
			return se, err
		}
		ok, err := s.verify(ctx, a, old)
		if err != nil {
			attempt.cancel()
			return se, err
		}
		if !ok {
			s.opts.Sleep(ctx, s.opts.FailDelay)
			return se, reject(ErrSignIn, "the current password is wrong")
		}
		attempt.cancel()
	}
	hash, err := s.hashPassword(ctx, next)
	if err != nil {
		return se, err
	}
	if err := s.st.SetPassword(ctx, a.ID, hash); err != nil {
		return se, s.internal("set password", err)
	}
	if err := s.st.DeleteSessions(ctx, a.ID, se.Hash); err != nil {
		return se, s.internal("delete sessions", err)
	}
	s.log.Info("password changed", "account", a.ID)
	changed := *a
	changed.Password = hash
	se.Account = accountOf(&changed)
	return se, nil
}

// Delete removes the account, its sessions and passkeys; its games and
// results stay under the name playername.Former gives each seat. It
// returns the games whose seats changed.
func (s *Service) Delete(ctx context.Context, se Session) ([]string, error) {
	games, err := s.st.DeleteAccount(ctx, se.Account.rec.ID, playername.Former)
	if err != nil {
		return nil, s.internal("delete account", err)
	}
	s.log.Info("account deleted", "account", se.Account.rec.ID, "games", len(games))
	return games, nil
}

// Purge removes the sessions and challenges that expired.
func (s *Service) Purge(ctx context.Context) error {
	return s.st.Purge(ctx, s.opts.Now())
}
