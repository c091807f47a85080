package httpapi

import (
	"encoding/json"
	"reflect"
	"strings"
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
