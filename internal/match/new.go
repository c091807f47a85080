package match

import (
	"slices"
	"strings"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
)

// CheckTable checks a new table as its creator asks for it: a bot level
// (one of bot.Levels) per seat, "" for a person; the id of a pace preset,
// "" for the default; rated or not. A rated table needs a person's seat,
// the pace must be a preset (timed when rated), a table has MinPlayers to
// MaxPlayers seats. It returns the pace, or the refusal.
func CheckTable(seats []string, paceID string, rated bool) (pace.Pace, error) {
	if rated && !slices.Contains(seats, "") {
		return pace.Pace{}, refuse(ErrBadRequest, "a rated table needs a seat for a person: bots alone are never rated")
	}
	p, err := pace.Choose(paceID, rated)
	if err != nil {
		r := refuse(ErrBadRequest, "%v", err)
		r.Err = err
		return pace.Pace{}, r
	}
	if n := len(seats); n < razzia.MinPlayers || n > razzia.MaxPlayers {
		return pace.Pace{}, refuse(ErrBadRequest, "a table has %d to %d seats, not %d", razzia.MinPlayers, razzia.MaxPlayers, n)
	}
	for i, level := range seats {
		if level != "" && !IsLevel(level) {
			return pace.Pace{}, refuse(ErrBadRequest, "seat %d: unknown bot level %q (want %s, or empty for a person)", i, level, strings.Join(bot.LevelNames(), ", "))
		}
	}
	return p, nil
}

// A Setup is a new table that CheckTable allowed, with what the host drew
// for it (ID, Seed, CreatorHash) at At.
type Setup struct {
	Seats       []string
	Pace        pace.Pace
	Rated       bool
	ID          string
	Seed        []byte
	CreatorHash []byte
	At          time.Time
	Tournament  bool // a tournament's table (Timing.Tournament)
}

// NewTable returns the stored form of the table s describes: open while
// a seat waits for a person, its bots named by seat, dealt once and for
// good.
func NewTable(s Setup) (*store.Game, error) {
	g := &store.Game{ID: s.ID, Status: store.StatusPlaying, Seats: make([]store.Seat, len(s.Seats)), Rated: s.Rated,
		Seed: s.Seed, CreatorHash: s.CreatorHash, Created: s.At, Updated: s.At, Moves: []string{}}
	for i, level := range s.Seats {
		if level == "" {
			g.Status = store.StatusOpen
			continue
		}
		// Numbered by seat, so two bots of one level are told apart in the log.
		g.Seats[i] = store.Seat{Name: playername.Bot(i, level), Bot: level}
	}
	// Dealt once, here, and stored: a stored game is never dealt again.
	g.Cheques = razzia.NewSetup(PlayerNames(g.Seats), g.Seed).Cheques
	c, err := pace.New(s.Pace, len(s.Seats))
	if err != nil {
		return nil, err
	}
	g.Clock = Timing{Clock: c, Tournament: s.Tournament}.Encode()
	return g, nil
}

// CheckLearner checks the name of the person who starts the tutorial: a
// name people may take, and none of the tutorial's bots'.
func CheckLearner(name string) error {
	if err := playername.Check(name); err != nil {
		r := refuse(ErrBadName, "%v", err)
		r.Err = err
		return r
	}
	for _, bot := range tutorial.Names {
		if bot != "" && playername.Key(bot) == playername.Key(name) {
			return refuse(ErrNameTaken, "%s is already at this table: choose another name", bot)
		}
	}
	return nil
}

// NewTutorial returns the stored form of the guided first game (package
// tutorial) for the learner called name, whom CheckLearner allowed, who
// holds their seat by learnerHash: its prepared deal, the learner at
// seat tutorial.Learner and the tutorial's bots at the others, started at
// at.
func NewTutorial(id, name string, learnerHash []byte, at time.Time) *store.Game {
	setup := tutorial.Setup(name)
	g := &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, len(setup.Players)),
		Cheques: setup.Cheques, Seed: setup.Seed, Moves: []string{}, Created: at, Updated: at}
	for i, p := range setup.Players {
		g.Seats[i] = store.Seat{Name: p, Bot: tutorial.Bot}
	}
	g.Seats[tutorial.Learner] = store.Seat{Name: name, TokenHash: learnerHash}
	return g
}
