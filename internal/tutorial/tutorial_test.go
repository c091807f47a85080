package tutorial_test

import (
	"testing"

	"github.com/razziagame/razzia/internal/tutorial"
)

// TestAgainst: the move against each kind of advice, among the legal moves.
func TestAgainst(t *testing.T) {
	tests := []struct {
		name  string
		want  string
		legal []string
		got   string
	}{
		{"pass advised: the lowest bid", "pass", []string{"pass", "bid 5", "bid 8"}, "bid 5"},
		{"bid advised: pass", "bid 5", []string{"pass", "bid 5", "bid 8"}, "pass"},
		{"forced bid advised: the highest bid", "bid 2", []string{"bid 2", "bid 5", "bid 13"}, "bid 13"},
		{"draw advised: call", "draw", []string{"draw", "call"}, "call"},
		{"draw advised, no call: draw", "draw", []string{"draw"}, "draw"},
		{"call advised: draw", "call", []string{"draw", "call"}, "draw"},
		{"thief advised: draw", "thief car", []string{"draw", "call", "thief car"}, "draw"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tutorial.Against(tt.want, tt.legal); got != tt.got {
				t.Errorf("Against(%q, %q) = %q, want %q", tt.want, tt.legal, got, tt.got)
			}
		})
	}
}
