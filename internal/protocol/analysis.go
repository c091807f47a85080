package protocol

import "github.com/razziagame/razzia/internal/analysis"

// AnalysisStatus says where the analysis of a finished game is.
type AnalysisStatus string

// The statuses of an analysis.
const (
	AnalysisPending AnalysisStatus = "pending" // queued or under way: ask again later
	AnalysisDone    AnalysisStatus = "done"    // Report holds it
	AnalysisFailed  AnalysisStatus = "failed"  // the engine refused the stored record: Failed says why
)

type (
	// AnalysisAnswer is the body of GET /api/games/{id}/analysis: the
	// analysis the server made of a finished game, in the background.
	AnalysisAnswer struct {
		Status AnalysisStatus `json:"status"`
		// Report is the analysis, as `razzia analyze --json` prints
		// it, when Status is done.
		Report *analysis.Report `json:"report,omitempty"`
		// Failed says why the game could not be analysed.
		Failed string `json:"failed,omitempty"`
	}
	// HintsAnswer is the body of POST /api/games/{id}/hints: the moves the
	// engine likes best for your seat now, the best first, with your win
	// share after each (0 to 1).
	HintsAnswer struct {
		Seat  int             `json:"seat"`
		Moves int             `json:"moves"` // the moves played when the hints were made: view.moves
		Hints []analysis.Hint `json:"hints"`
	}
)
