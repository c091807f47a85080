package rating

import (
	"fmt"
	"slices"
)

// Forfeit returns the ranks to rate a game with in which some players
// timed out or left (forfeited[i]), given the finishing order by score
// (ranks[i], 1 for first, equal for a tie, as Rate takes them).
//
// The rule: a player who timed out or left loses the rated
// game, whatever the bot that played for them scored; the others are
// rated by their finishing order as usual. So every player who stayed
// keeps their order and finishes ahead of every player who forfeited, and
// the players who forfeited share the last place: between them the game
// counts as a draw. When nobody stayed, all share one rank and the caller
// may well not rate the game at all.
//
// The ranks returned are dense, 1, 2, 3, ..., and the input is not
// changed. It returns an error wrapping ErrGame for lengths that differ or
// a rank below 1.
func Forfeit(ranks []int, forfeited []bool) ([]int, error) {
	if len(ranks) != len(forfeited) {
		return nil, fmt.Errorf("%w: %d ranks but %d forfeit marks", ErrGame, len(ranks), len(forfeited))
	}
	var stayed []int
	for i, r := range ranks {
		if r < 1 {
			return nil, fmt.Errorf("%w: player %d has rank %d; ranks start at 1", ErrGame, i+1, r)
		}
		if !forfeited[i] {
			stayed = append(stayed, r)
		}
	}
	slices.Sort(stayed)
	stayed = slices.Compact(stayed)
	out := make([]int, len(ranks))
	for i, r := range ranks {
		if forfeited[i] {
			out[i] = len(stayed) + 1
			continue
		}
		j, _ := slices.BinarySearch(stayed, r)
		out[i] = j + 1
	}
	return out, nil
}

// Ranks returns the ranks Rate takes for a game whose players scored
// scores, higher better: 1 for the highest, equal scores sharing a rank
// (a shared win, R18), dense (1, 1, 2).
func Ranks(scores []int) []int {
	distinct := slices.Clone(scores)
	slices.Sort(distinct)
	slices.Reverse(distinct)
	distinct = slices.Compact(distinct)
	ranks := make([]int, len(scores))
	for i, s := range scores {
		ranks[i] = slices.Index(distinct, s) + 1
	}
	return ranks
}
