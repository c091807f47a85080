package table

import (
	"time"

	"github.com/razziagame/razzia"
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

// Finished is a game that is over, as OnFinish reports it.
type Finished struct {
	Game   string
	Rated  bool
	Seats  []store.Seat // names, bots and accounts; no tokens
	Scores []razzia.Score
	At     time.Time
	// Forfeited is, by seat, whether the person timed out or left (a bot
	// took their seat at least once): a rated game is a loss for them.
	Forfeited []bool
}

// finishTimeout bounds the OnFinish hook of one game.
const finishTimeout = 30 * time.Second
