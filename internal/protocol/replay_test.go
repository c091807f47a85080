package protocol_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/bot"
	"github.com/razziagame/razzia/internal/gametest"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/protocol"
)

// TestReplay checks every step of whole games against the game replayed
// that far move by move: the move, the view its patch gives, and the
// events of that move alone.
func TestReplay(t *testing.T) {
	en := i18n.Default()
	for players := 2; players <= 5; players++ {
		t.Run(fmt.Sprint(players, " players"), func(t *testing.T) {
			rec := gametest.Random(t, players, uint64(players)).Record()
			start, steps, game, err := protocol.Replay(rec, en)
			if err != nil {
				t.Fatal(err)
			}
			if len(steps) != len(rec.Moves) || len(game.Moves()) != len(rec.Moves) {
				t.Fatalf("%d steps for %d moves", len(steps), len(rec.Moves))
			}
			// Through JSON, as a client reads it.
			var a protocol.ReplayAnswer
			if err := json.Unmarshal(jsonOf(t, protocol.ReplayAnswer{Start: start, Steps: steps}), &a); err != nil {
				t.Fatal(err)
			}
			views, err := a.Views()
			if err != nil {
				t.Fatal(err)
			}
			g, err := razzia.NewGame(razzia.Setup{Players: rec.Players, Cheques: rec.Cheques})
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range views {
				logged := len(g.Events())
				if i > 0 {
					if err := g.PlayToken(rec.Moves[i-1]); err != nil {
						t.Fatal(err)
					}
					if s := a.Steps[i-1]; s.Move != rec.Moves[i-1] {
						t.Fatalf("step %d is move %q, want %q", i, s.Move, rec.Moves[i-1])
					}
				}
				if got, want := jsonOf(t, v), jsonOf(t, protocol.NewView(g.View(-1))); string(got) != string(want) {
					t.Fatalf("step %d: view\n got %s\nwant %s", i, got, want)
				}
				if i == 0 {
					continue
				}
				want := protocol.Events(g.Events()[logged:], rec.Players, en)
				if got, want := jsonOf(t, a.Steps[i-1].Events), jsonOf(t, want); string(got) != string(want) {
					t.Fatalf("step %d (%s): events\n got %s\nwant %s", i, rec.Moves[i-1], got, want)
				}
			}
		})
	}
	bad := &razzia.Record{Format: razzia.RecordFormat, Players: []string{"Ann", "Bob"}, Moves: []string{"draw car", "bid 99"}}
	var re *razzia.RecordError
	if _, _, _, err := protocol.Replay(bad, nil); !errors.As(err, &re) || re.Move != 2 {
		t.Errorf("a bad record replays with error %v", err)
	}
}

// TestPatch checks the patch rules of docs/protocol.md on small values.
func TestPatch(t *testing.T) {
	tests := []struct{ name, target, patch, want string }{
		{"a member set", `{"a":1,"b":2}`, `{"b":3}`, `{"a":1,"b":3}`},
		{"a member added", `{"a":1}`, `{"c":{"d":1}}`, `{"a":1,"c":{"d":1}}`},
		{"a member removed", `{"a":1,"b":2}`, `{"b":null}`, `{"a":1}`},
		{"nested", `{"a":{"x":1,"y":2}}`, `{"a":{"y":5}}`, `{"a":{"x":1,"y":5}}`},
		{"an array replaced", `{"a":[1,2]}`, `{"a":[3]}`, `{"a":[3]}`},
		{"array elements", `{"a":[{"x":1},{"x":2},{"x":3}]}`, `{"a":{"1":{"x":9}}}`, `{"a":[{"x":1},{"x":9},{"x":3}]}`},
		{"an index out of range", `[1,2]`, `{"5":3,"-1":3,"x":3}`, `[1,2]`},
		{"a scalar replaced", `{"a":"x"}`, `{"a":true}`, `{"a":true}`},
		{"an object over nothing", `null`, `{"a":1}`, `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var target, patch any
			json.Unmarshal([]byte(tt.target), &target)
			json.Unmarshal([]byte(tt.patch), &patch)
			before := string(jsonOf(t, target))
			got := jsonOf(t, protocol.Patch(target, patch))
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if after := string(jsonOf(t, target)); after != before {
				t.Errorf("the target changed: %s", after)
			}
		})
	}
}

// TestReplaySize checks that a whole five-player game's replay is small:
// a view per move was 382 KB for this game (11.5 KB gzipped).
func TestReplaySize(t *testing.T) {
	g := botGame(t, 5)
	start, steps, _, err := protocol.Replay(g.Record(), i18n.Default())
	if err != nil {
		t.Fatal(err)
	}
	b := jsonOf(t, protocol.ReplayAnswer{Start: start, Steps: steps})
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(b)
	w.Close()
	t.Logf("%d moves: %d bytes, %d gzipped", len(steps), len(b), z.Len())
	if per := len(b) / len(steps); per > 700 {
		t.Errorf("%d bytes per move", per)
	}
}

// botGame plays a whole game between medium bots, whose games are as long
// as people's.
func botGame(t testing.TB, players int) *razzia.Game {
	t.Helper()
	names := []string{"Miriam", "Felix", "Elke", "Dennis", "Ann"}[:players]
	g, err := razzia.NewGame(razzia.Setup{Players: names, Seed: []byte("size")})
	if err != nil {
		t.Fatal(err)
	}
	var bots []bot.Bot
	for i := range names {
		b, err := bot.New("medium", uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	for !g.Over() {
		s := g.State()
		if err := g.Play(bots[s.ToMove()].Choose(g.View(s.ToMove()))); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkReplay replays a whole four-player game into steps.
func BenchmarkReplay(b *testing.B) {
	rec := gametest.Random(b, 4, 11).Record()
	en := i18n.Default()
	for b.Loop() {
		if _, _, _, err := protocol.Replay(rec, en); err != nil {
			b.Fatal(err)
		}
	}
}
