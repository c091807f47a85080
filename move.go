package razzia

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// An Action is what a move does: one of the three actions of a turn (R7-R9)
// or one of the two choices in an auction (R10).
type Action uint8

// The actions. The zero Action is not a move.
const (
	ActionNone    Action = iota
	ActionDraw           // A: reveal a card
	ActionThieves        // B: use thieves to take row cards
	ActionCall           // C: call a forced auction
	ActionBid            // bid a face-up cheque
	ActionPass           // pass in an auction
)

var actionTokens = [...]string{"", "draw", "thief", "call", "bid", "pass"}

// String returns the action's record word, such as "thief".
func (a Action) String() string {
	if int(a) < len(actionTokens) && a != ActionNone {
		return actionTokens[a]
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}

// MaxTake is the most row cards one thief move can take: the row holds at
// most six loot cards at the start of a turn.
const MaxTake = 6

// A Move is one record token: a decision of the player to move, or, for a
// draw, the decision together with the card revealed. Moves are small values
// and comparable with ==; the zero Move is not a move.
//
// A draw whose Card is NoKind is the decision to draw before chance has
// revealed the card: LegalMoves offers it, and a Game resolves it from its
// seeded source. Every move in a record names its card.
type Move struct {
	Action Action
	Card   Kind          // ActionDraw: the card revealed
	Cheque uint8         // ActionBid: the cheque's value in thousands
	Take   [MaxTake]Kind // ActionThieves: the row cards taken, in Kind order, NoKind after the last
}

// Draw returns the move that reveals a card of kind k (NoKind: not yet revealed).
func Draw(k Kind) Move { return Move{Action: ActionDraw, Card: k} }

// Call returns the move that calls a forced auction.
func Call() Move { return Move{Action: ActionCall} }

// Bid returns the move that bids the cheque worth v thousand.
func Bid(v int) Move {
	if v < 0 || v > 255 {
		v = 0
	}
	return Move{Action: ActionBid, Cheque: uint8(v)}
}

// Pass returns the move that passes in an auction.
func Pass() Move { return Move{Action: ActionPass} }

// Thieves returns the move that uses one thief per kind listed to take a
// card of that kind from the row. More than MaxTake kinds cannot be taken,
// and such a move is never legal.
func Thieves(kinds ...Kind) Move {
	m := Move{Action: ActionThieves}
	if len(kinds) > MaxTake {
		m.Take[0] = Kind(numKinds) // not a card: the move is rejected as illegal
		return m
	}
	copy(m.Take[:], kinds)
	slices.Sort(m.Take[:len(kinds)])
	return m
}

// canonical returns m with only the fields its action uses, as ParseMove
// would build it.
func (m Move) canonical() Move {
	switch m.Action {
	case ActionDraw:
		return Draw(m.Card)
	case ActionThieves:
		return Thieves(m.Take[:m.Taken()]...)
	case ActionBid:
		return Move{Action: ActionBid, Cheque: m.Cheque}
	}
	return Move{Action: m.Action}
}

// Taken returns how many row cards a thief move takes, which is also the
// number of thieves it uses.
func (m Move) Taken() int {
	n := 0
	for n < MaxTake && m.Take[n] != NoKind {
		n++
	}
	return n
}

// String returns the move's record token, such as "bid 9" or "thief car driver".
func (m Move) String() string {
	switch m.Action {
	case ActionDraw:
		if m.Card == NoKind {
			return "draw"
		}
		return "draw " + m.Card.String()
	case ActionThieves:
		var b strings.Builder
		b.WriteString("thief")
		for _, k := range m.Take[:m.Taken()] {
			b.WriteByte(' ')
			b.WriteString(k.String())
		}
		return b.String()
	case ActionBid:
		if c := int(m.Cheque); c >= 1 && c <= MaxCheque {
			return bidTokens[c]
		}
		return "bid " + strconv.Itoa(int(m.Cheque))
	case ActionCall, ActionPass:
		return m.Action.String()
	}
	return "Move(" + m.Action.String() + ")"
}

// bidTokens are the bids' tokens by cheque, made once: a server names
// every legal bid at every change.
var bidTokens = func() (t [MaxCheque + 1]string) {
	for c := 1; c <= MaxCheque; c++ {
		t[c] = "bid " + strconv.Itoa(c)
	}
	return t
}()

// phrase describes m as the verb of a sentence: "use thieves on car and ring".
func (m Move) phrase() string {
	if m.Action != ActionThieves || m.Taken() == 0 {
		return m.String()
	}
	names := make([]string, m.Taken())
	for i, k := range m.Take[:len(names)] {
		names[i] = k.Name()
	}
	if len(names) == 1 {
		return "use a thief on " + names[0]
	}
	return "use thieves on " + joinAnd(names)
}

// ParseMove parses a record token. It accepts any case and runs of spaces;
// "draw" without a card stands for a draw to be resolved by chance.
func ParseMove(token string) (Move, error) {
	// The fields on the stack: a server parses every move it is sent.
	fields := make([]string, 0, MaxTake+2)
	for f := range strings.FieldsSeq(token) {
		fields = append(fields, f)
	}
	fail := func(format string, args ...any) (Move, error) {
		return Move{}, &SyntaxError{Token: token, Err: ErrSyntax, msg: fmt.Sprintf(format, args...)}
	}
	if len(fields) == 0 {
		return fail("empty move: expected draw, thief, call, bid or pass")
	}
	verb := strings.ToLower(fields[0])
	args := fields[1:]
	switch verb {
	case "draw":
		if len(args) > 1 {
			return fail("%q: draw takes one card", token)
		}
		if len(args) == 0 {
			return Draw(NoKind), nil
		}
		k, err := ParseKind(args[0])
		if err != nil {
			return Move{}, err
		}
		return Draw(k), nil
	case "thief":
		if len(args) == 0 {
			return fail("%q: thief needs the row cards to take, such as thief car", token)
		}
		if len(args) > MaxTake {
			return fail("%q: thieves can take at most %d cards", token, MaxTake)
		}
		var kinds [MaxTake]Kind
		for i, a := range args {
			k, err := ParseKind(a)
			if err != nil {
				return Move{}, err
			}
			if !k.IsLoot() {
				return fail("%q: a thief takes loot from the row, not %s", token, k.Name())
			}
			kinds[i] = k
		}
		return Thieves(kinds[:len(args)]...), nil
	case "call", "pass":
		if len(args) != 0 {
			return fail("%q: %s takes nothing after it", token, verb)
		}
		if verb == "call" {
			return Call(), nil
		}
		return Pass(), nil
	case "bid":
		if len(args) != 1 {
			return fail("%q: bid takes one cheque value, such as bid 9", token)
		}
		v, err := strconv.Atoi(args[0])
		if err != nil || v < 1 || v > MaxCheque {
			return fail("%q: a cheque is a whole number from 1 to %d", token, MaxCheque)
		}
		return Bid(v), nil
	}
	return fail("unknown move %q: expected draw, thief, call, bid or pass", fields[0])
}

// MarshalText encodes m as its record token.
func (m Move) MarshalText() ([]byte, error) {
	if m.Action == ActionNone || m.Action > ActionPass {
		return nil, fmt.Errorf("razzia: cannot encode %v", m)
	}
	return []byte(m.String()), nil
}

// UnmarshalText decodes a record token into m.
func (m *Move) UnmarshalText(b []byte) error {
	v, err := ParseMove(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}
