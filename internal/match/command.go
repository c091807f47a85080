package match

import (
	"slices"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/store"
)

// A Kind names what a command asks.
type Kind string

// The kinds of command a player's request becomes. A node passes a
// command it does not run to the node that does, encoded as JSON: a kind
// that node does not know (another version) is refused as Unsupported.
const (
	Join         Kind = "join"     // Name, Account, Hash (the new token's), Seat (-1: the first open one)
	Play         Kind = "play"     // Hash, Move (a record token), Seq (-1: any)
	Remove       Kind = "remove"   // Hash (the creator's), Seat
	EnterPreMove Kind = "premove"  // Hash, Move ("" withdraws it)
	TakeBack     Kind = "takeback" // Hash
	Leave        Kind = "leave"    // Hash
	GiveUp       Kind = "giveup"   // Hash, Seat (the sender's own, freed before the start)
	Cancel       Kind = "cancel"   // Hash (the creator's)
	SetLevel     Kind = "level"    // Hash (the creator's), Seat (a bot's), Level
	// Continue tells that a person has read a round's scores: the new
	// round's first clock, held meanwhile, need not wait for them.
	Continue Kind = "continue" // Hash
	// The chat's commands, which the host's chat room decides.
	Chat Kind = "chat" // Hash, Account, Name, Phrase, Text
	Mute Kind = "mute" // Hash, Account, Seat, Mute
	// An operator's commands (moderation.go): the server checked the
	// role.
	Expel  Kind = "expel"  // Account (suspended or banned)
	Strike Kind = "strike" // Seat (the chat line's seq)
)

// A Command is a request to change a table, as plain data. A token never
// travels in it: only its hash.
type Command struct {
	// Kind is encoded as "op", the name nodes of earlier versions use.
	Kind Kind   `json:"op"`
	Game string `json:"game"`
	Hash []byte `json:"hash,omitempty"`
	Name string `json:"name,omitempty"`
	// Account is the signed-in account that sends the command, empty for
	// a guest.
	Account string `json:"account,omitempty"`
	Seat    int    `json:"seat"`
	Move    string `json:"move,omitempty"`
	Seq     int    `json:"seq"`
	Phrase  string `json:"phrase,omitempty"`
	Text    string `json:"text,omitempty"`
	Mute    bool   `json:"mute,omitempty"`
	Level   string `json:"level,omitempty"`
}

// A WriteKind names the store write a result needs.
type WriteKind int

// The writes, each made with the lease's fence.
const (
	NoWrite    WriteKind = iota
	TakeSeat             // Seat, Taken, Status
	FreeSeat             // Seat
	CloseTable           // Status
	AppendMove           // Index, Move, Status, Clock
	SetClock             // Index (the moves so far), Clock
	AddChat              // Line
	SetMute              // Mute, On
	SetBot               // Seat, Taken (a bot's seat)
	StrikeChat           // Index (the chat line removed)
)

var writeNames = [...]string{NoWrite: "nothing", TakeSeat: "take seat", FreeSeat: "free seat",
	CloseTable: "close table", AppendMove: "append move", SetClock: "store the clock",
	AddChat: "store a chat message", SetMute: "store a mute", SetBot: "set a bot seat's level",
	StrikeChat: "remove a chat message"}

func (k WriteKind) String() string {
	if int(k) < len(writeNames) {
		return writeNames[k]
	}
	return "WriteKind(?)"
}

// A Write is what a result stores before it applies.
type Write struct {
	Kind   WriteKind
	Seat   int
	Taken  store.Seat
	Status store.Status
	Index  int
	Move   string
	Clock  []byte
	Line   store.ChatLine
	Mute   store.Mute
	On     bool
	// Conflict is the refusal to give when the store says the table
	// changed meanwhile; nil for Failed's.
	Conflict *Refusal
	// Failed is the refusal to give when the write fails otherwise; nil
	// for an internal failure.
	Failed *Refusal
}

// A Result is a command the match decided to make: the write to commit,
// then, once it is committed, the change Apply makes and what the host
// does (the Effects).
type Result struct {
	Write Write
	// Seat is the seat a join took.
	Seat int
	// Then is the refusal to answer once the write is committed: a move
	// that came after the deadline stores the timeout, then is refused.
	Then *Refusal
	// Again asks the host to decide the same command again once this
	// result is applied: a seat is given back before its player's move.
	Again bool
	Effects
	next *change
}

// A change is what Apply changes.
type change struct {
	seats  []store.Seat
	status store.Status
	game   *razzia.Game    // the game that starts
	played *razzia.Checked // a move as checked, to play as it is
	timing *Timing
	stored []byte // timing encoded
	line   *store.ChatLine
	mute   *store.Mute
	on     bool
	struck *int // a chat line removed
}

// Effects are what the host does once a result is applied.
type Effects struct {
	Broadcast bool  // every watcher gets the new state
	Tell      []int // only these seats' watchers do (a pre-move is its owner's)
	StartGame bool  // the game started: build its bots
	StandIn   []int // a bot now plays for these seats
	Released  []int // these seats' players took them back from their bots
	Spectate  []int // these seats were freed: their watchers watch on as spectators
	Expiry    bool  // start the open table's expiry again
	Clock     bool  // set the timer of the clock's next alarm
	Bots      bool  // start the bot to move, if a bot is to move
	PreMove   bool  // play the due pre-move, if any (MoveDue)
	Finished  bool  // the game is over
	// Turn asks to tell the person to move that it is their turn, if the
	// game is still after Turn.Moves moves then.
	Turn     *Turn
	Reminder *Reminder
	// Said are chat lines every watcher is sent, as each may read them.
	Said []store.ChatLine
	// Muter's mutes changed: their watchers are told.
	Muter string
	// Struck are chat lines removed: every watcher is sent them again,
	// marked removed.
	Struck []int
	Notes  []Note // what happened, for the log
}

// A Turn is the alert of a turn after Moves moves, which Mover made
// (-1: none).
type Turn struct{ Moves, Mover int }

// A Reminder is the alert that half the seat's decision time passed,
// Left before its deadline.
type Reminder struct {
	Seat int
	Left time.Duration
}

// A Note is a line for the host's log: a message and its attributes.
type Note struct {
	Msg  string
	Args []any
}

func (e *Effects) note(msg string, args ...any) { e.Notes = append(e.Notes, Note{msg, args}) }

// Apply makes the change of a result whose write was committed, at now.
// A result with nothing to change does nothing.
func (m *Match) Apply(r Result, now time.Time) {
	c := r.next
	if c == nil {
		return
	}
	if c.seats != nil {
		m.Seats = c.seats
	}
	if c.status != "" {
		m.Status = c.status
	}
	if c.game != nil {
		m.Game = c.game
	}
	if c.played != nil {
		if err := m.Game.PlayChecked(*c.played); err != nil {
			panic("match: game " + m.ID + ": move " + c.played.Move.String() + " checked but not played: " + err.Error())
		}
	}
	if c.timing != nil {
		m.Timing, m.Stored = *c.timing, c.stored
	}
	switch {
	case c.struck != nil:
		m.Chat = slices.Clone(m.Chat)
		m.Chat[*c.struck].Removed = true
		return // a chat line is no change of the table
	case c.line != nil:
		m.room().Take(c.line.From, now)
		m.Chat = append(m.Chat, *c.line)
		return // a message is no change of the table
	case c.mute != nil && c.on:
		m.room().Mute(c.mute.Muter, c.mute.Muted)
		return
	case c.mute != nil:
		m.room().Unmute(c.mute.Muter, c.mute.Muted)
		return
	}
	m.Updated = now
}

// timed returns the result that stores t as the timing, at the current
// move.
func (m *Match) timed(t Timing, failed *Refusal) Result {
	stored := t.Encode()
	return Result{Write: Write{Kind: SetClock, Index: m.Moves(), Clock: stored, Failed: failed},
		next: &change{timing: &t, stored: stored}}
}

// unsupported is the refusal of a command of a kind this version does
// not know.
func unsupported(k Kind) *Refusal {
	// Asked by a node of a newer version while the servers are being
	// updated: the client waits for this node's update.
	r := refuse(ErrUnsupported, "this server runs another version and does not know the command %q: try again in a minute", k)
	r.RetryAfter = time.Minute
	return r
}
