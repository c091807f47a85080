package razzia

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// TestGameLenToMoveOver: the game answers its length, the seat to move and
// whether it is over as its record and state do.
func TestGameLenToMoveOver(t *testing.T) {
	four := []string{"Miriam", "Felix", "Elke", "Dennis"}
	tests := []struct {
		name   string
		moves  []string
		len    int
		toMove int
		over   bool
	}{
		{"start: the highest cheque starts (R6)", nil, 0, 0, false},
		{"after a loot draw the next seat", []string{"draw watch"}, 1, 1, false},
		{"a police card opens an auction with the next seat", []string{"draw watch", "draw police"}, 2, 2, false},
		{"the caller decides last", []string{"call", "pass", "pass", "pass"}, 4, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGame(Setup{Players: four})
			if err != nil {
				t.Fatal(err)
			}
			for _, tok := range tt.moves {
				if err := g.PlayToken(tok); err != nil {
					t.Fatal(err)
				}
			}
			if g.Len() != tt.len || g.ToMove() != tt.toMove || g.Over() != tt.over {
				t.Errorf("Len %d, ToMove %d, Over %t; want %d, %d, %t", g.Len(), g.ToMove(), g.Over(), tt.len, tt.toMove, tt.over)
			}
		})
	}
	t.Run("a finished game", func(t *testing.T) {
		g := playSeeded(t, 3, []byte("over"), 1)
		st := g.State()
		if !g.Over() || g.ToMove() != -1 || g.Len() != len(g.Record().Moves) {
			t.Errorf("Len %d of %d moves, ToMove %d, Over %t", g.Len(), len(g.Record().Moves), g.ToMove(), g.Over())
		}
		if !reflect.DeepEqual(g.Winners(), st.Winners()) || len(g.Winners()) == 0 {
			t.Errorf("Winners %v, the state's %v", g.Winners(), st.Winners())
		}
	})
}

// TestGameCheck: Check answers as Play would, changes nothing, and a seeded
// draw it returns names the card Play then draws.
func TestGameCheck(t *testing.T) {
	four := []string{"Miriam", "Felix", "Elke", "Dennis"}
	over := playSeeded(t, 2, []byte("check"), 2)
	tests := []struct {
		name  string
		game  func() *Game
		move  Move
		want  Move // for a legal move; a draw that names no card is compared by action only
		err   error
		named string // the player the error names
	}{
		{"a call is legal at the start", func() *Game { return newTestGame(t, four, nil, "seed") }, Call(), Call(), nil, ""},
		{"a named draw stays named", func() *Game { return newTestGame(t, four, nil, "seed") }, Draw(Police), Draw(Police), nil, ""},
		{"a seeded draw names its card", func() *Game { return newTestGame(t, four, nil, "seed") }, Draw(NoKind), Draw(NoKind), nil, ""},
		{"a draw without a seed must name its card", func() *Game { return newTestGame(t, four, nil, "") }, Draw(NoKind), Move{}, ErrNoChance, "Miriam"},
		{"R10 a bid outside an auction", func() *Game { return newTestGame(t, four, nil, "seed") }, Bid(13), Move{}, ErrNoAuction, "Miriam"},
		{"R10 a bid of a cheque not held", func() *Game { return newTestGame(t, four, []string{"draw police"}, "seed") }, Bid(13), Move{}, ErrNotHeld, "Felix"},
		{"R18 nothing after the end", func() *Game { return over }, Call(), Move{}, ErrGameOver, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.game()
			before, moves := g.State(), g.Len()
			got, err := g.Check(tt.move)
			if g.State() != before || g.Len() != moves {
				t.Fatal("Check changed the game")
			}
			if tt.err != nil {
				var me *MoveError
				if !errors.Is(err, tt.err) || !errors.As(err, &me) || me.Player != tt.named || got != (Move{}) {
					t.Fatalf("Check(%v) = %v, %v; want the zero move and a *MoveError naming %q wrapping %v", tt.move, got, err, tt.named, tt.err)
				}
				if perr := g.Play(tt.move); perr == nil || perr.Error() != err.Error() {
					t.Errorf("Play says %v, Check %v", perr, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Check(%v): %v", tt.move, err)
			}
			if tt.want.Action == ActionDraw && tt.want.Card == NoKind {
				if got.Action != ActionDraw || got.Card == NoKind {
					t.Fatalf("Check(%v) = %v, want a draw naming its card", tt.move, got)
				}
			} else if got != tt.want {
				t.Fatalf("Check(%v) = %v, want %v", tt.move, got, tt.want)
			}
			if err := g.Play(tt.move); err != nil {
				t.Fatal(err)
			}
			if played := g.Moves()[moves]; played != got {
				t.Errorf("Play played %v, Check said %v", played, got)
			}
		})
	}
}

// newTestGame starts a game of the players with the seed ("": none) and
// plays the tokens.
func newTestGame(t *testing.T, players, tokens []string, seed string) *Game {
	t.Helper()
	g, err := NewGame(Setup{Players: players, Seed: []byte(seed)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range tokens {
		if err := g.PlayToken(tok); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestGameCheckThenPlay: at every step of seeded games, the move Check
// returns is the move Play records.
func TestGameCheckThenPlay(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		g := playSeeded(t, n, fmt.Appendf(nil, "check %d", n), uint64(n))
		replay, err := NewGame(Setup{Players: g.Players(), Seed: fmt.Appendf(nil, "check %d", n)})
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range g.Moves() {
			if m.Action == ActionDraw {
				m.Card = NoKind // let the seed choose again
			}
			checked, err := replay.Check(m)
			if err != nil {
				t.Fatalf("%d players, move %d: %v", n, i+1, err)
			}
			if err := replay.Play(checked); err != nil {
				t.Fatalf("%d players, move %d: Play of the checked %v: %v", n, i+1, checked, err)
			}
		}
		if !reflect.DeepEqual(replay.Moves(), g.Moves()) {
			t.Errorf("%d players: checking then playing gives another game", n)
		}
	}
}

// TestGameEventsSince: EventsSince(n) is the part of Events that the moves
// from the n-th on caused, for every n, in and out of range.
func TestGameEventsSince(t *testing.T) {
	g := playSeeded(t, 4, []byte("events since"), 4)
	all := g.Events()
	// marks[i] is the number of events the first i moves caused, counted
	// on a replay that reads its log after every move.
	replay, err := NewGame(Setup{Players: g.Players()})
	if err != nil {
		t.Fatal(err)
	}
	marks := []int{0}
	for _, m := range g.Moves() {
		if err := replay.Play(m); err != nil {
			t.Fatal(err)
		}
		marks = append(marks, len(replay.Events()))
	}
	last := g.Len() - 1
	tests := []struct {
		name string
		n    int
		want []Event
	}{
		{"below 0 counts as 0", -1, all},
		{"0 is every event", 0, all},
		{"the last move's", last, all[marks[last]:]},
		{"the middle on", g.Len() / 2, all[marks[g.Len()/2]:]},
		{"none at Len", g.Len(), nil},
		{"none beyond Len", g.Len() + 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := g.EventsSince(tt.n); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("EventsSince(%d): %d events, want %d", tt.n, len(got), len(tt.want))
			}
		})
	}
	t.Run("move by move", func(t *testing.T) {
		follow, err := NewGame(Setup{Players: g.Players()})
		if err != nil {
			t.Fatal(err)
		}
		var got []Event
		for i, m := range g.Moves() {
			if err := follow.Play(m); err != nil {
				t.Fatal(err)
			}
			step := follow.EventsSince(i)
			if len(step) == 0 {
				t.Fatalf("move %d (%v) caused no event", i+1, m)
			}
			got = append(got, step...)
		}
		if !reflect.DeepEqual(got, all) {
			t.Error("the events of each move, joined, are not Events()")
		}
	})
	t.Run("a copy", func(t *testing.T) {
		ev := g.EventsSince(last)
		ev[0].Seat = 99
		if g.EventsSince(last)[0].Seat == 99 {
			t.Error("changing the returned events changed the game's log")
		}
	})
}
