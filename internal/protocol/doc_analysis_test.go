package protocol_test

import (
	"context"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/analysis"
	"github.com/razziagame/razzia/internal/protocol"
)

// analysisExamples adds the examples of the analysis and hint answers,
// made by the engine with few iterations: the walk-through's game, played
// to its end by the first legal move, and Cy's hints at its start.
func analysisExamples(t *testing.T, add func(string, any)) {
	players := []string{"Ann", "Bot 2 (hard)", "Cy"}
	g, err := razzia.NewGame(razzia.Setup{Players: players, Seed: []byte("example")})
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range exampleMoves {
		if err := g.PlayToken(tok); err != nil {
			t.Fatal(err)
		}
	}
	v := g.View(2)
	hints, err := analysis.Hints(context.Background(), v, analysis.Options{Iterations: 300})
	if err != nil {
		t.Fatal(err)
	}
	add("hints", protocol.HintsAnswer{Seat: 2, Moves: v.Moves, Hints: hints})
	for !g.Over() {
		if err := g.Play(g.LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := analysis.Analyze(context.Background(), g.Record(), analysis.Options{Iterations: 100})
	if err != nil {
		t.Fatal(err)
	}
	// The first decisions stand for all: a draw (with its luck), a bid.
	rep.Decisions = rep.Decisions[:4]
	add("analysis", protocol.AnalysisAnswer{Status: protocol.AnalysisDone, Report: rep})
	add("analysis-pending", protocol.AnalysisAnswer{Status: protocol.AnalysisPending})
}
