package table

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
	"github.com/razziagame/razzia/internal/tutorial"
)

// TestCreateTutorial: the guided first game is stored as an ordinary game
// of the prepared deal, started, with the learner seated; no list shows
// it; its bots are the tutorial's whatever NewBot builds (testOptions'
// bots are random), also after a restart; a bad name, or a bot's, is
// refused.
func TestCreateTutorial(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	h := newHub(t, st)
	if _, err := h.Create(ctx, TableSetup{Tutorial: true, Client: "client"}); err == nil {
		t.Fatal("a tutorial for an empty name was created")
	} else {
		wantKind(t, err, ErrBadName)
	}
	if _, err := h.Create(ctx, TableSetup{Tutorial: true, Learner: "felix", Client: "client"}); err == nil {
		t.Fatal("a tutorial for a learner called as a bot was created")
	} else {
		wantKind(t, err, ErrNameTaken)
	}
	tb, err := h.Create(ctx, TableSetup{Tutorial: true, Learner: "Cy", Client: "client"})
	if err != nil {
		t.Fatal(err)
	}
	in, seat, token := tb.Info, tb.Seat, tb.Token
	if seat != tutorial.Learner || in.Status != protocol.StatusPlaying {
		t.Fatalf("seat %d, status %s; want seat %d and a game being played", seat, in.Status, tutorial.Learner)
	}
	g, err := st.Game(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	setup := tutorial.Setup("Cy")
	if !slices.Equal(g.Seed, setup.Seed) || !reflect.DeepEqual(g.Cheques, setup.Cheques) || !slices.Equal(match.PlayerNames(g.Seats), setup.Players) {
		t.Errorf("stored seed %q, cheques %v, players %q; want the prepared deal %q, %v, %q", g.Seed, g.Cheques, match.PlayerNames(g.Seats), setup.Seed, setup.Cheques, setup.Players)
	}
	for i, s := range g.Seats {
		if want := tutorial.Bot; i == tutorial.Learner {
			if s.Bot != "" || s.TokenHash == nil {
				t.Errorf("the learner's seat is %+v", s)
			}
		} else if s.Bot != want {
			t.Errorf("seat %d plays %q, want %q", i, s.Bot, want)
		}
	}
	if _, you, err := h.Game(ctx, in.ID, token); err != nil || you != tutorial.Learner {
		t.Errorf("the token holds seat %d (%v)", you, err)
	}
	for _, status := range []store.Status{"", store.StatusPlaying} {
		list, err := h.List(ctx, status)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range list {
			if x.ID == in.ID {
				t.Errorf("List(%q) shows the tutorial", status)
			}
		}
	}

	// The bots play as the tutorial's bots do, before the learner's first
	// move (whoever the deal makes start) and after it.
	sub, err := h.Watch(ctx, in.ID, Watcher{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	learnerToMove := func() {
		t.Helper()
		for {
			u, ok := next(t, ctx, sub)
			if !ok {
				t.Fatal("the subscription ended")
			}
			if u.View.ToMove == tutorial.Learner {
				return
			}
		}
	}
	learnerToMove()
	if err := h.Play(ctx, in.ID, token, "draw", -1); err != nil {
		t.Fatal(err)
	}
	learnerToMove()
	rec, err := h.Record(ctx, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := tutorialMoves(t, rec.Moves); !slices.Equal(rec.Moves, want) {
		t.Errorf("the tutorial's moves %q, want the tutorial bots' %q", rec.Moves, want)
	}

	// A restarted server runs the tutorial again with its own bots.
	h.Close()
	h2 := newHub(t, st)
	if n, err := h2.Resume(ctx); err != nil || n != 1 {
		t.Fatalf("resumed %d games (%v), want the tutorial", n, err)
	}
}

// tutorialMoves plays the prepared deal with the tutorial's bots, the
// learner's moves taken from played, for as many moves as played has.
func tutorialMoves(t *testing.T, played []string) []string {
	t.Helper()
	seed := tutorial.Seed()
	g, err := razzia.NewGame(tutorial.Setup("Cy"))
	if err != nil {
		t.Fatal(err)
	}
	for g.Len() < len(played) {
		seat := g.ToMove()
		if seat == tutorial.Learner {
			if err := g.PlayToken(played[g.Len()]); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := tutorial.NewBot(razzia.SeededRand(seed, fmt.Sprintf("bot %d", seat)).Uint64())
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(b.Choose(g.View(seat))); err != nil {
			t.Fatal(err)
		}
	}
	return g.Record().Moves
}
