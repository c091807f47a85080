package table

import (
	"time"

	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/store"
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
	hook := l.h.opts.OnAlert
	if hook == nil || seat < 0 || seat >= len(l.seats) || l.seats[seat].Account == "" || l.seats[seat].Bot != "" {
		return
	}
	watching := false
	for s := range l.subs {
		if s.seat == seat {
			watching = true
			break
		}
	}
	hook(Alert{Kind: kind, Game: l.id, Seat: seat, Account: l.seats[seat].Account,
		Pace: l.timing.Clock.Pace().Kind, Watching: watching, Left: left})
}

// alertTurn tells the person to move that it is their turn, after moves
// moves were made, unless a move was made since (a pre-move played at
// once), or the same seat moved last (they are at the table), or a bot
// plays for them.
func (l *loop) alertTurn(moves, mover int) {
	if l.game == nil || l.game.Over() || l.game.Len() != moves {
		return
	}
	if seat := l.game.ToMove(); seat != mover && l.personPlays(seat) {
		l.alert(AlertTurn, seat, 0)
	}
}

// alertOver tells every signed-in person at the table that the game is over.
func (l *loop) alertOver() {
	for seat := range l.seats {
		l.alert(AlertGameOver, seat, 0)
	}
}

// remind sends the running correspondence decision's reminder if it is
// due at now and not sent: stored as sent first, so that a restart or a
// take-over never sends it twice (and a crash in between sends none). It
// returns saveTiming's error, after which the alarm is set already.
func (l *loop) remind(now time.Time) error {
	next := l.timing.clone()
	if !next.Clock.Remind(now) {
		return nil
	}
	if err := l.saveTiming(next); err != nil {
		return err
	}
	seat, _, _ := next.Clock.Running()
	deadline, _ := next.Clock.Deadline()
	l.h.log.Info("half the decision's time has passed", "game", l.id, "seat", seat)
	l.alert(AlertReminder, seat, deadline.Sub(now))
	return nil
}

// ring is what the clock's alarm does: the timeout once the time is up,
// else the reminder when due, and the next alarm.
func (l *loop) ring() {
	if l.game == nil || l.status != store.StatusPlaying {
		return
	}
	now := l.h.opts.Now()
	if l.timing.Clock.Expired(now) {
		l.timeout()
		return
	}
	if l.remind(now) != nil {
		return
	}
	l.armClock()
}
