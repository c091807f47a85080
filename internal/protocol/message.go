package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/razziagame/razzia"
)

// The types of WebSocket messages.
const (
	TypeState = "state" // server to client
	TypeError = "error" // server to client
	TypeMove  = "move"  // client to server
	// TypePreMove enters (or, with an empty move, withdraws) a pre-move:
	// "pass" or "bid N" for the running auction, played when the seat's
	// turn comes unless overtaken (PreMoveMessage).
	TypePreMove = "premove" // client to server
	// TypeTakeBack takes the seat back from the bot that plays for the
	// player since their time ran out.
	TypeTakeBack = "takeback" // client to server
	// TypeLeave hands the seat to a server bot until the player comes back.
	TypeLeave = "leave" // client to server
	// TypeContinue tells that the player has read a round's scores: the
	// next round's first clock, held meanwhile, need not wait for them.
	TypeContinue = "continue" // client to server
	// TypePing asks the server for a TypePong at once: a client learns
	// that its connection still carries messages. Pings do not keep an
	// idle connection open.
	TypePing = "ping" // client to server
	TypePong = "pong" // server to client
)

// A StateMessage is the server's "state" message: sent on connecting and
// after every change.
type StateMessage struct {
	Type   string   `json:"type"` // TypeState
	Game   GameInfo `json:"game"`
	Seat   int      `json:"seat"`   // the connection's seat, or -1 for a spectator
	View   *View    `json:"view"`   // nil while the game is open
	Events []Event  `json:"events"` // since the previous state message of the connection
	// Clock is the table's clocks; nil at an untimed table.
	Clock *ClockView `json:"clock,omitempty"`
	// TakeOvers is every time a bot took a person's seat, in order.
	TakeOvers []TakeOver `json:"takeOvers,omitempty"`
	// PreMove is the connection's own pre-entered choice for the running
	// auction (a record token), never anyone else's; empty when none.
	PreMove string `json:"preMove,omitempty"`
	// PreMoveDropped says why PreMove was not played when the seat's
	// turn came (a higher bid appeared): the seat is asked instead.
	PreMoveDropped string `json:"preMoveDropped,omitempty"`
	// Version (protocol version 2) numbers the state, which the next
	// patch names as its base; absent in version 1.
	Version int64 `json:"version,omitempty"`
}

// An ErrorMessage is the server's "error" message, sent only to the
// client whose message caused it: nothing changed.
type ErrorMessage struct {
	Type       string `json:"type"` // TypeError
	Code       Code   `json:"code"`
	Message    string `json:"message"`
	RetryAfter int    `json:"retryAfter,omitempty"` // rate_limited: whole seconds to wait before resending
}

// A Message is any message of the server, for a client to decode before
// it knows the type: the fields of StateMessage, ErrorMessage and
// ChatMessage together.
type Message struct {
	Type           string     `json:"type"`
	Game           GameInfo   `json:"game"`
	Seat           int        `json:"seat"`
	View           *View      `json:"view"`
	Events         []Event    `json:"events"`
	Clock          *ClockView `json:"clock"`
	TakeOvers      []TakeOver `json:"takeOvers"`
	PreMove        string     `json:"preMove"`
	PreMoveDropped string     `json:"preMoveDropped"`
	Version        int64      `json:"version"`
	Code           Code       `json:"code"`
	Message        string     `json:"message"`
	RetryAfter     int        `json:"retryAfter"`
	// Lines and Muted are a "chat" message's (ChatMessage).
	Lines []ChatLine `json:"lines"`
	Muted []int      `json:"muted"`
	// Offer is a "rematchOffer" message's.
	Offer *RematchOffer `json:"offer"`
}

// A MoveMessage is the client's "move": a record token (Move), or the same
// move typed (Action and its Cheque or Cards), or both when they agree.
// Seq, the view.moves the move was chosen on, is required, so that a move
// sent twice is never played twice.
type MoveMessage struct {
	Type   string   `json:"type"` // TypeMove
	Move   string   `json:"move,omitempty"`
	Action string   `json:"action,omitempty"`
	Cheque int      `json:"cheque,omitempty"`
	Cards  []string `json:"cards,omitempty"`
	Seq    *int     `json:"seq"`
}

// A PreMoveMessage is the client's "premove": Move is "pass", "bid N",
// or empty to withdraw the seat's pre-move. "takeback", "leave" and
// "continue" have the same form, with no move.
type PreMoveMessage struct {
	Type string `json:"type"` // TypePreMove, TypeTakeBack, TypeLeave or TypeContinue
	Move string `json:"move,omitempty"`
}

// NewMoveMessage returns the move message of a token chosen on the view
// after seq moves.
func NewMoveMessage(token string, seq int) MoveMessage {
	return MoveMessage{Type: TypeMove, Move: token, Seq: &seq}
}

// ErrNoSeq is the error of a move message without seq.
var ErrNoSeq = errors.New(`a move needs "seq", the view.moves it was chosen on`)

// Check reports what is wrong with the message's form (not with the move:
// the game judges that); the error's message is for the sender.
func (m *MoveMessage) Check() error {
	switch {
	case m.Type != TypeMove:
		return fmt.Errorf(`unknown message type %q: the messages are "move", "premove", "takeback", "leave", "continue", "rematch", "chat", "mute", "unmute", "away" and "resync"`, m.Type)
	case m.Move == "" && m.Action == "":
		return errors.New(`a move message needs "move", a record token such as "bid 9" (or "action" and its fields)`)
	case m.Seq == nil:
		return ErrNoSeq
	case *m.Seq < 0:
		return fmt.Errorf(`"seq" is the number of moves seen, not %d`, *m.Seq)
	}
	return nil
}

// Token returns the move's record token: Move, or the typed move spelled as
// a token. When both are given they must name the same move.
func (m *MoveMessage) Token() (string, error) {
	if m.Action == "" {
		if m.Cheque != 0 || m.Cards != nil {
			return "", errors.New(`"cheque" and "cards" belong to a typed move: give its "action"`)
		}
		return m.Move, nil
	}
	var tok string
	switch m.Action {
	case "draw", "call", "pass":
		tok = m.Action
	case "bid":
		tok = "bid " + strconv.Itoa(m.Cheque)
	case "thieves":
		tok = strings.Join(append([]string{"thief"}, m.Cards...), " ")
	default:
		return "", fmt.Errorf(`unknown action %q (want draw, thieves, call, bid or pass)`, m.Action)
	}
	if (m.Action != "bid" && m.Cheque != 0) || (m.Action != "thieves" && m.Cards != nil) {
		return "", fmt.Errorf(`the action %q takes no "cheque" or "cards" but its own`, m.Action)
	}
	if m.Move != "" {
		a, errA := razzia.ParseMove(m.Move)
		b, errB := razzia.ParseMove(tok)
		if errA != nil || errB != nil || a != b {
			return "", fmt.Errorf("the token %q and the typed move %q are not the same move", m.Move, tok)
		}
	}
	return tok, nil
}

// A BriefMessage is the part of a server message that a client needs to
// follow a game and move: a Message without the events and with a
// BriefView. Decoding it skips the rest, which costs several times what
// the server spends to encode it: a load generator, which reads thousands
// of states a second beside the server, decodes these. Its fields are
// Message's (a test checks it).
type BriefMessage struct {
	Type    string     `json:"type"`
	Game    GameInfo   `json:"game"`
	Seat    int        `json:"seat"`
	View    *BriefView `json:"view"`
	Version int64      `json:"version"`
	Code    Code       `json:"code"`
	Message string     `json:"message"`
}

// A BriefView is the part of a View that says whose turn it is and what
// the seat may play; its fields are View's (a test checks it). Auction,
// rare and small, says the phase in protocol version 2 (ExpandBrief).
type BriefView struct {
	Seat    int          `json:"seat"`
	Moves   int          `json:"moves"`
	Phase   string       `json:"phase"`
	ToMove  int          `json:"toMove"`
	Auction *AuctionView `json:"auction"`
	Legal   []string     `json:"legal"`
}

// View returns the brief view as a View with only its fields set.
func (b *BriefView) View() *View {
	if b == nil {
		return nil
	}
	return &View{Seat: b.Seat, Moves: b.Moves, Phase: b.Phase, ToMove: b.ToMove, Auction: b.Auction, Legal: b.Legal}
}
