// Package storetest is the suite every implementation of store.Store must
// pass. An implementation's test calls Run, or RunDurable when what it
// stores outlives Close.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// Run runs the suite against fresh stores made by open. Each check opens
// its own store, which must be empty; the suite closes it. The checks run
// in parallel, each on its own store. A store that is a store.Copier
// passes RunCopy's checks too.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	for _, c := range slices.Concat(checks, analysisChecks, chatChecks, socialChecks, tournamentChecks) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			c.run(t, s)
		})
	}
	t.Run("Copy", func(t *testing.T) {
		t.Parallel()
		probe := open(t)
		_, ok := probe.(Copyable)
		if err := probe.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if !ok {
			t.Skipf("SKIPPED: %T keeps no database schema to copy (store.Copier)", probe)
		}
		RunCopy(t, func(t *testing.T) Copyable { return open(t).(Copyable) })
	})
}

// RunDurable runs Run and then checks that the data survives Close. open
// must return the store kept at path, an empty one when nothing is there
// yet; the suite chooses the paths (inside t.TempDir) and opens some twice.
func RunDurable(t *testing.T, open func(t *testing.T, path string) store.Store) {
	Run(t, func(t *testing.T) store.Store {
		return open(t, filepath.Join(t.TempDir(), "store"))
	})
	t.Run("Reopen", func(t *testing.T) { testReopen(t, open) })
	t.Run("AnalysisReopen", func(t *testing.T) { testAnalysisReopen(t, open) })
	t.Run("PushKeysKept", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "store")
		PushKeysKept(t, func(t *testing.T) store.Store { return open(t, path) })
	})
}

var checks = []struct {
	name string
	run  func(t *testing.T, s store.Store)
}{
	{"RoundTrip", testRoundTrip},
	{"NoAliasing", testNoAliasing},
	{"EmptyMoves", testEmptyMoves},
	{"CreatedFilledIn", testCreatedFilledIn},
	{"Unicode", testUnicode},
	{"NotFound", testNotFound},
	{"DuplicateID", testDuplicateID},
	{"BadGame", testBadGame},
	{"TakeSeat", testTakeSeat},
	{"TakeSeatRejected", testTakeSeatRejected},
	{"Creator", testCreator},
	{"FreeSeat", testFreeSeat},
	{"FreeSeatRejected", testFreeSeatRejected},
	{"SetSeatBot", testSetSeatBot},
	{"SetSeatBotRejected", testSetSeatBotRejected},
	{"CloseTable", testCloseTable},
	{"ClosedTableRefusesWrites", testClosedTableRefusesWrites},
	{"AppendInOrder", testAppendInOrder},
	{"AppendWrongIndex", testAppendWrongIndex},
	{"AppendAfterEnd", testAppendAfterEnd},
	{"Canceled", testCanceled},
	{"List", testList},
	{"ListOrderFollowsUpdates", testListOrderFollowsUpdates},
	{"ConcurrentAppend", testConcurrentAppend},
	{"ConcurrentGames", testConcurrentGames},
	{"MovesSince", testMovesSince},
	{"DeltasSince", testDeltasSince},
	{"LeaseAcquire", testLeaseAcquire},
	{"LeaseFencedWrites", testLeaseFencedWrites},
	{"LeaseTakeOver", testLeaseTakeOver},
	{"LeaseRenewRelease", testLeaseRenewRelease},
	{"LeaseRace", testLeaseRace},
	{"RenewLeases", testRenewLeases},
	{"Unowned", testUnowned},
	{"CreateOwned", testCreateOwned},
	{"CreateOwnedNeverUnowned", testCreateOwnedNeverUnowned},
	{"Clock", testClock},
	{"ClockRejected", testClockRejected},
	{"Cancelled", testCancelled},
	{"Rematch", testRematch},
	{"Changes", testChanges},
	{"ChangesAfterCommit", testChangesAfterCommit},
	{"AskNamed", testAskNamed},
	{"PublishSubscribe", testPublishSubscribe},
	{"Hear", testHear},
	{"Health", testHealth},
	{"CloseEndsSubscriptions", testCloseEndsSubscriptions},
}

// base is a fixed past moment; every fixture time is after it.
var base = time.Date(2025, time.March, 14, 15, 9, 26, 535897932, time.FixedZone("CET", 3600))

// hash returns a token hash made of b.
func hash(b byte) []byte { return bytes.Repeat([]byte{b}, 32) }

// newGame returns a three-seat table: an open seat, a bot, and a person.
func newGame(id string, status store.Status, age time.Duration) *store.Game {
	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = byte(i * 37) // includes 0x00 and bytes over 0x7f
	}
	return &store.Game{
		ID:     id,
		Status: status,
		Seats: []store.Seat{
			{},
			{Name: "Bot (hard)", Bot: "hard"},
			{Name: "Ann", TokenHash: hash(0xa1)},
		},
		Cheques: [][]int{{2, 7, 11}, {3, 6, 10}, {4, 5, 9}},
		Seed:    seed,
		Created: base.Add(age),
		Updated: base.Add(age + time.Second),
	}
}

func ctx(t *testing.T) context.Context { return t.Context() }

func create(t *testing.T, s store.Store, g *store.Game) {
	t.Helper()
	if err := s.CreateGame(ctx(t), g.Clone()); err != nil {
		t.Fatalf("CreateGame(%s): %v", g.ID, err)
	}
}

func get(t *testing.T, s store.Store, id string) *store.Game {
	t.Helper()
	g, err := s.Game(ctx(t), id)
	if err != nil {
		t.Fatalf("Game(%s): %v", id, err)
	}
	if g == nil {
		t.Fatalf("Game(%s) = nil, nil", id)
	}
	return g
}

func appendMove(t *testing.T, s store.Store, id string, index int, token string, st store.Status) {
	t.Helper()
	if err := s.AppendMove(ctx(t), id, store.NoFence, index, token, st); err != nil {
		t.Fatalf("AppendMove(%s, %d, %q): %v", id, index, token, err)
	}
}

// diffGame lists how got differs from want; times compare as instants.
func diffGame(got, want *store.Game) []string {
	var d []string
	if got.ID != want.ID {
		d = append(d, fmt.Sprintf("ID = %q, want %q", got.ID, want.ID))
	}
	if got.Status != want.Status {
		d = append(d, fmt.Sprintf("Status = %q, want %q", got.Status, want.Status))
	}
	if got.Rated != want.Rated {
		d = append(d, fmt.Sprintf("Rated = %t, want %t", got.Rated, want.Rated))
	}
	d = append(d, diffSeats(got.Seats, want.Seats, true)...)
	if !slices.EqualFunc(got.Cheques, want.Cheques, slices.Equal) {
		d = append(d, fmt.Sprintf("Cheques = %v, want %v", got.Cheques, want.Cheques))
	}
	if !bytes.Equal(got.Seed, want.Seed) {
		d = append(d, fmt.Sprintf("Seed = %x, want %x", got.Seed, want.Seed))
	}
	if !slices.Equal(got.Moves, want.Moves) {
		d = append(d, fmt.Sprintf("Moves = %q, want %q", got.Moves, want.Moves))
	}
	if !got.Created.Equal(want.Created) {
		d = append(d, fmt.Sprintf("Created = %v, want %v", got.Created, want.Created))
	}
	if !got.Updated.Equal(want.Updated) {
		d = append(d, fmt.Sprintf("Updated = %v, want %v", got.Updated, want.Updated))
	}
	if got.RematchOf != want.RematchOf || !bytes.Equal(got.Rematch, want.Rematch) {
		d = append(d, fmt.Sprintf("RematchOf, Rematch = %q, %q; want %q, %q", got.RematchOf, got.Rematch, want.RematchOf, want.Rematch))
	}
	if !bytes.Equal(got.Clock, want.Clock) || (got.Clock == nil) != (want.Clock == nil) {
		d = append(d, fmt.Sprintf("Clock = %q (nil %t), want %q (nil %t)", got.Clock, got.Clock == nil, want.Clock, want.Clock == nil))
	}
	// nil, not empty, for no creator: the documented zero value.
	if !bytes.Equal(got.CreatorHash, want.CreatorHash) || (got.CreatorHash == nil) != (want.CreatorHash == nil) {
		d = append(d, fmt.Sprintf("CreatorHash = %x (nil %t), want %x (nil %t)",
			got.CreatorHash, got.CreatorHash == nil, want.CreatorHash, want.CreatorHash == nil))
	}
	return d
}

func diffSeats(got, want []store.Seat, hashes bool) []string {
	if len(got) != len(want) {
		return []string{fmt.Sprintf("%d seats, want %d", len(got), len(want))}
	}
	var d []string
	for i := range got {
		g, w := got[i], want[i]
		if g.Name != w.Name || g.Bot != w.Bot || g.Account != w.Account {
			d = append(d, fmt.Sprintf("seat %d = %q bot %q account %q, want %q bot %q account %q", i, g.Name, g.Bot, g.Account, w.Name, w.Bot, w.Account))
		}
		if !hashes {
			w.TokenHash = nil
		}
		// nil, not empty, for no hash: the documented zero value.
		if !bytes.Equal(g.TokenHash, w.TokenHash) || (g.TokenHash == nil) != (w.TokenHash == nil) {
			d = append(d, fmt.Sprintf("seat %d TokenHash = %x (nil %t), want %x (nil %t)",
				i, g.TokenHash, g.TokenHash == nil, w.TokenHash, w.TokenHash == nil))
		}
	}
	return d
}

func checkGame(t *testing.T, s store.Store, want *store.Game) {
	t.Helper()
	got := get(t, s, want.ID)
	for _, d := range diffGame(got, want) {
		t.Errorf("game %s: %s", want.ID, d)
	}
}

func testRoundTrip(t *testing.T, s store.Store) {
	playing := newGame("k3x9q2m7ab", store.StatusPlaying, 0)
	playing.Seats[0] = store.Seat{Name: "Bo", TokenHash: hash(0xb0)}
	archived := newGame("archived01", store.StatusArchived, time.Minute)
	archived.Seats = append(archived.Seats, store.Seat{Name: "Cy", TokenHash: hash(0)}, store.Seat{Name: "Di", Bot: "mcts:n=200"})
	archived.Cheques = [][]int{{2, 7}, {3, 6}, {4, 5}, {8, 9}, {10, 11}}
	archived.Moves = []string{"draw", "draw police", "bid 9", "pass", "call", "take"}
	for _, g := range []*store.Game{playing, archived} {
		create(t, s, g)
	}
	for _, g := range []*store.Game{playing, archived} {
		checkGame(t, s, g)
	}
}

func testNoAliasing(t *testing.T, s store.Store) {
	want := newGame("alias00001", store.StatusPlaying, 0)
	want.Moves = []string{"draw"}
	g := want.Clone()
	if err := s.CreateGame(ctx(t), g); err != nil {
		t.Fatal(err)
	}
	// Changing what was passed in, or what came out, must not reach the store.
	g.Seats[1].Name, g.Seats[2].TokenHash[0], g.Cheques[0][0], g.Seed[0], g.Moves[0] = "x", 0, 99, 99, "x"
	out := get(t, s, want.ID)
	out.Seats[1].Name, out.Seats[2].TokenHash[0], out.Cheques[0][0], out.Seed[0], out.Moves[0] = "y", 1, 98, 98, "y"
	h := hash(0xc3)
	if err := s.TakeSeat(ctx(t), want.ID, store.NoFence, 0, store.Seat{Name: "Eve", TokenHash: h}, store.StatusPlaying); err != nil {
		t.Fatal(err)
	}
	h[0] = 0
	want.Seats[0] = store.Seat{Name: "Eve", TokenHash: hash(0xc3)}
	got := get(t, s, want.ID)
	want.Updated = got.Updated // TakeSeat set it; other checks cover its value
	for _, d := range diffGame(got, want) {
		t.Errorf("after changing the caller's copies: %s", d)
	}
}

func testEmptyMoves(t *testing.T, s store.Store) {
	for i, moves := range [][]string{nil, {}} {
		g := newGame(fmt.Sprintf("empty%05d", i), store.StatusOpen, 0)
		g.Moves = moves
		create(t, s, g)
		if got := get(t, s, g.ID); len(got.Moves) != 0 {
			t.Errorf("Moves %#v stored as %q", moves, got.Moves)
		}
	}
	sums, err := s.List(ctx(t), store.StatusOpen, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, sum := range sums {
		if sum.Moves != 0 {
			t.Errorf("List: %s has %d moves, want 0", sum.ID, sum.Moves)
		}
	}
	if len(sums) != 2 {
		t.Errorf("List found %d games, want 2", len(sums))
	}
}

func testCreatedFilledIn(t *testing.T, s store.Store) {
	g := newGame("nowgame001", store.StatusOpen, 0)
	g.Created, g.Updated = time.Time{}, time.Time{}
	before := time.Now()
	if err := s.CreateGame(ctx(t), g); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	for name, tm := range map[string]time.Time{"Created": g.Created, "Updated": g.Updated} {
		if tm.Before(before.Add(-time.Second)) || tm.After(after.Add(time.Second)) {
			t.Errorf("%s set to %v, want about %v", name, tm, before)
		}
	}
	checkGame(t, s, g)
}

func testUnicode(t *testing.T, s store.Store) {
	names := []string{"Zoë", "山田太郎", "Ülkü 🎲🃏", "עברית", "a\u200db", "'; DROP TABLE games; --", `"quoted" \ back`}
	g := newGame("unicode001", store.StatusOpen, 0)
	g.Seats = make([]store.Seat, len(names))
	g.Seats[1] = store.Seat{Name: "Ålborg 🤖", Bot: "médium"}
	g.Cheques = make([][]int, len(names))
	create(t, s, g)
	for i, name := range names {
		if i == 1 {
			continue
		}
		if err := s.TakeSeat(ctx(t), g.ID, store.NoFence, i, store.Seat{Name: name, TokenHash: hash(byte(i))}, store.StatusOpen); err != nil {
			t.Fatalf("TakeSeat %q: %v", name, err)
		}
		g.Seats[i] = store.Seat{Name: name, TokenHash: hash(byte(i))}
	}
	got := get(t, s, g.ID)
	for _, d := range diffSeats(got.Seats, g.Seats, true) {
		t.Error(d)
	}
	sums, err := s.List(ctx(t), store.StatusOpen, 10)
	if err != nil || len(sums) != 1 {
		t.Fatalf("List = %d games, %v; want 1", len(sums), err)
	}
	for _, d := range diffSeats(sums[0].Seats, g.Seats, false) {
		t.Errorf("List: %s", d)
	}
}

func testNotFound(t *testing.T, s store.Store) {
	create(t, s, newGame("present001", store.StatusOpen, 0))
	for _, id := range []string{"absent0001", "", "PRESENT001", "present00", "present0011"} {
		if g, err := s.Game(ctx(t), id); !errors.Is(err, store.ErrNotFound) || g != nil {
			t.Errorf("Game(%q) = %v, %v; want nil, ErrNotFound", id, g, err)
		}
		if err := s.TakeSeat(ctx(t), id, store.NoFence, 0, store.Seat{Name: "Ann", TokenHash: hash(1)}, store.StatusOpen); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("TakeSeat(%q) = %v, want ErrNotFound", id, err)
		}
		if err := s.AppendMove(ctx(t), id, store.NoFence, 0, "draw", store.StatusPlaying); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("AppendMove(%q) = %v, want ErrNotFound", id, err)
		}
	}
	if sums, err := s.List(ctx(t), store.StatusFinished, 10); err != nil || len(sums) != 0 {
		t.Errorf("List(finished) = %v, %v; want none", sums, err)
	}
}

func testDuplicateID(t *testing.T, s store.Store) {
	first := newGame("dup0000001", store.StatusOpen, 0)
	create(t, s, first)
	second := newGame(first.ID, store.StatusPlaying, time.Hour)
	second.Seats = second.Seats[:2]
	second.Moves = []string{"draw"}
	if err := s.CreateGame(ctx(t), second); !errors.Is(err, store.ErrConflict) {
		t.Errorf("second CreateGame(%s) = %v, want ErrConflict", first.ID, err)
	}
	checkGame(t, s, first)
}

func testBadGame(t *testing.T, s store.Store) {
	bad := map[string]*store.Game{
		"nil":        nil,
		"empty id":   newGame("", store.StatusOpen, 0),
		"bad status": newGame("badstatus1", "paused", 0),
		"no status":  newGame("nostatus01", "", 0),
		"empty move": func() *store.Game {
			g := newGame("emptymove1", store.StatusArchived, 0)
			g.Moves = []string{"draw", ""}
			return g
		}(),
	}
	for name, g := range bad {
		if err := s.CreateGame(ctx(t), g); err == nil {
			t.Errorf("CreateGame(%s) succeeded", name)
		}
	}
	for _, st := range []store.Status{store.StatusOpen, store.StatusPlaying, store.StatusFinished, store.StatusArchived, "paused", ""} {
		if sums, err := s.List(ctx(t), st, 0); err != nil || len(sums) != 0 {
			t.Errorf("List(%q) after rejected games = %d games, %v", st, len(sums), err)
		}
	}
	for _, id := range []string{"badstatus1", "nostatus01", "emptymove1"} {
		if _, err := s.Game(ctx(t), id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("rejected game %s: Game = %v, want ErrNotFound", id, err)
		}
	}
}

func testTakeSeat(t *testing.T, s store.Store) {
	g := newGame("seats00001", store.StatusOpen, 0)
	g.Seats = append(g.Seats, store.Seat{})
	create(t, s, g)
	steps := []struct {
		seat   int
		name   string
		status store.Status
	}{
		{3, "Cy", store.StatusOpen},
		{0, "Bo", store.StatusPlaying},
	}
	last := g.Updated
	for _, st := range steps {
		if err := s.TakeSeat(ctx(t), g.ID, store.NoFence, st.seat, store.Seat{Name: st.name, TokenHash: hash(byte(st.seat + 1))}, st.status); err != nil {
			t.Fatalf("TakeSeat(%d, %q): %v", st.seat, st.name, err)
		}
		g.Seats[st.seat] = store.Seat{Name: st.name, TokenHash: hash(byte(st.seat + 1))}
		g.Status = st.status
		got := get(t, s, g.ID)
		if !got.Updated.After(last) {
			t.Errorf("TakeSeat(%d): Updated %v, want after %v", st.seat, got.Updated, last)
		}
		last = got.Updated
		g.Updated = got.Updated
		for _, d := range diffGame(got, g) {
			t.Errorf("after TakeSeat(%d, %q): %s", st.seat, st.name, d)
		}
	}
	for st, want := range map[store.Status]int{store.StatusOpen: 0, store.StatusPlaying: 1} {
		if sums, err := s.List(ctx(t), st, 0); err != nil || len(sums) != want {
			t.Errorf("List(%s) = %d games, %v; want %d", st, len(sums), err, want)
		}
	}
}

func testTakeSeatRejected(t *testing.T, s store.Store) {
	g := newGame("seats00002", store.StatusOpen, 0)
	create(t, s, g)
	if err := s.TakeSeat(ctx(t), g.ID, store.NoFence, 0, store.Seat{Name: "Bo", TokenHash: hash(0xb0)}, store.StatusOpen); err != nil {
		t.Fatal(err)
	}
	g.Seats[0] = store.Seat{Name: "Bo", TokenHash: hash(0xb0)}
	g.Updated = get(t, s, g.ID).Updated
	cases := []struct {
		name string
		seat int
		who  string
		hash []byte
		want error
	}{
		{"taken by a person", 0, "Mallory", hash(0xee), store.ErrConflict},
		{"the creator's seat", 2, "Mallory", hash(0xee), store.ErrConflict},
		{"a bot's seat", 1, "Mallory", hash(0xee), store.ErrConflict},
		{"seat -1", -1, "Mallory", hash(0xee), store.ErrNotFound},
		{"seat past the end", 3, "Mallory", hash(0xee), store.ErrNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := s.TakeSeat(ctx(t), g.ID, store.NoFence, c.seat, store.Seat{Name: c.who, TokenHash: c.hash}, store.StatusPlaying)
			if !errors.Is(err, c.want) {
				t.Errorf("TakeSeat = %v, want %v", err, c.want)
			}
			checkGame(t, s, g) // nothing changed, Updated included
		})
	}
	// An open seat taken with no name or no token hash stays open.
	h := newGame("seats00003", store.StatusOpen, 0)
	create(t, s, h)
	if err := s.TakeSeat(ctx(t), h.ID, store.NoFence, 0, store.Seat{Name: "", TokenHash: hash(1)}, store.StatusPlaying); err == nil {
		t.Error("TakeSeat with an empty name succeeded")
	}
	if err := s.TakeSeat(ctx(t), h.ID, store.NoFence, 0, store.Seat{Name: "Bo", TokenHash: nil}, store.StatusPlaying); err == nil {
		t.Error("TakeSeat with no token hash succeeded")
	}
	if err := s.TakeSeat(ctx(t), h.ID, store.NoFence, 0, store.Seat{Name: "Bo", TokenHash: hash(1)}, "paused"); err == nil {
		t.Error("TakeSeat with status paused succeeded")
	}
	checkGame(t, s, h)
}

func testAppendInOrder(t *testing.T, s store.Store) {
	g := newGame("moves00001", store.StatusPlaying, 0)
	create(t, s, g)
	tokens := []string{"draw", "draw police", "bid 9", "pass", "call", "draw", "take", "swap 3"}
	last := g.Updated
	for i, tok := range tokens {
		st := store.StatusPlaying
		if i == len(tokens)-1 {
			st = store.StatusFinished
		}
		appendMove(t, s, g.ID, i, tok, st)
		g.Moves, g.Status = tokens[:i+1], st
		got := get(t, s, g.ID)
		if !got.Updated.After(last) {
			t.Errorf("AppendMove(%d): Updated %v, want after %v", i, got.Updated, last)
		}
		last, g.Updated = got.Updated, got.Updated
		for _, d := range diffGame(got, g) {
			t.Errorf("after AppendMove(%d): %s", i, d)
		}
	}
}

func testAppendWrongIndex(t *testing.T, s store.Store) {
	g := newGame("moves00002", store.StatusPlaying, 0)
	create(t, s, g)
	appendMove(t, s, g.ID, 0, "draw", store.StatusPlaying)
	appendMove(t, s, g.ID, 1, "bid 9", store.StatusPlaying)
	want := get(t, s, g.ID)
	for _, index := range []int{-1, 0, 1, 3, 1000} {
		err := s.AppendMove(ctx(t), g.ID, store.NoFence, index, "pass", store.StatusFinished)
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("AppendMove(%d) with 2 moves stored = %v, want ErrConflict", index, err)
		}
	}
	if err := s.AppendMove(ctx(t), g.ID, store.NoFence, 2, "", store.StatusPlaying); err == nil {
		t.Error("AppendMove with an empty token succeeded")
	}
	if err := s.AppendMove(ctx(t), g.ID, store.NoFence, 2, "pass", "paused"); err == nil {
		t.Error("AppendMove with status paused succeeded")
	}
	checkGame(t, s, want) // moves, status and Updated unchanged
	appendMove(t, s, g.ID, 2, "pass", store.StatusPlaying)
}

func testAppendAfterEnd(t *testing.T, s store.Store) {
	for _, st := range []store.Status{store.StatusFinished, store.StatusArchived} {
		g := newGame("over_"+string(st), st, 0)
		g.Moves = []string{"draw", "bid 9"}
		create(t, s, g)
		if err := s.AppendMove(ctx(t), g.ID, store.NoFence, 2, "pass", store.StatusPlaying); !errors.Is(err, store.ErrConflict) {
			t.Errorf("AppendMove to a %s game = %v, want ErrConflict", st, err)
		}
		checkGame(t, s, g)
	}
}

func testCanceled(t *testing.T, s store.Store) {
	g := newGame("cancel0001", store.StatusPlaying, 0)
	create(t, s, g)
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	if err := s.AppendMove(c, g.ID, store.NoFence, 0, "draw", store.StatusPlaying); err == nil {
		t.Error("AppendMove with a canceled context succeeded")
	}
	if err := s.TakeSeat(c, g.ID, store.NoFence, 0, store.Seat{Name: "Bo", TokenHash: hash(1)}, store.StatusPlaying); err == nil {
		t.Error("TakeSeat with a canceled context succeeded")
	}
	if err := s.CreateGame(c, newGame("cancel0002", store.StatusOpen, 0)); err == nil {
		t.Error("CreateGame with a canceled context succeeded")
	}
	checkGame(t, s, g)
	if _, err := s.Game(ctx(t), "cancel0002"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("game created with a canceled context: Game = %v, want ErrNotFound", err)
	}
}

func testList(t *testing.T, s store.Store) {
	// Created out of order; Updated decides the order.
	games := []*store.Game{
		newGame("open000003", store.StatusOpen, 3*time.Minute),
		newGame("open000001", store.StatusOpen, 1*time.Minute),
		newGame("playing001", store.StatusPlaying, 2*time.Minute),
		newGame("open000004", store.StatusOpen, 4*time.Minute),
		newGame("open000002", store.StatusOpen, 2*time.Minute),
		newGame("finished01", store.StatusFinished, 5*time.Minute),
	}
	games[2].Moves = []string{"draw", "pass", "draw police"}
	games[5].Moves = []string{"draw"}
	for _, g := range games {
		create(t, s, g)
	}
	cases := []struct {
		status store.Status
		limit  int
		want   []int // indexes into games
	}{
		{store.StatusOpen, 100, []int{3, 0, 4, 1}},
		{store.StatusOpen, 0, []int{3, 0, 4, 1}},
		{store.StatusOpen, -1, []int{3, 0, 4, 1}},
		{store.StatusOpen, 4, []int{3, 0, 4, 1}},
		{store.StatusOpen, 2, []int{3, 0}},
		{store.StatusOpen, 1, []int{3}},
		{store.StatusPlaying, 10, []int{2}},
		{store.StatusFinished, 10, []int{5}},
		{store.StatusArchived, 10, nil},
		{"paused", 10, nil},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s,%d", c.status, c.limit), func(t *testing.T) {
			sums, err := s.List(ctx(t), c.status, c.limit)
			if err != nil {
				t.Fatal(err)
			}
			var ids, want []string
			for _, sum := range sums {
				ids = append(ids, sum.ID)
			}
			for _, i := range c.want {
				want = append(want, games[i].ID)
			}
			if !slices.Equal(ids, want) {
				t.Fatalf("List = %q, want %q", ids, want)
			}
			for k, sum := range sums {
				g := games[c.want[k]]
				if sum.Status != g.Status || sum.Moves != len(g.Moves) ||
					!sum.Created.Equal(g.Created) || !sum.Updated.Equal(g.Updated) {
					t.Errorf("%s: status %s, %d moves, created %v, updated %v; want %s, %d, %v, %v",
						sum.ID, sum.Status, sum.Moves, sum.Created, sum.Updated,
						g.Status, len(g.Moves), g.Created, g.Updated)
				}
				for _, d := range diffSeats(sum.Seats, g.Seats, false) {
					t.Errorf("%s: %s (token hashes must stay out of lists)", sum.ID, d)
				}
			}
		})
	}
}

func testListOrderFollowsUpdates(t *testing.T, s store.Store) {
	ids := []string{"order00001", "order00002", "order00003"}
	for i, id := range ids {
		create(t, s, newGame(id, store.StatusPlaying, time.Duration(i)*time.Minute))
	}
	list := func() []string {
		t.Helper()
		sums, err := s.List(ctx(t), store.StatusPlaying, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, sum := range sums {
			got = append(got, sum.ID)
		}
		return got
	}
	if got, want := list(), []string{ids[2], ids[1], ids[0]}; !slices.Equal(got, want) {
		t.Fatalf("List = %q, want %q", got, want)
	}
	appendMove(t, s, ids[0], 0, "draw", store.StatusPlaying)
	if got, want := list(), []string{ids[0], ids[2], ids[1]}; !slices.Equal(got, want) {
		t.Errorf("after a move in %s: List = %q, want %q", ids[0], got, want)
	}
	if err := s.TakeSeat(ctx(t), ids[1], store.NoFence, 0, store.Seat{Name: "Bo", TokenHash: hash(1)}, store.StatusPlaying); err != nil {
		t.Fatal(err)
	}
	if got, want := list(), []string{ids[1], ids[0], ids[2]}; !slices.Equal(got, want) {
		t.Errorf("after a seat taken in %s: List = %q, want %q", ids[1], got, want)
	}
	// A game that ends heads the games ended before it, and one that
	// starts with a move heads the games being played.
	create(t, s, newGame("order00004", store.StatusFinished, 4*time.Minute))
	create(t, s, newGame("order00005", store.StatusOpen, 5*time.Minute))
	create(t, s, newGame("order00006", store.StatusOpen, 6*time.Minute))
	// An open table whose clock changes heads the open tables.
	if err := s.SetClock(ctx(t), "order00005", store.NoFence, 0, []byte(`{"at":1}`)); err != nil {
		t.Fatal(err)
	}
	if open, err := s.List(ctx(t), store.StatusOpen, 0); err != nil || len(open) != 2 || open[0].ID != "order00005" {
		t.Errorf("after the clock of order00005 changed: List(open) = %+v, %v; want it, then order00006", open, err)
	}
	appendMove(t, s, ids[2], 0, "draw", store.StatusFinished)
	if got, want := list(), []string{ids[1], ids[0]}; !slices.Equal(got, want) {
		t.Errorf("after %s finished: List = %q, want %q", ids[2], got, want)
	}
	finished, err := s.List(ctx(t), store.StatusFinished, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(finished) != 2 || finished[0].ID != ids[2] || finished[1].ID != "order00004" || !finished[0].Updated.After(finished[1].Updated) {
		t.Errorf("after %s finished: List(finished) = %+v, want it, then order00004", ids[2], finished)
	}
	appendMove(t, s, "order00005", 0, "draw", store.StatusPlaying)
	if got, want := list(), []string{"order00005", ids[1], ids[0]}; !slices.Equal(got, want) {
		t.Errorf("after order00005 started with a move: List = %q, want %q", got, want)
	}
	if open, err := s.List(ctx(t), store.StatusOpen, 0); err != nil || len(open) != 1 || open[0].ID != "order00006" {
		t.Errorf("after order00005 started with a move: List(open) = %+v, %v; want order00006", open, err)
	}
}

// testConcurrentAppend has many writers race for each index of one game:
// exactly one must win each, and the stored moves are the winners'.
func testConcurrentAppend(t *testing.T, s store.Store) {
	const writers, moves = 8, 40
	g := newGame("race000001", store.StatusPlaying, 0)
	create(t, s, g)
	var (
		mu      sync.Mutex
		winners = make([][]int, moves)
		wg      sync.WaitGroup
	)
	for w := range writers {
		wg.Go(func() {
			for i := 0; i < moves; {
				err := s.AppendMove(ctx(t), g.ID, store.NoFence, i, fmt.Sprintf("w%d m%d", w, i), store.StatusPlaying)
				switch {
				case err == nil:
					mu.Lock()
					winners[i] = append(winners[i], w)
					mu.Unlock()
					i++
				case errors.Is(err, store.ErrConflict):
					// Someone else was first: catch up with the game.
					got, err := s.Game(ctx(t), g.ID)
					if err != nil {
						t.Errorf("writer %d: Game: %v", w, err)
						return
					}
					i = len(got.Moves)
				default:
					t.Errorf("writer %d: AppendMove(%d): %v", w, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	var want []string
	for i, ws := range winners {
		if len(ws) != 1 {
			t.Errorf("index %d accepted from writers %v, want exactly one", i, ws)
			continue
		}
		want = append(want, fmt.Sprintf("w%d m%d", ws[0], i))
	}
	if got := get(t, s, g.ID); !slices.Equal(got.Moves, want) {
		t.Errorf("stored moves %q\nwant the winners' %q", got.Moves, want)
	}
}

// testConcurrentGames has each writer play its own game while others list.
func testConcurrentGames(t *testing.T, s store.Store) {
	const writers, moves = 6, 15
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.List(ctx(t), store.StatusPlaying, 100); err != nil {
					t.Errorf("List: %v", err)
					return
				}
			}
		})
	}
	var writing sync.WaitGroup
	for w := range writers {
		writing.Go(func() {
			g := newGame(fmt.Sprintf("para%06d", w), store.StatusOpen, 0)
			if err := s.CreateGame(ctx(t), g.Clone()); err != nil {
				t.Errorf("CreateGame: %v", err)
				return
			}
			if err := s.TakeSeat(ctx(t), g.ID, store.NoFence, 0, store.Seat{Name: fmt.Sprintf("P%d", w), TokenHash: hash(byte(w))}, store.StatusPlaying); err != nil {
				t.Errorf("TakeSeat: %v", err)
				return
			}
			for i := range moves {
				if err := s.AppendMove(ctx(t), g.ID, store.NoFence, i, fmt.Sprintf("g%d m%d", w, i), store.StatusPlaying); err != nil {
					t.Errorf("game %s: AppendMove(%d): %v", g.ID, i, err)
					return
				}
			}
		})
	}
	writing.Wait()
	close(stop)
	wg.Wait()
	for w := range writers {
		g := get(t, s, fmt.Sprintf("para%06d", w))
		var want []string
		for i := range moves {
			want = append(want, fmt.Sprintf("g%d m%d", w, i))
		}
		if !slices.Equal(g.Moves, want) || g.Seats[0].Name != fmt.Sprintf("P%d", w) || g.Status != store.StatusPlaying {
			t.Errorf("game %s: seat 0 %q, status %s, moves %q; want P%d, playing, %q",
				g.ID, g.Seats[0].Name, g.Status, g.Moves, w, want)
		}
	}
	if sums, err := s.List(ctx(t), store.StatusPlaying, 0); err != nil || len(sums) != writers {
		t.Errorf("List(playing) = %d games, %v; want %d", len(sums), err, writers)
	}
}

func testReopen(t *testing.T, open func(t *testing.T, path string) store.Store) {
	path := filepath.Join(t.TempDir(), "store")
	s := open(t, path)
	open1 := newGame("reopen0001", store.StatusOpen, 0)
	open1.Seats[0].Name = "Zoë 🎲"
	open1.Seats[0].TokenHash = hash(0x33)
	playing := newGame("reopen0002", store.StatusOpen, time.Minute)
	archived := newGame("reopen0003", store.StatusArchived, 2*time.Minute)
	archived.Moves = []string{"draw", "bid 9", "pass"}
	empty := newGame("reopen0004", store.StatusPlaying, 3*time.Minute)
	empty.Moves = []string{}
	for _, g := range []*store.Game{open1, playing, archived, empty} {
		create(t, s, g)
	}
	if err := s.TakeSeat(ctx(t), playing.ID, store.NoFence, 0, store.Seat{Name: "山田", TokenHash: hash(0x44)}, store.StatusPlaying); err != nil {
		t.Fatal(err)
	}
	appendMove(t, s, playing.ID, 0, "draw", store.StatusPlaying)
	appendMove(t, s, playing.ID, 1, "draw police", store.StatusPlaying)
	wants := map[string]*store.Game{}
	for _, id := range []string{open1.ID, playing.ID, archived.ID, empty.ID} {
		wants[id] = get(t, s, id)
	}
	lists := map[store.Status][]store.Summary{}
	for _, st := range []store.Status{store.StatusOpen, store.StatusPlaying, store.StatusArchived} {
		sums, err := s.List(ctx(t), st, 0)
		if err != nil {
			t.Fatal(err)
		}
		lists[st] = sums
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	s = open(t, path)
	defer func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	for id, want := range wants {
		got, err := s.Game(ctx(t), id)
		if err != nil {
			t.Errorf("after reopening: Game(%s): %v", id, err)
			continue
		}
		for _, d := range diffGame(got, want) {
			t.Errorf("after reopening: game %s: %s", id, d)
		}
	}
	for st, want := range lists {
		got, err := s.List(ctx(t), st, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Errorf("after reopening: List(%s) = %d games, want %d", st, len(got), len(want))
			continue
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.ID != w.ID || g.Moves != w.Moves || !g.Updated.Equal(w.Updated) {
				t.Errorf("after reopening: List(%s)[%d] = %s %d moves %v, want %s %d %v",
					st, i, g.ID, g.Moves, g.Updated, w.ID, w.Moves, w.Updated)
			}
		}
	}
	// The reopened store goes on where the first left off.
	if err := s.AppendMove(ctx(t), playing.ID, store.NoFence, 1, "bid 9", store.StatusPlaying); !errors.Is(err, store.ErrConflict) {
		t.Errorf("after reopening: AppendMove(1) over a stored move = %v, want ErrConflict", err)
	}
	appendMove(t, s, playing.ID, 2, "bid 9", store.StatusFinished)
	if err := s.TakeSeat(ctx(t), open1.ID, store.NoFence, 0, store.Seat{Name: "Mallory", TokenHash: hash(0xee)}, store.StatusOpen); !errors.Is(err, store.ErrConflict) {
		t.Errorf("after reopening: TakeSeat on a taken seat = %v, want ErrConflict", err)
	}
	if err := s.CreateGame(ctx(t), newGame(archived.ID, store.StatusOpen, 0)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("after reopening: CreateGame with a stored id = %v, want ErrConflict", err)
	}
	if got := get(t, s, playing.ID); !slices.Equal(got.Moves, []string{"draw", "draw police", "bid 9"}) || got.Status != store.StatusFinished {
		t.Errorf("after reopening and a move: %s %q", got.Status, got.Moves)
	}
}

// testMovesSince reads the moves after those a reader has, of many games
// at once.
func testMovesSince(t *testing.T, s store.Store) {
	a, b, c := newGame("since00001", store.StatusPlaying, 0), newGame("since00002", store.StatusPlaying, 0), newGame("since00003", store.StatusOpen, 0)
	for _, g := range []*store.Game{a, b, c} {
		create(t, s, g)
	}
	moves := []string{"draw", "bid 7", "pass", "draw"}
	for i, m := range moves {
		appendMove(t, s, a.ID, i, m, store.StatusPlaying)
	}
	appendMove(t, s, b.ID, 0, "draw", store.StatusPlaying)
	for _, c := range []struct {
		name string
		from map[string]int
		want map[string][]string
	}{
		{"none", map[string]int{}, map[string][]string{}},
		{"all", map[string]int{a.ID: 0, b.ID: 0, c.ID: 0}, map[string][]string{a.ID: moves, b.ID: {"draw"}}},
		{"after some", map[string]int{a.ID: 2, b.ID: 1}, map[string][]string{a.ID: moves[2:]}},
		{"up to date", map[string]int{a.ID: 4, b.ID: 1}, map[string][]string{}},
		{"beyond the end", map[string]int{a.ID: 9}, map[string][]string{}},
		{"negative", map[string]int{a.ID: -3}, map[string][]string{a.ID: moves}},
		{"unknown game", map[string]int{"absent0001": 0, b.ID: 0}, map[string][]string{b.ID: {"draw"}}},
	} {
		got, err := s.MovesSince(ctx(t), c.from)
		if err != nil {
			t.Errorf("%s: MovesSince(%v): %v", c.name, c.from, err)
			continue
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: MovesSince(%v) = %q, want %q", c.name, c.from, got, c.want)
			continue
		}
		for id, w := range c.want {
			if !slices.Equal(got[id], w) {
				t.Errorf("%s: MovesSince(%v) = %q, want %q", c.name, c.from, got, c.want)
			}
		}
	}
}
