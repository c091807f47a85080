package storetest

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

// The checks of tournaments: kept whole, changed only from the version
// read (so two nodes never overwrite each other), a game at one table
// only, listed by status and by account, run under a lease.

var tournamentChecks = []struct {
	name string
	run  func(t *testing.T, s store.Store)
}{
	{"TournamentRoundTrip", testTournamentRoundTrip},
	{"TournamentUpdate", testTournamentUpdate},
	{"TournamentRejected", testTournamentRejected},
	{"TournamentLists", testTournamentLists},
	{"TournamentLease", testTournamentLease},
}

func newTournament(id string) *store.Tournament {
	at := base.UTC()
	return &store.Tournament{
		ID: id, Name: "Club night ♠ " + id, Format: "swiss", Organiser: "acc-org", Status: store.TournamentWaiting,
		Starts: at.Add(time.Hour), Private: []byte{1, 2, 3}, Seed: []byte("0123456789abcdef0123456789abcdef"),
		Settings: []byte(`{"size":4}`), State: []byte(`{"round":0}`), Created: at, Updated: at,
		Players: []store.TournamentPlayer{
			{Account: "acc-a", Name: "Ann", Rating: 1510, Joined: at.Add(time.Second), Status: "in"},
			{Account: "acc-b", Name: "Bea", Rating: 1490, Joined: at.Add(2 * time.Second), Status: "in"},
		},
		Tables: []store.TournamentTable{
			{Round: 1, Index: 1, Game: id + "-1-1", Deal: 14, Seats: []string{"acc-a", "", "acc-b"}, Created: at.Add(time.Minute)},
		},
	}
}

func getTournament(t *testing.T, s store.Store, id string) *store.Tournament {
	t.Helper()
	got, err := s.Tournament(ctx(t), id)
	if err != nil {
		t.Fatalf("Tournament(%s): %v", id, err)
	}
	return got
}

func sameTournament(t *testing.T, got, want *store.Tournament) {
	t.Helper()
	w := *want
	w.People = 0
	for _, p := range w.Players {
		if p.Status == "in" || p.Status == "paused" {
			w.People++
		}
	}
	g := *got
	g.Updated = w.Updated
	if !reflect.DeepEqual(&g, &w) {
		t.Errorf("tournament read back\n got %+v\nwant %+v", &g, &w)
	}
}

func testTournamentRoundTrip(t *testing.T, s store.Store) {
	want := newTournament("t1")
	if err := s.CreateTournament(ctx(t), want); err != nil {
		t.Fatalf("CreateTournament: %v", err)
	}
	if want.Version != 1 {
		t.Errorf("version %d after create, want 1", want.Version)
	}
	sameTournament(t, getTournament(t, s, "t1"), want)
	if id, err := s.TournamentOfGame(ctx(t), "t1-1-1"); err != nil || id != "t1" {
		t.Errorf("TournamentOfGame = %q, %v", id, err)
	}
	if _, err := s.TournamentOfGame(ctx(t), "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("TournamentOfGame of no table: %v, want ErrNotFound", err)
	}
	if _, err := s.Tournament(ctx(t), "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Tournament(nope): %v, want ErrNotFound", err)
	}
}

func testTournamentUpdate(t *testing.T, s store.Store) {
	tr := newTournament("t1")
	if err := s.CreateTournament(ctx(t), tr); err != nil {
		t.Fatal(err)
	}
	at := base.UTC().Add(2 * time.Hour)
	tr.Status, tr.State, tr.Starts = store.TournamentRunning, []byte(`{"round":1}`), time.Time{}
	newPlayer := store.TournamentPlayer{Account: "acc-c", Name: "Cy", Rating: 1500, Joined: at, Status: "in"}
	changed := tr.Players[0]
	changed.Status, changed.Rank, changed.Points = "withdrawn", 2, 36
	result := tr.Tables[0]
	result.Result, result.Finished = []byte(`{"totals":[3,0,1]}`), at.Add(time.Minute)
	second := store.TournamentTable{Round: 1, Index: 2, Game: "t1-1-2", Seats: []string{"acc-c", ""}} // its game not created yet
	if err := s.UpdateTournament(ctx(t), tr, []store.TournamentPlayer{newPlayer, changed}, []store.TournamentTable{result, second}); err != nil {
		t.Fatalf("UpdateTournament: %v", err)
	}
	if tr.Version != 2 {
		t.Errorf("version %d after one update, want 2", tr.Version)
	}
	tr.Players = []store.TournamentPlayer{changed, tr.Players[1], newPlayer}
	tr.Tables = []store.TournamentTable{result, second}
	sameTournament(t, getTournament(t, s, "t1"), tr)
	if id, err := s.TournamentOfGame(ctx(t), "t1-1-2"); err != nil || id != "t1" {
		t.Errorf("TournamentOfGame(t1-1-2) = %q, %v", id, err)
	}
}

func testTournamentRejected(t *testing.T, s store.Store) {
	tr := newTournament("t1")
	if err := s.CreateTournament(ctx(t), tr); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTournament(ctx(t), newTournament("t1")); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a second t1: %v, want ErrConflict", err)
	}
	other := newTournament("t2")
	other.Tables[0].Game = "t1-1-1"
	if err := s.CreateTournament(ctx(t), other); !errors.Is(err, store.ErrConflict) {
		t.Errorf("t2 with t1's game: %v, want ErrConflict", err)
	}
	want := getTournament(t, s, "t1")
	stale := *tr
	stale.Version = 7
	stale.Name = "changed"
	if err := s.UpdateTournament(ctx(t), &stale, nil, nil); !errors.Is(err, store.ErrConflict) {
		t.Errorf("update from version 7: %v, want ErrConflict", err)
	}
	twice := store.TournamentTable{Round: 2, Index: 1, Game: "t1-1-1", Seats: []string{"acc-a", "acc-b"}, Created: base.UTC()}
	if err := s.UpdateTournament(ctx(t), tr, nil, []store.TournamentTable{twice}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a game at two tables: %v, want ErrConflict", err)
	}
	bad := *tr
	bad.Status = "paused?"
	if err := s.UpdateTournament(ctx(t), &bad, nil, nil); err == nil {
		t.Errorf("an unknown status was stored")
	}
	if err := s.UpdateTournament(ctx(t), tr, []store.TournamentPlayer{{Account: "x"}}, nil); err == nil {
		t.Errorf("a player without a name was stored")
	}
	missing := newTournament("nope")
	if err := s.UpdateTournament(ctx(t), missing, nil, nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("update of no tournament: %v, want ErrNotFound", err)
	}
	got := getTournament(t, s, "t1")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("refused writes changed the tournament:\n got %+v\nwant %+v", got, want)
	}
	if _, err := s.Tournament(ctx(t), "t2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("t2 stored: %v", err)
	}
}

func testTournamentLists(t *testing.T, s store.Store) {
	for i, st := range []store.TournamentStatus{store.TournamentWaiting, store.TournamentRunning, store.TournamentFinished} {
		tr := newTournament("t" + string(rune('1'+i)))
		tr.Status = st
		// One who withdrew is not counted among its people.
		tr.Players = append(tr.Players, store.TournamentPlayer{Account: "acc-w", Name: "Wes", Joined: base.UTC(), Status: "withdrawn"})
		tr.Starts = base.UTC().Add(time.Duration(i) * time.Hour)
		if i == 2 {
			tr.Players[0].Rank, tr.Players[0].Points = 1, 72
		}
		if err := s.CreateTournament(ctx(t), tr); err != nil {
			t.Fatal(err)
		}
	}
	live, err := s.ListTournaments(ctx(t), []store.TournamentStatus{store.TournamentWaiting, store.TournamentRunning}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, l := range live {
		ids = append(ids, l.ID)
		if l.People != 2 || l.Players != nil || l.Tables != nil {
			t.Errorf("summary %s: %d people, %d players, %d tables; want 2, none, none", l.ID, l.People, len(l.Players), len(l.Tables))
		}
	}
	if !slices.Equal(ids, []string{"t2", "t1"}) {
		t.Errorf("live tournaments %v, want t2, t1 (newest start first)", ids)
	}
	if all, err := s.ListTournaments(ctx(t), nil, 1); err != nil || len(all) != 1 || all[0].ID != "t3" {
		t.Errorf("ListTournaments(all, 1) = %v, %v", all, err)
	}
	entries, err := s.AccountTournaments(ctx(t), "acc-a", 0)
	if err != nil || len(entries) != 3 {
		t.Fatalf("AccountTournaments = %v, %v", entries, err)
	}
	if e := entries[0]; e.Tournament != "t3" || e.Rank != 1 || e.Points != 72 || e.Status != store.TournamentFinished || e.People != 2 || e.Format != "swiss" {
		t.Errorf("first entry %+v", e)
	}
	if none, err := s.AccountTournaments(ctx(t), "acc-z", 0); err != nil || len(none) != 0 {
		t.Errorf("AccountTournaments of nobody = %v, %v", none, err)
	}
}

func testTournamentLease(t *testing.T, s store.Store) {
	tr := newTournament("t1")
	if err := s.CreateTournament(ctx(t), tr); err != nil {
		t.Fatal(err)
	}
	if ids, err := s.UnownedTournaments(ctx(t), 0); err != nil || !slices.Equal(ids, []string{"t1"}) {
		t.Errorf("Unowned before any lease = %v, %v", ids, err)
	}
	l, err := s.AcquireTournamentLease(ctx(t), "t1", "n1", time.Minute)
	if err != nil || l.Node != "n1" || l.Fence != 1 || l.Game != "t1" {
		t.Fatalf("AcquireTournamentLease = %+v, %v", l, err)
	}
	if _, err := s.AcquireTournamentLease(ctx(t), "t1", "n2", time.Minute); !errors.Is(err, store.ErrLeaseHeld) {
		t.Errorf("n2 while n1 holds it: %v, want ErrLeaseHeld", err)
	}
	if ids, err := s.UnownedTournaments(ctx(t), 0); err != nil || len(ids) != 0 {
		t.Errorf("Unowned while held = %v, %v", ids, err)
	}
	if l, err = s.RenewTournamentLease(ctx(t), l, time.Minute); err != nil {
		t.Errorf("RenewTournamentLease: %v", err)
	}
	if err := s.ReleaseTournamentLease(ctx(t), l); err != nil {
		t.Errorf("ReleaseTournamentLease: %v", err)
	}
	if _, err := s.RenewTournamentLease(ctx(t), l, time.Minute); !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("renewal of a released lease: %v, want ErrLeaseLost", err)
	}
	l2, err := s.AcquireTournamentLease(ctx(t), "t1", "n2", time.Minute)
	if err != nil || l2.Fence != 2 {
		t.Errorf("n2 after the release = %+v, %v; want fence 2", l2, err)
	}
	tr.Status = store.TournamentFinished
	if err := s.UpdateTournament(ctx(t), tr, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcquireTournamentLease(ctx(t), "t1", "n1", time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Errorf("lease of a finished tournament: %v, want ErrConflict", err)
	}
	if ids, err := s.UnownedTournaments(ctx(t), 0); err != nil || len(ids) != 0 {
		t.Errorf("Unowned lists a finished tournament: %v, %v", ids, err)
	}
	if _, err := s.AcquireTournamentLease(ctx(t), "nope", "n1", time.Minute); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("lease of no tournament: %v, want ErrNotFound", err)
	}
}

// fillTournaments gives Fill a tournament with every column set: a
// start, a password, a lease, a finished table and a player ranked.
func fillTournaments(t *testing.T, s store.Store, account string) {
	t.Helper()
	tr := newTournament("filltournament")
	tr.Organiser = account
	tr.Players[0].Account, tr.Players[0].Rank, tr.Players[0].Points = account, 1, 48
	tr.Tables[0].Seats[0] = account
	tr.Tables[0].Result, tr.Tables[0].Finished = []byte(`{"totals":[30,12,7]}`), base.Add(time.Hour)
	if err := s.CreateTournament(ctx(t), tr); err != nil {
		t.Fatalf("Fill: CreateTournament: %v", err)
	}
	if _, err := s.AcquireTournamentLease(ctx(t), tr.ID, "node-fill", time.Hour); err != nil {
		t.Fatalf("Fill: AcquireTournamentLease: %v", err)
	}
}
