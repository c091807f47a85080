package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Analyses keeps the analyses of finished games, which a pool of workers
// makes in the background, on any node: a worker claims the game that
// waited longest (ClaimAnalysis), analyses it and stores the result
// (PutAnalysis). A claim lapses after its ttl, so a game whose worker died
// (a node stopped, a server restarted) is claimed again; two workers never
// hold live claims on one game. The store keeps the report as the opaque
// bytes it is given.
type Analyses interface {
	// ClaimAnalysis claims for node, for ttl, the finished game without
	// a stored analysis or a live claim that finished first, and
	// returns its id; "" when every finished game is analysed or
	// claimed. Claims expire by the database's clock.
	ClaimAnalysis(ctx context.Context, node string, ttl time.Duration) (string, error)
	// PutAnalysis stores the analysis of finished game id, replacing any
	// stored, and ends its claim. A game that is not finished is
	// ErrConflict, an unknown one ErrNotFound.
	PutAnalysis(ctx context.Context, id string, a Analysis) error
	// Analysis returns the stored analysis of game id: ErrNotFound when
	// there is none (yet), or no such game.
	Analysis(ctx context.Context, id string) (Analysis, error)
}

// An Analysis is the stored result of analysing a game: its report, or
// why it could not be made (a stored record the engine refuses), so that
// a game that cannot be analysed is not tried again and again.
type Analysis struct {
	Report  []byte    // the report, JSON; nil when Failed is set
	Failed  string    // why there is no report; "" when there is
	Created time.Time // set by the store when it stores the analysis
}

// ErrNoAnalysis is the ErrNotFound of a game that exists but has no
// stored analysis.
var ErrNoAnalysis = fmt.Errorf("no analysis stored: %w", ErrNotFound)

// MaxAnalysis bounds the bytes of a stored report or failure.
const MaxAnalysis = 4 << 20

// Check reports what makes a unfit to store for game id: both or neither
// of a report and a failure, or too many bytes.
func (a Analysis) Check(id string) error {
	switch {
	case len(a.Report) == 0 && a.Failed == "":
		return fmt.Errorf("game %q: an analysis with neither a report nor a failure", id)
	case len(a.Report) > 0 && a.Failed != "":
		return fmt.Errorf("game %q: an analysis with both a report and a failure", id)
	case len(a.Report) > MaxAnalysis || len(a.Failed) > MaxAnalysis:
		return fmt.Errorf("game %q: an analysis of %d bytes; at most %d", id, max(len(a.Report), len(a.Failed)), MaxAnalysis)
	}
	return nil
}

// CheckClaim reports what makes a ClaimAnalysis unfit: no node name or a
// ttl that is not positive.
func CheckClaim(node string, ttl time.Duration) error {
	switch {
	case node == "":
		return errors.New("store: an analysis claimed for a node with no name")
	case ttl <= 0:
		return fmt.Errorf("store: an analysis claimed for %v: want a positive duration", ttl)
	}
	return nil
}
