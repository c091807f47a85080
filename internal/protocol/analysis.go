package protocol

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
)

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
		Report *AnalysisReport `json:"report,omitempty"`
		// Failed says why the game could not be analysed.
		Failed string `json:"failed,omitempty"`
	}
	// HintsAnswer is the body of POST /api/games/{id}/hints: the moves the
	// engine likes best for your seat now, the best first, with your win
	// share after each (0 to 1).
	HintsAnswer struct {
		Seat  int    `json:"seat"`
		Moves int    `json:"moves"` // the moves played when the hints were made: view.moves
		Hints []Hint `json:"hints"`
	}
)

// An AnalysisLabel judges a move by its loss, the win share it gives up
// against the best move found (package analysis says where the
// thresholds are).
type AnalysisLabel string

// The labels, from the best to the worst.
const (
	LabelBest       AnalysisLabel = "best"
	LabelGood       AnalysisLabel = "good"
	LabelInaccuracy AnalysisLabel = "inaccuracy"
	LabelMistake    AnalysisLabel = "mistake"
	LabelBlunder    AnalysisLabel = "blunder"
)

// A WinShare is a win share, 0 to 1 (a win shared by k players counts
// 1/k); it encodes to JSON with 3 decimals, which is finer than the engine
// can tell.
type WinShare float64

// MarshalJSON encodes the share with at most 3 decimals, a difference that
// rounds to zero as 0, not -0.
func (s WinShare) MarshalJSON() ([]byte, error) {
	x := math.Round(float64(s)*1000) / 1000
	if x == 0 {
		x = 0 // drops the sign of -0
	}
	return strconv.AppendFloat(nil, x, 'f', -1, 64), nil
}

// An AnalysisDecision is the analysis of one move of a record.
type AnalysisDecision struct {
	Move   int    `json:"move"`   // its index in the record, from 1
	Seat   int    `json:"seat"`   // the seat that made it, from 0
	Played string `json:"played"` // its record token
	// Before is each seat's expected win share before the move, with the
	// best play the engine found.
	Before []WinShare `json:"before"`
	// Best is the best move found (a draw without its card) and BestValue
	// the mover's win share after it; PlayedValue is the mover's win share
	// after the move played, Loss the difference, never below 0.
	Best        string        `json:"best"`
	BestValue   WinShare      `json:"bestValue"`
	PlayedValue WinShare      `json:"playedValue"`
	Loss        WinShare      `json:"loss"`
	Label       AnalysisLabel `json:"label"`
	// Forced is set when the move was the only legal one. A move that
	// paid more than needed (a bid as high as a lower one could have won
	// with) is never the best move found.
	Forced bool `json:"forced,omitempty"`
	// Luck is set for a draw: what the card that came changed each seat's
	// win share by, against the draw's expected value.
	Luck []WinShare `json:"luck,omitempty"`
}

// An AnalysisReport is the analysis of a finished game, as package
// analysis makes it.
type AnalysisReport struct {
	Players    []string           `json:"players"`
	Winners    []int              `json:"winners"`
	Iterations int                `json:"iterations"` // per decision
	Decisions  []AnalysisDecision `json:"decisions"`  // one per move of the record
	// Summary tells, for each seat in order, how much of its result was
	// the cards and how much its play (package analysis: Summarise).
	Summary []AnalysisSummary `json:"summary"`
}

// An AnalysisSummary is one seat's account of a game, in win share (0 to
// 1 for a result, a difference of shares for the rest): its result is its
// chance at the start, plus its luck, plus the effect of the decisions
// made (its own, whose losses are its skill, and the others').
type AnalysisSummary struct {
	Seat int `json:"seat"`
	// Start is the seat's win share before the first move, as the engine
	// sees the deal and the seating.
	Start WinShare `json:"start"`
	// Result is the seat's share of the win: 1, 1/k for a win shared by
	// k, or 0.
	Result WinShare `json:"result"`
	// Luck is the sum, over every card drawn, of what it changed the
	// seat's win share by against the draw's expected value: about 0 in
	// the long run, whatever the seat's play.
	Luck WinShare `json:"luck"`
	// Skill is minus the win share the seat's moves gave up against the
	// best moves found (the sum of its losses): 0 for best play, below 0
	// otherwise.
	Skill WinShare `json:"skill"`
	// Adjusted is the luck-adjusted result, Result less Luck: what the
	// seat would have got, had the cards come as expected.
	Adjusted WinShare `json:"adjusted"`
}

// A Hint is one of the best moves for the seat to move, with its win
// share after it.
type Hint struct {
	Move      string   `json:"move"` // a record token; a draw without its card
	WinChance WinShare `json:"winChance"`
}

// Summarise returns each seat's account of the game of decisions, which
// winners won, among players seats.
func Summarise(decisions []AnalysisDecision, winners []int, players int) []AnalysisSummary {
	out := make([]AnalysisSummary, players)
	for p := range out {
		out[p].Seat = p
		if slices.Contains(winners, p) {
			out[p].Result = WinShare(1 / float64(len(winners)))
		}
	}
	if len(decisions) > 0 && len(decisions[0].Before) == players {
		for p := range out {
			out[p].Start = decisions[0].Before[p]
		}
	}
	for _, d := range decisions {
		if d.Seat >= 0 && d.Seat < players {
			out[d.Seat].Skill -= d.Loss
		}
		for p, l := range d.Luck[:min(len(d.Luck), players)] {
			out[p].Luck += l
		}
	}
	for p := range out {
		out[p].Adjusted = out[p].Result - out[p].Luck
	}
	return out
}

// UnmarshalJSON decodes a report, working out its summary from its
// decisions when it has none (a report stored before summaries were), so
// that every report read carries one.
func (r *AnalysisReport) UnmarshalJSON(b []byte) error {
	type plain AnalysisReport // without this method
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	if r.Summary == nil && len(r.Decisions) > 0 {
		r.Summary = Summarise(r.Decisions, r.Winners, len(r.Decisions[0].Before))
	}
	return nil
}
