package match_test

import (
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
)

// toRoundEnd plays m's default moves, a second apart from t0, until the
// move that ends round 1, and returns when that move was made.
func toRoundEnd(t *testing.T, m *match.Match) time.Time {
	t.Helper()
	round := func() int { s := m.Game.State(); return s.Round() }
	now, first := t0, round()
	for round() == first {
		now = now.Add(time.Second)
		mv := bot.Default(m.Game.LegalMoves())
		var r match.Result
		var err error
		if m.PersonPlays(m.Game.ToMove()) {
			r, err = m.Decide(play(m, mv.String()), now)
		} else {
			r, err = m.Move(mv, now)
		}
		if err != nil {
			t.Fatalf("move %d: %v", m.Moves(), err)
		}
		m.Apply(r, now)
		if m.Moves() > 500 {
			t.Fatal("round 1 does not end")
		}
	}
	return now
}

// heldAfterRound1 returns a two-person blitz game just after round 1
// ended at the time returned, its next clock held.
func heldAfterRound1(t *testing.T) (*match.Match, time.Time) {
	t.Helper()
	m := started(t, "blitz")
	end := toRoundEnd(t, m)
	h := m.Timing.Hold
	if h == nil {
		t.Fatal("round 2's first clock is not held")
	}
	if want := end.Add(pace.DefaultGrace); !h.Until.Equal(want) || len(h.Continued) != 0 {
		t.Fatalf("held until %v by %v, want until %v, nobody continued", h.Until, h.Continued, want)
	}
	if seat, _, ok := m.Timing.Clock.Running(); ok {
		t.Fatalf("seat %d's clock runs while the scores are read", seat)
	}
	return m, end
}

func continueAs(name string) match.Command {
	return match.Command{Kind: match.Continue, Hash: hash(name)}
}

// runningSince fails unless the clock of the seat to move runs since at
// and the clock is no longer held.
func runningSince(t *testing.T, m *match.Match, at time.Time) {
	t.Helper()
	seat, since, ok := m.Timing.Clock.Running()
	if m.Timing.Hold != nil || !ok || seat != m.Game.ToMove() || !since.Equal(at) {
		t.Fatalf("hold %+v, seat %d running since %v (%v); want seat %d's clock since %v", m.Timing.Hold, seat, since, ok, m.Game.ToMove(), at)
	}
}

func TestHoldGraceRunsOut(t *testing.T) {
	m, end := heldAfterRound1(t)
	until := end.Add(pace.DefaultGrace)
	if at, ok := m.Alarm(); !ok || !at.Equal(until) {
		t.Fatalf("alarm at %v (%v), want the grace's end %v", at, ok, until)
	}
	if r := m.Release([]int{0, 1}, until.Add(-time.Millisecond)); r.Write.Kind != match.NoWrite {
		t.Fatalf("released before the grace ran out and before anyone continued: %+v", r.Write)
	}
	early := m.Ring(until.Add(-time.Millisecond))
	if early.Write.Kind != match.NoWrite || !early.Clock {
		t.Fatalf("an early alarm: %+v, want nothing but the alarm set again", early)
	}
	// The timer fires late (or the server was down): the decision starts
	// at the grace's end all the same, as stored.
	late := until.Add(3 * time.Second)
	r := m.Ring(late)
	if r.Write.Kind != match.SetClock || !r.Broadcast || !r.Clock {
		t.Fatalf("the grace's end: %+v, want the clock stored and shown", r)
	}
	m.Apply(r, late)
	runningSince(t, m, until)
}

func TestHoldReleasedEarly(t *testing.T) {
	tests := []struct {
		name      string
		continued []string
		present   []int
		released  bool
	}{
		{"nobody continued", nil, []int{0, 1}, false},
		{"one of two continued", []string{"Ann"}, []int{0, 1}, false},
		{"everyone continued", []string{"Ann", "Bob"}, []int{0, 1}, true},
		{"the one connected continued", []string{"Ann"}, []int{0}, true},
		{"nobody is connected", nil, nil, false},
		{"nobody who continued is connected", []string{"Ann"}, []int{-1}, false},
		{"a spectator's connection counts for nothing", []string{"Ann", "Bob"}, []int{-1, 0, 1}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, end := heldAfterRound1(t)
			now := end.Add(2 * time.Second)
			for _, name := range tt.continued {
				r := must(t, m, continueAs(name), now)
				if r.Write.Kind != match.SetClock || !r.Broadcast || !r.Clock {
					t.Fatalf("%s continues: %+v, want it stored and shown", name, r)
				}
			}
			r := m.Release(tt.present, now)
			if got := r.Write.Kind != match.NoWrite; got != tt.released {
				t.Fatalf("released %v, want %v (hold %+v)", got, tt.released, m.Timing.Hold)
			}
			if tt.released {
				m.Apply(r, now)
				runningSince(t, m, now)
			}
		})
	}
}

func TestContinueRefusedOrIgnored(t *testing.T) {
	m, end := heldAfterRound1(t)
	now := end.Add(time.Second)
	for _, tt := range []struct {
		name string
		c    match.Command
		want error
	}{
		{"a spectator", match.Command{Kind: match.Continue}, match.ErrNotYourSeat},
		{"a stranger", continueAs("Eve"), match.ErrNotYourSeat},
	} {
		t.Run(tt.name, func(t *testing.T) {
			outcome(t, m, tt.c, now, tt.want)
		})
	}
	t.Run("twice", func(t *testing.T) {
		must(t, m, continueAs("Ann"), now)
		r, _ := outcome(t, m, continueAs("Ann"), now.Add(time.Second), nil)
		if r.Write.Kind != match.NoWrite || r.Broadcast {
			t.Errorf("a second continue: %+v, want nothing", r)
		}
		if got := m.Timing.Hold.Continued; !slices.Equal(got, []int{0}) {
			t.Errorf("continued %v, want [0]", got)
		}
	})
	t.Run("when nothing is held", func(t *testing.T) {
		m := started(t, "blitz")
		r, _ := outcome(t, m, continueAs("Ann"), t0, nil)
		if r.Write.Kind != match.NoWrite {
			t.Errorf("a continue with no clock held: %+v, want nothing", r)
		}
	})
}

// A person who moves while the clock is held has continued; the next
// person's decision is still not timed.
func TestHoldMoveIsContinue(t *testing.T) {
	m, end := heldAfterRound1(t)
	mover := m.Game.ToMove()
	must(t, m, play(m, bot.Default(m.Game.LegalMoves()).String()), end.Add(time.Second))
	if h := m.Timing.Hold; h == nil || !slices.Equal(h.Continued, []int{mover}) {
		t.Fatalf("hold %+v after seat %d moved, want it held with the mover continued", h, mover)
	}
	if seat, _, ok := m.Timing.Clock.Running(); ok {
		t.Errorf("seat %d's clock runs while held", seat)
	}
	if r := m.ResumeClock(); r.Write.Kind != match.NoWrite {
		t.Errorf("a held clock is resumed: %+v", r.Write)
	}
}

func TestNoHold(t *testing.T) {
	tests := []struct {
		name  string
		pace  string
		seats []string
	}{
		{"untimed", "untimed", []string{"", ""}},
		{"bots only", "blitz", []string{"easy", "easy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMatch(t, tt.pace, false, tt.seats...)
			for i, s := range tt.seats {
				if s == "" {
					must(t, m, join([]string{"Ann", "Bob"}[i], i), t0)
				}
			}
			toRoundEnd(t, m)
			if m.Timing.Hold != nil {
				t.Errorf("held: %+v", m.Timing.Hold)
			}
		})
	}
}

// Bots play on while a person reads the scores; the person's first
// decision is held.
func TestHoldBotsPlayOn(t *testing.T) {
	m := newMatch(t, "blitz", false, "", "easy", "easy")
	must(t, m, join("Ann", 0), t0)
	end := toRoundEnd(t, m)
	if m.Timing.Hold == nil {
		t.Fatal("a person's table is not held")
	}
	for now := end; !m.PersonPlays(m.Game.ToMove()); now = now.Add(time.Second) {
		r, err := m.Move(bot.Default(m.Game.LegalMoves()), now)
		if err != nil {
			t.Fatalf("a bot's move while held: %v", err)
		}
		m.Apply(r, now)
	}
	if seat, _, ok := m.Timing.Clock.Running(); ok || m.Timing.Hold == nil {
		t.Errorf("seat %d's clock runs (%v) with hold %+v, want it held for Ann", seat, ok, m.Timing.Hold)
	}
}

// The hold is stored with the clock: a match loaded from the store (a
// restart, another node) keeps it, to the millisecond.
func TestHoldStored(t *testing.T) {
	m, end := heldAfterRound1(t)
	must(t, m, continueAs("Bob"), end.Add(time.Second))
	back, err := match.DecodeTiming(m.Stored, len(m.Seats))
	if err != nil {
		t.Fatal(err)
	}
	if back.Hold == nil || !back.Hold.Until.Equal(m.Timing.Hold.Until) || !slices.Equal(back.Hold.Continued, []int{1}) {
		t.Errorf("read back %+v, want %+v", back.Hold, m.Timing.Hold)
	}
	for _, tt := range []struct {
		name string
		hold match.Hold
	}{
		{"no end", match.Hold{}},
		{"a seat not at the table", match.Hold{Until: end, Continued: []int{2}}},
		{"a negative seat", match.Hold{Until: end, Continued: []int{-1}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stored := match.Timing{Clock: m.Timing.Clock, Hold: &tt.hold}.Encode()
			if _, err := match.DecodeTiming(stored, len(m.Seats)); err == nil {
				t.Errorf("read %s", stored)
			}
		})
	}
}

// A person who takes their seat back from a bot while the clock is held
// is not timed before the hold ends.
func TestHoldTakeBack(t *testing.T) {
	m, end := heldAfterRound1(t)
	seat := m.Game.ToMove()
	name := m.Seats[seat].Name
	must(t, m, match.Command{Kind: match.Leave, Hash: hash(name)}, end.Add(time.Second))
	must(t, m, match.Command{Kind: match.TakeBack, Hash: hash(name)}, end.Add(2*time.Second))
	if m.Timing.StandingIn(seat) {
		t.Fatal("the seat was not given back")
	}
	if s, _, ok := m.Timing.Clock.Running(); ok || m.Timing.Hold == nil {
		t.Errorf("seat %d's clock runs (%v) with hold %+v, want it held", s, ok, m.Timing.Hold)
	}
}
