package table

import (
	"github.com/razziagame/razzia/internal/store"
	"github.com/razziagame/razzia/internal/tutorial"
)

// isTutorial reports whether the seats are a tutorial's.
func isTutorial(seats []store.Seat) bool {
	for _, s := range seats {
		if s.Bot == tutorial.Bot {
			return true
		}
	}
	return false
}
