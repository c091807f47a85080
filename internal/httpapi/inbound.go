package httpapi

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/razziagame/razzia/internal/protocol"
)

// A table socket's message is decoded once, into an inbound, whatever
// its type: its handler takes its own fields from it. A message that is
// malformed, or has a field its type has not, is decoded again as its
// type alone (its form), whose decoder says what is wrong, as a
// client is told it.

// An inbound is any message a client sends on a table socket: the
// fields of every type's form together (a test checks them).
type inbound struct {
	Type   string   `json:"type"`
	Move   string   `json:"move"`
	Action string   `json:"action"`
	Cheque int      `json:"cheque"`
	Cards  []string `json:"cards"`
	Seq    *int     `json:"seq"`
	Phrase string   `json:"phrase"`
	Text   string   `json:"text"`
	Seat   *int     `json:"seat"`
	Accept *bool    `json:"accept"`
	Away   *bool    `json:"away"`

	seqValue int // where Seq points when parseMove decoded the message
}

// fieldsOf returns the JSON names of the fields of form, a struct.
func fieldsOf(form any) []string {
	t := reflect.TypeOf(form)
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}

// parseInbound decodes data into m and returns its type's handler; the
// error is for the sender, as decoding data into the form of its type's
// handler says it.
func parseInbound(data []byte, m *inbound) (*wsHandler, error) {
	if parseMove(data, m) {
		return wsHandlers[protocol.TypeMove], nil
	}
	*m = inbound{}
	if json.Unmarshal(data, m) == nil {
		if h := handlerOf(m.Type); keysIn(data, h.fields) {
			return h, nil
		}
	}
	*m = inbound{}
	h := handlerOf(messageType(data))
	if err := decodeMessage(data, reflect.New(reflect.TypeOf(h.form)).Interface()); err != nil {
		return h, err
	}
	// The form took it (a key it matched as encoding/json does, beyond
	// keysIn's): its fields are inbound's.
	return h, json.Unmarshal(data, m)
}

// keysIn reports whether every key of the JSON object data (valid) is
// one of fields, matched as encoding/json matches them: a key with an
// escape or a byte outside ASCII is not (parse leaves it to the form).
func keysIn(data []byte, fields []string) bool {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			end := i + 1
			for ; data[end] != '"'; end++ {
				if data[end] == '\\' {
					end++
				}
			}
			if depth == 1 && isKey(data, end+1) && !knownKey(data[i+1:end], fields) {
				return false
			}
			i = end
		}
	}
	return true
}

// isKey reports whether the string ending before i is a member's key.
func isKey(data []byte, i int) bool {
	for ; i < len(data); i++ {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
		case ':':
			return true
		default:
			return false
		}
	}
	return false
}

// knownKey reports whether key, ASCII without escapes, is one of fields
// (lower case ASCII) but for case.
func knownKey(key []byte, fields []string) bool {
	for _, f := range fields {
		if len(f) == len(key) && asciiFold(key, f) {
			return true
		}
	}
	return false
}

// asciiFold reports whether key is f, lower case ASCII, but for case;
// false for a byte outside ASCII or an escape.
func asciiFold(key []byte, f string) bool {
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != f[i] {
			return false
		}
	}
	return true
}

// parseMove decodes data into m when it is a move as clients send it, in
// one pass and without reflection: an object of "type" (which is
// "move"), "move" and "seq", each once and spelled so, in any order, with
// strings of printable ASCII without escapes and an integer seq. Any
// other message, well formed or not, is parseInbound's (false), so that
// what is decoded and refused never depends on this path.
func parseMove(data []byte, m *inbound) bool {
	*m = inbound{}
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		return false
	}
	var typ, move, seq bool
	for {
		key, j, ok := plainString(data, skipSpace(data, i+1))
		if !ok {
			return false
		}
		if i = skipSpace(data, j); i == len(data) || data[i] != ':' {
			return false
		}
		i = skipSpace(data, i+1)
		switch string(key) {
		case "type":
			var v []byte
			v, i, ok = plainString(data, i)
			ok, typ = ok && !typ && string(v) == protocol.TypeMove, true
		case "move":
			var v []byte
			v, i, ok = plainString(data, i)
			ok, move = ok && !move, true
			m.Move = string(v)
		case "seq":
			m.seqValue, i, ok = plainInt(data, i)
			ok, seq = ok && !seq, true
			m.Seq = &m.seqValue
		default:
			ok = false
		}
		if i = skipSpace(data, i); !ok || i == len(data) {
			return false
		}
		if data[i] == '}' {
			break
		}
		if data[i] != ',' {
			return false
		}
	}
	if !typ || !move || !seq || skipSpace(data, i+1) != len(data) {
		*m = inbound{}
		return false
	}
	m.Type = protocol.TypeMove
	return true
}

// skipSpace returns where JSON's white space from i ends.
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// plainString returns the string at i, printable ASCII without escapes
// (its bytes are its value), and where it ends; false for anything else.
func plainString(data []byte, i int) ([]byte, int, bool) {
	if i == len(data) || data[i] != '"' {
		return nil, i, false
	}
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			return data[i+1 : j], j + 1, true
		case c < ' ' || c > '~' || c == '\\':
			return nil, j, false
		}
	}
	return nil, len(data), false
}

// plainInt returns the JSON integer at i, no fraction or exponent and
// small enough for any int, and where it ends; false for anything else.
func plainInt(data []byte, i int) (int, int, bool) {
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	start, n := i, 0
	for ; i < len(data) && '0' <= data[i] && data[i] <= '9'; i++ {
		n = n*10 + int(data[i]-'0')
	}
	switch digits := i - start; {
	case digits == 0 || digits > 9 || (digits > 1 && data[start] == '0'):
		return 0, i, false
	case i < len(data) && (data[i] == '.' || data[i] == 'e' || data[i] == 'E'):
		return 0, i, false
	}
	if neg {
		n = -n
	}
	return n, i, true
}
