package store

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
)

// Puzzles keeps the puzzles found in finished games, the answers of their
// solvers with the ratings of both, and each seat's luck and skill in the
// analysed games. A pool of workers finds them in the background, on any
// node, as the analyses are made: a worker claims an analysed game
// (ClaimPuzzleScan), searches it and stores what it found (PutPuzzleScan),
// and a claim lapses after its ttl, as an analysis's does.
type Puzzles interface {
	// ClaimPuzzleScan claims for node, for ttl, the finished game with a
	// stored analysis (a report, or why there is none) that has no scan
	// stored nor a live claim and finished first, and returns its id; ""
	// when there is none.
	ClaimPuzzleScan(ctx context.Context, node string, ttl time.Duration) (string, error)
	// PutPuzzleScan stores the scan of finished game id, its puzzles
	// (replacing those it had) and the luck of its seats, and ends its
	// claim. A game that is not finished is ErrConflict, an unknown one
	// ErrNotFound; a puzzle of another game is refused.
	PutPuzzleScan(ctx context.Context, id string, scan PuzzleScan) error
	// PuzzleScanned reports whether game id was scanned: ErrNotFound for
	// no such game.
	PuzzleScanned(ctx context.Context, id string) (bool, error)

	// Puzzle returns the puzzle id, or ErrNotFound.
	Puzzle(ctx context.Context, id string) (*Puzzle, error)
	// GamePuzzles returns the puzzles of game id in the order of the
	// game (none for a game without).
	GamePuzzles(ctx context.Context, id string) ([]*Puzzle, error)
	// NextPuzzle returns the puzzle q asks for, or ErrNotFound when none
	// is left.
	NextPuzzle(ctx context.Context, q PuzzleQuery) (*Puzzle, error)
	// DailyPuzzle returns the puzzle of day (UTC, "2006-01-02"): the
	// first asked for a day picks it, among the puzzles that were never
	// a day's, the clearest (largest margin, then the smallest id), and
	// every node reads the same afterwards. ErrNotFound when there is no
	// puzzle to pick.
	DailyPuzzle(ctx context.Context, day string) (*Puzzle, error)
	// PuzzleThemes returns how many puzzles there are with each theme,
	// and in all under "".
	PuzzleThemes(ctx context.Context) (map[string]int, error)

	// PuzzleSolver returns the puzzle rating of account: ErrNotFound
	// when it never answered one.
	PuzzleSolver(ctx context.Context, account string) (Solver, error)
	// PuzzleAttempt returns the answer account gave to puzzle id:
	// ErrNotFound when it gave none.
	PuzzleAttempt(ctx context.Context, id, account string) (*PuzzleAttempt, error)
	// PuzzleAttempts returns the answers account gave, the newest first,
	// at most limit (all when limit <= 0).
	PuzzleAttempts(ctx context.Context, account string, limit int) ([]*PuzzleAttempt, error)
	// AnswerPuzzle stores an answer with, in the same transaction, the
	// solver's and the puzzle's new ratings: the solver's stored rating
	// must still be a.SolverBefore (none stored: a new solver's) and the
	// puzzle's a.PuzzleBefore, else ErrConflict (rate again from the new
	// ones). A second answer of one account to one puzzle is
	// ErrAnswered; an unknown puzzle ErrNotFound, an unknown account
	// ErrNoAccount.
	AnswerPuzzle(ctx context.Context, a PuzzleAttempt) error

	// PutSeatLuck stores the luck of the seats of finished game id,
	// replacing what was stored of those seats: as soon as the game is
	// analysed, before any search for puzzles. A game that is not
	// finished is ErrConflict, an unknown one ErrNotFound.
	PutSeatLuck(ctx context.Context, id string, luck []SeatLuck) error
	// SeatLuck returns the luck of account's seats in its analysed
	// finished games, the most recently finished first, at most limit.
	SeatLuck(ctx context.Context, account string, limit int) ([]SeatLuck, error)
}

// ErrAnswered is a second answer of one solver to one puzzle. It is an
// ErrConflict, so that the stores undo it as one.
var ErrAnswered = fmt.Errorf("the puzzle was answered already: %w", ErrConflict)

// A Puzzle is a stored puzzle.
type Puzzle struct {
	ID     string
	Game   string
	Move   int // the moves played before the position
	Seat   int
	Themes []string
	Best   string  // the best move's record token
	Margin float64 // the best move's least lead, in win share
	Eval   []byte  // the evaluation, JSON (package puzzle)
	// Rating is the puzzle's; Games counts its answers.
	Rating  Rating
	Solved  int // the right answers
	Created time.Time
}

// A PuzzleScan is what a scan of a game found: its puzzles and each
// seat's luck and skill.
type PuzzleScan struct {
	Puzzles []*Puzzle
	Luck    []SeatLuck
}

// A SeatLuck is one seat's account of one analysed game, in win share.
type SeatLuck struct {
	Game     string
	Seat     int
	Players  int       // set by the store when it reads
	Finished time.Time // set by the store when it reads: the game's last update
	Start    float64
	Result   float64
	Luck     float64
	Skill    float64
	Adjusted float64
}

// A Solver is an account's puzzle rating; Games counts its answers.
type Solver struct {
	Rating Rating
	Solved int
}

// A PuzzleAttempt is one account's answer to one puzzle, with the
// ratings before and after it.
type PuzzleAttempt struct {
	Puzzle  string
	Account string
	Answer  string // the record token answered
	Correct bool
	At      time.Time
	// The ratings' Games are ignored: the store counts the answers.
	SolverBefore, SolverAfter Rating
	PuzzleBefore, PuzzleAfter Rating
}

// A PuzzleQuery asks for the next puzzle of a solver: one the account
// (if any) never answered, not in Skip, with Theme (if any), whose
// rating's mean is nearest Mu.
type PuzzleQuery struct {
	Account string
	Theme   string
	Mu      float64
	Skip    []string
}

// MaxSkip bounds PuzzleQuery.Skip.
const MaxSkip = 200

// MaxPuzzleEval bounds the bytes of a puzzle's evaluation.
const MaxPuzzleEval = 64 << 10

// Check reports what makes the scan unfit to store for game id.
func (s PuzzleScan) Check(id string) error {
	seen := map[string]bool{}
	for _, p := range s.Puzzles {
		switch {
		case p == nil || p.ID == "" || p.Game != id:
			return fmt.Errorf("game %q: a puzzle of another game or without an id", id)
		case seen[p.ID]:
			return fmt.Errorf("game %q: puzzle %q twice", id, p.ID)
		case p.Move < 0 || p.Seat < 0 || p.Best == "" || len(p.Themes) == 0:
			return fmt.Errorf("puzzle %q: move %d, seat %d, best %q, %d themes", p.ID, p.Move, p.Seat, p.Best, len(p.Themes))
		case len(p.Eval) == 0 || len(p.Eval) > MaxPuzzleEval:
			return fmt.Errorf("puzzle %q: an evaluation of %d bytes", p.ID, len(p.Eval))
		case !finite(p.Margin, p.Rating.Mu, p.Rating.Sigma) || !(p.Rating.Sigma > 0):
			return fmt.Errorf("puzzle %q: margin %v, rating %v", p.ID, p.Margin, p.Rating)
		}
		for _, t := range p.Themes {
			if t == "" || strings.Contains(t, ",") {
				return fmt.Errorf("puzzle %q: theme %q", p.ID, t)
			}
		}
		seen[p.ID] = true
	}
	for _, l := range s.Luck {
		if l.Game != id || l.Seat < 0 || !finite(l.Start, l.Result, l.Luck, l.Skill, l.Adjusted) {
			return fmt.Errorf("game %q: the luck of seat %d of game %q: %+v", id, l.Seat, l.Game, l)
		}
	}
	return nil
}

// Check reports what makes the answer unfit to store.
func (a PuzzleAttempt) Check() error {
	switch {
	case a.Puzzle == "" || a.Account == "" || a.Answer == "":
		return fmt.Errorf("an answer to puzzle %q by %q: %q", a.Puzzle, a.Account, a.Answer)
	case !finite(a.SolverBefore.Mu, a.SolverBefore.Sigma, a.SolverAfter.Mu, a.SolverAfter.Sigma,
		a.PuzzleBefore.Mu, a.PuzzleBefore.Sigma, a.PuzzleAfter.Mu, a.PuzzleAfter.Sigma) ||
		!(a.SolverAfter.Sigma > 0) || !(a.PuzzleAfter.Sigma > 0):
		return fmt.Errorf("an answer to puzzle %q: ratings not finite with a positive sigma", a.Puzzle)
	}
	return nil
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// JoinThemes and SplitThemes store a puzzle's themes as one text,
// ",a,b,": a theme matches LIKE '%,a,%'.
func JoinThemes(themes []string) string { return "," + strings.Join(themes, ",") + "," }

// SplitThemes is the inverse of JoinThemes.
func SplitThemes(s string) []string {
	s = strings.Trim(s, ",")
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func init() {
	// The puzzles' tables, copied after the games and accounts they
	// refer to.
	Kinds = append(Kinds, puzzleKinds...)
}

var puzzleKinds = []*Kind{
	{Table: "puzzle_scans", One: "game searched for puzzles", Many: "games searched for puzzles", Key: 1, Columns: []Column{
		{"game_id", Text}, {"created", Int}, {"claim_node", Text}, {"claim_expires", Time},
	}, Nullable: nullable("created", "claim_node", "claim_expires")},
	{Table: "puzzles", One: "puzzle", Many: "puzzles", Key: 1, Columns: []Column{
		{"id", Text}, {"game_id", Text}, {"move", Int}, {"seat", Int}, {"themes", Text}, {"best", Text},
		{"margin", Real}, {"eval", Blob}, {"mu", Real}, {"sigma", Real}, {"attempts", Int}, {"solved", Int},
		{"created", Int}, {"daily", Text},
	}, Nullable: nullable("daily")},
	{Table: "seat_luck", One: "seat's luck and skill", Many: "seats' luck and skill", Key: 2, Columns: []Column{
		{"game_id", Text}, {"seat", Int}, {"start", Real}, {"result", Real}, {"luck", Real}, {"skill", Real}, {"adjusted", Real},
	}},
	{Table: "puzzle_solvers", One: "puzzle solver's rating", Many: "puzzle solvers' ratings", Key: 1, Columns: []Column{
		{"account_id", Text}, {"mu", Real}, {"sigma", Real}, {"attempts", Int}, {"solved", Int},
	}},
	{Table: "puzzle_attempts", One: "puzzle answer", Many: "puzzle answers", Key: 2, Columns: []Column{
		{"puzzle_id", Text}, {"account_id", Text}, {"answer", Text}, {"correct", Bool}, {"at", Int},
		{"solver_mu", Real}, {"solver_sigma", Real}, {"solver_mu_after", Real}, {"solver_sigma_after", Real},
		{"puzzle_mu", Real}, {"puzzle_sigma", Real}, {"puzzle_mu_after", Real}, {"puzzle_sigma_after", Real},
	}},
}
