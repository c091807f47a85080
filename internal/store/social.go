package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"
)

// Social is the storage of the people around the tables: who is
// connected to which node now (presence), when each account and each
// seat was last seen, whom an account follows and blocks, and how each
// account's games ended for it (the finish marks its finish rate is
// computed from). Every Store implements it; storetest specifies it.
//
// Presence is kept by the nodes: each writes a row per WebSocket
// connected to it (PutPresence) and removes it when the connection ends
// (DropPresence), and renews its own liveness (BeatPresence). A node that
// stops beating is dead: Presence leaves its rows out at once, and
// SweepPresence removes them. Presence times are the nodes' clocks, which
// must agree to well within the beat's time to live.
type Social interface {
	// PutPresence stores r, replacing the row of the same node and
	// connection.
	PutPresence(ctx context.Context, r PresenceRow) error
	// DropPresence removes the row of the node's connection and notes at
	// as when its account (if any) and its seat (if any) were last seen,
	// unless they were seen later. A row not there changes nothing.
	DropPresence(ctx context.Context, node string, conn int64, at time.Time) error
	// BeatPresence says that node is alive until expires.
	BeatPresence(ctx context.Context, node string, expires time.Time) error
	// Presence returns the rows of the nodes alive at now, by node and
	// connection.
	Presence(ctx context.Context, now time.Time) ([]PresenceRow, error)
	// DropNode removes every row of node and its beat, noting each row's
	// account and seat last seen at at: a node that stops cleanly, or
	// starts again under the same name, calls it. It returns the rows
	// removed.
	DropNode(ctx context.Context, node string, at time.Time) ([]PresenceRow, error)
	// SweepPresence drops the nodes whose beat expired at or before now,
	// each as DropNode would at its expiry, and returns the rows removed.
	SweepPresence(ctx context.Context, now time.Time) ([]PresenceRow, error)
	// LastSeen returns when each of the accounts was last seen
	// connected; an account never seen (or unknown) is left out.
	LastSeen(ctx context.Context, accounts ...string) (map[string]time.Time, error)
	// SeatsSeen returns when the person at each seat of the game was
	// last seen connected to it; seats never seen are left out.
	SeatsSeen(ctx context.Context, game string) (map[int]time.Time, error)

	// SetFollow makes follower follow followed (on) or stop (!on):
	// ErrNoAccount when either account is not there; following oneself
	// is refused. Following twice, or unfollowing someone not followed,
	// changes nothing.
	SetFollow(ctx context.Context, follower, followed string, on bool) error
	// Following returns the accounts that account follows, Followers
	// those that follow it, sorted.
	Following(ctx context.Context, account string) ([]string, error)
	Followers(ctx context.Context, account string) ([]string, error)
	// SetBlock makes blocker block blocked (on) or stop (!on), with
	// SetFollow's errors.
	SetBlock(ctx context.Context, blocker, blocked string, on bool) error
	// Blocking returns the accounts that account blocks, BlockedBy those
	// that block it, sorted.
	Blocking(ctx context.Context, account string) ([]string, error)
	BlockedBy(ctx context.Context, account string) ([]string, error)

	// AddFinishes stores how a game ended for each account at it: once
	// per account and game (a mark stored already is kept as it is, so
	// that a game's end recorded twice counts once). A mark of an account
	// not there is ErrNoAccount, and then none is stored.
	AddFinishes(ctx context.Context, marks []Finish) error
	// Finishes returns the account's marks, the latest first (then by
	// game), at most limit (all when limit <= 0).
	Finishes(ctx context.Context, account string, limit int) ([]Finish, error)
}

// A PresenceRow is one WebSocket connected to a node: whose it is and
// where it is.
type PresenceRow struct {
	Node string
	Conn int64 // the node's number for the connection, unique on the node
	// Person is who is connected: "a:" and the account's id for a
	// signed-in person, "g:" and a hash for a guest with a name; "" for a
	// connection that names nobody (a guest's seat at a table, known by
	// its seat only).
	Person  string
	Account string // the account's id; "" for a guest
	Name    string // as shown
	Game    string // the table the connection watches; "" for the lobby and other pages
	Seat    int    // the seat it holds at Game; -1 for none
	Away    bool   // the page is hidden
	Since   time.Time
}

// Finish is how one game ended for one account.
type Finish struct {
	Account string
	Game    string
	At      time.Time // when the game ended
	// Left is a game the person left or timed out of (a bot took their
	// seat); false is a game they finished.
	Left bool
}

// ErrSelf is a follow or block of oneself.
var ErrSelf = errors.New("an account cannot follow or block itself")

// MaxPresenceName bounds a presence row's name in bytes, a generous bound
// on playername's 20 characters.
const MaxPresenceName = 256

// Check reports what makes r unfit to store: no node, a negative
// connection, a seat without a table, a name too long or not UTF-8, an
// account that does not match the person.
func (r PresenceRow) Check() error {
	switch {
	case r.Node == "":
		return errors.New("presence row of no node")
	case r.Conn < 0:
		return fmt.Errorf("presence row of node %s: connection %d", r.Node, r.Conn)
	case r.Seat < -1 || r.Seat >= 0 && r.Game == "":
		return fmt.Errorf("presence row %s/%d: seat %d at game %q", r.Node, r.Conn, r.Seat, r.Game)
	case len(r.Name) > MaxPresenceName || !utf8.ValidString(r.Name):
		return fmt.Errorf("presence row %s/%d: a name of over %d bytes or not UTF-8", r.Node, r.Conn, MaxPresenceName)
	case r.Account != "" && r.Person != "a:"+r.Account:
		return fmt.Errorf("presence row %s/%d: account %q but person %q", r.Node, r.Conn, r.Account, r.Person)
	case r.Person == "" && r.Seat < 0:
		return fmt.Errorf("presence row %s/%d: neither a person nor a seat", r.Node, r.Conn)
	}
	return nil
}

// CheckRelation reports what makes a follow or block unfit before any
// store looks: an empty account, or oneself (ErrSelf).
func CheckRelation(from, to string) error {
	switch {
	case from == "" || to == "":
		return errors.New("a follow or block without both accounts")
	case from == to:
		return fmt.Errorf("account %q: %w", from, ErrSelf)
	}
	return nil
}

// CheckFinishes reports what makes marks unfit to store: a mark without
// an account, a game or a time, or two marks of one account and game.
func CheckFinishes(marks []Finish) error {
	seen := map[[2]string]bool{}
	for _, f := range marks {
		switch {
		case f.Account == "" || f.Game == "":
			return errors.New("a finish mark without an account or a game")
		case f.At.IsZero():
			return fmt.Errorf("finish mark of %q at game %q without a time", f.Account, f.Game)
		case seen[[2]string{f.Account, f.Game}]:
			return fmt.Errorf("two finish marks of %q at game %q", f.Account, f.Game)
		}
		seen[[2]string{f.Account, f.Game}] = true
	}
	return nil
}

// SortPresence sorts rows by node and connection, the order Presence
// and the others return them in.
func SortPresence(rows []PresenceRow) {
	slices.SortFunc(rows, func(a, b PresenceRow) int {
		if c := cmp.Compare(a.Node, b.Node); c != 0 {
			return c
		}
		return cmp.Compare(a.Conn, b.Conn)
	})
}
