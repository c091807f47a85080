package director

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/tournament"
)

// Bounds and defaults of the settings (protocol.TournamentSettings).
const (
	MaxName         = 60
	MaxRounds       = 20
	MinMinutes      = 10
	MaxMinutes      = 720
	MaxBreak        = 1800
	DefaultBreak    = 60
	DefaultPlayers  = 100
	MaxPlayers      = 500
	DefaultPace     = "rapid"
	MaxStartAhead   = 60 * 24 * time.Hour
	maxPasswordSize = 200
	// FillLevel is the level of the bots that fill seats: a calibrated
	// one, so that a rated table may seat it.
	FillLevel = "medium"
)

// normalise checks an organiser's settings at now and fills in their
// defaults; it refuses (ErrSettings) what cannot make a tournament's
// tables, naming the setting. canFinish says whether the server knows
// people's finish rates.
func normalise(p protocol.TournamentSettings, now time.Time, canFinish bool) (protocol.TournamentSettings, error) {
	p.Name = strings.TrimSpace(p.Name)
	if err := checkName(p.Name); err != nil {
		return p, err
	}
	if !tournament.Format(p.Format).Valid() {
		return p, refuse(ErrSettings, "format %q: want swiss, arena or duplicate", p.Format)
	}
	if p.TableSize < tournament.MinTable || p.TableSize > tournament.MaxTable {
		return p, refuse(ErrSettings, "tableSize %d: a table seats %d to %d", p.TableSize, tournament.MinTable, tournament.MaxTable)
	}
	if p.Pace == "" {
		p.Pace = DefaultPace
	}
	if pc, ok := pace.Lookup(p.Pace); !ok || pc.Kind != pace.Live {
		return p, refuse(ErrSettings, "pace %q: a tournament is played at a live pace (blitz, rapid, standard or slow)", p.Pace)
	}
	if p.Start != nil {
		s := p.Start.UTC().Round(time.Second)
		if s.Before(now.Add(-time.Minute)) || s.After(now.Add(MaxStartAhead)) {
			return p, refuse(ErrSettings, "start %s: want a time from now to 60 days ahead", s.Format(time.RFC3339))
		}
		p.Start = &s
	}
	if p.Format == protocol.FormatArena {
		if p.Rounds != 0 {
			return p, refuse(ErrSettings, "rounds: an arena lasts minutes, not rounds")
		}
		if p.Minutes == 0 {
			p.Minutes = 60
		}
		if p.Minutes < MinMinutes || p.Minutes > MaxMinutes {
			return p, refuse(ErrSettings, "minutes %d: an arena lasts %d to %d minutes", p.Minutes, MinMinutes, MaxMinutes)
		}
	} else {
		if p.Minutes != 0 {
			return p, refuse(ErrSettings, "minutes: a %s tournament has rounds, not minutes", p.Format)
		}
		if p.Rounds == 0 {
			p.Rounds = 5
		}
		if p.Rounds < 1 || p.Rounds > MaxRounds {
			return p, refuse(ErrSettings, "rounds %d: want 1 to %d", p.Rounds, MaxRounds)
		}
	}
	if p.BreakSeconds == nil {
		b := DefaultBreak
		p.BreakSeconds = &b
	}
	if b := *p.BreakSeconds; b < 0 || b > MaxBreak {
		return p, refuse(ErrSettings, "breakSeconds %d: want 0 to %d", b, MaxBreak)
	}
	if p.MinRating < 0 || p.MaxRating < 0 || p.MaxRating > 0 && p.MinRating > p.MaxRating {
		return p, refuse(ErrSettings, "minRating %d, maxRating %d: want 0 (none) or a range", p.MinRating, p.MaxRating)
	}
	if p.MinFinishRate < 0 || p.MinFinishRate > 100 {
		return p, refuse(ErrSettings, "minFinishRate %d: want a percentage, 0 to 100", p.MinFinishRate)
	}
	if p.MinFinishRate > 0 && !canFinish {
		return p, refuse(ErrSettings, "minFinishRate: this server does not keep finish rates yet")
	}
	if p.MaxPlayers == 0 {
		p.MaxPlayers = DefaultPlayers
	}
	if p.MaxPlayers < minPlayers(p) || p.MaxPlayers > MaxPlayers {
		return p, refuse(ErrSettings, "maxPlayers %d: want %d to %d", p.MaxPlayers, minPlayers(p), MaxPlayers)
	}
	if len(p.Password) > maxPasswordSize {
		return p, refuse(ErrSettings, "password: at most %d bytes", maxPasswordSize)
	}
	if p.Absent == "" {
		p.Absent = protocol.AbsentBot
	}
	if p.Absent != protocol.AbsentBot && p.Absent != protocol.AbsentWithdraw {
		return p, refuse(ErrSettings, "absent %q: want bot or withdraw", p.Absent)
	}
	if p.TooFew == "" {
		p.TooFew = protocol.TooFewWait
	}
	if p.TooFew != protocol.TooFewWait && p.TooFew != protocol.TooFewCancel {
		return p, refuse(ErrSettings, "tooFew %q: want wait or cancel", p.TooFew)
	}
	return p, nil
}

// minPlayers is how many people a tournament needs to start: a table's
// worth for duplicate, where people must hold every seat of a deal; two
// otherwise.
func minPlayers(p protocol.TournamentSettings) int {
	if p.Format == protocol.FormatDuplicate {
		return p.TableSize
	}
	return tournament.MinTable
}

// checkName refuses a tournament name that is empty, too long, or holds
// a control, format (invisible, direction-changing) or unassigned
// character.
func checkName(name string) error {
	if name == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > MaxName {
		return refuse(ErrSettings, "name: 1 to %d characters", MaxName)
	}
	for _, r := range name {
		if r != ' ' && (!unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r)) {
			return refuse(ErrSettings, "name: %U cannot be shown", r)
		}
	}
	return nil
}
