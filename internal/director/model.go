package director

import (
	"encoding/base32"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tournament"
)

// state is what a tournament's director keeps between its steps, stored
// as JSON with the tournament (store.Tournament.State).
type state struct {
	Started time.Time `json:"started,omitzero"`
	// Ends is when an arena stops seating tables.
	Ends time.Time `json:"ends,omitzero"`
	// Round is the number of rounds seated; Next when the next one is
	// seated, zero until the round under way is over.
	Round int       `json:"round,omitempty"`
	Next  time.Time `json:"next,omitzero"`
	// Paused: the organiser holds the next round (an arena's next tables).
	Paused bool `json:"paused,omitempty"`
	// Ended: the organiser ended it; the games under way finish.
	Ended bool `json:"ended,omitempty"`
	// StartAsked: the organiser said start (it starts once enough joined).
	StartAsked bool `json:"startAsked,omitempty"`
	// Tables is the number of an arena's tables seated so far.
	Tables int `json:"tables,omitempty"`
}

// result is a finished table's record in the store
// (store.TournamentTable.Result).
type result struct {
	Totals    []int  `json:"totals"`
	Forfeited []bool `json:"forfeited,omitempty"`
}

// A tour is a tournament as its director and its pages see it: the
// stored record, its settings and state decoded.
type tour struct {
	rec *store.Tournament
	set protocol.TournamentSettings
	st  state
}

func load(rec *store.Tournament) (*tour, error) {
	t := &tour{rec: rec}
	if err := json.Unmarshal(rec.Settings, &t.set); err != nil {
		return nil, fmt.Errorf("tournament %s: its settings: %w", rec.ID, err)
	}
	if len(rec.State) > 0 {
		if err := json.Unmarshal(rec.State, &t.st); err != nil {
			return nil, fmt.Errorf("tournament %s: its state: %w", rec.ID, err)
		}
	}
	return t, nil
}

// encode writes the settings and state back into the record.
func (t *tour) encode() error {
	var err error
	if t.rec.Settings, err = json.Marshal(t.set); err != nil {
		return err
	}
	t.rec.State, err = json.Marshal(t.st)
	return err
}

func (t *tour) format() tournament.Format { return tournament.Format(t.set.Format) }

// player returns the index of the account's line, or -1.
func (t *tour) player(account string) int {
	return slices.IndexFunc(t.rec.Players, func(p store.TournamentPlayer) bool { return p.Account == account })
}

// active returns the accounts of the players who play the next round
// (status in), in the order they joined.
func (t *tour) active() []string {
	var out []string
	for _, p := range t.rec.Players {
		if p.Status == protocol.PlayerIn {
			out = append(out, p.Account)
		}
	}
	return out
}

// busy returns the accounts seated at a table not over, with the table.
func (t *tour) busy() map[string]store.TournamentTable {
	out := map[string]store.TournamentTable{}
	for _, tb := range t.rec.Tables {
		if tb.Result == nil {
			for _, a := range tb.Seats {
				if a != "" {
					out[a] = tb
				}
			}
		}
	}
	return out
}

// open returns the tables not over.
func (t *tour) open() []store.TournamentTable {
	var out []store.TournamentTable
	for _, tb := range t.rec.Tables {
		if tb.Result == nil {
			out = append(out, tb)
		}
	}
	return out
}

// games returns the finished tables as the rules count them.
func (t *tour) games() []tournament.Game {
	var out []tournament.Game
	for _, tb := range t.rec.Tables {
		if tb.Result == nil {
			continue
		}
		var r result
		if json.Unmarshal(tb.Result, &r) != nil || len(r.Totals) != len(tb.Seats) {
			continue
		}
		out = append(out, tournament.Game{Round: tb.Round, Table: tb.Index, Deal: tb.Deal, Seats: tb.Seats,
			Totals: r.Totals, Forfeited: r.Forfeited, Finished: tb.Finished})
	}
	return out
}

// ranked returns the accounts the standings list: everyone but those the
// organiser removed and those who withdrew without playing.
func (t *tour) ranked() []string {
	played := map[string]bool{}
	for _, tb := range t.rec.Tables {
		for _, a := range tb.Seats {
			played[a] = true
		}
	}
	var out []string
	for _, p := range t.rec.Players {
		switch {
		case p.Status == protocol.PlayerRemoved:
		case p.Status == protocol.PlayerWithdrawn && !played[p.Account]:
		default:
			out = append(out, p.Account)
		}
	}
	return out
}

// standings are the standings after the finished tables.
func (t *tour) standings() []tournament.Standing {
	return tournament.Standings(t.format(), t.ranked(), t.games())
}

// shown is a standing's number as shown: points, or a duplicate
// tournament's percentage, with two decimals at most.
func (t *tour) shown(s tournament.Standing) float64 {
	if t.format() == tournament.Duplicate {
		return math.Round(s.Percent*100) / 100
	}
	return math.Round(s.Points.Float()*100) / 100
}

// roundOver reports whether every table of round r is over.
func (t *tour) roundOver(r int) bool {
	for _, tb := range t.rec.Tables {
		if tb.Round == r && tb.Result == nil {
			return false
		}
	}
	return true
}

// idEncoding spells game ids as the Hub does: lower-case base32.
var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// gameID is the id of the game of table idx of round r: derived, so that
// a director that creates it again after a crash creates the same game,
// and from the tournament's secret seed, so that nobody can know it before
// the table is seated.
func (t *tour) gameID(round, idx int) string {
	b := derive(t.rec.Seed, "table "+strconv.Itoa(round)+" "+strconv.Itoa(idx))
	return strings.ToLower(idEncoding.EncodeToString(b))[:protocol.IDLen]
}

// derive returns 32 bytes drawn from the tournament's secret seed for
// the label.
func derive(seed []byte, label string) []byte {
	r := razzia.SeededRand(seed, "tournament "+label)
	out := make([]byte, 32)
	for k := 0; k < len(out); k += 8 {
		binary.LittleEndian.PutUint64(out[k:], r.Uint64())
	}
	return out
}

// tableSeed is the seed a table's game is dealt from: a duplicate
// table's deal's, shared by every table of the deal; any other's own.
func (t *tour) tableSeed(tb store.TournamentTable) []byte {
	if t.format() == tournament.Duplicate {
		return derive(t.rec.Seed, "deal "+strconv.Itoa(tb.Deal))
	}
	return derive(t.rec.Seed, "game "+tb.Game)
}

// pairingSeed is the seed of the choices made seating round r (an
// arena's table n).
func (t *tour) pairingSeed(label string) uint64 {
	return binary.LittleEndian.Uint64(derive(t.rec.Seed, "pairing "+label))
}
