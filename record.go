package razzia

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// RecordFormat is the format name of the game record this package reads and writes.
const RecordFormat = "razzia-record/1"

// MaxRecordSize is the largest record ReadRecord accepts, in bytes; a
// complete game needs a few kilobytes.
const MaxRecordSize = 1 << 20

// ErrRecord is the sentinel for a malformed record file.
var ErrRecord = errors.New("malformed record")

// A Record is a game record (RECORD.md): the players, the cheque sets and
// every move, draws naming their cards.
type Record struct {
	Format  string   `json:"format"`
	Players []string `json:"players"`
	Cheques [][]int  `json:"cheques,omitempty"` // nil: the rulebook sets in seat order
	Moves   []string `json:"moves"`             // record tokens
}

// A RecordError reports a malformed record or an illegal move in one.
type RecordError struct {
	Move  int    // the 1-based index into the moves; 0 when the file itself is malformed
	Token string // the move's token as written
	Err   error  // a *MoveError, a *SyntaxError, or wraps ErrRecord
}

func (e *RecordError) Error() string {
	if e.Move == 0 {
		return e.Err.Error()
	}
	return fmt.Sprintf("move %d (%s): %v", e.Move, e.Token, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// ReadRecord reads a record. Unknown top-level fields are ignored; the
// format, the players and the cheques are checked, the moves are not (Game
// replays them).
func ReadRecord(r io.Reader) (*Record, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxRecordSize+1))
	if err != nil {
		return nil, malformed("cannot read the record: %v", err)
	}
	if len(data) > MaxRecordSize {
		return nil, malformed("the record is larger than %d bytes", MaxRecordSize)
	}
	// Fields are matched by their exact names (encoding/json alone would
	// also take "Moves" for "moves"); others are ignored (RECORD.md).
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&fields); err != nil || fields == nil {
		return nil, malformed("the record is not a valid JSON object: %v", describeJSONError(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, malformed("the record has data after its JSON object")
	}
	var raw struct {
		Format  *string
		Players []string
		Cheques [][]int
		Moves   []json.RawMessage
	}
	for _, f := range []struct {
		name string
		dst  any
	}{{"format", &raw.Format}, {"players", &raw.Players}, {"cheques", &raw.Cheques}, {"moves", &raw.Moves}} {
		if v, ok := fields[f.name]; ok {
			if err := json.Unmarshal(v, f.dst); err != nil {
				return nil, malformed("the record's %q field is malformed: %v", f.name, describeJSONError(err))
			}
		}
	}
	switch {
	case raw.Format == nil:
		return nil, malformed(`the record has no "format" (want %q)`, RecordFormat)
	case *raw.Format != RecordFormat:
		return nil, malformed("the record's format is %q, not %q", *raw.Format, RecordFormat)
	case raw.Moves == nil:
		return nil, malformed(`the record has no "moves" list`)
	}
	rec := &Record{Format: *raw.Format, Players: raw.Players, Cheques: raw.Cheques, Moves: make([]string, len(raw.Moves))}
	for i, m := range raw.Moves {
		if err := json.Unmarshal(m, &rec.Moves[i]); err != nil {
			return nil, &RecordError{Move: i + 1, Token: string(m),
				Err: fmt.Errorf("%w: a move is a string such as \"draw police\", not %s", ErrRecord, m)}
		}
	}
	if _, err := rec.newGame(); err != nil {
		return nil, &RecordError{Err: fmt.Errorf("%w: %w", ErrRecord, err)}
	}
	return rec, nil
}

// describeJSONError turns a decoding error into words without Go type names.
func describeJSONError(err error) string {
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
		return "it is null"
	case errors.As(err, &typeErr):
		return fmt.Sprintf("found a JSON %s where %s was expected", typeErr.Value, jsonKind(typeErr.Type.Kind().String()))
	}
	return err.Error()
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string", "ptr":
		return "a string"
	case "slice":
		return "a list"
	case "int":
		return "a whole number"
	case "map", "struct":
		return "an object"
	}
	return "another type"
}

func malformed(format string, args ...any) error {
	return &RecordError{Err: fmt.Errorf("%w: %s", ErrRecord, fmt.Sprintf(format, args...))}
}

func (r *Record) newGame() (*Game, error) {
	return NewGame(Setup{Players: r.Players, Cheques: r.Cheques})
}

// Game replays the record. On an illegal or malformed move it returns the
// game as it stood before that move and a *RecordError naming it.
func (r *Record) Game() (*Game, error) {
	g, err := r.newGame()
	if err != nil {
		return nil, &RecordError{Err: fmt.Errorf("%w: %w", ErrRecord, err)}
	}
	for i, tok := range r.Moves {
		m, err := ParseMove(tok)
		if err == nil && m.Action == ActionDraw && m.Card == NoKind {
			err = &SyntaxError{Token: tok, Err: ErrSyntax, msg: "a draw in a record names the card revealed, such as draw police"}
		}
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			return g, &RecordError{Move: i + 1, Token: tok, Err: err}
		}
	}
	return g, nil
}

// WriteTo writes the record as JSON for people to read too: one field per
// line, each cheque set on one line, one move per line.
func (r *Record) WriteTo(w io.Writer) (int64, error) {
	format := r.Format
	if format == "" {
		format = RecordFormat
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"format\": ")
	writeJSON(&b, format)
	b.WriteString(",\n  \"players\": ")
	writeJSON(&b, r.Players)
	if r.Cheques != nil {
		b.WriteString(",\n  \"cheques\": [")
		for i, set := range r.Cheques {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(&b, set)
		}
		b.WriteString("]")
	}
	b.WriteString(",\n  \"moves\": [")
	for i, m := range r.Moves {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    ")
		writeJSON(&b, m)
	}
	if len(r.Moves) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	n, err := w.Write(b.Bytes())
	return int64(n), err
}

// writeJSON writes a string, a list of strings or a list of numbers on one
// line, with a space after commas and without escaping &, < and > (a record
// is not HTML).
func writeJSON[T string | []string | []int](b *bytes.Buffer, v T) {
	switch v := any(v).(type) {
	case string:
		enc := json.NewEncoder(b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(v)       // a string always encodes
		b.Truncate(b.Len() - 1) // Encode's newline
	case []string:
		b.WriteByte('[')
		for i, s := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSON(b, s)
		}
		b.WriteByte(']')
	case []int:
		b.WriteByte('[')
		for i, n := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(n))
		}
		b.WriteByte(']')
	}
}
