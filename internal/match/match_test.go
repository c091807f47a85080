package match_test

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/store"
)

// t0 is when the tables of the tests are created.
var t0 = time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)

func hash(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// newMatch returns a table created at t0 at the pace paceID, with a bot
// of the level given for each seat, "" for an open seat.
func newMatch(t *testing.T, paceID string, rated bool, seats ...string) *match.Match {
	t.Helper()
	g := &store.Game{ID: "g1", Status: store.StatusPlaying, Seats: make([]store.Seat, len(seats)), Rated: rated,
		Seed: []byte("the seed of the match tests"), CreatorHash: hash("creator"), Created: t0, Updated: t0}
	for i, level := range seats {
		if level == "" {
			g.Status = store.StatusOpen
			continue
		}
		g.Seats[i] = store.Seat{Name: fmt.Sprintf("Bot %d", i), Bot: level}
	}
	g.Cheques = razzia.NewSetup(match.PlayerNames(g.Seats), g.Seed).Cheques
	p, ok := pace.Lookup(paceID)
	if !ok {
		t.Fatalf("no pace %q", paceID)
	}
	var err error
	if g.Clock, err = match.NewTiming(p, len(seats)); err != nil {
		t.Fatal(err)
	}
	m, err := match.Load(g)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// snapshot is everything of m a command may change, to tell that a
// refused or undecided command changed nothing.
func snapshot(m *match.Match) string {
	return fmt.Sprintf("%s %+v %d %s %s %v", m.Status, m.Seats, m.Moves(), m.Stored, m.Timing.Encode(), m.Updated)
}

// decide decides c at now, checking that deciding changes nothing.
func decide(t *testing.T, m *match.Match, c match.Command, now time.Time) (match.Result, error) {
	t.Helper()
	before := snapshot(m)
	r, err := m.Decide(c, now)
	if after := snapshot(m); after != before {
		t.Fatalf("deciding %+v changed the match:\n%s\nto\n%s", c, before, after)
	}
	return r, err
}

// must decides c at now and applies the result, as a host does once its
// write is committed.
func must(t *testing.T, m *match.Match, c match.Command, now time.Time) match.Result {
	t.Helper()
	r, err := decide(t, m, c, now)
	if err != nil {
		t.Fatalf("%+v: %v", c, err)
	}
	m.Apply(r, now)
	return r
}

// reason returns the reason of a refusal, failing on another error.
func reason(t *testing.T, err error) error {
	t.Helper()
	var r *match.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a *match.Refusal", err)
	}
	if r.Msg == "" {
		t.Errorf("refusal %v has no message", r.Kind)
	}
	return r.Kind
}

// outcome decides c at now and checks that it is refused for want, or
// made when want is nil. It returns the result and whether it was made.
func outcome(t *testing.T, m *match.Match, c match.Command, now time.Time, want error) (match.Result, bool) {
	t.Helper()
	r, err := decide(t, m, c, now)
	if want != nil {
		if got := reason(t, err); got != want {
			t.Fatalf("refused as %v (%v), want %v", got, err, want)
		}
		return r, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return r, true
}

func join(name string, seat int) match.Command {
	return match.Command{Kind: match.Join, Name: name, Hash: hash(name), Seat: seat}
}

// started returns a two-person game at the pace paceID: Ann at seat 0,
// Bob at seat 1, started at t0.
func started(t *testing.T, paceID string) *match.Match {
	t.Helper()
	m := newMatch(t, paceID, false, "", "")
	must(t, m, join("Ann", 0), t0)
	must(t, m, join("Bob", 1), t0)
	if r := m.ResumeClock(); r.Write.Kind != match.NoWrite {
		m.Apply(r, t0)
	}
	return m
}

// play returns the command of seat's move tok at m's current move.
func play(m *match.Match, tok string) match.Command {
	name := m.Seats[m.Game.ToMove()].Name
	return match.Command{Kind: match.Play, Hash: hash(name), Move: tok, Seq: m.Moves()}
}

func TestJoin(t *testing.T) {
	tests := []struct {
		name   string
		rated  bool
		before []match.Command
		c      match.Command
		want   error // nil: made
		seat   int
		status store.Status
	}{
		{name: "first open seat", c: join("Ann", -1), seat: 0, status: store.StatusOpen},
		{name: "seat asked for", c: join("Ann", 2), seat: 2, status: store.StatusOpen},
		{name: "last open seat starts the game", before: []match.Command{join("Ann", 0), join("Bob", 2)},
			c: join("Cid", -1), seat: 1, status: store.StatusPlaying},
		{name: "no such seat", c: join("Ann", 3), want: match.ErrBadRequest},
		{name: "seat taken", before: []match.Command{join("Ann", 0)}, c: join("Bob", 0), want: match.ErrSeatTaken},
		{name: "name taken whatever its case", before: []match.Command{join("Ann", 0)},
			c: match.Command{Kind: match.Join, Name: "ANN", Hash: hash("other"), Seat: -1}, want: match.ErrNameTaken},
		{name: "token holds a seat", before: []match.Command{join("Ann", 0)},
			c: match.Command{Kind: match.Join, Name: "Bob", Hash: hash("Ann"), Seat: -1}, want: match.ErrAlreadySeated},
		{name: "account holds a seat", before: []match.Command{{Kind: match.Join, Name: "Ann", Hash: hash("a"), Account: "acc", Seat: 0}},
			c: match.Command{Kind: match.Join, Name: "Bob", Hash: hash("b"), Account: "acc", Seat: -1}, want: match.ErrAlreadySeated},
		{name: "guest at a rated table", rated: true, c: join("Ann", -1), want: match.ErrAccountRequired},
		{name: "account at a rated table", rated: true, c: match.Command{Kind: match.Join, Name: "Ann", Hash: hash("Ann"), Account: "acc", Seat: -1},
			seat: 0, status: store.StatusOpen},
		{name: "after the start", before: []match.Command{join("Ann", 0), join("Bob", 1), join("Cid", 2)},
			c: join("Dan", -1), want: match.ErrTableFull},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMatch(t, "untimed", tt.rated, "", "", "")
			for _, c := range tt.before {
				must(t, m, c, t0)
			}
			r, made := outcome(t, m, tt.c, t0.Add(time.Minute), tt.want)
			if !made {
				return
			}
			w := r.Write
			if w.Kind != match.TakeSeat || w.Seat != tt.seat || w.Status != tt.status || w.Taken.Name != tt.c.Name || w.Conflict == nil {
				t.Errorf("write = %+v, want seat %d taken by %s, status %s, a refusal for a conflict", w, tt.seat, tt.c.Name, tt.status)
			}
			if r.Seat != tt.seat || !r.Broadcast || !r.Expiry || r.StartGame != (tt.status == store.StatusPlaying) {
				t.Errorf("result seat %d, effects %+v", r.Seat, r.Effects)
			}
			m.Apply(r, t0.Add(time.Minute))
			if m.Seats[tt.seat].Name != tt.c.Name || m.Status != tt.status || (m.Game != nil) != (tt.status == store.StatusPlaying) {
				t.Errorf("applied: seats %+v, status %s, game %v", m.Seats, m.Status, m.Game != nil)
			}
			if !m.Updated.Equal(t0.Add(time.Minute)) {
				t.Errorf("updated %v, want the time of the join", m.Updated)
			}
		})
	}
}

func TestRemoveAndCancel(t *testing.T) {
	creator := hash("creator")
	tests := []struct {
		name   string
		seats  []string
		before []match.Command
		c      match.Command
		want   error
		write  match.WriteKind
	}{
		{name: "remove a person", before: []match.Command{join("Ann", 0)},
			c: match.Command{Kind: match.Remove, Hash: creator, Seat: 0}, write: match.FreeSeat},
		{name: "remove by another", before: []match.Command{join("Ann", 0)},
			c: match.Command{Kind: match.Remove, Hash: hash("Ann"), Seat: 0}, want: match.ErrNotCreator},
		{name: "remove no seat", c: match.Command{Kind: match.Remove, Hash: creator, Seat: -1}, want: match.ErrBadRequest},
		{name: "remove an open seat", c: match.Command{Kind: match.Remove, Hash: creator, Seat: 1}, want: match.ErrBadRequest},
		{name: "remove a bot", seats: []string{"", "easy"}, c: match.Command{Kind: match.Remove, Hash: creator, Seat: 1}, want: match.ErrBadRequest},
		{name: "remove after the start", before: []match.Command{join("Ann", 0), join("Bob", 1)},
			c: match.Command{Kind: match.Remove, Hash: creator, Seat: 0}, want: match.ErrAlreadyStarted},
		{name: "set a bot's level", seats: []string{"", "easy"},
			c: match.Command{Kind: match.SetLevel, Hash: creator, Seat: 1, Level: "hard"}, write: match.SetBot},
		{name: "set a level by another", seats: []string{"", "easy"}, before: []match.Command{join("Ann", 0)},
			c: match.Command{Kind: match.SetLevel, Hash: hash("Ann"), Seat: 1, Level: "hard"}, want: match.ErrNotCreator},
		{name: "set a level without a token", seats: []string{"", "easy"},
			c: match.Command{Kind: match.SetLevel, Seat: 1, Level: "hard"}, want: match.ErrNotCreator},
		{name: "set a person's level", seats: []string{"", "", "easy"}, before: []match.Command{join("Ann", 0)},
			c: match.Command{Kind: match.SetLevel, Hash: creator, Seat: 0, Level: "hard"}, want: match.ErrBadRequest},
		{name: "set an open seat's level", seats: []string{"", "easy"},
			c: match.Command{Kind: match.SetLevel, Hash: creator, Seat: 0, Level: "hard"}, want: match.ErrBadRequest},
		{name: "set no seat's level", seats: []string{"", "easy"},
			c: match.Command{Kind: match.SetLevel, Hash: creator, Seat: 2, Level: "hard"}, want: match.ErrBadRequest},
		{name: "set a negative seat's level", seats: []string{"", "easy"},
			c: match.Command{Kind: match.SetLevel, Hash: creator, Seat: -1, Level: "hard"}, want: match.ErrBadRequest},
		{name: "set an unknown level", seats: []string{"", "easy"},
			c: match.Command{Kind: match.SetLevel, Hash: creator, Seat: 1, Level: "godlike"}, want: match.ErrBadRequest},
		{name: "set a spec as level", seats: []string{"", "easy"},
			c: match.Command{Kind: match.SetLevel, Hash: creator, Seat: 1, Level: "mcts:1000"}, want: match.ErrBadRequest},
		{name: "set an empty level", seats: []string{"", "easy"},
			c: match.Command{Kind: match.SetLevel, Hash: creator, Seat: 1}, want: match.ErrBadRequest},
		{name: "set a level after the start", seats: []string{"", "easy"}, before: []match.Command{join("Ann", 0)},
			c: match.Command{Kind: match.SetLevel, Hash: creator, Seat: 1, Level: "hard"}, want: match.ErrAlreadyStarted},
		{name: "cancel", c: match.Command{Kind: match.Cancel, Hash: creator}, write: match.CloseTable},
		{name: "cancel by another", c: match.Command{Kind: match.Cancel, Hash: hash("Ann")}, want: match.ErrNotCreator},
		{name: "cancel without a token", c: match.Command{Kind: match.Cancel}, want: match.ErrNotCreator},
		{name: "cancel after the start", before: []match.Command{join("Ann", 0), join("Bob", 1)},
			c: match.Command{Kind: match.Cancel, Hash: creator}, want: match.ErrAlreadyStarted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seats := tt.seats
			if seats == nil {
				seats = []string{"", ""}
			}
			m := newMatch(t, "untimed", false, seats...)
			for _, c := range tt.before {
				must(t, m, c, t0)
			}
			r, made := outcome(t, m, tt.c, t0, tt.want)
			if !made {
				return
			}
			if r.Write.Kind != tt.write || r.Write.Conflict == nil || !r.Broadcast {
				t.Fatalf("result %+v, want a %v that refuses a conflict and broadcasts", r, tt.write)
			}
			m.Apply(r, t0)
			switch tt.write {
			case match.FreeSeat:
				if s := m.Seats[tt.c.Seat]; s.Name != "" || s.TokenHash != nil || !slices.Equal(r.Spectate, []int{tt.c.Seat}) || !r.Expiry {
					t.Errorf("seat %d after the removal: %+v; spectate %v, expiry %v", tt.c.Seat, m.Seats[tt.c.Seat], r.Spectate, r.Expiry)
				}
			case match.SetBot:
				want := store.Seat{Name: "Bot 2 (hard)", Bot: "hard"}
				if s := m.Seats[tt.c.Seat]; s.Name != want.Name || s.Bot != want.Bot || r.Write.Taken.Bot != want.Bot ||
					r.Write.Taken.Name != want.Name || r.Write.Seat != tt.c.Seat || m.Status != store.StatusOpen || !r.Expiry {
					t.Errorf("seat %d after the change: %+v, written %+v, status %s, expiry %v; want %+v, still open",
						tt.c.Seat, s, r.Write.Taken, m.Status, r.Expiry, want)
				}
			case match.CloseTable:
				if m.Status != store.StatusCancelled || r.Write.Status != store.StatusCancelled {
					t.Errorf("status %s, written %s; want cancelled", m.Status, r.Write.Status)
				}
			}
		})
	}
}

func TestExpire(t *testing.T) {
	const ttl = time.Hour
	m := newMatch(t, "untimed", false, "", "")
	if r := m.Expire(t0.Add(ttl-time.Second), ttl); r.Write.Kind != match.NoWrite || !r.Expiry {
		t.Errorf("before its time: %+v, want only the expiry armed again", r)
	}
	r := m.Expire(t0.Add(ttl), ttl)
	if r.Write.Kind != match.CloseTable || r.Write.Status != store.StatusExpired || !r.Broadcast {
		t.Fatalf("at its time: %+v, want the table closed as expired", r)
	}
	m.Apply(r, t0.Add(ttl))
	if m.Status != store.StatusExpired {
		t.Errorf("status %s, want expired", m.Status)
	}
	if r := m.Expire(t0.Add(2*ttl), ttl); r.Write.Kind != match.NoWrite || r.Expiry {
		t.Errorf("an expired table expires again: %+v", r)
	}

	// A seat taken starts the wait again.
	m = newMatch(t, "untimed", false, "", "")
	if r := must(t, m, join("Ann", 0), t0.Add(ttl/2)); !r.Expiry {
		t.Errorf("a join does not ask for the expiry again: %+v", r.Effects)
	}
	if r := m.Expire(t0.Add(ttl), ttl); r.Write.Kind != match.NoWrite || !r.Expiry {
		t.Errorf("an hour after its creation, half an hour after a join: %+v, want the wait started again", r)
	}
	if r := m.Expire(t0.Add(ttl/2+ttl), ttl); r.Write.Kind != match.CloseTable {
		t.Errorf("an hour after the join: %+v, want the table closed", r)
	}
}

func TestPlayRefused(t *testing.T) {
	open := newMatch(t, "untimed", false, "", "")
	must(t, open, join("Ann", 0), t0)
	m := started(t, "untimed")
	toMove := m.Seats[m.Game.ToMove()].Name
	other := m.Seats[1-m.Game.ToMove()].Name
	tests := []struct {
		name string
		m    *match.Match
		c    match.Command
		want error
	}{
		{"no seat", m, match.Command{Kind: match.Play, Hash: hash("Eve"), Move: "draw", Seq: -1}, match.ErrNotYourSeat},
		{"no token", m, match.Command{Kind: match.Play, Move: "draw", Seq: -1}, match.ErrNotYourSeat},
		{"not started", open, match.Command{Kind: match.Play, Hash: hash("Ann"), Move: "draw", Seq: -1}, match.ErrNotStarted},
		{"R3 not your turn", m, match.Command{Kind: match.Play, Hash: hash(other), Move: "draw", Seq: 0}, match.ErrNotYourTurn},
		{"stale seq", m, match.Command{Kind: match.Play, Hash: hash(toMove), Move: "draw", Seq: 3}, match.ErrStale},
		{"not a move", m, match.Command{Kind: match.Play, Hash: hash(toMove), Move: "jump", Seq: 0}, match.ErrIllegalMove},
		{"R7 the server draws the card", m, match.Command{Kind: match.Play, Hash: hash(toMove), Move: "draw police", Seq: 0}, match.ErrIllegalMove},
		{"R10 no bid outside an auction", m, match.Command{Kind: match.Play, Hash: hash(toMove), Move: "bid 16", Seq: 0}, match.ErrIllegalMove},
		{"unknown kind", m, match.Command{Kind: "rematch-v9", Hash: hash(toMove)}, match.ErrUnsupported},
		{"no kind", m, match.Command{Hash: hash(toMove)}, match.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			outcome(t, tt.m, tt.c, t0, tt.want)
		})
	}
}

func TestPlay(t *testing.T) {
	m := started(t, "untimed")
	mover := m.Game.ToMove()
	r := must(t, m, play(m, "draw"), t0.Add(time.Second))
	w := r.Write
	if w.Kind != match.AppendMove || w.Index != 0 || w.Status != store.StatusPlaying || w.Clock == nil {
		t.Fatalf("write %+v, want move 0 appended with the clock", w)
	}
	// R7: the card is drawn by the server, once, and stored with the move.
	if !strings.HasPrefix(w.Move, "draw ") || m.Game.Moves()[0].String() != w.Move {
		t.Errorf("stored %q, played %v: want the drawn card named and the same", w.Move, m.Game.Moves()[0])
	}
	if !r.Broadcast || !r.Bots || !r.Clock || !r.PreMove || r.Finished || r.Turn == nil || *r.Turn != (match.Turn{Moves: 1, Mover: mover}) {
		t.Errorf("effects %+v", r.Effects)
	}
	if m.Moves() != 1 || !m.Updated.Equal(t0.Add(time.Second)) {
		t.Errorf("applied: %d moves, updated %v", m.Moves(), m.Updated)
	}
}

// TestPlayToTheEnd plays a game of two people to its end (R14, R18): the
// last move is stored as finishing it, and a move after it is refused.
func TestPlayToTheEnd(t *testing.T) {
	m := started(t, "untimed")
	var last match.Result
	for now := t0; !m.Game.Over(); now = now.Add(time.Second) {
		last = must(t, m, play(m, bot.Default(m.Game.LegalMoves()).String()), now)
		if m.Moves() > 2000 {
			t.Fatal("the game does not end")
		}
	}
	if last.Write.Status != store.StatusFinished || !last.Finished || m.Status != store.StatusFinished {
		t.Errorf("the last move: write %+v, finished %v, status %s", last.Write, last.Finished, m.Status)
	}
	_, err := decide(t, m, match.Command{Kind: match.Play, Hash: hash("Ann"), Move: "draw", Seq: -1}, t0)
	if got := reason(t, err); got != match.ErrGameOver {
		t.Errorf("a move after the end: %v, want game over", got)
	}
}

func TestBotMove(t *testing.T) {
	m := newMatch(t, "untimed", false, "easy", "easy")
	if m.Status != store.StatusPlaying {
		t.Fatalf("a table of bots is %s", m.Status)
	}
	if _, err := m.Move(razzia.Bid(99), t0); reason(t, err) != match.ErrIllegalMove {
		t.Errorf("an illegal bot move: %v", err)
	}
	r, err := m.Move(razzia.Draw(razzia.NoKind), t0)
	if err != nil || r.Write.Kind != match.AppendMove {
		t.Fatalf("%+v, %v", r, err)
	}
}

func TestClock(t *testing.T) {
	// blitz: 10 s a decision, then a minute of reserve.
	m := newMatch(t, "blitz", false, "", "")
	must(t, m, join("Ann", 0), t0)
	r := must(t, m, join("Bob", 1), t0.Add(time.Second))
	if !r.StartGame || !r.Clock {
		t.Fatalf("the game started without its clock: %+v", r.Effects)
	}
	resume := m.ResumeClock()
	if resume.Write.Kind != match.SetClock || resume.Write.Index != 0 {
		t.Fatalf("the first decision's clock: %+v, want it stored running", resume.Write)
	}
	m.Apply(resume, t0.Add(time.Second))
	first := m.Game.ToMove()
	if seat, at, ok := m.Timing.Clock.Running(); !ok || seat != first || !at.Equal(t0.Add(time.Second)) {
		t.Fatalf("running %d since %v (%v), want seat %d since the start", seat, at, ok, first)
	}
	if r := m.ResumeClock(); r.Write.Kind != match.NoWrite {
		t.Errorf("a running clock is started again: %+v", r.Write)
	}
	must(t, m, play(m, "draw"), t0.Add(4*time.Second))
	next := m.Game.ToMove()
	if seat, at, ok := m.Timing.Clock.Running(); !ok || seat != next || !at.Equal(t0.Add(4*time.Second)) {
		t.Errorf("after the move: running %d since %v (%v), want seat %d since the move", seat, at, ok, next)
	}
}

func TestTimeoutAndTakeBack(t *testing.T) {
	m := started(t, "blitz")
	late := m.Game.ToMove()
	deadline, ok := m.Timing.Clock.Deadline()
	if !ok {
		t.Fatal("no deadline")
	}
	if r := m.Ring(deadline.Add(-time.Second)); r.Write.Kind != match.NoWrite || !r.Clock {
		t.Errorf("the alarm before the deadline: %+v, want only the next alarm", r)
	}

	// A move at the deadline stores the timeout, then is refused.
	r, err := decide(t, m, play(m, "draw"), deadline)
	if err != nil {
		t.Fatal(err)
	}
	if r.Then == nil || r.Then.Kind != match.ErrTimedOut || r.Write.Kind != match.SetClock || r.Write.Failed == nil {
		t.Fatalf("a late move: %+v, want the timeout stored and the move refused", r)
	}
	if !slices.Equal(r.StandIn, []int{late}) || !r.Bots || !r.Broadcast {
		t.Errorf("effects %+v, want a bot for seat %d", r.Effects, late)
	}
	m.Apply(r, deadline)
	if !m.Timing.StandingIn(late) || m.PersonPlays(late) {
		t.Fatalf("seat %d: no bot stands in", late)
	}
	to := m.Timing.TakeOvers[0]
	if to.Seat != late || to.Bot != match.StandInLevel || to.Reason != "timeout" || to.Move != 0 || to.BackMove != nil {
		t.Errorf("take-over %+v", to)
	}
	if _, _, running := m.Timing.Clock.Running(); running {
		t.Error("the clock runs for a bot")
	}

	// The player's next move takes the seat back first, then is made.
	back := deadline.Add(time.Second)
	c := play(m, "draw")
	r = must(t, m, c, back)
	if !r.Again || !slices.Equal(r.Released, []int{late}) || r.Write.Kind != match.SetClock {
		t.Fatalf("the move of a stood-in seat: %+v, want the seat given back, then the move decided again", r)
	}
	if m.Timing.StandingIn(late) || *m.Timing.TakeOvers[0].BackMove != 0 {
		t.Fatalf("the seat was not given back: %+v", m.Timing.TakeOvers)
	}
	if seat, _, ok := m.Timing.Clock.Running(); !ok || seat != late {
		t.Errorf("the clock of the seat given back does not run")
	}
	if r = must(t, m, c, back); r.Again || r.Write.Kind != match.AppendMove {
		t.Errorf("decided again: %+v, want the move", r)
	}
}

func TestRingReminder(t *testing.T) {
	m := started(t, "day1")
	seat := m.Game.ToMove()
	deadline, _ := m.Timing.Clock.Deadline()
	if r := m.Ring(t0.Add(11 * time.Hour)); r.Reminder != nil || r.Write.Kind != match.NoWrite || !r.Clock {
		t.Errorf("before half-way: %+v, want only the next alarm", r)
	}
	r := m.Ring(t0.Add(13 * time.Hour))
	if r.Reminder == nil || r.Reminder.Seat != seat || r.Reminder.Left != deadline.Sub(t0.Add(13*time.Hour)) || r.Write.Kind != match.SetClock {
		t.Fatalf("half-way: %+v, want a reminder for seat %d stored as sent", r, seat)
	}
	m.Apply(r, t0.Add(13*time.Hour))
	if r := m.Ring(t0.Add(14 * time.Hour)); r.Reminder != nil || r.Write.Kind != match.NoWrite {
		t.Errorf("a reminder sent twice: %+v", r)
	}
}

func TestLeave(t *testing.T) {
	m := started(t, "blitz")
	seat := m.Game.ToMove()
	name := m.Seats[seat].Name
	leave := match.Command{Kind: match.Leave, Hash: hash(name)}
	r := must(t, m, leave, t0.Add(2*time.Second))
	if !slices.Equal(r.StandIn, []int{seat}) || r.Write.Kind != match.SetClock || r.Write.Failed == nil {
		t.Fatalf("%+v, want a bot for seat %d", r, seat)
	}
	if to := m.Timing.TakeOvers[0]; to.Reason != "left" || to.Seat != seat {
		t.Errorf("take-over %+v", to)
	}
	if _, _, running := m.Timing.Clock.Running(); running {
		t.Error("the clock of a seat left runs on")
	}
	if r := must(t, m, leave, t0.Add(3*time.Second)); r.Write.Kind != match.NoWrite {
		t.Errorf("leaving twice: %+v, want nothing", r)
	}
	_, err := decide(t, m, match.Command{Kind: match.Leave, Hash: hash("Eve")}, t0)
	if reason(t, err) != match.ErrNotYourSeat {
		t.Errorf("a stranger leaves: %v", err)
	}
	_, err = decide(t, m, match.Command{Kind: match.TakeBack, Hash: hash("Eve")}, t0)
	if reason(t, err) != match.ErrNotYourSeat {
		t.Errorf("a stranger takes back: %v", err)
	}
	r = must(t, m, match.Command{Kind: match.TakeBack, Hash: hash(name)}, t0.Add(4*time.Second))
	if !slices.Equal(r.Released, []int{seat}) || m.Timing.StandingIn(seat) {
		t.Errorf("take back: %+v", r)
	}
	if r := must(t, m, match.Command{Kind: match.TakeBack, Hash: hash(name)}, t0.Add(5*time.Second)); r.Write.Kind != match.NoWrite {
		t.Errorf("taking back twice: %+v, want nothing", r)
	}
}

// auction returns a game of two people in which the first to move called
// an auction (R9): the other seat bids or passes, the caller decides last.
func auction(t *testing.T) (m *match.Match, caller, other int) {
	t.Helper()
	m = started(t, "untimed")
	caller = m.Game.ToMove()
	must(t, m, play(m, "call"), t0)
	return m, caller, 1 - caller
}

func TestPreMove(t *testing.T) {
	m, caller, other := auction(t)
	pre := func(seat int, tok string) match.Command {
		return match.Command{Kind: match.EnterPreMove, Hash: hash(m.Seats[seat].Name), Move: tok}
	}
	for _, tt := range []struct {
		name string
		c    match.Command
		want error
	}{
		{"no seat", match.Command{Kind: match.EnterPreMove, Hash: hash("Eve"), Move: "pass"}, match.ErrNotYourSeat},
		{"not a move", pre(caller, "jump"), match.ErrIllegalMove},
		{"not pass or bid", pre(caller, "draw"), match.ErrIllegalMove},
	} {
		t.Run(tt.name, func(t *testing.T) {
			outcome(t, m, tt.c, t0, tt.want)
		})
	}
	r := must(t, m, pre(caller, "pass"), t0)
	if !slices.Equal(r.Tell, []int{caller}) || r.Broadcast || r.Write.Kind != match.SetClock {
		t.Fatalf("%+v, want the pre-move stored and told its owner only", r)
	}
	if p := m.Timing.PreMoveOf(caller); p.Move != "pass" {
		t.Fatalf("stored pre-move %+v", p)
	}
	if r := m.PreMoveDue(t0); r.Write.Kind != match.NoWrite {
		t.Errorf("a pre-move is due before its seat is to move: %+v", r)
	}
	// The other seat bids: the caller's pass is due, and played.
	st := m.Game.State()
	lowest := st.FaceUp(other).Min()
	r = must(t, m, play(m, fmt.Sprint("bid ", lowest)), t0)
	if !r.PreMove {
		t.Fatal("a move does not ask for the due pre-move")
	}
	due := m.PreMoveDue(t0)
	if due.Write.Kind != match.AppendMove || due.Write.Move != "pass" {
		t.Fatalf("the due pre-move: %+v, want the pass played", due.Write)
	}
	m.Apply(due, t0)
	if p := m.Timing.PreMoveOf(caller); p != (match.StoredPreMove{}) {
		t.Errorf("a played pre-move is kept: %+v", p)
	}
}

func TestPreMoveWithdrawn(t *testing.T) {
	m, caller, _ := auction(t)
	c := match.Command{Kind: match.EnterPreMove, Hash: hash(m.Seats[caller].Name), Move: "pass"}
	must(t, m, c, t0)
	c.Move = ""
	must(t, m, c, t0)
	if len(m.Timing.PreMoves) != 0 {
		t.Errorf("withdrawn pre-move kept: %+v", m.Timing.PreMoves)
	}
}

func TestCommandEncoding(t *testing.T) {
	c := match.Command{Kind: match.Play, Game: "g1", Hash: hash("Ann"), Move: "draw", Seq: 3}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	// "op" is the name nodes of earlier versions send and read.
	if !strings.Contains(string(b), `"op":"play"`) {
		t.Errorf("encoded %s, want the kind as op", b)
	}
	var back match.Command
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Kind != c.Kind || back.Move != c.Move || back.Seq != c.Seq || string(back.Hash) != string(c.Hash) {
		t.Errorf("decoded %+v, want %+v", back, c)
	}
	level := match.Command{Kind: match.SetLevel, Game: "g1", Hash: hash("creator"), Seat: 2, Level: "hard"}
	if b, err = json.Marshal(level); err != nil {
		t.Fatal(err)
	}
	back = match.Command{}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Kind != match.SetLevel || back.Seat != 2 || back.Level != "hard" || string(back.Hash) != string(level.Hash) {
		t.Errorf("decoded %s as %+v, want %+v", b, back, level)
	}
}

// TestPreMoveDropped: a pre-move no longer legal when due is dropped, and
// its owner told why, instead of played.
func TestPreMoveDropped(t *testing.T) {
	m, caller, other := auction(t)
	st := m.Game.State()
	low, high := st.FaceUp(caller).Min(), st.FaceUp(other).Max()
	if high < low {
		t.Fatalf("the deal leaves no bid above the caller's lowest cheque %d (other's highest %d)", low, high)
	}
	must(t, m, match.Command{Kind: match.EnterPreMove, Hash: hash(m.Seats[caller].Name), Move: fmt.Sprint("bid ", low)}, t0)
	must(t, m, play(m, fmt.Sprint("bid ", high)), t0) // R10: outbid
	r := m.PreMoveDue(t0)
	if r.Write.Kind != match.SetClock || !slices.Equal(r.Tell, []int{caller}) {
		t.Fatalf("the due pre-move: %+v, want it dropped and its owner told", r)
	}
	m.Apply(r, t0)
	if p := m.Timing.PreMoveOf(caller); p.Dropped == "" || m.Moves() != 2 {
		t.Errorf("pre-move %+v after %d moves, want it kept as dropped, with why, and not played", p, m.Moves())
	}
	if r := m.PreMoveDue(t0); r.Write.Kind != match.NoWrite {
		t.Errorf("a dropped pre-move is due again: %+v", r)
	}
}

// TestClosed: a command at a table whose game is over, or an uploaded
// record, gets the refusal of a table no longer live.
func TestClosed(t *testing.T) {
	g := &store.Game{Status: store.StatusFinished, CreatorHash: hash("creator"),
		Seats: []store.Seat{{Name: "Ann", TokenHash: hash("Ann")}, {Name: "Bot 1", Bot: "easy"}}}
	for _, tt := range []struct {
		name string
		c    match.Command
		want error
	}{
		{"join", join("Cy", -1), match.ErrTableFull},
		{"remove by the creator", match.Command{Kind: match.Remove, Hash: hash("creator")}, match.ErrAlreadyStarted},
		{"remove by another", match.Command{Kind: match.Remove, Hash: hash("Ann")}, match.ErrNotCreator},
		{"cancel by the creator", match.Command{Kind: match.Cancel, Hash: hash("creator")}, match.ErrAlreadyStarted},
		{"cancel by another", match.Command{Kind: match.Cancel}, match.ErrNotCreator},
		{"a level by the creator", match.Command{Kind: match.SetLevel, Hash: hash("creator"), Seat: 1, Level: "hard"}, match.ErrAlreadyStarted},
		{"a level by another", match.Command{Kind: match.SetLevel, Hash: hash("Ann"), Seat: 1, Level: "hard"}, match.ErrNotCreator},
		{"a player's move", match.Command{Kind: match.Play, Hash: hash("Ann"), Move: "draw"}, match.ErrGameOver},
		{"a stranger's move", match.Command{Kind: match.Play, Hash: hash("Eve"), Move: "draw"}, match.ErrNotYourSeat},
		{"a player's pre-move", match.Command{Kind: match.EnterPreMove, Hash: hash("Ann"), Move: "pass"}, match.ErrGameOver},
		{"a player takes back", match.Command{Kind: match.TakeBack, Hash: hash("Ann")}, match.ErrGameOver},
		{"a player leaves", match.Command{Kind: match.Leave, Hash: hash("Ann")}, match.ErrGameOver},
		{"a player gives up the seat", match.Command{Kind: match.GiveUp, Hash: hash("Ann")}, match.ErrGameOver},
		{"a stranger gives up a seat", match.Command{Kind: match.GiveUp, Hash: hash("Eve")}, match.ErrNotYourSeat},
		{"a player continues", match.Command{Kind: match.Continue, Hash: hash("Ann")}, match.ErrGameOver},
		{"a stranger continues", match.Command{Kind: match.Continue, Hash: hash("Eve")}, match.ErrNotYourSeat},
		{"an unknown kind", match.Command{Kind: "seat-v9", Hash: hash("Ann")}, match.ErrUnsupported},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := reason(t, match.Closed(tt.c, g)); got != tt.want {
				t.Errorf("refused as %v, want %v", got, tt.want)
			}
		})
	}
}

// TestMoveAllocations: deciding a move makes its result, its timing
// stored in it, in one allocation, at every pace; a bid's token is the
// engine's own.
func TestMoveAllocations(t *testing.T) {
	for _, p := range pace.Presets() {
		m := started(t, p.ID)
		legal := m.Game.LegalMoves()
		mv := legal[len(legal)-1]
		if _, err := m.Move(mv, t0); err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(10, func() { m.Move(mv, t0) }); n != 1 {
			t.Errorf("%s: %s made %v allocations, want 1", p.ID, mv, n)
		}
	}
}
