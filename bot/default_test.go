package bot

import (
	"go/build"
	"slices"
	"testing"

	"github.com/razziagame/razzia"
)

// TestDefault checks the one safe-move policy, in both of its forms: the
// tokens are the moves' record tokens in the order of View.Legal.
func TestDefault(t *testing.T) {
	tests := []struct {
		name  string
		legal []string
		want  string
	}{
		{"auction: pass", []string{"pass", "bid 3", "bid 9"}, "pass"},
		{"R9 caller must bid: lowest bid", []string{"bid 4", "bid 10", "bid 11"}, "bid 4"},
		{"lowest bid in any order", []string{"bid 10", "bid 4", "bid 11"}, "bid 4"},
		{"turn: draw", []string{"draw", "call", "thief car"}, "draw"},
		{"turn without draw", []string{"call", "thief car"}, "call"},
		{"nothing legal", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DefaultMove(tt.legal); got != tt.want {
				t.Errorf("DefaultMove(%q) = %q, want %q", tt.legal, got, tt.want)
			}
			var moves []razzia.Move
			for _, tok := range tt.legal {
				m, err := razzia.ParseMove(tok)
				if err != nil {
					t.Fatal(err)
				}
				moves = append(moves, m)
			}
			if got := Default(moves); tt.want != "" && got.String() != tt.want || tt.want == "" && got != (razzia.Move{}) {
				t.Errorf("Default(%v) = %v, want %s", moves, got, tt.want)
			}
		})
	}
	// A token that does not parse is never chosen over one that does.
	if got := DefaultMove([]string{"sing", "draw"}); got != "draw" {
		t.Errorf("DefaultMove with a bad token = %q, want draw", got)
	}
	if got := DefaultMove([]string{"sing"}); got != "sing" {
		t.Errorf("DefaultMove of bad tokens only = %q, want the first", got)
	}
}

// TestFallback plays whole games with Fallback in every seat: it moves
// legally everywhere, and passes in every auction it can.
func TestFallback(t *testing.T) {
	for players := razzia.MinPlayers; players <= razzia.MaxPlayers; players++ {
		g := newGame(t, players, "fallback")
		var b Bot = Fallback{}
		for st := g.State(); !st.Over(); st = g.State() {
			v := g.View(st.ToMove())
			m := b.Choose(v)
			if m != Default(v.Legal) {
				t.Fatalf("Fallback chose %v, Default %v", m, Default(v.Legal))
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	}
}

// TestNoProgram checks that this package cannot start a program: none of
// its files imports os/exec (external programs are internal/botexec's).
func TestNoProgram(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(p.Imports, "os/exec") {
		t.Error("package bot imports os/exec")
	}
}
