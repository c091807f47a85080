package protocol

import "time"

// A PuzzleTheme says what a puzzle is about (package puzzle decides).
type PuzzleTheme string

// The themes of puzzles.
const (
	ThemeBidOrPass      PuzzleTheme = "bid-or-pass"     // an auction: bid, or let the lot go
	ThemeWhichCheque    PuzzleTheme = "which-cheque"    // an auction: which cheque to bid
	ThemeCallOrDraw     PuzzleTheme = "call-or-draw"    // a turn: draw, or call an auction
	ThemeThieves        PuzzleTheme = "thieves"         // a turn where thieves could take row cards
	ThemeForcedAuction  PuzzleTheme = "forced-auction"  // a decision in an auction someone called
	ThemeChequeMajority PuzzleTheme = "cheque-majority" // round 3: the final cheque bonus is at stake
)

// PuzzleThemes lists the themes in the order they are offered.
var PuzzleThemes = []PuzzleTheme{ThemeBidOrPass, ThemeWhichCheque, ThemeCallOrDraw, ThemeThieves, ThemeForcedAuction, ThemeChequeMajority}

// Valid reports whether t is one of PuzzleThemes.
func (t PuzzleTheme) Valid() bool {
	for _, x := range PuzzleThemes {
		if x == t {
			return true
		}
	}
	return false
}

type (
	// A PuzzleMoveValue is what the engine found about one move of a
	// puzzle: the mover's win share after it (0 to 1).
	PuzzleMoveValue struct {
		Move  string   `json:"move"` // a record token; a draw without its card
		Share WinShare `json:"share"`
	}

	// A Puzzle is the body of GET /api/puzzles/{id}, /api/puzzles/next
	// and /api/puzzles/daily: a position of a finished game, seen from
	// the seat to move, and the question it asks. The answer is not in
	// it until the solver has answered (Verdict).
	Puzzle struct {
		ID      string        `json:"id"`
		Game    string        `json:"game"`    // the game it came from
		Replay  string        `json:"replay"`  // that game's replay page
		Move    int           `json:"move"`    // the moves played before it
		Seat    int           `json:"seat"`    // the seat to move, from 0
		Players []string      `json:"players"` // the game's names, by seat
		Themes  []PuzzleTheme `json:"themes"`
		// Rating is the puzzle's rating on the puzzle scale (package
		// puzzle: PuzzleRating), as solvers' are.
		Rating   int `json:"rating"`
		Attempts int `json:"attempts"`
		Solved   int `json:"solved"`
		// View is the position as the seat to move saw it, with its legal
		// moves; Events what happened in the game so far, told in the
		// language asked for (?lang=).
		View   View    `json:"view"`
		Events []Event `json:"events"`
		// Daily is the day (UTC, 2006-01-02) whose puzzle it is, if any.
		Daily string `json:"daily,omitempty"`
		// Verdict is set when the signed-in solver answered it already.
		Verdict *PuzzleVerdict `json:"verdict,omitempty"`
	}

	// PuzzleAnswerRequest is the body of POST /api/puzzles/{id}/answer.
	PuzzleAnswerRequest struct {
		Move string `json:"move"` // a record token, as View.Legal lists them
	}

	// A PuzzleVerdict is the answer to POST /api/puzzles/{id}/answer:
	// whether the move was the best, and the engine's evaluation.
	PuzzleVerdict struct {
		Answer  string `json:"answer"` // the move answered, as a record token
		Correct bool   `json:"correct"`
		Best    string `json:"best"`
		// Margin is the least lead of the best move over every other, in
		// win share.
		Margin WinShare `json:"margin"`
		// BestShare is the best move's win share; Share the answer's and
		// Loss the difference, when the answer was evaluated (a bid that
		// pays more than needed is not: Overpaid).
		BestShare WinShare  `json:"bestShare"`
		Share     *WinShare `json:"share,omitempty"`
		Loss      *WinShare `json:"loss,omitempty"`
		Overpaid  bool      `json:"overpaid,omitempty"`
		// Played is what the player at the table played.
		Played string `json:"played"`
		// Moves are every move worth making, the best first.
		Moves []PuzzleMoveValue `json:"moves"`
		// Rating is the solver's puzzle rating change; absent for a guest.
		Rating *PuzzleRatingChange `json:"rating,omitempty"`
		At     time.Time           `json:"at"`
	}

	// A PuzzleRatingChange is a solver's puzzle rating before and after
	// an answer, and the puzzle's after it, on the puzzle scale.
	PuzzleRatingChange struct {
		Before      int  `json:"before"`
		After       int  `json:"after"`
		Change      int  `json:"change"`
		Provisional bool `json:"provisional"`
		Puzzle      int  `json:"puzzle"`
	}

	// PuzzlesAnswer is the body of GET /api/puzzles: what there is to
	// solve, and the solver's rating.
	PuzzlesAnswer struct {
		Total  int                `json:"total"`
		Themes []PuzzleThemeCount `json:"themes"`
		// Solver is the signed-in solver's rating, absent for a guest;
		// Recent their last answers, the newest first.
		Solver *PuzzleSolver  `json:"solver,omitempty"`
		Recent []PuzzleAnswer `json:"recent,omitempty"`
	}
	// A PuzzleThemeCount is how many puzzles have a theme.
	PuzzleThemeCount struct {
		Theme PuzzleTheme `json:"theme"`
		Count int         `json:"count"`
	}
	// A PuzzleSolver is a solver's puzzle rating.
	PuzzleSolver struct {
		Rating      int  `json:"rating"` // the puzzle scale
		Attempts    int  `json:"attempts"`
		Solved      int  `json:"solved"`
		Provisional bool `json:"provisional"`
	}

	// GamePuzzles is the body of GET /api/games/{id}/puzzles: the puzzles
	// found in a finished game, its players' mistakes among them.
	GamePuzzles struct {
		// Status is pending until the game has been searched for puzzles.
		Status  AnalysisStatus `json:"status"`
		Puzzles []PuzzleBrief  `json:"puzzles"`
	}
	// A PuzzleBrief names a puzzle of a game.
	PuzzleBrief struct {
		ID     string        `json:"id"`
		Move   int           `json:"move"`
		Seat   int           `json:"seat"`
		Themes []PuzzleTheme `json:"themes"`
		Rating int           `json:"rating"`
	}

	// A PuzzleExport is what the server keeps of a solver: their puzzle
	// rating and every answer (the account's export holds it).
	PuzzleExport struct {
		Solver  PuzzleSolver   `json:"solver"`
		Answers []PuzzleAnswer `json:"answers"`
	}
	// A PuzzleAnswer is one answer kept: the move, right or not, when,
	// and the solver's puzzle rating before and after it.
	PuzzleAnswer struct {
		Puzzle  string    `json:"puzzle"`
		Move    string    `json:"move"`
		Correct bool      `json:"correct"`
		At      time.Time `json:"at"`
		Before  int       `json:"before"`
		After   int       `json:"after"`
	}

	// A LuckRecord is the luck and skill of a player over their analysed
	// finished games (GET /api/players/{name}/luck): averages in win
	// share, and the luckiest and unluckiest games.
	LuckRecord struct {
		Games    int      `json:"games"`
		Luck     WinShare `json:"luck"`     // mean luck
		Skill    WinShare `json:"skill"`    // mean skill (0 or below)
		Result   WinShare `json:"result"`   // mean result
		Adjusted WinShare `json:"adjusted"` // mean luck-adjusted result
		// Luckiest and Unluckiest are up to three games each, the most
		// extreme first.
		Luckiest   []LuckGame `json:"luckiest"`
		Unluckiest []LuckGame `json:"unluckiest"`
	}
	// A LuckGame is one seat's account of one analysed game.
	LuckGame struct {
		Game    string    `json:"game"`
		Replay  string    `json:"replay"`
		At      time.Time `json:"at"`
		Players int       `json:"players"`
		AnalysisSummary
	}
)
