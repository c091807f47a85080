package director

import (
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestControls: the break between rounds counts down; the organiser
// holds the next round and lets it go; a player sits a round out; the
// organiser removes one (out of the standings); the organiser ends it
// mid-round, and the games under way finish and count.
func TestControls(t *testing.T) {
	h := newHarness(t, memstore.New())
	n := h.addNode("n1", time.Minute)
	ps := h.people(5)
	d := n.dir
	brk := 60
	id := h.start(n, protocol.TournamentSettings{Name: "Controls", Format: "swiss", TableSize: 2, Rounds: 4, BreakSeconds: &brk}, ps)
	round := func(r int) protocol.Tournament {
		t.Helper()
		return h.until(d, id, "round seated", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == r && ready(v) })
	}
	names := func(v protocol.Tournament, r int) []string {
		var out []string
		for _, tb := range v.RoundsPlayed[r-1].Tables {
			for _, s := range tb.Seats {
				out = append(out, s.Name)
			}
		}
		return out
	}
	v := round(1)
	h.playRound(n, v)
	v = h.until(d, id, "the break", func(v protocol.Tournament) bool { return v.Next != nil })
	if want := h.clock.Now().Add(time.Minute); !v.Next.Equal(want) {
		t.Errorf("the next round at %v, want a minute after the round ended (%v)", v.Next, want)
	}
	// Held: the break passes, no round 2.
	if err := d.Organise(h.ctx, id, ps[0], protocol.ActionPause, ""); err != nil {
		t.Fatal(err)
	}
	if err := d.Play(h.ctx, id, ps[4], protocol.ActionPause); err != nil { // p5 sits out
		t.Fatal(err)
	}
	h.clock.Advance(2 * time.Minute)
	v = h.until(d, id, "held", func(v protocol.Tournament) bool { return v.Paused })
	if len(v.RoundsPlayed) != 1 {
		t.Fatalf("round 2 seated while held")
	}
	if err := d.Organise(h.ctx, id, ps[0], protocol.ActionResume, ""); err != nil {
		t.Fatal(err)
	}
	v = round(2)
	if got := names(v, 2); len(got) != 4 || slices.Contains(got, "p5") {
		t.Errorf("round 2 seats %v; p5 sits out", got)
	}
	// p2 removed mid-round: the game goes on; p2 is out of the standings.
	if err := d.Organise(h.ctx, id, ps[0], protocol.ActionRemove, "p2"); err != nil {
		t.Fatal(err)
	}
	if err := d.Play(h.ctx, id, ps[4], protocol.ActionResume); err != nil {
		t.Fatal(err)
	}
	h.playRound(n, v)
	v = h.until(d, id, "the second break", func(v protocol.Tournament) bool { return v.Next != nil })
	h.clock.Advance(v.Next.Sub(h.clock.Now()))
	v = round(3)
	if got := names(v, 3); len(got) != 4 || slices.Contains(got, "p2") || !slices.Contains(got, "p5") {
		t.Errorf("round 3 seats %v; p2 removed, p5 back", got)
	}
	if slices.ContainsFunc(v.Ranking, func(l protocol.TournamentLine) bool { return l.Name == "p2" }) {
		t.Errorf("the removed p2 is in the standings")
	}
	// Ended mid-round: round 3 finishes, counts, and no round 4.
	if err := d.Organise(h.ctx, id, ps[0], protocol.ActionEnd, ""); err != nil {
		t.Fatal(err)
	}
	h.playRound(n, v)
	v = h.until(d, id, "the end", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentFinished })
	if len(v.RoundsPlayed) != 3 {
		t.Errorf("%d rounds played, want 3: ended during the third", len(v.RoundsPlayed))
	}
	for _, l := range v.Ranking {
		if l.Name == "p1" && l.Games != 3 {
			t.Errorf("p1 played %d games, want 3 (the third counted)", l.Games)
		}
	}
}

// TestTooFewPaused: a round that too few can play while others sit out
// waits for them to come back, rather than ending the tournament.
func TestTooFewPaused(t *testing.T) {
	h := newHarness(t, memstore.New())
	n := h.addNode("n1", time.Minute)
	ps := h.people(4)
	id := h.start(n, protocol.TournamentSettings{Name: "Few", Format: "duplicate", TableSize: 2, Rounds: 2, BreakSeconds: zero()}, ps)
	v := h.until(n.dir, id, "round 1", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 1 && ready(v) })
	for _, p := range ps[:3] {
		if err := n.dir.Play(h.ctx, id, p, protocol.ActionPause); err != nil {
			t.Fatal(err)
		}
	}
	h.playRound(n, v)
	v = h.until(n.dir, id, "round 1 over", func(v protocol.Tournament) bool { return len(v.RoundsPlayed[0].Deals) == 1 })
	if v.Status != protocol.TournamentRunning || len(v.RoundsPlayed) != 1 {
		t.Fatalf("with one player left: %s, %d rounds; want it waiting for the others", v.Status, len(v.RoundsPlayed))
	}
	if err := n.dir.Play(h.ctx, id, ps[0], protocol.ActionResume); err != nil {
		t.Fatal(err)
	}
	h.until(n.dir, id, "round 2 once two play", func(v protocol.Tournament) bool { return len(v.RoundsPlayed) == 2 })
}
