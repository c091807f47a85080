package table

import (
	"time"

	"github.com/razziagame/razzia/internal/pace"
)

// An Alert tells of something a signed-in player may want to hear of
// while away from the table (Options.OnAlert): their turn came, the game
// is over, or half of their correspondence decision's time has passed.
// The table reports; the hook decides whom to tell, and how.
type Alert struct {
	Kind    AlertKind
	Game    string
	Seat    int
	Account string    // the seat's account; alerts are for accounts only
	Pace    pace.Kind // the table's pace
	// Watching is whether a connection of the seat watches the game at
	// the node that runs it: the page there alerts the player itself. A
	// connection at another node is not seen.
	Watching bool
	// Left is, for a reminder, the time to the decision's deadline.
	Left time.Duration
}

// An AlertKind is what an Alert tells.
type AlertKind uint8

// The kinds of alert.
const (
	AlertTurn     AlertKind = iota + 1 // a move made it the seat's turn
	AlertGameOver                      // the game is over
	AlertReminder                      // half of the seat's correspondence decision time has passed
)

var alertNames = [...]string{AlertTurn: "turn", AlertGameOver: "game over", AlertReminder: "reminder"}

func (k AlertKind) String() string {
	if int(k) < len(alertNames) && alertNames[k] != "" {
		return alertNames[k]
	}
	return "AlertKind(?)"
}

// alert hands the hook an alert for the seat, if a signed-in person holds
// it. It runs on the game's path: the hook returns at once.
func (l *loop) alert(kind AlertKind, seat int, left time.Duration) {
	hook := l.env.onAlert
	if hook == nil || seat < 0 || seat >= len(l.m.Seats) || l.m.Seats[seat].Account == "" || l.m.Seats[seat].Bot != "" {
		return
	}
	watching := false
	for s := range l.subs {
		if s.seat == seat {
			watching = true
			break
		}
	}
	hook(Alert{Kind: kind, Game: l.id, Seat: seat, Account: l.m.Seats[seat].Account,
		Pace: l.m.Timing.Clock.Pace().Kind, Watching: watching, Left: left})
}

// alertTurn tells the person to move that it is their turn, after moves
// moves were made, unless a move was made since (a pre-move played at
// once), or the same seat moved last (they are at the table), or a bot
// plays for them.
func (l *loop) alertTurn(moves, mover int) {
	if l.m.Game == nil || l.m.Game.Over() || l.m.Game.Len() != moves {
		return
	}
	if seat := l.m.Game.ToMove(); seat != mover && l.m.PersonPlays(seat) {
		l.alert(AlertTurn, seat, 0)
	}
}

// alertOver tells every signed-in person at the table that the game is over.
func (l *loop) alertOver() {
	for seat := range l.m.Seats {
		l.alert(AlertGameOver, seat, 0)
	}
}
