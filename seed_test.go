package razzia

import (
	"fmt"
	"reflect"
	"testing"
)

// TestNewSetupGolden pins the derivation from a seed to a setup: a change
// would deal other cheques to every new game of a given seed, and change
// the bots a server seeds with SeededRand.
func TestNewSetupGolden(t *testing.T) {
	seed := []byte("golden")
	tests := []struct {
		name    string
		players int
		want    [][]int
	}{
		{"2 players", 2, [][]int{{3, 4, 7, 8}, {2, 5, 6, 9}}},
		{"3 players", 3, [][]int{{2, 5, 8, 13}, {4, 7, 10, 11}, {3, 6, 9, 12}}},
		{"4 players", 4, [][]int{{5, 9, 10}, {4, 8, 11}, {3, 7, 12}, {2, 6, 13}}},
		{"5 players", 5, [][]int{{4, 9, 14}, {2, 7, 16}, {5, 10, 13}, {6, 11, 12}, {3, 8, 15}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names := []string{"Ann", "Bob", "Cy", "Di", "Ed"}[:tt.players]
			got := NewSetup(names, seed)
			want := Setup{Players: names, Cheques: tt.want, Seed: seed}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("NewSetup(%q, %q) = %+v, want %+v", names, seed, got, want)
			}
		})
	}
	if got := SeededRand(seed, "bot 1").Uint64(); got != 8970682180405939973 {
		t.Errorf(`SeededRand(%q, "bot 1") first draws %d`, seed, got)
	}
}

// TestNewSetupDeals: every seed deals a setup NewGame accepts (R4), seeds
// reach every seating of the sets, the labels of SeededRand draw apart, and
// the setup shares nothing with the caller's slices.
func TestNewSetupDeals(t *testing.T) {
	names := []string{"Ann", "Bob", "Cy", "Di", "Ed"}
	for n := MinPlayers; n <= MaxPlayers; n++ {
		seen := map[string]bool{}
		for i := range 1500 {
			seed := fmt.Appendf(nil, "deal %d", i)
			setup := NewSetup(names[:n], seed)
			if _, err := NewGame(setup); err != nil {
				t.Fatalf("%d players, seed %q: %v", n, seed, err)
			}
			seen[fmt.Sprint(setup.Cheques)] = true
		}
		seatings := map[int]int{2: 2, 3: 6, 4: 24, 5: 120}[n]
		if len(seen) != seatings {
			t.Errorf("%d players: 1500 seeds dealt %d of the %d seatings", n, len(seen), seatings)
		}
	}
	if SeededRand([]byte("s"), "bot 0").Uint64() == SeededRand([]byte("s"), "bot 1").Uint64() {
		t.Error("two labels of one seed draw the same")
	}
	if SeededRand([]byte("ab"), "c").Uint64() == SeededRand([]byte("b"), "ca").Uint64() {
		t.Error("moving a byte between label and seed draws the same")
	}
	players, seed := []string{"Ann", "Bob"}, []byte("mine")
	setup := NewSetup(players, seed)
	players[0], seed[0] = "Zed", 'X'
	if setup.Players[0] != "Ann" || string(setup.Seed) != "mine" {
		t.Errorf("the setup changed with the caller's slices: %+v", setup)
	}
	if _, err := NewGame(NewSetup(names[:1], nil)); err == nil {
		t.Error("NewGame accepted the setup of one player")
	}
}
