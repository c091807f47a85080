// Package store keeps games durably: their tables (seats, cheques, the
// secret seed) and every accepted move. SQLite is the embedded default;
// every implementation passes the shared suite in package storetest.
package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Errors every implementation returns (wrapped, for errors.Is).
var (
	ErrNotFound = errors.New("no such game")
	ErrConflict = errors.New("the game changed meanwhile") // a move index or seat no longer free
	ErrCorrupt  = errors.New("the database is damaged")
)

// Status is where a game is in its life.
type Status string

// The statuses.
const (
	StatusOpen     Status = "open"     // waiting for people to take seats
	StatusPlaying  Status = "playing"  // every seat is filled
	StatusFinished Status = "finished" // the game is over
	StatusArchived Status = "archived" // an uploaded record, for viewing only
)

// A Seat is one place at a table.
type Seat struct {
	Name      string // display name; empty while the seat is open
	Bot       string // the bot level or spec playing it; empty for a person
	TokenHash []byte // SHA-256 of the seat's secret token; nil for an open seat or a bot
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
}

// A Summary describes a game in a list.
type Summary struct {
	ID      string
	Status  Status
	Seats   []Seat // TokenHash is not filled in
	Moves   int
	Created time.Time
	Updated time.Time
}

// Store is the durable storage of games. Every method is safe for
// concurrent use. A method that returns nil has committed its change.
type Store interface {
	// CreateGame stores a new game; its ID must be new, else ErrConflict.
	// A zero Created or Updated is set to the current time, in g too.
	CreateGame(ctx context.Context, g *Game) error
	// Game returns the game with every move, or ErrNotFound.
	Game(ctx context.Context, id string) (*Game, error)
	// TakeSeat fills an open seat with a person, or returns ErrConflict if
	// it is no longer open. status is the game's status afterwards. An
	// unknown game or a seat out of range is ErrNotFound.
	TakeSeat(ctx context.Context, id string, seat int, name string, tokenHash []byte, status Status) error
	// AppendMove stores move number index (0-based) of the game, which must
	// be the next one, else ErrConflict; status is the status afterwards.
	// A finished or archived game takes no more moves (ErrConflict).
	AppendMove(ctx context.Context, id string, index int, token string, status Status) error
	// List returns the games with the status, most recently updated first,
	// at most limit of them (all when limit <= 0).
	List(ctx context.Context, status Status, limit int) ([]Summary, error)
	// Close releases the store.
	Close() error
}

// Valid reports whether st is one of the statuses.
func (st Status) Valid() bool {
	switch st {
	case StatusOpen, StatusPlaying, StatusFinished, StatusArchived:
		return true
	}
	return false
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
	return &c
}
