package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

func init() {
	checks = append(checks, []struct {
		name string
		run  func(t *testing.T, s store.Store)
	}{
		{"AccountRoundTrip", testAccountRoundTrip},
		{"AccountNameTaken", testAccountNameTaken},
		{"AccountBad", testAccountBad},
		{"SetPassword", testSetPassword},
		{"Sessions", testSessions},
		{"SessionExpired", testSessionExpired},
		{"Passkeys", testPasskeys},
		{"Challenges", testChallenges},
		{"SeatAccounts", testSeatAccounts},
		{"ClaimSeats", testClaimSeats},
		{"AccountGames", testAccountGames},
		{"Results", testResults},
		{"ResultConflict", testResultConflict},
		{"Leaderboard", testLeaderboard},
		{"DeleteAccount", testDeleteAccount},
	}...)
}

// newAccount returns an account named name whose id, handle and seat key
// are made of b.
func newAccount(name string, b byte) *store.Account {
	return &store.Account{
		ID:       fmt.Sprintf("acct%02x", b),
		Name:     name,
		Key:      "key:" + name,
		Password: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
		Handle:   bytes.Repeat([]byte{b}, 32),
		SeatKey:  bytes.Repeat([]byte{b ^ 0xff}, 32),
		Created:  base.Add(time.Duration(b) * time.Minute),
		Rating:   store.Rating{Mu: 25, Sigma: 25.0 / 3},
	}
}

func createAccount(t *testing.T, s store.Store, a *store.Account) {
	t.Helper()
	if err := s.CreateAccount(ctx(t), a.Clone()); err != nil {
		t.Fatalf("CreateAccount(%s): %v", a.Name, err)
	}
}

func diffAccount(got, want *store.Account) []string {
	var d []string
	if got.ID != want.ID || got.Name != want.Name || got.Key != want.Key || got.Password != want.Password {
		d = append(d, fmt.Sprintf("account %q %q %q %q, want %q %q %q %q", got.ID, got.Name, got.Key, got.Password, want.ID, want.Name, want.Key, want.Password))
	}
	if !bytes.Equal(got.Handle, want.Handle) || !bytes.Equal(got.SeatKey, want.SeatKey) {
		d = append(d, fmt.Sprintf("handle %x seat key %x, want %x %x", got.Handle, got.SeatKey, want.Handle, want.SeatKey))
	}
	if !got.Created.Equal(want.Created) {
		d = append(d, fmt.Sprintf("Created %v, want %v", got.Created, want.Created))
	}
	if got.Rating != want.Rating {
		d = append(d, fmt.Sprintf("Rating %+v, want %+v", got.Rating, want.Rating))
	}
	return d
}

func testAccountRoundTrip(t *testing.T, s store.Store) {
	a := newAccount("Ann", 1)
	a.Name = "Ännchen 山田 🎲"
	createAccount(t, s, a)
	for name, get := range map[string]func() (*store.Account, error){
		"Account":         func() (*store.Account, error) { return s.Account(ctx(t), a.ID) },
		"AccountByKey":    func() (*store.Account, error) { return s.AccountByKey(ctx(t), a.Key) },
		"AccountByHandle": func() (*store.Account, error) { return s.AccountByHandle(ctx(t), a.Handle) },
	} {
		got, err := get()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, d := range diffAccount(got, a) {
			t.Errorf("%s: %s", name, d)
		}
	}
	for name, err := range map[string]error{
		"unknown id":     func() error { _, err := s.Account(ctx(t), "nobody"); return err }(),
		"unknown key":    func() error { _, err := s.AccountByKey(ctx(t), "ann"); return err }(),
		"unknown handle": func() error { _, err := s.AccountByHandle(ctx(t), hash(9)); return err }(),
	} {
		if !errors.Is(err, store.ErrNoAccount) {
			t.Errorf("%s: %v, want ErrNoAccount", name, err)
		}
	}
	// A zero Created is filled in.
	b := newAccount("Bo", 2)
	b.Created = time.Time{}
	if err := s.CreateAccount(ctx(t), b); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Account(ctx(t), b.ID); err != nil || got.Created.IsZero() || !got.Created.Equal(b.Created) {
		t.Errorf("Created = %v, %v; want the time filled in (%v)", got.Created, err, b.Created)
	}
}

func testAccountNameTaken(t *testing.T, s store.Store) {
	a := newAccount("Ann", 1)
	createAccount(t, s, a)
	same := newAccount("Ann", 2)
	if err := s.CreateAccount(ctx(t), same); !errors.Is(err, store.ErrNameTaken) {
		t.Errorf("same key: %v, want ErrNameTaken", err)
	}
	id := newAccount("Cy", 3)
	id.ID = a.ID
	if err := s.CreateAccount(ctx(t), id); !errors.Is(err, store.ErrConflict) {
		t.Errorf("same id: %v, want ErrConflict", err)
	}
	handle := newAccount("Di", 4)
	handle.Handle = a.Handle
	if err := s.CreateAccount(ctx(t), handle); !errors.Is(err, store.ErrConflict) {
		t.Errorf("same handle: %v, want ErrConflict", err)
	}
	if _, err := s.AccountByKey(ctx(t), "key:Cy"); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a refused account was stored: %v", err)
	}
}

func testAccountBad(t *testing.T, s store.Store) {
	for name, edit := range map[string]func(*store.Account){
		"no id":      func(a *store.Account) { a.ID = "" },
		"no name":    func(a *store.Account) { a.Name = "" },
		"no key":     func(a *store.Account) { a.Key = "" },
		"no handle":  func(a *store.Account) { a.Handle = nil },
		"no seatkey": func(a *store.Account) { a.SeatKey = nil },
		"no sigma":   func(a *store.Account) { a.Rating.Sigma = 0 },
	} {
		a := newAccount("Ann", 1)
		edit(a)
		if err := s.CreateAccount(ctx(t), a); err == nil {
			t.Errorf("%s: CreateAccount succeeded", name)
		}
	}
	if _, err := s.AccountByKey(ctx(t), "key:Ann"); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a bad account was stored: %v", err)
	}
}

func testSetPassword(t *testing.T, s store.Store) {
	a := newAccount("Ann", 1)
	createAccount(t, s, a)
	for _, pw := range []string{"$argon2id$new", ""} {
		if err := s.SetPassword(ctx(t), a.ID, pw); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Account(ctx(t), a.ID); err != nil || got.Password != pw {
			t.Errorf("after SetPassword(%q): %q, %v", pw, got.Password, err)
		}
	}
	if err := s.SetPassword(ctx(t), "nobody", "x"); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("SetPassword of nobody: %v, want ErrNoAccount", err)
	}
}

func session(b byte, account string, expires time.Time) store.Session {
	return store.Session{Hash: hash(b), Account: account, Created: base, Expires: expires}
}

func testSessions(t *testing.T, s store.Store) {
	a, b := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, a)
	createAccount(t, s, b)
	exp := base.Add(time.Hour)
	for i, se := range []store.Session{session(1, a.ID, exp), session(2, a.ID, exp), session(3, a.ID, exp), session(4, b.ID, exp)} {
		if err := s.CreateSession(ctx(t), se); err != nil {
			t.Fatalf("CreateSession %d: %v", i, err)
		}
	}
	if err := s.CreateSession(ctx(t), session(1, b.ID, exp)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a session id twice: %v, want ErrConflict", err)
	}
	if err := s.CreateSession(ctx(t), session(9, "nobody", exp)); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a session of nobody: %v, want ErrNoAccount", err)
	}
	se, acct, err := s.Session(ctx(t), hash(1), base)
	if err != nil {
		t.Fatal(err)
	}
	if acct.ID != a.ID || se.Account != a.ID || !se.Expires.Equal(exp) || !se.Created.Equal(base) || !bytes.Equal(se.Hash, hash(1)) {
		t.Errorf("Session = %+v of %s", se, acct.ID)
	}
	alive := func(b byte) bool {
		_, _, err := s.Session(ctx(t), hash(b), base)
		if err != nil && !errors.Is(err, store.ErrNoAccount) {
			t.Fatal(err)
		}
		return err == nil
	}
	if err := s.DeleteSession(ctx(t), hash(1)); err != nil || alive(1) {
		t.Errorf("DeleteSession: %v; still alive %t", err, alive(1))
	}
	if err := s.DeleteSession(ctx(t), hash(1)); err != nil {
		t.Errorf("DeleteSession twice: %v", err)
	}
	// Everywhere but here: 2 stays, 3 goes, Bo's 4 stays.
	if err := s.DeleteSessions(ctx(t), a.ID, hash(2)); err != nil {
		t.Fatal(err)
	}
	if !alive(2) || alive(3) || !alive(4) {
		t.Errorf("after DeleteSessions(keep 2): alive 2 %t, 3 %t, 4 %t; want true false true", alive(2), alive(3), alive(4))
	}
	if err := s.DeleteSessions(ctx(t), a.ID, nil); err != nil {
		t.Fatal(err)
	}
	if alive(2) || !alive(4) {
		t.Errorf("after DeleteSessions(all): alive 2 %t, 4 %t", alive(2), alive(4))
	}
}

func testSessionExpired(t *testing.T, s store.Store) {
	a := newAccount("Ann", 1)
	createAccount(t, s, a)
	exp := base.Add(time.Hour)
	for _, b := range []byte{1, 2, 3} {
		if err := s.CreateSession(ctx(t), session(b, a.ID, exp.Add(time.Duration(b-1)*time.Hour))); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.Session(ctx(t), hash(1), exp.Add(-time.Nanosecond)); err != nil {
		t.Errorf("a session just before it expires: %v", err)
	}
	if _, _, err := s.Session(ctx(t), hash(1), exp); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a session at its expiry: %v, want ErrNoAccount", err)
	}
	// Gone for good, even if the clock stepped back.
	if _, _, err := s.Session(ctx(t), hash(1), base); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("an expired session asked again: %v, want ErrNoAccount", err)
	}
	// Purge removes what expired and keeps the rest.
	if err := s.Purge(ctx(t), exp.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Session(ctx(t), hash(2), base); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a purged session: %v, want ErrNoAccount", err)
	}
	if _, _, err := s.Session(ctx(t), hash(3), base); err != nil {
		t.Errorf("a session Purge should have kept: %v", err)
	}
}

func testPasskeys(t *testing.T, s store.Store) {
	a, b := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, a)
	createAccount(t, s, b)
	keys := []store.Passkey{
		{ID: []byte("cred-1"), Account: a.ID, Name: "laptop", Credential: []byte(`{"k":1}`), Created: base},
		{ID: []byte("cred-2"), Account: a.ID, Name: "phone", Credential: []byte(`{"k":2}`), Created: base.Add(time.Minute)},
		{ID: []byte("cred-3"), Account: b.ID, Name: "", Credential: []byte(`{"k":3}`), Created: base},
	}
	for _, p := range keys {
		if err := s.AddPasskey(ctx(t), p); err != nil {
			t.Fatalf("AddPasskey(%s): %v", p.ID, err)
		}
	}
	if err := s.AddPasskey(ctx(t), keys[0]); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a passkey twice: %v, want ErrConflict", err)
	}
	if err := s.AddPasskey(ctx(t), store.Passkey{ID: []byte("x"), Account: "nobody", Credential: []byte("{}"), Created: base}); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a passkey of nobody: %v, want ErrNoAccount", err)
	}
	used := base.Add(time.Hour)
	if err := s.UsePasskey(ctx(t), keys[1].ID, []byte(`{"k":22}`), used); err != nil {
		t.Fatal(err)
	}
	if err := s.UsePasskey(ctx(t), []byte("none"), []byte(`{}`), used); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("UsePasskey of an unknown id: %v, want ErrNoAccount", err)
	}
	got, err := s.Passkeys(ctx(t), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || string(got[0].ID) != "cred-1" || got[0].Name != "laptop" || !got[0].Used.IsZero() ||
		string(got[1].Credential) != `{"k":22}` || !got[1].Used.Equal(used) || !got[1].Created.Equal(keys[1].Created) {
		t.Errorf("Passkeys = %+v", got)
	}
	// Bo cannot remove Ann's passkey.
	if err := s.DeletePasskey(ctx(t), b.ID, keys[0].ID); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("deleting another's passkey: %v, want ErrNoAccount", err)
	}
	if err := s.DeletePasskey(ctx(t), a.ID, keys[0].ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Passkeys(ctx(t), a.ID); len(got) != 1 || string(got[0].ID) != "cred-2" {
		t.Errorf("after DeletePasskey: %+v", got)
	}
	if got, _ := s.Passkeys(ctx(t), "nobody"); len(got) != 0 {
		t.Errorf("Passkeys(nobody) = %+v", got)
	}
}

func testChallenges(t *testing.T, s store.Store) {
	exp := base.Add(5 * time.Minute)
	for _, c := range []store.Challenge{
		{Hash: hash(1), Account: "", Data: []byte(`{"challenge":"a"}`), Expires: exp},
		{Hash: hash(2), Account: "acct01", Data: []byte(`{"challenge":"b"}`), Expires: exp},
		{Hash: hash(3), Data: []byte(`{}`), Expires: exp},
	} {
		if err := s.PutChallenge(ctx(t), c); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutChallenge(ctx(t), store.Challenge{Hash: hash(1), Data: []byte("{}"), Expires: exp}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a challenge twice: %v, want ErrConflict", err)
	}
	c, err := s.TakeChallenge(ctx(t), hash(2), base)
	if err != nil || c.Account != "acct01" || string(c.Data) != `{"challenge":"b"}` || !c.Expires.Equal(exp) {
		t.Errorf("TakeChallenge = %+v, %v", c, err)
	}
	if _, err := s.TakeChallenge(ctx(t), hash(2), base); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a challenge taken twice: %v, want ErrNoAccount", err)
	}
	if _, err := s.TakeChallenge(ctx(t), hash(1), exp); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("an expired challenge: %v, want ErrNoAccount", err)
	}
	if _, err := s.TakeChallenge(ctx(t), hash(1), base); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("an expired challenge asked again: %v, want ErrNoAccount", err)
	}
	if err := s.Purge(ctx(t), exp); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TakeChallenge(ctx(t), hash(3), base); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("a purged challenge: %v, want ErrNoAccount", err)
	}
}

func testSeatAccounts(t *testing.T, s store.Store) {
	a, b := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, a)
	createAccount(t, s, b)
	g := newGame("acseat0001", store.StatusOpen, 0)
	g.Rated = true
	g.Seats = append(g.Seats, store.Seat{})
	g.Seats[2].Account = a.ID
	create(t, s, g)
	checkGame(t, s, g)
	// Ann cannot take a second seat; Bo can take one.
	err := s.TakeSeat(ctx(t), g.ID, store.NoFence, 0, store.Seat{Name: "Ann2", TokenHash: hash(2), Account: a.ID}, store.StatusOpen)
	if !errors.Is(err, store.ErrConflict) {
		t.Errorf("an account's second seat: %v, want ErrConflict", err)
	}
	checkGame(t, s, g)
	if err := s.TakeSeat(ctx(t), g.ID, store.NoFence, 3, store.Seat{Name: "Bo", TokenHash: hash(3), Account: b.ID}, store.StatusOpen); err != nil {
		t.Fatal(err)
	}
	g.Seats[3] = store.Seat{Name: "Bo", TokenHash: hash(3), Account: b.ID}
	g.Updated = get(t, s, g.ID).Updated
	checkGame(t, s, g)
	sums, err := s.List(ctx(t), store.StatusOpen, 0)
	if err != nil || len(sums) != 1 {
		t.Fatalf("List = %v, %v", sums, err)
	}
	if !sums[0].Rated || sums[0].Seats[2].Account != a.ID || sums[0].Seats[3].Account != b.ID {
		t.Errorf("List: rated %t, seats %+v", sums[0].Rated, sums[0].Seats)
	}
	// A new game with one account in two seats is refused.
	two := newGame("acseat0002", store.StatusPlaying, 0)
	two.Seats[0] = store.Seat{Name: "Ann", TokenHash: hash(4), Account: a.ID}
	two.Seats[2].Account = a.ID
	if err := s.CreateGame(ctx(t), two); err == nil {
		t.Error("CreateGame with one account in two seats succeeded")
	}
}

func testClaimSeats(t *testing.T, s store.Store) {
	a, b := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, a)
	createAccount(t, s, b)
	g1 := newGame("claim00001", store.StatusFinished, 0) // Ann's guest seat 2
	g2 := newGame("claim00002", store.StatusPlaying, 0)  // Ann holds seat 0 already
	g2.Seats[0] = store.Seat{Name: "Ann", TokenHash: hash(0x10), Account: a.ID}
	g3 := newGame("claim00003", store.StatusPlaying, 0) // seat 2 is Bo's
	g3.Seats[2].Account = b.ID
	for _, g := range []*store.Game{g1, g2, g3} {
		create(t, s, g)
	}
	got, err := s.ClaimSeats(ctx(t), a.ID, []store.Claim{
		{Game: g1.ID, OldHash: hash(0xa1), NewHash: hash(0x11)},
		{Game: g2.ID, OldHash: hash(0xa1), NewHash: hash(0x12)},
		{Game: g3.ID, OldHash: hash(0xa1), NewHash: hash(0x13)},
		{Game: "nosuchgame", OldHash: hash(0xa1), NewHash: hash(0x14)},
		{Game: g1.ID, OldHash: hash(0xee), NewHash: hash(0x15)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{g1.ID}) {
		t.Errorf("ClaimSeats = %v, want [%s]", got, g1.ID)
	}
	g1.Seats[2].Account, g1.Seats[2].TokenHash = a.ID, hash(0x11)
	// The finished game keeps its date: a guest who registers keeps each
	// game's real date in the profile.
	if got := get(t, s, g1.ID).Updated; got.Before(g1.Updated) || got.Sub(g1.Updated) > time.Microsecond {
		t.Errorf("claiming a finished game moved its date from %v to %v", g1.Updated, got)
	}
	for _, g := range []*store.Game{g1, g2, g3} {
		g.Updated = get(t, s, g.ID).Updated
		checkGame(t, s, g)
	}
	if _, err := s.ClaimSeats(ctx(t), "nobody", nil); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("ClaimSeats of nobody: %v, want ErrNoAccount", err)
	}
}

func testAccountGames(t *testing.T, s store.Store) {
	a := newAccount("Ann", 1)
	createAccount(t, s, a)
	var ids []string
	for i, st := range []store.Status{store.StatusOpen, store.StatusPlaying, store.StatusFinished, store.StatusPlaying} {
		g := newGame(fmt.Sprintf("acgame%04d", i), st, time.Duration(i)*time.Minute)
		g.Seats[2].Account = a.ID
		create(t, s, g)
		ids = append(ids, g.ID)
	}
	create(t, s, newGame("acgame9999", store.StatusPlaying, time.Hour)) // not Ann's
	sums, err := s.AccountGames(ctx(t), a.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sum := range sums {
		got = append(got, sum.ID)
	}
	if want := []string{ids[3], ids[2], ids[1], ids[0]}; !slices.Equal(got, want) {
		t.Errorf("AccountGames = %v, want %v", got, want)
	}
	if sums[0].Seats[2].Account != a.ID || sums[0].Seats[2].TokenHash != nil {
		t.Errorf("AccountGames seat = %+v; want the account and no token hash", sums[0].Seats[2])
	}
	sums, err = s.AccountGames(ctx(t), a.ID, 1, store.StatusOpen, store.StatusPlaying)
	if err != nil || len(sums) != 1 || sums[0].ID != ids[3] {
		t.Errorf("AccountGames(limit 1, live) = %+v, %v", sums, err)
	}
	if sums, err := s.AccountGames(ctx(t), "nobody", 0); err != nil || len(sums) != 0 {
		t.Errorf("AccountGames(nobody) = %+v, %v", sums, err)
	}
}

// result returns a result of game id: seat 0 is account a (rated from
// before to after when both are set), seat 1 a bot, seat 2 a guest.
func result(id, a string, finished time.Time, before, after *store.Rating) store.Result {
	return store.Result{
		Game: id, Players: 3, Rated: after != nil, Finished: finished,
		Seats: []store.SeatResult{
			{Seat: 0, Account: a, Name: "Ann", Rank: 1, Score: 30, Scores: []int{0, 6, 9, 3, 2, 10, 0}, Before: before, After: after},
			{Seat: 1, Bot: "hard", Name: "Bot 2 (hard)", Rank: 2, Score: 12, Scores: []int{-1, 0, 5, 1, 2, 5, 0}},
			{Seat: 2, Name: "Guest", Rank: 2, Score: 12, Scores: []int{0, 0, 3, 3, 0, 6, 0}},
		},
	}
}

func testResults(t *testing.T, s store.Store) {
	a := newAccount("Ann", 1)
	createAccount(t, s, a)
	r0 := a.Rating
	r1 := store.Rating{Mu: 27.5, Sigma: 7.9, Games: 1}
	r2 := store.Rating{Mu: 26.25, Sigma: 7.5, Games: 2}
	add := []store.Result{
		result("result0001", a.ID, base.Add(time.Minute), &r0, &r1),
		result("result0002", a.ID, base.Add(2*time.Minute), nil, nil), // casual
		result("result0003", a.ID, base.Add(3*time.Minute), &r1, &r2),
	}
	for _, r := range add {
		if err := s.AddResult(ctx(t), r); err != nil {
			t.Fatalf("AddResult(%s): %v", r.Game, err)
		}
	}
	if got, _ := s.Account(ctx(t), a.ID); got.Rating != r2 {
		t.Errorf("rating = %+v, want %+v", got.Rating, r2)
	}
	if err := s.AddResult(ctx(t), add[1]); !errors.Is(err, store.ErrRated) {
		t.Errorf("a result twice: %v, want ErrRated", err)
	}
	got, err := s.Results(ctx(t), a.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("Results = %d, want 3", len(got))
	}
	for i, r := range got {
		want := add[2-i]
		if r.Game != want.Game || r.Players != 3 || r.Rated != want.Rated || !r.Finished.Equal(want.Finished) || len(r.Seats) != 3 {
			t.Errorf("Results[%d] = %+v, want %+v", i, r, want)
			continue
		}
		for j, st := range r.Seats {
			w := want.Seats[j]
			if st.Seat != w.Seat || st.Account != w.Account || st.Bot != w.Bot || st.Name != w.Name || st.Rank != w.Rank ||
				st.Score != w.Score || !slices.Equal(st.Scores, w.Scores) || (st.After == nil) != (w.After == nil) ||
				st.After != nil && (*st.After != *w.After || *st.Before != *w.Before) {
				t.Errorf("Results[%d] seat %d = %+v, want %+v", i, j, st, w)
			}
		}
	}
	if got, _ := s.Results(ctx(t), a.ID, 2); len(got) != 2 || got[0].Game != "result0003" {
		t.Errorf("Results(limit 2) = %+v", got)
	}
	if got, _ := s.Results(ctx(t), "nobody", 0); len(got) != 0 {
		t.Errorf("Results(nobody) = %+v", got)
	}
}

func testResultConflict(t *testing.T, s store.Store) {
	a := newAccount("Ann", 1)
	createAccount(t, s, a)
	stale := store.Rating{Mu: 20, Sigma: 8, Games: 0}
	after := store.Rating{Mu: 21, Sigma: 7.5, Games: 1}
	if err := s.AddResult(ctx(t), result("conflict01", a.ID, base, &stale, &after)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a rating from a stale one: %v, want ErrConflict", err)
	}
	if got, _ := s.Account(ctx(t), a.ID); got.Rating != a.Rating {
		t.Errorf("rating changed to %+v", got.Rating)
	}
	if got, _ := s.Results(ctx(t), a.ID, 0); len(got) != 0 {
		t.Errorf("a refused result was stored: %+v", got)
	}
	bad := result("conflict02", a.ID, base, nil, &after) // After without Before
	if err := s.AddResult(ctx(t), bad); err == nil {
		t.Error("a rating change with no Before was stored")
	}
	casual := result("conflict03", a.ID, base, &a.Rating, &after)
	casual.Rated = false
	if err := s.AddResult(ctx(t), casual); err == nil {
		t.Error("a casual game changed a rating")
	}
	two := result("conflict04", a.ID, base, nil, nil)
	two.Seats[2].Account = a.ID
	if err := s.AddResult(ctx(t), two); err == nil {
		t.Error("a result with one account in two seats was stored")
	}
	if got, _ := s.Account(ctx(t), a.ID); got.Rating != a.Rating {
		t.Errorf("rating changed to %+v", got.Rating)
	}
}

func testLeaderboard(t *testing.T, s store.Store) {
	rated := []struct {
		name   string
		rating store.Rating
	}{
		{"Ann", store.Rating{Mu: 30, Sigma: 2, Games: 12}},    // 24
		{"Bo", store.Rating{Mu: 35, Sigma: 5, Games: 10}},     // 20
		{"Cy", store.Rating{Mu: 40, Sigma: 3, Games: 9}},      // 31, too few games
		{"Di", store.Rating{Mu: 28.5, Sigma: 1.5, Games: 40}}, // 24, after Ann by key
		{"Ed", store.Rating{Mu: 20, Sigma: 1, Games: 10}},     // 17
	}
	for i, r := range rated {
		a := newAccount(r.name, byte(i+1))
		a.Rating = r.rating
		createAccount(t, s, a)
	}
	got, err := s.Leaderboard(ctx(t), 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range got {
		names = append(names, a.Name)
	}
	if want := []string{"Ann", "Di", "Bo"}; !slices.Equal(names, want) {
		t.Errorf("Leaderboard = %v, want %v", names, want)
	}
	if len(got) > 0 && got[0].Rating != rated[0].rating {
		t.Errorf("Leaderboard[0].Rating = %+v", got[0].Rating)
	}
}

func testDeleteAccount(t *testing.T, s store.Store) {
	a, b := newAccount("Ann", 1), newAccount("Bo", 2)
	createAccount(t, s, a)
	createAccount(t, s, b)
	for _, se := range []store.Session{session(1, a.ID, base.Add(time.Hour)), session(2, b.ID, base.Add(time.Hour))} {
		if err := s.CreateSession(ctx(t), se); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddPasskey(ctx(t), store.Passkey{ID: []byte("cred"), Account: a.ID, Credential: []byte("{}"), Created: base}); err != nil {
		t.Fatal(err)
	}
	g := newGame("delete0001", store.StatusFinished, 0)
	g.Seats[2].Account = a.ID
	g.Seats[0] = store.Seat{Name: "Bo", TokenHash: hash(0xb0), Account: b.ID}
	create(t, s, g)
	other := newGame("delete0002", store.StatusPlaying, 0) // not Ann's
	create(t, s, other)
	r := result(g.ID, a.ID, base, nil, nil)
	if err := s.AddResult(ctx(t), r); err != nil {
		t.Fatal(err)
	}
	renamed := func(seat int) string { return fmt.Sprintf("Former player %d", seat+1) }
	games, err := s.DeleteAccount(ctx(t), a.ID, renamed)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(games, []string{g.ID}) {
		t.Errorf("DeleteAccount changed %v, want [%s]", games, g.ID)
	}
	if _, err := s.Account(ctx(t), a.ID); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("the deleted account: %v", err)
	}
	if _, _, err := s.Session(ctx(t), hash(1), base); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("the deleted account's session: %v", err)
	}
	if _, _, err := s.Session(ctx(t), hash(2), base); err != nil {
		t.Errorf("Bo's session: %v", err)
	}
	if ps, _ := s.Passkeys(ctx(t), a.ID); len(ps) != 0 {
		t.Errorf("the deleted account's passkeys: %+v", ps)
	}
	got := get(t, s, g.ID)
	if st := got.Seats[2]; st.Name != "Former player 3" || st.Account != "" {
		t.Errorf("the deleted account's seat = %+v", st)
	}
	if st := got.Seats[0]; st.Name != "Bo" || st.Account != b.ID {
		t.Errorf("Bo's seat = %+v", st)
	}
	checkGame(t, s, other)
	if rs, _ := s.Results(ctx(t), a.ID, 0); len(rs) != 0 {
		t.Errorf("Results of the deleted account: %+v", rs)
	}
	// The name is free again.
	createAccount(t, s, newAccount("Ann", 3))
	if _, err := s.DeleteAccount(ctx(t), "nobody", renamed); !errors.Is(err, store.ErrNoAccount) {
		t.Errorf("DeleteAccount(nobody): %v, want ErrNoAccount", err)
	}
}
