// Package recordview writes what a game record shows: the account of the
// game for people, round by round with its score tables, and its result
// or the record's fault as the JSON objects of docs/RECORD.md.
package recordview

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/i18n"
)

// A Result is the JSON object of a game replayed (RECORD.md): razzia
// replay --json prints it.
type Result struct {
	Players  []string         `json:"players"`
	Finished bool             `json:"finished"`
	Round    int              `json:"round"`
	Scores   [][]razzia.Score `json:"scores"`
	Totals   []int            `json:"totals"`
	Winners  []int            `json:"winners"`
}

// A Failure is the JSON object of a record with an illegal move or
// malformed (RECORD.md).
type Failure struct {
	Error struct {
		Move   int    `json:"move"`
		Token  string `json:"token"`
		Reason string `json:"reason"`
	} `json:"error"`
}

func result(g *razzia.Game) Result {
	s := g.State()
	res := Result{
		Players:  g.Players(),
		Finished: s.Over(),
		Round:    s.Round(),
		Scores:   [][]razzia.Score{},
		Totals:   s.Totals(),
		Winners:  []int{},
	}
	for r := 1; r <= s.ScoredRounds(); r++ {
		res.Scores = append(res.Scores, s.Scores(r))
	}
	res.Winners = append(res.Winners, s.Winners()...)
	return res
}

// WriteJSON prints the result with one line per field and per scored
// round, so that people can read it too.
func WriteJSON(w io.Writer, g *razzia.Game) {
	res := result(g)
	var b strings.Builder
	fmt.Fprintf(&b, "{\n  \"players\": %s,\n", marshal(res.Players))
	fmt.Fprintf(&b, "  \"finished\": %t,\n  \"round\": %d,\n", res.Finished, res.Round)
	if len(res.Scores) == 0 {
		b.WriteString("  \"scores\": [],\n")
	} else {
		b.WriteString("  \"scores\": [\n")
		for r, round := range res.Scores {
			b.WriteString("    [\n")
			for i, sc := range round {
				b.WriteString("      " + marshal(sc))
				b.WriteString(comma(i, len(round)) + "\n")
			}
			b.WriteString("    ]" + comma(r, len(res.Scores)) + "\n")
		}
		b.WriteString("  ],\n")
	}
	fmt.Fprintf(&b, "  \"totals\": %s,\n  \"winners\": %s\n}\n", marshal(res.Totals), marshal(res.Winners))
	io.WriteString(w, b.String())
}

func comma(i, n int) string {
	if i < n-1 {
		return ","
	}
	return ""
}

// WriteFailure prints err as the error object of RECORD.md. Its reason is
// the underlying error's message; the move and the token have fields.
func WriteFailure(w io.Writer, err error) {
	var out Failure
	out.Error.Reason = err.Error()
	if re, ok := errors.AsType[*razzia.RecordError](err); ok {
		out.Error.Move, out.Error.Token, out.Error.Reason = re.Move, re.Token, re.Err.Error()
	}
	io.WriteString(w, marshal(out)+"\n")
}

// marshal encodes v as compact JSON, leaving <, > and & as they are: the
// output is read by people and programs, never embedded in HTML.
func marshal(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // the values replay encodes always encode
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// WriteAccount prints the game round by round: the events, each auction
// compactly, a score table after each scored round, and the final totals
// and winners, or where the game stands when it is unfinished. complete is
// false when the replay stopped at an illegal move: the account then ends
// with the last legal one.
func WriteAccount(w io.Writer, rec *razzia.Record, g *razzia.Game, complete bool) {
	players := g.Players()
	s := g.State()
	n := len(players)
	cheques := rec.Cheques
	if cheques == nil {
		cheques = razzia.ChequeSets(n)
	}
	var b strings.Builder
	b.WriteString("Players (cheques):")
	for i, p := range players {
		fmt.Fprintf(&b, " %s (%s)", p, razzia.ChequesOf(cheques[i]...))
		b.WriteString(comma(i, n))
	}
	b.WriteString("\n")

	var (
		round   = 1
		bidding []string // the bids and passes of the running auction
		totals  = make([]int, n)
	)
	heading := func() { fmt.Fprintf(&b, "\nRound %d\n", round) }
	heading()
	events := g.Events()
	en := i18n.Default()
	for i, e := range events {
		line := en.Narrate(e, players)
		switch e.Kind {
		case razzia.EventDraw, razzia.EventThieves:
			b.WriteString("  " + line + "\n")
		case razzia.EventAuction:
			fmt.Fprintf(&b, "  %s Row: %s.\n", line, rowText(e.Cards))
		case razzia.EventBid, razzia.EventPass:
			bidding = append(bidding, line)
		case razzia.EventWin, razzia.EventNoWinner:
			if len(bidding) > 0 {
				b.WriteString("    " + strings.Join(bidding, " ") + "\n")
			}
			b.WriteString("    " + line + "\n")
			bidding = nil
		case razzia.EventRoundEnd:
			b.WriteString("  " + line + "\n\n")
			for j, sc := range e.Scores {
				totals[j] += sc.Total()
			}
			scoreTable(&b, players, e.Round, e.Scores, totals)
			if round < razzia.Rounds && (i+1 < len(events) || !s.Over()) {
				round++
				heading()
			}
		case razzia.EventGameOver:
			b.WriteString("\nFinal totals\n")
			width := 0
			for _, p := range players {
				width = max(width, utf8.RuneCountInString(p))
			}
			for j, p := range players {
				fmt.Fprintf(&b, "  %s  %4d\n", pad(p, width), totals[j])
			}
			b.WriteString(line + "\n")
		}
	}
	if len(bidding) > 0 { // the replay stopped inside an auction
		b.WriteString("    " + strings.Join(bidding, " ") + "\n")
	}
	if complete && !s.Over() {
		fmt.Fprintf(&b, "\nThe game is unfinished: round %d, %s to move", s.Round(), players[s.ToMove()])
		if s.Phase() == razzia.PhaseAuction {
			b.WriteString(" in the auction")
		}
		b.WriteString(".\n")
	}
	io.WriteString(w, b.String())
}

func rowText(row []razzia.Kind) string {
	if len(row) == 0 {
		return "empty"
	}
	names := make([]string, len(row))
	for i, k := range row {
		names[i] = k.Name()
	}
	return strings.Join(names, ", ")
}

// scoreTable prints a round's scores by category, one column per player,
// with the round's totals and the game's totals so far. Businesses and
// cheques only score in round 3 (R17), so earlier tables leave them out.
func scoreTable(b *strings.Builder, players []string, round int, scores []razzia.Score, totals []int) {
	labels := []string{fmt.Sprintf("Round %d", round)}
	cats := razzia.NumCategories
	if round < razzia.Rounds {
		cats = int(razzia.CategoryBusinesses)
	}
	for c := range cats {
		labels = append(labels, razzia.Category(c).String())
	}
	labels = append(labels, "round total", "game total")
	lw := 0
	for _, l := range labels {
		lw = max(lw, len(l))
	}
	widths := make([]int, len(players))
	for j, p := range players {
		widths[j] = max(utf8.RuneCountInString(p), 4)
	}
	cells := func(label string, value func(j int) string) {
		b.WriteString("  " + pad(label, lw))
		for j := range players {
			v := value(j)
			b.WriteString("  " + strings.Repeat(" ", widths[j]-utf8.RuneCountInString(v)) + v)
		}
		b.WriteString("\n")
	}
	cells(labels[0], func(j int) string { return players[j] })
	for c := range cats {
		cells(labels[c+1], func(j int) string { return fmt.Sprint(scores[j][c]) })
	}
	cells("round total", func(j int) string { return fmt.Sprint(scores[j].Total()) })
	cells("game total", func(j int) string { return fmt.Sprint(totals[j]) })
}

// pad pads s with spaces to width runes.
func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-utf8.RuneCountInString(s)))
}
