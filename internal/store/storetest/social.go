package storetest

import (
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The checks of the people around the tables (store.Social): presence
// rows by node and connection, seen only while their node beats, swept
// with it; last sightings that only move forward; follows and blocks
// between accounts; finish marks stored once per account and game.

var socialChecks = []struct {
	name string
	run  func(t *testing.T, s store.Store)
}{
	{"PresenceRoundTrip", testPresenceRoundTrip},
	{"PresenceRejected", testPresenceRejected},
	{"PresenceDropSeen", testPresenceDropSeen},
	{"PresenceSweep", testPresenceSweep},
	{"FollowBlock", testFollowBlock},
	{"FollowBlockRejected", testFollowBlockRejected},
	{"Finishes", testFinishes},
	{"FinishesRejected", testFinishesRejected},
	{"SocialDeleteAccount", testSocialDeleteAccount},
}

// presenceRows are connections on two nodes: a signed-in player at a
// table, the same account in the lobby, a guest watching, a guest's seat
// known by its seat only.
func presenceRows(account, game string) []store.PresenceRow {
	at := base.UTC()
	return []store.PresenceRow{
		{Node: "node-a", Conn: 1, Person: "a:" + account, Account: account, Name: "Ann", Game: game, Seat: 0, Since: at},
		{Node: "node-a", Conn: 2, Person: "a:" + account, Account: account, Name: "Ann", Seat: -1, Away: true, Since: at.Add(time.Second)},
		{Node: "node-b", Conn: 1, Person: "g:5eed", Name: "Zoë 👀", Game: game, Seat: -1, Since: at.Add(2 * time.Second)},
		{Node: "node-b", Conn: 7, Game: game, Seat: 2, Since: at.Add(3 * time.Second)},
	}
}

func putPresence(t *testing.T, s store.Store, rows ...store.PresenceRow) {
	t.Helper()
	for _, r := range rows {
		if err := s.PutPresence(ctx(t), r); err != nil {
			t.Fatalf("PutPresence(%+v): %v", r, err)
		}
	}
}

func beat(t *testing.T, s store.Store, node string, expires time.Time) {
	t.Helper()
	if err := s.BeatPresence(ctx(t), node, expires); err != nil {
		t.Fatalf("BeatPresence(%s): %v", node, err)
	}
}

func presence(t *testing.T, s store.Store, now time.Time) []store.PresenceRow {
	t.Helper()
	rows, err := s.Presence(ctx(t), now)
	if err != nil {
		t.Fatalf("Presence: %v", err)
	}
	return rows
}

func samePresence(t *testing.T, what string, got, want []store.PresenceRow) {
	t.Helper()
	if !slices.EqualFunc(got, want, func(a, b store.PresenceRow) bool {
		return a.Node == b.Node && a.Conn == b.Conn && a.Person == b.Person && a.Account == b.Account && a.Name == b.Name &&
			a.Game == b.Game && a.Seat == b.Seat && a.Away == b.Away && a.Since.Equal(b.Since)
	}) {
		t.Errorf("%s = %+v\nwant %+v", what, got, want)
	}
}

// testPresenceRoundTrip: rows read back as put, only while their node
// beats; a put of the same connection replaces its row.
func testPresenceRoundTrip(t *testing.T, s store.Store) {
	ann := newAccount("Ann", 1)
	createAccount(t, s, ann)
	g := chatGame(t, s, "presence01")
	rows := presenceRows(ann.ID, g.ID)
	putPresence(t, s, rows...)
	now := base.Add(time.Minute)
	if got := presence(t, s, now); len(got) != 0 {
		t.Errorf("Presence before any beat = %+v, want none", got)
	}
	beat(t, s, "node-a", now.Add(time.Second))
	samePresence(t, "Presence with node-a beating", presence(t, s, now), rows[:2])
	beat(t, s, "node-b", now.Add(time.Second))
	samePresence(t, "Presence with both beating", presence(t, s, now), rows)
	if got := presence(t, s, now.Add(time.Second)); len(got) != 0 {
		t.Errorf("Presence at the beats' expiry = %+v, want none", got)
	}
	moved := rows[1]
	moved.Game, moved.Seat, moved.Away = g.ID, -1, false
	putPresence(t, s, moved)
	want := slices.Clone(rows)
	want[1] = moved
	samePresence(t, "Presence after a row changed", presence(t, s, now), want)
}

// testPresenceRejected: rows that cannot be right are refused and change
// nothing.
func testPresenceRejected(t *testing.T, s store.Store) {
	good := store.PresenceRow{Node: "n", Conn: 1, Person: "g:1", Name: "Kim", Seat: -1, Since: base}
	beat(t, s, "n", base.Add(time.Hour))
	for name, change := range map[string]func(r *store.PresenceRow){
		"no node":                 func(r *store.PresenceRow) { r.Node = "" },
		"negative connection":     func(r *store.PresenceRow) { r.Conn = -1 },
		"seat without a game":     func(r *store.PresenceRow) { r.Seat = 1 },
		"seat below -1":           func(r *store.PresenceRow) { r.Game, r.Seat = "g", -2 },
		"name not UTF-8":          func(r *store.PresenceRow) { r.Name = "\xff" },
		"name too long":           func(r *store.PresenceRow) { r.Name = string(make([]byte, store.MaxPresenceName+1)) },
		"account of another":      func(r *store.PresenceRow) { r.Account = "x" },
		"neither person nor seat": func(r *store.PresenceRow) { r.Person = "" },
	} {
		r := good
		change(&r)
		if err := s.PutPresence(ctx(t), r); err == nil {
			t.Errorf("PutPresence with %s: nil error", name)
		}
	}
	if err := s.BeatPresence(ctx(t), "", base); err == nil {
		t.Error("BeatPresence of no node: nil error")
	}
	if got := presence(t, s, base); len(got) != 0 {
		t.Errorf("Presence after refused rows = %+v, want none", got)
	}
}

// testPresenceDropSeen: a dropped row notes when its account and seat
// were last seen, and a sighting never moves back.
func testPresenceDropSeen(t *testing.T, s store.Store) {
	ann := newAccount("Ann", 1)
	createAccount(t, s, ann)
	g := chatGame(t, s, "presence02")
	rows := presenceRows(ann.ID, g.ID)
	putPresence(t, s, rows...)
	now := base.Add(time.Minute).UTC()
	beat(t, s, "node-a", now.Add(time.Hour))
	beat(t, s, "node-b", now.Add(time.Hour))
	for _, d := range []struct {
		node string
		conn int64
		at   time.Time
	}{{"node-a", 1, now}, {"node-a", 2, now.Add(-time.Second)}, {"node-b", 7, now.Add(2 * time.Second)}, {"node-b", 99, now.Add(time.Hour)}} {
		if err := s.DropPresence(ctx(t), d.node, d.conn, d.at); err != nil {
			t.Fatalf("DropPresence(%s, %d): %v", d.node, d.conn, err)
		}
	}
	samePresence(t, "Presence after the drops", presence(t, s, now), rows[2:3])
	seen, err := s.LastSeen(ctx(t), ann.ID, "nobody")
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || !seen[ann.ID].Equal(now) {
		t.Errorf("LastSeen = %v, want only %s at %v (the later sighting)", seen, ann.ID, now)
	}
	seats, err := s.SeatsSeen(ctx(t), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]time.Time{0: now, 2: now.Add(2 * time.Second)}
	if !maps.EqualFunc(seats, want, time.Time.Equal) {
		t.Errorf("SeatsSeen = %v, want %v", seats, want)
	}
	if seats, err := s.SeatsSeen(ctx(t), "nosuchgame"); err != nil || len(seats) != 0 {
		t.Errorf("SeatsSeen(unknown game) = %v, %v; want none", seats, err)
	}
}

// testPresenceSweep: the rows of a node whose beat expired go at the
// sweep, seen at the beat's expiry; DropNode removes a node's rows at
// once.
func testPresenceSweep(t *testing.T, s store.Store) {
	ann := newAccount("Ann", 1)
	createAccount(t, s, ann)
	g := chatGame(t, s, "presence03")
	rows := presenceRows(ann.ID, g.ID)
	putPresence(t, s, rows...)
	now := base.Add(time.Minute).UTC()
	beat(t, s, "node-a", now.Add(-time.Second)) // dead
	beat(t, s, "node-b", now.Add(time.Minute))
	gone, err := s.SweepPresence(ctx(t), now)
	if err != nil {
		t.Fatal(err)
	}
	samePresence(t, "SweepPresence", gone, rows[:2])
	samePresence(t, "Presence after the sweep", presence(t, s, now), rows[2:])
	if seen, _ := s.LastSeen(ctx(t), ann.ID); !seen[ann.ID].Equal(now.Add(-time.Second)) {
		t.Errorf("LastSeen after the sweep = %v, want the dead node's expiry %v", seen, now.Add(-time.Second))
	}
	if gone, err := s.SweepPresence(ctx(t), now); err != nil || len(gone) != 0 {
		t.Errorf("a second SweepPresence = %+v, %v; want nothing", gone, err)
	}
	// node-a comes back under its name: its beat alone shows no old row.
	beat(t, s, "node-a", now.Add(time.Minute))
	samePresence(t, "Presence with node-a back", presence(t, s, now), rows[2:])
	gone, err = s.DropNode(ctx(t), "node-b", now.Add(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	samePresence(t, "DropNode", gone, rows[2:])
	if got := presence(t, s, now); len(got) != 0 {
		t.Errorf("Presence after DropNode = %+v", got)
	}
	if seats, _ := s.SeatsSeen(ctx(t), g.ID); !seats[2].Equal(now.Add(5 * time.Second)) {
		t.Errorf("SeatsSeen after DropNode = %v", seats)
	}
}

func strs(t *testing.T, what string, f func() ([]string, error)) []string {
	t.Helper()
	got, err := f()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return got
}

// testFollowBlock: follows and blocks are kept each way, twice is once,
// and they are undone.
func testFollowBlock(t *testing.T, s store.Store) {
	a, b, c := newAccount("Ann", 1), newAccount("Bo", 2), newAccount("Cy", 3)
	for _, x := range []*store.Account{a, b, c} {
		createAccount(t, s, x)
	}
	for _, f := range [][2]string{{a.ID, b.ID}, {a.ID, c.ID}, {a.ID, b.ID}, {c.ID, b.ID}} {
		if err := s.SetFollow(ctx(t), f[0], f[1], true); err != nil {
			t.Fatalf("SetFollow(%s, %s): %v", f[0], f[1], err)
		}
	}
	if err := s.SetBlock(ctx(t), b.ID, a.ID, true); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		f    func() ([]string, error)
		want []string
	}{
		{"Following(Ann)", func() ([]string, error) { return s.Following(ctx(t), a.ID) }, []string{b.ID, c.ID}},
		{"Followers(Bo)", func() ([]string, error) { return s.Followers(ctx(t), b.ID) }, []string{a.ID, c.ID}},
		{"Following(Bo)", func() ([]string, error) { return s.Following(ctx(t), b.ID) }, nil},
		{"Blocking(Bo)", func() ([]string, error) { return s.Blocking(ctx(t), b.ID) }, []string{a.ID}},
		{"BlockedBy(Ann)", func() ([]string, error) { return s.BlockedBy(ctx(t), a.ID) }, []string{b.ID}},
		{"Blocking(Ann)", func() ([]string, error) { return s.Blocking(ctx(t), a.ID) }, nil},
	} {
		if got := strs(t, c.what, c.f); !slices.Equal(got, c.want) {
			t.Errorf("%s = %v, want %v", c.what, got, c.want)
		}
	}
	for _, err := range []error{s.SetFollow(ctx(t), a.ID, b.ID, false), s.SetFollow(ctx(t), a.ID, b.ID, false), s.SetBlock(ctx(t), b.ID, a.ID, false)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := strs(t, "Following(Ann)", func() ([]string, error) { return s.Following(ctx(t), a.ID) }); !slices.Equal(got, []string{c.ID}) {
		t.Errorf("Following(Ann) after unfollowing Bo = %v", got)
	}
	if got := strs(t, "Blocking(Bo)", func() ([]string, error) { return s.Blocking(ctx(t), b.ID) }); len(got) != 0 {
		t.Errorf("Blocking(Bo) after unblocking = %v", got)
	}
}

// testFollowBlockRejected: oneself and unknown accounts are refused and
// change nothing.
func testFollowBlockRejected(t *testing.T, s store.Store) {
	a := newAccount("Ann", 1)
	createAccount(t, s, a)
	for _, set := range []func(string, string) error{
		func(x, y string) error { return s.SetFollow(ctx(t), x, y, true) },
		func(x, y string) error { return s.SetBlock(ctx(t), x, y, true) },
	} {
		if err := set(a.ID, a.ID); !errors.Is(err, store.ErrSelf) {
			t.Errorf("of oneself: %v, want ErrSelf", err)
		}
		if err := set(a.ID, "nobody"); !errors.Is(err, store.ErrNoAccount) {
			t.Errorf("of an unknown account: %v, want ErrNoAccount", err)
		}
		if err := set("nobody", a.ID); !errors.Is(err, store.ErrNoAccount) {
			t.Errorf("by an unknown account: %v, want ErrNoAccount", err)
		}
		if err := set(a.ID, ""); err == nil {
			t.Error("of no account: nil error")
		}
	}
	for what, f := range map[string]func() ([]string, error){
		"Following": func() ([]string, error) { return s.Following(ctx(t), a.ID) },
		"Followers": func() ([]string, error) { return s.Followers(ctx(t), a.ID) },
		"Blocking":  func() ([]string, error) { return s.Blocking(ctx(t), a.ID) },
		"BlockedBy": func() ([]string, error) { return s.BlockedBy(ctx(t), a.ID) },
	} {
		if got := strs(t, what, f); len(got) != 0 {
			t.Errorf("%s after refusals = %v", what, got)
		}
	}
}

func finishes(t *testing.T, s store.Store, account string, limit int) []store.Finish {
	t.Helper()
	got, err := s.Finishes(ctx(t), account, limit)
	if err != nil {
		t.Fatalf("Finishes(%s): %v", account, err)
	}
	return got
}

func sameFinishes(t *testing.T, what string, got, want []store.Finish) {
	t.Helper()
	if !slices.EqualFunc(got, want, func(a, b store.Finish) bool {
		return a.Account == b.Account && a.Game == b.Game && a.At.Equal(b.At) && a.Left == b.Left
	}) {
		t.Errorf("%s = %+v\nwant %+v", what, got, want)
	}
}

// testFinishes: marks come back newest first, a mark stored twice keeps
// the first, a limit keeps the newest.
func testFinishes(t *testing.T, s store.Store) {
	a, b := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, a)
	createAccount(t, s, b)
	marks := []store.Finish{
		{Account: a.ID, Game: "g1", At: base, Left: false},
		{Account: b.ID, Game: "g1", At: base, Left: true},
		{Account: a.ID, Game: "g3", At: base.Add(time.Hour), Left: true},
		{Account: a.ID, Game: "g2", At: base.Add(time.Hour)},
	}
	if err := s.AddFinishes(ctx(t), marks); err != nil {
		t.Fatal(err)
	}
	again := []store.Finish{{Account: a.ID, Game: "g1", At: base.Add(time.Minute), Left: true}}
	if err := s.AddFinishes(ctx(t), again); err != nil {
		t.Fatalf("AddFinishes of a stored mark: %v", err)
	}
	sameFinishes(t, "Finishes(Ann)", finishes(t, s, a.ID, 0), []store.Finish{marks[3], marks[2], marks[0]})
	sameFinishes(t, "Finishes(Ann, 2)", finishes(t, s, a.ID, 2), []store.Finish{marks[3], marks[2]})
	sameFinishes(t, "Finishes(Bo)", finishes(t, s, b.ID, 0), marks[1:2])
	if got := finishes(t, s, "nobody", 0); len(got) != 0 {
		t.Errorf("Finishes(nobody) = %+v", got)
	}
}

// testFinishesRejected: a batch with a bad mark stores none of it.
func testFinishesRejected(t *testing.T, s store.Store) {
	a := newAccount("Ann", 1)
	createAccount(t, s, a)
	ok := store.Finish{Account: a.ID, Game: "g1", At: base}
	for name, marks := range map[string][]store.Finish{
		"unknown account": {ok, {Account: "nobody", Game: "g1", At: base}},
		"no game":         {ok, {Account: a.ID, At: base}},
		"no time":         {ok, {Account: a.ID, Game: "g2"}},
		"one game twice":  {ok, ok},
	} {
		err := s.AddFinishes(ctx(t), marks)
		if err == nil {
			t.Errorf("AddFinishes with %s: nil error", name)
		}
		if name == "unknown account" && !errors.Is(err, store.ErrNoAccount) {
			t.Errorf("AddFinishes with %s: %v, want ErrNoAccount", name, err)
		}
	}
	if got := finishes(t, s, a.ID, 0); len(got) != 0 {
		t.Errorf("Finishes after refusals = %+v, want none", got)
	}
}

// testSocialDeleteAccount: an account deleted takes its follows, blocks,
// sighting and marks with it.
func testSocialDeleteAccount(t *testing.T, s store.Store) {
	a, b := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, a)
	createAccount(t, s, b)
	for _, err := range []error{
		s.SetFollow(ctx(t), a.ID, b.ID, true), s.SetFollow(ctx(t), b.ID, a.ID, true), s.SetBlock(ctx(t), b.ID, a.ID, true),
		s.AddFinishes(ctx(t), []store.Finish{{Account: a.ID, Game: "g1", At: base}}),
		s.PutPresence(ctx(t), store.PresenceRow{Node: "n", Conn: 1, Person: "a:" + a.ID, Account: a.ID, Name: "Ann", Seat: -1, Since: base}),
		s.DropPresence(ctx(t), "n", 1, base.Add(time.Minute)),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DeleteAccount(ctx(t), a.ID, func(int) string { return "Former" }); err != nil {
		t.Fatal(err)
	}
	for what, f := range map[string]func() ([]string, error){
		"Following(Bo)": func() ([]string, error) { return s.Following(ctx(t), b.ID) },
		"Followers(Bo)": func() ([]string, error) { return s.Followers(ctx(t), b.ID) },
		"Blocking(Bo)":  func() ([]string, error) { return s.Blocking(ctx(t), b.ID) },
	} {
		if got := strs(t, what, f); len(got) != 0 {
			t.Errorf("%s after Ann was deleted = %v", what, got)
		}
	}
	if got := finishes(t, s, a.ID, 0); len(got) != 0 {
		t.Errorf("Finishes of the deleted account = %+v", got)
	}
	if seen, _ := s.LastSeen(ctx(t), a.ID); len(seen) != 0 {
		t.Errorf("LastSeen of the deleted account = %v", seen)
	}
}

// fillSocial writes a row of every copied social table for Fill.
func fillSocial(t *testing.T, s store.Store, must func(string, error), ann, bea *store.Account, game string) {
	t.Helper()
	c := ctx(t)
	must("PutPresence", s.PutPresence(c, store.PresenceRow{Node: "node-fill", Conn: 3, Person: "a:" + ann.ID, Account: ann.ID,
		Name: ann.Name, Game: game, Seat: 0, Since: base}))
	must("DropPresence", s.DropPresence(c, "node-fill", 3, base.Add(time.Hour)))
	must("SetFollow", s.SetFollow(c, ann.ID, bea.ID, true))
	must("SetBlock", s.SetBlock(c, bea.ID, ann.ID, true))
	must("AddFinishes", s.AddFinishes(c, []store.Finish{{Account: ann.ID, Game: game, At: base, Left: true}}))
}
