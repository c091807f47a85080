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
	"github.com/razziagame/razzia/internal/playername"
	"github.com/razziagame/razzia/internal/recordview"
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
			recordview.WriteFailure(stdout, err)
			return 1
		}
		recordview.WriteJSON(stdout, g)
		return 0
	}
	if g != nil {
		recordview.WriteAccount(stdout, rec, g, err == nil)
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
