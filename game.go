package razzia

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Setup describes a new game. NewSetup makes the setup of a game dealt from a seed.
type Setup struct {
	// Players are the names in seating order, clockwise; 2 to 5.
	Players []string
	// Cheques are the cheque sets in seat order: nil for the rulebook sets
	// A, B, ... in seat order (as in a record), or a permutation of them,
	// such as NewSetup deals (R4).
	Cheques [][]int
	// Seed, when set, lets the game draw cards itself: a draw that names no
	// card reveals one chosen uniformly from the undrawn cards by ChaCha8
	// keyed with the seed and the number of cards drawn so far, so a seed and
	// the moves always give the same cards. A server keeps it secret: it is
	// the order of the deck.
	Seed []byte
}

// Game is the checked game API: it names players in its errors, resolves
// chance from its seed, and keeps the moves (its record) and an event log.
// The zero Game is not usable; create one with NewGame. A Game is not safe
// for concurrent use, not even for reading: the event log grows as it is read.
type Game struct {
	state   State
	players []string
	// names are the players' names every View shares, apart from
	// players, so that a view costs no copy and a caller that changes
	// one changes no name the game gives.
	names   []string
	cheques [][]int
	seed    []byte
	moves   []Move

	// The event log is built lazily, by replaying the moves from the
	// start, so callers that never read it (tournaments) pay nothing.
	marks    []int // marks[i] is the number of events before move i's; one per logged move
	logState State // the state after the logged moves
	events   []Event
}

// MaxNameLen is the longest player name a game accepts, in bytes.
const MaxNameLen = 64

// NewGame starts a game.
func NewGame(setup Setup) (*Game, error) {
	n := len(setup.Players)
	if n < MinPlayers || n > MaxPlayers {
		return nil, fmt.Errorf("%w: %s; Razzia is for %d to %d players", ErrSetup, playerCount(n), MinPlayers, MaxPlayers)
	}
	for i, name := range setup.Players {
		if err := CheckName(name); err != nil {
			return nil, fmt.Errorf("%w: player %d: %v", ErrSetup, i+1, err)
		}
	}
	s, err := NewState(n, setup.Cheques)
	if err != nil {
		return nil, err
	}
	g := &Game{
		state:    s,
		logState: s,
		players:  append([]string(nil), setup.Players...),
		names:    append([]string(nil), setup.Players...),
		seed:     append([]byte(nil), setup.Seed...),
	}
	for _, set := range setup.Cheques {
		g.cheques = append(g.cheques, append([]int(nil), set...))
	}
	return g, nil
}

// CheckName reports why a player name cannot be shown, if it cannot: it is
// empty, longer than MaxNameLen bytes, or holds control or invalid characters.
func CheckName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("the name is empty")
	case len(name) > MaxNameLen:
		return fmt.Errorf("the name is longer than %d bytes", MaxNameLen)
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0xfffd {
			return fmt.Errorf("the name %q has a control or invalid character", name)
		}
	}
	return nil
}

// Players returns the names in seating order.
func (g *Game) Players() []string { return append([]string(nil), g.players...) }

// State returns a copy of the game's state.
func (g *Game) State() State { return g.state }

// Moves returns the moves played so far, every draw naming its card.
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// Len returns the number of moves played so far, the length of the record.
func (g *Game) Len() int { return len(g.moves) }

// ToMove returns the seat that makes the next decision, or -1 once the game is over.
func (g *Game) ToMove() int { return g.state.ToMove() }

// Over reports whether the game is over.
func (g *Game) Over() bool { return g.state.Over() }

// Winners returns the seats with the highest total once the game is over,
// several on a tie (R18), and nil before.
func (g *Game) Winners() []int { return g.state.Winners() }

// Events returns what has happened so far, in order.
func (g *Game) Events() []Event { return g.EventsSince(0) }

// EventsSince returns what the moves from the n-th on caused, in order
// (n counts from 0, like the moves): EventsSince(0) is every event,
// EventsSince(g.Len()-1) what the last move did. n below 0 counts as 0, and
// from n = Len() on there are none. Only the events returned are copied, so
// a caller that follows a game move by move pays once for each event.
func (g *Game) EventsSince(n int) []Event {
	for len(g.marks) < len(g.moves) {
		before := g.logState
		m := g.moves[len(g.marks)]
		g.marks = append(g.marks, len(g.events))
		g.logState.Apply(m)
		g.events = appendEvents(g.events, &before, m, &g.logState)
	}
	if n >= len(g.moves) {
		return nil
	}
	return append([]Event(nil), g.events[g.marks[max(n, 0)]:]...)
}

// LegalMoves returns the moves the player to move may make (see State.LegalMoves).
func (g *Game) LegalMoves() []Move { return g.state.LegalMoves(make([]Move, 0, 8)) }

// A View is what one seat may see: everything on the table and the
// composition of the undrawn cards, but never their order (the seed).
// Razzia has no other secrets: cheques face down were won in the open.
type View struct {
	Seat int // the seat it is for; -1 for a spectator
	// Players are the names in seating order, shared by every view of
	// the game: read them, do not change them.
	Players []string
	Moves   int    // moves played so far
	State   State  // the public state
	Legal   []Move // the seat's legal moves when it is to move, else nil
}

// View returns what the seat may see; seat -1 is a spectator.
func (g *Game) View(seat int) View {
	v := View{Seat: seat, Players: g.names[:len(g.names):len(g.names)], Moves: g.Len(), State: g.state}
	if seat >= 0 && seat == g.state.ToMove() {
		v.Legal = g.LegalMoves()
	}
	return v
}

// Play checks m and plays it for the player to move. A draw that names no
// card is resolved from the game's seed. An illegal move returns a
// *MoveError and changes nothing.
func (g *Game) Play(m Move) error {
	m, err := g.Check(m)
	if err != nil {
		return err
	}
	g.state.Apply(m)
	g.moves = append(g.moves, m)
	return nil
}

// Check tells whether Play would accept m, without playing it: it returns
// the move as Play would play it, a draw that names no card naming the card
// the seed draws, or the *MoveError Play would return. The card depends only
// on the seed and the cards drawn so far, so a server can store the move
// Check returns and then play it, knowing that Play gives the same.
func (g *Game) Check(m Move) (Move, error) {
	if m.Action == ActionDraw && m.Card == NoKind && g.state.phase == PhaseTurn && g.state.deckLeft > 0 {
		if len(g.seed) == 0 {
			return Move{}, g.named(&MoveError{Move: m, Seat: g.state.ToMove(), Err: ErrNoChance,
				detail: "the card must be named: this game has no seed to draw with"})
		}
		m.Card = g.chance()
	}
	if err := g.state.check(m); err != nil {
		return Move{}, g.named(err)
	}
	return m, nil
}

// A Checked is a move Check accepted at one position of one game, with
// the state it leads to: a server stores the move, then plays it with
// PlayChecked, checked and applied once.
type Checked struct {
	Move  Move  // the move as Check returns it: a draw names its card
	After State // the state after the move
	game  *Game
	at    int // the number of moves before it
}

// CheckMove is Check returning a Checked: the move and the state after it.
func (g *Game) CheckMove(m Move) (Checked, error) {
	m, err := g.Check(m)
	if err != nil {
		return Checked{}, err
	}
	after := g.state
	after.Apply(m)
	return Checked{Move: m, After: after, game: g, at: len(g.moves)}, nil
}

// ErrNotChecked is PlayChecked's error for a Checked of another game, or
// of another position of the game.
var ErrNotChecked = errors.New("the move was not checked at this position")

// PlayChecked plays c, which CheckMove returned at the current position
// of g, without checking or applying it again. A Checked of another game
// or position is ErrNotChecked and changes nothing.
func (g *Game) PlayChecked(c Checked) error {
	if c.game != g || c.at != len(g.moves) {
		return ErrNotChecked
	}
	g.state = c.After
	g.moves = append(g.moves, c.Move)
	return nil
}

// PlayToken parses a record token and plays it.
func (g *Game) PlayToken(token string) error {
	m, err := ParseMove(token)
	if err != nil {
		return err
	}
	return g.Play(m)
}

func (g *Game) named(err *MoveError) error {
	if err.Seat >= 0 {
		err.Player = g.players[err.Seat]
	}
	return err
}

// chance picks the next card from the seed and the number of cards drawn.
func (g *Game) chance() Kind {
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(DeckSize-g.state.deckLeft))
	// The hash's input on the stack, for a seed of up to 100 bytes: a
	// server draws at every other move.
	in := append(append(append(make([]byte, 0, 120), "razzia draw\x00"...), g.seed...), buf[:]...)
	key := sha256.Sum256(in)
	return g.state.RandomCard(rand.New(rand.NewChaCha8(key)))
}

// Record returns the game's record.
func (g *Game) Record() *Record {
	r := &Record{Format: RecordFormat, Players: g.Players(), Moves: make([]string, len(g.moves))}
	for _, set := range g.cheques {
		r.Cheques = append(r.Cheques, append([]int(nil), set...))
	}
	for i, m := range g.moves {
		r.Moves[i] = m.String()
	}
	return r
}
