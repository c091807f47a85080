package protocol_test

import (
	"testing"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/protocol"
)

// puzzleExamples adds the examples of the puzzles' answers: a puzzle at
// the walk-through's position where Cy, with a thief, is to move, its
// answer and verdict, the puzzles of a game and a player's luck.
func puzzleExamples(t *testing.T, add func(string, any)) {
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
	const id, game = "k3x7q2m5ab-8", "k3x7q2m5ab"
	events := protocol.Events(g.Events(), players, english)
	p := protocol.Puzzle{ID: id, Game: game, Replay: protocol.ReplayPath(game), Move: g.Len(), Seat: g.ToMove(), Players: players,
		Themes: []protocol.PuzzleTheme{protocol.ThemeThieves}, Rating: 1540, Attempts: 12, Solved: 5,
		View: protocol.NewView(g.View(g.ToMove())), Events: events[len(events)-2:]}
	add("puzzle", p)
	add("puzzles", protocol.PuzzlesAnswer{Total: 212, Themes: []protocol.PuzzleThemeCount{
		{Theme: protocol.ThemeBidOrPass, Count: 121}, {Theme: protocol.ThemeWhichCheque, Count: 18}, {Theme: protocol.ThemeCallOrDraw, Count: 52},
		{Theme: protocol.ThemeThieves, Count: 9}, {Theme: protocol.ThemeForcedAuction, Count: 31}, {Theme: protocol.ThemeChequeMajority, Count: 14},
	}, Solver: &protocol.PuzzleSolver{Rating: 1610, Attempts: 23, Solved: 15},
		Recent: []protocol.PuzzleAnswer{{Puzzle: game + "-57", Move: "bid 9", Correct: true, At: time.Date(2026, 11, 24, 18, 1, 40, 0, time.UTC), Before: 1588, After: 1610}}})
	add("puzzle-answer", protocol.PuzzleAnswerRequest{Move: "thief gold"})
	share, loss := protocol.WinShare(0.41), protocol.WinShare(0.14)
	add("puzzle-verdict", protocol.PuzzleVerdict{Answer: "thief gold", Correct: false, Best: "draw", Margin: 0.11, BestShare: 0.55,
		Share: &share, Loss: &loss, Played: "thief gold",
		Moves:  []protocol.PuzzleMoveValue{{Move: "draw", Share: 0.55}, {Move: "thief gold", Share: 0.41}, {Move: "call", Share: 0.37}},
		Rating: &protocol.PuzzleRatingChange{Before: 1610, After: 1589, Change: -21, Puzzle: 1552},
		At:     time.Date(2026, 11, 24, 18, 2, 7, 0, time.UTC)})
	add("game-puzzles", protocol.GamePuzzles{Status: protocol.AnalysisDone, Puzzles: []protocol.PuzzleBrief{
		{ID: id, Move: 8, Seat: 2, Themes: []protocol.PuzzleTheme{protocol.ThemeThieves}, Rating: 1540},
		{ID: game + "-57", Move: 57, Seat: 0, Themes: []protocol.PuzzleTheme{protocol.ThemeBidOrPass, protocol.ThemeForcedAuction}, Rating: 1500},
	}})
	at := time.Date(2026, 11, 20, 21, 14, 0, 0, time.UTC)
	add("player-luck", protocol.LuckRecord{Games: 37, Luck: 0.012, Skill: -0.21, Result: 0.38, Adjusted: 0.368,
		Luckiest: []protocol.LuckGame{{Game: game, Replay: protocol.ReplayPath(game), At: at, Players: 3,
			AnalysisSummary: protocol.AnalysisSummary{Seat: 0, Start: 0.31, Result: 1, Luck: 0.48, Skill: -0.09, Adjusted: 0.52}}},
		Unluckiest: []protocol.LuckGame{{Game: "p4q2r7s3tu", Replay: protocol.ReplayPath("p4q2r7s3tu"), At: at.Add(-26 * time.Hour), Players: 2,
			AnalysisSummary: protocol.AnalysisSummary{Seat: 1, Start: 0.52, Result: 0, Luck: -0.44, Skill: -0.12, Adjusted: 0.44}}}})
}
