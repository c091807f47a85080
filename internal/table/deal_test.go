package table

import (
	"reflect"
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/memstore"
)

// TestCreateDealsFromTheSeed: a new table's cheques are dealt from its seed
// by razzia.NewSetup, the one derivation from a seed to a game.
func TestCreateDealsFromTheSeed(t *testing.T) {
	ctx := testContext(t)
	st := memstore.New()
	h := newHub(t, st)
	for _, seats := range [][]string{{"", ""}, {"", "easy", ""}, {"easy", "easy", "easy", "easy", "easy"}} {
		in, _, err := created(h.Create(ctx, TableSetup{Seats: seats}))
		if err != nil {
			t.Fatal(err)
		}
		g, err := st.Game(ctx, in.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := razzia.NewSetup(match.PlayerNames(g.Seats), g.Seed).Cheques; !reflect.DeepEqual(g.Cheques, want) {
			t.Errorf("%d seats: cheques %v, NewSetup deals %v", len(seats), g.Cheques, want)
		}
	}
}

// TestStoredChequesKept: a stored game is played with the cheques it was
// stored with, never dealt again from its seed, so a server restarted on a
// database of an older derivation continues its games as they were.
func TestStoredChequesKept(t *testing.T) {
	const ann, bob = "ann's token", "bob's token"
	seed := []byte("a seed of an older server, dealt another way")
	dealt := razzia.NewSetup([]string{"Ann", "Bob", "Cleo"}, seed).Cheques
	stored := [][]int{dealt[1], dealt[2], dealt[0]} // not what NewSetup deals
	tests := []struct {
		name   string
		status store.Status
		start  func(t *testing.T, h *Hub, id string)
	}{
		{"a game being played, resumed", store.StatusPlaying, func(t *testing.T, h *Hub, id string) {
			if n, err := h.Resume(testContext(t)); err != nil || n != 1 {
				t.Fatalf("resume: %d games, %v", n, err)
			}
		}},
		{"an open table, filled", store.StatusOpen, func(t *testing.T, h *Hub, id string) {
			if _, _, err := h.Join(testContext(t), id, 2, Person{Name: "Cleo"}); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testContext(t)
			st := memstore.New()
			g := &store.Game{ID: "abcdefghij", Status: tt.status, Cheques: stored, Seed: seed, Moves: []string{},
				Seats:   []store.Seat{{Name: "Ann", TokenHash: hashToken(ann)}, {Name: "Bob", TokenHash: hashToken(bob)}, {}},
				Created: time.Unix(1, 0)}
			if tt.status == store.StatusPlaying {
				g.Seats[2] = store.Seat{Name: "Cleo", TokenHash: hashToken("cleo's token")}
			}
			if err := st.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			h := newHub(t, st)
			tt.start(t, h, g.ID)
			sub, err := h.Watch(ctx, g.ID, Watcher{Token: ann})
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			u, ok := next(t, ctx, sub)
			if !ok || u.View == nil {
				t.Fatal("no view of the game")
			}
			for seat, want := range stored {
				if got := u.View.Seats[seat].FaceUp; !reflect.DeepEqual(got, want) {
					t.Errorf("seat %d holds %v, stored %v", seat, got, want)
				}
			}
		})
	}
}
