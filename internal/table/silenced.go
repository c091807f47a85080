package table

import (
	"errors"
	"slices"

	"github.com/razziagame/razzia/internal/match"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/store"
)

// silenced reports why the person who sends c, a chat message at a table
// of seats, may not chat: the account of their seat, or the one they
// watch with, is muted, suspended or banned (Options.Silenced).
func silenced(f func(account string) error, seats []store.Seat, c match.Command) error {
	if f == nil || c.Kind != match.Chat {
		return nil
	}
	accounts := []string{c.Account}
	if seat := match.SeatOf(seats, c.Hash); seat >= 0 {
		accounts = append(accounts, seats[seat].Account)
	}
	for _, a := range slices.Compact(accounts) {
		if a == "" {
			continue
		}
		if err := f(a); err != nil {
			return hookError(err)
		}
	}
	return nil
}

// hookError is the Hub's error for a hook's refusal err, which wraps a
// *protocol.Refusal (the kind an answer passed between nodes carries).
func hookError(err error) error {
	var r *protocol.Refusal
	if !errors.As(err, &r) {
		return internal(err)
	}
	return &Error{Kind: r, Msg: err.Error(), Err: err}
}
