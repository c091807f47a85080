package director

import (
	"errors"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestRefusals: every bad request is refused with its code and changes
// nothing stored.
func TestRefusals(t *testing.T) {
	h := newHarness(t, memstore.New())
	n := h.addNode("n1", time.Minute)
	ps := h.people(7)
	d := n.dir
	create := func(set protocol.TournamentSettings) string {
		t.Helper()
		v, err := d.Create(h.ctx, ps[0], set)
		if err != nil {
			t.Fatal(err)
		}
		return v.ID
	}
	private := create(protocol.TournamentSettings{Name: "Club", Format: "swiss", TableSize: 3, MaxPlayers: 3, Password: "door code"})
	limited := create(protocol.TournamentSettings{Name: "Strong only", Format: "swiss", TableSize: 3, MinRating: 1600})
	dup := create(protocol.TournamentSettings{Name: "Dup", Format: "duplicate", TableSize: 4})
	for _, p := range ps[:3] {
		if err := d.Join(h.ctx, private, p, "door code"); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Join(h.ctx, dup, ps[1], ""); err != nil {
		t.Fatal(err)
	}
	if err := d.Organise(h.ctx, private, ps[0], protocol.ActionRemove, "p3"); err != nil {
		t.Fatal(err)
	}
	started := h.start(n, protocol.TournamentSettings{Name: "Started", Format: "swiss", TableSize: 2, BreakSeconds: zero()}, ps[:2])
	h.until(d, started, "its start", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentRunning })
	ended := create(protocol.TournamentSettings{Name: "Ended", Format: "arena", TableSize: 2})
	if err := d.Organise(h.ctx, ended, ps[0], protocol.ActionEnd, ""); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		id   string
		do   func(id string) error
		want error
	}{
		{"a guest joins", private, func(id string) error { return d.Join(h.ctx, id, Person{}, "door code") }, ErrSignIn},
		{"no password", private, func(id string) error { return d.Join(h.ctx, id, ps[4], "") }, ErrPassword},
		{"a wrong password", private, func(id string) error { return d.Join(h.ctx, id, ps[4], "door") }, ErrPassword},
		{"a second join", private, func(id string) error { return d.Join(h.ctx, id, ps[1], "door code") }, ErrJoined},
		{"removed", private, func(id string) error { return d.Join(h.ctx, id, ps[2], "door code") }, ErrRemoved},
		{"full", private, func(id string) error {
			if err := d.Join(h.ctx, id, ps[3], "door code"); err != nil {
				return err
			}
			return d.Join(h.ctx, id, ps[4], "door code")
		}, ErrFull},
		{"below the rating", limited, func(id string) error { return d.Join(h.ctx, id, ps[4], "") }, ErrLimits},
		{"started", started, func(id string) error { return d.Join(h.ctx, id, ps[4], "") }, ErrStarted},
		{"over", ended, func(id string) error { return d.Join(h.ctx, id, ps[4], "") }, ErrOver},
		{"no such tournament", "nosuchtour", func(id string) error { return d.Join(h.ctx, id, ps[4], "") }, ErrNotFound},
		{"a bad id", "../../etc", func(id string) error { return d.Join(h.ctx, id, ps[4], "") }, ErrNotFound},
		{"someone else starts", dup, func(id string) error { return d.Organise(h.ctx, id, ps[1], protocol.ActionStart, "") }, ErrNotOrganiser},
		{"someone else removes", dup, func(id string) error { return d.Organise(h.ctx, id, ps[1], protocol.ActionRemove, "p2") }, ErrNotOrganiser},
		{"too few to start", dup, func(id string) error { return d.Organise(h.ctx, id, ps[0], protocol.ActionStart, "") }, ErrTooFew},
		{"started twice", started, func(id string) error { return d.Organise(h.ctx, id, ps[0], protocol.ActionStart, "") }, ErrStarted},
		{"an unknown action", dup, func(id string) error { return d.Organise(h.ctx, id, ps[0], "explode", "") }, ErrBadAction},
		{"removing nobody", dup, func(id string) error { return d.Organise(h.ctx, id, ps[0], protocol.ActionRemove, "zed") }, ErrNotJoined},
		{"withdraw without joining", dup, func(id string) error { return d.Play(h.ctx, id, ps[5], protocol.ActionWithdraw) }, ErrNotJoined},
		{"an organiser's action on an ended one", ended, func(id string) error { return d.Organise(h.ctx, id, ps[0], protocol.ActionPause, "") }, ErrOver},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := h.st.Tournament(h.ctx, tc.id)
			err := tc.do(tc.id)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			code, _ := protocol.CodeOf(err)
			if want, _ := protocol.CodeOf(tc.want); code != want {
				t.Errorf("code %s, want %s", code, want)
			}
			after, _ := h.st.Tournament(h.ctx, tc.id)
			if before != nil && after.Version != before.Version && tc.name != "full" {
				t.Errorf("refused, yet the tournament changed: version %d to %d", before.Version, after.Version)
			}
		})
	}
	for name, set := range map[string]protocol.TournamentSettings{
		"no name":                          {Format: "swiss", TableSize: 4},
		"a long name":                      {Name: string(make([]rune, 61)), Format: "swiss", TableSize: 4},
		"a hidden mark":                    {Name: "Club\u202enight", Format: "swiss", TableSize: 4},
		"no format":                        {Name: "x", TableSize: 4},
		"a table of 6":                     {Name: "x", Format: "swiss", TableSize: 6},
		"a table of 1":                     {Name: "x", Format: "arena", TableSize: 1},
		"untimed":                          {Name: "x", Format: "swiss", TableSize: 4, Pace: "untimed"},
		"by the day":                       {Name: "x", Format: "swiss", TableSize: 4, Pace: "day1"},
		"21 rounds":                        {Name: "x", Format: "swiss", TableSize: 4, Rounds: 21},
		"an arena's rounds":                {Name: "x", Format: "arena", TableSize: 4, Rounds: 3},
		"5 minutes":                        {Name: "x", Format: "arena", TableSize: 4, Minutes: 5},
		"a swiss' minutes":                 {Name: "x", Format: "swiss", TableSize: 4, Minutes: 30},
		"in the past":                      {Name: "x", Format: "swiss", TableSize: 4, Start: ptr(h.clock.Now().Add(-time.Hour))},
		"ratings upside down":              {Name: "x", Format: "swiss", TableSize: 4, MinRating: 1800, MaxRating: 1500},
		"finish rate without rates":        {Name: "x", Format: "swiss", TableSize: 4, MinFinishRate: 80},
		"1 player":                         {Name: "x", Format: "swiss", TableSize: 4, MaxPlayers: 1},
		"duplicate for fewer than a table": {Name: "x", Format: "duplicate", TableSize: 5, MaxPlayers: 4},
		"an unknown absent rule":           {Name: "x", Format: "swiss", TableSize: 4, Absent: "shrug"},
		"an unknown too-few rule":          {Name: "x", Format: "swiss", TableSize: 4, TooFew: "sulk"},
	} {
		before, _ := h.st.ListTournaments(h.ctx, nil, 0)
		if _, err := d.Create(h.ctx, ps[0], set); !errors.Is(err, ErrSettings) {
			t.Errorf("%s: %v, want ErrSettings", name, err)
		}
		if after, _ := h.st.ListTournaments(h.ctx, nil, 0); len(after) != len(before) {
			t.Errorf("%s: refused, yet stored", name)
		}
	}
	if _, err := d.Create(h.ctx, Person{}, protocol.TournamentSettings{Name: "x", Format: "swiss", TableSize: 4}); !errors.Is(err, ErrSignIn) {
		t.Errorf("a guest creates: %v", err)
	}
	// A tournament that cannot start when its time comes is cancelled, as
	// its organiser chose, or waits.
	start := h.clock.Now().Add(time.Hour)
	cancelled := create(protocol.TournamentSettings{Name: "Cancelled", Format: "swiss", TableSize: 4, Start: &start, TooFew: protocol.TooFewCancel})
	waits := create(protocol.TournamentSettings{Name: "Waits", Format: "swiss", TableSize: 4, Start: &start})
	if err := d.Join(h.ctx, waits, ps[5], ""); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(time.Hour)
	h.until(d, cancelled, "its cancellation", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentCancelled })
	if err := d.Join(h.ctx, waits, ps[6], ""); err != nil {
		t.Fatal(err)
	}
	h.until(d, waits, "its start once two joined", func(v protocol.Tournament) bool { return v.Status == protocol.TournamentRunning })
	rec, _ := h.st.Tournament(h.ctx, waits)
	if rec.Status != store.TournamentRunning {
		t.Errorf("stored %s", rec.Status)
	}
}

func ptr[T any](v T) *T { return &v }

// TestOrganiseBound: an account organises at most MaxOrganised
// tournaments at once; one ended makes room.
func TestOrganiseBound(t *testing.T) {
	h := newHarness(t, memstore.New())
	n := h.addNode("n1", time.Minute)
	org := h.people(1)[0]
	set := protocol.TournamentSettings{Name: "Many", Format: "swiss", TableSize: 2}
	var first string
	for i := range MaxOrganised {
		v, err := n.dir.Create(h.ctx, org, set)
		if err != nil {
			t.Fatalf("tournament %d: %v", i+1, err)
		}
		if first == "" {
			first = v.ID
		}
	}
	if _, err := n.dir.Create(h.ctx, org, set); !errors.Is(err, ErrTooMany) {
		t.Fatalf("one more: %v, want ErrTooMany", err)
	}
	if err := n.dir.Organise(h.ctx, first, org, protocol.ActionEnd, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := n.dir.Create(h.ctx, org, set); err != nil {
		t.Errorf("after one ended: %v", err)
	}
}
