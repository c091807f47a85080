package postgres

import (
	"fmt"
	"testing"

	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/store/postgres/pgtest"
)

// BenchmarkDeltasSince measures a replica's read of the new move of 1, 4
// and 16 games at once (the notices of one batch), each game 30 moves
// long: the read a node makes for every batch of moves other nodes commit.
func BenchmarkDeltasSince(b *testing.B) {
	c := pgtest.NewCluster(b)
	for _, games := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			s := open(b, c.DB(b))
			defer s.Close()
			from := map[string]int{}
			for i := range games {
				id := fmt.Sprintf("delta%05d", i)
				g := &store.Game{ID: id, Status: store.StatusPlaying, Seats: make([]store.Seat, 4)}
				if err := s.CreateGame(b.Context(), g); err != nil {
					b.Fatal(err)
				}
				for m := range 30 {
					if err := s.AppendMove(b.Context(), id, store.NoFence, m, "bid 9", store.StatusPlaying); err != nil {
						b.Fatal(err)
					}
				}
				from[id] = 29
			}
			b.ResetTimer()
			for b.Loop() {
				d, err := s.DeltasSince(b.Context(), from)
				if err != nil || len(d) != games {
					b.Fatalf("DeltasSince = %d games, %v; want %d", len(d), err, games)
				}
			}
		})
	}
}
