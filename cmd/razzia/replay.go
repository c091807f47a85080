package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/playername"
)

const replaySynopsis = `
usage: razzia replay [--json] FILE|LINK

Replay replays a game record (docs/RECORD.md) move by move and reports
what happened and the scores. FILE "-" reads standard input; a game's
link on a server (http://host:8080/g/ID) reads its record from there.

Without --json it prints a round-by-round account with a score table after
each round; with --json, one JSON object: the players, whether the game is
finished, the round, the scores of each scored round by category, the
totals and the winners.

Exit status: 0 when every move is legal (the game may be unfinished), 1 for
an illegal move or a malformed file, 2 for a usage error.
`

// replay is the replay command.
func replay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("replay")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the account")
	files, status, done := parseFlags(fs, replaySynopsis, args, stdout, stderr)
	if done {
		return status
	}
	if len(files) != 1 {
		return usageError(stderr, fs, replaySynopsis, "want one FILE or LINK, got %d arguments", len(files))
	}
	rec, err := readRecord(files[0], stdin)
	var g *razzia.Game
	if err == nil {
		g, err = rec.Game()
	}
	if *asJSON {
		if err != nil {
			writeJSONError(stdout, err)
			return 1
		}
		writeJSONResult(stdout, g)
		return 0
	}
	if g != nil {
		writeAccount(stdout, rec, g, err == nil)
	}
	if err != nil {
		fmt.Fprintln(stderr, recordError("replay", files[0], err))
		return 1
	}
	return 0
}

// readRecord reads the record in the named file, or in stdin for "-". A
// file that cannot be opened is reported like a malformed one: a
// *razzia.RecordError for move 0. So is a file that is not JSON, with the
// line and column where it stops being JSON.
func readRecord(name string, stdin io.Reader) (*razzia.Record, error) {
	if isLink(name) {
		return fetchRecord(name)
	}
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, &razzia.RecordError{Err: err}
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, razzia.MaxRecordSize+1))
	if err != nil {
		return nil, &razzia.RecordError{Err: err}
	}
	rec, err := razzia.ReadRecord(bytes.NewReader(data))
	if re, ok := errors.AsType[*razzia.RecordError](err); ok && re.Move == 0 {
		if line, col, ok := syntaxPosition(data); ok {
			return nil, &razzia.RecordError{Err: fmt.Errorf("line %d, column %d: %w", line, col, re.Err)}
		}
	}
	if err != nil {
		return nil, err
	}
	return rec, checkShownNames(rec)
}

// checkShownNames refuses a record whose names would hide or reorder the
// text printed after them, by the server's rule for names (a bot's name
// is right in a record): they are printed to a terminal.
func checkShownNames(rec *razzia.Record) error {
	for i, name := range rec.Players {
		if err := playername.CheckShown(name); err != nil {
			return &razzia.RecordError{Err: fmt.Errorf("player %d: %w", i+1, err)}
		}
	}
	return nil
}

// isLink reports whether a FILE argument is a game's link on a server.
func isLink(name string) bool {
	return strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://")
}

// fetchRecord reads the record of the game a link names from its server;
// a network failure is said in words.
func fetchRecord(link string) (*razzia.Record, error) {
	server, id, err := client.ParseInvite(link)
	if err != nil {
		return nil, &razzia.RecordError{Err: err}
	}
	c, err := client.New(server)
	if err != nil {
		return nil, &razzia.RecordError{Err: err}
	}
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	rec, err := c.Record(ctx, id)
	if err != nil {
		return nil, &razzia.RecordError{Err: connectError(err, c.URL())}
	}
	return rec, checkShownNames(rec)
}

// syntaxPosition returns the line and column (in characters, from 1)
// where data stops being JSON, if it does.
func syntaxPosition(data []byte) (line, col int, ok bool) {
	var v json.RawMessage
	err := json.Unmarshal(data, &v)
	var offset int64
	if se, isSyntax := errors.AsType[*json.SyntaxError](err); isSyntax {
		offset = se.Offset - 1 // the offending byte: Offset is after it
	} else if err != nil && strings.Contains(err.Error(), "unexpected end of JSON input") {
		offset = int64(len(data))
	} else {
		return 0, 0, false
	}
	before := data[:min(max(offset, 0), int64(len(data)))]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = 1 + utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])
	return line, col, true
}

// recordError is a command's message about a record's file: the command,
// the file, and what is wrong with it (once, though the os package's
// errors name the file themselves).
func recordError(command, name string, err error) string {
	if name == "-" {
		name = "standard input"
	}
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		err = pe.Err
	}
	return fmt.Sprintf("razzia %s: %s: %v", command, name, err)
}

// replayResult is the JSON object replay --json prints on success (RECORD.md).
type replayResult struct {
	Players  []string         `json:"players"`
	Finished bool             `json:"finished"`
	Round    int              `json:"round"`
	Scores   [][]razzia.Score `json:"scores"`
	Totals   []int            `json:"totals"`
	Winners  []int            `json:"winners"`
}

// replayError is the JSON object replay --json prints for an illegal move
// or a malformed file.
type replayError struct {
	Error struct {
		Move   int    `json:"move"`
		Token  string `json:"token"`
		Reason string `json:"reason"`
	} `json:"error"`
}

func result(g *razzia.Game) replayResult {
	s := g.State()
	res := replayResult{
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

// writeJSONResult prints the result with one line per field and per scored
// round, so that people can read it too.
func writeJSONResult(w io.Writer, g *razzia.Game) {
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

// writeJSONError prints err as the error object of RECORD.md. Its reason is
// the underlying error's message; the move and the token have fields.
func writeJSONError(w io.Writer, err error) {
	var out replayError
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

// writeAccount prints the game round by round: the events, each auction
// compactly, a score table after each scored round, and the final totals
// and winners, or where the game stands when it is unfinished. complete is
// false when the replay stopped at an illegal move: the account then ends
// with the last legal one.
func writeAccount(w io.Writer, rec *razzia.Record, g *razzia.Game, complete bool) {
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
