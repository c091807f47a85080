package protocol_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/servertest"
)

// TestReplay checks every step of whole games against the game replayed
// that far move by move: the view, and the events of that move alone.
func TestReplay(t *testing.T) {
	en := i18n.Default()
	for players := 2; players <= 5; players++ {
		t.Run(fmt.Sprint(players, " players"), func(t *testing.T) {
			rec := servertest.RandomGame(t, players, uint64(players)).Record()
			steps, game, err := protocol.Replay(rec, en)
			if err != nil {
				t.Fatal(err)
			}
			if len(steps) != len(rec.Moves)+1 || len(game.Moves()) != len(rec.Moves) {
				t.Fatalf("%d steps for %d moves", len(steps), len(rec.Moves))
			}
			g, err := razzia.NewGame(razzia.Setup{Players: rec.Players, Cheques: rec.Cheques})
			if err != nil {
				t.Fatal(err)
			}
			for i, step := range steps {
				logged := len(g.Events())
				if i > 0 {
					if err := g.PlayToken(rec.Moves[i-1]); err != nil {
						t.Fatal(err)
					}
				}
				want := protocol.Events(g.Events()[logged:], rec.Players, en)
				if got, want := jsonOf(t, step.View), jsonOf(t, protocol.NewView(g.View(-1))); got != want {
					t.Fatalf("step %d: view\n got %s\nwant %s", i, got, want)
				}
				if got, want := jsonOf(t, step.Events), jsonOf(t, want); got != want {
					t.Fatalf("step %d (%s): events\n got %s\nwant %s", i, rec.Moves[max(i-1, 0)], got, want)
				}
			}
		})
	}
	bad := &razzia.Record{Format: razzia.RecordFormat, Players: []string{"Ann", "Bob"}, Moves: []string{"draw car", "bid 99"}}
	var re *razzia.RecordError
	if _, _, err := protocol.Replay(bad, nil); !errors.As(err, &re) || re.Move != 2 {
		t.Errorf("a bad record replays with error %v", err)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// BenchmarkReplay replays a whole four-player game into steps.
func BenchmarkReplay(b *testing.B) {
	rec := servertest.RandomGame(b, 4, 11).Record()
	en := i18n.Default()
	for b.Loop() {
		if _, _, err := protocol.Replay(rec, en); err != nil {
			b.Fatal(err)
		}
	}
}
