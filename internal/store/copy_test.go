package store_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/store"
)

func ExampleKind_Count() {
	games, analyses := store.KindOf("games"), store.KindOf("analyses")
	fmt.Println(games.Count(1), "and", analyses.Count(3))
	// Output: 1 game and 3 analyses
}

func TestKindCheck(t *testing.T) {
	moves := store.KindOf("moves")
	for _, c := range []struct {
		name string
		row  store.Row
		want string // in the error; "" for none
	}{
		{"good", store.Row{"g1", int64(3), "bid 4"}, ""},
		{"short", store.Row{"g1", int64(3)}, "a row of 2 values, want 3"},
		{"long", store.Row{"g1", int64(3), "bid 4", "x"}, "a row of 4 values, want 3"},
		{"int as int", store.Row{"g1", 3, "bid 4"}, "idx is a int, want integer"},
		{"NULL key", store.Row{nil, int64(3), "bid 4"}, "game_id is NULL"},
		{"bytes for text", store.Row{"g1", int64(3), []byte("bid 4")}, "token is a []uint8, want text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := moves.Check(c.row)
			if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("Check(%v) = %v, want %q", c.row, err, c.want)
			}
		})
	}
	if err := store.KindOf("passkeys").Check(store.Row{[]byte{1}, "a", "phone", []byte{2}, int64(1), nil}); err != nil {
		t.Errorf("a passkey never used: %v", err)
	}
}

func TestKindEqual(t *testing.T) {
	games := store.KindOf("games")
	at := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	row := func(expires any, seed []byte) store.Row {
		return store.Row{"g1", "playing", "[[1]]", seed, int64(1), int64(2), int64(0), "n1", int64(3), expires, nil, false, nil, nil, nil}
	}
	for _, c := range []struct {
		name string
		a, b store.Row
		want bool
	}{
		{"same", row(at, []byte{1}), row(at, []byte{1}), true},
		{"times to the microsecond", row(at, []byte{1}), row(at.Truncate(time.Microsecond).In(time.FixedZone("CET", 3600)), []byte{1}), true},
		{"another microsecond", row(at, []byte{1}), row(at.Add(time.Microsecond), []byte{1}), false},
		{"NULL and a time", row(at, []byte{1}), row(nil, []byte{1}), false},
		{"other bytes", row(at, []byte{1}), row(at, []byte{2}), false},
		{"short", row(at, []byte{1}), row(at, []byte{1})[:3], false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := games.Equal(c.a, c.b); got != c.want {
				t.Errorf("Equal = %v, want %v", got, c.want)
			}
		})
	}
}
