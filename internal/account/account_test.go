package account_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/rating"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// newService returns a Service on a fresh memory store, with cheap
// password hashing, and registers the accounts named.
func newService(t *testing.T, opts account.Options, names ...string) (*account.Service, map[string]account.Account) {
	t.Helper()
	opts.Params = account.Params{Memory: 64, Time: 1, Threads: 1}
	svc := account.New(memstore.New(), opts)
	accts := map[string]account.Account{}
	for _, n := range names {
		a, _, err := svc.Register(context.Background(), n, "correct horse battery staple")
		if err != nil {
			t.Fatal(err)
		}
		accts[n] = a
	}
	return svc, accts
}

// points is a final score whose total is n (all in cars).
func points(n int) razzia.Score {
	var s razzia.Score
	s[razzia.CategoryCars] = n
	return s
}

// TestSharedWin: a tie for first place is a shared win. Two new players
// who tie keep their μ (each was as likely to finish ahead as behind)
// and lose uncertainty by the Plackett–Luce formula worked out by hand;
// at a three-player table, two players sharing the win against a bot
// are rated as the model rates equal places, and both count a win.
func TestSharedWin(t *testing.T) {
	ctx := context.Background()
	m := rating.Default()
	svc, accts := newService(t, account.Options{Bots: map[string]rating.Rating{"medium": {Mu: 27, Sigma: 1.5}}}, "Ann", "Bo", "Cy", "Di")
	seat := func(name string) store.Seat { return store.Seat{Name: name, Account: accts[name].ID} }
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

	// Two players, a tie. By hand: σ² = (25/3)² + τ², c² = 2σ² + 2β²,
	// p = ½; μ' = μ + σ²/c·(½ − ½) = 25; σ'² = σ²·(1 − σ²/c²·σ/c·¼).
	if err := svc.Finished(ctx, account.GameEnd{Game: "tie0000001", Rated: true, Seats: []store.Seat{seat("Ann"), seat("Bo")},
		Scores: []razzia.Score{points(30), points(30)}, At: at}); err != nil {
		t.Fatal(err)
	}
	v := m.Sigma*m.Sigma + m.Tau*m.Tau
	c := math.Sqrt(2*v + 2*m.Beta*m.Beta)
	wantSigma := math.Sqrt(v * (1 - v/(c*c)*math.Sqrt(v)/c*0.25))
	for _, n := range []string{"Ann", "Bo"} {
		p, err := svc.Profile(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.Rating.Mu-25) > 1e-9 || math.Abs(p.Rating.Sigma-wantSigma) > 1e-9 || p.Rating.Games != 1 {
			t.Errorf("%s after a tie: %+v, want mu 25 sigma %.10f", n, p.Rating, wantSigma)
		}
		if len(p.ByPlayers) != 1 || p.ByPlayers[0].Won != 1 || p.Recent[0].Rank != 1 {
			t.Errorf("%s: a shared win is not counted as a win: %+v", n, p.ByPlayers)
		}
	}

	// Three seats: Cy and Di share the win, the bot is last.
	before := []rating.Rating{m.New(), m.New(), {Mu: 27, Sigma: 1.5}}
	want, err := m.Rate(before, []int{1, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Finished(ctx, account.GameEnd{Game: "tie0000002", Rated: true,
		Seats:  []store.Seat{seat("Cy"), seat("Di"), {Name: "Bot 3 (medium)", Bot: "medium"}},
		Scores: []razzia.Score{points(25), points(25), points(12)}, At: at}); err != nil {
		t.Fatal(err)
	}
	for i, n := range []string{"Cy", "Di"} {
		p, err := svc.Profile(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.Rating.Mu-want[i].Mu) > 1e-9 || math.Abs(p.Rating.Sigma-want[i].Sigma) > 1e-9 {
			t.Errorf("%s: %+v, want %+v", n, p.Rating, want[i])
		}
		if p.Rating.Mu <= 25 {
			t.Errorf("%s shared a win over a stronger bot and lost μ: %v", n, p.Rating.Mu)
		}
		if len(p.Bots) != 1 || p.Bots[0].Wins != 1 || p.ByPlayers[0].Won != 1 {
			t.Errorf("%s: the record %+v, %+v; want a win over the bot", n, p.Bots, p.ByPlayers)
		}
	}
	if got := svc.BotRating("medium"); got != (rating.Rating{Mu: 27, Sigma: 1.5}) {
		t.Errorf("the bot's rating moved to %+v", got)
	}
}

// TestUnratedGames: a casual game, a rated game a guest sat at, and the
// same result reported twice change no rating (or change it once).
func TestUnratedGames(t *testing.T) {
	ctx := context.Background()
	svc, accts := newService(t, account.Options{}, "Ann")
	ann := store.Seat{Name: "Ann", Account: accts["Ann"].ID}
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, g := range []account.GameEnd{
		{Game: "casual0001", Rated: false, Seats: []store.Seat{ann, {Name: "Bot 2 (easy)", Bot: "easy"}}},
		{Game: "guest00001", Rated: true, Seats: []store.Seat{ann, {Name: "Guest"}}},
	} {
		g.Scores, g.At = []razzia.Score{points(40), points(10)}, at
		if err := svc.Finished(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	p, err := svc.Profile(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	if p.Rating.Games != 0 || p.Rating.Mu != 25 || len(p.Recent) != 2 {
		t.Errorf("after a casual game and a guest's rated one: %+v (%d games listed)", p.Rating, len(p.Recent))
	}
	rated := account.GameEnd{Game: "rated00001", Rated: true, Seats: []store.Seat{ann, {Name: "Bot 2 (easy)", Bot: "easy"}},
		Scores: []razzia.Score{points(40), points(10)}, At: at}
	for range 2 {
		if err := svc.Finished(ctx, rated); err != nil {
			t.Fatal(err)
		}
	}
	if p, _ = svc.Profile(ctx, "Ann"); p.Rating.Games != 1 || len(p.History) != 1 {
		t.Errorf("a result reported twice: %d rated games, %d points of history; want 1", p.Rating.Games, len(p.History))
	}
}

// TestForfeitLoses: a player who timed out or left loses the rated game,
// whatever the bot that played for them scored: they are rated last, the
// others by their order (rating.Forfeit). A casual game's ranks are not
// touched, and the stored places stay those of the scores.
func TestForfeitLoses(t *testing.T) {
	ctx := context.Background()
	m := rating.Default()
	svc, accts := newService(t, account.Options{}, "Ann", "Bo")
	seats := []store.Seat{{Name: "Ann", Account: accts["Ann"].ID}, {Name: "Bo", Account: accts["Bo"].ID}}
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	// Ann's stand-in scored more; Ann forfeited all the same.
	if err := svc.Finished(ctx, account.GameEnd{Game: "forfeit001", Rated: true, Seats: seats,
		Scores: []razzia.Score{points(40), points(20)}, At: at, Forfeited: []bool{true, false}}); err != nil {
		t.Fatal(err)
	}
	want, err := m.Rate([]rating.Rating{m.New(), m.New()}, []int{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []string{"Ann", "Bo"} {
		p, err := svc.Profile(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.Rating.Mu-want[i].Mu) > 1e-9 || math.Abs(p.Rating.Sigma-want[i].Sigma) > 1e-9 {
			t.Errorf("%s: %+v, want %+v (Ann forfeited: rated last)", n, p.Rating, want[i])
		}
	}
}

// TestSessionActsOnItsRecord: what a caller changes of a session's
// Account (a copy for reading) never redirects the Service to another
// account: signing out everywhere ends the sessions of the session's own.
func TestSessionActsOnItsRecord(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t, account.Options{})
	_, ann, err := svc.Register(ctx, "Ann", "correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	bo, boToken, err := svc.Register(ctx, "Bo", "correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	se, err := svc.Session(ctx, ann)
	if err != nil {
		t.Fatal(err)
	}
	se.Account.ID, se.Account.Name = bo.ID, bo.Name
	if err := svc.SignOutEverywhere(ctx, se); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Session(ctx, ann); !errors.Is(err, account.ErrUnauthorized) {
		t.Errorf("Ann's session after signing out everywhere: %v, want ErrUnauthorized", err)
	}
	if got, err := svc.Session(ctx, boToken); err != nil || got.Account.ID != bo.ID {
		t.Errorf("Bo's session: %+v, %v; want it kept", got.Account, err)
	}
}
