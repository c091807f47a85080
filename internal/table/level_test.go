package table

import (
	"sync"
	"testing"

	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// The creator of a table changes a bot seat's level before the start:
// every watcher sees the new level, the game starts with a bot of that
// level, and a refusal changes nothing.
func TestSetLevel(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	var (
		mu    sync.Mutex
		built []string
	)
	opts := testOptions(t)
	opts.NewBot = func(level string, seed uint64) (bot.Bot, error) {
		mu.Lock()
		built = append(built, level)
		mu.Unlock()
		return bot.New("random", seed)
	}
	h := New(st, opts)
	t.Cleanup(func() { h.Close() })
	in, creator, err := created(h.Create(ctx, TableSetup{Seats: []string{"", "", "easy"}}))
	if err != nil {
		t.Fatal(err)
	}
	_, ann, err := h.Join(ctx, in.ID, 0, Person{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	spectator, err := h.Watch(ctx, in.ID, Watcher{})
	if err != nil {
		t.Fatal(err)
	}
	defer spectator.Close()
	next(t, ctx, spectator)
	before, _ := st.Game(ctx, in.ID)
	for _, c := range []struct {
		name  string
		token string
		seat  int
		level string
		kind  error
	}{
		{"no token", "", 2, "hard", ErrNotCreator},
		{"a player's token", ann, 2, "hard", ErrNotCreator},
		{"a person's seat", creator, 0, "hard", ErrBadRequest},
		{"an open seat", creator, 1, "hard", ErrBadRequest},
		{"no such seat", creator, 3, "hard", ErrBadRequest},
		{"an unknown level", creator, 2, "godlike", ErrBadRequest},
		{"a bot spec", creator, 2, "mcts:iters=1e9", ErrBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantKind(t, h.SetLevel(ctx, in.ID, c.token, c.seat, c.level), c.kind)
			if g, _ := st.Game(ctx, in.ID); !g.Equal(before) {
				t.Fatalf("a refused level changed the game: %+v", g.Seats)
			}
		})
	}
	if err := h.SetLevel(ctx, in.ID, creator, 2, "hard"); err != nil {
		t.Fatalf("SetLevel: %v", err)
	}
	u, _ := next(t, ctx, spectator)
	if s := u.Game.Seats[2]; s.Bot != "hard" || s.Name != "Bot 3 (hard)" {
		t.Errorf("the spectator sees seat 2 as %+v, want the hard bot", s)
	}
	if g, _ := st.Game(ctx, in.ID); g.Seats[2].Bot != "hard" || g.Status != before.Status {
		t.Errorf("stored seat 2 %+v, status %s; want the hard bot at a table still open", g.Seats[2], g.Status)
	}
	if _, _, err := h.Join(ctx, in.ID, 1, Person{Name: "Bob"}); err != nil {
		t.Fatal(err)
	}
	wantKind(t, h.SetLevel(ctx, in.ID, creator, 2, "easy"), ErrAlreadyStarted)
	mu.Lock()
	defer mu.Unlock()
	if len(built) != 1 || built[0] != "hard" {
		t.Errorf("the game started with bots %q, want one hard bot", built)
	}
}
