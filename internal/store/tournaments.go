package store

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"
)

// Tournaments keeps tournaments: each one's settings and state as its
// director encodes them, the people who joined, and the tables of its
// rounds with their results. Every change of a tournament is a
// compare-and-swap on its version, so that two nodes (a director and a
// node where someone joins) never overwrite each other, and a table is
// stored once: (tournament, round, table) and its game are unique.
//
// A tournament is run by one node at a time, its director, which holds
// its lease (the leases of games' rules: AcquireTournamentLease and the
// others, with the game field naming the tournament).
type Tournaments interface {
	// CreateTournament stores a new tournament, at version 1, with its
	// players and tables; an id that exists is ErrConflict. It sets
	// t.Version, and t.Created and t.Updated when zero.
	CreateTournament(ctx context.Context, t *Tournament) error
	// Tournament returns the tournament with its players (in the order
	// they joined) and tables (by round, then table), or ErrNotFound.
	Tournament(ctx context.Context, id string) (*Tournament, error)
	// UpdateTournament writes t's header (name, status, start, settings,
	// state) and the players and tables given, added or replaced, if the
	// stored version is still t.Version, and then sets t.Version to the
	// next and t.Updated. A stored version that moved on is ErrConflict,
	// an unknown tournament ErrNotFound, a table whose game another
	// table holds ErrConflict; any error changes nothing.
	UpdateTournament(ctx context.Context, t *Tournament, players []TournamentPlayer, tables []TournamentTable) error
	// ListTournaments returns the tournaments of the statuses given (all
	// when none), newest start first, at most limit (0: no bound); the
	// summaries carry no players or tables but their number of players.
	ListTournaments(ctx context.Context, statuses []TournamentStatus, limit int) ([]Tournament, error)
	// AccountTournaments returns the account's entries, newest
	// tournament first, at most limit (0: no bound).
	AccountTournaments(ctx context.Context, account string, limit int) ([]TournamentEntry, error)
	// TournamentOfGame returns the tournament that game is a table of,
	// or ErrNotFound.
	TournamentOfGame(ctx context.Context, game string) (string, error)

	// AcquireTournamentLease, RenewTournamentLease and
	// ReleaseTournamentLease are AcquireLease, RenewLease and
	// ReleaseLease of a tournament that is waiting or running (else
	// ErrConflict); the Lease's Game names the tournament. Expiry is by
	// the database's clock.
	AcquireTournamentLease(ctx context.Context, id, node string, ttl time.Duration) (Lease, error)
	RenewTournamentLease(ctx context.Context, l Lease, ttl time.Duration) (Lease, error)
	ReleaseTournamentLease(ctx context.Context, l Lease) error
	// UnownedTournaments returns waiting or running tournaments whose
	// lease is not live, at most limit (0: no bound).
	UnownedTournaments(ctx context.Context, limit int) ([]string, error)
}

// A LeaseStep turns a tournament's stored lease, at now by the store's
// clock, into the one to store, or refuses: the rule of a lease write, the
// same in every store, which only reads and writes the lease around it.
type LeaseStep func(cur Lease, now time.Time) (Lease, error)

// AcquireStep is AcquireTournamentLease's step: node holds the lease for
// ttl, unless another node's is live (ErrLeaseHeld).
func AcquireStep(node string, ttl time.Duration) LeaseStep {
	return func(cur Lease, now time.Time) (Lease, error) {
		next, _, err := cur.Acquire(node, now, ttl)
		return next, err
	}
}

// RenewStep is RenewTournamentLease's step: l, still held, lasts ttl more
// (else ErrLeaseLost).
func RenewStep(l Lease, ttl time.Duration) LeaseStep {
	return func(cur Lease, now time.Time) (Lease, error) {
		if err := cur.Holds(l, now); err != nil {
			return cur, err
		}
		cur.Expires = now.Add(ttl).Round(0)
		return cur, nil
	}
}

// ReleaseStep is ReleaseTournamentLease's step: l, still held, is given
// up (else ErrLeaseLost).
func ReleaseStep(l Lease) LeaseStep {
	return func(cur Lease, now time.Time) (Lease, error) {
		if err := cur.Holds(l, now); err != nil {
			return cur, err
		}
		return Lease{Game: l.Game, Fence: l.Fence}, nil
	}
}

// TournamentStatus is where a tournament is in its life.
type TournamentStatus string

// The statuses of a tournament.
const (
	TournamentWaiting   TournamentStatus = "waiting"   // people join; not started
	TournamentRunning   TournamentStatus = "running"   // started, paused between rounds or not
	TournamentFinished  TournamentStatus = "finished"  // over, its standings final
	TournamentCancelled TournamentStatus = "cancelled" // never played to the end
)

// Live reports whether a director runs a tournament of the status.
func (s TournamentStatus) Live() bool { return s == TournamentWaiting || s == TournamentRunning }

// A Tournament is a stored tournament.
type Tournament struct {
	ID        string
	Name      string
	Format    string
	Organiser string // the organiser's account id
	Status    TournamentStatus
	// Starts is when it starts by itself; zero when it starts on the
	// organiser's word.
	Starts time.Time
	// Private is the hash of a private tournament's password; nil for a
	// public one.
	Private []byte
	Seed    []byte // the secret source of its deals and seating
	// Settings and State are the director's, encoded (JSON).
	Settings []byte
	State    []byte
	Created  time.Time
	Updated  time.Time
	Version  int64
	Players  []TournamentPlayer
	Tables   []TournamentTable
	// People is the number of players in it: those whose Status is "in"
	// or "paused" (not withdrawn, not removed).
	People int
}

// A TournamentPlayer is a person who joined a tournament.
type TournamentPlayer struct {
	Account string
	Name    string
	Rating  int // when they joined, rounded
	Joined  time.Time
	Status  string // the director's: in, paused, withdrawn, removed
	// Rank and Points are the final ones, once the tournament is over (0
	// before, and for anyone not ranked).
	Rank   int
	Points int64
}

// A TournamentTable is a table of a tournament's round: the game it
// plays and, once it is over, its result.
type TournamentTable struct {
	Round int // from 1; an arena's tables are all of round 0
	Index int // from 1 within the round
	Game  string
	Deal  int
	// Seats are the account ids by seat, "" for a bot's seat.
	Seats []string
	// Created is when its game was created; zero until it is.
	Created time.Time
	// Result is the director's record of the finished game (JSON); nil
	// while it is played.
	Result   []byte
	Finished time.Time
}

// A TournamentEntry is one tournament of an account's list.
type TournamentEntry struct {
	Tournament string
	Name       string
	Format     string
	Status     TournamentStatus
	Starts     time.Time
	Updated    time.Time
	Rank       int
	Points     int64
	People     int
}

// Limits of what a tournament stores, checked by every store.
const (
	MaxTournamentName  = 200
	MaxTournamentBytes = 1 << 20 // settings and state, each
	MaxTournamentSeats = 5
)

// Check reports what makes t unfit to store.
func (t *Tournament) Check() error {
	switch {
	case t.ID == "" || len(t.ID) > 64:
		return fmt.Errorf("store: tournament id %q: want 1 to 64 bytes", t.ID)
	case !utf8.ValidString(t.Name) || len(t.Name) > MaxTournamentName:
		return fmt.Errorf("store: tournament %s: its name is not UTF-8 of at most %d bytes", t.ID, MaxTournamentName)
	case t.Organiser == "" || t.Format == "":
		return fmt.Errorf("store: tournament %s has no organiser or no format", t.ID)
	case len(t.Settings) > MaxTournamentBytes || len(t.State) > MaxTournamentBytes:
		return fmt.Errorf("store: tournament %s: settings or state over %d bytes", t.ID, MaxTournamentBytes)
	}
	switch t.Status {
	case TournamentWaiting, TournamentRunning, TournamentFinished, TournamentCancelled:
	default:
		return fmt.Errorf("store: tournament %s: unknown status %q", t.ID, t.Status)
	}
	return nil
}

// CheckTournamentRows reports what makes players or tables of
// tournament id unfit to store.
func CheckTournamentRows(id string, players []TournamentPlayer, tables []TournamentTable) error {
	for _, p := range players {
		if p.Account == "" || p.Name == "" || p.Status == "" {
			return fmt.Errorf("store: tournament %s: a player without account, name or status", id)
		}
	}
	for _, tb := range tables {
		if tb.Round < 0 || tb.Index < 1 || tb.Game == "" || len(tb.Seats) < 1 || len(tb.Seats) > MaxTournamentSeats {
			return fmt.Errorf("store: tournament %s: table %d of round %d is unfit (game %q, %d seats)", id, tb.Index, tb.Round, tb.Game, len(tb.Seats))
		}
	}
	return nil
}

// TournamentKinds are the tables of tournaments a copy carries.
var TournamentKinds = []*Kind{
	{Table: "tournaments", One: "tournament", Many: "tournaments", Key: 1, Columns: []Column{
		{"id", Text}, {"name", Text}, {"format", Text}, {"organiser", Text}, {"status", Text}, {"starts", Int},
		{"private", Blob}, {"seed", Blob}, {"settings", Blob}, {"state", Blob}, {"created", Int}, {"updated", Int},
		{"version", Int}, {"lease_node", Text}, {"lease_fence", Int}, {"lease_expires", Time},
	}, Nullable: nullable("starts", "private", "lease_node", "lease_expires")},
	{Table: "tournament_players", One: "tournament player", Many: "tournament players", Key: 2, Columns: []Column{
		{"tournament_id", Text}, {"account_id", Text}, {"name", Text}, {"rating", Int}, {"joined", Int},
		{"status", Text}, {"rank", Int}, {"points", Int},
	}},
	{Table: "tournament_tables", One: "tournament table", Many: "tournament tables", Key: 3, Columns: []Column{
		{"tournament_id", Text}, {"round", Int}, {"idx", Int}, {"game_id", Text}, {"deal", Int}, {"seats", Text},
		{"created", Int}, {"result", Blob}, {"finished", Int},
	}, Nullable: nullable("result", "finished")},
}

func init() { Kinds = append(Kinds, TournamentKinds...) }
