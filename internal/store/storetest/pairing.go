package storetest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

func init() {
	checks = append(checks, []struct {
		name string
		run  func(t *testing.T, s store.Store)
	}{
		{"SeekRoundTrip", testSeekRoundTrip},
		{"SeekLimit", testSeekLimit},
		{"SeekBad", testSeekBad},
		{"EndSeek", testEndSeek},
		{"PairSeeks", testPairSeeks},
		{"PairSeeksConflict", testPairSeeksConflict},
		{"PairSeeksConcurrent", testPairSeeksConcurrent},
		{"ChallengeRoundTrip", testChallengeRoundTrip},
		{"ChallengeBad", testChallengeBad},
		{"ChallengeAnswers", testChallengeAnswers},
		{"ChallengeAnswerConcurrent", testChallengeAnswerConcurrent},
		{"ChallengeLapse", testChallengeLapse},
		{"PairingPurge", testPairingPurge},
		{"PairingDeleteAccount", testPairingDeleteAccount},
	}...)
}

// newSeek returns an open request of person p made n minutes after base,
// for 2 to 3 players, with every field set.
func newSeek(id, p string, n int) store.Seek {
	return store.Seek{ID: id, Person: p, Name: "Name of " + p, Min: 2, Max: 3, Pace: "rapid", Rated: false,
		Rating: 1510, RatingMin: 1400, RatingMax: 1700, Finish: 93, MinFinish: 80, BotsAfter: 45 * time.Second,
		Status: store.SeekOpen, Created: base.Add(time.Duration(n) * time.Minute)}
}

func addSeek(t *testing.T, s store.Store, k store.Seek) {
	t.Helper()
	if err := s.AddSeek(ctx(t), k, 3); err != nil {
		t.Fatalf("AddSeek(%s): %v", k.ID, err)
	}
}

// sameSeek compares what was stored with what is read, but Updated.
func sameSeek(t *testing.T, got, want store.Seek) {
	t.Helper()
	if !got.Created.Equal(want.Created) || got.Updated.IsZero() {
		t.Errorf("request %s: Created %v Updated %v, want %v and a time", want.ID, got.Created, got.Updated, want.Created)
	}
	got.Created, got.Updated, want.Created, want.Updated = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("request:\n got %+v\nwant %+v", got, want)
	}
}

func seekIDs(seeks []store.Seek) []string {
	out := make([]string, len(seeks))
	for i, k := range seeks {
		out[i] = k.ID
	}
	return out
}

func checkOpen(t *testing.T, s store.Store, want ...string) {
	t.Helper()
	open, err := s.OpenSeeks(ctx(t))
	if err != nil {
		t.Fatalf("OpenSeeks: %v", err)
	}
	if got := seekIDs(open); !slices.Equal(got, want) && len(got)+len(want) > 0 {
		t.Errorf("OpenSeeks = %v, want %v", got, want)
	}
}

func testSeekRoundTrip(t *testing.T, s store.Store) {
	a := newAccount("Ann", 1)
	createAccount(t, s, a)
	k1 := newSeek("k1", "a:"+a.ID, 2)
	k1.Account, k1.Name, k1.Rated = a.ID, "Ann 山田", true
	k2 := newSeek("k2", "g:guest", 1)
	k2.RatingMin, k2.RatingMax, k2.Finish, k2.BotsAfter = 0, 0, -1, 0
	addSeek(t, s, k1)
	addSeek(t, s, k2)
	got, err := s.Seek(ctx(t), "k1")
	if err != nil {
		t.Fatalf("Seek: %v", err)
	}
	sameSeek(t, got, k1)
	if got, _ := s.Seek(ctx(t), "k2"); true {
		sameSeek(t, got, k2)
	}
	if _, err := s.Seek(ctx(t), "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Seek(nope) = %v, want ErrNotFound", err)
	}
	checkOpen(t, s, "k2", "k1")
	k3 := newSeek("k3", "g:guest", 3)
	addSeek(t, s, k3)
	mine, err := s.SeeksOf(ctx(t), "g:guest", time.Now().Add(-time.Hour))
	if err != nil || !slices.Equal(seekIDs(mine), []string{"k3", "k2"}) {
		t.Errorf("SeeksOf = %v, %v; want k3, k2", seekIDs(mine), err)
	}
	k4 := newSeek("k4", "g:zed", 0)
	k4.Created = time.Time{}
	before := time.Now().Add(-time.Second)
	addSeek(t, s, k4)
	if got, _ := s.Seek(ctx(t), "k4"); got.Created.Before(before) {
		t.Errorf("a zero Created is stored as %v, want now", got.Created)
	}
}

func testSeekLimit(t *testing.T, s store.Store) {
	for i := range 3 {
		addSeek(t, s, newSeek(fmt.Sprint("k", i), "g:ann", i))
	}
	err := s.AddSeek(ctx(t), newSeek("k3", "g:ann", 3), 3)
	if !errors.Is(err, store.ErrLimit) {
		t.Fatalf("the fourth request: %v, want ErrLimit", err)
	}
	if _, err := s.Seek(ctx(t), "k3"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the refused request is stored: %v", err)
	}
	// Another person has their own limit; an ended request frees a place.
	addSeek(t, s, newSeek("b0", "g:bob", 4))
	if err := s.EndSeek(ctx(t), "k1", "g:ann", store.SeekCancelled); err != nil {
		t.Fatal(err)
	}
	addSeek(t, s, newSeek("k3", "g:ann", 3))
}

func testSeekBad(t *testing.T, s store.Store) {
	for name, k := range map[string]store.Seek{
		"no id":     func() store.Seek { k := newSeek("", "g:a", 0); return k }(),
		"no person": newSeek("k", "", 0),
		"paired":    func() store.Seek { k := newSeek("k", "g:a", 0); k.Status = store.SeekPaired; return k }(),
		"1 player":  func() store.Seek { k := newSeek("k", "g:a", 0); k.Min = 1; return k }(),
		"6 players": func() store.Seek { k := newSeek("k", "g:a", 0); k.Max = 6; return k }(),
		"min > max": func() store.Seek { k := newSeek("k", "g:a", 0); k.Min, k.Max = 4, 3; return k }(),
		"negative":  func() store.Seek { k := newSeek("k", "g:a", 0); k.BotsAfter = -time.Second; return k }(),
		"not UTF-8": func() store.Seek { k := newSeek("k", "g:a", 0); k.Name = "\xff"; return k }(),
	} {
		if err := s.AddSeek(ctx(t), k, 3); err == nil {
			t.Errorf("%s: stored", name)
		}
	}
	k := newSeek("k", "a:nobody", 0)
	k.Account = "nobody"
	if err := s.AddSeek(ctx(t), k, 3); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a request of an unknown account: %v, want ErrNoAccount", err)
	}
	addSeek(t, s, newSeek("k", "g:a", 0))
	if err := s.AddSeek(ctx(t), newSeek("k", "g:b", 1), 3); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a taken id: %v, want ErrConflict", err)
	}
	checkOpen(t, s, "k")
}

func testEndSeek(t *testing.T, s store.Store) {
	for i, p := range []string{"g:a", "g:a", "g:b", "g:a"} {
		addSeek(t, s, newSeek(fmt.Sprint("k", i), p, i))
	}
	if err := s.EndSeek(ctx(t), "k0", "g:b", store.SeekCancelled); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ending another's request: %v, want ErrNotFound", err)
	}
	if err := s.EndSeek(ctx(t), "k0", "g:a", store.SeekPaired); err == nil {
		t.Error("ending a request as paired: no error")
	}
	if err := s.EndSeek(ctx(t), "k0", "g:a", store.SeekCancelled); err != nil {
		t.Fatalf("EndSeek: %v", err)
	}
	if err := s.EndSeek(ctx(t), "k0", "", store.SeekLapsed); !errors.Is(err, store.ErrConflict) {
		t.Errorf("ending it twice: %v, want ErrConflict", err)
	}
	if k, _ := s.Seek(ctx(t), "k0"); k.Status != store.SeekCancelled {
		t.Errorf("status %q, want cancelled", k.Status)
	}
	ids, err := s.EndSeeksOf(ctx(t), "g:a", store.SeekLapsed)
	if err != nil || !slices.Equal(ids, []string{"k1", "k3"}) {
		t.Errorf("EndSeeksOf = %v, %v; want k1, k3", ids, err)
	}
	if k, _ := s.Seek(ctx(t), "k3"); k.Status != store.SeekLapsed {
		t.Errorf("status %q, want lapsed", k.Status)
	}
	checkOpen(t, s, "k2")
	// Ended, they are the person's still, for a while.
	mine, err := s.SeeksOf(ctx(t), "g:a", time.Now().Add(-time.Minute))
	if err != nil || len(mine) != 3 {
		t.Errorf("SeeksOf after ending = %v, %v; want 3", seekIDs(mine), err)
	}
	if mine, _ := s.SeeksOf(ctx(t), "g:a", time.Now().Add(time.Minute)); len(mine) != 0 {
		t.Errorf("SeeksOf since later = %v, want none", seekIDs(mine))
	}
}

func testPairSeeks(t *testing.T, s store.Store) {
	for i, p := range []string{"g:a", "g:b", "g:a", "g:c"} {
		addSeek(t, s, newSeek(fmt.Sprint("k", i), p, i))
	}
	seats := []store.SeekSeat{{ID: "k0", Seat: 1, Token: "TOKENA"}, {ID: "k1", Seat: 0, Token: "TOKENB"}}
	if err := s.PairSeeks(ctx(t), "g1", seats); err != nil {
		t.Fatalf("PairSeeks: %v", err)
	}
	k0, _ := s.Seek(ctx(t), "k0")
	if k0.Status != store.SeekPaired || k0.Game != "g1" || k0.Seat != 1 || k0.Token != "TOKENA" {
		t.Errorf("k0 = %+v, want paired at g1 seat 1", k0)
	}
	// a's other request is over: a sits at one new table.
	if k2, _ := s.Seek(ctx(t), "k2"); k2.Status != store.SeekCancelled {
		t.Errorf("k2 = %q, want cancelled", k2.Status)
	}
	checkOpen(t, s, "k3")
	for name, seats := range map[string][]store.SeekSeat{
		"no seats":     nil,
		"a seat twice": {{ID: "k3", Seat: 0}, {ID: "x", Seat: 0}},
		"twice":        {{ID: "k3", Seat: 0}, {ID: "k3", Seat: 1}},
	} {
		if err := s.PairSeeks(ctx(t), "g2", seats); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := s.PairSeeks(ctx(t), "", []store.SeekSeat{{ID: "k3"}}); err == nil {
		t.Error("no game: no error")
	}
}

func testPairSeeksConflict(t *testing.T, s store.Store) {
	for i, p := range []string{"g:a", "g:b", "g:c", "g:a"} {
		addSeek(t, s, newSeek(fmt.Sprint("k", i), p, i))
	}
	if err := s.EndSeek(ctx(t), "k1", "", store.SeekLapsed); err != nil {
		t.Fatal(err)
	}
	for name, seats := range map[string][]store.SeekSeat{
		"one lapsed":     {{ID: "k0", Seat: 0}, {ID: "k1", Seat: 1}},
		"one unknown":    {{ID: "k0", Seat: 0}, {ID: "zz", Seat: 1}},
		"a person twice": {{ID: "k0", Seat: 0}, {ID: "k3", Seat: 1}},
	} {
		if err := s.PairSeeks(ctx(t), "g1", seats); !errors.Is(err, store.ErrConflict) {
			t.Errorf("%s: %v, want ErrConflict", name, err)
		}
	}
	// Nothing changed.
	checkOpen(t, s, "k0", "k2", "k3")
	if k, _ := s.Seek(ctx(t), "k0"); k.Game != "" {
		t.Errorf("k0 seated at %q by a refused pairing", k.Game)
	}
}

// testPairSeeksConcurrent: pairers that overlap, as two nodes may, seat
// each request once and each person at one table.
func testPairSeeksConcurrent(t *testing.T, s store.Store) {
	const n = 8
	for i := range n {
		// Two requests per person: p0 has k0 and k4, ...
		addSeek(t, s, newSeek(fmt.Sprint("k", i), fmt.Sprint("g:p", i%(n/2)), i))
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		won  []string
		fail = make(chan error, n*n)
	)
	for i := range n {
		for j := range n {
			if i == j {
				continue
			}
			wg.Go(func() {
				game := fmt.Sprintf("g%d-%d", i, j)
				err := s.PairSeeks(ctx(t), game, []store.SeekSeat{{ID: fmt.Sprint("k", i), Seat: 0}, {ID: fmt.Sprint("k", j), Seat: 1}})
				switch {
				case err == nil:
					mu.Lock()
					won = append(won, game)
					mu.Unlock()
				case !errors.Is(err, store.ErrConflict):
					fail <- err
				}
			})
		}
	}
	wg.Wait()
	close(fail)
	for err := range fail {
		t.Errorf("PairSeeks: %v", err)
	}
	games := map[string][]string{} // game -> people
	for i := range n {
		k, err := s.Seek(ctx(t), fmt.Sprint("k", i))
		if err != nil {
			t.Fatal(err)
		}
		if k.Status == store.SeekPaired {
			games[k.Game] = append(games[k.Game], k.Person)
		}
	}
	people := map[string]bool{}
	for g, ps := range games {
		if len(ps) != 2 || !slices.Contains(won, g) {
			t.Errorf("game %s seats %v; the pairings that succeeded: %v", g, ps, won)
		}
		for _, p := range ps {
			if people[p] {
				t.Errorf("%s seated twice", p)
			}
			people[p] = true
		}
	}
	if len(won) != len(games) || len(won) == 0 {
		t.Errorf("%d pairings succeeded, %d games seated", len(won), len(games))
	}
}

// newInvitation returns an open challenge from account from to the
// accounts to, made at base, expiring a minute later.
func newInvitation(id string, from *store.Account, to ...*store.Account) store.Invitation {
	c := store.Invitation{ID: id, From: from.ID, FromName: from.Name, Pace: "blitz", Rated: true,
		Status: store.ChallengeOpen, Created: base, Expires: base.Add(time.Minute)}
	for _, a := range to {
		c.To = append(c.To, store.Challenged{Account: a.ID, Name: a.Name})
	}
	return c
}

// accounts creates n accounts, acct01 to acct0n.
func accounts(t *testing.T, s store.Store, n int) []*store.Account {
	var out []*store.Account
	for i := range n {
		a := newAccount(fmt.Sprint("P", i+1), byte(i+1))
		createAccount(t, s, a)
		out = append(out, a)
	}
	return out
}

func sameInvitation(t *testing.T, got, want store.Invitation) {
	t.Helper()
	if !got.Created.Equal(want.Created) || !got.Expires.Equal(want.Expires) || got.Updated.IsZero() {
		t.Errorf("challenge %s: Created %v Expires %v Updated %v, want %v %v and a time", want.ID, got.Created, got.Expires, got.Updated, want.Created, want.Expires)
	}
	got.Created, got.Expires, got.Updated = time.Time{}, time.Time{}, time.Time{}
	want.Created, want.Expires, want.Updated = time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("challenge:\n got %+v\nwant %+v", got, want)
	}
}

func testChallengeRoundTrip(t *testing.T, s store.Store) {
	p := accounts(t, s, 4)
	c := newInvitation("c1", p[0], p[1], p[2])
	if err := s.AddChallenge(ctx(t), c, 2); err != nil {
		t.Fatalf("AddChallenge: %v", err)
	}
	got, err := s.Challenge(ctx(t), "c1")
	if err != nil {
		t.Fatal(err)
	}
	sameInvitation(t, got, c)
	if _, err := s.Challenge(ctx(t), "zz"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Challenge(zz) = %v, want ErrNotFound", err)
	}
	c2 := newInvitation("c2", p[0], p[3])
	c2.Created = base.Add(time.Second)
	if err := s.AddChallenge(ctx(t), c2, 2); err != nil {
		t.Fatal(err)
	}
	if err := s.AddChallenge(ctx(t), newInvitation("c3", p[0], p[1]), 2); !errors.Is(err, store.ErrLimit) {
		t.Errorf("a third open challenge: %v, want ErrLimit", err)
	}
	if err := s.AddChallenge(ctx(t), newInvitation("c3", p[1], p[0]), 2); err != nil {
		t.Errorf("another challenger: %v", err)
	}
	since := time.Now().Add(-time.Hour)
	for account, want := range map[string][]string{p[0].ID: {"c2", "c1", "c3"}, p[1].ID: {"c1", "c3"}, p[3].ID: {"c2"}} {
		cs, err := s.ChallengesOf(ctx(t), account, since)
		var ids []string
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
		slices.Sort(ids)
		slices.Sort(want)
		if err != nil || !slices.Equal(ids, want) {
			t.Errorf("ChallengesOf(%s) = %v, %v; want %v", account, ids, err, want)
		}
	}
	if err := s.CancelChallenge(ctx(t), "c1", p[1].ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("cancelled by another: %v, want ErrNotFound", err)
	}
	if err := s.CancelChallenge(ctx(t), "c1", p[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := s.CancelChallenge(ctx(t), "c1", p[0].ID); !errors.Is(err, store.ErrConflict) {
		t.Errorf("cancelled twice: %v, want ErrConflict", err)
	}
	if got, _ := s.Challenge(ctx(t), "c1"); got.Status != store.ChallengeCancelled {
		t.Errorf("status %q, want cancelled", got.Status)
	}
	// A cancelled one frees its place.
	if err := s.AddChallenge(ctx(t), newInvitation("c4", p[0], p[1]), 2); err != nil {
		t.Errorf("after a cancel: %v", err)
	}
}

func testChallengeBad(t *testing.T, s store.Store) {
	p := accounts(t, s, 2)
	ghost := newAccount("Ghost", 9)
	for name, c := range map[string]store.Invitation{
		"nobody":     newInvitation("c", p[0]),
		"themselves": newInvitation("c", p[0], p[0]),
		"twice":      newInvitation("c", p[0], p[1], p[1]),
		"five":       newInvitation("c", p[0], p[1], p[1], p[1], p[1], p[1]),
		"no id":      newInvitation("", p[0], p[1]),
		"no expiry":  func() store.Invitation { c := newInvitation("c", p[0], p[1]); c.Expires = time.Time{}; return c }(),
		"not open": func() store.Invitation {
			c := newInvitation("c", p[0], p[1])
			c.Status = store.ChallengeLapsed
			return c
		}(),
		"unknown one": newInvitation("c", p[0], ghost),
	} {
		if err := s.AddChallenge(ctx(t), c, 5); err == nil {
			t.Errorf("%s: stored", name)
		}
	}
	if err := s.AddChallenge(ctx(t), newInvitation("c", ghost, p[0]), 5); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("an unknown challenger: %v, want ErrNoAccount", err)
	}
	if _, err := s.Challenge(ctx(t), "c"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused challenge is stored: %v", err)
	}
}

func testChallengeAnswers(t *testing.T, s store.Store) {
	p := accounts(t, s, 4)
	at := base.Add(10 * time.Second)
	for _, c := range []store.Invitation{newInvitation("c1", p[0], p[1], p[2]), newInvitation("c2", p[0], p[1], p[2]), newInvitation("c3", p[3], p[1])} {
		if err := s.AddChallenge(ctx(t), c, 5); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AnswerChallenge(ctx(t), "c1", p[3].ID, store.Answer{Accept: true}, at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an answer of someone not challenged: %v, want ErrNotFound", err)
	}
	if _, err := s.AnswerChallenge(ctx(t), "zz", p[1].ID, store.Answer{Accept: true}, at); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an answer to no challenge: %v, want ErrNotFound", err)
	}
	c, err := s.AnswerChallenge(ctx(t), "c1", p[1].ID, store.Answer{Accept: true}, at)
	if err != nil || c.Status != store.ChallengeOpen || !c.To[0].Answered || !c.To[0].Accept || c.To[1].Answered {
		t.Fatalf("the first accept: %+v, %v", c, err)
	}
	if _, err := s.AnswerChallenge(ctx(t), "c1", p[1].ID, store.Answer{Reason: "later"}, at); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an answer given twice: %v, want ErrConflict", err)
	}
	if err := s.SetChallengeGame(ctx(t), "c1", "g1"); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a game for an open challenge: %v, want ErrConflict", err)
	}
	c, err = s.AnswerChallenge(ctx(t), "c1", p[2].ID, store.Answer{Accept: true}, at)
	if err != nil || c.Status != store.ChallengeAccepted {
		t.Fatalf("the last accept: %+v, %v", c, err)
	}
	unseated := func(before time.Time) []string {
		t.Helper()
		cs, err := s.UnseatedChallenges(ctx(t), before)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
		return ids
	}
	// Accepted without a table: unseated once it has waited.
	if got := unseated(time.Now().Add(time.Hour)); !slices.Equal(got, []string{"c1"}) {
		t.Errorf("UnseatedChallenges = %v, want c1", got)
	}
	if got := unseated(time.Now().Add(-time.Hour)); len(got) != 0 {
		t.Errorf("UnseatedChallenges an hour ago = %v, want none", got)
	}
	if err := s.SetChallengeGame(ctx(t), "c1", "g1"); err != nil {
		t.Fatalf("SetChallengeGame: %v", err)
	}
	if got := unseated(time.Now().Add(time.Hour)); len(got) != 0 {
		t.Errorf("UnseatedChallenges once seated = %v, want none", got)
	}
	if err := s.SetChallengeGame(ctx(t), "c1", "g2"); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a second game: %v, want ErrConflict", err)
	}
	if got, _ := s.Challenge(ctx(t), "c1"); got.Game != "g1" || got.Status != store.ChallengeAccepted {
		t.Errorf("c1 = %+v, want accepted at g1", got)
	}
	// One decline ends it, with its reason.
	c, err = s.AnswerChallenge(ctx(t), "c2", p[2].ID, store.Answer{Reason: "later"}, at)
	if err != nil || c.Status != store.ChallengeDeclined || c.To[1].Reason != "later" || c.To[1].Accept {
		t.Fatalf("a decline: %+v, %v", c, err)
	}
	if _, err := s.AnswerChallenge(ctx(t), "c2", p[1].ID, store.Answer{Accept: true}, at); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an accept after a decline: %v, want ErrConflict", err)
	}
	// An answer once it expired is too late, lapsed or not.
	if _, err := s.AnswerChallenge(ctx(t), "c3", p[1].ID, store.Answer{Accept: true}, base.Add(time.Minute)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an answer at the expiry: %v, want ErrConflict", err)
	}
	if got, _ := s.Challenge(ctx(t), "c3"); got.Status != store.ChallengeOpen || got.To[0].Answered {
		t.Errorf("a late answer changed c3: %+v", got)
	}
}

// testChallengeAnswerConcurrent: of two people accepting at once, one
// sees the challenge accepted: the one who seats the table.
func testChallengeAnswerConcurrent(t *testing.T, s store.Store) {
	p := accounts(t, s, 5)
	for round := range 5 {
		id := fmt.Sprint("c", round)
		if err := s.AddChallenge(ctx(t), newInvitation(id, p[0], p[1], p[2], p[3], p[4]), 10); err != nil {
			t.Fatal(err)
		}
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			accepted int
		)
		for _, a := range p[1:] {
			wg.Go(func() {
				c, err := s.AnswerChallenge(ctx(t), id, a.ID, store.Answer{Accept: true}, base)
				if err != nil {
					t.Errorf("AnswerChallenge: %v", err)
					return
				}
				if c.Status == store.ChallengeAccepted {
					mu.Lock()
					accepted++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if accepted != 1 {
			t.Errorf("round %d: %d answers saw the challenge accepted, want 1", round, accepted)
		}
	}
}

func testChallengeLapse(t *testing.T, s store.Store) {
	p := accounts(t, s, 2)
	c1, c2 := newInvitation("c1", p[0], p[1]), newInvitation("c2", p[1], p[0])
	c2.Expires = base.Add(time.Hour)
	for _, c := range []store.Invitation{c1, c2} {
		if err := s.AddChallenge(ctx(t), c, 5); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.LapseChallenges(ctx(t), base.Add(59*time.Second)); err != nil || len(got) != 0 {
		t.Errorf("LapseChallenges before the expiry = %v, %v", got, err)
	}
	got, err := s.LapseChallenges(ctx(t), base.Add(time.Minute))
	if err != nil || len(got) != 1 || got[0].ID != "c1" || got[0].Status != store.ChallengeLapsed || len(got[0].To) != 1 {
		t.Fatalf("LapseChallenges = %+v, %v; want c1 lapsed", got, err)
	}
	if again, _ := s.LapseChallenges(ctx(t), base.Add(time.Minute)); len(again) != 0 {
		t.Errorf("lapsed twice: %+v", again)
	}
	if _, err := s.AnswerChallenge(ctx(t), "c1", p[1].ID, store.Answer{Accept: true}, base); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an answer to a lapsed challenge: %v, want ErrConflict", err)
	}
}

func testPairingPurge(t *testing.T, s store.Store) {
	p := accounts(t, s, 2)
	addSeek(t, s, newSeek("k1", "g:a", 0))
	addSeek(t, s, newSeek("k2", "g:b", 0))
	if err := s.EndSeek(ctx(t), "k1", "", store.SeekLapsed); err != nil {
		t.Fatal(err)
	}
	for _, c := range []store.Invitation{newInvitation("c1", p[0], p[1]), newInvitation("c2", p[1], p[0])} {
		if err := s.AddChallenge(ctx(t), c, 5); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CancelChallenge(ctx(t), "c1", p[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := s.PurgePairing(ctx(t), time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seek(ctx(t), "k1"); err != nil {
		t.Errorf("a recent request purged: %v", err)
	}
	if err := s.PurgePairing(ctx(t), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seek(ctx(t), "k1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an ended request kept: %v", err)
	}
	if _, err := s.Challenge(ctx(t), "c1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an ended challenge kept: %v", err)
	}
	checkOpen(t, s, "k2")
	if _, err := s.Challenge(ctx(t), "c2"); err != nil {
		t.Errorf("an open challenge purged: %v", err)
	}
}

func testPairingDeleteAccount(t *testing.T, s store.Store) {
	p := accounts(t, s, 3)
	k := newSeek("k1", "a:"+p[0].ID, 0)
	k.Account = p[0].ID
	addSeek(t, s, k)
	for _, c := range []store.Invitation{newInvitation("c1", p[0], p[1]), newInvitation("c2", p[1], p[0], p[2])} {
		if err := s.AddChallenge(ctx(t), c, 5); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DeleteAccount(ctx(t), p[0].ID, func(int) string { return "Gone" }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Seek(ctx(t), "k1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the deleted account's request kept: %v", err)
	}
	if _, err := s.Challenge(ctx(t), "c1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the deleted account's challenge kept: %v", err)
	}
	c, err := s.Challenge(ctx(t), "c2")
	if err != nil || len(c.To) != 1 || c.To[0].Account != p[2].ID {
		t.Errorf("a challenge to the deleted account = %+v, %v; want it without them", c, err)
	}
}

// fillPairing writes, for Fill, a request of each kind of person, paired
// and open, and a challenge answered, so that every column of the
// pairing's tables holds a value.
func fillPairing(t *testing.T, s store.Store, ann, bea *store.Account) {
	t.Helper()
	c := ctx(t)
	k1 := newSeek("fillseek1", "a:"+ann.ID, 0)
	k1.Account, k1.Rated = ann.ID, true
	k2 := newSeek("fillseek2", "g:guest", 1)
	k3 := newSeek("fillseek3", "g:other", 2)
	for _, k := range []store.Seek{k1, k2, k3} {
		if err := s.AddSeek(c, k, 3); err != nil {
			t.Fatalf("Fill: AddSeek: %v", err)
		}
	}
	if err := s.PairSeeks(c, "fillplaying", []store.SeekSeat{{ID: "fillseek2", Seat: 2, Token: "GUESTTOKEN"}, {ID: "fillseek3", Seat: 1, Token: "T"}}); err != nil {
		t.Fatalf("Fill: PairSeeks: %v", err)
	}
	inv := newInvitation("fillchallenge", ann, bea)
	if err := s.AddChallenge(c, inv, 3); err != nil {
		t.Fatalf("Fill: AddChallenge: %v", err)
	}
	if _, err := s.AnswerChallenge(c, inv.ID, bea.ID, store.Answer{Reason: "later"}, base); err != nil {
		t.Fatalf("Fill: AnswerChallenge: %v", err)
	}
	if err := s.AddChallenge(c, newInvitation("fillchallenge2", bea, ann), 3); err != nil {
		t.Fatalf("Fill: AddChallenge: %v", err)
	}
	if _, err := s.AnswerChallenge(c, "fillchallenge2", ann.ID, store.Answer{Accept: true}, base); err != nil {
		t.Fatalf("Fill: AnswerChallenge: %v", err)
	}
	if err := s.SetChallengeGame(c, "fillchallenge2", "fillplaying"); err != nil {
		t.Fatalf("Fill: SetChallengeGame: %v", err)
	}
}
