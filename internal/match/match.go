// Package match holds the rules of one table as data and functions: its
// seats and who may take or free them, the game and its moves, the clocks,
// timeouts and take-overs by bots, pre-moves, leaving and coming back,
// and the creator's cancel.
//
// A Match decides a command at a time it is given and returns a Result
// (what to write, what changes, what the host must do then) or a
// *Refusal; nothing changes until the host, once the write is committed,
// applies the result. The match has no goroutine, store, lease, logger or
// clock of its own: the host (internal/table) runs those around it.
//
// Its files depend on each other one way (go run ./internal/tools/pkgmap
// ./internal/match counts them): decide.go (Decide, Closed) and the
// commands' files (new.go, level.go, chat.go, clock.go, hold.go,
// rematch.go, alert.go) over move.go (a move's decision), command.go
// (commands, results, Apply), room.go (the chat room), match.go (the
// Match and the checks the commands share), timing.go and refusal.go.
package match

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
)

// A Match is the state of one table: the host reads its fields and
// changes them only through Apply (or Load).
type Match struct {
	ID        string
	Status    store.Status
	Seats     []store.Seat
	Cheques   [][]int
	Seed      []byte
	Created   time.Time
	Updated   time.Time
	Game      *razzia.Game // nil while the table is open
	Creator   []byte       // the hash of the creator's token, or nil
	Rated     bool         // signed-in players only
	RematchOf string       // the finished game this one is the rematch of, or ""
	Timing    Timing
	// Stored is Timing as last read from or written to the store, so that
	// a replica tells a new clock by its bytes without encoding its own.
	Stored []byte
	// Room is the chat's rate limits and mutes, and Chat its messages as
	// stored: the host reads them from the store.
	Room *chat.Room
	Chat []store.ChatLine
}

// errNotLevel is wrapped by the error of a stored game whose bot seat
// names something other than a bot level: a damaged or tampered row, or
// one from a version that stored specs. Such a game is not run.
var errNotLevel = errors.New("not a bot level")

// Load returns the match of a stored game, replaying its moves.
func Load(g *store.Game) (*Match, error) {
	// The store is not trusted to name what plays: only a level builds a bot.
	for i, s := range g.Seats {
		if s.Bot != "" && !IsLevel(s.Bot) && s.Bot != tutorial.Bot {
			return nil, fmt.Errorf("game %s, seat %d: the stored bot %q is %w (the levels are %s); the game is not run",
				g.ID, i, s.Bot, errNotLevel, strings.Join(bot.LevelNames(), ", "))
		}
	}
	tm, err := DecodeTiming(g.Clock, len(g.Seats))
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	var game *razzia.Game
	if g.Status != store.StatusOpen {
		if game, err = Replay(g); err != nil {
			return nil, err
		}
	}
	return &Match{ID: g.ID, Status: g.Status, Seats: g.Seats, Cheques: g.Cheques, Seed: g.Seed,
		Created: g.Created, Updated: g.Updated, Game: game, Creator: g.CreatorHash, Rated: g.Rated,
		RematchOf: g.RematchOf, Timing: tm, Stored: g.Clock}, nil
}

// IsLevel reports whether s names a bot level.
func IsLevel(s string) bool {
	_, ok := bot.LookupLevel(s)
	return ok
}

// Replay rebuilds a started game from its stored form: its stored
// cheques, never dealt again from the seed, which an older server dealt
// another way.
func Replay(g *store.Game) (*razzia.Game, error) {
	game, err := razzia.NewGame(razzia.Setup{Players: PlayerNames(g.Seats), Cheques: g.Cheques, Seed: g.Seed})
	if err != nil {
		return nil, err
	}
	for i, tok := range g.Moves {
		if err := game.PlayToken(tok); err != nil {
			return nil, &razzia.RecordError{Move: i + 1, Token: tok, Err: err}
		}
	}
	return game, nil
}

// PlayerNames returns the seats' names, for the engine.
func PlayerNames(seats []store.Seat) []string {
	n := make([]string, len(seats))
	for i, s := range seats {
		n[i] = s.Name
	}
	return n
}

// SeatOf returns the seat whose token hashes to hash, or -1.
func SeatOf(seats []store.Seat, hash []byte) int {
	seat := -1
	for i, s := range seats {
		if SameHash(s.TokenHash, hash) {
			seat = i
		}
	}
	return seat
}

// SameHash reports whether a stored hash is there and is hash, in
// constant time.
func SameHash(stored, hash []byte) bool {
	return stored != nil && hash != nil && subtle.ConstantTimeCompare(stored, hash) == 1
}

// Moves returns the number of moves played; 0 before the start.
func (m *Match) Moves() int {
	if m.Game == nil {
		return 0
	}
	return m.Game.Len()
}

// PersonPlays reports whether a person makes the seat's decisions now: a
// person holds it and no bot stands in. Only their decisions are timed,
// and only they have pre-moves played.
func (m *Match) PersonPlays(seat int) bool {
	return seat >= 0 && seat < len(m.Seats) && m.Seats[seat].Bot == "" && !m.Timing.StandingIn(seat)
}

// BotsOnly reports whether no person holds a seat.
func BotsOnly(seats []store.Seat) bool {
	for _, s := range seats {
		if s.Bot == "" {
			return false
		}
	}
	return true
}

// creatorSeat reports why the creator's command about seat may not be
// made: someone else sent it, the game started, or there is no such seat.
func (m *Match) creatorSeat(creator []byte, seat int) *Refusal {
	switch {
	case !SameHash(m.Creator, creator):
		return NotCreatorRefusal()
	case m.Status != store.StatusOpen:
		return StartedRefusal("its seats are fixed")
	case seat < 0 || seat >= len(m.Seats):
		return refuse(ErrBadRequest, "there is no seat %d: the seats are 0 to %d", seat, len(m.Seats)-1)
	}
	return nil
}

// seatPlaying checks that seat is a seat of a game being played, for a
// command only a player may send.
func (m *Match) seatPlaying(seat int) *Refusal {
	switch {
	case seat < 0:
		return NoSeatRefusal()
	case m.Game == nil:
		return refuse(ErrNotStarted, "the game has not started: seats are still open")
	case m.Game.Over():
		return GameOverRefusal()
	}
	return nil
}

// playing reports whether the game is under way.
func (m *Match) playing() bool { return m.Game != nil && m.Status == store.StatusPlaying }
