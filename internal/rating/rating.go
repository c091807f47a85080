// Package rating rates players from the finishing order of their games
// with the Weng–Lin model (R. C. Weng and C.-J. Lin, "A Bayesian
// Approximation Method for Online Ranking", JMLR 12, 2011), in its
// Plackett–Luce form, as the OpenSkill libraries do.
//
// A Rating is a normal belief about a player's skill: mean Mu, standard
// deviation Sigma. After each game, Model.Rate moves every player's Mu
// towards what the finishing order says and shrinks its Sigma. Players
// are ranked by the conservative Ordinal, Mu − 3 Sigma. Each player is a
// team of one; several may share a rank (a shared win, R18).
//
// The update is deterministic: the same ratings and ranks always give the
// same new ratings, bit for bit.
package rating

import (
	"errors"
	"fmt"
	"math"
)

// A Rating is a belief about a player's skill: a normal distribution with
// mean Mu and standard deviation Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Ordinal returns Mu − 3 Sigma: a skill the player exceeds with about
// 99.9% belief, which ranks a new player with few games below a proven one
// of the same Mu.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// The display scale: what players read, a number on the scale they know
// from chess. A new player shows DisplayBase; each point of Ordinal is
// DisplayScale points of the display; the display is never below 0. It
// rises and falls with Ordinal, so that it orders players as the
// leaderboard does.
const (
	DisplayBase  = 1500
	DisplayScale = 50
)

// Display returns the rating on the display scale: DisplayBase +
// DisplayScale × Ordinal, rounded, and 0 for anything lower (or not a
// number). A new player (Mu 25, Sigma 25/3, Ordinal 0) shows 1500.
func (r Rating) Display() int {
	d := math.Round(DisplayBase + DisplayScale*r.Ordinal())
	if !(d > 0) {
		return 0
	}
	return int(d)
}

// DisplayChange returns how many display points going from before to
// after is: the change a player reads at the end of a rated game.
func DisplayChange(before, after Rating) int { return after.Display() - before.Display() }

// Interval returns the central 95% interval of the belief, Mu ± 1.96 Sigma.
func (r Rating) Interval() (low, high float64) {
	const z = 1.959963984540054
	return r.Mu - z*r.Sigma, r.Mu + z*r.Sigma
}

// A Model holds the constants of the rating system.
type Model struct {
	Mu    float64 // the Mu of a new player
	Sigma float64 // the Sigma of a new player
	// Beta is the spread of one game's performance around the skill: the
	// larger, the more luck, and the less one game moves a rating.
	Beta float64
	// Kappa keeps a Sigma from shrinking below a sliver of itself in one game.
	Kappa float64
	// Tau is added to every Sigma (in variance) before a game, so that a
	// rating keeps following a player whose skill changes; 0 for players
	// that never change, such as bots.
	Tau float64
}

// Default returns the OpenSkill libraries' Plackett–Luce defaults: Mu 25,
// Sigma 25/3, Beta Sigma/2, Kappa 0.0001, Tau Mu/300.
func Default() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300}
}

// New returns the rating of a new player.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// ErrGame is the sentinel wrapped by the errors of Rate for a game it
// cannot rate.
var ErrGame = errors.New("cannot rate the game")

// MaxPlayers bounds the players of one game; the update takes time
// quadratic in their number.
const MaxPlayers = 64

// Rate returns the players' ratings after one game in which player i, rated
// ratings[i] before it, finished at ranks[i]: 1 for first, 2 for second and
// so on, equal ranks for a tie (only the order of the ranks matters). It
// returns an error wrapping ErrGame, and changes nothing, for fewer than
// two players, more than MaxPlayers, lengths that differ, or a rating that
// is not finite or has a Sigma not above 0.
func (m Model) Rate(ratings []Rating, ranks []int) ([]Rating, error) {
	n := len(ratings)
	switch {
	case n < 2:
		return nil, fmt.Errorf("%w: %d players; a game needs two or more", ErrGame, n)
	case n > MaxPlayers:
		return nil, fmt.Errorf("%w: %d players; at most %d", ErrGame, n, MaxPlayers)
	case len(ranks) != n:
		return nil, fmt.Errorf("%w: %d ratings but %d ranks", ErrGame, n, len(ranks))
	}
	for i, r := range ratings {
		if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || !(r.Sigma > 0) || math.IsInf(r.Sigma, 0) {
			return nil, fmt.Errorf("%w: player %d's rating (mu %v, sigma %v) is not finite with a positive sigma", ErrGame, i+1, r.Mu, r.Sigma)
		}
	}

	// Variances, widened by Tau, and the game's spread c (eq. 29 of the
	// paper with teams of one).
	v := make([]float64, n)
	c2 := 0.0
	for i, r := range ratings {
		v[i] = r.Sigma*r.Sigma + m.Tau*m.Tau
		c2 += v[i] + m.Beta*m.Beta
	}
	c := math.Sqrt(c2)

	// e[i] is exp(mu_i/c); sum[q] sums it over the players who did not
	// finish ahead of q, the ones who could still be chosen when q was
	// placed in the Plackett–Luce story; tied[q] counts q's rank.
	e := make([]float64, n)
	for i, r := range ratings {
		e[i] = math.Exp(r.Mu / c)
	}
	sum := make([]float64, n)
	tied := make([]float64, n)
	for q := range n {
		for i := range n {
			if ranks[i] >= ranks[q] {
				sum[q] += e[i]
			}
			if ranks[i] == ranks[q] {
				tied[q]++
			}
		}
	}

	out := make([]Rating, n)
	for i := range n {
		omega, delta := 0.0, 0.0
		for q := range n {
			if ranks[q] > ranks[i] {
				continue
			}
			p := e[i] / sum[q] // the chance i is placed when q was
			if q == i {
				omega += (1 - p) / tied[q]
			} else {
				omega -= p / tied[q]
			}
			delta += p * (1 - p) / tied[q]
		}
		omega *= v[i] / c
		gamma := math.Sqrt(v[i]) / c
		delta *= gamma * v[i] / c2
		out[i] = Rating{
			Mu:    ratings[i].Mu + omega,
			Sigma: math.Sqrt(v[i] * max(1-delta, m.Kappa)),
		}
	}
	return out, nil
}
