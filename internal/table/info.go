package table

import (
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/store"
)

// Info describes a game for lists and for its table: never its seed or
// seat tokens.
type Info struct {
	ID      string       `json:"id"`
	Status  store.Status `json:"status"`
	Players int          `json:"players"`
	Seats   []SeatInfo   `json:"seats"`
	Moves   int          `json:"moves"`
	Created time.Time    `json:"created"`
	Updated time.Time    `json:"updated"`
	Winners []int        `json:"winners,omitempty"` // once a finished or archived game is over
	Invite  string       `json:"invite"`            // the table page's path
}

// A SeatInfo is one seat of a game's Info.
type SeatInfo struct {
	Name string `json:"name"` // empty while open
	Bot  string `json:"bot"`  // the bot level, or empty for a person
	Open bool   `json:"open"`
}

func newInfo(id string, status store.Status, seats []store.Seat, moves int, created, updated time.Time, winners []int) Info {
	in := Info{
		ID:      id,
		Status:  status,
		Players: len(seats),
		Seats:   make([]SeatInfo, len(seats)),
		Moves:   moves,
		Created: created.UTC(),
		Updated: updated.UTC(),
		Invite:  "/g/" + id,
	}
	for i, s := range seats {
		in.Seats[i] = SeatInfo{Name: s.Name, Bot: s.Bot, Open: s.Name == ""}
	}
	if status == store.StatusFinished || status == store.StatusArchived {
		in.Winners = winners
	}
	return in
}

// names returns the seats' names, for the engine.
func names(seats []store.Seat) []string {
	n := make([]string, len(seats))
	for i, s := range seats {
		n[i] = s.Name
	}
	return n
}

// replay rebuilds a started game from its stored form: its stored cheques,
// never dealt again from the seed, which an older server dealt another way.
func replay(g *store.Game) (*razzia.Game, error) {
	game, err := razzia.NewGame(razzia.Setup{Players: names(g.Seats), Cheques: g.Cheques, Seed: g.Seed})
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
