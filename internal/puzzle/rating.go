package puzzle

import (
	"math"

	"github.com/razziagame/razzia/internal/rating"
)

// Puzzles and solvers are rated with the games' model (package rating,
// Weng–Lin): each answer is a game of two, the solver and the puzzle,
// which the solver wins by answering right. A puzzle's skill does not
// change, so its rating has no Tau: it only grows surer.

// ProvisionalAttempts is how many answers end a solver's provisional
// period: a "?" follows the rating until then.
const ProvisionalAttempts = 10

// Model returns the rating model of solvers.
func Model() rating.Model { return rating.Default() }

// Rate returns the solver's and the puzzle's ratings after the solver
// answered, right or not.
func Rate(solver, puzzle rating.Rating, correct bool) (rating.Rating, rating.Rating) {
	ranks := []int{2, 1}
	if correct {
		ranks = []int{1, 2}
	}
	m := Model()
	s, err := m.Rate([]rating.Rating{solver, puzzle}, ranks)
	if err != nil {
		return solver, puzzle // ratings from the store are finite
	}
	m.Tau = 0
	p, err := m.Rate([]rating.Rating{solver, puzzle}, ranks)
	if err != nil {
		return solver, puzzle
	}
	return s[0], p[1]
}

// Scale returns a rating on the puzzle scale: 1500 for a new solver or
// puzzle, 50 a point of the mean (Mu), never below 0. Solvers and puzzles
// are matched by their means, so the scale shows the mean, not the
// conservative ordinal the leaderboard of games ranks by.
func Scale(r rating.Rating) int {
	d := math.Round(rating.DisplayBase + rating.DisplayScale*(r.Mu-Model().Mu))
	if !(d > 0) {
		return 0
	}
	return int(d)
}
