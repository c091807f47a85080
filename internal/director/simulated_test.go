package director

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/tournament"
)

// TestFormatsSimulated plays every format with 7, 12 and 29 people
// through the Hub: every table of a legal size, nobody seated twice at
// once, no meeting repeated in a Swiss tournament (each case's sizes
// leave a seating without one), every seat of every duplicate deal held
// by a person at some table, and at the end everyone ranked, no bot.
func TestFormatsSimulated(t *testing.T) {
	for _, tc := range []struct {
		format      string
		n, size, at int // at: the rounds, or an arena's waves of tables
	}{
		{"swiss", 7, 3, 2}, {"swiss", 12, 3, 2}, {"swiss", 29, 4, 2},
		{"duplicate", 7, 4, 1}, {"duplicate", 12, 4, 1}, {"duplicate", 29, 4, 1},
		{"arena", 7, 3, 2}, {"arena", 12, 4, 2}, {"arena", 29, 5, 2},
	} {
		t.Run(fmt.Sprintf("%s %d at %d", tc.format, tc.n, tc.size), func(t *testing.T) {
			h := newHarness(t, memstore.New())
			n := h.addNode("n1", time.Minute)
			set := protocol.TournamentSettings{Name: "Simulated", Format: tc.format, TableSize: tc.size, BreakSeconds: zero()}
			if tc.format == "arena" {
				set.Minutes = 10
			} else {
				set.Rounds = tc.at
			}
			id := h.start(n, set, h.people(tc.n))
			met := map[[2]string]bool{}
			var left []string // who sat out an arena's last wave
			for wave := 1; wave <= tc.at; wave++ {
				v := h.until(n.dir, id, fmt.Sprintf("wave %d", wave), func(v protocol.Tournament) bool {
					return h.toPlay(v) && (tc.format == "arena" || len(v.RoundsPlayed) == wave)
				})
				checkTables(t, tc.format, tc.size, v, met)
				h.playRound(n, v)
				if tc.format != "arena" {
					continue
				}
				seated := seatedAt(v)
				for _, p := range left {
					if !seated[p] {
						t.Errorf("wave %d: %s, who sat out the last, waits again", wave, p)
					}
				}
				left = left[:0]
				for i := 1; i <= tc.n; i++ {
					if p := fmt.Sprintf("p%d", i); !seated[p] {
						left = append(left, p)
					}
				}
			}
			if tc.format == "arena" {
				h.clock.Advance(10 * time.Minute)
			}
			var v protocol.Tournament
			for {
				v = h.until(n.dir, id, "the end, or a table to play", func(v protocol.Tournament) bool {
					return v.Status == protocol.TournamentFinished || h.toPlay(v)
				})
				if v.Status == protocol.TournamentFinished {
					break
				}
				h.playRound(n, v)
			}
			if len(v.Ranking) != tc.n || slices.ContainsFunc(v.Ranking, func(l protocol.TournamentLine) bool { return l.Games == 0 }) {
				t.Errorf("%d ranked of %d, or one with no game: %+v", len(v.Ranking), tc.n, v.Ranking)
			}
			if tc.format == "duplicate" && len(v.RoundsPlayed[0].Deals) == 0 {
				t.Error("no deal revealed at the end")
			}
		})
	}
}

// seatedAt returns the people at the open tables of v's last round.
func seatedAt(v protocol.Tournament) map[string]bool {
	seated := map[string]bool{}
	for _, tb := range v.RoundsPlayed[len(v.RoundsPlayed)-1].Tables {
		for _, s := range tb.Seats {
			if !tb.Over && !s.Bot {
				seated[s.Name] = true
			}
		}
	}
	return seated
}

// checkTables checks the open tables of v's last round: sizes legal,
// nobody at two, no Swiss meeting repeated (met, updated), and each
// duplicate deal's seats held by a person somewhere.
func checkTables(t *testing.T, format string, size int, v protocol.Tournament, met map[[2]string]bool) {
	t.Helper()
	r := v.RoundsPlayed[len(v.RoundsPlayed)-1]
	seated := map[string]bool{}
	deals := map[int][]protocol.TournamentTable{}
	for _, tb := range r.Tables {
		if tb.Over {
			continue
		}
		if k := len(tb.Seats); k < tournament.MinTable || k > size && (size != 2 || k != 3) {
			t.Errorf("round %d table %d seats %d at tables of %d", r.Number, tb.Index, k, size)
		}
		deals[tb.Deal] = append(deals[tb.Deal], tb)
		for i, s := range tb.Seats {
			if s.Bot {
				continue
			}
			if seated[s.Name] {
				t.Errorf("round %d: %s seated twice", r.Number, s.Name)
			}
			seated[s.Name] = true
			for _, o := range tb.Seats[i+1:] {
				pair := [2]string{min(s.Name, o.Name), max(s.Name, o.Name)}
				if o.Bot || format != "swiss" {
					continue
				}
				if met[pair] {
					t.Errorf("round %d: %s and %s meet again", r.Number, s.Name, o.Name)
				}
				met[pair] = true
			}
		}
	}
	if format != "duplicate" {
		return
	}
	for d, tbs := range deals {
		if len(tbs) < 2 {
			t.Errorf("deal %d at %d table", d, len(tbs))
		}
		for seat := range tbs[0].Seats {
			if !slices.ContainsFunc(tbs, func(tb protocol.TournamentTable) bool { return !tb.Seats[seat].Bot }) {
				t.Errorf("deal %d: no person at seat %d", d, seat+1)
			}
		}
	}
}
