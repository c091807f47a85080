package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Errors of the accounts part of the store (wrapped, for errors.Is).
var (
	// ErrNoAccount is an account, session, passkey or challenge that is
	// not there: never made, deleted, or (a session, a challenge) expired.
	ErrNoAccount = errors.New("no such account")
	// ErrNameTaken is a new account whose name has the key of another's.
	ErrNameTaken = errors.New("the account name is taken")
	// ErrRated is a result of a game whose result is stored already: a
	// game is rated once.
	ErrRated = errors.New("the game's result is stored already")
)

// An Account is a player who registered: a name unique by its key
// (playername.Key), a password and/or passkeys, and a rating.
type Account struct {
	ID   string // random, never shown to other players
	Name string // as the player spelled it
	Key  string // playername.Key(Name): unique among accounts
	// Password is the encoded argon2id hash of the password, "" when the
	// account signs in with passkeys only.
	Password string
	// Handle is the WebAuthn user handle: random, never the id or name.
	Handle []byte
	// SeatKey is the secret the tokens of the account's seats are derived
	// from, so that its seat opens on every device it signs in on.
	SeatKey []byte
	Created time.Time
	Rating  Rating // the rating after its last rated game
}

// A Rating is an account's Weng–Lin rating (see internal/rating) and the
// number of rated games that made it.
type Rating struct {
	Mu    float64
	Sigma float64
	Games int
}

// A Session is a signed-in browser or client: the hash of its secret id
// (the cookie), never the id itself.
type Session struct {
	Hash    []byte
	Account string
	Created time.Time
	Expires time.Time
}

// A Passkey is a WebAuthn credential of an account.
type Passkey struct {
	ID      []byte // the credential id
	Account string
	Name    string // the player's label for it
	// Credential is the library's credential (public key, sign count,
	// flags), encoded by the caller; the store keeps it as it is.
	Credential []byte
	Created    time.Time
	Used       time.Time // zero until the first sign-in with it
}

// A Challenge is the server's half of a WebAuthn ceremony under way:
// single-use (TakeChallenge removes it) and expiring.
type Challenge struct {
	Hash    []byte // of the secret that names the ceremony to its browser
	Account string // "" for a sign-in that has not named its account
	Data    []byte // the library's session data, encoded by the caller
	Expires time.Time
}

// A SeatResult is how one seat of a finished game ended.
type SeatResult struct {
	Seat    int
	Account string // "" for a guest, a bot or a deleted account
	Bot     string // the level of a bot seat
	Name    string
	Rank    int   // 1 for the winners, then in order of score; equal on a tie
	Score   int   // the final total
	Scores  []int // the final points by scoring category (razzia.Category order)
	Before  *Rating
	After   *Rating // the account's rating after the game; nil when not rated
}

// A Result is the end of a finished game with at least one account at it.
type Result struct {
	Game     string
	Players  int
	Rated    bool
	Finished time.Time
	Seats    []SeatResult // every seat, in seat order
}

// A Claim moves a guest's seat to an account: the seat whose token hash
// is OldHash gets the account and NewHash, the hash of the token derived
// from the account's SeatKey.
type Claim struct {
	Game    string
	OldHash []byte
	NewHash []byte
}

// Accounts is the storage of accounts, their sessions and passkeys, and
// of the results and ratings of finished games. Every Store implements
// it; storetest specifies it.
type Accounts interface {
	// CreateAccount stores a new account; ErrNameTaken when another has
	// its Key, ErrConflict when its ID or Handle exists. A zero Created
	// is set to now.
	CreateAccount(ctx context.Context, a *Account) error
	// Account returns the account with the id, AccountByKey the one whose
	// name has the key, AccountByHandle the one with the WebAuthn handle;
	// ErrNoAccount when there is none.
	Account(ctx context.Context, id string) (*Account, error)
	AccountByKey(ctx context.Context, key string) (*Account, error)
	AccountByHandle(ctx context.Context, handle []byte) (*Account, error)
	// SetPassword replaces the account's password hash ("" removes it).
	SetPassword(ctx context.Context, id, hash string) error
	// DeleteAccount removes the account, its sessions, passkeys and
	// challenges. Its seats and results stay, under the name
	// renamed(seat) and with no account. It returns the games whose
	// seats changed.
	DeleteAccount(ctx context.Context, id string, renamed func(seat int) string) ([]string, error)

	// CreateSession stores a session of an existing account.
	CreateSession(ctx context.Context, s Session) error
	// Session returns the session with the hash and its account, unless
	// it expired at now: ErrNoAccount (an expired one is deleted).
	Session(ctx context.Context, hash []byte, now time.Time) (Session, *Account, error)
	// DeleteSession ends one session (nil when it was not there);
	// DeleteSessions ends every session of the account but keep's (nil
	// keeps none).
	DeleteSession(ctx context.Context, hash []byte) error
	DeleteSessions(ctx context.Context, account string, keep []byte) error

	// AddPasskey stores a passkey of an existing account; ErrConflict if
	// its id is stored already.
	AddPasskey(ctx context.Context, p Passkey) error
	// Passkeys returns the account's passkeys, oldest first.
	Passkeys(ctx context.Context, account string) ([]Passkey, error)
	// UsePasskey stores the credential after a sign-in with it, and when.
	UsePasskey(ctx context.Context, id, credential []byte, used time.Time) error
	// DeletePasskey removes the account's passkey; ErrNoAccount when the
	// account has no passkey with the id.
	DeletePasskey(ctx context.Context, account string, id []byte) error

	// PutChallenge stores a ceremony's challenge; TakeChallenge returns
	// and removes it in one step, so it serves once: ErrNoAccount when it
	// is not there or expired at now.
	PutChallenge(ctx context.Context, c Challenge) error
	TakeChallenge(ctx context.Context, hash []byte, now time.Time) (Challenge, error)
	// Purge removes the sessions and challenges that expired before now.
	Purge(ctx context.Context, now time.Time) error

	// ClaimSeats gives the account the guest seats of the claims: a seat
	// whose token hash is OldHash and that has no account, in a game
	// where the account holds no seat yet. It returns the games claimed.
	ClaimSeats(ctx context.Context, account string, claims []Claim) ([]string, error)
	// AccountGames returns the games where the account holds a seat,
	// most recently updated first, at most limit (all when limit <= 0),
	// of the statuses (every status when none is given).
	AccountGames(ctx context.Context, account string, limit int, statuses ...Status) ([]Summary, error)

	// AddResult stores the result of a finished game and, in the same
	// transaction, the new rating of each seat with an After: its
	// account's rating must still be Before (else ErrConflict: rate
	// again from the new one). A game's result is stored once: a second
	// AddResult of it is ErrRated.
	AddResult(ctx context.Context, r Result) error
	// Results returns the results of the games the account played, most
	// recent first, at most limit (all when limit <= 0), every seat of
	// each.
	Results(ctx context.Context, account string, limit int) ([]Result, error)
	// Leaderboard returns the accounts with at least minGames rated games,
	// by conservative rating (Mu − 3 Sigma) from the highest, at most
	// limit.
	Leaderboard(ctx context.Context, minGames, limit int) ([]Account, error)
}

// CheckAccount reports what makes a new account unfit to store.
func CheckAccount(a *Account) error {
	switch {
	case a == nil:
		return errors.New("nil account")
	case a.ID == "":
		return errors.New("account with an empty id")
	case a.Name == "" || a.Key == "":
		return fmt.Errorf("account %q: empty name or key", a.ID)
	case len(a.Handle) == 0 || len(a.SeatKey) == 0:
		return fmt.Errorf("account %q: no WebAuthn handle or seat key", a.ID)
	case !(a.Rating.Sigma > 0):
		return fmt.Errorf("account %q: rating sigma %v, want > 0", a.ID, a.Rating.Sigma)
	}
	return nil
}

// CheckResult reports what makes a result unfit to store.
func CheckResult(r Result) error {
	if r.Game == "" || len(r.Seats) == 0 || r.Players != len(r.Seats) {
		return fmt.Errorf("result of game %q: %d players, %d seats", r.Game, r.Players, len(r.Seats))
	}
	accounts := map[string]bool{}
	for i, s := range r.Seats {
		switch {
		case s.Seat != i:
			return fmt.Errorf("result of game %q: seat %d in place %d", r.Game, s.Seat, i)
		case (s.After == nil) != (s.Before == nil) || s.After != nil && (s.Account == "" || !r.Rated):
			return fmt.Errorf("result of game %q seat %d: a rating change needs a rated game, an account, before and after", r.Game, i)
		case s.Account != "" && accounts[s.Account]:
			return fmt.Errorf("result of game %q: account %q holds two seats", r.Game, s.Account)
		}
		if s.Account != "" {
			accounts[s.Account] = true
		}
	}
	return nil
}

// Clone returns a deep copy of a.
func (a *Account) Clone() *Account {
	c := *a
	c.Handle = slices.Clone(a.Handle)
	c.SeatKey = slices.Clone(a.SeatKey)
	return &c
}
